/* SPDX-License-Identifier: MIT */
/* Measurements for the charts (see measured_priv.h). */
#include "sbuf.h"
#include "plots/measured_priv.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "grow.h"
#include "harness.h"
#include "json_items.h"
#include "topo_xml.h"

void cr_plot_meas_release(cr_plot_meas *m)
{
    if (!m)
        return;
    if (!m->borrowed) {
        cr_vmeas_list_release(&m->list);
        free(m->res);
    }
    memset(m, 0, sizeof *m);
}

cr_status cr_plot_meas_load(const cr_topo *t, const cr_plot_sources *s, cr_plot_meas *m, cr_diag *d)
{
    memset(m, 0, sizeof *m);
    if (!s || (s->n_traces == 0 && s->n_nccl_logs == 0))
        return cr_diag_set(d, CR_EUNSUPPORTED, "no traces or nccl-tests logs given");
    const cr_topo *et = s->meas_topo ? s->meas_topo : t;
    if (s->loaded && s->loaded->eval_topo == et) {
        *m = *s->loaded;
        m->borrowed = true;
        return CR_OK;
    }
    m->eval_topo = et;
    cr_status st = CR_OK;
    /* files or folders, gathered as validate gathers them */
    cr_vread_info ri;
    memset(&ri, 0, sizeof ri);
    for (int i = 0; i < s->n_traces && st == CR_OK; i++)
        st = cr_validate_read_path(s->traces[i], &m->list, &ri, d);
    m->n_files = ri.files;
    m->n_skipped = ri.skipped;
    m->n_not_traces = ri.not_traces;
    for (int i = 0; i < s->n_nccl_logs && st == CR_OK; i++) {
        size_t before = m->list.n;
        int skipped = m->list.nccl_tables_skipped;
        st = cr_validate_read_nccl_tests(s->nccl_logs[i], NULL, &m->list, d);
        /* a log given for its rows that has none is an error, as in
         * validate and calibrate, never a chart short of it */
        if (st == CR_OK)
            st = cr_validate_nccl_log_gave_rows(s->nccl_logs[i], &m->list, before, skipped, d);
        if (st == CR_OK)
            m->n_files++;
    }
    if (st != CR_OK)
        return st;
    m->res = calloc(m->list.n ? m->list.n : 1, sizeof *m->res);
    if (!m->res)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    /* one collective context per rank set, not per row */
    cr_validate_opts vo = {NULL, cr_validate_cache_new()};
    if (!vo.cache)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->list.n; i++) {
        cr_diag ed = {{0}};
        /* a case the model rejects stays in the list without figures: the
         * validation table shows why */
        if (cr_validate_eval(et, &m->list.v[i], &vo, &m->res[i], &ed) != CR_OK)
            snprintf(m->res[i].note, sizeof m->res[i].note, "%.150s", ed.msg);
    }
    cr_validate_cache_free(vo.cache);
    return CR_OK;
}

/* Whether two parameter sets of op agree on every parameter op takes. */
static bool params_equal(const cr_op_def *op, const cr_op_params *a, const cr_op_params *b)
{
    for (int p = 0; p < CR_OPP__COUNT; p++) {
        if (!cr_op_uses(op, (cr_opp)p))
            continue;
        double x = a->v[p], y = b->v[p];
        if (fabs(x - y) > 1e-9 * fmax(fabs(x), fabs(y)))
            return false;
    }
    return true;
}

/* The problem of suite named name, or with operator op and parameters p
 * (op NULL: by name only); -1 when none. */
static int find_problem(const cr_suite *suite, const char *name, const cr_op_def *op,
                        const cr_op_params *p)
{
    for (int i = 0; name && i < suite->n_problems; i++)
        if (strcmp(suite->problems[i].name, name) == 0)
            return i;
    for (int i = 0; op && i < suite->n_problems; i++)
        if (suite->problems[i].op == op && params_equal(op, &suite->problems[i].params, p))
            return i;
    return -1;
}

