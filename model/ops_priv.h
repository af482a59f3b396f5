/* SPDX-License-Identifier: MIT */
/*
 * Internals of the operator catalog shared by model/ops*.c: the operator
 * table, the per-operator work description (what a shape function returns)
 * and the adapter to the collectives module. Nothing outside model/ops*.c
 * includes this.
 */
#ifndef CR_OPS_PRIV_H
#define CR_OPS_PRIV_H

#include "coll.h"
#include "ops.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* How a parameter's value is written in JSON (cr_op_params_to_json):
 * counts, reals and byte sizes as numbers, yes/no as booleans, dtypes and
 * other enumerations by name. */
typedef enum { OPS_JSON_NUMBER, OPS_JSON_BOOL, OPS_JSON_STRING } ops_json_kind;
ops_json_kind ops_param_json_kind(cr_opp p);

/* How the compute part of an operator runs, for the predictions. */
typedef enum {
    OPS_KERNEL_STREAM, /* bandwidth-bound kernel(s): elementwise, norm, optimizer
                        */
    OPS_KERNEL_GEMM,   /* one GEMM (m x n x k per GPU), tile model */
    OPS_KERNEL_MATMUL, /* matmul-dominated without one GEMM shape (attention,
                          backward) */
    OPS_KERNEL_NONE,   /* pure communication or copy */
} ops_kernel;

/* One communication phase as the shape function describes it. */
typedef struct {
    const char *what;
    cr_coll coll;
    double bytes; /* nccl-tests size */
    double skew;  /* alltoall only: hottest receiver's load over the mean (1 =
                     balanced; below 1 when a capacity factor under 1 caps every
                     receiver) */
    double other; /* alltoall only, > 0: every other receiver's load over the
                     mean where it is not (p - skew)/(p - 1) (tokens dropped at a
                     capacity are not redistributed); 0 = (p - skew)/(p - 1) */
    int dim;      /* group dimension (CR_OPP_TP..CR_OPP_PP) */
    int sub_n;    /* > 0: only group members 0, sub_stride, 2 sub_stride, .. (sub_n
                     of them) */
    int sub_stride;
    bool concurrent; /* runs at the same time as the previous phase (else after
                        it) */
    int dtype;       /* the element type the phase moves (cr_dtype), -1: the
                        operator's (fp32 statistics of vocab parallelism,
                        gradients in grad_dtype) */
    double bucket;   /* > 0: the baseline issues it in buckets of this many bytes
                        (DDP) */
    int moe_topk;    /* alltoall of an MoE dispatch or combine: cr_coll_req's
                        moe_topk, moe_experts, moe_combine (0: a plain one) */
    double moe_experts;
    bool moe_combine;
} ops_phase;

/* Another correct algorithm for the operator's layout whose data movement
 * can be less than the main phases' (gathering a GEMM's inputs instead of
 * reducing its partial outputs when k is small): the bound is the least
 * over the main algorithm and these; the baseline and the predictions keep
 * the main phases. Per GPU: its own matrix and vector FLOPs, its phases;
 * memory as the main algorithm's (the compulsory bytes of the layout). */
typedef struct {
    const char *what;
    double mma_flops, vec_flops;
    ops_phase ph[CR_OP_MAX_COMM];
    int n_ph;
} ops_alt;

#define OPS_MAX_ALT 3

/* ops_mix.c: the least over splits of the work between the main algorithm
 * and its alternatives. A resource (compute, one direction of a cut) and
 * its time under each algorithm alone. */
#define OPS_MIX_ALGOS (OPS_MAX_ALT + 1)
typedef struct {
    double v[OPS_MIX_ALGOS];
} ops_mix_res;

/* The least over splits x (x_j >= 0, summing to 1) of the first k
 * algorithms of max(floor, max over the n resources of sum_j x_j v[j],
 * the largest lat_j of the algorithms used): the split in x_out, the
 * binding resource in *arg_out (-1 the floor, -2 the latency). */
double ops_mix_min(int k, const ops_mix_res *res, int n, double floor, const double *lat,
                   double *x_out, int *arg_out);

/* What a shape function computes from the parameters alone. Counts are per
 * GPU of the busiest rank. */
typedef struct {
    cr_dtype dt;           /* compute dtype (peak FLOP/s looked up by it) */
    double flops;          /* all FLOPs = mma_flops + vec_flops */
    double mma_flops;      /* matrix FLOPs (tensor cores at the dtype's peak) */
    double vec_flops;      /* elementwise FLOPs (CUDA cores) */
    double hbm_bytes;      /* compulsory: inputs read once, outputs written once */
    double base_hbm_bytes; /* what the unfused PyTorch kernels move (>= hbm_bytes) */
    int base_kernels;      /* compute kernels the PyTorch baseline launches */
    ops_kernel kernel;
    double gm, gn, gk; /* the main GEMM per GPU (OPS_KERNEL_GEMM) */
    ops_phase ph[CR_OP_MAX_COMM];
    int n_ph;
    ops_alt alt[OPS_MAX_ALT]; /* other algorithms the bound considers */
    int n_alt;
    int group_size;    /* ranks of the communicating group */
    bool overlappable; /* communication can overlap the compute (fused kernel) */
    bool tile_aligned; /* the communication consumes/produces the compute's tiles
                        */
    /* memcpy only */
    int copy_kind; /* 0 d2d, 1 h2d, 2 d2h */
    bool pinned;
} ops_work;

