/* SPDX-License-Identifier: MIT */
/*
 * commroof validate --corpus DIR [--half fit|check] [--param KEY=VALUE]...
 *                  [--gate FILE] [--logs] [--json]
 *
 * The measurement corpus (validate/corpus.h) evaluated log by log on each
 * system's mapped topology and rank set, and its figures per half (fit and
 * check, always apart), system and size band: rows, median and p90 |error|,
 * bound violations. tools/corpus_eval.py formats and gates this output.
 * Exit: 0 ok; 1 runtime failure (a bad topologies.txt or split.txt line:
 * file:line) or a gate line not held; 2 usage; 3 a measured time below its
 * bound.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "cli.h"
#include "params.h"
#include "opts.h"
#include "validate/corpus.h"
#include "json_num.h"

#define MAX_PARAMS 64

static const char *const corpus_help_head =
    "usage: commroof validate --corpus DIR [--half fit|check] [--param KEY=VALUE]...\n"
    "                         [--gate FILE] [--logs] [--json]\n"
    "\n"
    "Compares every log of a measurement corpus with the model: DIR holds\n"
    "topologies.txt (FOLDER[/FILE] TOPOLOGY [--ranks SPEC], or FOLDER none),\n"
    "split.txt (fit|check FOLDER/FILE) and one folder of nccl-tests logs per system\n"
    "(validate/corpus, validate/corpus/README.md). Each log is read and evaluated\n"
    "as `commroof validate --nccl-tests LOG --topo T [--ranks SPEC]` does; then per\n"
    "half (fit, check: always apart), overall and per system, per size band (<= 1\n"
    "MiB, 1-64 MiB, > 64 MiB): rows, median and p90 |err_%|, bound violations.\n"
    "--gate FILE then holds the figures to the lines of FILE (fit|check BAND STAT\n"
    "LIMIT_PCT [target PCT]; BAND <=1MiB, 1-64MiB, >64MiB or all; STAT median or\n"
    "p90 of the rows' |error|, or systems-median, systems-p90 of the systems' own\n"
    "medians; validate/corpus/gate.txt) and says on stderr which line each\n"
    "figure meets or misses.\n"
    "\n";

static const char *const corpus_help_tail =
    "\n"
    "Every log in a system folder must be in split.txt once (a copy under another\n"
    "name too is refused), and every log of the split must read: one that does not\n"
    "is named on stderr and fails the run.\n"
    "\n"
    "Exit status: 0 ok; 1 runtime failure (a bad corpus line: file:line; a log not\n"
    "read) or a gate line missed; 2 usage; 3 a measured time below its bound.\n";

static const char *log_status(cr_corpus_log_status s)
{
    return s == CR_CORPUS_LOG_OK ? "ok" : s == CR_CORPUS_LOG_NO_TOPO ? "none" : "not read";
}

static int halves_of(int half, cr_corpus_half *h)
{
    if (half >= 0) {
        h[0] = (cr_corpus_half)half;
        return 1;
    }
    h[0] = CR_CORPUS_FIT;
    h[1] = CR_CORPUS_CHECK;
    return 2;
}

static int print_json(const char *dir, const cr_corpus *c, int half)
{
    json_t *root = json_object(), *tables = json_object(), *logs = json_array(),
           *rows = json_array();
    cr_corpus_half hs[2];
    int nh = halves_of(half, hs);
    json_object_set_new(root, "corpus", json_string(dir));
    for (int k = 0; k < nh; k++) {
        json_t *th = json_object();
        for (int g = -1; g < c->n_systems; g++) {
            const char *sys = g < 0 ? NULL : c->systems[g];
            json_t *tg = json_object();
            int any = 0;
            for (int b = 0; b <= CR_CORPUS_BAND_ALL; b++) {
                cr_corpus_stats s;
                if (cr_corpus_stats_of(c, hs[k], sys, b, &s) != CR_OK) {
                    json_decref(tg);
                    json_decref(th);
                    json_decref(root);
                    json_decref(tables);
                    json_decref(logs);
                    json_decref(rows);
                    return cli_fail("validate", "out of memory");
                }
                any |= s.rows > 0;
                json_t *o = json_object();
                json_object_set_new(o, "logs", json_integer(s.logs));
                json_object_set_new(o, "rows", json_integer(s.rows));
                json_object_set_new(o, "predicted", json_integer(s.predicted));
                json_object_set_new(o, "median", cr_json_real(s.median_abs_err_pct));
                json_object_set_new(o, "p90", cr_json_real(s.p90_abs_err_pct));
                json_object_set_new(o, "violations", json_integer(s.violations));
                json_object_set_new(tg, cr_corpus_band_name(b), o);
            }
            /* a system with no log in this half has no row in its table */
            if (sys && !any)
                json_decref(tg);
            else
                json_object_set_new(th, sys ? sys : "all", tg);
        }
        json_object_set_new(tables, cr_corpus_half_name(hs[k]), th);
    }
    for (int i = 0; i < c->n_logs; i++) {
        const cr_corpus_log *lg = &c->logs[i];
        json_t *o = json_object();
        json_object_set_new(o, "half", json_string(cr_corpus_half_name(lg->half)));
        json_object_set_new(o, "log", json_string(lg->path));
        json_object_set_new(o, "system", json_string(lg->system));
        json_object_set_new(o, "topology", json_string(lg->topo));
        if (lg->ranks[0])
            json_object_set_new(o, "ranks", json_string(lg->ranks));
        json_object_set_new(o, "status", json_string(log_status(lg->status)));
        if (lg->why[0])
            json_object_set_new(o, "why", json_string(lg->why));
        if (lg->status == CR_CORPUS_LOG_OK)
            json_object_set_new(o, "rows", json_integer(lg->rows));
        json_array_append_new(logs, o);
    }
    for (size_t i = 0; i < c->n_rows; i++) {
        const cr_corpus_row *r = &c->rows[i];
        json_t *o = json_object();
        json_object_set_new(o, "half", json_string(cr_corpus_half_name(r->half)));
        json_object_set_new(o, "system", json_string(c->logs[r->log].system));
        json_object_set_new(o, "log", json_string(c->logs[r->log].path));
        json_object_set_new(o, "bytes", cr_json_count(r->bytes));
        json_object_set_new(o, "measured_us", json_real(r->measured_s * 1e6));
        json_object_set_new(o, "pred_us", r->has_pred ? json_real(r->pred_s * 1e6) : json_null());
        json_object_set_new(o, "bound_us",
                            r->has_bound ? json_real(r->bound_s * 1e6) : json_null());
        json_object_set_new(o, "error_pct", r->has_pred ? json_real(r->error_pct) : json_null());
        json_object_set_new(o, "violation", json_boolean(r->violation));
        json_array_append_new(rows, o);
    }
    json_object_set_new(root, "tables", tables);
    json_object_set_new(root, "logs", logs);
    json_object_set_new(root, "rows", rows);
    int rc = CLI_OK;
    if (cli_json_fputs(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0)
        rc = cli_fail("validate",
                      "cannot write JSON to stdout (out of memory, or stdout refused it)");
    else
        fputc('\n', stdout);
    json_decref(root);
    return rc;
}

