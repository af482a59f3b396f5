/* SPDX-License-Identifier: MIT */
/*
 * roofline (roofline.h): ranges of any traced program matched to their GPU
 * activities, each operator evaluated by the operator catalog (model/ops.h)
 * or, for NCCL's calls and "cr:" ranges, by validate (cr_validate_eval).
 * The range names are parsed in roofline_name.c; the mapping from PyTorch
 * operators to catalog operators is roofline_aten.c's table; the finished
 * table's totals and order are roofline_table.c's.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "grow.h"
#include "ops.h"
#include "rankset.h"
#include "roofline.h"
#include "roofline_priv.h"
#include "roofline_trace_priv.h"
#include "traces/reader/trace_summary.h"
#include "units.h"
#include "traces/tracer/sb.h"
#include "validate_priv.h"

/* --- one trace: activities and ranges ------------------------------------------- */

/* NCCL's calls by range name, the collective as validate names it, and the
 * kernel-name word (ncclDevKernel_<Word>_...). NCCL's payload gives the
 * per-rank count for allgather and reducescatter (sendcount, recvcount:
 * NVIDIA/nccl src/collectives.cc, NVTX3_FUNC_WITH_PARAMS); nccl-tests
 * counts the whole n-rank buffer (doc/design.md), hence times n. */
static const struct {
    const char *range, *coll, *kword;
    bool times_n;
} nccl_colls[] = {
    {"ncclAllReduce", "allreduce", "AllReduce", false},
    {"ncclAllGather", "allgather", "AllGather", true},
    {"ncclReduceScatter", "reducescatter", "ReduceScatter", true},
    {"ncclBroadcast", "broadcast", "Broadcast", false},
    {"ncclReduce", "reduce", "Reduce", false},
    {"ncclSend", "sendrecv", "SendRecv", false},
};
#define N_NCCL ((int)(sizeof nccl_colls / sizeof nccl_colls[0]))

static int nccl_kernel_coll(const char *name)
{
    const char *p = NULL;
    if (!strncmp(name, "ncclDevKernel_", 14))
        p = name + 14;
    else if (!strncmp(name, "ncclKernel_", 11))
        p = name + 11;
    if (!p)
        return -1;
    for (int i = 0; i < N_NCCL; i++) {
        size_t l = strlen(nccl_colls[i].kword);
        if (!strncmp(p, nccl_colls[i].kword, l) && (p[l] == '_' || p[l] == '(' || !p[l]))
            return i;
    }
    return -2; /* an NCCL kernel of a call this does not model */
}

static void rtrace_free(rtrace *t)
{
    for (size_t i = 0; i < t->na; i++)
        free(t->a[i].name);
    for (size_t i = 0; i < t->nr; i++)
        if (!t->rg[i].name_lent)
            free(t->rg[i].name);
    free(t->a);
    free(t->rg);
    free(t->nc);
    free(t->cm);
    free(t->crw);
    free(t->api);
    free(t->gn);
    memset(t, 0, sizeof *t);
}

static int64_t proc_of(int64_t pid)
{
    return pid >= 100 ? pid / 100 : pid; /* our traces: os pid x 100 + device */
}

static bool is_emit_nvtx(const char *name, cr_rf_name *pn)
{
    cr_diag dd = {{0}};
    if (cr_rf_parse_name(name, pn, &dd) != CR_OK)
        return false;
    return pn->has_sizes || pn->op_id >= 0 || pn->seq >= 0 || strstr(pn->op, "::") != NULL;
}

/* A "cr:" range: a call of a catalog operator (commroof_nvtx.h,
 * commroof_nvtx.py: its keys the operator's parameters, iters=N its
 * repetitions), else one validate reads (a crbench family with iters),
 * else a user range. */
static int cr_kind(const char *name)
{
    cr_vcase vc;
    cr_diag dd = {{0}};
    if (cr_vcase_is_catalog_call(name))
        return RG_CROP;
    if (cr_vcase_parse(name, &vc, &dd) == CR_OK && cr_vcase_get(&vc, "iters"))
        return RG_CR;
    return RG_USER;
}

/* The most repetitions one range may say it holds (validate's cap). */
#define CROP_MAX_REPS 1e9

/* The repetitions a catalog call's range holds: its iters=N (1 without
 * one). 0 where iters= is not a whole number from 1 to 1e9 or is given
 * twice, with the reason in why (size bytes, may be 0). */
static long long crop_reps(const char *name, char *why, size_t size)
{
    long long reps = 1;
    int seen = 0;
    for (const char *p = name; (p = strstr(p, " iters=")) != NULL;) {
        p += 7;
        size_t vl = strcspn(p, " ");
        char v[48];
        snprintf(v, sizeof v, "%.*s", (int)(vl < sizeof v ? vl : sizeof v - 1), p);
        if (seen++) {
            snprintf(why, size, "iters given twice: give each key once");
            return 0;
        }
        char *end = NULL;
        errno = 0;
        double x = cr_plain_number(v) && vl < sizeof v ? cr_strtod_c(v, &end) : NAN;
        if (!end || *end || errno == ERANGE || !(x >= 1 && x <= CROP_MAX_REPS) || x != floor(x)) {
            snprintf(why, size,
                     "iters=%s: not a whole number from 1 to 1e9 (the repetitions the range "
                     "holds, e.g. iters=10)",
                     v);
            return 0;
        }
        reps = (long long)x;
        p += vl;
    }
    return reps;
}

