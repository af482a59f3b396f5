/* SPDX-License-Identifier: MIT */
/*
 * Collectives: the evaluation context and the request dispatch (see
 * coll.h). The context gathers, once per (topology, rank set), the cuts
 * (bound.c) and the per-GPU and per-node figures the algorithms use
 * (algo.c), so that evaluating one size is a few hundred floating-point
 * operations plus one pass over the cuts.
 */
#include "sbuf.h"
#include "coll.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_priv.h"
#include "mech.h"
#include "nic.h"
#include "route.h"

static bool is_nvls_switch(const cr_topo *t, int v)
{
    const cr_dev *d = &t->devs[v];
    if (d->kind != CR_DEV_SWITCH || d->spec < 0)
        return false;
    const cr_switch_spec *s = &t->switch_specs[d->spec];
    return s->multicast && s->reduction;
}

/* Labels the devices reachable from src through links accepted by `ok`
 * (GPUs other than src forward nothing unless transit). Returns the number
 * of ranks of the set reached. mark[] receives `label`. */
static int reach(const cr_topo *t, int src, bool (*ok)(cr_link_kind), bool transit, int *mark,
                 int label, int *queue, const int *member_of_dev)
{
    int h = 0, tl = 0, found = 0;
    mark[src] = label;
    queue[tl++] = src;
    while (h < tl) {
        int v = queue[h++];
        if (member_of_dev[v] >= 0)
            found++;
        if (v != src && !cr_route_forwards(t, v, transit))
            continue;
        for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
            const cr_link *l = &t->links[t->adj[a]];
            if (!ok(l->kind))
                continue;
            int w = cr_link_other(l, v);
            if (mark[w] == label)
                continue;
            mark[w] = label;
            queue[tl++] = w;
        }
    }
    return found;
}

static int node_of_rank(const struct cr_coll_ctx *c, int i)
{
    return c->topo->devs[c->topo->gpus[c->ranks->ranks[i]]].node;
}

/* May ranks i and j (indices into the communicator) exchange data through
 * host memory? Ranks of one node that share no scale-up link; whether they
 * do is cr_route_pcie_peers' to say. */
static bool shm_candidate(const struct cr_coll_ctx *c, const int *domain, const double *up_out,
                          int i, int j)
{
    if (domain[i] == domain[j] && up_out[i] > 0)
        return false;
    return node_of_rank(c, i) == node_of_rank(c, j);
}

/* A rank and its node, sorted by node then rank (shm_rates). */
struct rank_at {
    int node, i;
};

static int cmp_rank_at(const void *pa, const void *pb)
{
    const struct rank_at *a = pa, *b = pb;
    return a->node != b->node ? (a->node > b->node) - (a->node < b->node) : a->i - b->i;
}

/* A rank's place in the ring's order (ring_order): its node's first rank,
 * its GPU, itself. */
struct ring_at {
    int first, gpu, i;
};

static int cmp_ring_at(const void *pa, const void *pb)
{
    const struct ring_at *a = pa, *b = pb;
    if (a->first != b->first)
        return (a->first > b->first) - (a->first < b->first);
    if (a->gpu != b->gpu)
        return (a->gpu > b->gpu) - (a->gpu < b->gpu);
    return (a->i > b->i) - (a->i < b->i);
}

/* The order of the ring's hops (shm_rates' ring and chain): the ranks'
 * own, or over two nodes or more of PCIe GPUs (no scale-up port), each
 * holding two ranks or more, NCCL's PCI order: the nodes in the order of
 * their first rank, each node's GPUs by their index in it, whatever the
 * ranks' order (src/graph/search.cc @v2.28.9-1 ncclTopoSearchRecNet,
 * FORCED_ORDER_PCI; the simulator's, flowsim_rings.c pci_order_setup).
 * The rank order gave ranks 0,4,1 of a node of good-pcie-nic-node.xml
 * without peer access one hop through host memory a direction on each
 * socket uplink where the PCI order 0,1,4 puts two on socket 0's (ring
 * allgather twice as fast as the simulator's, test_flowsim
 * test_ring_pci_order_any_rank_order). at: the ranks sorted by node, then
 * rank (shm_rates). Returns 1 where the PCI order applies, 0 where the
 * ranks' order stands, -1 when out of memory. */
static int ring_order(const struct cr_coll_ctx *c, const double *up_out, const struct rank_at *at,
                      int *ord)
{
    int n = c->n;
    bool pci = c->n_nodes > 1 && c->ppn_min >= 2;
    for (int i = 0; i < n && pci; i++)
        pci = !(up_out[i] > 0) && at[i].node >= 0;
    for (int i = 0; i < n; i++)
        ord[i] = i;
    if (!pci)
        return 0;
    struct ring_at *r = malloc((size_t)n * sizeof *r);
    if (!r)
        return -1;
    for (int k = 0, e; k < n; k = e) {
        for (e = k; e < n && at[e].node == at[k].node; e++)
            r[e] = (struct ring_at){at[k].i, c->ranks->ranks[at[e].i], at[e].i};
    }
    qsort(r, (size_t)n, sizeof *r, cmp_ring_at);
    for (int i = 0; i < n; i++)
        ord[i] = r[i].i;
    free(r);
    return 1;
}

/* Largest node whose every pair an all-to-all through host memory is
 * priced for (its pairs are k^2 hops): NCCL nodes hold 16 GPUs or fewer;
 * a larger flat PCIe topology keeps its cuts for the all-to-all. */
#define SHM_PAIRS_MAX_RANKS 64

/* The SHM rates (coll_priv.h): each pattern's hops that go through host
 * memory, all at once (cr_route_host_share_Bps). Pairs are looked for
 * inside each node only (SHM never leaves one): a large cluster costs its
 * nodes' pairs, not n^2. */
static cr_status shm_rates(struct cr_coll_ctx *c, const int *domain, const double *up_out)
{
    int n = c->n;
    c->shm = false;
    c->shm_ring_Bps = c->shm_chain_Bps = c->shm_pair_Bps = c->shm_tree_Bps = 0;
    c->shm_nccl_ring_Bps = 0;
    c->shm_ring_lat_s = c->shm_pair_lat_s = 0;
    c->shm_pair_peers = 0;
    if (n < 2)
        return CR_OK;
    struct rank_at *at = malloc((size_t)n * sizeof *at);
    int *in_node = malloc((size_t)n * sizeof *in_node);
    int *ord = malloc((size_t)n * sizeof *ord);
    int *src = NULL, *dst = NULL, *cnt = NULL;
    bool *peer = NULL;
    cr_status st = CR_OK;
    if (!at || !in_node || !ord) {
        st = CR_ENOMEM;
        goto out;
    }
    for (int i = 0; i < n; i++)
        at[i] = (struct rank_at){node_of_rank(c, i), i};
    qsort(at, (size_t)n, sizeof *at, cmp_rank_at);
    int pci = ring_order(c, up_out, at, ord);
    if (pci < 0) {
        st = CR_ENOMEM;
        goto out;
    }
    /* each node's run of ranks: its size, and the pairs to look at */
    size_t pairs = 0;
    bool any = false; /* a rank without scale-up ports, or a node of two domains */
    for (int r = 0, e; r < n; r = e) {
        for (e = r; e < n && at[e].node == at[r].node; e++)
            any |= !(up_out[at[e].i] > 0) || domain[at[e].i] != domain[at[r].i];
        for (int k = r; k < e; k++)
            in_node[at[k].i] = e - r;
        if (e - r <= SHM_PAIRS_MAX_RANKS)
            pairs += (size_t)(e - r) * (size_t)(e - r - 1);
    }
    if (!any) /* every NVLink box and cluster: nothing goes through host memory */
        goto out;
    size_t cap = pairs > 2 * (size_t)n ? pairs : 2 * (size_t)n;
    src = malloc(cap * sizeof *src);
    dst = malloc(cap * sizeof *dst);
    cnt = malloc(cap * sizeof *cnt);
    peer = malloc(cap * sizeof *peer);
    if (!src || !dst || !cnt || !peer) {
        st = CR_ENOMEM;
        goto out;
    }
    /* the ranks' ring (i -> i+1, the wrap too: a sendrecv's), the chain
     * (i -> i+1 in ring_order, no wrap), every pair, the two-way chain (i
     * -> i+1 and back: a tree's, whose hops carry its reduction up and its
     * broadcast down at once), NCCL's ring (in ring_order, the wrap too;
     * the ranks' ring where that is the same) */
    c->shm_nccl_ring_Bps = 0;
    for (int pattern = 0; pattern < 5 && st == CR_OK; pattern++) {
        int k = 0;
        if (pattern == 4 && !pci) {
            c->shm_nccl_ring_Bps = c->shm_ring_Bps;
            break;
        }
        if (pattern == 3) {
            for (int i = 0; i + 1 < n; i++)
                if (shm_candidate(c, domain, up_out, i, i + 1))
                    for (int dir = 0; dir < 2; dir++) {
                        src[k] = c->ranks->ranks[i + dir];
                        dst[k] = c->ranks->ranks[i + 1 - dir];
                        cnt[k++] = in_node[i];
                    }
        } else if (pattern != 2) {
            for (int h = 0; h < n - (pattern == 1); h++) {
                int i = pattern == 0 ? h : ord[h],
                    j = pattern == 0 ? (h + 1) % n : ord[(h + 1) % n];
                if (shm_candidate(c, domain, up_out, i, j)) {
                    src[k] = c->ranks->ranks[i];
                    dst[k] = c->ranks->ranks[j];
                    cnt[k++] = in_node[i];
                }
            }
        } else {
            for (int r = 0, e; r < n; r = e) {
                for (e = r; e < n && at[e].node == at[r].node; e++)
                    ;
                if (e - r > SHM_PAIRS_MAX_RANKS)
                    continue;
                for (int x = r; x < e; x++)
                    for (int y = r; y < e; y++)
                        if (x != y && shm_candidate(c, domain, up_out, at[x].i, at[y].i)) {
                            src[k] = c->ranks->ranks[at[x].i];
                            dst[k] = c->ranks->ranks[at[y].i];
                            cnt[k++] = in_node[at[x].i];
                        }
            }
        }
        if (k == 0)
            continue;
        if ((st = cr_route_pcie_peers(c->topo, src, dst, cnt, k, peer)) != CR_OK)
            break;
        int m = 0; /* keep the hops through host memory */
        for (int h = 0; h < k; h++)
            if (!peer[h]) {
                src[m] = src[h];
                dst[m++] = dst[h];
            }
        double *r = pattern == 0   ? &c->shm_ring_Bps
                    : pattern == 1 ? &c->shm_chain_Bps
                    : pattern == 2 ? &c->shm_pair_Bps
                    : pattern == 3 ? &c->shm_tree_Bps
                                   : &c->shm_nccl_ring_Bps;
        /* every pair: the most of them one rank sends through host memory
         * (hops in src order, a rank's together: at[] runs node by node) */
        for (int h = 0, run = 0; pattern == 2 && h < m; h++) {
            run = h > 0 && src[h] == src[h - 1] ? run + 1 : 1;
            if (run > c->shm_pair_peers)
                c->shm_pair_peers = run;
        }
        if (m > 0) {
            c->shm = true;
            st = cr_route_host_share_Bps(c->topo, src, dst, m, r,
                                         pattern == 0   ? &c->shm_ring_lat_s
                                         : pattern == 2 ? &c->shm_pair_lat_s
                                                        : NULL);
        }
    }
out:
    free(at);
    free(in_node);
    free(ord);
    free(src);
    free(dst);
    free(cnt);
    free(peer);
    return st;
}

