/* SPDX-License-Identifier: MIT */
/*
 * Gathering the numbers behind each chart (see sources.h).
 */
#include "sbuf.h"
#include "grow.h"
#include "plots/sources.h"

#include "coll.h"
#include "ops.h"
#include "ops_priv.h"
#include "plots/measured_priv.h"
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
    /* the problems' groups opened once, as cr_op_eval_suite does */
    ops_group_cache cache = {0};
    for (int i = 0; i < n; i++) {
        const cr_suite_problem *p = &e->suite->problems[i];
        cr_diag pd = {{0}};
        /* a problem the machine cannot run (too few GPUs) is left out;
         * one that ran out of memory is not (QA audit of allocation
         * failures: left out, the chart was drawn without it) */
        cr_status pst = ops_eval_cached(t, p->op, &p->params, &e->res[i], &cache, &pd);
        if (pst == CR_ENOMEM) {
            ops_group_cache_free(&cache);
            suite_eval_free(e);
            return cr_diag_set(d, CR_ENOMEM, "problem \"%s\": out of memory", p->name);
        }
        e->ok[i] = pst == CR_OK;
    }
    ops_group_cache_free(&cache);
    return CR_OK;
}

/* Suite problems a roofline has no place for, by reason: counted and the
 * first few named under the chart's title, so that no problem goes
 * missing unsaid (a roofline needs FLOPs for y and bytes for x). */
typedef struct {
    int n;
    cr_sbuf names; /* the first LEFT_OUT_NAMED, comma-separated */
} left_out;

enum { LEFT_OUT_NAMED = 3 };

static void left_out_add(left_out *l, const char *name)
{
    if (l->n < LEFT_OUT_NAMED)
        cr_sbuf_add(&l->names, "%s%s", l->n ? ", " : "", name);
    l->n++;
}

/* "; 18 do no arithmetic (allgather, broadcast, scatter, ...)" */
static void left_out_say(cr_sbuf *b, const left_out *l, const char *why)
{
    if (l->n == 0)
        return;
    cr_sbuf_add(b, "%s%d %s (%s%s)", b->len ? "; " : "", l->n, why, l->names.p,
                l->n > LEFT_OUT_NAMED ? ", ..." : "");
}

/* Adds the subtitle line that accounts for the suite's problems not on
 * chart c: those that cannot run on t, do no arithmetic, or move no byte
 * of the chart's kind (comm: between GPUs; else: HBM). */
static cr_status left_out_note(cr_chart *c, const cr_topo *t, const suite_eval *e, bool comm,
                               cr_diag *d)
{
    left_out norun = {0}, noflop = {0}, nobyte = {0};
    for (int i = 0; i < e->n; i++) {
        const cr_op_result *r = &e->res[i];
        const char *name = e->suite->problems[i].name;
        if (!e->ok[i])
            left_out_add(&norun, name);
        else if (!(r->flops > 0))
            left_out_add(&noflop, name);
        else if (!((comm ? r->traffic_bytes : r->hbm_bytes) > 0))
            left_out_add(&nobyte, name);
    }
    int n = norun.n + noflop.n + nobyte.n;
    cr_status st = CR_OK;
    if (n > 0) {
        cr_sbuf why = {0}, line = {0};
        cr_sbuf_add(&why, "cannot run on %s", t->name);
        left_out_say(&line, &norun, why.p ? why.p : "");
        left_out_say(&line, &noflop, "do no arithmetic");
        left_out_say(&line, &nobyte, comm ? "move no byte between GPUs" : "move no HBM byte");
        cr_sbuf text = {0};
        cr_sbuf_add(&text,
                    "not drawn, %d of the suite's %d problems: %s (commroof suite %s lists "
                    "every one)",
                    n, e->n, line.p ? line.p : "", e->suite->name);
        if (why.oom || line.oom || text.oom || cr_chart_subtitle_add(c, text.p) != CR_OK)
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        cr_sbuf_release(&why);
        cr_sbuf_release(&line);
        cr_sbuf_release(&text);
    }
    cr_sbuf_release(&norun.names);
    cr_sbuf_release(&noflop.names);
    cr_sbuf_release(&nobyte.names);
    return st;
}

/* Roofline points of the measured cases that do arithmetic (GEMMs, HBM
 * kernels and fused operators that declare FLOPs): measured and predicted,
 * same intensity. */
