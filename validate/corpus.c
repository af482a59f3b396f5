/* SPDX-License-Identifier: MIT */
/*
 * The measurement corpus (see corpus.h): topologies.txt and split.txt read
 * with file:line errors, every log of the split read by the nccl-tests
 * reader and evaluated by cr_validate_eval on its topology and rank set,
 * and the figures per half, system and size band.
 */
#include "sbuf.h"
#include "validate/corpus.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "coll.h"
#include "embedded_priv.h"
#include "fileio.h"
#include "grow.h"
#include "rankset.h"
#include "stats.h"
#include "topo.h"
#include "topo_xml.h"
#include "validate/validate.h"

#define MIB (1024.0 * 1024.0)

const char *cr_corpus_half_name(cr_corpus_half h)
{
    switch (h) {
    case CR_CORPUS_FIT:
        return "fit";
    case CR_CORPUS_CHECK:
        return "check";
    default:
        return "?";
    }
}

const char *cr_corpus_band_name(int band)
{
    static const char *const names[] = {"<=1MiB", "1-64MiB", ">64MiB", "all"};
    return band >= 0 && band <= CR_CORPUS_BAND_ALL ? names[band] : "?";
}

int cr_corpus_band_of(double bytes)
{
    if (bytes <= MIB)
        return CR_CORPUS_BAND_SMALL;
    if (bytes <= 64 * MIB)
        return CR_CORPUS_BAND_MID;
    return CR_CORPUS_BAND_LARGE;
}

/* One line of topologies.txt. */
typedef struct {
    char key[256];  /* FOLDER or FOLDER/FILE */
    char topo[256]; /* as written; "none" */
    char ranks[128];
    int nccl_version;                     /* --nccl-version, NCCL_VERSION_CODE; 0: none */
    char nccl_algo[128], nccl_proto[128]; /* --nccl-algo, --nccl-proto; "": none */
    char note[256];
    int line;
} map_line;

/* One log of split.txt. */
typedef struct {
    char path[256]; /* FOLDER/FILE */
    cr_corpus_half half;
    int line;
} split_entry;

/* One topology opened for the evaluation (shared by the lines naming it). */
typedef struct {
    char spec[256];
    cr_topo *t;
} open_topo;

typedef struct {
    const char *dir;
    map_line *map;
    int n_map;
    open_topo *topos;
    int n_topos;
    size_t cap_map, cap_topos;
    /* capacities of the cr_corpus arrays, which grow only while it is read */
    size_t cap_logs, cap_rows, cap_systems;
    /* every log split.txt names, both halves (c->logs holds the chosen
     * half's only) */
    split_entry *split;
    size_t n_split, cap_split;
} ctx;

static void ctx_release(ctx *x)
{
    for (int i = 0; i < x->n_topos; i++)
        cr_topo_free(x->topos[i].t);
    free(x->topos);
    free(x->map);
    free(x->split);
}

/* Splits s (modified) into at most max blank-separated words, after
 * cutting the comment; *comment (may be NULL) gets the comment's text
 * without its '#' and leading blanks. Returns the word count, max + 1
 * when there are more. */
static int words(char *s, char **w, int max, const char **comment)
{
    char *hash = strchr(s, '#');
    if (comment)
        *comment = "";
    if (hash) {
        *hash = '\0';
        char *c = hash + 1;
        c[strcspn(c, "\r\n")] = '\0';
        while (*c == ' ' || *c == '\t')
            c++;
        if (comment)
            *comment = c;
    }
    int n = 0;
    char *save = NULL; /* strtok_r: the library keeps no hidden state */
    for (char *tok = strtok_r(s, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == max)
            return max + 1;
        w[n++] = tok;
    }
    return n;
}

/* A text file of lines of words with comments after '#' (topologies.txt,
 * split.txt, the gate file), read a line of words at a time. */
typedef struct {
    const char *path;
    FILE *f;
    char *line;
    size_t cap;
    int ln; /* the line last read, from 1 */
} word_file;

static cr_status word_file_open(word_file *r, const char *path, const char *what, cr_diag *d)
{
    *r = (word_file){.path = path};
    return cr_file_fopen_read(path, what, 0, &r->f, d);
}

