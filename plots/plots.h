/* SPDX-License-Identifier: MIT */
/*
 * The chart kinds of `commroof plot` and `commroof report`, built from model
 * results (see chart.h for rendering):
 *
 *   roofline       FLOP/s against arithmetic intensity (FLOP per HBM byte),
 *                  with the GPU's per-dtype compute ceilings and its HBM
 *                  ceiling (and the measured ceilings where calibrated);
 *   comm-roofline  FLOP/s against FLOP per byte communicated, with NVLink,
 *                  in-switch reduction, PCIe and InfiniBand ceilings;
 *   gap            one group of bars per problem: % of roofline (bound /
 *                  time x 100) of the baseline, the prediction and the
 *                  measured time; the bound is 100%;
 *   sweep          bus bandwidth against message size for one collective:
 *                  bound, NCCL's choice, each mechanism, measured points;
 *   compare        one suite across topologies: bound time or headroom;
 *   accuracy       predicted against measured time, y = x, +/-10% band.
 *
 * Every builder returns a new chart (cr_chart_free) or NULL in *out with
 * the reason in d. Times are in seconds and bandwidths in bytes per second
 * here; the charts show us, GB/s and TFLOP/s.
 */
#ifndef CR_PLOTS_H
#define CR_PLOTS_H

#include <stdbool.h>

#include "chart.h"
#include "coll.h"
#include "rankset.h"
#include "status.h"
#include "topo.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* One operator placed on a roofline. */
typedef struct {
    const char *label; /* shown beside the point ("gemm 8192^3 bf16") */
    double flops;      /* FLOP per GPU */
    double bytes;      /* HBM bytes (roofline) or bytes communicated per GPU */
    double time_s;     /* the time this point stands for */
} cr_roof_point;

/* A named set of points: "measured (traces/h200-1)", "predicted". */
typedef struct {
    const char *name;
    bool measured; /* measured points are drawn as filled markers */
    bool labelled; /* draw each point's label */
    const cr_roof_point *pts;
    int n;
} cr_roof_set;

/* The roofline of GPU rank gpu_rank of t (its model's figures) with the
 * given point sets (nsets may be 0). Errors: CR_EINVAL (rank out of range,
 * a GPU without an HBM bandwidth or any compute peak), CR_ENOMEM. */
cr_status cr_plot_roofline(const cr_topo *t, int gpu_rank, const cr_roof_set *sets, int nsets,
                           cr_chart **out, cr_diag *d);

/* Per-GPU communication ceilings of GPU rank gpu_rank, in bytes per second
 * per direction (0 where the topology has none): NVLink (or XGMI / ICI:
 * the GPU's scale-up ports), the same credited with in-switch reduction
 * (the bus bandwidth of the collective bound of a large allreduce over the
 * GPUs on the reducing switches, coll.h; 0 when no switch on the GPU's
 * ports reduces), PCIe (the GPU's host link) and the network
 * (the GPU's share of its node's NIC ports). n is the number of GPUs that
 * share the scale-up switches with it. */
typedef struct {
    double scaleup_Bps;
    const char *scaleup_kind; /* "NVLink", "XGMI", "ICI" (static) */
    double in_switch_Bps;
    bool in_switch_from_bound; /* in_switch_Bps is the allreduce bound's busbw (else the
                                  simple form, scale-up x 2(n-1)/n) */
    double pcie_Bps;
    double net_Bps;
    const char *net_kind; /* "InfiniBand", "Ethernet" (static) */
    int scaleup_gpus;
    bool one_node; /* net_Bps is 0 because the ranks are all on one node (the
                      topology may have NICs: nothing crosses them) */
} cr_comm_ceilings;

/* Fills c for GPU rank gpu_rank among ranks, the GPUs that communicate
 * (NULL: every GPU of t): in-switch reduction spans those of them on the
 * GPU's reducing switches, and the network counts only where they span
 * more than one node. Errors: CR_EINVAL (rank out of range). */
cr_status cr_plot_comm_ceilings(const cr_topo *t, int gpu_rank, const cr_rankset *ranks,
                                cr_comm_ceilings *c, cr_diag *d);

/* The communication roofline of GPU rank gpu_rank: x = FLOP per byte
 * communicated (bus bytes, as nccl-tests counts them), y = FLOP/s; the
 * compute ceilings of the GPU (BF16 and FP8 where present) and one slanted
 * ceiling per fabric the topology has. A fabric the topology lacks
 * (InfiniBand on a single node) is drawn as a dashed reference line at
 * 400 Gb/s NDR per GPU and says so in its legend. */
cr_status cr_plot_comm_roofline(const cr_topo *t, int gpu_rank, const cr_rankset *ranks,
                                const cr_roof_set *sets, int nsets, cr_chart **out, cr_diag *d);

/* The top of the roofline (comm false) or communication roofline (comm
 * true) of GPU rank gpu_rank: at intensity x (FLOP per HBM byte, or per
 * byte communicated) the highest ceiling drawn there is
 * fmin(*peak_flops, x * *Bps) FLOP/s, the highest compute peak and the
 * fastest bandwidth ceiling. A point above it sits above every line of the
 * chart. The same for every x: the communication ceilings build a
 * collective context (0.1 s on a 65,536-GPU cluster), so a caller asks
 * once per chart, not once per point. Errors: as the chart builders (rank
 * out of range, no compute peak). */
cr_status cr_plot_roof_top(const cr_topo *t, int gpu_rank, const cr_rankset *ranks, bool comm,
                           double *peak_flops, double *Bps, cr_diag *d);

