/* SPDX-License-Identifier: MIT */
/*
 * Shape functions of the operator catalog: per GPU (the busiest one) FLOPs,
 * compulsory HBM bytes, what the unfused PyTorch kernels move, and the
 * communication phases, from the parameters alone. doc/operators.md
 * derives every formula; the comments here name the terms.
 *
 * Conventions: e = bytes per element of the dtype, p = the communicating
 * group's size. "Compulsory" HBM bytes are each input read once and each
 * output written once on this GPU; data that arrives over a link may be
 * consumed from shared memory without touching HBM, so it is not counted
 * (the bound must hold for the best fused kernel). Matrix FLOPs count 2 per
 * multiply-add.
 */
#include <math.h>
#include <string.h>

#include "ops_priv.h"

#define V(k) (p->v[CR_OPP_##k])

static double ebytes(const cr_op_params *p)
{
    return cr_dtype_bytes((cr_dtype)(int)V(DTYPE));
}

static cr_status divides(const char *what, double g, const char *gname, double x, const char *xname,
                         cr_diag *d)
{
    (void)what;
    if (fmod(x, g) != 0)
        return cr_diag_set(d, CR_EINVAL, "%s = %.0f must be a multiple of %s = %.0f", xname, x,
                           gname, g);
    return CR_OK;
}

static int comm_dim(const cr_op_params *p, int def)
{
    (void)def;
    return CR_OPP_TP + (int)V(GROUP);
}

static cr_status need_group(const cr_op_params *p, int dim, cr_diag *d)
{
    static const char *const names[] = {"tp", "cp", "ep", "dp", "pp"};
    if (p->v[dim] < 2)
        return cr_diag_set(d, CR_EINVAL,
                           "the %s group has %.0f rank: this operator communicates over %s, give "
                           "it 2 or more ranks (e.g. %s=8)",
                           names[dim - CR_OPP_TP], p->v[dim], names[dim - CR_OPP_TP],
                           names[dim - CR_OPP_TP]);
    return CR_OK;
}

/* A balanced phase of collective c over the group of dimension dim. */
static void set_phase(ops_phase *ph, const char *what, cr_coll c, double bytes, int dim)
{
    memset(ph, 0, sizeof *ph);
    ph->what = what;
    ph->coll = c;
    ph->bytes = bytes;
    ph->skew = 1;
    ph->dim = dim;
    ph->dtype = -1;
}

static void phase(ops_work *w, const char *what, cr_coll c, double bytes, int dim)
{
    set_phase(&w->ph[w->n_ph++], what, c, bytes, dim);
}

/* Starts another algorithm the bound considers (ops_alt) with its FLOPs. */
static ops_alt *alt(ops_work *w, const char *what, double mma_flops, double vec_flops)
{
    ops_alt *a = &w->alt[w->n_alt++];
    memset(a, 0, sizeof *a);
    a->what = what;
    a->mma_flops = mma_flops;
    a->vec_flops = vec_flops;
    return a;
}

/* One of its phases (as phase() for the main algorithm). */
static void alt_phase(ops_alt *a, const char *what, cr_coll c, double bytes, int dim)
{
    set_phase(&a->ph[a->n_ph++], what, c, bytes, dim);
}

static void init(const cr_op_params *p, ops_work *w, int dim)
{
    memset(w, 0, sizeof *w);
    w->dt = (cr_dtype)(int)V(DTYPE);
    w->group_size = dim >= 0 ? (int)p->v[dim] : 1;
}

static void finish(ops_work *w)
{
    w->flops = w->mma_flops + w->vec_flops;
    if (w->base_hbm_bytes == 0) /* the PyTorch kernels move what the fused one does */
        w->base_hbm_bytes = w->hbm_bytes;
}

/* --- single GPU --------------------------------------------------------- */

/* C[m,n] = A[m,k] B[k,n], batch times: 2bmnk FLOPs; A, B read once (a
 * batched matmul's operand may be one matrix broadcast over the batch,
 * PyTorch's matmul([1, m, k], [b, k, n]) is a bmm of an expanded A: the
 * least it must read), each C written. */
cr_status ops_shape_gemm(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    (void)d;
    init(p, w, -1);
    double e = ebytes(p), m = V(M), n = V(N), k = V(K), b = V(BATCH);
    w->mma_flops = 2 * b * m * n * k;
    w->hbm_bytes = e * (m * k + k * n + b * m * n);
    w->kernel = OPS_KERNEL_GEMM;
    w->gm = b * m, w->gn = n, w->gk = k;
    w->base_kernels = 1;
    finish(w);
    return CR_OK;
}

/* d2d reads and writes every byte in HBM; h2d writes, d2h reads. */
cr_status ops_shape_memcpy(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    (void)d;
    init(p, w, -1);
    w->copy_kind = (int)V(KIND);
    w->pinned = V(PINNED) != 0;
    w->hbm_bytes = (w->copy_kind == 0 ? 2 : 1) * V(BYTES);
    w->kernel = OPS_KERNEL_NONE;
    w->base_kernels = 1;
    finish(w);
    return CR_OK;
}

cr_status ops_shape_elementwise(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, -1);
    if (V(READS) + V(WRITES) < 1)
        return cr_diag_set(d, CR_EINVAL,
                           "elementwise: reads = %.0f and writes = %.0f move nothing: give at "
                           "least one tensor read or written per element",
                           V(READS), V(WRITES));
    double e = ebytes(p), n = V(ELEMS);
    w->vec_flops = V(FLOPS_PER) * n;
    w->hbm_bytes = (V(READS) + V(WRITES)) * n * e;
    w->kernel = OPS_KERNEL_STREAM;
    w->base_kernels = 1;
    finish(w);
    return CR_OK;
}

/* --- collectives -------------------------------------------------------- */

/* A message of bytes B is whole elements of e bytes (type dt). */
static cr_status whole_elements(double b, double e, cr_dtype dt, cr_diag *d)
{
    if (fmod(b, e) == 0)
        return CR_OK;
    return cr_diag_set(d, CR_EINVAL, "bytes = %.0f is not a whole number of %s elements", b,
                       cr_dtype_name(dt));
}

cr_status ops_shape_coll(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    int dim = comm_dim(p, CR_OPP_TP);
    init(p, w, dim);
    cr_status st = need_group(p, dim, d);
    if (st != CR_OK)
        return st;
    cr_coll c = (cr_coll)(int)V(COLL);
    double e = ebytes(p), pp = w->group_size, s = V(BYTES);
    if ((st = whole_elements(s, e, w->dt, d)) != CR_OK)
        return st;
    /* A buffer split over the ranks runs as nccl-tests sizes it, each
     * rank's part whole elements and a multiple of 16 bytes, as `commroof
     * coll` rounds it (QA audit, 2026-12-06: an allgather of 18 B over 8
     * ranks gave fractional counts here and 0 B in coll); one too small
     * to give every rank a part is refused. */
    double run = cr_coll_nccl_bytes(c, s, e, (int)pp);
    if (!(run > 0) && s > 0) {
        double step = cr_coll_nccl_bytes(c, pp * 16, e, (int)pp); /* 16 B a rank */
        return cr_diag_set(d, CR_EINVAL,
                           "bytes = %.0f is too small to split over the group of %.0f ranks as "
                           "NCCL runs it (each rank's part a multiple of 16 bytes): give at "
                           "least %.0f",
                           s, pp, step);
    }
    s = run;
    /* A reduction adds p-1 contributions per element, shared by p ranks. The
     * rooted collectives count the root, which reads or writes the most. */
    if (cr_coll_reduces(c))
        w->vec_flops = (pp - 1) / pp * s / e;
    w->hbm_bytes =
        cr_coll_send_bytes(c, s, w->group_size) + cr_coll_recv_bytes(c, s, w->group_size);
    w->kernel = OPS_KERNEL_NONE;
    phase(w, cr_coll_name(c), c, s, dim);
    finish(w);
    return CR_OK;
}

/* --- tensor parallel ---------------------------------------------------- */

