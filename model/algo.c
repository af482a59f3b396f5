/* SPDX-License-Identifier: MIT */
/*
 * Predictions per algorithm, protocol and mechanism, and NCCL's choice.
 *
 * Two models meet here, on purpose kept apart:
 *  - NCCL's own tuning model (algo_tune.c: algo_nccl_est_s), which decides
 *    the algorithm and protocol NCCL runs, from the tables of NVIDIA/nccl
 *    src/graph/tuning.cc and enqueue.cc's channel tuning.
 *  - our prediction: time = latency (fitted step latencies where the
 *    corpus fit has them, else NCCL's latency tables scaled by
 *    coll.lat_scale) + the bytes each algorithm moves through its busiest
 *    resource over the rate it reaches there, with efficiencies fitted to
 *    published measurements (params.c). NCCL's bandwidth figures are
 *    selection heuristics (NCCL issue 1154), so they are not used for the
 *    prediction itself.
 * Every prediction is at least the bound: its latency is at least the
 * bound's unavoidable latency and its transfer time at least every cut term
 * (no implementation beats a cut), see doc/bounds.md.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sbuf.h"
#include "algo_priv.h"
#include "mech.h"

/* Operations in nccl-tests' timed loop when its log does not say (its
 * README: -n, --iters, default 20; agg iters default 1). */
enum { NCCL_TESTS_ITERS = 20 };

static int nccl_alg(cr_algo a)
{
    switch (a) {
    case CR_ALGO_TREE:
        return NT_TREE;
    case CR_ALGO_RING:
        return NT_RING;
    case CR_ALGO_COLLNET:
        return NT_CND;
    case CR_ALGO_NVLS:
        return NT_NVLS;
    case CR_ALGO_NVLSTREE:
        return NT_NVLST;
    case CR_ALGO_PAT:
        return NT_PAT;
    default:
        return -1;
    }
}

/* Node crossings on the slowest path of a ring allreduce, all-gather or
 * reduce-scatter of n ranks on N nodes. NCCL's ring visits each node's
 * GPUs in a row and crosses the network once per node (src/graph/search.cc
 * builds one intra-node chain per node), so N of its n hops cross nodes.
 * In an all-gather or reduce-scatter each rank's chunk travels the n-1
 * hops after its own rank, and every rank forwards what it receives
 * (src/device/all_gather.h runRing), so the time is that of the chunk that
 * crosses most: one whose rank is not the first of its node misses only an
 * intra-node hop and meets all N crossings. NCCL's tuning counts N-1
 * (tuning.cc nInterSteps), right with one rank a node. An allreduce keeps
 * NCCL's 2(N-1): at small sizes only the first of its n chunks carries
 * data (a step without data does not wait for its peer's,
 * src/device/prims_ll.h LLGenericOp), and counting that chunk's crossings
 * (2N-1) or the full 2N made the fitting half worse (doc/corpus.md
 * Session 12). */
static int ring_crossings(cr_coll coll, int n, int N)
{
    if (N <= 1)
        return 0;
    if (coll == CR_COLL_ALLREDUCE)
        return 2 * (N - 1);
    return n > N ? N : N - 1;
}

/* Channels NCCL's planner spreads a ring or tree collective over, counted
 * as a real number (HUGE_VAL where the planner does not limit them).
 * NCCL 2.28 scheduleCollTasksToPlan (src/enqueue.cc:512-584 at v2.28.3-1)
 * cuts the message into cells of MinTrafficPerChannel = 16 KiB of traffic
 * (param coll.ch_min_traffic) and gives each channel at least one cell:
 * traffic = bytes x ncclFuncTrafficPerByte (enqueue.cc:74: allreduce 2;
 * allgather and reducescatter n on the per-rank count, so S; others 1),
 * four times that for LL (enqueue.cc:583). The thread threshold
 * (coll.ch_min.*) allows more channels than cells for LL128 only: on 2
 * H200s an LL128 allreduce of 32 KiB runs 4 channels, an allgather,
 * broadcast or reduce 2, where the threshold would give 6 (kernel grids of
 * traces/nvidia-h200-x2/kernels-nccl-Ring-LL128.json.gz). */
static double plan_channels(const cr_params *p, cr_coll coll, cr_algo algo, cr_proto proto,
                            double S, int n)
{
    if ((algo != CR_ALGO_RING && algo != CR_ALGO_TREE) || !(p->ch_min_traffic_bytes > 0) || n < 2)
        return HUGE_VAL;
    if (coll != CR_COLL_ALLREDUCE && coll != CR_COLL_ALLGATHER && coll != CR_COLL_REDUCESCATTER &&
        coll != CR_COLL_BROADCAST && coll != CR_COLL_REDUCE)
        return HUGE_VAL;
    double traffic = S * (coll == CR_COLL_ALLREDUCE ? 2 : 1) * (proto == CR_PROTO_LL ? 4 : 1);
    return fmax(1.0, traffic / p->ch_min_traffic_bytes);
}

/* The rank whose kernel starts last, where the request says (-1: not
 * known). A time taken from the last start (validate's traced cases) with
 * one thread driving every GPU begins on rank 0: ncclGroupEnd launches the
 * communicators of a group in list order and ncclGroupCommJoin (NCCL
 * src/include/group.h:106-118, "Insert comm into ncclGroupCommHead
 * adjacent to sibling comms": comm->groupNext = *pp; *pp = comm) puts each comm ahead of
 * the sibling that joined before it, so rank n-1's kernel goes first and
 * rank 0's last. Measured on 2 H200s: rank 0's kernel started last in
 * 44,086 of the 44,694 NCCL kernel pairs of traces/nvidia-h200-x2/
 * kernels-nccl-{Ring,Tree,auto}-{LL,LL128,Simple}.json.gz (98.6%). */
static int last_start_rank(const cr_coll_req *rq, int n)
{
    return rq->from_last_start && rq->ranks_per_process == n ? 0 : -1;
}

/* Whether a two-rank broadcast or reduce moves its one hop before the
 * measured time starts: the only receiver starts last, and the sender,
 * already running, has written the data into the receiver's FIFO without
 * waiting for it (the first NCCL_STEPS slots of a connection are free from
 * the start: src/device/prims_simple.h:107 waitPeer lets a sender run
 * NCCL_STEPS steps ahead of its receiver; a Simple channel buffers 4 MiB,
 * an LL channel 256 KiB of data, src/init.cc:810-813). The
 * receiver then only copies or reduces what is there. Rooted at rank
 * `root`: reduce receives at the root, broadcast away from it. */
static bool hop_before_window(const cr_coll_req *rq)
{
    int last = last_start_rank(rq, 2);
    if (last < 0)
        return false;
    if (rq->coll == CR_COLL_REDUCE)
        return last == rq->root;
    if (rq->coll == CR_COLL_BROADCAST)
        return last != rq->root;
    return false;
}

/* Whether a timed loop of back-to-back broadcasts or reduces overlaps
 * their chains (ring algorithm, LL or LL128; cr_coll_req host_loop). A
 * chain has no cycle: rank k runs operation i+1 while rank k+1 still
 * finishes i, so past the first operation each costs only what a rank
 * spends on it alone (coll.op_fixed, the host's and the kernel's part);
 * the hops and the network proxy's part (coll.op_fixed.net) are latency
 * that the next operations hide. NCCL lets a sender run NCCL_STEPS (8)
 * steps ahead of its receiver (src/device/prims_ll.h:56 waitSend @v2.28.9, as
 * hop_before_window), and a small operation takes one step. The fitting
 * half shows it: ABCI's 8-rank broadcast on one node prints 7.3 us and
 * its 16-rank broadcast across two nodes 7.5 us, where the chain sums to
 * 12 and 28 us (doc/corpus.md Session 13). Simple keeps its hops per
 * operation: ABCI's Simple sizes (256 KiB-2 MiB) cost what the summed
 * chain gives and no rate the model's channels reach, and though the 8x
 * B200 node of round 10 asks for less, pipelining Simple too loses on the
 * fitting half; left as it is until a trace shows where that time goes. */
static bool chain_pipelines(const cr_coll_req *rq, int na, cr_proto proto)
{
    return rq->host_loop && na == NT_RING && proto != CR_PROTO_SIMPLE &&
           (rq->coll == CR_COLL_BROADCAST || rq->coll == CR_COLL_REDUCE);
}

/* ---- pipelining of the hierarchical algorithms (NVLS, NVLS tree, tree) ----
 *
 * NCCL runs these as a pipeline: each channel cuts its part of the buffer
 * into loops of `chunk` bytes per head, and separate warp groups (NVLS:
 * scatter, reduce, broadcast, gather, src/device/all_reduce.h) or
 * successive ranks (tree) work on successive loops at once. In steady
 * state the slowest stage sets the rate (the max of the phase times); the
 * first loop still has to cross every stage before the slowest one runs
 * full, and the last one drains behind it: with stage times t_k for the
 * whole buffer and a fraction f of the buffer in one loop (over all
 * channels), the fill and drain add f x (sum of t_k - max t_k). With one
 * loop (f = 1) that is the time one chunk takes through every stage. */

/* NCCL's NVLS channel count (src/transport/nvls.cc: NVLS_NCHANNELS_SM90 16;
 * SM100 24 inside one NVLink domain, 32 across nodes). */
static int nvls_channels(const struct cr_coll_ctx *c)
{
    if (c->p.gen == CR_GEN_BLACKWELL)
        return c->n_nodes > 1 ? 32 : 24;
    return 16;
}

/* Bytes per head per loop NCCL picks (src/enqueue.cc, chunk size tuning;
 * NCCL_NVLS_CHUNKSIZE default 128 KiB and NCCL_NVLSTREE_MAX_CHUNKSIZE
 * default 64 KiB from 4 nodes, src/transport/nvls.cc). */
static double nvls_chunk_bytes(const struct cr_coll_ctx *c, bool tree, double S, int nch)
{
    double ops = (double)nch * c->ppn; /* concurrentOps = channels x heads */
    double ch = 131072;
    if (!tree) {
        if (S < 64 * ops * ch && ch > 65536)
            ch = 65536;
        if (S < 8 * ops * ch && ch > 32768)
            ch = 32768;
        if (S < 2 * ops * ch && ch > 16384)
            ch = 16384;
        return ch;
    }
    if (c->n_nodes >= 4)
        ch = 65536;
    if (S < 32 * ops * ch && ch > 262144)
        ch = 262144;
    if (S < 16 * ops * ch && ch > 131072)
        ch = 131072;
    if (S < 4 * ops * ch && ch > 65536)
        ch = 65536;
    if (S < ops * ch && ch > 32768)
        ch = 32768;
    return ch;
}

/* One loop's share of an NVLS allreduce of S bytes (S > 0): each loop of
 * the kernel moves one chunk for every channel and head (all_reduce.h
 * NVLS, NVLS_TREE), heads being the node's ranks. */
static double nvls_loop_share(const struct cr_coll_ctx *c, bool tree, double heads, double S)
{
    int nch = nvls_channels(c);
    return nch * heads * nvls_chunk_bytes(c, tree, S, nch) / S;
}

