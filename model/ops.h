/* SPDX-License-Identifier: MIT */
/*
 * The operator catalog: single-GPU operators (gemm, memcpy, elementwise), the
 * collective primitives, and fused multi-GPU operators following the
 * ParallelKernelBench taxonomy (allgather+GEMM, GEMM+reducescatter, ring and
 * Ulysses attention, MoE, DDP, FSDP/ZeRO, pipeline, vocab-parallel loss, ...).
 *
 * For one operator, its parameters and a layout (tp/cp/ep/dp/pp group sizes
 * and the order in which they are laid over the GPU ranks), cr_op_eval()
 * computes per GPU: FLOPs, compulsory HBM bytes and the communication phases;
 * then
 *   bound_us    = max(T_compute, T_hbm, T_comm over every cut (each with
 *                 its own latency), latency), naming the binding resource;
 *   baseline_us = PyTorch + NCCL: the compute kernels, then each NCCL
 *                 collective (NCCL's algorithm choice), unoverlapped, plus
 *                 kernel launch overheads;
 *   predictions for two overlap schedules (ParallelKittens cost model,
 *                 T = T_launch + max(T_comp, T_mem, T_comm) + T_non-overlapped
 *                 + T_sync): intra-SM (every SM computes and communicates)
 *                 and inter-SM (a number of SMs dedicated to communication,
 *                 searched for the best split), naming the winner and why;
 *   headroom    = baseline / bound.
 * Every formula and its derivation is in doc/operators.md.
 *
 * Layout: ranks are numbered as the topology numbers its GPUs. Group
 * dimensions are laid out inner to outer in `order` (default tp, cp, ep, dp,
 * pp): with tp = 8 on 8-GPU nodes a TP group is one node and a DP group takes
 * one GPU per node. The operator's communication group is group 0 of its
 * dimension (ranks 0, s, 2s, ... where s is the product of inner sizes);
 * every group of that dimension runs the same operator at once, and the
 * bound of one group is a lower bound for all of them.
 *
 * Units: SI inside (seconds, bytes, FLOP); the *_us names in rows are
 * microseconds for output.
 */
#ifndef CR_OPS_H
#define CR_OPS_H

#include <stdbool.h>

#include "dtype.h"
#include "status.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every parameter any operator takes. Each operator declares which it uses
 * (cr_op_uses); values live in cr_op_params.v[] as doubles (enumerations as
 * their index). */
typedef enum {
    CR_OPP_DTYPE,      /* element type (enum cr_dtype) */
    CR_OPP_M,          /* GEMM rows (global, before sharding) */
    CR_OPP_N,          /* GEMM columns */
    CR_OPP_K,          /* GEMM reduction dimension */
    CR_OPP_BYTES,      /* message or copy size in bytes */
    CR_OPP_ELEMS,      /* elements (elementwise) */
    CR_OPP_READS,      /* tensors read per element (elementwise) */
    CR_OPP_WRITES,     /* tensors written per element (elementwise) */
    CR_OPP_FLOPS_PER,  /* FLOPs per element (elementwise, norm) */
    CR_OPP_KIND,       /* memcpy direction: d2d, h2d, d2h */
    CR_OPP_PINNED,     /* host buffer pinned (1) or pageable (0) */
    CR_OPP_COLL,       /* collective (coll operator) */
    CR_OPP_BATCH,      /* sequences (attention) or decode batch (gemv) */
    CR_OPP_SEQ,        /* sequence length, global (context parallel) */
    CR_OPP_TOKENS,     /* tokens per rank */
    CR_OPP_HIDDEN,     /* model width */
    CR_OPP_FFN,        /* expert FFN width */
    CR_OPP_HEADS,      /* query heads */
    CR_OPP_KV_HEADS,   /* key/value heads (GQA) */
    CR_OPP_HEAD_DIM,   /* head dimension */
    CR_OPP_CAUSAL,     /* causal mask (1) or not (0) */
    CR_OPP_BACKWARD,   /* attention's backward pass (1) or forward (0) */
    CR_OPP_EXPERTS,    /* experts in the layer */
    CR_OPP_TOPK,       /* experts per token */
    CR_OPP_CAPACITY,   /* capacity factor (0 = no capacity limit) */
    CR_OPP_SKEW,       /* hottest rank's load over the mean (>= 1) */
    CR_OPP_PARAMS,     /* model parameters (count) */
    CR_OPP_GRAD_DTYPE, /* gradient / communication dtype (enum cr_dtype) */
    CR_OPP_BUCKET,     /* DDP bucket size in bytes */
    CR_OPP_VOCAB,      /* vocabulary size */
    CR_OPP_NORM,       /* rms or layer */
    CR_OPP_NX,         /* local grid width (halo) */
    CR_OPP_NY,         /* local grid height (halo) */
    CR_OPP_CHANNELS,   /* channels (halo) */
    CR_OPP_HALO,       /* halo width in cells */
    CR_OPP_PX,         /* ranks along x in the 2-D process grid (halo) */
    CR_OPP_TP,         /* group sizes */
    CR_OPP_CP,
    CR_OPP_EP,
    CR_OPP_DP,
    CR_OPP_PP,
    CR_OPP_GROUP, /* which group communicates (coll, alltoallv, halo): tp..pp */
    CR_OPP_SPLIT, /* ring attention's sequence shards: zigzag (0) or contiguous (1) */
    CR_OPP__COUNT
} cr_opp;

