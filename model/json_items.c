/* SPDX-License-Identifier: MIT */
/*
 * json_items: a JSON array read one item at a time (see json_items.h). A
 * small scanner finds where each item's text ends (strings, escapes and
 * nesting); jansson parses that text, so what an item may hold and the
 * errors inside it are jansson's, as with a whole-file load.
 */
#include "sbuf.h"
#include "json_items.h"
#include "grow.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { BUF_BYTES = 1 << 16 };

typedef enum {
    ST_START,
    ST_OBJ_FIRST, /* after the top-level '{' */
    ST_OBJ_MEMBER,
    ST_OBJ_NEXT, /* after a member: ',' or '}' */
    ST_OBJ_END,
    ST_ARR_FIRST, /* after the array's '[' */
    ST_ITEM,
    ST_ARR_NEXT, /* after an item: ',' or ']' */
    ST_TAIL,
    ST_END,
    ST_ERROR,
} state;

struct cr_json_items {
    FILE *f;
    char label[256];
    char member[64];
    unsigned char buf[BUF_BYTES];
    size_t pos, len;
    bool eof, ioerr;
    unsigned long line;
    state st;
    bool bare;        /* the input is the array itself */
    bool seen_member; /* the object's member array was read */
    size_t count;
    char *text; /* the item being captured */
    size_t text_len, text_cap;
    cr_status err;
    char errmsg[sizeof(((cr_diag *)0)->msg)];
    cr_json_member_fn on_member;
    void *member_ctx;
};

cr_status cr_json_items_open(FILE *f, const char *label, const char *member, cr_json_items **out)
{
    cr_json_items *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return CR_ENOMEM;
    r->f = f;
    cr_str_copy(r->label, sizeof r->label, label ? label : "<json>");
    cr_str_copy(r->member, sizeof r->member, member ? member : "results");
    r->line = 1;
    return CR_OK;
}

void cr_json_items_on_member(cr_json_items *r, cr_json_member_fn fn, void *ctx)
{
    r->on_member = fn;
    r->member_ctx = ctx;
}

size_t cr_json_items_count(const cr_json_items *r)
{
    return r->count;
}

void cr_json_items_free(cr_json_items *r)
{
    if (!r)
        return;
    free(r->text);
    free(r);
}

/* The next byte, or -1 at the end (or after a read error: r->ioerr). */
static int peek(cr_json_items *r)
{
    if (r->pos == r->len) {
        if (r->eof)
            return -1;
        r->pos = 0;
        r->len = fread(r->buf, 1, sizeof r->buf, r->f);
        if (r->len == 0) {
            r->eof = true;
            r->ioerr = ferror(r->f) != 0;
            return -1;
        }
    }
    return r->buf[r->pos];
}

static int get(cr_json_items *r)
{
    int c = peek(r);
    if (c >= 0) {
        r->pos++;
        r->line += c == '\n';
    }
    return c;
}

