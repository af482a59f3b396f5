/* SPDX-License-Identifier: MIT */
/*
 * `commroof check OP --topo T [parameters] --measured-us X`: % of roofline
 * (bound / measured x 100), speedup over the PyTorch + NCCL baseline and a
 * verdict; exit 3 when X is below the bound (impossible: the kernel or its
 * timing is wrong). The bound is the warm one (doc/bounds.md 1.4: bytes that
 * fit in the caches may stay there between iterations); a time below only
 * the cold (HBM-only) bound is "cache-resident", not a failure. --cold
 * judges against the cold bound (a harness that flushes the caches).
 *
 * `commroof check --measured-json FILE [--topo T]`: the same for many results
 * at once (a grading harness). Input: a JSON array, or an object with a
 * "results" array, of objects
 *   {"name": "...", "op": "gemm_rs", "topo": "hgx-h100-8",
 *    "params": {"m": 1024, "dtype": "bf16", "tp": 8}, "measured_us": 12.5}
 * ("name" and "topo" optional; --topo is the default topology; other keys
 * are the harness's metadata and are ignored, except one that looks like
 * a misspelt known key, an error so that it cannot fall back to a default:
 * model/harness.h, the reader plot and report use too).
 * Output: one JSON document with a result per entry, in input order (an
 * entry that cannot be evaluated gets "error" saying which entry, what is
 * wrong and what would be right) and a summary. Entries are read, evaluated
 * and printed one at a time (memory holds one, not the file: bulk()). Exit
 * 3 if any result is impossible, else 1 if any entry has an error, else 0;
 * a file that cannot be read or parsed, or a bad --topo, prints no JSON and
 * exits 1 (input piped on stdin too: it is held in a temporary file first);
 * bad command-line arguments exit 2.
 *
 * `commroof check --pkb-logs DIR [--topo T] [--json]`: ParallelKernelBench's
 * logs (model/pkb_logs.h) judged problem by problem: each (problem,
 * backend)'s slowest rank mean becomes the bulk entry of the suite pkb
 * problem that pkb="N" maps its id to, evaluated by bulk_entry() like any
 * other; a table, or with --json an array (doc/json.md).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_dump.h"
#include "sbuf.h"
#include "cli.h"
#include "cli_op.h"
#include "opts.h"
#include "fileio.h"
#include "harness.h"
#include "json_items.h"
#include "ops.h"
#include "ops_json.h"
#include "pkb_logs.h"
#include "suite.h"
#include "topo_xml.h"
#include "units.h"

#define MAX_TOPOS 16

/* A percentage for a fixed-width column: one decimal, or 3 digits in
 * e-notation from 100,000 % on (a time a billion times below its bound
 * printed 27 digits and broke the table's columns). */
static const char *pct_text(double pct, char *buf, size_t n)
{
    snprintf(buf, n, fabs(pct) < 1e5 ? "%.1f" : "%.3g", pct);
    return buf;
}

static void check_usage(FILE *f, const cli_opt *opts)
{
    fputs("usage: commroof check OP [--topo T] [--PARAM VALUE ...] --measured-us X "
          "[--cold] [--json]\n"
          "       commroof check --measured-json FILE [--topo T] [--cold]\n"
          "       commroof check --pkb-logs DIR [--topo T] [--json]\n"
          "\n"
          "Compares a measured time with the operator's bound and the PyTorch + "
          "NCCL\n"
          "baseline: % of roofline = bound / measured x 100, speedup = baseline /\n"
          "measured, and a verdict: impossible (measured below the bound: the "
          "kernel\n"
          "or its timing is wrong; exit 3), near-roofline (>= 80%),\n"
          "faster-than-baseline, slower-than-baseline; cache-resident when it is\n"
          "below only the cold bound (the data stayed in the L2 between iterations,\n"
          "not a failure). The bound is the warm one (bound_us: what fits in the\n"
          "caches moves at cache bandwidth); bound_cold_us is the HBM-only one.\n"
          "ParallelKernelBench: measured = the slowest rank's mean per iteration\n"
          "(max over ranks of wall_time_ms x 1000), and leave --cold off: it cycles\n"
          "copies of a problem's first tensor only, its other inputs stay in the L2.\n"
          "\n"
          "Bulk: --measured-json FILE takes a JSON array (or {\"results\": [...]}) "
          "of\n"
          "  {\"name\": \"run1\", \"op\": \"gemm_rs\", \"topo\": \"hgx-h100-8\",\n"
          "   \"params\": {\"m\": 1024, \"tp\": 8}, \"measured_us\": 12.5}\n"
          "(other keys are ignored; one that looks like a misspelt known key is an\n"
          "error) and writes one JSON document: a result per entry in input order\n"
          "(\"error\" where an entry cannot be evaluated) and a summary.\n"
          "Exit 3 if any result is impossible, else 1 if any entry has an error, "
          "else 0;\n"
          "an unreadable or malformed file or a bad --topo: no JSON, exit 1.\n"
          "\n"
          "ParallelKernelBench: --pkb-logs DIR reads PKB's logs (DIR = logs,\n"
          "logs/problem_<stem> or logs/problem_<stem>/<backend>): for each problem\n"
          "and backend, every rank_<r>_perf.json, measured = max over ranks of\n"
          "wall_time_ms, evaluated as the bulk mode evaluates the problem of suite\n"
          "pkb whose pkb=\"N\" is the stem's leading number (warm bound; a PKB id\n"
          "the suite does not express is listed as skipped). A table (--json: an\n"
          "array). Exit 3 if any time is impossible; a malformed or missing file, a\n"
          "bad --topo: nothing on stdout, exit 1. PKB runs on 8 H100s: --topo\n"
          "hgx-h100-8.\n"
          "\n"
          "options:\n",
          f);
    cli_opts_help(f, opts, 22, 0);
    fputs("\n"
          "examples:\n"
          "  commroof check gemm_rs --topo hgx-h100-8 --tp 8 --measured-us 25\n"
          "  commroof check --measured-json results.json --topo hgx-h100-8 > "
          "verdicts.json\n"
          "  commroof check --pkb-logs ParallelKernelBench/logs --topo hgx-h100-8\n",
          f);
}

