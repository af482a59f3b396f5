/* SPDX-License-Identifier: MIT */
/*
 * Collectives: the communication-aware bound and predictions.
 *
 * For a collective over a rank set of a topology and a message size, this
 * module answers
 *   - the bound: the least time any correct implementation could take, the
 *     max over cuts of (bytes the semantics force across the cut / the cut's
 *     capacity), HBM traffic and an unavoidable latency; with the binding
 *     resource named and every cut's term listed (doc/bounds.md derives
 *     each formula);
 *   - predictions: the expected time of an NCCL algorithm + protocol
 *     (NCCL's own choice by default), or of a custom kernel built on one
 *     transfer mechanism (copy engine, TMA, register ld/st, multimem).
 *
 * Sizes follow nccl-tests: `bytes` is the "size" column of nccl-tests.
 *   allreduce, broadcast, reduce, sendrecv: the buffer of one rank;
 *   allgather, gather: the whole gathered n-rank output (each rank
 *     contributes bytes/n);
 *   reducescatter, scatter: the whole n-rank input (each rank ends with
 *     bytes/n);
 *   alltoall: one rank's send buffer, bytes/n to each rank (itself included).
 * algbw = bytes / time, busbw = algbw x cr_coll_busbw_factor().
 * sendrecv follows nccl-tests' pattern: rank i sends to i+1 and receives
 * from i-1 (mod n), all at once.
 *
 * Typical use (evaluate many sizes cheaply: the context caches every cut's
 * capacity, so one evaluation is O(cuts), no graph search):
 *
 *   cr_coll_ctx *ctx;
 *   if (cr_coll_ctx_new(topo, ranks, &ctx, &d) != CR_OK) ...
 *   cr_coll_req rq = cr_coll_req_default(CR_COLL_ALLREDUCE, 1e9);
 *   cr_coll_result res;
 *   if (cr_coll_eval(ctx, &rq, &res, &d) != CR_OK) ...
 *   ... res.bound.bound_s, res.bound.binding, res.pred.pred_s, res.pred.algo
 *   cr_coll_ctx_free(ctx);
 *
 * The context borrows topo and copies ranks; topo must outlive it and stay
 * unchanged. Evaluating writes nothing of the context but a memo of atomic
 * values: threads may evaluate on one context at once (8 threads from
 * every root, and on one shared topology, under ThreadSanitizer: make
 * tsan, tests/unit/test_reentrancy.c); creating and freeing it are the
 * caller's to order.
 */
#ifndef CR_COLL_H
#define CR_COLL_H

#include <stdbool.h>

#include "dtype.h"
#include "rankset.h"
#include "status.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CR_COLL_ALLREDUCE,
    CR_COLL_ALLGATHER,
    CR_COLL_REDUCESCATTER,
    CR_COLL_ALLTOALL,
    CR_COLL_BROADCAST,
    CR_COLL_REDUCE,
    CR_COLL_GATHER,
    CR_COLL_SCATTER,
    CR_COLL_SENDRECV,
    CR_COLL__COUNT
} cr_coll;

/* NCCL algorithms (NCCL_ALGO names), plus `direct` (every rank exchanges
 * with every other at once: NCCL's alltoall/gather/scatter/sendrecv path,
 * one-shot custom kernels, and RCCL's MSCCL all-pairs allreduce on 8 MI300X,
 * a reduce-scatter and an allgather each direct). CR_ALGO_AUTO lets the
 * model choose as NCCL (or RCCL) does. */
typedef enum {
    CR_ALGO_AUTO = -1,
    CR_ALGO_RING = 0,
    CR_ALGO_TREE,
    CR_ALGO_NVLS,     /* NVLink SHARP: in-switch reduction + multicast, one node */
    CR_ALGO_NVLSTREE, /* NVLS inside nodes, tree across nodes */
    CR_ALGO_PAT,      /* parallel aggregated trees (allgather/reducescatter, 1
                         GPU/node) */
    CR_ALGO_DIRECT,
    CR_ALGO_COLLNET, /* in-network reduction across nodes (SHARP on IB switches)
                      */
    CR_ALGO__COUNT
} cr_algo;

