/* SPDX-License-Identifier: MIT */
/*
 * validate: what the files of validate/ share (validate.c's lists and case
 * keys, trace_walk.c's folder walk, families.c's table of
 * families, calibrate.c's accumulator). Nothing outside validate/ includes
 * this.
 */
#ifndef CR_VALIDATE_PRIV_H
#define CR_VALIDATE_PRIV_H

#include <math.h>
#include <string.h>

#include "coll.h"
#include "stats.h"
#include "traces/reader/trace_file.h"
#include "traces/reader/trace_reader.h"
#include "validate.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* The value of key as a number, or fallback when absent or not one. */
static inline double cr_vnum_or(const cr_vcase *c, const char *key, double fallback)
{
    double x;
    return cr_vcase_num(c, key, &x, NULL) == CR_OK ? x : fallback;
}

/* The value of key (borrowed), or fallback when absent. */
static inline const char *cr_vstr_or(const cr_vcase *c, const char *key, const char *fallback)
{
    const char *v = cr_vcase_get(c, key);
    return v ? v : fallback;
}

/* The last component of path (borrowed from it). */
static inline const char *cr_vbase_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Appends a zeroed measurement (rank and world_size -1) to l and returns
 * it (borrowed: valid until the next push), or NULL when out of memory. */
cr_vmeas *cr_vlist_push(cr_vmeas_list *l);

/* Sets m->label from its case keys ("allreduce n=8 1MiB"), as its family's
 * entry writes it. */
void cr_vmeas_make_label(cr_vmeas *m);

/* The collective request validate evaluates for case m (an nccl, p2p or
 * fused share of coll over n ranks moving bytes, by mechanism mech): its
 * dtype, algorithm and protocol keys, out of place as nccl-tests and
 * crbench time it, one process driving every GPU (rank=-1) or nccl-tests'
 * -g G host loop (gpus_per_thread). calibrate --nccl-tests fits against
 * the same request, so a fitted topology predicts what validate shows. */
cr_coll_req cr_vmeas_coll_req(const cr_vmeas *m, cr_coll coll, double bytes, int n, cr_mech mech);

/* Gives m (an entry of l) n_iter = n iterations, started at start[i] and
 * ended at end[i] (seconds from the trace's ts_base_ns), as
 * cr_validate_merge_ranks() reads them. Errors: CR_ENOMEM (m unchanged). */
cr_status cr_vlist_set_iters(cr_vmeas_list *l, cr_vmeas *m, const double *start, const double *end,
                             int n);

/* Calls fn for the file path, or for every *.json and *.json.gz of the
 * folder path in name order, as cr_validate_read_path() reads them: a
 * folder's file that fn fails on (but for CR_ENOMEM and CR_EDUPLICATE, and
 * a file whose first event reads: a trace damaged further on, which fails
 * the whole) is counted in info->not_traces and left out; a folder where fn succeeds on
 * none is CR_EIO. A file read before (given twice, or inside a folder also
 * given) is CR_EDUPLICATE. */
typedef cr_status (*cr_vtrace_fn)(const char *path, void *ctx, cr_vread_info *info, cr_diag *d);
cr_status cr_vtrace_each(const char *path, cr_vtrace_fn fn, void *ctx, cr_vread_info *info,
                         cr_diag *d);

/* The GPU models trace files ran their activities on (cr_validate_trace_gpus,
 * and the program roofline as it reads its traces: one pass, not two). */
typedef struct {
    int dev[64]; /* distinct device ordinals of one file's activities; more are not kept */
    int n;
} cr_vtrace_devs;

static inline void cr_vtrace_devs_add(cr_vtrace_devs *s, int dev)
{
    int k = 0;
    while (k < s->n && s->dev[k] != dev)
        k++;
    if (k == s->n && s->n < (int)(sizeof s->dev / sizeof s->dev[0]))
        s->dev[s->n++] = dev;
}

/* Appends to *v (*n of them, *cap room) one entry per distinct GPU model
 * the ordinals s name in trace file path's metadata md (those it names).
 * Errors: CR_ENOMEM. */
cr_status cr_vtrace_gpus_add(cr_vtrace_gpu **v, size_t *n, size_t *cap, const char *path,
                             const json_t *md, const cr_vtrace_devs *s, cr_diag *d);

