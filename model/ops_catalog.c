/* SPDX-License-Identifier: MIT */
/*
 * The operator table, parameter names, defaults and parsing, and the layout
 * of group dimensions over GPU ranks (see ops.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbuf.h"
#include "ops_priv.h"
#include "units.h"

typedef enum { PK_COUNT, PK_REAL, PK_BYTES, PK_DTYPE, PK_BOOL, PK_ENUM, PK_DIM } pkind;

static const char *const copy_kinds[] = {"d2d", "h2d", "d2h", NULL};
static const char *const norm_kinds[] = {"rms", "layer", NULL};
static const char *const dim_names[] = {"tp", "cp", "ep", "dp", "pp", NULL};
static const char *const split_kinds[] = {"zigzag", "contiguous", NULL};

static const struct {
    const char *name;
    pkind kind;
    const char *const *enums;
    const char *help;
} pinfo[CR_OPP__COUNT] = {
    [CR_OPP_DTYPE] = {"dtype", PK_DTYPE, NULL, "element type: fp32 tf32 bf16 fp16 fp8 int8 ..."},
    [CR_OPP_M] = {"m", PK_COUNT, NULL, "GEMM rows, global before sharding (tokens)"},
    [CR_OPP_N] = {"n", PK_COUNT, NULL, "GEMM columns, global before sharding"},
    [CR_OPP_K] = {"k", PK_COUNT, NULL, "GEMM reduction dimension, global before sharding"},
    [CR_OPP_BYTES] =
        {"bytes", PK_BYTES, NULL,
         "bytes (8), an nccl-tests size (128M = 128 MiB) or a size with a unit (64MiB)"},
    [CR_OPP_ELEMS] = {"elems", PK_COUNT, NULL, "elements"},
    [CR_OPP_READS] = {"reads", PK_COUNT, NULL, "tensors read per element"},
    [CR_OPP_WRITES] = {"writes", PK_COUNT, NULL, "tensors written per element"},
    [CR_OPP_FLOPS_PER] = {"flops_per", PK_REAL, NULL, "FLOPs per element"},
    [CR_OPP_KIND] = {"kind", PK_ENUM, copy_kinds, "copy direction: d2d h2d d2h"},
    [CR_OPP_PINNED] = {"pinned", PK_BOOL, NULL, "host buffer pinned (yes) or pageable (no)"},
    [CR_OPP_COLL] = {"coll", PK_ENUM, NULL,
                     "collective: allreduce allgather reducescatter alltoall "
                     "broadcast reduce gather scatter sendrecv"},
    [CR_OPP_BATCH] = {"batch", PK_COUNT, NULL,
                      "sequences (attention, pipeline micro-batch); gemm: products, A and B read "
                      "once (they may be broadcast), C written each"},
    [CR_OPP_SEQ] = {"seq", PK_COUNT, NULL, "sequence length, global (128k = 131072)"},
    [CR_OPP_TOKENS] = {"tokens", PK_COUNT, NULL, "tokens per rank"},
    [CR_OPP_HIDDEN] = {"hidden", PK_COUNT, NULL, "model width"},
    [CR_OPP_FFN] = {"ffn", PK_COUNT, NULL, "expert FFN width"},
    [CR_OPP_HEADS] = {"heads", PK_COUNT, NULL, "query heads"},
    [CR_OPP_KV_HEADS] = {"kv_heads", PK_COUNT, NULL, "key/value heads (GQA)"},
    [CR_OPP_HEAD_DIM] = {"head_dim", PK_COUNT, NULL, "head dimension"},
    [CR_OPP_CAUSAL] = {"causal", PK_BOOL, NULL, "causal mask (yes/no)"},
    [CR_OPP_BACKWARD] = {"backward", PK_BOOL, NULL,
                         "the backward pass: dQ, dK, dV from dO (yes/no)"},
    [CR_OPP_EXPERTS] = {"experts", PK_COUNT, NULL, "experts in the layer"},
    [CR_OPP_TOPK] = {"topk", PK_COUNT, NULL, "experts per token"},
    [CR_OPP_CAPACITY] = {"capacity", PK_REAL, NULL, "capacity factor, 0 = unlimited"},
    [CR_OPP_SKEW] = {"skew", PK_REAL, NULL, "hottest rank's load over the mean, 1 = balanced"},
    [CR_OPP_PARAMS] = {"params", PK_COUNT, NULL,
                       "model parameters, a whole count; k/M/G/T are decimal here (70G = 7e10, "
                       "65.2G = 65200000000)"},
    [CR_OPP_GRAD_DTYPE] = {"grad_dtype", PK_DTYPE, NULL, "gradient / communication dtype"},
    [CR_OPP_BUCKET] = {"bucket", PK_BYTES, NULL, "DDP bucket size with a unit (25MB)"},
    [CR_OPP_VOCAB] = {"vocab", PK_COUNT, NULL, "vocabulary size"},
    [CR_OPP_NORM] = {"norm", PK_ENUM, norm_kinds, "rms or layer"},
    [CR_OPP_NX] = {"nx", PK_COUNT, NULL, "local grid width"},
    [CR_OPP_NY] = {"ny", PK_COUNT, NULL, "local grid height"},
    [CR_OPP_CHANNELS] = {"channels", PK_COUNT, NULL, "channels"},
    [CR_OPP_HALO] = {"halo", PK_COUNT, NULL, "halo width in cells"},
    [CR_OPP_PX] = {"px", PK_COUNT, NULL, "ranks along x of the process grid (group = px x py)"},
    [CR_OPP_TP] = {"tp", PK_COUNT, NULL, "tensor-parallel group size"},
    [CR_OPP_CP] = {"cp", PK_COUNT, NULL, "context-parallel group size"},
    [CR_OPP_EP] = {"ep", PK_COUNT, NULL, "expert-parallel group size"},
    [CR_OPP_DP] = {"dp", PK_COUNT, NULL, "data-parallel group size"},
    [CR_OPP_PP] = {"pp", PK_COUNT, NULL, "pipeline stages"},
    [CR_OPP_GROUP] = {"group", PK_DIM, dim_names, "communicating group: tp cp ep dp pp"},
    [CR_OPP_SPLIT] = {"split", PK_ENUM, split_kinds,
                      "how the sequence is sharded: zigzag (rank i holds chunks i and 2cp-1-i) "
                      "or contiguous (rank i holds the i-th 1/cp)"},
};

#define LAYOUT CR_OPP_TP, CR_OPP_CP, CR_OPP_EP, CR_OPP_DP, CR_OPP_PP
#define END CR_OPP__COUNT

const struct cr_op_def ops_catalog[] = {
    {"gemm",
     "matmul",
     "single",
     "one GEMM on one GPU: C[m,n] = A[m,k] B[k,n], batch products of them",
     -1,
     {CR_OPP_DTYPE, CR_OPP_M, CR_OPP_N, CR_OPP_K, CR_OPP_BATCH, END},
     ops_shape_gemm},
    {"memcpy",
     "copy",
     "single",
     "one copy: device to device, host to device, device to host",
     -1,
     {CR_OPP_KIND, CR_OPP_PINNED, CR_OPP_BYTES, END},
     ops_shape_memcpy},
    {"elementwise",
     "pointwise",
     "single",
     "one elementwise kernel: reads, writes, FLOPs per element",
     -1,
     {CR_OPP_DTYPE, CR_OPP_ELEMS, CR_OPP_READS, CR_OPP_WRITES, CR_OPP_FLOPS_PER, END},
     ops_shape_elementwise},
    {"attention",
     "sdpa",
     "single",
     "scaled dot-product attention on one GPU (flash): softmax(Q K^T) V, forward or backward",
     -1,
     {CR_OPP_DTYPE, CR_OPP_BATCH, CR_OPP_SEQ, CR_OPP_HEADS, CR_OPP_KV_HEADS, CR_OPP_HEAD_DIM,
      CR_OPP_CAUSAL, CR_OPP_BACKWARD, END},
     ops_shape_attention},
    {"coll",
     "collective",
     "collective",
     "one collective primitive over a group (PKB 1-8)",
     CR_OPP_TP,
     {CR_OPP_COLL, CR_OPP_DTYPE, CR_OPP_BYTES, LAYOUT, CR_OPP_GROUP, END},
     ops_shape_coll},
    {"ag_gemm",
     "allgather_gemm",
     "tp",
     "allgather of the sequence-sharded A, then the column-parallel GEMM",
     CR_OPP_TP,
     {CR_OPP_DTYPE, CR_OPP_M, CR_OPP_N, CR_OPP_K, LAYOUT, END},
     ops_shape_ag_gemm},
    {"gemm_rs",
     "gemm_reducescatter",
     "tp",
     "row-parallel GEMM, then reducescatter of the partial outputs",
     CR_OPP_TP,
     {CR_OPP_DTYPE, CR_OPP_M, CR_OPP_N, CR_OPP_K, LAYOUT, END},
     ops_shape_gemm_rs},
    {"gemm_ar",
     "gemm_allreduce",
     "tp",
     "row-parallel GEMM, then allreduce of the partial outputs",
     CR_OPP_TP,
     {CR_OPP_DTYPE, CR_OPP_M, CR_OPP_N, CR_OPP_K, LAYOUT, END},
     ops_shape_gemm_ar},
    {"sp_norm",
     "rmsnorm",
     "tp",
     "sequence-parallel norm: reducescatter, residual add + RMSNorm/LayerNorm, "
     "allgather",
     CR_OPP_TP,
     {CR_OPP_DTYPE, CR_OPP_M, CR_OPP_HIDDEN, CR_OPP_NORM, LAYOUT, END},
     ops_shape_sp_norm},
    {"ring_attn",
     "ring_attention",
     "cp",
     "context-parallel attention passing K/V around the group (forward)",
     CR_OPP_CP,
     {CR_OPP_DTYPE, CR_OPP_BATCH, CR_OPP_SEQ, CR_OPP_HEADS, CR_OPP_KV_HEADS, CR_OPP_HEAD_DIM,
      CR_OPP_CAUSAL, CR_OPP_SPLIT, LAYOUT, END},
     ops_shape_ring_attn},
    {"ulysses",
     "ulysses_attention",
     "cp",
     "all-to-all from sequence to head sharding, attention, all-to-all back "
     "(forward)",
     CR_OPP_CP,
     {CR_OPP_DTYPE, CR_OPP_BATCH, CR_OPP_SEQ, CR_OPP_HEADS, CR_OPP_KV_HEADS, CR_OPP_HEAD_DIM,
      CR_OPP_CAUSAL, LAYOUT, END},
     ops_shape_ulysses},
    {"moe",
     "moe_forward",
     "ep",
     "MoE layer: all-to-all dispatch, grouped expert GEMMs (SwiGLU), "
     "all-to-all combine",
     CR_OPP_EP,
     {CR_OPP_DTYPE, CR_OPP_TOKENS, CR_OPP_HIDDEN, CR_OPP_FFN, CR_OPP_EXPERTS, CR_OPP_TOPK,
      CR_OPP_CAPACITY, CR_OPP_SKEW, LAYOUT, END},
     ops_shape_moe},
    {"ddp",
     "ddp_allreduce",
     "dp",
     "DDP backward with bucketed gradient allreduce (backward = 4 x params x "
     "tokens FLOPs)",
     CR_OPP_DP,
     {CR_OPP_DTYPE, CR_OPP_GRAD_DTYPE, CR_OPP_PARAMS, CR_OPP_TOKENS, CR_OPP_BUCKET, LAYOUT, END},
     ops_shape_ddp},
    {"fsdp",
     "zero3",
     "dp",
     "FSDP/ZeRO-3 step: parameter allgather, forward + backward, gradient "
     "reducescatter",
     CR_OPP_DP,
     {CR_OPP_DTYPE, CR_OPP_GRAD_DTYPE, CR_OPP_PARAMS, CR_OPP_TOKENS, LAYOUT, END},
     ops_shape_fsdp},
    {"zero",
     "zero_adam",
     "dp",
     "ZeRO-1/2 optimizer step: gradient reducescatter, fused Adam on the "
     "shard, parameter "
     "allgather",
     CR_OPP_DP,
     {CR_OPP_DTYPE, CR_OPP_GRAD_DTYPE, CR_OPP_PARAMS, LAYOUT, END},
     ops_shape_zero},
    {"pp_sendrecv",
     "pipeline",
     "pp",
     "pipeline stage boundary: send activations to the next stage",
     CR_OPP_PP,
     {CR_OPP_DTYPE, CR_OPP_BATCH, CR_OPP_SEQ, CR_OPP_HIDDEN, LAYOUT, END},
     ops_shape_pp},
    {"vocab_ce",
     "cross_entropy",
     "vocab",
     "vocab-parallel LM head GEMM + cross-entropy (max and sum-exp allreduces)",
     CR_OPP_TP,
     {CR_OPP_DTYPE, CR_OPP_TOKENS, CR_OPP_HIDDEN, CR_OPP_VOCAB, LAYOUT, END},
     ops_shape_vocab_ce},
    {"gemv_ar",
     "decode_gemv",
     "tp",
     "decode: row-parallel GEMV (m = batch) then allreduce",
     CR_OPP_TP,
     {CR_OPP_DTYPE, CR_OPP_M, CR_OPP_N, CR_OPP_K, LAYOUT, END},
     ops_shape_gemv_ar},
    {"embedding",
     "vocab_embedding",
     "tp",
     "vocab-parallel embedding lookup, then allreduce of the masked rows",
     CR_OPP_TP,
     {CR_OPP_DTYPE, CR_OPP_TOKENS, CR_OPP_HIDDEN, CR_OPP_VOCAB, LAYOUT, END},
     ops_shape_embedding},
    {"halo",
     "halo_exchange",
     "other",
     "2-D boundary exchange with the 4 grid neighbours, then a 3x3 convolution",
     CR_OPP_TP,
     {CR_OPP_DTYPE, CR_OPP_NX, CR_OPP_NY, CR_OPP_CHANNELS, CR_OPP_HALO, CR_OPP_PX, LAYOUT,
      CR_OPP_GROUP, END},
     ops_shape_halo},
    {"alltoallv",
     "all_to_all_v",
     "other",
     "all-to-all-v with a skewed traffic matrix (one hot receiver)",
     CR_OPP_EP,
     {CR_OPP_DTYPE, CR_OPP_BYTES, CR_OPP_SKEW, LAYOUT, CR_OPP_GROUP, END},
     ops_shape_alltoallv},
};
const int ops_catalog_n = (int)(sizeof ops_catalog / sizeof ops_catalog[0]);

const cr_op_def *cr_op_at(int i)
{
    return i >= 0 && i < ops_catalog_n ? &ops_catalog[i] : NULL;
}

static void list_ops(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < ops_catalog_n && len < size; i++) {
        int w = snprintf(buf + len, size - len, "%s%s", i ? " " : "", ops_catalog[i].name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

cr_status cr_op_find(const char *name, const cr_op_def **out, cr_diag *d)
{
    *out = NULL;
    if (!name)
        return cr_diag_set(d, CR_EINVAL, "no operator given (commroof op --list names them)");
    for (int i = 0; i < ops_catalog_n; i++)
        if (strcasecmp(name, ops_catalog[i].name) == 0 ||
            (ops_catalog[i].alias && strcasecmp(name, ops_catalog[i].alias) == 0)) {
            *out = &ops_catalog[i];
            return CR_OK;
        }
    char list[512];
    list_ops(list, sizeof list);
    return cr_diag_set(d, CR_ENOTFOUND, "unknown operator \"%s\" (operators: %s)", name, list);
}

const char *cr_op_name(const cr_op_def *op)
{
    return op->name;
}
const char *cr_op_category(const cr_op_def *op)
{
    return op->category;
}
const char *cr_op_summary(const cr_op_def *op)
{
    return op->summary;
}

bool cr_op_uses(const cr_op_def *op, cr_opp p)
{
    for (int i = 0; op->params[i] != CR_OPP__COUNT; i++)
        if (op->params[i] == p)
            return true;
    return false;
}

const char *cr_opp_name(cr_opp p)
{
    return (int)p >= 0 && p < CR_OPP__COUNT ? pinfo[p].name : "?";
}

const char *cr_opp_help(cr_opp p)
{
    return (int)p >= 0 && p < CR_OPP__COUNT ? pinfo[p].help : "?";
}

ops_json_kind ops_param_json_kind(cr_opp p)
{
    switch (pinfo[p].kind) {
    case PK_COUNT:
    case PK_REAL:
    case PK_BYTES:
        return OPS_JSON_NUMBER;
    case PK_BOOL:
        return OPS_JSON_BOOL;
    case PK_DTYPE:
    case PK_ENUM:
    case PK_DIM:
        break;
    }
    return OPS_JSON_STRING;
}

bool cr_opp_is_size(cr_opp p)
{
    if (p < 0 || p >= CR_OPP__COUNT)
        return false;
    switch (p) {
    case CR_OPP_TP:
    case CR_OPP_CP:
    case CR_OPP_EP:
    case CR_OPP_DP:
    case CR_OPP_PP:
    case CR_OPP_PX:
        return false; /* the layout over the machine's GPUs */
    default:
        return pinfo[p].kind == PK_COUNT || pinfo[p].kind == PK_BYTES;
    }
}

