#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool): does an activity kind the tracer
# enables beyond the one an operation produces make that operation dearer
# (issue 16 item 3)? SYNCHRONIZATION did: 0.8-1.1 us on every tiny kernel
# or copy with no synchronisation in sight (traces/h200-1/overhead-2026-12-02).
# The kinds not tried alone before: MEMCPY2 (peer copies), MARKER and
# MARKER_DATA (NVTX), DEVICE and CONTEXT; and the recorded kinds in
# subsets (COMMROOF_TRACE_RECORD, the shipped knob).
#
# Builds a copy of traces/tracer/commroof_trace.c with one experiment-only
# variable, COMMROOF_TRACE_X_SKIP (comma-separated CUPTI kind names the
# tracer then leaves disabled), and kernels/overhead, and runs
# kernels/overhead -m launch (tiny kernels, 4 KiB copies, 4 KiB memsets,
# NVTX + kernel, 16 MiB copies) in processes alternating between
# configurations:
#
#   untraced   no tracer
#   base       the tracer as shipped (kernel, memcpy, memset recorded)
#   nop2p      base without MEMCPY2
#   nomarker   base without MARKER and MARKER_DATA (NVTX not recorded)
#   nodevctx   base without DEVICE and CONTEXT
#   kernel     COMMROOF_TRACE_RECORD=kernel (copies and memsets not recorded)
#   kmemcpy    COMMROOF_TRACE_RECORD=kernel,memcpy
#
# then kernels/overhead/torch_launch.py (PyTorch's torch.add and copy_
# loops) under untraced, base, kernel and kmemcpy.
#
# Every traced process's trace is checked (records of each kind against
# what the program launched, dropped records, closed file), then deleted.
# Results in $OUT: kinds.txt (summary and checks), kinds_raw.txt (every
# loop), log.txt (everything printed).
#
#   bash traces/h100-1/cupti-kinds-2026-12-06/kinds.sh
REPS=${REPS:-5}
N=${N:-10000}
CONFIGS=${CONFIGS:-untraced base nop2p nomarker nodevctx kernel kmemcpy}
TORCH_REPS=${TORCH_REPS:-3} # processes of each configuration on the PyTorch loops (0: none)
TORCH_N=${TORCH_N:-5000}
TORCH_CONFIGS=${TORCH_CONFIGS:-untraced base kernel kmemcpy}
# shellcheck source=traces/tracer/device_common.sh
. traces/tracer/device_common.sh
RAW=$OUT/kinds_raw.txt
SUM=$OUT/kinds.txt
: >"$RAW"
: >"$SUM"

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pci.bus_id --format=csv 2>&1 | head -3
uname -r; $CUDA/bin/nvcc --version | tail -1; echo "cupti in $CUPTI_LIB"; nproc

echo "== build (tracer with COMMROOF_TRACE_X_SKIP)"
mkdir -p $W/src
cp traces/tracer/*.c traces/tracer/*.h $W/src/
# the one change: before enabling a kind, skip it where X_SKIP names it
python3 - "$W/src/commroof_trace.c" <<'PY' || exit 1
import sys
p = sys.argv[1]
s = open(p).read()
old = "        why[i] = cuptiActivityEnable(kinds[i].kind);\n"
new = ("        {\n"
       "            const char *xs = getenv(\"COMMROOF_TRACE_X_SKIP\");\n"
       "            char pat[64];\n"
       "            snprintf(pat, sizeof pat, \",%s,\", kinds[i].name);\n"
       "            char all[512];\n"
       "            snprintf(all, sizeof all, \",%s,\", xs ? xs : \"\");\n"
       "            if (xs && strstr(all, pat)) {\n"
       "                why[i] = CUPTI_SUCCESS; /* EXPERIMENT: left disabled */\n"
       "                continue;\n"
       "            }\n"
       "        }\n" + old)
assert s.count(old) == 1, "anchor"
open(p, "w").write(s.replace(old, new, 1))
PY
gcc -std=c11 -O2 -g -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror \
  -isystem $CUDA/include -o $LIB $W/src/commroof_trace.c \
  -L"$CUPTI_LIB" -Wl,-rpath,"$CUPTI_LIB" -Wl,--no-undefined -lcupti -ldl -lpthread || exit 1
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/overhead kernels/overhead/overhead.cu -ldl || exit 1
ls -la $LIB $W/overhead

