/* SPDX-License-Identifier: MIT */
/*
 * Flow-level discrete-event simulator: the engine (see flowsim.h and
 * doc/simulator.md).
 *
 * Data structures, chosen so that one change costs what it touches:
 *   - every resource keeps the list of flows active on it (swap-remove, each
 *     flow use remembers its position), every flow the list of resources it
 *     uses with weights;
 *   - a binary heap of events (activation after latency, completion) with a
 *     version number per task so that a re-rated flow's old completion event
 *     is skipped rather than searched for;
 *   - after each batch of simultaneous arrivals and departures, only the
 *     connected component of resources and flows reachable from the changed
 *     resources is re-solved (flows elsewhere keep their rates and events);
 *   - progressive filling uses a heap of resources keyed by their
 *     saturation level with lazy keys: freezing a flow only lowers counts on
 *     its resources, and a popped resource whose level has risen since it was
 *     pushed goes back in with the new level (levels only rise).
 * Routes are found by a Dijkstra from the source that stops when the
 * destination settles and resumes for the next destination of the same
 * source, and are cached per GPU pair.
 */
#include "flowsim.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

enum { T_FLOW = 0, T_DELAY = 1 };
enum { EV_ACT = 0, EV_DONE = 1 };

/* Link costs for route selection: a PCIe hop costs a little more than a hop
 * on the scale-up or scale-out fabric, so GPUs with NVLink (or XGMI) do not
 * route peer traffic through a shared PCIe switch, while equal-hop paths over
 * the same kind of links tie and share the traffic (NCCL's preference order
 * NVLink > PCIe, src/graph/paths.cc). */
#define COST_HOP 8
#define COST_PCIE 9

/* Two events closer than this (relative) are processed as one batch: it
 * merges the completions of identical flows that rounding separates by a few
 * ulps, far below the 1% agreement the tests ask for. */
#define BATCH_REL 1e-9
#define BATCH_ABS 1e-15

typedef struct {
    int res;
    int pos; /* index of this flow in the resource's active list */
    double w;
} use_t;

typedef struct {
    int task;
    int use; /* absolute index into s->uses */
} ref_t;

typedef struct {
    ref_t *act;
    int n_act, cap_act;
    double cap_Bps;
    double load_Bps; /* sum of w x rate of the active flows */
    double t_last;
    double bytes, busy_s, peak_Bps;
    int kind, index, dir;
} res_t;

typedef struct {
    double bytes, left, rate, t_last;
    double lat_s;      /* flows: latency before bytes move; delays: duration */
    double max_rate;   /* 0 = unlimited */
    double not_before; /* earliest ready time */
    double ready_s, start_s, end_s;
    long use_off;
    int n_use;
    int op, src, dst; /* op-local ranks; dst -1 when none */
    int npred;
    unsigned ver;
    int stamp;
    unsigned char type, active, done;
    unsigned char quiet; /* start/end markers: no rank attribution */
    unsigned char all;   /* completion counts for every rank of the op */
    char *label;
} task_t;

typedef struct {
    double t;
    int task;
    unsigned ver;
    int kind;
} event_t;

typedef struct {
    char *name;
    int kind, n, stream;
    int *ranks;
    double *rank_end;
    double start_s, end_s;
    long n_tasks;
    int first_task, last_task; /* start/end markers, -1 when absent */
} op_t;

typedef struct {
    long off;
    int n;
    double lat_s;
} route_t;

struct cr_sim {
    const cr_topo *t;
    bool transit;
    bool pxn;        /* relay inter-node traffic through the rail-aligned GPU */
    int *local;      /* per GPU rank: position among its node's GPUs, -1 if no node */
    int *node_first; /* per node: its first GPU rank */
    int n_res, link_res0, hbm_res0;
    res_t *res;
    int *reduce_res; /* per device, -1 if none */

    task_t *tasks;
    long n_tasks, cap_tasks;
    use_t *uses;
    long n_uses, cap_uses;
    long (*deps)[2];
    long n_deps, cap_deps;
    op_t *ops;
    int n_ops, cap_ops;

    event_t *heap;
    long n_heap, cap_heap;

    /* routing */
    cr_sim_use *rpool;
    long n_rpool, cap_rpool;
    route_t *routes;
    long n_routes, cap_routes;
    uint64_t *hkeys;
    long *hvals;
    long hcap, hcount;
    int dj_src; /* device whose Dijkstra state is loaded, -1 none */
    int *dist;  /* per device */
    unsigned char *settled;
    int *dj_heap_v, *dj_heap_d;
    long dj_n, dj_cap;
    int *touched;
    int n_touched;
    int *dag_mark; /* per device stamp */
    int dag_stamp;
    int *dag_nodes;
    double *frac, *lat;
    int *res_slot; /* per resource: index in a use list being merged, or -1 */
    cr_sim_use *scratch;
    int cap_scratch;

    /* solver scratch */
    int *res_stamp;
    int stamp;
    int *comp_res;
    long *comp_flows;
    long n_comp_flows, cap_comp_flows;
    double *rem, *wsum;
    int *nunf;
    double *rheap_k;
    int *rheap_r;
    long n_rheap, cap_rheap;
    double *cheap_k;
    long *cheap_f;
    long n_cheap, cap_cheap;
    double *newrate;
    int *seeds;
    int n_seeds, cap_seeds;

    bool ran;
    double makespan;
    cr_sim_stats st;
    size_t mem;
};

/* ---------- small helpers ---------- */

static int grow(void **arr, long *cap, long need, size_t elem)
{
    if (need <= *cap)
        return 0;
    long n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*arr, (size_t)n * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = n;
    return 0;
}

static int grow_i(void **arr, int *cap, int need, size_t elem)
{
    long c = *cap;
    if (grow(arr, &c, need, elem))
        return -1;
    *cap = (int)c;
    return 0;
}

