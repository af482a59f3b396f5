/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by algo.c (the ring, tree and NVLS predictions and
 * NCCL's choice), algo_direct.c (the direct patterns and the rates inside
 * a node), algo_p2p.c (NCCL's channels) and algo_tune.c (NCCL's and
 * RCCL's tuning tables and estimate); nothing outside model/
 * includes this. The names carry
 * no cr_ prefix: libcommroof.so keeps them local (tools/libcommroof.map).
 */
#ifndef CR_ALGO_PRIV_H
#define CR_ALGO_PRIV_H

#include "coll_priv.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* What NCCL's graph channels carry out of a node, one NIC each
 * (algo_graph_channels x the slowest NIC); HUGE_VAL within one node. */
double algo_graph_net_Bps(const struct cr_coll_ctx *c);

/* What a ring's channels move across a node boundary: each channel
 * through one rank's NICs on one of the node's rails, so min(channels,
 * rails) of them, at most algo_graph_net_Bps; HUGE_VAL within one node.
 * *hw: the class of link that binds, whose efficiency
 * applies: CR_HW_NET where the graph's NICs bind, else the ranks' own
 * path's. */
double algo_net_cap_Bps(const struct cr_coll_ctx *c, double nchf, cr_hw *hw);

/* The link rate a rank reaches to a node-mate: its scale-up ports, else
 * its PCIe ports, through host memory (SHM) at most the ring's share of
 * the host path. */
double algo_intra_Bps(const struct cr_coll_ctx *c);

/* The efficiency of a hop through host memory: the PCIe figure for the
 * protocol times coll.eff.shm. */
double algo_shm_eff(const cr_params *p, cr_proto proto);

/* The rate of a chain inside a node: the scale-up or PCIe ports at
 * eff_up, through host memory the ring's share at algo_shm_eff. */
double algo_intra_rate(const struct cr_coll_ctx *c, cr_proto proto, double eff_up);

/* Transfer time of a direct pattern (each rank exchanges with each peer
 * itself) over every cut, each at its own efficiency; for NCCL's
 * point-to-point across nodes the GPU cuts give way to each rank's
 * scale-up and NIC loads. Records the worst cut's bytes, capacity and
 * efficiency in *wb / *wc / *we. */
double algo_direct_time(const struct cr_coll_ctx *c, const cr_coll_req *rq, double eff_up,
                        double *wb, double *wc, double *we);

/* Sets o's eff_mate, eff_shm and eff_net: the efficiency of a direct
 * pattern's messages by NCCL transport (node-mates directly, through host
 * memory, across nodes) of coll at protocol proto, eff_up the scale-up figure,
 * times line (the data's share of the wire: 0.5 for LL's flags)
 * (cr_coll_pred). */
void algo_direct_effs(const struct cr_coll_ctx *c, cr_coll coll, cr_proto proto, double eff_up,
                      double line, cr_coll_pred *o);

/* ---- algo_p2p.c: NCCL's channels (each function's comment there says
 * which NCCL source and release it follows) ---- */

/* The channels of NCCL's ring and tree graphs as its search first finds
 * them: one per NIC of a node across nodes, nch_max inside one. */
int algo_graph_channels(const struct cr_coll_ctx *c, int nch_max);

/* The channels NCCL's tuning prices for rings and trees under release
 * version (NCCL_VERSION_CODE): the ring graph's after ncclTopoDupChannels
 * may have doubled them, trees taking the ring's (algo_p2p.c). */
int algo_nccl_graph_channels(const struct cr_coll_ctx *c, int nch_max, int version);

/* The channels a ring or tree runs across nodes: nch_max rounded down to
 * a multiple of the rails (net_rails) where it exceeds them. */
int algo_rail_channels(const struct cr_coll_ctx *c, int nch_max);

/* The NCCL release whose choices apply: the run's, else coll.nccl_version. */
int algo_nccl_version(const struct cr_coll_ctx *c, const cr_coll_req *rq);

/* The channels an operation may take: the request's, else coll.nchannels. */
int algo_nch_max(const struct cr_coll_ctx *c, const cr_coll_req *rq);

/* What a point-to-point operation sends each peer: a sendrecv all of it,
 * an all-to-all, gather or scatter a rank's share. */
double algo_p2p_peer_bytes(const struct cr_coll_ctx *c, const cr_coll_req *rq);

/* The channels NCCL gives a point-to-point operation to a rank of another
 * node, by release. */
int algo_p2p_net_channels(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nch_max);

/* The channels NCCL splits a point-to-point message of `bytes` to one
 * peer over; *per: the peer's channels. */
int algo_p2p_message_channels(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nch_max,
                              double bytes, int *per);

/* Does NCCL move a point-to-point message of peer_bytes to one peer with
 * LL (else Simple)? */
bool algo_p2p_nccl_ll(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nch_max,
                      double peer_bytes);

/* A point-to-point message whose channels move less than its links: per
 * bytes at ch_rate where that takes longer than *t, stated against the
 * link they cross (*wb, *wc, *we as algo_direct_time's). */
bool algo_p2p_channel_limit(double per, double ch_rate, double *t, double *wb, double *wc,
                            double *we);

/* What a point-to-point message of `bytes` to one peer moves over NVLink
 * (coll.p2p.nvl_ch on each of its channels; twice for a gather's or
 * scatter's one-way works). */
double algo_p2p_nvl_Bps(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nch_max,
                        double bytes);

/* The works NCCL's host plans for an operation, per GPU on average (one
 * per channel of a collective; one per peer and channel of a
 * point-to-point operation's messages). */
double algo_host_works(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nchannels);
double algo_host_calls(const struct cr_coll_ctx *c, const cr_coll_req *rq);

/* ---- algo_tune.c: NCCL's (and RCCL's) tuning model ---- */

/* NCCL's algorithm order in its tables: tree, ring, CollNet direct,
 * CollNet chain, NVLS, NVLS tree, PAT. */
enum { N_ALG = 7 };
enum { NT_TREE, NT_RING, NT_CND, NT_CNC, NT_NVLS, NT_NVLST, NT_PAT };

/* Scales of NCCL's latency tables: base (baseLat), one step inside a node
 * (hwLat NVLINK or PCI), one step across nodes (hwLat NET), NVLS's own
 * figure. */
struct lat_x {
    double base, intra, inter, nvls;
};

/* baseLat of algorithm na and protocol p, RCCL's for LL on AMD GPUs (us). */
double algo_base_lat_us(const struct cr_coll_ctx *c, int na, int p);

/* hwLat of one step on link class row (0 NVLink or xGMI, 1 PCI, 2
 * network), RCCL's for LL on AMD GPUs (us). */
double algo_hw_lat_us(const struct cr_coll_ctx *c, int row, int na, int p);

/* NCCL's own hwLat, whatever the GPUs (us). */
double algo_nccl_hw_lat_us(int row, int na, int p);

/* algo_tree.c. The busiest GPU's share of S on a tree's chains inside
 * the nodes, m ranks a node and C channels (0 below 2 ranks). */
double algo_chain_egress(int m, int C);

/* The busiest node's share of S sent to the network by NCCL's double
 * binary tree over N nodes. */
double algo_dtree_egress(int N);

/* On nodes without scale-up links, the busiest head GPU's link time (s):
 * its chain bytes at r_chain plus its network bytes at r_net (B/s), C
 * channels of S bytes; *bytes_out its bytes one way. 0 where no node holds
 * two ranks or the nodes' ranks are not known. */
double algo_tree_head_link_s(const struct cr_coll_ctx *c, int C, double S, double r_chain,
                             double r_net, double *bytes_out);

/* NCCL's log2i: the floor of log2(x), -1 below 1. */
int algo_log2i(double x);

/* NCCL's steps of a ring: 2(n-1) for allreduce, n-1 for allgather and
 * reducescatter, n otherwise. */
int algo_nsteps(cr_coll coll, int n);

/* NCCL's latency estimate (us) of algorithm na and protocol p by today's
 * tables, each table term scaled by *scale (NULL: NCCL's own, all 1),
 * every step at least its route's latency (algo_nccl_est_s prices a
 * release's own tables). */
double algo_nccl_lat_us(const struct cr_coll_ctx *c, cr_coll coll, int na, int p,
                        const struct lat_x *scale);

/* NCCL's estimate in seconds (ncclTopoGetAlgoTime) over nch channels, by
 * the tables of release version (NCCL_VERSION_CODE); HUGE_VAL where NCCL
 * would not run the pair. */
double algo_nccl_est_s(const struct cr_coll_ctx *c, cr_coll coll, double S, int na, int p, int nch,
                       int version);

#pragma GCC visibility pop

#endif
