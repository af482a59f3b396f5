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
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "roofline_priv.h"

static void put_str(cr_rf_case *m, const char *k, const char *v)
{
    cr_str_copy(m->k[m->n], sizeof m->k[m->n], k);
    cr_str_copy(m->v[m->n], sizeof m->v[m->n], v);
    m->n++;
}

static void put(cr_rf_case *m, const char *k, double v)
{
    char buf[32];
    cr_snprintf_c(buf, sizeof buf, "%.0f", v);
    put_str(m, k, buf);
}

static bool op_is(const char *op, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(op, *names))
            return true;
    return false;
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
        cr_str_copy(m->note, sizeof m->note, "needs two matrices of 2 or more dimensions in sizes");
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
        cr_snprintf_c(m->note, sizeof m->note, "inner dimensions %.0f and %.0f differ", K, Kb);
        return false;
    }
    if (M <= 0 || N <= 0 || K <= 0 || batch <= 0) {
        cr_str_copy(m->note, sizeof m->note, "an empty matrix");
        return false;
    }
    /* whole: fresh storage of all its elements, and its own batch the
     * whole batch (not [4, 1, ...] against [1, 6, ...]) */
    bool a_whole = cr_rf_in_fresh(&own->in, a) &&
                   cr_rf_in_elems(&own->in, pn, a) >= batch * M * K &&
                   cr_rf_numel(pn, a) == batch * M * K;
    bool b_whole = cr_rf_in_fresh(&own->in, b) &&
                   cr_rf_in_elems(&own->in, pn, b) >= batch * K * N &&
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
        cr_str_copy(m->note, sizeof m->note,
                    "batch folded into n (B whole, input_op_ids; A's bytes counted once)");
    } else {
        put(m, "m", M);
        put(m, "n", N);
        put(m, "k", K);
        put(m, "batch", batch);
        cr_str_copy(m->note, sizeof m->note,
                    "A and B counted once (either may be broadcast over the batch), C per product");
    }
    return true;
}

/* An elementwise case of w elements written and r read at the row's type
 * (cr_rf_case_finish() makes the parameters once the type is known). */
static bool map_parts(cr_rf_case *m, double w, double r, double flops)
{
    if (!(w >= 1)) {
        cr_str_copy(m->note, sizeof m->note, "no elements");
        return false;
    }
    m->op = "elementwise";
    m->parts = true;
    m->w_elems = w;
    m->r_elems = r;
    m->flops = flops;
    return true;
}

/* nll_loss forward and backward: the target (shape `target`, one byte an
 * element) read, one element a row written, self (shape `self`) left out;
 * both shapes must be in sizes. */
