/* SPDX-License-Identifier: MIT */
/*
 * Cut-based lower bounds (see bound.h; derivations in doc/bounds.md).
 *
 * Building the cuts walks each link once per cut kind, plus two max-flows
 * (Dinic) for the bisection; evaluating a request is a loop over the cuts.
 */
#include "sbuf.h"
#include "bound.h"
#include "grow.h"
#include "maxflow.h"
#include "route.h"
#include "route_priv.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cut_names[CR_CUT__COUNT] = {
    "gpu-ports", "pcie-switch", "socket", "node-nics", "domain", "leaf-group", "pod", "bisection"};

const char *cr_cut_kind_name(cr_cut_kind k)
{
    return (unsigned)k < CR_CUT__COUNT ? cut_names[k] : "?";
}

/* What a rooted collective's bound searches from its root with, and the
 * memo of what it found (root_eccentricity_s). */
struct cr_cuts_roots {
    const cr_topo *topo; /* borrowed: must outlive the cuts */
    int *rank_gpus;      /* [i]: topology GPU rank of communicator rank i */
    int *member_of_dev;  /* [device]: communicator rank, or -1 */
    bool transit;        /* GPUs outside the communicator forward (1.9) */
    /* [i]: the largest path latency from rank i, < 0 until an evaluation
     * from root i searched; atomic: threads evaluating on one context
     * read and write it */
    _Atomic double *ecc_memo;
};

void cr_cuts_free(cr_cuts *c)
{
    if (!c)
        return;
    free(c->cuts);
    free(c->classes);
    free(c->class_count);
    free(c->member_cut);
    free(c->hbm_Bps);
    free(c->l2_bytes);
    free(c->gspec);
    free(c->mem_of);
    free(c->mem_first);
    free(c->mem_second);
    free(c->lat0_s);
    free(c->lat0_peer_s);
    if (c->roots) {
        free(c->roots->member_of_dev);
        free(c->roots->rank_gpus);
        free(c->roots->ecc_memo);
        free(c->roots);
    }
    free(c);
}

static cr_hw link_hw(cr_link_kind k)
{
    if (cr_route_network(k))
        return CR_HW_NET;
    return k == CR_LINK_PCIE ? CR_HW_PCI : CR_HW_NVLINK;
}

/* Builder state shared by the cut finders. */
struct bctx {
    const cr_topo *t;
    const cr_rankset *rs;
    int *member_of_dev; /* device -> communicator rank or -1 */
    int *stamp;         /* device -> last group stamp */
    int stamp_val;
    int *claimed; /* [kind * n_devs + dev]: device already in a group of that kind */
    int *list;    /* scratch list of devices of the current group */
    int *local;   /* device -> index in list (valid for stamped devices) */
    int n_list;
    cr_cuts *c;
    size_t cap_cuts;
    bool transit;
    int unreachable; /* first member no path reaches from the first one; -1: none */
    /* Regions of the devices that are not GPUs (region_build):
     * device -> union-find parent, the first GPU a region links to (-1:
     * none), and whether it links to a second one. */
    int *region;
    int *region_gpu;
    bool *region_joins;
};

/* ---- which of a GPU's links can carry its bytes ---- */

static bool is_gpu(const cr_topo *t, int v)
{
    return t->devs[v].kind == CR_DEV_GPU;
}

static int region_of(struct bctx *b, int v)
{
    while (b->region[v] != v) {
        b->region[v] = b->region[b->region[v]]; /* path halving */
        v = b->region[v];
    }
    return v;
}

static void region_touch(struct bctx *b, int dev, int gpu)
{
    int r = region_of(b, dev);
    if (b->region_gpu[r] < 0)
        b->region_gpu[r] = gpu;
    else if (b->region_gpu[r] != gpu)
        b->region_joins[r] = true;
}

/* Joins the devices that are not GPUs (switches, CPUs, NICs) along their
 * links into regions and notes the GPUs each region links to. A region
 * linked to one GPU alone is a dead end for it (a NIC cabled to nothing:
 * gb200-nvl72's, one rack without a network): no byte that GPU exchanges
 * with another can pass there. Which GPUs are ranks does not matter, so a
 * GPU's cut is the same link set in every rank set (ops sums a GPU's cut
 * times over the phases of an operator that run on different rank sets). */
static int region_build(struct bctx *b)
{
    const cr_topo *t = b->t;
    int nd = t->n_devs;
    b->region = malloc((size_t)nd * sizeof *b->region);
    b->region_gpu = malloc((size_t)nd * sizeof *b->region_gpu);
    b->region_joins = calloc((size_t)nd, sizeof *b->region_joins);
    if (!b->region || !b->region_gpu || !b->region_joins)
        return -1;
    for (int v = 0; v < nd; v++) {
        b->region[v] = v;
        b->region_gpu[v] = -1;
    }
    for (int i = 0; i < t->n_links; i++) {
        int x = t->links[i].a, y = t->links[i].b;
        if (!is_gpu(t, x) && !is_gpu(t, y)) {
            int rx = region_of(b, x), ry = region_of(b, y);
            if (rx != ry)
                b->region[rx] = ry;
        }
    }
    for (int i = 0; i < t->n_links; i++) {
        int x = t->links[i].a, y = t->links[i].b;
        if (is_gpu(t, x) && !is_gpu(t, y))
            region_touch(b, y, x);
        if (is_gpu(t, y) && !is_gpu(t, x))
            region_touch(b, x, y);
    }
    return 0;
}

/* Can a link from a GPU to device w carry bytes between that GPU and
 * another? Directly to one, or into a region that links to one. */
static bool link_carries(struct bctx *b, int w)
{
    return is_gpu(b->t, w) || b->region_joins[region_of(b, w)];
}

static int push_cut(struct bctx *b, const cr_cut *cut)
{
    cr_cuts *c = b->c;
    if (cr_grow((void **)&c->cuts, &b->cap_cuts, (size_t)c->n_cuts + 1, sizeof *c->cuts))
        return -1;
    c->cuts[c->n_cuts] = *cut;
    return c->n_cuts++;
}

/* Adds device v to the current group (b->list, stamped) unless present. */
static void group_add(struct bctx *b, int v)
{
    if (b->stamp[v] == b->stamp_val)
        return;
    b->stamp[v] = b->stamp_val;
    b->list[b->n_list++] = v;
}

static int member_flow(struct bctx *b, bool into, double *out);

/* Closes the current group as a cut of `kind`: capacities of links with one
 * end inside, members inside, ring edges crossing. Skips groups holding no
 * rank or every rank (no traffic is forced across them). */
