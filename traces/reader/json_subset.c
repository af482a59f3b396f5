/* SPDX-License-Identifier: MIT */
/*
 * The JSON subset parser of json_subset_priv.h. Why it exists: jansson's
 * lexer reads one byte at a time through a stream with a UTF-8 check and a
 * buffer append per byte, and builds a node for every value; for the trace
 * reader that was 65% of the time (perf, traces/README.md). This parser reads
 * the buffer in place and builds nodes only where asked. Where it is not
 * sure to give what jansson would, it says CR_JSUB_NO and jansson decides.
 */
#include "json_subset_priv.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

cr_jsub_result cr_jsub_ws_slow(cr_jsub *c)
{
    for (; c->p < c->end; c->p++) {
        char ch = *c->p;
        if (ch == '\n')
            c->lines++;
        else if (ch != ' ' && ch != '\t' && ch != '\r')
            return CR_JSUB_OK;
    }
    return CR_JSUB_SHORT;
}

cr_jsub_result cr_jsub_string(cr_jsub *c, const char **s, size_t *n)
{
    const unsigned char *p = (const unsigned char *)c->p + 1;
    const unsigned char *end = (const unsigned char *)c->end;
    /* Escapes, control bytes and UTF-8 go to jansson, which decodes and
     * checks them. */
    while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
        p++;
    if (p == end)
        return CR_JSUB_SHORT;
    if (*p != '"')
        return CR_JSUB_NO;
    *s = c->p + 1;
    *n = (size_t)((const char *)p - *s);
    c->p = (const char *)p + 1;
    return CR_JSUB_OK;
}

/* Exact powers of ten: every one up to 1e22 is a double (5^22 < 2^53). */
static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Reads digits into *m; false past 19 of them (*m would overflow). */
static bool digits(const char **pp, const char *end, uint64_t *m, unsigned *count)
{
    const char *p = *pp;
    for (; p < end && is_digit(*p); p++) {
        if (++*count > 19)
            return false;
        *m = *m * 10 + (uint64_t)(*p - '0');
    }
    *pp = p;
    return true;
}

cr_jsub_result cr_jsub_number(cr_jsub *c, cr_jsub_num *out)
{
    const char *p = c->p, *end = c->end;
    bool neg = p < end && *p == '-';
    if (neg)
        p++;
    if (p == end)
        return CR_JSUB_SHORT;
    if (!is_digit(*p))
        return CR_JSUB_NO;
    uint64_t m = 0;
    unsigned count = 0, frac = 0;
    if (*p == '0')
        p++; /* a leading zero stands alone: "01" goes to jansson (an error) */
    else if (!digits(&p, end, &m, &count))
        return CR_JSUB_NO;
    if (p == end)
        return CR_JSUB_SHORT;
    if (is_digit(*p) || *p == 'e' || *p == 'E')
        return CR_JSUB_NO;
    if (*p != '.') {
        if (count > 18) /* 10^18 < 2^63: strtoll cannot overflow */
            return CR_JSUB_NO;
        out->is_int = true;
        out->i = neg ? -(long long)m : (long long)m;
        c->p = p;
        return CR_JSUB_OK;
    }
    p++;
    if (p == end)
        return CR_JSUB_SHORT;
    if (!is_digit(*p))
        return CR_JSUB_NO;
    const char *frac_start = p;
    if (!digits(&p, end, &m, &count))
        return CR_JSUB_NO;
    frac = (unsigned)(p - frac_start);
    if (p == end)
        return CR_JSUB_SHORT;
    if (*p == 'e' || *p == 'E')
        return CR_JSUB_NO;
#if FLT_EVAL_METHOD != 0
    return CR_JSUB_NO; /* extended precision would round twice */
#else
    /* m and 10^frac are exact doubles, so the quotient is the correctly
     * rounded value of the decimal, which is what strtod returns (Clinger,
     * "How to read floating point numbers accurately", PLDI 1990). */
    if (m > ((uint64_t)1 << 53) || frac >= sizeof pow10_exact / sizeof pow10_exact[0])
        return CR_JSUB_NO;
    double d = (double)m / pow10_exact[frac];
    out->is_int = false;
    out->d = neg ? -d : d;
    c->p = p;
    return CR_JSUB_OK;
#endif
}

