#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool) re-checking the tracer after two fixes,
# and its overhead, on one H200 (results in traces/h200-1/, README there):
#
#  1. PCI ids in a short CUDA C program: kernels/trace_demo (0.46 s) got its
#     device record at exit, when the driver no longer answered; the flush
#     thread now takes the driver's view of the devices as soon as CUDA is up.
#     Also the killed variant (SIGKILL after the work: a readable file).
#  2. COMMROOF_TRACE_NVTX_WRAP=0 (guard mode): tests/trace/nvtx_payload_demo.c
#     passes wild extended-payload pointers, on which libcupti crashed
#     (SIGSEGV, exit 139) before the guard; it must now exit 0. Then the
#     PyTorch demo with NCCL in guard mode (NCCL's payload ranges close), and
#     with the wrappers (NCCL's message sizes). No range may read "payload":0
#     (CUPTI's value for "no payload", which the tracer now masks).
#  3. Overhead on kernels/overhead (10,000 kernels of 10 us, 5 loops per
#     process, REPS processes untraced and traced, alternating) and dropped
#     records (must be 0).
#
# Demo binaries come prebuilt from $BIN (make BUILD=... trace-demos on a CPU
# machine with nvcc 13.0, the device's version), else are built here.
#
#   BIN=build-x/kernels bash traces/tracer/h200_verify.sh
REPS=${REPS:-5}
BIN=${BIN:-}
# shellcheck source=traces/tracer/device_common.sh
. "$(dirname "$0")/device_common.sh"
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv
uname -r; $CUDA/bin/nvcc --version | tail -1

echo "== build"
build_tracer
build_nvtx_demo || exit 1
if [ -n "$BIN" ] && "$BIN/overhead/overhead" -n 10 -t 1000 -r 1 >/dev/null; then
  cp "$BIN/trace_demo/trace_demo" "$BIN/overhead/overhead" $W/
else
  build_demos
fi
devline() { grep -o '"name":"commroof_device","args":{[^}]*}' "$1" | head -1; }

echo "== 1. CUDA C demo: PCI ids"
traced $W/cuda $W/trace_demo >/dev/null; echo "rc=$? (0 expected)"
cp "$(one $W/cuda)" $OUT/cuda_demo_pci.json; devline $OUT/cuda_demo_pci.json
grep -o '"errors":\[[^]]*\]' $OUT/cuda_demo_pci.json
traced $W/kill $W/trace_demo --kill-after-ms 1500 >/dev/null; echo "killed rc=$? (137 expected)"
cp "$(one $W/kill)" $OUT/cuda_demo_killed_pci.json; devline $OUT/cuda_demo_killed_pci.json
tail -c 200 $OUT/cuda_demo_killed_pci.json; echo

echo "== 2. guard mode (COMMROOF_TRACE_NVTX_WRAP=0)"
COMMROOF_TRACE_NVTX_WRAP=0 traced $W/nv0 $W/nvtx_demo; echo "nvtx demo WRAP=0 rc=$? (0 expected; 139 before the guard)"
cp "$(one $W/nv0)" $OUT/nvtx_payload_demo_wrap0.json && nvtx_counts $OUT/nvtx_payload_demo_wrap0.json
traced $W/nv1 $W/nvtx_demo; echo "nvtx demo wrappers rc=$? (0 expected)"
nvtx_counts "$(one $W/nv1)"
COMMROOF_TRACE_NVTX_WRAP=0 traced $W/t0 timeout 150 python3 kernels/trace_demo/torch_demo.py --nccl >/dev/null
echo "torch demo WRAP=0 rc=$? (0 expected)"
cp "$(one $W/t0)" $OUT/torch_demo_wrap0.json
grep -o '"name":"nccl[A-Za-z]*","args":{[^}]*}' $OUT/torch_demo_wrap0.json | sort | uniq -c | head
nvtx_counts $OUT/torch_demo_wrap0.json; devline $OUT/torch_demo_wrap0.json
traced $W/t1 timeout 150 python3 kernels/trace_demo/torch_demo.py --nccl >/dev/null
echo "torch demo wrappers rc=$? (0 expected)"
cp "$(one $W/t1)" $OUT/torch_demo_2.json
grep -o '"name":"nccl[A-Za-z]*","args":{[^}]*}' $OUT/torch_demo_2.json | sort | uniq -c | cut -c1-300 | head
nvtx_counts $OUT/torch_demo_2.json
# CUPTI's u64 0 for "no payload" must not reach the traces (the NaN mark)
echo "ranges with \"payload\":0: $(cat $OUT/*.json | grep -c '"payload":0,') (0 expected)"

echo "== 3. overhead (10,000 kernels of 10 us, 5 loops per process, $REPS processes each, alternating)"
: > $OUT/overhead.txt
for i in $(seq 1 "$REPS"); do
  overhead_pair "$i"
  echo "   p$i check rc=$? $(grep -o 'dropped[^,]*' $W/chk.txt | head -1) $(head -1 $W/chk.txt | cut -c1-120)"
done
python3 traces/tracer/overhead_summary.py $OUT/overhead.txt 10000
ls -la $OUT
