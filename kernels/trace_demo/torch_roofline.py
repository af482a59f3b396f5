# SPDX-License-Identifier: MIT
"""torch_roofline: a small eager PyTorch program for `commroof roofline`.

A transformer-ish block in bf16 on one GPU: embedding, layer_norm, rms_norm,
linear (addmm), scaled_dot_product_attention (causal, flash), an explicit
attention (bmm, softmax, bmm), mul, add, a logits head with log_softmax,
copy_ (a strided KV-cache write and a contiguous copy), cat. It runs in two
passes:

  1. traced: ITERS iterations inside
     torch.autograd.profiler.emit_nvtx(record_shapes=True), with
     CUDA_LAUNCH_BLOCKING=1 (set here before torch loads CUDA) so that every
     kernel runs inside the range of the operator that launched it
     (doc/roofline.md: the trace has no launch records);
  2. CUDA events, in a child process without the tracer and without
     CUDA_LAUNCH_BLOCKING: each operator alone, REPS times, each call
     between two events recorded behind a torch.cuda._sleep() that keeps
     the stream busy, so the events see the GPU's time of the call and not
     the host's launch. Medians go to OUT.json with the operator PyTorch's
     innermost range will name and its input shapes, for
     tools/roofline_vs_events.py.

Usage (the lead runs it on the H200):
  commroof trace -o DIR -- python3 kernels/trace_demo/torch_roofline.py OUT.json
  commroof roofline DIR --topo h200-1 --json > roofline.json
  python3 tools/roofline_vs_events.py roofline.json OUT.json

Options: --iters N (traced iterations, default 20), --reps N (event samples
per operator, default 50), --events-only (pass 2 alone; what the child runs),
--extra (three more operators, from the audit of 2026-12-04: an fp8-to-bf16
conversion copy, a matmul of [1024, 1024] by [8, 1024, 1024], and a cat of
30 tensors; traces/h200-1/roofline-extra-2026-12-04), --async-launches
(pass 1 without CUDA_LAUNCH_BLOCKING, as a program usually runs: the trace
then says "launch_blocking":false and roofline's rows own kernels by their
start; traces/h100-1/launch-blocking-2026-12-06), --cuda-graph (pass 1
captures every operator of the events pass once into a torch.cuda.CUDAGraph
under emit_nvtx, then replays the graph ITERS times: the operators' ranges
are open at capture only, and roofline ties each replayed kernel to the
range that made its graph node; launches asynchronous, as capture needs).
"""
import json
import os
import sys

from event_timing import parse_args, run_events_child, time_call

B, S, D, H = 4, 1024, 1024, 16  # batch, sequence, width, heads (head_dim 64)
HD = D // H
V = 32000  # embedding rows
VH = 8192  # logits head width (log_softmax)
SE = 256  # sequence of the explicit (bmm + softmax) attention
FF = 4 * D


