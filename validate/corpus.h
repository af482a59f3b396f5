/* SPDX-License-Identifier: MIT */
/*
 * The measurement corpus (validate/corpus/, issue 14): public nccl-tests
 * logs in one folder per system, each system (or log) mapped to the
 * topology and rank set it is compared against, and a fixed split of the
 * logs into a fitting half and a checking half.
 *
 * A corpus folder holds
 *
 *   topologies.txt  FOLDER[/FILE]  TOPOLOGY [--ranks SPEC]   # note
 *                   FOLDER[/FILE]  none                      # why nothing fits
 *                   TOPOLOGY: a shipped name, or a file (it contains '/' or
 *                   ends in ".xml") relative to the corpus folder; a line for
 *                   FOLDER/FILE wins over its folder's line
 *   split.txt       fit|check  FOLDER/FILE                   # comment
 *   FOLDER/FILE     the logs
 *
 * cr_corpus_eval() reads every log of the split with the nccl-tests reader
 * (cr_validate_read_nccl_tests) and evaluates each row with the evaluation
 * `commroof validate` uses (cr_validate_eval): the same numbers as
 * `commroof validate --nccl-tests LOG --topo T --ranks SPEC` per log.
 * cr_corpus_stats() gives the figures per half, system and size band; this is
 * the one implementation of them (`commroof validate --corpus`, the report's
 * "Measurement corpus" part and tools/corpus_eval.py all read it).
 */
#ifndef CR_CORPUS_H
#define CR_CORPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The two halves of the split; they are always reported separately. */
typedef enum { CR_CORPUS_FIT, CR_CORPUS_CHECK, CR_CORPUS__HALVES } cr_corpus_half;

/* "fit", "check"; "?" out of range. */
const char *cr_corpus_half_name(cr_corpus_half h);

/* Message size bands: up to 1 MiB, above 1 MiB up to 64 MiB, above 64 MiB;
 * CR_CORPUS_BAND_ALL: every size. */
enum { CR_CORPUS_BAND_SMALL, CR_CORPUS_BAND_MID, CR_CORPUS_BAND_LARGE, CR_CORPUS_BAND_ALL };
#define CR_CORPUS_BANDS 3

/* "<=1MiB", "1-64MiB", ">64MiB", "all" (the names tools/corpus_eval.py
 * prints); "?" out of range. */
const char *cr_corpus_band_name(int band);

/* The band of a message of bytes bytes. */
int cr_corpus_band_of(double bytes);

/* What became of one log of the split. */
typedef enum {
    CR_CORPUS_LOG_OK,       /* read and evaluated */
    CR_CORPUS_LOG_NO_TOPO,  /* topologies.txt maps it to "none" (why: its note) */
    CR_CORPUS_LOG_NOT_READ, /* the reader or the evaluation refused it (why: their message) */
} cr_corpus_log_status;

typedef struct {
    char path[256];  /* relative to the corpus folder: "h100-8/x_perf.log" */
    char system[64]; /* its folder */
    cr_corpus_half half;
    char topo[256];  /* the topology as topologies.txt names it; "none" */
    char ranks[128]; /* --ranks SPEC of its line, "" for none */
    cr_corpus_log_status status;
    char why[1024];
    int rows; /* rows it contributed */
} cr_corpus_log;

/* One result row of a log: an NCCL case with a message size above 0 (a
 * 0-byte row moves nothing: there is no prediction to judge). */
typedef struct {
    int log; /* index into cr_corpus.logs */
    cr_corpus_half half;
    double bytes;
    double measured_s;
    bool has_pred, has_bound, violation;
    double pred_s, bound_s;
    double error_pct; /* (pred - measured) / measured x 100 when has_pred */
} cr_corpus_row;

/* A corpus read and evaluated. Release with cr_corpus_release(). */
typedef struct {
    cr_corpus_log *logs; /* in split.txt order */
    int n_logs;
    cr_corpus_row *rows;
    size_t n_rows;
    char **systems; /* every folder of the split, sorted (strcmp) */
    int n_systems;
} cr_corpus;

