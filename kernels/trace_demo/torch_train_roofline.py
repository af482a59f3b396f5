# SPDX-License-Identifier: MIT
"""torch_train_roofline: an eager PyTorch training step for `commroof roofline`.

torch_roofline.py's program runs forward only; a user who traces a
training step gets the backward and optimizer operators too. This is a
small bf16 transformer block (embedding, layer_norm, linear, causal
scaled_dot_product_attention, gelu MLP, a vocabulary head with
cross_entropy) trained with AdamW (PyTorch's default foreach
implementation), in two passes:

  1. traced: ITERS training steps (forward, backward, optimizer step)
     inside torch.autograd.profiler.emit_nvtx(record_shapes=True), with
     CUDA_LAUNCH_BLOCKING=1 (set before torch loads CUDA) so that each
     kernel runs inside the range of the operator that launched it;
  2. CUDA events, in a child process without the tracer: the backward
     operators the step runs, each called alone through torch.ops.aten with
     the step's shapes, REPS times behind a torch.cuda._sleep() so that the
     events time the GPU and not the launch; medians to OUT.json for
     tools/roofline_vs_events.py. An operator this torch build does not
     take as written is left out with the reason (printed and in OUT.json).

Usage (the lead runs it on the H200):
  commroof trace -o DIR -- python3 kernels/trace_demo/torch_train_roofline.py OUT.json
  commroof roofline DIR --topo h200-1 --json > roofline.json
  python3 tools/roofline_vs_events.py roofline.json OUT.json

Options: --iters N (traced steps, default 10), --reps N (event samples per
operator, default 50), --events-only (pass 2 alone; what the child runs),
--amp-fused (the traced pass only, as mixed-precision training runs: fp32
weights under torch.autocast(bfloat16), AdamW(fused=True)).
"""
import json
import os
import sys

from event_timing import parse_args, run_events_child, time_call

B, S, D, H = 4, 1024, 1024, 16  # batch, sequence, width, heads (head_dim 64)
HD = D // H
V = 32000  # embedding rows
VH = 8192  # vocabulary of the head (cross_entropy)
FF = 4 * D


def model(torch, dtype=None):
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(V, D)
            self.ln1 = nn.LayerNorm(D)
            self.qkv = nn.Linear(D, 3 * D)
            self.proj = nn.Linear(D, D)
            self.ln2 = nn.LayerNorm(D)
            self.up = nn.Linear(D, FF)
            self.down = nn.Linear(FF, D)
            self.head = nn.Linear(D, VH, bias=False)

        def forward(self, ids, target):
            h = self.emb(ids)
            q, k, v = self.qkv(self.ln1(h)).view(B, S, 3, H, HD).permute(2, 0, 3, 1, 4)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            h = h + self.proj(a.transpose(1, 2).reshape(B, S, D))
            h = h + self.down(F.gelu(self.up(self.ln2(h))))
            logits = self.head(h).view(B * S, VH)
            return F.cross_entropy(logits, target.view(B * S))

    dev = torch.device("cuda", 0)
    torch.manual_seed(0)
    m = Block().to(dev, dtype or torch.bfloat16)
    ids = torch.randint(0, V, (B, S), device=dev)
    target = torch.randint(0, VH, (B, S), device=dev)
    return m, ids, target


def traced_pass(torch, o):
    amp = o["amp_fused"]
    m, ids, target = model(torch, torch.float32 if amp else None)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4, fused=True if amp else None)

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            loss = m(ids, target)
        loss.backward()
        opt.step()

    for _ in range(3):  # warm-up: cuBLAS handles, kernel selection, optimizer state
        step()
    torch.cuda.synchronize()
    with torch.autograd.profiler.emit_nvtx(record_shapes=True):
        for _ in range(o["iters"]):
            step()
    torch.cuda.synchronize()


