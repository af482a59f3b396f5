/* SPDX-License-Identifier: MIT */
/*
 * Fused tensor-parallel operators on every local GPU (one process driving
 * them all, NCCL + cuBLASLt bf16, fp32 accumulation), the three of
 * model/ops_shapes.c with the same sharding:
 *   ag_gemm  A[m,k] sharded by rows, W[n/p,k] per rank: allgather A, then
 *            C_r[m,n/p] = A W_r^T;
 *   gemm_rs  A[m,k/p], W[n,k/p] per rank: partial P_r[m,n], reducescatter
 *            to C_r[m/p,n];
 *   gemm_ar  the same partials, allreduce to C[m,n] on every rank.
 * Each as two variants:
 *   baseline  the GEMM and the collective one after the other on one stream;
 *   overlap   the rows split into `chunks` pieces, the collective of a piece
 *             on a second stream while the next piece's GEMM runs (ag_gemm:
 *             the allgather of piece j+1 under the GEMM of piece j).
 * The chunked variants place rows in a chunk-major order (ag_gemm: C rows
 * [j][rank][row]; gemm_rs: rank r owns rows j*m/c + r*m/(c p) + i); the check
 * maps them back.
 *
 * NVTX: "cr:fused op=ag_gemm variant=baseline|overlap dtype=bf16 m= n= k=
 * ranks= chunks= algo= proto= iters= flops= rd_bytes= wr_bytes= coll_bytes="
 * with m, n, k the global problem (the ops model's parameters), flops the
 * whole problem's 2 m n k / p per rank, rd/wr_bytes the fewest HBM bytes
 * per rank (ops_shapes.c's hbm_bytes split into reads and writes) and
 * coll_bytes the collective's nccl-tests size.
 *
 * Check: inputs are random integers in [-2, 2] (products and fp32 sums of up
 * to 2^20 terms are exact), outputs poisoned with NaN; after the timed runs
 * both variants' outputs are gathered to the host, mapped to global rows and
 * compared bit for bit (the same exact sums rounded the same way), every
 * element must be finite, and 64 sampled elements must match an exact host
 * dot product within bf16 rounding.
 */
#include <algorithm>
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <dlfcn.h>
#include <math.h>
#include <string.h>
#include <vector>

#include "../crbench.h"

/* NCCL's ABI (nccl.h), as in nccl.cu: no NCCL headers at build time. */
typedef struct nccl_comm *fnccl_comm_t;
enum { FNCCL_BF16 = 9, FNCCL_SUM = 0 };
static struct {
    void *h;
    const char *(*GetErrorString)(int);
    int (*CommInitAll)(fnccl_comm_t *, int, const int *);
    int (*CommDestroy)(fnccl_comm_t);
    int (*AllReduce)(const void *, void *, size_t, int, int, fnccl_comm_t, cudaStream_t);
    int (*AllGather)(const void *, void *, size_t, int, fnccl_comm_t, cudaStream_t);
    int (*ReduceScatter)(const void *, void *, size_t, int, int, fnccl_comm_t, cudaStream_t);
    int (*GroupStart)(void);
    int (*GroupEnd)(void);
} F;

