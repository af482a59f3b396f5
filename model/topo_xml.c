/* SPDX-License-Identifier: MIT */
/*
 * Topology XML I/O with libxml2 (see topo_xml.h and doc/topology-format.md).
 *
 * Loading runs in three passes over the tree so that element order is free:
 * (1) check every element and attribute name and read models, parameters
 * and templates; (2) create devices (top level, node replicas, torus chips,
 * rail-fabric switches); (3) create links. A template is compiled once
 * (local ids, links as local index pairs) and stamped per node, so a
 * 1,024-node cluster costs one pass over its devices and links.
 * Passes 2 and 3 live in topo_xml_graph.c; the loader's state they share
 * with this file is in topo_xml_priv.h.
 *
 * Safety (model/xml_safe.c, shared by every XML parser): the parser gets
 * XML_PARSE_NONET and neither XML_PARSE_NOENT nor XML_PARSE_DTDLOAD, and a
 * SAX hook refuses the first entity declaration (internal or external) and
 * stops the parser, so external entities and expansion bombs never get a
 * chance to run. Input size and attribute
 * length are capped, and so are the numbers of devices and links that
 * templates and generators may produce.
 */
#include "sbuf.h"
#include "topo_xml.h"
#include "topo_xml_priv.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlerror.h>

#include "embedded_priv.h"
#include "fileio.h"
#include "grow.h"
#include "params.h"
#include "units.h"
#include "xml_safe.h"

#define MAX_INPUT_BYTES ((size_t)64 << 20) /* a saved 8,192-GPU cluster is 6.9 MB (bench_topo) */
#define MAX_ATTR_BYTES ((size_t)1 << 20)
#define MAX_BW_BPS 1e15 /* 1PB/s per link per direction: the checker's limit */
#define MAX_FLOPS 1e18  /* 1000 PFLOP/s for one GPU is surely a typo */
#define MAX_BYTES 1e15  /* 1PB of memory on one GPU, likewise */
#define MAX_LAT_S 1.0   /* a one-hop latency of a second is a typo */

/* ---------------------------------------------------------------------- */
/* Element and attribute tables                                            */

struct elem_spec {
    const char *name;
    const char *attrs;    /* allowed, space-separated */
    const char *required; /* required, space-separated */
    const char *children; /* allowed child elements, space-separated */
};

#define LINK_ATTRS "a b kind bw bw-ab bw-ba count latency source"
static const struct elem_spec elem_specs[] = {
    {"topology", "name version description source", "name",
     "gpu-model switch-model param node-template nodes gpu switch cpu pcisw nic link link-pattern "
     "rail-fabric torus"},
    {"gpu-model", "name vendor arch sms hbm hbm-bw l2 l2-bw llc llc-bw clock source",
     "name vendor sms hbm hbm-bw", "flops measured measured-flops"},
    {"flops", "dtype peak source", "dtype peak", ""},
    {"measured", "hbm-bw l2-bw source", "", ""},
    {"measured-flops", "dtype value source", "dtype value", ""},
    {"switch-model", "name generation multicast reduction reduce-bw source", "name", ""},
    {"param", "key value source", "key value", ""},
    {"node-template", "name", "name", "gpu switch cpu pcisw nic link link-pattern"},
    {"nodes", "template count prefix", "template count", ""},
    {"gpu", "id model node", "id model", ""},
    {"switch", "id model node", "id", ""},
    {"cpu", "id node vendor", "id", ""},
    {"pcisw", "id node", "id", ""},
    {"nic", "id node port-bw source", "id", ""},
    {"link", LINK_ATTRS, "a b kind", ""},
    {"link-pattern", LINK_ATTRS, "a b kind", ""},
    {"rail-fabric",
     "name kind nic rails nodes-per-leaf spines spine-scope uplinks leaf-model spine-model nic-bw "
     "uplink-bw latency source",
     "name kind nic rails nodes-per-leaf nic-bw", ""},
    {"torus", "name model dims wrap kind bw count latency source", "name model dims bw", ""},
};

static const struct elem_spec *find_elem_spec(const char *name)
{
    for (size_t i = 0; i < sizeof elem_specs / sizeof elem_specs[0]; i++)
        if (strcmp(elem_specs[i].name, name) == 0)
            return &elem_specs[i];
    return NULL;
}

/* Is w one of the space-separated words of list? */
static bool word_in(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        if ((size_t)(e - p) == n && n && strncmp(p, w, n) == 0)
            return true;
        p = e;
    }
    return false;
}

bool txml_is_name(const xmlNode *n, const char *name)
{
    return strcmp((const char *)n->name, name) == 0;
}

/* ---------------------------------------------------------------------- */
/* Loader state                                                            */

int txml_line_of(const xmlNode *n)
{
    long l = n ? xmlGetLineNo(n) : 0;
    return l > 0 && l < INT_MAX ? (int)l : 0;
}

cr_status txml_fail_at(loader *L, int line, cr_status st, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    cr_vsnprintf_c(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        return cr_diag_set(L->d, st, "%s:%d: %s", L->origin, line, msg);
    return cr_diag_set(L->d, st, "%s: %s", L->origin, msg);
}

cr_status txml_oom(loader *L)
{
    return cr_diag_set(L->d, CR_ENOMEM, "%s: out of memory", L->origin);
}

/* The value of attribute name on n, or NULL when absent (borrowed until the
 * loader is released). */
const char *txml_get(loader *L, const xmlNode *n, const char *name)
{
    for (const xmlAttr *a = n->properties; a; a = a->next) {
        if (strcmp((const char *)a->name, name) != 0)
            continue;
        if (!a->children)
            return "";
        if (a->children->type == XML_TEXT_NODE && !a->children->next)
            return (const char *)a->children->content;
        xmlChar *s = xmlNodeListGetString(n->doc, a->children, 1);
        if (!s || cr_grow((void **)&L->scratch, &L->cap_scratch, (size_t)L->n_scratch + 1,
                          sizeof *L->scratch)) {
            xmlFree(s);
            return NULL;
        }
        L->scratch[L->n_scratch++] = s;
        return (const char *)s;
    }
    return NULL;
}

static void loader_release(loader *L)
{
    free(L->dev_line);
    free(L->link_line);
    for (int i = 0; i < L->n_tmpls; i++) {
        for (int j = 0; j < L->tmpls[i].n_devs; j++)
            free(L->tmpls[i].devs[j].id);
        free(L->tmpls[i].devs);
        cr_id_index_free(&L->tmpls[i].ids);
        free(L->tmpls[i].links);
    }
    free(L->tmpls);
    for (int i = 0; i < L->n_nodes; i++)
        free(L->node_prefix[i]);
    free(L->node_prefix);
    free(L->node_base);
    free(L->gen_base);
    free(L->id_sorted);
    for (int i = 0; i < L->n_scratch; i++)
        xmlFree(L->scratch[i]);
    free(L->scratch);
}

/* ---------------------------------------------------------------------- */
/* Values                                                                  */

/* Parses attribute attr of n (which must be present) as a quantity. */
static cr_status get_qty(loader *L, const xmlNode *n, const char *attr, cr_unit_kind kind,
                         double *out)
{
    const char *s = txml_get(L, n, attr);
    cr_diag ud = {{0}};
    cr_status st = cr_units_parse(s ? s : "", kind, out, &ud);
    if (st == CR_ERANGE) /* units says only "out of range": add what is right */
        return FAIL(L, n, st, "<%s> %s: %s, expected %s", n->name, attr, ud.msg,
                    cr_units_example(kind));
    if (st)
        return FAIL(L, n, st, "<%s> %s: %s", n->name, attr, ud.msg);
    return CR_OK;
}

/* A quantity that must be positive and at most max ("what" names it). */
static cr_status get_pos(loader *L, const xmlNode *n, const char *attr, cr_unit_kind kind,
                         double max, const char *max_text, double *out)
{
    cr_status st = get_qty(L, n, attr, kind, out);
    if (st)
        return st;
    if (!(*out > 0) || *out > max)
        return FAIL(L, n, CR_ERANGE,
                    "<%s> %s: \"%s\" is out of range: it must be positive and at most %s", n->name,
                    attr, txml_get(L, n, attr), max_text);
    /* The floor (topo.h): reported here with its line; cr_topo_check holds
     * every other way of building a topology to it. */
    double min = kind == CR_UNIT_BYTES   ? CR_TOPO_MIN_BYTES
                 : kind == CR_UNIT_FLOPS ? CR_TOPO_MIN_FLOPS
                                         : CR_TOPO_MIN_BPS;
    if (*out < min)
        return FAIL(L, n, CR_ERANGE,
                    "<%s> %s: \"%s\" is out of range: it must be at least %s and at most %s",
                    n->name, attr, txml_get(L, n, attr),
                    kind == CR_UNIT_BYTES   ? "1kB"
                    : kind == CR_UNIT_FLOPS ? "1MFLOP/s"
                                            : "1MB/s",
                    max_text);
    return CR_OK;
}

cr_status txml_get_bw(loader *L, const xmlNode *n, const char *attr, double *out)
{
    return get_pos(L, n, attr, CR_UNIT_BANDWIDTH, MAX_BW_BPS, "1PB/s (e.g. \"25GB/s\")", out);
}

cr_status txml_get_latency(loader *L, const xmlNode *n, const char *attr, double *out)
{
    *out = 0;
    if (!txml_get(L, n, attr))
        return CR_OK;
    cr_status st = get_qty(L, n, attr, CR_UNIT_TIME, out);
    if (st)
        return st;
    if (!(*out >= 0) || *out >= MAX_LAT_S)
        return FAIL(L, n, CR_ERANGE,
                    "<%s> %s: \"%s\" is out of range: a latency is at least 0 and under 1s (e.g. "
                    "\"0.7us\")",
                    n->name, attr, txml_get(L, n, attr));
    return CR_OK;
}

/* A whole number in [lo, hi]; dflt when the attribute is absent. */
cr_status txml_get_int(loader *L, const xmlNode *n, const char *attr, long lo, long hi, int dflt,
                       int *out)
{
    const char *s = txml_get(L, n, attr);
    *out = dflt;
    if (!s)
        return CR_OK;
    char *end = NULL;
    errno = 0;
    long v = isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]))
                 ? strtol(s, &end, 10)
                 : 0;
    if (!end || *end || errno || v < lo || v > hi)
        return FAIL(L, n, CR_EINVAL, "<%s> %s: \"%s\" is not a whole number from %ld to %ld",
                    n->name, attr, s, lo, hi);
    *out = (int)v;
    return CR_OK;
}