static int group_close(struct bctx *b, cr_cut_kind kind, int id)
{
    const cr_topo *t = b->t;
    cr_cut cut;
    memset(&cut, 0, sizeof cut);
    cut.kind = kind;
    cut.id = id;
    if (kind == CR_CUT_GPU)
        snprintf(cut.name, sizeof cut.name, "gpu %d (%s)", id, t->devs[t->gpus[id]].id);
    else if (kind == CR_CUT_NODE)
        snprintf(cut.name, sizeof cut.name, "node %d", id);
    else
        cr_str_copy(cut.name, sizeof cut.name, t->devs[id].id);
    double hw_cap[CR_HW__COUNT] = {0, 0, 0};
    int n = b->rs->n;
    for (int i = 0; i < b->n_list; i++) {
        int v = b->list[i];
        int m = b->member_of_dev[v];
        if (m >= 0) {
            cut.k++;
            int nx = b->rs->ranks[(m + 1) % n], pv = b->rs->ranks[(m + n - 1) % n];
            if (n > 1 && b->stamp[t->gpus[nx]] != b->stamp_val)
                cut.ring_out++;
            if (n > 1 && b->stamp[t->gpus[pv]] != b->stamp_val)
                cut.ring_in++;
        }
        for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
            const cr_link *l = &t->links[t->adj[a]];
            int w = cr_link_other(l, v);
            if (b->stamp[w] == b->stamp_val)
                continue;
            /* a GPU's own cut counts only the links its operation's bytes
             * can use (1.1): none into a dead end */
            if (kind == CR_CUT_GPU && !link_carries(b, w))
                continue;
            double out = cr_link_bw_from(l, v), in = cr_link_bw_from(l, w);
            cut.out_Bps += out;
            cut.in_Bps += in;
            hw_cap[link_hw(l->kind)] += out;
        }
    }
    if (cut.k == 0 || cut.k == n)
        return 0;
    cut.hw = CR_HW_NVLINK;
    for (int h = 0; h < CR_HW__COUNT; h++)
        if (hw_cap[h] > hw_cap[cut.hw])
            cut.hw = (cr_hw)h;
    cut.hw_out_Bps = hw_cap[cut.hw];
    /* A node's cut counts what its member ranks can move out and in:
     * GPUs outside the communicator hold no buffer of it and relay nothing
     * (NCCL's PXN relays only through ranks, whose processes run the proxy;
     * doc/bounds.md 1.9), as in the bisection. One GPU per node then sends
     * through its own PCIe link, not the node's eight NICs. */
    if (kind == CR_CUT_NODE && !b->transit) {
        double fo = 0, fi = 0;
        if (member_flow(b, false, &fo) < 0 || member_flow(b, true, &fi) < 0)
            return -1;
        bool lower = fo < cut.out_Bps * (1 - 1e-9) || fi < cut.in_Bps * (1 - 1e-9);
        cut.out_Bps = fmin(cut.out_Bps, fo);
        cut.in_Bps = fmin(cut.in_Bps, fi);
        if (lower) {
            /* the ranks' own host paths bind, not the NICs */
            cut.hw = CR_HW_PCI;
            cut.hw_out_Bps = cut.out_Bps;
        }
    }
    int idx = push_cut(b, &cut);
    if (idx < 0)
        return -1;
    for (int i = 0; i < b->n_list; i++) {
        int m = b->member_of_dev[b->list[i]];
        if (m >= 0 && b->c->member_cut[m * CR_CUT__COUNT + (int)kind] < 0)
            b->c->member_cut[m * CR_CUT__COUNT + (int)kind] = idx;
    }
    return 0;
}

static void group_open(struct bctx *b)
{
    b->stamp_val++;
    b->n_list = 0;
}

/* ---- domains: GPUs that no node holds ---- */

/* GPUs outside every node (node -1: a <torus>'s chips, top-level GPUs) get
 * no node cut, yet a group of them joined by scale-up or PCIe links may
 * reach the rest only through a thin link: two TPU slices on one DCN
 * link, a torus hung off a node by Ethernet. Each connected group of such
 * devices, over links that are not network links and between devices of
 * no node, holding a GPU, is a cut of its own: the plain capacity of the
 * links leaving it (any device set is a valid cut; no relaying assumption
 * is needed, 1.1). The rank-order bisection finds it only when the ranks
 * happen to split there. */
static int add_domains(struct bctx *b)
{
    const cr_topo *t = b->t;
    int nd = t->n_devs;
    int *seen = b->claimed + (size_t)CR_CUT_DOMAIN * (size_t)nd;
    for (int g = 0; g < t->n_gpus; g++) {
        int v0 = t->gpus[g];
        if (t->devs[v0].node >= 0 || seen[v0])
            continue;
        group_open(b);
        group_add(b, v0);
        seen[v0] = 1;
        for (int i = 0; i < b->n_list; i++) {
            int v = b->list[i];
            for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
                const cr_link *l = &t->links[t->adj[a]];
                int w = cr_link_other(l, v);
                if (cr_route_network(l->kind) || t->devs[w].node >= 0 || seen[w])
                    continue;
                seen[w] = 1;
                group_add(b, w);
            }
        }
        if (group_close(b, CR_CUT_DOMAIN, v0) < 0)
            return -1;
    }
    return 0;
}

/* ---- bisection: Dinic max-flow from one half of the ranks to the other ---- */

/* Max flow from the GPUs with side[] == 0 to those with side[] == 1 (ranks
 * not in the set have side -1). GPUs forward nothing unless transit. */
static int bisection_flow(const cr_topo *t, const signed char *side_of_dev, bool transit,
                          double *out)
{
    cr_maxflow f;
    int s = t->n_devs, tt = t->n_devs + 1;
    if (cr_maxflow_init(&f, t->n_devs + 2, t->n_links + t->n_gpus) != CR_OK) {
        cr_maxflow_release(&f);
        return -1;
    }
    for (int i = 0; i < t->n_links; i++) {
        const cr_link *l = &t->links[i];
        double ab = l->count * l->bw_ab_Bps, ba = l->count * l->bw_ba_Bps;
        bool a_gpu = t->devs[l->a].kind == CR_DEV_GPU, b_gpu = t->devs[l->b].kind == CR_DEV_GPU;
        /* A GPU sends only if it is a source, receives only if it is a sink. */
        if (!transit) {
            if (a_gpu && side_of_dev[l->a] != 0)
                ab = 0;
            if (b_gpu && side_of_dev[l->b] != 1)
                ab = 0;
            if (b_gpu && side_of_dev[l->b] != 0)
                ba = 0;
            if (a_gpu && side_of_dev[l->a] != 1)
                ba = 0;
        }
        cr_maxflow_add(&f, l->a, l->b, ab, ba);
    }
    for (int r = 0; r < t->n_gpus; r++) {
        int v = t->gpus[r];
        if (side_of_dev[v] == 0)
            cr_maxflow_add(&f, s, v, DBL_MAX / 4, 0);
        else if (side_of_dev[v] == 1)
            cr_maxflow_add(&f, v, tt, DBL_MAX / 4, 0);
    }
    *out = cr_maxflow_run(&f, s, tt);
    cr_maxflow_release(&f);
    return 0;
}

/* Max flow between the member GPUs of the current group and everything
 * outside it (into: from outside to the members), over the group's own
 * devices. Member GPUs may relay for each other (PXN); GPUs outside the
 * communicator carry nothing. Local vertices: the group's devices, then
 * source and sink; a node has a few dozen, so this is cheap per node. */
static int member_flow(struct bctx *b, bool into, double *out)
{
    const cr_topo *t = b->t;
    int nl = b->n_list, s = nl, tt = nl + 1;
    int max_pairs = nl;
    for (int i = 0; i < nl; i++) {
        int v = b->list[i];
        b->local[v] = i;
        max_pairs += t->adj_off[v + 1] - t->adj_off[v];
    }
    cr_maxflow f;
    if (cr_maxflow_init(&f, nl + 2, max_pairs) != CR_OK) {
        cr_maxflow_release(&f);
        return -1;
    }
    for (int i = 0; i < nl; i++) {
        int v = b->list[i];
        bool v_gpu = t->devs[v].kind == CR_DEV_GPU;
        if (v_gpu && b->member_of_dev[v] < 0)
            continue; /* not a rank: carries nothing */
        if (v_gpu) {
            if (into)
                cr_maxflow_add(&f, i, tt, DBL_MAX / 4, 0);
            else
                cr_maxflow_add(&f, s, i, DBL_MAX / 4, 0);
        }
        for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
            const cr_link *l = &t->links[t->adj[a]];
            int w = cr_link_other(l, v);
            bool w_gpu = t->devs[w].kind == CR_DEV_GPU;
            if (w_gpu && b->member_of_dev[w] < 0)
                continue;
            double vw = cr_link_bw_from(l, v), wv = cr_link_bw_from(l, w);
            if (b->stamp[w] == b->stamp_val) {
                if (l->a == v && w != v) /* each inside link once */
                    cr_maxflow_add(&f, i, b->local[w], vw, wv);
            } else if (into) {
                cr_maxflow_add(&f, s, i, wv, 0);
            } else {
                cr_maxflow_add(&f, i, tt, vw, 0);
            }
        }
    }
    *out = cr_maxflow_run(&f, s, tt);
    cr_maxflow_release(&f);
    return 0;
}