/* NCCL protocols. CR_PROTO_AUTO lets the model choose as NCCL does. */
typedef enum {
    CR_PROTO_AUTO = -1,
    CR_PROTO_LL = 0, /* 8-byte lines: 4 B data + 4 B flag; lowest latency */
    CR_PROTO_LL128,  /* 128-byte lines: 120 B data + 8 B flag */
    CR_PROTO_SIMPLE, /* full bandwidth, fence + flag per chunk */
    CR_PROTO__COUNT
} cr_proto;

/* Transfer mechanism of a custom kernel (ParallelKittens taxonomy).
 * CR_MECH_NONE means "an NCCL algorithm/protocol" (the default). */
typedef enum {
    CR_MECH_NONE = -1,
    CR_MECH_CE = 0,   /* copy engine, cudaMemcpyPeerAsync: host initiated, no SMs */
    CR_MECH_TMA,      /* cp.async.bulk from a few SMs */
    CR_MECH_LDST,     /* register loads/stores to peer memory from many SMs */
    CR_MECH_MULTIMEM, /* multimem.ld_reduce / multimem.st through an NVSwitch */
    CR_MECH__COUNT
} cr_mech;

/* One evaluation request. Start from cr_coll_req_default() and change what
 * you need: fields added later get defaults there. */
typedef struct {
    cr_coll coll;
    double bytes;          /* nccl-tests "size" (see above), >= 0 */
    cr_dtype dtype;        /* element type; reductions need a type the GPU adds */
    int root;              /* communicator rank of the root (broadcast, reduce, gather,
                              scatter); ignored otherwise */
    cr_algo algo;          /* CR_ALGO_AUTO = NCCL's choice */
    cr_proto proto;        /* CR_PROTO_AUTO = NCCL's choice for that algorithm */
    cr_mech mech;          /* CR_MECH_NONE = NCCL; else a custom kernel on this mechanism */
    int nchannels;         /* NCCL channels, 0 = as NCCL would pick */
    int sms;               /* SMs a custom kernel uses for communication, 0 = the
                              mechanism's saturating count (ignored by CE) */
    bool in_network;       /* allow in-switch reduction/multicast where the topology's
                              switches offer it (default true); false: neither the
                              bound nor the prediction uses it (no NVLS, NVLS tree,
                              CollNet or multimem) */
    bool in_place;         /* receive buffer = send buffer (default true, as PyTorch
                              calls NCCL; nccl-tests' and crbench's first column is out
                              of place). Matters for one rank only: NCCL then copies
                              the send buffer (out of place) or does nothing (in place);
                              with n >= 2 the bound's HBM bytes hold for both. */
    int ranks_per_process; /* GPUs one host thread drives (launches each GPU's
                        kernel in turn): 0 or 1 = one process per GPU, as
                        torchrun, mpirun and PyTorch run NCCL (the default);
                        n = one process for all ranks (nccl-tests -g n,
                        crbench). Each extra GPU adds the host launch gap
                        (param coll.launch_gap) to NCCL predictions: the
                        collective waits for its last rank's kernel. At most
                        the number of ranks; the bound ignores it. */
    bool from_last_start;  /* the time runs from the last rank's kernel start (validate's
                              cases traced on every GPU), not from the first launch: the
                              launch gap is then out of it, and with ranks_per_process =
                              n the last rank is rank 0 (NCCL's group launch order,
                              algo.c last_start_rank). Default false. */
    bool host_loop;        /* the time is nccl-tests' (a host-timed loop of back-to-back
                              operations, divided by their count): one thread driving
                              ranks_per_process GPUs (one, with a process per GPU)
                              enqueues that many kernels per operation, so an operation
                              takes at least that many x coll.host_op (the host's time),
                              not the launch gap on top of the GPUs' time. Default false. */
    int loop_ops;          /* with host_loop: the operations one timed loop runs (nccl-tests'
                              iters x agg iters), over which a pipelined chain's fill is
                              spread (algo.c); 0: nccl-tests' default, 20. */
    int nccl_version;      /* the NCCL release of the run (NCCL_VERSION_CODE: 22304 =
                              2.23.4) where its choices differ by release; 0 (default) =
                              the parameter coll.nccl_version */
    unsigned nccl_algos;   /* the run's NCCL_ALGO for this collective as a set of
                              (1u << cr_algo) bits (cr_nccl_select_parse): auto chooses
                              among these only; 0 (default) = NCCL's own set. NCCL_ALGO
                              does not govern point-to-point (direct). */
    unsigned nccl_protos;  /* the run's NCCL_PROTO likewise, (1u << cr_proto) bits */
    int moe_topk;          /* alltoall only, >= 2: the size S is a rank's token copies
                              for an MoE dispatch, each token sent to moe_topk distinct
                              of moe_experts experts spread evenly over the ranks; the
                              bound counts a token once per cut it must cross (one
                              copy reaches the far side, where ranks relay it, as
                              DeepEP sends once per node); predictions keep NCCL's
                              copies. 0 (default): a plain all-to-all */
    double moe_experts;    /* with moe_topk: experts in all, a multiple of the ranks */
    bool moe_combine;      /* with moe_topk: the combine (expert outputs back to each
                              token's rank, summed on the way), the dispatch reversed */
} cr_coll_req;

