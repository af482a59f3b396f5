/* SPDX-License-Identifier: MIT */
/* Helpers shared by the command files (see cli.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbuf.h"
#include "cli.h"
#include "fileio.h"
#include "json_dump.h"
#include "coll.h"
#include "route.h"
#include "topo_xml.h"
#include "units.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "commroof %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'commroof %s --help'.\n", cmd);
    return CLI_USAGE;
}

int cli_check_nccl_select(const char *cmd, const char *list, bool protocols)
{
    cr_diag d = {{0}};
    if (!list || cr_nccl_select_check(list, protocols, &d) == CR_OK)
        return CLI_OK;
    return cli_usage_error(cmd, "%s: %s", protocols ? "--nccl-proto" : "--nccl-algo", d.msg);
}

int cli_parse_ranks_per_process(const char *cmd, const char *text, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < 1 || v > 1 << 30)
        return cli_usage_error(cmd,
                               "--ranks-per-process \"%s\" is not a GPU count >= 1 (1 = one "
                               "process per GPU)",
                               text);
    *out = (int)v;
    return CLI_OK;
}

int cli_fail_status(const char *cmd, cr_status st, const char *msg)
{
    const char *m = msg && msg[0] ? msg : cr_strerror(st);
    return st == CR_EDUPLICATE ? cli_usage_error(cmd, "%s", m) : cli_fail(cmd, "%s", m);
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "commroof %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAIL;
}

int cli_json_fputs(const json_t *v, size_t flags)
{
    char *txt = cr_json_dumps(v, flags);
    int rc = txt && fputs(txt, stdout) >= 0 ? 0 : -1;
    free(txt);
    return rc;
}

cr_topo *cli_open_topo(const char *cmd, const char *name_or_path)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    if (cr_topo_open(name_or_path ? name_or_path : CR_TOPO_DEFAULT, &t, &d) != CR_OK) {
        cli_fail(cmd, "%s", d.msg);
        return NULL;
    }
    cli_note_topo_routing(cmd, t, name_or_path ? name_or_path : CR_TOPO_DEFAULT);
    return t;
}

void cli_note_topo_routing(const char *cmd, const cr_topo *t, const char *where)
{
    int a, b, via;
    if (!cr_route_nvb_pair(t, &a, &b, &via))
        return;
    fprintf(stderr,
            "commroof %s: note: %s: %s and %s share no NVLink (nor XGMI, ICI) and no switch, but "
            "both link to %s: NCCL relays such a pair through that GPU (path NVB), this "
            "topology's routes send it through host memory and a ring through it runs at the "
            "host's rate; add <param key=\"route.gpu_transit\" value=\"1\" source=\"...\"/> "
            "to follow NCCL (doc/topology-format.md)\n",
            cmd, where, t->devs[t->gpus[a]].id, t->devs[t->gpus[b]].id, t->devs[t->gpus[via]].id);
}

bool cli_progress_enabled(void)
{
    return isatty(STDERR_FILENO) == 1;
}

int cli_parse_size(const char *s, double *out)
{
    double v;
    cr_diag d = {{0}};
    if (!cr_units_nccl_size(s, &v) && cr_units_parse(s, CR_UNIT_BYTES, &v, &d) != CR_OK)
        return -1;
    /* the range after the suffix: 1e308T is infinite (issue 13 item 10);
     * whole bytes, as op's bytes= takes them: -b 1.5 was floored to one
     * byte without a word, and 0.5 to none (QA audit, session 51) */
    if (!(v >= 0 && v <= CR_COLL_MAX_BYTES) || v != floor(v))
        return -1;
    *out = v;
    return 0;
}

const char *cli_nccl_type_name(cr_dtype t)
{
    switch (t) {
    case CR_DT_FP32:
        return "float";
    case CR_DT_FP16:
        return "half";
    case CR_DT_BF16:
        return "bfloat16";
    case CR_DT_FP8:
        return "f8e4m3";
    case CR_DT_INT8:
        return "int8";
    case CR_DT_FP64:
        return "double";
    default:
        return cr_dtype_name(t);
    }
}