int cr_opp_parse(const char *name)
{
    for (int i = 0; i < CR_OPP__COUNT; i++)
        if (strcmp(name, pinfo[i].name) == 0)
            return i;
    if (strcmp(name, "kv-heads") == 0)
        return CR_OPP_KV_HEADS;
    if (strcmp(name, "head-dim") == 0)
        return CR_OPP_HEAD_DIM;
    if (strcmp(name, "grad-dtype") == 0)
        return CR_OPP_GRAD_DTYPE;
    if (strcmp(name, "flops-per") == 0)
        return CR_OPP_FLOPS_PER;
    return -1;
}

void cr_op_params_defaults(const cr_op_def *op, cr_op_params *p)
{
    (void)op;
    memset(p, 0, sizeof *p);
    double *v = p->v;
    /* ParallelKernelBench defaults: M = N = 1024 bf16, K = 512, 8 ranks. */
    v[CR_OPP_DTYPE] = CR_DT_BF16;
    v[CR_OPP_M] = 1024;
    v[CR_OPP_N] = 1024;
    v[CR_OPP_K] = 512;
    v[CR_OPP_BYTES] = 1024.0 * 1024.0 * 2.0; /* one 1024 x 1024 bf16 matrix */
    v[CR_OPP_ELEMS] = 1024.0 * 1024.0;
    v[CR_OPP_READS] = 2;
    v[CR_OPP_WRITES] = 1;
    v[CR_OPP_FLOPS_PER] = 1;
    v[CR_OPP_KIND] = 0;
    v[CR_OPP_PINNED] = 1;
    v[CR_OPP_COLL] = CR_COLL_ALLREDUCE;
    v[CR_OPP_BATCH] = 1;
    v[CR_OPP_SEQ] = 8192;
    v[CR_OPP_TOKENS] = 1024;
    v[CR_OPP_HIDDEN] = 1024;
    v[CR_OPP_FFN] = 4096;
    v[CR_OPP_HEADS] = 32;
    v[CR_OPP_KV_HEADS] = 32;
    v[CR_OPP_HEAD_DIM] = 128;
    v[CR_OPP_CAUSAL] = 1;
    v[CR_OPP_EXPERTS] = 8;
    v[CR_OPP_TOPK] = 2;
    v[CR_OPP_CAPACITY] = 0;
    v[CR_OPP_SKEW] = 1;
    v[CR_OPP_PARAMS] = 1024.0 * 1024.0 * 64.0;
    v[CR_OPP_GRAD_DTYPE] = CR_DT_BF16;
    v[CR_OPP_BUCKET] = 25.0 * 1024.0 * 1024.0; /* PyTorch DDP bucket_cap_mb = 25 (MiB) */
    v[CR_OPP_VOCAB] = 32768;
    v[CR_OPP_NORM] = 0;
    v[CR_OPP_SPLIT] = 0; /* zigzag: what ring attention's implementations use */
    v[CR_OPP_NX] = 1024;
    v[CR_OPP_NY] = 1024;
    v[CR_OPP_CHANNELS] = 64;
    v[CR_OPP_HALO] = 1;
    v[CR_OPP_PX] = 0; /* 0 = all ranks along x (a ring of neighbours) */
    v[CR_OPP_TP] = 1;
    v[CR_OPP_CP] = 1;
    v[CR_OPP_EP] = 1;
    v[CR_OPP_DP] = 1;
    v[CR_OPP_PP] = 1;
    v[CR_OPP_GROUP] = op && op->dim >= 0 ? op->dim - CR_OPP_TP : 0;
    /* The communicating group defaults to 8 ranks (PKB's 8 x H100). */
    if (op && op->dim >= 0)
        v[op->dim] = 8;
    for (int i = 0; i < 5; i++)
        p->order[i] = CR_OPP_TP + i;
}