/* The next line that has words, split by words() (w, max, comment as
 * there). Returns its word count, 0 at the end of the file, or -1 after a
 * read error (d says so). */
static int word_file_next(word_file *r, char **w, int max, const char **comment, cr_diag *d)
{
    while (getline(&r->line, &r->cap, r->f) != -1) {
        r->ln++;
        int n = words(r->line, w, max, comment);
        if (n > 0)
            return n;
    }
    if (ferror(r->f)) {
        cr_diag_set(d, CR_EIO, "%s: read error", r->path);
        return -1;
    }
    if (!feof(r->f)) { /* getline's ENOMEM sets no flag */
        cr_diag_set(d, CR_ENOMEM, "%s:%d: out of memory", r->path, r->ln + 1);
        return -1;
    }
    return 0;
}

static void word_file_close(word_file *r)
{
    free(r->line);
    if (r->f)
        fclose(r->f);
}

/* A relative path inside the corpus: not empty, not absolute, no ".."
 * component, at most one '/' (FOLDER or FOLDER/FILE). */
static bool corpus_relpath(const char *p, bool need_file)
{
    if (!p[0] || p[0] == '/')
        return false;
    const char *slash = strchr(p, '/');
    if (need_file && (!slash || !slash[1]))
        return false;
    if (slash && strchr(slash + 1, '/'))
        return false;
    for (const char *q = p; *q;) {
        size_t n = strcspn(q, "/");
        if ((n == 2 && q[0] == '.' && q[1] == '.') || (n == 1 && q[0] == '.'))
            return false;
        q += n;
        if (*q == '/')
            q++;
    }
    return true;
}

static cr_status read_topologies(ctx *x, cr_diag *d)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/topologies.txt", x->dir);
    word_file r;
    cr_status st = word_file_open(&r, path, "a corpus topologies.txt", d);
    if (st != CR_OK)
        return st;
    char *w[11];
    const char *note = NULL;
    int n;
    while ((n = word_file_next(&r, w, 10, &note, d)) > 0) {
        int ln = r.ln;
        /* FOLDER[/FILE] TOPOLOGY, then options in any order */
        const char *ranks = NULL, *version = NULL, *algo = NULL, *proto = NULL;
        /* the first thing wrong with the line, named */
        char why[160] = "";
        if (n < 2)
            snprintf(why, sizeof why, "a folder without its topology");
        else if (n > 10)
            snprintf(why, sizeof why, "%d fields, at most 10", n);
        for (int i = 2; !why[0] && i < n; i += 2) {
            const char **slot = !strcmp(w[i], "--ranks")          ? &ranks
                                : !strcmp(w[i], "--nccl-version") ? &version
                                : !strcmp(w[i], "--nccl-algo")    ? &algo
                                : !strcmp(w[i], "--nccl-proto")   ? &proto
                                                                  : NULL;
            if (!slot)
                snprintf(why, sizeof why, "unknown option \"%.40s\"", w[i]);
            else if (*slot)
                snprintf(why, sizeof why, "%.20s given twice", w[i]);
            else if (i + 1 >= n)
                snprintf(why, sizeof why, "%.20s without its value", w[i]);
            else
                *slot = w[i + 1];
        }
        if (why[0]) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: %s; expected \"FOLDER[/FILE] TOPOLOGY [--ranks SPEC] "
                             "[--nccl-version V] [--nccl-algo LIST] [--nccl-proto LIST]\" or "
                             "\"FOLDER[/FILE] none\" (a comment after '#')",
                             path, ln, why);
            goto out;
        }
        if (!corpus_relpath(w[0], false) || strlen(w[0]) >= sizeof x->map->key) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: \"%s\" is not a system folder or folder/file of the corpus "
                             "(relative, no \"..\", e.g. h100-8 or h100-8/x_perf.log)",
                             path, ln, w[0]);
            goto out;
        }
        if (strlen(w[1]) >= sizeof x->map->topo || (ranks && strlen(ranks) >= 128)) {
            st = cr_diag_set(d, CR_EPARSE, "%s:%d: topology or rank set too long", path, ln);
            goto out;
        }
        if (!strcmp(w[1], "none") && n > 2) {
            st = cr_diag_set(d, CR_EPARSE, "%s:%d: \"none\" takes no options", path, ln);
            goto out;
        }
        int code = 0;
        cr_diag vd = {{0}};
        if (version && cr_nccl_version_parse(version, &code, &vd) != CR_OK) {
            st = cr_diag_set(d, CR_EPARSE, "%s:%d: --nccl-version: %s", path, ln, vd.msg);
            goto out;
        }
        for (int k = 0; k < 2; k++) {
            const char *list = k ? proto : algo;
            if (list && (strlen(list) >= sizeof x->map->nccl_algo ||
                         cr_nccl_select_check(list, k == 1, &vd) != CR_OK)) {
                st = cr_diag_set(d, CR_EPARSE, "%s:%d: %s: %s", path, ln,
                                 k ? "--nccl-proto" : "--nccl-algo",
                                 vd.msg[0] ? vd.msg : "longer than 127 characters");
                goto out;
            }
        }
        for (int i = 0; i < x->n_map; i++)
            if (!strcmp(x->map[i].key, w[0])) {
                st = cr_diag_set(d, CR_EPARSE, "%s:%d: %s is mapped already on line %d", path, ln,
                                 w[0], x->map[i].line);
                goto out;
            }
        if (cr_grow((void **)&x->map, &x->cap_map, (size_t)x->n_map + 1, sizeof *x->map)) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        map_line *m = &x->map[x->n_map++];
        memset(m, 0, sizeof *m);
        cr_str_copy(m->key, sizeof m->key, w[0]);
        cr_str_copy(m->topo, sizeof m->topo, w[1]);
        if (ranks)
            cr_str_copy(m->ranks, sizeof m->ranks, ranks);
        m->nccl_version = code;
        cr_str_copy(m->nccl_algo, sizeof m->nccl_algo, algo ? algo : "");
        cr_str_copy(m->nccl_proto, sizeof m->nccl_proto, proto ? proto : "");
        cr_str_copy(m->note, sizeof m->note, note ? note : "");
        m->line = ln;
    }
    if (n < 0)
        st = CR_EIO;
