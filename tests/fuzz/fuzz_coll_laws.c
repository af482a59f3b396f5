/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the collective model and the flow simulator on any
 * topology the loader accepts (model/bound.c, coll.c, algo*.c, route.c,
 * flowsim*.c, flowroute.c on a fuzzed graph; tests/fuzz/build.sh builds
 * it). Every topology that loads, up to COLL_LAWS_MAX_GPUS GPUs, is
 * evaluated on all its ranks and on three spread over it (first, middle,
 * last), for every collective under
 * NCCL's choice, every forced algorithm and protocol and every
 * custom-kernel mechanism, at sizes 0, 1, 64, 64^2 ... up to 1.2 TB; on a
 * set of up to COLL_LAWS_SIM_MAX_GPUS ranks the simulator runs each
 * collective too (coll_laws_sim).
 * fuzz-max-len: 16384
 * fuzz-seeds: tests/fixtures/xml topologies validate/corpus/topologies
 *
 * test_coll_props.c replays tests/fuzz/corpus/coll_laws through this
 * function and holds every shipped topology to the same laws
 * (coll_laws_series) at sizes x4 apart.
 * Properties (the laws): an evaluation either succeeds or refuses with a
 * message (an absurd figure: CR_EINVAL, CR_EINVARIANT); the bound is finite,
 * >= 0, 0 at 0 bytes, never decreasing with the size, and no higher with
 * in-switch help than without; a supported prediction is finite, 0 at 0
 * bytes, never below the bound (with or without in-switch help), equals its
 * closed form launch + steps x step + wire / rate, runs at a fraction of its
 * link in (0, 1], and, for a forced algorithm or a mechanism, never
 * decreases with the size; the simulation of a prediction ends, at a finite
 * time never below the bound.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "coll.h"
#include "flowsim.h"
#include "rankset.h"
#include "tests/fuzz/fuzz_topo_input.h"

/* Larger fuzzed graphs add evaluation time, not new paths; the simulator,
 * whose all-to-alls grow as the square of the ranks, runs on rank sets of
 * at most 8 (every input's three spread ranks). */
#define COLL_LAWS_MAX_GPUS 64
#define COLL_LAWS_SIM_MAX_GPUS 8

typedef enum { LAWS_KEPT, LAWS_REFUSED, LAWS_BROKEN } coll_laws_verdict;

/* What one series evaluates, for messages. */
static void laws_what(char *buf, size_t n, cr_coll coll, cr_algo a, cr_proto p, cr_mech m)
{
    snprintf(buf, n, "%s %s/%s/%s", cr_coll_name(coll),
             a == CR_ALGO_AUTO ? "auto" : cr_algo_name(a),
             p == CR_PROTO_AUTO ? "auto" : cr_proto_name(p),
             m == CR_MECH_NONE ? "nccl" : cr_mech_name(m));
}

static coll_laws_verdict laws_eval(const cr_coll_ctx *c, const char *what, cr_coll coll, double S,
                                   cr_algo a, cr_proto p, cr_mech m, bool in_network,
                                   cr_coll_result *r, char *why, size_t n)
{
    cr_coll_req rq = cr_coll_req_default(coll, S);
    rq.algo = a;
    rq.proto = p;
    rq.mech = m;
    rq.in_network = in_network;
    cr_diag d = {{0}};
    cr_status st = cr_coll_eval(c, &rq, r, &d);
    if (st == CR_OK)
        return LAWS_KEPT;
    snprintf(why, n, "%s at %.0f B: %.360s (status %d)", what, S, d.msg, (int)st);
    return (st == CR_EINVAL || st == CR_EINVARIANT) && d.msg[0] ? LAWS_REFUSED : LAWS_BROKEN;
}

/* The laws (above) for one collective, algorithm, protocol and mechanism
 * at sizes 0, 1, then x step up to 1.2 TB. LAWS_BROKEN names the first law
 * broken in why; LAWS_REFUSED says what the model refused. *checked counts
 * the sizes held to every law. */
