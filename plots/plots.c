/* SPDX-License-Identifier: MIT */
/*
 * Chart kinds built from model results (see plots.h).
 *
 * Rooflines are drawn the classic way: a slanted bandwidth ceiling from the
 * left edge up to the highest compute ceiling, and one horizontal line per
 * distinct compute peak from its knee (peak / bandwidth) to the right edge,
 * so no line hides another. Points are (FLOP / bytes, FLOP / time).
 */
#include "sbuf.h"
#include "plots.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "route.h"
#include "stats.h"

#define TFLOPS 1e12
#define GBPS 1e9
#define US 1e-6

/* InfiniBand NDR: 400 Gb/s = 50 GB/s per direction per port, one port per
 * GPU in DGX H100/H200/B200 (NVIDIA DGX H100 user guide; hardware.md). Used
 * only as a labelled reference where the ranks cross no network. */
#define REF_IB_NDR_Bps 50e9

/* "4.8 TB/s", "989 TFLOP/s": legend text in the units people quote. */
static const char *fmt_bw(double Bps, char *buf, size_t n)
{
    if (Bps >= 1e12)
        cr_snprintf_c(buf, n, "%.4g TB/s", Bps / 1e12);
    else
        cr_snprintf_c(buf, n, "%.4g GB/s", Bps / 1e9);
    return buf;
}

static const char *fmt_flops(double f, char *buf, size_t n)
{
    /* four digits of TFLOP/s up to 9999 ("1979 TFLOP/s"), PFLOP/s above
     * (GB200's FP4 printed "1e+04 TFLOP/s") */
    if (f >= 1e16)
        cr_snprintf_c(buf, n, "%.4g PFLOP/s", f / 1e15);
    else
        cr_snprintf_c(buf, n, "%.4g TFLOP/s", f / 1e12);
    return buf;
}

static cr_status oom(cr_diag *d)
{
    return cr_diag_set(d, CR_ENOMEM, "out of memory building a chart");
}

static void upper(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < n; i++)
        dst[i] = (char)toupper((unsigned char)src[i]);
    dst[i] = '\0';
}

/* Extent of the points' intensities and rates, so ceilings span them. */
static void points_extent(const cr_roof_set *sets, int nsets, double *xlo, double *xhi, double *ylo,
                          double *yhi)
{
    for (int s = 0; s < nsets; s++)
        for (int i = 0; i < sets[s].n; i++) {
            const cr_roof_point *p = &sets[s].pts[i];
            if (!(p->flops > 0 && p->bytes > 0 && p->time_s > 0))
                continue;
            double x = p->flops / p->bytes, y = p->flops / p->time_s;
            *xlo = fmin(*xlo, x);
            *xhi = fmax(*xhi, x);
            *ylo = fmin(*ylo, y);
            *yhi = fmax(*yhi, y);
        }
}

static cr_status add_points(cr_chart *c, const cr_roof_set *sets, int nsets, cr_diag *d)
{
    for (int s = 0; s < nsets; s++) {
        int si = cr_chart_series(c, sets[s].name,
                                 sets[s].measured ? CR_SERIES_POINTS : CR_SERIES_OPENPOINTS,
                                 sets[s].labelled);
        if (si < 0)
            return oom(d);
        for (int i = 0; i < sets[s].n; i++) {
            const cr_roof_point *p = &sets[s].pts[i];
            if (!(p->flops > 0 && p->bytes > 0 && p->time_s > 0))
                continue;
            if (cr_chart_point(c, si, p->flops / p->bytes, p->flops / p->time_s / TFLOPS,
                               p->label) != CR_OK)
                return oom(d);
        }
    }
    return CR_OK;
}

/* Distinct compute peaks of a GPU model, highest first, with the dtypes
 * that share each ("BF16/FP16"). */
typedef struct {
    double flops;
    char names[64];
} peak;

static int collect_peaks(const double *flops, peak *out)
{
    int n = 0;
    for (int dt = 0; dt < CR_DT__COUNT; dt++) {
        if (!(flops[dt] > 0))
            continue;
        char up[16];
        upper(up, cr_dtype_name((cr_dtype)dt), sizeof up);
        int j = 0;
        for (; j < n; j++)
            if (fabs(out[j].flops - flops[dt]) <= 1e-9 * flops[dt])
                break;
        if (j == n) {
            out[n].flops = flops[dt];
            cr_str_copy(out[n].names, sizeof out[n].names, up);
            n++;
        } else {
            size_t l = strlen(out[j].names);
            snprintf(out[j].names + l, sizeof out[j].names - l, "/%s", up);
        }
    }
    for (int i = 1; i < n; i++) /* insertion sort, highest first */
        for (int j = i; j > 0 && out[j].flops > out[j - 1].flops; j--) {
            peak tmp = out[j];
            out[j] = out[j - 1];
            out[j - 1] = tmp;
        }
    return n;
}

static cr_status slanted(cr_chart *c, const char *name, cr_series_style style, double bw_Bps,
                         double xlo, double top_flops, double xhi, cr_diag *d)
{
    int s = cr_chart_series(c, name, style, false);
    if (s < 0)
        return oom(d);
    double xend = fmin(top_flops / bw_Bps, xhi);
    if (cr_chart_point(c, s, xlo, xlo * bw_Bps / TFLOPS, NULL) != CR_OK ||
        cr_chart_point(c, s, xend, xend * bw_Bps / TFLOPS, NULL) != CR_OK)
        return oom(d);
    return CR_OK;
}

static cr_status flat(cr_chart *c, const char *name, cr_series_style style, double flops,
                      double xknee, double xhi, cr_diag *d)
{
    int s = cr_chart_series(c, name, style, false);
    if (s < 0)
        return oom(d);
    if (cr_chart_point(c, s, xknee, flops / TFLOPS, NULL) != CR_OK ||
        cr_chart_point(c, s, xhi, flops / TFLOPS, NULL) != CR_OK)
        return oom(d);
    return CR_OK;
}

static const cr_gpu_spec *gpu_of(const cr_topo *t, int rank, cr_diag *d)
{
    if (!t || rank < 0 || rank >= t->n_gpus) {
        cr_diag_set(d, CR_EINVAL, "GPU rank %d is out of range (the topology has %d GPUs)", rank,
                    t ? t->n_gpus : 0);
        return NULL;
    }
    const cr_gpu_spec *g = cr_topo_gpu_spec(t, rank);
    if (!g)
        cr_diag_set(d, CR_EINVAL, "GPU rank %d has no GPU model", rank);
    return g;
}

