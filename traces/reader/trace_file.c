/* SPDX-License-Identifier: MIT */
/* Trace files, plain or gzip-compressed (trace_file.h). */
#include "trace_file.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fileio.h"

static bool ends_with(const char *s, const char *suffix)
{
    if (!s) /* no path: the reader says so */
        return false;
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
    /* zlib's message starts with the path again, or with "<fd:3>" for a
     * file opened by descriptor (gzdopen): the path is said already */
    size_t pl = strlen(path);
    if (msg && !strncmp(msg, path, pl) && !strncmp(msg + pl, ": ", 2))
        msg += pl + 2;
    else if (msg && !strncmp(msg, "<fd:", 4) && strstr(msg, ">: "))
        msg = strstr(msg, ">: ") + 3;
    return cr_diag_set(d, CR_EIO,
                       "%s: not a valid gzip file (zlib: %s); give the trace as .json or a "
                       "complete .json.gz",
                       path, msg && *msg && zerr != Z_OK ? msg : "read error");
}

cr_status cr_trace_file_open(cr_trace_file *t, const char *path, cr_diag *d)
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

cr_status cr_trace_file_end(cr_trace_file *t, cr_status st, cr_diag *d)
{
    int zerr = Z_OK;
    gzFile gz = t->gz;
    if (gz && (st == CR_EIO || (st == CR_OK && (gzerror(gz, &zerr), zerr != Z_OK))))
        st = gz_fail(gz, t->path, d);
    return st;
}

void cr_trace_file_close(cr_trace_file *t)
{
    if (!t) /* as every other free and release (QA audit of the API) */
        return;
    cr_trace_reader_free(t->r);
    if (t->gz)
        gzclose((gzFile)t->gz);
    t->r = NULL;
    t->gz = NULL;
}
