/* SPDX-License-Identifier: MIT */
/*
 * `commroof plot KIND ... -o OUT.png|OUT.svg`: one chart, with its data file
 * and gnuplot script beside it (plots/chart.h). The chart kinds and where
 * their numbers come from live in plots/; this file parses options and
 * reports.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_dump.h"
#include "cli.h"
#include "sbuf.h"
#include "opts.h"
#include "topo_xml.h"
#include "coll.h"
#include "plots/chart.h"
#include "plots/plots.h"
#include "plots/sources.h"
#include "rankset.h"

#define MAX_FILES 64
#define MAX_TOPOS 16

static const char plot_help_head[] =
    "usage: commroof plot KIND [options] -o OUT.png|OUT.svg [--json]\n"
    "\n"
    "Draws one chart with gnuplot and writes, beside OUT, the numbers (OUT.dat) and\n"
    "the script (OUT.gp) so the chart can be restyled and re-rendered.\n"
    "\n"
    "kinds:\n"
    "  roofline        FLOP/s against FLOP per HBM byte: per-dtype compute ceilings,\n"
    "                  HBM ceiling; measured (--trace) and model points (--suite)\n"
    "  comm-roofline   FLOP/s against FLOP per byte communicated: NVLink, in-switch\n"
    "                  reduction, PCIe and InfiniBand ceilings; suite problems\n"
    "  gap             % of roofline per problem of a suite: baseline, prediction,\n"
    "                  measured (--measured-json, --trace); the bound is 100%\n"
    "  sweep COLL      bus bandwidth against message size: bound, NCCL's choice, each\n"
    "                  transfer mechanism; measured points (--trace, --nccl-tests)\n"
    "  compare         one suite on several topologies: bound time or headroom\n"
    "  accuracy        predicted against measured time of validated traces, y = x\n"
    "                  and a +/-10% band (--ratio: predicted / measured, linear)\n"
    "\n"
    "options:\n";

static const char plot_help_tail[] =
    "\n"
    "An option the chart does not draw (--metric on a roofline, --trace on compare)\n"
    "is a usage error, naming the charts that take it.\n"
    "gnuplot is run as \"gnuplot\" from PATH, or $COMMROOF_GNUPLOT.\n"
    "examples:\n"
    "  commroof plot roofline --topo h200-1 --trace traces/h200-1 -o roofline.png\n"
    "  commroof plot sweep allreduce --topo hgx-h200-8 -b 1K -e 8G -o ar.svg\n"
    "  commroof plot compare --suite llm --metric headroom -o llm.png\n";

typedef struct {
    const char *kind;
    const char *coll; /* sweep's collective */
    const char *out;
    const char *topo;
    const char *suite;
    const char *ranks;
    const char *dtype;
    const char *metric;
    const char *trace_topo;
    const char *measured_json;
    const char *traces[MAX_FILES];
    int n_traces;
    const char *logs[MAX_FILES];
    int n_logs;
    const char *positional[MAX_FILES]; /* accuracy: trace files */
    int n_positional;
    double min_bytes, max_bytes, factor;
    int gpu;
    bool json, no_render, ratio, allow_gpu;
    bool suite_given; /* rooflines show suite points only when asked */
    bool max_given;   /* -e given: the sweep ends there, whatever was measured */
    bool gpu_given, metric_given;
    const char *size_opt; /* the first of -b, -e, -f given (sweep only) */
} plot_opts;

static const char *gnuplot_prog(void)
{
    const char *g = getenv("COMMROOF_GNUPLOT");
    return g && g[0] ? g : "gnuplot";
}

