/* SPDX-License-Identifier: MIT */
/* Rank sets: every text form, printing back, and each kind of bad input. */
#include "cr_test.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rankset.h"
#include "tests/fuzz/fuzz_rankset.c"

static void test_forms(void **state)
{
    (void)state;
    cr_rankset *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_rankset_parse("all", 16, &s, &d), CR_OK);
    assert_int_equal(s->n, 16);
    assert_int_equal(s->ranks[15], 15);
    cr_rankset_free(s);

    assert_int_equal(cr_rankset_parse("0-7", 16, &s, &d), CR_OK);
    assert_int_equal(s->n, 8);
    assert_int_equal(s->ranks[7], 7);
    cr_rankset_free(s);

    /* one GPU per 8-GPU node of an 8,192-GPU cluster: 1,024 ranks */
    assert_int_equal(cr_rankset_parse("0-8191:8", 8192, &s, &d), CR_OK);
    assert_int_equal(s->n, 1024);
    assert_int_equal(s->ranks[1], 8);
    assert_int_equal(s->ranks[1023], 8184);
    cr_rankset_free(s);

    /* list order is communicator order */
    assert_int_equal(cr_rankset_parse("5,3,0", 8, &s, &d), CR_OK);
    assert_int_equal(s->n, 3);
    assert_int_equal(s->ranks[0], 5);
    assert_int_equal(s->ranks[2], 0);
    assert_int_equal(cr_rankset_index(s, 3), 1);
    assert_int_equal(cr_rankset_index(s, 4), -1);
    cr_rankset_free(s);

    assert_int_equal(cr_rankset_parse("0-3,8-11", 16, &s, &d), CR_OK);
    assert_int_equal(s->n, 8);
    assert_int_equal(s->ranks[4], 8);
    cr_rankset_free(s);

    assert_int_equal(cr_rankset_parse("7", 8, &s, &d), CR_OK);
    assert_int_equal(s->n, 1);
    cr_rankset_free(s);
}

static void roundtrip(const char *spec, int n_gpus, const char *want)
{
    cr_rankset *s = NULL, *s2 = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_rankset_parse(spec, n_gpus, &s, &d), CR_OK);
    char buf[256];
    size_t len = cr_rankset_format(s, n_gpus, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(len, strlen(want));
    assert_int_equal(cr_rankset_parse(buf, n_gpus, &s2, &d), CR_OK);
    assert_int_equal(s2->n, s->n);
    assert_memory_equal(s2->ranks, s->ranks, (size_t)s->n * sizeof *s->ranks);
    cr_rankset_free(s);
    cr_rankset_free(s2);
}

static void test_format(void **state)
{
    (void)state;
    roundtrip("0-7", 8, "all");
    roundtrip("0-7", 16, "0-7");
    roundtrip("0-8191:8", 8192, "0-8184:8");
    roundtrip("0,1", 8, "0-1");
    roundtrip("5,3,0", 8, "5,3,0");
    roundtrip("0,2,4,9", 16, "0-4:2,9");
    /* truncation keeps the full length */
    cr_rankset *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_rankset_parse("1,3,4,7", 8, &s, &d), CR_OK);
    char small[4];
    size_t len = cr_rankset_format(s, 8, small, sizeof small);
    assert_int_equal(len, strlen("1,3-4,7"));
    assert_int_equal(strlen(small), 3);
    cr_rankset_free(s);
}

static void bad(const char *spec, int n_gpus, cr_status want, const char *fragment)
{
    cr_rankset *s = (cr_rankset *)(uintptr_t)1;
    cr_diag d = {{0}};
    assert_int_equal(cr_rankset_parse(spec, n_gpus, &s, &d), want);
    assert_null(s);
    if (!strstr(d.msg, fragment))
        fail_msg("\"%s\": message \"%s\" lacks \"%s\"", spec, d.msg, fragment);
}

static void test_bad(void **state)
{
    (void)state;
    bad("", 8, CR_EPARSE, "empty");
    bad("8", 8, CR_ERANGE, "rank 8 is out of range");
    bad("0-8", 8, CR_ERANGE, "ranks 0-7");
    bad("7-0", 8, CR_ERANGE, "runs backwards");
    bad("0-7:0", 8, CR_ERANGE, "stride 0");
    bad("0,0", 8, CR_EINVAL, "appears twice");
    bad("0-3,2", 8, CR_EINVAL, "appears twice");
    bad("a", 8, CR_EPARSE, "column 1");
    bad("0,", 8, CR_EPARSE, "column 3");
    bad("0 1", 8, CR_EPARSE, "unexpected ' '");
    bad("-1", 8, CR_EPARSE, "expected a rank");
    bad("0-", 8, CR_EPARSE, "end of a range");
    bad("0-7:", 8, CR_EPARSE, "stride");
    bad("99999999999", 8, CR_ERANGE, "too large");
    /* a range's end and a stride alike: "too large", not "expected ..." */
    bad("0-99999999999", 8, CR_ERANGE, "number at column 3 is too large");
    bad("0-7:1000000000000", 8, CR_ERANGE, "number at column 5 is too large");
}

