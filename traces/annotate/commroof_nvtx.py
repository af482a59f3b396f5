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
operator. name(), push() and range() raise ValueError, naming the key and
what is accepted, for a name commroof would not read: a key outside
[a-z0-9_]+ or one the operator does not take, None (leave the parameter
out), True/False but for a switch, a count that is not whole or is over
2^53 - 1, an unknown element type, collective or choice, a size that is not
whole bytes from 1 to 1e15 (bare, or in B, KiB ... EiB, kB ... EB), iters=
not a whole number from 1 to 1e9 (rules of validate/roofline.c and model/ops_catalog.c).

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
  1. torch.cuda.nvtx, when torch is already imported and built with CUDA
     (it is never imported here: that would initialise far more than a
     range needs; a CPU-only torch's raises RuntimeError, and is passed
     over);
  2. the `nvtx` package, when it is already imported;
  3. libnvToolsExt.so.1 (CUDA 10-12) or libnvtx3interop.so.1 (CUDA 13)
     through ctypes (each loads the tool named by NVTX_INJECTION64_PATH,
     which `commroof trace` sets, exactly as a C program's nvtx3 header
     does): $COMMROOF_NVTX_LIB, then the loader's search path, then
     $CUDA_HOME/lib64 and /usr/local/cuda/lib64.
     A $COMMROOF_NVTX_LIB that cannot be loaded, or lacks the two
     functions, is warned about (warnings.warn), naming the one taken.
