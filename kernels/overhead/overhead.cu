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
// Launch-bound mode (-m launch): the tracer's cost per call where the host's
// launch rate, not the GPU, sets the pace. Back to back on one stream, N calls
// (default 10,000) of each operation, REPS loops each, per-call time printed:
//   kernel   an empty kernel, 1 block of 32 threads
//   memcpy   a 4 KiB device-to-device cudaMemcpyAsync
//   memset   a 4 KiB cudaMemsetAsync
//   nvtx     nvtxRangePushA + the empty kernel + nvtxRangePop (NVTX handling)
//   copy16m  a 16 MiB device-to-device cudaMemcpyAsync (copy-engine bound)
// The last line says how many records a tracer should have written
// ("expect kernels K memcpy M memset S nvtx R", warm-up included), so a driver
// can check that none was dropped.
//
// Usage: overhead [-n KERNELS] [-t NS] [-r REPS]
//        overhead -m launch [-n CALLS] [-r REPS] [-o OP[,OP...]]
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

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

__global__ void empty_kernel(int *sink)
{
    if (threadIdx.x == 1024) // never true: one block of 32 threads
        *sink = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define LAUNCH_BYTES 4096
#define COPY16M_BYTES (16u << 20)
#define WARMUP 100

// One operation of the launch-bound mode, on stream s.
static void launch_op(int op, cudaStream_t s, int *sink, char *a, char *b)
{
    switch (op) {
    case 0:
        empty_kernel<<<1, 32, 0, s>>>(sink);
        break;
    case 1:
        cudaMemcpyAsync(b, a, LAUNCH_BYTES, cudaMemcpyDeviceToDevice, s);
        break;
    case 2:
        cudaMemsetAsync(a, 0, LAUNCH_BYTES, s);
        break;
    case 3:
        nvtxRangePushA("overhead");
        empty_kernel<<<1, 32, 0, s>>>(sink);
        nvtxRangePop();
        break;
    default:
        cudaMemcpyAsync(b, a, COPY16M_BYTES, cudaMemcpyDeviceToDevice, s);
        break;
    }
}

static int launch_mode(long n, long reps, const char *ops)
{
    static const char *const names[] = {"kernel", "memcpy", "memset", "nvtx", "copy16m"};
    enum { NOPS = 5 };
    bool want[NOPS] = {false};
    for (const char *p = ops; *p;) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int i = 0; i < NOPS; i++)
            if (strlen(names[i]) == len && strncmp(p, names[i], len) == 0)
                found = i;
        if (found < 0) {
            fprintf(stderr,
                    "overhead: -o: unknown operation \"%.*s\" (kernel, memcpy, memset, nvtx, "
                    "copy16m)\n",
                    (int)len, p);
            return 2;
        }
        want[found] = true;
        p += len;
        p += strspn(p, ",");
    }
    int *sink;
    char *a, *b;
    CHECK(cudaMalloc(&sink, sizeof(int)));
    CHECK(cudaMalloc(&a, COPY16M_BYTES));
    CHECK(cudaMalloc(&b, COPY16M_BYTES));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    long kernels = 0, copies = 0, sets = 0, ranges = 0;
    for (int op = 0; op < NOPS; op++) {
        if (!want[op])
            continue;
        for (int i = 0; i < WARMUP; i++)
            launch_op(op, s, sink, a, b);
        CHECK(cudaGetLastError());
        CHECK(cudaStreamSynchronize(s));
        for (long r = 0; r < reps; r++) {
            double t0 = now_s();
            for (long i = 0; i < n; i++)
                launch_op(op, s, sink, a, b);
            CHECK(cudaGetLastError());
            CHECK(cudaStreamSynchronize(s));
            double t1 = now_s();
            printf("launch op %s rep %ld calls %ld wall_us %.1f per_call_us %.3f\n", names[op], r,
                   n, (t1 - t0) * 1e6, (t1 - t0) * 1e6 / (double)n);
        }
        long calls = WARMUP + n * reps;
        if (op == 0 || op == 3)
            kernels += calls;
        if (op == 1 || op == 4)
            copies += calls;
        if (op == 2)
            sets += calls;
        if (op == 3)
            ranges += calls;
    }
    printf("expect kernels %ld memcpy %ld memset %ld nvtx %ld\n", kernels, copies, sets, ranges);
    CHECK(cudaFree(sink));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    return 0;
}

int main(int argc, char **argv)
{
    long n = 10000, ns = 10000, reps = 5;
    const char *mode = "spin", *ops = "kernel,memcpy,memset,nvtx,copy16m";
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "-n") == 0)
            n = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "-t") == 0)
            ns = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "-r") == 0)
            reps = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "-m") == 0)
            mode = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "-o") == 0)
            ops = argv[++i];
        else {
            fprintf(stderr,
                    "usage: %s [-n KERNELS] [-t NS] [-r REPS]\n"
                    "       %s -m launch [-n CALLS] [-r REPS] [-o OP[,OP...]]\n",
                    argv[0], argv[0]);
            return 2;
        }
    }
    if (strcmp(mode, "spin") != 0 && strcmp(mode, "launch") != 0) {
        fprintf(stderr, "overhead: -m: unknown mode \"%s\" (spin, launch)\n", mode);
        return 2;
    }
    if (n < 1 || ns < 0 || reps < 1) {
        fprintf(stderr, "overhead: -n and -r must be >= 1, -t >= 0\n");
        return 2;
    }
    CHECK(cudaFree(0)); // CUDA (and a tracer) up before the first NVTX range
    if (strcmp(mode, "launch") == 0)
        return launch_mode(n, reps, ops);
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
