/* SPDX-License-Identifier: MIT */
/*
 * The patterns where every rank exchanges with each peer itself (alltoall,
 * gather, scatter, sendrecv: no forwarding, no pre-reduction): the bytes
 * each cut carries, the rails a rail-optimised network gives each message,
 * and the time of such a pattern; the rates inside a node that the ring
 * and tree predictions of algo.c share with it.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo_priv.h"
#include "mech.h"

/* The network's efficiency for the point-to-point traffic these
 * algorithms move (params coll.eff.net.p2p; 0: coll.eff.net's). */
static double direct_net_eff(const cr_params *p)
{
    return p->p2p_net_eff > 0 ? p->p2p_net_eff : p->net_eff;
}

/* ---- direct-pattern bytes across a cut (each rank exchanges with each
 * peer itself, no forwarding, no pre-reduction) ---- */

static void direct_bytes(cr_coll coll, double S, int n, int k, bool root_in, int ro, int ri,
                         double *o, double *i)
{
    double nn = n, kk = k, x = kk * (nn - kk) / nn * S;
    *o = *i = 0;
    if (n < 2 || k <= 0 || k >= n)
        return;
    switch (coll) {
    case CR_COLL_ALLREDUCE:
        *o = *i = 2 * x; /* reduce-scatter then allgather, both direct */
        break;
    case CR_COLL_ALLGATHER:
    case CR_COLL_REDUCESCATTER:
    case CR_COLL_ALLTOALL:
        *o = *i = x;
        break;
    case CR_COLL_BROADCAST: /* the root writes every peer */
        if (root_in)
            *o = (nn - kk) * S;
        else
            *i = kk * S;
        break;
    case CR_COLL_REDUCE: /* the root reads every peer */
        if (root_in)
            *i = (nn - kk) * S;
        else
            *o = kk * S;
        break;
    default:
        cr_cut_forced_bytes(coll, S, n, k, root_in, ro, ri, o, i);
        break;
    }
}

/* Capacity of a cut as an algorithm may use it: a GPU's scale-up ports
 * where it has them (NCCL and peer kernels do not route GPU traffic over
 * PCIe next to NVLink); every crossing link otherwise. */
static double pred_cap(const struct cr_coll_ctx *c, const cr_cut *cut, bool out)
{
    double cap = out ? cut->out_Bps : cut->in_Bps;
    if (cut->kind == CR_CUT_GPU && c->up_Bps > 0)
        cap = fmin(cap, c->up_Bps);
    return cap;
}

/* What NCCL's graph channels can carry out of a node: one NIC each
 * (algo_graph_channels). The search sends each graph channel through one
 * NIC and adds a channel only while the GPUs' links have room for another
 * at the same speed (src/graph/search.cc ncclTopoCompute @v2.25.1-1);
 * ncclTopoDupChannels then repeats the channels on the same NICs. One GPU a
 * node, whose PCIe link (Gen5 x16: 48 GB/s in NCCL's units) is no faster
 * than a 400G NIC (50), gets a graph of one channel on one NIC, however
 * many NICs sit next to it: the GPU's PCIe rate, which the two NICs behind
 * its switch would allow (the bound's node cut), is not reached (fitting
 * half: GCP A3 Ultra, one H200 a node, 8 GiB all_gather at 32 GB/s,
 * validate/corpus/h200x1-roce-2n; an A100 with one NIC a node prints "2
 * coll channels", a100pcie-ib-2n). HUGE_VAL within one node. */
double algo_graph_net_Bps(const struct cr_coll_ctx *c)
{
    if (c->n_nodes < 2 || !(c->nic_one_Bps > 0) || !(c->nic_node_Bps > 0))
        return HUGE_VAL;
    return algo_graph_channels(c, INT_MAX) * c->nic_one_Bps;
}

