/* SPDX-License-Identifier: MIT */
/*
 * harness: one entry of the --measured-json format, as check, plot and
 * report read it: misspelt keys, types, the keys a command needs, the
 * measured time and the operator's parameters.
 */
#include <jansson.h>
#include <string.h>

#include "cr_test.h"
#include "harness.h"

static json_t *parse(const char *s)
{
    json_error_t e;
    json_t *j = json_loads(s, 0, &e);
    assert_non_null(j);
    return j;
}

/* A whole entry: every field borrowed from the item, microseconds to
 * seconds, the harness's own keys (iters, note) ignored. */
static void test_read_ok(void **state)
{
    (void)state;
    json_t *e = parse("{\"name\": \"p\", \"op\": \"gemm\", \"topo\": \"h200-1\", \"params\": "
                      "{\"m\": 4096}, \"measured_us\": 12.5, \"variant\": \"overlap\", "
                      "\"chunks\": 4, \"iters\": 50, \"note\": \"x\"}");
    cr_harness_result r;
    cr_diag d = {{0}};
    assert_int_equal(
        cr_harness_result_read(e, 3, CR_HARNESS_NEED_NAME | CR_HARNESS_NEED_OP, &r, &d), CR_OK);
    assert_string_equal(r.name, "p");
    assert_string_equal(r.op, "gemm");
    assert_string_equal(r.topo, "h200-1");
    assert_string_equal(r.variant, "overlap");
    assert_close(r.chunks, 4, 0, 0);
    assert_close(r.measured_s, 12.5e-6, 1e-15, 0);
    const cr_op_def *op = NULL;
    cr_op_params p;
    assert_int_equal(cr_harness_result_op(&r, 3, &op, &p, &d), CR_OK);
    assert_non_null(op);
    assert_close(p.v[CR_OPP_M], 4096, 0, 0);
    json_decref(e);
}

/* Misspelt known keys are refused, whichever command reads them; the
 * harness's own metadata is not. */