/* Maximum number of cut terms reported in a bound. */
#define CR_COLL_MAX_TERMS 16

/* The largest message size a request may carry: 1 PB (the most HBM the
 * topology loader accepts on one GPU). Larger is a typo, and near DBL_MAX
 * the model's times overflow to infinity (issue 13 item 8: -b 1e308). */
#define CR_COLL_MAX_BYTES 1e15

/* The most channels a request may force (cr_coll_req.nchannels): NCCL's
 * MAXCHANNELS (src/include/device.h), the limit of coll and sim
 * --nchannels and of a scenario's channels=. */
#define CR_COLL_MAX_NCHANNELS 64

/* One term of the bound: bytes forced across a cut (or through HBM) in its
 * busiest direction, the capacity there, and the time they take. */
typedef struct {
    char name[48];       /* "gpu-ports", "gpu-ports/in-switch", "node-nics",
                            "pcie-uplink", "socket-link", "bisection", "hbm", ... */
    char where[48];      /* the instance that binds: "gpu 3", "node 0", "pcisw n0.sw1"
                          */
    double bytes;        /* bytes that must cross (per direction, worst instance) */
    double cap_Bps;      /* capacity of that instance in that direction */
    double time_s;       /* bytes / cap_Bps + the latency the term adds (lat_s) */
    double lat_s;        /* unavoidable latency added to this term (0 if none) */
    double out_s, in_s;  /* a cut's transfer time each way (out of the cut's side, into
                            it) at that instance, without lat_s: time_s - lat_s is the
                            larger; operators that chain phases sum each way apart
                            (doc/operators.md). HBM and cache terms: both that time */
    char main_class[12]; /* link class carrying most of cap_Bps ("scale-up", "pcie",
                            "network"); "" for aggregate and HBM terms */
    double main_frac;    /* its share of cap_Bps (1 = one class; a GPU of an HGX board:
                            NVLink 450 of 513 GB/s, the rest PCIe, doc/bounds.md 1.7) */
} cr_coll_term;

typedef struct {
    double bound_s;         /* least possible time */
    char binding[48];       /* name of the term that sets it ("latency" possible) */
    char binding_where[48]; /* its instance */
    double lat_s;           /* unavoidable latency (one-way member diameter) */
    bool in_network;        /* in-switch reduction/multicast was credited */
    cr_coll_term terms[CR_COLL_MAX_TERMS];
    int n_terms;
    double algbw_Bps, busbw_Bps; /* bytes / bound_s and x factor; 0 when bytes = 0 */
    /* The attainable bound: the same cuts with measured ceilings in place of
     * datasheet peaks where the topology carries them (cr_coll_ceilings);
     * equal to bound_s when it carries none. Always >= bound_s. */
    double attainable_s;
    char attainable_binding[48]; /* the term that sets it */
    bool measured;               /* some measured ceiling entered attainable_s */
} cr_coll_bound;

