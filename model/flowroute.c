/* SPDX-License-Identifier: MIT */
/*
 * The flow simulator's router (flowsim.h: cr_sim_route, cr_sim_path,
 * cr_sim_route_prewarm; doc/simulator.md, Routes): routes between GPUs
 * are the fewest-cost paths through switches, NICs, CPUs and PCIe switches
 * (not through other GPUs unless route.gpu_transit, or unless no path
 * avoids them: route.h), spread over every
 * such path in proportion to link capacity, leaving and entering a node
 * through the NICs NCCL gives its GPUs, with NCCL's PXN relay between
 * rails. Computed once per GPU pair and cached (hash on the pair;
 * across nodes, on the pair and the NIC shares of its two GPUs:
 * nic_shares, pair_shares): a single route by a bidirectional Dijkstra
 * (two balls of half the route's length instead of one of its whole
 * length), all routes from one source of an all-to-all by one resumable
 * Dijkstra from it; the DAG's edges are recorded as they are found.
 */
#include "flowsim_priv.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* An unreached distance; route searches cost a hop cr_nic_hop_cost (nic.h),
 * as NCCL's NIC choice does. */
#define DINF INT_MAX

/* A source with at least this many destinations in a prewarm gets one
 * resumable Dijkstra; fewer get bidirectional searches. */
#define PREWARM_MIN_DESTS 8

/* Up to this many GPUs the route cache is a dense n x n table (16 MiB at
 * most, pages touched only where routes exist): an all-to-all looks its
 * routes up row by row instead of hashing a million pairs. */
#define DENSE_MAX_GPUS 2048

static int search_init(search_t *x, size_t nd)
{
    x->dist = malloc(nd * sizeof *x->dist);
    x->settled = calloc(nd, 1);
    x->touched = malloc(nd * sizeof *x->touched);
    if (!x->dist || !x->settled || !x->touched)
        return -1;
    for (size_t i = 0; i < nd; i++)
        x->dist[i] = DINF;
    return 0;
}

static void search_free(search_t *x)
{
    free(x->dist);
    free(x->settled);
    free(x->touched);
    cr_heap_free(&x->h);
}

/* Frees route cache c's arrays and zeroes it. */
static void route_cache_free(route_cache_t *c)
{
    free(c->rpool);
    free(c->routes);
    free(c->rhash.keys);
    free(c->rhash.vals);
    free(c->via_hash.keys);
    free(c->via_hash.vals);
    free(c->via_member);
    free(c->dense);
    memset(c, 0, sizeof *c);
}

static int near_nics_build(cr_sim *s);

int flowroute_init(cr_sim *s)
{
    const cr_topo *t = s->t;
    size_t nd = (size_t)t->n_devs + 1;
    s->dag_mark = calloc(nd, sizeof *s->dag_mark);
    s->bmark = calloc(nd, sizeof *s->bmark);
    s->link_mark = calloc((size_t)t->n_links + 1, sizeof *s->link_mark);
    s->eoff = malloc((nd + 1) * sizeof *s->eoff);
    s->dag_idx = malloc(nd * sizeof *s->dag_idx);
    s->dag_nodes = malloc(nd * sizeof *s->dag_nodes);
    s->pos = malloc(nd * sizeof *s->pos);
    s->queue = malloc(nd * sizeof *s->queue);
    s->frac = malloc(nd * sizeof *s->frac);
    s->lat = malloc(nd * sizeof *s->lat);
    if (search_init(&s->fw, nd) || search_init(&s->bw, nd) || !s->dag_mark || !s->bmark ||
        !s->link_mark || !s->eoff || !s->dag_idx || !s->dag_nodes || !s->pos || !s->queue ||
        !s->frac || !s->lat)
        return -1;
    return near_nics_build(s);
}

void flowroute_free(cr_sim *s)
{
    cr_nic_map_free(s->nics);
    free(s->nic_local);
    free(s->def_share);
    free(s->nic_ok);
    free(s->grp_cnt);
    cr_route_scratch_release(&s->shm_sc);
    route_cache_free(&s->rc);
    search_free(&s->fw);
    search_free(&s->bw);
    free(s->dag_mark);
    free(s->bmark);
    free(s->link_mark);
    free(s->edge_u);
    free(s->edge_l);
    free(s->edge_ord);
    free(s->eoff);
    free(s->dag_idx);
    free(s->dag_nodes);
    free(s->pos);
    free(s->queue);
    free(s->frac);
    free(s->lat);
    free(s->scratch);
}

/* ---------- routing ---------- */

static int search_reset(search_t *x, int src)
{
    for (int i = 0; i < x->n_touched; i++) {
        x->dist[x->touched[i]] = DINF;
        x->settled[x->touched[i]] = 0;
    }
    x->n_touched = 0;
    x->h.n = 0;
    x->dist[src] = 0;
    x->touched[x->n_touched++] = src;
    return cr_heap_push(&x->h, 0, src, 0);
}

/* The least key of a search's heap after dropping stale entries; DINF when
 * empty. */
static int search_top(search_t *x)
{
    while (x->h.n > 0) {
        int v = x->h.e[0].id, d = (int)x->h.e[0].key;
        if (!x->settled[v] && d == x->dist[v])
            return d;
        cr_heap_pop(&x->h);
    }
    return DINF;
}

/* Pops the search's vertex of least distance into *v, *d. */
static void search_pop(search_t *x, int *v, int *d)
{
    cr_heap_ent e = cr_heap_pop(&x->h);
    *v = e.id;
    *d = (int)e.key;
}

/* Counts the links of device v that a route search is about to scan
 * against the simulator's budget; true once past it (the search then fails
 * as out of memory does, and the callers report CR_ERANGE). A switch with
 * n GPUs costs n per route through it, so a star of 65,536 GPUs would scan
 * 4.3 billion links for one ring. */
static bool work_add(cr_sim *s, int v)
{
    s->route_work += s->t->adj_off[v + 1] - s->t->adj_off[v];
    if (s->route_work > s->max_route_work)
        s->work_over = true;
    return s->work_over;
}

static bool can_forward(const cr_sim *s, int v)
{
    if (!cr_route_forwards(s->t, v, s->transit || s->via_gpus))
        return false;
    /* a GPU crossed because nothing else joins the pair: one of the op's
     * where the search is held to them (route_via_gpus) */
    if (s->via_members && !s->transit && s->t->devs[v].kind == CR_DEV_GPU) {
        int g = s->t->devs[v].gpu_rank;
        return (s->via_members[g >> 6] >> (g & 63)) & 1u;
    }
    return true;
}

/* Relaxes the edges leaving u (forward: links usable from u) or entering u
 * (backward: links usable towards u whose far end may forward) at distance
 * du. Returns -1 on allocation failure. *mu tracks the best meeting. */
static int relax(cr_sim *s, search_t *x, const search_t *other, int u, int du, bool fwd, int src,
                 long *mu)
{
    const cr_topo *t = s->t;
    if (work_add(s, u))
        return -1;
    for (int i = t->adj_off[u]; i < t->adj_off[u + 1]; i++) {
        const cr_link *l = &t->links[t->adj[i]];
        int w = cr_link_other(l, u);
        if (cr_link_bw_from(l, fwd ? u : w) <= 0)
            continue;
        if (!fwd && w != src && !can_forward(s, w))
            continue;
        if (s->restrict_nic && t->devs[w].kind == CR_DEV_NIC && s->nic_ok[w] != s->nic_stamp)
            continue;
        int nd = du + cr_nic_hop_cost(l);
        if (nd < x->dist[w]) {
            if (x->dist[w] == DINF)
                x->touched[x->n_touched++] = w;
            x->dist[w] = nd;
            if (cr_heap_push(&x->h, nd, w, 0))
                return -1;
        }
        if (other && other->dist[w] != DINF && (long)nd + other->dist[w] < *mu)
            *mu = (long)nd + other->dist[w];
    }
    return 0;
}

