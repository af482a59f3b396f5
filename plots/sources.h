/* SPDX-License-Identifier: MIT */
/*
 * Where the charts' numbers come from: the model (topology, collectives,
 * suites) and measurements (commroof traces through validate/, nccl-tests
 * logs). Each function gathers the numbers for one chart kind and builds it
 * with plots.h; `commroof plot` and `commroof report` call them.
 */
#ifndef CR_PLOTS_SOURCES_H
#define CR_PLOTS_SOURCES_H

#include <stdbool.h>

#include "plots/chart.h"
#include "plots/plots.h"
#include "plots/table.h"
#include "status.h"
#include "topo.h"
#include "validate/corpus.h"
#include "validate/roofline.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

struct cr_plot_meas;

/* Inputs shared by the chart kinds. Every field may be empty. */
typedef struct {
    const char *suite;         /* suite name or file (NULL: none) */
    const char *const *traces; /* commroof trace files or folders of them */
    int n_traces;
    const char *const *nccl_logs; /* nccl-tests output logs */
    int n_nccl_logs;
    const cr_topo *meas_topo;          /* the machine the traces and logs were measured on, their
                                          cases are evaluated there (NULL: the chart's topology) */
    const char *measured_json;         /* harness results, `commroof check --measured-json` form:
                                          measured times of suite problems by name */
    const struct cr_plot_meas *loaded; /* the traces and logs read and evaluated once for
                                          several charts (NULL: each chart reads them) */
    const cr_rankset *ranks;           /* the GPUs that communicate, for the communication
                                          roofline's ceilings (NULL: every GPU) */
} cr_plot_sources;

/* Roofline (comm = false) or communication roofline (comm = true) of GPU
 * rank gpu of t, with the suite's problems (bound, baseline, prediction) and
 * the traces' measured cases as labelled points. Errors: those of the
 * builders, the suite loader and the trace reader, with the reason in d. */
cr_status cr_plot_roofline_from(const cr_topo *t, int gpu, const cr_plot_sources *s, bool comm,
                                cr_chart **out, cr_diag *d);

/* Gap-to-roofline chart of s->suite on t; measured bars where the traces
 * hold a case of the same problem. */
cr_status cr_plot_gap_suite(const cr_topo *t, const cr_plot_sources *s, cr_chart **out, cr_diag *d);

/* Size sweep of one collective on t, with measured points from the traces'
 * NCCL records and the nccl-tests logs for the same collective. */
cr_status cr_plot_sweep_from(const cr_topo *t, const cr_sweep_opts *o, const cr_plot_sources *s,
                             cr_chart **out, cr_diag *d);

/* s->suite on each named topology (opened with cr_topo_open). */
cr_status cr_plot_compare_suite(const cr_plot_sources *s, const char *const *topos, int n_topos,
                                cr_compare_metric metric, cr_chart **out, cr_diag *d);

/* Prediction accuracy of the cases the traces and logs hold, on t:
 * predicted against measured (ratio false) or predicted / measured
 * against measured (ratio true, cr_plot_accuracy_ratio). */
cr_status cr_plot_accuracy_from(const cr_topo *t, const cr_plot_sources *s, bool ratio,
                                cr_chart **out, cr_diag *d);

/* The machine's ceilings for GPU rank gpu: compute peaks per dtype, HBM,
 * and the per-GPU communication ceilings among ranks (cr_plot_comm_ceilings;
 * NULL: every GPU), measured ceilings where the topology carries them.
 * *out: cr_table_free. */
cr_status cr_plot_ceilings_table(const cr_topo *t, int gpu, const cr_rankset *ranks, cr_table **out,
                                 cr_diag *d);

/* One row per problem of s->suite on t: bound, baseline, prediction,
 * headroom, binding resource. CR_EUNSUPPORTED when no suite is named. */
cr_status cr_plot_suite_table(const cr_topo *t, const cr_plot_sources *s, cr_table **out,
                              cr_diag *d);

/* One row per measured time of a problem of s->suite (harness results and
 * trace cases, matched as for the gap chart): problem, variant, measured,
 * bound, % of roofline, baseline, prediction, source; *below counts the
 * times under their problem's (warm) bound, which are impossible.
 * CR_EUNSUPPORTED when no suite is named or nothing measured matches. */
cr_status cr_plot_measured_table(const cr_topo *t, const cr_plot_sources *s, cr_table **out,
                                 int *below, cr_diag *d);

/* One row per measured case of the traces and logs: bound, prediction,
 * measured, % of roofline, error. CR_EUNSUPPORTED when none is given. */
cr_status cr_plot_validation_table(const cr_topo *t, const cr_plot_sources *s, cr_table **out,
                                   cr_diag *d);

/* A measurement corpus's half h (cr_corpus_eval) as one chart, one series
 * per system: predicted against measured time (by_size false,
 * cr_plot_accuracy), or predicted / measured against the message size with
 * 1 and a 0.9-1.1 band, the half's median |error| per size band in the
 * subtitle (by_size true). Errors: CR_EUNSUPPORTED (no row of the half has
 * a prediction), CR_EINVAL (no such half), CR_ENOMEM. (corpus_charts.c) */
cr_status cr_plot_corpus(const cr_corpus *c, cr_corpus_half h, bool by_size, cr_chart **out,
                         cr_diag *d);

/* The corpus's figures (cr_corpus_stats_of) as a table: one row per half
 * and system ("all" first), per size band rows, median and p90 |error| and
 * violations; notes name each log not compared and why. *out:
 * cr_table_free. Errors: CR_EUNSUPPORTED (the split names no log),
 * CR_ENOMEM. */
cr_status cr_plot_corpus_table(const cr_corpus *c, cr_table **out, cr_diag *d);

/* The roofline of a traced program (cr_roofline_read) as a table: one row
 * per row of r with the keys of `commroof roofline --json` (kind, op,
 * args, calls, measured_us, total_us, bound_us, bound_cold_us,
 * pct_of_roofline, save_us, binding, verdict, dtype, dtype_source, model,
 * note), the totals line and the count of times below their bound as
 * notes. topo_name goes in the title. *out: cr_table_free. Errors:
 * CR_EUNSUPPORTED (r has no row), CR_ENOMEM. (program.c) */
cr_status cr_plot_program_table(const cr_roofline *r, const char *topo_name, cr_table **out,
                                cr_diag *d);

/* Operators on the program roofline's gap chart by default. */
#define CR_PLOT_PROGRAM_TOP 12

/* The gap chart (cr_plot_gap_of) of r's rows with a bound, ordered by the
 * time each could save (save_s), most first: the first top (<= 0:
 * CR_PLOT_PROGRAM_TOP) and every row measured below its bound get a
 * category each, the rest one category summed over them (bound and cold
 * bound x calls against total time). Bars: bound / median x 100 (the
 * measured time against the warm bound) and bound / cold bound x 100 (where
 * a kernel streaming every byte from HBM would stand). topo_name and the
 * totals line go under the title, source (the traces) as the measured
 * times' origin. Errors: CR_EUNSUPPORTED (no row has a bound), CR_ENOMEM. */
cr_status cr_plot_program_gap(const cr_roofline *r, const char *topo_name, const char *source,
                              int top, cr_chart **out, cr_diag *d);

#pragma GCC visibility pop

#endif
