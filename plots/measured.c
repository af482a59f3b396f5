/* SPDX-License-Identifier: MIT */
/* Measurements for the charts (see measured_priv.h). */
#include "plots/measured_priv.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "json_items.h"
#include "ops_json.h"

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

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static cr_status read_one_trace(const char *path, cr_plot_meas *m, cr_diag *d)
{
    int skipped = 0;
    char why[256] = "";
    cr_status st = cr_validate_read_trace(path, &m->list, &skipped, why, sizeof why, d);
    if (st == CR_OK) {
        m->n_files++;
        m->n_skipped += skipped;
    }
    return st;
}

/* A folder: every *.json and *.json.gz in it (validate reads both), in
 * name order (stable charts). */
static cr_status read_folder(const char *dir, cr_plot_meas *m, cr_diag *d)
{
    DIR *dh = opendir(dir);
    if (!dh)
        return cr_diag_set(d, CR_EIO, "cannot read folder %s: %s", dir, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    cr_status st = CR_OK;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        size_t l = strlen(e->d_name);
        bool json = l > 5 && strcmp(e->d_name + l - 5, ".json") == 0;
        bool gz = l > 8 && strcmp(e->d_name + l - 8, ".json.gz") == 0;
        if (!(json || gz) || e->d_name[0] == '.')
            continue;
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 16;
            char **nn = realloc(names, ncap * sizeof *nn);
            if (!nn) {
                st = cr_diag_set(d, CR_ENOMEM, "out of memory");
                goto out;
            }
            names = nn;
            cap = ncap;
        }
        size_t pl = strlen(dir) + l + 2;
        names[n] = malloc(pl);
        if (!names[n]) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        snprintf(names[n], pl, "%s/%s", dir, e->d_name);
        n++;
    }
    if (n == 0) {
        st = cr_diag_set(d, CR_EIO, "%s holds no traces (*.json, *.json.gz)", dir);
        goto out;
    }
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n && st == CR_OK; i++)
        st = read_one_trace(names[i], m, d);
out:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(dh);
    return st;
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
    for (int i = 0; i < s->n_traces && st == CR_OK; i++) {
        struct stat sb;
        if (stat(s->traces[i], &sb) != 0)
            return cr_diag_set(d, CR_EIO, "trace %s: %s", s->traces[i], strerror(errno));
        st = S_ISDIR(sb.st_mode) ? read_folder(s->traces[i], m, d)
                                 : read_one_trace(s->traces[i], m, d);
    }
    for (int i = 0; i < s->n_nccl_logs && st == CR_OK; i++) {
        st = cr_validate_read_nccl_tests(s->nccl_logs[i], NULL, &m->list, d);
        if (st == CR_OK)
            m->n_files++;
    }
    if (st != CR_OK)
        return st;
    m->res = calloc(m->list.n ? m->list.n : 1, sizeof *m->res);
    if (!m->res)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->list.n; i++) {
        cr_diag ed = {{0}};
        /* a case the model rejects stays in the list without figures: the
         * validation table shows why */
        if (cr_validate_eval(et, &m->list.v[i], NULL, &m->res[i], &ed) != CR_OK)
            snprintf(m->res[i].note, sizeof m->res[i].note, "%.150s", ed.msg);
    }
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
        snprintf(buf, n, "%s", "");
    else if (chunks > 1)
        snprintf(buf, n, "%.40s, %.0f chunks", variant, chunks);
    else
        snprintf(buf, n, "%.60s", variant);
}

static cr_status push_mprob(cr_plot_mprob **v, int *n, int *cap, const cr_plot_mprob *e)
{
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 16;
        cr_plot_mprob *nv = realloc(*v, (size_t)nc * sizeof *nv);
        if (!nv)
            return CR_ENOMEM;
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = *e;
    return CR_OK;
}

/* One harness result (item i of path), matched to a problem of suite. */
static cr_status match_result(const cr_suite *suite, const char *path, size_t i, json_t *e,
                              cr_plot_mprob *mp, cr_diag *d)
{
    const char *nm = json_string_value(json_object_get(e, "name"));
    const char *opname = json_string_value(json_object_get(e, "op"));
    json_t *mv = json_object_get(e, "measured_us");
    double us = json_is_number(mv) ? json_number_value(mv) : NAN;
    if (!nm || !nm[0])
        return cr_diag_set(d, CR_EPARSE,
                           "%s: result %zu has no \"name\" (the suite problem it measures)", path,
                           i);
    if (!(us > 0) || !isfinite(us))
        return cr_diag_set(d, CR_EPARSE,
                           "%s: result %zu (\"%s\"): \"measured_us\" must be a positive "
                           "number of microseconds",
                           path, i, nm);
    const cr_op_def *op = NULL;
    cr_op_params p;
    cr_diag pd = {{0}};
    if (opname && (cr_op_find(opname, &op, &pd) != CR_OK ||
                   cr_op_params_from_json(op, json_object_get(e, "params"), &p, &pd) != CR_OK))
        return cr_diag_set(d, CR_EPARSE, "%s: result %zu (\"%s\"): %s", path, i, nm, pd.msg);
    int k = find_problem(suite, nm, op, &p);
    if (k < 0)
        return cr_diag_set(d, CR_EINVAL,
                           "%s: result %zu (\"%s\") is neither a problem of suite %s nor "
                           "has the operator and parameters of one (commroof suite %s "
                           "lists them)",
                           path, i, nm, suite->name, suite->name);
    json_t *ch = json_object_get(e, "chunks");
    *mp = (cr_plot_mprob){.problem = k, .measured_s = us * 1e-6};
    snprintf(mp->source, sizeof mp->source, "%s", path);
    variant_text(json_string_value(json_object_get(e, "variant")),
                 json_is_number(ch) ? json_number_value(ch) : 0, mp->variant, sizeof mp->variant);
    return CR_OK;
}

/* The harness results of path, each matched to a problem of suite. The
 * file is read an item at a time by the reader `check --measured-json`
 * uses (json_items.h): the same syntax rules, memory of one item. */
static cr_status match_json(const cr_suite *suite, const char *path, cr_plot_mprob **v, int *n,
                            int *cap, cr_diag *d)
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
        st = match_result(suite, path, cr_json_items_count(r) - 1, e, &mp, d);
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

cr_status cr_plot_match_measured(const cr_suite *suite, const cr_plot_sources *s,
                                 const cr_plot_meas *m, cr_plot_mprob **out, int *n,
                                 cr_plot_mprob_count *count, cr_diag *d)
{
    *out = NULL;
    *n = 0;
    memset(count, 0, sizeof *count);
    int cap = 0;
    cr_status st = CR_OK;
    if (s && s->measured_json &&
        (st = match_json(suite, s->measured_json, out, n, &cap, d)) != CR_OK)
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
        snprintf(mp.source, sizeof mp.source, "%s", v->source);
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
