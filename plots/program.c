/* SPDX-License-Identifier: MIT */
/*
 * The program roofline's table and gap chart (see sources.h): the rows and
 * totals are cr_roofline_read()'s (validate/roofline.c), the same that
 * `commroof roofline` prints; nothing is evaluated here. The chart is the
 * gap chart of plots.c (cr_plot_gap_of), one category per operator.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots/sources.h"
#include "sbuf.h"

#define US 1e6

static cr_status oom(cr_diag *d)
{
    return cr_diag_set(d, CR_ENOMEM, "out of memory");
}

cr_status cr_plot_program_table(const cr_roofline *r, const char *topo_name, cr_table **out,
                                cr_diag *d)
{
    *out = NULL;
    if (r->n == 0)
        return cr_diag_set(d, CR_EUNSUPPORTED,
                           "the traces hold no GPU activity (kernel, copy or memset)");
    char line[1024];
    snprintf(line, sizeof line, "commroof roofline on %s: %d trace file(s), %zu row(s)", topo_name,
             r->files, r->n);
    cr_table *t = cr_table_new(line);
    if (!t)
        return oom(d);
    /* the keys of `commroof roofline --json` */
    static const struct {
        const char *name, *unit;
        bool text;
        int prec;
    } cols[] = {
        {"kind", "", true, 0},
        {"op", "", true, 0},
        {"args", "", true, 0},
        {"calls", "", false, 10},
        {"measured_us", "us", false, 4}, /* 4 digits as every table; the JSON keeps all */
        {"min_us", "us", false, 4},      /* the fastest call: the one held to the bound */
        {"total_us", "us", false, 4},
        {"bound_us", "us", false, 4},
        {"bound_cold_us", "us", false, 4},
        {"pct_of_roofline", "%", false, 4},
        {"save_us", "us", false, 4},
        {"binding", "", true, 0},
        {"verdict", "", true, 0},
        {"dtype", "", true, 0},
        {"dtype_source", "", true, 0},
        {"model", "", true, 0},
        {"note", "", true, 0},
    };
    cr_status st = CR_OK;
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        if (cr_table_col(t, cols[c].name, cols[c].unit, cols[c].text, cols[c].prec) < 0) {
            st = oom(d);
            goto fail;
        }
    cr_roofline_totals(r, line, sizeof line);
    if (cr_table_note(t, line) != CR_OK) {
        st = oom(d);
        goto fail;
    }
    /* a table that bounds nothing checks nothing: said as `commroof
     * roofline` says it, not "OK: 0 row(s) with a time below the bound" */
    if (!cr_roofline_unchecked(r, line, sizeof line))
        snprintf(line, sizeof line, "%s: %d row(s) with a time below the bound%s",
                 r->violations ? "FAILED" : "OK", r->violations,
                 r->violations ? " (impossible: a timing bug, a wrong attribution or a wrong bound)"
                               : "");
    if (cr_table_note(t, line) != CR_OK) {
        st = oom(d);
        goto fail;
    }
    for (size_t i = 0; i < r->n; i++) {
        const cr_rf_row *w = &r->rows[i];
        int k = cr_table_row(t);
        double nb = NAN;
        if (k < 0 || cr_table_set_text(t, k, 0, cr_rf_kind_name(w->kind)) != CR_OK ||
            cr_table_set_text(t, k, 1, w->op) != CR_OK ||
            cr_table_set_text(t, k, 2, w->args) != CR_OK ||
            cr_table_set_num(t, k, 3, w->calls) != CR_OK ||
            cr_table_set_num(t, k, 4, w->median_s * US) != CR_OK ||
            cr_table_set_num(t, k, 5, w->min_s * US) != CR_OK ||
            cr_table_set_num(t, k, 6, w->total_s * US) != CR_OK ||
            cr_table_set_num(t, k, 7, w->has_bound ? w->bound_s * US : nb) != CR_OK ||
            cr_table_set_num(t, k, 8, w->has_bound ? w->bound_cold_s * US : nb) != CR_OK ||
            cr_table_set_num(t, k, 9, w->has_bound ? w->pct_of_roofline : nb) != CR_OK ||
            cr_table_set_num(t, k, 10, w->has_bound ? w->save_s * US : nb) != CR_OK ||
            cr_table_set_text(t, k, 11, w->has_bound ? w->binding : "") != CR_OK ||
            cr_table_set_text(t, k, 12, w->has_bound ? w->verdict : "") != CR_OK ||
            cr_table_set_text(t, k, 13, w->dtype) != CR_OK ||
            cr_table_set_text(t, k, 14, w->dtype_src) != CR_OK ||
            cr_table_set_text(t, k, 15, w->model) != CR_OK ||
            cr_table_set_text(t, k, 16, w->note) != CR_OK) {
            st = oom(d);
            goto fail;
        }
    }
    *out = t;
    return CR_OK;
