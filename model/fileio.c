/* SPDX-License-Identifier: MIT */
/*
 * File input and output (see fileio.h): the one place where commroof opens
 * a file to read or write one, so that every command treats FIFOs, devices
 * and symbolic links alike.
 */
#define _XOPEN_SOURCE 700 /* realpath() */

#include "fileio.h"
#include "grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cr_file_kind_name(unsigned st_mode)
{
    mode_t m = (mode_t)st_mode;
    if (S_ISREG(m))
        return "a regular file";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO (named pipe)";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISLNK(m))
        return "a symbolic link";
    return "not a regular file";
}

/* A pipe given as /dev/stdin or /dev/fd/N: the path is a symbolic link (to
 * /proc/self/fd/N, itself one), where a named FIFO is a FIFO by its own
 * path. Either way the open did not block, and a FIFO nobody writes reads
 * as empty at once. */
static bool stream_ok(const char *path, unsigned flags, mode_t mode)
{
    struct stat lsb;
    return (flags & CR_FILE_STREAM) && S_ISFIFO(mode) && lstat(path, &lsb) == 0 &&
           S_ISLNK(lsb.st_mode);
}

cr_status cr_file_open_read(const char *path, const char *what, unsigned flags, int *fd,
                            int *sys_errno, cr_diag *d)
{
    *fd = -1;
    if (sys_errno)
        *sys_errno = 0;
    /* a NULL path read "(null): cannot open: Bad address" (the public
     * readers hand theirs down: cr_trace_reader_open, QA audit of the API) */
    if (!path)
        return cr_diag_set(d, CR_EIO, "no file given: give %s", what ? what : "a file");
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
     * writer, forever, before fstat() could say it is no file. */
    int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f < 0) {
        int e = errno;
        if (sys_errno)
            *sys_errno = e;
        return cr_diag_set(d, e == ENOENT ? CR_ENOTFOUND : CR_EIO, "%s: cannot open: %s", path,
                           strerror(e));
    }
    struct stat sb;
    if (fstat(f, &sb) != 0) {
        int e = errno;
        close(f);
        if (sys_errno)
            *sys_errno = e;
        return cr_diag_set(d, CR_EIO, "%s: cannot read: %s", path, strerror(e));
    }
    if (!S_ISREG(sb.st_mode) && !stream_ok(path, flags, sb.st_mode)) {
        close(f);
        return cr_diag_set(d, CR_EIO, "%s: %s, not a regular file: give %s", path,
                           cr_file_kind_name((unsigned)sb.st_mode), what ? what : "a file");
    }
    /* Reads of a regular file never block anyway, those of a pipe should:
     * clear the flag so that whoever reads sees an ordinary descriptor. */
    int fl = fcntl(f, F_GETFL);
    if (fl < 0 || fcntl(f, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(f);
        if (sys_errno)
            *sys_errno = e;
        return cr_diag_set(d, CR_EIO, "%s: cannot read: %s", path, strerror(e));
    }
    *fd = f;
    return CR_OK;
}

cr_status cr_file_fopen_read(const char *path, const char *what, unsigned flags, FILE **out,
                             cr_diag *d)
{
    *out = NULL;
    int fd = -1;
    cr_status st = cr_file_open_read(path, what, flags, &fd, NULL, d);
    if (st != CR_OK)
        return st;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        return cr_diag_set(d, e == ENOMEM ? CR_ENOMEM : CR_EIO, "%s: cannot read: %s", path,
                           strerror(e));
    }
    *out = f;
    return CR_OK;
}

/* Writes all of data to fd, retrying short writes. Returns 0 or an errno. */
cr_status cr_file_read_fd(int fd, const char *path, size_t max_bytes, char **out, size_t *len,
                          long long *size, int *sys_errno, cr_diag *d)
{
    *out = NULL;
    *len = 0;
    *size = 0;
    if (sys_errno)
        *sys_errno = 0;
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        if (sys_errno)
            *sys_errno = e;
        return cr_diag_set(d, CR_EIO, "%s: cannot read: %s", path, strerror(e));
    }
    *size = (long long)sb.st_size;
    /* the size decides before a byte is read, so a huge file costs nothing */
    if ((unsigned long long)sb.st_size > max_bytes)
        return CR_ERANGE; /* the caller words it for its format */
    size_t want = (size_t)sb.st_size, got = 0;
    char *buf = malloc(want + 1);
    if (!buf)
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
    while (got < want) {
        ssize_t r = read(fd, buf + got, want - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = r < 0 ? errno : 0;
            if (sys_errno)
                *sys_errno = e;
            free(buf);
            return cr_diag_set(d, CR_EIO, "%s: cannot read: %s", path,
                               e ? strerror(e) : "file shrank while reading");
        }
        got += (size_t)r;
    }
    buf[want] = '\0';
    *out = buf;
    *len = want;
    return CR_OK;
}

