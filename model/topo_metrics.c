/* SPDX-License-Identifier: MIT */
/*
 * Topology summary figures (see topo_metrics.h for the definitions).
 *
 * The bisection runs Dinic's max-flow on the device graph plus a super
 * source and sink. Each link bundle becomes one pair of opposite arcs whose
 * capacities are the two per-direction bandwidths (count x per-link): pushing
 * f along one arc adds f to the other, which is exactly the residual of a
 * full-duplex link. Arcs a GPU may not use (sending from the sink half,
 * receiving in the source half, when GPUs do not forward) start at 0.
 */
#include "topo_metrics.h"
#include "maxflow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "route.h"

/* Residual below this many bytes per second counts as saturated (figures
 * are 1e9-1e12 B/s), as in route.c. */
#define EPS_BPS 1.0

/* GPUs per node that take part in a sampled pair summary. */
#define SAMPLE_PER_NODE 8

/* Dense node numbering: node value -> 0..n-1 in order of first GPU rank.
 * nodes_of[r] gets the dense node of GPU rank r. Returns the count or -1. */
static int dense_nodes(const cr_topo *t, int *node_of_rank)
{
    int lo = 0, hi = -1;
    for (int v = 0; v < t->n_devs; v++) {
        int nd = t->devs[v].node;
        lo = nd < lo ? nd : lo;
        hi = nd > hi ? nd : hi;
    }
    int span = hi - lo + 1;
    int *map = malloc((size_t)(span > 0 ? span : 1) * sizeof *map);
    if (!map)
        return -1;
    for (int i = 0; i < span; i++)
        map[i] = -1;
    int n = 0;
    for (int r = 0; r < t->n_gpus; r++) {
        int k = t->devs[t->gpus[r]].node - lo;
        if (map[k] < 0)
            map[k] = n++;
        node_of_rank[r] = map[k];
    }
    free(map);
    return n;
}

/* Network bandwidth (ib, ethernet) out of every NIC per node value, and
 * GPUs per node value: helpers for the injection share. */
struct net_share {
    int lo, span;
    double *bw;  /* [span][2]: ib, ethernet */
    int *n_gpus; /* [span] */
};

static cr_status net_share_init(const cr_topo *t, struct net_share *s)
{
    int lo = 0, hi = -1;
    for (int v = 0; v < t->n_devs; v++) {
        lo = t->devs[v].node < lo ? t->devs[v].node : lo;
        hi = t->devs[v].node > hi ? t->devs[v].node : hi;
    }
    s->lo = lo;
    s->span = hi - lo + 1 > 0 ? hi - lo + 1 : 1;
    s->bw = calloc((size_t)s->span * 2, sizeof *s->bw);
    s->n_gpus = calloc((size_t)s->span, sizeof *s->n_gpus);
    if (!s->bw || !s->n_gpus)
        return CR_ENOMEM;
    for (int v = 0; v < t->n_devs; v++) {
        const cr_dev *dv = &t->devs[v];
        int k = dv->node - lo;
        if (dv->kind == CR_DEV_GPU)
            s->n_gpus[k]++;
        if (dv->kind != CR_DEV_NIC)
            continue;
        for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
            const cr_link *l = &t->links[t->adj[i]];
            if (l->kind == CR_LINK_IB)
                s->bw[2 * k] += cr_link_bw_from(l, v);
            else if (l->kind == CR_LINK_ETHERNET)
                s->bw[2 * k + 1] += cr_link_bw_from(l, v);
        }
    }
    return CR_OK;
}

static void net_share_release(struct net_share *s)
{
    free(s->bw);
    free(s->n_gpus);
}

static void injection_one(const cr_topo *t, const struct net_share *s, int rank,
                          double out[CR_LINK__COUNT])
{
    int v = t->gpus[rank];
    for (int k = 0; k < CR_LINK__COUNT; k++)
        out[k] = 0.0;
    for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
        const cr_link *l = &t->links[t->adj[i]];
        out[l->kind] += cr_link_bw_from(l, v);
    }
    int k = t->devs[v].node - s->lo;
    if (s->n_gpus[k] > 0) {
        out[CR_LINK_IB] += s->bw[2 * k] / s->n_gpus[k];
        out[CR_LINK_ETHERNET] += s->bw[2 * k + 1] / s->n_gpus[k];
    }
}

