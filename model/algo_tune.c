/* SPDX-License-Identifier: MIT */
/*
 * NCCL's own tuning model (and RCCL's, where it differs): the tables of
 * NVIDIA/nccl src/graph/tuning.cc (2.2x: baseLat, hwLat, llMaxBws,
 * perChMax*Bws, nvlsEfficiency, treeCorrectionFactor) and ROCm/rccl's for
 * LL on AMD GPUs, the latency and bandwidth estimates built from them, and
 * the time NCCL compares to choose an algorithm and protocol
 * (ncclTopoGetAlgoTime). The structure and constants are facts taken from
 * those files; the code is ours. Predictions (algo.c) take the latency
 * tables where no fitted step latencies exist, never NCCL's bandwidths,
 * which are selection heuristics (NCCL issue 1154).
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>

#include "algo_priv.h"

static const double nccl_base_lat[N_ALG][3] = {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0},
                                               {0, 0, 0},        {0, 0, 0},        {0, 0, 0},
                                               {8.0, 8.0, 8.0}};
static const double nccl_hw_lat[3][N_ALG][3] = {
    /* NVLink */
    {{0.6, 1.25, 4.0},
     {0.6, 1.9, 3.4},
     {0, 0, 3.7},
     {0, 0, 2.8},
     {0, 0, 25},
     {0, 0, 25},
     {0, 0, 4.0}},
    /* PCI */
    {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}, {0, 0, 4.0}},
    /* NET */
    {{5.0, 8.5, 14},
     {2.7, 4.0, 14.0},
     {0, 0, 31},
     {0, 0, 30},
     {0, 0, 18},
     {0, 0, 20.9},
     {0, 0, 14}},
};
/* [gen][nodes index: 1, 2, >2]; gen rows volta/ampere/hopper/blackwell */
static const double nccl_ll_max[4][3] = {
    {39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}};
static const double nccl_ring_ll128_ch[4][3] = {
    {20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {40.0, 40.0, 40.0}};
static const double nccl_tree_ll128_ch[4][3] = {
    {20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};
static const double nccl_tree_ch[4][3] = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
static const double nccl_nvlstree_ch[4][3] = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}};
static const double nccl_nvls_eff[4] = {0.0, 0.0, 0.85, 0.74};
static const float nccl_tree_corr[3][24] = {
    {1.0f, 1.0f, 1.0f, 1.0f, .9f, .8f, .7f, .7f,  .7f,  .7f,  .6f,  .5f,
     .4f,  .4f,  .5f,  .6f,  .7f, .8f, .9f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f},
    {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, .9f, .8f, .8f, .8f, .7f,  .6f,  .6f,
     .6f,  .6f,  .6f,  .6f,  .8f,  .9f, .9f, .9f, .9f, 1.0f, 1.0f, 1.0f},
    {.9f, .9f, .9f, .9f, .9f, .9f, .9f, .8f, .7f, .6f, .6f, .5f,
     .5f, .5f, .5f, .6f, .7f, .8f, .7f, .7f, .8f, .9f, .9f, .9f},
};

/* NCCL before 2.18 (tuning.cc @v2.16.2-1 lines 56 and 63-72, the same
 * figures @v2.8.4-1 lines 56 and 63-70): baseLat and hwLat of tree and ring
 * [tree, ring][LL, LL128, Simple], rows NVLink, PCI, network. 2.18.1
 * replaced them with the tables above (@v2.18.1-1 lines 56-79). */
static const double nccl_base_lat_pre218[2][3] = {{4.4, 4.4, 0}, {3.6, 10.0, 8.4}};
static const double nccl_hw_lat_pre218[3][2][3] = {{{.52, 1.25, 28}, {.47, 1.9, 3.4}},
                                                   {{1.0, 1.9, 28}, {1.0, 2.5, 5.7}},
                                                   {{5.0, 8.5, 28}, {2.7, 4.0, 9.6}}};
