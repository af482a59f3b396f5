/* SPDX-License-Identifier: MIT */
/*
 * commroof_nvtx.h: header-only annotation of code that is not PyTorch, for
 * `commroof roofline` (and validate). Each annotated region becomes an NVTX
 * range named "cr:<op> key=value ...": a catalog operator (`commroof op
 * list`: gemm, elementwise, memcpy, attention, ...) and its parameters as
 * `commroof op <op>` takes them. You give shapes, never FLOPs or bytes:
 * commroof derives those from the operator catalog when it reads the trace.
 * The GPU work a range launches (trace with CUDA_LAUNCH_BLOCKING=1, or
 * synchronize before the pop) is one call of that operator.
 *
 *     #include <commroof_nvtx.h>
 *     ...
 *     commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=bf16", m, n, k);
 *     cublasLtMatmul(...);
 *     commroof_nvtx_pop();
 *
 *     commroof trace -o out -- ./app && commroof roofline out --topo h200-1
 *
 * NVTX v3 (header-only: CUDA's include/nvtx3, or github.com/NVIDIA/NVTX);
 * the ranges cost a few hundred nanoseconds, and nothing when no tool is
 * attached. Where nvtx3 is not on the include path, or with
 * -DCOMMROOF_NVTX_DISABLE, the functions compile to nothing.
 */
#ifndef COMMROOF_NVTX_H
#define COMMROOF_NVTX_H

#include <stdarg.h>
#include <stdio.h>

#if !defined(COMMROOF_NVTX_DISABLE) && defined(__has_include)
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define COMMROOF_NVTX_ON 1
#endif
#endif

/* The longest range name (the tracer keeps 256 bytes). */
#define COMMROOF_NVTX_MAX 256

/* Opens the range "cr:<op> <params>" on this thread; params is a printf
 * format (may be NULL) of space-separated key=value pairs. Returns the
 * nesting depth as NVTX does (negative when no tool is attached or NVTX is
 * compiled out). */
static inline int commroof_nvtx_push(const char *op, const char *params, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static inline int commroof_nvtx_push(const char *op, const char *params, ...)
{
#ifdef COMMROOF_NVTX_ON
    char name[COMMROOF_NVTX_MAX];
    int n = snprintf(name, sizeof name, "cr:%s", op);
    if (params && n >= 0 && (size_t)n + 1 < sizeof name) {
        name[n++] = ' ';
        va_list ap;
        va_start(ap, params);
        vsnprintf(name + n, sizeof name - (size_t)n, params, ap);
        va_end(ap);
    }
    return nvtxRangePushA(name);
#else
    (void)op;
    (void)params;
    return -1;
#endif
}

/* Closes the innermost range this thread opened. */
static inline int commroof_nvtx_pop(void)
{
#ifdef COMMROOF_NVTX_ON
    return nvtxRangePop();
#else
    return -1;
#endif
}

#endif