static cr_jsub_result literal(cr_jsub *c, const char *word)
{
    size_t n = strlen(word), have = (size_t)(c->end - c->p);
    if (have < n)
        return memcmp(c->p, word, have) == 0 ? CR_JSUB_SHORT : CR_JSUB_NO;
    if (memcmp(c->p, word, n) != 0)
        return CR_JSUB_NO;
    c->p += n;
    return CR_JSUB_OK;
}

cr_jsub_result cr_jsub_key(cr_jsub *c, const char **k, size_t *kn)
{
    if (*c->p != '"')
        return CR_JSUB_NO;
    cr_jsub_result res = cr_jsub_string(c, k, kn);
    if (res == CR_JSUB_OK)
        res = cr_jsub_ws(c);
    if (res != CR_JSUB_OK)
        return res;
    if (*c->p != ':')
        return CR_JSUB_NO;
    c->p++;
    return cr_jsub_ws(c);
}

static cr_jsub_result member(cr_jsub *c, json_t *obj)
{
    const char *k;
    size_t kn;
    cr_jsub_result res = cr_jsub_key(c, &k, &kn);
    if (res != CR_JSUB_OK)
        return res;
    json_t *v = NULL;
    res = cr_jsub_value(c, obj ? &v : NULL);
    if (res != CR_JSUB_OK || !obj)
        return res;
    char key[256];
    if (kn >= sizeof key) {
        json_decref(v);
        return CR_JSUB_NO;
    }
    memcpy(key, k, kn);
    key[kn] = '\0';
    /* as json_loadb does: a repeated key replaces the value (it steals v
     * even when it fails) */
    return json_object_set_new_nocheck(obj, key, v) == 0 ? CR_JSUB_OK : CR_JSUB_NO;
}

static cr_jsub_result object(cr_jsub *c, json_t *obj)
{
    bool more;
    cr_jsub_result res = cr_jsub_open(c, '}', &more);
    while (res == CR_JSUB_OK && more) {
        res = member(c, obj);
        if (res == CR_JSUB_OK)
            res = cr_jsub_after_item(c, '}', &more);
    }
    return res;
}

static cr_jsub_result array(cr_jsub *c, json_t *arr)
{
    bool more;
    cr_jsub_result res = cr_jsub_open(c, ']', &more);
    while (res == CR_JSUB_OK && more) {
        json_t *v = NULL;
        res = cr_jsub_value(c, arr ? &v : NULL);
        if (res == CR_JSUB_OK && arr && json_array_append_new(arr, v) != 0)
            res = CR_JSUB_NO;
        if (res == CR_JSUB_OK)
            res = cr_jsub_after_item(c, ']', &more);
    }
    return res;
}

static cr_jsub_result container(cr_jsub *c, json_t **out)
{
    bool is_obj = *c->p == '{';
    if (++c->depth > CR_JSUB_MAX_DEPTH)
        return CR_JSUB_NO;
    json_t *v = NULL;
    if (out && !(v = is_obj ? json_object() : json_array()))
        return CR_JSUB_NO;
    cr_jsub_result res = is_obj ? object(c, v) : array(c, v);
    c->depth--;
    if (res != CR_JSUB_OK) {
        json_decref(v);
        v = NULL;
    }
    if (out)
        *out = v;
    return res;
}

static json_t *num_json(const cr_jsub_num *n)
{
    return n->is_int ? json_integer((json_int_t)n->i) : json_real(n->d);
}

cr_jsub_result cr_jsub_value(cr_jsub *c, json_t **out)
{
    if (out)
        *out = NULL;
    if (c->p == c->end)
        return CR_JSUB_SHORT;
    cr_jsub_result res;
    json_t *v = NULL;
    char ch = *c->p;
    if (ch == '{' || ch == '[')
        return container(c, out);
    if (ch == '"') {
        const char *s;
        size_t n;
        res = cr_jsub_string(c, &s, &n);
        if (res == CR_JSUB_OK && out && !(v = json_stringn_nocheck(s, n)))
            res = CR_JSUB_NO;
    } else if (ch == '-' || is_digit(ch)) {
        cr_jsub_num num;
        res = cr_jsub_number(c, &num);
        if (res == CR_JSUB_OK && out && !(v = num_json(&num)))
            res = CR_JSUB_NO;
    } else if (ch == 't') {
        res = literal(c, "true");
        v = res == CR_JSUB_OK && out ? json_true() : NULL;
    } else if (ch == 'f') {
        res = literal(c, "false");
        v = res == CR_JSUB_OK && out ? json_false() : NULL;
    } else if (ch == 'n') {
        res = literal(c, "null");
        v = res == CR_JSUB_OK && out ? json_null() : NULL;
    } else {
        return CR_JSUB_NO;
    }
    if (out)
        *out = v;
    return res;
}