/* Options of cr_corpus_eval. Zero-initialised: both halves, no parameter. */
typedef struct {
    /* Model parameters set on every topology before the evaluation
     * (cr_topo_set_param; what fitting scripts vary). */
    const char *const *param_keys;
    const double *param_values;
    int n_params;
    /* Only logs of this half; -1 (or any value out of range) for both. */
    int half;
} cr_corpus_opts;

/* Reads the corpus folder dir (topologies.txt, split.txt and the logs) and
 * evaluates every log of the split on its topology and rank set. A log the
 * reader or the evaluation refuses is not an error: it is listed with its
 * status and reason. Errors: CR_EIO (a file cannot be read; a log the split
 * names does not exist), CR_EPARSE ("dir/topologies.txt:LINE: ..." or
 * "dir/split.txt:LINE: ...": a malformed line, an unknown half, a duplicate
 * entry, a log without a topologies.txt line, a rank set the topology does
 * not have), CR_ENOTFOUND (dir or its topologies.txt missing; a topology
 * that is not shipped or cannot be opened: the message names the
 * topologies.txt line), CR_ENOMEM; o may be
 * NULL. On error *out is empty. */
cr_status cr_corpus_eval(const char *dir, const cr_corpus_opts *o, cr_corpus *out, cr_diag *d);

/* Frees what c holds; a zeroed or released corpus is a no-op. */
void cr_corpus_release(cr_corpus *c);

/* Figures of a set of rows. */
typedef struct {
    int logs;      /* logs compared (status OK) with rows in the set's half and system */
    int rows;      /* rows */
    int predicted; /* rows with a prediction */
    double median_abs_err_pct; /* of |error_pct| over the predicted rows; NAN when none */
    double p90_abs_err_pct;    /* the same, 90th percentile */
    int violations;            /* measured below the bound */
} cr_corpus_stats;

/* The figures of the rows of half h, of system (NULL: every system) in band
 * (CR_CORPUS_BAND_ALL: every size). Percentiles interpolate linearly between
 * the sorted values (position q (n - 1)). Errors: CR_ENOMEM. */
cr_status cr_corpus_stats_of(const cr_corpus *c, cr_corpus_half h, const char *system, int band,
                             cr_corpus_stats *out);

/* The percentile q in [0, 1] of v[0..n) (which this sorts), linear between
 * neighbours at position q (n - 1); NAN when n = 0. */
double cr_corpus_percentile(double *v, size_t n, double q);

/* A gate line (the corpus's gate.txt, tests/check_corpus.sh): the median
 * or p90 |error| of one half's rows in one band must not exceed limit_pct.
 * target_pct is the figure aimed at (issue 14: 10 median, 25 p90), printed
 * beside the limit; the limits hold what the model reaches today so that it
 * cannot get worse unnoticed, and come down as it gets better. */
typedef struct {
    cr_corpus_half half;
    int band;                     /* CR_CORPUS_BAND_* */
    bool p90;                     /* else the median */
    bool by_system;               /* of the systems' own medians (every system alike), not of
                                     the rows */
    double limit_pct, target_pct; /* target_pct NAN when the line gives none */
    int line;                     /* in the gate file */
    double got_pct;               /* cr_corpus_gate_eval: the figure (NAN: no row) */
    bool pass;                    /* cr_corpus_gate_eval: got_pct <= limit_pct */
} cr_corpus_gate;

/* Reads a gate file: lines "fit|check BAND STAT LIMIT_PCT [target PCT]"
 * (BAND: <=1MiB, 1-64MiB, >64MiB, all; STAT: median or p90 of the rows'
 * |error|, systems-median or systems-p90 of the systems' own medians; '#'
 * starts a comment). *out
 * (free() it) holds *n lines. Errors: CR_EIO, CR_EPARSE ("path:LINE: ..."),
 * CR_ENOMEM. */
cr_status cr_corpus_gate_read(const char *path, cr_corpus_gate **out, int *n, cr_diag *d);

/* Fills got_pct and pass of the n gates from c (all systems of each gate's
 * half; a band without a predicted row does not pass). Errors: CR_ENOMEM. */
cr_status cr_corpus_gate_eval(const cr_corpus *c, cr_corpus_gate *g, int n);

#ifdef __cplusplus
}
#endif

#endif