/* The ranges a parameter's value lies in: cr_op_param_set refuses text
 * outside them, cr_op_params_check (check_value) a value a caller stored. */
#define COUNT_END 9007199254740992.0 /* 2^53: every whole number below has a double of its own */
#define REAL_MAX 1e15
#define BYTES_MAX 1e15 /* 1 PB */

/* The least count parameter k takes: px, reads and writes may be 0 (the
 * whole group along x; a fill reads nothing, a reduction writes nothing;
 * reads + writes >= 1 is checked with the shape). */
static double count_min(cr_opp k)
{
    return k == CR_OPP_PX || k == CR_OPP_READS || k == CR_OPP_WRITES ? 0 : 1;
}

/* Counts: an integer with an optional binary suffix k, M, G (128k =
 * 131072), or for params, where decimal is what people write, a decimal
 * one (70G = 7e10, "65.2G" = 65.2e9); either way a whole number, named
 * with its least, lo, when out of range. */
static cr_status parse_count(const char *name, const char *text, bool decimal, double lo,
                             double *out, cr_diag *d)
{
    if (!cr_plain_number(text))
        goto bad;
    errno = 0;
    char *end = NULL;
    double x = cr_strtod_c(text, &end);
    if (end == text || errno == ERANGE || !isfinite(x))
        goto bad;
    double mul = 1;
    if (*end == 'k' || *end == 'K')
        mul = decimal ? 1e3 : 1024.0, end++;
    else if (*end == 'M')
        mul = decimal ? 1e6 : 1048576.0, end++;
    else if (*end == 'G')
        mul = decimal ? 1e9 : 1073741824.0, end++;
    else if (*end == 'T' && decimal)
        mul = 1e12, end++;
    if (*end != '\0')
        goto bad;
    x *= mul;
    /* below 2^53, where every whole number has a double of its own: a
     * larger one was rounded silently (9007199254740993 read as ...992)
     * and written back to --json as another problem */
    if (x < 0 || x >= COUNT_END)
        return cr_diag_set(
            d, CR_ERANGE,
            "%s = \"%s\" is out of range (%.0f to 9007199254740991, 2^53 - 1: a count "
            "beyond reads back as another)",
            name, text, lo);
    /* a decimal count too must come out whole: 1.5 parameters is no count */
    if (x != floor(x))
        return cr_diag_set(d, CR_EPARSE, "%s = \"%s\" is not a whole number", name, text);
    *out = x;
    return CR_OK;
bad:
    return cr_diag_set(d, CR_EPARSE, "%s = \"%s\" is not a count (e.g. 4096, 128k = 131072%s)",
                       name, text, decimal ? ", 70G = 7e10" : "");
}