/* NCCL 2.8 and 2.9 (tuning.cc @v2.8.4-1 lines 74, 76, 126, 129, 267; the
 * same @v2.9.9-1): LL128 capped per channel by collective (broadcast,
 * reduce, allgather, reducescatter, allreduce; one 20 GB/s from 2.10.3,
 * @v2.10.3-1 line 73), Ampere's tree cap per channel lower at 2 and more
 * nodes (23.6 / 17.8 from 2.10.3, line 75), and its own LL128 row of
 * treeCorrectionFactor. */
static const double nccl_tree_ch_ampere_pre210[3] = {24.0, 22.5, 16.0};
static const float nccl_tree_corr_ll128_pre210[23] = {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, .9f,  .8f, .8f,
                                                      .8f,  .7f,  .6f,  .6f,  .6f,  .5f,  .6f, .6f,
                                                      .7f,  .7f,  .8f,  .9f,  .9f,  .92f, .92f};

static double ll128_ch_pre210(cr_coll coll)
{
    switch (coll) {
    case CR_COLL_BROADCAST:
        return 18.8;
    case CR_COLL_REDUCE:
        return 12.0;
    case CR_COLL_ALLGATHER:
        return 18.3;
    case CR_COLL_REDUCESCATTER:
        return 15.2;
    default:
        return 16.9;
    }
}

/* RCCL's own LL figures where the GPUs are AMD's (cr_coll_ctx rccl; ROCm/rccl
 * src/graph/tuning.cc 2.21.5): baseLat LL 12 us; hwLat LL of tuning_model_5
 * (8-GPU 7-link xGMI platforms with NICs), [xGMI, PCI, NET][tree, ring].
 * LL128 and Simple keep NCCL's (doc/bounds.md 2.1, doc/corpus.md Session 14). */
static const double rccl_base_lat_ll = 12.0;
static const double rccl_hw_lat_ll[3][2] = {{0.9, 0.8}, {2.2, 2.2}, {10.5, 9.5}};

/* NCCL's (or RCCL's) fixed latency of an algorithm, and of one step on a
 * link class (row 0 NVLink or xGMI, 1 PCI, 2 network). */
double algo_base_lat_us(const struct cr_coll_ctx *c, int na, int p)
{
    if (c->rccl && p == CR_PROTO_LL && na <= NT_CNC)
        return rccl_base_lat_ll;
    return nccl_base_lat[na][p];
}

double algo_hw_lat_us(const struct cr_coll_ctx *c, int row, int na, int p)
{
    if (c->rccl && p == CR_PROTO_LL && (na == NT_TREE || na == NT_RING))
        return rccl_hw_lat_ll[row][na];
    return nccl_hw_lat[row][na][p];
}

double algo_nccl_hw_lat_us(int row, int na, int p)
{
    return nccl_hw_lat[row][na][p];
}

int algo_log2i(double x)
{
    /* floor(log2 x), -1 below 1: the exponent frexp gives (x = f 2^e with
     * f in [0.5, 1)), less one. It halved x until below 1, a chain of up
     * to 33 divisions for an 8 GiB size in every NCCL estimate (a tenth of
     * `calibrate --nccl-tests`); an infinity, which it never left, is 1024. */
    if (!(x >= 1))
        return -1;
    if (isinf(x))
        return 1024;
    int e;
    frexp(x, &e);
    return e - 1;
}

static int gen_row(const struct cr_coll_ctx *c)
{
    switch (c->p.gen) {
    case CR_GEN_BLACKWELL:
        return 3;
    case CR_GEN_HOPPER:
        return 2;
    case CR_GEN_AMPERE:
        return 1;
    default:
        return 0;
    }
}

int algo_nsteps(cr_coll coll, int n)
{
    if (coll == CR_COLL_ALLREDUCE)
        return 2 * (n - 1);
    if (coll == CR_COLL_ALLGATHER || coll == CR_COLL_REDUCESCATTER)
        return n - 1;
    return n;
}

/* NCCL's baseLat (row -1) or hwLat of link class row for (na, p), as
 * release version has them: for trees and rings before 2.23, before 2.18
 * the pre-2.18 tables above, from 2.18 NCCL's current ones but for the
 * tree's Simple, baseLat 0 and hwLat 28 us on every link class (tuning.cc
 * @v2.22.3-1 lines 57, 67, 71, 75; 8.4 and 4.0 / 4.0 / 14 from @v2.23.4-1,
 * the same lines); else algo_base_lat_us's and algo_hw_lat_us's. */