/* A full parameter set. Zero-initialise, then cr_op_params_defaults(). */
typedef struct {
    double v[CR_OPP__COUNT];
    bool set[CR_OPP__COUNT]; /* given by the user (rather than defaulted) */
    int order[5];            /* group dims inner to outer: CR_OPP_TP.. CR_OPP_PP */
} cr_op_params;

/* One operator of the catalog (opaque; use the getters). */
typedef struct cr_op_def cr_op_def;

/* The i-th operator of the catalog, or NULL past the end (borrowed). */
const cr_op_def *cr_op_at(int i);

/* Finds an operator by name ("gemm", "ag_gemm"; a few aliases such as
 * "allgather_gemm"). Errors: CR_ENOTFOUND listing the valid names in d. */
cr_status cr_op_find(const char *name, const cr_op_def **out, cr_diag *d);

const char *cr_op_name(const cr_op_def *op);
/* ParallelKernelBench category: "single", "collective", "tp", "dp", "ep",
 * "cp", "pp", "vocab", "other". */
const char *cr_op_category(const cr_op_def *op);
/* One-line description. */
const char *cr_op_summary(const cr_op_def *op);
/* Whether op takes parameter p. */
bool cr_op_uses(const cr_op_def *op, cr_opp p);

/* Parameter names as users type them ("m", "kv_heads", "tp") and back
 * (-1 when unknown). */
const char *cr_opp_name(cr_opp p);
int cr_opp_parse(const char *name);
/* One-line help for parameter p ("GEMM reduction dimension (count)"). */
const char *cr_opp_help(cr_opp p);
/* Whether p is one of a problem's sizes: a count or a byte size (m, n, k,
 * bytes, elems, reads, tokens, heads, ...), as opposed to its element
 * types, switches (causal, pinned), enumerations (kind, coll), real
 * factors (flops_per, capacity, skew) and group layout (tp, cp, ep, dp,
 * pp, px, group), which have meaningful defaults. A bound of an
 * annotated call (`roofline`'s cr: ranges) needs every size its operator
 * uses: one on the catalog's default sizes is another problem's. */
bool cr_opp_is_size(cr_opp p);

/* Fills p with op's defaults (the ParallelKernelBench defaults where they
 * exist: M = N = 1024, K = 512, bf16, 8 ranks). */
void cr_op_params_defaults(const cr_op_def *op, cr_op_params *p);

/* Whether op lays its group dimensions over the ranks (tp..pp): it then
 * takes "order" besides its cr_opp parameters. */
bool cr_op_has_order(const cr_op_def *op);

/* p's order as "order" takes it ("tp,cp,ep,dp,pp", inner to outer) into
 * buf (size >= 20); returns buf. */
char *cr_op_order_format(const cr_op_params *p, char *buf, size_t size);

/* Parses text as parameter `name` of op and stores it. Counts accept
 * integers with an optional binary k/M/G suffix ("128k" = 131072); bytes
 * a unit ("64MiB") or an nccl-tests size, K/M/G/T in either case powers of
 * 1024 ("128M", "64m"), as coll's -b; dtypes, kinds and booleans their names.
 * "order" takes a comma list of tp,cp,ep,dp,pp.
 * Errors: CR_ENOTFOUND (op has no such parameter; d lists those it has),
 * CR_EPARSE or CR_ERANGE (bad value; d says what would be right). */
cr_status cr_op_param_set(const cr_op_def *op, cr_op_params *p, const char *name, const char *text,
                          cr_diag *d);

