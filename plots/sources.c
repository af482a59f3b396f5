/* SPDX-License-Identifier: MIT */
/*
 * Gathering the numbers behind each chart (see sources.h).
 */
#include "plots/sources.h"

#include <stdlib.h>
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
