/* SPDX-License-Identifier: MIT */
/* Operator parameters from a harness result's JSON (see ops_json.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sbuf.h"
#include "ops_json.h"
#include "ops_priv.h"
#include "json_num.h"

/* A JSON scalar as cr_op_param_set reads text; false when it is not one. */
static bool scalar_text(json_t *v, char *buf, size_t n)
{
    if (json_is_string(v))
        cr_str_copy(buf, n, json_string_value(v));
    else if (json_is_integer(v))
        snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        cr_snprintf_c(buf, n, "%.17g", json_real_value(v));
    else if (json_is_boolean(v))
        cr_str_copy(buf, n, json_is_true(v) ? "yes" : "no");
    else
        return false;
    return true;
}

cr_status cr_op_params_from_json(const cr_op_def *op, json_t *params, cr_op_params *p, cr_diag *d)
{
    cr_op_params_defaults(op, p);
    if (!params)
        return CR_OK;
    if (!json_is_object(params))
        return cr_diag_set(d, CR_EPARSE, "\"params\" must be an object");
    json_t *grp = json_object_get(params, "group");
    if (grp && !json_is_string(grp))
        return cr_diag_set(d, CR_EPARSE,
                           "params.group must be a string naming a group (tp cp ep dp pp)");
    if (grp) {
        cr_status st = cr_op_param_set(op, p, "group", json_string_value(grp), d);
        if (st != CR_OK)
            return st;
    }
    const char *key;
    json_t *val;
    json_object_foreach(params, key, val)
    {
        char txt[64];
        if (strcmp(key, "group") == 0)
            continue;
        if (!scalar_text(val, txt, sizeof txt))
            return cr_diag_set(d, CR_EPARSE, "params.%s must be a number or a string", key);
        cr_diag pd = {{0}};
        cr_status st = cr_op_param_set(op, p, key, txt, &pd);
        /* a boolean reads as yes/no, which only the yes/no parameters take:
         * say what was written, not the "yes" it became (QA audit) */
        if (st != CR_OK && json_is_boolean(val))
            return cr_diag_set(d, st,
                               "params.%s = %s: a JSON boolean fits only the yes/no parameters "
                               "(causal, backward, ...); give %s as `commroof op %s --help` "
                               "lists it",
                               key, json_is_true(val) ? "true" : "false", key, cr_op_name(op));
        if (st != CR_OK)
            return cr_diag_set(d, st, "%s", pd.msg);
    }
    return CR_OK;
}

/* Numbers, not display strings: "62500KiB" for --bytes 64MB made a harness
 * parse our unit syntax back (QA audit); integers where whole so that a byte
 * count reads exactly (a double prints 17,649,631,232 as 1.764963123e10 at
 * the CLI's precision). */
static json_t *param_value(const cr_op_params *p, cr_opp k)
{
    double x = p->v[k];
    switch (ops_param_json_kind(k)) {
    case OPS_JSON_NUMBER:
        return cr_json_count(x);
    case OPS_JSON_BOOL:
        return json_boolean(x != 0);
    case OPS_JSON_STRING:
        break;
    }
    char v[64];
    return json_string(cr_op_param_format(p, k, v, sizeof v));
}

json_t *cr_op_params_to_json(const cr_op_def *op, const cr_op_params *p)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    for (int k = 0; k < CR_OPP__COUNT; k++) {
        if (!cr_op_uses(op, (cr_opp)k))
            continue;
        /* json_object_set_new takes v even when it fails, NULL included */
        if (json_object_set_new(o, cr_opp_name((cr_opp)k), param_value(p, (cr_opp)k)) != 0) {
            json_decref(o);
            return NULL;
        }
    }
    /* the layout over the ranks moves the bound too (a ddp of dp,tp
     * crosses nodes where tp,dp does not): read back as given */
    char ord[32];
    if (cr_op_has_order(op) &&
        json_object_set_new(o, "order", json_string(cr_op_order_format(p, ord, sizeof ord))) != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}