static void fmt(char *b, size_t n, double v)
{
    if (isfinite(v))
        snprintf(b, n, "%.1f", v);
    else
        cr_str_copy(b, n, "-");
}

static int print_text(const char *dir, const cr_corpus *c, int half, bool list_logs)
{
    cr_corpus_half hs[2];
    int nh = halves_of(half, hs);
    printf("# commroof validate --corpus %s: %d log(s), %d system(s)\n", dir, c->n_logs,
           c->n_systems);
    for (int k = 0; k < nh; k++) {
        int nlog = 0, ok = 0, rows = 0;
        for (int i = 0; i < c->n_logs; i++)
            if (c->logs[i].half == hs[k]) {
                nlog++;
                ok += c->logs[i].status == CR_CORPUS_LOG_OK;
                rows += c->logs[i].rows;
            }
        printf("\n== %s half: %d logs, %d compared, %d rows ==\n", cr_corpus_half_name(hs[k]), nlog,
               ok, rows);
        printf("%-24s", "system");
        for (int b = 0; b <= CR_CORPUS_BAND_ALL; b++)
            printf("%-28s", cr_corpus_band_name(b));
        printf("\n%-24s", "");
        for (int b = 0; b <= CR_CORPUS_BAND_ALL; b++)
            printf("%-28s", "rows   med%   p90%  viol");
        printf("\n");
        for (int g = -1; g < c->n_systems; g++) {
            const char *sys = g < 0 ? NULL : c->systems[g];
            char line[512];
            int len = snprintf(line, sizeof line, "%-24s", sys ? sys : "all"), any = 0;
            for (int b = 0; b <= CR_CORPUS_BAND_ALL; b++) {
                cr_corpus_stats s;
                if (cr_corpus_stats_of(c, hs[k], sys, b, &s) != CR_OK)
                    return cli_fail("validate", "out of memory");
                any |= s.rows > 0;
                char cell[64], m[16], p[16];
                fmt(m, sizeof m, s.median_abs_err_pct);
                fmt(p, sizeof p, s.p90_abs_err_pct);
                if (s.rows)
                    snprintf(cell, sizeof cell, "%-6d %-6s %-6s %-4d", s.rows, m, p, s.violations);
                else
                    cr_str_copy(cell, sizeof cell, "-");
                len += snprintf(line + len, sizeof line - (size_t)len, "%-28s", cell);
            }
            if (!sys || any)
                printf("%s\n", line);
        }
    }
    if (list_logs) {
        printf("\n");
        for (int k = 0; k < nh; k++)
            for (int i = 0; i < c->n_logs; i++) {
                const cr_corpus_log *lg = &c->logs[i];
                if (lg->half != hs[k])
                    continue;
                printf("%-6s %-75s %s%s%s", cr_corpus_half_name(lg->half), lg->path,
                       log_status(lg->status), lg->why[0] ? ": " : "", lg->why);
                if (lg->status == CR_CORPUS_LOG_OK)
                    printf(" (%d rows)", lg->rows);
                printf("\n");
            }
    }
    return CLI_OK;
}

