/* SPDX-License-Identifier: MIT */
/*
 * validate: calibration from measurements (validate.h cr_validate_calibrate,
 * cr_validate_apply_calibration): each family's entry (families.c) takes
 * its cases' rates, this file the medians, the fixed costs that need the
 * rates first, and their writing into a topology.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "coll.h"
#include "dtype.h"
#include "rankset.h"
#include "route.h"
#include "validate.h"
#include "validate_priv.h"

void cr_validate_calibrate(const cr_vmeas_list *l, cr_vcalib *c)
{
    memset(c, 0, sizeof *c);
    cr_vcal_acc a;
    memset(&a, 0, sizeof a);
    a.c = c;
    for (size_t i = 0; i < l->n; i++) {
        const cr_vmeas *m = &l->v[i];
        if (!(m->measured_s > 0))
            continue;
        const cr_vfam_def *def = cr_vfam_def_of(m->c.family);
        c->n_used += def && def->calibrate && def->calibrate(m, &a);
    }
    c->launch_s = cr_median(a.launch.v, a.launch.n);
    c->kernel_s = cr_median(a.kern.v, a.kern.n);
    c->sync_s = cr_median(a.sync.v, a.sync.n);
    c->graph_s = cr_median(a.graph.v, a.graph.n);
    c->event_s = cr_median(a.event.v, a.event.n);
    c->hbm_typ_Bps = cr_median(a.hbm.v, a.hbm.n);
    c->gemm_typ_eff = cr_median(a.gemm.v, a.gemm.n); /* FLOP/s until divided by the peak */
    c->hbm_rd_Bps = cr_median(a.rd.v, a.rd.n);
    c->hbm_wr_Bps = cr_median(a.wr.v, a.wr.n);
    c->hbm_copy_Bps = cr_median(a.cp.v, a.cp.n);
    c->ce_d2d_Bps = cr_median(a.d2d.v, a.d2d.n);
    c->gemm_mem_Bps = cr_median(a.gmem.v, a.gmem.n);
    for (int k = 1; k < 3; k++) {
        c->pageable_Bps[k] = cr_median(a.pg[k].v, a.pg[k].n);
        c->pageable_c_Bps[k] = cr_median(a.pgc[k].v, a.pgc[k].n);
    }

    /* Second pass, with the rates known: the fixed costs. A small write
     * kernel (<= 4 MiB) less its bytes at the write rate is the kernel's
     * fixed cost; a small copy less its bytes (at the read, write and
     * turnaround rates) has that plus the read latency; a small read has
     * both plus the reduction's tail; a small SM copy (the smallest size,
     * >= 8 SMs) less its bytes at the lesser of its SMs' and HBM's rate is
     * the mechanism's fixed cost. */
    cr_vsamples fx = {.n = 0}, rl = {.n = 0}, cl = {.n = 0}, lf = {.n = 0}, tf = {.n = 0};
    double turn_Bps = 0; /* per byte copied, beyond its read and write */
    if (c->hbm_rd_Bps > 0 && c->hbm_wr_Bps > 0 && c->hbm_copy_Bps > 0) {
        double extra = 2 / c->hbm_copy_Bps - 1 / c->hbm_rd_Bps - 1 / c->hbm_wr_Bps;
        turn_Bps = extra > 0 ? 1 / extra : 0;
    }
    double small[2] = {0, 0}; /* smallest mech size: ldst, tma */
    for (size_t i = 0; i < l->n; i++) {
        const cr_vmeas *m = &l->v[i];
        double bytes = cr_vnum_or(&m->c, "bytes", 0);
        if (m->c.family == CR_VFAM_MECH && bytes > 0) {
            int k = !strcmp(cr_vstr_or(&m->c, "mech", ""), "tma");
            if (small[k] == 0 || bytes < small[k])
                small[k] = bytes;
        }
    }
    for (size_t i = 0; i < l->n; i++) {
        const cr_vmeas *m = &l->v[i];
        double t = m->measured_s, bytes = cr_vnum_or(&m->c, "bytes", 0);
        if (!(t > 0) || !(bytes > 0))
            continue;
        if (m->c.family == CR_VFAM_HBM && bytes <= 4.0 * 1048576 &&
            strcmp(cr_vstr_or(&m->c, "cache", ""), "warm") != 0) { /* HBM kernels: cold only */
            const char *op = cr_vstr_or(&m->c, "op", "");
            if (!strcmp(op, "write") && c->hbm_wr_Bps > 0)
                cr_vsamples_push(&fx, t - bytes / c->hbm_wr_Bps);
            else if (!strcmp(op, "read") && c->hbm_rd_Bps > 0)
                cr_vsamples_push(&rl, t - bytes / c->hbm_rd_Bps);
            else if (!strcmp(op, "copy") && turn_Bps > 0)
                cr_vsamples_push(&cl, t - bytes / c->hbm_rd_Bps - bytes / c->hbm_wr_Bps -
                                          bytes / turn_Bps);
        } else if (m->c.family == CR_VFAM_MECH && c->hbm_copy_Bps > 0) {
            const char *mech = cr_vstr_or(&m->c, "mech", "");
            int k = !strcmp(mech, "tma");
            double sms = cr_vnum_or(&m->c, "sms", 0), sm = k ? c->tma_sm_Bps : c->ldst_sm_Bps;
            if ((k || !strcmp(mech, "ldst")) && sms >= 8 && bytes == small[k] && sm > 0)
                cr_vsamples_push(k ? &tf : &lf, t - bytes / fmin(sms * sm, c->hbm_copy_Bps / 2));
        }
    }
    c->kernel_fixed_s = fmax(cr_median(fx.v, fx.n), 0);
    if (cl.n > 0)
        c->read_lat_s = fmax(cr_median(cl.v, cl.n) - c->kernel_fixed_s, 0);
    if (rl.n > 0)
        c->reduce_s = fmax(cr_median(rl.v, rl.n) - c->kernel_fixed_s - c->read_lat_s, 0);
    c->ldst_fixed_s = fmax(cr_median(lf.v, lf.n), 0);
    c->tma_fixed_s = fmax(cr_median(tf.v, tf.n), 0);
}

