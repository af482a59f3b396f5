/* SPDX-License-Identifier: MIT */
/*
 * roofline_name: what a trace's names say about an operator call. PyTorch's
 * emit_nvtx range names (the operator and its argument sizes,
 * torch/csrc/profiler/util.cpp getNvtxStr) and the element type a kernel's
 * name shows (C++ template arguments, cuBLAS's and NCCL's type codes).
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roofline.h"

/* --- range names ------------------------------------------------------------ */

static const char *skip_sp(const char *p)
{
    while (*p == ' ')
        p++;
    return p;
}

/* An integer at *pp (optionally negative when neg), at most 2^53. */
static bool parse_int(const char **pp, bool neg, long long *out)
{
    const char *p = *pp;
    bool minus = false;
    if (neg && *p == '-') {
        minus = true;
        p++;
    }
    if (!isdigit((unsigned char)*p))
        return false;
    long long v = 0;
    while (isdigit((unsigned char)*p)) {
        if (v > (1LL << 53) / 10)
            return false;
        v = v * 10 + (*p++ - '0');
    }
    if (v > (1LL << 53))
        return false;
    *out = minus ? -v : v;
    *pp = p;
    return true;
}

/* After an item of a sizes list: ',' (SEP_NEXT) or ']' (SEP_END), moved
 * past; the name's end (SEP_CUT: a name cut at 256 bytes); anything else
 * SEP_BAD, with its offset from start in d. */
enum { SEP_NEXT, SEP_END, SEP_CUT, SEP_BAD };
static int list_sep(const char **pp, const char *start, cr_diag *d)
{
    const char *p = skip_sp(*pp);
    *pp = p;
    if (*p == '\0')
        return SEP_CUT;
    if (*p != ',' && *p != ']') {
        cr_diag_set(d, CR_EPARSE, "sizes: expected ',' or ']' at offset %ld", (long)(p - start));
        return SEP_BAD;
    }
    *pp = p + 1;
    return *p == ']' ? SEP_END : SEP_NEXT;
}

/* The sizes list at *pp: "[[a, b], [], [c]]". A name cut inside it sets
 * truncated and stops there (returns true). */
static bool parse_sizes(const char **pp, cr_rf_name *o, cr_diag *d)
{
    const char *p = *pp, *start = p;
    if (*p++ != '[')
        return cr_diag_set(d, CR_EPARSE, "sizes: expected '['"), false;
    p = skip_sp(p);
    if (*p == ']') {
        p++;
        goto done;
    }
    for (;;) {
        p = skip_sp(p);
        if (*p == '\0')
            goto cut;
        if (*p != '[')
            return cr_diag_set(d, CR_EPARSE, "sizes: expected '[' at offset %ld",
                               (long)(p - start)),
                   false;
        if (o->n_shapes == CR_RF_MAX_SHAPES)
            return cr_diag_set(d, CR_EPARSE, "sizes: more than %d tensors", CR_RF_MAX_SHAPES),
                   false;
        p++;
        int nd = 0;
        int64_t dims[CR_RF_MAX_DIMS];
        p = skip_sp(p);
        if (*p == ']') {
            p++;
        } else {
            for (;;) {
                long long v;
                p = skip_sp(p);
                if (*p == '\0')
                    goto cut;
                if (!parse_int(&p, false, &v))
                    return cr_diag_set(d, CR_EPARSE, "sizes: expected a size at offset %ld",
                                       (long)(p - start)),
                           false;
                if (nd == CR_RF_MAX_DIMS)
                    return cr_diag_set(d, CR_EPARSE, "sizes: a tensor of more than %d dimensions",
                                       CR_RF_MAX_DIMS),
                           false;
                dims[nd++] = v;
                int sep = list_sep(&p, start, d);
                if (sep == SEP_CUT)
                    goto cut;
                if (sep == SEP_BAD)
                    return false;
                if (sep == SEP_END)
                    break;
            }
        }
        /* PyTorch counts a tensor's elements in an int64_t (TensorImpl's
         * numel): sizes whose product is larger are no tensor, and a
         * bound from them (2 x (2^53)^3 FLOPs) called every time
         * impossible */
        int64_t numel = 1;
        for (int i = 0; i < nd && numel > 0; i++) {
            if (dims[i] > 0 && numel > INT64_MAX / dims[i])
                return cr_diag_set(d, CR_EPARSE,
                                   "sizes: tensor %d has more than 2^63 - 1 elements, more than "
                                   "a PyTorch tensor holds (its numel is an int64_t)",
                                   o->n_shapes),
                       false;
            numel *= dims[i];
        }
        o->ndim[o->n_shapes] = nd;
        for (int i = 0; i < nd; i++)
            o->dim[o->n_shapes][i] = dims[i];
        o->n_shapes++;
        int sep = list_sep(&p, start, d);
        if (sep == SEP_CUT)
            goto cut;
        if (sep == SEP_BAD)
            return false;
        if (sep == SEP_END)
            break;
    }
done:
    *pp = p;
    return true;
cut:
    o->truncated = true;
    *pp = p;
    return true;
}