static const char *payload_str(const cr_trace_event *ev, const char *field)
{
    const json_t *pl = ev->args ? json_object_get(ev->args, "payload") : NULL;
    const json_t *v = json_is_object(pl) ? json_object_get(pl, field) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static double payload_num(const cr_trace_event *ev, const char *field)
{
    const json_t *pl = ev->args ? json_object_get(ev->args, "payload") : NULL;
    const json_t *v = json_is_object(pl) ? json_object_get(pl, field) : NULL;
    return json_is_number(v) ? json_number_value(v) : -1;
}

static cr_status collect(rtrace *t, const cr_trace_event *ev, const char *path, cr_diag *d)
{
    if (ev->ph == 'i' && !strcmp(ev->cat_str, "cuda_graph_node")) {
        /* a clone whose original CUPTI could not name says nothing */
        bool cloned = !strcmp(ev->name, "cloned");
        long long node = (long long)json_integer_value(json_object_get(ev->args, "node"));
        long long orig = (long long)json_integer_value(json_object_get(ev->args, "original"));
        if (node <= 0 || (cloned ? orig <= 0 : strcmp(ev->name, "created") != 0))
            return CR_OK;
        orig = cloned ? orig : 0;
        if (cr_grow((void **)&t->gn, &t->cgn, t->ngn + 1, sizeof *t->gn))
            return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
        t->gn[t->ngn++] = (rgnode){proc_of(ev->pid), ev->tid, ev->ts_s, node, orig};
        return CR_OK;
    }
    if (ev->ph != 'X')
        return CR_OK;
    if (ev->cat == CR_TRACE_KERNEL || ev->cat == CR_TRACE_MEMCPY || ev->cat == CR_TRACE_MEMSET) {
        if (cr_grow((void **)&t->a, &t->ca, t->na + 1, sizeof *t->a))
            return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
        ract *a = &t->a[t->na];
        memset(a, 0, sizeof *a);
        a->proc = proc_of(ev->pid);
        a->dev = ev->device;
        a->ts = ev->ts_s;
        a->end = ev->ts_s + ev->dur_s;
        a->dur = ev->dur_s;
        a->cat = ev->cat;
        a->bytes = ev->bytes;
        a->kind = ev->copy_kind;
        a->pinned = !strcmp(ev->src_mem, "pinned") || !strcmp(ev->dst_mem, "pinned");
        a->nccl = ev->cat == CR_TRACE_KERNEL ? nccl_kernel_coll(ev->name) : -1;
        a->corr = ev->correlation;
        a->graph_node = ev->graph_node;
        if (!(a->name = strdup(ev->name)))
            return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
        t->na++;
        return CR_OK;
    }
    if (ev->cat == CR_TRACE_API && ev->ph == 'X' && ev->correlation >= 0) {
        if (cr_grow((void **)&t->api, &t->capi, t->napi + 1, sizeof *t->api))
            return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
        t->api[t->napi++] = (rapi){proc_of(ev->pid), ev->tid, ev->ts_s, ev->correlation};
        return CR_OK;
    }
    if (ev->cat != CR_TRACE_NVTX)
        return CR_OK;
    if (ev->domain && !strcmp(ev->domain, "NCCL")) {
        if (!strncmp(ev->name, "ncclCommInit", 12)) {
            const char *id = payload_str(ev, "NCCL communicator ID");
            double n = payload_num(ev, "No. of ranks");
            if (id && n >= 1 && n <= 1e6) {
                if (cr_grow((void **)&t->cm, &t->ccm, t->ncm + 1, sizeof *t->cm))
                    return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                rcomm *cm = &t->cm[t->ncm++];
                cr_str_copy(cm->comm, sizeof cm->comm, id);
                cm->n = (int)n;
                double dev = payload_num(ev, "CUDA device"), rk = payload_num(ev, "Rank");
                cm->dev = dev >= 0 && dev < 1e6 ? (int)dev : -1;
                cm->rank = rk >= 0 && rk < n ? (int)rk : -1;
            }
            return CR_OK;
        }
        int gcode = !strcmp(ev->name, "ncclGroupStart") ? RN_GROUP_START
                    : !strcmp(ev->name, "ncclGroupEnd") ? RN_GROUP_END
                                                        : 0;
        if (gcode) {
            if (cr_grow((void **)&t->nc, &t->cn, t->nn + 1, sizeof *t->nc))
                return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
            rnccl *c = &t->nc[t->nn++];
            memset(c, 0, sizeof *c);
            c->proc = proc_of(ev->pid);
            c->ts = ev->ts_s;
            c->coll = gcode;
            return CR_OK;
        }
        for (int i = 0; i < N_NCCL; i++)
            if (!strcmp(ev->name, nccl_colls[i].range)) {
                double size = payload_num(ev, CR_TRACE_NCCL_SIZE_FIELD);
                if (cr_grow((void **)&t->nc, &t->cn, t->nn + 1, sizeof *t->nc))
                    return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                rnccl *c = &t->nc[t->nn++];
                memset(c, 0, sizeof *c);
                c->proc = proc_of(ev->pid);
                c->ts = ev->ts_s;
                c->coll = i;
                c->size = size;
                const char *id = payload_str(ev, "NCCL communicator ID");
                cr_str_copy(c->comm, sizeof c->comm, id ? id : "");
            }
        return CR_OK; /* NCCL's ranges own no activities */
    }
    /* CCCL's own ranges (cub::DeviceRadixSort::SortPairs inside PyTorch's
     * embedding_dense_backward) are a library's steps, not an operator:
     * their kernels stay with the operator that called the library */
    if (!strncmp(ev->name, "cub::", 5) || !strncmp(ev->name, "thrust::", 8))
        return CR_OK;
    if (cr_grow((void **)&t->rg, &t->cr, t->nr + 1, sizeof *t->rg))
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
    rrange *r = &t->rg[t->nr];
    memset(r, 0, sizeof *r);
    r->proc = proc_of(ev->pid);
    r->tid = ev->tid;
    r->ts = ev->ts_s;
    r->end = ev->ts_s + ev->dur_s;
    r->dtype = -1;
    r->in_dtype = -1;
    r->op_id = -1;
    cr_rf_name pn;
    r->kind = !strncmp(ev->name, "cr:", 3)      ? cr_kind(ev->name)
              : is_emit_nvtx(ev->name, &pn)     ? RG_ATEN
              : !strncmp(ev->name, "aten::", 6) ? RG_ATEN_UNREAD
                                                : RG_USER;
    if (r->kind == RG_ATEN)
        r->op_id = pn.op_id;
    if (!(r->name = strdup(ev->name)))
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
    t->nr++;
    return CR_OK;
}

/* --- rows ----------------------------------------------------------------------- */

typedef struct {
    const cr_topo *t;
    const cr_roofline_opts *o;
    cr_roofline *out;
    int n_ranks_opt; /* --ranks' count, 0 none */
    /* aten calls and other kernels gathered over every file */
    struct call {
        char *key; /* op '\x1f' sizes '\x1f' dtype source: one row */
        char *sig; /* an aten call's case (case_sig): calls of one row whose inputs
                      resolved to other bytes are evaluated apart; NULL for others */
        char *name;
        int dtype, in_dtype;
        double busy_s;  /* one call's device time (a range of reps calls: its time / reps) */
        long long reps; /* the calls it stands for: a catalog call's iters=, else 1 */
        cr_rf_owned own;
    } * calls;
    size_t ncall, ccall;
    cr_vmeas_list nccl;       /* one per NCCL call */
    cr_validate_cache *cache; /* the rows' collective contexts, one per rank set */
} rctx;

/* One call of name, grouped with the others of the same key (printf's
 * format and arguments: as long as it needs to be, so that two long names
 * that differ late are two rows). */
static cr_status add_call(rctx *c, const char *name, rrange *r, double busy_s, cr_diag *d,
                          const char *key_fmt, ...) __attribute__((format(printf, 6, 7)));
static cr_status add_call(rctx *c, const char *name, rrange *r, double busy_s, cr_diag *d,
                          const char *key_fmt, ...)
{
    if (cr_grow((void **)&c->calls, &c->ccall, c->ncall + 1, sizeof *c->calls))
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    struct call *k = &c->calls[c->ncall];
    memset(k, 0, sizeof *k);
    k->dtype = k->in_dtype = -1;
    va_list ap;
    va_start(ap, key_fmt);
    int len = cr_vsnprintf_c(NULL, 0, key_fmt, ap);
    va_end(ap);
    k->key = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (k->key) {
        va_start(ap, key_fmt);
        cr_vsnprintf_c(k->key, (size_t)len + 1, key_fmt, ap);
        va_end(ap);
    }
    /* a range's own name is lent, not copied (a foreach call's runs to
     * tens of kilobytes): the range reads it until its trace is freed */
    bool lend = r && name == r->name;
    k->name = lend ? r->name : strdup(name);
    if (!k->key || !k->name) {
        free(k->key);
        if (!lend)
            free(k->name);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    if (lend)
        r->name_lent = true;
    k->busy_s = busy_s;
    k->reps = 1;
    if (r) {
        k->dtype = r->dtype;
        k->in_dtype = r->in_dtype;
        k->own = r->own;
    }
    c->ncall++;
    return CR_OK;
}

/* The NCCL calls of one trace, paired with their kernels, into c->nccl. */
static int cmp_rnccl(const void *x, const void *y)
{
    const rnccl *a = x, *b = y;
    if (a->proc != b->proc)
        return (a->proc > b->proc) - (a->proc < b->proc);
    return (a->ts > b->ts) - (a->ts < b->ts);
}

static cr_status nccl_calls(rctx *c, rtrace *t, const char *path, const json_t *md, cr_diag *d)
{
    int rank = -1, world = -1;
    const char *host = "";
    int64_t base = 0;
    if (md) {
        const json_t *v = json_object_get(md, "rank");
        if (json_is_integer(v))
            rank = (int)json_integer_value(v);
        v = json_object_get(md, "world_size");
        if (json_is_integer(v))
            world = (int)json_integer_value(v);
        v = json_object_get(md, "hostname");
        if (json_is_string(v))
            host = json_string_value(v);
        v = json_object_get(md, "ts_base_ns");
        if (json_is_integer(v))
            base = (int64_t)json_integer_value(v);
    }
    if (rank < 0)
        rank = cr_validate_rank_from_name(path);
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    /* per process and collective, the i-th range with the i-th kernel */
    if (t->nn > 1)
        qsort(t->nc, t->nn, sizeof *t->nc, cmp_rnccl);
    /* Calls of one collective grouped together (ncclSend x n of an
     * all-to-all) run as one kernel: they are one launch, not timed here. */
    int depth = 0, gid = 0;
    int64_t gproc = INT64_MIN;
    for (size_t i = 0; i < t->nn; i++) {
        rnccl *r = &t->nc[i];
        if (r->proc != gproc)
            depth = 0, gproc = r->proc;
        if (r->coll == RN_GROUP_START) {
            if (depth++ == 0)
                gid++;
        } else if (r->coll == RN_GROUP_END) {
            depth = depth > 0 ? depth - 1 : 0;
        } else if (depth > 0) {
            r->group = gid;
        }
    }
    /* a group's calls are consecutive (sorted by time within the process) */
    for (size_t i = 0; i < t->nn;) {
        size_t j = i + 1;
        if (t->nc[i].group)
            while (j < t->nn && t->nc[j].group == t->nc[i].group)
                j++;
        /* one kernel per communicator: calls of one collective on one
         * communicator share it (an all-to-all's ncclSends); one process
         * driving several GPUs calls each GPU's communicator in the group */
        int per[N_NCCL] = {0};
        bool one_comm = true;
        for (size_t k = i; k < j; k++) {
            if (t->nc[k].coll >= 0)
                per[t->nc[k].coll]++;
            one_comm = one_comm && !strcmp(t->nc[k].comm, t->nc[i].comm);
        }
        for (size_t k = i; k < j; k++) {
            rnccl *r = &t->nc[k];
            if (r->coll < 0 || !r->group)
                continue;
            r->in_group = one_comm ? per[r->coll] : 0;
            for (size_t q = i; q < j && !one_comm; q++)
                r->in_group += t->nc[q].coll == r->coll && !strcmp(t->nc[q].comm, r->comm);
        }
        i = j;
    }
    /* the kernels paired with a call; the rest are listed by name */
    bool *used = calloc(t->na ? t->na : 1, sizeof *used);
    /* where the search for a GPU's next kernel resumes: [0] any GPU,
     * [1 + dev] one GPU (kernels are in time order per process) */
    int max_dev = -1;
    for (size_t i = 0; i < t->na; i++)
        max_dev = t->a[i].dev > max_dev && t->a[i].dev < 65536 ? t->a[i].dev : max_dev;
    size_t *cur = malloc((size_t)(max_dev + 2) * sizeof *cur);
    if (!used || !cur) {
        free(used);
        free(cur);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    /* what a cr: range holds is validate's (cr_windows) */
    for (size_t i = 0; i < t->na; i++)
        used[i] = t->a[i].nccl >= 0 && cr_rf_in_cr_window(t, t->a[i].proc, t->a[i].ts);
    for (int col = 0; col < N_NCCL; col++) {
        size_t start = 0; /* the process's first kernel */
        int64_t kproc = INT64_MIN;
        for (size_t i = 0; i < t->nn; i++) {
            rnccl *r = &t->nc[i];
            if (r->coll != col || cr_rf_in_cr_window(t, r->proc, r->ts))
                continue;
            if (r->proc != kproc) {
                kproc = r->proc;
                /* calls and kernels are both in process order: on from
                 * the last process's first kernel */
                while (start < t->na && t->a[start].proc < kproc)
                    start++;
                for (int q = 0; q < max_dev + 2; q++)
                    cur[q] = start;
            }
            const rcomm *cm = NULL;
            for (size_t q = 0; q < t->ncm && !cm; q++)
                if (!strcmp(t->cm[q].comm, r->comm))
                    cm = &t->cm[q];
            int dev = cm && cm->dev <= max_dev ? cm->dev : -1;
            /* the process's first free kernel of this collective on the
             * call's GPU (any GPU where the payload does not say) */
            size_t ka = cur[dev + 1];
            while (ka < t->na && t->a[ka].proc == kproc &&
                   (t->a[ka].nccl != col || used[ka] || (dev >= 0 && t->a[ka].dev != dev)))
                ka++;
            cur[dev + 1] = ka;
            bool has = ka < t->na && t->a[ka].proc == kproc;
            if (r->in_group > 1) {
                /* the group's one kernel goes with its first call */
                bool first = true;
                for (size_t j = i; j-- > 0 && t->nc[j].group == r->group;)
                    first = first && t->nc[j].coll != col;
                if (first && has)
                    used[ka] = true;
                c->out->nccl_grouped++;
                continue;
            }
            if (!has) {
                c->out->nccl_unpaired++;
                continue;
            }
            used[ka] = true;
            const ract *k = &t->a[ka];
            int n = cm ? cm->n : 0;
            if (n == 0)
                n = c->n_ranks_opt ? c->n_ranks_opt : world;
            cr_vmeas *m = cr_vlist_push(&c->nccl);
            if (!m) {
                free(used);
                free(cur);
                return cr_diag_set(d, CR_ENOMEM, "out of memory");
            }
            m->c.family = CR_VFAM_NCCL;
            int nk = 0;
            double bytes = r->size * (nccl_colls[col].times_n && n > 0 ? n : 1);
#define KV(K, ...)                                                                                 \
    do {                                                                                           \
        cr_str_copy(m->c.kv[nk].key, sizeof m->c.kv[nk].key, K);                                   \
        snprintf(m->c.kv[nk].value, sizeof m->c.kv[nk].value, __VA_ARGS__);                        \
        nk++;                                                                                      \
    } while (0)
            KV("coll", "%s", nccl_colls[col].coll);
            if (r->size >= 0) /* else the payload had none: said on the row */
                KV("bytes", "%.0f", bytes);
            if (n > 0)
                KV("nranks", "%d", n);
            int dt = cr_rf_kernel_dtype(k->name);
            if (dt >= 0)
                KV("dtype", "%s", cr_dtype_name((cr_dtype)dt));
            else if (c->o && c->o->has_dtype)
                KV("dtype", "%s", cr_dtype_name(c->o->dtype));
            KV("dt_src", "%s", dt >= 0 ? "kernel" : "opt");
            KV("iters", "1");
#undef KV
            m->c.n_keys = nk;
            /* one process driving several GPUs: each call is its
             * communicator's rank, merged with the others as ranks are */
            bool multi = rank < 0 && cm && cm->rank >= 0 && cm->dev >= 0;
            m->rank = multi ? cm->rank : rank;
            m->world_size = multi ? cm->n : world;
            m->ts_base_ns = base;
            cr_str_copy(m->host, sizeof m->host, host);
            cr_str_copy(m->source, sizeof m->source, b);
            m->measured_s = k->dur;
            m->samples = 1;
            m->activities = 1;
            m->devices = 1;
            cr_vmeas_make_label(m);
            if (cr_vlist_set_iters(&c->nccl, m, &k->ts, &k->end, 1) != CR_OK) {
                free(used);
                free(cur);
                return cr_diag_set(d, CR_ENOMEM, "out of memory");
            }
        }
    }
    /* NCCL kernels no call claims (NCCL traced without its ranges, one
     * process driving several GPUs): counted, and listed with their time */
    cr_status st = CR_OK;
    char sn[256];
    for (size_t i = 0; i < t->na && st == CR_OK; i++) {
        if (t->a[i].nccl < 0 || used[i])
            continue;
        c->out->nccl_unpaired++;
        cr_trace_short_name(t->a[i].name, sn, sizeof sn);
        st = add_call(c, sn, NULL, t->a[i].dur, d, "K\x1f%s", sn);
    }
    free(used);
    free(cur);
    return st;
}

/* emit_nvtx ranges by (process, op_id): where input_op_ids point. */
typedef struct {
    int64_t proc;
    long long op;
    size_t i;
} rop;

static int cmp_rop(const void *x, const void *y)
{
    const rop *a = x, *b = y;
    if (a->proc != b->proc)
        return (a->proc > b->proc) - (a->proc < b->proc);
    return (a->op > b->op) - (a->op < b->op);
}

typedef struct {
    const rtrace *t;
    const rop *ix;
    size_t n;
    int64_t proc;
} rprod;

/* The range of op op_id in the consumer's process; NULL where two ranges
 * share the id (a hand-made trace): which made the input is then unknown. */
static const rrange *producer_range(const rprod *p, long long op_id)
{
    rop key = {p->proc, op_id, 0};
    const rop *f = p->n ? bsearch(&key, p->ix, p->n, sizeof *p->ix, cmp_rop) : NULL;
    if (!f)
        return NULL;
    if ((f > p->ix && !cmp_rop(f - 1, f)) || (f + 1 < p->ix + p->n && !cmp_rop(f + 1, f)))
        return NULL;
    return &p->t->rg[f->i];
}

static bool find_producer(void *vctx, long long op_id, cr_rf_name *out)
{
    const rrange *r = producer_range(vctx, op_id);
    return r && is_emit_nvtx(r->name, out);
}

/* What the kernels of range src, and of the ranges nested in it (sorted
 * by start, the outer first: cmp_rrange), show of the type it wrote: bf16
 * or fp16 (a product's: the type its operands showed, in_dtype), -1 for
 * another type, -2 where none of them launched anything. */
static int range_dtype16(const rtrace *t, const rrange *src)
{
    bool any = false, bf16 = false, fp16 = false;
    const rrange *end = t->rg + t->nr;
    /* the sorted ranges: a graph launch's copies come after them */
    for (const rrange *r = src; r < end && !r->replay && r->proc == src->proc && r->ts < src->end;
         r++) {
        if (r != src && r->end > src->end)
            continue; /* another thread's range across its end */
        if (r->n_acts == 0)
            continue;
        any = true;
        int dt = r->dtype >= 0 ? r->dtype : r->in_dtype;
        bf16 = bf16 || dt == CR_DT_BF16;
        fp16 = fp16 || dt == CR_DT_FP16;
    }
    return bf16 ? CR_DT_BF16 : fp16 ? CR_DT_FP16 : any ? -1 : -2;
}

/* A matrix product's element type from its operands, where its own
 * kernels name none (a Triton GEMM's, a library's): each operand
 * followed through input_op_ids, through the ranges that launched nothing
 * and keep their input's type (views, split, in-place ops: a no-op
 * aten::to among them), to the first that launched kernels (itself or the
 * ranges nested in it: aten::layer_norm's are aten::native_layer_norm's;
 * a conversion's, its copy), which says bf16 or fp16 or, as a product
 * whose type came so, its operands' (ranges are read in the order they
 * start, so a producer's comes first); -1 where none says one. Only those
 * two types: PyTorch runs these products on no narrower type (fp8 goes
 * through aten::_scaled_mm), so a product of bf16 or fp16 operands runs at
 * their tensor-core rate at best, and one whose operands are really wider
 * (behind a conversion the trace shows as bf16) no faster: the bound stays
 * a bound. An fp32 producer is not taken: TF32 or bf16 arithmetic
 * (torch.set_float32_matmul_precision) may run an fp32 product faster
 * than fp32's peak. */
static int input_dtype(const rprod *pc, const cr_rf_name *pn)
{
    if (!cr_rf_operands_one_type(pn->op) || pn->n_ids != pn->n_shapes)
        return -1;
    bool bf16 = false, fp16 = false;
    for (int i = 0; i < pn->n_ids; i++) {
        long long op = pn->id_op[i];
        /* a chain of views is short; the cap stops a cycle of bad ids */
        for (int depth = 0; depth < 64 && op > 0; depth++) {
            const rrange *src = producer_range(pc, op);
            cr_rf_name pr;
            if (!src)
                break;
            int dt = range_dtype16(pc->t, src);
            if (dt != -2) {
                bf16 = bf16 || dt == CR_DT_BF16;
                fp16 = fp16 || dt == CR_DT_FP16;
                break;
            }
            if (!is_emit_nvtx(src->name, &pr) || !cr_rf_type_of_input0(pr.op) || pr.n_ids < 1)
                break;
            op = pr.id_op[0];
        }
    }
    return bf16 ? CR_DT_BF16 : fp16 ? CR_DT_FP16 : -1;
}

/* The part of a call's case that input_op_ids decide: calls of one
 * operator, sizes and type whose inputs resolve to other bytes are one
 * row, each held to its own case's bound (rows_aten). */
static void case_sig(const cr_rf_name *pn, const cr_rf_owned *own, char *buf, size_t size)
{
    cr_rf_case m;
    buf[0] = '\0';
    if (!cr_rf_map_aten(pn, own, &m))
        return;
    int o = cr_snprintf_c(buf, size, "%.17g/%.17g/%.17g/%d", m.w_elems, m.r_elems, m.r_bytes,
                          (int)m.read_1b);
    for (int i = 0; i < m.n && o >= 0 && (size_t)o < size; i++)
        o += snprintf(buf + o, size - (size_t)o, " %s=%s", m.k[i], m.v[i]);
}

/* A trace whose operator ranges own activities by their start although
 * its launches did not block (metadata.launch_blocking false): where the
 * GPU ran behind the host, a kernel counted for a later operator than the
 * one that launched it (doc/roofline.md, "Which range owns an activity"). */
static void note_by_start(cr_roofline *out, const cr_trace_info *ti, const char *path)
{
    if (ti->launch_blocking == 0 && out->by_start++ == 0)
        cr_str_copy(out->by_start_path, sizeof out->by_start_path, path);
}

/* An activity of a trace that recorded the CUDA calls whose own call is
 * not among them (a call the tracer does not record as launching work):
 * placed by its start, as in a trace without the calls. */
static void note_unlinked(cr_roofline *out, const ract *a, const char *path)
{
    if (out->unlinked++ == 0) {
        char sn[128];
        cr_trace_short_name(a->name, sn, sizeof sn);
        snprintf(out->first_unlinked, sizeof out->first_unlinked, "%s in %s", sn, path);
    }
}

static cr_status read_file(const char *path, void *vctx, cr_vread_info *info, cr_diag *d)
{
    rctx *c = vctx;
    cr_trace_file vt;
    cr_status st = cr_trace_file_open(&vt, path, d);
    if (st != CR_OK)
        return st;
    rtrace t = {0};
    int *owner = NULL;
    bool *by_call = NULL;
    rop *ix = NULL;
    const cr_trace_event *ev = NULL;
    while ((st = cr_trace_reader_next(vt.r, &ev, d)) == CR_OK && ev)
        if ((st = collect(&t, ev, path, d)) != CR_OK)
            break;
    st = cr_trace_file_end(&vt, st, d);
    if (st != CR_OK)
        goto out;
    cr_trace_info ti;
    cr_trace_reader_info(vt.r, &ti);
    if ((st = cr_vread_note_trace(info, path, &ti, d)) != CR_OK)
        goto out;
    cr_rf_sort(&t);
    owner = malloc((t.na ? t.na : 1) * sizeof *owner);
    by_call = malloc((t.na ? t.na : 1) * sizeof *by_call);
    if (!owner || !by_call) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    size_t linked = 0;
    bool by_start = false; /* an operator range owns an activity by its start */
    if ((st = cr_rf_assign_by_start(&t, owner, d)) != CR_OK ||
        (st = cr_rf_assign_by_launch(&t, owner, by_call, &linked, d)) != CR_OK ||
        (st = cr_rf_cr_windows(&t, d)) != CR_OK ||
        (st = cr_rf_assign_by_graph(&t, owner, by_call, d)) != CR_OK)
        goto out;
    char sn[256];
    for (size_t i = 0; i < t.na; i++) {
        const ract *a = &t.a[i];
        if (cr_rf_in_cr_window(&t, a->proc, a->ts))
            continue; /* validate reads it */
        if (a->nccl != -1 && a->nccl != -2)
            continue; /* paired with NCCL's ranges below */
        if (linked > 0 && !by_call[i] && ti.launch_blocking != 1)
            note_unlinked(c->out, a, path);
        rrange *r = owner[i] >= 0 ? &t.rg[owner[i]] : NULL;
        if (r && (r->kind == RG_ATEN || r->kind == RG_ATEN_UNREAD || r->kind == RG_CROP)) {
            by_start = by_start || !by_call[i];
            c->out->graph_activities += a->by_node;
            if (r->n_acts++ == 0)
                r->first_ts = a->ts, r->last_end = a->ts;
            /* the union of its activities: the whole of one that starts
             * after the last ended, the part past it of one that overlaps */
            r->busy_s += a->ts >= r->last_end ? a->dur : fmax(0, a->end - r->last_end);
            r->last_end = fmax(r->last_end, a->end);
            if (a->cat == CR_TRACE_KERNEL) {
                r->own.kernel = true;
                if (r->dtype < 0)
                    r->dtype = cr_rf_kernel_dtype(a->name);
                if (strstr(a->name, "LoadWithCast"))
                    r->own.cast_loads = true;
                if (strstr(a->name, "grad_input"))
                    r->own.grad_input_kernel = true;
                int eb = cr_rf_kernel_elem_bytes(a->name);
                if (eb > 0 && (r->own.elem_bytes == 0 || eb < r->own.elem_bytes))
                    r->own.elem_bytes = eb;
            } else if (a->cat == CR_TRACE_MEMCPY) {
                if (!r->own.copy)
                    r->own.copy_kind = a->kind, r->own.copy_pinned = a->pinned;
                r->own.copy = true;
                r->own.copy_bytes += a->bytes;
            }
            continue;
        }
        /* another kernel: listed by its name */
        cr_trace_short_name(a->name, sn, sizeof sn);
        if (!r)
            c->out->calls_unowned++;
        if ((st = add_call(c, sn, NULL, a->dur, d, "K\x1f%s", sn)) != CR_OK)
            goto out;
    }
    if (linked == 0 && by_start)
        note_by_start(c->out, &ti, path);
    /* the operators input_op_ids name: a graph's later launches' copies of
     * a range (cr_rf_assign_by_graph) are the same operator, not another
     * with its id */
    size_t nix = 0;
    for (size_t i = 0; i < t.nr; i++)
        nix += t.rg[i].kind == RG_ATEN && t.rg[i].op_id > 0 && !t.rg[i].replay;
    ix = malloc((nix ? nix : 1) * sizeof *ix);
    if (!ix) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    nix = 0;
    for (size_t i = 0; i < t.nr; i++)
        if (t.rg[i].kind == RG_ATEN && t.rg[i].op_id > 0 && !t.rg[i].replay)
            ix[nix++] = (rop){t.rg[i].proc, t.rg[i].op_id, i};
    if (nix > 1)
        qsort(ix, nix, sizeof *ix, cmp_rop);
    for (size_t i = 0; i < t.nr; i++) {
        rrange *r = &t.rg[i];
        if (r->n_acts == 0)
            continue;
        if (r->kind == RG_CROP) {
            /* iters=N: N calls, each the range's device time / N (their
             * mean), in the row of the operator and its parameters (the
             * key leaves a valid iters= out); a bad count is one call in
             * a row of its own, which says why */
            long long reps = crop_reps(r->name, NULL, 0);
            const char *it = reps > 0 ? strstr(r->name, " iters=") : NULL;
            size_t off = it ? (size_t)(it - r->name) : strlen(r->name);
            size_t len = it ? 7 + strcspn(it + 7, " ") : 0;
            reps = reps > 0 ? reps : 1;
            if ((st = add_call(c, r->name, r, r->busy_s / (double)reps, d, "C\x1f%.*s%s", (int)off,
                               r->name, r->name + off + len)) != CR_OK)
                goto out;
            c->calls[c->ncall - 1].reps = reps;
            continue;
        }
        if (r->kind == RG_ATEN_UNREAD) { /* one row per operator, its name unread */
            if ((st = add_call(c, r->name, r, r->busy_s, d, "U\x1f%.*s", (int)strcspn(r->name, ","),
                               r->name)) != CR_OK)
                goto out;
            continue;
        }
        if (r->kind != RG_ATEN)
            continue;
        cr_rf_name pn;
        if (!is_emit_nvtx(r->name, &pn))
            continue;
        rprod pc = {&t, ix, nix, r->proc};
        if (cr_rf_resolve_inputs(&pn, find_producer, &pc, &r->own.in) != CR_OK) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        /* --dtype, where given, is the type of every call whose kernels name
         * none: what the operands' producers show is read only without it */
        if (r->dtype < 0 && !(c->o && c->o->has_dtype))
            r->in_dtype = input_dtype(&pc, &pn);
        char sig[512];
        case_sig(&pn, &r->own, sig, sizeof sig);
        st = add_call(c, r->name, r, r->busy_s, d, "A\x1f%s\x1f%.*s\x1f%d\x1f%d", pn.op,
                      (int)pn.sizes_len, r->name + pn.sizes_off, r->dtype, r->in_dtype);
        if (st != CR_OK) {
            cr_rf_inputs_free(&r->own.in);
            goto out;
        }
        memset(&r->own.in, 0, sizeof r->own.in); /* the call owns its inputs now */
        if (!(c->calls[c->ncall - 1].sig = strdup(sig))) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
    }
    st = nccl_calls(c, &t, path, cr_trace_reader_metadata(vt.r), d);
    if (st == CR_OK) {
        cr_vtrace_devs devs = {.n = 0};
        for (size_t i = 0; i < t.na; i++)
            cr_vtrace_devs_add(&devs, t.a[i].dev);
        st = cr_vtrace_gpus_add(&c->out->gpus, &c->out->n_gpus, &c->out->cap_gpus, path,
                                cr_trace_reader_metadata(vt.r), &devs, d);
    }
    if (st == CR_OK)
        c->out->files++;
out:
    free(ix);
    free(owner);
    free(by_call);
    rtrace_free(&t);
    cr_trace_file_close(&vt);
    return st;
}

/* Evaluates the catalog operator def with p and fills w's bound, binding
 * and verdict (or its note, when the catalog refuses the parameters): the
 * one way a roofline row gets a bound. */
static void put_verdict(const cr_topo *t, const cr_op_def *def, const cr_op_params *p, cr_rf_row *w)
{
    cr_diag dd = {{0}};
    cr_op_result r;
    if (cr_op_eval(t, def, p, &r, &dd) != CR_OK) {
        snprintf(w->note, sizeof w->note, "%.180s", dd.msg);
        return;
    }
    w->has_bound = true;
    w->bound_s = r.bound_s;
    w->bound_cold_s = r.bound_cold_s;
    cr_str_copy(w->binding, sizeof w->binding, r.binding);
    /* A row's time is the GPU's (its activities' union), which holds none
     * of the host's launch cost: the baseline it is held to is the
     * baseline's device part, its kernels and collectives, not the
     * PyTorch launch overhead cr_op_eval adds per kernel (a 10.5 us cat
     * read as faster than a 10.7 us baseline whose kernel is 5.7 us) */
    r.baseline_s -= r.baseline_launch_s;
    double pct, sp;
    cr_verdict v = cr_op_verdict(&r, w->median_s, &pct, &sp);
    w->pct_of_roofline = isfinite(pct) ? pct : NAN; /* none for a median of 0 us */
    w->violation = v == CR_VERDICT_IMPOSSIBLE;
    cr_str_copy(w->verdict, sizeof w->verdict, cr_verdict_name(v));
}

/* Evaluates a catalog case; fills the row's bound, or its note. */
static cr_status eval_catalog(const cr_topo *t, const cr_rf_case *m, cr_dtype dt, cr_rf_row *w,
                              cr_diag *d)
{
    const cr_op_def *def = NULL;
    cr_diag dd = {{0}};
    if (cr_op_find(m->op, &def, &dd) != CR_OK)
        return cr_diag_set(d, CR_EINVARIANT, "roofline: catalog lacks %s", m->op);
    cr_op_params p;
    memset(&p, 0, sizeof p);
    cr_op_params_defaults(def, &p);
    int o = snprintf(w->model, sizeof w->model, "%s", m->op);
    for (int i = 0; i < m->n; i++) {
        if (cr_op_param_set(def, &p, m->k[i], m->v[i], &dd) != CR_OK) {
            snprintf(w->note, sizeof w->note, "%.180s", dd.msg);
            return CR_OK;
        }
        if (o >= 0 && (size_t)o < sizeof w->model)
            o += snprintf(w->model + o, sizeof w->model - (size_t)o, " %s=%s", m->k[i], m->v[i]);
    }
    if (cr_op_uses(def, CR_OPP_DTYPE)) {
        p.v[CR_OPP_DTYPE] = dt;
        p.set[CR_OPP_DTYPE] = true;
        if (o >= 0 && (size_t)o < sizeof w->model)
            snprintf(w->model + o, sizeof w->model - (size_t)o, " dtype=%s", cr_dtype_name(dt));
    }
    put_verdict(t, def, &p, w);
    if (m->note[0] && !w->note[0])
        cr_str_copy(w->note, sizeof w->note, m->note);
    return CR_OK;
}

/* A "cr:<op> key=value ..." range of a catalog operator: its parameters
 * as the user gave them, the dtype from them, else its kernels, else
 * --dtype, else the operator's default. The row's name is its key's (the
 * range's, less a valid iters=: the row holds ranges of any count);
 * reps_in_row: some of its calls came from a range of iters=N > 1. */
static cr_status eval_cr_op(const rctx *c, const struct call *k, bool reps_in_row, cr_rf_row *w,
                            cr_diag *d)
{
    const cr_topo *t = c->t;
    const char *p = k->key + 2 + 3; /* "C\x1f" "cr:" */
    size_t ol = strcspn(p, " ");
    snprintf(w->op, sizeof w->op, "cr:%.*s", (int)(ol > 40 ? 40 : ol), p);
    cr_str_copy(w->args, sizeof w->args, p[ol] ? p + ol + 1 : "");
    char op[48];
    snprintf(op, sizeof op, "%.*s", (int)(ol > 40 ? 40 : ol), p);
    const cr_op_def *def = NULL;
    cr_diag dd = {{0}};
    if (cr_op_find(op, &def, &dd) != CR_OK) {
        snprintf(w->note, sizeof w->note, "%.180s", dd.msg);
        return CR_OK;
    }
    char why[160];
    long long reps = crop_reps(k->name, why, sizeof why);
    if (reps < 1) {
        cr_str_copy(w->note, sizeof w->note, why);
        return CR_OK;
    }
    cr_op_params prm;
    memset(&prm, 0, sizeof prm);
    cr_op_params_defaults(def, &prm);
    int o = snprintf(w->model, sizeof w->model, "%s", op);
    /* the whole name: w->args is cut for the table */
    char *args = strdup(p[ol] ? p + ol + 1 : "");
    if (!args)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    bool given[CR_OPP__COUNT] = {false};
    for (char *save = NULL, *tok = strtok_r(args, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            snprintf(w->note, sizeof w->note, "\"%.60s\" is not key=value", tok);
            free(args);
            return CR_OK;
        }
        *eq = '\0';
        if (!strcmp(tok, "iters") || !strcmp(tok, "name"))
            continue; /* not the operator's: the repetitions (crop_reps), a label */
        int kp = cr_opp_parse(tok);
        if (kp >= 0 && given[kp]) {
            snprintf(w->note, sizeof w->note, "%.40s given twice: give each parameter once", tok);
            free(args);
            return CR_OK;
        }
        if (cr_op_param_set(def, &prm, tok, eq + 1, &dd) != CR_OK) {
            snprintf(w->note, sizeof w->note, "%.180s", dd.msg);
            free(args);
            return CR_OK;
        }
        if (kp >= 0)
            given[kp] = true;
        if (!strcmp(tok, "dtype"))
            cr_str_copy(w->dtype_src, sizeof w->dtype_src, "range");
        else if (o >= 0 && (size_t)o < sizeof w->model)
            o += snprintf(w->model + o, sizeof w->model - (size_t)o, " %s=%s", tok, eq + 1);
    }
    free(args);
    /* a size the range left out has no stand-in: a bound on the
     * catalog's default sizes is another problem's (cr_opp_is_size); the
     * rest (switches, factors, the group layout) take the catalog's
     * defaults, said in the note */
    char missing[96] = "";
    size_t nm = 0;
    int nn = 0;
    for (int kp = 0; kp < CR_OPP__COUNT; kp++) {
        if (kp == CR_OPP_DTYPE || given[kp] || !cr_op_uses(def, (cr_opp)kp))
            continue;
        if (kp == CR_OPP_BATCH && !strcmp(op, "gemm"))
            continue; /* one product: what a gemm range without a batch is */
        if (cr_opp_is_size((cr_opp)kp)) {
            if (nm < sizeof missing)
                nm += (size_t)snprintf(missing + nm, sizeof missing - nm, "%s%s=", nm ? ", " : "",
                                       cr_opp_name((cr_opp)kp));
            continue;
        }
        size_t used = strlen(w->note);
        cr_snprintf_c(w->note + used, sizeof w->note - used, "%s%s=%g",
                      nn++ ? " " : "not in the range, the catalog's defaults: ",
                      cr_opp_name((cr_opp)kp), prm.v[kp]);
    }
    if (missing[0]) {
        snprintf(w->note, sizeof w->note,
                 "no bound: the range gives no %.60s (the sizes of a %.40s call: give each in "
                 "the range)",
                 missing, op);
        return CR_OK;
    }
    if (cr_op_uses(def, CR_OPP_DTYPE)) {
        /* the range's dtype=, else what the kernels' names show, else
         * --dtype; no bound on a guessed type (fp8 runs 2x bf16's peak) */
        if (!w->dtype_src[0]) {
            if (k->dtype >= 0) {
                prm.v[CR_OPP_DTYPE] = k->dtype;
                cr_str_copy(w->dtype_src, sizeof w->dtype_src, "kernel");
            } else if (c->o && c->o->has_dtype) {
                prm.v[CR_OPP_DTYPE] = c->o->dtype;
                cr_str_copy(w->dtype_src, sizeof w->dtype_src, "--dtype");
            } else {
                snprintf(w->note, sizeof w->note,
                         "no bound: element type neither in the range nor in its kernels' "
                         "names: give dtype= in the range or --dtype");
                return CR_OK;
            }
        }
        cr_dtype dt = (cr_dtype)(int)prm.v[CR_OPP_DTYPE];
        cr_str_copy(w->dtype, sizeof w->dtype, cr_dtype_name(dt));
        if (o >= 0 && (size_t)o < sizeof w->model)
            snprintf(w->model + o, sizeof w->model - (size_t)o, " dtype=%s", cr_dtype_name(dt));
    }
    put_verdict(t, def, &prm, w);
    if (reps_in_row) {
        size_t used = strlen(w->note);
        snprintf(w->note + used, sizeof w->note - used,
                 "%sa range of iters=N is N calls, each its device time / N", used ? "; " : "");
    }
    return CR_OK;
}

/* Evaluates the aten call k (its range's name and what its activities
 * show) into w: op, args, element type, catalog case, bound, verdict or
 * the note saying why there is none. */
static cr_status eval_aten(const rctx *c, const struct call *k, cr_rf_row *w, cr_diag *d)
{
    w->kind = CR_RF_ATEN;
    cr_rf_name pn;
    cr_diag dd = {{0}};
    cr_rf_parse_name(k->name, &pn, &dd);
    cr_str_copy(w->op, sizeof w->op, pn.op);
    snprintf(w->args, sizeof w->args, "%.*s", (int)pn.sizes_len, k->name + pn.sizes_off);
    int dt = k->dtype;
    if (dt >= 0) {
        cr_str_copy(w->dtype_src, sizeof w->dtype_src, "kernel");
    } else if (k->own.copy && !k->own.kernel) {
        cr_str_copy(w->dtype_src, sizeof w->dtype_src, "copy bytes");
        dt = CR_DT_FP32; /* a memcpy's bound needs only its bytes */
    } else if (c->o && c->o->has_dtype &&
               (k->own.elem_bytes == 0 || cr_dtype_bytes(c->o->dtype) <= k->own.elem_bytes)) {
        dt = (int)c->o->dtype;
        cr_str_copy(w->dtype_src, sizeof w->dtype_src, "--dtype");
    } else if (k->in_dtype >= 0 && (k->own.elem_bytes == 0 ||
                                    cr_dtype_bytes((cr_dtype)k->in_dtype) <= k->own.elem_bytes)) {
        dt = k->in_dtype; /* read only without --dtype (read_file) */
        cr_str_copy(w->dtype_src, sizeof w->dtype_src, "input");
    } else if (k->own.elem_bytes > 0) {
        /* an untyped kernel whose name shows its element size
         * (OpaqueType<2u>, bool): a type of that size, never wider
         * than the trace shows (1 byte: fp8, the highest peak) */
        dt = k->own.elem_bytes == 1   ? CR_DT_FP8
             : k->own.elem_bytes == 2 ? CR_DT_BF16
             : k->own.elem_bytes == 4 ? CR_DT_FP32
                                      : CR_DT_FP64;
        cr_str_copy(w->dtype_src, sizeof w->dtype_src, "kernel size");
    }
    if (dt >= 0 && strcmp(w->dtype_src, "copy bytes") != 0)
        cr_str_copy(w->dtype, sizeof w->dtype, cr_dtype_name((cr_dtype)dt));
    cr_rf_case m;
    if (!cr_rf_map_aten(&pn, &k->own, &m)) {
        cr_str_copy(w->note, sizeof w->note, m.note);
    } else if (dt < 0) {
        cr_str_copy(w->note, sizeof w->note,
                    "element type not in the trace (no typed kernel name): give --dtype");
    } else {
        if (!strcmp(pn.op, "aten::_scaled_mm") && dt != CR_DT_FP8)
            dt = CR_DT_FP8;
        if (m.copy_kernel) {
            /* written at its type, read at one byte an element:
             * in one-byte units */
            m.read_1b = true;
            if (m.note[0]) {
                size_t used = strlen(m.note);
                snprintf(m.note + used, sizeof m.note - used, "; written at %s",
                         w->dtype[0] ? w->dtype : "its type");
            } else {
                snprintf(m.note, sizeof m.note,
                         "read at 1 byte an element at least (the type read is in no "
                         "kernel name), written at %s",
                         w->dtype[0] ? w->dtype : "its type");
            }
        }
        if (m.parts && k->own.cast_loads && !m.copy_kernel) {
            /* mixed input types (bf16 + fp32): the name shows only
             * the type computed in, so the reads are bounded at one
             * byte an element, as a copy's; an in-place op writes
             * its first input's type, maybe narrower: one byte too */
            m.read_1b = true;
            size_t ol = strlen(pn.op);
            if (ol > 1 && pn.op[ol - 1] == '_')
                m.write_1b = true;
            size_t used = strlen(m.note);
            snprintf(m.note + used, sizeof m.note - used,
                     "%sinputs of mixed types (LoadWithCast): read at 1 byte an element",
                     used ? "; " : "");
        }
        cr_dtype edt = (cr_dtype)dt;
        if (!cr_rf_case_finish(&m, &edt)) {
            cr_str_copy(w->note, sizeof w->note, m.note);
            return CR_OK;
        }
        return eval_catalog(c->t, &m, edt, w, d);
    }
    return CR_OK;
}

/* How the inputs of a call resolved, for a row's note. */
static const char *inputs_text(const cr_rf_name *pn, const cr_rf_inputs *in)
{
    if (!in->has_ids)
        return "unproven (no input_op_ids)";
    for (int i = 0; i < pn->n_shapes; i++)
        if (pn->ndim[i] > 0 && !cr_rf_in_fresh(in, i))
            return "unproven (no producer in the trace)";
    return "read as fewer bytes (input_op_ids)";
}

/* The row of the aten calls c->calls[i..j): one operator, sizes and
 * element type (w has their count and times). Calls whose inputs resolved
 * to other bytes (input_op_ids: fresh tensors, one tensor twice, unproven
 * ones) have other cases, evaluated apart: the row shows the weakest (its
 * smallest warm bound, with its binding and note, and the smallest cold
 * one), which holds for every call; every call is held to its own bound
 * (a call below it is impossible, whatever the row shows), and save_s
 * takes each call down to its own bound (bound_total_s). A row where some
 * calls have no bound has none. */
static cr_status rows_aten(const rctx *c, size_t i, size_t j, cr_rf_row *w, cr_diag *d)
{
    const cr_rf_row base = *w;
    cr_rf_row best, tmp, nob;
    size_t best_at = i, nob_at = i;
    int n_cases = 0, n_bound = 0, best_calls = 0, nob_calls = 0, viol_calls = 0;
    double cold = INFINITY, bound_total = 0, top = 0, viol_s = 0, viol_bound = 0;
    for (size_t s = i; s < j;) {
        size_t e = s;
        double fastest = INFINITY;
        while (e < j && !strcmp(c->calls[e].sig, c->calls[s].sig))
            fastest = fmin(fastest, c->calls[e++].busy_s);
        tmp = base;
        cr_status st = eval_aten(c, &c->calls[s], &tmp, d);
        if (st != CR_OK)
            return st;
        if (!tmp.has_bound) {
            if (nob_calls == 0)
                nob = tmp, nob_at = s;
            nob_calls += (int)(e - s);
        } else {
            if (n_bound++ == 0 || tmp.bound_s < best.bound_s ||
                (tmp.bound_s == best.bound_s && tmp.bound_cold_s < best.bound_cold_s))
                best = tmp, best_at = s, best_calls = (int)(e - s);
            cold = fmin(cold, tmp.bound_cold_s);
            top = fmax(top, tmp.bound_s);
            bound_total += (double)(e - s) * tmp.bound_s;
            /* the call furthest below its own bound */
            if (cr_below_bound(fastest, tmp.bound_s) &&
                (viol_calls == 0 || fastest / tmp.bound_s < viol_s / viol_bound))
                viol_s = fastest, viol_bound = tmp.bound_s, viol_calls = (int)(e - s);
        }
        n_cases++;
        s = e;
    }
    if (n_cases == 1) {
        *w = nob_calls ? nob : best; /* the min_s check in cr_roofline_read */
        return CR_OK;
    }
    cr_rf_name pn;
    cr_diag dd = {{0}};
    if (nob_calls) {
        *w = nob;
        cr_rf_parse_name(c->calls[nob_at].name, &pn, &dd);
        char note[2 * sizeof w->note];
        snprintf(note, sizeof note,
                 "%d of %d calls (inputs %s) have no bound, so neither has the row; %s", nob_calls,
                 w->calls, inputs_text(&pn, &c->calls[nob_at].own.in), w->note);
        snprintf(w->note, sizeof w->note, "%.*s", (int)sizeof w->note - 1, note);
        return CR_OK;
    }
    *w = best;
    w->bound_cold_s = cold;
    w->bound_total_s = bound_total;
    char note[2 * sizeof w->note];
    int o = 0;
    if (viol_calls) {
        w->violation = true;
        cr_str_copy(w->verdict, sizeof w->verdict, cr_verdict_name(CR_VERDICT_IMPOSSIBLE));
        o = cr_snprintf_c(note, sizeof note, "a call took %.3f us, below its own bound %.3f us; ",
                          viol_s * 1e6, viol_bound * 1e6);
    }
    cr_rf_parse_name(c->calls[best_at].name, &pn, &dd);
    if (o >= 0 && (size_t)o < sizeof note)
        cr_snprintf_c(
            note + o, sizeof note - (size_t)o,
            "%d of %d calls' inputs %s: the row's bound is theirs, others' up to %.3f us%s%s",
            best_calls, w->calls, inputs_text(&pn, &c->calls[best_at].own.in), top * 1e6,
            w->note[0] ? "; " : "", w->note);
    snprintf(w->note, sizeof w->note, "%.*s", (int)sizeof w->note - 1, note);
    return CR_OK;
}

static int cmp_call(const void *x, const void *y)
{
    const struct call *a = x, *b = y;
    int k = strcmp(a->key, b->key);
    return k ? k : strcmp(a->sig ? a->sig : "", b->sig ? b->sig : "");
}

/* A call's time and the calls it stands for (a range of iters=N). */
typedef struct {
    double s;
    long long reps;
} rep_time;

static int cmp_rep_time(const void *x, const void *y)
{
    const rep_time *a = x, *b = y;
    return (a->s > b->s) - (a->s < b->s);
}

/* The median of the n times of t (sorted here), where t[i] stands for
 * t[i].reps calls (total in all): cr_median's of the list with each time
 * repeated, without writing it out (a range may stand for 1e9 calls). */
static double median_reps(rep_time *t, size_t n, long long total)
{
    qsort(t, n, sizeof *t, cmp_rep_time);
    /* the places (total - 1) / 2 and total / 2 (0-based) */
    long long lo = (total - 1) / 2, hi = total / 2, seen = 0;
    double vlo = NAN, vhi = NAN;
    for (size_t i = 0; i < n; i++) {
        if (lo >= seen && lo < seen + t[i].reps)
            vlo = t[i].s;
        if (hi >= seen && hi < seen + t[i].reps)
            vhi = t[i].s;
        seen += t[i].reps;
    }
    return 0.5 * (vlo + vhi);
}

static cr_status rows_from_calls(rctx *c, cr_diag *d)
{
    if (c->ncall > 1)
        qsort(c->calls, c->ncall, sizeof *c->calls, cmp_call);
    double *v = malloc((c->ncall ? c->ncall : 1) * sizeof *v);
    rep_time *vr = malloc((c->ncall ? c->ncall : 1) * sizeof *vr);
    if (!v || !vr) {
        free(v);
        free(vr);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    cr_status st = CR_OK;
    for (size_t i = 0; i < c->ncall;) {
        size_t j = i;
        double tot = 0, fastest = INFINITY;
        long long calls = 0;
        while (j < c->ncall && !strcmp(c->calls[j].key, c->calls[i].key)) {
            v[j - i] = c->calls[j].busy_s;
            vr[j - i] = (rep_time){c->calls[j].busy_s, c->calls[j].reps};
            tot += c->calls[j].busy_s * (double)c->calls[j].reps;
            fastest = fmin(fastest, c->calls[j].busy_s);
            calls += c->calls[j].reps;
            j++;
        }
        const struct call *k = &c->calls[i];
        cr_rf_row *w = cr_rf_push_row(c->out);
        if (!w) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            break;
        }
        /* a range of iters=N is N calls of its mean (crop_reps); over
         * 2^31 - 1 of them (three ranges of 1e9) the count stops there,
         * and the note says so */
        w->calls = calls > INT_MAX ? INT_MAX : (int)calls;
        w->median_s =
            calls > (long long)(j - i) ? median_reps(vr, j - i, calls) : cr_median(v, j - i);
        w->min_s = fastest;
        w->total_s = tot;
        if (k->key[0] == 'C') {
            w->kind = CR_RF_CR;
            if ((st = eval_cr_op(c, k, calls > (long long)(j - i), w, d)) != CR_OK)
                break;
            if (calls > INT_MAX) {
                size_t used = strlen(w->note);
                snprintf(w->note + used, sizeof w->note - used,
                         "%s%lld calls, shown as %d (the count's limit)", used ? "; " : "", calls,
                         INT_MAX);
            }
        } else if (k->key[0] == 'U') {
            /* an operator's range whose name does not read as emit_nvtx's:
             * its kernels are the operator's, without a bound */
            w->kind = CR_RF_ATEN;
            cr_str_copy(w->op, sizeof w->op, k->key + 2);
            cr_rf_name pn;
            cr_diag dd = {{0}};
            cr_rf_parse_name(k->name, &pn, &dd);
            snprintf(w->note, sizeof w->note, "its range's name does not read (%.120s): no bound",
                     dd.msg[0] ? dd.msg : "no sizes, seq or op_id");
        } else if (k->key[0] == 'K') {
            w->kind = CR_RF_KERNEL;
            if (strlen(k->name) < sizeof w->op)
                cr_str_copy(w->op, sizeof w->op, k->name);
            else /* cut between characters, and says so */
                snprintf(w->op, sizeof w->op, "%.*s...",
                         (int)sb_utf8_cut(k->name, sizeof w->op - 4), k->name);
            cr_str_copy(w->note, sizeof w->note, "no operator range owns it");
        } else {
            if ((st = rows_aten(c, i, j, w, d)) != CR_OK)
                break;
        }
        i = j;
    }
    free(v);
    free(vr);
    return st;
}

/* A row from a validate measurement and its result. */
static void row_from_vresult(cr_rf_row *w, const cr_vmeas *m, const cr_vresult *r)
{
    w->has_bound = r->has_bound;
    w->bound_s = r->bound_s;
    w->bound_cold_s = r->bound_cold_s;
    cr_str_copy(w->binding, sizeof w->binding, r->binding);
    w->pct_of_roofline = r->timed ? r->pct_of_roofline : NAN; /* none for 0 us */
    w->violation = r->has_bound && r->violation;
    /* a case declared cold is held to the cold bound throughout, as check
     * --cold holds the same kernel: near-roofline by it too (a 128 MiB cold
     * read at 90.8% of its cold bound read faster-than-baseline) */
    w->held_cold = r->has_bound && r->held_cold;
    double held_s = cr_vresult_held_s(r);
    if (r->has_bound) {
        const char *v = r->violation        ? "impossible"
                        : r->cache_resident ? "cache-resident"
                        : cr_near_roofline(m->measured_s, held_s)
                            ? "near-roofline"
                            /* below the baseline by more than a part in 10^9, as
                             * cr_op_verdict compares (a time equal to it is not
                             * faster) */
                            : (r->has_pred && cr_below_bound(m->measured_s, r->pred_s)
                                   ? "faster-than-baseline"
                                   : "slower-than-baseline");
        cr_str_copy(w->verdict, sizeof w->verdict, v);
    }
    cr_str_copy(w->note, sizeof w->note, r->note);
    /* pct_of_roofline stays the warm bound's, as validate prints it; the
     * note gives the figure the verdict was judged by */
    if (w->held_cold && r->timed) {
        size_t used = strlen(w->note);
        cr_snprintf_c(w->note + used, sizeof w->note - used,
                      "%scache=cold: held to the cold bound, %.1f%% of it", used ? "; " : "",
                      r->pct_of_roofline_cold);
    }
}

static int cmp_vm(const void *x, const void *y)
{
    const cr_vmeas *a = x, *b = y;
    return strcmp(a->label, b->label);
}

static cr_status rows_from_nccl(rctx *c, cr_diag *d)
{
    cr_vmeas_list *l = &c->nccl;
    cr_status st = cr_validate_merge_ranks(l, &c->out->merged, d);
    if (st != CR_OK)
        return st;
    /* one row per case: its label names the collective, size and ranks */
    for (size_t i = 0; i < l->n; i++) {
        const char *dt = cr_vcase_get(&l->v[i].c, "dtype");
        char lab[96];
        snprintf(lab, sizeof lab, "%.80s %s", l->v[i].label, dt ? dt : "");
        cr_str_copy(l->v[i].label, sizeof l->v[i].label, lab);
    }
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, cmp_vm);
    double *v = malloc((l->n ? l->n : 1) * sizeof *v);
    if (!v)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    cr_validate_opts vo = {c->o ? c->o->ranks : NULL, c->cache};
    for (size_t i = 0; i < l->n && st == CR_OK;) {
        size_t j = i;
        double tot = 0, fastest = INFINITY;
        while (j < l->n && !strcmp(l->v[j].label, l->v[i].label)) {
            v[j - i] = l->v[j].measured_s;
            tot += l->v[j].measured_s;
            fastest = fmin(fastest, l->v[j].measured_s);
            j++;
        }
        cr_vmeas m = l->v[i];
        m.measured_s = cr_median(v, j - i);
        m.n_iter = 0;
        cr_rf_row *w = cr_rf_push_row(c->out);
        if (!w) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            break;
        }
        w->kind = CR_RF_NCCL;
        const char *coll = cr_vcase_get(&m.c, "coll");
        for (int k = 0; k < N_NCCL; k++)
            if (coll && !strcmp(coll, nccl_colls[k].coll))
                cr_str_copy(w->op, sizeof w->op, nccl_colls[k].range);
        cr_str_copy(w->args, sizeof w->args, m.label);
        const char *dt = cr_vcase_get(&m.c, "dtype");
        cr_str_copy(w->dtype, sizeof w->dtype, dt ? dt : "");
        cr_str_copy(w->dtype_src, sizeof w->dtype_src,
                    !dt                                               ? ""
                    : !strcmp(cr_vcase_get(&m.c, "dt_src"), "kernel") ? "kernel"
                                                                      : "--dtype");
        char lone[112];
        cr_str_copy(lone, sizeof lone, m.note);
        snprintf(w->model, sizeof w->model, "coll %s bytes=%s nranks=%s", coll ? coll : "?",
                 cr_vcase_get(&m.c, "bytes") ? cr_vcase_get(&m.c, "bytes") : "?",
                 cr_vcase_get(&m.c, "nranks") ? cr_vcase_get(&m.c, "nranks") : "?");
        w->calls = (int)(j - i);
        w->median_s = m.measured_s;
        w->min_s = fastest;
        w->total_s = tot;
        cr_vresult r;
        cr_diag dd = {{0}};
        if (!cr_vcase_get(&m.c, "bytes")) {
            snprintf(w->note, sizeof w->note,
                     "NCCL's range carries no message size (payload field \"%s\"): no bound",
                     CR_TRACE_NCCL_SIZE_FIELD);
        } else if (!cr_vcase_get(&m.c, "nranks")) {
            snprintf(w->note, sizeof w->note,
                     "communicator size not in the trace: give --ranks (or trace "
                     "ncclCommInitRank)");
        } else if (cr_validate_eval(c->t, &m, &vo, &r, &dd) != CR_OK) {
            snprintf(w->note, sizeof w->note, "%.180s", dd.msg);
        } else {
            row_from_vresult(w, &m, &r);
        }
        if (!w->note[0] && lone[0])
            cr_str_copy(w->note, sizeof w->note, lone);
        if (m.ranks_merged > 1 && !w->note[0])
            snprintf(w->note, sizeof w->note, "over %d ranks", m.ranks_merged);
        i = j;
    }
    free(v);
    return st;
}

static cr_status rows_from_cr(rctx *c, const char *const *paths, int n, cr_diag *d)
{
    cr_vmeas_list l = {0};
    cr_status st = CR_OK;
    cr_vread_info info = {0};
    for (int i = 0; i < n && st == CR_OK; i++)
        st = cr_validate_read_path(paths[i], &l, &info, d);
    /* validate skips the ranges of catalog operators, read here */
    int skipped = info.skipped - info.skipped_catalog;
    c->out->info.skipped += skipped;
    /* the first reason among the ranges this table does not read (a
     * catalog operator's range, which validate skips, is read here) */
    if (skipped > 0 && !c->out->info.why[0])
        cr_str_copy(c->out->info.why, sizeof c->out->info.why, info.why_other);
    cr_vmerge_info mi = {0};
    if (st == CR_OK)
        st = cr_validate_merge_ranks(&l, &mi, d);
    c->out->merged.merged += mi.merged;
    cr_validate_opts vo = {c->o ? c->o->ranks : NULL, c->cache};
    for (size_t i = 0; i < l.n && st == CR_OK; i++) {
        const cr_vmeas *m = &l.v[i];
        cr_rf_row *w = cr_rf_push_row(c->out);
        if (!w) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            break;
        }
        w->kind = CR_RF_CR;
        snprintf(w->op, sizeof w->op, "cr:%s", cr_vfam_name(m->c.family));
        cr_str_copy(w->args, sizeof w->args, m->label);
        const char *dt = cr_vcase_get(&m->c, "dtype");
        cr_str_copy(w->dtype, sizeof w->dtype, dt ? dt : "");
        cr_str_copy(w->dtype_src, sizeof w->dtype_src, dt ? "range" : "");
        w->calls = m->samples;
        w->median_s = m->measured_s;
        if (m->n_iter > 0) {
            /* each iteration is a call, held to the bound by itself
             * (cr_rf_finish_table), as every other row's calls are */
            const double *it = l.iter_s + m->iter_off;
            w->min_s = INFINITY;
            w->total_s = 0;
            for (int g = 0; g < m->n_iter; g++) {
                w->min_s = fmin(w->min_s, it[m->n_iter + g] - it[g]);
                w->total_s += it[m->n_iter + g] - it[g];
            }
        } else {
            /* a case timed otherwise (launch spacing, fused spans) keeps
             * its median alone: no fastest call to tell */
            w->min_s = NAN;
            w->total_s = m->measured_s * m->samples;
        }
        cr_vresult r;
        cr_diag dd = {{0}};
        if (cr_validate_eval(c->t, m, &vo, &r, &dd) != CR_OK)
            snprintf(w->note, sizeof w->note, "%.180s", dd.msg);
        else
            row_from_vresult(w, m, &r);
    }
    cr_vmeas_list_release(&l);
    return st;
}