static double table_us(const struct cr_coll_ctx *c, int version, int row, int na, int p)
{
    if (version < 22300 && (na == NT_TREE || na == NT_RING)) {
        if (version < 21800)
            return row < 0 ? nccl_base_lat_pre218[na][p] : nccl_hw_lat_pre218[row][na][p];
        if (na == NT_TREE && p == CR_PROTO_SIMPLE)
            return row < 0 ? 0.0 : 28.0;
    }
    return row < 0 ? algo_base_lat_us(c, na, p) : algo_hw_lat_us(c, row, na, p);
}

/* NCCL's latency in microseconds for (coll, algo, proto) on this
 * communicator (tuning.cc ncclTopoTuneModel) under release version, its
 * figures times *scale's, each step at least the route latency of its hop
 * (doc/bounds.md 2.2.3): a step inside a node r_intra, a network step
 * r_inter, a ring at least its steps x its edges' mean route latency.
 * NCCL's choice ranks the same floored figures, so the pair it picks is
 * the one whose prediction is least where the floors bind (they raise only
 * latencies below the hardware's). Trees and rings before 2.23 (tuning.cc
 * @v2.22.3-1 lines 223-251, @v2.16.2-1 lines 165-184, @v2.8.4-1 lines
 * 138-156): table_us's figures, a node crossing at the algorithm's own
 * network figure also with one rank a node (the tree's from 2.23,
 * @v2.23.4-1 line 236); before 2.18 an LL step inside a node 1.8 x where
 * there are several nodes (@v2.16.2-1 line 169) and no network post
 * overhead (getNetOverhead, new @v2.18.1-1 lines 104-110, 209-214). */
static double nccl_lat_us(const struct cr_coll_ctx *c, cr_coll coll, int na, int p,
                          const struct lat_x *scale, int version)
{
    static const struct lat_x ones = {1, 1, 1, 1};
    const struct lat_x x = scale ? *scale : ones;
    const bool floor = true;
    int n = c->n, N = c->n_nodes, ppn = c->ppn;
    int intra = c->intra_hw == CR_HW_NVLINK ? 0 : 1;
    int hw = N == 1 ? intra : 2;
    /* the release rules apply to trees and rings; the rest keep today's */
    int tv = na == NT_TREE || na == NT_RING ? version : INT_MAX;
    bool pre223 = tv < 22300, pre218 = tv < 21800;
    double ls = x.base;
    double lat = table_us(c, tv, -1, na, p) * ls;
    double intra_lat = table_us(c, tv, intra, na, p) *
                       (na == NT_NVLS || na == NT_NVLST ? x.nvls : x.intra) *
                       (pre218 && N > 1 && p == CR_PROTO_LL ? 1.8 : 1.0);
    double inter_lat =
        (ppn == 1 && !pre223 ? table_us(c, tv, 2, NT_TREE, p) : table_us(c, tv, 2, na, p)) *
        x.inter;
    double r_in = floor ? c->r_intra_s * 1e6 : 0, r_x = floor ? c->r_inter_s * 1e6 : 0;
    int nsteps = algo_nsteps(coll, n);
    switch (na) {
    case NT_RING:
        if (coll == CR_COLL_BROADCAST || coll == CR_COLL_REDUCE) {
            /* one figure for the pipelined chain: its n-1 hops at least */
            lat += fmax(table_us(c, tv, hw, NT_RING, p) * (N == 1 ? x.intra : x.inter),
                        floor ? (n - 1) * c->r_ring_mean_s * 1e6 : 0);
        } else {
            /* getNetOverhead: a network post costs 1 us (x86 Intel, others)
             * or 2 us (AMD), x3 for Simple (tuning.cc @v2.28.9) */
            double net_ovh = N > 1 && !pre218
                                 ? (p == CR_PROTO_SIMPLE ? 3.0 : 1.0) * (c->cpu_amd ? 2.0 : 1.0)
                                 : 0.0;
            intra_lat = fmax(fmax(intra_lat, net_ovh * x.inter), r_in);
            inter_lat = fmax(inter_lat, r_x); /* a ring's node crossing stays on a rail */
            int inter_steps = N == 1 ? 0 : coll == CR_COLL_ALLREDUCE ? 2 * (N - 1) : N - 1;
            lat += fmax((nsteps - inter_steps) * intra_lat + inter_steps * inter_lat,
                        floor ? nsteps * c->r_ring_mean_s * 1e6 : 0);
        }
        break;
    case NT_TREE:
        lat += 2 * ((ppn - 1) * fmax(intra_lat, r_in) + algo_log2i(N) * fmax(inter_lat, r_x));
        break;
    case NT_CND:
        lat += 2 * (fmin(1, ppn - 1) * intra_lat + (ppn - 1) * 0.4 * ls) + inter_lat;
        break;
    case NT_NVLS:
        /* two steps (reduce, multicast), each GPU -> switch -> GPU */
        lat = fmax(intra_lat, 2 * r_in) + (N > 1 ? inter_lat : 0);
        break;
    case NT_NVLST:
        lat += intra_lat + 2 * algo_log2i(N) * fmax(inter_lat, r_x);
        break;
    case NT_PAT:
        lat += algo_log2i(N) * (inter_lat / 3.5) + n * 2.8 * ls;
        break;
    default:
        break;
    }
    return lat;
}