static bool map_nll(cr_rf_case *m, const cr_rf_name *pn, int self, int target, const char *note)
{
    if (pn->n_shapes <= target || pn->ndim[self] == 0 || pn->ndim[target] == 0) {
        cr_str_copy(m->note, sizeof m->note, "needs self and target in sizes");
        return false;
    }
    double rows = cr_rf_numel(pn, target);
    if (!map_parts(m, 1, 0, rows))
        return false;
    m->r_bytes = rows;
    cr_str_copy(m->note, sizeof m->note, note);
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

bool cr_rf_case_finish(cr_rf_case *m, cr_dtype *dt)
{
    if (!m->parts)
        return true;
    double e = cr_dtype_bytes(*dt), w = m->w_elems, r = m->r_elems;
    if (m->read_1b || m->write_1b || m->r_bytes > 0) {
        /* reads and writes of different widths: in bytes, at fp8 */
        w = round(w * (m->write_1b ? 1 : e));
        r = round(r * (m->read_1b ? 1 : e) + m->r_bytes);
        *dt = CR_DT_FP8;
    }
    /* counts a double holds exactly, so that the gcd below is one (and
     * its uint64_t conversion defined): 2^53 elements are 9 PB at one
     * byte, beyond any GPU's memory; a foreach or cat of many tensors of
     * PyTorch's largest sizes adds up to more (2^64 and over, whose
     * conversion is undefined behaviour, made elems=0 of 2^106) */
    if (!(w < 0x1p53 && r < 0x1p53)) {
        cr_str_copy(m->note, sizeof m->note,
                    "more than 2^53 elements read or written: beyond any GPU's memory");
        return false;
    }
    /* the largest count both are whole multiples of: elems = g, reads = r /
     * g, writes = w / g (a copy of [1, N] into [64, N]: g = N, 1 and 64) */
    double g = r >= 1 ? (double)gcd_u64((uint64_t)w, (uint64_t)r) : w;
    put(m, "elems", g);
    put(m, "reads", r / g);
    put(m, "writes", w / g);
    double fp = m->flops / g;
    cr_str_copy(m->k[m->n], sizeof m->k[m->n], "flops_per");
    cr_snprintf_c(m->v[m->n], sizeof m->v[m->n], "%.6g", fp);
    m->n++;
    m->parts = false;
    return true;
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

bool cr_rf_type_of_input0(const char *op)
{
    /* the views of several outputs: each part of its input */
    static const char *const parts[] = {
        "aten::split", "aten::split_with_sizes", "aten::unsafe_split",
        "aten::chunk", "aten::unbind",           "aten::tensor_split",
        NULL};
    return aliases_input0(op) || op_is(op, parts);
}

bool cr_rf_operands_one_type(const char *op)
{
    static const char *const products[] = {
        "aten::mm",     "aten::addmm",  "aten::bmm", "aten::baddbmm",
        "aten::matmul", "aten::linear", NULL};
    return op_is(op, products);
}

void cr_rf_inputs_free(cr_rf_inputs *in)
{
    free(in->elems); /* one block: elems, then key, then fresh */
    memset(in, 0, sizeof *in);
}

/* Orders inputs by their storage's (producer, output), then by index. */
typedef struct {
    long long op;
    int out, i;
} storage_ref;

static int cmp_storage(const void *x, const void *y)
{
    const storage_ref *a = x, *b = y;
    if (a->op != b->op)
        return (a->op > b->op) - (a->op < b->op);
    if (a->out != b->out)
        return (a->out > b->out) - (a->out < b->out);
    return (a->i > b->i) - (a->i < b->i);
}

cr_status cr_rf_resolve_inputs(const cr_rf_name *pn, cr_rf_producer_fn producer, void *ctx,
                               cr_rf_inputs *in)
{
    memset(in, 0, sizeof *in);
    int n = pn->n_shapes;
    /* one block, kept with the call: the doubles first (aligned), then
     * the keys, then the flags; the storage references only for now */
    size_t each = sizeof(double) + sizeof(int) + sizeof(bool);
    size_t m = (size_t)(n > 0 ? n : 1);
    char *block = malloc(m * each);
    storage_ref *refs = malloc(m * sizeof *refs);
    if (!block || !refs) {
        free(block);
        free(refs);
        return CR_ENOMEM;
    }
    in->elems = (double *)(void *)block;
    in->key = (int *)(void *)(in->elems + n);
    in->fresh = (bool *)(in->key + n);
    in->n = n;
    in->has_ids = pn->n_ids > 0 && pn->n_ids == pn->n_shapes;
    int nref = 0;
    for (int i = 0; i < n; i++) {
        in->key[i] = -1;
        in->fresh[i] = false;
        in->elems[i] = cr_rf_numel(pn, i);
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
        if (op > 0)
            refs[nref++] = (storage_ref){op, out, i};
    }
    /* one key per storage, the index of its first input: sorted, not
     * compared pairwise (a foreach call lists hundreds of tensors) */
    qsort(refs, (size_t)nref, sizeof *refs, cmp_storage);
    for (int r = 0; r < nref; r++) {
        bool same = r > 0 && refs[r].op == refs[r - 1].op && refs[r].out == refs[r - 1].out;
        in->key[refs[r].i] = same ? in->key[refs[r - 1].i] : refs[r].i;
    }
    free(refs);
    return CR_OK;
}

/* Elements the tensor inputs idx[0..n) read at least, each of which has
 * full elements (the output's): inputs that are one tensor (the same key)
 * count once; inputs whose producer is not shown to make fresh storage may
 * be one tensor with any other, or an expanded view: of those, one counts,
 * and only where no fresh input is read (doc/roofline.md). */
static double distinct_reads(const cr_rf_name *pn, const cr_rf_owned *own, const int *idx, int n)
{
    const cr_rf_inputs *in = &own->in;
    double fresh = 0, unproven = 0;
    for (int a = 0; a < n; a++) {
        int i = idx[a];
        double e = cr_rf_in_elems(in, pn, i);
        if (cr_rf_in_fresh(in, i)) {
            bool dup = false;
            for (int b = 0; b < a; b++)
                dup |=
                    cr_rf_in_fresh(in, idx[b]) && cr_rf_in_key(in, idx[b]) == cr_rf_in_key(in, i);
            if (!dup)
                fresh += e;
        } else if (e > unproven) {
            unproven = e;
        }
    }
    return fresh > 0 ? fresh : unproven;
}

/* The KV heads a call's key (sizes entry ki, heads at index hx) holds in
 * memory: its heads, or fewer where input_op_ids show it an expanded view
 * of fewer elements (repeat_kv as k[:, :, None].expand(...).reshape(...),
 * MQA's one head seen as H): the largest count of heads that divides the
 * query heads and fits the storage, so the bytes stay a lower bound. */
static double kv_heads_stored(const cr_rf_name *pn, const cr_rf_owned *own, int ki, int hx,
                              double heads)
{
    double seen = (double)pn->dim[ki][hx], numel = cr_rf_numel(pn, ki);
    double stored = cr_rf_in_elems(&own->in, pn, ki);
    if (!(stored < numel) || !(numel > 0))
        return seen;
    double fit = floor(seen * stored / numel);
    for (double h = fit; h >= 1; h--)
        if (fmod(heads, h) == 0)
            return h;
    return 1;
}

enum { CU_SCAN = -2 }; /* map_attention: search for the sequence lengths */

/* Attention, forward or backward: q, k, v at sizes entries qi, qi + 1,
 * qi + 2, each [b, h, s, d] ([b, s, h, d] where bshd: the kernels' own
 * ops); is_causal is a bool, not in sizes: the bound takes the causal
 * (smaller) work, a lower bound either way. A backward is 2.5x the
 * forward's matmul FLOPs (ops_shape_attention).
 *
 * Variable-length (packed) calls: cumulative sequence lengths, 1-D
 * [n + 1], at entry cu (the forward ops name where), or (CU_SCAN, the
 * backward ops) the first 1-D tensor after out where the batch is 1 (with
 * a batch over 1 a 1-D tensor is another argument, an RNG state). Then
 * the T tokens of n sequences attend only within themselves: the work is
 * sum s_i (s_i + 1) / 2 pairs, not T (T + 1) / 2, and at least
 * n f (f + 1) / 2 with f = floor(T / n) (the sum is convex: equal lengths
 * give the least), so the case is n sequences of f tokens. A PyTorch
 * nested-tensor SDPA on the H200 (64 x 1024 of 65536 tokens, causal) took
 * 1.87 ms where T^2 / 2 bounded 17.8 ms. */
static bool map_attention(const cr_rf_name *pn, const cr_rf_owned *k, cr_rf_case *m, int qi,
                          bool bshd, int cu, bool backward)
{
    int q = qi, kk = qi + 1, v = qi + 2;
    if (pn->n_shapes <= v + (backward ? 1 : 0) || pn->ndim[q] != 4 || pn->ndim[kk] != 4 ||
        pn->ndim[v] != 4) {
        cr_str_copy(m->note, sizeof m->note, "needs q, k, v of 4 dimensions in sizes");
        return false;
    }
    int hx = bshd ? 2 : 1, sx = bshd ? 1 : 2; /* where heads and sequence are */
    if (pn->dim[q][sx] != pn->dim[kk][sx] || pn->dim[q][3] != pn->dim[v][3]) {
        snprintf(m->note, sizeof m->note,
                 "query and key lengths (or head dims) differ: the catalog's attention "
                 "takes one sequence length");
        return false;
    }
    double batch = (double)pn->dim[q][0], seq = (double)pn->dim[q][sx];
    if (cu == CU_SCAN) {
        cu = -1;
        for (int i = v + 2; batch == 1 && cu < 0 && i < pn->n_shapes; i++)
            if (pn->ndim[i] == 1 && pn->dim[i][0] >= 2)
                cu = i;
    }
    bool packed = cu >= 0 && pn->n_shapes > cu && pn->ndim[cu] == 1 && pn->dim[cu][0] >= 2;
    if (packed) {
        double nseq = (double)(pn->dim[cu][0] - 1);
        double f = (double)(int64_t)(batch * seq / nseq);
        if (!(f >= 1)) {
            cr_str_copy(m->note, sizeof m->note, "packed sequences shorter than a token");
            return false;
        }
        batch = nseq, seq = f;
    }
    m->op = "attention";
    put(m, "batch", batch);
    put(m, "heads", (double)pn->dim[q][hx]);
    put(m, "kv_heads", kv_heads_stored(pn, k, kk, hx, (double)pn->dim[q][hx]));
    put(m, "seq", seq);
    put(m, "head_dim", (double)pn->dim[q][3]);
    put_str(m, "causal", "yes");
    if (backward)
        put_str(m, "backward", "yes");
    snprintf(m->note, sizeof m->note, "%sis_causal not in the trace: bound taken causal",
             packed ? "packed: the least work of its sequences, equal lengths; " : "");
    return true;
}

/* --- pointwise, reductions, backward, foreach ------------------------------ */

/* Elements of the broadcast of the inputs idx[0..n); -1 when they do not
 * broadcast. */
static double bcast_of(const cr_rf_name *pn, const int *idx, int n)
{
    int nd = 0;
    for (int a = 0; a < n; a++)
        nd = pn->ndim[idx[a]] > nd ? pn->ndim[idx[a]] : nd;
    double e = 1;
    for (int k = 0; k < nd; k++) {
        int64_t sz = 1;
        for (int a = 0; a < n; a++) {
            int i = idx[a], off = nd - pn->ndim[i];
            if (k < off)
                continue;
            int64_t v = pn->dim[i][k - off];
            if (v != 1) {
                if (sz != 1 && sz != v)
                    return -1;
                sz = v;
            }
        }
        e *= (double)sz;
    }
    return e;
}

/* Pointwise operators: which sizes entries are operands of the output's
 * floating type (bit i: entry i), and whether the op only writes (a fill).
 * Masks and conditions (bool) are left out, as are scalars: reading less
 * keeps the bound a bound. In-place forms (a trailing '_') write their
 * first operand, the same elements. */
static const struct {
    const char *op;
    unsigned floats;
    bool write_only;
} pointwise[] = {
    {"aten::add", 3, false},
    {"aten::add_", 3, false},
    {"aten::mul", 3, false},
    {"aten::mul_", 3, false},
    {"aten::sub", 3, false},
    {"aten::sub_", 3, false},
    {"aten::div", 3, false},
    {"aten::div_", 3, false},
    {"aten::gelu", 1, false},
    {"aten::gelu_", 1, false},
    {"aten::silu", 1, false},
    {"aten::silu_", 1, false},
    {"aten::relu", 1, false},
    {"aten::relu_", 1, false},
    {"aten::sigmoid", 1, false},
    {"aten::sigmoid_", 1, false},
    {"aten::tanh", 1, false},
    {"aten::tanh_", 1, false},
    {"aten::exp", 1, false},
    {"aten::exp_", 1, false},
    {"aten::log", 1, false},
    {"aten::log_", 1, false},
    {"aten::neg", 1, false},
    {"aten::neg_", 1, false},
    {"aten::sqrt", 1, false},
    {"aten::sqrt_", 1, false},
    {"aten::rsqrt", 1, false},
    {"aten::rsqrt_", 1, false},
    {"aten::abs", 1, false},
    {"aten::abs_", 1, false},
    {"aten::reciprocal", 1, false},
    {"aten::reciprocal_", 1, false},
    {"aten::erf", 1, false},
    {"aten::sin", 1, false},
    {"aten::cos", 1, false},
    {"aten::square", 1, false},
    {"aten::clamp", 1, false},
    {"aten::clamp_", 1, false},
    {"aten::clamp_min", 1, false},
    {"aten::clamp_min_", 1, false},
    {"aten::clamp_max", 1, false},
    {"aten::clamp_max_", 1, false},
    {"aten::hardtanh", 1, false},
    {"aten::hardtanh_", 1, false},
    {"aten::leaky_relu", 1, false},
    {"aten::elu", 1, false},
    {"aten::softplus", 1, false},
    {"aten::nan_to_num", 1, false},
    {"aten::masked_fill", 1, false},
    {"aten::masked_fill_", 1, false},
    {"aten::pow", 3, false},
    {"aten::pow_", 3, false},
    {"aten::maximum", 3, false},
    {"aten::minimum", 3, false},
    {"aten::atan2", 3, false},
    {"aten::gelu_backward", 3, false},
    {"aten::silu_backward", 3, false},
    {"aten::threshold_backward", 3, false},
    {"aten::sigmoid_backward", 3, false},
    {"aten::tanh_backward", 3, false},
    {"aten::hardtanh_backward", 3, false},
    {"aten::leaky_relu_backward", 3, false},
    {"aten::elu_backward", 3, false},
    {"aten::softplus_backward", 3, false},
    {"aten::lerp", 7, false},
    {"aten::lerp_", 7, false},
    {"aten::addcmul", 7, false},
    {"aten::addcmul_", 7, false},
    {"aten::addcdiv", 7, false},
    {"aten::addcdiv_", 7, false},
    {"aten::where", 6, false},
    {"aten::fill_", 1, true},
    {"aten::zero_", 1, true},
};

static bool map_pointwise(const cr_rf_name *pn, const cr_rf_owned *k, cr_rf_case *m)
{
    int t = -1;
    for (size_t i = 0; i < sizeof pointwise / sizeof pointwise[0]; i++)
        if (!strcmp(pn->op, pointwise[i].op))
            t = (int)i;
    if (t < 0)
        return false;
    if (pointwise[t].write_only) {
        if (pn->n_shapes < 1 || pn->ndim[0] == 0) {
            cr_str_copy(m->note, sizeof m->note, "needs the tensor it fills in sizes");
            return false;
        }
        return map_parts(m, cr_rf_numel(pn, 0), 0, 0);
    }
    int idx[8] = {0}, n = 0;
    for (int i = 0; i < pn->n_shapes && i < 8; i++)
        if ((pointwise[t].floats >> i & 1) && pn->ndim[i] > 0)
            idx[n++] = i;
    if (n == 0) {
        cr_str_copy(m->note, sizeof m->note, "no tensor operand in sizes");
        return false;
    }
    double out = bcast_of(pn, idx, n);
    if (out < 0) {
        cr_str_copy(m->note, sizeof m->note, "operands that do not broadcast");
        return false;
    }
    /* the operands of the output's size are read, each tensor once (as
     * for add and mul); smaller (broadcast) ones are left out */
    int full[8] = {0}, nf = 0;
    for (int a = 0; a < n; a++)
        if (cr_rf_numel(pn, idx[a]) == out)
            full[nf++] = idx[a];
    double r = distinct_reads(pn, k, full, nf);
    if (nf > 1 && r < nf * out)
        cr_str_copy(m->note, sizeof m->note,
                    k->in.has_ids ? "operands that may be one tensor (input_op_ids) read once"
                                  : "no input_op_ids: one full-size operand read (x * x)");
    return map_parts(m, out, r, out);
}

/* Reductions read their input once; their output (its dims are no tensor
 * in sizes) is left out. */
static bool map_reduction(const cr_rf_name *pn, const cr_rf_owned *k, cr_rf_case *m)
{
    static const char *const red[] = {"aten::sum",       "aten::mean",   "aten::amax",
                                      "aten::amin",      "aten::max",    "aten::min",
                                      "aten::prod",      "aten::norm",   "aten::linalg_vector_norm",
                                      "aten::var",       "aten::std",    "aten::var_mean",
                                      "aten::logsumexp", "aten::argmax", "aten::argmin",
                                      "aten::any",       "aten::all",    NULL};
    if (!op_is(pn->op, red))
        return false;
    if (pn->n_shapes < 1 || pn->ndim[0] == 0) {
        cr_str_copy(m->note, sizeof m->note, "needs the reduced tensor in sizes");
        return false;
    }
    /* one element written at least: map_parts takes the reads in units of it */
    if (!map_parts(m, 1, cr_rf_in_elems(&k->in, pn, 0), cr_rf_numel(pn, 0)))
        return false;
    cr_str_copy(m->note, sizeof m->note,
                "input read once; the output (dims not in sizes) left out");
    return true;
}

/* Backward operators of the forward ones the table has. */
static bool map_backward(const cr_rf_name *pn, const cr_rf_owned *k, cr_rf_case *m)
{
    static const char *const softmax_bwd[] = {"aten::_softmax_backward_data",
                                              "aten::_log_softmax_backward_data", NULL};
    static const char *const attn_bhsd[] = {
        "aten::_scaled_dot_product_flash_attention_backward",
        "aten::_scaled_dot_product_efficient_attention_backward",
        "aten::_scaled_dot_product_cudnn_attention_backward", "aten::_cudnn_attention_backward",
        NULL};
    static const char *const attn_bshd[] = {"aten::_flash_attention_backward",
                                            "aten::_efficient_attention_backward", NULL};
    const char *op = pn->op;
    if (op_is(op, softmax_bwd)) {
        /* (grad_output, output, dim, dtype): both read, grad_input written */
        if (pn->n_shapes < 2 || pn->ndim[0] == 0 || cr_rf_numel(pn, 0) != cr_rf_numel(pn, 1)) {
            cr_str_copy(m->note, sizeof m->note, "needs grad_output and output of one size");
            return false;
        }
        int idx[2] = {0, 1};
        return map_parts(m, cr_rf_numel(pn, 0), distinct_reads(pn, k, idx, 2),
                         3 * cr_rf_numel(pn, 0));
    }
    if (!strcmp(op, "aten::native_layer_norm_backward")) {
        /* (grad_out, input, shape, mean, rstd, weight, bias, output_mask):
         * output_mask is no tensor, so which gradients it makes is not in
         * sizes: grad_out is read for any of them; input is read and
         * grad_input written where a kernel shows grad_input is made
         * (PyTorch's layer_norm_grad_input_kernel), else left out (BitFit
         * trains only the biases: grad_bias alone reads grad_out alone) */
        if (pn->n_shapes < 2 || pn->ndim[0] == 0) {
            cr_str_copy(m->note, sizeof m->note, "needs grad_out and input in sizes");
            return false;
        }
        double n = cr_rf_numel(pn, 0);
        if (k->grad_input_kernel) {
            int idx[2] = {0, 1};
            return map_parts(m, n, distinct_reads(pn, k, idx, 2), 8 * n);
        }
        if (!map_parts(m, 1, cr_rf_in_elems(&k->in, pn, 0), 2 * n))
            return false;
        snprintf(m->note, sizeof m->note,
                 "no grad_input kernel seen: grad_out read, the rest left out (output_mask "
                 "is not in sizes)");
        return true;
    }
    /* nll_loss (self [N, C], target [N], weight, reduction, ignore_index):
     * PyTorch's CUDA kernels take a uint8 target as well as an int64 one
     * (AT_DISPATCH_NLL_LOSS_INDEX_TYPES), so the target counts 1 B an
     * element; and a row whose target is ignore_index (a scalar, not in
     * sizes: padding, 255 in segmentation) reads no element of self and
     * writes none of grad_input, so those are left out: only the target
     * is sure to be read */
    if (!strcmp(op, "aten::nll_loss_forward"))
        return map_nll(m, pn, 0, 1,
                       "the target read (1 B an element: uint8 targets); self's element a row "
                       "left out (not read where the target is ignore_index); the loss written");
    /* backward (grad_output, self, target, ...): grad_input has self's
     * size, but PyTorch zeroes it in a range of its own (aten::zero_,
     * inside this one), which owns that kernel: this range's kernels write
     * one element a row where the target is not ignore_index, read the
     * target (1 B) and grad_output (one element: the one counted) */
    if (!strcmp(op, "aten::nll_loss_backward"))
        return map_nll(m, pn, 1, 2,
                       "target (1 B: uint8) and grad_output's element read; grad_input's "
                       "element a row left out (none at ignore_index; zeroing: aten::zero_'s "
                       "row)");
    if (!strcmp(op, "aten::embedding_dense_backward")) {
        /* (grad_output [..., h], indices, num_weights, ...): grad_output
         * and the indices read; grad_weight [num_weights, h] is written
         * but num_weights is no tensor, so it is left out */
        if (pn->n_shapes < 2 || pn->ndim[0] == 0 || pn->ndim[1] == 0) {
            cr_str_copy(m->note, sizeof m->note, "needs grad_output and indices in sizes");
            return false;
        }
        /* Up to 3,072 indices PyTorch's embedding_backward_feature_kernel
         * skips the rows whose index is padding_idx (no tensor, so not in
         * sizes) without reading their grad_output: a padded batch of
         * 3,072 tokens reads only its real tokens' rows. There the
         * indices alone are counted; above it every row is read (the
         * sorted path reads padding rows too and drops their sums) */
        double idx = cr_rf_numel(pn, 1);
        bool feature = idx <= 3072;
        if (!map_parts(m, 1, feature ? 0 : cr_rf_in_elems(&k->in, pn, 0), cr_rf_numel(pn, 0)))
            return false;
        m->r_bytes = 4 * idx;
        cr_str_copy(m->note, sizeof m->note,
                    feature ? "indices (4 B) read; grad_output left out (up to 3,072 indices, rows "
                              "of padding_idx, not in sizes, are not read), as is grad_weight"
                            : "grad_output and indices (4 B) read; grad_weight (num_weights not in "
                              "sizes) left out");
        return true;
    }
    bool bhsd = op_is(op, attn_bhsd);
    if (bhsd || op_is(op, attn_bshd))
        return map_attention(pn, k, m, 1, !bhsd, CU_SCAN, true);
    return false;
}

/* Whether tensor b of pn broadcasts to tensor a's shape (numpy's rule). */
static bool broadcasts_to(const cr_rf_name *pn, int b, int a)
{
    if (pn->ndim[b] > pn->ndim[a])
        return false;
    for (int k = 1; k <= pn->ndim[b]; k++) {
        int64_t vb = pn->dim[b][pn->ndim[b] - k], va = pn->dim[a][pn->ndim[a] - k];
        if (vb != 1 && vb != va)
            return false;
    }
    return true;
}

/* The most tensor lists a foreach op takes (its overloads'): 3 for lerp
 * (self, end, weights), addcmul and addcdiv; 2 for the binary ones and
 * copy_; 1 for the unary ones; 4 for any other. */
static int foreach_lists(const char *op)
{
    static const char *const three[] = {"lerp", "addcmul", "addcdiv", NULL};
    static const char *const two[] = {"add", "sub",       "mul",       "div",  "maximum", "minimum",
                                      "pow", "clamp_min", "clamp_max", "copy", NULL};
    static const char *const one[] = {"sqrt", "exp",  "neg",     "abs",   "zero",  "reciprocal",
                                      "sign", "log",  "sigmoid", "tanh",  "rsqrt", "norm",
                                      "max",  "ceil", "floor",   "round", "trunc", NULL};
    char base[48];
    cr_str_copy(base, sizeof base, op + 15); /* after "aten::_foreach_" */
    size_t bl = strlen(base);
    if (bl > 0 && base[bl - 1] == '_')
        base[bl - 1] = '\0';
    static const char *const *const sets[] = {three, two, one};
    static const int counts[] = {3, 2, 1};
    for (int s = 0; s < 3; s++)
        for (const char *const *q = sets[s]; *q; q++)
            if (!strcmp(base, *q))
                return counts[s];
    return 4;
}

/* PyTorch's fused Adam and AdamW (AdamW(fused=True)): lists params,
 * grads, exp_avgs, exp_avg_sqs (and max_exp_avg_sqs with amsgrad), of the
 * same shapes, then 0-d step tensors and scalars. Every list is read and
 * all but the grads written; the lists are separate tensors by the op's
 * contract (it updates params and both moments in place from the grads). */
static bool map_fused_adam(const cr_rf_name *pn, const cr_rf_owned *k, cr_rf_case *m)
{
    (void)k;
    if (strcmp(pn->op, "aten::_fused_adam_") != 0 && strcmp(pn->op, "aten::_fused_adamw_") != 0)
        return false;
    int n = 0;
    for (int i = 0; i < pn->n_shapes && pn->ndim[i] > 0; i++)
        n++;
    /* 20 tensors of one shape are 4 lists of 5 (Adam: 35 tensors' worth
     * moved) or 5 lists of 4 (amsgrad: 36): where both fit, the split of
     * the least bytes, the true one or less */
    int best = 0;
    double best_list = 0;
    for (int lists = 5; lists >= 4; lists--) {
        if (n == 0 || n % lists)
            continue;
        int L = n / lists;
        bool same = true;
        for (int a = L; a < n && same; a++)
            same = pn->ndim[a] == pn->ndim[a % L] &&
                   !memcmp(pn->dim[a], pn->dim[a % L], (size_t)pn->ndim[a] * sizeof pn->dim[a][0]);
        if (!same)
            continue;
        double list = 0;
        for (int a = 0; a < L; a++)
            list += cr_rf_numel(pn, a);
        if (!best || (2 * lists - 1) * list < (2 * best - 1) * best_list)
            best = lists, best_list = list;
    }
    if (!best) {
        cr_str_copy(
            m->note, sizeof m->note,
            "its tensors do not form 4 or 5 lists of the same shapes (params, grads, moments)");
        return false;
    }
    /* found_inf, the last argument (torch.amp.GradScaler's 0-d tensor):
     * where it holds 1 (an inf or NaN in the grads, a skipped step) every
     * block of PyTorch's kernel returns before touching the lists
     * (FusedAdamMathFunctor), so only found_inf is sure to be read. In
     * sizes a 0-d tensor and None are both "[]"; input_op_ids show the
     * tensor where a recorded op made it (GradScaler makes it each step) */
    int last = pn->n_shapes - 1;
    if (last > n && pn->n_ids == pn->n_shapes && pn->ndim[last] == 0 && pn->id_op[last] > 0) {
        if (!map_parts(m, 1, 0, 0))
            return false;
        cr_str_copy(m->note, sizeof m->note,
                    "found_inf given (GradScaler): a step it skips reads no list; found_inf alone");
        return true;
    }
    if (!map_parts(m, (best - 1) * best_list, best * best_list, 16 * best_list))
        return false;
    snprintf(m->note, sizeof m->note, "%d lists of %d tensors read, all but the grads written",
             best, n / best);
    return true;
}

/* Foreach operators (PyTorch's optimizers: _foreach_mul_, _lerp_,
 * _addcmul_, _sqrt, _addcdiv_, ...): their tensor lists come one after the
 * other in sizes. Every listed tensor is read or written at least once:
 * the distinct ones (input_op_ids: the same tensor in two lists, such as
 * addcmul_'s grads twice, once; of those no recorded op made, one a place
 * in the lists), each taken as its own memory (the lists of an optimizer
 * hold separate tensors). An op that reads the list it
 * updates in place (all but zero_ and copy_) also writes it, and an
 * out-of-place pointwise one writes a new list of the first list's sizes:
 * of the ways the tensors split into the op's lists (at most its overloads'
 * count, each later list's tensors broadcasting to the first's), the least
 * first list, the true one or less. Without input_op_ids, only that first
 * list (every foreach op reads or writes it). */
static bool map_foreach(const cr_rf_name *pn, const cr_rf_owned *k, cr_rf_case *m)
{
    static const char *const out_of_place[] = {"aten::_foreach_add",
                                               "aten::_foreach_sub",
                                               "aten::_foreach_mul",
                                               "aten::_foreach_div",
                                               "aten::_foreach_sqrt",
                                               "aten::_foreach_exp",
                                               "aten::_foreach_neg",
                                               "aten::_foreach_abs",
                                               "aten::_foreach_pow",
                                               "aten::_foreach_lerp",
                                               "aten::_foreach_addcmul",
                                               "aten::_foreach_addcdiv",
                                               "aten::_foreach_maximum",
                                               "aten::_foreach_minimum",
                                               "aten::_foreach_reciprocal",
                                               "aten::_foreach_clamp_min",
                                               "aten::_foreach_clamp_max",
                                               "aten::_foreach_sign",
                                               "aten::_foreach_sigmoid",
                                               "aten::_foreach_tanh",
                                               "aten::_foreach_log",
                                               "aten::_foreach_rsqrt",
                                               NULL};
    if (strncmp(pn->op, "aten::_foreach_", 15) != 0)
        return false;
    size_t ol = strlen(pn->op);
    bool in_place = pn->op[ol - 1] == '_';
    bool reads_self = in_place && strcmp(pn->op, "aten::_foreach_zero_") != 0 &&
                      strcmp(pn->op, "aten::_foreach_copy_") != 0;
    /* the tensors, in order (scalars and 0-d ones are "[]") */
    int n = 0;
    for (int i = 0; i < pn->n_shapes; i++)
        n += pn->ndim[i] > 0;
    if (n == 0) {
        cr_str_copy(m->note, sizeof m->note, "no tensor in its lists");
        return false;
    }
    int *ti = malloc((size_t)n * sizeof *ti);
    if (!ti) {
        cr_str_copy(m->note, sizeof m->note, "out of memory");
        return false;
    }
    n = 0;
    for (int i = 0; i < pn->n_shapes; i++)
        if (pn->ndim[i] > 0)
            ti[n++] = i;
    /* the first list: k lists of L tensors (k L = m, m = n, or n - 1
     * where the last is 1-D: a tensor of scalars, which only ops of two
     * or more lists take), each later list's i-th
     * tensor broadcasting to the first's i-th; of the splits that fit,
     * the least first list (the true split is one of them) */
    int kmax = foreach_lists(pn->op);
    double first = -1;
    int p = n, in_lists = n; /* its length; the tensors in the lists */
    for (int drop = 0; drop <= 1; drop++) {
        int mm = n - drop;
        if (mm < 1 || (drop && (kmax < 2 || pn->ndim[ti[n - 1]] != 1)))
            continue;
        for (int lists = 1; lists <= kmax && lists <= mm; lists++) {
            if (mm % lists)
                continue;
            int L = mm / lists;
            bool fits = true;
            for (int a2 = L; a2 < mm && fits; a2++)
                fits = broadcasts_to(pn, ti[a2], ti[a2 % L]);
            double sum = 0;
            for (int a2 = 0; fits && a2 < L; a2++)
                sum += cr_rf_numel(pn, ti[a2]);
            if (fits && (first < 0 || sum < first))
                first = sum, p = L, in_lists = mm;
        }
    }
    /* a tensor counts once: at its first place in the lists (its key);
     * those no recorded op made (no key) may be one tensor where they
     * share a place in the lists (addcmul_(v, g, g) of gradients made
     * before the trace), so each place counts its largest of them once */
    double all = 0, *unkeyed = calloc((size_t)p, sizeof *unkeyed);
    if (!unkeyed) {
        free(ti);
        cr_str_copy(m->note, sizeof m->note, "out of memory");
        return false;
    }
    /* a last tensor of scalars (the split that leaves it out of the
     * lists) is not counted: PyTorch takes it on the CPU only
     * (convert_tensor_to_scalar_list), the kernels get the values */
    for (int a = 0; a < in_lists; a++) {
        int i = ti[a], key = cr_rf_in_key(&k->in, i);
        double e = cr_rf_numel(pn, i);
        if (key == i)
            all += e;
        else if (key < 0)
            unkeyed[a % p] = fmax(unkeyed[a % p], e);
    }
    for (int a = 0; a < p; a++)
        all += unkeyed[a];
    free(unkeyed);
    free(ti);
    bool writes = reads_self || (!in_place && op_is(pn->op, out_of_place));
    if (!k->in.has_ids) {
        snprintf(m->note, sizeof m->note,
                 "no input_op_ids: the first list (%d tensors) read or written once", p);
        return map_parts(m, first, 0, first);
    }
    snprintf(m->note, sizeof m->note, "%d tensors, each distinct one once%s (a first list of %d)",
             n, writes ? ", the first list written" : "", p);
    /* written: the first list where the op writes it after reading it (or
     * makes a new one); the rest are reads, at the row's type */
    return writes ? map_parts(m, first, all, all) : map_parts(m, all, 0, all);
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
        cr_str_copy(m->note, sizeof m->note, "range name cut at 256 bytes inside its sizes");
        return false;
    }
    if (!pn->has_sizes) {
        cr_str_copy(m->note, sizeof m->note, "no sizes: trace with emit_nvtx(record_shapes=True)");
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
        /* packed calls' cumulative sequence lengths: after q, k, v
         * (_efficient_attention_forward and _cudnn_attention_forward at 4
         * and 5, after the bias; _flash_attention_forward at 3 and 4) */
        int cu = !strcmp(op, "aten::_flash_attention_forward") ? 3
                 : !strcmp(op, "aten::_efficient_attention_forward") ||
                         !strcmp(op, "aten::_cudnn_attention_forward")
                     ? 4
                     : -1;
        return map_attention(pn, k, m, 0, op_is(op, flash_bshd), cu, false);
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
    if (op_is(op, copy)) {
        if (k->copy && !k->kernel) {
            /* a cudaMemcpy: its bytes and direction as the trace has them */
            m->op = "memcpy";
            put_str(m, "kind",
                    k->copy_kind == CR_COPY_H2D   ? "h2d"
                    : k->copy_kind == CR_COPY_D2H ? "d2h"
                                                  : "d2d");
            put_str(m, "pinned", k->copy_pinned ? "yes" : "no");
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
            double e = fmin(cr_rf_in_elems(&k->in, pn, src), dst);
            if (cr_rf_in_fresh(&k->in, src) || e < dst)
                r = e;
        }
        if (r < dst)
            cr_str_copy(m->note, sizeof m->note,
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
                cr_str_copy(m->note, sizeof m->note,
                            "needs weight [vocab, h] and indices in sizes");
                return false;
            }
            ix = 1;
            out = cr_rf_numel(pn, 1) * (double)pn->dim[0][1];
        } else if (op_is(op, isel)) {
            /* self [rows, h], dim (a scalar, not in sizes), index [n]: n
             * rows of h along dim 0 (how embedding calls it), n columns
             * of rows along dim 1, so the fewer of the two. Taking dim 0
             * bounded x.index_select(1, idx) of x [64, 65536] and 32768
             * indices (4 MiB written) at 32768 x 65536 elements, 882 us
             * on an H200, every call impossible */
            if (pn->n_shapes < 3 || pn->ndim[0] != 2 || pn->ndim[2] != 1) {
                cr_str_copy(m->note, sizeof m->note, "needs a 2-D source and a 1-D index in sizes");
                return false;
            }
            ix = 2;
            out = cr_rf_numel(pn, 2) *
                  (double)(pn->dim[0][0] < pn->dim[0][1] ? pn->dim[0][0] : pn->dim[0][1]);
        } else {
            /* self, dim (not a tensor), index: one element per index
             * element (how torch 2.11 runs embedding on the H200,
             * traces/h200-1/roofline-demo) */
            if (pn->n_shapes < 3 || pn->ndim[2] < 1) {
                cr_str_copy(m->note, sizeof m->note, "needs a source and an index in sizes");
                return false;
            }
            ix = 2;
            out = cr_rf_numel(pn, 2);
        }
        double idx = cr_rf_in_elems(&k->in, pn, ix);
        bool counted = cr_rf_in_fresh(&k->in, ix) || idx < cr_rf_numel(pn, ix);
        if (!map_parts(m, out, 0, 0))
            return false;
        if (counted)
            m->r_bytes = 4 * idx;
        snprintf(m->note, sizeof m->note, "output written%s; the rows read are not counted%s",
                 counted ? ", index read at 4 B an element" : "",
                 counted ? "" : ", nor the index (not shown to be its own size)");
        return true;
    }
    /* each returns true with a case, or false: with a note where the op
     * is its own but the sizes do not do, without one where it is not */
    static bool (*const mappers[])(const cr_rf_name *, const cr_rf_owned *, cr_rf_case *) = {
        map_reduction, map_backward, map_fused_adam, map_foreach, map_pointwise};
    for (size_t i = 0; i < sizeof mappers / sizeof mappers[0]; i++)
        if (mappers[i](pn, k, m) || m->note[0])
            return m->op != NULL;
    snprintf(m->note, sizeof m->note, "no model of %s in the catalog", op);
    return false;
}
