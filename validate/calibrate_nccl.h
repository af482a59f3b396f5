/* SPDX-License-Identifier: MIT */
/*
 * calibrate --nccl-tests: fits coll's prediction constants (model/params.c)
 * to a machine's own nccl-tests logs.
 *
 * Each result row of the logs (cr_validate_read_nccl_tests) is one case:
 * its collective, byte count, type and rank count on the topology's first
 * n ranks (or a given rank set), measured = its out-of-place time. The
 * constants fitted are those of one table (cr_cnf_keys): a key, its search
 * range and the rows that inform it (size bands, one node or across
 * nodes). Per key, in table order, a few sweeps of coordinate descent:
 *
 *   minimise  mean over the key's rows of |ln(pred / measured)|
 *
 * by a grid of CR_CNF_GRID points over the range (the shipped value
 * among them), then golden-section search between the best point's
 * neighbours; a key whose rows' predictions do not move over the range, or
 * that has fewer than two rows, keeps its value and is reported "not
 * informed". Deterministic: no random start, the same rows in the same
 * order give the same figures.
 *
 * The bound is not fitted: no model constant feeds it (params.h), each
 * row's bound is computed once from the topology's peaks, and a row
 * measured below it is a violation, left out of the fit.
 */
#ifndef CR_CALIBRATE_NCCL_H
#define CR_CALIBRATE_NCCL_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"
#include "topo.h"
#include "validate.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Size bands of the report and of the key table (by the row's byte count). */
typedef enum {
    CR_CNF_SMALL, /* <= 1 MiB */
    CR_CNF_MID,   /* 1 - 64 MiB */
    CR_CNF_LARGE, /* > 64 MiB */
    CR_CNF__BANDS
} cr_cnf_band;

/* Row classes of the key table: a row informs a key when its band's bit
 * and its scope's bit are both set in the key's `rows`. */
#define CR_CNF_R_SMALL (1u << CR_CNF_SMALL)
#define CR_CNF_R_MID (1u << CR_CNF_MID)
#define CR_CNF_R_LARGE (1u << CR_CNF_LARGE)
#define CR_CNF_R_INTRA (1u << 3) /* every rank in one node */
#define CR_CNF_R_NET (1u << 4)   /* ranks on two or more nodes */

/* One fitted constant. */
typedef struct {
    const char *key; /* a cr_params_key */
    double lo, hi;   /* search range, inside the key's valid range */
    unsigned rows;   /* CR_CNF_R_* */
} cr_cnf_key;

/* The table of fitted constants, *n entries (borrowed, static). */
const cr_cnf_key *cr_cnf_keys(int *n);

/* The band of a message of `bytes`. */
cr_cnf_band cr_cnf_band_of(double bytes);

/* "<=1MiB", "1-64MiB", ">64MiB"; "all" for CR_CNF__BANDS. */
const char *cr_cnf_band_name(int band);

#define CR_CNF_MAX_KEYS 48
#define CR_CNF_GRID 13

/* One row of the fit. */
typedef struct {
    int log;           /* caller's log index */
    cr_cnf_band band;  /* by bytes */
    bool net;          /* ranks on two or more nodes */
    double bytes;      /* message size */
    double measured_s; /* nccl-tests' out-of-place time */
    double bound_s;    /* the bound, from peaks */
    bool violation;    /* measured below the bound: left out of the fit */
    char source[128];  /* "file.log:12" */
} cr_cnf_row;

/* The rows of a fit and the prediction contexts they need. */
typedef struct cr_cnf cr_cnf;

/* A fit on topology t (borrowed: it must outlive the result; it is not
 * changed), ranks a rank-set text for the rows (NULL: the first n ranks of
 * t). Errors: CR_ENOMEM. Free with cr_cnf_free. */
cr_status cr_cnf_new(const cr_topo *t, const char *ranks, cr_cnf **out, cr_diag *d);

void cr_cnf_free(cr_cnf *f);

/* Called during cr_cnf_fit_run before each key of each sweep: the sweep
 * (from 0) of sweeps, the key (from 0) of keys and its name. */
typedef void (*cr_cnf_progress_fn)(void *ctx, int sweep, int sweeps, int key, int keys,
                                   const char *name);

/* Sets (or with fn NULL clears) f's progress callback. */
void cr_cnf_set_progress(cr_cnf *f, cr_cnf_progress_fn fn, void *ctx);

/* Adds m (an nccl-tests row, family nccl) as a row of log `log` (>= 0).
 * A case the model does not cover (more ranks than the topology, a rank
 * set of another size, no prediction) is no error: *added (may be NULL)
 * is false and why (may be NULL, why_size) says why. Errors: CR_EINVAL (a
 * malformed case, a bad rank set: d says which), CR_ENOMEM. */
cr_status cr_cnf_add(cr_cnf *f, const cr_vmeas *m, int log, bool *added, char *why, size_t why_size,
                     cr_diag *d);

/* The rows added (borrowed; valid until the next cr_cnf_add). */
const cr_cnf_row *cr_cnf_rows(const cr_cnf *f, size_t *n);

/* The fewest rows a key is fitted on: one row fixes no trend (a key left
 * with fewer is "kept"). */
