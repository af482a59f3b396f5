/* SPDX-License-Identifier: MIT */
/*
 * Collectives: names, parsing, nccl-tests byte conventions and bus-bandwidth
 * factors (see coll.h). The factors follow nccl-tests GetBw() in src/<coll>.cu:
 * allreduce 2(n-1)/n; allgather, reducescatter, alltoall, gather, scatter
 * (n-1)/n; broadcast, reduce, sendrecv 1.
 */
#include "sbuf.h"
#include "coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <strings.h>

static const char *const coll_names[CR_COLL__COUNT] = {"allreduce", "allgather", "reducescatter",
                                                       "alltoall",  "broadcast", "reduce",
                                                       "gather",    "scatter",   "sendrecv"};
static const char *const algo_names[CR_ALGO__COUNT] = {"ring", "tree",   "nvls",   "nvlstree",
                                                       "pat",  "direct", "collnet"};
static const char *const proto_names[CR_PROTO__COUNT] = {"ll", "ll128", "simple"};
static const char *const mech_names[CR_MECH__COUNT] = {"ce", "tma", "ldst", "multimem"};

const char *cr_coll_name(cr_coll c)
{
    return (unsigned)c < CR_COLL__COUNT ? coll_names[c] : "?";
}

const char *cr_algo_name(cr_algo a)
{
    if (a == CR_ALGO_AUTO)
        return "auto";
    return (unsigned)a < CR_ALGO__COUNT ? algo_names[a] : "?";
}

const char *cr_proto_name(cr_proto p)
{
    if (p == CR_PROTO_AUTO)
        return "auto";
    return (unsigned)p < CR_PROTO__COUNT ? proto_names[p] : "?";
}

const char *cr_mech_name(cr_mech m)
{
    if (m == CR_MECH_NONE)
        return "none";
    return (unsigned)m < CR_MECH__COUNT ? mech_names[m] : "?";
}

/* Lower-cases s without '_', '-' and ' ' into buf, so "All_Reduce" and
 * "all-reduce" both read "allreduce". */
static void squash(const char *s, char *buf, size_t size)
{
    size_t j = 0;
    for (; *s && j + 1 < size; s++) {
        if (*s == '_' || *s == '-' || *s == ' ')
            continue;
        char c = *s;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        buf[j++] = c;
    }
    buf[j] = '\0';
}

struct alias {
    const char *name;
    int value;
};

static int lookup(const char *s, const char *const *names, int n, const struct alias *aliases)
{
    char key[64];
    if (!s)
        return -100;
    squash(s, key, sizeof key);
    for (int i = 0; i < n; i++) {
        char nm[64];
        squash(names[i], nm, sizeof nm);
        if (strcmp(key, nm) == 0)
            return i;
    }
    for (const struct alias *a = aliases; a && a->name; a++)
        if (strcmp(key, a->name) == 0)
            return a->value;
    return -100;
}

static void list_names(const char *const *names, int n, const char *extra, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        int k = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[i]);
        if (k < 0 || (size_t)k >= size - len)
            return;
        len += (size_t)k;
    }
    if (extra)
        snprintf(buf + len, size - len, ", %s", extra);
}

cr_status cr_coll_parse(const char *s, cr_coll *out, cr_diag *d)
{
    static const struct alias al[] = {{"ar", CR_COLL_ALLREDUCE},
                                      {"ag", CR_COLL_ALLGATHER},
                                      {"rs", CR_COLL_REDUCESCATTER},
                                      {"a2a", CR_COLL_ALLTOALL},
                                      {"bcast", CR_COLL_BROADCAST},
                                      {"p2p", CR_COLL_SENDRECV},
                                      {NULL, 0}};
    int v = lookup(s, coll_names, CR_COLL__COUNT, al);
    if (v < 0) {
        char list[256];
        list_names(coll_names, CR_COLL__COUNT, NULL, list, sizeof list);
        return cr_diag_set(d, CR_ENOTFOUND, "unknown collective \"%s\"; expected one of: %s",
                           s ? s : "", list);
    }
    *out = (cr_coll)v;
    return CR_OK;
}

