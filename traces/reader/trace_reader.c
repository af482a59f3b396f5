/* SPDX-License-Identifier: MIT */
/*
 * Streaming reader for Chrome trace event JSON (traces/README.md).
 *
 * Why not json_loadf() on the whole file: a 1 GB trace would become several GB
 * of jansson nodes. Instead a small byte scanner walks the top-level object,
 * finds the extent of each element of "traceEvents" (tracking strings,
 * escapes and bracket depth, nothing more), and hands just that element to
 * json_loadb(), which does the real validation. Memory is the read buffer
 * (grown only to the largest single element) plus one event's JSON tree.
 *
 * Events as our tracer writes them take a fast path first (fast_event): a
 * parser for a strict subset of JSON (json_subset.c) reads the top-level
 * fields in place and builds only "args" as JSON, several times faster than
 * jansson's lexer. Whatever it is not sure of, valid or not, it hands back
 * untouched to the path above, so every error and message is jansson's and
 * make_event's as before; the tests and the fuzz target read each input both
 * ways and require the same result.
 *
 * A file that ends early (the traced program was killed) is not an error:
 * the scanner stops at the last complete element and reports the file as
 * incomplete. Content that is there but wrong is an error with file:line.
 */
#include "trace_reader.h"
#include "sbuf.h"
#include "json_subset_priv.h"
#include "trace_reader_priv.h"

#include "fileio.h"
#include "grow.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Reads of 256 KiB into a buffer of 1 MiB: an event that straddles the
 * buffer's end (which the fast path hands back to scan_value) is rare. */
#define CHUNK_BYTES ((size_t)1 << 18)
/* Top-level values other than the events (e.g. "metadata", or another tool's
 * "stackFrames") are held whole while scanned; bound them too. */
#define MAX_OTHER_BYTES ((size_t)64 << 20)

typedef enum {
    ST_START,
    ST_KEY_FIRST, /* after the top-level '{' */
    ST_KEY,       /* after a ',' in the top-level object */
    ST_OBJ_AFTER, /* after a top-level value */
    ST_EV_FIRST,  /* after "traceEvents":[ (or the bare array's '[') */
    ST_EV_NEXT,   /* after a ',' between events */
    ST_EV_AFTER,  /* after an event */
    ST_TAIL,      /* the top level closed: only whitespace may follow */
    ST_END,       /* returned the end */
    ST_ERROR,
} scan_state;

struct cr_trace_reader {
    FILE *f;
    bool own_f;
    cr_trace_read_fn read; /* read mode: where the bytes come from */
    void *read_ctx;
    const unsigned char *mem; /* memory mode: the whole input */
    size_t mem_len, mem_pos;
    char label[256];
    char *buf; /* bytes [beg, len) are read and not yet consumed */
    size_t cap, beg, len;
    bool eof;
    unsigned long line; /* line number of buf[beg] */
    scan_state st;
    bool bare_array;
    bool in_events; /* the events array of the top-level object was opened */
    /* top-level members an nccl-tests -J file has ("results", "config"):
     * what the message says when there are no events */
    bool nccl_results, nccl_config;
    cr_status err;
    char errmsg[sizeof(((cr_diag *)0)->msg)];
    json_t *cur;      /* the event's tree (jansson path) or its args (fast path) */
    int cur_args_cat; /* fast path: the category of the event whose args cur is; else -1 */
    /* per category, the last args no one kept, refilled by the next (fast_args) */
    json_t *spare_args[CR_TRACE__COUNT];
    cr_trace_event ev;
    bool fast;  /* try fast_event before jansson (trace_reader_priv.h) */
    char *strs; /* the fast path's copies of ph, name and cat */
    size_t strs_cap;
    json_t *metadata;
    json_t *devices;
    bool devices_from_metadata;
    cr_trace_info info;
};

/* ---------- input ---------- */

/* Reads more bytes; false at the end of the input (or on a read error, which
 * sets r->err). Offsets relative to r->beg stay valid. */
static bool fill(cr_trace_reader *r)
{
    if (r->eof)
        return false;
    if (r->beg > 0) {
        memmove(r->buf, r->buf + r->beg, r->len - r->beg);
        r->len -= r->beg;
        r->beg = 0;
    }
    if (cr_grow((void **)&r->buf, &r->cap, r->len + CHUNK_BYTES, 1)) {
        r->err = CR_ENOMEM;
        snprintf(r->errmsg, sizeof r->errmsg, "%s: out of memory reading the trace", r->label);
        r->eof = true;
        return false;
    }
    size_t n;
    if (r->mem) {
        n = r->mem_len - r->mem_pos;
        if (n > r->cap - r->len)
            n = r->cap - r->len;
        memcpy(r->buf + r->len, r->mem + r->mem_pos, n);
        r->mem_pos += n;
    } else if (r->read) {
        long k = r->read(r->read_ctx, r->buf + r->len, r->cap - r->len);
        if (k < 0) {
            r->err = CR_EIO;
            snprintf(r->errmsg, sizeof r->errmsg, "%s: read error", r->label);
            r->eof = true;
            return false;
        }
        n = (size_t)k;
    } else {
        n = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
        if (n == 0 && ferror(r->f)) {
            r->err = CR_EIO;
            snprintf(r->errmsg, sizeof r->errmsg, "%s: read error: %s", r->label, strerror(errno));
            r->eof = true;
            return false;
        }
    }
    if (n == 0) {
        r->eof = true;
        return false;
    }
    r->len += n;
    return true;
}

/* The byte at offset off from beg, or -1 at the end of the input. */
static int at(cr_trace_reader *r, size_t off)
{
    while (r->beg + off >= r->len)
        if (!fill(r))
            return -1;
    return (unsigned char)r->buf[r->beg + off];
}

static void consume(cr_trace_reader *r, size_t n)
{
    const char *p = r->buf + r->beg, *end = p + n;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        r->line++;
        p++;
    }
    r->beg += n;
}

static bool is_ws(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Skips whitespace; returns the next byte (not consumed) or -1 at the end. */
static int skip_ws(cr_trace_reader *r)
{
    for (;;) {
        int c = at(r, 0);
        if (!is_ws(c))
            return c;
        if (c == '\n')
            r->line++;
        r->beg++;
    }
}

static cr_status fail(cr_trace_reader *r, cr_status st, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static cr_status fail(cr_trace_reader *r, cr_status st, unsigned long line, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    cr_vsnprintf_c(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->errmsg, sizeof r->errmsg, "%s:%lu: %s", r->label, line, msg);
    r->err = st;
    r->st = ST_ERROR;
    return st;
}

typedef enum { SCAN_OK, SCAN_EOF, SCAN_BIG } scan_result;

/* Finds the end of the JSON value starting at beg: *end is the offset just
 * past it. Validation is json_loadb()'s job; this only needs to find the
 * extent, so it tracks strings and bracket depth. */
static scan_result scan_value(cr_trace_reader *r, size_t limit, size_t *end)
{
    size_t i = 0;
    int c = at(r, 0);
    if (c < 0)
        return SCAN_EOF;
    if (c == '{' || c == '[' || c == '"') {
        size_t depth = 0;
        bool in_str = false, esc = false;
        for (;;) {
            if (i >= limit)
                return SCAN_BIG;
            if (r->beg + i >= r->len && !fill(r))
                return SCAN_EOF;
            char ch = r->buf[r->beg + i];
            i++;
            if (in_str) {
                if (esc)
                    esc = false;
                else if (ch == '\\')
                    esc = true;
                else if (ch == '"') {
                    in_str = false;
                    if (depth == 0) {
                        *end = i;
                        return SCAN_OK;
                    }
                }
            } else if (ch == '"') {
                in_str = true;
            } else if (ch == '{' || ch == '[') {
                depth++;
            } else if (ch == '}' || ch == ']') {
                if (depth > 0 && --depth == 0) {
                    *end = i;
                    return SCAN_OK;
                }
            }
        }
    }
    /* A scalar: up to the next delimiter. At the end of the input it may be
     * cut short (12 of 12345): treat as truncated. */
    for (;;) {
        if (i >= limit)
            return SCAN_BIG;
        int ch = at(r, i);
        if (ch < 0)
            return SCAN_EOF;
        if (ch == ',' || ch == ']' || ch == '}' || is_ws(ch)) {
            *end = i;
            return SCAN_OK;
        }
        i++;
    }
}

/* ---------- events ---------- */

static cr_trace_cat cat_ofn(const char *cat, size_t n)
{
    static const struct {
        const char *name;
        cr_trace_cat cat;
    } map[] = {
        {"kernel", CR_TRACE_KERNEL},
        {"Kernel", CR_TRACE_KERNEL},
        {"memcpy", CR_TRACE_MEMCPY},
        {"gpu_memcpy", CR_TRACE_MEMCPY},
        {"Memcpy", CR_TRACE_MEMCPY},
        {"memset", CR_TRACE_MEMSET},
        {"gpu_memset", CR_TRACE_MEMSET},
        {"Memset", CR_TRACE_MEMSET},
        {"sync", CR_TRACE_SYNC},
        {"nvtx", CR_TRACE_NVTX},
        {"gpu_user_annotation", CR_TRACE_NVTX},
        {"cuda_api", CR_TRACE_API},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (cr_jsub_is(cat, n, map[i].name))
            return map[i].cat;
    return CR_TRACE_OTHER;
}

static cr_trace_cat cat_of(const char *cat)
{
    return cat_ofn(cat, strlen(cat));
}

static cr_copy_kind copy_kind_of(const char *k)
{
    static const struct {
        const char *name;
        cr_copy_kind kind;
    } map[] = {
        {"h2d", CR_COPY_H2D},  {"d2h", CR_COPY_D2H},  {"d2d", CR_COPY_D2D},  {"h2h", CR_COPY_H2H},
        {"p2p", CR_COPY_P2P},  {"HtoD", CR_COPY_H2D}, {"DtoH", CR_COPY_D2H}, {"DtoD", CR_COPY_D2D},
        {"HtoH", CR_COPY_H2H}, {"PtoP", CR_COPY_P2P},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(k, map[i].name) == 0)
            return map[i].kind;
    return CR_COPY_OTHER;
}

const char *cr_copy_kind_name(cr_copy_kind k)
{
    switch (k) {
    case CR_COPY_NONE:
        return "none";
    case CR_COPY_H2D:
        return "h2d";
    case CR_COPY_D2H:
        return "d2h";
    case CR_COPY_D2D:
        return "d2d";
    case CR_COPY_H2H:
        return "h2h";
    case CR_COPY_P2P:
        return "p2p";
    case CR_COPY_OTHER:
        return "other";
    }
    return "other";
}

const char *cr_trace_cat_name(cr_trace_cat c)
{
    switch (c) {
    case CR_TRACE_KERNEL:
        return "kernel";
    case CR_TRACE_MEMCPY:
        return "memcpy";
    case CR_TRACE_MEMSET:
        return "memset";
    case CR_TRACE_SYNC:
        return "sync";
    case CR_TRACE_NVTX:
        return "nvtx";
    case CR_TRACE_API:
        return "cuda_api";
    case CR_TRACE_OTHER:
    case CR_TRACE__COUNT:
        return "other";
    }
    return "other";
}

/* The categories a writer may leave out, in the order COMMROOF_TRACE_RECORD
 * names them. */
static const cr_trace_cat recordable[] = {CR_TRACE_KERNEL, CR_TRACE_MEMCPY, CR_TRACE_MEMSET,
                                          CR_TRACE_SYNC};

const char *cr_trace_rec_words(unsigned bits, char *buf, size_t n)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (size_t i = 0; i < sizeof recordable / sizeof recordable[0] && used < n; i++)
        if (bits & CR_TRACE_REC(recordable[i])) {
            int w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
                             cr_trace_cat_name(recordable[i]));
            used += w > 0 ? (size_t)w : 0;
        }
    return buf;
}

/* Reads an optional number field; wrong type is an error. */
static cr_status get_num(cr_trace_reader *r, unsigned long line, const json_t *obj, const char *key,
                         const char *where, bool *present, double *out)
{
    const json_t *v = json_object_get(obj, key);
    *present = false;
    if (!v)
        return CR_OK;
    if (!json_is_number(v))
        return fail(r, CR_EPARSE, line, "%s\"%s\" must be a number, e.g. \"%s\":0", where, key,
                    key);
    *out = json_number_value(v);
    *present = true;
    return CR_OK;
}

static cr_status get_int(cr_trace_reader *r, unsigned long line, const json_t *obj, const char *key,
                         long long lo, long long hi, long long *out)
{
    /* an integer as written: through a double, an id beyond 2^53 (a CUDA
     * graph node's) would read as its neighbour, and 2^63 - 1 as 2^63 */
    const json_t *j = json_object_get(obj, key);
    if (json_is_integer(j)) {
        long long x = (long long)json_integer_value(j);
        if (x < lo || x > hi)
            return fail(r, CR_ERANGE, line, "args.\"%s\" = %lld is not an integer in [%lld, %lld]",
                        key, x, lo, hi);
        *out = x;
        return CR_OK;
    }
    bool present;
    double v = 0;
    cr_status st = get_num(r, line, obj, key, "args.", &present, &v);
    if (st != CR_OK || !present)
        return st;
    /* (double)hi + 1: hi itself rounds up to 2^63, which no long long holds */
    if (v != floor(v) || v < (double)lo || v >= (double)hi + 1.0)
        return fail(r, CR_ERANGE, line, "args.\"%s\" = %.17g is not an integer in [%lld, %lld]",
                    key, v, lo, hi);
    *out = (long long)v;
    return CR_OK;
}

static cr_status get_dim3(cr_trace_reader *r, unsigned long line, const json_t *args,
                          const char *key, unsigned out[3])
{
    const json_t *v = json_object_get(args, key);
    if (!v)
        return CR_OK;
    if (!json_is_array(v) || json_array_size(v) != 3)
        return fail(r, CR_EPARSE, line,
                    "args.\"%s\" must be an array of 3 integers, e.g. [128,1,1]", key);
    for (size_t i = 0; i < 3; i++) {
        const json_t *e = json_array_get(v, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 ||
            json_integer_value(e) > 0x7fffffffLL)
            return fail(r, CR_EPARSE, line,
                        "args.\"%s\"[%zu] must be a non-negative integer below 2^31", key, i);
        out[i] = (unsigned)json_integer_value(e);
    }
    return CR_OK;
}

static cr_status get_str(cr_trace_reader *r, unsigned long line, const json_t *obj, const char *key,
                         const char *where, const char **out)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        return CR_OK;
    if (!json_is_string(v))
        return fail(r, CR_EPARSE, line, "%s\"%s\" must be a string", where, key);
    *out = json_string_value(v);
    return CR_OK;
}

static int64_t id_of_real(double v)
{
    return isfinite(v) && fabs(v) < 9e18 ? (int64_t)v : -1;
}

static int64_t id_of(const json_t *v)
{
    if (json_is_integer(v))
        return (int64_t)json_integer_value(v);
    if (json_is_real(v))
        return id_of_real(json_real_value(v));
    return -1; /* absent, or another tool's string id */
}

#define TRY(x)                                                                                     \
    do {                                                                                           \
        cr_status st_ = (x);                                                                       \
        if (st_ != CR_OK)                                                                          \
            return st_;                                                                            \
    } while (0)

/* The args our categories define (traces/README.md). */
static cr_status read_args(cr_trace_reader *r, unsigned long line, cr_trace_event *e)
{
    const json_t *a = e->args;
    long long v;
    v = -1;
    TRY(get_int(r, line, a, "device", -1, 1 << 20, &v));
    e->device = (int)v;
    v = -1;
    TRY(get_int(r, line, a, "stream", -1, 0x7fffffffffffffffLL, &v));
    e->stream = v;
    if (e->cat == CR_TRACE_KERNEL || e->cat == CR_TRACE_MEMCPY || e->cat == CR_TRACE_MEMSET ||
        e->cat == CR_TRACE_API) {
        v = -1;
        TRY(get_int(r, line, a, "correlation", -1, 0x7fffffffffffffffLL, &v));
        e->correlation = v;
    }
    if (e->cat == CR_TRACE_KERNEL || e->cat == CR_TRACE_MEMCPY || e->cat == CR_TRACE_MEMSET) {
        v = 0;
        TRY(get_int(r, line, a, "graph_node", 0, 0x7fffffffffffffffLL, &v));
        e->graph_node = v;
    }
    if (e->cat == CR_TRACE_KERNEL) {
        TRY(get_dim3(r, line, a, "grid", e->grid));
        TRY(get_dim3(r, line, a, "block", e->block));
        v = 0;
        TRY(get_int(r, line, a, "registers", 0, 1 << 16, &v));
        e->registers = (unsigned)v;
        bool p;
        TRY(get_num(r, line, a, "smem_static_bytes", "args.", &p, &e->smem_static_bytes));
        TRY(get_num(r, line, a, "smem_dynamic_bytes", "args.", &p, &e->smem_dynamic_bytes));
    }
    if (e->cat == CR_TRACE_MEMCPY || e->cat == CR_TRACE_MEMSET) {
        bool p;
        TRY(get_num(r, line, a, "bytes", "args.", &p, &e->bytes));
        if (e->bytes < 0)
            return fail(r, CR_ERANGE, line, "args.\"bytes\" = %.17g is negative", e->bytes);
    }
    if (e->cat == CR_TRACE_MEMSET)
        TRY(get_str(r, line, a, "mem", "args.", &e->dst_mem));
    if (e->cat == CR_TRACE_MEMCPY) {
        TRY(get_str(r, line, a, "src_mem", "args.", &e->src_mem));
        TRY(get_str(r, line, a, "dst_mem", "args.", &e->dst_mem));
        const char *k = NULL;
        TRY(get_str(r, line, a, "kind", "args.", &k));
        if (k)
            e->copy_kind = copy_kind_of(k);
        v = -1;
        TRY(get_int(r, line, a, "src_device", -1, 1 << 20, &v));
        e->src_device = (int)v;
        v = -1;
        TRY(get_int(r, line, a, "dst_device", -1, 1 << 20, &v));
        e->dst_device = (int)v;
    }
    if (e->cat == CR_TRACE_NVTX) {
        const json_t *pl = json_object_get(a, "payload");
        if (json_is_object(pl)) {
            /* a decoded NVTX extended payload (traces/README.md): NCCL's
             * message size becomes the range's payload and its bytes. The
             * tracer writes integers beyond 2^53 as strings; such a size,
             * or a negative one, is left in args only. */
            const json_t *sz = json_object_get(pl, CR_TRACE_NCCL_SIZE_FIELD);
            if (json_is_number(sz) && json_number_value(sz) >= 0) {
                e->has_payload = true;
                e->payload = json_number_value(sz);
                e->bytes = e->payload;
            }
        } else if (!json_is_string(pl)) {
            /* a scalar payload beyond +-2^53 is a decimal string (the
             * tracer keeps it exact): left in args only, as above */
            TRY(get_num(r, line, a, "payload", "args.", &e->has_payload, &e->payload));
        }
        TRY(get_str(r, line, a, "domain", "args.", &e->domain));
    }
    return CR_OK;
}

/* Another tool's copy (PyTorch profiler: "Memcpy HtoD (Pageable -> Device)")
 * names its direction only in the name. */
static cr_copy_kind copy_kind_from_name(const char *name)
{
    static const char *const dirs[] = {"HtoD", "DtoH", "DtoD", "HtoH", "PtoP"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (strstr(name, dirs[i]))
            return copy_kind_of(dirs[i]);
    return CR_COPY_NONE;
}

static void absorb_metadata_event(cr_trace_reader *r, const cr_trace_event *e)
{
    if (!e->args || e->ph != 'M')
        return;
    if (strcmp(e->name, "commroof_stats") == 0) {
        const json_t *d = json_object_get(e->args, "dropped_records");
        if (json_is_integer(d) && json_integer_value(d) >= 0 && !r->info.has_metadata) {
            r->info.dropped_known = true;
            r->info.dropped_records = (uint64_t)json_integer_value(d);
        }
    } else if (strcmp(e->name, "commroof_device") == 0 && !r->devices_from_metadata) {
        json_array_append(r->devices, (json_t *)(uintptr_t)e->args);
    }
}

static void init_event(cr_trace_event *e)
{
    memset(e, 0, sizeof *e);
    e->device = -1;
    e->stream = -1;
    e->src_device = e->dst_device = -1;
    e->correlation = -1;
    e->name = "";
    e->cat_str = "";
    e->src_mem = e->dst_mem = "";
}

/* The checks and fields after the top-level ones, shared by the jansson path
 * (make_event) and the fast path (fast_event): e has ph, name, cat and ids. */
static cr_status finish_event(cr_trace_reader *r, unsigned long line, bool has_ts, double ts,
                              bool has_dur, double dur, const json_t *args)
{
    cr_trace_event *e = &r->ev;
    if (e->ph == 'X' && !e->name[0])
        e->name = CR_TRACE_NO_NAME;
    if (e->ph == 'X' && (!has_ts || !has_dur))
        return fail(r, CR_EPARSE, line,
                    "complete event (\"ph\":\"X\") \"%s\" needs numbers \"ts\" and \"dur\" "
                    "(microseconds)",
                    e->name);
    if (dur < 0)
        return fail(r, CR_ERANGE, line, "event \"%s\" has a negative duration (\"dur\":%.17g)",
                    e->name, dur);
    /* a million seconds: no traced activity lasts longer, and 1e308 us made
     * every sum over the trace a 300-digit figure */
    if (dur > 1e12)
        return fail(r, CR_ERANGE, line,
                    "event \"%s\" lasts %.17g us (\"dur\"), more than a million seconds", e->name,
                    dur);
    e->ts_s = ts * 1e-6;
    e->dur_s = dur * 1e-6;
    if (args && !json_is_object(args))
        return fail(r, CR_EPARSE, line, "event \"%s\": \"args\" must be an object", e->name);
    e->args = args;
    if (args && e->ph != 'M' && e->cat != CR_TRACE_OTHER)
        TRY(read_args(r, line, e));
    if (e->cat == CR_TRACE_MEMCPY && e->copy_kind == CR_COPY_NONE)
        e->copy_kind = copy_kind_from_name(e->name);
    if (e->cat == CR_TRACE_MEMCPY && e->copy_kind == CR_COPY_NONE)
        e->copy_kind = CR_COPY_OTHER;
    /* Other tools name only the device a copy ran on: the direction says
     * which end that is (our own traces always carry both). */
    if (e->cat == CR_TRACE_MEMCPY && e->src_device < 0 && e->dst_device < 0 && e->device >= 0) {
        if (e->copy_kind == CR_COPY_H2D)
            e->dst_device = e->device;
        else if (e->copy_kind == CR_COPY_D2H)
            e->src_device = e->device;
        else if (e->copy_kind == CR_COPY_D2D)
            e->src_device = e->dst_device = e->device;
    }
    absorb_metadata_event(r, e);
    return CR_OK;
}

/* Names are printed one to a table row or message line: a C0 control
 * character (a JSON "\n" or "\u001b" in an NVTX string) would start a line of its own
 * in the output or repaint the terminal. The name is copied with each one
 * made a blank. Only the jansson path can meet one: the fast path takes no
 * escapes nor control bytes. false: out of memory. */
static bool name_one_line(cr_trace_reader *r, const char **name)
{
    const unsigned char *u = (const unsigned char *)*name;
    size_t n = strlen(*name), i = 0;
    while (i < n && u[i] >= 0x20)
        i++;
    if (i == n)
        return true;
    if (cr_grow((void **)&r->strs, &r->strs_cap, n + 1, 1))
        return false;
    for (i = 0; i <= n; i++)
        r->strs[i] = (char)(i < n && u[i] < 0x20 ? ' ' : u[i]);
    *name = r->strs;
    return true;
}

/* The event j (parsed by jansson) into r->ev. */
static cr_status make_event(cr_trace_reader *r, unsigned long line, json_t *j)
{
    cr_trace_event *e = &r->ev;
    init_event(e);
    if (!json_is_object(j))
        return fail(r, CR_EPARSE, line, "a trace event must be a JSON object {\"ph\":...}");
    const char *ph = NULL;
    TRY(get_str(r, line, j, "ph", "", &ph));
    if (!ph || !ph[0])
        return fail(r, CR_EPARSE, line,
                    "event has no \"ph\" (phase) string, e.g. \"ph\":\"X\" for a complete event");
    e->ph = ph[0];
    TRY(get_str(r, line, j, "name", "", &e->name));
    if (!name_one_line(r, &e->name))
        return fail(r, CR_ENOMEM, line, "out of memory copying an event name");
    TRY(get_str(r, line, j, "cat", "", &e->cat_str));
    e->cat = cat_of(e->cat_str);
    e->pid = id_of(json_object_get(j, "pid"));
    e->tid = id_of(json_object_get(j, "tid"));
    bool has_ts = false, has_dur = false;
    double ts = 0, dur = 0;
    TRY(get_num(r, line, j, "ts", "", &has_ts, &ts));
    TRY(get_num(r, line, j, "dur", "", &has_dur, &dur));
    return finish_event(r, line, has_ts, ts, has_dur, dur, json_object_get(j, "args"));
}

/* ---------- fast path ---------- */

/* The top-level fields of an event as the fast path reads them. */
enum { TOP_PH, TOP_NAME, TOP_CAT, TOP_STRINGS };
typedef struct {
    const char *str[TOP_STRINGS]; /* in the read buffer, not terminated; NULL when absent */
    size_t len[TOP_STRINGS];
    int64_t pid, tid;
    bool has_ts, has_dur;
    double ts, dur;
    json_t *args; /* owned */
} fast_top;

/* Another type than a number is CR_JSUB_NO: make_event names the error. */
static cr_jsub_result fast_number(cr_jsub *c, bool *present, double *out)
{
    cr_jsub_num n;
    cr_jsub_result res = cr_jsub_number(c, &n);
    if (res == CR_JSUB_OK) {
        *out = n.is_int ? (double)n.i : n.d;
        *present = true;
    }
    return res;
}

/* The event's args object at c. Why refill: building it anew took a third of
 * the fast path's time in malloc and free (perf, 128 MB bench trace), while
 * the args of one category mostly have the same keys event after event. */
static cr_jsub_result fast_args(cr_trace_reader *r, cr_jsub *c, fast_top *t)
{
    json_t *a = NULL;
    cr_jsub_result res = CR_JSUB_NO;
    if (*c->p != '{')
        return CR_JSUB_NO;
    cr_trace_cat cat = t->str[TOP_CAT] ? cat_ofn(t->str[TOP_CAT], t->len[TOP_CAT]) : CR_TRACE_OTHER;
    if (t->str[TOP_CAT] && r->spare_args[cat]) {
        cr_jsub at = *c;
        a = r->spare_args[cat];
        r->spare_args[cat] = NULL;
        if ((res = cr_jsub_refill(c, a)) != CR_JSUB_OK) {
            json_decref(a); /* another shape (or cut short): build it */
            a = NULL;
            *c = at;
        }
    }
    if (res != CR_JSUB_OK && (res = cr_jsub_value(c, &a)) != CR_JSUB_OK)
        return res;
    json_decref(t->args);
    t->args = a;
    return CR_JSUB_OK;
}

/* One "key":value of the event, at its key. Known keys of the wrong type are
 * CR_JSUB_NO; unknown keys are checked and skipped, as make_event ignores
 * them. A repeated key replaces the earlier value, as in jansson. */
static cr_jsub_result fast_member(cr_trace_reader *r, cr_jsub *c, fast_top *t)
{
    static const char *const str_keys[TOP_STRINGS] = {"ph", "name", "cat"};
    const char *k;
    size_t kn;
    cr_jsub_result res = cr_jsub_key(c, &k, &kn);
    if (res != CR_JSUB_OK)
        return res;
    for (int i = 0; i < TOP_STRINGS; i++)
        if (cr_jsub_is(k, kn, str_keys[i]))
            return *c->p == '"' ? cr_jsub_string(c, &t->str[i], &t->len[i]) : CR_JSUB_NO;
    if (cr_jsub_is(k, kn, "ts"))
        return fast_number(c, &t->has_ts, &t->ts);
    if (cr_jsub_is(k, kn, "dur"))
        return fast_number(c, &t->has_dur, &t->dur);
    if (cr_jsub_is(k, kn, "pid") || cr_jsub_is(k, kn, "tid")) {
        cr_jsub_num n; /* string ids and the like are CR_JSUB_NO: id_of() decides */
        if ((res = cr_jsub_number(c, &n)) == CR_JSUB_OK)
            *(k[0] == 'p' ? &t->pid : &t->tid) = n.is_int ? (int64_t)n.i : id_of_real(n.d);
        return res;
    }
    if (cr_jsub_is(k, kn, "args"))
        return fast_args(r, c, t);
    return cr_jsub_value(c, NULL);
}

/* The members of the event object at c (its '{'), up to its '}'. */
static cr_jsub_result fast_object(cr_trace_reader *r, cr_jsub *c, fast_top *t)
{
    bool more;
    cr_jsub_result res = cr_jsub_open(c, '}', &more);
    while (res == CR_JSUB_OK && more) {
        res = fast_member(r, c, t);
        if (res == CR_JSUB_OK)
            res = cr_jsub_after_item(c, '}', &more);
    }
    return res;
}

/* Copies the event's strings out of the read buffer, terminated. */
static bool fast_strings(cr_trace_reader *r, const fast_top *t, const char *out[TOP_STRINGS])
{
    size_t need = TOP_STRINGS;
    for (int i = 0; i < TOP_STRINGS; i++)
        need += t->len[i];
    if (cr_grow((void **)&r->strs, &r->strs_cap, need, 1))
        return false;
    char *p = r->strs;
    for (int i = 0; i < TOP_STRINGS; i++) {
        memcpy(p, t->str[i] ? t->str[i] : "", t->len[i]);
        p[t->len[i]] = '\0';
        out[i] = p;
        p += t->len[i] + 1;
    }
    return true;
}

/* metadata.recorded (["kernel","memcpy","memset"]: what COMMROOF_TRACE_RECORD
 * let the tracer record) into info. Words this reader does not know (a
 * later tracer's) are left out; anything but an array of strings leaves
 * the set unknown, as in a trace from before the field. */
static void read_recorded(cr_trace_reader *r, const json_t *rec)
{
    if (!json_is_array(rec))
        return;
    unsigned bits = 0;
    size_t i;
    const json_t *w;
    json_array_foreach(rec, i, w)
    {
        if (!json_is_string(w))
            return;
        for (size_t k = 0; k < sizeof recordable / sizeof recordable[0]; k++)
            if (!strcmp(json_string_value(w), cr_trace_cat_name(recordable[k])))
                bits |= CR_TRACE_REC(recordable[k]);
    }
    r->info.recorded_known = true;
    r->info.recorded = bits;
}

/* Why a fast path: jansson lexes a byte at a time and builds a node for every
 * value, and the events are most of a trace (perf: traces/README.md). The
 * event at beg, of at most avail bytes, is read with the subset parser
 * (json_subset_priv.h): the top-level fields straight into r->ev, only
 * "args" (which the event hands out) built as JSON. On CR_JSUB_OK the event
 * is consumed, r->cur holds its args, and *st is finish_event's status.
 * CR_JSUB_NO changes nothing and leaves the event to jansson and make_event:
 * input outside the subset, and every event that make_event would reject
 * before finish_event, so their messages stay make_event's.
 * CR_JSUB_SHORT: the avail bytes end inside the event. */
static cr_jsub_result fast_event(cr_trace_reader *r, size_t avail, unsigned long line,
                                 cr_status *st)
{
    const char *base = r->buf + r->beg;
    cr_jsub c = {base, base + avail, 0, 0};
    if (avail == 0)
        return CR_JSUB_SHORT;
    if (*c.p != '{')
        return CR_JSUB_NO;
    fast_top t = {.pid = -1, .tid = -1};
    const char *s[TOP_STRINGS];
    cr_jsub_result res = fast_object(r, &c, &t);
    if (res == CR_JSUB_OK && ((size_t)(c.p - base) > CR_TRACE_MAX_EVENT_BYTES || !t.str[TOP_PH] ||
                              !t.len[TOP_PH] || !fast_strings(r, &t, s)))
        res = CR_JSUB_NO;
    if (res != CR_JSUB_OK) {
        json_decref(t.args);
        return res;
    }
    r->beg += (size_t)(c.p - base);
    r->line += c.lines;
    r->cur = t.args;
    cr_trace_event *e = &r->ev;
    init_event(e);
    e->ph = s[TOP_PH][0];
    e->name = s[TOP_NAME];
    e->cat_str = s[TOP_CAT];
    e->cat = cat_ofn(s[TOP_CAT], t.len[TOP_CAT]);
    r->cur_args_cat = (int)e->cat;
    e->pid = t.pid;
    e->tid = t.tid;
    *st = finish_event(r, line, t.has_ts, t.ts, t.has_dur, t.dur, t.args);
    return CR_JSUB_OK;
}

void cr_trace_reader_set_fast_path(cr_trace_reader *r, bool on)
{
    r->fast = on;
}

static cr_status take_metadata(cr_trace_reader *r, unsigned long line, json_t *md)
{
    if (!json_is_object(md)) {
        json_decref(md);
        return fail(r, CR_EPARSE, line, "\"metadata\" must be an object");
    }
    json_decref(r->metadata);
    r->metadata = md;
    r->info.has_metadata = true;
    const json_t *fv = json_object_get(md, "format_version");
    const json_t *fmt = json_object_get(md, "format");
    if (json_is_string(fmt) && strcmp(json_string_value(fmt), "commroof-trace") == 0 &&
        json_is_integer(fv)) {
        if (json_integer_value(fv) > CR_TRACE_FORMAT_VERSION || json_integer_value(fv) < 1)
            return fail(r, CR_EUNSUPPORTED, line,
                        "trace format version %lld; this reader reads version %d (update "
                        "commroof)",
                        (long long)json_integer_value(fv), CR_TRACE_FORMAT_VERSION);
        r->info.format_version = (int)json_integer_value(fv);
    }
    const json_t *dr = json_object_get(md, "dropped_records");
    if (json_is_integer(dr) && json_integer_value(dr) >= 0) {
        r->info.dropped_known = true;
        r->info.dropped_records = (uint64_t)json_integer_value(dr);
    }
    const json_t *base = json_object_get(md, "ts_base_ns");
    if (json_is_integer(base))
        r->info.ts_base_ns = (int64_t)json_integer_value(base);
    const json_t *pid = json_object_get(md, "os_pid");
    if (json_is_integer(pid) && json_integer_value(pid) > 0)
        r->info.os_pid = (long long)json_integer_value(pid);
    const json_t *host = json_object_get(md, "hostname");
    if (json_is_string(host))
        snprintf(r->info.hostname, sizeof r->info.hostname, "%s", json_string_value(host));
    read_recorded(r, json_object_get(md, "recorded"));
    const json_t *lb = json_object_get(md, "launch_blocking");
    if (json_is_boolean(lb))
        r->info.launch_blocking = json_is_true(lb);
    const json_t *errs = json_object_get(md, "errors");
    if (json_is_array(errs)) {
        r->info.n_errors = (int)json_array_size(errs);
        const json_t *e0 = json_array_get(errs, 0);
        if (json_is_string(e0))
            snprintf(r->info.first_error, sizeof r->info.first_error, "%s", json_string_value(e0));
    }
    json_t *devs = json_object_get(md, "devices");
    if (json_is_array(devs)) {
        json_decref(r->devices);
        r->devices = json_incref(devs);
        r->devices_from_metadata = true;
    }
    return CR_OK;
}

/* Parses bytes [beg, beg+n) as one JSON value. */
static cr_status load_value(cr_trace_reader *r, size_t n, unsigned long line, json_t **out)
{
    json_error_t je;
    *out = json_loadb(r->buf + r->beg, n, JSON_DECODE_ANY, &je);
    /* jansson leaves the text empty where its lexer's buffer ran out */
    if (!*out && (json_error_code(&je) == json_error_out_of_memory || !je.text[0]))
        return fail(r, CR_ENOMEM, line, "out of memory");
    if (!*out)
        return fail(r, CR_EPARSE, line + (unsigned long)(je.line > 0 ? je.line - 1 : 0), "%s",
                    je.text);
    return CR_OK;
}

static void truncated(cr_trace_reader *r)
{
    r->info.complete = false;
    r->info.discarded_bytes = r->len - r->beg;
    r->st = ST_END;
}

/* Done with the current event's tree. Fast-path args that no one took a
 * reference to (the caller may keep them with json_incref) become the spare
 * of their category, for fast_args to refill. */
static void release_cur(cr_trace_reader *r)
{
    json_t *j = r->cur;
    int cat = r->cur_args_cat;
    r->cur = NULL;
    r->cur_args_cat = -1;
    if (j && cat >= 0 && j->refcount == 1) {
        json_decref(r->spare_args[cat]);
        r->spare_args[cat] = j;
    } else {
        json_decref(j);
    }
}

cr_status cr_trace_reader_next(cr_trace_reader *r, const cr_trace_event **ev, cr_diag *d)
{
    *ev = NULL;
    release_cur(r);
    for (;;) {
        if (r->err != CR_OK || r->st == ST_ERROR) {
            if (r->err == CR_OK)
                r->err = CR_EPARSE;
            return cr_diag_set(d, r->err, "%s", r->errmsg);
        }
        int c;
        switch (r->st) {
        case ST_START:
            c = skip_ws(r);
            if (c == 0xef && at(r, 1) == 0xbb && at(r, 2) == 0xbf) { /* UTF-8 BOM */
                consume(r, 3);
                c = skip_ws(r);
            }
            if (c < 0) {
                if (r->err != CR_OK)
                    continue;
                fail(r, CR_EPARSE, r->line,
                     "empty file: a trace starts with {\"traceEvents\":[ (traces/README.md)");
                continue;
            }
            if (c == '{') {
                consume(r, 1);
                r->st = ST_KEY_FIRST;
            } else if (c == '[') {
                consume(r, 1);
                r->bare_array = true;
                r->in_events = true;
                r->st = ST_EV_FIRST;
            } else if (c == 0x1f && at(r, 1) == 0x8b) {
                /* gzip's magic bytes inside the (decompressed) text */
                fail(r, CR_EPARSE, r->line,
                     "not a trace: gzip-compressed data (compressed once more than its name "
                     "says): gunzip it until it starts with {\"traceEvents\":[");
            } else {
                fail(r, CR_EPARSE, r->line,
                     "not a trace: expected '{' (\"traceEvents\" object) or '[' (event array), "
                     "found '%c'",
                     c >= 0x20 && c < 0x7f ? c : '?');
            }
            continue;
        case ST_KEY_FIRST:
        case ST_KEY: {
            c = skip_ws(r);
            if (c < 0) {
                truncated(r);
                continue;
            }
            if (c == '}' && r->st == ST_KEY_FIRST) {
                consume(r, 1);
                r->st = ST_TAIL;
                continue;
            }
            if (c != '"') {
                fail(r, CR_EPARSE, r->line, "expected a key string in the top-level object");
                continue;
            }
            size_t end = 0;
            scan_result sr = scan_value(r, 4096, &end);
            if (sr == SCAN_EOF) {
                truncated(r);
                continue;
            }
            if (sr == SCAN_BIG) {
                fail(r, CR_ERANGE, r->line, "top-level key longer than 4096 bytes");
                continue;
            }
            unsigned long key_line = r->line;
            json_t *key = NULL;
            if (load_value(r, end, key_line, &key) != CR_OK)
                continue;
            char keybuf[64];
            snprintf(keybuf, sizeof keybuf, "%s", json_string_value(key));
            json_decref(key);
            consume(r, end);
            c = skip_ws(r);
            if (c < 0) {
                truncated(r);
                continue;
            }
            if (c != ':') {
                fail(r, CR_EPARSE, r->line, "expected ':' after key \"%s\"", keybuf);
                continue;
            }
            consume(r, 1);
            c = skip_ws(r);
            if (c < 0) {
                truncated(r);
                continue;
            }
            if (strcmp(keybuf, "traceEvents") == 0) {
                if (c != '[') {
                    fail(r, CR_EPARSE, r->line, "\"traceEvents\" must be an array [...]");
                    continue;
                }
                if (r->in_events) {
                    fail(r, CR_EPARSE, r->line, "\"traceEvents\" appears twice");
                    continue;
                }
                consume(r, 1);
                r->in_events = true;
                r->st = ST_EV_FIRST;
                continue;
            }
            sr = scan_value(r, MAX_OTHER_BYTES, &end);
            if (sr == SCAN_EOF) {
                truncated(r);
                continue;
            }
            if (sr == SCAN_BIG) {
                fail(r, CR_ERANGE, r->line, "top-level value \"%s\" is over %zu MiB", keybuf,
                     MAX_OTHER_BYTES >> 20);
                continue;
            }
            unsigned long vline = r->line;
            json_t *val = NULL;
            if (load_value(r, end, vline, &val) != CR_OK)
                continue;
            consume(r, end);
            r->nccl_results |= strcmp(keybuf, "results") == 0;
            r->nccl_config |= strcmp(keybuf, "config") == 0;
            if (strcmp(keybuf, "metadata") == 0) {
                if (take_metadata(r, vline, val) != CR_OK)
                    continue;
            } else {
                json_decref(val); /* displayTimeUnit and other tools' keys */
            }
            r->st = ST_OBJ_AFTER;
            continue;
        }
        case ST_OBJ_AFTER:
            c = skip_ws(r);
            if (c < 0) {
                truncated(r);
            } else if (c == ',') {
                consume(r, 1);
                r->st = ST_KEY;
            } else if (c == '}') {
                consume(r, 1);
                r->st = ST_TAIL;
            } else {
                fail(r, CR_EPARSE, r->line, "expected ',' or '}' in the top-level object");
            }
            continue;
        case ST_EV_FIRST:
        case ST_EV_NEXT:
        case ST_EV_AFTER:
            c = skip_ws(r);
            if (c < 0) {
                truncated(r);
                continue;
            }
            if (c == ']') {
                /* A trailing comma before ']' (some writers leave one) is accepted. */
                consume(r, 1);
                r->st = r->bare_array ? ST_TAIL : ST_OBJ_AFTER;
                continue;
            }
            if (r->st == ST_EV_AFTER) {
                if (c != ',') {
                    fail(r, CR_EPARSE, r->line, "expected ',' or ']' after an event");
                    continue;
                }
                consume(r, 1);
                r->st = ST_EV_NEXT;
                continue;
            }
            {
                unsigned long line = r->line;
                cr_status est = CR_OK;
                cr_jsub_result fr =
                    r->fast ? fast_event(r, r->len - r->beg, line, &est) : CR_JSUB_NO;
                if (fr != CR_JSUB_OK) {
                    size_t end = 0;
                    scan_result sr = scan_value(r, CR_TRACE_MAX_EVENT_BYTES, &end);
                    if (sr == SCAN_EOF) {
                        truncated(r);
                        continue;
                    }
                    if (sr == SCAN_BIG) {
                        fail(r, CR_ERANGE, r->line, "event larger than %u bytes (the limit)",
                             CR_TRACE_MAX_EVENT_BYTES);
                        continue;
                    }
                    if (fr == CR_JSUB_SHORT) /* the whole event is in the buffer now */
                        fr = fast_event(r, end, line, &est);
                    if (fr != CR_JSUB_OK) {
                        json_t *j = NULL;
                        if (load_value(r, end, line, &j) != CR_OK)
                            continue;
                        consume(r, end);
                        r->cur = j;
                        est = make_event(r, line, j);
                    }
                }
                r->st = ST_EV_AFTER;
                if (est != CR_OK)
                    continue;
                r->info.events++;
                *ev = &r->ev;
                return CR_OK;
            }
        case ST_TAIL:
            c = skip_ws(r);
            if (c >= 0) {
                fail(r, CR_EPARSE, r->line, "unexpected content after the end of the trace");
                continue;
            }
            if (r->err != CR_OK)
                continue;
            if (!r->in_events) {
                if (r->nccl_results && r->nccl_config)
                    fail(r, CR_EPARSE, r->line,
                         "no \"traceEvents\" array: an nccl-tests JSON file (-J), not a trace; "
                         "give it to validate or calibrate with --nccl-tests");
                else
                    fail(r, CR_EPARSE, r->line, "no \"traceEvents\" array in this JSON object");
                continue;
            }
            r->info.complete = true;
            r->st = ST_END;
            continue;
        case ST_END:
            return CR_OK;
        case ST_ERROR:
            continue;
        }
    }
}

/* ---------- open / close ---------- */

static cr_status new_reader(const char *label, cr_trace_reader **out)
{
    *out = NULL;
    cr_trace_reader *r = calloc(1, sizeof *r);
    if (!r)
        return CR_ENOMEM;
    r->devices = json_array();
    if (!r->devices) {
        free(r);
        return CR_ENOMEM;
    }
    snprintf(r->label, sizeof r->label, "%s", label ? label : "<trace>");
    r->line = 1;
    r->st = ST_START;
    r->fast = true;
    r->cur_args_cat = -1;
    r->info.recorded = CR_TRACE_REC_DEVICE; /* until metadata.recorded says otherwise */
    r->info.launch_blocking = -1;           /* until metadata says */
    *out = r;
    return CR_OK;
}

cr_status cr_trace_reader_open(const char *path, cr_trace_reader **out, cr_diag *d)
{
    *out = NULL;
    FILE *f = NULL;
    cr_status st = cr_file_fopen_read(path, "a trace file (.json)", CR_FILE_STREAM, &f, d);
    if (st != CR_OK)
        return st == CR_ENOTFOUND ? CR_EIO : st; /* trace_reader.h: CR_EIO when unreadable */
    cr_trace_reader *r = NULL;
    if (new_reader(path, &r) != CR_OK) {
        fclose(f);
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
    }
    r->f = f;
    r->own_f = true;
    *out = r;
    return CR_OK;
}

cr_status cr_trace_reader_open_stream(FILE *f, const char *label, cr_trace_reader **out)
{
    cr_status st = new_reader(label, out);
    if (st == CR_OK)
        (*out)->f = f;
    return st;
}

cr_status cr_trace_reader_open_read(cr_trace_read_fn read, void *ctx, const char *label,
                                    cr_trace_reader **out)
{
    cr_status st = new_reader(label, out);
    if (st == CR_OK) {
        (*out)->read = read;
        (*out)->read_ctx = ctx;
    }
    return st;
}

cr_status cr_trace_reader_open_mem(const void *data, size_t len, const char *label,
                                   cr_trace_reader **out)
{
    cr_status st = new_reader(label, out);
    if (st == CR_OK) {
        static const unsigned char empty[1];
        (*out)->mem = data ? data : empty;
        (*out)->mem_len = data ? len : 0;
    }
    return st;
}

void cr_trace_reader_info(const cr_trace_reader *r, cr_trace_info *info)
{
    *info = r->info;
}

const json_t *cr_trace_reader_metadata(const cr_trace_reader *r)
{
    return r->metadata;
}

const json_t *cr_trace_reader_devices(const cr_trace_reader *r)
{
    return r->devices;
}

void cr_trace_reader_free(cr_trace_reader *r)
{
    if (!r)
        return;
    if (r->own_f && r->f)
        fclose(r->f);
    json_decref(r->cur);
    for (size_t i = 0; i < sizeof r->spare_args / sizeof r->spare_args[0]; i++)
        json_decref(r->spare_args[i]);
    json_decref(r->metadata);
    json_decref(r->devices);
    free(r->strs);
    free(r->buf);
    free(r);
}
