#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool) on a machine of two or more GPUs: builds
# the tracer and crbench there, then under the CUPTI tracer
#   1. the NCCL collectives sweep, 8 B - 8 GiB (sizes x4), one process per
#      forced NCCL_ALGO (Ring, Tree, auto) x NCCL_PROTO (LL, LL128, Simple):
#      Ring runs the collectives NCCL implements with rings (allreduce,
#      allgather, reducescatter, broadcast, reduce), Tree runs allreduce (the
#      only collective with a tree in NCCL), auto adds the point-to-point
#      ones (alltoall, sendrecv), which no NCCL_ALGO changes. The case names
#      carry algo= and proto= (the environment's spelling, e.g. "algo=Ring
#      proto=LL"), which `commroof validate` reads.
#   2. the fused family (ag_gemm, gemm_rs, gemm_ar: baseline and overlap).
# Every process gets a --budget-s so that the call ends inside the device
# limit with every trace written (a killed process writes none); cases past
# a budget are listed as skipped in the logs.
# Output: $OUT/multigpu.tar.gz (nvidia-h200-xN/{kernels-nccl-ALGO-PROTO,fused}.{json.gz,log})
# and $OUT/multigpu.log.
#
#   bash kernels/multigpu_sweep.sh [--quick]
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_NVTX_DISABLE=1 NCCL_DEBUG=${NCCL_DEBUG:-WARN}
OUT=${OUT:-/tmp/out}
QUICK=${1:-}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/multigpu.log") 2>&1
B=build-dev
ngpu=$(nvidia-smi -L | wc -l)
d=nvidia-h200-x$ngpu
W=$OUT/$d
mkdir -p "$W"
echo "== machine: $ngpu GPUs"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
echo "== build"
t0=$(date +%s)
make --no-print-directory -j"$(nproc)" BUILD=$B tracer kernels >"$W/build.log" 2>&1 ||
    { tail -40 "$W/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
CRBENCH=$B/kernels/crbench
TRACE_LIB=$(pwd)/$B/libcommroof_trace.so
if [ -z "${CR_NCCL_LIB:-}" ]; then
    for f in /usr/local/cuda/lib64/libnccl.so.2 /usr/lib/x86_64-linux-gnu/libnccl.so.2 \
             $(python3 -c 'import glob, os, sys
for p in sys.path:
    for f in sorted(glob.glob(os.path.join(p, "nvidia", "**", "libnccl.so.2"), recursive=True)):
        print(f)' 2>/dev/null); do
        if [ -f "$f" ]; then export CR_NCCL_LIB="$f"; break; fi
    done
fi
echo "NCCL: ${CR_NCCL_LIB:-none found}"

# traced NAME BUDGET_S crbench-args...: one traced process -> $W/NAME.{json,log}
traced() {
    local name=$1 budget=$2
    shift 2
    local tdir=$W/.t-$name t1
    mkdir -p "$tdir"
    t1=$(date +%s)
    COMMROOF_TRACE_DIR=$tdir CUDA_INJECTION64_PATH=$TRACE_LIB NVTX_INJECTION64_PATH=$TRACE_LIB \
        timeout $((budget + 60)) "$CRBENCH" "$@" --budget-s "$budget" $QUICK >"$W/kernels-$name.log" 2>&1
    local rc=$?
    local f
    f=$(ls "$tdir"/*.json 2>/dev/null | head -1)
    # NCCL polls with event queries: the sync records are not used by
    # validate and would swell the trace (one event a line).
    [ -n "$f" ] && grep -v '"cat":"sync"' "$f" | gzip -9 >"$W/kernels-$name.json.gz"
    rm -rf "$tdir"
    echo "$name: exit $rc, $(($(date +%s) - t1)) s, $(grep -c 'OK$' "$W/kernels-$name.log") ok, \
$(grep -c FAILED "$W/kernels-$name.log") failed, $(grep -c 'skipped' "$W/kernels-$name.log") skipped lines, \
trace $(stat -c %s "$W/kernels-$name.json.gz" 2>/dev/null || echo none) B"
    grep -m3 'FAILED\|NCCL WARN\|failed:' "$W/kernels-$name.log"
}

echo "== fused (auto algorithm)"
traced fused 60 fused
# Not kernels-*: `commroof validate` has no fused family yet (tests/check_validate.sh
# validates every traces/*/kernels-*.json.gz); kernels/fused/fused_measure.py reads it.
mv "$W/kernels-fused.json.gz" "$W/fused.json.gz" 2>/dev/null
mv "$W/kernels-fused.log" "$W/fused.log"
echo "== nccl sweep"
. kernels/nccl_groups.sh
for proto in $CR_NCCL_PROTOS; do
    for algo in $CR_NCCL_ALGOS; do
        if [ "$algo" = auto ]; then unset NCCL_ALGO; else export NCCL_ALGO=$algo; fi
        NCCL_PROTO=$proto traced "nccl-$algo-$proto" "$(cr_nccl_budget_s $algo)" nccl \
            $CR_NCCL_GROUP_ARGS --colls "$(cr_nccl_colls $algo)"
    done
done
unset NCCL_ALGO
echo "== checks"
for f in "$W"/*.json.gz; do
    zcat "$f" >/tmp/chk.json && python3 traces/tracer/check_trace.py /tmp/chk.json 2>&1 |
        grep -v '^    ' | head -3
done
tar czf "$OUT/multigpu.tar.gz" -C "$OUT" "$d"
rm -rf "$W"
ls -la "$OUT"