static bool not_nic(cr_link_kind k)
{
    return !cr_route_network(k);
}

/* What GPU rank g's own host links (PCIe, C2C) carry out of it, the least
 * of the two directions: its way to a NIC. PCIe links count at pcie_scale
 * of their rate: 1, or NCCL's own figure (nccl_pcie_scale). */
static double gpu_host_Bps(const cr_topo *t, int g, double pcie_scale)
{
    int v = t->gpus[g];
    double out = 0, in = 0;
    for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
        const cr_link *l = &t->links[t->adj[k]];
        if (!cr_route_host(l->kind))
            continue;
        double f = l->kind == CR_LINK_PCIE ? pcie_scale : 1.0;
        out += f * cr_link_bw_from(l, v);
        in += f * cr_link_bw_from(l, cr_link_other(l, v));
    }
    return fmin(out, in);
}

/* PCIe as NCCL's topology counts it: width x the generation's figure / 80
 * (src/graph/topo.cc @v2.28.9-1 lines 423-425, 491: Gen4 x16 24, Gen5 x16
 * 48 GB/s), 48/63 of the raw rate the topology gives. */
static const double nccl_pcie_scale = 48.0 / 63.0;

/* What the channels of a ring or tree cross the node boundaries with
 * (coll_priv.h net_ring_Bps, rail_nic_Bps; node_cut: each node's egress).
 * Channel c crosses a node on its rail ranks, members c and c + 1 of the
 * smallest node's net_rails (flowsim_rings.c flowsim_ring_order; with one
 * rail the node's first member in and its last out), so a node's egress
 * is shared by the rails that cross it, min(net_rails, its ranks), not by
 * all its ranks: each node searches its own graph, and NCCL's search
 * charges each ring or tree channel's bwInter once against the NIC it
 * crosses, however many of the node's ranks reach that NIC
 * (src/graph/search.cc ncclTopoSearchRecNet, net.bw -= bw, v2.28.9-1;
 * the communicator keeps the least channels and bwInter of the nodes'
 * graphs, src/init.cc AllGather3). A rank's slice of its node's egress
 * over all the node's ranks (pair_net_Bps, point-to-point's figure), the
 * least over the nodes, gave a ring on --rails 1 nodes of
 * good-pcie-nic-node.xml holding 2, 2, 1 and 1 ranks (one rail) half the
 * one NIC the two-rank nodes share: 12.5 GB/s, sim/pr 0.84 at 256 MiB on
 * ranks 0,5,9,14,18,27 (QA audit of PCIe clusters, item (4)). On nodes
 * holding the same ranks the rails are the ranks and nothing moves. And
 * the rails' channels cross on their ranks' distinct NICs, no more than
 * those together (rail_nic_Bps[j], the first j + 1 rails, the least over
 * the nodes): two rails of a node both on one NIC share it. */
static cr_status rail_figures(cr_coll_ctx *c, const double *node_cut, const int *own_of,
                              const double *own_Bps, cr_diag *d)
{
    int R = c->net_rails, nn = c->rail_nodes, n = c->n;
    size_t cells = (size_t)nn * (size_t)R;
    double *nic = calloc(cells, sizeof *nic);
    int *on = calloc((size_t)nn, sizeof *on), *pos = calloc((size_t)nn, sizeof *pos);
    char *seen = calloc((size_t)c->n_nic_grps + 1, 1);
    c->rail_nic_Bps = malloc((size_t)R * sizeof *c->rail_nic_Bps);
    cr_status st = CR_OK;
    if (!nic || !on || !pos || !seen || !c->rail_nic_Bps) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++)
        on[c->rank_node[i]]++;
    c->net_ring_Bps = HUGE_VAL;
    c->net_ring_hw = c->nic_node_hw;
    for (int i = 0; i < n; i++) {
        int x = c->rank_node[i], p = pos[x]++;
        /* the node's egress over its rails; a rank's own NICs where less */
        double share = node_cut[x] / (on[x] < R ? on[x] : R);
        bool own_binds = own_of[i] > 0 && own_Bps[i] < share;
        double fig = own_binds ? own_Bps[i] : share;
        if (fig < c->net_ring_Bps) {
            c->net_ring_Bps = fig;
            c->net_ring_hw = own_binds ? CR_HW_NET : c->nic_node_hw;
        }
        /* the rail ranks in the simulator's member order (the op's) */
        int j = p < R ? p : (R == 1 && p == on[x] - 1) ? 0 : -1;
        if (j < 0)
            continue;
        int g = c->rank_nic_grp[i];
        size_t k = (size_t)x * (size_t)R + (size_t)j;
        if (g < 0)
            nic[k] = HUGE_VAL; /* no NIC near: its share above */
        else if (!seen[g]) {   /* each NIC group once (a flag: a count would wrap) */
            seen[g] = 1;
            nic[k] += c->nic_grp_Bps[g];
        }
    }
    for (int j = 0; j < R; j++)
        c->rail_nic_Bps[j] = HUGE_VAL;
    for (int x = 0; x < nn; x++)
        for (int j = 0; j < R && on[x] > 0; j++) {
            size_t k = (size_t)x * (size_t)R + (size_t)j;
            if (j > 0) /* the first j + 1 rails together */
                nic[k] += nic[k - 1];
            c->rail_nic_Bps[j] = fmin(c->rail_nic_Bps[j], nic[k]);
        }
out:
    free(nic);
    free(on);
    free(pos);
    free(seen);
    return st;
}

/* Each rank's NIC figure (coll_priv.h rank_net_Bps): the NICs NCCL gives
 * it (nic.c, the simulator's rule: its share of its nearest NICs among the
 * ranks as near, from its index in the node on), at most its slice of what
 * the node's ranks move out (pair_net_Bps: their own host links where those
 * bind); a rank with no NIC near it keeps that slice. Also the rails a
 * ring or tree channel crosses nodes on (net_rails) and what it crosses
 * them with (rail_figures). */
