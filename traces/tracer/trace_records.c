/* SPDX-License-Identifier: MIT */
/*
 * CUPTI's activity records, and the NVTX ranges, as the trace's JSON events
 * (traces/README.md), with the metadata events that name the timeline's
 * processes and streams the first time each appears. Called with g.mu held.
 */
#include "tracer.h"

/* ---------- the timeline's process and stream names ---------- */

static void sb_rank_suffix(sb_t *s)
{
    if (g.rank >= 0)
        sb_printf(s, ", rank %d", g.rank);
}

/* process_name for a pid the first time it appears. Called with g.mu held. */
void name_pid(sb_t *s, int dev)
{
    int slot = (dev < 0 || dev >= MAX_DEV) ? HOST_DEV : dev;
    if (g.pid_named[slot])
        return;
    g.pid_named[slot] = true;
    if (slot != HOST_DEV)
        describe_device(s, slot, NULL);
    sb_t n = {0};
    if (slot == HOST_DEV)
        sb_printf(&n, "host (pid %d", (int)g.os_pid);
    else if (g.dev_name[slot][0])
        sb_printf(&n, "GPU %d %s (pid %d", slot, g.dev_name[slot], (int)g.os_pid);
    else
        sb_printf(&n, "GPU %d (pid %d", slot, (int)g.os_pid);
    sb_rank_suffix(&n);
    sb_puts(&n, ")");
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64
              ",\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":",
              host_pid_of(slot));
    sb_str(s, n.p ? n.p : "");
    sb_puts(s, "}},\n");
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64
              ",\"tid\":0,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}},\n",
              host_pid_of(slot), slot);
    free(n.p);
}

void name_stream(sb_t *s, int dev, uint32_t stream)
{
    name_pid(s, dev);
    uint32_t d = (uint32_t)(dev < 0 || dev >= MAX_DEV ? HOST_DEV : dev);
    for (size_t i = 0; i < g.nseen; i++)
        if (g.seen_streams[2 * i] == d && g.seen_streams[2 * i + 1] == stream)
            return;
    if (cr_grow((void **)&g.seen_streams, &g.capseen, g.nseen + 1, 2 * sizeof *g.seen_streams))
        return; /* the name is cosmetic: no record is lost */
    g.seen_streams[2 * g.nseen] = d;
    g.seen_streams[2 * g.nseen + 1] = stream;
    g.nseen++;
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%u,\"name\":\"thread_name\",\"args\":{"
              "\"name\":\"stream %u\"}},\n",
              host_pid_of(dev), stream, stream);
}

/* ---------- kernel names ---------- */

typedef char *(*fn_demangle)(const char *, char *, size_t *, int *);

/* The ,"name":..."mangled":... fragment of a kernel, cached by CUPTI's
 * pointer (constant per function), so demangling happens once per kernel. */
static const char *kernel_name_json(const char *mangled)
{
    if (!mangled)
        mangled = "";
    if (g.capnames && g.nnames * 2 < g.capnames) {
        size_t h = ((uintptr_t)mangled >> 3) * 11400714819323198485ull % g.capnames;
        for (;;) {
            if (g.names[h].key == mangled)
                return g.names[h].json;
            if (!g.names[h].key)
                break;
            h = (h + 1) % g.capnames;
        }
    }
    if (g.nnames * 2 >= g.capnames) { /* grow (also the first time) */
        size_t cap = g.capnames ? 2 * g.capnames : 1024;
        name_slot *n = calloc(cap, sizeof *n);
        if (!n)
            return NULL;
        for (size_t i = 0; i < g.capnames; i++)
            if (g.names[i].key) {
                size_t h = ((uintptr_t)g.names[i].key >> 3) * 11400714819323198485ull % cap;
                while (n[h].key)
                    h = (h + 1) % cap;
                n[h] = g.names[i];
            }
        free(g.names);
        g.names = n;
        g.capnames = cap;
    }
    static fn_demangle dem;
    static bool looked;
    if (!looked) {
        /* PyTorch loads libstdc++ privately, where RTLD_DEFAULT misses it
         * (seen on the H200, 2026-11-29); a plain C program may not have it
         * at all, and then loading it (privately) is harmless. */
        void *cxx = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_NOLOAD);
        if (!cxx)
            cxx = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        LOAD_SYM(dem, cxx ? cxx : RTLD_DEFAULT, "__cxa_demangle");
        looked = true;
    }
    char *d = NULL;
    if (dem && mangled[0] == '_' && mangled[1] == 'Z') {
        int st = -1;
        d = dem(mangled, NULL, NULL, &st);
        if (st != 0) {
            free(d);
            d = NULL;
        }
    }
    sb_t s = {0};
    sb_puts(&s, ",\"name\":");
    sb_str(&s, d ? d : mangled);
    if (d) {
        sb_puts(&s, ",\"args\":{\"mangled\":");
        sb_str(&s, mangled);
        sb_puts(&s, ",");
    } else {
        sb_puts(&s, ",\"args\":{");
    }
    free(d);
    if (s.oom) {
        free(s.p);
        return NULL;
    }
    size_t h = ((uintptr_t)mangled >> 3) * 11400714819323198485ull % g.capnames;
    while (g.names[h].key)
        h = (h + 1) % g.capnames;
    g.names[h].key = mangled;
    g.names[h].json = s.p;
    g.nnames++;
    return s.p;
}