out:
    word_file_close(&r);
    return st;
}

/* The topology of a line, opened once (shared names, file paths relative
 * to the corpus folder), with the options' parameters. */
static cr_status topo_of(ctx *x, const map_line *m, const cr_corpus_opts *o, cr_topo **out,
                         cr_diag *d)
{
    for (int i = 0; i < x->n_topos; i++)
        if (!strcmp(x->topos[i].spec, m->topo)) {
            *out = x->topos[i].t;
            return CR_OK;
        }
    char name[4400];
    if (cr_embedded_is_path(m->topo))
        snprintf(name, sizeof name, "%s/%s", x->dir, m->topo);
    else
        cr_str_copy(name, sizeof name, m->topo);
    cr_topo *t = NULL;
    cr_diag td = {{0}};
    cr_status st = cr_topo_open(name, &t, &td);
    if (st != CR_OK)
        return cr_diag_set(d, st == CR_ENOMEM ? st : CR_ENOTFOUND,
                           "%s/topologies.txt:%d: topology %s: %s", x->dir, m->line, m->topo,
                           td.msg);
    for (int i = 0; o && i < o->n_params; i++)
        if (cr_topo_set_param(t, o->param_keys[i], o->param_values[i], "corpus --param") != CR_OK) {
            cr_topo_free(t);
            return cr_diag_set(d, CR_ENOMEM, "out of memory");
        }
    if (cr_grow((void **)&x->topos, &x->cap_topos, (size_t)x->n_topos + 1, sizeof *x->topos)) {
        cr_topo_free(t);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    open_topo *nt = &x->topos[x->n_topos++];
    cr_str_copy(nt->spec, sizeof nt->spec, m->topo);
    nt->t = t;
    *out = t;
    return CR_OK;
}

static const map_line *map_find(const ctx *x, const char *path, const char *system)
{
    for (int i = 0; i < x->n_map; i++)
        if (!strcmp(x->map[i].key, path))
            return &x->map[i];
    for (int i = 0; i < x->n_map; i++)
        if (!strcmp(x->map[i].key, system))
            return &x->map[i];
    return NULL;
}

static cr_status add_system(ctx *x, cr_corpus *c, const char *s)
{
    for (int i = 0; i < c->n_systems; i++)
        if (!strcmp(c->systems[i], s))
            return CR_OK;
    if (cr_grow((void **)&c->systems, &x->cap_systems, (size_t)c->n_systems + 1,
                sizeof *c->systems))
        return CR_ENOMEM;
    size_t n = strlen(s) + 1;
    if (!(c->systems[c->n_systems] = malloc(n)))
        return CR_ENOMEM;
    memcpy(c->systems[c->n_systems++], s, n);
    return CR_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads and evaluates one log into c (its entry is c->logs[li]). A log the
 * reader or the evaluation refuses is marked, not an error. */
static cr_status eval_log(ctx *x, cr_corpus *c, int li, const map_line *m, const cr_corpus_opts *o,
                          cr_diag *d)
{
    cr_corpus_log *lg = &c->logs[li];
    cr_topo *t = NULL;
    cr_status st = topo_of(x, m, o, &t, d);
    if (st != CR_OK)
        return st;
    cr_nccl_log_opts lo = {0};
    lo.nccl_version = m->nccl_version;
    lo.nccl_algo = m->nccl_algo[0] ? m->nccl_algo : NULL;
    lo.nccl_proto = m->nccl_proto[0] ? m->nccl_proto : NULL;
    if (m->ranks[0]) {
        /* as validate: a bad rank set is refused before any log is read */
        cr_rankset *rs = NULL;
        cr_diag rd = {{0}};
        if (cr_rankset_parse(m->ranks, t->n_gpus, &rs, &rd) != CR_OK)
            return cr_diag_set(d, CR_EPARSE, "%s/topologies.txt:%d: --ranks %s on %s: %s", x->dir,
                               m->line, m->ranks, m->topo, rd.msg);
        lo.nranks = rs->n;
        cr_rankset_free(rs);
    }
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", x->dir, lg->path);
    cr_vmeas_list l = {0};
    cr_vresult *res = NULL;
    cr_validate_cache *cache = NULL;
    cr_diag ld = {{0}};
    st = cr_validate_read_nccl_tests(path, &lo, &l, &ld);
    if (st == CR_ENOMEM)
        return cr_diag_set(d, st, "out of memory");
    if (st != CR_OK) {
        lg->status = CR_CORPUS_LOG_NOT_READ;
        cr_str_copy(lg->why, sizeof lg->why, ld.msg);
        return CR_OK;
    }
    if (l.n == 0) { /* read, but nothing in it: not a log the corpus compares */
        struct stat sb;
        lg->status = CR_CORPUS_LOG_NOT_READ;
        cr_str_copy(lg->why, sizeof lg->why,
                    stat(path, &sb) == 0 && sb.st_size == 0
                        ? "the file is empty"
                        : "no result row read (a launcher prefix the reader does not know?)");
        goto out;
    }
    if (!(res = calloc(l.n, sizeof *res))) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    /* the log's rows share its rank set: one context (cr_validate_cache) */
    if (!(cache = cr_validate_cache_new())) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    cr_validate_opts vo = {m->ranks[0] ? m->ranks : NULL, cache};
    for (size_t i = 0; i < l.n; i++) {
        cr_diag ed = {{0}};
        st = cr_validate_eval(t, &l.v[i], &vo, &res[i], &ed);
        if (st == CR_ENOMEM) {
            st = cr_diag_set(d, st, "out of memory");
            goto out;
        }
        if (st != CR_OK) {
            lg->status = CR_CORPUS_LOG_NOT_READ;
            cr_str_copy(lg->why, sizeof lg->why, ed.msg);
            st = CR_OK;
            goto out;
        }
    }
    size_t n = 0;
    for (size_t i = 0; i < l.n; i++) {
        double b = 0;
        if (l.v[i].c.family != CR_VFAM_NCCL ||
            cr_vcase_num(&l.v[i].c, "bytes", &b, NULL) != CR_OK || !(b > 0))
            continue;
        n++;
    }
    if (cr_grow((void **)&c->rows, &x->cap_rows, c->n_rows + n + 1, sizeof *c->rows)) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < l.n; i++) {
        double b = 0;
        if (l.v[i].c.family != CR_VFAM_NCCL ||
            cr_vcase_num(&l.v[i].c, "bytes", &b, NULL) != CR_OK || !(b > 0))
            continue;
        const cr_vresult *r = &res[i];
        c->rows[c->n_rows++] = (cr_corpus_row){
            .log = li,
            .half = lg->half,
            .bytes = b,
            .measured_s = l.v[i].measured_s,
            .has_pred = r->has_pred && r->timed,
            .has_bound = r->has_bound,
            .violation = r->violation,
            .pred_s = r->pred_s,
            .bound_s = r->bound_s,
            .error_pct = r->error_pct,
        };
    }
    lg->status = CR_CORPUS_LOG_OK;
    lg->rows = (int)n;
out:
    cr_validate_cache_free(cache);
    free(res);
    cr_vmeas_list_release(&l);
    return st;
}

/* Whether name ends in ".log". */
static bool is_log_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcmp(name + n - 4, ".log");
}

