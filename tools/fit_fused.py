#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Refits the two constants of validate's fused family (validate/validate.h)
from traces/nvidia-h200-x2/fused.json.gz and prints fit and held-out errors:

    tools/fit_fused.py BUILD/commroof [TRACE.json.gz]

CR_VFUSED_SLOW: the shared slowdown s of a GEMM and an NCCL collective
running at once on one GPU, least squares over the 8192^3 overlap cases
(the only shape where the 4-chunk overlap helps and no host limit hides
the device schedule). The schedule is cr_vfused_pipeline_s (validate/
fused.c), re-implemented below; the solo piece times are the model's own
(`commroof op gemm` for one piece's GEMM, `commroof coll` for one piece's
collective on ranks 0-1 of hgx-h200-8), so the fit sees exactly what
validate predicts. Held out: the 4096^3 overlap cases.

CR_VFUSED_HOST_STEP_S: the host's time per GPU per step (one cuBLASLt GEMM
and one NCCL call) when one thread drives both GPUs: the mean of the
1024^3 gemm_rs and gemm_ar baseline iterations (host-bound: their GPUs are
busy under 40% of it) over 2 GPUs x 1 step. Held out: the 1024^3 overlap
cases (4 steps) and ag_gemm's baseline.
"""
import gzip
import json
import subprocess
import sys


def pipeline(c, comm_first, a, b, sg, sn):
    gi = ni = gd = nd = 0
    gr = nr = None
    t = 0.0
    while gd < c or nd < c:
        if gr is None and gi < c and (not comm_first or nd > gi):
            gr = a
        if nr is None and ni < c and (comm_first or gd > ni):
            nr = b
        both = gr is not None and nr is not None
        rg, rn = (1 / sg, 1 / sn) if both else (1.0, 1.0)
        dt = min(x for x in ((gr / rg) if gr is not None else None,
                             (nr / rn) if nr is not None else None) if x is not None)
        t += dt
        if gr is not None:
            gr -= dt * rg
            if gr <= 1e-12:
                gr, gi, gd = None, gi + 1, gd + 1
        if nr is not None:
            nr -= dt * rn
            if nr <= 1e-12:
                nr, ni, nd = None, ni + 1, nd + 1
    return t


def cr_json(cr, args):
    return json.loads(subprocess.run([cr] + args + ["--json"], check=True, capture_output=True,
                                     text=True).stdout)


def measured(path):
    ev = json.load(gzip.open(path, "rt"))["traceEvents"]
    acts = [e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "memcpy", "memset")]
    out = {}
    for r in ev:
        if r.get("cat") != "nvtx" or not r.get("name", "").startswith("cr:fused "):
            continue
        k = dict(kv.split("=", 1) for kv in r["name"].split()[1:])
        t0, t1 = r["ts"], r["ts"] + r["dur"]
        ins = [a for a in acts if a["ts"] >= t0 and a["ts"] + a["dur"] <= t1]
        span = max(a["ts"] + a["dur"] for a in ins) - min(a["ts"] for a in ins)
        out[(k["op"], k["variant"], int(k["m"]))] = (span / int(k["iters"]) * 1e-6, int(k["chunks"]))
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    cr = argv[1]
    meas = measured(argv[2] if len(argv) > 2 else "traces/nvidia-h200-x2/fused.json.gz")
    coll = {"ag_gemm": "allgather", "gemm_rs": "reducescatter", "gemm_ar": "allreduce"}
    pieces = {}
    for (op, var, s), (t, c) in meas.items():
        if var != "overlap":
            continue
        p = 2
        gm, gn, gk = (s // c, s // p, s) if op == "ag_gemm" else (s // c, s, s // p)
        g = cr_json(cr, ["op", "gemm", "--m", str(gm), "--n", str(gn), "--k", str(gk)])
        a = g["pred_us"] * 1e-6
        b_bytes = 2 * s * s // c  # the nccl-tests size of one piece (bf16 A or P over c)
        r = cr_json(cr, ["coll", coll[op], "--topo", "hgx-h200-8", "--ranks", "0-1", "--dtype",
                         "bf16", "-b", str(b_bytes), "-e", str(b_bytes)])
        b = r["rows"][0]["pred_us"] * 1e-6
        pieces[(op, s)] = (c, op == "ag_gemm", a, b, t)

    def errs(s_, size):
        return {op: (pipeline(c, cf, a, b, s_, s_) - t) / t * 100
                for (op, sz), (c, cf, a, b, t) in pieces.items() if sz == size}

    best = min((sum(e * e for e in errs(1 + i * 0.005, 8192).values()), 1 + i * 0.005)
               for i in range(300))
    s_ = best[1]
    print(f"fused.overlap.slow = {s_:.3f} (fit: 8192^3 overlap)")
    for size, what in ((8192, "fit"), (4096, "held-out")):
        print(f"  {size}^3 {what}: " + ", ".join(f"{op} {e:+.1f}%" for op, e in sorted(errs(s_, size).items())))
    step = (meas[("gemm_rs", "baseline", 1024)][0] + meas[("gemm_ar", "baseline", 1024)][0]) / 2 / 2
    print(f"fused.host.step = {step * 1e6:.2f} us (fit: 1024^3 gemm_rs, gemm_ar baselines)")
    for op in ("ag_gemm", "gemm_rs", "gemm_ar"):
        t, c = meas[(op, "overlap", 1024)]
        print(f"  1024^3 {op} overlap held-out: {(c * 2 * step - t) / t * 100:+.1f}%")
    t, _ = meas[("ag_gemm", "baseline", 1024)]
    print(f"  1024^3 ag_gemm baseline held-out: {(2 * step - t) / t * 100:+.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