/* Resumes the full forward search (loaded for s->fw_src) until target
 * settles. Returns 1 when it did, 0 when unreachable, -1 out of memory. */
static int fw_until(cr_sim *s, int target)
{
    search_t *x = &s->fw;
    while (!x->settled[target]) {
        if (search_top(x) == DINF)
            return 0;
        int v, dv;
        search_pop(x, &v, &dv);
        x->settled[v] = 1;
        if (v != s->fw_src && !can_forward(s, v))
            continue;
        if (relax(s, x, NULL, v, dv, true, s->fw_src, NULL))
            return -1;
    }
    return 1;
}

/* Bidirectional Dijkstra from src and (over reversed usable links) from
 * dst, alternating on the smaller key. It stops once tf + tb >= mu + 2: then
 * mu is the distance D, every node within tf - 1 of src is settled forward
 * and every node within tb - 1 of dst backward, and since (tf-1) + (tb-1)
 * >= D, every node of every shortest path is settled in at least one of
 * the two (doc/simulator.md). Returns 1 with *D, 0 without a path, -1 out
 * of memory. */
static int bidir(cr_sim *s, int src, int dst, int *D)
{
    search_t *f = &s->fw, *b = &s->bw;
    if (search_reset(f, src) || search_reset(b, dst))
        return -1;
    /* a valid partial forward search: resumable, unless NICs were left out */
    s->fw_src = s->restrict_nic ? -1 : src;
    long mu = DINF;
    for (;;) {
        int tf = search_top(f), tb = search_top(b);
        if (tf == DINF && tb == DINF)
            break;
        if (mu < DINF && (long)tf + tb >= mu + 2)
            break;
        if (mu == DINF && (tf == DINF || tb == DINF))
            break;
        int v, dv;
        if (tf <= tb) {
            search_pop(f, &v, &dv);
            f->settled[v] = 1;
            if (b->dist[v] != DINF && (long)dv + b->dist[v] < mu)
                mu = (long)dv + b->dist[v];
            if (v != src && !can_forward(s, v))
                continue;
            if (relax(s, f, b, v, dv, true, src, &mu))
                return -1;
        } else {
            search_pop(b, &v, &dv);
            b->settled[v] = 1;
            if (f->dist[v] != DINF && (long)dv + f->dist[v] < mu)
                mu = (long)dv + f->dist[v];
            if (v != dst && !can_forward(s, v))
                continue;
            if (relax(s, b, f, v, dv, false, src, &mu))
                return -1;
        }
    }
    if (mu >= DINF)
        return 0;
    *D = (int)mu;
    return 1;
}

static bool in_dag(const cr_sim *s, int v)
{
    return s->dag_mark[v] == s->dag_stamp;
}

static void dag_add(cr_sim *s, int v, int pos, int *nn)
{
    if (in_dag(s, v))
        return;
    s->dag_mark[v] = s->dag_stamp;
    s->pos[v] = pos;
    s->dag_nodes[(*nn)++] = v;
}

static void dag_stamp_next(cr_sim *s)
{
    s->n_edges = 0;
    if (++s->dag_stamp == INT_MAX) {
        memset(s->link_mark, 0, (size_t)s->t->n_links * sizeof *s->link_mark);
        memset(s->dag_mark, 0, (size_t)s->t->n_devs * sizeof *s->dag_mark);
        memset(s->bmark, 0, (size_t)s->t->n_devs * sizeof *s->bmark);
        s->dag_stamp = 1;
    }
}

/* Records the DAG edge leaving device u over link l (once: a link carries
 * a route one way only). Returns -1 when out of memory. */
static int dag_edge(cr_sim *s, int u, int l)
{
    if (s->link_mark[l] == s->dag_stamp)
        return 0;
    s->link_mark[l] = s->dag_stamp;
    size_t need = (size_t)s->n_edges + 1;
    if (cr_grow((void **)&s->edge_u, &s->cap_edge_u, need, sizeof *s->edge_u) ||
        cr_grow((void **)&s->edge_l, &s->cap_edge_l, need, sizeof *s->edge_l) ||
        cr_grow((void **)&s->edge_ord, &s->cap_edge_ord, need, sizeof *s->edge_ord))
        return -1;
    s->edge_u[s->n_edges] = u;
    s->edge_l[s->n_edges] = l;
    s->n_edges++;
    return 0;
}

/* Adds to the DAG every settled-forward predecessor chain of the nodes
 * already in it from index `from` on (tight edges: dist[p] + cost ==
 * dist[x]). */
static int dag_back(cr_sim *s, int src, int from, int *nn)
{
    const cr_topo *t = s->t;
    const search_t *f = &s->fw;
    for (int i = from; i < *nn; i++) {
        int v = s->dag_nodes[i];
        if (v == src || f->dist[v] == DINF)
            continue;
        if (work_add(s, v))
            return -1;
        for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int u = cr_link_other(l, v);
            if (!f->settled[u] || (u != src && !can_forward(s, u)))
                continue;
            if (cr_link_bw_from(l, u) <= 0 || f->dist[u] + cr_nic_hop_cost(l) != f->dist[v])
                continue;
            if (dag_edge(s, u, t->adj[k]))
                return -1;
            dag_add(s, u, f->dist[u], nn);
        }
    }
    return 0;
}

/* The shortest-path DAG from a full forward search: back from dst. */
static int fw_dag(cr_sim *s, int src, int dst)
{
    dag_stamp_next(s);
    int nn = 0;
    dag_add(s, dst, s->fw.dist[dst], &nn);
    if (dag_back(s, src, 0, &nn))
        return -1;
    return nn;
}

/* The shortest-path DAG after bidir(): meeting edges (u settled forward, w
 * settled backward, dist_f[u] + cost + dist_b[w] == D) split every shortest
 * path into a forward part (walked back from u over tight forward edges)
 * and a backward part (walked on from w over tight backward edges). A node's
 * position is its distance from src: dist_f, or D - dist_b. */