static void skip_ws(cr_json_items *r)
{
    int c;
    while ((c = peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        get(r);
}

static cr_status fail(cr_json_items *r, cr_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cr_status fail(cr_json_items *r, cr_status st, const char *fmt, ...)
{
    if (r->ioerr) {
        st = CR_EIO;
        snprintf(r->errmsg, sizeof r->errmsg, "%s: read error: %s", r->label, strerror(errno));
    } else {
        va_list ap;
        va_start(ap, fmt);
        cr_vsnprintf_c(r->errmsg, sizeof r->errmsg, fmt, ap);
        va_end(ap);
    }
    r->err = st;
    r->st = ST_ERROR;
    return st;
}

/* "'x'" for a byte, "the end of the input" at the end. */
static const char *shown(int c, char *buf, size_t n)
{
    if (c < 0)
        cr_str_copy(buf, n, "the end of the input");
    else if (c >= 0x20 && c < 0x7f)
        snprintf(buf, n, "'%c'", c);
    else
        snprintf(buf, n, "byte 0x%02x", (unsigned)c);
    return buf;
}

static cr_status take(cr_json_items *r, int c, const char *what)
{
    if (r->text_len >= CR_JSON_ITEM_MAX_BYTES)
        return fail(r, CR_ERANGE,
                    "%s:%lu: %s is over %u bytes of JSON (one result record is well under "
                    "1 KiB): split it, or check that the file is what you meant",
                    r->label, r->line, what, CR_JSON_ITEM_MAX_BYTES);
    /* room for c and the terminator that capture writes */
    if (cr_grow((void **)&r->text, &r->text_cap, r->text_len + 2, 1))
        return fail(r, CR_ENOMEM, "%s: out of memory", r->label);
    r->text[r->text_len++] = (char)c;
    return CR_OK;
}

/* Captures the text of the JSON value that starts here into r->text, up to
 * where a scanner can tell it ends; jansson checks it. what names it in
 * errors ("item 3"). */
static cr_status capture(cr_json_items *r, const char *what)
{
    r->text_len = 0;
    int depth = 0;
    bool in_str = false, esc = false;
    char sb[32];
    for (;;) {
        int c = peek(r);
        if (c < 0) {
            if (depth == 0 && !in_str && r->text_len > 0)
                break;
            return fail(r, CR_EPARSE, "%s:%lu: the input ends inside %s (cut short?)", r->label,
                        r->line, what);
        }
        if (!in_str && depth == 0 && r->text_len > 0 &&
            (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r'))
            break;
        if (!in_str && depth == 0 && r->text_len == 0 && (c == ',' || c == ']' || c == '}'))
            return fail(r, CR_EPARSE, "%s:%lu: expected %s, found %s", r->label, r->line, what,
                        shown(c, sb, sizeof sb));
        get(r);
        if (take(r, c, what) != CR_OK)
            return r->err;
        if (in_str) {
            if (esc)
                esc = false;
            else if (c == '\\')
                esc = true;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        }
        if (!in_str && depth <= 0 && (c == '"' || c == '}' || c == ']'))
            break; /* a string or container closed at the top */
    }
    r->text[r->text_len] = '\0';
    return CR_OK;
}

/* jansson's words for what it refused, where they name its own flags or
 * limits rather than what is wrong in the file (QA audit, 2026-12-06) */
static const char *reader_words(const char *text)
{
    if (strstr(text, "JSON_ALLOW_NUL"))
        return "a \\u0000 (NUL character) inside a string: remove it";
    if (strstr(text, "too big")) /* "too big integer", "too big negative integer" */
        return "an integer beyond 64 bits: write it smaller, or as a number with an exponent "
               "(e.g. 1e20)";
    return text;
}

/* Parses r->text (captured at line line0) into *out. */
static cr_status parse(cr_json_items *r, unsigned long line0, const char *what, json_t **out)
{
    json_error_t je;
    *out = json_loadb(r->text, r->text_len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    /* jansson says why only where memory ran out late; early (its lexer's
     * buffer) it leaves the text empty, which no syntax error does */
    if (!*out && (json_error_code(&je) == json_error_out_of_memory || !je.text[0]))
        return fail(r, CR_ENOMEM, "%s:%lu: %s: out of memory", r->label, line0, what);
    if (!*out)
        return fail(r, CR_EPARSE, "%s:%lu: %s: %s", r->label,
                    line0 + (unsigned long)(je.line > 0 ? je.line - 1 : 0), what,
                    reader_words(je.text));
    return CR_OK;
}

cr_status cr_json_items_next(cr_json_items *r, json_t **item, cr_diag *d)
{
    *item = NULL;
    char what[64], sb[32];
    for (;;) {
        if (r->st == ST_ERROR)
            return cr_diag_set(d, r->err, "%s", r->errmsg);
        if (r->st == ST_END)
            return CR_OK;
        skip_ws(r);
        unsigned long line0 = r->line;
        int c = peek(r);
        switch (r->st) {
        case ST_START:
            /* a UTF-8 byte-order mark (an editor's) before the text: passed
             * over, as the logs' and traces' readers do */
            if (c == 0xef && r->line == 1 && r->pos == 0 && r->len >= 3 &&
                memcmp(r->buf, "\xef\xbb\xbf", 3) == 0) {
                r->pos = 3;
                continue;
            }
            if (c == '[' || c == '{') {
                get(r);
                r->bare = c == '[';
                r->st = c == '[' ? ST_ARR_FIRST : ST_OBJ_FIRST;
            } else {
                fail(r, CR_EPARSE,
                     "%s:%lu: expected a JSON array, or an object with a \"%s\" array, found %s",
                     r->label, r->line, r->member, shown(c, sb, sizeof sb));
            }
            break;
        case ST_OBJ_FIRST:
            if (c == '}') {
                get(r);
                r->st = ST_OBJ_END;
            } else {
                r->st = ST_OBJ_MEMBER;
            }
            break;
        case ST_OBJ_MEMBER: {
            if (c != '"') {
                fail(r, CR_EPARSE, "%s:%lu: expected a member name (a string), found %s", r->label,
                     r->line, shown(c, sb, sizeof sb));
                break;
            }
            json_t *key = NULL;
            if (capture(r, "a member name") != CR_OK || parse(r, line0, "member name", &key))
                break;
            bool mine = json_is_string(key) && strcmp(json_string_value(key), r->member) == 0;
            char name[64];
            cr_str_copy(name, sizeof name, json_is_string(key) ? json_string_value(key) : "");
            json_decref(key);
            skip_ws(r);
            if ((c = get(r)) != ':') {
                fail(r, CR_EPARSE, "%s:%lu: expected ':' after a member name, found %s", r->label,
                     r->line, shown(c, sb, sizeof sb));
                break;
            }
            skip_ws(r);
            if (mine) {
                if (r->seen_member) {
                    fail(r, CR_EPARSE, "%s:%lu: \"%s\" given twice", r->label, r->line, r->member);
                } else if (peek(r) != '[') {
                    fail(r, CR_EPARSE, "%s:%lu: \"%s\" must be an array, found %s", r->label,
                         r->line, r->member, shown(peek(r), sb, sizeof sb));
                } else {
                    get(r);
                    r->seen_member = true;
                    r->st = ST_ARR_FIRST;
                }
                break;
            }
            /* another member: JSON, given to the caller's callback if any */
            json_t *v = NULL;
            line0 = r->line;
            if (capture(r, "a member's value") == CR_OK && parse(r, line0, "member", &v) == CR_OK) {
                r->st = ST_OBJ_NEXT;
                cr_diag md = {{0}};
                cr_status ms = r->on_member ? r->on_member(r->member_ctx, name, v, &md) : CR_OK;
                if (ms != CR_OK)
                    fail(r, ms, "%s", md.msg[0] ? md.msg : "member refused");
            }
            json_decref(v);
            break;
        }
        case ST_OBJ_NEXT:
            get(r);
            if (c == ',')
                r->st = ST_OBJ_MEMBER;
            else if (c == '}')
                r->st = ST_OBJ_END;
            else
                fail(r, CR_EPARSE, "%s:%lu: expected ',' or '}' in the top-level object, found %s",
                     r->label, r->line, shown(c, sb, sizeof sb));
            break;
        case ST_OBJ_END:
            if (!r->seen_member)
                fail(r, CR_EPARSE, "%s: the top-level object has no \"%s\" array", r->label,
                     r->member);
            else
                r->st = ST_TAIL;
            break;
        case ST_ARR_FIRST:
            if (c == ']') {
                get(r);
                r->st = r->bare ? ST_TAIL : ST_OBJ_NEXT;
            } else {
                r->st = ST_ITEM;
            }
            break;
        case ST_ITEM:
            snprintf(what, sizeof what, "item %zu", r->count);
            if (capture(r, what) != CR_OK || parse(r, line0, what, item) != CR_OK)
                break;
            r->count++;
            r->st = ST_ARR_NEXT;
            return CR_OK;
        case ST_ARR_NEXT:
            get(r);
            if (c == ',')
                r->st = ST_ITEM;
            else if (c == ']')
                r->st = r->bare ? ST_TAIL : ST_OBJ_NEXT;
            else if (c < 0)
                fail(r, CR_EPARSE,
                     "%s:%lu: the input ends inside the array, after item %zu (cut "
                     "short?)",
                     r->label, r->line, r->count - 1);
            else
                fail(r, CR_EPARSE, "%s:%lu: expected ',' or ']' after item %zu, found %s", r->label,
                     r->line, r->count - 1, shown(c, sb, sizeof sb));
            break;
        case ST_TAIL:
            if (c >= 0)
                fail(r, CR_EPARSE, "%s:%lu: %s after the end of the JSON", r->label, r->line,
                     shown(c, sb, sizeof sb));
            else if (r->ioerr)
                fail(r, CR_EIO, "%s: read error", r->label);
            else
                r->st = ST_END;
            break;
        case ST_END:
        case ST_ERROR:
            break;
        }
    }
}