cr_status cr_algo_parse(const char *s, cr_algo *out, cr_diag *d)
{
    static const struct alias al[] = {
        {"auto", CR_ALGO_AUTO},     {"nvlsnvls", CR_ALGO_NVLS},  {"collnetdirect", CR_ALGO_COLLNET},
        {"sharp", CR_ALGO_COLLNET}, {"oneshot", CR_ALGO_DIRECT}, {NULL, 0}};
    int v = lookup(s, algo_names, CR_ALGO__COUNT, al);
    if (v == -100) {
        char list[256];
        list_names(algo_names, CR_ALGO__COUNT, "auto", list, sizeof list);
        return cr_diag_set(d, CR_ENOTFOUND, "unknown algorithm \"%s\"; expected one of: %s",
                           s ? s : "", list);
    }
    *out = (cr_algo)v;
    return CR_OK;
}

cr_status cr_proto_parse(const char *s, cr_proto *out, cr_diag *d)
{
    static const struct alias al[] = {{"auto", CR_PROTO_AUTO}, {NULL, 0}};
    int v = lookup(s, proto_names, CR_PROTO__COUNT, al);
    if (v == -100) {
        char list[256];
        list_names(proto_names, CR_PROTO__COUNT, "auto", list, sizeof list);
        return cr_diag_set(d, CR_ENOTFOUND, "unknown protocol \"%s\"; expected one of: %s",
                           s ? s : "", list);
    }
    *out = (cr_proto)v;
    return CR_OK;
}

cr_status cr_mech_parse(const char *s, cr_mech *out, cr_diag *d)
{
    static const struct alias al[] = {{"none", CR_MECH_NONE},     {"nccl", CR_MECH_NONE},
                                      {"copyengine", CR_MECH_CE}, {"memcpy", CR_MECH_CE},
                                      {"ld", CR_MECH_LDST},       {"st", CR_MECH_LDST},
                                      {"nvls", CR_MECH_MULTIMEM}, {NULL, 0}};
    int v = lookup(s, mech_names, CR_MECH__COUNT, al);
    if (v == -100) {
        char list[256];
        list_names(mech_names, CR_MECH__COUNT, "none", list, sizeof list);
        return cr_diag_set(d, CR_ENOTFOUND,
                           "unknown transfer mechanism \"%s\"; expected one of: %s", s ? s : "",
                           list);
    }
    *out = (cr_mech)v;
    return CR_OK;
}

double cr_coll_busbw_factor(cr_coll c, int n)
{
    if (n < 1)
        return 0.0;
    double nn = (double)n;
    switch (c) {
    case CR_COLL_ALLREDUCE:
        return 2.0 * (nn - 1.0) / nn;
    case CR_COLL_ALLGATHER:
    case CR_COLL_REDUCESCATTER:
    case CR_COLL_ALLTOALL:
    case CR_COLL_GATHER:
    case CR_COLL_SCATTER:
        return (nn - 1.0) / nn;
    case CR_COLL_BROADCAST:
    case CR_COLL_REDUCE:
    case CR_COLL_SENDRECV:
        return 1.0;
    default:
        return 0.0;
    }
}

bool cr_coll_reduces(cr_coll c)
{
    return c == CR_COLL_ALLREDUCE || c == CR_COLL_REDUCESCATTER || c == CR_COLL_REDUCE;
}

bool cr_coll_rooted(cr_coll c)
{
    return c == CR_COLL_BROADCAST || c == CR_COLL_REDUCE || c == CR_COLL_GATHER ||
           c == CR_COLL_SCATTER;
}

bool cr_coll_p2p(cr_coll c)
{
    return c == CR_COLL_ALLTOALL || c == CR_COLL_GATHER || c == CR_COLL_SCATTER ||
           c == CR_COLL_SENDRECV;
}

double cr_coll_send_bytes(cr_coll c, double bytes, int n)
{
    double nn = n > 0 ? (double)n : 1.0;
    switch (c) {
    case CR_COLL_ALLGATHER:
    case CR_COLL_GATHER:
        return bytes / nn;
    default:
        return bytes;
    }
}

