/* SPDX-License-Identifier: MIT */
/*
 * `commroof suite NAME|FILE --topo T`: one row per problem of a suite (shipped
 * pkb and llm, or an XML file): bound, baseline, prediction, headroom and
 * the binding resource. `commroof suite list` lists the shipped suites.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_op.h"
#include "opts.h"
#include "ops.h"
#include "ops_json.h"
#include "suite.h"
#include "topo_xml.h"
#include "json_num.h"

static void suite_usage(FILE *f, const cli_opt *opts)
{
    fputs("usage: commroof suite NAME|FILE [--topo T] [--json]\n"
          "       commroof suite list [--json]\n"
          "\n"
          "Evaluates every problem of a suite on a topology: one row per problem "
          "with\n"
          "FLOPs, HBM and communication bytes per GPU, the bound and what binds "
          "it, the\n"
          "PyTorch + NCCL baseline, the best overlap prediction and the headroom\n"
          "(baseline / bound). Problems that cannot run on the topology (more GPUs "
          "than\n"
          "it has, no host link for a host copy, no figure the operator needs such\n"
          "as a TPU's fp32 peak) are listed after the table with the reason.\n"
          "\n"
          "Shipped suites (commroof suite list): pkb (ParallelKernelBench categories\n"
          "at its defaults, M = N = 1024 bf16, K = 512, 8 ranks), llm (Llama-3-70B and\n"
          "MoE layers at TP 8, context parallel 8k-128k, EP 8-64, DP over 1,024 nodes)\n"
          "and h200x2 (the fused GEMM + collective operators measured on 2 x H200,\n"
          "traces/nvidia-h200-x2). Format: suites/suite.dtd.\n"
          "\n"
          "options:\n",
          f);
    cli_opts_help(f, opts, 16, 0);
    fputs("\n"
          "examples:\n"
          "  commroof suite pkb --topo hgx-h100-8\n"
          "  commroof suite llm --topo h100-ib-1024n --json\n",
          f);
}

static int suite_list(bool json)
{
    if (json) {
        json_t *arr = json_array();
        for (int i = 0; cr_suite_shipped_name(i); i++) {
            cr_suite *s = NULL;
            cr_diag d = {{0}};
            if (cr_suite_open(cr_suite_shipped_name(i), &s, &d) != CR_OK) {
                json_decref(arr);
                return cli_fail("suite", "%s", d.msg);
            }
            json_array_append_new(arr, json_pack("{s:s, s:i, s:s}", "name", s->name, "problems",
                                                 s->n_problems, "description",
                                                 s->description ? s->description : ""));
            cr_suite_free(s);
        }
        return cli_op_print_json("suite", json_pack("{s:o}", "suites", arr));
    }
    printf("# commroof shipped suites\n# %-8s %8s  %s\n", "name", "problems", "description");
    for (int i = 0; cr_suite_shipped_name(i); i++) {
        cr_suite *s = NULL;
        cr_diag d = {{0}};
        if (cr_suite_open(cr_suite_shipped_name(i), &s, &d) != CR_OK)
            return cli_fail("suite", "%s", d.msg);
        printf("  %-8s %8d  %s\n", s->name, s->n_problems, s->description ? s->description : "");
        cr_suite_free(s);
    }
    return CLI_OK;
}

/* What the suite file says of problem pr beside its figures: the
 * parameters a harness gives `check --measured-json` (the same problem
 * read back), the ParallelKernelBench ids it expresses, its note. */
static void problem_json(json_t *o, const cr_suite_problem *pr)
{
    json_t *ids = json_array();
    for (int k = 0; k < pr->n_pkb; k++)
        json_array_append_new(ids, json_integer(pr->pkb[k]));
    json_object_set_new(o, "params", cr_op_params_to_json(pr->op, &pr->params));
    json_object_set_new(o, "pkb", ids);
    json_object_set_new(o, "note", pr->note ? json_string(pr->note) : json_null());
}

static json_t *rows_json(const cr_topo *t, const cr_suite *s, const cr_op_row *rows, int n)
{
    json_t *arr = json_array(), *skipped = json_array();
    int ok = 0;
    for (int i = 0; i < n; i++) {
        const cr_op_row *r = &rows[i];
        /* rows come in the suite's order (cr_op_eval_suite) */
        const cr_suite_problem *pr = i < s->n_problems ? &s->problems[i] : NULL;
        if (pr && strcmp(pr->name, r->name) != 0)
            pr = NULL;
        if (r->status != CR_OK) {
            json_t *o =
                json_pack("{s:s, s:s, s:s}", "name", r->name, "op", r->op, "error", r->error);
            if (o && pr)
                problem_json(o, pr);
            json_array_append_new(skipped, o);
            continue;
        }
        ok++;
        /* counts whole where they are, as op --json (cr_json_count) */
        json_t *o = json_pack(
            "{s:s, s:s, s:s, s:i, s:o, s:o, s:o, s:f, s:f, s:f, s:f, s:f, s:s, s:s}", "name",
            r->name, "category", r->category, "op", r->op, "ranks", r->ranks, "flops",
            cr_json_count(r->flops), "hbm_bytes", cr_json_count(r->hbm_bytes), "comm_bytes",
            cr_json_count(r->comm_bytes), "bound_us", r->bound_us, "bound_cold_us",
            r->bound_cold_us, "baseline_us", r->baseline_us, "pred_us", r->pred_us, "headroom",
            r->headroom, "binding", r->binding, "schedule", r->schedule);
        if (o && pr)
            problem_json(o, pr);
        json_array_append_new(arr, o);
    }
    return json_pack("{s:s, s:s, s:i, s:i, s:o, s:o}", "suite", s->name, "topo", t->name,
                     "problems", n, "evaluated", ok, "rows", arr, "skipped", skipped);
}

