#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool): the tracer's cost on launch-bound work
# with sampling (COMMROOF_TRACE_SAMPLE=ON_MS/PERIOD_MS, issue 16 item 3),
# against untraced runs and the tracer recording every operation.
#
# Builds the tracer (traces/tracer/commroof_trace.c) and kernels/overhead,
# then runs, in processes alternating between configurations:
#
#   launch   kernels/overhead -m launch: tiny kernels, 4 KiB D2D copies,
#            4 KiB memsets, NVTX push + kernel + pop, 16 MiB D2D copies,
#            back to back, per-call time (REPS processes of each)
#   torch    kernels/overhead/torch_launch.py (256-element torch.add, 4 KiB
#            and 16 MiB copy_), where PyTorch with CUDA is installed
#
# Configurations: untraced; full (every operation recorded); s10 (10 ms of
# every 100 ms); s5 (5 ms of every 100 ms). Every traced process's trace is
# checked: records of each kind against what the program launched, the
# share recorded, dropped_records, the closed file, metadata.sampling, and
# the median device time of each launch-mode operation in the trace (what
# sampling must keep); then deleted. Results in $OUT:
#   sample.txt      the summary table (overhead_summary.py) and the trace checks
#   sample_raw.txt  every loop's line
#   log.txt         everything printed
#
#   bash traces/h200-1/sample-2026-12-02/h200_sample.sh          (about 3 minutes on the H200)
#   NO_RUN=1 bash traces/h200-1/sample-2026-12-02/h200_sample.sh (builds only)
REPS=${REPS:-3}
N=${N:-10000}
TORCH_N=${TORCH_N:-5000}
NO_RUN=${NO_RUN:-0}
# shellcheck source=traces/tracer/device_common.sh
. traces/tracer/device_common.sh
RAW=$OUT/sample_raw.txt
SUM=$OUT/sample.txt
: >"$RAW"
: >"$SUM"

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pci.bus_id --format=csv 2>&1 | head -3
uname -r; $CUDA/bin/nvcc --version | tail -1; echo "cupti in $CUPTI_LIB"; nproc

echo "== build"
build_tracer
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/overhead kernels/overhead/overhead.cu -ldl || exit 1
ls -la $LIB $W/overhead
[ "$NO_RUN" = 1 ] && { echo "NO_RUN=1: built, nothing run"; exit 0; }

env_of() {
  case $1 in
  s10) echo COMMROOF_TRACE_QUIET=1 COMMROOF_TRACE_SAMPLE=10/100 ;;
  s5) echo COMMROOF_TRACE_QUIET=1 COMMROOF_TRACE_SAMPLE=5/100 ;;
  *) echo COMMROOF_TRACE_QUIET=1 ;;
  esac
}
# check_trace CFG TAG DIR EXPECTFILE: one line on the trace into $SUM, then delete it
check_trace() {
  local f
  f=$(ls -S "$3"/commroof-trace.*.json 2>/dev/null | head -1) # shellcheck disable=SC2012
  if [ -z "$f" ]; then echo "$1 $2 trace: NONE WRITTEN" >>"$SUM"; return; fi
  python3 - "$f" "$1" "$2" "$4" >>"$SUM" <<'PY'
import json, re, statistics, sys
path, cfg, tag, expect = sys.argv[1:5]
d = json.load(open(path))
md = d.get("metadata", {})
ev = d["traceEvents"]
cnt = {}
dur = {}
for e in ev:
    c = e.get("cat")
    if c in ("kernel", "memcpy", "memset"):
        cnt[c] = cnt.get(c, 0) + 1
        # launch mode: the empty kernel, 4 KiB and 16 MiB copies, 4 KiB memsets
        key = c
        if c == "memcpy":
            b = (e.get("args") or {}).get("bytes", 0)
            key = "memcpy16m" if b >= 16 << 20 else "memcpy4k"
        dur.setdefault(key, []).append(float(e.get("dur", 0)))
exp = ""
try:
    exp = [l for l in open(expect) if l.startswith("expect")][0].strip()
except (OSError, IndexError):
    pass
want = {k: int(v) for k, v in re.findall(r"(kernels|memcpy|memset) (\d+)", exp)}
share = " ".join("%s %d/%d (%.1f%%)" % (k, cnt.get(k[:-1] if k == "kernels" else k, 0), n,
                 100.0 * cnt.get(k[:-1] if k == "kernels" else k, 0) / n if n else 0)
                 for k, n in want.items())
med = " ".join("%s %.2f" % (k, statistics.median(v)) for k, v in sorted(dur.items()))
print("%s %s trace: %s | dropped %s closed %s sampling %s errors %s | median device us: %s" % (
    cfg, tag, share, md.get("dropped_records"), "yes" if md else "NO",
    json.dumps(md.get("sampling")), json.dumps(md.get("errors")), med))
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
    env $(env_of "$cfg") CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" COMMROOF_TRACE_DIR="$d" \
      timeout 120 "$@" >$W/o.txt 2>$W/e.txt
  fi
  local rc=$?
  [ $rc = 0 ] || { echo "   $cfg $tag: rc=$rc"; tail -3 $W/e.txt; }
  grep -v '^expect' $W/o.txt | sed "s/^/$cfg $tag /" >>"$RAW"
  [ "$cfg" != untraced ] && check_trace "$cfg" "$tag" "$d" $W/o.txt
  grep '^commroof-trace' $W/e.txt | grep -v 'records written\|tracing to' | head -3
}

echo "== launch-bound: $N calls x 3 loops of each operation; $REPS processes of each configuration"
for i in $(seq 1 "$REPS"); do
  for c in untraced full s10 s5; do run_cfg $c "p$i" $W/overhead -m launch -n "$N" -r 3; done
  echo "   round $i done ($(date +%T))"
done

if timeout 60 python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  echo "== PyTorch loops ($TORCH_N calls x 3 loops), 2 processes of each configuration"
  for i in 1 2; do
    for c in untraced full s10 s5; do run_cfg $c "t$i" python3 kernels/overhead/torch_launch.py -n "$TORCH_N" -r 3; done
  done
else
  echo "== PyTorch with CUDA not available: torch loops skipped"
fi

{
  echo
  echo "== summary: median time per call; added = traced - untraced (limit: +10% on tiny kernels and copies)"
  python3 traces/tracer/overhead_summary.py "$RAW"
} >>"$SUM"
cat "$SUM"
ls -la "$OUT"
