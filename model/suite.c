/* SPDX-License-Identifier: MIT */
/*
 * Suite XML loader (see suite.h and suites/suite.dtd).
 *
 * Safety, as for topologies (model/xml_safe.c): XML_PARSE_NONET, neither XML_PARSE_NOENT nor
 * XML_PARSE_DTDLOAD, and a SAX hook that refuses the first entity
 * declaration and stops the parser (no external entities, no expansion
 * bombs); input capped at 4 MiB and attributes at 4 KiB.
 */
#include "suite.h"
#include "sbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

/* embedded_priv.h has a file glob in a comment, which -Wcomment flags. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "embedded_priv.h"
#include "xml_safe.h"
#pragma GCC diagnostic pop

#define SUITE_MAX_BYTES ((size_t)4 << 20)
#define SUITE_MAX_ATTR 4096
#define SUITE_MAX_PROBLEMS 100000

static cr_status failf(cr_diag *d, cr_status st, const char *origin, long line, const char *fmt,
                       ...) __attribute__((format(printf, 5, 6)));
static cr_status failf(cr_diag *d, cr_status st, const char *origin, long line, const char *fmt,
                       ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    cr_vsnprintf_c(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cr_diag_set(d, st, "%s:%ld: %s", origin, line, msg);
}

/* Suite wording for what cr_xml_parse() refused. */
static cr_status parse_error(const cr_xml_error *ps, bool blank, const char *origin, cr_diag *d)
{
    if (ps->kind == CR_XML_ERR_ENTITY)
        return failf(d, CR_EPARSE, origin, ps->line,
                     "%sentity \"%s\" is refused: suite files may not declare entities (commroof "
                     "never reads external content, and this stops expansion bombs); write the "
                     "text out in full",
                     ps->system_id[0] ? "external " : "", ps->name);
    if (ps->kind != CR_XML_ERR_SYNTAX)
        return failf(d, CR_EPARSE, origin, 0, "not well-formed XML");
    switch (ps->code) {
    case XML_ERR_DOCUMENT_EMPTY:
        /* libxml2's "Document is empty" also means "no '<' before the
         * first text": only a blank file is empty. */
        if (blank)
            return failf(d, CR_EPARSE, origin, 1,
                         "the file is empty: a suite file holds one <suite "
                         "name=\"...\"> element "
                         "(see suites/suite.dtd)");
        return failf(d, CR_EPARSE, origin, ps->line > 0 ? ps->line : 1,
                     "not XML (libxml2 at column %d: %s): a suite file holds one <suite "
                     "name=\"...\"> element (see suites/suite.dtd)",
                     ps->column, ps->message);
    case XML_ERR_TAG_NOT_FINISHED:
        return failf(d, CR_EPARSE, origin, ps->line,
                     "the file ends inside <%s> (opened on line %d): it looks "
                     "truncated; close "
                     "every element",
                     ps->str1, ps->int1);
    case XML_ERR_TAG_NAME_MISMATCH:
        return failf(d, CR_EPARSE, origin, ps->line,
                     "end tag </%s> does not match <%s> (opened on line %d)", ps->str2, ps->str1,
                     ps->int1);
    case XML_ERR_UNDECLARED_ENTITY:
    case XML_WAR_UNDECLARED_ENTITY:
        return failf(d, CR_EPARSE, origin, ps->line,
                     "entity reference &%s; is not allowed: use only &amp; &lt; &gt; &quot; "
                     "&apos; and character references",
                     ps->str1);
    default:
        return failf(d, CR_EPARSE, origin, ps->line, "not well-formed XML: %s", ps->message);
    }
}

static char *dupstr(const char *s)
{
    return s ? strdup(s) : NULL;
}

void cr_suite_free(cr_suite *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n_problems; i++) {
        free(s->problems[i].name);
        free(s->problems[i].category);
        free(s->problems[i].note);
    }
    free(s->problems);
    free(s->name);
    free(s->description);
    free(s->source);
    free(s->origin);
    free(s);
}

/* An attribute's value (caller frees with xmlFree), or NULL. */
static xmlChar *attr_value(xmlNode *n, xmlAttr *a)
{
    return xmlNodeListGetString(n->doc, a->children, 1);
}

