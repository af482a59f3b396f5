#!/bin/sh
# SPDX-License-Identifier: MIT
# fork() under the tracer (own path, no GPU needed): no child of a threaded
# program may hang at exit on a tracer mutex copied in the locked state.
set -u
B=${BUILD:-build}
CUDA=${CUDA_HOME:-/usr/local/cuda}
[ -f "$B/libcommroof_trace.so" ] && [ -f "$CUDA/include/nvtx3/nvToolsExt.h" ] ||
    { echo "check_trace_fork: skipped (no tracer or NVTX headers)"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cc -O1 -isystem "$CUDA/include" tests/trace/fork_exit_sim.c -o "$T/fk" -ldl -lpthread || exit 1
got=$(NVTX_INJECTION64_PATH="$PWD/$B/libcommroof_trace.so" COMMROOF_TRACE_DIR="$T/out" \
    COMMROOF_TRACE_QUIET=1 timeout 300 "$T/fk" 2>&1 | grep 'forked children')
case "$got" in
"0 of "*) echo "check_trace_fork: OK ($got)" ;;
*) echo "check_trace_fork: FAILED: ${got:-no answer}"; exit 1 ;;
esac
