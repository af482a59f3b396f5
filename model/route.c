/* SPDX-License-Identifier: MIT */
/*
 * Routes between GPUs (see route.h): max-flow bandwidth by Edmonds-Karp over
 * the link graph (augmenting paths searched from both ends), and fewest-hop
 * paths by breadth-first search.
 *
 * Why not maxflow.h (the Dinic that bounds and metrics use): one pair's
 * query touches few paths, and building the whole arc network per query
 * made `topo show` on 8,192 GPUs 4x slower (0.11 s -> 0.47 s, bench_topo_metrics).
 *
 * Each link bundle is a pair of opposite arcs with capacities
 * count x bw_ab and count x bw_ba; the flow is kept as one signed number per
 * bundle (positive from a to b), so the residual capacity from a to b is
 * cap_ab - f and from b to a is cap_ba + f.
 */
#include "route.h"
#include "route_priv.h"
#include "heap_priv.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Residual capacity below this (bytes per second) counts as saturated: the
 * figures are 1e9-1e12 B/s, so one byte per second is far below rounding. */
#define ROUTE_EPS_BPS 1.0

static double residual(const cr_topo *t, const double *flow, int l, int from)
{
    const cr_link *k = &t->links[l];
    return from == k->a ? k->count * k->bw_ab_Bps - flow[l] : k->count * k->bw_ba_Bps + flow[l];
}

/* Whether a search may step over link l into w, from v along the arc
 * from -> (the other end): w not reached yet, l of a kind in the mask,
 * and, where flow is given, residual capacity on that arc. The one
 * test of both searches below. */
static bool arc_open(const cr_topo *t, const double *flow, int l, int w, int from, unsigned kinds,
                     const int *via)
{
    return via[w] == -2 && (kinds & (1u << t->links[l].kind)) &&
           !(flow && residual(t, flow, l, from) <= ROUTE_EPS_BPS);
}

/* The one breadth-first search of the routes: from device s over links
 * of the kinds in the mask (with residual capacity where flow is given);
 * GPUs other than s forward only under transit (route.h). Stops on
 * reaching device target (>= 0), else the nearest device of kind
 * stop_kind; returns the device reached, or -1. via[v] is the link v was
 * reached by (-1 for s): it must hold -2 everywhere on entry, and the
 * search touches only what it reaches (queue[0 .. *seen), for forget()),
 * so a search over a node's host links costs that node, not the whole
 * topology. */
static int search(const cr_topo *t, const double *flow, int s, int target, cr_dev_kind stop_kind,
                  bool transit, unsigned kinds, int *via, int *queue, int *seen)
{
    via[s] = -1;
    int head = 0, tail = 0, found = -1;
    queue[tail++] = s;
    while (head < tail && found < 0) {
        int v = queue[head++];
        if (v != s && !cr_route_forwards(t, v, transit))
            continue;
        for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
            int l = t->adj[i];
            int w = cr_link_other(&t->links[l], v);
            if (!arc_open(t, flow, l, w, v, kinds, via))
                continue;
            via[w] = l;
            queue[tail++] = w;
            if (target >= 0 ? w == target : t->devs[w].kind == stop_kind) {
                found = w;
                break;
            }
        }
    }
    *seen = tail;
    return found;
}

/* Resets what a search touched (search's via convention). */
static void forget(int *via, const int *queue, int seen)
{
    for (int i = 0; i < seen; i++)
        via[queue[i]] = -2;
}

/* via and queue for searches over t, via all -2; NULL on no memory (both
 * freed). */
static int *search_buffers(const cr_topo *t, int **queue)
{
    size_t nd = (size_t)t->n_devs + 1;
    int *via = malloc(nd * sizeof *via);
    *queue = malloc(nd * sizeof **queue);
    if (!via || !*queue) {
        free(via);
        free(*queue);
        *queue = NULL;
        return NULL;
    }
    for (int v = 0; v < t->n_devs; v++)
        via[v] = -2;
    return via;
}

