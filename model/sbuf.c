/* SPDX-License-Identifier: MIT */
/* The library's growable string (sbuf.h). */
#include "sbuf.h"
#include "grow.h"

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
        if (cr_grow((void **)&b->p, &b->cap, b->len + (size_t)n + 1, 1)) {
            b->oom = true;
            return;
        }
    }
}

void cr_sbuf_xml(cr_sbuf *b, const char *s)
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

void cr_sbuf_shell(cr_sbuf *b, const char *s)
{
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789_./,:=+-@%";
    if (s && s[0] && strspn(s, plain) == strlen(s)) {
        cr_sbuf_add(b, "%s", s);
        return;
    }
    cr_sbuf_add(b, "'");
    for (; s && *s; s++)
        cr_sbuf_add(b, *s == '\'' ? "'\\''" : "%c", *s);
    cr_sbuf_add(b, "'");
}

void cr_sbuf_release(cr_sbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
    b->oom = false;
}
