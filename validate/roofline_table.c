/* SPDX-License-Identifier: MIT */
/*
 * roofline's table once its rows are made (roofline.h, roofline_priv.h):
 * each row's totals and its fastest call against the bound, the order of
 * the rows, the totals line, the rows by what they could save. roofline.c
 * makes the rows from the traces.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "grow.h"
#include "ops.h"
#include "roofline.h"
#include "roofline_priv.h"
#include "traces/tracer/sb.h"

const char *cr_rf_kind_name(cr_rf_kind k)
{
    switch (k) {
    case CR_RF_ATEN:
        return "aten";
    case CR_RF_NCCL:
        return "nccl";
    case CR_RF_CR:
        return "cr";
    case CR_RF_KERNEL:
        return "kernel";
    }
    return "?";
}

/* --- the table ------------------------------------------------------------------ */

cr_rf_row *cr_rf_push_row(cr_roofline *r)
{
    if (cr_grow((void **)&r->rows, &r->cap, r->n + 1, sizeof *r->rows))
        return NULL;
    cr_rf_row *w = &r->rows[r->n++];
    memset(w, 0, sizeof *w);
    return w;
}

/* A duration in the unit that reads best (a program's totals run from
 * microseconds to minutes): "350.125 us", "24.002 ms", "8.980 s". */
static const char *duration_text(double s, char *buf, size_t n)
{
    double a = fabs(s);
    if (a >= 1.0)
        cr_snprintf_c(buf, n, "%.3f s", s);
    else if (a >= 1e-3)
        cr_snprintf_c(buf, n, "%.3f ms", s * 1e3);
    else
        cr_snprintf_c(buf, n, "%.3f us", s * 1e6);
    return buf;
}

void cr_roofline_totals(const cr_roofline *r, char *buf, size_t n)
{
    char t[32], c[32], v[32];
    cr_snprintf_c(
        buf, n, "device time %s; covered by a bound %s (%.1f%%); the program could save at best %s",
        duration_text(r->total_s, t, sizeof t), duration_text(r->covered_s, c, sizeof c),
        r->total_s > 0 ? 100 * r->covered_s / r->total_s : 0,
        duration_text(r->save_s, v, sizeof v));
}

bool cr_roofline_unchecked(const cr_roofline *r, char *buf, size_t n)
{
    size_t first = SIZE_MAX;
    for (size_t i = 0; i < r->n; i++) {
        if (r->rows[i].kind == CR_RF_KERNEL)
            continue;
        if (r->rows[i].has_bound)
            return false;
        if (first == SIZE_MAX)
            first = i;
    }
    if (first == SIZE_MAX)
        snprintf(buf, n,
                 "FAILED: no operator row, so nothing was checked: no kernel ran inside a range "
                 "roofline reads (PyTorch's emit_nvtx, NCCL's own, cr:); annotate the program "
                 "(doc/roofline.md)");
    else
        snprintf(buf, n,
                 "FAILED: no operator row got a bound, so nothing was checked; first: %s %s: %s",
                 r->rows[first].op, r->rows[first].args, r->rows[first].note);
    return true;
}

typedef struct {
    double save_s;
    size_t i;
} save_ix;

static int cmp_save(const void *a, const void *b)
{
    const save_ix *x = a, *y = b;
    if (x->save_s != y->save_s)
        return x->save_s < y->save_s ? 1 : -1;
    return x->i < y->i ? -1 : 1;
}

cr_status cr_roofline_by_save(const cr_roofline *r, size_t n, size_t *idx, size_t *count)
{
    *count = 0;
    if (n > r->n)
        n = r->n;
    save_ix *ix = malloc((n ? n : 1) * sizeof *ix);
    if (!ix)
        return CR_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (r->rows[i].has_bound)
            ix[k++] = (save_ix){r->rows[i].save_s, i};
    qsort(ix, k, sizeof *ix, cmp_save);
    for (size_t j = 0; j < k; j++)
        idx[j] = ix[j].i;
    *count = k;
    free(ix);
    return CR_OK;
}

void cr_roofline_release(cr_roofline *r)
{
    if (!r)
        return;
    free(r->rows);
    free(r->gpus);
    memset(r, 0, sizeof *r);
}

static int cmp_row(const void *x, const void *y)
{
    const cr_rf_row *a = x, *b = y;
    if (a->total_s != b->total_s)
        return (a->total_s < b->total_s) - (a->total_s > b->total_s);
    int k = strcmp(a->op, b->op);
    return k ? k : strcmp(a->args, b->args);
}

void cr_rf_finish_table(cr_roofline *out)
{
    for (size_t i = 0; i < out->n; i++) {
        cr_rf_row *w = &out->rows[i];
        /* a field cut to its size may end inside a character: the JSON
         * could not hold it (jansson refuses what is not UTF-8) */
        char *fields[] = {w->op, w->args, w->model, w->note};
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
            fields[f][sb_utf8_cut(fields[f], strlen(fields[f]))] = '\0';
        out->total_s += w->total_s;
        if (!w->has_bound)
            continue;
        /* no call may beat the bound, whatever the median does: the cold
         * one for a case whose data starts in HBM each time, as its
         * median is held (a call between the two bounds passed) */
        double held_s = w->held_cold ? w->bound_cold_s : w->bound_s;
        if (!w->violation && cr_below_bound(w->min_s, held_s)) {
            w->violation = true;
            cr_str_copy(w->verdict, sizeof w->verdict, cr_verdict_name(CR_VERDICT_IMPOSSIBLE));
            size_t used = strlen(w->note);
            cr_snprintf_c(w->note + used, sizeof w->note - used,
                          "%sthe fastest of %d calls took %.3f us, below the %sbound",
                          used ? "; " : "", w->calls, w->min_s * 1e6, w->held_cold ? "cold " : "");
        }
        if (!(w->bound_total_s > 0)) /* its calls share one bound */
            w->bound_total_s = w->calls * held_s;
        /* none to save where the calls beat the bound (the impossible
         * verdict says so): the rows then add up to the total (QA audit,
         * 2026-12-06: rows of -435 and -1835 us beside a total that left
         * them out) */
        w->save_s = fmax(0.0, w->total_s - w->bound_total_s);
        out->covered_s += w->total_s;
        out->save_s += w->save_s;
        out->violations += w->violation;
    }
    if (out->n > 1)
        qsort(out->rows, out->n, sizeof *out->rows, cmp_row);
    for (size_t i = 0; i < out->n; i++)
        if (out->rows[i].kind == CR_RF_CR && !out->rows[i].has_bound && out->cr_unbounded++ == 0)
            out->first_unbounded = i;
}
