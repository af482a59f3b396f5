#!/bin/bash
# SPDX-License-Identifier: MIT
# On the GPU machine (device tool), from the repository root, with the
# previous tracer's sources in .ab/prev/traces/tracer/ (and model/grow.h in
# .ab/prev/model/; run's carry [".ab"]): COMMROOF_TRACE_RECORD=...,api with
# CUPTI recording every runtime and driver call ("prev": the RUNTIME and
# DRIVER activity kinds) against recording only the calls that put work on
# a device ("new": enabled by callback id), on kernels/overhead/
# torch_launch.py (5,000 calls a loop, 3 loops), 3 rounds of the three in
# the order $ORDER (default "untraced prev new"). Into $OUT: ab_raw.txt
# (every loop, and each trace's cuda_api event count) and log.txt.
cd "$(dirname "$0")/../.." || exit 1
. traces/tracer/device_common.sh
build_tracer
build_tracer_lib $W/prev.so .ab/prev/traces/tracer/trace_*.c
torch_ok || { echo "no PyTorch with a GPU"; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader
for i in 1 2 3; do
  for v in ${ORDER:-untraced prev new}; do
    if [ $v = untraced ]; then
      python3 kernels/overhead/torch_launch.py -n 5000 -r 3 | sed "s/^/untraced p$i /" >> $OUT/ab_raw.txt
      continue
    fi
    L=$LIB
    [ $v = prev ] && L=$W/prev.so
    rm -rf $W/t
    mkdir -p $W/t
    COMMROOF_TRACE_RECORD=kernel,memcpy,memset,api CUDA_INJECTION64_PATH=$L NVTX_INJECTION64_PATH=$L \
      COMMROOF_TRACE_DIR=$W/t python3 kernels/overhead/torch_launch.py -n 5000 -r 3 |
      sed "s/^/$v p$i /" >> $OUT/ab_raw.txt
    echo "$v p$i cuda_api events: $(grep -c '"cat":"cuda_api"' $W/t/*.json)" >> $OUT/ab_raw.txt
  done
done