/* A prediction, with the closed form's parts so that a simulator can expand
 * the same algorithm into flows and agree:
 *   pred_s = launch_s + n_steps x step_lat_s + wire_bytes / wire_Bps
 * wire_bytes are the bytes the algorithm moves through the most loaded
 * rank's ports (e.g. ring allreduce 2(n-1)/n x bytes) and wire_Bps the rate
 * it reaches there (link capacity x bw_eff). */
typedef struct {
    bool supported; /* false: this algo/proto/mech cannot run the request */
    char why[144];  /* when unsupported: the reason */
    double pred_s;
    cr_algo algo;      /* the algorithm used (chosen or forced) */
    cr_proto proto;    /* the protocol (CR_PROTO_AUTO never appears here;
                          custom kernels report CR_PROTO_SIMPLE) */
    cr_mech mech;      /* CR_MECH_NONE for NCCL */
    int nchannels;     /* NCCL channels (or SMs for a custom kernel) */
    double launch_s;   /* fixed cost: launch, setup, final sync */
    double step_lat_s; /* latency of one step (hop + sync + protocol) */
    int n_steps;       /* steps on the critical path */
    double wire_bytes; /* bytes through the busiest rank port set */
    double wire_Bps;   /* effective rate there */
    double link_Bps;   /* raw capacity of that port set */
    double bw_eff;     /* wire_Bps / link_Bps: protocol x mechanism x size */
    double link_eff;   /* a ring whose rate falls below what its links reach (NCCL's
                          channels cap it: LL's per-channel rate, llMaxBw, a Simple
                          or LL128 channel's rate; or a fill term): the links' rate
                          over link_Bps, > bw_eff. wire_Bps is then no link's rate:
                          a simulator caps each channel at wire_Bps / nchannels,
                          its flows carrying their bytes at their links' figures
                          (a ring's hops through host memory at eff_shm, the others
                          at bw_eff), so that links the flows share slow them only
                          when full. 0: the links bind */
    bool per_message;  /* wire_bytes is one peer's message and wire_Bps its rate:
                          NCCL's channels bind each point-to-point message, not
                          the links (algo_p2p_channel_limit), so every message
                          runs at most at wire_Bps however many share a link */
    double eff_mate;   /* direct point-to-point and ring hops through NCCL's
                          transports (0: not stated, bw_eff for every message or
                          hop): the efficiency coll prices a message or hop at
                          between node-mates joined directly (P2P over scale-up
                          or PCIe links), */
    double eff_shm;    /* between node-mates through host memory (SHM), */
    double eff_net;    /* and between ranks of different nodes (the network);
                          bw_eff is the binding one's, which the other
                          transports' messages do not take */
    double nccl_est_s; /* NCCL's own estimate (its tuning model, which picks the
                          algorithm); 0 for custom kernels */
    int net_nics;      /* ring, tree, NVLS tree, CollNet across nodes: the NICs a
                          node's graph channels leave it by (one each; a GPU alone
                          on its node gets one however many sit near it), which
                          the simulator's routes keep to; 0 for no such limit */
    double algbw_Bps, busbw_Bps;
} cr_coll_pred;

typedef struct {
    cr_coll_bound bound;
    cr_coll_pred pred;
} cr_coll_result;

typedef struct cr_coll_ctx cr_coll_ctx;

/* Measured ceilings a topology carries, as the attainable bound uses them
 * (doc/bounds.md 1.6). Each fraction is a measured rate over the datasheet
 * rate of that link class, in (0, 1]; 1 where the topology has none:
 *   scaleup_frac: param coll.ceil.scaleup, else the best of the topology's
 *                 mech.ce.eff / mech.tma.eff / mech.ldst.eff (commroof
 *                 calibrate writes them from peer copies);
 *   pcie_frac:    param coll.ceil.pcie, else the topology's ops.pcie.eff
 *                 (calibrate: pinned host copies);
 *   net_frac:     param coll.ceil.net;
 *   hbm_Bps:      the GPU model's measured copy bandwidth (<measured
 *                 hbm-bw>), capped at the peak; the peak when absent. */