/* Tree chunk: one buffer step (src/enqueue.cc: chunkSteps 1 outside rings;
 * src/init.cc: Simple 4 MiB / NCCL_STEPS 8; LL 8 lines x 512 threads x 8
 * steps x 16 B / 8, half of it data; LL128 120 x 640 x 8 x 8 B / 8, 120 of
 * every 128 bytes data). */
static double tree_chunk_bytes(const struct cr_coll_ctx *c, cr_proto p, double S, double nch)
{
    switch (p) {
    case CR_PROTO_LL:
        return 8.0 * 512 * 16 / 2;
    case CR_PROTO_LL128: {
        /* enqueue.cc shrinks LL128 tree chunks until every channel has
         * enough steps: nstepsLL128 = 1 + log2(nodes) + 0.1 ppn */
        double ch = 120.0 * 640 * 8 * 120 / 128;
        double ppn = c->ppn, steps = 1 + algo_log2i(c->n_nodes) + 0.1 * ppn;
        while (S / (nch * ch) < steps * 64 / ppn && ch > 131072)
            ch /= 2;
        while (S / (nch * ch) < steps * 16 / ppn && ch > 32768)
            ch /= 2;
        return ch;
    }
    default:
        return 4194304.0 / 8;
    }
}

/* ---- nccl-tests latency beyond two ranks of one node ----
 *
 * NCCL's own latency tables (algo_nccl_lat_us) rank algorithms; they are not a
 * time predictor (baseLat + hwLat x steps, one figure whatever the message,
 * 15 us for an 8-GPU ring LL allreduce where nccl-tests measures about 33).
 * What nccl-tests prints (its host-timed loop of back-to-back operations,
 * doc/corpus.md) follows NCCL's structure instead: a fixed cost per
 * operation (params coll.op_fixed), then the algorithm's sequential steps,
 * each a step latency of its link class and protocol (coll.alpha.*), then
 * one more step for every further piece the channel's pipeline carries:
 * a channel's part of the buffer moves in pieces of one buffer step (LL
 * 32 KiB of data, LL128 576,000 B, Simple a 1 MiB slice of a ring
 * allreduce / allgather / reducescatter chunk, src/enqueue.cc chunk sizes
 * and src/device/all_reduce.h), so a ring of S bytes on nc channels and n
 * ranks carries K = ceil(S / (nc n piece)) pieces per hop (nc: the
 * communicator's channels, which a message large enough for several
 * pieces runs on all of; so the count never falls as S grows), the first one
 * through all the algorithm's steps and the others one step behind each
 * other: K - 1 more steps, each hidden behind the transfer of the piece
 * before it where that takes longer. The bytes themselves are the rate
 * term (predict_one).
 * The pieces' steps take the slowest class the algorithm crosses. Across
 * nodes a step also pays the network plugin's latency (coll.net.lat,
 * NCCL's latencyInter, twice for Simple as tuning.cc counts it). Every step
 * is at least its hop's route latency (doc/bounds.md 2.2.3). Returns the
 * latency in seconds without the further pieces. */
static double ceil_pieces(double bytes, double piece)
{
    return bytes > piece ? ceil(bytes / piece) : 1.0;
}

/* The fixed cost per operation (params coll.op_fixed), with the network
 * proxy's part (coll.op_fixed.net) where the operation crosses nodes. */
static double op_fixed_s(const struct cr_coll_ctx *c)
{
    return c->p.op_fixed_s + (c->n_nodes > 1 ? c->p.op_fixed_net_s : 0);
}

/* Bytes on the wire per byte of data: an LL line carries 8 data bytes and
 * 8 flag bytes, an LL128 line 120 and 8 (src/include/device.h). */
static double proto_wire_x(cr_proto p)
{
    return p == CR_PROTO_LL ? 2.0 : p == CR_PROTO_LL128 ? 128.0 / 120.0 : 1.0;
}

/* The rendezvous a network step pays where its message (wire bytes) is
 * larger than the plugin sends eagerly (params coll.net.eager,
 * coll.net.rndv; 0 where every message is alike). */
static double rndv_s(const cr_params *pr, double msg_bytes, cr_proto p)
{
    return pr->net_eager_B > 0 && msg_bytes * proto_wire_x(p) > pr->net_eager_B ? pr->net_rndv_s
                                                                                : 0.0;
}

/* One more step per further piece: returned apart (*more pieces of
 * *piece_bytes, each at most *a_piece), because a piece's step latency
 * hides behind the transfer of the piece before it where that takes longer
 * (predict_one: (K-1) x max(0, a - piece / channel rate)); a ring of 1 GB
 * pays none of it. nc: the channels the pieces spread over; nc_used: those
 * NCCL runs at this size, whose share is one network message (rndv_s). */
static double corpus_lat_s(const struct cr_coll_ctx *c, cr_coll coll, int na, cr_proto p, double S,
                           int nc, int nc_used, double *more, double *piece_bytes, double *a_piece)
{
    const cr_params *pr = &c->p;
    int n = c->n, N = c->n_nodes, ppn = c->ppn;
    /* the link class inside the node: its ring step, and the row of NCCL's
     * hwLat table (NVLink 0, PCI 1) */
    bool nvl = c->intra_hw == CR_HW_NVLINK;
    double alpha_in = pr->alpha_s[nvl ? CR_HW_NVLINK : CR_HW_PCI][p];
    /* a broadcast's or reduce's Simple chain hop pays its share of the
     * NVLink ring step (coll.chain.simple: one slice of two); what PCIe
     * adds to a step stays whole: no PCIe chain beyond two ranks is
     * measured, and halved it would put Simple below NCCL's own LL choice
     * on 8 L40S (test_auto_monotone) */
    if (p == CR_PROTO_SIMPLE && na == NT_RING &&
        (coll == CR_COLL_BROADCAST || coll == CR_COLL_REDUCE))
        alpha_in -= pr->alpha_s[CR_HW_NVLINK][p] * (1 - pr->chain_simple);
    double a_in = fmax(alpha_in, c->r_intra_s);
    /* coll.alpha.net.* is a ring's network step, coll.alpha.net.tree.* a
     * tree's: NCCL prices them apart (tuning.cc hwLat NET: tree LL 5.0,
     * LL128 8.5, Simple 14 us against ring 2.7, 4.0, 14) and a ring with
     * one rank per node at the tree's figure ("interLat = ppn == 1 ?
     * hwLat[NET][TREE] : ..."); here that ring keeps its own step at
     * NCCL's tree/ring ratio (the fitting half's one-GPU-per-node rings,
     * doc/corpus.md Session 11) */
    double ring_x = na == NT_RING && ppn == 1
                        ? algo_nccl_hw_lat_us(2, NT_TREE, p) / algo_nccl_hw_lat_us(2, NT_RING, p)
                        : 1.0;
    double a_step = na == NT_TREE ? pr->alpha_tree_net_s[p] : pr->alpha_s[CR_HW_NET][p] * ring_x;
    double a_net = fmax(a_step + pr->net_lat_s * (p == CR_PROTO_SIMPLE ? 2.0 : 1.0), c->r_inter_s);
    /* a further piece pays its slowest hop's step, not the plugin's
     * latency (coll.net.lat): NCCL keeps NCCL_STEPS (8) steps of a
     * connection in flight (src/include/device.h), so the wire latency of
     * one piece overlaps the next ones; what repeats per piece is the
     * proxy's and the kernel's work on it (coll.alpha.*) */
    double a_max = N > 1 ? fmax(a_in, fmax(pr->alpha_s[CR_HW_NET][p], c->r_inter_s)) : a_in;
    double ncf = nc > 0 ? nc : 1;
    /* one buffer step of data per piece (src/init.cc buffer sizes / NCCL_STEPS) */
    double piece = p == CR_PROTO_LL ? 32768.0 : p == CR_PROTO_LL128 ? 576000.0 : 1048576.0;
    if (N > 1 && pr->net_eager_B > 0) {
        /* one network message: a channel's share (a rank's chunk of it on a
         * ring), at most a piece */
        double used = nc_used > 0 ? nc_used : 1;
        bool chunked = na == NT_RING && coll != CR_COLL_BROADCAST && coll != CR_COLL_REDUCE;
        double msg = S / used / (chunked ? n : 1);
        a_net += rndv_s(pr, fmin(msg, na == NT_TREE ? tree_chunk_bytes(c, p, S, used) : piece), p);
    }
    double lat = op_fixed_s(c), K = 1;
    switch (na) {
    case NT_RING:
        if (coll == CR_COLL_BROADCAST || coll == CR_COLL_REDUCE) {
            /* a chain of n-1 hops, N-1 of them across nodes, pipelined in
             * one-step chunks (chunkSteps 1: Simple 512 KiB) */
            if (p == CR_PROTO_SIMPLE)
                piece = 524288.0;
            K = ceil_pieces(S / ncf, piece);
            lat += (n - N) * a_in + (N - 1) * a_net;
        } else {
            int nsteps = algo_nsteps(coll, n);
            int inter = ring_crossings(coll, n, N);
            K = ceil_pieces(S / (ncf * n), piece);
            lat += (nsteps - inter) * a_in + inter * a_net;
            lat = fmax(lat, op_fixed_s(c) + nsteps * c->r_ring_mean_s);
        }
        break;
    case NT_TREE: {
        /* up and down the chain inside the node and the tree across nodes;
         * coll.alpha.{nvlink,pci}.* is a ring's step, and NCCL prices a
         * tree's chain hop apart (tuning.cc hwLat: NVLink tree LL128 1.25
         * us against ring 1.9, Simple 4.0 against 3.4): the same ratios */
        int L = algo_log2i(N), row = nvl ? 0 : 1;
        double a_chain = fmax(alpha_in * algo_nccl_hw_lat_us(row, NT_TREE, p) /
                                  algo_nccl_hw_lat_us(row, NT_RING, p),
                              c->r_intra_s);
        K = ceil_pieces(S / ncf, tree_chunk_bytes(c, p, S, ncf));
        lat += 2 * ((ppn - 1) * a_chain + L * a_net);
        break;
    }
    case NT_NVLS:
        /* reduce through the switches and multicast back: one figure */
        lat += fmax(pr->nvls_alpha_s, 2 * c->r_intra_s) + (N > 1 ? a_net : 0);
        break;
    case NT_NVLST:
        lat += fmax(pr->nvls_alpha_s, 2 * c->r_intra_s) + 2 * algo_log2i(N) * a_net;
        break;
    case NT_PAT:
        /* NCCL's PAT figure: log2 N network steps and 2.8 us per rank */
        lat += algo_log2i(N) * a_net + n * 2.8e-6;
        break;
    default: /* CollNet: NCCL's figure */
        lat += algo_nccl_lat_us(c, coll, na, p, NULL) * 1e-6;
        break;
    }
    *more = K - 1;
    *piece_bytes = na == NT_TREE ? tree_chunk_bytes(c, p, S, ncf) : piece;
    *a_piece = a_max;
    return lat;
}

/* Fill and drain of a pipeline of k stages taking t[i] each for the whole
 * buffer, when a fraction f of the buffer moves per loop. */