With none of them the functions do nothing and `backend()` says "none".
"""
import ctypes
import difflib
import math
import numbers
import os
import re
import sys
import warnings
from contextlib import contextmanager

__all__ = ["push", "pop", "range", "name", "backend"]

_MAX = 256  # the tracer keeps 256 bytes of a range's name
_impl = None


def _load():
    global _impl
    if _impl is not None:
        return _impl
    torch = sys.modules.get("torch")
    nv = getattr(getattr(torch, "cuda", None), "nvtx", None)
    # a torch built without CUDA (pip's CPU wheels) has torch.cuda.nvtx all
    # the same, whose functions raise RuntimeError ("NVTX functions not
    # installed"), and no torch._C._nvtx: every range raised in the
    # program (QA audit, session 51)
    if nv is not None and getattr(getattr(torch, "_C", None), "_nvtx", None) is not None:
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
    env_failed = None
    for i, c in enumerate(cands):
        if not c:
            continue
        try:
            lib = ctypes.CDLL(c)
            lib.nvtxRangePushA.argtypes = [ctypes.c_char_p]
            lib.nvtxRangePushA.restype = ctypes.c_int
            lib.nvtxRangePop.restype = ctypes.c_int
        except (OSError, AttributeError) as e:
            if i == 0:
                env_failed = str(e)
            continue
        _impl = ("ctypes:" + c, lambda s: lib.nvtxRangePushA(s.encode("utf-8")), lib.nvtxRangePop)
        break
    else:
        _impl = ("none", lambda s: -1, lambda: -1)
    # the library the user named and did not get: the ranges went through
    # another one, or nowhere, with nothing said (QA audit)
    if env_failed is not None:
        warnings.warn(f"commroof_nvtx: COMMROOF_NVTX_LIB={cands[0]!r} cannot be used "
                      f"({env_failed}); the ranges go through {_impl[0]!r} instead: name a "
                      "library that exports nvtxRangePushA and nvtxRangePop "
                      "(libnvToolsExt.so.1, or CUDA 13's libnvtx3interop.so.1)", stacklevel=3)
    return _impl


# What commroof's reader accepts (validate/roofline.c eval_cr_op,
# model/ops_catalog.c cr_op_param_set, validate/validate.c cr_vcase_parse),
# so that a name it would reject is refused here, when it is built, with
# the key and what would do. tests/check_annotate.sh holds these tables to
# `commroof op list --json` and `commroof op OP --json`.

# Each catalog operator's parameters (`commroof op list`).
_OPS = {
    "gemm": "dtype m n k batch",
    "memcpy": "bytes kind pinned",
    "elementwise": "dtype elems reads writes flops_per",
    "attention": "dtype batch seq heads kv_heads head_dim causal backward",
    "coll": "dtype bytes coll tp cp ep dp pp group order",
    "ag_gemm": "dtype m n k tp cp ep dp pp order",
    "gemm_rs": "dtype m n k tp cp ep dp pp order",
    "gemm_ar": "dtype m n k tp cp ep dp pp order",
    "sp_norm": "dtype m hidden norm tp cp ep dp pp order",
    "ring_attn": "dtype batch seq heads kv_heads head_dim causal tp cp ep dp pp split order",
    "ulysses": "dtype batch seq heads kv_heads head_dim causal tp cp ep dp pp order",
    "moe": "dtype tokens hidden ffn experts topk capacity skew tp cp ep dp pp order",
    "ddp": "dtype tokens params grad_dtype bucket tp cp ep dp pp order",
    "fsdp": "dtype tokens params grad_dtype tp cp ep dp pp order",
    "zero": "dtype params grad_dtype tp cp ep dp pp order",
    "pp_sendrecv": "dtype batch seq hidden tp cp ep dp pp order",
    "vocab_ce": "dtype tokens hidden vocab tp cp ep dp pp order",
    "gemv_ar": "dtype m n k tp cp ep dp pp order",
    "embedding": "dtype tokens hidden vocab tp cp ep dp pp order",
    "halo": "dtype nx ny channels halo px tp cp ep dp pp group order",
    "alltoallv": "dtype bytes skew tp cp ep dp pp group order",
}
_OPS = {op: tuple(ps.split()) for op, ps in _OPS.items()}

# crbench's families, whose cr: ranges validate reads (validate/families.c);
# any other operator name is the program's own: roofline skips its range
# (counted under the table) and lists its kernels by name with no bound, by
# design, and a warning where it is one slip from a known name
_FAMILIES = ("hbm", "ce", "mech", "gemm", "launch", "nccl", "p2p", "fused")
_WARNED = set()


def _warn_near(op):
    """Warns once per name for an operator that is neither the catalog's nor
    a crbench family's but close to one (gemmm, elementwize): commroof would
    list its range with no bound."""
    known = tuple(_OPS) + _FAMILIES
    if op in known or op in _WARNED:
        return
    near = difflib.get_close_matches(op, known, n=1, cutoff=0.8)
    if near:
        _WARNED.add(op)
        warnings.warn(f"commroof_nvtx: operator {op!r} is not commroof's (did you mean "
                      f"{near[0]!r}?): its range gets no bound", stacklevel=3)

_DIMS = ("tp", "cp", "ep", "dp", "pp")
# Each parameter's kind: a whole count, a decimal number, a byte size, an
# element type, a switch, one of a list, a word, the dimensions' order.
_KINDS = {
    "count": "m n k elems reads writes batch seq tokens hidden ffn heads kv_heads head_dim "
    "experts topk params vocab nx ny channels halo px tp cp ep dp pp",
    "real": "flops_per capacity skew",
    "bytes": "bytes bucket",
    "dtype": "dtype grad_dtype",
    "switch": "pinned causal backward",
    "word": "coll",
    "order": "order",
}
_KIND = {key: kind for kind, keys in _KINDS.items() for key in keys.split()}
_ENUMS = {"kind": ("d2d", "h2d", "d2h"), "norm": ("rms", "layer"), "group": _DIMS,
          "split": ("zigzag", "contiguous")}
for _k in _ENUMS:
    _KIND[_k] = "enum"
# counts that may be 0 (the whole group along x; a fill reads nothing, a
# reduction writes nothing)
_ZERO_OK = ("px", "reads", "writes")
# element types and their aliases, in any case, as cr_dtype_parse reads
# them (model/dtype.c): "BF16" was refused here while commroof read it
_DTYPES = ("fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4")
_DTYPE_ALIASES = ("float64", "double", "float32", "float", "bfloat16", "float16", "half",
                  "e4m3", "e5m2", "fp8e4m3", "uint8")
_SWITCH = ("yes", "no", "true", "false", "1", "0")
# coll=: the collectives cr_coll_parse knows (model/coll_names.c), in any
# case and without '_', '-' and ' ', and its aliases; another word was
# written into the range and refused by commroof in the row
_COLLS = ("allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce", "gather",
          "scatter", "sendrecv")
_COLL_ALIASES = ("ar", "ag", "rs", "a2a", "bcast", "p2p")
# bytes= with a unit: cr_units_parse's prefixes of a size (IEC, then SI;
# no submultiples) before "B" (model/units.c); "64Foo", "64mib" and
# "64GB/s" passed here
_BYTE_UNITS = tuple(p + "B" for p in ("Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "k", "K", "M", "G", "T",
                                      "P", "E", ""))
_BYTES_MAX = 1e15  # 1 PB, BYTES_MAX of model/ops_catalog.c
_COUNT_MAX = 2**53 - 1  # above it a double holds no whole number of its own
_ITERS_MAX = 10**9
_KEY_RE = re.compile(r"[a-z0-9_]+\Z")
# strtod's decimal numbers, no hex, inf or nan (cr_plain_number)
_NUM_TEXT = r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?"
_NUM_RE = re.compile(_NUM_TEXT + r"\Z")
_NUM_HEAD_RE = re.compile(_NUM_TEXT)


def _bad(key, v, accepted):
    raise ValueError(f"commroof_nvtx: {key}={v!r}: {accepted}")


def _plain(v):
    """v's text: a string without spaces, or a finite number (bool is no number)."""
    if isinstance(v, str):
        return v
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        return str(int(v))
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        x = float(v)
        return str(int(x)) if x.is_integer() and abs(x) < 2**63 else repr(x)
    return None


