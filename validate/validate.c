/* SPDX-License-Identifier: MIT */
/*
 * validate: case names, lists of measurements, the model match's common
 * figures (% of roofline, violations, errors) and summaries (see validate.h
 * and doc/validation.md). The rest of validate/ by seam: trace_file.c opens
 * traces (gzip) and walks folders, read_trace.c turns a trace's "cr:" ranges
 * into measurements, ranks.c merges one-process-per-GPU ranks, families.c
 * holds one entry per family (its timing, label, model match and
 * calibration), calibrate.c derives and applies calibration, nccl_log.c
 * reads nccl-tests logs.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "coll.h"
#include "dtype.h"
#include "grow.h"
#include "ops.h"
#include "validate.h"
#include "validate_priv.h"

const char *cr_vfam_name(cr_vfam f)
{
    const cr_vfam_def *def = cr_vfam_def_of(f);
    return def ? def->name : "?";
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
        if (strlen(cr_vfam_name((cr_vfam)i)) == fl && strncmp(p, cr_vfam_name((cr_vfam)i), fl) == 0)
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

bool cr_vcase_is_catalog_call(const char *name)
{
    cr_vcase vc;
    cr_diag dd = {{0}};
    if (!name || strncmp(name, "cr:", 3) != 0)
        return false;
    /* crbench's case: a family's range with iters=; where the family's
     * name is a catalog operator's too (gemm), one that declares its work,
     * as crbench does in every case (kernels/gemm.cu) and no catalog
     * operator's range does (it gives shapes): iters= alone means the
     * same in both, N repetitions in the range (doc/roofline.md) */
    if (cr_vcase_parse(name, &vc, &dd) == CR_OK && cr_vcase_get(&vc, "iters") &&
        (cr_vcase_get(&vc, "rd_bytes") || cr_vcase_get(&vc, "wr_bytes") ||
         cr_vcase_get(&vc, "flops")))
        return false;
    char op[32];
    size_t i = 0;
    for (const char *p = name + 3; *p && *p != ' ' && i + 1 < sizeof op; p++)
        op[i++] = *p;
    op[i] = '\0';
    const cr_op_def *def = NULL;
    return cr_op_find(op, &def, &dd) == CR_OK;
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
    double x = cr_strtod_c(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(x))
        return cr_diag_set(d, CR_EPARSE, "%s case: %s=\"%s\" is not a finite number",
                           cr_vfam_name(c->family), key, v);
    *out = x;
    return CR_OK;
}

static cr_status check_whole_key(const cr_vcase *c, const char *key, size_t kl, cr_diag *d)
{
    char k[sizeof c->kv[0].key];
    if (kl >= sizeof k)
        return CR_OK;
    memcpy(k, key, kl);
    k[kl] = 0;
    const char *v = cr_vcase_get(c, k);
    double x;
    if (!v)
        return CR_OK;
    if (cr_vcase_num(c, k, &x, NULL) != CR_OK)
        return cr_diag_set(d, CR_EPARSE, "%s=%s: not a number (a whole number, e.g. %s=%s)", k, v,
                           k, strstr(k, "bytes") ? "1073741824, not 1GiB" : "2");
    if (x != floor(x) || fabs(x) > 1e15)
        return cr_diag_set(d, CR_EPARSE,
                           "%s=%s: not a whole number (a count, size or index: e.g. %s=%.0f)", k, v,
                           k, fabs(x) > 1e15 ? 2 : floor(x));
    return CR_OK;
}

cr_status cr_vcase_check_whole(const cr_vcase *c, cr_diag *d)
{
    const cr_vfam_def *def = cr_vfam_def_of(c->family);
    char keys[128];
    snprintf(keys, sizeof keys, "iters sets bytes %s", def && def->whole ? def->whole : "");
    for (const char *p = keys; *p;) {
        size_t kl = strcspn(p, " ");
        cr_status st = kl ? check_whole_key(c, p, kl, d) : CR_OK;
        if (st != CR_OK)
            return st;
        p += kl;
        p += *p == ' ';
    }
    return CR_OK;
}

