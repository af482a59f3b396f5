#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool) for the tracer: build the library and the
# demos there, trace the CUDA C demo and the PyTorch demo (through
# `commroof trace` when a commroof binary is carried in .crcarry/, else with
# the environment variables directly), optionally the killed and late-NVTX
# variants (FULL=1), and measure the overhead on the kernel-dense program:
# untraced and traced processes alternating, REPS of each, 5 timed loops of
# 10,000 kernels of 10 us per process. Results go to $OUT.
#
#   bash traces/tracer/h200_run.sh
REPS=${REPS:-10}
# shellcheck source=traces/tracer/device_common.sh
. "$(dirname "$0")/device_common.sh"
echo "== machine"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pci.bus_id --format=csv
uname -r; $CUDA/bin/nvcc --version | tail -2; echo "cupti in $CUPTI_LIB"; grep PRETTY /etc/os-release

echo "== build"
build_tracer
build_demos

CR=""
if [ -x .crcarry/commroof ]; then
  mkdir -p $W/bin && cp .crcarry/commroof $W/bin/ && cp $LIB $W/bin/   # the library beside the binary
  export LD_LIBRARY_PATH=$PWD/.crcarry
  $W/bin/commroof trace --help >/dev/null && CR=$W/bin/commroof
  echo "commroof binary: ${CR:-not usable here}"
fi

echo "== cuda demo"
if [ -n "$CR" ]; then
  $CR trace -o $W/cuda -- $W/trace_demo; echo "rc=$?"
  $CR trace -o $W/rc3 -- sh -c "$W/trace_demo >/dev/null; exit 3" >/dev/null; echo "exit status passed through: $? (3 expected)"
else
  traced $W/cuda $W/trace_demo; echo "rc=$?"
fi
cp "$(one $W/cuda)" $OUT/cuda_demo.json
if [ "${FULL:-0}" = 1 ]; then
  COMMROOF_TRACE_EARLY_NVTX=0 traced $W/late $W/trace_demo; echo "late rc=$?"
  cp "$(one $W/late)" $OUT/cuda_demo_late_nvtx.json
  traced $W/kill $W/trace_demo --kill-after-ms 1500; echo "killed rc=$? (137 expected)"
  cp "$(one $W/kill)" $OUT/cuda_demo_killed.json
fi

echo "== torch demo"
if [ -n "$CR" ]; then
  # through torchrun (one worker): the file name carries the rank
  $CR trace -o $W/torch --top 12 -- timeout 180 python3 -m torch.distributed.run --nproc-per-node 1 \
    kernels/trace_demo/torch_demo.py --nccl; echo "rc=$?"
  ls $W/torch/commroof-trace.*.json >/dev/null 2>&1 || { echo "torchrun gave no trace; plain python3";
    $CR trace -o $W/torch --top 12 -- timeout 180 python3 kernels/trace_demo/torch_demo.py --nccl; echo "rc=$?"; }
else
  traced $W/torch timeout 180 python3 kernels/trace_demo/torch_demo.py --nccl; echo "rc=$?"
fi
cp "$(one $W/torch)" $OUT/torch_demo.json
# NCCL's ranges in it should now carry "payload":{"Message size [bytes]":...}
# (traces/README.md, NVTX extended payloads; not yet seen on a GPU)
grep -o '"name":"nccl[A-Za-z]*","args":{[^}]*}[^}]*}' $OUT/torch_demo.json | head -5
nvtx_counts $OUT/torch_demo.json

echo "== nvtx payload demo (NCCL's schemas and calls without NCCL; CUPTI mode here)"
build_nvtx_demo && traced $W/nvtx $W/nvtx_demo; echo "rc=$?"
cp "$(one $W/nvtx)" $OUT/nvtx_payload_demo.json && nvtx_counts $OUT/nvtx_payload_demo.json

echo "== overhead (10,000 kernels of 10 us, 5 loops per process, $REPS processes each, alternating)"
: > $OUT/overhead.txt
for i in $(seq 1 $REPS); do
  overhead_pair $i; echo "   check rc=$? $(head -1 $W/chk.txt | cut -c1-160)"
done
gzip -c "$(one $W/ovh)" > $OUT/overhead_traced.json.gz
python3 traces/tracer/overhead_summary.py $OUT/overhead.txt 10000

echo "== checks"
python3 traces/tracer/check_trace.py $OUT/*.json 2>&1 | cut -c1-300
ls -la $OUT
