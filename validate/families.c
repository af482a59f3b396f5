/* SPDX-License-Identifier: MIT */
/*
 * validate: the families of cases, one entry each (as nccl-tests drives its
 * collectives from one struct each): the word after "cr:", how a range's
 * activities are timed (read_trace.c), the case's label, its match to the
 * model (ops' and coll's cases: this file only maps a case's keys to their
 * parameters) and what it gives calibration (calibrate.c). A new family is
 * a cr_vfam value and a row of the table at the end.
 */
#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sbuf.h"
#include "bound.h"
#include "coll.h"
#include "dtype.h"
#include "ops.h"
#include "rankset.h"
#include "route.h"
#include "validate.h"
#include "validate_priv.h"

/* --- labels ---------------------------------------------------------------------- */

/* warm cases (cache=warm: one set back to back) say so; cold ones keep the
 * name they always had */
static void label_hbm(const cr_vcase *c, const char *b, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s%s", cr_vstr_or(c, "op", "?"), b,
             strcmp(cr_vstr_or(c, "cache", ""), "warm") == 0 ? " warm" : "");
}

static void label_ce(const cr_vcase *c, const char *b, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s %s", cr_vstr_or(c, "dir", "?"), cr_vstr_or(c, "host", "?"), b);
}

static void label_mech(const cr_vcase *c, const char *b, char *buf, size_t n)
{
    snprintf(buf, n, "%s sms=%s %s", cr_vstr_or(c, "mech", "?"), cr_vstr_or(c, "sms", "?"), b);
}

static void label_gemm(const cr_vcase *c, const char *b, char *buf, size_t n)
{
    (void)b;
    snprintf(buf, n, "%s %sx%sx%s", cr_vstr_or(c, "dtype", "?"), cr_vstr_or(c, "m", "?"),
             cr_vstr_or(c, "n", "?"), cr_vstr_or(c, "k", "?"));
}

static void label_launch(const cr_vcase *c, const char *b, char *buf, size_t n)
{
    (void)b;
    cr_str_copy(buf, n, cr_vstr_or(c, "kind", "?"));
}

static void label_nccl(const cr_vcase *c, const char *b, char *buf, size_t n)
{
    bool algo = strcmp(cr_vstr_or(c, "algo", "auto"), "auto") != 0;
    snprintf(buf, n, "%s n=%s %s%s%s", cr_vstr_or(c, "coll", "?"), cr_vstr_or(c, "nranks", "?"), b,
             algo ? " " : "", algo ? cr_vstr_or(c, "algo", "") : "");
}

static void label_p2p(const cr_vcase *c, const char *b, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s sms=%s %s", cr_vstr_or(c, "mech", "?"), cr_vstr_or(c, "mode", "?"),
             cr_vstr_or(c, "sms", "?"), b);
}

static void label_fused(const cr_vcase *c, const char *b, char *buf, size_t n)
{
    (void)b;
    snprintf(buf, n, "%s %s %sx%sx%s p=%s", cr_vstr_or(c, "op", "?"), cr_vstr_or(c, "variant", "?"),
             cr_vstr_or(c, "m", "?"), cr_vstr_or(c, "n", "?"), cr_vstr_or(c, "k", "?"),
             cr_vstr_or(c, "ranks", "?"));
}

/* --- model match ----------------------------------------------------------------- */

