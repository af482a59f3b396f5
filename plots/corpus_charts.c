/* SPDX-License-Identifier: MIT */
/*
 * The measurement corpus's charts and table (see sources.h): the numbers
 * come from validate/corpus.c (cr_corpus_eval, cr_corpus_stats_of), one
 * series per system, one chart per half: the fitting half and the checking
 * half are never drawn or summed together.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots/sources.h"
#include "sbuf.h"

#define US 1e-6

static cr_status oom(cr_diag *d)
{
    return cr_diag_set(d, CR_ENOMEM, "out of memory");
}

static bool row_usable(const cr_corpus_row *r)
{
    return r->has_pred && r->pred_s > 0 && r->measured_s > 0 && isfinite(r->pred_s) &&
           isfinite(r->measured_s);
}

static void context(const cr_corpus *c, cr_corpus_half h, char *buf, size_t n)
{
    int logs = 0, systems = 0;
    for (int s = 0; s < c->n_systems; s++) {
        int k = 0;
        for (int i = 0; i < c->n_logs; i++)
            k += c->logs[i].half == h && c->logs[i].status == CR_CORPUS_LOG_OK &&
                 !strcmp(c->logs[i].system, c->systems[s]);
        logs += k;
        systems += k > 0;
    }
    int len = snprintf(buf, n,
                       "%s half of the corpus: %d logs of %d systems, each on its own "
                       "topology",
                       h == CR_CORPUS_FIT ? "fitting" : "checking", logs, systems);
    /* a system of the half with no row to draw would vanish from the
     * charts without a word (gb200-nvl72-ib-2rack in the checking half):
     * name it */
    int gone = 0;
    for (int s = 0; s < c->n_systems; s++) {
        bool in_half = false, drawn = false;
        for (int i = 0; i < c->n_logs; i++)
            in_half =
                in_half || (c->logs[i].half == h && !strcmp(c->logs[i].system, c->systems[s]));
        for (size_t i = 0; i < c->n_rows && in_half && !drawn; i++)
            drawn = c->rows[i].half == h && row_usable(&c->rows[i]) &&
                    !strcmp(c->logs[c->rows[i].log].system, c->systems[s]);
        if (!in_half || drawn || len < 0 || (size_t)len >= n)
            continue;
        len += snprintf(buf + len, n - (size_t)len, "%s%s",
                        gone++ ? ", "
                               : "; not drawn, no row with a "
                                 "prediction (the table's notes say why): ",
                        c->systems[s]);
    }
}

/* The look (cr_chart_series_look) of each system's series: its place in
 * the corpus's sorted list of systems, so that a system has one colour and
 * marker on all four charts (the accuracy charts order their series by
 * size, the error charts by name). 2 and up: the band and the line of 1
 * take the first two. */
static cr_status system_looks(const cr_corpus *c, cr_chart *ch, cr_diag *d)
{
    for (int i = 0; i < cr_chart_n_series(ch); i++)
        for (int s = 0; s < c->n_systems; s++)
            if (!strcmp(cr_chart_series_name(ch, i), c->systems[s]) &&
                cr_chart_series_look(ch, i, 2 + s) != CR_OK)
                return cr_diag_set(d, CR_EINVAL, "corpus chart: series %d has no look", i);
    return CR_OK;
}

/* Predicted against measured: cr_plot_accuracy with one "family" per
 * system. */
static cr_status corpus_pred_vs_meas(const cr_corpus *c, cr_corpus_half h, cr_chart **out,
                                     cr_diag *d)
{
    cr_acc_point *pts = calloc(c->n_rows + 1, sizeof *pts);
    if (!pts)
        return oom(d);
    int n = 0;
    for (size_t i = 0; i < c->n_rows; i++)
        if (c->rows[i].half == h && row_usable(&c->rows[i]))
            pts[n++] = (cr_acc_point){c->logs[c->rows[i].log].system, NULL, c->rows[i].pred_s,
                                      c->rows[i].measured_s};
    char ctx[300];
    context(c, h, ctx, sizeof ctx);
    cr_status st = n ? cr_plot_accuracy(ctx, pts, n, out, d)
                     : cr_diag_set(d, CR_EUNSUPPORTED, "the %s half has no row with a prediction",
                                   cr_corpus_half_name(h));
    free(pts);
    if (st == CR_OK && (st = system_looks(c, *out, d)) != CR_OK) {
        cr_chart_free(*out);
        *out = NULL;
    }
    return st;
}

/* Predicted / measured against the message size, one series per system,
 * 1 and the 0.9-1.1 band; the subtitle gives the half's figures per band. */