static json_t *verdict_json(const cr_op_result *r, double measured_s)
{
    double pct = 0, speedup = 0;
    cr_verdict v = cr_op_verdict(r, measured_s, &pct, &speedup);
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:s, s:s, s:s, s:s, s:b}",
                     "measured_us", measured_s * 1e6, "bound_us", r->bound_s * 1e6, "bound_cold_us",
                     r->bound_cold_s * 1e6, "baseline_us", r->baseline_s * 1e6, "pred_us",
                     r->pred_s * 1e6, "pct_of_roofline", pct, "pct_of_roofline_cold",
                     100 * r->bound_cold_s / measured_s, "speedup", speedup, "binding", r->binding,
                     "binding_cold", r->binding_cold, "verdict", cr_verdict_name(v), "explanation",
                     cr_verdict_help(v), "cold", (int)r->cold);
}

/* --- bulk --------------------------------------------------------------- */

typedef struct {
    char *name[MAX_TOPOS];
    cr_topo *t[MAX_TOPOS];
    int n;
} topo_cache;

static cr_topo *cache_get(topo_cache *c, const char *name, cr_diag *d)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->name[i], name) == 0)
            return c->t[i];
    if (c->n >= MAX_TOPOS) {
        cr_diag_set(d, CR_ERANGE,
                    "more than %d distinct topologies in one file (\"%s\" is the %dth): give "
                    "the entries of more machines in several files",
                    MAX_TOPOS, name, MAX_TOPOS + 1);
        return NULL;
    }
    cr_topo *t = NULL;
    if (cr_topo_open(name, &t, d) != CR_OK)
        return NULL;
    c->name[c->n] = strdup(name);
    if (!c->name[c->n]) {
        cr_topo_free(t);
        cr_diag_set(d, CR_ENOMEM, "out of memory");
        return NULL;
    }
    c->t[c->n++] = t;
    return t;
}

static void cache_free(topo_cache *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->name[i]);
        cr_topo_free(c->t[i]);
    }
}

/* Evaluates one entry; returns the result object (with "error" when it
 * could not be evaluated), NULL when memory ran out, and sets *impossible;
 * *op_ranks (unless NULL) to the ranks the operator runs on: all of its
 * layout's groups (tp x cp x ep x dp x pp), at least its communication
 * group. */