/* "baseline", or "overlap, 4 chunks" when the run was chunked. */
static void variant_text(const char *variant, double chunks, char *buf, size_t n)
{
    if (!variant || !variant[0])
        cr_str_copy(buf, n, "");
    else if (chunks > 1)
        cr_snprintf_c(buf, n, "%.40s, %.0f chunks", variant, chunks);
    else
        snprintf(buf, n, "%.60s", variant);
}

static cr_status push_mprob(cr_plot_mprob **v, int *n, size_t *cap, const cr_plot_mprob *e)
{
    if (*n == INT_MAX || cr_grow((void **)v, cap, (size_t)*n + 1, sizeof **v))
        return CR_ENOMEM;
    (*v)[(*n)++] = *e;
    return CR_OK;
}

/* One harness result (item i of path), read as check reads it
 * (harness.h), matched to a problem of suite. */
/* Whether the entry's "topo" (a shipped name or a file, as check reads it)
 * is t, the machine the suite's rows are evaluated on: check judges an
 * entry on its own topology, so one of another machine would show a bound,
 * a % of roofline and an exit status that check does not give (QA audit:
 * an entry of dgx-a100-8, impossible there, at 78% in a report of
 * hgx-h200-8, exit 0). */
static cr_status entry_topo_is(const cr_topo *t, const char *path, size_t i,
                               const cr_harness_result *hr, cr_diag *d)
{
    if (!t || !hr->topo || strcmp(hr->topo, t->name) == 0)
        return CR_OK;
    cr_topo *et = NULL;
    cr_diag td = {{0}};
    cr_status st = cr_topo_open(hr->topo, &et, &td);
    if (st != CR_OK)
        return cr_diag_set(d, st, "%s: entry %zu (\"%s\"): topo \"%s\": %s", path, i, hr->name,
                           hr->topo, td.msg);
    bool same = strcmp(et->name, t->name) == 0;
    if (!same)
        st = cr_diag_set(d, CR_EINVAL,
                         "%s: entry %zu (\"%s\") was measured on %s, not on %s, the machine "
                         "whose bounds this shows: give --topo %s, or leave the entry out "
                         "(commroof check --measured-json judges it on its own topology)",
                         path, i, hr->name, et->name, t->name, hr->topo);
    cr_topo_free(et);
    return st;
}

static cr_status match_result(const cr_topo *t, const cr_suite *suite, const char *path, size_t i,
                              json_t *e, cr_plot_mprob *mp, cr_diag *d)
{
    cr_harness_result hr;
    const cr_op_def *op = NULL;
    cr_op_params p;
    cr_diag hd = {{0}};
    cr_status st = cr_harness_result_read(e, i, CR_HARNESS_NEED_NAME, &hr, &hd);
    if (st == CR_OK)
        st = cr_harness_result_op(&hr, i, &op, &p, &hd);
    if (st != CR_OK)
        return cr_diag_set(d, st, "%s: %s", path, hd.msg);
    if ((st = entry_topo_is(t, path, i, &hr, d)) != CR_OK)
        return st;
    int k = find_problem(suite, hr.name, op, &p);
    /* what lists them: a shipped suite by name, a file by its path (QA
     * audit of 2026-12-06: "commroof suite mine" for a file's suite) */
    bool shipped = suite->origin && !strncmp(suite->origin, "suites/", 7);
    if (k < 0)
        return cr_diag_set(d, CR_EINVAL,
                           "%s: entry %zu (\"%s\") is neither a problem of suite %s nor "
                           "has the operator and parameters of one (commroof suite %s "
                           "lists them)",
                           path, i, hr.name, suite->name,
                           shipped || !suite->origin ? suite->name : suite->origin);
    *mp = (cr_plot_mprob){.problem = k, .measured_s = hr.measured_s};
    cr_str_copy(mp->source, sizeof mp->source, path);
    variant_text(hr.variant, hr.chunks, mp->variant, sizeof mp->variant);
    return CR_OK;
}

/* The harness results of path, each matched to a problem of suite. The
 * file is read an item at a time by the reader `check --measured-json`
 * uses (json_items.h): the same syntax rules, memory of one item. */