static char *dup_str(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static int link_cost(const cr_link *l)
{
    return l->kind == CR_LINK_PCIE ? COST_PCIE : COST_HOP;
}

/* ---------- construction ---------- */

cr_status cr_sim_new(const cr_topo *t, cr_sim **out, cr_diag *d)
{
    *out = NULL;
    if (!t || !t->finalized || t->n_gpus < 1)
        return cr_diag_set(d, CR_EINVAL, "simulator: the topology must be finalized and hold GPUs");
    cr_sim *s = calloc(1, sizeof *s);
    if (!s)
        return CR_ENOMEM;
    s->t = t;
    s->transit = cr_topo_param(t, "route.gpu_transit", 0.0) != 0.0;
    s->pxn = cr_topo_param(t, "sim.pxn", 1.0) != 0.0;
    s->dj_src = -1;
    s->local = malloc(((size_t)t->n_gpus + 1) * sizeof *s->local);
    s->node_first = malloc(((size_t)t->n_nodes + 1) * sizeof *s->node_first);
    if (!s->local || !s->node_first)
        goto oom;
    for (int i = 0; i < t->n_nodes; i++)
        s->node_first[i] = -1;
    for (int g = 0; g < t->n_gpus; g++) {
        int nd = t->devs[t->gpus[g]].node;
        s->local[g] = -1;
        if (nd < 0 || nd >= t->n_nodes)
            continue;
        if (s->node_first[nd] < 0)
            s->node_first[nd] = g;
        s->local[g] = g - s->node_first[nd];
    }
    int n_red = 0;
    s->reduce_res = malloc(((size_t)t->n_devs + 1) * sizeof *s->reduce_res);
    if (!s->reduce_res)
        goto oom;
    for (int v = 0; v < t->n_devs; v++) {
        s->reduce_res[v] = -1;
        const cr_dev *dv = &t->devs[v];
        if (dv->kind == CR_DEV_SWITCH && dv->spec >= 0 && t->switch_specs[dv->spec].reduction &&
            t->switch_specs[dv->spec].reduce_Bps > 0)
            n_red++;
    }
    s->link_res0 = 0;
    s->hbm_res0 = 2 * t->n_links;
    s->n_res = 2 * t->n_links + t->n_gpus + n_red;
    s->res = calloc((size_t)s->n_res + 1, sizeof *s->res);
    if (!s->res)
        goto oom;
    for (int l = 0; l < t->n_links; l++) {
        const cr_link *k = &t->links[l];
        for (int dir = 0; dir < 2; dir++) {
            res_t *r = &s->res[2 * l + dir];
            r->kind = CR_SIM_RES_LINK;
            r->index = l;
            r->dir = dir;
            r->cap_Bps = k->count * (dir == 0 ? k->bw_ab_Bps : k->bw_ba_Bps);
        }
    }
    for (int g = 0; g < t->n_gpus; g++) {
        res_t *r = &s->res[s->hbm_res0 + g];
        const cr_gpu_spec *sp = cr_topo_gpu_spec(t, g);
        r->kind = CR_SIM_RES_HBM;
        r->index = g;
        r->cap_Bps = sp && sp->hbm_Bps > 0 ? sp->hbm_Bps : INFINITY;
    }
    int ri = s->hbm_res0 + t->n_gpus;
    for (int v = 0; v < t->n_devs; v++) {
        const cr_dev *dv = &t->devs[v];
        if (dv->kind == CR_DEV_SWITCH && dv->spec >= 0 && t->switch_specs[dv->spec].reduction &&
            t->switch_specs[dv->spec].reduce_Bps > 0) {
            res_t *r = &s->res[ri];
            r->kind = CR_SIM_RES_REDUCE;
            r->index = v;
            r->cap_Bps = t->switch_specs[dv->spec].reduce_Bps;
            s->reduce_res[v] = ri++;
        }
    }
    size_t nd = (size_t)t->n_devs + 1, nr = (size_t)s->n_res + 1;
    s->dist = malloc(nd * sizeof *s->dist);
    s->settled = calloc(nd, 1);
    s->touched = malloc(nd * sizeof *s->touched);
    s->dag_mark = calloc(nd, sizeof *s->dag_mark);
    s->dag_nodes = malloc(nd * sizeof *s->dag_nodes);
    s->frac = malloc(nd * sizeof *s->frac);
    s->lat = malloc(nd * sizeof *s->lat);
    s->res_slot = malloc(nr * sizeof *s->res_slot);
    s->res_stamp = calloc(nr, sizeof *s->res_stamp);
    s->comp_res = malloc(nr * sizeof *s->comp_res);
    s->rem = malloc(nr * sizeof *s->rem);
    s->wsum = malloc(nr * sizeof *s->wsum);
    s->nunf = malloc(nr * sizeof *s->nunf);
    if (!s->dist || !s->settled || !s->touched || !s->dag_mark || !s->dag_nodes || !s->frac ||
        !s->lat || !s->res_slot || !s->res_stamp || !s->comp_res || !s->rem || !s->wsum || !s->nunf)
        goto oom;
    for (int v = 0; v < t->n_devs; v++)
        s->dist[v] = INT_MAX;
    for (int r = 0; r < s->n_res; r++)
        s->res_slot[r] = -1;
    *out = s;
    return CR_OK;
oom:
    cr_sim_free(s);
    return CR_ENOMEM;
}

void cr_sim_free(cr_sim *s)
{
    if (!s)
        return;
    if (s->res)
        for (int r = 0; r < s->n_res; r++)
            free(s->res[r].act);
    free(s->res);
    free(s->reduce_res);
    free(s->local);
    free(s->node_first);
    for (long i = 0; i < s->n_tasks; i++)
        free(s->tasks[i].label);
    free(s->tasks);
    free(s->uses);
    free(s->deps);
    for (int i = 0; i < s->n_ops; i++) {
        free(s->ops[i].name);
        free(s->ops[i].ranks);
        free(s->ops[i].rank_end);
    }
    free(s->ops);
    free(s->heap);
    free(s->rpool);
    free(s->routes);
    free(s->hkeys);
    free(s->hvals);
    free(s->dist);
    free(s->settled);
    free(s->dj_heap_v);
    free(s->dj_heap_d);
    free(s->touched);
    free(s->dag_mark);
    free(s->dag_nodes);
    free(s->frac);
    free(s->lat);
    free(s->res_slot);
    free(s->scratch);
    free(s->res_stamp);
    free(s->comp_res);
    free(s->comp_flows);
    free(s->rem);
    free(s->wsum);
    free(s->nunf);
    free(s->rheap_k);
    free(s->rheap_r);
    free(s->cheap_k);
    free(s->cheap_f);
    free(s->newrate);
    free(s->seeds);
    free(s);
}

const cr_topo *cr_sim_topo(const cr_sim *s)
{
    return s->t;
}

int cr_sim_res_link(const cr_sim *s, int l, int from)
{
    if (l < 0 || l >= s->t->n_links)
        return -1;
    return 2 * l + (from == s->t->links[l].a ? 0 : 1);
}

int cr_sim_res_hbm(const cr_sim *s, int rank)
{
    return rank >= 0 && rank < s->t->n_gpus ? s->hbm_res0 + rank : -1;
}

int cr_sim_res_reduce(const cr_sim *s, int dev)
{
    return dev >= 0 && dev < s->t->n_devs ? s->reduce_res[dev] : -1;
}

int cr_sim_n_res(const cr_sim *s)
{
    return s->n_res;
}

int cr_sim_op_add(cr_sim *s, const char *name, cr_sim_op_kind kind, const int *ranks, int n,
                  int stream)
{
    if (n < 1 || s->ran)
        return -1;
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= s->t->n_gpus)
            return -1;
    if (grow_i((void **)&s->ops, &s->cap_ops, s->n_ops + 1, sizeof *s->ops))
        return -1;
    op_t *o = &s->ops[s->n_ops];
    memset(o, 0, sizeof *o);
    o->name = dup_str(name ? name : "op");
    o->ranks = malloc((size_t)n * sizeof *o->ranks);
    o->rank_end = malloc((size_t)n * sizeof *o->rank_end);
    if (!o->name || !o->ranks || !o->rank_end) {
        free(o->name);
        free(o->ranks);
        free(o->rank_end);
        return -1;
    }
    memcpy(o->ranks, ranks, (size_t)n * sizeof *ranks);
    o->kind = (int)kind;
    o->n = n;
    o->stream = stream;
    o->first_task = o->last_task = -1;
    return s->n_ops++;
}

