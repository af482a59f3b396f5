#!/bin/sh
# SPDX-License-Identifier: MIT
# The annotation helpers for code that is not PyTorch
# (traces/annotate/commroof_nvtx.h and commroof_nvtx.py, README "Annotating
# your own code"): the C header compiles with and without NVTX v3 on the
# include path; where the tracer library is built, a program using it,
# traced without a GPU (the tracer then records NVTX ranges alone), leaves
# the range "cr:gemm m=64 n=32 k=16 dtype=bf16" in its trace; the Python
# module builds the same name, refuses what commroof's reader would reject
# (its operator and parameter tables held to the catalog's), and does
# nothing (backend "none") where no NVTX library is loaded; the header's
# commroof_nvtx_check refuses the malformed names it can tell cheaply.
set -u
CR=$1
B=${BUILD:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "check_annotate: $*"; fails=$((fails + 1)); }
CUDA=${CUDA_HOME:-/usr/local/cuda}

cat >"$T/app.c" <<'EOF2'
#include <commroof_nvtx.h>

int main(void)
{
    int m = 64, n = 32, k = 16;
    commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=bf16", m, n, k);
    /* cublasLtMatmul(...) would go here */
    commroof_nvtx_pop();
    return 0;
}
EOF2
cc -std=c11 -Wall -Wextra -Werror -Itraces/annotate "$T/app.c" -o "$T/app-off" 2>"$T/err" ||
    { cat "$T/err"; fail "commroof_nvtx.h does not compile without NVTX"; }
