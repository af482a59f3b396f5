/* SPDX-License-Identifier: MIT */
/*
 * The edit distance (model/strdist_priv.h), on cases worked by hand: kitten
 * to sitting is 3 (k->s, e->i, insert g), a swap of two letters 2, the
 * empty string the other's length, and the cap and the 63-byte limit.
 */
#include "cr_test.h"

#include <string.h>

#include "strdist_priv.h"

static void test_distances(void **state)
{
    (void)state;
    assert_int_equal(cr_edit_distance("kitten", "sitting", 64), 3);
    assert_int_equal(cr_edit_distance("sitting", "kitten", 64), 3);
    assert_int_equal(cr_edit_distance("coll.eff.simpel", "coll.eff.simple", 64), 2);
    assert_int_equal(cr_edit_distance("", "abc", 64), 3);
    assert_int_equal(cr_edit_distance("same", "same", 64), 0);
    assert_int_equal(cr_edit_distance("measured_u", "measured_us", 64), 1);
    /* at most cap */
    assert_int_equal(cr_edit_distance("abcdefgh", "zyxwvuts", 4), 4);
    /* a string over 63 bytes is never near */
    char longer[80];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    assert_int_equal(cr_edit_distance(longer, longer, 9), 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