/* Round a log range outwards to whole decades, for tidy axes. */
static double dec_floor(double v)
{
    return pow(10.0, floor(log10(v)));
}

static double dec_ceil(double v)
{
    return pow(10.0, ceil(log10(v)));
}

/* The fastest memory ceiling the HBM roofline draws from peaks: HBM, or a
 * cache (L2, Infinity Cache) that warm data moves through (doc/bounds.md
 * 1.4). The roofline's top at intensity x is min(top peak, x times this). */
static double hbm_roof_Bps(const cr_gpu_spec *g)
{
    return fmax(g->hbm_Bps, fmax(g->l2_Bps, g->llc_Bps));
}

cr_status cr_plot_roofline(const cr_topo *t, int gpu_rank, const cr_roof_set *sets, int nsets,
                           cr_chart **out, cr_diag *d)
{
    *out = NULL;
    const cr_gpu_spec *g = gpu_of(t, gpu_rank, d);
    if (!g)
        return CR_EINVAL;
    peak pk[CR_DT__COUNT], mpk[CR_DT__COUNT];
    int npk = collect_peaks(g->peak_flops, pk);
    int nmpk = collect_peaks(g->meas_flops, mpk);
    if (npk == 0 || !(g->hbm_Bps > 0))
        return cr_diag_set(d, CR_EINVAL,
                           "GPU model %s has no compute peak or no HBM bandwidth: no roofline",
                           g->name);

    /* x from well left of the lowest knee to well right of the highest */
    double xlo = pk[npk - 1].flops / g->hbm_Bps / 30.0, xhi = pk[0].flops / g->hbm_Bps * 30.0;
    double ylo = INFINITY, yhi = pk[0].flops;
    points_extent(sets, nsets, &xlo, &xhi, &ylo, &yhi);
    xlo = dec_floor(xlo * 0.8);
    xhi = dec_ceil(xhi * 1.25);
    ylo = dec_floor(fmin(ylo, xlo * g->hbm_Bps) * 0.8);
    yhi = dec_ceil(yhi * 1.5);

    char title[256], buf[64], name[160];
    snprintf(title, sizeof title, "Roofline: %s (GPU %d of %s)", g->name, gpu_rank, t->name);
    cr_chart *c = cr_chart_new(CR_CHART_XY, title);
    if (!c)
        return oom(d);
    cr_status st = CR_OK;
    if (cr_chart_subtitle(c, (nmpk > 0 || g->meas_hbm_Bps > 0)
                                 ? "solid: dense peaks from the topology; dashed: measured "
                                   "(calibrated) ceilings"
                                 : "dense peaks from the topology (no measured ceilings: "
                                   "commroof calibrate adds them)") != CR_OK ||
        cr_chart_axis(c, 'x', "arithmetic intensity (FLOP per HBM byte)", CR_AXIS_LOG) != CR_OK ||
        cr_chart_axis(c, 'y', "performance (TFLOP/s)", CR_AXIS_LOG) != CR_OK ||
        cr_chart_range(c, 'x', xlo, xhi) != CR_OK ||
        cr_chart_range(c, 'y', ylo / TFLOPS, yhi / TFLOPS) != CR_OK) {
        st = oom(d);
        goto fail;
    }
    snprintf(name, sizeof name, "HBM %s", fmt_bw(g->hbm_Bps, buf, sizeof buf));
    if ((st = slanted(c, name, CR_SERIES_LINE, g->hbm_Bps, xlo, pk[0].flops, xhi, d)) != CR_OK)
        goto fail;
    /* Each compute ceiling starts at the knee of the fastest memory
     * ceiling (a warm L2 line): from the HBM knee on, a warm GEMM's bound
     * between the two knees hung in the air with no line above it. */
    double bwtop = hbm_roof_Bps(g);
    for (int i = 0; i < npk; i++) {
        snprintf(name, sizeof name, "%s %s", pk[i].names, fmt_flops(pk[i].flops, buf, sizeof buf));
        if ((st = flat(c, name, CR_SERIES_LINE, pk[i].flops, pk[i].flops / bwtop, xhi, d)) != CR_OK)
            goto fail;
    }
    /* fp32 and fp64 matrix products: the bound takes the fastest emulation
     * on lower-precision tensor cores where it beats the native peak
     * (doc/bounds.md 1.10), so a correct kernel may sit above the native
     * line; this one is the bound's */
    const cr_dtype emulated[] = {CR_DT_FP32, CR_DT_FP64};
    for (int i = 0; i < 2; i++) {
        double e = cr_op_mma_bound_flops(g, emulated[i], NULL, 0);
        if (!(e > g->peak_flops[emulated[i]] * (1 + 1e-9)))
            continue;
        char up[16];
        upper(up, cr_dtype_name(emulated[i]), sizeof up);
        snprintf(name, sizeof name, "%s matrix products emulated %s (the bound's)", up,
                 fmt_flops(e, buf, sizeof buf));
        if ((st = flat(c, name, CR_SERIES_DASHED, e, e / bwtop, xhi, d)) != CR_OK)
            goto fail;
    }
    /* Cache ceilings (doc/bounds.md 1.4): data that stays in the L2 (or
     * Infinity Cache) between iterations moves at its bandwidth; the warm
     * bound of a kernel whose bytes fit there sits on this line. */
    if (g->l2_Bps > 0) {
        cr_snprintf_c(name, sizeof name, "L2 %s (data that fits in %.0f MiB, warm)",
                      fmt_bw(g->l2_Bps, buf, sizeof buf), g->l2_bytes / 1048576.0);
        if ((st = slanted(c, name, CR_SERIES_DASHED, g->l2_Bps, xlo, pk[0].flops, xhi, d)) != CR_OK)
            goto fail;
    }
    if (g->llc_Bps > 0) {
        cr_snprintf_c(name, sizeof name, "Infinity Cache %s (%.0f MiB, warm)",
                      fmt_bw(g->llc_Bps, buf, sizeof buf), g->llc_bytes / 1048576.0);
        if ((st = slanted(c, name, CR_SERIES_DASHED, g->llc_Bps, xlo, pk[0].flops, xhi, d)) !=
            CR_OK)
            goto fail;
    }
    double mbw = g->meas_hbm_Bps > 0 ? g->meas_hbm_Bps : 0;
    if (mbw > 0) {
        snprintf(name, sizeof name, "HBM measured %s", fmt_bw(mbw, buf, sizeof buf));
        double top = nmpk > 0 ? mpk[0].flops : pk[0].flops;
        if ((st = slanted(c, name, CR_SERIES_DASHED, mbw, xlo, top, xhi, d)) != CR_OK)
            goto fail;
    }
    for (int i = 0; i < nmpk; i++) {
        snprintf(name, sizeof name, "%s measured %s", mpk[i].names,
                 fmt_flops(mpk[i].flops, buf, sizeof buf));
        double bw = mbw > 0 ? mbw : g->hbm_Bps;
        if ((st = flat(c, name, CR_SERIES_DASHED, mpk[i].flops, mpk[i].flops / bw, xhi, d)) !=
            CR_OK)
            goto fail;
    }
    if ((st = add_points(c, sets, nsets, d)) != CR_OK)
        goto fail;
    cr_chart_size(c, 1150, 700);
    *out = c;
    return CR_OK;
fail:
    cr_chart_free(c);
    return st;
}