/* The least elements a rank receives when the tp GEMM's work is split over
 * a p1 x p2 x p3 grid of the g ranks (p1 over m, p2 over n, p3 over k;
 * every factorisation of g tried): rank (i, j, l) gathers A[m/p1, k/p3]
 * and B[k/p3, n/p2] from the ranks that hold their pieces, computes that
 * partial block (2 m n k / g FLOPs, as every algorithm here), the p3 ranks
 * of (i, j) reduce-scatter it, and the blocks go where the output lives
 * (3-D matrix multiplication, Agarwal et al. 1995; its 1 x 1 x g, g x 1 x 1
 * and 1 x g x 1 grids are the 1-D algorithms above, and splits of those
 * mix them linearly, missing the interior grids: an audit, session 44, on
 * dgx-a100-8 gemm_rs 4096^3 tp 8, grid 2 x 1 x 4, 18.9 MB a GPU against
 * the bound's 26.7). Per rank, *part the partial sums' (p3-1)/p3 mn/(p1 p2)
 * and the return value the rest, for the inputs and output of `kind`:
 *   GRID_RS (A[m, k/g], B[k/g, n] in, C[m/g, n] out):
 *     m/p1 k (1/p3 - 1/g) + n/p2 k (1/p3 - 1/g) + (p2-1)/p2 mn/g;
 *   GRID_AG (A[m/g, k], B[k, n/g] in, C[m, n/g] out):
 *     (m/p1 - m/g) k/p3 + k/p3 (n/p2 - n/g) + (p1-1)/p1 mn/g;
 *   GRID_AR (as GRID_RS in, all of C on every rank): GRID_RS's first two
 *     terms + (g-1)/g mn (an allgather of the reduced blocks).
 * The grid is the one whose sum is least. */
enum grid_kind { GRID_RS, GRID_AG, GRID_AR };
static double grid3_elems(double m, double n, double k, double g, enum grid_kind kind, double *part)
{
    double best = INFINITY;
    long G = (long)g;
    *part = 0;
    for (long p1 = 1; p1 <= G; p1++) {
        if (G % p1)
            continue;
        for (long p2 = 1; p2 <= G / p1; p2++) {
            if ((G / p1) % p2)
                continue;
            double a = (double)p1, b = (double)p2, c = (double)(G / p1 / p2);
            double sums = (c - 1) / c * m * n / (a * b), r;
            if (kind == GRID_AG)
                r = (m / a - m / g) * k / c + k / c * (n / b - n / g) + (a - 1) / a * m * n / g;
            else
                r = m / a * k * (1 / c - 1 / g) + n / b * k * (1 / c - 1 / g) +
                    (kind == GRID_AR ? (g - 1) / g * m * n : (b - 1) / b * m * n / g);
            if (r + sums < best) {
                best = r + sums;
                *part = sums;
            }
        }
    }
    return best - *part;
}

/* That split as an alternative: an allgather over the group that brings
 * each GPU the gathered and exchanged elements ((g-1)/g of its size), and
 * a reducescatter whose share into each GPU is the partial sums', which
 * the switches' reduction lowers where they have it. On one NVLink or
 * NVSwitch domain the GPUs' ports are the only cut and this is the
 * schedule's own bound; across nodes or PCIe switches the grid's groups
 * could be placed so that less crosses those cuts than the whole-group
 * collectives spread over them, which this does not credit, nor a grid
 * better only with in-switch reduction (doc/bounds.md 1.9.1). */
static void grid3_alt(const cr_op_params *p, ops_work *w, enum grid_kind kind)
{
    double e = ebytes(p), g = V(TP), part;
    if (g < 2)
        return;
    double r = grid3_elems(V(M), V(N), V(K), g, kind, &part);
    ops_alt *a = alt(w, "split the work over a 3-D grid of the ranks (m x n x k)", w->mma_flops, 0);
    alt_phase(a, "the grid's gathers and exchanges", CR_COLL_ALLGATHER, r * e * g / (g - 1),
              CR_OPP_TP);
    if (part > 0)
        alt_phase(a, "the grid's partial sums", CR_COLL_REDUCESCATTER, part * e * g / (g - 1),
                  CR_OPP_TP);
}

/* A[m,k] sharded by rows (m/p each), B[k,n/p] column-parallel: allgather A
 * (m k e gathered), then C[m,n/p] = A B. */
cr_status ops_shape_ag_gemm(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_TP);
    double e = ebytes(p), m = V(M), n = V(N), k = V(K), g = V(TP);
    cr_status st = need_group(p, CR_OPP_TP, d);
    if (st == CR_OK)
        st = divides("", g, "tp", m, "m", d);
    if (st == CR_OK)
        st = divides("", g, "tp", n, "n", d);
    if (st != CR_OK)
        return st;
    w->mma_flops = 2 * m * (n / g) * k;
    w->hbm_bytes = e * (m * k / g + k * n / g + m * n / g);
    w->base_hbm_bytes = e * (m * k + k * n / g + m * n / g); /* GEMM reads the gathered A */
    w->base_kernels = 1;
    w->kernel = OPS_KERNEL_GEMM;
    w->gm = m, w->gn = n / g, w->gk = k;
    phase(w, "allgather A", CR_COLL_ALLGATHER, m * k * e, CR_OPP_TP);
    /* or gather B, compute C[m/p, n] and exchange its blocks: less when
     * m is large against n (an audit: m 65536, n 1024, k 8192) */
    ops_alt *a = alt(w, "gather B, exchange C's blocks", w->mma_flops, 0);
    alt_phase(a, "allgather B", CR_COLL_ALLGATHER, k * n * e, CR_OPP_TP);
    alt_phase(a, "all-to-all C", CR_COLL_ALLTOALL, m / g * n * e, CR_OPP_TP);
    /* or split k: all-to-alls of A's column blocks (a rank's send buffer
     * m/p x k e) and of B's row blocks (k x n/p e) leave A[m, k/p] and
     * B[k/p, n] on each rank, a partial C[m, n] of the same 2 m n k/p FLOPs,
     * and a reducescatter of C (m n e) by column blocks adds the partials
     * ((p-1)/p m n adds a rank). Per rank (p-1)/p of mk/p + kn/p + mn against
     * mk (gather A) and kn + mn/p (gather B): less where k is large against
     * m and n (an audit: 4096 x 4096 x 16384 on 8 H200 bound 229.5 -> 115.1
     * us) */
    ops_alt *c =
        alt(w, "exchange A's and B's blocks, reducescatter C", w->mma_flops, (g - 1) / g * m * n);
    alt_phase(c, "all-to-all A", CR_COLL_ALLTOALL, m / g * k * e, CR_OPP_TP);
    alt_phase(c, "all-to-all B", CR_COLL_ALLTOALL, k * n / g * e, CR_OPP_TP);
    /* fp4 has no reduction (NCCL's or the GPUs'): the partials go as fp8,
     * the narrowest type that has one, a byte each */
    bool fp4 = (int)V(DTYPE) == CR_DT_FP4;
    alt_phase(c, "reducescatter C", CR_COLL_REDUCESCATTER, m * n * (fp4 ? 1.0 : e), CR_OPP_TP);
    if (fp4)
        c->ph[2].dtype = CR_DT_FP8;
    if (!fp4) /* its partial sums would need a reduction fp4 lacks */
        grid3_alt(p, w, GRID_AG);
    w->overlappable = w->tile_aligned = true;
    finish(w);
    return CR_OK;
}

/* A[m,k/p] B[k/p,n] row-parallel: partial C[m,n], reducescatter to
 * C[m/p,n]; the owner adds p-1 partials per element of its shard. */
