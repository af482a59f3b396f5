/* SPDX-License-Identifier: MIT */
/* Harness results: one entry of the `--measured-json` format (harness.h). */
#include "harness.h"
#include "sbuf.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops_json.h"
#include "strdist_priv.h"

static const char *const known[] = {"name", "op", "topo", "params", "measured_us"};

static bool is_entry_key(const char *key)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(key, known[i]) == 0)
            return true;
    return false;
}

const char *cr_harness_near_key(const char *key_as_given)
{
    if (is_entry_key(key_as_given))
        return NULL;
    /* JSON keys are case-sensitive, so "PARAMS" or "Topo" would be ignored
     * and the entry graded at the default shape or machine (QA audit,
     * 2026-12-06: a 1000 us 8192^3 GEMM passed as a 1024 x 1024 x 512 one):
     * the comparisons below are on the key in lower case */
    char key[64];
    size_t n_key = 0;
    for (; key_as_given[n_key] && n_key < sizeof key - 1; n_key++)
        key[n_key] = (char)tolower((unsigned char)key_as_given[n_key]);
    key[n_key] = '\0';
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(key, known[i]) == 0)
            return known[i];
    if (strncmp(key, "measured", 8) == 0) /* measured, measured_ms, measured_time */
        return "measured_us";
    /* what coll, sim, validate and roofline print for the topology, and the
     * long word for the parameters */
    if (strcmp(key, "topology") == 0)
        return "topo";
    if (strcmp(key, "parameters") == 0 || strcmp(key, "args") == 0)
        return "params";
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t n = strlen(known[i]);
        if ((n > 2 && cr_edit_distance(key, known[i], 9) <= (n > 4 ? 2 : 1)) ||
            (strlen(key) >= 5 && strncmp(key, known[i], strlen(key)) == 0))
            return known[i];
    }
    return NULL;
}

cr_status cr_harness_result_read(json_t *e, size_t idx, unsigned need, cr_harness_result *out,
                                 cr_diag *d)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(e))
        return cr_diag_set(d, CR_EPARSE, "entry %zu is not an object", idx);
    /* Other keys are the harness's own (variant, iterations, ...) and are
     * ignored, but a misspelt known key would silently fall back to a
     * default: refuse keys that look like one. */
    const char *k;
    json_t *v;
    /* a parameter of the entry's operator beside "params" ("topk" of moe)
     * is not a misspelt key ("topo"): cr_harness_result_op says where it
     * goes */
    const cr_op_def *op = NULL;
    cr_diag od = {{0}};
    const char *op_name = json_string_value(json_object_get(e, "op"));
    if (op_name && cr_op_find(op_name, &op, &od) != CR_OK)
        op = NULL;
    json_object_foreach(e, k, v)
    {
        int kp = op ? cr_opp_parse(k) : -1;
        if (kp >= 0 && cr_op_uses(op, (cr_opp)kp))
            continue;
        const char *near = cr_harness_near_key(k);
        if (near && !json_object_get(e, near))
            return cr_diag_set(d, CR_EPARSE,
                               "entry %zu: unknown key \"%.64s\": did you mean \"%s\"? (an entry "
                               "has name, op, topo, params, measured_us; operator parameters go "
                               "in \"params\")",
                               idx, k, near);
        if ((strcmp(k, "name") == 0 || strcmp(k, "op") == 0 || strcmp(k, "topo") == 0) &&
            !json_is_string(v))
            return cr_diag_set(d, CR_EPARSE, "entry %zu: \"%s\" must be a string", idx, k);
    }
    out->name = json_string_value(json_object_get(e, "name"));
    out->op = json_string_value(json_object_get(e, "op"));
    out->topo = json_string_value(json_object_get(e, "topo"));
    out->params = json_object_get(e, "params");
    out->variant = json_string_value(json_object_get(e, "variant"));
    out->entry = e;
    json_t *ch = json_object_get(e, "chunks");
    out->chunks = json_is_number(ch) ? json_number_value(ch) : 0;
    if ((need & CR_HARNESS_NEED_NAME) && !(out->name && out->name[0]))
        return cr_diag_set(d, CR_EPARSE,
                           "entry %zu: \"name\" (a string, the suite problem it measures) is "
                           "missing",
                           idx);
    if ((need & CR_HARNESS_NEED_OP) && !out->op)
        return cr_diag_set(d, CR_EPARSE,
                           "entry %zu: \"op\" (a string, e.g. \"gemm_rs\") is missing", idx);
    /* what was there, then what would be right: a missing time, a string
     * ("12.5", as a harness that formats its numbers writes it) and -1
     * all read "must be a number", which a missing key is not told by */
    json_t *ms = json_object_get(e, "measured_us");
    double us = json_is_number(ms) ? json_number_value(ms) : NAN;
    if (!ms)
        return cr_diag_set(d, CR_EPARSE,
                           "entry %zu: \"measured_us\" (a number of microseconds, e.g. 12.5) is "
                           "missing",
                           idx);
    if (json_is_string(ms))
        return cr_diag_set(d, CR_EPARSE,
                           "entry %zu: \"measured_us\" is a string, \"%.40s\": give a JSON "
                           "number of microseconds from %g to %g, without quotes (e.g. 12.5)",
                           idx, json_string_value(ms), CR_HARNESS_MIN_MEASURED_S * 1e6,
                           CR_HARNESS_MAX_MEASURED_S * 1e6);
    if (!cr_harness_measured_ok(us * 1e-6)) {
        char got[40];
        if (json_is_number(ms))
            cr_snprintf_c(got, sizeof got, "%.10g", us);
        else
            snprintf(got, sizeof got, "%s",
                     json_is_null(ms)      ? "null"
                     : json_is_boolean(ms) ? "a boolean"
                     : json_is_array(ms)   ? "an array"
                                           : "an object");
        return cr_diag_set(d, CR_EPARSE,
                           "entry %zu: \"measured_us\" is %s: it must be a number of "
                           "microseconds from %g to %g (e.g. 12.5)",
                           idx, got, CR_HARNESS_MIN_MEASURED_S * 1e6,
                           CR_HARNESS_MAX_MEASURED_S * 1e6);
    }
    out->measured_s = us * 1e-6;
    return CR_OK;
}

bool cr_harness_measured_ok(double s)
{
    return s >= CR_HARNESS_MIN_MEASURED_S && s <= CR_HARNESS_MAX_MEASURED_S;
}

cr_status cr_harness_result_op(const cr_harness_result *r, size_t idx, const cr_op_def **op,
                               cr_op_params *p, cr_diag *d)
{
    *op = NULL;
    if (!r->op)
        return CR_OK;
    cr_diag od = {{0}};
    cr_status st = cr_op_find(r->op, op, &od);
    if (st == CR_OK)
        st = cr_op_params_from_json(*op, r->params, p, &od);
    if (st != CR_OK)
        return cr_diag_set(d, st, "entry %zu: %s", idx, od.msg);
    /* a parameter of the operator beside "params" would be ignored: the
     * entry graded at the default shape */
    const char *k;
    json_t *v;
    json_object_foreach(r->entry, k, v)
    {
        /* the entry's own keys are not: "params" is also ddp's count */
        int kp = is_entry_key(k) ? -1 : cr_opp_parse(k);
        if (kp >= 0 && cr_op_uses(*op, (cr_opp)kp))
            return cr_diag_set(d, CR_EPARSE,
                               "entry %zu: \"%.40s\" is a parameter of %s: put it in \"params\" "
                               "({\"params\": {\"%.40s\": ...}})",
                               idx, k, r->op, k);
    }
    (void)v;
    return CR_OK;
}