static cr_status corpus_error_by_size(const cr_corpus *c, cr_corpus_half h, cr_chart **out,
                                      cr_diag *d)
{
    double lo = INFINITY, hi = 0, rmax = 0;
    int usable = 0;
    for (size_t i = 0; i < c->n_rows; i++) {
        const cr_corpus_row *r = &c->rows[i];
        if (r->half != h || !row_usable(r))
            continue;
        usable++;
        lo = fmin(lo, r->bytes);
        hi = fmax(hi, r->bytes);
        rmax = fmax(rmax, r->pred_s / r->measured_s);
    }
    if (!usable)
        return cr_diag_set(d, CR_EUNSUPPORTED, "the %s half has no row with a prediction",
                           cr_corpus_half_name(h));
    lo = pow(2, floor(log2(lo)) - 1);
    hi = pow(2, ceil(log2(hi)) + 1);
    /* linear from 0, as the report's error chart: 2x too slow is as far
     * above 1 as 0 is below */
    double ytop = fmax(2.0, ceil(rmax * 1.08 * 4.0) / 4.0);
    char title[120], sub[600], ctx[300];
    snprintf(title, sizeof title, "Corpus, %s half: predicted / measured time by message size",
             cr_corpus_half_name(h));
    context(c, h, ctx, sizeof ctx);
    int len = snprintf(sub, sizeof sub, "%s; median |error|", ctx);
    for (int b = 0; b < CR_CORPUS_BANDS; b++) {
        cr_corpus_stats s;
        if (cr_corpus_stats_of(c, h, NULL, b, &s) != CR_OK)
            return oom(d);
        if (isfinite(s.median_abs_err_pct))
            len += cr_snprintf_c(sub + len, sizeof sub - (size_t)len, " %s %.1f%%",
                                 cr_corpus_band_name(b), s.median_abs_err_pct);
    }
    cr_chart *ch = cr_chart_new(CR_CHART_XY, title);
    if (!ch)
        return oom(d);
    cr_status st = CR_OK;
    int band = cr_chart_series(ch, "within +/-10%", CR_SERIES_BAND, false);
    int one = cr_chart_series(ch, "1 (exact)", CR_SERIES_LINE, false);
    if (band < 0 || one < 0 || cr_chart_subtitle(ch, sub) != CR_OK ||
        cr_chart_axis(ch, 'x', "message size (log)", CR_AXIS_LOG) != CR_OK ||
        cr_chart_axis(ch, 'y', "predicted / measured time (x)", CR_AXIS_LINEAR) != CR_OK ||
        cr_chart_si_ticks(ch, 'x', "B") != CR_OK || cr_chart_range(ch, 'x', lo, hi) != CR_OK ||
        cr_chart_range(ch, 'y', 0, ytop) != CR_OK ||
        cr_chart_band(ch, band, lo, 0.9, 1.1) != CR_OK ||
        cr_chart_band(ch, band, hi, 0.9, 1.1) != CR_OK ||
        cr_chart_point(ch, one, lo, 1.0, NULL) != CR_OK ||
        cr_chart_point(ch, one, hi, 1.0, NULL) != CR_OK) {
        st = oom(d);
        goto fail;
    }
    for (int s = 0; s < c->n_systems && st == CR_OK; s++) {
        int k = -1;
        for (size_t i = 0; i < c->n_rows && st == CR_OK; i++) {
            const cr_corpus_row *r = &c->rows[i];
            if (r->half != h || !row_usable(r) || strcmp(c->logs[r->log].system, c->systems[s]))
                continue;
            if (k < 0 && (k = cr_chart_series(ch, c->systems[s], CR_SERIES_POINTS, false)) < 0)
                st = oom(d);
            else if (cr_chart_point(ch, k, r->bytes, r->pred_s / r->measured_s, NULL) != CR_OK)
                st = oom(d);
        }
    }
    if (st != CR_OK || (st = system_looks(c, ch, d)) != CR_OK)
        goto fail;
    cr_chart_size(ch, 1100, 700);
    *out = ch;
    return CR_OK;
fail:
    cr_chart_free(ch);
    return st;
}

cr_status cr_plot_corpus(const cr_corpus *c, cr_corpus_half h, bool by_size, cr_chart **out,
                         cr_diag *d)
{
    *out = NULL;
    if (h != CR_CORPUS_FIT && h != CR_CORPUS_CHECK)
        return cr_diag_set(d, CR_EINVAL, "corpus chart: no such half");
    return by_size ? corpus_error_by_size(c, h, out, d) : corpus_pred_vs_meas(c, h, out, d);
}