static int add_bisection(struct bctx *b)
{
    const cr_topo *t = b->t;
    int n = b->rs->n;
    if (n < 2)
        return 0;
    /* Halves by topology rank: the first half of the sorted ranks. */
    int *sorted = malloc((size_t)n * sizeof *sorted);
    signed char *side = malloc((size_t)t->n_devs);
    if (!sorted || !side) {
        free(sorted);
        free(side);
        return -1;
    }
    memcpy(sorted, b->rs->ranks, (size_t)n * sizeof *sorted);
    /* counting sort would do; n log n is fine here */
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int i = gap; i < n; i++)
            for (int j = i; j >= gap && sorted[j - gap] > sorted[j]; j -= gap) {
                int x = sorted[j];
                sorted[j] = sorted[j - gap];
                sorted[j - gap] = x;
            }
    memset(side, -1, (size_t)t->n_devs);
    int half = n / 2;
    for (int i = 0; i < n; i++)
        side[t->gpus[sorted[i]]] = (signed char)(i < half ? 0 : 1);
    double ab = 0, ba = 0;
    int rc = bisection_flow(t, side, b->transit, &ab);
    if (rc == 0) {
        for (int v = 0; v < t->n_devs; v++)
            if (side[v] >= 0)
                side[v] = (signed char)(1 - side[v]);
        rc = bisection_flow(t, side, b->transit, &ba);
        for (int v = 0; v < t->n_devs; v++)
            if (side[v] >= 0)
                side[v] = (signed char)(1 - side[v]);
    }
    if (rc == 0) {
        cr_cut cut;
        memset(&cut, 0, sizeof cut);
        cut.kind = CR_CUT_BISECTION;
        cut.id = -1;
        cut.k = half;
        cut.out_Bps = ab;
        cut.in_Bps = ba;
        cut.hw = b->c->n_member_nodes > 1 ? CR_HW_NET : CR_HW_NVLINK;
        for (int m = 0; m < n; m++) {
            int me = side[t->gpus[b->rs->ranks[m]]];
            int nx = side[t->gpus[b->rs->ranks[(m + 1) % n]]];
            if (me == 0 && nx == 1)
                cut.ring_out++;
            if (me == 1 && nx == 0)
                cut.ring_in++;
        }
        int idx = push_cut(b, &cut);
        if (idx < 0)
            rc = -1;
        else
            for (int m = 0; m < n; m++)
                if (side[t->gpus[b->rs->ranks[m]]] == 0)
                    b->c->member_cut[m * CR_CUT__COUNT + CR_CUT_BISECTION] = idx;
    }
    free(sorted);
    free(side);
    return rc;
}

/* ---- cut classes: identical cuts evaluate identically ---- */

struct cut_key {
    const cr_cut *cut;
    int idx;
};

static int cmp_cut(const void *pa, const void *pb)
{
    const struct cut_key *ka = pa, *kb = pb;
    const cr_cut *a = ka->cut, *b = kb->cut;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->k != b->k)
        return a->k < b->k ? -1 : 1;
    if (a->out_Bps != b->out_Bps)
        return a->out_Bps < b->out_Bps ? -1 : 1;
    if (a->in_Bps != b->in_Bps)
        return a->in_Bps < b->in_Bps ? -1 : 1;
    if (a->ring_out != b->ring_out)
        return a->ring_out < b->ring_out ? -1 : 1;
    if (a->ring_in != b->ring_in)
        return a->ring_in < b->ring_in ? -1 : 1;
    if (a->hw != b->hw)
        return a->hw < b->hw ? -1 : 1;
    return ka->idx < kb->idx ? -1 : (ka->idx > kb->idx);
}

static int build_classes(cr_cuts *c)
{
    c->n_classes = 0;
    for (int i = 0; i < c->n_cuts; i++) {
        const cr_cut *cut = &c->cuts[i];
        c->agg_out_Bps[cut->kind] += cut->out_Bps;
        c->agg_in_Bps[cut->kind] += cut->in_Bps;
        c->agg_m[cut->kind]++;
    }
    for (int m = 0; m < c->n; m++)
        for (int k = 0; k < CR_CUT__COUNT; k++)
            c->agg_covered[k] += c->member_cut[m * CR_CUT__COUNT + k] >= 0;
    if (c->n_cuts == 0)
        return 0;
    struct cut_key *keys = malloc((size_t)c->n_cuts * sizeof *keys);
    c->classes = malloc((size_t)c->n_cuts * sizeof *c->classes);
    c->class_count = malloc((size_t)c->n_cuts * sizeof *c->class_count);
    if (!keys || !c->classes || !c->class_count) {
        free(keys);
        return -1;
    }
    for (int i = 0; i < c->n_cuts; i++) {
        keys[i].cut = &c->cuts[i];
        keys[i].idx = i;
    }
    qsort(keys, (size_t)c->n_cuts, sizeof *keys, cmp_cut);
    for (int i = 0; i < c->n_cuts; i++) {
        if (c->n_classes > 0) {
            struct cut_key prev = {&c->cuts[c->classes[c->n_classes - 1]], -1};
            struct cut_key cur = {keys[i].cut, -1};
            if (cmp_cut(&prev, &cur) == 0) {
                c->class_count[c->n_classes - 1]++;
                continue;
            }
        }
        c->classes[c->n_classes] = keys[i].idx;
        c->class_count[c->n_classes++] = 1;
    }
    free(keys);
    return 0;
}

/* ---- latency: Dijkstra from rank 0 over link latencies ---- */

/* The latency search's view of a communicator (cr_route_lat_search):
 * its members not yet settled, the search ending when none is left. */
struct lat_walk {
    const struct bctx *b;
    int unsettled;
};

static bool any_link(cr_link_kind k)
{
    (void)k;
    return true;
}

/* GPUs outside the communicator forward nothing (doc/bounds.md 1.9); its
 * own GPUs may relay for each other, as NCCL's PXN does */
static bool member_relays(void *ctx, int v)
{
    const struct lat_walk *m = ctx;
    return cr_route_forwards(m->b->t, v, m->b->transit) || m->b->member_of_dev[v] >= 0;
}

/* once every member is settled their distances are final: a group of one
 * node of a 65,536-GPU cluster no longer searches the whole cluster */
static bool members_settled(void *ctx, int v)
{
    struct lat_walk *m = ctx;
    return m->b->member_of_dev[v] >= 0 && --m->unsettled == 0;
}

/* Path latencies from rank `from` to every rank into lat[] (0 where none),
 * over every link or, with scaleup_only, over NVLink, XGMI and ICI links
 * alone (the route NCCL's peer transport takes between GPUs of one
 * scale-up domain). Returns the largest, or -1 when out of memory. */
static double latencies_over(struct bctx *b, int from, bool scaleup_only, double *lat)
{
    const cr_topo *t = b->t;
    double *dist = malloc((size_t)t->n_devs * sizeof *dist);
    struct lat_walk m = {b, b->rs->n};
    cr_route_lat_walk w = {scaleup_only ? cr_route_scaleup : any_link, member_relays,
                           members_settled, &m};
    if (!dist || cr_route_lat_search(t, t->gpus[b->rs->ranks[from]], &w, dist) == -2) {
        free(dist);
        return -1;
    }
    double ecc = 0;
    for (int k = 0; k < b->rs->n; k++) {
        double dl = dist[t->gpus[b->rs->ranks[k]]];
        if (!isfinite(dl) && !scaleup_only && b->unreachable < 0)
            b->unreachable = k;
        lat[k] = isfinite(dl) ? dl : 0;
        ecc = fmax(ecc, lat[k]);
    }
    free(dist);
    return ecc;
}

/* The bound's latencies over every link (a GPU-CPU-GPU path through a
 * Grace CPU's C2C links carries data too: staged in the CPU's memory),
 * and the peer latencies predictions take: over scale-up links where they
 * join the pair, since NCCL's P2P transport then uses NVLink and never
 * relays through a CPU (doc/bounds.md 2.2.3); over every link elsewhere. */
