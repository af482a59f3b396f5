/* SPDX-License-Identifier: MIT */
/*
 * validate: trace files as validate/'s readers open them (plain, or gzip
 * decompressed as the trace reader asks for bytes) and the one folder walk
 * that gathers them (validate_priv.h: cr_vtrace_open, cr_vtrace_each).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "fileio.h"
#include "traces/reader/trace_reader.h"
#include "validate.h"
#include "validate_priv.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Opens a gzip file for gz_read. Errors: CR_EIO (cannot open), with the
 * file and why in d. */
static cr_status gz_open(const char *path, gzFile *out, cr_diag *d)
{
    *out = NULL;
    int fd = -1;
    if (cr_file_open_read(path, "a trace file (.json.gz)", CR_FILE_STREAM, &fd, NULL, d) != CR_OK)
        return CR_EIO;
    gzFile g = gzdopen(fd, "rb");
    if (!g) {
        close(fd);
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
    }
    *out = g;
    return CR_OK;
}

/* The trace reader's bytes from a .json.gz, decompressed as it asks for
 * them: nothing is written out and memory stays the reader's, so a stream
 * that never ends (a .json.gz linked to /dev/zero) or a gzip bomb is
 * refused at its first bytes that are not a trace, or read through like a
 * plain file of that size. */
static long gz_read(void *ctx, void *buf, size_t n)
{
    return gzread((gzFile)ctx, buf, n > 1u << 30 ? 1u << 30 : (unsigned)n);
}

/* After a read error in g: zlib's reason (corrupt or truncated data) in d. */
static cr_status gz_fail(gzFile g, const char *path, cr_diag *d)
{
    int zerr = 0;
    const char *msg = gzerror(g, &zerr);
    /* zlib's message starts with the path again */
    size_t pl = strlen(path);
    if (msg && !strncmp(msg, path, pl) && !strncmp(msg + pl, ": ", 2))
        msg += pl + 2;
    return cr_diag_set(d, CR_EIO,
                       "%s: not a valid gzip file (zlib: %s); give the trace as .json or a "
                       "complete .json.gz",
                       path, msg && *msg && zerr != Z_OK ? msg : "read error");
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The one rule for which files of a folder are traces, wherever validate/,
 * plots/ and the CLI gather them: *.json and *.json.gz, hidden files (a
 * leading '.', as a shell's * leaves them out: editors' and macOS's "._"
 * companions) left out. */
static bool is_trace_name(const char *name)
{
    size_t len = strlen(name);
    if (name[0] == '.')
        return false;
    return (len > 5 && strcmp(name + len - 5, ".json") == 0) ||
           (len > 8 && strcmp(name + len - 8, ".json.gz") == 0);
}

cr_status cr_vtrace_each(const char *path, cr_vtrace_fn fn, void *ctx, cr_vread_info *info,
                         cr_diag *d)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return fn(path, ctx, info, d);
    DIR *dp = opendir(path);
    if (!dp)
        return cr_diag_set(d, CR_EIO, "%s: cannot open folder: %s", path, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int read = 0;
    cr_status st = CR_OK;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (!is_trace_name(e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **t = realloc(names, cap * sizeof *t);
            if (!t) {
                st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                goto out;
            }
            names = t;
        }
        size_t sz = strlen(path) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(sz))) {
            st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
            goto out;
        }
        snprintf(names[n++], sz, "%s/%s", path, e->d_name);
    }
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        cr_diag fd = {{0}};
        cr_status fs = fn(names[i], ctx, info, &fd);
        if (fs == CR_ENOMEM) {
            st = cr_diag_set(d, CR_ENOMEM, "%s", fd.msg);
            goto out;
        }
        if (fs != CR_OK) {
            if (info->not_traces++ == 0)
                snprintf(info->not_trace_why, sizeof info->not_trace_why, "%.300s", fd.msg);
            continue;
        }
        read++;
    }
    if (read == 0)
        st =
            cr_diag_set(d, CR_EIO, "%s: no trace file (*.json, *.json.gz) in this folder reads%s%s",
                        path, n ? "; first: " : "", n ? info->not_trace_why : "");
out:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(dp);
    return st;
}

cr_status cr_vtrace_open(cr_vtrace *t, const char *path, cr_diag *d)
{
    gzFile gz = NULL;
    t->r = NULL;
    t->gz = NULL;
    t->path = path;
    cr_status st = ends_with(path, ".gz") ? gz_open(path, &gz, d) : CR_OK;
    if (st != CR_OK)
        return st;
    st = gz ? cr_trace_reader_open_read(gz_read, gz, path, &t->r)
            : cr_trace_reader_open(path, &t->r, d);
    if (st == CR_ENOMEM && gz)
        cr_diag_set(d, st, "%s: out of memory", path);
    if (st != CR_OK) {
        if (gz)
            gzclose(gz);
        return st;
    }
    t->gz = gz;
    return CR_OK;
}

cr_status cr_vtrace_end(cr_vtrace *t, cr_status st, cr_diag *d)
{
    int zerr = Z_OK;
    gzFile gz = t->gz;
    if (gz && (st == CR_EIO || (st == CR_OK && (gzerror(gz, &zerr), zerr != Z_OK))))
        st = gz_fail(gz, t->path, d);
    return st;
}

void cr_vtrace_close(cr_vtrace *t)
{
    cr_trace_reader_free(t->r);
    if (t->gz)
        gzclose((gzFile)t->gz);
    t->r = NULL;
    t->gz = NULL;
}