static cr_status need(const cr_vmeas *m, const char *key, double *v, cr_diag *d)
{
    cr_diag cd = {{0}};
    if (cr_vcase_num(&m->c, key, v, &cd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, cd.msg);
    return CR_OK;
}

static void from_op(cr_vresult *r, const cr_op_result *o)
{
    r->has_bound = true;
    r->bound_s = o->bound_s;
    r->bound_cold_s = o->bound_cold_s;
    cr_str_copy(r->binding, sizeof r->binding, o->binding);
    r->has_pred = true;
    r->pred_s = o->pred_s;
}

/* The bound from measured ceilings: the op's compute and HBM terms scaled
 * by peak / measured where the GPU model carries measured figures. */
static double attainable(const cr_topo *t, const cr_op_result *o, cr_dtype dt, bool compute)
{
    const cr_gpu_spec *g = t->n_gpus > 0 ? cr_topo_gpu_spec(t, 0) : NULL;
    if (!g)
        return 0;
    double tc = 0, th = 0;
    bool any = false;
    /* the compute term took the bound's matrix rate (an fp32 or fp64
     * product's emulation where that is faster than the peak) */
    double peak = o->mma_bound_flops > 0 ? o->mma_bound_flops : g->peak_flops[dt];
    if (compute && g->meas_flops[dt] > 0 && peak > 0) {
        tc = o->t_compute_s * peak / g->meas_flops[dt];
        any = true;
    } else {
        tc = o->t_compute_s;
    }
    if ((g->meas_hbm_Bps > 0 && g->hbm_Bps > 0) || g->meas_l2_Bps > 0) {
        /* the warm memory floor with the measured HBM and L2 ceilings */
        th = fmax(cr_op_attainable_mem_s(g, o->hbm_bytes, false), o->t_hbm_s);
        any = true;
    } else {
        th = o->t_hbm_s;
    }
    if (!any)
        return 0;
    return fmax(fmax(tc, th), o->t_comm_s) + o->lat_s;
}

static cr_status eval_hbm(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *opts,
                          cr_vresult *r, cr_diag *d)
{
    (void)opts;
    double bytes, rd, wr, fl;
    cr_status st;
    if ((st = need(m, "bytes", &bytes, d)) || (st = need(m, "rd_bytes", &rd, d)) ||
        (st = need(m, "wr_bytes", &wr, d)))
        return st;
    fl = cr_vnum_or(&m->c, "flops", 0);
    if (!(bytes > 0))
        return cr_diag_set(d, CR_EINVAL, "%s: hbm case with bytes=%g", m->source, bytes);
    /* cache= decides which bound holds the case (a misspelt warm was cold) */
    const char *cache = cr_vstr_or(&m->c, "cache", "cold");
    if (strcmp(cache, "cold") && strcmp(cache, "warm"))
        return cr_diag_set(d, CR_EINVAL, "%s: cache=%.40s: give cache=warm or cache=cold",
                           m->source, cache);
    /* fp32 elements of `bytes` per array; reads and writes as arrays. */
    double elems = bytes / 4, reads = rd / bytes, writes = wr / bytes;
    cr_op_result o;
    memset(&o, 0, sizeof o);
    st = cr_op_eval_elementwise(t, elems, reads, writes, fl / elems, CR_DT_FP32, &o, d);
    if (st != CR_OK)
        return st;
    from_op(r, &o);
    r->attainable_s = attainable(t, &o, CR_DT_FP32, false);
    cr_str_copy(r->impl, sizeof r->impl, "stream kernel");
    if (fabs(o.hbm_bytes - (rd + wr)) > 1e-6 * (rd + wr))
        cr_snprintf_c(r->note, sizeof r->note,
                      "model counts %.0f HBM bytes, the kernel declares %.0f", o.hbm_bytes,
                      rd + wr);
    return CR_OK;
}

static cr_status eval_memcpy(const cr_topo *t, const cr_vmeas *m, const char *dir, bool pinned,
                             cr_vresult *r, cr_diag *d)
{
    double bytes;
    cr_status st = need(m, "bytes", &bytes, d);
    if (st)
        return st;
    cr_op_result o;
    memset(&o, 0, sizeof o);
    if ((st = cr_op_eval_memcpy(t, dir, pinned, bytes, &o, d)) != CR_OK)
        return st;
    from_op(r, &o);
    r->attainable_s = attainable(t, &o, CR_DT_FP32, false);
    cr_str_copy(r->impl, sizeof r->impl, "copy engine");
    return CR_OK;
}

static cr_status eval_ce(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *opts,
                         cr_vresult *r, cr_diag *d)
{
    (void)opts;
    const char *dir = cr_vcase_get(&m->c, "dir"), *host = cr_vstr_or(&m->c, "host", "pinned");
    if (!dir || (strcmp(dir, "d2d") && strcmp(dir, "h2d") && strcmp(dir, "d2h")))
        return cr_diag_set(d, CR_EINVAL, "%s: ce case needs dir=d2d, h2d or d2h (got %s)",
                           m->source, dir ? dir : "none");
    /* a misspelt host= was taken as pinned, whose bound is the tighter;
     * a device copy has no host buffer (crbench: host=none) */
    bool d2d = strcmp(dir, "d2d") == 0;
    if (strcmp(host, "pinned") && strcmp(host, "pageable") && !(d2d && !strcmp(host, "none")))
        return cr_diag_set(d, CR_EINVAL, "%s: host=%.40s: give host=pinned or host=pageable%s",
                           m->source, host, d2d ? " (or none: a device copy)" : "");
    return eval_memcpy(t, m, dir, strcmp(host, "pageable") != 0, r, d);
}

static cr_status eval_mech(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *opts,
                           cr_vresult *r, cr_diag *d)
{
    (void)opts;
    const char *mech = cr_vstr_or(&m->c, "mech", "?");
    if (strcmp(mech, "ce") == 0) {
        cr_status st = eval_memcpy(t, m, "d2d", true, r, d);
        if (st == CR_OK)
            cr_str_copy(r->impl, sizeof r->impl, "copy engine");
        return st;
    }
    double bytes, sms;
    cr_status st;
    if ((st = need(m, "bytes", &bytes, d)))
        return st;
    if (strcmp(mech, "ldst") && strcmp(mech, "tma")) {
        /* a mechanism ops has no model for: the bound only */
        if ((st = eval_memcpy(t, m, "d2d", true, r, d)) != CR_OK)
            return st;
        r->has_pred = false;
        r->pred_s = 0;
        snprintf(r->impl, sizeof r->impl, "%.40s", mech);
        snprintf(r->note, sizeof r->note,
                 "no prediction: ops models local copies by ldst, tma and ce (got mech=%.40s)",
                 mech);
        return CR_OK;
    }
    if ((st = need(m, "sms", &sms, d)))
        return st;
    const cr_gpu_spec *g = t->n_gpus > 0 ? cr_topo_gpu_spec(t, 0) : NULL;
    if (!g || !(sms >= 1) || sms > g->sms || sms != floor(sms))
        return cr_diag_set(d, CR_EINVAL, "%s: mech case with sms=%g (GPU 0 of %s has 1 to %d SMs)",
                           m->source, sms, t->name, g ? g->sms : 0);
    cr_op_result o;
    memset(&o, 0, sizeof o);
    if ((st = cr_op_eval_sm_copy(t, mech, (int)sms, bytes, &o, d)) != CR_OK)
        return st;
    from_op(r, &o);
    r->attainable_s = attainable(t, &o, CR_DT_FP32, false);
    if ((int)sms == g->sms)
        snprintf(r->impl, sizeof r->impl, "%s, all %d SMs", mech, g->sms);
    else
        cr_snprintf_c(r->impl, sizeof r->impl, "%s, %.0f SM%s", mech, sms, sms == 1 ? "" : "s");
    return CR_OK;
}

static cr_status eval_gemm(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *opts,
                           cr_vresult *r, cr_diag *d)
{
    (void)opts;
    double mm, nn, kk;
    cr_status st;
    if ((st = need(m, "m", &mm, d)) || (st = need(m, "n", &nn, d)) || (st = need(m, "k", &kk, d)))
        return st;
    cr_dtype dt;
    cr_diag dd = {{0}};
    const char *dts = cr_vstr_or(&m->c, "dtype", "?");
    if (cr_dtype_parse(dts, &dt, &dd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    cr_op_result o;
    memset(&o, 0, sizeof o);
    if ((st = cr_op_eval_gemm(t, mm, nn, kk, dt, &o, d)) != CR_OK)
        return st;
    from_op(r, &o);
    r->attainable_s = attainable(t, &o, dt, true);
    snprintf(r->impl, sizeof r->impl, "cuBLASLt %s", dts);
    double fl = cr_vnum_or(&m->c, "flops", 0);
    if (fl > 0 && fabs(fl - o.flops) > 1e-9 * fl)
        cr_snprintf_c(r->note, sizeof r->note, "model counts %.4g FLOP, the kernel declares %.4g",
                      o.flops, fl);
    return CR_OK;
}

/* Launch cases measure host and GPU front-end costs, which have no physical
 * floor (no bound); the predictions are ops' launch constants
 * (cr_op_launch_s): "async" the spacing of back-to-back launches (the
 * host's launch rate), "sync" launch + stream synchronize, "graph" the
 * spacing of kernels replayed from a CUDA graph, "event" event record +
 * synchronize. */
static cr_status eval_launch(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *opts,
                             cr_vresult *r, cr_diag *d)
{
    (void)opts;
    const char *kind = cr_vstr_or(&m->c, "kind", "?");
    r->has_bound = false;
    cr_str_copy(r->binding, sizeof r->binding, "-");
    cr_diag dd = {{0}};
    double s = 0;
    (void)d;
    if (cr_op_launch_s(t, kind, &s, &dd) != CR_OK || !strcmp(kind, "kernel")) {
        /* a kind ops has no constant for: measured only */
        snprintf(r->impl, sizeof r->impl, "%.40s", kind);
        snprintf(r->note, sizeof r->note,
                 "no prediction: ops has launch constants for kind=async, sync, graph and "
                 "event (got %.40s)",
                 kind);
        return CR_OK;
    }
    r->has_pred = true;
    r->pred_s = s;
    snprintf(r->impl, sizeof r->impl, "%s%s", kind, strcmp(kind, "graph") ? "" : " launches");
    cr_str_copy(r->note, sizeof r->note, "no bound: a launch has no physical lower limit");
    return CR_OK;
}

static cr_status eval_coll(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *o,
                           cr_vresult *r, cr_diag *d)
{
    double bytes, n;
    cr_status st;
    if ((st = need(m, "bytes", &bytes, d)))
        return st;
    cr_coll coll;
    cr_mech mech = CR_MECH_NONE;
    cr_diag dd = {{0}};
    if (m->c.family == CR_VFAM_P2P) {
        coll = CR_COLL_SENDRECV;
        n = 2;
        if (cr_mech_parse(cr_vstr_or(&m->c, "mech", "?"), &mech, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    } else {
        if ((st = need(m, "nranks", &n, d)))
            return st;
        if (cr_coll_parse(cr_vstr_or(&m->c, "coll", "?"), &coll, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    }
    /* A forced algorithm or protocol, or an element type, that does not
     * parse is an error: cr_vmeas_coll_req() would predict NCCL's own
     * choice (or fp32) under a label that still names the forced one. */
    {
        const char *algo = cr_vstr_or(&m->c, "algo", "auto"),
                   *proto = cr_vstr_or(&m->c, "proto", "auto"),
                   *dts = cr_vstr_or(&m->c, "dtype", "fp32");
        cr_algo a;
        cr_proto p;
        cr_dtype dt;
        if (strcmp(algo, "auto") && cr_algo_parse(algo, &a, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: algo=%.40s: %s", m->source, algo, dd.msg);
        if (strcmp(proto, "auto") && cr_proto_parse(proto, &p, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: proto=%.40s: %s", m->source, proto, dd.msg);
        if (cr_dtype_parse(dts, &dt, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: dtype=%.40s: %s", m->source, dts, dd.msg);
    }
    if (!(n >= 1) || n > t->n_gpus) {
        cr_snprintf_c(r->note, sizeof r->note,
                      "%.0f ranks measured, topology %s has %d GPUs: use --topo with enough GPUs",
                      n, t->name, t->n_gpus);
        return CR_OK;
    }
    cr_rankset *rs = NULL;
    if (o && o->ranks) {
        if ((st = cr_rankset_parse(o->ranks, t->n_gpus, &rs, d)) != CR_OK)
            return st;
        if (rs->n != (int)n) {
            cr_snprintf_c(r->note, sizeof r->note, "--ranks has %d ranks, the case %.0f", rs->n, n);
            cr_rankset_free(rs);
            return CR_OK;
        }
    } else {
        /* the first n GPUs (n is at most the topology's GPUs, above); a
         * p2p case's own src and dst where it names them */
        int *ids = malloc((size_t)n * sizeof *ids);
        if (!ids)
            return cr_diag_set(d, CR_ENOMEM, "out of memory");
        for (int i = 0; i < (int)n; i++)
            ids[i] = i;
        if (m->c.family == CR_VFAM_P2P) {
            double src = cr_vnum_or(&m->c, "src", 0), dst = cr_vnum_or(&m->c, "dst", 1);
            if (!(src >= 0 && src < t->n_gpus && dst >= 0 && dst < t->n_gpus && src != dst)) {
                free(ids);
                return cr_diag_set(d, CR_EINVAL,
                                   "%s: p2p src=%g dst=%g: two different GPUs of %s (0 to %d) "
                                   "are needed",
                                   m->source, src, dst, t->name, t->n_gpus - 1);
            }
            ids[0] = (int)src;
            ids[1] = (int)dst;
        }
        st = cr_rankset_from_array(ids, (int)n, t->n_gpus, &rs, d);
        free(ids);
        if (st != CR_OK)
            return st;
    }
    cr_coll_req rq = cr_vmeas_coll_req(m, coll, bytes, (int)n, mech);
    cr_coll_result res;
    memset(&res, 0, sizeof res);
    st = cr_vcache_eval(o ? o->cache : NULL, t, rs, &rq, &res, d);
    cr_rankset_free(rs);
    if (st == CR_EUNSUPPORTED) {
        snprintf(r->note, sizeof r->note, "coll: %.150s", d ? d->msg : "unsupported");
        if (d)
            d->msg[0] = 0;
        return CR_OK;
    }
    if (st != CR_OK)
        return st;
    r->has_bound = true;
    r->bound_s = res.bound.bound_s;
    cr_str_copy(r->binding, sizeof r->binding, res.bound.binding);
    if (res.pred.supported && res.pred.pred_s > 0) {
        r->has_pred = true;
        r->pred_s = res.pred.pred_s;
        if (mech != CR_MECH_NONE)
            snprintf(r->impl, sizeof r->impl, "%s %d SM%s", cr_mech_name(res.pred.mech),
                     res.pred.nchannels, res.pred.nchannels == 1 ? "" : "s");
        else
            snprintf(r->impl, sizeof r->impl, "%s/%s", cr_algo_name(res.pred.algo),
                     cr_proto_name(res.pred.proto));
    } else if (bytes == 0) {
        /* nccl-tests prints such rows where the size is under one element
         * per rank: nothing moves, nothing to predict */
        cr_str_copy(r->note, sizeof r->note,
                    "no prediction: a 0-byte row (under one element a rank)");
    } else {
        snprintf(r->note, sizeof r->note, "no prediction: %s",
                 res.pred.why[0] ? res.pred.why : "unsupported");
    }
    return CR_OK;
}

/* A fused operator (kernels/fused/fused.cu): ops' bound; ops' PyTorch +
 * NCCL baseline for variant=baseline; for variant=overlap the chunked
 * schedule (cr_vfused_pipeline_s) of ops' GEMM of one piece and coll's
 * NCCL prediction for one piece's collective, slowed by the measured
 * interference while both run. Either is no faster than the host can issue
 * it when one process drives every GPU of the case: steps x GPUs x the
 * host's step time (doc/validation.md). */
static cr_status eval_fused(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *opts,
                            cr_vresult *r, cr_diag *d)
{
    const char *opn = cr_vstr_or(&m->c, "op", "?"), *variant = cr_vstr_or(&m->c, "variant", "?");
    int kind = !strcmp(opn, "ag_gemm")   ? 0
               : !strcmp(opn, "gemm_rs") ? 1
               : !strcmp(opn, "gemm_ar") ? 2
                                         : -1;
    if (kind < 0)
        return cr_diag_set(d, CR_EINVAL,
                           "%s: fused case op=%.40s: validate models ag_gemm, gemm_rs and gemm_ar",
                           m->source, opn);
    bool overlap = !strcmp(variant, "overlap");
    if (!overlap && strcmp(variant, "baseline"))
        return cr_diag_set(d, CR_EINVAL,
                           "%s: fused case variant=%.40s: expected baseline or overlap", m->source,
                           variant);
    double mm, nn, kk, ranks, chunks = 1;
    cr_status st;
    if ((st = need(m, "m", &mm, d)) || (st = need(m, "n", &nn, d)) || (st = need(m, "k", &kk, d)) ||
        (st = need(m, "ranks", &ranks, d)) || (overlap && (st = need(m, "chunks", &chunks, d))))
        return st;
    if (!(ranks >= 1) || ranks != floor(ranks) || ranks > 1024 || !(chunks >= 1) ||
        chunks != floor(chunks) || chunks > 4096)
        return cr_diag_set(d, CR_EINVAL,
                           "%s: fused case ranks=%g chunks=%g: need whole numbers, ranks 1-1024, "
                           "chunks 1-4096",
                           m->source, ranks, chunks);
    if (ranks > t->n_gpus) {
        cr_snprintf_c(r->note, sizeof r->note,
                      "%.0f ranks measured, topology %s has %d GPUs: use --topo with enough GPUs",
                      ranks, t->name, t->n_gpus);
        return CR_OK;
    }
    const cr_op_def *op = NULL;
    cr_op_params p;
    cr_diag dd = {{0}};
    if (cr_op_find(opn, &op, &dd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    memset(&p, 0, sizeof p);
    cr_op_params_defaults(op, &p);
    const char *keys[] = {"m", "n", "k", "ranks", "dtype"},
               *pnames[] = {"m", "n", "k", "tp", "dtype"};
    for (int i = 0; i < 5; i++) {
        const char *v = i == 4 ? cr_vstr_or(&m->c, "dtype", "bf16") : cr_vcase_get(&m->c, keys[i]);
        if (cr_op_param_set(op, &p, pnames[i], v, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    }
    cr_op_result o;
    if (cr_op_eval(t, op, &p, &o, &dd) != CR_OK)
        return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
    r->has_bound = true;
    r->bound_s = o.bound_s;
    /* no measured ceilings: attainable equals the bound, nothing to add */
    r->attainable_s = o.attainable_s > o.bound_s * (1 + 1e-12) ? o.attainable_s : 0;
    cr_str_copy(r->binding, sizeof r->binding, o.binding);
    double pred;
    if (!overlap) {
        pred = o.baseline_s;
        snprintf(r->impl, sizeof r->impl, "baseline %s/%s", o.comm[0].algo, o.comm[0].proto);
    } else {
        /* one piece: GEMM rows / chunks (ops_shapes.c's per-rank GEMM),
         * collective bytes / chunks */
        cr_dtype dt = (cr_dtype)p.v[CR_OPP_DTYPE];
        double gm = mm / chunks, gn = kind == 0 ? nn / ranks : nn, gk = kind == 0 ? kk : kk / ranks;
        cr_op_result g;
        if (cr_op_eval_gemm(t, gm, gn, gk, dt, &g, &dd) != CR_OK)
            return cr_diag_set(d, CR_EINVAL, "%s: %s", m->source, dd.msg);
        int ids[1024];
        for (int i = 0; i < (int)ranks; i++)
            ids[i] = i;
        cr_rankset *rs = NULL;
        if ((st = cr_rankset_from_array(ids, (int)ranks, t->n_gpus, &rs, d)) != CR_OK)
            return st;
        static const cr_coll colls[] = {CR_COLL_ALLGATHER, CR_COLL_REDUCESCATTER,
                                        CR_COLL_ALLREDUCE};
        cr_coll_req rq = cr_coll_req_default(colls[kind], o.comm[0].bytes / chunks);
        rq.dtype = dt;
        rq.in_place = false; /* fused.cu's collectives are out of place */
        cr_coll_result res;
        memset(&res, 0, sizeof res);
        st = cr_vcache_eval(opts ? opts->cache : NULL, t, rs, &rq, &res, &dd);
        cr_rankset_free(rs);
        if (st != CR_OK || !res.pred.supported || !(res.pred.pred_s > 0)) {
            snprintf(r->note, sizeof r->note, "no prediction: coll has none for one piece (%.100s)",
                     st != CR_OK ? dd.msg : res.pred.why);
            return CR_OK;
        }
        double slow = cr_topo_param(t, "fused.overlap.slow", CR_VFUSED_SLOW);
        cr_vfused_pipe pp = {(int)chunks, kind == 0, g.pred_s, res.pred.pred_s, slow, slow};
        pred = cr_vfused_pipeline_s(&pp);
        if (!isfinite(pred))
            return cr_diag_set(d, CR_EINVAL, "%s: fused.overlap.slow = %g: a slowdown must be >= 1",
                               m->source, slow);
        snprintf(r->impl, sizeof r->impl, "%d chunks, %s/%s", (int)chunks,
                 cr_algo_name(res.pred.algo), cr_proto_name(res.pred.proto));
    }
    if (m->devices > 1) {
        /* one process issues every GPU's work: a step is one GEMM and one
         * NCCL call per GPU */
        double step = fmax(cr_topo_param(t, "fused.host.step", CR_VFUSED_HOST_STEP_S), 0);
        double host = chunks * m->devices * step;
        if (host > pred) {
            pred = host;
            cr_snprintf_c(r->note, sizeof r->note,
                          "host-bound: one process issues %.0f step(s) for %d GPUs, %.2f us each",
                          chunks, m->devices, step * 1e6);
        }
    }
    r->has_pred = true;
    r->pred_s = pred;
    return CR_OK;
}

/* --- calibration: what each family gives (calibrate.c; true: the case counts
 * in n_used) ------------------------------------------------------------------- */

static bool cal_hbm(const cr_vmeas *m, cr_vcal_acc *a)
{
    cr_vcalib *c = a->c;
    double t = m->measured_s, bytes = cr_vnum_or(&m->c, "bytes", 0);
    double moved = cr_vnum_or(&m->c, "rd_bytes", 0) + cr_vnum_or(&m->c, "wr_bytes", 0);
    bool warm = !strcmp(cr_vstr_or(&m->c, "cache", ""), "warm");
    /* warm: one buffer set back to back; what fits stays in the L2
     * (arrays of 32 MiB or less in all: well under an H100's 50) */
    if (warm && moved <= 32.0 * 1048576 && moved / t > c->l2_Bps)
        c->l2_Bps = moved / t;
    if (bytes >= 256.0 * 1048576 && !warm) {
        const char *op = cr_vstr_or(&m->c, "op", "");
        if (moved / t > c->hbm_Bps)
            c->hbm_Bps = moved / t;
        cr_vsamples_push(&a->hbm, moved / t);
        if (!strcmp(op, "read"))
            cr_vsamples_push(&a->rd, moved / t);
        else if (!strcmp(op, "write"))
            cr_vsamples_push(&a->wr, moved / t);
        else if (!strcmp(op, "copy"))
            cr_vsamples_push(&a->cp, moved / t);
    }
    return true;
}

static bool cal_gemm(const cr_vmeas *m, cr_vcal_acc *a)
{
    cr_vcalib *c = a->c;
    double t = m->measured_s;
    cr_dtype dt;
    double fl = cr_vnum_or(&m->c, "flops", 0);
    if (cr_dtype_parse(cr_vstr_or(&m->c, "dtype", "?"), &dt, NULL) != CR_OK || (int)dt >= 16)
        return true;
    if (fl / t > c->flops[dt])
        c->flops[dt] = fl / t;
    if (dt == CR_DT_BF16 && fl >= 2 * 4096.0 * 4096 * 4096)
        cr_vsamples_push(&a->gemm, fl / t);
    double mm = cr_vnum_or(&m->c, "m", 0), nn = cr_vnum_or(&m->c, "n", 0),
           kk = cr_vnum_or(&m->c, "k", 0);
    /* memory-bound: a 16-bit GEMV-like shape streams its operands */
    if ((dt == CR_DT_BF16 || dt == CR_DT_FP16) && fmin(mm, nn) >= 1 && fmin(mm, nn) <= 16)
        cr_vsamples_push(&a->gmem, 2 * (mm * kk + kk * nn + mm * nn) / t);
    return true;
}

static bool cal_ce(const cr_vmeas *m, cr_vcal_acc *a)
{
    cr_vcalib *c = a->c;
    double t = m->measured_s, bytes = cr_vnum_or(&m->c, "bytes", 0);
    const char *dir = cr_vstr_or(&m->c, "dir", ""), *host = cr_vstr_or(&m->c, "host", "");
    double *dst = NULL;
    int k = !strcmp(dir, "h2d") ? 1 : !strcmp(dir, "d2h") ? 2 : 0;
    bool pageable = !strcmp(host, "pageable");
    if (k == 1)
        dst = pageable ? &c->h2d_pageable_Bps : &c->h2d_pinned_Bps;
    else if (k == 2)
        dst = pageable ? &c->d2h_pageable_Bps : &c->d2h_pinned_Bps;
    if (dst && bytes >= 64.0 * 1048576 && bytes / t > *dst)
        *dst = bytes / t;
    if (k && pageable && bytes >= 64.0 * 1048576)
        cr_vsamples_push(&a->pg[k], bytes / t);
    if (k && pageable && bytes >= 4.0 * 1048576 && bytes <= 16.0 * 1048576)
        cr_vsamples_push(&a->pgc[k], bytes / t);
    if (k == 0 && !strcmp(dir, "d2d") && bytes >= 256.0 * 1048576)
        cr_vsamples_push(&a->d2d, 2 * bytes / t);
    return dst != NULL || k == 0;
}

static bool cal_launch(const cr_vmeas *m, cr_vcal_acc *a)
{
    double t = m->measured_s;
    const char *kind = cr_vstr_or(&m->c, "kind", "");
    if (!strcmp(kind, "async")) {
        cr_vsamples_push(&a->launch, t);
        if (m->act_median_s > 0)
            cr_vsamples_push(&a->kern, m->act_median_s);
    } else if (!strcmp(kind, "sync")) {
        cr_vsamples_push(&a->sync, t);
    } else if (!strcmp(kind, "graph")) {
        cr_vsamples_push(&a->graph, t);
    } else if (!strcmp(kind, "event")) {
        cr_vsamples_push(&a->event, t);
    }
    return true;
}

/* One SM on a large copy: the mechanism's per-SM rate (bytes copied, counted
 * once); the small copies of >= 8 SMs count for the fixed costs
 * (calibrate.c's second pass). */
static bool cal_mech(const cr_vmeas *m, cr_vcal_acc *a)
{
    cr_vcalib *c = a->c;
    double t = m->measured_s, bytes = cr_vnum_or(&m->c, "bytes", 0);
    double sms = cr_vnum_or(&m->c, "sms", 0);
    const char *mech = cr_vstr_or(&m->c, "mech", "");
    if (!(sms == 1 && bytes >= 64.0 * 1048576))
        return sms >= 8;
    if (!strcmp(mech, "ldst") && bytes / t > c->ldst_sm_Bps)
        c->ldst_sm_Bps = bytes / t;
    if (!strcmp(mech, "tma") && bytes / t > c->tma_sm_Bps)
        c->tma_sm_Bps = bytes / t;
    return true;
}

static bool cal_p2p(const cr_vmeas *m, cr_vcal_acc *a)
{
    cr_vcalib *c = a->c;
    double t = m->measured_s, bytes = cr_vnum_or(&m->c, "bytes", 0);
    cr_mech mk;
    double sms = cr_vnum_or(&m->c, "sms", 0);
    if (cr_mech_parse(cr_vstr_or(&m->c, "mech", "?"), &mk, NULL) != CR_OK || (int)mk < 0 ||
        (int)mk > 2)
        return false;
    if (bytes >= 256.0 * 1048576 && bytes / t > c->p2p_Bps[mk])
        c->p2p_Bps[mk] = bytes / t;
    if (sms == 1 && bytes >= 64.0 * 1048576 && bytes / t > c->p2p_sm1_Bps[mk])
        c->p2p_sm1_Bps[mk] = bytes / t;
    if (bytes > 0 && (c->p2p_small_bytes[mk] == 0 || bytes < c->p2p_small_bytes[mk])) {
        c->p2p_small_bytes[mk] = bytes;
        c->p2p_small_s[mk] = t;
    } else if (bytes == c->p2p_small_bytes[mk] && t < c->p2p_small_s[mk]) {
        c->p2p_small_s[mk] = t;
    }
    return true;
}

/* --- the table ------------------------------------------------------------------- */

/* In cr_vfam order. nccl and fused give calibration nothing here: NCCL's
 * parameters are fitted by calibrate --nccl-tests (calibrate_nccl.c), the
 * fused figures by tools/fit_fused.py. */
static const cr_vfam_def fams[CR_VFAM__COUNT] = {
    [CR_VFAM_HBM] = {"hbm", CR_VTIME_DEVICE, label_hbm, eval_hbm, cal_hbm, ""},
    [CR_VFAM_CE] = {"ce", CR_VTIME_DEVICE, label_ce, eval_ce, cal_ce, ""},
    [CR_VFAM_MECH] = {"mech", CR_VTIME_DEVICE, label_mech, eval_mech, cal_mech, "sms chunk"},
    [CR_VFAM_GEMM] = {"gemm", CR_VTIME_DEVICE, label_gemm, eval_gemm, cal_gemm, "m n k"},
    [CR_VFAM_LAUNCH] = {"launch", CR_VTIME_SPACING, label_launch, eval_launch, cal_launch, "nodes"},
    [CR_VFAM_NCCL] = {"nccl", CR_VTIME_LAST_START, label_nccl, eval_coll, NULL,
                      "nranks count rank"},
    [CR_VFAM_P2P] = {"p2p", CR_VTIME_DEVICE, label_p2p, eval_coll, cal_p2p, "sms src dst"},
    [CR_VFAM_FUSED] = {"fused", CR_VTIME_SPAN, label_fused, eval_fused, NULL, "m n k ranks chunks"},
};

const cr_vfam_def *cr_vfam_def_of(cr_vfam f)
{
    return (unsigned)f < CR_VFAM__COUNT ? &fams[f] : NULL;
}