/* The buffers of route_flow's searches: fvia/fq grow from s, bvia/bq
 * from d, both with search's via convention (-2 unreached). */
struct bidir {
    int *fvia, *fq, *bvia, *bq;
    int f_seen, b_seen;
};

/* May flow go on through v on an augmenting path from s to d? */
static bool passes(const cr_topo *t, int v, int s, int d, bool transit)
{
    return v == s || v == d || cr_route_forwards(t, v, transit);
}

/* An augmenting path from s to d over links of the kinds in the mask,
 * found by a breadth-first search from both ends, a whole level at a time
 * on the smaller frontier: a pair of GPUs on a large fabric meets in the
 * middle instead of the search from s visiting every device closer than
 * d (the pair classes of `topo show` on a 3-tier fat tree of 8,192 nodes,
 * 65,536 GPUs, went from 1.42 s to 0.17 s, bench_topo_metrics). The path is fvia from *meet back to
 * s, then bvia from *meet on to d. Either way the loop of route_flow ends at the maximum flow. */
static bool augmenting_path(const cr_topo *t, const double *flow, int s, int d, bool transit,
                            unsigned kinds, struct bidir *b, int *meet)
{
    int fh = 0, ft = 0, bh = 0, bt = 0;
    b->fvia[s] = -1;
    b->fq[ft++] = s;
    b->bvia[d] = -1;
    b->bq[bt++] = d;
    bool found = false;
    while (!found && fh < ft && bh < bt) {
        bool fwd = ft - fh <= bt - bh;
        int *q = fwd ? b->fq : b->bq, *via = fwd ? b->fvia : b->bvia;
        const int *other = fwd ? b->bvia : b->fvia;
        int *h = fwd ? &fh : &bh, *tl = fwd ? &ft : &bt, end = *tl;
        while (*h < end && !found) {
            int v = q[(*h)++];
            if (v != (fwd ? s : d) && !cr_route_forwards(t, v, transit))
                continue;
            for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
                int l = t->adj[i];
                int w = cr_link_other(&t->links[l], v);
                /* forward: the arc v -> w; backward: w -> v */
                if (!arc_open(t, flow, l, w, fwd ? v : w, kinds, via))
                    continue;
                via[w] = l;
                q[(*tl)++] = w;
                if (other[w] != -2 && passes(t, w, s, d, transit)) {
                    *meet = w;
                    found = true;
                    break;
                }
            }
        }
    }
    b->f_seen = ft;
    b->b_seen = bt;
    return found;
}

/* One half of an augmenting path, from meet along via to end: on the
 * search tree from s (into_meet) each link's arc points at meet, on the
 * one from d away from it. With push < 0 returns the least residual on
 * the half (-1 when it is empty: meet == end); else adds push along it. */
static double half_path(const cr_topo *t, double *flow, const int *via, int meet, int end,
                        bool into_meet, double push)
{
    double least = -1.0;
    for (int v = meet; v != end;) {
        int l = via[v];
        int u = cr_link_other(&t->links[l], v);
        int tail = into_meet ? u : v; /* where the arc starts */
        if (push < 0) {
            double r = residual(t, flow, l, tail);
            if (least < 0 || r < least)
                least = r;
        } else {
            flow[l] += tail == t->links[l].a ? push : -push;
        }
        v = u;
    }
    return least;
}

/* Edmonds-Karp max-flow from device s to device d over links of the kinds
 * in the mask; GPUs other than s and d forward only when transit is set. */
static double route_flow(const cr_topo *t, int s, int d, bool transit, unsigned kinds)
{
    double *flow = calloc((size_t)t->n_links + 1, sizeof *flow);
    struct bidir b = {0};
    b.fvia = search_buffers(t, &b.fq);
    b.bvia = search_buffers(t, &b.bq);
    double total = 0.0;
    int meet = -1;
    if (!flow || !b.fvia || !b.bvia)
        goto out;
    for (; augmenting_path(t, flow, s, d, transit, kinds, &b, &meet);
         forget(b.fvia, b.fq, b.f_seen), forget(b.bvia, b.bq, b.b_seen)) {
        double push = half_path(t, flow, b.fvia, meet, s, true, -1.0);
        double back = half_path(t, flow, b.bvia, meet, d, false, -1.0);
        if (back >= 0 && (push < 0 || back < push))
            push = back;
        half_path(t, flow, b.fvia, meet, s, true, push);
        half_path(t, flow, b.bvia, meet, d, false, push);
        total += push;
    }
out:
    free(flow);
    free(b.fvia);
    free(b.fq);
    free(b.bvia);
    free(b.bq);
    return total;
}