/* ---------- routing ---------- */

static void dj_push(cr_sim *s, int v, int dist)
{
    if (s->dj_n + 1 > s->dj_cap) {
        long c = s->dj_cap ? s->dj_cap * 2 : 64;
        int *a = realloc(s->dj_heap_v, (size_t)c * sizeof *a);
        if (!a)
            return;
        s->dj_heap_v = a;
        int *b = realloc(s->dj_heap_d, (size_t)c * sizeof *b);
        if (!b)
            return;
        s->dj_heap_d = b;
        s->dj_cap = c;
    }
    long i = s->dj_n++;
    while (i > 0) {
        long p = (i - 1) / 2;
        if (s->dj_heap_d[p] <= dist)
            break;
        s->dj_heap_v[i] = s->dj_heap_v[p];
        s->dj_heap_d[i] = s->dj_heap_d[p];
        i = p;
    }
    s->dj_heap_v[i] = v;
    s->dj_heap_d[i] = dist;
}

static void dj_pop(cr_sim *s, int *v, int *dist)
{
    *v = s->dj_heap_v[0];
    *dist = s->dj_heap_d[0];
    long n = --s->dj_n;
    int lv = s->dj_heap_v[n], ld = s->dj_heap_d[n];
    long i = 0;
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->dj_heap_d[c + 1] < s->dj_heap_d[c])
            c++;
        if (s->dj_heap_d[c] >= ld)
            break;
        s->dj_heap_v[i] = s->dj_heap_v[c];
        s->dj_heap_d[i] = s->dj_heap_d[c];
        i = c;
    }
    s->dj_heap_v[i] = lv;
    s->dj_heap_d[i] = ld;
}

static void dj_reset(cr_sim *s, int src)
{
    for (int i = 0; i < s->n_touched; i++) {
        s->dist[s->touched[i]] = INT_MAX;
        s->settled[s->touched[i]] = 0;
    }
    s->n_touched = 0;
    s->dj_n = 0;
    s->dj_src = src;
    s->dist[src] = 0;
    s->touched[s->n_touched++] = src;
    dj_push(s, src, 0);
}

static bool can_forward(const cr_sim *s, int v)
{
    return s->transit || s->t->devs[v].kind != CR_DEV_GPU;
}

/* Runs the Dijkstra from the loaded source until target settles (or the
 * heap empties). Returns whether target settled. */
static bool dj_until(cr_sim *s, int target)
{
    const cr_topo *t = s->t;
    while (!s->settled[target] && s->dj_n > 0) {
        int v, dv;
        dj_pop(s, &v, &dv);
        if (s->settled[v] || dv != s->dist[v])
            continue;
        s->settled[v] = 1;
        if (v != s->dj_src && !can_forward(s, v))
            continue;
        for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
            const cr_link *l = &t->links[t->adj[i]];
            int w = cr_link_other(l, v);
            if (cr_link_bw_from(l, v) <= 0)
                continue;
            int nd = dv + link_cost(l);
            if (nd < s->dist[w]) {
                if (s->dist[w] == INT_MAX)
                    s->touched[s->n_touched++] = w;
                s->dist[w] = nd;
                dj_push(s, w, nd);
            }
        }
    }
    return s->settled[target] != 0;
}

static long hash_find(const cr_sim *s, uint64_t key)
{
    if (!s->hcap)
        return -1;
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    long m = s->hcap - 1;
    for (long i = (long)(h >> 20) & m;; i = (i + 1) & m) {
        if (s->hkeys[i] == 0)
            return -1;
        if (s->hkeys[i] == key)
            return s->hvals[i];
    }
}

static int hash_put(cr_sim *s, uint64_t key, long val)
{
    if (2 * (s->hcount + 1) > s->hcap) {
        long nc = s->hcap ? s->hcap * 2 : 1024;
        uint64_t *nk = calloc((size_t)nc, sizeof *nk);
        long *nv = malloc((size_t)nc * sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return -1;
        }
        for (long i = 0; i < s->hcap; i++) {
            if (!s->hkeys[i])
                continue;
            uint64_t h = s->hkeys[i] * 0x9E3779B97F4A7C15ull;
            long j = (long)(h >> 20) & (nc - 1);
            while (nk[j])
                j = (j + 1) & (nc - 1);
            nk[j] = s->hkeys[i];
            nv[j] = s->hvals[i];
        }
        free(s->hkeys);
        free(s->hvals);
        s->hkeys = nk;
        s->hvals = nv;
        s->hcap = nc;
    }
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    long m = s->hcap - 1;
    long i = (long)(h >> 20) & m;
    while (s->hkeys[i])
        i = (i + 1) & m;
    s->hkeys[i] = key;
    s->hvals[i] = val;
    s->hcount++;
    return 0;
}

/* Sort DAG nodes by distance (small sets: insertion sort). */
static void sort_by_dist(const int *dist, int *v, int n)
{
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && dist[v[j]] > dist[x]) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static bool in_dag(const cr_sim *s, int v)
{
    return s->dag_mark[v] == s->dag_stamp;
}

/* Computes the route from device src to device dst into the pool. Returns
 * the route index, -1 when there is no path, -2 when out of memory. */
static long route_compute(cr_sim *s, int src, int dst)
{
    const cr_topo *t = s->t;
    if (s->dj_src != src)
        dj_reset(s, src);
    if (!dj_until(s, dst))
        return -1;
    /* Collect the shortest-path DAG backwards from dst. */
    if (++s->dag_stamp == INT_MAX) {
        memset(s->dag_mark, 0, (size_t)t->n_devs * sizeof *s->dag_mark);
        s->dag_stamp = 1;
    }
    int nn = 0;
    s->dag_nodes[nn++] = dst;
    s->dag_mark[dst] = s->dag_stamp;
    for (int i = 0; i < nn; i++) {
        int v = s->dag_nodes[i];
        if (v == src)
            continue;
        for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int u = cr_link_other(l, v);
            if (s->dist[u] == INT_MAX || !s->settled[u] || in_dag(s, u))
                continue;
            if (u != src && !can_forward(s, u))
                continue;
            if (cr_link_bw_from(l, u) <= 0 || s->dist[u] + link_cost(l) != s->dist[v])
                continue;
            s->dag_mark[u] = s->dag_stamp;
            s->dag_nodes[nn++] = u;
        }
    }
    sort_by_dist(s->dist, s->dag_nodes, nn);
    for (int i = 0; i < nn; i++) {
        s->frac[s->dag_nodes[i]] = 0.0;
        s->lat[s->dag_nodes[i]] = 0.0;
    }
    s->frac[src] = 1.0;
    long off = s->n_rpool;
    for (int i = 0; i < nn; i++) {
        int u = s->dag_nodes[i];
        if (u == dst)
            continue;
        double tot = 0.0;
        for (int k = t->adj_off[u]; k < t->adj_off[u + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int v = cr_link_other(l, u);
            if (in_dag(s, v) && s->dist[v] == s->dist[u] + link_cost(l))
                tot += cr_link_bw_from(l, u);
        }
        if (tot <= 0)
            continue;
        for (int k = t->adj_off[u]; k < t->adj_off[u + 1]; k++) {
            int li = t->adj[k];
            const cr_link *l = &t->links[li];
            int v = cr_link_other(l, u);
            if (!in_dag(s, v) || s->dist[v] != s->dist[u] + link_cost(l))
                continue;
            double f = s->frac[u] * cr_link_bw_from(l, u) / tot;
            if (f <= 0)
                continue;
            s->frac[v] += f;
            if (s->lat[u] + l->lat_s > s->lat[v])
                s->lat[v] = s->lat[u] + l->lat_s;
            if (grow((void **)&s->rpool, &s->cap_rpool, s->n_rpool + 1, sizeof *s->rpool))
                return -2;
            s->rpool[s->n_rpool].res = cr_sim_res_link(s, li, u);
            s->rpool[s->n_rpool].w = f;
            s->n_rpool++;
        }
    }
    if (grow((void **)&s->routes, &s->cap_routes, s->n_routes + 1, sizeof *s->routes))
        return -2;
    route_t *r = &s->routes[s->n_routes];
    r->off = off;
    r->n = (int)(s->n_rpool - off);
    r->lat_s = s->lat[dst];
    s->st.route_entries += (size_t)r->n;
    return s->n_routes++;
}