cr_status cr_metrics_injection(const cr_topo *t, int rank, double out_Bps[CR_LINK__COUNT])
{
    if (!t->finalized || rank < 0 || rank >= t->n_gpus)
        return CR_EINVAL;
    struct net_share s = {0};
    cr_status st = net_share_init(t, &s);
    if (st == CR_OK)
        injection_one(t, &s, rank, out_Bps);
    net_share_release(&s);
    return st;
}

cr_status cr_metrics_injection_range(const cr_topo *t, double min_Bps[CR_LINK__COUNT],
                                     double max_Bps[CR_LINK__COUNT])
{
    if (!t->finalized)
        return CR_EINVAL;
    struct net_share s = {0};
    cr_status st = net_share_init(t, &s);
    for (int k = 0; k < CR_LINK__COUNT; k++)
        min_Bps[k] = max_Bps[k] = 0.0;
    for (int r = 0; st == CR_OK && r < t->n_gpus; r++) {
        double one[CR_LINK__COUNT];
        injection_one(t, &s, r, one);
        for (int k = 0; k < CR_LINK__COUNT; k++) {
            min_Bps[k] = r == 0 || one[k] < min_Bps[k] ? one[k] : min_Bps[k];
            max_Bps[k] = one[k] > max_Bps[k] ? one[k] : max_Bps[k];
        }
    }
    net_share_release(&s);
    return st;
}

/* Max-flow from the GPUs with in_a[r] == from_a to the others. */
static cr_status half_flow(const cr_topo *t, const char *in_a, char from_a, double *out)
{
    cr_maxflow f;
    int S = t->n_devs, T = t->n_devs + 1;
    cr_status st = cr_maxflow_init(&f, t->n_devs + 2, t->n_links + t->n_gpus + 1);
    if (st) {
        cr_maxflow_release(&f);
        return st;
    }
    bool transit = cr_route_transit(t);
    /* +1: side of each device: 1 source half, 2 sink half, 0 not a GPU */
    char *side = calloc((size_t)t->n_devs, 1);
    if (!side) {
        cr_maxflow_release(&f);
        return CR_ENOMEM;
    }
    for (int r = 0; r < t->n_gpus; r++)
        side[t->gpus[r]] = in_a[r] == from_a ? 1 : 2;
    double inf = 0.0;
    for (int l = 0; l < t->n_links; l++) {
        const cr_link *k = &t->links[l];
        double ab = k->count * k->bw_ab_Bps, ba = k->count * k->bw_ba_Bps;
        inf += ab + ba;
        if (!transit) {
            /* a GPU of the sink half never sends, one of the source half
             * never receives */
            if (side[k->a] == 2 || side[k->b] == 1)
                ab = 0.0;
            if (side[k->b] == 2 || side[k->a] == 1)
                ba = 0.0;
        }
        cr_maxflow_add(&f, k->a, k->b, ab, ba);
    }
    inf = inf * 2.0 + 1.0;
    for (int r = 0; r < t->n_gpus; r++) {
        int v = t->gpus[r];
        if (side[v] == 1)
            cr_maxflow_add(&f, S, v, inf, 0.0);
        else
            cr_maxflow_add(&f, v, T, inf, 0.0);
    }
    *out = cr_maxflow_run(&f, S, T);
    free(side);
    cr_maxflow_release(&f);
    return CR_OK;
}

