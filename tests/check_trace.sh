#!/bin/sh
# SPDX-License-Identifier: MIT
# `commroof trace` on a machine without a GPU: usage errors (exit 2), the
# library lookup, the exit status of CMD passed through (also a signal's
# 128+N), --json keeping CMD's stdout off stdout, summaries of committed
# traces (complete, killed, malformed). Where nvcc exists (and not in the
# SAN=1 pass), also compiles the tracer's demo programs, so a change that
# breaks them fails CI.
set -u
CR=$1
B=${BUILD:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FIX=tests/fixtures/traces
fails=0
check() { # WHAT EXPECTED_RC ACTUAL_RC
    if [ "$2" != "$3" ]; then echo "check_trace: $1: exit $3, expected $2"; fails=$((fails + 1)); fi
}
has() { # WHAT FILE TEXT
    grep -qF -- "$3" "$2" || { echo "check_trace: $1: no \"$3\" in:"; cat "$2"; fails=$((fails + 1)); }
}

# usage errors
"$CR" trace >"$T/o" 2>"$T/e"; check "no command" 2 $?
has "no command" "$T/e" "no command: commroof trace [-o DIR] -- CMD [ARGS...]"
"$CR" trace -- >"$T/o" 2>"$T/e"; check "empty command" 2 $?
"$CR" trace --bogus -- true >"$T/o" 2>"$T/e"; check "unknown option" 2 $?
has "unknown option" "$T/e" "unknown option \"--bogus\""
"$CR" trace ls -l >"$T/o" 2>"$T/e"; check "command without --" 2 $?
"$CR" trace --top x -- true >"$T/o" 2>"$T/e"; check "bad --top" 2 $?
"$CR" trace summary >"$T/o" 2>"$T/e"; check "summary without files" 2 $?
"$CR" trace --help >"$T/o" 2>"$T/e"; check "--help" 0 $?
has "--help" "$T/o" "usage: commroof trace"

# the library: missing -> exit 1 with a hint; any readable file stands in
# for it here (the commands below never start CUDA)
COMMROOF_TRACE_LIB=/nonexistent/lib.so "$CR" trace -o "$T/d" -- true >"$T/o" 2>"$T/e"
check "missing library" 1 $?
has "missing library" "$T/e" "tracer library \"/nonexistent/lib.so\" (from COMMROOF_TRACE_LIB) is not a readable file"
# an empty shared library stands in for the tracer (the commands below
# never start CUDA); a file that is not one is refused before CMD runs: it
# ran the program untraced, commroof asking whether it used CUDA
LIB="$T/fake.so"
printf '' | ${CC:-cc} -shared -fPIC -x c -o "$LIB" - || { echo "check_trace: cannot build an empty shared library"; exit 1; }
printf 'not a library\n' >"$T/text.so"
"$CR" trace --lib "$T/text.so" -o "$T/d" -- sh -c 'echo ran >&2' >"$T/o" 2>"$T/e"; check "--lib not a library" 1 $?
has "--lib not a library" "$T/e" "tracer library \"$T/text.so\" (from --lib) is not an ELF file"
if grep -q "^ran" "$T/e"; then echo "check_trace: --lib not a library: CMD ran"; fails=$((fails + 1)); fi
printf '' | ${CC:-cc} -c -x c -o "$T/obj.o" - 2>/dev/null &&
    { COMMROOF_TRACE_LIB="$T/obj.o" "$CR" trace -o "$T/d" -- true >"$T/o" 2>"$T/e"; check "COMMROOF_TRACE_LIB an object file" 1 $?
      has "COMMROOF_TRACE_LIB an object file" "$T/e" "(from COMMROOF_TRACE_LIB) is an ELF file but not a shared library"; }
"$CR" trace --lib "$T" -o "$T/d" -- true >"$T/o" 2>"$T/e"; check "--lib a folder" 1 $?
has "--lib a folder" "$T/e" "is not a readable file"

# exit status passes through; the environment reaches CMD
"$CR" trace --lib "$LIB" -o "$T/d" -- sh -c 'exit 7' >"$T/o" 2>"$T/e"; check "exit 7" 7 $?
has "exit 7" "$T/o" "exited with status 7; 0 trace file(s)"
has "exit 7" "$T/e" "no trace was written"
# one count of the files, not a second "summary: 0 file(s)" line under it
if grep -q "trace summary:" "$T/o"; then echo "check_trace: exit 7: a second count of the files:"; cat "$T/o"; fails=$((fails + 1)); fi
"$CR" trace --lib "$LIB" -o "$T/d" -- sh -c 'kill -TERM $$' >"$T/o" 2>"$T/e"; check "SIGTERM" 143 $?
"$CR" trace --lib "$LIB" -o "$T/d" -- sh -c 'kill -KILL $$' >"$T/o" 2>"$T/e"; check "SIGKILL" 137 $?
has "SIGKILL" "$T/o" "\"sh\" was ended by signal 9"
"$CR" trace --lib "$LIB" -o "$T/d" -- /nonexistent/cmd >"$T/o" 2>"$T/e"; check "no such command" 127 $?
has "no such command" "$T/e" "cannot run \"/nonexistent/cmd\": No such file or directory (exit status 127"
if grep -q "no trace was written" "$T/e"; then echo "check_trace: a command that never ran got the no-trace hint"; fails=$((fails + 1)); fi
# a command that never ran leaves none of the folders -o made (a typo made
# an empty one); a folder that was there stays
"$CR" trace --lib "$LIB" -o "$T/made/by/o" -- /nonexistent/cmd >"$T/o" 2>"$T/e"; check "no such command, new -o" 127 $?
if [ -e "$T/made" ]; then echo "check_trace: a command that never ran left $T/made behind"; fails=$((fails + 1)); fi
[ -d "$T/d" ] || { echo "check_trace: a command that never ran removed -o $T/d, which was there before"; fails=$((fails + 1)); }
: >"$T/noexec"; chmod 644 "$T/noexec"
"$CR" trace --lib "$LIB" -o "$T/d" -- "$T/noexec" >"$T/o" 2>"$T/e"; check "not executable" 126 $?
# CMD's own exit 127 is its status, not a failure to run it
"$CR" trace --lib "$LIB" -o "$T/d" -- sh -c 'exit 127' >"$T/o" 2>"$T/e"; check "CMD exits 127" 127 $?
has "CMD exits 127" "$T/o" "exited with status 127"
# CMD's status comes back when the summary cannot be written (a full disk:
# it came back as 1) or its reader leaves early (commroof died of SIGPIPE,
# 141); QA audit, session 42
"$CR" trace --lib "$LIB" -o "$T/d" -- sh -c 'exit 7' >/dev/full 2>"$T/e"; check "CMD's 7, stdout full" 7 $?
has "CMD's 7, stdout full" "$T/e" "cannot write the summary to stdout"
( "$CR" trace --lib "$LIB" -o "$T/d" -- sh -c 'sleep 0.2; exit 7' 2>"$T/e"; echo $? >"$T/rc" ) | :
check "CMD's 7, reader gone" 7 "$(cat "$T/rc")"
# a folder the tracer cannot write is refused before CMD runs (it ran the
# whole program untraced); as another user where this runs as root
mkdir "$T/ro" && chmod 555 "$T/ro"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    chmod 777 "$T"
    RUN="setpriv --reuid=65534 --regid=65534 --clear-groups"
elif [ "$(id -u)" != 0 ]; then
    RUN=""
else
    RUN=skip
fi
if [ "$RUN" != skip ]; then
    $RUN "$CR" trace --lib "$LIB" -o "$T/ro" -- sh -c 'echo ran >&2' >"$T/o" 2>"$T/e"; check "-o not writable" 1 $?
    has "-o not writable" "$T/e" "the tracer cannot write there"
    if grep -q "^ran" "$T/e"; then echo "check_trace: -o not writable: CMD ran"; fails=$((fails + 1)); fi
fi
# after a run, a trace that cannot be read is left out and said, the others
# summarised (one bad file lost every summary: "traces": [], exit 0)
printf '{"traceEvents":[\n{"ph":"X","ts":1}\n]}\n' >"$T/bad.json"
"$CR" trace --json --lib "$LIB" -o "$T/mixed" -- sh -c "cp '$T/bad.json' \"\$COMMROOF_TRACE_DIR/commroof-trace.h.1.json\"; cp $FIX/minimal.json \"\$COMMROOF_TRACE_DIR/commroof-trace.h.2.json\"" >"$T/o" 2>"$T/e"
check "a bad trace of the run" 0 $?
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d["traces"]) == 1 and len(d["unread"]) == 1 and "h.1.json:2" in d["unread"][0] else 1)' "$T/o" ||
    { echo "check_trace: a bad trace of the run: not one summary and one unread entry:"; cat "$T/o"; fails=$((fails + 1)); }