/* The collectives whose nccl-tests count is per rank. */
double cli_next_size(double sz, double factor, double step)
{
    if (step > 0)
        return sz + step;
    return fmax(floor(sz * factor), sz + 1);
}

int cli_count_sizes(double min, double max, double factor, double step, int limit)
{
    int k = 0;
    for (double sz = min; sz <= max * (1 + 1e-12) && k <= limit;
         sz = cli_next_size(sz, factor, step)) {
        k++;
        if (max <= 0)
            break;
    }
    return k;
}

int cli_parse_topo_list(const char *cmd, const char *opt, char *list, const char *spec,
                        const char **names, int max, int *n)
{
    /* each name once, none empty: a name twice drew two identical
     * columns, an empty one was dropped unsaid (QA audits, sessions 41, 42) */
    *n = 0;
    char *tok = list, *next;
    for (; tok && *n < max; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        bool dup = false;
        for (int k = 0; k < *n && !dup; k++)
            dup = !strcmp(names[k], tok);
        if (!*tok || dup)
            return cli_usage_error(cmd, "%s %s: %s", opt, spec,
                                   *tok ? "a topology named twice: give each once"
                                        : "an empty name between commas: give names "
                                          "separated by single commas");
        names[(*n)++] = tok;
    }
    if (tok)
        return cli_usage_error(cmd, "%s: at most %d topologies", opt, max);
    if (*n == 0)
        return cli_usage_error(cmd, "%s: name at least one topology", opt);
    return 0;
}

int cli_parse_nccl_dtype(const char *cmd, const char *text, cr_dtype *dt)
{
    cr_diag d = {{0}};
    if (text && cr_dtype_parse(text, dt, &d) != CR_OK)
        return cli_usage_error(cmd,
                               "unknown --dtype \"%s\": give one of NCCL's element types, fp32 "
                               "(default), bf16, fp16, fp8, int8 or fp64",
                               text);
    return 0;
}

int cli_check_coll_opts(const char *cmd, cr_coll c, cr_dtype dt, bool root_given)
{
    cr_diag d = {{0}};
    if (cr_dtype_check_nccl(dt, &d) != CR_OK)
        return cli_usage_error(cmd, "--dtype %s", d.msg);
    /* an option that would be ignored is refused, so none is silently lost */
    if (root_given && !cr_coll_rooted(c))
        return cli_usage_error(cmd,
                               "--root applies to broadcast, reduce, gather and scatter, not %s",
                               cr_coll_name(c));
    return 0;
}

bool cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

bool cli_is_stdout(const char *path)
{
    struct stat sp, so, sn;
    if (stat(path, &sp) != 0 || fstat(STDOUT_FILENO, &so) != 0)
        return false;
    if (sp.st_dev != so.st_dev || sp.st_ino != so.st_ino)
        return false;
    return !(stat("/dev/null", &sn) == 0 && sn.st_dev == so.st_dev && sn.st_ino == so.st_ino);
}

int cli_check_log_gpu(const char *cmd, const cr_topo *t, const char *log, const cr_vmeas_list *l,
                      size_t first, bool allow)
{
    char why[256];
    /* calibrate has no --allow-gpu-mismatch: what it writes is a topology */
    bool cal = strcmp(cmd, "calibrate") == 0;
    for (size_t i = first; i < l->n; i++) {
        if (!l->v[i].gpu[0])
            continue;
        if (!cr_nccl_log_gpu_differs(t, l->v[i].gpu, why, sizeof why))
            return CLI_OK;
        if (cal)
            return cli_fail(cmd,
                            "%s: %s: its fitted constants would go into another GPU's topology; "
                            "give --topo the topology of the machine the log comes from",
                            log, why);
        if (!allow)
            return cli_fail(cmd,
                            "%s: %s: its bounds would be another GPU's, so a violation (or its "
                            "absence) would mean nothing; give the topology of the machine the "
                            "log comes from, or --allow-gpu-mismatch to compare anyway",
                            log, why);
        fprintf(stderr,
                "commroof %s: note: %s: %s: compared anyway (--allow-gpu-mismatch); its "
                "bounds and predictions are another GPU's\n",
                cmd, log, why);
        return CLI_OK;
    }
    return CLI_OK;
}