fail:
    cr_table_free(t);
    return st;
}

/* A category label for the chart (the table has the row whole): the
 * operator without "aten::", its shapes as "4096x1024 1024x8192" (empty
 * ones left out); the caller shortens it (cr_chart_short_label). */
static void compact_label(const cr_rf_row *w, char *buf, size_t size)
{
    const char *op = strncmp(w->op, "aten::", 6) ? w->op : w->op + 6;
    size_t l = (size_t)snprintf(buf, size, "%s", op);
    l = l < size ? l : size - 1;
    if (w->kind == CR_RF_ATEN) {
        /* "[[4096, 1024], [], [1024, 8192]]" -> " 4096x1024 1024x8192" */
        bool open = false;
        int depth = 0;
        for (const char *a = w->args; *a && l + 2 < size; a++) {
            if (*a == '[') {
                depth++;
                open = false;
            } else if (*a == ']') {
                depth--;
            } else if (*a >= '0' && *a <= '9' && depth >= 2) {
                if (!open)
                    buf[l++] = ' ';
                else if (a[-1] == ' ' || a[-1] == ',')
                    buf[l++] = 'x';
                open = true;
                buf[l++] = *a;
            }
        }
        buf[l] = '\0';
    } else if (w->args[0]) {
        snprintf(buf + l, size - l, " %s", w->args);
    }
}

cr_status cr_plot_program_gap(const cr_roofline *r, const char *topo_name, const char *source,
                              int top, cr_chart **out, cr_diag *d)
{
    *out = NULL;
    size_t nb = 0;
    for (size_t i = 0; i < r->n; i++)
        nb += r->rows[i].has_bound;
    if (nb == 0)
        return cr_diag_set(d, CR_EUNSUPPORTED,
                           "no operator of the traces has a bound (the table lists them)");
    if (top <= 0)
        top = CR_PLOT_PROGRAM_TOP;
    size_t *ix = malloc(nb * sizeof *ix);
    cr_gap_row *g = calloc(nb + 1, sizeof *g);
    char(*names)[4 * CR_CHART_LABEL_CHARS + 1] = calloc(nb + 1, sizeof *names);
    cr_status st = CR_OK;
    if (!ix || !g || !names) {
        st = oom(d);
        goto out;
    }
    if (cr_roofline_by_save(r, r->n, ix, &nb) != CR_OK) { /* most time to save first */
        st = oom(d);
        goto out;
    }
    /* the top rows, and every row whose time is below its bound (an
     * impossible time stays in sight); the rest summed into one bar */
    int ng = 0, rest = 0;
    double rb = 0, rm = 0, rc = 0;
    for (size_t j = 0; j < nb; j++) {
        const cr_rf_row *w = &r->rows[ix[j]];
        if ((size_t)ng < (size_t)top || w->violation) {
            char full[300];
            compact_label(w, full, sizeof full);
            cr_chart_short_label(full, CR_CHART_LABEL_CHARS, names[ng], sizeof names[ng]);
            for (int k = 0; k < ng; k++)
                if (!strcmp(names[k], names[ng])) {
                    /* the rank keeps two operators apart, within the
                     * chart's label length so that it is never cut */
                    char suf[24];
                    snprintf(suf, sizeof suf, " #%zu", j + 1);
                    cr_chart_short_label(full, CR_CHART_LABEL_CHARS - strlen(suf), names[ng],
                                         sizeof names[ng] - strlen(suf));
                    size_t l = strlen(names[ng]);
                    cr_str_copy(names[ng] + l, sizeof names[ng] - l, suf);
                    break;
                }
            g[ng] = (cr_gap_row){names[ng], w->bound_s, 0, 0, {w->median_s, w->bound_cold_s}};
            ng++;
        } else {
            rest++;
            rb += w->calls * w->bound_s;
            rm += w->total_s;
            rc += w->calls * w->bound_cold_s;
        }
    }
    if (rest > 0) {
        snprintf(names[ng], sizeof names[ng], "the other %d operators (summed)", rest);
        g[ng] = (cr_gap_row){names[ng], rb, 0, 0, {rm, rc}};
        ng++;
    }
    char ctx[600], tot[256];
    cr_roofline_totals(r, tot, sizeof tot);
    snprintf(ctx, sizeof ctx,
             "%s; bound: warm (data reused from L2 where it fits), 100%%; %zu operator%s with a "
             "bound, most time to save first%s; %s",
             topo_name, nb, nb == 1 ? "" : "s", rest ? ", the rest summed" : "", tot);
    static const char *const series[2] = {"measured: median device time per call",
                                          "cold bound (every byte from HBM)"};
    st = cr_plot_gap_of("operator", ctx, source, series, 2, g, ng, out, d);
out:
    free(ix);
    free(g);
    free(names);
    return st;
}
