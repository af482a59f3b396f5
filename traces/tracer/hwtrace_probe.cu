// SPDX-License-Identifier: MIT
// hwtrace_probe: does CUPTI's hardware event system (cuptiActivityEnableHWTrace,
// CUDA 13.0's cupti_activity.h: "only available on Blackwell architecture")
// answer on this GPU, and what does a recorded kernel cost with and without
// it? The tracer's cost on launch-bound work is CUPTI's software
// instrumentation of each kernel (traces/README.md, Tracer overhead on
// launch-bound work); hardware timestamps are the one documented way around
// it, so the claim that Hopper lacks them is checked here on the GPU rather
// than taken from the header.
//
// One mode per process, so no CUPTI state carries between them:
//   none     CUPTI not touched
//   cupti    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL recorded (what the tracer does)
//   hwtrace  the same, after cuptiActivityEnableHWTrace(1); if CUPTI refuses it,
//            the process prints the refusal and exits 3
// Each process launches N empty kernels (1 block of 32 threads) back to back,
// REPS times, and prints the wall time per launch of each repetition, then the
// number of kernel records CUPTI delivered against the number launched.
//
// Usage: hwtrace_probe none|cupti|hwtrace [N] [REPS]
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static const char *cupti_says(CUptiResult r)
{
    const char *s = "?";
    cuptiGetResultString(r, &s);
    return s;
}

#define CUPTI_CHECK(call)                                                                          \
    do {                                                                                           \
        CUptiResult r_ = (call);                                                                   \
        if (r_ != CUPTI_SUCCESS) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cupti_says(r_));         \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

__global__ void empty_kernel(int *sink)
{
    if (threadIdx.x == 1024) // never true: one block of 32 threads
        *sink = 1;
}

static long kernel_records; // only the buffer callback, on CUPTI's thread, and main after the flush

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *size = 8u << 20;
    *buffer = (uint8_t *)aligned_alloc(8, *size);
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *rec = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS)
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
            kernel_records++;
    free(buffer);
}

// The CPU each of this process's threads last ran on (field 39 of
// /proc/self/task/TID/stat), so a driver can relate a process's cost to
// where the scheduler put its launching thread and CUPTI's worker.
static void print_thread_cpus(const char *mode)
{
    printf("%s thread_cpus", mode);
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[300], buf[1024];
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[got] = 0;
        const char *p = strrchr(buf, ')'); // the name may hold spaces; fields count from after it
        int field = 2, cpu = -1;
        for (; p && *p; p++)
            if (*p == ' ' && ++field == 39) {
                cpu = atoi(p + 1);
                break;
            }
        printf(" %s:%d", e->d_name, cpu);
    }
    if (d)
        closedir(d);
    printf("\n");
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2 ||
        (strcmp(argv[1], "none") && strcmp(argv[1], "cupti") && strcmp(argv[1], "hwtrace"))) {
        fprintf(stderr, "usage: hwtrace_probe none|cupti|hwtrace [N] [REPS]\n");
        return 2;
    }
    const char *mode = argv[1];
    long n = argc > 2 ? atol(argv[2]) : 10000;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    bool record = strcmp(mode, "none") != 0;

    if (cuInit(0) != CUDA_SUCCESS) {
        fprintf(stderr, "cuInit failed\n");
        return 1;
    }
    if (record) {
        CUPTI_CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
        if (strcmp(mode, "hwtrace") == 0) {
            // After the driver is initialised and before any context, as the header asks.
            CUptiResult r = cuptiActivityEnableHWTrace(1);
            printf("cuptiActivityEnableHWTrace(1): %s\n", cupti_says(r));
            if (r != CUPTI_SUCCESS)
                return 3;
        }
        CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    }
    int *sink;
    CHECK(cudaMalloc(&sink, sizeof *sink));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    for (int i = 0; i < 100; i++) // warm-up: module load, first-launch costs
        empty_kernel<<<1, 32, 0, s>>>(sink);
    CHECK(cudaStreamSynchronize(s));
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        for (long i = 0; i < n; i++)
            empty_kernel<<<1, 32, 0, s>>>(sink);
        CHECK(cudaStreamSynchronize(s));
        printf("%s rep %d us_per_launch %.4f\n", mode, r, (now_s() - t0) * 1e6 / (double)n);
    }
    CHECK(cudaGetLastError());
    print_thread_cpus(mode);
    if (record) {
        CUPTI_CHECK(cuptiActivityFlushAll(1));
        printf("%s kernel_records %ld launched %ld\n", mode, kernel_records, 100 + n * reps);
    }
    return 0;
}
