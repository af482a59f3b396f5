/* SPDX-License-Identifier: MIT */
/*
 * Transfer mechanisms on one GPU: the same copy done by SM loads and stores
 * of 16 bytes per thread (ldst), by the Tensor Memory Accelerator's bulk copy
 * (TMA: cp.async.bulk global -> shared -> global, completing on an mbarrier),
 * and by the copy engine (cudaMemcpyAsync, no SMs), across message sizes and
 * SM counts. It is the single-GPU analogue of the NVLink mechanism trade-off
 * (shared/reference/mechanisms.md): how many SMs each mechanism needs to
 * reach the memory's bandwidth, and what a message costs.
 *
 * One thread block per SM: each block takes more than half of an SM's shared
 * memory, so the scheduler cannot put two on one SM. Declared work: rd_bytes
 * = wr_bytes = bytes.
 *
 * The kernels are shared with p2p.cu, where src or dst is a peer GPU's memory.
 */
#include <algorithm>

#include "crbench.h"

#define LDST_THREADS 1024
/* Shared memory each ldst block claims (unused) to keep one block per SM. */
#define LDST_SMEM (120 * 1024)
#define TMA_SMEM (CR_TMA_CHUNK * CR_TMA_STAGES)

static __global__ void __launch_bounds__(LDST_THREADS)
    k_ldst(uint4 *__restrict__ dst, const uint4 *__restrict__ src, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t st = (size_t)gridDim.x * blockDim.x;
    for (; i + 3 * st < n; i += 4 * st) {
        uint4 v0 = src[i], v1 = src[i + st], v2 = src[i + 2 * st], v3 = src[i + 3 * st];
        dst[i] = v0;
        dst[i + st] = v1;
        dst[i + 2 * st] = v2;
        dst[i + 3 * st] = v3;
    }
    for (; i < n; i += st)
        dst[i] = src[i];
}

__device__ static inline uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ static inline void tma_load(uint32_t dst_smem, const void *src, uint32_t bytes,
                                       uint32_t mbar)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
                 "%2, [%3];" ::"r"(dst_smem),
                 "l"(src), "r"(bytes), "r"(mbar)
                 : "memory");
}

__device__ static inline void mbar_wait(uint32_t mbar, uint32_t parity)
{
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "WAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra WAIT_%=;\n"
                 "}\n" ::"r"(mbar),
                 "r"(parity)
                 : "memory");
}

__device__ static inline void tma_store(void *dst, uint32_t src_smem, uint32_t bytes)
{
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst),
                 "r"(src_smem), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

/* One elected thread per block drives a ring of CR_TMA_STAGES chunk buffers:
 * loads run up to STAGES chunks ahead; a stage is refilled once the bulk store
 * that drained it has finished reading shared memory. */
static __global__ void __launch_bounds__(32) k_tma(char *dst, const char *src, size_t bytes)
{
    extern __shared__ __align__(128) char smem[];
    __shared__ __align__(8) uint64_t mbar[CR_TMA_STAGES];
    if (threadIdx.x != 0)
        return;
    const size_t chunk = CR_TMA_CHUNK;
    size_t nchunks = (bytes + chunk - 1) / chunk;
    size_t mine = nchunks > blockIdx.x ? (nchunks - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
    for (int s = 0; s < CR_TMA_STAGES; s++)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&mbar[s]))
                     : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    auto chunk_of = [&](size_t j) { return blockIdx.x + j * gridDim.x; };
    auto len_of = [&](size_t c) { return (uint32_t)min(chunk, bytes - c * chunk); };
    for (size_t j = 0; j < mine && j < CR_TMA_STAGES; j++) {
        size_t c = chunk_of(j);
        tma_load(smem_addr(smem + j * chunk), src + c * chunk, len_of(c), smem_addr(&mbar[j]));
    }
    for (size_t j = 0; j < mine; j++) {
        int s = (int)(j % CR_TMA_STAGES);
        mbar_wait(smem_addr(&mbar[s]), (uint32_t)((j / CR_TMA_STAGES) & 1));
        size_t c = chunk_of(j);
        tma_store(dst + c * chunk, smem_addr(smem + (size_t)s * chunk), len_of(c));
        /* Refill the stage drained by the previous iteration's store once that
         * store has read its shared memory (all groups but the newest). */
        if (j >= 1 && j - 1 + CR_TMA_STAGES < mine) {
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
            size_t jj = j - 1 + CR_TMA_STAGES;
            int ss = (int)((j - 1) % CR_TMA_STAGES);
            size_t cc = chunk_of(jj);
            tma_load(smem_addr(smem + (size_t)ss * chunk), src + cc * chunk, len_of(cc),
                     smem_addr(&mbar[ss]));
        }
    }
    /* The writes must land before the kernel ends (and before shared memory
     * goes away). */
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

void cr_mech_setup(void)
{
    CK(cudaFuncSetAttribute(k_ldst, cudaFuncAttributeMaxDynamicSharedMemorySize, LDST_SMEM));
    CK(cudaFuncSetAttribute(k_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, TMA_SMEM));
}