static void rows_human(const cr_topo *t, const cr_suite *s, const cr_op_row *rows, int n)
{
    printf("# commroof suite %s on %s (%d GPU%s)\n", s->name, t->name, t->n_gpus,
           t->n_gpus == 1 ? "" : "s");
    if (s->description)
        printf("# %s\n", s->description);
    printf("#%-28s %-10s %-11s %5s %11s %11s %11s %10s %10s %10s %10s %8s %-11s %s\n", "name",
           "category", "op", "ranks", "flops", "hbm_bytes", "comm_bytes", "bound", "bound_cold",
           "baseline", "pred", "headroom", "schedule", "binding");
    printf("#%-28s %-10s %-11s %5s %11s %11s %11s %10s %10s %10s %10s %8s %-11s %s\n", "", "", "",
           "", "(FLOP)", "(B)", "(B)", "(us)", "(us)", "(us)", "(us)", "(x)", "", "");
    int skipped = 0;
    for (int i = 0; i < n; i++) {
        const cr_op_row *r = &rows[i];
        if (r->status != CR_OK) {
            skipped++;
            continue;
        }
        char u[4][24], binding[sizeof r->binding], name[256];
        cli_field(binding, sizeof binding, r->binding, 0); /* "host-link (pcie)" */
        /* a suite's own names may hold blanks ("attn block 1"): one field
         * each, as roofline writes its names (QA audit, 2026-12-06) */
        cli_field(name, sizeof name, r->name, 0);
        printf(" %-28s %-10s %-11s %5d %11.4g %11.4g %11.4g %10s %10s %10s %10s "
               "%8.3g %-11s %s\n",
               name, r->category, r->op, r->ranks, r->flops, r->hbm_bytes, r->comm_bytes,
               cli_us_text(u[0], sizeof u[0], r->bound_us),
               cli_us_text(u[1], sizeof u[1], r->bound_cold_us),
               cli_us_text(u[2], sizeof u[2], r->baseline_us),
               cli_us_text(u[3], sizeof u[3], r->pred_us), r->headroom, r->schedule, binding);
    }
    printf("# %d problems, %d evaluated, %d skipped\n", n, n - skipped, skipped);
    for (int i = 0; i < n; i++)
        if (rows[i].status != CR_OK)
            printf("# skipped %s: %s\n", rows[i].name, rows[i].error);
}

int cli_cmd_suite(int argc, char **argv)
{
    const char *topo = NULL, *name = NULL;
    bool json = false;
    const cli_opt opts[] = {
        {"--topo", NULL, "T", "shipped topology name or XML file (default " CR_TOPO_DEFAULT ")",
         .str = &topo},
        {"--json", NULL, NULL, "one JSON document on stdout", .flag = &json},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = 1},
        {"--list", NULL, NULL, "the shipped suites (as \"commroof suite list\")", .id = 2},
        {0}};
    cli_args args = cli_args_begin("suite", opts, argc, argv);
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r == CLI_ARGS_OPT && args.opt->id == 1) {
            suite_usage(stdout, opts);
            return CLI_OK;
        }
        if (r == CLI_ARGS_OPT && args.opt->id == 2) {
            if (name && strcmp(name, "list") != 0)
                return cli_usage_error("suite",
                                       "--list lists the suites: give it without a "
                                       "suite (got \"%s\")",
                                       name);
            name = "list";
            continue;
        }
        if (r != CLI_ARGS_ARG)
            continue;
        if (name)
            return cli_usage_error("suite", "one suite at a time (got \"%s\" and \"%s\")", name,
                                   args.val);
        name = args.val;
    }
    if (!name)
        return cli_usage_error("suite", "give a suite name (pkb, llm, h200x2) or file");
    if (strcmp(name, "list") == 0)
        return suite_list(json);
    cr_diag d = {{0}};
    cr_suite *s = NULL;
    cr_status st = cr_suite_open(name, &s, &d);
    if (st != CR_OK)
        return cli_fail("suite", "%s", d.msg);
    cr_topo *t = cli_open_topo("suite", topo);
    if (!t) {
        cr_suite_free(s);
        return CLI_FAIL;
    }
    cr_op_row *rows = NULL;
    int n = 0, rc = CLI_OK;
    st = cr_op_eval_suite(t, s, &rows, &n, &d);
    if (st != CR_OK)
        rc = cli_fail("suite", "%s", d.msg);
    else if (json)
        rc = cli_op_print_json("suite", rows_json(t, s, rows, n));
    else
        rows_human(t, s, rows, n);
    free(rows);
    cr_topo_free(t);
    cr_suite_free(s);
    return rc;
}
