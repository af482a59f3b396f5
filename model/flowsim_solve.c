/* SPDX-License-Identifier: MIT */
/*
 * The simulator's solver (see flowsim.c and doc/simulator.md): flows
 * joining and leaving their resource classes, the conservative components
 * (union-find over classes) a change can reach, and the max-min fair rates
 * of an affected component by progressive filling.
 */
#include "flowsim_priv.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Software prefetch distance (active-list entries) in progressive filling. */
#define PREFETCH_AHEAD 8

/* ---------- resource membership ---------- */

/* Flow f's uses in classes: an explicit task's own list, or a routed
 * flow's route legs and HBM classes spelled out into s->vbuf (valid until
 * the next call). A class may appear twice in a routed flow (once per leg):
 * every consumer counts entries, not classes, consistently. */
int flowsim_flow_uses(cr_sim *s, long f, const use_t **out)
{
    const task_t *k = &s->tasks[f];
    if (!k->routed) {
        *out = &s->uses[k->use_off];
        return k->n_use;
    }
    const int *v = s->vr[f];
    int n = 0;
    for (int leg = 0; leg < 2; leg++) {
        if (v[leg] < 0)
            continue;
        for (long i = s->rr_off[v[leg]]; i < s->rr_off[v[leg] + 1]; i++)
            s->vbuf[n++] = s->rr[i];
    }
    if (v[2] >= 0) {
        s->vbuf[n].res = v[2];
        s->vbuf[n++].w = 1.0;
    }
    if (v[3] >= 0) {
        s->vbuf[n].res = v[3] & ~VR_W2;
        s->vbuf[n++].w = v[3] & VR_W2 ? 2.0 : 1.0;
    }
    *out = s->vbuf;
    return n;
}

/* The class of flow f's first use (it names the flow's component). */
static int first_cls(cr_sim *s, long f)
{
    const use_t *u;
    return flowsim_flow_uses(s, f, &u) > 0 ? use_cls(u) : -1;
}

static bool bit_get(const uint64_t *b, long f)
{
    return (b[f >> 6] >> (f & 63)) & 1u;
}

static void bit_put(uint64_t *b, long f, bool v)
{
    if (v)
        b[f >> 6] |= (uint64_t)1 << (f & 63);
    else
        b[f >> 6] &= ~((uint64_t)1 << (f & 63));
}

/* Marks class c changed in this round: hard when a flow arrived on it (its
 * component must be re-solved), soft when one left (re-solved only if a
 * remaining flow had its bottleneck there). */
static int seed(cr_sim *s, int c, bool hard)
{
    if (hard)
        s->hard[c] = s->seed_round;
    if (s->seeded[c] == s->seed_round)
        return 0;
    s->seeded[c] = s->seed_round;
    if (cr_grow((void **)&s->seeds, &s->cap_seeds, (size_t)s->n_seeds + 1, sizeof *s->seeds))
        return -1;
    s->seeds[s->n_seeds++] = c;
    return 0;
}

static int uf_find(cr_sim *s, int c)
{
    while (s->uf_par[c] != c) {
        s->uf_par[c] = s->uf_par[s->uf_par[c]];
        c = s->uf_par[c];
    }
    return c;
}

static void uf_union(cr_sim *s, int a, int b)
{
    a = uf_find(s, a);
    b = uf_find(s, b);
    if (a == b)
        return;
    if (s->uf_size[a] < s->uf_size[b]) {
        int t = a;
        a = b;
        b = t;
    }
    s->uf_par[b] = a;
    s->uf_size[a] += s->uf_size[b];
    s->uf_nf[a] += s->uf_nf[b];
    int t = s->uf_next[a]; /* splice the circular member lists */
    s->uf_next[a] = s->uf_next[b];
    s->uf_next[b] = t;
}

/* Components from scratch: the classes joined by the active flows. */
void flowsim_uf_rebuild(cr_sim *s)
{
    for (int c = 0; c < s->n_cls; c++) {
        s->uf_par[c] = c;
        s->uf_size[c] = 1;
        s->uf_next[c] = c;
        s->uf_nf[c] = 0;
    }
    for (int c = 0; c < s->n_cls; c++) {
        const cls_t *r = &s->cls[c];
        for (int j = 0; j < r->n_act; j++)
            if (bit_get(s->alive, r->act[j].task))
                uf_union(s, c, first_cls(s, r->act[j].task));
    }
    /* each active flow counted once, on the root of its first class */
    for (long w = 0; s->n_tasks > 0 && w <= (s->n_tasks - 1) >> 6; w++)
        for (uint64_t m = s->alive[w]; m; m &= m - 1)
            s->uf_nf[uf_find(s, first_cls(s, (w << 6) + __builtin_ctzll(m)))]++;
    s->peak_active = s->n_active;
}

