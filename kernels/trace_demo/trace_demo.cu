// SPDX-License-Identifier: MIT
// trace_demo: a small CUDA C program for the tracer (traces/README.md). It
// launches matmul-style and elementwise kernels on two streams, copies
// host-to-device (pinned and pageable), device-to-host, device-to-device,
// sets memory, synchronises on a stream, an event and the device, and wraps
// phases in NVTX ranges carrying payloads (the byte count or FLOPs of the
// phase), in the default domain and in a "commroof" domain.
//
// Usage: trace_demo [--kill-after-ms MS]
//   --kill-after-ms MS: after the work, sleep MS milliseconds and SIGKILL
//   ourselves, to check that a killed program leaves a readable trace.
//
// One NVTX range is opened before the first CUDA call on purpose
// ("before_cuda_init"): whether it shows up tells whether NVTX was injected
// before CUDA initialised (traces/README.md, known limits).
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define TILE 32

// C = A x B, n x n fp32, one 32x32 tile of C per block (shared-memory tiling).
__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// y = a * x + y over n elements (dynamic shared memory only to show it in the trace).
__global__ void axpy(float a, const float *x, float *y, size_t n)
{
    extern __shared__ float scratch[];
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    scratch[threadIdx.x] = 0.0f;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

static void nvtx_push_payload(const char *msg, uint64_t payload, uint32_t argb)
{
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = argb;
    a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    a.payload.ullValue = payload;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = msg;
    nvtxRangePushEx(&a);
}

int main(int argc, char **argv)
{
    long kill_after_ms = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--kill-after-ms") == 0 && i + 1 < argc)
            kill_after_ms = strtol(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--kill-after-ms MS]\n", argv[0]);
            return 2;
        }
    }

    nvtxRangePushA("before_cuda_init");
    CHECK(cudaFree(0)); // CUDA (and the injected tracer) initialise here
    nvtxRangePop();

    nvtxDomainHandle_t dom = nvtxDomainCreateA("commroof");
    nvtxRangePushA("trace_demo");

    const int n = 1024;
    const size_t mat_bytes = (size_t)n * n * sizeof(float);
    const size_t vec_n = 16u << 20; // 64 MiB of fp32
    const size_t vec_bytes = vec_n * sizeof(float);

    float *hA_pinned, *hB_pageable, *hC;
    CHECK(cudaMallocHost(&hA_pinned, mat_bytes));
    hB_pageable = (float *)malloc(mat_bytes);
    CHECK(cudaMallocHost(&hC, mat_bytes));
    if (!hB_pageable)
        return 1;
    for (size_t i = 0; i < (size_t)n * n; i++) {
        hA_pinned[i] = (float)((i * 7) % 13) * 0.25f;
        hB_pageable[i] = (float)((i * 5) % 11) * 0.5f;
    }
    float *dA, *dB, *dC, *dX, *dY, *dY2;
    CHECK(cudaMalloc(&dA, mat_bytes));
    CHECK(cudaMalloc(&dB, mat_bytes));
    CHECK(cudaMalloc(&dC, mat_bytes));
    CHECK(cudaMalloc(&dX, vec_bytes));
    CHECK(cudaMalloc(&dY, vec_bytes));
    CHECK(cudaMalloc(&dY2, vec_bytes));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t ev;
    CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));

    // Copies: pinned h2d (async), pageable h2d, memsets.
    nvtx_push_payload("h2d_inputs", 2 * mat_bytes, 0xff3366cc);
    CHECK(cudaMemcpyAsync(dA, hA_pinned, mat_bytes, cudaMemcpyHostToDevice, s1));
    CHECK(cudaMemcpy(dB, hB_pageable, mat_bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemsetAsync(dX, 0, vec_bytes, s2));
    CHECK(cudaMemsetAsync(dY, 0, vec_bytes, s2));
    CHECK(cudaStreamSynchronize(s1));
    nvtxRangePop();

    // Matmuls on s1, in a domain range with a FLOP payload.
    {
        nvtxEventAttributes_t a;
        memset(&a, 0, sizeof a);
        a.version = NVTX_VERSION;
        a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        a.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
        a.payload.dValue = 4.0 * 2.0 * n * (double)n * n; // 4 matmuls of 2 n^3 FLOPs
        a.messageType = NVTX_MESSAGE_TYPE_ASCII;
        a.message.ascii = "matmul x4";
        nvtxRangeId_t r = nvtxDomainRangeStartEx(dom, &a);
        dim3 grid(n / TILE, n / TILE), block(TILE, TILE);
        for (int i = 0; i < 4; i++)
            matmul_tiled<<<grid, block, 0, s1>>>(dA, dB, dC, n);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ev, s1));
        nvtxDomainRangeEnd(dom, r);
    }

    // Elementwise work on s2, concurrent with the matmuls.
    nvtx_push_payload("axpy x8", 8 * 3 * vec_bytes, 0xff66cc33);
    for (int i = 0; i < 8; i++)
        axpy<<<264, 256, 256 * sizeof(float), s2>>>(1.5f, dX, dY, vec_n);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamWaitEvent(s2, ev, 0));
    nvtxRangePop();

    // Device-to-device, then results back to the host.
    nvtx_push_payload("d2d_and_d2h", vec_bytes + mat_bytes, 0xffcc6633);
    CHECK(cudaMemcpyAsync(dY2, dY, vec_bytes, cudaMemcpyDeviceToDevice, s2));
    CHECK(cudaMemcpyAsync(hC, dC, mat_bytes, cudaMemcpyDeviceToHost, s2));
    CHECK(cudaEventSynchronize(ev));
    CHECK(cudaStreamSynchronize(s2));
    nvtxRangePop();
    nvtxMarkA("checkpoint");

    // A correctness check so the demo is not timing garbage: C[0][0] by hand.
    double ref = 0.0;
    for (int k = 0; k < n; k++)
        ref += (double)hA_pinned[k] * (double)hB_pageable[(size_t)k * n];
    if (hC[0] < ref * 0.999 - 1e-3 || hC[0] > ref * 1.001 + 1e-3) {
        fprintf(stderr, "trace_demo: C[0][0] = %g, expected %g\n", hC[0], ref);
        return 1;
    }
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop(); // trace_demo

    if (kill_after_ms >= 0) {
        // Leave a range open, give the tracer's periodic flush time to run,
        // then die the hard way.
        nvtxRangePushA("open_when_killed");
        for (int i = 0; i < 4; i++)
            axpy<<<264, 256, 256 * sizeof(float), s1>>>(2.0f, dX, dY, vec_n);
        CHECK(cudaStreamSynchronize(s1));
        struct timespec ts = {kill_after_ms / 1000, (kill_after_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        kill(getpid(), SIGKILL);
    }

    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dX));
    CHECK(cudaFree(dY));
    CHECK(cudaFree(dY2));
    CHECK(cudaFreeHost(hA_pinned));
    CHECK(cudaFreeHost(hC));
    free(hB_pageable);
    printf("trace_demo: ok (C[0][0] = %g)\n", ref);
    return 0;
}
