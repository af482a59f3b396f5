/* SPDX-License-Identifier: MIT */
/*
 * ParallelKernelBench's per-rank timings (togethercomputer/
 * ParallelKernelBench at 3cc0f9b): a run with --measure-perf writes one
 * rank_<r>_perf.json per rank (utils/performance.py,
 * measure_solution_performance: "wall_time_ms" the mean per-iteration time,
 * "wall_time_std_ms", "min_time_ms", "max_time_ms", ...) under
 * logs/problem_<stem>/<backend>/ (utils/problem_id.py: stem "1_allreduce",
 * backend "reference", "cuda", "triton"; a backend is a folder holding
 * rank_*_perf.json, list_problem_log_backends). PKB's time for a problem is
 * the slowest rank's mean, max over ranks of wall_time_ms
 * (utils/compare_performance.py, aggregate_metrics and compare_performance);
 * this reader takes the same. `commroof check --pkb-logs` evaluates it.
 */
#ifndef CR_PKB_LOGS_H
#define CR_PKB_LOGS_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most ranks one backend folder may hold (rank numbers 0 .. 1023). */
#define CR_PKB_LOGS_MAX_RANKS 1024

/* One backend folder's timings. */
typedef struct {
    int n_files;      /* rank_<r>_perf.json files read */
    int n_ranks;      /* the highest rank read + 1 */
    int n_missing;    /* ranks of 0 .. n_ranks - 1 without a file */
    int slowest_rank; /* the rank whose wall_time_ms is the largest (the lowest such rank) */
    double wall_s;    /* max over the ranks of wall_time_ms, in seconds */
    unsigned char present[CR_PKB_LOGS_MAX_RANKS]; /* 1 for each rank read */
} cr_pkb_logs_times;

/* Reads every rank_<r>_perf.json of folder dir (other files and folders are
 * ignored: rank_<r>.pt, traces/) into out. Each file must be a JSON object
 * (jansson, duplicate keys refused) whose "wall_time_ms" is a number of
 * milliseconds, finite, above zero and within what check takes
 * (cr_harness_measured_ok); "min_time_ms" and "max_time_ms", where present,
 * finite and above zero, "wall_time_std_ms" finite and not negative.
 * Errors, d reading "file:line: what is wrong, what would be right":
 * CR_EPARSE (not JSON: jansson's line and column; a value as above),
 * CR_ENOTFOUND (dir missing, or no rank file in it), CR_ERANGE (a rank
 * number of CR_PKB_LOGS_MAX_RANKS or more, a file over 1 MiB),
 * CR_EDUPLICATE (one rank in two files, rank_7 and rank_07), CR_EIO,
 * CR_ENOMEM. */
cr_status cr_pkb_logs_read_backend(const char *dir, cr_pkb_logs_times *out, cr_diag *d);

/* One (problem, backend) of a logs tree. */
typedef struct {
    char *stem;    /* "1_allreduce": the problem folder's name less "problem_" */
    int id;        /* the stem's leading number, as PKB takes it; -1 when it has none */
    char *backend; /* "cuda": the backend folder's name */
    char *dir;     /* the backend folder's path */
    cr_pkb_logs_times times;
} cr_pkb_logs_run;

/* Reads the timings under dir, one of: a backend folder (it holds
 * rank_*_perf.json; its parent must be named problem_<stem>), a problem
 * folder (named problem_<stem>: each subfolder holding rank_*_perf.json is a
 * backend), or PKB's logs folder (each problem_<stem> subfolder as above;
 * one without a backend is passed over). On success *out is a new array of
 * *n runs (at least one), ordered by id, stem and backend; free it with
 * cr_pkb_logs_free(*out, *n). Errors: those of cr_pkb_logs_read_backend for
 * the first file that fails, whatever the other files hold; CR_ENOTFOUND
 * when dir holds no backend at all, CR_EINVAL when a backend folder's
 * parent is not a problem_<stem> folder. */
cr_status cr_pkb_logs_scan(const char *dir, cr_pkb_logs_run **out, int *n, cr_diag *d);

/* Frees runs, an array of n from cr_pkb_logs_scan; NULL is a no-op. */
void cr_pkb_logs_free(cr_pkb_logs_run *runs, int n);

#ifdef __cplusplus
}
#endif

#endif
