/* SPDX-License-Identifier: MIT */
/*
 * calibrate --nccl-tests (calibrate_nccl.h): coordinate descent of coll's
 * prediction constants over a machine's nccl-tests rows. The fitted set is
 * the one table below; when model/params.c renames or adds a key, adapt
 * the table (tests/unit/test_calibrate_nccl.c checks that every key in it
 * is one the model knows and that its range is inside the key's valid one).
 */
#include "sbuf.h"
#include "calibrate_nccl.h"
#include "validate_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "dtype.h"
#include "grow.h"
#include "ops.h"
#include "params.h"
#include "rankset.h"

#define R_BANDS_ALL (CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_LARGE)
#define R_SCOPE_ALL (CR_CNF_R_INTRA | CR_CNF_R_NET)

/* The fitted constants, in the order each sweep visits them: bandwidth
 * (large messages, where latency is a small share) first, then the
 * per-step latencies of one algorithm, protocol and link class (small
 * messages), then what shapes the middle (LL's ceiling, LL128's
 * efficiency), and last the fixed cost every collective shares: a key
 * visited earlier absorbs what it can explain, so a fit on one collective
 * moves the constants of that collective's algorithm before the ones its
 * siblings share with it (their split is not identifiable from one
 * collective at one rank count). One exception: the tree's own factor
 * (coll.eff.tree) comes after the network's efficiency, so that what a
 * tree allreduce shows of the network reaches the ring collectives and
 * only the rest stays with the tree (of the corpus machines calibrated
 * on their all_reduce, doc/corpus.md "Session 4", the held-out
 * collectives come out as well or better this way round on every one).
 * Another: NVLS's cost per loop (coll.nvls.loop, 0 - 50 us) comes before
 * NVLS's efficiency, which otherwise takes the mid sizes' slowness as rate
 * and leaves the descent where the two trade (rows made at 8 us a loop came
 * back 5.5 us; test_calibrate_nccl test_fit_nvls_loop); rows across nodes
 * inform it too (the NVLS tree's loop inside each node), else the
 * network's efficiency takes that slowness. Ranges: efficiencies from a
 * fifth of the link to all of it; per-step latencies (coll.alpha.*, seconds) from
 * a quarter of NCCL's hwLat for that link class and protocol to about 10x
 * it (tuning.cc@v2.28.9; the corpus fit keeps them within 1-2x,
 * doc/corpus.md); NVLS's figure 5 - 100 us around NCCL's 25; a network
 * plugin's own latency 0 - 200 us (aws-ofi-nccl reports 75 us for EFA);
 * the fixed cost 0 - 60 us (nccl-tests on 8x H100 measures about 33 us
 * for an 8 B allreduce, issue 14); the host's cost per operation and GPU
 * of a one-thread -g N run 0 - 20 us (nccl-tests#123: 4.2 us), and its
 * part per point-to-point call 0 - 2 us (the corpus: 0.26). */
