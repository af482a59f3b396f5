/* SPDX-License-Identifier: MIT */
/*
 * Gathering the numbers behind each chart (see sources.h).
 */
#include "plots/sources.h"

#include "ops.h"
#include "suite.h"
#include "topo_xml.h"

#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The suite's problems evaluated one by one (cr_op_eval: the rooflines need
 * traffic_bytes, which suite rows do not carry). */
typedef struct {
    cr_suite *suite;
    cr_op_result *res;
    bool *ok;
    int n;
} suite_eval;

static void suite_eval_free(suite_eval *e)
{
    cr_suite_free(e->suite);
    free(e->res);
    free(e->ok);
    memset(e, 0, sizeof *e);
}

static cr_status suite_eval_run(const cr_topo *t, const char *name, suite_eval *e, cr_diag *d)
{
    memset(e, 0, sizeof *e);
    cr_status st = cr_suite_open(name, &e->suite, d);
    if (st != CR_OK)
        return st;
    int n = e->suite->n_problems;
    e->res = calloc((size_t)(n ? n : 1), sizeof *e->res);
    e->ok = calloc((size_t)(n ? n : 1), sizeof *e->ok);
    if (!e->res || !e->ok) {
        suite_eval_free(e);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    e->n = n;
    for (int i = 0; i < n; i++) {
        const cr_suite_problem *p = &e->suite->problems[i];
        cr_diag pd = {{0}};
        /* a problem the machine cannot run (too few GPUs) is left out */
        e->ok[i] = cr_op_eval(t, p->op, &p->params, &e->res[i], &pd) == CR_OK;
    }
    return CR_OK;
}

cr_status cr_plot_roofline_from(const cr_topo *t, int gpu, const cr_plot_sources *s, bool comm,
                                cr_chart **out, cr_diag *d)
{
    *out = NULL;
    suite_eval e = {0};
    cr_roof_point *pts = NULL;
    cr_status st = CR_OK;
    int np = 0;
    if (s && s->suite) {
        if ((st = suite_eval_run(t, s->suite, &e, d)) != CR_OK)
            return st;
        pts = calloc((size_t)(3 * e.n + 1), sizeof *pts);
        if (!pts) {
            suite_eval_free(&e);
            return cr_diag_set(d, CR_ENOMEM, "out of memory");
        }
        for (int i = 0; i < e.n; i++) {
            const cr_op_result *r = &e.res[i];
            double bytes = comm ? r->traffic_bytes : r->hbm_bytes;
            if (!e.ok[i] || !(r->flops > 0) || !(bytes > 0))
                continue;
            const char *name = e.suite->problems[i].name;
            pts[np] = (cr_roof_point){name, r->flops, bytes, r->pred_s};
            pts[e.n + np] = (cr_roof_point){name, r->flops, bytes, r->baseline_s};
            pts[2 * e.n + np] = (cr_roof_point){name, r->flops, bytes, r->bound_s};
            np++;
        }
    }
    char names[3][160];
    snprintf(names[0], sizeof names[0], "%s: prediction (best schedule)",
             e.suite ? e.suite->name : "");
    snprintf(names[1], sizeof names[1], "%s: baseline (PyTorch + NCCL)",
             e.suite ? e.suite->name : "");
    snprintf(names[2], sizeof names[2], "%s: bound", e.suite ? e.suite->name : "");
    cr_roof_set sets[3] = {
        {names[2], false, false, pts ? pts + 2 * e.n : NULL, np},
        {names[0], false, true, pts, np},
        {names[1], false, false, pts ? pts + e.n : NULL, np},
    };
    int nsets = np > 0 ? 3 : 0;
    if (comm)
        st = cr_plot_comm_roofline(t, gpu, sets, nsets, out, d);
    else
        st = cr_plot_roofline(t, gpu, sets, nsets, out, d);
    free(pts);
    suite_eval_free(&e);
    return st;
}

/* Suite rows on one topology. */
static cr_status suite_rows(const cr_topo *t, const char *name, cr_suite **suite, cr_op_row **rows,
                            int *n, cr_diag *d)
{
    *suite = NULL;
    *rows = NULL;
    *n = 0;
    cr_status st = cr_suite_open(name, suite, d);
    if (st != CR_OK)
        return st;
    st = cr_op_eval_suite(t, *suite, rows, n, d);
    if (st != CR_OK) {
        cr_suite_free(*suite);
        *suite = NULL;
    }
    return st;
}

cr_status cr_plot_gap_suite(const cr_topo *t, const cr_plot_sources *s, cr_chart **out, cr_diag *d)
{
    *out = NULL;
    if (!s || !s->suite)
        return cr_diag_set(d, CR_EUNSUPPORTED, "no suite given");
    cr_suite *suite = NULL;
    cr_op_row *rows = NULL;
    int n = 0;
    cr_status st = suite_rows(t, s->suite, &suite, &rows, &n, d);
    if (st != CR_OK)
        return st;
    cr_gap_row *g = calloc((size_t)(n ? n : 1), sizeof *g);
    int ng = 0;
    if (!g) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        if (rows[i].status != CR_OK || !(rows[i].bound_us > 0))
            continue;
        g[ng++] = (cr_gap_row){rows[i].name, rows[i].bound_us * 1e-6, rows[i].baseline_us * 1e-6,
                               rows[i].pred_us * 1e-6, NAN};
    }
    if (ng == 0) {
        st = cr_diag_set(d, CR_EINVAL, "suite %s: no problem runs on %s", suite->name, t->name);
        goto out;
    }
    char ctx[300];
    snprintf(ctx, sizeof ctx, "suite %s on %s", suite->name, t->name);
    st = cr_plot_gap(ctx, g, ng, out, d);
out:
    free(g);
    free(rows);
    cr_suite_free(suite);
    return st;
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
    *out = NULL;
    if (!s || !s->suite)
        return cr_diag_set(d, CR_EUNSUPPORTED, "no suite given");
    if (n_topos <= 0)
        return cr_diag_set(d, CR_EINVAL, "compare: no topologies");
    cr_suite *suite = NULL;
    cr_status st = cr_suite_open(s->suite, &suite, d);
    if (st != CR_OK)
        return st;
    int np = suite->n_problems;
    double *vals = malloc((size_t)(n_topos * (np ? np : 1)) * sizeof *vals);
    const char **pnames = calloc((size_t)(np ? np : 1), sizeof *pnames);
    if (!vals || !pnames) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int p = 0; p < np; p++)
        pnames[p] = suite->problems[p].name;
    for (int ti = 0; ti < n_topos; ti++) {
        cr_topo *t = NULL;
        cr_op_row *rows = NULL;
        int n = 0;
        if ((st = cr_topo_open(topos[ti], &t, d)) != CR_OK)
            goto out;
        st = cr_op_eval_suite(t, suite, &rows, &n, d);
        cr_topo_free(t);
        if (st != CR_OK)
            goto out;
        for (int p = 0; p < np; p++) {
            double v = NAN;
            if (p < n && rows[p].status == CR_OK)
                v = metric == CR_COMPARE_HEADROOM ? rows[p].headroom : rows[p].bound_us * 1e-6;
            vals[(size_t)ti * (size_t)np + (size_t)p] = v;
        }
        free(rows);
    }
    char ctx[300];
    snprintf(ctx, sizeof ctx, "suite %s", suite->name);
    st = cr_plot_compare(ctx, metric, topos, n_topos, pnames, np, vals, out, d);
