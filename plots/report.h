/* SPDX-License-Identifier: MIT */
/*
 * `commroof report`: every table (text, CSV, JSON) and chart (PNG, SVG,
 * data file, gnuplot script) for one topology and suite, and an index.html
 * that shows each chart beside the numbers behind it.
 *
 * A part that has no input (no traces given: no accuracy chart) or that the
 * model cannot produce is skipped, named in the result and in index.html
 * with the reason; it is not an error. A measured time below its bound is
 * not an error either: the report is written and r->violations counts them.
 */
#ifndef CR_REPORT_H
#define CR_REPORT_H

#include "plots/sources.h"
#include "status.h"
#include "rankset.h"
#include "topo.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

typedef struct {
    const cr_topo *topo;              /* the machine (borrowed) */
    cr_plot_sources src;              /* suite, traces, nccl-tests logs */
    const char *const *compare_topos; /* topologies for the comparison; */
    int n_compare;                    /*   NULL/0: a built-in set */
    const cr_rankset *sweep_ranks;    /* GPUs of the all-reduce sweep (NULL: every GPU) */
    const char *gnuplot;              /* program; NULL: data and scripts only */
    const char *command;              /* the command line, for the header */
    const char *corpus_dir;           /* a measurement corpus (validate/corpus.h) for the
                                         "Measurement corpus" part; NULL: no such part */
    cr_roofline_opts roofline;        /* the "Program roofline" part of src.traces (on
                                         src.meas_topo, else topo): the rank set and element
                                         type of cr_roofline_read; no part without traces */
    int roofline_top;                 /* operators on its gap chart (<= 0: CR_PLOT_PROGRAM_TOP) */
} cr_report_opts;

typedef struct {
    char **files; /* written, relative to the report folder, in order */
    int n_files;
    char **skipped; /* "accuracy: no traces given" */
    int n_skipped;
    int violations; /* rows below their bound over the parts that show measured times
                       (the measured problems, the validation table, the program
                       roofline): one measured time may be a row of more than one
                       part, and counts in each. index.html says so at its top; the
                       CLI exits 3 as `commroof roofline` and `commroof validate` do */
} cr_report_result;

/* Writes the report into dir (created if missing; files in it are
 * replaced). On success r lists what was written and skipped. Errors:
 * CR_EIO (cannot create dir or write a file; a chart gnuplot cannot
 * render), CR_ENOMEM, and those of the model; d says which part. Release
 * r with cr_report_result_release (also after a failure). */
cr_status cr_report_write(const char *dir, const cr_report_opts *o, cr_report_result *r,
                          cr_diag *d);

/* Frees the lists in r. */
void cr_report_result_release(cr_report_result *r);

#pragma GCC visibility pop

#endif
