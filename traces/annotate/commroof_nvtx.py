# SPDX-License-Identifier: MIT
"""commroof_nvtx: annotate Python code that is not PyTorch for `commroof roofline`.

Each annotated region becomes an NVTX range named "cr:<op> key=value ...": a
catalog operator (`commroof op list`: gemm, elementwise, memcpy, attention,
...) and its parameters as `commroof op <op>` takes them. You give shapes,
never FLOPs or bytes: commroof derives those from its operator catalog when
it reads the trace. The GPU work launched inside a range is one call of the
operator (trace with CUDA_LAUNCH_BLOCKING=1, or synchronize before the range
closes, so that the work runs inside it). A range around N repetitions of
the call gives iters=N: commroof counts N calls, each the range's device
time / N, however many kernels each launched (doc/roofline.md, "cr:
ranges"). name=LABEL is a label; every other key is a parameter of the
operator.

    import commroof_nvtx as cr

    with cr.range("gemm", m=4096, n=4096, k=4096, dtype="bf16"):
        c = a @ b                    # cupy, jax, numba, a ctypes kernel, ...
        stream.synchronize()
    cr.push("elementwise", elems=1 << 24, reads=2, writes=1, flops_per=1)
    launch_add(x, y, out)
    cr.pop()
    with cr.range("gemm", m=4096, n=4096, k=4096, dtype="bf16", iters=10):
        for _ in range(10):          # 10 calls, each a tenth of the range
            c = a @ b
        stream.synchronize()

    commroof trace -o out -- python3 app.py && commroof roofline out --topo h200-1

No dependency. NVTX v3 is header-only, so Python needs a library that
exports nvtxRangePushA/nvtxRangePop; this module takes the first of:
  1. torch.cuda.nvtx, when torch is already imported (it is never imported
     here: that would initialise far more than a range needs);
  2. the `nvtx` package, when it is already imported;
  3. libnvToolsExt.so.1 (CUDA 10-12) or libnvtx3interop.so.1 (CUDA 13)
     through ctypes (each loads the tool named by NVTX_INJECTION64_PATH,
     which `commroof trace` sets, exactly as a C program's nvtx3 header
     does): $COMMROOF_NVTX_LIB, then the loader's search path, then
     $CUDA_HOME/lib64 and /usr/local/cuda/lib64.
With none of them the functions do nothing and `backend()` says "none".
"""
import ctypes
import os
import sys
from contextlib import contextmanager

__all__ = ["push", "pop", "range", "name", "backend"]

_MAX = 256  # the tracer keeps 256 bytes of a range's name
_impl = None


def _load():
    global _impl
    if _impl is not None:
        return _impl
    torch = sys.modules.get("torch")
    if torch is not None and getattr(torch, "cuda", None) is not None:
        nv = torch.cuda.nvtx
        _impl = ("torch.cuda.nvtx", nv.range_push, nv.range_pop)
        return _impl
    nvtx_mod = sys.modules.get("nvtx")
    if nvtx_mod is not None and hasattr(nvtx_mod, "push_range"):
        _impl = ("nvtx", lambda s: nvtx_mod.push_range(s), lambda: nvtx_mod.pop_range())
        return _impl
    # CUDA 13 ships no libnvToolsExt; its libnvtx3interop exports the same
    # functions and loads NVTX_INJECTION64_PATH's tool as well.
    names = ("libnvToolsExt.so.1", "libnvtx3interop.so.1")
    cands = [os.environ.get("COMMROOF_NVTX_LIB"), *names, "libnvToolsExt.so"]
    for home in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if home:
            cands += [os.path.join(home, "lib64", n) for n in names]
    for c in cands:
        if not c:
            continue
        try:
            lib = ctypes.CDLL(c)
            lib.nvtxRangePushA.argtypes = [ctypes.c_char_p]
            lib.nvtxRangePushA.restype = ctypes.c_int
            lib.nvtxRangePop.restype = ctypes.c_int
        except (OSError, AttributeError):
            continue
        _impl = ("ctypes:" + c, lambda s: lib.nvtxRangePushA(s.encode("utf-8")), lib.nvtxRangePop)
        return _impl
    _impl = ("none", lambda s: -1, lambda: -1)
    return _impl


def _word(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    s = str(v)
    if not s or any(ch.isspace() for ch in s):
        raise ValueError(f"commroof_nvtx: value {v!r} is empty or has a space")
    return s


def _key(k):
    # a key with a space or '=' would read as other pairs ("m=1 n")
    if not k or "=" in k or any(ch.isspace() for ch in k):
        raise ValueError(f"commroof_nvtx: key {k!r} is empty or has a space or '='")
    return k


def name(op, **params):
    """The range name "cr:<op> key=value ..." (keys in the order given)."""
    if not op or any(ch.isspace() for ch in op):
        raise ValueError(f"commroof_nvtx: operator {op!r} is empty or has a space")
    s = "cr:" + op + "".join(f" {_key(k)}={_word(v)}" for k, v in params.items())
    if len(s.encode("utf-8")) >= _MAX:
        raise ValueError(f"commroof_nvtx: range name over {_MAX - 1} bytes: {s[:60]}...")
    return s


def push(op, **params):
    """Opens the range of operator op with its parameters on this thread."""
    return _load()[1](name(op, **params))


def pop():
    """Closes the innermost range this thread opened."""
    return _load()[2]()


@contextmanager
def range(op, **params):  # noqa: A001 (the name users expect)
    """`with range("gemm", m=..., n=..., k=..., dtype="bf16"):` opens and closes one range."""
    push(op, **params)
    try:
        yield
    finally:
        pop()


def backend():
    """Which library pushes the ranges: "torch.cuda.nvtx", "nvtx", "ctypes:<lib>", "none"."""
    return _load()[0]
