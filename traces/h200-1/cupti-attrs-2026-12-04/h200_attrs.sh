#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool): does any of CUPTI's remaining activity
# knobs make a recorded launch cheaper on Hopper (issue 16 item 3)?
#
# Applies tracer-cupti-knobs.patch (environment variables that exist only
# for this experiment) to a copy of traces/tracer/commroof_trace.c, builds
# it and kernels/overhead, and runs kernels/overhead -m launch (tiny kernels,
# 4 KiB copies, 4 KiB memsets, NVTX + kernel, 16 MiB copies) in processes
# alternating between configurations:
#
#   untraced   no tracer
#   base       the tracer as shipped (kernel, memcpy, memset recorded)
#   pt0        CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER = 0 (one
#              shared activity buffer instead of CUPTI 13's per-thread ones)
#   pre16      DEVICE_BUFFER_PRE_ALLOCATE_VALUE 16 (default 3), pool limit 1000
#   db3m       DEVICE_BUFFER_SIZE at CUPTI's default 3.2 MB instead of the
#              tracer's 32 MiB
#   kkind      CUPTI_ACTIVITY_KIND_KERNEL instead of CONCURRENT_KERNEL (CUPTI
#              serialises kernels then)
#   ownnvtx    NVTX ranges recorded by the tracer's own wrappers (its "own
#              path") instead of CUPTI's MARKER kinds
#
# Every traced process's trace is checked (records of each kind against what
# the program launched, dropped records, closed file), then deleted.
# Results in $OUT: attrs.txt (summary table and checks), attrs_raw.txt
# (every loop), log.txt (everything printed).
#
#   bash traces/h200-1/cupti-attrs-2026-12-04/h200_attrs.sh     (run1: 40 s on the H200)
#   CONFIGS="untraced base pre16" REPS=7 TORCH_REPS=3 bash ...  (run2)
#   CONFIGS="untraced base" REPS=0 TRAIN_REPS=5 bash ...        (run3: whole training steps)
#   CONFIGS="untraced base ownnvtx" REPS=7 bash ...              (run4: NVTX by the own path)
REPS=${REPS:-3}
N=${N:-10000}
CONFIGS=${CONFIGS:-untraced base pt0 pre16 db3m kkind}
TORCH_REPS=${TORCH_REPS:-0} # processes of each configuration on the PyTorch loops
TORCH_N=${TORCH_N:-5000}
TRAIN_REPS=${TRAIN_REPS:-0} # processes of each configuration on whole training steps (torch_train.py)
HERE=traces/h200-1/cupti-attrs-2026-12-04
# shellcheck source=traces/tracer/device_common.sh
. traces/tracer/device_common.sh
RAW=$OUT/attrs_raw.txt
SUM=$OUT/attrs.txt
: >"$RAW"
: >"$SUM"

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pci.bus_id --format=csv 2>&1 | head -3
uname -r; $CUDA/bin/nvcc --version | tail -1; echo "cupti in $CUPTI_LIB"; nproc

echo "== build (tracer with the experiment's knobs)"
mkdir -p $W/src/traces/tracer
cp traces/tracer/*.c traces/tracer/*.h $W/src/traces/tracer/
P=$PWD/$HERE/tracer-cupti-knobs.patch
git apply --unsafe-paths --directory="$W/src" "$P" || (cd "$W/src" && patch -p1 <"$P") || exit 1
gcc -std=c11 -O2 -g -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror \
  -isystem $CUDA/include -o $LIB $W/src/traces/tracer/commroof_trace.c \
  -L"$CUPTI_LIB" -Wl,-rpath,"$CUPTI_LIB" -Wl,--no-undefined -lcupti -ldl -lpthread || exit 1
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/overhead kernels/overhead/overhead.cu -ldl || exit 1
ls -la $LIB $W/overhead

env_of() {
  case $1 in
  pt0) echo COMMROOF_TRACE_X_PER_THREAD=0 ;;
  pre16) echo COMMROOF_TRACE_X_DEVBUF_PREALLOC=16 ;;
  db3m) echo COMMROOF_TRACE_X_DEVBUF_BYTES=3200000 ;;
  kkind) echo COMMROOF_TRACE_X_KERNEL_KIND=KERNEL ;;
  ownnvtx) echo COMMROOF_TRACE_X_OWN_NVTX=1 ;;
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

if [ "$TORCH_REPS" -gt 0 ] &&
  timeout 60 python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  echo "== PyTorch loops ($TORCH_N calls x 3 loops), $TORCH_REPS processes of each configuration"
  for i in $(seq 1 "$TORCH_REPS"); do
    for c in $CONFIGS; do run_cfg $c "t$i" python3 kernels/overhead/torch_launch.py -n "$TORCH_N" -r 3; done
    echo "   round t$i done ($(date +%T))"
  done
elif [ "$TORCH_REPS" -gt 0 ]; then
  echo "== PyTorch with CUDA not available: torch loops skipped"
fi

if [ "$TRAIN_REPS" -gt 0 ] &&
  timeout 60 python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  echo "== PyTorch training steps (50 steps x 3 loops per size), $TRAIN_REPS processes of each configuration"
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)"
  for i in $(seq 1 "$TRAIN_REPS"); do
    for c in $CONFIGS; do run_cfg $c "s$i" python3 kernels/overhead/torch_train.py -n 50 -r 3; done
    echo "   round s$i done ($(date +%T))"
  done
fi

{
  echo
  echo "== summary: median time per call; added = traced - untraced (limit: +10% on tiny kernels and copies)"
  python3 traces/tracer/overhead_summary.py "$RAW"
} >>"$SUM"
cat "$SUM"
ls -la "$OUT"