cr_status cr_plot_comm_ceilings(const cr_topo *t, int gpu_rank, const cr_rankset *ranks,
                                cr_comm_ceilings *c, cr_diag *d)
{
    memset(c, 0, sizeof *c);
    if (!t || !t->finalized || gpu_rank < 0 || gpu_rank >= t->n_gpus)
        return cr_diag_set(d, CR_EINVAL, "GPU rank %d is out of range (the topology has %d GPUs)",
                           gpu_rank, t ? t->n_gpus : 0);
    int g = t->gpus[gpu_rank];
    c->scaleup_kind = "NVLink";
    c->net_kind = "InfiniBand";
    bool reducing_switch = false;
    /* GPUs that share a reducing switch with g: in-switch reduction spans them */
    char *seen = calloc((size_t)t->n_gpus, 1);
    if (!seen)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    for (int k = t->adj_off[g]; k < t->adj_off[g + 1]; k++) {
        const cr_link *l = &t->links[t->adj[k]];
        double bw = cr_link_bw_from(l, g);
        int other = cr_link_other(l, g);
        if (cr_route_scaleup(l->kind)) {
            c->scaleup_Bps += bw;
            c->scaleup_kind = l->kind == CR_LINK_XGMI  ? "XGMI"
                              : l->kind == CR_LINK_ICI ? "ICI"
                                                       : "NVLink";
            const cr_dev *od = &t->devs[other];
            if (od->kind == CR_DEV_SWITCH && od->spec >= 0 && t->switch_specs[od->spec].reduction) {
                reducing_switch = true;
                for (int q = t->adj_off[other]; q < t->adj_off[other + 1]; q++) {
                    int peer = cr_link_other(&t->links[t->adj[q]], other);
                    if (t->devs[peer].kind == CR_DEV_GPU)
                        seen[t->devs[peer].gpu_rank] = 1;
                }
            }
        } else if (l->kind == CR_LINK_PCIE) {
            c->pcie_Bps += bw;
        }
    }
    int n = 0;
    int *peers = malloc((size_t)t->n_gpus * sizeof *peers);
    if (!peers) {
        free(seen);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    /* of the GPUs that communicate: a 2-rank suite's reduction spans 2
     * GPUs (its sweep's bound tops at 512 GB/s), not the board's 8 */
    for (int r = 0; r < t->n_gpus; r++)
        if (seen[r] && (!ranks || cr_rankset_index(ranks, r) >= 0))
            peers[n++] = r;
    free(seen);
    c->scaleup_gpus = n;
    if (reducing_switch && n > 1) {
        /* The collective bound of a large allreduce over the GPUs on the
         * reducing switches, with in-switch reduction credited, in bus
         * bytes (doc/bounds.md derives it). Without a model answer, the
         * simple form: each GPU sends S and receives S instead of the
         * ring's 2(n-1)/n S, so 2(n-1)/n x the port bandwidth. */
        c->in_switch_Bps = c->scaleup_Bps * 2.0 * (n - 1) / n;
        cr_rankset *rs = NULL;
        cr_coll_ctx *ctx = NULL;
        cr_coll_req rq = cr_coll_req_default(CR_COLL_ALLREDUCE, 64.0 * 1024 * 1024 * 1024);
        rq.dtype = CR_DT_BF16;
        cr_coll_bound b;
        if (cr_rankset_from_array(peers, n, t->n_gpus, &rs, NULL) == CR_OK &&
            cr_coll_ctx_new(t, rs, &ctx, NULL) == CR_OK &&
            cr_coll_bound_eval(ctx, &rq, &b, NULL) == CR_OK && b.in_network && b.busbw_Bps > 0) {
            c->in_switch_Bps = b.busbw_Bps;
            c->in_switch_from_bound = true;
        }
        cr_coll_ctx_free(ctx);
        cr_rankset_free(rs);
    }
    free(peers);

    /* the node's NIC ports to the network, shared by the node's GPUs;
     * ranks all on g's node send nothing over it */
    int node = t->devs[g].node, gpus_in_node = 0;
    if (ranks) {
        c->one_node = true;
        for (int i = 0; i < ranks->n; i++)
            c->one_node = c->one_node && t->devs[t->gpus[ranks->ranks[i]]].node == node;
        if (c->one_node)
            return CR_OK;
    }
    double net = 0;
    bool eth = false;
    for (int v = 0; v < t->n_devs; v++) {
        if (t->devs[v].node != node)
            continue;
        if (t->devs[v].kind == CR_DEV_GPU)
            gpus_in_node++;
        if (t->devs[v].kind != CR_DEV_NIC)
            continue;
        for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            if (cr_route_network(l->kind)) {
                net += cr_link_bw_from(l, v);
                eth = eth || l->kind == CR_LINK_ETHERNET;
            }
        }
    }
    if (net > 0 && gpus_in_node > 0) {
        c->net_Bps = net / gpus_in_node;
        c->net_kind = eth ? "Ethernet" : "InfiniBand";
    }
    return CR_OK;
}