/* ---------- refill ---------- */

static cr_jsub_result refill_member(cr_jsub *c, void *it)
{
    const char *k;
    size_t kn;
    if (!it)
        return CR_JSUB_NO;
    cr_jsub_result res = cr_jsub_key(c, &k, &kn);
    if (res == CR_JSUB_OK && !cr_jsub_is(k, kn, json_object_iter_key(it)))
        res = CR_JSUB_NO;
    return res == CR_JSUB_OK ? cr_jsub_refill(c, json_object_iter_value(it)) : res;
}

/* The members in the order jansson iterates them, which is the order they
 * were set (hashtable.c keeps an ordered list); a repeated key can never
 * match, as old has each key once. */
static cr_jsub_result refill_object(cr_jsub *c, json_t *obj)
{
    void *it = json_object_iter(obj);
    bool more;
    cr_jsub_result res = cr_jsub_open(c, '}', &more);
    for (; res == CR_JSUB_OK && more; it = json_object_iter_next(obj, it)) {
        res = refill_member(c, it);
        if (res == CR_JSUB_OK)
            res = cr_jsub_after_item(c, '}', &more);
    }
    return res == CR_JSUB_OK && it ? CR_JSUB_NO : res; /* old has more members */
}

static cr_jsub_result refill_array(cr_jsub *c, json_t *arr)
{
    size_t n = json_array_size(arr), i = 0;
    bool more;
    cr_jsub_result res = cr_jsub_open(c, ']', &more);
    for (; res == CR_JSUB_OK && more; i++) {
        res = i < n ? cr_jsub_refill(c, json_array_get(arr, i)) : CR_JSUB_NO;
        if (res == CR_JSUB_OK)
            res = cr_jsub_after_item(c, ']', &more);
    }
    return res == CR_JSUB_OK && i != n ? CR_JSUB_NO : res; /* old has more elements */
}

static cr_jsub_result refill_scalar(cr_jsub *c, json_t *old)
{
    cr_jsub_result res;
    if (json_is_string(old)) {
        const char *s;
        size_t n;
        if (*c->p != '"')
            return CR_JSUB_NO;
        res = cr_jsub_string(c, &s, &n);
        if (res == CR_JSUB_OK &&
            (json_string_length(old) != n || memcmp(json_string_value(old), s, n) != 0))
            res = json_string_setn_nocheck(old, s, n) == 0 ? CR_JSUB_OK : CR_JSUB_NO;
        return res;
    }
    cr_jsub_num num;
    res = cr_jsub_number(c, &num);
    if (res != CR_JSUB_OK)
        return res;
    if (num.is_int != json_is_integer(old))
        return CR_JSUB_NO; /* jansson types 1 and 1.0 apart */
    return (num.is_int ? json_integer_set(old, (json_int_t)num.i) : json_real_set(old, num.d)) == 0
               ? CR_JSUB_OK
               : CR_JSUB_NO;
}

cr_jsub_result cr_jsub_refill(cr_jsub *c, json_t *old)
{
    if (c->p == c->end)
        return CR_JSUB_SHORT;
    /* the singletons: the same word or nothing */
    if (json_is_true(old))
        return *c->p == 't' ? literal(c, "true") : CR_JSUB_NO;
    if (json_is_false(old))
        return *c->p == 'f' ? literal(c, "false") : CR_JSUB_NO;
    if (json_is_null(old))
        return *c->p == 'n' ? literal(c, "null") : CR_JSUB_NO;
    if (old->refcount != 1)
        return CR_JSUB_NO; /* someone kept it: it must not change */
    if (json_is_object(old) || json_is_array(old)) {
        if (*c->p != (json_is_object(old) ? '{' : '['))
            return CR_JSUB_NO;
        if (++c->depth > CR_JSUB_MAX_DEPTH)
            return CR_JSUB_NO;
        cr_jsub_result res = json_is_object(old) ? refill_object(c, old) : refill_array(c, old);
        c->depth--;
        return res;
    }
    return refill_scalar(c, old);
}