static double pipe_fill(double f, const double *t, int k)
{
    double sum = 0, mx = 0;
    for (int i = 0; i < k; i++) {
        sum += t[i];
        mx = fmax(mx, t[i]);
    }
    return fmin(1.0, f) * (sum - mx);
}

/* Levels of NCCL's double binary tree across N nodes (longest leaf-root
 * path in tree edges). */
static int tree_levels(int N)
{
    int l = 0;
    while ((1 << l) < N)
        l++;
    return l;
}

/* ---- RCCL's MSCCL algorithms ---- */

/* RCCL loads the MSCCL algorithms it ships (tools/msccl-algorithms, installed
 * as share/rccl/msccl-algorithms; src/misc/msccl/msccl_lifecycle.cc) and runs
 * an operation with the first whose rank count, collective, placement and
 * size range match, before its own tuner sees it, on platforms whose
 * topology model enables MSCCL (MI300X: the ROCm RCCL usage tips, "On
 * MI300X, MSCCL is enabled by default") and, by default, only where every
 * rank is its own process (same page). For 8 GPUs the only ones are the
 * all-pairs allreduces (allreduce-allpairs-8n-*.xml, ROCm/rccl @0cbce2a):
 * a direct reduce-scatter and allgather between every pair. A size fits
 * when its element count is a multiple of the algorithm's chunks per loop
 * (mscclInternalSchedulerSelectAlgo). */
static const struct msccl_range {
    bool in_place;
    double min_B, max_B;
    int chunks;
    cr_proto proto;
} msccl_allpairs8[] = {
    {false, 0, 65536, 256, CR_PROTO_LL},
    {false, 65537, 524287, 512, CR_PROTO_LL},
    {false, 524288, 16777216, 512, CR_PROTO_SIMPLE},
    {true, 0, 65536, 256, CR_PROTO_LL},
    {true, 65537, 524287, 512, CR_PROTO_LL},
    {true, 524288, 11534336, 512, CR_PROTO_SIMPLE},
    {true, 14680065, 16777216, 512, CR_PROTO_SIMPLE},
};

/* Whether RCCL would look for an MSCCL algorithm for rq at all (the size
 * aside): an allreduce of 8 ranks of one node, one process each. */
static bool msccl_platform(const struct cr_coll_ctx *c, const cr_coll_req *rq)
{
    return c->rccl && rq->coll == CR_COLL_ALLREDUCE && c->n == 8 && c->n_nodes == 1 &&
           c->intra_hw == CR_HW_NVLINK && rq->ranks_per_process <= 1 && rq->mech == CR_MECH_NONE;
}

int cr_algo_msccl_proto(const struct cr_coll_ctx *c, const cr_coll_req *rq)
{
    if (!msccl_platform(c, rq))
        return -1;
    double esz = cr_dtype_bytes(rq->dtype);
    if (!(esz > 0) || !(rq->bytes > 0))
        return -1;
    double count = floor(rq->bytes / esz);
    for (size_t i = 0; i < sizeof msccl_allpairs8 / sizeof msccl_allpairs8[0]; i++) {
        const struct msccl_range *m = &msccl_allpairs8[i];
        if (m->in_place == rq->in_place && rq->bytes >= m->min_B && rq->bytes <= m->max_B &&
            fmod(count, m->chunks) == 0)
            return m->proto;
    }
    return -1;
}

/* ---- which algorithms exist for what ---- */

/* NCCL's NVLS kernels reduce int32/uint32/int64/uint64, fp16, bf16 (sum,
 * min/max), fp32 and fp64 (sum), nothing else: ncclNvlsSupported in
 * src/include/device.h, kept in sync with src/device/generate.py. NVLS
 * allgather moves bytes and takes any type. */
static bool nccl_nvls_type(cr_coll coll, cr_dtype dt)
{
    if (!cr_coll_reduces(coll))
        return true;
    return dt == CR_DT_FP32 || dt == CR_DT_FP64 || dt == CR_DT_FP16 || dt == CR_DT_BF16;
}

/* What NCCL adds to the topology's NVLS capability, for NVLS and NVLS tree. */
static const char *nvls_nccl_why(const struct cr_coll_ctx *c, const cr_coll_req *rq)
{
    if (!nccl_nvls_type(rq->coll, rq->dtype))
        return rq->dtype == CR_DT_INT8
                   ? "NCCL's NVLS kernels do not reduce int8 (ncclNvlsSupported: int32/64, "
                     "fp16, bf16, fp32, fp64); use --algo ring or tree"
                   : "NCCL's NVLS kernels do not reduce fp8 (ncclNvlsSupported: int32/64, "
                     "fp16, bf16, fp32, fp64); use --algo ring or tree";
    /* ncclNvlsInit (src/transport/nvls.cc) turns NVLS off when the node's
     * part of the communicator holds 2 GPUs or fewer */
    if (c->ppn_min <= 2)
        return "NCCL turns NVLS off with 2 or fewer GPUs of the communicator per node "
               "(ncclNvlsInit); a custom kernel can (coll and op --mech multimem)";
    return NULL;
}

static const char *why_not(const struct cr_coll_ctx *c, const cr_coll_req *rq, cr_algo a,
                           cr_proto p)
{
    cr_coll coll = rq->coll;
    if (!rq->in_network && (a == CR_ALGO_NVLS || a == CR_ALGO_NVLSTREE || a == CR_ALGO_COLLNET))
        return "in-network reduction excluded (--no-in-network)";
    bool ar = coll == CR_COLL_ALLREDUCE;
    bool agrs = coll == CR_COLL_ALLGATHER || coll == CR_COLL_REDUCESCATTER;
    bool p2p = cr_coll_p2p(coll);
    switch (a) {
    case CR_ALGO_RING:
        if (p2p)
            return "NCCL runs this collective as point-to-point transfers: use algorithm direct";
        return NULL;
    case CR_ALGO_TREE:
        return ar ? NULL : "NCCL's tree runs allreduce only";
    case CR_ALGO_NVLS:
        if (!(ar || agrs))
            return "NVLS runs allreduce, allgather and reducescatter only";
        if (!c->nvls)
            return "NVLS needs every rank wired to the same NVSwitches with multicast and "
                   "reduction, on Hopper or later";
        if (nvls_nccl_why(c, rq))
            return nvls_nccl_why(c, rq);
        return p != CR_PROTO_SIMPLE ? "NVLS runs the Simple protocol only" : NULL;
    case CR_ALGO_NVLSTREE:
        if (!ar)
            return "NVLS tree runs allreduce only";
        if (c->n_nodes < 2)
            return "NVLS tree needs ranks on more than one node";
        if (!c->nvls_node)
            return "NVLS tree needs NVSwitch multicast and reduction inside every node";
        /* NCCL's rule for uneven nodes is not sourced here; the simulator's
         * schedule (flowsim_coll.c node_groups) pairs the nodes' heads one
         * to one, so coll does not offer what commroof sim cannot run */
        if (c->ppn_min != c->ppn)
            return "NVLS tree needs the same number of ranks on every node";
        if (nvls_nccl_why(c, rq))
            return nvls_nccl_why(c, rq);
        return p != CR_PROTO_SIMPLE ? "NVLS tree runs the Simple protocol only" : NULL;
    case CR_ALGO_PAT:
        if (!agrs)
            return "PAT runs allgather and reducescatter only";
        if (c->ppn != 1 || c->n_nodes < 2)
            return "PAT needs one rank per node";
        if (p != CR_PROTO_SIMPLE)
            return "PAT runs the Simple protocol only";
        return NULL;
    case CR_ALGO_COLLNET:
        if (!ar)
            return "CollNet (SHARP) here models allreduce only";
        if (c->n_nodes < 2 || !c->collnet)
            return "CollNet needs ranks on several nodes and a fabric switch with reduction";
        if (p != CR_PROTO_SIMPLE)
            return "CollNet runs the Simple protocol only";
        return NULL;
    case CR_ALGO_DIRECT: {
        int msccl = rq->coll == CR_COLL_ALLREDUCE ? cr_algo_msccl_proto(c, rq) : -1;
        if (msccl >= 0)
            return (int)p == msccl ? NULL
                                   : "RCCL's MSCCL all-pairs allreduce runs one protocol at this "
                                     "size (its algorithm file)";
        if (msccl_platform(c, rq))
            return "the direct algorithm here, RCCL's MSCCL all-pairs allreduce, takes up to "
                   "16 MiB, in multiples of 256 elements (512 above 64 KiB)";
        if (!p2p)
            return "NCCL has no direct algorithm for this collective (a custom kernel's is "
                   "coll's and op's --mech)";
        return NULL; /* any protocol asked: NCCL picks LL or Simple by size (p2p_proto) */
    }
    default:
        return "unknown algorithm";
    }
}

/* LL128 is on by default only with NVLink between the ranks of a node
 * (tuning.cc: typeIntra <= PATH_NVB); NCCL would not pick it otherwise. */
static bool nccl_enabled(const struct cr_coll_ctx *c, const cr_coll_req *rq, cr_proto p)
{
    int version = algo_nccl_version(c, rq);
    if (p != CR_PROTO_LL128)
        return true;
    if (c->intra_hw != CR_HW_NVLINK)
        return false;
    /* across nodes only where the GPU reaches its NIC without a CPU
     * (PATH_PXB, PXN on Hopper), or over C2C on Hopper and later from
     * NCCL 2.27 (PATH_P2C; tuning.cc, NCCL_LL128_C2C default 1) */
    if (c->n_nodes > 1 && c->nic_via_cpu)
        return c->nic_via_c2c && c->p.gen >= CR_GEN_HOPPER && version >= 22700;
    return true;
}

/* The rate a rank-order ring's data moves at: each class of link it
 * crosses at that class's protocol efficiency (eff for the binding class,
 * ring_hw, which the caller may have adjusted), the slowest in effect. By
 * the binding class alone, a cluster whose NICs are a little slower than
 * its NVLink ran the ring at the network's efficiency above what the NVLink
 * hops allow, and doubling the NICs made it slower (QA audit, 2026-12-06:
 * h100-ib-4n 400 x 0.92 = 368 GB/s against NVLink's 450 x 0.815 = 366.75). */
static double ring_rate(const struct cr_coll_ctx *c, const cr_params *p, cr_proto proto, double eff)
{
    double r = c->ring_Bps * eff;
    for (int h = 0; h < CR_HW__COUNT; h++)
        if (h != (int)c->ring_hw && isfinite(c->ring_class_Bps[h]))
            r = fmin(r, c->ring_class_Bps[h] * cr_proto_eff(p, proto, (cr_hw)h));
    return r;
}

/* Finishes a prediction: latency at least the bound's, transfer time at
 * least every cut term's (doc/bounds.md), algbw/busbw. */
