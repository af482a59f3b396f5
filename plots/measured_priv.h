/* SPDX-License-Identifier: MIT */
/*
 * Measurements for the charts (internal to plots/): commroof traces and
 * nccl-tests logs read through validate/, each matched to its model case,
 * and harness results in `commroof check --measured-json` form.
 */
#ifndef CR_PLOTS_MEASURED_PRIV_H
#define CR_PLOTS_MEASURED_PRIV_H

#include "plots/sources.h"
#include "suite.h"
#include "validate/validate.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

typedef struct cr_plot_meas {
    cr_vmeas_list list;
    cr_vresult *res;          /* res[i] is the model's view of list.v[i] */
    int n_files;              /* trace files and logs read */
    int n_skipped;            /* ranges the validator could not use */
    int n_not_traces;         /* files of a folder that are not traces (left out) */
    const cr_topo *eval_topo; /* the topology the cases were evaluated on */
    bool borrowed;            /* list and res belong to s->loaded */
} cr_plot_meas;

/* Reads every trace (a folder: its traces, as cr_validate_read_path() gathers
 * them) and log of s and
 * evaluates each case on t. Errors: CR_EUNSUPPORTED when s names none (d:
 * "no traces or nccl-tests logs given"), CR_EIO (a path that does not
 * exist, a folder without traces), and those of the validator. Cases are
 * evaluated on s->meas_topo when set, else on t. When s->loaded holds
 * them already, evaluated on the same topology, m borrows its lists
 * instead of reading the files again. Release m with cr_plot_meas_release
 * (also after a failure). */
cr_status cr_plot_meas_load(const cr_topo *t, const cr_plot_sources *s, cr_plot_meas *m,
                            cr_diag *d);

void cr_plot_meas_release(cr_plot_meas *m);

/* One measured time of a suite problem. */
typedef struct {
    int problem;      /* index into the suite's problems */
    char variant[64]; /* what was measured ("baseline", "overlap, 4 chunks"); "" unnamed */
    double measured_s;
    bool from_trace;  /* a trace case (else a harness result) */
    char source[160]; /* the results file, or the trace case's file */
} cr_plot_mprob;

/* Where measured times of suite problems come from, for captions. */
typedef struct {
    int n_json;  /* harness results used */
    int n_trace; /* trace cases used */
    int n_dup;   /* trace cases left out: the harness results give the same
                    problem and variant */
} cr_plot_mprob_count;

/* The measured times of suite's problems:
 *  - harness results in s->measured_json (`commroof check --measured-json`
 *    form: a JSON array, or {"results": [...]}, of objects with "name" and
 *    "measured_us", optionally "op" and "params" as check reads them and
 *    "variant" and "chunks"). An entry matches the problem of the same
 *    name, else the problem with the same operator and parameters; one
 *    that matches none is an error (a renamed problem, the wrong suite),
 *    as is one whose "topo" names another topology than t, the machine
 *    the suite's rows are evaluated on (check judges such an entry on its
 *    own topology: the chart would show another bound);
 *  - cases of m (NULL: none) that carry problem=NAME, or an operator
 *    (op=) whose parameters, with ranks= as the operator's group size,
 *    equal a problem's (the fused cases of traces/nvidia-h200-x2). Other
 *    cases are not suite problems and are left alone; a case whose problem
 *    and variant a harness result already gives is counted in n_dup.
 * *out holds *n entries (free()). Errors: CR_EIO, CR_EPARSE (with the
 * entry's index and what is wrong), CR_EINVAL (no problem matches),
 * CR_ENOMEM. */
cr_status cr_plot_match_measured(const cr_topo *t, const cr_suite *suite, const cr_plot_sources *s,
                                 const cr_plot_meas *m, cr_plot_mprob **out, int *n,
                                 cr_plot_mprob_count *count, cr_diag *d);

#pragma GCC visibility pop

#endif
