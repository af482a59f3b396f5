/* SPDX-License-Identifier: MIT */
/*
 * The simulator's resource classes, built once at run start (see flowsim.c
 * and doc/simulator.md): base resources that the same routes and explicit
 * flows use with proportional weights merge into one solver resource, HBM
 * that cannot bind is dropped, and every task's uses are rewritten in
 * classes.
 */
#include "flowsim_priv.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Weights of two resources count as proportional (same class) when their
 * ratios agree to this relative tolerance: route fractions are products of
 * capacity ratios, exact to a few ulps. */
#define CLASS_TOL 1e-9

typedef struct {
    uint64_t h;
    long cnt;
    int r;
} sig_t;

static int cmp_sig(const void *a, const void *b)
{
    const sig_t *x = a, *y = b;
    if (x->cnt != y->cnt)
        return x->cnt < y->cnt ? -1 : 1;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    return x->r - y->r;
}

/* A unit is a user of resources: a route that some flow references, or an
 * explicit task. Calls fn(s, ctx, unit, res, w) for every non-HBM use of
 * every unit, in unit order. */
typedef void (*unit_fn)(cr_sim *s, void *ctx, long unit, int res, double w);

static void for_units(cr_sim *s, void *ctx, unit_fn fn)
{
    for (long r = 0; r < s->rc.n_routes; r++) {
        const route_t *ro = &s->rc.routes[r];
        if (ro->refs <= 0)
            continue;
        for (int i = 0; i < ro->n; i++)
            fn(s, ctx, r, s->rc.rpool[ro->off + i].res, s->rc.rpool[ro->off + i].w);
    }
    for (long k = 0; k < s->n_tasks; k++) {
        const task_t *tk = &s->tasks[k];
        /* a task sharing another's uses adds no user the other does not:
         * the classes come out the same without it */
        if (tk->routed || tk->shared)
            continue;
        for (int i = 0; i < tk->n_use; i++) {
            const use_t *u = &s->uses[tk->use_off + i];
            if (s->res[u->res].kind != CR_SIM_RES_HBM)
                fn(s, ctx, s->rc.n_routes + k, u->res, u->w);
        }
    }
}

typedef struct {
    long *cnt;
    uint64_t *h;
} count_ctx;

static void count_unit(cr_sim *s, void *ctx, long unit, int res, double w)
{
    (void)s;
    (void)w;
    count_ctx *c = ctx;
    c->cnt[res]++;
    c->h[res] += mix64((uint64_t)unit);
}

typedef struct {
    long *fill; /* per resource: next slot, -1 when not recorded */
    long *unit;
    double *w;
} fill_ctx;

static void fill_unit(cr_sim *s, void *ctx, long unit, int res, double w)
{
    (void)s;
    fill_ctx *c = ctx;
    long i = c->fill[res];
    if (i < 0)
        return;
    c->unit[i] = unit;
    c->w[i] = w;
    c->fill[res] = i + 1;
}

/* Whether resource r has the same users as anchor a (user lists from
 * start[] with cnt[] entries, in unit order) with weights in one ratio;
 * that ratio in *alpha. */
static bool same_users(const long *start, const long *cnt, const long *unit, const double *w, int a,
                       int r, double *alpha)
{
    long na = cnt[a];
    if (na != cnt[r] || na == 0)
        return false;
    const long *ua = unit + start[a], *ur = unit + start[r];
    const double *wa = w + start[a], *wr = w + start[r];
    double al = wr[0] / wa[0];
    for (long i = 0; i < na; i++) {
        if (ua[i] != ur[i])
            return false;
        double q = wr[i] / wa[i];
        if (fabs(q - al) > CLASS_TOL * al)
            return false;
    }
    *alpha = al;
    return true;
}

static void gpu_port_caps(const cr_sim *s, int g, double *out, double *in)
{
    const cr_topo *t = s->t;
    int v = t->gpus[g];
    *out = *in = 0;
    for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
        const cr_link *l = &t->links[t->adj[k]];
        *out += cr_link_bw_from(l, v);
        *in += cr_link_bw_from(l, cr_link_other(l, v));
    }
}

static int new_class(cr_sim *s, int r, double alpha)
{
    s->res[r].cls = s->n_cls;
    s->res[r].alpha = alpha;
    return s->n_cls++;
}

/* Merges equivalent resources into classes, drops HBM that cannot bind,
 * and rewrites every task's uses in classes (doc/simulator.md). */