static int enum_index(const char *const *names, const char *text)
{
    for (int i = 0; names[i]; i++)
        if (strcasecmp(names[i], text) == 0)
            return i;
    return -1;
}

static void join(const char *const *names, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; names[i] && len < size; i++) {
        int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

bool cr_op_has_order(const cr_op_def *op)
{
    return op && op->dim >= 0;
}

char *cr_op_order_format(const cr_op_params *p, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < 5 && len < size; i++) {
        int k = p->order[i] - CR_OPP_TP;
        int w = snprintf(buf + len, size - len, "%s%s", i ? "," : "",
                         k >= 0 && k < 5 ? dim_names[k] : "?");
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

static cr_status parse_order(cr_op_params *p, const char *text, cr_diag *d)
{
    int order[5], n = 0;
    bool seen[5] = {false};
    const char *s = text;
    if (!*s) /* as every parameter: an empty value names nothing */
        return cr_diag_set(d, CR_EPARSE,
                           "order = \"\": give tp, cp, ep, dp, pp inner to outer, separated by "
                           "commas (e.g. tp,cp,ep,dp,pp)");
    while (*s) {
        size_t len = strcspn(s, ",");
        int idx = -1;
        for (int i = 0; i < 5; i++)
            /* in any case, as the group= names are (TP was refused) */
            if (strlen(dim_names[i]) == len && strncasecmp(s, dim_names[i], len) == 0)
                idx = i;
        if (idx < 0 || seen[idx] || n >= 5)
            return cr_diag_set(d, CR_EPARSE,
                               "order = \"%s\": give each of tp, cp, ep, dp, pp at most once, "
                               "inner to outer, separated by commas (e.g. tp,cp,ep,dp,pp)",
                               text);
        seen[idx] = true;
        order[n++] = CR_OPP_TP + idx;
        s += len;
        if (*s == ',')
            s++;
    }
    for (int i = 0; i < 5; i++) /* unnamed dimensions follow, outermost */
        if (!seen[i])
            order[n++] = CR_OPP_TP + i;
    memcpy(p->order, order, sizeof order);
    return CR_OK;
}

static void list_params(const cr_op_def *op, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; op->params[i] != CR_OPP__COUNT && len < size; i++) {
        int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", pinfo[op->params[i]].name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    if (op->dim >= 0 && len < size)
        (void)snprintf(buf + len, size - len, ", order");
}

cr_status cr_op_param_set(const cr_op_def *op, cr_op_params *p, const char *name, const char *text,
                          cr_diag *d)
{
    char list[512];
    if (!name || !text)
        return cr_diag_set(d, CR_EINVAL, "%s: a parameter needs a name and a value",
                           name ? name : "(no name)");
    if (strcmp(name, "order") == 0 && cr_op_has_order(op))
        return parse_order(p, text, d);
    int k = cr_opp_parse(name);
    if (k < 0 || !cr_op_uses(op, (cr_opp)k)) {
        list_params(op, list, sizeof list);
        return cr_diag_set(d, CR_ENOTFOUND, "operator %s has no parameter \"%s\" (it takes: %s)",
                           op->name, name, list);
    }
    double x = 0;
    cr_status st = CR_OK;
    cr_diag sub = {{0}};
    switch (pinfo[k].kind) {
    case PK_COUNT:
        st = parse_count(name, text, k == CR_OPP_PARAMS, count_min((cr_opp)k), &x, d);
        if (st == CR_OK && x < count_min((cr_opp)k))
            st = cr_diag_set(d, CR_ERANGE, "%s = \"%s\" must be at least 1", name, text);
        break;
    case PK_REAL: {
        errno = 0;
        char *end = NULL;
        x = cr_strtod_c(text, &end);
        if (end == text || *end != '\0' || errno == ERANGE || !isfinite(x) ||
            !cr_plain_number(text))
            st = cr_diag_set(d, CR_EPARSE, "%s = \"%s\" is not a finite decimal number (e.g. 1.25)",
                             name, text);
        else if (x < 0 || x > REAL_MAX)
            st = cr_diag_set(d, CR_ERANGE, "%s = \"%s\" is out of range: give 0 to 1e15%s", name,
                             text,
                             k == CR_OPP_SKEW ? " (skew: 1, balanced, to the group size)" : "");
        break;
    }
    case PK_BYTES: {
        /* an nccl-tests size (-b 8, 128M, 64m: cr_units_nccl_size, as coll's
         * -b reads it; "64m" was refused here as a unit where coll -b 64m
         * read 64 MiB), else a quantity with its unit (64MiB, 25MB) */
        if (cr_units_nccl_size(text, &x))
            st = CR_OK;
        else if ((st = cr_units_parse(text, CR_UNIT_BYTES, &x, &sub)) != CR_OK)
            st = cr_diag_set(d, st, "%s = \"%s\": %s", name, text, sub.msg);
        if (st != CR_OK)
            break;
        if (!(x > 0) || x > BYTES_MAX)
            st = cr_diag_set(d, CR_ERANGE, "%s = \"%s\" must be more than 0 and at most 1PB", name,
                             text);
        /* as a bare count: a byte size with a unit comes out whole too
         * (0.5B and 1000.7B were taken, QA audit session 42) */
        else if (x != floor(x))
            st = cr_diag_set(d, CR_EPARSE,
                             "%s = \"%s\" is %.10g bytes: give a whole number of bytes", name, text,
                             x);
        break;
    }
    case PK_DTYPE: {
        cr_dtype dt;
        st = cr_dtype_parse(text, &dt, &sub);
        if (st != CR_OK)
            st = cr_diag_set(d, st, "%s: %s", name, sub.msg);
        x = dt;
        break;
    }
    case PK_BOOL:
        if (strcmp(text, "1") == 0 || strcasecmp(text, "yes") == 0 || strcasecmp(text, "true") == 0)
            x = 1;
        else if (strcmp(text, "0") == 0 || strcasecmp(text, "no") == 0 ||
                 strcasecmp(text, "false") == 0)
            x = 0;
        else
            st = cr_diag_set(d, CR_EPARSE, "%s = \"%s\" is not yes or no", name, text);
        break;
    case PK_ENUM:
    case PK_DIM:
        if (k == CR_OPP_COLL) {
            cr_coll c;
            st = cr_coll_parse(text, &c, &sub);
            if (st != CR_OK)
                st = cr_diag_set(d, st, "coll: %s", sub.msg);
            x = c;
        } else {
            int idx = enum_index(pinfo[k].enums, text);
            if (idx < 0) {
                join(pinfo[k].enums, list, sizeof list);
                st = cr_diag_set(d, CR_EPARSE, "%s = \"%s\" is not one of %s", name, text, list);
            }
            x = idx;
        }
        break;
    }
    if (st != CR_OK)
        return st;
    p->v[k] = x;
    p->set[k] = true;
    /* The default 8 ranks follow the communicating group when it moves. */
    if (k == CR_OPP_GROUP && op->dim >= 0) {
        int g = CR_OPP_TP + (int)x;
        for (int i = CR_OPP_TP; i <= CR_OPP_PP; i++)
            if (!p->set[i])
                p->v[i] = i == g ? 8 : 1;
    }
    return CR_OK;
}

/* The choices of an enumerated parameter (PK_ENUM, PK_DIM). */
static int enum_count(cr_opp k)
{
    if (k == CR_OPP_COLL)
        return CR_COLL__COUNT;
    int n = 0;
    while (pinfo[k].enums[n])
        n++;
    return n;
}

char *cr_op_param_format(const cr_op_params *p, cr_opp which, char *buf, size_t size)
{
    if ((unsigned)which >= CR_OPP__COUNT) {
        cr_str_copy(buf, size, "?");
        return buf;
    }
    double x = p->v[which];
    switch (pinfo[which].kind) {
    case PK_DTYPE: {
        const char *name = x >= 0 && x < CR_DT__COUNT ? cr_dtype_name((cr_dtype)(int)x) : NULL;
        cr_str_copy(buf, size, name ? name : "?");
        break;
    }
    case PK_BOOL:
        cr_str_copy(buf, size, x != 0 ? "yes" : "no");
        break;
    case PK_BYTES:
        cr_units_format(x, CR_UNIT_BYTES, buf, size);
        break;
    case PK_ENUM:
    case PK_DIM:
        if (!(x >= 0 && x < enum_count(which)))
            cr_str_copy(buf, size, "?"); /* a value stored by hand (cr_op_params_check) */
        else if (which == CR_OPP_COLL)
            cr_str_copy(buf, size, cr_coll_name((cr_coll)(int)x));
        else
            cr_str_copy(buf, size, pinfo[which].enums[(int)x]);
        break;
    case PK_REAL:
        cr_snprintf_c(buf, size, "%g", x);
        break;
    case PK_COUNT:
        cr_snprintf_c(buf, size, "%.0f", x);
        break;
    }
    return buf;
}

double ops_layout_gpus(const cr_op_params *p)
{
    return p->v[CR_OPP_TP] * p->v[CR_OPP_CP] * p->v[CR_OPP_EP] * p->v[CR_OPP_DP] * p->v[CR_OPP_PP];
}

int ops_group_ranks(const cr_op_params *p, int dim, int *ranks)
{
    double stride = 1;
    for (int i = 0; i < 5 && p->order[i] != dim; i++)
        stride *= p->v[p->order[i]];
    int n = (int)p->v[dim];
    for (int i = 0; i < n; i++)
        ranks[i] = (int)(i * stride);
    return (int)stride;
}

/* Whether x is a value cr_op_param_set could have stored for parameter k
 * (the ranges it enforces, as numbers). */
static cr_status check_value(cr_opp k, double x, cr_diag *d)
{
    const char *name = pinfo[k].name;
    switch (pinfo[k].kind) {
    case PK_COUNT: {
        double lo = count_min(k);
        if (!(x >= lo && x < COUNT_END) || x != floor(x))
            return cr_diag_set(d, CR_ERANGE, "%s = %g is not a whole count from %.0f to 2^53 - 1",
                               name, x, lo);
        break;
    }
    case PK_REAL:
        if (!(x >= 0 && x <= REAL_MAX))
            return cr_diag_set(d, CR_ERANGE, "%s = %g is out of range: give 0 to 1e15", name, x);
        break;
    case PK_BYTES:
        if (!(x > 0 && x <= BYTES_MAX) || x != floor(x))
            return cr_diag_set(d, CR_ERANGE,
                               "%s = %g is not a whole number of bytes, more than 0 and at most "
                               "1PB",
                               name, x);
        break;
    case PK_DTYPE:
        if (!(x >= 0 && x < CR_DT__COUNT) || x != floor(x))
            return cr_diag_set(d, CR_EINVAL, "%s %g is not an element type (a cr_dtype, 0 to %d)",
                               name, x, CR_DT__COUNT - 1);
        break;
    case PK_BOOL:
        if (x != 0 && x != 1)
            return cr_diag_set(d, CR_EINVAL, "%s = %g: give 1 (yes) or 0 (no)", name, x);
        break;
    case PK_ENUM:
    case PK_DIM: {
        int n = enum_count(k);
        if (!(x >= 0 && x < n) || x != floor(x))
            return cr_diag_set(d, CR_EINVAL, "%s = %g is not one of its %d choices (0 to %d)", name,
                               x, n, n - 1);
        break;
    }
    }
    return CR_OK;
}

/* Every count must be positive and every group size must divide what it
 * shards; each shape function checks its own divisibility. */
cr_status cr_op_params_check(const cr_op_def *op, const cr_op_params *p, const cr_topo *t,
                             cr_diag *d)
{
    /* the element type indexes the GPU's peak table: one the library
     * knows, whatever a caller stored (QA audit of 2026-12-06: 99 was
     * read past the table) */
    double dt = p->v[CR_OPP_DTYPE];
    if (!(dt >= 0 && dt < CR_DT__COUNT) || dt != floor(dt))
        return cr_diag_set(d, CR_EINVAL, "dtype %g is not an element type (a cr_dtype, 0 to %d)",
                           dt, CR_DT__COUNT - 1);
    /* a collective moves stored elements: tf32 is fp32 in memory, packed
     * fp4 moves as int8 bytes, as `commroof coll` says (op coll priced
     * tf32 as fp32 without a word: QA audit of op, session 45) */
    if (strcmp(op->name, "coll") == 0) {
        cr_status st = cr_dtype_check_nccl((cr_dtype)dt, d);
        if (st != CR_OK)
            return st;
    }
    /* Every other value a caller may have stored in p->v[] directly holds
     * what cr_op_param_set would have taken: enumerations index tables
     * (kind 99, group 99 and norm 99 were read past them, QA audit of the
     * API), and a NaN, negative or fractional size gave a bound of 0 or a
     * negative one. */
    for (int i = 0; op->params[i] != CR_OPP__COUNT; i++) {
        cr_status st = check_value(op->params[i], p->v[op->params[i]], d);
        if (st != CR_OK)
            return st;
    }
    if (op->dim >= 0) {
        bool seen[5] = {false};
        for (int i = 0; i < 5; i++) {
            int o = p->order[i] - CR_OPP_TP;
            if (o < 0 || o >= 5 || seen[o])
                return cr_diag_set(d, CR_EINVAL,
                                   "order: entry %d is %d; give each of CR_OPP_TP .. CR_OPP_PP "
                                   "once (cr_op_params_defaults, or cr_op_param_set \"order\")",
                                   i, p->order[i]);
            seen[o] = true;
        }
    }
    if (op->dim >= 0) {
        for (int i = CR_OPP_TP; i <= CR_OPP_PP; i++)
            if (p->v[i] < 1 || p->v[i] > 1048576)
                return cr_diag_set(d, CR_ERANGE, "%s = %.0f: a group size is 1 to 1048576",
                                   pinfo[i].name, p->v[i]);
        double need = ops_layout_gpus(p);
        if (need > 1048576)
            return cr_diag_set(d, CR_ERANGE, "the layout needs %.0f GPUs (tp x cp x ep x dp x pp)",
                               need);
        if (t && need > t->n_gpus)
            return cr_diag_set(d, CR_EINVAL,
                               "the layout needs %.0f GPUs (tp x cp x ep x dp x pp) but topology "
                               "%s has %d: give smaller group sizes or a topology with at least "
                               "%.0f GPUs",
                               need, t->name, t->n_gpus, need);
    }
    ops_work w;
    memset(&w, 0, sizeof w);
    return op->shape(p, &w, d);
}