out:
    free(vals);
    free(pnames);
    cr_suite_free(suite);
    return st;
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
    const char *src = "GPU model in the topology";
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
    *out = NULL;
    if (!s || !s->suite)
        return cr_diag_set(d, CR_EUNSUPPORTED, "no suite given");
    cr_suite *suite = NULL;
    cr_op_row *rows = NULL;
    int n = 0;
    cr_status st = suite_rows(t, s->suite, &suite, &rows, &n, d);
    if (st != CR_OK)
        return st;
    char title[300];
    snprintf(title, sizeof title, "commroof suite %s on %s", suite->name, t->name);
    cr_table *tb = cr_table_new(title);
    static const struct {
        const char *name, *unit;
        bool text;
    } cols[] = {{"problem", "", true},        {"category", "", true},    {"op", "", true},
                {"ranks", "", false},         {"gflop", "GFLOP", false}, {"hbm_MB", "MB", false},
                {"comm_MB", "MB", false},     {"bound_us", "us", false}, {"pred_us", "us", false},
                {"baseline_us", "us", false}, {"headroom", "x", false},  {"binding", "", true},
                {"schedule", "", true},       {"status", "", true}};
    int nc = (int)(sizeof cols / sizeof cols[0]);
    if (!tb)
        goto oom;
    for (int c = 0; c < nc; c++)
        if (cr_table_col(tb, cols[c].name, cols[c].unit, cols[c].text, 4) < 0)
            goto oom;
    if (suite->description && cr_table_note(tb, suite->description) != CR_OK)
        goto oom;
    if (cr_table_note(tb, "bound: no implementation is faster; baseline: PyTorch + NCCL, "
                          "unoverlapped; headroom = baseline / bound") != CR_OK)
        goto oom;
    for (int i = 0; i < n; i++) {
        const cr_op_row *r = &rows[i];
        int row = cr_table_row(tb);
        bool ok = r->status == CR_OK;
        double v[7] = {r->ranks,
                       r->flops / 1e9,
                       r->hbm_bytes / 1e6,
                       r->comm_bytes / 1e6,
                       ok ? r->bound_us : NAN,
                       ok ? r->pred_us : NAN,
                       ok ? r->baseline_us : NAN};
        if (row < 0 || cr_table_set_text(tb, row, 0, r->name) != CR_OK ||
            cr_table_set_text(tb, row, 1, r->category) != CR_OK ||
            cr_table_set_text(tb, row, 2, r->op) != CR_OK)
            goto oom;
        for (int k = 0; k < 7; k++)
            if (cr_table_set_num(tb, row, 3 + k, v[k]) != CR_OK)
                goto oom;
        if (cr_table_set_num(tb, row, 10, ok ? r->headroom : NAN) != CR_OK ||
            cr_table_set_text(tb, row, 11, ok ? r->binding : "") != CR_OK ||
            cr_table_set_text(tb, row, 12, ok ? r->schedule : "") != CR_OK ||
            cr_table_set_text(tb, row, 13, ok ? "ok" : r->error) != CR_OK)
            goto oom;
    }
    free(rows);
    cr_suite_free(suite);
    *out = tb;
    return CR_OK;
oom:
    cr_table_free(tb);
    free(rows);
    cr_suite_free(suite);
    return cr_diag_set(d, CR_ENOMEM, "out of memory");
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