static cr_status rank_nics(cr_coll_ctx *c, const int *node_first, const double *node_cut,
                           cr_diag *d)
{
    const cr_topo *t = c->topo;
    int n = c->n;
    cr_nic_map *m = cr_nic_map_new(t);
    uint64_t *member = calloc((size_t)t->n_gpus / 64 + 1, sizeof *member);
    unsigned char *share = calloc((size_t)t->n_gpus + 1, 1);
    int *scratch = calloc((size_t)t->n_devs + 1, sizeof *scratch);
    int *own_k = malloc((size_t)n * sizeof *own_k);
    double *own_v = malloc((size_t)n * sizeof *own_v);
    c->rank_net_Bps = malloc((size_t)n * sizeof *c->rank_net_Bps);
    c->rank_net_hw = malloc((size_t)n * sizeof *c->rank_net_hw);
    c->rank_own_Bps = malloc((size_t)n * sizeof *c->rank_own_Bps);
    c->rank_own_hw = malloc((size_t)n * sizeof *c->rank_own_hw);
    c->rank_nic_grp = malloc((size_t)n * sizeof *c->rank_nic_grp);
    c->nic_grp_Bps = malloc((size_t)n * sizeof *c->nic_grp_Bps);
    cr_status st = CR_OK;
    if (!m || !member || !share || !scratch || !own_k || !own_v || !c->rank_net_Bps ||
        !c->rank_net_hw || !c->rank_own_Bps || !c->rank_own_hw || !c->rank_nic_grp ||
        !c->nic_grp_Bps) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++)
        member[c->ranks->ranks[i] >> 6] |= (uint64_t)1 << (c->ranks->ranks[i] & 63);
    cr_nic_shares(m, member, share, scratch);
    c->net_ch_Bps = HUGE_VAL;
    c->nic_one_Bps = HUGE_VAL;
    c->nic_path_Bps = HUGE_VAL;
    c->n_nic_grps = 0;
    for (int i = 0; i < n; i++) {
        /* the NICs by the GPU's index in its topology node (nic.c, as the
         * simulator picks them), which rank_local is but across NVLink
         * domains (build_rails) */
        int g = c->ranks->ranks[i], pick[256];
        int k = cr_nic_pick(m, g, g - node_first[t->devs[t->gpus[g]].node], share[g], pick);
        double own = 0, nccl_host = gpu_host_Bps(t, g, nccl_pcie_scale);
        for (int q = 0; q < k; q++) {
            double one = cr_nic_net_Bps(t, pick[q]);
            own += one;
            c->nic_one_Bps = fmin(c->nic_one_Bps, one);
            c->nic_path_Bps = fmin(c->nic_path_Bps, fmin(one, nccl_host));
        }
        own_k[i] = k;
        own_v[i] = own;
        bool nic_binds = k > 0 && own < c->pair_net_Bps;
        c->rank_net_Bps[i] = nic_binds ? own : c->pair_net_Bps;
        c->rank_net_hw[i] = nic_binds ? CR_HW_NET : c->nic_node_hw;
        /* by NIC: the rank's own NICs up to its GPU's host links, and its
         * group, the ranks whose picks begin with the same NIC (scratch,
         * all 0 after cr_nic_shares: group + 1 per NIC device) */
        double host = gpu_host_Bps(t, g, 1.0);
        bool own_binds = k > 0 && own <= host;
        c->rank_own_Bps[i] = k == 0 ? c->pair_net_Bps : own_binds ? own : host;
        c->rank_own_hw[i] = k == 0 ? c->nic_node_hw : own_binds ? CR_HW_NET : CR_HW_PCI;
        c->rank_nic_grp[i] = -1;
        if (k > 0) {
            if (scratch[pick[0]] == 0) {
                c->nic_grp_Bps[c->n_nic_grps] = own;
                scratch[pick[0]] = ++c->n_nic_grps;
            }
            c->rank_nic_grp[i] = scratch[pick[0]] - 1;
        }
        if (c->rank_net_Bps[i] < c->net_ch_Bps) {
            c->net_ch_Bps = c->rank_net_Bps[i];
            c->net_ch_hw = c->rank_net_hw[i];
        }
    }
    /* no rank picked a NIC: a channel crosses at a rank's own figure */
    if (!isfinite(c->nic_one_Bps))
        c->nic_one_Bps = c->net_ch_Bps;
    if (!isfinite(c->nic_path_Bps))
        c->nic_path_Bps = c->nic_one_Bps;
    /* NCCL's rail-aligned rings and trees (and the simulator's) cross node
     * boundaries on rails c, c+1, ... per channel c, each node on its own
     * ranks' NICs. Nodes holding different numbers of ranks each search
     * their own graph and keep the fewest channels of any (src/init.cc,
     * AllGather3: nChannels and bwInter are the minimum over the ranks'
     * graphs), so the rails are the smallest node's ranks; a node of one
     * rank leaves by that rank alone */
    c->net_rails = c->ppn_min >= 2 ? c->ppn_min : 1;
    st = rail_figures(c, node_cut, own_k, own_v, d);
out:
    cr_nic_map_free(m);
    free(own_k);
    free(own_v);
    free(member);
    free(share);
    free(scratch);
    return st;
}

/* Each rank's node and local index (its place among the node's GPUs in
 * topology order, the NIC rail it sits on), the rank at each (node, local
 * index), and a rank's share of its node's network capacity, for NCCL's
 * point-to-point across nodes (coll_priv.h, doc/bounds.md 2.2.4).
 * domain: each rank's NCCL node where that is its scale-up domain (mnnvl:
 * GB200 NVL72 racks, whose trays are the topology's nodes), the ranks'
 * rails then counted from each domain's first rank: a message between two
 * trays of one rack crosses NVLink, not a NIC, and PXN relays through the
 * sender's rack-mate on the receiver's rail. */
static cr_status build_rails(cr_coll_ctx *c, const int *domain, bool mnnvl, int n_domains,
                             cr_diag *d)
{
    const cr_topo *t = c->topo;
    int n = c->n, nt = t->n_nodes;
    c->pair_net_Bps = 0;
    c->net_ch_Bps = 0;
    c->nic_one_Bps = 0;
    c->nic_path_Bps = 0;
    c->net_rails = 0;
    c->node_slots = 0;
    for (int g = 0; g < t->n_gpus; g++) /* node numbers as bound.c counts them */
        if (t->devs[t->gpus[g]].node + 1 > nt)
            nt = t->devs[t->gpus[g]].node + 1;
    int nn = mnnvl ? n_domains : nt;
    for (int i = 0; i < n; i++)
        if (t->devs[t->gpus[c->ranks->ranks[i]]].node < 0)
            nn = 0; /* a rank outside every node: no rails */
    if (c->n_nodes < 2 || !(c->nic_node_Bps > 0) || nn < 1)
        return CR_OK;
    /* each topology node's first GPU rank (a GPU's index in its node picks
     * its NICs), and each NCCL node's: the same, or a domain's first rank */
    double *node_cut = NULL;
    int *node_first = malloc((size_t)nt * sizeof *node_first);
    int *first = mnnvl ? malloc((size_t)nn * sizeof *first) : node_first;
    c->rank_node = malloc((size_t)n * sizeof *c->rank_node);
    c->rank_local = malloc((size_t)n * sizeof *c->rank_local);
    cr_status st = CR_OK;
    if (!node_first || !first || !c->rank_node || !c->rank_local) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int x = 0; x < nt; x++)
        node_first[x] = -1;
    for (int g = 0; g < t->n_gpus; g++) {
        int x = t->devs[t->gpus[g]].node;
        if (x >= 0 && node_first[x] < 0)
            node_first[x] = g;
    }
    for (int x = 0; x < nn && mnnvl; x++)
        first[x] = -1;
    for (int i = 0; i < n && mnnvl; i++) {
        int g = c->ranks->ranks[i], x = domain[i];
        if (first[x] < 0 || g < first[x])
            first[x] = g;
    }
    int slots = 1;
    for (int i = 0; i < n; i++) {
        int g = c->ranks->ranks[i], x = mnnvl ? domain[i] : t->devs[t->gpus[g]].node;
        c->rank_node[i] = x;
        c->rank_local[i] = g - first[x];
        if (c->rank_local[i] + 1 > slots)
            slots = c->rank_local[i] + 1;
    }
    c->node_rank = malloc((size_t)nn * (size_t)slots * sizeof *c->node_rank);
    if (!c->node_rank) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int k = 0; k < nn * slots; k++)
        c->node_rank[k] = -1;
    for (int i = 0; i < n; i++)
        c->node_rank[c->rank_node[i] * slots + c->rank_local[i]] = i;
    c->node_slots = slots;
    c->rail_nodes = nn;
    /* ncclTopoGetLocalNet (src/graph/topo.cc): a GPU's NICs are the nearest
     * ones, shared by the ranks as near, DIVUP(local NICs, local GPUs) each:
     * one NIC per GPU on a DGX H100 with eight ranks a node, the NICs behind
     * its own PCIe link with one rank a node. nic_node_Bps already takes the
     * lesser of the NICs and the ranks' own host links (bound.c member_flow).
     * A rank's slice is its own node's egress over that node's ranks, the
     * least over the nodes: nodes holding different numbers of ranks leave
     * on their own NICs (nic_node_Bps / ppn gave 8 + 2 ranks of h100-ib-4n
     * 126 / 5 GB/s a rank where the two ranks' PCIe links give 63 each) */
    c->pair_net_Bps = c->nic_node_Bps / c->ppn;
    /* each node's egress (rail_figures): its cut, or on an NCCL node of
     * several topology nodes (MNNVL) its ranks' slices */
    int *on = calloc((size_t)nn, sizeof *on);
    node_cut = malloc((size_t)nn * sizeof *node_cut);
    if (!on || !node_cut) {
        free(on);
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++)
        on[c->rank_node[i]]++;
    for (int x = 0; x < nn; x++)
        node_cut[x] = HUGE_VAL;
    if (!mnnvl) {
        double slice = HUGE_VAL;
        for (int j = 0; j < c->cuts->n_cuts; j++) {
            const cr_cut *cut = &c->cuts->cuts[j];
            if (cut->kind == CR_CUT_NODE && cut->id >= 0 && cut->id < nn && on[cut->id] > 0) {
                double e = fmin(cut->out_Bps, cut->in_Bps);
                slice = fmin(slice, e / on[cut->id]);
                node_cut[cut->id] = fmin(node_cut[cut->id], e);
            }
        }
        if (isfinite(slice))
            c->pair_net_Bps = slice;
    }
    for (int x = 0; x < nn; x++)
        if (!isfinite(node_cut[x]))
            node_cut[x] = c->pair_net_Bps * on[x];
    free(on);
    st = rank_nics(c, node_first, node_cut, d);