cr_coll_req cr_vmeas_coll_req(const cr_vmeas *m, cr_coll coll, double bytes, int n, cr_mech mech)
{
    cr_coll_req rq = cr_coll_req_default(coll, bytes);
    cr_dtype dt;
    if (cr_dtype_parse(cr_vstr_or(&m->c, "dtype", "fp32"), &dt, NULL) == CR_OK)
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
    if (cr_vnum_or(&m->c, "rank", 0) < 0)
        rq.ranks_per_process = n;
    /* nccl-tests: each thread enqueues its G GPUs' kernels (-g G,
     * nccl_log.c gpus_per_thread; 1 with a process per GPU) per operation
     * in its timed loop of back-to-back operations, so the host's time per
     * operation can set the printed time (cr_coll_req host_loop) */
    if (m->loop_timed) {
        rq.ranks_per_process = (int)fmin(cr_vnum_or(&m->c, "gpus_per_thread", 1), n);
        rq.host_loop = true;
        rq.loop_ops = (int)cr_vnum_or(&m->c, "loop_ops", 0);
    }
    rq.nccl_version = (int)cr_vnum_or(&m->c, "nccl_version", 0);
    rq.nccl_algos = (unsigned)cr_vnum_or(&m->c, "nccl_algos", 0);
    rq.nccl_protos = (unsigned)cr_vnum_or(&m->c, "nccl_protos", 0);
    rq.from_last_start = m->devices >= n && n > 1;
    if (mech != CR_MECH_NONE)
        rq.sms = (int)cr_vnum_or(&m->c, "sms", 0);
    const char *algo = cr_vstr_or(&m->c, "algo", "auto"),
               *proto = cr_vstr_or(&m->c, "proto", "auto");
    if (strcmp(algo, "auto") && cr_algo_parse(algo, &rq.algo, NULL) != CR_OK)
        rq.algo = CR_ALGO_AUTO;
    if (strcmp(proto, "auto") && cr_proto_parse(proto, &rq.proto, NULL) != CR_OK)
        rq.proto = CR_PROTO_AUTO;
    return rq;
}

static void fmt_bytes(double b, char *buf, size_t size)
{
    static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (b >= 1024 && fmod(b, 1024) == 0 && i < 4) {
        b /= 1024;
        i++;
    }
    cr_snprintf_c(buf, size, "%.0f%s", b, u[i]);
}

void cr_vmeas_make_label(cr_vmeas *m)
{
    const cr_vfam_def *def = cr_vfam_def_of(m->c.family);
    char b[32];
    if (cr_vcase_get(&m->c, "bytes"))
        fmt_bytes(cr_vnum_or(&m->c, "bytes", 0), b, sizeof b);
    else
        cr_str_copy(b, sizeof b, "?B"); /* not given: not 0 bytes */
    if (def)
        def->label(&m->c, b, m->label, sizeof m->label);
    else
        cr_str_copy(m->label, sizeof m->label, "?");
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

cr_vmeas *cr_vlist_push(cr_vmeas_list *l)
{
    if (cr_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return NULL;
    cr_vmeas *m = &l->v[l->n++];
    memset(m, 0, sizeof *m);
    m->rank = -1;
    m->world_size = -1;
    return m;
}

/* Reserves 2 n doubles of l's per-iteration pool; returns the offset, or
 * (size_t)-1 when out of memory. */
static size_t iter_alloc(cr_vmeas_list *l, size_t n)
{
    if (n > (SIZE_MAX - l->iter_n) / 2 ||
        cr_grow((void **)&l->iter_s, &l->iter_cap, l->iter_n + 2 * n, sizeof *l->iter_s))
        return (size_t)-1;
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

double cr_validate_percentile(double *v, size_t n, double p)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cr_cmp_double);
    if (p <= 0)
        return v[0];
    size_t r = (size_t)ceil(p / 100.0 * (double)n);
    if (r < 1)
        r = 1;
    if (r > n)
        r = n;
    return v[r - 1];
}

/* --- model match --------------------------------------------------------------- */

/* Puts what before the note out already has (what the family's model
 * said stays, after it, as far as it fits). */
static void note_first(cr_vresult *out, const char *what)
{
    char prev[sizeof out->note];
    memcpy(prev, out->note, sizeof prev);
    size_t cap = sizeof out->note - 1, n = strnlen(what, cap);
    memcpy(out->note, what, n);
    if (prev[0] && n + 2 < cap) {
        memcpy(out->note + n, "; ", 2);
        n += 2;
        size_t k = strnlen(prev, cap - n); /* cut at the note's end */
        memcpy(out->note + n, prev, k);
        n += k;
    }
    out->note[n] = '\0';
}

cr_status cr_validate_eval(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *o,
                           cr_vresult *out, cr_diag *d)
{
    memset(out, 0, sizeof *out);
    cr_status st;
    const cr_vfam_def *def = cr_vfam_def_of(m->c.family);
    if (!def)
        return cr_diag_set(d, CR_EINVAL, "%s: unknown family", m->source);
    st = def->eval(t, m, o, out, d);
    if (st != CR_OK)
        return st;
    double meas = m->measured_s;
    if (out->has_bound && !(out->bound_cold_s >= out->bound_s))
        out->bound_cold_s = out->bound_s; /* no cache term (collectives, launch) */
    out->timed = meas > 0;
    if (out->has_bound) {
        /* A case that declares its data cold (crbench hbm cache=cold: sets
         * rotating over > 512 MiB) is held to the cold bound. */
        const char *cache = cr_vcase_get(&m->c, "cache");
        bool cold = cache && strcmp(cache, "cold") == 0;
        if (out->timed) {
            out->pct_of_roofline = out->bound_s / meas * 100;
            out->pct_of_roofline_cold = out->bound_cold_s / meas * 100;
        }
        /* no time at all (GPU activities of 0 us) is below any positive
         * bound: a timing defect, never a pass */
        out->held_cold = cold;
        out->violation = cr_below_bound(meas, cr_vresult_held_s(out));
        out->cache_resident = !out->violation && cr_below_bound(meas, out->bound_cold_s);
        if (!out->timed && out->violation)
            note_first(out, "measured 0 us: the range's GPU activities took no time, which no "
                            "kernel can (a timing defect in the trace)");
    }
    /* A device-timed family's range without GPU activity (a tracer that
     * dropped its records, activity recording off) was timed on the host:
     * the range's duration over iters, launch and synchronisation
     * included. It is no device time, so it says nothing against the
     * bound; the note says so (doc/validation.md). */
    if (m->host_timed && (def->measure == CR_VTIME_DEVICE || def->measure == CR_VTIME_SPAN)) {
        out->violation = false;
        out->cache_resident = false;
        note_first(out, "host-timed: no GPU activity in the range (range time / iters), not "
                        "held to the bound");
    }
    /* the ceiling's own case, through a printed and parsed figure, must
     * not count as beating it */
    if (out->attainable_s > 0 && meas > 0 && cr_below_bound(meas, out->attainable_s)) {
        out->beats_attainable = true;
        if (!out->note[0])
            snprintf(out->note, sizeof out->note,
                     "faster than the attainable bound: the topology's measured ceilings are "
                     "stale (commroof calibrate)");
    }
    if (out->has_pred && out->timed)
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
            if (r[i].has_pred && r[i].timed)
                e[ne++] = fabs(r[i].error_pct);
        }
        s->with_pred = (int)ne;
        s->median_abs_err_pct = cr_median(e, ne);
        s->p90_abs_err_pct = cr_validate_percentile(e, ne, 90);
        s->max_abs_err_pct = ne ? e[ne - 1] : 0;
    }
    free(e);
    return CR_OK;
}