/* Cached route between GPU ranks a != b; errors as route_compute. */
static long route_get(cr_sim *s, int a, int b)
{
    uint64_t key = (uint64_t)a * (uint64_t)s->t->n_gpus + (uint64_t)b + 1u;
    long r = hash_find(s, key);
    if (r >= 0)
        return r;
    r = route_compute(s, s->t->gpus[a], s->t->gpus[b]);
    if (r < 0)
        return r;
    if (hash_put(s, key, r))
        return -2;
    s->st.n_routes++;
    return r;
}

/* NCCL's PXN (2.12 and later): a message to a GPU of another node whose
 * local index differs goes first over NVLink to the GPU of the sender's node
 * on the receiver's rail, then out of that GPU's NIC, so that it stays on
 * one rail of a rail-optimised fabric. Returns that relay GPU, or -1 when
 * the flow goes straight (same node, same rail, no node structure, or the
 * topology sets sim.pxn to 0). */
static int pxn_relay(const cr_sim *s, int a, int b)
{
    if (!s->pxn || a == b)
        return -1;
    const cr_topo *t = s->t;
    int na = t->devs[t->gpus[a]].node, nb = t->devs[t->gpus[b]].node;
    if (na < 0 || nb < 0 || na == nb || s->local[a] < 0 || s->local[a] == s->local[b])
        return -1;
    int c = s->node_first[na] + s->local[b];
    if (c < 0 || c >= t->n_gpus || t->devs[t->gpus[c]].node != na)
        return -1;
    return c;
}

cr_status cr_sim_route_prewarm(cr_sim *s, const int *ranks, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int a = ranks[i], b = ranks[j];
            if (a == b || a < 0 || b < 0 || a >= s->t->n_gpus || b >= s->t->n_gpus ||
                pxn_relay(s, a, b) >= 0)
                continue;
            long r = route_get(s, a, b);
            if (r == -2)
                return CR_ENOMEM;
        }
    return CR_OK;
}

cr_status cr_sim_route(cr_sim *s, int a, int b, const cr_sim_use **uses, int *n, double *lat_s)
{
    *uses = NULL;
    *n = 0;
    *lat_s = 0;
    if (a < 0 || b < 0 || a >= s->t->n_gpus || b >= s->t->n_gpus)
        return CR_EINVAL;
    if (a == b)
        return CR_OK;
    long r = route_get(s, a, b);
    if (r < 0)
        return r == -1 ? CR_ENOTFOUND : CR_ENOMEM;
    *uses = s->rpool + s->routes[r].off;
    *n = s->routes[r].n;
    *lat_s = s->routes[r].lat_s;
    return CR_OK;
}

/* ---------- tasks ---------- */

static long task_new(cr_sim *s, int op, int type, int src, int dst)
{
    if (s->ran || op < 0 || op >= s->n_ops)
        return -1;
    const op_t *o = &s->ops[op];
    if (src < 0 || src >= o->n || dst < -1 || dst >= o->n)
        return -1;
    if (s->n_tasks >= INT_MAX - 1)
        return -1;
    if (grow((void **)&s->tasks, &s->cap_tasks, s->n_tasks + 1, sizeof *s->tasks))
        return -1;
    task_t *k = &s->tasks[s->n_tasks];
    memset(k, 0, sizeof *k);
    k->op = op;
    k->type = (unsigned char)type;
    k->src = src;
    k->dst = dst;
    k->ready_s = k->start_s = k->end_s = -1.0;
    k->use_off = s->n_uses;
    return s->n_tasks++;
}

/* Appends a use to the task being built (the last one), merging duplicates
 * through res_slot (reset by task_uses_done). */
static int task_use(cr_sim *s, int res, double w)
{
    if (res < 0 || res >= s->n_res || !(w > 0) || !isfinite(w))
        return -1;
    if (!isfinite(s->res[res].cap_Bps))
        return 0; /* an unlimited resource never binds */
    if (s->res_slot[res] >= 0) {
        s->uses[s->res_slot[res]].w += w;
        return 0;
    }
    if (grow((void **)&s->uses, &s->cap_uses, s->n_uses + 1, sizeof *s->uses))
        return -1;
    s->res_slot[res] = (int)s->n_uses;
    s->uses[s->n_uses].res = res;
    s->uses[s->n_uses].w = w;
    s->uses[s->n_uses].pos = -1;
    s->n_uses++;
    return 0;
}

static void task_uses_done(cr_sim *s, task_t *k)
{
    for (long i = k->use_off; i < s->n_uses; i++)
        s->res_slot[s->uses[i].res] = -1;
    k->n_use = (int)(s->n_uses - k->use_off);
}

/* Drops the last task (after a failure while adding its uses). */
static int task_abort(cr_sim *s)
{
    task_t *k = &s->tasks[s->n_tasks - 1];
    for (long i = k->use_off; i < s->n_uses; i++)
        s->res_slot[s->uses[i].res] = -1;
    s->n_uses = k->use_off;
    s->n_tasks--;
    return -1;
}