static json_t *bulk_entry(json_t *e, size_t idx, const char *deftopo, bool cold, topo_cache *cache,
                          bool *impossible, bool *error, int *op_ranks)
{
    json_t *out = json_object();
    /* a key that could not be set: the row would be silently incomplete
     * (QA audit of allocation failures), so the caller says out of memory */
    int oom = !out;
    cr_diag d = {{0}};
    char msg[1100];
    msg[0] = '\0';
    oom |= json_object_set_new(out, "index", json_integer((json_int_t)idx));
    /* name and op go into the result whatever the entry's fault */
    /* index, name, op and topo in every row, null where the entry gives
     * none that reads (the docs promise the four keys) */
    json_t *nm = json_object_get(e, "name"), *opj = json_object_get(e, "op"),
           *tp = json_object_get(e, "topo");
    oom |= json_object_set_new(out, "name", json_is_string(nm) ? json_copy(nm) : json_null());
    oom |= json_object_set_new(out, "op", json_is_string(opj) ? json_copy(opj) : json_null());
    const char *tdef = deftopo ? deftopo : CR_TOPO_DEFAULT;
    oom |= json_object_set_new(out, "topo",
                               json_is_string(tp)                ? json_copy(tp)
                               : json_is_object(e) && tp != NULL ? json_null()
                                                                 : json_string(tdef));
    cr_harness_result hr;
    if (cr_harness_result_read(e, idx, CR_HARNESS_NEED_OP, &hr, &d) != CR_OK) {
        cr_str_copy(msg, sizeof msg, d.msg);
        goto fail;
    }
    const char *tname = hr.topo ? hr.topo : tdef;
    const cr_op_def *op = NULL;
    cr_op_params p;
    if (cr_harness_result_op(&hr, idx, &op, &p, &d) != CR_OK) {
        cr_str_copy(msg, sizeof msg, d.msg);
        goto fail;
    }
    /* the catalog's name ("gemm" for "Gemm": operator names match in any
     * case), so that results group by operator as op --json names them */
    oom |= json_object_set_new(out, "op", json_string(cr_op_name(op)));
    cr_topo *t = cache_get(cache, tname, &d);
    if (!t) {
        snprintf(msg, sizeof msg, "entry %zu: %s", idx, d.msg);
        goto fail;
    }
    /* the topology's name, as check, op and suite give it, not the path
     * it was read from (topologies/h200-1.xml is h200-1) */
    oom |= json_object_set_new(out, "topo", json_string(t->name));
    cr_op_result r;
    if (cr_op_eval(t, op, &p, &r, &d) != CR_OK) {
        snprintf(msg, sizeof msg, "entry %zu: %s", idx, d.msg);
        goto fail;
    }
    if (cold)
        cr_op_result_use_cold(&r);
    if (op_ranks) {
        /* every rank of the layout runs the problem, not only one group:
         * PKB 51's ep 4 x dp 2 runs on 8 (QA audit of 2026-12-07: its
         * ranks 4-7 missing went unnoticed) */
        double all = 1;
        if (cr_op_has_order(op))
            for (int q = CR_OPP_TP; q <= CR_OPP_PP; q++)
                all *= p.v[q];
        *op_ranks = all > r.ranks && all <= INT_MAX ? (int)all : r.ranks;
    }
    double m = hr.measured_s;
    json_t *v = verdict_json(&r, m);
    oom |= !v || json_object_update(out, v);
    json_decref(v);
    if (cr_below_bound(m, r.bound_s))
        *impossible = true;
    goto done;
fail:
    *error = true;
    oom |= json_object_set_new(out, "error", json_string(msg));
done:
    if (oom) {
        json_decref(out);
        return NULL;
    }
    return out;
}

/* Prints v as cr_json_dumps(JSON_INDENT(2)) prints it nested depth levels
 * deep in a larger document: its lines after the first indented 2 x depth
 * more. */
static int print_nested(json_t *v, int depth)
{
    char *txt = cr_json_dumps(v, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    if (!txt)
        return -1;
    for (const char *p = txt; *p; p++) {
        putchar(*p);
        if (*p == '\n')
            printf("%*s", 2 * depth, "");
    }
    free(txt);
    return 0;
}

/* Every entry of the file read through once and dropped: a file that does
 * not parse fails here, before any output. */
static cr_status bulk_check_syntax(FILE *f, const char *file, cr_diag *d)
{
    cr_json_items *r = NULL;
    if (cr_json_items_open(f, file, "results", &r) != CR_OK)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    json_t *e = NULL;
    cr_status st;
    while ((st = cr_json_items_next(r, &e, d)) == CR_OK && e)
        json_decref(e);
    cr_json_items_free(r);
    return st;
}

/* The entries are read, evaluated and printed one at a time, so memory
 * holds one entry and one result however long the file (a million entries
 * took 3.5 GB as a tree, copied, then printed whole). The file is read
 * twice, the first time only to check that it parses, so that a broken
 * file prints no JSON; the input is first copied to an unlinked temporary
 * file (disk, not memory): a pipe cannot be read twice (it printed half a
 * document before the error), and a file rewritten between the two reads
 * printed 36 MB of a document cut short (a QA audit, session 41). */
static FILE *spool(FILE *in, const char *name, cr_diag *d)
{
    FILE *t = tmpfile();
    if (!t) {
        cr_diag_set(d, CR_EIO, "%s: cannot make a temporary file to hold a copy: %s", name,
                    strerror(errno));
        return NULL;
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, t) != n)
            break;
    if (ferror(in) || ferror(t) || fflush(t) != 0 || fseek(t, 0, SEEK_SET) != 0) {
        cr_diag_set(d, CR_EIO, "%s: cannot copy it into a temporary file: %s", name,
                    strerror(errno));
        fclose(t);
        return NULL;
    }
    return t;
}

