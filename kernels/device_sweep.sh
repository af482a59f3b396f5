#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool) for kernels/: build the tracer and crbench
# on the GPU machine, run the whole sweep under the tracer
# (kernels/run_sweep.sh), check the traces, and pack traces and logs into
# $OUT/sweep.tar.gz (plus the log beside it). With two or more GPUs it also
# runs the NCCL and point-to-point families across all of them.
#
#   bash kernels/device_sweep.sh [--quick]
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/h200-1"
LOG=$OUT/device_sweep.log
exec > >(tee -a "$LOG") 2>&1
B=build-dev
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.limit,pci.bus_id --format=csv
nvidia-smi topo -m 2>/dev/null | head -5
/usr/local/cuda/bin/nvcc --version | tail -1
echo "== build"
t0=$(date +%s)
make --no-print-directory -j16 BUILD=$B tracer kernels >"$OUT/h200-1/build.log" 2>&1 ||
    { tail -40 "$OUT/h200-1/build.log"; exit 1; }
# The CLI (for `commroof trace`) needs libxml2 and jansson headers; optional.
if timeout 120 make --no-print-directory -j16 BUILD=$B all >>"$OUT/h200-1/build.log" 2>&1; then
    echo "commroof CLI built"
else
    echo "commroof CLI not built here: tracing through CUDA_INJECTION64_PATH directly"
fi
echo "build: $(( $(date +%s) - t0 )) s"
echo "== sweep, one GPU (h200-1)"
ngpu=$(nvidia-smi -L | wc -l)
CUDA_VISIBLE_DEVICES=0 BUILD=$B SWEEP_FAMILY_TIMEOUT=${SWEEP_FAMILY_TIMEOUT:-110} \
    kernels/run_sweep.sh -o "$OUT/h200-1" --no-build "$@"
src=$?
dirs=h200-1
if [ "$ngpu" -ge 2 ]; then
    # Every local GPU: NCCL collectives (one process driving all GPUs) and
    # point-to-point by mechanism. NVLS stays off (exported above).
    d=nvidia-h200-x$ngpu
    mkdir -p "$OUT/$d"
    dirs="$dirs $d"
    echo "== sweep, $ngpu GPUs ($d)"
    nvidia-smi topo -m >"$OUT/$d/nvidia-smi-topo.txt" 2>&1
    NCCL_TOPO_DUMP_FILE=$OUT/$d/nccl-topo.xml BUILD=$B SWEEP_FAMILY_TIMEOUT=150 \
        kernels/run_sweep.sh -o "$OUT/$d" --no-build --families "nccl p2p" "$@" || src=1
fi
# Synchronisation records (NCCL polls with event queries) are not used by
# validate and would swell the committed traces: drop them (one event a line).
for f in "$OUT"/*/kernels-*.json; do
    [ -f "$f" ] || continue
    grep -v '"cat":"sync"' "$f" >"$f.trim" && mv "$f.trim" "$f"
done
echo "== traces"
for d in $dirs; do
    python3 traces/tracer/check_trace.py "$OUT"/$d/kernels-*.json 2>&1 | grep -v '^    ' | head -40
done
echo "== failed checks"
for d in $dirs; do grep -h 'FAILED\|skipped' "$OUT"/$d/kernels-*.log | head -20; done
tar czf "$OUT/sweep.tar.gz" -C "$OUT" $dirs
for d in $dirs; do rm -rf "$OUT/$d"; done
ls -la "$OUT"
exit $src
