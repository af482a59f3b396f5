/* SPDX-License-Identifier: MIT */
/*
 * read_trace: measurements from synthetic traces (expected times derived by
 * hand from the event times written below), a bad trace, and a folder of
 * traces read as validate, plot and calibrate read one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cr_test.h"
#include "cr_test_trace.h"
#include "validate/validate.h"

/* Writes text to a temporary trace and reads it: its cases into *l, the
 * first skip reason into why, the skipped ranges returned; *path (unlink
 * and free it) is the file the messages name. */
static int read_text(const char *text, cr_vmeas_list *l, char *why, size_t n, char **path)
{
    *path = cr_test_write_tmp(text, ".json");
    int skipped = 0;
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_read_trace(*path, l, &skipped, why, n, &d), CR_OK);
    return skipped;
}

static void test_trace_measure(void **state)
{
    (void)state;
    /* Range A: 3 iterations of one kernel each, durations 500, 510, 520 us:
     * the median device time per iteration is 510 us.
     * Range B: 2 iterations of 2 kernels on device 0 plus 2 on device 1, a
     * collective on two GPUs, so timed from the last GPU's start: iteration
     * 0 from max(2000, 2001) to max(2010, 2012) = 11 us, iteration 1 from
     * max(2020, 2022) to max(2035, 2040) = 18 us; the median of {11, 18} is
     * 14.5 us. From the first GPU's start (first_start_s): 12 and 20 us,
     * median 16 us.
     * Range C: 5 kernels for iters=3 cannot be split: skipped.
     * Range D: no activities, 400 us over iters=4: 100 us, host-timed.
     * A kernel of another process (pid 200) inside range A is not counted. */
    const char *text = HDR R("cr:hbm op=copy bytes=1073741824 iters=3 rd_bytes=1073741824 "
                             "wr_bytes=1073741824 flops=0",
                             0, 1900) K(0, 10, 500) K(0, 600, 510)
        K(0, 1200, 520) "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"other\",\"pid\":200,\"tid\":7,"
                        "\"ts\":700,"
                        "\"dur\":5,\"args\":{\"device\":0}},\n" R(
                            "cr:nccl coll=allreduce bytes=4096 nranks=2 "
                            "iters=2",
                            1999, 100) K(0, 2000, 5) K(0, 2006, 4) K(1, 2001, 11) K(1, 2003, 9)
                            K(0, 2020, 5) K(0, 2030, 5) K(1, 2022, 18) K(1, 2025, 10)
                                R("cr:gemm dtype=bf16 m=8 n=8 k=8 iters=3 flops=1024", 3000, 100)
                                    K(0, 3001, 1) K(0, 3010, 1) K(0, 3020, 1) K(0, 3030, 1)
                                        K(0, 3040, 1) R("cr:launch kind=event iters=4", 4000, 400)
                                            END;
    char *path = NULL, why[256] = "";
    cr_vmeas_list l = {0};
    int skipped = read_text(text, &l, why, sizeof why, &path);
    assert_int_equal(l.n, 3);
    assert_int_equal(skipped, 1);
    assert_non_null(strstr(why, "do not split into iters=3 groups"));
    assert_int_equal(l.v[0].c.family, CR_VFAM_HBM);
    assert_close(l.v[0].measured_s, 510e-6, 1e-9, 0);
    assert_int_equal(l.v[0].activities, 3);
    assert_string_equal(l.v[0].label, "copy 1GiB");
    assert_int_equal(l.v[1].c.family, CR_VFAM_NCCL);
    assert_close(l.v[1].measured_s, 14.5e-6, 1e-9, 0);
    assert_close(l.v[1].first_start_s, 16e-6, 1e-9, 0);
    assert_int_equal(l.v[1].devices, 2);
    assert_int_equal(l.v[2].c.family, CR_VFAM_LAUNCH);
    assert_true(l.v[2].host_timed);
    assert_close(l.v[2].measured_s, 100e-6, 1e-9, 0);
    cr_vmeas_list_release(&l);
    unlink(path);
    free(path);
}