static int bidir_dag(cr_sim *s, int src, int dst, int D)
{
    const cr_topo *t = s->t;
    const search_t *f = &s->fw, *b = &s->bw;
    dag_stamp_next(s);
    const int st = s->dag_stamp;
    int nn = 0, nb = 0;
    if (f->settled[dst] && f->dist[dst] == D)
        dag_add(s, dst, D, &nn);
    for (int i = 0; i < f->n_touched; i++) {
        int u = f->touched[i];
        if (!f->settled[u] || (u != src && !can_forward(s, u)))
            continue;
        if (work_add(s, u))
            return -1;
        for (int k = t->adj_off[u]; k < t->adj_off[u + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int w = cr_link_other(l, u);
            if (!b->settled[w] || cr_link_bw_from(l, u) <= 0 ||
                (long)f->dist[u] + cr_nic_hop_cost(l) + b->dist[w] != D)
                continue;
            if (dag_edge(s, u, t->adj[k]))
                return -1;
            dag_add(s, u, f->dist[u], &nn);
            if (s->bmark[w] != st) {
                s->bmark[w] = st;
                s->queue[nb++] = w;
            }
        }
    }
    if (dag_back(s, src, 0, &nn))
        return -1;
    /* Backward part, from the meeting heads on over tight backward edges,
     * with its own marks: a head may already be in the DAG (settled both
     * ways) and must still be walked from. */
    if (b->settled[src] && b->dist[src] == D && s->bmark[src] != st) {
        s->bmark[src] = st;
        s->queue[nb++] = src;
    }
    for (int i = 0; i < nb; i++) {
        int v = s->queue[i];
        dag_add(s, v, D - b->dist[v], &nn);
        if (v == dst || (v != src && !can_forward(s, v)))
            continue;
        if (work_add(s, v))
            return -1;
        for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int q = cr_link_other(l, v);
            if (!b->settled[q] || cr_link_bw_from(l, v) <= 0 ||
                (long)b->dist[q] + cr_nic_hop_cost(l) != b->dist[v])
                continue;
            if (dag_edge(s, v, t->adj[k]))
                return -1;
            if (s->bmark[q] == st)
                continue;
            s->bmark[q] = st;
            s->queue[nb++] = q;
        }
    }
    return nn;
}

static int cmp_pos_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1];
}

/* Sorts the DAG nodes by position. */
static int sort_dag(cr_sim *s, int nn)
{
    int *v = s->dag_nodes;
    if (nn <= 32) {
        for (int i = 1; i < nn; i++) {
            int x = v[i], j = i - 1;
            while (j >= 0 && s->pos[v[j]] > s->pos[x]) {
                v[j + 1] = v[j];
                j--;
            }
            v[j + 1] = x;
        }
        return 0;
    }
    int *pr = malloc((size_t)nn * 2 * sizeof *pr);
    if (!pr)
        return -1;
    for (int i = 0; i < nn; i++) {
        pr[2 * i] = s->pos[v[i]];
        pr[2 * i + 1] = v[i];
    }
    qsort(pr, (size_t)nn, 2 * sizeof *pr, cmp_pos_pair);
    for (int i = 0; i < nn; i++)
        v[i] = pr[2 * i + 1];
    free(pr);
    return 0;
}

/* Spreads one unit of flow from src over the DAG in proportion to link
 * capacity at every fork and appends the route to the pool. Returns the
 * route index or -2 when out of memory. */
static long emit_route(cr_sim *s, int src, int dst, int nn)
{
    const cr_topo *t = s->t;
    if (sort_dag(s, nn))
        return -2;
    for (int i = 0; i < nn; i++) {
        s->frac[s->dag_nodes[i]] = 0.0;
        s->lat[s->dag_nodes[i]] = 0.0;
    }
    s->frac[src] = 1.0;
    /* The recorded edges grouped by their from-node, in position order. */
    for (int i = 0; i <= nn; i++)
        s->eoff[i] = 0;
    for (int i = 0; i < nn; i++)
        s->dag_idx[s->dag_nodes[i]] = i;
    for (int e = 0; e < s->n_edges; e++)
        s->eoff[s->dag_idx[s->edge_u[e]] + 1]++;
    for (int i = 0; i < nn; i++)
        s->eoff[i + 1] += s->eoff[i];
    int *order = s->edge_ord;
    for (int e = 0; e < s->n_edges; e++)
        order[s->eoff[s->dag_idx[s->edge_u[e]]]++] = e;
    for (int i = nn; i > 0; i--)
        s->eoff[i] = s->eoff[i - 1];
    s->eoff[0] = 0;
    long off = s->rc.n_rpool;
    for (int i = 0; i < nn; i++) {
        int u = s->dag_nodes[i];
        double tot = 0.0;
        for (int e = s->eoff[i]; e < s->eoff[i + 1]; e++)
            tot += cr_link_bw_from(&t->links[s->edge_l[order[e]]], u);
        if (tot <= 0)
            continue;
        for (int e = s->eoff[i]; e < s->eoff[i + 1]; e++) {
            int li = s->edge_l[order[e]];
            const cr_link *l = &t->links[li];
            int v = cr_link_other(l, u);
            double f = s->frac[u] * cr_link_bw_from(l, u) / tot;
            if (f <= 0)
                continue;
            s->frac[v] += f;
            if (s->lat[u] + l->lat_s > s->lat[v])
                s->lat[v] = s->lat[u] + l->lat_s;
            if (cr_grow((void **)&s->rc.rpool, &s->rc.cap_rpool, (size_t)s->rc.n_rpool + 1,
                        sizeof *s->rc.rpool))
                return -2;
            s->rc.rpool[s->rc.n_rpool].res = cr_sim_res_link(s, li, u);
            s->rc.rpool[s->rc.n_rpool].w = f;
            s->rc.n_rpool++;
        }
    }
    if (cr_grow((void **)&s->rc.routes, &s->rc.cap_routes, (size_t)s->rc.n_routes + 1,
                sizeof *s->rc.routes))
        return -2;
    route_t *r = &s->rc.routes[s->rc.n_routes];
    r->off = off;
    r->n = (int)(s->rc.n_rpool - off);
    r->refs = 0;
    r->lat_s = s->lat[dst];
    s->st.route_entries += (size_t)r->n;
    return s->rc.n_routes++;
}

/* Each rank's share of its nearest NICs (cr_nic_shares, nic.c). member:
 * bitmap over GPU ranks; writes share[g] for every member g (0: no NIC
 * near it). */
void flowroute_nic_shares(cr_sim *s, const uint64_t *member, unsigned char *share)
{
    cr_nic_shares(s->nics, member, share, s->grp_cnt);
}

/* ---------- NCCL's NIC per GPU (point-to-point across nodes) ---------- */

int flowroute_limit_nics(cr_sim *s, int op, int nics)
{
    const op_t *o = &s->ops[op];
    const cr_topo *t = s->t;
    if (!o->share || nics < 1)
        return 0;
    /* the op's ranks on each node (nodes are small integers) */
    int nn = t->n_nodes > 0 ? t->n_nodes : 1, *cnt = calloc((size_t)nn, sizeof *cnt);
    if (!cnt)
        return -1;
    for (int i = 0; i < o->n; i++) {
        int v = t->devs[t->gpus[o->ranks[i]]].node;
        if (v >= 0 && v < nn)
            cnt[v]++;
    }
    for (int i = 0; i < o->n; i++) {
        int g = o->ranks[i], v = t->devs[t->gpus[g]].node;
        if (v < 0 || v >= nn || o->share[g] == 0)
            continue;
        int most = (nics + cnt[v] - 1) / cnt[v];
        if (o->share[g] > most)
            o->share[g] = (unsigned char)most;
    }
    free(cnt);
    return 0;
}

/* The NICs nearest to each GPU (cr_nic_map_new, nic.c: ncclTopoGetLocal);
 * a GPU without any has its routes never restricted. Also the default
 * shares (every GPU a rank) and the scratch the searches use. Returns -1
 * when out of memory. */