/* Prints where the files went, or the chart's JSON. */
static int report_chart(const cr_chart *c, const plot_opts *o)
{
    size_t n = strlen(o->out);
    char stem[4096];
    snprintf(stem, sizeof stem, "%.*s", (int)(n - 4), o->out);
    char dat[4200], gp[4200];
    snprintf(dat, sizeof dat, "%s.dat", stem);
    snprintf(gp, sizeof gp, "%s.gp", stem);
    if (o->json) {
        char *js = NULL;
        if (cr_chart_json(c, &js) != CR_OK)
            return cli_fail("plot", "out of memory");
        json_t *chart = json_loads(js, 0, NULL);
        free(js);
        json_t *root = json_object();
        json_object_set_new(root, "kind", json_string(o->kind));
        json_object_set_new(root, "image", o->no_render ? json_null() : json_string(o->out));
        json_object_set_new(root, "data", json_string(dat));
        json_object_set_new(root, "script", json_string(gp));
        json_object_set_new(root, "chart", chart ? chart : json_null());
        char *txt = cr_json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        json_decref(root);
        if (!txt)
            return cli_fail("plot", "out of memory");
        puts(txt);
        free(txt);
        return CLI_OK;
    }
    const char *base = strrchr(gp, '/') ? strrchr(gp, '/') + 1 : gp;
    if (!o->no_render)
        printf("wrote %s\n", o->out);
    /* the command as it pastes into a shell (a name "r`id`.gp" ran id) */
    cr_sbuf cmd = {0};
    cr_sbuf_shell(&cmd, base);
    printf("  data:   %s\n  script: %s  (re-render: gnuplot %s, in its folder)\n", dat, gp,
           cmd.oom ? base : cmd.p);
    cr_sbuf_release(&cmd);
    return CLI_OK;
}

enum { O_METRIC = 1, O_GPU, O_TRACE, O_LOG, O_MIN, O_MAX, O_FACTOR, O_SUITE };

