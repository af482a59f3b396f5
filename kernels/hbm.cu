/* SPDX-License-Identifier: MIT */
/*
 * HBM streaming kernels (STREAM-like): read, write, copy, add, triad over
 * one to three arrays of `bytes` each, 1 MiB to 8 GiB. 16-byte accesses, four
 * independent loads in flight per thread, a grid of a few blocks per SM.
 *
 * Declared work per iteration (doc/validation.md):
 *   read   rd = bytes,      wr = 0,      flops = 0
 *   write  rd = 0,          wr = bytes,  flops = 0
 *   copy   rd = bytes,      wr = bytes,  flops = 0
 *   add    rd = 2 x bytes,  wr = bytes,  flops = 1 per fp32 element (a = b + c)
 *   triad  rd = 2 x bytes,  wr = bytes,  flops = 2 per fp32 element (a = b + s c)
 * Cold cases (`cache=cold`, the default): buffers below 512 MiB rotate over
 * disjoint sets (cr_rotation) so that each iteration starts with its data
 * out of the L2. Warm cases (`cache=warm`, --cache warm|both): one set, run
 * back to back after one untimed pass, as a benchmark harness times a
 * kernel: whatever fits in the L2 stays there between iterations, so these
 * measure the L2 (doc/bounds.md, warm and cold).
 */
#include <algorithm>

#include "crbench.h"

#define HBM_THREADS 512

static __global__ void __launch_bounds__(HBM_THREADS)
    k_read(const uint4 *a, size_t n, uint32_t *out)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t st = (size_t)gridDim.x * blockDim.x;
    uint32_t x = 0;
    for (; i + 3 * st < n; i += 4 * st) {
        uint4 v0 = a[i], v1 = a[i + st], v2 = a[i + 2 * st], v3 = a[i + 3 * st];
        x ^= v0.x ^ v0.y ^ v0.z ^ v0.w ^ v1.x ^ v1.y ^ v1.z ^ v1.w;
        x ^= v2.x ^ v2.y ^ v2.z ^ v2.w ^ v3.x ^ v3.y ^ v3.z ^ v3.w;
    }
    for (; i < n; i += st) {
        uint4 v = a[i];
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    /* One atomic per block: thousands of warps XOR-ing one word serialise
     * in the L2 and would time the atomics, not the reads. */
    __shared__ uint32_t warp_x[HBM_THREADS / 32];
    for (int o = 16; o > 0; o >>= 1)
        x ^= __shfl_xor_sync(0xffffffffu, x, o);
    if ((threadIdx.x & 31) == 0)
        warp_x[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t b = 0;
        for (unsigned w = 0; w < blockDim.x / 32; w++)
            b ^= warp_x[w];
        atomicXor(out, b);
    }
}

/* The read kernel's reference: a plain word-by-word XOR. */
static __global__ void k_xor_ref(const uint32_t *a, size_t n, uint32_t *out)
{
    uint32_t x = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x ^= a[i];
    atomicXor(out, x);
}

/* Element i (counted over all rotation sets) of the write pattern. */
__device__ static inline uint4 pattern(size_t i, uint32_t seed)
{
    uint32_t b = (uint32_t)(i * 4) ^ seed;
    return make_uint4(b, b + 1, b + 2, b + 3);
}

static __global__ void __launch_bounds__(HBM_THREADS)
    k_write(uint4 *a, size_t n, uint32_t seed, size_t base)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t st = (size_t)gridDim.x * blockDim.x;
    for (; i + 3 * st < n; i += 4 * st) {
        a[i] = pattern(base + i, seed);
        a[i + st] = pattern(base + i + st, seed);
        a[i + 2 * st] = pattern(base + i + 2 * st, seed);
        a[i + 3 * st] = pattern(base + i + 3 * st, seed);
    }
    for (; i < n; i += st)
        a[i] = pattern(base + i, seed);
}

static __global__ void k_write_check(const uint4 *a, size_t n, uint32_t seed,
                                     unsigned long long *bad)
{
    unsigned long long m = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = a[i], p = pattern(i, seed);
        m += v.x != p.x || v.y != p.y || v.z != p.z || v.w != p.w;
    }
    if (m)
        atomicAdd(bad, m);
}