static coll_laws_verdict coll_laws_series(const cr_coll_ctx *c, cr_coll coll, cr_algo a, cr_proto p,
                                          cr_mech m, double step, int *checked, char *why, size_t n)
{
    char what[96];
    laws_what(what, sizeof what, coll, a, p, m);
    double prev_bound = -1, prev_pred = -1;
    coll_laws_verdict v;
    for (double S = 0; S <= 1.2e12; S = S > 0 ? S * step : 1) {
        cr_coll_result rn, r;
        if ((v = laws_eval(c, what, coll, S, a, p, m, false, &rn, why, n)) != LAWS_KEPT ||
            (v = laws_eval(c, what, coll, S, a, p, m, true, &r, why, n)) != LAWS_KEPT)
            return v;
        if (rn.pred.supported && !(rn.pred.pred_s >= rn.bound.bound_s * (1 - 1e-12))) {
            snprintf(why, n, "%s at %.0f B, no in-network: prediction %g s below bound %g s", what,
                     S, rn.pred.pred_s, rn.bound.bound_s);
            return LAWS_BROKEN;
        }
        if (r.bound.bound_s > rn.bound.bound_s * (1 + 1e-12)) {
            snprintf(why, n,
                     "%s at %.0f B: bound with in-switch help %g s above the one without %g s",
                     what, S, r.bound.bound_s, rn.bound.bound_s);
            return LAWS_BROKEN;
        }
        if (!(isfinite(r.bound.bound_s) && r.bound.bound_s >= 0) ||
            (S == 0 && r.bound.bound_s != 0)) {
            snprintf(why, n, "%s at %.0f B: bound %g s", what, S, r.bound.bound_s);
            return LAWS_BROKEN;
        }
        if (r.bound.bound_s < prev_bound * (1 - 1e-12)) {
            snprintf(why, n, "%s: bound decreases at %.0f B: %g < %g s", what, S, r.bound.bound_s,
                     prev_bound);
            return LAWS_BROKEN;
        }
        prev_bound = r.bound.bound_s;
        if (!r.pred.supported)
            continue;
        const cr_coll_pred *q = &r.pred;
        if (!isfinite(q->pred_s) || (S == 0 && q->pred_s != 0)) {
            snprintf(why, n, "%s (ran %s/%s) at %.0f B: prediction %g s", what,
                     cr_algo_name(q->algo), cr_proto_name(q->proto), S, q->pred_s);
            return LAWS_BROKEN;
        }
        if (!(q->pred_s >= r.bound.bound_s * (1 - 1e-12))) {
            snprintf(why, n, "%s (ran %s/%s) at %.0f B: prediction %g s below bound %g s (%s)",
                     what, cr_algo_name(q->algo), cr_proto_name(q->proto), S, q->pred_s,
                     r.bound.bound_s, r.bound.binding);
            return LAWS_BROKEN;
        }
        /* the closed form a simulator expands (coll.h cr_coll_pred) holds
         * exactly, and the efficiency it runs at is a fraction of the link */
        double parts = q->launch_s + q->n_steps * q->step_lat_s +
                       (q->wire_bytes > 0 ? q->wire_bytes / q->wire_Bps : 0);
        if (fabs(parts - q->pred_s) > 1e-9 * q->pred_s + 1e-15) {
            snprintf(why, n, "%s at %.0f B: launch + steps x step + wire/rate = %g s, pred %g s",
                     what, S, parts, q->pred_s);
            return LAWS_BROKEN;
        }
        if (q->wire_bytes > 0 && !(q->bw_eff > 0 && q->bw_eff <= 1 + 1e-12)) {
            snprintf(why, n, "%s at %.0f B: bw_eff %g outside (0, 1]", what, S, q->bw_eff);
            return LAWS_BROKEN;
        }
        if (a != CR_ALGO_AUTO || m != CR_MECH_NONE) {
            if (q->pred_s < prev_pred * (1 - 1e-12)) {
                snprintf(why, n, "%s: prediction decreases at %.0f B: %g < %g s", what, S,
                         q->pred_s, prev_pred);
                return LAWS_BROKEN;
            }
            prev_pred = q->pred_s;
        }
        (*checked)++;
    }
    return LAWS_KEPT;
}

/* Every series of one rank set: NCCL's choice, each forced algorithm and
 * protocol, each mechanism, for every collective. Stops at the first law
 * broken (why names it); a refusal ends only its own series. */
static coll_laws_verdict coll_laws_all(const cr_coll_ctx *c, double step, int *checked,
                                       int *refused, char *why, size_t n)
{
    for (int coll = 0; coll < CR_COLL__COUNT; coll++) {
        for (int s = -1; s < CR_ALGO__COUNT * CR_PROTO__COUNT + CR_MECH__COUNT; s++) {
            cr_algo a = CR_ALGO_AUTO;
            cr_proto p = CR_PROTO_AUTO;
            cr_mech m = CR_MECH_NONE;
            if (s >= CR_ALGO__COUNT * CR_PROTO__COUNT) {
                m = (cr_mech)(s - CR_ALGO__COUNT * CR_PROTO__COUNT);
            } else if (s >= 0) {
                a = (cr_algo)(s / CR_PROTO__COUNT);
                p = (cr_proto)(s % CR_PROTO__COUNT);
            }
            coll_laws_verdict v =
                coll_laws_series(c, (cr_coll)coll, a, p, m, step, checked, why, n);
            if (v == LAWS_BROKEN)
                return v;
            if (v == LAWS_REFUSED)
                (*refused)++;
        }
    }
    return LAWS_KEPT;
}

