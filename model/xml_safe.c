/* SPDX-License-Identifier: MIT */
/*
 * Safe XML input (see xml_safe.h): the one place where commroof reads an
 * XML file and sets libxml2 up, so every format gets the same protection
 * against external entities, entity bombs, network access and huge inputs.
 */
#include "sbuf.h"
#include "xml_safe.h"

#include "fileio.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

static void set_err(cr_xml_error *err, cr_xml_err_kind kind)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->kind = kind;
    }
}

static void limit_text(size_t max_bytes, char *buf, size_t size)
{
    if (max_bytes >= ((size_t)1 << 20) && max_bytes % ((size_t)1 << 20) == 0)
        snprintf(buf, size, "%zu MiB", max_bytes >> 20);
    else
        snprintf(buf, size, "%zu bytes", max_bytes);
}

static cr_status size_error(const char *origin, long long bytes, size_t max_bytes, const char *what,
                            cr_xml_error *err, cr_diag *d)
{
    char lim[64];
    limit_text(max_bytes, lim, sizeof lim);
    set_err(err, CR_XML_ERR_SIZE);
    if (err) {
        err->bytes = bytes;
        err->limit_bytes = max_bytes;
    }
    return cr_diag_set(d, CR_ERANGE, "%s: input is %lld bytes, more than the %s limit for %s file",
                       origin, bytes, lim, what ? what : "an XML");
}

cr_status cr_xml_check_size(const char *origin, size_t len, size_t max_bytes, const char *what,
                            cr_xml_error *err, cr_diag *d)
{
    set_err(err, CR_XML_ERR_NONE);
    if (len <= max_bytes)
        return CR_OK;
    return size_error(origin ? origin : "<memory>", (long long)len, max_bytes, what, err, d);
}

cr_status cr_xml_read_file(const char *path, size_t max_bytes, const char *what, char **out,
                           size_t *len, cr_xml_error *err, cr_diag *d)
{
    cr_status st = CR_OK;
    *out = NULL;
    *len = 0;
    set_err(err, CR_XML_ERR_NONE);
    char want[120];
    snprintf(want, sizeof want, "%s XML file", what ? what : "an");
    int fd = -1, e = 0;
    st = cr_file_open_read(path, want, 0, &fd, &e, d);
    if (st != CR_OK) {
        set_err(err, e ? CR_XML_ERR_OPEN : CR_XML_ERR_NOTFILE);
        if (err)
            err->sys_errno = e;
        return st;
    }
    long long size = 0;
    st = cr_file_read_fd(fd, path, max_bytes, out, len, &size, &e, d);
    close(fd);
    if (st == CR_ERANGE)
        return size_error(path, size, max_bytes, what, err, d);
    if (st == CR_EIO) {
        set_err(err, CR_XML_ERR_READ);
        if (err)
            err->sys_errno = e;
    }
    return st;
}

bool cr_xml_is_blank(const char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r' && buf[i] != '\n')
            return false;
    return true;
}

struct parse_state {
    unsigned flags;
    cr_xml_error e; /* the first problem wins: later ones are its echoes */
};

static void copy_str(char *dst, size_t size, const void *src)
{
    cr_str_copy(dst, size, src ? (const char *)src : "");
}

static int cur_line(xmlParserCtxtPtr ctxt)
{
    return ctxt->input ? ctxt->input->line : 0;
}

/* Any entity declaration ends the parse: entities are how XML reads
 * external files and how expansion bombs grow, and no commroof format
 * needs one. */
static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                           const xmlChar *system_id, xmlChar *content)
{
    xmlParserCtxtPtr ctxt = ctx;
    struct parse_state *ps = ctxt->_private;
    (void)type;
    (void)content;
    if (ps && ps->e.kind == CR_XML_ERR_NONE) {
        ps->e.kind = CR_XML_ERR_ENTITY;
        ps->e.line = cur_line(ctxt);
        ps->e.external = system_id || public_id;
        copy_str(ps->e.name, sizeof ps->e.name, name);
        copy_str(ps->e.system_id, sizeof ps->e.system_id, system_id);
    }
    xmlStopParser(ctxt);
}

/* Called for every <!DOCTYPE>, with or without an internal subset, before
 * the subset is read: formats that never have one refuse it here. */
static void on_internal_subset(void *ctx, const xmlChar *name, const xmlChar *external_id,
                               const xmlChar *system_id)
{
    xmlParserCtxtPtr ctxt = ctx;
    struct parse_state *ps = ctxt->_private;
    if (ps && (ps->flags & CR_XML_NO_DOCTYPE)) {
        if (ps->e.kind == CR_XML_ERR_NONE) {
            ps->e.kind = CR_XML_ERR_DOCTYPE;
            ps->e.line = cur_line(ctxt);
            copy_str(ps->e.name, sizeof ps->e.name, name);
        }
        xmlStopParser(ctxt);
        return;
    }
    xmlSAX2InternalSubset(ctx, name, external_id, system_id);
}