def _number(text):
    """The value of a number as commroof's reader reads one, else None."""
    if not _NUM_RE.match(text):
        return None
    x = float(text)
    # strtod answers ERANGE, which commroof refuses, where the number
    # underflows: "1e-400" (0 here) or "1e-310" (below the least normal)
    mantissa = re.split(r"[eE]", text)[0]
    if x == 0 and any(ch in "123456789" for ch in mantissa) or 0 < abs(x) < sys.float_info.min:
        return None
    return x if math.isfinite(x) else None


# an nccl-tests size, as cr_units_nccl_size reads one (model/units.c): an
# unsigned decimal number, then K, M, G or T in either case, powers of 1024
_NCCL_SIZE_RE = re.compile(r"(\+?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)([kKmMgGtT]?)\Z")


def _bytes(key, v):
    """bytes= or bucket=, as cr_op_param_set reads a size: an nccl-tests
    size (128M = 2^27, 64m), else a number and one of _BYTE_UNITS; whole
    bytes from 1 to 1e15 either way."""
    what = ("a whole number of bytes from 1 to 1e15, bare or with a unit (B, KiB ... EiB, "
            "kB ... EB), e.g. 1048576, \"128M\" = 2^27 or \"64MiB\"")
    t = _plain(v)
    if t is None:
        return _bad(key, v, what)
    m = _NCCL_SIZE_RE.match(t)
    x = _number(m.group(1)) if m else None
    if x is not None:
        x *= 1024.0 ** ("kmgt".index(m.group(4).lower()) + 1) if m.group(4) else 1
    else:
        m = _NUM_HEAD_RE.match(t)
        x = _number(m.group(0)) if m else None
        unit = t[m.end():] if m else ""  # no space: it would end the key=value pair
        scale = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50,
                 "Ei": 2**60}.get(unit[:2], None) if unit[2:] == "B" else None
        if scale is None and unit in _BYTE_UNITS:
            scale = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15,
                     "E": 1e18, "": 1}[unit[:-1]]
        if x is None or scale is None:
            return _bad(key, v, what)
        x *= scale
    if not (0 < x <= _BYTES_MAX and x == math.floor(x)):
        return _bad(key, v, what)
    return t


def _count(key, v, lo, hi, what):
    t = _plain(v)
    mult = 1
    if isinstance(v, str) and key != "iters" and v[-1:] in ("k", "K", "M", "G", "T"):
        suffix = v[-1]
        decimal = key == "params"  # 70G = 7e10 there; 128k = 131072 elsewhere
        if suffix == "T" and not decimal:
            return _bad(key, v, what)
        mult = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[suffix] if decimal else \
            {"k": 1024, "K": 1024, "M": 1 << 20, "G": 1 << 30}[suffix]
        t = v[:-1]
    x = _number(t) if t is not None else None
    if x is None or x * mult != math.floor(x * mult) or not lo <= x * mult <= hi:
        _bad(key, v, what)
    return _plain(v) if not isinstance(v, str) else v


