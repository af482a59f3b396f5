#!/bin/bash
# SPDX-License-Identifier: MIT
# On the GPU machine (device tool), from the repository root: what the
# tracer's metadata.launch_blocking says, and what it means for roofline.
#
#   1. kernels/trace_demo traced with CUDA_LAUNCH_BLOCKING=1 and =0: the
#      metadata must say true, then false;
#   2. kernels/trace_demo/torch_roofline.py traced in each mode of $MODES
#      (default "blocking async"): "blocking" as shipped (it sets
#      CUDA_LAUNCH_BLOCKING=1 itself), "async" with --async-launches (as a
#      program usually runs), "api" asynchronous too but with the CUDA calls
#      recorded (COMMROOF_TRACE_RECORD=kernel,memcpy,memset,api), each with
#      its CUDA-event timings, so that `commroof roofline` on each can be put
#      against the events (tools/roofline_vs_events.py).
#
# Into $OUT: torch-MODE.json.gz, events-MODE.json per mode and log.txt
# (every line printed).
cd "$(dirname "$0")/../.." || exit 1
. traces/tracer/device_common.sh
build_tracer
build_demos
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for lb in 1 0; do
  rm -rf $W/d$lb
  CUDA_LAUNCH_BLOCKING=$lb traced $W/d$lb $W/trace_demo > /dev/null
  echo "trace_demo CUDA_LAUNCH_BLOCKING=$lb: $(grep -o '"launch_blocking":[a-z]*' "$(one $W/d$lb)")"
done
if torch_ok; then
  for mode in ${MODES:-blocking async}; do
    arg="" rec=kernel,memcpy,memset
    [ $mode != blocking ] && arg=--async-launches
    [ $mode = api ] && rec=$rec,api
    COMMROOF_TRACE_RECORD=$rec traced $W/t-$mode env -u CUDA_LAUNCH_BLOCKING \
      python3 kernels/trace_demo/torch_roofline.py "$OUT/events-$mode.json" --iters 20 --reps 30 $arg
    f=$(one $W/t-$mode)
    gzip -c "$f" > "$OUT/torch-$mode.json.gz"
    echo "torch_roofline $mode: $(grep -o '"launch_blocking":[a-z]*' "$f")"
  done
else
  echo "no PyTorch with a GPU: step 2 skipped"
fi
