/* SPDX-License-Identifier: MIT */
/*
 * validate: case names, measurement extraction from traces (nccl-tests
 * logs: nccl_log.c), the match to ops/coll model cases, summaries and calibration (see
 * validate.h and doc/validation.md). The models are ops' and coll's: this
 * file only maps a case's keys to their parameters.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "bound.h"
#include "coll.h"
#include "dtype.h"
#include "fileio.h"
#include "ops.h"
#include "rankset.h"
#include "route.h"
#include "traces/reader/trace_reader.h"
#include "validate.h"
#include "validate_priv.h"

static const char *const fam_names[CR_VFAM__COUNT] = {"hbm",    "ce",   "mech", "gemm",
                                                      "launch", "nccl", "p2p",  "fused"};

const char *cr_vfam_name(cr_vfam f)
{
    return (unsigned)f < CR_VFAM__COUNT ? fam_names[f] : "?";
}

/* --- case names ----------------------------------------------------------- */

cr_status cr_vcase_parse(const char *name, cr_vcase *out, cr_diag *d)
{
    memset(out, 0, sizeof *out);
    if (strncmp(name, "cr:", 3) != 0)
        return cr_diag_set(d, CR_EPARSE, "case \"%.60s\": does not start with \"cr:\"", name);
    const char *p = name + 3;
    size_t fl = strcspn(p, " ");
    int fam = -1;
    for (int i = 0; i < CR_VFAM__COUNT; i++)
        if (strlen(fam_names[i]) == fl && strncmp(p, fam_names[i], fl) == 0)
            fam = i;
    if (fam < 0)
        return cr_diag_set(d, CR_EPARSE,
                           "case \"%.60s\": unknown family \"%.*s\" (expected hbm, ce, mech, gemm, "
                           "launch, nccl, p2p or fused)",
                           name, (int)(fl > 24 ? 24 : fl), p);
    out->family = (cr_vfam)fam;
    p += fl;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t tl = strcspn(p, " ");
        const char *eq = memchr(p, '=', tl);
        if (!eq || eq == p || eq == p + tl - 1)
            return cr_diag_set(d, CR_EPARSE,
                               "case \"%.60s\": \"%.*s\" is not key=value with both parts "
                               "non-empty",
                               name, (int)(tl > 40 ? 40 : tl), p);
        size_t kl = (size_t)(eq - p), vl = tl - kl - 1;
        for (size_t i = 0; i < kl; i++)
            if (!(islower((unsigned char)p[i]) || isdigit((unsigned char)p[i]) || p[i] == '_'))
                return cr_diag_set(d, CR_EPARSE,
                                   "case \"%.60s\": key \"%.*s\" has characters other than a-z, "
                                   "0-9 and _",
                                   name, (int)(kl > 24 ? 24 : kl), p);
        if (kl >= sizeof out->kv[0].key || vl >= sizeof out->kv[0].value)
            return cr_diag_set(d, CR_EPARSE,
                               "case \"%.60s\": \"%.*s\" is too long (keys under %zu, values "
                               "under %zu characters)",
                               name, (int)(tl > 40 ? 40 : tl), p, sizeof out->kv[0].key,
                               sizeof out->kv[0].value);
        if (out->n_keys >= CR_VCASE_MAX_KEYS)
            return cr_diag_set(d, CR_EPARSE, "case \"%.60s\": more than %d keys", name,
                               CR_VCASE_MAX_KEYS);
        char key[24];
        memcpy(key, p, kl);
        key[kl] = 0;
        if (cr_vcase_get(out, key))
            return cr_diag_set(d, CR_EPARSE, "case \"%.60s\": key \"%s\" given twice", name, key);
        memcpy(out->kv[out->n_keys].key, p, kl);
        memcpy(out->kv[out->n_keys].value, eq + 1, vl);
        out->n_keys++;
        p += tl;
    }
    return CR_OK;
}

const char *cr_vcase_get(const cr_vcase *c, const char *key)
{
    for (int i = 0; i < c->n_keys; i++)
        if (strcmp(c->kv[i].key, key) == 0)
            return c->kv[i].value;
    return NULL;
}

cr_status cr_vcase_num(const cr_vcase *c, const char *key, double *out, cr_diag *d)
{
    const char *v = cr_vcase_get(c, key);
    if (!v)
        return cr_diag_set(d, CR_ENOTFOUND, "%s case lacks the key \"%s\"", cr_vfam_name(c->family),
                           key);
    char *end = NULL;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(x))
        return cr_diag_set(d, CR_EPARSE, "%s case: %s=\"%s\" is not a finite number",
                           cr_vfam_name(c->family), key, v);
    *out = x;
    return CR_OK;
}

static double num_or(const cr_vcase *c, const char *key, double fallback)
{
    double x;
    return cr_vcase_num(c, key, &x, NULL) == CR_OK ? x : fallback;
}

static const char *str_or(const cr_vcase *c, const char *key, const char *fallback)
{
    const char *v = cr_vcase_get(c, key);
    return v ? v : fallback;
}

cr_coll_req cr_vmeas_coll_req(const cr_vmeas *m, cr_coll coll, double bytes, int n, cr_mech mech)
{
    cr_coll_req rq = cr_coll_req_default(coll, bytes);
    cr_dtype dt;
    if (cr_dtype_parse(str_or(&m->c, "dtype", "fp32"), &dt, NULL) == CR_OK)
        rq.dtype = dt;
    rq.mech = mech;
    /* crbench (kernels/nccl.cu) and nccl-tests' first column time out-of-place
     * calls: on one rank NCCL then copies the buffer */
    rq.in_place = false;
    /* crbench's rank=-1: one process drives every GPU. Its host launch gap
     * (coll.launch_gap) is in the measured time only where the measurement
     * did not see every GPU's start (host-timed, or fewer devices traced
     * than ranks); timed from the last GPU's start (measure()) it is not,
     * and the prediction leaves it out too (doc/validation.md), starting
     * instead on the rank NCCL launches last (cr_coll_req from_last_start). */
    if (num_or(&m->c, "rank", 0) < 0)
        rq.ranks_per_process = n;
    /* nccl-tests -g G (nccl_log.c gpus_per_thread): one thread enqueues G
     * kernels per operation in its timed loop of back-to-back operations,
     * so the host's time per operation can set the printed time
     * (cr_coll_req host_loop) */
    double gpt = num_or(&m->c, "gpus_per_thread", 1);
    if (gpt > 1) {
        rq.ranks_per_process = (int)fmin(gpt, n);
        rq.host_loop = true;
    }
    rq.from_last_start = m->devices >= n && n > 1;
    if (mech != CR_MECH_NONE)
        rq.sms = (int)num_or(&m->c, "sms", 0);
    const char *algo = str_or(&m->c, "algo", "auto"), *proto = str_or(&m->c, "proto", "auto");
    if (strcmp(algo, "auto") && cr_algo_parse(algo, &rq.algo, NULL) != CR_OK)
        rq.algo = CR_ALGO_AUTO;
    if (strcmp(proto, "auto") && cr_proto_parse(proto, &rq.proto, NULL) != CR_OK)
        rq.proto = CR_PROTO_AUTO;
    return rq;
}

/* "1GiB", "64KiB", "3000B": bytes for labels. */
static void fmt_bytes(double b, char *buf, size_t size)
{
    static const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (b >= 1024 && fmod(b, 1024) == 0 && i < 4) {
        b /= 1024;
        i++;
    }
    snprintf(buf, size, "%.0f%s", b, u[i]);
}

static void make_label(cr_vmeas *m)
{
    const cr_vcase *c = &m->c;
    char b[32];
    fmt_bytes(num_or(c, "bytes", 0), b, sizeof b);
    switch (c->family) {
    case CR_VFAM_HBM:
        /* warm cases (cache=warm: one set back to back) say so; cold ones
         * keep the name they always had */
        snprintf(m->label, sizeof m->label, "%s %s%s", str_or(c, "op", "?"), b,
                 strcmp(str_or(c, "cache", ""), "warm") == 0 ? " warm" : "");
        break;
    case CR_VFAM_CE:
        snprintf(m->label, sizeof m->label, "%s %s %s", str_or(c, "dir", "?"),
                 str_or(c, "host", "?"), b);
        break;
    case CR_VFAM_MECH:
        snprintf(m->label, sizeof m->label, "%s sms=%s %s", str_or(c, "mech", "?"),
                 str_or(c, "sms", "?"), b);
        break;
    case CR_VFAM_GEMM:
        snprintf(m->label, sizeof m->label, "%s %sx%sx%s", str_or(c, "dtype", "?"),
                 str_or(c, "m", "?"), str_or(c, "n", "?"), str_or(c, "k", "?"));
        break;
    case CR_VFAM_LAUNCH:
        snprintf(m->label, sizeof m->label, "%s", str_or(c, "kind", "?"));
        break;
    case CR_VFAM_NCCL:
        snprintf(m->label, sizeof m->label, "%s n=%s %s%s%s", str_or(c, "coll", "?"),
                 str_or(c, "nranks", "?"), b, strcmp(str_or(c, "algo", "auto"), "auto") ? " " : "",
                 strcmp(str_or(c, "algo", "auto"), "auto") ? str_or(c, "algo", "") : "");
        break;
    case CR_VFAM_P2P:
        snprintf(m->label, sizeof m->label, "%s %s sms=%s %s", str_or(c, "mech", "?"),
                 str_or(c, "mode", "?"), str_or(c, "sms", "?"), b);
        break;
    case CR_VFAM_FUSED:
        snprintf(m->label, sizeof m->label, "%s %s %sx%sx%s p=%s", str_or(c, "op", "?"),
                 str_or(c, "variant", "?"), str_or(c, "m", "?"), str_or(c, "n", "?"),
                 str_or(c, "k", "?"), str_or(c, "ranks", "?"));
        break;
    default:
        snprintf(m->label, sizeof m->label, "?");
    }
}