double algo_nccl_lat_us(const struct cr_coll_ctx *c, cr_coll coll, int na, int p,
                        const struct lat_x *scale)
{
    return nccl_lat_us(c, coll, na, p, scale, INT_MAX);
}

/* NCCL's algorithm bandwidth in GB/s for (coll, algo, proto); 0 when NCCL
 * would not run it. */
static double nccl_bw_GBps(const struct cr_coll_ctx *c, cr_coll coll, int na, int p, int nch,
                           int version)
{
    int n = c->n, N = c->n_nodes, g = gen_row(c);
    int i2 = N <= 2 ? N - 1 : 2;
    /* across nodes NCCL takes llMaxBws' row by CPU vendor: 0 Intel, 1 AMD */
    int i1 = N == 1 ? g : c->cpu_amd_row ? 1 : 0;
    double ll_max = nccl_ll_max[i1][i2];
    double ppn = (double)n / N;
    /* the graph's bandwidth in NCCL's accounting: the intra-node fabric at
     * NCCL's per-link rate, across nodes what the ring reaches there */
    double intra = (c->up_Bps > 0 ? c->up_Bps : c->ring_Bps) * c->nccl_scale;
    double total = (N > 1 ? fmin(intra, c->ring_Bps) : intra) / 1e9;
    /* Two nodes: NCCL's search raises a tree graph's intra-node rate up to
     * twice its network rate ("increase bwIntra for trees (2 nodes or
     * collnet)", src/graph/search.cc pass 2), and tuning.cc prices two
     * nodes at bwIntra: where the NICs bind, the tree's estimate doubles
     * and NCCL picks it for large allreduces (it sends S per node where the
     * ring sends 2(n-1)/n S). */
    if (na == NT_TREE && N == 2)
        total = fmin(intra / 1e9, 2 * total);
    double bw = total / nch;
    if (na == NT_NVLS || na == NT_NVLST) {
        if (nch < 2)
            return 0;
        double nv = c->nvls_Bps * c->nccl_scale / 1e9 / nch;
        double intra_bw = nv * nccl_nvls_eff[g] * (nch - 1) / nch;
        intra_bw *= coll == CR_COLL_ALLREDUCE ? 2.0 : (ppn - 1) / ppn;
        double inter_bw =
            (N > 1 ? c->nic_node_Bps / 1e9 / nch : nv) * ((N <= 2 && na == NT_NVLST) ? 2 : 1);
        bw = fmin(intra_bw, inter_bw);
        if (na == NT_NVLST)
            bw = fmin(bw, nccl_nvlstree_ch[g][i2]);
    }
    double bus = nch * bw;
    /* releases before 2.10: LL128's cap per channel by collective, Ampere's
     * lower tree cap (the tables' comment above ll128_ch_pre210) */
    bool pre210 = version < 21000;
    double ring_ll128_ch = pre210 ? ll128_ch_pre210(coll) : nccl_ring_ll128_ch[g][i2];
    double tree_ll128_ch = pre210 ? ll128_ch_pre210(coll) : nccl_tree_ll128_ch[g][i2];
    double tree_ch = pre210 && g == 1 ? nccl_tree_ch_ampere_pre210[i2] : nccl_tree_ch[g][i2];
    /* ring LL: half the graph's rate from 2.21 (tuning.cc @v2.21.5-1 line
     * 180); before, a quarter across nodes or for allreduce and reduce,
     * else a third (@v2.20.5-1 line 181, the same @v2.8.4-1 line 125) */
    double ring_ll = version >= 22100                                                 ? 0.5
                     : (N > 1 || coll == CR_COLL_ALLREDUCE || coll == CR_COLL_REDUCE) ? 0.25
                                                                                      : 1.0 / 3.0;
    if (na == NT_RING && p == CR_PROTO_LL)
        bus = fmin(ll_max, bus * ring_ll);
    /* ring LL128: 0.7 with one rank a node (the GPU sends and receives
     * through its NIC) before 2.23 (@v2.22.3-1 line 179; 0.92 alone
     * @v2.23.4-1 line 188) */
    if (na == NT_RING && p == CR_PROTO_LL128)
        bus = fmin(bus * (version < 22300 && ppn < 2 ? 0.7 : 0.92), nch * ring_ll128_ch);
    if (na == NT_TREE && coll == CR_COLL_ALLREDUCE)
        bus = fmin(bus * 0.92, nch * tree_ch);
    if (na == NT_TREE && p == CR_PROTO_LL)
        bus = fmin(bus / 3.8, ll_max);
    /* tree LL128 across nodes: 0.915 before 2.10 (@v2.8.4-1 line 129) */
    if (na == NT_TREE && p == CR_PROTO_LL128)
        bus = fmin(bus * (N == 1   ? 7.0 / 9.0
                          : pre210 ? 0.915
                                   : 120.0 / 128.0),
                   nch * tree_ll128_ch);
    if (na == NT_PAT)
        bus *= 0.75;
    if (na == NT_CND)
        bus *= 0.85;
    bool agrs = coll == CR_COLL_ALLGATHER || coll == CR_COLL_REDUCESCATTER;
    if (!(na != NT_RING && agrs)) {
        double ratio = (na == NT_RING || na == NT_NVLS || na == NT_NVLST)
                           ? (double)n / algo_nsteps(coll, n)
                           : 0.5;
        bus *= ratio;
    }
    return bus;
}

