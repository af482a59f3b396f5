#!/bin/sh
# SPDX-License-Identifier: MIT
# Where `commroof sim` agrees with `commroof coll` on an idle fabric:
# every shipped topology, collective and algorithm (NCCL's choice and each
# forced one), at 256 B, 16 KiB, 1 MiB and 64 MiB, on every shipped topology
# of up to 128 GPUs. Prints, per topology and algorithm, how many cases are
# within 1% and the sim/pr of the rest, and any case below coll's bound. doc/simulator.md explains each gap.
# Usage: tests/bench/bench_sim_agreement.sh BUILD/commroof   (needs jq)
# With CASES=FILE set, every case is also written to FILE, one a line:
# topology collective algo proto size_bytes sim/pr sim/bound.
set -u
CR=${1:?usage: $0 path/to/commroof}
command -v jq > /dev/null || { echo "bench_sim_agreement: needs jq" >&2; exit 1; }
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
# clusters above 128 GPUs are left out: an all-to-all over 8,192 GPUs is 67
# million flows (bench_sim times the 1,024-GPU one)
for topo in $("$CR" topo list | awk '!/^#/ && $2 <= 128 {print $1}'); do
    for coll in allreduce allgather reducescatter alltoall broadcast reduce gather scatter sendrecv; do
        for algo in auto ring tree nvls nvlstree pat direct; do
            # a case the algorithm or topology cannot run is skipped (coll says why)
            "$CR" sim "$coll" --topo "$topo" --algo "$algo" -b 256 -e 1GB -f 64 --top 0 --json \
                2> /dev/null |
                jq -r --arg t "$topo" --arg c "$coll" '.sizes[] | select(.pred_us > 0) |
                    "\($t) \($c) \(.algo) \(.proto) \(.size_bytes) \(.sim_over_pred) \(.sim_us / .bound_us)"' \
                    >> "$out"
        done
    done
done
sort -u "$out" | tee "${CASES:-/dev/null}" | awk '
    { key = $1 " " $3; n[key]++; r = $6 + 0
      if (r >= 0.99 && r <= 1.01) ok[key]++; else bad[key] = bad[key] sprintf(" %s:%.2f", $2, r)
      if ($7 + 0 < 1 - 1e-9) { below++; print "BELOW THE BOUND: " $0 } }
    END { printf "# %-14s %-9s %9s  %s\n", "topology", "algo", "within 1%", "others (coll:sim/pr)"
          for (k in n) { split(k, a, " "); printf "  %-14s %-9s %4d of %-3d %s\n", a[1], a[2], ok[k] + 0, n[k], bad[k] | "sort" }
          close("sort")
          printf "# %d cases, %d below the bound\n", NR, below + 0 }'
