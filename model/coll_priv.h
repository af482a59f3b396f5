/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by coll.c and algo.c (nothing outside model/ includes
 * this): the evaluation context with the figures the algorithms need.
 */
#ifndef CR_COLL_PRIV_H
#define CR_COLL_PRIV_H

#include "bound.h"
#include "coll.h"
#include "params.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* What rail_time (algo_direct.c) last computed, so that the evaluations of one
 * request (LL and Simple for each protocol asked, the attainable figure,
 * predict_all) rebuild the O(n) loads once and scan them once per
 * efficiency: load holds the loads of (coll, root, bytes) where load_ok;
 * r[] the scans of those loads at eff_up (found: some load was positive). */
struct cr_rail_memo {
    bool load_ok;
    int coll, root;
    double bytes;
    int next;
    struct {
        bool ok, found;
        double eff_up, worst, wb, wc, we;
    } r[4];
};

struct cr_coll_ctx {
    const cr_topo *topo;
    cr_rankset *ranks;
    cr_cuts *cuts;
    cr_params p;
    int n;         /* ranks */
    int n_nodes;   /* NCCL's nNodes: scale-up domains (or nodes) holding ranks */
    int ppn;       /* ranks per node (largest) */
    int ppn_min;   /* ranks per node (smallest): NCCL's per-node GPU count for NVLS */
    bool nccl_lib; /* NCCL (NVIDIA) or RCCL (AMD) picks the algorithm; else the fastest modelled */
    bool rccl;     /* RCCL (AMD GPUs): its MSCCL algorithms take some operations first */
    /* per-GPU figures, the minimum over ranks, raw datasheet B/s */
    double up_Bps;   /* scale-up ports (NVLink, XGMI, ICI); 0 when none */
    double gpu_Bps;  /* all ports */
    double ring_Bps; /* rate a rank-order ring reaches per rank (multi-channel) */
    cr_hw ring_hw;   /* class of the links limiting it */
    /* the least of the ring's limits in each link class (HUGE_VAL where it
     * crosses none): each class runs at its own protocol efficiency, so the
     * slowest class by raw rate need not be the slowest in effect
     * (algo.c ring_rate) */
    double ring_class_Bps[CR_HW__COUNT];
    cr_hw intra_hw; /* NVLINK when ranks of a node share scale-up links, else PCI */
    /* scale-up rate between rank 0 and its node's next rank over the
     * fewest-hop paths (cr_route_ecmp_Bps: the pair's NVLinks, through a
     * switch all of the GPU's, on a torus the one link between
     * neighbours), 0 where none: NCCL's point-to-point channels per peer
     * follow it (algo.c p2p_peer_channels) */
    double pair_up_Bps;
    /* NCCL's SHM transport (route.h cr_route_pcie_p2p): ranks of one node
     * without scale-up links and without PCIe peer access exchange data
     * through host memory (shm: some pair does). The rate each hop gets that
     * way with all of a pattern's hops moving at once
     * (cr_route_host_share_Bps): the ring's (rank i to i+1, the wrap too),
     * the chain's (in NCCL's ring order, coll.c ring_order; no wrap:
     * a ring broadcast, reduce), one of every pair's
     * (all-to-all) and the two-way chain's (i to i+1 and back: a tree
     * inside the node); 0 where the pattern has no such hop. ring_Bps
     * leaves them out (NCCL's choice does not see them). */
    bool shm;
    double shm_ring_Bps, shm_chain_Bps, shm_pair_Bps, shm_tree_Bps;
    /* NCCL's ring's (coll.c ring_order: on PCIe nodes their PCI order, not
     * the ranks'; else shm_ring_Bps) */
    double shm_nccl_ring_Bps;
    double shm_ring_lat_s; /* the ring's slowest SHM hop, up and down: a floor of r_intra_s */
    double shm_pair_lat_s; /* every pair's slowest: a floor of r_intra_far_s */
    /* every pair: the most node-mates one rank reaches through host memory
     * (an all-to-all's SHM messages out of one GPU, beside its others) */
    int shm_pair_peers;
    /* rank 0's way to its NIC (cr_route_nic_path): through a CPU, leaving
     * the GPU over C2C */
    bool nic_via_cpu, nic_via_c2c;
    /* NCCL's CPU vendor (coll.c cpu_vendor): its tuning prices a network
     * post at 2 us on AMD (cpu_amd) and caps multi-node LL by the AMD row on
     * AMD or a mix (cpu_amd_row; algo.c) */
    bool cpu_amd, cpu_amd_row;
    double nic_node_Bps; /* what a node's ranks move out (min over nodes), 0 with one node */
    cr_hw nic_node_hw;   /* class binding it: NET (the NICs), PCI (the ranks' own links) */
    /* NCCL's network transport between two ranks of different nodes
     * (doc/bounds.md 2.2.4): each rank reaches the network through its own
     * NIC(s): rank_net_Bps[i], the NICs nic.c picks for it (NCCL's
     * ncclTopoGetLocalNet, the simulator's rule) up to pair_net_Bps =
     * nic_node_Bps / ppn (the ranks' own host links where those bind the
     * node), rank_net_hw[i] the class binding it (0 / NULL with one node);
     * net_ch_Bps: the least rank_net_Bps (class net_ch_hw; point-to-
     * point's channels per peer, algo_p2p.c); a ring or tree channel
     * crosses a node boundary through one rank's NICs (net_ring_Bps
     * below) on one of net_rails rails (ppn where every node holds the
     * same ppn >= 2 ranks, else the fewest, at least 1);
     * nic_one_Bps: the slowest single NIC a rank reaches the
     * network by (one NIC's rate where ranks share NICs or take several;
     * net_ch_Bps where no rank picks one);
     * a message to another node's rank at local index
     * j leaves through the NIC of the sender's node-mate at local index j
     * (PXN) where that GPU is a rank. rank_node/rank_local: each rank's node
     * and its index among the node's GPUs; node_rank[node x node_slots +
     * local]: the rank there or -1 (rail_nodes nodes); load: 4n doubles,
     * a2a_cnt: node_slots + rail_nodes ints, scratch that rail_time
     * (algo_direct.c) overwrites: NULL in the context, set in each
     * request's own copy of it (cr_coll_scratch_begin). */
    double pair_net_Bps;
    double *rank_net_Bps;
    cr_hw *rank_net_hw;
    double net_ch_Bps;
    cr_hw net_ch_hw;
    double nic_one_Bps;
    /* NCCL's figure for a ring channel's way to its NIC (the least over the
     * ranks of one picked NIC and its GPU's host links, PCIe at NCCL's
     * accounting, algo_p2p.c algo_nccl_graph_channels); 0 with one node */
    double nic_path_Bps;
    int net_rails;
    /* What a ring's or tree's channel crosses a node boundary with
     * (algo_direct.c algo_net_cap_Bps, coll.c rail_figures): a rail rank's
     * NICs up to its node's egress over the rails that cross the node
     * (net_ring_Bps, the least over the ranks; class net_ring_hw), the
     * first j + 1 rails' distinct NICs together (rail_nic_Bps[j], the
     * least over the nodes; NULL with one node). */
    double net_ring_Bps;
    cr_hw net_ring_hw;
    double *rail_nic_Bps;
    /* A point-to-point pattern's network loads by NIC (algo_direct.c
     * rail_time), where ranks share NICs and move unequal bytes (a
     * sendrecv's one crossing rank a node, a gather's root): each rank at
     * most its own NICs up to its GPU's host links (rank_own_Bps, class
     * rank_own_hw), and the ranks whose NIC picks begin with the same NIC
     * (group rank_nic_grp[i], -1 with no NIC near) at most those NICs
     * together (nic_grp_Bps[g], n_nic_grps groups). */
    double *rank_own_Bps;
    cr_hw *rank_own_hw;
    int *rank_nic_grp;
    double *nic_grp_Bps;
    double *nic_grp_load; /* 2 per group: rail_time's scratch (out, in), as load */
    int n_nic_grps;
    int *rank_node, *rank_local, *node_rank;
    /* ranks on each of NCCL's nodes, the nodes in the order of their first
     * rank (NCCL's node index, which ncclGetDtree numbers; the simulator's
     * node_groups): n_nodes entries, NULL with one node or an MNNVL domain
     * (algo_tree.c algo_tree_head_link_s) */
    int *node_ranks;
    int node_slots, rail_nodes;
    int *a2a_cnt;
    double *load;
    struct cr_rail_memo *rail_memo; /* rail_time's last loads and times (algo_direct.c),
                                       one request's: as load */
    /* route latency of one step (doc/bounds.md 2.2.3): between two ranks of
     * a scale-up domain, between domains on one rail, between domains off
     * the rail (PXN: a scale-up hop to the rail's GPU first) */
    double r_intra_s, r_inter_s, r_pxn_s;
    double r_intra_far_s;   /* rank 0's farthest node-mate: a step every pair takes at once */
    double r_ring_mean_s;   /* mean over the rank-order ring's edges */
    bool nvls;              /* every rank reaches one multicast + reduction switch set */
    double nvls_Bps;        /* a GPU's capacity to those switches (min over ranks) */
    double nvls_reduce_Bps; /* total in-switch reduction throughput, HUGE_VAL if port-limited */
    bool nvls_node;         /* every node's ranks reach reduction switches inside the node */
    bool collnet;           /* a fabric switch (outside nodes) reduces: SHARP */
    bool peer;              /* every pair of ranks is peer-accessible (no NIC on the way) */
    bool one_domain;        /* every rank in one scale-up domain */
    double nccl_scale;      /* NCCL's accounting of the intra links over the datasheet */
    /* attainable bound: measured ceilings (cr_coll_ceilings) */
    double ceil_frac[CR_HW__COUNT]; /* per link class, 1 = peak */
    double *att_hbm_Bps;            /* [q]: measured HBM ceiling (or peak) of the ranks of
                                       memory class q (cuts->mem_of) */
    bool measured;                  /* some ceiling came from the topology */
};