int flowsim_classes(cr_sim *s)
{
    const cr_topo *t = s->t;
    const int nr = s->n_res;
    int rc = -1;
    long *cnt = calloc((size_t)nr + 1, sizeof *cnt);
    uint64_t *h = calloc((size_t)nr + 1, sizeof *h);
    sig_t *sg = malloc(((size_t)nr + 1) * sizeof *sg);
    long *off = calloc((size_t)nr + 1, sizeof *off); /* start of each user list */
    long *fill = malloc(((size_t)nr + 1) * sizeof *fill);
    int *left = malloc(((size_t)nr + 1) * sizeof *left);
    long *unit = NULL, *rr_off = NULL;
    double *uw = NULL;
    use_t *rr = NULL;
    use_t *nu = NULL;
    if (!cnt || !h || !sg || !off || !fill || !left)
        goto out;
    /* HBM that cannot bind: every routed flow from GPU g crosses g's
     * outgoing links with weight 1 in all, every one into g its incoming
     * links, so the HBM load is at most out + 2 in (2: a reduction reads
     * the local operand); with no compute or explicit use, a capacity above
     * that never binds. */
    for (int g = 0; g < t->n_gpus; g++) {
        res_t *q = &s->res[s->hbm_res0 + g];
        double o, i;
        gpu_port_caps(s, g, &o, &i);
        if (!q->pinned && isfinite(q->cap_Bps) && q->cap_Bps >= o + 2 * i) {
            q->dropped = 1;
            s->st.n_dropped++;
        }
    }
    count_ctx cc = {cnt, h};
    for_units(s, &cc, count_unit);
    int ns = 0;
    for (int r = 0; r < nr; r++)
        if (cnt[r] > 0) {
            sg[ns].h = h[r];
            sg[ns].cnt = cnt[r];
            sg[ns].r = r;
            ns++;
        }
    qsort(sg, (size_t)ns, sizeof *sg, cmp_sig);
    /* Record users only for resources that share a signature. */
    for (int r = 0; r < nr; r++)
        fill[r] = -1;
    long tot = 0;
    for (int i = 0; i < ns; i++) {
        bool grp = (i > 0 && sg[i - 1].cnt == sg[i].cnt && sg[i - 1].h == sg[i].h) ||
                   (i + 1 < ns && sg[i + 1].cnt == sg[i].cnt && sg[i + 1].h == sg[i].h);
        if (grp) {
            fill[sg[i].r] = tot;
            tot += sg[i].cnt;
        }
    }
    for (int r = 0; r < nr; r++)
        off[r] = fill[r];
    unit = malloc(((size_t)tot + 1) * sizeof *unit);
    uw = malloc(((size_t)tot + 1) * sizeof *uw);
    if (!unit || !uw)
        goto out;
    fill_ctx fc = {fill, unit, uw};
    for_units(s, &fc, fill_unit);
    /* Classes: runs of equal signature, verified against an anchor; the
     * members that fail form the next run. */
    s->n_cls = 0;
    for (int i = 0; i < ns;) {
        int j = i + 1;
        while (j < ns && sg[j].cnt == sg[i].cnt && sg[j].h == sg[i].h)
            j++;
        if (j - i == 1) {
            new_class(s, sg[i].r, 1.0);
            i = j;
            continue;
        }
        int nl = 0;
        for (int k = i; k < j; k++)
            left[nl++] = sg[k].r;
        while (nl > 0) {
            int a = left[0], keep = 0;
            int c = new_class(s, a, 1.0);
            for (int k = 1; k < nl; k++) {
                double al;
                if (same_users(off, cnt, unit, uw, a, left[k], &al)) {
                    s->res[left[k]].cls = c;
                    s->res[left[k]].alpha = al;
                } else {
                    left[keep++] = left[k];
                }
            }
            nl = keep;
        }
        i = j;
    }
    /* Every simulated HBM is a class of its own (its users include routed
     * flows, which are not units). */
    for (int g = 0; g < t->n_gpus; g++) {
        res_t *q = &s->res[s->hbm_res0 + g];
        if (!q->dropped && isfinite(q->cap_Bps))
            new_class(s, s->hbm_res0 + g, 1.0);
    }
    s->cls = calloc((size_t)s->n_cls + 1, sizeof *s->cls);
    if (!s->cls)
        goto out;
    for (int c = 0; c < s->n_cls; c++)
        s->cls[c].cap_Bps = INFINITY;
    for (int r = 0; r < nr; r++) {
        res_t *q = &s->res[r];
        if (q->cls >= 0 && q->cap_Bps / q->alpha < s->cls[q->cls].cap_Bps)
            s->cls[q->cls].cap_Bps = q->cap_Bps / q->alpha;
    }
    for (int r = 0; r < nr; r++) {
        res_t *q = &s->res[r];
        q->tight = q->cls >= 0 && q->cap_Bps / q->alpha <= s->cls[q->cls].cap_Bps * (1 + 1e-6);
    }
    /* Routes in classes: one use per class (members carry the same
     * weight / alpha). */
    rr_off = malloc(((size_t)s->rc.n_routes + 2) * sizeof *rr_off);
    if (!rr_off)
        goto out;
    long nrr = 0;
    for (long r = 0; r < s->rc.n_routes; r++)
        nrr += s->rc.routes[r].refs > 0 ? s->rc.routes[r].n : 0;
    rr = malloc(((size_t)nrr + 1) * sizeof *rr);
    if (!rr)
        goto out;
    nrr = 0;
    for (long r = 0; r < s->rc.n_routes; r++) {
        const route_t *ro = &s->rc.routes[r];
        rr_off[r] = nrr;
        if (ro->refs <= 0)
            continue;
        for (int i = 0; i < ro->n; i++) {
            const res_t *q = &s->res[s->rc.rpool[ro->off + i].res];
            if (q->cls < 0 || s->res_slot[q->cls] >= 0)
                continue;
            s->res_slot[q->cls] = (int)(nrr - rr_off[r]);
            rr[nrr].res = q->cls;
            rr[nrr].w = s->rc.rpool[ro->off + i].w / q->alpha;
            nrr++;
        }
        for (long i = rr_off[r]; i < nrr; i++)
            s->res_slot[rr[i].res] = -1;
    }
    rr_off[s->rc.n_routes] = nrr;
    /* Explicit tasks' uses in classes; routed flows keep their route legs
     * (reduced above, shared) and their HBM classes. */
    s->vr = malloc(((size_t)s->n_tasks + 1) * sizeof *s->vr);
    if (!s->vr)
        goto out;
    long need = 0, n_virtual = 0;
    int maxv = 4;
    for (long k = 0; k < s->n_tasks; k++) {
        const task_t *tk = &s->tasks[k];
        if (!tk->routed) {
            need += tk->shared ? 0 : tk->n_use;
            continue;
        }
        long v = rr_off[tk->r1 + 1] - rr_off[tk->r1] + 2;
        if (tk->r2 >= 0)
            v += rr_off[tk->r2 + 1] - rr_off[tk->r2];
        if (v > maxv)
            maxv = (int)v;
    }
    if (need >= INT_MAX)
        goto out;
    nu = malloc(((size_t)need + 1) * sizeof *nu);
    s->vbuf = malloc((size_t)maxv * sizeof *s->vbuf);
    if (!nu || !s->vbuf)
        goto out;
    s->cap_vbuf = (size_t)maxv;
    long n = 0;
    for (long k = 0; k < s->n_tasks; k++) {
        task_t *tk = &s->tasks[k];
        long o = n;
        if (tk->routed) {
            const op_t *op = &s->ops[tk->op];
            int *v = s->vr[k];
            int hs = s->res[s->hbm_res0 + op->ranks[tk->src]].cls;
            int hd = s->res[s->hbm_res0 + op->ranks[tk->dst]].cls;
            v[0] = tk->r1;
            v[1] = tk->r2;
            v[2] = hs;
            v[3] = hd < 0 ? -1 : hd | (tk->red ? VR_W2 : 0);
            long c = rr_off[tk->r1 + 1] - rr_off[tk->r1] + (hs >= 0) + (hd >= 0);
            if (tk->r2 >= 0)
                c += rr_off[tk->r2 + 1] - rr_off[tk->r2];
            tk->use_off = -1;
            tk->n_use = (int)c;
            n_virtual += c;
            continue;
        }
        s->vr[k][0] = s->vr[k][1] = s->vr[k][2] = s->vr[k][3] = -1;
        if (tk->shared) {
            /* its uses are those of an earlier task, already rewritten */
            tk->use_off = s->tasks[tk->r1].use_off;
            tk->n_use = s->tasks[tk->r1].n_use;
            continue;
        }
        for (int i = 0; i < tk->n_use; i++) {
            const use_t *u = &s->uses[tk->use_off + i];
            const res_t *q = &s->res[u->res];
            if (q->cls < 0 || s->res_slot[q->cls] >= 0)
                continue;
            s->res_slot[q->cls] = (int)n;
            nu[n].res = q->cls;
            nu[n].w = u->w / q->alpha;
            n++;
        }
        for (long i = o; i < n; i++)
            s->res_slot[nu[i].res] = -1;
        tk->use_off = o;
        tk->n_use = (int)(n - o);
        if (tk->n_use > 0)
            nu[n - 1].res = -nu[n - 1].res - 1; /* the flow's last use */
    }
    free(s->uses);
    s->uses = nu;
    nu = NULL;
    s->n_uses = n;
    s->cap_uses = (size_t)n;
    s->rr = rr;
    s->rr_off = rr_off;
    rr = NULL;
    rr_off = NULL;
    s->st.n_classes = s->n_cls;
    s->st.n_uses = n + n_virtual;
    rc = 0;
out:
    free(cnt);
    free(h);
    free(sg);
    free(off);
    free(fill);
    free(left);
    free(unit);
    free(uw);
    free(rr_off);
    free(rr);
    free(nu);
    return rc;
}
