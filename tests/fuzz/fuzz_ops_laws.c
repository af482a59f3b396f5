/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the operator catalog on any topology the loader
 * accepts (model/ops*.c and the collective model under it, on a fuzzed
 * graph; tests/fuzz/build.sh builds it). Every topology that loads, up to
 * OPS_LAWS_MAX_GPUS GPUs, evaluates every operator of the catalog with its
 * defaults.
 * fuzz-max-len: 16384
 * fuzz-seeds: tests/fixtures/xml topologies validate/corpus/topologies
 *
 * test_ops_props.c replays tests/fuzz/corpus/ops_laws through this function
 * and holds every shipped topology, with the shipped suites' problems and
 * the catalog at many sizes, to the same laws (ops_laws_case).
 * Properties (the laws): an evaluation succeeds or refuses with a message
 * (CR_EINVAL, CR_EUNSUPPORTED: the problem does not fit the machine, or a
 * figure is absurd); the bound is finite and > 0 (0 only where every byte
 * fits a cache of unknown bandwidth, which the binding then names), at
 * most the baseline (headroom >= 1) and at most every prediction (each
 * schedule's too);
 * attainable >= bound; binding, schedule and why named; an overlap
 * prediction is the faster of its two schedules, `why` naming it, and says
 * so when neither beats the PyTorch + NCCL baseline; the inter-SM
 * schedule's communication SMs fewer than the GPU has.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "tests/fuzz/fuzz_topo_input.h"

/* Larger fuzzed graphs add evaluation time, not new paths. */
#define OPS_LAWS_MAX_GPUS 64

typedef enum { OPS_LAWS_KEPT, OPS_LAWS_REFUSED, OPS_LAWS_BROKEN } ops_laws_verdict;

/* The laws (above) for one operator evaluation on t; where names the case
 * in messages. OPS_LAWS_BROKEN names the first law broken in why;
 * OPS_LAWS_REFUSED says why the operator does not run there. */
static ops_laws_verdict ops_laws_case(const cr_topo *t, const char *where, const cr_op_def *op,
                                      const cr_op_params *p, char *why, size_t n)
{
    cr_op_result r;
    cr_diag d = {{0}};
    cr_status st = cr_op_eval(t, op, p, &r, &d);
    if (st != CR_OK) {
        snprintf(why, n, "%s on %s: %.300s (%s)", where, t->name, d.msg, cr_strerror(st));
        /* only "does not fit this machine" reasons, with a message */
        return (st == CR_EINVAL || st == CR_EUNSUPPORTED) && d.msg[0] ? OPS_LAWS_REFUSED
                                                                      : OPS_LAWS_BROKEN;
    }
    /* 0 only where every byte fits a cache of unknown bandwidth (a GPU
     * model with l2 but no l2-bw: doc/bounds.md 1.4), which it then names,
     * with no headroom ("no bound") */
    bool free_cache = r.bound_s == 0 && r.headroom == 0 &&
                      (!strcmp(r.binding, "l2") || !strcmp(r.binding, "llc"));
    if (!((r.bound_s > 0 || free_cache) && isfinite(r.bound_s))) {
        snprintf(why, n, "%s on %s: bound %g (%s)", where, t->name, r.bound_s, r.binding);
        return OPS_LAWS_BROKEN;
    }
    if (!(r.bound_s <= r.baseline_s * (1 + 1e-12)) || !(r.headroom >= 1 - 1e-12 || free_cache)) {
        snprintf(why, n, "%s on %s: bound %g us > baseline %g us (headroom %g)", where, t->name,
                 r.bound_s * 1e6, r.baseline_s * 1e6, r.headroom);
        return OPS_LAWS_BROKEN;
    }
    if (!(r.bound_s <= r.pred_s * (1 + 1e-12))) {
        snprintf(why, n, "%s on %s: prediction %g us below the bound %g us", where, t->name,
                 r.pred_s * 1e6, r.bound_s * 1e6);
        return OPS_LAWS_BROKEN;
    }
    if (r.has_overlap) {
        if ((isfinite(r.intra.pred_s) && !(r.bound_s <= r.intra.pred_s * (1 + 1e-12))) ||
            !(r.bound_s <= r.inter.pred_s * (1 + 1e-12))) {
            snprintf(why, n,
                     "%s on %s: a schedule below the bound %g us (intra-SM %g, inter-SM %g)", where,
                     t->name, r.bound_s * 1e6, r.intra.pred_s * 1e6, r.inter.pred_s * 1e6);
            return OPS_LAWS_BROKEN;
        }
        if (!(r.inter.comm_sms >= 0 && r.inter.comm_sms < cr_topo_gpu_spec(t, 0)->sms)) {
            snprintf(why, n, "%s on %s: %d comm SMs", where, t->name, r.inter.comm_sms);
            return OPS_LAWS_BROKEN;
        }
        /* the prediction is the winner, and `why` names it */
        bool inter = r.inter.pred_s < r.intra.pred_s;
        if (r.pred_s != fmin(r.intra.pred_s, r.inter.pred_s) ||
            strcmp(r.schedule, inter ? "inter-sm" : "intra-sm") != 0 ||
            !strstr(r.why, inter ? "inter-SM" : "intra-SM")) {
            snprintf(
                why, n,
                "%s on %s: schedule %s (%g us) is not the faster of intra %g, inter %g: %.200s",
                where, t->name, r.schedule, r.pred_s * 1e6, r.intra.pred_s * 1e6,
                r.inter.pred_s * 1e6, r.why);
            return OPS_LAWS_BROKEN;
        }
        /* a fused schedule slower than the baseline says so */
        if (r.pred_s > r.baseline_s && !strstr(r.why, "neither beats the PyTorch + NCCL")) {
            snprintf(why, n, "%s on %s: prediction %g us > baseline %g us, unexplained: %.200s",
                     where, t->name, r.pred_s * 1e6, r.baseline_s * 1e6, r.why);
            return OPS_LAWS_BROKEN;
        }
    }
    if (!(r.attainable_s >= r.bound_s * (1 - 1e-12))) {
        snprintf(why, n, "%s on %s: attainable %g below bound %g", where, t->name, r.attainable_s,
                 r.bound_s);
        return OPS_LAWS_BROKEN;
    }
    if (strlen(r.binding) == 0 || strlen(r.schedule) == 0 || strlen(r.why) == 0) {
        snprintf(why, n, "%s on %s: empty binding/schedule/why", where, t->name);
        return OPS_LAWS_BROKEN;
    }
    return OPS_LAWS_KEPT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cr_topo *t = fuzz_topo_input(data, size, OPS_LAWS_MAX_GPUS);
    if (!t)
        return 0;
    for (int k = 0; cr_op_at(k); k++) {
        const cr_op_def *op = cr_op_at(k);
        cr_op_params p;
        memset(&p, 0, sizeof p);
        cr_op_params_defaults(op, &p);
        char why[640];
        if (ops_laws_case(t, cr_op_name(op), op, &p, why, sizeof why) == OPS_LAWS_BROKEN) {
            fprintf(stderr, "fuzz_ops_laws: %s\n", why);
            abort();
        }
    }
    cr_topo_free(t);
    return 0;
}
