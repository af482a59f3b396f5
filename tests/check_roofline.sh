#!/bin/sh
# SPDX-License-Identifier: MIT
# The roofline of a real program holds: `commroof roofline` on the eager
# PyTorch block traced on the H200 (traces/h200-1/roofline-demo, README
# there) and on an H100 (traces/h100-1/roofline-demo-2026-12-06) finds no
# time below its bound (exit 0, not 3) and gives a bound to each of the 19
# aten rows of the block (roofline.txt there: every operator with its
# shapes; the kernel rows are warm-ups outside any range).
set -u
CR=$1
check() { # TRACE TOPOLOGY-OPTIONS...
    D=$1
    shift
    out=$("$CR" roofline "$D" "$@" --dtype bf16 --json)
    rc=$?
    [ "$rc" = 0 ] || { echo "check_roofline: exit $rc on $D (3: a time below its bound)"; exit 1; }
    printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
rows = [r for r in d["rows"] if r["kind"] == "aten" and r.get("bound_us")]
bad = [r for r in rows if r["measured_us"] < r["bound_us"]]
if bad or len(rows) < 19:
    sys.exit("check_roofline: %s: %d bounded aten rows (want 19), %d below their bound" % (sys.argv[1], len(rows), len(bad)))
' "$D" || exit 1
}
check traces/h200-1/roofline-demo/torch_roofline.json.gz --topo h200-1
check traces/h100-1/roofline-demo-2026-12-06/torch_roofline.json.gz --topo hgx-h100-8 --ranks 0
# the same program traced with CUDA_LAUNCH_BLOCKING=1 (the metadata says so)
# and without it: the first as above and without the by-start note; the
# second, whose kernels went to later operators' ranges, with the note
# (traces/h100-1/launch-blocking-2026-12-06/README.md)
LB=traces/h100-1/launch-blocking-2026-12-06
check $LB/torch-blocking.json.gz --topo hgx-h100-8 --ranks 0
# launches asynchronous again, but with the CUDA calls recorded
# (COMMROOF_TRACE_RECORD=...,api): every kernel to the range that launched
# it, so the same gate holds (traces/h100-1/launch-link-2026-12-06)
check traces/h100-1/launch-link-2026-12-06/torch-api.json.gz --topo hgx-h100-8 --ranks 0
check traces/h200-1/launch-link-2026-12-06/torch-api.json.gz --topo h200-1
# ... and every activity of the traces with their CUDA calls has its call
# among them (the tracer records each call that puts work on a device,
# api_work_name): 0 unlinked, read from the same run
# (each on its own GPU's topology: an H200 trace on an H100's is an error)
for m in $LB/torch-blocking:0 $LB/torch-async:1 traces/h100-1/launch-link-2026-12-06/torch-api:0 traces/h200-1/launch-link-2026-12-06/torch-api:0; do
    case $m in traces/h200-1/*) topo=h200-1 ;; *) topo=hgx-h100-8 ;; esac
    n=$("$CR" roofline "${m%:*}.json.gz" --topo $topo --ranks 0 --dtype bf16 --json |
        python3 -c 'import json, sys; j = json.load(sys.stdin); print(j["by_start_traces"], j["unlinked_activities"])')
    [ "$n" = "${m#*:} 0" ] || { echo "check_roofline: ${m%:*}: by_start_traces, unlinked_activities $n, want ${m#*:} 0"; exit 1; }
done
# without --dtype, every aten row but the embedding's gather is bounded
# from what the trace shows (the GEMMs' cuBLASLt nvjet type codes: README
# there), none below its bound
D=traces/h100-1/roofline-demo-2026-12-06
out=$("$CR" roofline "$D/torch_roofline.json.gz" --topo hgx-h100-8 --ranks 0 --json)
rc=$?
[ "$rc" = 0 ] || { echo "check_roofline: exit $rc on $D without --dtype"; exit 1; }
printf '%s' "$out" | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["rows"] if r["kind"] == "aten" and r.get("bound_us")]
bad = [r for r in rows if r["measured_us"] < r["bound_us"]]
if len(rows) < 18 or bad:
    sys.exit("check_roofline: %d bounded aten rows without --dtype (want 18), %d below their bound" % (len(rows), len(bad)))
' || exit 1
echo "check_roofline: OK"