static void on_error(void *ctx, xmlErrorPtr err)
{
    xmlParserCtxtPtr ctxt = ctx;
    struct parse_state *ps = ctxt ? ctxt->_private : NULL;
    if (!ps || ps->e.kind != CR_XML_ERR_NONE || !err || err->level < XML_ERR_ERROR)
        return;
    cr_xml_error *e = &ps->e;
    e->kind = CR_XML_ERR_SYNTAX;
    e->code = err->code;
    /* a conversion error (cr_xml_parse) carries no line: the parser's
     * when it came (the converter runs ahead: the bytes are there or after) */
    e->line = err->line > 0 ? err->line : ctxt->input ? ctxt->input->line : 0;
    e->column = err->int2; /* libxml2 keeps the column of a parser error there */
    e->int1 = err->int1;
    copy_str(e->str1, sizeof e->str1, err->str1);
    copy_str(e->str2, sizeof e->str2, err->str2);
    copy_str(e->message, sizeof e->message, err->message);
    size_t n = strlen(e->message);
    while (n && (e->message[n - 1] == '\n' || e->message[n - 1] == ' '))
        e->message[--n] = '\0';
    for (char *p = e->message; *p; p++) /* one message, one line */
        if (*p == '\n')
            *p = ' ';
    if (err->code == XML_I18N_CONV_FAILED || err->code == XML_IO_ENCODER) {
        /* every format's wording prints this after "not well-formed XML: " */
        char said[160];
        copy_str(said, sizeof said, e->message);
        snprintf(e->message, sizeof e->message,
                 "bytes that are not text in the encoding the file declares (libxml2: %s); save "
                 "the file as UTF-8 (iconv -f THAT-ENCODING -t UTF-8)",
                 said);
    }
}

static cr_status report(const struct parse_state *ps, const char *origin, cr_diag *d)
{
    const cr_xml_error *e = &ps->e;
    switch (e->kind) {
    case CR_XML_ERR_ENTITY:
        if (e->external)
            return cr_diag_set(d, CR_EPARSE,
                               "%s:%d: external entity \"%s\" (SYSTEM \"%s\") is refused: "
                               "commroof never reads external content; write the text out in full",
                               origin, e->line, e->name, e->system_id);
        return cr_diag_set(d, CR_EPARSE,
                           "%s:%d: entity \"%s\" is refused: entity declarations are not allowed "
                           "(this also stops entity-expansion bombs); write the text out in full",
                           origin, e->line, e->name);
    case CR_XML_ERR_DOCTYPE:
        return cr_diag_set(d, CR_EPARSE,
                           "%s:%d: <!DOCTYPE is not allowed: this format has no DTD, and commroof "
                           "never reads DTDs or entities",
                           origin, e->line);
    case CR_XML_ERR_SYNTAX:
        /* libxml2 running out of memory is no fault of the file (QA audit
         * of allocation failures: "not well-formed XML: Memory allocation
         * failed", CR_EPARSE) */
        if (e->code == XML_ERR_NO_MEMORY)
            return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", origin);
        /* libxml2's nesting limit names a parser option, not what is wrong
         * with the file. */
        if (strstr(e->message, "Excessive depth"))
            return cr_diag_set(d, CR_EPARSE,
                               "%s:%d: elements nest more than 256 deep: no commroof input nests "
                               "that deep; check for unclosed elements",
                               origin, e->line > 0 ? e->line : 1);
        return cr_diag_set(d, CR_EPARSE, "%s:%d: not well-formed XML: %s", origin,
                           e->line > 0 ? e->line : 1, e->message);
    default:
        return cr_diag_set(d, CR_EPARSE, "%s:1: not well-formed XML", origin);
    }
}

/* Attribute values (names, ids, descriptions, sources) are printed in
 * table headers, '#' comment lines, chart titles and messages, one line
 * each: a control character (only a character reference can put one there;
 * XML makes a literal newline or tab in an attribute a blank) would start a
 * line a reader takes for output of its own. Refused, in every XML input,
 * with where it is. */
/* The code point of a control character at p (a C0 one, DEL, a C1 one,
 * or a bidirectional override or isolate, which reorder the text around
 * them in a terminal or a page: QA audit of 2026-12-06), its byte length in
 * *len; 0 for any other character. */
static unsigned control_at(const unsigned char *p, size_t *len)
{
    *len = 1;
    if (*p < 0x20 || *p == 0x7f)
        return *p;
    if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
        *len = 2;
        return p[1];
    }
    if (p[0] == 0xe2 && p[1] >= 0x80 && p[1] <= 0x81 && p[2]) {
        unsigned cp = 0x2000u | ((unsigned)(p[1] & 0x3f) << 6) | (p[2] & 0x3fu);
        if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e ||
            cp == 0x200f) {
            *len = 3;
            return cp;
        }
    }
    return 0;
}