static int flow_add(cr_sim *s, int op, int src, int dst, double bytes, double extra_lat_s,
                    double dst_hbm_w)
{
    if (!(bytes >= 0) || !isfinite(bytes) || !(extra_lat_s >= 0) || !isfinite(extra_lat_s))
        return -1;
    if (op < 0 || op >= s->n_ops || src < 0 || dst < 0 || src >= s->ops[op].n ||
        dst >= s->ops[op].n)
        return -1;
    int a = s->ops[op].ranks[src], b = s->ops[op].ranks[dst];
    int relay = pxn_relay(s, a, b);
    long r1 = -1, r2 = -1;
    double rlat = 0;
    if (a != b) {
        r1 = route_get(s, a, relay >= 0 ? relay : b);
        if (r1 >= 0 && relay >= 0)
            r2 = route_get(s, relay, b);
        if (r1 < 0 || (relay >= 0 && r2 < 0))
            return -1;
        rlat = s->routes[r1].lat_s + (r2 >= 0 ? s->routes[r2].lat_s : 0);
    }
    long id = task_new(s, op, T_FLOW, src, dst);
    if (id < 0)
        return -1;
    for (int h = 0; h < 2; h++) {
        long r = h ? r2 : r1;
        if (r < 0)
            continue;
        /* Index the pool afresh: route_get may have moved it. */
        for (int i = 0; i < s->routes[r].n; i++)
            if (task_use(s, s->rpool[s->routes[r].off + i].res, s->rpool[s->routes[r].off + i].w))
                return task_abort(s);
    }
    if (task_use(s, cr_sim_res_hbm(s, a), 1.0) || task_use(s, cr_sim_res_hbm(s, b), dst_hbm_w))
        return task_abort(s);
    task_t *k = &s->tasks[id];
    task_uses_done(s, k);
    k->bytes = k->left = bytes;
    k->lat_s = rlat + extra_lat_s;
    s->st.n_flows++;
    return (int)id;
}

int cr_sim_flow_add(cr_sim *s, int op, int src, int dst, double bytes, double extra_lat_s)
{
    return flow_add(s, op, src, dst, bytes, extra_lat_s, 1.0);
}

int cr_sim_flow_add_reduce(cr_sim *s, int op, int src, int dst, double bytes, double extra_lat_s)
{
    return flow_add(s, op, src, dst, bytes, extra_lat_s, 2.0);
}

int cr_sim_flow_add_uses(cr_sim *s, int op, int rank, int peer, const cr_sim_use *uses, int n,
                         double bytes, double lat_s)
{
    if (!(bytes >= 0) || !isfinite(bytes) || !(lat_s >= 0) || !isfinite(lat_s) || n < 0)
        return -1;
    long id = task_new(s, op, T_FLOW, rank, peer == CR_SIM_ALL_RANKS ? -1 : peer);
    if (id < 0)
        return -1;
    s->tasks[id].all = peer == CR_SIM_ALL_RANKS;
    for (int i = 0; i < n; i++)
        if (task_use(s, uses[i].res, uses[i].w))
            return task_abort(s);
    task_t *k = &s->tasks[id];
    task_uses_done(s, k);
    k->bytes = k->left = bytes;
    k->lat_s = lat_s;
    s->st.n_flows++;
    return (int)id;
}

int cr_sim_compute_add(cr_sim *s, int op, int rank, double dur_s, double hbm_bytes)
{
    if (!(dur_s >= 0) || !isfinite(dur_s) || !(hbm_bytes >= 0) || !isfinite(hbm_bytes))
        return -1;
    if (hbm_bytes <= 0 || dur_s <= 0) {
        if (hbm_bytes > 0)
            dur_s = 0; /* bytes with no compute time: a pure HBM stream */
        else
            return cr_sim_delay_add(s, op, rank, dur_s);
    }
    long id = task_new(s, op, T_FLOW, rank, -1);
    if (id < 0)
        return -1;
    if (task_use(s, cr_sim_res_hbm(s, s->ops[op].ranks[rank]), 1.0))
        return task_abort(s);
    task_t *k = &s->tasks[id];
    task_uses_done(s, k);
    k->bytes = k->left = hbm_bytes;
    /* The roofline of one kernel: it cannot stream faster than its compute
     * lets it, nor faster than its (shared) HBM. */
    k->max_rate = dur_s > 0 ? hbm_bytes / dur_s : 0.0;
    if (k->n_use == 0 && k->max_rate == 0) {
        k->type = T_DELAY;
        k->lat_s = 0;
    }
    return (int)id;
}

int cr_sim_delay_add(cr_sim *s, int op, int rank, double dur_s)
{
    if (!(dur_s >= 0) || !isfinite(dur_s))
        return -1;
    long id = task_new(s, op, T_DELAY, rank, -1);
    if (id < 0)
        return -1;
    s->tasks[id].lat_s = dur_s;
    s->tasks[id].n_use = 0;
    return (int)id;
}

cr_status cr_sim_dep_add(cr_sim *s, int before, int after)
{
    if (s->ran || before < 0 || after < 0 || before >= s->n_tasks || after >= s->n_tasks ||
        before == after)
        return CR_EINVAL;
    if (grow((void **)&s->deps, &s->cap_deps, s->n_deps + 1, sizeof *s->deps))
        return CR_ENOMEM;
    s->deps[s->n_deps][0] = before;
    s->deps[s->n_deps][1] = after;
    s->n_deps++;
    return CR_OK;
}

cr_status cr_sim_op_markers(cr_sim *s, int op, double launch_s, double t_start_s, int *first,
                            int *last)
{
    if (op < 0 || op >= s->n_ops || s->ops[op].first_task >= 0)
        return CR_EINVAL;
    int a = cr_sim_delay_add(s, op, 0, launch_s);
    if (a < 0)
        return CR_ENOMEM;
    int b = cr_sim_delay_add(s, op, 0, 0.0);
    if (b < 0)
        return CR_ENOMEM;
    s->tasks[a].quiet = s->tasks[b].quiet = 1;
    s->tasks[a].not_before = t_start_s > 0 ? t_start_s : 0;
    s->ops[op].first_task = a;
    s->ops[op].last_task = b;
    *first = a;
    *last = b;
    return CR_OK;
}

cr_status cr_sim_task_not_before(cr_sim *s, int task, double t_s)
{
    if (task < 0 || task >= s->n_tasks || !(t_s >= 0) || !isfinite(t_s))
        return CR_EINVAL;
    s->tasks[task].not_before = t_s;
    return CR_OK;
}

cr_status cr_sim_task_label(cr_sim *s, int task, const char *label)
{
    if (task < 0 || task >= s->n_tasks)
        return CR_EINVAL;
    char *c = dup_str(label);
    if (label && !c)
        return CR_ENOMEM;
    free(s->tasks[task].label);
    s->tasks[task].label = c;
    return CR_OK;
}

/* ---------- event heap ---------- */

static int ev_push(cr_sim *s, double t, long task, int kind)
{
    if (grow((void **)&s->heap, &s->cap_heap, s->n_heap + 1, sizeof *s->heap))
        return -1;
    event_t e = {t, (int)task, s->tasks[task].ver, kind};
    long i = s->n_heap++;
    while (i > 0) {
        long p = (i - 1) / 2;
        if (s->heap[p].t <= t)
            break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = e;
    return 0;
}

static event_t ev_pop(cr_sim *s)
{
    event_t top = s->heap[0];
    event_t last = s->heap[--s->n_heap];
    long n = s->n_heap, i = 0;
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->heap[c + 1].t < s->heap[c].t)
            c++;
        if (s->heap[c].t >= last.t)
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n > 0)
        s->heap[i] = last;
    return top;
}

/* ---------- resource membership ---------- */

