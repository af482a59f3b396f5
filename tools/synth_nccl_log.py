#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rewrites an nccl-tests log's times with commroof's own predictions.

    tools/synth_nccl_log.py COMMROOF TOPO.xml LOG [KEY=VALUE ...] > NEW.log

The fixtures tests/fixtures/nccl-tests/calib/synth-* are logs the model
itself would print on TOPO with the named parameters overridden (each one
a <param> added to a copy of TOPO): calibrate --nccl-tests must fit those
parameters back from them (tests/golden/calibrate_nccl_fit.cmd). The
header lines and sizes of LOG stay; every result row gets validate's
pred_us as its out-of-place and in-place time (0.01 us, as nccl-tests
prints it) and the algbw and busbw that time gives. Regenerate the
fixtures this way whenever the model's predictions move.
"""
import json
import re
import subprocess
import sys
import tempfile

BUSBW = {"allreduce": lambda n: 2.0 * (n - 1) / n, "allgather": lambda n: (n - 1) / n,
         "reducescatter": lambda n: (n - 1) / n, "alltoall": lambda n: (n - 1) / n}


def main():
    cr, topo, log = sys.argv[1:4]
    params = [a.split("=", 1) for a in sys.argv[4:]]
    xml = open(topo).read()
    lines = "".join(f'  <param key="{k}" value="{v}" source="tools/synth_nccl_log.py"/>\n'
                    for k, v in params)
    xml = re.sub(r"(\s*</topology>\s*)$", "\n" + lines + r"\1", xml)
    with tempfile.NamedTemporaryFile("w", suffix=".xml") as t:
        t.write(xml)
        t.flush()
        out = subprocess.run([cr, "validate", "--topo", t.name, "--nccl-tests", log, "--json"],
                             check=True, capture_output=True, text=True).stdout
    cases = json.loads(out)["cases"]
    pred = {int(c["keys"]["bytes"]): (c["pred_us"], c["keys"]["coll"], int(c["keys"]["nranks"]))
            for c in cases}
    for line in open(log):
        tok = line.split()
        if line.startswith("#") or len(tok) < 13 or not tok[0].isdigit() or int(tok[0]) not in pred:
            sys.stdout.write(line)
            continue
        us, coll, n = pred[int(tok[0])]
        us = round(us, 2)
        algbw = int(tok[0]) / (us * 1e3)
        busbw = algbw * BUSBW.get(coll, lambda n: 1.0)(n)
        cols = tok[:5] + [f"{us:.2f}", f"{algbw:.2f}", f"{busbw:.2f}", "0"] * 2
        sys.stdout.write("%12s  %12s  %8s  %6s  %6s  %s\n" % (*cols[:5], "  ".join(
            f"{c:>7}" for c in cols[5:])))


if __name__ == "__main__":
    main()