/* coll's prediction of a copy of `bytes` from GPU 0 to GPU 1 by mechanism
 * mk on t's current parameters (pr->supported false where coll cannot
 * predict it); CR_ENOMEM when the two-rank set cannot be made. */
static cr_status pair_copy_pred(cr_topo *t, int mk, double bytes, cr_coll_pred *pr)
{
    cr_rankset *rs = NULL;
    int ids[2] = {0, 1};
    memset(pr, 0, sizeof *pr);
    if (cr_rankset_from_array(ids, 2, t->n_gpus, &rs, NULL) != CR_OK)
        return CR_ENOMEM;
    cr_coll_req rq = cr_coll_req_default(CR_COLL_SENDRECV, bytes);
    rq.mech = (cr_mech)mk;
    cr_coll_ctx *ctx = NULL;
    if (cr_coll_ctx_new(t, rs, &ctx, NULL) != CR_OK || cr_coll_predict(ctx, &rq, pr, NULL) != CR_OK)
        pr->supported = false;
    cr_coll_ctx_free(ctx);
    cr_rankset_free(rs);
    return CR_OK;
}

/* The bandwidth coll multiplies mech.<m>.eff by for a copy from GPU 0 to
 * GPU 1 (the prediction's link_Bps, algo.c mech_predict): the scale-up
 * links a peer copy uses (450 GB/s on an HGX H200 pair, NVLink 18 x 25),
 * not the all-paths max-flow of cr_route_bw_Bps (513, NVLink plus the
 * PCIe path through the CPU, which the bound may use and a copy does not).
 * Calibrating against the same figure the prediction multiplies makes a
 * calibrated prediction reproduce the measured rate. 0 when coll cannot
 * predict the copy. */
static double p2p_link_Bps(cr_topo *t, int mk)
{
    cr_coll_pred pr;
    if (pair_copy_pred(t, mk, 1073741824.0, &pr) != CR_OK || !pr.supported)
        return 0;
    return pr.link_Bps;
}

