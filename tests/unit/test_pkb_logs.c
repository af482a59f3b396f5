/* SPDX-License-Identifier: MIT */
/*
 * ParallelKernelBench per-rank timings (model/pkb_logs.h): the slowest
 * rank's mean from a backend folder, the three levels a logs tree is given
 * at, missing ranks, and every malformed file refused with its file:line.
 * The times are tests/fixtures/pkb's, written by hand (its README lists
 * them): the expected maxima are read off those files, not from a run.
 */
#include "cr_test.h"

#include <string.h>

#include "pkb_logs.h"
#include "pkb_logs_priv.h"

#include "tests/fuzz/fuzz_pkb_logs.c"

#define FIX "tests/fixtures/pkb/"

static void test_backend(void **state)
{
    (void)state;
    cr_pkb_logs_times t;
    cr_diag d = {{0}};
    assert_int_equal(cr_pkb_logs_read_backend(FIX "logs/problem_1_allreduce/reference", &t, &d),
                     CR_OK);
    assert_int_equal(t.n_files, 8);
    assert_int_equal(t.n_ranks, 8);
    assert_int_equal(t.n_missing, 0);
    /* rank 6's 0.0461 ms is the largest of the eight */
    assert_int_equal(t.slowest_rank, 6);
    assert_close(t.wall_s, 46.1e-6, 1e-12, 0);
    /* rank_0.pt and traces/ beside the perf files are not read */
    assert_int_equal(cr_pkb_logs_read_backend(FIX "logs/problem_1_allreduce/cuda", &t, &d), CR_OK);
    assert_int_equal(t.n_files, 8);
    assert_close(t.wall_s, 12.5e-6, 1e-12, 0);
    assert_int_equal(t.slowest_rank, 2);
}

static void test_missing_rank(void **state)
{
    (void)state;
    cr_pkb_logs_times t;
    cr_diag d = {{0}};
    assert_int_equal(cr_pkb_logs_read_backend(FIX "missing_rank/problem_1_allreduce/cuda", &t, &d),
                     CR_OK);
    assert_int_equal(t.n_files, 7);
    assert_int_equal(t.n_ranks, 8);
    assert_int_equal(t.n_missing, 1);
    assert_int_equal(t.present[5], 0);
    assert_int_equal(t.present[4], 1);
}

static void test_scan_levels(void **state)
{
    (void)state;
    cr_pkb_logs_run *r = NULL;
    int n = 0;
    cr_diag d = {{0}};
    /* the logs folder: every problem and backend, by id (9 before 13, not
     * as the names sort) then backend */
    assert_int_equal(cr_pkb_logs_scan(FIX "logs", &r, &n, &d), CR_OK);
    assert_int_equal(n, 5);
    static const char *const stem[] = {"1_allreduce", "1_allreduce", "9_layernorm_backward",
                                       "13_gemm_allreduce", "13_gemm_allreduce"};
    static const char *const be[] = {"cuda", "reference", "reference", "cuda", "reference"};
    static const int id[] = {1, 1, 9, 13, 13};
    for (int i = 0; i < n; i++) {
        assert_string_equal(r[i].stem, stem[i]);
        assert_string_equal(r[i].backend, be[i]);
        assert_int_equal(r[i].id, id[i]);
        assert_int_equal(r[i].times.n_files, 8);
    }
    /* 13's cuda: 0.0021 ms on rank 2 */
    assert_close(r[3].times.wall_s, 2.1e-6, 1e-12, 0);
    cr_pkb_logs_free(r, n);
    /* one problem folder, with a trailing slash */
    assert_int_equal(cr_pkb_logs_scan(FIX "logs/problem_13_gemm_allreduce/", &r, &n, &d), CR_OK);
    assert_int_equal(n, 2);
    assert_string_equal(r[0].stem, "13_gemm_allreduce");
    cr_pkb_logs_free(r, n);
    /* one backend folder: the problem is its parent's name */
    assert_int_equal(
        cr_pkb_logs_scan(FIX "logs/problem_9_layernorm_backward/reference", &r, &n, &d), CR_OK);
    assert_int_equal(n, 1);
    assert_string_equal(r[0].stem, "9_layernorm_backward");
    assert_string_equal(r[0].backend, "reference");
    assert_int_equal(r[0].id, 9);
    cr_pkb_logs_free(r, n);
    cr_pkb_logs_free(NULL, 0);
}

static void expect_backend(const char *dir, cr_status want, const char *msg)
{
    cr_pkb_logs_times t;
    cr_diag d = {{0}};
    cr_status st = cr_pkb_logs_read_backend(dir, &t, &d);
    if (st != want)
        fail_msg("%s: status %d (%s), expected %d", dir, st, d.msg, want);
    assert_string_equal(d.msg, msg);
}