static int seed(cr_sim *s, int r)
{
    if (grow_i((void **)&s->seeds, &s->cap_seeds, s->n_seeds + 1, sizeof *s->seeds))
        return -1;
    s->seeds[s->n_seeds++] = r;
    return 0;
}

static int flow_attach(cr_sim *s, long f)
{
    task_t *k = &s->tasks[f];
    for (int i = 0; i < k->n_use; i++) {
        use_t *u = &s->uses[k->use_off + i];
        res_t *r = &s->res[u->res];
        if (grow_i((void **)&r->act, &r->cap_act, r->n_act + 1, sizeof *r->act))
            return -1;
        u->pos = r->n_act;
        r->act[r->n_act].task = (int)f;
        r->act[r->n_act].use = (int)(k->use_off + i);
        r->n_act++;
        if (seed(s, u->res))
            return -1;
    }
    k->active = 1;
    k->rate = 0;
    k->t_last = 0;
    return 0;
}

static int flow_detach(cr_sim *s, long f)
{
    task_t *k = &s->tasks[f];
    for (int i = 0; i < k->n_use; i++) {
        use_t *u = &s->uses[k->use_off + i];
        res_t *r = &s->res[u->res];
        ref_t last = r->act[--r->n_act];
        if (u->pos != r->n_act) {
            r->act[u->pos] = last;
            s->uses[last.use].pos = u->pos;
        }
        u->pos = -1;
        if (seed(s, u->res))
            return -1;
    }
    k->active = 0;
    return 0;
}

/* ---------- max-min fair rates on the affected component ---------- */

static int rheap_push(cr_sim *s, double key, int r)
{
    if (s->n_rheap + 1 > s->cap_rheap) {
        long c = s->cap_rheap ? s->cap_rheap * 2 : 256;
        double *k = realloc(s->rheap_k, (size_t)c * sizeof *k);
        if (!k)
            return -1;
        s->rheap_k = k;
        int *v = realloc(s->rheap_r, (size_t)c * sizeof *v);
        if (!v)
            return -1;
        s->rheap_r = v;
        s->cap_rheap = c;
    }
    long i = s->n_rheap++;
    while (i > 0) {
        long p = (i - 1) / 2;
        if (s->rheap_k[p] <= key)
            break;
        s->rheap_k[i] = s->rheap_k[p];
        s->rheap_r[i] = s->rheap_r[p];
        i = p;
    }
    s->rheap_k[i] = key;
    s->rheap_r[i] = r;
    return 0;
}

static void rheap_pop(cr_sim *s)
{
    long n = --s->n_rheap, i = 0;
    double lk = s->rheap_k[n];
    int lr = s->rheap_r[n];
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->rheap_k[c + 1] < s->rheap_k[c])
            c++;
        if (s->rheap_k[c] >= lk)
            break;
        s->rheap_k[i] = s->rheap_k[c];
        s->rheap_r[i] = s->rheap_r[c];
        i = c;
    }
    if (n > 0) {
        s->rheap_k[i] = lk;
        s->rheap_r[i] = lr;
    }
}

static int cheap_push(cr_sim *s, double key, long f)
{
    if (s->n_cheap + 1 > s->cap_cheap) {
        long c = s->cap_cheap ? s->cap_cheap * 2 : 64;
        double *k = realloc(s->cheap_k, (size_t)c * sizeof *k);
        if (!k)
            return -1;
        s->cheap_k = k;
        long *v = realloc(s->cheap_f, (size_t)c * sizeof *v);
        if (!v)
            return -1;
        s->cheap_f = v;
        s->cap_cheap = c;
    }
    long i = s->n_cheap++;
    while (i > 0) {
        long p = (i - 1) / 2;
        if (s->cheap_k[p] <= key)
            break;
        s->cheap_k[i] = s->cheap_k[p];
        s->cheap_f[i] = s->cheap_f[p];
        i = p;
    }
    s->cheap_k[i] = key;
    s->cheap_f[i] = f;
    return 0;
}

static void cheap_pop(cr_sim *s)
{
    long n = --s->n_cheap, i = 0;
    double lk = s->cheap_k[n];
    long lf = s->cheap_f[n];
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->cheap_k[c + 1] < s->cheap_k[c])
            c++;
        if (s->cheap_k[c] >= lk)
            break;
        s->cheap_k[i] = s->cheap_k[c];
        s->cheap_f[i] = s->cheap_f[c];
        i = c;
    }
    if (n > 0) {
        s->cheap_k[i] = lk;
        s->cheap_f[i] = lf;
    }
}

/* Flow stamps: a flow is in the component when stamp == s->stamp, frozen
 * when stamp == -s->stamp. */
static void freeze(cr_sim *s, long f, double rate)
{
    task_t *k = &s->tasks[f];
    k->stamp = -s->stamp;
    s->newrate[f] = rate;
    for (int i = 0; i < k->n_use; i++) {
        const use_t *u = &s->uses[k->use_off + i];
        s->rem[u->res] -= u->w * rate;
        s->wsum[u->res] -= u->w;
        s->nunf[u->res]--;
    }
}