cr_status txml_get_bool(loader *L, const xmlNode *n, const char *attr, bool *out)
{
    const char *s = txml_get(L, n, attr);
    *out = false;
    if (!s || strcmp(s, "no") == 0)
        return CR_OK;
    if (strcmp(s, "yes") == 0) {
        *out = true;
        return CR_OK;
    }
    return FAIL(L, n, CR_EINVAL, "<%s> %s: \"%s\" is not \"yes\" or \"no\"", n->name, attr, s);
}

/* Clock rates: units.h has no Hz, and a clock is the only frequency here. */
static int parse_hz(const char *s, double *out)
{
    const char *q = s;
    if (*q == '.')
        q++;
    if (!isdigit((unsigned char)*q))
        return -1;
    char *end = NULL;
    errno = 0;
    double v = cr_strtod_c(s, &end);
    if (errno || !isfinite(v))
        return -1;
    if (*end == ' ')
        end++;
    static const struct {
        const char *u;
        double f;
    } units[] = {{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}, {"THz", 1e12}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].u) == 0) {
            *out = v * units[i].f;
            return 0;
        }
    return -1;
}

bool txml_valid_id(const char *s)
{
    if (!*s || strlen(s) > ID_MAX)
        return false;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("._-:/+", *p))
            return false;
    return true;
}

/* Expands one brace group: "gpu{0..3}" -> gpu0 .. gpu3, "p{0,0,1}" -> p0
 * p0 p1; text without braces is itself. *out is an array of *n malloc'd
 * strings. */
cr_status txml_expand_ids(loader *L, const xmlNode *n, const char *attr, char ***out, int *nout)
{
    const char *s = txml_get(L, n, attr);
    *out = NULL;
    *nout = 0;
    if (!s)
        s = "";
    const char *lb = strchr(s, '{'), *rb = strchr(s, '}');
    int nl = 0, nr = 0;
    for (const char *p = s; *p; p++) {
        nl += *p == '{';
        nr += *p == '}';
    }
    if (nl > 1 || nr > 1 || nl != nr || (lb && rb < lb))
        return FAIL(L, n, CR_EINVAL,
                    "<%s> %s: \"%s\" may hold at most one brace group, a range \"{0..7}\" or a "
                    "list \"{0,0,1,1}\"",
                    n->name, attr, s);
    size_t pre = lb ? (size_t)(lb - s) : strlen(s);
    const char *suf = rb ? rb + 1 : "";
    char **v = NULL;
    int cnt = 0;
    size_t cap = 0;
    cr_status st = CR_OK;
    char item[256];
    long lo = 0, hi = -1;
    const char *body = lb ? lb + 1 : NULL;
    bool range = false;
    if (body) {
        char *e1 = NULL, *e2 = NULL;
        if (isdigit((unsigned char)*body)) {
            lo = strtol(body, &e1, 10);
            if (e1 && e1[0] == '.' && e1[1] == '.' && isdigit((unsigned char)e1[2])) {
                hi = strtol(e1 + 2, &e2, 10);
                if (e2 != rb || hi < lo || hi - lo >= MAX_EXPAND)
                    return FAIL(L, n, CR_EINVAL,
                                "<%s> %s: \"%s\": a range reads {FIRST..LAST} with FIRST <= LAST "
                                "and at most %d items",
                                n->name, attr, s, MAX_EXPAND);
                range = true;
            }
        }
    }
    const char *p = body;
    for (long i = lo;;) {
        char mid[128];
        if (!body) {
            mid[0] = '\0';
        } else if (range) {
            if (i > hi)
                break;
            snprintf(mid, sizeof mid, "%ld", i++);
        } else {
            if (!p)
                break;
            const char *c = p;
            while (c < rb && *c != ',')
                c++;
            size_t len = (size_t)(c - p);
            if (len == 0 || len >= sizeof mid) {
                st = FAIL(L, n, CR_EINVAL, "<%s> %s: \"%s\" has an empty or overlong list item",
                          n->name, attr, s);
                goto fail;
            }
            memcpy(mid, p, len);
            mid[len] = '\0';
            p = c < rb ? c + 1 : NULL;
        }
        int w = snprintf(item, sizeof item, "%.*s%s%s", (int)pre, s, mid, suf);
        if (w < 0 || (size_t)w >= sizeof item) {
            st = FAIL(L, n, CR_EINVAL, "<%s> %s: \"%s\" is longer than 255 characters", n->name,
                      attr, s);
            goto fail;
        }
        if (cr_grow((void **)&v, &cap, (size_t)cnt + 1, sizeof *v) || !(v[cnt] = strdup(item))) {
            st = txml_oom(L);
            goto fail;
        }
        cnt++;
        if (!body)
            break;
    }
    *out = v;
    *nout = cnt;
    return CR_OK;
fail:
    for (int i = 0; i < cnt; i++)
        free(v[i]);
    free(v);
    return st;
}