/* What a ring's channels move across a node boundary: each channel
 * through one rail rank's NICs (net_ring_Bps: its node's egress shared by
 * the rails that cross it, coll.c rail_figures) on one of net_rails
 * rails, so min(channels, rails) of them, no more than those rails'
 * distinct NICs (rail_nic_Bps) nor the graph's NICs (algo_graph_net_Bps);
 * HUGE_VAL within one node. *hw: the class of link that binds, whose
 * efficiency the rate takes: the NICs where the graph's or the rails'
 * NICs bind, else the rank's own path (net_ring_hw, PCIe where its link
 * is slower than its NICs). One GPU a node behind a switch of two NICs
 * was priced at PCIe's efficiency while its one NIC bound, so 8 rails came
 * out slower than 1 over the same path (QA audit, session 44). */
double algo_net_cap_Bps(const struct cr_coll_ctx *c, double nchf, cr_hw *hw)
{
    *hw = c->net_ring_hw;
    if (!(c->net_ring_Bps > 0) || c->net_rails < 1 || !c->rail_nic_Bps)
        return HUGE_VAL;
    double k = fmin(nchf, (double)c->net_rails);
    int j = (int)ceil(k) - 1;
    j = j < 0 ? 0 : j >= c->net_rails ? c->net_rails - 1 : j;
    double rails_Bps = k * c->net_ring_Bps;
    if (c->rail_nic_Bps[j] < rails_Bps) {
        rails_Bps = c->rail_nic_Bps[j];
        *hw = CR_HW_NET;
    }
    double graph_Bps = algo_graph_net_Bps(c);
    if (graph_Bps <= rails_Bps)
        *hw = CR_HW_NET;
    return fmin(rails_Bps, graph_Bps);
}

/* Whether NCCL's point-to-point between nodes sets a rooted, sendrecv or
 * all-to-all pattern's per-GPU loads (rail_time): ranks on several nodes
 * with NICs, NCCL's kernels (not a custom one). With full nodes the
 * all-to-all's NIC loads are the node cut's figure ((N-1)/N S a rank's NIC
 * share); on partial nodes a rank's own NICs (coll.c rank_nics) bind
 * first. Nodes of PCIe GPUs (no scale-up links) too: each rank sends
 * through its own nearest NICs (no PXN), which the node cut (all the
 * node's NICs, up to the ranks' PCIe links) does not see: one L40S behind
 * a switch of one 200 Gb/s NIC was priced at its PCIe link, 31.5 GB/s,
 * where NCCL and the simulator move 25 (QA audit, good-pcie-nic-node.xml
 * fat tree: sendrecv sim/pr 1.26). */
static bool rail_applies(const struct cr_coll_ctx *c, const cr_coll_req *rq)
{
    return c->pair_net_Bps > 0 && c->node_slots > 0 && rq->mech == CR_MECH_NONE &&
           cr_coll_p2p(rq->coll);
}

/* NCCL's PXN relays a message only to a node-mate the sender reaches over
 * a scale-up link (flowroute.c pxn_relay): none on nodes of PCIe GPUs. */
static bool rail_pxn(const struct cr_coll_ctx *c)
{
    return c->up_Bps > 0;
}

/* One message of b bytes from rank i to rank j on the per-rank loads L
 * (scale-up out, in, network out, in: L[4 r + 0..3]). Across nodes it
 * crosses one NIC at each end (ncclTopoGetLocalNet): the receiver's own,
 * and the sender's own or, with PXN, that of the sender's node-mate on the
 * receiver's rail after a scale-up hop to it (NCCL 2.12+, where that
 * node-mate is a rank: its proxy posts the send). */
static void rail_message(const struct cr_coll_ctx *c, double *L, int i, int j, double b)
{
    if (c->rank_node[i] == c->rank_node[j]) {
        L[4 * i + 0] += b;
        L[4 * j + 1] += b;
        return;
    }
    int r = i;
    if (rail_pxn(c) && c->rank_local[j] < c->node_slots) {
        int k = c->node_rank[c->rank_node[i] * c->node_slots + c->rank_local[j]];
        if (k >= 0)
            r = k;
    }
    if (r != i) {
        L[4 * i + 0] += b;
        L[4 * r + 1] += b;
    }
    L[4 * r + 2] += b;
    L[4 * j + 3] += b;
}