static int solve(cr_sim *s, double now)
{
    if (s->n_seeds == 0)
        return 0;
    if (++s->stamp == INT_MAX) {
        for (int r = 0; r < s->n_res; r++)
            s->res_stamp[r] = 0;
        for (long f = 0; f < s->n_tasks; f++)
            s->tasks[f].stamp = 0;
        s->stamp = 1;
    }
    const int st = s->stamp;
    /* The component: breadth-first over resources and the flows on them. */
    int nr = 0;
    long nf = 0;
    for (int i = 0; i < s->n_seeds; i++) {
        int r = s->seeds[i];
        if (s->res_stamp[r] != st) {
            s->res_stamp[r] = st;
            s->comp_res[nr++] = r;
        }
    }
    s->n_seeds = 0;
    for (int i = 0; i < nr; i++) {
        const res_t *r = &s->res[s->comp_res[i]];
        for (int j = 0; j < r->n_act; j++) {
            long f = r->act[j].task;
            task_t *k = &s->tasks[f];
            if (k->stamp == st)
                continue;
            k->stamp = st;
            if (nf + 1 > s->cap_comp_flows &&
                grow((void **)&s->comp_flows, &s->cap_comp_flows, nf + 1, sizeof *s->comp_flows))
                return -1;
            s->comp_flows[nf++] = f;
            for (int u = 0; u < k->n_use; u++) {
                int q = s->uses[k->use_off + u].res;
                if (s->res_stamp[q] != st) {
                    s->res_stamp[q] = st;
                    s->comp_res[nr++] = q;
                }
            }
        }
    }
    s->st.n_solves++;
    s->st.solved_flows += nf;
    /* Settle bytes and resource counters up to now at the old rates. */
    for (long i = 0; i < nf; i++) {
        task_t *k = &s->tasks[s->comp_flows[i]];
        k->left -= k->rate * (now - k->t_last);
        if (k->left < 0)
            k->left = 0;
        k->t_last = now;
    }
    s->n_rheap = 0;
    s->n_cheap = 0;
    for (int i = 0; i < nr; i++) {
        int q = s->comp_res[i];
        res_t *r = &s->res[q];
        double dt = now - r->t_last;
        r->bytes += r->load_Bps * dt;
        if (r->load_Bps >= r->cap_Bps * (1 - 1e-6))
            r->busy_s += dt;
        r->t_last = now;
        s->rem[q] = r->cap_Bps;
        s->nunf[q] = r->n_act;
        double w = 0;
        for (int j = 0; j < r->n_act; j++)
            w += s->uses[r->act[j].use].w;
        s->wsum[q] = w;
        if (r->n_act > 0 && rheap_push(s, r->cap_Bps / w, q))
            return -1;
    }
    for (long i = 0; i < nf; i++) {
        long f = s->comp_flows[i];
        if (s->tasks[f].max_rate > 0 && cheap_push(s, s->tasks[f].max_rate, f))
            return -1;
    }
    /* Progressive filling: raise every unfrozen flow's rate together; the
     * resource (or flow cap) that saturates first freezes its flows. */
    double level = 0;
    long frozen = 0;
    while (frozen < nf) {
        double rkey = INFINITY;
        int rbest = -1;
        while (s->n_rheap > 0) {
            int q = s->rheap_r[0];
            double key = s->rheap_k[0];
            if (s->nunf[q] <= 0) {
                rheap_pop(s);
                continue;
            }
            double w = s->wsum[q] > 1e-300 ? s->wsum[q] : 1e-300;
            double cur = s->rem[q] / w;
            if (cur < level)
                cur = level;
            if (cur > key * (1 + 1e-12)) {
                rheap_pop(s);
                if (rheap_push(s, cur, q))
                    return -1;
                continue;
            }
            rkey = cur;
            rbest = q;
            break;
        }
        while (s->n_cheap > 0 && s->tasks[s->cheap_f[0]].stamp != st)
            cheap_pop(s);
        if (s->n_cheap > 0 && s->cheap_k[0] <= rkey) {
            long f = s->cheap_f[0];
            if (s->cheap_k[0] > level)
                level = s->cheap_k[0];
            cheap_pop(s);
            freeze(s, f, s->tasks[f].max_rate);
            frozen++;
            continue;
        }
        if (rbest < 0) {
            /* Flows with no resource and no cap: unlimited (finish at once). */
            for (long i = 0; i < nf; i++) {
                long f = s->comp_flows[i];
                if (s->tasks[f].stamp == st) {
                    freeze(s, f, INFINITY);
                    frozen++;
                }
            }
            break;
        }
        rheap_pop(s);
        level = rkey;
        const res_t *r = &s->res[rbest];
        for (int j = 0; j < r->n_act; j++) {
            long f = r->act[j].task;
            if (s->tasks[f].stamp == st) {
                freeze(s, f, level);
                frozen++;
            }
        }
    }
    for (int i = 0; i < nr; i++) {
        int q = s->comp_res[i];
        res_t *r = &s->res[q];
        double load = r->cap_Bps - s->rem[q];
        r->load_Bps = load > 0 ? load : 0;
        if (r->load_Bps > r->peak_Bps)
            r->peak_Bps = r->load_Bps;
    }
    for (long i = 0; i < nf; i++) {
        long f = s->comp_flows[i];
        task_t *k = &s->tasks[f];
        double nr8 = s->newrate[f];
        if (nr8 == k->rate)
            continue;
        k->rate = nr8;
        k->ver++;
        double t_end = isfinite(nr8) ? now + k->left / nr8 : now;
        if (ev_push(s, t_end, f, EV_DONE))
            return -1;
    }
    return 0;
}

/* ---------- the event loop ---------- */

/* Task f finished at now: record, release successors. */
static int task_finish(cr_sim *s, long f, double now, const long *succ_off, const long *succ)
{
    task_t *k = &s->tasks[f];
    k->done = 1;
    k->end_s = now;
    k->left = 0;
    op_t *o = &s->ops[k->op];
    if (o->end_s < now)
        o->end_s = now;
    if (k->all)
        for (int i = 0; i < o->n; i++)
            if (o->rank_end[i] < now)
                o->rank_end[i] = now;
    if (!k->quiet && o->rank_end[k->src] < now)
        o->rank_end[k->src] = now;
    if (!k->quiet && k->dst >= 0 && o->rank_end[k->dst] < now)
        o->rank_end[k->dst] = now;
    if (now > s->makespan)
        s->makespan = now;
    for (long i = succ_off[f]; i < succ_off[f + 1]; i++) {
        task_t *n = &s->tasks[succ[i]];
        if (--n->npred == 0) {
            double r = now > n->not_before ? now : n->not_before;
            n->ready_s = r;
            if (ev_push(s, r + n->lat_s, succ[i], EV_ACT))
                return -1;
        }
    }
    return 0;
}