/* ---------- activity records ---------- */

static const char *copy_kind_word(unsigned k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return "h2d";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return "d2h";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return "h2a";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return "a2h";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
        return "a2a";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
        return "a2d";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
        return "d2a";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return "d2d";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return "h2h";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return "p2p";
    default:
        return "unknown";
    }
}

static const char *mem_kind_word(unsigned k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
        return "pageable";
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
        return "pinned";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
        return "device";
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
        return "array";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
        return "managed";
    default:
        return "unknown";
    }
}

/* False (and counted as dropped) for a record whose timestamps CUPTI never
 * filled in: a forced flush at exit can deliver such records. */
static bool times_ok(uint64_t start, uint64_t end)
{
    if (start == 0 || end == 0 || end < start) {
        g.incomplete++;
        g.dropped++;
        return false;
    }
    if (end > g.last_ts)
        g.last_ts = end;
    return true;
}

static void head_x(sb_t *s, const char *cat, int dev, uint32_t stream, uint64_t start, uint64_t end)
{
    sb_printf(s, "{\"ph\":\"X\",\"cat\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":", cat,
              host_pid_of(dev), stream);
    sb_us(s, (int64_t)(start - g.ts_base));
    sb_puts(s, ",\"dur\":");
    sb_us(s, (int64_t)(end - start));
}

void note_ctx(uint32_t ctx, uint32_t dev)
{
    if (ctx < sizeof g.ctx_dev / sizeof g.ctx_dev[0])
        g.ctx_dev[ctx] = dev + 1;
}

/* An operation a CUDA graph ran: its graph and its node in the
 * executable graph, which the "cuda_graph_node" events tie to the range
 * that made the node (trace_graph.c; a node of 2^63 or more is left out
 * there and here, a number the reader cannot hold). */
static void graph_args(sb_t *s, uint32_t graph, uint64_t node)
{
    if (graph)
        sb_printf(s, ",\"graph\":%u", graph);
    if (node && node <= INT64_MAX)
        sb_printf(s, ",\"graph_node\":%" PRIu64, node);
}

void kernel_record(sb_t *s, const CUpti_ActivityKernel10 *k)
{
    if (!times_ok(k->start, k->end))
        return;
    int dev = (int)k->deviceId;
    note_ctx(k->contextId, k->deviceId);
    name_stream(s, dev, k->streamId);
    head_x(s, "kernel", dev, k->streamId, k->start, k->end);
    const char *nj = kernel_name_json(k->name);
    if (nj) {
        sb_puts(s, nj);
    } else {
        sb_puts(s, ",\"name\":");
        sb_str(s, k->name);
        sb_puts(s, ",\"args\":{");
    }
    sb_printf(s,
              "\"device\":%d,\"stream\":%u,\"context\":%u,\"correlation\":%u,"
              "\"grid\":[%d,%d,%d],\"block\":[%d,%d,%d],\"cluster\":[%u,%u,%u],"
              "\"registers\":%u,\"smem_static_bytes\":%d,\"smem_dynamic_bytes\":%d,"
              "\"local_bytes_per_thread\":%u",
              dev, k->streamId, k->contextId, k->correlationId, k->gridX, k->gridY, k->gridZ,
              k->blockX, k->blockY, k->blockZ, k->clusterX, k->clusterY, k->clusterZ,
              k->registersPerThread, k->staticSharedMemory, k->dynamicSharedMemory,
              k->localMemoryPerThread);
    graph_args(s, k->graphId, k->graphNodeId);
    sb_puts(s, "}},\n");
}