out:
    free(node_cut);
    if (first != node_first)
        free(first);
    free(node_first);
    return st;
}

/* What an NCCL node that is a scale-up domain of several topology nodes
 * (MNNVL) moves out of itself: its nodes' NIC cuts (bound.c, CR_CUT_NODE,
 * id = the node) together, the least over the communicator's domains
 * (domain[i]: rank i's); 0 on no memory or where no cut is known. */
static double domain_nic_Bps(const struct cr_coll_ctx *c, const int *domain, int n_domains)
{
    int nodes = 0;
    for (int i = 0; i < c->n; i++)
        if (node_of_rank(c, i) + 1 > nodes)
            nodes = node_of_rank(c, i) + 1;
    int *dom_of = malloc(((size_t)nodes + 1) * sizeof *dom_of);
    double *sum = calloc((size_t)n_domains + 1, sizeof *sum);
    double least = HUGE_VAL;
    if (dom_of && sum) {
        for (int x = 0; x < nodes; x++)
            dom_of[x] = -1;
        for (int i = 0; i < c->n; i++)
            if (node_of_rank(c, i) >= 0)
                dom_of[node_of_rank(c, i)] = domain[i];
        for (int j = 0; j < c->cuts->n_cuts; j++) {
            const cr_cut *cut = &c->cuts->cuts[j];
            if (cut->kind == CR_CUT_NODE && cut->id >= 0 && cut->id < nodes && dom_of[cut->id] >= 0)
                sum[dom_of[cut->id]] += fmin(cut->out_Bps, cut->in_Bps);
        }
        for (int g = 0; g < n_domains; g++)
            if (sum[g] > 0)
                least = fmin(least, sum[g]);
    }
    free(dom_of);
    free(sum);
    return isfinite(least) ? least : 0;
}

/* NCCL's CPU vendor for its tuning (comm->cpuVendor): AMD where every CPU
 * of the topology that names a vendor says AMD, a mix where some say AMD
 * and others not, else x86 Intel (also where none names one: NCCL's
 * default figures). tuning.cc @v2.28.9 getNetOverhead: 2 us AMD, 1 us
 * otherwise; llMaxBws across nodes: the AMD row for AMD or a mix. */
static void cpu_vendor(const cr_topo *t, bool *amd, bool *amd_row)
{
    int n_amd = 0, n_other = 0;
    for (int v = 0; v < t->n_devs; v++)
        if (t->devs[v].kind == CR_DEV_CPU && t->devs[v].spec >= 0) {
            if (t->devs[v].spec == CR_CPU_AMD)
                n_amd++;
            else
                n_other++;
        }
    *amd = n_amd > 0 && n_other == 0;
    *amd_row = n_amd > 0;
}

/* Whether GPU device v's NVLS switches are exactly those marked with
 * label in mark[] (k of them): stamp[] (one per device) tells a switch
 * reached by several links once. */
static bool same_nvls_set(const cr_topo *t, int v, const int *mark, int label, int k, int *stamp)
{
    int hit = 0;
    for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
        int w = cr_link_other(&t->links[t->adj[a]], v);
        if (!is_nvls_switch(t, w))
            continue;
        if (mark[w] != label)
            return false;
        if (stamp[w] != v + 1) {
            stamp[w] = v + 1;
            hit++;
        }
    }
    return hit == k;
}

/* Marks GPU device v's NVLS switches with label; returns how many. */
static int mark_nvls_set(const cr_topo *t, int v, int *mark, int label)
{
    int k = 0;
    for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
        int w = cr_link_other(&t->links[t->adj[a]], v);
        if (is_nvls_switch(t, w) && mark[w] != label) {
            mark[w] = label;
            k++;
        }
    }
    return k;
}

/* NVLS reduces and multicasts inside the switches every GPU of the
 * domain is wired to (HGX: each GPU to all four NVSwitch chips; NVL72: to
 * all eighteen), on Hopper or later (multimem needs sm_90). Ranks on
 * different switches joined by switch-to-switch links are no such domain
 * (one switch's reduction would miss the other's GPUs: the simulator came
 * out under the bound), nor is a group with an Ampere GPU. Each rank's
 * NVLS switches must be rank 0's (nvls) and its node's first rank's
 * (nvls_node). mark[] and stamp[] (one per device, scratch) are left -1. */
static void nvls_same_switches(cr_coll_ctx *c, int *mark, int *stamp)
{
    const cr_topo *t = c->topo;
    int n = c->n, nd = t->n_devs;
    for (int v = 0; v < nd; v++)
        mark[v] = stamp[v] = -1;
    for (int i = 0; i < n; i++) {
        const cr_gpu_spec *g = cr_topo_gpu_spec(t, c->ranks->ranks[i]);
        if (g && g->arch > 0 && g->arch < 90)
            c->nvls = c->nvls_node = false;
    }
    if (c->nvls) {
        int v0 = t->gpus[c->ranks->ranks[0]];
        int k0 = mark_nvls_set(t, v0, mark, 0);
        for (int i = 1; i < n && c->nvls; i++)
            c->nvls = same_nvls_set(t, t->gpus[c->ranks->ranks[i]], mark, 0, k0, stamp);
        for (int v = 0; v < nd; v++)
            mark[v] = stamp[v] = -1;
    }
    int node = INT_MIN, ref = -1, k = 0;
    for (int i = 0; i < n && c->nvls_node; i++) {
        int v = t->gpus[c->ranks->ranks[i]];
        if (i == 0 || t->devs[v].node != node) { /* a node's first rank: the set */
            node = t->devs[v].node;
            ref = i + 1;
            k = mark_nvls_set(t, v, mark, ref);
        } else {
            c->nvls_node = same_nvls_set(t, v, mark, ref, k, stamp);
        }
    }
    for (int v = 0; v < nd; v++)
        mark[v] = stamp[v] = -1;
}