static cr_status check_attr_controls(const xmlNode *n, const char *origin, cr_xml_error *err,
                                     cr_diag *d)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        for (const xmlAttr *a = n->properties; a; a = a->next) {
            /* the value's text nodes, as written (entities are refused) */
            size_t at = 0;
            for (const xmlNode *t = a->children; t; t = t->next) {
                const unsigned char *v = t->content, *p = v;
                if (!v)
                    continue;
                size_t len = 1;
                unsigned cp = 0;
                while (*p && !(cp = control_at(p, &len)))
                    p++;
                if (!*p) {
                    at += (size_t)(p - v);
                    continue;
                }
                long line = xmlGetLineNo(n);
                if (err) {
                    set_err(err, CR_XML_ERR_CONTROL);
                    err->line = line > 0 && line < INT_MAX ? (int)line : 0;
                    copy_str(err->name, sizeof err->name, a->name);
                }
                return cr_diag_set(
                    d, CR_EINVAL,
                    "%s:%ld: attribute \"%s\" on <%s> holds the control character U+%04X at "
                    "byte %zu: attribute values are one line of printable text; remove the "
                    "&#%u; reference%s",
                    origin, line, a->name, n->name, cp, at + (size_t)(p - v) + 1, cp,
                    cp >= 0x7f ? " (or the character)" : "");
            }
        }
        cr_status st = check_attr_controls(n->children, origin, err, d);
        if (st)
            return st;
    }
    return CR_OK;
}

/* libxml2 2.9's xmlInitParser is not reentrant ("call it once before
 * processing in multithreaded programs"): two threads whose first parse
 * ran at once raced in it (valgrind --tool=helgrind, QA audit of the API:
 * threads opening topologies at once in a program that had parsed
 * nothing). It runs here when the library is loaded, before any thread of
 * the program can call it; the call in cr_xml_parse then only finds it
 * done. */
__attribute__((constructor)) static void xml_init_at_load(void)
{
    xmlInitParser();
}

cr_status cr_xml_parse(const char *buf, size_t len, const char *origin, unsigned flags,
                       xmlDocPtr *out, cr_xml_error *err, cr_diag *d)
{
    struct parse_state ps;
    memset(&ps, 0, sizeof ps);
    ps.flags = flags;
    *out = NULL;
    set_err(err, CR_XML_ERR_NONE);
    if (!origin)
        origin = "<memory>";
    if (len > INT_MAX) /* xmlCtxtReadMemory takes an int */
        return size_error(origin, (long long)len, INT_MAX, "an XML", err, d);
    if (!buf && len)
        return cr_diag_set(d, CR_EINVAL, "%s: no buffer", origin);
    xmlInitParser();
    /* libxml2 reports bytes its converter from the declared encoding
     * (iconv) cannot take through its thread's structured error handler,
     * not the context's, and with none set prints them to stderr. Ours
     * takes them for this parse only; the caller's is put back after. Set
     * before the context, whose own allocation failure libxml2 printed
     * (on_error ignores a report with no context). */
    xmlStructuredErrorFunc prev_handler = xmlStructuredError;
    void *prev_handler_ctx = xmlStructuredErrorContext;
    xmlSetStructuredErrorFunc(NULL, on_error);
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        xmlSetStructuredErrorFunc(prev_handler_ctx, prev_handler);
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", origin);
    }
    ctxt->_private = &ps;
    ctxt->sax->entityDecl = on_entity_decl;
    ctxt->sax->internalSubset = on_internal_subset;
    ctxt->sax->serror = on_error;
    ctxt->sax->warning = NULL;
    /* No XML_PARSE_NOENT (entities stay unexpanded), no DTDLOAD/DTDATTR
     * (nothing external is read), no HUGE (libxml2's own size limits);
     * BIG_LINES so xmlGetLineNo() is right past line 65535. */
    int opts = XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING;
    if (flags & CR_XML_NOCDATA)
        opts |= XML_PARSE_NOCDATA;
    xmlSetStructuredErrorFunc(ctxt, on_error);
    xmlDocPtr doc = xmlCtxtReadMemory(ctxt, buf ? buf : "", (int)len, origin, NULL, opts);
    xmlSetStructuredErrorFunc(prev_handler_ctx, prev_handler);
    cr_status st = CR_OK;
    if (!doc || !ctxt->wellFormed || ps.e.kind != CR_XML_ERR_NONE) {
        st = report(&ps, origin, d);
        xmlFreeDoc(doc);
        doc = NULL;
        if (err)
            *err = ps.e;
    }
    xmlFreeParserCtxt(ctxt);
    if (doc && (st = check_attr_controls(xmlDocGetRootElement(doc), origin, err, d))) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    *out = doc;
    return st;
}

xmlChar *cr_xml_prop(const xmlNode *n, const char *name, bool no_ns, bool *oom)
{
    const xmlChar *k = (const xmlChar *)name;
    xmlChar *v = no_ns ? xmlGetNoNsProp(n, k) : xmlGetProp(n, k);
    if (!v && (no_ns ? xmlHasNsProp(n, k, NULL) : xmlHasProp(n, k)))
        *oom = true;
    return v;
}
