#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How many embedding rows PKB 10 (tp_embedding_lookup) must move, at least.

ParallelKernelBench's problem 10 draws, on each of 8 ranks, 1024 ids
uniformly with replacement from a table of 8 x 1024 rows sharded by rank
(torch.randint; suites/pkb.xml cites the source lines). A row asked for
twice by one rank need cross to it once, so what a kernel must move is
each rank's distinct remote rows, not its 1024 x 7/8 = 896 ids: the
suite's bound priced the 896 (QA audit of the operator catalogue, session
51), about 6 % above what a deduplicating kernel needs.

The count is random. Its expectation per rank is exact,
N (1 - (1 - 1/N)^m) x (p - 1)/p = 842.3 remote rows; the bound's terms
read the traffic of every rank (cut terms) or of the busiest (port
terms), both at least the mean over the 8 ranks, so the suite takes the
mean over ranks' expectation less five of its standard deviations
(simulated here, seeded), rounded down to whole rows: a draw whose
ranks' mean falls below it has a probability under 1e-6 (normal tail).

    python3 tools/pkb_embedding_rows.py [--trials N]
prints the figures and the bytes= for suites/pkb.xml.
"""
import argparse
import math
import random
import statistics

N, M, P, ROW_BYTES = 8 * 1024, 1024, 8, 1024 * 2  # rows, ids a rank, ranks, bf16 row of 1024


def rank_means(trials, rng):
    """The mean over the P ranks of each rank's distinct remote rows, per trial."""
    shard = N // P
    out = []
    for _ in range(trials):
        total = 0
        for r in range(P):
            ids = {rng.randrange(N) for _ in range(M)}
            total += sum(1 for i in ids if i // shard != r)
        out.append(total / P)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=4000)
    a = ap.parse_args()
    expected = N * (1 - (1 - 1 / N) ** M) * (P - 1) / P
    means = rank_means(a.trials, random.Random(51))
    sd = statistics.stdev(means)
    floor_rows = math.floor(expected - 5 * sd)
    total_rows = floor_rows * P / (P - 1)  # the op takes a rank's rows, 1/P of them its own
    print(f"expected distinct remote rows a rank: {expected:.1f} (of {M * (P - 1) // P} ids)")
    print(f"mean over ranks, {a.trials} seeded trials: {statistics.mean(means):.1f}, "
          f"sd {sd:.2f}, least {min(means):.2f}")
    print(f"bound's remote rows a rank (expected - 5 sd, whole): {floor_rows}")
    print(f"bytes= {math.floor(total_rows) * ROW_BYTES} ({math.floor(total_rows)} rows of "
          f"{ROW_BYTES} B, {floor_rows} of them remote)")


if __name__ == "__main__":
    main()