double cr_route_bw_kinds_Bps(const cr_topo *t, int src, int dst, unsigned kinds)
{
    if (src == dst || src < 0 || dst < 0 || src >= t->n_gpus || dst >= t->n_gpus)
        return 0.0;
    int s = t->gpus[src], d = t->gpus[dst];
    bool transit = cr_route_transit(t);
    double bw = route_flow(t, s, d, transit, kinds);
    /* No path avoids the other GPUs (a chain, a rail-only fabric without
     * spines): forward through them, as NCCL does (route.h). */
    if (bw <= 0.0 && !transit)
        bw = route_flow(t, s, d, true, kinds);
    return bw;
}

/* Hop distances from device s over links of the kinds in the mask (as
 * search: GPUs other than s forward only under transit), backwards when
 * `towards` (over links usable into the device reached), into dist (-1:
 * unreached); order[0 .. returned) holds the devices reached, nearest
 * first. */
static int bfs_dist(const cr_topo *t, int s, bool towards, bool transit, unsigned kinds, int *dist,
                    int *order)
{
    for (int v = 0; v < t->n_devs; v++)
        dist[v] = -1;
    int head = 0, tail = 0;
    dist[s] = 0;
    order[tail++] = s;
    while (head < tail) {
        int v = order[head++];
        if (v != s && !cr_route_forwards(t, v, transit))
            continue;
        for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
            const cr_link *l = &t->links[t->adj[i]];
            int w = cr_link_other(l, v);
            if (dist[w] >= 0 || !(kinds & (1u << l->kind)) ||
                cr_link_bw_from(l, towards ? w : v) <= 0)
                continue;
            dist[w] = dist[v] + 1;
            order[tail++] = w;
        }
    }
    return tail;
}

/* Whether link l out of u lies on a fewest-hop path from the search's
 * source to d (D hops): its far end is d, or a device that forwards, at
 * the distances that add up. */
static bool on_ecmp_dag(const cr_topo *t, const cr_link *l, int u, int d, int D, bool transit,
                        unsigned kinds, const int *ds, const int *dd)
{
    int w = cr_link_other(l, u);
    return (kinds & (1u << l->kind)) && dd[w] >= 0 && ds[u] + 1 + dd[w] == D &&
           (w == d || cr_route_forwards(t, w, transit));
}