/* A log in a system folder that split.txt (split_path) does not name is
 * an error: it was left out of both halves unsaid (QA audit, session 42).
 * The first such log by name is given, with how many there are. */
static cr_status find_unlisted(ctx *x, const char *split_path, cr_diag *d)
{
    DIR *top = opendir(x->dir);
    if (!top)
        return cr_diag_set(d, CR_EIO, "%s: %s", x->dir, strerror(errno));
    char first[512] = "";
    int count = 0;
    for (struct dirent *e; (e = readdir(top));) {
        char sp[4400];
        struct stat sb;
        snprintf(sp, sizeof sp, "%s/%s", x->dir, e->d_name);
        if (e->d_name[0] == '.' || stat(sp, &sb) != 0 || !S_ISDIR(sb.st_mode))
            continue;
        DIR *sys = opendir(sp);
        if (!sys)
            continue;
        for (struct dirent *f; (f = readdir(sys));) {
            char rel[512], fp[4700];
            snprintf(rel, sizeof rel, "%.250s/%.250s", e->d_name, f->d_name);
            snprintf(fp, sizeof fp, "%s/%s", sp, f->d_name);
            if (!is_log_name(f->d_name) || stat(fp, &sb) != 0 || !S_ISREG(sb.st_mode))
                continue;
            bool listed = false;
            for (size_t i = 0; i < x->n_split && !listed; i++)
                listed = !strcmp(x->split[i].path, rel);
            if (listed)
                continue;
            count++;
            if (!first[0] || strcmp(rel, first) < 0)
                cr_str_copy(first, sizeof first, rel);
        }
        closedir(sys);
    }
    closedir(top);
    if (count == 0)
        return CR_OK;
    return cr_diag_set(d, CR_EPARSE,
                       "%s/%s is in neither half of %s%s: add \"fit %s\" or \"check %s\" "
                       "(validate/corpus/README.md: how a source's half is chosen), or move "
                       "it out of the corpus",
                       x->dir, first, split_path,
                       count > 1 ? " (nor are other logs of its folders)" : "", first, first);
}

