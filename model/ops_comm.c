/* SPDX-License-Identifier: MIT */
/*
 * Adapter from operator phases to the collectives module (coll.h): every
 * communication term of an operator comes from cr_coll_*; this file only
 * maps a phase onto a rank set and a request, and adds the one term the
 * collectives module does not model, the hot receiver of an all-to-all-v.
 *
 * All-to-all-v with skew L (the hot rank receives L times the mean, the
 * others (p - L)/(p - 1) of it): the traffic matrix is entrywise at least
 * c = (p - L)/(p - 1) times the balanced one, so every cut carries at least
 * c times the balanced bytes and c x (balanced bandwidth term) is a lower
 * bound; the hot receiver's ports give the other: it receives
 * L B (p - 1)/p bytes from peers through its total ingress capacity.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "ops_priv.h"

/* Sum of the capacities of every link into GPU device v (all fabrics). */
static double gpu_ingress_Bps(const cr_topo *t, int v)
{
    double s = 0;
    for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
        const cr_link *l = &t->links[t->adj[i]];
        int o = cr_link_other(l, v);
        s += cr_link_bw_from(l, o);
    }
    return s;
}

cr_status ops_group_open(const cr_topo *t, const int *ranks, int n, ops_group *g, cr_diag *d)
{
    memset(g, 0, sizeof *g);
    cr_rankset *rs = NULL;
    cr_status st = cr_rankset_from_array(ranks, n, t->n_gpus, &rs, d);
    if (st != CR_OK)
        return st;
    st = cr_coll_ctx_new(t, rs, &g->ctx, d);
    cr_rankset_free(rs);
    if (st != CR_OK)
        return st;
    g->t = t;
    g->n = n;
    g->ranks = malloc((size_t)n * sizeof *g->ranks);
    if (!g->ranks) {
        ops_group_close(g);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    memcpy(g->ranks, ranks, (size_t)n * sizeof *ranks);
    g->min_in_Bps = INFINITY;
    for (int i = 0; i < n; i++)
        g->min_in_Bps = fmin(g->min_in_Bps, gpu_ingress_Bps(t, t->gpus[ranks[i]]));
    return CR_OK;
}

void ops_group_close(ops_group *g)
{
    cr_coll_ctx_free(g->ctx);
    free(g->ranks);
    memset(g, 0, sizeof *g);
}

static cr_coll_req request(const ops_phase *ph, cr_dtype dt)
{
    cr_coll_req rq = cr_coll_req_default(ph->coll, ph->bytes);
    rq.dtype = ph->dtype >= 0 ? (cr_dtype)ph->dtype : dt;
    rq.moe_topk = ph->moe_topk;
    rq.moe_experts = ph->moe_experts;
    rq.moe_combine = ph->moe_combine;
    return rq;
}

cr_status ops_comm_eval(ops_group *g, const ops_phase *ph, cr_dtype dt, ops_comm_est *e, cr_diag *d)
{
    memset(e, 0, sizeof *e);
    cr_coll_req rq = request(ph, dt);
    cr_coll_result res;
    cr_status st = cr_coll_eval(g->ctx, &rq, &res, d);
    if (st != CR_OK)
        return st;
    e->bound = res.bound;
    e->nccl_s = res.pred.pred_s;
    cr_str_copy(e->algo, sizeof e->algo, cr_algo_name(res.pred.algo));
    cr_str_copy(e->proto, sizeof e->proto, cr_proto_name(res.pred.proto));
    double n = g->n, l = ph->skew;
    /* every entry of the traffic matrix is at least c times the balanced
     * one: the least receiver's share (the others', or the hot one's when a
     * capacity under 1 caps it too) */
    double c = g->n > 1 ? fmin(ph->other > 0 ? ph->other : (n - l) / (n - 1), fmin(l, 1)) : 1;
    if ((l != 1 || c != 1) && g->n > 1) {
        for (int i = 0; i < e->bound.n_terms; i++) {
            cr_coll_term *tm = &e->bound.terms[i];
            double bw = tm->time_s - tm->lat_s;
            tm->bytes *= c;
            tm->time_s = c * bw + tm->lat_s;
            tm->out_s *= c;
            tm->in_s *= c;
        }
        /* an MoE token with several experts on the hot rank arrives once:
         * at most min(topk, E / p) of its copies are one transfer */
        double once = ph->moe_topk >= 2 ? fmin(ph->moe_topk, ph->moe_experts / n) : 1;
        e->skew_term_s = l * ph->bytes * (n - 1) / n / g->min_in_Bps / fmax(once, 1);
        /* NCCL's all-to-all-v finishes when the hot rank has received its
         * L-fold share: its time is that of a balanced all-to-all L times as
         * large (every rank paced by the hot receiver). */
        cr_coll_req big = rq;
        big.bytes = l * ph->bytes;
        cr_coll_pred pr;
        st = cr_coll_predict(g->ctx, &big, &pr, d);
        if (st != CR_OK)
            return st;
        e->nccl_s = pr.pred_s;
    }
    return CR_OK;
}

cr_status ops_comm_mech(ops_group *g, const ops_phase *ph, cr_dtype dt, cr_mech m, int sms,
                        double *pred_s, int *sms_used, cr_diag *d)
{
    cr_coll_req rq = request(ph, dt);
    if (ph->skew != 1)
        rq.bytes *= ph->skew; /* paced by the hot receiver, as for NCCL above */
    rq.mech = m;
    rq.sms = m == CR_MECH_NONE ? 0 : sms;
    cr_coll_pred pr;
    cr_status st = cr_coll_predict(g->ctx, &rq, &pr, d);
    if (st != CR_OK)
        return st;
    *pred_s = pr.supported ? pr.pred_s : INFINITY;
    if (sms_used)
        *sms_used = m == CR_MECH_NONE ? pr.nchannels : sms;
    return CR_OK;
}