double cr_coll_recv_bytes(cr_coll c, double bytes, int n)
{
    double nn = n > 0 ? (double)n : 1.0;
    switch (c) {
    case CR_COLL_REDUCESCATTER:
    case CR_COLL_SCATTER:
        return bytes / nn;
    default:
        return bytes;
    }
}

cr_coll_req cr_coll_req_default(cr_coll c, double bytes)
{
    cr_coll_req r;
    memset(&r, 0, sizeof r);
    r.coll = c;
    r.bytes = bytes;
    r.dtype = CR_DT_FP32;
    r.root = 0;
    r.algo = CR_ALGO_AUTO;
    r.proto = CR_PROTO_AUTO;
    r.mech = CR_MECH_NONE;
    r.nchannels = 0;
    r.sms = 0;
    r.in_network = true;
    r.in_place = true;
    return r;
}

cr_status cr_nccl_version_parse(const char *s, int *code, cr_diag *d)
{
    *code = 0;
    int ma, mi, pa, n = 0;
    /* after the patch only a build tag: 2.23.4-1, 2.23.4+cuda12.6 */
    if (s && sscanf(s, "%d.%d.%d%n", &ma, &mi, &pa, &n) == 3 && n > 0 &&
        (s[n] == '\0' || s[n] == '-' || s[n] == '+') && ma == 2 && mi >= 8 && mi <= 99 && pa >= 0 &&
        pa <= 99) {
        *code = ma * 10000 + mi * 100 + pa;
        return CR_OK;
    }
    char *end = NULL;
    long v = s ? strtol(s, &end, 10) : 0;
    if (s && end != s && !*end && v >= 20900 && v <= CR_NCCL_VERSION_MAX) {
        *code = (int)v;
        return CR_OK;
    }
    /* before 2.9 nccl.h coded a release major x 1000 + minor x 100 +
     * patch: 2804 is 2.8.4 */
    if (s && end != s && !*end && v >= 2800 && v <= 2899) {
        *code = 20000 + (int)(v - 2000);
        return CR_OK;
    }
    return cr_diag_set(d, CR_EINVAL,
                       "\"%s\" is not an NCCL release: give major.minor.patch, as 2.23.4 "
                       "(2.8.0 or later), or its NCCL_VERSION_CODE, 22304",
                       s ? s : "");
}

/* The collectives NCCL_ALGO / NCCL_PROTO govern, NCCL's functions
 * (src/init.cc ncclFuncStr: Broadcast, Reduce, AllGather, ReduceScatter,
 * AllReduce, which coll_names spells in lower case) */
static const cr_coll nccl_funcs[] = {CR_COLL_BROADCAST, CR_COLL_REDUCE, CR_COLL_ALLGATHER,
                                     CR_COLL_REDUCESCATTER, CR_COLL_ALLREDUCE};
#define N_NCCL_FUNCS (sizeof nccl_funcs / sizeof nccl_funcs[0])

/* NCCL's algorithm names (ncclAlgoStr) as bits; its protocol names
 * (ncclProtoStr: LL, LL128, Simple) are proto_names */
static const struct {
    const char *name;
    unsigned bit;
} nccl_algo_names[] = {{"Tree", 1u << CR_ALGO_TREE},
                       {"Ring", 1u << CR_ALGO_RING},
                       {"CollNetDirect", 1u << CR_ALGO_COLLNET},
                       {"CollNetChain", 1u << CR_ALGO_COLLNET},
                       {"NVLS", 1u << CR_ALGO_NVLS},
                       {"NVLSTree", 1u << CR_ALGO_NVLSTREE},
                       {"PAT", 1u << CR_ALGO_PAT}};
#define N_NCCL_ALGOS (sizeof nccl_algo_names / sizeof nccl_algo_names[0])

/* The bit of one NCCL algorithm or protocol name of len characters, 0 if
 * NCCL has none of that name. */
static unsigned select_bit(const char *name, size_t len, bool protocols)
{
    if (protocols) {
        for (int p = 0; p < CR_PROTO__COUNT; p++)
            if (strlen(proto_names[p]) == len && !strncasecmp(name, proto_names[p], len))
                return 1u << p;
        return 0;
    }
    for (size_t i = 0; i < N_NCCL_ALGOS; i++)
        if (strlen(nccl_algo_names[i].name) == len &&
            !strncasecmp(name, nccl_algo_names[i].name, len))
            return nccl_algo_names[i].bit;
    return 0;
}