/* --- lists ------------------------------------------------------------------ */

void cr_vmeas_list_release(cr_vmeas_list *l)
{
    if (!l)
        return;
    free(l->v);
    free(l->iter_s);
    memset(l, 0, sizeof *l);
}

static cr_vmeas *list_push(cr_vmeas_list *l)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        cr_vmeas *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return NULL;
        l->v = v;
        l->cap = cap;
    }
    cr_vmeas *m = &l->v[l->n++];
    memset(m, 0, sizeof *m);
    m->rank = -1;
    m->world_size = -1;
    return m;
}

cr_vmeas *cr_vlist_push(cr_vmeas_list *l)
{
    return list_push(l);
}

void cr_vmeas_make_label(cr_vmeas *m)
{
    make_label(m);
}

/* Reserves 2 n doubles of l's per-iteration pool; returns the offset, or
 * (size_t)-1 when out of memory. */
static size_t iter_alloc(cr_vmeas_list *l, size_t n)
{
    if (l->iter_n + 2 * n > l->iter_cap) {
        size_t cap = l->iter_cap ? 2 * l->iter_cap : 4096;
        while (cap < l->iter_n + 2 * n)
            cap *= 2;
        double *v = realloc(l->iter_s, cap * sizeof *v);
        if (!v)
            return (size_t)-1;
        l->iter_s = v;
        l->iter_cap = cap;
    }
    size_t off = l->iter_n;
    l->iter_n += 2 * n;
    return off;
}

cr_status cr_vlist_set_iters(cr_vmeas_list *l, cr_vmeas *m, const double *start, const double *end,
                             int n)
{
    size_t off = iter_alloc(l, (size_t)n);
    if (off == (size_t)-1)
        return CR_ENOMEM;
    memcpy(l->iter_s + off, start, (size_t)n * sizeof *start);
    memcpy(l->iter_s + off + (size_t)n, end, (size_t)n * sizeof *end);
    m->iter_off = off;
    m->n_iter = n;
    return CR_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cr_validate_percentile(double *v, size_t n, double p)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    if (p <= 0)
        return v[0];
    size_t r = (size_t)ceil(p / 100.0 * (double)n);
    if (r < 1)
        r = 1;
    if (r > n)
        r = n;
    return v[r - 1];
}

/* Median of v[0..n) (the mean of the middle two when n is even). Sorts v. */
static double median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* --- traces ----------------------------------------------------------------- */

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

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
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

/* Fills m->measured_s from the activities a[lo..hi) of one range (see
 * validate.h). Returns false with why filled when they cannot be split. */
