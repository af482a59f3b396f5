# SPDX-License-Identifier: MIT
"""Summarises kernels/overhead runs: per operation and per configuration, the
median time per call over all loops, and what the tracer adds per call
against the untraced runs, in microseconds and percent.

Input lines, "CONFIG pN ..." (CONFIG untraced, or the traced configuration's
label: traced, old, new, ...; pN the process), as traces/tracer/h200_run.sh,
h200_verify.sh and h200_overhead_ab.sh write them:

  CONFIG pN rep R kernels K kernel_ns T wall_us W per_kernel_us P
      kernels/overhead's default mode: K kernels of T ns (operation "spinT")
  CONFIG pN launch op OP rep R calls N wall_us W per_call_us P
      the launch-bound mode (overhead -m launch, torch_launch.py)

Other lines are skipped. The baseline is the configuration "untraced".

Usage: python3 overhead_summary.py OVERHEAD.txt [KERNELS_PER_LOOP]
(KERNELS_PER_LOOP is only a fallback for lines without a kernel count.)
"""
import statistics
import sys


def parse(path, kernels_default):
    """{op: {config: {proc: [per-call us, ...]}}} in the order first seen."""
    data = {}
    for line in open(path, encoding="utf-8"):
        r = line.split()
        if len(r) < 4 or "wall_us" not in r:
            continue
        cfg, proc = r[0], r[1]
        wall = float(r[r.index("wall_us") + 1])
        if r[2] == "launch" and "op" in r and "calls" in r:
            op = r[r.index("op") + 1]
            calls = int(r[r.index("calls") + 1])
        elif r[2] == "rep":
            ns = r[r.index("kernel_ns") + 1] if "kernel_ns" in r else "?"
            op = f"spin{ns}ns"
            calls = int(r[r.index("kernels") + 1]) if "kernels" in r else kernels_default
        else:
            continue
        data.setdefault(op, {}).setdefault(cfg, {}).setdefault(proc, []).append(wall / calls)
    return data


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    path = argv[0]
    kernels = int(argv[1]) if len(argv) > 1 else 10000
    data = parse(path, kernels)
    if not data:
        print(f"overhead_summary: no loop lines in {path}", file=sys.stderr)
        return 1
    status = 0
    print(f"{'operation':16s} {'config':14s} {'loops':>5s} {'us/call':>9s} {'min':>8s} "
          f"{'max':>8s} {'added us':>9s} {'added %':>8s}  per-process medians (us/call)")
    for op, cfgs in data.items():
        base = None
        if "untraced" in cfgs:
            base = statistics.median([x for v in cfgs["untraced"].values() for x in v])
        else:
            print(f"overhead_summary: {op}: no untraced loops to compare with", file=sys.stderr)
            status = 1
        for cfg, procs in cfgs.items():
            w = [x for v in procs.values() for x in v]
            med = statistics.median(w)
            meds = " ".join(f"{statistics.median(v):.3f}" for v in procs.values())
            if base is not None and cfg != "untraced":
                add = f"{med - base:+9.3f} {100 * (med - base) / base:+7.1f}%"
            else:
                add = f"{'':9s} {'':8s}"
            print(f"{op:16s} {cfg:14s} {len(w):5d} {med:9.3f} {min(w):8.3f} {max(w):8.3f} "
                  f"{add}  {meds}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
