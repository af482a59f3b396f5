#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares the model with the public nccl-tests corpus (validate/corpus,
issue 14) and prints, per half of the fixed split (fit, check), overall and
per system, per size band (<= 1 MiB, 1-64 MiB, > 64 MiB): rows, median and
p90 of |error| of the prediction against the measured out-of-place time
(what `commroof validate --nccl-tests` compares), and bound violations
(measured below the bound).

    tools/corpus_eval.py [--commroof BUILD/commroof] [--half fit|check|all]
                         [--param KEY=VALUE]... [--json] [--markdown] [--logs]
                         [--bias] [--spread] [--against OTHER/commroof]
                         [--max-median PCT] [--max-p90 PCT] [-j N]

The topology each log is compared against comes from
validate/corpus/topologies.txt (system folder -> shipped topology or a file
under validate/corpus/topologies/, with --ranks where the log's ranks are a
subset; `none` with the reason where nothing fits). Logs the parser does not
read are counted, not guessed. --param adds a model parameter
(<param key=.. value=..>) to every topology (tools/fit_nccl_corpus.py uses
it to fit). --max-median / --max-p90: exit 1 when a band of the chosen half
exceeds them, or on any bound violation (the CI gate, tests/check_corpus.sh).
--against OTHER: also run another build of commroof (an earlier model, say
from a `git worktree` of its commit) on the same logs and print both
models' tables over the rows both predict, so that a before/after holds
rows alike where the earlier parser read fewer logs.
Python 3 standard library only.

`commroof validate --corpus validate/corpus [--json]` (validate/corpus.c) is
the implementation of record of these figures, and `commroof report
--corpus` draws them; this script keeps its own copy for
tools/fit_nccl_corpus.py (subsets of the split, per-group --param, rows it
adjusts). The two agree on every system of both halves (doc/corpus.md).
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "validate", "corpus")
MIB = 1 << 20
BANDS = [("<=1MiB", 0, MIB), ("1-64MiB", MIB, 64 * MIB), (">64MiB", 64 * MIB, float("inf"))]


