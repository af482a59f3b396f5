#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool): the tracer's overhead before and after
# (issue 16, item 3), on launch-bound work and on the kernel-dense program.
#
# Builds the OLD tracer (OLD_SRC, a tracer source to compare against) and the NEW one
# (traces/tracer/trace_*.c), and kernels/overhead, then runs, in
# processes alternating between configurations:
#
#   launch   kernels/overhead -m launch: N tiny kernels, 4 KiB D2D copies,
#            4 KiB memsets, NVTX push + kernel + pop, 16 MiB D2D copies,
#            back to back, per-call time (REPS processes of untraced, old, new;
#            ABL processes of each ablation of the new tracer below)
#   spin     kernels/overhead's kernel-dense mode (10,000 kernels of 10 us,
#            5 loops; the 1-3% figure of runs 1-5), untraced, old, new
#   torch    kernels/overhead/torch_launch.py (the user's loops: 256-element
#            torch.add, 4 KiB and 16 MiB copy_), where PyTorch with CUDA is
#            installed
#
# Ablations of the new tracer (where the time goes):
#   new-none    COMMROOF_TRACE_RECORD=none: CUPTI loaded, NVTX/devices only
#   new-kernel  COMMROOF_TRACE_RECORD=kernel: kernels only (no copies, memsets, syncs)
#   new-nosync  COMMROOF_TRACE_RECORD=kernel,memcpy,memset
#   new-pinned  COMMROOF_TRACE_CUPTI_PINNED=1: CUPTI's timestamp buffers in pinned host memory
#
# Every traced process's trace is checked: records of each kind against what
# the program launched ("expect" line), dropped_records, closed file; then
# deleted. Two small traces (old, new) are kept. Results in $OUT:
#   overhead_ab.txt        the summary table (overhead_summary.py) and the trace checks
#   overhead_raw.txt       every loop's line
#   trace_metadata.txt     the metadata of every trace
#   overhead_traces.tar.gz small launch-mode traces of the old and new tracer
#   log.txt                everything printed
#
#   bash traces/tracer/h200_overhead_ab.sh          (about 3-4 minutes on the H200)
#   NO_RUN=1 bash traces/tracer/h200_overhead_ab.sh (builds only: a CPU machine with nvcc)
REPS=${REPS:-3}
ABL=${ABL:-2}
N=${N:-10000}
TORCH_N=${TORCH_N:-5000}
NO_RUN=${NO_RUN:-0}
# shellcheck source=traces/tracer/device_common.sh
. "$(dirname "$0")/device_common.sh"
# The old side of the A/B: a one-file tracer source to compare against, e.g.
# the one before the buffer pool: git show 7493853:traces/tracer/commroof_trace.c >
# .ab/old.c (an ignored folder the run tool carries); 2026-12-02's run
# used that one (traces/h200-1/overhead-2026-12-02/). The tracer was one
# file until 2026-12-06; a later version to compare against is built from
# its trace_*.c the same way (OLD_SRC may name several files).
OLD_SRC=${OLD_SRC:?give OLD_SRC=path of the tracer source to compare against (see the comment above)}
OLD=$W/libcommroof_trace_old.so
RAW=$OUT/overhead_raw.txt
AB=$OUT/overhead_ab.txt
: >"$RAW"
: >"$AB"
: >"$OUT/trace_metadata.txt"

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pci.bus_id --format=csv 2>&1 | head -3
uname -r; $CUDA/bin/nvcc --version | tail -1; echo "cupti in $CUPTI_LIB"; nproc

echo "== build (old: $OLD_SRC, new: traces/tracer/trace_*.c)"
build_tracer
# shellcheck disable=SC2086 # OLD_SRC may name several files
build_tracer_lib $OLD $OLD_SRC
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/overhead kernels/overhead/overhead.cu -ldl || exit 1
ls -la $LIB $OLD $W/overhead
[ "$NO_RUN" = 1 ] && { echo "NO_RUN=1: built, nothing run"; exit 0; }

