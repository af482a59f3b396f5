/* SPDX-License-Identifier: MIT */
/*
 * Scenario XML for the simulator (see scenario.h). Parsed by model/xml_safe.c:
 * libxml2 with XML_PARSE_NONET and without NOENT/DTDLOAD; a SAX hook refuses
 * every entity declaration (so no expansion bomb can start) and files above
 * 16 MiB are refused before parsing.
 */
#include "scenario.h"
#include "sbuf.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "grow.h"
#include "rankset.h"
#include "stats.h"
#include "units.h"
#include "xml_safe.h"

#define SCN_MAX_BYTES (16u << 20)
#define SCN_MAX_OPS 4096

typedef struct {
    const char *origin;
    const cr_topo *t;
    cr_sim *s;
    cr_diag *d;
    char **names;
    int *ops;
    const xmlNode **nodes; /* per op: its element, for file:line */
    /* per op, as parsed: its ranks and its stream= (-1 none), for the
     * stream order (stream_order); the op at index n before add_name */
    cr_rankset **op_ranks;
    int *op_stream;
    int n;
    int (*edges)[2]; /* after= as (before, after) op indices */
    int n_edges;
    size_t cap_edges;
} scn;

static cr_status fail(scn *S, const xmlNode *n, cr_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static cr_status fail(scn *S, const xmlNode *n, cr_status st, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    cr_vsnprintf_c(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* xmlGetLineNo, not n->line: the field stops at 65535 (BIG_LINES). */
    return cr_diag_set(S->d, st, "%s:%ld: %.900s", S->origin, n ? xmlGetLineNo(n) : 0L, msg);
}

static const char *attr(const xmlNode *n, const char *name)
{
    for (const xmlAttr *a = n->properties; a; a = a->next)
        if (!strcmp((const char *)a->name, name) && a->children && a->children->content)
            return (const char *)a->children->content;
    return NULL;
}

static bool word_in(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = list; (p = strstr(p, w)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return true;
    return false;
}

static cr_status check_attrs(scn *S, const xmlNode *n, const char *allowed)
{
    for (const xmlAttr *a = n->properties; a; a = a->next)
        if (a->ns || !word_in(allowed, (const char *)a->name))
            return fail(S, n, CR_EPARSE, "unknown attribute \"%s\"; expected one of: %s",
                        (const char *)a->name, allowed);
    return CR_OK;
}

static cr_status quantity(scn *S, const xmlNode *n, const char *name, cr_unit_kind k, double dflt,
                          bool required, double *out)
{
    const char *v = attr(n, name);
    *out = dflt;
    if (!v) {
        if (required)
            return fail(S, n, CR_EINVAL, "<%s> needs the attribute \"%s\"", (const char *)n->name,
                        name);
        return CR_OK;
    }
    cr_diag d = {{0}};
    if (!strcmp(v, "0")) { /* zero needs no unit, as in an <alltoallv> row */
        *out = 0;
        return CR_OK;
    }
    if (cr_units_parse(v, k, out, &d) != CR_OK || !(*out >= 0) || !isfinite(*out)) {
        char what[64];
        snprintf(what, sizeof what, "%s=\"%.40s\"", name, v);
        /* a bare number is the commonest slip: say that it lacks its unit.
         * Only for plain decimal digits: strtod also reads "inf", "nan",
         * hex and 1e999 whole, and "infus" or "0x10B" would be refused in
         * turn, so the hint would name a fix that does not load */
        char *end = NULL;
        double x = cr_strtod_c(v, &end);
        if (end != v && !*end && x >= 0 && isfinite(x) && strspn(v, "0123456789.eE+-") == strlen(v))
            return fail(S, n, CR_EINVAL, "%s has no unit: write it with one (e.g. \"%.40s%s\")",
                        what, v, k == CR_UNIT_TIME ? "us" : "B");
        return fail(S, n, CR_EINVAL, "%s is not a quantity >= 0 with a unit (e.g. \"%s\")", what,
                    k == CR_UNIT_TIME ? "20us" : "64MB");
    }
    return CR_OK;
}

/* start=: at most a day, so that a duration after it keeps its digits (a
 * start of 1e12 s left a 10 us compute 0 us long) */
static cr_status start_of(scn *S, const xmlNode *n, double *out)
{
    cr_status st = quantity(S, n, "start", CR_UNIT_TIME, 0, false, out);
    if (st == CR_OK && *out > 86400)
        return fail(S, n, CR_ERANGE,
                    "start=\"%s\" is more than a day (86400s): give a start "
                    "within the run",
                    attr(n, "start"));
    return st;
}

/* duration=: at most a day too, the same limit as start= (1e300 s made a
 * makespan of 306 digits) */
static cr_status duration_within_a_day(scn *S, const xmlNode *n, double dur)
{
    if (dur > 86400)
        return fail(S, n, CR_ERANGE,
                    "duration=\"%s\" is more than a day (86400s): give the compute's own time "
                    "(e.g. \"250us\")",
                    attr(n, "duration"));
    return CR_OK;
}

static cr_status stream_of(scn *S, const xmlNode *n, int *out)
{
    const char *v = attr(n, "stream");
    *out = 0;
    if (!v)
        return CR_OK;
    char *end;
    long x = strtol(v, &end, 10);
    if (*end || end == v || x < 0 || x > 1000000)
        return fail(S, n, CR_EINVAL, "stream=\"%s\" is not a number from 0 to 1000000", v);
    *out = (int)x;
    return CR_OK;
}

static cr_status ranks_of(scn *S, const xmlNode *n, cr_rankset **rs)
{
    const char *v = attr(n, "ranks");
    cr_diag d = {{0}};
    if (!v)
        *rs = cr_rankset_all(S->t->n_gpus);
    else if (cr_rankset_parse(v, S->t->n_gpus, rs, &d) != CR_OK)
        return fail(S, n, CR_EINVAL, "ranks: %s", d.msg);
    return *rs ? CR_OK : cr_diag_set(S->d, CR_ENOMEM, "out of memory");
}

/* What after= trims around each name. XML turns a literal tab or line
 * break in an attribute into a space and xml_safe refuses a control
 * character written as a reference, so a space is what reaches here; the
 * others are trimmed all the same. */
#define BLANKS " \t\n\r"

static cr_status add_name(scn *S, const xmlNode *n, int op)
{
    const char *name = attr(n, "name");
    if (!name || !*name)
        return fail(S, n, CR_EINVAL, "<%s> needs a non-empty name", (const char *)n->name);
    /* after= lists names separated by commas and drops the blanks around
     * each: a name with a comma could not be named there, and " a" would
     * stand beside "a" while after=" a " found only "a" */
    size_t len = strlen(name);
    if (strchr(name, ','))
        return fail(S, n, CR_EINVAL,
                    "name=\"%.200s\" holds a comma, which separates the names of after=; "
                    "name the op without one (e.g. \"tp_0\")",
                    name);
    if (strchr(BLANKS, name[0]) || strchr(BLANKS, name[len - 1]))
        return fail(S, n, CR_EINVAL,
                    "name=\"%.200s\" starts or ends with a blank, which after= drops; write "
                    "the name without blanks around it",
                    name);
    for (int i = 0; i < S->n; i++)
        if (!strcmp(S->names[i], name))
            return fail(S, n, CR_EINVAL, "the name \"%s\" is used twice; op names are unique",
                        name);
    S->names[S->n] = strdup(name);
    if (!S->names[S->n])
        return cr_diag_set(S->d, CR_ENOMEM, "out of memory");
    S->nodes[S->n] = n;
    S->ops[S->n++] = op;
    return CR_OK;
}

/* One dependency before -> after, as after= and stream order add them. */
static cr_status add_edge(scn *S, int before, int after)
{
    if (cr_sim_op_after(S->s, S->ops[before], S->ops[after]) != CR_OK ||
        cr_grow((void **)&S->edges, &S->cap_edges, (size_t)S->n_edges + 1, sizeof *S->edges))
        return cr_diag_set(S->d, CR_ENOMEM, "out of memory");
    S->edges[S->n_edges][0] = before;
    S->edges[S->n_edges][1] = after;
    S->n_edges++;
    return CR_OK;
}

/* after="a, b": dependencies on earlier or later ops, resolved once every
 * op has its name. Names are separated by commas; blanks around them are
 * ignored. */
static cr_status resolve_after(scn *S, const xmlNode *n, int idx)
{
    const char *v = attr(n, "after");
    if (!v)
        return CR_OK;
    char *buf = strdup(v);
    cr_status st = CR_OK;
    if (!buf)
        return cr_diag_set(S->d, CR_ENOMEM, "out of memory");
    /* every comma-separated piece, empty ones too: strtok_r skipped them,
     * so after="", after="," and after="a,,b" loaded without a word while
     * after=" , " was refused */
    for (char *tok = buf, *next; tok && st == CR_OK; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = 0;
        tok += strspn(tok, BLANKS);
        size_t len = strlen(tok);
        while (len > 0 && strchr(BLANKS, tok[len - 1]))
            tok[--len] = 0;
        int found = -1;
        for (int i = 0; i < S->n && found < 0; i++)
            if (!strcmp(S->names[i], tok))
                found = i;
        if (!*tok)
            st = fail(S, n, CR_EINVAL,
                      "after=\"%s\": an empty name; write op names separated "
                      "by commas (after=\"gemm, tp\")",
                      v);
        else if (found < 0)
            st = fail(S, n, CR_ENOTFOUND, "after=\"%s\": no op is named \"%s\"", v, tok);
        else if (found == idx)
            st = fail(S, n, CR_EINVAL, "after=\"%s\": an op cannot wait for itself", v);
        else
            st = add_edge(S, found, idx);
    }
    free(buf);
    return st;
}

/* The ops' after= must form no cycle (the simulator would find its tasks
 * never ready; here the message names the ops and the line). Kahn's order:
 * ops left with waiting predecessors lie on or behind a cycle; walking back
 * from one along unfinished predecessors must repeat an op, which closes
 * the cycle reported. */
static cr_status check_cycles(scn *S)
{
    int n = S->n, *indeg = calloc((size_t)n + 1, sizeof *indeg);
    int *queue = malloc(((size_t)n + 1) * sizeof *queue),
        *seen = calloc((size_t)n + 1, sizeof *seen);
    cr_status st = CR_OK;
    if (!indeg || !queue || !seen) {
        st = cr_diag_set(S->d, CR_ENOMEM, "out of memory");
        goto out;
    }
    for (int e = 0; e < S->n_edges; e++)
        indeg[S->edges[e][1]]++;
    int head = 0, tail = 0;
    for (int i = 0; i < n; i++)
        if (indeg[i] == 0)
            queue[tail++] = i;
    while (head < tail) {
        int u = queue[head++];
        for (int e = 0; e < S->n_edges; e++)
            if (S->edges[e][0] == u && --indeg[S->edges[e][1]] == 0)
                queue[tail++] = S->edges[e][1];
    }
    if (tail == n)
        goto out;
    int v = -1;
    for (int i = 0; i < n && v < 0; i++)
        if (indeg[i] > 0)
            v = i;
    /* Walk back along predecessors that never finished until one repeats:
     * trail[k] waits for trail[k + 1], and the ops from the repeated one's
     * first place on are the cycle. seen[] holds place + 1 (queue is free
     * again and serves as the trail). */
    int *trail = queue, len = 0;
    while (!seen[v]) {
        seen[v] = ++len;
        trail[len - 1] = v;
        for (int e = 0; e < S->n_edges; e++)
            if (S->edges[e][1] == v && indeg[S->edges[e][0]] > 0) {
                v = S->edges[e][0];
                break;
            }
    }
    char path[1024] = "";
    size_t used = 0;
    for (int k = seen[v] - 1; k <= len && used + 1 < sizeof path; k++) {
        int u = k < len ? trail[k] : v; /* back to the first to close it */
        int w = snprintf(path + used, sizeof path - used, "%s\"%s\"", used ? " after " : "",
                         S->names[u]);
        if (w < 0)
            break;
        used += (size_t)w < sizeof path - used ? (size_t)w : sizeof path - used - 1;
    }
    st = fail(S, S->nodes[v], CR_EINVAL,
              "after= makes a cycle: %.700s; no op can start. Remove one of these after= names "
              "(ops of one stream= that share a rank also run in file order)",
              path);
out:
    free(indeg);
    free(queue);
    free(seen);
    return st;
}

/* Keeps the ranks and stream= of the op just added (index S->n until
 * add_name counts it) for stream_order; *rs becomes the scenario's. */
static void keep_op(scn *S, const xmlNode *n, int stream, cr_rankset **rs)
{
    cr_rankset_free(S->op_ranks[S->n]);
    S->op_ranks[S->n] = *rs;
    S->op_stream[S->n] = attr(n, "stream") ? stream : -1;
    *rs = NULL;
}

/* Ops given the same stream= that share a rank run in file order, as
 * kernels on one CUDA stream do: each waits for the last earlier op of
 * its stream on each of its ranks (an implicit after=). Ops without
 * stream= wait for nothing but their after= and start=. One pass per
 * stream over a rank -> last op table: time in the ranks the ops name. */
typedef struct {
    int stream, idx;
} stream_op;

static int cmp_stream_op(const void *x, const void *y)
{
    const stream_op *a = x, *b = y;
    if (a->stream != b->stream)
        return (a->stream > b->stream) - (a->stream < b->stream);
    return (a->idx > b->idx) - (a->idx < b->idx);
}

static cr_status stream_order(scn *S)
{
    int n = S->n, ng = S->t->n_gpus, m = 0;
    stream_op *so = malloc(((size_t)n + 1) * sizeof *so);
    int *last = malloc(((size_t)ng + 1) * sizeof *last);
    int *stamp = calloc((size_t)n + 1, sizeof *stamp);
    cr_status st = so && last && stamp ? CR_OK : cr_diag_set(S->d, CR_ENOMEM, "out of memory");
    for (int i = 0; i < n && st == CR_OK; i++)
        if (S->op_stream[i] >= 0)
            so[m++] = (stream_op){S->op_stream[i], i};
    if (st == CR_OK && m > 1)
        qsort(so, (size_t)m, sizeof *so, cmp_stream_op);
    for (int r = 0; st == CR_OK && r < ng; r++)
        last[r] = -1;
    cr_rankset *const *rs = S->op_ranks;
    for (int k = 0, g0 = 0; k < m && st == CR_OK; k++) {
        if (so[k].stream != so[g0].stream) { /* a new stream: forget the last one's ops */
            for (; g0 < k; g0++)
                for (int q = 0; q < rs[so[g0].idx]->n; q++)
                    last[rs[so[g0].idx]->ranks[q]] = -1;
        }
        int i = so[k].idx;
        for (int q = 0; q < rs[i]->n && st == CR_OK; q++) {
            int r = rs[i]->ranks[q], j = last[r];
            if (j >= 0 && stamp[j] != i + 1) { /* each earlier op once */
                stamp[j] = i + 1;
                st = add_edge(S, j, i);
            }
            last[r] = i;
        }
    }
    free(so);
    free(last);
    free(stamp);
    return st;
}

/* Text inside n besides blanks, which would be ignored: `holds` says what
 * n takes instead. */
static cr_status no_text(scn *S, const xmlNode *n, const char *holds)
{
    for (const xmlNode *k = n->children; k; k = k->next)
        if ((k->type == XML_TEXT_NODE || k->type == XML_CDATA_SECTION_NODE) && k->content &&
            k->content[strspn((const char *)k->content, " \t\r\n")])
            /* at n's line: a text node's is where it ends */
            return fail(S, n, CR_EPARSE, "text inside <%s>: %s", (const char *)n->name, holds);
    return CR_OK;
}

/* <compute>, <collective> and <row> take attributes only: a child element
 * or text would be ignored. */
static cr_status no_content(scn *S, const xmlNode *n)
{
    for (const xmlNode *k = n->children; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE)
            return fail(S, k, CR_EPARSE, "unknown element <%s> in <%s>: <%s> has no child elements",
                        (const char *)k->name, (const char *)n->name, (const char *)n->name);
    return no_text(S, n, "its values go in attributes");
}

static cr_status do_compute(scn *S, const xmlNode *n, int *op)
{
    cr_status st = check_attrs(S, n, "name ranks duration hbm start stream after");
    if (st == CR_OK)
        st = no_content(S, n);
    double dur, hbm, start;
    int stream;
    cr_rankset *rs = NULL;
    if (st || (st = quantity(S, n, "duration", CR_UNIT_TIME, 0, true, &dur)) ||
        (st = duration_within_a_day(S, n, dur)) ||
        (st = quantity(S, n, "hbm", CR_UNIT_BYTES, 0, false, &hbm)) ||
        (st = start_of(S, n, &start)) || (st = stream_of(S, n, &stream)) ||
        (st = ranks_of(S, n, &rs)))
        return st;
    st = cr_sim_compute_op_add(S->s, attr(n, "name"), rs->ranks, rs->n, dur, hbm, start, stream, op,
                               S->d);
    if (st == CR_OK)
        keep_op(S, n, stream, &rs);
    cr_rankset_free(rs);
    return st;
}

/* How each message of an <alltoallv> moves, by its own size: NCCL runs it
 * as grouped point-to-point sends and picks each peer message's channels
 * and protocol by that message's bytes (src/enqueue.cc addP2pToPlan), not
 * by the mean row's, so sending less is never faster and one message's
 * rate does not follow the other rows. For each distinct size b of the
 * n x n matrix m: coll's all-to-all of b a peer on these ranks (the
 * protocol, its efficiency on shared links and the latency of one
 * all-to-all step), and coll's sendrecv of b (the rate NCCL's channels
 * give one message alone, algo_p2p_message_channels, which an all-to-all
 * whose links bind hides; only where every rank sits in one node of the
 * topology: across nodes coll's sendrecv is a network pair's, whose
 * channels would wrongly slow the op's messages inside a node). Both on
 * the op's communicator: NCCL gives a peer fewer channels as ranks grow,
 * which a lone message in a larger op pays. *sizes (ascending, free()) and *n_sizes; *launch_s the
 * least launch, which the op's markers take (each size's excess goes into its step latency).
 * Errors: as cr_coll_predict, CR_EUNSUPPORTED, CR_ENOMEM. */
static cr_status msg_sizes(scn *S, const xmlNode *n, cr_coll_ctx *ctx, const cr_coll_req *rq,
                           const double *m, int nr, cr_sim_msg_size **sizes, int *n_sizes,
                           double *launch_s)
{
    size_t nm = 0, nn = (size_t)nr * (size_t)nr;
    double *u = malloc(nn * sizeof *u);
    cr_coll_pred *pa = NULL;
    cr_sim_msg_size *sz = NULL;
    cr_diag d = {{0}};
    cr_status st = CR_OK;
    *sizes = NULL;
    *n_sizes = 0;
    if (!u)
        return cr_diag_set(S->d, CR_ENOMEM, "out of memory");
    const cr_rankset *rk = cr_coll_ctx_ranks(ctx);
    bool one_node = true;
    for (int i = 1; i < rk->n; i++)
        one_node = one_node && S->t->devs[S->t->gpus[rk->ranks[i]]].node ==
                                   S->t->devs[S->t->gpus[rk->ranks[0]]].node;
    for (size_t i = 0; i < nn; i++)
        if (m[i] > 0)
            u[nm++] = m[i];
    qsort(u, nm, sizeof *u, cr_cmp_double);
    size_t k = 0;
    for (size_t i = 0; i < nm; i++)
        if (k == 0 || u[i] != u[k - 1])
            u[k++] = u[i];
    pa = calloc(k ? k : 1, sizeof *pa);
    sz = calloc(k ? k : 1, sizeof *sz);
    if (!pa || !sz) {
        st = cr_diag_set(S->d, CR_ENOMEM, "out of memory");
        goto out;
    }
    *launch_s = HUGE_VAL;
    for (size_t i = 0; i < k; i++) {
        cr_coll_req ra = *rq, rs = *rq;
        cr_coll_pred ps;
        ra.coll = CR_COLL_ALLTOALL;
        ra.bytes = u[i] * nr;
        rs.coll = CR_COLL_SENDRECV;
        rs.bytes = u[i];
        if (cr_coll_predict(ctx, &ra, &pa[i], &d) != CR_OK ||
            cr_coll_predict(ctx, &rs, &ps, &d) != CR_OK) {
            st = fail(S, n, CR_EINVAL, "%s", d.msg);
            goto out;
        }
        if (!pa[i].supported) {
            st = fail(S, n, CR_EUNSUPPORTED, "this algorithm cannot run here: %s", pa[i].why);
            goto out;
        }
        /* the spec's rule (cr_sim_coll_spec_from_pred): a rate that binds
         * per message caps the flow and leaves the links at full rate */
        cr_sim_msg_size *e = &sz[i];
        e->bytes = u[i];
        e->bw_eff = pa[i].per_message || !(pa[i].bw_eff > 0) ? 1.0 : pa[i].bw_eff;
        if (pa[i].per_message && pa[i].wire_Bps > 0)
            e->cap_Bps = pa[i].wire_Bps;
        else if (one_node && ps.supported && ps.per_message && ps.wire_Bps > 0)
            e->cap_Bps = ps.wire_Bps / e->bw_eff; /* the payload at the channels' rate */
        *launch_s = fmin(*launch_s, pa[i].launch_s);
    }
    for (size_t i = 0; i < k; i++)
        sz[i].lat_s = pa[i].launch_s - *launch_s + pa[i].n_steps * pa[i].step_lat_s;
    *sizes = sz;
    *n_sizes = (int)k;
    sz = NULL;
out:
    free(u);
    free(pa);
    free(sz);
    return st;
}

static cr_status do_collective(scn *S, const xmlNode *n, bool v, int *op)
{
    cr_status st = check_attrs(S, n,
                               v ? "name ranks start stream after algo proto channels"
                                 : "name coll ranks bytes dtype algo proto channels root start "
                                   "stream after grain");
    if (st == CR_OK)
        st = v ? no_text(S, n, "it holds <row> elements") : no_content(S, n);
    double bytes = 0, start;
    int stream;
    cr_rankset *rs = NULL;
    cr_coll_ctx *ctx = NULL;
    double *m = NULL;
    cr_sim_msg_size *sizes = NULL;
    cr_diag d = {{0}};
    cr_coll c = CR_COLL_ALLTOALL;
    if (st || (!v && (st = quantity(S, n, "bytes", CR_UNIT_BYTES, 0, true, &bytes))) ||
        (st = start_of(S, n, &start)) || (st = stream_of(S, n, &stream)) ||
        (st = ranks_of(S, n, &rs)))
        return st;
    const char *cs = attr(n, "coll");
    if (!v && !cs) {
        st = fail(S, n, CR_EINVAL, "<collective> needs coll=\"allreduce\" (or another: %s)",
                  "allreduce allgather reducescatter alltoall broadcast reduce gather scatter "
                  "sendrecv");
        goto out;
    }
    if (!v && cr_coll_parse(cs, &c, &d) != CR_OK) {
        st = fail(S, n, CR_EINVAL, "coll: %s", d.msg);
        goto out;
    }
    if (v) {
        /* One row per sender with n sizes. */
        int nr = rs->n, row = 0;
        m = calloc((size_t)nr * (size_t)nr, sizeof *m);
        if (!m) {
            st = cr_diag_set(S->d, CR_ENOMEM, "out of memory");
            goto out;
        }
        for (const xmlNode *k = n->children; k; k = k->next) {
            if (k->type != XML_ELEMENT_NODE)
                continue;
            if (strcmp((const char *)k->name, "row") || (st = check_attrs(S, k, "bytes")))
                goto bad_child;
            /* <row bytes="0 1MB">0 2MB</row> ran the attribute's sizes */
            if ((st = no_content(S, k)))
                goto out;
            if (row >= nr) {
                st = fail(S, k, CR_EINVAL, "more <row>s than ranks");
                goto out;
            }
            const char *b = attr(k, "bytes");
            char *buf = strdup(b ? b : "");
            if (!buf) {
                st = cr_diag_set(S->d, CR_ENOMEM, "out of memory");
                goto out;
            }
            int col = 0;
            for (char *save = NULL, *tok = strtok_r(buf, " \t\n", &save); tok && !st;
                 tok = strtok_r(NULL, " \t\n", &save)) {
                double x;
                if (col >= nr)
                    st = fail(S, k, CR_EINVAL, "a <row> needs %d sizes, one per rank; it has more",
                              nr);
                else if (strcmp(tok, "0") && /* a bare 0: nothing to that rank */
                         (cr_units_parse(tok, CR_UNIT_BYTES, &x, &d) != CR_OK || x < 0 ||
                          !isfinite(x)))
                    st = fail(S, k, CR_EINVAL,
                              "row entry \"%.60s\": expected a size with a unit (e.g. \"1MB\") "
                              "or 0",
                              tok);
                else if (strcmp(tok, "0") && x > CR_COLL_MAX_BYTES)
                    st =
                        fail(S, k, CR_ERANGE, "row %d entry %d \"%.60s\": a message is at most 1PB",
                             row + 1, col + 1, tok);
                else if (col == row && strcmp(tok, "0") && x > 0)
                    st = fail(S, k, CR_EINVAL,
                              "row %d entry %d \"%.60s\" is what rank %d sends itself: an "
                              "all-to-all moves nothing there; write 0",
                              row + 1, col + 1, tok, row);
                else
                    m[(size_t)row * (size_t)nr + (size_t)col++] = strcmp(tok, "0") ? x : 0.0;
            }
            free(buf);
            if (st)
                goto out;
            if (col != nr) {
                st = fail(S, k, CR_EINVAL, "a <row> needs %d sizes, one per rank; it has %d", nr,
                          col);
                goto out;
            }
            row++;
            continue;
        bad_child:
            if (!st)
                st = fail(S, k, CR_EPARSE, "unknown element <%s> in <alltoallv>; expected <row>",
                          (const char *)k->name);
            goto out;
        }
        if (row != nr) {
            st = fail(S, n, CR_EINVAL, "<alltoallv> needs one <row> per rank");
            goto out;
        }
        for (int i = 0; i < nr * nr; i++)
            bytes += m[i];
        bytes /= nr;
        if (bytes > CR_COLL_MAX_BYTES) {
            st = fail(S, n, CR_ERANGE,
                      "the rows send %g bytes a rank on average, more than the 1PB a collective "
                      "moves at most",
                      bytes);
            goto out;
        }
    }
    cr_coll_req rq = cr_coll_req_default(c, bytes);
    /* out of place, as `commroof coll` and `commroof sim COLL` (and
     * nccl-tests) price it by default: the request's default is in place,
     * which picks other algorithms (RCCL's MSCCL all-pairs allreduce has
     * other size ranges in place) and makes a one-rank op free */
    rq.in_place = false;
    const char *a;
    /* the rule sim COLL's and coll's --dtype follow: NCCL's element types */
    if ((a = attr(n, "dtype")) && cr_dtype_parse(a, &rq.dtype, &d) != CR_OK) {
        /* the list is NCCL's: the catalog's tf32 and fp4 are refused next */
        st = fail(S, n, CR_EINVAL,
                  "dtype: unknown \"%s\": expected one of NCCL's element types fp32, bf16, fp16, "
                  "fp8, int8 or fp64",
                  a);
        goto out;
    }
    if (a && cr_dtype_check_nccl(rq.dtype, &d) != CR_OK) {
        st = fail(S, n, CR_EINVAL, "dtype: %s", d.msg);
        goto out;
    }
    if (!v) {
        /* sized as `commroof coll` and `commroof sim COLL` size it
         * (cr_coll_nccl_bytes), so an op alone here runs what sim COLL runs
         * for its bytes (before, 100 B allgathered over 8 ranks ran 12.5 B
         * a rank) */
        double es = cr_dtype_bytes(rq.dtype);
        if (es > 0)
            rq.bytes = bytes = cr_coll_nccl_bytes(c, bytes, es, rs->n);
    }
    if ((a = attr(n, "algo")) && cr_algo_parse(a, &rq.algo, &d) != CR_OK) {
        st = fail(S, n, CR_EINVAL, "algo: %s", d.msg);
        goto out;
    }
    if ((a = attr(n, "proto")) && cr_proto_parse(a, &rq.proto, &d) != CR_OK) {
        st = fail(S, n, CR_EINVAL, "proto: %s", d.msg);
        goto out;
    }
    if (a && cr_coll_p2p(c)) {
        /* NCCL runs these as point-to-point transfers, whose protocol
         * addP2pToPlan picks by size whatever NCCL_PROTO says: a forced
         * one would be dropped in silence (sim COLL and coll print a note;
         * a scenario has no table to carry one) */
        st = fail(S, n, CR_EINVAL,
                  "proto=\"%s\": %s runs as NCCL's point-to-point transfers, which ignore a "
                  "forced protocol (addP2pToPlan picks LL or Simple by size); remove proto=",
                  a, v ? "alltoallv" : cr_coll_name(c));
        goto out;
    }
    if ((a = attr(n, "channels"))) {
        char *end;
        long ch = strtol(a, &end, 10);
        /* the limit of sim COLL's and coll's --nchannels; digits only, as
         * root= (strtol alone took channels=" +4") */
        if (strspn(a, "0123456789") != strlen(a) || *end || end == a || ch < 1 ||
            ch > CR_COLL_MAX_NCHANNELS) {
            st = fail(S, n, CR_EINVAL,
                      "channels=\"%s\" is not a count from 1 to %d (NCCL's most channels)", a,
                      CR_COLL_MAX_NCHANNELS);
            goto out;
        }
        rq.nchannels = (int)ch;
    }
    if ((a = attr(n, "root")) && !cr_coll_rooted(c)) {
        /* what the op would ignore is an error, as sim COLL's --root is */
        st = fail(S, n, CR_EINVAL,
                  "root=\"%s\": %s has no root; root= applies to broadcast, reduce, gather and "
                  "scatter",
                  a, cr_coll_name(c));
        goto out;
    }
    if ((a = attr(n, "root"))) {
        char *end;
        long r = strtol(a, &end, 10);
        /* digits only: strtol alone took root="" as 0 and root=" +3" as 3 */
        if (!*a || strspn(a, "0123456789") != strlen(a) || *end || r < 0 || r >= rs->n) {
            st = fail(S, n, CR_EINVAL,
                      "root=\"%s\" is not a position in the rank list: give 0 to %d (the "
                      "root's place among the op's %d ranks)",
                      a, rs->n - 1, rs->n);
            goto out;
        }
        rq.root = (int)r;
    }
    cr_coll_pred p;
    if (cr_coll_ctx_new(S->t, rs, &ctx, &d) != CR_OK || cr_coll_predict(ctx, &rq, &p, &d)) {
        st = fail(S, n, CR_EINVAL, "%s", d.msg);
        goto out;
    }
    if (!p.supported) {
        st = fail(S, n, CR_EUNSUPPORTED, "this algorithm cannot run here: %s", p.why);
        goto out;
    }
    cr_sim_coll_spec sp = cr_sim_coll_spec_from_pred(c, bytes, &p);
    sp.matrix = m;
    if (v && bytes > 0) {
        if ((st = msg_sizes(S, n, ctx, &rq, m, rs->n, &sizes, &sp.n_sizes, &sp.launch_s)))
            goto out;
        sp.sizes = sizes;
        sp.msg_cap_Bps = 0;
    }
    sp.root = rq.root;
    sp.t_start_s = start;
    sp.stream = stream;
    sp.name = attr(n, "name");
    if ((a = attr(n, "grain"))) {
        if (!strcmp(a, "steps"))
            sp.grain = CR_SIM_GRAIN_STEPS;
        else if (!strcmp(a, "pipelined"))
            sp.grain = CR_SIM_GRAIN_PIPELINED;
        else if (strcmp(a, "auto")) {
            st = fail(S, n, CR_EINVAL, "grain=\"%s\": expected auto, steps or pipelined", a);
            goto out;
        }
        /* what the op would ignore is an error, as root= is */
        if (sp.grain != CR_SIM_GRAIN_AUTO && !cr_sim_grain_applies(c, p.algo)) {
            st = fail(S, n, CR_EINVAL,
                      "grain=\"%s\": this %s runs %s, the same at any grain; grain= applies to "
                      "ring allreduce, allgather and reducescatter (leave it out)",
                      a, cr_coll_name(c), cr_algo_name(p.algo));
            goto out;
        }
    }
    d.msg[0] = 0;
    if ((st = cr_sim_coll_add(S->s, &sp, rs->ranks, rs->n, op, &d)) != CR_OK)
        st = fail(S, n, st, "%s", d.msg);
    else
        keep_op(S, n, stream, &rs);
out:
    free(m);
    free(sizes);
    cr_coll_ctx_free(ctx);
    cr_rankset_free(rs);
    return st;
}

cr_status cr_scenario_load_memory(const char *buf, size_t len, const char *origin, const cr_topo *t,
                                  cr_sim **out, cr_diag *d)
{
    *out = NULL;
    scn S = {.origin = origin ? origin : "scenario", .t = t, .d = d};
    if (len == 0)
        return cr_diag_set(d, CR_EPARSE, "%s:1: the file is empty; write <scenario name=...>",
                           S.origin);
    cr_status st = cr_xml_check_size(S.origin, len, SCN_MAX_BYTES, "a scenario", NULL, d);
    if (st != CR_OK)
        return st;
    cr_xml_error e;
    cr_diag scratch = {{0}}; /* the generic wording, kept for all but entities */
    xmlDocPtr doc = NULL;
    st = cr_xml_parse(buf, len, S.origin, 0, &doc, &e, &scratch);
    if (st == CR_EPARSE && e.kind == CR_XML_ERR_ENTITY) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: entity declarations are not allowed in a scenario (no "
                         "external or expanding entities)",
                         S.origin, e.line);
        goto done;
    }
    if (st != CR_OK) {
        st = cr_diag_set(d, st, "%s", scratch.msg);
        goto done;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || strcmp((const char *)root->name, "scenario")) {
        st = cr_diag_set(d, CR_EPARSE, "%s:%ld: the root element is <%s>, expected <scenario>",
                         S.origin, root ? xmlGetLineNo(root) : 1L,
                         root ? (const char *)root->name : "");
        goto done;
    }
    if ((st = check_attrs(&S, root, "name description")) ||
        (st = no_text(&S, root, "it holds <collective>, <alltoallv> and <compute> elements")))
        goto done;
    S.names = calloc(SCN_MAX_OPS, sizeof *S.names);
    S.ops = calloc(SCN_MAX_OPS, sizeof *S.ops);
    S.nodes = calloc(SCN_MAX_OPS, sizeof *S.nodes);
    S.op_ranks = calloc(SCN_MAX_OPS, sizeof *S.op_ranks);
    S.op_stream = calloc(SCN_MAX_OPS, sizeof *S.op_stream);
    if (!S.names || !S.ops || !S.nodes || !S.op_ranks || !S.op_stream) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto done;
    }
    /* cr_sim_new's own status: a topology that is not finalized (or NULL)
     * is CR_EINVAL, not "out of memory" (QA audit of the API) */
    if ((st = cr_sim_new(t, &S.s, d)) != CR_OK)
        goto done;
    for (int pass = 0; pass < 2 && st == CR_OK; pass++) {
        int idx = 0;
        for (xmlNode *n = root->children; n && st == CR_OK; n = n->next) {
            if (n->type != XML_ELEMENT_NODE)
                continue;
            const char *nm = (const char *)n->name;
            if (pass == 1) {
                if (idx == 0)
                    st = stream_order(&S);
                if (st == CR_OK)
                    st = resolve_after(&S, n, idx++);
                continue;
            }
            if (S.n >= SCN_MAX_OPS) {
                /* say what loads, as every other refusal does */
                st = fail(&S, n, CR_ERANGE,
                          "more than %d ops in one scenario; split it into scenarios of at "
                          "most %d ops (or merge ops that run together into one)",
                          SCN_MAX_OPS, SCN_MAX_OPS);
                break;
            }
            int op = -1;
            if (!strcmp(nm, "compute"))
                st = do_compute(&S, n, &op);
            else if (!strcmp(nm, "collective"))
                st = do_collective(&S, n, false, &op);
            else if (!strcmp(nm, "alltoallv"))
                st = do_collective(&S, n, true, &op);
            else
                st = fail(&S, n, CR_EPARSE,
                          "unknown element <%s>; expected <collective>, <alltoallv> or "
                          "<compute>",
                          nm);
            if (st == CR_OK)
                st = add_name(&S, n, op);
        }
    }
    if (st == CR_OK && S.n_edges > 0)
        st = check_cycles(&S);
    if (st == CR_OK && S.n == 0)
        st = fail(&S, root, CR_EINVAL,
                  "the scenario has no ops; add <collective>, <alltoallv> or <compute>");
done:
    for (int i = 0; S.names && i < S.n; i++)
        free(S.names[i]);
    free(S.names);
    free(S.ops);
    free(S.nodes);
    for (int i = 0; S.op_ranks && i < SCN_MAX_OPS; i++)
        cr_rankset_free(S.op_ranks[i]);
    free(S.op_ranks);
    free(S.op_stream);
    free(S.edges);
    xmlFreeDoc(doc);
    if (st != CR_OK) {
        cr_sim_free(S.s);
        return st;
    }
    *out = S.s;
    return CR_OK;
}

cr_status cr_scenario_load_file(const char *path, const cr_topo *t, cr_sim **out, cr_diag *d)
{
    *out = NULL;
    char *buf = NULL;
    size_t n = 0;
    cr_xml_error e;
    cr_diag rd = {{0}};
    cr_status st = cr_xml_read_file(path, SCN_MAX_BYTES, "a scenario", &buf, &n, &e, &rd);
    if (st == CR_OK)
        st = cr_scenario_load_memory(buf, n, path, t, out, d);
    else if (e.kind == CR_XML_ERR_OPEN) /* with the system's reason, as a topology's */
        st = cr_diag_set(d, CR_EIO, "%s: cannot open the scenario file: %s", path,
                         strerror(e.sys_errno));
    else
        st = cr_diag_set(d, st, "%s", rd.msg);
    free(buf);
    return st;
}
