/* SPDX-License-Identifier: MIT */
/*
 * crbench: the commroof microbenchmark driver. One binary, one family per
 * argument (hbm, ce, mech, gemm, launch, nccl, p2p, or all), each case inside
 * an NVTX range that names it (crbench.h, doc/validation.md). Results are
 * checked; the exit status is 1 when any check failed or a CUDA call failed,
 * 2 on a usage error.
 */
#include <algorithm>
#include <nvtx3/nvToolsExt.h>
#include <string.h>
#include <thread>
#include <time.h>
#include <vector>

#include "crbench.h"

int g_cases, g_failed, g_skipped;
static uint64_t g_seed_state;

uint64_t cr_next_seed(void)
{
    g_seed_state += 0x632BE59BD9B4E019ull;
    return ((uint64_t)cr_hash32(g_seed_state, 1) << 32) | cr_hash32(g_seed_state, 2);
}

static __global__ void k_fill_words(uint32_t *p, size_t n, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = cr_hash32(seed, i);
}

static __global__ void k_mismatch(const uint32_t *p, size_t n, uint64_t seed,
                                  unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        mine += p[i] != cr_hash32(seed, i);
    if (mine)
        atomicAdd(bad, mine);
}

static __global__ void k_diff(const uint32_t *a, const uint32_t *b, size_t n,
                              unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        mine += a[i] != b[i];
    if (mine)
        atomicAdd(bad, mine);
}

static int grid_for(size_t n)
{
    size_t g = (n + 255) / 256;
    size_t cap = (size_t)cr_props()->multiProcessorCount * 8;
    return (int)std::max<size_t>(1, std::min(g, cap));
}

void cr_fill_words(void *p, size_t bytes, uint64_t seed, cudaStream_t s)
{
    size_t n = bytes / 4;
    k_fill_words<<<grid_for(n), 256, 0, s>>>((uint32_t *)p, n, seed);
    CKL();
}

void cr_poison(void *p, size_t bytes, cudaStream_t s)
{
    CK(cudaMemsetAsync(p, 0xFF, bytes, s));
}

static unsigned long long *counter(void)
{
    static unsigned long long *c[64];
    int dev = 0;
    CK(cudaGetDevice(&dev));
    if (!c[dev])
        CK(cudaMalloc(&c[dev], sizeof **c));
    return c[dev];
}

