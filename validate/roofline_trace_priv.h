/* SPDX-License-Identifier: MIT */
/*
 * roofline's view of one trace (roofline.c collects it, roofline_own.c
 * decides which range owns each activity): its activities, ranges, NCCL
 * calls and communicators, CUDA calls, and the windows of the cr: ranges
 * validate reads. Private to validate/.
 */
#ifndef CR_ROOFLINE_TRACE_PRIV_H
#define CR_ROOFLINE_TRACE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "roofline_priv.h"
#include "status.h"

#pragma GCC visibility push(hidden)

typedef struct {
    int64_t proc;
    int dev;
    double ts, end;
    double dur; /* the trace's own duration: ts and end lose digits when the
                   timestamps count from the epoch (a profiler's), dur does not */
    cr_trace_cat cat;
    char *name; /* kernels: the demangled name; copies: "memcpy h2d" */
    double bytes;
    cr_copy_kind kind;
    bool pinned;          /* a copy's host side is pinned */
    int nccl;             /* an NCCL kernel: its collective (index in nccl_colls), else -1 */
    long long corr;       /* CUPTI's correlation id: the CUDA call that made it (a graph's
                             activities: the graph's launch); -1 none */
    long long graph_node; /* its node in the executable CUDA graph that ran it, 0 none */
    bool by_node;         /* owned through that node's making (cr_rf_assign_by_graph) */
} ract;

enum { RG_USER, RG_ATEN, RG_ATEN_UNREAD, RG_CR, RG_CROP };

typedef struct {
    int64_t proc;
    int64_t tid; /* the thread that opened it */
    double ts, end;
    char *name;
    int kind;
    /* what it owns */
    int n_acts;
    double busy_s, last_end, first_ts;
    int dtype;       /* from its kernels, -1 none */
    int in_dtype;    /* a matrix product's, from its operands' producers (input_dtype), -1 none */
    cr_rf_owned own; /* its kernels and copies */
    long long op_id; /* an emit_nvtx range's op_id, else -1 */
    bool name_lent;  /* name belongs to a call now (add_call) */
    bool replay;     /* a copy of a range for a later launch of a CUDA graph
                        (cr_rf_assign_by_graph): after the sorted ranges, not
                        the operator that input_op_ids name */
} rrange;

enum { RN_GROUP_START = -10, RN_GROUP_END = -11 };

typedef struct {
    int64_t proc;
    double ts;
    int coll;     /* index in nccl_colls, or RN_GROUP_* */
    int group;    /* the ncclGroupStart/End group it is in, 0 none */
    int in_group; /* calls of its collective in that group */
    double size;  /* payload message size */
    char comm[32];
} rnccl;

typedef struct {
    char comm[32];
    int n;
    int dev, rank; /* the payload's CUDA device and rank in it, -1 unknown */
} rcomm;

/* A CUDA call that put work on a device (a "cuda_api" event). */
typedef struct {
    int64_t proc, tid;
    double ts;
    long long corr;
} rapi;

/* A CUDA graph node's making (a "cuda_graph_node" event): "created" by
 * the thread tid at ts (original 0), or "cloned" from original (the
 * executable graph's copy of the node the program made). */
typedef struct {
    int64_t proc, tid;
    double ts;
    long long node, original;
} rgnode;

/* A stretch of one process's time. */
typedef struct {
    int64_t proc;
    double ts, end;
} rspan;

typedef struct {
    ract *a;
    size_t na, ca;
    rrange *rg;
    size_t nr, cr;
    rnccl *nc;
    size_t nn, cn;
    rcomm *cm;
    size_t ncm, ccm;
    rspan *crw; /* the windows of the "cr:" ranges validate reads (cr_windows) */
    size_t ncrw;
    rapi *api; /* the CUDA calls recorded (COMMROOF_TRACE_RECORD=api) */
    size_t napi, capi;
    rgnode *gn; /* CUDA graph nodes made and cloned (COMMROOF_TRACE_RECORD=graph) */
    size_t ngn, cgn;
} rtrace;

/* Sorts t's activities by process and start, its ranges by process and
 * start, the outer first: the order the rules below take. */
void cr_rf_sort(rtrace *t);

/* Gives each activity (but NCCL's kernels) to the innermost range of its
 * process open at its start: owner[i] the range's index, -1 none. t->a and
 * t->rg sorted by process and start (the ranges outer first). Errors:
 * CR_ENOMEM. */
cr_status cr_rf_assign_by_start(rtrace *t, int *owner, cr_diag *d);

/* Where t has CUDA calls (COMMROOF_TRACE_RECORD=api): each activity (but
 * NCCL's kernels) whose call is among them to the innermost range open on
 * the call's thread when it began, in owner; by_call[i] (t->na entries)
 * says which were, *linked counts them (0 where t has none). Sorts t->api.
 * Errors: CR_ENOMEM. */
cr_status cr_rf_assign_by_launch(rtrace *t, int *owner, bool *by_call, size_t *linked, cr_diag *d);

/* Where t has CUDA graph nodes: each activity a graph ran (but NCCL's
 * kernels) whose node was made inside a range to the innermost range open
 * on the thread that made it (the node the program made, through the
 * executable graph's clone of it), in owner; by_call[i] set for those,
 * and a->by_node. Then each range that so owns the activities of
 * several launches of a graph is one call per launch: a copy of the range
 * (appended to t->rg, which is left unsorted) for each launch after its
 * first. Sorts t->gn. Errors: CR_ENOMEM. */
cr_status cr_rf_assign_by_graph(rtrace *t, int *owner, bool *by_call, cr_diag *d);

/* Fills t->crw with the windows of t's cr: ranges that validate reads
 * (t->rg sorted). Errors: CR_ENOMEM. */
cr_status cr_rf_cr_windows(rtrace *t, cr_diag *d);

/* Whether process proc's time ts is inside a window of t->crw. */
bool cr_rf_in_cr_window(const rtrace *t, int64_t proc, double ts);

#pragma GCC visibility pop

#endif