static void test_near_key(void **state)
{
    (void)state;
    static const struct {
        const char *key, *near;
    } cases[] = {
        {"parms", "params"},
        {"param", "params"},
        {"measure_us", "measured_us"},
        {"measured", "measured_us"},
        {"measured_ms", "measured_us"},
        {"nme", "name"},
        {"topology", "topo"},
        {"parameters", "params"},
        {"variant", NULL},
        {"chunks", NULL},
        {"iters", NULL},
        {"note", NULL},
        {"name", NULL},
        {"measured_us", NULL},
        /* keys in another case were ignored: the entry graded at the
         * default shape or machine (QA audit, 2026-12-06) */
        {"PARAMS", "params"},
        {"Topo", "topo"},
        {"MEASURED_US", "measured_us"},
        {"Op", "op"},
        {"Topology", "topo"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = cr_harness_near_key(cases[i].key);
        if (cases[i].near)
            assert_string_equal(got, cases[i].near);
        else
            assert_null(got);
    }
    /* a near key beside the key it resembles is the harness's own
     * (audit of 2026-12-04: measured_std_us made every entry an error),
     * alone it is refused ("topology" made the entry fall back to the
     * default topology) */
    cr_harness_result r0;
    cr_diag d0 = {{0}};
    json_t *e0 = parse("{\"op\": \"gemm\", \"measured_us\": 3, \"measured_std_us\": 0.1, "
                       "\"topo\": \"h200-1\", \"topology\": \"x\"}");
    assert_int_equal(cr_harness_result_read(e0, 0, 0, &r0, &d0), CR_OK);
    json_decref(e0);
    e0 = parse("{\"op\": \"gemm\", \"measured_us\": 3, \"topology\": \"mi300x-8\"}");
    assert_int_equal(cr_harness_result_read(e0, 0, 0, &r0, &d0), CR_EPARSE);
    assert_non_null(strstr(d0.msg, "did you mean \"topo\""));
    json_decref(e0);
    /* an operator parameter beside "params" would be ignored: refused */
    memset(&d0, 0, sizeof d0);
    e0 = parse("{\"op\": \"gemm\", \"m\": 8192, \"measured_us\": 3}");
    assert_int_equal(cr_harness_result_read(e0, 4, 0, &r0, &d0), CR_OK);
    const cr_op_def *op0 = NULL;
    cr_op_params p0;
    assert_int_equal(cr_harness_result_op(&r0, 4, &op0, &p0, &d0), CR_EPARSE);
    assert_string_equal(d0.msg, "entry 4: \"m\" is a parameter of gemm: put it in \"params\" "
                                "({\"params\": {\"m\": ...}})");
    json_decref(e0);
    /* a parameter of the entry's operator at the top level is named as
     * one, not as a misspelt entry key ("topk" of moe is not "topo") */
    memset(&d0, 0, sizeof d0);
    e0 = parse("{\"op\": \"moe\", \"topk\": 4, \"measured_us\": 3}");
    assert_int_equal(cr_harness_result_read(e0, 5, 0, &r0, &d0), CR_OK);
    assert_int_equal(cr_harness_result_op(&r0, 5, &op0, &p0, &d0), CR_EPARSE);
    assert_string_equal(d0.msg, "entry 5: \"topk\" is a parameter of moe: put it in \"params\" "
                                "({\"params\": {\"topk\": ...}})");
    json_decref(e0);
    /* of another operator it is still a misspelt "topo" */
    memset(&d0, 0, sizeof d0);
    e0 = parse("{\"op\": \"gemm\", \"topk\": 4, \"measured_us\": 3}");
    assert_int_equal(cr_harness_result_read(e0, 6, 0, &r0, &d0), CR_EPARSE);
    assert_non_null(strstr(d0.msg, "did you mean \"topo\""));
    json_decref(e0);
    json_t *e = parse("{\"name\": \"p\", \"op\": \"gemm\", \"parms\": {\"m\": 1}, "
                      "\"measured_us\": 1}");
    cr_harness_result r;
    cr_diag d = {{0}};
    assert_int_equal(cr_harness_result_read(e, 7, 0, &r, &d), CR_EPARSE);
    assert_string_equal(d.msg, "entry 7: unknown key \"parms\": did you mean \"params\"? (an "
                               "entry has name, op, topo, params, measured_us; operator "
                               "parameters go in \"params\")");
    json_decref(e);
}

/* Each fault says which entry and what would be right. */
#define M_US(got)                                                                                  \
    "entry 0: \"measured_us\" is " got ": it must be a number of microseconds from 1e-06 to "      \
    "1e+12 (e.g. 12.5)"

static void test_read_bad(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        unsigned need;
        const char *msg;
    } cases[] = {
        {"[1]", 0, "entry 0 is not an object"},
        {"{\"op\": 5, \"measured_us\": 1}", 0, "entry 0: \"op\" must be a string"},
        {"{\"name\": \"p\", \"measured_us\": 1}", CR_HARNESS_NEED_OP,
         "entry 0: \"op\" (a string, e.g. \"gemm_rs\") is missing"},
        {"{\"op\": \"gemm\", \"measured_us\": 1}", CR_HARNESS_NEED_NAME,
         "entry 0: \"name\" (a string, the suite problem it measures) is missing"},
        {"{\"name\": \"\", \"measured_us\": 1}", CR_HARNESS_NEED_NAME,
         "entry 0: \"name\" (a string, the suite problem it measures) is missing"},
        {"{\"op\": \"gemm\", \"measured_us\": -1}", 0, M_US("-1")},
        /* a string, a missing time and a null each say what was there (all
         * three read "must be a number", QA audit of check) */
        {"{\"op\": \"gemm\", \"measured_us\": \"12\"}", 0,
         "entry 0: \"measured_us\" is a string, \"12\": give a JSON number of microseconds from "
         "1e-06 to 1e+12, without quotes (e.g. 12.5)"},
        {"{\"op\": \"gemm\"}", 0,
         "entry 0: \"measured_us\" (a number of microseconds, e.g. 12.5) is missing"},
        {"{\"op\": \"gemm\", \"measured_us\": null}", 0, M_US("null")},
        {"{\"op\": \"gemm\", \"measured_us\": true}", 0, M_US("a boolean")},
        /* below a picosecond the ratios to the bound leave double's range */
        {"{\"op\": \"gemm\", \"measured_us\": 1e-310}", 0, M_US("1e-310")},
        {"{\"op\": \"gemm\", \"measured_us\": 1e13}", 0, M_US("1e+13")},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *e = parse(cases[i].json);
        json_t *item = json_is_array(e) ? json_array_get(e, 0) : e;
        cr_harness_result r;
        cr_diag d = {{0}};
        assert_int_equal(cr_harness_result_read(item, 0, cases[i].need, &r, &d), CR_EPARSE);
        assert_string_equal(d.msg, cases[i].msg);
        json_decref(e);
    }
}

/* The operator: none named is not an error (the charts match by name); an
 * unknown one or a bad parameter is, with the entry's index. */
static void test_op(void **state)
{
    (void)state;
    cr_harness_result r;
    memset(&r, 0, sizeof r);
    const cr_op_def *op = (const cr_op_def *)&r;
    cr_op_params p;
    cr_diag d = {{0}};
    assert_int_equal(cr_harness_result_op(&r, 0, &op, &p, &d), CR_OK);
    assert_null(op);
    r.op = "no_such_op";
    assert_int_not_equal(cr_harness_result_op(&r, 2, &op, &p, &d), CR_OK);
    assert_memory_equal(d.msg, "entry 2: ", 9);
    json_t *params = parse("{\"m\": \"many\"}");
    r.op = "gemm";
    r.params = params;
    memset(&d, 0, sizeof d);
    assert_int_not_equal(cr_harness_result_op(&r, 4, &op, &p, &d), CR_OK);
    assert_memory_equal(d.msg, "entry 4: ", 9);
    assert_non_null(strstr(d.msg, "many"));
    json_decref(params);
    /* a boolean where a count goes is named as written (it read as "yes") */
    params = parse("{\"m\": true}");
    r.params = params;
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_harness_result_op(&r, 3, &op, &p, &d), CR_EPARSE);
    assert_string_equal(d.msg, "entry 3: params.m = true: a JSON boolean fits only the yes/no "
                               "parameters (causal, backward, ...); give m as `commroof op gemm "
                               "--help` lists it");
    json_decref(params);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_ok),
        cmocka_unit_test(test_near_key),
        cmocka_unit_test(test_read_bad),
        cmocka_unit_test(test_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