/* coll's mechanism parameters from p2p measurements (see validate.h). */
static cr_status apply_p2p(cr_topo *t, const cr_vcalib *c, const char *source)
{
    static const char *const name[3] = {"ce", "tma", "ldst"};
    if (!t->finalized && cr_topo_finalize(t) != CR_OK)
        return CR_ENOMEM;
    if (t->n_gpus < 2)
        return CR_OK;
    cr_status st;
    char key[48];
    for (int mk = 0; mk < 3; mk++) {
        if (!(c->p2p_Bps[mk] > 0))
            continue;
        double link = p2p_link_Bps(t, mk);
        if (!(link > 0))
            continue;
        double eff = fmin(c->p2p_Bps[mk] / link, 1.0);
        snprintf(key, sizeof key, "mech.%s.eff", name[mk]);
        if ((st = cr_topo_set_param(t, key, eff, source)) != CR_OK)
            return st;
        if (mk != CR_MECH_CE && c->p2p_sm1_Bps[mk] > 0) {
            snprintf(key, sizeof key, "mech.%s.sms", name[mk]);
            double sms = fmax(1.0, eff * link / c->p2p_sm1_Bps[mk]);
            if ((st = cr_topo_set_param(t, key, sms, source)) != CR_OK)
                return st;
        }
        if (!(c->p2p_small_s[mk] > 0))
            continue;
        /* coll's prediction for the smallest message without a launch cost;
         * the launch is what the measurement has beyond it. */
        snprintf(key, sizeof key, "mech.%s.launch", name[mk]);
        if ((st = cr_topo_set_param(t, key, 0.0, source)) != CR_OK)
            return st;
        cr_coll_pred pr;
        if (pair_copy_pred(t, mk, c->p2p_small_bytes[mk], &pr) != CR_OK)
            return CR_ENOMEM;
        double launch = pr.supported ? fmax(0.0, c->p2p_small_s[mk] - pr.pred_s) : 0;
        if ((st = cr_topo_set_param(t, key, launch, source)) != CR_OK)
            return st;
    }
    return CR_OK;
}

/* The note a measured source carries for the figures it did not measure
 * again: "; hbm-bw not measured again, kept from: SRC" (or l2-bw, or both). */
static const char *const kept_marker = " not measured again, kept from: ";

/* A figure's origin inside a measured source: len bytes at p; p NULL
 * when the source keeps no such figure. */
typedef struct {
    const char *p;
    size_t len;
} origin;

/* The note starting at m (an occurrence of kept_marker in src): its label
 * before m, whether it names the HBM (*hbm) and the L2 (*l2), and where
 * the note begins; NULL when no known label precedes m. */
static const char *note_start(const char *src, const char *m, bool *hbm, bool *l2)
{
    static const struct {
        const char *label;
        bool hbm, l2;
    } labels[] = {
        {"; hbm-bw and l2-bw", true, true}, {"; hbm-bw", true, false}, {"; l2-bw", false, true}};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        size_t n = strlen(labels[i].label);
        if ((size_t)(m - src) >= n && !strncmp(m - n, labels[i].label, n)) {
            *hbm = labels[i].hbm;
            *l2 = labels[i].l2;
            return m - n;
        }
    }
    return NULL;
}

/* Splits a measured source written by kept_source into its calibration's
 * own part (the first *head_len bytes) and the origins of the figures it
 * kept (kept[0] the HBM's, kept[1] the L2's). A source with no note is
 * all head. */
static void split_kept(const char *src, size_t *head_len, origin kept[2])
{
    *head_len = strlen(src);
    kept[0] = kept[1] = (origin){NULL, 0};
    const char *m = strstr(src, kept_marker);
    bool hbm = false, l2 = false;
    const char *start = m ? note_start(src, m, &hbm, &l2) : NULL;
    if (!start)
        return;
    *head_len = (size_t)(start - src);
    while (start) {
        const char *from = m + strlen(kept_marker), *next_m = strstr(from, kept_marker);
        bool next_hbm = false, next_l2 = false;
        const char *next = next_m ? note_start(src, next_m, &next_hbm, &next_l2) : NULL;
        size_t len = next ? (size_t)(next - from) : strlen(from);
        if (hbm)
            kept[0] = (origin){from, len};
        if (l2)
            kept[1] = (origin){from, len};
        m = next_m;
        start = next;
        hbm = next_hbm;
        l2 = next_l2;
    }
}

/* The source of a GPU model's measured figures after this calibration:
 * `source`, and for each figure the base topology had and this one did not
 * measure again, where that figure came from. A figure kept twice keeps
 * its first origin, so calibrating a calibrated topology again does not
 * nest the notes (QA audit, 2026-12-06: each run added ~135 characters).
 * malloc'd; NULL when out of memory. */
