#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Refits coll's two-rank latency constants (model/params.c) from the NCCL
traces of two H200s (traces/nvidia-h200-x2) and prints fit and held-out
errors:

    tools/fit_n2_lat.py BUILD/commroof [TRACE_DIR]

Every case is measured as validate measures it (doc/validation.md): from
the last GPU's start to the last GPU's end, for one process driving both
GPUs (kernels-nccl-ALGO-PROTO.json.gz, crbench rank=-1) and for the
torchrun ranks merged (torchrun-nccl-rank{0,1}.json.gz) alike, so both
launch modes measure the same thing and one constant serves both; the host
launch gap is not in these times (coll.launch_gap, fitted last, is).

Each latency constant is the value at which the median signed prediction
error over its latency-bound cases (8 B - 64 KiB) is zero, found by
bisection with validate itself on hgx-h200-8 plus the constant as a
<param>, so the fit sees exactly what validate predicts. Fitted on the
even cases of each trace (validate --subset even: every other size of each
collective), checked on the odd ones:

  coll.n2.lat_scale         ring and tree LL allreduce, allgather,
                            reducescatter, broadcast, reduce: the Ring/LL,
                            Tree/LL, auto/LL traces and the torchrun ranks'
                            LL cases
  coll.n2.lat_scale.ll128   the same collectives, Ring/LL128, Tree/LL128,
                            auto/LL128
  coll.n2.lat_scale.simple  the same collectives, Ring/Simple, Tree/Simple,
                            auto/Simple
  coll.n2.p2p_ll_lat        sendrecv and alltoall in LL: auto/LL and the
                            torchrun ranks

coll.n2.ll.stream.tree: the rate of LL memory-stream bytes (doc/bounds.md
3.5) at which the median signed error of the Tree/LL allreduces of 128 MiB
- 8 GiB (transfer-bound: latency under 0.01%) is zero; held out: 32 MiB.

