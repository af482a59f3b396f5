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
with cr.range("elementwise", elems=4, reads=1, writes=1):
    pass
print(cr.backend() in ("none",) or cr.backend().startswith("ctypes:"))
EOF2
)
    want="cr:gemm m=64 n=32 k=16 dtype=bf16
cr:attention batch=1 seq=8 heads=2 kv_heads=2 head_dim=4 causal=yes
refused
True"
    [ "$got" = "$want" ] || fail "commroof_nvtx.py: got \"$got\", expected \"$want\""
fi
if [ $fails -ne 0 ]; then echo "check_annotate: FAILED ($fails)"; exit 1; fi
echo "check_annotate: OK"