int cli_check_log_files_gpus(const char *cmd, const cr_topo *t, const char *const *paths, int n,
                             bool allow)
{
    int rc = CLI_OK;
    for (int i = 0; i < n && rc == CLI_OK; i++) {
        cr_vmeas_list l = {0};
        cr_diag d = {{0}};
        /* a log that cannot be read is left to the part that reads it,
         * whose message says why */
        if (cr_validate_read_nccl_tests(paths[i], NULL, &l, &d) == CR_OK)
            rc = cli_check_log_gpu(cmd, t, paths[i], &l, 0, allow);
        cr_vmeas_list_release(&l);
    }
    return rc;
}

int cli_log_colls_init(cli_log_colls *lc, const char *cmd, int argc)
{
    lc->n = 0;
    lc->name = calloc((size_t)argc + 1, sizeof *lc->name);
    lc->after = calloc((size_t)argc + 1, sizeof *lc->after);
    if (lc->name && lc->after)
        return CLI_OK;
    cli_log_colls_free(lc);
    return cli_fail(cmd, "out of memory");
}

void cli_log_colls_free(cli_log_colls *lc)
{
    free(lc->name);
    free(lc->after);
    lc->name = NULL;
    lc->after = NULL;
    lc->n = 0;
}

int cli_log_colls_add(cli_log_colls *lc, const char *cmd, const char *name, int n_logs)
{
    cr_diag d = {{0}};
    const char *c = cr_nccl_log_coll(name, &d);
    if (!c)
        return cli_usage_error(cmd, "--coll %s: %s", name, d.msg);
    lc->name[lc->n] = c;
    lc->after[lc->n++] = n_logs;
    return CLI_OK;
}

int cli_log_colls_check(const cli_log_colls *lc, const char *cmd)
{
    for (int k = 0; lc->n > 1 && k < lc->n; k++)
        if (lc->after[k] == 0 || (k > 0 && lc->after[k] == lc->after[k - 1]))
            return cli_usage_error(
                cmd,
                "--coll %s: given more than once, each --coll names the log given right before "
                "it (--nccl-tests A.log --coll all_reduce --nccl-tests B.log --coll "
                "all_gather), and this one follows %s",
                lc->name[k], lc->after[k] == 0 ? "no log" : "another --coll of the same log");
    return CLI_OK;
}

const char *cli_log_coll(const cli_log_colls *lc, int i)
{
    if (lc->n == 1)
        return lc->name[0];
    for (int k = 0; k < lc->n; k++)
        if (lc->after[k] == i + 1)
            return lc->name[k];
    return NULL;
}

int cli_check_distinct_inputs(const char *cmd, const char *what, const char *const *paths, int n)
{
    /* each file stat'ed and read once, not every pair compared (4,000 logs
     * took 100 s) */
    int j, i;
    switch (cr_files_first_repeat(paths, n, &j, &i, NULL)) {
    case 1:
        return strcmp(paths[i], paths[j])
                   ? cli_usage_error(cmd,
                                     "%s %s and %s are one file: give it once (its rows would "
                                     "count twice)",
                                     what, paths[j], paths[i])
                   : cli_usage_error(cmd,
                                     "%s %s is given twice: give it once (its rows would "
                                     "count twice)",
                                     what, paths[i]);
    case 2:
        /* a copy under another name (QA audit, session 42: calibrate's
         * cross-check called the copy of its fitted log held out) */
        return cli_usage_error(cmd,
                               "%s %s and %s have the same content: give it once (its rows would "
                               "count twice)",
                               what, paths[j], paths[i]);
    case -1:
        return cli_fail(cmd, "out of memory");
    default:
        return 0;
    }
}

/* One line per table of the nccl-tests logs read (consecutive cases of one
 * file with the same collective, rank count and sources): where its
 * collective and rank count came from (validate, calibrate). */
