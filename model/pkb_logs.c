/* SPDX-License-Identifier: MIT */
/*
 * ParallelKernelBench per-rank timings (see pkb_logs.h): the folder walk
 * and the rank_<r>_perf.json reader.
 */
#define _XOPEN_SOURCE 700 /* realpath() */
#include "pkb_logs.h"
#include "pkb_logs_priv.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "fileio.h"
#include "grow.h"
#include "harness.h"

/* A perf file holds a dozen numbers (performance.py): 1 MiB is far beyond
 * any real one and keeps a wrong file from being read whole. */
#define PERF_MAX_BYTES ((size_t)1 << 20)

/* "a/b" in new memory, or NULL. */
static char *join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 2);
    if (!s)
        return NULL;
    memcpy(s, a, la);
    s[la] = '/';
    memcpy(s + la + 1, b, lb + 1);
    return s;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The rank of a file named rank_<r>_perf.json, -1 for any other name,
 * CR_PKB_LOGS_MAX_RANKS for a rank at or beyond the limit. */
static int rank_of(const char *name)
{
    if (strncmp(name, "rank_", 5) != 0)
        return -1;
    const char *p = name + 5;
    long r = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        if (r < CR_PKB_LOGS_MAX_RANKS)
            r = r * 10 + (*p - '0');
    if (!digits || strcmp(p, "_perf.json") != 0)
        return -1;
    return r < CR_PKB_LOGS_MAX_RANKS ? (int)r : CR_PKB_LOGS_MAX_RANKS;
}

/* The 1-based line of the first "key" in buf (where a value's fault is
 * reported), 1 when absent. */
static int key_line(const char *buf, const char *key)
{
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *at = strstr(buf, quoted);
    int line = 1;
    for (const char *p = buf; at && p < at; p++)
        line += *p == '\n';
    return line;
}

/* Reads path (at most PERF_MAX_BYTES) into new NUL-terminated memory of
 * *len bytes before the NUL. */
static cr_status slurp(const char *path, char **out, size_t *out_len, cr_diag *d)
{
    *out = NULL;
    *out_len = 0;
    int fd = -1;
    cr_status st =
        cr_file_open_read(path, "a ParallelKernelBench rank_<r>_perf.json file", 0, &fd, NULL, d);
    if (st != CR_OK)
        return st;
    long long size = 0;
    st = cr_file_read_fd(fd, path, PERF_MAX_BYTES, out, out_len, &size, NULL, d);
    close(fd);
    if (st == CR_ERANGE)
        st = cr_diag_set(d, CR_ERANGE,
                         "%s: larger than %zu bytes: a rank_<r>_perf.json holds a dozen "
                         "numbers (utils/performance.py); is this the right file?",
                         path, PERF_MAX_BYTES);
    return st;
}

/* A time key of obj: absent is fine unless required; present, a finite
 * number of milliseconds above zero (at or above zero for a deviation). */
static cr_status time_key(json_t *obj, const char *key, bool required, bool zero_ok,
                          const char *path, const char *buf, double *ms, cr_diag *d)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (!required)
            return CR_OK;
        return cr_diag_set(d, CR_EPARSE,
                           "%s:1: no \"%s\": a rank_<r>_perf.json gives the rank's mean time per "
                           "iteration in milliseconds there (utils/performance.py; run PKB with "
                           "--measure-perf)",
                           path, key);
    }
    int line = key_line(buf, key);
    if (!json_is_number(v))
        return cr_diag_set(d, CR_EPARSE,
                           "%s:%d: \"%s\" is not a number: it should be a time in milliseconds "
                           "(e.g. 0.0451)",
                           path, line, key);
    double x = json_number_value(v);
    if (!isfinite(x) || x < 0 || (x == 0 && !zero_ok))
        return cr_diag_set(d, CR_EPARSE,
                           "%s:%d: \"%s\" is %g: a time must be a finite number of milliseconds "
                           "above zero%s",
                           path, line, key, x,
                           x == 0 ? " (a zero time means the rank's timing failed; rerun it)" : "");
    if (ms)
        *ms = x;
    return CR_OK;
}