cr_status cr_roofline_read(const cr_topo *t, const char *const *paths, int n,
                           const cr_roofline_opts *o, cr_roofline *out, cr_diag *d)
{
    memset(out, 0, sizeof *out);
    rctx c;
    memset(&c, 0, sizeof c);
    c.t = t;
    c.o = o;
    c.out = out;
    cr_status st = CR_OK;
    if (!(c.cache = cr_validate_cache_new()))
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    if (o && o->ranks) {
        cr_rankset *rs = NULL;
        if ((st = cr_rankset_parse(o->ranks, t->n_gpus, &rs, d)) != CR_OK) {
            cr_validate_cache_free(c.cache);
            return st;
        }
        c.n_ranks_opt = rs->n;
        cr_rankset_free(rs);
    }
    for (int i = 0; i < n && st == CR_OK; i++)
        st = cr_vtrace_each(paths[i], read_file, &c, &out->info, d);
    out->info.files = out->files;
    if (st == CR_OK)
        st = rows_from_calls(&c, d);
    if (st == CR_OK)
        st = rows_from_nccl(&c, d);
    if (st == CR_OK)
        st = rows_from_cr(&c, paths, n, d);
    for (size_t i = 0; i < c.ncall; i++) {
        free(c.calls[i].key);
        free(c.calls[i].sig);
        free(c.calls[i].name);
        cr_rf_inputs_free(&c.calls[i].own.in);
    }
    free(c.calls);
    cr_vmeas_list_release(&c.nccl);
    cr_validate_cache_free(c.cache);
    if (st != CR_OK) {
        cr_roofline_release(out);
        return st;
    }
    cr_rf_finish_table(out);
    return CR_OK;
}