static __global__ void __launch_bounds__(HBM_THREADS) k_copy(const uint4 *a, uint4 *b, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t st = (size_t)gridDim.x * blockDim.x;
    for (; i + 3 * st < n; i += 4 * st) {
        uint4 v0 = a[i], v1 = a[i + st], v2 = a[i + 2 * st], v3 = a[i + 3 * st];
        b[i] = v0;
        b[i + st] = v1;
        b[i + 2 * st] = v2;
        b[i + 3 * st] = v3;
    }
    for (; i < n; i += st)
        b[i] = a[i];
}

static __global__ void __launch_bounds__(HBM_THREADS)
    k_add(float4 *a, const float4 *b, const float4 *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t st = (size_t)gridDim.x * blockDim.x;
    for (; i + 3 * st < n; i += 4 * st) {
        float4 b0 = b[i], b1 = b[i + st], b2 = b[i + 2 * st], b3 = b[i + 3 * st];
        float4 c0 = c[i], c1 = c[i + st], c2 = c[i + 2 * st], c3 = c[i + 3 * st];
        a[i] = make_float4(b0.x + c0.x, b0.y + c0.y, b0.z + c0.z, b0.w + c0.w);
        a[i + st] = make_float4(b1.x + c1.x, b1.y + c1.y, b1.z + c1.z, b1.w + c1.w);
        a[i + 2 * st] = make_float4(b2.x + c2.x, b2.y + c2.y, b2.z + c2.z, b2.w + c2.w);
        a[i + 3 * st] = make_float4(b3.x + c3.x, b3.y + c3.y, b3.z + c3.z, b3.w + c3.w);
    }
    for (; i < n; i += st)
        a[i] = make_float4(b[i].x + c[i].x, b[i].y + c[i].y, b[i].z + c[i].z, b[i].w + c[i].w);
}

__device__ static inline float4 triad4(float4 b, float4 c, float s)
{
    return make_float4(__fmaf_rn(s, c.x, b.x), __fmaf_rn(s, c.y, b.y), __fmaf_rn(s, c.z, b.z),
                       __fmaf_rn(s, c.w, b.w));
}

static __global__ void __launch_bounds__(HBM_THREADS)
    k_triad(float4 *a, const float4 *b, const float4 *c, float s, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t st = (size_t)gridDim.x * blockDim.x;
    for (; i + 3 * st < n; i += 4 * st) {
        float4 b0 = b[i], b1 = b[i + st], b2 = b[i + 2 * st], b3 = b[i + 3 * st];
        float4 c0 = c[i], c1 = c[i + st], c2 = c[i + 2 * st], c3 = c[i + 3 * st];
        a[i] = triad4(b0, c0, s);
        a[i + st] = triad4(b1, c1, s);
        a[i + 2 * st] = triad4(b2, c2, s);
        a[i + 3 * st] = triad4(b3, c3, s);
    }
    for (; i < n; i += st)
        a[i] = triad4(b[i], c[i], s);
}

/* Compares bit patterns so that NaN inputs (random bits) compare equal to
 * themselves; the same fused multiply-add as the kernel, so exact. */
static __global__ void k_triad_check(const float *a, const float *b, const float *c, float s,
                                     int add, size_t n, unsigned long long *bad)
{
    unsigned long long m = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float r = add ? __fadd_rn(b[i], c[i]) : __fmaf_rn(s, c[i], b[i]);
        float v = a[i];
        m += __float_as_uint(r) != __float_as_uint(v) && !(r != r && v != v);
    }
    if (m)
        atomicAdd(bad, m);
}

static int grid_of(size_t n16)
{
    size_t want = (n16 + HBM_THREADS - 1) / HBM_THREADS;
    size_t cap = (size_t)cr_props()->multiProcessorCount * 4;
    return (int)std::max<size_t>(1, std::min(want, cap));
}

enum { OP_READ, OP_WRITE, OP_COPY, OP_ADD, OP_TRIAD };
static const char *op_name[] = {"read", "write", "copy", "add", "triad"};

/* Random finite floats in [-1, 1): triad inputs (random bits would give NaN
 * and infinities, which are legal but make the check trivially pass). */