static cr_status meas_roof_points(const cr_topo *t, const cr_plot_meas *m, cr_roof_point *meas,
                                  cr_roof_point *pred, int *n)
{
    *n = 0;
    for (size_t i = 0; i < m->list.n; i++) {
        const cr_vmeas *v = &m->list.v[i];
        double flops = 0, bytes = 0;
        if (v->c.family == CR_VFAM_GEMM) {
            double mm = 0, nn = 0, kk = 0;
            cr_dtype dt;
            const char *dts = cr_vcase_get(&v->c, "dtype");
            cr_op_result r;
            if (cr_vcase_num(&v->c, "m", &mm, NULL) != CR_OK ||
                cr_vcase_num(&v->c, "n", &nn, NULL) != CR_OK ||
                cr_vcase_num(&v->c, "k", &kk, NULL) != CR_OK || !dts ||
                cr_dtype_parse(dts, &dt, NULL) != CR_OK ||
                cr_op_eval_gemm(t, mm, nn, kk, dt, &r, NULL) != CR_OK)
                continue;
            flops = r.flops;
            bytes = r.hbm_bytes;
        } else if (v->c.family == CR_VFAM_HBM || v->c.family == CR_VFAM_FUSED) {
            /* both declare their FLOPs and HBM bytes per GPU */
            double rd = 0, wr = 0;
            if (cr_vcase_num(&v->c, "flops", &flops, NULL) != CR_OK ||
                cr_vcase_num(&v->c, "rd_bytes", &rd, NULL) != CR_OK ||
                cr_vcase_num(&v->c, "wr_bytes", &wr, NULL) != CR_OK)
                continue;
            bytes = rd + wr;
        }
        if (!(flops > 0) || !(bytes > 0) || !(v->measured_s > 0))
            continue;
        meas[*n] = (cr_roof_point){v->label, flops, bytes, v->measured_s};
        pred[*n] =
            (cr_roof_point){v->label, flops, bytes, m->res[i].has_pred ? m->res[i].pred_s : 0};
        (*n)++;
    }
    return CR_OK;
}

