/* SPDX-License-Identifier: MIT */
/* Element types (model/dtype.c): names, sizes, NCCL's types. */
#include <stdio.h>
#include <string.h>

#include "cr_test.h"
#include "dtype.h"

/* Every type has a name that parses back and a size; a value outside the
 * enumeration has neither, and is no NCCL type (cr_dtype_check_nccl took
 * 99 and -1, QA audit of the API). */
static void test_names_and_range(void **state)
{
    (void)state;
    for (int i = 0; i < CR_DT__COUNT; i++) {
        cr_dtype t = CR_DT__COUNT;
        assert_non_null(cr_dtype_name((cr_dtype)i));
        assert_int_equal(cr_dtype_parse(cr_dtype_name((cr_dtype)i), &t, NULL), CR_OK);
        assert_int_equal(t, i);
        assert_true(cr_dtype_bytes((cr_dtype)i) > 0);
    }
    assert_int_equal(cr_dtype_check_nccl(CR_DT_BF16, NULL), CR_OK);
    cr_diag d = {{0}};
    assert_int_equal(cr_dtype_check_nccl(CR_DT_TF32, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "tf32 is not an NCCL element type"));
    const int bad[] = {-1, CR_DT__COUNT, 99};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_null(cr_dtype_name((cr_dtype)bad[i]));
        assert_true(cr_dtype_bytes((cr_dtype)bad[i]) == 0);
        memset(&d, 0, sizeof d);
        assert_int_equal(cr_dtype_check_nccl((cr_dtype)bad[i], &d), CR_EINVAL);
        char want[64];
        snprintf(want, sizeof want, "dtype %d is not an element type", bad[i]);
        assert_non_null(strstr(d.msg, want));
    }
}

/* A type's name in any case is that type: "BF16" was refused (exit 2)
 * where --kind D2D, --coll AllReduce, --norm RMS and --causal True were
 * taken, so a harness writing its dtypes in upper case failed on that
 * parameter alone (QA audit of op/check). */
static void test_names_any_case(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        cr_dtype want;
    } cases[] = {
        {"BF16", CR_DT_BF16},     {"Bf16", CR_DT_BF16}, {"FP8", CR_DT_FP8},
        {"FP32", CR_DT_FP32},     {"TF32", CR_DT_TF32}, {"INT8", CR_DT_INT8},
        {"BFloat16", CR_DT_BF16}, {"E4M3", CR_DT_FP8},  {"Float16", CR_DT_FP16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_dtype t = CR_DT__COUNT;
        assert_int_equal(cr_dtype_parse(cases[i].text, &t, NULL), CR_OK);
        assert_int_equal(t, cases[i].want);
    }
    cr_dtype t;
    cr_diag d = {{0}};
    assert_int_equal(cr_dtype_parse("BF17", &t, &d), CR_ENOTFOUND);
    assert_non_null(strstr(d.msg, "unknown dtype \"BF17\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_range),
        cmocka_unit_test(test_names_any_case),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