static bool is_elem(xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The largest ParallelKernelBench id taken: PKB numbers its problems from 1
 * and had 87 at 3cc0f9b; the cap only keeps the number an int. */
#define SUITE_MAX_PKB_ID 1000000

/* pkb="N" or "N,M,...": the ParallelKernelBench ids problem pr expresses,
 * each whole, from 1, and on no other problem of s. */
static cr_status parse_pkb(const cr_suite *s, cr_suite_problem *pr, const char *val, long line,
                           cr_diag *d)
{
    const char *p = val;
    for (;;) {
        p += strspn(p, " ");
        long id = 0;
        int digits = 0;
        while (*p >= '0' && *p <= '9' && id <= SUITE_MAX_PKB_ID) {
            id = id * 10 + (*p++ - '0');
            digits++;
        }
        p += strspn(p, " ");
        if (!digits || id < 1 || id > SUITE_MAX_PKB_ID || (*p && *p != ','))
            return failf(d, CR_EPARSE, s->origin, line,
                         "problem \"%s\": pkb=\"%.60s\" is not a list of ParallelKernelBench "
                         "problem ids (whole numbers from 1 to %d, e.g. pkb=\"13\" or "
                         "pkb=\"41,42\")",
                         pr->name, val, SUITE_MAX_PKB_ID);
        if (pr->n_pkb == CR_SUITE_MAX_PKB)
            return failf(d, CR_ERANGE, s->origin, line,
                         "problem \"%s\": pkb names more than %d ids: split the problem", pr->name,
                         CR_SUITE_MAX_PKB);
        for (int i = 0; i < s->n_problems; i++)
            for (int j = 0; j < s->problems[i].n_pkb; j++)
                if (s->problems[i].pkb[j] == id)
                    return failf(d, CR_EINVAL, s->origin, line,
                                 "problem \"%s\": PKB %ld is already expressed by problem \"%s\" "
                                 "(line %d): give each id to one problem",
                                 pr->name, id, s->problems[i].name, s->problems[i].line);
        pr->pkb[pr->n_pkb++] = (int)id;
        if (!*p)
            return CR_OK;
        p++; /* the comma */
    }
}

const cr_suite_problem *cr_suite_find_pkb(const cr_suite *s, int id)
{
    for (int i = 0; s && i < s->n_problems; i++)
        for (int j = 0; j < s->problems[i].n_pkb; j++)
            if (s->problems[i].pkb[j] == id)
                return &s->problems[i];
    return NULL;
}

static cr_status load_problem(cr_suite *s, xmlNode *n, cr_diag *d)
{
    const char *origin = s->origin;
    long line = xmlGetLineNo(n);
    cr_suite_problem *pr = &s->problems[s->n_problems];
    memset(pr, 0, sizeof *pr);
    pr->line = (int)line;
    bool oom = false;
    xmlChar *name = cr_xml_prop(n, "name", true, &oom);
    xmlChar *opname = cr_xml_prop(n, "op", true, &oom);
    cr_status st = CR_OK;
    cr_diag sub = {{0}};
    if (oom) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    /* a name of blanks prints as an empty row (QA audit of 2026-12-06) */
    if (!name || !name[strspn((const char *)name, " ")]) {
        st = failf(d, CR_EPARSE, origin, line,
                   "<problem> needs a non-empty attribute \"name\" (not blanks only)");
        goto out;
    }
    if (!opname || !*opname) {
        st = failf(d, CR_EPARSE, origin, line,
                   "<problem name=\"%s\"> needs an attribute \"op\" (an operator: "
                   "commroof op "
                   "--help lists them)",
                   name);
        goto out;
    }
    for (int i = 0; i < s->n_problems; i++)
        if (strcmp(s->problems[i].name, (const char *)name) == 0) {
            st = failf(d, CR_EINVAL, origin, line,
                       "problem \"%s\" is defined twice (first on line %d): give "
                       "each problem a "
                       "unique name",
                       name, s->problems[i].line);
            goto out;
        }
    st = cr_op_find((const char *)opname, &pr->op, &sub);
    if (st != CR_OK) {
        st = failf(d, st, origin, line, "%s", sub.msg);
        goto out;
    }
    cr_op_params_defaults(pr->op, &pr->params);
    pr->name = dupstr((const char *)name);
    if (!pr->name) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    s->n_problems++; /* owned by s from here: freed with it on failure */
    /* group first: it moves the default group size, later attributes set sizes */
    xmlChar *grp = cr_xml_prop(n, "group", true, &oom);
    if (oom) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    if (grp) {
        st = cr_op_param_set(pr->op, &pr->params, "group", (const char *)grp, &sub);
        xmlFree(grp);
        if (st != CR_OK) {
            st = failf(d, st, origin, line, "problem \"%s\": %s", name, sub.msg);
            goto out;
        }
    }
    for (xmlAttr *a = n->properties; a; a = a->next) {
        const char *an = (const char *)a->name;
        if (a->ns) {
            st =
                failf(d, CR_EPARSE, origin, line, "namespaced attribute \"%s\" is not allowed", an);
            goto out;
        }
        if (strcmp(an, "name") == 0 || strcmp(an, "op") == 0 || strcmp(an, "group") == 0)
            continue;
        xmlChar *val = attr_value(n, a);
        if (!val) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        if (strlen((const char *)val) > SUITE_MAX_ATTR) {
            st = failf(d, CR_ERANGE, origin, line, "attribute \"%s\" is longer than %d bytes", an,
                       SUITE_MAX_ATTR);
        } else if (strcmp(an, "category") == 0) {
            if (!(pr->category = dupstr((const char *)val)))
                st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        } else if (strcmp(an, "note") == 0) {
            if (!(pr->note = dupstr((const char *)val)))
                st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        } else if (strcmp(an, "pkb") == 0) {
            st = parse_pkb(s, pr, (const char *)val, line, d);
        } else {
            st = cr_op_param_set(pr->op, &pr->params, an, (const char *)val, &sub);
            if (st != CR_OK)
                st = failf(d, st, origin, line, "problem \"%s\": %s", name, sub.msg);
        }
        xmlFree(val);
        if (st != CR_OK)
            goto out;
    }
    if (!pr->category)
        pr->category = dupstr(cr_op_category(pr->op));
    if (!pr->category) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    st = cr_op_params_check(pr->op, &pr->params, NULL, &sub);
    if (st != CR_OK)
        st = failf(d, st, origin, line, "problem \"%s\": %s", name, sub.msg);
    for (xmlNode *c = n->children; c && st == CR_OK; c = c->next)
        if (c->type == XML_ELEMENT_NODE)
            st = failf(d, CR_EPARSE, origin, xmlGetLineNo(c),
                       "<problem> holds no elements, found <%s>: parameters are attributes",
                       c->name);
out:
    xmlFree(name);
    xmlFree(opname);
    return st;
}

static cr_status build(xmlDocPtr doc, cr_suite *s, cr_diag *d)
{
    const char *origin = s->origin;
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!root)
        return failf(d, CR_EPARSE, origin, 1, "no root element: write <suite name=\"...\">");
    if (!is_elem(root, "suite") || root->ns)
        return failf(d, CR_EPARSE, origin, xmlGetLineNo(root),
                     "root element is <%s>, expected <suite>%s", root->name,
                     is_elem(root, "topology") ? " (this is a topology file: pass it to --topo)"
                                               : "");
    for (xmlAttr *a = root->properties; a; a = a->next) {
        const char *an = (const char *)a->name;
        if (a->ns || (strcmp(an, "name") && strcmp(an, "description") && strcmp(an, "source") &&
                      strcmp(an, "version")))
            return failf(d, CR_EPARSE, origin, xmlGetLineNo(root),
                         "unknown attribute \"%s\" on <suite>: expected one of: name, "
                         "description, source, version",
                         an);
        xmlChar *v = attr_value(root, a);
        if (!v)
            return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", origin);
        size_t len = strlen((const char *)v);
        if (len > SUITE_MAX_ATTR) {
            xmlFree(v);
            return failf(d, CR_ERANGE, origin, xmlGetLineNo(root),
                         "attribute \"%s\" is longer than %d bytes", an, SUITE_MAX_ATTR);
        }
        char **dst = strcmp(an, "name") == 0          ? &s->name
                     : strcmp(an, "description") == 0 ? &s->description
                     : strcmp(an, "source") == 0      ? &s->source
                                                      : NULL;
        if (dst && !(*dst = dupstr((const char *)v))) {
            xmlFree(v);
            return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", origin);
        } else if (!dst && strcmp((const char *)v, "1") != 0) {
            cr_status st =
                failf(d, CR_EUNSUPPORTED, origin, xmlGetLineNo(root),
                      "<suite> version=\"%.40s\": this commroof reads version 1", (const char *)v);
            xmlFree(v);
            return st;
        }
        xmlFree(v);
    }
    if (!s->name || !s->name[strspn(s->name, " ")])
        return failf(d, CR_EPARSE, origin, xmlGetLineNo(root),
                     "<suite> needs a non-empty attribute \"name\" (not blanks only)");
    int count = 0;
    for (xmlNode *c = root->children; c; c = c->next) {
        if (c->type == XML_TEXT_NODE || c->type == XML_COMMENT_NODE)
            continue;
        if (!is_elem(c, "problem") || c->ns)
            return failf(d, CR_EPARSE, origin, xmlGetLineNo(c),
                         "unknown element <%s> in <suite>: expected <problem>",
                         c->type == XML_ELEMENT_NODE ? (const char *)c->name : "?");
        count++;
    }
    if (count == 0)
        return failf(d, CR_EINVAL, origin, xmlGetLineNo(root),
                     "suite \"%s\" has no <problem>: add at least one", s->name);
    if (count > SUITE_MAX_PROBLEMS)
        return failf(d, CR_ERANGE, origin, xmlGetLineNo(root),
                     "suite has %d problems, more than the limit of %d", count, SUITE_MAX_PROBLEMS);
    s->problems = calloc((size_t)count, sizeof *s->problems);
    if (!s->problems)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    for (xmlNode *c = root->children; c; c = c->next)
        if (is_elem(c, "problem")) {
            cr_status st = load_problem(s, c, d);
            if (st != CR_OK)
                return st;
        }
    return CR_OK;
}

