/* SPDX-License-Identifier: MIT */
/*
 * The laws every collective bound and prediction keep (tests/fuzz/
 * fuzz_coll_laws.c, coll_laws_series, lists them) on every shipped
 * topology, at sizes 0, 1 and x4 apart up to 1.1 TB: the full rank set; 5
 * ranks (not a power of two); where there are nodes, one GPU per node and
 * an uneven 3 + 2 over two nodes. The simulator's law (coll_laws_sim: a
 * simulated collective is never faster than its bound) on the same
 * topologies. Then the fuzz corpus (tests/fuzz/corpus/
 * coll_laws: seeds and what libFuzzer found) replays through the fuzz
 * target, which holds any topology that loads to the same laws.
 */
#include "cr_test.h"
#include "cr_test_topo.h"

#include "tests/fuzz/fuzz_coll_laws.c"

static void test_shipped_laws(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; cr_topo_shipped_name(i); i++) {
        const char *name = cr_topo_shipped_name(i);
        cr_topo *t = cr_test_open_topo(name);
        const char *sets[4] = {NULL, NULL, NULL, NULL};
        char stride[32];
        int nsets = 1;
        if (t->n_gpus >= 8)
            sets[nsets++] = "0-4";
        if (t->n_gpus >= 16 && t->n_gpus % 8 == 0) {
            snprintf(stride, sizeof stride, "0-%d:8", t->n_gpus - 1);
            sets[nsets++] = stride;
            sets[nsets++] = "0-2,8-9";
        }
        for (int s = 0; s < nsets; s++) {
            cr_coll_ctx *c = cr_test_coll_ctx(t, sets[s]);
            char why[512];
            int refused = 0;
            /* a shipped machine is refused nothing */
            if (coll_laws_all(c, 4, &checked, &refused, why, sizeof why) != LAWS_KEPT ||
                refused > 0)
                fail_msg("%s, ranks %s: %s", name, sets[s] ? sets[s] : "all", why);
            cr_coll_ctx_free(c);
        }
        cr_topo_free(t);
    }
    assert_true(checked > 1000);
}

/* The simulator's law (coll_laws_sim: never faster than the bound) on
 * every shipped topology. Clusters of more than 64 GPUs are cut to their
 * first 64 and, from 512 GPUs, to one GPU on each of 64 nodes (0-511:8),
 * which keeps the all-to-alls at 4,032 flows; GB200 NVL72 runs its first
 * 64 and all 72. */
static void test_shipped_sim_laws(void **state)
{
    (void)state;
    int checked = 0, topos = 0;
    for (int i = 0; cr_topo_shipped_name(i); i++) {
        cr_topo *t = cr_test_open_topo(cr_topo_shipped_name(i));
        const char *sets[2] = {NULL, NULL};
        int nsets = 1;
        if (t->n_gpus > 64) {
            sets[0] = "0-63";
            sets[nsets++] = t->n_gpus >= 512 ? "0-511:8" : NULL;
        }
        topos++;
        for (int k = 0; k < nsets; k++) {
            cr_coll_ctx *c = cr_test_coll_ctx(t, sets[k]);
            char why[512];
            if (coll_laws_sim(t, c, &checked, why, sizeof why) != LAWS_KEPT)
                fail_msg("%s, ranks %s: %s", t->name, sets[k] ? sets[k] : "all", why);
            cr_coll_ctx_free(c);
        }
        cr_topo_free(t);
    }
    print_message("the simulator never below the bound: %d cases on %d shipped topologies\n",
                  checked, topos);
    assert_true(topos >= 10);
    assert_true(checked > 300);
}

static void test_fuzz_replay(void **state)
{
    (void)state;
    assert_true(
        cr_test_replay_dir("tests/fuzz/corpus/coll_laws", LLVMFuzzerTestOneInput, 1 << 20) >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_laws),
        cmocka_unit_test(test_shipped_sim_laws),
        cmocka_unit_test(test_fuzz_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
