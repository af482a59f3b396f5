#!/bin/bash
# SPDX-License-Identifier: MIT
# The device call behind doc/roofline.md's "CUDA graphs" (run on the lent
# GPU from the repository root; results in $OUT):
#   1. the machine: GPU, driver, CUDA, CUPTI version, and whether its
#      CUPTI has CUpti_ActivityConfig (issue 16's one untried knob);
#   2. kernels/trace_demo/graph_demo.cu traced with the default kinds and
#      with COMMROOF_TRACE_RECORD=...,api: a captured graph of a copy and a
#      triad in cr: ranges, replayed REPS times, and the same operators
#      timed eagerly with CUDA events (events.json beside each trace);
#   3. kernels/trace_demo/torch_roofline.py --cuda-graph traced: PyTorch's
#      operators captured under emit_nvtx and replayed, with the events
#      pass (events.json);
#   4. where OLD_SRC names the tracer before graph nodes were recorded
#      (.ab/old/trace_*.c, carried), h200_overhead_ab.sh's launch-bound A/B
#      against it (the default kinds: the library's other changes must
#      cost a launch nothing).
# Run on an H100 on 2026-12-07 (traces/h100-1/graph-2026-12-07); since then
# COMMROOF_TRACE_RECORD's "graph" is on by default (traces/tracer/trace_main.c).
# `commroof roofline` reads the traces on the CPU machine afterwards.
. "$(dirname "$0")/device_common.sh"
REPS=${REPS:-50}

echo "== machine"
nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1 | head -3
$CUDA/bin/nvcc --version | tail -1
ls -d /usr/local/cuda*
grep -h 'define CUPTI_API_VERSION' $CUDA/include/cupti_version.h $CUDA/extras/CUPTI/include/cupti_version.h 2>/dev/null
echo "CUpti_ActivityConfig in headers: $(grep -l CUpti_ActivityConfig /usr/local/cuda*/include/cupti*.h /usr/local/cuda*/extras/CUPTI/include/cupti*.h 2>/dev/null | wc -l)"

echo "== build"
build_tracer
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/graph_demo kernels/trace_demo/graph_demo.cu || exit 1

echo "== graph_demo, the default kinds and graph nodes"
export COMMROOF_TRACE_RECORD=kernel,memcpy,memset,graph
mkdir -p $OUT/graph-c
traced $OUT/graph-c $W/graph_demo $REPS > $OUT/graph-c/events.json; echo "rc=$?"
cat $OUT/graph-c/events.json
grep -c '"cat":"cuda_graph_node"' $OUT/graph-c/commroof-trace.*.json
grep -o '"recorded":[^]]*]' $OUT/graph-c/commroof-trace.*.json
grep -o '"errors":[^]]*]' $OUT/graph-c/commroof-trace.*.json

echo "== graph_demo, calls recorded"
mkdir -p $OUT/graph-c-api
COMMROOF_TRACE_RECORD=kernel,memcpy,memset,api,graph traced $OUT/graph-c-api $W/graph_demo $REPS \
  > $OUT/graph-c-api/events.json; echo "rc=$?"
grep -c '"cat":"cuda_graph_node"' $OUT/graph-c-api/commroof-trace.*.json

if torch_ok; then
  echo "== torch_roofline --cuda-graph"
  mkdir -p $OUT/graph-torch
  traced $OUT/graph-torch timeout 300 python3 kernels/trace_demo/torch_roofline.py \
    $OUT/graph-torch/events.json --cuda-graph --iters 20 --reps ${TORCH_REPS:-20}; echo "rc=$?"
  for f in $OUT/graph-torch/commroof-trace.*.json; do
    echo "$f: $(grep -c '"cat":"cuda_graph_node"' "$f") node events, $(grep -c '"cat":"kernel"' "$f") kernels"
    gzip -9 "$f"
  done
else
  echo "== PyTorch with CUDA not available: torch graph skipped"
fi

unset COMMROOF_TRACE_RECORD
if [ -n "${OLD_SRC:-}" ]; then
  echo "== launch-bound A/B against the tracer without graph nodes"
  mkdir -p $OUT/overhead
  OUT=$OUT/overhead REPS=3 ABL=0 TORCH_N=1000 bash traces/tracer/h200_overhead_ab.sh
fi
ls -laR $OUT | head -40