void txml_free_ids(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* ---------------------------------------------------------------------- */
/* Pass 1: names, models, parameters, templates                            */

/* Text between elements must be blank: values live in attributes. The
 * node's line is where the text ends, so count back to its first word. */
static cr_status check_text(loader *L, const xmlNode *c, const char *parent)
{
    const char *s = (const char *)c->content;
    while (s && *s && isspace((unsigned char)*s))
        s++;
    if (!s || !*s)
        return CR_OK;
    int nl = 0;
    for (const char *p = s; *p; p++)
        nl += *p == '\n';
    size_t n = 0;
    while (n < 20 && s[n] && s[n] != '\n' && s[n] != '\r')
        n++;
    int line = txml_line_of(c) - nl;
    return txml_fail_at(L, line > 0 ? line : txml_line_of(c), CR_EPARSE,
                        "unexpected text \"%.*s\" in <%s>: values go in attributes", (int)n, s,
                        parent);
}

static cr_status check_element(loader *L, xmlNode *n, const char *parent)
{
    const struct elem_spec *es = find_elem_spec((const char *)n->name);
    const struct elem_spec *ps = find_elem_spec(parent);
    if (n->ns)
        return FAIL(L, n, CR_EPARSE,
                    "element <%s:%s> has a namespace: topology files use no namespaces",
                    n->ns->prefix ? (const char *)n->ns->prefix : "", n->name);
    if (!es || !ps || !word_in(ps->children, (const char *)n->name)) {
        if (ps && ps->children[0])
            return FAIL(L, n, CR_EPARSE, "unknown element <%s> in <%s>: expected one of: %s",
                        n->name, parent, ps->children);
        return FAIL(L, n, CR_EPARSE, "unknown element <%s> in <%s>: <%s> has no child elements",
                    n->name, parent, parent);
    }
    for (xmlAttr *a = n->properties; a; a = a->next) {
        if (a->ns || !word_in(es->attrs, (const char *)a->name))
            return FAIL(L, n, CR_EPARSE, "unknown attribute \"%s\" on <%s>: expected one of: %s",
                        a->name, n->name, es->attrs);
        size_t len = 0;
        for (xmlNode *c = a->children; c; c = c->next)
            if (c->content)
                len += strlen((const char *)c->content);
        if (len > MAX_ATTR_BYTES)
            return FAIL(L, n, CR_ERANGE,
                        "attribute \"%s\" on <%s> is %zu bytes long, more than the 1 MiB limit",
                        a->name, n->name, len);
    }
    for (const char *p = es->required; *p;) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)(e - p), p);
        if (w[0] && !txml_get(L, n, w))
            return FAIL(L, n, CR_EINVAL, "<%s> needs the attribute \"%s\"", n->name, w);
        p = e;
    }
    for (xmlNode *c = n->children; c; c = c->next) {
        if (c->type == XML_ELEMENT_NODE) {
            cr_status st = check_element(L, c, (const char *)n->name);
            if (st)
                return st;
        } else if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
            cr_status st = check_text(L, c, (const char *)n->name);
            if (st)
                return st;
        } else if (c->type == XML_ENTITY_REF_NODE) {
            return FAIL(L, c, CR_EPARSE, "entity reference &%s; in <%s> is not allowed", c->name,
                        n->name);
        }
    }
    return CR_OK;
}

static cr_status read_gpu_model(loader *L, xmlNode *n)
{
    cr_gpu_spec s = {0};
    const char *name = txml_get(L, n, "name");
    int prev = cr_topo_find_gpu_spec(L->t, name);
    if (prev >= 0)
        return FAIL(L, n, CR_EINVAL, "GPU model \"%s\" is defined twice (first on line %d)", name,
                    prev < 256 ? L->gpu_spec_line[prev] : 0);
    if (L->t->n_gpu_specs >= 256)
        return FAIL(L, n, CR_ERANGE, "more than 256 GPU models");
    s.name = (char *)(uintptr_t)name;
    s.vendor = (char *)(uintptr_t)txml_get(L, n, "vendor");
    s.source = (char *)(uintptr_t)txml_get(L, n, "source");
    cr_status st;
    if ((st = txml_get_int(L, n, "arch", 0, 10000, 0, &s.arch)) ||
        (st = txml_get_int(L, n, "sms", 1, 1000000, 0, &s.sms)) ||
        (st = get_pos(L, n, "hbm", CR_UNIT_BYTES, MAX_BYTES, "1PB (e.g. \"141GB\")",
                      &s.hbm_bytes)) ||
        (st = get_pos(L, n, "hbm-bw", CR_UNIT_BANDWIDTH, MAX_BW_BPS, "1PB/s (e.g. \"4.8TB/s\")",
                      &s.hbm_Bps)))
        return st;
    if (txml_get(L, n, "l2") &&
        (st = get_pos(L, n, "l2", CR_UNIT_BYTES, MAX_BYTES, "1PB (e.g. \"50MiB\")", &s.l2_bytes)))
        return st;
    if (txml_get(L, n, "l2-bw") && (st = get_pos(L, n, "l2-bw", CR_UNIT_BANDWIDTH, MAX_BW_BPS,
                                                 "1PB/s (e.g. \"12TB/s\")", &s.l2_Bps)))
        return st;
    if (txml_get(L, n, "llc") && (st = get_pos(L, n, "llc", CR_UNIT_BYTES, MAX_BYTES,
                                               "1PB (e.g. \"256MiB\")", &s.llc_bytes)))
        return st;
    if (txml_get(L, n, "llc-bw") && (st = get_pos(L, n, "llc-bw", CR_UNIT_BANDWIDTH, MAX_BW_BPS,
                                                  "1PB/s (e.g. \"17.2TB/s\")", &s.llc_Bps)))
        return st;
    if (s.l2_Bps > 0 && !(s.l2_bytes > 0))
        return FAIL(L, n, CR_EINVAL,
                    "GPU model \"%s\" gives l2-bw without l2: give the cache's size too (e.g. "
                    "l2=\"50MiB\")",
                    name);
    /* every byte from HBM passes through the L2 (and the last-level
     * cache): a cache slower than the memory made the warm floor
     * bytes / l2-bw larger than the HBM time every prediction rests on
     * (fuzz_ops_laws, session 42: l2-bw 2.012TB/s on a B200 of 8TB/s,
     * a memcpy predicted under its bound) */
    for (int c = 0; c < 2; c++) {
        double bw = c ? s.llc_Bps : s.l2_Bps;
        if (bw > 0 && bw < s.hbm_Bps) {
            char cb[32], hb[32];
            cr_units_format(bw, CR_UNIT_BANDWIDTH, cb, sizeof cb);
            cr_units_format(s.hbm_Bps, CR_UNIT_BANDWIDTH, hb, sizeof hb);
            return FAIL(L, n, CR_EINVAL,
                        "GPU model \"%s\": %s %s is below its hbm-bw %s: every byte from HBM "
                        "passes through the cache, so the cache is at least as fast; give the "
                        "cache's own figure, or leave %s out",
                        name, c ? "llc-bw" : "l2-bw", cb, hb, c ? "llc-bw" : "l2-bw");
        }
    }
    if (s.llc_Bps > 0 && !(s.llc_bytes > 0))
        return FAIL(L, n, CR_EINVAL,
                    "GPU model \"%s\" gives llc-bw without llc: give the cache's size too (e.g. "
                    "llc=\"256MiB\")",
                    name);
    const char *clk = txml_get(L, n, "clock");
    if (clk && (parse_hz(clk, &s.clock_hz) || !(s.clock_hz > 0) || s.clock_hz > 1e12))
        return FAIL(L, n, CR_EPARSE,
                    "<gpu-model> clock: \"%s\" is not a positive frequency with a unit (e.g. "
                    "\"1.98GHz\" or \"1980MHz\")",
                    clk);
    bool any = false;
    const char *meas_src = NULL;                       /* <measured>'s source */
    const char *meas_flops_src[CR_DT__COUNT] = {NULL}; /* each <measured-flops>'s */
    for (xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (txml_is_name(c, "measured")) {
            if (s.meas_hbm_Bps > 0 || s.meas_l2_Bps > 0)
                return FAIL(L, c, CR_EINVAL, "<measured> given twice in GPU model \"%s\"", name);
            if (!txml_get(L, c, "hbm-bw") && !txml_get(L, c, "l2-bw"))
                return FAIL(L, c, CR_EINVAL,
                            "<measured> in GPU model \"%s\" gives neither hbm-bw nor l2-bw", name);
            if (txml_get(L, c, "hbm-bw") &&
                (st = get_pos(L, c, "hbm-bw", CR_UNIT_BANDWIDTH, MAX_BW_BPS,
                              "1PB/s (e.g. \"4.2TB/s\")", &s.meas_hbm_Bps)))
                return st;
            if (txml_get(L, c, "l2-bw") &&
                (st = get_pos(L, c, "l2-bw", CR_UNIT_BANDWIDTH, MAX_BW_BPS,
                              "1PB/s (e.g. \"9TB/s\")", &s.meas_l2_Bps)))
                return st;
            meas_src = txml_get(L, c, "source");
            continue;
        }
        bool meas = txml_is_name(c, "measured-flops");
        const char *dt = txml_get(L, c, "dtype");
        cr_dtype k;
        cr_diag dd = {{0}};
        if (cr_dtype_parse(dt, &k, &dd))
            return FAIL(L, c, CR_EINVAL, "<%s> dtype: %s", c->name, dd.msg);
        double *slot = meas ? &s.meas_flops[k] : &s.peak_flops[k];
        if (*slot > 0)
            return FAIL(L, c, CR_EINVAL, "<%s> for dtype \"%s\" given twice in GPU model \"%s\"",
                        c->name, dt, name);
        if ((st = get_pos(L, c, meas ? "value" : "peak", CR_UNIT_FLOPS, MAX_FLOPS,
                          "1000PFLOP/s (e.g. \"989TFLOP/s\")", slot)))
            return st;
        any |= !meas;
        if (meas)
            meas_flops_src[k] = txml_get(L, c, "source");
    }
    if (!any)
        return FAIL(L, n, CR_EINVAL,
                    "GPU model \"%s\" has no <flops>: give at least one dense peak, e.g. <flops "
                    "dtype=\"bf16\" peak=\"989TFLOP/s\"/>",
                    name);
    L->gpu_spec_line[L->t->n_gpu_specs] = txml_line_of(n);
    /* the spec takes copies: the loader's strings are borrowed */
    bool oom = false;
    s.meas_source = meas_src ? strdup(meas_src) : NULL;
    oom |= meas_src && !s.meas_source;
    for (int k = 0; k < CR_DT__COUNT; k++) {
        s.meas_flops_source[k] = meas_flops_src[k] ? strdup(meas_flops_src[k]) : NULL;
        oom |= meas_flops_src[k] && !s.meas_flops_source[k];
    }
    int added = oom ? -1 : cr_topo_add_gpu_spec(L->t, &s);
    free(s.meas_source);
    for (int k = 0; k < CR_DT__COUNT; k++)
        free(s.meas_flops_source[k]);
    if (added < 0)
        return txml_oom(L);
    return CR_OK;
}