/* clang-format off */
static const cr_cnf_key fit_keys[] = {
    {"coll.eff.simple",          0.20,   1.00,   CR_CNF_R_LARGE | CR_CNF_R_INTRA},
    {"coll.nvls.loop",           0,      50e-6,  CR_CNF_R_MID | CR_CNF_R_LARGE | R_SCOPE_ALL},
    {"coll.eff.nvls",            0.20,   1.00,   CR_CNF_R_LARGE | CR_CNF_R_INTRA},
    {"coll.eff.pcie",            0.10,   1.00,   CR_CNF_R_LARGE | CR_CNF_R_INTRA},
    {"coll.eff.shm",             0.10,   1.00,   CR_CNF_R_LARGE | CR_CNF_R_INTRA},
    {"coll.n2.ring.ar",          0.20,   1.00,   CR_CNF_R_LARGE | CR_CNF_R_INTRA},
    {"coll.n2.ring.agrs",        0.20,   1.00,   CR_CNF_R_LARGE | CR_CNF_R_INTRA},
    {"coll.eff.net",             0.20,   1.00,   CR_CNF_R_LARGE | CR_CNF_R_NET},
    {"coll.p2p.net_ch",          1e9,    100e9,  CR_CNF_R_LARGE | CR_CNF_R_NET},
    {"coll.eff.net.p2p",         0.20,   1.00,   CR_CNF_R_LARGE | CR_CNF_R_NET},
    {"coll.p2p.nvl_ch",          1e9,    100e9,  CR_CNF_R_MID | CR_CNF_R_LARGE | CR_CNF_R_INTRA},
    {"coll.p2p.nvl_ch.direct",   1e9,    100e9,  CR_CNF_R_MID | CR_CNF_R_LARGE | CR_CNF_R_INTRA},
    {"coll.msccl.eff",           0.10,   1.00,   CR_CNF_R_MID | CR_CNF_R_LARGE | CR_CNF_R_INTRA},
    {"coll.eff.tree",            0.20,   1.00,   CR_CNF_R_MID | CR_CNF_R_LARGE | R_SCOPE_ALL},
    {"coll.alpha.nvls",          5e-6,   100e-6, CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_INTRA},
    {"coll.msccl.lat.ll",        1e-6,   100e-6, CR_CNF_R_SMALL | CR_CNF_R_INTRA},
    {"coll.msccl.lat.simple",    1e-6,   100e-6, CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_INTRA},
    {"coll.alpha.nvlink.ll",     0.15e-6, 6e-6,  CR_CNF_R_SMALL | CR_CNF_R_INTRA},
    {"coll.alpha.nvlink.ll128",  0.5e-6, 20e-6,  CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_INTRA},
    {"coll.alpha.nvlink.simple", 0.85e-6, 35e-6, CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_INTRA},
    {"coll.alpha.pci.ll",        0.25e-6, 10e-6, CR_CNF_R_SMALL | CR_CNF_R_INTRA},
    {"coll.alpha.pci.ll128",     0.6e-6, 25e-6,  CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_INTRA},
    {"coll.alpha.pci.simple",    1.4e-6, 60e-6,  CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_INTRA},
    {"coll.n2.lat_scale",        0.05,   20,     CR_CNF_R_SMALL | CR_CNF_R_INTRA},
    {"coll.n2.lat_scale.ll128",  0.05,   20,     CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_INTRA},
    {"coll.n2.lat_scale.simple", 0.05,   20,     CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_INTRA},
    {"coll.alpha.net.ll",        0.7e-6, 27e-6,  CR_CNF_R_SMALL | CR_CNF_R_NET},
    {"coll.alpha.net.ll128",     1e-6,   40e-6,  CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_NET},
    {"coll.alpha.net.simple",    3.5e-6, 140e-6, CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_NET},
    {"coll.alpha.net.tree.ll",     1.25e-6, 50e-6, CR_CNF_R_SMALL | CR_CNF_R_NET},
    {"coll.alpha.net.tree.ll128",  2e-6,   85e-6,  CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_NET},
    {"coll.alpha.net.tree.simple", 3.5e-6, 140e-6, CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_NET},
    {"coll.net.lat",             0,      200e-6, CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_NET},
    {"coll.net.eager",           512,    1e6,    CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_NET},
    {"coll.net.rndv",            0,      100e-6, CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_NET},
    {"coll.p2p.peer.intra",      0,      20e-6,  CR_CNF_R_SMALL | CR_CNF_R_INTRA},
    {"coll.p2p.peer.net",        0,      20e-6,  CR_CNF_R_SMALL | CR_CNF_R_NET},
    {"coll.ll_max",              5e9,    1e12,   CR_CNF_R_MID | R_SCOPE_ALL},
    {"coll.eff.ll128",           0.20,   1.00,   CR_CNF_R_MID | R_SCOPE_ALL},
    {"coll.eff.ll",              0.10,   1.00,   CR_CNF_R_SMALL | CR_CNF_R_MID | R_SCOPE_ALL},
    {"coll.eff.ll.net",          0.10,   1.00,   CR_CNF_R_SMALL | CR_CNF_R_MID | CR_CNF_R_NET},
    {"coll.host_op",             0,      20e-6,  CR_CNF_R_SMALL | R_SCOPE_ALL},
    {"coll.host_op.p2p",         0,      2e-6,   CR_CNF_R_SMALL | CR_CNF_R_MID | R_SCOPE_ALL},
    {"coll.op_fixed",            0,      60e-6,  CR_CNF_R_SMALL | R_SCOPE_ALL},
};
/* clang-format on */
#define N_FIT ((int)(sizeof fit_keys / sizeof fit_keys[0]))
_Static_assert(sizeof fit_keys / sizeof fit_keys[0] <= CR_CNF_MAX_KEYS, "CR_CNF_MAX_KEYS");

enum { SWEEPS = 12, GOLDEN_ITERS = 16, MIN_ROWS = CR_CNF_MIN_ROWS };

const cr_cnf_key *cr_cnf_keys(int *n)
{
    *n = N_FIT;
    return fit_keys;
}

cr_cnf_band cr_cnf_band_of(double bytes)
{
    const double mib = 1048576.0;
    return bytes <= mib ? CR_CNF_SMALL : bytes <= 64 * mib ? CR_CNF_MID : CR_CNF_LARGE;
}

const char *cr_cnf_band_name(int band)
{
    static const char *const names[] = {"<=1MiB", "1-64MiB", ">64MiB", "all"};
    return band >= 0 && band <= CR_CNF__BANDS ? names[band] : "?";
}

/* A row and what predicting it needs. */
typedef struct {
    int ctx;        /* index into cr_cnf.ctx */
    cr_coll_req rq; /* as validate's eval_coll builds it */
    /* rq's bound, evaluated once when the row is added: it depends on the
     * topology and the request alone, not on the constants the fit moves
     * (cr_coll_predict_bounded), and evaluating it was a fifth of every
     * prediction */
    cr_coll_bound bound;
} row_t;

struct cr_cnf {
    const cr_topo *t;
    char *ranks;     /* rank-set text, or NULL */
    row_t *rows;     /* what predicting row i needs */
    cr_cnf_row *pub; /* row i as the caller sees it */
    size_t n, cap_rows, cap_pub;
    struct {
        int n;
        cr_coll_ctx *c;
    } ctx[64];
    int n_ctx;
    cr_cnf_progress_fn progress; /* or NULL */
    void *progress_ctx;
    double shipped[CR_CNF_MAX_KEYS]; /* each fit key's figure before the fit (prior_of) */
    bool oom; /* a prediction ran out of memory: its NaN is no refused value */
};