cr_status cr_suite_load_memory(const char *buf, size_t len, const char *origin, cr_suite **out,
                               cr_diag *d)
{
    *out = NULL;
    if (!origin)
        origin = "suite";
    cr_status st = cr_xml_check_size(origin, len, SUITE_MAX_BYTES, "a suite", NULL, d);
    if (st != CR_OK)
        return st;
    if (len == 0)
        return failf(d, CR_EPARSE, origin, 1,
                     "the file is empty: a suite file holds one <suite "
                     "name=\"...\"> element "
                     "(see suites/suite.dtd)");
    cr_suite *s = calloc(1, sizeof *s);
    if (!s || !(s->origin = strdup(origin))) {
        free(s);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    cr_xml_error e;
    cr_diag scratch = {{0}}; /* the generic wording; parse_error words it for suites */
    xmlDocPtr doc = NULL;
    st = cr_xml_parse(buf, len, origin, 0, &doc, &e, &scratch);
    if (st == CR_EPARSE)
        st = parse_error(&e, cr_xml_is_blank(buf, len), origin, d);
    else if (st != CR_OK)
        st = cr_diag_set(d, st, "%s", scratch.msg);
    else
        st = build(doc, s, d);
    xmlFreeDoc(doc);
    if (st != CR_OK) {
        cr_suite_free(s);
        return st;
    }
    *out = s;
    return CR_OK;
}

cr_status cr_suite_load_file(const char *path, cr_suite **out, cr_diag *d)
{
    *out = NULL;
    char *buf = NULL;
    size_t size = 0;
    cr_status st = cr_xml_read_file(path, SUITE_MAX_BYTES, "a suite", &buf, &size, NULL, d);
    if (st == CR_OK)
        st = cr_suite_load_memory(buf, size, path, out, d);
    free(buf);
    return st;
}

const char *cr_suite_shipped_name(int i)
{
    return cr_embedded_name(cr_embedded_suite, i);
}

cr_status cr_suite_open(const char *name_or_path, cr_suite **out, cr_diag *d)
{
    *out = NULL;
    if (!name_or_path)
        return cr_diag_set(d, CR_EINVAL, "no suite given: a shipped name (pkb) or a file");
    if (cr_embedded_is_path(name_or_path))
        return cr_suite_load_file(name_or_path, out, d);
    const struct cr_embedded *e = cr_embedded_find(cr_embedded_suite, name_or_path);
    if (e) {
        char origin[300];
        snprintf(origin, sizeof origin, "suites/%s.xml", name_or_path);
        return cr_suite_load_memory(e->text, strlen(e->text), origin, out, d);
    }
    char list[400];
    cr_embedded_list(cr_embedded_suite, list, sizeof list);
    return cr_diag_set(d, CR_ENOTFOUND,
                       "no shipped suite named \"%s\" (shipped: %s); for a file give a path "
                       "(with a '/' or ending in .xml)",
                       name_or_path, list);
}