def read_split():
    out = []
    with open(os.path.join(CORPUS, "split.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                half, path = line.split()
                out.append((half, path))
    return out


def read_topologies():
    """folder -> (topology or None, [extra args], reason)"""
    m = {}
    with open(os.path.join(CORPUS, "topologies.txt")) as f:
        for ln, line in enumerate(f, 1):
            body = line.split("#", 1)[0].strip()
            if not body:
                continue
            w = body.split()
            folder, topo = w[0], w[1]
            reason = line.split("#", 1)[1].strip() if "#" in line else ""
            if topo == "none":
                m[folder] = (None, [], reason)
                continue
            if topo.endswith(".xml"):
                topo = os.path.join(CORPUS, topo)
            m[folder] = (topo, w[2:], reason)
    return m


def with_params(topo, params, tmpdir, cache):
    """A copy of topology file topo with <param> lines added (shipped names
    resolve to topologies/NAME.xml)."""
    if not params:
        return topo
    if topo in cache:
        return cache[topo]
    path = topo if topo.endswith(".xml") else os.path.join(ROOT, "topologies", topo + ".xml")
    with open(path) as f:
        text = f.read()
    lines = "".join(
        '  <param key="%s" value="%s" source="tools/corpus_eval.py --param"/>\n' % (k, v)
        for k, v in params)
    # replace a parameter the file already sets
    for k, _ in params:
        text = re.sub(r'\s*<param key="%s"[^>]*/>' % re.escape(k), "", text)
    text = text.replace("</topology>", lines + "</topology>")
    # a shipped topology's DTD is found next to it
    text = re.sub(r'SYSTEM "[^"]*"', 'SYSTEM "%s"' % os.path.join(ROOT, "topologies",
                                                               "commroof-topology.dtd"), text)
    out = os.path.join(tmpdir, "t%d.xml" % len(cache))
    with open(out, "w") as f:
        f.write(text)
    cache[topo] = out
    return out


def run_one(commroof, log, topo, extra):
    # the corpus's topologies are stand-ins where topologies.txt says so
    # (an MI300X file for MI308X nodes): commroof validate --corpus compares
    # them without the GPU check, and so does this script
    cmd = [commroof, "validate", "--nccl-tests", os.path.join(CORPUS, log), "--topo", topo,
           "--allow-gpu-mismatch"] + extra + ["--json"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode == 2 and '"--allow-gpu-mismatch"' in p.stderr:
        # a build from before the option (--against an earlier model): it
        # had no GPU check to leave out
        cmd.remove("--allow-gpu-mismatch")
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # exit 1 with the JSON written: no case of the log could be checked (its
    # rows count, without predictions, as validate --corpus counts them)
    unchecked = p.returncode == 1 and p.stdout.lstrip().startswith("{")
    if p.returncode not in (0, 3) and not unchecked:
        return None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "rc %d" % p.returncode
    try:
        return json.loads(p.stdout)["cases"], None
    except (ValueError, KeyError) as e:
        return None, "bad JSON: %s" % e


def collect(commroof, half, params, jobs):
    """Returns (rows, logs): rows = list of dicts (half, system, log, bytes,
    err, violation, measured, pred, bound, impl); logs = per-log status."""
    topos = read_topologies()
    todo = []
    logs = []
    tmp = tempfile.mkdtemp(prefix="corpus_eval.")
    cache = {}
    for h, path in read_split():
        if half != "all" and h != half:
            continue
        system = path.split("/")[0]
        t = topos.get(path, topos.get(system))
        if t is None:
            logs.append(dict(half=h, log=path, status="no mapping in topologies.txt"))
            continue
        if t[0] is None:
            logs.append(dict(half=h, log=path, status="none: " + t[2]))
            continue
        todo.append((h, path, system, with_params(t[0], params, tmp, cache), t[1]))
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [(x, ex.submit(run_one, commroof, x[1], x[3], x[4])) for x in todo]
        for (h, path, system, _, _), fu in futs:
            cases, err = fu.result()
            if cases is None:
                logs.append(dict(half=h, log=path, status="not read: " + err))
                continue
            n = 0
            for c in cases:
                if c.get("family") != "nccl":
                    continue
                b = float(c["keys"]["bytes"])
                if b <= 0:
                    continue  # 0-byte rows: nothing moves, no prediction to judge
                n += 1
                rows.append(dict(half=h, system=system, log=path, bytes=b,
                                 err=c.get("error_pct"), violation=bool(c.get("violation")),
                                 measured=c.get("measured_us"), pred=c.get("pred_us"),
                                 bound=c.get("bound_us"), impl=c.get("impl"),
                                 coll=c["keys"].get("coll"), nranks=c["keys"].get("nranks")))
            logs.append(dict(half=h, log=path, status="ok", rows=n))
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    return rows, logs


def pct(vals, q):
    if not vals:
        return None
    v = sorted(vals)
    # nearest-rank on the sorted values, linear between neighbours
    pos = q * (len(v) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def band_of(b):
    for name, lo, hi in BANDS:
        if lo < b <= hi or (lo == 0 and b <= hi):
            return name
    return BANDS[-1][0]


def stats(rows):
    e = [abs(r["err"]) for r in rows if r["err"] is not None]
    return dict(rows=len(rows), predicted=len(e), median=pct(e, 0.5), p90=pct(e, 0.9),
                violations=sum(r["violation"] for r in rows))


def by_system(out, band):
    """The band's figures with every system weighted alike: the median and
    p90 of the systems' own medians (rows: how many systems have one)."""
    meds = [per[band]["median"] for g, per in out.items()
            if g != "all" and per[band]["median"] is not None]
    return dict(rows=len(meds), predicted=len(meds), median=pct(meds, 0.5), p90=pct(meds, 0.9),
                violations=out["all"][band]["violations"])


def table(rows):
    """{group: {band: stats}} with group 'all' (every row alike), 'systems'
    (every system alike: by_system) and each system. The row figures are
    what the gate holds; a source that publishes dense sweeps (thomaslie210:
    103 rows a table, 0-10 KB in 100 B steps) weighs on them as many
    systems would, which the systems' figures do not let it."""
    out = {}
    groups = ["all"] + sorted({r["system"] for r in rows})
    for g in groups:
        sel = rows if g == "all" else [r for r in rows if r["system"] == g]
        out[g] = {"all": stats(sel)}
        for name, _, _ in BANDS:
            out[g][name] = stats([r for r in sel if band_of(r["bytes"]) == name])
    systems = {name: by_system(out, name) for name, _, _ in BANDS}
    systems["all"] = by_system(out, "all")
    return dict([("all", out["all"]), ("systems", systems)] +
                [(g, per) for g, per in out.items() if g != "all"])


def fmt(x):
    return "-" if x is None else "%.1f" % x


def print_table(title, t, markdown):
    names = [b[0] for b in BANDS] + ["all"]
    if markdown:
        print("\n**%s**\n" % title)
        print("| system | " + " | ".join("%s rows / med / p90 / viol" % n for n in names) + " |")
        print("|---" * (len(names) + 1) + "|")
        for g, per in t.items():
            cells = []
            for n in names:
                s = per[n]
                cells.append("-" if not s["rows"] else "%d / %s / %s / %d" % (
                    s["rows"], fmt(s["median"]), fmt(s["p90"]), s["violations"]))
            print("| %s | %s |" % ("**%s**" % g if g in ("all", "systems") else g,
                                   " | ".join(cells)))
        return
    print("\n== %s ==" % title)
    print("%-24s" % "system" + "".join("%-28s" % n for n in names))
    print("%-24s" % "" + "rows   med%   p90%  viol     " * len(names))
    for g, per in t.items():
        line = "%-24s" % g
        for n in names:
            s = per[n]
            line += "%-28s" % ("-" if not s["rows"] else "%-6d %-6s %-6s %-4d" % (
                s["rows"], fmt(s["median"]), fmt(s["p90"]), s["violations"]))
        print(line)


def bias_table(rows, key):
    """{group: {band: (rows, signed median %)}} over the rows' key (an
    implementation such as nvls/simple, or a log): the direction of the
    error, which |error| hides. Positive: predicted slower than measured."""
    out = {}
    for r in rows:
        if r["err"] is None:
            continue
        g = out.setdefault(r[key] or "-", {})
        g.setdefault(band_of(r["bytes"]), []).append(r["err"])
    return {g: {b: (len(v), pct(v, 0.5)) for b, v in per.items()} for g, per in sorted(out.items())}


def print_bias(title, t):
    names = [b[0] for b in BANDS]
    print("\n== %s: signed median error %% (+: predicted slower than measured) ==" % title)
    print("%-58s" % "" + "".join("%-16s" % n for n in names))
    for g, per in t.items():
        print("%-58s" % g[:58] + "".join(
            "%-16s" % ("%4d %+7.1f" % per[n] if n in per else "-") for n in names))


def spread_table(rows):
    """Where the model cannot tell two logs apart (same system folder,
    collective, ranks and size, and the same prediction, so the same
    launch mode, release and algorithm as far as the model knows), the
    least |error| one prediction can have on both measured times m_a and
    m_b: |m_a - m_b| / (m_a + m_b), in %. {band: [values]}, {system:
    {band: [values]}}, over every such pair of logs."""
    groups = {}
    for r in rows:
        if r["pred"] and r["measured"]:
            k = (r["system"], r["coll"], r["nranks"], r["bytes"], round(r["pred"], 6))
            groups.setdefault(k, []).append(r)
    per_band, per_sys = {}, {}
    for k, g in groups.items():
        for i in range(len(g)):
            for j in range(i + 1, len(g)):
                if g[i]["log"] == g[j]["log"]:
                    continue
                a, b = g[i]["measured"], g[j]["measured"]
                v = 100.0 * abs(a - b) / (a + b)
                per_band.setdefault(band_of(k[3]), []).append(v)
                per_sys.setdefault(k[0], {}).setdefault(band_of(k[3]), []).append(v)
    return per_band, per_sys


def print_spread(per_band, per_sys):
    names = [b[0] for b in BANDS]
    print("\n== logs the model cannot tell apart: the least |error| one prediction can have on "
          "both (pairs / median % / p90 %) ==")
    print("%-24s" % "system" + "".join("%-22s" % n for n in names))

    def cells(per):
        return "".join("%-22s" % ("%-5d %-6s %-6s" % (len(per[n]), fmt(pct(per[n], 0.5)),
                                                       fmt(pct(per[n], 0.9)))
                                  if per.get(n) else "-") for n in names)
    print("%-24s" % "all" + cells(per_band))
    for g, per in sorted(per_sys.items()):
        print("%-24s" % g + cells(per))


MULTI_NODE = re.compile(r"-\d+(n|rack)$")


def print_ramp(title, rows):
    """Per log of a multi-node system, predicted / measured at each size from
    1 MiB to 2 GiB: whether a log's misses stay at one ratio (a rate the
    model does not know: the NIC's efficiency, a fabric) or close as the
    message grows (a cost per step or per message that it does not know)."""
    sizes = [1 << k for k in range(20, 32)]
    print("\n== %s: predicted / measured by message size, multi-node logs ==" % title)
    print("%-58s %s" % ("", " ".join("%5s" % ce_size(b) for b in sizes)))
    by_log = {}
    for r in rows:
        if MULTI_NODE.search(r["system"]) and r["pred"] and r["measured"]:
            by_log.setdefault(r["log"], {})[r["bytes"]] = r["pred"] / r["measured"]
    for log in sorted(by_log):
        q = by_log[log]
        if not any(b in q for b in sizes):
            continue
        print("%-58s %s" % (log[:58], " ".join("%5.2f" % q[b] if b in q else "    -"
                                                for b in sizes)))


def ce_size(b):
    return "%dM" % (b >> 20) if b < 1 << 30 else "%dG" % (b >> 30)


def print_against(rows, other, other_name, halves, markdown):
    """Both models' tables over the rows both predict: (log, bytes) rows
    with an error in each."""
    def keyed(rs):
        return {(r["log"], r["bytes"]): r for r in rs if r["err"] is not None}
    mine, theirs = keyed(rows), keyed(other)
    common = sorted(set(mine) & set(theirs))
    print("\n%d rows predicted by both (%d by this build, %d by %s)" % (
        len(common), len(mine), len(theirs), other_name))
    for h in halves:
        for name, by in ((other_name, theirs), ("this build", mine)):
            sel = [by[k] for k in common if by[k]["half"] == h]
            print_table("%s half, rows both predict: %s" % (h, name), table(sel), markdown)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commroof", default=os.path.join(ROOT, "build", "commroof"))
    ap.add_argument("--half", default="all", choices=["fit", "check", "all"])
    ap.add_argument("--param", action="append", default=[], help="KEY=VALUE")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--logs", action="store_true", help="also list each log's status")
    ap.add_argument("--bias", action="store_true",
                    help="also print the signed median error per band of each algorithm/protocol "
                         "and of each log, per half: a bias that shows in both halves alike is "
                         "the model's, not one machine's")
    ap.add_argument("--spread", action="store_true",
                    help="also print, where two logs get the same prediction at a size, the "
                         "least |error| one prediction can have on both: the floor the "
                         "spread between machines sets")
    ap.add_argument("--ramp", action="store_true",
                    help="also print, per log of a multi-node system, predicted / measured at "
                         "each size from 1 MiB to 2 GiB, per half")
    ap.add_argument("--against", metavar="OTHER_COMMROOF",
                    help="also evaluate this other build and print both models' tables over "
                         "the rows both predict (before/after on the same rows)")
    ap.add_argument("--max-median", type=float)
    ap.add_argument("--max-p90", type=float)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    params = [tuple(p.split("=", 1)) for p in a.param]
    rows, logs = collect(a.commroof, a.half, params, a.jobs)
    halves = ["fit", "check"] if a.half == "all" else [a.half]
    result = {h: table([r for r in rows if r["half"] == h]) for h in halves}
    if a.json:
        json.dump(dict(tables=result, logs=logs, rows=rows), sys.stdout, indent=1)
        print()
    else:
        for h in halves:
            hl = [x for x in logs if x["half"] == h]
            ok = sum(x["status"] == "ok" for x in hl)
            print_table("%s half: %d logs, %d compared, %d rows" % (
                h, len(hl), ok, sum(x.get("rows", 0) for x in hl)), result[h], a.markdown)
        if a.bias:
            for h in halves:
                hr = [r for r in rows if r["half"] == h]
                print_bias("%s half, by algorithm/protocol" % h, bias_table(hr, "impl"))
                print_bias("%s half, by log" % h, bias_table(hr, "log"))
        if a.ramp:
            for h in halves:
                print_ramp("%s half" % h, [r for r in rows if r["half"] == h])
        if a.spread:
            print_spread(*spread_table(rows))
        if a.against:
            print_against(rows, collect(a.against, a.half, params, a.jobs)[0], a.against,
                          halves, a.markdown)
        if a.logs:
            print()
            for x in sorted(logs, key=lambda x: (x["half"], x["log"])):
                print("%-6s %-75s %s%s" % (x["half"], x["log"], x["status"],
                                           " (%d rows)" % x["rows"] if "rows" in x else ""))
    bad = []
    for h in halves:
        for name in [b[0] for b in BANDS]:
            s = result[h]["all"][name]
            if a.max_median is not None and s["median"] is not None and s["median"] > a.max_median:
                bad.append("%s %s median %.1f%% > %g%%" % (h, name, s["median"], a.max_median))
            if a.max_p90 is not None and s["p90"] is not None and s["p90"] > a.max_p90:
                bad.append("%s %s p90 %.1f%% > %g%%" % (h, name, s["p90"], a.max_p90))
        if result[h]["all"]["all"]["violations"]:
            bad.append("%s: %d bound violation(s)" % (h, result[h]["all"]["all"]["violations"]))
    for b in bad:
        print("corpus_eval: " + b, file=sys.stderr)
    return 1 if bad and (a.max_median is not None or a.max_p90 is not None) else 0


if __name__ == "__main__":
    sys.exit(main())