static void finish(const struct cr_coll_ctx *c, const cr_coll_req *rq, const cr_coll_bound *b,
                   cr_coll_pred *o, double lat_s, double t_bw)
{
    double lat_floor = b->lat_s;
    double t_floor = 0, tb = 0, tc = 0;
    for (int j = 0; j < b->n_terms; j++) {
        lat_floor = fmax(lat_floor, b->terms[j].lat_s);
        double tt = b->terms[j].cap_Bps > 0 ? b->terms[j].bytes / b->terms[j].cap_Bps : 0;
        if (tt > t_floor) {
            t_floor = tt;
            tb = b->terms[j].bytes;
            tc = b->terms[j].cap_Bps;
        }
    }
    lat_s = fmax(lat_s, lat_floor);
    if (t_floor > t_bw) {
        /* a cut the algorithm model does not see binds (e.g. an
         * oversubscribed bisection): report it as the wire */
        t_bw = t_floor;
        o->wire_bytes = tb;
        o->link_Bps = tc;
        o->wire_Bps = tc;
        o->bw_eff = 1.0;
        o->per_message = false;
        o->link_eff = 0;
        /* the cut's figure for every hop and message: a transport's own
         * (a direct pattern's, a ring's SHM hops) would run the simulator
         * below the bw_eff of 1 stated here (review) */
        o->eff_mate = o->eff_shm = o->eff_net = 0;
    }
    if (rq->bytes <= 0 || c->n < 2) {
        /* nothing moves: every part of the closed form is zero */
        lat_s = 0;
        t_bw = 0;
        o->launch_s = 0;
        o->n_steps = 0;
        o->wire_bytes = 0;
    } else if (rq->mech == CR_MECH_NONE && rq->host_loop) {
        /* nccl-tests' timed loop: the thread enqueues one kernel per GPU
         * per operation while the GPUs run the previous ones; the slower
         * of the two sets the time per operation (params coll.host_op) */
        double host = (rq->ranks_per_process > 1 ? rq->ranks_per_process : 1) *
                      (c->p.host_op_s + algo_host_works(c, rq, o->nchannels) * c->p.host_op_ch_s +
                       algo_host_calls(c, rq) * c->p.host_op_p2p_s);
        double gpu = lat_s + t_bw;
        if (host > gpu) {
            lat_s += host - gpu;
            o->launch_s += host - gpu;
        }
    } else if (rq->mech == CR_MECH_NONE && rq->ranks_per_process > 1 && !rq->from_last_start) {
        /* One host thread launches each GPU's kernel in turn: the
         * collective completes only once the last one has started, so each
         * extra GPU it drives adds one launch gap (params coll.launch_gap) */
        double gap = (rq->ranks_per_process - 1) * c->p.launch_gap_s;
        lat_s += gap;
        o->launch_s += gap;
    }
    /* The rate fields carry every term of the transfer time (pipeline fill,
     * the copy engine's extra HBM pass for reductions, the switches'
     * reduction throughput), so that pred_s = launch_s + n_steps x
     * step_lat_s + wire_bytes / wire_Bps holds exactly and a simulator
     * running wire_bytes at bw_eff x link_Bps reproduces pred_s. */
    if (t_bw > 0 && o->wire_bytes > 0) {
        o->wire_Bps = o->wire_bytes / t_bw;
        if (!(o->link_Bps > 0))
            o->link_Bps = o->wire_Bps; /* no raw figure known: the rate is the capacity */
        o->bw_eff = o->link_Bps > 0 ? o->wire_Bps / o->link_Bps : 0;
        /* Where a cut the algorithm model does not see binds (above),
         * wire_Bps = tb / (tb / tc) may come out an ulp above tc: bw_eff
         * 1 + 2e-16, which the simulator refuses as outside (0, 1]
         * (cr_sim_coll_add). Only rounding is snapped back. */
        if (o->bw_eff > 1 && o->bw_eff <= 1 + 1e-12)
            o->bw_eff = 1;
    }
    /* a cap below the links' figure only where one is left */
    if (!(o->wire_bytes > 0 && t_bw > 0 && o->link_eff > o->bw_eff * (1 + 1e-9)))
        o->link_eff = 0;
    o->pred_s = lat_s + t_bw;
    o->step_lat_s = o->n_steps > 0 ? fmax(0, lat_s - o->launch_s) / o->n_steps : 0;
    if (o->n_steps == 0)
        o->launch_s = lat_s;
    if (o->pred_s > 0 && rq->bytes > 0) {
        o->algbw_Bps = rq->bytes / o->pred_s;
        o->busbw_Bps = o->algbw_Bps * cr_coll_busbw_factor(rq->coll, c->n);
    }
}

/* LL on scale-up links is issue-bound, not link-bound: every 8-byte store
 * carries 4 data bytes and a flag, every load polls its flag, so a GPU's
 * rate is set by how many buffer streams each primitive touches, not by
 * the wire (doc/bounds.md 3.5). Per data byte a primitive costs one unit
 * per stream it reads or writes: send (user buffer in, peer LL buffer out)
 * 2, recv (LL buffer in, output out) 2, copySend / recvCopySend /
 * recvReduceSend / recvReduceCopy 3, recvReduceCopySend 4
 * (src/device/prims_ll.h). A channel's thread block runs its ring steps
 * one after the other, so a rank's cost is the sum over its steps of the
 * step's bytes x streams; ranks run concurrently, the busiest one sets the
 * time. Returns the stream bytes of the busiest rank (0 when the model
 * does not apply). */
static double ll_stream_bytes(const struct cr_coll_ctx *c, cr_coll coll, cr_algo algo, double S)
{
    double nn = c->n;
    if (algo == CR_ALGO_RING) {
        switch (coll) {
        case CR_COLL_ALLREDUCE: /* send 2, (n-2) recvReduceSend 3, recvReduceCopySend 4,
                                   (n-2) recvCopySend 3, recv 2: S/n each */
            return (6 * nn - 4) / nn * S;
        case CR_COLL_ALLGATHER:     /* copySend 3, (n-2) recvCopySend 3, recv 2 */
        case CR_COLL_REDUCESCATTER: /* send 2, (n-2) recvReduceSend 3, recvReduceCopy 3 */
            return (3 * nn - 1) / nn * S;
        case CR_COLL_BROADCAST: /* root copySend 3, middle recvCopySend 3, last recv 2 */
        case CR_COLL_REDUCE:    /* first send 2, middle recvReduceSend 3, root recvReduceCopy 3 */
            return 3 * S;
        default:
            return 0;
        }
    }
    if (algo == CR_ALGO_TREE && coll == CR_COLL_ALLREDUCE && c->n_nodes == 1)
        /* a chain: the leaf sends S up and receives S down (2 + 2), the root
         * recvReduceCopySend S (4), a middle rank recvReduceSend up and
         * recvCopySend down (3 + 3) */
        return (c->ppn > 2 ? 6 : 4) * S;
    return 0;
}

static void predict_one(const struct cr_coll_ctx *c, const cr_coll_req *rq, cr_algo algo,
                        cr_proto proto, const cr_coll_bound *b, cr_coll_pred *o);

void cr_algo_predict(const struct cr_coll_ctx *c, const cr_coll_req *rq, cr_algo algo,
                     cr_proto proto, const cr_coll_bound *b, cr_coll_pred *o)
{
    if (algo != CR_ALGO_DIRECT || c->n < 2 || !cr_coll_p2p(rq->coll)) {
        /* an allreduce's direct algorithm (RCCL's MSCCL all-pairs) runs
         * the protocol its algorithm file names: asked for another, it
         * does not run */
        predict_one(c, rq, algo, proto, b, o);
        return;
    }
    /* Point-to-point: whatever protocol is asked, NCCL picks LL or Simple
     * by size (src/enqueue.cc addP2pToPlan: LL when the bytes per channel
     * stay within NCCL_P2P_LL_THRESHOLD and the connection has LL buffers,
     * Simple otherwise; LL128 never). Measured on 2 H200s
     * (traces/nvidia-h200-x2/kernels-nccl-auto-{LL,LL128}.json.gz):
     * sendrecv of 8 GiB at 366 GB/s under NCCL_PROTO=LL and =LL128, as
     * Simple; 64-256 KiB at 11-12 us, LL's speed. Beyond the release's LL
     * limit (algo_p2p_nccl_ll) Simple; within it the faster of the two
     * predictions stands (doc/bounds.md 3.5): the model's LL time for
     * large LL messages is too slow where NCCL 2.22-2.28 sends them
     * (Sophia's 2-node alltoall of 256-512 KiB, LL by the rule: 12-19 %
     * above the measured time under LL, 1-13 % off under Simple). RCCL
     * keeps its own p2p rules (not read here): the faster of the two. */
    predict_one(c, rq, algo, CR_PROTO_SIMPLE, b, o);
    if (o->supported && c->nccl_lib && !c->rccl &&
        !algo_p2p_nccl_ll(c, rq, algo_nch_max(c, rq), algo_p2p_peer_bytes(c, rq)))
        return;
    cr_coll_pred ll;
    predict_one(c, rq, algo, CR_PROTO_LL, b, &ll);
    if (ll.supported && (!o->supported || ll.pred_s < o->pred_s))
        *o = ll;
}

bool cr_algo_unsupported(const struct cr_coll_ctx *c, const cr_coll_req *rq, cr_algo algo,
                         cr_proto proto)
{
    /* as cr_algo_predict: predict_one refuses exactly where why_not gives
     * a reason; point-to-point's direct runs where Simple or LL does */
    if (algo != CR_ALGO_DIRECT || c->n < 2 || !cr_coll_p2p(rq->coll))
        return why_not(c, rq, algo, proto) != NULL;
    return why_not(c, rq, algo, CR_PROTO_SIMPLE) && why_not(c, rq, algo, CR_PROTO_LL);
}

