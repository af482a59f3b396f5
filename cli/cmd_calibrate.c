/* SPDX-License-Identifier: MIT */
/*
 * commroof calibrate [--topo BASE] [-o OUT.xml] [--from-traces TRACE...]
 *                   [--quick] [--json]
 *
 * Measures the local GPU with the kernels/ microbenchmarks (crbench, under
 * the CUPTI tracer) or reads traces of an earlier run, and writes BASE with
 * measured ceilings (<measured hbm-bw>, <measured-flops>) beside the
 * datasheet peaks and the fitted model parameters of ops' single-GPU
 * predictions (ops.hbm.*, ops.kernel.fixed, ops.gemm.mem_eff, ops.ce.*,
 * ops.pcie.eff, ops.pageable.*, ops.launch.*, ops.{ldst,tma}.*; see
 * cr_validate_apply_calibration) and of coll's mechanisms (mech.*). The
 * attainable bound (attainable_us) and the predictions then use them.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbuf.h"
#include "cli.h"
#include "params.h"
#include "opts.h"
#include "run_child.h"
#include "dtype.h"
#include "rankset.h"
#include "topo_xml.h"
#include "validate/calibrate_nccl.h"
#include "validate/validate.h"
#include "json_num.h"

static const char *const calibrate_help_head =
    "usage: commroof calibrate [--topo BASE] [-o OUT.xml] [--from-traces TRACE...]\n"
    "                          [--quick] [--json]\n"
    "\n"
    "Measures this machine's GPU 0 and writes topology BASE (default hgx-h200-8; use the\n"
    "one that describes this machine, e.g. h200-1) with measured ceilings beside the\n"
    "peaks: <measured hbm-bw> (best HBM stream kernel, bytes read plus written),\n"
    "<measured l2-bw> (best warm stream kernel of 32 MiB or less: the L2),\n"
    "<measured-flops> per dtype (best cuBLASLt GEMM), and the parameters of the\n"
    "single-GPU predictions (typical figures): ops.hbm.{eff,read_eff,write_eff,turn,\n"
    "read_lat}, ops.kernel.fixed, ops.gemm.mem_eff, ops.ce.d2d_eff, ops.pcie.eff,\n"
    "ops.pageable.{h2d,d2h,cached_h2d,cached_d2h}, ops.launch.{host,sync,graph,event},\n"
    "ops.{ldst,tma}.{sm_bw,fixed}; from p2p traces on a topology of two or more GPUs,\n"
    "coll's mechanism parameters mech.{ce,tma,ldst}.{eff,sms,launch}.\n"
    "attainable_us and predictions then use them.\n"
    "\n";

static const char *const calibrate_help_mid =
    "\n"
    "Running the kernels needs crbench (make kernels) and libcommroof_trace.so: they\n"
    "are looked up beside this binary ($BUILD/kernels/crbench, $BUILD/\n"
    "libcommroof_trace.so) or given by COMMROOF_CRBENCH and COMMROOF_TRACE_LIB.\n"
    "Without a usable GPU it says so and exits 1, writing nothing.\n"
    "\n"
    "\n"
    "usage: commroof calibrate --nccl-tests LOG... --topo BASE [-o OUT.xml] [--coll NAME]\n"
    "                          [--fit-coll NAME] [--ranks SPEC] [--nccl-version V]\n"
    "                          [--nccl-algo LIST] [--nccl-proto LIST] [--ranks-per-process N]\n"
    "                          [--json]\n"
    "\n"
    "Fits the constants of coll's NCCL predictions (model/params.c: coll.op_fixed,\n"
    "coll.alpha.*, coll.eff.*, coll.ll_max, ...; validate/calibrate_nccl.c lists them)\n"
    "to nccl-tests logs of this machine (as printed, or nccl-tests -J's JSON files)\n"
    "and writes BASE with them as <param> entries, source \"fitted from LOG... by\n"
    "commroof calibrate --nccl-tests\". The bound is not fitted: it uses the\n"
    "topology's peaks only; a row measured below it is a violation.\n"
    "Then a cross-check, per log and size band (<=1MiB, 1-64MiB, >64MiB): rows, median\n"
    "and p90 |error| before (BASE as shipped) and after, on logs the fit did not see:\n"
    "each log under a fit on the others (leave-one-log-out), or with --fit-coll the\n"
    "logs of other collectives under the fit written; a note when those come out worse\n"
    "than as shipped (JSON held_out_worse).\n"
    "\n";

static const char *const calibrate_help_tail =
    "\n"
    "Exit status: 0 ok; 1 no GPU, crbench failed, or unreadable input; 2 usage;\n"
    "3 a measured time below its bound (the fit is still written, without that row).\n";

/* crbench's exit status when the machine has no usable GPU
 * (CR_EXIT_NO_GPU, kernels/crbench.h; crbench is CUDA, this file is not). */
enum { CRBENCH_EXIT_NO_GPU = 4 };

/* Directory of this executable, or "." */
static void self_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0) {
        cr_str_copy(buf, size, ".");
        return;
    }
    buf[n] = 0;
    char *s = strrchr(buf, '/');
    if (s)
        *s = 0;
}

/* Runs crbench FAMILIES under the tracer into dir. Returns 0 on success. */
static int run_kernels(const char *dir, int quick)
{
    char here[PATH_MAX], crbench[PATH_MAX + 32], lib[PATH_MAX + 32];
    self_dir(here, sizeof here);
    const char *e = getenv("COMMROOF_CRBENCH");
    cr_str_copy(crbench, sizeof crbench, e ? e : "");
    if (!e)
        snprintf(crbench, sizeof crbench, "%s/kernels/crbench", here);
    e = getenv("COMMROOF_TRACE_LIB");
    cr_str_copy(lib, sizeof lib, e ? e : "");
    if (!e)
        snprintf(lib, sizeof lib, "%s/libcommroof_trace.so", here);
    if (access(crbench, X_OK) != 0)
        return cli_fail("calibrate",
                        "crbench not found at %s (run 'make kernels' where nvcc exists, or set "
                        "COMMROOF_CRBENCH); on a machine without a GPU, calibrate from traces "
                        "recorded on the GPU machine: --from-traces DIR",
                        crbench);
    if (access(lib, R_OK) != 0)
        return cli_fail("calibrate",
                        "tracer not found at %s (build it with 'make', or set COMMROOF_TRACE_LIB)",
                        lib);
    char *args[] = {crbench,
                    (char *)"hbm",
                    (char *)"ce",
                    (char *)"mech",
                    (char *)"gemm",
                    (char *)"launch",
                    quick ? (char *)"--quick" : NULL,
                    NULL};
    /* crbench's table is for people: stdout stays ours. A signal sent to
     * commroof goes on to crbench (run_child.h): before, SIGTERM ended
     * commroof and left crbench on the GPU without it */
    const cli_env_set env[] = {{"CUDA_INJECTION64_PATH", lib},
                               {"NVTX_INJECTION64_PATH", lib},
                               {"COMMROOF_TRACE_DIR", dir},
                               {"COMMROOF_TRACE_QUIET", "1"},
                               {"NCCL_NVLS_ENABLE", "0"}};
    cli_child_result r;
    if (cli_run_child(args, env, (int)(sizeof env / sizeof env[0]), CLI_CHILD_STDOUT_NULL, &r) != 0)
        return cli_fail("calibrate", "cannot start %s: %s", crbench, strerror(errno));
    if (r.exec_errno)
        return cli_fail("calibrate", "cannot run %s: %s", crbench, strerror(r.exec_errno));
    if (!r.signal && r.status == CRBENCH_EXIT_NO_GPU)
        return cli_fail("calibrate",
                        "no usable NVIDIA GPU on this machine (%s says why above): calibrate "
                        "measures GPU 0 here; on a machine without one, calibrate from traces "
                        "recorded on the GPU machine: --from-traces DIR",
                        crbench);
    if (r.status != 0)
        return cli_fail("calibrate",
                        "%s failed (%s %d): a correctness check or a CUDA call failed; run it by "
                        "hand to see its table",
                        crbench, r.signal ? "signal" : "exit", r.signal ? r.signal : r.status);
    return CLI_OK;
}

/* --- calibrate --nccl-tests ------------------------------------------------------ */