static cr_status build_figures(cr_coll_ctx *c, cr_diag *d)
{
    const cr_topo *t = c->topo;
    int n = c->n, nd = t->n_devs;
    bool transit = cr_route_transit(t);
    int *member_of_dev = malloc((size_t)nd * sizeof *member_of_dev);
    int *mark = malloc((size_t)nd * sizeof *mark);
    int *queue = malloc((size_t)nd * sizeof *queue);
    int *domain = malloc((size_t)n * sizeof *domain);
    double *up_out = malloc((size_t)n * sizeof *up_out), *up_in = malloc((size_t)n * sizeof *up_in);
    double *all_out = malloc((size_t)n * sizeof *all_out),
           *all_in = malloc((size_t)n * sizeof *all_in);
    cr_status st = CR_OK;
    if (!member_of_dev || !mark || !queue || !domain || !up_out || !up_in || !all_out || !all_in) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int v = 0; v < nd; v++) {
        member_of_dev[v] = -1;
        mark[v] = -1;
    }
    for (int i = 0; i < n; i++)
        member_of_dev[t->gpus[c->ranks->ranks[i]]] = i;

    /* Ports per rank; NVLS reach. */
    c->up_Bps = HUGE_VAL;
    c->gpu_Bps = HUGE_VAL;
    c->nvls = n > 1;
    c->nvls_node = n > 1;
    c->nvls_Bps = HUGE_VAL;
    double reduce_sum = 0;
    bool reduce_limited = true;
    for (int i = 0; i < n; i++) {
        int v = t->gpus[c->ranks->ranks[i]];
        up_out[i] = up_in[i] = all_out[i] = all_in[i] = 0;
        double nv = 0;
        bool nv_in_node = false;
        for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
            const cr_link *l = &t->links[t->adj[a]];
            int w = cr_link_other(l, v);
            double o = cr_link_bw_from(l, v), in = cr_link_bw_from(l, w);
            all_out[i] += o;
            all_in[i] += in;
            /* a scale-up link to a GPU outside the communicator carries
             * none of its bytes where GPUs do not relay (doc/bounds.md 1.9,
             * the simulator's rule): on a mesh (MI300X's XGMI) a subset's
             * rank reaches its peers by the links to them alone */
            if (cr_route_scaleup(l->kind) &&
                (transit || t->devs[w].kind != CR_DEV_GPU || member_of_dev[w] >= 0)) {
                up_out[i] += o;
                up_in[i] += in;
            }
            if (is_nvls_switch(t, w)) {
                nv += fmin(o, in);
                if (t->devs[w].node >= 0 && t->devs[w].node == t->devs[v].node)
                    nv_in_node = true;
                if (i == 0) {
                    double r = t->switch_specs[t->devs[w].spec].reduce_Bps;
                    if (r > 0)
                        reduce_sum += r;
                    else
                        reduce_limited = false;
                }
            }
        }
        c->up_Bps = fmin(c->up_Bps, fmin(up_out[i], up_in[i]));
        c->gpu_Bps = fmin(c->gpu_Bps, fmin(all_out[i], all_in[i]));
        if (nv <= 0) {
            c->nvls = false;
            c->nvls_node = false;
        }
        if (!nv_in_node)
            c->nvls_node = false;
        c->nvls_Bps = fmin(c->nvls_Bps, nv);
    }
    if (!isfinite(c->nvls_Bps))
        c->nvls_Bps = 0;
    c->nvls_reduce_Bps = reduce_limited && reduce_sum > 0 ? reduce_sum : HUGE_VAL;
    nvls_same_switches(c, mark, queue);

    /* Scale-up domains of the ranks. */
    int n_domains = 0;
    for (int i = 0; i < n; i++) {
        int v = t->gpus[c->ranks->ranks[i]];
        if (mark[v] >= 0) {
            domain[i] = mark[v];
            continue;
        }
        reach(t, v, cr_route_scaleup, transit, mark, n_domains, queue, member_of_dev);
        domain[i] = n_domains++;
    }
    c->one_domain = n_domains == 1 && c->up_Bps > 0;
    if (c->up_Bps <= 0 || !isfinite(c->up_Bps))
        c->up_Bps = 0;
    for (int v = 0; v < nd; v++)
        mark[v] = -1;
    c->peer =
        reach(t, t->gpus[c->ranks->ranks[0]], not_nic, transit, mark, 0, queue, member_of_dev) == n;

    c->n_nodes = c->one_domain ? 1 : c->cuts->n_member_nodes;
    if (c->n_nodes < 1)
        c->n_nodes = 1;
    /* A scale-up domain of several topology nodes (GB200 NVL72: 18 trays
     * of 4 GPUs on one NVLink fabric) is one node to NCCL (MNNVL: a clique
     * of hosts on one NVLink domain): its ranks, and rings and trees
     * leave it on as many NICs as its GPUs hold */
    bool mnnvl = n_domains > 1 && n_domains < c->n_nodes && c->up_Bps > 0;
    if (mnnvl)
        c->n_nodes = n_domains;
    c->ppn = (n + c->n_nodes - 1) / c->n_nodes;
    /* the fewest ranks any node holds (NCCL's node: the scale-up domain when
     * it spans every rank, else the topology's node replica) */
    c->ppn_min = n;
    if (c->n_nodes > 1) {
        for (int v = 0; v < nd; v++)
            mark[v] = 0;
        for (int i = 0; i < n; i++) {
            int node = mnnvl ? domain[i] : node_of_rank(c, i);
            if (node >= 0 && node < nd)
                mark[node]++;
        }
        /* the largest node sets a chain's length (a tree's depth, the
         * GPUs a chain moves 2S through): the mean rounded up gave 8 + 2
         * ranks a chain of 5 where the simulator's runs through 8 */
        for (int v = 0; v < nd; v++) {
            if (mark[v] > 0 && mark[v] < c->ppn_min)
                c->ppn_min = mark[v];
            if (mark[v] > c->ppn)
                c->ppn = mark[v];
        }
        /* each NCCL node's ranks, nodes by their first rank */
        c->node_ranks = mnnvl ? NULL : calloc((size_t)c->n_nodes, sizeof *c->node_ranks);
        if (!mnnvl && !c->node_ranks) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        for (int v = 0; v < nd && c->node_ranks; v++)
            mark[v] = -1;
        int k = 0;
        for (int i = 0; i < n && c->node_ranks; i++) {
            int node = node_of_rank(c, i);
            if (node < 0 || node >= nd || (mark[node] < 0 && k == c->n_nodes)) {
                free(c->node_ranks); /* a rank outside NCCL's nodes: no figure */
                c->node_ranks = NULL;
                break;
            }
            if (mark[node] < 0)
                mark[node] = k++;
            c->node_ranks[mark[node]]++;
        }
    }
    c->intra_hw = c->up_Bps > 0 ? CR_HW_NVLINK : CR_HW_PCI;
    c->pair_up_Bps = 0;
    for (int i = 1; i < n && c->up_Bps > 0; i++)
        if (node_of_rank(c, 0) == node_of_rank(c, i)) {
            c->pair_up_Bps = cr_route_ecmp_Bps(t, c->ranks->ranks[0], c->ranks->ranks[i],
                                               CR_ROUTE_SCALEUP_KINDS);
            if (c->pair_up_Bps < 0) { /* not "no path" (QA audit of allocation failures) */
                st = cr_diag_set(d, CR_ENOMEM, "out of memory");
                goto out;
            }
            break;
        }
    if (!c->nvls || c->n_nodes > 1)
        c->nvls = c->nvls && c->one_domain;

    /* The rank-order ring: each hop inside a scale-up domain runs at the
     * ports of that fabric (NCCL spreads channels over every link and
     * switch), other hops at the GPU's ports; every cut it crosses c times
     * divides that cut's capacity by c. */
    c->ring_Bps = HUGE_VAL;
    c->ring_hw = c->intra_hw;
    for (int h = 0; h < CR_HW__COUNT; h++)
        c->ring_class_Bps[h] = HUGE_VAL;
    for (int i = 0; i < n && n > 1; i++) {
        int j = (i + 1) % n;
        bool up = domain[i] == domain[j] && up_out[i] > 0 && up_in[j] > 0;
        double hop = up ? fmin(up_out[i], up_in[j]) : fmin(all_out[i], all_in[j]);
        cr_hw hw = domain[i] == domain[j] && up_out[i] > 0 ? CR_HW_NVLINK : CR_HW_PCI;
        c->ring_class_Bps[hw] = fmin(c->ring_class_Bps[hw], hop);
        if (hop < c->ring_Bps) {
            c->ring_Bps = hop;
            c->ring_hw = hw;
        }
    }
    cpu_vendor(t, &c->cpu_amd, &c->cpu_amd_row);
    c->nic_via_cpu = c->nic_via_c2c = false; /* read only across nodes (algo.c nccl_enabled) */
    if (c->n_nodes > 1)
        cr_route_nic_path(t, c->ranks->ranks[0], &c->nic_via_cpu, &c->nic_via_c2c);
    if ((st = shm_rates(c, domain, up_out)) != CR_OK) {
        st = cr_diag_set(d, st, "out of memory");
        goto out;
    }
    c->nic_node_Bps = 0;
    c->nic_node_hw = CR_HW_NET;
    double nic_min = HUGE_VAL;
    for (int j = 0; j < c->cuts->n_cuts; j++) {
        const cr_cut *cut = &c->cuts->cuts[j];
        if (cut->kind == CR_CUT_GPU)
            continue;
        if (cut->kind == CR_CUT_NODE && fmin(cut->out_Bps, cut->in_Bps) < nic_min) {
            nic_min = fmin(cut->out_Bps, cut->in_Bps);
            c->nic_node_hw = cut->hw == CR_HW_PCI ? CR_HW_PCI : CR_HW_NET;
        }
        double r = HUGE_VAL;
        if (cut->ring_out > 0)
            r = fmin(r, cut->out_Bps / cut->ring_out);
        if (cut->ring_in > 0)
            r = fmin(r, cut->in_Bps / cut->ring_in);
        /* a bisection's class is a guess (scale-up on one node, network
         * across nodes: bound.c), a PCIe box's included; it binds through
         * ring_Bps alone */
        if (cut->kind != CR_CUT_BISECTION)
            c->ring_class_Bps[cut->hw] = fmin(c->ring_class_Bps[cut->hw], r);
        if (r < c->ring_Bps) {
            c->ring_Bps = r;
            c->ring_hw = cut->hw;
        }
    }
    if (!isfinite(c->ring_Bps)) {
        c->ring_Bps = c->gpu_Bps;
        c->ring_class_Bps[c->ring_hw] = c->gpu_Bps;
    }
    if (c->n_nodes > 1 && isfinite(nic_min))
        c->nic_node_Bps = mnnvl ? domain_nic_Bps(c, domain, n_domains) : nic_min;

    /* Route latency of one step (doc/bounds.md 2.2.3), from rank 0's path
     * latencies (bound.c: Dijkstra over link latencies, only the
     * communicator's GPUs relaying): a step inside rank 0's node (NCCL's node: the scale-up
     * domain or the machine), one to another node (the nearest: on rank 0's rail where rails
     * exist), and one off the rail, which NCCL's PXN sends over a scale-up hop to the rail's GPU
     * first. The rank-order ring's mean: its edges inside and across domains at those latencies. */
    c->r_intra_s = c->r_inter_s = c->r_intra_far_s = 0;
    for (int i = 0; i < n && !mnnvl; i++) /* NCCL's nodes: one, the domains, or the ranks' nodes */
        domain[i] = c->n_nodes == 1 ? 0 : node_of_rank(c, i);
    for (int j = 1; j < n; j++) {
        double l = c->cuts->lat0_peer_s[j];
        if (domain[j] == domain[0]) {
            if (c->r_intra_s == 0 || l < c->r_intra_s)
                c->r_intra_s = l;
            c->r_intra_far_s = fmax(c->r_intra_far_s, l);
        } else if (c->r_inter_s == 0 || l < c->r_inter_s) {
            c->r_inter_s = l;
        }
    }
    /* a ring's or chain's step that goes through host memory (SHM) waits
     * for the slowest such hop's way up to the CPU and down (the
     * simulator routes it so: flowroute.c shm_cpu) */
    if (c->shm_ring_lat_s > c->r_intra_s)
        c->r_intra_s = c->shm_ring_lat_s;
    c->r_intra_far_s = fmax(c->r_intra_far_s, fmax(c->shm_ring_lat_s, c->shm_pair_lat_s));
    c->r_pxn_s = c->r_inter_s + (c->ppn > 1 ? c->r_intra_s : 0);
    {
        /* the ring crosses each node boundary once, on a rail (channel c
         * enters a node at its GPU on rail c and leaves on that rail) */
        int cross = c->n_nodes > 1 ? c->n_nodes : 0;
        c->r_ring_mean_s = n > 1 ? (cross * c->r_inter_s + (n - cross) * c->r_intra_s) / n : 0;
    }

    /* SHARP: a reducing switch outside every node, on the NIC fabric. */
    if ((st = build_rails(c, domain, mnnvl, n_domains, d)) != CR_OK)
        goto out;

    c->collnet = false;
    for (int v = 0; v < nd && !c->collnet; v++) {
        const cr_dev *dv = &t->devs[v];
        if (dv->kind != CR_DEV_SWITCH || dv->node >= 0 || dv->spec < 0 ||
            !t->switch_specs[dv->spec].reduction)
            continue;
        for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++)
            if (cr_route_network(t->links[t->adj[a]].kind))
                c->collnet = true;
    }

    /* NCCL counts NVLink below its datasheet rate (topo.h: 20 GB/s per
     * NVLink3 link of 25, 20.6 per NVLink4 link of 25, 40.1 per NVLink5 of
     * 50) and PCIe Gen4/5 x16 at about 24/48 of 31.5/63 GB/s (estimate). */
    switch (c->p.gen) {
    case CR_GEN_HOPPER:
        c->nccl_scale = 20.6 / 25.0;
        break;
    case CR_GEN_BLACKWELL:
        c->nccl_scale = 40.1 / 50.0;
        break;
    default:
        c->nccl_scale = 20.0 / 25.0;
        break;
    }
    if (c->intra_hw != CR_HW_NVLINK)
        c->nccl_scale = 0.76;
