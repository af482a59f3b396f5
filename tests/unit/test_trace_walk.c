/* SPDX-License-Identifier: MIT */
/*
 * trace_walk: the one folder walk that gathers traces for validate,
 * calibrate, roofline, plot and report (which files, in which order, what
 * is left out).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cr_test.h"
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
    memset(&info, 0, sizeof info); /* a new command: bad.json was read by this one */
    assert_int_equal(cr_vtrace_each(dir, note_file, &s, &info, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "no trace file (*.json, *.json.gz) in this folder reads"));
    snprintf(p, sizeof p, "%s/bad.json", dir);
    unlink(p);
    rmdir(dir);
}

/* A file read twice in one command, named twice or named and inside a
 * folder also named, is refused before its second reading: its cases
 * would count twice (audit of 2026-12-04: validate traces/h200-1 with
 * traces/h200-1/kernels-hbm.json counted the hbm family's 56 cases twice). */
static void test_given_twice(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_trace_walk_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char p[256];
    snprintf(p, sizeof p, "%s/a.json", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    seen_list s = {.n = 0};
    cr_vread_info info;
    memset(&info, 0, sizeof info);
    cr_diag d = {{0}};
    assert_int_equal(cr_vtrace_each(dir, note_file, &s, &info, &d), CR_OK);
    assert_int_equal(s.n, 1);
    assert_int_equal(cr_vtrace_each(p, note_file, &s, &info, &d), CR_EDUPLICATE);
    assert_non_null(strstr(d.msg, "is given twice"));
    assert_int_equal(s.n, 1); /* not read again */
    /* the other order: the file, then its folder */
    memset(&info, 0, sizeof info);
    s.n = 0;
    assert_int_equal(cr_vtrace_each(p, note_file, &s, &info, &d), CR_OK);
    assert_int_equal(cr_vtrace_each(dir, note_file, &s, &info, &d), CR_EDUPLICATE);
    assert_int_equal(s.n, 1);
    unlink(p);
    rmdir(dir);
}

/* cr_vread_note_trace: traces cut short and kinds left unrecorded are
 * counted, the first of each named, the kinds gathered over the traces
 * once each; synchronisations, which no command reads, are not counted. */
static void test_note_trace(void **state)
{
    (void)state;
    cr_vread_info info;
    memset(&info, 0, sizeof info);
    cr_trace_info all = {.complete = true, .recorded = CR_TRACE_REC_DEVICE};
    cr_trace_info no_sync = all, kernels = all, no_memset = all, cut = all;
    no_sync.recorded &= ~CR_TRACE_REC(CR_TRACE_SYNC);
    kernels.recorded = CR_TRACE_REC(CR_TRACE_KERNEL);
    no_memset.recorded &= ~CR_TRACE_REC(CR_TRACE_MEMSET);
    cut.complete = false;
    cr_diag d = {{0}};
    assert_int_equal(cr_vread_note_trace(&info, "a.json", &all, &d), CR_OK);
    assert_int_equal(cr_vread_note_trace(&info, "b.json", &no_sync, &d), CR_OK);
    assert_int_equal(info.unrecorded, 0);
    assert_int_equal(info.incomplete, 0);
    assert_int_equal(cr_vread_note_trace(&info, "c.json", &kernels, &d), CR_OK);
    assert_int_equal(cr_vread_note_trace(&info, "d.json", &no_memset, &d), CR_OK);
    assert_int_equal(cr_vread_note_trace(&info, "e.json", &cut, &d), CR_OK);
    assert_int_equal(info.unrecorded, 2);
    assert_string_equal(info.unrecorded_path, "c.json");
    assert_string_equal(info.unrecorded_what, "memcpy, memset");
    assert_int_equal(info.incomplete, 1);
    assert_string_equal(info.incomplete_path, "e.json");
}

/* cr_vread_note_trace: a trace whose metadata names the host, process and
 * start of one read before is a copy of it (CR_EDUPLICATE, naming it);
 * another process or start on that host, or the same figures on another
 * host, is another trace; one that names none of them (a hand-made trace)
 * is not compared (QA audit of 2026-12-06: a copy under another name was
 * read as a second rank and every case counted twice). */
static void test_copy_refused(void **state)
{
    (void)state;
    cr_vread_info info;
    memset(&info, 0, sizeof info);
    cr_trace_info a = {.complete = true,
                       .recorded = CR_TRACE_REC_DEVICE,
                       .ts_base_ns = 1795970840578577654LL,
                       .os_pid = 994,
                       .hostname = "vm"};
    cr_trace_info other_pid = a, other_start = a, other_host = a, anon = a;
    other_pid.os_pid = 995;
    other_start.ts_base_ns++;
    snprintf(other_host.hostname, sizeof other_host.hostname, "vm2");
    anon.ts_base_ns = 0;
    anon.os_pid = 0;
    anon.hostname[0] = '\0';
    cr_diag d = {{0}};
    assert_int_equal(cr_vread_note_trace(&info, "a.json", &a, &d), CR_OK);
    assert_int_equal(cr_vread_note_trace(&info, "b.json", &other_pid, &d), CR_OK);
    assert_int_equal(cr_vread_note_trace(&info, "c.json", &other_start, &d), CR_OK);
    assert_int_equal(cr_vread_note_trace(&info, "d.json", &other_host, &d), CR_OK);
    assert_int_equal(cr_vread_note_trace(&info, "e.json", &anon, &d), CR_OK);
    assert_int_equal(cr_vread_note_trace(&info, "f.json", &anon, &d), CR_OK);
    assert_int_equal(cr_vread_note_trace(&info, "copy.json", &a, &d), CR_EDUPLICATE);
    assert_non_null(strstr(d.msg, "copy.json is a copy of a trace read before it (host vm, "
                                  "process 994, started at ts_base_ns 1795970840578577654)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_rule),
        cmocka_unit_test(test_given_twice),
        cmocka_unit_test(test_note_trace),
        cmocka_unit_test(test_copy_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