static void predict_one(const struct cr_coll_ctx *c, const cr_coll_req *rq, cr_algo algo,
                        cr_proto proto, const cr_coll_bound *b, cr_coll_pred *o)
{

    memset(o, 0, sizeof *o);
    o->algo = algo;
    o->proto = proto;
    o->mech = CR_MECH_NONE;
    const char *why = why_not(c, rq, algo, proto);
    if (why) {
        cr_str_copy(o->why, sizeof o->why, why);
        return;
    }
    o->supported = true;
    const cr_params *p = &c->p;
    double S = rq->bytes;
    int n = c->n, N = c->n_nodes;
    double nn = n;
    int nch_max = algo_nch_max(c, rq);
    /* rings and trees across nodes: whole sets of rails (algo_rail_channels) */
    if (algo == CR_ALGO_RING || algo == CR_ALGO_TREE || algo == CR_ALGO_NVLSTREE)
        nch_max = algo_rail_channels(c, nch_max);
    double ch_bytes = S * (algo == CR_ALGO_RING && proto == CR_PROTO_LL ? 1.0 / n : 1.0);
    int nch = cr_proto_channels(p, proto, ch_bytes, nch_max);
    double plan_ch = plan_channels(p, rq->coll, algo, proto, S, n);
    if (nch > plan_ch)
        nch = (int)fmax(1.0, ceil(plan_ch));
    o->nchannels = nch;
    int na = nccl_alg(algo);
    if ((algo == CR_ALGO_RING || algo == CR_ALGO_TREE || algo == CR_ALGO_NVLSTREE ||
         algo == CR_ALGO_COLLNET) &&
        isfinite(algo_graph_net_Bps(c)))
        o->net_nics = algo_graph_channels(c, INT_MAX);

    /* NCCL's estimate (with NCCL's own channel count for the table; the
     * protocol must also be enabled by default for auto to consider it). */
    if (na >= 0) {
        int nvls_ch = 16; /* NCCL_NVLS_NCHANNELS default (NCCL env documentation) */
        int est_ch = (algo == CR_ALGO_NVLS || algo == CR_ALGO_NVLSTREE) ? nvls_ch
                     : (algo == CR_ALGO_RING || algo == CR_ALGO_TREE)
                         ? algo_nccl_graph_channels(c, nch_max, algo_nccl_version(c, rq))
                         : nch_max;
        o->nccl_est_s =
            algo_nccl_est_s(c, rq->coll, S, na, proto, est_ch, algo_nccl_version(c, rq));
        if (!nccl_enabled(c, rq, proto) && rq->proto == CR_PROTO_AUTO)
            o->nccl_est_s = HUGE_VAL;
    }
    /* two ranks: measured (coll.n2.*, traces/nvidia-h200-x2); larger
     * communicators keep NCCL's tables until a trace of them exists */
    bool two = n == 2;
    double ls = p->lat_scale * (!two                       ? 1.0
                                : proto == CR_PROTO_LL128  ? p->n2_lat_scale_ll128
                                : proto == CR_PROTO_SIMPLE ? p->n2_lat_scale_simple
                                                           : p->n2_lat_scale);
    double fill_Bps = two ? p->ch_fill_Bps : 0;
    /* Beyond two ranks of one node on NVLink (whose latency figures above
     * are measured on 2 H200s): what nccl-tests times, NCCL's step
     * structure with fitted step latencies (corpus_lat_s, params
     * coll.op_fixed, coll.alpha.*), two ranks on PCIe included; a
     * generation without them (alpha 0) keeps NCCL's tables. */
    bool corpus = !(two && N == 1 && c->intra_hw == CR_HW_NVLINK) &&
                  p->alpha_s[CR_HW_NVLINK][CR_PROTO_LL] > 0;
    struct lat_x lx = {ls, ls, ls, ls};
    double lat = 0, more_pieces = 0, piece_bytes = 0, a_piece = 0;
    /* the steps the latency spreads over: NCCL's count (tuning.cc nsteps),
     * except a broadcast's or reduce's chain, whose n - 1 hops are what
     * the simulator replays (NCCL counts n there for its bandwidth ratio) */
    bool chain =
        algo == CR_ALGO_RING && (rq->coll == CR_COLL_BROADCAST || rq->coll == CR_COLL_REDUCE);
    o->n_steps = chain ? n - 1 : algo_nsteps(rq->coll, n);
    if (na >= 0 && corpus) {
        /* the steps the simulator replays stay the algorithm's own
         * (below): each carries its share of the pieces' latency */
        lat = corpus_lat_s(c, rq->coll, na, proto, S, nch_max, nch, &more_pieces, &piece_bytes,
                           &a_piece);
        o->launch_s = op_fixed_s(c);
    } else if (na >= 0) {
        lat = algo_nccl_lat_us(c, rq->coll, na, proto, &lx) * 1e-6;
        o->launch_s = algo_base_lat_us(c, na, proto) * 1e-6 * ls;
    }
    if (corpus && chain_pipelines(rq, na, proto)) {
        /* nccl-tests' loop of back-to-back operations: the chain's hops
         * and the network proxy's fixed part are paid once a loop */
        double ops = rq->loop_ops > 0 ? rq->loop_ops : NCCL_TESTS_ITERS;
        lat = p->op_fixed_s + (lat - p->op_fixed_s) / ops;
        o->launch_s = p->op_fixed_s;
    }
    if (na == NT_RING && two && hop_before_window(rq)) {
        /* the chain's one hop (tuning.cc: broadcast and reduce add one
         * hwLat) is over before the time starts: only the base remains */
        lat = o->launch_s;
        o->n_steps = 0;
    }

    double eff_up = cr_proto_eff(p, proto, c->intra_hw);
    double eff_net = cr_proto_eff(p, proto, CR_HW_NET);
    /* Channels grow with the message (enqueue.cc adds one per ch_min_bytes);
     * counted as a real number so the rate ramps without steps. */
    double nchf =
        fmin(fmin((double)nch_max, plan_ch), fmax(1.0, ch_bytes / p->ch_min_bytes[proto]));
    nchf = fmax(1.0, nchf);
    double cap_ch = cr_proto_cap_Bps(p, proto, 1) * nchf;
    /* LL: llMaxBw for the GPU; beyond two ranks of one node also each
     * channel's own LL rate (coll.ll_ch) times the channels NCCL runs */
    double ll_cap = cr_proto_cap_Bps(p, proto, 1);
    if (proto == CR_PROTO_LL && corpus && p->ll_ch_Bps > 0 && algo == CR_ALGO_RING)
        ll_cap = fmin(ll_cap, nchf * p->ll_ch_Bps);
    if (proto == CR_PROTO_LL)
        cap_ch = ll_cap;
    /* LL on scale-up links: the stream term (ll_stream_bytes) replaces
     * NCCL's llMaxBw, a selection figure that 2 H200s beat (broadcast 164
     * GB/s of 141, traces/nvidia-h200-x2/kernels-nccl-Ring-LL.json.gz);
     * the stream rate grows with the channels as the wire rate does.
     * Two ranks only, where it is measured (params coll.n2.ll.stream);
     * larger communicators keep llMaxBw until a trace of them exists. */
    double ll_s = 0;
    if (proto == CR_PROTO_LL && two && p->ll_stream_Bps > 0 && c->intra_hw == CR_HW_NVLINK) {
        double sb = ll_stream_bytes(c, rq->coll, algo, S);
        /* the tree's chain streams slower than the ring (params
         * coll.n2.ll.stream.tree, measured) */
        double st_Bps = algo == CR_ALGO_TREE && p->ll_stream_tree_Bps > 0 ? p->ll_stream_tree_Bps
                                                                          : p->ll_stream_Bps;
        if (sb > 0) {
            ll_s = sb / (st_Bps * nchf / nch_max);
            cap_ch = HUGE_VAL;
        }
    }
    double t = 0;
    switch (algo) {
    case CR_ALGO_RING: {
        double wire = rq->coll == CR_COLL_ALLREDUCE ? 2 * (nn - 1) / nn * S
                      : (rq->coll == CR_COLL_ALLGATHER || rq->coll == CR_COLL_REDUCESCATTER)
                          ? (nn - 1) / nn * S
                          : S;
        double eff = cr_proto_eff(p, proto, c->ring_hw);
        /* Two ranks: both ring neighbours are the one peer. Measured on two
         * H200s (params coll.n2.ring.*), NCCL's rings then run below the n = 8
         * figure while broadcast, reduce and point-to-point on the same pair
         * reach it (doc/bounds.md 3.3). */
        bool agrs = rq->coll == CR_COLL_ALLGATHER || rq->coll == CR_COLL_REDUCESCATTER;
        if (two && c->ring_hw == CR_HW_NVLINK && (rq->coll == CR_COLL_ALLREDUCE || agrs))
            eff *= (agrs ? p->ring2_agrs_eff : p->ring2_ar_eff) / p->proto_eff[CR_PROTO_SIMPLE];
        /* r_link: what the links allow, each class at its protocol
         * efficiency; rate: that or the channels' own cap (LL's
         * per-channel rate and llMaxBw, a channel's Simple or LL128 rate),
         * the lower */
        double r_link = ring_rate(c, p, proto, eff);
        double rate = fmin(r_link, c->ring_hw == CR_HW_NVLINK ? cap_ch
                                   : (proto == CR_PROTO_LL)   ? ll_cap
                                                            : cr_proto_cap_Bps(p, proto, 1) * nchf);
        o->wire_bytes = wire;
        o->link_Bps = c->ring_Bps;
        /* hops through host memory (SHM): the ring's share of the host
         * paths, the chain's for broadcast and reduce (one way only) */
        double sh = rq->coll == CR_COLL_BROADCAST || rq->coll == CR_COLL_REDUCE
                        ? c->shm_chain_Bps
                        : c->shm_nccl_ring_Bps;
        if (sh > 0)
            r_link = fmin(r_link, sh * algo_shm_eff(p, proto));
        if (sh > 0 && sh * algo_shm_eff(p, proto) < rate) {
            rate = sh * algo_shm_eff(p, proto);
            o->link_Bps = sh;
        }
        /* across nodes a channel crosses each node boundary through one
         * rank's NICs (rail-aligned rings, net_rails rails): the ring
         * reaches min(channels, rails) x that rank's NICs (algo_net_cap_Bps).
         * Where they tie the rank-order ring's raw rate they are its
         * narrowest links all the same, and where the rate was stated
         * against a wider SHM share (above) it is stated against them: a
         * simulator runs the ring's other hops at bw_eff of their links,
         * and against the SHM hops' 31.5 GB/s bw_eff 0.435 ran the network
         * hops at 0.435 x 25 GB/s, below the SHM rate the prediction takes
         * (ranks 0,5,9,14,18,27 of 4 --rails 1 nodes of
         * good-pcie-nic-node.xml, sim/pr 1.26; QA audit of PCIe clusters,
         * item (4)). A narrower SHM share keeps the statement: without
         * peer access its hops share the socket uplinks with the network
         * hops of a socket without a NIC, which the statement against the
         * NIC charged at the NIC's figure (32 ranks, sim/pr 1.44) */
        cr_hw net_hw;
        double net_Bps = algo_net_cap_Bps(c, nchf, &net_hw);
        if (net_Bps < c->ring_Bps || (net_Bps == c->ring_Bps && net_Bps < o->link_Bps)) {
            double r_net = net_Bps * cr_proto_eff(p, proto, net_hw);
            r_link = fmin(r_link, r_net);
            if (r_net < rate)
                rate = r_net;
            /* the rate is these NICs' share, whichever cap binds: a
             * simulator runs the ring's flows through them (LL128's
             * per-channel cap on one channel was stated against all the
             * node's NICs, 0.09 of 400 GB/s, and the simulator ran the one
             * NIC at 0.09: 7.5x the prediction, QA audit session 42) */
            o->link_Bps = net_Bps;
        }
        o->wire_Bps = rate;
        /* A simulator's hops through host memory at their own figure:
         * with the rate stated against the NICs (above), bw_eff charged a
         * two-socket PCIe node's uplinks 3.2x the bytes of the SHM hops
         * that bind there (0.0685 of 25 GB/s where they move at 0.2175 of
         * their 7.875 GB/s share: ring allgather LL, 16 ranks of such
         * nodes without peer access, 256 KiB, sim/pr 2.41; QA audit of
         * PCIe clusters). The other hops keep bw_eff, which the NICs'
         * statement fits: each at its own figure was tried while the
         * simulator's rings entered a node at member c (before they took
         * NCCL's PCI order on PCIe nodes, doc/simulator.md), which put
         * network hops where coll has SHM ones, and one rank a socket ran
         * LL128 at sim/pr 0.74; not tried since. And where the channels'
         * cap binds below the links (or finish's terms slow the rate), the
         * links' own figure apart: a simulator caps each channel's flows
         * at the rate (link_eff; finish drops it where the links bind
         * after all). */
        o->eff_shm = sh > 0 ? algo_shm_eff(p, proto) : 0;
        if (o->link_Bps > 0)
            o->link_eff = fmin(1.0, r_link / o->link_Bps);
        t = fmax(wire / rate, ll_s);
        /* Simple: the first FIFO step of every channel crosses the link
         * and then the receiving channel before the pipeline streams
         * (pipe_fill: f x (sum - max) = one step per channel through the
         * faster stage, the channels' copy-out at coll.ch_fill each) */
        if (proto == CR_PROTO_SIMPLE && fill_Bps > 0)
            t += fmin(wire, nchf * p->simple_step_bytes) / (nchf * fill_Bps);
        break;
    }
    case CR_ALGO_TREE:
    case CR_ALGO_NVLSTREE:
    case CR_ALGO_COLLNET: {
        /* Inside a node: a chain (tree) moves 2S through each GPU's ports;
         * NVLS moves S(1 + 1/ppn) each way (every GPU's buffer is read by
         * the switches, each head's reduced share comes back to it and is
         * multicast out, src/device/all_reduce.h). Across nodes a double
         * binary tree moves 2S through each node's NICs (S with two nodes:
         * each node roots one of the two trees), CollNet S. The phases run
         * as one pipeline (see pipe_fill): the slower sets the rate, the
         * others add their fill and drain. */
        double t_in = 0, t_out = 0, r_in = 0, w_in = 0, shm_in = 0;
        bool nv_in = false;
        double pp = c->ppn;
        if (algo == CR_ALGO_TREE) {
            if (c->ppn > 1) {
                r_in = fmin(algo_intra_rate(c, proto, eff_up), cap_ch);
                /* the chain's middle ranks receive S from below and S
                 * from above; with two ranks in the node there is no
                 * middle: the leaf sends S up and gets S back, the root
                 * the reverse (traces/nvidia-h200-x2/kernels-nccl-Tree-
                 * Simple: 355 GB/s busbw, the ring's 349) */
                w_in = N == 1 ? (c->ppn > 2 ? 2 : 1) * S : algo_chain_egress(c->ppn, nch) * S;
                /* through host memory (SHM) every chain hop moves its S up
                 * and its S down at once: the two-way chain's share of
                 * the host paths (coll_priv.h), w_in / S of it into a
                 * rank, at most its ports, all at the SHM efficiency (as
                 * algo_intra_rate does with the ring's share) */
                if (c->shm_tree_Bps > 0 && S > 0 && !(c->up_Bps > 0)) {
                    shm_in = fmin(c->gpu_Bps, w_in / S * c->shm_tree_Bps);
                    r_in = fmin(fmin(c->gpu_Bps * eff_up, shm_in * algo_shm_eff(p, proto)), cap_ch);
                }
                /* LL128 in a one-node chain: NCCL's own model runs it at 7/9
                 * of its link rate (tuning.cc, tree LL128, nNodes == 1);
                 * measured on 2 H200s, Tree/LL128 231 GB/s against ring/LL128
                 * 333 (kernels-nccl-Tree-LL128.json.gz). Two ranks only,
                 * where it is measured. */
                if (proto == CR_PROTO_LL128 && N == 1 && two)
                    r_in *= 7.0 / 9.0;
                r_in *= p->tree_eff;
            }
        } else if (c->nvls_node) {
            r_in = c->nvls_Bps * p->nvls_eff;
            w_in = S * (1 + 1 / pp);
            nv_in = true;
        } else if (c->ppn > 1) {
            r_in = fmin(algo_intra_rate(c, proto, eff_up), cap_ch);
            w_in = 2.0 * (c->ppn - 1) / c->ppn * S;
        }
        if (w_in > 0 && r_in > 0)
            t_in = w_in / r_in;
        double w_out = 0, r_out = 0, node_Bps = 0;
        if (N > 1 && c->nic_node_Bps > 0) {
            w_out = algo == CR_ALGO_COLLNET ? S : algo_dtree_egress(N) * S;
            /* the node's member egress: its NICs, or with few ranks per
             * node the ranks' own PCIe links (bound.c, member_flow) */
            /* and no more than the NICs NCCL's graph takes (one GPU a node:
             * one NIC, algo_graph_net_Bps), nor than its channels' heads'
             * NICs on the rails (a node of 4 ranks of 8 leaves on their 4
             * NICs, not on the host links its node cut counts:
             * algo_net_cap_Bps, as the ring); the efficiency is that of
             * the class that binds */
            cr_hw cap_hw;
            double cap_Bps = algo_net_cap_Bps(c, HUGE_VAL, &cap_hw);
            node_Bps = fmin(c->nic_node_Bps, cap_Bps);
            cr_hw hw_o = cap_Bps < c->nic_node_Bps ? cap_hw : c->nic_node_hw;
            double eff_o = hw_o == CR_HW_NET ? eff_net : cr_proto_eff(p, proto, CR_HW_PCI);
            r_out = fmin(node_Bps * eff_o, c->ppn * cap_ch);
            if (algo == CR_ALGO_TREE)
                r_out *= p->tree_eff;
            t_out = w_out / r_out;
        }
        /* PCIe-only nodes: the head GPU's one link carries its chain hops
         * and its network traffic (algo_tree_head_link_s). Before, the two were
         * priced apart, t_in and t_out, as on NVLink boards, where the
         * chain is on NVLink and the network on PCIe: a tree allreduce of 1
         * GiB over 4 nodes of 8 L40S with a NIC under each PCIe switch (QA
         * audit of PCIe clusters, item (b)) came out 1.14-1.57x faster than
         * the simulator, which runs both over the one link. Each at its
         * transport's figure: the chain's as t_in prices it, against the
         * links it states (r_in over link_in), the network's as t_out
         * prices it against the node's egress. The rate is then stated
         * against the head's link, so a simulator running the tree's hops
         * at bw_eff loads that link as this does. */
        double t_head = 0, w_head = 0;
        if (algo == CR_ALGO_TREE && !(c->up_Bps > 0) && N > 1 && c->ppn > 1 && r_in > 0 &&
            r_out > 0 && node_Bps > 0) {
            double link_in = shm_in > 0 ? shm_in : algo_intra_Bps(c);
            double e_chain = fmin(1.0, r_in / link_in), e_net = fmin(1.0, r_out / node_Bps);
            t_head =
                algo_tree_head_link_s(c, nch, S, c->gpu_Bps * e_chain, c->gpu_Bps * e_net, &w_head);
        }
        if (t_head > t_in && t_head > t_out) {
            o->wire_bytes = w_head;
            o->wire_Bps = w_head / t_head;
            o->link_Bps = c->gpu_Bps;
        } else if (t_in >= t_out) {
            o->wire_bytes = w_in;
            o->wire_Bps = r_in;
            o->link_Bps = nv_in ? c->nvls_Bps : shm_in > 0 ? shm_in : algo_intra_Bps(c);
        } else {
            o->wire_bytes = w_out;
            o->wire_Bps = r_out;
            o->link_Bps = node_Bps; /* t_out > t_in >= 0: the block above ran */
        }
        t = fmax(fmax(fmax(t_in, t_out), t_head), ll_s);
        /* Stages one loop crosses. NVLS tree (all_reduce.h NVLS_TREE):
         * copy into the NVLS buffer, switch reduce, L network hops up each
         * followed by a combine (switch reduce + network receive), L hops
         * down with L-1 forwards, multicast, copy out. Tree: ppn-1 NVLink
         * hops up the chain, L network hops up and down, ppn-1 hops down. */
        int L = tree_levels(N);
        /* One network hop of the whole buffer: with two nodes each roots
         * one of NCCL's two trees and is the other's leaf (trees.cc), the
         * trees taking half the channels each, so in every phase (up, then
         * down) a node's NICs carry one tree's half each way: S/2. From
         * three nodes a node may carry both halves in one phase (a parent
         * of two, or a child in both trees at one level): S. CollNet's hop
         * is to the switch: S. */
        double hop_bytes = N == 2 && algo != CR_ALGO_COLLNET ? S / 2 : S;
        double t_net = r_out > 0 ? hop_bytes / r_out : 0;
        double sum = 0, mx = 0, f = 0;
        if (nv_in) {
            double t_copy = 2 * S / c->cuts->hbm_Bps[0], t_nv = S / r_in;
            sum = 2 * t_copy + (2 * L + 1) * t_nv + 2 * L * t_net;
            mx = fmax(t_copy, fmax(t_nv, t_net));
            f = nvls_loop_share(c, algo != CR_ALGO_COLLNET, pp, S);
        } else if (algo == CR_ALGO_TREE) {
            double t_hop = r_in > 0 ? S / r_in : 0;
            sum = 2 * (c->ppn - 1) * t_hop + 2 * L * t_net;
            mx = fmax(c->ppn > 1 ? t_hop : 0, t_net);
            f = nchf * tree_chunk_bytes(c, proto, S, nchf) / S;
        }
        if (S > 0)
            t += fmin(1.0, f) * (sum - mx);
        /* NVLS's cost per loop of its kernel (the NVLS case below), a loop
         * being 1 / f of the message here */
        if (nv_in && f > 0)
            t += p->nvls_loop_s / f;
        o->n_steps =
            algo == CR_ALGO_TREE ? 2 * (c->ppn - 1 + algo_log2i(N)) : 2 + 2 * algo_log2i(N);
        break;
    }
    case CR_ALGO_NVLS: {
        /* allreduce: S(1 + 1/n) through each GPU's ports each way (see the
         * tree case). Allgather: each rank multimem-stores its S/n to the
         * group, which includes itself, and its gather warps read all n
         * shards, its own too, from the NVLS buffer (all_gather.h NVLS:
         * prims.send to nvls->down, prims.gather of nHeads x count from
         * nvls->up): S into every port. Reducescatter the mirror: each rank
         * scatters its whole S of operands to the switches, its own share
         * too, before the multimem.ld_reduce: S out of every port. The
         * bound keeps (n-1)/n S: nothing forces the own copy across. */
        double wire = rq->coll == CR_COLL_ALLREDUCE ? S * (1 + 1 / nn) : S;
        double rate = c->nvls_Bps * p->nvls_eff;
        t = wire / rate;
        /* an allreduce runs in loops (nvls_loop_share), each costing
         * coll.nvls.loop beyond its bytes: on 8 H100 the rate at 8-512 MiB,
         * where NCCL's chunk is 32-64 KiB, sits 9-18 % below the 1-8 GiB
         * rate (128 KiB chunks) in both halves' logs (doc/corpus.md,
         * Session 10) */
        double f = rq->coll == CR_COLL_ALLREDUCE && S > 0 ? nvls_loop_share(c, false, nn, S) : 0;
        if (f > 0)
            t += p->nvls_loop_s / f;
        o->wire_bytes = wire;
        o->wire_Bps = rate;
        o->link_Bps = c->nvls_Bps;
        /* the switches reduce n copies of every byte */
        if (cr_coll_reduces(rq->coll) && isfinite(c->nvls_reduce_Bps)) {
            double tr = nn * (rq->coll == CR_COLL_ALLREDUCE ? S : S / nn) / c->nvls_reduce_Bps;
            t = fmax(t, tr);
        }
        if (f > 0) {
            /* one node (all_reduce.h NVLS, oneNode): copy in, reduce +
             * multicast, copy out, pipelined by loops */
            double hbm = c->cuts->hbm_Bps[0];
            double st3[3] = {2 * S / hbm, t, 2 * S / hbm};
            t += pipe_fill(f, st3, 3);
        }
        o->n_steps = 2;
        break;
    }
    case CR_ALGO_PAT: {
        double wire = (nn - 1) / nn * S;
        double rate = fmin(ring_rate(c, p, proto, cr_proto_eff(p, proto, c->ring_hw)), cap_ch);
        t = wire / rate;
        o->wire_bytes = wire;
        o->wire_Bps = rate;
        o->link_Bps = c->ring_Bps;
        o->n_steps = algo_log2i(N) + 1;
        break;
    }
    case CR_ALGO_DIRECT: {
        double wb, wc, we;
        /* RCCL's MSCCL all-pairs allreduce: its own rate and fixed time */
        bool msccl = rq->coll == CR_COLL_ALLREDUCE && cr_algo_msccl_proto(c, rq) == (int)proto;
        t = algo_direct_time(c, rq, msccl ? p->msccl_eff : eff_up, &wb, &wc, &we);
        /* through host memory (SHM): sendrecv's hops are the ring's
         * (rank i to i+1), an all-to-all's every pair at once, S/n each;
         * rooted patterns keep the cuts */
        bool a2a = rq->coll == CR_COLL_ALLTOALL, sr = rq->coll == CR_COLL_SENDRECV;
        double sh = a2a ? c->shm_pair_Bps : sr ? c->shm_ring_Bps : 0;
        if (sh > 0) {
            double per = algo_p2p_peer_bytes(c, rq);
            double ts = per / (sh * algo_shm_eff(p, proto));
            if (ts > t) {
                t = ts;
                wb = per;
                wc = sh;
                we = algo_shm_eff(p, proto);
            }
        }
        /* an all-to-all on GPUs without scale-up links: each GPU's PCIe
         * link carries its messages through host memory (NCCL's SHM: the
         * sender's SMs store into the receiver's host buffer,
         * src/transport/shm.cc) beside its P2P and network ones, each at
         * its transport's efficiency (algo_direct_effs), where the GPU cut
         * priced them all at the PCIe figure: on 4 nodes of two L40S
         * sockets (one rank a socket, tests/fixtures/xml/good-pcie-nic-
         * node.xml), 6 network messages at 0.87 and 1 through host memory
         * at 0.435 fill the link 5.8 % longer than 7 at 0.87 (QA audit of
         * PCIe clusters, test_coll test_a2a_shm_beside_p2p) */
        int ks = a2a && !(c->up_Bps > 0) ? c->shm_pair_peers : 0;
        if (ks > 0 && c->gpu_Bps > 0 && nn > 1) {
            double per = algo_p2p_peer_bytes(c, rq);
            double e_other = fmin(eff_up, p->pcie_eff), e_shm = algo_shm_eff(p, proto);
            double ks_d = fmin((double)ks, nn - 1);
            double tg = per * (ks_d / e_shm + (nn - 1 - ks_d) / e_other) / c->gpu_Bps;
            if (tg > t) {
                t = tg;
                wb = per * (nn - 1);
                wc = c->gpu_Bps;
                we = wb / (tg * wc);
            }
        }
        /* a sendrecv between GPUs joined by links of their own (a mesh:
         * MI300X's xGMI, a torus) crosses only those (pair_up_Bps), not
         * the GPU's other ports: NCCL's P2P transport moves it over the
         * path between the two (src/transport/p2p.cc), where the cuts
         * would spread it over every link of the GPU */
        if (sr && N == 1 && c->pair_up_Bps > 0 && c->pair_up_Bps < c->up_Bps &&
            algo_p2p_channel_limit(rq->bytes, c->pair_up_Bps * eff_up, &t, &wb, &wc, &we))
            o->per_message = true;
        /* to another node each peer's bytes run on NCCL's channels per
         * net peer, coll.p2p.net_ch each (algo_p2p_net_channels); many peers
         * at once in an all-to-all leave the NICs to bind */
        double far_peers = sr ? 1 : a2a ? nn - c->ppn : 0;
        if (N > 1 && far_peers > 0 && proto == CR_PROTO_SIMPLE && p->p2p_net_ch_Bps > 0) {
            double per = algo_p2p_peer_bytes(c, rq);
            double ch_rate = algo_p2p_net_channels(c, rq, nch_max) * p->p2p_net_ch_Bps;
            if (algo_p2p_channel_limit(per, ch_rate, &t, &wb, &wc, &we))
                o->per_message = true;
        }
        /* over NVLink each peer's bytes run on the channels NCCL splits
         * them over (algo_p2p_message_channels), coll.p2p.nvl_ch each: 8 ranks
         * of an NVSwitch board send up to 64 MiB on 4. A sendrecv across
         * nodes waits on its network pair (above) */
        bool nvl_peers = c->ppn > 1 && (N == 1 || !sr);
        if (nvl_peers && c->nccl_lib && !c->rccl && c->intra_hw == CR_HW_NVLINK &&
            proto == CR_PROTO_SIMPLE && p->p2p_nvl_ch_Bps > 0) {
            double per = algo_p2p_peer_bytes(c, rq);
            if (algo_p2p_channel_limit(per, algo_p2p_nvl_Bps(c, rq, nch_max, per), &t, &wb, &wc,
                                       &we))
                o->per_message = true;
        }
        o->wire_bytes = wb;
        o->link_Bps = wc;
        o->wire_Bps = wc * we;
        if (proto == CR_PROTO_SIMPLE && fill_Bps > 0) /* pipeline fill, as the ring's */
            t += fmin(wb, nchf * p->simple_step_bytes) / (nchf * fill_Bps);
        /* point-to-point: one launch, one hop, plus posting each remote
         * peer through the network proxy (estimate: 0.5 us per peer) */
        int hw = N == 1 ? (c->intra_hw == CR_HW_NVLINK ? 0 : 1) : 2;
        double peers = rq->coll == CR_COLL_SENDRECV     ? 1
                       : (rq->coll == CR_COLL_ALLTOALL) ? nn - 1
                                                        : nn - 1;
        double remote = N > 1 ? peers * (1.0 - 1.0 / N) : 0;
        if (msccl) {
            /* RCCL's MSCCL all-pairs: its own fixed time (coll.msccl.lat.*) */
            lat = p->msccl_lat_s[proto];
            o->launch_s =
                fmin(corpus ? op_fixed_s(c) : algo_base_lat_us(c, NT_RING, proto) * 1e-6 * ls, lat);
        } else if (corpus) {
            /* beyond two ranks of one node: the fixed cost, one step of
             * the link class, and each peer's send/recv pair in NCCL's
             * p2p schedule (coll.p2p.peer.*: the proxy's and the plugin's
             * work per message, one after another), and once the network
             * plugin's latency (coll.net.lat: the messages are posted
             * together, so their wire latencies overlap) */
            double local = rq->coll == CR_COLL_SENDRECV ? (N > 1 ? 0 : 1) : c->ppn - 1;
            double far = rq->coll == CR_COLL_SENDRECV ? (N > 1 ? 1 : 0) : nn - c->ppn;
            lat =
                op_fixed_s(c) + p->alpha_s[hw][proto] + local * p->p2p_peer_s[0] +
                far * p->p2p_peer_s[1] +
                (far > 0 ? p->net_lat_s +
                               rndv_s(p, rq->bytes / (rq->coll == CR_COLL_SENDRECV ? 1 : nn), proto)
                         : 0);
            o->launch_s = op_fixed_s(c);
        } else {
            lat = (algo_base_lat_us(c, NT_RING, proto) + algo_hw_lat_us(c, hw, NT_RING, proto) +
                   0.5 * remote) *
                  ls * 1e-6;
            o->launch_s = algo_base_lat_us(c, NT_RING, proto) * 1e-6 * ls;
        }
        if (two && proto == CR_PROTO_LL && p->n2_p2p_ll_lat_s > 0) {
            lat = p->n2_p2p_ll_lat_s; /* measured (params coll.n2.p2p_ll_lat) */
            o->launch_s = fmin(o->launch_s, lat);
        }
        o->n_steps = msccl ? 2 : 1; /* the all-pairs: a reduce-scatter, an allgather */
        /* the one step at least its route: across nodes off the rail
         * through PXN's scale-up hop (doc/bounds.md 2.2.3); inside one
         * node an all-to-all, gather or scatter waits for its farthest
         * pair (rank 0's farthest node-mate: a torus's diameter), a
         * sendrecv for rank 0's next */
        double r_node = rq->coll == CR_COLL_SENDRECV ? c->r_intra_s : c->r_intra_far_s;
        lat = fmax(lat, o->launch_s + (N > 1 ? (c->ppn > 1 ? c->r_pxn_s : c->r_inter_s) : r_node));
        if (proto == CR_PROTO_LL) {
            t /= 0.5; /* half of each 8-byte line is the flag */
            o->wire_Bps *= 0.5;
        }
        if (!msccl) /* each message at its own transport's figure (the simulator) */
            algo_direct_effs(c, rq->coll, proto, eff_up, proto == CR_PROTO_LL ? 0.5 : 1.0, o);
        o->nccl_est_s = lat + t;
        if (!nccl_enabled(c, rq, proto) && rq->proto == CR_PROTO_AUTO)
            o->nccl_est_s = HUGE_VAL;
        /* NCCL point-to-point switches to LL for small transfers
         * (NCCL_P2P_LL_THRESHOLD, 16 KiB per peer by default); we let the
         * faster of the two predictions stand for that choice. */
        break;
    }
    default:
        break;
    }
    if (more_pieces > 0) {
        /* each further piece: its step's latency where the piece before it
         * crosses a channel faster than that (corpus_lat_s) */
        double t_piece = o->wire_Bps > 0 ? piece_bytes * fmax(1.0, nch_max) / o->wire_Bps : 0;
        lat += more_pieces * fmax(0, a_piece - t_piece);
    }
    o->bw_eff = o->link_Bps > 0 ? o->wire_Bps / o->link_Bps : 0;
    finish(c, rq, b, o, lat, t);
}

