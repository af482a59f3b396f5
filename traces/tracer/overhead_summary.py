# SPDX-License-Identifier: MIT
"""Summarises kernels/overhead runs (lines "MODE pN rep R ... wall_us W ...",
MODE untraced or traced, as traces/tracer/h200_run.sh and h200_verify.sh
write them): median wall time of each mode over all loops, per-process
medians, and the tracer's overhead (median traced vs median untraced) in
percent and per kernel.

Usage: python3 overhead_summary.py OVERHEAD.txt [KERNELS_PER_LOOP]
"""
import statistics
import sys


def main(argv):
    path = argv[0]
    kernels = int(argv[1]) if len(argv) > 1 else 10000
    rows = [line.split() for line in open(path, encoding="utf-8") if line.strip()]

    def wall(r):
        return float(r[r.index("wall_us") + 1])

    med = {}
    for mode in ("untraced", "traced"):
        per_proc = {}
        for r in rows:
            if r[0] == mode:
                per_proc.setdefault(r[1], []).append(wall(r))
        w = [x for v in per_proc.values() for x in v]
        if not w:
            print(f"overhead_summary: no {mode} rows in {path}", file=sys.stderr)
            return 1
        meds = [statistics.median(v) for v in per_proc.values()]
        med[mode] = statistics.median(w)
        print(f"{mode:9s} loops={len(w)} median {med[mode]:.1f} us  min {min(w):.1f}  "
              f"max {max(w):.1f}  per-process medians {' '.join(f'{m:.0f}' for m in meds)}")
    u, t = med["untraced"], med["traced"]
    print(f"overhead {100 * (t - u) / u:+.2f} % (median traced vs median untraced); "
          f"per kernel {(t - u) / kernels * 1000:.0f} ns")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