#define CR_CNF_MIN_ROWS 2

/* Where a scope has fewer than two fitted rows above 64 MiB, its rows
 * within this factor of its largest size (above 1 MiB) inform the rates
 * too (calibrate_nccl.c mark_rate_rows). */
#define CR_CNF_RATE_SPAN 4

/* A network step the rows leave flat moves with its fitted sibling at
 * NCCL's ratio only while the sibling stays within this factor of its
 * shipped figure either way: further out, the sibling's figure has taken up
 * more than a step's latency (rows the model's structure misses), which
 * says nothing of the other algorithm's step (calibrate_nccl.c
 * carry_net_steps; doc/corpus.md, Session 33). */
#define CR_CNF_CARRY_MAX 4

/* The weight of each key's pull toward its shipped figure in the
 * descent's objective (calibrate_nccl.c prior_of): a key moved by a factor
 * e costs as much as 2 % more mean |ln(pred / measured)| on the rows.
 * Chosen on the fitting half of validate/corpus only, with
 * tools/calibrate_each.py --half fit (each collective of a machine fitted
 * alone, the others held out; 49 fits): 0 (none, before): 12 fits made a
 * held-out log more than 10 points worse, 32 of 49 held-out medians at
 * most 10 %; 0.002: 7, 36; 0.01: 6, 35; 0.02: 3, 36; 0.05: 3, 37 (but the
 * all_reduce fits of tools/calibrate_crosscheck.sh lost Polaris 8 nodes,
 * 30.4 -> 41.4 %); 0.1 and 0.2: 3, 38 and 37 (ABCI 2 nodes' p90 42.9 ->
 * 63.1 %). doc/corpus.md, Session 42. */
#define CR_CNF_PRIOR 0.02

/* A set of fitted constants. */
typedef struct {
    int n_keys; /* = the table's */
    struct {
        const char *key;              /* the table's */
        double before;                /* as shipped (topology or generation default) */
        double after;                 /* fitted; = before when not fitted */
        int rows;                     /* rows that informed it */
        bool fitted;                  /* informed by the rows, or carried with its sibling */
        const char *carried_with;     /* the sibling key it moved with, or NULL */
        const char *not_carried_with; /* the sibling that moved past CR_CNF_CARRY_MAX,
                                         so this key kept its figure; or NULL */
        int at_bound;                 /* its fit ran to an end of its search range: -1
                                         the floor (one above 0), +1 the ceiling; else 0.
                                         Such a key is held at before (fitted false)
                                         and the others fitted again without it */
    } k[CR_CNF_MAX_KEYS];
    int rows;          /* fit rows used (violations left out) */
    int rate_rows;     /* of them, rows up to 64 MiB that inform the rates too:
                          their scope has fewer than two above
                          (calibrate_nccl.c mark_rate_rows) */
    double obj_before; /* mean |ln(pred / measured)| over them, as shipped */
    double obj_after;  /* the same, fitted */
    long evals;        /* row predictions the fit made */
} cr_cnf_fit;

/* Fits the table's keys on the rows whose log l has use_log[l] true
 * (use_log has n_logs entries; a row of a log past the end is not used).
 * Errors: CR_EINVAL (a table key unknown to the model: d names it),
 * CR_EINVARIANT (a prediction failed), CR_ENOMEM. */
cr_status cr_cnf_fit_run(cr_cnf *f, const bool *use_log, int n_logs, cr_cnf_fit *out, cr_diag *d);

/* Predictions of every row (pred_s: as many as cr_cnf_rows' n) with the
 * constants of fit (NULL: as shipped). Rows stay in the order added.
 * Errors as cr_cnf_fit_run. */
cr_status cr_cnf_predict(cr_cnf *f, const cr_cnf_fit *fit, double *pred_s, cr_diag *d);

/* Error figures of a set of rows. */
typedef struct {
    int rows;
    double median_pct; /* median |pred - measured| / measured x 100 */
    double p90_pct;    /* its 90th percentile (nearest rank) */
} cr_cnf_stat;

/* The figures of the rows of the logs l with logs[l] true (logs has n_logs
 * entries; NULL: every row) under predictions pred_s (one per row), per
 * band (out[0..CR_CNF__BANDS)) and over all (out[CR_CNF__BANDS]). Rows
 * with a violation count too (their error is the prediction's).
 * Errors: CR_ENOMEM. */
cr_status cr_cnf_stats(const cr_cnf *f, const double *pred_s, const bool *logs, int n_logs,
                       cr_cnf_stat out[CR_CNF__BANDS + 1]);

/* Whether the fit moved key k of fit from its shipped figure, at the six
 * digits cr_cnf_apply writes: a key the fit informed but kept is not
 * written (its source would claim a fit that changed nothing). */
bool cr_cnf_key_moved(const cr_cnf_fit *fit, int k);

/* Writes the fitted keys of fit (only those fitted) into t as parameters
 * with `source` as their source (a carried key's names its sibling too).
 * Errors: CR_ENOMEM. */
cr_status cr_cnf_apply(cr_topo *t, const cr_cnf_fit *fit, const char *source);

#ifdef __cplusplus
}
#endif

#endif
