/* SPDX-License-Identifier: MIT */
/* The library's growable string (sbuf.h). */
#include "sbuf.h"
#include "grow.h"

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* This thread in the C locale until c_leave (uselocale is per thread; the
 * process's locale, the host program's, is not touched). glibc's newlocale
 * hands out its static C locale for "C", so nothing is allocated; where it
 * fails the call runs in the locale there is. */
typedef struct {
    locale_t c, prev;
} c_scope;

static c_scope c_enter(void)
{
    c_scope s = {newlocale(LC_NUMERIC_MASK, "C", (locale_t)0), (locale_t)0};
    if (s.c != (locale_t)0)
        s.prev = uselocale(s.c);
    return s;
}

static void c_leave(c_scope s)
{
    if (s.c != (locale_t)0) {
        uselocale(s.prev);
        freelocale(s.c);
    }
}

int cr_vsnprintf_c(char *buf, size_t size, const char *fmt, va_list ap)
{
    c_scope s = c_enter();
    int n = vsnprintf(buf, size, fmt, ap);
    c_leave(s);
    return n;
}

int cr_snprintf_c(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = cr_vsnprintf_c(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

double cr_strtod_c(const char *str, char **end)
{
    c_scope s = c_enter();
    double v = strtod(str, end);
    int e = errno; /* callers read strtod's ERANGE */
    c_leave(s);
    errno = e;
    return v;
}

void cr_sbuf_add(cr_sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = cr_vsnprintf_c(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
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

void cr_sbuf_put(cr_sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (cr_grow((void **)&b->p, &b->cap, b->len + n + 1, 1)) {
        b->oom = true;
        return;
    }
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
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
