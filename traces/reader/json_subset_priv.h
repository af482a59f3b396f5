/* SPDX-License-Identifier: MIT */
/*
 * A parser for the part of JSON that trace writers produce, for the trace
 * reader's fast path (trace_reader.c); internal to traces/reader/.
 *
 * It accepts a strict subset of what jansson accepts and, on that subset,
 * builds the same tree json_loadb() would (same types, values, key order):
 *   - strings of printable ASCII without escapes (bytes 0x20..0x7f but '"'
 *     and '\\');
 *   - numbers -?(0|[1-9][0-9]*)(.[0-9]+)? without an exponent: an integer of
 *     at most 18 digits (no overflow), a real whose digits make an integer
 *     below 2^53 with at most 22 after the point, so that one division by an
 *     exact power of ten gives the correctly rounded double, as strtod does;
 *   - true, false, null; objects and arrays nested at most CR_JSUB_MAX_DEPTH;
 *   - object keys under 256 bytes.
 * Anything else, valid JSON or not, is CR_JSUB_NO: the caller hands the
 * bytes to jansson, which accepts them or reports the error as ever. The
 * subset parser itself never reports an error.
 */
#ifndef CR_JSON_SUBSET_PRIV_H
#define CR_JSON_SUBSET_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <jansson.h>

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

#define CR_JSUB_MAX_DEPTH 32

typedef enum {
    CR_JSUB_OK,
    CR_JSUB_NO,    /* outside the subset (or out of memory): use jansson */
    CR_JSUB_SHORT, /* the input ended first: more bytes may complete it */
} cr_jsub_result;

/* A cursor over the bytes [p, end); lines counts the newlines skipped. */
typedef struct {
    const char *p, *end;
    unsigned long lines;
    unsigned depth;
} cr_jsub;

/* A number as jansson types it: an integer (i) or a real (d). */
typedef struct {
    bool is_int;
    long long i;
    double d;
} cr_jsub_num;

/* Skips JSON whitespace; CR_JSUB_SHORT when none but whitespace is left. */
cr_jsub_result cr_jsub_ws_slow(cr_jsub *c);
static inline cr_jsub_result cr_jsub_ws(cr_jsub *c)
{
    /* compact JSON has none: one compare, no call */
    if (c->p < c->end && (unsigned char)*c->p > ' ')
        return CR_JSUB_OK;
    return cr_jsub_ws_slow(c);
}

/* At a '"': the string's bytes (borrowed from the input, not terminated). */
cr_jsub_result cr_jsub_string(cr_jsub *c, const char **s, size_t *n);

/* Whether the n bytes at s (a string as cr_jsub_string gives it) are word. */
static inline bool cr_jsub_is(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* At an object member: its key (as cr_jsub_string gives it), the ':' and
 * the whitespace up to the value. */
cr_jsub_result cr_jsub_key(cr_jsub *c, const char **k, size_t *kn);

/* At a container's '{' or '[': takes it and the whitespace after; *more is
 * false when close follows at once (the container is empty; taken too). */
static inline cr_jsub_result cr_jsub_open(cr_jsub *c, char close, bool *more)
{
    c->p++;
    cr_jsub_result res = cr_jsub_ws(c);
    *more = res != CR_JSUB_OK || *c->p != close;
    if (!*more)
        c->p++;
    return res;
}

/* After a member or element: skips whitespace, then takes the ',' (*more
 * true, and the whitespace after it) or the closing byte close. */
static inline cr_jsub_result cr_jsub_after_item(cr_jsub *c, char close, bool *more)
{
    cr_jsub_result res = cr_jsub_ws(c);
    if (res != CR_JSUB_OK)
        return res;
    if (*c->p != ',' && *c->p != close)
        return CR_JSUB_NO;
    *more = *c->p == ',';
    c->p++;
    return *more ? cr_jsub_ws(c) : CR_JSUB_OK;
}

/* The number at c; CR_JSUB_NO where c holds no number (another type). */
cr_jsub_result cr_jsub_number(cr_jsub *c, cr_jsub_num *out);

/* Any value. With out, *out is its new tree (the caller owns it; NULL unless
 * CR_JSUB_OK); with out NULL the value is only checked. */
cr_jsub_result cr_jsub_value(cr_jsub *c, json_t **out);

/* Parses the value at c into old, a tree that no one else holds (every node
 * not a singleton has refcount 1, else CR_JSUB_NO): where the value has the
 * shape of old (types, the same object keys in the same order, the same
 * array lengths), every scalar of old takes its new value in place, with no
 * allocation but for changed strings; on CR_JSUB_OK old equals what
 * cr_jsub_value would build. CR_JSUB_NO also when the shapes differ, and
 * then, as after CR_JSUB_SHORT, old holds a mix of both: it must be dropped
 * or refilled whole. */
cr_jsub_result cr_jsub_refill(cr_jsub *c, json_t *old);

#pragma GCC visibility pop

#endif
