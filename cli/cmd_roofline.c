/* SPDX-License-Identifier: MIT */
/*
 * commroof roofline TRACE... [--topo T] [--ranks SPEC] [--dtype D] [--top N] [--json]
 *
 * The roofline of any traced program: one row per operator (PyTorch's
 * emit_nvtx ranges, NCCL's calls, "cr:" ranges, other kernels) with its
 * calls, median device time per call, bound, % of roofline, binding
 * resource and verdict; then the time covered by a bound and what the
 * program could save at best (validate/roofline.h).
 * Exit: 0 ok; 1 runtime failure; 2 usage; 3 a time below its bound.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "cli.h"
#include "rankset.h"
#include "opts.h"
#include "topo.h"
#include "validate/roofline.h"
#include "json_num.h"

static const char *const roofline_help_head =
    "usage: commroof roofline TRACE... [--topo T] [--ranks SPEC] [--dtype D] [--top N]\n"
    "                         [--allow-gpu-mismatch] [--json]\n"
    "\n"
    "The roofline of any program traced with `commroof trace` (.json, .json.gz, or a\n"
    "folder of them): one row per operator and arguments, longest total time first.\n"
    "It reads PyTorch's ranges (torch.autograd.profiler.emit_nvtx(record_shapes=True):\n"
    "mm, addmm, matmul, linear, bmm, baddbmm, _scaled_mm, scaled_dot_product_attention\n"
    "and its flash/efficient/cudnn kernels, softmax, log_softmax, layer_norm, rms_norm,\n"
    "add, sub, mul, div, copy_, clone, cat, embedding, index_select, gather), NCCL's\n"
    "own ranges (message size from their payloads, communicator size from\n"
    "ncclCommInitRank), \"cr:\" ranges as validate reads them, and lists other\n"
    "kernels with their times, without a bound.\n"
    "An activity belongs to the innermost range open on its CUDA call's thread when\n"
    "the call began, where the trace recorded the calls (COMMROOF_TRACE_RECORD=\n"
    "kernel,memcpy,memset,graph,api), else to the innermost range open when it starts:\n"
    "trace then with CUDA_LAUNCH_BLOCKING=1 so that every kernel runs inside the\n"
    "range that launched it (doc/roofline.md). The element type comes from the\n"
    "kernels' names, else --dtype, else (a matrix product) the bf16 or fp16 its\n"
    "operands' producers show.\n"
    "\n"
    "Columns: calls, median (us: device time of one call, the GPU busy with its\n"
    "activities), bound (us, warm: the strict limit), cold (us, every byte from\n"
    "HBM), roof (%: bound / median x 100), save (us, total - each call's own bound:\n"
    "the most this operator could save), binding, verdict (faster- or\n"
    "slower-than-baseline: the median against the PyTorch + NCCL baseline's device\n"
    "time, its launch overhead left out as the trace's is), dtype and where it came\n"
    "from; --json names them measured_us (the median), bound_us, bound_cold_us,\n"
    "pct_of_roofline, save_us, and adds min_us (the fastest call: one below the\n"
    "bound is impossible too). Under the table, the operators that could save time,\n"
    "most first.\n"
    "\n";

static const char *const roofline_help_tail =
    "\n"
    "Exit status: 0 ok; 1 runtime failure (a trace that does not read, traces\n"
    "with no GPU activity to bound, or not one operator row with a bound: nothing\n"
    "checked); 2 usage; 3 a time below its bound (an impossible result: a timing\n"
    "bug, a wrong attribution, or a wrong bound).\n";

static double us(double s)
{
    return s * 1e6;
}

static json_t *row_json(const cr_rf_row *w)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(cr_rf_kind_name(w->kind)));
    json_object_set_new(o, "op", json_string(w->op));
    json_object_set_new(o, "args", json_string(w->args));
    json_object_set_new(o, "model", w->model[0] ? json_string(w->model) : json_null());
    json_object_set_new(o, "dtype", w->dtype[0] ? json_string(w->dtype) : json_null());
    json_object_set_new(o, "dtype_source",
                        w->dtype_src[0] ? json_string(w->dtype_src) : json_null());
    json_object_set_new(o, "calls", json_integer(w->calls));
    json_object_set_new(o, "measured_us", cr_json_real(us(w->median_s)));
    json_object_set_new(o, "min_us", cr_json_real(us(w->min_s)));
    json_object_set_new(o, "total_us", cr_json_real(us(w->total_s)));
    if (w->has_bound) {
        json_object_set_new(o, "bound_us", cr_json_real(us(w->bound_s)));
        json_object_set_new(o, "bound_cold_us", cr_json_real(us(w->bound_cold_s)));
        json_object_set_new(o, "pct_of_roofline", cr_json_real(w->pct_of_roofline));
        json_object_set_new(o, "save_us", cr_json_real(us(w->save_s)));
        json_object_set_new(o, "binding", json_string(w->binding));
        json_object_set_new(o, "verdict", json_string(w->verdict));
    } else {
        json_object_set_new(o, "bound_us", json_null());
        json_object_set_new(o, "bound_cold_us", json_null());
        json_object_set_new(o, "pct_of_roofline", json_null());
        json_object_set_new(o, "save_us", json_null());
        json_object_set_new(o, "binding", json_null());
        json_object_set_new(o, "verdict", json_null());
    }
    json_object_set_new(o, "note", json_string(w->note));
    return o;
}

/* Returns -1 where memory ran out (the table cut short), else 0. */
static int print_table(const cr_roofline *r, const cr_topo *t, long top)
{
    printf("# commroof roofline on %s: %d trace file(s), %zu row(s)\n", t->name, r->files, r->n);
    printf("# %-7s %-42s %7s %11s %11s %11s %7s %11s %-14s %-21s %-14s  %s\n", "kind", "op",
           "calls", "median", "bound", "cold", "roof", "save", "binding", "verdict", "dtype",
           "args / note");
    printf("# %-7s %-42s %7s %11s %11s %11s %7s %11s %-14s %-21s %-14s  %s\n", "-", "-", "-", "us",
           "us", "us", "%", "us", "-", "-", "(source)", "-");
    size_t shown = top == 0 || (size_t)top > r->n ? r->n : (size_t)top, hidden = 0;
    /* past --top, the rows below their bound still: the FAILED line counts
     * them, and a reader must see which without running again */
    for (size_t i = 0; i < r->n; i++) {
        const cr_rf_row *w = &r->rows[i];
        if (i >= shown && !w->violation) {
            hidden++;
            continue;
        }
        /* one field per column for awk and gnuplot: a kernel's name may
         * hold blanks ("(anonymous namespace)"); the JSON keeps it whole */
        char op[sizeof w->op];
        cli_field(op, sizeof op, w->op, 0);
        char dt[24];
        if (w->dtype[0] && w->dtype_src[0])
            snprintf(dt, sizeof dt, "%s(%s)", w->dtype, w->dtype_src);
        else if (w->dtype_src[0])
            snprintf(dt, sizeof dt, "-(%s)", w->dtype_src);
        else
            cr_str_copy(dt, sizeof dt, w->dtype[0] ? w->dtype : "-");
        char roof[16] = "-";
        if (isfinite(w->pct_of_roofline))
            snprintf(roof, sizeof roof, "%.1f", w->pct_of_roofline);
        if (w->has_bound)
            printf("  %-7s %-42s %7d %11.3f %11.3f %11.3f %7s %11.3f %-14s %-21s %-14s  %s%s%s\n",
                   cr_rf_kind_name(w->kind), op, w->calls, us(w->median_s), us(w->bound_s),
                   us(w->bound_cold_s), roof, us(w->save_s), w->binding, w->verdict, dt, w->args,
                   w->note[0] ? "; " : "", w->note);
        else
            printf("  %-7s %-42s %7d %11.3f %11s %11s %7s %11s %-14s %-21s %-14s  %s%s%s\n",
                   cr_rf_kind_name(w->kind), op, w->calls, us(w->median_s), "-", "-", "-", "-", "-",
                   "-", dt, w->args, w->args[0] && w->note[0] ? "; " : "", w->note);
    }
    if (hidden)
        printf("#   %zu more row(s) not shown (--top 0 shows all)\n", hidden);
    char totals[256];
    cr_roofline_totals(r, totals, sizeof totals);
    printf("#\n# %s\n", totals);
    /* the shown rows that could save time, most first (the table is in
     * its own order) */
    size_t *by_save = malloc((shown ? shown : 1) * sizeof *by_save), nb = 0;
    if (!by_save || cr_roofline_by_save(r, shown, by_save, &nb) != CR_OK) {
        free(by_save); /* the list was left out, exit 0 (QA audit of allocation failures) */
        return -1;
    }
    for (size_t k = 0; k < nb && r->rows[by_save[k]].save_s > 0; k++) {
        const cr_rf_row *w = &r->rows[by_save[k]];
        printf("#   save %11.3f us  %s %s\n", us(w->save_s), w->op, w->args);
    }
    free(by_save);
    if (r->calls_unowned)
        printf("# %d activities were inside no range (listed as kernels)\n", r->calls_unowned);
    if (r->nccl_unpaired)
        printf("# %d NCCL kernels or calls had no partner (not timed)\n", r->nccl_unpaired);
    if (r->nccl_grouped)
        printf("# %d NCCL calls grouped with others of their kind (one kernel; not timed)\n",
               r->nccl_grouped);
    if (r->by_start)
        printf("# %d trace(s) recorded without CUDA_LAUNCH_BLOCKING=1 nor their CUDA calls "
               "(first: %s): an operator owns the activities that start inside its range, a "
               "later operator's where the GPU ran behind the host; for exact rows trace with "
               "COMMROOF_TRACE_RECORD=kernel,memcpy,memset,graph,api (or CUDA_LAUNCH_BLOCKING=1)\n",
               r->by_start, r->by_start_path);
    if (r->unlinked)
        printf("# %d activities of traces with their CUDA calls recorded came from a call not "
               "recorded (first: %s): each counts for the range open when it started, a later "
               "operator's where the GPU ran behind the host\n",
               r->unlinked, r->first_unlinked);
    if (r->graph_activities)
        printf("# %d activities that CUDA graphs ran count for the range open on the thread that "
               "made their graph node (a capture's operator), one call per launch of the graph\n",
               r->graph_activities);
    if (r->info.incomplete)
        printf("# %d trace(s) end before their closing bracket (first: %s)\n", r->info.incomplete,
               r->info.incomplete_path);
    if (r->info.unrecorded) {
        char note[640];
        printf("# %s\n", cli_unrecorded_note(&r->info, note, sizeof note));
    }
    if (r->info.not_traces)
        printf("# %d file(s) were not traces (first: %s)\n", r->info.not_traces,
               r->info.not_trace_why);
    if (r->info.skipped)
        printf("# %d cr: range(s) skipped, neither a catalog operator call nor a crbench case "
               "validate reads%s%s%s\n",
               r->info.skipped, r->info.why[0] ? " (first: " : "", r->info.why,
               r->info.why[0] ? ")" : "");
    /* the program's own annotations that got no bound: their parameters
     * were refused, which a note at the row's end alone would hide */
    if (r->cr_unbounded) {
        const cr_rf_row *w = &r->rows[r->first_unbounded];
        printf("# note: %d cr: range row(s) without a bound; first: %s %s: %s\n", r->cr_unbounded,
               w->op, w->args, w->note);
    }
    char unchecked[1024];
    if (cr_roofline_unchecked(r, unchecked, sizeof unchecked)) {
        printf("# %s\n", unchecked);
        return 0;
    }
    printf("# %s: %d row(s) with a time below the bound%s\n", r->violations ? "FAILED" : "OK",
           r->violations,
           r->violations && r->by_start
               ? " (rows of traces recorded without CUDA_LAUNCH_BLOCKING=1 among them may hold "
                 "another operator's kernels: see above)"
               : "");
    return 0;
}

