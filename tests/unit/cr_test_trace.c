/* SPDX-License-Identifier: MIT */
/* Test support: synthetic traces in temporary files (cr_test_trace.h). */
#include "cr_test_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cr_test.h"

char *cr_test_write_tmp(const char *text, const char *suffix)
{
    char tmpl[] = "/tmp/test_trace_XXXXXX";
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal((size_t)write(fd, text, n), n);
    close(fd);
    size_t sz = strlen(tmpl) + strlen(suffix) + 1;
    char *path = malloc(sz);
    assert_non_null(path);
    snprintf(path, sz, "%s%s", tmpl, suffix);
    assert_int_equal(rename(tmpl, path), 0);
    return path;
}

cr_status cr_test_read_nccl_text(const char *text, const char *suffix, const cr_nccl_log_opts *o,
                                 cr_vmeas_list *l, cr_diag *d)
{
    char *path = cr_test_write_tmp(text, suffix);
    memset(d, 0, sizeof *d);
    cr_status st = cr_validate_read_nccl_tests(path, o, l, d);
    unlink(path);
    free(path);
    return st;
}