/* The set one element list names ("Ring,Tree", "^NVLS"); *set as NCCL's
 * parseList leaves a function it applies to. */
static cr_status select_list(const char *list, const char *whole, bool protocols, unsigned *set,
                             cr_diag *d)
{
    unsigned all = 0, named = 0; /* what "^" starts from: every name NCCL has */
    if (protocols)
        all = (1u << CR_PROTO__COUNT) - 1;
    else
        for (size_t i = 0; i < N_NCCL_ALGOS; i++)
            all |= nccl_algo_names[i].bit;
    bool invert = list[0] == '^';
    const char *p = list + (invert ? 1 : 0);
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len > 0) { /* NCCL's strtok skips empty elements */
            unsigned bit = select_bit(p, len, protocols);
            if (!bit)
                return cr_diag_set(d, CR_EPARSE,
                                   "%s \"%s\": unknown %s \"%.*s\" (NCCL's names: %s)",
                                   protocols ? "NCCL_PROTO" : "NCCL_ALGO", whole,
                                   protocols ? "protocol" : "algorithm", (int)len, p,
                                   protocols ? "LL, LL128, Simple"
                                             : "Tree, Ring, CollNetDirect, CollNetChain, NVLS, "
                                               "NVLSTree, PAT");
            named |= bit;
        }
        p += len + (p[len] == ',');
    }
    *set = invert ? all & ~named : named;
    return CR_OK;
}

cr_status cr_nccl_select_parse(const char *list, bool protocols, cr_coll coll, unsigned *set,
                               cr_diag *d)
{
    const char *what = protocols ? "NCCL_PROTO" : "NCCL_ALGO";
    *set = 0;
    /* a value outside cr_coll read as "NCCL's default for it" (QA audit of
     * the API) */
    if ((unsigned)coll >= CR_COLL__COUNT)
        return cr_diag_set(d, CR_EINVAL, "%s: collective %d is not a cr_coll (0 to %d)", what,
                           (int)coll, CR_COLL__COUNT - 1);
    char buf[256];
    if (!list || !list[0] || strlen(list) >= sizeof buf)
        return cr_diag_set(d, CR_EPARSE, "%s \"%.40s%s\": give 1 to 255 characters, e.g. %s", what,
                           list ? list : "", list && strlen(list) > 40 ? "..." : "",
                           protocols ? "Simple,LL128 or ^LL" : "Ring,Tree or ^NVLS");
    cr_str_copy(buf, sizeof buf, list);
    int func = -1; /* the NCCL function coll is, if any */
    for (size_t f = 0; f < N_NCCL_FUNCS; f++)
        if (nccl_funcs[f] == coll)
            func = (int)f;
    unsigned result = 0;
    bool touched = false;
    int entry = 0;
    for (char *tok = buf, *next; tok; tok = next, entry++) {
        next = strchr(tok, ';');
        if (next)
            *next++ = '\0';
        if (!*tok)
            continue;
        char *colon = strchr(tok, ':'), *elems = tok;
        const char *prefix = NULL;
        if (colon) {
            *colon = '\0';
            prefix = tok;
            elems = colon + 1;
            if (strchr(elems, ':'))
                return cr_diag_set(d, CR_EPARSE,
                                   "%s \"%s\": \"%s:%s\" has two ':' (one entry is "
                                   "\"collective:list\")",
                                   what, list, prefix, elems);
        } else if (entry > 0) {
            return cr_diag_set(d, CR_EPARSE,
                               "%s \"%s\": every entry after the first names its collective "
                               "(\"allgather:%s\"), as NCCL requires",
                               what, list, tok);
        }
        int pf = -1;
        if (prefix) {
            for (size_t f = 0; f < N_NCCL_FUNCS && pf < 0; f++)
                if (!strcasecmp(prefix, coll_names[nccl_funcs[f]]))
                    pf = (int)f;
            if (pf < 0)
                return cr_diag_set(d, CR_EPARSE,
                                   "%s \"%s\": unknown collective \"%s\" (NCCL's: Broadcast, "
                                   "Reduce, AllGather, ReduceScatter, AllReduce)",
                                   what, list, prefix);
        }
        unsigned s = 0;
        cr_status st = select_list(elems, list, protocols, &s, d);
        if (st != CR_OK)
            return st;
        if (func >= 0 && (pf < 0 || pf == func)) {
            result = s;
            touched = true;
        }
    }
    if (touched && result == 0)
        return cr_diag_set(d, CR_EPARSE, "%s \"%s\" leaves %s no %s to run", what, list,
                           cr_coll_name(coll), protocols ? "protocol" : "algorithm");
    *set = touched ? result : 0;
    return CR_OK;
}

