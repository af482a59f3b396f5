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
 * commroof_nvtx_push checks each name it opens (commroof_nvtx_check: keys
 * of a-z, 0-9 and _, no empty value, no %s of NULL or %g of NaN, iters= a
 * whole number) and answers COMMROOF_NVTX_BAD_NAME for one that commroof
 * would not read; a value of the wrong kind (dtype=fp33) is left to
 * commroof, which names it in the row.
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

/* The null pointer: clang++ -Wzero-as-null-pointer-constant refuses NULL
 * (0 in its C++ headers). */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define COMMROOF_NVTX_NULL nullptr
#else
#define COMMROOF_NVTX_NULL NULL
#endif

/* commroof_nvtx_push's answer for a name commroof_nvtx_check refuses (NVTX itself
 * answers -2 where no tool is attached, -1 on an error). */
#define COMMROOF_NVTX_BAD_NAME (-100)

/* Whether name reads as commroof reads a range's name: "cr:<op>", then
 * space-separated key=value pairs, each key of a-z, 0-9 and _ (as
 * cr_vcase_parse takes them), each value non-empty and none of "(null)"
 * (printf's %s of a NULL string), "nan" or "inf" (%g of no number), and
 * iters= a whole number from 1 to 1000000000 (the repetitions the range
 * holds). Returns 0 when it does; -1 when not, with the reason and the
 * pair at fault in why (size bytes; why may be NULL). Whether a value
 * suits its key (dtype=fp33, m=0) is left to commroof, which says so in
 * the row. */
static inline int commroof_nvtx_check(const char *name, char *why, size_t size)
{
    const char *p, *tok;
    size_t tl, kl, i;
    if (!name || strncmp(name, "cr:", 3) != 0 || name[3] == '\0' || name[3] == ' ') {
        if (why && size)
            snprintf(why, size, "the name does not start with \"cr:<op>\"");
        return -1;
    }
    for (p = name + 3 + strcspn(name + 3, " "); *p; p += tl) {
        const char *v;
        size_t vl;
        const char *fault = COMMROOF_NVTX_NULL;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        tok = p;
        tl = strcspn(p, " ");
        for (kl = 0; kl < tl && tok[kl] != '='; kl++)
            ;
        v = tok + kl + 1;
        vl = kl < tl ? tl - kl - 1 : 0;
        if (kl == tl)
            fault = "is not key=value";
        else if (kl == 0)
            fault = "has no key";
        else if (vl == 0)
            fault = "has no value";
        for (i = 0; !fault && i < kl; i++)
            if (!((tok[i] >= 'a' && tok[i] <= 'z') || (tok[i] >= '0' && tok[i] <= '9') ||
                  tok[i] == '_'))
                fault = "has a key of other characters than a-z, 0-9 and _";
        if (!fault &&
            ((vl == 6 && strncmp(v, "(null)", 6) == 0) ||
             ((vl == 3 || (vl == 4 && (v[0] == '-' || v[0] == '+'))) &&
              (strncmp(v + vl - 3, "nan", 3) == 0 || strncmp(v + vl - 3, "NAN", 3) == 0 ||
               strncmp(v + vl - 3, "inf", 3) == 0 || strncmp(v + vl - 3, "INF", 3) == 0))))
            fault = "has no value (a NULL string, or no number)";
        if (!fault && kl == 5 && strncmp(tok, "iters", 5) == 0) {
            unsigned long long x = 0;
            for (i = 0; i < vl && x <= 1000000000ULL; i++)
                x = v[i] >= '0' && v[i] <= '9'
                        ? x * 10 + COMMROOF_NVTX_CAST(unsigned long long, v[i] - '0')
                        : 1000000001ULL;
            if (x < 1 || x > 1000000000ULL)
                fault = "is no count of repetitions (a whole number from 1 to 1000000000)";
        }
        if (fault) {
            if (why && size)
                snprintf(why, size, "\"%.*s\" %s", COMMROOF_NVTX_CAST(int, tl > 60 ? 60 : tl), tok,
                         fault);
            return -1;
        }
    }
    return 0;
}

/* Opens the range "cr:<op> <params>" on this thread; params is a printf
 * format (may be NULL) of space-separated key=value pairs. Returns the
 * nesting depth as NVTX does (negative when no tool is attached or NVTX is
 * compiled out), or COMMROOF_NVTX_BAD_NAME where commroof_nvtx_check
 * refuses the name (the range is opened all the same, so that pops pair
 * with pushes, and commroof reports it). A name over COMMROOF_NVTX_MAX - 1
 * bytes ends in " ...", which commroof reports as not key=value (and this
 * function as a bad name): a value cut short (k=4096 as k=40) would
 * otherwise read as another shape. */
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
    int depth = nvtxRangePushA(name);
    return commroof_nvtx_check(name, COMMROOF_NVTX_NULL, 0) == 0 ? depth : COMMROOF_NVTX_BAD_NAME;
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
