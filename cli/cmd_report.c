/* SPDX-License-Identifier: MIT */
/*
 * `commroof report --topo T [--suite S] -o DIR`: every table and chart for a
 * machine and a suite, and DIR/index.html showing them (plots/report.h).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_dump.h"
#include "cli.h"
#include "opts.h"
#include "plots/report.h"
#include "sbuf.h"
#include "topo_xml.h"

#define MAX_FILES 64
#define MAX_TOPOS 16

static const char report_help_head[] =
    "usage: commroof report [--topo T] [--suite S] -o DIR [options] [--json]\n"
    "\n"
    "Writes into DIR every table (text, CSV, JSON) and chart (PNG, SVG, data file,\n"
    "gnuplot script) for one machine and one suite, and DIR/index.html that shows\n"
    "each chart with the numbers behind it: machine ceilings, the suite's bound,\n"
    "baseline and headroom, measured problems (% of roofline), validation of\n"
    "measured traces, roofline, communication roofline, gap to the roofline, an\n"
    "all-reduce size sweep, a comparison across machines and the prediction\n"
    "accuracy and error. Parts without input are listed as skipped. With --trace, a\n"
    "\"Program roofline\" part: the table of `commroof roofline TRACE...` (one row per\n"
    "operator, its bound and what the program could save) and its gap chart.\n"
    "\n"
    "options:\n";

static const char report_help_tail[] =
    "\n"
    "gnuplot is run as \"gnuplot\" from PATH, or $COMMROOF_GNUPLOT.\n"
    "Exit status: 0 ok; 1 runtime failure; 2 usage; 3 a measured time below its bound\n"
    "(program roofline, validation, or a --measured-json time in the measured table;\n"
    "the report is still written and says so).\n"
    "example:\n"
    "  commroof report --topo hgx-h200-8 --suite pkb --trace traces/h200-1 -o report\n"
    "  commroof report --topo hgx-h200-8 --suite h200x2 --ranks 0,1 \\\n"
    "      --measured-json traces/nvidia-h200-x2/fused-measured.json \\\n"
    "      --trace traces/nvidia-h200-x2/fused.json.gz -o report-h200x2\n"
    "  commroof report --topo h200-1 --dtype bf16 \\\n"
    "      --trace traces/h200-1/roofline-demo/torch_roofline.json.gz -o report-torch\n";

int cli_cmd_report(int argc, char **argv)
{
    const char *dir = NULL, *topo = NULL, *suite = "pkb", *compare = NULL, *trace_topo = NULL;
    const char *measured_json = NULL, *ranks_spec = NULL, *corpus = NULL;
    const char *traces[MAX_FILES], *logs[MAX_FILES];
    int nt = 0, nl = 0;
    bool json = false, no_render = false, has_dtype = false, allow_gpu = false;
    cr_dtype dtype = CR_DT_BF16;
    long top = 0;
    enum { O_DTYPE = 1, O_TOP, O_TRACE, O_LOG };
    const cli_opt opts[] = {
        {"-o", "--output", "DIR",
         "the report folder: new, empty or an earlier report's (replaced whole)", .str = &dir},
        {"--topo", NULL, "T", "topology name or file (default " CR_TOPO_DEFAULT ")", .str = &topo},
        {"--suite", NULL, "S", "suite name or file (default pkb)", .str = &suite},
        {"--trace", NULL, "FILE", "commroof trace, or a folder of them (repeatable)", .id = O_TRACE,
         .repeat = true},
        {"--nccl-tests", NULL, "LOG", "nccl-tests output log (repeatable)", .id = O_LOG,
         .repeat = true},
        {"--trace-topo", NULL, "T",
         "the machine the traces and logs come from, where their\n"
         "cases are evaluated (default: --topo)",
         .str = &trace_topo},
        {"--measured-json", NULL, "F",
         "measured times of suite problems for the gap chart, as\n"
         "`commroof check --measured-json` reads them (by name,\n"
         "else by \"op\" and \"params\")",
         .str = &measured_json},
        {"--ranks", NULL, "SPEC",
         "GPUs of the all-reduce sweep (default every GPU; e.g. 0,1)\n"
         "and of the traces' collectives (program roofline)",
         .str = &ranks_spec},
        {"--dtype", NULL, "D",
         "element type of traced operators whose kernels do not\n"
         "show it (program roofline, with --trace: as commroof\n"
         "roofline --dtype)",
         .id = O_DTYPE},
        {"--top", NULL, "N",
         "operators on the program roofline's gap chart, most time\n"
         "to save first (with --trace; default 12; the rest summed)",
         .id = O_TOP},
        {"--compare", NULL, "T1,T2,..",
         "topologies of the comparison charts (default hgx-h100-8,\n"
         "hgx-h200-8,hgx-b200-8,gb200-nvl72,mi300x-8,l40s-pcie-8)",
         .str = &compare},
        {"--corpus", NULL, "DIR",
         "also a \"Measurement corpus\" part: every log of the corpus\n"
         "DIR (validate/corpus layout: topologies.txt, split.txt,\n"
         "SYSTEM/*.log) on its own system's topology, per half, system\n"
         "and size band (commroof validate --corpus DIR)",
         .str = &corpus},
        {"--allow-gpu-mismatch", NULL, NULL,
         "traces or logs of another GPU model than the machine's:\n"
         "compare anyway (a note), instead of the error",
         .flag = &allow_gpu},
        {"--no-render", NULL, NULL, "data files and scripts, no images", .flag = &no_render},
        {"--json", NULL, NULL, "list what was written as one JSON document", .flag = &json},
        /* answered before the walk (cli_args_help); the row lists it */
        {"--help", "-h", NULL, "this text", .label = "--help, -h"},
        {0}};
    if (cli_args_help(argc, argv)) {
        fputs(report_help_head, stdout);
        cli_opts_help(stdout, opts, 22, 0);
        fputs(report_help_tail, stdout);
        return CLI_OK;
    }
    cli_args args = cli_args_begin("report", opts, argc, argv);
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        const char *v = args.val;
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r == CLI_ARGS_ARG)
            return cli_usage_error("report", "unexpected argument \"%s\"", v);
        switch (args.opt->id) {
        case O_DTYPE: {
            cr_diag dd = {{0}};
            if (cr_dtype_parse(v, &dtype, &dd) != CR_OK)
                return cli_usage_error("report", "--dtype: %s", dd.msg);
            has_dtype = true;
            break;
        }
        case O_TOP: {
            char *end;
            errno = 0;
            top = strtol(v, &end, 10);
            if (errno || *end || end == v || top < 1 || top > 1000)
                return cli_usage_error("report", "--top \"%s\" is not a count from 1 to 1000", v);
            break;
        }
        case O_TRACE:
            if (nt == MAX_FILES)
                return cli_usage_error("report", "at most %d --trace", MAX_FILES);
            traces[nt++] = v;
            break;
        case O_LOG:
            if (nl == MAX_FILES)
                return cli_usage_error("report", "at most %d --nccl-tests", MAX_FILES);
            logs[nl++] = v;
            break;
        default:
            break;
        }
    }
    if (!dir || !dir[0])
        return cli_usage_error("report", "say where the report goes: -o DIR");
    /* options of parts that only traces make would be dropped without a
     * word (QA audit of the documentation examples) */
    if (nt == 0 && (has_dtype || top > 0))
        return cli_usage_error("report",
                               "%s applies to the program roofline, which only --trace makes: give "
                               "--trace TRACE too, or leave %s out",
                               has_dtype ? "--dtype" : "--top", has_dtype ? "--dtype" : "--top");
    /* inputs named by an option fail under that option's name, not under
     * the first part that reads them (QA audit of 2026-12-06) */
    for (int i = 0; i < nt + nl; i++) {
        const char *path = i < nt ? traces[i] : logs[i - nt];
        if (access(path, R_OK) != 0)
            return cli_fail("report", "%s %s: cannot open: %s", i < nt ? "--trace" : "--nccl-tests",
                            path, strerror(errno));
    }
    /* the same for the harness results and the corpus, which failed under
     * their part's title ("Measured problems: % of roofline: X: cannot
     * open"), the corpus only after every chart had been rendered */
    if (measured_json && access(measured_json, R_OK) != 0)
        return cli_fail("report", "--measured-json %s: cannot open: %s", measured_json,
                        strerror(errno));
    struct stat cs;
    if (corpus && stat(corpus, &cs) != 0)
        return cli_fail("report", "--corpus %s: cannot open: %s", corpus, strerror(errno));
    if (corpus && !S_ISDIR(cs.st_mode))
        return cli_fail("report",
                        "--corpus %s: not a folder; give the corpus folder (validate/corpus: "
                        "topologies.txt and one folder of logs per system)",
                        corpus);

    const char *cmp[MAX_TOPOS];
    int nc = 0;
    char *cmp_buf = NULL;
    if (compare) {
        cmp_buf = strdup(compare);
        if (!cmp_buf)
            return cli_fail("report", "out of memory");
        int rc = cli_parse_topo_list("report", "--compare", cmp_buf, compare, cmp, MAX_TOPOS, &nc);
        /* each machine opened now, so that a wrong name fails under
         * --compare before anything is drawn (it failed under "Hardware
         * comparison: bound time", the other charts rendered) */
        for (int i = 0; rc == 0 && i < nc; i++) {
            cr_topo *ct = NULL;
            cr_diag cd = {{0}};
            if (cr_topo_open(cmp[i], &ct, &cd) != CR_OK)
                rc = cli_fail("report", "--compare %s: %s", compare, cd.msg);
            cr_topo_free(ct);
        }
        if (rc != 0) {
            free(cmp_buf);
            return rc;
        }
    }
    cr_topo *t = cli_open_topo("report", topo), *mt = NULL;
    if (!t || (trace_topo && !(mt = cli_open_topo("report", trace_topo)))) {
        cr_topo_free(t);
        free(cmp_buf);
        return CLI_FAIL;
    }
    cr_rankset *ranks = NULL;
    cr_diag rd = {{0}};
    /* the rank set also names the GPUs of the traces' collectives, on the
     * machine they ran on */
    cr_rankset *mranks = NULL;
    if (ranks_spec && mt && (nt > 0 || nl > 0) &&
        cr_rankset_parse(ranks_spec, mt->n_gpus, &mranks, &rd) != CR_OK) {
        int rc =
            cli_usage_error("report", "--ranks %s on %s (--trace-topo, the traces' machine): %s",
                            ranks_spec, mt->name, rd.msg);
        cr_topo_free(t);
        cr_topo_free(mt);
        free(cmp_buf);
        return rc;
    }
    cr_rankset_free(mranks);
    if (ranks_spec && cr_rankset_parse(ranks_spec, t->n_gpus, &ranks, &rd) != CR_OK) {
        int rc = cli_usage_error("report", "--ranks %s on %s (--topo, the sweep's machine): %s",
                                 ranks_spec, t->name, rd.msg);
        cr_topo_free(t);
        cr_topo_free(mt);
        free(cmp_buf);
        return rc;
    }
    /* a trace of another GPU held to this machine's bounds: every verdict
     * of the validation and program parts would be another GPU's (an H200
     * trace on an H100 topology: 120 times "below the bound") */
    if ((nt > 0 &&
         cli_check_trace_files_gpus("report", mt ? mt : t, traces, nt, allow_gpu) != CLI_OK) ||
        (nl > 0 &&
         cli_check_log_files_gpus("report", mt ? mt : t, logs, nl, allow_gpu) != CLI_OK)) {
        cr_rankset_free(ranks);
        cr_topo_free(t);
        cr_topo_free(mt);
        free(cmp_buf);
        return CLI_FAIL;
    }
    /* the command line, for the page's header, each word quoted for a
     * shell where it needs it: "-o /tmp/r a$(id)" pasted back ran id */
    cr_sbuf cmdline = {0};
    cr_sbuf_add(&cmdline, "commroof");
    for (int i = 0; i < argc; i++) {
        cr_sbuf_add(&cmdline, " ");
        cr_sbuf_shell(&cmdline, argv[i]);
    }
    const char *g = getenv("COMMROOF_GNUPLOT");
    cr_report_opts o = {0};
    o.topo = t;
    o.src.suite = suite;
    o.src.traces = traces;
    o.src.n_traces = nt;
    o.src.nccl_logs = logs;
    o.src.n_nccl_logs = nl;
    o.src.meas_topo = mt;
    o.src.measured_json = measured_json;
    o.compare_topos = nc ? cmp : NULL;
    o.n_compare = nc;
    o.sweep_ranks = ranks;
    o.gnuplot = no_render ? NULL : (g && g[0] ? g : "gnuplot");
    o.command = cmdline.oom ? "commroof report" : cmdline.p;
    o.corpus_dir = corpus;
    o.roofline.ranks = ranks_spec;
    o.roofline.has_dtype = has_dtype;
    o.roofline.dtype = dtype;
    o.roofline_top = (int)top;
    if (cli_progress_enabled())
        fprintf(stderr, "commroof report: writing %s ...\n", dir);
    cr_report_result r;
    cr_diag d = {{0}};
    cr_status st = cr_report_write(dir, &o, &r, &d);
    int rc = CLI_OK;
    if (st != CR_OK) {
        rc = cli_fail_status("report", st, d.msg);
    } else if (json) {
        json_t *root = json_object();
        char idx[4200];
        snprintf(idx, sizeof idx, "%s/index.html", dir);
        json_object_set_new(root, "dir", json_string(dir));
        json_object_set_new(root, "index", json_string(idx));
        json_object_set_new(root, "topo", json_string(t->name));
        json_object_set_new(root, "suite", json_string(suite));
        json_t *files = json_array(), *skipped = json_array();
        for (int i = 0; i < r.n_files; i++)
            json_array_append_new(files, json_string(r.files[i]));
        for (int i = 0; i < r.n_skipped; i++)
            json_array_append_new(skipped, json_string(r.skipped[i]));
        json_object_set_new(root, "files", files);
        json_object_set_new(root, "skipped", skipped);
        json_object_set_new(root, "violations", json_integer(r.violations));
        char *txt = cr_json_dumps(root, JSON_INDENT(2));
        json_decref(root);
        if (txt)
            puts(txt);
        else
            rc = cli_fail("report", "out of memory");
        free(txt);
    } else {
        printf("# commroof report: %s, suite %s\n", t->name, suite);
        printf("# %d files in %s/\n", r.n_files, dir);
        for (int i = 0; i < r.n_files; i++)
            printf("  %s/%s\n", dir, r.files[i]);
        for (int i = 0; i < r.n_skipped; i++)
            printf("# skipped %s\n", r.skipped[i]);
        printf("open %s/index.html\n", dir);
    }
    if (rc == CLI_OK && r.violations > 0) {
        fprintf(stderr,
                "commroof report: %d row(s) below their bound over the report's parts (one "
                "measured time may be a row of several; impossible: a timing bug, a wrong "
                "attribution or a wrong bound); %s/index.html says where\n",
                r.violations, dir);
        rc = CLI_IMPOSSIBLE;
    }
    cr_report_result_release(&r);
    cr_sbuf_release(&cmdline);
    cr_rankset_free(ranks);
    cr_topo_free(t);
    cr_topo_free(mt);
    free(cmp_buf);
    return rc;
}
