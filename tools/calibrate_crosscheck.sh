#!/bin/sh
# SPDX-License-Identifier: MIT
# The calibrate cross-check of issue 14 (doc/corpus.md): for sixteen machines
# of validate/corpus, `commroof calibrate --nccl-tests` fitted on the
# machine's all_reduce log(s), and the median / p90 |error| % of its other
# collectives as shipped and after calibration (the "held-out logs
# together ... all" line of calibrate's report).
#
#   tools/calibrate_crosscheck.sh [BUILD/commroof]
#
# Prints: machine, rows, shipped median, shipped p90, calibrated median,
# calibrated p90. Logs that print no NCCL release run under the one their
# provenance header names (validate/corpus/topologies.txt).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CR=${1:-$ROOT/build/commroof}
C=$ROOT/validate/corpus
T=$C/topologies
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
run() {
    name=$1 topo=$2 ranks=$3
    shift 3
    # shellcheck disable=SC2086
    line=$("$CR" calibrate --nccl-tests "$@" --topo "$topo" $ranks --fit-coll all_reduce \
        -o "$OUT" 2>&1 | grep "held-out logs together" | grep " all " || true)
    set -- $line
    printf '%-16s %5s %6s %6s %6s %6s\n' "$name" "$6" "$7" "$8" "$9" "${10}"
}
printf '%-16s %5s %6s %6s %6s %6s\n' machine rows med p90 cal_med cal_p90
run h100-8 "$ROOT/topologies/hgx-h100-8.xml" "" "$C"/h100-8/xxrjun-cluster01-n1g8-*
run together-h100-8 "$ROOT/topologies/hgx-h100-8.xml" "--nccl-algo RING" "$C"/h100-8/together-h100-ring-*
run snellius-1n "$T/snellius-h100x4-ib.xml" "--ranks 0-3" "$C"/h100x4-1/*
run snellius-2n "$T/snellius-h100x4-ib.xml" "" "$C"/h100x4-ib-2n/*
run sophia-2n "$T/sophia-dgx-a100-ib.xml" "--nccl-version 2.22.3" "$C"/a100-ib-2n/alcf-sophia-*
# Polaris: NCCL 2.21.5 and (one all_reduce) 2.18, alike in every rule the model follows
run polaris-2n "$T/polaris-a100x4-slingshot.xml" "--ranks 0-7 --nccl-version 2.21.5" "$C"/a100x4-slingshot-2n/alcf-polaris-*
run polaris-8n "$T/polaris-a100x4-slingshot.xml" "--ranks 0-31 --nccl-version 2.21.5" "$C"/a100x4-slingshot-8n/*
run xxrjun-10n "$ROOT/topologies/h100-ib-128n.xml" "--ranks 0-79" "$C"/h100-net-10n/*
run 2080ti-2 "$T/autodl-2080ti-pcie.xml" "" "$C"/pcie-2080ti-2/*
# ABCI (round 9): all_reduce against broadcast, NCCL 2.8.4, one and two nodes
run abci-1n "$T/abci-a100-ib.xml" "--ranks 0-7 --nccl-version 2.8.4" "$C"/a100-8/abci2-1n-*
run abci-2n "$T/abci-a100-ib.xml" "--ranks 0-15 --nccl-version 2.8.4" "$C"/a100-ib-2n/abci2-2n-*
# MGHPCC AICR (round 10): one 8x B200 node, one process driving 8 GPUs, NCCL 2.29.3, from 1 MiB
run b200-8 "$ROOT/topologies/hgx-b200-8.xml" "" "$C"/b200-8/*
# SuperBench (round 12): one 8x A100 node, one process driving 8 GPUs, NCCL not printed, from 4 B
run sb-a100-8 "$ROOT/topologies/dgx-a100-8.xml" "" "$C"/a100-8/superbench-a100-*
# Round 11: 2x 8 MI355X, RCCL 2.27.7, all_reduce against alltoall (checking half). On AMD
# GPUs the latency comes from RCCL's tables (model/algo_tune.c), which calibrate's step keys
# do not reach: only the rate keys move
run mi355x-2n "$T/aac-mi355x-pollara.xml" "--nccl-version 2.27.7" "$C"/mi355x-ainic-2n/pnair-alibaba-*
# Round 13: NREL Kestrel, 16 x 4 H100 on Slingshot-11, NCCL 2.21.5, all_reduce against all_gather (checking half)
run kestrel-16n "$T/kestrel-h100x4-slingshot.xml" "--nccl-version 2.21.5" "$C"/h100x4-slingshot-16n/*
# Round 20: Voltage Park, 4 x 8 H100 on InfiniBand, NCCL 2.24.3, all_reduce against all_gather, broadcast and reduce (checking half)
run vpbench-4n "h100-ib-4n" "" "$C"/h100-ib-4n/*
