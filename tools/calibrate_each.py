#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The per-collective calibrate cross-check of issue 14 (doc/corpus.md):
for each machine of validate/corpus with logs of several collectives,
`commroof calibrate --nccl-tests` fitted on each collective in turn
(--fit-coll), and the median / p90 |error| % of the machine's other
collectives as shipped and after that fit (calibrate's "held-out logs
together ... all" line). tools/calibrate_crosscheck.sh fits on all_reduce
only; a fit on any one collective must carry to the others (issue 14,
item 3).

  tools/calibrate_each.py [--commroof BUILD/commroof] [--half fit|check|all]

The half is the machine's logs' half in validate/corpus/split.txt (every
machine here has all its logs in one half). Prints one line per machine and
fitted collective, then per half: how many fits leave the held-out median
at most 10 %, how many make it worse than shipped by more than 2 points,
how many make one held-out log worse by more than 10 points, and the median of the held-out medians before and after."""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C = os.path.join(ROOT, "validate", "corpus")
T = os.path.join(C, "topologies")

# name, topology, extra options, log glob (relative to validate/corpus)
MACHINES = [
    ("sakura-h100-8", "hgx-h100-8", ["--nccl-version", "2.22.3"], "h100-8/sakura-llmjp-h100-1n-*"),
    ("together-h100-8", "hgx-h100-8", ["--nccl-algo", "RING"], "h100-8/together-h100-ring-*"),
    ("xxrjun-h100-8", "hgx-h100-8", [], "h100-8/xxrjun-cluster01-n1g8-*"),
    ("sb-a100-8", "dgx-a100-8", [], "a100-8/superbench-a100-*"),
    ("abci-1n", T + "/abci-a100-ib.xml", ["--ranks", "0-7", "--nccl-version", "2.8.4"], "a100-8/abci2-1n-*"),
    ("abci-2n", T + "/abci-a100-ib.xml", ["--ranks", "0-15", "--nccl-version", "2.8.4"], "a100-ib-2n/abci2-2n-*"),
    ("b200-8", "hgx-b200-8", [], "b200-8/*"),
    ("mitorcd-h200-8", "hgx-h200-8", [], "h200-8/*"),
    ("snellius-1n", T + "/snellius-h100x4-ib.xml", ["--ranks", "0-3"], "h100x4-1/*"),
    ("snellius-2n", T + "/snellius-h100x4-ib.xml", [], "h100x4-ib-2n/*"),
    ("sophia-2n", T + "/sophia-dgx-a100-ib.xml", ["--nccl-version", "2.22.3"], "a100-ib-2n/alcf-sophia-*"),
    ("polaris-2n", T + "/polaris-a100x4-slingshot.xml", ["--ranks", "0-7", "--nccl-version", "2.21.5"],
     "a100x4-slingshot-2n/alcf-polaris-*"),
    ("polaris-8n", T + "/polaris-a100x4-slingshot.xml", ["--ranks", "0-31", "--nccl-version", "2.21.5"],
     "a100x4-slingshot-8n/*"),
    ("xxrjun-10n", "h100-ib-128n", ["--ranks", "0-79"], "h100-net-10n/*"),
    ("2080ti-2", T + "/autodl-2080ti-pcie.xml", [], "pcie-2080ti-2/*"),
    ("kestrel-16n", T + "/kestrel-h100x4-slingshot.xml", ["--nccl-version", "2.21.5"], "h100x4-slingshot-16n/*"),
    ("vpbench-4n", "h100-ib-4n", [], "h100-ib-4n/*"),
]


def halves():
    h = {}
    with open(os.path.join(C, "split.txt")) as f:
        for line in f:
            w = line.split("#")[0].split()
            if len(w) == 2:
                h[w[1]] = w[0]
    return h


def coll_of(path):
    b = os.path.basename(path)
    return b[: b.index("_perf")].rsplit("-", 1)[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commroof", default=os.path.join(ROOT, "build", "commroof"))
    ap.add_argument("--half", choices=["fit", "check", "all"], default="all")
    a = ap.parse_args()
    split = halves()
    rows = []
    out = tempfile.NamedTemporaryFile(suffix=".xml", delete=False).name
    try:
        for name, topo, extra, pat in MACHINES:
            logs = sorted(glob.glob(os.path.join(C, pat)))
            hs = {split.get(os.path.relpath(p, C)) for p in logs}
            if len(hs) != 1 or None in hs:
                sys.exit(f"calibrate_each: {name}: logs not all in one half of split.txt: {sorted(map(str, hs))}")
            half = hs.pop()
            if a.half != "all" and half != a.half:
                continue
            colls = sorted({coll_of(p) for p in logs})
            for c in colls:
                cmd = [a.commroof, "calibrate", "--nccl-tests", *logs, "--topo", topo, *extra,
                       "--fit-coll", c, "-o", out]
                r = subprocess.run(cmd, capture_output=True, text=True)
                text = (r.stdout + r.stderr).splitlines()
                line = [l for l in text if "held-out logs together" in l and " all " in l]
                if r.returncode != 0 or not line:
                    rows.append((half, name, c, None, None, None))
                    continue
                w = line[0].split()
                # (held-out logs together) check all ROWS MED P90 MED P90;
                # each held-out log: LOG check all ROWS MED P90 MED P90
                worst = max(((float(l.split()[-2]) - float(l.split()[-4]), l.split()[0])
                             for l in text if l.split()[1:3] == ["check", "all"]), default=None)
                rows.append((half, name, c, float(w[-4]), float(w[-2]), worst))
    finally:
        os.unlink(out)
    print(f"{'half':5} {'machine':16} {'fit on':15} {'before':>7} {'after':>7}  "
          "held-out log that got most worse (points)")
    for half, name, c, b, af, worst in rows:
        fmt = lambda v: f"{v:7.1f}" if v is not None else "      -"
        w = f"  {worst[1]} {worst[0]:+.1f}" if worst else ""
        print(f"{half:5} {name:16} {c:15} {fmt(b)} {fmt(af)}{w}")
    for half in ("fit", "check"):
        got = [(b, af, w) for h, _, _, b, af, w in rows if h == half and b is not None]
        if not got:
            continue
        le10 = sum(af <= 10 for _, af, _ in got)
        worse = sum(af > b + 2 for b, af, _ in got)
        log_worse = sum(w is not None and w[0] > 10 for _, _, w in got)
        print(f"# {half} half: {len(got)} fits; held-out median <= 10 %: {le10}; worse than shipped "
              f"by > 2 points: {worse}; a held-out log worse by > 10 points: {log_worse}; median of "
              f"held-out medians {statistics.median(b for b, _, _ in got):.1f} -> "
              f"{statistics.median(af for _, af, _ in got):.1f}")


if __name__ == "__main__":
    main()
