/* SPDX-License-Identifier: MIT */
/*
 * crbench: shared helpers of the commroof microbenchmarks (the .cu files of kernels/).
 *
 * Every measured case runs inside one NVTX range named
 *     "cr:<family> key=value key=value ..."
 * (doc/validation.md lists the families and keys). The range opens after a
 * device synchronisation and closes after another one, so every GPU activity
 * of the case lies inside it on the CUPTI clock; warm-up runs happen before
 * the range opens. Each range declares the case's work per iteration:
 * rd_bytes and wr_bytes (the fewest bytes the operation must read and write
 * in device memory, or move over the link for copies) and flops, so that the
 * arithmetic intensity is data, not folklore (LIKWID's habit). `iters` says
 * how many timed iterations the range holds: the validator splits the
 * activities into that many groups.
 *
 * Correctness: inputs are fresh random data for every case (a new seed each
 * time), outputs are poisoned (all bytes 0xFF, a NaN for every float type)
 * before the timed runs and checked afterwards against a reference. A failed
 * check is reported and makes crbench exit 1.
 */
#ifndef CRBENCH_H
#define CRBENCH_H

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "crbench: %s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,          \
                    cudaGetErrorString(e_));                                                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CKL() CK(cudaGetLastError())

/* crbench's exit status: 0 every case ran and every check passed; 1 a check
 * failed or a CUDA call failed; 2 usage; CR_EXIT_NO_GPU when the machine
 * has no usable CUDA GPU (no driver, no device, or --device out of range),
 * so that `commroof calibrate` can say so (cli/cmd_calibrate.c). */
#define CR_EXIT_NO_GPU 4

/* Options shared by every family. */
struct cr_opts {
    int quick;         /* fewer sizes (a smoke test) */
    double max_bytes;  /* largest buffer a family may use (bytes) */
    double min_bytes;  /* smallest message (bytes) where a family sweeps sizes */
    int device;        /* CUDA device for single-GPU families */
    double target_s;   /* timed work per case (seconds), before min/max iterations */
    int list;          /* print the ranges that would run, run nothing */
    uint64_t seed;     /* base seed; every case draws a fresh one from it */
    const char *colls; /* nccl: comma-separated collectives to run (NULL: all) */
    double budget_s;   /* nccl, fused: start no new case after this many seconds (0: none) */
    int gpus;          /* --list: name nccl's cases as one process on this many GPUs (0: 1) */
    int cache;         /* hbm: 1 cold (rotating sets, the default), 2 warm (one set, back to
                          back: the data stays in L2 between iterations), 3 both */
};

/* 1 when o->budget_s is set and that many seconds have passed since crbench
 * started: families that honour it start no further case (counted skipped),
 * so that the process still exits normally and the tracer writes its trace. */
int cr_over_budget(const struct cr_opts *o);

/* Counters of the run (crbench.cu). */
extern int g_cases, g_failed, g_skipped;

/* A fresh 64-bit seed for the next buffer fill. */
uint64_t cr_next_seed(void);

/* SplitMix64 finaliser: the one hash used to fill inputs and to check outputs,
 * on the host and on the device alike. */
__host__ __device__ static inline uint32_t cr_hash32(uint64_t seed, uint64_t i)
{
    uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)(z ^ (z >> 31));
}

/* Device fills: 32-bit words of random bits (word i = cr_hash32(seed, i)). */
void cr_fill_words(void *p, size_t bytes, uint64_t seed, cudaStream_t s);
/* Sets every byte to 0xFF (NaN in fp32/fp16/bf16, e4m3's NaN too). */
void cr_poison(void *p, size_t bytes, cudaStream_t s);
/* Number of 32-bit words in [p, p+bytes) that differ from cr_hash32(seed, i)
 * (bytes multiple of 4). Synchronous. */
unsigned long long cr_count_word_mismatch(const void *p, size_t bytes, uint64_t seed,
                                          cudaStream_t s);
/* Number of words where a != b. Synchronous. */
unsigned long long cr_count_diff(const void *a, const void *b, size_t bytes, cudaStream_t s);

/* Host fill / check with the same hash, split over threads. */
void cr_host_fill_words(void *p, size_t bytes, uint64_t seed);
unsigned long long cr_host_count_word_mismatch(const void *p, size_t bytes, uint64_t seed);

/* Opens the case's NVTX range after synchronising the device (printf-style
 * name). Returns 0 when --list is set: the caller then skips the case body
 * (the name was printed instead). */
int cr_case_begin(const struct cr_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Synchronises the device and closes the range. */
void cr_case_end(void);

/* Records the outcome of a case's correctness check and prints a result row:
 * family, case label, median time per iteration from CUDA events (us), the
 * rate that matters for the family, and OK/FAILED. */
void cr_report(const char *family, const char *label, double median_us, double rate,
               const char *rate_unit, int ok, const char *why);

/* Per-iteration CUDA event timing: record before/after each iteration on
 * stream s, then cr_timer_median_us() after a synchronisation. */
struct cr_timer {
    cudaEvent_t *ev;
    int n, cap;
};
void cr_timer_init(struct cr_timer *t, int iters);
void cr_timer_mark(struct cr_timer *t, cudaStream_t s);
double cr_timer_median_us(struct cr_timer *t); /* median of consecutive marks' gaps */
void cr_timer_free(struct cr_timer *t);

/* Iterations for a case whose one iteration should take est_s seconds:
 * target_s / est_s clamped to [lo, hi]. */
int cr_iters(const struct cr_opts *o, double est_s, int lo, int hi);

/* How many disjoint buffer sets to rotate through so that the bytes touched
 * between two uses of one set exceed the L2 several times over (512 MiB):
 * repeated runs then measure device memory, not the cache (METHOD.md). */
int cr_rotation(size_t footprint_bytes, int max_sets);

/* Device properties of the current device (cached). */
const cudaDeviceProp *cr_props(void);

/* Families (one file each). Return 0 when every check passed. */
int cr_run_hbm(const struct cr_opts *o);
int cr_run_ce(const struct cr_opts *o);
int cr_run_mech(const struct cr_opts *o);
int cr_run_gemm(const struct cr_opts *o);
int cr_run_launch(const struct cr_opts *o);
int cr_run_nccl(const struct cr_opts *o);
int cr_run_p2p(const struct cr_opts *o);
int cr_run_fused(const struct cr_opts *o); /* fused/fused.cu */

/* Transfer mechanisms shared by mech.cu and p2p.cu: copy bytes from src to
 * dst (either may be a peer device's memory) with `sms` thread blocks, one per
 * SM. bytes must be a multiple of 16 and both pointers 16-byte aligned. */
void cr_copy_ldst(void *dst, const void *src, size_t bytes, int sms, cudaStream_t s);
void cr_copy_tma(void *dst, const void *src, size_t bytes, int sms, cudaStream_t s);
/* The TMA chunk (bytes per cp.async.bulk message) and pipeline depth used. */
#define CR_TMA_CHUNK 32768
#define CR_TMA_STAGES 4
/* Makes the kernels above able to take their shared memory on the current
 * device (call once per device). */
void cr_mech_setup(void);

#endif