void cli_print_log_tables(FILE *o, const cr_vmeas_list *l)
{
    for (size_t i = 0; i < l->n;) {
        const cr_vmeas *m = &l->v[i];
        if (!m->nranks_source[0]) {
            i++;
            continue;
        }
        const char *colon = strrchr(m->source, ':');
        int flen = colon ? (int)(colon - m->source) : (int)strlen(m->source);
        size_t j = i + 1;
        for (; j < l->n; j++) {
            const cr_vmeas *x = &l->v[j];
            if (strncmp(x->source, m->source, (size_t)flen + 1) ||
                strcmp(x->nranks_source, m->nranks_source) ||
                strcmp(x->coll_source, m->coll_source) || strcmp(x->note, m->note) ||
                strcmp(cr_vcase_get(&x->c, "coll"), cr_vcase_get(&m->c, "coll")) ||
                strcmp(cr_vcase_get(&x->c, "nranks"), cr_vcase_get(&m->c, "nranks")))
                break;
        }
        /* a log's rows are at its lines, a JSON file's at its results' items */
        const char *at = colon ? colon + 1 : "?";
        fprintf(o,
                "# nccl-tests %.*s: %zu row(s) from %s%s: %s (collective from: %s), %s "
                "ranks (from: %s)%s%s\n",
                flen, m->source, j - i, strncmp(at, "results[", 8) ? "line " : "", at,
                cr_vcase_get(&m->c, "coll"), m->coll_source, cr_vcase_get(&m->c, "nranks"),
                m->nranks_source, m->note[0] ? "; " : "", m->note);
        i = j;
    }
}

const char *cli_field(char *buf, size_t n, const char *s, int max)
{
    snprintf(buf, n, "%.*s", max > 0 ? max : (int)n, s ? s : "");
    for (char *q = buf; *q; q++)
        if (*q == ' ' || *q == '\t')
            *q = '_';
    return buf;
}

const char *cli_forced_note(cr_algo algo, cr_proto proto)
{
    bool a = algo != CR_ALGO_AUTO, p = proto != CR_PROTO_AUTO;
    return a && p ? "  (algorithm and protocol forced)"
           : a    ? "  (algorithm forced)"
           : p    ? "  (protocol forced)"
                  : "";
}

/* NCCL_PROTO does not bind point-to-point transfers: addP2pToPlan
 * (src/enqueue.cc) picks LL or Simple by the bytes per channel (measured:
 * doc/bounds.md 3.5). A forced protocol is then reported, not dropped. */
const char *cli_p2p_proto_note(cr_coll c, cr_proto proto, cr_mech mech)
{
    if (!cr_coll_p2p(c) || proto == CR_PROTO_AUTO || mech != CR_MECH_NONE)
        return NULL;
    return "NCCL's point-to-point ignores a forced protocol (addP2pToPlan picks LL or Simple by "
           "size); the proto column shows the one it runs";
}

const char *cli_unrecorded_note(const cr_vread_info *ri, char *buf, size_t n)
{
    if (!ri->unrecorded)
        cr_str_copy(buf, n, "");
    else
        snprintf(buf, n,
                 "%d trace(s) did not record %s (metadata.recorded; COMMROOF_TRACE_RECORD "
                 "chose it): first %s; a range's time leaves those out, and a range that "
                 "launched only those is not listed (trace again with COMMROOF_TRACE_RECORD "
                 "unset to record them)",
                 ri->unrecorded, ri->unrecorded_what, ri->unrecorded_path);
    return buf;
}

const char *cli_us_text(char *buf, size_t n, double us)
{
    if (!isfinite(us))
        cr_str_copy(buf, n, "-");
    else if (fabs(us) >= 1e4 && fabs(us) < 1e15)
        snprintf(buf, n, "%.0f", us);
    else
        snprintf(buf, n, "%.4g", us);
    return buf;
}

/* Where measurement m of path (a file, or a folder holding m's file) comes
 * from, for a message. */
static void trace_where(const char *path, const cr_vmeas *m, char *buf, size_t n)
{
    const char *b = strrchr(path, '/');
    if (!strcmp(b ? b + 1 : path, m->source))
        cr_str_copy(buf, n, path);
    else
        snprintf(buf, n, "%s%s%s", path, path[0] && path[strlen(path) - 1] == '/' ? "" : "/",
                 m->source);
}