"$CR" trace --lib "$LIB" -o "$T/mixed" -- sh -c "cp '$T/bad.json' \"\$COMMROOF_TRACE_DIR/commroof-trace.h.1.json\"; cp $FIX/minimal.json \"\$COMMROOF_TRACE_DIR/commroof-trace.h.2.json\"" >"$T/o" 2>"$T/e"
check "a bad trace of the run, text" 0 $?
has "a bad trace of the run, text" "$T/o" "2 trace file(s)"
has "a bad trace of the run, text" "$T/o" "# 1 of them could not be read (stderr says why)"
has "a bad trace of the run, text" "$T/o" "# trace $(cd "$T/mixed" && pwd -P)/commroof-trace.h.2.json"
# -o: a missing folder is made (with its parents); a file is a usage error
"$CR" trace --lib "$LIB" -o "$T/new/deeper" -- true >"$T/o" 2>"$T/e"; check "-o new folder" 0 $?
[ -d "$T/new/deeper" ] || { echo "check_trace: -o did not make $T/new/deeper"; fails=$((fails + 1)); }
: >"$T/afile"
"$CR" trace --lib "$LIB" -o "$T/afile" -- true >"$T/o" 2>"$T/e"; check "-o a file" 2 $?
has "-o a file" "$T/e" "is a file, not a folder"
# a folder too long for the tracer's file names (DIR/commroof-trace.HOST.PID,
# 4000 characters at most) is refused before CMD runs, the folders made for
# it removed: the tracer cut the name (a trace "comm.json" nobody found)
c50=cccccccccccccccccccccccccccccccccccccccccccccccccc
LONG="$T/long"
while [ ${#LONG} -lt 3800 ]; do LONG="$LONG/$c50$c50$c50"; done
LONG="$LONG/$(printf '%s' "$c50$c50$c50$c50" | cut -c1-$((3994 - ${#LONG})))" # 3995 characters
"$CR" trace --lib "$LIB" -o "$LONG" -- sh -c 'echo ran >&2' >"$T/o" 2>"$T/e"; check "-o too long" 2 $?
has "-o too long" "$T/e" "leaves no room for the trace's file name"
if grep -q "^ran" "$T/e"; then echo "check_trace: -o too long: CMD ran"; fails=$((fails + 1)); fi
if [ -e "$T/long" ]; then echo "check_trace: -o too long: its folders were left"; fails=$((fails + 1)); fi
# one longer than a path can be (ENAMETOOLONG from mkdir): the folders
# made before the one that failed are removed too (they were left)
"$CR" trace --lib "$LIB" -o "$LONG/$c50$c50$c50" -- true >"$T/o" 2>"$T/e"; check "-o beyond PATH_MAX" 1 $?
if [ -e "$T/long" ]; then echo "check_trace: -o beyond PATH_MAX: its folders were left"; fails=$((fails + 1)); fi
# SIGTERM to commroof goes on to CMD, and commroof still reports. CMD
# marks that it runs (commroof set its handlers before it forked CMD).
"$CR" trace --lib "$LIB" -o "$T/d" -- sh -c ": >\"$T/started\"; exec sleep 30" >"$T/o" 2>"$T/e" &
tp=$!
n=0
while [ ! -f "$T/started" ] && [ $n -lt 200 ]; do sleep 0.1; n=$((n + 1)); done
kill -TERM $tp
wait $tp; check "SIGTERM forwarded" 143 $?
has "SIGTERM forwarded" "$T/o" "\"sh\" was ended by signal 15"
# SIGUSR1 (Slurm's warning before its time limit), SIGUSR2 and SIGALRM go
# on too: they ended commroof and left CMD running on its own
for sn in USR1:10 USR2:12 ALRM:14; do # Linux's numbers
    s=${sn%:*} n=${sn#*:}
    rm -f "$T/started" "$T/cmdpid"
    "$CR" trace --lib "$LIB" -o "$T/d" -- sh -c "echo \$\$ >\"$T/cmdpid\"; : >\"$T/started\"; exec sleep 30" >"$T/o" 2>"$T/e" &
    tp=$!
    i=0
    while [ ! -f "$T/started" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    kill -$s $tp
    wait $tp; rc=$?
    cp=$(cat "$T/cmdpid")
    if kill -0 "$cp" 2>/dev/null; then
        echo "check_trace: SIG$s to commroof left CMD (pid $cp) running"; kill -KILL "$cp"; fails=$((fails + 1))
    fi
    check "SIG$s forwarded" $((128 + n)) $rc
    has "SIG$s forwarded" "$T/o" "\"sh\" was ended by signal $n"
done
# calibrate runs crbench the same way (cli/run_child.c): a SIGTERM to
# commroof reaches crbench (before, commroof ended and crbench ran on with
# the GPU), and calibrate says how crbench ended, exit 1, nothing written
rm -f "$T/started" "$T/cmdpid" "$T/cal.xml"
printf '#!/bin/sh\necho $$ >"%s"; : >"%s"; exec sleep 30\n' "$T/cmdpid" "$T/started" >"$T/fakebench"
chmod +x "$T/fakebench"
COMMROOF_CRBENCH="$T/fakebench" COMMROOF_TRACE_LIB="$LIB" "$CR" calibrate --topo h200-1 -o "$T/cal.xml" >"$T/o" 2>"$T/e" &
tp=$!
i=0
while [ ! -f "$T/started" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $tp
wait $tp; rc=$?
cp=$(cat "$T/cmdpid")
if kill -0 "$cp" 2>/dev/null; then
    echo "check_trace: SIGTERM to calibrate left crbench (pid $cp) running"; kill -KILL "$cp"; fails=$((fails + 1))
fi
check "calibrate: SIGTERM forwarded to crbench" 1 $rc
has "calibrate: SIGTERM forwarded to crbench" "$T/e" "failed (signal 15)"
[ -e "$T/cal.xml" ] && { echo "check_trace: calibrate wrote $T/cal.xml after crbench was ended"; fails=$((fails + 1)); }
# SIGINT and SIGQUIT sent to commroof alone reach CMD (ignored, CMD ran
# on); the terminal's Ctrl-C reaches it once (a pty; python3)
if command -v python3 >/dev/null 2>&1; then
    mkdir "$T/sig" && python3 tests/trace/forward_signals.py "$CR" "$T/sig" "$LIB" || fails=$((fails + 1))
fi
"$CR" trace --lib "$LIB" -o "$T/d" -- sh -c 'echo "$CUDA_INJECTION64_PATH|$NVTX_INJECTION64_PATH|$COMMROOF_TRACE_DIR"' >"$T/o" 2>"$T/e"
check "environment" 0 $?
LIBABS=$(cd "$T" && pwd -P)/fake.so
has "environment" "$T/o" "$LIBABS|$LIBABS|$(cd "$T/d" && pwd -P)"
# what the run replaces in CMD's environment is said, each variable (the
# NVTX library and the trace folder went silently); the same value is not
CUDA_INJECTION64_PATH=/other/cuda.so NVTX_INJECTION64_PATH=/other/nvtx.so COMMROOF_TRACE_DIR=/other/dir \
    "$CR" trace --lib "$LIB" -o "$T/d" -- true >"$T/o" 2>"$T/e"; check "environment replaced" 0 $?
has "environment replaced" "$T/e" "replacing CUDA_INJECTION64_PATH=/other/cuda.so with $LIBABS for this run"
has "environment replaced" "$T/e" "replacing NVTX_INJECTION64_PATH=/other/nvtx.so with $LIBABS for this run"
has "environment replaced" "$T/e" "replacing COMMROOF_TRACE_DIR=/other/dir with $(cd "$T/d" && pwd -P) for this run"
NVTX_INJECTION64_PATH="$LIB" COMMROOF_TRACE_DIR="$T/d" "$CR" trace --lib "$LIB" -o "$T/d" -- true >"$T/o" 2>"$T/e"
if grep -q replacing "$T/e"; then echo "check_trace: the same values said as replaced:"; cat "$T/e"; fails=$((fails + 1)); fi
# a trace written during the run is found and summarised
"$CR" trace --lib "$LIB" -o "$T/d" -- sh -c "cp $FIX/minimal.json \"\$COMMROOF_TRACE_DIR/commroof-trace.host.42.json\"" >"$T/o" 2>"$T/e"
check "trace found" 0 $?
has "trace found" "$T/o" "1 trace file(s)"
has "trace found" "$T/o" "dropped records 3 (records are missing!)"
has "trace found" "$T/e" "records were dropped"
# --json: CMD's stdout goes to stderr, stdout is one JSON document
"$CR" trace --json --lib "$LIB" -o "$T/d" -- sh -c 'echo child-says-$((1+1))' >"$T/o" 2>"$T/e"; check "--json" 0 $?
has "--json child output" "$T/e" "child-says-2"
if grep -q child-says-2 "$T/o"; then echo "check_trace: --json: CMD's output on stdout"; fails=$((fails + 1)); fi
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["exit_status"] == 0 and d["traces"] == []' "$T/o" ||
        { echo "check_trace: --json output is not the expected JSON"; fails=$((fails + 1)); }
fi
# ... also with stderr closed (2>&-): CMD's output went into the JSON
"$CR" trace --json --lib "$LIB" -o "$T/d" -- sh -c 'echo child-says-$((1+1)); exit 5' >"$T/o" 2>&-; check "--json, 2>&-" 5 $?
if grep -q child-says-2 "$T/o"; then echo "check_trace: --json, 2>&-: CMD's output on stdout:"; cat "$T/o"; fails=$((fails + 1)); fi
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["exit_status"] == 5' "$T/o" ||
        { echo "check_trace: --json, 2>&-: not the expected JSON:"; cat "$T/o"; fails=$((fails + 1)); }
fi
# beside the binary (where make built it)
if [ -f "$B/libcommroof_trace.so" ]; then
    env -u COMMROOF_TRACE_LIB "$CR" trace -o "$T/d" -- true >"$T/o" 2>"$T/e"; check "library beside the binary" 0 $?
fi

# summaries of committed traces
"$CR" trace summary $FIX/h200_cuda_demo.json >"$T/o" 2>"$T/e"; check "summary" 0 $?
has "summary" "$T/o" "complete, 42 events, dropped records 0"
# kernel names shortened (template arguments, parameters, return type
# left out), kept whole with --full-names
grep -qE ' matmul_tiled$' "$T/o" || { echo "check_trace: summary: no short name matmul_tiled"; fails=$((fails + 1)); }
grep -qF "matmul_tiled(" "$T/o" && { echo "check_trace: summary: the name was not shortened"; fails=$((fails + 1)); }
"$CR" trace summary --full-names $FIX/h200_cuda_demo.json >"$T/o" 2>"$T/e"; check "summary --full-names" 0 $?
has "summary --full-names" "$T/o" "matmul_tiled(float const*, float const*, float*, int)"
"$CR" trace summary $FIX/h200_cuda_demo_killed.json >"$T/o" 2>"$T/e"; check "summary killed" 0 $?
has "summary killed" "$T/o" "INCOMPLETE (the program was killed, crashed or called exec, or"
# closing a killed trace for other viewers (the sed line in traces/README.md):
# strict JSON with every complete event, also when cut inside an event
if command -v python3 >/dev/null 2>&1; then
    K=traces/h200-1/torch_demo_torchrun_killed.json
    # its first 300 bytes: the header line, two whole event lines, part of a third
    head -c 300 "$K" >"$T/cut.json"; printf '{"ph":"X","cat":"ker' >>"$T/cut.json"
    for pair in "$K:38" "$T/cut.json:2"; do
        f=${pair%:*}; n=${pair##*:}
        sed -e '$ { /},$/!d }' "$f" | sed -e '$ s/,$//' >"$T/closed.json" && printf ']}\n' >>"$T/closed.json"
        python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["traceEvents"]) == int(sys.argv[2]), len(d["traceEvents"])' "$T/closed.json" "$n" ||
            { echo "check_trace: closing $f did not give strict JSON with $n events"; fails=$((fails + 1)); }
    done
fi
printf '{"traceEvents":[\n{"ph":"X","ts":1}\n]}\n' >"$T/bad.json"
"$CR" trace summary "$T/bad.json" >"$T/o" 2>"$T/e"; check "summary of a bad trace" 1 $?
has "summary of a bad trace" "$T/e" "bad.json:2: complete event (\"ph\":\"X\") \"(unnamed)\" needs numbers \"ts\" and \"dur\" (microseconds)"
"$CR" trace summary --json $FIX/minimal.json >"$T/o" 2>"$T/e"; check "summary --json" 0 $?
if command -v python3 >/dev/null 2>&1; then
    python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["traces"][0]
# minimal.json: gemm 2.5 + 1.5 us; p2p 4e6 B first among copies
assert t["kernels"][0]["name"] == "gemm" and abs(t["kernels"][0]["total_us"] - 4.0) < 1e-9, t
assert t["copies"][0]["kind"] == "p2p" and t["copies"][0]["bytes"] == 4e6, t
assert t["dropped_records"] == 3 and t["complete"] is True, t' "$T/o" ||
        { echo "check_trace: summary --json content"; fails=$((fails + 1)); }
fi

# NVTX extended payloads (NCCL's message sizes) through the real library, no
# GPU: tests/trace/nvtx_payload_demo.c registers NCCL's schemas and pushes
# NCCL-style ranges; CUPTI records nothing here, so the tracer's own NVTX path
# writes them. Expected values are the demo's (see its header).
CUDA_INC=${CUDA_HOME:-/usr/local/cuda}/include
if [ -f "$B/libcommroof_trace.so" ] && [ -f "$CUDA_INC/nvtx3/nvToolsExtPayload.h" ]; then
    if cc -std=c11 -O1 -I"$CUDA_INC" -o "$T/nvtx_demo" tests/trace/nvtx_payload_demo.c -ldl 2>"$T/e"; then
        "$CR" trace --lib "$B/libcommroof_trace.so" -o "$T/nv" -- "$T/nvtx_demo" >"$T/o" 2>"$T/e"
        check "nvtx payload demo" 0 $?
        has "nvtx payload demo" "$T/o" "1 trace file(s)"
        NVT=$(ls "$T/nv"/commroof-trace.*.json 2>/dev/null | head -n 1)
        if [ -z "$NVT" ]; then
            echo "check_trace: nvtx payload demo wrote no trace"; cat "$T/e"; fails=$((fails + 1))
        else
            has "nvtx payload: allreduce size" "$NVT" '"name":"ncclAllReduce","args":{"device":-1'
            has "nvtx payload: allreduce size" "$NVT" '"Message size [bytes]":1048576,"Reduction operation":"Sum"'
            has "nvtx payload: allreduce size" "$NVT" '"Message size [bytes]":4096,"Reduction operation":"Max"'
            has "nvtx payload: send" "$NVT" '"Message size [bytes]":65536,"Peer rank":3'
            has "nvtx payload: pop payload" "$NVT" '"No. of ranks":8,"Rank":2,"CUDA device":2'
            has "nvtx payload: 64-bit id as string" "$NVT" '"NCCL communicator ID":"12379813738877118345"'
            has "nvtx payload: scalar" "$NVT" '"payload":777,"payload_kind":"u64"'
            has "nvtx payload: counts" "$NVT" '"nvtx_payloads_decoded":5,"nvtx_payloads_undecoded":5'
            "$CR" trace summary "$NVT" >"$T/o" 2>"$T/e"; check "nvtx payload summary" 0 $?
            has "nvtx payload summary" "$T/o" "complete"
            has "nvtx payload summary" "$T/o" "# NVTX ranges by message size"
            grep -Eq '^ +1 +65536 .* ncclSend$' "$T/o" || { echo "check_trace: no ncclSend 65536 row in:"; cat "$T/o"; fails=$((fails + 1)); }
        fi
        # the file name carries the pid, and the rank when the environment
        # gives one (torchrun's RANK); the metadata has rank, local rank, size
        RANK=3 LOCAL_RANK=1 WORLD_SIZE=4 "$CR" trace --lib "$B/libcommroof_trace.so" -o "$T/nvr" -- "$T/nvtx_demo" >"$T/o" 2>"$T/e"
        check "rank in the name" 0 $?
        NVR=$(ls "$T/nvr"/commroof-trace.*.json 2>/dev/null | head -n 1)
        case "$NVR" in
        */commroof-trace.*.[0-9]*.rank3.json) has "rank metadata" "$NVR" '"rank":3,"local_rank":1,"world_size":4' ;;
        *) echo "check_trace: a RANK=3 trace is named \"$NVR\", not commroof-trace.HOST.PID.rank3.json"; fails=$((fails + 1)) ;;
        esac
        # the tracer itself refuses such a folder, saying so (it cut the file
        # name to "comm.json" within it); LONG is from the -o check above
        mkdir -p "$LONG"
        NVTX_INJECTION64_PATH="$PWD/$B/libcommroof_trace.so" COMMROOF_TRACE_DIR="$LONG" "$T/nvtx_demo" >"$T/o" 2>"$T/e"
        check "nvtx demo, folder too long" 0 $?
        has "nvtx demo, folder too long" "$T/e" "characters long, too long for the trace's file name"
        n=$(find "$T/long" -type f | wc -l)
        [ "$n" = 0 ] || { echo "check_trace: nvtx demo, folder too long: $n file(s) written"; find "$T/long" -type f; fails=$((fails + 1)); }
        rm -rf "$T/long"
        # guard mode: no decoding, no own path, and the program still exits 0
        COMMROOF_TRACE_NVTX_WRAP=0 "$CR" trace --lib "$B/libcommroof_trace.so" -o "$T/nv0" -- "$T/nvtx_demo" >"$T/o" 2>"$T/e"
        check "nvtx payload demo, WRAP=0" 0 $?
        NV0=$(ls "$T/nv0"/commroof-trace.*.json 2>/dev/null | head -n 1)
        [ -n "$NV0" ] && has "nvtx payload demo, WRAP=0" "$NV0" '"nvtx_recorder":"none","nvtx_payloads_decoded":0'
        # environment values that do not parse as a whole: each reported once
        # on stderr (variable, value, what is accepted) and in
        # metadata.errors, and the default used; before, "1000ms" read as
        # 1000, "16M", "maybe", "three" were dropped silently, and
        # NVTX_WRAP=off left the wrappers on
        COMMROOF_TRACE_FLUSH_MS=1000ms COMMROOF_TRACE_BUFFER_BYTES=16M COMMROOF_TRACE_QUIET=maybe \
            COMMROOF_TRACE_NVTX_WRAP=maybe COMMROOF_TRACE_EARLY_NVTX=later COMMROOF_TRACE_CUPTI_PINNED=2 \
            RANK=three "$CR" trace --lib "$B/libcommroof_trace.so" -o "$T/nvbad" -- "$T/nvtx_demo" >"$T/o" 2>"$T/e"
        check "bad environment values" 0 $?
        NVB=$(ls "$T/nvbad"/commroof-trace.*.json 2>/dev/null | head -n 1)
        for m in 'COMMROOF_TRACE_FLUSH_MS=\"1000ms\" is not a whole number from 10 to 600000 (milliseconds, digits only); using 500' \
            'COMMROOF_TRACE_BUFFER_BYTES=\"16M\" is not a whole number from 65536 to 1073741824 (bytes, digits only); using 8388608' \
            'COMMROOF_TRACE_QUIET=\"maybe\" is not 1, yes, on, true or 0, no, off, false; using 0' \
            'COMMROOF_TRACE_NVTX_WRAP=\"maybe\" is not 1, yes, on, true or 0, no, off, false; using 1' \
            'COMMROOF_TRACE_EARLY_NVTX=\"later\" is not 1, yes, on, true or 0, no, off, false; using 1' \
            'COMMROOF_TRACE_CUPTI_PINNED=\"2\" is not 1, yes, on, true or 0, no, off, false; using 0' \
            'RANK=\"three\" is not a whole number from 0 to 999999; ignored'; do
            plain=$(printf '%s' "$m" | sed 's/\\"/"/g')
            n=$(grep -cF -- "commroof-trace: $plain" "$T/e")
            [ "$n" = 1 ] || { echo "check_trace: bad environment: \"$plain\" on stderr $n times, expected 1:"; cat "$T/e"; fails=$((fails + 1)); }
            [ -n "$NVB" ] && has "bad environment in metadata.errors" "$NVB" "$m"
        done
        [ -n "$NVB" ] && has "bad environment: wrappers kept" "$NVB" '"nvtx_recorder":"own"'
        # the words a boolean takes: off is 0 (guard mode), yes is 1 (quiet)
        COMMROOF_TRACE_NVTX_WRAP=off COMMROOF_TRACE_QUIET=yes "$CR" trace --lib "$B/libcommroof_trace.so" \
            -o "$T/nvoff" -- "$T/nvtx_demo" >"$T/o" 2>"$T/e"
        check "NVTX_WRAP=off" 0 $?
        NVO=$(ls "$T/nvoff"/commroof-trace.*.json 2>/dev/null | head -n 1)
        [ -n "$NVO" ] && has "NVTX_WRAP=off is guard mode" "$NVO" '"nvtx_recorder":"none"'
        if grep -q "tracing to" "$T/e"; then echo "check_trace: COMMROOF_TRACE_QUIET=yes is not quiet"; fails=$((fails + 1)); fi
    else
        cat "$T/e"; echo "check_trace: tests/trace/nvtx_payload_demo.c does not build"; fails=$((fails + 1))
    fi
    # NVTX strings that are not UTF-8: the reader accepts the trace, each
    # maximal subpart of an ill-formed sequence is one U+FFFD (R), valid text
    # is kept (the cases and their derivation are in the demo's header)
    if cc -std=c11 -O1 -I"$CUDA_INC" -o "$T/utf8_demo" tests/trace/nvtx_utf8_demo.c -ldl 2>"$T/e"; then
        # an argument too: the command line goes into metadata.command
        "$CR" trace --lib "$B/libcommroof_trace.so" -o "$T/u8" -- "$T/utf8_demo" "$(printf 'x\355\240\200y')" >"$T/o" 2>"$T/e"
        check "nvtx utf8 demo" 0 $?
        U8=$(ls "$T/u8"/commroof-trace.*.json 2>/dev/null | head -n 1)
        if [ -z "$U8" ]; then
            echo "check_trace: nvtx utf8 demo wrote no trace"; cat "$T/e"; fails=$((fails + 1))
        else
            "$CR" trace summary "$U8" >"$T/o" 2>"$T/e"; check "nvtx utf8: the reader accepts it" 0 $?
            has "nvtx utf8: the reader accepts it" "$T/o" "complete, 17 events"
            R=$(printf '\357\277\275')
            has "nvtx utf8: overlong C0" "$U8" "\"name\":\"u1 $R$R|\""
            has "nvtx utf8: overlong E0" "$U8" "\"name\":\"u2 $R$R$R|\""
            has "nvtx utf8: surrogate" "$U8" "\"name\":\"u3 $R$R$R|\""
            has "nvtx utf8: truncated 3-byte" "$U8" "\"name\":\"u4 $R|\""
            has "nvtx utf8: beyond U+10FFFF" "$U8" "\"name\":\"u5 $R$R$R$R|\""
            has "nvtx utf8: stray and never-valid bytes" "$U8" "\"name\":\"u6 $R$R$R$R$R|\""
            has "nvtx utf8: truncated 4-byte" "$U8" "\"name\":\"u7 $R|\""
            has "nvtx utf8: valid text kept" "$U8" "\"name\":\"u8 caf$(printf '\303\251 \342\202\254 \360\235\204\236')|\""
            has "nvtx utf8: mark" "$U8" "\"name\":\"m1 $R$R$R|\""
            has "nvtx utf8: registered string, domain" "$U8" "\"name\":\"r1 $R|\",\"args\":{\"device\":-1,\"thread\":"
            has "nvtx utf8: domain" "$U8" "\"domain\":\"d1 $R$R|\""
            has "nvtx utf8: wide string" "$U8" "\"name\":\"w1 $(printf '\360\237\230\200')$R$R|\""
            has "nvtx utf8: cut at the limit" "$U8" "\"name\":\"$(printf '%255s' '' | tr ' ' a)\","
            has "nvtx utf8: payload" "$U8" "\"payload\":{\"k$R\":\"v$R$R|\"}"
            has "nvtx utf8: command line" "$U8" "utf8_demo x$R$R${R}y\","
        fi
    else
        cat "$T/e"; echo "check_trace: tests/trace/nvtx_utf8_demo.c does not build"; fails=$((fails + 1))
    fi
    # CUPTI mode, simulated: payloads matched to CUPTI's marker records (the
    # scenario and expected values are in tests/trace/cupti_mode_sim.c)
    CH=${CUDA_HOME:-/usr/local/cuda}
    CUPTI_DIR=""
    for d in "$CH/lib64" "$CH/extras/CUPTI/lib64" "$CH/lib"; do
        [ -f "$d/libcupti.so" ] && { CUPTI_DIR=$d; break; }
    done
    sim_cc() { # OUT SRC: a simulation that includes the tracer, against the real libcupti
        cc -std=c11 -O1 -I"$CUDA_INC" -I"$CH/extras/CUPTI/include" -o "$1" "$2" \
            -L"$CUPTI_DIR" -Wl,-rpath,"$CUPTI_DIR" -lcupti -ldl -lpthread 2>"$T/e"
    }
    if [ -n "$CUPTI_DIR" ] && sim_cc "$T/sim" tests/trace/cupti_mode_sim.c; then
        "$T/sim" "$T/sim.json" >"$T/o" 2>"$T/e"; check "cupti mode sim" 0 $?
        S="$T/sim.json"
        has "cupti sim: matched" "$S" '"name":"ncclAllReduce","args":{"device":-1,"thread":'
        has "cupti sim: 1 MiB" "$S" '"Message size [bytes]":1048576,"Reduction operation":"Sum"},"payload_kind":"nvtx_ext"}}'
        has "cupti sim: 64 KiB" "$S" '"Message size [bytes]":65536,"Reduction operation":"Max"}'
        has "cupti sim: pop payload" "$S" '"name":"ncclCommInitRank","args":{"device":-1,"thread":'
        has "cupti sim: pop payload" "$S" '"No. of ranks":8,"Rank":2,"CUDA device":2}'
        has "cupti sim: other untouched" "$S" '"name":"other","args":{"device":-1,"thread":'
        if grep -q '"name":"other".*payload' "$S" || grep -q '"Message size \[bytes\]":4096,' "$S"; then
            echo "check_trace: cupti sim: the lost range's payload went to another range:"; cat "$S"; fails=$((fails + 1))
        fi
        has "cupti sim: counts" "$S" '"nvtx_recorder":"cupti","nvtx_payloads_decoded":20004,"nvtx_payloads_undecoded":0,"nvtx_payloads_unmatched":1'
        has "cupti sim: late delivery" "$S" '"Message size [bytes]":120000,"Reduction operation":"Sum"}'
        n=$(grep -c '"name":"ncclAllReduce".*"Message size' "$S")
        [ "$n" = 20002 ] || { echo "check_trace: cupti sim: $n sized ncclAllReduce ranges, expected 20002"; fails=$((fails + 1)); }
    elif [ -n "$CUPTI_DIR" ]; then
        cat "$T/e"; echo "check_trace: tests/trace/cupti_mode_sim.c does not build"; fails=$((fails + 1))
    fi
    # CUPTI's NVTX handlers never see an extended payload (CUPTI crashed on a
    # bad one on the H200), with the wrappers and in guard mode
    # (COMMROOF_TRACE_NVTX_WRAP=0); a fault there ends the sim with 139
    if [ -n "$CUPTI_DIR" ] && sim_cc "$T/guard" tests/trace/nvtx_guard_sim.c; then
        "$T/guard" >"$T/o" 2>"$T/e"; check "nvtx guard sim, wrappers" 0 $?
        has "nvtx guard sim, wrappers" "$T/o" "wrapper mode: 8 calls, 2 pops reached CUPTI, no extended payload, no unknown payload"
        COMMROOF_TRACE_NVTX_WRAP=0 "$T/guard" >"$T/o" 2>"$T/e"; check "nvtx guard sim, WRAP=0" 0 $?
        has "nvtx guard sim, WRAP=0" "$T/o" "guard mode: 8 calls, 2 pops reached CUPTI, no extended payload, no unknown payload"
    elif [ -n "$CUPTI_DIR" ]; then
        cat "$T/e"; echo "check_trace: tests/trace/nvtx_guard_sim.c does not build"; fails=$((fails + 1))
    fi
    # the activity-buffer pool (buffers zeroed in advance and reused, so the
    # program's thread neither allocates nor zeroes one) and COMMROOF_TRACE_RECORD
    if [ -n "$CUPTI_DIR" ] && sim_cc "$T/pool" tests/trace/buffer_pool_sim.c; then
        "$T/pool" "$T/pool.json" >"$T/o" 2>"$T/e"; check "buffer pool sim" 0 $?
        has "buffer pool sim" "$T/o" "buffer pool sim: ok"
        has "buffer pool sim: unknown word noted" "$T/e" 'unknown word "kernels"'
    elif [ -n "$CUPTI_DIR" ]; then
        cat "$T/e"; echo "check_trace: tests/trace/buffer_pool_sim.c does not build"; fails=$((fails + 1))
    fi
    # CUDA graph nodes: which thread made each, and when, and each clone's
    # original (the scenario is in tests/trace/graph_node_sim.c)
    if [ -n "$CUPTI_DIR" ] && sim_cc "$T/gnode" tests/trace/graph_node_sim.c; then
        "$T/gnode" "$T/gnode.json" >"$T/o" 2>"$T/e"; check "graph node sim" 0 $?
        has "graph node sim" "$T/o" "graph node sim: ok"
    elif [ -n "$CUPTI_DIR" ]; then
        cat "$T/e"; echo "check_trace: tests/trace/graph_node_sim.c does not build"; fails=$((fails + 1))
    fi
    # the start-up window: a buffer CUPTI delivers as soon as a kind is
    # enabled is written; one that finds the tracer not active is counted
    # as dropped (the scenario is in tests/trace/startup_sim.c)
    if [ -n "$CUPTI_DIR" ] && sim_cc "$T/startup" tests/trace/startup_sim.c; then
        "$T/startup" "$T/startup-out" >"$T/o" 2>"$T/e"; check "startup sim" 0 $?
        has "startup sim" "$T/o" "startup sim: ok"
    elif [ -n "$CUPTI_DIR" ]; then
        cat "$T/e"; echo "check_trace: tests/trace/startup_sim.c does not build"; fails=$((fails + 1))
    fi
    # what the tracer writes at the edges: metadata.recorded without a kind
    # CUPTI refused, CUPTI's NVTX names cut as the wrappers cut theirs (a
    # 2 MB name made the trace unreadable; a long name lost its payload),
    # u64 payloads of 2^63 and more as strings (the reader refused the
    # trace), RLIMIT_FSIZE (the write past it killed the program with
    # SIGXFSZ, exit 153), stderr closed (the trace took descriptor 2 and
    # the tracer's messages went into it), and a held lock at exit;
    # tests/trace/limits_sim.c
    if [ -n "$CUPTI_DIR" ] && sim_cc "$T/limits" tests/trace/limits_sim.c; then
        "$T/limits" "$T/lim" >"$T/o" 2>"$T/e"; check "limits sim" 0 $?
        has "limits sim" "$T/o" "limits sim: ok"
        "$CR" trace summary "$T"/lim/commroof-trace.*.json >"$T/o" 2>"$T/e"; check "limits sim: the reader reads it" 0 $?
        has "limits sim: the reader reads it" "$T/o" "complete, 10 events, dropped records 0"
        "$T/limits" --fsize "$T/limfs" >"$T/o" 2>"$T/e"; check "limits sim --fsize" 0 $?
        has "limits sim --fsize" "$T/o" "limits sim --fsize: ok"
        has "limits sim --fsize: stderr" "$T/e" "the file size limit (ulimit -f, 16384 bytes) is reached"
        "$CR" trace summary "$T"/limfs/commroof-trace.*.json >"$T/o" 2>"$T/e"; check "limits sim --fsize: the reader reads it" 0 $?
        has "limits sim --fsize: the reader reads it" "$T/o" "or the file size limit, ulimit -f, cut the trace"
        "$T/limits" --lowfd "$T/limlo" >"$T/o" 2>"$T/e"; check "limits sim --lowfd" 0 $?
        has "limits sim --lowfd" "$T/o" "limits sim --lowfd: ok"
        "$CR" trace summary "$T"/limlo/commroof-trace.*.json >"$T/o" 2>"$T/e"; check "limits sim --lowfd: the reader reads it" 0 $?
        # exit() from a signal handler on a thread inside the tracer: at
        # most two seconds' wait at exit, not for ever (QA review, session 44)
        timeout 60 "$T/limits" --heldlock "$T/limhl" >"$T/o" 2>"$T/e"; check "limits sim --heldlock" 0 $?
        has "limits sim --heldlock" "$T/o" "limits sim --heldlock: ok"
        has "limits sim --heldlock: stderr" "$T/e" "is left without its end"
        "$CR" trace summary "$T"/limhl/commroof-trace.*.json >"$T/o" 2>"$T/e"; check "limits sim --heldlock: the reader reads it" 0 $?
        has "limits sim --heldlock: the reader reads it" "$T/o" "INCOMPLETE"
    elif [ -n "$CUPTI_DIR" ]; then
        cat "$T/e"; echo "check_trace: tests/trace/limits_sim.c does not build"; fails=$((fails + 1))
    fi
    # the dropped-record count when text cannot reach the file (no memory
    # for a stats line, failed writes: tests/trace/write_fail_sim.c)
    if [ -n "$CUPTI_DIR" ] && [ -w /dev/full ] && sim_cc "$T/wfail" tests/trace/write_fail_sim.c; then
        "$T/wfail" "$T/wfail.json" >"$T/o" 2>"$T/e"; check "write fail sim" 0 $?
        has "write fail sim" "$T/o" "write fail sim: ok"
        has "write fail sim: stderr" "$T/e" "7 records dropped"
    elif [ -n "$CUPTI_DIR" ] && [ -w /dev/full ]; then
        cat "$T/e"; echo "check_trace: tests/trace/write_fail_sim.c does not build"; fails=$((fails + 1))
    fi
fi

# the demo programs compile (CUDA, no GPU needed); not in the SAN pass. (The
# NVTX payload corpus under clang's UBSan, which caught arithmetic on a null
# pointer in nvp_read_str that gcc's UBSan does not report, runs in
# tests/check_fuzz.sh with every other harness.)
case "$B" in
*-san) ;;
*)
    if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
        make --no-print-directory BUILD="$B" trace-demos >"$T/build.log" 2>&1 ||
            { cat "$T/build.log"; echo "check_trace: trace demos do not build"; fails=$((fails + 1)); }
    fi
    ;;
esac

if [ $fails -ne 0 ]; then echo "check_trace: $fails FAILED"; exit 1; fi
echo "check_trace: OK"