/* What one trace file's reader learnt (ti, after its last event) into info:
 * a file cut short (incomplete) and device activities its writer did not
 * record (unrecorded: kernels, copies, memsets; synchronisations, which no
 * command reads, are not counted). */
cr_status cr_vread_note_trace(cr_vread_info *info, const char *path, const cr_trace_info *ti,
                              cr_diag *d);

/* --- families --------------------------------------------------------------- */

/* How a family's measured time comes from the GPU activities of its range
 * (read_trace.c; validate.h says why each). */
typedef enum {
    CR_VTIME_DEVICE,     /* per iteration, first start to last end over the devices; the median */
    CR_VTIME_LAST_START, /* the same from the last device's start (a collective on several GPUs) */
    CR_VTIME_SPACING,    /* start to start of consecutive iterations, per graph node (launch) */
    CR_VTIME_SPAN,       /* the span of every device's activities / iters (streams interleave) */
} cr_vtiming;

typedef struct cr_vcal_acc cr_vcal_acc;

/* One family of cases (families.c), as nccl-tests has one struct per
 * collective: everything the readers, the model match and calibration do
 * differently for it. */
typedef struct {
    const char *name;   /* the word after "cr:" */
    cr_vtiming measure; /* how its ranges are timed */
    /* m's label into buf[0..n): size is its bytes key as "1GiB" */
    void (*label)(const cr_vcase *c, const char *size, char *buf, size_t n);
    /* cr_validate_eval()'s family part: bound, prediction, impl and note */
    cr_status (*eval)(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *o, cr_vresult *r,
                      cr_diag *d);
    /* adds m (measured_s > 0) to calibration; true when it counts in
     * n_used. NULL: the family gives calibration nothing. */
    bool (*calibrate)(const cr_vmeas *m, cr_vcal_acc *a);
    /* keys of the family that, where given, must be whole numbers (counts,
     * sizes, GPU indices), space-separated; iters, sets and bytes are
     * every family's (cr_vcase_check_whole) */
    const char *whole;
} cr_vfam_def;

/* Checks that every key of c that must be a whole number (its family's
 * `whole` keys, iters, sets, bytes) is one where given: the model takes
 * them as counts, and a fraction was truncated without a word (iters=2.5
 * split the activities into 2). Errors: CR_EPARSE with "key=value: ..."
 * in d. */
cr_status cr_vcase_check_whole(const cr_vcase *c, cr_diag *d);

/* The entry of family f (borrowed, static), NULL when f is out of range. */
const cr_vfam_def *cr_vfam_def_of(cr_vfam f);

/* A bounded sample of finite values (calibration keeps at most
 * CR_VCAL_NSAMP of each kind; traces hold far fewer cases). */
#define CR_VCAL_NSAMP 256
typedef struct {
    double v[CR_VCAL_NSAMP];
    size_t n;
} cr_vsamples;

/* Appends x to s when finite and there is room. */
static inline void cr_vsamples_push(cr_vsamples *s, double x)
{
    if (s->n < CR_VCAL_NSAMP && isfinite(x))
        s->v[s->n++] = x;
}

/* What the families' calibrate entries gather: ceilings (best rates) go
 * straight into c, typical figures into samples whose medians calibrate.c
 * takes. */
struct cr_vcal_acc {
    cr_vcalib *c;
    cr_vsamples launch, sync, kern, graph, event; /* launch kinds; kern: one empty kernel */
    cr_vsamples hbm, rd, wr, cp;                  /* large HBM cases: all, read, write, copy */
    cr_vsamples gemm, gmem;                       /* large bf16 GEMM FLOP/s; GEMV-like HBM rate */
    cr_vsamples d2d, pg[3], pgc[3];               /* copy engine: d2d; pageable [1] h2d [2] d2h */
};

/* cr_coll_eval of rq on rank set rs of t, through the context c keeps
 * for that rank set (built and kept when c has none; c NULL: built and
 * freed here). Errors: cr_coll_ctx_new's and cr_coll_eval's. */
cr_status cr_vcache_eval(cr_validate_cache *c, const cr_topo *t, const cr_rankset *rs,
                         const cr_coll_req *rq, cr_coll_result *res, cr_diag *d);

#pragma GCC visibility pop

#endif