/* The slanted ceilings of the communication roofline: the fastest (the
 * roofline's top at intensity x is min(top peak, x times it)), and the
 * slowest in *bmin. The network's reference line counts where there is no
 * network: it is drawn. */
static double comm_roof_Bps(const cr_comm_ceilings *cc, double *bmin)
{
    double bws[4] = {cc->scaleup_Bps, cc->in_switch_Bps, cc->pcie_Bps,
                     cc->net_Bps > 0 ? cc->net_Bps : REF_IB_NDR_Bps};
    double bmax = 0;
    *bmin = INFINITY;
    for (int i = 0; i < 4; i++)
        if (bws[i] > 0) {
            *bmin = fmin(*bmin, bws[i]);
            bmax = fmax(bmax, bws[i]);
        }
    return bmax;
}

cr_status cr_plot_roof_top(const cr_topo *t, int gpu_rank, const cr_rankset *ranks, bool comm,
                           double *peak_flops, double *Bps, cr_diag *d)
{
    *peak_flops = *Bps = NAN;
    const cr_gpu_spec *g = gpu_of(t, gpu_rank, d);
    if (!g)
        return CR_EINVAL;
    peak pk[CR_DT__COUNT];
    if (collect_peaks(g->peak_flops, pk) == 0)
        return cr_diag_set(d, CR_EINVAL, "GPU model %s has no compute peak: no roofline", g->name);
    double bw = hbm_roof_Bps(g);
    if (comm) {
        cr_comm_ceilings cc;
        double bmin;
        cr_status st = cr_plot_comm_ceilings(t, gpu_rank, ranks, &cc, d);
        if (st != CR_OK)
            return st;
        bw = comm_roof_Bps(&cc, &bmin);
    }
    *peak_flops = pk[0].flops;
    *Bps = bw;
    return CR_OK;
}

cr_status cr_plot_comm_roofline(const cr_topo *t, int gpu_rank, const cr_rankset *ranks,
                                const cr_roof_set *sets, int nsets, cr_chart **out, cr_diag *d)
{
    *out = NULL;
    const cr_gpu_spec *g = gpu_of(t, gpu_rank, d);
    if (!g)
        return CR_EINVAL;
    cr_comm_ceilings cc;
    cr_status st = cr_plot_comm_ceilings(t, gpu_rank, ranks, &cc, d);
    if (st != CR_OK)
        return st;
    /* compute ceilings: BF16 (the suites' type) and FP8, else the best */
    double top = 0;
    peak pk[CR_DT__COUNT];
    int npk = collect_peaks(g->peak_flops, pk);
    if (npk == 0)
        return cr_diag_set(d, CR_EINVAL, "GPU model %s has no compute peak: no roofline", g->name);
    top = pk[0].flops;

    double bmin = INFINITY, bmax = comm_roof_Bps(&cc, &bmin);
    double xlo = top / bmax / 100.0, xhi = top / bmin * 1.5;
    double ylo = INFINITY, yhi = top;
    points_extent(sets, nsets, &xlo, &xhi, &ylo, &yhi);
    xlo = dec_floor(xlo * 0.8);
    xhi = dec_ceil(xhi * 1.25);
    ylo = dec_floor(fmin(ylo, xlo * bmin) * 0.8);
    yhi = dec_ceil(yhi * 1.5);

    char title[256], buf[64], name[200];
    snprintf(title, sizeof title, "Communication roofline: %s (GPU %d of %s)", g->name, gpu_rank,
             t->name);
    cr_chart *c = cr_chart_new(CR_CHART_XY, title);
    if (!c)
        return oom(d);
    if (cr_chart_subtitle(c, "bytes communicated = bus bytes per GPU (nccl-tests convention); "
                             "ceilings per GPU, per direction") != CR_OK ||
        cr_chart_axis(c, 'x', "communication intensity (FLOP per byte communicated)",
                      CR_AXIS_LOG) != CR_OK ||
        cr_chart_si_ticks(c, 'x', "") != CR_OK ||
        cr_chart_axis(c, 'y', "performance (TFLOP/s)", CR_AXIS_LOG) != CR_OK ||
        cr_chart_range(c, 'x', xlo, xhi) != CR_OK ||
        cr_chart_range(c, 'y', ylo / TFLOPS, yhi / TFLOPS) != CR_OK) {
        st = oom(d);
        goto fail;
    }
    if (cc.scaleup_Bps > 0) {
        snprintf(name, sizeof name, "%s %s", cc.scaleup_kind,
                 fmt_bw(cc.scaleup_Bps, buf, sizeof buf));
        if ((st = slanted(c, name, CR_SERIES_LINE, cc.scaleup_Bps, xlo, top, xhi, d)) != CR_OK)
            goto fail;
    }
    if (cc.in_switch_Bps > 0) {
        snprintf(name, sizeof name, "%s + in-switch reduction %s (allreduce bound, %d GPUs)",
                 cc.scaleup_kind, fmt_bw(cc.in_switch_Bps, buf, sizeof buf), cc.scaleup_gpus);
        if ((st = slanted(c, name, CR_SERIES_LINE, cc.in_switch_Bps, xlo, top, xhi, d)) != CR_OK)
            goto fail;
    }
    if (cc.pcie_Bps > 0) {
        snprintf(name, sizeof name, "PCIe %s", fmt_bw(cc.pcie_Bps, buf, sizeof buf));
        if ((st = slanted(c, name, CR_SERIES_LINE, cc.pcie_Bps, xlo, top, xhi, d)) != CR_OK)
            goto fail;
    }
    if (cc.net_Bps > 0) {
        snprintf(name, sizeof name, "%s %s per GPU", cc.net_kind,
                 fmt_bw(cc.net_Bps, buf, sizeof buf));
        st = slanted(c, name, CR_SERIES_LINE, cc.net_Bps, xlo, top, xhi, d);
    } else {
        /* the topology may well have NICs (hgx-h200-8 has 8): what is
         * missing is a fabric between nodes that these ranks would use */
        if (cc.one_node)
            snprintf(name, sizeof name,
                     "InfiniBand NDR 50 GB/s per GPU (reference: no inter-node fabric among "
                     "these ranks)");
        else
            snprintf(name, sizeof name,
                     "InfiniBand NDR 50 GB/s per GPU (reference: %s has no inter-node fabric)",
                     t->name);
        st = slanted(c, name, CR_SERIES_DASHED, REF_IB_NDR_Bps, xlo, top, xhi, d);
    }
    if (st != CR_OK)
        goto fail;
    for (int i = 0; i < npk; i++) {
        /* BF16 and FP8 are what fused multi-GPU kernels run in */
        if (i > 0 && !strstr(pk[i].names, "BF16") && !strstr(pk[i].names, "FP8"))
            continue;
        snprintf(name, sizeof name, "%s %s", pk[i].names, fmt_flops(pk[i].flops, buf, sizeof buf));
        double knee = bmax > 0 ? pk[i].flops / bmax : xlo;
        if ((st = flat(c, name, CR_SERIES_LINE, pk[i].flops, fmax(knee, xlo), xhi, d)) != CR_OK)
            goto fail;
    }
    if ((st = add_points(c, sets, nsets, d)) != CR_OK)
        goto fail;
    cr_chart_size(c, 1250, 700);
    *out = c;
    return CR_OK;
fail:
    cr_chart_free(c);
    return st;
}

