/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for model/fileio: inputs that are not regular files are refused
 * without blocking (a FIFO with no writer), outputs that are character
 * devices or FIFOs are written in place and stay what they were, regular
 * outputs are replaced atomically (issue 13, items 3 and 9). Everything
 * lives in a temporary folder: as root the null and full devices are
 * mknod'ed there, so that a regression that renames over a device cannot
 * replace the machine's /dev/null; otherwise /dev/null and /dev/full
 * serve (a regression cannot write /dev and fails).
 */
#define _XOPEN_SOURCE 700 /* mknod() */

#include "cr_test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fileio.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cr-fileio-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    static const char *names[] = {"fifo", "new",        "old",    "link", "target", "dangling",
                                  "sub",  "commit.tmp", "commit", "null", "full"};
    char p[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (unlink(p) != 0)
            rmdir(p);
    }
    return rmdir(dir);
}

static const char *at(const char *name)
{
    static char p[4][128];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* A FIFO with no writer: opening it blocking would wait for ever (the
 * test would hang, not fail, before the fix); now it is refused at once. */
static void test_read_fifo(void **state)
{
    (void)state;
    assert_int_equal(mkfifo(at("fifo"), 0600), 0);
    int fd = 7, e = -1;
    cr_diag d = {{0}};
    assert_int_equal(
        cr_file_open_read(at("fifo"), "a topology XML file", CR_FILE_STREAM, &fd, &e, &d), CR_EIO);
    assert_int_equal(fd, -1);
    assert_int_equal(e, 0);
    char want[256];
    snprintf(want, sizeof want,
             "%s: a FIFO (named pipe), not a regular file: give a topology XML file", at("fifo"));
    assert_string_equal(d.msg, want);
    FILE *f = (FILE *)1;
    assert_int_equal(cr_file_fopen_read(at("fifo"), "a trace", CR_FILE_STREAM, &f, NULL), CR_EIO);
    assert_null(f);
}

/* A pipe through a link (/dev/stdin, /dev/fd/N: `gzip -dc t.json.gz |
 * commroof validate /dev/stdin`) streams for readers that ask for it. */
static void test_read_pipe(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_int_equal(write(p[1], "hi", 2), 2);
    close(p[1]);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", p[0]);
    int fd = -1;
    cr_diag d = {{0}};
    assert_int_equal(cr_file_open_read(path, "a log", 0, &fd, NULL, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "a FIFO (named pipe), not a regular file: give a log"));
    assert_int_equal(cr_file_open_read(path, "a log", CR_FILE_STREAM, &fd, NULL, NULL), CR_OK);
    char buf[8] = {0};
    assert_int_equal(read(fd, buf, sizeof buf), 2);
    assert_string_equal(buf, "hi");
    close(fd);
    close(p[0]);
    /* a link to a named FIFO nobody writes: open does not block, and the
     * read ends at once (POSIX: no writer, end of file) */
    assert_int_equal(mkfifo(at("fifo"), 0600), 0);
    assert_int_equal(symlink("fifo", at("link")), 0);
    assert_int_equal(cr_file_open_read(at("link"), "a log", CR_FILE_STREAM, &fd, NULL, NULL),
                     CR_OK);
    assert_int_equal(read(fd, buf, sizeof buf), 0);
    close(fd);
}

static void test_read_others(void **state)
{
    (void)state;
    int fd = -1, e = 0;
    cr_diag d = {{0}};
    assert_int_equal(cr_file_open_read(dir, "a log", 0, &fd, &e, &d), CR_EIO);
    char want[256];
    snprintf(want, sizeof want, "%s: a directory, not a regular file: give a log", dir);
    assert_string_equal(d.msg, want);
    d = (cr_diag){{0}};
    assert_int_equal(cr_file_open_read("/dev/null", "a log", CR_FILE_STREAM, &fd, &e, &d), CR_EIO);
    assert_string_equal(d.msg, "/dev/null: a character device, not a regular file: give a log");
    d = (cr_diag){{0}};
    assert_int_equal(cr_file_open_read(at("new"), "a log", 0, &fd, &e, &d), CR_ENOTFOUND);
    assert_int_equal(e, ENOENT);
    /* no path: said, not "(null): cannot open: Bad address" */
    d = (cr_diag){{0}};
    assert_int_equal(cr_file_open_read(NULL, "a log", 0, &fd, &e, &d), CR_EIO);
    assert_string_equal(d.msg, "no file given: give a log");
    assert_int_equal(fd, -1);
    /* A regular file opens, blocking (O_NONBLOCK cleared), and reads. */
    assert_int_equal(cr_file_write(at("new"), "abc", 3, NULL), CR_OK);
    assert_int_equal(cr_file_open_read(at("new"), "a log", 0, &fd, &e, NULL), CR_OK);
    assert_true(fd >= 0);
    assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    char buf[8] = {0};
    assert_int_equal(read(fd, buf, sizeof buf), 3);
    assert_string_equal(buf, "abc");
    close(fd);
    FILE *f = NULL;
    assert_int_equal(cr_file_fopen_read(at("new"), "a log", 0, &f, NULL), CR_OK);
    assert_int_equal(fgetc(f), 'a');
    fclose(f);
}

/* The old writers renamed a temporary over whatever was at the path: a FIFO
 * (or, as root, /dev/null) became a regular file. Now a FIFO that nobody
 * reads is refused, promptly, and stays a FIFO. */
static void test_write_fifo(void **state)
{
    (void)state;
    assert_int_equal(mkfifo(at("fifo"), 0600), 0);
    cr_diag d = {{0}};
    assert_int_equal(cr_file_write(at("fifo"), "x", 1, &d), CR_EIO);
    char want[256];
    snprintf(want, sizeof want,
             "%s: a FIFO (named pipe) that no process reads: start its reader first, or give a "
             "file path",
             at("fifo"));
    assert_string_equal(d.msg, want);
    struct stat sb;
    assert_int_equal(lstat(at("fifo"), &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    /* With a reader it is written in place. */
    int rfd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
    assert_true(rfd >= 0);
    assert_int_equal(cr_file_write(at("fifo"), "hello", 5, NULL), CR_OK);
    char buf[16] = {0};
    assert_int_equal(read(rfd, buf, sizeof buf), 5);
    assert_string_equal(buf, "hello");
    close(rfd);
    assert_int_equal(lstat(at("fifo"), &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
}

static void test_write_devices(void **state)
{
    (void)state;
    struct stat sb;
    char null[128], full[128], want[256];
    bool own = mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) == 0 &&
               mknod(at("full"), S_IFCHR | 0666, makedev(1, 7)) == 0;
    snprintf(null, sizeof null, "%s", own ? at("null") : "/dev/null");
    snprintf(full, sizeof full, "%s", own ? at("full") : "/dev/full");
    assert_int_equal(cr_file_write(null, "x", 1, NULL), CR_OK);
    assert_int_equal(lstat(null, &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    cr_diag d = {{0}};
    assert_int_equal(cr_file_write(full, "x", 1, &d), CR_EIO);
    snprintf(want, sizeof want, "%s: cannot write: No space left on device", full);
    assert_string_equal(d.msg, want);
    assert_int_equal(lstat(full, &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    d = (cr_diag){{0}};
    assert_int_equal(cr_file_write(dir, "x", 1, &d), CR_EIO);
    snprintf(want, sizeof want, "%s: a directory, not a file that can be written: give a file path",
             dir);
    assert_string_equal(d.msg, want);
}

static void test_write_regular(void **state)
{
    (void)state;
    char buf[64];
    struct stat sb;
    /* new: 0644, whatever the temporary's 0600 */
    assert_int_equal(cr_file_write(at("new"), "one", 3, NULL), CR_OK);
    assert_int_equal(stat(at("new"), &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0644);
    slurp(at("new"), buf, sizeof buf);
    assert_string_equal(buf, "one");
    /* replaced: a new inode (renamed over), the old permissions kept */
    assert_int_equal(chmod(at("new"), 0600), 0);
    ino_t ino = sb.st_ino;
    assert_int_equal(cr_file_write(at("new"), "two", 3, NULL), CR_OK);
    assert_int_equal(stat(at("new"), &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0600);
    assert_true(sb.st_ino != ino);
    slurp(at("new"), buf, sizeof buf);
    assert_string_equal(buf, "two");
    /* a symbolic link to a regular file: the file is replaced, the link kept */
    assert_int_equal(cr_file_write(at("target"), "t0", 2, NULL), CR_OK);
    assert_int_equal(symlink("target", at("link")), 0);
    assert_int_equal(cr_file_write(at("link"), "t1", 2, NULL), CR_OK);
    assert_int_equal(lstat(at("link"), &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    slurp(at("target"), buf, sizeof buf);
    assert_string_equal(buf, "t1");
    /* a dangling link is refused, and stays */
    assert_int_equal(symlink("nowhere", at("dangling")), 0);
    cr_diag d = {{0}};
    assert_int_equal(cr_file_write(at("dangling"), "x", 1, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "a symbolic link to a missing file"));
    assert_int_equal(lstat(at("dangling"), &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    /* a folder that does not exist: no temporary, an error */
    d = (cr_diag){{0}};
    assert_int_equal(cr_file_write(at("sub/x"), "x", 1, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "cannot create a temporary file beside it"));
}

/* cr_file_commit: a finished temporary renamed over a regular file, copied
 * into a FIFO or through a link. */
static void test_commit(void **state)
{
    (void)state;
    char buf[64];
    struct stat sb;
    assert_int_equal(cr_file_write(at("commit.tmp"), "img1", 4, NULL), CR_OK);
    assert_int_equal(cr_file_commit(at("commit.tmp"), at("commit"), NULL), CR_OK);
    assert_int_equal(access(at("commit.tmp"), F_OK), -1);
    slurp(at("commit"), buf, sizeof buf);
    assert_string_equal(buf, "img1");
    assert_int_equal(cr_file_write(at("target"), "t0", 2, NULL), CR_OK);
    assert_int_equal(symlink("target", at("link")), 0);
    assert_int_equal(cr_file_write(at("commit.tmp"), "img2", 4, NULL), CR_OK);
    assert_int_equal(cr_file_commit(at("commit.tmp"), at("link"), NULL), CR_OK);
    assert_int_equal(access(at("commit.tmp"), F_OK), -1);
    assert_int_equal(lstat(at("link"), &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    slurp(at("target"), buf, sizeof buf);
    assert_string_equal(buf, "img2");
    /* a FIFO nobody reads: refused, the temporary left to the caller */
    assert_int_equal(mkfifo(at("fifo"), 0600), 0);
    assert_int_equal(cr_file_write(at("commit.tmp"), "img3", 4, NULL), CR_OK);
    assert_int_equal(cr_file_commit(at("commit.tmp"), at("fifo"), NULL), CR_EIO);
    assert_int_equal(lstat(at("fifo"), &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    assert_int_equal(access(at("commit.tmp"), F_OK), 0);
}

/* A folder written whole or not at all: a stage beside the target, moved
 * in when finished (over an earlier folder, which goes), nothing left when
 * the target is a file; mkdirs makes the folders above. */
static void test_stage_dir(void **state)
{
    (void)state;
    char stage[256], buf[64], base[128];
    snprintf(base, sizeof base, "%s", at("tree"));
    const char *target = at("tree/a/rep");
    assert_int_equal(cr_file_stage_dir(target, stage, sizeof stage, NULL), CR_OK);
    assert_non_null(strstr(stage, "/tree/a/rep.part"));
    char f[300];
    snprintf(f, sizeof f, "%s/one", stage);
    assert_int_equal(cr_file_write(f, "v1", 2, NULL), CR_OK);
    assert_int_equal(cr_file_commit_dir(stage, target, NULL), CR_OK);
    snprintf(f, sizeof f, "%s/one", target);
    slurp(f, buf, sizeof buf);
    assert_string_equal(buf, "v1");
    /* over the earlier folder: its files go with it */
    assert_int_equal(cr_file_stage_dir(target, stage, sizeof stage, NULL), CR_OK);
    snprintf(f, sizeof f, "%s/two", stage);
    assert_int_equal(cr_file_write(f, "v2", 2, NULL), CR_OK);
    assert_int_equal(cr_file_commit_dir(stage, target, NULL), CR_OK);
    snprintf(f, sizeof f, "%s/one", target);
    assert_int_equal(access(f, F_OK), -1);
    snprintf(f, sizeof f, "%s/two", target);
    slurp(f, buf, sizeof buf);
    assert_string_equal(buf, "v2");
    /* only the target is left in its folder: no stage, no earlier copy */
    int n = 0;
    DIR *dp = opendir(at("tree/a"));
    assert_non_null(dp);
    for (struct dirent *e; (e = readdir(dp));)
        n += e->d_name[0] != '.';
    closedir(dp);
    assert_int_equal(n, 1);
    /* a file where the folder should be: refused before anything is made */
    assert_int_equal(cr_file_write(at("tree/file"), "x", 1, NULL), CR_OK);
    cr_diag d = {{0}};
    assert_int_equal(cr_file_stage_dir(at("tree/file"), stage, sizeof stage, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "exists and is not a folder"));
    assert_int_equal(cr_file_mkdirs(at("tree/file/sub"), &d), CR_EIO);
    /* "." and "..": refused before a stage is made inside them (the
     * result was written whole, then the rename failed: EBUSY) */
    const char *dots[] = {"tree/b/.", "tree/b/./", "tree/b/..", "."};
    for (size_t i = 0; i < sizeof dots / sizeof *dots; i++) {
        memset(&d, 0, sizeof d);
        assert_int_equal(cr_file_stage_dir(i < 3 ? at(dots[i]) : dots[i], stage, sizeof stage, &d),
                         CR_EINVAL);
        assert_non_null(strstr(d.msg, "cannot be replaced whole"));
    }
    assert_int_equal(cr_file_mkdirs(at("tree/b/c/d"), NULL), CR_OK);
    struct stat sb;
    assert_int_equal(stat(at("tree/b/c/d"), &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    cr_file_remove_tree(base);
    assert_int_equal(access(base, F_OK), -1);
}

static void test_kind_names(void **state)
{
    (void)state;
    assert_string_equal(cr_file_kind_name(S_IFIFO | 0644), "a FIFO (named pipe)");
    assert_string_equal(cr_file_kind_name(S_IFCHR), "a character device");
    assert_string_equal(cr_file_kind_name(S_IFBLK), "a block device");
    assert_string_equal(cr_file_kind_name(S_IFSOCK), "a socket");
    assert_string_equal(cr_file_kind_name(S_IFDIR), "a directory");
    assert_string_equal(cr_file_kind_name(S_IFREG), "a regular file");
}

/* cr_file_read_fd: the whole file, NUL-terminated; one over the limit is
 * CR_ERANGE with its size and no message (the XML and the ParallelKernel
 * Bench readers word it for their formats) */
/* A folder name too long to make: the message keeps the reason, the path
 * shortened around "..." (a 4,000-byte name filled the diagnostic and cut
 * the reason off: QA audit of commroof trace, session 45) */
static void test_mkdirs_long_name(void **state)
{
    (void)state;
    char name[4001];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cr_diag d = {{0}};
    assert_int_equal(cr_file_mkdirs(path, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "..."));
    assert_non_null(strstr(d.msg, strerror(ENAMETOOLONG)));
    assert_true(strlen(d.msg) < 400);
}

static void test_read_fd(void **state)
{
    (void)state;
    int fd = -1;
    cr_diag d = {{0}};
    char *buf = NULL;
    size_t len = 0;
    long long size = 0;
    assert_int_equal(cr_file_write(at("new"), "abcd", 4, NULL), CR_OK);
    assert_int_equal(cr_file_open_read(at("new"), "a log", 0, &fd, NULL, NULL), CR_OK);
    assert_int_equal(cr_file_read_fd(fd, at("new"), 4, &buf, &len, &size, NULL, &d), CR_OK);
    close(fd);
    assert_int_equal(len, 4);
    assert_int_equal(size, 4);
    assert_string_equal(buf, "abcd");
    free(buf);
    assert_int_equal(cr_file_open_read(at("new"), "a log", 0, &fd, NULL, NULL), CR_OK);
    assert_int_equal(cr_file_read_fd(fd, at("new"), 3, &buf, &len, &size, NULL, &d), CR_ERANGE);
    close(fd);
    assert_null(buf);
    assert_int_equal(size, 4);
    assert_string_equal(d.msg, "");
}

/* cr_files_first_repeat: each input read once, however many share a size
 * (validate --nccl-tests with 4,000 logs of one size compared every pair,
 * reading both files: 100 s), and the pair a loop over i, then j < i
 * finds: one file under two names before a copy, for the same i. Its own
 * folder: teardown knows only the fixed names. */
static void test_first_repeat(void **state)
{
    (void)state;
    enum { N = 64 };
    char sub[96], paths[N + 3][128];
    const char *p[N + 3];
    snprintf(sub, sizeof sub, "%s/rep", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    for (int i = 0; i < N; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/f%02d", sub, i);
        FILE *f = fopen(paths[i], "wb");
        assert_non_null(f);
        fprintf(f, "log %02d of one size\n", i); /* every file 19 bytes */
        fclose(f);
        p[i] = paths[i];
    }
    int j = 0, i = 0;
    long opens = 0;
    assert_int_equal(cr_files_first_repeat(p, N, &j, &i, &opens), 0);
    assert_int_equal(opens, N); /* each hashed once; no pair compared */
    /* a copy of f05 as input N, a hard link to f05 as N + 1: for i = N the
     * copy is found (f05); the link comes later */
    snprintf(paths[N], sizeof paths[N], "%s/copy", sub);
    snprintf(paths[N + 1], sizeof paths[N + 1], "%s/link", sub);
    FILE *f = fopen(paths[N], "wb");
    assert_non_null(f);
    fprintf(f, "log %02d of one size\n", 5);
    fclose(f);
    assert_int_equal(link(paths[5], paths[N + 1]), 0);
    p[N] = paths[N];
    p[N + 1] = paths[N + 1];
    opens = 0;
    assert_int_equal(cr_files_first_repeat(p, N + 2, &j, &i, &opens), 2);
    assert_int_equal(j, 5);
    assert_int_equal(i, N);
    assert_true(opens <= (N + 2) + 2 * 2); /* hashes, and the two confirmed pairs */
    /* the link before the copy: the same file (f05 and the link) first */
    p[N] = paths[N + 1];
    p[N + 1] = paths[N];
    assert_int_equal(cr_files_first_repeat(p, N + 2, &j, &i, NULL), 1);
    assert_int_equal(j, 5);
    assert_int_equal(i, N);
    /* one name twice, and a missing file twice (never a repeat: the
     * reader says it is missing) */
    const char *q[] = {paths[1], at("missing"), paths[2], at("missing"), paths[1]};
    assert_int_equal(cr_files_first_repeat(q, 5, &j, &i, NULL), 1);
    assert_int_equal(j, 0);
    assert_int_equal(i, 4);
    assert_int_equal(cr_files_first_repeat(q + 1, 3, &j, &i, NULL), 0);
    for (int k = 0; k < N + 2; k++)
        unlink(paths[k]);
    rmdir(sub);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_read_fifo, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_pipe, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_others, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_fd, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mkdirs_long_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_fifo, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_devices, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_regular, setup, teardown),
        cmocka_unit_test_setup_teardown(test_commit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stage_dir, setup, teardown),
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test_setup_teardown(test_first_repeat, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