static int write_all(int fd, const char *data, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        if (w == 0)
            return EIO;
        done += (size_t)w;
    }
    return 0;
}

/* A character device or a FIFO: written where it is, as a shell's `>`
 * would, but a FIFO nobody reads is refused instead of waited on. */
static cr_status write_in_place(const char *path, const char *data, size_t len, cr_diag *d)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        if (e == ENXIO)
            return cr_diag_set(d, CR_EIO,
                               "%s: a FIFO (named pipe) that no process reads: start its reader "
                               "first, or give a file path",
                               path);
        return cr_diag_set(d, CR_EIO, "%s: cannot open for writing: %s", path, strerror(e));
    }
    cr_status st = CR_OK;
    struct stat sb;
    int fl = fcntl(fd, F_GETFL);
    if (fstat(fd, &sb) != 0 || fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        st = cr_diag_set(d, CR_EIO, "%s: cannot write: %s", path, strerror(errno));
        goto out;
    }
    if (!S_ISCHR(sb.st_mode) && !S_ISFIFO(sb.st_mode)) { /* swapped since the stat */
        st = cr_diag_set(d, CR_EIO, "%s: changed while being opened (now %s): try again", path,
                         cr_file_kind_name((unsigned)sb.st_mode));
        goto out;
    }
    int e = write_all(fd, data, len);
    if (e)
        st = cr_diag_set(d, CR_EIO, "%s: cannot write: %s", path, strerror(e));
out:
    if (close(fd) != 0 && st == CR_OK)
        st = cr_diag_set(d, CR_EIO, "%s: cannot write: %s", path, strerror(errno));
    return st;
}

/* A regular file or none: a temporary beside target (one file system, so
 * rename() is atomic), written, synced, renamed over it. path names it in
 * messages (target may be a symbolic link's resolution). */
static cr_status write_atomic(const char *path, const char *target, mode_t mode, const char *data,
                              size_t len, cr_diag *d)
{
    size_t n = strlen(target) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
    snprintf(tmp, n, "%s.tmp.XXXXXX", target);
    cr_status st = CR_OK;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        st = cr_diag_set(d, CR_EIO, "%s: cannot create a temporary file beside it: %s", path,
                         strerror(errno));
        goto out;
    }
    int e = write_all(fd, data, len);
    if (!e && (fchmod(fd, mode) != 0 || fsync(fd) != 0))
        e = errno;
    if (close(fd) != 0 && !e)
        e = errno;
    if (e)
        st = cr_diag_set(d, CR_EIO, "%s: cannot write: %s", path, strerror(e));
    else if (rename(tmp, target) != 0)
        st = cr_diag_set(d, CR_EIO, "%s: cannot replace it: %s", path, strerror(errno));
    if (st != CR_OK)
        unlink(tmp);
out:
    free(tmp);
    return st;
}

enum out_kind { OUT_ATOMIC, OUT_IN_PLACE };

/* What writing to path means: OUT_ATOMIC with *target the file to replace
 * (path, or a new string the caller frees when path is a symbolic link to a
 * regular file) and *mode its permissions, or OUT_IN_PLACE. */