static int near_nics_build(cr_sim *s)
{
    const cr_topo *t = s->t;
    size_t ng = (size_t)t->n_gpus, nd = (size_t)t->n_devs + 1;
    s->nics = cr_nic_map_new(t);
    s->def_share = calloc(ng + 1, 1);
    s->nic_ok = calloc(nd, sizeof *s->nic_ok);
    s->grp_cnt = calloc(nd, sizeof *s->grp_cnt);
    if (!s->nics || !s->def_share || !s->nic_ok || !s->grp_cnt)
        return -1;
    uint64_t *all = calloc(ng / 64 + 1, sizeof *all);
    if (!all)
        return -1;
    for (int g = 0; g < t->n_gpus; g++)
        all[g >> 6] |= (uint64_t)1 << (g & 63);
    flowroute_nic_shares(s, all, s->def_share);
    free(all);
    return 0;
}

/* Marks for the next route search the NICs that GPU rank g uses with a
 * share of m: ncclTopoGetLocalNet takes its nearest NICs from index
 * dev (its index in the node, mirrored when their number is a power of
 * two) on, channel c using the (dev + c mod m)-th: m NICs in all, each
 * carrying an equal part of a peer's channels. */
static void nic_mark(cr_sim *s, int g, int m)
{
    int pick[256], k = cr_nic_pick(s->nics, g, s->local[g], m, pick);
    for (int c = 0; c < k; c++)
        s->nic_ok[pick[c]] = s->nic_stamp;
}

/* The NIC shares a route from GPU rank a to b is searched with: both ends'
 * (share, from nic_shares) where the two are on different nodes and
 * scale-up domains and both have NICs near them (NCCL's network transport
 * between them), else 0 and 0 (no restriction). */
static void pair_shares(const cr_sim *s, const unsigned char *share, int a, int b, int *ma, int *mb)
{
    const cr_topo *t = s->t;
    int na = t->devs[t->gpus[a]].node, nb = t->devs[t->gpus[b]].node;
    *ma = *mb = 0;
    if (na < 0 || nb < 0 || na == nb || s->domain[a] == s->domain[b] ||
        cr_nic_count(s->nics, a) == 0 || cr_nic_count(s->nics, b) == 0)
        return;
    *ma = share && share[a] ? share[a] : s->def_share[a];
    *mb = share && share[b] ? share[b] : s->def_share[b];
}

/* Computes the route from device src to device dst into the pool. Returns
 * the route index, -1 when there is no path, -2 when out of memory. */
static long route_compute(cr_sim *s, int src, int dst)
{
    int nn;
    if (s->prewarm == src && !s->restrict_nic) {
        if (s->fw_src != src) {
            if (search_reset(&s->fw, src))
                return -2;
            s->fw_src = src;
        }
        int r = fw_until(s, dst);
        if (r <= 0)
            return r < 0 ? -2 : -1;
        nn = fw_dag(s, src, dst);
        if (nn < 0)
            return -2;
    } else {
        int D = 0;
        int r = bidir(s, src, dst, &D);
        if (r <= 0)
            return r < 0 ? -2 : -1;
        nn = bidir_dag(s, src, dst, D);
        if (nn < 0)
            return -2;
    }
    return emit_route(s, src, dst, nn);
}

static long hash_find(const route_hash_t *h, uint64_t key)
{
    if (!h->cap)
        return -1;
    uint64_t x = key * 0x9E3779B97F4A7C15ull;
    long m = h->cap - 1;
    for (long i = (long)(x >> 20) & m;; i = (i + 1) & m) {
        if (h->keys[i] == 0)
            return -1;
        if (h->keys[i] == key)
            return h->vals[i];
    }
}

static int hash_put(route_hash_t *h, uint64_t key, long val)
{
    if (2 * (h->count + 1) > h->cap) {
        long nc = h->cap ? h->cap * 2 : 1024;
        uint64_t *nk = calloc((size_t)nc, sizeof *nk);
        long *nv = malloc((size_t)nc * sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return -1;
        }
        for (long i = 0; i < h->cap; i++) {
            if (!h->keys[i])
                continue;
            uint64_t x = h->keys[i] * 0x9E3779B97F4A7C15ull;
            long j = (long)(x >> 20) & (nc - 1);
            while (nk[j])
                j = (j + 1) & (nc - 1);
            nk[j] = h->keys[i];
            nv[j] = h->vals[i];
        }
        free(h->keys);
        free(h->vals);
        h->keys = nk;
        h->vals = nv;
        h->cap = nc;
    }
    uint64_t x = key * 0x9E3779B97F4A7C15ull;
    long m = h->cap - 1;
    long i = (long)(x >> 20) & m;
    while (h->keys[i])
        i = (i + 1) & m;
    h->keys[i] = key;
    h->vals[i] = val;
    h->count++;
    return 0;
}

/* The hash key of the route from GPU rank a to b searched with NIC shares
 * ma and mb (pair_shares; each below 256): unique while n_gpus^2 < 2^48. */
static uint64_t pair_key(const cr_sim *s, int a, int b, int ma, int mb)
{
    uint64_t pair = (uint64_t)a * (uint64_t)s->t->n_gpus + (uint64_t)b + 1u;
    return pair << 16 | (uint64_t)ma << 8 | (uint64_t)mb;
}

/* Whether the route from a to b with shares ma, mb is the one the dense
 * table holds: the shares when every GPU is a rank (or none). */
static bool dense_variant(const cr_sim *s, int a, int b, int ma, int mb)
{
    return s->rc.dense && (ma == 0 || (ma == s->def_share[a] && mb == s->def_share[b]));
}

/* The cached route between GPU ranks a and b with NIC shares ma, mb, -1
 * when not computed. */
static long route_find(cr_sim *s, int a, int b, int ma, int mb)
{
    if (dense_variant(s, a, b, ma, mb))
        return (long)s->rc.dense[(size_t)a * (size_t)s->t->n_gpus + (size_t)b] - 1;
    return hash_find(&s->rc.rhash, pair_key(s, a, b, ma, mb));
}

/* Points via_hash at the ranks of member (NULL: every GPU), emptying it
 * when they are not the ones it holds routes for. Ops are expanded one
 * after the other, so it changes once an op at most. Returns -2 on no
 * memory. */
static int via_hash_for(cr_sim *s, const uint64_t *member)
{
    size_t words = (size_t)s->t->n_gpus / 64 + 1;
    if (s->rc.via_member &&
        (member ? !s->rc.via_any && !memcmp(s->rc.via_member, member, words * sizeof *member)
                : s->rc.via_any))
        return 0;
    if (!s->rc.via_member && !(s->rc.via_member = malloc(words * sizeof *s->rc.via_member)))
        return -2;
    if (member)
        memcpy(s->rc.via_member, member, words * sizeof *member);
    s->rc.via_any = !member;
    if (s->rc.via_hash.cap)
        memset(s->rc.via_hash.keys, 0, (size_t)s->rc.via_hash.cap * sizeof *s->rc.via_hash.keys);
    s->rc.via_hash.count = 0;
    return 0;
}

/* The route from GPU rank a to b with NIC shares ma, mb through other GPUs,
 * where no path avoids them (a chain of GPUs joined only by NVLink;
 * route.h): through the op's own GPUs (member) where they join the pair, as
 * NCCL relays only through ranks of the communicator and the bound counts
 * only theirs (doc/bounds.md 1.9); else through any. By bidirectional
 * searches, whose state is then no prewarm's. Cached for the op's ranks
 * (via_hash), since another op's may route the pair otherwise. */
