/* SPDX-License-Identifier: MIT */
/*
 * Measurements for the charts (internal to plots/): commroof traces and
 * nccl-tests logs read through validate/, each matched to its model case,
 * and harness results in `commroof check --measured-json` form.
 */
#ifndef CR_PLOTS_MEASURED_PRIV_H
#define CR_PLOTS_MEASURED_PRIV_H

#include "plots/sources.h"
#include "validate/validate.h"

typedef struct {
    cr_vmeas_list list;
    cr_vresult *res; /* res[i] is the model's view of list.v[i] */
    int n_files;     /* trace files and logs read */
    int n_skipped;   /* ranges the validator could not use */
} cr_plot_meas;

/* Reads every trace (a folder: its *.json, in name order) and log of s and
 * evaluates each case on t. Errors: CR_EUNSUPPORTED when s names none (d:
 * "no traces or nccl-tests logs given"), CR_EIO (a path that does not
 * exist, a folder without traces), and those of the validator. Cases are
 * evaluated on s->meas_topo when set, else on t. Release m
 * with cr_plot_meas_release (also after a failure). */
cr_status cr_plot_meas_load(const cr_topo *t, const cr_plot_sources *s, cr_plot_meas *m,
                            cr_diag *d);

void cr_plot_meas_release(cr_plot_meas *m);

/* Measured times by problem name from a `commroof check --measured-json`
 * file (a JSON array, or {"results": [...]}, of objects with "name" and
 * "measured_us"). *names and *us are parallel arrays of *n entries; names
 * are owned (free each and the arrays). Errors: CR_EIO, CR_EPARSE (with the
 * entry's index and what is wrong), CR_ENOMEM. */
cr_status cr_plot_read_measured_json(const char *path, char ***names, double **us, int *n,
                                     cr_diag *d);

#endif