/* Returns CLI_OK, CLI_USAGE after a usage error, or -1 after --help. */
static int parse_opts(int argc, char **argv, plot_opts *o)
{
    memset(o, 0, sizeof *o);
    o->min_bytes = 8;
    o->max_bytes = 8.0 * 1024 * 1024 * 1024;
    o->factor = 2;
    o->suite = "pkb";
    o->metric = "bound";
    const cli_opt opts[] = {
        {"-o", "--output", "FILE", "output image, .png or .svg (required)", .str = &o->out,
         .output = true},
        {"--topo", NULL, "T",
         "topology name or file (default " CR_TOPO_DEFAULT ");\n"
         "compare: a comma-separated list (default hgx-h100-8,\n"
         "hgx-h200-8,hgx-b200-8,gb200-nvl72,mi300x-8,l40s-pcie-8)",
         .str = &o->topo},
        {"--suite", NULL, "S",
         "suite name or file (gap, compare: default pkb; rooflines:\n"
         "its problems as points)",
         .id = O_SUITE},
        {"--gpu", NULL, "R", "GPU rank whose figures the rooflines use (default 0)", .id = O_GPU},
        {"--trace", NULL, "FILE",
         "a commroof trace with measured cases (every chart but\n"
         "compare; repeatable; a folder takes every *.json and\n"
         "*.json.gz in it)",
         .id = O_TRACE, .repeat = true},
        {"--nccl-tests", NULL, "LOG", "an nccl-tests output log (sweep, accuracy; repeatable)",
         .id = O_LOG, .repeat = true},
        {"--measured-json", NULL, "F",
         "gap, rooflines: measured times of suite problems, in the\n"
         "form `commroof check --measured-json` reads ({\"name\": N,\n"
         "\"measured_us\": X}, ...); an entry is the problem named N,\n"
         "else the one with its \"op\" and \"params\"; \"variant\"\n"
         "and \"chunks\" name its bar",
         .str = &o->measured_json},
        {"--ratio", NULL, NULL, "accuracy: predicted / measured against measured",
         .flag = &o->ratio},
        {"--trace-topo", NULL, "T",
         "the machine the traces and logs come from, where their\n"
         "cases are evaluated (default: --topo)",
         .str = &o->trace_topo},
        {"--allow-gpu-mismatch", NULL, NULL,
         "traces or logs of another GPU model than the machine's:\n"
         "plot them anyway (a note), instead of the error",
         .flag = &o->allow_gpu},
        {"--ranks", NULL, "SPEC", "ranks of the collective (sweep; default all)", .str = &o->ranks},
        {"-b", NULL, "MIN",
         "sweep sizes as nccl-tests takes them (default 8 to 8G, x2,\n"
         "and on to the largest measured size); K, M, G suffixes\n"
         "are powers of 1024",
         .label = "-b MIN -e MAX -f F", .id = O_MIN},
        {"-e", NULL, "MAX", NULL, .id = O_MAX},
        {"-f", NULL, "F", NULL, .id = O_FACTOR},
        {"--dtype", NULL, "D", "element type (sweep; default fp32, nccl-tests' default)",
         .str = &o->dtype},
        {"--metric", NULL, "M", "compare: bound (bound time, us) or headroom (default bound)",
         .id = O_METRIC},
        {"--no-render", NULL, NULL, "write the data file and script only", .flag = &o->no_render},
        {"--json", NULL, NULL, "print the chart's numbers as one JSON document", .flag = &o->json},
        /* answered before the walk (cli_args_help); the row lists it */
        {"--help", "-h", NULL, "this text", .label = "--help, -h"},
        {0}};
    if (cli_args_help(argc, argv)) {
        fputs(plot_help_head, stdout);
        cli_opts_help(stdout, opts, 22, 0);
        fputs(plot_help_tail, stdout);
        return -1;
    }
    cli_args args = cli_args_begin("plot", opts, argc, argv);
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        const char *v = args.val;
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r == CLI_ARGS_ARG) {
            if (!o->kind) {
                o->kind = v;
            } else if (strcmp(o->kind, "sweep") == 0 && !o->coll) {
                o->coll = v;
            } else {
                if (o->n_positional == MAX_FILES)
                    return cli_usage_error("plot", "too many arguments");
                o->positional[o->n_positional++] = v;
            }
            continue;
        }
        switch (args.opt->id) {
        case O_SUITE:
            o->suite = v;
            o->suite_given = true;
            break;
        case O_METRIC:
            if (strcmp(v, "bound") != 0 && strcmp(v, "headroom") != 0)
                return cli_usage_error("plot", "--metric \"%s\": use bound or headroom", v);
            o->metric = v;
            o->metric_given = true;
            break;
        case O_GPU: {
            char *end = NULL;
            long g = strtol(v, &end, 10);
            if (end == v || *end || g < 0 || g > 1000000)
                return cli_usage_error("plot", "--gpu \"%s\" is not a GPU rank (0, 1, ...)", v);
            o->gpu = (int)g;
            o->gpu_given = true;
            break;
        }
        case O_TRACE:
        case O_LOG: {
            bool tr = args.opt->id == O_TRACE;
            int *n = tr ? &o->n_traces : &o->n_logs;
            if (*n == MAX_FILES)
                return cli_usage_error("plot", "at most %d %s files", MAX_FILES, args.name);
            (tr ? o->traces : o->logs)[(*n)++] = v;
            break;
        }
        case O_FACTOR: {
            char *end = NULL;
            double x = strtod(v, &end);
            if (end == v || *end || !(x > 1) || !isfinite(x))
                return cli_usage_error("plot", "-f \"%s\": the size factor must be > 1", v);
            o->factor = x;
            if (!o->size_opt)
                o->size_opt = args.opt->name;
            break;
        }
        case O_MIN:
        case O_MAX: {
            double x = 0;
            if (cli_parse_size(v, &x))
                return cli_usage_error("plot",
                                       "%s \"%s\" is not a whole number of bytes from 0 to 1PB "
                                       "(e.g. 8, 128K, 1G, 4MiB)",
                                       args.name, v);
            if (args.opt->id == O_MIN)
                o->min_bytes = x;
            else {
                o->max_bytes = x;
                o->max_given = true;
            }
            if (!o->size_opt)
                o->size_opt = args.opt->name;
            break;
        }
        default:
            break;
        }
    }
    return CLI_OK;
}

