#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the whole crbench sweep under the commroof tracer, one traced process
# per family, and leaves one trace and one log per family:
#
#   OUT/kernels-<family>.json   the trace (traces/README.md format)
#   OUT/kernels-<family>.log    crbench's table (CUDA-event medians, checks)
#
# usage: kernels/run_sweep.sh [-o OUT] [--quick] [--families "hbm ce ..."]
#                             [--no-build] [-- extra crbench options]
# Environment: BUILD (default build), COMMROOF (the commroof binary, default
# $BUILD/commroof), TRACE_LIB (default $BUILD/libcommroof_trace.so),
# SWEEP_FAMILY_TIMEOUT (seconds per family, default 300).
#
# The sweep takes 19-26 s on one H200 (traces/h200-1: 26 s on 2026-11-29,
# 19 s on 2026-12-01; the budget is 10 minutes) plus the build. Exit
# status: 0 when every family ran and every check passed; 1 otherwise (the
# other families still run).
set -u

BUILD=${BUILD:-build}
OUT=traces/new
QUICK=
FAMILIES="hbm ce mech gemm launch nccl p2p"
DO_BUILD=1
while [ $# -gt 0 ]; do
    case "$1" in
    -o) OUT=$2; shift 2 ;;
    --quick) QUICK=--quick; shift ;;
    --families) FAMILIES=$2; shift 2 ;;
    --no-build) DO_BUILD=0; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '3,18p' "$0"; exit 0 ;;
    *) echo "run_sweep.sh: unknown argument \"$1\" (see --help)" >&2; exit 2 ;;
    esac
done

# NVLink multicast stays off everywhere (DEVELOPERS.md, KINDS.md).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# crbench's own ranges name every case; NCCL's ranges (tens of thousands per
# sweep) would only swell the traces. Set CR_KEEP_NCCL_NVTX=1 to keep them.
[ "${CR_KEEP_NCCL_NVTX:-0}" = 1 ] || export NCCL_NVTX_DISABLE=1

if [ "$DO_BUILD" = 1 ]; then
    make --no-print-directory BUILD="$BUILD" kernels >"$BUILD.kernels-build.log" 2>&1 ||
        { cat "$BUILD.kernels-build.log" >&2; echo "run_sweep.sh: kernels build failed" >&2; exit 1; }
fi
CRBENCH=$BUILD/kernels/crbench
COMMROOF=${COMMROOF:-$BUILD/commroof}
TRACE_LIB=${TRACE_LIB:-$BUILD/libcommroof_trace.so}
[ -x "$CRBENCH" ] || { echo "run_sweep.sh: $CRBENCH missing (make kernels)" >&2; exit 1; }
[ -f "$TRACE_LIB" ] || { echo "run_sweep.sh: tracer $TRACE_LIB missing" >&2; exit 1; }
TRACE_LIB=$(cd "$(dirname "$TRACE_LIB")" && pwd)/$(basename "$TRACE_LIB")

# NCCL: crbench dlopen()s libnccl.so.2; find one if the loader path has none.
if [ -z "${CR_NCCL_LIB:-}" ]; then
    for f in /usr/local/cuda/lib64/libnccl.so.2 /usr/lib/x86_64-linux-gnu/libnccl.so.2 \
             $(python3 -c 'import glob, os, sys
for p in sys.path:
    for f in sorted(glob.glob(os.path.join(p, "nvidia", "**", "libnccl.so.2"), recursive=True)):
        print(f)' 2>/dev/null); do
        if [ -f "$f" ]; then export CR_NCCL_LIB="$f"; break; fi
    done
fi

# `commroof trace` where it runs here; otherwise the same variables by hand
# (the device image may lack libxml2/jansson for the CLI).
use_cli=0
if [ -x "$COMMROOF" ] && "$COMMROOF" trace --help >/dev/null 2>&1; then use_cli=1; fi

mkdir -p "$OUT"
rc=0
start=$(date +%s)
for fam in $FAMILIES; do
    tdir=$OUT/.tmp-$fam
    rm -rf "$tdir"; mkdir -p "$tdir"
    t0=$(date +%s)
    if [ $use_cli = 1 ]; then
        timeout "${SWEEP_FAMILY_TIMEOUT:-300}" "$COMMROOF" trace --lib "$TRACE_LIB" -o "$tdir" -- \
            "$CRBENCH" "$fam" $QUICK "$@" >"$OUT/kernels-$fam.log" 2>&1
    else
        COMMROOF_TRACE_DIR=$tdir CUDA_INJECTION64_PATH=$TRACE_LIB NVTX_INJECTION64_PATH=$TRACE_LIB \
            timeout "${SWEEP_FAMILY_TIMEOUT:-300}" "$CRBENCH" "$fam" $QUICK "$@" \
            >"$OUT/kernels-$fam.log" 2>&1
    fi
    frc=$?
    t1=$(date +%s)
    n=0
    for f in "$tdir"/*.json; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        if [ $n = 1 ]; then mv "$f" "$OUT/kernels-$fam.json"; else mv "$f" "$OUT/kernels-$fam.$n.json"; fi
    done
    rmdir "$tdir" 2>/dev/null
    summary=$(grep '^# .* cases' "$OUT/kernels-$fam.log" | tail -1)
    echo "run_sweep: $fam: exit $frc, $((t1 - t0)) s, $n trace file(s); ${summary:-no summary line}"
    if [ $frc != 0 ] || [ $n = 0 ]; then rc=1; tail -5 "$OUT/kernels-$fam.log" >&2; fi
done
echo "run_sweep: all families in $(( $(date +%s) - start )) s: $([ $rc = 0 ] && echo OK || echo FAILED)"
exit $rc
