/* SPDX-License-Identifier: MIT */
/*
 * Trace files as every command opens them: a plain .json, or a .json.gz
 * decompressed as the reader asks for bytes (nothing written out, memory
 * the reader's: a stream that never ends or a gzip bomb is refused at its
 * first bytes that are not a trace). validate, roofline, plot, report,
 * calibrate and `trace summary` read traces through it.
 */
#ifndef CR_TRACE_FILE_H
#define CR_TRACE_FILE_H

#include "status.h"
#include "trace_reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An open trace file. */
typedef struct {
    cr_trace_reader *r; /* read its events with cr_trace_reader_next() */
    void *gz;           /* zlib's gzFile for a path ending in ".gz", else NULL */
    const char *path;   /* borrowed from the caller */
} cr_trace_file;

/* Opens path (gzip when it ends in ".gz"). Errors: those of the trace
 * reader (CR_EIO for a file that cannot be read or is not a regular file,
 * CR_ENOMEM), with d filled; nothing to close then. */
cr_status cr_trace_file_open(cr_trace_file *t, const char *path, cr_diag *d);

/* The status st that the reading loop ended with, with a corrupt or
 * truncated gzip stream (which zlib reports at its end, not as a read
 * error) turned into CR_EIO and zlib's reason in d. */
cr_status cr_trace_file_end(cr_trace_file *t, cr_status st, cr_diag *d);

/* Closes t (a closed or failed-to-open t, and NULL, are a no-op). */
void cr_trace_file_close(cr_trace_file *t);

#ifdef __cplusplus
}
#endif

#endif