/* cr_route_ecmp_Bps with a given transit rule; 0 without a path. */
static double ecmp_rate(const cr_topo *t, int s, int d, bool transit, unsigned kinds, int *ds,
                        int *dd, int *order, double *frac)
{
    /* backwards from d first: order then keeps the forward search's */
    bfs_dist(t, d, true, transit, kinds, dd, order);
    int reached = bfs_dist(t, s, false, transit, kinds, ds, order), D = ds[d];
    if (D < 0)
        return 0.0;
    for (int i = 0; i < reached; i++)
        frac[order[i]] = 0.0;
    frac[s] = 1.0;
    double rate = HUGE_VAL;
    /* in order of distance from s: a node's share is final before it forks */
    for (int i = 0; i < reached; i++) {
        int u = order[i];
        if (u == d || frac[u] <= 0 || (u != s && !cr_route_forwards(t, u, transit)))
            continue;
        double tot = 0.0;
        for (int k = t->adj_off[u]; k < t->adj_off[u + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            if (on_ecmp_dag(t, l, u, d, D, transit, kinds, ds, dd))
                tot += cr_link_bw_from(l, u);
        }
        if (tot <= 0)
            continue;
        for (int k = t->adj_off[u]; k < t->adj_off[u + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int w = cr_link_other(l, u);
            double cap = cr_link_bw_from(l, u);
            if (!on_ecmp_dag(t, l, u, d, D, transit, kinds, ds, dd) || cap <= 0)
                continue;
            double f = frac[u] * cap / tot;
            frac[w] += f;
            rate = fmin(rate, cap / f);
        }
    }
    return isfinite(rate) ? rate : 0.0;
}

double cr_route_ecmp_Bps(const cr_topo *t, int src, int dst, unsigned kinds)
{
    if (src == dst || src < 0 || dst < 0 || src >= t->n_gpus || dst >= t->n_gpus)
        return 0.0;
    size_t nd = (size_t)t->n_devs + 1;
    int *ds = malloc(nd * sizeof *ds), *dd = malloc(nd * sizeof *dd);
    int *order = malloc(nd * sizeof *order);
    double *frac = malloc(nd * sizeof *frac);
    double bw = -1.0;
    if (ds && dd && order && frac) {
        int s = t->gpus[src], d = t->gpus[dst];
        bool transit = cr_route_transit(t);
        bw = ecmp_rate(t, s, d, transit, kinds, ds, dd, order, frac);
        /* no path avoids the other GPUs: through them (route.h) */
        if (bw <= 0.0 && !transit)
            bw = ecmp_rate(t, s, d, true, kinds, ds, dd, order, frac);
    }
    free(ds);
    free(dd);
    free(order);
    free(frac);
    return bw;
}

double cr_route_bw_Bps(const cr_topo *t, int src, int dst)
{
    return cr_route_bw_kinds_Bps(t, src, dst, CR_ROUTE_ALL_KINDS);
}

cr_status cr_route_path(const cr_topo *t, int src, int dst, int *links, int max, int *n,
                        double *lat_s)
{
    *n = 0;
    *lat_s = 0.0;
    if (src < 0 || dst < 0 || src >= t->n_gpus || dst >= t->n_gpus)
        return CR_EINVAL;
    if (src == dst)
        return CR_OK;
    int s = t->gpus[src], d = t->gpus[dst];
    int *queue = NULL, *via = search_buffers(t, &queue), seen = 0;
    cr_status st = CR_OK;
    if (!via) {
        st = CR_ENOMEM;
        goto out;
    }
    /* Through other GPUs only where no path avoids them (route.h). */
    if (search(t, NULL, s, d, CR_DEV__COUNT, cr_route_transit(t), CR_ROUTE_ALL_KINDS, via, queue,
               &seen) != d) {
        forget(via, queue, seen);
        if (search(t, NULL, s, d, CR_DEV__COUNT, true, CR_ROUTE_ALL_KINDS, via, queue, &seen) !=
            d) {
            st = CR_ENOTFOUND;
            goto out;
        }
    }
    int hops = 0;
    for (int v = d; v != s; v = cr_link_other(&t->links[via[v]], v))
        hops++;
    if (hops > max) {
        st = CR_ERANGE;
        goto out;
    }
    int i = hops;
    for (int v = d; v != s; v = cr_link_other(&t->links[via[v]], v)) {
        links[--i] = via[v];
        *lat_s += t->links[via[v]].lat_s;
    }
    *n = hops;
out:
    free(via);
    free(queue);
    return st;
}

int cr_route_lat_search(const cr_topo *t, int src, const cr_route_lat_walk *w, double *dist)
{
    cr_heap h = {0};
    int end = -2;
    if (cr_heap_push(&h, 0, src, 0))
        goto out;
    for (int v = 0; v < t->n_devs; v++)
        dist[v] = INFINITY;
    dist[src] = 0;
    end = -1;
    while (h.n > 0) {
        cr_heap_ent x = cr_heap_pop(&h);
        int u = x.id;
        if (x.key > dist[u])
            continue;
        /* popped at its distance once (latencies are never negative:
         * cr_topo_check): pushes are for strictly shorter ones */
        if (w->done && w->done(w->ctx, u)) {
            end = u;
            break;
        }
        if (u != src && !w->relays(w->ctx, u))
            continue;
        for (int a = t->adj_off[u]; a < t->adj_off[u + 1]; a++) {
            const cr_link *l = &t->links[t->adj[a]];
            if (!w->link_ok(l->kind))
                continue;
            int v = cr_link_other(l, u);
            double nd = x.key + l->lat_s;
            if (nd < dist[v]) {
                dist[v] = nd;
                if (cr_heap_push(&h, nd, v, 0)) {
                    end = -2;
                    goto out;
                }
            }
        }
    }
out:
    cr_heap_free(&h);
    return end;
}

static bool host_relays(void *ctx, int v)
{
    return cr_route_forwards(ctx, v, false);
}

static bool is_cpu(void *ctx, int v)
{
    const cr_topo *t = ctx;
    return t->devs[v].kind == CR_DEV_CPU;
}

double cr_route_host_lat_s(const cr_topo *t, int src)
{
    /* stopping at the first CPU it settles: the search stays in src's
     * node, whatever the cluster */
    double *dist = malloc((size_t)t->n_devs * sizeof *dist);
    if (!dist)
        return -1;
    cr_route_lat_walk w = {cr_route_host, host_relays, is_cpu, (void *)(uintptr_t)t};
    int end = cr_route_lat_search(t, src, &w, dist);
    double best = end >= 0 ? dist[end] : end == -1 ? INFINITY : -1;
    free(dist);
    return best;
}

/* The arc (link, direction) by which a route leaves device u over link l:
 * 2l from a to b, 2l + 1 from b to a. */
static int arc_from(const cr_topo *t, int l, int u)
{
    return 2 * l + (u == t->links[l].a ? 0 : 1);
}

static double arc_cap(const cr_topo *t, int arc)
{
    const cr_link *k = &t->links[arc / 2];
    return k->count * (arc % 2 == 0 ? k->bw_ab_Bps : k->bw_ba_Bps);
}

/* The CPU nearest device d over host links (search's via convention), or
 * -1: where NCCL's SHM buffer for a hop to d sits (cr_route_host_cpu). */
static int nearest_cpu(const cr_topo *t, int d, int *via, int *queue, int *seen)
{
    return search(t, NULL, d, -1, CR_DEV_CPU, false, CR_ROUTE_HOST_KINDS, via, queue, seen);
}

/* Walks hop (s -> d)'s way through host memory into arcs[0 .. *n_arcs):
 * s up to d's nearest CPU (the buffer sits in the receiver's memory), then
 * that CPU down to d. Returns false when either part has no path. */
static bool host_hop(const cr_topo *t, int s, int d, int *via, int *queue, int *arcs, int *n_arcs)
{
    int seen = 0, m = 0;
    int cpu = nearest_cpu(t, d, via, queue, &seen);
    if (cpu >= 0) /* down: d's path to its CPU, walked from the CPU */
        for (int v = cpu; v != d; v = cr_link_other(&t->links[via[v]], v))
            arcs[m++] = arc_from(t, via[v], v);
    forget(via, queue, seen);
    if (cpu < 0)
        return false;
    int up = search(t, NULL, s, cpu, CR_DEV__COUNT, false, CR_ROUTE_HOST_KINDS, via, queue, &seen);
    if (up >= 0) /* up: s to that CPU; the walk goes backwards, so arcs of the travel direction */
        for (int v = cpu; v != s; v = cr_link_other(&t->links[via[v]], v))
            arcs[m++] = arc_from(t, via[v], cr_link_other(&t->links[via[v]], v));
    forget(via, queue, seen);
    *n_arcs = m;
    return up >= 0;
}

cr_status cr_route_scratch_init(cr_route_scratch *sc, const cr_topo *t)
{
    sc->via = search_buffers(t, &sc->queue);
    return sc->via ? CR_OK : CR_ENOMEM;
}

void cr_route_scratch_release(cr_route_scratch *sc)
{
    free(sc->via);
    free(sc->queue);
    sc->via = sc->queue = NULL;
}

int cr_route_host_cpu_sc(const cr_topo *t, int rank, cr_route_scratch *sc)
{
    if (rank < 0 || rank >= t->n_gpus)
        return -1;
    int seen = 0;
    int cpu = nearest_cpu(t, t->gpus[rank], sc->via, sc->queue, &seen);
    forget(sc->via, sc->queue, seen);
    return cpu;
}

int cr_route_host_cpu(const cr_topo *t, int rank)
{
    if (rank < 0 || rank >= t->n_gpus)
        return -1;
    cr_route_scratch sc;
    if (cr_route_scratch_init(&sc, t) != CR_OK) {
        cr_route_scratch_release(&sc);
        return -2;
    }
    int cpu = cr_route_host_cpu_sc(t, rank, &sc);
    cr_route_scratch_release(&sc);
    return cpu;
}

cr_status cr_route_host_share_Bps(const cr_topo *t, const int *src, const int *dst, int n_hops,
                                  double *Bps, double *lat_s)
{
    double lat_unused;
    if (!lat_s)
        lat_s = &lat_unused;
    *Bps = *lat_s = 0.0;
    if (n_hops < 1)
        return CR_OK;
    int *queue = NULL, *via = search_buffers(t, &queue);
    int *arcs = malloc(2 * ((size_t)t->n_devs + 1) * sizeof *arcs);
    int *users = calloc(2 * (size_t)t->n_links + 1, sizeof *users);
    if (!via || !arcs || !users) {
        free(via);
        free(queue);
        free(arcs);
        free(users);
        return CR_ENOMEM;
    }
    /* pass 1: how many hops each arc carries; pass 2: the least share */
    double rate = HUGE_VAL;
    for (int pass = 0; pass < 2 && rate > 0; pass++) {
        for (int h = 0; h < n_hops; h++) {
            int m = 0;
            if (!host_hop(t, t->gpus[src[h]], t->gpus[dst[h]], via, queue, arcs, &m)) {
                rate = 0;
                break;
            }
            double hop_lat = 0;
            for (int i = 0; i < m; i++) {
                if (pass == 0)
                    users[arcs[i]]++;
                else
                    rate = fmin(rate, arc_cap(t, arcs[i]) / users[arcs[i]]);
                hop_lat += t->links[arcs[i] / 2].lat_s;
            }
            *lat_s = fmax(*lat_s, hop_lat);
        }
    }
    *Bps = isfinite(rate) ? rate : 0.0;
    if (!(*Bps > 0))
        *lat_s = 0.0;
    free(via);
    free(queue);
    free(arcs);
    free(users);
    return CR_OK;
}

cr_status cr_route_pcie_peers_sc(const cr_topo *t, const int *src, const int *dst,
                                 const int *node_ranks, int n, bool *peer, cr_route_scratch *sc)
{
    bool allowed = cr_route_pcie_p2p(t);
    for (int h = 0; h < n; h++)
        peer[h] = allowed;
    if (!allowed || n < 1)
        return CR_OK;
    int *via = sc->via, *queue = sc->queue;
    for (int h = 0; h < n; h++) {
        int s = t->gpus[src[h]], d = t->gpus[dst[h]], seen = 0;
        bool ok = search(t, NULL, s, d, CR_DEV__COUNT, false, CR_ROUTE_HOST_KINDS, via, queue,
                         &seen) == d;
        /* NCCL's P2P level (paths.cc): PCIe switches only (PATH_PXB); a
         * path through a CPU also with AMD CPUs and at most two GPUs */
        for (int v = d; ok && v != s; v = cr_link_other(&t->links[via[v]], v))
            if (t->devs[v].kind == CR_DEV_CPU)
                ok = t->devs[v].spec == CR_CPU_AMD && node_ranks[h] <= 2;
        forget(via, queue, seen);
        peer[h] = ok;
    }
    return CR_OK;
}

cr_status cr_route_pcie_peers(const cr_topo *t, const int *src, const int *dst,
                              const int *node_ranks, int n, bool *peer)
{
    bool allowed = cr_route_pcie_p2p(t);
    for (int h = 0; h < n; h++)
        peer[h] = allowed;
    if (!allowed || n < 1)
        return CR_OK;
    cr_route_scratch sc;
    cr_status st = cr_route_scratch_init(&sc, t);
    if (st == CR_OK)
        st = cr_route_pcie_peers_sc(t, src, dst, node_ranks, n, peer, &sc);
    cr_route_scratch_release(&sc);
    return st;
}

void cr_route_nic_path(const cr_topo *t, int rank, bool *via_cpu, bool *via_c2c)
{
    *via_cpu = *via_c2c = false;
    if (rank < 0 || rank >= t->n_gpus)
        return;
    int *queue = NULL, *via = search_buffers(t, &queue);
    if (via) {
        int s = t->gpus[rank], seen = 0;
        int nic = search(t, NULL, s, -1, CR_DEV_NIC, false, CR_ROUTE_HOST_KINDS, via, queue, &seen);
        for (int v = nic; nic >= 0 && v != s;) {
            int l = via[v], u = cr_link_other(&t->links[l], v);
            if (t->devs[v].kind == CR_DEV_CPU)
                *via_cpu = true;
            if (u == s)
                *via_c2c = t->links[l].kind == CR_LINK_C2C;
            v = u;
        }
    }
    free(via);
    free(queue);
}

/* Whether device v has a scale-up link to a switch (an NVSwitch joins its
 * GPUs without relaying through one another), and whether it has a
 * scale-up link to device w. */
static bool scaleup_switched(const cr_topo *t, int v)
{
    for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
        const cr_link *l = &t->links[t->adj[i]];
        if (cr_route_scaleup(l->kind) && t->devs[cr_link_other(l, v)].kind == CR_DEV_SWITCH)
            return true;
    }
    return false;
}

static bool scaleup_joined(const cr_topo *t, int v, int w)
{
    for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
        const cr_link *l = &t->links[t->adj[i]];
        if (cr_route_scaleup(l->kind) && cr_link_other(l, v) == w)
            return true;
    }
    return false;
}

