/* SPDX-License-Identifier: MIT */
/*
 * A growable string for building JSON text without stdio, shared by the
 * tracer (commroof_trace.c) and its NVTX payload decoder (nvtx_payload.h,
 * also built into tests/fuzz/fuzz_nvtx_payload.c). Allocation failure sets
 * oom and leaves the text as it was; callers drop the record and count it.
 */
#ifndef CR_TRACER_SB_H
#define CR_TRACER_SB_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    size_t len, cap;
    bool oom;
} sb_t;

static inline void sb_reserve(sb_t *s, size_t extra)
{
    if (s->oom || s->len + extra + 1 <= s->cap)
        return;
    size_t cap = s->cap ? s->cap : 4096;
    while (cap < s->len + extra + 1)
        cap *= 2;
    char *p = realloc(s->p, cap);
    if (!p) {
        s->oom = true;
        return;
    }
    s->p = p;
    s->cap = cap;
}

static inline void sb_put(sb_t *s, const char *str, size_t n)
{
    sb_reserve(s, n);
    if (s->oom)
        return;
    memcpy(s->p + s->len, str, n);
    s->len += n;
    s->p[s->len] = '\0';
}

static inline void sb_puts(sb_t *s, const char *str)
{
    sb_put(s, str, strlen(str));
}

__attribute__((format(printf, 2, 3))) static inline void sb_printf(sb_t *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        sb_put(s, tmp, (size_t)n);
        return;
    }
    sb_reserve(s, (size_t)n);
    if (s->oom)
        return;
    va_start(ap, fmt);
    vsnprintf(s->p + s->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->len += (size_t)n;
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when invalid. */
static inline size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4;
    else
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* A JSON string literal; invalid UTF-8 bytes become '?' so every line parses. */
static inline void sb_str(sb_t *s, const char *str)
{
    sb_put(s, "\"", 1);
    if (!str)
        str = "";
    const unsigned char *p = (const unsigned char *)str;
    while (*p) {
        const unsigned char *q = p;
        while (*q >= 0x20 && *q < 0x80 && *q != '"' && *q != '\\')
            q++;
        if (q > p) {
            sb_put(s, (const char *)p, (size_t)(q - p));
            p = q;
            continue;
        }
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            sb_put(s, e, 2);
            p++;
        } else if (*p < 0x20) {
            sb_printf(s, "\\u%04x", *p);
            p++;
        } else {
            size_t n = utf8_len(p);
            if (n == 0) {
                sb_put(s, "?", 1);
                p++;
            } else {
                sb_put(s, (const char *)p, n);
                p += n;
            }
        }
    }
    sb_put(s, "\"", 1);
}

#endif
