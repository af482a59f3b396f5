/* SPDX-License-Identifier: MIT */
/*
 * A growable string for the text that plots/ writes (tables, HTML). Internal
 * to plots/: nothing outside the folder includes this header.
 */
#ifndef CR_PLOTS_SBUF_PRIV_H
#define CR_PLOTS_SBUF_PRIV_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *p; /* NUL-terminated once anything was added; owned */
    size_t len, cap;
    bool oom; /* an allocation failed: the text is incomplete */
} cr_sbuf;

/* Appends formatted text; on allocation failure sets b->oom and stops. */
void cr_sbuf_add(cr_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends s with <, >, &, " escaped for HTML. */
void cr_sbuf_html(cr_sbuf *b, const char *s);

/* Frees the text. */
void cr_sbuf_release(cr_sbuf *b);

#endif
