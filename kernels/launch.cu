/* SPDX-License-Identifier: MIT */
/*
 * Launch and synchronisation overheads, with an empty kernel (no bytes, no
 * FLOPs):
 *   kind=async   N launches back to back, one synchronisation at the end:
 *                the launch rate (host cost per launch, GPU spacing);
 *   kind=sync    launch then cudaStreamSynchronize, N times: the round trip;
 *   kind=graph   one CUDA graph of `nodes` empty kernels replayed N times:
 *                the GPU-side spacing of kernels without host launches;
 *   kind=event   cudaEventRecord + cudaEventSynchronize on an idle stream:
 *                the cost of one host wait.
 * The check: every kernel increments a counter; the count must come out
 * right (no launch silently lost).
 */
#include "crbench.h"

static __global__ void cr_empty_kernel(unsigned *count)
{
    if (count && threadIdx.x == 0 && blockIdx.x == 0)
        atomicAdd(count, 1u);
}

int cr_run_launch(const struct cr_opts *o)
{
    cudaStream_t s = 0;
    unsigned *cnt = NULL;
    if (!o->list) {
        CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        CK(cudaMalloc(&cnt, sizeof *cnt));
        for (int i = 0; i < 100; i++)
            cr_empty_kernel<<<1, 32, 0, s>>>(NULL);
        CKL();
        CK(cudaStreamSynchronize(s));
    }
    int rc = 0;
    static const char *kinds[] = {"async", "sync", "graph", "event"};
    for (int ki = 0; ki < 4; ki++) {
        const char *kind = kinds[ki];
        int iters = ki == 0 ? 1000 : ki == 1 ? 300 : ki == 2 ? 10 : 300;
        int nodes = ki == 2 ? 100 : 1;
        if (o->quick)
            iters /= 4;
        cudaGraphExec_t gx = NULL;
        cudaEvent_t ev = NULL;
        if (!o->list) {
            CK(cudaMemsetAsync(cnt, 0, sizeof *cnt, s));
            if (ki == 2) {
                cudaGraph_t g = NULL;
                CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
                for (int i = 0; i < nodes; i++)
                    cr_empty_kernel<<<1, 32, 0, s>>>(cnt);
                CK(cudaStreamEndCapture(s, &g));
                CK(cudaGraphInstantiate(&gx, g, 0));
                CK(cudaGraphDestroy(g));
                CK(cudaGraphUpload(gx, s));
            }
            if (ki == 3)
                CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
            CK(cudaStreamSynchronize(s));
        }
        if (!cr_case_begin(o, "cr:launch kind=%s nodes=%d iters=%d rd_bytes=0 wr_bytes=0 flops=0",
                           kind, nodes, iters))
            continue;
        struct cr_timer t;
        cr_timer_init(&t, 1);
        cr_timer_mark(&t, s);
        for (int it = 0; it < iters; it++) {
            switch (ki) {
            case 0:
                cr_empty_kernel<<<1, 32, 0, s>>>(cnt);
                break;
            case 1:
                cr_empty_kernel<<<1, 32, 0, s>>>(cnt);
                CK(cudaStreamSynchronize(s));
                break;
            case 2:
                CK(cudaGraphLaunch(gx, s));
                break;
            case 3:
                CK(cudaEventRecord(ev, s));
                CK(cudaEventSynchronize(ev));
                break;
            }
        }
        cr_timer_mark(&t, s);
        CKL();
        cr_case_end();
        double per_us = cr_timer_median_us(&t) / iters;
        cr_timer_free(&t);
        unsigned got = 0, want = ki == 3 ? 0 : (unsigned)(iters * nodes);
        CK(cudaMemcpy(&got, cnt, sizeof got, cudaMemcpyDeviceToHost));
        char label[96], why[64] = "";
        snprintf(label, sizeof label, "%s x%d (nodes %d)", kind, iters, nodes);
        if (got != want)
            snprintf(why, sizeof why, "%u kernels ran, expected %u", got, want);
        cr_report("launch", label, per_us, 1.0 / per_us, "M/s", got == want, why);
        if (got != want)
            rc = 1;
        if (gx)
            CK(cudaGraphExecDestroy(gx));
        if (ev)
            CK(cudaEventDestroy(ev));
    }
    if (!o->list) {
        CK(cudaFree(cnt));
        CK(cudaStreamDestroy(s));
    }
    return rc;
}