/* The all-to-all's loads (S/n from every rank to every rank), summed per
 * rank instead of n^2 rail_message calls: rank i on node x at local index
 * a, rem(l) the ranks at local index l on other nodes. Its node-mates'
 * messages to rail a leave by its NIC (PXN), its own to a rail no rank of
 * x sits on leave by its NIC too, the rest go by the scale-up fabric to
 * the rail's node-mate. */
static void rail_alltoall(const struct cr_coll_ctx *c, double *L, double S)
{
    int n = c->n, ns = c->node_slots;
    int *slot = c->a2a_cnt, *node = c->a2a_cnt + ns;
    for (int k = 0; k < ns + c->rail_nodes; k++)
        slot[k] = 0;
    for (int i = 0; i < n; i++) {
        slot[c->rank_local[i]]++;
        node[c->rank_node[i]]++;
    }
    double per = S / n;
    for (int i = 0; i < n; i++) {
        int x = c->rank_node[i], a = c->rank_local[i];
        const int *nr = c->node_rank + (size_t)x * (size_t)ns;
        double via_mate = 0, own_rail = 0;
        for (int l = 0; l < ns; l++) {
            int rem = slot[l] - (nr[l] >= 0 ? 1 : 0);
            if (nr[l] < 0)
                own_rail += rem;
            else if (l != a)
                via_mate += rem;
        }
        double rem_a = slot[a] - 1, mates = node[x] - 1;
        if (!rail_pxn(c)) { /* each message out of the sender's own NICs */
            L[4 * i + 0] = L[4 * i + 1] = per * mates;
            L[4 * i + 2] = L[4 * i + 3] = per * (n - node[x]);
            continue;
        }
        L[4 * i + 0] = per * (mates + via_mate);
        L[4 * i + 1] = per * (mates + mates * rem_a);
        L[4 * i + 2] = per * (node[x] * rem_a + own_rail);
        L[4 * i + 3] = per * (n - node[x]);
    }
}

/* The per-rank loads (rail_message) of gather, scatter, sendrecv or
 * all-to-all of S bytes rooted at root into L (4n doubles). */
static void rail_loads(const struct cr_coll_ctx *c, cr_coll coll, int root, double S, double *L)
{
    int n = c->n;
    for (int k = 0; k < 4 * n; k++)
        L[k] = 0;
    if (coll == CR_COLL_ALLTOALL)
        rail_alltoall(c, L, S);
    for (int i = 0; i < n && coll != CR_COLL_ALLTOALL; i++) {
        if (coll == CR_COLL_SENDRECV)
            rail_message(c, L, i, (i + 1) % n, S);
        else if (i != root && coll == CR_COLL_GATHER)
            rail_message(c, L, i, root, S / n);
        else if (i != root)
            rail_message(c, L, root, i, S / n);
    }
}

/* Time of gather, scatter, sendrecv or all-to-all from each rank's
 * scale-up and NIC loads (rail_loads), the scale-up ports at eff_up, a
 * rank's own NICs (rank_net_Bps) at their class' efficiency. Records the
 * worst in *wb / *wc / *we. Loads and scans are kept in c->rail_memo: one
 * request asks for them for LL and Simple under each protocol tried and
 * again for its attainable figure, each an O(n) pass over the ranks. */