void cr_cnf_set_progress(cr_cnf *f, cr_cnf_progress_fn fn, void *ctx)
{
    f->progress = fn;
    f->progress_ctx = ctx;
}

cr_status cr_cnf_new(const cr_topo *t, const char *ranks, cr_cnf **out, cr_diag *d)
{
    *out = NULL;
    cr_cnf *f = calloc(1, sizeof *f);
    if (!f)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    f->t = t;
    if (ranks && !(f->ranks = strdup(ranks))) {
        free(f);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    *out = f;
    return CR_OK;
}

void cr_cnf_free(cr_cnf *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->n_ctx; i++)
        cr_coll_ctx_free(f->ctx[i].c);
    free(f->ranks);
    free(f->rows);
    free(f->pub);
    free(f);
}

static void say(char *why, size_t size, const char *msg)
{
    if (why && size)
        cr_str_copy(why, size, msg);
}

static const char *str_or(const cr_vcase *c, const char *key, const char *def)
{
    const char *v = cr_vcase_get(c, key);
    return v ? v : def;
}

/* The context of the rows of n ranks (built on first use); -1 with why
 * when the rows cannot be predicted on this topology and rank set. */
static cr_status ctx_for(cr_cnf *f, int n, int *idx, char *why, size_t why_size, cr_diag *d)
{
    *idx = -1;
    for (int i = 0; i < f->n_ctx; i++)
        if (f->ctx[i].n == n) {
            *idx = i;
            return CR_OK;
        }
    char buf[160];
    if (n < 1 || n > f->t->n_gpus) {
        snprintf(buf, sizeof buf,
                 "%d ranks measured, topology %s has %d GPUs: use --topo with "
                 "enough GPUs",
                 n, f->t->name, f->t->n_gpus);
        say(why, why_size, buf);
        return CR_OK;
    }
    if (f->n_ctx >= (int)(sizeof f->ctx / sizeof f->ctx[0])) {
        say(why, why_size, "more than 64 rank counts in the logs");
        return CR_OK;
    }
    cr_rankset *rs = NULL;
    cr_status st;
    if (f->ranks) {
        if ((st = cr_rankset_parse(f->ranks, f->t->n_gpus, &rs, d)) != CR_OK)
            return st == CR_ENOMEM ? st : CR_EINVAL; /* the caller's rank set: d says why */
        if (rs->n != n) {
            snprintf(buf, sizeof buf, "--ranks has %d ranks, the case %d", rs->n, n);
            say(why, why_size, buf);
            cr_rankset_free(rs);
            return CR_OK;
        }
    } else {
        int *ids = malloc((size_t)n * sizeof *ids);
        if (!ids)
            return cr_diag_set(d, CR_ENOMEM, "out of memory");
        for (int i = 0; i < n; i++)
            ids[i] = i;
        st = cr_rankset_from_array(ids, n, f->t->n_gpus, &rs, d);
        free(ids);
        if (st != CR_OK)
            return st;
    }
    cr_coll_ctx *c = NULL;
    st = cr_coll_ctx_new(f->t, rs, &c, d);
    cr_rankset_free(rs);
    if (st != CR_OK)
        return st;
    f->ctx[f->n_ctx].n = n;
    f->ctx[f->n_ctx].c = c;
    *idx = f->n_ctx++;
    return CR_OK;
}

/* Whether the context's ranks sit on two or more nodes. */
static bool spans_nodes(const cr_topo *t, const cr_coll_ctx *c)
{
    const cr_rankset *rs = cr_coll_ctx_ranks(c);
    int node0 = t->devs[t->gpus[rs->ranks[0]]].node;
    for (int i = 1; i < rs->n; i++)
        if (t->devs[t->gpus[rs->ranks[i]]].node != node0)
            return true;
    return false;
}

