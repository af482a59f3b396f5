/* SPDX-License-Identifier: MIT */
/*
 * Collectives: evaluation context and dispatch (see coll.h). Placeholder
 * while the cut model (bound.c) and the algorithms (algo_*.c) land.
 */
#include "coll.h"

#include <stdlib.h>

struct cr_coll_ctx {
  const cr_topo *topo;
  cr_rankset *ranks;
};

cr_status cr_coll_ctx_new(const cr_topo *topo, const cr_rankset *ranks,
                          cr_coll_ctx **out, cr_diag *d) {
  *out = NULL;
  cr_coll_ctx *c = calloc(1, sizeof *c);
  if (!c)
    return cr_diag_set(d, CR_ENOMEM, "out of memory");
  c->topo = topo;
  c->ranks = ranks ? cr_rankset_dup(ranks) : cr_rankset_all(topo->n_gpus);
  if (!c->ranks) {
    free(c);
    return cr_diag_set(d, CR_ENOMEM, "out of memory");
  }
  *out = c;
  return CR_OK;
}

void cr_coll_ctx_free(cr_coll_ctx *ctx) {
  if (!ctx)
    return;
  cr_rankset_free(ctx->ranks);
  free(ctx);
}

int cr_coll_ctx_nranks(const cr_coll_ctx *ctx) { return ctx->ranks->n; }

const cr_rankset *cr_coll_ctx_ranks(const cr_coll_ctx *ctx) {
  return ctx->ranks;
}

cr_status cr_coll_bound_eval(const cr_coll_ctx *ctx, const cr_coll_req *rq,
                             cr_coll_bound *out, cr_diag *d) {
  (void)ctx;
  (void)rq;
  (void)out;
  return cr_diag_set(d, CR_EUNSUPPORTED,
                     "collective bound: not implemented yet");
}

cr_status cr_coll_predict(const cr_coll_ctx *ctx, const cr_coll_req *rq,
                          cr_coll_pred *out, cr_diag *d) {
  (void)ctx;
  (void)rq;
  (void)out;
  return cr_diag_set(d, CR_EUNSUPPORTED,
                     "collective prediction: not implemented yet");
}

cr_status cr_coll_eval(const cr_coll_ctx *ctx, const cr_coll_req *rq,
                       cr_coll_result *out, cr_diag *d) {
  cr_status st = cr_coll_bound_eval(ctx, rq, &out->bound, d);
  if (st != CR_OK)
    return st;
  return cr_coll_predict(ctx, rq, &out->pred, d);
}

cr_status cr_coll_eval_topo(const cr_topo *topo, const cr_rankset *ranks,
                            const cr_coll_req *rq, cr_coll_result *out,
                            cr_diag *d) {
  cr_coll_ctx *ctx = NULL;
  cr_status st = cr_coll_ctx_new(topo, ranks, &ctx, d);
  if (st != CR_OK)
    return st;
  st = cr_coll_eval(ctx, rq, out, d);
  cr_coll_ctx_free(ctx);
  return st;
}

cr_status cr_coll_predict_all(const cr_coll_ctx *ctx, const cr_coll_req *rq,
                              cr_coll_pred out[CR_ALGO__COUNT][CR_PROTO__COUNT],
                              cr_diag *d) {
  (void)ctx;
  (void)rq;
  (void)out;
  return cr_diag_set(d, CR_EUNSUPPORTED,
                     "collective prediction: not implemented yet");
}