static char *kept_source(const char *source, const char *old_src, bool keep_hbm, bool keep_l2)
{
    size_t head_len;
    origin old_kept[2];
    split_kept(old_src, &head_len, old_kept);
    /* each kept figure's origin: the old note's, if it kept that figure
     * too, else the old calibration itself (old_src's head) */
    bool keep[2] = {keep_hbm, keep_l2};
    origin fig[2];
    for (int i = 0; i < 2; i++)
        fig[i] = old_kept[i].p ? old_kept[i] : (origin){old_src, head_len};
    bool one_note =
        keep_hbm && keep_l2 && fig[0].len == fig[1].len && !strncmp(fig[0].p, fig[1].p, fig[0].len);
    size_t len = strlen(source) + 2 * strlen(old_src) + 128;
    char *ms = malloc(len);
    if (!ms)
        return NULL;
    size_t n = (size_t)snprintf(ms, len, "%s", source);
    for (int i = 0; i < 2; i++) {
        if (!keep[i] || (one_note && i == 1))
            continue;
        const char *label = one_note ? "hbm-bw and l2-bw" : i == 0 ? "hbm-bw" : "l2-bw";
        n += (size_t)snprintf(ms + n, len - n, "; %s%s%.*s", label, kept_marker, (int)fig[i].len,
                              fig[i].p);
    }
    return ms;
}

/* The GPU model of the measured GPU (rank 0, which the callers check
 * against the traces' GPU) takes the measured ceilings; the topology's
 * other GPU models were not measured and keep theirs (QA audit,
 * 2026-12-06: a second model got the H200's 4.65 TB/s, 3x its peak). */
static cr_status apply_measured_ceilings(cr_topo *t, const cr_vcalib *c, const char *source)
{
    if (t->n_gpus < 1)
        return CR_OK;
    int spec = t->devs[t->gpus[0]].spec;
    if (spec < 0 || spec >= t->n_gpu_specs)
        return CR_OK;
    cr_gpu_spec *g = &t->gpu_specs[spec];
    bool any = c->hbm_Bps > 0 || c->l2_Bps > 0;
    for (int dt = 0; dt < CR_DT__COUNT && dt < 16; dt++)
        any |= c->flops[dt] > 0;
    if (!any)
        return CR_OK;
    /* each FLOP/s figure has its own source: those measured again take
     * this one, the others keep theirs (QA audit, 2026-12-07: one source
     * for every measured figure credited a base's GEMM figures to an HBM
     * trace that measured none) */
    for (int dt = 0; dt < CR_DT__COUNT && dt < 16; dt++)
        if (c->flops[dt] > 0) {
            char *fs = strdup(source);
            if (!fs)
                return CR_ENOMEM;
            g->meas_flops[dt] = c->flops[dt];
            free(g->meas_flops_source[dt]);
            g->meas_flops_source[dt] = fs;
        }
    /* <measured>'s source speaks for hbm-bw and l2-bw only: untouched when
     * neither was measured again */
    if (!(c->hbm_Bps > 0) && !(c->l2_Bps > 0))
        return CR_OK;
    /* which figures the base topology had that this calibration did not
     * measure again, read before the new ones are written */
    bool keep_l2 = !(c->l2_Bps > 0) && g->meas_l2_Bps > 0;
    bool keep_hbm = !(c->hbm_Bps > 0) && g->meas_hbm_Bps > 0;
    char *ms = kept_source(source, g->meas_source ? g->meas_source : "the base topology", keep_hbm,
                           keep_l2);
    if (!ms)
        return CR_ENOMEM;
    if (c->hbm_Bps > 0)
        g->meas_hbm_Bps = c->hbm_Bps;
    if (c->l2_Bps > 0)
        g->meas_l2_Bps = c->l2_Bps;
    free(g->meas_source);
    g->meas_source = ms;
    return CR_OK;
}