static cr_status classify(const char *path, enum out_kind *kind, char **target, mode_t *mode,
                          cr_diag *d)
{
    *kind = OUT_ATOMIC;
    *target = NULL;
    *mode = 0644;
    /* "-" is stdout to many tools; here it would be a file named "-" */
    if (!strcmp(path, "-"))
        return cr_diag_set(d, CR_EIO,
                           "\"-\": an output here is a file, not stdout: give a file path "
                           "(./- for a file of that name)");
    struct stat sb;
    if (lstat(path, &sb) != 0) {
        if (errno != ENOENT)
            return cr_diag_set(d, CR_EIO, "%s: cannot write: %s", path, strerror(errno));
        return CR_OK;
    }
    if (S_ISLNK(sb.st_mode)) {
        /* Follow the link, as opening it would: write what it names and
         * keep the link, rather than rename a regular file over it. */
        if (stat(path, &sb) != 0)
            return cr_diag_set(d, CR_EIO,
                               "%s: a symbolic link to %s: %s; remove the link or give "
                               "another path",
                               path, errno == ENOENT ? "a missing file" : "a file not reached",
                               strerror(errno));
        if (S_ISREG(sb.st_mode) && !(*target = realpath(path, NULL)))
            return cr_diag_set(d, CR_EIO, "%s: cannot resolve the symbolic link: %s", path,
                               strerror(errno));
    }
    if (S_ISREG(sb.st_mode)) {
        /* a file its owner made read-only is not replaced behind their
         * back (the rename beside it would need only the folder's write
         * permission) */
        if (access(*target ? *target : path, W_OK) != 0)
            return cr_diag_set(d, CR_EIO,
                               "%s: cannot replace it: %s; make it writable or give another "
                               "path",
                               path, strerror(errno));
        *mode = sb.st_mode & 07777;
        return CR_OK;
    }
    if (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode)) {
        *kind = OUT_IN_PLACE;
        return CR_OK;
    }
    return cr_diag_set(d, CR_EIO, "%s: %s, not a file that can be written: give a file path", path,
                       cr_file_kind_name((unsigned)sb.st_mode));
}

cr_status cr_file_write(const char *path, const void *data, size_t len, cr_diag *d)
{
    if (!path || (!data && len))
        return cr_diag_set(d, CR_EINVAL, "no path or no data to write");
    if (!data)
        data = "";
    enum out_kind kind;
    char *real = NULL;
    mode_t mode;
    cr_status st = classify(path, &kind, &real, &mode, d);
    if (st == CR_OK)
        st = kind == OUT_IN_PLACE ? write_in_place(path, data, len, d)
                                  : write_atomic(path, real ? real : path, mode, data, len, d);
    free(real);
    return st;
}

