# SPDX-License-Identifier: MIT
"""The tracer's cost on whole PyTorch training steps (issue 16 item 3): what
a user pays end to end, where the loops of torch_launch.py measure one
operation at a time.

A GPT-style model in bf16 on one GPU, eager: embedding, LAYERS blocks
(layer_norm, qkv linear, scaled_dot_product_attention causal, projection,
layer_norm, MLP with GELU), a logits head and cross_entropy; backward;
AdamW (foreach). Per step a few hundred kernels. Two sizes:

  train_small  width 256, 2 layers, batch 4 x 128 tokens: launch-bound (the
               GPU idles between kernels; what the tracer adds on the host
               shows in full)
  train_large  width 1024, 4 layers, batch 8 x 1024 tokens: most kernels
               last tens of microseconds

Each size: 5 warm-up steps, then REPS loops of N steps, each loop timed from
its first launch to torch.cuda.synchronize(); one line per loop in
kernels/overhead's launch format ("launch op OP rep R calls N wall_us W
per_call_us P", a call = one training step), read by
traces/tracer/overhead_summary.py.

Usage: python3 torch_train.py [-n STEPS] [-r REPS] [--only small|large]
"""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        shape = (b, t, self.heads, d // self.heads)
        q, k, v = (z.view(shape).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Model(nn.Module):
    def __init__(self, vocab, d, layers, heads):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.emb(idx)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln(x))


SIZES = {  # name: (vocab, width, layers, heads, batch, tokens)
    "small": (4096, 256, 2, 4, 4, 128),
    "large": (32000, 1024, 4, 16, 8, 1024),
}


def run(name, steps, reps):
    vocab, d, layers, heads, batch, tokens = SIZES[name]
    dev = torch.device("cuda")
    torch.manual_seed(0)
    model = Model(vocab, d, layers, heads).to(dev, torch.bfloat16)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=True)
    idx = torch.randint(0, vocab, (batch, tokens), device=dev)
    tgt = torch.randint(0, vocab, (batch, tokens), device=dev)

    def step():
        logits = model(idx)
        loss = F.cross_entropy(logits.view(-1, vocab).float(), tgt.view(-1))
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    for _ in range(5):
        step()
    torch.cuda.synchronize()
    for r in range(reps):
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
        us = (time.perf_counter() - t0) * 1e6
        print(f"launch op train_{name} rep {r} calls {steps} wall_us {us:.1f} "
              f"per_call_us {us / steps:.3f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=50)
    ap.add_argument("-r", type=int, default=3)
    ap.add_argument("--only", choices=sorted(SIZES))
    a = ap.parse_args()
    torch.cuda.init()
    for name in SIZES:
        if a.only in (None, name):
            run(name, a.n, a.r)


if __name__ == "__main__":
    main()
