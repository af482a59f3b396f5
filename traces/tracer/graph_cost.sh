#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call: what COMMROOF_TRACE_RECORD's "graph" (CUPTI's resource
# callbacks for CUDA graph nodes, trace_graph.c) costs a launch-bound
# program that builds no graph, before it is recorded by default.
# kernels/overhead -m launch (tiny kernels, 4 KiB copies and memsets, NVTX
# + kernel, 16 MiB copies; N calls x 3 loops) in processes alternating
# between untraced, the tracer with kernel,memcpy,memset ("default") and
# with kernel,memcpy,memset,graph ("graph"), PROCS of each. Results in $OUT:
# graph_cost.txt (every loop, then overhead_summary.py's table), log.txt.
#
#   bash traces/tracer/graph_cost.sh     (about a minute on an H100 or H200)
. "$(dirname "$0")/device_common.sh"
N=${N:-10000}
PROCS=${PROCS:-3}
RAW=$OUT/graph_cost.txt
: >"$RAW"
build_tracer
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/overhead kernels/overhead/overhead.cu -ldl || exit 1
run() { # CFG TAG RECORD
  local d=$W/tr/$1-$2
  rm -rf "$d"
  if [ "$1" = untraced ]; then
    $W/overhead -m launch -n "$N" -r 3 | sed "s/^/$1 $2 /" >>"$RAW"
  else
    COMMROOF_TRACE_RECORD=$3 traced "$d" $W/overhead -m launch -n "$N" -r 3 2>/dev/null |
      grep -v '^expect' | sed "s/^/$1 $2 /" >>"$RAW"
    local f; f=$(one "$d")
    echo "$1 $2: $(grep -c '"cat":"kernel"' "$f") kernels, $(grep -c '"cat":"cuda_graph_node"' "$f") graph node events," \
      "$(grep -o '"dropped_records":[0-9]*' "$f" | tail -1), $(grep -o '"recorded":[^]]*]' "$f")"
  fi
}
for i in $(seq 1 "$PROCS"); do
  run untraced "p$i"
  run default "p$i" kernel,memcpy,memset
  run graph "p$i" kernel,memcpy,memset,graph
done
echo "== summary (median us per call; added = traced - untraced)"
python3 traces/tracer/overhead_summary.py "$RAW" | tee -a "$RAW"
