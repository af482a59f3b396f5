/* SPDX-License-Identifier: MIT */
/*
 * Status codes and diagnostics shared by every libcommroof module.
 *
 * Functions that can fail return a cr_status. Parsers and checkers also take
 * an optional cr_diag that receives one human message, "file:line: what is
 * wrong, what would be right". The library never prints and never exits.
 */
#ifndef CR_STATUS_H
#define CR_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CR_OK = 0,
    CR_ENOMEM,       /* allocation failed */
    CR_EINVAL,       /* an argument or a value in the input is invalid */
    CR_EIO,          /* a file could not be read or written */
    CR_EPARSE,       /* malformed input (XML, JSON, number with unit) */
    CR_ENOTFOUND,    /* a named thing (topology, GPU, operator) does not exist */
    CR_ERANGE,       /* a number is out of the representable or sensible range */
    CR_EUNSUPPORTED, /* valid request the model does not cover */
    CR_EINVARIANT,   /* a topology violates a structural invariant */
    CR_EDUPLICATE,   /* one input given twice (itself, inside a folder also given, or a
                        copy under another name): the caller's usage error */
} cr_status;

/* Returns a static, human description of a status ("out of memory", ...). */
const char *cr_strerror(cr_status st);

/* One diagnostic message. Zero-initialise before use; empty means none. */
typedef struct {
    char msg[1024];
} cr_diag;

/* Formats a message into d (if d is not NULL) and returns st, so a failing
 * path reads `return cr_diag_set(d, CR_EINVAL, "%s:%d: ...", ...);`. The first
 * message wins: a later call does not overwrite an earlier one. */
cr_status cr_diag_set(cr_diag *d, cr_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif
