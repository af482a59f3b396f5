/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for `commroof roofline` past the trace reader: the
 * table cr_roofline_read builds from a trace (emit_nvtx ranges and their
 * input_op_ids, element types from kernel names and from operands'
 * producers, NCCL ranges and payloads, cr: ranges, unowned kernels) on the
 * default topology. tests/fuzz/build.sh builds it; test_roofline.c replays
 * tests/fuzz/corpus/roofline_trace/ through this same function.
 * fuzz-max-len: 65536
 * fuzz-seeds: tests/fixtures/roofline tests/fixtures/roofline/audit tests/fixtures/traces
 *
 * Input: a trace file's bytes (written to a temporary .json file, the
 * only way in: the table reads paths as the command does).
 *
 * Properties: no crash, leak or undefined behaviour; a failure says why
 * and leaves no rows; every row is well formed (a kind, an operator name,
 * at least one call, times finite with min <= median <= total, text
 * fields that JSON can hold); a row with a bound has a finite warm bound
 * no larger than the cold one, its calls' bounds adding up to at least
 * calls x bound, save = total - that sum, a verdict, and is impossible
 * whenever its fastest call beats the bound (and only then says so); a
 * row without a bound has no verdict; the totals are the rows' sums; the
 * rows come longest first; cr_roofline_by_save orders the bounded rows by
 * what they could save; reading the same bytes again gives the same
 * table; with --dtype and --ranks the same properties hold.
 */
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ops.h"
#include "topo_xml.h"
#include "validate/roofline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a and b equal to a part in 10^9 (sums taken in another order) */
static bool fuzz_rf_close(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-18;
}

static bool fuzz_rf_json_text(const char *s)
{
    json_t *j = json_string(s);
    json_decref(j);
    return j != NULL;
}

static void fuzz_rf_check_row(const cr_rf_row *w)
{
    if ((unsigned)w->kind > CR_RF_KERNEL || !w->op[0] || w->calls < 1)
        abort();
    if (!fuzz_rf_json_text(w->op) || !fuzz_rf_json_text(w->args) || !fuzz_rf_json_text(w->model) ||
        !fuzz_rf_json_text(w->note))
        abort();
    /* a crbench case timed otherwise than per iteration keeps its median
     * alone: no fastest call (min_s NaN, roofline.c rows_from_cr) */
    bool no_min = w->kind == CR_RF_CR && isnan(w->min_s);
    if (!isfinite(w->median_s) || (!no_min && !isfinite(w->min_s)) || !isfinite(w->total_s) ||
        (!no_min && (!(w->min_s >= 0) || w->min_s > w->median_s)) ||
        w->median_s > w->total_s * (1 + 1e-9))
        abort();
    if (!w->has_bound) {
        if (w->verdict[0] || w->violation)
            abort();
        return;
    }
    /* save_s is 0, not negative, where the calls beat their bounds (13b92e6) */
    if (!isfinite(w->bound_s) || !(w->bound_s >= 0) || !isfinite(w->bound_cold_s) ||
        w->bound_cold_s < w->bound_s * (1 - 1e-9) || !isfinite(w->bound_total_s) ||
        w->bound_total_s < w->calls * w->bound_s * (1 - 1e-9) ||
        !fuzz_rf_close(w->save_s, fmax(0.0, w->total_s - w->bound_total_s)) || !w->verdict[0])
        abort();
    if (cr_below_bound(w->min_s, w->bound_s) && !w->violation)
        abort();
    if (w->violation != (strcmp(w->verdict, cr_verdict_name(CR_VERDICT_IMPOSSIBLE)) == 0))
        abort();
}

