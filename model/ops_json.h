/* SPDX-License-Identifier: MIT */
/* Operator parameters to and from a JSON object: the "params" of a harness
 * result (`commroof check --measured-json`, the gap chart's measured times)
 * and of `commroof op --json` / `check --json`. One reader so that a result
 * means the same problem wherever it is read; one writer whose output the
 * reader takes back. */
#ifndef CR_OPS_JSON_H
#define CR_OPS_JSON_H

#include <jansson.h>

#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills p with op's defaults, then sets every key of `params` (NULL: the
 * defaults alone) through cr_op_param_set: "group" first, because it moves
 * the default group size, then the rest, numbers and booleans written as
 * text the way users type them. Errors: CR_EPARSE when params is not an
 * object or a value is neither a string, a number nor a boolean; whatever
 * cr_op_param_set returns for an unknown key or a bad value. d names the
 * key ("params.k ..."). */
cr_status cr_op_params_from_json(const cr_op_def *op, json_t *params, cr_op_params *p, cr_diag *d);

/* The parameters op uses, as a new JSON object (json_decref() it; NULL when
 * out of memory): counts and byte sizes as integers (reals where not whole
 * or beyond 2^53), capacity, skew and flops_per as numbers (integers where
 * whole), pinned / causal / backward as booleans, dtypes and the other
 * enumerations (kind, coll, norm, group) by name ("bf16", "allreduce").
 * cr_op_params_from_json() reads it back to the same values. */
json_t *cr_op_params_to_json(const cr_op_def *op, const cr_op_params *p);

#ifdef __cplusplus
}
#endif

#endif