static void test_array(void **state)
{
    (void)state;
    int r[3] = {2, 0, 2};
    cr_rankset *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_rankset_from_array(r, 3, 4, &s, &d), CR_EINVAL);
    assert_null(s);
    r[2] = 1;
    assert_int_equal(cr_rankset_from_array(r, 3, 4, &s, &d), CR_OK);
    cr_rankset *c = cr_rankset_dup(s);
    assert_non_null(c);
    assert_int_equal(c->ranks[0], 2);
    cr_rankset_free(c);
    cr_rankset_free(s);
    cr_rankset_free(NULL);
    assert_null(cr_rankset_all(0));
}

static void test_nccl_dtree(void **state)
{
    (void)state;
    /* ncclGetBtree's illustration for 14 ranks (NVIDIA/nccl
     * src/graph/trees.cc): 0 -> 8; 8 -> 4, 12; 4 -> 2, 6; 12 -> 10, 13;
     * 2 -> 1, 3; 6 -> 5, 7; 10 -> 9, 11. */
    static const int parent14[14] = {-1, 2, 4, 2, 8, 6, 4, 6, 0, 10, 12, 10, 8, 12};
    static const int kids14[14] = {1, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0};
    for (int r = 0; r < 14; r++) {
        int k = -1;
        assert_int_equal(cr_nccl_dtree(14, r, 0, &k), parent14[r]);
        assert_int_equal(k, kids14[r]);
        /* even n: the second tree is the mirror r -> n-1-r */
        int p1 = cr_nccl_dtree(14, r, 1, &k);
        assert_int_equal(p1, parent14[13 - r] < 0 ? -1 : 13 - parent14[13 - r]);
        assert_int_equal(k, kids14[13 - r]);
    }
    /* odd n = 3: tree 0 is the chain 0 -> 2 -> 1, tree 1 shifted by one:
     * 1 -> 0 -> 2 */
    assert_int_equal(cr_nccl_dtree(3, 1, 0, NULL), 2);
    assert_int_equal(cr_nccl_dtree(3, 2, 0, NULL), 0);
    assert_int_equal(cr_nccl_dtree(3, 1, 1, NULL), -1);
    assert_int_equal(cr_nccl_dtree(3, 0, 1, NULL), 1);
    assert_int_equal(cr_nccl_dtree(3, 2, 1, NULL), 0);
    /* a tree other than 0 and 1 is refused, not taken as the mirror */
    int kids = 5;
    assert_int_equal(cr_nccl_dtree(8, 3, 7, &kids), -1);
    assert_int_equal(kids, 0);
    assert_int_equal(cr_nccl_dtree(8, 3, -1, NULL), -1);
    /* n near INT_MAX (QA audit of the API: r - 1 + n and bit << 1
     * overflowed int, and the shifted tree of r = n - 1 came out a root).
     * n = 2^31 - 1 odd, tree 1 shifts by one: rank n - 1 is tree 0's rank
     * n - 2 = 2^31 - 3, lowest set bit 1, whose parent is (r ^ 1) | 2 =
     * 2^31 - 2 < n, a leaf; shifted back, (2^31 - 2 + 1) mod n = 0. Rank
     * 2^30 of tree 0: lowest bit 2^30, (r ^ bit) | 2^31 is not below n, so
     * its parent is r ^ bit = 0; lowbit 2^29 gives down0 and down1 = 2^30 +
     * 2^29 < n: two children. */
    kids = -1;
    assert_int_equal(cr_nccl_dtree(INT_MAX, INT_MAX - 1, 1, &kids), 0);
    assert_int_equal(kids, 0);
    assert_int_equal(cr_nccl_dtree(INT_MAX, 1 << 30, 0, &kids), 0);
    assert_int_equal(kids, 2);
    /* every rank but one root has a parent; no cycles; children counted
     * match the parents pointing at each rank */
    for (int n = 1; n <= 70; n++)
        for (int t = 0; t < 2; t++) {
            int roots = 0;
            for (int r = 0; r < n; r++) {
                int k;
                if (cr_nccl_dtree(n, r, t, &k) < 0)
                    roots++;
                int c = 0;
                for (int q = 0; q < n; q++)
                    c += cr_nccl_dtree(n, q, t, NULL) == r;
                assert_int_equal(c, k);
                int x = r, steps = 0;
                while (x >= 0 && steps <= n) {
                    x = cr_nccl_dtree(n, x, t, NULL);
                    steps++;
                }
                assert_true(steps <= n);
            }
            assert_int_equal(roots, 1);
        }
    assert_int_equal(cr_nccl_dtree(4, 4, 0, NULL), -1); /* out of range */
}

/* Replays tests/fuzz/corpus/rankset/ (every form above, each kind of bad
 * spec, the largest GPU count) through the fuzz target: its properties (a
 * failure says why; ranks distinct and in range; the printed form parses
 * back to the same order) hold on each. */
static void test_fuzz_replay(void **state)
{
    (void)state;
    assert_true(cr_test_replay_dir("tests/fuzz/corpus/rankset", LLVMFuzzerTestOneInput, 300) >= 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nccl_dtree), cmocka_unit_test(test_forms),
        cmocka_unit_test(test_format),     cmocka_unit_test(test_bad),
        cmocka_unit_test(test_array),      cmocka_unit_test(test_fuzz_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
