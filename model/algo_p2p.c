/* SPDX-License-Identifier: MIT */
/*
 * How many channels NCCL gives an operation: its ring and tree graphs'
 * channels across nodes, the communicator's point-to-point channels and
 * how many of them one peer's message takes (NCCL 2.x by release), and the
 * run's limits (release, channel count).
 */
#include <limits.h>
#include <math.h>

#include "algo_priv.h"

/* The channels of NCCL's ring and tree graphs as its search first finds
 * them, before ncclTopoDupChannels may repeat them (what the tuning
 * prices: algo_nccl_graph_channels): across nodes one per NIC of a node,
 * each channel leaving through its own NIC at the NIC's rate
 * (src/graph/search.cc: a channel takes bwInter of its NIC, and the search
 * stops adding channels once they carry the node's network rate); on 2x
 * (4 H100, 4 NICs) NCCL lists 8 channels, channels 4-7 repeating 0-3
 * (validate/corpus/h100x4-ib-2n, NCCL_DEBUG output). Counted in whole
 * NICs, not in ranks' shares of them: two GPUs sharing a NIC still make
 * one channel of it. Inside one node: nch_max. */
int algo_graph_channels(const struct cr_coll_ctx *c, int nch_max)
{
    if (c->n_nodes < 2 || !(c->nic_one_Bps > 0) || !(c->nic_node_Bps > 0))
        return nch_max;
    double nics = round(c->nic_node_Bps / c->nic_one_Bps);
    return (int)fmax(1.0, fmin((double)nch_max, nics));
}

/* Whether NCCL's search repeats its ring graph's channels
 * (ncclTopoDupChannels, src/graph/search.cc @v2.28.9-1 lines 961-974,
 * run at the end of the first pass, line 1159; before 2.19 at the end of
 * ncclTopoCompute, @v2.18.6-1 lines 986-997, @v2.8.4-1 lines 799-806).
 * It tests the channels' rate bwIntra, for a ring across nodes the speed
 * the first pass found: the fastest entry of the release's inter-node
 * speed list (@v2.28.9-1 lines 977-987) that a NIC's path carries, the
 * least of the NIC and its GPU's host links (nic_path_Bps). The tests by
 * release: from 2.18.3, bwIntra >= 25 but not (ccMin > 80, bwIntra < 50
 * and more than 4 channels) (@v2.18.3-1 lines 970-971); 2.16 to 2.18.1,
 * ccMin <= 80 and bwIntra >= 25, or ccMin <= 90 and bwIntra >= 50
 * (@v2.16.5-1 line 898, @v2.18.1-1 line 954); before, bwIntra >= 25
 * (@v2.15.5-1 line 893, @v2.8.4-1 line 799). Every list's first entry
 * above 25 is 28 (2.16 on, before sm90's lists) or 30, and only sm100's
 * from 2.27 reaches 50 (96; 48 the highest before and on sm90). */
static bool nccl_ring_dup(const struct cr_coll_ctx *c, int nics, int version)
{
    int cc = c->p.gen == CR_GEN_BLACKWELL ? 100
             : c->p.gen == CR_GEN_HOPPER  ? 90
             : c->p.gen == CR_GEN_AMPERE  ? 80
                                          : 70;
    double path = c->nic_path_Bps / 1e9 * (1 + 1e-9);
    bool sm90_list = cc >= 90 && version >= 21600;
    bool over25 = path >= (sm90_list || version < 21600 ? 30.0 : 28.0);
    /* no list below sm100's of 2.27 reaches 50, so the 2.16-2.18.1 test's
     * second half never holds: kept as NCCL writes it */
    bool over50 = cc >= 100 && version >= 22700 && path >= 96.0;
    if (version >= 21803)
        return over25 && !(cc > 80 && !over50 && nics > 4);
    if (version >= 21600)
        return (cc <= 80 && over25) || (cc <= 90 && over50);
    return over25;
}

/* The channels of NCCL's ring and tree graphs when its tuning reads them
 * (tuning.cc: graphs[a]->nChannels, @v2.28.9-1 lines 284-308). Tuning
 * runs after ncclTopoCompute, whose ncclTopoDupChannels may have doubled
 * the ring's (nccl_ring_dup; up to its maxChannels, MAXCHANNELS/2: 16,
 * 32 from 2.25), and after init.cc sets both graphs to the fewer of the
 * two over all ranks (@v2.28.9-1 lines 1179, 1192; @v2.8.4-1 lines 694,
 * 744); connect.cc ncclTopoPostset doubles comm->nChannels, not the
 * graphs (@v2.28.9-1 line 452; tuning @v2.28.9-1 init.cc line 1356 reads
 * the graphs). A tree's search keeps to the ring's channels (init.cc
 * @v2.28.9-1 lines 1026-1027: minChannels = maxChannels = the ring's;
 * before 2.18 maxChannels alone, @v2.8.4-1 line 656), so its own doubling
 * after pass 2 raised bwIntra (@v2.8.4-1 lines 779-806) adds none past the
 * ring's: both graphs price the ring's channels. RCCL's search is its own:
 * one a NIC. Inside one node: nch_max. */