static int latencies(struct bctx *b)
{
    cr_cuts *c = b->c;
    c->lat_ecc0_s = latencies_over(b, 0, false, c->lat0_s);
    if (c->lat_ecc0_s < 0 || latencies_over(b, 0, true, c->lat0_peer_s) < 0)
        return -1;
    atomic_init(&c->roots->ecc_memo[0], c->lat_ecc0_s); /* rank 0's, searched */
    for (int m = 0; m < c->n; m++)
        if (m > 0 && !(c->lat0_peer_s[m] > 0))
            c->lat0_peer_s[m] = c->lat0_s[m];
    return 0;
}

/* The largest path latency from communicator rank root to any rank, by
 * its own search; -1 when out of memory. The first evaluation from a root
 * searches (25 ms on 65,536 GPUs) and keeps the result in the cuts' memo;
 * threads evaluating on the same cuts at once may both search and store
 * the same value, with atomic loads and stores, so no read ever races
 * (coll.h: threads may share a context). */
static double root_eccentricity_s(const cr_cuts *c, int root)
{
    const struct cr_cuts_roots *r = c->roots;
    _Atomic double *memo = r->ecc_memo;
    double known = atomic_load_explicit(&memo[root], memory_order_relaxed);
    if (known >= 0)
        return known;
    cr_rankset rs = {c->n, r->rank_gpus};
    struct bctx b;
    memset(&b, 0, sizeof b);
    b.t = r->topo;
    b.rs = &rs;
    b.transit = r->transit;
    b.member_of_dev = r->member_of_dev;
    b.unreachable = -1;
    double *lat = malloc((size_t)c->n * sizeof *lat);
    double ecc = lat ? latencies_over(&b, root, false, lat) : -1;
    free(lat);
    if (ecc >= 0)
        atomic_store_explicit(&memo[root], ecc, memory_order_relaxed);
    return ecc;
}

/* Latency any byte crossing a member GPU's ports still needs: a path
 * between two member GPUs is one direct GPU-GPU link or at least two links
 * each touching a member GPU (doc/bounds.md, "latency"). */
static double cut_latency(const struct bctx *b)
{
    const cr_topo *t = b->t;
    double direct = HUGE_VAL, via = HUGE_VAL;
    for (int m = 0; m < b->rs->n; m++) {
        int v = t->gpus[b->rs->ranks[m]];
        for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
            const cr_link *l = &t->links[t->adj[a]];
            int w = cr_link_other(l, v);
            if (t->devs[w].kind == CR_DEV_GPU)
                direct = fmin(direct, l->lat_s);
            else
                via = fmin(via, l->lat_s);
        }
    }
    double lat = fmin(direct, 2 * via);
    return isfinite(lat) ? lat : 0;
}

static bool usable_reducer(const struct bctx *b, int v)
{
    const cr_topo *t = b->t;
    const cr_dev *dv = &t->devs[v];
    if (dv->kind != CR_DEV_SWITCH || dv->spec < 0 || !t->switch_specs[dv->spec].reduction)
        return false;
    for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
        int w = cr_link_other(&t->links[t->adj[a]], v);
        if (t->devs[w].kind != CR_DEV_GPU || b->member_of_dev[w] >= 0)
            return true;
    }
    return false;
}

/* ---- nodes and the fabric groups above them ---- */

/* Every node's devices: dev[off[x] .. off[x+1]) */
struct node_lists {
    int nn;
    int *off, *dev;
};

static int node_lists_build(const cr_topo *t, struct node_lists *nl)
{
    int nd = t->n_devs, nn = t->n_nodes;
    for (int v = 0; v < nd; v++)
        if (t->devs[v].node + 1 > nn)
            nn = t->devs[v].node + 1;
    nl->nn = nn;
    nl->off = calloc((size_t)nn + 1, sizeof *nl->off);
    nl->dev = malloc(((size_t)nd + 1) * sizeof *nl->dev);
    int *fill = malloc(((size_t)nn + 1) * sizeof *fill);
    if (!nl->off || !nl->dev || !fill) {
        free(nl->off);
        free(nl->dev);
        free(fill);
        return -1;
    }
    for (int v = 0; v < nd; v++)
        if (t->devs[v].node >= 0)
            nl->off[t->devs[v].node + 1]++;
    for (int x = 0; x < nn; x++)
        nl->off[x + 1] += nl->off[x];
    memcpy(fill, nl->off, (size_t)nn * sizeof *fill);
    for (int v = 0; v < nd; v++)
        if (t->devs[v].node >= 0)
            nl->dev[fill[t->devs[v].node]++] = v;
    free(fill);
    return 0;
}

/* A set of fabric switches (sorted device indices) and what it stands for:
 * a node (tier 1) or a tier-1 group (tier 2). */
struct sw_set {
    const int *sw;
    int n, who;
};

static int cmp_sw_set(const void *pa, const void *pb)
{
    const struct sw_set *a = pa, *b = pb;
    for (int i = 0; i < a->n && i < b->n; i++)
        if (a->sw[i] != b->sw[i])
            return a->sw[i] < b->sw[i] ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    return a->who < b->who ? -1 : (a->who > b->who);
}

static int cmp_int(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return a < b ? -1 : (a > b);
}

/* The fabric switches (devices of no node) one link away from the devices
 * dev[0..n), other than those stamped `skip`, appended sorted to out[*len]
 * (room: every link end). Uses b->local as a per-switch stamp. */
static void fabric_neighbours(struct bctx *b, const int *dev, int n, int skip, int mark, int *out,
                              int *len)
{
    const cr_topo *t = b->t;
    int first = *len;
    for (int i = 0; i < n; i++) {
        int v = dev[i];
        for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
            int w = cr_link_other(&t->links[t->adj[a]], v);
            if (t->devs[w].kind != CR_DEV_SWITCH || t->devs[w].node >= 0 || b->local[w] == skip ||
                b->local[w] == mark)
                continue;
            b->local[w] = mark;
            out[(*len)++] = w;
        }
    }
    qsort(out + first, (size_t)(*len - first), sizeof *out, cmp_int);
}

/* Adds tier-1 group g to the open group: its nodes' devices and its
 * switches (the nodes' common set). */
static void add_group_nodes(struct bctx *b, const struct node_lists *nl, const struct sw_set *set,
                            const int *first, int g)
{
    for (int i = first[g]; i < first[g + 1]; i++) {
        int x = set[i].who;
        for (int j = nl->off[x]; j < nl->off[x + 1]; j++)
            group_add(b, nl->dev[j]);
    }
    for (int j = 0; j < set[first[g]].n; j++)
        group_add(b, set[first[g]].sw[j]);
}

/* Tier 1, the leaf group: nodes whose devices reach exactly the same
 * fabric switches (in a rail-optimised fat tree the nodes under one leaf
 * index of every rail), with those switches. Tier 2, the pod: leaf groups
 * whose switches reach the same further switches, with all of theirs. An
 * oversubscribed tier below the bisection binds there first: in `topo gen
 * fat-tree --nodes 192 --node hgx-h100-8 --oversub 3` the 384 GPUs of one
 * leaf index leave through 8 rails x 16 uplinks x 50 GB/s = 6.4 TB/s, and
 * a 1,536-rank all-to-all forces 384 x 1152 / 1536 S = 288 S across them
 * where the bisection passes 384 S at 12.8 TB/s (doc/bounds.md 1.1). Any
 * device set is a valid cut, so groups that are not a fabric's tiers
 * only add cuts that do not bind. */