static long route_via_gpus(cr_sim *s, const uint64_t *member, int a, int b, int ma, int mb)
{
    if (via_hash_for(s, member))
        return -2;
    uint64_t key = pair_key(s, a, b, ma, mb);
    long r = hash_find(&s->rc.via_hash, key);
    if (r >= 0)
        return r;
    int pw = s->prewarm;
    s->prewarm = -1;
    s->via_gpus = true;
    s->via_members = member;
    r = member ? route_compute(s, s->t->gpus[a], s->t->gpus[b]) : -1;
    s->via_members = NULL;
    if (r == -1)
        r = route_compute(s, s->t->gpus[a], s->t->gpus[b]);
    s->via_gpus = false;
    s->prewarm = pw;
    s->fw_src = -1;
    if (r >= 0) {
        if (hash_put(&s->rc.via_hash, key, r))
            return -2;
        s->st.n_routes++;
    }
    return r;
}

/* Cached route between GPU ranks a != b that leaves a's node through a's
 * NIC share ma and enters b's through b's share mb (pair_shares; 0 and 0:
 * any path); errors as route_compute. Where the fabric joins those NICs by
 * no path (a rail-only fabric without spines, two NICs of different
 * rails), the route is the unrestricted one, through the hosts; where no
 * path avoids the other GPUs, the one through them (route_via_gpus; the
 * op's bitmap over GPU ranks is member, NULL for every GPU a rank). */
static long route_get(cr_sim *s, const uint64_t *member, int a, int b, int ma, int mb)
{
    int n = s->t->n_gpus;
    if (!s->rc.dense && n <= DENSE_MAX_GPUS &&
        !(s->rc.dense = calloc((size_t)n * (size_t)n, sizeof *s->rc.dense)))
        return -2;
    long r = route_find(s, a, b, ma, mb);
    if (r >= 0)
        return r;
    if (ma > 0) {
        if (++s->nic_stamp == INT_MAX) {
            memset(s->nic_ok, 0, (size_t)s->t->n_devs * sizeof *s->nic_ok);
            s->nic_stamp = 1;
        }
        nic_mark(s, a, ma);
        nic_mark(s, b, mb);
        s->restrict_nic = true;
    }
    r = route_compute(s, s->t->gpus[a], s->t->gpus[b]);
    s->restrict_nic = false;
    if (r == -1 && ma > 0)
        r = route_compute(s, s->t->gpus[a], s->t->gpus[b]);
    if (r == -1 && !s->transit)
        return route_via_gpus(s, member, a, b, ma, mb);
    if (r < 0)
        return r;
    if (dense_variant(s, a, b, ma, mb)) {
        if (r + 1 >= INT_MAX)
            return -2;
        s->rc.dense[(size_t)a * (size_t)n + (size_t)b] = (int)(r + 1);
    } else if (hash_put(&s->rc.rhash, pair_key(s, a, b, ma, mb), r)) {
        return -2;
    }
    s->st.n_routes++;
    return r;
}

/* ---------- NCCL's SHM transport: through a CPU's memory inside a node ---------- */

/* The hash key of the route from device u to device v (a leg to or from a
 * CPU, not between GPU ranks): pair_key's keys stay below 2^53
 * (CR_TOPO_MAX_GPUS^2 << 16), these set bit 63, shm_key's bits 63 and 62. */
static uint64_t dev_key(int u, int v)
{
    return (uint64_t)1 << 63 | (uint64_t)u << 31 | (uint64_t)v;
}

static uint64_t shm_key(const cr_sim *s, int a, int b, bool few)
{
    return (uint64_t)3 << 62 | ((uint64_t)a * (uint64_t)s->t->n_gpus + (uint64_t)b) << 1 | few;
}

/* The cached route from device u to device v; errors as route_compute. */
static long route_dev(cr_sim *s, int u, int v)
{
    uint64_t key = dev_key(u, v);
    long r = hash_find(&s->rc.rhash, key);
    if (r >= 0)
        return r;
    r = route_compute(s, u, v);
    if (r < 0)
        return r;
    if (hash_put(&s->rc.rhash, key, r))
        return -2;
    s->st.n_routes++;
    return r;
}

/* Whether GPU rank a's node holds at most two ranks of the op (member:
 * bitmap over GPU ranks, NULL: every GPU), as far as route.h's rule for
 * peer access through an AMD CPU needs it. A node's GPU ranks are
 * consecutive (node_first); GPUs of no node count together. */
static bool node_has_few(const cr_sim *s, const uint64_t *member, int a)
{
    const cr_topo *t = s->t;
    int nd = t->devs[t->gpus[a]].node, c = 0;
    int g = nd >= 0 && nd < t->n_nodes ? s->node_first[nd] : 0;
    for (; g < t->n_gpus && c <= 2; g++) {
        if (t->devs[t->gpus[g]].node != nd) {
            if (nd >= 0)
                break;
            continue;
        }
        c += !member || ((member[g >> 6] >> (g & 63)) & 1u);
    }
    return c <= 2;
}

/* NCCL's SHM transport (route.h cr_route_pcie_p2p; coll.c shm_rates prices
 * the same hops): GPU ranks a and b of one node that share no scale-up
 * link and have no PCIe peer access (cr_route_pcie_peers) exchange data
 * through a buffer in the memory of b's nearest CPU (cr_route_host_cpu):
 * the flow goes up to that CPU and down to b. Returns the CPU's device, -1
 * where the hop goes straight, -2 on no memory. Cached per pair and
 * whether the node holds two of the op's ranks or fewer (hash value -3:
 * straight). */
static int shm_cpu(cr_sim *s, const uint64_t *member, int a, int b)
{
    const cr_topo *t = s->t;
    if (t->devs[t->gpus[a]].node != t->devs[t->gpus[b]].node || s->domain[a] == s->domain[b])
        return -1;
    bool few = node_has_few(s, member, a);
    uint64_t key = shm_key(s, a, b, few);
    long v = hash_find(&s->rc.rhash, key);
    if (v != -1)
        return v >= 0 ? (int)v : -1;
    int cnt = few ? 2 : 3, cpu = -1;
    bool peer = true;
    /* one set of buffers for every pair: a query costs the node's host
     * links, not the whole topology (route_priv.h) */
    if (!s->shm_sc.via && cr_route_scratch_init(&s->shm_sc, t) != CR_OK) {
        cr_route_scratch_release(&s->shm_sc);
        return -2;
    }
    if (cr_route_pcie_peers_sc(t, &a, &b, &cnt, 1, &peer, &s->shm_sc) != CR_OK)
        return -2;
    if (!peer && (cpu = cr_route_host_cpu_sc(t, b, &s->shm_sc)) == -2)
        return -2;
    if (hash_put(&s->rc.rhash, key, cpu >= 0 ? cpu : -3))
        return -2;
    return cpu;
}

int flowroute_via_host(cr_sim *s, int op, int a, int b)
{
    bool in_op = op >= 0 && op < s->n_ops;
    int cpu = shm_cpu(s, in_op ? s->ops[op].member : NULL, a, b);
    return cpu == -2 ? -2 : cpu >= 0;
}