typedef struct {
    double scaleup_frac, pcie_frac, net_frac;
    double hbm_Bps;
    bool measured; /* at least one of the above came from the topology */
} cr_coll_ceilings;

/* The ceilings of topo for GPU rank `gpu_rank` (single-GPU users such as ops
 * call this directly). Errors: CR_EINVAL when gpu_rank is out of range or a
 * coll.ceil.* parameter lies outside (0, 1], with the key in d. */
cr_status cr_coll_ceilings_for(const cr_topo *topo, int gpu_rank, cr_coll_ceilings *out,
                               cr_diag *d);

/* Names as users type them: "allreduce", "allgather", "reducescatter",
 * "alltoall", "broadcast", "reduce", "gather", "scatter", "sendrecv";
 * "ring", "tree", "nvls", "nvlstree", "pat", "direct", "collnet", "auto";
 * "ll", "ll128", "simple", "auto"; "ce", "tma", "ldst", "multimem", "none".
 * Return "?" for out-of-range values. */
const char *cr_coll_name(cr_coll c);
const char *cr_algo_name(cr_algo a);
const char *cr_proto_name(cr_proto p);
const char *cr_mech_name(cr_mech m);

/* Inverses, case-insensitive, accepting common aliases ("all_reduce",
 * "all-reduce", "reduce_scatter", "a2a", "p2p", "LL128", "copy-engine").
 * Errors: CR_ENOTFOUND with the valid names in d. */
cr_status cr_coll_parse(const char *s, cr_coll *out, cr_diag *d);
cr_status cr_algo_parse(const char *s, cr_algo *out, cr_diag *d);
cr_status cr_proto_parse(const char *s, cr_proto *out, cr_diag *d);
cr_status cr_mech_parse(const char *s, cr_mech *out, cr_diag *d);

/* An NCCL release as people write it, "2.23.4", "2.23.4-1",
 * "2.23.4+cuda12.6", or as NCCL_VERSION_CODE, "22304", into *code (22304:
 * major x 10000 + minor x 100 + patch, nccl.h's form since 2.9; the
 * release cr_coll_req.nccl_version takes). 2.8 is the earliest taken (its
 * NCCL_VERSION_CODE, 2804 for 2.8.4, gives 20804): the model's rules by
 * release reach back to it as to 2.9. Errors: CR_EINVAL with the reason in
 * d (which may be NULL). */
cr_status cr_nccl_version_parse(const char *s, int *code, cr_diag *d);

/* The codes cr_nccl_version_parse gives (2.8.0 to 9.99.99) and
 * cr_coll_req.nccl_version takes besides 0. */
#define CR_NCCL_VERSION_MIN 20800
#define CR_NCCL_VERSION_MAX 99999

/* NCCL_ALGO (protocols false) or NCCL_PROTO (true) as NCCL parses them
 * (src/graph/tuning.cc parseList): names case-insensitive, comma-separated
 * ("Ring,Tree"), "^" before the list for all but these ("^NVLS"), and
 * per collective "allreduce:tree;allgather:ring" (every entry after the
 * first names its collective). *set: what NCCL may run for coll, as
 * cr_coll_req.nccl_algos / nccl_protos take it (1u << CR_ALGO_RING, ...:
 * CollNetDirect and CollNetChain are CR_ALGO_COLLNET); 0 when the list
 * leaves coll at NCCL's default, and for the point-to-point collectives
 * (alltoall, sendrecv, gather, scatter), which it does not govern.
 * Errors: CR_EPARSE naming the token NCCL would refuse, CR_EINVAL for a
 * coll outside cr_coll. */
cr_status cr_nccl_select_parse(const char *list, bool protocols, cr_coll coll, unsigned *set,
                               cr_diag *d);

/* Whether NCCL would take list as NCCL_ALGO / NCCL_PROTO: parses it for
 * every collective it governs (the errors of cr_nccl_select_parse). */
cr_status cr_nccl_select_check(const char *list, bool protocols, cr_diag *d);

