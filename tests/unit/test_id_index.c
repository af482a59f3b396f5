/* SPDX-License-Identifier: MIT */
/*
 * cr_id_index (model/id_index_priv.h): every record indexed is found by its
 * id and an absent id is not, through the growths from empty (64 slots, then
 * doubling at half full), with the records moved between additions as an
 * array that grows does; and the index stays at most half full.
 */
#include "cr_test.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "id_index_priv.h"

struct rec {
    int payload;
    char *id;
};

static void test_find_through_growth(void **state)
{
    (void)state;
    enum { N = 5000 };
    struct rec *v = NULL;
    cr_id_index x = {0};
    assert_int_equal(cr_id_index_find(&x, v, sizeof *v, offsetof(struct rec, id), "a"), -1);
    for (int i = 0; i < N; i++) {
        /* a fresh array each time: the index keeps positions, not pointers */
        struct rec *w = realloc(v, (size_t)(i + 1) * sizeof *w);
        assert_non_null(w);
        v = w;
        char buf[32];
        snprintf(buf, sizeof buf, "gpu%d", i);
        v[i].payload = i * 7;
        v[i].id = strdup(buf);
        assert_int_equal(cr_id_index_add(&x, v, sizeof *v, offsetof(struct rec, id), i + 1, i), 0);
        assert_true(x.n_slots >= (size_t)(i + 1) * 2);
    }
    for (int i = 0; i < N; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "gpu%d", i);
        int k = cr_id_index_find(&x, v, sizeof *v, offsetof(struct rec, id), buf);
        assert_int_equal(k, i);
        assert_int_equal(v[k].payload, i * 7);
    }
    assert_int_equal(cr_id_index_find(&x, v, sizeof *v, offsetof(struct rec, id), "gpu5000"), -1);
    assert_int_equal(cr_id_index_find(&x, v, sizeof *v, offsetof(struct rec, id), ""), -1);
    for (int i = 0; i < N; i++)
        free(v[i].id);
    free(v);
    cr_id_index_free(&x);
    assert_null(x.slots);
    assert_int_equal(x.n_slots, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_through_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
