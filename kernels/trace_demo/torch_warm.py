# SPDX-License-Identifier: MIT
"""torch_warm: plain PyTorch kernels timed back to back, for `commroof check`.

Issue 15's case: eager PyTorch elementwise, reduction, normalisation, copy
and GEMM kernels on 4-16 MiB tensors, each timed the way benchmark harnesses
time them, back to back: 20 calls captured in a CUDA graph and replayed
between two CUDA events (per call = elapsed / calls: the GPU's time without
launch gaps, the strictest case), and as N eager calls between two events
(eager_loop_us: what a harness without graphs sees, often the host's launch
rate). The tensors stay in the 60 MiB L2 from one call to the next. The same kernels are also timed cold: before every call a 512 MiB
buffer is written (it evicts the L2), and the call alone sits between two
events; the median of the samples.

Each kernel becomes a `commroof check --measured-json` entry (op
elementwise, memcpy or gemm) whose parameters are the traffic the kernel
must move at least (tensors read and written once, reductions writing
nothing, FLOPs counted once per element): a lower bound on its work, so
its bound stays a bound. Two files: OUT_DIR/warm.json and OUT_DIR/cold.json
(judged with --cold), plus OUT_DIR/env.json (torch, CUDA, GPU).

Usage (the lead runs it on the lent H200 or H100; --topo names the
topology the entries are checked against, by default the shipped one of
that GPU: h200-1, hgx-h100-8):
  python3 kernels/trace_demo/torch_warm.py OUT_DIR [--iters N] [--reps N] [--topo NAME]
  commroof check --measured-json OUT_DIR/warm.json
  commroof check --measured-json OUT_DIR/cold.json --cold
"""
import json
import os
import sys

MIB = 1 << 20


def args():
    a = sys.argv[1:]
    if not a or a[0].startswith("-"):
        sys.exit("usage: torch_warm.py OUT_DIR [--iters N] [--reps N] [--topo NAME]")
    o = {"out": a[0], "iters": 200, "reps": 40, "topo": None}
    i = 1
    while i < len(a):
        if a[i] in ("--iters", "--reps") and i + 1 < len(a):
            o[a[i][2:]] = int(a[i + 1])
            i += 1
        elif a[i] == "--topo" and i + 1 < len(a):
            o["topo"] = a[i + 1]
            i += 1
        else:
            sys.exit(f"torch_warm: unknown option {a[i]}")
        i += 1
    return o


