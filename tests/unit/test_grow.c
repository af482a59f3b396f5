/* SPDX-License-Identifier: MIT */
/*
 * cr_grow (model/grow.h): the capacities it picks (16, then doubling, as
 * its comment says), that it keeps what the array held, and that it fails
 * without touching the array where the byte size would overflow size_t.
 */
#include "cr_test.h"

#include <stdlib.h>

#include "grow.h"

static void test_doubling(void **state)
{
    (void)state;
    int *v = NULL;
    size_t cap = 0;
    assert_int_equal(cr_grow((void **)&v, &cap, 1, sizeof *v), 0);
    assert_non_null(v);
    assert_int_equal(cap, 16);
    for (int i = 0; i < 16; i++)
        v[i] = i;
    int *before = v;
    assert_int_equal(cr_grow((void **)&v, &cap, 16, sizeof *v), 0); /* fits: untouched */
    assert_ptr_equal(v, before);
    assert_int_equal(cap, 16);
    assert_int_equal(cr_grow((void **)&v, &cap, 17, sizeof *v), 0);
    assert_int_equal(cap, 32);
    assert_int_equal(cr_grow((void **)&v, &cap, 100, sizeof *v), 0); /* 32 -> 64 -> 128 */
    assert_int_equal(cap, 128);
    for (int i = 0; i < 16; i++)
        assert_int_equal(v[i], i);
    free(v);
}

static void test_overflow(void **state)
{
    (void)state;
    char *v = NULL;
    size_t cap = 0;
    assert_int_equal(cr_grow((void **)&v, &cap, 8, 1), 0);
    char *before = v;
    /* 2^62 elements of 8 bytes: more bytes than size_t counts */
    assert_int_equal(cr_grow((void **)&v, &cap, (size_t)1 << 62, 8), -1);
    assert_ptr_equal(v, before);
    assert_int_equal(cap, 16);
    /* a count that cannot double past need */
    assert_int_equal(cr_grow((void **)&v, &cap, SIZE_MAX, 1), -1);
    assert_ptr_equal(v, before);
    assert_int_equal(cap, 16);
    free(v);
}

/* Elements of 0 bytes (a table of no columns): an allocation all the same,
 * never realloc(p, 0), which may free p. */
static void test_zero_size(void **state)
{
    (void)state;
    char *v = NULL;
    size_t cap = 0;
    assert_int_equal(cr_grow((void **)&v, &cap, 1, 0), 0);
    assert_non_null(v);
    assert_int_equal(cr_grow((void **)&v, &cap, 40, 0), 0);
    assert_non_null(v);
    assert_int_equal(cap, 64);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doubling),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_zero_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