cr_status cr_validate_apply_calibration(cr_topo *t, const cr_vcalib *c, const char *source)
{
    cr_status st = apply_measured_ceilings(t, c, source);
    if (st != CR_OK)
        return st;
    const cr_gpu_spec *g0 = t->n_gpus > 0 ? cr_topo_gpu_spec(t, 0) : NULL;
#define SET(key, val)                                                                              \
    do {                                                                                           \
        if ((st = cr_topo_set_param(t, key, val, source)) != CR_OK)                                \
            return st;                                                                             \
    } while (0)
    double peak = g0 ? g0->hbm_Bps : 0;
    if (c->hbm_typ_Bps > 0 && peak > 0)
        SET("ops.hbm.eff", fmin(c->hbm_typ_Bps / peak, 1.0));
    /* The stream model (model/ops.c stream_s): a copy of b bytes takes
     * b / rd + b / wr + b / turn, so turn = b / (t - b / rd - b / wr) with
     * b / t = copy rate / 2 (the copy rate counts read + written bytes). */
    if (c->hbm_rd_Bps > 0 && peak > 0)
        SET("ops.hbm.read_eff", fmin(c->hbm_rd_Bps / peak, 1.0));
    if (c->hbm_wr_Bps > 0 && peak > 0)
        SET("ops.hbm.write_eff", fmin(c->hbm_wr_Bps / peak, 1.0));
    if (c->hbm_rd_Bps > 0 && c->hbm_wr_Bps > 0 && c->hbm_copy_Bps > 0 && peak > 0) {
        double extra = 2 / c->hbm_copy_Bps - 1 / c->hbm_rd_Bps - 1 / c->hbm_wr_Bps;
        if (extra > 0)
            SET("ops.hbm.turn", 1 / extra / peak);
    }
    if (c->kernel_fixed_s > 0)
        SET("ops.kernel.fixed", c->kernel_fixed_s);
    if (c->read_lat_s > 0)
        SET("ops.hbm.read_lat", c->read_lat_s);
    if (c->reduce_s > 0)
        SET("ops.hbm.reduce_tail", c->reduce_s);
    if (c->gemm_mem_Bps > 0 && peak > 0)
        SET("ops.gemm.mem_eff", fmin(c->gemm_mem_Bps / peak, 1.0));
    if (c->ce_d2d_Bps > 0 && peak > 0)
        SET("ops.ce.d2d_eff", fmin(c->ce_d2d_Bps / peak, 1.0));
    /* Host link: the better pinned direction against GPU 0's host link in
     * that direction (host to GPU against the link into the GPU, GPU to
     * host against the link out of it), so an asymmetric link is not
     * judged by its slower side (QA audit, 2026-12-06: 55 GB/s over a
     * 20 GB/s GPU-to-host side gave 1). */
    double pcie_in = 0, pcie_out = 0;
    if (t->n_gpus > 0) {
        int g = t->gpus[0];
        for (int i = t->adj_off[g]; i < t->adj_off[g + 1]; i++) {
            const cr_link *l = &t->links[t->adj[i]];
            if (cr_route_host(l->kind)) {
                pcie_out = fmax(pcie_out, cr_link_bw_from(l, g));
                pcie_in = fmax(pcie_in, cr_link_bw_from(l, l->a == g ? l->b : l->a));
            }
        }
    }
    double pcie_eff =
        fmax(c->h2d_pinned_Bps > 0 && pcie_in > 0 ? c->h2d_pinned_Bps / pcie_in : 0,
             c->d2h_pinned_Bps > 0 && pcie_out > 0 ? c->d2h_pinned_Bps / pcie_out : 0);
    if (pcie_eff > 0)
        SET("ops.pcie.eff", fmin(pcie_eff, 1.0));
    static const char *const pg_key[3] = {NULL, "ops.pageable.h2d", "ops.pageable.d2h"};
    static const char *const pgc_key[3] = {NULL, "ops.pageable.cached_h2d",
                                           "ops.pageable.cached_d2h"};
    for (int k = 1; k < 3; k++) {
        if (c->pageable_Bps[k] > 0)
            SET(pg_key[k], c->pageable_Bps[k]);
        if (c->pageable_c_Bps[k] > 0)
            SET(pgc_key[k], c->pageable_c_Bps[k]);
    }
    if (c->kernel_s > 0)
        SET("calib.kernel", c->kernel_s);
    if (c->launch_s > 0)
        SET("ops.launch.host", c->launch_s);
    if (c->sync_s > 0)
        SET("ops.launch.sync", c->sync_s);
    if (c->graph_s > 0)
        SET("ops.launch.graph", c->graph_s);
    if (c->event_s > 0)
        SET("ops.launch.event", c->event_s);
    if (c->ldst_sm_Bps > 0)
        SET("ops.ldst.sm_bw", c->ldst_sm_Bps);
    if (c->tma_sm_Bps > 0)
        SET("ops.tma.sm_bw", c->tma_sm_Bps);
    if (c->ldst_fixed_s > 0)
        SET("ops.ldst.fixed", c->ldst_fixed_s);
    if (c->tma_fixed_s > 0)
        SET("ops.tma.fixed", c->tma_fixed_s);
    if (t->n_gpus >= 2)
        st = apply_p2p(t, c, source);
#undef SET
    return st;
}