static int fnccl_load(void)
{
    const char *names[] = {getenv("CR_NCCL_LIB"), "libnccl.so.2", "libnccl.so"};
    for (int i = 0; i < 3 && !F.h; i++)
        if (names[i] && *names[i])
            F.h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
    if (!F.h)
        return -1;
#define FSYM(f)                                                                                    \
    do {                                                                                           \
        *(void **)&F.f = dlsym(F.h, "nccl" #f);                                                    \
        if (!F.f)                                                                                  \
            return -1;                                                                             \
    } while (0)
    FSYM(GetErrorString);
    FSYM(CommInitAll);
    FSYM(CommDestroy);
    FSYM(AllReduce);
    FSYM(AllGather);
    FSYM(ReduceScatter);
    FSYM(GroupStart);
    FSYM(GroupEnd);
#undef FSYM
    return 0;
}

#define FNCK(call)                                                                                 \
    do {                                                                                           \
        int r_ = (call);                                                                           \
        if (r_ != 0) {                                                                             \
            fprintf(stderr, "crbench: %s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,          \
                    F.GetErrorString(r_));                                                         \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define FLTCK(call)                                                                                \
    do {                                                                                           \
        cublasStatus_t s_ = (call);                                                                \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
            fprintf(stderr, "crbench: %s:%d: %s failed: status %d\n", __FILE__, __LINE__, #call,   \
                    (int)s_);                                                                      \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

typedef __nv_bfloat16 bf16;

/* Global input element (row i, column l) of tensor `which` (0: A, 1: W): an
 * integer in [-2, 2]. */
__host__ __device__ static inline float gval(uint64_t seed, int which, size_t i, size_t l,
                                             size_t ld)
{
    return (float)((int)(cr_hash32(seed + (uint64_t)which * 0x9E37ull, i * ld + l) % 5u) - 2);
}

/* dst[r][c] (rows x cols, row-major) = global[row0 + r][col0 + c]. */
static __global__ void k_fill_block(bf16 *dst, size_t rows, size_t cols, size_t row0, size_t col0,
                                    size_t ld, uint64_t seed, int which)
{
    size_t n = rows * cols;
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < n;
         e += (size_t)gridDim.x * blockDim.x)
        dst[e] = __float2bfloat16(gval(seed, which, row0 + e / cols, col0 + e % cols, ld));
}

/* Y[rows x cols] (row-major) = X[rows x k] W[cols x k]^T, both k-contiguous
 * (cuBLAS sees Y^T = W X^T, column-major, "TN"). */
struct gemm_plan {
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t lw, lx, ly;
    cublasLtMatmulHeuristicResult_t res;
};

static const size_t WS_BYTES = (size_t)64 << 20;

static void plan_make(cublasLtHandle_t lt, struct gemm_plan *p, int rows, int cols, int k)
{
    FLTCK(cublasLtMatmulDescCreate(&p->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    FLTCK(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    FLTCK(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    FLTCK(cublasLtMatrixLayoutCreate(&p->lw, CUDA_R_16BF, k, cols, k));
    FLTCK(cublasLtMatrixLayoutCreate(&p->lx, CUDA_R_16BF, k, rows, k));
    FLTCK(cublasLtMatrixLayoutCreate(&p->ly, CUDA_R_16BF, cols, rows, cols));
    cublasLtMatmulPreference_t pref;
    FLTCK(cublasLtMatmulPreferenceCreate(&pref));
    FLTCK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                               &WS_BYTES, sizeof WS_BYTES));
    int nres = 0;
    FLTCK(cublasLtMatmulAlgoGetHeuristic(lt, p->op, p->lw, p->lx, p->ly, p->ly, pref, 1, &p->res,
                                         &nres));
    if (nres == 0) {
        fprintf(stderr, "crbench: fused: cuBLASLt has no bf16 algorithm for %dx%dx%d\n", rows, cols,
                k);
        exit(1);
    }
    cublasLtMatmulPreferenceDestroy(pref);
}

static void plan_free(struct gemm_plan *p)
{
    cublasLtMatrixLayoutDestroy(p->lw);
    cublasLtMatrixLayoutDestroy(p->lx);
    cublasLtMatrixLayoutDestroy(p->ly);
    cublasLtMatmulDescDestroy(p->op);
}

static void plan_run(cublasLtHandle_t lt, const struct gemm_plan *p, const bf16 *X, const bf16 *W,
                     bf16 *Y, void *ws, cudaStream_t s)
{
    float alpha = 1.0f, beta = 0.0f;
    FLTCK(cublasLtMatmul(lt, p->op, &alpha, W, p->lw, X, p->lx, &beta, Y, p->ly, Y, p->ly,
                         &p->res.algo, ws, WS_BYTES, s));
}

enum { OP_AG_GEMM, OP_GEMM_RS, OP_GEMM_AR, OP_N };
static const char *op_name[] = {"ag_gemm", "gemm_rs", "gemm_ar"};
enum { MAXCH = 16 };

struct frank {
    int dev;
    fnccl_comm_t comm;
    cudaStream_t sc, sn; /* compute, communication */
    cudaEvent_t ev[MAXCH + 1];
    cublasLtHandle_t lt;
    void *ws;
    bf16 *X, *W, *G, *P, *O[2]; /* inputs, gathered A / partial, outputs by variant */
};

struct fshape {
    int m, n, k;
};

/* Issues one iteration of (op, variant) on every rank. */
static void iterate(int op, int overlap, int chunks, std::vector<struct frank> &R, int p,
                    const struct fshape &sh, struct gemm_plan *full, struct gemm_plan *part)
{
    size_t m = (size_t)sh.m, n = (size_t)sh.n, k = (size_t)sh.k;
    if (!overlap) {
        for (int pass = 0; pass < 2; pass++) {
            /* ag_gemm: collective then GEMM; the others GEMM then collective. */
            int coll = (op == OP_AG_GEMM) == (pass == 0);
            if (coll) {
                FNCK(F.GroupStart());
                for (auto &x : R) {
                    CK(cudaSetDevice(x.dev));
                    if (op == OP_AG_GEMM)
                        FNCK(F.AllGather(x.X, x.G, m / p * k, FNCCL_BF16, x.comm, x.sc));
                    else if (op == OP_GEMM_RS)
                        FNCK(F.ReduceScatter(x.P, x.O[0], m / p * n, FNCCL_BF16, FNCCL_SUM, x.comm,
                                             x.sc));
                    else
                        FNCK(F.AllReduce(x.P, x.O[0], m * n, FNCCL_BF16, FNCCL_SUM, x.comm, x.sc));
                }
                FNCK(F.GroupEnd());
            } else {
                for (auto &x : R) {
                    CK(cudaSetDevice(x.dev));
                    if (op == OP_AG_GEMM)
                        plan_run(x.lt, full, x.G, x.W, x.O[0], x.ws, x.sc);
                    else
                        plan_run(x.lt, full, x.X, x.W, x.P, x.ws, x.sc);
                }
            }
        }
        return;
    }
    /* Overlap: the comm stream starts after the previous iteration's GEMMs. */
    for (auto &x : R) {
        CK(cudaSetDevice(x.dev));
        CK(cudaEventRecord(x.ev[MAXCH], x.sc));
        CK(cudaStreamWaitEvent(x.sn, x.ev[MAXCH], 0));
    }
    if (op == OP_AG_GEMM) {
        size_t mc = m / p / chunks; /* rows per rank per chunk */
        size_t ncol = n / p;
        for (int j = 0; j < chunks; j++) {
            FNCK(F.GroupStart());
            for (auto &x : R) {
                CK(cudaSetDevice(x.dev));
                FNCK(F.AllGather(x.X + j * mc * k, x.G + j * p * mc * k, mc * k, FNCCL_BF16, x.comm,
                                 x.sn));
            }
            FNCK(F.GroupEnd());
            for (auto &x : R) {
                CK(cudaSetDevice(x.dev));
                CK(cudaEventRecord(x.ev[j], x.sn));
                CK(cudaStreamWaitEvent(x.sc, x.ev[j], 0));
                plan_run(x.lt, part, x.G + j * p * mc * k, x.W, x.O[1] + j * p * mc * ncol, x.ws,
                         x.sc);
            }
        }
    } else {
        size_t mr = m / chunks; /* rows per chunk */
        size_t kr = k / p;
        for (int j = 0; j < chunks; j++) {
            for (auto &x : R) {
                CK(cudaSetDevice(x.dev));
                plan_run(x.lt, part, x.X + j * mr * kr, x.W, x.P + j * mr * n, x.ws, x.sc);
                CK(cudaEventRecord(x.ev[j], x.sc));
                CK(cudaStreamWaitEvent(x.sn, x.ev[j], 0));
            }
            FNCK(F.GroupStart());
            for (auto &x : R) {
                CK(cudaSetDevice(x.dev));
                if (op == OP_GEMM_RS)
                    FNCK(F.ReduceScatter(x.P + j * mr * n, x.O[1] + j * (mr / p) * n, mr / p * n,
                                         FNCCL_BF16, FNCCL_SUM, x.comm, x.sn));
                else
                    FNCK(F.AllReduce(x.P + j * mr * n, x.O[1] + j * mr * n, mr * n, FNCCL_BF16,
                                     FNCCL_SUM, x.comm, x.sn));
            }
            FNCK(F.GroupEnd());
        }
    }
    /* Join: the compute stream (the timed one) waits for the last collective. */
    for (auto &x : R) {
        CK(cudaSetDevice(x.dev));
        CK(cudaEventRecord(x.ev[MAXCH], x.sn));
        CK(cudaStreamWaitEvent(x.sc, x.ev[MAXCH], 0));
    }
}

static float bf2f(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Global output rows and columns: rank r's output row i (variant v) holds
 * global row grow(...) and columns [col0, col0 + cols). */
static size_t out_rows(int op, size_t m, int p)
{
    return op == OP_GEMM_RS ? m / p : m;
}
static size_t out_cols(int op, size_t n, int p)
{
    return op == OP_AG_GEMM ? n / p : n;
}
static size_t grow(int op, int v, int chunks, size_t m, int p, int r, size_t i)
{
    if (op == OP_AG_GEMM) {
        if (!v)
            return i;
        size_t mc = m / p / chunks; /* overlap rows: [j][rank][mc] */
        size_t j = i / (p * mc), rr = (i / mc) % p, ii = i % mc;
        return rr * (m / p) + j * mc + ii;
    }
    if (op == OP_GEMM_RS) {
        if (!v)
            return (size_t)r * (m / p) + i;
        size_t mr = m / chunks, mc = mr / p;
        return (i / mc) * mr + (size_t)r * mc + i % mc;
    }
    return i;
}

int cr_run_fused(const struct cr_opts *o)
{
    static const struct fshape full[] = {
        {1024, 1024, 1024}, {4096, 4096, 4096}, {8192, 8192, 8192}};
    static const struct fshape quick[] = {{1024, 1024, 1024}};
    const struct fshape *shapes = o->quick ? quick : full;
    int nsh = o->quick ? 1 : (int)(sizeof full / sizeof full[0]);
    const int chunks = 4;
    int p = 2;
    if (!o->list) {
        CK(cudaGetDeviceCount(&p));
        if (p < 2) {
            printf("# fused: SKIPPED: needs 2 or more GPUs, %d visible\n", p);
            g_skipped++;
            return 0;
        }
        if (fnccl_load() != 0) {
            printf("# fused: SKIPPED: libnccl.so.2 not found (set CR_NCCL_LIB)\n");
            g_skipped++;
            return 0;
        }
    }
    const char *algo = getenv("NCCL_ALGO"), *proto = getenv("NCCL_PROTO");
    size_t maxm = 0;
    for (int i = 0; i < nsh; i++)
        maxm = std::max(maxm, (size_t)shapes[i].m * (size_t)std::max(shapes[i].n, shapes[i].k));
    std::vector<struct frank> R((size_t)p);
    if (!o->list) {
        std::vector<fnccl_comm_t> comms((size_t)p);
        FNCK(F.CommInitAll(comms.data(), p, NULL));
        for (int d = 0; d < p; d++) {
            struct frank &x = R[(size_t)d];
            x.dev = d;
            x.comm = comms[(size_t)d];
            CK(cudaSetDevice(d));
            CK(cudaStreamCreateWithFlags(&x.sc, cudaStreamNonBlocking));
            CK(cudaStreamCreateWithFlags(&x.sn, cudaStreamNonBlocking));
            for (int j = 0; j <= MAXCH; j++)
                CK(cudaEventCreateWithFlags(&x.ev[j], cudaEventDisableTiming));
            FLTCK(cublasLtCreate(&x.lt));
            CK(cudaMalloc(&x.ws, WS_BYTES));
            /* Every buffer holds at most m x max(n, k) elements. */
            CK(cudaMalloc(&x.X, maxm * 2));
            CK(cudaMalloc(&x.W, maxm * 2));
            CK(cudaMalloc(&x.G, maxm * 2));
            CK(cudaMalloc(&x.P, maxm * 2));
            CK(cudaMalloc(&x.O[0], maxm * 2));
            CK(cudaMalloc(&x.O[1], maxm * 2));
        }
    }
    int rc = 0;
    std::vector<uint16_t> host[2];
    for (int si = 0; si < nsh; si++) {
        const struct fshape sh = shapes[si];
        size_t m = (size_t)sh.m, n = (size_t)sh.n, k = (size_t)sh.k;
        for (int op = 0; op < OP_N; op++) {
            uint64_t seed = o->list ? 0 : cr_next_seed();
            /* Per-rank GEMM and buffer extents (ops_shapes.c). */
            int g_rows = (int)m, g_cols = op == OP_AG_GEMM ? (int)(n / p) : (int)n;
            int g_k = op == OP_AG_GEMM ? (int)k : (int)(k / p);
            int c_rows = op == OP_AG_GEMM ? (int)(m / chunks) : (int)(m / chunks);
            double flops = 2.0 * (double)g_rows * g_cols * g_k;
            double e = 2;
            double rd =
                op == OP_AG_GEMM ? e * (m * k / p + k * n / p) : e * (m * k / p + k / p * n);
            double wr = op == OP_AG_GEMM   ? e * (m * n / p)
                        : op == OP_GEMM_RS ? e * (m * n / p)
                                           : e * (m * n);
            double coll_bytes = e * (double)(op == OP_AG_GEMM ? m * k : m * n);
            struct gemm_plan pf, pc;
            size_t orows = out_rows(op, m, p), ocols = out_cols(op, n, p);
            if (!o->list) {
                /* One plan (host-side descriptors and the heuristic's
                 * choice) serves every rank: the GPUs are the same model. */
                CK(cudaSetDevice(R[0].dev));
                plan_make(R[0].lt, &pf, g_rows, g_cols, g_k);
                plan_make(R[0].lt, &pc, c_rows, g_cols, g_k);
                for (auto &x : R) {
                    int r = (int)(&x - &R[0]);
                    CK(cudaSetDevice(x.dev));
                    if (op == OP_AG_GEMM) {
                        k_fill_block<<<1024, 256, 0, x.sc>>>(x.X, m / p, k, (size_t)r * (m / p), 0,
                                                             k, seed, 0);
                        k_fill_block<<<1024, 256, 0, x.sc>>>(x.W, n / p, k, (size_t)r * (n / p), 0,
                                                             k, seed, 1);
                    } else {
                        k_fill_block<<<1024, 256, 0, x.sc>>>(x.X, m, k / p, 0, (size_t)r * (k / p),
                                                             k, seed, 0);
                        k_fill_block<<<1024, 256, 0, x.sc>>>(x.W, n, k / p, 0, (size_t)r * (k / p),
                                                             k, seed, 1);
                    }
                    CKL();
                }
            }
            for (int v = 0; v < 2; v++) {
                double est = flops / 6e14 + coll_bytes / 1.5e11 + 30e-6;
                int iters = cr_iters(o, est, 5, 50);
                if (!o->list) {
                    if (cr_over_budget(o)) {
                        printf("#       skipped: fused %s %s %zux%zux%zu (--budget-s spent)\n",
                               op_name[op], v ? "overlap" : "baseline", m, n, k);
                        g_skipped++;
                        continue;
                    }
                    /* Warm-up (connects NCCL, loads cuBLASLt's kernels), then poison. */
                    iterate(op, v, chunks, R, p, sh, &pf, &pc);
                    for (auto &x : R) {
                        CK(cudaSetDevice(x.dev));
                        CK(cudaDeviceSynchronize());
                        cr_poison(x.O[v], orows * ocols * 2, x.sc);
                        CK(cudaStreamSynchronize(x.sc));
                    }
                    CK(cudaSetDevice(R[0].dev));
                }
                if (!cr_case_begin(o,
                                   "cr:fused op=%s variant=%s dtype=bf16 m=%zu n=%zu k=%zu "
                                   "ranks=%d chunks=%d algo=%s proto=%s iters=%d flops=%.0f "
                                   "rd_bytes=%.0f wr_bytes=%.0f coll_bytes=%.0f",
                                   op_name[op], v ? "overlap" : "baseline", m, n, k, p,
                                   v ? chunks : 1, algo ? algo : "auto", proto ? proto : "auto",
                                   iters, flops, rd, wr, coll_bytes))
                    continue;
                struct cr_timer t;
                cr_timer_init(&t, iters);
                cr_timer_mark(&t, R[0].sc);
                for (int it = 0; it < iters; it++) {
                    iterate(op, v, chunks, R, p, sh, &pf, &pc);
                    CK(cudaSetDevice(R[0].dev));
                    cr_timer_mark(&t, R[0].sc);
                }
                for (auto &x : R) {
                    CK(cudaSetDevice(x.dev));
                    CK(cudaDeviceSynchronize());
                }
                CK(cudaSetDevice(R[0].dev));
                cr_case_end();
                double med = cr_timer_median_us(&t);
                cr_timer_free(&t);
                /* Gather this variant's outputs to global rows on the host. */
                size_t gcols = n; /* global columns */
                host[v].assign(m * gcols, 0xFFFF);
                std::vector<uint16_t> buf(orows * ocols);
                unsigned long long nonfinite = 0;
                for (int r = 0; r < (op == OP_GEMM_AR ? 1 : p); r++) {
                    struct frank &x = R[(size_t)r];
                    CK(cudaSetDevice(x.dev));
                    CK(cudaMemcpy(buf.data(), x.O[v], buf.size() * 2, cudaMemcpyDeviceToHost));
                    size_t col0 = op == OP_AG_GEMM ? (size_t)r * ocols : 0;
                    for (size_t i = 0; i < orows; i++) {
                        size_t gr = grow(op, v, chunks, m, p, r, i);
                        memcpy(&host[v][gr * gcols + col0], &buf[i * ocols], ocols * 2);
                    }
                }
                if (op == OP_GEMM_AR) {
                    /* Every rank holds the whole result: rank 1.. must agree. */
                    std::vector<uint16_t> b2(orows * ocols);
                    for (int r = 1; r < p; r++) {
                        CK(cudaSetDevice(R[(size_t)r].dev));
                        CK(cudaMemcpy(b2.data(), R[(size_t)r].O[v], b2.size() * 2,
                                      cudaMemcpyDeviceToHost));
                        if (memcmp(b2.data(), host[v].data(), b2.size() * 2))
                            nonfinite += 1; /* counted as a failure below */
                    }
                }
                CK(cudaSetDevice(R[0].dev));
                for (size_t i = 0; i < host[v].size(); i++)
                    nonfinite += !isfinite(bf2f(host[v][i]));
                /* Sampled exact reference. */
                unsigned long long off = 0;
                for (int s = 0; s < 64; s++) {
                    size_t i = cr_hash32(seed, 1000 + (uint64_t)s) % m;
                    size_t j = cr_hash32(seed, 2000 + (uint64_t)s) % n;
                    double ref = 0, absparts = 0;
                    int parts = op == OP_AG_GEMM ? 1 : p;
                    for (int q = 0; q < parts; q++) {
                        double part = 0;
                        size_t l0 = (size_t)q * (k / parts), l1 = l0 + k / parts;
                        for (size_t l = l0; l < l1; l++)
                            part += (double)gval(seed, 0, i, l, k) * gval(seed, 1, j, l, k);
                        ref += part;
                        absparts += fabs(part);
                    }
                    double got = bf2f(host[v][i * gcols + j]);
                    /* bf16 keeps 8 significant bits: each rounding is within
                     * 2^-8 relative; partials and their sum round once each. */
                    double tol = (absparts + fabs(ref)) / 256.0 + 1e-9;
                    off += !(fabs(got - ref) <= tol);
                }
                unsigned long long differ = 0;
                if (v == 1 && !host[0].empty())
                    for (size_t i = 0; i < host[1].size(); i++)
                        differ += host[0][i] != host[1][i];
                int ok = !nonfinite && !off && !differ;
                char label[96], why[128] = "";
                snprintf(label, sizeof label, "%s %s %zux%zux%zu p=%d", op_name[op],
                         v ? "overlap" : "baseline", m, n, k, p);
                if (!ok)
                    snprintf(why, sizeof why,
                             "%llu non-finite, %llu of 64 samples off, %llu differ from baseline",
                             nonfinite, off, differ);
                cr_report("fused", label, med, flops / (med * 1e-6) / 1e12, "TFLOP/s", ok, why);
                if (!ok)
                    rc = 1;
            }
            if (!o->list) {
                plan_free(&pf);
                plan_free(&pc);
            }
            host[0].clear();
            host[1].clear();
        }
    }
    if (!o->list) {
        for (auto &x : R) {
            CK(cudaSetDevice(x.dev));
            CK(cudaDeviceSynchronize());
            F.CommDestroy(x.comm);
            CK(cudaFree(x.X));
            CK(cudaFree(x.W));
            CK(cudaFree(x.G));
            CK(cudaFree(x.P));
            CK(cudaFree(x.O[0]));
            CK(cudaFree(x.O[1]));
            CK(cudaFree(x.ws));
            cublasLtDestroy(x.lt);
            for (int j = 0; j <= MAXCH; j++)
                CK(cudaEventDestroy(x.ev[j]));
            CK(cudaStreamDestroy(x.sc));
            CK(cudaStreamDestroy(x.sn));
        }
        CK(cudaSetDevice(o->device));
    }
    return rc;
}