void memcpy_record(sb_t *s, const CUpti_ActivityMemcpy6 *m)
{
    if (!times_ok(m->start, m->end))
        return;
    int dev = (int)m->deviceId;
    note_ctx(m->contextId, m->deviceId);
    const char *kind = copy_kind_word(m->copyKind);
    int src = -1, dst = -1;
    switch (m->copyKind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        dst = dev;
        break;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        src = dev;
        break;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        break;
    default:
        src = dst = dev;
    }
    name_stream(s, dev, m->streamId);
    head_x(s, "memcpy", dev, m->streamId, m->start, m->end);
    sb_printf(s,
              ",\"name\":\"memcpy %s\",\"args\":{\"device\":%d,\"stream\":%u,\"context\":%u,"
              "\"correlation\":%u,\"kind\":\"%s\",\"bytes\":%" PRIu64
              ",\"src_device\":%d,\"dst_device\":%d,\"src_mem\":\"%s\",\"dst_mem\":\"%s\"",
              kind, dev, m->streamId, m->contextId, m->correlationId, kind, m->bytes, src, dst,
              mem_kind_word(m->srcKind), mem_kind_word(m->dstKind));
    graph_args(s, m->graphId, m->graphNodeId);
    sb_puts(s, "}},\n");
}

void p2p_record(sb_t *s, const CUpti_ActivityMemcpyPtoP4 *m)
{
    if (!times_ok(m->start, m->end))
        return;
    int dev = (int)m->deviceId;
    note_ctx(m->contextId, m->deviceId);
    name_stream(s, dev, m->streamId);
    head_x(s, "memcpy", dev, m->streamId, m->start, m->end);
    sb_printf(s,
              ",\"name\":\"memcpy p2p\",\"args\":{\"device\":%d,\"stream\":%u,\"context\":%u,"
              "\"correlation\":%u,\"kind\":\"p2p\",\"bytes\":%" PRIu64
              ",\"src_device\":%u,\"dst_device\":%u,\"src_mem\":\"%s\",\"dst_mem\":\"%s\"}},\n",
              dev, m->streamId, m->contextId, m->correlationId, m->bytes, m->srcDeviceId,
              m->dstDeviceId, mem_kind_word(m->srcKind), mem_kind_word(m->dstKind));
}

void memset_record(sb_t *s, const CUpti_ActivityMemset4 *m)
{
    if (!times_ok(m->start, m->end))
        return;
    int dev = (int)m->deviceId;
    note_ctx(m->contextId, m->deviceId);
    name_stream(s, dev, m->streamId);
    head_x(s, "memset", dev, m->streamId, m->start, m->end);
    sb_printf(s,
              ",\"name\":\"memset\",\"args\":{\"device\":%d,\"stream\":%u,\"context\":%u,"
              "\"correlation\":%u,\"bytes\":%" PRIu64 ",\"value\":%u,\"mem\":\"%s\"",
              dev, m->streamId, m->contextId, m->correlationId, m->bytes, m->value,
              mem_kind_word(m->memoryKind));
    graph_args(s, m->graphId, m->graphNodeId);
    sb_puts(s, "}},\n");
}

void sync_record(sb_t *s, const CUpti_ActivitySynchronization2 *y)
{
    if (!times_ok(y->start, y->end))
        return;
    const char *type = "unknown";
    switch (y->type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
        type = "event";
        break;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
        type = "stream_wait_event";
        break;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
        type = "stream";
        break;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
        type = "context";
        break;
    default:
        break;
    }
    int dev = -1;
    if (y->contextId < sizeof g.ctx_dev / sizeof g.ctx_dev[0] && g.ctx_dev[y->contextId])
        dev = (int)g.ctx_dev[y->contextId] - 1;
    uint32_t stream = y->streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? 0 : y->streamId;
    name_stream(s, dev, stream);
    head_x(s, "sync", dev, stream, y->start, y->end);
    sb_printf(s,
              ",\"name\":\"sync %s\",\"args\":{\"device\":%d,\"stream\":%d,\"context\":%u,"
              "\"correlation\":%u,\"type\":\"%s\"",
              type, dev, y->streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? -1 : (int)stream,
              y->contextId, y->correlationId, type);
    if (y->cudaEventId != CUPTI_SYNCHRONIZATION_INVALID_VALUE)
        sb_printf(s, ",\"event\":%u", y->cudaEventId);
    sb_puts(s, "}},\n");
}