int algo_nccl_graph_channels(const struct cr_coll_ctx *c, int nch_max, int version)
{
    int nics = algo_graph_channels(c, INT_MAX);
    if (c->n_nodes < 2 || c->rccl || nch_max <= nics || !nccl_ring_dup(c, nics, version))
        return algo_graph_channels(c, nch_max);
    int max_ch = (version >= 22500 ? 64 : 32) / 2;
    return (int)fmin((double)nch_max, fmax((double)nics, fmin(2.0 * nics, (double)max_ch)));
}

/* The channels a ring or tree runs across nodes: a whole number of the
 * rails its channels cross on (net_rails; channel c on rails c and c + 1,
 * flowsim_rings.c flowsim_ring_order, algo_tree.c), so that every rail
 * carries the same channels. NCCL's search finds one ring or tree a NIC
 * (src/graph/search.cc ncclTopoCompute @v2.28.9-1) and then repeats the
 * set whole (ncclTopoDupChannels there, and src/graph/connect.cc
 * ncclTopoPostset doubles it again), so the channels it runs are a
 * multiple of the rails (2 x (4 H100, 4 NICs): 8 channels, 4-7 repeating 0-3,
 * validate/corpus/h100x4-ib-2n). 16 channels over 3 rails put 6 on
 * rail 0 where coll's rate spreads them evenly: 6/16 against 1/3, the
 * simulator 9/8 of coll (sim allgather --topo h100-ib-4n --ranks
 * 1,2,3,9,10,11 -b 2G: 1.124, QA sweep of session 47). Fewer channels
 * than rails (a small message's) already cross each on rails of its own;
 * inside one node nch_max. */
int algo_rail_channels(const struct cr_coll_ctx *c, int nch_max)
{
    int R = c->net_rails;
    if (c->n_nodes < 2 || R < 2 || nch_max <= R)
        return nch_max;
    return nch_max - nch_max % R;
}