/* Measured series of the gap chart at most (variants of one problem:
 * "baseline", "overlap, 4 chunks", ...). */
#define CR_GAP_MAX_MEASURED 4

/* One problem of a suite for the gap chart. Absent times are 0 or NAN. */
typedef struct {
    const char *name;
    double bound_s;
    double baseline_s;
    double pred_s;
    double measured_s[CR_GAP_MAX_MEASURED]; /* one per measured series */
} cr_gap_row;

/* Gap-to-roofline chart: for each row, bars of % of roofline (bound / time
 * x 100) for the baseline, the prediction and each of the n_measured
 * measured series (measured_names[j] names series j in the legend, e.g.
 * "measured: baseline"), and a line at 100% (the bound). context (e.g.
 * "pkb on hgx-h200-8") and source (where measured times come from; NULL:
 * none) go under the title. The value axis reaches past the tallest bar: a
 * bar over 100% (a time under the bound) stays visible.
 * Errors: CR_EINVAL (no rows, a row without a positive bound, more than
 * CR_GAP_MAX_MEASURED measured series). */
cr_status cr_plot_gap(const char *context, const char *source, const char *const *measured_names,
                      int n_measured, const cr_gap_row *rows, int n, cr_chart **out, cr_diag *d);

/* The same chart of other things than a suite's problems: what names one
 * of them ("operator": the title says "% of roofline per operator", the x
 * axis "operator"). A series no row has a time for (baseline, prediction)
 * is left out of the chart and its legend. cr_plot_gap is
 * cr_plot_gap_of("problem", ...). Errors: as cr_plot_gap. */
cr_status cr_plot_gap_of(const char *what, const char *context, const char *source,
                         const char *const *measured_names, int n_measured, const cr_gap_row *rows,
                         int n, cr_chart **out, cr_diag *d);

/* A measured bus bandwidth for the sweep chart. */
typedef struct {
    double bytes;
    double busbw_Bps;
} cr_sweep_meas;

/* A set of measured points with its name ("nccl-tests log x.txt"). */
typedef struct {
    const char *name;
    const cr_sweep_meas *pts;
    int n;
} cr_sweep_meas_set;

/* Options of the size sweep. Sizes from min_bytes to max_bytes by factor
 * (nccl-tests -b -e -f). */
typedef struct {
    cr_coll coll;
    cr_dtype dtype;
    double min_bytes, max_bytes, factor;
    const cr_rankset *ranks;   /* NULL = every GPU */
    bool others_pass;          /* cr_plot_sweep_from: a log of another collective or
                                  rank count gives no point (the report, whose
                                  logs serve every part), instead of an error (plot
                                  sweep, whose logs are given for this chart) */
    bool past_max_to_measured; /* max_bytes is a default, not asked for: the sweep
                                  goes on by factor to the largest measured size
                                  (a 16 GiB nccl-tests row had no model beside it) */
} cr_sweep_opts;

/* Whether a sweep of coll over nranks GPUs from min_bytes (0 allowed) to
 * max_bytes by factor holds a size that moves a byte as nccl-tests sizes
 * it (whole elements; where the buffer is split over the ranks, a part of
 * 16 B a rank). Errors: CR_EINVAL naming the sizes as given and the least
 * that moves anything (plot sweep's usage error; cr_plot_sweep's own). */
cr_status cr_plot_sweep_sizes_check(cr_coll coll, cr_dtype dtype, int nranks, double min_bytes,
                                    double max_bytes, double factor, cr_diag *d);

/* Bus bandwidth against message size: the bound, NCCL's choice, every
 * transfer mechanism the topology supports, and the measured sets.
 * Errors: those of cr_coll_ctx_new / cr_coll_eval; CR_EINVAL (bad range). */
cr_status cr_plot_sweep(const cr_topo *t, const cr_sweep_opts *o, const cr_sweep_meas_set *meas,
                        int nmeas, cr_chart **out, cr_diag *d);

/* Metric of the comparison chart. */
typedef enum {
    CR_COMPARE_BOUND_US, /* bound time in us (log axis) */
    CR_COMPARE_HEADROOM, /* baseline / bound */
} cr_compare_metric;

/* Grouped bars: categories are problems, one series per topology.
 * values[t * n_problems + p] is topology t's bound time (s) or headroom for
 * problem p (NAN = not applicable). context goes under the title. */
cr_status cr_plot_compare(const char *context, cr_compare_metric metric,
                          const char *const *topo_names, int n_topos,
                          const char *const *problem_names, int n_problems, const double *values,
                          cr_chart **out, cr_diag *d);

/* One validated case for the accuracy chart. */
typedef struct {
    const char *family; /* series: "gemm", "hbm", "copy", "nccl" */
    const char *label;  /* case name (labels are drawn only when few points) */
    double pred_s;
    double measured_s;
} cr_acc_point;

/* Predicted against measured time, log-log, y = x and a +/-10% band, one
 * series per family. Errors: CR_EINVAL (no point with both times > 0). */
cr_status cr_plot_accuracy(const char *context, const cr_acc_point *pts, int n, cr_chart **out,
                           cr_diag *d);

/* The same cases as predicted / measured (linear, from 0) against the
 * measured time (log), with 1 and a 0.9-1.1 band: on a log-log chart
 * spanning many decades the 10% band is a hairline, here it is a fifth of
 * the way to 1. The subtitle gives the median |error|. Errors: as
 * cr_plot_accuracy. */
cr_status cr_plot_accuracy_ratio(const char *context, const cr_acc_point *pts, int n,
                                 cr_chart **out, cr_diag *d);

#pragma GCC visibility pop

#endif