def kernels(torch, mib):
    """(name, fn, check op, params) for tensors of `mib` MiB. Elementwise
    params: dtype, elems, tensors read / written per element, FLOPs per
    element (commroof op elementwise)."""
    F = torch.nn.functional
    dev = torch.device("cuda", 0)
    g = torch.Generator(device=dev).manual_seed(0)
    n32 = mib * MIB // 4  # fp32 elements
    n16 = mib * MIB // 2  # bf16 elements

    def r32(n=n32):
        return torch.rand(n, device=dev, generator=g) + 0.5

    def r16(n=n16):
        return (torch.rand(n, device=dev, generator=g) + 0.5).to(torch.bfloat16)

    a, b, c, o = r32(), r32(), r32(), r32()
    h, h2, ho = r16(), r16(), r16()
    cond = a > 1.0
    rows = 4096
    m2 = a.view(rows, -1)  # fp32 rows x cols
    mh = h.view(rows, -1)  # bf16 rows x cols
    cols16 = mh.shape[1]
    w16 = torch.ones(cols16, device=dev, dtype=torch.bfloat16)
    b16 = torch.zeros(cols16, device=dev, dtype=torch.bfloat16)
    half1, half2 = a[: n32 // 2], b[: n32 // 2]
    emb = r16().view(-1, 1024)
    # every row once, in random order: a gather that reads each row of emb
    # (random indices repeat rows, and a repeated row is no traffic the
    # kernel must move, so "reads 1" would not be a lower bound)
    idx = torch.randperm(emb.shape[0], device=dev, generator=g)
    sq = int((n16) ** 0.5) // 2  # a square bf16 GEMM whose A is a quarter of the size
    ga, gb = r16(sq * sq).view(sq, sq), r16(sq * sq).view(sq, sq)

    def ew(dtype, elems, reads, writes, flops):
        return "elementwise", {"dtype": dtype, "elems": elems, "reads": reads,
                               "writes": writes, "flops_per": flops}

    f32 = lambda rd, wr, fl: ew("fp32", n32, rd, wr, fl)  # noqa: E731
    b16e = lambda rd, wr, fl: ew("bf16", n16, rd, wr, fl)  # noqa: E731
    ks = [
        ("copy_", lambda: o.copy_(a), "memcpy", {"bytes": n32 * 4, "kind": "d2d"}),
        ("clone", lambda: a.clone(), "memcpy", {"bytes": n32 * 4, "kind": "d2d"}),
        ("add", lambda: torch.add(a, b, out=o), *f32(2, 1, 1)),
        ("sub", lambda: torch.sub(a, b, out=o), *f32(2, 1, 1)),
        ("mul", lambda: torch.mul(a, b, out=o), *f32(2, 1, 1)),
        ("div", lambda: torch.div(a, b, out=o), *f32(2, 1, 1)),
        ("maximum", lambda: torch.maximum(a, b, out=o), *f32(2, 1, 1)),
        ("add_", lambda: o.add_(b), *f32(2, 1, 1)),
        ("triad", lambda: torch.add(a, b, alpha=2.0, out=o), *f32(2, 1, 2)),
        ("addcmul", lambda: torch.addcmul(a, b, c, value=0.5, out=o), *f32(3, 1, 3)),
        ("lerp", lambda: torch.lerp(a, b, 0.25, out=o), *f32(2, 1, 2)),
        ("where", lambda: torch.where(cond, a, b, out=o), *f32(2, 1, 0)),
        ("mul_scalar", lambda: torch.mul(a, 3.0, out=o), *f32(1, 1, 1)),
        ("neg", lambda: torch.neg(a, out=o), *f32(1, 1, 1)),
        ("abs", lambda: torch.abs(a, out=o), *f32(1, 1, 1)),
        ("relu", lambda: torch.relu(a), *f32(1, 1, 1)),
        ("gelu", lambda: F.gelu(a), *f32(1, 1, 1)),
        ("silu", lambda: F.silu(a), *f32(1, 1, 1)),
        ("sigmoid", lambda: torch.sigmoid(a, out=o), *f32(1, 1, 1)),
        ("tanh", lambda: torch.tanh(a, out=o), *f32(1, 1, 1)),
        ("exp", lambda: torch.exp(a, out=o), *f32(1, 1, 1)),
        ("log", lambda: torch.log(a, out=o), *f32(1, 1, 1)),
        ("sqrt", lambda: torch.sqrt(a, out=o), *f32(1, 1, 1)),
        ("rsqrt", lambda: torch.rsqrt(a, out=o), *f32(1, 1, 1)),
        ("clamp", lambda: torch.clamp(a, 0.6, 1.2, out=o), *f32(1, 1, 1)),
        ("pow2", lambda: torch.pow(a, 2, out=o), *f32(1, 1, 1)),
        ("fill_", lambda: o.fill_(1.5), *f32(0, 1, 0)),
        ("zero_", lambda: o.zero_(), *f32(0, 1, 0)),
        # a's n32 fp32 elements: 4 B read (two bf16 widths), 2 B written each
        ("to_bf16", lambda: a.to(torch.bfloat16), *ew("bf16", n32, 2, 1, 0)),
        ("to_fp32", lambda: h.to(torch.float32), *b16e(1, 2, 0)),  # 2 B read, 4 B written
        ("add_bf16", lambda: torch.add(h, h2, out=ho), *b16e(2, 1, 1)),
        ("sum", lambda: a.sum(), *f32(1, 0, 1)),
        ("mean", lambda: a.mean(), *f32(1, 0, 1)),
        ("amax", lambda: a.amax(), *f32(1, 0, 1)),
        ("sum_rows", lambda: m2.sum(dim=1), *f32(1, 0, 1)),
        ("cumsum", lambda: m2.cumsum(dim=1), *f32(1, 1, 1)),
        ("softmax", lambda: torch.softmax(m2, dim=1), *f32(1, 1, 1)),
        ("log_softmax", lambda: torch.log_softmax(m2, dim=1), *f32(1, 1, 1)),
        ("softmax_bf16", lambda: torch.softmax(mh, dim=1), *b16e(1, 1, 1)),
        ("layer_norm_bf16", lambda: F.layer_norm(mh, (cols16,), w16, b16), *b16e(1, 1, 1)),
        ("rms_norm_bf16", lambda: F.rms_norm(mh, (cols16,), w16), *b16e(1, 1, 1)),
        ("cat", lambda: torch.cat([half1, half2]), *f32(1, 1, 0)),
        ("transpose_contig", lambda: m2.t().contiguous(), *f32(1, 1, 0)),
        ("embedding", lambda: F.embedding(idx, emb), *b16e(1, 1, 0)),
        ("index_select", lambda: torch.index_select(emb, 0, idx), *b16e(1, 1, 0)),
        ("mm_bf16", lambda: torch.mm(ga, gb), "gemm",
         {"m": sq, "n": sq, "k": sq, "dtype": "bf16"}),
    ]
    return ks


def time_loop(torch, fn, iters):
    """N eager calls back to back between two events: what a harness
    without CUDA graphs measures (the host's launch rate can bind)."""
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = None
    for _ in range(3):  # three loops, the fastest
        s.record()
        for _ in range(iters):
            fn()
        e.record()
        e.synchronize()
        us = s.elapsed_time(e) * 1000.0 / iters
        best = us if best is None else min(best, us)
    return best


def time_graph(torch, fn, per_graph=20, replays=10):
    """The GPU's own time per call back to back: per_graph calls captured
    in one CUDA graph (no launch gaps), replayed between two events."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up on a side stream (PyTorch's CUDA graph recipe)
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(per_graph):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = None
    for _ in range(3):
        s.record()
        for _ in range(replays):
            graph.replay()
        e.record()
        e.synchronize()
        us = s.elapsed_time(e) * 1000.0 / (per_graph * replays)
        best = us if best is None else min(best, us)
    del graph
    return best


def topology_of(gpu):
    """The shipped topology whose GPU model the entries are checked
    against: the lent H200 and H100 machines; any other GPU names its own."""
    for mark, topo in (("H200", "h200-1"), ("H100", "hgx-h100-8")):
        if mark in gpu:
            return topo
    sys.exit(f"torch_warm: no shipped topology known for \"{gpu}\": give --topo NAME or FILE")


def time_cold(torch, fn, reps, flush):
    fn()
    torch.cuda.synchronize()
    xs = []
    for _ in range(reps):
        flush.fill_(reps)  # 512 MiB written: the L2 holds none of fn's tensors
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        xs.append(s.elapsed_time(e) * 1000.0)
    xs.sort()
    return xs[len(xs) // 2]


def main():
    o = args()
    import torch

    topo = o["topo"] or topology_of(torch.cuda.get_device_name(0))
    os.makedirs(o["out"], exist_ok=True)
    flush = torch.empty(512 * MIB // 4, device="cuda", dtype=torch.float32)
    warm, cold = [], []
    for mib in (4, 8, 16):
        for name, fn, op, params in kernels(torch, mib):
            tl = time_loop(torch, fn, o["iters"])
            tw = time_graph(torch, fn)
            tc = time_cold(torch, fn, o["reps"], flush)
            for lst, t, how in ((warm, tw, "warm"), (cold, tc, "cold")):
                e = {"name": f"{name}_{mib}MiB_{how}", "op": op, "topo": topo,
                     "params": params, "measured_us": round(t, 4)}
                if how == "warm":
                    e["eager_loop_us"] = round(tl, 4)
                lst.append(e)
            print(f"{name:18s} {mib:3d} MiB  graph {tw:9.3f} us  eager loop {tl:9.3f} us"
                  f"  cold {tc:9.3f} us", flush=True)
        torch.cuda.empty_cache()
    for fname, lst in (("warm.json", warm), ("cold.json", cold)):
        with open(os.path.join(o["out"], fname), "w") as f:
            json.dump(lst, f, indent=1)
    env = {"torch": torch.__version__, "cuda": torch.version.cuda,
           "gpu": torch.cuda.get_device_name(0), "topo": topo, "iters": o["iters"],
           "reps": o["reps"]}
    with open(os.path.join(o["out"], "env.json"), "w") as f:
        json.dump(env, f, indent=1)
    print(f"torch_warm: {len(warm)} kernels x 2 (warm, cold) -> {o['out']}")


if __name__ == "__main__":
    main()
