#!/bin/sh
# SPDX-License-Identifier: MIT
# fork() under the tracer (own path, no GPU needed): no child of a threaded
# program may hang at exit on a tracer mutex copied in the locked state; and
# exec() without fork() keeps the earlier program's trace (below).
set -u
B=${BUILD:-build}
CUDA=${CUDA_HOME:-/usr/local/cuda}
[ -f "$B/libcommroof_trace.so" ] && [ -f "$CUDA/include/nvtx3/nvToolsExt.h" ] ||
    { echo "check_trace_fork: skipped (no tracer or NVTX headers)"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cc -O1 -isystem "$CUDA/include" tests/trace/fork_exit_sim.c -o "$T/fk" -ldl -lpthread || exit 1
got=$(NVTX_INJECTION64_PATH="$PWD/$B/libcommroof_trace.so" COMMROOF_TRACE_DIR="$T/out" \
    COMMROOF_TRACE_QUIET=1 timeout 300 "$T/fk" 2>&1 | grep 'forked children')
case "$got" in
"0 of "*) echo "check_trace_fork: OK ($got)" ;;
*) echo "check_trace_fork: FAILED: ${got:-no answer}"; exit 1 ;;
esac

# exec() without fork(): same pid, same environment, so the new program's
# tracer used to truncate the old one's file. Both ranges must survive, in
# two files; `commroof trace` reports both and the reader flags the first,
# which has no end, as incomplete.
CR=${1:-$B/commroof}
cc -O1 -isystem "$CUDA/include" tests/trace/exec_self_sim.c -o "$T/ex" -ldl || exit 1
NVTX_INJECTION64_PATH="$PWD/$B/libcommroof_trace.so" COMMROOF_TRACE_DIR="$T/ex-out" \
    COMMROOF_TRACE_QUIET=1 "$T/ex" 2>"$T/ex-err" || { cat "$T/ex-err"; echo "check_trace_fork: exec_self_sim failed"; exit 1; }
for r in "before exec" "after exec"; do
    grep -qF "\"name\":\"$r\"" "$T"/ex-out/*.json 2>/dev/null ||
        { echo "check_trace_fork: FAILED: range \"$r\" lost across exec():"; ls -l "$T/ex-out"; exit 1; }
done
n=$(ls "$T"/ex-out/commroof-trace.*.json | wc -l)
[ "$n" -eq 2 ] || { echo "check_trace_fork: FAILED: $n trace files across exec(), expected 2"; exit 1; }
ls "$T"/ex-out/commroof-trace.*.[0-9]*.1.json >/dev/null 2>&1 ||
    { echo "check_trace_fork: FAILED: the exec()ed program's file is not named .1.json"; ls "$T/ex-out"; exit 1; }
grep -qF 'exists (this process exec()ed' "$T/ex-err" ||
    { echo "check_trace_fork: FAILED: no note of the earlier file on stderr:"; cat "$T/ex-err"; exit 1; }
if [ -x "$CR" ]; then
    "$CR" trace --lib "$B/libcommroof_trace.so" -o "$T/ex-cli" -- "$T/ex" >"$T/ex-o" 2>"$T/ex-e" ||
        { cat "$T/ex-e"; echo "check_trace_fork: FAILED: commroof trace of exec_self_sim"; exit 1; }
    grep -qF "2 trace file(s)" "$T/ex-o" && grep -qF "INCOMPLETE (the program was killed, crashed or called exec, or" "$T/ex-o" ||
        { cat "$T/ex-o"; echo "check_trace_fork: FAILED: commroof trace does not report both files"; exit 1; }
    # validate and roofline read every *.json of a folder: both files
    "$CR" validate "$T/ex-out" >"$T/ex-o" 2>&1
    grep -qF "(2 trace file(s)" "$T/ex-o" ||
        { cat "$T/ex-o"; echo "check_trace_fork: FAILED: validate does not read both files"; exit 1; }
fi
echo "check_trace_fork: OK (both ranges kept across exec())"