static double rail_time(const struct cr_coll_ctx *c, const cr_coll_req *rq, double eff_up,
                        double *wb, double *wc, double *we)
{
    int n = c->n, root = rq->root >= 0 && rq->root < n ? rq->root : 0;
    double S = rq->bytes, *L = c->load;
    struct cr_rail_memo *m = c->rail_memo;
    if (!(m->load_ok && m->coll == (int)rq->coll && m->root == root && m->bytes == S)) {
        rail_loads(c, rq->coll, root, S, L);
        *m =
            (struct cr_rail_memo){.load_ok = true, .coll = (int)rq->coll, .root = root, .bytes = S};
    }
    for (int e = 0; e < 4; e++)
        if (m->r[e].ok && m->r[e].eff_up == eff_up) {
            if (m->r[e].found) {
                *wb = m->r[e].wb;
                *wc = m->r[e].wc;
                *we = m->r[e].we;
            }
            return m->r[e].worst;
        }
    double worst = 0;
    bool found = false;
    double *G = c->nic_grp_load;
    for (int g = 0; g < 2 * c->n_nic_grps; g++)
        G[g] = 0;
    for (int k = 0; k < 4 * n; k++) {
        bool net = k % 4 >= 2;
        int r = k / 4;
        /* no scale-up ports: messages inside a node cross the GPU's PCIe
         * links, which its GPU cut prices (algo_direct_time keeps it) */
        if (!net && !(c->up_Bps > 0))
            continue;
        /* the rank's own NICs' class: the NICs, or its GPU's host links
         * where those bind (one rank a PCIe switch) */
        double eff_net =
            fmin(eff_up, c->rank_own_hw[r] == CR_HW_PCI ? c->p.pcie_eff : direct_net_eff(&c->p));
        double cap = net ? c->rank_own_Bps[r] : c->up_Bps, eff = net ? eff_net : eff_up;
        double tk = L[k] / (cap * eff);
        if (net && c->rank_nic_grp[r] >= 0)
            G[2 * c->rank_nic_grp[r] + k % 4 - 2] += L[k];
        if (tk > worst) {
            worst = tk;
            *wb = L[k];
            *wc = cap;
            *we = eff;
            found = true;
        }
    }
    /* ranks that share NICs: those NICs carry their loads together (a
     * node's eight ranks on its one NIC: an all-to-all's eight shares, a
     * sendrecv's one crossing rank alone) */
    double eff_nic = fmin(eff_up, direct_net_eff(&c->p));
    for (int g = 0; g < 2 * c->n_nic_grps; g++) {
        double cap = c->nic_grp_Bps[g / 2], tg = G[g] / (cap * eff_nic);
        if (tg > worst) {
            worst = tg;
            *wb = G[g];
            *wc = cap;
            *we = eff_nic;
            found = true;
        }
    }
    int e = m->next;
    m->next = (e + 1) % 4;
    m->r[e].ok = true;
    m->r[e].found = found;
    m->r[e].eff_up = eff_up;
    m->r[e].worst = worst;
    if (found) {
        m->r[e].wb = *wb;
        m->r[e].wc = *wc;
        m->r[e].we = *we;
    }
    return worst;
}

/* The link rate a rank reaches to a node-mate: its scale-up ports, else
 * its PCIe ports, through host memory (SHM) at most the ring's share of
 * the host path (coll_priv.h). */
double algo_intra_Bps(const struct cr_coll_ctx *c)
{
    if (c->up_Bps > 0)
        return c->up_Bps;
    return c->shm_ring_Bps > 0 ? fmin(c->gpu_Bps, c->shm_ring_Bps) : c->gpu_Bps;
}

/* The efficiency of a hop through host memory: the PCIe figure for the
 * protocol times coll.eff.shm. */
double algo_shm_eff(const cr_params *p, cr_proto proto)
{
    return cr_proto_eff(p, proto, CR_HW_PCI) * p->shm_eff;
}

/* r_in of a chain inside a node: the scale-up or PCIe ports at eff_up,
 * through host memory the ring's share at shm_eff. */
double algo_intra_rate(const struct cr_coll_ctx *c, cr_proto proto, double eff_up)
{
    if (c->up_Bps > 0)
        return c->up_Bps * eff_up;
    double r = c->gpu_Bps * eff_up;
    return c->shm_ring_Bps > 0 ? fmin(r, c->shm_ring_Bps * algo_shm_eff(&c->p, proto)) : r;
}