/* The GPU gpu of the trace file `where` against topology t's GPU models
 * (cli_check_trace_gpus says the rule). */
static int check_trace_gpu(const char *cmd, const cr_topo *t, const char *where, const char *gpu,
                           bool allow, cli_gpu_seen *gs)
{
    char why[256];
    const char *part = cr_validate_gpu_part(gpu);
    bool differs = cr_validate_gpu_differs(t, gpu, why, sizeof why);
    /* calibrate has no --allow-gpu-mismatch: what it writes is a topology */
    bool cal = strcmp(cmd, "calibrate") == 0;
    if (differs && !allow) {
        cli_fail(cmd, "%s: the trace was measured on %s: %s", where, why,
                 cal ? "its ceilings would go into another GPU's model; give --topo the "
                       "topology of the machine the trace comes from"
                     : "its bounds would be another GPU's, so a violation (or its absence) "
                       "would mean nothing; give the topology of the machine the trace comes "
                       "from, or --allow-gpu-mismatch to compare anyway");
        return CLI_FAIL;
    }
    if (differs)
        fprintf(stderr,
                "commroof %s: note: %s: the trace was measured on %s: compared anyway "
                "(--allow-gpu-mismatch); its bounds and verdicts are another GPU's\n",
                cmd, where, why);
    if (!part)
        return CLI_OK;
    if (!gs->part) {
        gs->part = part;
        cr_str_copy(gs->where, sizeof gs->where, where);
    } else if (strcmp(gs->part, part) && !gs->mixed_said) {
        /* both parts in the topology (a machine of two GPU models) is
         * what a mix needs; otherwise one of them is judged against
         * another GPU's figures */
        char w2[256];
        bool known = !differs && !cr_validate_gpu_differs(t, gs->part, w2, sizeof w2) &&
                     cr_validate_gpu_part(t->n_gpu_specs ? t->gpu_specs[0].name : NULL);
        gs->mixed_said = true;
        if (!known && !allow) {
            cli_fail(cmd,
                     "the traces name two GPU models: %s (%s) and %s (%s); give the traces of "
                     "one machine%s",
                     gs->part, gs->where, part, where,
                     cal ? "" : ", or --allow-gpu-mismatch to compare them anyway");
            return CLI_FAIL;
        }
        fprintf(stderr,
                "commroof %s: note: the traces name two GPU models: %s (%s) and "
                "%s (%s)\n",
                cmd, gs->part, gs->where, part, where);
    }
    return CLI_OK;
}

int cli_check_trace_gpus(const char *cmd, const cr_topo *t, const char *path,
                         const cr_vmeas_list *l, size_t first, bool allow, cli_gpu_seen *gs)
{
    const char *src = NULL;
    for (size_t i = first; i < l->n; i++) {
        const cr_vmeas *m = &l->v[i];
        if (!m->gpu[0] || (src && !strcmp(src, m->source)))
            continue;
        src = m->source;
        char where[256];
        trace_where(path, m, where, sizeof where);
        if (check_trace_gpu(cmd, t, where, m->gpu, allow, gs) != CLI_OK)
            return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_check_trace_gpu_list(const char *cmd, const cr_topo *t, const cr_vtrace_gpu *g, size_t n,
                             bool allow)
{
    cli_gpu_seen gs = {0};
    int rc = CLI_OK;
    for (size_t i = 0; i < n && rc == CLI_OK; i++)
        rc = check_trace_gpu(cmd, t, g[i].path, g[i].gpu, allow, &gs);
    return rc;
}

int cli_check_trace_files_gpus(const char *cmd, const cr_topo *t, const char *const *paths, int n,
                               bool allow)
{
    cr_vtrace_gpu *g = NULL;
    size_t ng = 0;
    cr_diag d = {{0}};
    cr_status st = cr_validate_trace_gpus(paths, n, &g, &ng, &d);
    if (st != CR_OK)
        return cli_fail_status(cmd, st, d.msg);
    int rc = cli_check_trace_gpu_list(cmd, t, g, ng, allow);
    free(g);
    return rc;
}
