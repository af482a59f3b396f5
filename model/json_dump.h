/* SPDX-License-Identifier: MIT */
/*
 * The one way the library and the CLI turn a JSON value into text.
 *
 * jansson 2.14's json_dumps() ignores a failure to write an object's key:
 * where memory runs out there, it goes on and returns text with the key
 * cut (`": "h200-1"` for `"topo": "h200-1"`) as if all went well (QA audit
 * of allocation failures: check --measured-json printed it and exited 0).
 * Its callback form tells every write apart, so this one buffer sees each
 * failure, whatever jansson does with it.
 */
#ifndef CR_JSON_DUMP_H
#define CR_JSON_DUMP_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "grow.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

struct cr_json_text {
    char *p;
    size_t len, cap;
    bool oom; /* a write failed: the text is incomplete */
};

static inline int cr_json_text_add(const char *buf, size_t n, void *ctx)
{
    struct cr_json_text *t = ctx;
    if (t->oom || cr_grow((void **)&t->p, &t->cap, t->len + n + 1, 1)) {
        t->oom = true;
        return -1;
    }
    memcpy(t->p + t->len, buf, n);
    t->len += n;
    t->p[t->len] = '\0';
    return 0;
}

/* v as json_dumps(v, flags) writes it: a new string (free()), or NULL
 * where memory ran out or jansson refused v; never a text with a part
 * missing. */
static inline char *cr_json_dumps(const json_t *v, size_t flags)
{
    struct cr_json_text t = {0};
    if (json_dump_callback(v, cr_json_text_add, &t, flags) != 0 || t.oom || !t.p) {
        free(t.p);
        return NULL;
    }
    return t.p;
}

#pragma GCC visibility pop

#endif