/* input_op_ids at p: "[(5,0), (0,-1)]". Anything short of a whole list
 * (a name cut at 256 bytes, more pairs than sizes can hold) leaves n_ids 0:
 * pairs that do not line up with sizes would name the wrong inputs. */
static void parse_ids(const char *p, cr_rf_name *o)
{
    int n = 0;
    if (*p++ != '[')
        goto cut;
    p = skip_sp(p);
    if (*p == ']')
        goto done;
    for (;;) {
        long long op, out;
        p = skip_sp(p);
        if (*p++ != '(' || !parse_int(&p, true, &op) || *p++ != ',' || !parse_int(&p, true, &out) ||
            *p++ != ')' || n == CR_RF_MAX_SHAPES || out < -1 || out > 1000000)
            goto cut;
        o->id_op[n] = op;
        o->id_out[n] = (int)out;
        n++;
        p = skip_sp(p);
        if (*p == ']')
            break;
        if (*p++ != ',')
            goto cut;
    }
done:
    o->n_ids = n;
    return;
cut:
    o->n_ids = 0;
    o->ids_cut = true;
}

cr_status cr_rf_parse_name(const char *name, cr_rf_name *o, cr_diag *d)
{
    /* the scalars only: the arrays (80 KB) are valid up to n_shapes and
     * n_ids, which the parse fills as it goes */
    memset(o->op, 0, sizeof o->op);
    o->has_sizes = o->truncated = o->ids_cut = false;
    o->n_shapes = o->n_ids = 0;
    o->sizes_off = o->sizes_len = 0;
    o->seq = -1;
    o->op_id = -1;
    const char *c = strchr(name, ',');
    size_t len = c ? (size_t)(c - name) : strlen(name);
    if (len == 0 || len >= sizeof o->op)
        return cr_diag_set(d, CR_EPARSE, "an operator name of 1 to %zu bytes before the first ','",
                           sizeof o->op - 1);
    memcpy(o->op, name, len);
    o->op[len] = '\0';
    const char *p = name + len;
    while (*p) {
        /* ", key = value" */
        if (p[0] != ',' || p[1] != ' ')
            return cr_diag_set(d, CR_EPARSE, "expected \", key = value\" at offset %ld",
                               (long)(p - name));
        p += 2;
        const char *k = p;
        while (islower((unsigned char)*p) || *p == '_')
            p++;
        size_t kl = (size_t)(p - k);
        if (strncmp(p, " = ", 3) != 0) {
            if (*p == '\0' || (p[0] == ' ' && (p[1] == '\0' || (p[1] == '=' && p[2] == '\0')))) {
                return CR_OK; /* cut inside a key: what came before stands */
            }
            return cr_diag_set(d, CR_EPARSE, "expected \" = \" after a key at offset %ld",
                               (long)(p - name));
        }
        p += 3;
        long long v;
        if (kl == 3 && !strncmp(k, "seq", 3)) {
            if (!parse_int(&p, true, &v))
                return cr_diag_set(d, CR_EPARSE, "seq: not an integer");
            o->seq = v;
        } else if (kl == 5 && !strncmp(k, "op_id", 5)) {
            if (!parse_int(&p, true, &v))
                return cr_diag_set(d, CR_EPARSE, "op_id: not an integer");
            o->op_id = v;
        } else if (kl == 5 && !strncmp(k, "sizes", 5)) {
            if (o->has_sizes)
                return cr_diag_set(d, CR_EPARSE, "sizes given twice");
            o->has_sizes = true;
            o->sizes_off = (size_t)(p - name);
            if (!parse_sizes(&p, o, d))
                return CR_EPARSE;
            o->sizes_len = (size_t)(p - name) - o->sizes_off;
            if (o->truncated)
                return CR_OK;
        } else if (kl == 12 && !strncmp(k, "input_op_ids", 12)) {
            /* "[(5,0), (0,-1)]" (torch/csrc/profiler/util.cpp
             * inputOpIdsToStr): the last key emit_nvtx writes */
            parse_ids(p, o);
            return CR_OK;
        } else {
            return cr_diag_set(d, CR_EPARSE,
                               "unknown key \"%.*s\" (emit_nvtx writes seq, op_id, sizes, "
                               "input_op_ids)",
                               (int)(kl > 40 ? 40 : kl), k);
        }
    }
    return CR_OK;
}