static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* One set of logs' figures of the cross-check: a line per band with rows,
 * and "all" when more than one band has some. */
static void print_bands(FILE *o, const char *name, const char *role, const cr_cnf_stat *b,
                        const cr_cnf_stat *a)
{
    int bands = 0;
    for (int k = 0; k < CR_CNF__BANDS; k++)
        bands += b[k].rows > 0;
    for (int k = 0; k <= CR_CNF__BANDS; k++) {
        if (b[k].rows == 0 || (k == CR_CNF__BANDS && bands < 2))
            continue;
        fprintf(o, "  %-48.48s %-5s %-8s %5d %8.1f %8.1f %8.1f %8.1f\n", name, role,
                cr_cnf_band_name(k), b[k].rows, b[k].median_pct, b[k].p90_pct, a[k].median_pct,
                a[k].p90_pct);
    }
}

static json_t *band_json(const cr_cnf_stat *b, const cr_cnf_stat *a)
{
    json_t *arr = json_array();
    for (int k = 0; k <= CR_CNF__BANDS; k++) {
        if (b[k].rows == 0)
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "band", json_string(cr_cnf_band_name(k)));
        json_object_set_new(o, "rows", json_integer(b[k].rows));
        json_object_set_new(o, "before_median_pct", json_real(b[k].median_pct));
        json_object_set_new(o, "before_p90_pct", json_real(b[k].p90_pct));
        json_object_set_new(o, "after_median_pct", json_real(a[k].median_pct));
        json_object_set_new(o, "after_p90_pct", json_real(a[k].p90_pct));
        json_array_append_new(arr, o);
    }
    return arr;
}

/* Whether the cross-check's held-out rows (all bands together) come out
 * worse under the fit than under the base topology as shipped: a fit on
 * one collective can trade the split between constants its siblings share
 * (Sophia's all_reduce, doc/corpus.md Session 18). */
static bool held_out_worse(const cr_cnf_stat *before, const cr_cnf_stat *after)
{
    const cr_cnf_stat *b = &before[CR_CNF__BANDS], *a = &after[CR_CNF__BANDS];
    return b->rows > 0 && a->median_pct > b->median_pct;
}

/* Whether one held-out log comes out clearly worse under the fit than as
 * shipped: in some band (or all its rows) the median |error| grows by more
 * than 5 points and by half. The pooled figure can hide it: seven logs of
 * one machine, one of them 10.3 -> 70.8 %, pooled 11.5 -> 3.6. */
static int log_worse(const cr_cnf_stat *before, const cr_cnf_stat *after)
{
    for (int b = 0; b <= CR_CNF__BANDS; b++)
        if (before[b].rows > 0 && after[b].median_pct > before[b].median_pct + 5 &&
            after[b].median_pct > 1.5 * before[b].median_pct)
            return b;
    return -1; /* the band that is, CR_CNF__BANDS all rows; -1 none */
}

/* calibrate --nccl-tests: fits coll's constants to the logs (validate/
 * calibrate_nccl.h), cross-checks on logs left out of a fit, writes BASE
 * with the fitted constants. */
/* What the logs' runs were that the logs do not print (--nccl-version,
 * --nccl-algo, --nccl-proto, --ranks-per-process); NULL: not given. */
typedef struct {
    const char *version, *algo, *proto, *rpp;
} nccl_run;

/* One log of the fit and the cross-check: the rows of one collective of
 * one file. A file usually holds one collective's table; one that holds
 * several (a script's runs of all_reduce_perf, all_gather_perf, ... into
 * one log) is as many logs, each named "FILE (coll)". */
typedef struct {
    int file;    /* its file's index in the logs given */
    char *label; /* the file's path, with " (coll)" where the file holds several */
} cal_log;

/* The log of file `file` and collective coll (a static name, NULL unknown)
 * among units[0..*n): found, or added at *n (the caller sized units for one
 * per collective, and unknown, per file). Sets log_coll[log] to coll. */
static int unit_of(cal_log *units, const char **log_coll, int *n, int file, const char *coll)
{
    for (int u = 0; u < *n; u++)
        if (units[u].file == file &&
            (log_coll[u] == coll || (log_coll[u] && coll && !strcmp(log_coll[u], coll))))
            return u;
    units[*n].file = file;
    log_coll[*n] = coll;
    return (*n)++;
}

/* Sets each unit's label: its file's path, and " (coll)" where the file has
 * several units. Errors: CR_ENOMEM. */
static cr_status label_units(cal_log *units, const char **log_coll, int n, const char **logs)
{
    for (int u = 0; u < n; u++) {
        int same = 0;
        for (int v = 0; v < n; v++)
            same += units[v].file == units[u].file;
        const char *path = logs[units[u].file], *coll = log_coll[u] ? log_coll[u] : "?";
        size_t len = strlen(path) + strlen(coll) + 4;
        if (!(units[u].label = malloc(len)))
            return CR_ENOMEM;
        if (same > 1)
            snprintf(units[u].label, len, "%s (%s)", path, coll);
        else
            snprintf(units[u].label, len, "%s", path);
    }
    return CR_OK;
}

/* "fitted from LOG, ... by commroof calibrate --nccl-tests": the files of
 * the units in_fit, each once, with the collectives fitted where only some
 * of a file's units (with rows) were. NULL: out of memory; free(). */
static char *fit_source(const cal_log *units, const char **log_coll, const bool *in_fit,
                        const int *log_rows, int n, const char **logs, int n_logs)
{
    size_t len = 64;
    for (int u = 0; u < n; u++)
        len += in_fit[u] ? strlen(logs[units[u].file]) + 24 : 0;
    char *src = malloc(len);
    if (!src)
        return NULL;
    strcpy(src, "fitted from ");
    int k = 0;
    for (int fi = 0; fi < n_logs; fi++) {
        int with_rows = 0, fitted = 0;
        for (int u = 0; u < n; u++)
            if (units[u].file == fi) {
                with_rows += log_rows[u] > 0;
                fitted += in_fit[u];
            }
        if (!fitted)
            continue;
        if (k++)
            strcat(src, ", ");
        strcat(src, logs[fi]);
        if (fitted == with_rows)
            continue;
        strcat(src, " (");
        for (int u = 0, c = 0; u < n; u++)
            if (units[u].file == fi && in_fit[u]) {
                if (c++)
                    strcat(src, ", ");
                strcat(src, log_coll[u] ? log_coll[u] : "?");
            }
        strcat(src, ")");
    }
    strcat(src, " by commroof calibrate --nccl-tests");
    return src;
}

/* A fit on one collective's rows moves coll.op_fixed, the fixed cost
 * every collective pays, against that collective's own step latencies,
 * which its rows cannot tell apart from it (one rank count, one
 * algorithm per size): on the corpus's 2 x 4 H100 (Snellius) the all_reduce
 * puts it at 0 and the held-out all_gather agrees; on 2 x 8 A100 (Sophia)
 * it does the same and the all_gather and alltoall come out 2-3 times as
 * wrong as shipped (doc/corpus.md Session 18). Said when it moved by more
 * than a quarter, so that the user adds a log of another collective. */
static void note_shared_fixed_cost(FILE *rep, const cr_cnf_fit *fit, const char **log_coll,
                                   const bool *in_fit, int n_logs)
{
    const char *coll = NULL;
    for (int i = 0; i < n_logs; i++) {
        if (!in_fit[i])
            continue;
        if (!log_coll[i] || (coll && strcmp(coll, log_coll[i])))
            return; /* two collectives (or one unknown) inform the split */
        coll = log_coll[i];
    }
    for (int k = 0; coll && k < fit->n_keys; k++) {
        double b = fit->k[k].before, a = fit->k[k].after;
        if (strcmp(fit->k[k].key, "coll.op_fixed") || !fit->k[k].fitted || !(b > 0) ||
            fabs(a - b) <= 0.25 * b)
            continue;
        fprintf(rep,
                "# note: coll.op_fixed, the fixed cost every collective pays, moved %.3g -> %.3g "
                "s on the rows of %s alone, which cannot tell it from %s's own step latencies: "
                "other collectives may disagree; calibrate with a log of another collective "
                "too to fit the split\n",
                b, a, coll, coll);
    }
}

