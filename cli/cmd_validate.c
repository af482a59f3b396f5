/* SPDX-License-Identifier: MIT */
/*
 * commroof validate TRACE... [--topo T] [--nccl-tests LOG]... [--coll NAME]
 *                  [--ranks SPEC] [--family F] [--subset even|odd] [--max-median-error PCT]
 *                  [--allow-gpu-mismatch] [--summary] [--json]
 *
 * Matches every measured case of commroof traces (kernels/ crbench ranges)
 * and nccl-tests logs to its model case and prints bound, attainable bound,
 * prediction, measured time, % of roofline and prediction error per case,
 * then median and p90 |error| per family and the count of bound violations.
 * --subset keeps every other case of each family (in input order): the
 * halves a model is fitted on and checked against (doc/validation.md).
 * The traces of several ranks of one run (one process per GPU) are combined
 * per case (cr_validate_merge_ranks); a lone rank's cases carry a note.
 * Exit: 0 ok; 1 runtime failure, or a family's median |error| above
 * --max-median-error; 2 usage; 3 a measured time below its bound.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "rankset.h"
#include "topo.h"
#include "validate/validate.h"

/* A time in us to 3 decimals, as the table's other times; one below a
 * thousandth keeps its first digit ("0.0004", not "0.000": a sub-ns bound
 * of a 4 KiB copy that L2 holds) */
static void us_text3(char *buf, size_t n, double v)
{
    if (v > 0 && v < 0.0005)
        snprintf(buf, n, "%.1g", v);
    else
        snprintf(buf, n, "%.3f", v);
}

static const char *const validate_help_head =
    "usage: commroof validate TRACE... [--topo T] [--nccl-tests LOG]... [--coll NAME]\n"
    "                         [--ranks SPEC] [--family F] [--subset even|odd] [--max-median-error "
    "PCT]\n"
    "                         [--nccl-version V] [--nccl-algo LIST] [--nccl-proto LIST]\n"
    "                         [--ranks-per-process N] [--allow-gpu-mismatch] [--summary] [--json]\n"
    "\n"
    "Compares measurements with the model. TRACE is a commroof trace, .json or\n"
    ".json.gz (or a folder of them), recorded around kernels/ (crbench): every NVTX\n"
    "range \"cr:<family> ...\" is one case (doc/validation.md). In a folder, files that\n"
    "are not traces are left out with a note. LOG is an nccl-tests output\n"
    "(all_reduce_perf, ...; any release's columns, one process or mpirun), also as\n"
    "pasted: launcher prefixes (srun -l, mpirun --tag-output), header lines without\n"
    "their '#', NCCL_DEBUG output inside the table, terminal colours; each result\n"
    "row is one case with its out-of-place time. Its collective comes from the log's\n"
    "\"Collective test starting\" line, else --coll (once: every log's; more than\n"
    "once: each names the log given before it), else the file name (<name>_perf);\n"
    "its rank count from the \"#  Rank\" lines, else (none, or a shortened list) from\n"
    "the rows' busbw/algbw ratio (nccl-tests' factor), else from --ranks; the table\n"
    "says which.\n"
    "Give every rank's trace of a one-process-per-GPU run (torchrun, mpirun): the\n"
    "ranks' shares of a case are combined (per iteration, the last end less the last\n"
    "rank's start); one rank alone is measured as it is, with a note.\n"
    "A trace whose GPU (metadata.devices), or a log whose rank lines name another\n"
    "GPU model than the topology's is an error (its bounds are another GPU's),\n"
    "unless --allow-gpu-mismatch.\n"
    "\n"
    "Per case: bound_us (least possible time from peaks), attain_us (the bound from\n"
    "measured ceilings, where the topology has them), pred_us (the model's prediction),\n"
    "measured_us (median per iteration), roof_% (bound / measured x 100) and err_%\n"
    "((pred - measured) / measured x 100). Then, per family, the median and p90 of\n"
    "|err_%| and the number of bound violations (measured below the bound).\n"
    "\n";