cr_status cr_plot_corpus_table(const cr_corpus *c, cr_table **out, cr_diag *d)
{
    *out = NULL;
    if (c->n_logs == 0)
        return cr_diag_set(d, CR_EUNSUPPORTED, "the corpus's split names no log");
    cr_table *t = cr_table_new("Measurement corpus: |error| per half, system and size band");
    if (!t)
        return oom(d);
    cr_status st = CR_OK;
    int ch = cr_table_col(t, "half", "", true, 0), cs = cr_table_col(t, "system", "", true, 0),
        cl = cr_table_col(t, "logs", "", false, 3), cb[CR_CORPUS_BAND_ALL + 1][4];
    static const char *const stem[] = {"small", "mid", "large", "all"};
    bool ok = ch >= 0 && cs >= 0 && cl >= 0;
    for (int b = 0; b <= CR_CORPUS_BAND_ALL && ok; b++) {
        char name[64];
        snprintf(name, sizeof name, "%s_rows", stem[b]);
        cb[b][0] = cr_table_col(t, name, "", false, 6);
        snprintf(name, sizeof name, "%s_median_abs_err", stem[b]);
        cb[b][1] = cr_table_col(t, name, "%", false, 3);
        snprintf(name, sizeof name, "%s_p90_abs_err", stem[b]);
        cb[b][2] = cr_table_col(t, name, "%", false, 3);
        snprintf(name, sizeof name, "%s_violations", stem[b]);
        cb[b][3] = cr_table_col(t, name, "", false, 6);
        ok = cb[b][0] >= 0 && cb[b][1] >= 0 && cb[b][2] >= 0 && cb[b][3] >= 0;
    }
    if (!ok ||
        cr_table_note(t, "bands: small <= 1 MiB, mid 1-64 MiB, large > 64 MiB, all: every "
                         "size; |error| of the prediction against the measured "
                         "out-of-place time (commroof validate --nccl-tests)") != CR_OK ||
        cr_table_note(t, "the fitting half and the checking half are never summed together; "
                         "system \"all\": every system of the half") != CR_OK) {
        st = oom(d);
        goto fail;
    }
    for (int h = 0; h < CR_CORPUS__HALVES && st == CR_OK; h++)
        for (int g = -1; g < c->n_systems && st == CR_OK; g++) {
            const char *sys = g < 0 ? NULL : c->systems[g];
            cr_corpus_stats s[CR_CORPUS_BAND_ALL + 1];
            for (int b = 0; b <= CR_CORPUS_BAND_ALL && st == CR_OK; b++)
                if (cr_corpus_stats_of(c, (cr_corpus_half)h, sys, b, &s[b]) != CR_OK)
                    st = oom(d);
            if (st != CR_OK || (sys && s[CR_CORPUS_BAND_ALL].rows == 0))
                continue;
            int r = cr_table_row(t);
            if (r < 0 ||
                cr_table_set_text(t, r, ch, cr_corpus_half_name((cr_corpus_half)h)) != CR_OK ||
                cr_table_set_text(t, r, cs, sys ? sys : "all") != CR_OK ||
                cr_table_set_num(t, r, cl, s[CR_CORPUS_BAND_ALL].logs) != CR_OK) {
                st = oom(d);
                break;
            }
            for (int b = 0; b <= CR_CORPUS_BAND_ALL && st == CR_OK; b++) {
                if (s[b].rows == 0)
                    continue;
                if (cr_table_set_num(t, r, cb[b][0], s[b].rows) != CR_OK ||
                    cr_table_set_num(t, r, cb[b][1], s[b].median_abs_err_pct) != CR_OK ||
                    cr_table_set_num(t, r, cb[b][2], s[b].p90_abs_err_pct) != CR_OK ||
                    cr_table_set_num(t, r, cb[b][3], s[b].violations) != CR_OK)
                    st = oom(d);
            }
        }
    /* the logs that are not compared, with the reason */
    for (int i = 0; i < c->n_logs && st == CR_OK; i++) {
        const cr_corpus_log *lg = &c->logs[i];
        if (lg->status == CR_CORPUS_LOG_OK)
            continue;
        char note[1400];
        snprintf(note, sizeof note, "not compared (%s half): %s: %s%s",
                 cr_corpus_half_name(lg->half), lg->path,
                 lg->status == CR_CORPUS_LOG_NO_TOPO ? "no topology: " : "", lg->why);
        if (cr_table_note(t, note) != CR_OK)
            st = oom(d);
    }
    if (st != CR_OK)
        goto fail;
    *out = t;
    return CR_OK;
fail:
    cr_table_free(t);
    return st;
}