static cr_status read_split(ctx *x, cr_corpus *c, const cr_corpus_opts *o, cr_diag *d)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/split.txt", x->dir);
    word_file r;
    cr_status st = word_file_open(&r, path, "a corpus split.txt", d);
    if (st != CR_OK)
        return st;
    int want = o && o->half >= 0 && o->half < CR_CORPUS__HALVES ? o->half : -1;
    char *w[3];
    int n;
    while ((n = word_file_next(&r, w, 2, NULL, d)) > 0) {
        int ln = r.ln;
        if (n != 2) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: expected \"fit|check FOLDER/FILE\" (a comment after '#')",
                             path, ln);
            goto out;
        }
        cr_corpus_half h;
        if (!strcmp(w[0], "fit"))
            h = CR_CORPUS_FIT;
        else if (!strcmp(w[0], "check"))
            h = CR_CORPUS_CHECK;
        else {
            st = cr_diag_set(d, CR_EPARSE, "%s:%d: half \"%s\": expected fit or check", path, ln,
                             w[0]);
            goto out;
        }
        if (!corpus_relpath(w[1], true) || strlen(w[1]) >= sizeof c->logs->path) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: \"%s\" is not a log of the corpus: expected FOLDER/FILE "
                             "(relative, no \"..\", e.g. h100-8/all_reduce_perf.log)",
                             path, ln, w[1]);
            goto out;
        }
        /* every half's logs: "fit X" and "check X" was taken while one
         * half was evaluated (the other's line was skipped unchecked) */
        for (size_t i = 0; i < x->n_split; i++)
            if (!strcmp(x->split[i].path, w[1])) {
                st = cr_diag_set(d, CR_EPARSE, "%s:%d: %s is in the split already (line %d, as %s)",
                                 path, ln, w[1], x->split[i].line,
                                 cr_corpus_half_name(x->split[i].half));
                goto out;
            }
        char sys[64];
        size_t sl = strcspn(w[1], "/");
        if (sl >= sizeof sys) {
            st = cr_diag_set(d, CR_EPARSE, "%s:%d: folder name too long (at most %zu bytes)", path,
                             ln, sizeof sys - 1);
            goto out;
        }
        memcpy(sys, w[1], sl);
        sys[sl] = '\0';
        const map_line *m = map_find(x, w[1], sys);
        if (!m) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: %s has no line in %s/topologies.txt (add \"%s TOPOLOGY\", or "
                             "\"%s none  # why\")",
                             path, ln, w[1], x->dir, sys, sys);
            goto out;
        }
        char lp[4400];
        struct stat sb;
        snprintf(lp, sizeof lp, "%s/%s", x->dir, w[1]);
        if (stat(lp, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            st = cr_diag_set(d, CR_EIO, "%s:%d: %s: no such log file", path, ln, lp);
            goto out;
        }
        /* a copy under another name counts its rows twice, and a copy in
         * the other half puts fitted rows in the checking half (QA audit,
         * session 42) */
        for (size_t i = 0; i < x->n_split; i++) {
            char op[4400];
            snprintf(op, sizeof op, "%s/%s", x->dir, x->split[i].path);
            if (cr_file_same_content(lp, op)) {
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: %s has the same content as %s (line %d, %s half): a log "
                                 "is in the corpus once",
                                 path, ln, w[1], x->split[i].path, x->split[i].line,
                                 cr_corpus_half_name(x->split[i].half));
                goto out;
            }
        }
        if (cr_grow((void **)&x->split, &x->cap_split, x->n_split + 1, sizeof *x->split)) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        x->split[x->n_split++] = (split_entry){.half = h, .line = ln};
        cr_str_copy(x->split[x->n_split - 1].path, sizeof x->split->path, w[1]);
        /* the split is checked whole; only the chosen half is evaluated */
        if (want >= 0 && (int)h != want)
            continue;
        if (cr_grow((void **)&c->logs, &x->cap_logs, (size_t)c->n_logs + 1, sizeof *c->logs)) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        cr_corpus_log *lg = &c->logs[c->n_logs++];
        memset(lg, 0, sizeof *lg);
        cr_str_copy(lg->path, sizeof lg->path, w[1]);
        cr_str_copy(lg->system, sizeof lg->system, sys);
        cr_str_copy(lg->topo, sizeof lg->topo, m->topo);
        cr_str_copy(lg->ranks, sizeof lg->ranks, m->ranks);
        lg->half = h;
        if (add_system(x, c, sys) != CR_OK) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        if (!strcmp(m->topo, "none")) {
            lg->status = CR_CORPUS_LOG_NO_TOPO;
            cr_str_copy(lg->why, sizeof lg->why, m->note[0] ? m->note : "no topology fits");
            continue;
        }
        if ((st = eval_log(x, c, c->n_logs - 1, m, o, d)) != CR_OK)
            goto out;
    }
    if (n < 0)
        st = CR_EIO;
    if (st == CR_OK)
        st = find_unlisted(x, path, d);
