#!/bin/bash
# SPDX-License-Identifier: MIT
# On the GPU machine (device tool), from the repository root: what recording
# the CUDA calls (COMMROOF_TRACE_RECORD=...,api) costs a launch-bound loop.
# kernels/overhead -m launch (10,000 calls a loop, 3 loops; tiny kernels,
# 4 KiB copies and memsets, an NVTX push/kernel/pop), untraced, traced with
# the default kinds and traced with the calls too, the three alternating,
# 4 processes each. Into $OUT: api_overhead_raw.txt (every loop) and log.txt.
cd "$(dirname "$0")/../.." || exit 1
. traces/tracer/device_common.sh
build_tracer
build_demos
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 1 2 3 4; do
  $W/overhead -m launch -n 10000 -r 3 | sed "s/^/untraced p$i /" >> $OUT/api_overhead_raw.txt
  for rec in kernel,memcpy,memset kernel,memcpy,memset,api; do
    rm -rf $W/o
    COMMROOF_TRACE_RECORD=$rec traced $W/o $W/overhead -m launch -n 10000 -r 3 |
      sed "s/^/$rec p$i /" >> $OUT/api_overhead_raw.txt
  done
done
grep -c per_call_us $OUT/api_overhead_raw.txt