static int bulk(const char *file, const char *deftopo, bool cold)
{
    bool is_stdin = strcmp(file, "-") == 0;
    FILE *f = stdin; /* "-": stdin, whatever it is; a named file must be a regular one */
    if (!is_stdin) {
        cr_diag od = {{0}};
        if (cr_file_fopen_read(file, "a JSON file of results", CR_FILE_STREAM, &f, &od) != CR_OK)
            return cli_fail("check", "%s", od.msg);
    }
    cr_json_items *r = NULL;
    topo_cache cache;
    memset(&cache, 0, sizeof cache);
    int rc = CLI_OK;
    cr_diag d = {{0}};
    /* one snapshot read twice, a file as a pipe */
    FILE *spooled = spool(f, is_stdin ? "-" : file, &d);
    if (!is_stdin)
        fclose(f);
    f = spooled;
    if (!spooled) {
        rc = cli_fail("check", "%s", d.msg);
        goto out;
    }
    if (bulk_check_syntax(f, file, &d) != CR_OK || fseek(f, 0, SEEK_SET) != 0) {
        rc = cli_fail("check", "%s", d.msg[0] ? d.msg : "cannot read the file again");
        goto out;
    }
    /* A bad --topo is the command line's fault, not every entry's. */
    if (deftopo && !cache_get(&cache, deftopo, &d)) {
        rc = cli_fail("check", "%s", d.msg);
        goto out;
    }
    if (cr_json_items_open(f, file, "results", &r) != CR_OK) {
        rc = cli_fail("check", "out of memory");
        goto out;
    }
    printf("{\n  \"results\": [");
    json_t *e = NULL;
    int n_imp = 0, n_err = 0, n_near = 0, n_good = 0, n_slow = 0, n_cache = 0;
    /* 100,000 entries take seconds: a count on a terminal's stderr */
    bool progress = cli_progress_enabled(), shown = false;
    cr_status st;
    while ((st = cr_json_items_next(r, &e, &d)) == CR_OK && e) {
        size_t idx = cr_json_items_count(r) - 1;
        if (progress && idx % 1024 == 0 && idx > 0) {
            fprintf(stderr, "\rcommroof check: %zu entries evaluated", idx);
            fflush(stderr);
            shown = true;
        }
        bool imp = false, err = false;
        json_t *o = bulk_entry(e, idx, deftopo, cold, &cache, &imp, &err, NULL);
        json_decref(e);
        if (!o) {
            fflush(stdout);
            rc = cli_fail("check", "out of memory");
            goto out;
        }
        const char *v = json_string_value(json_object_get(o, "verdict"));
        n_imp += imp;
        n_err += err;
        if (v && strcmp(v, "cache-resident") == 0)
            n_cache++;
        else if (v && strcmp(v, "near-roofline") == 0)
            n_near++;
        else if (v && strcmp(v, "faster-than-baseline") == 0)
            n_good++;
        else if (v && strcmp(v, "slower-than-baseline") == 0)
            n_slow++;
        printf("%s\n    ", idx ? "," : "");
        int bad = print_nested(o, 2);
        json_decref(o);
        if (bad) {
            fflush(stdout);
            rc = cli_fail("check", "out of memory writing JSON");
            goto out;
        }
        if (ferror(stdout))
            break;
    }
    if (shown)
        fprintf(stderr, "\r%-60s\r", "");
    if (st != CR_OK) {
        fflush(stdout);
        rc = cli_fail("check", "%s", d.msg);
        goto out;
    }
    size_t n = cr_json_items_count(r);
    printf("%s],\n  \"summary\": ", n ? "\n  " : "");
    json_t *sum = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "entries", (int)n, "impossible",
                            n_imp, "errors", n_err, "cache_resident", n_cache, "near_roofline",
                            n_near, "faster_than_baseline", n_good, "slower_than_baseline", n_slow);
    int bad = !sum || print_nested(sum, 1);
    json_decref(sum);
    if (bad) {
        rc = cli_fail("check", "out of memory writing JSON");
        goto out;
    }
    printf("\n}\n");
    if (fflush(stdout) != 0 || ferror(stdout)) {
        rc = cli_fail("check", "cannot write the output to stdout: %s", strerror(errno));
        goto out;
    }
    rc = n_imp ? CLI_IMPOSSIBLE : n_err ? CLI_FAIL : CLI_OK;
out:
    cr_json_items_free(r);
    cache_free(&cache);
    if (spooled)
        fclose(spooled);
    return rc;
}

/* --- ParallelKernelBench logs --------------------------------------------- */

/* One (problem, backend) of the logs: the bulk mode's result for the entry
 * built from it (the suite problem pkb="N" names, with the slowest rank's
 * mean), or "skipped" with the reason when the suite expresses no PKB N.
 * Sets *impossible; on an entry that cannot be evaluated returns NULL with
 * the reason in msg. */