int cli_cmd_roofline(int argc, char **argv)
{
    const char *topo_name = NULL, *ranks = NULL;
    const char **traces = calloc((size_t)argc, sizeof *traces);
    int n_traces = 0, rc = CLI_OK;
    bool json = false, allow_gpu = false;
    long top = 30;
    cr_roofline_opts o = {0};
    cr_roofline r = {0};
    cr_topo *t = NULL;
    if (!traces)
        return cli_fail("roofline", "out of memory");
    enum { O_HELP = 1, O_DTYPE, O_TOP };
    const cli_opt opts[] = {
        {"--topo", NULL, "T", "topology (shipped name or file; default hgx-h200-8)",
         .str = &topo_name},
        {"--ranks", NULL, "SPEC",
         "GPUs of collectives (default: the first n); its count is the\n"
         "communicator size where the trace does not tell it",
         .str = &ranks},
        {"--dtype", NULL, "D", "element type of operators whose kernels do not show it",
         .id = O_DTYPE},
        {"--top", NULL, "N",
         "rows printed (default 30, 0 = all; a row below its bound is\n"
         "printed whatever N); totals count every row, and --json lists\n"
         "every row",
         .id = O_TOP},
        {"--allow-gpu-mismatch", NULL, NULL,
         "traces of another GPU model than the topology's: compare\n"
         "anyway (a note), instead of the error",
         .flag = &allow_gpu},
        {"--json", NULL, NULL, "one JSON document on stdout", .flag = &json},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = O_HELP},
        {0}};
    cli_args args = cli_args_begin("roofline", opts, argc, argv);
    for (int k; (k = cli_args_next(&args)) != CLI_ARGS_END;) {
        const char *v = args.val;
        if (k == CLI_ARGS_ERROR) {
            rc = CLI_USAGE;
            goto out;
        }
        if (k == CLI_ARGS_ARG) {
            traces[n_traces++] = v;
            continue;
        }
        if (args.opt->id == O_HELP) {
            fputs(roofline_help_head, stdout);
            cli_opts_help(stdout, opts, 17, 0);
            fputs(roofline_help_tail, stdout);
            goto out;
        } else if (args.opt->id == O_DTYPE) {
            cr_diag d = {{0}};
            if (cr_dtype_parse(v, &o.dtype, &d) != CR_OK) {
                rc = cli_usage_error("roofline", "--dtype: %s", d.msg);
                goto out;
            }
            o.has_dtype = true;
        } else if (args.opt->id == O_TOP) {
            char *end;
            errno = 0;
            top = strtol(v, &end, 10);
            if (errno || *end || end == v || top < 0 || top > 1000000) {
                rc = cli_usage_error("roofline", "--top \"%s\" is not a count (e.g. --top 20)", v);
                goto out;
            }
        }
    }
    if (n_traces == 0) {
        rc = cli_usage_error("roofline", "no trace given (commroof roofline TRACE.json ...)");
        goto out;
    }
    if (!(t = cli_open_topo("roofline", topo_name))) {
        rc = CLI_FAIL;
        goto out;
    }
    o.ranks = ranks;
    cr_diag d = {{0}};
    /* the command line's --ranks against the topology: a usage error; what
     * the traces hold (a negative duration, a bad payload) is the input's */
    cr_rankset *rs = NULL;
    if (ranks && cr_rankset_parse(ranks, t->n_gpus, &rs, &d) != CR_OK) {
        rc = cli_usage_error("roofline", "--ranks %s: %s", ranks, d.msg);
        goto out;
    }
    cr_rankset_free(rs);
    cr_status st = cr_roofline_read(t, traces, n_traces, &o, &r, &d);
    if (st != CR_OK) {
        rc = cli_fail_status("roofline", st, d.msg);
        goto out;
    }
    /* another GPU's bounds say nothing of this trace (as validate): the
     * GPUs the reading found, not a second pass over the traces */
    if ((rc = cli_check_trace_gpu_list("roofline", t, r.gpus, r.n_gpus, allow_gpu)) != CLI_OK)
        goto out;
    /* an empty table with exit 0 passed a harness's gate on a trace of
     * nothing (the program ran no GPU work, or under another tool): the
     * input's fault, as validate's "no measured cases" */
    if (r.n == 0) {
        char cut[300] = "", skip[300] = "";
        if (r.info.incomplete)
            snprintf(cut, sizeof cut, " (%d cut short, first %.200s)", r.info.incomplete,
                     r.info.incomplete_path);
        if (r.info.skipped)
            snprintf(skip, sizeof skip, " outside the cr: ranges skipped (first: %.220s)",
                     r.info.why);
        rc = cli_fail("roofline",
                      "%s%s: %d trace file(s)%s hold no GPU activity (kernel, copy or memset) to "
                      "bound%s",
                      traces[0], n_traces > 1 ? " ..." : "", r.info.files, cut,
                      skip[0] ? skip
                              : "; trace a program that runs GPU work (commroof trace -- CMD)");
        goto out;
    }
    if (json) {
        json_t *root = json_object();
        json_t *rows = json_array();
        for (size_t i = 0; i < r.n; i++)
            json_array_append_new(rows, row_json(&r.rows[i]));
        json_object_set_new(root, "topology", json_string(t->name));
        json_object_set_new(root, "files", json_integer(r.files));
        json_object_set_new(root, "rows", rows);
        json_object_set_new(root, "total_us", cr_json_real(us(r.total_s)));
        json_object_set_new(root, "covered_us", cr_json_real(us(r.covered_s)));
        json_object_set_new(root, "save_us", cr_json_real(us(r.save_s)));
        json_object_set_new(root, "violations", json_integer(r.violations));
        json_object_set_new(root, "cr_unbounded", json_integer(r.cr_unbounded));
        json_object_set_new(root, "unowned_activities", json_integer(r.calls_unowned));
        json_object_set_new(root, "nccl_unpaired", json_integer(r.nccl_unpaired));
        json_object_set_new(root, "nccl_grouped", json_integer(r.nccl_grouped));
        json_object_set_new(root, "by_start_traces", json_integer(r.by_start));
        json_object_set_new(root, "first_by_start",
                            r.by_start ? json_string(r.by_start_path) : json_null());
        json_object_set_new(root, "unlinked_activities", json_integer(r.unlinked));
        json_object_set_new(root, "first_unlinked",
                            r.unlinked ? json_string(r.first_unlinked) : json_null());
        json_object_set_new(root, "graph_activities", json_integer(r.graph_activities));
        json_object_set_new(root, "incomplete_traces", json_integer(r.info.incomplete));
        /* what the table's notes say, for a harness that reads only this */
        json_object_set_new(root, "first_incomplete",
                            r.info.incomplete ? json_string(r.info.incomplete_path) : json_null());
        json_object_set_new(root, "unrecorded_traces", json_integer(r.info.unrecorded));
        json_object_set_new(root, "unrecorded_kinds",
                            r.info.unrecorded ? json_string(r.info.unrecorded_what) : json_null());
        json_object_set_new(root, "first_unrecorded",
                            r.info.unrecorded ? json_string(r.info.unrecorded_path) : json_null());
        json_object_set_new(root, "not_traces", json_integer(r.info.not_traces));
        json_object_set_new(root, "first_not_trace",
                            r.info.not_traces ? json_string(r.info.not_trace_why) : json_null());
        json_object_set_new(root, "cr_ranges_skipped", json_integer(r.info.skipped));
        json_object_set_new(root, "first_skip_reason",
                            r.info.skipped && r.info.why[0] ? json_string(r.info.why)
                                                            : json_null());
        int bad = cli_json_fputs(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0;
        json_decref(root);
        if (bad) {
            rc = cli_fail("roofline",
                          "cannot write JSON to stdout (out of memory, or stdout refused it)");
            goto out;
        }
        putchar('\n');
    } else if (print_table(&r, t, top) != 0) {
        fflush(stdout);
        rc = cli_fail("roofline", "out of memory");
        goto out;
    }
    if (r.violations)
        rc = CLI_IMPOSSIBLE;
    else if (cr_roofline_unchecked(&r, (char[8]){0}, 8))
        rc = CLI_FAIL;
out:
    cr_roofline_release(&r);
    cr_topo_free(t);
    free(traces);
    return rc;
}