cr_status cr_metrics_bisection(const cr_topo *t, cr_bisection *out)
{
    memset(out, 0, sizeof *out);
    if (!t->finalized)
        return CR_EINVAL;
    int n = t->n_gpus;
    int *node = malloc(((size_t)n + 1) * sizeof *node);
    char *in_a = calloc((size_t)n + 1, 1);
    cr_status st = CR_OK;
    if (!node || !in_a) {
        st = CR_ENOMEM;
        goto done;
    }
    int n_nodes = dense_nodes(t, node);
    if (n_nodes < 0) {
        st = CR_ENOMEM;
        goto done;
    }
    out->n_nodes = n_nodes;
    if (n < 2)
        goto done;
    out->node_aligned = n_nodes >= 2;
    for (int r = 0; r < n; r++) {
        in_a[r] = (char)(out->node_aligned ? node[r] < n_nodes / 2 : r < n / 2);
        out->n_a += in_a[r];
    }
    out->n_b = n - out->n_a;
    if ((st = half_flow(t, in_a, 1, &out->ab_Bps)) || (st = half_flow(t, in_a, 0, &out->ba_Bps)))
        goto done;
    out->bw_Bps = out->ab_Bps < out->ba_Bps ? out->ab_Bps : out->ba_Bps;
done:
    free(node);
    free(in_a);
    return st;
}

cr_status cr_metrics_switches(const cr_topo *t, cr_switch_summary **out, int *n)
{
    *out = NULL;
    *n = 0;
    int slots = t->n_switch_specs + 1; /* last slot: switches without a model */
    cr_switch_summary *all = calloc((size_t)slots, sizeof *all);
    if (!all)
        return CR_ENOMEM;
    for (int v = 0; v < t->n_devs; v++) {
        const cr_dev *dv = &t->devs[v];
        if (dv->kind != CR_DEV_SWITCH)
            continue;
        int k = dv->spec >= 0 && dv->spec < t->n_switch_specs ? dv->spec : slots - 1;
        cr_switch_summary *s = &all[k];
        s->count++;
        int ports = 0;
        double bw = 0.0;
        for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
            const cr_link *l = &t->links[t->adj[i]];
            ports += l->count;
            bw += cr_link_bw_from(l, v);
            s->kinds |= 1u << l->kind;
        }
        s->max_ports = ports > s->max_ports ? ports : s->max_ports;
        s->max_switch_Bps = bw > s->max_switch_Bps ? bw : s->max_switch_Bps;
    }
    int m = 0;
    for (int k = 0; k < slots; k++) {
        if (all[k].count == 0)
            continue;
        cr_switch_summary s = all[k];
        if (k < t->n_switch_specs) {
            const cr_switch_spec *sp = &t->switch_specs[k];
            s.name = sp->name ? sp->name : "(unnamed)";
            s.spec = k;
            s.generation = sp->generation;
            s.multicast = sp->multicast;
            s.reduction = sp->reduction;
            s.reduce_Bps = sp->reduce_Bps;
        } else {
            s.name = "(none)";
            s.spec = -1;
        }
        all[m++] = s;
    }
    if (m == 0) {
        free(all);
        return CR_OK;
    }
    *out = all;
    *n = m;
    return CR_OK;
}

static void class_add(cr_pair_class *c, double bw, double up)
{
    if (c->evaluated == 0 || bw < c->min_Bps)
        c->min_Bps = bw;
    if (c->evaluated == 0 || bw > c->max_Bps)
        c->max_Bps = bw;
    if (c->evaluated == 0 || up < c->scaleup_min_Bps)
        c->scaleup_min_Bps = up;
    if (c->evaluated == 0 || up > c->scaleup_max_Bps)
        c->scaleup_max_Bps = up;
    c->evaluated++;
}

/* Does the topology have scale-up links at all? (Skips a second max-flow
 * per pair on PCIe-only machines.) */
static bool has_scaleup(const cr_topo *t)
{
    for (int l = 0; l < t->n_links; l++)
        if (cr_route_scaleup(t->links[l].kind))
            return true;
    return false;
}