static double pct(double bound_s, double t_s)
{
    return (t_s > 0 && isfinite(t_s)) ? bound_s / t_s * 100.0 : NAN;
}

cr_status cr_plot_gap(const char *context, const char *source, const char *const *measured_names,
                      int n_measured, const cr_gap_row *rows, int n, cr_chart **out, cr_diag *d)
{
    return cr_plot_gap_of("problem", context, source, measured_names, n_measured, rows, n, out, d);
}

cr_status cr_plot_gap_of(const char *what, const char *context, const char *source,
                         const char *const *measured_names, int n_measured, const cr_gap_row *rows,
                         int n, cr_chart **out, cr_diag *d)
{
    *out = NULL;
    if (n <= 0)
        return cr_diag_set(d, CR_EINVAL, "gap chart: no %ss to draw", what);
    if (n_measured < 0 || n_measured > CR_GAP_MAX_MEASURED)
        return cr_diag_set(d, CR_EINVAL, "gap chart: %d measured series, at most %d", n_measured,
                           CR_GAP_MAX_MEASURED);
    bool any_pred = false, any_base = false;
    double top = 100.0;
    for (int i = 0; i < n; i++) {
        if (!(rows[i].bound_s > 0) || !isfinite(rows[i].bound_s))
            return cr_diag_set(d, CR_EINVAL, "gap chart: %s \"%s\" has no positive bound", what,
                               rows[i].name);
        any_pred = any_pred || rows[i].pred_s > 0;
        any_base = any_base || rows[i].baseline_s > 0;
        double ts[2 + CR_GAP_MAX_MEASURED] = {rows[i].baseline_s, rows[i].pred_s};
        for (int j = 0; j < n_measured; j++)
            ts[2 + j] = rows[i].measured_s[j];
        for (int j = 0; j < 2 + n_measured; j++) {
            double v = pct(rows[i].bound_s, ts[j]);
            if (isfinite(v))
                top = fmax(top, v);
        }
    }
    char title[160];
    snprintf(title, sizeof title, "Gap to the roofline: %% of roofline per %s", what);
    cr_chart *c = cr_chart_new(CR_CHART_BARS, title);
    if (!c)
        return oom(d);
    cr_status st = CR_OK;
    char sub[900];
    snprintf(sub, sizeof sub, "%s%s%% of roofline = bound / time x 100; the bound is 100%%%s%s",
             context ? context : "", context ? "; " : "", source ? "; measured: " : "",
             source ? source : "");
    /* model bars first, then what was measured */
    int sb = any_base
                 ? cr_chart_series(c, "model: baseline (PyTorch + NCCL)", CR_SERIES_LINE, false)
                 : -2;
    int sp = any_pred ? cr_chart_series(c, "model: prediction (best overlap schedule)",
                                        CR_SERIES_LINE, false)
                      : -2;
    int sm[CR_GAP_MAX_MEASURED];
    bool bad = sb == -1 || sp == -1;
    for (int j = 0; j < n_measured; j++) {
        sm[j] = cr_chart_series(c, measured_names[j], CR_SERIES_LINE, false);
        bad = bad || sm[j] < 0;
    }
    /* the 100% line and every bar inside the frame, with room for a label */
    if (bad || cr_chart_subtitle(c, sub) != CR_OK ||
        cr_chart_axis(c, 'x', what, CR_AXIS_LINEAR) != CR_OK ||
        cr_chart_axis(c, 'y', "% of roofline (bound / time x 100)", CR_AXIS_LINEAR) != CR_OK ||
        cr_chart_range(c, 'y', 0, ceil(top * 1.1 / 10.0 - 1e-9) * 10.0) != CR_OK ||
        cr_chart_hline(c, 100.0, "bound (100%)") != CR_OK) {
        st = oom(d);
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        int k = cr_chart_category(c, rows[i].name);
        if (k < 0 ||
            (sb >= 0 &&
             cr_chart_bar(c, sb, k, pct(rows[i].bound_s, rows[i].baseline_s)) != CR_OK) ||
            (sp >= 0 && cr_chart_bar(c, sp, k, pct(rows[i].bound_s, rows[i].pred_s)) != CR_OK)) {
            st = oom(d);
            goto fail;
        }
        for (int j = 0; j < n_measured; j++)
            if (cr_chart_bar(c, sm[j], k, pct(rows[i].bound_s, rows[i].measured_s[j])) != CR_OK) {
                st = oom(d);
                goto fail;
            }
    }
    int w = 260 + n * (26 + 10 * (2 + n_measured));
    cr_chart_size(c, w < 1000 ? 1000 : w, 720);
    *out = c;
    return CR_OK;
fail:
    cr_chart_free(c);
    return st;
}

/* The size after sz in a sweep by factor: rounded down to whole bytes and
 * at least one byte more (coll's cli_next_size) */
static double sweep_next(double sz, double factor)
{
    return fmax(floor(sz * factor), sz + 1);
}

