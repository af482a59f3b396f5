/* SPDX-License-Identifier: MIT */
/*
 * validate: what validate.c shares with the other files of validate/
 * (nccl_log.c). Nothing outside validate/ includes this.
 */
#ifndef CR_VALIDATE_PRIV_H
#define CR_VALIDATE_PRIV_H

#include "coll.h"
#include "traces/reader/trace_reader.h"
#include "validate.h"

/* Appends a zeroed measurement (rank and world_size -1) to l and returns
 * it (borrowed: valid until the next push), or NULL when out of memory. */
cr_vmeas *cr_vlist_push(cr_vmeas_list *l);

/* Sets m->label from its case keys ("allreduce n=8 1MiB"). */
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

/* An open trace file, plain or gzip-compressed (".gz"), for validate/'s
 * readers (validate.c, roofline.c). */
typedef struct {
    cr_trace_reader *r;
    void *gz; /* zlib's gzFile for a .json.gz, else NULL */
    const char *path;
} cr_vtrace;

/* Opens path as validate reads traces. Errors: those of the trace reader;
 * nothing to close then. */
cr_status cr_vtrace_open(cr_vtrace *t, const char *path, cr_diag *d);
/* The status st of the reading loop, with a corrupt or truncated gzip stream
 * turned into CR_EIO and zlib's reason in d. */
cr_status cr_vtrace_end(cr_vtrace *t, cr_status st, cr_diag *d);
/* Closes t (a closed or failed-to-open t is a no-op). */
void cr_vtrace_close(cr_vtrace *t);

/* Calls fn for the file path, or for every *.json and *.json.gz of the
 * folder path in name order, as cr_validate_read_path() reads them: a
 * folder's file that fn fails on (but for CR_ENOMEM) is counted in
 * info->not_traces and left out; a folder where fn succeeds on none is
 * CR_EIO. */
typedef cr_status (*cr_vtrace_fn)(const char *path, void *ctx, cr_vread_info *info, cr_diag *d);
cr_status cr_vtrace_each(const char *path, cr_vtrace_fn fn, void *ctx, cr_vread_info *info,
                         cr_diag *d);

#endif
