/* SPDX-License-Identifier: MIT */
/*
 * roofline: the roofline of any traced program, operator by operator.
 *
 * A commroof trace of an unmodified program holds NVTX ranges on the host
 * and GPU activities (kernels, copies, memsets) on the devices. This module
 * gives each activity to the range that launched it and evaluates each
 * operator against the operator catalog (model/ops.h) or the collectives
 * (model/coll.h); it derives no bound of its own.
 *
 * Ranges it reads:
 *  - PyTorch's torch.autograd.profiler.emit_nvtx(record_shapes=True)
 *    ranges, "aten::mm, seq = 0, op_id = 1, sizes = [[8, 4], [4, 2]],
 *    input_op_ids = [(0,-1), (0,-1)]" (torch/csrc/profiler/util.cpp,
 *    getNvtxStr); each is one call of one operator;
 *  - NCCL's own ranges (domain "NCCL") with their decoded payloads (the
 *    message size, the communicator, its size from ncclCommInitRank);
 *  - "cr:" ranges, as validate reads them (cr_validate_read_path());
 *  - any other range: the activities it owns are "other kernels", listed
 *    by kernel name without a bound.
 *
 * Ownership: an activity belongs to the innermost range of its process
 * that is open when the activity starts (the open range that started
 * last; NCCL's ranges excepted). The trace has no launch records (the
 * tracer records activities, not API calls), so a kernel that starts after
 * the range that launched it has closed (the GPU running behind the host)
 * is given to whatever range is open when it starts: trace with
 * CUDA_LAUNCH_BLOCKING=1 for an exact attribution (each launch then returns
 * after its kernel ends, inside its range); device times are unchanged.
 * NCCL kernels (ncclDevKernel_*, ncclKernel_*) are paired with NCCL's
 * collective ranges of their process by order and collective (NCCL
 * launches them at ncclGroupEnd, after the collective's range closed).
 *
 * The device time of one call is the time the GPU was busy with the call's
 * activities (the union of their intervals: the host's launch gaps between
 * them are not in it); a row's time is the median over its calls. For NCCL
 * calls, the kernel's time, and over the ranks of a one-process-per-GPU
 * run, the last rank's start to the last end (cr_validate_merge_ranks).
 */
#ifndef CR_ROOFLINE_H
#define CR_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "status.h"
#include "topo.h"
#include "validate.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CR_RF_MAX_SHAPES 1024 /* a foreach call lists every tensor of its lists */
#define CR_RF_MAX_DIMS 8

/* A parsed emit_nvtx range name. */
typedef struct {
    char op[64];     /* "aten::mm" */
    long long seq;   /* autograd sequence number, -1 when absent */
    long long op_id; /* -1 when absent */
    bool has_sizes;
    bool truncated; /* the name ends inside its sizes list (the tracer cuts NVTX
                       strings at 256 bytes): shapes[] holds the complete ones */
    int n_shapes;
    int ndim[CR_RF_MAX_SHAPES]; /* 0 for "[]": not a tensor, an undefined one or 0-d */
    int64_t dim[CR_RF_MAX_SHAPES][CR_RF_MAX_DIMS];
    size_t sizes_off, sizes_len; /* the sizes list's text in the name ("[[8, 4], [4, 2]]") */
    /* input_op_ids: one (op_id, output index) pair per input, in the order
     * of sizes: the op that produced the input (the same tensor has the
     * same pair); (0, -1) for a non-tensor or a tensor no recorded op made.
     * n_ids 0: absent, or cut by the 256-byte limit (ids_cut), or more
     * than CR_RF_MAX_SHAPES pairs. */
    int n_ids;
    bool ids_cut;
    long long id_op[CR_RF_MAX_SHAPES];
    int id_out[CR_RF_MAX_SHAPES];
} cr_rf_name;