static int add_fabric_groups(struct bctx *b, const struct node_lists *nl)
{
    const cr_topo *t = b->t;
    int nn = nl->nn, rc = 0;
    if (nn < 2)
        return 0;
    size_t ends = (size_t)t->n_links * 2 + 1;
    int *sw = malloc(ends * sizeof *sw), *up = malloc(ends * sizeof *up);
    struct sw_set *set = malloc((size_t)nn * sizeof *set);
    struct sw_set *grp = malloc((size_t)nn * sizeof *grp);
    struct sw_set *pod = malloc((size_t)nn * sizeof *pod);
    int *first = malloc(((size_t)nn + 1) * sizeof *first);
    if (!sw || !up || !set || !grp || !pod || !first) {
        rc = -1;
        goto out;
    }
    for (int v = 0; v < t->n_devs; v++)
        b->local[v] = -1;
    /* tier 1: each node's switches (stamped with the node's number) */
    int len = 0;
    for (int x = 0; x < nn; x++) {
        int at = len;
        fabric_neighbours(b, nl->dev + nl->off[x], nl->off[x + 1] - nl->off[x], INT_MIN, x, sw,
                          &len);
        set[x] = (struct sw_set){sw + at, len - at, x};
    }
    /* equal sets run together; empty ones sort first and are no group */
    qsort(set, (size_t)nn, sizeof *set, cmp_sw_set);
    int ng = 0;
    for (int i = 0; i < nn; i++) {
        if (set[i].n == 0 ||
            (ng > 0 && set[i].n == grp[ng - 1].n &&
             memcmp(set[i].sw, grp[ng - 1].sw, (size_t)set[i].n * sizeof *sw) == 0))
            continue;
        grp[ng] = (struct sw_set){set[i].sw, set[i].n, ng};
        first[ng++] = i; /* group g: nodes set[first[g]] .. set[first[g + 1] - 1] */
    }
    first[ng] = nn;
    for (int g = 0; g < ng && rc == 0; g++) {
        group_open(b);
        add_group_nodes(b, nl, set, first, g);
        rc = group_close(b, CR_CUT_LEAF, grp[g].sw[0]);
    }
    if (rc < 0 || ng < 2)
        goto out;
    /* tier 2: the switches one link beyond each group's own (its own
     * stamped -2 - g to be passed over, the beyond ones nn + g) */
    int ulen = 0;
    for (int g = 0; g < ng; g++) {
        for (int j = 0; j < grp[g].n; j++)
            b->local[grp[g].sw[j]] = -2 - g;
        int at = ulen;
        fabric_neighbours(b, grp[g].sw, grp[g].n, -2 - g, nn + g, up, &ulen);
        pod[g] = (struct sw_set){up + at, ulen - at, g};
    }
    qsort(pod, (size_t)ng, sizeof *pod, cmp_sw_set);
    for (int i = 0, j; i < ng && rc == 0; i = j) {
        for (j = i + 1; j < ng && pod[j].n == pod[i].n &&
                        memcmp(pod[j].sw, pod[i].sw, (size_t)pod[i].n * sizeof *up) == 0;
             j++)
            ;
        /* no switch beyond, or one pod of every group: the bisection's */
        if (pod[i].n == 0 || j - i == ng)
            continue;
        group_open(b);
        for (int k = i; k < j; k++)
            add_group_nodes(b, nl, set, first, pod[k].who);
        for (int k = 0; k < pod[i].n; k++)
            group_add(b, pod[i].sw[k]);
        rc = group_close(b, CR_CUT_POD, pod[i].sw[0]);
    }
out:
    free(sw);
    free(up);
    free(set);
    free(grp);
    free(pod);
    free(first);
    return rc;
}

