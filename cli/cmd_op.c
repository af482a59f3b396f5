/* SPDX-License-Identifier: MIT */
/*
 * `commroof op OP --topo T [parameters]`: one operator's FLOPs, HBM bytes and
 * communication, its bound with the binding resource, the PyTorch + NCCL
 * baseline, the intra-SM and inter-SM overlap predictions and the headroom
 * (model/ops.h). `commroof op list` lists the catalog.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_op.h"
#include "opts.h"
#include "ops.h"
#include "topo_xml.h"

static void op_usage(FILE *f, const cli_opt *opts)
{
    fputs("usage: commroof op OP [--topo T] [--PARAM VALUE ...] [--cold] [--json]\n"
          "       commroof op list [--json]\n"
          "       commroof op OP --help          (OP's parameters and defaults)\n"
          "\n"
          "For one operator: FLOPs, HBM bytes and communication per GPU; the "
          "bound\n"
          "(max(T_compute, T_hbm, T_comm over every cut with that cut's latency,\n"
          "latency)) with its binding resource; the PyTorch + NCCL baseline (compute,\n"
          "then NCCL, unoverlapped); intra-SM and inter-SM overlap predictions with the\n"
          "best SM split; headroom = baseline / bound. Formulas: doc/operators.md.\n"
          "The bound is the warm one (bytes that fit in the L2 may stay there between\n"
          "iterations and move at its bandwidth: the strict limit); bound_cold is the\n"
          "HBM-only one.\n"
          "\n"
          "options:\n",
          f);
    cli_opts_help(f, opts, 16, 0);
    fputs("\n"
          "Layout: --tp --cp --ep --dp --pp set group sizes; ranks are laid out "
          "inner to\n"
          "outer in --order (default tp,cp,ep,dp,pp), so tp 8 fills an 8-GPU "
          "node and\n"
          "dp then takes one GPU per node.\n"
          "\n"
          "examples:\n"
          "  commroof op list\n"
          "  commroof op gemm --topo h200-1 --m 8192 --n 8192 --k 8192\n"
          "  commroof op gemm_rs --topo hgx-h100-8 --m 8192 --n 8192 --k 28672 "
          "--tp 8\n"
          "  commroof op ddp --topo h100-ib-1024n --params 70G --tokens 4096 "
          "--tp 8 --dp 1024\n",
          f);
}

static int op_list(bool json)
{
    if (json) {
        json_t *arr = json_array();
        for (int i = 0; cr_op_at(i); i++) {
            const cr_op_def *op = cr_op_at(i);
            json_t *ps = json_array();
            for (int k = 0; k < CR_OPP__COUNT; k++)
                if (cr_op_uses(op, (cr_opp)k))
                    json_array_append_new(ps, json_string(cr_opp_name((cr_opp)k)));
            if (cr_op_has_order(op))
                json_array_append_new(ps, json_string("order"));
            json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:o}", "op", cr_op_name(op),
                                                 "category", cr_op_category(op), "summary",
                                                 cr_op_summary(op), "params", ps));
        }
        return cli_op_print_json("op", json_pack("{s:o}", "operators", arr));
    }
    printf("# commroof operators (ParallelKernelBench categories)\n");
    printf("# %-12s %-10s %s\n", "op", "category", "summary");
    for (int i = 0; cr_op_at(i); i++) {
        const cr_op_def *op = cr_op_at(i);
        printf("  %-12s %-10s %s\n", cr_op_name(op), cr_op_category(op), cr_op_summary(op));
    }
    return CLI_OK;
}

static void print_human(const cr_topo *t, const cr_op_def *op, const cr_op_params *p,
                        const cr_op_result *r)
{
    char params[600];
    cli_op_params_text(op, p, params, sizeof params);
    const cr_gpu_spec *g = cr_topo_gpu_spec(t, 0);
    printf("# commroof op %s on %s (%d GPU%s, %s)\n", cr_op_name(op), t->name, t->n_gpus,
           t->n_gpus == 1 ? "" : "s", g ? g->name : "?");
    printf("# %s\n", params);
    for (int i = 0; i < r->n_comm; i++)
        printf("# phase %d: %s (%s) over %s\n", i + 1, r->comm[i].what, r->comm[i].coll,
               r->comm[i].group);
    if (!strncmp(r->bound_by, "a split", 7))
        printf("# bound: by %s (the least over splits between algorithms; the columns are "
               "the phases')\n",
               r->bound_by);
    else if (r->bound_by[0])
        printf("# bound: by another algorithm that moves less, %s (the least over algorithms; "
               "the columns are the phases')\n",
               r->bound_by);
    if (r->mma_bound_by[0])
        printf("# compute: %s (doc/bounds.md 1.10)\n", r->mma_bound_by);
    printf("#\n#%12s %12s %12s %12s %10s %10s %10s %10s %10s  %s\n", "flops", "hbm_bytes",
           "comm_bytes", "traffic", "compute", "hbm", "comm", "latency", "bound", "binding");
    printf("#%12s %12s %12s %12s %10s %10s %10s %10s %10s  %s\n", "(FLOP)", "(B)", "(B)", "(B)",
           "(us)", "(us)", "(us)", "(us)", "(us)", "");
    char u[5][24];
    printf(" %12.5g %12.5g %12.5g %12.5g %10s %10s %10s %10s %10s  %s\n", r->flops, r->hbm_bytes,
           r->comm_bytes, r->traffic_bytes, cli_us_text(u[0], sizeof u[0], r->t_compute_s * 1e6),
           cli_us_text(u[1], sizeof u[1], r->t_hbm_s * 1e6),
           cli_us_text(u[2], sizeof u[2], r->t_comm_s * 1e6),
           cli_us_text(u[3], sizeof u[3], r->lat_s * 1e6),
           cli_us_text(u[4], sizeof u[4], r->bound_s * 1e6), r->binding);
    if (r->n_comm > 0) {
        printf("\n\n# communication phases: bound of each alone, NCCL's choice\n");
        printf("#%-26s %-13s %12s %5s %10s %10s %-7s %-6s  %s\n", "phase", "coll", "bytes", "ranks",
               "bound", "nccl", "algo", "proto", "binding");
        printf("#%-26s %-13s %12s %5s %10s %10s %-7s %-6s  %s\n", "", "", "(B)", "", "(us)", "(us)",
               "", "", "");
        for (int i = 0; i < r->n_comm; i++) {
            const cr_op_comm *c = &r->comm[i];
            char what[32];
            cli_field(what, sizeof what, c->what, 26);
            printf(" %-26s %-13s %12.5g %5d %10s %10s %-7s %-6s  %s\n", what, c->coll, c->bytes,
                   c->group_size, cli_us_text(u[0], sizeof u[0], c->bound_s * 1e6),
                   cli_us_text(u[1], sizeof u[1], c->nccl_s * 1e6), c->algo, c->proto, c->binding);
        }
    }
    if (r->has_overlap) {
        printf("\n\n# overlap schedules (ParallelKittens: T = T_launch + "
               "max(T_comp, T_mem, "
               "T_comm) + T_non-overlapped + T_sync)\n");
        printf("#%-9s %10s %8s %-9s %10s %10s %10s %10s %10s %10s\n", "schedule", "pred",
               "comm_sms", "mech", "t_launch", "t_comp", "t_mem", "t_comm", "t_nonovl", "t_sync");
        printf("#%-9s %10s %8s %-9s %10s %10s %10s %10s %10s %10s\n", "", "(us)", "", "", "(us)",
               "(us)", "(us)", "(us)", "(us)", "(us)");
        const cr_op_sched *s[2] = {&r->intra, &r->inter};
        const char *nm[2] = {"intra-sm", "inter-sm"};
        /* a schedule that cannot run has no time: "-", as JSON's null
         * (it printed inf) */
        for (int i = 0; i < 2; i++) {
            char v[7][24];
            printf(" %-9s %10s %8d %-9s %10s %10s %10s %10s %10s %10s\n", nm[i],
                   cli_us_text(v[0], sizeof v[0], s[i]->pred_s * 1e6), s[i]->comm_sms, s[i]->mech,
                   cli_us_text(v[1], sizeof v[1], s[i]->t_launch_s * 1e6),
                   cli_us_text(v[2], sizeof v[2], s[i]->t_comp_s * 1e6),
                   cli_us_text(v[3], sizeof v[3], s[i]->t_mem_s * 1e6),
                   cli_us_text(v[4], sizeof v[4], s[i]->t_comm_s * 1e6),
                   cli_us_text(v[5], sizeof v[5], s[i]->t_nonoverlap_s * 1e6),
                   cli_us_text(v[6], sizeof v[6], s[i]->t_sync_s * 1e6));
        }
    }
    printf("\n\n# summary: baseline = PyTorch + NCCL unoverlapped (%.0f launch%s); "
           "headroom = "
           "baseline / bound\n",
           r->baseline_kernels, r->baseline_kernels == 1 ? "" : "es");
    printf("#%10s %10s %12s %10s %9s %-12s %s\n", "bound", "bound_cold", "baseline", "pred",
           "headroom", "schedule", "binding");
    printf("#%10s %10s %12s %10s %9s %-12s %s\n", "(us)", "(us)", "(us)", "(us)", "(x)", "", "");
    printf(" %10s %10s %12s %10s %9.3g %-12s %s\n",
           cli_us_text(u[0], sizeof u[0], r->bound_s * 1e6),
           cli_us_text(u[1], sizeof u[1], r->bound_cold_s * 1e6),
           cli_us_text(u[2], sizeof u[2], r->baseline_s * 1e6),
           cli_us_text(u[3], sizeof u[3], r->pred_s * 1e6), r->headroom, r->schedule, r->binding);
    printf("# %s\n", r->why);
}

