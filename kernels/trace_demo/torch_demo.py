# SPDX-License-Identifier: MIT
"""torch_demo: a small PyTorch program for the tracer (traces/README.md).

bf16 and fp32 matmuls, host-to-device copies (pinned and pageable),
device-to-host, device-to-device, a memset-style fill, and NVTX ranges via
torch.cuda.nvtx, opened after CUDA is initialised (ranges opened earlier can
be lost: traces/README.md, known limits). With --nccl it also runs a one-rank
NCCL all-reduce so NCCL's own NVTX ranges appear in the trace.

Usage: python3 torch_demo.py [--nccl]
"""
import os
import sys

import torch


def main() -> int:
    use_nccl = "--nccl" in sys.argv[1:]
    if not torch.cuda.is_available():
        print("torch_demo: no CUDA device", file=sys.stderr)
        return 1
    torch.cuda.init()
    dev = torch.device("cuda", 0)
    torch.cuda.synchronize()

    nvtx = torch.cuda.nvtx
    nvtx.range_push("torch_demo")

    n = 4096
    with nvtx.range("h2d"):
        a_host = torch.randn(n, n, dtype=torch.float32).pin_memory()
        b_host = torch.randn(n, n, dtype=torch.float32)  # pageable
        a = a_host.to(dev, non_blocking=True)
        b = b_host.to(dev)

    with nvtx.range("matmul_fp32"):
        c = a @ b
    with nvtx.range("matmul_bf16 x4"):
        ab, bb = a.to(torch.bfloat16), b.to(torch.bfloat16)
        for _ in range(4):
            cb = ab @ bb
    with nvtx.range("d2d"):
        d = c.clone()
        d.zero_()  # a fill kernel
        e = torch.empty_like(c)
        e.copy_(c)
    with nvtx.range("d2h"):
        c_host = c.to("cpu")
        cb_host = cb.float().cpu()
    torch.cuda.synchronize()

    # Check one result against float64 on the CPU so the demo computes something real.
    ref = (a_host[:4].double() @ b_host.double())[:, :4]
    err = (c_host[:4, :4].double() - ref).norm() / ref.norm()
    if not err < 1e-2:  # tf32 may be on; fp32 lands far below this
        print(f"torch_demo: fp32 matmul relative error {err:.3g}", file=sys.stderr)
        return 1
    if not torch.isfinite(cb_host).all():
        print("torch_demo: bf16 matmul produced non-finite values", file=sys.stderr)
        return 1

    if use_nccl:
        import torch.distributed as dist

        os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
        try:
            with nvtx.range("nccl_allreduce"):
                dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29517",
                                        rank=0, world_size=1, device_id=dev)
                x = torch.ones(1 << 20, device=dev)
                for _ in range(3):
                    dist.all_reduce(x)
                torch.cuda.synchronize()
                dist.destroy_process_group()
        except Exception as ex:  # the demo's point is the trace, not NCCL
            print(f"torch_demo: NCCL part skipped: {ex}", file=sys.stderr)

    nvtx.range_pop()
    torch.cuda.synchronize()
    print(f"torch_demo: ok (fp32 rel err {err:.2e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