cr_status cr_pkb_perf_parse(const char *buf, size_t len, const char *path, double *wall_s,
                            cr_diag *d)
{
    json_t *root = NULL;
    cr_status st = CR_OK;
    json_error_t e;
    /* the whole buffer: a NUL inside is refused, not an end */
    root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e);
    if (!root) {
        /* Python's json writes a failed timing's NaN or Infinity as such,
         * which is not JSON */
        bool nonfinite = strstr(buf, "NaN") || strstr(buf, "Infinity");
        st = cr_diag_set(d, CR_EPARSE, "%s:%d:%d: not JSON (jansson: %s)%s", path,
                         e.line > 0 ? e.line : 1, e.column > 0 ? e.column : 1, e.text,
                         nonfinite ? "; NaN and Infinity are not JSON and not a time: the "
                                     "rank's timing failed, rerun it"
                                   : ": a rank_<r>_perf.json is one JSON object as "
                                     "utils/performance.py writes it");
        goto out;
    }
    if (!json_is_object(root)) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:1: not a JSON object: a rank_<r>_perf.json is one object with "
                         "\"wall_time_ms\" (utils/performance.py)",
                         path);
        goto out;
    }
    double ms = 0;
    if ((st = time_key(root, "wall_time_ms", true, false, path, buf, &ms, d)) != CR_OK ||
        (st = time_key(root, "min_time_ms", false, false, path, buf, NULL, d)) != CR_OK ||
        (st = time_key(root, "max_time_ms", false, false, path, buf, NULL, d)) != CR_OK ||
        (st = time_key(root, "wall_time_std_ms", false, true, path, buf, NULL, d)) != CR_OK)
        goto out;
    if (!cr_harness_measured_ok(ms * 1e-3)) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: \"wall_time_ms\" is %g: check takes times from %g to %g ms", path,
                         key_line(buf, "wall_time_ms"), ms, CR_HARNESS_MIN_MEASURED_S * 1e3,
                         CR_HARNESS_MAX_MEASURED_S * 1e3);
        goto out;
    }
    *wall_s = ms * 1e-3;
out:
    json_decref(root);
    return st;
}

/* One rank's wall_time_ms from path, in seconds. */
static cr_status read_perf(const char *path, double *wall_s, cr_diag *d)
{
    char *buf = NULL;
    size_t len = 0;
    cr_status st = slurp(path, &buf, &len, d);
    if (st == CR_OK)
        st = cr_pkb_perf_parse(buf, len, path, wall_s, d);
    free(buf);
    return st;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Folder entries, sorted by name (new memory: free each and the array). */
static cr_status list_dir(const char *dir, char ***names, int *n, cr_diag *d)
{
    *names = NULL;
    *n = 0;
    DIR *dp = opendir(dir);
    if (!dp)
        return cr_diag_set(d, errno == ENOENT ? CR_ENOTFOUND : CR_EIO,
                           "%s: cannot read the folder: %s", dir, strerror(errno));
    cr_status st = CR_OK;
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (cr_grow((void **)names, &cap, (size_t)*n + 1, sizeof **names)) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            break;
        }
        if (!((*names)[*n] = strdup(e->d_name))) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            break;
        }
        (*n)++;
    }
    closedir(dp);
    if (st != CR_OK) {
        free_names(*names, *n);
        *names = NULL;
        *n = 0;
        return st;
    }
    if (*n > 1)
        qsort(*names, (size_t)*n, sizeof **names, cmp_name);
    return st;
}

/* Whether folder dir holds a rank_<r>_perf.json (PKB's test for a backend). */
static bool has_rank_files(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(dp));)
        found = rank_of(e->d_name) >= 0;
    closedir(dp);
    return found;
}

/* The first folder at most depth levels below dir (dir itself not
 * counted) that holds rank files, into *found (new memory; NULL: none).
 * Hidden folders and symbolic links are not followed. */
static cr_status rank_files_below(const char *dir, int depth, char **found, cr_diag *d)
{
    *found = NULL;
    if (depth <= 0)
        return CR_OK;
    char **names = NULL;
    int n = 0;
    cr_status st = list_dir(dir, &names, &n, d);
    for (int i = 0; st == CR_OK && !*found && i < n; i++) {
        if (names[i][0] == '.')
            continue;
        char *sub = join(dir, names[i]);
        struct stat ls;
        if (!sub) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            break;
        }
        if (lstat(sub, &ls) == 0 && S_ISDIR(ls.st_mode)) {
            if (has_rank_files(sub)) {
                *found = sub;
                sub = NULL;
            } else {
                st = rank_files_below(sub, depth - 1, found, d);
            }
        }
        free(sub);
    }
    free_names(names, n);
    return st;
}

