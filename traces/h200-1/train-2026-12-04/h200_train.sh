#!/bin/bash
# SPDX-License-Identifier: MIT
# An eager PyTorch training step (kernels/trace_demo/torch_train_roofline.py:
# forward, backward, AdamW) traced with the CUPTI tracer, and its backward
# operators timed alone with CUDA events. Run from the repository root on
# the H200: bash traces/h200-1/train-2026-12-04/h200_train.sh
source traces/tracer/device_common.sh
build_tracer
python3 -c "import torch; print(torch.__version__, torch.cuda.get_device_name(0))"
traced $W/tr python3 kernels/trace_demo/torch_train_roofline.py "$OUT/events.json" --iters 10 --reps 50
echo "rc=$?"
cp "$(one $W/tr)" "$OUT/torch_train.json" && gzip -9 "$OUT/torch_train.json"
ls -l "$OUT"
# the same step as mixed-precision training runs it (fp32 weights, bf16
# autocast, AdamW(fused=True)); traced only
traced $W/amp python3 kernels/trace_demo/torch_train_roofline.py "$OUT/amp_unused.json" --iters 10 --amp-fused
echo "rc=$?"
cp "$(one $W/amp)" "$OUT/torch_train_amp_fused.json" && gzip -9 "$OUT/torch_train_amp_fused.json"
ls -l "$OUT"