/* The gate lines against the corpus's figures, one line each on stderr;
 * lines of a half not evaluated (--half) are skipped. */
static int check_gates(const char *path, const cr_corpus *c, cr_corpus_gate *g, int n, int half)
{
    if (cr_corpus_gate_eval(c, g, n) != CR_OK)
        return cli_fail("validate", "out of memory");
    int failed = 0, held = 0;
    for (int i = 0; i < n; i++) {
        if (half >= 0 && (int)g[i].half != half)
            continue;
        held++;
        if (!isfinite(g[i].got_pct)) {
            /* no row in that half and band: nothing was held to the limit */
            fprintf(stderr,
                    "commroof validate: gate %s:%d: %s %s: no rows in that half and band: "
                    "nothing to hold to the limit: MISSED\n",
                    path, g[i].line, cr_corpus_half_name(g[i].half),
                    cr_corpus_band_name(g[i].band));
            failed++;
            continue;
        }
        char tgt[48] = "";
        if (isfinite(g[i].target_pct))
            snprintf(tgt, sizeof tgt, " (target %.1f%%)", g[i].target_pct);
        fprintf(stderr, "commroof validate: gate %s:%d: %s %s %s%s %.1f%% %s %.1f%%%s: %s\n", path,
                g[i].line, cr_corpus_half_name(g[i].half), cr_corpus_band_name(g[i].band),
                g[i].by_system ? "systems-" : "", g[i].p90 ? "p90" : "median", g[i].got_pct,
                g[i].pass ? "<=" : "above", g[i].limit_pct, tgt, g[i].pass ? "ok" : "MISSED");
        failed += !g[i].pass;
    }
    if (failed)
        return cli_fail("validate", "%d gate line(s) of %s missed", failed, path);
    if (held == 0 && half < 0) /* the gate held nothing: no pass */
        return cli_fail("validate", "gate %s has no line: nothing was held to a limit", path);
    if (held == 0)
        return cli_fail("validate",
                        "no line of gate %s is about the %s half (--half %s): nothing was held "
                        "to a limit",
                        path, cr_corpus_half_name((cr_corpus_half)half),
                        cr_corpus_half_name((cr_corpus_half)half));
    return CLI_OK;
}