/* A request's own copy of the context, with its own scratch: rail_time
 * (algo_direct.c) writes its loads, counts and memo there, so threads
 * evaluating on one context at once (coll.h) never share a byte anyone
 * writes; they shared the context's, and ThreadSanitizer saw the race (a
 * scatter's loads written by one thread while another read a gather's;
 * QA audit of re-entrancy). The copy is shallow: every other pointer is
 * the context's, read only. One allocation of 6n doubles and node_slots +
 * rail_nodes ints a request, next to the O(n) passes it serves. Every
 * caller of the predictors below passes the copy cr_coll_scratch_begin
 * returns (NULL when out of memory, said in d) and ends it after. */
typedef struct {
    struct cr_coll_ctx c;
    struct cr_rail_memo memo;
    double *block;
} cr_coll_scratch;

const struct cr_coll_ctx *cr_coll_scratch_begin(const struct cr_coll_ctx *ctx, cr_coll_scratch *s,
                                                cr_diag *d);
void cr_coll_scratch_end(cr_coll_scratch *s);

/* Fills out with algo/proto's prediction (algo, proto resolved, not auto). */
void cr_algo_predict(const struct cr_coll_ctx *ctx, const cr_coll_req *rq, cr_algo algo,
                     cr_proto proto, const cr_coll_bound *bound, cr_coll_pred *out);