/* NCCL's PXN (2.12 and later): a message to a GPU of another node whose
 * local index differs goes first over NVLink to the GPU of the sender's node
 * on the receiver's rail, then out of that GPU's NIC, so that it stays on
 * one rail of a rail-optimised fabric. The relay must be a rank of the
 * communicator (NCCL's proxy runs there): member is its bitmap over GPU
 * ranks, NULL for any. Between NVLink domains of several nodes each (NVL72
 * racks: NCCL's node is the rack, MNNVL) the rail is the GPU's index in its
 * domain and the relay the sender's rack-mate there, as coll.c's
 * build_rails counts it. Returns that relay GPU, or -1 when the flow goes
 * straight (same node, same rail, same NVLink domain, no node structure,
 * no such member, a relay the sender reaches by no scale-up link (PCIe
 * GPUs), or the topology sets sim.pxn to 0). */
static int pxn_relay(const cr_sim *s, const uint64_t *member, int a, int b)
{
    if (!s->pxn || a == b)
        return -1;
    const cr_topo *t = s->t;
    int na = t->devs[t->gpus[a]].node, nb = t->devs[t->gpus[b]].node;
    int da = s->domain[a], db = s->domain[b];
    if (na < 0 || nb < 0 || na == nb || s->local[a] < 0 || da == db)
        return -1;
    int c;
    if (s->domain_multi[da] && s->domain_multi[db]) {
        if (a - da == b - db)
            return -1;
        c = da + (b - db);
        if (c < 0 || c >= t->n_gpus || s->domain[c] != da)
            return -1;
    } else {
        if (s->local[a] == s->local[b])
            return -1;
        c = s->node_first[na] + s->local[b];
        if (c < 0 || c >= t->n_gpus || t->devs[t->gpus[c]].node != na)
            return -1;
        /* NCCL takes PXN only to a peer it reaches over NVLink
         * (ncclTopoComputePaths: the peer's path to the GPU <= PATH_NVL):
         * GPUs of a PCIe-only node send through their own NIC */
        if (s->domain[c] != da)
            return -1;
    }
    if (member && !((member[c >> 6] >> (c & 63)) & 1u))
        return -1;
    return c;
}

/* The cached route from GPU rank a to b with the NIC shares of share
 * and the ranks of member (both NULL: every GPU a rank); errors as
 * route_compute. */
static long route_shared(cr_sim *s, const uint64_t *member, const unsigned char *share, int a,
                         int b)
{
    int ma, mb;
    pair_shares(s, share, a, b, &ma, &mb);
    return route_get(s, member, a, b, ma, mb);
}

/* ---------- a ring channel's NICs (NCCL's graph) ---------- */

void flowroute_pin_nics(cr_sim *s, const int *pin)
{
    s->pin_nic = pin;
}

/* s->nic_local: per device its index among the NICs of its node, in
 * device order (-1: not a NIC, or of no node). Returns -1 on no memory. */
static int nic_local_build(cr_sim *s)
{
    const cr_topo *t = s->t;
    int nn = t->n_nodes > 0 ? t->n_nodes : 1;
    int *cnt = calloc((size_t)nn, sizeof *cnt);
    s->nic_local = malloc(((size_t)t->n_devs + 1) * sizeof *s->nic_local);
    if (!cnt || !s->nic_local) {
        free(cnt);
        free(s->nic_local);
        s->nic_local = NULL;
        return -1;
    }
    for (int v = 0; v < t->n_devs; v++) {
        int nd = t->devs[v].node;
        s->nic_local[v] =
            t->devs[v].kind == CR_DEV_NIC && nd >= 0 && nd < t->n_nodes ? cnt[nd]++ : -1;
    }
    free(cnt);
    return 0;
}

/* The hash key of the route from GPU rank a to b through the la-th NIC of
 * a's node and the lb-th of b's (each below 256): bit 62 alone set, so no
 * pair_key (below 2^53), dev_key (bit 63) or shm_key (bits 63 and 62). */
static uint64_t pin_key(const cr_sim *s, int a, int b, int la, int lb)
{
    uint64_t pair = (uint64_t)a * (uint64_t)s->t->n_gpus + (uint64_t)b + 1u;
    return (uint64_t)1 << 62 | pair << 16 | (uint64_t)la << 8 | (uint64_t)lb;
}

/* The cached route from GPU rank a to b leaving a's node through NIC
 * device na and entering b's through nb (flowroute_pin_nics). Returns -3
 * where the pin does not apply (no path joins the two NICs, or a node of
 * more than 256 NICs), -2 when out of memory. */
static long route_pinned(cr_sim *s, int a, int b, int na, int nb)
{
    if (!s->nic_local && nic_local_build(s))
        return -2;
    int la = s->nic_local[na], lb = s->nic_local[nb];
    if (la < 0 || lb < 0 || la > 255 || lb > 255)
        return -3;
    uint64_t key = pin_key(s, a, b, la, lb);
    long r = hash_find(&s->rc.rhash, key);
    if (r != -1)
        return r;
    if (++s->nic_stamp == INT_MAX) {
        memset(s->nic_ok, 0, (size_t)s->t->n_devs * sizeof *s->nic_ok);
        s->nic_stamp = 1;
    }
    s->nic_ok[na] = s->nic_ok[nb] = s->nic_stamp;
    s->restrict_nic = true;
    r = route_compute(s, s->t->gpus[a], s->t->gpus[b]);
    s->restrict_nic = false;
    if (r == -2)
        return -2;
    if (r == -1)
        r = -3;
    if (hash_put(&s->rc.rhash, key, r))
        return -2;
    if (r >= 0)
        s->st.n_routes++;
    return r;
}

/* The route legs of a flow from GPU rank a to b (a != b): r1 to the relay
 * or to b, r2 from the relay (-1 without one), each through the NICs NCCL
 * gives its ends (share: the op's, NULL for every GPU a rank). Returns 0,
 * -1 (no route) or -2 (out of memory). */
int flowroute_legs(cr_sim *s, const uint64_t *member, const unsigned char *share, int a, int b,
                   long *r1, long *r2)
{
    *r2 = -1;
    int cpu = shm_cpu(s, member, a, b);
    if (cpu == -2)
        return -2;
    if (cpu >= 0) {
        /* through host memory: each leg a route of its own; where a leg
         * finds no path the flow takes the fabric's route below */
        *r1 = route_dev(s, s->t->gpus[a], cpu);
        if (*r1 >= 0)
            *r2 = route_dev(s, cpu, s->t->gpus[b]);
        if (*r1 == -2 || *r2 == -2)
            return -2;
        if (*r1 >= 0 && *r2 >= 0)
            return 0;
        *r2 = -1;
    }
    if (s->pin_nic) {
        /* a ring channel between nodes: through its graph's NICs */
        const cr_topo *t = s->t;
        int va = t->devs[t->gpus[a]].node, vb = t->devs[t->gpus[b]].node;
        if (va >= 0 && vb >= 0 && va != vb && va < t->n_nodes && vb < t->n_nodes &&
            s->pin_nic[va] >= 0 && s->pin_nic[vb] >= 0) {
            long r = route_pinned(s, a, b, s->pin_nic[va], s->pin_nic[vb]);
            if (r == -2)
                return -2;
            if (r >= 0) {
                *r1 = r;
                return 0;
            }
        }
    }
    int relay = pxn_relay(s, member, a, b);
    *r1 = route_shared(s, member, share, a, relay >= 0 ? relay : b);
    if (*r1 < 0)
        return (int)*r1;
    if (relay >= 0) {
        *r2 = route_shared(s, member, share, relay, b);
        if (*r2 < 0)
            return (int)*r2;
    }
    return 0;
}

