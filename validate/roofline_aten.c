/* SPDX-License-Identifier: MIT */
/*
 * roofline_aten: PyTorch's operators onto the operator catalog (model/ops.h).
 * One aten operator with the sizes its emit_nvtx range records becomes a
 * catalog case (gemm, attention, elementwise, memcpy) with the FLOPs and
 * bytes that case counts, each the fewest a kernel could do, so the bound
 * stays a lower bound; doc/roofline.md gives the table with its reasons.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "roofline_priv.h"

static void put(cr_rf_case *m, const char *k, double v)
{
    snprintf(m->k[m->n], sizeof m->k[m->n], "%s", k);
    snprintf(m->v[m->n], sizeof m->v[m->n], "%.0f", v);
    m->n++;
}

static bool op_is(const char *op, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(op, *names))
            return true;
    return false;
}

/* The broadcast result of shapes [0..n) (numpy's rule), in elements; -1 when
 * they do not broadcast. */
static double bcast_numel(const cr_rf_name *pn, int n)
{
    int nd = 0;
    for (int i = 0; i < n; i++)
        nd = pn->ndim[i] > nd ? pn->ndim[i] : nd;
    double e = 1;
    for (int k = 0; k < nd; k++) {
        int64_t s = 1;
        for (int i = 0; i < n; i++) {
            int off = nd - pn->ndim[i];
            if (k < off)
                continue;
            int64_t v = pn->dim[i][k - off];
            if (v != 1) {
                if (s != 1 && s != v)
                    return -1;
                s = v;
            }
        }
        e *= (double)s;
    }
    return e;
}

static bool map_gemm(const cr_rf_name *pn, const cr_rf_owned *own, int a, int b, bool b_transposed,
                     cr_rf_case *m)
{
    /* A [..., m, k] and B [..., k, n] (or [n, k] for linear's weight), the
     * leading dimensions broadcast into a batch (matmul's rule): FLOPs
     * 2 batch m n k, exact. Bytes: an operand with a batch may be one
     * matrix broadcast (PyTorch runs matmul([1, m, k], [b, k, n]) as a bmm
     * of an expanded A, stride 0, whose sizes say [b, m, k]), so each is
     * counted once, C batch times (the catalog's gemm batch), unless
     * input_op_ids show it fresh with all its elements: then the batch is
     * folded into its side (m for A, n for B) and it counts whole. A 2-D
     * B (linear, mm): the batch is A's own rows, folded into m. */
    if (pn->n_shapes <= (a > b ? a : b) || pn->ndim[a] < 2 || pn->ndim[b] < 2) {
        snprintf(m->note, sizeof m->note, "needs two matrices of 2 or more dimensions in sizes");
        return false;
    }
    int na = pn->ndim[a], nb = pn->ndim[b];
    double M = (double)pn->dim[a][na - 2], batch = 1;
    int nbatch = na > nb ? na - 2 : nb - 2;
    for (int i = 0; i < nbatch; i++) {
        int ia = i - (nbatch - (na - 2)), ib = i - (nbatch - (nb - 2));
        int64_t da = ia >= 0 ? pn->dim[a][ia] : 1, db = ib >= 0 ? pn->dim[b][ib] : 1;
        if (da != db && da != 1 && db != 1) {
            snprintf(m->note, sizeof m->note, "batch dimensions %lld and %lld do not broadcast",
                     (long long)da, (long long)db);
            return false;
        }
        batch *= (double)(da > db ? da : db);
    }
    double K = (double)pn->dim[a][na - 1];
    double Kb = (double)pn->dim[b][nb - (b_transposed ? 1 : 2)];
    double N = (double)pn->dim[b][nb - (b_transposed ? 2 : 1)];
    if (K != Kb) {
        snprintf(m->note, sizeof m->note, "inner dimensions %.0f and %.0f differ", K, Kb);
        return false;
    }
    if (M <= 0 || N <= 0 || K <= 0 || batch <= 0) {
        snprintf(m->note, sizeof m->note, "an empty matrix");
        return false;
    }
    /* whole: fresh storage of all its elements, and its own batch the
     * whole batch (not [4, 1, ...] against [1, 6, ...]) */
    bool a_whole = own->in.fresh[a] && own->in.elems[a] >= batch * M * K &&
                   cr_rf_numel(pn, a) == batch * M * K;
    bool b_whole = own->in.fresh[b] && own->in.elems[b] >= batch * K * N &&
                   cr_rf_numel(pn, b) == batch * K * N;
    m->op = "gemm";
    if (batch == 1 || nb == 2 || a_whole) {
        put(m, "m", M * batch);
        put(m, "n", N);
        put(m, "k", K);
        if (batch > 1)
            snprintf(m->note, sizeof m->note, "batch folded into m%s",
                     nb > 2 ? " (A whole, input_op_ids; B's bytes counted once)" : "");
    } else if (b_whole) {
        put(m, "m", M);
        put(m, "n", N * batch);
        put(m, "k", K);
        snprintf(m->note, sizeof m->note,
                 "batch folded into n (B whole, input_op_ids; A's bytes counted once)");
    } else {
        put(m, "m", M);
        put(m, "n", N);
        put(m, "k", K);
        put(m, "batch", batch);
        snprintf(m->note, sizeof m->note,
                 "A and B counted once (either may be broadcast over the batch), C per product");
    }
    return true;
}