static void test_bad_files(void **state)
{
    (void)state;
    expect_backend(FIX "bad/no_wall", CR_EPARSE,
                   FIX "bad/no_wall/rank_0_perf.json:1: no \"wall_time_ms\": a rank_<r>_perf.json "
                       "gives the rank's mean time per iteration in milliseconds there "
                       "(utils/performance.py; run PKB with --measure-perf)");
    expect_backend(FIX "bad/zero", CR_EPARSE,
                   FIX "bad/zero/rank_0_perf.json:3: \"wall_time_ms\" is 0: a time must be a "
                       "finite number of milliseconds above zero (a zero time means the rank's "
                       "timing failed; rerun it)");
    expect_backend(FIX "bad/negative", CR_EPARSE,
                   FIX "bad/negative/rank_0_perf.json:3: \"min_time_ms\" is -0.002: a time must "
                       "be a finite number of milliseconds above zero");
    expect_backend(FIX "bad/string", CR_EPARSE,
                   FIX "bad/string/rank_0_perf.json:2: \"wall_time_ms\" is not a number: it "
                       "should be a time in milliseconds (e.g. 0.0451)");
    expect_backend(FIX "bad/array", CR_EPARSE,
                   FIX "bad/array/rank_0_perf.json:1: not a JSON object: a rank_<r>_perf.json is "
                       "one object with \"wall_time_ms\" (utils/performance.py)");
    expect_backend(FIX "bad/two_files_one_rank", CR_EDUPLICATE,
                   FIX "bad/two_files_one_rank: rank_07_perf.json and rank_7_perf.json are both "
                       "rank 7: keep one file a rank");
    expect_backend(FIX "bad/not_in_problem", CR_ENOTFOUND,
                   FIX "bad/not_in_problem: no rank_<r>_perf.json: give a folder a "
                       "ParallelKernelBench run with --measure-perf wrote "
                       "(logs/problem_<stem>/<backend>)");
    /* jansson's own words after its line and column */
    cr_pkb_logs_times t;
    cr_diag d = {{0}};
    assert_int_equal(cr_pkb_logs_read_backend(FIX "bad/nan", &t, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, FIX "bad/nan/rank_0_perf.json:2:"));
    assert_non_null(strstr(d.msg, "NaN and Infinity are not JSON and not a time"));
    d = (cr_diag){{0}}; /* a diagnostic keeps its first message */
    assert_int_equal(cr_pkb_logs_read_backend(FIX "bad/duplicate", &t, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, FIX "bad/duplicate/rank_0_perf.json:3:"));
    assert_non_null(strstr(d.msg, "duplicate object key"));
    /* a file cut off while written: the whole tree fails on it */
    cr_pkb_logs_run *r = NULL;
    int n = -1;
    d = (cr_diag){{0}};
    assert_int_equal(cr_pkb_logs_scan(FIX "malformed", &r, &n, &d), CR_EPARSE);
    assert_null(r);
    assert_int_equal(n, 0);
    assert_non_null(strstr(d.msg, FIX "malformed/problem_1_allreduce/cuda/rank_3_perf.json:5:"));
    /* a backend folder outside problem_<stem>, and no logs at all */
    assert_int_equal(cr_pkb_logs_scan(FIX "bad/not_in_problem/cuda", &r, &n, &d), CR_EINVAL);
    /* a tree whose rank files are all off the layout (bad/duplicate ...):
     * an error naming one, not "no logs" */
    d = (cr_diag){{0}};
    assert_int_equal(cr_pkb_logs_scan(FIX "bad", &r, &n, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "off PKB's layout"));
    assert_int_equal(cr_pkb_logs_scan(FIX "no-such-folder", &r, &n, &d), CR_ENOTFOUND);
}

/* One file's parser: a NUL inside the file is refused (jansson read the
 * text up to it and took the object before it), and the fuzz corpus
 * replays through the fuzz target. */
static void test_perf_parse(void **state)
{
    (void)state;
    static const char nul[] = "{\"wall_time_ms\": 0.05}\0{\"x\": 1}";
    double wall_s = 0;
    cr_diag d = {{0}};
    assert_int_equal(cr_pkb_perf_parse(nul, sizeof nul - 1, "r.json", &wall_s, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, "r.json:1:"));
    static const char ok[] = "{\"wall_time_ms\": 0.05, \"wall_time_std_ms\": 0}";
    assert_int_equal(cr_pkb_perf_parse(ok, sizeof ok - 1, "r.json", &wall_s, &d), CR_OK);
    assert_close(wall_s, 50e-6, 1e-15, 0);
    assert_true(cr_test_replay_dir("tests/fuzz/corpus/pkb_logs", LLVMFuzzerTestOneInput, 4096) >=
                8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backend),     cmocka_unit_test(test_missing_rank),
        cmocka_unit_test(test_scan_levels), cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_perf_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