/* How many flows f stands for: 1, or the members of a merged flow. Its
 * weights count that many times (x 1.0 leaves an unmerged flow's figures
 * bit for bit as they were). */
static double fmult(const cr_sim *s, long f)
{
    return s->mult ? (double)s->mult[f] : 1.0;
}

int flowsim_attach(cr_sim *s, long f)
{
    task_t *k = &s->tasks[f];
    const double m = fmult(s, f);
    const use_t *us;
    int nu = flowsim_flow_uses(s, f, &us);
    int c0 = nu > 0 ? use_cls(us) : -1;
    for (int i = 0; i < nu; i++) {
        const use_t *u = &us[i];
        int c = use_cls(u);
        cls_t *r = &s->cls[c];
        if (cr_grow((void **)&r->act, &r->cap_act, (size_t)r->n_act + 1, sizeof *r->act))
            return -1;
        r->act[r->n_act].task = (int)f;
        r->act[r->n_act].uoff = k->routed ? -1 : (int)k->use_off;
        r->n_act++;
        r->n_live++;
        r->live_w += u->w * m;
        if (i > 0)
            uf_union(s, c0, c);
        if (seed(s, c, true))
            return -1;
    }
    if (c0 >= 0)
        s->uf_nf[uf_find(s, c0)]++;
    k->active = 1;
    bit_put(s->alive, f, true);
    s->fd[f].rate = 0;
    if (++s->n_active > s->peak_active)
        s->peak_active = s->n_active;
    return 0;
}

void flowsim_cls_settle(cls_t *r, double now)
{
    double dt = now - r->t_last;
    if (dt > 0) {
        r->bytes += r->load_Bps * dt;
        if (r->load_Bps > 0 && r->load_Bps >= r->cap_Bps * (1 - 1e-6))
            r->busy_s += dt;
    }
    r->t_last = now;
}

/* Drops the departed flows from a class's active list. */
static void act_compact(cr_sim *s, cls_t *r)
{
    int j = 0;
    for (int a = 0; a < r->n_act; a++)
        if (bit_get(s->alive, r->act[a].task))
            r->act[j++] = r->act[a];
    r->n_act = j;
}

/* Flow f leaves its classes at now: their loads drop by its share. */
int flowsim_detach(cr_sim *s, long f, double now)
{
    task_t *k = &s->tasks[f];
    const fdyn_t *y = &s->fd[f];
    if (s->fbn[f] >= 0)
        s->nb[s->fbn[f]]--;
    s->fbn[f] = -1;
    bit_put(s->alive, f, false);
    const use_t *us;
    int nu = flowsim_flow_uses(s, f, &us);
    if (nu > 0)
        s->uf_nf[uf_find(s, use_cls(us))]--;
    double rate = isfinite(y->rate) ? y->rate : 0;
    const double m = fmult(s, f);
    for (int i = 0; i < nu; i++) {
        const use_t *u = &us[i];
        int c = use_cls(u);
        cls_t *r = &s->cls[c];
        flowsim_cls_settle(r, now);
        r->load_Bps -= u->w * m * rate;
        r->live_w -= u->w * m;
        if (--r->n_live == 0 || r->load_Bps < 1e-9 * r->cap_Bps)
            r->load_Bps = 0;
        if (r->n_live == 0)
            r->live_w = 0;
        if (r->n_act - r->n_live > r->n_live + 16)
            act_compact(s, r);
        if (seed(s, c, false))
            return -1;
    }
    k->active = 0;
    s->n_active--;
    return 0;
}

/* ---------- max-min fair rates on the affected component ---------- */

/* Flow f's rate is final for this solve: it leaves the unfrozen set and
 * its weights leave its classes' free capacity. */
static void freeze_seg(cr_sim *s, const use_t *u, long n, double rate, double m)
{
    for (long i = 0; i < n; i++) {
        s->rem[u[i].res] -= u[i].w * m * rate;
        s->wsum[u[i].res] -= u[i].w * m;
        s->nunf[u[i].res]--;
    }
}

static void freeze_one(cr_sim *s, int c, double w, double rate)
{
    s->rem[c] -= w * rate;
    s->wsum[c] -= w;
    s->nunf[c]--;
}

/* uoff: the flow's first explicit use, -1 for a routed flow (its uses are
 * read from the shared routes: small and hot in cache). */
