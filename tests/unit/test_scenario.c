/* SPDX-License-Identifier: MIT */
/*
 * Tests for the scenario loader (model/scenario.c). Its messages are pinned
 * by the golden sim_scenario_* tests; here the fuzz corpus
 * (tests/fuzz/corpus/scenario: seeds, the fixtures, what libFuzzer finds)
 * replays through the fuzz target's properties on every make test.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "cr_test.h"

/* The fuzz target itself: the corpus replay below calls it. */
#include "tests/fuzz/fuzz_scenario.c"

/* Replays every corpus file; at least the 14 seeds committed with it. */
static void test_fuzz_replay(void **state)
{
    (void)state;
    assert_true(cr_test_replay_dir("tests/fuzz/corpus/scenario", LLVMFuzzerTestOneInput, 1 << 20) >=
                14);
}

/* The seeds that should load do: the properties above hold on a real run,
 * not only on refusals. */
static void test_seeds_load(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h100-ib-4n", &t, &d), CR_OK);
    const char *ok[] = {"tp-dp.xml",       "moe-hot.xml", "compute-after.xml",
                        "alltoallv-2.xml", "rooted.xml",  "zero-bytes.xml"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fuzz/corpus/scenario/%s", ok[i]);
        cr_sim *s = NULL;
        if (cr_scenario_load_file(path, t, &s, &d) != CR_OK)
            fail_msg("%s", d.msg);
        assert_int_equal(cr_sim_run(s, &d), CR_OK);
        cr_sim_free(s);
    }
    cr_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_replay),
        cmocka_unit_test(test_seeds_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
