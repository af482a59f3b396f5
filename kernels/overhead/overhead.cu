// SPDX-License-Identifier: MIT
// overhead: a kernel-dense program for measuring the tracer's cost. It
// launches N kernels (default 10,000) of about T ns each (default 10,000 ns =
// 10 us) back to back on one stream, REPS times (default 5), and prints the
// wall time of each repetition (first launch to cudaDeviceSynchronize, host
// CLOCK_MONOTONIC), one per line, so a driver can compare traced and untraced
// runs by their medians.
//
// Each kernel spins on the GPU's global timer (%globaltimer, ns) for T ns, so
// its length does not depend on the SM clock: the work is the same whether or
// not the tracer runs. 132 blocks of 128 threads (one block per H200 SM).
//
// Usage: overhead [-n KERNELS] [-t NS] [-r REPS]
#include <cuda_runtime.h>

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

__device__ __forceinline__ unsigned long long globaltimer_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void spin_ns(unsigned long long ns, int *sink)
{
    unsigned long long t0 = globaltimer_ns();
    unsigned long long t = t0;
    while (t - t0 < ns)
        t = globaltimer_ns();
    if (threadIdx.x == 0 && t == 0) // never true; keeps the loop from being removed
        *sink = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long n = 10000, ns = 10000, reps = 5;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "-n") == 0)
            n = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "-t") == 0)
            ns = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "-r") == 0)
            reps = strtol(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [-n KERNELS] [-t NS] [-r REPS]\n", argv[0]);
            return 2;
        }
    }
    if (n < 1 || ns < 0 || reps < 1) {
        fprintf(stderr, "overhead: -n and -r must be >= 1, -t >= 0\n");
        return 2;
    }
    int *sink;
    CHECK(cudaMalloc(&sink, sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    // Warm-up: module load and the first launches stay out of the numbers.
    for (int i = 0; i < 100; i++)
        spin_ns<<<132, 128, 0, s>>>((unsigned long long)ns, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (long r = 0; r < reps; r++) {
        double t0 = now_s();
        for (long i = 0; i < n; i++)
            spin_ns<<<132, 128, 0, s>>>((unsigned long long)ns, sink);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        double t1 = now_s();
        printf("rep %ld kernels %ld kernel_ns %ld wall_us %.1f per_kernel_us %.3f\n", r, n, ns,
               (t1 - t0) * 1e6, (t1 - t0) * 1e6 / (double)n);
    }
    CHECK(cudaFree(sink));
    return 0;
}