/* NCCL's estimate in seconds (ncclTopoGetAlgoTime). */
double algo_nccl_est_s(const struct cr_coll_ctx *c, cr_coll coll, double S, int na, int p, int nch,
                       int version)
{
    /* the release rules below are NCCL's, read at its tags; RCCL's
     * tuning.cc branched from them and is not read by release: its runs
     * keep the tables above */
    if (c->rccl)
        version = INT_MAX;
    double bw = nccl_bw_GBps(c, coll, na, p, nch, version);
    if (!(bw > 0))
        return HUGE_VAL;
    double lat = nccl_lat_us(c, coll, na, p, NULL, version);
    int logsize = algo_log2i(S / 64);
    if (na == NT_TREE && coll == CR_COLL_ALLREDUCE && logsize >= 0 && logsize < 23)
        bw *= version < 21000 && p == CR_PROTO_LL128 ? nccl_tree_corr_ll128_pre210[logsize]
                                                     : nccl_tree_corr[p][logsize];
    /* the ring's plateau: 1.9 before 2.18 on every GPU (tuning.cc
     * @v2.16.2-1 line 326), 1.4 from Ampere on since (@v2.18.1-1 line 382) */
    if (na == NT_RING && p == CR_PROTO_SIMPLE && c->n_nodes > 1 && coll == CR_COLL_ALLREDUCE &&
        S / ((double)nch * c->n) >= 64)
        lat *= c->p.gen >= CR_GEN_AMPERE && version >= 21800 ? 1.4 : 1.9;
    return (lat + S / (1000.0 * bw)) * 1e-6;
}