/* nccl-tests bus-bandwidth factor for n ranks: allreduce 2(n-1)/n;
 * allgather, reducescatter, alltoall, gather, scatter (n-1)/n; broadcast,
 * reduce, sendrecv 1. n = 1 gives 0 for the (n-1) forms and 1 otherwise. */
double cr_coll_busbw_factor(cr_coll c, int n);

/* Whether the collective reduces (allreduce, reducescatter, reduce). */
bool cr_coll_reduces(cr_coll c);

/* Whether the collective has a root rank (broadcast, reduce, gather,
 * scatter: cr_coll_req.root). */
bool cr_coll_rooted(cr_coll c);

/* Whether NCCL runs the collective as point-to-point sends and receives
 * (alltoall, gather, scatter, sendrecv: ncclSend/ncclRecv groups). */
bool cr_coll_p2p(cr_coll c);

/* Bytes each rank contributes (send buffer) and receives (receive buffer)
 * for the nccl-tests size `bytes`, n ranks; rooted collectives give the
 * root's figures. */
double cr_coll_send_bytes(cr_coll c, double bytes, int n);
double cr_coll_recv_bytes(cr_coll c, double bytes, int n);

/* A request with defaults: fp32 (nccl-tests' default type), root 0, algo/proto
 * auto, mech none, nchannels/sms 0, in_network true, in_place true,
 * ranks_per_process 0 (one process per GPU). */
cr_coll_req cr_coll_req_default(cr_coll c, double bytes);

/* A message size as nccl-tests sizes its buffers (src/<coll>.cu,
 * *GetCollByteCount): whole elements of esize bytes, and for collectives
 * that split the buffer over n ranks (allgather, reducescatter, alltoall,
 * gather, scatter) each rank's part `(count / n) & -(16 / esize)`
 * elements, a multiple of 16 bytes (nccl-tests 2.13.12 and later:
 * cr_coll_nccl_tests_bytes for an older release). commroof coll, sim and
 * scenarios size every request so. An esize <= 0 (or NaN) gives bytes back unchanged. */
double cr_coll_nccl_bytes(cr_coll c, double bytes, double esize, int n);

/* The nccl-tests releases (major x 10000 + minor x 100 + patch) from which
 * a rank's part of a split collective rounds to 16 bytes (v2.13.12) and,
 * before it, all_gather's and reduce_scatter's to 4 elements (v2.13.4). */
#define CR_NCCL_TESTS_ALIGN16 21312
#define CR_NCCL_TESTS_ALIGN4 21304

/* cr_coll_nccl_bytes as nccl-tests release nt_version (coded as above; 0 =
 * the newest) sizes its buffers: before v2.13.12 alltoall's, gather's and
 * scatter's rank parts are whole elements, all_gather's and
 * reduce_scatter's multiples of 4 elements (from v2.13.4; whole elements
 * before), so that a log of an older release prints sizes the newest
 * rounding would not give (8 ranks, fp32 alltoall: 32 B, 1 element each). */
double cr_coll_nccl_tests_bytes(cr_coll c, double bytes, double esize, int n, int nt_version);

/* The count nccl-tests prints for a size rounded so: elements per rank for
 * the collectives split over ranks, else all. */
double cr_coll_nccl_count(cr_coll c, double bytes, double esize, int n);

/* Prepares a context: resolves the rank set on topo (NULL = all ranks),
 * finds every cut (per-GPU ports by fabric, node NICs, PCIe switch
 * uplinks, socket links, bisection), their capacities, the member
 * latencies, the NCCL graph figures (channels, per-channel bandwidth) and
 * the model constants (params.h). topo must be finalized and checked.
 * Errors: CR_EINVAL (empty set, rank out of range), CR_ENOMEM. Free with
 * cr_coll_ctx_free. */
cr_status cr_coll_ctx_new(const cr_topo *topo, const cr_rankset *ranks, cr_coll_ctx **out,
                          cr_diag *d);

/* Frees ctx. cr_coll_ctx_free(NULL) is a no-op. */
void cr_coll_ctx_free(cr_coll_ctx *ctx);