/* A range that closes before its kernels end (no device synchronize before
 * the pop): 2 iterations of 2 kernels of 120 us each, [110, 230] [230, 350]
 * [350, 470] [470, 590], the range [100, 300]. Two kernels start inside it,
 * which divides into iters=2 as 1 kernel per iteration: 120 us, under the
 * bound of a 1 GiB read (210.6 us on h200-1) though each iteration took
 * 240 us. The kernel [230, 350] ends 50 us after the range: skipped, not
 * measured. Nested ranges ([1000, 3000] holding [1100, 1600]) would both
 * claim the kernel at 1200: both skipped. A range after them ([4000, 4500],
 * one kernel of 300 us) is measured as before. */
static void test_trace_range_bounds(void **state)
{
    (void)state;
    const char *text =
        HDR R("cr:hbm op=read bytes=1073741824 iters=2 rd_bytes=1073741824 wr_bytes=0", 100,
              200) K(0, 110, 120) K(0, 230, 120) K(0, 350, 120) K(0, 470, 120)
            R("cr:hbm op=read bytes=1073741824 iters=2 rd_bytes=1073741824 wr_bytes=0", 1000, 2000)
                R("cr:hbm op=read bytes=1073741824 iters=1 rd_bytes=1073741824 wr_bytes=0", 1100,
                  500) K(0, 1200, 300) K(0, 2000, 300)
                    R("cr:hbm op=read bytes=1073741824 iters=1 rd_bytes=1073741824 wr_bytes=0",
                      4000, 500) K(0, 4100, 300) END;
    char *path = NULL, why[256] = "";
    cr_vmeas_list l = {0};
    int skipped = read_text(text, &l, why, sizeof why, &path);
    assert_int_equal(skipped, 3);
    assert_non_null(strstr(why, "ends 50.000 us after the range closes"));
    assert_int_equal(l.n, 1);
    assert_close(l.v[0].measured_s, 300e-6, 1e-9, 0);
    cr_vmeas_list_release(&l);
    unlink(path);
    free(path);
}

static void test_trace_errors(void **state)
{
    (void)state;
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_read_trace("/nonexistent/x.json", &l, NULL, NULL, 0, &d), CR_EIO);
    char *path = cr_test_write_tmp(
        "{\"traceEvents\":[\n{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":\"no\"}\n]}", ".json");
    memset(&d, 0, sizeof d);
    assert_int_not_equal(cr_validate_read_trace(path, &l, NULL, NULL, 0, &d), CR_OK);
    assert_true(d.msg[0] != 0);
    assert_int_equal(l.n, 0);
    cr_vmeas_list_release(&l);
    unlink(path);
    free(path);
}

/* A folder: its traces are read in name order (.json and .json.gz); another
 * tool's JSON beside them is left out and counted with the reader's
 * message; a trace cut before its closing bracket is read and counted as
 * incomplete. A file named directly must be a trace. */