/* The efficiency of each NCCL transport's messages in a direct pattern
 * (cr_coll_pred eff_mate, eff_shm, eff_net), as algo_direct_time and the
 * host-memory term of algo.c price them: node-mates joined directly at the
 * GPU cut's (scale-up ports at eff_up, PCIe at coll.eff.pcie), through host
 * memory at algo_shm_eff, across nodes at the NICs' (rail_time: a rank
 * whose own host link binds below its NICs takes coll.eff.pcie there, the
 * lesser by a few percent, not told apart). The simulator runs each
 * message at its own transport's figure: with one figure for all (the
 * binding term's), a sendrecv on PCIe nodes whose binding hop crosses the
 * sockets through host memory (coll.eff.shm 0.5) ran its network hops at
 * half the NIC's rate too (QA audit, PCIe clusters: sim/pr 1.26). */
void algo_direct_effs(const struct cr_coll_ctx *c, cr_coll coll, cr_proto proto, double eff_up,
                      double line, cr_coll_pred *o)
{
    o->eff_mate = line * (c->up_Bps > 0 ? eff_up : fmin(eff_up, c->p.pcie_eff));
    /* host memory's figure only where algo.c prices the SHM hops (sendrecv,
     * all-to-all); a rooted pattern's keep the cuts' (0: bw_eff) */
    bool shm = c->shm && (coll == CR_COLL_SENDRECV || coll == CR_COLL_ALLTOALL);
    o->eff_shm = shm ? line * algo_shm_eff(&c->p, proto) : 0;
    o->eff_net = c->n_nodes > 1 ? line * fmin(eff_up, direct_net_eff(&c->p)) : 0;
}

/* Transfer time of the direct pattern over every cut, each at its own
 * efficiency; for NCCL's point-to-point across nodes the GPU cuts give
 * way to each rank's scale-up and NIC loads (rail_time). Records the
 * worst in *wb / *wc / *we. */
double algo_direct_time(const struct cr_coll_ctx *c, const cr_coll_req *rq, double eff_up,
                        double *wb, double *wc, double *we)
{
    const cr_cuts *cs = c->cuts;
    int root = rq->root >= 0 && rq->root < c->n ? rq->root : 0;
    bool rooted = cr_coll_rooted(rq->coll);
    double worst = 0;
    *wb = *wc = 0;
    *we = eff_up;
    int root_cut[CR_CUT__COUNT];
    for (int k = 0; k < CR_CUT__COUNT; k++)
        root_cut[k] = rooted ? cs->member_cut[root * CR_CUT__COUNT + k] : -1;
    bool rail = rail_applies(c, rq);
    if (rail)
        worst = rail_time(c, rq, eff_up, wb, wc, we);
    for (int q = -CR_CUT__COUNT; q < cs->n_classes; q++) {
        int j = q < 0 ? root_cut[q + CR_CUT__COUNT] : cs->classes[q];
        if (j < 0 || (q >= 0 && j == root_cut[cs->cuts[j].kind] && cs->class_count[q] == 1))
            continue;
        const cr_cut *cut = &cs->cuts[j];
        if (rail && cut->kind == CR_CUT_GPU && c->up_Bps > 0)
            continue;
        bool root_in = q < 0;
        double o, i;
        direct_bytes(rq->coll, rq->bytes, c->n, cut->k, root_in, cut->ring_out, cut->ring_in, &o,
                     &i);
        double eff = cut->hw == CR_HW_NVLINK ? eff_up
                     : cut->hw == CR_HW_PCI  ? fmin(eff_up, c->p.pcie_eff)
                                             : fmin(eff_up, direct_net_eff(&c->p));
        if (cut->kind == CR_CUT_GPU)
            eff = c->up_Bps > 0 ? eff_up : fmin(eff_up, c->p.pcie_eff);
        double co = pred_cap(c, cut, true) * eff, ci = pred_cap(c, cut, false) * eff;
        double to = o > 0 ? o / co : 0, ti = i > 0 ? i / ci : 0;
        if (to > worst) {
            worst = to;
            *wb = o;
            *wc = pred_cap(c, cut, true);
            *we = eff;
        }
        if (ti > worst) {
            worst = ti;
            *wb = i;
            *wc = pred_cap(c, cut, false);
            *we = eff;
        }
    }
    return worst;
}