out:
    free(member_of_dev);
    free(mark);
    free(queue);
    free(domain);
    free(up_out);
    free(up_in);
    free(all_out);
    free(all_in);
    return st;
}

/* A fraction parameter of the topology, if present: *v and true. */
static cr_status ceil_param(const cr_topo *t, const char *key, double *v, bool *found, cr_diag *d)
{
    const cr_param *p = cr_topo_find_param(t, key);
    *found = false;
    if (!p)
        return CR_OK;
    if (!isfinite(p->value) || p->value <= 0 || p->value > 1)
        return cr_diag_set(d, CR_EINVAL,
                           "topology \"%s\": parameter %s = %g is not a measured fraction of the "
                           "datasheet rate in (0, 1]",
                           t->name, key, p->value);
    *v = p->value;
    *found = true;
    return CR_OK;
}

cr_status cr_coll_ceilings_for(const cr_topo *topo, int gpu_rank, cr_coll_ceilings *out, cr_diag *d)
{
    memset(out, 0, sizeof *out);
    out->scaleup_frac = out->pcie_frac = out->net_frac = 1.0;
    if (!topo || gpu_rank < 0 || gpu_rank >= topo->n_gpus)
        return cr_diag_set(d, CR_EINVAL, "GPU rank %d is not in the topology (0-%d)", gpu_rank,
                           topo ? topo->n_gpus - 1 : -1);
    const cr_gpu_spec *g = cr_topo_gpu_spec(topo, gpu_rank);
    out->hbm_Bps = g && g->hbm_Bps > 0 ? g->hbm_Bps : HUGE_VAL;
    if (g && g->meas_hbm_Bps > 0) {
        out->hbm_Bps = fmin(out->hbm_Bps, g->meas_hbm_Bps);
        out->measured = true;
    }
    double v = 0;
    bool f = false;
    cr_status st = ceil_param(topo, "coll.ceil.scaleup", &v, &f, d);
    if (st != CR_OK)
        return st;
    if (f) {
        out->scaleup_frac = v;
    } else {
        /* the best measured peer copy: a ceiling any kernel on these links
         * was seen to reach */
        static const char *const mk[3] = {"mech.ce.eff", "mech.tma.eff", "mech.ldst.eff"};
        double best = 0;
        for (int i = 0; i < 3; i++) {
            if ((st = ceil_param(topo, mk[i], &v, &f, d)) != CR_OK)
                return st;
            if (f)
                best = fmax(best, v);
        }
        if (best > 0) {
            out->scaleup_frac = best;
            f = true;
        }
    }
    out->measured = out->measured || f;
    if ((st = ceil_param(topo, "coll.ceil.pcie", &v, &f, d)) != CR_OK)
        return st;
    if (!f && (st = ceil_param(topo, "ops.pcie.eff", &v, &f, d)) != CR_OK)
        return st;
    if (f)
        out->pcie_frac = v;
    out->measured = out->measured || f;
    if ((st = ceil_param(topo, "coll.ceil.net", &v, &f, d)) != CR_OK)
        return st;
    if (f)
        out->net_frac = v;
    out->measured = out->measured || f;
    return CR_OK;
}

/* The context's ceilings: link classes from the topology, HBM per rank. */
static cr_status build_ceilings(cr_coll_ctx *c, cr_diag *d)
{
    cr_coll_ceilings ce;
    cr_status st = cr_coll_ceilings_for(c->topo, c->ranks->ranks[0], &ce, d);
    if (st != CR_OK)
        return st;
    c->ceil_frac[CR_HW_NVLINK] = ce.scaleup_frac;
    c->ceil_frac[CR_HW_PCI] = ce.pcie_frac;
    c->ceil_frac[CR_HW_NET] = ce.net_frac;
    c->measured = ce.measured;
    /* one per memory class: the ceilings are a function of the GPU model */
    const cr_cuts *cu = c->cuts;
    c->att_hbm_Bps = malloc((size_t)cu->n_mem * sizeof *c->att_hbm_Bps);
    if (!c->att_hbm_Bps)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    for (int q = 0; q < cu->n_mem; q++) {
        int i = cu->mem_first[q];
        cr_coll_ceilings ci;
        if ((st = cr_coll_ceilings_for(c->topo, c->ranks->ranks[i], &ci, d)) != CR_OK)
            return st;
        c->att_hbm_Bps[q] = fmin(ci.hbm_Bps, cu->hbm_Bps[i]);
    }
    return CR_OK;
}

