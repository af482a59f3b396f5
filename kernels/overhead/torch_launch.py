# SPDX-License-Identifier: MIT
"""The tracer's cost on launch-bound PyTorch loops, as a user saw it on the
H200 (issue 16: a 256-element torch.add 6.7 -> 8.9 us per call under the
tracer, a 4 KiB device copy 7.0 -> 11.2 us, a 16 MiB copy loop +30%).

Back to back on the current stream, N calls (default 10,000) of each
operation, REPS loops each, then torch.cuda.synchronize(); prints one line per
loop in kernels/overhead's launch format ("launch op OP rep R calls N wall_us
W per_call_us P"), read by traces/tracer/overhead_summary.py:

  torch_add256   c = a + b, 256 float32 elements (one small kernel)
  torch_copy4k   dst.copy_(src), 4 KiB, device to device
  torch_copy16m  dst.copy_(src), 16 MiB, device to device

Usage: python3 torch_launch.py [-n CALLS] [-r REPS]
"""
import argparse
import time

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=10000)
    ap.add_argument("-r", type=int, default=3)
    args = ap.parse_args()
    torch.cuda.init()
    dev = torch.device("cuda")
    a = torch.rand(256, device=dev)
    b = torch.rand(256, device=dev)
    s4 = torch.empty(1024, dtype=torch.float32, device=dev)
    d4 = torch.empty_like(s4)
    s16 = torch.empty(4 << 20, dtype=torch.float32, device=dev)
    d16 = torch.empty_like(s16)
    ops = {
        "torch_add256": lambda: a + b,
        "torch_copy4k": lambda: d4.copy_(s4),
        "torch_copy16m": lambda: d16.copy_(s16),
    }
    for name, fn in ops.items():
        for _ in range(100):  # warm-up
            fn()
        torch.cuda.synchronize()
        for r in range(args.r):
            t0 = time.perf_counter()
            for _ in range(args.n):
                fn()
            torch.cuda.synchronize()
            t1 = time.perf_counter()
            us = (t1 - t0) * 1e6
            print(f"launch op {name} rep {r} calls {args.n} wall_us {us:.1f} "
                  f"per_call_us {us / args.n:.3f}", flush=True)


if __name__ == "__main__":
    main()
