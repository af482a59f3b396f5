#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool) checking the `commroof trace` wrapper on
# a real GPU after the session-45 QA fixes (signals passed on, --json, the
# environment it replaces, long folders): the CUDA C demo traced through
# the CLI, its exit status passed through, SIGUSR1 to commroof reaching CMD
# (no child left), NVTX_INJECTION64_PATH replaced with a note. Results in
# traces/<machine>/trace-cli-*/.
#
# The device has no libxml2/jansson/ICU: carry a commroof binary and its
# libraries in .crcarry/ (git-ignored), stripped to fit the carry limit:
#   mkdir .crcarry && cp build/commroof .crcarry/ && strip .crcarry/commroof
#   for l in libxml2.so.2 libjansson.so.4 libicuuc.so.72 libicudata.so.72; do
#     cp -L /lib/x86_64-linux-gnu/$l .crcarry/; done
#   run: bash traces/tracer/trace_cli_check.sh   (carry [".crcarry"])
. traces/tracer/device_common.sh
build_tracer >/dev/null && build_demos >/dev/null || exit 1
mkdir -p $W/bin && cp .crcarry/commroof $W/bin/ && cp $LIB $W/bin/
export LD_LIBRARY_PATH=$PWD/.crcarry
CR=$W/bin/commroof
$CR --help 2>&1 | head -1
echo "== 1 plain"; $CR trace -o $W/a -- $W/trace_demo > $OUT/1_plain.txt 2>&1; echo rc=$?
echo "== 2 json"; $CR trace --json -o $W/b -- $W/trace_demo > $OUT/2_json.json 2> $OUT/2_json.err; echo rc=$?
python3 -c "import json; d=json.load(open('$OUT/2_json.json')); print('json ok', list(d)[:6])"
echo "== 3 exit 3"; $CR trace -o $W/c -- sh -c "$W/trace_demo >/dev/null; exit 3" > $OUT/3_rc.txt 2>&1; echo "rc=$? (3 expected)"
echo "== 4 SIGUSR1 to commroof"; $CR trace -o $W/d -- sh -c "$W/trace_demo >/dev/null; exec sleep 30" > $OUT/4_usr1.txt 2>&1 & p=$!
sleep 4; kill -USR1 $p; wait $p; echo "rc=$? (138 expected: sleep ended by USR1)"; sleep 0.5; ps -eo pid,ppid,cmd | grep "[s]leep 30" || echo "no sleep 30 left"
echo "== 5 env replaced"; NVTX_INJECTION64_PATH=/nonexistent.so $CR trace -o $W/e -- $W/trace_demo 2>&1 >/dev/null | grep -i "replac\|NVTX_INJECTION" | head -3
echo "== 6 long -o"; $CR trace -o $W/$(head -c 4000 /dev/zero | tr '\0' x) -- true; echo "rc=$? (2 expected)"
for x in a b c d e; do f=$(ls -S $W/$x/commroof-trace.*.json 2>/dev/null | head -1); [ -n "$f" ] && cp "$f" $OUT/trace_$x.json; done
python3 traces/tracer/check_trace.py $OUT/trace_*.json 2>&1 | grep "complete="