/* Parses an emit_nvtx range name: an operator name (no ',', 1-63 bytes),
 * then ", key = value" items in any order: seq and op_id (integers), sizes
 * (a list of integer lists, at most CR_RF_MAX_SHAPES of at most
 * CR_RF_MAX_DIMS dimensions, each 0 to 2^53, of at most 2^63 - 1 elements),
 * input_op_ids (a list of "(op,output)" pairs; one cut by the 256-byte
 * limit is dropped, ids_cut). Errors: CR_EPARSE with the reason in d (d
 * may be NULL): another key, a malformed value, too many shapes or
 * dimensions, a tensor of more elements. A name cut inside its
 * sizes is not an error (truncated). */
cr_status cr_rf_parse_name(const char *name, cr_rf_name *out, cr_diag *d);

/* Elements of shape i of n (1 for "[]"), or -1 when out of range. */
double cr_rf_numel(const cr_rf_name *n, int i);

/* The element type a kernel's name shows ("c10::BFloat16", "__nv_bfloat16",
 * cuBLAS's "bf16bf16_bf16f32", "f32f32_f32f32", NCCL's "_f32_", ...), or -1
 * when it shows none. */
int cr_rf_kernel_dtype(const char *kernel);

/* The element size in bytes an otherwise untyped kernel name shows (ATen's
 * OpaqueType<N> of cat and copies, a bool or unsigned char template or
 * lambda argument), or 0 when it shows none. */
int cr_rf_kernel_elem_bytes(const char *kernel);

/* What a row measures. */
typedef enum {
    CR_RF_ATEN,   /* a PyTorch operator (emit_nvtx) */
    CR_RF_NCCL,   /* an NCCL collective */
    CR_RF_CR,     /* a "cr:" range */
    CR_RF_KERNEL, /* other activities, by name */
} cr_rf_kind;

/* "aten", "nccl", "cr", "kernel". */
const char *cr_rf_kind_name(cr_rf_kind k);

/* One row: an operator with one set of arguments. Times in seconds. */
typedef struct {
    cr_rf_kind kind;
    char op[192];       /* "aten::addmm", "ncclAllReduce", "cr:gemm", a kernel's short name
                           (whole: "at::native::(anonymous namespace)::..._kernel"; one
                           longer ends in "...") */
    char args[160];     /* the shapes "[[1024], [8, 512], [512, 1024], [], []]", "1MiB n=2",
                           a cr: case's label */
    char model[128];    /* the catalog case evaluated: "gemm m=8 n=1024 k=512 dtype=bf16" */
    char dtype[8];      /* "" when unknown */
    char dtype_src[12]; /* "kernel", "input" (an operand's producer's kernels), "--dtype",
                           "kernel size", "copy bytes", "range", "default", "" */
    int calls;
    double median_s; /* median device time per call */
    double min_s;    /* the fastest call's device time */
    double total_s;  /* device time of every call */
    bool has_bound;
    double bound_s;       /* warm (the strict limit); where its calls' inputs resolved to
                             other bytes (input_op_ids), the smallest of their bounds,
                             which holds for every call */
    double bound_cold_s;  /* HBM only (likewise the smallest) */
    bool held_cold;       /* its calls are held to bound_cold_s, not bound_s: a crbench
                             case that declares its data cold (cache=cold), as validate
                             and check --cold hold it */
    double bound_total_s; /* its calls' own bounds added up: calls x bound_s (bound_cold_s
                             where held_cold) where they share one, more where some
                             calls' own bound is larger */
    char binding[64];
    double pct_of_roofline; /* bound / median x 100 */
    double save_s;          /* total - bound_total: what the program could save at best,
                               each call down to its own bound; 0 where the calls beat
                               the bound (violation) */
    bool violation;         /* median < bound, or a call < its own bound */
    char verdict[24];       /* cr_verdict_name(), or "" without a bound */
    char note[192];         /* why there is no bound, or how the row was read */
} cr_rf_row;

