#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool) re-checking the tracer on a real GPU
# after the session-44 review fixes (scalar payloads beyond 2^53 as
# strings, CUPTI's NVTX names cut at 256 bytes, RLIMIT_FSIZE respected,
# the trace never on descriptors 0-2, metadata.recorded what CUPTI
# enabled): every trace written here must read with `commroof trace
# summary` (run afterwards on the CPU machine), the program's exit status
# must be untouched. Results in traces/<machine>/qa44-verify-*/.
#
#   bash traces/tracer/qa44_verify.sh
# shellcheck source=traces/tracer/device_common.sh
. "$(dirname "$0")/device_common.sh"
echo "== machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$CUDA/bin/nvcc --version | tail -1
echo "== build"
build_tracer
build_nvtx_demo || exit 1
build_demos
echo "== 1. CUDA C demo"
traced $W/cuda $W/trace_demo >/dev/null; echo "rc=$? (0 expected)"
cp "$(one $W/cuda)" $OUT/cuda_demo.json
echo "== 2. stderr closed (2>&-)"
traced $W/noerr $W/trace_demo >/dev/null 2>&-; echo "rc=$? (0 expected)"
cp "$(one $W/noerr)" $OUT/cuda_demo_stderr_closed.json
# The demo's whole trace is about 9.5 KB (2026-12-07 on an H100), so a
# limit of 4 KiB is the one that bites; 16 KiB (the first version) did not.
echo "== 3. ulimit -f 4 (4 KiB): the trace stops below it, the program lives"
(ulimit -f 4; traced $W/fsz $W/trace_demo >/dev/null); echo "rc=$? (0 expected; 153 = SIGXFSZ)"
cp "$(one $W/fsz)" $OUT/cuda_demo_fsize4k.json
echo "== 4. NVTX payload demo"
traced $W/nv $W/nvtx_demo; echo "rc=$? (0 expected)"
cp "$(one $W/nv)" $OUT/nvtx_payload_demo.json
nvtx_counts $OUT/nvtx_payload_demo.json
echo "== 5. PyTorch demo with one-rank NCCL"
if torch_ok; then
  traced $W/t timeout 200 python3 kernels/trace_demo/torch_demo.py --nccl >/dev/null
  echo "rc=$? (0 expected)"
  cp "$(one $W/t)" $OUT/torch_demo.json
  nvtx_counts $OUT/torch_demo.json
fi
echo "== check"
python3 traces/tracer/check_trace.py $OUT/*.json
ls -la $OUT