const char *api_work_name(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    static const char *const work[] = {"cudaLaunch",      "cuLaunch",     "cudaMemcpy",
                                       "cuMemcpy",        "cudaMemset",   "cuMemset",
                                       "cudaGraphLaunch", "cuGraphLaunch"};
    const char *name = NULL;
    if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || !name)
        return NULL;
    for (size_t i = 0; i < sizeof work / sizeof work[0]; i++)
        if (strncmp(name, work[i], strlen(work[i])) == 0)
            return name;
    return NULL;
}

/* A CUDA call that put work on a device (COMMROOF_TRACE_RECORD=api; only
 * those are enabled, enable_work_calls, and api_work_name keeps it so):
 * written on the host's pid and the calling thread, as the NVTX ranges
 * are, with the correlation id its activities carry. */
void api_record(sb_t *s, const CUpti_ActivityAPI *a, CUpti_CallbackDomain domain)
{
    const char *name = api_work_name(domain, a->cbid);
    if (!name || !times_ok(a->start, a->end))
        return;
    name_pid(s, -1);
    sb_printf(s, "{\"ph\":\"X\",\"cat\":\"cuda_api\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":",
              host_pid_of(-1), a->threadId);
    sb_us(s, (int64_t)(a->start - g.ts_base));
    sb_puts(s, ",\"dur\":");
    sb_us(s, (int64_t)(a->end - a->start));
    sb_printf(s, ",\"name\":\"%s\",\"args\":{\"correlation\":%u}},\n", name, a->correlationId);
}

static void range_args(sb_t *s, const open_range *o, bool unclosed)
{
    sb_printf(s, ",\"args\":{\"device\":-1,\"thread\":%u", o->tid);
    if (o->domain) {
        sb_puts(s, ",\"domain\":");
        sb_str(s, o->domain);
    }
    /* An event whose extended payload we decoded reached CUPTI without it
     * (attr_for_cupti), so CUPTI's scalar payload is only a placeholder. */
    bool ext = o->ext_json || o->ext_undecoded;
    if (o->has_data) {
        switch (ext ? -1 : o->payload_kind) {
        /* Beyond +-2^53 a decimal string, as in extended payloads
         * (nvp_put_u64): a u64 of 2^63 or more as a JSON number made the
         * whole trace unreadable ("too big integer"), and doubles lose
         * what lies beyond 2^53. */
        case CUPTI_METRIC_VALUE_KIND_UINT64:
            sb_puts(s, ",\"payload\":");
            nvp_put_u64(s, o->payload.metricValueUint64);
            sb_puts(s, ",\"payload_kind\":\"u64\"");
            break;
        case CUPTI_METRIC_VALUE_KIND_INT64:
            sb_puts(s, ",\"payload\":");
            nvp_put_i64(s, o->payload.metricValueInt64);
            sb_puts(s, ",\"payload_kind\":\"i64\"");
            break;
        case CUPTI_METRIC_VALUE_KIND_DOUBLE:
            /* JSON has no NaN or infinity: leave such a payload out. */
            if (o->payload.metricValueDouble == o->payload.metricValueDouble &&
                o->payload.metricValueDouble < 1e308 && o->payload.metricValueDouble > -1e308) {
                sb_puts(s, ",\"payload\":");
                sb_double(s, o->payload.metricValueDouble);
                sb_puts(s, ",\"payload_kind\":\"double\"");
            }
            break;
        case CUPTI_METRIC_VALUE_KIND_NVTX_EXTENDED_PAYLOAD:
            if (!o->ext_json && !o->ext_undecoded)
                sb_puts(s, ",\"payload_kind\":\"nvtx_ext\"");
            break;
        default:
            break;
        }
        if (o->color)
            sb_printf(s, ",\"color\":%u", o->color);
        if (o->category)
            sb_printf(s, ",\"category\":%u", o->category);
    }
    if (o->ext_json) {
        sb_puts(s, ",\"payload\":{");
        sb_puts(s, o->ext_json);
        sb_puts(s, "},\"payload_kind\":\"nvtx_ext\"");
    } else if (o->ext_undecoded) {
        sb_puts(s, ",\"payload_kind\":\"nvtx_ext\"");
    }
    if (o->ext_undecoded)
        sb_puts(s, ",\"payload_undecoded\":true");
    if (unclosed)
        sb_puts(s, ",\"unclosed\":true");
    sb_puts(s, "}},\n");
}

