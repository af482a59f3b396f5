/* SPDX-License-Identifier: MIT */
/*
 * harness: the results a benchmark harness writes for commroof (the
 * `--measured-json` format of check, plot and report): a JSON array, or an
 * object with a "results" array, of objects
 *   {"name": "...", "op": "gemm_rs", "topo": "hgx-h100-8",
 *    "params": {"m": 1024, "dtype": "bf16", "tp": 8}, "measured_us": 12.5}
 * One reader of an entry for every command, so that an entry means the same
 * and is refused for the same reasons wherever it is read: other keys are
 * the harness's own metadata and are ignored, except one that looks like a
 * misspelt known key ("measure_us", "parms"), which would otherwise fall
 * back to a default without a word. The file is read an item at a time
 * with json_items.h (cr_json_items_open(f, path, "results", ...)).
 */
#ifndef CR_HARNESS_H
#define CR_HARNESS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ops.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One entry, its values borrowed from the JSON item (valid while it is). */
typedef struct {
    const char *name; /* the suite problem it measures; NULL when absent */
    const char *op;   /* the operator's name; NULL when absent */
    const char *topo; /* NULL when absent */
    json_t *params;   /* the operator's parameters; NULL when absent */
    double measured_s;
    /* metadata the charts show: NULL / 0 when absent or of another type */
    const char *variant; /* "baseline", "overlap" */
    double chunks;
    json_t *entry; /* the whole entry (cr_harness_result_op checks its keys) */
} cr_harness_result;

/* The measured times commroof takes, in seconds: from a picosecond (no GPU
 * operation is shorter, and below it the ratios to a bound leave double's
 * range: 1e-310 us made the percentage infinite) to a million seconds. */
#define CR_HARNESS_MIN_MEASURED_S 1e-12
#define CR_HARNESS_MAX_MEASURED_S 1e6

/* Whether s (seconds) is a measured time commroof takes. */
bool cr_harness_measured_ok(double s);

/* What an entry must carry beyond "measured_us" (flags). */
enum {
    CR_HARNESS_NEED_NAME = 1, /* the charts match results to suite problems by name */
    CR_HARNESS_NEED_OP = 2,   /* check evaluates the operator */
};

/* Reads entry e, the idx-th (from 0) of its file, into out: e must be an
 * object; "name", "op" and "topo" strings when present; a key that looks
 * like a misspelling of a known one is refused; the keys `need` names
 * present; "measured_us" a number of microseconds cr_harness_measured_ok takes.
 * Errors: CR_EPARSE, with "entry <idx>: what is wrong and what would be
 * right" in d (the same message for every command; a command that reads a
 * file names it before). */
cr_status cr_harness_result_read(json_t *e, size_t idx, unsigned need, cr_harness_result *out,
                                 cr_diag *d);

/* The operator of r and its parameters (cr_op_params_from_json of
 * r->params); *op NULL and CR_OK when r names no operator. Errors:
 * CR_EPARSE / CR_ENOTFOUND (an unknown operator, a bad parameter), with
 * "entry <idx>: ..." in d. */
cr_status cr_harness_result_op(const cr_harness_result *r, size_t idx, const cr_op_def **op,
                               cr_op_params *p, cr_diag *d);

/* The known entry key that key looks like a misspelling of (within two edits
 * of a longer key, one of a 4-letter one, a known key's stem such as
 * "measured" or "param", or a name other commands print for it:
 * "topology", "parameters"), or NULL for a known key or unrelated metadata
 * ("variant", "iters", "note"). An entry refuses such a key only where the
 * key it looks like is absent: "measured_std_us" beside "measured_us" is
 * the harness's own. */
const char *cr_harness_near_key(const char *key);

#ifdef __cplusplus
}
#endif

#endif