static cr_status read_switch_model(loader *L, xmlNode *n)
{
    cr_switch_spec s = {0};
    const char *name = txml_get(L, n, "name");
    int prev = cr_topo_find_switch_spec(L->t, name);
    if (prev >= 0)
        return FAIL(L, n, CR_EINVAL, "switch model \"%s\" is defined twice (first on line %d)",
                    name, prev < 256 ? L->switch_spec_line[prev] : 0);
    if (L->t->n_switch_specs >= 256)
        return FAIL(L, n, CR_ERANGE, "more than 256 switch models");
    s.name = (char *)(uintptr_t)name;
    s.source = (char *)(uintptr_t)txml_get(L, n, "source");
    cr_status st;
    if ((st = txml_get_int(L, n, "generation", 0, 1000, 0, &s.generation)) ||
        (st = txml_get_bool(L, n, "multicast", &s.multicast)) ||
        (st = txml_get_bool(L, n, "reduction", &s.reduction)))
        return st;
    if (txml_get(L, n, "reduce-bw")) {
        if (!s.reduction)
            return FAIL(L, n, CR_EINVAL,
                        "switch model \"%s\" gives reduce-bw without reduction=\"yes\"", name);
        if ((st = txml_get_bw(L, n, "reduce-bw", &s.reduce_Bps)))
            return st;
    }
    L->switch_spec_line[L->t->n_switch_specs] = txml_line_of(n);
    if (cr_topo_add_switch_spec(L->t, &s) < 0)
        return txml_oom(L);
    return CR_OK;
}

static cr_status read_param(loader *L, xmlNode *n)
{
    const char *key = txml_get(L, n, "key"), *val = txml_get(L, n, "value");
    if (!*key)
        return FAIL(L, n, CR_EINVAL, "<param> key is empty");
    if (cr_topo_find_param(L->t, key))
        return FAIL(L, n, CR_EINVAL, "parameter \"%s\" is set twice", key);
    double v = 0;
    bool ok = false;
    const char *unit = ""; /* the value's unit: "" for a plain number */
    if (cr_plain_number(val)) {
        char *end = NULL;
        errno = 0;
        v = cr_strtod_c(val, &end);
        ok = end && !*end && !errno && isfinite(v);
        static const cr_unit_kind kinds[] = {CR_UNIT_BANDWIDTH, CR_UNIT_TIME, CR_UNIT_BYTES,
                                             CR_UNIT_FLOPS, CR_UNIT_FLOP};
        static const char *const names[] = {"B/s", "s", "B", "FLOP/s", "FLOP"};
        for (size_t i = 0; !ok && i < sizeof kinds / sizeof kinds[0]; i++)
            if ((ok = cr_units_parse(val, kinds[i], &v, NULL) == CR_OK))
                unit = names[i];
    }
    if (!ok)
        return FAIL(L, n, CR_EPARSE,
                    "<param> value: \"%s\" is neither a plain number nor a quantity with a unit "
                    "(e.g. \"0.82\", \"2us\", \"450GB/s\")",
                    val);
    /* a misspelt key would be ignored and a value out of range refused
     * only when a command reads it, without this line */
    cr_diag pd = {{0}};
    if (cr_params_check_topo_key(key, v, unit, &pd) != CR_OK)
        return FAIL(L, n, CR_EINVAL, "<param>: %s", pd.msg);
    if (cr_topo_set_param(L->t, key, v, txml_get(L, n, "source")))
        return txml_oom(L);
    return CR_OK;
}

struct tmpl *txml_find_tmpl(loader *L, const char *name)
{
    for (int i = 0; i < L->n_tmpls; i++)
        if (strcmp(L->tmpls[i].name, name) == 0)
            return &L->tmpls[i];
    return NULL;
}

static cr_status pass1(loader *L, xmlNode *root)
{
    cr_status st = CR_OK;
    for (xmlNode *n = root->children; n && !st; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (txml_is_name(n, "gpu-model")) {
            st = read_gpu_model(L, n);
        } else if (txml_is_name(n, "switch-model")) {
            st = read_switch_model(L, n);
        } else if (txml_is_name(n, "param")) {
            st = read_param(L, n);
        } else if (txml_is_name(n, "node-template")) {
            const char *name = txml_get(L, n, "name");
            struct tmpl *prev = txml_find_tmpl(L, name);
            if (prev)
                return FAIL(L, n, CR_EINVAL,
                            "node template \"%s\" is defined twice (first on line %d)", name,
                            txml_line_of(prev->node));
            if (cr_grow((void **)&L->tmpls, &L->cap_tmpls, (size_t)L->n_tmpls + 1,
                        sizeof *L->tmpls))
                return txml_oom(L);
            L->tmpls[L->n_tmpls++] = (struct tmpl){.name = name, .node = n};
        }
    }
    /* Every template is compiled, used or not, so that its errors show. */
    for (int i = 0; i < L->n_tmpls && !st; i++)
        st = txml_compile_tmpl(L, &L->tmpls[i]);
    return st;
}

/* ---------------------------------------------------------------------- */
/* Checker messages to lines                                               */

/* Copies the k-th "quoted" string of msg into out; false if none. */
static bool quoted(const char *msg, int k, char *out, size_t size)
{
    const char *p = msg;
    for (int i = 0; i <= k; i++) {
        p = strchr(p, '"');
        if (!p)
            return false;
        const char *e = strchr(p + 1, '"');
        if (!e)
            return false;
        if (i == k) {
            snprintf(out, size, "%.*s", (int)(e - p - 1), p + 1);
            return true;
        }
        p = e + 1;
    }
    return false;
}

/* The line a checker message is about: the later link between the two
 * devices it names, or the device or GPU model it names. */
static int check_line(loader *L, const char *msg)
{
    char x[300], y[300];
    const cr_topo *t = L->t;
    bool link_msg = strncmp(msg, "link \"", 6) == 0 || strncmp(msg, "two ", 4) == 0;
    if (link_msg && quoted(msg, 0, x, sizeof x) && quoted(msg, 1, y, sizeof y)) {
        int a = cr_topo_find_dev(t, x), b = cr_topo_find_dev(t, y);
        for (int l = t->n_links - 1; l >= 0; l--) {
            const cr_link *k = &t->links[l];
            if ((k->a == a && k->b == b) || (k->a == b && k->b == a))
                return L->link_line[l];
        }
    }
    if (!quoted(msg, 0, x, sizeof x))
        return 0;
    if (strncmp(msg, "GPU model", 9) == 0) {
        int s = cr_topo_find_gpu_spec(t, x);
        return s >= 0 && s < 256 ? L->gpu_spec_line[s] : 0;
    }
    int v = cr_topo_find_dev(t, x);
    return v >= 0 ? L->dev_line[v] : 0;
}