bool cr_route_nvb_pair(const cr_topo *t, int *a, int *b, int *via)
{
    if (cr_route_transit(t))
        return false;
    int *queue = NULL, *seen_via = search_buffers(t, &queue), seen = 0;
    bool found = false;
    if (!seen_via)
        return false;
    /* each GPU's scale-up GPU neighbours, pairwise: a GPU has a handful of
     * them (six on a DGX-1), so this is linear in the GPUs */
    for (int g = 0; g < t->n_gpus; g++) {
        int v = t->gpus[g];
        for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
            const cr_link *li = &t->links[t->adj[i]];
            int u = cr_link_other(li, v);
            if (!cr_route_scaleup(li->kind) || t->devs[u].kind != CR_DEV_GPU ||
                scaleup_switched(t, u))
                continue;
            for (int j = i + 1; j < t->adj_off[v + 1]; j++) {
                const cr_link *lj = &t->links[t->adj[j]];
                int w = cr_link_other(lj, v);
                if (!cr_route_scaleup(lj->kind) || t->devs[w].kind != CR_DEV_GPU || w == u ||
                    scaleup_switched(t, w) || scaleup_joined(t, u, w))
                    continue;
                /* a pair with no path but through GPUs is relayed already */
                bool host = search(t, NULL, u, w, CR_DEV__COUNT, false, CR_ROUTE_ALL_KINDS,
                                   seen_via, queue, &seen) == w;
                forget(seen_via, queue, seen);
                if (!host)
                    continue;
                int ru = t->devs[u].gpu_rank, rw = t->devs[w].gpu_rank;
                *a = ru < rw ? ru : rw;
                *b = ru < rw ? rw : ru;
                *via = g;
                found = true;
                goto out;
            }
        }
    }
out:
    free(seen_via);
    free(queue);
    return found;
}