out:
    word_file_close(&r);
    return st;
}

cr_status cr_corpus_eval(const char *dir, const cr_corpus_opts *o, cr_corpus *out, cr_diag *d)
{
    memset(out, 0, sizeof *out);
    if (!dir || !dir[0])
        return cr_diag_set(d, CR_EINVAL, "corpus: no folder");
    ctx x = {.dir = dir};
    cr_status st = read_topologies(&x, d);
    if (st == CR_OK)
        st = read_split(&x, out, o, d);
    if (st == CR_OK && out->n_systems > 1)
        qsort(out->systems, (size_t)out->n_systems, sizeof *out->systems, cmp_str);
    ctx_release(&x);
    if (st != CR_OK)
        cr_corpus_release(out);
    return st;
}

void cr_corpus_release(cr_corpus *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n_systems; i++)
        free(c->systems[i]);
    free(c->systems);
    free(c->logs);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

double cr_corpus_percentile(double *v, size_t n, double q)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cr_cmp_double);
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos, hi = lo + 1 < n ? lo + 1 : n - 1;
    return v[lo] + (v[hi] - v[lo]) * (pos - (double)lo);
}

cr_status cr_corpus_stats_of(const cr_corpus *c, cr_corpus_half h, const char *system, int band,
                             cr_corpus_stats *out)
{
    memset(out, 0, sizeof *out);
    out->median_abs_err_pct = out->p90_abs_err_pct = NAN;
    double *e = malloc((c->n_rows + 1) * sizeof *e);
    if (!e)
        return CR_ENOMEM;
    size_t ne = 0;
    for (size_t i = 0; i < c->n_rows; i++) {
        const cr_corpus_row *r = &c->rows[i];
        if (r->half != h || (system && strcmp(c->logs[r->log].system, system)) ||
            (band != CR_CORPUS_BAND_ALL && cr_corpus_band_of(r->bytes) != band))
            continue;
        out->rows++;
        out->violations += r->violation;
        if (r->has_pred)
            e[ne++] = fabs(r->error_pct);
    }
    for (int i = 0; i < c->n_logs; i++) {
        const cr_corpus_log *lg = &c->logs[i];
        if (lg->half == h && lg->status == CR_CORPUS_LOG_OK &&
            (!system || !strcmp(lg->system, system)))
            out->logs++;
    }
    out->predicted = (int)ne;
    if (ne > 0) {
        out->median_abs_err_pct = cr_corpus_percentile(e, ne, 0.5);
        out->p90_abs_err_pct = cr_corpus_percentile(e, ne, 0.9);
    }
    free(e);
    return CR_OK;
}