cr_status ops_shape_gemm_rs(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_TP);
    double e = ebytes(p), m = V(M), n = V(N), k = V(K), g = V(TP);
    cr_status st = need_group(p, CR_OPP_TP, d);
    if (st == CR_OK)
        st = divides("", g, "tp", m, "m", d);
    if (st == CR_OK)
        st = divides("", g, "tp", k, "k", d);
    if (st != CR_OK)
        return st;
    w->mma_flops = 2 * m * n * (k / g);
    w->vec_flops = (g - 1) / g * m * n;
    w->hbm_bytes = e * (m * k / g + k / g * n + m * n / g);
    w->base_hbm_bytes = e * (m * k / g + k / g * n + m * n); /* writes the whole partial */
    w->base_kernels = 1;
    w->kernel = OPS_KERNEL_GEMM;
    w->gm = m, w->gn = n, w->gk = k / g;
    phase(w, "reducescatter C", CR_COLL_REDUCESCATTER, m * n * e, CR_OPP_TP);
    /* or gather the inputs: A's rows of this rank's shard (an all-to-all of
     * the A shards by row blocks) and all of B, then C[m/p, n] = A B with no
     * reduction: less when k is small against n (an audit: k 1024, 7x) */
    ops_alt *a = alt(w, "gather A's rows and B", w->mma_flops, 0);
    alt_phase(a, "all-to-all A", CR_COLL_ALLTOALL, m * (k / g) * e, CR_OPP_TP);
    alt_phase(a, "allgather B", CR_COLL_ALLGATHER, k * n * e, CR_OPP_TP);
    /* or split n: gather all of A (m k e), an all-to-all of the B shards by
     * column blocks (a rank's send buffer k/p x n e) leaves B[k, n/p] on
     * each rank, C[m, n/p] = A B with the same 2 m n k/p FLOPs and no
     * reduction, and an all-to-all of C's row blocks (m n/p e a rank) gives
     * each its C[m/p, n]. Per rank (p-1)/p of mk + kn/p + mn/p against mn
     * (reducescatter) and mk/p + kn (the row split): less where n is large
     * against m and k is not (an audit: 4096 x 16384 x 4096 on 8 H200 bound
     * 229.5 -> 115.0 us) */
    ops_alt *c = alt(w, "gather A, exchange B's and C's blocks", w->mma_flops, 0);
    alt_phase(c, "allgather A", CR_COLL_ALLGATHER, m * k * e, CR_OPP_TP);
    alt_phase(c, "all-to-all B", CR_COLL_ALLTOALL, k / g * n * e, CR_OPP_TP);
    alt_phase(c, "all-to-all C", CR_COLL_ALLTOALL, m * n / g * e, CR_OPP_TP);
    grid3_alt(p, w, GRID_RS);
    w->overlappable = w->tile_aligned = true;
    finish(w);
    return CR_OK;
}

/* Row-parallel GEMM then allreduce of C[m,n]: every rank ends with C. */
cr_status ops_shape_gemm_ar(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_TP);
    double e = ebytes(p), m = V(M), n = V(N), k = V(K), g = V(TP);
    cr_status st = need_group(p, CR_OPP_TP, d);
    if (st == CR_OK)
        st = divides("", g, "tp", k, "k", d);
    if (st != CR_OK)
        return st;
    w->mma_flops = 2 * m * n * (k / g);
    w->vec_flops = (g - 1) / g * m * n;
    w->hbm_bytes = e * (m * k / g + k / g * n + m * n);
    w->base_kernels = 1;
    w->kernel = OPS_KERNEL_GEMM;
    w->gm = m, w->gn = n, w->gk = k / g;
    phase(w, "allreduce C", CR_COLL_ALLREDUCE, m * n * e, CR_OPP_TP);
    /* or gather A and B and compute all of C on every rank (p times the
     * FLOPs): less when k is small (an audit: k 64, 17x) */
    ops_alt *a = alt(w, "gather A and B, compute all of C", 2 * m * n * k, 0);
    alt_phase(a, "allgather A", CR_COLL_ALLGATHER, m * k * e, CR_OPP_TP);
    alt_phase(a, "allgather B", CR_COLL_ALLGATHER, k * n * e, CR_OPP_TP);
    /* or split n (or m) and gather C: gather all of A (m k e) and exchange B's
     * column blocks (an all-to-all, k/p x n e a rank), C[m, n/p] = A B with
     * the same 2 m n k/p FLOPs and no reduction, then allgather C (m n e);
     * splitting m instead exchanges A's row blocks (m k/p e a rank) and
     * gathers B (k n e), the cheaper where m > n. Per rank (p-1)/p of
     * min(mk + kn/p, mk/p + kn) + mn against the allreduce's 2 (p-1)/p mn
     * without in-switch reduction: less where min(mk + kn/p, mk/p + kn) < mn
     * (an audit: 8192 x 8192 x 2048 on 8 A100 bound 709.1 -> 454.5 us, where
     * computing all of C takes 881). With it (NVLS) the allreduce costs about
     * one allgather of C, and this never moves less. */
    bool by_n = m * k + k * n / g <= m * k / g + k * n;
    ops_alt *c = alt(w,
                     by_n ? "gather A, exchange B's blocks, allgather C"
                          : "gather B, exchange A's blocks, allgather C",
                     w->mma_flops, 0);
    alt_phase(c, by_n ? "allgather A" : "all-to-all A", by_n ? CR_COLL_ALLGATHER : CR_COLL_ALLTOALL,
              by_n ? m * k * e : m * k / g * e, CR_OPP_TP);
    alt_phase(c, by_n ? "all-to-all B" : "allgather B", by_n ? CR_COLL_ALLTOALL : CR_COLL_ALLGATHER,
              by_n ? k / g * n * e : k * n * e, CR_OPP_TP);
    alt_phase(c, "allgather C", CR_COLL_ALLGATHER, m * n * e, CR_OPP_TP);
    grid3_alt(p, w, GRID_AR);
    w->overlappable = w->tile_aligned = true;
    finish(w);
    return CR_OK;
}

/* Megatron sequence parallelism around a norm: partial X[m,h] ->
 * reducescatter -> Y = X_shard + residual -> Z = norm(Y) gamma (+ beta) ->
 * allgather Z[m,h]. Norm FLOPs per element: RMS 4 (square, accumulate,
 * scale, gamma), Layer 7 (mean, subtract, square, accumulate, scale,
 * gamma, beta); residual add 1. */
cr_status ops_shape_sp_norm(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_TP);
    double e = ebytes(p), m = V(M), h = V(HIDDEN), g = V(TP);
    bool layer = V(NORM) != 0;
    cr_status st = need_group(p, CR_OPP_TP, d);
    if (st == CR_OK)
        st = divides("", g, "tp", m, "m", d);
    if (st != CR_OK)
        return st;
    double per = layer ? 7 : 4, params = layer ? 2 * h : h;
    w->vec_flops = (g - 1) / g * m * h + m * h / g * (1 + per);
    /* read partial X (m h), read residual shard, write the new residual
     * shard, write the gathered output (m h), read gamma (and beta). */
    w->hbm_bytes = e * (m * h + 2 * m * h / g + m * h + params);
    /* PyTorch: add kernel (2 reads, 1 write) and norm kernel (read, write)
     * on the shard; NCCL moves the full-size tensors. */
    w->base_hbm_bytes = e * (5 * m * h / g + params);
    w->base_kernels = 2;
    w->kernel = OPS_KERNEL_STREAM;
    phase(w, "reducescatter X", CR_COLL_REDUCESCATTER, m * h * e, CR_OPP_TP);
    phase(w, "allgather Z", CR_COLL_ALLGATHER, m * h * e, CR_OPP_TP);
    w->overlappable = w->tile_aligned = true;
    finish(w);
    return CR_OK;
}

/* --- context parallel --------------------------------------------------- */

/* Attention FLOPs of the whole sequence: QK^T and PV, 2 b H d FLOPs per
 * (query, key) pair each; causal attends to S(S+1)/2 pairs. */
static double attn_flops(const cr_op_params *p)
{
    double s = V(SEQ);
    double pairs = V(CAUSAL) != 0 ? s * (s + 1) / 2 : s * s;
    return 4 * V(BATCH) * V(HEADS) * V(HEAD_DIM) * pairs;
}

static cr_status attn_check(const cr_op_params *p, cr_diag *d)
{
    cr_status st = need_group(p, CR_OPP_CP, d);
    if (st == CR_OK)
        st = divides("", V(CP), "cp", V(SEQ), "seq", d);
    if (st == CR_OK && fmod(V(HEADS), V(KV_HEADS)) != 0)
        st = cr_diag_set(d, CR_EINVAL, "heads = %.0f must be a multiple of kv_heads = %.0f",
                         V(HEADS), V(KV_HEADS));
    return st;
}

