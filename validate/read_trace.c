/* SPDX-License-Identifier: MIT */
/*
 * validate: a commroof trace's "cr:" ranges as measurements (validate.h
 * cr_validate_read_trace, cr_validate_read_path): the GPU activities of
 * each range split into its iterations and timed as the family's entry
 * says (families.c).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "grow.h"
#include "traces/reader/trace_reader.h"
#include "validate.h"
#include "validate_priv.h"

typedef struct {
    int64_t proc;
    int dev;
    double ts, end;
} act;

typedef struct {
    int64_t proc;
    double ts, end;
    char *name;
} range;

static int cmp_act(const void *a, const void *b)
{
    const act *x = a, *y = b;
    if (x->proc != y->proc)
        return (x->proc > y->proc) - (x->proc < y->proc);
    return (x->ts > y->ts) - (x->ts < y->ts);
}

/* First index of a (sorted) with (proc, ts) >= (proc, t). */
static size_t lower(const act *a, size_t n, int64_t proc, double t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a[mid].proc < proc || (a[mid].proc == proc && a[mid].ts < t))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#define MAX_DEVS 64

/* Fills m->measured_s from the activities a[lo..hi) of one range, timed as
 * its family's entry says (how; validate.h). Returns false with why filled
 * when they cannot be split. */