/* A model parameter's unit as params.c gives it ("s", "B/s"; "-" for a
 * ratio), for calibrate's table of keys. */
static const char *param_unit(const char *key)
{
    const char *k, *unit = NULL;
    for (int i = 0; (k = cr_params_key(i, NULL, &unit)) != NULL; i++)
        if (strcmp(k, key) == 0)
            return unit && unit[0] ? unit : "-";
    return "-";
}

/* The end of its search range a fitted key stopped at (cr_cnf_fit
 * at_bound: -1 the floor, +1 the ceiling). */
static const char *bound_side(int at_bound)
{
    return at_bound < 0 ? "lower" : "upper";
}

/* Progress of the fits on stderr (a terminal only): the fit written and,
 * in the leave-one-log-out check, one more per log. */
typedef struct {
    int fit, fits;
    bool shown;
} fit_progress;

static void show_progress(void *ctx, int sweep, int sweeps, int key, int keys, const char *name)
{
    fit_progress *fp = ctx;
    fp->shown = true;
    fprintf(stderr, "\rcommroof calibrate: fit %d of %d, sweep %d of %d, key %d of %d (%s)%-12s",
            fp->fit, fp->fits, sweep + 1, sweeps, key + 1, keys, name, "");
    fflush(stderr);
}

static void end_progress(fit_progress *fp)
{
    if (fp->shown)
        fprintf(stderr, "\r%-110s\r", "");
    fp->shown = false;
}

/* The descent starts from BASE's constants: where BASE is itself a
 * calibrated topology, a key the first fit held at its shipped figure
 * (it ran to an end of its range) may land just inside that end from the
 * other keys' fitted figures, and be written: SuperBench's A100 logs fitted
 * again on their own output moved coll.eff.ll from the held 0.39 to 0.105
 * (QA audit, 2026-12-06). Widening the edge to a quarter grid step kept
 * it, but cost the cross-check (tools/calibrate_crosscheck.sh: Snellius 2
 * nodes 3.3 -> 6.0 %, Polaris 8 nodes 30.4 -> 35.8 %), so it is said
 * instead. */
static void note_fitted_base(const cr_topo *t)
{
    int n_keys = 0;
    const cr_cnf_key *keys = cr_cnf_keys(&n_keys);
    for (int k = 0; k < n_keys; k++) {
        const cr_param *p = cr_topo_find_param(t, keys[k].key);
        if (p && p->source && strstr(p->source, "by commroof calibrate --nccl-tests")) {
            fprintf(stderr,
                    "commroof calibrate: note: topology %s already holds constants fitted by "
                    "calibrate --nccl-tests (%s first): the fit starts from them, and may "
                    "differ from a fit of the same logs on the topology it was calibrated from\n",
                    t->name, keys[k].key);
            return;
        }
    }
}