env_of() {
  case $1 in
  nop2p) echo COMMROOF_TRACE_X_SKIP=MEMCPY2 ;;
  nomarker) echo COMMROOF_TRACE_X_SKIP=MARKER,MARKER_DATA ;;
  nodevctx) echo COMMROOF_TRACE_X_SKIP=DEVICE,CONTEXT ;;
  kernel) echo COMMROOF_TRACE_RECORD=kernel ;;
  kmemcpy) echo COMMROOF_TRACE_RECORD=kernel,memcpy ;;
  *) echo COMMROOF_TRACE_QUIET=1 ;;
  esac
}
# check_trace CFG TAG DIR EXPECTFILE: one line on the trace into $SUM, then delete it
check_trace() {
  local f
  f=$(ls -S "$3"/commroof-trace.*.json 2>/dev/null | head -1) # shellcheck disable=SC2012
  if [ -z "$f" ]; then echo "$1 $2 trace: NONE WRITTEN" >>"$SUM"; return; fi
  python3 - "$f" "$1" "$2" "$4" >>"$SUM" <<'PY'
import json, re, sys
path, cfg, tag, expect = sys.argv[1:5]
d = json.load(open(path))
md = d.get("metadata", {})
cnt = {}
for e in d["traceEvents"]:
    c = e.get("cat")
    if c in ("kernel", "memcpy", "memset", "nvtx"):
        cnt[c] = cnt.get(c, 0) + 1
exp = ""
try:
    exp = [l for l in open(expect) if l.startswith("expect")][0].strip()
except (OSError, IndexError):
    pass
want = {k: int(v) for k, v in re.findall(r"(kernels|memcpy|memset|nvtx) (\d+)", exp)}
got = {"kernels": cnt.get("kernel", 0), "memcpy": cnt.get("memcpy", 0), "memset": cnt.get("memset", 0),
       "nvtx": cnt.get("nvtx", 0)}
print("%s %s trace: %s | dropped %s closed %s errors %s" % (
    cfg, tag, " ".join("%s %d/%d" % (k, got[k], n) for k, n in want.items()),
    md.get("dropped_records"), "yes" if md else "NO", json.dumps(md.get("errors"))))
PY
  rm -f "$3"/commroof-trace.*.json
}
# run_cfg CFG TAG CMD...: CMD untraced or under CFG's tracer; loop lines into $RAW
run_cfg() {
  local cfg=$1 tag=$2; shift 2
  local d=$W/tr/$cfg-$tag; rm -rf "$d"; mkdir -p "$d"
  if [ "$cfg" = untraced ]; then
    timeout 120 "$@" >$W/o.txt 2>$W/e.txt
  else
    # shellcheck disable=SC2046 # env_of's words are meant to split
    env COMMROOF_TRACE_QUIET=1 $(env_of "$cfg") CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" \
      COMMROOF_TRACE_DIR="$d" timeout 120 "$@" >$W/o.txt 2>$W/e.txt
  fi
  local rc=$?
  [ $rc = 0 ] || { echo "   $cfg $tag: rc=$rc"; tail -3 $W/e.txt; }
  grep -v '^expect' $W/o.txt | sed "s/^/$cfg $tag /" >>"$RAW"
  [ "$cfg" != untraced ] && check_trace "$cfg" "$tag" "$d" $W/o.txt
  grep '^commroof-trace' $W/e.txt | grep -v 'records written\|tracing to' | head -3
}

echo "== launch-bound: $N calls x 3 loops of each operation; $REPS processes of each configuration"
for i in $(seq 1 "$REPS"); do
  for c in $CONFIGS; do run_cfg $c "p$i" $W/overhead -m launch -n "$N" -r 3; done
  echo "   round $i done ($(date +%T))"
done

# Phase 2: the user's side of the same question, PyTorch's own launches
# (kernels/overhead/torch_launch.py: 256-element torch.add, 4 KiB and 16 MiB
# copy_), where the issue's figures were taken: does recording only kernels
# (or kernels and copies) bring a 4 KiB copy_ within 10 %?
if [ "$TORCH_REPS" -gt 0 ] &&
  timeout 60 python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  echo "== PyTorch loops ($TORCH_N calls x 3 loops), $TORCH_REPS processes of each of: $TORCH_CONFIGS"
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)"
  for i in $(seq 1 "$TORCH_REPS"); do
    for c in $TORCH_CONFIGS; do run_cfg $c "t$i" python3 kernels/overhead/torch_launch.py -n "$TORCH_N" -r 3; done
    echo "   torch round $i done ($(date +%T))"
  done
elif [ "$TORCH_REPS" -gt 0 ]; then
  echo "== PyTorch with CUDA not available: torch loops skipped"
fi

{
  echo
  echo "== summary: median time per call; added = traced - untraced (limit: +10% on tiny kernels and copies)"
  python3 traces/tracer/overhead_summary.py "$RAW"
} >>"$SUM"
cat "$SUM"
ls -la "$OUT"