/* Overrides one model constant (params.h: a cr_params_key) of the context,
 * as a topology <param> with that key would; later predictions use it. The
 * bound uses no model constant and is unchanged. Errors: those of
 * cr_params_set (unknown key, value outside its range; ctx unchanged). */
cr_status cr_coll_ctx_set_param(cr_coll_ctx *ctx, const char *key, double value, cr_diag *d);

/* Number of ranks in the context's set. */
int cr_coll_ctx_nranks(const cr_coll_ctx *ctx);

/* Whether an automatic choice is NCCL's (NVIDIA GPUs) or RCCL's (AMD,
 * which keeps NCCL's tuning model): the least of NCCL's own estimates.
 * Where neither library runs (a TPU), it is the algorithm and protocol
 * with the least predicted time. */
bool cr_coll_ctx_nccl_choice(const cr_coll_ctx *ctx);

/* The context's rank set (borrowed). */
const cr_rankset *cr_coll_ctx_ranks(const cr_coll_ctx *ctx);

/* The bound for rq (rq->algo/proto/mech are ignored: the bound holds for
 * every implementation). Errors: CR_EINVAL (bytes negative, non-finite or
 * above CR_COLL_MAX_BYTES, root out of range, a reduction on a type the
 * GPUs cannot add, nchannels outside 0..CR_COLL_MAX_NCHANNELS, a field
 * outside its enumeration or range), CR_EINVARIANT (the bound came out infinite or NaN:
 * figures of the topology out of any sane range; no result then), with
 * the reason in d. */
cr_status cr_coll_bound_eval(const cr_coll_ctx *ctx, const cr_coll_req *rq, cr_coll_bound *out,
                             cr_diag *d);

/* The prediction for rq: NCCL's choice when algo/proto are auto, the forced
 * algorithm/protocol otherwise, a custom kernel when mech is set. A forced
 * combination that cannot run is not an error: out->supported is false and
 * out->why says why. Errors as cr_coll_bound_eval, and CR_EINVARIANT when
 * a supported prediction is not finite. */
cr_status cr_coll_predict(const cr_coll_ctx *ctx, const cr_coll_req *rq, cr_coll_pred *out,
                          cr_diag *d);

/* cr_coll_predict's result for rq given its bound b, which must be what
 * cr_coll_bound_eval (or cr_coll_eval, its .bound) gave for this context
 * and request. The bound uses no model constant (cr_coll_ctx_set_param
 * leaves it as it is), so a caller that predicts the same requests under
 * many constants (calibrate --nccl-tests' fit) evaluates each bound once
 * and not at every prediction. Errors as cr_coll_predict. */
cr_status cr_coll_predict_bounded(const cr_coll_ctx *ctx, const cr_coll_req *rq,
                                  const cr_coll_bound *b, cr_coll_pred *out, cr_diag *d);

/* Bound and prediction together. */
cr_status cr_coll_eval(const cr_coll_ctx *ctx, const cr_coll_req *rq, cr_coll_result *out,
                       cr_diag *d);

/* One-shot convenience for callers that evaluate a single size (ops):
 * builds a context, evaluates, frees it. ranks NULL = all. */
cr_status cr_coll_eval_topo(const cr_topo *topo, const cr_rankset *ranks, const cr_coll_req *rq,
                            cr_coll_result *out, cr_diag *d);

/* Every NCCL algorithm x protocol prediction for rq (rq->algo/proto/mech
 * ignored): out[a][p] for a in [0, CR_ALGO__COUNT), p in [0,
 * CR_PROTO__COUNT); unsupported ones have supported = false. NCCL's choice
 * is the supported entry with the least nccl_est_s (NCCL's own tuning
 * estimate, not our pred_s), which is what cr_coll_predict returns under
 * auto. */
cr_status cr_coll_predict_all(const cr_coll_ctx *ctx, const cr_coll_req *rq,
                              cr_coll_pred out[CR_ALGO__COUNT][CR_PROTO__COUNT], cr_diag *d);

#ifdef __cplusplus
}
#endif

#endif