/* Whether a custom kernel on rq->mech cannot run rq here, and why (into
 * why, n bytes): the one list of refusals, for any number of ranks. */
static bool mech_refused(const struct cr_coll_ctx *c, const cr_coll_req *rq, char *why, size_t n)
{
    if (!c->peer) {
        snprintf(why, n,
                 "%s moves data through peer GPU memory; these ranks are not all reachable "
                 "without a NIC",
                 cr_mech_name(rq->mech));
        return true;
    }
    /* TMA's bulk copies (cp.async.bulk) arrived with sm_90; AMD GPUs have none */
    if (rq->mech == CR_MECH_TMA && c->p.gen < CR_GEN_HOPPER) {
        cr_str_copy(why, n, "TMA (cp.async.bulk) needs an NVIDIA Hopper or later GPU (sm_90+)");
        return true;
    }
    /* a kernel runs on the SMs one GPU has (the smallest of the set's);
     * looked at only when a count is asked for: every eval comes here */
    if (rq->sms > 0) {
        int gpu_sms = 0;
        for (int i = 0; i < c->n; i++) {
            const cr_gpu_spec *g = cr_topo_gpu_spec(c->topo, c->ranks->ranks[i]);
            if (g && g->sms > 0 && (gpu_sms == 0 || g->sms < gpu_sms))
                gpu_sms = g->sms;
        }
        if (gpu_sms > 0 && rq->sms > gpu_sms) {
            snprintf(why, n, "%d SMs asked for, the GPU has %d", rq->sms, gpu_sms);
            return true;
        }
    }
    if (cr_mech_needs_switch(rq->mech) && !rq->in_network) {
        cr_str_copy(why, n, "in-network reduction excluded (--no-in-network)");
        return true;
    }
    if (cr_mech_needs_switch(rq->mech) && !c->nvls) {
        snprintf(why, n,
                 "multimem needs every rank wired to the same NVSwitches with multicast and "
                 "reduction, on Hopper or later");
        return true;
    }
    /* multimem.ld_reduce / multimem.red types (PTX ISA, "multimem"):
     * integers .b32/.b64/.u32/.u64/.s32/.s64, floats .f16/.bf16/.f32/.f64;
     * fp8 (.e4m3x4/.e5m2x4 with .acc::f16) only on Blackwell's family
     * targets (sm_100f); no 8-bit integer at all */
    if (rq->mech == CR_MECH_MULTIMEM && cr_coll_reduces(rq->coll) &&
        (rq->dtype == CR_DT_INT8 || (rq->dtype == CR_DT_FP8 && c->p.gen < CR_GEN_BLACKWELL))) {
        cr_str_copy(why, n,
                    rq->dtype == CR_DT_INT8
                        ? "multimem.ld_reduce has no 8-bit integer type (PTX ISA: s32/u32/s64/u64, "
                          "f16, bf16, f32, f64); a kernel would have to widen its elements"
                        : "multimem.ld_reduce has no fp8 type before Blackwell (PTX ISA: e4m3/e5m2 "
                          "from sm_100); a kernel would have to widen its elements");
        return true;
    }
    return false;
}