cr_status cr_plot_sweep_sizes_check(cr_coll coll, cr_dtype dtype, int nranks, double min_bytes,
                                    double max_bytes, double factor, cr_diag *d)
{
    double esize = cr_dtype_bytes(dtype);
    int steps = 0;
    for (double sz = min_bytes; sz <= max_bytes * (1 + 1e-12) && steps < 4096;
         sz = sweep_next(sz, factor), steps++)
        if (cr_coll_nccl_bytes(coll, sz, esize, nranks) > 0)
            return CR_OK;
    /* the least size that moves anything: an element, or where nccl-tests
     * splits the buffer over the ranks a part of 16 B (or one element, if
     * larger) a rank */
    double part = esize < 16 ? floor(16 / esize) * esize : esize;
    double least = cr_coll_nccl_bytes(coll, esize, esize, nranks) > 0 ? esize : part * nranks;
    return cr_diag_set(d, CR_EINVAL,
                       "sweep sizes %.0f to %.0f B are too small for %s of %s over %d rank%s: "
                       "nccl-tests sizes them to 0 below %.0f B; start at -b %.0f or above",
                       min_bytes, max_bytes, cr_coll_name(coll), cr_dtype_name(dtype), nranks,
                       nranks == 1 ? "" : "s", least, least);
}

cr_status cr_plot_sweep(const cr_topo *t, const cr_sweep_opts *o, const cr_sweep_meas_set *meas,
                        int nmeas, cr_chart **out, cr_diag *d)
{
    *out = NULL;
    if (!(o->min_bytes > 0) || !(o->max_bytes >= o->min_bytes) || !(o->factor > 1.0) ||
        !isfinite(o->max_bytes))
        return cr_diag_set(d, CR_EINVAL,
                           "sweep sizes: need 0 < min <= max and factor > 1 (got %g, %g, %g)",
                           o->min_bytes, o->max_bytes, o->factor);
    cr_coll_ctx *ctx = NULL;
    cr_status st = cr_coll_ctx_new(t, o->ranks, &ctx, d);
    if (st != CR_OK)
        return st;
    int nr = cr_coll_ctx_nranks(ctx);
    if (!(cr_coll_busbw_factor(o->coll, nr) > 0)) {
        cr_coll_ctx_free(ctx);
        return cr_diag_set(d, CR_EUNSUPPORTED,
                           "%s over %d rank%s moves nothing between GPUs (the nccl-tests bus "
                           "factor is 0): sweep 2 or more ranks (--ranks, or a topology with "
                           "more GPUs)",
                           cr_coll_name(o->coll), nr, nr == 1 ? "" : "s");
    }
    char title[256], sub[256];
    snprintf(title, sizeof title, "%s bus bandwidth on %s (%d rank%s, %s)", cr_coll_name(o->coll),
             t->name, nr, nr == 1 ? "" : "s", cr_dtype_name(o->dtype));
    cr_snprintf_c(sub, sizeof sub, "busbw = bytes / time x %.4g (nccl-tests factor)",
                  cr_coll_busbw_factor(o->coll, nr));
    cr_chart *c = cr_chart_new(CR_CHART_XY, title);
    int sbound =
        c ? cr_chart_series(c, "bound (no implementation is faster)", CR_SERIES_LINE, false) : -1;
    int snccl =
        c ? cr_chart_series(c, "prediction: NCCL's choice", CR_SERIES_LINEPOINTS, false) : -1;
    int smech[CR_MECH__COUNT];
    for (int m = 0; m < CR_MECH__COUNT; m++) {
        char nm[96];
        snprintf(nm, sizeof nm, "prediction: custom kernel, %s", cr_mech_name((cr_mech)m));
        smech[m] = c ? cr_chart_series(c, nm, CR_SERIES_DASHED, false) : -1;
        if (smech[m] < 0)
            sbound = -1;
    }
    if (!c || sbound < 0 || snccl < 0 || cr_chart_subtitle(c, sub) != CR_OK ||
        cr_chart_axis(c, 'x', "message size (bytes, nccl-tests size)", CR_AXIS_LOG) != CR_OK ||
        cr_chart_si_ticks(c, 'x', "B") != CR_OK ||
        cr_chart_axis(c, 'y', "bus bandwidth (GB/s)", CR_AXIS_LOG) != CR_OK) {
        st = oom(d);
        goto fail;
    }
    /* a chart with more than a few thousand sizes draws nothing more; the
     * sizes step and round as coll's and nccl-tests' do (whole elements,
     * whole elements per rank where the count is per rank): a size that
     * holds none moves nothing and has no point */
    int steps = 0, points = 0;
    double esize = cr_dtype_bytes(o->dtype);
    double max_bytes = o->max_bytes;
    if (o->past_max_to_measured) {
        /* up to the first size of the sweep's steps at or past the largest
         * measured one: one step short of a factor past it */
        for (int k = 0; k < nmeas; k++)
            for (int j = 0; j < meas[k].n; j++)
                if (meas[k].pts[j].bytes > max_bytes)
                    max_bytes = meas[k].pts[j].bytes * o->factor * (1 - 1e-9);
    }
    for (double sz = o->min_bytes; sz <= max_bytes * (1 + 1e-12) && steps < 4096;
         sz = sweep_next(sz, o->factor), steps++) {
        double b = cr_coll_nccl_bytes(o->coll, sz, esize, nr);
        if (!(b > 0))
            continue;
        points++;
        cr_coll_req rq = cr_coll_req_default(o->coll, b);
        rq.dtype = o->dtype;
        cr_coll_result res;
        if ((st = cr_coll_eval(ctx, &rq, &res, d)) != CR_OK)
            goto fail;
        if (cr_chart_point(c, sbound, b, res.bound.busbw_Bps / GBPS, NULL) != CR_OK ||
            (res.pred.supported &&
             cr_chart_point(c, snccl, b, res.pred.busbw_Bps / GBPS, NULL) != CR_OK)) {
            st = oom(d);
            goto fail;
        }
        for (int m = 0; m < CR_MECH__COUNT; m++) {
            rq.mech = (cr_mech)m;
            cr_coll_pred p;
            if ((st = cr_coll_predict(ctx, &rq, &p, d)) != CR_OK)
                goto fail;
            if (p.supported && cr_chart_point(c, smech[m], b, p.busbw_Bps / GBPS, NULL) != CR_OK) {
                st = oom(d);
                goto fail;
            }
        }
    }
    if (points == 0) {
        st =
            cr_plot_sweep_sizes_check(o->coll, o->dtype, nr, o->min_bytes, max_bytes, o->factor, d);
        if (st == CR_OK) /* sizes that move bytes, none of which gave a point */
            st = cr_diag_set(d, CR_EINVAL, "sweep of %s: no size gave a point",
                             cr_coll_name(o->coll));
        goto fail;
    }
    for (int i = 0; i < nmeas; i++) {
        char nm[200];
        snprintf(nm, sizeof nm, "measured: %s", meas[i].name);
        int s = cr_chart_series(c, nm, CR_SERIES_POINTS, false);
        if (s < 0) {
            st = oom(d);
            goto fail;
        }
        for (int j = 0; j < meas[i].n; j++)
            if (cr_chart_point(c, s, meas[i].pts[j].bytes, meas[i].pts[j].busbw_Bps / GBPS, NULL) !=
                CR_OK) {
                st = oom(d);
                goto fail;
            }
    }
    cr_chart_size(c, 1200, 700);
    cr_coll_ctx_free(ctx);
    *out = c;
    return CR_OK;
fail:
    cr_coll_ctx_free(ctx);
    cr_chart_free(c);
    return st;
}

