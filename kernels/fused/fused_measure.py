#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reads a commroof trace of `crbench fused` and writes the per-iteration
device time of every "cr:fused ..." case in the bulk format of
`commroof check --measured-json` (until `commroof validate` has a fused
family):

    kernels/fused/fused_measure.py TRACE.json[.gz] > measured.json
    commroof check --measured-json measured.json --topo hgx-h200-8

measured_us: the span of all GPU activities of both devices inside the
case's NVTX range (first start to last end) divided by `iters`: the
iterations run back to back, so this is the mean device time per
iteration, gaps between kernels included (they are part of the
operator's time). Beside it, for diagnosis (not read by check):
gemm_us and nccl_us, the kernel time per iteration on device 0 of the
GEMM (every non-NCCL kernel) and of the NCCL kernels; when the overlap
works, measured_us approaches max(gemm_us, nccl_us), unoverlapped it is
their sum.
"""
import gzip
import json
import sys


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f)


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if len(argv) != 2 else sys.stdout)
        return 0 if len(argv) == 2 else 2
    try:
        ev = load(argv[1])["traceEvents"]
    except (OSError, ValueError, KeyError) as e:
        print(f"fused_measure.py: {argv[1]}: not a commroof trace ({e})", file=sys.stderr)
        return 1
    acts = sorted((e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "memcpy", "memset")),
                  key=lambda e: e["ts"])
    out = []
    for r in ev:
        if r.get("cat") != "nvtx" or not r.get("name", "").startswith("cr:fused "):
            continue
        k = dict(kv.split("=", 1) for kv in r["name"].split()[1:] if "=" in kv)
        t0, t1 = r["ts"], r["ts"] + r["dur"]
        inside = [a for a in acts if a["ts"] >= t0 and a["ts"] + a["dur"] <= t1]
        iters = int(k["iters"])
        if not inside or iters <= 0:
            print(f"fused_measure.py: {r['name'][:60]}: no GPU activity in the range", file=sys.stderr)
            return 1
        span = max(a["ts"] + a["dur"] for a in inside) - min(a["ts"] for a in inside)
        d0 = [a for a in inside if a["cat"] == "kernel" and a["args"].get("device") == 0]
        nccl = sum(a["dur"] for a in d0 if "nccl" in a["name"].lower()) / iters
        gemm = sum(a["dur"] for a in d0 if "nccl" not in a["name"].lower()) / iters
        out.append({
            "name": f"{k['op']} {k['variant']} {k['m']}x{k['n']}x{k['k']} ranks={k['ranks']}",
            "op": k["op"],
            "params": {"m": int(k["m"]), "n": int(k["n"]), "k": int(k["k"]),
                       "tp": int(k["ranks"]), "dtype": k["dtype"]},
            "measured_us": round(span / iters, 3),
            "variant": k["variant"],
            "chunks": int(k["chunks"]),
            "iters": iters,
            "gemm_us": round(gemm, 3),
            "nccl_us": round(nccl, 3),
        })
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