static bool measure(cr_vmeas_list *l, cr_vmeas *m, cr_vtiming how, const range *rg, const act *a,
                    size_t lo, size_t hi, double iters, char *why, size_t why_size)
{
    int n_it = (int)iters;
    m->activities = (int)(hi - lo);
    if (hi > lo) {
        double *dur = malloc((hi - lo) * sizeof *dur);
        if (dur) {
            for (size_t i = lo; i < hi; i++)
                dur[i - lo] = a[i].end - a[i].ts;
            m->act_median_s = cr_median(dur, hi - lo);
            free(dur);
        }
    }
    double per = 1;
    if (how == CR_VTIME_SPACING) {
        /* Per launch: a graph of `nodes` kernels counts each kernel. */
        per = cr_vnum_or(&m->c, "nodes", 1);
        if (!(per >= 1))
            per = 1;
    }
    if (how == CR_VTIME_SPAN && hi > lo) {
        /* The span of every device's work over the iterations: the overlap
         * variant's streams interleave consecutive iterations, so no count
         * splits them (doc/multigpu.md); back to back, span / iters is the
         * mean device time of one iteration, gaps included. */
        double t0 = INFINITY, t1 = -INFINITY;
        int devs[MAX_DEVS], nd = 0;
        for (size_t i = lo; i < hi; i++) {
            t0 = fmin(t0, a[i].ts);
            t1 = fmax(t1, a[i].end);
            int j = 0;
            while (j < nd && devs[j] != a[i].dev)
                j++;
            if (j == nd && nd < MAX_DEVS)
                devs[nd++] = a[i].dev;
        }
        m->devices = nd;
        m->measured_s = (t1 - t0) / (n_it > 0 ? n_it : 1);
        m->samples = n_it > 0 ? n_it : 1;
        return true;
    }
    /* Without activities the range's host time; a launch case of one
     * iteration has no launch-to-launch spacing either. One iteration with
     * activities is a device time like any other (below). */
    if (hi == lo || (n_it <= 1 && how == CR_VTIME_SPACING)) {
        m->measured_s = (rg->end - rg->ts) / (n_it > 0 ? n_it : 1) / per;
        m->samples = 1;
        m->host_timed = hi == lo;
        return true;
    }
    /* Per device: count activities. */
    int devs[MAX_DEVS], counts[MAX_DEVS], nd = 0;
    for (size_t i = lo; i < hi; i++) {
        int j = 0;
        while (j < nd && devs[j] != a[i].dev)
            j++;
        if (j == nd) {
            if (nd == MAX_DEVS) {
                snprintf(why, why_size, "%s: more than %d devices in one range", rg->name,
                         MAX_DEVS);
                return false;
            }
            devs[nd] = a[i].dev;
            counts[nd++] = 0;
        }
        counts[j]++;
    }
    m->devices = nd;
    for (int j = 0; j < nd; j++)
        if (counts[j] % n_it != 0) {
            snprintf(why, why_size,
                     "%.120s: %d activities on device %d do not split into iters=%d groups",
                     rg->name, counts[j], devs[j], n_it);
            return false;
        }
    /* Per iteration: first (first device's start), last (the last device's
     * start), end (the last device's end). */
    double *first = malloc((size_t)n_it * sizeof *first);
    double *last = malloc((size_t)n_it * sizeof *last);
    double *dev_start = malloc((size_t)n_it * sizeof *dev_start);
    double *end = malloc((size_t)n_it * sizeof *end);
    double *t = malloc((size_t)n_it * sizeof *t);
    if (!first || !last || !dev_start || !end || !t) {
        free(first);
        free(last);
        free(dev_start);
        free(end);
        free(t);
        cr_str_copy(why, why_size, "out of memory");
        return false;
    }
    for (int i = 0; i < n_it; i++) {
        first[i] = INFINITY;
        last[i] = -INFINITY;
        end[i] = -INFINITY;
    }
    for (int j = 0; j < nd; j++) {
        int k = counts[j] / n_it, seen = 0;
        for (int i = 0; i < n_it; i++)
            dev_start[i] = INFINITY;
        for (size_t i = lo; i < hi; i++)
            if (a[i].dev == devs[j]) {
                int g = seen++ / k;
                if (a[i].ts < dev_start[g])
                    dev_start[g] = a[i].ts;
                if (a[i].end > end[g])
                    end[g] = a[i].end;
            }
        for (int i = 0; i < n_it; i++) {
            first[i] = fmin(first[i], dev_start[i]);
            last[i] = fmax(last[i], dev_start[i]);
        }
    }
    /* A collective on several GPUs is timed from its last participant's
     * start: it cannot progress before every rank has arrived, and how late
     * the last one arrives is the host's (one thread launching each GPU in
     * turn: a gap that differs from process to process), not the network's.
     * The same rule as merged one-process-per-GPU ranks
     * (cr_validate_merge_ranks); doc/validation.md. */
    bool from_last = how == CR_VTIME_LAST_START && nd > 1;
    const double *start = from_last ? last : first;
    if (how == CR_VTIME_SPACING) {
        /* Launch overhead: start to start of consecutive launches. */
        for (int i = 0; i + 1 < n_it; i++)
            t[i] = start[i + 1] - start[i];
        m->measured_s = cr_median(t, (size_t)n_it - 1) / per;
        m->samples = n_it - 1;
    } else {
        /* Device time of one iteration: start (above) to the last end,
         * over every device the case ran on. Kept per iteration for
         * cr_validate_merge_ranks(). */
        for (int i = 0; i < n_it; i++)
            t[i] = end[i] - start[i];
        (void)cr_vlist_set_iters(l, m, start, end, n_it); /* none kept when out of memory */
        m->measured_s = cr_median(t, (size_t)n_it);
        m->samples = n_it;
        if (from_last) {
            for (int i = 0; i < n_it; i++)
                t[i] = end[i] - first[i];
            m->first_start_s = cr_median(t, (size_t)n_it);
        }
    }
    free(first);
    free(last);
    free(dev_start);
    free(end);
    free(t);
    return true;
}

static int cmp_range_ref(const void *x, const void *y)
{
    const range *a = *(const range *const *)x, *b = *(const range *const *)y;
    if (a->proc != b->proc)
        return (a->proc > b->proc) - (a->proc < b->proc);
    return (a->ts > b->ts) - (a->ts < b->ts);
}

/* over[i] true where range i shares time with another range of its process
 * (nested or concurrent ranges would both claim the same activities). */
static void mark_overlaps(range *rg, size_t nr, bool *over)
{
    if (nr < 2)
        return;
    range **s = malloc(nr * sizeof *s);
    if (!s)
        return;
    for (size_t i = 0; i < nr; i++)
        s[i] = &rg[i];
    qsort(s, nr, sizeof *s, cmp_range_ref);
    size_t open = 0; /* the range of the group so far with the latest end */
    for (size_t i = 1; i < nr; i++) {
        if (s[i]->proc == s[open]->proc && s[i]->ts < s[open]->end) {
            over[s[i] - rg] = true;
            over[s[open] - rg] = true;
            if (s[i]->end > s[open]->end)
                open = i;
        } else {
            open = i;
        }
    }
    free(s);
}

/* The name metadata.devices gives device dev ("NVIDIA H200"), else the
 * first device's name (a range without activities), else "". */
