#!/bin/sh
# SPDX-License-Identifier: MIT
# The annotation helpers for code that is not PyTorch
# (traces/annotate/commroof_nvtx.h and commroof_nvtx.py, README "Annotating
# your own code"): the C header compiles with and without NVTX v3 on the
# include path; where the tracer library is built, a program using it,
# traced without a GPU (the tracer then records NVTX ranges alone), leaves
# the range "cr:gemm m=64 n=32 k=16 dtype=bf16" in its trace; the Python
# module builds the same name, refuses values with spaces, and does nothing
# (backend "none") where no NVTX library is loaded.
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
    got=$(env -u CUDA_HOME COMMROOF_NVTX_LIB=/nonexistent python3 - <<'EOF2' 2>&1
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