static int calibrate_nccl(const char **logs, int n_logs, const cli_log_colls *colls,
                          const char *fit_coll_name, const char *ranks, nccl_run run,
                          const char *topo_name, const char *out_path, int json)
{
    int rc = CLI_OK;
    cr_topo *t = NULL;
    cr_cnf *f = NULL;
    cr_vmeas_list l = {0};
    /* the logs of the fit and the cross-check: each file's rows of one
     * collective (cal_log); at most one per collective, or unknown, a file */
    size_t max_units = (size_t)n_logs * (CR_COLL__COUNT + 1);
    int n_units = 0;
    cal_log *units = calloc(max_units, sizeof *units);
    const char **log_coll = calloc(max_units, sizeof *log_coll);
    bool *in_fit = calloc(max_units, sizeof *in_fit), *one = calloc(max_units, 1);
    int *log_rows = calloc(max_units, sizeof *log_rows);      /* rows each log gave the fit */
    char(*log_why)[200] = calloc(max_units, sizeof *log_why); /* its first left out */
    double *before = NULL, *after = NULL, *cross = NULL;
    char *src = NULL;
    cr_cnf_fit fit, *lolo = NULL;
    cr_diag d = {{0}};
    if (!units || !log_coll || !in_fit || !one || !log_rows || !log_why) {
        rc = cli_fail("calibrate", "out of memory");
        goto out;
    }
    if ((rc = cli_check_distinct_inputs("calibrate", "log", logs, n_logs)) != CLI_OK)
        goto out;
    /* the names validate --coll takes (cr_nccl_log_coll): all_reduce,
     * allreduce and all_reduce_perf alike */
    cr_nccl_log_opts lo = {0};
    const char *fit_coll = NULL;
    if (run.version && cr_nccl_version_parse(run.version, &lo.nccl_version, &d) != CR_OK) {
        rc = cli_usage_error("calibrate", "--nccl-version: %s", d.msg);
        goto out;
    }
    if ((rc = cli_check_nccl_select("calibrate", run.algo, false)) != CLI_OK ||
        (rc = cli_check_nccl_select("calibrate", run.proto, true)) != CLI_OK)
        goto out;
    lo.nccl_algo = run.algo;
    lo.nccl_proto = run.proto;
    if (run.rpp &&
        (rc = cli_parse_ranks_per_process("calibrate", run.rpp, &lo.gpus_per_thread)) != CLI_OK)
        goto out;
    if (fit_coll_name && !(fit_coll = cr_nccl_log_coll(fit_coll_name, &d))) {
        rc = cli_usage_error("calibrate", "--fit-coll %s: %s", fit_coll_name, d.msg);
        goto out;
    }
    t = cli_open_topo("calibrate", topo_name);
    if (!t) {
        rc = CLI_FAIL;
        goto out;
    }
    if (ranks) {
        /* the logs' rank count where they do not tell it (validate does the same) */
        cr_rankset *rs = NULL;
        if (cr_rankset_parse(ranks, t->n_gpus, &rs, &d) != CR_OK) {
            rc = cli_usage_error("calibrate", "--ranks: %s", d.msg);
            goto out;
        }
        lo.nranks = rs->n;
        cr_rankset_free(rs);
    }
    if (cr_cnf_new(t, ranks, &f, &d) != CR_OK) {
        rc = cli_fail("calibrate", "%s", d.msg);
        goto out;
    }
    note_fitted_base(t);
    int skipped = 0;
    char skip_why[200] = "", skip_src[128] = "";
    for (int fi = 0; fi < n_logs; fi++) {
        size_t first = l.n;
        int tables_skipped = l.nccl_tables_skipped;
        lo.coll = cli_log_coll(colls, fi);
        if (cr_validate_read_nccl_tests(logs[fi], &lo, &l, &d) != CR_OK ||
            cr_validate_nccl_log_gave_rows(logs[fi], &l, first, tables_skipped, &d) != CR_OK) {
            rc = cli_fail("calibrate", "%s", d.msg);
            goto out;
        }
        if ((rc = cli_check_log_gpu("calibrate", t, logs[fi], &l, first, false)) != CLI_OK)
            goto out;
        for (size_t j = first; j < l.n; j++) {
            bool added = false;
            char why[200];
            /* a file may hold several collectives' tables (a script's runs
             * into one log): each is a log of its own, so that --fit-coll
             * and the cross-check take the rows of its collective (QA
             * audit of pasted logs: the whole file was its first table's) */
            int i = unit_of(units, log_coll, &n_units, fi,
                            cr_nccl_log_coll(cr_vcase_get(&l.v[j].c, "coll"), NULL));
            cr_status st = cr_cnf_add(f, &l.v[j], i, &added, why, sizeof why, &d);
            if (st == CR_EINVAL) {
                /* a bad --ranks is the user's (exit 2, as validate) */
                rc = cli_usage_error("calibrate", "%s", d.msg);
                goto out;
            }
            if (st != CR_OK) {
                rc = cli_fail("calibrate", "%s", d.msg);
                goto out;
            }
            log_rows[i] += added;
            if (!added && !log_why[i][0])
                snprintf(log_why[i], sizeof log_why[i], "%.60s: %.130s", l.v[j].source, why);
            if (!added && !skipped++) {
                cr_str_copy(skip_why, sizeof skip_why, why);
                cr_str_copy(skip_src, sizeof skip_src, l.v[j].source);
            }
        }
    }
    /* the same run in two logs would count twice, and the cross-check
     * would hold out a copy of what it fitted (QA audit of calibrate: a
     * log's table pasted into another file) */
    if (cr_validate_nccl_logs_distinct(&l, 0, &d) != CR_OK) {
        rc = cli_fail("calibrate", "%s", d.msg);
        goto out;
    }
    /* a log none of whose rows the model predicts takes no part: said, and
     * the cross-check counts only the logs with rows */
    if (label_units(units, log_coll, n_units, logs) != CR_OK) {
        rc = cli_fail("calibrate", "out of memory");
        goto out;
    }
    int n_usable = 0;
    for (int i = 0; i < n_units; i++) {
        n_usable += log_rows[i] > 0;
        if (!log_rows[i])
            fprintf(stderr,
                    "commroof calibrate: note: %s: none of its rows can be predicted on %s "
                    "(first: %s): it takes no part in the fit or the cross-check\n",
                    units[i].label, t->name, log_why[i]);
    }
    size_t n_rows = 0;
    const cr_cnf_row *rows = cr_cnf_rows(f, &n_rows);
    if (skipped)
        fprintf(stderr, "commroof calibrate: note: %d row(s) left out; first: %s: %s\n", skipped,
                skip_src, skip_why);
    if (l.nccl_tables_skipped)
        fprintf(stderr, "commroof calibrate: note: %d nccl-tests table(s) left out; first: %s\n",
                l.nccl_tables_skipped, l.nccl_skip_why);
    if (n_rows == 0) {
        rc = cli_fail("calibrate", "no row of the logs can be predicted on topology %s", t->name);
        goto out;
    }
    /* which logs the written fit uses */
    int n_fit = 0;
    for (int i = 0; i < n_units; i++) {
        in_fit[i] =
            log_rows[i] > 0 && (!fit_coll || (log_coll[i] && !strcmp(log_coll[i], fit_coll)));
        n_fit += in_fit[i];
    }
    if (n_fit == 0) {
        rc = cli_usage_error("calibrate", "--fit-coll %s: no log given is of that collective",
                             fit_coll_name);
        goto out;
    }
    before = calloc(n_rows, sizeof *before);
    after = calloc(n_rows, sizeof *after);
    cross = calloc(n_rows, sizeof *cross);
    if (!before || !after || !cross) {
        rc = cli_fail("calibrate", "out of memory");
        goto out;
    }
    /* the cross-check: with --fit-coll the other logs under the written fit;
     * otherwise each log under a fit on all the others (none with one log) */
    bool lolo_mode = !fit_coll && n_usable > 1;
    fit_progress fp = {1, lolo_mode ? n_units + 1 : 1, false};
    if (cli_progress_enabled())
        cr_cnf_set_progress(f, show_progress, &fp);
    if (cr_cnf_predict(f, NULL, before, &d) != CR_OK ||
        cr_cnf_fit_run(f, in_fit, n_units, &fit, &d) != CR_OK ||
        cr_cnf_predict(f, &fit, after, &d) != CR_OK) {
        end_progress(&fp);
        rc = cli_fail("calibrate", "%s", d.msg);
        goto out;
    }
    memcpy(cross, after, n_rows * sizeof *cross);
    if (lolo_mode) {
        lolo = calloc((size_t)n_units, sizeof *lolo);
        double *p = calloc(n_rows, sizeof *p);
        if (!lolo || !p) {
            free(p);
            rc = cli_fail("calibrate", "out of memory");
            goto out;
        }
        for (int i = 0; i < n_units; i++) {
            if (!log_rows[i])
                continue;
            for (int j = 0; j < n_units; j++)
                one[j] = j != i;
            fp.fit = i + 2;
            if (cr_cnf_fit_run(f, one, n_units, &lolo[i], &d) != CR_OK ||
                cr_cnf_predict(f, &lolo[i], p, &d) != CR_OK) {
                free(p);
                end_progress(&fp);
                rc = cli_fail("calibrate", "%s", d.msg);
                goto out;
            }
            for (size_t r = 0; r < n_rows; r++)
                if (rows[r].log == i)
                    cross[r] = p[r];
        }
        free(p);
    }
    end_progress(&fp);
    cr_cnf_set_progress(f, NULL, NULL);
    /* the topology: fitted keys with the logs they came from */
    src = fit_source(units, log_coll, in_fit, log_rows, n_units, logs, n_logs);
    if (!src) {
        rc = cli_fail("calibrate", "out of memory");
        goto out;
    }
    if (cr_cnf_apply(t, &fit, src) != CR_OK) {
        rc = cli_fail("calibrate", "out of memory");
        goto out;
    }
    if (out_path && cr_topo_xml_save_file(t, out_path, &d) != CR_OK) {
        rc = cli_fail("calibrate", "%s", d.msg);
        goto out;
    }
    int violations = 0;
    for (size_t r = 0; r < n_rows; r++)
        violations += rows[r].violation;
    /* held out: the logs the cross-check predicts without fitting on them */
    bool *held = calloc((size_t)n_units, 1);
    if (!held) {
        rc = cli_fail("calibrate", "out of memory");
        goto out;
    }
    int n_held = 0;
    for (int i = 0; i < n_units; i++) {
        held[i] = log_rows[i] > 0 && (lolo_mode || !in_fit[i]);
        n_held += held[i];
    }
    cr_cnf_stat hb[CR_CNF__BANDS + 1], ha[CR_CNF__BANDS + 1];
    /* a failed one leaves its figures unset (QA audit of allocation failures) */
    bool stats_oom = cr_cnf_stats(f, before, held, n_units, hb) != CR_OK;
    stats_oom |= cr_cnf_stats(f, cross, held, n_units, ha) != CR_OK;
    /* each log's figures before and after, once for either output */
    cr_cnf_stat(*lb)[CR_CNF__BANDS + 1] = malloc((size_t)n_units * sizeof *lb);
    cr_cnf_stat(*la)[CR_CNF__BANDS + 1] = malloc((size_t)n_units * sizeof *la);
    for (int i = 0; lb && la && i < n_units; i++) {
        memset(one, 0, (size_t)n_units);
        one[i] = true;
        stats_oom |= cr_cnf_stats(f, before, one, n_units, lb[i]) != CR_OK;
        stats_oom |= cr_cnf_stats(f, held[i] ? cross : after, one, n_units, la[i]) != CR_OK;
    }
    if (!lb || !la || stats_oom) {
        free(lb);
        free(la);
        free(held);
        rc = cli_fail("calibrate", "out of memory");
        goto out;
    }
    FILE *rep = stdout;
    if (json && !out_path)
        /* stdout carries the JSON: the topology has nowhere to go */
        fprintf(stderr, "commroof calibrate: note: --json without -o: the calibrated topology "
                        "is not written (give -o OUT.xml to keep it)\n");
    if (json) {
        json_t *o = json_object(), *ja = json_array(), *jk = json_array(), *jv = json_array();
        json_object_set_new(o, "topology", json_string(t->name));
        if (out_path)
            json_object_set_new(o, "output", json_string(out_path));
        json_object_set_new(o, "rows", json_integer((json_int_t)n_rows));
        json_object_set_new(o, "fit_rows", json_integer(fit.rows));
        json_object_set_new(o, "rate_rows", json_integer(fit.rate_rows));
        json_object_set_new(o, "crosscheck",
                            json_string(lolo_mode  ? "leave-one-log-out"
                                        : fit_coll ? "fit on one collective"
                                                   : "none (one log)"));
        /* a mean over no row is none, not a perfect 0 (every row a violation) */
        json_object_set_new(o, "mean_abs_ln_before",
                            fit.rows ? json_real(fit.obj_before) : json_null());
        json_object_set_new(o, "mean_abs_ln_after",
                            fit.rows ? json_real(fit.obj_after) : json_null());
        for (int k = 0; k < fit.n_keys; k++) {
            json_t *e = json_object();
            json_object_set_new(e, "key", json_string(fit.k[k].key));
            json_object_set_new(e, "before", json_real(fit.k[k].before));
            json_object_set_new(e, "after", json_real(fit.k[k].after));
            json_object_set_new(e, "fitted", json_boolean(fit.k[k].fitted));
            json_object_set_new(e, "written", json_boolean(cr_cnf_key_moved(&fit, k)));
            if (fit.k[k].carried_with)
                json_object_set_new(e, "carried_with", json_string(fit.k[k].carried_with));
            if (fit.k[k].not_carried_with)
                json_object_set_new(e, "not_carried_with", json_string(fit.k[k].not_carried_with));
            if (fit.k[k].at_bound)
                json_object_set_new(e, "at_bound", json_string(bound_side(fit.k[k].at_bound)));
            json_object_set_new(e, "rows", json_integer(fit.k[k].rows));
            json_array_append_new(jk, e);
        }
        json_object_set_new(o, "keys", jk);
        for (int i = 0; i < n_units; i++) {
            json_t *e = json_object();
            json_object_set_new(e, "log", json_string(logs[units[i].file]));
            json_object_set_new(e, "coll", json_string(log_coll[i] ? log_coll[i] : "?"));
            json_object_set_new(e, "role", json_string(held[i] ? "check" : "fit"));
            json_object_set_new(e, "rows", json_integer(log_rows[i]));
            json_object_set_new(e, "bands", band_json(lb[i], la[i]));
            json_object_set_new(e, "worse", json_boolean(held[i] && log_worse(lb[i], la[i]) >= 0));
            json_array_append_new(ja, e);
        }
        json_object_set_new(o, "logs", ja);
        if (n_held) {
            json_object_set_new(o, "held_out", band_json(hb, ha));
            json_object_set_new(o, "held_out_worse", json_boolean(held_out_worse(hb, ha)));
        }
        for (size_t r = 0; r < n_rows; r++)
            if (rows[r].violation) {
                json_t *e = json_object();
                json_object_set_new(e, "source", json_string(rows[r].source));
                json_object_set_new(e, "measured_us", json_real(rows[r].measured_s * 1e6));
                json_object_set_new(e, "bound_us", json_real(rows[r].bound_s * 1e6));
                json_array_append_new(jv, e);
            }
        json_object_set_new(o, "violations", jv);
        int bad = cli_json_fputs(o, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0;
        json_decref(o);
        fputc('\n', stdout);
        if (bad) {
            free(held);
            free(lb);
            free(la);
            rc = cli_fail("calibrate",
                          "cannot write JSON to stdout (out of memory, or stdout refused it)");
            goto out;
        }
    } else {
        if (!out_path) {
            /* the topology goes to stdout, the report beside it */
            char *buf = NULL;
            size_t len = 0;
            if (cr_topo_xml_save_memory(t, &buf, &len, &d) != CR_OK) {
                free(held);
                free(lb);
                free(la);
                rc = cli_fail("calibrate", "%s", d.msg);
                goto out;
            }
            fwrite(buf, 1, len, stdout);
            free(buf);
            rep = stderr;
        }
        fprintf(rep, "# commroof calibrate --nccl-tests: %d log(s)", n_logs);
        if (n_units > n_logs)
            fprintf(rep, " holding the tables of %d collectives (each table a log below)", n_units);
        fprintf(rep, ", %zu rows on %s%s%s\n", n_rows, t->name, out_path ? " -> " : "",
                out_path ? out_path : "");
        /* where each table's collective and rank count came from, as
         * validate says: a shortened rank list is fitted at busbw/algbw's
         * count (QA audit of pasted logs: calibrate did not say) */
        cli_print_log_tables(rep, &l);
        if (fit.rows)
            fprintf(rep, "# fit on %d log(s)%s%s, %d rows: mean |ln(pred/measured)| %.4f -> %.4f\n",
                    n_fit, fit_coll ? " of " : "", fit_coll ? fit_coll : "", fit.rows,
                    fit.obj_before, fit.obj_after);
        else
            /* it printed "0 rows: ... 0.0000 -> 0.0000", a perfect fit of
             * nothing (QA audit, 2026-12-07) */
            fprintf(rep,
                    "# fit on %d log(s)%s%s: no row to fit on (each of their rows is measured "
                    "below its bound: a violation, left out of the fit)\n",
                    n_fit, fit_coll ? " of " : "", fit_coll ? fit_coll : "");
        if (fit.obj_after > fit.obj_before)
            /* each key is fitted on the rows it shapes (validate/calibrate_nccl.c),
             * which can trade against the others' */
            fprintf(rep,
                    "# note: the fitted rows as a whole moved away from the measurements: each "
                    "key is fitted on the rows it shapes, and those pulled against the others; "
                    "the cross-check below judges the fit\n");
        if (fit.rate_rows)
            /* the rates' own rows are those above 64 MiB (validate/calibrate_nccl.c
             * mark_rate_rows) */
            fprintf(rep,
                    "# note: fewer than 2 fitted rows above 64 MiB (of the links these rows "
                    "cross): the rates (coll.eff.*) were fitted on the %d rows within %dx of "
                    "the largest size too\n",
                    fit.rate_rows, CR_CNF_RATE_SPAN);
        if (fit.rows)
            fprintf(rep, "# %-26s %12s %12s %-5s %5s\n", "key", "before", "after", "unit", "rows");
        int pinned = 0;
        for (int k = 0; k < fit.n_keys; k++) {
            if (fit.k[k].rows == 0)
                continue;
            pinned += fit.k[k].at_bound != 0;
            fprintf(rep, "  %-26s %12.5g %12.5g %-5s %5d%s%s", fit.k[k].key, fit.k[k].before,
                    fit.k[k].after, param_unit(fit.k[k].key), fit.k[k].rows,
                    fit.k[k].carried_with             ? "  carried with "
                    : cr_cnf_key_moved(&fit, k)       ? ""
                    : fit.k[k].fitted                 ? "  the fit kept it (not written)"
                    : fit.k[k].at_bound               ? ""
                    : fit.k[k].rows < CR_CNF_MIN_ROWS ? "  too few rows to fit it on (kept)"
                                                      : "  not informed (kept)",
                    fit.k[k].carried_with ? fit.k[k].carried_with : "");
            if (fit.k[k].at_bound)
                fprintf(rep, "  ran to its %s bound: held as shipped",
                        bound_side(fit.k[k].at_bound));
            if (fit.k[k].not_carried_with)
                fprintf(rep, "; not carried with %s (it moved past %dx its shipped figure)",
                        fit.k[k].not_carried_with, CR_CNF_CARRY_MAX);
            fputc('\n', rep);
        }
        int moved = 0;
        for (int k = 0; k < fit.n_keys; k++)
            moved += cr_cnf_key_moved(&fit, k);
        if (moved == 0)
            /* written all the same (the base's figures, a valid topology),
             * but not passed off as a fit */
            fprintf(rep,
                    "# note: nothing was fitted: no key moved from its shipped figure%s; %s "
                    "holds the base's constants\n",
                    fit.rows == 0 && violations  ? " (no row left to fit on: see the violations)"
                    : fit.rows < CR_CNF_MIN_ROWS ? " (a key needs at least 2 rows; give more sizes)"
                                                 : "",
                    out_path ? out_path : "the output");
        if (pinned)
            /* a key at the edge of its plausible range would absorb rows
             * the model's structure misses (validate/calibrate_nccl.c) */
            fprintf(rep,
                    "# note: %d key(s) ran to the edge of their search range: the rows they "
                    "shape ask for a figure no plausible constant gives (the model's structure "
                    "misses them there), so they keep their shipped figure and the other keys "
                    "were fitted again without them\n",
                    pinned);
        note_shared_fixed_cost(rep, &fit, log_coll, in_fit, n_units);
        fprintf(rep, "# cross-check: %s\n",
                lolo_mode ? "each log predicted by a fit on the other logs (leave-one-log-out)"
                : fit_coll && n_held ? "logs of other collectives, predicted by the fit above"
                : fit_coll           ? "none: every log is of the fitted collective (its own rows, "
                                       "in-sample)"
                                     : "none: one log (its own rows, in-sample)");
        fprintf(rep, "# %-48s %-5s %-8s %5s %8s %8s %8s %8s\n", "log", "role", "band", "rows",
                "before", "p90", "after", "p90");
        fprintf(rep, "# %-48s %-5s %-8s %5s %8s %8s %8s %8s\n", "", "", "", "", "med|err|%", "%",
                "med|err|%", "%");
        for (int i = 0; i < n_units; i++)
            print_bands(rep, base_of(units[i].label), held[i] ? "check" : "fit", lb[i], la[i]);
        if (n_held) {
            print_bands(rep, "(held-out logs together)", "check", hb, ha);
            /* per log, as the pooled figure can hide one */
            int nw = 0;
            for (int i = 0; i < n_units; i++) {
                int wb = held[i] ? log_worse(lb[i], la[i]) : -1;
                if (wb < 0)
                    continue;
                if (nw++ == 0)
                    fprintf(rep, "# note: held-out log(s) clearly worse calibrated than as "
                                 "shipped (a band's median |err| up by more than 5 points and "
                                 "by half): ");
                fprintf(rep, "%s%s (%s %.1f -> %.1f %%)", nw > 1 ? ", " : "",
                        base_of(units[i].label),
                        wb == CR_CNF__BANDS ? "all rows" : cr_cnf_band_name(wb),
                        lb[i][wb].median_pct, la[i][wb].median_pct);
            }
            if (nw)
                fprintf(rep, "; what the other logs ask for does not carry to them\n");
            if (held_out_worse(hb, ha))
                /* the fit is written all the same: the user decides */
                fprintf(rep,
                        "# note: the held-out logs come out worse calibrated than as shipped "
                        "(median |err| %.2f -> %.2f %%): what the fitted logs ask for does not "
                        "carry to them; the base topology predicts them better, or calibrate "
                        "on logs of their collectives too\n",
                        hb[CR_CNF__BANDS].median_pct, ha[CR_CNF__BANDS].median_pct);
        }
        for (size_t r = 0; r < n_rows; r++)
            if (rows[r].violation)
                fprintf(rep,
                        "# VIOLATION %s: measured %.3f us is below the bound %.3f us (left out "
                        "of the fit)\n",
                        rows[r].source, rows[r].measured_s * 1e6, rows[r].bound_s * 1e6);
        if (violations)
            fprintf(rep, "# %d bound violation(s): a measured time below the least possible one\n",
                    violations);
    }
    free(held);
    free(lb);
    free(la);
    if (violations)
        rc = CLI_IMPOSSIBLE;
out:
    free(lolo);
    free(src);
    free(before);
    free(after);
    free(cross);
    for (int u = 0; u < n_units; u++)
        free(units[u].label);
    free(units);
    free(log_coll);
    free(in_fit);
    free(one);
    free(log_rows);
    free(log_why);
    cr_cnf_free(f);
    cr_vmeas_list_release(&l);
    cr_topo_free(t);
    return rc;
}

/* A calibrated figure, or null where nothing measured it (0). */
static json_t *measured_json(double v)
{
    return v > 0 ? cr_json_real(v) : json_null();
}

/* A folder given to --from-traces is read whole: an existing -o file in it
 * is one of the traces read (or a file left out), and writing would
 * replace it. */
static int out_inside_inputs(const char *const *inputs, int n, const char *out_path)
{
    struct stat so, sp;
    if (stat(out_path, &so) != 0)
        return 0;
    char *dir = strdup(out_path);
    if (!dir)
        return cli_fail("calibrate", "out of memory");
    char *slash = strrchr(dir, '/');
    const char *parent = ".";
    if (slash == dir) {
        parent = "/";
    } else if (slash) {
        *slash = '\0';
        parent = dir;
    }
    int rc = 0;
    for (int i = 0; i < n && !rc && stat(parent, &sp) == 0; i++) {
        struct stat si;
        if (stat(inputs[i], &si) == 0 && S_ISDIR(si.st_mode) && si.st_dev == sp.st_dev &&
            si.st_ino == sp.st_ino)
            rc = cli_usage_error("calibrate",
                                 "-o %s is in the folder %s given as input: the output would "
                                 "replace one of its files; write it elsewhere",
                                 out_path, inputs[i]);
    }
    free(dir);
    return rc;
}

int cli_cmd_calibrate(int argc, char **argv)
{
    const char *topo_name = NULL, *out_path = NULL, *fit_coll = NULL, *ranks = NULL;
    nccl_run run = {0};
    cli_log_colls colls = {0};
    bool json = false, quick = false, from = false, nccl = false;
    int rc = CLI_OK;
    const char **inputs = calloc((size_t)argc, sizeof *inputs);
    int n_in = 0;
    cr_topo *t = NULL;
    cr_vmeas_list l = {0};
    char tmpdir[] = "/tmp/commroof-calibrate-XXXXXX";
    int made_tmp = 0;
    if (!inputs)
        return cli_fail("calibrate", "out of memory");
    if ((rc = cli_log_colls_init(&colls, "calibrate", argc)) != CLI_OK) {
        free(inputs);
        return rc;
    }
    /* section 1: measuring this GPU; section 2: fitting nccl-tests logs */
    enum { O_HELP = 1, O_COLL };
    const cli_opt opts[] = {
        /* listed in both sections: each mode reads it (this row parses) */
        {"--topo", NULL, "BASE",
         "the topology written with the measured ceilings\n"
         "(default hgx-h200-8; give the one of this machine)",
         .str = &topo_name, .section = 1},
        {"--from-traces", NULL, NULL,
         "use traces of an earlier kernels/ sweep (files or\n"
         "folders; .json or .json.gz; every rank's trace of a\n"
         "one-process-per-GPU run, combined) instead of running\n"
         "the kernels",
         .label = "--from-traces TRACE...", .flag = &from, .section = 1, .opens_list = true},
        {"--quick", NULL, NULL, "fewer sizes when running the kernels", .flag = &quick,
         .section = 1},
        {"-o", NULL, "OUT.xml", "where to write (default: stdout)", .str = &out_path, .section = 1,
         .output = true},
        {"--json", NULL, NULL,
         "print the measured figures as JSON (the XML still goes\n"
         "to -o when given)",
         .flag = &json, .section = 1},
        {"--topo", NULL, "BASE", "the machine's topology (required)", .section = 2},
        {"--coll", NULL, "NAME",
         "collective of logs that lack their \"Collective test\n"
         "starting\" line (all_reduce or allreduce alike); given\n"
         "more than once, each names the log before it",
         .id = O_COLL, .repeat = true, .section = 2},
        {"--fit-coll", NULL, "NAME", "fit (and write) on the logs of collective NAME only",
         .str = &fit_coll, .section = 2},
        {"--ranks", NULL, "SPEC", "GPUs of BASE the logs ran on (default: the first n)",
         .str = &ranks, .section = 2},
        {"--nccl-version", NULL, "V",
         "the NCCL release (2.23.4) of logs that print none\n"
         "(default: the model's, 2.28.9)",
         .str = &run.version, .section = 2},
        {"--nccl-algo", NULL, "LIST",
         "the runs' NCCL_ALGO (Ring, ^NVLS, allreduce:tree;...),\n"
         "which logs do not print",
         .str = &run.algo, .section = 2},
        {"--nccl-proto", NULL, "LIST", "the runs' NCCL_PROTO (Simple, ^LL128), likewise",
         .str = &run.proto, .section = 2},
        {"--ranks-per-process", NULL, "N",
         "GPUs one host thread drove (nccl-tests -g N) in logs\n"
         "without their \"# nThread\" line; before rank lines sharing\n"
         "a Pid (read as -g, or 1 with neither)",
         .str = &run.rpp, .section = 2},
        {"-o", NULL, "OUT.xml", "where to write (default: stdout, the report on stderr)",
         .section = 2},
        {"--json", NULL, NULL, "the fit and the cross-check as JSON", .section = 2},
        {"--nccl-tests", NULL, NULL, NULL, .flag = &nccl, .opens_list = true},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = O_HELP},
        {0}};
    cli_args args = cli_args_begin("calibrate", opts, argc, argv);
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        if (r == CLI_ARGS_ERROR) {
            rc = CLI_USAGE;
            goto out;
        }
        if (r == CLI_ARGS_OPT && args.opt->id == O_HELP) {
            fputs(calibrate_help_head, stdout);
            cli_opts_help(stdout, opts, 26, 1);
            fputs(calibrate_help_mid, stdout);
            cli_opts_help(stdout, opts, 26, 2);
            fputs(calibrate_help_tail, stdout);
            goto out;
        }
        if (r == CLI_ARGS_OPT && args.opt->id == O_COLL) {
            if ((rc = cli_log_colls_add(&colls, "calibrate", args.val, n_in)) != CLI_OK)
                goto out;
            continue;
        }
        if (r == CLI_ARGS_OPT && args.opt->opens_list && args.val) {
            inputs[n_in++] = args.val; /* --nccl-tests=LOG: the list's first */
            continue;
        }
        if (r != CLI_ARGS_ARG)
            continue;
        if (!from && !nccl) {
            rc = cli_usage_error("calibrate",
                                 "unexpected argument \"%s\" (traces go after --from-traces, logs "
                                 "after --nccl-tests)",
                                 args.val);
            goto out;
        }
        inputs[n_in++] = args.val;
    }
    if (from && nccl) {
        rc = cli_usage_error("calibrate", "--from-traces and --nccl-tests calibrate different "
                                          "things: give one of them");
        goto out;
    }
    if ((from || nccl) && quick) {
        rc = cli_usage_error("calibrate",
                             "--quick shortens the kernels calibrate runs itself: "
                             "it does nothing with %s",
                             from ? "--from-traces" : "--nccl-tests");
        goto out;
    }
    if (!nccl &&
        (colls.n || fit_coll || ranks || run.version || run.algo || run.proto || run.rpp)) {
        rc = cli_usage_error("calibrate", "--coll, --fit-coll, --ranks, --ranks-per-process and "
                                          "--nccl-* go with --nccl-tests");
        goto out;
    }
    if (nccl) {
        if (n_in == 0)
            rc = cli_usage_error("calibrate", "--nccl-tests needs at least one nccl-tests log");
        else if (!topo_name)
            rc = cli_usage_error("calibrate",
                                 "--nccl-tests needs --topo BASE: the topology of the machine "
                                 "the logs were measured on (validate/corpus/topologies.txt "
                                 "lists some)");
        else if ((rc = cli_log_colls_check(&colls, "calibrate")) == CLI_OK)
            rc = calibrate_nccl(inputs, n_in, &colls, fit_coll, ranks, run, topo_name, out_path,
                                json);
        goto out;
    }
    if (from && n_in == 0) {
        rc = cli_usage_error("calibrate", "--from-traces needs at least one trace or folder");
        goto out;
    }
    /* -o naming a trace given (or a file in a folder given) would replace
     * it with the topology: refused before anything is read */
    if (from && ((rc = cli_check_distinct_inputs("calibrate", "trace", inputs, n_in)) ||
                 (out_path && (rc = out_inside_inputs(inputs, n_in, out_path)))))
        goto out;
    t = cli_open_topo("calibrate", topo_name);
    if (!t) {
        rc = CLI_FAIL;
        goto out;
    }
    if (!from) {
        if (!mkdtemp(tmpdir)) {
            rc = cli_fail("calibrate", "cannot create a temporary folder: %s", strerror(errno));
            goto out;
        }
        made_tmp = 1;
        if (cli_progress_enabled())
            fprintf(stderr, "calibrate: running the kernels (a minute or two)...\n");
        if ((rc = run_kernels(tmpdir, quick)) != CLI_OK)
            goto out;
        inputs[n_in++] = tmpdir;
    }
    cr_vread_info ri = {0};
    cli_gpu_seen gs = {0};
    for (int i = 0; i < n_in; i++) {
        cr_diag d = {{0}};
        size_t before = l.n;
        cr_status st = cr_validate_read_path(inputs[i], &l, &ri, &d);
        if (st != CR_OK) {
            rc = cli_fail_status("calibrate", st, d.msg);
            goto out;
        }
        /* measured ceilings of another GPU written into the base's model
         * would be a topology of neither machine */
        if ((rc = cli_check_trace_gpus("calibrate", t, inputs[i], &l, before, false, &gs)) !=
            CLI_OK)
            goto out;
    }
    if (ri.not_traces)
        fprintf(stderr,
                "commroof calibrate: note: %d file(s) of the folder(s) given are not traces and "
                "were left out; first: %s\n",
                ri.not_traces, ri.not_trace_why);
    if (ri.incomplete)
        fprintf(stderr,
                "commroof calibrate: note: %d trace file(s) end before their closing bracket "
                "(the traced process was killed, or the file was cut): first %s; a case near the "
                "cut may lack activities and be skipped\n",
                ri.incomplete, ri.incomplete_path);
    if (ri.unrecorded) {
        char note[640];
        fprintf(stderr, "commroof calibrate: note: %s\n",
                cli_unrecorded_note(&ri, note, sizeof note));
    }
    /* One process per GPU (torchrun, mpirun): one trace per rank; combine
     * each case's ranks as validate does before taking figures from it. */
    {
        cr_vmerge_info mi = {0};
        cr_diag d = {{0}};
        if (cr_validate_merge_ranks(&l, &mi, &d) != CR_OK) {
            rc = cli_fail("calibrate", "%s", d.msg);
            goto out;
        }
    }
    cr_vcalib cal;
    cr_validate_calibrate(&l, &cal);
    if (cal.n_used == 0) {
        size_t n_other = 0;
        for (size_t i = 0; i < l.n; i++)
            n_other += l.v[i].c.family == CR_VFAM_NCCL || l.v[i].c.family == CR_VFAM_FUSED;
        rc =
            cli_fail("calibrate",
                     "the input holds no calibration cases (hbm, ce, mech, gemm, launch or p2p "
                     "ranges from kernels/crbench)%s",
                     n_other ? "; its nccl and fused cases calibrate nothing: NCCL's constants are "
                               "coll's (model/params.c), validate checks them"
                             : "");
        goto out;
    }
    /* the source names what was read: the traces given (the first few), or
     * the kernels run here */
    char src[512];
    int used = snprintf(src, sizeof src, "commroof calibrate: %d measured cases (%s", cal.n_used,
                        from ? "from traces " : "kernels/crbench on this machine");
    for (int i = 0; from && i < n_in && used > 0 && (size_t)used < sizeof src; i++)
        used += snprintf(src + used, sizeof src - (size_t)used, "%s%s", i ? ", " : "",
                         i < 4 ? inputs[i] : "...");
    if (used > 0 && (size_t)used < sizeof src)
        cr_str_copy(src + used, sizeof src - (size_t)used, ")");
    /* the base as it was, to tell whether the calibration changed it */
    char *base_xml = NULL, *cal_xml = NULL;
    size_t base_len = 0, cal_len = 0;
    {
        cr_diag d = {{0}};
        if (cr_topo_xml_save_memory(t, &base_xml, &base_len, &d) != CR_OK) {
            rc = cli_fail("calibrate", "%s", d.msg);
            goto out;
        }
        cr_status st = cr_validate_apply_calibration(t, &cal, src);
        if (st == CR_OK)
            st = cr_topo_xml_save_memory(t, &cal_xml, &cal_len, &d);
        bool same = st == CR_OK && cal_len == base_len && !memcmp(cal_xml, base_xml, base_len);
        free(base_xml);
        free(cal_xml);
        if (st != CR_OK) {
            rc = cli_fail("calibrate", "out of memory");
            goto out;
        }
        /* cases read that gave no figure (a sweep cut short, sizes too small
         * to measure a ceiling): the output is the base, not passed off as a
         * calibration (QA audit, 2026-12-07: an empty figure table, exit 0) */
        bool p2p_unwritten =
            t->n_gpus < 2 && (cal.p2p_Bps[0] > 0 || cal.p2p_Bps[1] > 0 || cal.p2p_Bps[2] > 0);
        if (p2p_unwritten)
            fprintf(stderr,
                    "commroof calibrate: note: the copies between GPUs (p2p ranges) set the "
                    "mechanisms of a peer copy, mech.*, and %s has one GPU: they are shown, not "
                    "written; give a base of two or more GPUs (--topo)\n",
                    t->name);
        if (same)
            fprintf(stderr,
                    "commroof calibrate: note: nothing was calibrated: the %d case(s) read give "
                    "no figure that %s takes (%s); %s holds the base's figures\n",
                    cal.n_used, t->name,
                    p2p_unwritten ? "the p2p figures above need two GPUs"
                                  : "too few sizes of a family, or a sweep cut short",
                    out_path ? out_path : "the output");
    }
    cr_diag d = {{0}};
    if (out_path) {
        if (cr_topo_xml_save_file(t, out_path, &d) != CR_OK) {
            rc = cli_fail("calibrate", "%s", d.msg);
            goto out;
        }
    }
    if (json) {
        json_t *o = json_object(), *fl = json_object();
        json_object_set_new(o, "topology", json_string(t->name));
        json_object_set_new(o, "cases_used", json_integer(cal.n_used));
        json_object_set_new(o, "hbm_Bps", json_real(cal.hbm_Bps));
        json_object_set_new(o, "l2_Bps", json_real(cal.l2_Bps));
        for (int dt = 0; dt < CR_DT__COUNT; dt++)
            if (cal.flops[dt] > 0)
                json_object_set_new(fl, cr_dtype_name((cr_dtype)dt), measured_json(cal.flops[dt]));
        json_object_set_new(o, "flops", fl);
        json_object_set_new(o, "h2d_pinned_Bps", json_real(cal.h2d_pinned_Bps));
        json_object_set_new(o, "d2h_pinned_Bps", json_real(cal.d2h_pinned_Bps));
        json_object_set_new(o, "h2d_pageable_Bps", json_real(cal.h2d_pageable_Bps));
        json_object_set_new(o, "d2h_pageable_Bps", json_real(cal.d2h_pageable_Bps));
        json_object_set_new(o, "launch_us", measured_json(cal.launch_s * 1e6));
        json_object_set_new(o, "sync_us", measured_json(cal.sync_s * 1e6));
        json_object_set_new(o, "graph_us", measured_json(cal.graph_s * 1e6));
        json_object_set_new(o, "event_us", measured_json(cal.event_s * 1e6));
        json_object_set_new(o, "kernel_us", measured_json(cal.kernel_s * 1e6));
        json_object_set_new(o, "kernel_fixed_us", measured_json(cal.kernel_fixed_s * 1e6));
        json_object_set_new(o, "hbm_read_Bps", json_real(cal.hbm_rd_Bps));
        json_object_set_new(o, "hbm_write_Bps", json_real(cal.hbm_wr_Bps));
        json_object_set_new(o, "hbm_copy_Bps", json_real(cal.hbm_copy_Bps));
        json_object_set_new(o, "ce_d2d_Bps", json_real(cal.ce_d2d_Bps));
        json_object_set_new(o, "gemm_mem_Bps", json_real(cal.gemm_mem_Bps));
        json_object_set_new(o, "ldst_sm_Bps", json_real(cal.ldst_sm_Bps));
        json_object_set_new(o, "tma_sm_Bps", json_real(cal.tma_sm_Bps));
        static const char *const mn[3] = {"ce", "tma", "ldst"};
        for (int mk = 0; mk < 3; mk++) {
            if (!(cal.p2p_Bps[mk] > 0))
                continue;
            char k[48];
            snprintf(k, sizeof k, "p2p_%s_Bps", mn[mk]);
            json_object_set_new(o, k, json_real(cal.p2p_Bps[mk]));
            snprintf(k, sizeof k, "p2p_%s_1sm_Bps", mn[mk]);
            json_object_set_new(o, k, json_real(cal.p2p_sm1_Bps[mk]));
            snprintf(k, sizeof k, "p2p_%s_small_us", mn[mk]);
            json_object_set_new(o, k, measured_json(cal.p2p_small_s[mk] * 1e6));
        }
        if (out_path)
            json_object_set_new(o, "output", json_string(out_path));
        int bad = cli_json_fputs(o, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0;
        json_decref(o);
        if (bad) {
            rc = cli_fail("calibrate",
                          "cannot write JSON to stdout (out of memory, or stdout refused it)");
            goto out;
        }
        fputc('\n', stdout);
    } else if (out_path) {
        const cr_gpu_spec *g = cr_topo_gpu_spec(t, 0);
        printf("# commroof calibrate: %d cases -> %s\n", cal.n_used, out_path);
        printf("# %-20s %14s %14s\n", "figure", "measured", "peak");
        if (cal.hbm_Bps > 0)
            printf("  %-20s %11.1f GB/s %9.1f GB/s\n", "hbm", cal.hbm_Bps / 1e9,
                   g ? g->hbm_Bps / 1e9 : 0);
        if (cal.l2_Bps > 0)
            printf("  %-20s %11.1f GB/s %9.1f GB/s\n", "l2", cal.l2_Bps / 1e9,
                   g ? g->l2_Bps / 1e9 : 0);
        for (int dt = 0; dt < CR_DT__COUNT; dt++)
            if (cal.flops[dt] > 0)
                printf("  %-20s %8.1f TFLOP/s %6.1f TFLOP/s\n", cr_dtype_name((cr_dtype)dt),
                       cal.flops[dt] / 1e12, g ? g->peak_flops[dt] / 1e12 : 0);
        /* Only the figures the input measured (a p2p trace has no HBM case). */
        const struct {
            const char *name;
            double v, scale;
            const char *unit;
        } rows[] = {{"h2d pinned", cal.h2d_pinned_Bps, 1e-9, "GB/s"},
                    {"d2h pinned", cal.d2h_pinned_Bps, 1e-9, "GB/s"},
                    {"h2d pageable", cal.h2d_pageable_Bps, 1e-9, "GB/s"},
                    {"d2h pageable", cal.d2h_pageable_Bps, 1e-9, "GB/s"},
                    {"launch", cal.launch_s, 1e6, "us"},
                    {"launch+sync", cal.sync_s, 1e6, "us"},
                    {"graph kernel", cal.graph_s, 1e6, "us"},
                    {"event sync", cal.event_s, 1e6, "us"},
                    {"kernel fixed", cal.kernel_fixed_s, 1e6, "us"},
                    {"hbm read", cal.hbm_rd_Bps, 1e-9, "GB/s"},
                    {"hbm write", cal.hbm_wr_Bps, 1e-9, "GB/s"},
                    {"hbm copy", cal.hbm_copy_Bps, 1e-9, "GB/s"},
                    {"ce d2d", cal.ce_d2d_Bps, 1e-9, "GB/s"},
                    {"gemm memory-bound", cal.gemm_mem_Bps, 1e-9, "GB/s"},
                    {"ldst per SM", cal.ldst_sm_Bps, 1e-9, "GB/s"},
                    {"tma per SM", cal.tma_sm_Bps, 1e-9, "GB/s"}};
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            if (rows[i].v > 0)
                printf("  %-20s %14.2f %s\n", rows[i].name, rows[i].v * rows[i].scale,
                       rows[i].unit);
        static const char *const mn[3] = {"ce", "tma", "ldst"};
        for (int mk = 0; mk < 3; mk++)
            if (cal.p2p_Bps[mk] > 0) {
                char sm1[40] = "no SMs (copy engine)";
                if (cal.p2p_sm1_Bps[mk] > 0)
                    snprintf(sm1, sizeof sm1, "1 SM %.1f GB/s", cal.p2p_sm1_Bps[mk] / 1e9);
                printf("  p2p %-16s %11.1f GB/s, %s, %.0f B in %.2f us\n", mn[mk],
                       cal.p2p_Bps[mk] / 1e9, sm1, cal.p2p_small_bytes[mk],
                       cal.p2p_small_s[mk] * 1e6);
            }
    } else {
        char *buf = NULL;
        size_t len = 0;
        if (cr_topo_xml_save_memory(t, &buf, &len, &d) != CR_OK) {
            rc = cli_fail("calibrate", "%s", d.msg);
            goto out;
        }
        fwrite(buf, 1, len, stdout);
        free(buf);
    }
out:
    if (made_tmp) {
        DIR *dp = opendir(tmpdir);
        if (dp) {
            struct dirent *e;
            while ((e = readdir(dp))) {
                if (e->d_name[0] == '.')
                    continue;
                char f[PATH_MAX];
                snprintf(f, sizeof f, "%s/%s", tmpdir, e->d_name);
                unlink(f);
            }
            closedir(dp);
        }
        rmdir(tmpdir);
    }
    cr_vmeas_list_release(&l);
    cr_topo_free(t);
    free(inputs);
    cli_log_colls_free(&colls);
    return rc;
}