static const char *const validate_help_tail =
    "\n"
    "commroof validate --corpus DIR ... evaluates a measurement corpus (validate/corpus):\n"
    "see commroof validate --corpus DIR --help.\n"
    "\n"
    "Exit status: 0 ok; 1 runtime failure, --max-median-error exceeded (or a family\n"
    "without a predicted case to judge), a range skipped\n"
    "(a bad name or value: each is named on stderr), or no case the topology can check\n"
    "(each lacks a bound: more ranks than GPUs, say); 2 usage;\n"
    "3 a measured time below its bound (an impossible result).\n";

static double us(double s)
{
    return s * 1e6;
}

/* "FILE: range \"cr:...\": reason" for a case m the model rejected with
 * msg (which may start with m's source already). */
static void eval_skip_why(const cr_vmeas *m, const char *msg, char *buf, size_t n)
{
    char name[200];
    int k = snprintf(name, sizeof name, "cr:%s", cr_vfam_name(m->c.family));
    for (int i = 0; i < m->c.n_keys && k > 0 && (size_t)k < sizeof name; i++)
        k +=
            snprintf(name + k, sizeof name - (size_t)k, " %s=%s", m->c.kv[i].key, m->c.kv[i].value);
    size_t sl = strlen(m->source);
    if (sl && !strncmp(msg, m->source, sl) && !strncmp(msg + sl, ": ", 2))
        msg += sl + 2;
    snprintf(buf, n, "%.60s: range \"%.80s\": %.110s", m->source, name, msg);
}