cr_status cr_plot_roofline_from(const cr_topo *t, int gpu, const cr_plot_sources *s, bool comm,
                                cr_chart **out, cr_diag *d)
{
    *out = NULL;
    suite_eval e = {0};
    cr_plot_meas m = {0};
    cr_roof_point *pts = NULL, *mpts = NULL, *rpts = NULL;
    cr_plot_mprob *mp = NULL;
    cr_plot_mprob_count mc;
    char **mlabels = NULL;
    cr_status st = CR_OK;
    int np = 0, nm = 0, nres = 0, nmp = 0, nabove = 0;
    if (s && s->suite) {
        if ((st = suite_eval_run(t, s->suite, &e, d)) != CR_OK)
            return st;
        /* the roof's top, asked at the first point that needs it (-1: not
         * yet, 0: failed, 1: roof_peak and roof_Bps hold it) */
        int roof_st = -1;
        double roof_peak = NAN, roof_Bps = NAN;
        pts = calloc((size_t)(4 * e.n + 1), sizeof *pts);
        if (!pts) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        for (int i = 0; i < e.n; i++) {
            const cr_op_result *r = &e.res[i];
            double bytes = comm ? r->traffic_bytes : r->hbm_bytes;
            if (!e.ok[i] || !(r->flops > 0) || !(bytes > 0))
                continue;
            const char *name = e.suite->problems[i].name;
            pts[np] = (cr_roof_point){name, r->flops, bytes, r->pred_s};
            pts[e.n + np] = (cr_roof_point){name, r->flops, bytes, r->bound_s};
            pts[2 * e.n + np] = (cr_roof_point){name, r->flops, bytes, r->baseline_s};
            /* x and FLOPs are the named algorithm's, but the bound may
             * come from another algorithm or a split of the work that
             * moves less (r->bound_by), or from cuts that need fewer bytes
             * than the bus-byte count: such a point is not the named
             * algorithm's (it may land above every ceiling at its x, or
             * above the ones its collective can use, an all-to-all over
             * the in-switch reduction line), so it goes in a series of
             * its own that says so instead of posing as a point under the
             * roof. */
            bool other = r->bound_by[0] != '\0'; /* the bound's algorithm moves other bytes */
            if (!other && r->bound_s > 0 && roof_st < 0)
                roof_st = cr_plot_roof_top(t, gpu, s ? s->ranks : NULL, comm, &roof_peak, &roof_Bps,
                                           NULL) == CR_OK;
            if (other ||
                (r->bound_s > 0 && roof_st == 1 &&
                 r->flops / r->bound_s > fmin(roof_peak, r->flops / bytes * roof_Bps) * (1 + 1e-9)))
                pts[3 * e.n + nabove++] = pts[e.n + np];
            else
                pts[e.n + np - nabove] = pts[e.n + np];
            np++;
        }
    }
    /* measured times of suite problems: harness results, and trace cases
     * of the same operator and parameters */
    if (s && (s->n_traces > 0 || s->n_nccl_logs > 0) &&
        (st = cr_plot_meas_load(t, s, &m, d)) != CR_OK)
        goto out;
    if (e.suite && (st = cr_plot_match_measured(t, e.suite, s, m.list.n ? &m : NULL, &mp, &nmp, &mc,
                                                d)) != CR_OK)
        goto out;
    if (nmp > 0) {
        mlabels = calloc((size_t)nmp, sizeof *mlabels);
        rpts = calloc((size_t)nmp, sizeof *rpts);
        if (!mlabels || !rpts) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
    }
    for (int j = 0; j < nmp; j++) {
        const cr_op_result *r = &e.res[mp[j].problem];
        double bytes = comm ? r->traffic_bytes : r->hbm_bytes;
        if (!e.ok[mp[j].problem] || !(r->flops > 0) || !(bytes > 0))
            continue;
        const char *pn = e.suite->problems[mp[j].problem].name;
        size_t ll = strlen(pn) + strlen(mp[j].variant) + 4;
        if (!(mlabels[nres] = malloc(ll))) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        snprintf(mlabels[nres], ll, mp[j].variant[0] ? "%s (%s)" : "%s%s", pn, mp[j].variant);
        rpts[nres] = (cr_roof_point){mlabels[nres], r->flops, bytes, mp[j].measured_s};
        nres++;
    }
    /* measured cases: traces hold single-GPU GEMMs and HBM kernels, which
     * belong on the HBM roofline only */
    if (!comm && s && (s->n_traces > 0 || s->n_nccl_logs > 0)) {
        mpts = calloc(2 * m.list.n + 1, sizeof *mpts);
        if (!mpts) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        meas_roof_points(s->meas_topo ? s->meas_topo : t, &m, mpts, mpts + m.list.n, &nm);
        if (nm == 0 && np == 0) {
            st = cr_diag_set(d, CR_EUNSUPPORTED,
                             "the traces hold no case with FLOPs (GEMM, or HBM kernels and "
                             "fused operators that declare flops=) to place on the roofline; "
                             "this chart takes crbench's kernels/ traces: for a program's "
                             "own trace (PyTorch or cr: ranges) run commroof roofline TRACE "
                             "or commroof report --trace TRACE");
            goto out;
        }
    }
    char names[4][160];
    snprintf(names[0], sizeof names[0], "%s: prediction (best schedule)",
             e.suite ? e.suite->name : "");
    snprintf(names[1], sizeof names[1], "%s: baseline (PyTorch + NCCL)",
             e.suite ? e.suite->name : "");
    snprintf(names[2], sizeof names[2], "%s: bound", e.suite ? e.suite->name : "");
    snprintf(names[3], sizeof names[3],
             "%s: bound by another algorithm or fewer bytes (off the named algorithm's roof; "
             "see table)",
             e.suite ? e.suite->name : "");
    cr_roof_set sets[7];
    int nsets = 0;
    if (np > 0) {
        if (np > nabove)
            sets[nsets++] = (cr_roof_set){names[2], false, false, pts + e.n, np - nabove};
        if (nabove > 0)
            sets[nsets++] = (cr_roof_set){names[3], false, false, pts + 3 * e.n, nabove};
        sets[nsets++] = (cr_roof_set){names[0], false, nres == 0, pts, np};
        sets[nsets++] = (cr_roof_set){names[1], false, false, pts + 2 * e.n, np};
    }
    if (nres > 0) /* measured problems carry the labels */
        sets[nsets++] = (cr_roof_set){mc.n_json == 0    ? "measured (traces)"
                                      : mc.n_trace == 0 ? "measured (harness results)"
                                                        : "measured (harness results and traces)",
                                      true, true, rpts, nres};
    if (nm > 0) {
        /* predictions first, measured on top; labels where they fit (the
         * chart drops those that would overlap) */
        sets[nsets++] =
            (cr_roof_set){"predicted for the measured cases", false, false, mpts + m.list.n, nm};
        sets[nsets++] = (cr_roof_set){"measured (traces)", true, true, mpts, nm};
    }
    if (comm)
        st = cr_plot_comm_roofline(t, gpu, s ? s->ranks : NULL, sets, nsets, out, d);
    else
        st = cr_plot_roofline(t, gpu, sets, nsets, out, d);
    if (st == CR_OK && nsets == 0 && e.suite) {
        /* the ceilings alone: say why the chart has no point */
        char why[300];
        snprintf(why, sizeof why, "no problem of suite %s %s on %s: the ceilings alone",
                 e.suite->name, comm ? "communicates" : "runs", t->name);
        if (cr_chart_subtitle_add(*out, why) != CR_OK)
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    if (st == CR_OK && e.suite && nsets > 0) {
        /* the suite by name under the title, as every chart names its
         * machine (it showed only in the key's series names) */
        char line[300];
        snprintf(line, sizeof line, "suite %s", e.suite->name);
        st = cr_chart_subtitle_add(*out, line) == CR_OK
                 ? left_out_note(*out, t, &e, comm, d)
                 : cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    if (st != CR_OK && *out) {
        cr_chart_free(*out);
        *out = NULL;
    }
out:
    for (int j = 0; mlabels && j < nres; j++)
        free(mlabels[j]);
    free(mlabels);
    free(rpts);
    free(mp);
    free(pts);
    free(mpts);
    cr_plot_meas_release(&m);
    suite_eval_free(&e);
    return st;
}

/* Suite rows on one topology. */
static cr_status suite_rows(const cr_topo *t, const cr_plot_sources *s, cr_suite **suite,
                            cr_op_row **rows, int *n, cr_diag *d)
{
    *suite = NULL;
    *rows = NULL;
    *n = 0;
    if (!s || !s->suite)
        return cr_diag_set(d, CR_EUNSUPPORTED, "no suite given");
    cr_status st = cr_suite_open(s->suite, suite, d);
    if (st != CR_OK)
        return st;
    st = cr_op_eval_suite(t, *suite, rows, n, d);
    if (st != CR_OK) {
        cr_suite_free(*suite);
        *suite = NULL;
    }
    return st;
}

/* The measured times of suite's problems (cr_plot_match_measured): the
 * harness results of s and the cases of its traces and logs, read into
 * *meas when s names any. */
static cr_status suite_measured(const cr_topo *t, const cr_plot_sources *s, const cr_suite *suite,
                                cr_plot_meas *meas, cr_plot_mprob **mp, int *nmp,
                                cr_plot_mprob_count *mc, cr_diag *d)
{
    if (s->n_traces > 0 || s->n_nccl_logs > 0) {
        cr_status st = cr_plot_meas_load(t, s, meas, d);
        if (st != CR_OK)
            return st;
    }
    return cr_plot_match_measured(t, suite, s, meas->list.n ? meas : NULL, mp, nmp, mc, d);
}

/* Where the gap chart's measured times come from, for its caption. */
static void measured_source(const cr_plot_sources *s, const cr_plot_mprob_count *mc, size_t n_cases,
                            char *buf, size_t n)
{
    buf[0] = '\0';
    size_t l = 0;
    if (mc->n_json > 0)
        l += (size_t)snprintf(buf + l, n - l, "%d harness result%s of %s", mc->n_json,
                              mc->n_json == 1 ? "" : "s", s->measured_json);
    if (mc->n_trace > 0 && l < n) {
        l += (size_t)snprintf(buf + l, n - l, "%s%d trace case%s of ", l ? ", " : "", mc->n_trace,
                              mc->n_trace == 1 ? "" : "s");
        for (int i = 0; i < s->n_traces && l < n; i++)
            l += (size_t)snprintf(buf + l, n - l, "%s%s", i ? " " : "", s->traces[i]);
    }
    if (mc->n_dup > 0 && l < n)
        snprintf(buf + l, n - l, " (%d trace case%s repeat%s them)", mc->n_dup,
                 mc->n_dup == 1 ? "" : "s", mc->n_dup == 1 ? "s" : "");
    if (l == 0 && n_cases > 0)
        snprintf(buf, n, "none of the %zu cases of the traces and logs is a problem of the suite",
                 n_cases);
}

cr_status cr_plot_gap_suite(const cr_topo *t, const cr_plot_sources *s, cr_chart **out, cr_diag *d)
{
    *out = NULL;
    cr_suite *suite = NULL;
    cr_op_row *rows = NULL;
    int n = 0;
    cr_status st = suite_rows(t, s, &suite, &rows, &n, d);
    if (st != CR_OK)
        return st;
    cr_gap_row *g = calloc((size_t)(n ? n : 1), sizeof *g);
    int ng = 0, nmp = 0, nvar = 0;
    cr_plot_mprob *mp = NULL;
    cr_plot_mprob_count mc;
    cr_plot_meas meas = {0};
    const char *variants[CR_GAP_MAX_MEASURED];
    char names[CR_GAP_MAX_MEASURED][96];
    const char *pnames[CR_GAP_MAX_MEASURED];
    if (!g) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    /* measured times: harness results and trace cases of the suite's
     * problems, one series per variant measured ("baseline", "overlap, 4
     * chunks") */
    if ((st = suite_measured(t, s, suite, &meas, &mp, &nmp, &mc, d)) != CR_OK)
        goto out;
    for (int j = 0; j < nmp; j++) {
        int v = 0;
        while (v < nvar && strcmp(variants[v], mp[j].variant) != 0)
            v++;
        if (v < nvar)
            continue;
        if (nvar == CR_GAP_MAX_MEASURED) {
            st = cr_diag_set(d, CR_EINVAL,
                             "the measured times name more than %d variants of a problem "
                             "(\"%s\" is one too many for the gap chart)",
                             CR_GAP_MAX_MEASURED, mp[j].variant);
            goto out;
        }
        variants[nvar] = mp[j].variant;
        snprintf(names[nvar], sizeof names[nvar], "%s%s",
                 mp[j].variant[0] ? "measured: " : "measured", mp[j].variant);
        pnames[nvar] = names[nvar];
        nvar++;
    }
    for (int i = 0; i < n; i++) {
        if (rows[i].status != CR_OK || !(rows[i].bound_us > 0))
            continue;
        cr_gap_row *r = &g[ng++];
        *r = (cr_gap_row){rows[i].name,
                          rows[i].bound_us * 1e-6,
                          rows[i].baseline_us * 1e-6,
                          rows[i].pred_us * 1e-6,
                          {0}};
        /* the first time given for a problem and variant (harness results
         * come before traces) */
        for (int v = 0; v < nvar; v++) {
            r->measured_s[v] = NAN;
            for (int j = nmp - 1; j >= 0; j--)
                if (mp[j].problem == i && strcmp(mp[j].variant, variants[v]) == 0)
                    r->measured_s[v] = mp[j].measured_s;
        }
    }
    if (ng == 0) {
        st = cr_diag_set(d, CR_EUNSUPPORTED, "suite %s: no problem runs on %s", suite->name,
                         t->name);
        goto out;
    }
    char ctx[300], src[1200];
    snprintf(ctx, sizeof ctx, "suite %s on %s", suite->name, t->name);
    measured_source(s, &mc, meas.list.n, src, sizeof src);
    st = cr_plot_gap(ctx, src[0] ? src : NULL, pnames, nvar, g, ng, out, d);
out:
    free(g);
    free(rows);
    free(mp);
    cr_suite_free(suite);
    cr_plot_meas_release(&meas);
    return st;
}

cr_status cr_plot_measured_table(const cr_topo *t, const cr_plot_sources *s, cr_table **out,
                                 int *below, cr_diag *d)
{
    *out = NULL;
    *below = 0;
    cr_suite *suite = NULL;
    cr_op_row *rows = NULL;
    cr_plot_mprob *mp = NULL;
    cr_plot_mprob_count mc;
    cr_plot_meas meas = {0};
    cr_table *tb = NULL;
    int n = 0, nmp = 0;
    cr_status st = suite_rows(t, s, &suite, &rows, &n, d);
    if (st != CR_OK)
        return st;
    if ((st = suite_measured(t, s, suite, &meas, &mp, &nmp, &mc, d)) != CR_OK)
        goto out;
    if (nmp == 0) {
        /* what was given and held none, or what to give */
        if (s->measured_json)
            st = cr_diag_set(d, CR_EUNSUPPORTED,
                             "no measured time of a problem of suite %s: %s holds no entry of "
                             "one%s",
                             suite->name, s->measured_json,
                             s->n_traces > 0 ? ", nor do the traces" : "");
        else
            st = cr_diag_set(d, CR_EUNSUPPORTED,
                             "no measured time of a problem of suite %s (give --measured-json, "
                             "or traces with cases of its problems)",
                             suite->name);
        goto out;
    }
    char title[300];
    snprintf(title, sizeof title, "commroof measured problems of suite %s on %s", suite->name,
             t->name);
    tb = cr_table_new(title);
    static const struct {
        const char *name, *unit;
        bool text;
        int prec; /* significant digits: the measured times as the harness wrote
                     them, the model's 4 as in every table (the JSON keeps all) */
    } cols[] = {{"problem", "", true, 0},          {"variant", "", true, 0},
                {"measured_us", "us", false, 7},   {"bound_us", "us", false, 4},
                {"bound_cold_us", "us", false, 4}, {"pct_of_roofline", "%", false, 4},
                {"verdict", "", true, 0},          {"baseline_us", "us", false, 4},
                {"pred_us", "us", false, 4},       {"source", "", true, 0}};
    int nc = (int)(sizeof cols / sizeof cols[0]);
    bool oom = !tb;
    for (int c = 0; c < nc && !oom; c++)
        oom = cr_table_col(tb, cols[c].name, cols[c].unit, cols[c].text, cols[c].prec) < 0;
    oom = oom || cr_table_note(tb, "% of roofline = bound / measured x 100; bound (warm), "
                                   "cold bound, baseline and prediction from the model on this "
                                   "machine; the verdict as commroof check gives it") != CR_OK;
    for (int j = 0; j < nmp && !oom; j++) {
        const cr_op_row *r = &rows[mp[j].problem];
        bool ok = r->status == CR_OK && r->bound_us > 0;
        *below += ok && cr_below_bound(mp[j].measured_s, r->bound_us * 1e-6);
        /* check's verdict from the same figures: a time between the warm
         * and the cold bound is cache-resident there, not a plain % (QA
         * audit of session 44: 41 % of roofline where check said
         * cache-resident) */
        const char *verdict = "";
        if (ok) {
            cr_op_result vr = {0};
            vr.bound_s = r->bound_us * 1e-6;
            vr.bound_cold_s = r->bound_cold_us * 1e-6;
            vr.baseline_s = r->baseline_us * 1e-6;
            double pct, speedup;
            verdict = cr_verdict_name(cr_op_verdict(&vr, mp[j].measured_s, &pct, &speedup));
        }
        int row = cr_table_row(tb);
        oom = row < 0 || cr_table_set_text(tb, row, 0, r->name) != CR_OK ||
              cr_table_set_text(tb, row, 1, mp[j].variant) != CR_OK ||
              cr_table_set_num(tb, row, 2, mp[j].measured_s * 1e6) != CR_OK ||
              cr_table_set_num(tb, row, 3, ok ? r->bound_us : NAN) != CR_OK ||
              cr_table_set_num(tb, row, 4, ok ? r->bound_cold_us : NAN) != CR_OK ||
              cr_table_set_num(
                  tb, row, 5, ok ? r->bound_us / (mp[j].measured_s * 1e6) * 100.0 : NAN) != CR_OK ||
              cr_table_set_text(tb, row, 6, verdict) != CR_OK ||
              cr_table_set_num(tb, row, 7, ok ? r->baseline_us : NAN) != CR_OK ||
              cr_table_set_num(tb, row, 8, ok ? r->pred_us : NAN) != CR_OK ||
              cr_table_set_text(tb, row, 9, mp[j].source) != CR_OK;
    }
    if (oom) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    *out = tb;
    tb = NULL;
out:
    cr_table_free(tb);
    free(mp);
    free(rows);
    cr_suite_free(suite);
    cr_plot_meas_release(&meas);
    return st;
}

/* Last path component of a measurement's source, without ":line". */
static void source_name(const char *src, char *buf, size_t n)
{
    const char *b = strrchr(src, '/');
    cr_str_copy(buf, n, b ? b + 1 : src);
    char *colon = strrchr(buf, ':');
    if (colon)
        *colon = '\0';
}

cr_status cr_plot_sweep_from(const cr_topo *t, const cr_sweep_opts *o, const cr_plot_sources *s,
                             cr_chart **out, cr_diag *d)
{
    *out = NULL;
    if (!s || (s->n_traces == 0 && s->n_nccl_logs == 0))
        return cr_plot_sweep(t, o, NULL, 0, out, d);
    cr_plot_meas m = {0};
    cr_status st = cr_plot_meas_load(t, s, &m, d);
    int nranks = o->ranks ? o->ranks->n : t->n_gpus;
    cr_sweep_meas *pts = NULL;
    cr_sweep_meas_set sets[16];
    char names[16][160], other[4][32];
    int nsets = 0, nother = 0;
    if (st != CR_OK)
        goto out;
    pts = calloc(m.list.n + 1, sizeof *pts);
    if (!pts) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    /* one set per source file, in order of appearance; only this
     * collective on the same number of ranks is comparable */
    for (int pass = 0; pass < 2; pass++) {
        size_t used = 0;
        for (int k = 0; k < (pass ? nsets : 1); k++) {
            if (pass)
                sets[k] = (cr_sweep_meas_set){names[k], pts + used, 0};
            for (size_t i = 0; i < m.list.n; i++) {
                const cr_vmeas *v = &m.list.v[i];
                const char *cs = cr_vcase_get(&v->c, "coll");
                cr_coll c;
                double bytes = 0, nr = 0;
                if (v->c.family != CR_VFAM_NCCL || !cs || cr_coll_parse(cs, &c, NULL) != CR_OK ||
                    c != o->coll || cr_vcase_num(&v->c, "bytes", &bytes, NULL) != CR_OK ||
                    cr_vcase_num(&v->c, "nranks", &nr, NULL) != CR_OK || (int)nr != nranks ||
                    !(v->measured_s > 0) || !(bytes > 0))
                    continue;
                char src[160];
                source_name(v->source, src, sizeof src);
                if (pass == 0) {
                    int j = 0;
                    while (j < nsets && strcmp(names[j], src) != 0)
                        j++;
                    if (j == nsets && nsets < 16)
                        cr_str_copy(names[nsets++], sizeof names[0], src);
                } else if (strcmp(names[k], src) == 0) {
                    pts[used++] = (cr_sweep_meas){bytes, bytes / v->measured_s *
                                                             cr_coll_busbw_factor(c, nranks)};
                    sets[k].n++;
                    /* the element types measured that the model's lines
                     * are not in (nccl-tests' default is float) */
                    const char *dts = cr_vcase_get(&v->c, "dtype");
                    cr_dtype dt;
                    if (!dts || (cr_dtype_parse(dts, &dt, NULL) == CR_OK && dt == o->dtype))
                        continue;
                    int q = 0;
                    while (q < nother && strcmp(other[q], dts) != 0)
                        q++;
                    if (q == nother && nother < 4)
                        cr_str_copy(other[nother++], sizeof other[0], dts);
                }
            }
        }
    }
    /* every log given must give the chart points: one that does not is
     * named with why, never dropped without a word */
    for (int i = 0; i < s->n_nccl_logs; i++) {
        char base[160];
        source_name(s->nccl_logs[i], base, sizeof base);
        int rows = 0, k = 0;
        for (size_t j = 0; j < m.list.n; j++) {
            char src[160];
            source_name(m.list.v[j].source, src, sizeof src);
            rows += strcmp(src, base) == 0;
        }
        while (k < nsets && strcmp(names[k], base) != 0)
            k++;
        /* (a log without rows was refused as it was read) */
        if (k == nsets && !o->others_pass) {
            st = cr_diag_set(d, CR_EINVAL,
                             "%s: none of its %d row(s) runs %s on %d ranks, as the sweep does "
                             "(give its collective, or --ranks of its count)",
                             s->nccl_logs[i], rows, cr_coll_name(o->coll), nranks);
            goto out;
        }
    }
    st = cr_plot_sweep(t, o, sets, nsets, out, d);
    if (st == CR_OK && nother > 0) {
        /* said, not refused: the report's bf16 sweep stands beside logs
         * in nccl-tests' default float, and the reader should know which
         * points are which */
        char note[240];
        int len = snprintf(note, sizeof note, "measured rows in ");
        for (int q = 0; q < nother; q++)
            len += snprintf(note + len, sizeof note - (size_t)len, "%s%s",
                            q == 0            ? ""
                            : q == nother - 1 ? " and "
                                              : ", ",
                            other[q]);
        snprintf(note + len, sizeof note - (size_t)len, "; the model's lines in %s",
                 cr_dtype_name(o->dtype));
        if (cr_chart_subtitle_add(*out, note) != CR_OK) {
            cr_chart_free(*out);
            *out = NULL;
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        }
    }
out:
    free(pts);
    cr_plot_meas_release(&m);
    return st;
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
    char **skips = NULL;
    size_t nskip = 0, cap_skip = 0;
    double *vals = malloc((size_t)(n_topos * (np ? np : 1)) * sizeof *vals);
    const char **pnames = calloc((size_t)(np ? np : 1), sizeof *pnames);
    if (!vals || !pnames) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int p = 0; p < np; p++)
        pnames[p] = suite->problems[p].name;
    /* why each machine has no bar for a problem, as commroof suite says
     * it: the chart said only "commroof suite --topo says why", and the
     * report's table of its numbers showed a dash */
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
            if (!isfinite(v)) {
                char *why = malloc(1100);
                if (!why || cr_grow((void **)&skips, &cap_skip, nskip + 1, sizeof *skips)) {
                    free(why);
                    free(rows);
                    st = cr_diag_set(d, CR_ENOMEM, "out of memory");
                    goto out;
                }
                snprintf(why, 1100, "no bar: %s on %s: %s", pnames[p], topos[ti],
                         p >= n                    ? "not evaluated"
                         : rows[p].status != CR_OK ? rows[p].error
                                                   : "no finite value");
                skips[nskip++] = why;
            }
        }
        free(rows);
    }
    char ctx[300];
    snprintf(ctx, sizeof ctx, "suite %s", suite->name);
    st = cr_plot_compare(ctx, metric, topos, n_topos, pnames, np, vals, out, d);
    for (size_t i = 0; st == CR_OK && i < nskip; i++)
        if (cr_chart_note(*out, skips[i]) != CR_OK) {
            cr_chart_free(*out);
            *out = NULL;
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        }
out:
    for (size_t i = 0; i < nskip; i++)
        free(skips[i]);
    free(skips);
    free(vals);
    free(pnames);
    cr_suite_free(suite);
    return st;
}

