#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool) for the tracer: build the library and the
# demos there, trace the CUDA C demo (normal, killed, NVTX injected late) and
# the PyTorch demo, and measure the overhead on the kernel-dense program
# (untraced and traced processes alternating). Results go to $OUT.
#
#   bash traces/tracer/h200_run.sh
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
W=/tmp/crt
rm -rf $W && mkdir -p $W
LOG=$OUT/log.txt
exec > >(tee -a "$LOG") 2>&1
CUDA=/usr/local/cuda
CUPTI_LIB=$(dirname "$(ls $CUDA/lib64/libcupti.so $CUDA/extras/CUPTI/lib64/libcupti.so 2>/dev/null | head -1)")
echo "== machine"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pci.bus_id --format=csv
uname -r; $CUDA/bin/nvcc --version | tail -2; echo "cupti in $CUPTI_LIB"

echo "== build"
gcc -std=c11 -O2 -g -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror \
  -isystem $CUDA/include -o $W/libcommroof_trace.so traces/tracer/commroof_trace.c \
  -L"$CUPTI_LIB" -Wl,-rpath,"$CUPTI_LIB" -Wl,--no-undefined -lcupti -ldl -lpthread || exit 1
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/trace_demo kernels/trace_demo/trace_demo.cu -ldl || exit 1
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/overhead kernels/overhead/overhead.cu || exit 1
LIB=$W/libcommroof_trace.so
traced() { # DIR CMD...
  local d=$1; shift
  mkdir -p "$d"
  CUDA_INJECTION64_PATH=$LIB NVTX_INJECTION64_PATH=$LIB COMMROOF_TRACE_DIR=$d "$@"
}
one() { ls "$1"/commroof-trace.*.json | head -1; }

echo "== cuda demo"
traced $W/cuda $W/trace_demo; echo "rc=$?"
cp "$(one $W/cuda)" $OUT/cuda_demo.json
echo "== cuda demo, NVTX injection only at CUDA init"
COMMROOF_TRACE_EARLY_NVTX=0 traced $W/late $W/trace_demo; echo "rc=$?"
cp "$(one $W/late)" $OUT/cuda_demo_late_nvtx.json
echo "== cuda demo, killed"
traced $W/kill $W/trace_demo --kill-after-ms 1500; echo "rc=$? (137 expected)"
cp "$(one $W/kill)" $OUT/cuda_demo_killed.json
echo "== cuda demo, untraced"
$W/trace_demo; echo "rc=$?"

echo "== torch demo"
traced $W/torch timeout 180 python3 kernels/trace_demo/torch_demo.py --nccl; echo "rc=$?"
cp "$(one $W/torch)" $OUT/torch_demo.json

echo "== overhead (10,000 kernels of 10 us, 5 reps per process, alternating)"
: > $OUT/overhead.txt
for i in 1 2 3 4 5; do
  $W/overhead -n 10000 -t 10000 -r 5 | sed 's/^/untraced /' >> $OUT/overhead.txt
  rm -rf $W/ovh; traced $W/ovh $W/overhead -n 10000 -t 10000 -r 5 | sed 's/^/traced /' >> $OUT/overhead.txt
  python3 traces/tracer/check_trace.py "$(one $W/ovh)" --expect-kernels 50100 | head -3 | sed 's/^/   /'
done
gzip -c "$(one $W/ovh)" > $OUT/overhead_traced.json.gz
python3 - $OUT/overhead.txt <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for mode in ("untraced", "traced"):
    w = [float(r[r.index("wall_us") + 1]) for r in rows if r[0] == mode]
    print(f"{mode:9s} n={len(w)} median {statistics.median(w):.1f} us  min {min(w):.1f}  max {max(w):.1f}")
u = statistics.median(float(r[r.index("wall_us") + 1]) for r in rows if r[0] == "untraced")
t = statistics.median(float(r[r.index("wall_us") + 1]) for r in rows if r[0] == "traced")
print(f"overhead {100 * (t - u) / u:+.2f} % (median traced vs median untraced)")
PY

echo "== checks"
python3 traces/tracer/check_trace.py $OUT/cuda_demo.json $OUT/cuda_demo_late_nvtx.json $OUT/cuda_demo_killed.json $OUT/torch_demo.json 2>&1 | cut -c1-400
ls -la $OUT
