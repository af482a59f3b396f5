/* SPDX-License-Identifier: MIT */
/* Measurements for the charts (see measured_priv.h). */
#include "plots/measured_priv.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void cr_plot_meas_release(cr_plot_meas *m)
{
    if (!m)
        return;
    cr_vmeas_list_release(&m->list);
    free(m->res);
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

/* A folder: every *.json in it, in name order (stable charts). */
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
        if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0 || e->d_name[0] == '.')
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
        st = cr_diag_set(d, CR_EIO, "%s holds no traces (*.json)", dir);
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
    cr_status st = CR_OK;
    for (int i = 0; i < s->n_traces && st == CR_OK; i++) {
        struct stat sb;
        if (stat(s->traces[i], &sb) != 0)
            return cr_diag_set(d, CR_EIO, "trace %s: %s", s->traces[i], strerror(errno));
        st = S_ISDIR(sb.st_mode) ? read_folder(s->traces[i], m, d)
                                 : read_one_trace(s->traces[i], m, d);
    }
    for (int i = 0; i < s->n_nccl_logs && st == CR_OK; i++) {
        st = cr_validate_read_nccl_tests(s->nccl_logs[i], &m->list, d);
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
        if (cr_validate_eval(s->meas_topo ? s->meas_topo : t, &m->list.v[i], NULL, &m->res[i],
                             &ed) != CR_OK)
            snprintf(m->res[i].note, sizeof m->res[i].note, "%.150s", ed.msg);
    }
    return CR_OK;
}

cr_status cr_plot_read_measured_json(const char *path, char ***names, double **us, int *n,
                                     cr_diag *d)
{
    *names = NULL;
    *us = NULL;
    *n = 0;
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        if (json_error_code(&je) == json_error_cannot_open_file)
            return cr_diag_set(d, CR_EIO, "%s", je.text);
        return cr_diag_set(d, CR_EPARSE, "%s:%d: %s", path, je.line, je.text);
    }
    json_t *arr = json_is_array(root) ? root : json_object_get(root, "results");
    cr_status st = CR_OK;
    if (!json_is_array(arr)) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s: expected a JSON array of results, or {\"results\": [...]}", path);
        goto out;
    }
    size_t cnt = json_array_size(arr);
    *names = calloc(cnt ? cnt : 1, sizeof **names);
    *us = calloc(cnt ? cnt : 1, sizeof **us);
    if (!*names || !*us) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < cnt; i++) {
        json_t *e = json_array_get(arr, i);
        const char *nm = json_string_value(json_object_get(e, "name"));
        json_t *mv = json_object_get(e, "measured_us");
        double v = json_is_number(mv) ? json_number_value(mv) : NAN;
        if (!nm || !nm[0]) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s: result %zu has no \"name\" (the suite problem "
                             "it measures)",
                             path, i);
            goto out;
        }
        if (!(v > 0) || !isfinite(v)) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s: result %zu (\"%s\"): \"measured_us\" must be a positive "
                             "number of microseconds",
                             path, i, nm);
            goto out;
        }
        (*names)[*n] = strdup(nm);
        if (!(*names)[*n]) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        (*us)[*n] = v;
        (*n)++;
    }
out:
    json_decref(root);
    if (st != CR_OK) {
        for (int i = 0; i < *n; i++)
            free((*names)[i]);
        free(*names);
        free(*us);
        *names = NULL;
        *us = NULL;
        *n = 0;
    }
    return st;
}