cr_status cr_coll_ctx_new(const cr_topo *topo, const cr_rankset *ranks, cr_coll_ctx **out,
                          cr_diag *d)
{
    *out = NULL;
    if (!topo || !topo->finalized)
        return cr_diag_set(d, CR_EINVAL, "topology is not finalized (call cr_topo_check)");
    cr_coll_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    c->topo = topo;
    cr_status st = CR_OK;
    if (ranks) {
        st = cr_rankset_from_array(ranks->ranks, ranks->n, topo->n_gpus, &c->ranks, d);
    } else {
        c->ranks = cr_rankset_all(topo->n_gpus);
        if (!c->ranks)
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    if (st == CR_OK) {
        c->n = c->ranks->n;
        st = cr_cuts_build(topo, c->ranks, &c->cuts, d);
    }
    if (st == CR_OK) {
        /* NCCL and RCCL tune by NCCL's model; other vendors' libraries
         * (XLA on TPUs) have no tables here */
        int spec = topo->devs[topo->gpus[c->ranks->ranks[0]]].spec;
        const char *vendor = spec >= 0 ? topo->gpu_specs[spec].vendor : NULL;
        c->nccl_lib = vendor && (!strcmp(vendor, "nvidia") || !strcmp(vendor, "amd"));
        c->rccl = vendor && !strcmp(vendor, "amd");
        st = cr_params_for_topo(topo, c->ranks->ranks[0], &c->p, d);
    }
    if (st == CR_OK)
        st = build_figures(c, d);
    if (st == CR_OK)
        st = build_ceilings(c, d);
    if (st != CR_OK) {
        cr_coll_ctx_free(c);
        return st;
    }
    *out = c;
    return CR_OK;
}

void cr_coll_ctx_free(cr_coll_ctx *ctx)
{
    if (!ctx)
        return;
    cr_rankset_free(ctx->ranks);
    cr_cuts_free(ctx->cuts);
    free(ctx->att_hbm_Bps);
    free(ctx->rank_node);
    free(ctx->node_ranks);
    free(ctx->rank_local);
    free(ctx->rank_net_Bps);
    free(ctx->rank_net_hw);
    free(ctx->rank_own_Bps);
    free(ctx->rank_own_hw);
    free(ctx->rank_nic_grp);
    free(ctx->nic_grp_Bps);
    free(ctx->rail_nic_Bps);
    free(ctx->node_rank);
    free(ctx);
}

cr_status cr_coll_ctx_set_param(cr_coll_ctx *ctx, const char *key, double value, cr_diag *d)
{
    /* the context's figures derive from the generation only (build_figures),
     * which no key sets: overriding p after the build is what a topology
     * parameter would have done */
    return cr_params_set(&ctx->p, key, value, d);
}

int cr_coll_ctx_nranks(const cr_coll_ctx *ctx)
{
    return ctx->n;
}

const cr_rankset *cr_coll_ctx_ranks(const cr_coll_ctx *ctx)
{
    return ctx->ranks;
}

static cr_status check_req(const cr_coll_ctx *ctx, const cr_coll_req *rq, cr_diag *d)
{
    if (!ctx || !rq)
        return cr_diag_set(d, CR_EINVAL,
                           "no %s given (cr_coll_ctx_new, cr_coll_req_default make them)",
                           !ctx ? "context" : "request");
    if ((unsigned)rq->coll >= CR_COLL__COUNT)
        return cr_diag_set(d, CR_EINVAL, "unknown collective %d", (int)rq->coll);
    if (!isfinite(rq->bytes) || rq->bytes < 0 || rq->bytes > CR_COLL_MAX_BYTES)
        return cr_diag_set(d, CR_EINVAL, "message size %g bytes is not a size from 0 to 1PB",
                           rq->bytes);
    if ((unsigned)rq->dtype >= CR_DT__COUNT)
        return cr_diag_set(d, CR_EINVAL, "unknown element type %d", (int)rq->dtype);
    if (cr_coll_rooted(rq->coll) && (rq->root < 0 || rq->root >= ctx->n))
        return cr_diag_set(d, CR_EINVAL, "root %d is not a rank of the set (0-%d)", rq->root,
                           ctx->n - 1);
    if (cr_coll_reduces(rq->coll) && rq->dtype == CR_DT_FP4)
        return cr_diag_set(d, CR_EINVAL,
                           "%s of %s: NCCL and the GPUs have no fp4 reduction; use bf16, fp16, "
                           "fp32, fp8 or int8",
                           cr_coll_name(rq->coll), cr_dtype_name(rq->dtype));
    if (rq->algo != CR_ALGO_AUTO && (unsigned)rq->algo >= CR_ALGO__COUNT)
        return cr_diag_set(d, CR_EINVAL, "unknown algorithm %d", (int)rq->algo);
    if (rq->proto != CR_PROTO_AUTO && (unsigned)rq->proto >= CR_PROTO__COUNT)
        return cr_diag_set(d, CR_EINVAL, "unknown protocol %d", (int)rq->proto);
    if (rq->mech != CR_MECH_NONE && (unsigned)rq->mech >= CR_MECH__COUNT)
        return cr_diag_set(d, CR_EINVAL, "unknown mechanism %d", (int)rq->mech);
    if (rq->nchannels < 0 || rq->sms < 0)
        return cr_diag_set(d, CR_EINVAL, "channel and SM counts must be >= 0");
    /* the limit of coll and sim --nchannels and of a scenario's channels=:
     * 1000 was taken and reported back as 1000 channels (QA audit of the
     * API) */
    if (rq->nchannels > CR_COLL_MAX_NCHANNELS)
        return cr_diag_set(d, CR_EINVAL,
                           "nchannels %d: give 0 (NCCL's choice) or a count from 1 to %d "
                           "(NCCL's most channels)",
                           rq->nchannels, CR_COLL_MAX_NCHANNELS);
    if (rq->nccl_algos >> CR_ALGO__COUNT || rq->nccl_protos >> CR_PROTO__COUNT)
        return cr_diag_set(d, CR_EINVAL,
                           "NCCL_ALGO / NCCL_PROTO sets 0x%x / 0x%x name no such algorithm or "
                           "protocol (cr_nccl_select_parse makes them)",
                           rq->nccl_algos, rq->nccl_protos);
    if (rq->ranks_per_process < 0 || rq->ranks_per_process > ctx->n)
        return cr_diag_set(d, CR_EINVAL,
                           "ranks per process %d: must be 1 (one process per GPU) up to the %d "
                           "rank(s) of the set (one process drives all)",
                           rq->ranks_per_process, ctx->n);
    /* what the API's callers set by hand (QA audit of the API: each of
     * these was taken without a word) */
    if (rq->loop_ops < 0)
        return cr_diag_set(d, CR_EINVAL,
                           "loop_ops %d: give the operations of one timed loop, or 0 for "
                           "nccl-tests' default",
                           rq->loop_ops);
    if (rq->nccl_version != 0 &&
        (rq->nccl_version < CR_NCCL_VERSION_MIN || rq->nccl_version > CR_NCCL_VERSION_MAX))
        return cr_diag_set(d, CR_EINVAL,
                           "nccl_version %d is not a release this model knows: give 0 (the "
                           "topology's) or a code from %d to %d (cr_nccl_version_parse makes "
                           "it)",
                           rq->nccl_version, CR_NCCL_VERSION_MIN, CR_NCCL_VERSION_MAX);
    if (rq->moe_topk != 0) {
        double e = rq->moe_experts;
        if (rq->coll != CR_COLL_ALLTOALL || rq->moe_topk < 2)
            return cr_diag_set(d, CR_EINVAL,
                               "moe_topk %d on %s: an MoE dispatch is an alltoall with a top-k "
                               "of 2 or more (0: a plain collective)",
                               rq->moe_topk, cr_coll_name(rq->coll));
        if (!(e >= rq->moe_topk && e <= 1e9) || e != floor(e))
            return cr_diag_set(d, CR_EINVAL,
                               "moe_experts %g with moe_topk %d: give a whole number of experts, "
                               "at least the top-k",
                               e, rq->moe_topk);
    }
    return CR_OK;
}

/* The bound from peaks, then the attainable one from the measured
 * ceilings (the same cuts, each capacity scaled by its link class' ceiling;
 * never below the bound since every fraction is <= 1). */
static void bound_full(const cr_coll_ctx *ctx, const cr_coll_req *rq, cr_coll_bound *out)
{
    cr_bound_eval(ctx->cuts, rq, out);
    out->attainable_s = out->bound_s;
    cr_str_copy(out->attainable_binding, sizeof out->attainable_binding, out->binding);
    out->measured = ctx->measured;
    if (!ctx->measured || !(out->bound_s > 0))
        return;
    cr_coll_bound a;
    cr_bound_eval_scaled(ctx->cuts, rq, ctx->ceil_frac, ctx->att_hbm_Bps, &a);
    out->attainable_s = fmax(a.bound_s, out->bound_s);
    cr_str_copy(out->attainable_binding, sizeof out->attainable_binding, a.binding);
}

/* No verdict from a non-finite number: a bound or a supported prediction
 * that overflowed (or is NaN) is an error, not a row (issue 13 item 8). The
 * loaders keep every figure in a range where this cannot happen; this is
 * the guard where results are produced. */
static cr_status finite_bound(const cr_coll_bound *b, cr_diag *d)
{
    if (!isfinite(b->bound_s) || !isfinite(b->attainable_s) || !isfinite(b->lat_s))
        return cr_diag_set(d, CR_EINVARIANT,
                           "the bound is not a finite time (%g s): a figure of the topology is "
                           "out of any sane range (commroof topo check names it)",
                           b->bound_s);
    return CR_OK;
}

static cr_status finite_pred(const cr_coll_pred *p, cr_diag *d)
{
    if (p->supported && !isfinite(p->pred_s))
        return cr_diag_set(d, CR_EINVARIANT,
                           "the %s prediction is not a finite time (%g s): a figure of the "
                           "topology is out of any sane range (commroof topo check names it)",
                           cr_algo_name(p->algo), p->pred_s);
    return CR_OK;
}

cr_status cr_coll_bound_eval(const cr_coll_ctx *ctx, const cr_coll_req *rq, cr_coll_bound *out,
                             cr_diag *d)
{
    cr_status st = check_req(ctx, rq, d);
    if (st != CR_OK)
        return st;
    bound_full(ctx, rq, out);
    return finite_bound(out, d);
}

static void unsupported(cr_coll_pred *p, cr_algo a, cr_proto pr, cr_mech m, const char *why)
{
    memset(p, 0, sizeof *p);
    p->supported = false;
    p->algo = a;
    p->proto = pr;
    p->mech = m;
    cr_str_copy(p->why, sizeof p->why, why);
}

const cr_coll_ctx *cr_coll_scratch_begin(const cr_coll_ctx *ctx, cr_coll_scratch *s, cr_diag *d)
{
    size_t n = (size_t)ctx->n, counts = (size_t)ctx->node_slots + (size_t)ctx->rail_nodes;
    s->c = *ctx;
    memset(&s->memo, 0, sizeof s->memo);
    /* loads 4n, NIC group loads 2 a group (at most n groups), then the
     * all-to-all's counts as ints */
    s->block = malloc(6 * n * sizeof(double) + counts * sizeof(int));
    if (!s->block) {
        cr_diag_set(d, CR_ENOMEM, "out of memory");
        return NULL;
    }
    s->c.load = s->block;
    s->c.nic_grp_load = s->block + 4 * n;
    s->c.a2a_cnt = (int *)(void *)(s->block + 6 * n);
    s->c.rail_memo = &s->memo;
    return &s->c;
}

void cr_coll_scratch_end(cr_coll_scratch *s)
{
    free(s->block);
}

cr_status cr_coll_predict_all(const cr_coll_ctx *ctx, const cr_coll_req *rq,
                              cr_coll_pred out[CR_ALGO__COUNT][CR_PROTO__COUNT], cr_diag *d)
{
    cr_status st = check_req(ctx, rq, d);
    if (st != CR_OK)
        return st;
    cr_coll_bound b;
    cr_bound_eval(ctx->cuts, rq, &b);
    if (ctx->n == 1) {
        /* one rank: NCCL's local copy is the only implementation */
        cr_coll_req r1 = *rq;
        r1.mech = CR_MECH_NONE;
        cr_coll_pred lp;
        cr_local_predict(ctx, &r1, &b, &lp);
        for (int a = 0; a < CR_ALGO__COUNT; a++)
            for (int p = 0; p < CR_PROTO__COUNT; p++)
                unsupported(&out[a][p], (cr_algo)a, (cr_proto)p, CR_MECH_NONE,
                            "one rank: NCCL copies the buffer locally (direct)");
        out[lp.algo][lp.proto] = lp;
        return CR_OK;
    }
    cr_coll_scratch s;
    const cr_coll_ctx *own = cr_coll_scratch_begin(ctx, &s, d);
    if (!own)
        return CR_ENOMEM;
    for (int a = 0; a < CR_ALGO__COUNT; a++)
        for (int p = 0; p < CR_PROTO__COUNT; p++)
            cr_algo_predict(own, rq, (cr_algo)a, (cr_proto)p, &b, &out[a][p]);
    cr_coll_scratch_end(&s);
    return CR_OK;
}

/* What an automatic choice minimises: NCCL's own estimate where NCCL (or
 * RCCL) picks, the predicted time elsewhere. */
static double choice_key(const cr_coll_ctx *ctx, const cr_coll_pred *p)
{
    return ctx->nccl_lib ? p->nccl_est_s : p->pred_s;
}

bool cr_coll_ctx_nccl_choice(const cr_coll_ctx *ctx)
{
    return ctx->nccl_lib;
}

/* NCCL's choice among the table: the least nccl_est_s; CollNet only when
 * forced (NCCL_COLLNET_ENABLE is off by default). */
static void choose(const cr_coll_ctx *ctx, const cr_coll_req *rq, const cr_coll_bound *b,
                   cr_coll_pred *out)
{
    /* RCCL runs a matching MSCCL algorithm before its tuner looks */
    int mp = cr_algo_msccl_proto(ctx, rq);
    if (mp >= 0 && rq->algo == CR_ALGO_AUTO && (rq->proto == CR_PROTO_AUTO || rq->proto == mp)) {
        cr_algo_predict(ctx, rq, CR_ALGO_DIRECT, (cr_proto)mp, b, out);
        if (out->supported)
            return;
    }
    cr_coll_pred best;
    bool have = false;
    int a0 = rq->algo == CR_ALGO_AUTO ? 0 : rq->algo;
    int a1 = rq->algo == CR_ALGO_AUTO ? CR_ALGO__COUNT - 1 : rq->algo;
    int p0 = rq->proto == CR_PROTO_AUTO ? 0 : rq->proto;
    int p1 = rq->proto == CR_PROTO_AUTO ? CR_PROTO__COUNT - 1 : rq->proto;
    cr_coll_pred first_unsupported;
    bool have_uns = false;
    for (int a = a0; a <= a1; a++) {
        if (rq->algo == CR_ALGO_AUTO && a == CR_ALGO_COLLNET)
            continue;
        /* the run's NCCL_ALGO / NCCL_PROTO narrow NCCL's own choice; they do
         * not govern point-to-point (direct), which picks LL or Simple by
         * size (enqueue.cc) */
        if (rq->algo == CR_ALGO_AUTO && rq->nccl_algos && a != CR_ALGO_DIRECT &&
            !(rq->nccl_algos & (1u << a)))
            continue;
        for (int p = p0; p <= p1; p++) {
            if (rq->proto == CR_PROTO_AUTO && rq->nccl_protos && a != CR_ALGO_DIRECT &&
                !(rq->nccl_protos & (1u << p)))
                continue;
            /* only the first refusal's reason is kept: the others are
             * not filled in (cr_algo_unsupported) */
            if (cr_algo_unsupported(ctx, rq, (cr_algo)a, (cr_proto)p)) {
                if (!have_uns) {
                    cr_algo_predict(ctx, rq, (cr_algo)a, (cr_proto)p, b, &first_unsupported);
                    have_uns = true;
                }
                continue;
            }
            cr_coll_pred cand;
            cr_algo_predict(ctx, rq, (cr_algo)a, (cr_proto)p, b, &cand);
            if (!have || choice_key(ctx, &cand) < choice_key(ctx, &best)) {
                best = cand;
                have = true;
            }
        }
    }
    if (have)
        *out = best;
    else if (have_uns) {
        *out = first_unsupported;
        out->proto = rq->proto; /* the forced protocol, or auto: none ran */
    } else
        unsupported(out, rq->algo, rq->proto, CR_MECH_NONE, "no algorithm applies");
}

/* The prediction for a checked request given its bound b. The predictors
 * read b's bound_s, lat_s and terms, which cr_bound_eval sets and
 * bound_full leaves as they are: b may be either's (cr_coll_eval passes
 * bound_full's, cr_coll_predict cr_bound_eval's). */
static cr_status predict_bounded(const cr_coll_ctx *shared, const cr_coll_req *rq,
                                 const cr_coll_bound *b, cr_coll_pred *out, cr_diag *d)
{
    cr_coll_scratch s;
    const cr_coll_ctx *ctx = cr_coll_scratch_begin(shared, &s, d);
    if (!ctx)
        return CR_ENOMEM;
    if (ctx->n == 1)
        cr_local_predict(ctx, rq, b, out);
    else if (rq->mech != CR_MECH_NONE)
        cr_mech_predict(ctx, rq, b, out);
    else
        choose(ctx, rq, b, out);
    cr_coll_scratch_end(&s);
    return finite_pred(out, d);
}

cr_status cr_coll_predict(const cr_coll_ctx *ctx, const cr_coll_req *rq, cr_coll_pred *out,
                          cr_diag *d)
{
    cr_status st = check_req(ctx, rq, d);
    if (st != CR_OK)
        return st;
    cr_coll_bound b;
    cr_bound_eval(ctx->cuts, rq, &b);
    if ((st = finite_bound(&b, d)) != CR_OK)
        return st;
    return predict_bounded(ctx, rq, &b, out, d);
}

cr_status cr_coll_predict_bounded(const cr_coll_ctx *ctx, const cr_coll_req *rq,
                                  const cr_coll_bound *b, cr_coll_pred *out, cr_diag *d)
{
    cr_status st = check_req(ctx, rq, d);
    if (st != CR_OK)
        return st;
    if ((st = finite_bound(b, d)) != CR_OK)
        return st;
    return predict_bounded(ctx, rq, b, out, d);
}

cr_status cr_coll_eval(const cr_coll_ctx *ctx, const cr_coll_req *rq, cr_coll_result *out,
                       cr_diag *d)
{
    cr_status st = check_req(ctx, rq, d);
    if (st != CR_OK)
        return st;
    if (!out)
        return cr_diag_set(d, CR_EINVAL, "no result to fill");
    bound_full(ctx, rq, &out->bound);
    if ((st = finite_bound(&out->bound, d)) != CR_OK)
        return st;
    return predict_bounded(ctx, rq, &out->bound, &out->pred, d);
}

cr_status cr_coll_eval_topo(const cr_topo *topo, const cr_rankset *ranks, const cr_coll_req *rq,
                            cr_coll_result *out, cr_diag *d)
{
    cr_coll_ctx *ctx = NULL;
    cr_status st = cr_coll_ctx_new(topo, ranks, &ctx, d);
    if (st != CR_OK)
        return st;
    st = cr_coll_eval(ctx, rq, out, d);
    cr_coll_ctx_free(ctx);
    return st;
}