# lib_of CFG: the library a configuration runs under ("" = untraced)
lib_of() { case $1 in untraced) echo "" ;; old) echo $OLD ;; *) echo $LIB ;; esac; }
# env_of CFG: its extra environment
env_of() {
  case $1 in
  new-none) echo COMMROOF_TRACE_RECORD=none ;;
  new-kernel) echo COMMROOF_TRACE_RECORD=kernel ;;
  new-nosync) echo COMMROOF_TRACE_RECORD=kernel,memcpy,memset ;;
  new-pinned) echo COMMROOF_TRACE_CUPTI_PINNED=1 ;;
  *) echo COMMROOF_TRACE_QUIET=1 ;;
  esac
}
# check_trace CFG TAG DIR EXPECTFILE: one line on the trace into $AB, then delete it
check_trace() {
  local f
  f=$(ls -S "$3"/commroof-trace.*.json 2>/dev/null | head -1) # shellcheck disable=SC2012
  if [ -z "$f" ]; then echo "$1 $2 trace: NONE WRITTEN" >>"$AB"; return; fi
  local k m s r d e end
  k=$(grep -c '"cat":"kernel"' "$f"); m=$(grep -c '"cat":"memcpy"' "$f")
  s=$(grep -c '"cat":"memset"' "$f"); r=$(grep -c '"cat":"nvtx".*"name":"overhead"' "$f")
  d=$(grep -o '"dropped_records":[0-9]*' "$f" | tail -1 | cut -d: -f2)
  e=$(grep -o '"errors":\[[^]]*\]' "$f" | tail -1)
  end=$(grep -c '"name":"commroof_end"' "$f")
  echo "$1 $2 trace: kernels $k memcpy $m memset $s nvtx $r dropped ${d:-?} closed $end" \
    "| $(grep -h '^expect' "$4" 2>/dev/null | head -1) | ${e:-no errors field}" >>"$AB"
  { echo "== $1 $2 $(basename "$f")"; grep -o '"metadata":.*' "$f" | cut -c1-1500; } >>"$OUT/trace_metadata.txt"
  rm -f "$3"/commroof-trace.*.json
}
# run_cfg CFG TAG CMD...: CMD untraced or under CFG's tracer; loop lines into $RAW
run_cfg() {
  local cfg=$1 tag=$2; shift 2
  local lib; lib=$(lib_of "$cfg")
  local d=$W/tr/$cfg-$tag; rm -rf "$d"; mkdir -p "$d"
  if [ -z "$lib" ]; then
    timeout 120 "$@" >$W/o.txt 2>$W/e.txt
  else
    # shellcheck disable=SC2046 # env_of's words are meant to split
    env $(env_of "$cfg") CUDA_INJECTION64_PATH="$lib" NVTX_INJECTION64_PATH="$lib" COMMROOF_TRACE_DIR="$d" \
      timeout 120 "$@" >$W/o.txt 2>$W/e.txt
  fi
  local rc=$?
  [ $rc = 0 ] || { echo "   $cfg $tag: rc=$rc"; tail -3 $W/e.txt; }
  grep -v '^expect' $W/o.txt | sed "s/^/$cfg $tag /" >>"$RAW"
  [ -n "$lib" ] && check_trace "$cfg" "$tag" "$d" $W/o.txt
  grep '^commroof-trace' $W/e.txt | grep -v 'records written\|tracing to' | head -3
}

echo "== launch-bound: $N calls x 3 loops of each operation; $REPS processes of untraced/old/new, $ABL of each ablation"
for i in $(seq 1 "$REPS"); do
  for c in untraced old new; do run_cfg $c "p$i" $W/overhead -m launch -n "$N" -r 3; done
  if [ "$i" -le "$ABL" ]; then
    for c in new-none new-kernel new-nosync new-pinned; do run_cfg $c "p$i" $W/overhead -m launch -n "$N" -r 3; done
  fi
  echo "   round $i done ($(date +%T))"
done

echo "== kernel-dense (10,000 kernels of 10 us, 5 loops), $REPS processes each"
for i in $(seq 1 "$REPS"); do
  for c in untraced old new; do run_cfg $c "s$i" $W/overhead -n 10000 -t 10000 -r 5; done
done

if torch_ok; then
  echo "== PyTorch loops ($TORCH_N calls x 3 loops), 2 processes of untraced/old/new, 1 of new-kernel"
  for i in 1 2; do
    for c in untraced old new; do run_cfg $c "t$i" python3 kernels/overhead/torch_launch.py -n "$TORCH_N" -r 3; done
  done
  run_cfg new-kernel t1 python3 kernels/overhead/torch_launch.py -n "$TORCH_N" -r 3
else
  echo "== PyTorch with CUDA not available: torch loops skipped"
fi

echo "== small traces kept (200 calls of each operation, 1 loop)"
mkdir -p $W/keep
for c in old new; do
  lib=$(lib_of $c); mkdir -p $W/keep/$c
  CUDA_INJECTION64_PATH=$lib NVTX_INJECTION64_PATH=$lib COMMROOF_TRACE_DIR=$W/keep/$c COMMROOF_TRACE_QUIET=1 \
    timeout 60 $W/overhead -m launch -n 200 -r 1 >/dev/null
done
tar -C $W/keep -czf "$OUT"/overhead_traces.tar.gz old new

{
  echo
  echo "== summary: median time per call; added = traced - untraced (limit: +10% on tiny kernels and copies)"
  python3 traces/tracer/overhead_summary.py "$RAW"
} >>"$AB"
cat "$AB"
ls -la "$OUT"
