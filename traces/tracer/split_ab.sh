#!/bin/bash
# SPDX-License-Identifier: MIT
# The tracer built from its parts (traces/tracer/trace_*.c) against the
# one-file tracer it was cut from (OLD_SRC, e.g. git show
# eff8a65:traces/tracer/commroof_trace.c > .ab/old.c), on a GPU machine:
# the same programs traced by each must record the same events
# (same_events.py: per category and name, the count and the argument keys;
# the metadata's keys), with 0 dropped records; and what each adds per call
# on launch-bound work (kernels/overhead -m launch, untraced / old / new
# processes alternating) must not differ beyond the spread between
# processes. Results in $OUT: log.txt, launch.txt (every loop),
# launch_summary.txt (overhead_summary.py), and the new tracer's traces of
# each program.
#
#   OLD_SRC=.ab/old.c bash traces/tracer/split_ab.sh      (about 3 minutes on an H100 or H200)
REPS=${REPS:-3}
# shellcheck source=traces/tracer/device_common.sh
. "$(dirname "$0")/device_common.sh"
OLD_SRC=${OLD_SRC:?give OLD_SRC=the one-file tracer source (see the comment above)}
OLD=$W/libcommroof_trace_old.so
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv
echo "== build"
build_tracer
# shellcheck disable=SC2086 # OLD_SRC may name several files
build_tracer_lib $OLD $OLD_SRC
build_demos
build_nvtx_demo || exit 1
nm -D --defined-only $OLD | awk '{print $3}' > $W/old.sym
nm -D --defined-only $LIB | awk '{print $3}' > $W/new.sym
cmp -s $W/old.sym $W/new.sym && echo "exported: the same ($(tr '\n' ' ' < $W/new.sym))" ||
  { echo "exported symbols differ:"; diff $W/old.sym $W/new.sym; }

# run NAME ENV... -- CMD...: CMD traced by the old and the new library
fails=0
run() {
  local name=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  for side in old new; do
    local lib=$LIB; [ $side = old ] && lib=$OLD
    mkdir -p $W/$name-$side
    env ${envs[@]+"${envs[@]}"} CUDA_INJECTION64_PATH=$lib NVTX_INJECTION64_PATH=$lib \
      COMMROOF_TRACE_DIR=$W/$name-$side COMMROOF_TRACE_QUIET=1 "$@" >/dev/null 2>$W/$name-$side.err
    echo "   $name $side: rc=$? $(grep -o '"dropped_records":[0-9]*' "$(one $W/$name-$side)" | tail -1)"
  done
  cp "$(one $W/$name-new)" $OUT/$name.json
  python3 traces/tracer/same_events.py "$(one $W/$name-old)" "$(one $W/$name-new)" | sed "s/^/   $name: /"
  [ "${PIPESTATUS[0]}" = 0 ] || fails=$((fails + 1))
}
echo "== the same events, old and new"
run cuda_demo -- $W/trace_demo
run nvtx_demo -- $W/nvtx_demo
run nvtx_demo_wrap0 COMMROOF_TRACE_NVTX_WRAP=0 -- $W/nvtx_demo
run launch_all COMMROOF_TRACE_RECORD=all -- $W/overhead -m launch -n 2000 -r 1
run torch_demo -- timeout 150 python3 kernels/trace_demo/torch_demo.py --nccl
echo "   programs whose events differ: $fails"

echo "== launch-bound cost per call (10,000 calls, 3 loops, $REPS processes each, alternating)"
: > $OUT/launch.txt
for i in $(seq 1 "$REPS"); do
  $W/overhead -m launch | sed "s/^/untraced p$i /" >> $OUT/launch.txt
  for side in old new; do
    lib=$LIB; [ $side = old ] && lib=$OLD
    rm -rf $W/l; mkdir -p $W/l
    CUDA_INJECTION64_PATH=$lib NVTX_INJECTION64_PATH=$lib COMMROOF_TRACE_DIR=$W/l COMMROOF_TRACE_QUIET=1 \
      $W/overhead -m launch | sed "s/^/$side p$i /" >> $OUT/launch.txt
    echo "   p$i $side: $(grep -o '"dropped_records":[0-9]*' "$(one $W/l)" | tail -1)"
  done
done
python3 traces/tracer/overhead_summary.py $OUT/launch.txt | tee $OUT/launch_summary.txt
ls -la $OUT