/* Writes a parameter's value as users type it ("1024", "bf16", "64MiB"),
 * at most size bytes with the NUL (size 0: nothing), cut to fit. Returns
 * buf. */
char *cr_op_param_format(const cr_op_params *p, cr_opp which, char *buf, size_t size);

/* Checks the combination (positive sizes, divisibility by group sizes,
 * skew <= group, ranks that fit the topology when t is not NULL).
 * Errors: CR_EINVAL or CR_ERANGE with the reason in d. */
cr_status cr_op_params_check(const cr_op_def *op, const cr_op_params *p, const cr_topo *t,
                             cr_diag *d);

/* One communication phase of an operator. */
typedef struct {
    char what[48];      /* "allgather A", "dispatch (all-to-all-v)" */
    char coll[16];      /* collective name as `commroof coll` takes it */
    double bytes;       /* its size, as nccl-tests counts it */
    int group_size;     /* ranks in the group */
    char group[64];     /* "tp: ranks 0-7 (stride 1, 1 node)" */
    double bound_s;     /* algorithm-independent bound of this phase alone */
    double bound_lat_s; /* its unavoidable latency part */
    char binding[64];   /* the cut (or "latency") that sets it */
    double nccl_s;      /* NCCL's choice (algorithm, protocol) prediction */
    char algo[16];
    char proto[16];
} cr_op_comm;

#define CR_OP_MAX_COMM 4

/* One overlap schedule's prediction, by the ParallelKittens cost model. */
typedef struct {
    double pred_s;
    int comm_sms; /* SMs given to communication (inter-SM), 0 otherwise */
    double t_launch_s;
    double t_comp_s;       /* compute on the SMs that compute */
    double t_mem_s;        /* HBM traffic including communication staging */
    double t_comm_s;       /* communication with the schedule's mechanism */
    double t_nonoverlap_s; /* pipeline fill and drain that cannot overlap */
    double t_sync_s;
    char mech[16]; /* transfer mechanism: tma, ldst, multimem, ce */
} cr_op_sched;

/* Everything cr_op_eval() computes. Times in seconds. */
typedef struct {
    double flops;         /* per GPU (the busiest one) */
    double hbm_bytes;     /* compulsory HBM bytes per GPU */
    double comm_bytes;    /* sum of the phases' sizes (nccl-tests convention) */
    double traffic_bytes; /* bytes one GPU sends (phase size x nccl-tests bus
                             factor) */
    int ranks;            /* GPUs of one communication group (1 for single-GPU) */

    double t_compute_s;     /* matrix flops / mma_bound_flops and vector flops / the vector
                               peak, the larger */
    double mma_bound_flops; /* the matrix FLOP/s the bound takes for the dtype: its peak, or
                               for fp32 and fp64 a faster emulation on lower-precision tensor
                               cores (cr_op_mma_bound_flops); the prediction keeps the peak */
    char mma_bound_by[192]; /* "" where the dtype's own peak stands, else the emulation */
    double t_hbm_s;         /* memory term, warm: hbm_bytes through the caches that can hold
                               them (cr_mem_floor_s; hbm_bytes / peak HBM when nothing fits) */
    double t_hbm_cold_s;    /* memory term, cold: hbm_bytes / peak HBM bandwidth */
    double t_comm_s;        /* communication bandwidth term over the cuts */
    double t_comm_lat_s;    /* that cut's own latency (a GPU's ports: the last byte still
                               crosses a link, doc/bounds.md 1.5); the comm term of the
                               bound is t_comm_s + this */
    double lat_s;           /* unavoidable latency: one group diameter (the largest phase's),
                               a floor of its own (the bound is the max, not the sum) */
    double lat_chain_s;     /* the dependent phases' latencies summed: what NCCL's calls
                               one after another pay (predictions, not the bound) */
    double bound_s;         /* warm: the strict limit (doc/bounds.md 1.4) */
    char binding[64];       /* "compute", "hbm", "l2", "llc", a cut's name, or "latency" */
    char bound_by[192];     /* "" where the operator's own algorithm (its phases) gives the
                               bound, else the other correct algorithm that moves less
                               (doc/operators.md: the least over algorithms) */
    double bound_cold_s;    /* cold: every byte from HBM (harnesses that flush the caches) */
    char binding_cold[64];
    double attainable_s;      /* the bound from measured ceilings where the topology has
                                 them (compute, HBM, L2), else equal to bound_s */
    double attainable_cold_s; /* the same for bound_cold_s (cr_op_result_use_cold) */
    bool cold;                /* bound_s is the cold bound (cr_op_result_use_cold) */

    double baseline_s;
    /* kernels and collectives the baseline launches: a bucketed phase
     * (ddp's allreduce) is one NCCL call per bucket; a double, as 1 PB in
     * 1-byte buckets is more calls than an int holds */
    double baseline_kernels;
    double baseline_compute_s;
    double baseline_comm_s;
    double baseline_launch_s;

    bool has_overlap; /* false for single-GPU operators and pure collectives */
    cr_op_sched intra;
    cr_op_sched inter;
    char schedule[16]; /* "intra-sm", "inter-sm", or "kernel"/"nccl" */
    char why[448];     /* which schedule wins and why */
    double pred_s;     /* the best prediction */
    double headroom;   /* baseline / bound */

    cr_op_comm comm[CR_OP_MAX_COMM];
    int n_comm;
} cr_op_result;

