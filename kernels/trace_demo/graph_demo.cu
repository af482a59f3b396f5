// SPDX-License-Identifier: MIT
// graph_demo: a CUDA graph for `commroof roofline` (doc/roofline.md, "CUDA
// graphs"). One iteration of two operators, each in a cr: range
// (traces/annotate/commroof_nvtx.h) -- a 64 MiB device-to-device copy and a
// triad over 16M fp32 elements (a[i] = b[i] + s * c[i]) -- is captured from
// a stream into a graph, which is then launched REPS times inside a range
// named "replay". The ranges are open while the graph is captured, not
// while it runs: only the tracer's graph node events tie each replayed
// copy and kernel to the range that made its node.
//
// Then the same two operators run eagerly, each between two CUDA events,
// REPS times; their medians go to stdout as JSON ("events_us"), for the
// roofline rows' times to be checked against.
//
// Usage: graph_demo [REPS]   (default 50)
#include <cuda_runtime.h>

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#include "../../traces/annotate/commroof_nvtx.h"

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static const size_t COPY_BYTES = 64u << 20;
static const int TRIAD_N = 16 << 20;

__global__ void triad(float *a, const float *b, const float *c, float s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = b[i] + s * c[i];
}

struct bufs {
    char *src, *dst;
    float *a, *b, *c;
};

static void copy_op(const bufs &m, cudaStream_t st)
{
    commroof_nvtx_push("memcpy", "bytes=%zu kind=d2d", COPY_BYTES);
    CHECK(cudaMemcpyAsync(m.dst, m.src, COPY_BYTES, cudaMemcpyDeviceToDevice, st));
    commroof_nvtx_pop();
}

static void triad_op(const bufs &m, cudaStream_t st)
{
    commroof_nvtx_push("elementwise", "elems=%d dtype=fp32 reads=2 writes=1 flops_per=2", TRIAD_N);
    triad<<<132 * 8, 256, 0, st>>>(m.a, m.b, m.c, 3.0f, TRIAD_N);
    CHECK(cudaGetLastError());
    commroof_nvtx_pop();
}

// The median of REPS event-timed calls of op, each behind the previous.
template <typename F> static float events_median_us(F op, cudaStream_t st, int reps)
{
    std::vector<float> t;
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    for (int r = 0; r < reps; r++) {
        CHECK(cudaEventRecord(e0, st));
        op();
        CHECK(cudaEventRecord(e1, st));
        CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms * 1000.0f);
    }
    std::sort(t.begin(), t.end());
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    return t[t.size() / 2];
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 50;
    if (reps < 1) {
        fprintf(stderr, "graph_demo: REPS must be a positive integer, not \"%s\"\n", argv[1]);
        return 2;
    }
    bufs m;
    CHECK(cudaMalloc(&m.src, COPY_BYTES));
    CHECK(cudaMalloc(&m.dst, COPY_BYTES));
    CHECK(cudaMalloc(&m.a, TRIAD_N * sizeof(float)));
    CHECK(cudaMalloc(&m.b, TRIAD_N * sizeof(float)));
    CHECK(cudaMalloc(&m.c, TRIAD_N * sizeof(float)));
    CHECK(cudaMemset(m.src, 1, COPY_BYTES));
    CHECK(cudaMemset(m.b, 0, TRIAD_N * sizeof(float)));
    CHECK(cudaMemset(m.c, 0, TRIAD_N * sizeof(float)));
    cudaStream_t st;
    CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    copy_op(m, st);
    triad_op(m, st);
    CHECK(cudaStreamEndCapture(st, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, st)); // warm-up, as a harness does
    CHECK(cudaStreamSynchronize(st));

    nvtxRangePushA("replay");
    for (int r = 0; r < reps; r++)
        CHECK(cudaGraphLaunch(exec, st));
    CHECK(cudaStreamSynchronize(st));
    nvtxRangePop();

    // eager, timed by events (ranges of their own, so outside the graph's rows
    // only by their launch: they are the same operators, the rows count them)
    float copy_us = events_median_us(
        [&] { CHECK(cudaMemcpyAsync(m.dst, m.src, COPY_BYTES, cudaMemcpyDeviceToDevice, st)); }, st,
        reps);
    float triad_us = events_median_us(
        [&] {
            triad<<<132 * 8, 256, 0, st>>>(m.a, m.b, m.c, 3.0f, TRIAD_N);
            CHECK(cudaGetLastError());
        },
        st, reps);
    printf("{\"program\":\"graph_demo\",\"reps\":%d,\"events_us\":{\"memcpy\":%.3f,"
           "\"elementwise\":%.3f}}\n",
           reps, copy_us, triad_us);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(st));
    return 0;
}