static json_t *pkb_row(const cr_pkb_logs_run *run, const cr_suite *suite, const char *deftopo,
                       topo_cache *cache, bool *impossible, char *msg, size_t msg_size)
{
    const cr_pkb_logs_times *t = &run->times;
    json_t *row = json_object(), *missing = json_array();
    for (int r = 0; r < t->n_ranks; r++)
        if (!t->present[r])
            json_array_append_new(missing, json_integer(r));
    json_object_set_new(row, "problem", json_string(run->stem));
    json_object_set_new(row, "pkb_id", run->id >= 0 ? json_integer(run->id) : json_null());
    json_object_set_new(row, "backend", json_string(run->backend));
    json_object_set_new(row, "dir", json_string(run->dir));
    json_object_set_new(row, "ranks", json_integer(t->n_files));
    json_object_set_new(row, "missing_ranks", missing);
    json_object_set_new(row, "slowest_rank", json_integer(t->slowest_rank));
    const cr_suite_problem *pr = run->id >= 0 ? cr_suite_find_pkb(suite, run->id) : NULL;
    if (!pr) {
        char why[300];
        if (run->id < 0)
            snprintf(why, sizeof why, "the stem \"%s\" does not start with PKB's problem number",
                     run->stem);
        else
            snprintf(why, sizeof why,
                     "no problem of suite %s expresses PKB %d (suites/pkb.xml's header says "
                     "why for each one left out)",
                     suite->name, run->id);
        json_object_set_new(row, "suite_problem", json_null());
        json_object_set_new(row, "measured_us", json_real(t->wall_s * 1e6));
        json_object_set_new(row, "skipped", json_string(why));
        return row;
    }
    /* the entry the bulk mode would read for this time, evaluated by it */
    json_t *e =
        json_pack("{s:s, s:s, s:o, s:f}", "name", pr->name, "op", cr_op_name(pr->op), "params",
                  cr_op_params_to_json(pr->op, &pr->params), "measured_us", t->wall_s * 1e6);
    bool err = false, below = false;
    int op_ranks = 0;
    json_t *res = e ? bulk_entry(e, 0, deftopo, false, cache, &below, &err, &op_ranks) : NULL;
    json_decref(e);
    if (!res || err) {
        const char *m = res ? json_string_value(json_object_get(res, "error")) : "out of memory";
        if (m && strncmp(m, "entry 0: ", 9) == 0)
            m += 9;
        snprintf(msg, msg_size, "%s: problem %s of suite %s: %s", run->dir, pr->name, suite->name,
                 m ? m : "cannot be evaluated");
        json_decref(res);
        json_decref(row);
        return NULL;
    }
    /* the problem runs on op_ranks GPUs at least: ranks above the highest
     * file read are missing too (their time may be the slowest) */
    for (int r = t->n_ranks; r < op_ranks && r < CR_PKB_LOGS_MAX_RANKS; r++)
        json_array_append_new(missing, json_integer(r));
    json_object_set_new(row, "suite_problem", json_string(pr->name));
    json_object_del(res, "index");
    json_object_del(res, "name");
    json_object_update(row, res);
    json_decref(res);
    /* With a rank missing, the time read is the slowest of the ranks read,
     * no more than PKB's (the max over all ranks), and the run may have
     * had fewer ranks than the suite problem's (PKB's run_local.py takes
     * --nproc-per-node; its README runs 4): a time below the bound
     * proves nothing then (QA audit of the PKB suite, session 44: a 4-rank
     * reducescatter run was called impossible against the 8-rank bound) */
    if (below && json_array_size(missing) > 0)
        json_object_set_new(row, "verdict", json_string("incomplete"));
    else if (below)
        *impossible = true;
    double bound = json_real_value(json_object_get(row, "bound_us"));
    json_object_set_new(row, "headroom_measured",
                        json_real(bound > 0 ? t->wall_s * 1e6 / bound : 0));
    return row;
}

/* "3, 5" for the missing ranks of row, in buf. */
static const char *missing_text(json_t *row, char *buf, size_t size)
{
    size_t at = 0;
    json_t *v;
    size_t i;
    buf[0] = '\0';
    json_array_foreach(json_object_get(row, "missing_ranks"), i, v)
    {
        int w = snprintf(buf + at, size - at, "%s%lld", i ? ", " : "",
                         (long long)json_integer_value(v));
        if (w < 0 || (size_t)w >= size - at)
            break;
        at += (size_t)w;
    }
    return buf;
}