/* An option that only some chart kinds draw, given to another kind, would
 * be dropped without a word (plot compare --trace drew no measured time and
 * exited 0): it is refused, naming the kinds that take it. */
static int check_kind_opts(const plot_opts *o)
{
    static const char rooflines[] = "roofline comm-roofline";
    const struct {
        const char *name;
        bool given;
        const char *kinds; /* space-separated */
    } kind_opts[] = {
        {"--gpu", o->gpu_given, rooflines},
        {"--suite", o->suite_given, "roofline comm-roofline gap compare"},
        {"--measured-json", o->measured_json != NULL, "roofline comm-roofline gap"},
        {"--trace", o->n_traces > 0, "roofline comm-roofline gap sweep accuracy"},
        {"--nccl-tests", o->n_logs > 0, "sweep accuracy"},
        {"--trace-topo", o->trace_topo != NULL, "roofline comm-roofline gap sweep accuracy"},
        {"--allow-gpu-mismatch", o->allow_gpu, "roofline comm-roofline gap sweep accuracy"},
        {"--ranks", o->ranks != NULL, "sweep"},
        {o->size_opt, o->size_opt != NULL, "sweep"},
        {"--dtype", o->dtype != NULL, "sweep"},
        {"--metric", o->metric_given, "compare"},
        {"--ratio", o->ratio, "accuracy"},
    };
    size_t kl = strlen(o->kind);
    for (size_t i = 0; i < sizeof kind_opts / sizeof *kind_opts; i++) {
        if (!kind_opts[i].given)
            continue;
        const char *k = kind_opts[i].kinds;
        bool takes = false;
        for (const char *p = k; *p && !takes; p += strcspn(p, " "), p += *p == ' ') {
            size_t n = strcspn(p, " ");
            takes = n == kl && strncmp(p, o->kind, n) == 0;
        }
        if (takes)
            continue;
        /* "a b c" -> "the a, b and c charts" */
        char list[160] = "";
        int n = 0, words = 1;
        for (const char *p = k; *p; p++)
            words += *p == ' ';
        for (const char *p = k; *p; p += strcspn(p, " "), p += *p == ' ', n++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.*s",
                     n == 0           ? ""
                     : n == words - 1 ? " and "
                                      : ", ",
                     (int)strcspn(p, " "), p);
        return cli_usage_error("plot", "%s applies to the %s chart%s only, not to %s",
                               kind_opts[i].name, list, words > 1 ? "s" : "", o->kind);
    }
    return CLI_OK;
}

/* Splits a comma-separated list in place. */
static const char *const default_compare[] = {"hgx-h100-8",  "hgx-h200-8", "hgx-b200-8",
                                              "gb200-nvl72", "mi300x-8",   "l40s-pcie-8"};