static bool measure(cr_vmeas_list *l, cr_vmeas *m, const range *rg, const act *a, size_t lo,
                    size_t hi, double iters, char *why, size_t why_size)
{
    int n_it = (int)iters;
    m->activities = (int)(hi - lo);
    if (hi > lo) {
        double *dur = malloc((hi - lo) * sizeof *dur);
        if (dur) {
            for (size_t i = lo; i < hi; i++)
                dur[i - lo] = a[i].end - a[i].ts;
            m->act_median_s = median(dur, hi - lo);
            free(dur);
        }
    }
    double per = 1;
    if (m->c.family == CR_VFAM_LAUNCH) {
        /* Per launch: a graph of `nodes` kernels counts each kernel. */
        per = num_or(&m->c, "nodes", 1);
        if (!(per >= 1))
            per = 1;
    }
    if (m->c.family == CR_VFAM_FUSED && hi > lo) {
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
    if (hi == lo || (n_it <= 1 && m->c.family == CR_VFAM_LAUNCH)) {
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
        snprintf(why, why_size, "out of memory");
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
    bool from_last = m->c.family == CR_VFAM_NCCL && nd > 1;
    const double *start = from_last ? last : first;
    if (m->c.family == CR_VFAM_LAUNCH) {
        /* Launch overhead: start to start of consecutive launches. */
        for (int i = 0; i + 1 < n_it; i++)
            t[i] = start[i + 1] - start[i];
        m->measured_s = median(t, (size_t)n_it - 1) / per;
        m->samples = n_it - 1;
    } else {
        /* Device time of one iteration: start (above) to the last end,
         * over every device the case ran on. Kept per iteration for
         * cr_validate_merge_ranks(). */
        for (int i = 0; i < n_it; i++)
            t[i] = end[i] - start[i];
        size_t off = iter_alloc(l, (size_t)n_it);
        if (off != (size_t)-1) {
            memcpy(l->iter_s + off, start, (size_t)n_it * sizeof *start);
            memcpy(l->iter_s + off + (size_t)n_it, end, (size_t)n_it * sizeof *end);
            m->iter_off = off;
            m->n_iter = n_it;
        }
        m->measured_s = median(t, (size_t)n_it);
        m->samples = n_it;
        if (from_last) {
            for (int i = 0; i < n_it; i++)
                t[i] = end[i] - first[i];
            m->first_start_s = median(t, (size_t)n_it);
        }
    }
    free(first);
    free(last);
    free(dev_start);
    free(end);
    free(t);
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Opens a gzip file for gz_read. Errors: CR_EIO (cannot open), with the
 * file and why in d. */
static cr_status gz_open(const char *path, gzFile *out, cr_diag *d)
{
    *out = NULL;
    int fd = -1;
    if (cr_file_open_read(path, "a trace file (.json.gz)", CR_FILE_STREAM, &fd, NULL, d) != CR_OK)
        return CR_EIO;
    gzFile g = gzdopen(fd, "rb");
    if (!g) {
        close(fd);
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
    }
    *out = g;
    return CR_OK;
}

/* The trace reader's bytes from a .json.gz, decompressed as it asks for
 * them: nothing is written out and memory stays the reader's, so a stream
 * that never ends (a .json.gz linked to /dev/zero) or a gzip bomb is
 * refused at its first bytes that are not a trace, or read through like a
 * plain file of that size. */
static long gz_read(void *ctx, void *buf, size_t n)
{
    return gzread((gzFile)ctx, buf, n > 1u << 30 ? 1u << 30 : (unsigned)n);
}

/* After a read error in g: zlib's reason (corrupt or truncated data) in d. */
static cr_status gz_fail(gzFile g, const char *path, cr_diag *d)
{
    int zerr = 0;
    const char *msg = gzerror(g, &zerr);
    /* zlib's message starts with the path again */
    size_t pl = strlen(path);
    if (msg && !strncmp(msg, path, pl) && !strncmp(msg + pl, ": ", 2))
        msg += pl + 2;
    return cr_diag_set(d, CR_EIO,
                       "%s: not a valid gzip file (zlib: %s); give the trace as .json or a "
                       "complete .json.gz",
                       path, msg && *msg && zerr != Z_OK ? msg : "read error");
}

static int64_t proc_of(int64_t pid)
{
    /* Our traces: pid = os pid x 100 + device (99 for the host). */
    return pid >= 100 ? pid / 100 : pid;
}

/* cr_validate_read_trace(); *complete (may be NULL) false when the file
 * ends before its closing bracket (the writer did not finish). */
static cr_status read_trace(const char *path, cr_vmeas_list *out, int *n_skipped, char *skip_why,
                            size_t skip_why_size, bool *complete, cr_diag *d)
{
    cr_trace_reader *r = NULL;
    gzFile gz = NULL;
    cr_status st = ends_with(path, ".gz") ? gz_open(path, &gz, d) : CR_OK;
    if (st != CR_OK)
        return st;
    st = gz ? cr_trace_reader_open_read(gz_read, gz, path, &r) : cr_trace_reader_open(path, &r, d);
    if (st == CR_ENOMEM && gz)
        cr_diag_set(d, st, "%s: out of memory", path);
    if (st != CR_OK) {
        if (gz)
            gzclose(gz);
        return st;
    }
    act *a = NULL;
    range *rg = NULL;
    size_t na = 0, ca = 0, nr = 0, cr = 0;
    int skipped = 0;
    const cr_trace_event *ev = NULL;
    while ((st = cr_trace_reader_next(r, &ev, d)) == CR_OK && ev) {
        if (ev->ph != 'X')
            continue;
        if (ev->cat == CR_TRACE_KERNEL || ev->cat == CR_TRACE_MEMCPY ||
            ev->cat == CR_TRACE_MEMSET) {
            if (na == ca) {
                size_t c = ca ? 2 * ca : 4096;
                act *t = realloc(a, c * sizeof *t);
                if (!t) {
                    st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                    goto out;
                }
                a = t;
                ca = c;
            }
            a[na].proc = proc_of(ev->pid);
            a[na].dev = ev->device;
            a[na].ts = ev->ts_s;
            a[na].end = ev->ts_s + ev->dur_s;
            na++;
        } else if (ev->cat == CR_TRACE_NVTX && strncmp(ev->name, "cr:", 3) == 0) {
            if (nr == cr) {
                size_t c = cr ? 2 * cr : 256;
                range *t = realloc(rg, c * sizeof *t);
                if (!t) {
                    st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                    goto out;
                }
                rg = t;
                cr = c;
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
    /* zlib reports a stream cut short at its end, not as a read error */
    int zerr = Z_OK;
    if (gz && (st == CR_EIO || (st == CR_OK && (gzerror(gz, &zerr), zerr != Z_OK))))
        st = gz_fail(gz, path, d);
    if (st != CR_OK)
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
    if (complete)
        *complete = info.complete;
    if (na > 1)
        qsort(a, na, sizeof *a, cmp_act);
    for (size_t i = 0; i < nr; i++) {
        cr_vmeas *m = list_push(out);
        if (!m) {
            st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
            goto out;
        }
        cr_diag cd = {{0}};
        double iters = 1;
        char why[256] = "";
        if (cr_vcase_parse(rg[i].name, &m->c, &cd) != CR_OK) {
            snprintf(why, sizeof why, "%.250s", cd.msg);
        } else if (cr_vcase_num(&m->c, "iters", &iters, &cd) != CR_OK || !(iters >= 1) ||
                   iters > 1e9) {
            snprintf(why, sizeof why, "%.200s: needs iters=N with N >= 1", rg[i].name);
        } else {
            size_t lo = lower(a, na, rg[i].proc, rg[i].ts), hi = lo;
            while (hi < na && a[hi].proc == rg[i].proc && a[hi].ts <= rg[i].end)
                hi++;
            if (measure(out, m, &rg[i], a, lo, hi, iters, why, sizeof why)) {
                snprintf(m->source, sizeof m->source, "%s", base_name(path));
                double rk = num_or(&m->c, "rank", -1);
                m->rank = rk >= 0 ? (int)rk : rank;
                m->world_size = world;
                m->ts_base_ns = info.ts_base_ns;
                snprintf(m->host, sizeof m->host, "%s", host);
                make_label(m);
                continue;
            }
        }
        out->n--; /* not appended */
        if (skipped++ == 0 && skip_why && skip_why_size)
            snprintf(skip_why, skip_why_size, "%s", why);
    }
out:
    for (size_t i = 0; i < nr; i++)
        free(rg[i].name);
    free(rg);
    free(a);
    cr_trace_reader_free(r);
    if (gz)
        gzclose(gz);
    if (n_skipped)
        *n_skipped = skipped;
    return st;
}

cr_status cr_validate_read_trace(const char *path, cr_vmeas_list *out, int *n_skipped,
                                 char *skip_why, size_t skip_why_size, cr_diag *d)
{
    return read_trace(path, out, n_skipped, skip_why, skip_why_size, NULL, d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool is_trace_name(const char *name)
{
    size_t len = strlen(name);
    return (len > 5 && strcmp(name + len - 5, ".json") == 0) ||
           (len > 8 && strcmp(name + len - 8, ".json.gz") == 0);
}

/* One trace into out; info's skip figures updated. */
static cr_status read_one(const char *path, cr_vmeas_list *out, cr_vread_info *info, cr_diag *d)
{
    int sk = 0;
    bool complete = true;
    cr_status st = read_trace(path, out, &sk, info->skipped ? NULL : info->why,
                              info->skipped ? 0 : sizeof info->why, &complete, d);
    info->skipped += sk;
    if (st == CR_OK && !complete && info->incomplete++ == 0)
        snprintf(info->incomplete_path, sizeof info->incomplete_path, "%s", path);
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

cr_status cr_vtrace_each(const char *path, cr_vtrace_fn fn, void *ctx, cr_vread_info *info,
                         cr_diag *d)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return fn(path, ctx, info, d);
    DIR *dp = opendir(path);
    if (!dp)
        return cr_diag_set(d, CR_EIO, "%s: cannot open folder: %s", path, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int read = 0;
    cr_status st = CR_OK;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (!is_trace_name(e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **t = realloc(names, cap * sizeof *t);
            if (!t) {
                st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                goto out;
            }
            names = t;
        }
        size_t sz = strlen(path) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(sz))) {
            st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
            goto out;
        }
        snprintf(names[n++], sz, "%s/%s", path, e->d_name);
    }
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        cr_diag fd = {{0}};
        cr_status fs = fn(names[i], ctx, info, &fd);
        if (fs == CR_ENOMEM) {
            st = cr_diag_set(d, CR_ENOMEM, "%s", fd.msg);
            goto out;
        }
        if (fs != CR_OK) {
            if (info->not_traces++ == 0)
                snprintf(info->not_trace_why, sizeof info->not_trace_why, "%.300s", fd.msg);
            continue;
        }
        read++;
    }
    if (read == 0)
        st =
            cr_diag_set(d, CR_EIO, "%s: no trace file (*.json, *.json.gz) in this folder reads%s%s",
                        path, n ? "; first: " : "", n ? info->not_trace_why : "");
out:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(dp);
    return st;
}

cr_status cr_vtrace_open(cr_vtrace *t, const char *path, cr_diag *d)
{
    gzFile gz = NULL;
    t->r = NULL;
    t->gz = NULL;
    t->path = path;
    cr_status st = ends_with(path, ".gz") ? gz_open(path, &gz, d) : CR_OK;
    if (st != CR_OK)
        return st;
    st = gz ? cr_trace_reader_open_read(gz_read, gz, path, &t->r)
            : cr_trace_reader_open(path, &t->r, d);
    if (st == CR_ENOMEM && gz)
        cr_diag_set(d, st, "%s: out of memory", path);
    if (st != CR_OK) {
        if (gz)
            gzclose(gz);
        return st;
    }
    t->gz = gz;
    return CR_OK;
}

cr_status cr_vtrace_end(cr_vtrace *t, cr_status st, cr_diag *d)
{
    int zerr = Z_OK;
    gzFile gz = t->gz;
    if (gz && (st == CR_EIO || (st == CR_OK && (gzerror(gz, &zerr), zerr != Z_OK))))
        st = gz_fail(gz, t->path, d);
    return st;
}

void cr_vtrace_close(cr_vtrace *t)
{
    cr_trace_reader_free(t->r);
    if (t->gz)
        gzclose((gzFile)t->gz);
    t->r = NULL;
    t->gz = NULL;
}

/* --- nccl-tests logs ----------------------------------------------------------- */

/* --- several ranks of one run ------------------------------------------------- */

int cr_validate_rank_from_name(const char *path)
{
    const char *b = base_name(path);
    for (const char *p = strstr(b, "rank"); p; p = strstr(p + 1, "rank")) {
        if (p == b || !(p[-1] == '.' || p[-1] == '-' || p[-1] == '_'))
            continue;
        const char *q = p + 4;
        long v = 0;
        int digits = 0;
        while (isdigit((unsigned char)*q) && digits < 7)
            v = v * 10 + (*q++ - '0'), digits++;
        if (digits > 0 && (*q == '.' || *q == '-' || *q == '_' || *q == '\0'))
            return (int)v;
    }
    return -1;
}

/* Orders two cases by family, then their keys and values in order, the rank
 * key left out: 0 when they are the same case but for their rank. */
static int case_cmp(const cr_vmeas *a, const cr_vmeas *b)
{
    if (a->c.family != b->c.family)
        return a->c.family < b->c.family ? -1 : 1;
    int i = 0, j = 0;
    for (;;) {
        while (i < a->c.n_keys && !strcmp(a->c.kv[i].key, "rank"))
            i++;
        while (j < b->c.n_keys && !strcmp(b->c.kv[j].key, "rank"))
            j++;
        if (i == a->c.n_keys || j == b->c.n_keys)
            return (i < a->c.n_keys) - (j < b->c.n_keys);
        int c = strcmp(a->c.kv[i].key, b->c.kv[j].key);
        if (!c)
            c = strcmp(a->c.kv[i].value, b->c.kv[j].value);
        if (c)
            return c;
        i++;
        j++;
    }
}

/* One process's share of a multi-process case: it has a rank and ran on one
 * device, of a job (world size, or the case's nranks) of several. Returns
 * the job's size, or 0 when m is not such a share. */
static int job_size(const cr_vmeas *m)
{
    if (m->rank < 0)
        return 0;
    int n = m->world_size;
    if (n < 2)
        n = (int)num_or(&m->c, "nranks", num_or(&m->c, "ranks", 0));
    return n >= 2 && m->devices <= 1 ? n : 0;
}

/* A measurement in the sorts of cr_validate_merge_ranks(). */
typedef struct {
    const cr_vmeas *m;
    size_t i;
    int occ;
} mref;

static int cmp3(long long a, long long b)
{
    return (a > b) - (a < b);
}

/* By case, rank, position: a case's runs on one rank in a row, in order. */
static int cmp_case_rank(const void *pa, const void *pb)
{
    const mref *a = pa, *b = pb;
    int c = case_cmp(a->m, b->m);
    if (!c)
        c = cmp3(a->m->rank, b->m->rank);
    return c ? c : cmp3((long long)a->i, (long long)b->i);
}

/* What must agree for shares to merge (all but the position). */
static int cmp_share_key(const mref *a, const mref *b)
{
    int c = case_cmp(a->m, b->m);
    if (!c)
        c = cmp3(a->occ, b->occ);
    if (!c)
        c = cmp3(a->m->n_iter, b->m->n_iter);
    if (!c)
        c = cmp3(a->m->world_size, b->m->world_size);
    return c ? c : strcmp(a->m->host, b->m->host);
}

static int cmp_share(const void *pa, const void *pb)
{
    const mref *a = pa, *b = pb;
    int c = cmp_share_key(a, b);
    return c ? c : cmp3((long long)a->i, (long long)b->i);
}

cr_status cr_validate_merge_ranks(cr_vmeas_list *l, cr_vmerge_info *info, cr_diag *d)
{
    cr_vmerge_info inf = {0};
    size_t n = l->n;
    int *grp = malloc((n ? n : 1) * sizeof *grp);
    int *occ = malloc((n ? n : 1) * sizeof *occ);
    mref *ref = malloc((n ? n : 1) * sizeof *ref);
    size_t *mem = malloc((n ? n : 1) * sizeof *mem);
    double *t = NULL, *t1 = NULL;
    size_t tn = 0;
    for (size_t i = 0; i < n; i++)
        if (l->v[i].n_iter > 0 && (size_t)l->v[i].n_iter > tn)
            tn = (size_t)l->v[i].n_iter;
    t = malloc((tn ? tn : 1) * sizeof *t);
    t1 = malloc((tn ? tn : 1) * sizeof *t1);
    if (!grp || !occ || !ref || !mem || !t || !t1) {
        free(grp);
        free(occ);
        free(ref);
        free(mem);
        free(t);
        free(t1);
        return cr_diag_set(d, CR_ENOMEM, "merging ranks: out of memory");
    }
    /* occ: how many earlier measurements of the same case the same rank had
     * (the k-th run of a case on one rank pairs with the k-th on another):
     * its place in its (case, rank) run once sorted, not a count over every
     * earlier measurement (that was quadratic: 12.6 s for 20,000 rows). */
    for (size_t i = 0; i < n; i++) {
        ref[i] = (mref){&l->v[i], i, 0};
        grp[i] = -1;
    }
    if (n > 1)
        qsort(ref, n, sizeof *ref, cmp_case_rank);
    for (size_t i = 0; i < n; i++) {
        bool same =
            i > 0 && ref[i].m->rank == ref[i - 1].m->rank && case_cmp(ref[i].m, ref[i - 1].m) == 0;
        occ[ref[i].i] = same ? occ[ref[i - 1].i] + 1 : 0;
    }
    /* The shares that merge: one group per (case, occ, iterations, world
     * size, host), members in list order, the first the group's head. One
     * rank appears at most once in a group (its runs of a case differ in
     * occ). */
    size_t ns = 0;
    for (size_t i = 0; i < n; i++)
        if (job_size(&l->v[i]) && l->v[i].n_iter >= 1)
            ref[ns++] = (mref){&l->v[i], i, occ[i]};
    if (ns > 1)
        qsort(ref, ns, sizeof *ref, cmp_share);
    for (size_t g0 = 0, g1; g0 < ns; g0 = g1) {
        for (g1 = g0 + 1; g1 < ns && cmp_share_key(&ref[g0], &ref[g1]) == 0; g1++)
            ;
        size_t k = g1 - g0;
        if (k < 2)
            continue;
        for (size_t q = 0; q < k; q++) {
            mem[q] = ref[g0 + q].i;
            grp[mem[q]] = (int)mem[0];
        }
        cr_vmeas *m = &l->v[mem[0]];
        /* Per iteration: the last end less the last start over the ranks,
         * each rank's times moved onto the first one's clock. */
        size_t it = (size_t)m->n_iter;
        for (size_t g = 0; g < it; g++) {
            double s0 = -INFINITY, s1 = INFINITY, e = -INFINITY;
            for (size_t q = 0; q < k; q++) {
                const cr_vmeas *o = &l->v[mem[q]];
                double off = (double)(o->ts_base_ns - m->ts_base_ns) * 1e-9;
                double st = l->iter_s[o->iter_off + g] + off;
                double en = l->iter_s[o->iter_off + it + g] + off;
                s0 = fmax(s0, st);
                s1 = fmin(s1, st);
                e = fmax(e, en);
            }
            t[g] = e - s0;
            t1[g] = e - s1;
        }
        int acts = 0, devs = 0, lo_rank = m->rank, hi_rank = m->rank;
        for (size_t q = 0; q < k; q++) {
            const cr_vmeas *o = &l->v[mem[q]];
            acts += o->activities;
            devs += o->devices;
            lo_rank = o->rank < lo_rank ? o->rank : lo_rank;
            hi_rank = o->rank > hi_rank ? o->rank : hi_rank;
        }
        m->measured_s = median(t, it);
        m->first_start_s = median(t1, it);
        m->samples = (int)it;
        m->activities = acts;
        m->devices = devs;
        m->ranks_merged = (int)k;
        int job = job_size(m);
        const cr_vmeas *last = &l->v[mem[k - 1]];
        char src[sizeof m->source];
        snprintf(src, sizeof src, "%.60s+%.60s%s", m->source, last->source, k > 2 ? "+..." : "");
        snprintf(m->source, sizeof m->source, "%s", src);
        if ((int)k < job)
            snprintf(m->note, sizeof m->note,
                     "%d of %d ranks merged (%d-%d): the others' traces "
                     "are missing",
                     (int)k, job, lo_rank, hi_rank);
        m->rank = -1;
        inf.merged++;
        inf.ranks_max = (int)k > inf.ranks_max ? (int)k : inf.ranks_max;
    }
    /* Drop the merged-in measurements; note the ranks left alone. */
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (grp[i] >= 0 && grp[i] != (int)i)
            continue;
        cr_vmeas *m = &l->v[i];
        int job = job_size(m);
        if (grp[i] < 0 && job) {
            snprintf(m->note, sizeof m->note,
                     "rank %d of a %d-rank job alone: its time includes waiting for the others "
                     "(give every rank's trace)",
                     m->rank, job);
            inf.rank_alone++;
        }
        l->v[w++] = *m;
    }
    l->n = w;
    free(grp);
    free(occ);
    free(ref);
    free(mem);
    free(t);
    free(t1);
    if (info)
        *info = inf;
    return CR_OK;
}

/* --- model match ----------------------------------------------------------------- */

static cr_status need(const cr_vmeas *m, const char *key, double *v, cr_diag *d)
{
    cr_diag cd = {{0}};
    if (cr_vcase_num(&m->c, key, v, &cd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, cd.msg);
    return CR_OK;
}

static void from_op(cr_vresult *r, const cr_op_result *o)
{
    r->has_bound = true;
    r->bound_s = o->bound_s;
    r->bound_cold_s = o->bound_cold_s;
    snprintf(r->binding, sizeof r->binding, "%s", o->binding);
    r->has_pred = true;
    r->pred_s = o->pred_s;
}

/* The bound from measured ceilings: the op's compute and HBM terms scaled
 * by peak / measured where the GPU model carries measured figures. */
static double attainable(const cr_topo *t, const cr_op_result *o, cr_dtype dt, bool compute)
{
    const cr_gpu_spec *g = t->n_gpus > 0 ? cr_topo_gpu_spec(t, 0) : NULL;
    if (!g)
        return 0;
    double tc = 0, th = 0;
    bool any = false;
    if (compute && g->meas_flops[dt] > 0 && g->peak_flops[dt] > 0) {
        tc = o->t_compute_s * g->peak_flops[dt] / g->meas_flops[dt];
        any = true;
    } else {
        tc = o->t_compute_s;
    }
    if ((g->meas_hbm_Bps > 0 && g->hbm_Bps > 0) || g->meas_l2_Bps > 0) {
        /* the warm memory floor with the measured HBM and L2 ceilings */
        cr_gpu_spec gm = *g;
        if (g->meas_l2_Bps > 0)
            gm.l2_Bps = g->l2_Bps > 0 ? fmin(g->meas_l2_Bps, g->l2_Bps) : g->meas_l2_Bps;
        double hb = g->meas_hbm_Bps > 0 ? fmin(g->meas_hbm_Bps, g->hbm_Bps) : 0;
        th = fmax(cr_mem_floor_s(&gm, o->hbm_bytes, false, hb, NULL), o->t_hbm_s);
        any = true;
    } else {
        th = o->t_hbm_s;
    }
    if (!any)
        return 0;
    return fmax(fmax(tc, th), o->t_comm_s) + o->lat_s;
}

static cr_status eval_hbm(const cr_topo *t, const cr_vmeas *m, cr_vresult *r, cr_diag *d)
{
    double bytes, rd, wr, fl;
    cr_status st;
    if ((st = need(m, "bytes", &bytes, d)) || (st = need(m, "rd_bytes", &rd, d)) ||
        (st = need(m, "wr_bytes", &wr, d)))
        return st;
    fl = num_or(&m->c, "flops", 0);
    if (!(bytes > 0))
        return cr_diag_set(d, CR_EINVAL, "%s: hbm case with bytes=%g", m->source, bytes);
    /* fp32 elements of `bytes` per array; reads and writes as arrays. */
    double elems = bytes / 4, reads = rd / bytes, writes = wr / bytes;
    cr_op_result o;
    memset(&o, 0, sizeof o);
    st = cr_op_eval_elementwise(t, elems, reads, writes, fl / elems, CR_DT_FP32, &o, d);
    if (st != CR_OK)
        return st;
    from_op(r, &o);
    r->attainable_s = attainable(t, &o, CR_DT_FP32, false);
    snprintf(r->impl, sizeof r->impl, "stream kernel");
    if (fabs(o.hbm_bytes - (rd + wr)) > 1e-6 * (rd + wr))
        snprintf(r->note, sizeof r->note, "model counts %.0f HBM bytes, the kernel declares %.0f",
                 o.hbm_bytes, rd + wr);
    return CR_OK;
}

static cr_status eval_memcpy(const cr_topo *t, const cr_vmeas *m, const char *dir, bool pinned,
                             cr_vresult *r, cr_diag *d)
{
    double bytes;
    cr_status st = need(m, "bytes", &bytes, d);
    if (st)
        return st;
    cr_op_result o;
    memset(&o, 0, sizeof o);
    if ((st = cr_op_eval_memcpy(t, dir, pinned, bytes, &o, d)) != CR_OK)
        return st;
    from_op(r, &o);
    r->attainable_s = attainable(t, &o, CR_DT_FP32, false);
    snprintf(r->impl, sizeof r->impl, "copy engine");
    return CR_OK;
}

static cr_status eval_ce(const cr_topo *t, const cr_vmeas *m, cr_vresult *r, cr_diag *d)
{
    const char *dir = cr_vcase_get(&m->c, "dir"), *host = str_or(&m->c, "host", "none");
    if (!dir || (strcmp(dir, "d2d") && strcmp(dir, "h2d") && strcmp(dir, "d2h")))
        return cr_diag_set(d, CR_EINVAL, "%s: ce case needs dir=d2d, h2d or d2h (got %s)",
                           m->source, dir ? dir : "none");
    return eval_memcpy(t, m, dir, strcmp(host, "pageable") != 0, r, d);
}

static cr_status eval_mech(const cr_topo *t, const cr_vmeas *m, cr_vresult *r, cr_diag *d)
{
    const char *mech = str_or(&m->c, "mech", "?");
    if (strcmp(mech, "ce") == 0) {
        cr_status st = eval_memcpy(t, m, "d2d", true, r, d);
        if (st == CR_OK)
            snprintf(r->impl, sizeof r->impl, "copy engine");
        return st;
    }
    double bytes, sms;
    cr_status st;
    if ((st = need(m, "bytes", &bytes, d)))
        return st;
    if (strcmp(mech, "ldst") && strcmp(mech, "tma")) {
        /* a mechanism ops has no model for: the bound only */
        if ((st = eval_memcpy(t, m, "d2d", true, r, d)) != CR_OK)
            return st;
        r->has_pred = false;
        r->pred_s = 0;
        snprintf(r->impl, sizeof r->impl, "%.40s", mech);
        snprintf(r->note, sizeof r->note,
                 "no prediction: ops models local copies by ldst, tma and ce (got mech=%.40s)",
                 mech);
        return CR_OK;
    }
    if ((st = need(m, "sms", &sms, d)))
        return st;
    const cr_gpu_spec *g = t->n_gpus > 0 ? cr_topo_gpu_spec(t, 0) : NULL;
    if (!g || !(sms >= 1) || sms > g->sms || sms != floor(sms))
        return cr_diag_set(d, CR_EINVAL, "%s: mech case with sms=%g (GPU 0 of %s has 1 to %d SMs)",
                           m->source, sms, t->name, g ? g->sms : 0);
    cr_op_result o;
    memset(&o, 0, sizeof o);
    if ((st = cr_op_eval_sm_copy(t, mech, (int)sms, bytes, &o, d)) != CR_OK)
        return st;
    from_op(r, &o);
    r->attainable_s = attainable(t, &o, CR_DT_FP32, false);
    if ((int)sms == g->sms)
        snprintf(r->impl, sizeof r->impl, "%s, all %d SMs", mech, g->sms);
    else
        snprintf(r->impl, sizeof r->impl, "%s, %.0f SMs", mech, sms);
    return CR_OK;
}

static cr_status eval_gemm(const cr_topo *t, const cr_vmeas *m, cr_vresult *r, cr_diag *d)
{
    double mm, nn, kk;
    cr_status st;
    if ((st = need(m, "m", &mm, d)) || (st = need(m, "n", &nn, d)) || (st = need(m, "k", &kk, d)))
        return st;
    cr_dtype dt;
    cr_diag dd = {{0}};
    const char *dts = str_or(&m->c, "dtype", "?");
    if (cr_dtype_parse(dts, &dt, &dd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    cr_op_result o;
    memset(&o, 0, sizeof o);
    if ((st = cr_op_eval_gemm(t, mm, nn, kk, dt, &o, d)) != CR_OK)
        return st;
    from_op(r, &o);
    r->attainable_s = attainable(t, &o, dt, true);
    snprintf(r->impl, sizeof r->impl, "cuBLASLt %s", dts);
    double fl = num_or(&m->c, "flops", 0);
    if (fl > 0 && fabs(fl - o.flops) > 1e-9 * fl)
        snprintf(r->note, sizeof r->note, "model counts %.4g FLOP, the kernel declares %.4g",
                 o.flops, fl);
    return CR_OK;
}

/* Launch cases measure host and GPU front-end costs, which have no physical
 * floor (no bound); the predictions are ops' launch constants
 * (cr_op_launch_s): "async" the spacing of back-to-back launches (the
 * host's launch rate), "sync" launch + stream synchronize, "graph" the
 * spacing of kernels replayed from a CUDA graph, "event" event record +
 * synchronize. */
static cr_status eval_launch(const cr_topo *t, const cr_vmeas *m, cr_vresult *r, cr_diag *d)
{
    const char *kind = str_or(&m->c, "kind", "?");
    r->has_bound = false;
    snprintf(r->binding, sizeof r->binding, "-");
    cr_diag dd = {{0}};
    double s = 0;
    (void)d;
    if (cr_op_launch_s(t, kind, &s, &dd) != CR_OK || !strcmp(kind, "kernel")) {
        /* a kind ops has no constant for: measured only */
        snprintf(r->impl, sizeof r->impl, "%.40s", kind);
        snprintf(r->note, sizeof r->note,
                 "no prediction: ops has launch constants for kind=async, sync, graph and "
                 "event (got %.40s)",
                 kind);
        return CR_OK;
    }
    r->has_pred = true;
    r->pred_s = s;
    snprintf(r->impl, sizeof r->impl, "%s%s", kind, strcmp(kind, "graph") ? "" : " launches");
    snprintf(r->note, sizeof r->note, "no bound: a launch has no physical lower limit");
    return CR_OK;
}

static cr_status eval_coll(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *o,
                           cr_vresult *r, cr_diag *d)
{
    double bytes, n;
    cr_status st;
    if ((st = need(m, "bytes", &bytes, d)))
        return st;
    cr_coll coll;
    cr_mech mech = CR_MECH_NONE;
    cr_diag dd = {{0}};
    if (m->c.family == CR_VFAM_P2P) {
        coll = CR_COLL_SENDRECV;
        n = 2;
        if (cr_mech_parse(str_or(&m->c, "mech", "?"), &mech, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    } else {
        if ((st = need(m, "nranks", &n, d)))
            return st;
        if (cr_coll_parse(str_or(&m->c, "coll", "?"), &coll, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    }
    if (!(n >= 1) || n > t->n_gpus) {
        snprintf(r->note, sizeof r->note,
                 "%.0f ranks measured, topology %s has %d GPUs: use --topo with enough GPUs", n,
                 t->name, t->n_gpus);
        return CR_OK;
    }
    cr_rankset *rs = NULL;
    if (o && o->ranks) {
        if ((st = cr_rankset_parse(o->ranks, t->n_gpus, &rs, d)) != CR_OK)
            return st;
        if (rs->n != (int)n) {
            snprintf(r->note, sizeof r->note, "--ranks has %d ranks, the case %.0f", rs->n, n);
            cr_rankset_free(rs);
            return CR_OK;
        }
    } else {
        int ids[1024];
        if (n > 1024) {
            snprintf(r->note, sizeof r->note, "more than 1024 ranks: give --ranks");
            return CR_OK;
        }
        for (int i = 0; i < (int)n; i++)
            ids[i] = i;
        if ((st = cr_rankset_from_array(ids, (int)n, t->n_gpus, &rs, d)) != CR_OK)
            return st;
    }
    cr_coll_req rq = cr_vmeas_coll_req(m, coll, bytes, (int)n, mech);
    cr_coll_result res;
    memset(&res, 0, sizeof res);
    st = cr_coll_eval_topo(t, rs, &rq, &res, d);
    cr_rankset_free(rs);
    if (st == CR_EUNSUPPORTED) {
        snprintf(r->note, sizeof r->note, "coll: %.150s", d ? d->msg : "unsupported");
        if (d)
            d->msg[0] = 0;
        return CR_OK;
    }
    if (st != CR_OK)
        return st;
    r->has_bound = true;
    r->bound_s = res.bound.bound_s;
    snprintf(r->binding, sizeof r->binding, "%s", res.bound.binding);
    if (res.pred.supported && res.pred.pred_s > 0) {
        r->has_pred = true;
        r->pred_s = res.pred.pred_s;
        if (mech != CR_MECH_NONE)
            snprintf(r->impl, sizeof r->impl, "%s %d SMs", cr_mech_name(res.pred.mech),
                     res.pred.nchannels);
        else
            snprintf(r->impl, sizeof r->impl, "%s/%s", cr_algo_name(res.pred.algo),
                     cr_proto_name(res.pred.proto));
    } else {
        snprintf(r->note, sizeof r->note, "no prediction: %s",
                 res.pred.why[0] ? res.pred.why : "unsupported");
    }
    return CR_OK;
}

/* A fused operator (kernels/fused/fused.cu): ops' bound; ops' PyTorch +
 * NCCL baseline for variant=baseline; for variant=overlap the chunked
 * schedule (cr_vfused_pipeline_s) of ops' GEMM of one piece and coll's
 * NCCL prediction for one piece's collective, slowed by the measured
 * interference while both run. Either is no faster than the host can issue
 * it when one process drives every GPU of the case: steps x GPUs x the
 * host's step time (doc/validation.md). */
static cr_status eval_fused(const cr_topo *t, const cr_vmeas *m, cr_vresult *r, cr_diag *d)
{
    const char *opn = str_or(&m->c, "op", "?"), *variant = str_or(&m->c, "variant", "?");
    int kind = !strcmp(opn, "ag_gemm")   ? 0
               : !strcmp(opn, "gemm_rs") ? 1
               : !strcmp(opn, "gemm_ar") ? 2
                                         : -1;
    if (kind < 0)
        return cr_diag_set(d, CR_EINVAL,
                           "%s: fused case op=%.40s: validate models ag_gemm, gemm_rs and gemm_ar",
                           m->source, opn);
    bool overlap = !strcmp(variant, "overlap");
    if (!overlap && strcmp(variant, "baseline"))
        return cr_diag_set(d, CR_EINVAL,
                           "%s: fused case variant=%.40s: expected baseline or overlap", m->source,
                           variant);
    double mm, nn, kk, ranks, chunks = 1;
    cr_status st;
    if ((st = need(m, "m", &mm, d)) || (st = need(m, "n", &nn, d)) || (st = need(m, "k", &kk, d)) ||
        (st = need(m, "ranks", &ranks, d)) || (overlap && (st = need(m, "chunks", &chunks, d))))
        return st;
    if (!(ranks >= 1) || ranks != floor(ranks) || ranks > 1024 || !(chunks >= 1) ||
        chunks != floor(chunks) || chunks > 4096)
        return cr_diag_set(d, CR_EINVAL,
                           "%s: fused case ranks=%g chunks=%g: need whole numbers, ranks 1-1024, "
                           "chunks 1-4096",
                           m->source, ranks, chunks);
    if (ranks > t->n_gpus) {
        snprintf(r->note, sizeof r->note,
                 "%.0f ranks measured, topology %s has %d GPUs: use --topo with enough GPUs", ranks,
                 t->name, t->n_gpus);
        return CR_OK;
    }
    const cr_op_def *op = NULL;
    cr_op_params p;
    cr_diag dd = {{0}};
    if (cr_op_find(opn, &op, &dd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    memset(&p, 0, sizeof p);
    cr_op_params_defaults(op, &p);
    const char *keys[] = {"m", "n", "k", "ranks", "dtype"},
               *pnames[] = {"m", "n", "k", "tp", "dtype"};
    for (int i = 0; i < 5; i++) {
        const char *v = i == 4 ? str_or(&m->c, "dtype", "bf16") : cr_vcase_get(&m->c, keys[i]);
        if (cr_op_param_set(op, &p, pnames[i], v, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    }
    cr_op_result o;
    if (cr_op_eval(t, op, &p, &o, &dd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    r->has_bound = true;
    r->bound_s = o.bound_s;
    /* no measured ceilings: attainable equals the bound, nothing to add */
    r->attainable_s = o.attainable_s > o.bound_s * (1 + 1e-12) ? o.attainable_s : 0;
    snprintf(r->binding, sizeof r->binding, "%s", o.binding);
    double pred;
    if (!overlap) {
        pred = o.baseline_s;
        snprintf(r->impl, sizeof r->impl, "baseline %s/%s", o.comm[0].algo, o.comm[0].proto);
    } else {
        /* one piece: GEMM rows / chunks (ops_shapes.c's per-rank GEMM),
         * collective bytes / chunks */
        cr_dtype dt = (cr_dtype)p.v[CR_OPP_DTYPE];
        double gm = mm / chunks, gn = kind == 0 ? nn / ranks : nn, gk = kind == 0 ? kk : kk / ranks;
        cr_op_result g;
        if (cr_op_eval_gemm(t, gm, gn, gk, dt, &g, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
        int ids[1024];
        for (int i = 0; i < (int)ranks; i++)
            ids[i] = i;
        cr_rankset *rs = NULL;
        if ((st = cr_rankset_from_array(ids, (int)ranks, t->n_gpus, &rs, d)) != CR_OK)
            return st;
        static const cr_coll colls[] = {CR_COLL_ALLGATHER, CR_COLL_REDUCESCATTER,
                                        CR_COLL_ALLREDUCE};
        cr_coll_req rq = cr_coll_req_default(colls[kind], o.comm[0].bytes / chunks);
        rq.dtype = dt;
        rq.in_place = false; /* fused.cu's collectives are out of place */
        cr_coll_result res;
        memset(&res, 0, sizeof res);
        st = cr_coll_eval_topo(t, rs, &rq, &res, &dd);
        cr_rankset_free(rs);
        if (st != CR_OK || !res.pred.supported || !(res.pred.pred_s > 0)) {
            snprintf(r->note, sizeof r->note, "no prediction: coll has none for one piece (%.100s)",
                     st != CR_OK ? dd.msg : res.pred.why);
            return CR_OK;
        }
        double slow = cr_topo_param(t, "fused.overlap.slow", CR_VFUSED_SLOW);
        cr_vfused_pipe pp = {(int)chunks, kind == 0, g.pred_s, res.pred.pred_s, slow, slow};
        pred = cr_vfused_pipeline_s(&pp);
        if (!isfinite(pred))
            return cr_diag_set(d, CR_EINVAL, "%s: fused.overlap.slow = %g: a slowdown must be >= 1",
                               m->source, slow);
        snprintf(r->impl, sizeof r->impl, "%d chunks, %s/%s", (int)chunks,
                 cr_algo_name(res.pred.algo), cr_proto_name(res.pred.proto));
    }
    if (m->devices > 1) {
        /* one process issues every GPU's work: a step is one GEMM and one
         * NCCL call per GPU */
        double step = fmax(cr_topo_param(t, "fused.host.step", CR_VFUSED_HOST_STEP_S), 0);
        double host = chunks * m->devices * step;
        if (host > pred) {
            pred = host;
            snprintf(r->note, sizeof r->note,
                     "host-bound: one process issues %.0f step(s) for %d GPUs, %.2f us each",
                     chunks, m->devices, step * 1e6);
        }
    }
    r->has_pred = true;
    r->pred_s = pred;
    return CR_OK;
}

cr_status cr_validate_eval(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *o,
                           cr_vresult *out, cr_diag *d)
{
    memset(out, 0, sizeof *out);
    cr_status st;
    switch (m->c.family) {
    case CR_VFAM_HBM:
        st = eval_hbm(t, m, out, d);
        break;
    case CR_VFAM_CE:
        st = eval_ce(t, m, out, d);
        break;
    case CR_VFAM_MECH:
        st = eval_mech(t, m, out, d);
        break;
    case CR_VFAM_GEMM:
        st = eval_gemm(t, m, out, d);
        break;
    case CR_VFAM_LAUNCH:
        st = eval_launch(t, m, out, d);
        break;
    case CR_VFAM_NCCL:
    case CR_VFAM_P2P:
        st = eval_coll(t, m, o, out, d);
        break;
    case CR_VFAM_FUSED:
        st = eval_fused(t, m, out, d);
        break;
    default:
        return cr_diag_set(d, CR_EINVAL, "%s: unknown family", m->source);
    }
    if (st != CR_OK)
        return st;
    double meas = m->measured_s;
    if (out->has_bound && !(out->bound_cold_s >= out->bound_s))
        out->bound_cold_s = out->bound_s; /* no cache term (collectives, launch) */
    if (out->has_bound && meas > 0) {
        /* A case that declares its data cold (crbench hbm cache=cold: sets
         * rotating over > 512 MiB) is held to the cold bound. */
        const char *cache = cr_vcase_get(&m->c, "cache");
        bool cold = cache && strcmp(cache, "cold") == 0;
        out->pct_of_roofline = out->bound_s / meas * 100;
        out->pct_of_roofline_cold = out->bound_cold_s / meas * 100;
        out->violation = meas < (cold ? out->bound_cold_s : out->bound_s);
        out->cache_resident = !out->violation && meas < out->bound_cold_s;
    }
    /* 1e-9: the ceiling's own case, through a printed and parsed figure,
     * must not count as beating it */
    if (out->attainable_s > 0 && meas > 0 && meas < out->attainable_s * (1 - 1e-9)) {
        out->beats_attainable = true;
        if (!out->note[0])
            snprintf(out->note, sizeof out->note,
                     "faster than the attainable bound: the topology's measured ceilings are "
                     "stale (commroof calibrate)");
    }
    if (out->has_pred && meas > 0)
        out->error_pct = (out->pred_s - meas) / meas * 100;
    return CR_OK;
}

/* --- summaries ------------------------------------------------------------------ */

cr_status cr_validate_summarize(const cr_vmeas_list *l, const cr_vresult *r,
                                cr_vsummary out[CR_VFAM__COUNT], cr_vsummary *all)
{
    memset(out, 0, CR_VFAM__COUNT * sizeof *out);
    memset(all, 0, sizeof *all);
    double *e = malloc((l->n ? l->n : 1) * sizeof *e);
    if (!e)
        return CR_ENOMEM;
    for (int f = -1; f < CR_VFAM__COUNT; f++) {
        cr_vsummary *s = f < 0 ? all : &out[f];
        size_t ne = 0;
        for (size_t i = 0; i < l->n; i++) {
            if (f >= 0 && (int)l->v[i].c.family != f)
                continue;
            s->cases++;
            s->violations += r[i].violation;
            s->beats_attainable += r[i].beats_attainable;
            if (r[i].has_pred)
                e[ne++] = fabs(r[i].error_pct);
        }
        s->with_pred = (int)ne;
        s->median_abs_err_pct = median(e, ne);
        s->p90_abs_err_pct = cr_validate_percentile(e, ne, 90);
        s->max_abs_err_pct = ne ? e[ne - 1] : 0;
    }
    free(e);
    return CR_OK;
}

/* --- calibration ----------------------------------------------------------------- */

/* A growable-free bounded sample: appends x to v[*n] when there is room. */
#define NSAMP 256
static void push(double *v, size_t *n, double x)
{
    if (*n < NSAMP && isfinite(x))
        v[(*n)++] = x;
}

void cr_validate_calibrate(const cr_vmeas_list *l, cr_vcalib *c)
{
    memset(c, 0, sizeof *c);
    double launch[NSAMP], sync[NSAMP], kern[NSAMP], hbm[NSAMP], gemm[NSAMP], graph[NSAMP],
        event[NSAMP], rd[NSAMP], wr[NSAMP], cp[NSAMP], d2d[NSAMP], gmem[NSAMP], pg[3][NSAMP],
        pgc[3][NSAMP];
    size_t nl = 0, ns = 0, nk = 0, nh = 0, ng = 0, ngr = 0, nev = 0, nrd = 0, nwr = 0, ncp = 0,
           nd2d = 0, ngm = 0, npg[3] = {0}, npgc[3] = {0};
    for (size_t i = 0; i < l->n; i++) {
        const cr_vmeas *m = &l->v[i];
        double t = m->measured_s;
        if (!(t > 0))
            continue;
        double bytes = num_or(&m->c, "bytes", 0);
        double moved = num_or(&m->c, "rd_bytes", 0) + num_or(&m->c, "wr_bytes", 0);
        bool used = true;
        switch (m->c.family) {
        case CR_VFAM_HBM: {
            const char *cache = str_or(&m->c, "cache", "");
            bool warm = !strcmp(cache, "warm");
            /* warm: one buffer set back to back; what fits stays in the L2
             * (arrays of 32 MiB or less in all: well under an H100's 50) */
            if (warm && moved <= 32.0 * 1048576 && moved / t > c->l2_Bps)
                c->l2_Bps = moved / t;
            if (bytes >= 256.0 * 1048576 && !warm) {
                const char *op = str_or(&m->c, "op", "");
                if (moved / t > c->hbm_Bps)
                    c->hbm_Bps = moved / t;
                push(hbm, &nh, moved / t);
                if (!strcmp(op, "read"))
                    push(rd, &nrd, moved / t);
                else if (!strcmp(op, "write"))
                    push(wr, &nwr, moved / t);
                else if (!strcmp(op, "copy"))
                    push(cp, &ncp, moved / t);
            }
            break;
        }
        case CR_VFAM_GEMM: {
            cr_dtype dt;
            double fl = num_or(&m->c, "flops", 0);
            if (cr_dtype_parse(str_or(&m->c, "dtype", "?"), &dt, NULL) != CR_OK || (int)dt >= 16)
                break;
            if (fl / t > c->flops[dt])
                c->flops[dt] = fl / t;
            if (dt == CR_DT_BF16 && fl >= 2 * 4096.0 * 4096 * 4096)
                push(gemm, &ng, fl / t);
            double mm = num_or(&m->c, "m", 0), nn = num_or(&m->c, "n", 0),
                   kk = num_or(&m->c, "k", 0);
            /* memory-bound: a 16-bit GEMV-like shape streams its operands */
            if ((dt == CR_DT_BF16 || dt == CR_DT_FP16) && fmin(mm, nn) >= 1 && fmin(mm, nn) <= 16)
                push(gmem, &ngm, 2 * (mm * kk + kk * nn + mm * nn) / t);
            break;
        }
        case CR_VFAM_CE: {
            const char *dir = str_or(&m->c, "dir", ""), *host = str_or(&m->c, "host", "");
            double *dst = NULL;
            int k = !strcmp(dir, "h2d") ? 1 : !strcmp(dir, "d2h") ? 2 : 0;
            bool pageable = !strcmp(host, "pageable");
            if (k == 1)
                dst = pageable ? &c->h2d_pageable_Bps : &c->h2d_pinned_Bps;
            else if (k == 2)
                dst = pageable ? &c->d2h_pageable_Bps : &c->d2h_pinned_Bps;
            if (dst && bytes >= 64.0 * 1048576 && bytes / t > *dst)
                *dst = bytes / t;
            if (k && pageable && bytes >= 64.0 * 1048576)
                push(pg[k], &npg[k], bytes / t);
            if (k && pageable && bytes >= 4.0 * 1048576 && bytes <= 16.0 * 1048576)
                push(pgc[k], &npgc[k], bytes / t);
            if (k == 0 && !strcmp(dir, "d2d") && bytes >= 256.0 * 1048576)
                push(d2d, &nd2d, 2 * bytes / t);
            used = dst != NULL || k == 0;
            break;
        }
        case CR_VFAM_LAUNCH: {
            const char *kind = str_or(&m->c, "kind", "");
            if (!strcmp(kind, "async")) {
                push(launch, &nl, t);
                if (m->act_median_s > 0)
                    push(kern, &nk, m->act_median_s);
            } else if (!strcmp(kind, "sync")) {
                push(sync, &ns, t);
            } else if (!strcmp(kind, "graph")) {
                push(graph, &ngr, t);
            } else if (!strcmp(kind, "event")) {
                push(event, &nev, t);
            }
            break;
        }
        case CR_VFAM_MECH: {
            double sms = num_or(&m->c, "sms", 0);
            const char *mech = str_or(&m->c, "mech", "");
            /* One SM on a large copy: the mechanism's per-SM rate (bytes
             * copied, counted once). */
            if (sms == 1 && bytes >= 64.0 * 1048576) {
                if (!strcmp(mech, "ldst") && bytes / t > c->ldst_sm_Bps)
                    c->ldst_sm_Bps = bytes / t;
                if (!strcmp(mech, "tma") && bytes / t > c->tma_sm_Bps)
                    c->tma_sm_Bps = bytes / t;
            } else {
                used = sms >= 8;
            }
            break;
        }
        case CR_VFAM_P2P: {
            cr_mech mk;
            double sms = num_or(&m->c, "sms", 0);
            if (cr_mech_parse(str_or(&m->c, "mech", "?"), &mk, NULL) != CR_OK || (int)mk < 0 ||
                (int)mk > 2) {
                used = false;
                break;
            }
            if (bytes >= 256.0 * 1048576 && bytes / t > c->p2p_Bps[mk])
                c->p2p_Bps[mk] = bytes / t;
            if (sms == 1 && bytes >= 64.0 * 1048576 && bytes / t > c->p2p_sm1_Bps[mk])
                c->p2p_sm1_Bps[mk] = bytes / t;
            if (bytes > 0 && (c->p2p_small_bytes[mk] == 0 || bytes < c->p2p_small_bytes[mk])) {
                c->p2p_small_bytes[mk] = bytes;
                c->p2p_small_s[mk] = t;
            } else if (bytes == c->p2p_small_bytes[mk] && t < c->p2p_small_s[mk]) {
                c->p2p_small_s[mk] = t;
            }
            break;
        }
        default:
            used = false;
        }
        c->n_used += used;
    }
    c->launch_s = median(launch, nl);
    c->kernel_s = median(kern, nk);
    c->sync_s = median(sync, ns);
    c->graph_s = median(graph, ngr);
    c->event_s = median(event, nev);
    c->hbm_typ_Bps = median(hbm, nh);
    c->gemm_typ_eff = median(gemm, ng); /* FLOP/s until divided by the peak */
    c->hbm_rd_Bps = median(rd, nrd);
    c->hbm_wr_Bps = median(wr, nwr);
    c->hbm_copy_Bps = median(cp, ncp);
    c->ce_d2d_Bps = median(d2d, nd2d);
    c->gemm_mem_Bps = median(gmem, ngm);
    for (int k = 1; k < 3; k++) {
        c->pageable_Bps[k] = median(pg[k], npg[k]);
        c->pageable_c_Bps[k] = median(pgc[k], npgc[k]);
    }

    /* Second pass, with the rates known: the fixed costs. A small write
     * kernel (<= 4 MiB) less its bytes at the write rate is the kernel's
     * fixed cost; a small copy less its bytes (at the read, write and
     * turnaround rates) has that plus the read latency; a small read has
     * both plus the reduction's tail; a small SM copy (the smallest size,
     * >= 8 SMs) less its bytes at the lesser of its SMs' and HBM's rate is
     * the mechanism's fixed cost. */
    double fx[NSAMP], rl[NSAMP], cl[NSAMP], lf[NSAMP], tf[NSAMP];
    size_t nfx = 0, nrl = 0, ncl = 0, nlf = 0, ntf = 0;
    double turn_Bps = 0; /* per byte copied, beyond its read and write */
    if (c->hbm_rd_Bps > 0 && c->hbm_wr_Bps > 0 && c->hbm_copy_Bps > 0) {
        double extra = 2 / c->hbm_copy_Bps - 1 / c->hbm_rd_Bps - 1 / c->hbm_wr_Bps;
        turn_Bps = extra > 0 ? 1 / extra : 0;
    }
    double small[2] = {0, 0}; /* smallest mech size: ldst, tma */
    for (size_t i = 0; i < l->n; i++) {
        const cr_vmeas *m = &l->v[i];
        double bytes = num_or(&m->c, "bytes", 0);
        if (m->c.family == CR_VFAM_MECH && bytes > 0) {
            int k = !strcmp(str_or(&m->c, "mech", ""), "tma");
            if (small[k] == 0 || bytes < small[k])
                small[k] = bytes;
        }
    }
    for (size_t i = 0; i < l->n; i++) {
        const cr_vmeas *m = &l->v[i];
        double t = m->measured_s, bytes = num_or(&m->c, "bytes", 0);
        if (!(t > 0) || !(bytes > 0))
            continue;
        if (m->c.family == CR_VFAM_HBM && bytes <= 4.0 * 1048576 &&
            strcmp(str_or(&m->c, "cache", ""), "warm") != 0) { /* HBM kernels: cold only */
            const char *op = str_or(&m->c, "op", "");
            if (!strcmp(op, "write") && c->hbm_wr_Bps > 0)
                push(fx, &nfx, t - bytes / c->hbm_wr_Bps);
            else if (!strcmp(op, "read") && c->hbm_rd_Bps > 0)
                push(rl, &nrl, t - bytes / c->hbm_rd_Bps);
            else if (!strcmp(op, "copy") && turn_Bps > 0)
                push(cl, &ncl,
                     t - bytes / c->hbm_rd_Bps - bytes / c->hbm_wr_Bps - bytes / turn_Bps);
        } else if (m->c.family == CR_VFAM_MECH && c->hbm_copy_Bps > 0) {
            const char *mech = str_or(&m->c, "mech", "");
            int k = !strcmp(mech, "tma");
            double sms = num_or(&m->c, "sms", 0), sm = k ? c->tma_sm_Bps : c->ldst_sm_Bps;
            if ((k || !strcmp(mech, "ldst")) && sms >= 8 && bytes == small[k] && sm > 0)
                push(k ? tf : lf, k ? &ntf : &nlf, t - bytes / fmin(sms * sm, c->hbm_copy_Bps / 2));
        }
    }
    c->kernel_fixed_s = fmax(median(fx, nfx), 0);
    if (ncl > 0)
        c->read_lat_s = fmax(median(cl, ncl) - c->kernel_fixed_s, 0);
    if (nrl > 0)
        c->reduce_s = fmax(median(rl, nrl) - c->kernel_fixed_s - c->read_lat_s, 0);
    c->ldst_fixed_s = fmax(median(lf, nlf), 0);
    c->tma_fixed_s = fmax(median(tf, ntf), 0);
}

/* coll's prediction of a copy of `bytes` from GPU 0 to GPU 1 by mechanism
 * mk on t's current parameters (pr->supported false where coll cannot
 * predict it); CR_ENOMEM when the two-rank set cannot be made. */
static cr_status pair_copy_pred(cr_topo *t, int mk, double bytes, cr_coll_pred *pr)
{
    cr_rankset *rs = NULL;
    int ids[2] = {0, 1};
    memset(pr, 0, sizeof *pr);
    if (cr_rankset_from_array(ids, 2, t->n_gpus, &rs, NULL) != CR_OK)
        return CR_ENOMEM;
    cr_coll_req rq = cr_coll_req_default(CR_COLL_SENDRECV, bytes);
    rq.mech = (cr_mech)mk;
    cr_coll_ctx *ctx = NULL;
    if (cr_coll_ctx_new(t, rs, &ctx, NULL) != CR_OK || cr_coll_predict(ctx, &rq, pr, NULL) != CR_OK)
        pr->supported = false;
    cr_coll_ctx_free(ctx);
    cr_rankset_free(rs);
    return CR_OK;
}

/* The bandwidth coll multiplies mech.<m>.eff by for a copy from GPU 0 to
 * GPU 1 (the prediction's link_Bps, algo.c mech_predict): the scale-up
 * links a peer copy uses (450 GB/s on an HGX H200 pair, NVLink 18 x 25),
 * not the all-paths max-flow of cr_route_bw_Bps (513, NVLink plus the
 * PCIe path through the CPU, which the bound may use and a copy does not).
 * Calibrating against the same figure the prediction multiplies makes a
 * calibrated prediction reproduce the measured rate. 0 when coll cannot
 * predict the copy. */
static double p2p_link_Bps(cr_topo *t, int mk)
{
    cr_coll_pred pr;
    if (pair_copy_pred(t, mk, 1073741824.0, &pr) != CR_OK || !pr.supported)
        return 0;
    return pr.link_Bps;
}

/* coll's mechanism parameters from p2p measurements (see validate.h). */
static cr_status apply_p2p(cr_topo *t, const cr_vcalib *c, const char *source)
{
    static const char *const name[3] = {"ce", "tma", "ldst"};
    if (!t->finalized && cr_topo_finalize(t) != CR_OK)
        return CR_ENOMEM;
    if (t->n_gpus < 2)
        return CR_OK;
    cr_status st;
    char key[48];
    for (int mk = 0; mk < 3; mk++) {
        if (!(c->p2p_Bps[mk] > 0))
            continue;
        double link = p2p_link_Bps(t, mk);
        if (!(link > 0))
            continue;
        double eff = fmin(c->p2p_Bps[mk] / link, 1.0);
        snprintf(key, sizeof key, "mech.%s.eff", name[mk]);
        if ((st = cr_topo_set_param(t, key, eff, source)) != CR_OK)
            return st;
        if (mk != CR_MECH_CE && c->p2p_sm1_Bps[mk] > 0) {
            snprintf(key, sizeof key, "mech.%s.sms", name[mk]);
            double sms = fmax(1.0, eff * link / c->p2p_sm1_Bps[mk]);
            if ((st = cr_topo_set_param(t, key, sms, source)) != CR_OK)
                return st;
        }
        if (!(c->p2p_small_s[mk] > 0))
            continue;
        /* coll's prediction for the smallest message without a launch cost;
         * the launch is what the measurement has beyond it. */
        snprintf(key, sizeof key, "mech.%s.launch", name[mk]);
        if ((st = cr_topo_set_param(t, key, 0.0, source)) != CR_OK)
            return st;
        cr_coll_pred pr;
        if (pair_copy_pred(t, mk, c->p2p_small_bytes[mk], &pr) != CR_OK)
            return CR_ENOMEM;
        double launch = pr.supported ? fmax(0.0, c->p2p_small_s[mk] - pr.pred_s) : 0;
        if ((st = cr_topo_set_param(t, key, launch, source)) != CR_OK)
            return st;
    }
    return CR_OK;
}

cr_status cr_validate_apply_calibration(cr_topo *t, const cr_vcalib *c, const char *source)
{
    for (int s = 0; s < t->n_gpu_specs; s++) {
        cr_gpu_spec *g = &t->gpu_specs[s];
        if (c->hbm_Bps > 0)
            g->meas_hbm_Bps = c->hbm_Bps;
        if (c->l2_Bps > 0)
            g->meas_l2_Bps = c->l2_Bps;
        for (int dt = 0; dt < CR_DT__COUNT && dt < 16; dt++)
            if (c->flops[dt] > 0)
                g->meas_flops[dt] = c->flops[dt];
    }
    const cr_gpu_spec *g0 = t->n_gpus > 0 ? cr_topo_gpu_spec(t, 0) : NULL;
    cr_status st = CR_OK;
#define SET(key, val)                                                                              \
    do {                                                                                           \
        if ((st = cr_topo_set_param(t, key, val, source)) != CR_OK)                                \
            return st;                                                                             \
    } while (0)
    double peak = g0 ? g0->hbm_Bps : 0;
    if (c->hbm_typ_Bps > 0 && peak > 0)
        SET("ops.hbm.eff", fmin(c->hbm_typ_Bps / peak, 1.0));
    /* The stream model (model/ops.c stream_s): a copy of b bytes takes
     * b / rd + b / wr + b / turn, so turn = b / (t - b / rd - b / wr) with
     * b / t = copy rate / 2 (the copy rate counts read + written bytes). */
    if (c->hbm_rd_Bps > 0 && peak > 0)
        SET("ops.hbm.read_eff", fmin(c->hbm_rd_Bps / peak, 1.0));
    if (c->hbm_wr_Bps > 0 && peak > 0)
        SET("ops.hbm.write_eff", fmin(c->hbm_wr_Bps / peak, 1.0));
    if (c->hbm_rd_Bps > 0 && c->hbm_wr_Bps > 0 && c->hbm_copy_Bps > 0 && peak > 0) {
        double extra = 2 / c->hbm_copy_Bps - 1 / c->hbm_rd_Bps - 1 / c->hbm_wr_Bps;
        if (extra > 0)
            SET("ops.hbm.turn", 1 / extra / peak);
    }
    if (c->kernel_fixed_s > 0)
        SET("ops.kernel.fixed", c->kernel_fixed_s);
    if (c->read_lat_s > 0)
        SET("ops.hbm.read_lat", c->read_lat_s);
    if (c->reduce_s > 0)
        SET("ops.hbm.reduce_tail", c->reduce_s);
    if (c->gemm_mem_Bps > 0 && peak > 0)
        SET("ops.gemm.mem_eff", fmin(c->gemm_mem_Bps / peak, 1.0));
    if (c->ce_d2d_Bps > 0 && peak > 0)
        SET("ops.ce.d2d_eff", fmin(c->ce_d2d_Bps / peak, 1.0));
    /* Host link: the best pinned direction against the PCIe link of GPU 0. */
    double pinned = fmax(c->h2d_pinned_Bps, c->d2h_pinned_Bps);
    double pcie = 0;
    if (t->n_gpus > 0) {
        int g = t->gpus[0];
        for (int i = t->adj_off[g]; i < t->adj_off[g + 1]; i++) {
            const cr_link *l = &t->links[t->adj[i]];
            if (l->kind == CR_LINK_PCIE || l->kind == CR_LINK_C2C)
                pcie = fmax(pcie, cr_link_bw_from(l, g));
        }
    }
    if (pinned > 0 && pcie > 0)
        SET("ops.pcie.eff", fmin(pinned / pcie, 1.0));
    static const char *const pg_key[3] = {NULL, "ops.pageable.h2d", "ops.pageable.d2h"};
    static const char *const pgc_key[3] = {NULL, "ops.pageable.cached_h2d",
                                           "ops.pageable.cached_d2h"};
    for (int k = 1; k < 3; k++) {
        if (c->pageable_Bps[k] > 0)
            SET(pg_key[k], c->pageable_Bps[k]);
        if (c->pageable_c_Bps[k] > 0)
            SET(pgc_key[k], c->pageable_c_Bps[k]);
    }
    if (c->kernel_s > 0)
        SET("calib.kernel", c->kernel_s);
    if (c->launch_s > 0)
        SET("ops.launch.host", c->launch_s);
    if (c->sync_s > 0)
        SET("ops.launch.sync", c->sync_s);
    if (c->graph_s > 0)
        SET("ops.launch.graph", c->graph_s);
    if (c->event_s > 0)
        SET("ops.launch.event", c->event_s);
    if (c->ldst_sm_Bps > 0)
        SET("ops.ldst.sm_bw", c->ldst_sm_Bps);
    if (c->tma_sm_Bps > 0)
        SET("ops.tma.sm_bw", c->tma_sm_Bps);
    if (c->ldst_fixed_s > 0)
        SET("ops.ldst.fixed", c->ldst_fixed_s);
    if (c->tma_fixed_s > 0)
        SET("ops.tma.fixed", c->tma_fixed_s);
    if (t->n_gpus >= 2)
        st = apply_p2p(t, c, source);
#undef SET
    return st;
}