if [ -f "$CUDA/include/nvtx3/nvToolsExt.h" ]; then
    if cc -std=c11 -Wall -Wextra -Werror -Itraces/annotate -isystem "$CUDA/include" "$T/app.c" \
        -o "$T/app" -ldl 2>"$T/err"; then
        if [ -f "$B/libcommroof_trace.so" ]; then
            mkdir -p "$T/out"
            NVTX_INJECTION64_PATH="$PWD/$B/libcommroof_trace.so" COMMROOF_TRACE_DIR="$T/out" \
                "$T/app" >/dev/null 2>&1 || fail "the annotated program failed under the tracer"
            grep -qF '"name":"cr:gemm m=64 n=32 k=16 dtype=bf16"' "$T"/out/*.json 2>/dev/null ||
                fail "no cr:gemm range in the trace of the annotated program"
        fi
    else
        cat "$T/err"; fail "commroof_nvtx.h does not compile with NVTX v3"
    fi
fi

# C++ (a .cpp or .cu file including it) under the warnings that C++
# projects turn into errors: -Wold-style-cast, and clang++'s
# -Wzero-as-null-pointer-constant, which the header's NULL (0 there, not
# g++'s __null) tripped in commroof_nvtx_check and commroof_nvtx_push (QA
# audit, session 51); with NVTX v3 and without.
for cxx in clang++ g++; do
    command -v "$cxx" >/dev/null 2>&1 || continue
    for nv in "" "-isystem $CUDA/include"; do
        [ -z "$nv" ] || [ -f "$CUDA/include/nvtx3/nvToolsExt.h" ] || continue
        # shellcheck disable=SC2086
        "$cxx" -std=c++17 -Wall -Wextra -Wpedantic -Wold-style-cast -Wzero-as-null-pointer-constant \
            -Werror -Itraces/annotate $nv -x c++ -c "$T/app.c" -o "$T/app-cxx.o" 2>"$T/err" ||
            { head -5 "$T/err"; fail "commroof_nvtx.h does not compile as C++ with $cxx${nv:+ and NVTX v3}"; }
    done
done

# -Wpedantic with nvtx3 on -I (NVTX's own header casts dlsym's result), and
# a name over 255 bytes: it must not end in a value cut short (k=40 for
# k=4096 reads as another shape) but in " ...", which commroof reports.
if [ -f "$CUDA/include/nvtx3/nvToolsExt.h" ]; then
    cat >"$T/long.c" <<'EOF2'
#include <commroof_nvtx.h>
#include <string.h>

int main(void)
{
    char pad[256];
    memset(pad, 'x', sizeof pad);
    pad[255 - 38 - 5] = '\0'; /* "cr:gemm m=4096 n=4096 dtype=bf16 name=" + pad + " k=40" */
    commroof_nvtx_push("gemm", "m=4096 n=4096 dtype=bf16 name=%s k=%d", pad, 4096);
    commroof_nvtx_pop();
    return 0;
}
EOF2
    if cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Itraces/annotate -I"$CUDA/include" "$T/long.c" \
        -o "$T/long" -ldl 2>"$T/err"; then
        if [ -f "$B/libcommroof_trace.so" ]; then
            NVTX_INJECTION64_PATH="$PWD/$B/libcommroof_trace.so" COMMROOF_TRACE_DIR="$T/long-out" \
                COMMROOF_TRACE_QUIET=1 "$T/long" >/dev/null 2>&1
            grep -q '"name":"cr:gemm [^"]* \.\.\."' "$T"/long-out/*.json 2>/dev/null ||
                fail "a range name over 255 bytes does not end in \" ...\""
            grep -q 'k=40"' "$T"/long-out/*.json 2>/dev/null &&
                fail "a range name over 255 bytes ends in a value cut short (k=40)"
        fi
    else
        cat "$T/err"; fail "commroof_nvtx.h does not compile with -Wpedantic and nvtx3 on -I"
    fi
fi

if command -v python3 >/dev/null 2>&1; then
    got=$(env -u CUDA_HOME python3 - <<'EOF2' 2>&1
import sys
sys.path.insert(0, "traces/annotate")
import commroof_nvtx as cr
print(cr.name("gemm", m=64, n=32, k=16, dtype="bf16"))
print(cr.name("attention", batch=1, seq=8, heads=2, kv_heads=2, head_dim=4, causal=True))
try:
    cr.name("gemm", m="6 4")
    print("accepted a space")
except ValueError:
    print("refused")
for bad in ("m=1 n", "a b", ""):
    try:
        cr.name("gemm", **{bad: 2})
        print("accepted key %r" % bad)
    except ValueError:
        print("refused key")
with cr.range("elementwise", elems=4, reads=1, writes=1):
    pass
print(cr.backend() in ("none",) or cr.backend().startswith("ctypes:"))
EOF2
)
    want="cr:gemm m=64 n=32 k=16 dtype=bf16
cr:attention batch=1 seq=8 heads=2 kv_heads=2 head_dim=4 causal=yes
refused
refused key
refused key
refused key
True"
    [ "$got" = "$want" ] || fail "commroof_nvtx.py: got \"$got\", expected \"$want\""
fi

# A program that imported a torch built without CUDA (pip's CPU wheels,
# beside cupy or numba doing the GPU work) has torch.cuda.nvtx all the
# same, whose functions raise RuntimeError("NVTX functions not installed.
# Are you sure you have a CUDA build?") and whose torch._C has no _nvtx
# (torch/cuda/nvtx.py's _NVTXStub): the module took it, and every
# cr.range() raised in the program instead of pushing through NVTX's
# library or doing nothing (QA audit, session 51). The stand-in
# below is that stub; a torch with CUDA (torch._C._nvtx) is still taken.
if command -v python3 >/dev/null 2>&1; then
    got=$(python3 - <<'EOF2' 2>&1
import sys, types
sys.path.insert(0, "traces/annotate")

def stub_torch(with_cuda):
    torch = types.ModuleType("torch")
    torch._C = types.ModuleType("torch._C")
    torch.cuda = types.ModuleType("torch.cuda")
    torch.cuda.nvtx = types.ModuleType("torch.cuda.nvtx")
    if with_cuda:
        torch._C._nvtx = types.SimpleNamespace(rangePushA=lambda s: 0, rangePop=lambda: 0)
        torch.cuda.nvtx.range_push = torch._C._nvtx.rangePushA
        torch.cuda.nvtx.range_pop = torch._C._nvtx.rangePop
    else:
        def _fail(*args, **kwargs):
            raise RuntimeError("NVTX functions not installed. Are you sure you have a CUDA build?")
        torch.cuda.nvtx.range_push = torch.cuda.nvtx.range_pop = _fail
    return torch

for with_cuda in (False, True):
    sys.modules["torch"] = stub_torch(with_cuda)
    sys.modules.pop("commroof_nvtx", None)
    import commroof_nvtx as cr
    try:
        with cr.range("gemm", m=64, n=32, k=16, dtype="bf16"):
            pass
        print(cr.backend() == "torch.cuda.nvtx")
    except RuntimeError as e:
        print("raised:", e)
EOF2
)
    [ "$got" = "False
True" ] || fail "commroof_nvtx.py with a torch without CUDA, then with one: got \"$got\", expected \"False\" (another backend, no error) and \"True\""
fi

# A COMMROOF_NVTX_LIB that cannot be loaded, or exports no NVTX, is
# named in a warning with the library taken instead: it was passed over
# in silence, the ranges going through another library or nowhere (QA
# audit, session qa-inst).
if command -v python3 >/dev/null 2>&1; then
    for lib in "$T/no-such-lib.so" libc.so.6; do
        got=$(COMMROOF_NVTX_LIB="$lib" python3 - <<'EOF2' 2>&1
import sys, warnings
sys.path.insert(0, "traces/annotate")
import commroof_nvtx as cr
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with cr.range("gemm", m=4, n=4, k=4):
        pass
    taken = cr.backend()
print(len(w), all(s in str(w[0].message) for s in ("COMMROOF_NVTX_LIB=", "nvtxRangePushA",
                                                     repr(taken))) if w else "no warning")
EOF2
)
        [ "$got" = "1 True" ] ||
            fail "COMMROOF_NVTX_LIB=$lib: got \"$got\", expected one warning naming it and the library taken"
    done
fi

# The Python module refuses what commroof's reader always rejects, naming
# the key and what would do (QA audit: dtype=None wrote dtype=None, causal=None
# causal=None, flops_per=True flops_per=yes, m=2**60 a count over 2^53, and
# keys outside [a-z0-9_] passed when they had no space or '='); iters= is a
# whole number of repetitions. Each case: the keyword, the words the
# ValueError must hold.
if command -v python3 >/dev/null 2>&1; then
    got=$(python3 - <<'EOF2' 2>&1
import sys
sys.path.insert(0, "traces/annotate")
import commroof_nvtx as cr
bad = [
    ("gemm", {"m": 64, "dtype": None}, "dtype=None", "leave a parameter out"),
    ("attention", {"causal": None}, "causal=None", "leave a parameter out"),
    ("elementwise", {"flops_per": True}, "flops_per=True", "finite decimal number"),
    ("elementwise", {"flops_per": float("inf")}, "flops_per=inf", "finite decimal number"),
    ("gemm", {"m": 2**60}, "m=1152921504606846976", "2^53 - 1"),
    ("gemm", {"m": 64.5}, "m=64.5", "whole count"),
    ("gemm", {"m": 0}, "m=0", "from 1"),
    ("gemm", {"m": True}, "m=True", "whole count"),
    ("gemm", {"m": "1_000"}, "m='1_000'", "whole count"),
    ("gemm", {"M": 64}, "key 'M'", "[a-z0-9_]+"),
    ("gemm", {"m-1": 64}, "key 'm-1'", "[a-z0-9_]+"),
    ("my_op", {"Rows": 64}, "key 'Rows'", "[a-z0-9_]+"),
    ("gemm", {"mm": 64}, "no parameter 'mm'", "dtype, m, n, k, batch"),
    ("gemm", {"dtype": "torch.bfloat16"}, "dtype='torch.bfloat16'", "bf16"),
    ("attention", {"causal": "maybe"}, "causal='maybe'", "True or False"),
    ("memcpy", {"kind": "p2p"}, "kind='p2p'", "d2d h2d d2h"),
    ("coll", {"order": "tp,tp"}, "order='tp,tp'", "at most once"),
    ("memcpy", {"bytes": "64 MiB"}, "bytes='64 MiB'", "with a unit"),
    ("gemm", {"iters": 0}, "iters=0", "whole number from 1 to 1000000000"),
    ("gemm", {"iters": 2.5}, "iters=2.5", "repetitions"),
    ("gemm", {"iters": "10x"}, "iters='10x'", "repetitions"),
    ("my_op", {"x": float("nan")}, "x=nan", "finite number"),
    ("my_op", {"x": None}, "x=None", "leave a parameter out"),
    # a C0 control character: commroof reads it as a space (name=a b: "b"
    # is not key=value), NUL ends the C string (QA audit, session 51)
    ("gemm", {"name": "a\x01b"}, "name='a\\x01b'", "control character"),
    ("my_op", {"x": "a\x1bb"}, "x='a\\x1bb'", "control character"),
    ("my_op", {"x": "a\x00b"}, "x='a\\x00b'", "control character"),
    ("my\x01op", {}, "operator 'my\\x01op'", "control character"),
]
for op, kw, *words in bad:
    try:
        print("accepted", cr.name(op, **kw))
    except ValueError as e:
        missing = [w for w in words if w not in str(e)]
        print("refused" if not missing else f"refused without {missing}: {e}")
good = [
    ("gemm", {"m": 4096, "n": 4096, "k": 4096, "dtype": "bf16", "iters": 10, "name": "qkv"}),
    ("elementwise", {"elems": 1 << 24, "reads": 0, "writes": 1, "flops_per": 0.5}),
    ("attention", {"seq": "128k", "heads": 8, "causal": False, "backward": 1}),
    ("ddp", {"params": "70G", "bucket": "25MB", "grad_dtype": "bfloat16", "order": "dp,tp"}),
    ("memcpy", {"bytes": 1 << 30, "kind": "H2D", "pinned": "yes"}),
    ("my_op", {"rows": 64, "flag": True}),
]
for op, kw in good:
    print(cr.name(op, **kw))
EOF2
)
    want=$(for i in $(seq 27); do echo refused; done
        echo "cr:gemm m=4096 n=4096 k=4096 dtype=bf16 iters=10 name=qkv
cr:elementwise elems=16777216 reads=0 writes=1 flops_per=0.5
cr:attention seq=128k heads=8 causal=no backward=1
cr:ddp params=70G bucket=25MB grad_dtype=bfloat16 order=dp,tp
cr:memcpy bytes=1073741824 kind=H2D pinned=yes
cr:my_op rows=64 flag=yes")
    [ "$got" = "$want" ] || fail "commroof_nvtx.py checks: got \"$got\", expected \"$want\""

    # An operator one slip from a known one (the catalog's, crbench's
    # families) is built as given, with a warning naming the near one,
    # once a name: commroof would list its range with no bound (QA audit,
    # session 43: cr.range("gemmm", ...) said nothing). The program's own
    # operators (my_op) and the known ones warn nothing.
    got=$(python3 -W always - <<'EOF2' 2>&1
import sys, warnings
sys.path.insert(0, "traces/annotate")
import commroof_nvtx as cr
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    for op in ("gemmm", "gemmm", "elementwize", "my_op", "gemm", "nccl", "elementwise"):
        cr.name(op, **({"coll": "allreduce"} if op == "nccl" else {"elems": 4} if op == "elementwise" else {"m": 4}))
print(len(w), "|".join(str(x.message) for x in w))
EOF2
)
    want="2 commroof_nvtx: operator 'gemmm' is not commroof's (did you mean 'gemm'?): its range gets no bound|commroof_nvtx: operator 'elementwize' is not commroof's (did you mean 'elementwise'?): its range gets no bound"
    [ "$got" = "$want" ] || fail "commroof_nvtx.py near-name warning: got \"$got\", expected \"$want\""

    # Its tables are the catalog's: each operator's parameters as `op list
    # --json` names them, each parameter's kind as `op OP --json` types its
    # value (a number: count, decimal or bytes; a bool: a switch; a string:
    # an element type, a choice, a word or the order). And every name it
    # builds for every operator and parameter, from a value of each kind,
    # reads: every row of `commroof roofline` has a bound, none says a value
    # or key was refused.
    "$CR" op list --json >"$T/ops.json" || fail "commroof op list --json"
    for op in $(python3 -c 'import json, sys
print(" ".join(o["op"] for o in json.load(open(sys.argv[1]))["operators"]))' "$T/ops.json"); do
        "$CR" op "$op" --json >"$T/op-$op.json" 2>/dev/null || fail "commroof op $op --json"
    done
    got=$(T="$T" python3 - <<'EOF2' 2>&1
import json, os, sys
sys.path.insert(0, "traces/annotate")
import commroof_nvtx as cr
T = os.environ["T"]
ops = {o["op"]: tuple(o["params"]) for o in json.load(open(T + "/ops.json"))["operators"]}
if ops != cr._OPS:
    print("operators differ:", sorted(set(ops.items()) ^ set(cr._OPS.items())))
want = {int: ("count", "real", "bytes"), float: ("count", "real", "bytes"), bool: ("switch",),
        str: ("dtype", "enum", "word", "order")}
sample = {"count": 64, "real": 1.5, "bytes": "64MiB", "dtype": "bf16", "switch": True,
          "word": "allreduce", "order": "tp,cp,ep,dp,pp"}
# groups of 2 (32 GPUs of h100-ib-128n), px one rank along x, skew balanced
fixed = {**{d: 2 for d in cr._DIMS}, "px": 1, "skew": 1.0}
events, ts = [], 0
for op in ops:
    params = json.load(open(f"{T}/op-{op}.json"))["params"]
    for key, value in params.items():
        if cr._KIND.get(key) not in want[type(value)]:
            print(f"{op} {key}: commroof gives a {type(value).__name__}, the module reads a "
                  f"{cr._KIND.get(key)}")
    kw = {k: fixed[k] if k in fixed else cr._ENUMS[k][0] if cr._KIND[k] == "enum"
          else sample[cr._KIND[k]] for k in ops[op]}
    kw["iters"] = 3
    for name in (cr.name(op, **kw),
                 cr.name(op, bytes=1048576, iters=3) if "bytes" in ops[op] else None):
        if name:
            events.append({"ph": "X", "cat": "nvtx", "name": name, "ts": ts, "dur": 50,
                           "pid": 0, "tid": 0})
            events.append({"ph": "X", "cat": "kernel", "name": "k", "ts": ts + 1, "dur": 10,
                           "pid": 0, "tid": 0, "args": {"device": 0}})
            ts += 100
json.dump({"traceEvents": events}, open(T + "/names.json", "w"))
print(len(events) // 2, "ranges")
EOF2
)
    [ "$got" = "24 ranges" ] || fail "commroof_nvtx.py's tables are not the catalog's: $got"
    "$CR" roofline "$T/names.json" --topo h100-ib-128n --json >"$T/names-out.json" 2>"$T/err"
    refused=$(python3 -c 'import json, sys
# cr_op_param_set's and eval_cr_op's words for a value or key refused
words = ("is not a count", "out of range", "is not a whole number", "not a finite decimal",
         "must be at least", "must be more than", "unknown dtype", "is not yes or no",
         "is not one of", "has no parameter", "unknown collective", "order = ", "is not key=value",
         "given twice", "not a whole number from 1 to 1e9")
for r in json.load(open(sys.argv[1]))["rows"]:
    if r["kind"] == "cr" and (any(w in r["note"] for w in words) or r["bound_us"] is None):
        print(r["op"], r["args"], "|", r["note"])' "$T/names-out.json" 2>&1)
    [ -z "$refused" ] || fail "commroof bounds no call of names commroof_nvtx.py built: $refused"
    rows=$(python3 -c 'import json, sys
print(sum(r["calls"] for r in json.load(open(sys.argv[1]))["rows"] if r["kind"] == "cr"))' \
        "$T/names-out.json" 2>&1)
    [ "$rows" = 72 ] || fail "commroof roofline read $rows calls of the 24 ranges of iters=3, expected 72"
fi

# What the module refuses is what commroof refuses, value for value, both
# ways (QA audit, session qa-inst: bytes="64Foo", "64GB/s", "0MiB", "2PB"
# and coll="allreduze" were written into the range and refused by
# commroof in the row; dtype="BF16", order="TP,cp" and bytes="1e3MB" were
# refused here and read by commroof). Each case is one range, labelled
# name=cN first so that its row is found; a value the module refuses is
# written as it would have been.
if command -v python3 >/dev/null 2>&1; then
    got=$(CR="$CR" T="$T" python3 - <<'EOF2' 2>&1
import json, os, re, subprocess, sys
sys.path.insert(0, "traces/annotate")
import commroof_nvtx as cr
T = os.environ["T"]
base = {"gemm": dict(m=64, n=64, k=64, dtype="bf16"),
        "elementwise": dict(elems=64, reads=1, writes=1, flops_per=1, dtype="bf16"),
        "memcpy": dict(bytes=1024, kind="d2d"),
        "coll": dict(bytes=1024, coll="allreduce", tp=2, dtype="bf16"),
        "halo": dict(nx=64, ny=64, channels=4, halo=1, px=1, tp=2, dtype="bf16")}
cases = {
    ("gemm", "m"): ["1.5k", "1e3", "+64", "0x10", "1T", "1_000", 2**53, "-64", "64g"],
    ("halo", "px"): [0, "1e-400"],
    ("elementwise", "flops_per"): ["1e-400", "1e-310", "0x1p3", ".5", "inf"],
    ("memcpy", "bytes"): ["64MiB", "64Foo", "1.2.3GB", "0MiB", "0.5KiB", "1.5B", "64GB/s", "1T",
                          "1PB", "2PB", "64mib", "1e3MB", "64kB", "64b", "64Kib", "1.5G", "128M",
                          "1e3", 1.5, "64m", "1t", "0.5k", "0.1k", "+64M", "1000T", "900T",
                          "1e400k", "64P"],
    ("gemm", "dtype"): ["BF16", "Bfloat16", "HALF", "fp8_e4m3", "torch.bfloat16"],
    ("memcpy", "kind"): ["H2D", "p2p"],
    ("coll", "order"): ["TP,cp", "tp,", "tp,,cp", ",tp", "Dp,Tp", "tp,cp,ep,dp,pp,tp"],
    ("coll", "coll"): ["All-Reduce", "reduce_scatter", "a2a", "allreduze", "gather"],
    ("gemm", "iters"): ["1e3", "+5", "1_0", "0"],
}
events, cased = [], {}
for (op, key), values in cases.items():
    for v in values:
        label = f"c{len(cased)}"
        kw = {"name": label, **base[op], key: v}
        try:
            n, py = cr.name(op, **kw), "reads"
        except ValueError:
            n, py = "cr:" + op + "".join(f" {k}={x}" for k, x in kw.items()), "refuses"
        cased[label] = (op, key, v, py)
        ts = 100 * len(cased)
        events.append({"ph": "X", "cat": "nvtx", "name": n, "ts": ts, "dur": 50, "pid": 0,
                       "tid": 0})
        events.append({"ph": "X", "cat": "kernel", "name": "k", "ts": ts + 1, "dur": 10,
                       "pid": 0, "tid": 0, "args": {"device": 0}})
json.dump({"traceEvents": events}, open(T + "/values.json", "w"))
out = subprocess.run([os.environ["CR"], "roofline", T + "/values.json", "--topo", "h100-ib-128n",
                      "--json"], capture_output=True, text=True)
# a refusal as cr_op_param_set, parse_order and crop_reps word it
words = ("is not a count", "out of range", "is not a whole number", "not a finite decimal",
         "must be at least", "must be more than", "unknown dtype", "is not one of",
         "unknown collective", "order = ", "unknown unit", "has no unit", "whole number of bytes",
         "not a whole number from 1 to 1e9")
reads = {}
for r in json.loads(out.stdout or '{"rows": []}')["rows"]:
    m = re.match(r"name=(c[0-9]+)( |$)", r["args"])
    if r["kind"] == "cr" and m:
        reads[m.group(1)] = ("refuses" if any(w in r["note"] for w in words) else "reads",
                             r["note"])
for label, (op, key, v, py) in cased.items():
    c, note = reads.get(label, ("has no row", ""))
    if c != py:
        print(f"{op} {key}={v!r}: the module {py}, commroof {c} {note[:100]}")
print(len(cased), "values")
EOF2
)
    [ "$got" = "66 values" ] || fail "commroof_nvtx.py and commroof read values differently: $got"
fi

# The C header and the Python module build the same name from the same
# values, and commroof reads it as the operator call meant. The header is
# compiled against a stand-in nvtx3/nvToolsExt.h that prints each name it
# is given (its own formatting code, on the CPU); each case gives the
# module the same op and values. A name of 255 bytes is kept whole by
# both; one of 256 ends in " ..." and answers COMMROOF_NVTX_BAD_NAME in
# C, and is refused in Python. Then a trace of the C names, one kernel in
# each range, goes through `commroof roofline`: each row's model is the
# call the range names, with iters=N counted as N calls (ranges of other
# name= labels are rows apart).
mkdir -p "$T/fake/nvtx3"
cat >"$T/fake/nvtx3/nvToolsExt.h" <<'EOF2'
#include <stdio.h>
static int fake_depth;
static inline int nvtxRangePushA(const char *s)
{
    printf("%s\n", s);
    return fake_depth++;
}
static inline int nvtxRangePop(void)
{
    return --fake_depth;
}
EOF2
cat >"$T/same.c" <<'EOF2'
#include <commroof_nvtx.h>
#include <string.h>

int main(void)
{
    char pad[300];
    int r[8], n = 0;
    /* "cr:gemm m=1 n=1 k=1 dtype=bf16 name=" is 36 bytes */
    memset(pad, 'x', sizeof pad);
    pad[255 - 36] = '\0';
    r[n++] = commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=%s", 4096, 2048, 1024, "bf16");
    r[n++] = commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=%s iters=%d name=%s", 64, 32, 16,
                                "fp16", 10, "qkv\"1\\");
    r[n++] = commroof_nvtx_push("elementwise", "elems=%lld reads=%d writes=%d flops_per=%g", 1LL << 40,
                                2, 0, 0.5);
    r[n++] = commroof_nvtx_push("memcpy", "bytes=%s kind=%s", "64MiB", "h2d");
    r[n++] = commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=bf16 name=%s", 1, 1, 1,
                                "h\xc3\xa9");
    r[n++] = commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=bf16 name=%s", 1, 1, 1, pad);
    pad[255 - 36] = 'x';
    pad[256 - 36] = '\0';
    r[n++] = commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=bf16 name=%s", 1, 1, 1, pad);
    for (int i = 0; i < n; i++)
        commroof_nvtx_pop();
    for (int i = 0; i < n; i++)
        printf("%s%d", i ? " " : "", r[i] == COMMROOF_NVTX_BAD_NAME);
    printf("\n");
    return 0;
}
EOF2
if cc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$T/fake" -Itraces/annotate "$T/same.c" \
    -o "$T/same" 2>"$T/err"; then
    "$T/same" >"$T/same.txt" || fail "the header's names: the program failed"
    if command -v python3 >/dev/null 2>&1; then
        got=$(CR="$CR" T="$T" python3 - <<'EOF2' 2>&1
import json, os, subprocess, sys
sys.path.insert(0, "traces/annotate")
import commroof_nvtx as cr
T = os.environ["T"]
lines = open(T + "/same.txt", encoding="utf-8").read().split("\n")
c_names, bad = lines[:7], lines[7]
pad = "x" * (255 - 36)
cases = [("gemm", dict(m=4096, n=2048, k=1024, dtype="bf16")),
         ("gemm", dict(m=64, n=32, k=16, dtype="fp16", iters=10, name='qkv"1\\')),
         ("elementwise", dict(elems=1 << 40, reads=2, writes=0, flops_per=0.5)),
         ("memcpy", dict(bytes="64MiB", kind="h2d")),
         ("gemm", dict(m=1, n=1, k=1, dtype="bf16", name="h\u00e9")),
         ("gemm", dict(m=1, n=1, k=1, dtype="bf16", name=pad)),
         ("gemm", dict(m=1, n=1, k=1, dtype="bf16", name=pad + "x"))]
for (op, kw), c in zip(cases, c_names):
    try:
        py = cr.name(op, **kw)
    except ValueError:
        py = "refused"
    if c.endswith(" ...") and py == "refused" and len(c.encode()) == 255:
        continue
    if py != c:
        print(f"C {c[:70]!r} ({len(c.encode())} bytes), Python {py[:70]!r}")
if bad != "0 0 0 0 0 0 1":
    print("COMMROOF_NVTX_BAD_NAME of each:", bad, "expected 0 0 0 0 0 0 1")
events = []
for i, n in enumerate(c_names[:6]):
    events.append({"ph": "X", "cat": "nvtx", "name": n, "ts": 100 * i, "dur": 50, "pid": 0,
                   "tid": 0})
    events.append({"ph": "X", "cat": "kernel", "name": "k", "ts": 100 * i + 1, "dur": 10,
                   "pid": 0, "tid": 0, "args": {"device": 0}})
json.dump({"traceEvents": events}, open(T + "/same.json", "w"))
out = subprocess.run([os.environ["CR"], "roofline", T + "/same.json", "--topo", "h200-1",
                      "--json"], capture_output=True, text=True)
rows = json.loads(out.stdout or '{"rows": []}')["rows"]
got = sorted((r["model"] or r["note"], r["calls"]) for r in rows)
want = sorted([("gemm m=4096 n=2048 k=1024 dtype=bf16", 1), ("gemm m=64 n=32 k=16 dtype=fp16", 10),
               ("elementwise elems=1099511627776 reads=2 writes=0 flops_per=0.5", 1),
               ("memcpy bytes=64MiB kind=h2d", 1), ("gemm m=1 n=1 k=1 dtype=bf16", 1),
               ("gemm m=1 n=1 k=1 dtype=bf16", 1)])  # name= apart: a row each
if got != want:
    print("roofline read", got, "expected", want)
print("same")
EOF2
)
        [ "$got" = same ] || fail "the header's and the module's names: $got"
    fi