double cr_rf_numel(const cr_rf_name *n, int i)
{
    if (i < 0 || i >= n->n_shapes)
        return -1;
    double e = 1;
    for (int k = 0; k < n->ndim[i]; k++)
        e *= (double)n->dim[i][k];
    return e;
}

/* --- element types from kernel names ------------------------------------------ */

/* cuBLASLt's nvjet kernels (PyTorch 2.11's GEMMs on Hopper) name their
 * types in one code after "nvjet_" (and an "sm90_"), one letter a type:
 * nvjet_sm90_tst_256x128_... for bf16, hsh_ for fp16, qqtst_ for fp8
 * inputs. Read from the sweeps' traces, where each GEMM runs inside a
 * cr:gemm range that names its type (traces/h100-1/run-2026-12-06 and
 * traces/h200-1/run-2026-12-01, run-2026-12-04 kernels-gemm.json.gz: 461
 * tst kernels in bf16 ranges, 461 hsh in fp16, 487 qqtst in fp8, none in
 * another). Only t, h and q are read: a letter read as a narrower type
 * than the kernel's only lowers the bound, while s (fp32) may run as TF32
 * and is left unread. */
static void nvjet_types(const char *k, bool *seen)
{
    const char *p = strstr(k, "nvjet_");
    if (!p)
        return;
    p += 6;
    if (!strncmp(p, "sm", 2)) { /* the architecture: sm90_, sm100_ */
        p += 2;
        while (*p >= '0' && *p <= '9')
            p++;
        if (*p++ != '_')
            return;
    }
    size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz");
    if (n == 0 || p[n] != '_')
        return;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == 't')
            seen[CR_DT_BF16] = true;
        else if (p[i] == 'h')
            seen[CR_DT_FP16] = true;
        else if (p[i] == 'q')
            seen[CR_DT_FP8] = true;
    }
}