def build(torch, extra=False):
    """Weights and inputs; a list of (name, the innermost aten op (or the
    alternatives a build may have), its tensor inputs' shapes (None: the
    operator alone identifies the row), fn)."""
    dev = torch.device("cuda", 0)
    bf = torch.bfloat16
    g = torch.Generator(device=dev).manual_seed(0)

    def r(*shape):
        return torch.randn(*shape, device=dev, dtype=bf, generator=g) * 0.02

    F = torch.nn.functional
    ids = torch.randint(0, V, (B, S), device=dev, generator=g)
    emb = r(V, D)
    ln_w, ln_b = torch.ones(D, device=dev, dtype=bf), torch.zeros(D, device=dev, dtype=bf)
    w_qkv, b_qkv = r(3 * D, D), r(3 * D)
    w_o, b_o = r(D, D), r(D)
    w_up, b_up = r(FF, D), r(FF)
    w_gate = r(FF, D)
    w_dn, b_dn = r(D, FF), r(D)
    w_head = r(VH, D)
    x = r(B, S, D)
    xf = x.view(B * S, D)
    q = r(B, H, S, HD)
    k = r(B, H, S, HD)
    v = r(B, H, S, HD)
    qe = r(B * H, SE, HD)
    ke = r(B * H, HD, SE)
    ve = r(B * H, SE, HD)
    scores = r(B * H, SE, SE)
    h_up = r(B * S, FF)
    h_gate = r(B * S, FF)
    logits = r(B * S, VH)
    cache = torch.zeros(B, H, 2 * S, HD, device=dev, dtype=bf)
    dst = torch.empty_like(x)
    ca, cb = r(B, S, D // 2), r(B, S, D // 2)
    rms_w = torch.ones(D, device=dev, dtype=bf)

    ops = [
        # aten::embedding gathers rows through aten::index_select (innermost);
        # torch 2.11 on the H200 through aten::gather (other shapes:
        # tools/roofline_vs_events.py ALIASES)
        ("embedding", ["aten::index_select", "aten::embedding"], [[V, D], [B * S]],
         lambda: F.embedding(ids, emb)),
        ("layer_norm", "aten::native_layer_norm", [[B, S, D], [D], [D]],
         lambda: F.layer_norm(x, (D,), ln_w, ln_b)),
        ("qkv", "aten::addmm", [[3 * D], [B * S, D], [D, 3 * D]],
         lambda: F.linear(xf, w_qkv, b_qkv)),
        # the flash kernel's innermost range: _flash_attention_forward (q as
        # [B, S, H, HD]) where the build dispatches to it, else the sdpa op
        ("sdpa", ["aten::_flash_attention_forward",
                  "aten::_scaled_dot_product_flash_attention"], None,
         lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)),
        ("out_proj", "aten::addmm", [[D], [B * S, D], [D, D]], lambda: F.linear(xf, w_o, b_o)),
        ("residual", "aten::add", [[B, S, D], [B, S, D]], lambda: x + dst),
        ("up", "aten::addmm", [[FF], [B * S, D], [D, FF]], lambda: F.linear(xf, w_up, b_up)),
        ("gate", "aten::mm", [[B * S, D], [D, FF]], lambda: F.linear(xf, w_gate)),
        ("swiglu_mul", "aten::mul", [[B * S, FF], [B * S, FF]], lambda: h_up * h_gate),
        ("down", "aten::addmm", [[D], [B * S, FF], [FF, D]], lambda: F.linear(h_up, w_dn, b_dn)),
        ("scores_bmm", "aten::bmm", [[B * H, SE, HD], [B * H, HD, SE]],
         lambda: torch.bmm(qe, ke)),
        ("softmax", "aten::_softmax", [[B * H, SE, SE]], lambda: torch.softmax(scores, -1)),
        ("attn_bmm", "aten::bmm", [[B * H, SE, SE], [B * H, SE, HD]],
         lambda: torch.bmm(scores, ve)),
        ("head", "aten::mm", [[B * S, D], [D, VH]], lambda: F.linear(xf, w_head)),
        ("log_softmax", "aten::_log_softmax", [[B * S, VH]], lambda: F.log_softmax(logits, -1)),
        ("kv_cache_copy", "aten::copy_", [[B, H, S, HD], [B, H, S, HD]],
         lambda: cache[:, :, :S].copy_(k)),
        # a contiguous copy is a cudaMemcpy: its row has no element type
        ("copy", "aten::copy_", [[B, S, D], [B, S, D]], lambda: dst.copy_(x), None),
        ("cat", "aten::cat", [[B, S, D // 2], [B, S, D // 2]], lambda: torch.cat([ca, cb], -1)),
    ]
    if hasattr(F, "rms_norm"):  # torch >= 2.4
        ops.append(("rms_norm", "aten::rms_norm", [[B, S, D], [D]],
                    lambda: F.rms_norm(x, (D,), rms_w)))
    if extra:
        # a conversion copy names both element types in its kernel; the
        # bound takes the smaller (fp8: 1 byte read per element)
        x8 = x.to(torch.float8_e4m3fn)
        ops.append(("fp8_to_bf16", "aten::copy_", [[B, S, D], [B, S, D]],
                    lambda: x8.to(torch.bfloat16), "bf16"))
        # matmul broadcasting A over B's batch: torch 2.11 runs it as a bmm
        # of A expanded (the innermost range)
        a2, b3 = r(D, D), r(8, D, D)
        ops.append(("matmul_bcast", ["aten::bmm", "aten::matmul"], [[8, D, D], [8, D, D]],
                    lambda: torch.matmul(a2, b3)))
        # 30 tensors: more than the roofline reads a sizes list for ([])
        parts = [r(B, S, 32) for _ in range(30)]
        ops.append(("cat30", "aten::cat", [], lambda: torch.cat(parts, -1)))

    def block():
        """One pass of the block as a model would run it (the traced program)."""
        h = F.embedding(ids, emb)
        h = F.layer_norm(h, (D,), ln_w, ln_b)
        qkv = F.linear(h.view(B * S, D), w_qkv, b_qkv)
        qq, kk, vv = qkv.view(B, S, 3, H, HD).permute(2, 0, 3, 1, 4)
        cache[:, :, :S].copy_(kk)
        a = F.scaled_dot_product_attention(qq, kk, vv, is_causal=True)
        a = a.transpose(1, 2).reshape(B * S, D)
        h = h + F.linear(a, w_o, b_o).view(B, S, D)
        if hasattr(F, "rms_norm"):
            h = F.rms_norm(h, (D,), rms_w)
        up = F.linear(h.view(B * S, D), w_up, b_up)
        gt = F.linear(h.view(B * S, D), w_gate)
        h = h + F.linear(up * gt, w_dn, b_dn).view(B, S, D)
        s = torch.softmax(torch.bmm(qe, ke), -1)
        e = torch.bmm(s, ve)
        lp = F.log_softmax(F.linear(h.view(B * S, D), w_head), -1)
        dst.copy_(h)
        c = torch.cat([h[..., : D // 2], h[..., D // 2:]], -1)
        return lp, e, c

    return ops, block


def traced_pass(torch, o):
    ops, block = build(torch, o["extra"])
    with torch.inference_mode():
        for _ in range(3):  # warm-up: cuBLAS handles, kernel selection
            block()
        torch.cuda.synchronize()
        with torch.autograd.profiler.emit_nvtx(record_shapes=True):
            for _ in range(o["iters"]):
                block()
            # every operator of the events pass, once per iteration, so each
            # has a row with the same shapes as its event timing
            for _ in range(o["iters"]):
                for op in ops:
                    op[3]()
        torch.cuda.synchronize()


def graph_pass(torch, o):
    """Pass 1 with --cuda-graph: each operator once, captured (its ranges
    open at capture), then the graph replayed ITERS times."""
    ops, _ = build(torch, o["extra"])
    with torch.inference_mode():
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # warm-up on a side stream, as torch's docs ask
            for _ in range(3):
                for op in ops:
                    op[3]()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.autograd.profiler.emit_nvtx(record_shapes=True):
            with torch.cuda.graph(graph):
                for op in ops:
                    op[3]()
        torch.cuda.synchronize()
        for _ in range(o["iters"]):
            graph.replay()
        torch.cuda.synchronize()


def events_pass(torch, o):
    ops, _ = build(torch, o["extra"])
    res = []
    with torch.inference_mode():
        for name, aten, shapes, fn, *row_dtype in ops:
            t = time_call(torch, fn, o["reps"])
            res.append({"name": name, "aten": aten if isinstance(aten, list) else [aten],
                        "shapes": shapes, "reps": len(t),
                        "median_us": t[len(t) // 2], "min_us": t[0]})
            if row_dtype:  # the row's element type tells two rows apart
                res[-1]["row_dtype"] = row_dtype[0]
    doc = {"program": "kernels/trace_demo/torch_roofline.py", "torch": torch.__version__,
           "device": torch.cuda.get_device_name(0), "dtype": "bf16",
           "B": B, "S": S, "D": D, "H": H, "ops": res}
    with open(o["out"], "w") as f:
        json.dump(doc, f, indent=1)
    print(f"torch_roofline: {len(res)} operators timed with CUDA events -> {o['out']}")


def main():
    o = parse_args("torch_roofline.py", 20, ("extra", "async-launches", "cuda-graph"))
    if not o["events_only"] and not o["async_launches"] and not o["cuda_graph"]:
        os.environ["CUDA_LAUNCH_BLOCKING"] = "1"  # before torch initialises CUDA
    import torch

    if not torch.cuda.is_available():
        print("torch_roofline: no CUDA device", file=sys.stderr)
        return 1
    if o["events_only"]:
        events_pass(torch, o)
        return 0
    if o["cuda_graph"]:
        graph_pass(torch, o)
        print(f"torch_roofline: one CUDA graph captured under emit_nvtx, {o['iters']} replays")
    else:
        traced_pass(torch, o)
        print(f"torch_roofline: {o['iters']} traced iterations (emit_nvtx, record_shapes)")
    # pass 2 in a child: not traced, launches asynchronous again
    return run_events_child(__file__, o, ("extra",))

if __name__ == "__main__":
    sys.exit(main())