static void pkb_table(json_t *rows, const char *dir, const char *topo)
{
    printf("# commroof check --pkb-logs %s on %s (suite pkb, warm bound)\n", dir, topo);
    /* measured / bound is not the headroom op and suite print (baseline /
     * bound): the column carries its own name, as the JSON's
     * headroom_measured */
    printf("# measured: max over ranks of wall_time_ms (PKB's aggregate); roofline = bound / "
           "measured; meas/bnd = measured / bound (JSON headroom_measured)\n");
    printf("#%-26s %-10s %5s %11s %10s %13s %8s %8s %-21s %s\n", "problem", "backend", "ranks",
           "measured_us", "bound_us", "bound_cold_us", "roofline", "meas/bnd", "verdict",
           "suite_problem");
    printf("#%-26s %-10s %5s %11s %10s %13s %8s %8s %-21s %s\n", "", "", "", "", "", "", "(%)",
           "(x)", "", "");
    size_t i;
    json_t *r;
    int n_imp = 0, n_skip = 0, n_miss = 0;
    json_array_foreach(rows, i, r)
    {
        const char *stem = json_string_value(json_object_get(r, "problem"));
        const char *be = json_string_value(json_object_get(r, "backend"));
        int ranks = (int)json_integer_value(json_object_get(r, "ranks"));
        double m = json_number_value(json_object_get(r, "measured_us"));
        const char *skipped = json_string_value(json_object_get(r, "skipped"));
        if (skipped) {
            n_skip++;
            printf(" %-26s %-10s %5d %11.4g %10s %13s %8s %8s %-21s -\n", stem, be, ranks, m, "-",
                   "-", "-", "-", "skipped");
            continue;
        }
        const char *v = json_string_value(json_object_get(r, "verdict"));
        n_imp += v && strcmp(v, "impossible") == 0;
        char pc[32];
        printf(" %-26s %-10s %5d %11.4g %10.4g %13.4g %8s %8.3g %-21s %s\n", stem, be, ranks, m,
               json_number_value(json_object_get(r, "bound_us")),
               json_number_value(json_object_get(r, "bound_cold_us")),
               pct_text(json_number_value(json_object_get(r, "pct_of_roofline")), pc, sizeof pc),
               json_number_value(json_object_get(r, "headroom_measured")), v,
               json_string_value(json_object_get(r, "suite_problem")));
    }
    char buf[400];
    json_array_foreach(rows, i, r)
    {
        const char *stem = json_string_value(json_object_get(r, "problem"));
        const char *be = json_string_value(json_object_get(r, "backend"));
        const char *skipped = json_string_value(json_object_get(r, "skipped"));
        if (json_array_size(json_object_get(r, "missing_ranks"))) {
            n_miss++;
            const char *v = json_string_value(json_object_get(r, "verdict"));
            printf("# %s/%s: no rank_<r>_perf.json for rank %s: the time is the slowest of the "
                   "ranks read%s\n",
                   stem, be, missing_text(r, buf, sizeof buf),
                   v && !strcmp(v, "incomplete")
                       ? "; below the bound, not judged (a run on fewer GPUs than the suite "
                         "problem's, or the missing rank was the slowest)"
                       : "");
        }
        if (skipped)
            printf("# %s/%s skipped: %s\n", stem, be, skipped);
    }
    printf("# %zu results: %d impossible, %d skipped, %d with ranks missing\n",
           json_array_size(rows), n_imp, n_skip, n_miss);
}

/* `check --pkb-logs DIR`: every (problem, backend) under DIR, each as the
 * bulk mode evaluates an entry (bulk_entry), all read and evaluated before
 * any output so that a failure prints nothing on stdout. */
static int pkb_logs(const char *dir, const char *deftopo, bool json)
{
    cr_pkb_logs_run *runs = NULL;
    int n = 0, rc = CLI_OK;
    cr_suite *suite = NULL;
    json_t *rows = NULL;
    topo_cache cache;
    memset(&cache, 0, sizeof cache);
    cr_diag d = {{0}};
    const char *tname = deftopo ? deftopo : CR_TOPO_DEFAULT;
    if (cr_pkb_logs_scan(dir, &runs, &n, &d) != CR_OK || !cache_get(&cache, tname, &d) ||
        cr_suite_open("pkb", &suite, &d) != CR_OK) {
        rc = cli_fail("check", "%s", d.msg);
        goto out;
    }
    rows = json_array();
    bool any_impossible = false;
    for (int i = 0; i < n; i++) {
        char msg[1400];
        json_t *row = pkb_row(&runs[i], suite, tname, &cache, &any_impossible, msg, sizeof msg);
        if (!row) {
            rc = cli_fail("check", "%s", msg);
            goto out;
        }
        json_array_append_new(rows, row);
    }
    if (json) {
        if (print_nested(rows, 0) != 0) {
            rc = cli_fail("check", "out of memory writing JSON");
            goto out;
        }
        putchar('\n');
    } else {
        pkb_table(rows, dir, tname);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        rc = cli_fail("check", "cannot write the output to stdout: %s", strerror(errno));
        goto out;
    }
    rc = any_impossible ? CLI_IMPOSSIBLE : CLI_OK;
out:
    json_decref(rows);
    cr_suite_free(suite);
    cr_pkb_logs_free(runs, n);
    cache_free(&cache);
    return rc;
}

/* --- one result --------------------------------------------------------- */

/* The measured time of --measured-us X (a number of microseconds) or
 * --measured X (a time with a unit, "12.5us"), in seconds; -1 after a usage
 * error. */