cr_status cr_plot_compare(const char *context, cr_compare_metric metric,
                          const char *const *topo_names, int n_topos,
                          const char *const *problem_names, int n_problems, const double *values,
                          cr_chart **out, cr_diag *d)
{
    *out = NULL;
    if (n_topos <= 0 || n_problems <= 0)
        return cr_diag_set(d, CR_EINVAL, "compare chart: need at least one topology and problem");
    bool bound = metric == CR_COMPARE_BOUND_US;
    cr_chart *c = cr_chart_new(CR_CHART_BARS, bound ? "Hardware comparison: bound time per problem"
                                                    : "Hardware comparison: headroom per problem");
    if (!c)
        return oom(d);
    cr_status st = CR_OK;
    bool missing = false;
    for (size_t i = 0; i < (size_t)n_topos * (size_t)n_problems; i++)
        missing = missing || !isfinite(values[i]);
    char sub[400];
    snprintf(sub, sizeof sub, "%s%s%s%s", context ? context : "", context ? "; " : "",
             bound ? "lower is faster"
                   : "headroom = baseline / bound: how much faster than "
                     "PyTorch + NCCL a kernel could be",
             missing
                 ? "; no bar: the machine cannot run the problem (commroof suite --topo says why)"
                 : "");
    if (cr_chart_subtitle(c, sub) != CR_OK ||
        cr_chart_axis(c, 'x', "problem", CR_AXIS_LINEAR) != CR_OK ||
        /* Always log: on CR_AXIS_AUTO a span under two decades came out
         * linear under a label that said log, and headroom from 1x to 97x
         * left most bars a few pixels tall. */
        cr_chart_axis(c, 'y',
                      bound ? "bound time (log; the unit on each tick)"
                            : "headroom (baseline / bound, x; log)",
                      CR_AXIS_LOG) != CR_OK ||
        (bound && cr_chart_si_ticks(c, 'y', "us") != CR_OK)) {
        st = oom(d);
        goto fail;
    }
    for (int t = 0; t < n_topos; t++)
        if (cr_chart_series(c, topo_names[t], CR_SERIES_LINE, false) < 0) {
            st = oom(d);
            goto fail;
        }
    if (!bound && cr_chart_hline(c, 1.0, "headroom 1 (baseline at the bound)") != CR_OK) {
        st = oom(d);
        goto fail;
    }
    for (int p = 0; p < n_problems; p++) {
        int k = cr_chart_category(c, problem_names[p]);
        if (k < 0) {
            st = oom(d);
            goto fail;
        }
        for (int t = 0; t < n_topos; t++) {
            double v = values[(size_t)t * (size_t)n_problems + (size_t)p];
            if (bound && isfinite(v))
                v /= US;
            if (cr_chart_bar(c, t, k, v) != CR_OK) {
                st = oom(d);
                goto fail;
            }
        }
    }
    int w = 260 + n_problems * (14 * n_topos + 14);
    cr_chart_size(c, w < 1000 ? 1000 : w, 720);
    *out = c;
    return CR_OK;
fail:
    cr_chart_free(c);
    return st;
}

static bool acc_usable(const cr_acc_point *p)
{
    return p->pred_s > 0 && p->measured_s > 0 && isfinite(p->pred_s) && isfinite(p->measured_s);
}

/* The cases as one series per family, the largest family first so that a
 * small one is drawn over it rather than hidden under it: x the measured
 * time (us), y the predicted time (us) or, with ratio, predicted /
 * measured. Labels when there are at most 24 cases. */