/* The simulator's law: it runs one implementation on the same graph, so
 * it is never faster than the bound (doc/bounds.md), and it ends at a
 * finite time. Every collective under NCCL's choice and every algorithm
 * the simulator expands, at three sizes (latency, middle, bandwidth), on
 * the ranks of c. Expansions the simulator refuses
 * (CR_EUNSUPPORTED: PAT, CollNet) are skipped; anything else it refuses,
 * or a time below the bound, breaks the law. */
static coll_laws_verdict coll_laws_sim(const cr_topo *t, const cr_coll_ctx *c, int *checked,
                                       char *why, size_t n)
{
    static const cr_algo algos[] = {CR_ALGO_AUTO, CR_ALGO_RING,     CR_ALGO_TREE,
                                    CR_ALGO_NVLS, CR_ALGO_NVLSTREE, CR_ALGO_DIRECT};
    static const double sizes[] = {256, 1 << 20, 1 << 26};
    const cr_rankset *rs = cr_coll_ctx_ranks(c);
    if (rs->n < 2)
        return LAWS_KEPT;
    for (int coll = 0; coll < CR_COLL__COUNT; coll++)
        for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                char what[96];
                laws_what(what, sizeof what, (cr_coll)coll, algos[a], CR_PROTO_AUTO, CR_MECH_NONE);
                cr_coll_result r;
                coll_laws_verdict v = laws_eval(c, what, (cr_coll)coll, sizes[z], algos[a],
                                                CR_PROTO_AUTO, CR_MECH_NONE, true, &r, why, n);
                if (v == LAWS_BROKEN)
                    return v;
                if (v == LAWS_REFUSED || !r.pred.supported)
                    continue;
                cr_diag d = {{0}};
                cr_sim *s = NULL;
                if (cr_sim_new(t, &s, &d) != CR_OK) {
                    snprintf(why, n, "%s: cr_sim_new: %.360s", what, d.msg);
                    return LAWS_BROKEN;
                }
                cr_sim_coll_spec sp = cr_sim_coll_spec_from_pred((cr_coll)coll, sizes[z], &r.pred);
                int op = -1;
                cr_status st = cr_sim_coll_add(s, &sp, rs->ranks, rs->n, &op, &d);
                if (st == CR_OK)
                    st = cr_sim_run(s, &d);
                cr_sim_op_result res = st == CR_OK ? cr_sim_op_get(s, op) : (cr_sim_op_result){0};
                double got = res.end_s - res.start_s;
                cr_sim_free(s);
                if (st == CR_EUNSUPPORTED)
                    continue;
                if (st != CR_OK) {
                    snprintf(why, n, "%s (ran %s) at %.0f B: the simulator: %.360s", what,
                             cr_algo_name(r.pred.algo), sizes[z], d.msg);
                    return LAWS_BROKEN;
                }
                if (!isfinite(got) || got < r.bound.bound_s * (1 - 1e-9)) {
                    snprintf(why, n,
                             "%s (ran %s) at %.0f B: simulated %.6g us, below the bound "
                             "%.6g us (%s)",
                             what, cr_algo_name(r.pred.algo), sizes[z], got * 1e6,
                             r.bound.bound_s * 1e6, r.bound.binding);
                    return LAWS_BROKEN;
                }
                (*checked)++;
            }
    return LAWS_KEPT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cr_topo *t = fuzz_topo_input(data, size, COLL_LAWS_MAX_GPUS);
    if (!t)
        return 0;
    cr_diag d = {{0}};
    /* all ranks, and three spread over the graph (first, middle, last:
     * across nodes where there are nodes) */
    char spread[48];
    snprintf(spread, sizeof spread, "0,%d,%d", t->n_gpus / 2, t->n_gpus - 1);
    const char *sets[2] = {NULL, t->n_gpus >= 3 ? spread : NULL};
    for (int i = 0; i < 2; i++) {
        if (i > 0 && !sets[i])
            break;
        cr_rankset *rs = NULL;
        if (sets[i] && cr_rankset_parse(sets[i], t->n_gpus, &rs, &d) != CR_OK)
            abort();
        cr_coll_ctx *c = NULL;
        if (cr_coll_ctx_new(t, rs, &c, &d) != CR_OK) {
            /* an absurd figure, or spread ranks that meet only through GPUs
             * outside the set (doc/bounds.md 1.9), and it says which */
            if (c || !d.msg[0])
                abort();
            cr_rankset_free(rs);
            continue;
        }
        char why[512];
        int checked = 0, refused = 0;
        if (coll_laws_all(c, 64, &checked, &refused, why, sizeof why) == LAWS_BROKEN ||
            (cr_coll_ctx_nranks(c) <= COLL_LAWS_SIM_MAX_GPUS &&
             coll_laws_sim(t, c, &checked, why, sizeof why) == LAWS_BROKEN)) {
            fprintf(stderr, "fuzz_coll_laws: ranks %s: %s\n", sets[i] ? sets[i] : "all", why);
            abort();
        }
        cr_coll_ctx_free(c);
        cr_rankset_free(rs);
    }
    cr_topo_free(t);
    return 0;
}