/* A folder off PKB's layout that holds rank files (problem_4/cuda/nested,
 * Problem_3_x/cuda) would be left out unsaid, its times (an impossible one
 * among them) never checked: an error naming it. */
static cr_status off_layout(const char *where, const char *found, cr_diag *d)
{
    return cr_diag_set(d, CR_EINVAL,
                       "%s holds rank_<r>_perf.json but is off PKB's layout (%s): its times would "
                       "not be checked; move it to logs/problem_<N>_<name>/<backend>/ or give it "
                       "by itself",
                       found, where);
}

cr_status cr_pkb_logs_read_backend(const char *dir, cr_pkb_logs_times *out, cr_diag *d)
{
    memset(out, 0, sizeof *out);
    out->slowest_rank = -1;
    char **names = NULL;
    int n = 0;
    char *path = NULL;
    const char *file_of[CR_PKB_LOGS_MAX_RANKS] = {0};
    cr_status st = list_dir(dir, &names, &n, d);
    if (st != CR_OK)
        return st;
    for (int i = 0; i < n; i++) {
        int r = rank_of(names[i]);
        if (r < 0)
            continue;
        if (r >= CR_PKB_LOGS_MAX_RANKS) {
            st = cr_diag_set(d, CR_ERANGE, "%s/%s: rank beyond %d: commroof reads ranks 0 to %d",
                             dir, names[i], CR_PKB_LOGS_MAX_RANKS - 1, CR_PKB_LOGS_MAX_RANKS - 1);
            goto out;
        }
        if (file_of[r]) {
            st = cr_diag_set(d, CR_EDUPLICATE,
                             "%s: %s and %s are both rank %d: keep one file a rank", dir,
                             file_of[r], names[i], r);
            goto out;
        }
        file_of[r] = names[i];
    }
    /* in rank order, so that the file reported is the same on every system */
    for (int r = 0; r < CR_PKB_LOGS_MAX_RANKS; r++) {
        if (!file_of[r])
            continue;
        free(path);
        if (!(path = join(dir, file_of[r]))) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        double s = 0;
        if ((st = read_perf(path, &s, d)) != CR_OK)
            goto out;
        out->present[r] = 1;
        out->n_files++;
        out->n_ranks = r + 1;
        if (s > out->wall_s) {
            out->wall_s = s;
            out->slowest_rank = r;
        }
    }
    if (!out->n_files) {
        st = cr_diag_set(d, CR_ENOTFOUND,
                         "%s: no rank_<r>_perf.json: give a folder a ParallelKernelBench run "
                         "with --measure-perf wrote (logs/problem_<stem>/<backend>)",
                         dir);
        goto out;
    }
    out->n_missing = out->n_ranks - out->n_files;
out:
    free(path);
    free_names(names, n);
    return st;
}

void cr_pkb_logs_free(cr_pkb_logs_run *runs, int n)
{
    if (!runs)
        return;
    for (int i = 0; i < n; i++) {
        free(runs[i].stem);
        free(runs[i].backend);
        free(runs[i].dir);
    }
    free(runs);
}

typedef struct {
    cr_pkb_logs_run *v;
    int n;
    size_t cap;
} run_list;

/* The leading number of stem, as utils/problem_id.py takes it; -1 when it
 * has none (PKB would take 1: no problem to map). */
static int stem_id(const char *stem)
{
    long id = 0;
    int digits = 0;
    for (const char *p = stem; *p >= '0' && *p <= '9' && id < 1000000000L; p++, digits++)
        id = id * 10 + (*p - '0');
    return digits && id < 1000000000L ? (int)id : -1;
}

/* Reads backend folder dir of problem stem and appends it to l. */
static cr_status add_run(run_list *l, const char *dir, const char *stem, const char *backend,
                         cr_diag *d)
{
    if (cr_grow((void **)&l->v, &l->cap, (size_t)l->n + 1, sizeof *l->v))
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    cr_pkb_logs_run *r = &l->v[l->n];
    memset(r, 0, sizeof *r);
    r->id = stem_id(stem);
    r->stem = strdup(stem);
    r->backend = strdup(backend);
    r->dir = strdup(dir);
    l->n++; /* owned by l from here */
    if (!r->stem || !r->backend || !r->dir)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    return cr_pkb_logs_read_backend(dir, &r->times, d);
}