static __global__ void k_fill_unit(float *p, size_t n, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (float)(cr_hash32(seed, i) >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

/* One iteration of op on buffer set `set` (sets lie back to back in each
 * role's pool). */
static void launch_op(int op, char *A, char *B, char *C, size_t bytes, int set, uint32_t wseed,
                      float scal, uint32_t *xor_out, cudaStream_t s)
{
    size_t off = (size_t)set * bytes, n16 = bytes / 16;
    switch (op) {
    case OP_READ:
        k_read<<<grid_of(n16), HBM_THREADS, 0, s>>>((const uint4 *)(A + off), n16, xor_out);
        break;
    case OP_WRITE:
        k_write<<<grid_of(n16), HBM_THREADS, 0, s>>>((uint4 *)(A + off), n16, wseed,
                                                     (size_t)set * n16);
        break;
    case OP_COPY:
        k_copy<<<grid_of(n16), HBM_THREADS, 0, s>>>((const uint4 *)(A + off), (uint4 *)(B + off),
                                                    n16);
        break;
    case OP_ADD:
        k_add<<<grid_of(n16), HBM_THREADS, 0, s>>>((float4 *)(A + off), (const float4 *)(B + off),
                                                   (const float4 *)(C + off), n16);
        break;
    case OP_TRIAD:
        k_triad<<<grid_of(n16), HBM_THREADS, 0, s>>>((float4 *)(A + off), (const float4 *)(B + off),
                                                     (const float4 *)(C + off), scal, n16);
        break;
    }
}

int cr_run_hbm(const struct cr_opts *o)
{
    const size_t MiB = (size_t)1 << 20;
    size_t max_bytes = o->max_bytes > 0 ? (size_t)o->max_bytes : (size_t)8 << 30;
    if (o->quick && !o->max_bytes)
        max_bytes = (size_t)1 << 30;
    const int nsets_max = 512;
    /* One pool per array role; each holds max(max_bytes, 512 MiB + a set). */
    size_t pool = std::max(max_bytes, (size_t)512 * MiB + MiB);
    char *A = NULL, *B = NULL, *C = NULL;
    unsigned long long *bad = NULL;
    uint32_t *x1 = NULL, *x2 = NULL;
    cudaStream_t s = 0;
    if (!o->list) {
        size_t freeb = 0, total = 0;
        CK(cudaMemGetInfo(&freeb, &total));
        while (3 * pool + (1u << 30) > freeb && max_bytes > 64 * MiB) {
            max_bytes /= 2;
            pool = std::max(max_bytes, (size_t)512 * MiB + MiB);
        }
        CK(cudaMalloc(&A, pool));
        CK(cudaMalloc(&B, pool));
        CK(cudaMalloc(&C, pool));
        CK(cudaMalloc(&bad, sizeof *bad));
        CK(cudaMalloc(&x1, 4));
        CK(cudaMalloc(&x2, 4));
        CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    }
    int rc = 0;
    for (int op = OP_READ; op <= OP_TRIAD; op++)
        for (int warm = 0; warm < 2; warm++) {
            if (!(o->cache & (warm ? 2 : 1)))
                continue;
            for (size_t bytes = MiB; bytes <= max_bytes; bytes *= (o->quick ? 4 : 2)) {
                size_t n16 = bytes / 16;
                bool three = op == OP_TRIAD || op == OP_ADD;
                int arrays = three ? 3 : op == OP_COPY ? 2 : 1;
                int sets = warm ? 1 : cr_rotation(bytes * (size_t)arrays, nsets_max);
                if ((size_t)sets * bytes > pool)
                    sets = (int)(pool / bytes);
                double rd = op == OP_READ || op == OP_COPY ? (double)bytes
                            : three                        ? 2.0 * (double)bytes
                                                           : 0.0;
                double wr = op == OP_READ ? 0.0 : (double)bytes;
                double flops = op == OP_TRIAD ? 2.0 * (double)(bytes / 4)
                               : op == OP_ADD ? (double)(bytes / 4)
                                              : 0.0;
                double est = (rd + wr) / 4.0e12 + 3e-6;
                int iters = cr_iters(o, est, 5, 100);
                /* Fresh random inputs in every set; poisoned outputs. */
                uint64_t seed = o->list ? 0 : cr_next_seed();
                uint32_t wseed = (uint32_t)seed;
                float scal = 1.5f + (float)(seed & 7);
                if (!o->list) {
                    /* The sets lie back to back: one fill and one poison per
                     * role cover them all. */
                    size_t all = (size_t)sets * bytes;
                    if (three) {
                        k_fill_unit<<<grid_of(all / 16), 256, 0, s>>>((float *)B, all / 4, seed);
                        k_fill_unit<<<grid_of(all / 16), 256, 0, s>>>((float *)C, all / 4,
                                                                      seed + 1);
                        CKL();
                        cr_poison(A, all, s);
                    } else if (op == OP_WRITE) {
                        cr_poison(A, all, s);
                    } else {
                        cr_fill_words(A, all, seed, s);
                        if (op == OP_COPY)
                            cr_poison(B, all, s);
                    }
                    CK(cudaMemsetAsync(x1, 0, 4, s));
                    /* Warm-up: one pass per set (module load, TLB, clocks). */
                    for (int k = 0; k < std::min(sets, 2); k++) {
                        size_t off = (size_t)k * bytes;
                        if (op == OP_READ)
                            k_read<<<grid_of(n16), HBM_THREADS, 0, s>>>((const uint4 *)(A + off),
                                                                        n16, x2);
                    }
                    /* Warm: one untimed pass of the operation itself leaves its
                     * inputs and outputs in the L2, as the previous iteration of
                     * a benchmark loop would. */
                    if (warm)
                        launch_op(op, A, B, C, bytes, 0, wseed, scal, x2, s);
                    CKL();
                }
                if (!cr_case_begin(o,
                                   "cr:hbm op=%s bytes=%zu iters=%d sets=%d cache=%s rd_bytes=%.0f "
                                   "wr_bytes=%.0f flops=%.0f",
                                   op_name[op], bytes, iters, sets, warm ? "warm" : "cold", rd, wr,
                                   flops))
                    continue;
                struct cr_timer t;
                cr_timer_init(&t, iters);
                cr_timer_mark(&t, s);
                for (int it = 0; it < iters; it++) {
                    /* Only the first pass over each set feeds the checked XOR
                     * of read: later passes XOR into a scratch word. */
                    launch_op(op, A, B, C, bytes, it % sets, wseed, scal, it < sets ? x1 : x2, s);
                    cr_timer_mark(&t, s);
                }
                CKL();
                cr_case_end();
                double med = cr_timer_median_us(&t);
                cr_timer_free(&t);
                /* Check every set the timed loop touched. */
                int used = std::min(sets, iters);
                unsigned long long nbad = 0;
                char why[128] = "";
                if (op == OP_READ) {
                    uint32_t got = 0, want = 0;
                    CK(cudaMemsetAsync(x2, 0, 4, s));
                    k_xor_ref<<<grid_of(n16 * used), 256, 0, s>>>((const uint32_t *)A,
                                                                  bytes / 4 * used, x2);
                    CKL();
                    CK(cudaMemcpyAsync(&got, x1, 4, cudaMemcpyDeviceToHost, s));
                    CK(cudaMemcpyAsync(&want, x2, 4, cudaMemcpyDeviceToHost, s));
                    CK(cudaStreamSynchronize(s));
                    nbad = got != want;
                    if (nbad)
                        snprintf(why, sizeof why, "xor %08x, expected %08x", got, want);
                } else {
                    CK(cudaMemsetAsync(bad, 0, sizeof *bad, s));
                    size_t all = (size_t)used * bytes;
                    if (op == OP_WRITE)
                        k_write_check<<<grid_of(all / 16), 256, 0, s>>>((const uint4 *)A, all / 16,
                                                                        wseed, bad);
                    else if (op == OP_COPY)
                        nbad += cr_count_diff(A, B, all, s);
                    else
                        k_triad_check<<<grid_of(all / 16), 256, 0, s>>>(
                            (const float *)A, (const float *)B, (const float *)C, scal,
                            op == OP_ADD, all / 4, bad);
                    CKL();
                    unsigned long long h = 0;
                    CK(cudaMemcpyAsync(&h, bad, sizeof h, cudaMemcpyDeviceToHost, s));
                    CK(cudaStreamSynchronize(s));
                    nbad += h;
                    if (nbad)
                        snprintf(why, sizeof why, "%llu wrong elements", nbad);
                }
                char label[96];
                snprintf(label, sizeof label, "%s %zu B%s", op_name[op], bytes,
                         warm ? " warm" : "");
                cr_report("hbm", label, med, (rd + wr) / (med * 1e-6) / 1e9, "GB/s", nbad == 0,
                          why);
                if (nbad)
                    rc = 1;
            }
        }
    if (!o->list) {
        CK(cudaStreamDestroy(s));
        CK(cudaFree(A));
        CK(cudaFree(B));
        CK(cudaFree(C));
        CK(cudaFree(bad));
        CK(cudaFree(x1));
        CK(cudaFree(x2));
    }
    return rc;
}