static void fuzz_rf_check_table(const cr_roofline *r)
{
    double total = 0, covered = 0, save = 0;
    int violations = 0;
    size_t bounded = 0;
    for (size_t i = 0; i < r->n; i++) {
        const cr_rf_row *w = &r->rows[i];
        fuzz_rf_check_row(w);
        if (i > 0 && w->total_s > r->rows[i - 1].total_s)
            abort();
        total += w->total_s;
        if (w->has_bound) {
            bounded++;
            covered += w->total_s;
            save += w->save_s > 0 ? w->save_s : 0;
            violations += w->violation;
        }
    }
    if (!fuzz_rf_close(total, r->total_s) || !fuzz_rf_close(covered, r->covered_s) ||
        !fuzz_rf_close(save, r->save_s) || violations != r->violations ||
        r->covered_s > r->total_s * (1 + 1e-9))
        abort();
    size_t *idx = malloc((r->n ? r->n : 1) * sizeof *idx), count = 0;
    if (!idx)
        abort();
    if (cr_roofline_by_save(r, r->n, idx, &count) != CR_OK || count != bounded)
        abort();
    for (size_t j = 0; j < count; j++)
        if (idx[j] >= r->n || !r->rows[idx[j]].has_bound ||
            (j > 0 && r->rows[idx[j]].save_s > r->rows[idx[j - 1]].save_s))
            abort();
    free(idx);
    char line[24]; /* shorter than the line: cut, never past the buffer */
    cr_roofline_totals(r, line, sizeof line);
    if (strlen(line) >= sizeof line)
        abort();
}

/* Reads path into *r; checks the failure's or the table's properties. */
static cr_status fuzz_rf_read(const cr_topo *t, const char *path, const cr_roofline_opts *o,
                              cr_roofline *r)
{
    cr_diag d = {{0}};
    cr_status st = cr_roofline_read(t, &path, 1, o, r, &d);
    if (st != CR_OK) {
        if (!d.msg[0] || r->n != 0 || r->rows)
            abort();
        return st;
    }
    fuzz_rf_check_table(r);
    return st;
}

/* x and y the same figure, NaN included (a row with no fastest call) */
static bool fuzz_rf_same_num(double x, double y)
{
    return x == y || (isnan(x) && isnan(y));
}

static bool fuzz_rf_same_row(const cr_rf_row *a, const cr_rf_row *b)
{
    return a->kind == b->kind && !strcmp(a->op, b->op) && !strcmp(a->args, b->args) &&
           !strcmp(a->model, b->model) && !strcmp(a->dtype, b->dtype) &&
           !strcmp(a->dtype_src, b->dtype_src) && a->calls == b->calls &&
           a->median_s == b->median_s && fuzz_rf_same_num(a->min_s, b->min_s) &&
           a->total_s == b->total_s && a->has_bound == b->has_bound &&
           (!a->has_bound || (a->bound_s == b->bound_s && a->bound_cold_s == b->bound_cold_s &&
                              a->bound_total_s == b->bound_total_s)) &&
           !strcmp(a->binding, b->binding) && a->violation == b->violation &&
           !strcmp(a->verdict, b->verdict) && !strcmp(a->note, b->note);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cr_topo *topo;
    if (!topo) {
        cr_diag d = {{0}};
        if (cr_topo_open(CR_TOPO_DEFAULT, &topo, &d) != CR_OK)
            abort();
    }
    /* a folder of its own, the file named as a trace is; both removed */
    const char *tmp = getenv("TMPDIR");
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/fuzz_roofline_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/trace.json", dir);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();

    cr_roofline a, b;
    if (fuzz_rf_read(topo, path, NULL, &a) == CR_OK) {
        /* the same bytes again: the same table (no state carried over) */
        if (fuzz_rf_read(topo, path, NULL, &b) != CR_OK || b.n != a.n)
            abort();
        for (size_t i = 0; i < a.n; i++)
            if (!fuzz_rf_same_row(&a.rows[i], &b.rows[i]))
                abort();
        cr_roofline_release(&b);
        cr_roofline_opts o = {.ranks = "0-3", .has_dtype = true, .dtype = CR_DT_BF16};
        if (fuzz_rf_read(topo, path, &o, &b) == CR_OK)
            cr_roofline_release(&b);
        cr_roofline_release(&a);
    }
    unlink(path);
    rmdir(dir);
    return 0;
}
