/* SPDX-License-Identifier: MIT */
/*
 * Checks, on a CPU machine, the tracer's activity-buffer pool and its
 * COMMROOF_TRACE_RECORD list (traces/README.md, "Tracer overhead"):
 *
 *   1. the list: "" and unset mean all; "kernel,memcpy" and "kernel memset"
 *      name their kinds; "none" none; an unknown word means all, with one
 *      error noted;
 *   2. the pool: the two buffers filled at start are handed out without an
 *      allocation, the third is allocated on request (counted); a buffer
 *      CUPTI wrote into comes back through buffer_completed zeroed, and is
 *      handed out again (no allocation); no more than POOL_MAX are kept;
 *   1b. a CUDA call that launches is written as a "cuda_api" event, one
 *      that does not is left out (COMMROOF_TRACE_RECORD=api);
 *   3. the trace's metadata says what was recorded, how the buffers went and
 *      whether launches blocked (CUDA_LAUNCH_BLOCKING=1 only).
 *
 * Prints "buffer pool sim: ok" and exits 0, else names the first failed check
 * and exits 1. tests/check_trace.sh builds it (including the tracer's source,
 * against the real libcupti) and runs it.
 *
 * Usage: buffer_pool_sim OUT.json
 */
#include "tracer_src.h"
#include "sim_open.h"

#define SIM_NAME "buffer pool sim"
#include "sim_check.h"

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: buffer_pool_sim OUT.json\n");
        return 2;
    }
    g.quiet = true;
    /* 1 */
    EXPECT(record_mask(NULL) == (REC_KERNEL | REC_MEMCPY | REC_MEMSET | REC_GRAPH));
    EXPECT(record_mask("") == (REC_KERNEL | REC_MEMCPY | REC_MEMSET | REC_GRAPH));
    EXPECT(record_mask("all") == REC_ALL);
    EXPECT(record_mask("kernel,memcpy") == (REC_KERNEL | REC_MEMCPY));
    EXPECT(record_mask("kernel memset,") == (REC_KERNEL | REC_MEMSET));
    EXPECT(record_mask("sync") == REC_SYNC);
    EXPECT(record_mask("kernel,api") == (REC_KERNEL | REC_API));
    EXPECT(record_mask("all") & REC_API);
    EXPECT(record_mask("none") == 0);
    EXPECT(g.nerrors == 0);
    EXPECT(record_mask("kernel,kernels") == REC_DEFAULT);
    EXPECT(g.nerrors == 1 && strstr(g.errors[0], "unknown word \"kernels\""));

    /* 1b: a CUDA call that launches is written with its correlation id on
     * the host's pid and its thread; one that puts no work on a device is
     * not */
    g.os_pid = 42;
    g.ts_base = 1000;
    sb_t api = {0};
    CUpti_ActivityAPI call = {.kind = CUPTI_ACTIVITY_KIND_RUNTIME,
                              .cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                              .start = 3000,
                              .end = 4000,
                              .threadId = 7,
                              .correlationId = 99};
    api_record(&api, &call, CUPTI_CB_DOMAIN_RUNTIME_API);
    EXPECT(api.p && strstr(api.p, "{\"ph\":\"X\",\"cat\":\"cuda_api\",\"pid\":4299,\"tid\":7,"
                                  "\"ts\":2.000,\"dur\":1.000,\"name\":\"cudaLaunchKernel_v7000\","
                                  "\"args\":{\"correlation\":99}}"));
    size_t len = api.len;
    call.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020;
    api_record(&api, &call, CUPTI_CB_DOMAIN_RUNTIME_API);
    EXPECT(api.len == len);
    free(api.p);

    /* 2 */
    if (sim_open_trace(argv[1]) != 0)
        return 1;
    g.buffer_bytes = 65536;
    g.record = REC_KERNEL | REC_MEMCPY;
    pool.zeroed = true; /* as when CUPTI took CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER */
    pool_prefill();
    EXPECT(pool.n == POOL_PREFILL);
    uint8_t *b[3];
    size_t size = 0, maxrec = 1;
    for (int i = 0; i < 3; i++) {
        buffer_requested(&b[i], &size, &maxrec);
        EXPECT(b[i] && size == g.buffer_bytes && maxrec == 0);
        EXPECT(b[i] && all_zero(b[i], size));
    }
    EXPECT(pool.requests == 3 && pool.allocs_on_request == 1);
    /* CUPTI fills b[0] (past what it says is valid, too) and hands it back */
    memset(b[0], 0xab, g.buffer_bytes);
    buffer_completed(NULL, 0, b[0], g.buffer_bytes, 0);
    EXPECT(pool.n == 1 && pool.b[0] == b[0]);
    uint8_t *again = NULL;
    buffer_requested(&again, &size, &maxrec);
    EXPECT(again == b[0] && all_zero(again, g.buffer_bytes));
    EXPECT(pool.requests == 4 && pool.allocs_on_request == 1);
    pool_put(again);
    pool_put(b[1]);
    pool_put(b[2]);
    for (int i = 0; i < POOL_MAX + 2; i++) {
        void *p = NULL;
        EXPECT(posix_memalign(&p, ALIGN, g.buffer_bytes) == 0);
        pool_put(p);
    }
    EXPECT(pool.n == POOL_MAX);

    /* 3 */
    g.nerrors = 0; /* the deliberate error of 1 is not the trace's */
    setenv("CUDA_LAUNCH_BLOCKING", "0", 1);
    EXPECT(!launch_blocking_env());
    setenv("CUDA_LAUNCH_BLOCKING", "1", 1);
    EXPECT(launch_blocking_env());
    g.launch_blocking = launch_blocking_env();
    finish();
    char text[65536];
    sim_read_trace(argv[1], text, sizeof text);
    EXPECT(strstr(text, ",\"launch_blocking\":true,\"command\":"));
    EXPECT(strstr(text,
                  "\"recorded\":[\"kernel\",\"memcpy\"],\"activity_buffers\":{\"bytes\":65536,"
                  "\"requests\":4,\"allocated_on_request\":1,\"zeroed_in_advance\":true}}}"));
    if (fails)
        return 1;
    printf("buffer pool sim: ok\n");
    return 0;
}