/* ---------- the route memo (flowsim.h cr_sim_route_memo) ---------- */

/* The router's state after a prewarm: every field of struct cr_sim that
 * flowroute.c reads before writing, as the prewarm left it. The rest of
 * the router's memory is scratch that each route search writes before it
 * reads it (the DAG's nodes, edges, positions, fractions and latencies,
 * the queue, cr_sim_path's scratch, grp_cnt, which nic_shares leaves at
 * zero), and the fixed figures of the topology (near NICs, domains). */
struct cr_sim_route_memo {
    long uses; /* prewarms that took the copy (cr_sim_route_memo_uses) */
    bool valid;
    /* what the prewarm searched with (the topology's counts too, so that
     * another topology at a freed one's address is not taken for it) */
    const cr_topo *t;
    int n_devs, n_links, n_gpus;
    bool transit, pxn;
    long max_route_work;
    int *ranks, n;
    /* what it left */
    route_cache_t rc;
    search_t fw, bw;
    int fw_src;
    int *dag_mark, *bmark, *link_mark, *nic_ok;
    int dag_stamp, nic_stamp;
    long route_work;
    bool work_over;
    long st_routes;
    size_t st_entries;
};

/* A copy of n elements of elem bytes from p into room for cap of them
 * (cap >= n); NULL when cap is 0. Returns -1 when out of memory. */
static int dup_cap(void **out, const void *p, size_t n, size_t cap, size_t elem)
{
    *out = NULL;
    if (cap == 0)
        return 0;
    if (!(*out = malloc(cap * elem)))
        return -1;
    if (n > 0)
        memcpy(*out, p, n * elem);
    return 0;
}

/* A copy of hash table h, its layout (capacity, slots) included: a
 * lookup's probe sequence and a later insertion's slot depend on it. */
static int hash_dup(route_hash_t *out, const route_hash_t *h)
{
    memset(out, 0, sizeof *out);
    if (dup_cap((void **)&out->keys, h->keys, (size_t)h->cap, (size_t)h->cap, sizeof *h->keys) ||
        dup_cap((void **)&out->vals, h->vals, (size_t)h->cap, (size_t)h->cap, sizeof *h->vals))
        return -1;
    out->cap = h->cap;
    out->count = h->count;
    return 0;
}

/* A copy of route cache c (ng GPUs: the dense table and the via bitmap's
 * sizes), capacities and hash layouts included; route indices are the
 * solver's class hashes' input, so they must stay what they were. Returns
 * -1 when out of memory, *out then freed (zeroed). */
static int route_cache_dup(route_cache_t *out, const route_cache_t *c, size_t ng)
{
    memset(out, 0, sizeof *out);
    out->n_rpool = c->n_rpool;
    out->cap_rpool = c->cap_rpool;
    out->n_routes = c->n_routes;
    out->cap_routes = c->cap_routes;
    out->via_any = c->via_any;
    if (dup_cap((void **)&out->rpool, c->rpool, (size_t)c->n_rpool, c->cap_rpool,
                sizeof *c->rpool) ||
        dup_cap((void **)&out->routes, c->routes, (size_t)c->n_routes, c->cap_routes,
                sizeof *c->routes) ||
        hash_dup(&out->rhash, &c->rhash) || hash_dup(&out->via_hash, &c->via_hash) ||
        (c->via_member && dup_cap((void **)&out->via_member, c->via_member, ng / 64 + 1,
                                  ng / 64 + 1, sizeof *c->via_member)) ||
        (c->dense && dup_cap((void **)&out->dense, c->dense, ng * ng, ng * ng, sizeof *c->dense))) {
        route_cache_free(out);
        return -1;
    }
    return 0;
}

/* Copies search x (nd devices) into y, whose arrays hold nd entries
 * (the heap grows to fit). Returns -1 when out of memory (y unchanged). */
static int search_copy(search_t *y, const search_t *x, size_t nd)
{
    if (x->h.n > 0 && cr_grow((void **)&y->h.e, &y->h.cap, (size_t)x->h.n, sizeof *y->h.e))
        return -1;
    memcpy(y->dist, x->dist, nd * sizeof *x->dist);
    memcpy(y->settled, x->settled, nd);
    memcpy(y->touched, x->touched, (size_t)x->n_touched * sizeof *x->touched);
    y->n_touched = x->n_touched;
    if (x->h.n > 0)
        memcpy(y->h.e, x->h.e, (size_t)x->h.n * sizeof *x->h.e);
    y->h.n = x->h.n;
    return 0;
}

static void memo_clear(cr_sim_route_memo *m)
{
    free(m->ranks);
    route_cache_free(&m->rc);
    search_free(&m->fw);
    search_free(&m->bw);
    free(m->dag_mark);
    free(m->bmark);
    free(m->link_mark);
    free(m->nic_ok);
    long uses = m->uses;
    memset(m, 0, sizeof *m);
    m->uses = uses;
}

cr_status cr_sim_route_memo_new(cr_sim_route_memo **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? CR_OK : CR_ENOMEM;
}

void cr_sim_route_memo_free(cr_sim_route_memo *m)
{
    if (!m)
        return;
    memo_clear(m);
    free(m);
}

void cr_sim_set_route_memo(cr_sim *s, cr_sim_route_memo *m)
{
    s->memo = m;
}

long cr_sim_route_memo_uses(const cr_sim_route_memo *m)
{
    return m ? m->uses : 0;
}

/* Whether s's router is as cr_sim_new left it: no route searched or
 * cached, no work counted, every stamp and search at its start. */
static bool router_fresh(const cr_sim *s)
{
    return s->rc.n_routes == 0 && s->rc.n_rpool == 0 && s->rc.rhash.cap == 0 &&
           s->rc.via_hash.cap == 0 && !s->rc.via_member && !s->rc.dense && s->route_work == 0 &&
           !s->work_over && s->fw_src == -1 && s->fw.n_touched == 0 && s->bw.n_touched == 0 &&
           s->dag_stamp == 0 && s->nic_stamp == 0 && s->st.n_routes == 0 &&
           s->st.route_entries == 0;
}

/* Whether memo m holds the prewarm of ranks[0..n) on s's topology with
 * s's options. */
static bool memo_matches(const cr_sim_route_memo *m, const cr_sim *s, const int *ranks, int n)
{
    return m->valid && m->t == s->t && m->n_devs == s->t->n_devs && m->n_links == s->t->n_links &&
           m->n_gpus == s->t->n_gpus && m->transit == s->transit && m->pxn == s->pxn &&
           m->max_route_work == s->max_route_work && m->n == n &&
           (n == 0 || !memcmp(m->ranks, ranks, (size_t)n * sizeof *ranks));
}

/* Keeps in m the state s's router is in after a prewarm of ranks[0..n)
 * that started fresh. Out of memory, m is left empty (results do not
 * depend on it). */
