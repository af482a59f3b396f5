/* SPDX-License-Identifier: MIT */
/*
 * trace_file: the one folder walk that gathers traces for validate,
 * calibrate, roofline, plot and report (which files, in which order, what
 * is left out), and gzip traces that must not be decompressed ahead of the
 * reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cr_test.h"
#include "cr_test_trace.h"
#include "validate/validate.h"
#include "validate/validate_priv.h"

/* The files cr_vtrace_each() hands to its callback, in order. */
typedef struct {
    char seen[8][64];
    int n;
} seen_list;

static cr_status note_file(const char *path, void *ctx, cr_vread_info *info, cr_diag *d)
{
    (void)info;
    seen_list *s = ctx;
    const char *b = strrchr(path, '/');
    if (s->n < 8)
        snprintf(s->seen[s->n++], sizeof s->seen[0], "%s", b ? b + 1 : path);
    /* "bad" in the name: a file the reader fails on */
    return strstr(path, "bad") ? cr_diag_set(d, CR_EPARSE, "%s: not a trace", path) : CR_OK;
}

/* The rule: *.json and *.json.gz of the folder (not its subfolders), in
 * name order; hidden files (macOS's "._" companions, editors' dot files)
 * and other names left out before reading; a file the reader fails on is
 * counted with its message, and a folder where none reads is an error. */
static void test_walk_rule(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_trace_file_XXXXXX";
    assert_non_null(mkdtemp(dir));
    static const char *const names[] = {"b.json",    "a.json.gz",  "._a.json", ".hidden.json",
                                        "notes.txt", "c.json.tmp", "bad.json", "d.JSON"};
    char p[256];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        fclose(f);
    }
    snprintf(p, sizeof p, "%s/sub.json", dir); /* a folder named like a trace */
    assert_int_equal(mkdir(p, 0700), 0);
    seen_list s = {.n = 0};
    cr_vread_info info;
    memset(&info, 0, sizeof info);
    cr_diag d = {{0}};
    assert_int_equal(cr_vtrace_each(dir, note_file, &s, &info, &d), CR_OK);
    /* sub.json is handed on (the reader then fails on it: not a file) */
    assert_int_equal(s.n, 4);
    assert_string_equal(s.seen[0], "a.json.gz");
    assert_string_equal(s.seen[1], "b.json");
    assert_string_equal(s.seen[2], "bad.json");
    assert_string_equal(s.seen[3], "sub.json");
    assert_int_equal(info.not_traces, 1);
    assert_non_null(strstr(info.not_trace_why, "bad.json: not a trace"));
    /* a file named directly is read whatever its name */
    s.n = 0;
    snprintf(p, sizeof p, "%s/._a.json", dir);
    assert_int_equal(cr_vtrace_each(p, note_file, &s, &info, &d), CR_OK);
    assert_int_equal(s.n, 1);
    /* a folder where nothing reads */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (strcmp(names[i], "bad.json") != 0)
            unlink(p);
    }
    snprintf(p, sizeof p, "%s/sub.json", dir);
    rmdir(p);
    s.n = 0;
    assert_int_equal(cr_vtrace_each(dir, note_file, &s, &info, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "no trace file (*.json, *.json.gz) in this folder reads"));
    snprintf(p, sizeof p, "%s/bad.json", dir);
    unlink(p);
    rmdir(dir);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_rule),
        cmocka_unit_test(test_gz_endless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