static void freeze(cr_sim *s, long f, long uoff, double rate, int bneck)
{
    bit_put(s->unf, f, false);
    s->newrate[f] = rate;
    s->fbn[f] = bneck;
    if (bneck >= 0)
        s->nb[bneck]++;
    const double m = fmult(s, f);
    if (uoff < 0) {
        const int *v = s->vr[f];
        for (int leg = 0; leg < 2; leg++)
            if (v[leg] >= 0)
                freeze_seg(s, &s->rr[s->rr_off[v[leg]]], s->rr_off[v[leg] + 1] - s->rr_off[v[leg]],
                           rate, m);
        if (v[2] >= 0)
            freeze_one(s, v[2], 1.0 * m, rate);
        if (v[3] >= 0)
            freeze_one(s, v[3] & ~VR_W2, (v[3] & VR_W2 ? 2.0 : 1.0) * m, rate);
        return;
    }
    for (const use_t *u = &s->uses[uoff];; u++) {
        int c = u->res;
        bool last = c < 0;
        if (last)
            c = -c - 1;
        freeze_one(s, c, u->w * m, rate);
        if (last)
            break;
    }
}

/* Brings a class into the component: its counters settled up to now and
 * its solver state set from its active flows. */
static void comp_add_res(cr_sim *s, int q, int *nr, double now)
{
    cls_t *r = &s->cls[q];
    s->cls_stamp[q] = s->stamp;
    s->comp_res[(*nr)++] = q;
    flowsim_cls_settle(r, now);
    s->rem[q] = r->cap_Bps;
    s->wsum[q] = 0; /* summed by the component search */
    s->nunf[q] = r->n_live;
}