/* The matrix FLOP/s that bounds dt's matrix products on GPU model g, for
 * the bound's compute term: g's dense peak for dt, or for fp32 and fp64
 * the fastest published emulation on lower-precision tensor cores where
 * that is faster (the unit's dense peak over the scheme's least number of
 * products at native accuracy: Ozaki scheme II on int8, 3xTF32, BF16x9),
 * and never below a published measured emulation rate on that model
 * (doc/bounds.md 1.10). by (by_size bytes, NULL to skip) gets "" where
 * the peak stands, else the scheme and its arithmetic. 0 where g lacks a
 * peak for dt (emulation raises a rate the part has, it adds none). */
double cr_op_mma_bound_flops(const cr_gpu_spec *g, cr_dtype dt, char *by, size_t by_size);

/* The CUDA-core (vector) FLOP/s that bounds dt's elementwise FLOPs on GPU
 * model g, for the bound's compute term: g's fp32 peak, doubled for 16-bit
 * types (packed half2 / bfloat162 arithmetic), and four times it for fp16 on
 * GA100 (NVIDIA arch 80: A100, whose published non-tensor FP16 peak is 78
 * TFLOP/s against 19.5 FP32, A100 whitepaper Table 1; BF16 stays at 39).
 * Where g has no fp32 peak: fallback (the dtype's matrix peak). The
 * prediction keeps the doubled fp32 rate (doc/operators.md "What counts"). */
double cr_op_vec_bound_flops(const cr_gpu_spec *g, cr_dtype dt, double fallback);

/* Evaluates op with parameters p on topology t (finalized). Errors:
 * CR_EINVAL / CR_ERANGE for parameters (see cr_op_params_check), and
 * for a parameter the topology cannot honour (a dtype its GPU has no peak
 * for, h2d or d2h without a host link: the caller's choice, as a layout
 * larger than the machine is), CR_EUNSUPPORTED when no mechanism can run
 * the operator's communication, CR_EINVARIANT when the bound
 * or prediction is not finite (a figure of t out of any sane range; no
 * result then), with the reason in d. */
cr_status cr_op_eval(const cr_topo *t, const cr_op_def *op, const cr_op_params *p, cr_op_result *r,
                     cr_diag *d);

/* The topology-independent part of cr_op_eval: fills r->flops, hbm_bytes,
 * comm_bytes, traffic_bytes, ranks and the phases' what/coll/bytes (the
 * rest of r is zeroed). Errors as cr_op_params_check without a topology. */
cr_status cr_op_counts(const cr_op_def *op, const cr_op_params *p, cr_op_result *r, cr_diag *d);

/* Convenience for single-GPU records (validate): the bound and prediction
 * of one kernel on GPU rank 0 of t. kind is "d2d", "h2d" or "d2h". */
cr_status cr_op_eval_gemm(const cr_topo *t, double m, double n, double k, cr_dtype dt,
                          cr_op_result *r, cr_diag *d);
cr_status cr_op_eval_memcpy(const cr_topo *t, const char *kind, bool pinned, double bytes,
                            cr_op_result *r, cr_diag *d);
cr_status cr_op_eval_elementwise(const cr_topo *t, double elems, double reads, double writes,
                                 double flops_per_elem, cr_dtype dt, cr_op_result *r, cr_diag *d);
/* A local device-to-device copy of `bytes` by `sms` SMs with mechanism
 * "ldst" (16-byte loads/stores) or "tma" (bulk copies): the memcpy d2d
 * bound, and the prediction min-soft(sms x one SM's rate, HBM's copy rate)
 * plus the mechanism's fixed cost. Errors: CR_EINVAL (mechanism),
 * CR_ERANGE (sms outside 1..the GPU's SMs), those of cr_op_eval_memcpy. */
