#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call on a machine of two or more GPUs: the NCCL sweep as users
# launch it, one process per GPU under torchrun, each process traced (one
# trace per rank, the rank in the file name), with NCCL's own NVTX ranges on
# so that their message-size payloads are recorded. An untraced torchrun run
# of the same command comes first, so that a hang can be told apart from a
# tracer problem.
#   bash kernels/torchrun_sweep.sh      (results and traces in $OUT)
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/torchrun.log") 2>&1
B=build-dev
ngpu=$(nvidia-smi -L | wc -l)
echo "== $ngpu GPUs"
make --no-print-directory -j"$(nproc)" BUILD=$B tracer kernels >"$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/build.log"; exit 1; }
LIB=$(pwd)/$B/libcommroof_trace.so
for f in /usr/lib/x86_64-linux-gnu/libnccl.so.2 /usr/local/cuda/lib64/libnccl.so.2; do
    [ -f "$f" ] && export CR_NCCL_LIB=$f && break
done
. kernels/nccl_groups.sh
ARGS="$CR_TORCHRUN_NCCL_ARGS --budget-s 60"
echo "== untraced torchrun"
timeout 150 torchrun --nproc-per-node "$ngpu" --master-port 29511 --no-python \
    $B/kernels/crbench $ARGS >"$OUT/untraced.log" 2>&1
echo "untraced rc=$? ($(grep -c 'OK$' "$OUT/untraced.log") ok lines)"
echo "== traced torchrun"
mkdir -p /tmp/tr
timeout 200 torchrun --nproc-per-node "$ngpu" --master-port 29512 --no-python \
    env CUDA_INJECTION64_PATH=$LIB NVTX_INJECTION64_PATH=$LIB COMMROOF_TRACE_DIR=/tmp/tr \
    $B/kernels/crbench $ARGS >"$OUT/traced.log" 2>&1
echo "traced rc=$? ($(grep -c 'OK$' "$OUT/traced.log") ok lines)"
grep -m5 'FAILED\|WARN\|rror' "$OUT/traced.log"
ls -la /tmp/tr
# One file per rank, named by the rank the tracer put in its file name
# (traces/README.md; glob order is not rank order from rank 10 on), as
# committed: traces/nvidia-h200-x2/torchrun-nccl-rank<R>.json.gz.
for f in /tmp/tr/*.json; do
    r=$(basename "$f" | sed -n 's/.*rank\([0-9][0-9]*\).*/\1/p')
    [ -n "$r" ] || { echo "no rank in the name of $f"; continue; }
    grep -v '"cat":"sync"' "$f" | gzip -9 >"$OUT/torchrun-nccl-rank$r.json.gz"
done
for f in /tmp/tr/*.json; do
    echo "$f: $(grep -c '"cat":"kernel"' "$f") kernels, $(grep -c 'Message size' "$f") NCCL ranges with sizes"
    grep -o '"nvtx_[a-z_]*":[^,]*' "$f" | tr '\n' ' '; echo
done