/* Attention on one GPU (PyTorch's scaled_dot_product_attention, flash or
 * memory-efficient): the FLOPs of the two matmuls (attn_flops: 4 b H d
 * pairs, pairs = S^2, or S (S + 1) / 2 when causal); the compulsory bytes
 * are Q, K, V read once and O written once, e b S d (2 H + 2 Hkv): a flash
 * kernel keeps the S x S scores on chip (Dao et al. 2022), so nothing
 * else must reach HBM. doc/operators.md. */
cr_status ops_shape_attention(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, -1);
    if (fmod(V(HEADS), V(KV_HEADS)) != 0)
        return cr_diag_set(d, CR_EINVAL, "heads = %.0f must be a multiple of kv_heads = %.0f",
                           V(HEADS), V(KV_HEADS));
    double e = ebytes(p), b = V(BATCH), s = V(SEQ), hd = V(HEAD_DIM);
    w->mma_flops = attn_flops(p);
    w->hbm_bytes = e * b * s * hd * (2 * V(HEADS) + 2 * V(KV_HEADS));
    if (V(BACKWARD) != 0) {
        /* dV = P^T dO, dP = dO V^T, dQ = dS K, dK = dS^T Q, and S = Q K^T
         * again: P is no input (only O and the log-sum-exp are), and dS =
         * P (dP - rowsum(dO O)) needs it, so five matmuls of the size of
         * the forward's two: 2.5x its FLOPs (the count FlashAttention-2's
         * benchmarks use, Dao 2023, arXiv:2307.08691). Compulsory bytes:
         * Q, K, V, dO read and dQ, dK, dV written, e b S d (3 H + 4 Hkv).
         * O is FlashAttention-2's input (Algorithm 2 line 4: D = rowsum(dO
         * o O)) but no compulsory one: D = rowsum(P o dP) too, from Q, K,
         * V and dO, and a kernel that spends the FLOPs of a first pass
         * over S and dP skips reading O (a QA audit of 2026-12-07: the
         * bound read O and was 8/7 too high where the backward is memory
         * bound, 1/8 of MHA's bytes); the log-sum-exp (fp32, b H S) is
         * left out likewise. The PyTorch kernel reads O. */
        w->mma_flops *= 2.5;
        w->hbm_bytes = e * b * s * hd * (3 * V(HEADS) + 4 * V(KV_HEADS));
        w->base_hbm_bytes = e * b * s * hd * (4 * V(HEADS) + 4 * V(KV_HEADS));
    }
    w->base_kernels = 1;
    w->kernel = OPS_KERNEL_MATMUL;
    finish(w);
    return CR_OK;
}

/* Causal ring attention may send queries where they need fewer bytes than
 * keys and values. Of two ranks i < j (zigzag chunks of c = S/2p tokens:
 * i holds i and 2p-1-i), i's late queries attend both of j's chunks (K, V:
 * 4 Hkv c a head-dim column) and j's queries both attend i's early chunk
 * (2 Hkv c). Sending i's late queries to j and their partial outputs back
 * (H c each way) instead of j's K and V leaves i -> j 2 Hkv c + H c and
 * j -> i H c, against 4 Hkv c: less where H < 2 Hkv (multi-head attention).
 * The busiest direction, lowest rank to the rest, moves (p - 1) of those
 * per-pair figures: an allgather of p (2 Hkv + H) c per head-dim column.
 * Rank j then computes its own chunks (2c^2 + c token pairs) and 4c^2 with
 * every lower rank: rank p-1 is the busiest. Partial outputs are taken in
 * the input's type and their log-sum-exps left out (less, so still a
 * bound). Non-causal attention gains nothing: every pair needs both ways. */
static void ring_attn_send_queries(const cr_op_params *p, ops_work *w)
{
    double e = ebytes(p), g = V(CP), b = V(BATCH), hd = V(HEAD_DIM);
    double hq = V(HEADS), hkv = V(KV_HEADS), c = V(SEQ) / (2 * g);
    double pairs = 2 * c * c + c + 4 * (g - 1) * c * c;
    ops_alt *a = alt(w, "send late queries, not K and V", 4 * b * hq * hd * pairs, 0);
    alt_phase(a, "K,V early chunks, late queries and partial outputs", CR_COLL_ALLGATHER,
              g * (2 * hkv + hq) * c * b * hd * e, CR_OPP_CP);
}

/* Causal attention whose binding cut splits the CP group in two halves
 * that share one link (a PCIe switch's uplink, a node's NICs: the ranks
 * under one switch or in one node): re-shard by heads inside each half
 * over its cheap links, and across the cut choose, per head, between
 * sending the keys' K and V one way and sending the queries one way and
 * their partial outputs back, in the shares that balance the two
 * directions (bound audit, session 43: on l40s-pcie-8 at the defaults 40
 * MiB each way over the uplink, 1338 us, where the catalog's other
 * schedules gave 1864). The bytes each way across the halves' cut, with q
 * a chunk's queries (and its outputs), kv its keys and values, per 2p
 * chunks of the sequence:
 *   zigzag (rank i holds chunks i and 2p-1-i): the first half's late
 *     queries (p/2 chunks) need all p of the second half's keys, the
 *     second half's queries the first half's p/2 early keys; x of the
 *     heads send the former's K,V and y the latter's queries:
 *       out = (1-x) p/2 q + (1-y) p/2 kv + y p q,
 *       in  = x p kv + (1-x) p/2 q + y p q,
 *     minimised over x, y in [0, 1] at a corner or where out = in on an
 *     edge of the square (their maximum is convex);
 *   contiguous (rank i holds chunks 2i and 2i+1): the second half's
 *     queries need the first half's p chunks of keys: p min(q, kv).
 * The log-sum-exps that go with partial outputs are left out (less, so
 * still a bound). */