cr_status cr_cnf_add(cr_cnf *f, const cr_vmeas *m, int log, bool *added, char *why, size_t why_size,
                     cr_diag *d)
{
    if (added)
        *added = false;
    say(why, why_size, "");
    if (m->c.family != CR_VFAM_NCCL) {
        say(why, why_size, "not an NCCL collective case");
        return CR_OK;
    }
    double bytes, n;
    cr_diag cd = {{0}};
    if (cr_vcase_num(&m->c, "bytes", &bytes, &cd) != CR_OK ||
        cr_vcase_num(&m->c, "nranks", &n, &cd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, cd.msg);
    cr_coll coll;
    if (cr_coll_parse(str_or(&m->c, "coll", "?"), &coll, &cd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, cd.msg);
    if (!(n >= 1) || n > 1 << 20 || !(m->measured_s > 0)) {
        say(why, why_size, "no rank count or no measured time");
        return CR_OK;
    }
    int ci;
    cr_status st = ctx_for(f, (int)n, &ci, why, why_size, d);
    if (st != CR_OK || ci < 0)
        return st;
    cr_coll_req rq = cr_vmeas_coll_req(m, coll, bytes, (int)n, CR_MECH_NONE);
    cr_coll_ctx *c = f->ctx[ci].c;
    cr_coll_result res;
    memset(&res, 0, sizeof res);
    st = cr_coll_eval(c, &rq, &res, &cd);
    if (st == CR_EUNSUPPORTED || (st == CR_OK && !(res.pred.supported && res.pred.pred_s > 0))) {
        char buf[200];
        snprintf(buf, sizeof buf, "no prediction: %.150s",
                 st != CR_OK       ? cd.msg
                 : bytes == 0      ? "a 0-byte row (under one element a rank)"
                 : res.pred.why[0] ? res.pred.why
                                   : "unsupported");
        say(why, why_size, buf);
        return CR_OK;
    }
    if (st != CR_OK)
        return cr_diag_set(d, st, "%s: %s", m->source, cd.msg);
    if (cr_grow((void **)&f->rows, &f->cap_rows, f->n + 1, sizeof *f->rows) ||
        cr_grow((void **)&f->pub, &f->cap_pub, f->n + 1, sizeof *f->pub))
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    f->rows[f->n].ctx = ci;
    f->rows[f->n].rq = rq;
    f->rows[f->n].bound = res.bound;
    cr_cnf_row *r = &f->pub[f->n++];
    memset(r, 0, sizeof *r);
    r->log = log;
    r->bytes = bytes;
    r->band = cr_cnf_band_of(bytes);
    r->net = spans_nodes(f->t, c);
    r->measured_s = m->measured_s;
    r->bound_s = res.bound.bound_s;
    r->violation = cr_below_bound(m->measured_s, res.bound.bound_s);
    cr_str_copy(r->source, sizeof r->source, m->source);
    if (added)
        *added = true;
    return CR_OK;
}

const cr_cnf_row *cr_cnf_rows(const cr_cnf *f, size_t *n)
{
    *n = f->n;
    return f->pub;
}

/* Sets key = v in every context. */
static cr_status set_all(cr_cnf *f, const char *key, double v, cr_diag *d)
{
    for (int i = 0; i < f->n_ctx; i++) {
        cr_status st = cr_coll_ctx_set_param(f->ctx[i].c, key, v, d);
        if (st != CR_OK)
            return st;
    }
    return CR_OK;
}

/* Sets every table key to vals[] (NULL: the shipped values, from the
 * topology and the generation's defaults). */
static cr_status set_values(cr_cnf *f, const double *vals, cr_diag *d)
{
    for (int k = 0; k < N_FIT; k++) {
        double v;
        if (vals) {
            v = vals[k];
        } else {
            cr_params p;
            cr_status st =
                cr_params_for_topo(f->t, cr_coll_ctx_ranks(f->ctx[0].c)->ranks[0], &p, d);
            if (st != CR_OK)
                return st;
            if (cr_params_get(&p, fit_keys[k].key, &v, NULL) != CR_OK)
                return cr_diag_set(d, CR_EINVAL,
                                   "calibrate_nccl.c's table names \"%s\", which model/params.c "
                                   "does not know: edit the table",
                                   fit_keys[k].key);
        }
        cr_status st = set_all(f, fit_keys[k].key, v, d);
        if (st != CR_OK)
            return st;
    }
    return CR_OK;
}

/* Prediction of row i under the contexts' current constants; NaN when
 * the model gives none. */
static double pred_row(cr_cnf *f, size_t i)
{
    const row_t *r = &f->rows[i];
    cr_coll_pred p;
    memset(&p, 0, sizeof p);
    cr_status st = cr_coll_predict_bounded(f->ctx[r->ctx].c, &r->rq, &r->bound, &p, NULL);
    if (st == CR_ENOMEM) /* the fit would take the value as refused (QA audit of allocation
                            failures: a different fit, exit 0) */
        f->oom = true;
    if (st != CR_OK || !p.supported || !(p.pred_s > 0))
        return NAN;
    return p.pred_s;
}

cr_status cr_cnf_predict(cr_cnf *f, const cr_cnf_fit *fit, double *pred_s, cr_diag *d)
{
    if (f->n == 0)
        return CR_OK;
    double vals[CR_CNF_MAX_KEYS];
    if (fit)
        for (int k = 0; k < N_FIT; k++)
            vals[k] = fit->k[k].after;
    cr_status st = set_values(f, fit ? vals : NULL, d);
    if (st != CR_OK)
        return st;
    f->oom = false;
    for (size_t i = 0; i < f->n; i++) {
        pred_s[i] = pred_row(f, i);
        if (f->oom)
            return cr_diag_set(d, CR_ENOMEM, "out of memory");
        if (!isfinite(pred_s[i]))
            return cr_diag_set(d, CR_EINVARIANT, "%s: no prediction with the fitted constants",
                               f->pub[i].source);
    }
    return CR_OK;
}

/* Whether row r informs a key of row classes `mask`; a rate row (see
 * mark_rate_rows) counts as a large message too. */
static bool informs(const cr_cnf_row *r, bool rate, unsigned mask)
{
    unsigned bands = (1u << r->band) | (rate ? CR_CNF_R_LARGE : 0u);
    return (mask & bands) && (mask & (r->net ? CR_CNF_R_NET : CR_CNF_R_INTRA));
}

/* The rates (the keys of large messages: coll.eff.*) are fitted on rows
 * above 64 MiB, where the transfer is nearly all of the time. A scope
 * (across nodes, or inside one) whose fitted rows stop below that, as
 * nccl-tests' default sweep does (-e 32M), or pass it by one size (fewer
 * than MIN_ROWS, too few to fit a key on), would leave them as shipped,
 * and the mid sizes' slowness then goes to the latencies or nowhere: on
 * ABCI's two nodes (all_reduce to 32 MiB, NCCL 2.8.4) the network ran at
 * 0.38 of the shipped efficiency and the held-out broadcast's 2-32 MiB
 * came out 41-61 % fast. There the rows within CR_CNF_RATE_SPAN of the scope's
 * largest size (the two or three largest of a x2 sweep), above 1 MiB,
 * inform the rates too (Snellius' one node, all_reduce to 128 MiB: the
 * held-out collectives' median error 8.2 -> 7.6 %). rate[j] is set for
 * all[j]; returns how many. */
static int mark_rate_rows(const cr_cnf *f, const size_t *all, size_t n_all, bool *rate)
{
    int marked = 0;
    for (int net = 0; net < 2; net++) {
        double max_b = 0;
        int large = 0;
        for (size_t j = 0; j < n_all; j++) {
            const cr_cnf_row *r = &f->pub[all[j]];
            if (r->net == (net == 1)) {
                large += r->band == CR_CNF_LARGE;
                max_b = fmax(max_b, r->bytes);
            }
        }
        if (large >= MIN_ROWS)
            continue;
        for (size_t j = 0; j < n_all; j++) {
            const cr_cnf_row *r = &f->pub[all[j]];
            if (r->net == (net == 1) && r->band == CR_CNF_MID &&
                r->bytes >= max_b / CR_CNF_RATE_SPAN) {
                rate[j] = true;
                marked++;
            }
        }
    }
    return marked;
}

/* Mean |ln(pred / measured)| over rows idx[0..n) with key k at v; +inf
 * where a row has no prediction or v is refused. */
static double data_objective(cr_cnf *f, int k, double v, const size_t *idx, size_t n, long *evals)
{
    if (set_all(f, fit_keys[k].key, v, NULL) != CR_OK)
        return INFINITY;
    double s = 0;
    for (size_t j = 0; j < n; j++) {
        double p = pred_row(f, idx[j]);
        if (!isfinite(p))
            return INFINITY;
        s += fabs(log(p / f->pub[idx[j]].measured_s));
    }
    *evals += (long)n;
    return s / (double)n;
}

/* The pull of key k at v toward its shipped figure: CR_CNF_PRIOR x the
 * square of the log of their ratio (a key whose range starts at 0 is
 * compared a twentieth of its range above both, so 0 is a figure like
 * any other). Rows of one collective leave keys that trade with each
 * other (a per-step latency against the host's cost per operation on a
 * -g 8 run; a network efficiency against the all-to-all's own channel
 * rate): without it the key visited first took all, 4.3 us a step on 8
 * H100 from an all_gather where NCCL prices 0.6, and the held-out
 * all_reduce came out 72 % slow. With it the smallest change that
 * explains the rows wins (calibrate_nccl.h CR_CNF_PRIOR). */
static double prior_of(const cr_cnf *f, int k, double v)
{
    const cr_cnf_key *key = &fit_keys[k];
    double soft = key->lo > 0 ? 0 : (key->hi - key->lo) / 20;
    double v0 = f->shipped[k];
    if (!(v0 + soft > 0) || !(v + soft > 0))
        return 0;
    double l = log((v + soft) / (v0 + soft));
    return CR_CNF_PRIOR * l * l;
}

/* What the descent minimises over rows idx[0..n) for key k at v: the
 * rows' error and the key's pull toward its shipped figure. */
static double objective(cr_cnf *f, int k, double v, const size_t *idx, size_t n, long *evals)
{
    return data_objective(f, k, v, idx, n, evals) + prior_of(f, k, v);
}

/* Grid coordinate: log-spaced when the range spans more than a decade
 * above zero, linear otherwise. */
static bool log_grid(const cr_cnf_key *k)
{
    return k->lo > 0 && k->hi / k->lo > 10;
}

static double from_u(const cr_cnf_key *k, double u)
{
    return log_grid(k) ? exp(u) : u;
}

static double to_u(const cr_cnf_key *k, double v)
{
    return log_grid(k) ? log(v) : v;
}

/* One key's step of the descent: the grid, then golden section around its
 * best point. Returns the best value seen (cur when nothing beats it). */
static double fit_one(cr_cnf *f, int k, double cur, const size_t *idx, size_t n, bool *informed,
                      long *evals)
{
    const cr_cnf_key *key = &fit_keys[k];
    double u_lo = to_u(key, key->lo), u_hi = to_u(key, key->hi);
    double gu[CR_CNF_GRID], go[CR_CNF_GRID];
    double best_v = cur, best_o = objective(f, k, cur, idx, n, evals);
    double dmin = INFINITY, dmax = -INFINITY;
    int gi = -1;
    double g_best = INFINITY;
    for (int i = 0; i < CR_CNF_GRID; i++) {
        gu[i] = u_lo + (u_hi - u_lo) * i / (CR_CNF_GRID - 1);
        double gv = from_u(key, gu[i]);
        double data = data_objective(f, k, gv, idx, n, evals);
        go[i] = data + prior_of(f, k, gv);
        if (go[i] < g_best) {
            g_best = go[i];
            gi = i;
        }
        if (isfinite(data)) {
            dmin = fmin(dmin, data);
            dmax = fmax(dmax, data);
        }
    }
    /* flat: these rows' predictions do not depend on the key */
    *informed = isfinite(dmin) && dmax - dmin > 1e-9;
    if (!*informed || gi < 0)
        return cur;
    double a = gu[gi > 0 ? gi - 1 : 0], b = gu[gi < CR_CNF_GRID - 1 ? gi + 1 : gi];
    const double r = 0.6180339887498949;
    double c1 = b - r * (b - a), c2 = a + r * (b - a);
    double o1 = objective(f, k, from_u(key, c1), idx, n, evals);
    double o2 = objective(f, k, from_u(key, c2), idx, n, evals);
    double cand_u = gu[gi], cand_o = g_best;
    for (int it = 0; it < GOLDEN_ITERS; it++) {
        if (o1 <= o2) {
            b = c2;
            c2 = c1;
            o2 = o1;
            c1 = b - r * (b - a);
            o1 = objective(f, k, from_u(key, c1), idx, n, evals);
        } else {
            a = c1;
            c1 = c2;
            o1 = o2;
            c2 = a + r * (b - a);
            o2 = objective(f, k, from_u(key, c2), idx, n, evals);
        }
        if (o1 < cand_o) {
            cand_o = o1;
            cand_u = c1;
        }
        if (o2 < cand_o) {
            cand_o = o2;
            cand_u = c2;
        }
    }
    /* keep the current value unless the search found a clearly better one:
     * a plateau does not drift */
    if (cand_o < best_o - 1e-6) {
        best_v = from_u(key, cand_u);
        best_o = cand_o;
    }
    (void)best_o;
    return best_v;
}

static double mean_abs_log(cr_cnf *f, const size_t *idx, size_t n)
{
    double s = 0;
    for (size_t j = 0; j < n; j++)
        s += fabs(log(pred_row(f, idx[j]) / f->pub[idx[j]].measured_s));
    return n ? s / (double)n : 0;
}

/* The index of key in fit_keys (it is there: the table is this file's). */
static int key_index(const char *key)
{
    for (int k = 0; k < N_FIT; k++)
        if (!strcmp(fit_keys[k].key, key))
            return k;
    return -1;
}

/* A ring's and a tree's network step of one protocol (coll.alpha.net.P,
 * coll.alpha.net.tree.P) are the same network, proxy and plugin seen by two
 * algorithms: NCCL prices them in a fixed ratio (tuning.cc hwLat NET, tree
 * over ring: LL 5.0 / 2.7, LL128 8.5 / 4.0, Simple 14 / 14). A log informs
 * one of them at most sizes (an allreduce across nodes runs trees up to a
 * few MiB, an all-gather rings only), and the other, kept as shipped,
 * would then price the machine's network at the corpus's figure in the
 * collectives the fit did not see (the 2 x 4 H100 of validate/corpus
 * h100x4-ib-2n: its all_reduce fits the tree's LL step at 1.25 us against
 * 6.25 shipped, and its all_gather, a ring, kept 4 us a crossing). So an
 * uninformed step moves with its informed sibling at the shipped ratio,
 * while that sibling stays within CR_CNF_CARRY_MAX of its shipped figure. */
static cr_status carry_net_steps(cr_cnf *f, cr_cnf_fit *out, cr_diag *d)
{
    static const char *const pairs[][2] = {
        {"coll.alpha.net.ll", "coll.alpha.net.tree.ll"},
        {"coll.alpha.net.ll128", "coll.alpha.net.tree.ll128"},
        {"coll.alpha.net.simple", "coll.alpha.net.tree.simple"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int a = key_index(pairs[i][0]), b = key_index(pairs[i][1]);
        if (a < 0 || b < 0 || out->k[a].fitted == out->k[b].fitted || out->k[a].at_bound ||
            out->k[b].at_bound)
            continue;
        int from = out->k[a].fitted ? a : b, to = from == a ? b : a;
        if (!(out->k[from].before > 0) || !(out->k[to].before > 0))
            continue;
        double moved = out->k[from].after / out->k[from].before;
        if (moved > CR_CNF_CARRY_MAX || moved < 1.0 / CR_CNF_CARRY_MAX) {
            out->k[to].not_carried_with = out->k[from].key;
            continue;
        }
        const cr_cnf_key *key = &fit_keys[to];
        double v = out->k[to].before * out->k[from].after / out->k[from].before;
        out->k[to].after = fmin(key->hi, fmax(key->lo, v));
        out->k[to].fitted = true;
        out->k[to].carried_with = out->k[from].key;
        cr_status st = set_all(f, out->k[to].key, out->k[to].after, d);
        if (st != CR_OK)
            return st;
    }
    return CR_OK;
}

/* The network's efficiency for point-to-point traffic (coll.eff.net.p2p)
 * follows the rings' (coll.eff.net) where no point-to-point row informed
 * it, as the shipped model has them equal: a fit on a machine's
 * all_reduce predicts its all-to-all as before. The other way it does
 * not carry: on 2 Polaris nodes an all-to-all fitted alone took the
 * network to 0.39 and the held-out all_gather and all_reduce from 16 and
 * 24 % to 43 and 41 % slow (doc/corpus.md Session 45). */
static cr_status carry_p2p_net_eff(cr_cnf *f, cr_cnf_fit *out, cr_diag *d)
{
    int a = key_index("coll.eff.net"), b = key_index("coll.eff.net.p2p");
    if (!out->k[a].fitted || out->k[b].fitted || out->k[b].at_bound)
        return CR_OK;
    out->k[b].after = out->k[a].after;
    out->k[b].fitted = true;
    out->k[b].carried_with = out->k[a].key;
    return set_all(f, out->k[b].key, out->k[b].after, d);
}

/* Whether v stopped at an end of k's search range (-1 floor, +1 ceiling,
 * 0 inside): there its rows ask for a figure no plausible constant gives.
 * A floor of 0 is a figure of its own (no latency, no limit), not an edge. */
static int search_edge(const cr_cnf_key *k, double v)
{
    double span = k->hi - k->lo;
    if (k->lo > 0 && v <= k->lo + 1e-6 * span)
        return -1;
    return v >= k->hi - 1e-6 * span ? 1 : 0;
}

/* A key back at its shipped figure, not fitted. */
static cr_status reset_key(cr_cnf *f, cr_cnf_fit *out, int k, cr_diag *d)
{
    out->k[k].fitted = false;
    out->k[k].after = out->k[k].before;
    return set_all(f, fit_keys[k].key, out->k[k].after, d);
}

/* Up to SWEEPS rounds over the keys not held (at_bound 0), each fitted on
 * the rows (of all, n_all; rate: mark_rate_rows') that inform it; sub:
 * scratch for n_all indices. A round that moves no key ends the descent:
 * each key's step depends only on the constants, so every later round
 * would repeat it exactly (a leave-one-log-out cross-check of 16 logs
 * runs 17 fits, and most settle in a few rounds). */
static cr_status fit_sweeps(cr_cnf *f, cr_cnf_fit *out, const size_t *all, size_t n_all,
                            const bool *rate, size_t *sub, cr_diag *d)
{
    bool moved = true;
    for (int sweep = 0; sweep < SWEEPS && n_all && moved; sweep++) {
        moved = false;
        for (int k = 0; k < N_FIT; k++) {
            if (out->k[k].at_bound)
                continue;
            if (f->progress)
                f->progress(f->progress_ctx, sweep, SWEEPS, k, N_FIT, fit_keys[k].key);
            size_t n_sub = 0;
            for (size_t j = 0; j < n_all; j++)
                if (informs(&f->pub[all[j]], rate[j], fit_keys[k].rows))
                    sub[n_sub++] = all[j];
            out->k[k].rows = (int)n_sub;
            if (n_sub >= MIN_ROWS) {
                bool informed = false;
                double v = fit_one(f, k, out->k[k].after, sub, n_sub, &informed, &out->evals);
                if (informed) {
                    out->k[k].fitted = true;
                    moved |= v != out->k[k].after;
                    out->k[k].after = v;
                }
            }
            cr_status st = set_all(f, fit_keys[k].key, out->k[k].after, d);
            if (st != CR_OK)
                return st;
        }
    }
    return CR_OK;
}

/* A key whose fit ran to an end of its search range absorbs rows the
 * model's structure misses, and the other collectives pay for it: on two
 * Polaris nodes coll.alpha.net.ll went to its 27 us ceiling on the
 * all_reduce's ring LL rows and the held-out all_gather's small sizes came
 * out 3x slow (doc/corpus.md Session 15). Each such key is held at its
 * shipped figure (at_bound says which end it reached); *held counts the
 * keys held now. The caller fits the others again without them, until no
 * key reaches an edge (at most once per key). */
static cr_status hold_edge_keys(cr_cnf *f, cr_cnf_fit *out, int *held, cr_diag *d)
{
    *held = 0;
    for (int k = 0; k < N_FIT; k++) {
        int edge = out->k[k].fitted && !out->k[k].at_bound
                       ? search_edge(&fit_keys[k], out->k[k].after)
                       : 0;
        if (!edge)
            continue;
        out->k[k].at_bound = edge;
        (*held)++;
        cr_status st = reset_key(f, out, k, d);
        if (st != CR_OK)
            return st;
    }
    return CR_OK;
}

cr_status cr_cnf_fit_run(cr_cnf *f, const bool *use_log, int n_logs, cr_cnf_fit *out, cr_diag *d)
{
    size_t *all = NULL, *sub = NULL;
    bool *rate = NULL;
    memset(out, 0, sizeof *out);
    out->n_keys = N_FIT;
    for (int k = 0; k < N_FIT; k++)
        out->k[k].key = fit_keys[k].key;
    if (f->n == 0 || f->n_ctx == 0)
        return CR_OK;
    cr_status st = set_values(f, NULL, d);
    if (st != CR_OK)
        return st;
    f->oom = false;
    /* the shipped values, from the first context (every context has the same) */
    {
        cr_params p;
        if ((st = cr_params_for_topo(f->t, cr_coll_ctx_ranks(f->ctx[0].c)->ranks[0], &p, d)) !=
            CR_OK)
            return st;
        for (int k = 0; k < N_FIT; k++) {
            cr_params_get(&p, fit_keys[k].key, &out->k[k].before, NULL);
            out->k[k].after = out->k[k].before;
            f->shipped[k] = out->k[k].before;
        }
    }
    /* coll.eff.net.p2p ships at 0, coll.eff.net's figure: fitted from
     * there, a fit of coll.eff.net would take the point-to-point rows too
     * (the figure carry_p2p_net_eff keeps apart), so the fit starts it at
     * that figure, set */
    int k_net = key_index("coll.eff.net"), k_p2p = key_index("coll.eff.net.p2p");
    if (!(out->k[k_p2p].before > 0)) {
        out->k[k_p2p].before = out->k[k_p2p].after = f->shipped[k_p2p] = out->k[k_net].before;
        if ((st = set_all(f, fit_keys[k_p2p].key, out->k[k_p2p].after, d)) != CR_OK)
            return st;
    }
    all = calloc(f->n, sizeof *all);
    sub = calloc(f->n, sizeof *sub);
    rate = calloc(f->n, sizeof *rate);
    if (!all || !sub || !rate) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    size_t n_all = 0;
    for (size_t i = 0; i < f->n; i++) {
        const cr_cnf_row *r = &f->pub[i];
        if (r->log >= 0 && r->log < n_logs && use_log[r->log] && !r->violation)
            all[n_all++] = i;
    }
    out->rows = (int)n_all;
    out->rate_rows = mark_rate_rows(f, all, n_all, rate);
    out->obj_before = mean_abs_log(f, all, n_all);
    for (;;) {
        if ((st = fit_sweeps(f, out, all, n_all, rate, sub, d)) != CR_OK)
            goto out;
        int held = 0;
        if ((st = hold_edge_keys(f, out, &held, d)) != CR_OK)
            goto out;
        if (held == 0)
            break;
        /* the others start again from their shipped figures */
        for (int k = 0; k < N_FIT; k++)
            if (!out->k[k].at_bound && (st = reset_key(f, out, k, d)) != CR_OK)
                goto out;
    }
    if ((st = carry_net_steps(f, out, d)) != CR_OK || (st = carry_p2p_net_eff(f, out, d)) != CR_OK)
        goto out;
    out->obj_after = mean_abs_log(f, all, n_all);
out:
    if (st == CR_OK && f->oom)
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
    free(all);
    free(sub);
    free(rate);
    return st;
}

cr_status cr_cnf_stats(const cr_cnf *f, const double *pred_s, const bool *logs, int n_logs,
                       cr_cnf_stat out[CR_CNF__BANDS + 1])
{
    double *e = malloc((f->n ? f->n : 1) * sizeof *e);
    if (!e)
        return CR_ENOMEM;
    for (int b = 0; b <= CR_CNF__BANDS; b++) {
        size_t ne = 0;
        for (size_t i = 0; i < f->n; i++) {
            const cr_cnf_row *r = &f->pub[i];
            if ((logs && (r->log < 0 || r->log >= n_logs || !logs[r->log])) ||
                (b < CR_CNF__BANDS && (int)r->band != b))
                continue;
            e[ne++] = fabs(pred_s[i] - r->measured_s) / r->measured_s * 100;
        }
        out[b].rows = (int)ne;
        out[b].median_pct = cr_median(e, ne);
        out[b].p90_pct = cr_validate_percentile(e, ne, 90);
    }
    free(e);
    return CR_OK;
}

bool cr_cnf_key_moved(const cr_cnf_fit *fit, int k)
{
    char a[32], b[32];
    cr_snprintf_c(a, sizeof a, "%.6g", fit->k[k].after);
    cr_snprintf_c(b, sizeof b, "%.6g", fit->k[k].before);
    return fit->k[k].fitted && strcmp(a, b) != 0;
}

cr_status cr_cnf_apply(cr_topo *t, const cr_cnf_fit *fit, const char *source)
{
    for (int k = 0; k < fit->n_keys; k++) {
        if (!cr_cnf_key_moved(fit, k))
            continue;
        const char *with = fit->k[k].carried_with;
        size_t len = strlen(source) + (with ? strlen(with) + 64 : 0) + 1;
        char *src = malloc(len);
        if (!src)
            return CR_ENOMEM;
        if (with)
            snprintf(src, len, "%s, carried with %s at the shipped ratio", source, with);
        else
            cr_str_copy(src, len, source);
        /* six digits: the fit is not finer than that, and the file reads
         * "4.9946e-06", not "4.9946036101035902e-06" */
        char six[32];
        cr_snprintf_c(six, sizeof six, "%.6g", fit->k[k].after);
        int bad = cr_topo_set_param(t, fit->k[k].key, cr_strtod_c(six, NULL), src);
        free(src);
        if (bad)
            return CR_ENOMEM;
    }
    return CR_OK;
}
