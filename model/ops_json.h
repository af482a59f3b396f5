/* SPDX-License-Identifier: MIT */
/* Operator parameters from a JSON object: the "params" of a harness result
 * (`commroof check --measured-json`, the gap chart's measured times). One
 * reader so that a result means the same problem wherever it is read. */
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

#ifdef __cplusplus
}
#endif

#endif
