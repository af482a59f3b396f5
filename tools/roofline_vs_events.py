#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""roofline_vs_events: each `commroof roofline --json` row against CUDA events.

kernels/trace_demo/torch_roofline.py times every operator of its program
with CUDA events (OUT.json) besides tracing it. This matches each timed
operator to its roofline row (the innermost aten op it names, or one of its
alternatives, and its tensor inputs' shapes: the row's sizes without the
"[]" of non-tensor arguments) and prints both times, their ratio, and the
row's bound and verdict. A row's time is the GPU busy with the call's
activities; the event time also holds the gaps between the call's kernels,
so event >= row is expected, by a microsecond or two per kernel.

An operator's "shapes" [] matches a row whose sizes the roofline could not
read; its "row_dtype" (when given) the row's element type (null: none).

Usage: roofline_vs_events.py ROOFLINE.json EVENTS.json [--tol PCT]
Exit: 0 every operator matched a row and agrees within --tol (default 10%)
or 2 us; 1 otherwise; 2 usage.
"""
import json
import sys


def shapes_of(args):
    """The tensor shapes of a row's sizes text "[[4, 8], [], [8]]"."""
    try:
        v = json.loads(args)
    except (ValueError, TypeError):
        return None
    if not isinstance(v, list):
        return None
    return [s for s in v if isinstance(s, list) and s]


# The innermost range other torch builds give an operator, beyond the
# names the events file lists (its argument shapes then differ, so any row
# of the op matches): torch 2.11 on the H200 (traces/h200-1/roofline-demo)
# runs embedding as aten::gather, causal sdpa on cuDNN, rms_norm fused.
ALIASES = {
    "embedding": ("aten::gather",),
    "sdpa": ("aten::_cudnn_attention_forward",),
    "rms_norm": ("aten::_fused_rms_norm",),
}


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-5], file=sys.stderr)
        return 2
    tol = 10.0
    if "--tol" in argv:
        tol = float(argv[argv.index("--tol") + 1])
    with open(argv[1]) as f:
        rf = json.load(f)
    with open(argv[2]) as f:
        ev = json.load(f)
    rows = [r for r in rf.get("rows", []) if r.get("kind") == "aten"]
    print(f"# {ev.get('program', '?')} on {ev.get('device', '?')} (torch {ev.get('torch', '?')}), "
          f"roofline on {rf.get('topology', '?')}")
    print(f"# {'operator':<14} {'aten op':<40} {'calls':>5} {'roofline':>10} {'events':>10} "
          f"{'ev/rf':>6} {'bound':>9} {'roof':>6}  verdict")
    print(f"# {'-':<14} {'-':<40} {'-':>5} {'us':>10} {'us':>10} {'-':>6} {'us':>9} {'%':>6}  -")
    bad = 0
    for op in ev["ops"]:
        cands = []
        for r in rows:
            if r["op"] in op["aten"]:
                # [] : a row whose sizes the roofline could not read
                if op.get("shapes") is not None and (shapes_of(r["args"]) or []) != op["shapes"]:
                    continue
                # two rows of one op and shapes differ by element type
                # (a memcpy and a converting copy kernel)
                if "row_dtype" in op and r.get("dtype") != op["row_dtype"]:
                    continue
            elif r["op"] not in ALIASES.get(op["name"], ()):
                continue
            cands.append(r)
        if not cands:
            print(f"  {op['name']:<14} {'/'.join(op['aten'])[:40]:<40} {'-':>5} {'-':>10} "
                  f"{op['median_us']:>10.3f} {'-':>6} {'-':>9} {'-':>6}  NO ROW")
            bad += 1
            continue
        # several rows (e.g. sdpa without shapes): the one with the most calls
        r = max(cands, key=lambda x: x["calls"])
        rt, et = r["measured_us"], op["median_us"]
        ratio = et / rt if rt > 0 else float("inf")
        ok = abs(et - rt) <= max(tol / 100.0 * et, 2.0)
        bad += not ok
        b = r.get("bound_us")
        pct = r.get("pct_of_roofline")
        print(f"  {op['name']:<14} {r['op'][:40]:<40} {r['calls']:>5} {rt:>10.3f} {et:>10.3f} "
              f"{ratio:>6.3f} {b if b is not None else float('nan'):>9.3f} "
              f"{pct if pct is not None else float('nan'):>6.1f}  "
              f"{r.get('verdict') or '-'}{'' if ok else '  DIFFERS'}")
    n = len(ev["ops"])
    print(f"# {n - bad} of {n} operators agree within {tol:g}% or 2 us")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