typedef cr_status (*ops_shape_fn)(const cr_op_params *p, ops_work *w, cr_diag *d);

struct cr_op_def {
    const char *name;
    const char *alias;
    const char *category;
    const char *summary;
    int dim;           /* default communicating group (CR_OPP_TP..), -1 single GPU */
    cr_opp params[20]; /* parameters it takes, ended by CR_OPP__COUNT */
    ops_shape_fn shape;
};

extern const struct cr_op_def ops_catalog[];
extern const int ops_catalog_n;

/* Parameter value helpers. */
static inline double ops_v(const cr_op_params *p, cr_opp k)
{
    return p->v[k];
}

/* Group ranks of dimension dim (group 0) given the layout: fills ranks[0..n)
 * (n = the group size) and returns the stride between them. */
int ops_group_ranks(const cr_op_params *p, int dim, int *ranks);
/* Product of all group sizes (GPUs the layout needs). */
double ops_layout_gpus(const cr_op_params *p);

/* Shape functions (ops_shapes.c). */
cr_status ops_shape_gemm(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_memcpy(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_elementwise(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_attention(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_coll(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_ag_gemm(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_gemm_rs(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_gemm_ar(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_sp_norm(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_ring_attn(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_ulysses(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_moe(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_ddp(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_fsdp(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_zero(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_pp(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_vocab_ce(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_gemv_ar(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_embedding(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_halo(const cr_op_params *p, ops_work *w, cr_diag *d);
cr_status ops_shape_alltoallv(const cr_op_params *p, ops_work *w, cr_diag *d);

/* Adapter to the collectives module (ops_comm.c): one phase on one group. */
typedef struct {
    cr_coll_bound bound; /* the collective's bound with its per-cut terms */
    double nccl_s;       /* NCCL's choice */
    char algo[16], proto[16];
    double skew_term_s; /* all-to-all-v: hottest receiver's port time (0 if
                           balanced) */
} ops_comm_est;

/* A context for a group: created once per phase group, reused for the SM
 * split search. */
typedef struct {
    cr_coll_ctx *ctx;
    const cr_topo *t;
    int n;
    int *ranks;
    double min_in_Bps; /* least total ingress capacity of a member GPU (all
                          fabrics) */
} ops_group;

cr_status ops_group_open(const cr_topo *t, const int *ranks, int n, ops_group *g, cr_diag *d);
void ops_group_close(ops_group *g);

/* Groups kept open across evaluations (cr_op_eval_suite): a context of a
 * 65,536-GPU cluster costs about 0.1 s to build however few its ranks
 * (cuts of every node, the bisection's max-flow, latencies), and a suite's
 * problems mostly share their groups. Zero-initialise; free with
 * ops_group_cache_free. */
typedef struct {
    ops_group *g;
    int n;
    size_t cap; /* cr_grow's capacity of g */
} ops_group_cache;

void ops_group_cache_free(ops_group_cache *c);
/* cr_op_eval, taking and leaving its groups' contexts in *cache (NULL:
 * cr_op_eval itself). The results are cr_op_eval's. */
cr_status ops_eval_cached(const cr_topo *t, const cr_op_def *op, const cr_op_params *p,
                          cr_op_result *r, ops_group_cache *cache, cr_diag *d);
/* Bound (with per-cut terms) and NCCL's choice for one phase. */
cr_status ops_comm_eval(ops_group *g, const ops_phase *ph, cr_dtype dt, ops_comm_est *e,
                        cr_diag *d);
/* Prediction of a custom kernel moving the phase with mechanism m on `sms`
 * SMs (0 = saturating count), or of NCCL's choice when m is CR_MECH_NONE
 * (*sms_used then gets its channel count, one SM each). Returns +inf in
 * *pred_s when m cannot run it. sms_used may be NULL. */
cr_status ops_comm_mech(ops_group *g, const ops_phase *ph, cr_dtype dt, cr_mech m, int sms,
                        double *pred_s, int *sms_used, cr_diag *d);
/* The CUDA-core FLOP/s of dt's elementwise work on g that predictions
 * use: g's fp32 peak, doubled for 16-bit types (packed half2 / bfloat162);
 * fallback where g has no fp32 peak. cr_op_vec_bound_flops starts there. */
double ops_vec_peak_flops(const cr_gpu_spec *g, cr_dtype dt, double fallback);

#pragma GCC visibility pop

#endif