cr_status cr_cuts_build(const cr_topo *topo, const cr_rankset *ranks, cr_cuts **out, cr_diag *d)
{
    *out = NULL;
    cr_status st = CR_OK;
    if (!topo->finalized || topo->n_gpus < 1)
        return cr_diag_set(d, CR_EINVAL, "topology \"%s\" is not finalized or has no GPU",
                           topo->name);
    cr_rankset *all = NULL;
    if (!ranks) {
        all = cr_rankset_all(topo->n_gpus);
        if (!all)
            return cr_diag_set(d, CR_ENOMEM, "out of memory");
        ranks = all;
    }
    int n = ranks->n, nd = topo->n_devs;
    if (n < 1) {
        cr_rankset_free(all);
        return cr_diag_set(d, CR_EINVAL, "empty rank set");
    }
    for (int i = 0; i < n; i++)
        if (ranks->ranks[i] < 0 || ranks->ranks[i] >= topo->n_gpus) {
            cr_rankset_free(all);
            return cr_diag_set(d, CR_EINVAL, "rank %d is out of range: \"%s\" has %d GPUs",
                               ranks->ranks[i], topo->name, topo->n_gpus);
        }

    struct bctx b;
    memset(&b, 0, sizeof b);
    b.t = topo;
    b.rs = ranks;
    b.transit = cr_route_transit(topo);
    cr_cuts *c = calloc(1, sizeof *c);
    b.c = c;
    b.member_of_dev = malloc((size_t)nd * sizeof *b.member_of_dev);
    b.stamp = calloc((size_t)nd, sizeof *b.stamp);
    b.claimed = calloc((size_t)nd * CR_CUT__COUNT, sizeof *b.claimed);
    b.list = malloc((size_t)nd * sizeof *b.list);
    b.local = malloc((size_t)nd * sizeof *b.local);
    if (c) {
        c->n = n;
        c->member_cut = malloc((size_t)n * CR_CUT__COUNT * sizeof *c->member_cut);
        c->hbm_Bps = malloc((size_t)n * sizeof *c->hbm_Bps);
        c->l2_bytes = malloc((size_t)n * sizeof *c->l2_bytes);
        c->gspec = calloc((size_t)n, sizeof *c->gspec);
        c->mem_of = malloc((size_t)n * sizeof *c->mem_of);
        /* a class per GPU model at most */
        size_t nm = topo->n_gpu_specs > 0 ? (size_t)topo->n_gpu_specs : 1;
        c->mem_first = malloc(nm * sizeof *c->mem_first);
        c->mem_second = malloc(nm * sizeof *c->mem_second);
        c->lat0_s = calloc((size_t)n, sizeof *c->lat0_s);
        c->lat0_peer_s = calloc((size_t)n, sizeof *c->lat0_peer_s);
        c->roots = calloc(1, sizeof *c->roots);
        if (c->roots) {
            c->roots->rank_gpus = malloc((size_t)n * sizeof *c->roots->rank_gpus);
            c->roots->ecc_memo = malloc((size_t)n * sizeof *c->roots->ecc_memo);
        }
    }
    if (!c || !b.member_of_dev || !b.stamp || !b.claimed || !b.list || !b.local || !c->member_cut ||
        !c->hbm_Bps || !c->l2_bytes || !c->gspec || !c->mem_of || !c->mem_first || !c->mem_second ||
        !c->lat0_s || !c->lat0_peer_s || !c->roots || !c->roots->rank_gpus || !c->roots->ecc_memo) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory building the cuts of \"%s\"", topo->name);
        goto out;
    }
    for (int v = 0; v < nd; v++)
        b.member_of_dev[v] = -1;
    for (int i = 0; i < n * CR_CUT__COUNT; i++)
        c->member_cut[i] = -1;
    for (int i = 0; i < n; i++) {
        c->roots->rank_gpus[i] = ranks->ranks[i];
        atomic_init(&c->roots->ecc_memo[i], -1.0); /* not searched yet */
    }
    for (int i = 0; i < n; i++) {
        int v = topo->gpus[ranks->ranks[i]];
        if (b.member_of_dev[v] >= 0) {
            st =
                cr_diag_set(d, CR_EINVAL, "rank %d appears twice in the rank set", ranks->ranks[i]);
            goto out;
        }
        b.member_of_dev[v] = i;
        const cr_gpu_spec *gs = cr_topo_gpu_spec(topo, ranks->ranks[i]);
        c->hbm_Bps[i] = gs && gs->hbm_Bps > 0 ? gs->hbm_Bps : HUGE_VAL;
        c->l2_bytes[i] = gs && gs->l2_bytes > 0 ? gs->l2_bytes : 0;
        if (gs)
            c->gspec[i] = *gs;
    }
    /* Memory classes: every rank's memory term is a function of its GPU
     * model, so an evaluation need look at one rank per model (two where
     * the first is the root, whose bytes differ). */
    {
        int ns = topo->n_gpu_specs;
        int *cls = malloc((ns > 0 ? (size_t)ns : 1) * sizeof *cls);
        if (!cls)
            goto nomem;
        for (int s = 0; s < ns; s++)
            cls[s] = -1;
        c->n_mem = 0;
        for (int i = 0; i < n; i++) {
            int s = topo->devs[topo->gpus[ranks->ranks[i]]].spec;
            int q = cls[s];
            if (q < 0) {
                q = cls[s] = c->n_mem++;
                c->mem_first[q] = i;
                c->mem_second[q] = -1;
            } else if (c->mem_second[q] < 0) {
                c->mem_second[q] = i;
            }
            c->mem_of[i] = q;
        }
        free(cls);
    }

    /* One GPU's ports. */
    if (region_build(&b) < 0)
        goto nomem;
    for (int i = 0; i < n; i++) {
        group_open(&b);
        group_add(&b, topo->gpus[ranks->ranks[i]]);
        if (group_close(&b, CR_CUT_GPU, ranks->ranks[i]) < 0)
            goto nomem;
    }
    /* PCIe switches with the GPUs and NICs hanging off them. A device joins
     * at most one switch group: any device set is a valid cut, and disjoint
     * groups keep "which cut holds the root" unambiguous. */
    for (int v = 0; v < nd; v++) {
        if (topo->devs[v].kind != CR_DEV_PCISW)
            continue;
        group_open(&b);
        group_add(&b, v);
        for (int a = topo->adj_off[v]; a < topo->adj_off[v + 1]; a++) {
            int w = cr_link_other(&topo->links[topo->adj[a]], v);
            cr_dev_kind k = topo->devs[w].kind;
            if ((k == CR_DEV_GPU || k == CR_DEV_NIC) && !b.claimed[CR_CUT_PCISW * nd + w]) {
                b.claimed[CR_CUT_PCISW * nd + w] = 1;
                group_add(&b, w);
            }
        }
        if (group_close(&b, CR_CUT_PCISW, v) < 0)
            goto nomem;
    }
    /* CPU sockets with their PCIe trees (through PCIe switches to GPUs and
     * NICs; never through another CPU or a fabric switch). */
    for (int v = 0; v < nd; v++) {
        if (topo->devs[v].kind != CR_DEV_CPU)
            continue;
        group_open(&b);
        group_add(&b, v);
        for (int i = 0; i < b.n_list; i++) {
            int u = b.list[i];
            if (u != v && topo->devs[u].kind != CR_DEV_PCISW)
                continue;
            for (int a = topo->adj_off[u]; a < topo->adj_off[u + 1]; a++) {
                const cr_link *l = &topo->links[topo->adj[a]];
                if (l->kind != CR_LINK_PCIE)
                    continue;
                int w = cr_link_other(l, u);
                cr_dev_kind k = topo->devs[w].kind;
                if ((k == CR_DEV_PCISW || k == CR_DEV_GPU || k == CR_DEV_NIC) &&
                    !b.claimed[CR_CUT_SOCKET * nd + w]) {
                    b.claimed[CR_CUT_SOCKET * nd + w] = 1;
                    group_add(&b, w);
                }
            }
        }
        if (group_close(&b, CR_CUT_SOCKET, v) < 0)
            goto nomem;
    }
    /* Nodes: every device carrying the node's number; then the groups of
     * nodes behind the same network switches. */
    {
        struct node_lists nl;
        if (node_lists_build(topo, &nl) < 0)
            goto nomem;
        int member_nodes = 0, rc = 0;
        for (int x = 0; x < nl.nn && rc == 0; x++) {
            group_open(&b);
            bool has_member = false;
            for (int i = nl.off[x]; i < nl.off[x + 1]; i++) {
                group_add(&b, nl.dev[i]);
                has_member |= b.member_of_dev[nl.dev[i]] >= 0;
            }
            member_nodes += has_member;
            rc = group_close(&b, CR_CUT_NODE, x);
        }
        c->n_member_nodes = member_nodes > 0 ? member_nodes : 1;
        if (rc == 0)
            rc = add_fabric_groups(&b, &nl);
        free(nl.off);
        free(nl.dev);
        if (rc < 0)
            goto nomem;
    }
    if (add_domains(&b) < 0)
        goto nomem;
    if (add_bisection(&b) < 0)
        goto nomem;

    /* Where may reductions happen outside a group? Which nodes hold ranks
     * is marked once: a 65,536-GPU fat tree has 32,768 reducing switches,
     * and a scan of the ranks for each cost seconds (issue 17). */
    c->reducer = false;
    bool node_ok = true;
    {
        int nn = 0;
        for (int v = 0; v < nd; v++)
            if (topo->devs[v].node + 1 > nn)
                nn = topo->devs[v].node + 1;
        bool *held = calloc(nn > 0 ? (size_t)nn : 1, sizeof *held);
        if (!held)
            goto nomem;
        for (int m = 0; m < n; m++) {
            int x = topo->devs[topo->gpus[ranks->ranks[m]]].node;
            if (x >= 0)
                held[x] = true;
        }
        for (int v = 0; v < nd; v++) {
            if (!usable_reducer(&b, v))
                continue;
            c->reducer = true;
            int x = topo->devs[v].node;
            /* inside a node: fine when that node holds ranks */
            if (x < 0 || !held[x])
                node_ok = false;
        }
        free(held);
    }
    c->agg_ok[CR_CUT_GPU] = !c->reducer;
    c->agg_ok[CR_CUT_NODE] = node_ok;
    c->multicaster = false;
    for (int v = 0; v < nd && !c->multicaster; v++) {
        const cr_dev *dv = &topo->devs[v];
        c->multicaster =
            dv->kind == CR_DEV_SWITCH && dv->spec >= 0 && topo->switch_specs[dv->spec].multicast;
    }

    if (build_classes(c) < 0)
        goto nomem;
    c->lat_cut_s = cut_latency(&b);
    b.unreachable = -1;
    if (latencies(&b) < 0)
        goto nomem;
    if (b.unreachable >= 0) {
        /* no path over the communicator's own GPUs and the devices that
         * forward (1.9): every cut through it would have no capacity */
        int r0 = ranks->ranks[0], r1 = ranks->ranks[b.unreachable];
        st = cr_diag_set(d, CR_EINVAL,
                         "ranks %d and %d of \"%s\" have no path that avoids the GPUs outside "
                         "the rank set (only the communicator's GPUs carry its bytes, "
                         "doc/bounds.md 1.9): add the GPUs between them to the ranks",
                         r0, r1, topo->name);
        goto out;
    }
    /* what a rooted bound needs to search from its root (root_eccentricity_s) */
    c->roots->topo = topo;
    c->roots->transit = b.transit;
    c->roots->member_of_dev = b.member_of_dev;
    b.member_of_dev = NULL;
    goto out;
nomem:
    st = cr_diag_set(d, CR_ENOMEM, "out of memory building the cuts of \"%s\"", topo->name);
out:
    free(b.member_of_dev);
    free(b.stamp);
    free(b.claimed);
    free(b.list);
    free(b.local);
    free(b.region);
    free(b.region_gpu);
    free(b.region_joins);
    cr_rankset_free(all);
    if (st != CR_OK)
        cr_cuts_free(c);
    else
        *out = c;
    return st;
}

/* ---- forced bytes (doc/bounds.md derives each line) ---- */

void cr_cut_forced_bytes(cr_coll coll, double S, int n, int k, bool root_inside, int ring_out,
                         int ring_in, double *out_b, double *in_b)
{
    double nn = n, kk = k, o = 0, i = 0;
    if (n < 2 || k <= 0 || k >= n) {
        *out_b = *in_b = 0;
        return;
    }
    switch (coll) {
    case CR_COLL_ALLREDUCE:
        o = i = S;
        break;
    case CR_COLL_ALLGATHER:
        o = kk / nn * S;
        i = (nn - kk) / nn * S;
        break;
    case CR_COLL_REDUCESCATTER:
        o = (nn - kk) / nn * S;
        i = kk / nn * S;
        break;
    case CR_COLL_ALLTOALL:
        o = i = kk * (nn - kk) / nn * S;
        break;
    case CR_COLL_BROADCAST:
        if (root_inside)
            o = S;
        else
            i = S;
        break;
    case CR_COLL_REDUCE:
        if (root_inside)
            i = S;
        else
            o = S;
        break;
    case CR_COLL_GATHER:
        if (root_inside)
            i = (nn - kk) / nn * S;
        else
            o = kk / nn * S;
        break;
    case CR_COLL_SCATTER:
        if (root_inside)
            o = (nn - kk) / nn * S;
        else
            i = kk / nn * S;
        break;
    case CR_COLL_SENDRECV:
        o = ring_out * S;
        i = ring_in * S;
        break;
    default:
        break;
    }
    *out_b = o;
    *in_b = i;
}