int flowsim_solve(cr_sim *s, double now)
{
    if (s->n_seeds == 0)
        return 0;
    if (++s->stamp == INT_MAX) {
        for (int r = 0; r < s->n_cls; r++)
            s->cls_stamp[r] = s->root_stamp[r] = 0;
        s->stamp = 1;
    }
    const int st = s->stamp;
    if (s->peak_active > 64 && 2 * s->n_active < s->peak_active)
        flowsim_uf_rebuild(s);
    /* The component: every class in the (conservative) union-find set of
     * a seed that must be re-solved, and every flow on them. */
    int nr = 0;
    long in_roots = 0; /* active flows in the seeds' components */
    for (int i = 0; i < s->n_seeds; i++) {
        int c = s->seeds[i];
        if (s->hard[c] != s->seed_round && s->nb[c] <= 0)
            continue;
        int root = uf_find(s, c);
        if (s->root_stamp[root] == st)
            continue;
        s->root_stamp[root] = st;
        in_roots += s->uf_nf[root];
        int m = root;
        do {
            comp_add_res(s, m, &nr, now);
            m = s->uf_next[m];
        } while (m != root);
    }
    s->n_seeds = 0;
    s->seed_round++;
    if (nr == 0)
        return 0; /* only departures, and no remaining flow lost its bottleneck */
    long nf = 0;
    if (cr_grow((void **)&s->comp_flows, &s->cap_comp_flows, (size_t)s->n_active + 1,
                sizeof *s->comp_flows))
        return -1;
    bool full = in_roots == s->n_active && s->n_active > 4096;
    if (full) {
        /* The component holds every active flow (a large collective): take
         * them from the alive bitmap in task order, and the classes' weight
         * sums as kept, instead of walking every active list. */
        for (long w = 0; w <= (s->n_tasks - 1) >> 6; w++) {
            s->unf[w] = s->alive[w];
            for (uint64_t m = s->alive[w]; m; m &= m - 1)
                s->comp_flows[nf++] = (w << 6) + __builtin_ctzll(m);
        }
    } else {
        for (int i = 0; i < nr; i++) {
            cls_t *r = &s->cls[s->comp_res[i]];
            if (r->n_act != r->n_live)
                act_compact(s, r); /* then every entry is alive */
            for (int j = 0; j < r->n_act; j++) {
                long f = r->act[j].task;
                if (bit_get(s->unf, f))
                    continue;
                bit_put(s->unf, f, true);
                s->comp_flows[nf++] = f;
            }
        }
    }
    for (int i = 0; i < nr; i++) /* weight sums as kept by attach and detach */
        s->wsum[s->comp_res[i]] = s->cls[s->comp_res[i]].live_w;
    /* A large component is walked in task order (memory order) from here. */
    if (!full && nf > 4096 && nf * 16 > s->n_tasks) {
        long k = 0;
        for (long w = 0; w <= (s->n_tasks - 1) >> 6; w++)
            for (uint64_t m = s->unf[w]; m; m &= m - 1)
                s->comp_flows[k++] = (w << 6) + __builtin_ctzll(m);
    }
    for (long i = 0; i < nf; i++) {
        long f = s->comp_flows[i];
        fdyn_t *y = &s->fd[f];
        y->left -= y->rate * (now - y->t_last);
        if (y->left < 0)
            y->left = 0;
        y->t_last = now;
        if (s->fbn[f] >= 0)
            s->nb[s->fbn[f]]--;
        s->fbn[f] = -1;
    }
    s->st.n_solves++;
    s->st.solved_flows += nf;
    s->rheap.n = 0;
    s->cheap.n = 0;
    for (int i = 0; i < nr; i++) {
        int q = s->comp_res[i];
        if (s->nunf[q] > 0 && cr_heap_push(&s->rheap, s->cls[q].cap_Bps / s->wsum[q], q, 0))
            return -1;
    }
    for (long i = 0; i < nf; i++) {
        long f = s->comp_flows[i];
        if (s->fd[f].capped && cr_heap_push(&s->cheap, s->tasks[f].max_rate, (int)f, 0))
            return -1;
    }
    /* Progressive filling: raise every unfrozen flow's rate together; the
     * resource (or flow cap) that saturates first freezes its flows. */
    double level = 0;
    long frozen = 0;
    while (frozen < nf) {
        double rkey = INFINITY;
        int rbest = -1;
        while (s->rheap.n > 0) {
            int q = s->rheap.e[0].id;
            double key = s->rheap.e[0].key;
            if (s->nunf[q] <= 0) {
                cr_heap_pop(&s->rheap);
                continue;
            }
            double w = s->wsum[q] > 1e-300 ? s->wsum[q] : 1e-300;
            double cur = s->rem[q] / w;
            if (cur < level)
                cur = level;
            if (cur > key * (1 + 1e-12)) {
                cr_heap_pop(&s->rheap);
                if (cr_heap_push(&s->rheap, cur, q, 0))
                    return -1;
                continue;
            }
            rkey = cur;
            rbest = q;
            break;
        }
        while (s->cheap.n > 0 && !bit_get(s->unf, s->cheap.e[0].id))
            cr_heap_pop(&s->cheap);
        if (s->cheap.n > 0 && s->cheap.e[0].key <= rkey) {
            long f = s->cheap.e[0].id;
            if (s->cheap.e[0].key > level)
                level = s->cheap.e[0].key;
            cr_heap_pop(&s->cheap);
            freeze(s, f, s->tasks[f].routed ? -1 : s->tasks[f].use_off, s->tasks[f].max_rate, -1);
            frozen++;
            continue;
        }
        if (rbest < 0) {
            /* Flows with no resource and no cap: unlimited (finish at once). */
            for (long i = 0; i < nf; i++) {
                long f = s->comp_flows[i];
                if (bit_get(s->unf, f)) {
                    freeze(s, f, s->tasks[f].routed ? -1 : s->tasks[f].use_off, INFINITY, -1);
                    frozen++;
                }
            }
            break;
        }
        cr_heap_pop(&s->rheap);
        level = rkey;
        const cls_t *r = &s->cls[rbest];
        for (int j = 0; j < r->n_act; j++) {
            long f = r->act[j].task;
            /* The uses of the flows a few entries on: they lie far apart in
             * memory, and the active list says in advance which. */
            if (j + PREFETCH_AHEAD < r->n_act) {
                int po = r->act[j + PREFETCH_AHEAD].uoff;
                __builtin_prefetch(po >= 0 ? (const void *)&s->uses[po]
                                           : (const void *)s->vr[r->act[j + PREFETCH_AHEAD].task]);
                __builtin_prefetch(&s->newrate[r->act[j + PREFETCH_AHEAD].task], 1);
            }
            if (bit_get(s->unf, f)) {
                freeze(s, f, r->act[j].uoff, level, rbest);
                frozen++;
            }
        }
    }
    for (int i = 0; i < nr; i++) {
        int q = s->comp_res[i];
        cls_t *r = &s->cls[q];
        double load = r->n_live == 0 ? 0 : r->cap_Bps - s->rem[q];
        r->load_Bps = load > 0 ? load : 0;
        if (r->load_Bps > r->peak_Bps)
            r->peak_Bps = r->load_Bps;
    }
    /* New rates; the component becomes one batch with one event at its
     * earliest completion. */
    int b = flowsim_batch_new(&s->batches, &s->n_batches, &s->cap_batches, s->comp_flows, (int)nf);
    if (b < 0)
        return -1;
    double tmin = INFINITY;
    for (long i = 0; i < nf; i++) {
        long f = s->comp_flows[i];
        fdyn_t *y = &s->fd[f];
        y->rate = s->newrate[f];
        flowsim_batch_leave(s, y->batch);
        y->batch = b;
        double t_end = isfinite(y->rate) ? now + y->left / y->rate : now;
        if (t_end < tmin)
            tmin = t_end;
    }
    return flowsim_ev_push(s, tmin, b, EV_BATCH);
}