/* ---------------------------------------------------------------------- */
/* Parsing                                                                 */

/* Topology wording for what cr_xml_parse() refused: the format's rules and
 * what to write instead. */
static cr_status parse_error(loader *L, const cr_xml_error *ps, bool blank)
{
    if (ps->kind == CR_XML_ERR_ENTITY) {
        if (ps->external)
            return txml_fail_at(
                L, ps->line, CR_EPARSE,
                "external entity \"%s\" (SYSTEM \"%s\") is refused: topology files may "
                "not declare entities, and commroof never reads external content",
                ps->name, ps->system_id);
        return txml_fail_at(
            L, ps->line, CR_EPARSE,
            "entity \"%s\" is refused: topology files may not declare entities (this "
            "also stops entity-expansion bombs); write the text out in full",
            ps->name);
    }
    if (ps->kind != CR_XML_ERR_SYNTAX)
        return txml_fail_at(L, 0, CR_EPARSE, "not well-formed XML");
    switch (ps->code) {
    case XML_ERR_DOCUMENT_EMPTY:
        /* libxml2's "Document is empty" also means "no '<' before the
         * first text": only a blank file is empty. */
        if (blank)
            return txml_fail_at(
                L, 1, CR_EPARSE,
                "the file is empty: a topology file holds one <topology name=\"...\"> "
                "element (see doc/topology-format.md)");
        return txml_fail_at(
            L, ps->line > 0 ? ps->line : 1, CR_EPARSE,
            "not XML (libxml2 at column %d: %s): a topology file holds one <topology "
            "name=\"...\"> element (see doc/topology-format.md)",
            ps->column, ps->message);
    case XML_ERR_TAG_NOT_FINISHED:
        return txml_fail_at(
            L, ps->line, CR_EPARSE,
            "the file ends inside <%s> (opened on line %d): it looks truncated; close "
            "every element",
            ps->str1, ps->int1);
    case XML_ERR_TAG_NAME_MISMATCH:
        return txml_fail_at(
            L, ps->line, CR_EPARSE,
            "end tag </%s> does not match <%s> (opened on line %d): close elements in "
            "the order they were opened",
            ps->str2, ps->str1, ps->int1);
    case XML_ERR_DOCUMENT_END:
        return txml_fail_at(
            L, ps->line, CR_EPARSE,
            "content after the end of the root element: a topology file holds exactly "
            "one <topology> element");
    case XML_ERR_UNDECLARED_ENTITY:
    case XML_WAR_UNDECLARED_ENTITY:
        return txml_fail_at(L, ps->line, CR_EPARSE,
                            "entity reference &%s; is not allowed: use only &amp; &lt; &gt; &quot; "
                            "&apos; and character references",
                            ps->str1);
    case XML_ERR_ATTRIBUTE_REDEFINED:
        return txml_fail_at(L, ps->line, CR_EPARSE,
                            "attribute \"%s\" appears twice on one element: give it once",
                            ps->str1);
    default:
        /* libxml2's nesting limit names a parser option, not the file's
         * fault: say what the format allows instead. */
        if (strstr(ps->message, "Excessive depth"))
            return txml_fail_at(
                L, ps->line, CR_EPARSE,
                "elements nest more than 256 deep: a topology file nests at most "
                "three levels (<topology>, <node-template> or <gpu-model>, and their "
                "children)");
        return txml_fail_at(L, ps->line, CR_EPARSE, "not well-formed XML: %s", ps->message);
    }
}

static cr_status parse_doc(loader *L, const char *buf, size_t len, xmlDocPtr *out)
{
    cr_xml_error e;
    cr_diag scratch = {{0}}; /* the generic wording; parse_error words it for topologies */
    cr_status st = cr_xml_parse(buf, len, L->origin, 0, out, &e, &scratch);
    if (st == CR_EPARSE)
        return parse_error(L, &e, cr_xml_is_blank(buf, len));
    if (st)
        return cr_diag_set(L->d, st, "%s", scratch.msg);
    return CR_OK;
}

static cr_status build(loader *L, xmlDocPtr doc, cr_topo **out)
{
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!root)
        return txml_fail_at(L, 1, CR_EPARSE,
                            "the file has no root element: write <topology name=...>");
    if (root->ns)
        return FAIL(L, root, CR_EPARSE,
                    "root element <%s> is in namespace \"%s\": topology files use no namespaces",
                    root->name, root->ns->href ? (const char *)root->ns->href : "");
    if (!txml_is_name(root, "topology"))
        return FAIL(L, root, CR_EPARSE, "root element is <%s>, expected <topology>%s", root->name,
                    txml_is_name(root, "system")
                        ? " (this looks like an NCCL topology dump: convert it "
                          "with \"commroof topo import-nccl\")"
                        : "");
    for (xmlAttr *a = root->properties; a; a = a->next)
        if (a->ns || !word_in(find_elem_spec("topology")->attrs, (const char *)a->name))
            return FAIL(L, root, CR_EPARSE,
                        "unknown attribute \"%s\" on <topology>: expected one of: %s", a->name,
                        find_elem_spec("topology")->attrs);
    const char *name = txml_get(L, root, "name");
    if (!name || !*name)
        return FAIL(L, root, CR_EINVAL, "<topology> needs a non-empty attribute \"name\"");
    const char *ver = txml_get(L, root, "version");
    if (ver && strcmp(ver, "1") != 0)
        return FAIL(L, root, CR_EUNSUPPORTED,
                    "<topology> version=\"%s\": this commroof reads version 1", ver);
    cr_status st = CR_OK;
    /* Children first (names, attributes, lengths), then the root's own. */
    for (xmlNode *c = root->children; c && !st; c = c->next) {
        if (c->type == XML_ELEMENT_NODE)
            st = check_element(L, c, "topology");
        else if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE)
            st = check_text(L, c, "topology");
    }
    for (xmlAttr *a = root->properties; a && !st; a = a->next) {
        size_t len = 0;
        for (xmlNode *c = a->children; c; c = c->next)
            if (c->content)
                len += strlen((const char *)c->content);
        if (len > MAX_ATTR_BYTES)
            st = FAIL(L, root, CR_ERANGE,
                      "attribute \"%s\" on <topology> is %zu bytes long, more than the 1 MiB limit",
                      a->name, len);
    }
    if (st)
        return st;
    L->t = cr_topo_new(name);
    if (!L->t || cr_topo_set_description(L->t, txml_get(L, root, "description")) ||
        cr_topo_set_source(L->t, txml_get(L, root, "source")))
        return txml_oom(L);
    if ((st = pass1(L, root)) || (st = txml_pass2(L, root)) || (st = txml_pass3(L, root)))
        return st;
    cr_diag cd = {{0}};
    st = cr_topo_check(L->t, &cd);
    if (st) {
        /* Whole-graph problems that name nothing point at <topology>. */
        int line = check_line(L, cd.msg);
        return txml_fail_at(L, line ? line : txml_line_of(root), st, "%s", cd.msg);
    }
    *out = L->t;
    L->t = NULL;
    return CR_OK;
}

/* Topology wording for an input over MAX_INPUT_BYTES: where (line 1: the
 * file as a whole), what, and what to do instead. */
static cr_status too_big(const char *origin, long long bytes, cr_diag *d)
{
    return cr_diag_set(d, CR_ERANGE,
                       "%s:1: the file is %lld bytes, more than the 64 MiB a topology file may "
                       "hold (a saved 8,192-GPU cluster is 6.9 MB): check that it is a topology "
                       "file; describe repeated nodes once with <node-template> and <nodes "
                       "count=...>",
                       origin, bytes);
}