coll.launch_gap: the median over the one-process traces' NCCL cases of
8 B - 1 MiB of (last end - first GPU's start) - (last end - last GPU's
start), the time between the two GPUs' kernel starts of one thread
(validate --json's measured_first_start_us - measured_us). Not a fit: a
measured difference, which the prediction adds only where a measurement
includes it (ranks_per_process; validate leaves it out of trace cases).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
P2P = ("sendrecv", "alltoall")


def size_of(label):
    m = re.search(r" (\d+)(B|KiB|MiB|GiB)\b", label)
    return int(m.group(1)) * UNITS[m.group(2)]


def topo_with(params, path):
    with open("topologies/hgx-h200-8.xml") as f:
        xml = f.read()
    extra = "".join(f'  <param key="{k}" value="{v}" source="tools/fit_n2_lat.py"/>\n'
                    for k, v in params.items())
    xml = xml.replace("  <node-template", extra + "\n  <node-template", 1)
    with open(path, "w") as f:
        f.write(xml)


def cases(cr, topo, files, subset=None):
    args = [cr, "validate"] + files + ["--topo", topo, "--json"]
    if subset:
        args += ["--subset", subset]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode not in (0,):
        sys.exit(f"fit_n2_lat: validate {' '.join(files)} exited {out.returncode}: "
                 f"{out.stderr.strip()[:300]}")
    return [c for c in json.loads(out.stdout)["cases"] if c["family"] == "nccl"]


def median(v):
    v = sorted(v)
    n = len(v)
    return (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2) if n else float("nan")


class Fit:
    def __init__(self, cr, tdir, tmp):
        self.cr, self.tdir, self.topo = cr, tdir, os.path.join(tmp, "x2.xml")
        self.params = {}

    def sel(self, groups, subset, keep):
        topo_with(self.params, self.topo)
        out = []
        for files in groups:
            out += [c for c in cases(self.cr, self.topo, [os.path.join(self.tdir, f) for f in files],
                                     subset) if keep(c)]
        return out

    def solve(self, key, lo, hi, groups, keep, fmt):
        """bisection on the median signed error over the even cases"""
        for _ in range(30):
            mid = (lo + hi) / 2
            self.params[key] = fmt(mid)
            e = median([c["error_pct"] for c in self.sel(groups, "even", keep)])
            # predictions grow with the constant (a latency or a time) ...
            lo, hi = (mid, hi) if e < 0 else (lo, mid)
        self.params[key] = fmt((lo + hi) / 2)
        return self.params[key]

    def report(self, key, groups, keep):
        for sub in ("even", "odd"):
            cs = self.sel(groups, sub, keep)
            e = [abs(c["error_pct"]) for c in cs]
            s = [c["error_pct"] for c in cs]
            print(f"  {'fit     ' if sub == 'even' else 'held out'} {len(cs):3d} cases: median |err| "
                  f"{median(e):4.1f}%  signed {median(s):+5.1f}%  max |err| {max(e):4.1f}%")


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    cr = os.path.abspath(argv[1])
    tdir = argv[2] if len(argv) > 2 else "traces/nvidia-h200-x2"
    tr = ["torchrun-nccl-rank0.json.gz", "torchrun-nccl-rank1.json.gz"]

    def one(a, p):
        return [f"kernels-nccl-{a}-{p}.json.gz"]

    def small(c, p2p=False, proto=None):
        return (size_of(c["case"]) <= 65536 and (c["case"].split()[0] in P2P) == p2p and
                (proto is None or c["impl"].endswith("/" + proto)))

    with tempfile.TemporaryDirectory() as tmp:
        f = Fit(cr, tdir, tmp)
        pct = lambda x: f"{x:.4f}"  # noqa: E731
        us = lambda x: f"{x:.4f}us"  # noqa: E731
        jobs = [
            ("coll.n2.lat_scale", [one("Ring", "LL"), one("Tree", "LL"), one("auto", "LL"), tr],
             lambda c: small(c, proto="ll"), pct, 0.2, 2.0),
            ("coll.n2.lat_scale.ll128", [one(a, "LL128") for a in ("Ring", "Tree", "auto")],
             lambda c: small(c), pct, 0.2, 2.0),
            ("coll.n2.lat_scale.simple", [one(a, "Simple") for a in ("Ring", "Tree", "auto")],
             lambda c: small(c), pct, 0.2, 2.0),
            ("coll.n2.p2p_ll_lat", [one("auto", "LL"), tr],
             lambda c: small(c, p2p=True, proto="ll"), us, 1.0, 20.0),
        ]
        for key, groups, keep, fmt, lo, hi in jobs:
            print(f"{key} = {f.solve(key, lo, hi, groups, keep, fmt)}")
            f.report(key, groups, keep)

        key = "coll.n2.ll.stream.tree"
        lo, hi = 300.0, 700.0
        big = lambda c: size_of(c["case"]) >= 128 << 20  # noqa: E731
        for _ in range(30):
            mid = (lo + hi) / 2
            f.params[key] = f"{mid:.4f}GB/s"
            e = median([c["error_pct"] for c in f.sel([one("Tree", "LL")], None, big)])
            lo, hi = (mid, hi) if e > 0 else (lo, mid)  # a faster rate predicts less time
        f.params[key] = f"{(lo + hi) / 2:.1f}GB/s"
        print(f"{key} = {f.params[key]} (fit: Tree/LL allreduce 128 MiB - 8 GiB; 32 MiB held out)")
        for c in f.sel([one("Tree", "LL")], None, lambda c: size_of(c["case"]) >= 32 << 20):
            print(f"  {c['case']:28s} measured {c['measured_us']:10.1f} us  predicted "
                  f"{c['pred_us']:10.1f} us  {c['error_pct']:+5.1f}%")

        gaps = []
        for a in ("Ring", "Tree", "auto"):
            for p in ("LL", "LL128", "Simple"):
                for c in f.sel([one(a, p)], None, lambda c: size_of(c["case"]) <= 1 << 20):
                    gaps.append(c["measured_first_start_us"] - c["measured_us"])
        print(f"coll.launch_gap = {median(gaps):.2f} us (median of {len(gaps)} one-process cases, "
              f"8 B - 1 MiB; quartiles {sorted(gaps)[len(gaps) // 4]:.2f} - "
              f"{sorted(gaps)[3 * len(gaps) // 4]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