static cr_status match_json(const cr_topo *t, const cr_suite *suite, const char *path,
                            cr_plot_mprob **v, int *n, size_t *cap, cr_diag *d)
{
    FILE *f = NULL;
    if (cr_file_fopen_read(path, "a JSON file of harness results", CR_FILE_STREAM, &f, d) != CR_OK)
        return CR_EIO;
    cr_json_items *r = NULL;
    cr_status st = cr_json_items_open(f, path, "results", &r);
    if (st != CR_OK) {
        fclose(f);
        return cr_diag_set(d, st, "out of memory");
    }
    json_t *e = NULL;
    while ((st = cr_json_items_next(r, &e, d)) == CR_OK && e) {
        cr_plot_mprob mp;
        st = match_result(t, suite, path, cr_json_items_count(r) - 1, e, &mp, d);
        json_decref(e);
        if (st == CR_OK && push_mprob(v, n, cap, &mp) != CR_OK)
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        if (st != CR_OK)
            break;
    }
    cr_json_items_free(r);
    fclose(f);
    return st;
}

/* The parameters a trace case states: its operator's parameters by name,
 * ranks= as the size of the group the operator communicates over. false
 * when the case names no operator or a value does not parse. */
static bool case_params(const cr_vcase *c, const cr_op_def **op, cr_op_params *p)
{
    const char *opname = cr_vcase_get(c, "op");
    if (!opname || cr_op_find(opname, op, NULL) != CR_OK)
        return false;
    cr_op_params_defaults(*op, p);
    for (int i = 0; i < c->n_keys; i++) {
        int q = cr_opp_parse(c->kv[i].key);
        if (q < 0 || !cr_op_uses(*op, (cr_opp)q))
            continue;
        if (cr_op_param_set(*op, p, c->kv[i].key, c->kv[i].value, NULL) != CR_OK)
            return false;
    }
    const char *ranks = cr_vcase_get(c, "ranks");
    if (ranks) {
        int g = -1;
        if (cr_op_uses(*op, CR_OPP_GROUP))
            g = CR_OPP_TP + (int)p->v[CR_OPP_GROUP];
        for (int q = CR_OPP_TP; g < 0 && q <= CR_OPP_PP; q++)
            if (cr_op_uses(*op, (cr_opp)q))
                g = q;
        if (g < 0 || cr_op_param_set(*op, p, cr_opp_name((cr_opp)g), ranks, NULL) != CR_OK)
            return false;
    }
    return true;
}

cr_status cr_plot_match_measured(const cr_topo *t, const cr_suite *suite, const cr_plot_sources *s,
                                 const cr_plot_meas *m, cr_plot_mprob **out, int *n,
                                 cr_plot_mprob_count *count, cr_diag *d)
{
    *out = NULL;
    *n = 0;
    memset(count, 0, sizeof *count);
    size_t cap = 0;
    cr_status st = CR_OK;
    if (s && s->measured_json &&
        (st = match_json(t, suite, s->measured_json, out, n, &cap, d)) != CR_OK)
        goto fail;
    count->n_json = *n;
    for (size_t i = 0; m && i < m->list.n; i++) {
        const cr_vmeas *v = &m->list.v[i];
        const cr_op_def *op = NULL;
        cr_op_params p;
        const char *pname = cr_vcase_get(&v->c, "problem");
        bool have = case_params(&v->c, &op, &p);
        int k = find_problem(suite, pname, have ? op : NULL, &p);
        if (k < 0 || !(v->measured_s > 0))
            continue;
        double chunks = 0;
        cr_vcase_num(&v->c, "chunks", &chunks, NULL);
        cr_plot_mprob mp = {.problem = k, .measured_s = v->measured_s, .from_trace = true};
        cr_str_copy(mp.source, sizeof mp.source, v->source);
        variant_text(cr_vcase_get(&v->c, "variant"), chunks, mp.variant, sizeof mp.variant);
        bool dup = false;
        for (int j = 0; j < count->n_json && !dup; j++)
            dup = (*out)[j].problem == k && strcmp((*out)[j].variant, mp.variant) == 0;
        if (dup) {
            count->n_dup++;
            continue;
        }
        if (push_mprob(out, n, &cap, &mp) != CR_OK) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto fail;
        }
        count->n_trace++;
    }
    return CR_OK;
fail:
    free(*out);
    *out = NULL;
    *n = 0;
    return st;
}