cr_status cr_topo_xml_load_memory(const char *buf, size_t len, const char *origin, cr_topo **out,
                                  cr_diag *d)
{
    loader L = {0};
    L.origin = origin ? origin : "<memory>";
    L.d = d;
    if (out)
        *out = NULL;
    if (!out || (!buf && len))
        return cr_diag_set(d, CR_EINVAL, "%s: no buffer or no place for the result", L.origin);
    if (len > MAX_INPUT_BYTES)
        return too_big(L.origin, (long long)len, d);
    if (len == 0)
        return cr_diag_set(d, CR_EPARSE,
                           "%s:1: the file is empty: a topology file holds one <topology "
                           "name=\"...\"> element (see doc/topology-format.md)",
                           L.origin);
    xmlDocPtr doc = NULL;
    cr_status st = parse_doc(&L, buf, len, &doc);
    if (!st)
        st = build(&L, doc, out);
    xmlFreeDoc(doc);
    cr_topo_free(L.t);
    loader_release(&L);
    return st;
}

cr_status cr_topo_xml_load_file(const char *path, cr_topo **out, cr_diag *d)
{
    if (out)
        *out = NULL;
    if (!path)
        return cr_diag_set(d, CR_EINVAL, "no topology file given");
    char *buf = NULL;
    size_t size = 0;
    cr_xml_error e;
    cr_diag rd = {{0}}; /* d keeps its first message: reword a size error before it gets one */
    cr_status st = cr_xml_read_file(path, MAX_INPUT_BYTES, "a topology", &buf, &size, &e, &rd);
    if (st && e.kind == CR_XML_ERR_SIZE)
        too_big(path, e.bytes, d);
    else if (st)
        cr_diag_set(d, st, "%s", rd.msg);
    if (!st)
        st = cr_topo_xml_load_memory(buf, size, path, out, d);
    free(buf);
    return st;
}

/* ---------------------------------------------------------------------- */
/* Saving                                                                  */

/* The text is a cr_sbuf (sbuf.h, the library's one string builder); the
 * saver adds its memo of formatted figures. */
struct sbuf {
    cr_sbuf s;
    /* A graph repeats a few figures thousands of times: remember the last
     * formatted ones (fmt_exact tries many spellings). */
    struct {
        double v;
        int kind;
        char text[64];
    } memo[16];
    int n_memo, next_memo;
};

static void sb_put(struct sbuf *b, const char *s, size_t n)
{
    cr_sbuf_put(&b->s, s, n);
}

