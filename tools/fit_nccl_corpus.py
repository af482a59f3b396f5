#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fits the nccl-tests latency constants of model/params.c (FIT_* at the top
of that file: coll.op_fixed{,.net}, coll.alpha.{nvlink,net,pci}.*,
coll.alpha.net.tree.ll, coll.alpha.nvls, coll.p2p.peer.{intra,net},
coll.host_op{,.ch,.p2p}, coll.eff.shm, coll.eff.ll.net) on the
FITTING half of validate/corpus and on NVIDIA/nccl-tests#123, and prints
them in the form params.c takes them, with the fit's and the checking
half's per-band errors:

    tools/fit_nccl_corpus.py [--commroof BUILD/commroof] [--sweeps N] [-j N]
                             [--shipped] [--start KEY=VALUE]... [--only KEY]...
                             [--limit BYTES]

`--shipped --sweeps 0` prints the objective of the model as shipped.

The descent is local and the objective flat along some directions (the
fixed cost against its network part and the PCIe step): run it from
several starts (--start; GROUP:KEY for a group's figures) and keep
the lowest objective; model/params.c names the start that was kept.

The model structure is algo.c corpus_lat_s (doc/corpus.md): a fixed cost per
operation (more across nodes: coll.op_fixed.net), the algorithm's sequential steps at a step latency per link
class and protocol, one more step per further pipeline piece, LL's
per-channel rate (coll.ll_ch: fitted on NVIDIA Ampere GPUs only, AMPERE below; 0 elsewhere); nccl-tests' -g N logs at least N x coll.host_op per
operation, each plus its channels x coll.host_op.ch (NCCL plans a work
batch per channel). Every constant is a topology <param> (tools/corpus_eval.py
--param), so the fit evaluates exactly what validate predicts, the -g N
host term included (validate reads each log's GPUs per thread and sets
cr_coll_req host_loop); NVIDIA/nccl-tests#123 (DGX A100, NCCL_ALGO=Ring NCCL_MAX_NCHANNELS=1,
8 B allreduce, -g 2..8 in one process) is evaluated through `commroof coll`
on dgx-a100-8 with --algo ring --proto ll --nchannels 1.