void cr_mech_predict(const struct cr_coll_ctx *c, const cr_coll_req *rq, const cr_coll_bound *b,
                     cr_coll_pred *o)
{
    memset(o, 0, sizeof *o);
    cr_mech m = rq->mech;
    o->mech = m;
    o->algo = CR_ALGO_DIRECT;
    o->proto = CR_PROTO_SIMPLE;
    const cr_params *p = &c->p;
    double S = rq->bytes, nn = c->n;
    if (mech_refused(c, rq, o->why, sizeof o->why))
        return;
    o->supported = true;
    int sms = rq->sms > 0 ? rq->sms : (int)ceil(p->mech_sat_sms[m]);
    o->nchannels = m == CR_MECH_CE ? 0 : sms;
    cr_coll coll = rq->coll;
    /* message size each transfer moves: one peer's chunk */
    double msg = coll == CR_COLL_SENDRECV || coll == CR_COLL_BROADCAST || coll == CR_COLL_REDUCE
                     ? S
                     : S / nn;
    double peer_bytes = msg;
    msg = fmin(msg, cr_mech_max_msg_bytes(m));
    double eff = cr_mech_eff(p, m, msg, sms);
    double t = 0;
    if (m == CR_MECH_MULTIMEM &&
        (coll == CR_COLL_ALLREDUCE || coll == CR_COLL_ALLGATHER || coll == CR_COLL_REDUCESCATTER ||
         coll == CR_COLL_BROADCAST || coll == CR_COLL_REDUCE)) {
        /* in-switch: allreduce moves S(1 + 1/n) through each GPU's ports
         * each way (the switches read all of it for the ld_reduce of every
         * owner's share, the owner gets its S/n back and stores it to the
         * multicast address, every GPU receives S); AG: a multimem.st
         * reaches every member, the storing GPU too, so S enters each port;
         * RS: each owner's ld_reduce reads its share from all n, its own
         * copy too, so S leaves each port (the NVLS case, predict_one);
         * bcast and reduce S at the root */
        double wire = coll == CR_COLL_ALLREDUCE ? S * (1 + 1 / nn) : S;
        double rate = c->nvls_Bps * eff;
        t = wire / rate;
        if (cr_coll_reduces(coll) && isfinite(c->nvls_reduce_Bps))
            t = fmax(t, nn * (coll == CR_COLL_ALLREDUCE ? S : S / nn) / c->nvls_reduce_Bps);
        o->wire_bytes = wire;
        o->wire_Bps = rate;
        o->link_Bps = c->nvls_Bps;
        o->n_steps = 2;
    } else if (coll == CR_COLL_BROADCAST || coll == CR_COLL_REDUCE) {
        /* a pipelined chain in rank order: S through every GPU */
        double eff_r = c->ring_hw == CR_HW_NVLINK ? eff : fmin(eff, c->p.pcie_eff);
        t = S / (c->ring_Bps * eff_r);
        o->wire_bytes = S;
        o->link_Bps = c->ring_Bps;
        o->wire_Bps = c->ring_Bps * eff_r;
        o->n_steps = c->n - 1;
    } else {
        double wb, wc, we;
        t = algo_direct_time(c, rq, eff, &wb, &wc, &we);
        o->wire_bytes = wb;
        o->link_Bps = wc;
        o->wire_Bps = wc * we;
        /* a point-to-point copy is one-sided: the copy's completion (or a
         * flag written behind the data, whose latency overlaps the copy's
         * tail) ends it, no synchronisation step (traces/nvidia-h200-x2:
         * 4 KiB copies take 1.6-2.1 us of device time in all) */
        o->n_steps = coll == CR_COLL_ALLREDUCE ? 2 : coll == CR_COLL_SENDRECV ? 0 : 1;
    }
    /* Pipeline fill: the first chunk crosses one SM (mech.<m>.chunk bytes
     * at one SM's rate, mech_eff x link / mech_sat_sms) before the link
     * streams at the transfer's rate: pipe_fill's (sum - max) of those two
     * stages for one chunk. One SM alone is the stream: no fill. The copy
     * engine has none. */
    double chunk = p->mech_chunk_bytes[m], sat = p->mech_sat_sms[m];
    if (chunk > 0 && sat > 0 && o->link_Bps > 0 && p->mech_eff[m] > 0 && o->wire_Bps > 0) {
        double r_sm = p->mech_eff[m] * o->link_Bps / sat;
        t += fmin(peer_bytes, chunk) * fmax(0, 1 / r_sm - 1 / o->wire_Bps);
    }
    /* The copy engine cannot reduce: reductions read what arrived from
     * HBM on the SMs, one more read and write of the received bytes. */
    if (m == CR_MECH_CE && cr_coll_reduces(coll)) {
        double hbm = c->cuts->hbm_Bps[0];
        t += 2 * (nn - 1) / nn * S / hbm;
    }
    o->bw_eff = o->link_Bps > 0 ? o->wire_Bps / o->link_Bps : 0;
    o->launch_s = p->mech_launch_s[m];
    double lat = p->mech_launch_s[m] + o->n_steps * p->mech_step_s;
    if (m == CR_MECH_CE)
        lat += fmax(0, nn - 2) * 1e-6; /* mech.ce.launch covers one copy; each further
                                          host-issued peer copy about 1 us (estimate) */
    finish(c, rq, b, o, lat, t);
}

