/* SPDX-License-Identifier: MIT */
/*
 * The one way the library and the CLI turn a JSON value into text (the
 * CLI's cli_json_fputs prints it).
 *
 * jansson 2.14's json_dumps() ignores a failure to write an object's key:
 * where memory runs out there, it goes on and returns text with the key
 * cut (`": "h200-1"` for `"topo": "h200-1"`) as if all went well (QA audit
 * of allocation failures: check --measured-json printed it and exited 0).
 * Its callback form tells every write apart, so the buffer sees each
 * failure, whatever jansson does with it.
 */
#ifndef CR_JSON_DUMP_H
#define CR_JSON_DUMP_H

#include <stdlib.h>

#include <jansson.h>

#include "sbuf.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

static inline int cr_json_text_add(const char *buf, size_t n, void *ctx)
{
    cr_sbuf *b = ctx;
    cr_sbuf_put(b, buf, n);
    return b->oom ? -1 : 0;
}

/* v as json_dumps(v, flags) writes it: a new string (free()), or NULL
 * where memory ran out or jansson refused v; never a text with a part
 * missing. Built in the library's one string builder (cr_sbuf). */
static inline char *cr_json_dumps(const json_t *v, size_t flags)
{
    cr_sbuf b = {0};
    if (json_dump_callback(v, cr_json_text_add, &b, flags) != 0 || b.oom || !b.p) {
        cr_sbuf_release(&b);
        return NULL;
    }
    return b.p;
}

#pragma GCC visibility pop

#endif
