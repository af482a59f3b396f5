/* SPDX-License-Identifier: MIT */
/* Trace summary (trace_summary.h): one streaming pass, kernels hashed by name. */
#include "trace_summary.h"
#include "grow.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_file.h"

/* Eight bytes per multiply, not one as FNV-1a: kernel names run to 200
 * bytes and every kernel event hashes its name. The mixing step is
 * splitmix64's finaliser (Steele, Lea, Flood, OOPSLA 2014). */
static uint64_t mix(uint64_t h)
{
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

static uint64_t hash_name(const char *s)
{
    size_t n = strlen(s);
    uint64_t h = n, w;
    for (; n >= 8; n -= 8, s += 8) {
        memcpy(&w, s, 8);
        h = mix(h ^ w);
    }
    w = 0;
    memcpy(&w, s, n);
    return mix(h ^ w);
}

/* Rebuilds the name index at twice the capacity. */
static cr_status grow_index(cr_trace_summary *s)
{
    size_t cap = s->index_cap_ ? 2 * s->index_cap_ : 256;
    size_t *idx = calloc(cap, sizeof *idx);
    if (!idx)
        return CR_ENOMEM;
    for (size_t i = 0; i < s->n_kernel_stats; i++) {
        size_t h = (size_t)(hash_name(s->kernel_stats[i].name) % cap);
        while (idx[h])
            h = (h + 1) % cap;
        idx[h] = i + 1;
    }
    free(s->index_);
    s->index_ = idx;
    s->index_cap_ = cap;
    return CR_OK;
}

static cr_status add_kernel(cr_trace_summary *s, const cr_trace_event *e)
{
    if (2 * (s->n_kernel_stats + 1) > s->index_cap_ && grow_index(s) != CR_OK)
        return CR_ENOMEM;
    size_t h = (size_t)(hash_name(e->name) % s->index_cap_);
    while (s->index_[h]) {
        cr_trace_kernel_stat *k = &s->kernel_stats[s->index_[h] - 1];
        if (strcmp(k->name, e->name) == 0) {
            k->calls++;
            k->total_s += e->dur_s;
            if (e->dur_s < k->min_s)
                k->min_s = e->dur_s;
            if (e->dur_s > k->max_s)
                k->max_s = e->dur_s;
            return CR_OK;
        }
        h = (h + 1) % s->index_cap_;
    }
    if (cr_grow((void **)&s->kernel_stats, &s->cap_kernel_, s->n_kernel_stats + 1,
                sizeof *s->kernel_stats))
        return CR_ENOMEM;
    char *name = strdup(e->name);
    if (!name)
        return CR_ENOMEM;
    s->kernel_stats[s->n_kernel_stats] =
        (cr_trace_kernel_stat){name, 1, e->dur_s, e->dur_s, e->dur_s};
    s->index_[h] = ++s->n_kernel_stats;
    return CR_OK;
}

static cr_status add_copy(cr_trace_summary *s, const cr_trace_event *e, bool is_memset)
{
    cr_copy_kind kind = is_memset ? CR_COPY_NONE : e->copy_kind;
    int src = is_memset ? e->device : e->src_device;
    int dst = is_memset ? e->device : e->dst_device;
    for (size_t i = 0; i < s->n_copy_stats; i++) {
        cr_trace_copy_stat *c = &s->copy_stats[i];
        if (c->memset == is_memset && c->kind == kind && c->src_device == src &&
            c->dst_device == dst && strncmp(c->src_mem, e->src_mem, sizeof c->src_mem - 1) == 0 &&
            strncmp(c->dst_mem, e->dst_mem, sizeof c->dst_mem - 1) == 0) {
            c->count++;
            c->bytes += e->bytes;
            c->total_s += e->dur_s;
            return CR_OK;
        }
    }
    if (cr_grow((void **)&s->copy_stats, &s->cap_copy_, s->n_copy_stats + 1, sizeof *s->copy_stats))
        return CR_ENOMEM;
    cr_trace_copy_stat *c = &s->copy_stats[s->n_copy_stats++];
    memset(c, 0, sizeof *c);
    c->memset = is_memset;
    c->kind = kind;
    c->src_device = src;
    c->dst_device = dst;
    snprintf(c->src_mem, sizeof c->src_mem, "%s", e->src_mem);
    snprintf(c->dst_mem, sizeof c->dst_mem, "%s", e->dst_mem);
    c->count = 1;
    c->bytes = e->bytes;
    c->total_s = e->dur_s;
    return CR_OK;
}

/* NVTX ranges carrying a message size (a decoded NCCL payload: the reader
 * sets bytes only for those) grouped by name and size. */
static cr_status add_nvtx_size(cr_trace_summary *s, const cr_trace_event *e)
{
    s->nvtx_sized++;
    for (size_t i = 0; i < s->n_nvtx_sizes; i++) {
        cr_trace_nvtx_size_stat *n = &s->nvtx_sizes[i];
        if (n->bytes == e->bytes && strcmp(n->name, e->name) == 0) {
            n->calls++;
            n->total_s += e->dur_s;
            return CR_OK;
        }
    }
    if (s->n_nvtx_sizes == CR_TRACE_NVTX_SIZE_GROUPS_MAX) {
        s->nvtx_sizes_ungrouped++;
        return CR_OK;
    }
    if (cr_grow((void **)&s->nvtx_sizes, &s->cap_nvtx_, s->n_nvtx_sizes + 1, sizeof *s->nvtx_sizes))
        return CR_ENOMEM;
    char *name = strdup(e->name);
    if (!name)
        return CR_ENOMEM;
    s->nvtx_sizes[s->n_nvtx_sizes++] = (cr_trace_nvtx_size_stat){name, e->bytes, 1, e->dur_s};
    return CR_OK;
}

static int by_nvtx_name_size(const void *a, const void *b)
{
    const cr_trace_nvtx_size_stat *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

static int by_kernel_time(const void *a, const void *b)
{
    const cr_trace_kernel_stat *x = a, *y = b;
    if (x->total_s != y->total_s)
        return x->total_s < y->total_s ? 1 : -1;
    return strcmp(x->name, y->name);
}

static int by_copy_bytes(const void *a, const void *b)
{
    const cr_trace_copy_stat *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    if (x->memset != y->memset)
        return x->memset ? 1 : -1;
    return (int)x->kind - (int)y->kind;
}

cr_status cr_trace_summarize_reader(cr_trace_reader *r, cr_trace_summary **out, cr_diag *d)
{
    *out = NULL;
    cr_trace_summary *s = calloc(1, sizeof *s);
    if (!s)
        return cr_diag_set(d, CR_ENOMEM, "out of memory summarising a trace");
    const cr_trace_event *e = NULL;
    cr_status st;
    bool timed = false;
    while ((st = cr_trace_reader_next(r, &e, d)) == CR_OK && e) {
        cr_status add = CR_OK;
        switch (e->cat) {
        case CR_TRACE_KERNEL:
            s->kernels++;
            s->kernel_s += e->dur_s;
            add = add_kernel(s, e);
            break;
        case CR_TRACE_MEMCPY:
            s->copies++;
            add = add_copy(s, e, false);
            break;
        case CR_TRACE_MEMSET:
            s->memsets++;
            add = add_copy(s, e, true);
            break;
        case CR_TRACE_SYNC:
            s->syncs++;
            break;
        case CR_TRACE_NVTX:
            s->nvtx++;
            if (e->ph == 'X' && e->has_payload && e->bytes > 0)
                add = add_nvtx_size(s, e);
            break;
        case CR_TRACE_API: /* the calls behind the activities (roofline ties them) */
            break;
        case CR_TRACE_OTHER:
        case CR_TRACE__COUNT:
            s->other++;
            break;
        }
        if (add != CR_OK) {
            st = cr_diag_set(d, add, "out of memory summarising a trace");
            break;
        }
        if (e->cat != CR_TRACE_OTHER && e->ph == 'X') {
            double end = e->ts_s + e->dur_s;
            if (!timed || e->ts_s < s->first_ts_)
                s->first_ts_ = e->ts_s;
            if (!timed || end > s->last_end_)
                s->last_end_ = end;
            timed = true;
        }
    }
    if (st != CR_OK) {
        cr_trace_summary_free(s);
        return st;
    }
    s->span_s = timed ? s->last_end_ - s->first_ts_ : 0.0;
    cr_trace_reader_info(r, &s->info);
    s->n_devices = json_array_size(cr_trace_reader_devices(r));
    if (s->n_kernel_stats)
        qsort(s->kernel_stats, s->n_kernel_stats, sizeof *s->kernel_stats, by_kernel_time);
    if (s->n_copy_stats)
        qsort(s->copy_stats, s->n_copy_stats, sizeof *s->copy_stats, by_copy_bytes);
    if (s->n_nvtx_sizes)
        qsort(s->nvtx_sizes, s->n_nvtx_sizes, sizeof *s->nvtx_sizes, by_nvtx_name_size);
    free(s->index_); /* the order changed; the index is no longer valid */
    s->index_ = NULL;
    s->index_cap_ = 0;
    *out = s;
    return CR_OK;
}

static int by_kernel_name(const void *a, const void *b)
{
    return strcmp(((const cr_trace_kernel_stat *)a)->name, ((const cr_trace_kernel_stat *)b)->name);
}

/* Whether the '<' at name[i] compares rather than opens a template's
 * arguments. __cxa_demangle writes a comparison's operands in parentheses
 * and the comparison itself bare where its operator is '<' ("(1)<(2)",
 * "((4)<<(1))<(0)"; one of '>' it wraps whole: "((3)>(2))"), so a '<'
 * after a ')' (but for "operator()"'s) or after such a '<' is an operator:
 * counted as an opener, "std::enable_if<(1)<(2), void>::type k<1>(int)"
 * kept its angle open to the end and shortened to "std::enable_if" (QA
 * audit, session 51). */
static bool less_than(const char *name, size_t i, bool prev_less)
{
    if (i == 0)
        return false;
    if (name[i - 1] == '<')
        return prev_less;
    return name[i - 1] == ')' && !(i >= 10 && strncmp(name + i - 10, "operator()", 10) == 0);
}

/* Walks name's characters outside <...> and (...) ("(anonymous namespace)"
 * counts as outside): calls emit(ctx, c) for each from index `from` on;
 * returns the index where the last word outside them starts (after the
 * last space outside them), and in *cpp whether there was any <...> or
 * (...). */
static size_t outside(const char *name, size_t from, char *buf, size_t size, size_t *o, bool *cpp)
{
    static const char anon[] = "(anonymous namespace)";
    size_t word = 0;
    int angle = 0, paren = 0;
    bool less = false;
    *cpp = false;
    for (size_t i = 0; name[i]; i++) {
        if (angle == 0 && paren == 0 && strncmp(name + i, anon, sizeof anon - 1) == 0) {
            for (size_t k = 0; k < sizeof anon - 1; k++)
                if (i + k >= from && buf && *o + 1 < size)
                    buf[(*o)++] = anon[k];
            i += sizeof anon - 2;
            less = false;
            continue;
        }
        char c = name[i];
        less = c == '<' && paren == 0 && less_than(name, i, less);
        if (c == '<' && paren == 0 && !less) {
            angle++;
            *cpp = true;
        } else if (c == '>' && paren == 0 && angle > 0) {
            angle--;
        } else if (c == '(') {
            paren++;
            *cpp = true;
        } else if (c == ')' && paren > 0) {
            paren--;
        } else if (angle == 0 && paren == 0) {
            if (c == ' ')
                word = i + 1;
            else if (i >= from && buf && *o + 1 < size)
                buf[(*o)++] = c;
        }
    }
    return word;
}

char *cr_trace_short_name(const char *name, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    bool cpp;
    size_t o = 0;
    size_t word = outside(name, 0, NULL, 0, &o, &cpp);
    if (cpp) {
        outside(name, word, buf, size, &o, &cpp);
        buf[o] = '\0';
    }
    /* not C++, or only a return type and templates: the name as it is */
    if (!cpp || o == 0)
        snprintf(buf, size, "%s", name);
    return buf;
}

cr_status cr_trace_summary_shorten(cr_trace_summary *s)
{
    size_t n = s->n_kernel_stats;
    char **names = calloc(n ? n : 1, sizeof *names);
    if (!names)
        return CR_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(s->kernel_stats[i].name) + 1;
        names[i] = malloc(len);
        if (!names[i]) {
            for (size_t j = 0; j < i; j++)
                free(names[j]);
            free(names);
            return CR_ENOMEM;
        }
        cr_trace_short_name(s->kernel_stats[i].name, names[i], len);
    }
    for (size_t i = 0; i < n; i++) {
        free(s->kernel_stats[i].name);
        s->kernel_stats[i].name = names[i];
    }
    /* equal short names next to each other, then merged */
    if (n > 1)
        qsort(s->kernel_stats, n, sizeof *s->kernel_stats, by_kernel_name);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        cr_trace_kernel_stat *k = &s->kernel_stats[i];
        if (m == 0 || strcmp(s->kernel_stats[m - 1].name, k->name) != 0) {
            s->kernel_stats[m++] = *k;
            continue;
        }
        cr_trace_kernel_stat *g = &s->kernel_stats[m - 1];
        g->calls += k->calls;
        g->total_s += k->total_s;
        g->min_s = k->min_s < g->min_s ? k->min_s : g->min_s;
        g->max_s = k->max_s > g->max_s ? k->max_s : g->max_s;
        free(k->name);
    }
    free(names);
    s->n_kernel_stats = m;
    if (m)
        qsort(s->kernel_stats, m, sizeof *s->kernel_stats, by_kernel_time);
    return CR_OK;
}

cr_status cr_trace_summarize(const char *path, cr_trace_summary **out, cr_diag *d)
{
    *out = NULL;
    if (!path)
        return cr_diag_set(d, CR_EINVAL, "no trace file given");
    cr_trace_file tf;
    cr_status st = cr_trace_file_open(&tf, path, d);
    if (st != CR_OK)
        return st;
    st = cr_trace_file_end(&tf, cr_trace_summarize_reader(tf.r, out, d), d);
    cr_trace_file_close(&tf);
    if (st != CR_OK) {
        cr_trace_summary_free(*out);
        *out = NULL;
    }
    return st;
}

void cr_trace_summary_free(cr_trace_summary *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_kernel_stats; i++)
        free(s->kernel_stats[i].name);
    free(s->kernel_stats);
    free(s->copy_stats);
    for (size_t i = 0; i < s->n_nvtx_sizes; i++)
        free(s->nvtx_sizes[i].name);
    free(s->nvtx_sizes);
    free(s->index_);
    free(s);
}