static double causal_halves_bytes(double g, double q, double kv, bool zigzag)
{
    if (!zigzag)
        return g * fmin(q, kv);
    double best = INFINITY;
    /* out - in = a + bx x + by y, along each edge of the square */
    double a = g / 2 * kv, bx = -g * kv, by = -g / 2 * kv;
    double cand[8][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    int n = 4;
    for (int e = 0; e < 2; e++) { /* x = e: solve for y; y = e: solve for x */
        double y = -(a + bx * e) / by, x = -(a + by * e) / bx;
        if (y >= 0 && y <= 1)
            cand[n][0] = e, cand[n++][1] = y;
        if (x >= 0 && x <= 1)
            cand[n][0] = x, cand[n++][1] = e;
    }
    for (int i = 0; i < n; i++) {
        double x = cand[i][0], y = cand[i][1];
        double out = (1 - x) * g / 2 * q + (1 - y) * g / 2 * kv + y * g * q;
        double in = x * g * kv + (1 - x) * g / 2 * q + y * g * q;
        best = fmin(best, fmax(out, in));
    }
    return best;
}

/* That schedule as an alternative: an all-to-all of x bytes a rank moves
 * p x / 4 each way between two halves of the group, so x = 4 B / p makes
 * its crossing the schedule's B. A GPU's ports then carry (p-1)/p x, less
 * than the schedule's re-sharding puts there where it was worked out (17.5
 * against 34 MiB on l40s-pcie-8); an alternative only ever lowers the
 * bound. Each rank computes total/p (the heads are shared out evenly).
 * zigzag_only: the layout is ring attention's; else (Ulysses, whose
 * sequence shards may be either) the least of the two layouts. */
static void causal_halves_alt(const cr_op_params *p, ops_work *w, bool zigzag_only)
{
    double g = V(CP);
    if (V(CAUSAL) == 0 || g < 2 || fmod(g, 2) != 0)
        return;
    double e = ebytes(p), c = V(SEQ) / (2 * g), b = V(BATCH), hd = V(HEAD_DIM);
    double q = b * c * V(HEADS) * hd * e, kv = 2 * b * c * V(KV_HEADS) * hd * e;
    double across = causal_halves_bytes(g, q, kv, true);
    if (!zigzag_only)
        across = fmin(across, causal_halves_bytes(g, q, kv, false));
    ops_alt *a = alt(w, "re-shard by heads within halves, split the heads across", w->mma_flops, 0);
    alt_phase(a, "all-to-all across the halves", CR_COLL_ALLTOALL, 4 * across / g, CR_OPP_CP);
}

/* Ring attention (zigzag load balancing, so every rank does total/p work
 * even when causal): each rank needs every other rank's K and V, an
 * allgather of 2 b S Hkv d e bytes. split=contiguous: the sequence arrives
 * in cp contiguous shards (ParallelKernelBench's layout); the work per
 * rank is still counted at its average, total/p, which no rank's is
 * below. */
cr_status ops_shape_ring_attn(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_CP);
    cr_status st = attn_check(p, d);
    bool zigzag = V(SPLIT) == 0;
    /* causal ring attention balances the mask with the zigzag split: 2 cp
     * chunks, rank i holding chunks i and 2 cp - 1 - i */
    if (st == CR_OK && zigzag && V(CAUSAL) != 0 && fmod(V(SEQ), 2 * V(CP)) != 0)
        st = cr_diag_set(d, CR_EINVAL,
                         "seq = %.0f must be a multiple of 2 x cp = %.0f when causal (the zigzag "
                         "split gives each rank two chunks)",
                         V(SEQ), 2 * V(CP));
    if (st != CR_OK)
        return st;
    double e = ebytes(p), g = V(CP), b = V(BATCH), s = V(SEQ), hd = V(HEAD_DIM);
    double hq = V(HEADS), hkv = V(KV_HEADS);
    w->mma_flops = attn_flops(p) / g;
    w->hbm_bytes = e * b * (s / g) * hd * (2 * hq + 2 * hkv); /* Q, K, V shards in, O out */
    /* PyTorch: allgather K, V, then flash attention reads the gathered K, V. */
    w->base_hbm_bytes = e * b * hd * ((s / g) * 2 * hq + s * 2 * hkv);
    w->base_kernels = 1;
    w->kernel = OPS_KERNEL_MATMUL;
    phase(w, "allgather K,V", CR_COLL_ALLGATHER, 2 * b * s * hkv * hd * e, CR_OPP_CP);
    if (V(CAUSAL) != 0 && g > 1)
        ring_attn_send_queries(p, w);
    /* or re-shard by heads as Ulysses does: the layout (Q, K, V and O sharded
     * by sequence) is Ulysses' too. An all-to-all sends each rank the whole
     * sequence of its H/p query heads and of the KV heads they use
     * (max(Hkv/p, 1) of them: with Hkv < p a KV head goes to the p/Hkv ranks
     * of its query group), a rank's send buffer b (S/p) (H + 2 p
     * max(Hkv/p, 1)) d e; attention on H/p heads of every token is exactly
     * total/p FLOPs, causal or not; an all-to-all of O (b (S/p) H d e) back.
     * Per rank (p-1)/p of (2H + 2Hkv) b (S/p) d e against (p-1)/p of
     * 2 Hkv b S d e: less where H + Hkv < p Hkv, multi-head attention on 3
     * or more ranks (an audit: MHA 32 heads, cp 8, 8192 tokens, batch 16 on
     * 8 H200 bound 3663 -> 2223 us, compute) */
    double kvr = fmax(hkv / g, 1);
    if (fmod(hq, g) == 0 && (fmod(hkv, g) == 0 || fmod(g, hkv) == 0)) {
        ops_alt *a = alt(w, "re-shard by heads (Ulysses)", w->mma_flops, 0);
        alt_phase(a, "all-to-all Q,K,V", CR_COLL_ALLTOALL,
                  e * b * (s / g) * (hq + 2 * g * kvr) * hd, CR_OPP_CP);
        alt_phase(a, "all-to-all O", CR_COLL_ALLTOALL, e * b * (s / g) * hq * hd, CR_OPP_CP);
    }
    /* last: where it ties with the above (the compute binds) they name the
     * bound. Contiguous shards, as Ulysses takes them, allow the contiguous
     * layout's schedule too (the least of the two: PKB 54 on hgx-h100-8
     * 0.7397 -> 0.7118 us, where Ulysses' bound on the same problem was
     * below ring attention's; QA audit of the PKB suite, session 44) */
    causal_halves_alt(p, w, zigzag);
    w->overlappable = w->tile_aligned = true;
    finish(w);
    return CR_OK;
}

/* Ulysses: all-to-all Q, K, V from sequence to head sharding (one rank's
 * send buffer b (S/p) (H + 2 Hkv) d e), attention on H/p heads of the whole
 * sequence, all-to-all O back (b (S/p) H d e). */
cr_status ops_shape_ulysses(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_CP);
    cr_status st = attn_check(p, d);
    if (st == CR_OK)
        st = divides("", V(CP), "cp", V(KV_HEADS), "kv_heads", d);
    if (st != CR_OK)
        return st;
    double e = ebytes(p), g = V(CP), b = V(BATCH), s = V(SEQ), hd = V(HEAD_DIM);
    double hq = V(HEADS), hkv = V(KV_HEADS);
    double qkv = e * b * (s / g) * (hq + 2 * hkv) * hd, o = e * b * (s / g) * hq * hd;
    w->mma_flops = attn_flops(p) / g;
    w->hbm_bytes = qkv + o;
    /* PyTorch: a contiguous permute (read + write) around each all-to-all,
     * then flash attention on the head shard (same bytes as the shards). */
    w->base_hbm_bytes = 2 * qkv + 2 * o + qkv + o;
    w->base_kernels = 3;
    w->kernel = OPS_KERNEL_MATMUL;
    phase(w, "all-to-all Q,K,V", CR_COLL_ALLTOALL, qkv, CR_OPP_CP);
    phase(w, "all-to-all O", CR_COLL_ALLTOALL, o, CR_OPP_CP);
    /* or gather K and V, as ring attention does, each rank attending its own
     * queries: less where Hkv (p - 1) < H (an audit: 128 heads on 8 KV
     * heads); the FLOPs a GPU at least is the average */
    ops_alt *a = alt(w, "gather K and V (ring attention)", w->mma_flops, 0);
    alt_phase(a, "allgather K,V", CR_COLL_ALLGATHER, 2 * b * s * hkv * hd * e, CR_OPP_CP);
    causal_halves_alt(p, w, false);
    w->overlappable = true;
    finish(w);
    return CR_OK;
}

/* --- expert parallel ---------------------------------------------------- */

/* Load of the hottest rank over the mean: the skew, capped by the capacity
 * factor (tokens beyond capacity are dropped before dispatch) and by p
 * (everything on one rank). A capacity factor under 1 caps every expert
 * below the mean, so the load may be under 1 (doc/operators.md: L =
 * min(L_0, c, p)). */
static double moe_load(const cr_op_params *p, double g)
{
    double l = V(SKEW);
    if (V(CAPACITY) > 0)
        l = fmin(l, V(CAPACITY));
    return fmin(l, g);
}

/* Load of every other rank over the mean: (p - L_0)/(p - 1) of the routing
 * skew L_0 (what the hot rank loses at its capacity is dropped, not sent to
 * the others), itself capped by the capacity factor. */
static double moe_other_load(const cr_op_params *p, double g)
{
    double o = g > 1 ? (g - V(SKEW)) / (g - 1) : 1;
    if (V(CAPACITY) > 0)
        o = fmin(o, V(CAPACITY));
    return fmax(o, 0);
}

/* MoE forward: router GEMM (2 t h E), dispatch all-to-all (each rank sends
 * t k token copies of h e bytes), SwiGLU experts on the hottest rank's
 * L t k tokens (3 GEMMs of h x f: 6 h f FLOPs per token), combine
 * all-to-all back, weighted sum (2 t k h). */