enum { O_HELP = 1, O_LIST };

int cli_cmd_op(int argc, char **argv)
{
    const char *topo = NULL, *opname = NULL;
    bool json = false, help = false, cold = false;
    const cr_op_def *op = NULL;
    cr_op_params p;
    memset(&p, 0, sizeof p);
    const cli_opt opts[] = {
        {"--topo", NULL, "T", "shipped topology name or XML file (default " CR_TOPO_DEFAULT ")",
         .str = &topo},
        {.label = "--PARAM V",
         .help = "an operator parameter (also PARAM=V); sizes take k/M/G suffixes\n"
                 "(128k = 131072), bytes a unit (64MiB)"},
        {"--cold", NULL, NULL,
         "make the cold (HBM-only) bound the bound: for harnesses\n"
         "that flush the caches between iterations",
         .flag = &cold},
        {"--json", NULL, NULL, "one JSON document on stdout", .flag = &json},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = O_HELP},
        {0}};
    /* first pass: the operator and the help flag, so parameters parse against it
     */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            help = true;
        /* --list is list, as a harness spells it ("op --list" asked for an
         * operator, and "op --list --json" took --json as its value) */
        else if (strcmp(argv[i], "--list") == 0 && !opname)
            opname = "list";
        else if (strcmp(argv[i], "--json") != 0 && strcmp(argv[i], "--cold") != 0 &&
                 argv[i][0] == '-' && argv[i][1] == '-' && i + 1 < argc && !strchr(argv[i], '='))
            i++; /* an option's value */
        else if (argv[i][0] != '-' && !strchr(argv[i], '=') && !opname)
            opname = argv[i];
    }
    if (!opname) {
        if (help) {
            op_usage(stdout, opts);
            return CLI_OK;
        }
        return cli_usage_error("op", "give an operator (commroof op list shows them)");
    }
    if (strcmp(opname, "list") == 0) {
        if (help) {
            op_usage(stdout, opts);
            return CLI_OK;
        }
        /* list takes --json alone: the scan above lets any word through,
         * and a scan of its own for --json ran "op list --bogus", "op list
         * extra" and "op list --json --json" with exit 0 (QA audit of the
         * docs: an option twice is a usage error everywhere else) */
        const cli_opt list_opts[] = {
            {"--json", NULL, NULL, "one JSON document on stdout", .flag = &json},
            {"--list", NULL, NULL, "the operators", .id = O_LIST},
            {0}};
        bool named = false;
        cli_args la = cli_args_begin("op", list_opts, argc, argv);
        for (int r; (r = cli_args_next(&la)) != CLI_ARGS_END;) {
            if (r == CLI_ARGS_ERROR)
                return CLI_USAGE;
            if (r != CLI_ARGS_ARG)
                continue;
            if (strcmp(la.val, "list") == 0 && !named) {
                named = true;
                continue;
            }
            return cli_usage_error("op", "op list takes no argument but --json (got \"%s\")",
                                   la.val);
        }
        return op_list(json);
    }
    cr_diag d = {{0}};
    if (cr_op_find(opname, &op, &d) != CR_OK)
        return cli_usage_error("op", "%s", d.msg);
    if (help) {
        printf("usage: commroof op %s [--topo T] [--PARAM VALUE ...] "
               "[--cold] [--json]\n\n%s\n\n"
               "parameters (default, meaning):\n",
               cr_op_name(op), cr_op_summary(op));
        cli_op_params_help(stdout, op);
        printf("\nFormulas and derivations: doc/operators.md.\n");
        return CLI_OK;
    }
    cr_op_params_defaults(op, &p);
    bool order_given = false;
    cli_args args = cli_args_begin("op", opts, argc, argv);
    args.pass_unknown = true; /* the operator's parameters */
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r == CLI_ARGS_OPT || (r == CLI_ARGS_ARG && args.val == opname))
            continue;
        if (r == CLI_ARGS_ARG)
            args.i--; /* PARAM=V, or not a parameter */
        const char *a = argv[args.i];
        int rc = cli_op_param_arg("op", op, &p, &order_given, argc, argv, &args.i);
        if (rc < 0)
            return CLI_USAGE;
        if (rc == 0)
            return cli_op_unknown_arg("op", op, opts, a);
    }
    cr_topo *t = cli_open_topo("op", topo);
    if (!t)
        return CLI_FAIL;
    cr_op_result r;
    cr_status st = cr_op_eval(t, op, &p, &r, &d);
    int rc = CLI_OK;
    if (st == CR_EINVAL || st == CR_ERANGE || st == CR_EPARSE)
        rc = cli_usage_error("op", "%s", d.msg);
    else if (st != CR_OK)
        rc = cli_fail("op", "%s", d.msg);
    if (st == CR_OK && cold)
        cr_op_result_use_cold(&r);
    if (st != CR_OK)
        ;
    else if (json)
        rc = cli_op_print_json("op", cli_op_result_json(t, op, &p, &r));
    else
        print_human(t, op, &p, &r);
    cr_topo_free(t);
    return rc;
}