static cr_status acc_families(cr_chart *c, const cr_acc_point *pts, int n, int usable, bool ratio,
                              cr_diag *d)
{
    enum { MAX_FAM = 32 };
    const char *fam[MAX_FAM];
    int count[MAX_FAM], order[MAX_FAM], sfam[MAX_FAM], nfam = 0;
    bool label = usable <= 24;
    /* families in order of first appearance (past 32: folded into the
     * last), with their sizes */
    int *which = malloc((size_t)(n > 0 ? n : 1) * sizeof *which);
    if (!which)
        return oom(d);
    for (int i = 0; i < n; i++) {
        which[i] = -1;
        if (!acc_usable(&pts[i]))
            continue;
        const char *f = pts[i].family ? pts[i].family : "cases";
        int j = 0;
        while (j < nfam && strcmp(fam[j], f) != 0)
            j++;
        if (j == nfam && nfam == MAX_FAM)
            j = MAX_FAM - 1;
        else if (j == nfam) {
            fam[nfam] = f;
            count[nfam++] = 0;
        }
        count[j]++;
        which[i] = j;
    }
    for (int j = 0; j < nfam; j++)
        order[j] = j;
    for (int j = 1; j < nfam; j++) /* stable: equal sizes keep their order */
        for (int k = j; k > 0 && count[order[k]] > count[order[k - 1]]; k--) {
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    cr_status st = CR_OK;
    for (int j = 0; j < nfam && st == CR_OK; j++) {
        sfam[order[j]] = cr_chart_series(c, fam[order[j]], CR_SERIES_POINTS, label);
        if (sfam[order[j]] < 0)
            st = oom(d);
    }
    for (int i = 0; i < n && st == CR_OK; i++) {
        if (which[i] < 0)
            continue;
        double y = ratio ? pts[i].pred_s / pts[i].measured_s : pts[i].pred_s / US;
        if (cr_chart_point(c, sfam[which[i]], pts[i].measured_s / US, y, pts[i].label) != CR_OK)
            st = oom(d);
    }
    free(which);
    return st;
}

cr_status cr_plot_accuracy_ratio(const char *context, const cr_acc_point *pts, int n,
                                 cr_chart **out, cr_diag *d)
{
    *out = NULL;
    double lo = INFINITY, hi = 0, rmax = 0;
    int usable = 0;
    double *err = malloc((size_t)(n > 0 ? n : 1) * sizeof *err);
    if (!err)
        return oom(d);
    for (int i = 0; i < n; i++)
        if (acc_usable(&pts[i])) {
            double r = pts[i].pred_s / pts[i].measured_s;
            err[usable++] = fabs(r - 1.0);
            lo = fmin(lo, pts[i].measured_s);
            hi = fmax(hi, pts[i].measured_s);
            rmax = fmax(rmax, r);
        }
    if (usable == 0) {
        free(err);
        return cr_diag_set(d, CR_EINVAL,
                           "accuracy chart: no case has both a prediction and a measurement");
    }
    double med = cr_median(err, (size_t)usable);
    free(err);
    lo = dec_floor(lo / US * 0.8);
    hi = dec_ceil(hi / US * 1.25);
    if (hi <= lo)
        hi = lo * 10;
    /* linear from 0: the +/-10% band is a fifth of the way from 0 to 1, and
     * a prediction twice the measurement is as far above 1 as 0 is below */
    double ytop = fmax(2.0, ceil(rmax * 1.08 * 4.0) / 4.0);
    cr_chart *c = cr_chart_new(CR_CHART_XY, "Prediction error: predicted / measured time");
    if (!c)
        return oom(d);
    cr_status st = CR_OK;
    char sub[400];
    cr_snprintf_c(sub, sizeof sub,
                  "%s%s%d case%s; median |error| %.1f%%; 1 = exact; in the band: within 10%%",
                  context ? context : "", context ? "; " : "", usable, usable == 1 ? "" : "s",
                  med * 100.0);
    int band = cr_chart_series(c, "within +/-10%", CR_SERIES_BAND, false);
    int one = cr_chart_series(c, "1 (exact)", CR_SERIES_LINE, false);
    if (band < 0 || one < 0 || cr_chart_subtitle(c, sub) != CR_OK ||
        cr_chart_axis(c, 'x', "measured time (log; the unit on each tick)", CR_AXIS_LOG) != CR_OK ||
        cr_chart_axis(c, 'y', "predicted / measured time (x)", CR_AXIS_LINEAR) != CR_OK ||
        cr_chart_si_ticks(c, 'x', "us") != CR_OK || cr_chart_range(c, 'x', lo, hi) != CR_OK ||
        cr_chart_range(c, 'y', 0, ytop) != CR_OK || cr_chart_band(c, band, lo, 0.9, 1.1) != CR_OK ||
        cr_chart_band(c, band, hi, 0.9, 1.1) != CR_OK ||
        cr_chart_point(c, one, lo, 1.0, NULL) != CR_OK ||
        cr_chart_point(c, one, hi, 1.0, NULL) != CR_OK) {
        st = oom(d);
        goto fail;
    }
    if ((st = acc_families(c, pts, n, usable, true, d)) != CR_OK)
        goto fail;
    cr_chart_size(c, 1100, 650);
    *out = c;
    return CR_OK;
fail:
    cr_chart_free(c);
    return st;
}

cr_status cr_plot_accuracy(const char *context, const cr_acc_point *pts, int n, cr_chart **out,
                           cr_diag *d)
{
    *out = NULL;
    double lo = INFINITY, hi = 0;
    int usable = 0;
    for (int i = 0; i < n; i++)
        if (acc_usable(&pts[i])) {
            usable++;
            lo = fmin(lo, fmin(pts[i].pred_s, pts[i].measured_s));
            hi = fmax(hi, fmax(pts[i].pred_s, pts[i].measured_s));
        }
    if (usable == 0)
        return cr_diag_set(d, CR_EINVAL,
                           "accuracy chart: no case has both a prediction and a measurement");
    lo = dec_floor(lo / US * 0.8);
    hi = dec_ceil(hi / US * 1.25);
    if (hi <= lo)
        hi = lo * 10;
    cr_chart *c = cr_chart_new(CR_CHART_XY, "Prediction accuracy: predicted against measured");
    if (!c)
        return oom(d);
    cr_status st = CR_OK;
    char sub[300];
    snprintf(sub, sizeof sub, "%s%s%d case%s; on the line: exact; in the band: within 10%%",
             context ? context : "", context ? "; " : "", usable, usable == 1 ? "" : "s");
    int band = cr_chart_series(c, "within +/-10%", CR_SERIES_BAND, false);
    int diag = cr_chart_series(c, "y = x (exact)", CR_SERIES_LINE, false);
    if (band < 0 || diag < 0 || cr_chart_subtitle(c, sub) != CR_OK ||
        cr_chart_axis(c, 'x', "measured time (log; the unit on each tick)", CR_AXIS_LOG) != CR_OK ||
        cr_chart_axis(c, 'y', "predicted time (log; the unit on each tick)", CR_AXIS_LOG) !=
            CR_OK ||
        cr_chart_si_ticks(c, 'x', "us") != CR_OK || cr_chart_si_ticks(c, 'y', "us") != CR_OK ||
        cr_chart_range(c, 'x', lo, hi) != CR_OK || cr_chart_range(c, 'y', lo, hi) != CR_OK ||
        cr_chart_band(c, band, lo, lo * 0.9, lo * 1.1) != CR_OK ||
        cr_chart_band(c, band, hi, hi * 0.9, hi * 1.1) != CR_OK ||
        cr_chart_point(c, diag, lo, lo, NULL) != CR_OK ||
        cr_chart_point(c, diag, hi, hi, NULL) != CR_OK) {
        st = oom(d);
        goto fail;
    }
    if ((st = acc_families(c, pts, n, usable, false, d)) != CR_OK)
        goto fail;
    cr_chart_size(c, 1100, 800);
    *out = c;
    return CR_OK;
fail:
    cr_chart_free(c);
    return st;
}
