/* SPDX-License-Identifier: MIT */
/*
 * Which range owns an activity (roofline_trace_priv.h; doc/roofline.md): by
 * the activity's start, by the CUDA call that made it where the trace
 * recorded the calls, by the making of its CUDA graph node where a graph
 * ran it, and the windows of the cr: ranges that validate reads, which own
 * everything inside them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "roofline_trace_priv.h"

/* A moment of a process (and a thread, or any: OWN_ANY_THREAD) whose
 * innermost open range owns activity i. */
typedef struct {
    int64_t proc, tid;
    double ts;
    size_t i;
} rwhen;

#define OWN_ANY_THREAD INT64_MIN

static int cmp_rwhen(const void *x, const void *y)
{
    const rwhen *a = x, *b = y;
    if (a->proc != b->proc)
        return (a->proc > b->proc) - (a->proc < b->proc);
    return (a->ts > b->ts) - (a->ts < b->ts);
}

/* owner[w[k].i] = the innermost range of w[k]'s process (on its thread,
 * unless any) open at w[k].ts, -1 none; w sorted (cmp_rwhen), t->rg sorted
 * (ranges by process and start, the outer first). The one sweep both
 * rules take. */
static cr_status own_sweep(const rtrace *t, const rwhen *w, size_t n, int *owner, cr_diag *d)
{
    size_t *open = malloc((t->nr ? t->nr : 1) * sizeof *open);
    if (!open)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    size_t j = 0, n_open = 0;
    int64_t proc = INT64_MIN;
    for (size_t k = 0; k < n; k++) {
        if (w[k].proc != proc) {
            proc = w[k].proc;
            n_open = 0;
            while (j < t->nr && t->rg[j].proc < proc)
                j++;
        }
        while (j < t->nr && t->rg[j].proc == proc && t->rg[j].ts <= w[k].ts)
            open[n_open++] = j++;
        size_t m = 0;
        for (size_t q = 0; q < n_open; q++)
            if (t->rg[open[q]].end >= w[k].ts)
                open[m++] = open[q];
        n_open = m;
        int own = -1;
        for (size_t q = n_open; q-- > 0 && own < 0;)
            if (w[k].tid == OWN_ANY_THREAD || t->rg[open[q]].tid == w[k].tid)
                own = (int)open[q];
        owner[w[k].i] = own;
    }
    free(open);
    return CR_OK;
}

/* Gives each activity (but NCCL's kernels) to the innermost range open at
 * its start: -1 none. owner[] has t->na entries; t->a is sorted by process
 * and start. */
cr_status cr_rf_assign_by_start(rtrace *t, int *owner, cr_diag *d)
{
    rwhen *w = malloc((t->na ? t->na : 1) * sizeof *w);
    if (!w)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < t->na; i++) {
        owner[i] = -1;
        if (t->a[i].nccl == -1)
            w[n++] = (rwhen){t->a[i].proc, OWN_ANY_THREAD, t->a[i].ts, i};
    }
    cr_status st = own_sweep(t, w, n, owner, d);
    free(w);
    return st;
}

static int cmp_rapi(const void *x, const void *y)
{
    const rapi *a = x, *b = y;
    if (a->proc != b->proc)
        return (a->proc > b->proc) - (a->proc < b->proc);
    return (a->corr > b->corr) - (a->corr < b->corr);
}

/* Where the trace has the CUDA calls (COMMROOF_TRACE_RECORD=api), gives
 * each activity (but NCCL's kernels) whose call is among them to the
 * innermost range open on the call's thread when the call began: the
 * range that launched it, however late the GPU ran it
 * (cr_rf_assign_by_start goes by the activity's start). *linked counts
 * them and by_call[i] (t->na entries) says which. t->rg sorted
 * (cmp_rrange). */