void emit_range(sb_t *s, const open_range *o, uint64_t end, bool unclosed)
{
    if (end < o->start)
        end = o->start;
    name_pid(s, -1);
    sb_printf(s, "{\"ph\":\"X\",\"cat\":\"nvtx\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":",
              host_pid_of(-1), o->tid);
    sb_us(s, (int64_t)(o->start - g.ts_base));
    sb_puts(s, ",\"dur\":");
    sb_us(s, (int64_t)(end - o->start));
    sb_puts(s, ",\"name\":");
    sb_str(s, o->name ? o->name : "");
    range_args(s, o, unclosed);
}

void free_range(open_range *o)
{
    free(o->name);
    free(o->domain);
    free(o->ext_json);
}

/* A new range at the end of g.ranges, zeroed (g.mu held); NULL when there
 * is no memory for it (the caller counts the range as dropped). */
open_range *new_range(void)
{
    if (cr_grow((void **)&g.ranges, &g.capranges, g.nranges + 1, sizeof *g.ranges))
        return NULL;
    open_range *o = &g.ranges[g.nranges++];
    memset(o, 0, sizeof *o);
    return o;
}

static open_range *find_range(uint32_t id)
{
    for (size_t i = g.nranges; i-- > 0;)
        if (!g.ranges[i].own && g.ranges[i].id == id)
            return &g.ranges[i];
    return NULL;
}

/* A copy of an NVTX string from CUPTI's record cut as the wrappers cut
 * theirs (nvp_read_str: NVP_MAX_STR bytes, no character split), NULL for
 * NULL. Uncut, a long range name made a line the reader refuses whole
 * (over its 1 MiB event limit), and a name over the limit never equalled
 * the wrapper's cut copy, so pend_claim left its payload unmatched. */
static char *nvtx_str(const char *str)
{
    if (!str)
        return NULL;
    size_t n = strnlen(str, NVP_MAX_STR + 1);
    return strndup(str, n > NVP_MAX_STR ? sb_utf8_cut(str, NVP_MAX_STR) : n);
}

void marker_record(sb_t *s, const CUpti_ActivityMarker2 *m)
{
    uint32_t tid = m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? m->objectId.pt.threadId : 0;
    if (m->timestamp > g.last_ts)
        g.last_ts = m->timestamp;
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
        name_pid(s, -1);
        sb_printf(
            s, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"nvtx\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":",
            host_pid_of(-1), tid);
        sb_us(s, (int64_t)(m->timestamp - g.ts_base));
        char *name = nvtx_str(m->name), *domain = nvtx_str(m->domain);
        sb_puts(s, ",\"name\":");
        sb_str(s, name);
        sb_printf(s, ",\"args\":{\"device\":-1,\"thread\":%u", tid);
        if (m->domain) {
            sb_puts(s, ",\"domain\":");
            sb_str(s, domain);
        }
        sb_puts(s, "}},\n");
        free(name);
        free(domain);
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
        open_range *o = new_range();
        if (!o) {
            g.dropped++;
            return;
        }
        o->id = m->id;
        o->start = m->timestamp;
        o->tid = tid;
        o->name = nvtx_str(m->name ? m->name : "");
        o->domain = nvtx_str(m->domain);
        o->payload_kind = -1;
        pend_claim(o, tid, m->timestamp, false);
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        open_range *o = find_range(m->id);
        if (!o) {
            /* An end without a start: the range opened before tracing began
             * (traces/README.md, known limits). Not a lost record; counted. */
            g.unmatched_ends++;
            return;
        }
        /* a pop happens on its push's thread: the START record's tid holds
         * even if CUPTI's END record names no thread */
        pend_claim(o, o->tid ? o->tid : tid, m->timestamp, true);
        emit_range(s, o, m->timestamp, false);
        free_range(o);
        *o = g.ranges[--g.nranges];
    }
}

void marker_data_record(const CUpti_ActivityMarkerData2 *m)
{
    open_range *o = find_range(m->id);
    if (!o)
        return; /* data of an instant marker or of a range we do not hold */
    o->has_data = true;
    o->payload_kind = (int)m->payloadKind;
    o->payload = m->payload;
    o->color = m->color;
    o->category = m->category;
}

void stats_line(sb_t *s)
{
    if (g.records == g.stats_records_written && g.dropped == g.stats_dropped_written)
        return;
    g.stats_records_written = g.records;
    g.stats_dropped_written = g.dropped;
    name_pid(s, -1);
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64
              ",\"tid\":0,\"name\":\"commroof_stats\",\"args\":{\"records\":%" PRIu64
              ",\"dropped_records\":%" PRIu64 "}},\n",
              host_pid_of(-1), g.records, g.dropped);
}
