#!/bin/bash
# SPDX-License-Identifier: MIT
# The roofline demo with --extra (kernels/trace_demo/torch_roofline.py): the
# block and its operators as traces/h200-1/roofline-demo, plus an fp8 -> bf16
# conversion copy, a broadcast matmul and a cat of 30 tensors, traced with
# the CUPTI tracer and timed alone with CUDA events. Run from the repository
# root on the H200: bash traces/h200-1/roofline-extra-2026-12-04/h200_extra.sh
source traces/tracer/device_common.sh
build_tracer
python3 -c "import torch; print(torch.__version__, torch.cuda.get_device_name(0))"
traced $W/rf python3 kernels/trace_demo/torch_roofline.py "$OUT/events.json" --iters 20 --reps 50 --extra
echo "rc=$?"
cp "$(one $W/rf)" "$OUT/torch_roofline_extra.json" && gzip -9 "$OUT/torch_roofline_extra.json"
ls -l "$OUT"
