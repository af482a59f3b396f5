/* SPDX-License-Identifier: MIT */
/*
 * cr_cmp_double and cr_median (model/stats.h): ascending order whatever
 * the input order (equal values, negatives, infinities), and the median's
 * definition: the middle value, the mean of the two middle ones for an
 * even count, 0 for none.
 */
#include "cr_test.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

static void test_order(void **state)
{
    (void)state;
    double v[] = {3.0, -1.5, INFINITY, 0.0, 3.0, -INFINITY, 2.25};
    size_t n = sizeof v / sizeof v[0];
    qsort(v, n, sizeof *v, cr_cmp_double);
    const double want[] = {-INFINITY, -1.5, 0.0, 2.25, 3.0, 3.0, INFINITY};
    for (size_t i = 0; i < n; i++)
        assert_true(v[i] == want[i]);
    double a = 1.0, b = 1.0, c = 2.0;
    assert_int_equal(cr_cmp_double(&a, &b), 0);
    assert_int_equal(cr_cmp_double(&a, &c), -1);
    assert_int_equal(cr_cmp_double(&c, &a), 1);
}

static void test_median(void **state)
{
    (void)state;
    double odd[] = {9.0, 1.0, 5.0};
    assert_true(cr_median(odd, 3) == 5.0);
    assert_true(odd[0] == 1.0 && odd[2] == 9.0); /* sorted in place */
    double even[] = {4.0, 1.0, 10.0, 2.0};
    assert_true(cr_median(even, 4) == 3.0); /* (2 + 4) / 2 */
    double one[] = {-7.5};
    assert_true(cr_median(one, 1) == -7.5);
    assert_true(cr_median(NULL, 0) == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
