#!/bin/bash
# SPDX-License-Identifier: MIT
# What the tracer's device scripts (h200_run.sh, h200_verify.sh) share,
# sourced by each from the repository root: NVLink multicast kept off, the
# results folder $OUT (default /tmp/out) with the log of everything printed
# ($OUT/log.txt), a fresh scratch folder $W, the CUDA and CUPTI paths, and
#
#   build_tracer          build libcommroof_trace.so into $W ($LIB); exits on failure
#   build_tracer_lib OUT SRC...  build a tracer library from other sources (an A/B's old side)
#   torch_ok              PyTorch imports and sees a GPU (status)
#   build_demos           build kernels/trace_demo and kernels/overhead into $W; exits on failure
#   build_nvtx_demo       build tests/trace/nvtx_payload_demo.c into $W/nvtx_demo (status: gcc's)
#   traced DIR CMD...     run CMD under the tracer, traces written to DIR
#   one DIR               the largest trace in DIR (torchrun's agent may leave an empty one)
#   nvtx_counts FILE...   the trace's "nvtx_*" counters
#   overhead_pair I       process pair I of the overhead measure: kernels/overhead untraced,
#                         then traced, lines into $OUT/overhead.txt; the trace checked
#                         (check_trace.py, 50,100 kernels) into $W/chk.txt (status: the check's)
#
# Not run on its own.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
W=/tmp/crt
rm -rf $W && mkdir -p $W
exec > >(tee -a "$OUT/log.txt") 2>&1
CUDA=/usr/local/cuda
CUPTI_LIB=$(dirname "$(ls $CUDA/lib64/libcupti.so $CUDA/extras/CUPTI/lib64/libcupti.so 2>/dev/null | head -1)")
LIB=$W/libcommroof_trace.so

build_tracer_lib() { # OUT SRC...: a tracer library from these sources (an A/B's other side)
  local out=$1
  shift
  gcc -std=c11 -O2 -g -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror \
    -isystem $CUDA/include -Itraces/tracer -o "$out" "$@" \
    -L"$CUPTI_LIB" -Wl,-rpath,"$CUPTI_LIB" -Wl,--no-undefined -lcupti -ldl -lpthread || exit 1
}
build_tracer() { build_tracer_lib $LIB traces/tracer/trace_*.c; }
torch_ok() { timeout 60 python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; }
build_demos() {
  $CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/trace_demo kernels/trace_demo/trace_demo.cu -ldl || exit 1
  $CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/overhead kernels/overhead/overhead.cu || exit 1
}
build_nvtx_demo() { gcc -std=c11 -O1 -I$CUDA/include -o $W/nvtx_demo tests/trace/nvtx_payload_demo.c -ldl; }
traced() { # DIR CMD...
  local d=$1; shift
  mkdir -p "$d"
  CUDA_INJECTION64_PATH=$LIB NVTX_INJECTION64_PATH=$LIB COMMROOF_TRACE_DIR=$d "$@"
}
one() { ls -S "$1"/commroof-trace.*.json | head -1; }
nvtx_counts() { grep -o '"nvtx_[a-z_]*":[^,]*' "$@"; }
overhead_pair() { # I
  $W/overhead -n 10000 -t 10000 -r 5 | sed "s/^/untraced p$1 /" >> $OUT/overhead.txt
  rm -rf $W/ovh; traced $W/ovh $W/overhead -n 10000 -t 10000 -r 5 | sed "s/^/traced p$1 /" >> $OUT/overhead.txt
  python3 traces/tracer/check_trace.py "$(one $W/ovh)" --expect-kernels 50100 > $W/chk.txt
}