void cr_local_predict(const struct cr_coll_ctx *c, const cr_coll_req *rq, const cr_coll_bound *b,
                      cr_coll_pred *o)
{
    memset(o, 0, sizeof *o);
    o->algo = CR_ALGO_DIRECT;
    o->proto = CR_PROTO_SIMPLE;
    o->mech = rq->mech;
    /* a forced choice one rank's local copy stands for is refused where it
     * would be with more ranks (NVLS without a multicast switch, multimem
     * on int8, ...), so that the answer does not depend on the rank count */
    if (rq->mech != CR_MECH_NONE && mech_refused(c, rq, o->why, sizeof o->why))
        return;
    if (rq->mech == CR_MECH_NONE && rq->algo != CR_ALGO_AUTO) {
        const char *why =
            why_not(c, rq, rq->algo, rq->proto == CR_PROTO_AUTO ? CR_PROTO_SIMPLE : rq->proto);
        if (why) {
            cr_str_copy(o->why, sizeof o->why, why);
            return;
        }
    }
    o->supported = true;
    const cr_params *p = &c->p;
    double S = rq->bytes;
    if (!(S > 0) || rq->in_place)
        return; /* in place on one rank, NCCL returns at once */
    /* NCCL (enqueue.cc, one rank) runs allreduce, allgather, reducescatter,
     * broadcast and reduce as one local copy kernel; alltoall, sendrecv,
     * gather and scatter are sends and receives to itself, through the
     * point-to-point kernel (LL up to NCCL_P2P_LL_THRESHOLD, 16 KiB). */
    bool p2p = cr_coll_p2p(rq->coll);
    double eff = p2p ? p->local_p2p_eff : p->local_eff;
    double launch = p->local_launch_s;
    if (p2p) {
        bool ll = S <= 16384;
        launch = ll ? p->local_p2p_ll_launch_s : p->local_p2p_launch_s;
        o->proto = ll ? CR_PROTO_LL : CR_PROTO_SIMPLE;
    }
    if (rq->mech != CR_MECH_NONE && (unsigned)rq->mech < CR_MECH__COUNT)
        launch = p->mech_launch_s[rq->mech];
    double hbm = c->cuts->hbm_Bps[0];
    double rate = hbm * eff;
    /* Input and output that fit in L2 together stay there between calls
     * (the same buffers every iteration): the copy runs at the L2-resident
     * rate, the point-to-point path keeping its ratio to the copy kernel. */
    if (2 * S <= c->cuts->l2_bytes[0])
        rate = hbm * p->local_l2_x * (eff / p->local_eff);
    o->nchannels = 1;
    o->launch_s = launch;
    o->n_steps = 0;
    o->wire_bytes = 2 * S;
    o->link_Bps = hbm;
    o->wire_Bps = rate;
    o->bw_eff = rate / hbm;
    o->pred_s = fmax(launch + 2 * S / rate, b->bound_s);
    o->nccl_est_s = rq->mech == CR_MECH_NONE ? o->pred_s : 0;
    o->algbw_Bps = S / o->pred_s;
    o->busbw_Bps = o->algbw_Bps * cr_coll_busbw_factor(rq->coll, 1);
}