cr_status cr_sim_run(cr_sim *s, cr_diag *d)
{
    if (s->ran)
        return cr_diag_set(d, CR_EINVAL, "simulator: cr_sim_run was already called");
    s->ran = true;
    cr_status st = CR_ENOMEM;
    long n = s->n_tasks;
    long *succ_off = calloc((size_t)n + 2, sizeof *succ_off);
    long *succ = malloc(((size_t)s->n_deps + 1) * sizeof *succ);
    s->newrate = malloc(((size_t)n + 1) * sizeof *s->newrate);
    if (!succ_off || !succ || !s->newrate)
        goto out;
    for (long i = 0; i < s->n_deps; i++) {
        succ_off[s->deps[i][0] + 1]++;
        s->tasks[s->deps[i][1]].npred++;
    }
    for (long i = 0; i < n; i++)
        succ_off[i + 1] += succ_off[i];
    {
        long *fill = malloc(((size_t)n + 1) * sizeof *fill);
        if (!fill)
            goto out;
        memcpy(fill, succ_off, (size_t)n * sizeof *fill);
        for (long i = 0; i < s->n_deps; i++)
            succ[fill[s->deps[i][0]]++] = s->deps[i][1];
        free(fill);
    }
    for (int i = 0; i < s->n_ops; i++) {
        s->ops[i].start_s = INFINITY;
        s->ops[i].end_s = 0;
        for (int j = 0; j < s->ops[i].n; j++)
            s->ops[i].rank_end[j] = -1.0;
    }
    s->makespan = 0;
    for (long f = 0; f < n; f++) {
        task_t *k = &s->tasks[f];
        s->ops[k->op].n_tasks++;
        if (k->npred == 0) {
            k->ready_s = k->not_before;
            if (ev_push(s, k->ready_s + k->lat_s, f, EV_ACT))
                goto out;
        }
    }
    s->st.n_tasks = n;
    long finished = 0;
    while (s->n_heap > 0) {
        double now = s->heap[0].t;
        double horizon = now + BATCH_ABS + BATCH_REL * fabs(now);
        while (s->n_heap > 0 && s->heap[0].t <= horizon) {
            event_t e = ev_pop(s);
            task_t *k = &s->tasks[e.task];
            if (e.ver != k->ver || k->done)
                continue;
            s->st.n_events++;
            if (e.kind == EV_ACT) {
                k->start_s = k->type == T_DELAY ? k->ready_s : now;
                if (k->type == T_DELAY || k->n_use == 0 || k->bytes <= 0) {
                    if (k->type != T_DELAY && k->n_use == 0 && k->bytes > 0 && k->max_rate > 0) {
                        /* A capped stream over unlimited resources. */
                        k->active = 1;
                        k->rate = k->max_rate;
                        k->t_last = now;
                        k->ver++;
                        if (ev_push(s, now + k->bytes / k->max_rate, e.task, EV_DONE))
                            goto out;
                        continue;
                    }
                    if (task_finish(s, e.task, now, succ_off, succ))
                        goto out;
                    finished++;
                    continue;
                }
                if (flow_attach(s, e.task))
                    goto out;
                k->t_last = now;
            } else {
                if (k->n_use > 0 && flow_detach(s, e.task))
                    goto out;
                k->active = 0;
                if (task_finish(s, e.task, now, succ_off, succ))
                    goto out;
                finished++;
            }
        }
        if (solve(s, now))
            goto out;
    }
    if (finished < n) {
        long stuck = -1;
        for (long f = 0; f < n && stuck < 0; f++)
            if (!s->tasks[f].done)
                stuck = f;
        st = cr_diag_set(d, CR_EINVAL,
                         "simulator: %ld of %ld tasks never became ready (a dependency cycle "
                         "through task %ld of \"%s\"); dependencies must form a DAG",
                         n - finished, n, stuck, s->ops[s->tasks[stuck].op].name);
        goto out;
    }
    /* An op starts when its start marker becomes ready (its launch counts),
     * or else with its first task. */
    for (long f = 0; f < n; f++) {
        op_t *o = &s->ops[s->tasks[f].op];
        if (o->first_task < 0 && s->tasks[f].ready_s < o->start_s)
            o->start_s = s->tasks[f].ready_s;
    }
    for (int i = 0; i < s->n_ops; i++) {
        op_t *o = &s->ops[i];
        if (o->first_task >= 0)
            o->start_s = s->tasks[o->first_task].ready_s;
        if (!isfinite(o->start_s))
            o->start_s = 0;
    }
    /* Close the resource counters at the end. */
    for (int q = 0; q < s->n_res; q++) {
        res_t *r = &s->res[q];
        double dt = s->makespan - r->t_last;
        if (dt > 0) {
            r->bytes += r->load_Bps * dt;
            if (r->load_Bps >= r->cap_Bps * (1 - 1e-6) && r->load_Bps > 0)
                r->busy_s += dt;
            r->t_last = s->makespan;
        }
    }
    st = CR_OK;
out:
    free(succ_off);
    free(succ);
    if (st == CR_ENOMEM)
        cr_diag_set(d, st, "simulator: out of memory");
    return st;
}

/* ---------- results ---------- */

double cr_sim_makespan_s(const cr_sim *s)
{
    return s->makespan;
}

int cr_sim_n_ops(const cr_sim *s)
{
    return s->n_ops;
}

cr_sim_op_result cr_sim_op_get(const cr_sim *s, int op)
{
    cr_sim_op_result r;
    memset(&r, 0, sizeof r);
    if (op < 0 || op >= s->n_ops)
        return r;
    const op_t *o = &s->ops[op];
    r.name = o->name;
    r.kind = (cr_sim_op_kind)o->kind;
    r.n_ranks = o->n;
    r.ranks = o->ranks;
    r.stream = o->stream;
    r.start_s = o->start_s;
    r.end_s = o->end_s;
    r.rank_end_s = o->rank_end;
    r.n_tasks = o->n_tasks;
    r.first_task = o->first_task;
    r.last_task = o->last_task;
    return r;
}

long cr_sim_n_tasks(const cr_sim *s)
{
    return s->n_tasks;
}

cr_sim_task_info cr_sim_task_get(const cr_sim *s, long task)
{
    cr_sim_task_info ti;
    memset(&ti, 0, sizeof ti);
    if (task < 0 || task >= s->n_tasks)
        return ti;
    const task_t *k = &s->tasks[task];
    const op_t *o = &s->ops[k->op];
    ti.op = k->op;
    ti.rank = o->ranks[k->src];
    ti.peer = k->dst >= 0 ? o->ranks[k->dst] : -1;
    ti.is_flow = k->type == T_FLOW;
    ti.bytes = k->bytes;
    ti.ready_s = k->ready_s;
    ti.start_s = k->start_s;
    ti.end_s = k->end_s;
    ti.label = k->label;
    ti.marker = k->quiet != 0;
    return ti;
}

cr_sim_res_stat cr_sim_res_get(const cr_sim *s, int res)
{
    cr_sim_res_stat r;
    memset(&r, 0, sizeof r);
    if (res < 0 || res >= s->n_res)
        return r;
    const res_t *q = &s->res[res];
    r.kind = (cr_sim_res_kind)q->kind;
    r.index = q->index;
    r.dir = q->dir;
    r.cap_Bps = q->cap_Bps;
    r.bytes = q->bytes;
    r.busy_s = q->busy_s;
    r.peak_load_Bps = q->peak_Bps;
    return r;
}

cr_sim_stats cr_sim_stats_get(const cr_sim *s)
{
    cr_sim_stats st = s->st;
    st.n_tasks = s->n_tasks;
    return st;
}

char *cr_sim_res_name(const cr_sim *s, int res, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    buf[0] = 0;
    if (res < 0 || res >= s->n_res)
        return buf;
    const res_t *q = &s->res[res];
    const cr_topo *t = s->t;
    if (q->kind == CR_SIM_RES_LINK) {
        const cr_link *l = &t->links[q->index];
        int a = q->dir == 0 ? l->a : l->b, b = q->dir == 0 ? l->b : l->a;
        snprintf(buf, size, "%s->%s", t->devs[a].id, t->devs[b].id);
    } else if (q->kind == CR_SIM_RES_HBM) {
        snprintf(buf, size, "hbm %s", t->devs[t->gpus[q->index]].id);
    } else {
        snprintf(buf, size, "reduce %s", t->devs[q->index].id);
    }
    return buf;
}

size_t cr_sim_mem_bytes(const cr_sim *s)
{
    size_t m = sizeof *s;
    m += (size_t)s->cap_tasks * sizeof *s->tasks + (size_t)s->cap_uses * sizeof *s->uses;
    m += (size_t)s->cap_deps * sizeof *s->deps + (size_t)s->cap_heap * sizeof *s->heap;
    m += (size_t)s->cap_rpool * sizeof *s->rpool + (size_t)s->cap_routes * sizeof *s->routes;
    m += (size_t)s->hcap * (sizeof *s->hkeys + sizeof *s->hvals);
    m += (size_t)s->n_res * (sizeof *s->res + 5 * sizeof(double));
    for (int r = 0; r < s->n_res; r++)
        m += (size_t)s->res[r].cap_act * sizeof(ref_t);
    m += (size_t)s->cap_comp_flows * sizeof(long) + (size_t)s->n_tasks * sizeof(double);
    return m;
}