/* --- collective contexts kept between cases ---------------------------------------- */

/* Contexts kept: the rank sets of one validate run (a log's, a trace's
 * 2-rank p2p and n-rank collectives, a fused case's) are a few. */
enum { VCACHE_SLOTS = 8 };

struct cr_validate_cache {
    struct {
        const cr_topo *t; /* NULL: an empty slot */
        cr_rankset *rs;
        cr_coll_ctx *ctx;
        unsigned long used; /* the lookup that last took it */
    } slot[VCACHE_SLOTS];
    unsigned long clock;
    long builds;
};

cr_validate_cache *cr_validate_cache_new(void)
{
    return calloc(1, sizeof(cr_validate_cache));
}

void cr_validate_cache_free(cr_validate_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < VCACHE_SLOTS; i++) {
        cr_coll_ctx_free(c->slot[i].ctx);
        cr_rankset_free(c->slot[i].rs);
    }
    free(c);
}

long cr_validate_cache_builds(const cr_validate_cache *c)
{
    return c ? c->builds : 0;
}

/* The collective context of rank set rs on t (cr_coll_ctx_new's errors):
 * c's (borrowed: *owned false) where c keeps one, built and kept there
 * when it has room, else built for the caller (*owned true: free it with
 * cr_coll_ctx_free). c may be NULL. */
static cr_status vcache_ctx(cr_validate_cache *c, const cr_topo *t, const cr_rankset *rs,
                            cr_coll_ctx **ctx, bool *owned, cr_diag *d)
{
    *ctx = NULL;
    *owned = true;
    int victim = 0;
    if (c) {
        c->clock++;
        for (int i = 0; i < VCACHE_SLOTS; i++) {
            const cr_rankset *k = c->slot[i].rs;
            if (c->slot[i].t == t && k && k->n == rs->n &&
                !memcmp(k->ranks, rs->ranks, (size_t)rs->n * sizeof *rs->ranks)) {
                c->slot[i].used = c->clock;
                *ctx = c->slot[i].ctx;
                *owned = false;
                return CR_OK;
            }
            if (c->slot[i].used < c->slot[victim].used)
                victim = i;
        }
    }
    cr_status st = cr_coll_ctx_new(t, rs, ctx, d);
    if (st != CR_OK || !c)
        return st;
    c->builds++;
    cr_rankset *key = NULL;
    /* no room for the key: the context is the caller's, as without a cache */
    if (cr_rankset_from_array(rs->ranks, rs->n, t->n_gpus, &key, NULL) != CR_OK)
        return CR_OK;
    cr_coll_ctx_free(c->slot[victim].ctx);
    cr_rankset_free(c->slot[victim].rs);
    c->slot[victim].t = t;
    c->slot[victim].rs = key;
    c->slot[victim].ctx = *ctx;
    c->slot[victim].used = c->clock;
    *owned = false;
    return CR_OK;
}

cr_status cr_vcache_eval(cr_validate_cache *c, const cr_topo *t, const cr_rankset *rs,
                         const cr_coll_req *rq, cr_coll_result *res, cr_diag *d)
{
    cr_coll_ctx *ctx = NULL;
    bool owned = true;
    cr_status st = vcache_ctx(c, t, rs, &ctx, &owned, d);
    if (st == CR_OK)
        st = cr_coll_eval(ctx, rq, res, d);
    if (owned)
        cr_coll_ctx_free(ctx);
    return st;
}