def _value(op, key, v):
    """The text of parameter key's value v, or ValueError saying what would do."""
    if v is None:
        _bad(key, v, "leave a parameter out rather than pass None (commroof then takes the "
             "element type from the kernels' names or --dtype, a switch or factor from the "
             "catalog's defaults, and names a size left out in the row)")
    if key == "iters":
        return _count(key, v, 1, _ITERS_MAX,
                      f"the repetitions the range holds: a whole number from 1 to {_ITERS_MAX}")
    kind = _KIND.get(key) if op in _OPS else None
    if kind == "count":
        lo = 0 if key in _ZERO_OK else 1
        eg = ", \"70G\" = 7e10" if key == "params" else ""
        return _count(key, v, lo, _COUNT_MAX, f"a whole count from {lo} to {_COUNT_MAX} "
                      f"(2^53 - 1), e.g. 4096 or \"128k\" = 131072{eg}")
    if kind in ("real", "bytes"):
        t = _plain(v)
        x = _number(t) if t is not None else None
        if kind == "real" and (x is None or not 0 <= x <= 1e15):
            _bad(key, v, "a finite decimal number from 0 to 1e15, e.g. 1.25")
        if kind == "bytes":
            return _bytes(key, v)
        return t
    if kind == "dtype":
        if not isinstance(v, str) or v.lower() not in _DTYPES + _DTYPE_ALIASES:
            _bad(key, v, "an element type: " + " ".join(_DTYPES))
        return v
    if kind == "switch":
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, numbers.Integral) and v in (0, 1):
            return str(int(v))
        if not isinstance(v, str) or v.lower() not in _SWITCH:
            _bad(key, v, "True or False (yes or no)")
        return v
    if kind == "enum":
        if not isinstance(v, str) or v.lower() not in _ENUMS[key]:
            _bad(key, v, "one of " + " ".join(_ENUMS[key]))
        return v
    if kind == "order":
        # as parse_order reads it: in any case, one comma may end it
        t = v[:-1] if isinstance(v, str) and v.endswith(",") else v
        dims = t.lower().split(",") if isinstance(t, str) and t else None
        if not dims or any(d not in _DIMS for d in dims) or len(set(dims)) != len(dims):
            _bad(key, v, "each of tp, cp, ep, dp, pp at most once, inner to outer, separated "
                 "by commas, e.g. \"tp,cp,ep,dp,pp\"")
        return v
    if kind == "word" and not (isinstance(v, str) and
                               re.sub(r"[-_ ]", "", v.lower()) in _COLLS + _COLL_ALIASES):
        _bad(key, v, "a collective: " + " ".join(_COLLS) + " (or " + " ".join(_COLL_ALIASES)
             + "; in any case, with _ or - between words)")
    # a word: the label name=, and the keys of an operator that is not the
    # catalog's
    if isinstance(v, bool):
        if op in _OPS:
            _bad(key, v, "a word (True and False are only for switches: "
                 + ", ".join(k for k, kd in _KIND.items() if kd == "switch") + ")")
        return "yes" if v else "no"
    t = _plain(v)
    if t is None or (isinstance(v, numbers.Real) and not isinstance(v, numbers.Integral) and
                     not math.isfinite(float(v))):
        _bad(key, v, "a string, or a finite number")
    # a C0 control character reads as a space in commroof (the trace
    # reader's names are one to a line) and NUL ends the C string NVTX
    # gets: "a\x01b" split the pair, "a\x00b" lost the keys after it
    if not t or any(ch.isspace() or ord(ch) < 0x20 for ch in t):
        _bad(key, v, "a value that is not empty and has no space or control character")
    return t


def _key(op, k):
    if not _KEY_RE.match(k):
        raise ValueError(f"commroof_nvtx: key {k!r}: a key is lower-case letters, digits and _ "
                         "([a-z0-9_]+), as commroof reads it")
    if op in _OPS and k not in _OPS[op] and k not in ("iters", "name"):
        raise ValueError(f"commroof_nvtx: operator {op} has no parameter {k!r} (it takes: "
                         + ", ".join(_OPS[op]) + "; and iters=N, name=LABEL)")
    return k


def name(op, **params):
    """The range name "cr:<op> key=value ..." (keys in the order given).

    Refuses (ValueError, naming the key and what is accepted) a name that
    commroof would not read: a key outside [a-z0-9_]+ or, for a catalog
    operator, one it does not take; None (leave a parameter out instead);
    a count that is not whole or is beyond 2^53 - 1; True or False but for
    a switch; an unknown element type, collective or choice; a size that
    is not whole bytes from 1 to 1e15 in a unit commroof knows; iters= not
    a whole number from 1 to 1e9; a value with a space or a control
    character.
    """
    if not isinstance(op, str) or not op or any(ch.isspace() or ch == "=" or ord(ch) < 0x20
                                                for ch in op):
        raise ValueError(f"commroof_nvtx: operator {op!r} is empty or has a space, '=' or a "
                         "control character")
    _warn_near(op)
    s = "cr:" + op + "".join(f" {_key(op, k)}={_value(op, k, v)}" for k, v in params.items())
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
