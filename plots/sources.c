/* SPDX-License-Identifier: MIT */
/*
 * Gathering the numbers behind each chart (see sources.h).
 */
#include "plots/sources.h"

#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

cr_status cr_plot_roofline_from(const cr_topo *t, int gpu, const cr_plot_sources *s, bool comm,
                                cr_chart **out, cr_diag *d)
{
    (void)s;
    if (comm)
        return cr_plot_comm_roofline(t, gpu, NULL, 0, out, d);
    return cr_plot_roofline(t, gpu, NULL, 0, out, d);
}

cr_status cr_plot_gap_suite(const cr_topo *t, const cr_plot_sources *s, cr_chart **out, cr_diag *d)
{
    (void)t;
    (void)s;
    *out = NULL;
    return cr_diag_set(d, CR_EUNSUPPORTED, "the gap chart needs the suite module (not built yet)");
}

cr_status cr_plot_sweep_from(const cr_topo *t, const cr_sweep_opts *o, const cr_plot_sources *s,
                             cr_chart **out, cr_diag *d)
{
    (void)s;
    return cr_plot_sweep(t, o, NULL, 0, out, d);
}

cr_status cr_plot_compare_suite(const cr_plot_sources *s, const char *const *topos, int n_topos,
                                cr_compare_metric metric, cr_chart **out, cr_diag *d)
{
    (void)s;
    (void)topos;
    (void)n_topos;
    (void)metric;
    *out = NULL;
    return cr_diag_set(d, CR_EUNSUPPORTED,
                       "the compare chart needs the suite module (not built yet)");
}

cr_status cr_plot_accuracy_from(const cr_topo *t, const cr_plot_sources *s, cr_chart **out,
                                cr_diag *d)
{
    (void)t;
    (void)s;
    *out = NULL;
    return cr_diag_set(d, CR_EUNSUPPORTED,
                       "the accuracy chart needs the validate module (not built yet)");
}

static cr_status ceiling_row(cr_table *tb, const char *what, double v, const char *unit,
                             const char *source)
{
    int r = cr_table_row(tb);
    if (r < 0 || cr_table_set_text(tb, r, 0, what) != CR_OK ||
        cr_table_set_num(tb, r, 1, v) != CR_OK || cr_table_set_text(tb, r, 2, unit) != CR_OK ||
        cr_table_set_text(tb, r, 3, source) != CR_OK)
        return CR_ENOMEM;
    return CR_OK;
}

cr_status cr_plot_ceilings_table(const cr_topo *t, int gpu, cr_table **out, cr_diag *d)
{
    *out = NULL;
    cr_comm_ceilings cc;
    cr_status st = cr_plot_comm_ceilings(t, gpu, &cc, d);
    if (st != CR_OK)
        return st;
    const cr_gpu_spec *g = cr_topo_gpu_spec(t, gpu);
    if (!g)
        return cr_diag_set(d, CR_EINVAL, "GPU rank %d has no GPU model", gpu);
    char title[300];
    snprintf(title, sizeof title, "commroof ceilings: GPU %d (%s) of %s", gpu, g->name, t->name);
    cr_table *tb = cr_table_new(title);
    if (!tb || cr_table_col(tb, "ceiling", "", true, 0) < 0 ||
        cr_table_col(tb, "value", "", false, 5) < 0 || cr_table_col(tb, "unit", "", true, 0) < 0 ||
        cr_table_col(tb, "source", "", true, 0) < 0)
        goto oom;
    const char *src = g->source ? g->source : "topology";
    for (int dt = 0; dt < CR_DT__COUNT; dt++) {
        char what[64];
        if (g->peak_flops[dt] > 0) {
            snprintf(what, sizeof what, "%s_peak", cr_dtype_name((cr_dtype)dt));
            if (ceiling_row(tb, what, g->peak_flops[dt] / 1e12, "TFLOP/s", src) != CR_OK)
                goto oom;
        }
        if (g->meas_flops[dt] > 0) {
            snprintf(what, sizeof what, "%s_measured", cr_dtype_name((cr_dtype)dt));
            if (ceiling_row(tb, what, g->meas_flops[dt] / 1e12, "TFLOP/s", "calibrated") != CR_OK)
                goto oom;
        }
    }
    if (ceiling_row(tb, "hbm", g->hbm_Bps / 1e9, "GB/s", src) != CR_OK ||
        (g->meas_hbm_Bps > 0 &&
         ceiling_row(tb, "hbm_measured", g->meas_hbm_Bps / 1e9, "GB/s", "calibrated") != CR_OK))
        goto oom;
    char what[64];
    snprintf(what, sizeof what, "%s_per_gpu", cc.scaleup_kind);
    if ((cc.scaleup_Bps > 0 &&
         ceiling_row(tb, what, cc.scaleup_Bps / 1e9, "GB/s", "links of the GPU") != CR_OK) ||
        (cc.in_switch_Bps > 0 &&
         ceiling_row(tb, "in_switch_reduction_busbw", cc.in_switch_Bps / 1e9, "GB/s",
                     "scale-up x 2(n-1)/n, n = GPUs on the reducing switches") != CR_OK) ||
        (cc.pcie_Bps > 0 &&
         ceiling_row(tb, "pcie_per_gpu", cc.pcie_Bps / 1e9, "GB/s", "links of the GPU") != CR_OK) ||
        (cc.net_Bps > 0 &&
         ceiling_row(tb, cc.net_kind[0] == 'E' ? "ethernet_per_gpu" : "infiniband_per_gpu",
                     cc.net_Bps / 1e9, "GB/s", "node NIC ports / GPUs in the node") != CR_OK))
        goto oom;
    *out = tb;
    return CR_OK;
oom:
    cr_table_free(tb);
    return cr_diag_set(d, CR_ENOMEM, "out of memory");
}

cr_status cr_plot_suite_table(const cr_topo *t, const cr_plot_sources *s, cr_table **out,
                              cr_diag *d)
{
    (void)t;
    (void)s;
    *out = NULL;
    return cr_diag_set(d, CR_EUNSUPPORTED, "the suite module is not built yet");
}

cr_status cr_plot_validation_table(const cr_topo *t, const cr_plot_sources *s, cr_table **out,
                                   cr_diag *d)
{
    (void)t;
    *out = NULL;
    if (s->n_traces == 0 && s->n_nccl_logs == 0)
        return cr_diag_set(d, CR_EUNSUPPORTED, "no traces or nccl-tests logs given");
    return cr_diag_set(d, CR_EUNSUPPORTED, "the validate module is not built yet");
}