/* ---- the gate (gate.txt) ---- */

static int band_by_name(const char *s)
{
    for (int b = 0; b <= CR_CORPUS_BAND_ALL; b++)
        if (!strcmp(s, cr_corpus_band_name(b)))
            return b;
    return -1;
}

static bool gate_pct(const char *s, double *out)
{
    /* decimal only: strtod reads "0x14" as 20 */
    if (strspn(s, "0123456789.eE+-") != strlen(s))
        return false;
    char *end = NULL;
    double v = cr_strtod_c(s, &end);
    if (end == s || *end || !isfinite(v) || v < 0)
        return false;
    *out = v;
    return true;
}

cr_status cr_corpus_gate_read(const char *path, cr_corpus_gate **out, int *n_out, cr_diag *d)
{
    *out = NULL;
    *n_out = 0;
    word_file r;
    cr_status st = word_file_open(&r, path, "a corpus gate file", d);
    if (st != CR_OK)
        return st;
    cr_corpus_gate *g = NULL;
    size_t cap_g = 0;
    int n = 0, k;
    char *w[7];
    while ((k = word_file_next(&r, w, 6, NULL, d)) > 0) {
        int ln = r.ln;
        cr_corpus_gate x = {.line = ln, .target_pct = NAN, .got_pct = NAN};
        int band = k >= 2 ? band_by_name(w[1]) : -1;
        const char *stat = k >= 3 ? w[2] : "";
        x.by_system = !strncmp(stat, "systems-", 8);
        if (x.by_system)
            stat += 8;
        /* the first field that is wrong, and what it should be */
        char why[160] = "";
        if (k != 4 && k != 6)
            snprintf(why, sizeof why, "%d field(s), expected 4 (or 6 with \"target PCT\")", k);
        else if (strcmp(w[0], "fit") && strcmp(w[0], "check"))
            snprintf(why, sizeof why, "half \"%.40s\": expected fit or check", w[0]);
        else if (band < 0)
            snprintf(why, sizeof why,
                     "band \"%.40s\": expected one of <=1MiB, 1-64MiB, >64MiB, all", w[1]);
        else if (strcmp(stat, "median") && strcmp(stat, "p90"))
            snprintf(why, sizeof why,
                     "statistic \"%.40s\": expected median, p90, systems-median or systems-p90",
                     w[2]);
        else if (!gate_pct(w[3], &x.limit_pct))
            snprintf(why, sizeof why, "limit \"%.40s\": expected a percentage >= 0 (e.g. 10.5)",
                     w[3]);
        else if (k == 6 && strcmp(w[4], "target"))
            snprintf(why, sizeof why, "\"%.40s\" after the limit: expected \"target PCT\"", w[4]);
        else if (k == 6 && !gate_pct(w[5], &x.target_pct))
            snprintf(why, sizeof why, "target \"%.40s\": expected a percentage >= 0", w[5]);
        if (why[0]) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: %s; a gate line is \"fit|check BAND STAT LIMIT_PCT [target "
                             "PCT]\" (a comment after '#')",
                             path, ln, why);
            goto out;
        }
        x.half = strcmp(w[0], "fit") ? CR_CORPUS_CHECK : CR_CORPUS_FIT;
        x.band = band;
        x.p90 = !strcmp(stat, "p90");
        /* one limit per figure: of two, the stricter decided unsaid */
        for (int i = 0; i < n; i++)
            if (g[i].half == x.half && g[i].band == band && g[i].p90 == x.p90 &&
                g[i].by_system == x.by_system) {
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: %s %s %s is held to a limit already (line %d): give "
                                 "each figure one line",
                                 path, ln, w[0], w[1], w[2], g[i].line);
                goto out;
            }
        if (cr_grow((void **)&g, &cap_g, (size_t)n + 1, sizeof *g)) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        g[n++] = x;
    }
    if (k < 0)
        st = CR_EIO;
    else if (n == 0)
        st = cr_diag_set(d, CR_EPARSE,
                         "%s: no gate line (expected \"fit|check BAND STAT LIMIT_PCT\")", path);