else
    cat "$T/err"; fail "commroof_nvtx.h does not compile against a stand-in nvtx3"
fi

# The C header checks the names it builds as cheaply as it can (keys,
# empty values, %s of NULL, %g of no number, iters=): commroof_nvtx_check
# says why, and a push of such a name answers COMMROOF_NVTX_BAD_NAME.
cat >"$T/check.c" <<'EOF2'
#include <commroof_nvtx.h>
#include <stdio.h>

int main(void)
{
    const char *names[] = {"cr:gemm m=64 n=32 k=16 dtype=bf16 iters=10 name=qkv", "cr:gemm M=64",
                           "cr:gemm m=64 n", "cr:gemm m=", "cr:gemm dtype=(null)",
                           "cr:elementwise flops_per=-nan", "cr:gemm iters=0", "cr:gemm iters=2.5",
                           "cr:gemm m=1 ...", "gemm m=1", "cr:gemm =5"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char why[160] = "";
        printf("%d %s\n", commroof_nvtx_check(names[i], why, sizeof why), why);
    }
    int bad = commroof_nvtx_push("gemm", "M=%d", 64);
    commroof_nvtx_pop();
    int good = commroof_nvtx_push("gemm", "m=%d", 64);
    commroof_nvtx_pop();
    printf("%d %d\n", bad == COMMROOF_NVTX_BAD_NAME, good == COMMROOF_NVTX_BAD_NAME);
    return 0;
}
EOF2
want='0 
-1 "M=64" has a key of other characters than a-z, 0-9 and _
-1 "n" is not key=value
-1 "m=" has no value
-1 "dtype=(null)" has no value (a NULL string, or no number)
-1 "flops_per=-nan" has no value (a NULL string, or no number)
-1 "iters=0" is no count of repetitions (a whole number from 1 to 1000000000)
-1 "iters=2.5" is no count of repetitions (a whole number from 1 to 1000000000)
-1 "..." is not key=value
-1 the name does not start with "cr:<op>"
-1 "=5" has no key'
if cc -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Werror -Itraces/annotate "$T/check.c" \
    -o "$T/check" 2>"$T/err"; then
    got=$("$T/check" 2>&1)
    [ "$got" = "$want
0 0" ] || fail "commroof_nvtx_check: got \"$got\", expected \"$want\" and \"0 0\" (NVTX compiled out)"
else
    cat "$T/err"; fail "commroof_nvtx_check does not compile"
fi
if [ -f "$CUDA/include/nvtx3/nvToolsExt.h" ]; then
    if cc -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Werror -Itraces/annotate \
        -isystem "$CUDA/include" "$T/check.c" -o "$T/check-nvtx" -ldl 2>"$T/err"; then
        got=$("$T/check-nvtx" 2>&1 | tail -1)
        [ "$got" = "1 0" ] ||
            fail "commroof_nvtx_push: \"M=64\" and \"m=64\" gave \"$got\", expected \"1 0\" (a bad name answers COMMROOF_NVTX_BAD_NAME)"
    else
        cat "$T/err"; fail "commroof_nvtx_check does not compile with NVTX v3"
    fi
fi
# CUDA 13 has no libnvToolsExt.so.1: the module must find libnvtx3interop
# there, or every Python range is silently lost.
if command -v python3 >/dev/null 2>&1 && [ -f "$B/libcommroof_trace.so" ] &&
    [ -f "$CUDA/lib64/libnvtx3interop.so.1" ] && [ ! -f "$CUDA/lib64/libnvToolsExt.so.1" ]; then
    NVTX_INJECTION64_PATH="$PWD/$B/libcommroof_trace.so" COMMROOF_TRACE_DIR="$T/py" \
        COMMROOF_TRACE_QUIET=1 CUDA_HOME="$CUDA" python3 - >/dev/null 2>&1 <<'EOF2'
import sys
sys.path.insert(0, "traces/annotate")
import commroof_nvtx as cr
with cr.range("gemm", m=8, n=4, k=2, dtype="bf16"):
    pass
EOF2
    grep -qF '"name":"cr:gemm m=8 n=4 k=2 dtype=bf16"' "$T"/py/*.json 2>/dev/null ||
        fail "commroof_nvtx.py left no range under the tracer with CUDA 13's libnvtx3interop"
fi
if [ $fails -ne 0 ]; then echo "check_annotate: FAILED ($fails)"; exit 1; fi
echo "check_annotate: OK"