cr_status ops_shape_moe(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_EP);
    double e = ebytes(p), g = V(EP), t = V(TOKENS), h = V(HIDDEN), f = V(FFN);
    double ex = V(EXPERTS), k = V(TOPK);
    cr_status st = need_group(p, CR_OPP_EP, d);
    if (st == CR_OK)
        st = divides("", g, "ep", ex, "experts", d);
    if (st == CR_OK && k > ex)
        st = cr_diag_set(d, CR_EINVAL,
                         "topk = %.0f exceeds experts = %.0f: a token picks distinct experts, "
                         "give 1 to %.0f",
                         k, ex, ex);
    if (st == CR_OK && V(SKEW) < 1)
        st = cr_diag_set(d, CR_ERANGE, "skew = %g must be at least 1 (1 = balanced)", V(SKEW));
    /* A token sends a rank at most min(k, E/p) copies (its k experts are
     * distinct), so a rank receives at most p t min(k, E/p) of them against
     * the mean t k: the load over the mean is at most min(p, E/k) (a QA
     * audit of 2026-12-07: 8 experts, top-2 on ep 8 took skew 8, 16 t
     * copies on a rank whose one expert can get each of the 8 t tokens
     * once, and the FLOPs, baseline and predictions of that load) */
    double lmax = fmin(g, ex / k);
    if (st == CR_OK && V(SKEW) > lmax)
        st = cr_diag_set(d, CR_ERANGE,
                         "skew = %g exceeds what top-%.0f routing can put on one rank: give 1 "
                         "(balanced) to min(ep, experts / topk) = min(%.0f, %.0f / %.0f) = %g "
                         "(every token sending the rank all the copies it can)",
                         V(SKEW), k, g, ex, k, lmax);
    if (st != CR_OK)
        return st;
    double l = moe_load(p, g), rows = l * t * k;
    /* An expert that no token reaches need not be read. Under the routing
     * the parameters describe (uniform, the hot rank's experts L_0 times
     * as likely), each of the p t tokens picks a given expert of the hot
     * rank with probability L_0 k / E (at most 1 by the check above), so
     * it goes untouched with probability (1 - L_0 k / E)^(p t) and the
     * rank's E/p experts touch E/p (1 - (1 - L_0 k / E)^(p t)) on average,
     * never more than its L t k rows. Decode (1 token a rank x top-8 of
     * 256 experts, ep 8) reads 7.18 of its 32 experts, not 8: every
     * token's copies on distinct experts, which the count assumed until a
     * QA audit of 2026-12-07, is the most a rank can touch (0.2% likely
     * for 8 copies on 8 experts), not the least; a run that beat that
     * bound was the rule. */
    double touched = fmin(ex / g * (1 - pow(1 - fmin(V(SKEW) * k / ex, 1), g * t)), fmax(rows, 0));
    w->mma_flops = 2 * t * h * ex + 6 * h * f * rows;
    w->vec_flops = 2 * t * k * h;
    /* expert weights (touched x 3 h f), router weights (h E), tokens in and
     * out. */
    w->hbm_bytes = e * (touched * 3 * h * f + h * ex + 2 * t * h);
    /* PyTorch: router, top-k, permute (t h in, t k h out), grouped GEMMs
     * (rows x (h in, 2f out), act (2f in, f out), f in, h out), unpermute and
     * weighted sum (t k h in, t h out). */
    w->base_hbm_bytes = e * (touched * 3 * h * f + h * ex + t * h + t * k * h +
                             rows * (h + 2 * f + 2 * f + f + f + h) + t * k * h + t * h);
    w->base_kernels = 7;
    w->kernel = OPS_KERNEL_GEMM;
    w->gm = rows, w->gn = 3 * f, w->gk = h;
    double other = moe_other_load(p, g);
    phase(w, "dispatch (all-to-all-v)", CR_COLL_ALLTOALL, t * k * h * e, CR_OPP_EP);
    phase(w, "combine (all-to-all-v)", CR_COLL_ALLTOALL, t * k * h * e, CR_OPP_EP);
    for (int i = 0; i < 2; i++) {
        w->ph[i].skew = l;
        w->ph[i].other = other;
        /* the bound sends a token once per cut it must cross, not once per
         * expert (cr_coll_req moe_topk) */
        w->ph[i].moe_topk = (int)k;
        w->ph[i].moe_experts = ex;
        w->ph[i].moe_combine = i == 1;
    }
    /* or move the experts to the tokens: every rank gathers all E experts'
     * weights (3 h f each) and runs its own t k routed copies, whatever the
     * skew (a capacity under 1 keeps that share of them on average, so the
     * busiest rank at least that). Less where t k h is large against E h f:
     * many tokens and a small FFN. Memory as the main algorithm's: its
     * touched experts are fewer than the experts a rank must read to send. */
    double kept = t * k * (V(CAPACITY) > 0 ? fmin(V(CAPACITY), 1) : 1);
    ops_alt *a =
        alt(w, "gather the experts' weights", 2 * t * h * ex + 6 * h * f * kept, 2 * kept * h);
    alt_phase(a, "allgather expert weights", CR_COLL_ALLGATHER, ex * 3 * h * f * e, CR_OPP_EP);
    /* or replicate only the hot rank's experts (FasterMoE's shadow experts,
     * He et al., PPoPP 2022): broadcast the weights of its experts that
     * tokens reach (touched x 3 h f e), and every rank runs its own tokens'
     * copies routed to them (L t k / p on average) where they are; the
     * other experts stay, each non-hot rank receiving its o t k copies
     * (o = moe_other_load). The busiest rank computes (o + L/p) t k rows
     * against the main algorithm's L t k: less under a routing skew, where
     * gathering all E experts' weights costs more than it saves (an audit:
     * 4096 tokens x top-8 of 64 experts, h 4096, f 1024, skew 4 on 8 H200
     * bound 2748 -> 894 us, compute). Dispatch and combine: no copy goes to
     * the hot rank, the others get o of the mean, so a cut of 2 or more
     * ranks carries at least o/2 of the balanced figure (the ranks of it
     * other than the hot one at least half its traffic), a non-hot GPU's
     * ingress o of it: cut terms at o/2, the receiver's term at o. */
    /* on the routing's skew, not on l: a capacity that caps the hot
     * rank's load at 1 still leaves the other ranks o < 1 of the mean, so
     * replicating the hot experts still spreads its rows (o + l/p < l =
     * 1: skew 4 on 8 ranks at capacity 1 bounded 836 us where 1.001 gave
     * 583, a lower capacity a larger bound; QA audit, session 42) */
    if (V(SKEW) > 1) {
        ops_alt *r = alt(w, "replicate the hot rank's experts",
                         2 * t * h * ex + 6 * h * f * (other + l / g) * t * k, 2 * t * k * h);
        alt_phase(r, "broadcast the hot experts' weights", CR_COLL_BROADCAST,
                  touched * 3 * h * f * e, CR_OPP_EP);
        for (int i = 0; i < 2; i++) {
            alt_phase(r, i ? "combine (all-to-all-v)" : "dispatch (all-to-all-v)", CR_COLL_ALLTOALL,
                      t * k * h * e, CR_OPP_EP);
            ops_phase *ph = &r->ph[r->n_ph - 1];
            ph->skew = other;
            ph->other = other / 2;
            ph->moe_topk = (int)k;
            ph->moe_experts = ex;
            ph->moe_combine = i == 1;
        }
    }
    w->overlappable = true;
    finish(w);
    return CR_OK;
}

/* --- data parallel ------------------------------------------------------ */

/* DDP backward: 4 P T FLOPs (gradients of activations and of weights,
 * 2 P T each); allreduce of P gradient elements. Activations are not
 * counted (they depend on the model, not on P). */
cr_status ops_shape_ddp(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_DP);
    cr_status st = need_group(p, CR_OPP_DP, d);
    if (st != CR_OK)
        return st;
    double e = ebytes(p), eg = cr_dtype_bytes((cr_dtype)(int)V(GRAD_DTYPE));
    double g = V(DP), np = V(PARAMS), t = V(TOKENS);
    w->mma_flops = 4 * np * t;
    w->vec_flops = (g - 1) / g * np;
    w->hbm_bytes = e * np + eg * np; /* weights read, gradients written */
    w->base_kernels = 1;
    w->kernel = OPS_KERNEL_MATMUL;
    phase(w, "allreduce gradients", CR_COLL_ALLREDUCE, np * eg, CR_OPP_DP);
    w->ph[0].dtype = (int)V(GRAD_DTYPE);
    w->ph[0].bucket = V(BUCKET);
    w->overlappable = true;
    finish(w);
    return CR_OK;
}

