/* SPDX-License-Identifier: MIT */
/*
 * The tables of shipped files (model/embedded.c): a path is told from a
 * shipped name by one rule, every listed name is found again, the listing
 * keeps whole names only, and indexes past either end give NULL.
 */
#include "cr_test.h"

#include <string.h>

#include "embedded_priv.h"

static const struct cr_embedded table[] = {
    {"alpha", "<a/>"},
    {"beta-2", "<b/>"},
    {"gamma", "<c/>"},
    {NULL, NULL},
};

static void test_is_path(void **state)
{
    (void)state;
    assert_true(cr_embedded_is_path("./hgx-h100-8"));
    assert_true(cr_embedded_is_path("hgx-h100-8.xml"));
    assert_true(cr_embedded_is_path("/tmp/t"));
    assert_false(cr_embedded_is_path("hgx-h100-8"));
    assert_false(cr_embedded_is_path(".xml")); /* the suffix alone is a name */
    assert_false(cr_embedded_is_path("x.xmlx"));
}

static void test_find_and_name(void **state)
{
    (void)state;
    const struct cr_embedded *e = cr_embedded_find(table, "beta-2");
    assert_non_null(e);
    assert_string_equal(e->text, "<b/>");
    assert_null(cr_embedded_find(table, "beta"));
    assert_null(cr_embedded_find(table, ""));
    assert_string_equal(cr_embedded_name(table, 0), "alpha");
    assert_string_equal(cr_embedded_name(table, 2), "gamma");
    assert_null(cr_embedded_name(table, 3));
    assert_null(cr_embedded_name(table, -1));
    /* the real tables: every name found again, the default topology among them */
    int n = 0;
    for (int i = 0; cr_embedded_name(cr_embedded_topo, i); i++, n++)
        assert_ptr_equal(cr_embedded_find(cr_embedded_topo, cr_embedded_name(cr_embedded_topo, i)),
                         &cr_embedded_topo[i]);
    assert_true(n >= 10);
    assert_non_null(cr_embedded_find(cr_embedded_topo, "hgx-h200-8"));
    assert_non_null(cr_embedded_find(cr_embedded_suite, "pkb"));
}

static void test_list(void **state)
{
    (void)state;
    char buf[64];
    cr_embedded_list(table, buf, sizeof buf);
    assert_string_equal(buf, "alpha, beta-2, gamma");
    /* "alpha, beta-2" is 13 characters: a 14-byte buffer holds it, not gamma */
    cr_embedded_list(table, buf, 14);
    assert_string_equal(buf, "alpha, beta-2");
    cr_embedded_list(table, buf, 13);
    assert_string_equal(buf, "alpha");
    cr_embedded_list(table, buf, 5);
    assert_string_equal(buf, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_path),
        cmocka_unit_test(test_find_and_name),
        cmocka_unit_test(test_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