/* Whether cr_algo_predict would give algo/proto an unsupported prediction:
 * it then does nothing but fill in the reason, so that NCCL's choice
 * (coll.c choose), which keeps only the first such reason, skips filling
 * and copying the others (272 bytes cleared and up to 144 copied, for
 * most of the 21 candidates of every prediction). */
bool cr_algo_unsupported(const struct cr_coll_ctx *ctx, const cr_coll_req *rq, cr_algo algo,
                         cr_proto proto);

/* The protocol of the MSCCL algorithm RCCL runs this operation with before
 * its own tuner looks at it, or -1 where none applies (algo.c). */
int cr_algo_msccl_proto(const struct cr_coll_ctx *ctx, const cr_coll_req *rq);

/* One rank: NCCL's local copy (out of place) or nothing (in place); a
 * custom kernel (rq->mech) copies locally too. */
void cr_local_predict(const struct cr_coll_ctx *ctx, const cr_coll_req *rq,
                      const cr_coll_bound *bound, cr_coll_pred *out);

/* A custom kernel on mechanism rq->mech. */
void cr_mech_predict(const struct cr_coll_ctx *ctx, const cr_coll_req *rq,
                     const cr_coll_bound *bound, cr_coll_pred *out);

#pragma GCC visibility pop

#endif