double cr_mem_floor_s(const cr_gpu_spec *g, double bytes, bool cold, double hbm_Bps,
                      const char **level)
{
    double hb = hbm_Bps > 0 ? hbm_Bps : g && g->hbm_Bps > 0 ? g->hbm_Bps : HUGE_VAL;
    const char *lv = "hbm";
    if (!(bytes > 0)) {
        if (level)
            *level = lv;
        return 0;
    }
    if (cold || !g) {
        if (level)
            *level = lv;
        return bytes / hb;
    }
    double l2 = g->l2_bytes > 0 ? g->l2_bytes : 0, llc = g->llc_bytes > 0 ? g->llc_bytes : 0;
    double t = fmax(0, bytes - l2 - llc) / hb;
    if (g->llc_Bps > 0 && fmax(0, bytes - l2) / g->llc_Bps > t) {
        t = fmax(0, bytes - l2) / g->llc_Bps;
        lv = "llc";
    }
    if (g->l2_Bps > 0 && bytes / g->l2_Bps > t) {
        t = bytes / g->l2_Bps;
        lv = "l2";
    }
    /* every byte fits a cache whose bandwidth the topology does not give
     * (0: unknown, doc/bounds.md 1.4): the floor is 0 and that cache, not
     * HBM, is what it rests on */
    if (!(t > 0) && l2 + llc > 0)
        lv = bytes <= l2 ? "l2" : "llc";
    if (level)
        *level = lv;
    return t;
}

double cr_coll_hbm_bytes(cr_coll coll, double S, int n, bool root)
{
    double nn = n > 0 ? n : 1;
    if (n < 1)
        return 0;
    if (n == 1)
        return 2 * S; /* NCCL copies the send buffer into the receive buffer */
    switch (coll) {
    case CR_COLL_ALLREDUCE:
        return 2 * S; /* read the input, write the result */
    case CR_COLL_ALLGATHER:
        return S; /* read own S/n, write the (n-1)/n S received */
    case CR_COLL_REDUCESCATTER:
        return S + S / nn; /* read all input, write own S/n */
    case CR_COLL_ALLTOALL:
        return 2 * (nn - 1) / nn * S; /* read what leaves, write what arrives */
    case CR_COLL_BROADCAST:
        return S; /* root reads S; others write S */
    case CR_COLL_REDUCE:
        return root ? 2 * S : S; /* root reads its input and writes the result */
    case CR_COLL_GATHER:
        return root ? (nn - 1) / nn * S : S / nn;
    case CR_COLL_SCATTER:
        return root ? (nn - 1) / nn * S : S / nn;
    case CR_COLL_SENDRECV:
        return 2 * S;
    default:
        return 0;
    }
}

/* ---- evaluation ---- */

static cr_coll_term *put_term(cr_coll_bound *out, const char *name, const char *where, double bytes,
                              double cap, double lat)
{
    if (out->n_terms >= CR_COLL_MAX_TERMS || !(bytes > 0))
        return NULL;
    cr_coll_term *t = &out->terms[out->n_terms++];
    cr_str_copy(t->name, sizeof t->name, name);
    cr_str_copy(t->where, sizeof t->where, where);
    t->bytes = bytes;
    t->cap_Bps = cap;
    t->lat_s = lat;
    t->time_s = (cap > 0 ? bytes / cap : HUGE_VAL) + lat;
    t->out_s = t->in_s = t->time_s - lat;
    t->main_frac = 1.0;
    cr_str_copy(t->main_class, sizeof t->main_class, "");
    return t;
}

static const char *hw_name(cr_hw h)
{
    return h == CR_HW_NVLINK ? "scale-up" : h == CR_HW_PCI ? "pcie" : "network";
}

/* C(a, k) / C(e, k): the chance that k distinct experts drawn from e
 * all fall among a given a of them. */
static double all_among(double a, double e, int k)
{
    double p = 1;
    for (int i = 0; i < k && p > 0; i++)
        p *= a - i > 0 ? (a - i) / (e - i) : 0;
    return p;
}

/* An MoE dispatch's forced bytes across a cut of k of n ranks (cr_coll_req
 * moe_topk): tau = S / topk bytes of tokens a rank, experts spread evenly
 * (k E / n inside). Out: the cut's tokens with an expert outside, once
 * each; in: the others' tokens with an expert inside, once each (one copy
 * crosses, ranks on the far side relay it). With topk 1 this is the
 * all-to-all's k (n - k) / n S. The combine runs it backwards (partial
 * sums, one per token and side). */
static void moe_forced_bytes(const cr_coll_req *rq, double S, int n, int k, double *o, double *i)
{
    double e = rq->moe_experts, inside = e * k / n, tau = S / rq->moe_topk;
    double out = k * tau * (1 - all_among(inside, e, rq->moe_topk));
    double in = (n - k) * tau * (1 - all_among(e - inside, e, rq->moe_topk));
    *o = rq->moe_combine ? in : out;
    *i = rq->moe_combine ? out : in;
}

void cr_bound_eval(const cr_cuts *c, const cr_coll_req *rq, cr_coll_bound *out)
{
    cr_bound_eval_scaled(c, rq, NULL, NULL, out);
}

/* Link class of the cuts of one kind (the first class representative). */
static cr_hw kind_hw(const cr_cuts *c, int kind)
{
    for (int q = 0; q < c->n_classes; q++)
        if ((int)c->cuts[c->classes[q]].kind == kind)
            return c->cuts[c->classes[q]].hw;
    return kind == CR_CUT_NODE || kind == CR_CUT_LEAF || kind == CR_CUT_POD ? CR_HW_NET
                                                                            : CR_HW_NVLINK;
}