void cr_copy_ldst(void *dst, const void *src, size_t bytes, int sms, cudaStream_t s)
{
    k_ldst<<<sms, LDST_THREADS, LDST_SMEM, s>>>((uint4 *)dst, (const uint4 *)src, bytes / 16);
    CKL();
}

void cr_copy_tma(void *dst, const void *src, size_t bytes, int sms, cudaStream_t s)
{
    k_tma<<<sms, 32, TMA_SMEM, s>>>((char *)dst, (const char *)src, bytes);
    CKL();
}

/* SM counts swept: powers of two up to the GPU's count, and the count. */
static int sm_counts(int nsm, int *out)
{
    int n = 0;
    for (int c = 1; c < nsm; c *= 2)
        out[n++] = c;
    out[n++] = nsm;
    return n;
}

int cr_run_mech(const struct cr_opts *o)
{
    size_t max_bytes = o->max_bytes > 0 ? (size_t)o->max_bytes : (size_t)1 << 30;
    if (max_bytes > ((size_t)1 << 30))
        max_bytes = (size_t)1 << 30;
    if (o->quick && !o->max_bytes)
        max_bytes = (size_t)64 << 20;
    size_t pool = std::max(max_bytes, (size_t)(512 + 1) << 20);
    char *S = NULL, *D = NULL;
    cudaStream_t st = 0;
    int nsm = 132;
    if (!o->list) {
        nsm = cr_props()->multiProcessorCount;
        cr_mech_setup();
        CK(cudaMalloc(&S, pool));
        CK(cudaMalloc(&D, pool));
        CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    }
    int counts[32];
    int ncounts = sm_counts(nsm, counts);
    int rc = 0;
    static const char *mechs[] = {"ldst", "tma", "ce"};
    for (size_t bytes = 64 * 1024; bytes <= max_bytes; bytes *= (o->quick ? 16 : 4)) {
        for (int m = 0; m < 3; m++) {
            for (int ci = 0; ci < ncounts; ci++) {
                int sms = m == 2 ? 0 : counts[ci];
                if (m == 2 && ci > 0)
                    break;
                int sets = cr_rotation(2 * bytes, 4096);
                if ((size_t)sets * bytes > pool)
                    sets = (int)(pool / bytes);
                /* Rough per-SM rate for the iteration estimate: 40 GB/s. */
                double bw = m == 2 ? 1.5e12 : std::min(2e12, 4e10 * sms);
                int iters = cr_iters(o, 2.0 * (double)bytes / bw + 5e-6, 3, 40);
                uint64_t seed = o->list ? 0 : cr_next_seed();
                if (!o->list) {
                    cr_fill_words(S, (size_t)sets * bytes, seed, st);
                    cr_poison(D, (size_t)sets * bytes, st);
                    /* Warm-up on set 0, then poison it again. */
                    if (m == 0)
                        cr_copy_ldst(D, S, bytes, sms, st);
                    else if (m == 1)
                        cr_copy_tma(D, S, bytes, sms, st);
                    else
                        CK(cudaMemcpyAsync(D, S, bytes, cudaMemcpyDeviceToDevice, st));
                    cr_poison(D, bytes, st);
                }
                if (!cr_case_begin(o,
                                   "cr:mech mech=%s bytes=%zu sms=%d chunk=%d iters=%d sets=%d "
                                   "rd_bytes=%zu wr_bytes=%zu flops=0",
                                   mechs[m], bytes, sms, m == 1 ? CR_TMA_CHUNK : 16, iters, sets,
                                   bytes, bytes))
                    continue;
                struct cr_timer t;
                cr_timer_init(&t, iters);
                cr_timer_mark(&t, st);
                for (int it = 0; it < iters; it++) {
                    size_t off = (size_t)(it % sets) * bytes;
                    if (m == 0)
                        cr_copy_ldst(D + off, S + off, bytes, sms, st);
                    else if (m == 1)
                        cr_copy_tma(D + off, S + off, bytes, sms, st);
                    else
                        CK(cudaMemcpyAsync(D + off, S + off, bytes, cudaMemcpyDeviceToDevice, st));
                    cr_timer_mark(&t, st);
                }
                cr_case_end();
                double med = cr_timer_median_us(&t);
                cr_timer_free(&t);
                unsigned long long nbad = 0;
                nbad = cr_count_word_mismatch(D, (size_t)std::min(sets, iters) * bytes, seed, st);
                char label[96], why[64] = "";
                snprintf(label, sizeof label, "%s sms=%d %zu B", mechs[m], sms, bytes);
                if (nbad)
                    snprintf(why, sizeof why, "%llu wrong words", nbad);
                cr_report("mech", label, med, 2.0 * (double)bytes / (med * 1e-6) / 1e9, "GB/s",
                          nbad == 0, why);
                if (nbad)
                    rc = 1;
            }
        }
    }
    if (!o->list) {
        CK(cudaStreamDestroy(st));
        CK(cudaFree(S));
        CK(cudaFree(D));
    }
    return rc;
}
