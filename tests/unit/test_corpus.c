/* SPDX-License-Identifier: MIT */
/*
 * The measurement corpus's figures and gate (validate/corpus.c): the
 * statistics of a half and band, every system alike or every row alike,
 * on a corpus built by hand (expected values derived in the comments), the
 * gate reader's lines, and the fuzz corpus of the gate reader replayed
 * through its target. Reading and evaluating a corpus folder is covered by
 * tests/check_corpus.sh and the golden validate_corpus_* cases.
 */
#include "cr_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "validate/corpus.h"

#include "tests/fuzz/fuzz_corpus_gate.c"

/* Three systems of the fitting half, every row up to 1 MiB:
 *   a: |error| 10, 20, 30 %   (median 20)
 *   b: 5 %                    (median 5)
 *   c: 40, 60 %               (median 50)
 * and one row of system a in the checking half (80 %). */
static void hand_corpus(cr_corpus *c, cr_corpus_log logs[3], cr_corpus_row rows[7],
                        char *systems[3])
{
    static char name[3][2] = {"a", "b", "c"};
    static const int log_of[7] = {0, 0, 0, 1, 2, 2, 0};
    static const double err[7] = {10, -20, 30, 5, -40, 60, 80};
    memset(logs, 0, 3 * sizeof *logs);
    for (int i = 0; i < 3; i++) {
        snprintf(logs[i].system, sizeof logs[i].system, "%s", name[i]);
        logs[i].half = CR_CORPUS_FIT;
        logs[i].status = CR_CORPUS_LOG_OK;
        systems[i] = name[i];
    }
    for (int i = 0; i < 7; i++)
        rows[i] = (cr_corpus_row){.log = log_of[i],
                                  .half = i == 6 ? CR_CORPUS_CHECK : CR_CORPUS_FIT,
                                  .bytes = 1024,
                                  .measured_s = 1e-5,
                                  .has_pred = true,
                                  .pred_s = 1e-5 * (1 + err[i] / 100),
                                  .error_pct = err[i]};
    *c = (cr_corpus){
        .logs = logs, .n_logs = 3, .rows = rows, .n_rows = 7, .systems = systems, .n_systems = 3};
}

/* The rows' median over the fitting half's six rows (5 10 20 30 40 60):
 * (20 + 30) / 2 = 25. Every system alike: the median of 5, 20, 50 is 20, the
 * p90 at position 0.9 x 2 = 1.8: 20 + 0.8 x 30 = 44. A limit of 20 holds the
 * systems' median, 19.9 does not; the checking half's one system: 80. */
static void test_gate_by_system(void **state)
{
    (void)state;
    cr_corpus c;
    cr_corpus_log logs[3];
    cr_corpus_row rows[7];
    char *systems[3];
    hand_corpus(&c, logs, rows, systems);
    cr_corpus_gate g[5] = {
        {.half = CR_CORPUS_FIT, .band = CR_CORPUS_BAND_ALL, .limit_pct = 25},
        {.half = CR_CORPUS_FIT, .band = CR_CORPUS_BAND_SMALL, .by_system = true, .limit_pct = 20},
        {.half = CR_CORPUS_FIT, .band = CR_CORPUS_BAND_ALL, .by_system = true, .limit_pct = 19.9},
        {.half = CR_CORPUS_FIT,
         .band = CR_CORPUS_BAND_ALL,
         .by_system = true,
         .p90 = true,
         .limit_pct = 50},
        {.half = CR_CORPUS_CHECK, .band = CR_CORPUS_BAND_ALL, .by_system = true, .limit_pct = 90},
    };
    assert_int_equal(cr_corpus_gate_eval(&c, g, 5), CR_OK);
    assert_close(g[0].got_pct, 25, 1e-12, 0);
    assert_true(g[0].pass);
    assert_close(g[1].got_pct, 20, 1e-12, 0);
    assert_true(g[1].pass);
    assert_close(g[2].got_pct, 20, 1e-12, 0);
    assert_false(g[2].pass);
    assert_close(g[3].got_pct, 44, 1e-12, 0);
    assert_true(g[3].pass);
    assert_close(g[4].got_pct, 80, 1e-12, 0);
    assert_true(g[4].pass);
    /* a band where no system has a row cannot show it holds */
    cr_corpus_gate big = {
        .half = CR_CORPUS_FIT, .band = CR_CORPUS_BAND_LARGE, .by_system = true, .limit_pct = 100};
    assert_int_equal(cr_corpus_gate_eval(&c, &big, 1), CR_OK);
    assert_true(isnan(big.got_pct));
    assert_false(big.pass);
}

/* A gate file of the four statistics, with comments and a blank line. */
static void test_gate_read(void **state)
{
    (void)state;
    char path[] = "/tmp/cr-test-gate.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("# gate\n"
          "fit all median 17.9 target 10   # note\n"
          "\n"
          "check <=1MiB p90 60\n"
          "fit 1-64MiB systems-median 16.4\n"
          "check >64MiB systems-p90 30 target 25\n",
          f);
    fclose(f);
    cr_corpus_gate *g = NULL;
    int n = 0;
    cr_diag d = {{0}};
    assert_int_equal(cr_corpus_gate_read(path, &g, &n, &d), CR_OK);
    unlink(path);
    assert_int_equal(n, 4);
    assert_int_equal(g[0].line, 2);
    assert_false(g[0].by_system);
    assert_false(g[0].p90);
    assert_close(g[0].target_pct, 10, 0, 1e-12);
    assert_int_equal(g[1].line, 4);
    assert_true(g[1].p90);
    assert_int_equal(g[1].band, CR_CORPUS_BAND_SMALL);
    assert_true(isnan(g[1].target_pct));
    assert_int_equal(g[2].line, 5);
    assert_true(g[2].by_system);
    assert_false(g[2].p90);
    assert_int_equal(g[2].band, CR_CORPUS_BAND_MID);
    assert_close(g[2].limit_pct, 16.4, 0, 1e-12);
    assert_int_equal(g[3].half, CR_CORPUS_CHECK);
    assert_true(g[3].by_system);
    assert_true(g[3].p90);
    free(g);
}

/* Every seed and finding of the gate reader's fuzz target (it aborts on a
 * broken property). */
static void test_fuzz_replay(void **state)
{
    (void)state;
    int n = cr_test_replay_dir("tests/fuzz/corpus/corpus_gate", LLVMFuzzerTestOneInput, 4096);
    assert_true(n >= 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gate_by_system),
        cmocka_unit_test(test_gate_read),
        cmocka_unit_test(test_fuzz_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
