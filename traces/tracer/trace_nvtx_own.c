/* SPDX-License-Identifier: MIT */
/*
 * What the NVTX wrappers (trace_nvtx.c) read from a call: the attributes,
 * the message, the extended payload decoded; and the "own path", where the
 * wrappers record ranges and marks themselves because CUPTI records none.
 */
#include "tracer.h"

/* The event attributes as far as the caller's struct goes (its size field);
 * false for NULL or a struct too short to hold the message. NVTX's contract
 * is a valid struct; CUPTI reads it directly too. */
bool read_attr(const nvtxEventAttributes_t *a, nvtxEventAttributes_t *out)
{
    memset(out, 0, sizeof *out);
    if (!a || a->size < offsetof(nvtxEventAttributes_t, message) + sizeof a->message)
        return false;
    size_t n = a->size < sizeof *out ? a->size : sizeof *out;
    memcpy(out, a, n);
    return true;
}

/* A copy of the event's message (ASCII, wide or registered), "" when absent. */
char *attr_message(const nvtxEventAttributes_t *a)
{
    char *m = NULL;
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        m = nvp_read_str(a->message.ascii);
        break;
    case NVTX_MESSAGE_TYPE_UNICODE: {
        /* wchar_t is UTF-32 on Linux: each one a code point, in UTF-8 */
        wchar_t w[128];
        size_t got = nvp_safe_read(w, a->message.unicode, sizeof w) / sizeof w[0];
        char buf[4 * 128 + 1];
        size_t len = 0;
        for (size_t i = 0; i < got && w[i]; i++)
            len += sb_utf8_encode(w[i] > 0 ? (unsigned long)w[i] : 0xfffdul, buf + len);
        buf[len] = '\0';
        m = strdup(buf);
        break;
    }
    case NVTX_MESSAGE_TYPE_REGISTERED:
        pthread_mutex_lock(&nv.mu);
        m = map_get(nv.strings, nv.nstrings, a->message.registered);
        pthread_mutex_unlock(&nv.mu);
        break;
    default:
        break;
    }
    return m ? m : strdup("");
}

/* Decodes count payloads at pd for domain: the "name":value,... text
 * (malloc'd) or NULL; *undecoded when any was not fully decoded. Counted. */