cr_status cr_nccl_select_check(const char *list, bool protocols, cr_diag *d)
{
    /* the list's form first, against a collective it does not govern (NCCL's
     * point-to-point), which can only fail on syntax */
    unsigned set;
    cr_status st = cr_nccl_select_parse(list, protocols, CR_COLL_SENDRECV, &set, d);
    if (st != CR_OK)
        return st;
    /* then every collective it leaves nothing to run, named together (the
     * first alone read as if the command's own collective were another) */
    char left[128] = "";
    size_t len = 0;
    for (size_t f = 0; f < N_NCCL_FUNCS; f++) {
        cr_diag dd = {{0}};
        if (cr_nccl_select_parse(list, protocols, nccl_funcs[f], &set, &dd) == CR_OK)
            continue;
        int w = snprintf(left + len, sizeof left - len, "%s%s", len ? ", " : "",
                         coll_names[nccl_funcs[f]]);
        if (w > 0 && (size_t)w < sizeof left - len)
            len += (size_t)w;
    }
    if (len)
        return cr_diag_set(d, CR_EPARSE, "%s \"%s\" leaves %s no %s to run",
                           protocols ? "NCCL_PROTO" : "NCCL_ALGO", list, left,
                           protocols ? "protocol" : "algorithm");
    return CR_OK;
}

static bool split_over_ranks(cr_coll c)
{
    return c == CR_COLL_ALLGATHER || c == CR_COLL_REDUCESCATTER || c == CR_COLL_ALLTOALL ||
           c == CR_COLL_GATHER || c == CR_COLL_SCATTER;
}

/* nccl-tests' *GetCollByteCount (src/<coll>.cu) across its releases:
 * 29f4114 (v2.13.12, 2024-12) made every rank's part of the five split
 * collectives `(count / n) & -(16 / eltSize)`; d313d20 (v2.13.4, 2022-09)
 * had rounded all_gather's and reduce_scatter's to 4 elements (its ALIGN 4)
 * and left alltoall, gather and scatter at `count / n`, as every release
 * before it did for all five. The elements a rank's part rounds to a
 * multiple of (1 where c is not split). */
static double part_align(cr_coll c, double esize, int nt_version)
{
    if (!split_over_ranks(c) || !(esize > 0))
        return 1;
    if (nt_version <= 0 || nt_version >= CR_NCCL_TESTS_ALIGN16)
        return esize < 16 ? floor(16 / esize) : 1;
    if (nt_version >= CR_NCCL_TESTS_ALIGN4 &&
        (c == CR_COLL_ALLGATHER || c == CR_COLL_REDUCESCATTER))
        return 4;
    return 1;
}

double cr_coll_nccl_tests_bytes(cr_coll c, double bytes, double esize, int n, int nt_version)
{
    if (!(esize > 0)) /* no element to count in: the size as given */
        return bytes;
    double count = floor(bytes / esize);
    if (!split_over_ranks(c) || n < 1)
        return count * esize;
    double align = part_align(c, esize, nt_version);
    return floor(floor(count / n) / align) * align * n * esize;
}

double cr_coll_nccl_bytes(cr_coll c, double bytes, double esize, int n)
{
    return cr_coll_nccl_tests_bytes(c, bytes, esize, n, 0);
}

double cr_coll_nccl_count(cr_coll c, double bytes, double esize, int n)
{
    if (!(esize > 0))
        return 0;
    double count = floor(bytes / esize);
    return split_over_ranks(c) && n >= 1 ? floor(count / n) : count;
}