int cr_rf_kernel_dtype(const char *k)
{
    static const struct {
        const char *s;
        cr_dtype t;
    } pats[] = {
        /* C++ template arguments (ATen, CUTLASS, flash-attention) */
        {"c10::BFloat16", CR_DT_BF16},
        {"__nv_bfloat16", CR_DT_BF16},
        {"cutlass::bfloat16_t", CR_DT_BF16},
        {"c10::Half", CR_DT_FP16},
        {"__half", CR_DT_FP16},
        {"cutlass::half_t", CR_DT_FP16},
        {"c10::Float8_e4m3", CR_DT_FP8},
        {"c10::Float8_e5m2", CR_DT_FP8},
        {"__nv_fp8", CR_DT_FP8},
        {"cutlass::float_e4m3_t", CR_DT_FP8},
        /* cuBLAS's kernel names: input and output type codes */
        {"bf16bf16", CR_DT_BF16},
        {"_bf16_", CR_DT_BF16},
        {"f16f16", CR_DT_FP16},
        {"e4m3", CR_DT_FP8},
        {"tf32", CR_DT_TF32},
        {"f32f32_f32f32", CR_DT_FP32},
        /* NCCL: ncclDevKernel_AllReduce_Sum_f32_RING_LL */
        {"_f32_", CR_DT_FP32},
        {"_f16_", CR_DT_FP16},
        {"_f64_", CR_DT_FP64},
        {"_f8e4m3_", CR_DT_FP8},
        {"_i8_", CR_DT_INT8},
        {"_u8_", CR_DT_INT8},
        /* ATen's float kernels: <float> in a template list */
        {"<float>", CR_DT_FP32},
        {"<float,", CR_DT_FP32},
        {", float>", CR_DT_FP32},
        {"(float)", CR_DT_FP32},
        {"<double>", CR_DT_FP64},
        {"<double,", CR_DT_FP64},
    };
    /* A kernel may name several types (a conversion copy: fp8 in, bf16
     * out; a GEMM: inputs and accumulator): the one that gives the least
     * bound, the smallest element and of those the highest peak, so that
     * the bound stays a bound. */
    static const cr_dtype least_bound_first[] = {CR_DT_FP8,  CR_DT_INT8, CR_DT_BF16, CR_DT_FP16,
                                                 CR_DT_TF32, CR_DT_FP32, CR_DT_FP64};
    /* cuDNN's generated kernels name the 16-bit family "f16" for fp16 and
     * bf16 alike: the same SDPA kernel name in a float16 and a bfloat16
     * run on an H100 (traces/h100-1/cudnn-names-2026-12-07), so their
     * "_f16_" says nothing of which; the row takes other evidence */
    bool cudnn = !strncmp(k, "cudnn_generated", 15);
    bool seen[CR_DT__COUNT] = {false};
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++)
        if (strstr(k, pats[i].s) && !(cudnn && !strcmp(pats[i].s, "_f16_")))
            seen[pats[i].t] = true;
    nvjet_types(k, seen);
    for (size_t i = 0; i < sizeof least_bound_first / sizeof least_bound_first[0]; i++)
        if (seen[least_bound_first[i]])
            return (int)least_bound_first[i];
    return -1;
}

int cr_rf_kernel_elem_bytes(const char *k)
{
    static const struct {
        const char *s;
        int b;
    } pats[] = {
        {"OpaqueType<1u>", 1},  {"OpaqueType<1>", 1},   {"OpaqueType<2u>", 2},
        {"OpaqueType<2>", 2},   {"OpaqueType<4u>", 4},  {"OpaqueType<4>", 4},
        {"OpaqueType<8u>", 8},  {"OpaqueType<8>", 8},   {"<bool>", 1},
        {"<bool,", 1},          {"(bool)", 1},          {"<unsigned char>", 1},
        {"<unsigned char,", 1}, {"(unsigned char)", 1}, {"<signed char", 1},
        {"(signed char)", 1},
    };
    int best = 0;
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++)
        if (strstr(k, pats[i].s) && (best == 0 || pats[i].b < best))
            best = pats[i].b;
    /* cuDNN's "f16": a 16-bit element, fp16 or bf16 alike (cr_rf_kernel_dtype) */
    if (!strncmp(k, "cudnn_generated", 15) && strstr(k, "_f16_") && (best == 0 || best > 2))
        best = 2;
    return best;
}