static void memo_save(cr_sim_route_memo *m, const cr_sim *s, const int *ranks, int n)
{
    const cr_topo *t = s->t;
    size_t nd = (size_t)t->n_devs + 1, ng = (size_t)t->n_gpus;
    memo_clear(m);
    m->t = t;
    m->n_devs = t->n_devs;
    m->n_links = t->n_links;
    m->n_gpus = t->n_gpus;
    m->transit = s->transit;
    m->pxn = s->pxn;
    m->max_route_work = s->max_route_work;
    m->n = n;
    m->fw_src = s->fw_src;
    m->dag_stamp = s->dag_stamp;
    m->nic_stamp = s->nic_stamp;
    m->route_work = s->route_work;
    m->work_over = s->work_over;
    m->st_routes = s->st.n_routes;
    m->st_entries = s->st.route_entries;
    if (dup_cap((void **)&m->ranks, ranks, (size_t)n, (size_t)n, sizeof *ranks) ||
        route_cache_dup(&m->rc, &s->rc, ng) || search_init(&m->fw, nd) || search_init(&m->bw, nd) ||
        search_copy(&m->fw, &s->fw, nd) || search_copy(&m->bw, &s->bw, nd) ||
        dup_cap((void **)&m->dag_mark, s->dag_mark, nd, nd, sizeof *s->dag_mark) ||
        dup_cap((void **)&m->bmark, s->bmark, nd, nd, sizeof *s->bmark) ||
        dup_cap((void **)&m->link_mark, s->link_mark, (size_t)t->n_links + 1,
                (size_t)t->n_links + 1, sizeof *s->link_mark) ||
        dup_cap((void **)&m->nic_ok, s->nic_ok, nd, nd, sizeof *s->nic_ok)) {
        memo_clear(m);
        return;
    }
    m->valid = true;
}

/* Puts s's router (fresh) into the state memo m holds. Returns -1 when out
 * of memory, s then unchanged (its prewarm searches). */
static int memo_restore(const cr_sim_route_memo *m, cr_sim *s)
{
    const cr_topo *t = s->t;
    size_t nd = (size_t)t->n_devs + 1, ng = (size_t)t->n_gpus;
    route_cache_t rc;
    /* the searches' heaps grow first: a heap that grew but was not
     * filled is still a fresh search's */
    if ((m->fw.h.n > 0 &&
         cr_grow((void **)&s->fw.h.e, &s->fw.h.cap, (size_t)m->fw.h.n, sizeof *s->fw.h.e)) ||
        (m->bw.h.n > 0 &&
         cr_grow((void **)&s->bw.h.e, &s->bw.h.cap, (size_t)m->bw.h.n, sizeof *s->bw.h.e)) ||
        route_cache_dup(&rc, &m->rc, ng))
        return -1;
    route_cache_free(&s->rc);
    s->rc = rc;
    /* cannot fail now: the heaps have room */
    search_copy(&s->fw, &m->fw, nd);
    search_copy(&s->bw, &m->bw, nd);
    s->fw_src = m->fw_src;
    memcpy(s->dag_mark, m->dag_mark, nd * sizeof *s->dag_mark);
    memcpy(s->bmark, m->bmark, nd * sizeof *s->bmark);
    memcpy(s->link_mark, m->link_mark, ((size_t)t->n_links + 1) * sizeof *s->link_mark);
    memcpy(s->nic_ok, m->nic_ok, nd * sizeof *s->nic_ok);
    s->dag_stamp = m->dag_stamp;
    s->nic_stamp = m->nic_stamp;
    s->route_work = m->route_work;
    s->work_over = m->work_over;
    s->st.n_routes = m->st_routes;
    s->st.route_entries = m->st_entries;
    return 0;
}

cr_status cr_sim_route_prewarm(cr_sim *s, const int *ranks, int n)
{
    /* the same prewarm as the memo's, on a router as fresh as the one it
     * ran on, leaves the state the memo holds: copied, not searched */
    bool fresh = s->memo && router_fresh(s);
    if (fresh && memo_matches(s->memo, s, ranks, n) && memo_restore(s->memo, s) == 0) {
        s->memo->uses++;
        return CR_OK;
    }
    cr_status st = CR_OK;
    uint64_t *member = calloc((size_t)s->t->n_gpus / 64 + 1, sizeof *member);
    unsigned char *share = calloc((size_t)s->t->n_gpus + 1, 1);
    if (!member || !share) {
        free(member);
        free(share);
        return CR_ENOMEM;
    }
    for (int i = 0; i < n; i++)
        if (ranks[i] >= 0 && ranks[i] < s->t->n_gpus)
            member[ranks[i] >> 6] |= (uint64_t)1 << (ranks[i] & 63);
    flowroute_nic_shares(s, member, share);
    for (int i = 0; i < n && st == CR_OK; i++) {
        int a = ranks[i];
        if (a < 0 || a >= s->t->n_gpus)
            continue;
        s->prewarm = n - 1 >= PREWARM_MIN_DESTS ? s->t->gpus[a] : -1;
        for (int j = 0; j < n; j++) {
            int b = ranks[j];
            if (a == b || b < 0 || b >= s->t->n_gpus)
                continue;
            int relay = pxn_relay(s, member, a, b);
            int tgt = relay >= 0 ? relay : b, ma, mb;
            pair_shares(s, share, a, tgt, &ma, &mb);
            if (route_find(s, a, tgt, ma, mb) >= 0)
                continue;
            if (route_get(s, member, a, tgt, ma, mb) == -2) {
                st = s->work_over ? CR_ERANGE : CR_ENOMEM;
                break;
            }
        }
    }
    s->prewarm = -1;
    free(member);
    free(share);
    if (fresh && st == CR_OK)
        memo_save(s->memo, s, ranks, n);
    return st;
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
    long r = route_shared(s, NULL, NULL, a, b);
    if (r < 0)
        return r == -1 ? CR_ENOTFOUND : s->work_over ? CR_ERANGE : CR_ENOMEM;
    *uses = s->rc.rpool + s->rc.routes[r].off;
    *n = s->rc.routes[r].n;
    *lat_s = s->rc.routes[r].lat_s;
    return CR_OK;
}

cr_status cr_sim_path(cr_sim *s, int op, int a, int b, const cr_sim_use **uses, int *n,
                      double *lat_s)
{
    *uses = NULL;
    *n = 0;
    *lat_s = 0;
    if (a < 0 || b < 0 || a >= s->t->n_gpus || b >= s->t->n_gpus)
        return CR_EINVAL;
    if (a == b)
        return CR_OK;
    long r1, r2;
    bool in_op = op >= 0 && op < s->n_ops;
    int e = flowroute_legs(s, in_op ? s->ops[op].member : NULL, in_op ? s->ops[op].share : NULL, a,
                           b, &r1, &r2);
    if (e < 0)
        return e == -1 ? CR_ENOTFOUND : s->work_over ? CR_ERANGE : CR_ENOMEM;
    if (r2 < 0) {
        *uses = s->rc.rpool + s->rc.routes[r1].off;
        *n = s->rc.routes[r1].n;
        *lat_s = s->rc.routes[r1].lat_s;
        return CR_OK;
    }
    int n1 = s->rc.routes[r1].n, n2 = s->rc.routes[r2].n;
    if (cr_grow((void **)&s->scratch, &s->cap_scratch, (size_t)n1 + (size_t)n2, sizeof *s->scratch))
        return CR_ENOMEM;
    memcpy(s->scratch, s->rc.rpool + s->rc.routes[r1].off, (size_t)n1 * sizeof *s->scratch);
    memcpy(s->scratch + n1, s->rc.rpool + s->rc.routes[r2].off, (size_t)n2 * sizeof *s->scratch);
    *uses = s->scratch;
    *n = n1 + n2;
    *lat_s = s->rc.routes[r1].lat_s + s->rc.routes[r2].lat_s;
    return CR_OK;
}
