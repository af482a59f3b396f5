#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call: is CUPTI's cost per recorded kernel a matter of where the
# threads run? hwtrace_probe.sh found processes of two kinds on an H100:
# some pay +1.2-1.6 us per empty kernel for CUPTI's records, others nothing
# measurable, whole processes at a time, bare CUPTI client and commroof
# tracer alike. Here hwtrace_probe.cu's modes (none, cupti) and the tracer
# (kernels only) run PROCS processes each, alternating, under each CPU
# placement in PINS (taskset lists; "all" = no taskset). Each process prints
# the CPUs its threads ran on last (/proc/PID/task/*/stat field 39).
# Results in $OUT: affinity.txt (every repetition), log.txt.
#
#   bash traces/tracer/cupti_affinity.sh     (about 2 min on an H100 or H200)
. "$(dirname "$0")/device_common.sh"
N=${N:-10000}
PROCS=${PROCS:-5}
RAW=$OUT/affinity.txt
: >"$RAW"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvidia-smi topo -m 2>/dev/null | head -4
lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|NUMA)'
lscpu -e=CPU,CORE,SOCKET,NODE | head -20
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/hwp traces/tracer/hwtrace_probe.cu \
  -L"$CUPTI_LIB" -Xlinker -rpath,"$CUPTI_LIB" -lcupti -lcuda || exit 1
build_tracer
NCPU=$(nproc)
PINS=${PINS:-"all 2 2,3 2,$((NCPU / 2 + 2))"}
pinned() { # PIN CMD...
  local p=$1; shift
  if [ "$p" = all ]; then "$@"; else taskset -c "$p" "$@"; fi
}
for pin in $PINS; do
  for i in $(seq 1 "$PROCS"); do
    for m in none cupti tracer; do
      rm -rf $W/tr
      if [ $m = tracer ]; then
        COMMROOF_TRACE_RECORD=kernel traced $W/tr pinned "$pin" $W/hwp none "$N" 3 2>/dev/null |
          sed "s/^none/tracer/; s/^/pin=$pin p$i /" >>"$RAW"
      else
        pinned "$pin" $W/hwp $m "$N" 3 | sed "s/^/pin=$pin p$i /" >>"$RAW"
      fi
    done
  done
done
python3 - "$RAW" <<'PY'
import re, statistics, sys
t = {}
for line in open(sys.argv[1]):
    m = re.match(r"pin=(\S+) (p\d+) (\w+) rep \d+ us_per_launch ([0-9.]+)", line)
    if m:
        t.setdefault((m.group(1), m.group(3)), {}).setdefault(m.group(2), []).append(float(m.group(4)))
print("pin        mode     median us  (each process's median)")
for (pin, mode), procs in t.items():
    allv = [x for v in procs.values() for x in v]
    each = " ".join(f"{statistics.median(v):.2f}" for v in procs.values())
    print(f"{pin:10s} {mode:8s} {statistics.median(allv):8.3f}   {each}")
PY