int cli_cmd_plot(int argc, char **argv)
{
    plot_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc < 0)
        return CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if (!o.kind)
        return cli_usage_error("plot", "which chart? roofline, comm-roofline, gap, sweep, "
                                       "compare or accuracy");
    /* the chart first: "plot swep allreduce" said "unexpected argument
     * allreduce" (the misspelt kind's collective), and without -o "say
     * where the chart goes", never the word that was wrong (QA audit of
     * the CLI) */
    static const char *const kinds[] = {"roofline", "comm-roofline", "gap",
                                        "sweep",    "compare",       "accuracy"};
    bool known = false;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        known = known || strcmp(o.kind, kinds[i]) == 0;
    if (!known)
        return cli_usage_error("plot",
                               "unknown chart \"%s\": roofline, comm-roofline, gap, sweep, "
                               "compare or accuracy",
                               o.kind);
    if (!o.out)
        return cli_usage_error("plot", "say where the chart goes: -o OUT.png or -o OUT.svg");
    size_t ol = strlen(o.out);
    if (ol < 4 || (strcmp(o.out + ol - 4, ".png") != 0 && strcmp(o.out + ol - 4, ".svg") != 0))
        return cli_usage_error("plot", "-o \"%s\": the chart's name must end in .png or .svg",
                               o.out);
    if (ol == 4 || o.out[ol - 5] == '/')
        return cli_usage_error("plot",
                               "-o \"%s\": give the chart a name before %s (e.g. -o "
                               "roofline%s)",
                               o.out, o.out + ol - 4, o.out + ol - 4);
    bool is_acc = strcmp(o.kind, "accuracy") == 0;
    if (o.n_positional > 0 && !is_acc)
        return cli_usage_error("plot", "unexpected argument \"%s\"", o.positional[0]);

    if ((rc = check_kind_opts(&o)) != CLI_OK)
        return rc;
    if (is_acc) {
        for (int i = 0; i < o.n_positional && o.n_traces < MAX_FILES; i++)
            o.traces[o.n_traces++] = o.positional[i];
        if (o.n_traces == 0 && o.n_logs == 0)
            return cli_usage_error("plot", "accuracy needs traces (commroof plot accuracy "
                                           "TRACE...) or --nccl-tests LOG");
    }
    if (strcmp(o.kind, "sweep") == 0 && !o.coll)
        return cli_usage_error("plot", "sweep needs a collective: commroof plot sweep "
                                       "allreduce ...");
    if (o.min_bytes > o.max_bytes)
        return cli_usage_error("plot", "-b %.0f is larger than -e %.0f", o.min_bytes, o.max_bytes);
    if (strcmp(o.kind, "sweep") == 0 && o.min_bytes == 0 && o.max_bytes > 0)
        return cli_usage_error("plot", "-b 0 with a multiplying step never grows; start at -b 1 "
                                       "or above");

    cr_diag d = {{0}};
    cr_status st = CR_OK;
    cr_chart *c = NULL;
    cr_topo *t = NULL, *mt = NULL;
    cr_rankset *ranks = NULL;
    char *list = NULL;
    cr_plot_sources src = {0};
    src.suite = o.suite;
    src.traces = o.traces;
    src.n_traces = o.n_traces;
    src.nccl_logs = o.logs;
    src.n_nccl_logs = o.n_logs;
    src.measured_json = o.measured_json;
    bool roof = strcmp(o.kind, "roofline") == 0 || strcmp(o.kind, "comm-roofline") == 0;
    if (roof && !o.suite_given && o.measured_json)
        /* harness results are placed by their problem's name */
        return cli_usage_error("plot",
                               "--measured-json places each result at its suite problem: give "
                               "--suite too (e.g. --suite pkb)");
    if (roof && !o.suite_given)
        src.suite = NULL;
    if (o.trace_topo) {
        if (!(mt = cli_open_topo("plot", o.trace_topo)))
            return CLI_FAIL;
        src.meas_topo = mt;
    }

    if (strcmp(o.kind, "compare") == 0) {
        const char *names[MAX_TOPOS];
        int nt = 0;
        if (o.topo) {
            if (!(list = strdup(o.topo))) {
                rc = cli_fail("plot", "out of memory");
                goto out;
            }
            if ((rc = cli_parse_topo_list("plot", "--topo", list, o.topo, names, MAX_TOPOS, &nt)) !=
                0)
                goto out;
        } else {
            for (size_t i = 0; i < sizeof default_compare / sizeof *default_compare; i++)
                names[nt++] = default_compare[i];
        }
        st = cr_plot_compare_suite(
            &src, names, nt,
            strcmp(o.metric, "headroom") == 0 ? CR_COMPARE_HEADROOM : CR_COMPARE_BOUND_US, &c, &d);
    } else {
        if (!(t = cli_open_topo("plot", o.topo))) {
            rc = CLI_FAIL;
            goto out;
        }
        if (o.gpu >= t->n_gpus) {
            rc = cli_usage_error("plot", "--gpu %d: %s has GPUs 0 to %d", o.gpu, t->name,
                                 t->n_gpus - 1);
            goto out;
        }
        /* measured points of another GPU against this machine's model say
         * nothing of either (an H200 trace drawn on an H100's roofline),
         * as validate, roofline and report refuse them */
        const cr_topo *meas = mt ? mt : t;
        if ((o.n_traces > 0 && (rc = cli_check_trace_files_gpus("plot", meas, o.traces, o.n_traces,
                                                                o.allow_gpu)) != CLI_OK) ||
            (o.n_logs > 0 && (rc = cli_check_log_files_gpus("plot", meas, o.logs, o.n_logs,
                                                            o.allow_gpu)) != CLI_OK))
            goto out;
        if (strcmp(o.kind, "roofline") == 0) {
            st = cr_plot_roofline_from(t, o.gpu, &src, false, &c, &d);
        } else if (strcmp(o.kind, "comm-roofline") == 0) {
            st = cr_plot_roofline_from(t, o.gpu, &src, true, &c, &d);
        } else if (strcmp(o.kind, "gap") == 0) {
            st = cr_plot_gap_suite(t, &src, &c, &d);
        } else if (is_acc) {
            st = cr_plot_accuracy_from(t, &src, o.ratio, &c, &d);
        } else {
            cr_sweep_opts so = {0};
            so.dtype = CR_DT_FP32;
            if (cr_coll_parse(o.coll, &so.coll, &d) != CR_OK) {
                rc = cli_usage_error("plot", "%s", d.msg);
                goto out;
            }
            /* the element types coll and sim take (tf32 and fp4 are no
             * NCCL type: a chart of them was drawn, QA audit session 42) */
            if ((rc = cli_parse_nccl_dtype("plot", o.dtype, &so.dtype)) != 0 ||
                (rc = cli_check_coll_opts("plot", so.coll, so.dtype, false)) != 0)
                goto out;
            if (o.ranks && cr_rankset_parse(o.ranks, t->n_gpus, &ranks, &d) != CR_OK) {
                rc = cli_usage_error("plot", "%s", d.msg);
                goto out;
            }
            /* one rank moves nothing between GPUs: a command-line
             * problem, refused as sim refuses it */
            if ((ranks ? ranks->n : t->n_gpus) < 2) {
                rc = cli_usage_error("plot",
                                     "%s%s: one rank moves nothing between GPUs; sweep 2 or "
                                     "more (--ranks, or a topology with more GPUs)",
                                     o.ranks ? "--ranks " : "--topo ", o.ranks ? o.ranks : t->name);
                goto out;
            }
            /* sizes that hold no element a rank: a command-line problem,
             * named as given (-b 0 -e 0 read "sizes 1 to 1 B", exit 1,
             * where -b 0 -e 8 was a usage error) */
            if (o.max_given &&
                cr_plot_sweep_sizes_check(so.coll, so.dtype, ranks ? ranks->n : t->n_gpus,
                                          o.min_bytes, o.max_bytes, o.factor, &d) != CR_OK) {
                rc = cli_usage_error("plot", "%s", d.msg);
                goto out;
            }
            so.min_bytes = o.min_bytes > 0 ? o.min_bytes : 1;
            so.max_bytes = o.max_bytes > 0 ? o.max_bytes : 1;
            so.factor = o.factor;
            so.ranks = ranks;
            so.past_max_to_measured = !o.max_given;
            st = cr_plot_sweep_from(t, &so, &src, &c, &d);
        }
    }
    if (st != CR_OK) {
        rc = cli_fail_status("plot", st, d.msg);
        goto out;
    }
    memset(&d, 0, sizeof d);
    st = cr_chart_render(c, o.out, o.no_render ? NULL : gnuplot_prog(), &d);
    if (st != CR_OK) {
        rc = cli_fail("plot", "%s", d.msg);
        goto out;
    }
    rc = report_chart(c, &o);
out:
    cr_chart_free(c);
    cr_rankset_free(ranks);
    cr_topo_free(t);
    cr_topo_free(mt);
    free(list);
    return rc;
}
