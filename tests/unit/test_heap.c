/* SPDX-License-Identifier: MIT */
/*
 * The binary min-heap (model/heap_priv.h): keys pop in order, equal keys
 * pop in the order its comparisons give (derived by hand below; the
 * simulator's results and Dijkstra's choice among equal paths depend on
 * it), the array grows past its first capacity, and a heap made at once
 * from an array pops as one pushed entry by entry would.
 */
#include "cr_test.h"

#include <stdlib.h>

#include "heap_priv.h"

/* Pops every entry of h into ids[] (and keys[] where given). */
static long drain(cr_heap *h, int *ids, double *keys)
{
    long n = 0;
    while (h->n > 0) {
        cr_heap_ent e = cr_heap_pop(h);
        if (keys)
            keys[n] = e.key;
        ids[n++] = e.id;
    }
    return n;
}

static void test_order(void **state)
{
    (void)state;
    const double key[] = {5, 3, 8, 1, 9, 2, 7, 4, 6, 0};
    cr_heap h = {0};
    for (int i = 0; i < 10; i++)
        assert_int_equal(cr_heap_push(&h, key[i], i, 100 + i), 0);
    assert_int_equal(h.n, 10);
    for (int k = 0; k < 10; k++) {
        cr_heap_ent e = cr_heap_pop(&h);
        assert_true(e.key == (double)k);
        assert_true(key[e.id] == e.key); /* id and tag travel with their key */
        assert_int_equal(e.tag, 100 + e.id);
    }
    assert_int_equal(h.n, 0);
    cr_heap_free(&h);
    assert_null(h.e);
}

/* Three equal keys pushed as a, b, c: b and c stay below a (a parent of
 * equal key is not moved), so the heap is [a, b, c]. Popping a moves c to
 * the root; its only child b has an equal key, so c stays: [c, b]. The
 * order is a, c, b (not first in, first out). */
static void test_ties_push(void **state)
{
    (void)state;
    cr_heap h = {0};
    for (int i = 0; i < 3; i++)
        assert_int_equal(cr_heap_push(&h, 1.0, i, 0), 0);
    int ids[3];
    assert_int_equal(drain(&h, ids, NULL), 3);
    assert_int_equal(ids[0], 0);
    assert_int_equal(ids[1], 2);
    assert_int_equal(ids[2], 1);
    cr_heap_free(&h);
}

/* Keys 0, 5, 5, 9 pushed as x, l, r, z stay in place: [x, l, r, z].
 * Popping x moves z to the root; its children l and r have equal keys and
 * the left one is taken (the right only when strictly less): [l, z, r].
 * Popping l moves r to the root, whose child z is larger: [r, z]. */
static void test_ties_children(void **state)
{
    (void)state;
    const double key[] = {0, 5, 5, 9};
    cr_heap h = {0};
    for (int i = 0; i < 4; i++)
        assert_int_equal(cr_heap_push(&h, key[i], i, 0), 0);
    int ids[4];
    assert_int_equal(drain(&h, ids, NULL), 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(ids[i], i);
    cr_heap_free(&h);
}

/* 1000 entries (the first capacity is 16) pushed in falling key order, each
 * one sifting to the root, with every key twice: they pop in rising order. */
static void test_growth(void **state)
{
    (void)state;
    enum { N = 1000 };
    cr_heap h = {0};
    for (int i = 0; i < N; i++)
        assert_int_equal(cr_heap_push(&h, (double)((N - 1 - i) / 2), i, 0), 0);
    assert_int_equal(h.n, N);
    assert_true(h.cap >= N);
    int *ids = malloc(N * sizeof *ids);
    double *keys = malloc(N * sizeof *keys);
    assert_non_null(ids);
    assert_non_null(keys);
    assert_int_equal(drain(&h, ids, keys), N);
    for (int i = 0; i < N; i++) {
        assert_true(keys[i] == (double)(i / 2));
        assert_true(keys[i] == (double)((N - 1 - ids[i]) / 2));
    }
    free(ids);
    free(keys);
    cr_heap_free(&h);
}

/* cr_heap_make on [a, b, c] of equal keys leaves it as is (a parent of
 * equal key is not moved), so cr_heap_take gives a, c, b as pushing did;
 * on falling keys it sorts. */
static void test_make_take(void **state)
{
    (void)state;
    cr_heap_ent e[8];
    for (int i = 0; i < 3; i++)
        e[i] = (cr_heap_ent){1.0, i, 0};
    cr_heap_make(e, 3);
    assert_int_equal(cr_heap_take(e, 3).id, 0);
    assert_int_equal(cr_heap_take(e, 2).id, 2);
    assert_int_equal(cr_heap_take(e, 1).id, 1);

    for (int i = 0; i < 8; i++)
        e[i] = (cr_heap_ent){(double)(8 - i), i, 0};
    cr_heap_make(e, 8);
    for (long n = 8; n > 0; n--) {
        cr_heap_ent top = cr_heap_take(e, n);
        assert_true(top.key == (double)(9 - n));
        assert_int_equal(top.id, (int)n - 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),         cmocka_unit_test(test_ties_push),
        cmocka_unit_test(test_ties_children), cmocka_unit_test(test_growth),
        cmocka_unit_test(test_make_take),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