static void sb_str(struct sbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

/* name="escaped value" with a leading space. */
static void sb_attr(struct sbuf *b, const char *name, const char *v)
{
    if (!v)
        return;
    sb_str(b, " ");
    sb_str(b, name);
    sb_str(b, "=\"");
    const char *run = v;
    for (const char *p = v;; p++) {
        const char *esc = NULL;
        switch (*p) {
        case '&':
            esc = "&amp;";
            break;
        case '<':
            esc = "&lt;";
            break;
        case '>':
            esc = "&gt;";
            break;
        case '"':
            esc = "&quot;";
            break;
        default:
            /* cr_xml_parse refuses control characters in attribute
             * values: a blank, as XML itself makes of a literal newline or
             * tab in an attribute. */
            if (*p && (unsigned char)*p < 0x20)
                esc = " ";
        }
        if (!esc && *p)
            continue;
        sb_put(b, run, (size_t)(p - run));
        if (!*p)
            break;
        sb_str(b, esc);
        run = p + 1;
    }
    sb_str(b, "\"");
}

/* Writes v with a unit so that cr_units_parse gives back exactly v: the
 * shortest mantissa under the natural prefix, else the base unit with 17
 * digits (strtod of that is exact). */
static void fmt_exact(double v, cr_unit_kind kind, char *buf, size_t size)
{
    static const struct {
        const char *p;
        double s;
    } si[] = {{"E", 1e18}, {"P", 1e15}, {"T", 1e12}, {"G", 1e9},  {"M", 1e6},  {"k", 1e3},
              {"", 1},     {"m", 1e-3}, {"u", 1e-6}, {"n", 1e-9}, {"p", 1e-12}},
      iec[] = {{"Ki", 1024.0},          {"Mi", 1048576.0},          {"Gi", 1073741824.0},
               {"Ti", 1099511627776.0}, {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0}};
    const char *unit = kind == CR_UNIT_BYTES       ? "B"
                       : kind == CR_UNIT_BANDWIDTH ? "B/s"
                       : kind == CR_UNIT_TIME      ? "s"
                       : kind == CR_UNIT_FLOPS     ? "FLOP/s"
                                                   : "FLOP";
    double mag = fabs(v);
    /* Candidates: every IEC prefix that divides a byte count exactly, the
     * natural SI prefix and its two neighbours ("0.3us" parses back to
     * 0.3 * 1e-6 exactly where "300ns" does not). The shortest wins. */
    struct {
        const char *p;
        double s;
    } cand[10];
    int nc = 0;
    if (kind == CR_UNIT_BYTES && mag >= 1024 && v == floor(v))
        for (int i = 0; i < 6 && mag >= iec[i].s; i++)
            if (fmod(mag, iec[i].s) == 0) {
                cand[nc].p = iec[i].p;
                cand[nc++].s = iec[i].s;
            }
    int nat = 6; /* "" */
    if (mag > 0)
        for (int i = 0; i < 11; i++) {
            if (si[i].s < 1 && kind != CR_UNIT_TIME)
                break;
            nat = i;
            if (mag >= si[i].s)
                break;
        }
    for (int i = nat - 1; i <= nat + 1; i++)
        if (i >= 0 && i < 11 && (si[i].s >= 1 || kind == CR_UNIT_TIME)) {
            cand[nc].p = si[i].p;
            cand[nc++].s = si[i].s;
        }
    char best[64] = "", tmp[64];
    for (int c = 0; c < nc; c++)
        for (int prec = 1; prec <= 17; prec++) {
            cr_snprintf_c(tmp, sizeof tmp, "%.*g%s%s", prec, v / cand[c].s, cand[c].p, unit);
            double back;
            if (strchr(tmp, 'e')) /* "5e+01MiB" parses, but people write "50MiB" */
                continue;
            if (cr_units_parse(tmp, kind, &back, NULL) == CR_OK && back == v) {
                if (!best[0] || strlen(tmp) < strlen(best))
                    cr_str_copy(best, sizeof best, tmp);
                break;
            }
        }
    if (best[0])
        cr_str_copy(buf, size, best);
    else
        cr_snprintf_c(buf, size, "%.17g%s", v, unit);
}

static void sb_qty(struct sbuf *b, const char *name, double v, cr_unit_kind kind)
{
    for (int i = 0; i < b->n_memo; i++)
        if (b->memo[i].v == v && b->memo[i].kind == (int)kind) {
            sb_attr(b, name, b->memo[i].text);
            return;
        }
    int slot = b->next_memo;
    b->next_memo = (b->next_memo + 1) % 16;
    if (b->n_memo < 16)
        b->n_memo++;
    b->memo[slot].v = v;
    b->memo[slot].kind = (int)kind;
    fmt_exact(v, kind, b->memo[slot].text, sizeof b->memo[slot].text);
    sb_attr(b, name, b->memo[slot].text);
}

static void sb_hz(struct sbuf *b, const char *name, double v)
{
    char q[64];
    static const struct {
        const char *u;
        double f;
    } units[] = {{"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}, {"Hz", 1}};
    size_t i = 0;
    while (i + 1 < sizeof units / sizeof units[0] && v < units[i].f)
        i++;
    for (int prec = 1; prec <= 18; prec++) {
        double back;
        if (prec == 18)
            cr_snprintf_c(q, sizeof q, "%.17gHz", v);
        else
            cr_snprintf_c(q, sizeof q, "%.*g%s", prec, v / units[i].f, units[i].u);
        if (parse_hz(q, &back) == 0 && back == v)
            break;
    }
    sb_attr(b, name, q);
}

static void sb_int(struct sbuf *b, const char *name, long v)
{
    char q[32];
    snprintf(q, sizeof q, "%ld", v);
    sb_attr(b, name, q);
}

cr_status cr_topo_xml_save_memory(const cr_topo *t, char **buf, size_t *len, cr_diag *d)
{
    *buf = NULL;
    if (len)
        *len = 0;
    for (int i = 0; i < t->n_gpu_specs; i++) {
        if (!t->gpu_specs[i].name || !t->gpu_specs[i].vendor)
            return cr_diag_set(d, CR_EINVAL, "GPU model %d has no name or vendor", i);
        if (cr_topo_find_gpu_spec(t, t->gpu_specs[i].name) != i)
            return cr_diag_set(d, CR_EINVAL, "two GPU models are named \"%s\"",
                               t->gpu_specs[i].name);
    }
    for (int i = 0; i < t->n_switch_specs; i++) {
        if (!t->switch_specs[i].name)
            return cr_diag_set(d, CR_EINVAL, "switch model %d has no name", i);
        if (cr_topo_find_switch_spec(t, t->switch_specs[i].name) != i)
            return cr_diag_set(d, CR_EINVAL, "two switch models are named \"%s\"",
                               t->switch_specs[i].name);
    }
    for (int v = 0; v < t->n_devs; v++)
        if (!t->devs[v].id || !txml_valid_id(t->devs[v].id))
            return cr_diag_set(d, CR_EINVAL,
                               "device %d has id \"%s\": ids may hold only letters, digits and . _ "
                               "- : / + (at most 200)",
                               v, t->devs[v].id ? t->devs[v].id : "");
    /* a parameter set in code skips the loader's key and range check
     * (cr_topo_set_param): saved, it made a file that does not load back
     * (QA audit of the API, session 51). The saver writes plain numbers, in
     * SI base units, as the loader reads them. */
    for (int i = 0; i < t->n_params; i++) {
        cr_diag pd = {{0}};
        if (cr_params_check_topo_key(t->params[i].key, t->params[i].value, "", &pd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "parameter %d would not load back: %s", i, pd.msg);
    }
    struct sbuf b = {0};
    sb_str(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Written by commroof: the expanded "
               "graph of a topology (doc/topology-format.md). -->\n<topology");
    sb_attr(&b, "name", t->name ? t->name : "unnamed");
    sb_attr(&b, "version", "1");
    sb_attr(&b, "description", t->description);
    sb_attr(&b, "source", t->source);
    sb_str(&b, ">\n");
    for (int i = 0; i < t->n_gpu_specs; i++) {
        const cr_gpu_spec *s = &t->gpu_specs[i];
        sb_str(&b, "  <gpu-model");
        sb_attr(&b, "name", s->name);
        sb_attr(&b, "vendor", s->vendor);
        sb_int(&b, "arch", s->arch);
        sb_int(&b, "sms", s->sms);
        sb_qty(&b, "hbm", s->hbm_bytes, CR_UNIT_BYTES);
        sb_qty(&b, "hbm-bw", s->hbm_Bps, CR_UNIT_BANDWIDTH);
        if (s->l2_bytes > 0)
            sb_qty(&b, "l2", s->l2_bytes, CR_UNIT_BYTES);
        if (s->l2_Bps > 0)
            sb_qty(&b, "l2-bw", s->l2_Bps, CR_UNIT_BANDWIDTH);
        if (s->llc_bytes > 0)
            sb_qty(&b, "llc", s->llc_bytes, CR_UNIT_BYTES);
        if (s->llc_Bps > 0)
            sb_qty(&b, "llc-bw", s->llc_Bps, CR_UNIT_BANDWIDTH);
        if (s->clock_hz > 0)
            sb_hz(&b, "clock", s->clock_hz);
        sb_attr(&b, "source", s->source);
        sb_str(&b, ">\n");
        for (int k = 0; k < CR_DT__COUNT; k++)
            if (s->peak_flops[k] != 0) {
                sb_str(&b, "    <flops");
                sb_attr(&b, "dtype", cr_dtype_name((cr_dtype)k));
                sb_qty(&b, "peak", s->peak_flops[k], CR_UNIT_FLOPS);
                sb_str(&b, "/>\n");
            }
        if (s->meas_hbm_Bps != 0 || s->meas_l2_Bps != 0) {
            sb_str(&b, "    <measured");
            if (s->meas_hbm_Bps != 0)
                sb_qty(&b, "hbm-bw", s->meas_hbm_Bps, CR_UNIT_BANDWIDTH);
            if (s->meas_l2_Bps != 0)
                sb_qty(&b, "l2-bw", s->meas_l2_Bps, CR_UNIT_BANDWIDTH);
            sb_attr(&b, "source", s->meas_source);
            sb_str(&b, "/>\n");
        }
        for (int k = 0; k < CR_DT__COUNT; k++)
            if (s->meas_flops[k] != 0) {
                sb_str(&b, "    <measured-flops");
                sb_attr(&b, "dtype", cr_dtype_name((cr_dtype)k));
                sb_qty(&b, "value", s->meas_flops[k], CR_UNIT_FLOPS);
                sb_attr(&b, "source", s->meas_flops_source[k]);
                sb_str(&b, "/>\n");
            }
        sb_str(&b, "  </gpu-model>\n");
    }
    for (int i = 0; i < t->n_switch_specs; i++) {
        const cr_switch_spec *s = &t->switch_specs[i];
        sb_str(&b, "  <switch-model");
        sb_attr(&b, "name", s->name);
        sb_int(&b, "generation", s->generation);
        sb_attr(&b, "multicast", s->multicast ? "yes" : "no");
        sb_attr(&b, "reduction", s->reduction ? "yes" : "no");
        if (s->reduce_Bps != 0)
            sb_qty(&b, "reduce-bw", s->reduce_Bps, CR_UNIT_BANDWIDTH);
        sb_attr(&b, "source", s->source);
        sb_str(&b, "/>\n");
    }
    for (int i = 0; i < t->n_params; i++) {
        /* the fewest digits that read back as the same double ("0.4075",
         * not "0.40749999999999997") */
        char q[40];
        for (int prec = 1; prec <= 17; prec++) {
            cr_snprintf_c(q, sizeof q, "%.*g", prec, t->params[i].value);
            if (cr_strtod_c(q, NULL) == t->params[i].value)
                break;
        }
        sb_str(&b, "  <param");
        sb_attr(&b, "key", t->params[i].key);
        sb_attr(&b, "value", q);
        sb_attr(&b, "source", t->params[i].source);
        sb_str(&b, "/>\n");
    }
    for (int v = 0; v < t->n_devs; v++) {
        const cr_dev *dv = &t->devs[v];
        sb_str(&b, "  <");
        sb_str(&b, cr_dev_kind_name(dv->kind));
        sb_attr(&b, "id", dv->id);
        if (dv->kind == CR_DEV_GPU && dv->spec >= 0 && dv->spec < t->n_gpu_specs)
            sb_attr(&b, "model", t->gpu_specs[dv->spec].name);
        if (dv->kind == CR_DEV_SWITCH && dv->spec >= 0 && dv->spec < t->n_switch_specs)
            sb_attr(&b, "model", t->switch_specs[dv->spec].name);
        if (dv->kind == CR_DEV_CPU && dv->spec >= 0 && dv->spec < CR_CPU__COUNT)
            sb_attr(&b, "vendor", cr_cpu_vendor_name((cr_cpu_vendor)dv->spec));
        if (dv->kind == CR_DEV_NIC && dv->port_Bps > 0)
            sb_qty(&b, "port-bw", dv->port_Bps, CR_UNIT_BANDWIDTH);
        if (dv->node >= 0)
            sb_int(&b, "node", dv->node);
        sb_str(&b, "/>\n");
    }
    for (int l = 0; l < t->n_links; l++) {
        const cr_link *k = &t->links[l];
        if (k->a < 0 || k->a >= t->n_devs || k->b < 0 || k->b >= t->n_devs) {
            cr_sbuf_release(&b.s);
            return cr_diag_set(d, CR_EINVAL, "link %d ends at a device that does not exist", l);
        }
        sb_str(&b, "  <link");
        sb_attr(&b, "a", t->devs[k->a].id);
        sb_attr(&b, "b", t->devs[k->b].id);
        sb_attr(&b, "kind", cr_link_kind_name(k->kind));
        if (k->bw_ab_Bps == k->bw_ba_Bps) {
            sb_qty(&b, "bw", k->bw_ab_Bps, CR_UNIT_BANDWIDTH);
        } else {
            sb_qty(&b, "bw-ab", k->bw_ab_Bps, CR_UNIT_BANDWIDTH);
            sb_qty(&b, "bw-ba", k->bw_ba_Bps, CR_UNIT_BANDWIDTH);
        }
        if (k->count != 1)
            sb_int(&b, "count", k->count);
        if (k->lat_s != 0)
            sb_qty(&b, "latency", k->lat_s, CR_UNIT_TIME);
        sb_str(&b, "/>\n");
    }
    sb_str(&b, "</topology>\n");
    if (b.s.oom) {
        cr_sbuf_release(&b.s);
        return cr_diag_set(d, CR_ENOMEM, "out of memory writing topology \"%s\"", t->name);
    }
    *buf = b.s.p;
    if (len)
        *len = b.s.len;
    return CR_OK;
}

cr_status cr_topo_xml_save_file(const cr_topo *t, const char *path, cr_diag *d)
{
    char *buf = NULL;
    size_t len = 0;
    cr_status st = cr_topo_xml_save_memory(t, &buf, &len, d);
    if (st == CR_OK)
        st = cr_file_write(path, buf, len, d);
    free(buf);
    return st;
}

/* ---------------------------------------------------------------------- */
/* Shipped topologies                                                      */

const char *cr_topo_shipped_name(int i)
{
    return cr_embedded_name(cr_embedded_topo, i);
}

cr_status cr_topo_open(const char *name_or_path, cr_topo **out, cr_diag *d)
{
    if (out)
        *out = NULL;
    if (!name_or_path || !*name_or_path)
        return cr_diag_set(d, CR_EINVAL,
                           "no topology given: name a shipped one (e.g. \"%s\") or an XML file",
                           CR_TOPO_DEFAULT);
    if (cr_embedded_is_path(name_or_path))
        return cr_topo_xml_load_file(name_or_path, out, d);
    const struct cr_embedded *e = cr_embedded_find(cr_embedded_topo, name_or_path);
    if (e) {
        char origin[300];
        snprintf(origin, sizeof origin, "%s.xml", name_or_path);
        return cr_topo_xml_load_memory(e->text, strlen(e->text), origin, out, d);
    }
    char list[700];
    cr_embedded_list(cr_embedded_topo, list, sizeof list);
    return cr_diag_set(d, CR_ENOTFOUND,
                       "no shipped topology named \"%s\" (shipped: %s); for a file give a path "
                       "with '/' or ending in .xml",
                       name_or_path, list);
}

/* ---------------------------------------------------------------------- */
/* Parts, for generators                                                   */

void cr_topo_xml_parts_release(cr_topo_xml_parts *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n_parts; i++) {
        cr_topo_xml_part *q = &p->parts[i];
        for (int k = 0; k < q->n_attrs; k++) {
            free(q->keys[k]);
            free(q->values[k]);
        }
        free(q->keys);
        free(q->values);
        free(q->elem);
        free(q->xml);
    }
    free(p->parts);
    free(p->origin);
    free(p->name);
    free(p->description);
    free(p->source);
    memset(p, 0, sizeof *p);
}

const char *cr_topo_xml_part_attr(const cr_topo_xml_part *part, const char *key)
{
    for (int k = 0; part && k < part->n_attrs; k++)
        if (strcmp(part->keys[k], key) == 0)
            return part->values[k];
    return NULL;
}

/* A copy of attribute name of n (free()), NULL when absent; sets *oom
 * where it is there but memory ran out. */
static char *prop_dup(const xmlNode *n, const char *name, bool *oom)
{
    xmlChar *v = cr_xml_prop(n, name, false, oom);
    char *s = v ? strdup((const char *)v) : NULL;
    if (v && !s)
        *oom = true;
    xmlFree(v);
    return s;
}

static cr_status part_fill(cr_topo_xml_part *q, xmlDocPtr doc, xmlNode *n)
{
    q->line = txml_line_of(n);
    q->elem = strdup((const char *)n->name);
    /* An output buffer, not xmlNodeDump into an xmlBuffer: when growing it
     * runs out of memory, libxml2 2.9's xmlNodeDump frees the buffer's
     * text yet returns its length, and the copy read freed memory (QA
     * audit of allocation failures: topo gen fat-tree, ASan
     * heap-use-after-free). An output buffer keeps the error: its text is
     * NULL after a failed growth. */
    xmlOutputBufferPtr ob = xmlAllocOutputBuffer(NULL);
    if (q->elem && ob) {
        xmlNodeDumpOutput(ob, doc, n, 1, 0, NULL);
        const xmlChar *txt = xmlOutputBufferGetContent(ob);
        if (!ob->error && txt)
            q->xml = strndup((const char *)txt, xmlOutputBufferGetSize(ob));
    }
    if (ob)
        xmlOutputBufferClose(ob);
    if (!q->xml)
        return CR_ENOMEM;
    int na = 0;
    for (xmlAttr *a = n->properties; a; a = a->next)
        na++;
    q->keys = calloc((size_t)na + 1, sizeof *q->keys);
    q->values = calloc((size_t)na + 1, sizeof *q->values);
    if (!q->keys || !q->values)
        return CR_ENOMEM;
    for (xmlAttr *a = n->properties; a; a = a->next) {
        q->keys[q->n_attrs] = strdup((const char *)a->name);
        /* every attribute walked is present: NULL is out of memory */
        xmlChar *v = xmlGetProp(n, a->name);
        q->values[q->n_attrs] = v ? strdup((const char *)v) : NULL;
        xmlFree(v);
        q->n_attrs++;
        if (!q->keys[q->n_attrs - 1] || !q->values[q->n_attrs - 1])
            return CR_ENOMEM;
    }
    return CR_OK;
}

cr_status cr_topo_xml_parts_open(const char *name_or_path, cr_topo_xml_parts *out, cr_diag *d)
{
    memset(out, 0, sizeof *out);
    cr_topo *t = NULL;
    cr_status st = cr_topo_open(name_or_path, &t, d);
    if (st)
        return st;
    out->n_gpus = t->n_gpus;
    /* The first node's NICs: "nicK" (prefix "") or "PREFIX.nicK". */
    for (bool found = true; found; out->n_nics += found) {
        char nic[32];
        size_t nl = (size_t)snprintf(nic, sizeof nic, "nic%d", out->n_nics);
        found = false;
        for (int i = 0; i < t->n_devs && !found; i++) {
            const char *id = t->devs[i].id;
            size_t il = strlen(id);
            found = t->devs[i].node == 0 && t->devs[i].kind == CR_DEV_NIC && il >= nl &&
                    strcmp(id + il - nl, nic) == 0 && (il == nl || id[il - nl - 1] == '.');
            if (found && out->n_nics == 0)
                out->nic_port_Bps = t->devs[i].port_Bps;
            else if (found && t->devs[i].port_Bps != out->nic_port_Bps)
                out->nic_port_Bps = -1;
        }
    }
    cr_topo_free(t);
    /* Loaded and checked: read the same text again for its elements. */
    char *file = NULL;
    const char *text = NULL;
    size_t len = 0;
    char origin[300];
    if (cr_embedded_is_path(name_or_path)) {
        st = cr_xml_read_file(name_or_path, MAX_INPUT_BYTES, "a topology", &file, &len, NULL, d);
        if (st)
            return st;
        text = file;
        cr_str_copy(origin, sizeof origin, name_or_path);
    } else {
        const struct cr_embedded *e = cr_embedded_find(cr_embedded_topo, name_or_path);
        if (!e)
            return cr_diag_set(d, CR_ENOTFOUND, "no shipped topology named \"%s\"", name_or_path);
        text = e->text;
        len = strlen(text);
        snprintf(origin, sizeof origin, "%s.xml", name_or_path);
    }
    xmlDocPtr doc = NULL;
    st = cr_xml_parse(text, len, origin, 0, &doc, NULL, d);
    free(file);
    if (st)
        return st;
    xmlNode *root = xmlDocGetRootElement(doc);
    int cap = 0;
    for (xmlNode *c = root->children; c; c = c->next)
        cap += c->type == XML_ELEMENT_NODE;
    out->parts = calloc((size_t)cap + 1, sizeof *out->parts);
    out->origin = strdup(origin);
    bool oom = false;
    out->name = prop_dup(root, "name", &oom);
    out->description = prop_dup(root, "description", &oom);
    out->source = prop_dup(root, "source", &oom);
    st = out->parts && out->origin && out->name && !oom ? CR_OK : CR_ENOMEM;
    for (xmlNode *c = root->children; c && !st; c = c->next)
        if (c->type == XML_ELEMENT_NODE)
            st = part_fill(&out->parts[out->n_parts++], doc, c);
    xmlFreeDoc(doc);
    if (st)
        return cr_diag_set(d, st, "%s: out of memory reading its elements", origin);
    return CR_OK;
}
