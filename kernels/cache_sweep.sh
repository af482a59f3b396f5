#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool) for the L2 (issue 15): build the tracer and
# crbench there, then run the hbm family (read, write, copy, add, triad, 1 MiB
# - 256 MiB) warm (one buffer set back to back: what fits stays in the L2) and
# cold (sets rotating over > 512 MiB), twice, under the tracer. The traces go
# to $OUT/kernels-hbm-cache-run{1,2}.json.gz, the logs beside them.
#
#   bash kernels/cache_sweep.sh
set -u
OUT=${OUT:-/tmp/out}
B=build-dev
exec > >(tee -a "$OUT/cache_sweep.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv
t0=$(date +%s)
make --no-print-directory -j16 BUILD=$B tracer kernels >"$OUT/build.log" 2>&1 ||
    { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s"
rc=0
for run in 1 2; do
    d=/tmp/cache-run$run
    CUDA_VISIBLE_DEVICES=0 BUILD=$B SWEEP_FAMILY_TIMEOUT=200 \
        kernels/run_sweep.sh -o $d --no-build --families hbm -- --cache both --max-bytes 256M ||
        rc=1
    grep -v '"cat":"sync"' $d/kernels-hbm.json | gzip -9 >"$OUT/kernels-hbm-cache-run$run.json.gz"
    cp $d/kernels-hbm.log "$OUT/kernels-hbm-cache-run$run.log"
done
python3 traces/tracer/check_trace.py /tmp/cache-run1/kernels-hbm.json 2>&1 | grep -v '^    ' | head
grep -h 'copy\|add\|triad' "$OUT"/kernels-hbm-cache-run1.log | head -60
ls -la "$OUT"
exit $rc