cr_status cr_plot_accuracy_from(const cr_topo *t, const cr_plot_sources *s, bool ratio,
                                cr_chart **out, cr_diag *d)
{
    *out = NULL;
    cr_plot_meas m = {0};
    cr_acc_point *pts = NULL;
    cr_status st = cr_plot_meas_load(t, s, &m, d);
    if (st != CR_OK)
        goto out;
    pts = calloc(m.list.n + 1, sizeof *pts);
    if (!pts) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    int n = 0;
    for (size_t i = 0; i < m.list.n; i++)
        if (m.res[i].has_pred && m.res[i].timed)
            pts[n++] = (cr_acc_point){cr_vfam_name(m.list.v[i].c.family), m.list.v[i].label,
                                      m.res[i].pred_s, m.list.v[i].measured_s};
    if (n == 0) {
        st = m.list.n == 0
                 ? cr_diag_set(d, CR_EUNSUPPORTED,
                               "no measured case: the traces hold no cr: range of crbench's "
                               "families")
                 : cr_diag_set(d, CR_EUNSUPPORTED, "the %zu measured case%s no prediction",
                               m.list.n, m.list.n == 1 ? " has" : "s have");
        goto out;
    }
    char ctx[300];
    const cr_topo *mt = s->meas_topo ? s->meas_topo : t;
    snprintf(ctx, sizeof ctx, "%d file%s on %s", m.n_files, m.n_files == 1 ? "" : "s", mt->name);
    st =
        ratio ? cr_plot_accuracy_ratio(ctx, pts, n, out, d) : cr_plot_accuracy(ctx, pts, n, out, d);
out:
    free(pts);
    cr_plot_meas_release(&m);
    return st;
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

cr_status cr_plot_ceilings_table(const cr_topo *t, int gpu, const cr_rankset *ranks, cr_table **out,
                                 cr_diag *d)
{
    *out = NULL;
    cr_comm_ceilings cc;
    cr_status st = cr_plot_comm_ceilings(t, gpu, ranks, &cc, d);
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
        /* integer math in operations, as the topology writes it (1979TOP/s):
         * int8's peak was labelled TFLOP/s (QA audit of machine comparison,
         * session 51) */
        const char *unit = dt == CR_DT_INT8 ? "TOP/s" : "TFLOP/s";
        if (g->peak_flops[dt] > 0) {
            snprintf(what, sizeof what, "%s_peak", cr_dtype_name((cr_dtype)dt));
            if (ceiling_row(tb, what, g->peak_flops[dt] / 1e12, unit, src) != CR_OK)
                goto oom;
        }
        if (g->meas_flops[dt] > 0) {
            snprintf(what, sizeof what, "%s_measured", cr_dtype_name((cr_dtype)dt));
            if (ceiling_row(tb, what, g->meas_flops[dt] / 1e12, unit, "calibrated") != CR_OK)
                goto oom;
        }
    }
    if (ceiling_row(tb, "hbm", g->hbm_Bps / 1e9, "GB/s", src) != CR_OK ||
        (g->meas_hbm_Bps > 0 &&
         ceiling_row(tb, "hbm_measured", g->meas_hbm_Bps / 1e9, "GB/s", "calibrated") != CR_OK) ||
        (g->l2_Bps > 0 && ceiling_row(tb, "l2", g->l2_Bps / 1e9, "GB/s", src) != CR_OK) ||
        (g->meas_l2_Bps > 0 &&
         ceiling_row(tb, "l2_measured", g->meas_l2_Bps / 1e9, "GB/s", "calibrated") != CR_OK) ||
        (g->llc_Bps > 0 &&
         ceiling_row(tb, "infinity_cache", g->llc_Bps / 1e9, "GB/s", src) != CR_OK))
        goto oom;
    char what[64];
    snprintf(what, sizeof what, "%s_per_gpu", cc.scaleup_kind);
    if ((cc.scaleup_Bps > 0 &&
         ceiling_row(tb, what, cc.scaleup_Bps / 1e9, "GB/s", "links of the GPU") != CR_OK) ||
        (cc.in_switch_Bps > 0 &&
         ceiling_row(tb, "in_switch_reduction_busbw", cc.in_switch_Bps / 1e9, "GB/s",
                     cc.in_switch_from_bound
                         ? "allreduce bound's busbw, in-switch reduction credited"
                         : "scale-up x 2(n-1)/n, n = GPUs on the reducing switches") != CR_OK) ||
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
    cr_suite *suite = NULL;
    cr_op_row *rows = NULL;
    int n = 0;
    cr_status st = suite_rows(t, s, &suite, &rows, &n, d);
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
        /* a problem the machine cannot run may not get as far as its
         * sizes: a 0 there is "not known", not zero */
        for (int k = 0; k < 4; k++)
            if (!ok && v[k] == 0)
                v[k] = NAN;
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
    *out = NULL;
    cr_plot_meas m = {0};
    cr_table *tb = NULL;
    cr_status st = cr_plot_meas_load(t, s, &m, d);
    if (st != CR_OK)
        goto out;
    if (m.list.n == 0) {
        /* a program's own trace (PyTorch, NCCL) holds no crbench case:
         * an empty table said nothing (its operators are the program
         * roofline's) */
        st = cr_diag_set(d, CR_EUNSUPPORTED,
                         "0 measured cases: the %d trace file%s hold%s no cr: range of crbench's "
                         "families (a program's own operators are in the program roofline)",
                         m.n_files, m.n_files == 1 ? "" : "s", m.n_files == 1 ? "s" : "");
        goto out;
    }
    char title[300];
    snprintf(title, sizeof title, "commroof validation on %s: %zu case%s from %d file%s",
             (s->meas_topo ? s->meas_topo : t)->name, m.list.n, m.list.n == 1 ? "" : "s", m.n_files,
             m.n_files == 1 ? "" : "s");
    tb = cr_table_new(title);
    static const struct {
        const char *name, *unit;
        bool text;
    } cols[] = {
        {"family", "", true},      {"case", "", true},       {"measured_us", "us", false},
        {"bound_us", "us", false}, {"pred_us", "us", false}, {"pct_of_roofline", "%", false},
        {"error_pct", "%", false}, {"impl", "", true},       {"binding", "", true},
        {"violation", "", true},   {"source", "", true},     {"note", "", true}};
    int nc = (int)(sizeof cols / sizeof cols[0]);
    if (!tb) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int c = 0; c < nc; c++)
        if (cr_table_col(tb, cols[c].name, cols[c].unit, cols[c].text, 4) < 0) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
    if (m.n_skipped > 0) {
        char note[120];
        snprintf(note, sizeof note, "%d ranges could not be used (commroof validate says why)",
                 m.n_skipped);
        cr_table_note(tb, note);
    }
    if (m.n_not_traces > 0) {
        char note[120];
        snprintf(note, sizeof note,
                 "%d file%s in the trace folders %s not a trace, left out (commroof validate "
                 "says which)",
                 m.n_not_traces, m.n_not_traces == 1 ? "" : "s",
                 m.n_not_traces == 1 ? "is" : "are");
        cr_table_note(tb, note);
    }
    int violations = 0;
    for (size_t i = 0; i < m.list.n; i++) {
        const cr_vmeas *v = &m.list.v[i];
        const cr_vresult *r = &m.res[i];
        int row = cr_table_row(tb);
        violations += r->violation;
        if (row < 0 || cr_table_set_text(tb, row, 0, cr_vfam_name(v->c.family)) != CR_OK ||
            cr_table_set_text(tb, row, 1, v->label) != CR_OK ||
            cr_table_set_num(tb, row, 2, v->measured_s * 1e6) != CR_OK ||
            cr_table_set_num(tb, row, 3, r->has_bound ? r->bound_s * 1e6 : NAN) != CR_OK ||
            cr_table_set_num(tb, row, 4, r->has_pred ? r->pred_s * 1e6 : NAN) != CR_OK ||
            cr_table_set_num(tb, row, 5, r->has_bound && r->timed ? r->pct_of_roofline : NAN) !=
                CR_OK ||
            cr_table_set_num(tb, row, 6, r->has_pred && r->timed ? r->error_pct : NAN) != CR_OK ||
            cr_table_set_text(tb, row, 7, r->impl) != CR_OK ||
            cr_table_set_text(tb, row, 8, r->binding) != CR_OK ||
            cr_table_set_text(tb, row, 9, r->violation ? "VIOLATION" : "") != CR_OK ||
            cr_table_set_text(tb, row, 10, v->source) != CR_OK ||
            cr_table_set_text(tb, row, 11, r->note) != CR_OK) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
    }
    char note[160];
    snprintf(note, sizeof note,
             "%d bound violations (a measured time below the bound: a timing bug or a wrong "
             "bound)",
             violations);
    if (cr_table_note(tb, note) != CR_OK) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    *out = tb;
    tb = NULL;
out:
    cr_table_free(tb);
    cr_plot_meas_release(&m);
    return st;
}