static int pow2_up(int v)
{
    int p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

/* The NCCL release whose choices apply: the run's, else coll.nccl_version. */
int algo_nccl_version(const struct cr_coll_ctx *c, const cr_coll_req *rq)
{
    return rq->nccl_version > 0 ? rq->nccl_version : c->p.nccl_version;
}

/* The channels an operation may take: the request's, else coll.nchannels. */
int algo_nch_max(const struct cr_coll_ctx *c, const cr_coll_req *rq)
{
    return rq->nchannels > 0 ? rq->nchannels : c->p.nchannels;
}

/* The communicator's point-to-point channels (p2pnChannels): the ring
 * graph's channels duplicated (connect.cc), a power of two, at most 64. */
static int p2p_comm_channels(const struct cr_coll_ctx *c, int nch_max)
{
    return pow2_up((int)fmin(64, 2 * algo_graph_channels(c, nch_max)));
}

/* What a point-to-point operation sends each peer: a sendrecv all of it,
 * an all-to-all, gather or scatter a rank's share. */
double algo_p2p_peer_bytes(const struct cr_coll_ctx *c, const cr_coll_req *rq)
{
    return rq->coll == CR_COLL_SENDRECV ? rq->bytes : rq->bytes / c->n;
}

/* The channels NCCL gives a point-to-point operation to a rank of another
 * node (src/graph/paths.cc ncclTopoGetNchannels, the least over all peers,
 * then ncclTopoComputeP2pChannels; enqueue.cc stripes a large send over
 * all of them). Its p2p channels are the communicator's: the ring graph's
 * channels, duplicated (connect.cc). By release: one before 2.12.7; then
 * NCCL_NCHANNELS_PER_NET_PEER, 2; from 2.20.3 two, halved while 2 x ranks
 * exceeds 4 x the p2p channels; from 2.29.2 one per 14 GB/s of the rank's
 * NICs (coll.p2p.net_ch), halved while it times the ranks in batches of
 * NCCL_MAX_DEV_WORK_P2P_PER_BATCH (8) exceeds the p2p channels. A peer on
 * PCIe inside the node caps it at 2 (which binds only the last rule's
 * count). One NIC per rank assumed. */
int algo_p2p_net_channels(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nch_max)
{
    int version = algo_nccl_version(c, rq);
    int p2p_ch = p2p_comm_channels(c, nch_max); /* >= 2 */
    int per = 2;
    if (version < 21207)
        return 1;
    if (version < 22003)
        return 2;
    if (version < 22900) {
        while (per * c->n > p2p_ch * 4 && per > 1)
            per /= 2;
        return per;
    }
    /* no NIC rate known (netCount 0 in NCCL): its default, 2 */
    if (isfinite(c->net_ch_Bps) && c->net_ch_Bps > 0)
        per = (int)fmin(64.0, fmax(1.0, ceil(c->net_ch_Bps / c->p.p2p_net_ch_Bps)));
    if (c->ppn > 1 && c->intra_hw != CR_HW_NVLINK)
        per = (int)fmin(per, 2);
    per = pow2_up(per);
    while (per * ((c->n + 7) / 8) > p2p_ch && per > 1)
        per /= 2;
    return per;
}

/* The channels NCCL gives a point-to-point operation to each peer before
 * it splits one by size (src/graph/paths.cc ncclTopoGetNchannels and
 * ncclTopoComputeP2pChannels, NCCL 2.29.2): inside the node two per NVLink
 * of the pair's path (NCCL counts path bandwidth over its per-link figure:
 * links of 25 GB/s a direction up to Hopper, 50 on Blackwell, as the
 * topology's raw rates), two over PCIe or host memory; to another node
 * algo_p2p_net_channels, which binds the least over all peers; a power of two,
 * at most the communicator's p2p channels (p2p_ch). */
static int p2p_peer_channels(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nch_max,
                             int *p2p_ch)
{
    *p2p_ch = p2p_comm_channels(c, nch_max);
    if (c->n_nodes > 1)
        return algo_p2p_net_channels(c, rq, nch_max);
    double link_Bps = c->p.gen == CR_GEN_BLACKWELL ? 50e9 : 25e9;
    int per = c->pair_up_Bps > 0 ? 2 * (int)fmax(1.0, round(c->pair_up_Bps / link_Bps)) : 2;
    return (int)fmin(*p2p_ch, pow2_up(per));
}

/* The channels NCCL splits a point-to-point message of `bytes` to one
 * peer over (src/enqueue.cc addP2pToPlan, 2.22-2.29.2; before 2.22
 * calcP2pChunkSize cuts the same parts): parts of at least minPart
 * (NCCL_P2P_{NET,NVL,PCI}_CHUNKSIZE 128 KiB / 512 KiB / 128 KiB, over 2
 * across nodes and 8 inside one) on at most nChannelsMin channels (the
 * peer's channels, halved while they times the ranks exceed the p2p
 * channels), doubled up to the peer's channels while a part exceeds
 * maxPart (the chunk across nodes, 32 chunks inside one). 8 ranks of an
 * NVSwitch board: 4 channels up to 64 MiB, 8 at 128 MiB, 16 at 256 MiB.
 * *per: the peer's channels (nChannelsMax). */
int algo_p2p_message_channels(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nch_max,
                              double bytes, int *per)
{
    int p2p_ch;
    *per = p2p_peer_channels(c, rq, nch_max, &p2p_ch);
    int ch_min = *per;
    while (ch_min * c->n > p2p_ch && ch_min > 1)
        ch_min /= 2;
    bool net = c->n_nodes > 1;
    double chunk = net || c->intra_hw != CR_HW_NVLINK ? 131072 : 524288;
    double min_part = chunk / (net ? 2 : 8), max_part = net ? chunk : 32 * chunk;
    int nch = (int)fmin(ch_min, fmax(1.0, ceil(bytes / min_part)));
    double part = fmax(min_part, ceil(bytes / nch));
    while (part > max_part && nch <= *per / 2) {
        nch *= 2;
        part = ceil(bytes / nch);
    }
    return nch;
}

/* What a point-to-point message of `bytes` to one peer moves over NVLink:
 * the channels NCCL splits it over (algo_p2p_message_channels) at
 * coll.p2p.nvl_ch each. That figure is measured on sendrecv, whose works
 * each send and receive and split their warps between the two
 * (src/device/sendrecv.h nSendWarpPerWork / nRecvWarpPerWork); a work
 * that only sends or only receives keeps them all for its one direction
 * ("Sends without recvs use more warps"): a gather's root only receives
 * and its other ranks only send, a scatter the reverse, at twice the
 * rate. */
double algo_p2p_nvl_Bps(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nch_max,
                        double bytes)
{
    int per;
    int nch = algo_p2p_message_channels(c, rq, nch_max, bytes, &per);
    bool one_way = rq->coll == CR_COLL_GATHER || rq->coll == CR_COLL_SCATTER;
    double ch_Bps = c->p.p2p_nvl_ch_Bps;
    /* One thread driving every GPU of the node, NCCL before 2.23: each
     * sender writes straight into its peer's buffer (coll.p2p.nvl_ch.direct;
     * only between ranks of one process, P2P_SAME_PID, so not where some
     * peers of the node run in another) */
    if (rq->ranks_per_process > 1 && rq->ranks_per_process >= c->ppn &&
        algo_nccl_version(c, rq) < 22300 && c->p.p2p_nvl_direct_ch_Bps > 0)
        ch_Bps = c->p.p2p_nvl_direct_ch_Bps;
    return nch * ch_Bps * (one_way ? 2.0 : 1.0);
}

/* Does NCCL move a point-to-point message of peer_bytes to one peer with
 * LL (else Simple)? NCCL_P2P_LL_THRESHOLD (16 KiB) per channel, counted by
 * release (src/enqueue.cc): before 2.22 per part of the message (a part
 * is at least minPart, algo_p2p_message_channels, so only a message of at most
 * 16 KiB, or more on PCIe where parts are 16 KiB); from 2.22 against all
 * of the peer's channels (nChannelsMax x 16 KiB: 512 KiB between two H100
 * of an NVSwitch board); from 2.29 against the channels the message is
 * split over. */
bool algo_p2p_nccl_ll(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nch_max,
                      double peer_bytes)
{
    const double ll_per_ch = 16384;
    int version = algo_nccl_version(c, rq);
    int per, nch = algo_p2p_message_channels(c, rq, nch_max, peer_bytes, &per);
    if (version >= 22200 && version < 22900)
        return peer_bytes <= per * ll_per_ch;
    if (version >= 22900)
        return peer_bytes <= nch * ll_per_ch;
    /* before 2.22: each part is one LL or Simple op */
    return fmin(ceil(peer_bytes / nch), peer_bytes) <= ll_per_ch;
}

/* A point-to-point message whose channels move less than its links: per
 * bytes at ch_rate where that takes longer than *t, stated against the
 * link they cross (*wc, the fastest it could be). True when it binds: the
 * prediction is then per message (cr_coll_pred per_message), and the
 * simulator caps each message's flow at the rate instead of slowing the
 * links, which several messages share. */
bool algo_p2p_channel_limit(double per, double ch_rate, double *t, double *wb, double *wc,
                            double *we)
{
    if (!(per / ch_rate > *t))
        return false;
    *t = per / ch_rate;
    *wb = per;
    if (!(*wc >= ch_rate))
        *wc = ch_rate;
    *we = ch_rate / *wc;
    return true;
}

/* The point-to-point calls (ncclSend, ncclRecv) nccl-tests' one thread
 * makes per GPU and operation, on average (params coll.host_op.p2p): a
 * sendrecv a send and a receive each, an all-to-all n - 1 of both, a
 * gather's or scatter's root n - 1 and every other rank one, 2 (n - 1) / n
 * on average; 0 for a collective (its one call is coll.host_op). */
double algo_host_calls(const struct cr_coll_ctx *c, const cr_coll_req *rq)
{
    if (!cr_coll_p2p(rq->coll))
        return 0;
    double n = c->n;
    return rq->coll == CR_COLL_SENDRECV   ? 2.0
           : rq->coll == CR_COLL_ALLTOALL ? 2.0 * (n - 1)
                                          : 2.0 * (n - 1) / n;
}

/* The works NCCL's host plans for an operation, per GPU on average, which
 * its enqueue cost grows with (params coll.host_op.ch): a collective one
 * per channel it runs on (scheduleCollTasksToPlan adds a work batch to
 * each, src/enqueue.cc @v2.28.9); a point-to-point operation one per peer
 * message (algo_host_calls) and channel the message is split over
 * (addP2pToPlan: one ncclDevWorkP2p per channel of each send and
 * receive). */
double algo_host_works(const struct cr_coll_ctx *c, const cr_coll_req *rq, int nchannels)
{
    if (!cr_coll_p2p(rq->coll))
        return nchannels;
    int per;
    double msg_ch =
        algo_p2p_message_channels(c, rq, algo_nch_max(c, rq), algo_p2p_peer_bytes(c, rq), &per);
    return algo_host_calls(c, rq) * msg_ch;
}