/* The table. Release with cr_roofline_release(). */
typedef struct {
    cr_rf_row *rows;
    size_t n, cap;
    double total_s;   /* device time of every row */
    double covered_s; /* of rows with a bound */
    double save_s;    /* the rows' positive save_s */
    int violations;
    int cr_unbounded;       /* cr: range rows without a bound (their parameters refused) */
    size_t first_unbounded; /* the first of them in rows (when cr_unbounded > 0) */
    int files;
    int calls_unowned;        /* activities no range owns (listed as kernels) */
    int nccl_unpaired;        /* NCCL kernels or collective ranges left without a partner */
    int nccl_grouped;         /* calls grouped with others of their collective (an all-to-all
                                 of ncclSend/ncclRecv): one kernel, not timed */
    int by_start;             /* traces recorded without CUDA_LAUNCH_BLOCKING=1
                                 (metadata.launch_blocking false) nor their CUDA calls,
                                 whose operator ranges own activities by the activity's
                                 start: a later operator's where the GPU ran behind */
    char by_start_path[256];  /* the first of them */
    int unlinked;             /* activities of traces that recorded their CUDA calls
                                 (COMMROOF_TRACE_RECORD=api) whose own call is not
                                 among them: placed by their start */
    char first_unlinked[400]; /* the first: "KERNEL in PATH" */
    int graph_activities;     /* activities CUDA graphs ran that an operator's range owns
                                 because its thread made their node (the trace's
                                 "cuda_graph_node" events), one call per launch */
    cr_vread_info info;       /* files read, not traces, incomplete, cr: ranges skipped */
    cr_vtrace_gpu *gpus;      /* the GPU models each file's activities ran on, for the caller
                                 to hold to the topology (as cr_validate_trace_gpus) */
    size_t n_gpus, cap_gpus;
    cr_vmerge_info merged; /* NCCL calls and cr: cases combined over ranks */
} cr_roofline;

/* Options. Zero-initialised: none. */
typedef struct {
    const char *ranks; /* GPUs of collectives (rank set), and their count where
                          the trace does not tell it */
    bool has_dtype;    /* dtype for rows whose trace does not show it */
    cr_dtype dtype;
} cr_roofline_opts;

/* Reads the traces paths[0..n) (files or folders, as cr_validate_read_path)
 * and fills out with one row per operator, sorted by total time, longest
 * first. Errors: those of the trace reader (the first file that fails),
 * CR_ENOMEM, cr_rankset_parse's for a bad --ranks (CR_EPARSE, CR_ERANGE),
 * CR_EDUPLICATE for a trace given
 * twice (or a copy of one, as cr_validate_read_path); out is released on
 * error. */
cr_status cr_roofline_read(const cr_topo *t, const char *const *paths, int n,
                           const cr_roofline_opts *o, cr_roofline *out, cr_diag *d);

void cr_roofline_release(cr_roofline *r);

/* The table's totals as one line into buf (n bytes, truncated to fit),
 * each time in the unit that reads best: "device time 24.002 ms; covered
 * by a bound 21.762 ms (90.7%); the program could save at best 11.818 ms"
 * (JSON keeps microseconds). `commroof roofline` and
 * `commroof report --trace` print this line. */
void cr_roofline_totals(const cr_roofline *r, char *buf, size_t n);

/* Whether the table checked nothing, and then why, as one line into buf (n
 * bytes, truncated to fit): "FAILED: no operator row, so nothing was
 * checked: ..." when every kernel ran outside the ranges roofline reads,
 * "FAILED: no operator row got a bound, so nothing was checked; first: OP
 * ARGS: NOTE" when operator rows there are but none got a bound (a --ranks
 * of another size than every collective's, catalog parameters refused).
 * False (buf untouched) when a row got a bound. A table that bounds
 * nothing checks nothing, and says so as validate does, not "OK":
 * `commroof roofline` prints this line (and exits 1), `commroof report
 * --trace` puts it in the program roofline's notes. */
bool cr_roofline_unchecked(const cr_roofline *r, char *buf, size_t n);

/* The rows among the first n with a bound, by the time each could save:
 * most first, ties in the table's order. Their indices into idx (room for
 * n), their count into *count; CR_ENOMEM. The program gap chart's order
 * and the "could save" lines of `commroof roofline`. */
cr_status cr_roofline_by_save(const cr_roofline *r, size_t n, size_t *idx, size_t *count);

#ifdef __cplusplus
}
#endif

#endif