int cli_validate_corpus(int argc, char **argv)
{
    const char *dir = NULL;
    int half = -1, np = 0;
    bool json = false, list_logs = false;
    const char *keys[MAX_PARAMS];
    double vals[MAX_PARAMS];
    char kbuf[MAX_PARAMS][128];
    enum { O_HELP = 1, O_HALF, O_PARAM };
    const char *half_s = NULL, *gate = NULL;
    const cli_opt opts[] = {
        {"--corpus", NULL, "DIR", NULL, .str = &dir},
        {"--half", NULL, "fit|check", "only that half (default both)", .str = &half_s,
         .id = O_HALF},
        {"--param", NULL, "KEY=VALUE", "set a model parameter on every topology (repeatable)",
         .id = O_PARAM, .repeat = true},
        {"--gate", NULL, "FILE", "hold the halves' figures to FILE's lines (exit 1 if one misses)",
         .str = &gate},
        {"--logs", NULL, NULL, "also list each log's status (compared, no topology, not read)",
         .flag = &list_logs},
        {"--json", NULL, NULL, "one JSON document: tables, logs and rows", .flag = &json},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = O_HELP},
        {0}};
    cli_args args = cli_args_begin("validate", opts, argc, argv);
    args.pass_unknown = true;
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        const char *v = args.val;
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r != CLI_ARGS_OPT)
            return cli_usage_error(
                "validate",
                "--corpus takes --half, --param, --gate, --logs and --json only, not "
                "\"%s\"",
                r == CLI_ARGS_ARG ? v : argv[args.i]);
        if (args.opt->id == O_HELP) {
            fputs(corpus_help_head, stdout);
            cli_opts_help(stdout, opts, 23, 0);
            fputs(corpus_help_tail, stdout);
            return CLI_OK;
        } else if (args.opt->id == O_HALF) {
            if (strcmp(v, "fit") && strcmp(v, "check"))
                return cli_usage_error("validate", "--half needs fit or check");
            half = strcmp(v, "fit") ? CR_CORPUS_CHECK : CR_CORPUS_FIT;
        } else if (args.opt->id == O_PARAM) {
            const char *eq = strchr(v, '=');
            char *end = NULL;
            double x = eq ? strtod(eq + 1, &end) : NAN;
            if (!eq || eq == v || !end || end == eq + 1 || *end || !isfinite(x) ||
                (size_t)(eq - v) >= sizeof kbuf[0])
                return cli_usage_error("validate",
                                       "--param needs KEY=VALUE with a finite number (e.g. "
                                       "coll.op_fixed=5e-6)");
            if (np == MAX_PARAMS)
                return cli_usage_error("validate", "at most %d --param", MAX_PARAMS);
            snprintf(kbuf[np], sizeof kbuf[np], "%.*s", (int)(eq - v), v);
            /* a key the model reads, in its range: checked here, as a
             * topology's <param> is, before the corpus runs (QA audit of
             * 2026-12-06: a bad one made every log unread and exit 0) */
            cr_diag pd = {{0}};
            if (cr_params_check_topo_key(kbuf[np], x, "", &pd) != CR_OK)
                return cli_usage_error("validate", "--param %s: %s", v, pd.msg);
            keys[np] = kbuf[np];
            vals[np++] = x;
        }
    }
    if (!dir)
        return cli_usage_error("validate", "--corpus needs a corpus folder");
    cr_corpus c = {0};
    cr_corpus_opts o = {keys, vals, np, half};
    cr_diag d = {{0}};
    cr_corpus_gate *gates = NULL;
    int ngates = 0;
    /* the gate file first: a bad line is found before the corpus runs */
    if (gate && cr_corpus_gate_read(gate, &gates, &ngates, &d) != CR_OK)
        return cli_fail("validate", "%s", d.msg);
    if (cr_corpus_eval(dir, &o, &c, &d) != CR_OK) {
        free(gates);
        return cli_fail("validate", "%s", d.msg);
    }
    int rc = json ? print_json(dir, &c, half) : print_text(dir, &c, half, list_logs);
    bool printed = rc == CLI_OK;
    if (printed && gate)
        rc = check_gates(gate, &c, gates, ngates, half);
    /* a log of the split that cannot be read fails the run: every figure
     * and gate line above would hold without it (QA audit, session 42: a
     * damaged log left the fitting half one log short and the gate passed) */
    int not_read = 0;
    for (int i = 0; printed && i < c.n_logs; i++) {
        const cr_corpus_log *lg = &c.logs[i];
        if (lg->status != CR_CORPUS_LOG_NOT_READ || not_read++ >= 8)
            continue;
        if (strstr(lg->why, lg->path)) /* the reader's message names the file */
            fprintf(stderr, "commroof validate: not read: %s\n", lg->why);
        else
            fprintf(stderr, "commroof validate: %s/%s: not read: %s\n", dir, lg->path, lg->why);
    }
    if (not_read) {
        fprintf(stderr,
                "commroof validate: %d log(s) of %s/split.txt not read: the figures above leave "
                "them out; mend or remove them\n",
                not_read, dir);
        rc = CLI_FAIL;
    }
    /* an impossible result outranks a missed gate */
    if (printed)
        for (size_t i = 0; i < c.n_rows; i++)
            if (c.rows[i].violation) {
                rc = CLI_IMPOSSIBLE;
                break;
            }
    free(gates);
    cr_corpus_release(&c);
    return rc;
}