cr_status cr_rf_assign_by_launch(rtrace *t, int *owner, bool *by_call, size_t *linked, cr_diag *d)
{
    *linked = 0;
    for (size_t i = 0; i < t->na; i++)
        by_call[i] = false;
    if (t->napi == 0)
        return CR_OK;
    qsort(t->api, t->napi, sizeof *t->api, cmp_rapi);
    rwhen *w = malloc((t->na ? t->na : 1) * sizeof *w);
    if (!w)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < t->na; i++) {
        const ract *a = &t->a[i];
        if (a->nccl != -1 || a->corr < 0)
            continue;
        rapi key = {a->proc, 0, 0, a->corr};
        const rapi *c = bsearch(&key, t->api, t->napi, sizeof *t->api, cmp_rapi);
        if (c) {
            w[n++] = (rwhen){c->proc, c->tid, c->ts, i};
            by_call[i] = true;
        }
    }
    qsort(w, n, sizeof *w, cmp_rwhen);
    cr_status st = own_sweep(t, w, n, owner, d);
    if (st == CR_OK)
        *linked = n;
    free(w);
    return st;
}

/* The windows of the "cr:" ranges that validate reads (RG_CR), merged
 * per process into t->crw, in order: validate takes every activity that
 * starts inside one (doc/validation.md), at any depth, so nothing there
 * is another row's, NCCL's kernels and calls included. t->rg must be
 * sorted (cmp_rrange). */
cr_status cr_rf_cr_windows(rtrace *t, cr_diag *d)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nr; i++)
        n += t->rg[i].kind == RG_CR;
    if (n == 0)
        return CR_OK;
    if (!(t->crw = malloc(n * sizeof *t->crw)))
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    for (size_t i = 0; i < t->nr; i++) {
        const rrange *r = &t->rg[i];
        if (r->kind != RG_CR)
            continue;
        rspan *last = t->ncrw ? &t->crw[t->ncrw - 1] : NULL;
        if (last && last->proc == r->proc && r->ts <= last->end)
            last->end = fmax(last->end, r->end);
        else
            t->crw[t->ncrw++] = (rspan){r->proc, r->ts, r->end};
    }
    return CR_OK;
}

/* Whether process proc's time ts is inside a window of t->crw. */
bool cr_rf_in_cr_window(const rtrace *t, int64_t proc, double ts)
{
    size_t lo = 0, hi = t->ncrw; /* the first window after (proc, ts) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const rspan *w = &t->crw[mid];
        if (w->proc < proc || (w->proc == proc && w->ts <= ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && t->crw[lo - 1].proc == proc && ts <= t->crw[lo - 1].end;
}

static int cmp_ract(const void *x, const void *y)
{
    const ract *a = x, *b = y;
    if (a->proc != b->proc)
        return (a->proc > b->proc) - (a->proc < b->proc);
    return (a->ts > b->ts) - (a->ts < b->ts);
}

static int cmp_rrange(const void *x, const void *y)
{
    const rrange *a = x, *b = y;
    if (a->proc != b->proc)
        return (a->proc > b->proc) - (a->proc < b->proc);
    if (a->ts != b->ts)
        return (a->ts > b->ts) - (a->ts < b->ts);
    /* the same start: the longer one is the outer one */
    return (a->end < b->end) - (a->end > b->end);
}

void cr_rf_sort(rtrace *t)
{
    if (t->na > 1)
        qsort(t->a, t->na, sizeof *t->a, cmp_ract);
    if (t->nr > 1)
        qsort(t->rg, t->nr, sizeof *t->rg, cmp_rrange);
}

/* ---- CUDA graphs ---- */

/* By process and node; a node's "created" before its "cloned". */
static int cmp_rgnode(const void *x, const void *y)
{
    const rgnode *a = x, *b = y;
    if (a->proc != b->proc)
        return (a->proc > b->proc) - (a->proc < b->proc);
    if (a->node != b->node)
        return (a->node > b->node) - (a->node < b->node);
    return (a->original > b->original) - (a->original < b->original);
}

/* The event of proc's node that is a making (want_clone false) or a
 * cloning (true), NULL none. t->gn sorted (cmp_rgnode). */
