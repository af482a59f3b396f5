/* SPDX-License-Identifier: MIT */
/*
 * validate: what the two nccl-tests readers share, the text log's
 * (nccl_log.c) and the JSON file's that nccl-tests -J writes
 * (nccl_json.c): the rows and tables they collect and the rules both read
 * them by; nccl_log.c's cr_validate_read_nccl_tests_stream picks the
 * reader and turns the rows into measurements.
 * Nothing outside validate/ includes this.
 */
#ifndef CR_NCCL_LOG_PRIV_H
#define CR_NCCL_LOG_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "validate.h"

#pragma GCC visibility push(hidden)

/* One result row, kept until its table is whole. line: the log line, or
 * for a JSON file the row's index in its "results" array. */
typedef struct {
    int line;
    int table;
    double bytes, t_us;
    char dtype[16];
    bool has_ratio; /* busbw/algbw in [r_lo, r_hi] */
    double r_lo, r_hi;
    bool in_place; /* the time is the in-place one (a JSON row without out-of-place,
                      a table of rccl-tests -O 0) */
    long wrong;    /* elements nccl-tests' check found wrong (#wrong); 0: none or unchecked */
} nt_row;

/* Rows of one run (rank lines) and collective under one header. */
typedef struct {
    const char *coll, *coll_src;
    int rank_lines;       /* max rank + 1 of the run's "#  Rank" lines; 0: none */
    bool rank_list_whole; /* a line for every rank below that (not an excerpt) */
    int gpus_per_thread;  /* GPUs one nccl-tests thread drives (nGpus, or rank lines
                             sharing a Pid, or the caller's); 1 when unsaid */
    bool layout_unsaid;   /* neither the log nor the caller said gpus_per_thread */
    int first_line;
    int nranks;
    int loop_ops;                     /* operations per timed loop (iters x agg iters), 0: unsaid */
    int nccl_version;                 /* the log's NCCL release (NCCL_VERSION_CODE), 0: unsaid */
    unsigned nccl_algos, nccl_protos; /* the run's NCCL_ALGO / NCCL_PROTO for its
                                         collective (cr_nccl_select_parse); 0: unsaid */
    const char *nranks_src;
    bool blocking; /* the run waited on each operation ("# Blocking Enabled", -z 1) */
    char note[112];
    char gpu[48]; /* the device its first rank line names ("NVIDIA H100 80GB HBM3"), "" */
} nt_table;

typedef struct {
    const char *path;
    const cr_nccl_log_opts *o;
    bool json;        /* rows are "results" items of an nccl-tests JSON file */
    int lines_before; /* blank lines passed over before the first text (line numbers) */
    nt_row *rows;
    size_t n_rows, cap_rows;
    nt_table *tabs;
    size_t n_tabs, cap_tabs;
} nt_reader;

/* A new row of R (zeroed, its line / item `at` set) in *row. CR_ERANGE
 * past CR_NCCL_LOG_MAX_ROWS rows (validate.h), CR_ENOMEM; d says which. */
cr_status cr_ntlog_add_row(nt_reader *R, int at, nt_row **row, cr_diag *d);

/* Whether `bytes` over a time in [t_lo, t_hi] us agrees with an algbw in
 * [a_lo, a_hi] GB/s, the spans being the printed figures with their
 * rounding: nccl-tests computes algbw = size / time from one measurement,
 * so a row read at the wrong columns, or with a mistyped size or time,
 * disagrees. True where t_lo is 0 (too rough to tell). */
bool cr_ntlog_algbw_agrees(double bytes, double t_lo, double t_hi, double a_lo, double a_hi);

/* Sets r's busbw/algbw span (the rank count's evidence) from the printed
 * algbw and busbw spans; none where a_lo is 0. */
void cr_ntlog_set_ratio(nt_row *r, double a_lo, double a_hi, double b_lo, double b_hi);

/* The collective named in s ("all_reduce_perf", or a path or file name
 * holding it): commroof's name, or NULL. */
const char *cr_ntlog_coll_in(const char *s);

/* commroof's element type for an nccl-tests type name ("float" -> "fp32"),
 * or NULL for one the model has no type for. */
const char *cr_ntlog_dtype(const char *type);

/* Sets T's collective by the readers' one precedence: the file's own
 * (own: a log's "Collective test starting" line, a JSON file's "args"),
 * else --coll (opt), else the file name's (file); T->coll_src says which
 * ("log", "--coll", "file name"). CR_OK; CR_EINVAL when own and opt
 * differ, CR_ENOTFOUND when none names one (the caller says so, naming
 * what its format has). */
cr_status cr_ntlog_pick_coll(const char *own, const char *opt, const char *file, nt_table *T);

/* Where row or table position `at` is, for messages: "path:12" for a log
 * line, "path: results[3]" for a JSON file's item. */
const char *cr_ntlog_at(const nt_reader *R, int at, char *buf, size_t n);

/* Reads the JSON file nccl-tests -J writes (its "results", "config",
 * "devices", "args" and "nccl_version") from f into R's one table;
 * opt_coll: --coll's collective or NULL. Errors as the text reader's, each
 * naming the file and the member or result item. */
cr_status cr_ntlog_read_json(FILE *f, nt_reader *R, const char *opt_coll, cr_diag *d);

#pragma GCC visibility pop

#endif