char *decode_ext(const void *domain, const nvtxPayloadData_t *pd, size_t count, bool *undecoded)
{
    sb_t s = {0};
    unsigned bad = 0;
    pthread_mutex_lock(&nv.mu);
    unsigned fields = nvp_decode(&nv.reg, domain, pd, count, &s, &bad);
    pthread_mutex_unlock(&nv.mu);
    *undecoded = bad > 0 || s.oom;
    if (*undecoded)
        __atomic_fetch_add(&g.ext_undecoded, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_add(&g.ext_decoded, 1, __ATOMIC_RELAXED);
    if (fields == 0 || s.oom) {
        free(s.p);
        return NULL;
    }
    return s.p;
}

/* The extended payload of an event, decoded (NULL when it has none). */
char *attr_ext(const void *domain, const nvtxEventAttributes_t *a, bool *has, bool *undecoded)
{
    *has = a->payloadType == NVTX_PAYLOAD_TYPE_EXT;
    *undecoded = false;
    if (!*has)
        return NULL;
    /* reserved0 holds the number of nvtxPayloadData_t items (NVTX's
     * NVTX_PAYLOAD_EVTATTR_SET_DATA sets 1; 0 from older writers means 1). */
    size_t count = a->reserved0 > 0 ? (size_t)a->reserved0 : 1;
    const nvtxPayloadData_t *pd = (const nvtxPayloadData_t *)(uintptr_t)a->payload.ullValue;
    return decode_ext(domain, pd, count, undecoded);
}

/* Own path: opens a range (push or start) with what the attributes say. */
void own_open(const void *dom, bool is_push, uint64_t id, const nvtxEventAttributes_t *a,
              const char *ascii, char *ext, bool has_ext, bool undecoded)
{
    uint64_t t = now_ns();
    char *name = a ? attr_message(a) : nvp_read_str(ascii);
    char *dname = NULL;
    if (dom) {
        pthread_mutex_lock(&nv.mu);
        dname = map_get(nv.domains, nv.ndomains, dom);
        pthread_mutex_unlock(&nv.mu);
    }
    pthread_mutex_lock(&g.mu);
    if (!g.active || g.closed || !owner()) {
        pthread_mutex_unlock(&g.mu);
        free(name);
        free(dname);
        free(ext);
        return;
    }
    open_range *o = new_range();
    if (!o) {
        g.dropped++;
        pthread_mutex_unlock(&g.mu);
        free(name);
        free(dname);
        free(ext);
        return;
    }
    o->own = true;
    o->is_push = is_push;
    o->dom = dom;
    o->own_id = id;
    o->start = t;
    o->tid = self_tid();
    o->name = name ? name : strdup("");
    o->domain = dname;
    o->payload_kind = -1;
    o->ext_json = ext;
    o->ext_undecoded = undecoded;
    if (a && !has_ext && a->payloadType != NVTX_PAYLOAD_UNKNOWN) {
        o->has_data = true;
        switch (a->payloadType) {
        case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_UINT64;
            o->payload.metricValueUint64 = a->payload.ullValue;
            break;
        case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_UINT64;
            o->payload.metricValueUint64 = a->payload.uiValue;
            break;
        case NVTX_PAYLOAD_TYPE_INT64:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_INT64;
            o->payload.metricValueInt64 = a->payload.llValue;
            break;
        case NVTX_PAYLOAD_TYPE_INT32:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_INT64;
            o->payload.metricValueInt64 = a->payload.iValue;
            break;
        case NVTX_PAYLOAD_TYPE_DOUBLE:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_DOUBLE;
            o->payload.metricValueDouble = a->payload.dValue;
            break;
        case NVTX_PAYLOAD_TYPE_FLOAT:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_DOUBLE;
            o->payload.metricValueDouble = (double)a->payload.fValue;
            break;
        default:
            break;
        }
    }
    if (a) {
        if (a->colorType == NVTX_COLOR_ARGB) {
            o->has_data = true;
            o->color = a->color;
        }
        if (a->category) {
            o->has_data = true;
            o->category = a->category;
        }
    }
    pthread_mutex_unlock(&g.mu);
}

/* Own path: closes the newest push range of this thread in dom (is_push), or
 * the start range id, adding a payload given at the close. */
void own_close(const void *dom, bool is_push, uint64_t id, char *ext, bool undecoded)
{
    uint64_t t = now_ns();
    uint32_t tid = self_tid();
    pthread_mutex_lock(&g.mu);
    open_range *o = NULL;
    for (size_t i = 0; i < g.nranges; i++) {
        open_range *r = &g.ranges[i];
        if (!r->own || r->is_push != is_push)
            continue;
        if (is_push ? (r->tid == tid && r->dom == dom && (!o || r->own_id > o->own_id))
                    : r->own_id == id)
            o = r;
    }
    if (!o || !g.active || g.closed || !owner()) {
        if (g.active && !o)
            g.unmatched_ends++;
        pthread_mutex_unlock(&g.mu);
        free(ext);
        return;
    }
    if (ext && !o->ext_json) {
        o->ext_json = ext;
        ext = NULL;
    }
    o->ext_undecoded = o->ext_undecoded || undecoded;
    if (t > g.last_ts)
        g.last_ts = t;
    sb_t s = {0};
    emit_range(&s, o, t, false);
    if (!s.oom && write_all(s.p, s.len))
        g.records++;
    else
        g.dropped++;
    free_range(o);
    *o = g.ranges[--g.nranges];
    pthread_mutex_unlock(&g.mu);
    free(s.p);
    free(ext);
}

/* Own path: an instant event. */
void own_mark(const void *dom, const nvtxEventAttributes_t *a, const char *ascii)
{
    uint64_t t = now_ns();
    char *name = a ? attr_message(a) : nvp_read_str(ascii);
    char *dname = NULL;
    if (dom) {
        pthread_mutex_lock(&nv.mu);
        dname = map_get(nv.domains, nv.ndomains, dom);
        pthread_mutex_unlock(&nv.mu);
    }
    pthread_mutex_lock(&g.mu);
    if (g.active && !g.closed && owner()) {
        sb_t s = {0};
        uint32_t tid = self_tid();
        name_pid(&s, -1);
        sb_printf(
            &s, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"nvtx\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":",
            host_pid_of(-1), tid);
        sb_us(&s, (int64_t)(t - g.ts_base));
        sb_puts(&s, ",\"name\":");
        sb_str(&s, name ? name : "");
        sb_printf(&s, ",\"args\":{\"device\":-1,\"thread\":%u", tid);
        if (dname) {
            sb_puts(&s, ",\"domain\":");
            sb_str(&s, dname);
        }
        sb_puts(&s, "}},\n");
        if (t > g.last_ts)
            g.last_ts = t;
        if (!s.oom && write_all(s.p, s.len))
            g.records++;
        else
            g.dropped++;
        free(s.p);
    }
    pthread_mutex_unlock(&g.mu);
    free(name);
    free(dname);
}

uint64_t next_own_id(void)
{
    return __atomic_add_fetch(&nv.next_id, 1, __ATOMIC_RELAXED);
}