static void test_read_path(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_validate_dir_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[128], b[128], c[128], e[128];
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b-measured.json", dir);
    snprintf(c, sizeof c, "%s/c.json", dir);
    snprintf(e, sizeof e, "%s/notes.txt", dir);
    const char *whole = HDR R("cr:hbm op=read bytes=1048576 iters=1 rd_bytes=1048576 wr_bytes=0 "
                              "flops=0",
                              0, 100) K(0, 10, 5) END;
    /* cut after the second event: no closing bracket */
    const char *cut = HDR R("cr:hbm op=write bytes=1048576 iters=1 rd_bytes=0 wr_bytes=1048576 "
                            "flops=0",
                            0, 100) K(0, 10, 7) "{\"ph\":\"X\",\"cat\":\"ker";
    const char *other = "[{\"name\": \"ag_gemm baseline\", \"measured_us\": 76.2}]\n";
    const char *files[4][2] = {{a, whole}, {b, other}, {c, cut}, {e, "not json"}};
    for (int i = 0; i < 4; i++) {
        FILE *f = fopen(files[i][0], "w");
        assert_non_null(f);
        fputs(files[i][1], f);
        fclose(f);
    }
    cr_vmeas_list l = {0};
    cr_vread_info ri = {0};
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_read_path(dir, &l, &ri, &d), CR_OK);
    assert_int_equal(l.n, 2);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "op"), "read"); /* a.json first */
    /* iters=1: the kernel's 5 us of device time, not the range's 100 us */
    assert_close(l.v[0].measured_s, 5e-6, 1e-12, 0);
    assert_string_equal(cr_vcase_get(&l.v[1].c, "op"), "write");
    assert_close(l.v[1].measured_s, 7e-6, 1e-12, 0);
    assert_int_equal(ri.files, 2);
    assert_int_equal(ri.not_traces, 1);
    assert_non_null(strstr(ri.not_trace_why, "b-measured.json"));
    assert_int_equal(ri.incomplete, 1);
    assert_non_null(strstr(ri.incomplete_path, "c.json"));
    cr_vmeas_list_release(&l);
    /* named directly, the other tool's file is an error */
    memset(&ri, 0, sizeof ri);
    assert_int_not_equal(cr_validate_read_path(b, &l, &ri, &d), CR_OK);
    assert_non_null(strstr(d.msg, "b-measured.json"));
    assert_int_equal(l.n, 0);
    for (int i = 0; i < 4; i++)
        unlink(files[i][0]);
    /* an empty folder is an error */
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_validate_read_path(dir, &l, &ri, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "no trace file"));
    rmdir(dir);
    cr_vmeas_list_release(&l);
}

/* Counts must be whole: iters=2.5 over 2 kernels of 300 us was split into
 * 2 iterations (300 us each) while a host-timed range divided by 2.5;
 * nranks=1.5 was predicted for 1 GPU with activities on 2; m=64.5 was a
 * GEMM. Each range is skipped, named with its file and key; the good one
 * after them is measured. */
static void test_trace_whole_numbers(void **state)
{
    (void)state;
    const char *text =
        HDR R("cr:hbm op=read bytes=1073741824 iters=2.5 rd_bytes=1073741824 wr_bytes=0 flops=0",
              100, 1000) K(0, 110, 300) K(0, 500, 300)
            R("cr:nccl coll=allreduce bytes=1024 nranks=1.5 iters=1", 2000, 100) K(0, 2010, 5) K(
                1, 2011, 5) R("cr:gemm dtype=bf16 m=64.5 n=8192 k=8192 iters=1 flops=1", 3000, 100)
                K(0, 3010, 20) R("cr:launch kind=graph nodes=abc iters=2", 4000, 100) K(0, 4010, 1)
                    K(0, 4020, 1)
                        R("cr:hbm op=read bytes=1048576 iters=2 rd_bytes=1048576 wr_bytes=0 "
                          "flops=0",
                          5000, 100) K(0, 5010, 3) K(0, 5020, 5) END;
    char *path = NULL, why[256] = "";
    cr_vmeas_list l = {0};
    int skipped = read_text(text, &l, why, sizeof why, &path);
    assert_int_equal(skipped, 4);
    assert_non_null(strstr(why, "iters=2.5: not a whole number"));
    const char *base = strrchr(path, '/');
    assert_non_null(strstr(why, base ? base + 1 : path));
    assert_int_equal(l.n, 1);
    assert_close(l.v[0].measured_s, 4e-6, 1e-9, 0); /* median of 3 and 5 us */
    cr_vmeas_list_release(&l);
    unlink(path);
    free(path);
}

/* Which skipped ranges are calls of a catalog operator (roofline reads
 * those, validate does not), kept as counts and the first reason among
 * the others, not read back
 * from the reason's words: a crbench case of the gemm family (iters=)
 * that cannot be split is validate's own skip although "gemm" names a
 * catalog operator too. */