out:
    word_file_close(&r);
    if (st != CR_OK) {
        free(g);
        return st;
    }
    *out = g;
    *n_out = n;
    return CR_OK;
}

/* The median or p90 (q) of the systems' own median |error| in a half and
 * band, each system with a predicted row there counted once: a source
 * that publishes dense sweeps weighs on the rows' figures as many systems
 * would, not on these. NAN when no system has a row. */
static cr_status by_system_pct(const cr_corpus *c, cr_corpus_half h, int band, double q,
                               double *out)
{
    double *med = malloc((size_t)(c->n_systems > 0 ? c->n_systems : 1) * sizeof *med);
    if (!med)
        return CR_ENOMEM;
    size_t m = 0;
    for (int s = 0; s < c->n_systems; s++) {
        cr_corpus_stats st;
        if (cr_corpus_stats_of(c, h, c->systems[s], band, &st) != CR_OK) {
            free(med);
            return CR_ENOMEM;
        }
        if (isfinite(st.median_abs_err_pct))
            med[m++] = st.median_abs_err_pct;
    }
    *out = cr_corpus_percentile(med, m, q);
    free(med);
    return CR_OK;
}

cr_status cr_corpus_gate_eval(const cr_corpus *c, cr_corpus_gate *g, int n)
{
    for (int i = 0; i < n; i++) {
        if (g[i].by_system) {
            if (by_system_pct(c, g[i].half, g[i].band, g[i].p90 ? 0.9 : 0.5, &g[i].got_pct) !=
                CR_OK)
                return CR_ENOMEM;
            g[i].pass = isfinite(g[i].got_pct) && g[i].got_pct <= g[i].limit_pct;
            continue;
        }
        cr_corpus_stats s;
        if (cr_corpus_stats_of(c, g[i].half, NULL, g[i].band, &s) != CR_OK)
            return CR_ENOMEM;
        g[i].got_pct = g[i].p90 ? s.p90_abs_err_pct : s.median_abs_err_pct;
        /* a band with no predicted row cannot show it holds */
        g[i].pass = isfinite(g[i].got_pct) && g[i].got_pct <= g[i].limit_pct;
    }
    return CR_OK;
}