/* FSDP / ZeRO-3: allgather parameters (P e gathered) for the forward,
 * again for the backward, forward and backward (6 P T), reducescatter
 * gradients (P eg). */
cr_status ops_shape_fsdp(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_DP);
    cr_status st = need_group(p, CR_OPP_DP, d);
    if (st == CR_OK)
        st = divides("", V(DP), "dp", V(PARAMS), "params", d);
    if (st != CR_OK)
        return st;
    double e = ebytes(p), eg = cr_dtype_bytes((cr_dtype)(int)V(GRAD_DTYPE));
    double g = V(DP), np = V(PARAMS), t = V(TOKENS);
    w->mma_flops = 6 * np * t;
    w->vec_flops = (g - 1) / g * np;
    w->hbm_bytes = e * np / g + eg * np / g; /* own shard in, own gradient shard out */
    /* PyTorch: forward and backward each read the gathered parameters,
     * backward writes full gradients. */
    w->base_hbm_bytes = 2 * e * np + eg * np;
    w->base_kernels = 2;
    w->kernel = OPS_KERNEL_MATMUL;
    /* PyTorch's FSDP (FULL_SHARD, the default: reshard_after_forward)
     * frees the gathered parameters after each layer's forward and
     * gathers them again for its backward: ZeRO-3's 3 P of traffic, 1.5x
     * DDP's (Rajbhandari et al. 2020, sec. 7.2.2). The baseline and the
     * predictions run those three phases (a QA audit of 2026-12-07 found
     * one allgather, the baseline's NCCL part 2/3 of PyTorch's). */
    phase(w, "allgather parameters (forward)", CR_COLL_ALLGATHER, np * e, CR_OPP_DP);
    phase(w, "allgather parameters (backward)", CR_COLL_ALLGATHER, np * e, CR_OPP_DP);
    phase(w, "reducescatter gradients", CR_COLL_REDUCESCATTER, np * eg, CR_OPP_DP);
    w->ph[2].dtype = (int)V(GRAD_DTYPE);
    /* the bound: a kernel that keeps the gathered parameters from the
     * forward to the backward (SHARD_GRAD_OP) gathers once */
    ops_alt *a = alt(w, "gather the parameters once", w->mma_flops, w->vec_flops);
    alt_phase(a, "allgather parameters", CR_COLL_ALLGATHER, np * e, CR_OPP_DP);
    alt_phase(a, "reducescatter gradients", CR_COLL_REDUCESCATTER, np * eg, CR_OPP_DP);
    a->ph[1].dtype = (int)V(GRAD_DTYPE);
    w->overlappable = true;
    finish(w);
    return CR_OK;
}

/* ZeRO-1/2 step: reducescatter gradients, Adam on the P/p shard, allgather
 * the updated parameters. Adam per parameter (Kingma and Ba 2015, Alg. 1,
 * with decoupled weight decay): 3 (m) + 4 (v) + 2 (bias corrections) +
 * 5 (update) + 2 (decay) = 16 FLOPs; bytes: fp32 master weight, m and v
 * in and out (24) on the shard. */
cr_status ops_shape_zero(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_DP);
    cr_status st = need_group(p, CR_OPP_DP, d);
    if (st == CR_OK)
        st = divides("", V(DP), "dp", V(PARAMS), "params", d);
    if (st != CR_OK)
        return st;
    double e = ebytes(p), eg = cr_dtype_bytes((cr_dtype)(int)V(GRAD_DTYPE));
    double g = V(DP), np = V(PARAMS), shard = np / g;
    w->dt = CR_DT_FP32;
    w->vec_flops = 16 * shard + (g - 1) / g * np;
    /* Compulsory: the local gradients (all P, the reducescatter's input) read
     * once, the shard's fp32 master weight, m and v in and out, the gathered
     * parameters (all P, the allgather's output) written once. */
    w->hbm_bytes = np * eg + 24 * shard + np * e;
    /* PyTorch's Adam kernel moves its shard's bytes; NCCL's kernels read the
     * gradients and write the parameters inside their own times (each at
     * least its HBM term), so the baseline still covers the bound. */
    w->base_hbm_bytes = shard * (eg + 24 + e);
    w->base_kernels = 1; /* torch.optim.Adam(fused=True) */
    w->kernel = OPS_KERNEL_STREAM;
    phase(w, "reducescatter gradients", CR_COLL_REDUCESCATTER, np * eg, CR_OPP_DP);
    w->ph[0].dtype = (int)V(GRAD_DTYPE);
    phase(w, "allgather parameters", CR_COLL_ALLGATHER, np * e, CR_OPP_DP);
    w->ph[1].dtype = (int)V(DTYPE);
    w->overlappable = true;
    finish(w);
    return CR_OK;
}

/* --- pipeline ----------------------------------------------------------- */

/* Stage i sends its activations b S h e to stage i+1 (the pair of ranks
 * at pipeline distance 1). */
cr_status ops_shape_pp(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_PP);
    cr_status st = need_group(p, CR_OPP_PP, d);
    if (st != CR_OK)
        return st;
    double bytes = ebytes(p) * V(BATCH) * V(SEQ) * V(HIDDEN);
    w->hbm_bytes = 2 * bytes; /* a middle stage reads what it sends, writes what it gets */
    w->kernel = OPS_KERNEL_NONE;
    phase(w, "send activations", CR_COLL_SENDRECV, bytes, CR_OPP_PP);
    w->ph[0].sub_n = 2;
    w->ph[0].sub_stride = 1;
    /* or, with tp > 1, scatter and gather (Megatron-LM's
     * scatter_gather_tensors_in_pipeline): every TP rank of a stage holds
     * the activations (the pair above sends all of them) and every TP rank
     * of the next needs them, so each pair sends a 1/tp slice, b S h e / tp,
     * and the next stage's TP group allgathers the slices (b S h e gathered)
     * over its own, usually faster, links; the two pipeline chunk by chunk,
     * so their cuts' times add only where they share a cut. Less where the
     * stage boundary's cut is slower than the TP group's (an audit: tp 8,
     * 8192 x 8192 bf16 across h100-ib-4n's nodes bound 2130 -> 267 us) */
    if (V(TP) > 1) {
        ops_alt *a = alt(w, "send a 1/tp slice, allgather over tp", 0, 0);
        alt_phase(a, "send a slice of the activations", CR_COLL_SENDRECV, bytes / V(TP), CR_OPP_PP);
        a->ph[0].sub_n = 2;
        a->ph[0].sub_stride = 1;
        alt_phase(a, "allgather the slices", CR_COLL_ALLGATHER, bytes, CR_OPP_TP);
    }
    w->group_size = 2;
    finish(w);
    return CR_OK;
}

/* --- vocab parallel ----------------------------------------------------- */

/* Logits shard Z[t, V/p] = X[t,h] W[V/p,h]^T (2 t h V/p); softmax
 * statistics (max, subtract, exp, sum, target pick: 5 per logit); an
 * allreduce (max) of t fp32, then one of 2 t fp32 (sum of exponentials and
 * the target logit). */