/* An elementwise case of w elements written and r read at the row's type
 * (cr_rf_case_finish() makes the parameters once the type is known). */
static bool map_parts(cr_rf_case *m, double w, double r, double flops)
{
    if (!(w >= 1)) {
        snprintf(m->note, sizeof m->note, "no elements");
        return false;
    }
    m->op = "elementwise";
    m->parts = true;
    m->w_elems = w;
    m->r_elems = r;
    m->flops = flops;
    return true;
}

static bool map_stream(cr_rf_case *m, double elems, int reads, int writes, int flops_per)
{
    return map_parts(m, elems * writes, elems * reads, elems * flops_per);
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void cr_rf_case_finish(cr_rf_case *m, cr_dtype *dt)
{
    if (!m->parts)
        return;
    double e = cr_dtype_bytes(*dt), w = m->w_elems, r = m->r_elems;
    if (m->read_1b || m->write_1b || m->r_bytes > 0) {
        /* reads and writes of different widths: in bytes, at fp8 */
        w = round(w * (m->write_1b ? 1 : e));
        r = round(r * (m->read_1b ? 1 : e) + m->r_bytes);
        *dt = CR_DT_FP8;
    }
    /* the largest count both are whole multiples of: elems = g, reads = r /
     * g, writes = w / g (a copy of [1, N] into [64, N]: g = N, 1 and 64) */
    double g = r >= 1 ? (double)gcd_u64((uint64_t)w, (uint64_t)r) : w;
    put(m, "elems", g);
    put(m, "reads", r / g);
    put(m, "writes", w / g);
    double fp = m->flops / g;
    snprintf(m->k[m->n], sizeof m->k[m->n], "flops_per");
    snprintf(m->v[m->n], sizeof m->v[m->n], "%.6g", fp);
    m->n++;
    m->parts = false;
}

/* --- what input_op_ids show ---------------------------------------------- */

/* Ops whose output is (a view of) their first input's storage: a later
 * input made by one is followed to that input. Following one too many only
 * merges tensors (fewer bytes), never splits one: the safe direction.
 * In-place ops (a name ending in '_') return their first input as well. */
static bool aliases_input0(const char *op)
{
    static const char *const views[] = {"aten::view",
                                        "aten::_unsafe_view",
                                        "aten::reshape",
                                        "aten::_reshape_alias",
                                        "aten::view_as",
                                        "aten::reshape_as",
                                        "aten::expand",
                                        "aten::expand_as",
                                        "aten::broadcast_to",
                                        "aten::t",
                                        "aten::transpose",
                                        "aten::permute",
                                        "aten::movedim",
                                        "aten::swapaxes",
                                        "aten::swapdims",
                                        "aten::unsqueeze",
                                        "aten::squeeze",
                                        "aten::flatten",
                                        "aten::unflatten",
                                        "aten::slice",
                                        "aten::select",
                                        "aten::narrow",
                                        "aten::as_strided",
                                        "aten::alias",
                                        "aten::detach",
                                        "aten::diagonal",
                                        "aten::unfold",
                                        "aten::numpy_T",
                                        "aten::mT",
                                        "aten::ravel",
                                        "aten::view_as_real",
                                        "aten::view_as_complex",
                                        "aten::real",
                                        "aten::imag",
                                        "aten::conj",
                                        "aten::resolve_conj",
                                        "aten::resolve_neg",
                                        "aten::_conj",
                                        "aten::_neg_view",
                                        "aten::lift_fresh",
                                        "aten::to",
                                        "aten::type_as",
                                        "aten::contiguous",
                                        "aten::_autocast_to_reduced_precision",
                                        "aten::_autocast_to_full_precision",
                                        "aten::atleast_1d",
                                        "aten::atleast_2d",
                                        "aten::atleast_3d",
                                        NULL};
    if (op_is(op, views))
        return true;
    size_t n = strlen(op);
    /* in place, same shape out as in (resize_ and set_ change it) */
    return n > 1 && op[n - 1] == '_' && op[n - 2] != '_' && strcmp(op, "aten::resize_") != 0 &&
           strcmp(op, "aten::set_") != 0 && strcmp(op, "aten::resize_as_") != 0;
}

void cr_rf_resolve_inputs(const cr_rf_name *pn, cr_rf_producer_fn producer, void *ctx,
                          cr_rf_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->has_ids = pn->n_ids > 0 && pn->n_ids == pn->n_shapes;
    long long kop[CR_RF_MAX_SHAPES];
    int kout[CR_RF_MAX_SHAPES];
    for (int i = 0; i < pn->n_shapes; i++) {
        in->key[i] = -1;
        in->elems[i] = cr_rf_numel(pn, i);
        kop[i] = 0;
        kout[i] = -1;
        if (!in->has_ids || pn->ndim[i] == 0)
            continue;
        long long op = pn->id_op[i];
        int out = pn->id_out[i];
        cr_rf_name pr;
        /* a chain of views is short; the cap stops a cycle of bad ids */
        for (int depth = 0; depth < 64 && op > 0; depth++) {
            if (!producer || !producer(ctx, op, &pr))
                break;
            if (!aliases_input0(pr.op) || pr.n_shapes < 1 || pr.ndim[0] == 0) {
                in->fresh[i] = true;
                break;
            }
            /* a view holds no more than what it views: an expand's input
             * is its source */
            double e0 = cr_rf_numel(&pr, 0);
            if (e0 < in->elems[i])
                in->elems[i] = e0;
            if (pr.n_ids < 1 || pr.n_ids != pr.n_shapes) {
                op = 0; /* its input is not named: neither fresh nor known */
                break;
            }
            op = pr.id_op[0];
            out = pr.id_out[0];
        }
        if (op > 0) {
            kop[i] = op;
            kout[i] = out;
            in->key[i] = i;
            for (int j = 0; j < i; j++)
                if (kop[j] == op && kout[j] == out) {
                    in->key[i] = in->key[j];
                    break;
                }
        }
    }
}

/* Elements the tensor inputs idx[0..n) read at least, each of which has
 * full elements (the output's): inputs that are one tensor (the same key)
 * count once; inputs whose producer is not shown to make fresh storage may
 * be one tensor with any other, or an expanded view: of those, one counts,
 * and only where no fresh input is read (doc/roofline.md). */
static double distinct_reads(const cr_rf_owned *own, const int *idx, int n)
{
    const cr_rf_inputs *in = &own->in;
    double fresh = 0, unproven = 0;
    for (int a = 0; a < n; a++) {
        int i = idx[a];
        if (in->fresh[i]) {
            bool dup = false;
            for (int b = 0; b < a; b++)
                dup |= in->fresh[idx[b]] && in->key[idx[b]] == in->key[i];
            if (!dup)
                fresh += in->elems[i];
        } else if (in->elems[i] > unproven) {
            unproven = in->elems[i];
        }
    }
    return fresh > 0 ? fresh : unproven;
}

/* The table (doc/roofline.md has it with the reasons). */
bool cr_rf_map_aten(const cr_rf_name *pn, const cr_rf_owned *k, cr_rf_case *m)
{
    static const char *const mm[] = {"aten::mm", "aten::matmul", NULL};
    static const char *const addmm[] = {"aten::addmm", NULL};
    static const char *const bmm[] = {"aten::bmm", NULL};
    static const char *const baddbmm[] = {"aten::baddbmm", NULL};
    static const char *const linear[] = {"aten::linear", NULL};
    static const char *const smm[] = {"aten::_scaled_mm", NULL};
    static const char *const sdpa[] = {"aten::scaled_dot_product_attention",
                                       "aten::_scaled_dot_product_flash_attention",
                                       "aten::_scaled_dot_product_efficient_attention",
                                       "aten::_scaled_dot_product_cudnn_attention",
                                       "aten::_cudnn_attention_forward",
                                       NULL};
    static const char *const softmax[] = {"aten::softmax", "aten::_softmax", NULL};
    static const char *const logsoftmax[] = {"aten::log_softmax", "aten::_log_softmax", NULL};
    static const char *const norm[] = {"aten::layer_norm", "aten::native_layer_norm", NULL};
    static const char *const rms[] = {"aten::rms_norm", "aten::_fused_rms_norm", NULL};
    static const char *const binary[] = {"aten::add",  "aten::add_", "aten::mul",
                                         "aten::mul_", "aten::sub",  "aten::sub_",
                                         "aten::div",  "aten::div_", NULL};
    static const char *const copy[] = {"aten::copy_", "aten::to",         "aten::_to_copy",
                                       "aten::clone", "aten::contiguous", NULL};
    static const char *const cat[] = {"aten::cat", NULL};
    static const char *const emb[] = {"aten::embedding", NULL};
    static const char *const isel[] = {"aten::index_select", NULL};
    static const char *const gather[] = {"aten::gather", NULL};
    static const char *const flash_bshd[] = {"aten::_flash_attention_forward",
                                             "aten::_efficient_attention_forward", NULL};
    memset(m, 0, sizeof *m);
    if (pn->truncated) {
        snprintf(m->note, sizeof m->note, "range name cut at 256 bytes inside its sizes");
        return false;
    }
    if (!pn->has_sizes) {
        snprintf(m->note, sizeof m->note, "no sizes: trace with emit_nvtx(record_shapes=True)");
        return false;
    }
    const char *op = pn->op;
    if (op_is(op, mm))
        return map_gemm(pn, k, 0, 1, false, m);
    if (op_is(op, addmm) || op_is(op, baddbmm))
        return map_gemm(pn, k, 1, 2, false, m);
    if (op_is(op, bmm))
        return map_gemm(pn, k, 0, 1, false, m);
    if (op_is(op, linear))
        return map_gemm(pn, k, 0, 1, true, m);
    if (op_is(op, smm))
        return map_gemm(pn, k, 0, 1, false, m);
    if (op_is(op, sdpa) || op_is(op, flash_bshd)) {
        /* q [b, h, s, d], k [b, hkv, s, d] (the kernels' own ops take
         * [b, s, h, d]); is_causal is a bool, not in sizes: the bound takes
         * the causal (smaller) work, a lower bound either way */
        if (pn->n_shapes < 3 || pn->ndim[0] != 4 || pn->ndim[1] != 4 || pn->ndim[2] != 4) {
            snprintf(m->note, sizeof m->note, "needs q, k, v of 4 dimensions in sizes");
            return false;
        }
        int hx = 1, sx = 2; /* where heads and sequence are */
        if (op_is(op, flash_bshd))
            hx = 2, sx = 1;
        if (pn->dim[0][sx] != pn->dim[1][sx] || pn->dim[0][3] != pn->dim[2][3]) {
            snprintf(m->note, sizeof m->note,
                     "query and key lengths (or head dims) differ: the catalog's attention "
                     "takes one sequence length");
            return false;
        }
        /* Variable-length (packed) calls: cu_seqlens, 1-D [n + 1], after
         * q, k, v (_efficient_attention_forward and _cudnn_attention_forward
         * at 4 and 5, after the bias; _flash_attention_forward at 3 and 4).
         * Then q is [1, T, h, d], T tokens of n sequences that attend only
         * within themselves: the work is sum s_i (s_i + 1) / 2 pairs, not
         * T (T + 1) / 2, and at least n f (f + 1) / 2 with f = floor(T / n)
         * (the sum is convex: equal lengths give the least), so the case is
         * n sequences of f tokens. A PyTorch nested-tensor SDPA on the H200
         * (64 x 1024 of 65536 tokens, causal) took 1.87 ms where T^2 / 2
         * bounded 17.8 ms. */
        double batch = (double)pn->dim[0][0], seq = (double)pn->dim[0][sx];
        int cu = 4;
        bool packed = false;
        if (!strcmp(op, "aten::_efficient_attention_forward") ||
            !strcmp(op, "aten::_cudnn_attention_forward") ||
            !strcmp(op, "aten::_flash_attention_forward")) {
            if (!strcmp(op, "aten::_flash_attention_forward"))
                cu = 3;
            if (pn->n_shapes > cu && pn->ndim[cu] == 1 && pn->dim[cu][0] >= 2) {
                double nseq = (double)(pn->dim[cu][0] - 1), tok = batch * seq;
                double f = (double)(int64_t)(tok / nseq);
                if (!(f >= 1)) {
                    snprintf(m->note, sizeof m->note, "packed sequences shorter than a token");
                    return false;
                }
                batch = nseq;
                seq = f;
                packed = true;
            }
        }
        m->op = "attention";
        put(m, "batch", batch);
        put(m, "heads", (double)pn->dim[0][hx]);
        put(m, "kv_heads", (double)pn->dim[1][hx]);
        put(m, "seq", seq);
        put(m, "head_dim", (double)pn->dim[0][3]);
        snprintf(m->k[m->n], sizeof m->k[0], "causal");
        snprintf(m->v[m->n++], sizeof m->v[0], "yes");
        snprintf(m->note, sizeof m->note, "%sis_causal not in the trace: bound taken causal",
                 packed ? "packed: the least work of its sequences, equal lengths; " : "");
        return true;
    }
    /* Stream operators: read the input once, write the output once. FLOPs
     * per element, counted as the fewest a kernel could do (they never
     * bind on a GPU: 2 bytes per FLOP would need > 100 TFLOP/s of vector
     * math): softmax max, subtract, exp, sum, divide = 5; log_softmax 4
     * (no divide); norms: mean, subtract, square-sum, scale (+ affine) = 5. */
    if (op_is(op, softmax) || op_is(op, logsoftmax) || op_is(op, norm) || op_is(op, rms)) {
        int f = op_is(op, logsoftmax) ? 4 : 5;
        return map_stream(m, cr_rf_numel(pn, 0), 1, 1, f);
    }
    if (op_is(op, binary)) {
        /* the operands that are tensors of the output's size are read,
         * each distinct tensor once (x * x reads x once); smaller
         * (broadcast) ones are left out, a lower bound */
        int nt = pn->n_shapes < 2 ? pn->n_shapes : 2;
        double out = bcast_numel(pn, nt);
        if (out < 0) {
            snprintf(m->note, sizeof m->note, "operands that do not broadcast");
            return false;
        }
        int idx[2], ni = 0;
        for (int i = 0; i < nt; i++)
            if (pn->ndim[i] > 0 && cr_rf_numel(pn, i) == out)
                idx[ni++] = i;
        double r = distinct_reads(k, idx, ni);
        if (ni > 1 && r < ni * out)
            snprintf(m->note, sizeof m->note, "%s",
                     k->in.has_ids ? "operands that may be one tensor (input_op_ids) read once"
                                   : "no input_op_ids: one full-size operand read (x * x)");
        return map_parts(m, out, r, out);
    }
    if (op_is(op, copy)) {
        if (k->copy && !k->kernel) {
            /* a cudaMemcpy: its bytes and direction as the trace has them */
            m->op = "memcpy";
            snprintf(m->k[m->n], sizeof m->k[0], "kind");
            snprintf(m->v[m->n++], sizeof m->v[0], "%s",
                     k->copy_kind == CR_COPY_H2D   ? "h2d"
                     : k->copy_kind == CR_COPY_D2H ? "d2h"
                                                   : "d2d");
            snprintf(m->k[m->n], sizeof m->k[0], "pinned");
            snprintf(m->v[m->n++], sizeof m->v[0], "%s", k->copy_pinned ? "yes" : "no");
            put(m, "bytes", k->copy_bytes);
            if (k->copy_kind != CR_COPY_H2D && k->copy_kind != CR_COPY_D2H &&
                k->copy_kind != CR_COPY_D2D) {
                snprintf(m->note, sizeof m->note, "a %s copy: no model",
                         cr_copy_kind_name(k->copy_kind));
                return false;
            }
            return true;
        }
        /* a copy kernel, strided or converting: its name gives one element
         * type, the one it writes (PyTorch's direct_copy_kernel_cuda of an
         * fp8 -> bf16 copy names only c10::BFloat16, traces/h200-1/
         * roofline-extra-2026-12-04); what it reads is bounded at one byte
         * an element (roofline.c sets the sizes). copy_(dst, src) writes
         * dst; to, clone, contiguous write a tensor of their input's size.
         * The read: the source's storage, at most the destination's size;
         * a source of the same size that input_op_ids do not show fresh may
         * be an expanded view (expand(...).contiguous(), repeat_kv's
         * reshape: a [1, N] row written 64 times reads N) and is left out */
        m->copy_kernel = true;
        int src = !strcmp(op, "aten::copy_") ? 1 : 0;
        double dst = cr_rf_numel(pn, 0), r = 0;
        if (src < pn->n_shapes && pn->ndim[src] > 0) {
            double e = k->in.elems[src] < dst ? k->in.elems[src] : dst;
            if (k->in.fresh[src] || e < dst)
                r = e;
        }
        if (r < dst)
            snprintf(m->note, sizeof m->note, "%s",
                     r > 0 ? "source read at its own (broadcast or expanded) size"
                           : "source not shown fresh (it may be an expanded view): write only");
        return map_parts(m, dst, r, 0);
    }
    if (op_is(op, cat)) {
        double e = 0;
        for (int i = 0; i < pn->n_shapes; i++)
            if (pn->ndim[i] > 0)
                e += cr_rf_numel(pn, i);
        return map_stream(m, e, 1, 1, 0);
    }
    /* Gathers (embedding, index_select, gather): the output is written;
     * the source's rows are not counted, since repeated indices read a row
     * once (a batch of padding tokens reads one row: the audit's
     * embedding of 65536 zeros from W [50000, 4096] bf16 on the H200,
     * 148.3 us, was bounded at 210.6 us for reading 65536 rows) and the
     * distinct rows are in no trace; the index at 4 bytes an element (int32,
     * the narrowest PyTorch takes) where input_op_ids show its storage
     * (fresh, or an expand's source: torch 2.11's embedding gathers with
     * an index expanded from [n, 1]), else left out (it may be an expanded
     * view) */
    if (op_is(op, emb) || op_is(op, isel) || op_is(op, gather)) {
        int ix;
        double out;
        if (op_is(op, emb)) {
            /* weight [vocab, h], indices [...] */
            if (pn->n_shapes < 2 || pn->ndim[0] != 2 || pn->ndim[1] < 1) {
                snprintf(m->note, sizeof m->note, "needs weight [vocab, h] and indices in sizes");
                return false;
            }
            ix = 1;
            out = cr_rf_numel(pn, 1) * (double)pn->dim[0][1];
        } else if (op_is(op, isel)) {
            /* self [rows, h], dim (not a tensor), index [n]: n rows of h
             * gathered (dim taken as 0, how embedding calls it) */
            if (pn->n_shapes < 3 || pn->ndim[0] != 2 || pn->ndim[2] != 1) {
                snprintf(m->note, sizeof m->note, "needs a 2-D source and a 1-D index in sizes");
                return false;
            }
            ix = 2;
            out = cr_rf_numel(pn, 2) * (double)pn->dim[0][1];
        } else {
            /* self, dim (not a tensor), index: one element per index
             * element (how torch 2.11 runs embedding on the H200,
             * traces/h200-1/roofline-demo) */
            if (pn->n_shapes < 3 || pn->ndim[2] < 1) {
                snprintf(m->note, sizeof m->note, "needs a source and an index in sizes");
                return false;
            }
            ix = 2;
            out = cr_rf_numel(pn, 2);
        }
        double idx = k->in.elems[ix];
        bool counted = k->in.fresh[ix] || idx < cr_rf_numel(pn, ix);
        if (!map_parts(m, out, 0, 0))
            return false;
        if (counted)
            m->r_bytes = 4 * idx;
        snprintf(m->note, sizeof m->note, "output written%s; the rows read are not counted%s",
                 counted ? ", index read at 4 B an element" : "",
                 counted ? "" : ", nor the index (not shown to be its own size)");
        return true;
    }
    snprintf(m->note, sizeof m->note, "no model of %s in the catalog", op);
    return false;
}
