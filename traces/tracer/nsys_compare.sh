#!/bin/bash
# SPDX-License-Identifier: MIT
# One device call (the `run` tool): what does NVIDIA's own tracer, Nsight
# Systems, add to a launch-bound program, beside commroof's tracer (issue 16
# item 3)? Both record CUDA kernels, copies and memsets through CUPTI's
# activity API; if nsys pays the same per launch, the cost is CUPTI's on
# this GPU, not the tracer's.
#
# Builds the tracer as shipped and kernels/overhead, then runs
# kernels/overhead -m launch (empty kernels, 4 KiB copies, 4 KiB memsets,
# NVTX + kernel, 16 MiB copies; 10,000 calls x 3 loops) in processes
# alternating between
#
#   untraced   no tracer
#   commroof   the tracer as shipped (kernels, copies, memsets, NVTX)
#   nsys       nsys profile --trace=cuda,nvtx --sample=none --cpuctxsw=none
#              (CUDA API and GPU activity, NVTX; no CPU sampling)
#
# and kernels/overhead/torch_launch.py (PyTorch's 256-element torch.add and
# 4 KiB / 16 MiB copy_) under the same three. Every commroof trace is
# checked against what the program launched; each nsys report's size is
# listed. Results in $OUT: nsys.txt (checks and the summary), nsys_raw.txt
# (every loop), log.txt (everything printed).
#
#   bash traces/tracer/nsys_compare.sh
REPS=${REPS:-4}
N=${N:-10000}
TORCH_REPS=${TORCH_REPS:-2}
TORCH_N=${TORCH_N:-5000}
CONFIGS="untraced commroof nsys"
# shellcheck source=traces/tracer/device_common.sh
. traces/tracer/device_common.sh
RAW=$OUT/nsys_raw.txt
SUM=$OUT/nsys.txt
: >"$RAW"
: >"$SUM"

NSYS=$(command -v nsys || ls $CUDA/bin/nsys /usr/local/cuda*/nsight-systems-*/bin/nsys \
  /opt/nvidia/nsight-systems/*/bin/nsys /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys \
  2>/dev/null | head -1)
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv 2>&1 | head -3
uname -r; $CUDA/bin/nvcc --version | tail -1; echo "cupti in $CUPTI_LIB"
if [ -z "$NSYS" ]; then
  echo "nsys: not found on this machine (PATH, $CUDA/bin, nsight-systems folders)" | tee -a "$SUM"
  exit 0
fi
echo "nsys: $NSYS"; "$NSYS" --version

echo "== build"
build_tracer
$CUDA/bin/nvcc -O2 -arch=sm_90 -o $W/overhead kernels/overhead/overhead.cu || exit 1

# run_cfg CFG TAG CMD...: CMD untraced, under commroof's tracer or under nsys
run_cfg() {
  local cfg=$1 tag=$2; shift 2
  local d=$W/tr/$cfg-$tag; rm -rf "$d"; mkdir -p "$d"
  case $cfg in
  untraced) timeout 180 "$@" >$W/o.txt 2>$W/e.txt ;;
  commroof)
    env COMMROOF_TRACE_QUIET=1 CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" \
      COMMROOF_TRACE_DIR="$d" timeout 180 "$@" >$W/o.txt 2>$W/e.txt ;;
  nsys)
    timeout 300 "$NSYS" profile --trace=cuda,nvtx --sample=none --cpuctxsw=none \
      --force-overwrite=true -o "$d/rep" "$@" >$W/o.txt 2>$W/e.txt ;;
  esac
  local rc=$?
  [ $rc = 0 ] || { echo "   $cfg $tag: rc=$rc"; tail -5 $W/e.txt; }
  grep -E '^launch ' $W/o.txt | sed "s/^/$cfg $tag /" >>"$RAW"
  case $cfg in
  commroof)
    local f want
    f=$(ls -S "$d"/commroof-trace.*.json 2>/dev/null | head -1) # shellcheck disable=SC2012
    want=$(grep '^expect' $W/o.txt | head -1)
    if [ -n "$f" ]; then
      echo "commroof $tag trace: $(python3 traces/tracer/check_trace.py "$f" 2>/dev/null | head -1) | $want" >>"$SUM"
    else
      echo "commroof $tag trace: NONE WRITTEN" >>"$SUM"
    fi ;;
  nsys) echo "nsys $tag report: $(ls -la "$d" | awk '/rep/ {print $5, $NF}' | tr '\n' ' ')" >>"$SUM" ;;
  esac
  rm -rf "$d"
}

echo "== launch-bound: $N calls x 3 loops of each operation; $REPS processes of each configuration"
for i in $(seq 1 "$REPS"); do
  for c in $CONFIGS; do run_cfg $c "p$i" $W/overhead -m launch -n "$N" -r 3; done
  echo "   round $i done ($(date +%T))"
done
if [ "$TORCH_REPS" -gt 0 ] &&
  torch_ok; then
  echo "== PyTorch loops ($TORCH_N calls x 3 loops), $TORCH_REPS processes of each configuration"
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)"
  for i in $(seq 1 "$TORCH_REPS"); do
    for c in $CONFIGS; do run_cfg $c "t$i" python3 kernels/overhead/torch_launch.py -n "$TORCH_N" -r 3; done
    echo "   torch round $i done ($(date +%T))"
  done
fi
{
  echo
  echo "== summary: median time per call; added = traced - untraced"
  python3 traces/tracer/overhead_summary.py "$RAW"
} >>"$SUM"
cat "$SUM"
