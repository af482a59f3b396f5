/* SPDX-License-Identifier: MIT */
/*
 * A growable string for building JSON text without stdio, shared by the
 * tracer (trace_*.c, tracer.h) and its NVTX payload decoder (nvtx_payload.h,
 * also built into tests/fuzz/fuzz_nvtx_payload.c). Allocation failure sets
 * oom and leaves the text as it was; callers drop the record and count it.
 */
#ifndef CR_TRACER_SB_H
#define CR_TRACER_SB_H
#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

/* v as a JSON number, %.17g with a '.' whatever locale the traced program
 * set: one that called setlocale(LC_ALL, "") (C++'s std::locale::global
 * of a named locale does) under de_DE wrote "1,5", and the reader refused
 * the whole trace. uselocale is per thread, so the program's own locale is
 * left as it was; where newlocale fails the number is written as before.
 * NaN and the infinities, which JSON has not, are null. */
static inline void sb_double(sb_t *s, double v)
{
    if (!(v == v && v < 1e308 && v > -1e308)) {
        sb_puts(s, "null");
        return;
    }
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t prev = c != (locale_t)0 ? uselocale(c) : (locale_t)0;
    sb_printf(s, "%.17g", v);
    if (c != (locale_t)0) {
        uselocale(prev);
        freelocale(c);
    }
}

/*
 * UTF-8 as the trace reader (jansson's json_loadb) accepts it: the
 * well-formed byte sequences of the Unicode Standard, 15.0, section 3.9,
 * Table 3-7. No overlong forms (C0, C1, E0 80..9F, F0 80..8F), no surrogates
 * (ED A0..BF), nothing above U+10FFFF (F4 90..BF, F5..FF), no stray
 * continuation bytes (80..BF) and no sequence cut short. jansson's
 * utf8_check_first/utf8_check_full reject exactly these (by decoding and
 * checking the value); tests/unit/test_tracer.c holds both to the same
 * verdict on every lead byte with the boundary values of the bytes after it.
 *
 * At p, with avail bytes there (avail >= 1): true and in *n the length (1..4)
 * of the well-formed sequence that starts there; or false and in *n the
 * length (1..3) of its maximal subpart, the bytes that one U+FFFD replaces
 * (section 3.9, "U+FFFD Substitution of Maximal Subparts"): the longest
 * prefix of some well-formed sequence, or the first byte where none starts.
 * A NUL is never a continuation byte, so on a NUL-terminated string avail
 * may be SIZE_MAX: no byte past the NUL is read.
 */
static inline bool sb_utf8_seq(const unsigned char *p, size_t avail, size_t *n)
{
    unsigned c = p[0];
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range (Table 3-7) */
    size_t need;
    *n = 1;
    if (c < 0x80)
        return true;
    if (c >= 0xc2 && c <= 0xdf) {
        need = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        need = 3;
        if (c == 0xe0)
            lo = 0xa0; /* below: overlong */
        else if (c == 0xed)
            hi = 0x9f; /* above: surrogates D800..DFFF */
    } else if (c >= 0xf0 && c <= 0xf4) {
        need = 4;
        if (c == 0xf0)
            lo = 0x90; /* below: overlong */
        else if (c == 0xf4)
            hi = 0x8f; /* above: beyond U+10FFFF */
    } else {
        return false; /* 80..C1, F5..FF start nothing */
    }
    for (size_t i = 1; i < need; i++) {
        if (i >= avail)
            return false;
        unsigned b = p[i];
        if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xbfu))
            return false;
        *n = i + 1;
    }
    return true;
}

/* The UTF-8 bytes of code point cp into out (room for 4); U+FFFD for what
 * is no Unicode scalar value (a surrogate, beyond U+10FFFF). Returns the
 * number of bytes. */
static inline size_t sb_utf8_encode(unsigned long cp, char *out)
{
    unsigned char *o = (unsigned char *)out;
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        cp = 0xfffd;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xc0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xe0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (unsigned char)(0xf0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The length, at most n, of s[0..n) without a last character that a cut at
 * n split in two (its first bytes are a prefix of a well-formed sequence
 * that runs past n). For strings the tracer shortens to its limits, so that
 * the cut does not become a U+FFFD. */
static inline size_t sb_utf8_cut(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, k;
    while (i < n) {
        if (!sb_utf8_seq(p + i, n - i, &k) && i + k == n && p[i] >= 0xc2 && p[i] <= 0xf4)
            return i;
        i += k;
    }
    return n;
}

/* A JSON string literal of the NUL-terminated str (NULL: ""), valid UTF-8
 * whatever str holds: control bytes escaped, each maximal subpart of an
 * ill-formed sequence replaced by U+FFFD (sb_utf8_seq), so that the reader
 * accepts every line. */
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
            size_t n;
            if (sb_utf8_seq(p, SIZE_MAX, &n))
                sb_put(s, (const char *)p, n);
            else
                sb_put(s, "\xef\xbf\xbd", 3); /* U+FFFD REPLACEMENT CHARACTER */
            p += n;
        }
    }
    sb_put(s, "\"", 1);
}

#endif