static const char *device_name(const json_t *md, int dev)
{
    const json_t *devs = md ? json_object_get(md, "devices") : NULL;
    const char *first = "";
    for (size_t i = 0; json_is_array(devs) && i < json_array_size(devs); i++) {
        const json_t *e = json_array_get(devs, i);
        const json_t *name = json_object_get(e, "name"), *id = json_object_get(e, "device");
        if (!json_is_string(name))
            continue;
        if (json_is_integer(id) && json_integer_value(id) == dev)
            return json_string_value(name);
        if (!first[0])
            first = json_string_value(name);
    }
    return first;
}

static int64_t proc_of(int64_t pid)
{
    /* Our traces: pid = os pid x 100 + device (99 for the host). */
    return pid >= 100 ? pid / 100 : pid;
}

/* What read_trace skipped: how many ranges, how many of them calls of a
 * catalog operator (cr_vcase_is_catalog_call: roofline reads those), the
 * first one's reason and the first reason among the others (why and
 * why_other may be NULL). */
typedef struct {
    int n, catalog;
    char *why, *why_other;
    size_t why_size, why_other_size;
} skips;

/* cr_validate_read_trace(); *ti_out (may be NULL) what the reader learnt
 * about the file (cut short, kinds not recorded). */
static cr_status read_trace(const char *path, cr_vmeas_list *out, skips *sk, cr_trace_info *ti_out,
                            cr_diag *d)
{
    cr_trace_file vt;
    cr_status st = cr_trace_file_open(&vt, path, d);
    if (st != CR_OK)
        return st;
    cr_trace_reader *r = vt.r;
    act *a = NULL;
    range *rg = NULL;
    bool *overlaps = NULL;
    size_t na = 0, ca = 0, nr = 0, cr = 0;
    const cr_trace_event *ev = NULL;
    while ((st = cr_trace_reader_next(r, &ev, d)) == CR_OK && ev) {
        if (ev->ph != 'X')
            continue;
        if (ev->cat == CR_TRACE_KERNEL || ev->cat == CR_TRACE_MEMCPY ||
            ev->cat == CR_TRACE_MEMSET) {
            if (cr_grow((void **)&a, &ca, na + 1, sizeof *a)) {
                st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                goto out;
            }
            a[na].proc = proc_of(ev->pid);
            a[na].dev = ev->device;
            a[na].ts = ev->ts_s;
            a[na].end = ev->ts_s + ev->dur_s;
            na++;
        } else if (ev->cat == CR_TRACE_NVTX && strncmp(ev->name, "cr:", 3) == 0) {
            if (cr_grow((void **)&rg, &cr, nr + 1, sizeof *rg)) {
                st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                goto out;
            }
            rg[nr].name = strdup(ev->name);
            if (!rg[nr].name) {
                st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                goto out;
            }
            rg[nr].proc = proc_of(ev->pid);
            rg[nr].ts = ev->ts_s;
            rg[nr].end = ev->ts_s + ev->dur_s;
            nr++;
        }
    }
    if ((st = cr_trace_file_end(&vt, st, d)) != CR_OK)
        goto out;
    int rank = -1;
    const json_t *md = cr_trace_reader_metadata(r);
    if (md && json_is_integer(json_object_get(md, "rank")))
        rank = (int)json_integer_value(json_object_get(md, "rank"));
    if (rank < 0)
        rank = cr_validate_rank_from_name(path);
    int world = -1;
    if (md && json_is_integer(json_object_get(md, "world_size")))
        world = (int)json_integer_value(json_object_get(md, "world_size"));
    const char *host = "";
    if (md && json_is_string(json_object_get(md, "hostname")))
        host = json_string_value(json_object_get(md, "hostname"));
    cr_trace_info info;
    cr_trace_reader_info(r, &info);
    if (ti_out)
        *ti_out = info;
    if (na > 1)
        qsort(a, na, sizeof *a, cmp_act);
    if (nr && !(overlaps = calloc(nr, sizeof *overlaps))) {
        st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    mark_overlaps(rg, nr, overlaps);
    /* A crbench case's time is every device activity its range owns; with
     * a kind left out (COMMROOF_TRACE_RECORD) a copy case would be timed
     * by its check kernels alone, a time that is no copy's. */
    char unrecorded[40];
    cr_trace_rec_words(CR_TRACE_REC_TIMED & ~info.recorded, unrecorded, sizeof unrecorded);
    for (size_t i = 0; i < nr; i++) {
        cr_vmeas *m = cr_vlist_push(out);
        if (!m) {
            st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
            goto out;
        }
        cr_diag cd = {{0}};
        double iters = 1;
        char why[256] = "";
        bool catalog = cr_vcase_is_catalog_call(rg[i].name);
        if (catalog) {
            /* a call of the catalog's gemm with iters= is no crbench case
             * (it declares no work): roofline reads it */
            snprintf(why, sizeof why,
                     "%.160s: a call of a catalog operator, not a crbench case (commroof "
                     "roofline reads it)",
                     rg[i].name);
        } else if (cr_vcase_parse(rg[i].name, &m->c, &cd) != CR_OK) {
            snprintf(why, sizeof why, "%.250s", cd.msg);
        } else if (unrecorded[0]) {
            snprintf(why, sizeof why,
                     "%.60s: the trace did not record %s (metadata.recorded; "
                     "COMMROOF_TRACE_RECORD): a case's time would leave those out; trace "
                     "crbench with COMMROOF_TRACE_RECORD unset",
                     cr_vbase_name(path), unrecorded);
        } else if (cr_vcase_check_whole(&m->c, &cd) != CR_OK) {
            snprintf(why, sizeof why, "%.60s: range \"%.80s\": %.100s", cr_vbase_name(path),
                     rg[i].name, cd.msg);
        } else if (cr_vcase_num(&m->c, "iters", &iters, &cd) != CR_OK || !(iters >= 1) ||
                   iters > 1e9) {
            snprintf(why, sizeof why, "%.200s: needs iters=N with N >= 1", rg[i].name);
        } else if (overlaps[i]) {
            snprintf(why, sizeof why,
                     "%.60s: overlaps another cr: range of its process (nested or concurrent): "
                     "their activities cannot be told apart; give each case its own range",
                     rg[i].name);
        } else {
            size_t lo = lower(a, na, rg[i].proc, rg[i].ts), hi = lo;
            double late = 0;
            while (hi < na && a[hi].proc == rg[i].proc && a[hi].ts <= rg[i].end) {
                late = fmax(late, a[hi].end - rg[i].end);
                hi++;
            }
            /* The range closes after a device synchronize, so whatever
             * starts in it ends in it. One that runs past the end means the
             * range closed early: later kernels of its iterations start
             * after it and are not counted, and a count that still divides
             * splits too few kernels into the iterations (a time shorter
             * than the device's, a false violation). */
            if (late > 1e-9) {
                cr_snprintf_c(why, sizeof why,
                              "%.60s: an activity ends %.3f us after the range closes: close the "
                              "range after a device synchronize (its later kernels would be left "
                              "out)",
                              rg[i].name, late * 1e6);
            } else if (measure(out, m, cr_vfam_def_of(m->c.family)->measure, &rg[i], a, lo, hi,
                               iters, why, sizeof why)) {
                cr_str_copy(m->source, sizeof m->source, cr_vbase_name(path));
                double rk = cr_vnum_or(&m->c, "rank", -1);
                m->rank = rk >= 0 ? (int)rk : rank;
                m->world_size = world;
                m->ts_base_ns = info.ts_base_ns;
                cr_str_copy(m->host, sizeof m->host, host);
                cr_str_copy(m->gpu, sizeof m->gpu, device_name(md, hi > lo ? a[lo].dev : -1));
                cr_vmeas_make_label(m);
                continue;
            }
        }
        out->n--; /* not appended */
        sk->catalog += catalog;
        if (sk->n++ == 0 && sk->why && sk->why_size)
            cr_str_copy(sk->why, sk->why_size, why);
        if (!catalog && sk->n - sk->catalog == 1 && sk->why_other && sk->why_other_size)
            cr_str_copy(sk->why_other, sk->why_other_size, why);
    }
out:
    for (size_t i = 0; i < nr; i++)
        free(rg[i].name);
    free(rg);
    free(overlaps);
    free(a);
    cr_trace_file_close(&vt);
    return st;
}

cr_status cr_validate_read_trace(const char *path, cr_vmeas_list *out, int *n_skipped,
                                 char *skip_why, size_t skip_why_size, cr_diag *d)
{
    skips sk = {0, 0, skip_why, NULL, skip_why_size, 0};
    cr_status st = read_trace(path, out, &sk, NULL, d);
    if (n_skipped)
        *n_skipped = sk.n;
    return st;
}

/* One trace into out; info's skip figures updated. */
static cr_status read_one(const char *path, cr_vmeas_list *out, cr_vread_info *info, cr_diag *d)
{
    bool other_before = info->skipped > info->skipped_catalog;
    skips sk = {0,
                0,
                info->skipped ? NULL : info->why,
                other_before ? NULL : info->why_other,
                info->skipped ? 0 : sizeof info->why,
                other_before ? 0 : sizeof info->why_other};
    cr_trace_info ti;
    size_t before = out->n;
    cr_status st = read_trace(path, out, &sk, &ti, d);
    info->skipped += sk.n;
    info->skipped_catalog += sk.catalog;
    if (st == CR_OK && (st = cr_vread_note_trace(info, path, &ti, d)) != CR_OK)
        out->n = before; /* a copy of a trace read before: its cases are not taken */
    info->files += st == CR_OK;
    return st;
}

typedef struct {
    cr_vmeas_list *out;
} read_ctx;

static cr_status read_one_cb(const char *path, void *ctx, cr_vread_info *info, cr_diag *d)
{
    return read_one(path, ((read_ctx *)ctx)->out, info, d);
}

cr_status cr_validate_read_path(const char *path, cr_vmeas_list *out, cr_vread_info *info,
                                cr_diag *d)
{
    read_ctx c = {out};
    return cr_vtrace_each(path, read_one_cb, &c, info, d);
}

cr_status cr_vtrace_gpus_add(cr_vtrace_gpu **v, size_t *n, size_t *cap, const char *path,
                             const json_t *md, const cr_vtrace_devs *s, cr_diag *d)
{
    size_t first = *n;
    for (int k = 0; k < s->n; k++) {
        const char *name = device_name(md, s->dev[k]);
        bool listed = !name[0];
        for (size_t j = first; j < *n && !listed; j++)
            listed = strcmp((*v)[j].gpu, name) == 0;
        if (listed)
            continue;
        if (cr_grow((void **)v, cap, *n + 1, sizeof **v))
            return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
        cr_str_copy((*v)[*n].path, sizeof(*v)[*n].path, path);
        cr_str_copy((*v)[*n].gpu, sizeof(*v)[*n].gpu, name);
        (*n)++;
    }
    return CR_OK;
}

typedef struct {
    cr_vtrace_gpu *v;
    size_t n, cap;
} gpus_ctx;

static cr_status gpus_of_file(const char *path, void *vctx, cr_vread_info *info, cr_diag *d)
{
    gpus_ctx *g = vctx;
    cr_trace_file vt;
    cr_status st = cr_trace_file_open(&vt, path, d);
    if (st != CR_OK)
        return st;
    cr_vtrace_devs devs = {.n = 0};
    const cr_trace_event *ev = NULL;
    while ((st = cr_trace_reader_next(vt.r, &ev, d)) == CR_OK && ev)
        if (ev->ph == 'X' && (ev->cat == CR_TRACE_KERNEL || ev->cat == CR_TRACE_MEMCPY ||
                              ev->cat == CR_TRACE_MEMSET))
            cr_vtrace_devs_add(&devs, ev->device);
    if ((st = cr_trace_file_end(&vt, st, d)) == CR_OK)
        st = cr_vtrace_gpus_add(&g->v, &g->n, &g->cap, path, cr_trace_reader_metadata(vt.r), &devs,
                                d);
    info->files += st == CR_OK;
    cr_trace_file_close(&vt);
    return st;
}

cr_status cr_validate_trace_gpus(const char *const *paths, int n, cr_vtrace_gpu **out,
                                 size_t *n_out, cr_diag *d)
{
    *out = NULL;
    *n_out = 0;
    gpus_ctx g = {0};
    cr_vread_info *info = calloc(1, sizeof *info); /* tens of KB: its list of files seen */
    if (!info)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    cr_status st = CR_OK;
    for (int i = 0; i < n && st == CR_OK; i++)
        st = cr_vtrace_each(paths[i], gpus_of_file, &g, info, d);
    free(info);
    if (st != CR_OK) {
        free(g.v);
        return st;
    }
    *out = g.v;
    *n_out = g.n;
    return CR_OK;
}