void cr_bound_eval_scaled(const cr_cuts *c, const cr_coll_req *rq,
                          const double hw_frac[CR_HW__COUNT], const double *hbm_Bps,
                          cr_coll_bound *out)
{
    memset(out, 0, sizeof *out);
    int n = c->n;
    double S = rq->bytes;
    cr_str_copy(out->binding, sizeof out->binding, "none");
    if (n < 1 || !(S > 0) || (n == 1 && rq->in_place))
        return; /* one rank in place: NCCL has nothing to do */
    int root = (rq->root >= 0 && rq->root < n) ? rq->root : 0;
    bool rooted = cr_coll_rooted(rq->coll);

    /* Per kind: the worst cut instance. Identical cuts share a class; the
     * root's own cut is evaluated on its own (its bytes differ). */
    for (int kind = 0; kind < CR_CUT__COUNT; kind++) {
        double best = -1, bb = 0, bc = 0, bto = 0, bti = 0;
        int bi = -1;
        int root_cut = rooted ? c->member_cut[root * CR_CUT__COUNT + kind] : -1;
        for (int q = -1; q < c->n_classes; q++) {
            int j = q < 0 ? root_cut : c->classes[q];
            /* the root's cut read as a non-root cut only when an identical
             * cut without the root exists */
            if (j < 0 || (q >= 0 && j == root_cut && c->class_count[q] == 1))
                continue;
            const cr_cut *cut = &c->cuts[j];
            if ((int)cut->kind != kind)
                continue;
            double ob, ib;
            cr_cut_forced_bytes(rq->coll, S, n, cut->k, q < 0, cut->ring_out, cut->ring_in, &ob,
                                &ib);
            if (rq->coll == CR_COLL_ALLTOALL && rq->moe_topk >= 2 &&
                rq->moe_experts >= rq->moe_topk)
                moe_forced_bytes(rq, S, n, cut->k, &ob, &ib);
            double fr = hw_frac ? hw_frac[cut->hw] : 1.0;
            double co = cut->out_Bps * fr, ci = cut->in_Bps * fr;
            double to = ob > 0 ? ob / co : 0, ti = ib > 0 ? ib / ci : 0;
            double tm = fmax(to, ti);
            if (tm > best) {
                best = tm;
                bi = j;
                bb = to >= ti ? ob : ib;
                bc = to >= ti ? co : ci;
                bto = to;
                bti = ti;
            }
        }
        if (bi >= 0 && bb > 0) {
            char where[48];
            cr_str_copy(where, sizeof where, c->cuts[bi].name);
            if (kind == CR_CUT_BISECTION)
                snprintf(where, sizeof where, "ranks split %d|%d", c->cuts[bi].k,
                         n - c->cuts[bi].k);
            cr_coll_term *tm = put_term(out, cr_cut_kind_name((cr_cut_kind)kind), where, bb, bc,
                                        kind == CR_CUT_GPU ? c->lat_cut_s : 0);
            if (tm) {
                tm->out_s = bto;
                tm->in_s = bti;
            }
            const cr_cut *ct = &c->cuts[bi];
            if (tm && ct->out_Bps > 0 && ct->hw_out_Bps > 0) {
                /* which share of the capacity is the dominant class (on an
                 * HGX GPU: NVLink 450 of 513 GB/s, the rest PCIe) */
                tm->main_frac = fmin(1.0, ct->hw_out_Bps / ct->out_Bps);
                cr_str_copy(tm->main_class, sizeof tm->main_class, hw_name(ct->hw));
            }
        }
    }

    /* Counting arguments over groups (doc/bounds.md 1.3): where no reducer
     * sits outside the groups, an allreduce moves 2(m-1) S across group
     * boundaries and a reducescatter (m-1) S (its combining steps alone);
     * where no switch multicasts, an allgather (m-1) S out of groups too.
     * Alone, a reducescatter's or allgather's count is the mean of what the
     * per-group cuts force in its busier direction; an operator that
     * chains phases sums each direction apart (ops.c), and there the
     * other direction's count is what keeps a reducescatter and an
     * allgather at 2(n-1)/n S each way on a box whose switches neither
     * reduce nor multicast (QA audit of 2026-12-06). */
    bool ar = rq->coll == CR_COLL_ALLREDUCE, rs = rq->coll == CR_COLL_REDUCESCATTER;
    if (ar || rs || rq->coll == CR_COLL_ALLGATHER) {
        int kinds[2] = {CR_CUT_GPU, CR_CUT_NODE};
        bool mcast = c->multicaster && rq->in_network;
        for (int q = 0; q < 2; q++) {
            int kind = kinds[q];
            if ((ar || rs) && c->reducer && rq->in_network && !c->agg_ok[kind])
                continue;
            if (!(ar || rs) && mcast) /* the allgather's cuts say it all */
                continue;
            double so = c->agg_out_Bps[kind], si = c->agg_in_Bps[kind];
            int m = c->agg_m[kind], covered = c->agg_covered[kind];
            /* groups must cover every rank for the count to hold */
            if (m < 2 || covered < n)
                continue;
            /* Each of the m-1 combining steps lands a value in a group and
             * leaves another; an allreduce's other m-1 groups receive the
             * result: 2(m-1) into groups, always. Out of groups too only
             * without multicast: a switch that replicates sends the result
             * once for all. */
            bool in_only = ar && mcast;
            double dir = in_only ? si : fmin(so, si);
            double fr = hw_frac ? hw_frac[kind_hw(c, kind)] : 1.0;
            double cap = dir / m * fr;
            double bytes = (ar ? 2.0 : 1.0) * (m - 1) / m * S;
            char name[48], where[48];
            snprintf(name, sizeof name, "%s:all", cr_cut_kind_name((cr_cut_kind)kind));
            snprintf(where, sizeof where, "mean of %d %s", m,
                     kind == CR_CUT_GPU ? "gpus" : "nodes");
            cr_coll_term *tm =
                put_term(out, name, where, bytes, cap, kind == CR_CUT_GPU ? c->lat_cut_s : 0);
            if (tm) {
                tm->in_s = si > 0 ? bytes / (si / m * fr) : HUGE_VAL;
                tm->out_s = in_only ? 0 : so > 0 ? bytes / (so / m * fr) : HUGE_VAL;
            }
        }
        if (ar)
            out->in_network = c->reducer && rq->in_network && !c->agg_ok[CR_CUT_GPU];
    }

    /* Memory: the worst rank. What the rank's caches can hold may have
     * stayed there since the previous call (nccl-tests and crbench reuse
     * their buffers): the warm floor of cr_mem_floor_s, its L2 (or
     * Infinity Cache) term where the model has that bandwidth. */
    {
        double worst = 0, wb = 0, wc = 0;
        int wi = -1;
        const char *wl = "hbm";
        /* One rank per memory class (its lowest that is not the root),
         * and the root: the same worst rank, ties to the lowest index, as
         * a scan of every rank finds. */
        for (int q = -1; q < c->n_mem; q++) {
            int i = q < 0 ? (rooted ? root : -1) : c->mem_first[q];
            if (q >= 0 && rooted && i == root)
                i = c->mem_second[q];
            if (i < 0)
                continue;
            double tot = cr_coll_hbm_bytes(rq->coll, S, n, rooted && i == root);
            double cap = hbm_Bps ? hbm_Bps[c->mem_of[i]] : c->hbm_Bps[i];
            const char *lv = "hbm";
            double tm = cr_mem_floor_s(&c->gspec[i], tot, false, cap, &lv);
            if (tm > worst || (tm == worst && tm > 0 && i < wi)) {
                worst = tm;
                wl = lv;
                wi = i;
                const cr_gpu_spec *g = &c->gspec[i];
                if (strcmp(lv, "l2") == 0) {
                    wb = tot;
                    wc = g->l2_Bps;
                } else if (strcmp(lv, "llc") == 0) {
                    wb = fmax(0, tot - c->l2_bytes[i]);
                    wc = g->llc_Bps;
                } else {
                    wb = fmax(0, tot - c->l2_bytes[i] - (g->llc_bytes > 0 ? g->llc_bytes : 0));
                    wc = cap;
                }
            }
        }
        if (wi >= 0) {
            char where[48];
            snprintf(where, sizeof where, "rank %d", wi);
            put_term(out, wl, where, wb, wc, 0);
        }
    }

    /* Unavoidable latency: the farthest data a rank depends on. */
    double lat = c->lat_ecc0_s;
    if (rooted) {
        /* the root's own search: the triangle inequality's floor from rank
         * 0's, max(d(0, root), ecc(0) - d(0, root)), is true but can rise
         * when a link gets faster (d(0, root) falls more than ecc(0); QA
         * audit of hardware monotonicity); it stays where memory ran out */
        lat = c->roots && c->roots->topo ? root_eccentricity_s(c, root) : -1;
        if (lat < 0) {
            double lr = c->lat0_s[root];
            lat = fmax(lr, c->lat_ecc0_s - lr);
        }
    } else if (rq->coll == CR_COLL_SENDRECV) {
        lat = fmax(c->lat0_s[1 % n], c->lat0_s[(n - 1) % n]);
    }
    out->lat_s = lat;

    out->bound_s = lat;
    cr_str_copy(out->binding, sizeof out->binding, "latency");
    snprintf(out->binding_where, sizeof out->binding_where, "rank %d", rooted ? root : 0);
    for (int j = 0; j < out->n_terms; j++)
        if (out->terms[j].time_s > out->bound_s) {
            out->bound_s = out->terms[j].time_s;
            cr_str_copy(out->binding, sizeof out->binding, out->terms[j].name);
            cr_str_copy(out->binding_where, sizeof out->binding_where, out->terms[j].where);
        }
    if (!(out->bound_s > 0)) {
        /* one rank whose buffers fit in L2: nothing forces HBM traffic and
         * no byte leaves the GPU (no L2 bandwidth figure bounds it) */
        cr_str_copy(out->binding, sizeof out->binding, "none");
        return;
    }
    out->algbw_Bps = S / out->bound_s;
    out->busbw_Bps = out->algbw_Bps * cr_coll_busbw_factor(rq->coll, n);
}
