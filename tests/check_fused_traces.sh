#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 9's fused operators on two H200s (traces/nvidia-h200-x2/fused.json.gz,
# crbench's fused family; per-iteration device times extracted by
# kernels/fused/fused_measure.py into fused-measured.json): every measured
# time must stay above the operator's bound on the x2 topology (`commroof
# check` exits 3 on an impossible one, 1 on an entry it cannot evaluate),
# and all 18 cases (3 operators x 2 variants x 3 shapes) must be evaluated.
# Run on the shipped hgx-h200-8 (ranks 0-1: 2 GPUs on NVSwitch at 450 GB/s,
# as the imported nccl-topo.xml of that machine says).
set -u
CR=$1
f=traces/nvidia-h200-x2/fused-measured.json
out=${BUILD:-build}/check-fused.json
"$CR" check --measured-json "$f" --topo hgx-h200-8 >"$out" 2>&1
r=$?
if [ $r -ne 0 ]; then
    cat "$out"
    echo "check_fused_traces: commroof check exit $r: FAILED"
    exit 1
fi
n=$(sed -n 's/^ *"entries": \([0-9]*\).*/\1/p' "$out")
imp=$(sed -n 's/^ *"impossible": \([0-9]*\).*/\1/p' "$out")
err=$(sed -n 's/^ *"errors": \([0-9]*\).*/\1/p' "$out")
echo "check_fused_traces: $n fused cases, $imp impossible, $err errors"
[ "$n" = 18 ] && [ "$imp" = 0 ] && [ "$err" = 0 ] || { echo "check_fused_traces: FAILED"; exit 1; }
