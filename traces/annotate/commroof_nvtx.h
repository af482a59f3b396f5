/* SPDX-License-Identifier: MIT */
/*
 * commroof_nvtx.h: header-only annotation of code that is not PyTorch, for
 * `commroof roofline` (and validate). Each annotated region becomes an NVTX
 * range named "cr:<op> key=value ...": a catalog operator (`commroof op
 * list`: gemm, elementwise, memcpy, attention, ...) and its parameters as
 * `commroof op <op>` takes them. You give shapes, never FLOPs or bytes:
 * commroof derives those from the operator catalog when it reads the trace.
 * The GPU work a range launches (trace with CUDA_LAUNCH_BLOCKING=1, or
 * synchronize before the pop) is one call of that operator; a range around
 * N repetitions of it says iters=N: N calls, each the range's device time
 * / N, however many kernels each launched (doc/roofline.md, "cr: ranges").
 * name=LABEL is a label; every other key is a parameter of the operator.
 *
 *     #include <commroof_nvtx.h>
 *     ...
 *     commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=bf16", m, n, k);
 *     cublasLtMatmul(...);
 *     commroof_nvtx_pop();
 *
 *     commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=bf16 iters=%d", m, n, k, 10);
 *     for (int i = 0; i < 10; i++)
 *         cublasLtMatmul(...);
 *     cudaStreamSynchronize(stream);
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
#include <string.h>

#if !defined(COMMROOF_NVTX_DISABLE) && defined(__has_include)
#if __has_include(<nvtx3/nvToolsExt.h>)
/* nvToolsExt.h casts dlsym's object pointer to a function pointer, which gcc
 * -Wpedantic reports in C (an error with -Werror) where nvtx3 is found
 * through -I rather than -isystem. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
#include <nvtx3/nvToolsExt.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#define COMMROOF_NVTX_ON 1
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The longest range name (the tracer keeps 256 bytes). */
#define COMMROOF_NVTX_MAX 256

/* A conversion that C++ compilers accept under -Wold-style-cast. */
#ifdef __cplusplus
#define COMMROOF_NVTX_CAST(T, x) (static_cast<T>(x))
#else
#define COMMROOF_NVTX_CAST(T, x) ((T)(x))
#endif

/* Opens the range "cr:<op> <params>" on this thread; params is a printf
 * format (may be NULL) of space-separated key=value pairs. Returns the
 * nesting depth as NVTX does (negative when no tool is attached or NVTX is
 * compiled out). A name over COMMROOF_NVTX_MAX - 1 bytes ends in " ...",
 * which commroof reports as not key=value: a value cut short (k=4096 as
 * k=40) would otherwise read as another shape. */
static inline int commroof_nvtx_push(const char *op, const char *params, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static inline int commroof_nvtx_push(const char *op, const char *params, ...)
{
#ifdef COMMROOF_NVTX_ON
    char name[COMMROOF_NVTX_MAX];
    int n = snprintf(name, sizeof name, "cr:%s", op ? op : "");
    int cut = n < 0 || COMMROOF_NVTX_CAST(size_t, n) >= sizeof name;
    if (params && !cut) {
        if (COMMROOF_NVTX_CAST(size_t, n) + 1 < sizeof name) {
            name[n++] = ' ';
            va_list ap;
            va_start(ap, params);
            int m = vsnprintf(name + n, sizeof name - COMMROOF_NVTX_CAST(size_t, n), params, ap);
            va_end(ap);
            cut = m < 0 ||
                  COMMROOF_NVTX_CAST(size_t, m) >= sizeof name - COMMROOF_NVTX_CAST(size_t, n);
        } else {
            cut = 1;
        }
    }
    if (cut) /* at the end: " ..." is no key=value, so the range is reported */
        memcpy(name + sizeof name - 5, " ...", 5);
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

#ifdef __cplusplus
}
#endif

#endif
