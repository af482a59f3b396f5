/* SPDX-License-Identifier: MIT */
/* The growable string of plots/ (see sbuf_priv.h). */
#include "plots/sbuf_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void cr_sbuf_add(cr_sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if (b->p && (size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t ncap = b->cap ? b->cap * 2 : 4096;
        while (ncap < b->len + (size_t)n + 1)
            ncap *= 2;
        char *np = realloc(b->p, ncap);
        if (!np) {
            b->oom = true;
            return;
        }
        b->p = np;
        b->cap = ncap;
    }
}

void cr_sbuf_html(cr_sbuf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            cr_sbuf_add(b, "&lt;");
            break;
        case '>':
            cr_sbuf_add(b, "&gt;");
            break;
        case '&':
            cr_sbuf_add(b, "&amp;");
            break;
        case '"':
            cr_sbuf_add(b, "&quot;");
            break;
        default:
            cr_sbuf_add(b, "%c", *s);
        }
    }
}

void cr_sbuf_gnuplot(cr_sbuf *b, const char *s)
{
    cr_sbuf_add(b, "\"");
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            cr_sbuf_add(b, "\\%c", ch);
        else if (ch == '`' || ch == '\'' || ch == '@')
            cr_sbuf_add(b, "\\%03o", ch);
        else if (ch == '\n')
            cr_sbuf_add(b, "\\n");
        else if (ch >= 0x20)
            cr_sbuf_add(b, "%c", ch);
    }
    cr_sbuf_add(b, "\"");
}

void cr_sbuf_release(cr_sbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
    b->oom = false;
}