cr_status ops_shape_vocab_ce(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_TP);
    double e = ebytes(p), g = V(TP), t = V(TOKENS), h = V(HIDDEN), v = V(VOCAB);
    cr_status st = need_group(p, CR_OPP_TP, d);
    if (st == CR_OK)
        st = divides("", g, "tp", v, "vocab", d);
    if (st != CR_OK)
        return st;
    w->mma_flops = 2 * t * h * v / g;
    w->vec_flops = 5 * t * v / g;
    w->hbm_bytes =
        e * (t * h + v / g * h) + 8.0 * t + 4.0 * t; /* X, W shard, int64 targets, loss */
    /* PyTorch: the GEMM writes the logits, the loss reads them in fp32 three
     * times (max, exp-sum, gather). */
    w->base_hbm_bytes = e * (t * h + v / g * h + t * v / g) + 3 * 4.0 * t * v / g + 12.0 * t;
    w->base_kernels = 5;
    w->kernel = OPS_KERNEL_GEMM;
    w->gm = t, w->gn = v / g, w->gk = h;
    phase(w, "allreduce max", CR_COLL_ALLREDUCE, 4.0 * t, CR_OPP_TP);
    w->ph[0].dtype = CR_DT_FP32;
    phase(w, "allreduce sum-exp, target", CR_COLL_ALLREDUCE, 8.0 * t, CR_OPP_TP);
    w->ph[1].dtype = CR_DT_FP32;
    /* or one allreduce: each rank's own log-sum-exp (stable with its local
     * max) and its target logit (0 where another rank owns the target),
     * combined by log-add-exp and a sum (a reduction NCCL lacks, which a
     * custom kernel runs): 8 t bytes where the two take 12 t (a bound
     * audit, session 44: binding at small hidden x vocab, 1M tokens of h
     * 8 and V 64 on dgx-a100-8 67.0 -> 49.5 us) */
    ops_alt *a = alt(w, "one allreduce of log-sum-exps and targets", w->mma_flops, w->vec_flops);
    alt_phase(a, "allreduce (log-sum-exp, target)", CR_COLL_ALLREDUCE, 8.0 * t, CR_OPP_TP);
    a->ph[0].dtype = CR_DT_FP32;
    w->overlappable = true;
    finish(w);
    return CR_OK;
}

/* Decode: row-parallel GEMV, Y[m,n] = X[m,k/p] W[k/p,n], allreduce Y. */
cr_status ops_shape_gemv_ar(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    cr_status st = ops_shape_gemm_ar(p, w, d);
    if (st == CR_OK)
        w->tile_aligned = false;
    return st;
}

/* Vocab-parallel embedding: each rank gathers the rows of its vocab shard
 * (t/p tokens on average), zeros the others, allreduce of t h. */
cr_status ops_shape_embedding(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    init(p, w, CR_OPP_TP);
    double e = ebytes(p), g = V(TP), t = V(TOKENS), h = V(HIDDEN);
    cr_status st = need_group(p, CR_OPP_TP, d);
    if (st == CR_OK)
        st = divides("", g, "tp", V(VOCAB), "vocab", d);
    if (st != CR_OK)
        return st;
    w->vec_flops = (g - 1) / g * t * h;
    w->hbm_bytes = 8.0 * t + e * (t * h / g + t * h); /* ids, own rows, the output */
    w->base_hbm_bytes = 2 * 8.0 * t + e * (t * h / g + t * h);
    w->base_kernels = 2; /* mask ids, lookup */
    w->kernel = OPS_KERNEL_STREAM;
    phase(w, "allreduce rows", CR_COLL_ALLREDUCE, t * h * e, CR_OPP_TP);
    /* every row has one owner: an allgather of the rows delivers them, half
     * the allreduce's bytes without in-switch reduction (an audit). A row
     * is needed once however many tokens name it, and there are vocab of
     * them: with more tokens than rows, allgathering the table's shards
     * (vocab h e) and looking up locally moves less (bound audit, session
     * 43: 65536 tokens of a 32768-row table on 8 H100 bound 229.5 -> 115
     * us). The ids are taken as distinct as they can be (min(tokens,
     * vocab) rows): repeated ids need fewer rows still, which the shapes
     * do not say (doc/operators.md). */
    ops_alt *a = alt(w, "gather the rows (or the table's shards) from their owners", 0, 0);
    alt_phase(a, "allgather rows", CR_COLL_ALLGATHER, fmin(t, V(VOCAB)) * h * e, CR_OPP_TP);
    w->overlappable = true;
    finish(w);
    return CR_OK;
}

/* --- other -------------------------------------------------------------- */

/* 2-D halo exchange on a px x py periodic process grid, then a 3x3
 * convolution (c channels in and out: 18 c^2 FLOPs per cell). Each rank
 * sends one strip of w x ny x c to each x neighbour, nx x w x c to each y
 * neighbour, and w x w x c corners to its 4 diagonal neighbours when the
 * grid is 2-D. */
cr_status ops_shape_halo(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    int dim = comm_dim(p, CR_OPP_TP);
    init(p, w, dim);
    cr_status st = need_group(p, dim, d);
    if (st != CR_OK)
        return st;
    double g = p->v[dim], px = V(PX) > 0 ? V(PX) : g;
    if (fmod(g, px) != 0)
        return cr_diag_set(d, CR_EINVAL, "px = %.0f must divide the group size %.0f", px, g);
    double py = g / px, e = ebytes(p), nx = V(NX), ny = V(NY), c = V(CHANNELS), hw = V(HALO);
    if (hw > nx || hw > ny)
        return cr_diag_set(d, CR_EINVAL, "halo = %.0f is wider than the local grid %.0f x %.0f", hw,
                           nx, ny);
    w->mma_flops = 18 * c * c * nx * ny;
    w->hbm_bytes = e * (2 * nx * ny * c + 9 * c * c);
    double cell = (nx + 2 * hw) * (ny + 2 * hw) * c;
    w->base_hbm_bytes = e * (2 * cell + cell + nx * ny * c + 9 * c * c); /* concat, conv */
    w->base_kernels = 2;
    w->kernel = OPS_KERNEL_GEMM;
    w->gm = nx * ny, w->gn = c, w->gk = 9 * c;
    double xs = ny * hw * c * e, ys = nx * hw * c * e;
    bool first = true;
    if (px > 1) {
        phase(w, "halo to x+1", CR_COLL_SENDRECV, xs, dim);
        w->ph[w->n_ph - 1].sub_n = (int)px, w->ph[w->n_ph - 1].sub_stride = 1;
        phase(w, "halo to x-1", CR_COLL_SENDRECV, xs, dim);
        w->ph[w->n_ph - 1].sub_n = (int)px, w->ph[w->n_ph - 1].sub_stride = 1;
        w->ph[w->n_ph - 1].concurrent = true;
        first = false;
    }
    if (py > 1) {
        phase(w, "halo to y+1", CR_COLL_SENDRECV, ys, dim);
        w->ph[w->n_ph - 1].sub_n = (int)py, w->ph[w->n_ph - 1].sub_stride = (int)px;
        w->ph[w->n_ph - 1].concurrent = !first;
        phase(w, "halo to y-1", CR_COLL_SENDRECV, ys, dim);
        w->ph[w->n_ph - 1].sub_n = (int)py, w->ph[w->n_ph - 1].sub_stride = (int)px;
        w->ph[w->n_ph - 1].concurrent = true;
    }
    /* Corners ride with the strips in the byte count (4 w^2 c e, about
     * 1/nx of a strip): they go to the same neighbours' neighbours and are
     * not modelled as separate messages. */
    w->overlappable = true;
    finish(w);
    return CR_OK;
}

/* All-to-all-v: every rank sends B bytes; the hot rank receives skew x the
 * mean (the others proportionally less). */
cr_status ops_shape_alltoallv(const cr_op_params *p, ops_work *w, cr_diag *d)
{
    int dim = comm_dim(p, CR_OPP_EP);
    init(p, w, dim);
    cr_status st = need_group(p, dim, d);
    if (st != CR_OK)
        return st;
    double g = p->v[dim], s = V(SKEW), b = V(BYTES);
    if (s < 1 || s > g)
        return cr_diag_set(d, CR_ERANGE, "skew = %g must be between 1 (balanced) and %.0f", s, g);
    /* whole elements, as op coll's all-to-all takes them (3 B of bf16 was
     * taken here and refused there; QA audit, session 42) */
    if ((st = whole_elements(b, ebytes(p), w->dt, d)) != CR_OK)
        return st;
    w->hbm_bytes = b + s * b; /* send buffer read; the hot rank writes skew x b */
    w->kernel = OPS_KERNEL_NONE;
    phase(w, "all-to-all-v", CR_COLL_ALLTOALL, b, dim);
    w->ph[0].skew = s;
    finish(w);
    return CR_OK;
}