static const rgnode *graph_node_event(const rtrace *t, int64_t proc, long long node,
                                      bool want_clone)
{
    rgnode key = {proc, 0, 0, node, 0};
    size_t lo = 0, hi = t->ngn; /* the first event of (proc, node) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_rgnode(&t->gn[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < t->ngn && t->gn[lo].proc == proc && t->gn[lo].node == node; lo++)
        if ((t->gn[lo].original > 0) == want_clone)
            return &t->gn[lo];
    return NULL;
}

/* Where activity a's node was made: the node the program made, reached
 * through the executable graph's clone of it (and a clone of a clone:
 * cudaGraphClone, a child graph), else the node's own making; NULL where
 * the trace has neither (a graph made before tracing began). */
static const rgnode *graph_node_made(const rtrace *t, const ract *a)
{
    long long node = a->graph_node;
    for (int hop = 0; hop < 16; hop++) {
        const rgnode *c = graph_node_event(t, a->proc, node, true);
        if (!c)
            break;
        node = c->original;
    }
    const rgnode *made = graph_node_event(t, a->proc, node, false);
    return made ? made : graph_node_event(t, a->proc, a->graph_node, false);
}

/* An activity a graph ran, owned through its node: its range and the
 * graph launch (correlation id) it came from. */
typedef struct {
    int owner;
    long long launch;
    size_t i;
} rreplay;

static int cmp_rreplay(const void *x, const void *y)
{
    const rreplay *a = x, *b = y;
    if (a->owner != b->owner)
        return (a->owner > b->owner) - (a->owner < b->owner);
    return (a->launch > b->launch) - (a->launch < b->launch);
}

/* One call per launch: each range's activities of its second and later
 * launches go to a copy of it per launch, appended to t->rg. rp sorted
 * (cmp_rreplay). */
static cr_status split_replays(rtrace *t, int *owner, const rreplay *rp, size_t n, cr_diag *d)
{
    int cur = -1; /* the range that takes rp[k]'s launch */
    for (size_t k = 0; k < n; k++) {
        if (k == 0 || rp[k].owner != rp[k - 1].owner) {
            cur = rp[k].owner; /* a range keeps its first launch */
        } else if (rp[k].launch != rp[k - 1].launch) {
            if (cr_grow((void **)&t->rg, &t->cr, t->nr + 1, sizeof *t->rg))
                return cr_diag_set(d, CR_ENOMEM, "out of memory");
            rrange *copy = &t->rg[t->nr];
            *copy = t->rg[rp[k].owner];
            copy->replay = true;
            if (!(copy->name = strdup(copy->name)))
                return cr_diag_set(d, CR_ENOMEM, "out of memory");
            cur = (int)t->nr++;
        }
        owner[rp[k].i] = cur;
    }
    return CR_OK;
}

cr_status cr_rf_assign_by_graph(rtrace *t, int *owner, bool *by_call, cr_diag *d)
{
    if (t->ngn == 0)
        return CR_OK;
    qsort(t->gn, t->ngn, sizeof *t->gn, cmp_rgnode);
    rwhen *w = malloc((t->na ? t->na : 1) * sizeof *w);
    int *made_in = malloc((t->na ? t->na : 1) * sizeof *made_in);
    rreplay *rp = malloc((t->na ? t->na : 1) * sizeof *rp);
    cr_status st = CR_OK;
    if (!w || !made_in || !rp) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    size_t n = 0;
    for (size_t i = 0; i < t->na; i++) {
        made_in[i] = -1;
        const rgnode *m =
            t->a[i].nccl == -1 && t->a[i].graph_node > 0 ? graph_node_made(t, &t->a[i]) : NULL;
        if (m)
            w[n++] = (rwhen){m->proc, m->tid, m->ts, i};
    }
    qsort(w, n, sizeof *w, cmp_rwhen);
    if ((st = own_sweep(t, w, n, made_in, d)) != CR_OK)
        goto out;
    /* a node made outside every range keeps what the other rules gave:
     * the range open at its launch or its start */
    size_t nrp = 0;
    for (size_t i = 0; i < t->na; i++)
        if (made_in[i] >= 0) {
            by_call[i] = true;
            rp[nrp++] = (rreplay){made_in[i], t->a[i].corr, i};
        }
    qsort(rp, nrp, sizeof *rp, cmp_rreplay);
    if ((st = split_replays(t, made_in, rp, nrp, d)) != CR_OK)
        goto out;
    for (size_t k = 0; k < nrp; k++) {
        owner[rp[k].i] = made_in[rp[k].i];
        t->a[rp[k].i].by_node = true;
    }
out:
    free(w);
    free(made_in);
    free(rp);
    return st;
}