cr_status cr_op_eval_sm_copy(const cr_topo *t, const char *mech, int sms, double bytes,
                             cr_op_result *r, cr_diag *d);

/* Host-side and GPU front-end costs, in seconds, from t's parameters
 * (ops.launch.*) or the H200 measurements: kind "async" (spacing of
 * back-to-back kernel launches), "sync" (launch + stream synchronize),
 * "graph" (spacing of kernels replayed from a CUDA graph), "event" (event
 * record + synchronize), "kernel" (fixed device time of one kernel).
 * Errors: CR_EINVAL for another kind. */
cr_status cr_op_launch_s(const cr_topo *t, const char *kind, double *out_s, cr_diag *d);

/* Makes the cold bound r's bound (`--cold`: a harness that flushes the
 * caches between iterations): bound_s and binding take the cold ones. */
void cr_op_result_use_cold(cr_op_result *r);

/* The memory term of bytes with the measured ceilings (commroof calibrate:
 * <measured hbm-bw>, <measured l2-bw>) in place of the peaks, warm (the
 * bound's cr_mem_floor_s) or cold; the peaks where nothing is measured.
 * The one measured memory floor of op's and validate's attainable. */
double cr_op_attainable_mem_s(const cr_gpu_spec *g, double bytes, bool cold);

/* Measured-time verdict of `commroof check`. */
typedef enum {
    CR_VERDICT_IMPOSSIBLE,     /* measured < bound: the kernel or its timing is wrong
                                */
    CR_VERDICT_CACHE_RESIDENT, /* bound <= measured < bound_cold: the data stayed in the
                                  caches between iterations (not a failure) */
    CR_VERDICT_NEAR_ROOF,      /* >= 80% of roofline */
    CR_VERDICT_GOOD,           /* faster than the baseline */
    CR_VERDICT_SLOW,           /* no faster than the baseline */
} cr_verdict;

/* Whether a measured time is below a bound (seconds): by more than one
 * part in 10^9, so that a bound printed with the JSON's ten significant
 * digits (rounded by at most 5 parts in 10^10) and handed back as a
 * measurement is at the bound, not below it. Every verdict and violation
 * compares through this. */
static inline bool cr_below_bound(double measured_s, double bound_s)
{
    return measured_s < bound_s * (1 - 1e-9);
}

/* Whether measured_s is within 1.25 x bound_s (80 % of roofline or more:
 * near-roofline), with the same part in 10^9 as cr_below_bound, so that
 * 1.25 times a printed bound handed back is near-roofline (its percentage
 * came out 79.99999999). */
static inline bool cr_near_roofline(double measured_s, double bound_s)
{
    return measured_s <= 1.25 * bound_s * (1 + 1e-9);
}

/* The verdict for a measured time (seconds) against r. *pct is bound /
 * measured x 100, *speedup baseline / measured. */
cr_verdict cr_op_verdict(const cr_op_result *r, double measured_s, double *pct, double *speedup);
/* "impossible", "cache-resident", "near-roofline", "faster-than-baseline",
 * "slower-than-baseline"; "?" for a value outside the enum. */
const char *cr_verdict_name(cr_verdict v);
/* A sentence explaining the verdict. */
const char *cr_verdict_help(cr_verdict v);

/* One row of a suite evaluation (plots, report, `commroof suite`). */
typedef struct {
    const char *name; /* borrowed from the suite */
    const char *category;
    const char *op;
    cr_status status; /* CR_OK, or why the problem was not evaluated */
    char error[256];  /* the reason when status != CR_OK */
    double flops, hbm_bytes, comm_bytes;
    double bound_us, baseline_us, pred_us, headroom;
    double bound_cold_us; /* HBM-only bound (cr_op_result.bound_cold_s) */
    char binding[64];
    char schedule[16];
    int ranks;
} cr_op_row;

struct cr_suite;

/* Evaluates every problem of suite s on t into *rows (one per problem, in
 * order; free with free()). A problem that cannot run on t (needs more GPUs,
 * a dtype the GPU lacks) gets status != CR_OK and its reason in error; the
 * call still succeeds. Errors: CR_ENOMEM (also where a problem's evaluation
 * ran out of memory: then no rows). */
cr_status cr_op_eval_suite(const cr_topo *t, const struct cr_suite *s, cr_op_row **rows, int *n,
                           cr_diag *d);

#ifdef __cplusplus
}
#endif

#endif