static void eval_pair(const cr_topo *t, const int *node, bool scaleup, int s, int d,
                      cr_pair_summary *out)
{
    if (s == d)
        return;
    double bw = cr_route_bw_Bps(t, s, d);
    double up = scaleup ? cr_route_bw_kinds_Bps(t, s, d, CR_ROUTE_SCALEUP_KINDS) : 0.0;
    class_add(node[s] == node[d] ? &out->same_node : &out->other_node, bw, up);
    if (out->matrix)
        out->matrix[(size_t)s * (size_t)out->n + (size_t)d] = bw;
}

cr_status cr_metrics_pairs(const cr_topo *t, cr_pair_summary *out)
{
    memset(out, 0, sizeof *out);
    int n = t->n_gpus;
    out->n = n;
    int *node = malloc(((size_t)n + 1) * sizeof *node);
    if (!node)
        return CR_ENOMEM;
    int n_nodes = dense_nodes(t, node);
    if (n_nodes < 0) {
        free(node);
        return CR_ENOMEM;
    }
    /* Pairs per class: sum over nodes of k(k-1) are same-node. */
    int *per = calloc((size_t)n_nodes + 1, sizeof *per);
    int *first = malloc(((size_t)n_nodes + 1) * sizeof *first);
    if (!per || !first) {
        free(node);
        free(per);
        free(first);
        return CR_ENOMEM;
    }
    for (int r = n - 1; r >= 0; r--) {
        per[node[r]]++;
        first[node[r]] = r;
    }
    for (int k = 0; k < n_nodes; k++)
        out->same_node.pairs += (long long)per[k] * (per[k] - 1);
    out->other_node.pairs = (long long)n * (n - 1) - out->same_node.pairs;
    cr_status st = CR_OK;
    bool up = has_scaleup(t);
    if (n <= CR_METRICS_FULL_MATRIX_MAX) {
        out->matrix = calloc((size_t)n * (size_t)n + 1, sizeof *out->matrix);
        if (!out->matrix) {
            st = CR_ENOMEM;
            goto done;
        }
        for (int s = 0; s < n; s++)
            for (int d = 0; d < n; d++)
                eval_pair(t, node, up, s, d, out);
        goto done;
    }
    /* Sample: within the first and last node, their first GPU to the other
     * GPUs of the node; across nodes, GPUs of the first node to GPUs of the
     * second, middle and last node. At most SAMPLE_PER_NODE GPUs per node
     * take part, evenly spread in rank order, so a 72-GPU node or a
     * template-less 8,192-GPU torus stays a few hundred route queries. */
    int probe[2] = {0, n_nodes - 1};
    for (int p = 0; p < (n_nodes > 1 ? 2 : 1); p++) {
        int k = probe[p], s = first[k], seen = 0;
        int stride = per[k] > SAMPLE_PER_NODE ? per[k] / SAMPLE_PER_NODE : 1;
        for (int d = 0; d < n; d++)
            if (node[d] == k && seen++ % stride == 0)
                eval_pair(t, node, up, s, d, out);
    }
    int targets[3] = {1, n_nodes / 2, n_nodes - 1};
    int src_stride = per[0] > SAMPLE_PER_NODE ? per[0] / SAMPLE_PER_NODE : 1;
    for (int j = 0; j < 3 && n_nodes > 1; j++) {
        if (targets[j] < 1 || (j > 0 && targets[j] == targets[j - 1]))
            continue;
        int tk = targets[j];
        int dst_stride = per[tk] > SAMPLE_PER_NODE ? per[tk] / SAMPLE_PER_NODE : 1;
        int si = 0;
        for (int s = 0; s < n; s++) {
            if (node[s] != 0 || si++ % src_stride != 0)
                continue;
            int di = 0;
            for (int d = 0; d < n; d++)
                if (node[d] == tk && di++ % dst_stride == 0)
                    eval_pair(t, node, up, s, d, out);
        }
    }
    out->sampled = out->same_node.evaluated < out->same_node.pairs ||
                   out->other_node.evaluated < out->other_node.pairs;
done:
    free(node);
    free(per);
    free(first);
    return st;
}

void cr_pair_summary_release(cr_pair_summary *s)
{
    if (!s)
        return;
    free(s->matrix);
    s->matrix = NULL;
}
