#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call: the CUDA and CUPTI on the machine (is CUpti_ActivityConfig,
# CUPTI 13.2's per-kind field selection, there yet?) and hwtrace_probe.cu:
# does cuptiActivityEnableHWTrace answer on this GPU, and an empty kernel's
# launch time untraced, with CUPTI's kernel records (a bare CUPTI client),
# with the commroof tracer recording kernels only, and with the records taken
# through the hardware event system where CUPTI allows it. PROCS processes of
# each mode, alternating. Results in $OUT: hwtrace.txt (every repetition,
# each process's record count), log.txt.
#
#   bash traces/tracer/hwtrace_probe.sh     (about 30 s on an H100 or H200)
. "$(dirname "$0")/device_common.sh"
N=${N:-10000}
PROCS=${PROCS:-5}
RAW=$OUT/hwtrace.txt
: >"$RAW"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
ls -d /usr/local/cuda*
grep -h "define CUPTI_API_VERSION" $CUDA/include/cupti_version.h $CUDA/extras/CUPTI/include/cupti_version.h 2>/dev/null
echo "CUpti_ActivityConfig in headers: $(grep -rl 'CUpti_ActivityConfig\|CUpti_ActivityFieldSelection' /usr/local/cuda*/ 2>/dev/null | head -3 | tr '\n' ' ')"
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/hwp traces/tracer/hwtrace_probe.cu \
  -L"$CUPTI_LIB" -Xlinker -rpath,"$CUPTI_LIB" -lcupti -lcuda || exit 1
build_tracer
for i in $(seq 1 "$PROCS"); do
  for m in none cupti tracer hwtrace; do
    if [ $m = tracer ]; then # the commroof tracer, recording kernels only, on the untraced mode
      rm -rf $W/tr
      COMMROOF_TRACE_RECORD=kernel traced $W/tr $W/hwp none "$N" 3 2>/dev/null | sed "s/^none/tracer/; s/^/p$i /" >>"$RAW"
      echo "p$i $m exit ${PIPESTATUS[0]}, $(grep -c '"cat":"kernel"' "$(one $W/tr)") kernel events," \
        "$(grep -o '"dropped_records":[0-9]*' "$(one $W/tr)" | tail -1)" >>"$RAW"
    else
      $W/hwp $m "$N" 3 | sed "s/^/p$i /" >>"$RAW"
      echo "p$i $m exit ${PIPESTATUS[0]}" >>"$RAW"
    fi
  done
done
cat "$RAW"
python3 - "$RAW" <<'PY'
import re, statistics, sys
t = {}
for line in open(sys.argv[1]):
    m = re.match(r"p\d+ (\w+) rep \d+ us_per_launch ([0-9.]+)", line)
    if m:
        t.setdefault(m.group(1), []).append(float(m.group(2)))
base = statistics.median(t["none"]) if "none" in t else None
for k, v in t.items():
    med = statistics.median(v)
    add = "" if base is None else f"  added {med - base:+.3f} us ({(med - base) / base * 100:+.1f} %)"
    print(f"{k:8s} median {med:.3f} us per launch over {len(v)} repetitions{add}")
PY