Data: the fitting half's rows up to 8 MiB (above, the stand-in topologies'
rates dominate) and the seven #123 points; never the checking half, which
is evaluated once at the end. tests/fixtures/nccl-tests/{h100-8,a100-8}-*
are not used: they carry no source (sequential pids, round figures).
Objective: mean over systems (each system, and #123, weighted alike) of
the mean |ln(pred/measured)|. The network plugin's latency (coll.net.lat,
a topology's figure), the per-message cost of point-to-point across
nodes (coll.p2p.peer.net), the plugin's eager limit and rendezvous
(coll.net.eager, coll.net.rndv) and the proxy's fixed cost
(coll.op_fixed.net) are fitted for the Slingshot systems apart
(libfabric CXI through aws-ofi-nccl; InfiniBand reports 0) and printed as
the <param> lines their topologies take; LL's per-channel rate is fitted
for the logs on NVIDIA Ampere GPUs apart (AMPERE) and printed as the
macro model/params.c gives that generation; the proxy's fixed cost
(coll.op_fixed.net) is fitted for the logs on NVIDIA Hopper GPUs apart
(HOPPER), the Slingshot topologies' own figure winning over it; the fixed
cost per operation (coll.op_fixed) is fitted for the GH200 logs apart
(GRACE: a Grace CPU over NVLink-C2C) and printed as the Alps topology's
<param> line. Coordinate descent over multiplicative
grids (x 2, 1.41, 1.19, 1.09), deterministic. Python 3 standard library.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_eval  # noqa: E402

# key, FIT_ macro, start, low, high, source of the start value. The bounds
# keep each constant physically plausible (a step never faster than NCCL's
# own hwLat for it, tuning.cc @v2.28.9, nor slower than a few times it):
# left free, the step latencies soak up the bandwidth the stand-in
# topologies miss (LL128 7 us and Simple 11 us per NVLink step, net LL
# 0.01 us), and NCCL's choice of algorithm is then predicted slower than the
# algorithm it switches to at twice the size (test_coll test_auto_monotone)
START = [
    ("coll.op_fixed", "FIT_OP_FIXED", 5.8e-6, 1e-6, 20e-6, "nccl-tests#123 intercept"),
    # the network proxy's part of the fixed cost, where an operation
    # crosses nodes; one node's logs (PCIe pairs, -g N boxes) pin op_fixed
    ("coll.op_fixed.net", "FIT_OP_FIXED_NET", 5.0e-6, 0.1e-6, 30e-6, "estimate"),
    ("coll.alpha.nvlink.ll", "FIT_A_NVL_LL", 2.0e-6, 0.6e-6, 3e-6, "nccl-tests#123 slope"),
    ("coll.alpha.nvlink.ll128", "FIT_A_NVL_LL128", 3.0e-6, 1.9e-6, 4e-6, "hwLat 1.9 x 1.5"),
    ("coll.alpha.nvlink.simple", "FIT_A_NVL_SIMPLE", 4.0e-6, 3.4e-6, 7e-6, "hwLat 3.4"),
    # at most the LL128 step held below: NCCL's hwLat orders the protocols
    # LL < LL128 < Simple on every link class, and with LL's step above
    # LL128's NCCL's own switch from tree LL to LL128 (512 KiB on
    # h100-ib-1024n) becomes a drop in predicted time (test_auto_monotone)
    ("coll.alpha.net.ll", "FIT_A_NET_LL", 4.0e-6, 2.7e-6, 4.0e-6, "hwLat NET 2.7"),
    # held at NCCL's hwLat NET (ring LL128 4.0, Simple 14 us): left free the
    # fit drives them to 26 and 51 us, the stand-in topologies' missing rate
    # (Polaris, Snellius) speaking as latency; a 128-node ring then costs
    # 13 ms and breaks the published 2x8 H200 IB check (test_nvls_checks)
    ("coll.alpha.net.ll128", "FIT_A_NET_LL128", 4.0e-6, 4.0e-6, 4.0e-6, "hwLat NET 4.0"),
    ("coll.alpha.net.simple", "FIT_A_NET_SIMPLE", 14e-6, 14e-6, 14e-6, "hwLat NET 14"),
    # a tree's network step, fitted apart from a ring's since session 11
    # (until then the ring's times NCCL's tree/ring ratio, 5.0/2.7): from
    # NCCL's own hwLat NET tree LL (5.0 us) to the tree's LL128 step held
    # below (8.5 us), the protocols' order as for the ring
    ("coll.alpha.net.tree.ll", "FIT_A_TREE_NET_LL", 7.41e-6, 5.0e-6, 8.5e-6,
     "net.ll x hwLat NET tree/ring 5.0/2.7"),
    # held at NCCL's hwLat (until session 10 raised to 32 us, where NCCL's
    # own switch from ring LL to NVLS at 2-4 MiB had been a drop in
    # predicted time, test_coll test_auto_monotone; NVLS's cost per loop,
    # coll.nvls.loop, lifts NVLS enough there)
    ("coll.alpha.nvls", "FIT_A_NVLS", 25e-6, 25e-6, 25e-6, "hwLat NVLS 25"),
    ("coll.p2p.peer.intra", "FIT_P2P_INTRA", 1e-6, 0.3e-6, 10e-6, "estimate"),
    ("coll.p2p.peer.net", "FIT_P2P_NET", 3e-6, 1e-6, 20e-6, "estimate"),
    ("coll.host_op", "FIT_HOST_OP", 4.2e-6, 1e-6, 10e-6, "nccl-tests#123 33.7/8"),
    # its part per channel (NCCL's host plans a work batch per channel):
    # at most 0.3 us, a channel's share of a launch no larger than the
    # whole of coll.host_op over 16 channels
    ("coll.host_op.ch", "FIT_HOST_OP_CH", 0.02e-6, 0.001e-6, 0.3e-6, "estimate"),
    # its part per point-to-point call (ncclSend, ncclRecv: an alltoall
    # makes 2 (n - 1) per GPU, where a collective makes one): at most 1 us,
    # a quarter of coll.host_op (session 42)
    ("coll.host_op.p2p", "FIT_HOST_OP_P2P", 0.1e-6, 0.01e-6, 1e-6, "estimate"),
    # PCIe boxes (round 3: 2x A100 PCIe, one per socket, one process per
    # GPU): two ranks there take the step structure too (algo.c, corpus)
    ("coll.alpha.pci.ll", "FIT_A_PCI_LL", 2.4e-6, 1.0e-6, 20e-6, "nvlink.ll + hwLat PCI-NVLINK 0.4"),
    # LL's rate across nodes, relative to its share on NVLink (model/params.c
    # coll.eff.ll.net: NCCL keeps LL's network buffers in host memory): a
    # rate, but one that only rows up to a few MiB show (NCCL runs LL no
    # further), so fitted in the descent; from 1 (as on NVLink) to a tenth
    ("coll.eff.ll.net", "FIT_EFF_LL_NET", 1.0, 0.1, 1.0, "LL's NVLink share"),
]
# NCCL's SHM transport (doc/bounds.md 2.2.6): the fraction of the host
# path's rate it reaches, a rate and not a latency, so fitted apart from
# the descent and before it: the median of predicted (at 1) over measured
# time of the fitting half's rows above 64 MiB on topologies without PCIe
# peer access (route.pcie_p2p 0), where the transfer dominates. Fitted
# inside the descent on rows up to 8 MiB it goes to 0.355, the mid sizes'
# pipeline and channel effects speaking as rate.
SHM = ("coll.eff.shm", "FIT_EFF_SHM", 64 * 1024 * 1024)
# Fitted for the Slingshot systems only (libfabric CXI through aws-ofi-nccl),
# as figures their topologies carry: the plugin's latency per inter-node
# step, and the proxy's and plugin's work per point-to-point message, which
# the alltoall rows there put at several times InfiniBand's.
# key, start, low, high
# Since session 7 also the plugin's eager limit (wire bytes of one network
# message; the x 2 grid walks its powers of two) and the rendezvous a larger
# message pays, and the network proxy's part of the fixed cost: CXI's own.
SLING = [("coll.net.lat", 1e-6, 1e-8, 1e-3), ("coll.p2p.peer.net", 6e-6, 1e-6, 60e-6),
         ("coll.net.eager", 4096, 512, 65536), ("coll.net.rndv", 10e-6, 0.1e-6, 60e-6),
         ("coll.op_fixed.net", 1e-6, 0.01e-6, 30e-6)]
# Fitted for the logs on NVIDIA Ampere GPUs only (sm80-89, model/params.c
# cr_params_gen), as the figure params.c gives that generation: LL's data
# rate per channel of a ring. The fitting half's Ampere ring LL rows are too
# fast by a margin that grows with the message (a100-8 -10 % at 512 B-4 KiB,
# -35 % at 4-32 KiB, -55 % at 32-256 KiB; Sophia, p4d EFA and the PCIe
# pairs alike) where its Hopper rows are not. The floor: below 3 GB/s the
# ring LL NCCL picks for 2 MiB on dgx-a100-8 is predicted slower than its
# LL128 pick at 4 MiB (test_coll test_auto_monotone), a drop no Ampere log
# shows (ABCI's one node: 116 -> 140 us).
# key, macro, start, low, high
AMPERE = [("coll.ll_ch", "FIT_LL_CH_AMPERE", 4e9, 3e9, 50e9)]
# Fitted for the logs on NVIDIA Hopper GPUs only (sm90), as the figure
# params.c gives that generation: the network proxy's fixed cost per
# operation. Hopper's hosts (PCIe Gen5, ConnectX-7) cross nodes for less
# than the shared figure says: the fitting half's Snellius 2x4 H100 logs
# take 16-19 us for an 8-rank ring allgather or tree allreduce of 1 KiB
# (NCCL's own latency table says 13 and 20), Nebius' 2x8 H100 31 us for
# the 16-rank tree; the Ampere clusters (ABCI, Sophia) 36 us for it.
# And LL128's step over NVLink: the fitting half's 8x H100 ring LL128 rows
# of 4-32 MiB (Together, LLM-jp) are 10-58 % slow at the shared figure
# while the 8x A100's are 12-53 % fast (session 46; fitted with --limit
# 67108864, the rows NCCL runs in LL128 reaching 32 MiB).
HOPPER = [("coll.op_fixed.net", "FIT_OP_FIXED_NET_HOPPER", 7.01e-6, 0.1e-6, 30e-6),
          ("coll.alpha.nvlink.ll128", "FIT_A_NVL_LL128_HOPPER", 3.89e-6, 0.1e-6, 30e-6)]
# the generations' groups, each printed as a params.c column macro
GEN_GROUPS = (("ampere", AMPERE), ("hopper", HOPPER))
# Fitted for the logs on GH200 (a Grace CPU driving its GPU over NVLink-C2C
# instead of PCIe), as a figure the Alps topology carries: the fixed cost
# per operation, the host's launch and completion path. The fitting half's
# two GH200 machines (CSCS santis, NRIS Olivia: 2 x 4 GPUs) time an 8 B
# tree allreduce at 18.7 and 22.8 us where the Hopper figure predicts 24.6.
# key, start, low, high
GRACE = [("coll.op_fixed", 7.75e-6, 1e-6, 20e-6)]
# The groups whose figures topologies carry as <param> lines: group, the
# topology file (validate/corpus/topologies/) --shipped reads them from,
# the files that take them, the systems they are fitted on. The Slingshot
# figures are the same in every Slingshot file.
TOPO_GROUPS = (("slingshot", "polaris-a100x4-slingshot.xml", "{polaris,alps,kestrel,perlmutter}-*.xml",
                "Slingshot systems"),
               ("grace", "alps-gh200x4-slingshot.xml", "alps-gh200x4-slingshot.xml",
                "GH200 systems"))
# the groups with figures of their own: "group:KEY" on the command line
GROUPS = {"slingshot": [(k, v, lo, hi) for k, v, lo, hi in SLING],
          "grace": [(k, v, lo, hi) for k, v, lo, hi in GRACE]}
GROUPS.update({g: [(k, v, lo, hi) for k, _, v, lo, hi in t] for g, t in GEN_GROUPS})
LIMIT = 8 * 1024 * 1024  # the rows the objective takes (--limit)
NT123 = {2: 10.0, 3: 13.76, 4: 16.88, 5: 20.8, 6: 25.2, 7: 29.5, 8: 33.7}  # us


def collect(commroof, params, figs, jobs, half="fit"):
    """corpus_eval.collect with each group's own figures (figs: {group:
    {key: value}}, GROUPS) on that group's logs."""
    orig = corpus_eval.read_split
    split = orig()
    by = {}
    for h, p in split:
        by.setdefault(groups_of(commroof, p), []).append((h, p))
    rows = []
    try:
        for grps, sub in sorted(by.items()):
            corpus_eval.read_split = lambda sub=sub: sub
            # AMD (RCCL) keeps NCCL's tables: its generation's defaults are 0
            pp = [] if "amd" in grps else list(params)
            for g in grps:
                own = figs.get(g, {})
                pp = [(k, v) for k, v in pp if k not in own] + \
                     [(k, "%.6g" % v) for k, v in own.items()]
            r, _ = corpus_eval.collect(commroof, half, pp, jobs)
            rows += r
    finally:
        corpus_eval.read_split = orig
    return rows


_ARCH = {}


def topo_gpu(commroof, topo):
    """(SM architecture, e.g. 80 for sm80; model name) of a topology's first
    GPU model; (0, "") when it has none (a file or shipped name, as
    topologies.txt gives)."""
    if topo not in _ARCH:
        p = subprocess.run([commroof, "topo", "show", topo, "--json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        models = json.loads(p.stdout).get("gpu_models", []) if p.returncode == 0 else []
        _ARCH[topo] = (models[0].get("arch", 0), models[0].get("name", "")) if models else (0, "")
    return _ARCH[topo]


_GROUPS = {}


def groups_of(commroof, log):
    """The groups a log belongs to: amd (RCCL), or a generation (ampere:
    NVIDIA sm80-89, hopper: sm90), slingshot (the libfabric CXI systems)
    and grace (GH200), in that order: a later group's figure wins where
    both carry a key (a Slingshot topology's own coll.op_fixed.net over
    Hopper's).
    Worked out once a log: collect runs for every step of the descent."""
    if log not in _GROUPS:
        if log.startswith("mi"):
            _GROUPS[log] = ("amd",)
        else:
            out = []
            t = corpus_eval.read_topologies()
            topo = t.get(log, t.get(log.split("/")[0]))
            arch, name = topo_gpu(commroof, topo[0]) if topo and topo[0] else (0, "")
            if 80 <= arch < 90:
                out.append("ampere")
            elif arch == 90:
                out.append("hopper")
            if "slingshot" in log:
                out.append("slingshot")
            if name.startswith("GH200"):
                out.append("grace")
            _GROUPS[log] = tuple(out)
    return _GROUPS[log]


def host_one_channel(vals):
    """The host's time per GPU of a one-channel operation in nccl-tests'
    -g N loop (algo.c finish: coll.host_op + works x coll.host_op.ch)."""
    return vals["coll.host_op"] + vals["coll.host_op.ch"]


def nt123(commroof, params, host_op):
    topo = corpus_eval.with_params("dgx-a100-8", params, _TMP, {})
    out = []
    for n, meas in sorted(NT123.items()):
        p = subprocess.run([commroof, "coll", "allreduce", "--topo", topo, "--ranks",
                            "0-%d" % (n - 1), "--algo", "ring", "--proto", "ll",
                            "--nchannels", "1", "-b", "8", "-e", "8", "--json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        pred = json.loads(p.stdout)["rows"][0]["pred_us"]
        out.append((n, meas, max(pred, n * host_op * 1e6)))
    return out


def shm_systems():
    """Folders whose topology sets route.pcie_p2p to 0."""
    out = set()
    for folder, (topo, _, _) in corpus_eval.read_topologies().items():
        if topo and topo.endswith(".xml"):
            with open(topo) as f:
                if re.search(r'key="route\.pcie_p2p"\s+value="0"', f.read()):
                    out.add(folder.split("/")[0])
    return out


def fit_shm(commroof, vals, jobs):
    """coll.eff.shm (see SHM) from the other constants' start values."""
    params = [(k, "%.6g" % v) for k, v in vals.items()] + [(SHM[0], "1")]
    rows = collect(commroof, params, start_figs(), jobs)
    sys_shm = shm_systems()
    r = sorted(x["pred"] / x["measured"] for x in rows
               if x["system"] in sys_shm and x["bytes"] > SHM[2] and x["pred"] and x["measured"])
    if not r:
        return 1.0, 0
    m = len(r) // 2
    return (r[m] if len(r) % 2 else (r[m - 1] + r[m]) / 2), len(r)


def shipped_fits():
    """The FIT_* macros model/params.c ships: {macro: value}."""
    src = open(os.path.join(corpus_eval.ROOT, "model", "params.c")).read()
    return {m: float(v) for m, v in re.findall(r"#define (FIT_\w+) ([0-9.eE+-]+)", src)}


def shipped_params(topo):
    """A corpus topology's <param> figures: {key: value} (TOPO_GROUPS)."""
    src = open(os.path.join(corpus_eval.ROOT, "validate", "corpus", "topologies", topo)).read()
    return {k: float(v) for k, v in re.findall(r'<param key="([^"]+)" value="([^"]+)"', src)}


def start_figs():
    return {g: {k: v for k, v, _, _ in figs} for g, figs in GROUPS.items()}


def objective(commroof, vals, figs, jobs):
    params = [(k, "%.6g" % v) for k, v in vals.items()]
    rows = collect(commroof, params, figs, jobs)
    per = {}
    for r in rows:
        if r["bytes"] > LIMIT or not r["pred"] or not r["measured"]:
            continue
        per.setdefault(r["system"], []).append(abs(math.log(r["pred"] / r["measured"])))
    per["nccl-tests#123"] = [abs(math.log(p / m)) for _, m, p in
                             nt123(commroof, params, host_one_channel(vals))]
    return sum(sum(v) / len(v) for v in per.values()) / len(per)


_TMP = None


def main():
    global _TMP, LIMIT
    import tempfile
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commroof", default=os.path.join(corpus_eval.ROOT, "build", "commroof"))
    ap.add_argument("--sweeps", type=int, default=4)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--start", action="append", default=[], metavar="KEY=VALUE",
                    help="start the descent there instead of START's value (the descent is "
                         "local: try several starts, keep the lowest objective)")
    ap.add_argument("--shipped", action="store_true",
                    help="start from the FIT_* values model/params.c ships and the corpus "
                         "topologies' <param> figures (TOPO_GROUPS) instead of START's (with "
                         "--sweeps 0: the shipped model's objective)")
    ap.add_argument("--only", action="append", default=[], metavar="KEY",
                    help="descend along these keys only, the others held at their start "
                         "(GROUP:KEY for a group's figures: slingshot, grace, ampere, hopper)")
    ap.add_argument("--limit", type=int, default=LIMIT, metavar="BYTES",
                    help="the largest message size the objective takes (default 8 MiB)")
    a = ap.parse_args()
    LIMIT = a.limit
    _TMP = tempfile.mkdtemp(prefix="fit_nccl.")
    t0 = time.time()
    vals = {k: v for k, _, v, _, _, _ in START}
    figs = start_figs()
    every = [g + ":" + k for g, f in figs.items() for k in f] + list(vals)

    def split_key(k):
        """(group, key) of a command-line key; group None for START's keys."""
        g, _, key = k.partition(":")
        return (g, key) if key and g in figs else (None, k)

    if a.shipped:
        shipped = shipped_fits()
        for k, macro, *_ in START:
            vals[k] = shipped.get(macro, vals[k])
        for grp, table in GEN_GROUPS:
            for k, macro, *_ in table:
                figs[grp][k] = shipped.get(macro, figs[grp][k])
        for grp, topo, _, _ in TOPO_GROUPS:
            own = shipped_params(topo)
            for k in figs[grp]:
                figs[grp][k] = own.get(k, figs[grp][k])
    for kv in a.start:
        k, _, v = kv.partition("=")
        g, key = split_key(k)
        if k not in every:
            ap.error("--start %s: not a fitted key (%s)" % (k, ", ".join(every)))
        (figs[g] if g else vals)[key] = float(v)
    for k in a.only:
        if k not in every:
            ap.error("--only %s: not a fitted key (%s)" % (k, ", ".join(every)))
    descend = [k for k in every if not a.only or k in a.only]
    bounds = {k: (lo, hi) for k, _, _, lo, hi, _ in START}
    bounds.update({g + ":" + k: (lo, hi) for g, f in GROUPS.items() for k, _, lo, hi in f})
    shm_eff, shm_rows = fit_shm(a.commroof, vals, a.jobs)
    print("coll.eff.shm: %.3f (median of %d rows above 64 MiB)" % (shm_eff, shm_rows), flush=True)

    def obj(v, f):
        return objective(a.commroof, dict(v, **{SHM[0]: shm_eff}), f, a.jobs)

    best = obj(vals, figs)
    print("start: objective %.4f" % best, flush=True)
    steps = [2.0, 1.41, 1.19, 1.09]
    for sweep in range(a.sweeps):
        f = steps[min(sweep, len(steps) - 1)]
        for k in descend:
            g, key = split_key(k)
            for mult in (f, 1 / f):
                moved = False
                while True:
                    v = (figs[g] if g else vals)[key] * mult
                    lo, hi = bounds[k]
                    if not lo <= v <= hi:
                        break
                    tv = dict(vals)
                    tf = {x: dict(y) for x, y in figs.items()}
                    (tf[g] if g else tv)[key] = v
                    o = obj(tv, tf)
                    if o < best - 1e-5:
                        best, vals, figs, moved = o, tv, tf, True
                    else:
                        break
                if moved:
                    break
        print("sweep %d (x%.2f): objective %.4f (%.0f s)" % (sweep + 1, f, best, time.time() - t0),
              flush=True)

    print("\n/* BEGIN fit_nccl_corpus */")
    print('#define FIT_WHEN "%s"' % time.strftime("%Y-%m-%d", time.gmtime()))
    for k, macro, _, _, _, _ in START:
        print("#define %s %.3g" % (macro, vals[k]))
    print("#define %s %.3g" % (SHM[1], shm_eff))
    for grp, table in GEN_GROUPS:
        for k, macro, _, _, _ in table:
            print("/* the %s column of %s */" % (grp.capitalize(), k))
            print("#define %s %.3g" % (macro, figs[grp][k]))
    vals[SHM[0]] = shm_eff
    print("/* END fit_nccl_corpus */")
    for grp, _, files, systems in TOPO_GROUPS:
        print("\n%s (validate/corpus/topologies/%s):" % (systems, files))
        for k, v in figs[grp].items():
            print('  <param key="%s" value="%.3g" source="fitted: tools/fit_nccl_corpus.py '
                  '(%s of the fitting half)"/>' % (k, v, systems))
    print("\nnccl-tests#123 (n, measured us, predicted us):")
    for n, m, p in nt123(a.commroof, [(k, "%.6g" % v) for k, v in vals.items()],
                         host_one_channel(vals)):
        print("  %d  %6.2f  %6.2f" % (n, m, p))
    params = [(k, "%.6g" % v) for k, v in vals.items()]
    for half in ("fit", "check"):
        rows = collect(a.commroof, params, figs, a.jobs, half)
        rows = [r for r in rows if r["half"] == half]
        # a pre-Ampere GPU (the checking half's 2080 Ti) takes the fitted
        # figures here as <param>s, where model/params.c gives its generation
        # NCCL's tables: tools/corpus_eval.py with the pasted constants is
        # the shipped figure
        corpus_eval.print_table("%s half (with the -g N host term and coll.net.lat; pre-Ampere "
                                "GPUs as fitted, not as shipped)" % half,
                                corpus_eval.table(rows), False)
    for f in os.listdir(_TMP):
        os.unlink(os.path.join(_TMP, f))
    os.rmdir(_TMP)
    print("\n%.0f s" % (time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