static double parse_measured(const char *opt, const char *v)
{
    double x = 0;
    if (strcmp(opt, "--measured") == 0) {
        cr_diag u = {{0}};
        if (cr_units_parse(v, CR_UNIT_TIME, &x, &u) != CR_OK) {
            cli_usage_error("check", "--measured %s: %s", v, u.msg);
            return -1;
        }
    } else {
        char *end = NULL;
        x = strtod(v, &end) * 1e-6;
        if (end == v || *end != '\0' || !cr_plain_number(v)) {
            cli_usage_error("check",
                            "--measured-us \"%s\" is not a number of microseconds (e.g. 12.5)", v);
            return -1;
        }
    }
    if (!cr_harness_measured_ok(x)) {
        cli_usage_error("check", "the measured time must be from %g to %g us, got \"%s\"",
                        CR_HARNESS_MIN_MEASURED_S * 1e6, CR_HARNESS_MAX_MEASURED_S * 1e6, v);
        return -1;
    }
    return x;
}

static int check_one(const cr_op_def *op, const cr_op_params *p, const char *topo,
                     double measured_s, bool cold, bool json)
{
    cr_topo *t = cli_open_topo("check", topo);
    if (!t)
        return CLI_FAIL;
    cr_diag d = {{0}};
    cr_op_result r;
    cr_status st = cr_op_eval(t, op, p, &r, &d);
    int rc = CLI_OK;
    if (st == CR_EINVAL || st == CR_ERANGE || st == CR_EPARSE) {
        rc = cli_usage_error("check", "%s", d.msg);
        goto out;
    }
    if (st != CR_OK) {
        rc = cli_fail("check", "%s", d.msg);
        goto out;
    }
    if (cold)
        cr_op_result_use_cold(&r);
    double pct = 0, speedup = 0;
    cr_verdict v = cr_op_verdict(&r, measured_s, &pct, &speedup);
    if (json) {
        json_t *o = cli_op_result_json(t, op, p, &r);
        json_t *vj = verdict_json(&r, measured_s);
        if (o && vj)
            json_object_update(o, vj);
        json_decref(vj);
        rc = cli_op_print_json("check", o);
    } else {
        char params[600];
        cli_op_params_text(op, p, params, sizeof params);
        printf("# commroof check %s on %s\n# %s\n", cr_op_name(op), t->name, params);
        printf("#%10s %10s %10s %10s %10s %8s %8s %8s %-21s %s\n", "measured", "bound",
               "bound_cold", "baseline", "pred", "roofline", "cold", "speedup", "verdict",
               "binding");
        printf("#%10s %10s %10s %10s %10s %8s %8s %8s %-21s %s\n", "(us)", "(us)", "(us)", "(us)",
               "(us)", "(%)", "(%)", "(x)", "", "");
        char p1[32], p2[32];
        printf(" %10.4g %10.4g %10.4g %10.4g %10.4g %8s %8s %8.3g %-21s %s\n", measured_s * 1e6,
               r.bound_s * 1e6, r.bound_cold_s * 1e6, r.baseline_s * 1e6, r.pred_s * 1e6,
               pct_text(pct, p1, sizeof p1),
               pct_text(100 * r.bound_cold_s / measured_s, p2, sizeof p2), speedup,
               cr_verdict_name(v), r.binding);
        printf("# %s\n", cr_verdict_help(v));
        if (r.mma_bound_by[0])
            printf("# compute: %s (doc/bounds.md 1.10)\n", r.mma_bound_by);
    }
    if (rc == CLI_OK && v == CR_VERDICT_IMPOSSIBLE)
        rc = CLI_IMPOSSIBLE;
out:
    cr_topo_free(t);
    return rc;
}

enum { O_HELP = 1, O_TOPO, O_MEASURED, O_BULK, O_PKB, O_COLD, O_JSON };

/* Reads the next argument of argv against opts; an option's value must not
 * be empty. Returns cli_args_next's answer, CLI_ARGS_ERROR after a usage
 * error. */
static int next_arg(cli_args *args)
{
    int r = cli_args_next(args);
    if (r == CLI_ARGS_OPT && args->val && !*args->val) {
        cli_usage_error("check", "%s needs a non-empty value", args->name);
        return CLI_ARGS_ERROR;
    }
    return r;
}

/* The rest of argv for a mode that takes only the options allowed (ids,
 * 0-terminated): the index of the first argument that is not one of them,
 * its option's id in *id (0 for a word); -1 when every one is; -2 on a
 * malformed option (already reported). */
static int first_other_arg(cli_args *args, const int *allowed, int *id)
{
    for (int at = args->i, r; (r = next_arg(args)) != CLI_ARGS_END; at = args->i) {
        if (r == CLI_ARGS_ERROR)
            return -2;
        *id = r == CLI_ARGS_OPT ? args->opt->id : 0;
        bool ok = false;
        for (const int *k = allowed; *k && !ok; k++)
            ok = *id == *k;
        if (!ok)
            return at;
    }
    return -1;
}