int cli_cmd_validate(int argc, char **argv)
{
    const char *topo_name = NULL, *ranks = NULL, *family = NULL, *subset = NULL,
               *nccl_version = NULL, *nccl_algo = NULL, *nccl_proto = NULL;
    cli_log_colls lc = {0};
    int nccl_code = 0, rpp = 0;
    const char **logs = NULL, **traces = NULL;
    int n_logs = 0, n_traces = 0;
    bool json = false, summary_only = false, allow_gpu = false;
    double max_med = -1;
    int rc = CLI_OK;
    cr_topo *t = NULL;
    cr_vmeas_list l = {0};
    cr_vresult *res = NULL;
    cr_validate_cache *cache = NULL;
    json_t *root = NULL;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--corpus") || !strncmp(argv[i], "--corpus=", 9))
            return cli_validate_corpus(argc, argv);
    logs = calloc((size_t)argc, sizeof *logs);
    traces = calloc((size_t)argc, sizeof *traces);
    if (!logs || !traces) {
        rc = cli_fail("validate", "out of memory");
        goto out;
    }
    if ((rc = cli_log_colls_init(&lc, "validate", argc)) != CLI_OK)
        goto out;
    enum {
        O_HELP = 1,
        O_COLL,
        O_FAMILY,
        O_SUBSET,
        O_LOG,
        O_MAX_MED,
        O_NCCL_VERSION,
        O_NCCL_ALGO,
        O_NCCL_PROTO,
        O_RPP
    };
    const cli_opt opts[] = {
        {"--topo", NULL, "T", "topology (shipped name or file; default hgx-h200-8)",
         .str = &topo_name},
        {"--nccl-tests", NULL, "LOG", "also read an nccl-tests log or -J file (repeatable)",
         .id = O_LOG, .repeat = true},
        {"--coll", NULL, "NAME",
         "the collective of logs that do not name it (all_reduce,\n"
         "allreduce, all_reduce_perf alike); wins over the file name;\n"
         "given more than once, each names the log before it",
         .id = O_COLL, .repeat = true},
        {"--ranks", NULL, "SPEC",
         "GPUs of multi-GPU cases (default: the first n); its count\n"
         "is the rank count of a log that does not tell it",
         .str = &ranks},
        {"--nccl-version", NULL, "V",
         "the NCCL release (2.23.4) of logs that print none (nccl-tests'\n"
         "nccl-library=, NCCL's \"NCCL version\" line); default: the model's\n"
         "(coll.nccl_version, 2.28.9)",
         .str = &nccl_version, .id = O_NCCL_VERSION},
        {"--nccl-algo", NULL, "LIST",
         "the run's NCCL_ALGO (Ring, ^NVLS, allreduce:tree;allgather:ring),\n"
         "which logs do not print: NCCL's choice among what it leaves",
         .str = &nccl_algo, .id = O_NCCL_ALGO},
        {"--nccl-proto", NULL, "LIST", "the run's NCCL_PROTO (Simple, ^LL128), likewise",
         .str = &nccl_proto, .id = O_NCCL_PROTO},
        {"--ranks-per-process", NULL, "N",
         "GPUs one host thread drove (nccl-tests -g N) in logs without\n"
         "their \"# nThread\" line; before rank lines sharing a Pid\n"
         "(read as -g, or 1 with neither; said in a note)",
         .id = O_RPP},
        {"--family", NULL, "F", "only cases of family F (hbm ce mech gemm launch nccl p2p fused)",
         .str = &family, .id = O_FAMILY},
        {"--subset", NULL, "even|odd",
         "only the even (0th, 2nd, ...) or odd cases of each family,\n"
         "in input order: fit a model on one half, check the other",
         .str = &subset, .id = O_SUBSET},
        {"--max-median-error", NULL, "PCT",
         "exit 1 when a family's median |err_%| exceeds PCT\n(or it has no predicted case)",
         .id = O_MAX_MED},
        {"--allow-gpu-mismatch", NULL, NULL,
         "compare traces or logs of another GPU than the topology's\n"
         "anyway (a note instead of an error; its verdicts mean\n"
         "little)",
         .flag = &allow_gpu},
        {"--summary", NULL, NULL, "print only the summary", .flag = &summary_only},
        {"--json", NULL, NULL, "one JSON document on stdout", .flag = &json},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = O_HELP},
        {0}};
    cli_args args = cli_args_begin("validate", opts, argc, argv);
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        const char *v = args.val;
        if (r == CLI_ARGS_ERROR) {
            rc = CLI_USAGE;
            goto out;
        }
        if (r == CLI_ARGS_ARG) {
            traces[n_traces++] = v;
            continue;
        }
        if (args.opt->id == O_HELP) {
            fputs(validate_help_head, stdout);
            cli_opts_help(stdout, opts, 25, 0);
            fputs(validate_help_tail, stdout);
            goto out;
        } else if (args.opt->id == O_COLL) {
            if ((rc = cli_log_colls_add(&lc, "validate", v, n_logs)) != CLI_OK)
                goto out;
        } else if (args.opt->id == O_NCCL_VERSION) {
            cr_diag d = {{0}};
            if (cr_nccl_version_parse(nccl_version, &nccl_code, &d) != CR_OK) {
                rc = cli_usage_error("validate", "--nccl-version: %s", d.msg);
                goto out;
            }
        } else if (args.opt->id == O_NCCL_ALGO || args.opt->id == O_NCCL_PROTO) {
            if ((rc = cli_check_nccl_select("validate", v, args.opt->id == O_NCCL_PROTO)) != CLI_OK)
                goto out;
        } else if (args.opt->id == O_FAMILY) {
            int ok = 0;
            for (int f = 0; f < CR_VFAM__COUNT; f++)
                ok |= !strcmp(family, cr_vfam_name((cr_vfam)f));
            if (!ok) {
                rc = cli_usage_error("validate",
                                     "--family \"%s\": expected one of hbm ce mech gemm launch "
                                     "nccl p2p fused",
                                     family);
                goto out;
            }
        } else if (args.opt->id == O_SUBSET) {
            if (strcmp(subset, "even") && strcmp(subset, "odd")) {
                rc = cli_usage_error("validate", "--subset needs even or odd");
                goto out;
            }
        } else if (args.opt->id == O_RPP) {
            if ((rc = cli_parse_ranks_per_process("validate", v, &rpp)) != CLI_OK)
                goto out;
        } else if (args.opt->id == O_LOG) {
            logs[n_logs++] = v;
        } else if (args.opt->id == O_MAX_MED) {
            char *end = NULL;
            max_med = strtod(v, &end);
            if (!end || *end || !(max_med >= 0) || !isfinite(max_med)) {
                rc = cli_usage_error("validate",
                                     "--max-median-error needs a percentage >= 0 (e.g. 10)");
                goto out;
            }
        }
    }
    if (n_traces == 0 && n_logs == 0) {
        rc = cli_usage_error("validate", "give at least one trace (or folder) or --nccl-tests LOG");
        goto out;
    }
    if ((rc = cli_log_colls_check(&lc, "validate")) != CLI_OK ||
        (rc = cli_check_distinct_inputs("validate", "log", logs, n_logs)) != CLI_OK)
        goto out;
    t = cli_open_topo("validate", topo_name);
    if (!t) {
        rc = CLI_FAIL;
        goto out;
    }
    cr_nccl_log_opts lo = {.coll = NULL,
                           .nccl_version = nccl_code,
                           .nccl_algo = nccl_algo,
                           .nccl_proto = nccl_proto,
                           .gpus_per_thread = rpp};
    if (ranks) {
        /* A bad rank set is a usage error (exit 2) as in coll and sim, found
         * here before any file is read, not per case (issue 13 item 10). */
        cr_rankset *rs = NULL;
        cr_diag d = {{0}};
        if (cr_rankset_parse(ranks, t->n_gpus, &rs, &d) != CR_OK) {
            rc = cli_usage_error("validate", "--ranks: %s", d.msg);
            goto out;
        }
        lo.nranks = rs->n;
        cr_rankset_free(rs);
    }
    cr_vread_info ri = {0};
    cli_gpu_seen gs = {0};
    for (int i = 0; i < n_traces; i++) {
        cr_diag d = {{0}};
        size_t before = l.n;
        cr_status st = cr_validate_read_path(traces[i], &l, &ri, &d);
        if (st != CR_OK) {
            rc = cli_fail_status("validate", st, d.msg);
            goto out;
        }
        if ((rc = cli_check_trace_gpus("validate", t, traces[i], &l, before, allow_gpu, &gs)) !=
            CLI_OK)
            goto out;
    }
    size_t logs_from = l.n;
    for (int i = 0; i < n_logs; i++) {
        cr_diag d = {{0}};
        size_t before = l.n;
        int skipped = l.nccl_tables_skipped;
        lo.coll = cli_log_coll(&lc, i);
        /* a log that gives nothing is said to, with why */
        if (cr_validate_read_nccl_tests(logs[i], &lo, &l, &d) != CR_OK ||
            cr_validate_nccl_log_gave_rows(logs[i], &l, before, skipped, &d) != CR_OK) {
            rc = cli_fail("validate", "%s", d.msg);
            goto out;
        }
        if ((rc = cli_check_log_gpu("validate", t, logs[i], &l, before, allow_gpu)) != CLI_OK)
            goto out;
    }
    {
        /* the same run in two logs (a table pasted into another file)
         * would count twice */
        cr_diag d = {{0}};
        if (cr_validate_nccl_logs_distinct(&l, logs_from, &d) != CR_OK) {
            rc = cli_fail("validate", "%s", d.msg);
            goto out;
        }
    }
    /* One process per GPU: each rank's trace holds its share of a case;
     * combine them before anything counts cases. */
    cr_vmerge_info mi = {0};
    {
        cr_diag d = {{0}};
        if (cr_validate_merge_ranks(&l, &mi, &d) != CR_OK) {
            rc = cli_fail("validate", "%s", d.msg);
            goto out;
        }
    }
    if (subset) {
        /* Parity counts within each family, before any --family filter, so
         * the halves do not depend on it. */
        int seen[CR_VFAM__COUNT] = {0}, want = strcmp(subset, "odd") == 0;
        size_t k = 0;
        for (size_t i = 0; i < l.n; i++) {
            int f = (int)l.v[i].c.family;
            if (f >= 0 && f < CR_VFAM__COUNT && seen[f]++ % 2 == want)
                l.v[k++] = l.v[i];
        }
        l.n = k;
    }
    if (family) {
        size_t k = 0;
        bool present[CR_VFAM__COUNT] = {false};
        for (size_t i = 0; i < l.n; i++) {
            if ((int)l.v[i].c.family >= 0 && l.v[i].c.family < CR_VFAM__COUNT)
                present[l.v[i].c.family] = true;
            if (!strcmp(cr_vfam_name(l.v[i].c.family), family))
                l.v[k++] = l.v[i];
        }
        if (k == 0 && l.n > 0) {
            /* the input has cases, none of this family: say which it has */
            char have[256] = "";
            for (int f = 0; f < CR_VFAM__COUNT; f++)
                if (present[f])
                    snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s",
                             have[0] ? ", " : "", cr_vfam_name((cr_vfam)f));
            rc =
                cli_fail("validate", "--family %s: no case of that family in the input (it has %s)",
                         family, have);
            goto out;
        }
        l.n = k;
    }
    if (l.n == 0) {
        if (ri.skipped) /* the ranges are there; say why none was taken */
            rc = cli_fail("validate",
                          "no measured cases in the input (%d trace file(s), %d log(s)): all %d "
                          "cr: range(s) were skipped; first: %s",
                          ri.files, n_logs, ri.skipped, ri.why);
        else
            rc = cli_fail("validate",
                          "no measured cases in the input (%d trace file(s), %d log(s)): traces "
                          "need NVTX ranges named \"cr:<family> ...\" from kernels/crbench",
                          ri.files, n_logs);
        goto out;
    }
    res = calloc(l.n, sizeof *res);
    if (!res) {
        rc = cli_fail("validate", "out of memory");
        goto out;
    }
    /* a context per rank set, not per row (cr_validate_cache) */
    if (!(cache = cr_validate_cache_new())) {
        rc = cli_fail("validate", "out of memory");
        goto out;
    }
    cr_validate_opts vo = {ranks, cache};
    {
        /* A case whose values the model rejects (bytes=-1, gemm m=0) is a
         * bad range like one whose name does not parse: skipped with its
         * file, range and reason, the others still reported, and the run
         * fails (below) */
        size_t w = 0;
        for (size_t i = 0; i < l.n; i++) {
            cr_diag d = {{0}};
            cr_status st = cr_validate_eval(t, &l.v[i], &vo, &res[w], &d);
            if (st == CR_ENOMEM) {
                rc = cli_fail("validate", "%s", d.msg);
                goto out;
            }
            if (st == CR_OK) {
                l.v[w++] = l.v[i];
                continue;
            }
            char why[400];
            eval_skip_why(&l.v[i], d.msg, why, sizeof why);
            fprintf(stderr, "commroof validate: %s (range skipped)\n", why);
            if (ri.skipped++ == 0)
                snprintf(ri.why, sizeof ri.why, "%.250s", why);
        }
        l.n = w;
        if (l.n == 0) {
            rc = cli_fail("validate",
                          "no case the model can evaluate: %d range(s) skipped; first: %s",
                          ri.skipped, ri.why);
            goto out;
        }
    }
    cr_vsummary sum[CR_VFAM__COUNT], all;
    if (cr_validate_summarize(&l, res, sum, &all) != CR_OK) {
        rc = cli_fail("validate", "out of memory");
        goto out;
    }
    /* the gate judges a family by its predicted cases: one with none
     * cannot pass it (nothing was compared) */
    int gate_fail = 0, gate_unjudged = 0;
    for (int f = 0; f < CR_VFAM__COUNT; f++) {
        if (max_med < 0 || sum[f].cases == 0)
            continue;
        if (sum[f].with_pred == 0)
            gate_unjudged++;
        else if (sum[f].median_abs_err_pct > max_med)
            gate_fail++;
    }
    /* cases the topology could not judge (no bound: more ranks than it has
     * GPUs, a --ranks of another count): the first one's reason */
    size_t unchecked = 0, first_unchecked = 0, first_violation = SIZE_MAX;
    for (size_t i = 0; i < l.n; i++) {
        if (!res[i].has_bound && unchecked++ == 0)
            first_unchecked = i;
        if (res[i].violation && first_violation == SIZE_MAX)
            first_violation = i;
    }

    if (json) {
        root = json_object();
        json_t *cases = json_array(), *js = json_object();
        json_object_set_new(root, "topology", json_string(t->name));
        json_object_set_new(root, "cases", cases);
        for (size_t i = 0; i < l.n && !summary_only; i++) {
            const cr_vmeas *m = &l.v[i];
            const cr_vresult *r = &res[i];
            json_t *c = json_object();
            json_object_set_new(c, "family", json_string(cr_vfam_name(m->c.family)));
            json_object_set_new(c, "case", json_string(m->label));
            json_object_set_new(c, "source", json_string(m->source));
            if (m->rank >= 0)
                json_object_set_new(c, "rank", json_integer(m->rank));
            if (m->ranks_merged > 1)
                json_object_set_new(c, "ranks_merged", json_integer(m->ranks_merged));
            if (m->first_start_s > 0) /* merged ranks, or one process's GPUs */
                json_object_set_new(c, "measured_first_start_us", json_real(us(m->first_start_s)));
            if (m->coll_source[0])
                json_object_set_new(c, "coll_source", json_string(m->coll_source));
            if (m->nranks_source[0])
                json_object_set_new(c, "nranks_source", json_string(m->nranks_source));
            json_object_set_new(c, "measured_us", json_real(us(m->measured_s)));
            json_object_set_new(c, "samples", json_integer(m->samples));
            json_object_set_new(c, "bound_us",
                                r->has_bound ? json_real(us(r->bound_s)) : json_null());
            json_object_set_new(c, "bound_cold_us",
                                r->has_bound ? json_real(us(r->bound_cold_s)) : json_null());
            json_object_set_new(c, "pct_of_roofline_cold",
                                r->has_bound && r->timed ? json_real(r->pct_of_roofline_cold)
                                                         : json_null());
            json_object_set_new(c, "cache_resident", json_boolean(r->cache_resident));
            json_object_set_new(c, "attainable_us",
                                r->attainable_s > 0 ? json_real(us(r->attainable_s)) : json_null());
            json_object_set_new(c, "pred_us", r->has_pred ? json_real(us(r->pred_s)) : json_null());
            json_object_set_new(c, "pct_of_roofline",
                                r->has_bound && r->timed ? json_real(r->pct_of_roofline)
                                                         : json_null());
            json_object_set_new(c, "error_pct",
                                r->has_pred && r->timed ? json_real(r->error_pct) : json_null());
            json_object_set_new(c, "binding", json_string(r->binding));
            json_object_set_new(c, "impl", json_string(r->impl));
            json_object_set_new(c, "violation", json_boolean(r->violation));
            if (r->note[0] || m->note[0]) {
                char nb[300];
                snprintf(nb, sizeof nb, "%s%s%s", m->note, m->note[0] && r->note[0] ? "; " : "",
                         r->note);
                json_object_set_new(c, "note", json_string(nb));
            }
            json_t *keys = json_object();
            for (int k = 0; k < m->c.n_keys; k++)
                json_object_set_new(keys, m->c.kv[k].key, json_string(m->c.kv[k].value));
            json_object_set_new(c, "keys", keys);
            json_array_append_new(cases, c);
        }
        for (int f = -1; f < CR_VFAM__COUNT; f++) {
            const cr_vsummary *s = f < 0 ? &all : &sum[f];
            if (f >= 0 && s->cases == 0)
                continue;
            json_t *o = json_object();
            json_object_set_new(o, "cases", json_integer(s->cases));
            json_object_set_new(o, "predicted", json_integer(s->with_pred));
            bool any = s->with_pred > 0; /* no |err| without a predicted case */
            json_object_set_new(o, "median_abs_error_pct",
                                any ? json_real(s->median_abs_err_pct) : json_null());
            json_object_set_new(o, "p90_abs_error_pct",
                                any ? json_real(s->p90_abs_err_pct) : json_null());
            json_object_set_new(o, "max_abs_error_pct",
                                any ? json_real(s->max_abs_err_pct) : json_null());
            json_object_set_new(o, "violations", json_integer(s->violations));
            json_object_set_new(o, "beats_attainable", json_integer(s->beats_attainable));
            json_object_set_new(js, f < 0 ? "all" : cr_vfam_name((cr_vfam)f), o);
        }
        json_object_set_new(root, "summary", js);
        json_object_set_new(root, "violations", json_integer(all.violations));
        json_object_set_new(root, "unchecked", json_integer((json_int_t)unchecked));
        json_object_set_new(root, "skipped_ranges", json_integer(ri.skipped));
        json_object_set_new(root, "skipped_files", json_integer(ri.not_traces));
        json_object_set_new(root, "skipped_nccl_tables", json_integer(l.nccl_tables_skipped));
        json_object_set_new(root, "incomplete_files", json_integer(ri.incomplete));
        json_object_set_new(root, "unrecorded_files", json_integer(ri.unrecorded));
        json_object_set_new(root, "unrecorded_kinds",
                            ri.unrecorded ? json_string(ri.unrecorded_what) : json_null());
        json_object_set_new(root, "merged_cases", json_integer(mi.merged));
        json_object_set_new(root, "rank_alone_cases", json_integer(mi.rank_alone));
        if (cli_json_fputs(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0) {
            rc = cli_fail("validate",
                          "cannot write JSON to stdout (out of memory, or stdout refused it)");
            goto out;
        }
        fputc('\n', stdout);
    } else {
        printf("# commroof validate: %zu cases from %d trace file(s) and %d nccl-tests log(s), "
               "topology %s\n",
               l.n, ri.files, n_logs, t->name);
        if (ri.skipped)
            printf("# %d range(s) skipped; first: %s\n", ri.skipped, ri.why);
        if (l.nccl_tables_skipped)
            printf("# note: %d nccl-tests table(s) left out; first: %s\n", l.nccl_tables_skipped,
                   l.nccl_skip_why);
        if (ri.incomplete)
            printf("# note: %d trace file(s) end before their closing bracket (the traced "
                   "process was killed, or the file was cut): first %s; a case near the cut may "
                   "lack activities and be skipped\n",
                   ri.incomplete, ri.incomplete_path);
        if (ri.unrecorded) {
            char note[640];
            printf("# note: %s\n", cli_unrecorded_note(&ri, note, sizeof note));
        }
        if (ri.not_traces)
            printf("# note: %d file(s) of the folder(s) given are not traces and were left "
                   "out; first: %s\n",
                   ri.not_traces, ri.not_trace_why);
        if (mi.merged)
            printf("# %d case(s) combined over the traces of up to %d ranks of one run: per "
                   "iteration, last end - last start over the ranks (doc/validation.md)\n",
                   mi.merged, mi.ranks_max);
        cli_print_log_tables(stdout, &l);
        if (mi.rank_alone)
            printf("# note: %d case(s) from one rank of a multi-process job whose other ranks' "
                   "traces are missing: their times include waiting for the late rank (give "
                   "every rank's trace)\n",
                   mi.rank_alone);
        if (!summary_only) {
            printf("# %-6s %-30s %11s %11s %11s %11s %7s %8s %-22s %-22s %s %s %s\n", "family",
                   "case", "bound", "attain", "pred", "measured", "roof", "err", "binding", "impl",
                   "source", "bound_cold", "roof_cold");
            printf("# %-6s %-30s %11s %11s %11s %11s %7s %8s %-22s %-22s %s %s %s\n", "", "", "us",
                   "us", "us", "us", "%", "%", "", "", "", "us", "%");
            for (size_t i = 0; i < l.n; i++) {
                const cr_vmeas *m = &l.v[i];
                const cr_vresult *r = &res[i];
                char b[16] = "-", bc[16] = "-", a[16] = "-", p[16] = "-", rf[16] = "-",
                     rfc[16] = "-", e[16] = "-";
                if (r->has_bound) {
                    us_text3(b, sizeof b, us(r->bound_s));
                    us_text3(bc, sizeof bc, us(r->bound_cold_s));
                }
                if (r->has_bound && r->timed) {
                    snprintf(rf, sizeof rf, "%.1f", r->pct_of_roofline);
                    snprintf(rfc, sizeof rfc, "%.1f", r->pct_of_roofline_cold);
                }
                if (r->attainable_s > 0)
                    snprintf(a, sizeof a, "%.3f", us(r->attainable_s));
                if (r->has_pred)
                    snprintf(p, sizeof p, "%.3f", us(r->pred_s));
                if (r->has_pred && r->timed)
                    snprintf(e, sizeof e, "%+.1f", r->error_pct);
                char lab[64], impl[sizeof r->impl];
                cli_field(lab, sizeof lab, m->label, 60);
                cli_field(impl, sizeof impl, r->impl[0] ? r->impl : "-", 0);
                printf(
                    "  %-6s %-30s %11s %11s %11s %11.3f %7s %8s %-22s %-22s %s %s %s%s%s%s%s%s\n",
                    cr_vfam_name(m->c.family), lab, b, a, p, us(m->measured_s), rf, e,
                    r->binding[0] ? r->binding : "-", impl, m->source, bc, rfc,
                    r->violation        ? "  VIOLATION"
                    : r->cache_resident ? "  cache-resident"
                                        : "",
                    r->note[0] || m->note[0] ? "  # " : "", m->note,
                    m->note[0] && r->note[0] ? "; " : "", r->note);
            }
        }
        printf("#\n# summary per family (|err| over the cases with a prediction)\n");
        printf("# %-6s %6s %9s %10s %10s %10s %10s\n", "family", "cases", "predicted",
               "median|err|", "p90|err|", "max|err|", "violations");
        printf("# %-6s %6s %9s %10s %10s %10s %10s\n", "", "", "", "%", "%", "%", "");
        for (int f = -1; f < CR_VFAM__COUNT; f++) {
            const cr_vsummary *s = f < 0 ? &all : &sum[f];
            if (f >= 0 && s->cases == 0)
                continue;
            char med[16] = "-", p90[16] = "-", max[16] = "-";
            if (s->with_pred > 0) {
                snprintf(med, sizeof med, "%.1f", s->median_abs_err_pct);
                snprintf(p90, sizeof p90, "%.1f", s->p90_abs_err_pct);
                snprintf(max, sizeof max, "%.1f", s->max_abs_err_pct);
            }
            printf("  %-6s %6d %9d %10s %10s %10s %10d\n", f < 0 ? "all" : cr_vfam_name((cr_vfam)f),
                   s->cases, s->with_pred, med, p90, max, s->violations);
        }
        if (all.beats_attainable)
            printf("# note: %d case(s) ran faster than the attainable bound (measured ceilings of "
                   "topology %s): run 'commroof calibrate' to refresh them\n",
                   all.beats_attainable, t->name);
        if (unchecked)
            printf("# %s: %zu of %zu case(s) not checked (no bound on topology %s); first: %s: "
                   "%s\n",
                   unchecked == l.n ? "FAILED" : "note", unchecked, l.n, t->name,
                   l.v[first_unchecked].source,
                   res[first_unchecked].note[0] ? res[first_unchecked].note
                                                : l.v[first_unchecked].note);
        if (all.violations) {
            /* where: the first case's source (file:line for a log row); the
             * bound it broke: a case that declares cache=cold is held to the
             * cold one (it named the warm bound, below the time: "measured
             * 0.206 us below the bound 0.052 us", QA re-verification) */
            const cr_vresult *fv = &res[first_violation];
            printf("# FAILED: %d measured time(s) below the bound (impossible: the kernel, its "
                   "timing or the bound is wrong); first: %s: %s, measured %.3f us below the "
                   "%sbound %.3f us\n",
                   all.violations, l.v[first_violation].source, l.v[first_violation].label,
                   l.v[first_violation].measured_s * 1e6,
                   fv->held_cold ? "cold (HBM-only; the case declares cache=cold) " : "",
                   cr_vresult_held_s(fv) * 1e6);
        }
        /* every failure is said, not only the first: the exit status is the
         * gravest (3 for a violation), but a gate that failed beside a
         * violation went unsaid (QA audit, 2026-12-07) */
        if (ri.skipped)
            printf("# FAILED: %d range(s) skipped (bad names or values, or activities that cannot "
                   "be measured); first: %s\n",
                   ri.skipped, ri.why);
        if (gate_fail)
            printf("# FAILED: %d famil%s with median |err| above %.1f%%\n", gate_fail,
                   gate_fail == 1 ? "y" : "ies", max_med);
        if (gate_unjudged)
            printf("# FAILED: %d famil%s without a predicted case: --max-median-error has "
                   "nothing to judge there\n",
                   gate_unjudged, gate_unjudged == 1 ? "y" : "ies");
        if (!all.violations && !ri.skipped && !gate_fail && !gate_unjudged && unchecked < l.n)
            printf("# OK: no bound violations%s\n",
                   max_med >= 0 ? ", every family's median |err| within the limit" : "");
    }
    if (all.violations)
        rc = CLI_IMPOSSIBLE;
    else if (gate_fail || gate_unjudged || ri.skipped || (l.n > 0 && unchecked == l.n))
        rc = CLI_FAIL;
out:
    json_decref(root);
    cr_validate_cache_free(cache);
    free(res);
    cr_vmeas_list_release(&l);
    cr_topo_free(t);
    free(logs);
    free(traces);
    cli_log_colls_free(&lc);
    return rc;
}