static void test_trace_skipped_catalog(void **state)
{
    (void)state;
    /* a gemm call (no iters), an elementwise call (no crbench family,
     * iters= or not) and a range of neither */
    const char *calls = HDR R("cr:gemm dtype=bf16 m=8 n=8 k=8", 0, 100) K(0, 10, 5)
        R("cr:elementwise elems=16 iters=1", 200, 100) K(0, 210, 5)
            R("cr:warp_shuffle n=5", 400, 100) K(0, 410, 5) END;
    /* the gemm case of 5 kernels for iters=3 first, then a call */
    const char *unsplit = HDR R("cr:gemm dtype=bf16 m=8 n=8 k=8 iters=3 flops=1024", 0, 100)
        K(0, 1, 1) K(0, 10, 1) K(0, 20, 1) K(0, 30, 1) K(0, 40, 1)
            R("cr:elementwise elems=16", 200, 100) K(0, 210, 5) END;
    assert_true(cr_vcase_is_catalog_call("cr:gemm dtype=bf16 m=8 n=8 k=8"));
    assert_true(cr_vcase_is_catalog_call("cr:elementwise elems=16 iters=1"));
    /* iters= means N repetitions in both; a gemm range is crbench's case
     * when it declares its work as crbench does (the QA audit's
     * "cr:gemm ... iters=10" of commroof_nvtx.py was read as one, and
     * skipped where its kernels did not split into 10 groups) */
    assert_true(cr_vcase_is_catalog_call("cr:gemm dtype=bf16 m=8 n=8 k=8 iters=3"));
    assert_false(cr_vcase_is_catalog_call("cr:gemm dtype=bf16 m=8 n=8 k=8 iters=3 flops=1024"));
    assert_false(cr_vcase_is_catalog_call("cr:gemm dtype=bf16 m=8 n=8 k=8 iters=3 rd_bytes=256"));
    assert_false(cr_vcase_is_catalog_call("cr:gemm dtype=bf16 m=8 n=8 k=8 iters=3 wr_bytes=128"));
    assert_false(cr_vcase_is_catalog_call("cr:warp_shuffle n=5"));
    assert_false(cr_vcase_is_catalog_call("gemm m=8"));
    assert_false(cr_vcase_is_catalog_call(NULL));
    /* a gemm call of two repetitions whose kernels would split into two
     * groups: still the catalog's, not measured as a case (it was) */
    const char *reps =
        HDR R("cr:gemm dtype=bf16 m=8 n=8 k=8 iters=2", 0, 100) K(0, 10, 5) K(0, 20, 5) END;
    const char *texts[3] = {calls, unsplit, reps};
    const int want_skipped[3] = {3, 2, 1}, want_catalog[3] = {2, 1, 1};
    /* the first reason: the first range's; among the others: the
     * warp_shuffle range's, the unsplit gemm case's, none */
    const char *want_other[3] = {"warp_shuffle", "do not split into iters=3 groups", ""};
    for (int i = 0; i < 3; i++) {
        char *path = cr_test_write_tmp(texts[i], ".json");
        cr_vmeas_list l = {0};
        cr_vread_info ri = {0};
        cr_diag d = {{0}};
        assert_int_equal(cr_validate_read_path(path, &l, &ri, &d), CR_OK);
        assert_int_equal(l.n, 0);
        assert_int_equal(ri.skipped, want_skipped[i]);
        assert_int_equal(ri.skipped_catalog, want_catalog[i]);
        assert_non_null(strstr(ri.why_other, want_other[i]));
        if (i == 1)
            assert_non_null(strstr(ri.why, "do not split into iters=3 groups"));
        else if (i == 2)
            assert_non_null(strstr(ri.why, "a call of a catalog operator"));
        else
            assert_null(strstr(ri.why, "warp_shuffle"));
        cr_vmeas_list_release(&l);
        unlink(path);
        free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_measure),      cmocka_unit_test(test_trace_whole_numbers),
        cmocka_unit_test(test_trace_range_bounds), cmocka_unit_test(test_trace_errors),
        cmocka_unit_test(test_read_path),          cmocka_unit_test(test_trace_skipped_catalog),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