cr_status cr_file_commit(const char *tmp, const char *path, cr_diag *d)
{
    enum out_kind kind;
    char *real = NULL, *buf = NULL;
    mode_t mode;
    cr_status st = classify(path, &kind, &real, &mode, d);
    if (st == CR_OK && kind == OUT_ATOMIC && !real) {
        if (rename(tmp, path) != 0)
            st = cr_diag_set(d, CR_EIO, "%s: cannot replace it: %s", path, strerror(errno));
        goto out;
    }
    if (st != CR_OK)
        goto out;
    /* A device, a FIFO or a link elsewhere: copy the contents there. */
    int fd = -1;
    if ((st = cr_file_open_read(tmp, "a file", 0, &fd, NULL, d)) != CR_OK)
        goto out;
    size_t len = 0, cap = 0;
    for (;;) {
        /* reads of 64 KiB at the least */
        if (len == cap && cr_grow((void **)&buf, &cap, len + 65536, 1)) {
            st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
            break;
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            st = cr_diag_set(d, CR_EIO, "%s: cannot read: %s", tmp, strerror(errno));
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    if (st == CR_OK && (st = cr_file_write(path, buf, len, d)) == CR_OK)
        unlink(tmp);
out:
    free(buf);
    free(real);
    return st;
}

/* A path for a message: whole up to 300 bytes, else its first 150 and
 * last 100 around "...", so that the reason after it fits the diagnostic
 * (a 4,000-byte folder name left "cannot create /tmp/xxx...x" without why) */
static const char *path_in_msg(const char *p, char *buf, size_t size)
{
    size_t n = strlen(p);
    if (n <= 300)
        return p;
    snprintf(buf, size, "%.150s...%s", p, p + n - 100);
    return buf;
}

cr_status cr_file_mkdirs(const char *dir, cr_diag *d)
{
    char shown[320];
    size_t n = strlen(dir);
    char *p = malloc(n + 1);
    if (!p)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    memcpy(p, dir, n + 1);
    cr_status st = CR_OK;
    for (char *s = p + 1; *s && st == CR_OK; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            st = cr_diag_set(d, CR_EIO, "cannot create %s: %s", path_in_msg(p, shown, sizeof shown),
                             strerror(errno));
        *s = '/';
    }
    struct stat sb;
    if (st == CR_OK && mkdir(p, 0755) != 0 && errno != EEXIST)
        st = cr_diag_set(d, CR_EIO, "cannot create %s: %s", path_in_msg(p, shown, sizeof shown),
                         strerror(errno));
    else if (st == CR_OK && (stat(p, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        st = cr_diag_set(d, CR_EIO, "%s exists and is not a folder",
                         path_in_msg(p, shown, sizeof shown));
    free(p);
    return st;
}

/* dir without trailing slashes into buf; false when it does not fit or is
 * the root */
static bool dir_name(const char *dir, char *buf, size_t size)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n == 0 || n >= size || (n == 1 && dir[0] == '/'))
        return false;
    memcpy(buf, dir, n);
    buf[n] = '\0';
    return true;
}

cr_status cr_file_stage_dir(const char *dir, char *stage, size_t size, cr_diag *d)
{
    char base[4096];
    if (!dir_name(dir, base, sizeof base) || strlen(base) + 12 > size)
        return cr_diag_set(d, CR_EINVAL, "%s: not a folder name that can be written", dir);
    /* "." or "..": the folder cannot be moved aside under that name (the
     * stage went inside it as "..partXXXXXX" and the whole result was
     * written before the final rename failed with "Device or resource
     * busy"), and replacing the current folder would leave the shell in a
     * deleted one: refused here, before anything is written */
    const char *last = strrchr(base, '/');
    last = last ? last + 1 : base;
    if (strcmp(last, ".") == 0 || strcmp(last, "..") == 0)
        return cr_diag_set(d, CR_EINVAL,
                           "%s: a folder named by \"%s\" cannot be replaced whole (it is moved "
                           "aside and a new one put in its place): give its own name (e.g. "
                           "../NAME) or a new folder",
                           dir, last);
    struct stat sb;
    /* lstat, as cr_file_commit_dir: a link to a folder is refused here,
     * before anything is written, not after */
    if (lstat(base, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return cr_diag_set(d, CR_EIO, "%s exists and is not a folder%s", base,
                           S_ISLNK(sb.st_mode) ? " (a symbolic link: give the folder itself)" : "");
    /* the parent, so that the stage sits beside dir (one file system: the
     * final rename cannot copy) */
    char *slash = strrchr(base, '/');
    if (slash && slash != base) {
        *slash = '\0';
        cr_status st = cr_file_mkdirs(base, d);
        *slash = '/';
        if (st != CR_OK)
            return st;
    }
    snprintf(stage, size, "%s.partXXXXXX", base);
    /* mkdtemp's fresh name, then the folder made again with mkdir so that
     * it gets the mode the umask gives any folder (mkdtemp's is 0700: the
     * report became private to its writer) */
    if (!mkdtemp(stage) || rmdir(stage) != 0 || mkdir(stage, 0777) != 0)
        return cr_diag_set(d, CR_EIO, "cannot create a folder beside %s: %s", base,
                           strerror(errno));
    return CR_OK;
}

cr_status cr_file_commit_dir(const char *stage, const char *dir, cr_diag *d)
{
    char base[4096], old[4200];
    if (!dir_name(dir, base, sizeof base))
        return cr_diag_set(d, CR_EINVAL, "%s: not a folder name that can be written", dir);
    struct stat sb;
    if (lstat(base, &sb) != 0) {
        if (rename(stage, base) != 0)
            return cr_diag_set(d, CR_EIO, "%s: cannot move the finished folder in: %s", base,
                               strerror(errno));
        return CR_OK;
    }
    if (!S_ISDIR(sb.st_mode))
        return cr_diag_set(d, CR_EIO, "%s exists and is not a folder", base);
    /* the earlier folder aside, under a fresh name of its own */
    snprintf(old, sizeof old, "%s.oldXXXXXX", base);
    if (!mkdtemp(old) || rmdir(old) != 0 || rename(base, old) != 0)
        return cr_diag_set(d, CR_EIO, "%s: cannot move the earlier folder aside: %s", base,
                           strerror(errno));
    if (rename(stage, base) != 0) {
        int e = errno;
        (void)rename(old, base);
        return cr_diag_set(d, CR_EIO, "%s: cannot move the finished folder in: %s", base,
                           strerror(e));
    }
    cr_file_remove_tree(old);
    return CR_OK;
}

void cr_file_remove_tree(const char *dir)
{
    DIR *dp = opendir(dir);
    if (dp) {
        for (struct dirent *e; (e = readdir(dp));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            size_t n = strlen(dir) + strlen(e->d_name) + 2;
            char *p = malloc(n);
            if (!p)
                continue;
            snprintf(p, n, "%s/%s", dir, e->d_name);
            struct stat sb;
            if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
                cr_file_remove_tree(p);
            else
                unlink(p);
            free(p);
        }
        closedir(dp);
    }
    rmdir(dir);
}

bool cr_file_same_content(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0 || !S_ISREG(sa.st_mode) || !S_ISREG(sb.st_mode) ||
        sa.st_size != sb.st_size)
        return false;
    if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
        return true;
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    char ba[8192], bb[8192];
    while (same) {
        size_t na = fread(ba, 1, sizeof ba, fa), nb = fread(bb, 1, sizeof bb, fb);
        same = na == nb && memcmp(ba, bb, na) == 0 && !ferror(fa) && !ferror(fb);
        if (na == 0)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* One input of cr_files_first_repeat. */
typedef struct {
    int i;
    bool ok, reg, hashed;
    unsigned long long dev, ino;
    long long size;
    uint64_t hash;
} rep_file;

static int cmp_rep_inode(const void *a, const void *b)
{
    const rep_file *x = a, *y = b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    if (x->ino != y->ino)
        return x->ino < y->ino ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static int cmp_rep_size(const void *a, const void *b)
{
    const rep_file *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    if (x->hashed != y->hashed)
        return x->hashed ? 1 : -1;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* FNV-1a over the bytes of path into *h; false when it cannot be read. */
static bool rep_hash(const char *path, uint64_t *h)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    uint64_t x = 0xcbf29ce484222325ull;
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t k = 0; k < got; k++)
            x = (x ^ buf[k]) * 0x100000001b3ull;
    bool ok = !ferror(f);
    fclose(f);
    *h = x;
    return ok;
}

int cr_files_first_repeat(const char *const *paths, int n, int *first, int *second, long *opens)
{
    *first = *second = -1;
    if (n < 2)
        return 0;
    rep_file *v = calloc((size_t)n, sizeof *v);
    int *sf = malloc((size_t)n * sizeof *sf), *sc = malloc((size_t)n * sizeof *sc);
    int found = -1;
    if (!v || !sf || !sc)
        goto out;
    for (int i = 0; i < n; i++) {
        struct stat sb;
        sf[i] = sc[i] = -1;
        v[i].i = i;
        v[i].ok = stat(paths[i], &sb) == 0;
        if (!v[i].ok)
            continue;
        v[i].reg = S_ISREG(sb.st_mode);
        v[i].dev = (unsigned long long)sb.st_dev;
        v[i].ino = (unsigned long long)sb.st_ino;
        v[i].size = (long long)sb.st_size;
    }
    /* the same file: each name's first earlier name of its inode (the
     * group's first in the order of i) */
    qsort(v, (size_t)n, sizeof *v, cmp_rep_inode);
    for (int g = 0, e; g < n; g = e) {
        for (e = g + 1; e < n && v[e].dev == v[g].dev && v[e].ino == v[g].ino; e++)
            ;
        for (int k = g + 1; k < e; k++)
            if (v[g].ok && v[k].ok)
                sf[v[k].i] = v[g].i;
    }
    /* the same bytes: only regular files of a size another has can be;
     * those are hashed once, and a pair of one size and hash compared
     * whole, for each i with its earlier ones in order until one is
     * the same */
    for (int k = 0; k < n; k++)
        if (!v[k].ok || !v[k].reg)
            v[k].size = -1 - (long long)k; /* a size of its own: never paired */
    qsort(v, (size_t)n, sizeof *v, cmp_rep_size);
    for (int g = 0, e; g < n; g = e) {
        for (e = g + 1; e < n && v[e].size == v[g].size; e++)
            ;
        if (e - g < 2)
            continue;
        for (int k = g; k < e; k++) {
            v[k].hashed = rep_hash(paths[v[k].i], &v[k].hash);
            if (opens)
                (*opens)++;
        }
        qsort(v + g, (size_t)(e - g), sizeof *v, cmp_rep_size);
    }
    for (int g = 0, e; g < n; g = e) {
        for (e = g + 1; e < n && v[e].size == v[g].size && v[e].hashed == v[g].hashed &&
                        v[e].hash == v[g].hash;
             e++)
            ;
        if (!v[g].hashed)
            continue;
        for (int k = g + 1; k < e; k++)
            for (int q = g; q < k && sc[v[k].i] < 0; q++) {
                if (opens)
                    *opens += 2;
                if (cr_file_same_content(paths[v[k].i], paths[v[q].i]))
                    sc[v[k].i] = v[q].i;
            }
    }
    found = 0;
    for (int i = 0; i < n && !found; i++) {
        if (sf[i] >= 0)
            found = 1, *first = sf[i], *second = i;
        else if (sc[i] >= 0)
            found = 2, *first = sc[i], *second = i;
    }
out:
    free(v);
    free(sf);
    free(sc);
    return found;
}
