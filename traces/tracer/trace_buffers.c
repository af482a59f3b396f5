/* SPDX-License-Identifier: MIT */
/*
 * CUPTI's activity buffers: handed out from a pool, delivered full of
 * records, written to the trace and returned.
 */
#include "tracer.h"

/* Activity buffers are kept in a pool and reused, zeroed in advance, so that
 * the program's thread that asks for one (CUPTI asks from the launching
 * thread when its per-thread buffer is full) neither maps fresh pages nor
 * waits for CUPTI to zero 8 MiB: with CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER
 * set, CUPTI trusts the buffer to be zero; otherwise "CUPTI will zero out the
 * buffer in the main thread" (cupti_activity.h), a stall on the launch path
 * (also reported by Kineto, pytorch/kineto#1020). A buffer comes back through
 * buffer_completed, on CUPTI's worker thread or a flushing one, where it is
 * zeroed again before it returns to the pool. */
#define POOL_PREFILL 2 /* allocated (and zeroed) at start */

struct activity_pool pool = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* A new buffer, every page touched (zeroed) when CUPTI relies on it. */
static void *buffer_new(void)
{
    void *p = NULL;
    if (posix_memalign(&p, ALIGN, g.buffer_bytes) != 0 || !p)
        return NULL;
    if (pool.zeroed)
        memset(p, 0, g.buffer_bytes);
    return p;
}

void pool_prefill(void)
{
    pthread_mutex_lock(&pool.mu);
    while (pool.n < POOL_PREFILL) {
        void *p = buffer_new();
        if (!p)
            break;
        pool.b[pool.n++] = p;
    }
    pthread_mutex_unlock(&pool.mu);
}

/* Gives a delivered buffer back to the pool (zeroed again), or frees it. */
static void pool_put(void *buffer)
{
    if (!buffer)
        return;
    pthread_mutex_lock(&pool.mu);
    bool keep = pool.n < POOL_MAX;
    pthread_mutex_unlock(&pool.mu);
    if (!keep) {
        free(buffer);
        return;
    }
    if (pool.zeroed) /* the whole buffer: CUPTI may write past the valid records */
        memset(buffer, 0, g.buffer_bytes);
    pthread_mutex_lock(&pool.mu);
    if (pool.n < POOL_MAX) {
        pool.b[pool.n++] = buffer;
        buffer = NULL;
    }
    pthread_mutex_unlock(&pool.mu);
    free(buffer);
}

void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *max_records = 0;
    *size = 0;
    *buffer = NULL;
    void *p = NULL;
    pthread_mutex_lock(&pool.mu);
    pool.requests++;
    if (pool.n > 0)
        p = pool.b[--pool.n];
    else
        pool.allocs_on_request++;
    pthread_mutex_unlock(&pool.mu);
    if (!p)
        p = buffer_new();
    if (!p) {
        note_error("could not allocate a %zu-byte activity buffer; records are being dropped",
                   g.buffer_bytes);
        return; /* CUPTI counts what it drops; we read that count per buffer */
    }
    *buffer = p;
    *size = g.buffer_bytes;
}

void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer, size_t size,
                               size_t valid)
{
    (void)size;
    pthread_mutex_lock(&g.mu);
    bool mine = owner();
    sb_t s = {0};
    if (mine && g.active && !g.closed && buffer) {
        CUpti_Activity *rec = NULL;
        uint64_t nrec = 0; /* records of this buffer in s */
        sb_reserve(&s, valid / 2 + 4096);
        for (;;) {
            CUptiResult r = cuptiActivityGetNextRecord(buffer, valid, &rec);
            if (r == CUPTI_ERROR_MAX_LIMIT_REACHED)
                break;
            if (r != CUPTI_SUCCESS) {
                cupti_ok(r, "cuptiActivityGetNextRecord");
                g.dropped++; /* the rest of this buffer is unreadable */
                break;
            }
            size_t before = s.len;
            switch (rec->kind) {
            case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
            case CUPTI_ACTIVITY_KIND_KERNEL:
                kernel_record(&s, (const CUpti_ActivityKernel10 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_MEMCPY:
                memcpy_record(&s, (const CUpti_ActivityMemcpy6 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_MEMCPY2:
                p2p_record(&s, (const CUpti_ActivityMemcpyPtoP4 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_MEMSET:
                memset_record(&s, (const CUpti_ActivityMemset4 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
                sync_record(&s, (const CUpti_ActivitySynchronization2 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_RUNTIME:
                api_record(&s, (const CUpti_ActivityAPI *)(void *)rec, CUPTI_CB_DOMAIN_RUNTIME_API);
                break;
            case CUPTI_ACTIVITY_KIND_DRIVER:
                api_record(&s, (const CUpti_ActivityAPI *)(void *)rec, CUPTI_CB_DOMAIN_DRIVER_API);
                break;
            case CUPTI_ACTIVITY_KIND_MARKER:
                marker_record(&s, (const CUpti_ActivityMarker2 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_MARKER_DATA:
                marker_data_record((const CUpti_ActivityMarkerData2 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_DEVICE:
                describe_device(&s, (int)((const CUpti_ActivityDevice5 *)(void *)rec)->id,
                                (const CUpti_ActivityDevice5 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_CONTEXT: {
                const CUpti_ActivityContext3 *c = (const CUpti_ActivityContext3 *)(void *)rec;
                note_ctx(c->contextId, c->deviceId);
                break;
            }
            default:
                break;
            }
            if (s.len > before && !s.oom) {
                g.records++;
                nrec++;
            }
            if (s.oom) {
                g.dropped++;
                s.oom = false;
                s.len = before;
            }
        }
        size_t dropped = 0;
        if (cuptiActivityGetNumDroppedRecords(ctx, stream_id, &dropped) == CUPTI_SUCCESS &&
            dropped > 0) {
            g.dropped += dropped;
        }
        size_t before_stats = s.len;
        stats_line(&s);
        if (s.oom) {
            /* no memory for the stats line: write the records without it,
             * and try the line again with the next buffer */
            s.oom = false;
            s.len = before_stats;
            g.stats_records_written = (uint64_t)-1;
        }
        if (s.len > 0)
            written_or_dropped(s.p && write_all(s.p, s.len), nrec);
    } else if (mine && buffer && !g.active && !g.closed) {
        /* A buffer before the tracer is active (setup enables CUPTI only
         * after it is, so none should come): its records are lost, counted. */
        CUpti_Activity *rec = NULL;
        while (valid > 0 && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS)
            g.dropped++;
        size_t dropped = 0;
        if (cuptiActivityGetNumDroppedRecords(ctx, stream_id, &dropped) == CUPTI_SUCCESS)
            g.dropped += dropped;
    } else if (mine && buffer && valid > 0 && g.closed) {
        /* Records that arrive after the file was closed (CUDA torn down after
         * our exit handler) cannot be written; stderr says how many. */
        CUpti_Activity *rec = NULL;
        uint64_t late = 0;
        while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS)
            late++;
        if (late)
            note_error("%" PRIu64 " records arrived after the trace was closed", late);
    }
    pthread_mutex_unlock(&g.mu);
    free(s.p);
    pool_put(buffer);
}
