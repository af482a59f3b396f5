/* SPDX-License-Identifier: MIT */
/*
 * trace_file: traces opened as every command opens them: a .json.gz read
 * as the reader asks for bytes (a stream without end and a gzip bomb are
 * refused at once), a cut one refused with zlib's reason, and the same
 * summary from a .json.gz as from its .json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cr_test.h"
#include "cr_test_trace.h"
#include "traces/reader/trace_file.h"
#include "traces/reader/trace_summary.h"
#include "validate/validate.h"

static char *write_gz(const char *text, size_t n)
{
    char *path = cr_test_write_tmp("", ".json.gz");
    gzFile g = gzopen(path, "wb");
    assert_non_null(g);
    assert_int_equal(gzwrite(g, text, (unsigned)n), (int)n);
    assert_int_equal(gzclose(g), Z_OK);
    return path;
}

/* cr_trace_summarize() of a .json.gz reads its events (trace summary
 * refused it before: "not a trace ... found '?'", gzip's first byte): the
 * same figures as the plain file; cut in half, CR_EIO with zlib's reason. */
static void test_summary_gz(void **state)
{
    (void)state;
    static const char text[] =
        HDR R("cr:launch kind=event iters=4", 4000, 400) K(0, 4001, 3) K(1, 4010, 5) END;
    char *plain = cr_test_write_tmp(text, ".json");
    char *gz = write_gz(text, strlen(text));
    cr_trace_summary *a = NULL, *b = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_summarize(plain, &a, &d), CR_OK);
    assert_int_equal(cr_trace_summarize(gz, &b, &d), CR_OK);
    /* two kernels of 3 and 5 us, one NVTX range, spanning 4000 .. 4400 us */
    assert_int_equal(a->kernels, 2);
    assert_int_equal(a->nvtx, 1);
    assert_close(a->kernel_s, 8e-6, 1e-9, 0);
    assert_int_equal(b->kernels, a->kernels);
    assert_int_equal(b->nvtx, a->nvtx);
    assert_close(b->kernel_s, a->kernel_s, 0, 0);
    assert_close(b->span_s, a->span_s, 0, 0);
    assert_true(b->info.complete);
    cr_trace_summary_free(a);
    cr_trace_summary_free(b);
    unlink(gz);
    free(gz);
    /* a stream cut short: gzip's own check, not a shorter summary */
    gz = write_gz(text, strlen(text));
    FILE *f = fopen(gz, "rb");
    assert_non_null(f);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    f = fopen(gz, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n - 6, f), n - 6);
    fclose(f);
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_trace_summarize(gz, &b, &d), CR_EIO);
    assert_null(b);
    assert_non_null(strstr(d.msg, "not a valid gzip file"));
    /* zlib names a file opened by descriptor "<fd:3>": not shown */
    assert_null(strstr(d.msg, "<fd:"));
    unlink(gz);
    free(gz);
    unlink(plain);
    free(plain);
}

/* A .json.gz that never ends (a link to /dev/zero) and a gzip bomb (64 MiB
 * of zeros from 64 KiB) are read as the reader asks for bytes: both fail at
 * their first byte, which is no trace, at once. They were decompressed
 * into a temporary file first, without end for /dev/zero (3.9 GB in 3 s):
 * the alarm fails the test then. */
static void test_gz_endless(void **state)
{
    (void)state;
    char *link = cr_test_write_tmp("", ".json.gz");
    unlink(link);
    assert_int_equal(symlink("/dev/zero", link), 0);
    char *bomb = cr_test_write_tmp("", ".json.gz");
    gzFile g = gzopen(bomb, "wb9");
    assert_non_null(g);
    static char zeros[1 << 16];
    for (int i = 0; i < 1024; i++)
        assert_int_equal(gzwrite(g, zeros, sizeof zeros), (int)sizeof zeros);
    assert_int_equal(gzclose(g), Z_OK);
    /* The link is refused before any byte is decompressed (not a regular
     * file, fileio.h); the bomb is read as a stream and refused at its
     * first bytes, which are not a trace. */
    const char *paths[2] = {link, bomb};
    const char *why[2] = {"a character device", ":1: not a trace"};
    alarm(5);
    for (int i = 0; i < 2; i++) {
        cr_vmeas_list l = {0};
        cr_diag d = {{0}};
        assert_int_not_equal(cr_validate_read_trace(paths[i], &l, NULL, NULL, 0, &d), CR_OK);
        assert_non_null(strstr(d.msg, paths[i]));
        assert_non_null(strstr(d.msg, why[i]));
        assert_int_equal(l.n, 0);
        cr_vmeas_list_release(&l);
    }
    alarm(0);
    unlink(link);
    unlink(bomb);
    free(link);
    free(bomb);
}

/* cr_trace_file_close(NULL) is a no-op as every other free and release
 * (it crashed), and so is closing twice or after a failed open; no path
 * is CR_EIO with a reason (ends_with(NULL) crashed). QA audit of the API. */
static void test_close_null_and_no_path(void **state)
{
    (void)state;
    cr_trace_file_close(NULL);
    cr_trace_file t;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_file_open(&t, NULL, &d), CR_EIO);
    assert_string_equal(d.msg, "no file given: give a trace file (.json)");
    cr_trace_file_close(&t);
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_trace_file_open(&t, "/nonexistent/t.json.gz", &d), CR_EIO);
    cr_trace_file_close(&t);
    cr_trace_file_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_gz),
        cmocka_unit_test(test_gz_endless),
        cmocka_unit_test(test_close_null_and_no_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