unsigned long long cr_count_word_mismatch(const void *p, size_t bytes, uint64_t seed,
                                          cudaStream_t s)
{
    unsigned long long *c = counter(), h = 0;
    CK(cudaMemsetAsync(c, 0, sizeof *c, s));
    size_t n = bytes / 4;
    k_mismatch<<<grid_for(n), 256, 0, s>>>((const uint32_t *)p, n, seed, c);
    CKL();
    CK(cudaMemcpyAsync(&h, c, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    return h;
}

unsigned long long cr_count_diff(const void *a, const void *b, size_t bytes, cudaStream_t s)
{
    unsigned long long *c = counter(), h = 0;
    CK(cudaMemsetAsync(c, 0, sizeof *c, s));
    size_t n = bytes / 4;
    k_diff<<<grid_for(n), 256, 0, s>>>((const uint32_t *)a, (const uint32_t *)b, n, c);
    CKL();
    CK(cudaMemcpyAsync(&h, c, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    return h;
}

static unsigned host_threads(size_t bytes)
{
    unsigned t = std::thread::hardware_concurrency();
    if (t == 0)
        t = 1;
    t = std::min(t, 16u);
    if (bytes < ((size_t)16 << 20))
        t = 1;
    return t;
}

void cr_host_fill_words(void *p, size_t bytes, uint64_t seed)
{
    uint32_t *w = (uint32_t *)p;
    size_t n = bytes / 4;
    unsigned nt = host_threads(bytes);
    std::vector<std::thread> th;
    for (unsigned t = 0; t < nt; t++)
        th.emplace_back([=] {
            for (size_t i = n * t / nt; i < n * (t + 1) / nt; i++)
                w[i] = cr_hash32(seed, i);
        });
    for (auto &x : th)
        x.join();
}

unsigned long long cr_host_count_word_mismatch(const void *p, size_t bytes, uint64_t seed)
{
    const uint32_t *w = (const uint32_t *)p;
    size_t n = bytes / 4;
    unsigned nt = host_threads(bytes);
    std::vector<unsigned long long> bad(nt, 0);
    std::vector<std::thread> th;
    for (unsigned t = 0; t < nt; t++)
        th.emplace_back([=, &bad] {
            unsigned long long b = 0;
            for (size_t i = n * t / nt; i < n * (t + 1) / nt; i++)
                b += w[i] != cr_hash32(seed, i);
            bad[t] = b;
        });
    unsigned long long sum = 0;
    for (unsigned t = 0; t < nt; t++) {
        th[t].join();
        sum += bad[t];
    }
    return sum;
}

int cr_case_begin(const struct cr_opts *o, const char *fmt, ...)
{
    char name[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    if (o->list) {
        printf("%s\n", name);
        return 0;
    }
    CK(cudaDeviceSynchronize());
    nvtxRangePushA(name);
    return 1;
}

void cr_case_end(void)
{
    CK(cudaDeviceSynchronize());
    nvtxRangePop();
    g_cases++;
}

void cr_report(const char *family, const char *label, double median_us, double rate,
               const char *rate_unit, int ok, const char *why)
{
    if (!ok)
        g_failed++;
    printf("%-7s %-52s %12.2f %10.2f %-8s %s%s%s\n", family, label, median_us, rate, rate_unit,
           ok ? "OK" : "FAILED", why && *why ? " " : "", why ? why : "");
    fflush(stdout);
}

void cr_timer_init(struct cr_timer *t, int iters)
{
    t->cap = iters + 1;
    t->n = 0;
    t->ev = (cudaEvent_t *)calloc((size_t)t->cap, sizeof *t->ev);
    if (!t->ev) {
        fprintf(stderr, "crbench: out of host memory\n");
        exit(1);
    }
    for (int i = 0; i < t->cap; i++)
        CK(cudaEventCreate(&t->ev[i]));
}

void cr_timer_mark(struct cr_timer *t, cudaStream_t s)
{
    if (t->n < t->cap)
        CK(cudaEventRecord(t->ev[t->n++], s));
}

double cr_timer_median_us(struct cr_timer *t)
{
    std::vector<double> d;
    for (int i = 1; i < t->n; i++) {
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, t->ev[i - 1], t->ev[i]));
        d.push_back(ms * 1e3);
    }
    if (d.empty())
        return 0;
    std::sort(d.begin(), d.end());
    return d[d.size() / 2];
}

void cr_timer_free(struct cr_timer *t)
{
    for (int i = 0; i < t->cap; i++)
        cudaEventDestroy(t->ev[i]);
    free(t->ev);
    t->ev = NULL;
}

static double g_start_s;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cr_over_budget(const struct cr_opts *o)
{
    return o->budget_s > 0 && now_s() - g_start_s > o->budget_s;
}

int cr_iters(const struct cr_opts *o, double est_s, int lo, int hi)
{
    double n = est_s > 0 ? o->target_s / est_s : hi;
    if (n < lo)
        n = lo;
    if (n > hi)
        n = hi;
    return (int)n;
}

int cr_rotation(size_t footprint_bytes, int max_sets)
{
    const size_t rot = (size_t)512 << 20;
    if (footprint_bytes == 0 || footprint_bytes >= rot)
        return 1;
    size_t k = (rot + footprint_bytes - 1) / footprint_bytes;
    return (int)std::min<size_t>(k, (size_t)max_sets);
}

const cudaDeviceProp *cr_props(void)
{
    static cudaDeviceProp p[64];
    static int have[64];
    int dev = 0;
    CK(cudaGetDevice(&dev));
    if (!have[dev]) {
        CK(cudaGetDeviceProperties(&p[dev], dev));
        have[dev] = 1;
    }
    return &p[dev];
}

static void usage(FILE *f)
{
    fputs("usage: crbench FAMILY... [--quick] [--max-bytes N] [--min-bytes N] [--device D]\n"
          "               [--target-ms T] [--seed S] [--colls LIST] [--budget-s S] [--list]\n"
          "               [--cache cold|warm|both]\n"
          "families: hbm ce mech gemm launch nccl p2p fused all (all: every one but fused)\n"
          "  --quick       fewer sizes (smoke test)\n"
          "  --max-bytes   largest buffer per family (default: each family's own, up to 8 GiB)\n"
          "  --min-bytes   smallest message for nccl and p2p (default 1024)\n"
          "  --device      GPU for single-GPU families (default 0)\n"
          "  --target-ms   timed work per case before iteration clamps (default 30)\n"
          "  --colls       nccl: comma-separated collectives (default all: allreduce,allgather,\n"
          "                reducescatter,alltoall,broadcast,reduce,sendrecv)\n"
          "  --budget-s    nccl, fused: start no case after S seconds (the rest is skipped)\n"
          "  --cache       hbm: cold (default; buffer sets rotate over > 512 MiB so every\n"
          "                iteration starts out of the L2), warm (one set back to back: what\n"
          "                fits stays in the L2), or both\n"
          "  --list        print the NVTX range names that would run; touch no GPU\n"
          "  --gpus N      with --list: nccl's names as one process driving N GPUs (default 1;\n"
          "                under torchrun/mpirun WORLD_SIZE and RANK say it)\n"
          "Each case runs inside an NVTX range \"cr:<family> key=value ...\"\n"
          "(doc/validation.md). Run under 'commroof trace' to record it.\n",
          f);
}

static double parse_num(const char *s, const char *flag)
{
    char *end = NULL;
    double v = strtod(s, &end);
    double mul = 1;
    if (end && *end) {
        if (!strcmp(end, "K") || !strcmp(end, "KiB"))
            mul = 1024.0;
        else if (!strcmp(end, "M") || !strcmp(end, "MiB"))
            mul = 1048576.0;
        else if (!strcmp(end, "G") || !strcmp(end, "GiB"))
            mul = 1073741824.0;
        else {
            fprintf(stderr,
                    "crbench: %s \"%s\": expected a number, optionally with K, M or G "
                    "(powers of 1024)\n",
                    flag, s);
            exit(2);
        }
    }
    if (!(v >= 0) || end == s) {
        fprintf(stderr, "crbench: %s \"%s\": expected a non-negative number\n", flag, s);
        exit(2);
    }
    return v * mul;
}

int main(int argc, char **argv)
{
    struct cr_opts o;
    memset(&o, 0, sizeof o);
    o.target_s = 0.030;
    o.min_bytes = 1024;
    o.cache = 1;
    o.seed = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull;
    const char *fam[16];
    int nfam = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--quick")) {
            o.quick = 1;
        } else if (!strcmp(a, "--list")) {
            o.list = 1;
        } else if (!strcmp(a, "--max-bytes") && more) {
            o.max_bytes = parse_num(argv[++i], a);
        } else if (!strcmp(a, "--min-bytes") && more) {
            o.min_bytes = parse_num(argv[++i], a);
        } else if (!strcmp(a, "--device") && more) {
            o.device = (int)parse_num(argv[++i], a);
        } else if (!strcmp(a, "--target-ms") && more) {
            o.target_s = parse_num(argv[++i], a) / 1e3;
        } else if (!strcmp(a, "--colls") && more) {
            o.colls = argv[++i];
        } else if (!strcmp(a, "--budget-s") && more) {
            o.budget_s = parse_num(argv[++i], a);
        } else if (!strcmp(a, "--gpus") && more) {
            o.gpus = (int)parse_num(argv[++i], a);
        } else if (!strcmp(a, "--cache") && more) {
            const char *v = argv[++i];
            o.cache = !strcmp(v, "cold") ? 1 : !strcmp(v, "warm") ? 2 : !strcmp(v, "both") ? 3 : 0;
            if (!o.cache) {
                fprintf(stderr, "crbench: --cache \"%s\": expected cold, warm or both\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--seed") && more) {
            o.seed = (uint64_t)parse_num(argv[++i], a);
        } else if (a[0] == '-') {
            fprintf(stderr, "crbench: unknown option or missing value: %s\n", a);
            usage(stderr);
            return 2;
        } else if (nfam < 16) {
            fam[nfam++] = a;
        }
    }
    if (nfam == 0) {
        usage(stderr);
        return 2;
    }
    static const struct {
        const char *name;
        int (*run)(const struct cr_opts *);
    } fams[] = {{"hbm", cr_run_hbm},   {"ce", cr_run_ce},         {"mech", cr_run_mech},
                {"gemm", cr_run_gemm}, {"launch", cr_run_launch}, {"nccl", cr_run_nccl},
                {"p2p", cr_run_p2p},   {"fused", cr_run_fused}};
    const int NF = (int)(sizeof fams / sizeof fams[0]);
    for (int i = 0; i < nfam; i++) {
        int ok = !strcmp(fam[i], "all");
        for (int j = 0; j < NF && !ok; j++)
            ok = !strcmp(fam[i], fams[j].name);
        if (!ok) {
            fprintf(stderr,
                    "crbench: unknown family \"%s\" (one of: hbm ce mech gemm launch "
                    "nccl p2p fused all)\n",
                    fam[i]);
            return 2;
        }
    }
    if (o.gpus && (!o.list || o.gpus < 1 || o.gpus > 1024)) {
        fprintf(stderr, "crbench: --gpus N (1-1024) names cases for --list only; a run uses the "
                        "GPUs it finds\n");
        return 2;
    }
    g_seed_state = o.seed;
    g_start_s = now_s();
    if (!o.list) {
        /* CUDA first: the tracer is injected when CUDA initialises, and NVTX
         * ranges opened before that are lost (traces/README.md). */
        int ndev = 0;
        cudaError_t e = cudaGetDeviceCount(&ndev);
        if (e != cudaSuccess || ndev == 0) {
            fprintf(stderr, "crbench: no usable CUDA GPU on this machine (%s)\n",
                    e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
            return CR_EXIT_NO_GPU;
        }
        if (o.device < 0 || o.device >= ndev) {
            fprintf(stderr, "crbench: --device %d: this machine has %d GPU(s), 0-%d\n", o.device,
                    ndev, ndev - 1);
            return CR_EXIT_NO_GPU;
        }
        CK(cudaSetDevice(o.device));
        CK(cudaFree(0));
        printf("# crbench on %s (%d SMs, %.1f GiB, L2 %.1f MiB), seed %llu\n", cr_props()->name,
               cr_props()->multiProcessorCount, (double)cr_props()->totalGlobalMem / 1073741824.0,
               (double)cr_props()->l2CacheSize / 1048576.0, (unsigned long long)o.seed);
        printf("# %-5s %-52s %12s %10s %-8s %s\n", "family", "case", "median", "rate", "unit",
               "check");
        printf("# %-5s %-52s %12s %10s %-8s %s\n", "", "", "us", "", "", "");
    }
    int rc = 0;
    for (int j = 0; j < NF; j++) {
        int want = 0;
        for (int i = 0; i < nfam; i++)
            /* "all" is every family validate reads; fused (two or more
             * GPUs, checked through `commroof check`) runs when named. */
            want |= !strcmp(fam[i], fams[j].name) ||
                    (!strcmp(fam[i], "all") && fams[j].run != cr_run_fused);
        if (!want)
            continue;
        if (!o.list)
            CK(cudaSetDevice(o.device));
        if (fams[j].run(&o) != 0)
            rc = 1;
    }
    if (!o.list)
        printf("# %d cases, %d failed checks, %d skipped: %s\n", g_cases, g_failed, g_skipped,
               g_failed || rc ? "FAILED" : "OK");
    return g_failed || rc ? 1 : 0;
}