int cli_cmd_check(int argc, char **argv)
{
    const char *topo = NULL, *opname = NULL, *mval = NULL, *mopt = NULL, *bulk_file = NULL,
               *pkb_dir = NULL;
    bool json = false, bulk_mode = false, pkb_mode = false, cold = false;
    const cli_opt opts[] = {
        {"--topo", NULL, "T", "shipped topology or XML file (default " CR_TOPO_DEFAULT ")",
         .str = &topo, .id = O_TOPO},
        {"--measured-us", NULL, "X", "measured time in microseconds (also --measured 12.5us)",
         .str = &mval, .id = O_MEASURED},
        {"--measured", NULL, "T", NULL, .str = &mval, .id = O_MEASURED},
        {"--measured-json", NULL, "F", "bulk mode (see above); '-' reads stdin", .str = &bulk_file,
         .id = O_BULK},
        {"--pkb-logs", NULL, "DIR",
         "ParallelKernelBench mode (see above): logs, logs/problem_<stem>\n"
         "or logs/problem_<stem>/<backend>",
         .str = &pkb_dir, .id = O_PKB},
        {"--cold", NULL, NULL,
         "judge against the cold (HBM-only) bound: for harnesses\n"
         "that flush the caches between iterations",
         .flag = &cold, .id = O_COLD},
        {.label = "--PARAM V", .help = "operator parameters (commroof op OP --help lists them)"},
        {"--json", NULL, NULL, "one JSON document on stdout", .flag = &json, .id = O_JSON},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = O_HELP},
        {0}};
    /* first pass: help, bulk mode, and the operator (parameters parse
     * against it) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            check_usage(stdout, opts);
            return CLI_OK;
        }
        if (strncmp(a, "--measured-json", 15) == 0 && (a[15] == '\0' || a[15] == '='))
            bulk_mode = true;
        if (strncmp(a, "--pkb-logs", 10) == 0 && (a[10] == '\0' || a[10] == '='))
            pkb_mode = true;
        if (!opname && a[0] != '-' && !strchr(a, '=') &&
            (i == 1 || argv[i - 1][0] != '-' || strcmp(argv[i - 1], "--json") == 0 ||
             strcmp(argv[i - 1], "--cold") == 0 || strchr(argv[i - 1], '=')))
            opname = a;
    }
    cli_args args = cli_args_begin("check", opts, argc, argv);
    args.pass_unknown = true; /* the operator's parameters, or a misplaced one */
    int other_id = 0, other;
    if (pkb_mode) {
        static const int pkb_opts[] = {O_PKB, O_TOPO, O_JSON, 0};
        if ((other = first_other_arg(&args, pkb_opts, &other_id)) == -2)
            return CLI_USAGE;
        if (other >= 0 && other_id == O_COLD)
            return cli_usage_error("check",
                                   "--pkb-logs judges against the warm bound: ParallelKernel"
                                   "Bench does not flush the L2 (doc/operators.md, \"Times "
                                   "from ParallelKernelBench\"); leave --cold off");
        if (other >= 0)
            return cli_usage_error("check",
                                   "with --pkb-logs only --topo and --json apply (got "
                                   "\"%s\"): the problems, their parameters and the times "
                                   "come from the logs and suite pkb",
                                   argv[other]);
        return pkb_logs(pkb_dir, topo, json);
    }
    if (bulk_mode) {
        static const int bulk_opts[] = {O_BULK, O_TOPO, O_COLD, O_JSON, 0};
        if ((other = first_other_arg(&args, bulk_opts, &other_id)) == -2)
            return CLI_USAGE;
        if (other >= 0)
            return cli_usage_error("check",
                                   "with --measured-json only --topo, --cold and --json apply "
                                   "(got \"%s\"): the operator, its parameters and the "
                                   "measured time go in the file",
                                   argv[other]);
        return bulk(bulk_file, topo, cold);
    }
    if (!opname)
        return cli_usage_error("check", "give an operator and --measured-us X, or "
                                        "--measured-json FILE");
    cr_diag d = {{0}};
    const cr_op_def *op = NULL;
    if (cr_op_find(opname, &op, &d) != CR_OK)
        return cli_usage_error("check", "%s", d.msg);
    cr_op_params p;
    cr_op_params_defaults(op, &p);
    bool order_given = false;
    for (int r; (r = next_arg(&args)) != CLI_ARGS_END;) {
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r == CLI_ARGS_OPT && args.opt->id == O_MEASURED)
            mopt = args.name;
        if (r == CLI_ARGS_OPT || (r == CLI_ARGS_ARG && args.val == opname))
            continue;
        if (r == CLI_ARGS_ARG)
            args.i--; /* PARAM=V, or not a parameter */
        const char *a = argv[args.i];
        r = cli_op_param_arg("check", op, &p, &order_given, argc, argv, &args.i);
        if (r < 0)
            return CLI_USAGE;
        if (r == 0)
            return cli_op_unknown_arg("check", op, opts, a);
    }
    if (!mval)
        return cli_usage_error("check", "give the measured time: --measured-us X");
    double measured_s = parse_measured(mopt, mval);
    if (measured_s < 0)
        return CLI_USAGE;
    return check_one(op, &p, topo, measured_s, cold, json);
}