/* Every backend of problem folder dir named problem_<stem>. */
static cr_status add_problem(run_list *l, const char *dir, const char *stem, cr_diag *d)
{
    char **names = NULL;
    int n = 0;
    char *sub = NULL;
    cr_status st = list_dir(dir, &names, &n, d);
    for (int i = 0; st == CR_OK && i < n; i++) {
        free(sub);
        if (!(sub = join(dir, names[i]))) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            break;
        }
        if (!is_dir(sub))
            continue;
        if (has_rank_files(sub)) {
            st = add_run(l, sub, stem, names[i], d);
            continue;
        }
        char *deep = NULL;
        if ((st = rank_files_below(sub, 2, &deep, d)) == CR_OK && deep)
            st = off_layout("rank files lie in a backend folder, directly under problem_<stem>",
                            deep, d);
        free(deep);
    }
    free(sub);
    free_names(names, n);
    return st;
}

/* The last component of path (borrowed from path). */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int cmp_run(const void *a, const void *b)
{
    const cr_pkb_logs_run *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    int c = strcmp(x->stem, y->stem);
    return c ? c : strcmp(x->backend, y->backend);
}

cr_status cr_pkb_logs_scan(const char *dir, cr_pkb_logs_run **out, int *n, cr_diag *d)
{
    *out = NULL;
    *n = 0;
    run_list l = {0};
    char **names = NULL;
    int nn = 0;
    char *sub = NULL, *real = NULL, *parent = NULL;
    cr_status st = CR_OK;
    if (!is_dir(dir)) {
        st = cr_diag_set(d, CR_ENOTFOUND,
                         "%s: not a folder: give PKB's logs folder, a logs/problem_<stem> "
                         "folder or one of its backends (logs/problem_<stem>/cuda)",
                         dir);
        goto out;
    }
    /* the folders' own names tell the level, also for "." or a trailing '/' */
    if (!(real = realpath(dir, NULL))) {
        st = cr_diag_set(d, CR_EIO, "%s: cannot resolve the path: %s", dir, strerror(errno));
        goto out;
    }
    if (has_rank_files(dir)) {
        if (!(parent = strdup(real))) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        char *slash = strrchr(parent, '/');
        if (slash)
            *slash = '\0';
        const char *pb = base_name(parent);
        if (strncmp(pb, "problem_", 8) != 0 || !pb[8]) {
            st = cr_diag_set(d, CR_EINVAL,
                             "%s: a backend folder's parent names the problem, but it is "
                             "\"%s\", not problem_<stem>: keep PKB's layout "
                             "(logs/problem_1_allreduce/cuda)",
                             dir, pb);
            goto out;
        }
        st = add_run(&l, dir, pb + 8, base_name(real), d);
    } else if (strncmp(base_name(real), "problem_", 8) == 0 && base_name(real)[8]) {
        st = add_problem(&l, dir, base_name(real) + 8, d);
    } else {
        st = list_dir(dir, &names, &nn, d);
        for (int i = 0; st == CR_OK && i < nn; i++) {
            free(sub);
            if (!(sub = join(dir, names[i]))) {
                st = cr_diag_set(d, CR_ENOMEM, "out of memory");
                break;
            }
            if (!is_dir(sub) || names[i][0] == '.')
                continue;
            if (strncmp(names[i], "problem_", 8) == 0 && names[i][8]) {
                st = add_problem(&l, sub, names[i] + 8, d);
                continue;
            }
            char *deep = NULL;
            if (has_rank_files(sub) && !(deep = strdup(sub)))
                st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            else if (!deep)
                st = rank_files_below(sub, 2, &deep, d);
            if (st == CR_OK && deep)
                st = off_layout("a problem's folder is named problem_<N>_<name>, lower case", deep,
                                d);
            free(deep);
        }
    }
    if (st == CR_OK && l.n == 0)
        st = cr_diag_set(d, CR_ENOTFOUND,
                         "%s: no rank_<r>_perf.json under it: give PKB's logs folder, a "
                         "logs/problem_<stem> folder or one of its backends, from a run with "
                         "--measure-perf",
                         dir);
out:
    free(sub);
    free(real);
    free(parent);
    free_names(names, nn);
    if (st != CR_OK) {
        cr_pkb_logs_free(l.v, l.n);
        return st;
    }
    qsort(l.v, (size_t)l.n, sizeof *l.v, cmp_run);
    *out = l.v;
    *n = l.n;
    return CR_OK;
}