def backward_ops(torch):
    """(name, aten op, its tensor inputs' shapes, fn) of the backward
    operators the step runs, with the step's shapes and types."""
    dev = torch.device("cuda", 0)
    bf, f32 = torch.bfloat16, torch.float32
    g = torch.Generator(device=dev).manual_seed(0)
    aten = torch.ops.aten

    def r(*shape, dtype=bf):
        return torch.randn(*shape, device=dev, dtype=dtype, generator=g)

    x, gx = r(B, S, D), r(B, S, D)
    w, b = r(D), r(D)
    mean, rstd = r(B, S, 1, dtype=f32), r(B, S, 1, dtype=f32).abs() + 1
    u, gu = r(B, S, FF), r(B, S, FF)
    lp = torch.log_softmax(r(B * S, VH), -1)
    glp = r(B * S, VH)
    tgt = torch.randint(0, VH, (B * S,), device=dev, generator=g)
    ids = torch.randint(0, V, (B, S), device=dev, generator=g)
    one, n = torch.ones((), device=dev, dtype=bf), torch.tensor(float(B * S), device=dev, dtype=bf)
    # attention's backward: autograd.grad of one forward kept (retain_graph)
    q, kk, vv = (r(B, H, S, HD).requires_grad_() for _ in range(3))
    o = torch.nn.functional.scaled_dot_product_attention(q, kk, vv, is_causal=True)
    go = r(B, H, S, HD)
    # the optimizer's lists: the model's parameter shapes (AdamW's foreach ops)
    m, _, _ = model(torch)
    shapes = [p.shape for p in m.parameters()]
    lists = [[r(*sh) for sh in shapes] for _ in range(3)]
    return [
        ("sdpa_bwd", ["aten::_cudnn_attention_backward",
                      "aten::_scaled_dot_product_cudnn_attention_backward",
                      "aten::_flash_attention_backward",
                      "aten::_scaled_dot_product_flash_attention_backward"], None,
         lambda: torch.autograd.grad(o, (q, kk, vv), go, retain_graph=True)),
        ("foreach_addcdiv", "aten::_foreach_addcdiv_", None,
         lambda: torch._foreach_addcdiv_(lists[0], lists[1], lists[2], 1e-4)),
        ("foreach_lerp", "aten::_foreach_lerp_", None,
         lambda: torch._foreach_lerp_(lists[0], lists[1], 0.1)),
        ("foreach_sqrt", "aten::_foreach_sqrt", None, lambda: torch._foreach_sqrt(lists[2])),
        ("layer_norm_bwd", "aten::native_layer_norm_backward",
         [[B, S, D], [B, S, D], [B, S, 1], [B, S, 1], [D], [D]],
         lambda: aten.native_layer_norm_backward(gx, x, [D], mean, rstd, w, b,
                                                 [True, True, True])),
        ("gelu_bwd", "aten::gelu_backward", [[B, S, FF], [B, S, FF]],
         lambda: aten.gelu_backward(gu, u)),
        ("log_softmax_bwd", "aten::_log_softmax_backward_data", [[B * S, VH], [B * S, VH]],
         lambda: aten._log_softmax_backward_data(glp, lp, 1, bf)),
        ("nll_loss_bwd", "aten::nll_loss_backward", [[B * S, VH], [B * S]],
         lambda: aten.nll_loss_backward(one, lp, tgt, None, 1, -100, n)),
        ("embedding_bwd", "aten::embedding_dense_backward", [[B, S, D], [B, S]],
         lambda: aten.embedding_dense_backward(gx, ids, V, -1, False)),
        ("bias_grad_sum", "aten::sum", [[B * S, FF]], lambda: gu.view(B * S, FF).sum(0)),
    ]


def events_pass(torch, o):
    res, skipped = [], []
    for name, op, shapes, fn in backward_ops(torch):
        try:
            fn()  # a first call: this build may not take it as written
            torch.cuda.synchronize()
        except (RuntimeError, TypeError) as e:  # this build's signature differs
            skipped.append({"name": name, "aten": op, "why": (str(e).splitlines() or [""])[0][:200]})
            print(f"torch_train_roofline: {name} left out: {skipped[-1]['why']}")
            continue
        t = time_call(torch, fn, o["reps"])
        res.append({"name": name, "aten": op if isinstance(op, list) else [op],
                    "shapes": shapes, "reps": len(t),
                    "median_us": t[len(t) // 2], "min_us": t[0]})
    doc = {"program": "kernels/trace_demo/torch_train_roofline.py", "torch": torch.__version__,
           "device": torch.cuda.get_device_name(0), "dtype": "bf16",
           "B": B, "S": S, "D": D, "H": H, "ops": res, "skipped": skipped}
    with open(o["out"], "w") as f:
        json.dump(doc, f, indent=1)
    print(f"torch_train_roofline: {len(res)} operators timed with CUDA events -> {o['out']}")


def main():
    o = parse_args("torch_train_roofline.py", 10, ("amp-fused",))
    if not o["events_only"]:
        os.environ["CUDA_LAUNCH_BLOCKING"] = "1"  # before torch initialises CUDA
    import torch

    if not torch.cuda.is_available():
        print("torch_train_roofline: no CUDA device", file=sys.stderr)
        return 1
    if o["events_only"]:
        events_pass(torch, o)  # not inference_mode: sdpa_bwd needs autograd
        return 0
    traced_pass(torch, o)
    print(f"torch_train_roofline: {o['iters']} traced training steps (emit_nvtx, record_shapes)"
          + (", fp32 weights, bf16 autocast, fused AdamW" if o["amp_fused"] else ""))
    if o["amp_fused"]:
        return 0
    return run_events_child(__file__, o)

if __name__ == "__main__":
    sys.exit(main())
