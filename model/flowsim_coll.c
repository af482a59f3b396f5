/* SPDX-License-Identifier: MIT */
/*
 * Collectives expanded into dependency graphs of flows for the simulator
 * (see flowsim.h; doc/simulator.md derives each expansion and shows that
 * without contention it reproduces the closed form of coll.h:
 *   pred = launch + n_steps x step_lat + wire_bytes / (link_Bps x bw_eff)).
 *
 * Every flow carries its payload divided by bw_eff (the protocol's and
 * mechanism's achieved fraction of the link), so on an idle fabric it moves
 * at bw_eff x the link rate, and when links are shared max-min fairness
 * divides the raw capacity; where NCCL's channels bind each point-to-point
 * message instead (msg_cap_Bps), a direct flow carries its own bytes at
 * most at the message's rate, and where they cap a ring below its links
 * (ring_cap_Bps), each channel's flows carry theirs at the links' own
 * efficiency (link_eff) at most at the channel's rate. A ring's hops
 * through host memory carry theirs at that transport's figure (eff_shm).
 * A step's latency is step_lat_s, of which the route's hop latency is part
 * (a longer route than the closed form assumed costs the difference).
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flowsim_xp_priv.h"
#include "grow.h"
#include "route.h"

cr_sim_coll_spec cr_sim_coll_spec_from_pred(cr_coll c, double bytes, const cr_coll_pred *p)
{
    cr_sim_coll_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.coll = c;
    sp.bytes = bytes;
    sp.algo = p->algo;
    sp.nchannels = p->nchannels > 0 ? p->nchannels : 1;
    sp.launch_s = p->launch_s;
    sp.step_lat_s = p->step_lat_s;
    sp.bw_eff = p->bw_eff > 0 ? p->bw_eff : 1.0;
    sp.net_nics = p->net_nics;
    /* used by one rank only (nothing crosses a link): NCCL's local copy as
     * coll prices it, after the launch */
    sp.local_s = p->pred_s > p->launch_s ? p->pred_s - p->launch_s : 0;
    if (p->per_message && p->wire_Bps > 0) {
        /* the rate is one message's, not the links': each flow runs its
         * own bytes at most at it, the links at their full rate */
        sp.msg_cap_Bps = p->wire_Bps;
        sp.bw_eff = 1.0;
    }
    /* a ring that NCCL's channels cap below its links (LL's per-channel
     * rate, llMaxBw): the cap on the flows, the links' own figures on the
     * wire. Charged to every link as wire bytes (payload / bw_eff), the
     * cap made links that several of the ring's flows share saturate
     * below the channels' rate (test_ring_cap_on_flows) */
    if (p->link_eff > sp.bw_eff && p->link_eff <= 1 && p->wire_Bps > 0 && !p->per_message &&
        p->algo == CR_ALGO_RING) {
        sp.ring_cap_Bps = p->wire_Bps;
        sp.link_eff = p->link_eff;
    }
    /* a direct pattern's messages and a ring's hops each at its
     * transport's efficiency, as coll prices them (algo_direct.c
     * algo_direct_effs, algo.c's ring); not where one message's channels
     * bind (per_message: each flow at their rate) */
    if ((p->algo == CR_ALGO_DIRECT || p->algo == CR_ALGO_RING) && !p->per_message) {
        sp.eff_mate = p->eff_mate;
        sp.eff_shm = p->eff_shm;
        sp.eff_net = p->eff_net;
    }
    /* a library's direct allreduce is RCCL's MSCCL all-pairs (algo.c);
     * a custom kernel's (p->mech) is one-shot */
    sp.allpairs = p->algo == CR_ALGO_DIRECT && c == CR_COLL_ALLREDUCE && p->mech == CR_MECH_NONE;
    sp.grain = CR_SIM_GRAIN_AUTO;
    return sp;
}

/* The refusal when an expansion would take the simulator past its task
 * budget (all ops together, CR_SIM_FLOWS_MAX): what this op needs, what the
 * ops before it hold, the limit, and what to do. */
static cr_status budget_fail(cr_sim *s, cr_diag *d, const char *what, int n, double tasks,
                             const char *hint)
{
    long held = cr_sim_n_tasks(s), lim = cr_sim_task_limit(s);
    char prior[96] = "";
    if (held > 2)
        snprintf(prior, sizeof prior, " with the %ld tasks the simulation holds already,", held);
    return cr_diag_set(d, CR_ERANGE,
                       "simulator: %s over %d ranks is %.0f tasks;%s more than the %ld one "
                       "simulation takes (about %.1f GB at 280 bytes a flow); %s",
                       what, n, tasks, prior, lim, (double)lim * 280e-9, hint);
}

/* Whether `more` tasks still fit the simulator's budget. */
static bool budget_fits(const cr_sim *s, double more)
{
    return more <= (double)(cr_sim_task_limit(s) - cr_sim_n_tasks(s));
}

#define BUDGET_HINT "simulate fewer ranks (--ranks), or split the scenario into smaller ones"

/* One flow of payload bytes from op rank a to b at efficiency eff with
 * step latency lat_s, after `dep` (and dep2 when >= 0). Returns the task or
 * -1 (diagnostic set). */
static int flow_at(xp *x, int a, int b, double payload, bool reduce, int dep, int dep2, double eff,
                   double lat_s)
{
    double wire = payload / eff;
    int f = x->step_at >= 0 ? cr_sim_flow_add_step_at(x->s, x->op, a, b, wire, x->step_at, reduce)
                            : cr_sim_flow_add_step(x->s, x->op, a, b, wire, lat_s, reduce);
    if (f < 0) {
        const cr_sim_use *u;
        int n;
        double lat;
        if (cr_sim_path(x->s, x->op, x->ranks[a], x->ranks[b], &u, &n, &lat) == CR_ENOTFOUND)
            x->err = cr_diag_set(x->d, CR_ENOTFOUND, "simulator: no route from GPU %d to GPU %d",
                                 x->ranks[a], x->ranks[b]);
        else
            flowsim_xp_oom(x);
        return -1;
    }
    if (cr_sim_dep_add(x->s, dep, f) || (dep2 >= 0 && cr_sim_dep_add(x->s, dep2, f)) ||
        cr_sim_dep_add(x->s, f, x->last) ||
        (x->ch_cap_Bps > 0 && cr_sim_flow_cap(x->s, f, x->ch_cap_Bps / eff) != CR_OK)) {
        flowsim_xp_oom(x);
        return -1;
    }
    return f;
}

/* One flow at the op's efficiency and step latency (flow_at). */
static int flow(xp *x, int a, int b, double payload, bool reduce, int dep, int dep2)
{
    return flow_at(x, a, b, payload, reduce, dep, dep2, x->eff, x->sp->step_lat_s);
}

/* The entry of an all-to-all-v's size table for a message of `bytes`
 * (cr_sim_coll_spec sizes, ascending), or NULL. */
static const cr_sim_msg_size *size_entry(const cr_sim_coll_spec *sp, double bytes)
{
    int lo = 0, hi = sp->n_sizes;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (sp->sizes[mid].bytes < bytes)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sp->n_sizes && sp->sizes[lo].bytes == bytes ? &sp->sizes[lo] : NULL;
}

static cr_status acc_add(xp *x, int res, double w)
{
    if (cr_grow((void **)&x->acc, &x->cap_acc, (size_t)x->n_acc + 1, sizeof *x->acc))
        return CR_ENOMEM;
    x->acc[x->n_acc].res = res;
    x->acc[x->n_acc].w = w;
    x->n_acc++;
    return CR_OK;
}

/* Adds the edge a -> b (op ranks) to the coupled flow being built, its
 * uses times x->edge_w where set. */
static cr_status acc_edge(xp *x, int a, int b, bool reduce, double *max_lat)
{
    const cr_sim_use *u;
    int n;
    double lat;
    int ga = x->ranks[a], gb = x->ranks[b];
    double k = x->edge_w > 0 ? x->edge_w : 1.0;
    if (ga != gb) {
        cr_status st = cr_sim_path(x->s, x->op, ga, gb, &u, &n, &lat);
        if (st == CR_ENOTFOUND)
            return cr_diag_set(x->d, st, "simulator: no route from GPU %d to GPU %d", ga, gb);
        if (st != CR_OK)
            return flowsim_xp_oom(x);
        if (lat > *max_lat)
            *max_lat = lat;
        for (int i = 0; i < n; i++)
            if (acc_add(x, u[i].res, k * u[i].w))
                return flowsim_xp_oom(x);
    }
    if (acc_add(x, cr_sim_res_hbm(x->s, ga), k) ||
        acc_add(x, cr_sim_res_hbm(x->s, gb), k * (reduce ? 2.0 : 1.0)))
        return flowsim_xp_oom(x);
    return CR_OK;
}

/* Emits the coupled flow (wire bytes per edge) with the latency given whole;
 * *task (when given) is its task. */
static cr_status acc_flush_task(xp *x, double payload, double lat_s, int shown_on, int *task)
{
    int f = cr_sim_flow_add_uses(x->s, x->op, shown_on, CR_SIM_ALL_RANKS, x->acc, x->n_acc,
                                 payload / x->eff, lat_s);
    x->n_acc = 0;
    if (f < 0 || cr_sim_dep_add(x->s, x->first, f) || cr_sim_dep_add(x->s, f, x->last) ||
        (x->ch_cap_Bps > 0 && cr_sim_flow_cap(x->s, f, x->ch_cap_Bps / x->eff) != CR_OK))
        return flowsim_xp_oom(x);
    if (task)
        *task = f;
    return CR_OK;
}

static cr_status acc_flush_lat(xp *x, double payload, double lat_s, int shown_on)
{
    return acc_flush_task(x, payload, lat_s, shown_on, NULL);
}

/* A coupled flow over the same edges as the earlier one `like` (another
 * channel over the same ring or tree): its uses are shared, not built
 * again (cr_sim_flow_add_like). */
static cr_status flush_like(xp *x, int like, double payload, double lat_s, int shown_on)
{
    int f = cr_sim_flow_add_like(x->s, like, shown_on, CR_SIM_ALL_RANKS, payload / x->eff, lat_s);
    if (f < 0 || cr_sim_dep_add(x->s, x->first, f) || cr_sim_dep_add(x->s, f, x->last) ||
        (x->ch_cap_Bps > 0 && cr_sim_flow_cap(x->s, f, x->ch_cap_Bps / x->eff) != CR_OK))
        return flowsim_xp_oom(x);
    return CR_OK;
}

/* ---------- steps ---------- */

/* One step of x->n flows, each after two of the previous step (a ring's
 * steps, PAT's rounds): flow i goes from rank o(i) to o(i + to_shift),
 * after (*prev)[i] (the rank's own previous send) and
 * (*prev)[i + feed_shift] (the send that brought it the data), indices
 * mod n, o(i) = order[i] (i where order is NULL); the first step after the
 * op's start. Then swaps *prev and *cur, so *prev holds this step's flows. */
static cr_status step_flows(xp *x, const int *order, int to_shift, int feed_shift, double payload,
                            bool red, bool first, int **prev, int **cur)
{
    int n = x->n, *p = *prev, *c = *cur;
    cr_status st = CR_OK;
    for (int i = 0; i < n; i++) {
        int j = (i + to_shift) % n;
        int dep = first ? x->first : p[i], dep2 = first ? -1 : p[(i + feed_shift) % n];
        int a = order ? order[i] : i, b = order ? order[j] : j;
        c[i] = x->edge_eff
                   ? flow_at(x, a, b, payload, red, dep, dep2, x->edge_eff[i], x->sp->step_lat_s)
                   : flow(x, a, b, payload, red, dep, dep2);
        if (c[i] < 0) {
            st = x->err;
            break;
        }
    }
    *prev = c;
    *cur = p;
    return st;
}

/* ---------- ring ---------- */

static double transport_eff(xp *x, int a, int b);

/* eff[i]: the transport's figure of the ring's edge order[i] ->
 * order[i + 1] (transport_eff). */
static cr_status ring_edge_effs(xp *x, const int *order, double *eff)
{
    for (int i = 0; i < x->n; i++)
        if ((eff[i] = transport_eff(x, order[i], order[(i + 1) % x->n])) < 0)
            return flowsim_xp_oom(x);
    return CR_OK;
}

/* Mean route latency of the ring's n edges order[i] -> order[i+1]. A ring
 * step's latency is floored there, not at its own edge: its steps pipeline
 * around the ring, so the critical path of 2(n-1) (or n-1) consecutive
 * hops crosses the edges in the ring's mix (doc/bounds.md 2.2.3). */
static cr_status ring_mean_lat(xp *x, const int *order, double *mean)
{
    double sum = 0;
    int n = x->n;
    for (int i = 0; i < n; i++) {
        int ga = x->ranks[order[i]], gb = x->ranks[order[(i + 1) % n]];
        if (ga == gb)
            continue;
        const cr_sim_use *u;
        int nu;
        double lat;
        cr_status st = cr_sim_path(x->s, x->op, ga, gb, &u, &nu, &lat);
        if (st == CR_ENOTFOUND)
            return cr_diag_set(x->d, st, "simulator: no route from GPU %d to GPU %d", ga, gb);
        if (st != CR_OK)
            return flowsim_xp_oom(x);
        sum += lat;
    }
    *mean = n > 0 ? sum / n : 0;
    return CR_OK;
}

/* Channels over the k rings through direct neighbours (a mesh, a torus:
 * flowsim_neighbour_rings, arc-disjoint), channel c on ring c, given C of
 * coll's: more than k run as k, each ring S/k, as RCCL's ring sets spread
 * a GPU's traffic over all its links and coll's rate (every link of the
 * GPU) assumes (8 channels on the 7 rings of 8 MI300X, channel c on ring c
 * mod 7, would load one ring's links twice); fewer than the ranks' links
 * run each flow at the rate that gives coll's over the C links they take,
 * coll stating bw_eff against all of them (8 MI300X, one LL channel at 16
 * KiB: 39 GB/s, 0.087 of seven links, 0.61 of one; x->eff, at most 1).
 * Returns the channels to run; C unchanged without such rings. */
static int mesh_channels(xp *x, int C, double per_link)
{
    /* nodes of such GPUs over a network: at most one channel a ring inside
     * each node too (flowsim_ring_order), the network carrying coll's
     * rate */
    if (x->n_rings <= 0)
        return x->n_node_rings > 0 && C > x->n_node_rings ? x->n_node_rings : C;
    if (C > x->n_rings)
        C = x->n_rings;
    /* (with a channel cap, x->eff is the links' own figure, and stays
     * where it is the higher: the cap then holds each flow to coll's rate) */
    if (C < x->ring_links && per_link < 0)
        x->eff = fmin(1.0, fmax(x->eff, x->sp->bw_eff * x->ring_links / C));
    else if (per_link > 0 && per_link > 1.0 / x->ring_links)
        x->eff = fmin(1.0, fmax(x->eff, x->sp->bw_eff * x->ring_links * per_link));
    return C;
}

/* The share of a tree's traffic out of a GPU that its busiest link carries
 * when C channels' chains follow neighbour rings 0..C-1: a chain moves
 * each of its links' data both ways (tree 0 up, tree 1 down, and back), so
 * a link carries S/C each way for every channel whose chain crosses it,
 * of the 2S a middle GPU sends. One channel's chain takes two links of a
 * GPU, not one as a ring's channel does: the busiest carries half, where
 * coll's rate spreads 2S over all of them (bw_eff against every link).
 * Two channels on a ring and its reverse cross the same links (half each
 * again); channels on other rings add links. Returns that share, or -1
 * when memory runs out. */
static double chain_link_share(xp *x, int C)
{
    int n = x->n, most = 0;
    int *pos = malloc((size_t)C * (size_t)n * sizeof *pos);
    if (!pos)
        return -1;
    for (int c = 0; c < C; c++)
        for (int j = 0; j < n; j++)
            pos[(size_t)c * (size_t)n + (size_t)x->rings[(size_t)c * (size_t)n + (size_t)j]] = j;
    /* a chain is its ring without the closing edge (chain_at, head 0) */
    for (int c = 0; c < C; c++)
        for (int j = 0; j + 1 < n; j++) {
            int a = x->rings[(size_t)c * (size_t)n + (size_t)j],
                b = x->rings[(size_t)c * (size_t)n + (size_t)j + 1], k = 0;
            for (int o = 0; o < C; o++) {
                int d =
                    pos[(size_t)o * (size_t)n + (size_t)a] - pos[(size_t)o * (size_t)n + (size_t)b];
                k += d == 1 || d == -1;
            }
            most = k > most ? k : most;
        }
    free(pos);
    return most / (2.0 * C);
}

static cr_status ring(xp *x)
{
    const cr_sim_coll_spec *sp = x->sp;
    int n = x->n, C = sp->nchannels;
    double S = sp->bytes;
    int steps;
    double chunk; /* per channel, per step */
    switch (sp->coll) {
    case CR_COLL_ALLREDUCE:
        steps = 2 * (n - 1);
        chunk = S / n;
        break;
    case CR_COLL_ALLGATHER:
    case CR_COLL_REDUCESCATTER:
        steps = n - 1;
        chunk = S / n;
        break;
    case CR_COLL_BROADCAST:
    case CR_COLL_REDUCE:
        steps = n - 1;
        chunk = S;
        break;
    default:
        return cr_diag_set(x->d, CR_EUNSUPPORTED, "simulator: ring does not run %s",
                           cr_coll_name(sp->coll));
    }
    bool chain = sp->coll == CR_COLL_BROADCAST || sp->coll == CR_COLL_REDUCE;
    int *order = malloc((size_t)n * sizeof *order);
    int *prev = malloc((size_t)n * sizeof *prev), *cur = malloc((size_t)n * sizeof *cur);
    int *seen = NULL;     /* pipelined: the ring orders built so far */
    double *eff_e = NULL; /* per hop: edge order[i] -> order[i + 1]'s figure */
    cr_status st = CR_OK;
    if (!order || !prev || !cur) {
        st = flowsim_xp_oom(x);
        goto out;
    }
    /* flowsim_ring_order finds the rings through neighbours, if any */
    if ((st = flowsim_ring_order(x, 0, order)) != CR_OK)
        goto out;
    /* NCCL's channels cap the ring below its links: the links' own
     * efficiency on the wire, each channel at most its share of the cap */
    if (sp->ring_cap_Bps > 0)
        x->eff = sp->link_eff;
    C = mesh_channels(x, C, -1);
    chunk /= C;
    if (sp->ring_cap_Bps > 0)
        x->ch_cap_Bps = sp->ring_cap_Bps / C;
    /* each hop at its transport's figure where coll states one (a hop
     * through host memory: cr_coll_pred eff_shm), except on rings through
     * direct neighbours (mesh_channels states theirs against the links
     * the channels take) */
    bool per_hop = x->n_rings <= 0 && x->n_node_rings <= 0 &&
                   (sp->eff_mate > 0 || sp->eff_shm > 0 || sp->eff_net > 0);
    if (per_hop && !(eff_e = malloc((size_t)n * sizeof *eff_e))) {
        st = flowsim_xp_oom(x);
        goto out;
    }
    double flows = (double)C * n * steps;
    bool pipelined = chain || sp->grain == CR_SIM_GRAIN_PIPELINED ||
                     (sp->grain == CR_SIM_GRAIN_AUTO && flows > CR_SIM_STEP_FLOWS_MAX);
    if (!pipelined && !budget_fits(x->s, flows)) {
        char what[64];
        snprintf(what, sizeof what, "a ring in steps on %d channels", C);
        st = budget_fail(x->s, x->d, what, n, flows,
                         "use --grain pipelined (or auto), or simulate fewer ranks");
        goto out;
    }
    /* Pipelined channels over the same ring order (channel c's rings repeat
     * with period ppn) share one flow's uses (merging on): the orders seen,
     * up to RING_SEEN of them, and their flows. */
    enum { RING_SEEN = 32 };
    int seen_task[RING_SEEN], seen_pin[RING_SEEN], n_seen = 0;
    if (pipelined && !chain && cr_sim_merge(x->s) && C > 1 &&
        !(seen = malloc((size_t)RING_SEEN * (size_t)n * sizeof *seen))) {
        st = flowsim_xp_oom(x);
        goto out;
    }
    for (int c = 0; c < C && st == CR_OK; c++) {
        if ((st = flowsim_ring_order(x, c, order)) != CR_OK)
            break;
        /* PCIe nodes: the channel's NICs as NCCL's graph gives them; its
         * flows alike only where the NICs are too */
        const int *pin = flowsim_ring_pins(x, c);
        flowroute_pin_nics(x->s, pin);
        int pin_sig = !pin ? 0 : x->pci_period > 0 ? c % x->pci_period : -1 - c;
        int same = -1;
        for (int k = 0; seen && k < n_seen && same < 0; k++)
            if (seen_pin[k] == pin_sig &&
                !memcmp(seen + (size_t)k * (size_t)n, order, (size_t)n * sizeof *order))
                same = k;
        double mean = 0;
        if ((st = ring_mean_lat(x, order, &mean)) != CR_OK)
            break;
        /* every step at least the ring's mean route latency */
        double L = steps * fmax(sp->step_lat_s, mean);
        if (chain) {
            /* A pipelined chain from the root (broadcast) or to it (reduce):
             * the ring order rotated so the root is first. */
            int r0 = 0;
            while (order[r0] != sp->root)
                r0++;
            double lat = 0;
            for (int i = 0; i + 1 < n && st == CR_OK; i++) {
                int a = order[(r0 + i) % n], b = order[(r0 + i + 1) % n];
                if (sp->coll == CR_COLL_REDUCE) {
                    int t = a;
                    a = b;
                    b = t;
                }
                double e = per_hop ? transport_eff(x, a, b) : x->eff;
                if (e < 0) {
                    st = flowsim_xp_oom(x);
                    break;
                }
                x->edge_w = x->eff / e;
                st = acc_edge(x, a, b, sp->coll == CR_COLL_REDUCE, &lat);
            }
            x->edge_w = 0;
            if (st == CR_OK)
                st = acc_flush_lat(x, chunk, L, sp->root);
            continue;
        }
        if (pipelined) {
            if (same >= 0) {
                st = flush_like(x, seen_task[same], chunk * steps, L, 0);
                continue;
            }
            double lat = 0;
            bool red = sp->coll != CR_COLL_ALLGATHER;
            if (per_hop && (st = ring_edge_effs(x, order, eff_e)) != CR_OK)
                break;
            for (int i = 0; i < n && st == CR_OK; i++) {
                x->edge_w = per_hop ? x->eff / eff_e[i] : 0;
                st = acc_edge(x, order[i], order[(i + 1) % n], red, &lat);
            }
            x->edge_w = 0;
            int f = -1;
            if (st == CR_OK)
                st = acc_flush_task(x, chunk * steps, L, 0, &f);
            if (st == CR_OK && seen && n_seen < RING_SEEN) {
                memcpy(seen + (size_t)n_seen * (size_t)n, order, (size_t)n * sizeof *order);
                seen_pin[n_seen] = pin_sig;
                seen_task[n_seen++] = f;
            }
            continue;
        }
        x->step_at = L / steps;
        if (per_hop && (st = ring_edge_effs(x, order, eff_e)) != CR_OK)
            break;
        x->edge_eff = eff_e;
        /* Steps: cur[i] = the flow order[i] sends in this step. */
        for (int k = 0; k < steps && st == CR_OK; k++) {
            bool red =
                sp->coll == CR_COLL_REDUCESCATTER || (sp->coll == CR_COLL_ALLREDUCE && k < n - 1);
            st = step_flows(x, order, 1, n - 1, chunk, red, k == 0, &prev, &cur);
        }
        x->step_at = -1;
        x->edge_eff = NULL;
    }
out:
    flowroute_pin_nics(x->s, NULL);
    x->ch_cap_Bps = 0;
    x->edge_eff = NULL;
    x->edge_w = 0;
    free(eff_e);
    free(seen);
    free(order);
    free(prev);
    free(cur);
    return st;
}

/* ---------- trees ---------- */

/* Groups the op's ranks by node in order of first appearance:
 * grp[gstart[g] .. gstart[g + 1]) are node g's ranks in rank order, *m_out
 * the fewest any node holds. Returns the number of groups, 0 when a rank
 * has no node (or on allocation failure, with x->err set); *grp_out and
 * *gstart_out (G + 1 entries) are the caller's to free. */
static int node_groups(xp *x, int **grp_out, int **gstart_out, int *m_out)
{
    int n = x->n;
    const cr_topo *t = cr_sim_topo(x->s);
    int nn = t->n_nodes > 0 ? t->n_nodes : 1;
    int *map = malloc((size_t)nn * sizeof *map), *node = malloc((size_t)n * sizeof *node);
    int *cnt = calloc((size_t)n + 1, sizeof *cnt), *grp = malloc((size_t)n * sizeof *grp);
    int *gstart = malloc(((size_t)n + 1) * sizeof *gstart);
    int ng = 0;
    *grp_out = *gstart_out = NULL;
    if (!map || !node || !cnt || !grp || !gstart) {
        flowsim_xp_oom(x);
        goto fail;
    }
    for (int i = 0; i < nn; i++)
        map[i] = -1;
    for (int i = 0; i < n; i++) {
        int v = flowsim_node_of(x, i);
        if (v < 0 || v >= nn)
            goto fail;
        if (map[v] < 0)
            map[v] = ng++;
        node[i] = map[v];
        cnt[node[i]]++;
    }
    *m_out = n;
    gstart[0] = 0;
    for (int g = 0; g < ng; g++) {
        *m_out = cnt[g] < *m_out ? cnt[g] : *m_out;
        gstart[g + 1] = gstart[g] + cnt[g];
    }
    memset(cnt, 0, (size_t)ng * sizeof *cnt);
    for (int i = 0; i < n; i++)
        grp[gstart[node[i]] + cnt[node[i]]++] = i;
    free(map);
    free(node);
    free(cnt);
    *grp_out = grp;
    *gstart_out = gstart;
    return ng;
fail:
    free(map);
    free(node);
    free(cnt);
    free(grp);
    free(gstart);
    return 0;
}

static int floor_log2(int v)
{
    int l = 0;
    while (v >= 2) {
        v /= 2;
        l++;
    }
    return l;
}

/* Member j of node g's chain in tree tr (j = 0 its head h0): node g's
 * ranks cg[gstart[g] ..] taken round from h0, backwards in tree 1. */
static int chain_at(const int *cg, const int *gstart, int g, int h0, int j, int tr)
{
    int mg = gstart[g + 1] - gstart[g];
    return cg[gstart[g] + (tr ? (h0 - j % mg + mg) % mg : (h0 + j) % mg)];
}

/* NCCL's tree allreduce (src/graph/trees.cc): inside every node a chain
 * through its GPUs, across nodes NCCL's double binary tree over the nodes'
 * chain heads (cr_nccl_dtree: ncclGetBtree, the second tree mirrored or
 * shifted) so that the interior nodes of one are leaves of the other. Each of the two trees
 * carries half the data, reduced up and broadcast down, pipelined (one
 * coupled flow per tree and channel). Across nodes channel c starts tree
 * 0's chains at local GPU c and tree 1's (reversed) at c+1 (mod m, the
 * fewest ranks a node holds), on every node alike, so the network hops of
 * a tree stay on one rail (search.cc starts each channel at its NIC's
 * GPU; nodes holding more ranks run longer chains over the same m rails,
 * as coll.c net_rails). In one node every channel replays one chain (no
 * NIC to start from): its middle GPUs send 2S. Depth (the longest chain -
 * 1) + floor(log2 nodes) (2 x depth steps). Ranks without a node get the
 * two heap-numbered trees over the rank order instead. */
static cr_status tree(xp *x)
{
    const cr_sim_coll_spec *sp = x->sp;
    if (sp->coll != CR_COLL_ALLREDUCE)
        return cr_diag_set(x->d, CR_EUNSUPPORTED, "simulator: tree runs allreduce only, not %s",
                           cr_coll_name(sp->coll));
    int n = x->n, C = sp->nchannels, m = 0;
    int *grp = NULL, *gstart = NULL;
    int G = node_groups(x, &grp, &gstart, &m);
    if (!grp && x->err == CR_ENOMEM)
        return CR_ENOMEM;
    if (G < 1) {
        G = n; /* one rank per group: a plain double binary tree */
        m = 1;
        grp = malloc((size_t)n * sizeof *grp);
        gstart = malloc(((size_t)n + 1) * sizeof *gstart);
        if (!grp || !gstart) {
            free(grp);
            free(gstart);
            return flowsim_xp_oom(x);
        }
        for (int i = 0; i <= n; i++) {
            if (i < n)
                grp[i] = i;
            gstart[i] = i;
        }
    }
    int longest = 0;
    for (int g = 0; g < G; g++)
        longest = gstart[g + 1] - gstart[g] > longest ? gstart[g + 1] - gstart[g] : longest;
    /* One node of GPUs joined by direct links (a mesh, a torus): channel c's
     * chain follows ring c through neighbours (mesh_channels), so that the
     * channels spread over every link as coll's tree rate (all of a GPU's
     * links) assumes */
    const int *chains = NULL;
    if (G == 1) {
        cr_status st = flowsim_neighbour_rings(x);
        if (st != CR_OK) {
            free(grp);
            free(gstart);
            return st;
        }
        if (x->n_rings > 0) {
            chains = x->rings;
            int Cr = C > x->n_rings ? x->n_rings : C;
            double share = chain_link_share(x, Cr);
            if (share < 0) {
                free(grp);
                free(gstart);
                return flowsim_xp_oom(x);
            }
            C = mesh_channels(x, C, share);
        }
    }
    /* Nodes of such GPUs over a network (a fat tree of MI300X nodes):
     * channel c's chain in every node follows node ring c through
     * neighbours, from where ring c enters the node (tree 0) or back from
     * where it leaves (tree 1), so the channels spread over every link of
     * a GPU and their heads, no two alike (flowsim_node_chains), put each
     * channel's network hops on a rail of its own, as the rings do. In rank
     * order every chain took the same m - 1 links of each node: 2 x
     * mi300x-8, 64 MiB, sim/pr 3.14 (QA audit of the simulator, session
     * 51). */
    int *node_cg = NULL;
    bool even = G > 1 && m >= 3;
    for (int g = 0; even && g < G; g++)
        even = gstart[g + 1] - gstart[g] == m;
    if (even) {
        cr_status st = flowsim_node_chains(x, grp, G, m);
        if (st == CR_OK && x->n_node_rings > 0 && !(node_cg = malloc((size_t)n * sizeof *node_cg)))
            st = flowsim_xp_oom(x);
        if (st != CR_OK) {
            free(grp);
            free(gstart);
            return st;
        }
        if (node_cg && C > x->n_node_rings)
            C = x->n_node_rings; /* at most one channel a ring (mesh_channels) */
    }
    int ntrees = n > 2 ? 2 : 1;
    int depth = (longest - 1) + floor_log2(G);
    cr_status st = CR_OK;
    /* A tree's edges depend on the channel only through its chains' head
     * h0: channels with the same head share one flow's uses (merging on) */
    int *like =
        cr_sim_merge(x->s) && !chains && !node_cg ? malloc(2 * (size_t)m * sizeof *like) : NULL;
    double *like_L = like ? malloc(2 * (size_t)m * sizeof *like_L) : NULL;
    if (like && !like_L) {
        free(like);
        free(node_cg);
        free(grp);
        free(gstart);
        return flowsim_xp_oom(x);
    }
    for (int i = 0; like && i < 2 * m; i++)
        like[i] = -1;
    for (int c = 0; c < C && st == CR_OK; c++)
        for (int tr = 0; tr < ntrees && st == CR_OK; tr++) {
            double lat = 0, lat_net = 0; /* slowest chain edge, slowest tree edge */
            /* one node: no NIC to start from, every channel replays one
             * chain (search.cc); tree 1 runs it reversed, same edges */
            int h0 = G == 1 ? (tr ? m - 1 : 0) : tr ? (c + 1) % m : c % m;
            int root = 0;
            for (int ck = 0; ck < G; ck++)
                if (cr_nccl_dtree(G, ck, tr, NULL) < 0)
                    root = ck;
            const int *cg = chains ? chains + (size_t)(c % x->n_rings) * (size_t)n : grp;
            if (node_cg) {
                int q = c % x->n_node_rings, p = x->node_ring_at[q];
                const int *R = x->node_rings + (size_t)q * (size_t)m;
                for (int g = 0; tr == 0 && g < G; g++) /* one order a channel */
                    for (int i = 0; i < m; i++)
                        node_cg[gstart[g] + i] = grp[gstart[g] + R[i]];
                h0 = tr ? (p + m - 1) % m : p; /* in at R[p], out at R[p - 1] */
                cg = node_cg;
            }
            int head = chain_at(cg, gstart, root, h0, 0, tr);
            if (like && like[tr * m + h0] >= 0) {
                st = flush_like(x, like[tr * m + h0], sp->bytes / C / ntrees, like_L[tr * m + h0],
                                head);
                continue;
            }
            for (int g = 0; g < G && st == CR_OK; g++)
                for (int j = 1; j < gstart[g + 1] - gstart[g] && st == CR_OK; j++) {
                    int up = chain_at(cg, gstart, g, h0, j - 1, tr),
                        me = chain_at(cg, gstart, g, h0, j, tr);
                    st = acc_edge(x, me, up, true, &lat);
                    if (st == CR_OK)
                        st = acc_edge(x, up, me, false, &lat);
                }
            for (int ck = 0; ck < G && st == CR_OK; ck++) {
                int pk = cr_nccl_dtree(G, ck, tr, NULL);
                if (pk < 0)
                    continue;
                int ch = chain_at(cg, gstart, ck, h0, 0, tr),
                    pa = chain_at(cg, gstart, pk, h0, 0, tr);
                st = acc_edge(x, ch, pa, true, &lat_net);
                if (st == CR_OK)
                    st = acc_edge(x, pa, ch, false, &lat_net);
            }
            /* Up and down the critical path: the longest chain's steps and
             * floor(log2 G) tree steps; coll's steps, and no shorter than
             * the path's routes (the slowest chain and tree edge). */
            double step = sp->step_lat_s;
            double L = fmax(2 * depth * step,
                            2 * ((longest - 1) * lat + (depth - (longest - 1)) * lat_net));
            int f = -1;
            if (st == CR_OK)
                st = acc_flush_task(x, sp->bytes / C / ntrees, L, head, &f);
            if (st == CR_OK && like) {
                like[tr * m + h0] = f;
                like_L[tr * m + h0] = L;
            }
        }
    free(like);
    free(like_L);
    free(node_cg);
    free(grp);
    free(gstart);
    return st;
}

/* ---------- PAT ---------- */

/* NCCL's PAT allgather and reducescatter (one rank per node): the ranks
 * exchange blocks over distances that double (allgather) or halve
 * (reducescatter), ceil(log2 n) rounds, so that every rank sends each of
 * the other n-1 blocks of S/n once: the (n-1)/n S of coll's figure, at the
 * rate of the link each round crosses. Allgather round k: rank i sends the
 * min(2^k, n - 2^k) blocks it holds to rank i - 2^k (Bruck's order), after
 * its own round k-1 and after the round k-1 message that brought those
 * blocks from rank i + 2^(k-1); reducescatter runs the rounds the other way
 * (distance 2^(R-1-r)), each a reduction. The R rounds share coll's step
 * latency x coll's step count (floor(log2 n) + 1), which is NCCL's tuning
 * figure (R is one less where n is a power of two), each round at least its
 * slowest route. */
static cr_status pat(xp *x)
{
    const cr_sim_coll_spec *sp = x->sp;
    if (sp->coll != CR_COLL_ALLGATHER && sp->coll != CR_COLL_REDUCESCATTER)
        return cr_diag_set(x->d, CR_EUNSUPPORTED,
                           "simulator: pat runs allgather and reducescatter, not %s",
                           cr_coll_name(sp->coll));
    int n = x->n, C = sp->nchannels, R = 0;
    while ((1L << R) < n)
        R++;
    int steps = floor_log2(n) + 1;
    bool rs = sp->coll == CR_COLL_REDUCESCATTER;
    int *prev = malloc((size_t)n * sizeof *prev), *cur = malloc((size_t)n * sizeof *cur);
    double *round_s = malloc(((size_t)R + 1) * sizeof *round_s);
    cr_status st = CR_OK;
    if (!prev || !cur || !round_s) {
        st = flowsim_xp_oom(x);
        goto out;
    }
    /* each round's step latency, the same on every channel: its share of
     * coll's, at least the round's slowest route */
    for (int r = 0; r < R && st == CR_OK; r++) {
        int dist = 1 << (rs ? R - 1 - r : r);
        double route = 0;
        for (int i = 0; i < n && st == CR_OK; i++) {
            const cr_sim_use *u;
            int nu;
            double lat = 0;
            int to = (i + n - dist) % n;
            st = cr_sim_path(x->s, x->op, x->ranks[i], x->ranks[to], &u, &nu, &lat);
            if (st == CR_ENOTFOUND)
                st = cr_diag_set(x->d, st, "simulator: no route from GPU %d to GPU %d", x->ranks[i],
                                 x->ranks[to]);
            else if (st != CR_OK)
                st = flowsim_xp_oom(x);
            route = fmax(route, lat);
        }
        round_s[r] = fmax(sp->step_lat_s * steps / R, route);
    }
    for (int c = 0; c < C && st == CR_OK; c++)
        for (int r = 0; r < R && st == CR_OK; r++) {
            int k = rs ? R - 1 - r : r; /* the distance is 2^k */
            int dist = 1 << k, kp = rs ? k + 1 : k - 1;
            double blocks = dist < n - dist ? dist : n - dist;
            x->step_at = round_s[r];
            /* to rank i - 2^k; fed by the previous round's message from
             * rank i + 2^kp */
            st = step_flows(x, NULL, n - dist, r == 0 ? 0 : 1 << kp, blocks * sp->bytes / n / C, rs,
                            r == 0, &prev, &cur);
        }
    x->step_at = -1;
out:
    free(prev);
    free(cur);
    free(round_s);
    return st;
}

/* ---------- direct ---------- */

/* Allreduce in two direct steps between every pair (RCCL's MSCCL all-pairs
 * algorithm, tools/msccl-algorithms/allreduce-allpairs-8n-*.xml): each rank
 * sends every peer that peer's 1/n of its buffer and reduces what it
 * receives (a reduce-scatter), then sends its reduced 1/n to every peer
 * (an allgather), each rank's second step after all of its first-step
 * receives. */
static cr_status allpairs_allreduce(xp *x)
{
    int n = x->n;
    double part = x->sp->bytes / n;
    int *ready = malloc((size_t)n * sizeof *ready);
    if (!ready)
        return flowsim_xp_oom(x);
    cr_status st = CR_OK;
    for (int j = 0; j < n && st == CR_OK; j++)
        if ((ready[j] = cr_sim_delay_add(x->s, x->op, j, 0)) < 0)
            st = flowsim_xp_oom(x);
    for (int i = 0; i < n && st == CR_OK; i++)
        for (int j = 0; j < n && st == CR_OK; j++) {
            if (i == j)
                continue;
            int f = flow(x, i, j, part, true, x->first, -1);
            if (f < 0)
                st = x->err;
            else if (cr_sim_dep_add(x->s, f, ready[j]))
                st = flowsim_xp_oom(x);
        }
    for (int j = 0; j < n && st == CR_OK; j++)
        for (int k = 0; k < n && st == CR_OK; k++)
            if (j != k && flow(x, j, k, part, false, ready[j], -1) < 0)
                st = x->err;
    free(ready);
    return st;
}

/* The efficiency of a direct pattern's message or a ring's hop from op
 * rank a to b: its NCCL transport's (cr_sim_coll_spec eff_mate, eff_shm,
 * eff_net: another node, host memory, else directly; a ring's hop through
 * a NIC beyond the CPUs, host memory: flowsim_ring_hop_staged), the op's
 * bw_eff where the spec states none. -1 when out of memory. */
static double transport_eff(xp *x, int a, int b)
{
    const cr_sim_coll_spec *sp = x->sp;
    double e;
    if (flowsim_node_of(x, a) != flowsim_node_of(x, b)) {
        /* a ring channel's hop through a NIC across the CPUs (NCCL's PCI
         * order on PCIe nodes): through host memory, at SHM's figure */
        e = sp->eff_shm > 0 && flowsim_ring_hop_staged(x, a, b) ? sp->eff_shm : sp->eff_net;
    } else {
        int h = flowroute_via_host(x->s, x->op, x->ranks[a], x->ranks[b]);
        if (h < 0)
            return -1;
        e = h ? sp->eff_shm : sp->eff_mate;
    }
    return e > 0 ? e : x->eff; /* in (0, 1]: cr_sim_coll_add checked */
}

/* transport_eff for flowsim_sym_alltoall: each cell's messages at their
 * transport's figure, as one flow a pair runs them. */
static double pair_eff(void *ctx, int a, int b)
{
    return transport_eff(ctx, a, b);
}

static cr_status direct(xp *x)
{
    const cr_sim_coll_spec *sp = x->sp;
    int n = x->n, root = sp->root;
    double S = sp->bytes;
    /* Only all-to-all patterns touch every pair; rooted collectives and
     * sendrecv have n - 1 or n flows, so they neither search every route
     * nor reserve n^2 tasks (a gather over 8,192 GPUs took 4.4 GB so). */
    bool all_pairs = sp->coll == CR_COLL_ALLTOALL || sp->coll == CR_COLL_ALLGATHER ||
                     sp->coll == CR_COLL_REDUCESCATTER || sp->coll == CR_COLL_ALLREDUCE;
    long pairs = all_pairs ? (long)n * (n - 1) : n;
    if (sp->coll == CR_COLL_ALLTOALL && !sp->matrix && x->step_at < 0) {
        /* Uniform: one flow per orbit of GPU pairs where the fabric's
         * symmetry allows (flowsim_sym.c), when asked or when one flow a
         * pair would not fit. */
        int m = x->s->sym_mode;
        if (m == CR_SIM_SYM_ON || (m == CR_SIM_SYM_AUTO && !budget_fits(x->s, (double)pairs))) {
            int r = flowsim_sym_alltoall(x->s, x->op, S / n, pair_eff, x, sp->step_lat_s,
                                         sp->msg_cap_Bps, x->first, x->last);
            if (r > 0)
                return CR_OK;
            if (r == -2)
                return cr_diag_set(x->d, CR_ENOTFOUND,
                                   "simulator: two GPUs of the %s have no route between them",
                                   cr_coll_name(sp->coll));
            if (r < 0)
                return flowsim_xp_oom(x);
        }
    }
    if (!budget_fits(x->s, (double)pairs) && all_pairs) {
        /* Merging does not shrink these: every flow joins its own pair of
         * GPUs, so no two have the same route (they share links, not link
         * lists). Say how many ranks would fit. */
        long left = cr_sim_task_limit(x->s) - cr_sim_n_tasks(x->s), k = 1;
        while ((k + 1) * k <= left)
            k++;
        char hint[256];
        snprintf(hint, sizeof hint,
                 "its flows join distinct pairs of GPUs, so no two share a route to merge; "
                 "simulate at most %ld ranks (--ranks), or split the scenario into smaller ones",
                 k);
        return budget_fail(x->s, x->d, cr_coll_name(sp->coll), n, (double)pairs, hint);
    }
    if (!budget_fits(x->s, (double)pairs))
        return budget_fail(x->s, x->d, cr_coll_name(sp->coll), n, (double)pairs, BUDGET_HINT);
    if (all_pairs && n > 16 && cr_sim_route_prewarm(x->s, x->ranks, n) != CR_OK)
        return flowsim_xp_oom(x);
    if (cr_sim_reserve(x->s, pairs, 2 * pairs) != CR_OK)
        return flowsim_xp_oom(x);
    if (sp->allpairs && sp->coll == CR_COLL_ALLREDUCE)
        return allpairs_allreduce(x);
    for (int i = 0; i < n; i++) {
        int jlo = 0, jhi = n;
        if (sp->coll == CR_COLL_GATHER || sp->coll == CR_COLL_REDUCE) {
            jlo = root;
            jhi = root + 1;
        } else if (sp->coll == CR_COLL_SENDRECV) {
            jlo = (i + 1) % n;
            jhi = jlo + 1;
        } else if ((sp->coll == CR_COLL_SCATTER || sp->coll == CR_COLL_BROADCAST) && i != root) {
            continue;
        }
        for (int j = jlo; j < jhi; j++) {
            if (i == j)
                continue;
            double b = 0;
            bool red = false;
            switch (sp->coll) {
            case CR_COLL_ALLTOALL:
                b = sp->matrix ? sp->matrix[(size_t)i * (size_t)n + (size_t)j] : S / n;
                break;
            case CR_COLL_ALLGATHER:
                b = S / n;
                break;
            case CR_COLL_REDUCESCATTER:
                b = S / n;
                red = true;
                break;
            case CR_COLL_ALLREDUCE: /* one-shot: everyone sends everything to everyone */
                b = S;
                red = true;
                break;
            case CR_COLL_GATHER:
                b = j == root ? S / n : 0;
                break;
            case CR_COLL_SCATTER:
                b = i == root ? S / n : 0;
                break;
            case CR_COLL_BROADCAST:
                b = i == root ? S : 0;
                break;
            case CR_COLL_REDUCE:
                b = j == root ? S : 0;
                red = true;
                break;
            case CR_COLL_SENDRECV:
                b = j == (i + 1) % n ? S : 0;
                break;
            default:
                return cr_diag_set(x->d, CR_EUNSUPPORTED, "simulator: direct does not run %s",
                                   cr_coll_name(sp->coll));
            }
            if (b <= 0 && !(sp->coll == CR_COLL_ALLTOALL && !sp->matrix))
                continue;
            /* an all-to-all-v's message moves as its own size does
             * (checked present by cr_sim_coll_add) */
            const cr_sim_msg_size *e = sp->sizes ? size_entry(sp, b) : NULL;
            double eff = x->eff;
            if (!e && (eff = transport_eff(x, i, j)) < 0)
                return flowsim_xp_oom(x);
            int f = e ? flow_at(x, i, j, b, red, x->first, -1, e->bw_eff, e->lat_s)
                      : flow_at(x, i, j, b, red, x->first, -1, eff, sp->step_lat_s);
            if (f < 0)
                return x->err;
            double cap = e ? e->cap_Bps : sp->msg_cap_Bps;
            if (cap > 0 && cr_sim_flow_cap(x->s, f, cap) != CR_OK)
                return flowsim_xp_oom(x);
        }
    }
    return CR_OK;
}

/* ---------- NVLS: in-switch reduction and multicast ---------- */

/* Each rank owns a segment of bytes/n. Allreduce: the switches read the
 * segment from every GPU and reduce it (multimem.ld_reduce: every GPU's
 * uplink carries the segment once, the owner's downlink the result), then
 * the owner stores it once and the switches multicast it to every GPU
 * (multimem.st: the owner's uplink once, every downlink once): S (n+1)/n
 * through each port each way, coll's figure. Reducescatter is the first
 * half (uplinks S, the owner's downlink S/n), allgather the second (the
 * owner's uplink S/n, every downlink S): a multicast reaches every GPU of
 * the group, the sender too, and a multimem load reads every GPU's copy,
 * the owner's too, through its port. A GPU's traffic spreads over its
 * multicast-capable switch links in proportion to their capacity, and so
 * does the reduction over the switches' reduction engines, which consume
 * the n operands of every reduced byte (coll's accounting: n copies of
 * every byte). Two steps for every collective, as coll counts them, each
 * crossing GPU -> switch -> GPU. */
/* NVLS `coll` of `bytes` among the op ranks mem[0..n) (one multicast
 * domain), every channel's segments as coupled flows of lat_steps steps. */
static cr_status nvls_group(xp *x, cr_coll coll, const int *mem, int n, double bytes,
                            double lat_steps)
{
    const cr_sim_coll_spec *sp = x->sp;
    const cr_topo *t = cr_sim_topo(x->s);
    /* Per rank: its links to multicast switches and their shares. */
    int *off = malloc(((size_t)n + 1) * sizeof *off);
    int cnt = 0;
    size_t cap_lk = 0, cap_fr = 0;
    int *lk = NULL;
    double *fr = NULL;
    cr_status st = CR_OK;
    if (!off)
        return flowsim_xp_oom(x);
    for (int i = 0; i < n; i++) {
        int v = t->gpus[x->ranks[mem[i]]];
        double tot = 0;
        off[i] = cnt;
        for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int w = cr_link_other(l, v);
            const cr_dev *dw = &t->devs[w];
            if (dw->kind != CR_DEV_SWITCH || dw->spec < 0 || !t->switch_specs[dw->spec].multicast)
                continue;
            if (cr_grow((void **)&lk, &cap_lk, (size_t)cnt + 1, sizeof *lk) ||
                cr_grow((void **)&fr, &cap_fr, (size_t)cnt + 1, sizeof *fr)) {
                st = flowsim_xp_oom(x);
                goto out;
            }
            lk[cnt] = t->adj[k];
            fr[cnt] = cr_link_bw_from(l, v);
            tot += fr[cnt];
            cnt++;
        }
        if (cnt == off[i]) {
            st = cr_diag_set(x->d, CR_EUNSUPPORTED,
                             "simulator: nvls needs every GPU on a multicast-capable switch; "
                             "GPU %d has none (try --algo ring)",
                             x->ranks[mem[i]]);
            goto out;
        }
        for (int k = off[i]; k < cnt; k++)
            fr[k] /= tot;
    }
    off[n] = cnt;
    double payload = bytes / n / sp->nchannels;
    /* per GPU g and segment owner r: what its uplink and downlink carry */
    bool red = coll != CR_COLL_ALLGATHER, mc = coll != CR_COLL_REDUCESCATTER;
    for (int c = 0; c < sp->nchannels && st == CR_OK; c++)
        for (int r = 0; r < n && st == CR_OK; r++) {
            double lat = 0;
            for (int g = 0; g < n && st == CR_OK; g++) {
                int v = t->gpus[x->ranks[mem[g]]];
                bool own = g == r;
                /* reduce: every operand up, the result down to the owner;
                 * multicast: the owner's store up, the copy down to all */
                double up = (red ? 1.0 : 0.0) + (mc && own ? 1.0 : 0.0);
                double down = (red && own ? 1.0 : 0.0) + (mc ? 1.0 : 0.0);
                for (int k = off[g]; k < off[g + 1]; k++) {
                    const cr_link *l = &t->links[lk[k]];
                    int sw = cr_link_other(l, v);
                    if (l->lat_s > lat)
                        lat = l->lat_s;
                    if ((up > 0 && acc_add(x, cr_sim_res_link(x->s, lk[k], v), up * fr[k])) ||
                        (down > 0 && acc_add(x, cr_sim_res_link(x->s, lk[k], sw), down * fr[k]))) {
                        st = flowsim_xp_oom(x);
                        break;
                    }
                    int re = cr_sim_res_reduce(x->s, sw);
                    if (red && own && re >= 0 && acc_add(x, re, n * fr[k])) {
                        st = flowsim_xp_oom(x);
                        break;
                    }
                }
                /* HBM: reads of the operand (every GPU when reducing, the
                 * owner's store otherwise), writes of the result (every GPU
                 * when multicasting, the owner's otherwise) */
                double hbm = (red || own ? 1.0 : 0.0) + (mc || own ? 1.0 : 0.0);
                if (st == CR_OK && acc_add(x, cr_sim_res_hbm(x->s, x->ranks[mem[g]]), hbm))
                    st = flowsim_xp_oom(x);
            }
            /* each step crosses GPU -> switch -> GPU */
            if (st == CR_OK)
                st = acc_flush_lat(x, payload, lat_steps * fmax(sp->step_lat_s, 2 * lat), mem[r]);
        }
out:
    free(off);
    free(lk);
    free(fr);
    return st;
}

static cr_status nvls(xp *x)
{
    const cr_sim_coll_spec *sp = x->sp;
    if (sp->coll != CR_COLL_ALLREDUCE && sp->coll != CR_COLL_ALLGATHER &&
        sp->coll != CR_COLL_REDUCESCATTER)
        return cr_diag_set(x->d, CR_EUNSUPPORTED,
                           "simulator: nvls runs allreduce, allgather and reducescatter, not %s",
                           cr_coll_name(sp->coll));
    int *mem = malloc((size_t)x->n * sizeof *mem);
    if (!mem)
        return flowsim_xp_oom(x);
    for (int i = 0; i < x->n; i++)
        mem[i] = i;
    cr_status st = nvls_group(x, sp->coll, mem, x->n, sp->bytes, 2);
    free(mem);
    return st;
}

/* NCCL's NVLS_TREE allreduce: inside every node NVLS (reduce-scatter by
 * the switches, each GPU left with 1/ppn of the data, then multicast), and
 * across nodes, for every local GPU k, NCCL's double binary tree
 * (cr_nccl_dtree) over the nodes' GPUs k carrying that 1/ppn share (half per tree), so every rail
 * carries its own. The parts run pipelined, concurrently; the trees take the whole latency coll
 * counts, 2 + 2 floor(log2 nodes) steps, the network steps no shorter than their route. One node is
 * plain NVLS. */
static cr_status nvlstree(xp *x)
{
    const cr_sim_coll_spec *sp = x->sp;
    if (sp->coll != CR_COLL_ALLREDUCE)
        return cr_diag_set(x->d, CR_EUNSUPPORTED, "simulator: nvlstree runs allreduce only, not %s",
                           cr_coll_name(sp->coll));
    int m = 0, *grp = NULL, *gstart = NULL;
    int G = node_groups(x, &grp, &gstart, &m);
    free(gstart);
    if (!grp && x->err == CR_ENOMEM)
        return CR_ENOMEM;
    if (!grp || m * G != x->n) {
        free(grp);
        return cr_diag_set(x->d, CR_EUNSUPPORTED,
                           "simulator: nvlstree needs the same number of ranks on every node "
                           "(try --algo ring)");
    }
    if (G == 1) {
        free(grp);
        return nvls(x);
    }
    cr_status st = CR_OK;
    int depth = floor_log2(G), C = sp->nchannels;
    double step = sp->step_lat_s;
    for (int g = 0; g < G && st == CR_OK; g++)
        st = nvls_group(x, CR_COLL_ALLREDUCE, grp + (size_t)g * (size_t)m, m, sp->bytes, 2);
    for (int k = 0; k < m && st == CR_OK; k++)
        for (int c = 0; c < C && st == CR_OK; c++)
            for (int tr = 0; tr < 2 && st == CR_OK; tr++) {
                double lat = 0;
                int root = 0;
                for (int cj = 0; cj < G && st == CR_OK; cj++) {
                    int pj = cr_nccl_dtree(G, cj, tr, NULL);
                    if (pj < 0) {
                        root = cj;
                        continue;
                    }
                    int ch = grp[cj * m + k], pa = grp[pj * m + k];
                    st = acc_edge(x, ch, pa, true, &lat);
                    if (st == CR_OK)
                        st = acc_edge(x, pa, ch, false, &lat);
                }
                double L = fmax((2 + 2 * depth) * step, 2 * step + 2 * depth * lat);
                if (st == CR_OK)
                    st = acc_flush_lat(x, sp->bytes / m / C / 2, L, grp[root * m + k]);
            }
    free(grp);
    return st;
}

/* ---------- entry points ---------- */

/* The algorithm the simulator expands: NCCL runs the point-to-point
 * patterns as direct peer exchanges, whatever algorithm coll reports. */
static cr_algo sim_algo(const cr_sim_coll_spec *sp)
{
    if (sp->coll == CR_COLL_ALLTOALL || sp->coll == CR_COLL_GATHER || sp->coll == CR_COLL_SCATTER ||
        sp->coll == CR_COLL_SENDRECV)
        return CR_ALGO_DIRECT;
    return sp->algo;
}

bool cr_sim_grain_applies(cr_coll c, cr_algo a)
{
    return (c == CR_COLL_ALLREDUCE || c == CR_COLL_ALLGATHER || c == CR_COLL_REDUCESCATTER) &&
           (a == CR_ALGO_AUTO || a == CR_ALGO_RING);
}

/* A ring's or tree's channels leave each node through the NICs of NCCL's
 * graph (sp->net_nics): the op's NIC shares lowered to that. Returns true
 * when out of memory. */
static bool graph_nics_limited(xp *x)
{
    cr_algo a = sim_algo(x->sp);
    bool graph = a == CR_ALGO_RING || a == CR_ALGO_TREE || a == CR_ALGO_NVLSTREE;
    return graph && x->sp->net_nics > 0 && flowroute_limit_nics(x->s, x->op, x->sp->net_nics);
}

cr_status cr_sim_coll_add(cr_sim *s, const cr_sim_coll_spec *sp, const int *ranks, int n, int *op,
                          cr_diag *d)
{
    *op = -1;
    const char *cname = cr_coll_name(sp->coll);
    if ((unsigned)sp->coll >= CR_COLL__COUNT)
        return cr_diag_set(d, CR_EINVAL, "simulator: collective %d is not a cr_coll",
                           (int)sp->coll);
    if (sp->grain != CR_SIM_GRAIN_AUTO && sp->grain != CR_SIM_GRAIN_STEPS &&
        sp->grain != CR_SIM_GRAIN_PIPELINED)
        return cr_diag_set(d, CR_EINVAL, "simulator: grain %d is not a cr_sim_grain",
                           (int)sp->grain);
    if (n < 1)
        return cr_diag_set(d, CR_EINVAL, "simulator: %s needs at least one rank", cname);
    if (!(sp->bytes >= 0) || !isfinite(sp->bytes))
        return cr_diag_set(d, CR_EINVAL, "simulator: %s size %g is not a finite byte count >= 0",
                           cname, sp->bytes);
    if (sp->nchannels < 1 || sp->nchannels > 1024)
        return cr_diag_set(d, CR_EINVAL, "simulator: %d channels; expected 1 to 1024",
                           sp->nchannels);
    /* one rank moves nothing over a link; coll prices its local copy
     * L2-resident above the HBM's rate (bw_eff > 1), which no flow uses */
    if (n > 1 && !(sp->bw_eff > 0 && sp->bw_eff <= 1))
        return cr_diag_set(d, CR_EINVAL, "simulator: bandwidth efficiency %g is outside (0, 1]",
                           sp->bw_eff);
    if (!(sp->ring_cap_Bps >= 0) || !isfinite(sp->ring_cap_Bps) ||
        (sp->ring_cap_Bps > 0 && !(sp->link_eff > 0 && sp->link_eff <= 1)))
        return cr_diag_set(d, CR_EINVAL,
                           "simulator: ring cap %g B/s with link efficiency %g; expected a "
                           "finite cap >= 0 (0: none) and, with one, an efficiency in (0, 1]",
                           sp->ring_cap_Bps, sp->link_eff);
    const double te[3] = {sp->eff_mate, sp->eff_shm, sp->eff_net};
    for (int k = 0; k < 3; k++)
        if (!(te[k] >= 0 && te[k] <= 1))
            return cr_diag_set(d, CR_EINVAL,
                               "simulator: %s efficiency %g is outside [0, 1] (0: bw_eff's)",
                               k == 0   ? "node-mate"
                               : k == 1 ? "host-memory"
                                        : "network",
                               te[k]);
    if (!(sp->launch_s >= 0) || !(sp->step_lat_s >= 0) || !isfinite(sp->launch_s) ||
        !isfinite(sp->step_lat_s) || !(sp->t_start_s >= 0) || !isfinite(sp->t_start_s) ||
        !(sp->local_s >= 0) || !isfinite(sp->local_s))
        return cr_diag_set(d, CR_EINVAL,
                           "simulator: latencies and start times must be finite "
                           "and >= 0");
    if (sp->root < 0 || sp->root >= n)
        return cr_diag_set(d, CR_EINVAL, "simulator: root %d is not one of the %d ranks", sp->root,
                           n);
    if (sp->matrix) {
        if (sp->coll != CR_COLL_ALLTOALL)
            return cr_diag_set(d, CR_EINVAL, "simulator: a traffic matrix goes with alltoall");
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
            if (!(sp->matrix[i] >= 0) || !isfinite(sp->matrix[i]))
                return cr_diag_set(d, CR_EINVAL,
                                   "simulator: traffic matrix entry %zu,%zu is %g; expected "
                                   "finite bytes >= 0",
                                   i / (size_t)n, i % (size_t)n, sp->matrix[i]);
    }
    if (sp->sizes) {
        if (!sp->matrix || sp->n_sizes < 1)
            return cr_diag_set(d, CR_EINVAL,
                               "simulator: a message size table goes with a traffic matrix and "
                               "holds at least one size");
        for (int k = 0; k < sp->n_sizes; k++) {
            const cr_sim_msg_size *e = &sp->sizes[k];
            if (!(e->bytes > 0) || !isfinite(e->bytes) || (k > 0 && !(e->bytes > e[-1].bytes)) ||
                !(e->bw_eff > 0 && e->bw_eff <= 1) || !(e->cap_Bps >= 0) || !isfinite(e->cap_Bps) ||
                !(e->lat_s >= 0) || !isfinite(e->lat_s))
                return cr_diag_set(d, CR_EINVAL,
                                   "simulator: message size entry %d (%g bytes) is out of order "
                                   "or out of range; expected ascending bytes > 0, efficiency in "
                                   "(0, 1], a cap and a latency finite and >= 0",
                                   k, e->bytes);
        }
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
            if (sp->matrix[i] > 0 && !size_entry(sp, sp->matrix[i]))
                return cr_diag_set(d, CR_EINVAL,
                                   "simulator: traffic matrix entry %zu,%zu (%g bytes) has no "
                                   "entry in the message size table",
                                   i / (size_t)n, i % (size_t)n, sp->matrix[i]);
    }
    const cr_topo *t = cr_sim_topo(s);
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= t->n_gpus)
            return cr_diag_set(d, CR_EINVAL, "simulator: rank %d is not a GPU of %s (0-%d)",
                               ranks[i], t->name, t->n_gpus - 1);
    /* a GPU twice would be two ranks of one op on one GPU (QA audit of the
     * API: {0,0,2,...} was taken) */
    int rep = flowsim_repeated_gpu(t, ranks, n);
    if (rep == -2)
        return cr_diag_set(d, CR_ENOMEM, "simulator: out of memory");
    if (rep >= 0)
        return cr_diag_set(d, CR_EINVAL,
                           "simulator: GPU %d is listed twice among the %s's ranks; give each GPU "
                           "once",
                           rep, cname);
    xp x;
    memset(&x, 0, sizeof x);
    x.s = s;
    x.sp = sp;
    x.ranks = ranks;
    x.n = n;
    x.d = d;
    x.step_at = -1;
    x.nccl_nodes = -1;
    x.eff = sp->bw_eff;
    if (!budget_fits(s, 2))
        return budget_fail(s, d, cname, n, 2, BUDGET_HINT);
    x.op = cr_sim_op_add(s, sp->name ? sp->name : cname, CR_SIM_OP_COLL, ranks, n, sp->stream);
    if (x.op < 0)
        return cr_diag_set(d, CR_ENOMEM, "simulator: out of memory");
    if (cr_sim_op_markers(s, x.op, sp->launch_s, sp->t_start_s, &x.first, &x.last))
        return cr_diag_set(d, CR_ENOMEM, "simulator: out of memory");
    cr_status st = CR_OK;
    if (cr_sim_dep_add(s, x.first, x.last))
        st = flowsim_xp_oom(&x);
    else if (n == 1 && sp->bytes > 0 && sp->local_s > 0) {
        /* one rank out of place: the local copy coll predicts, on that GPU */
        int k = cr_sim_delay_add(s, x.op, 0, sp->local_s);
        if (k < 0 || cr_sim_dep_add(s, x.first, k) || cr_sim_dep_add(s, k, x.last))
            st = flowsim_xp_oom(&x);
    } else if (n == 1 || sp->bytes == 0)
        st = CR_OK; /* nothing moves: launch only */
    else if (graph_nics_limited(&x))
        st = flowsim_xp_oom(&x);
    else {
        switch (sim_algo(sp)) {
        case CR_ALGO_RING:
            st = ring(&x);
            break;
        case CR_ALGO_TREE:
            st = tree(&x);
            break;
        case CR_ALGO_NVLS:
            st = nvls(&x);
            break;
        case CR_ALGO_NVLSTREE:
            st = nvlstree(&x);
            break;
        case CR_ALGO_DIRECT:
            st = direct(&x);
            break;
        case CR_ALGO_PAT:
            st = pat(&x);
            break;
        default:
            st = cr_diag_set(d, CR_EUNSUPPORTED,
                             "simulator: algorithm %s is not simulated; use --algo ring, tree, "
                             "nvls, nvlstree, pat or direct",
                             cr_algo_name(sim_algo(sp)));
        }
    }
    free(x.acc);
    free(x.rings);
    free(x.node_rings);
    free(x.node_ring_at);
    free(x.pci_nets);
    free(x.pci_off);
    free(x.pci_node);
    free(x.pin);
    if (st == CR_OK)
        *op = x.op;
    return st;
}

cr_status cr_sim_compute_op_add(cr_sim *s, const char *name, const int *ranks, int n, double dur_s,
                                double hbm_bytes, double t_start_s, int stream, int *op, cr_diag *d)
{
    *op = -1;
    if (!(dur_s >= 0) || !isfinite(dur_s) || !(hbm_bytes >= 0) || !isfinite(hbm_bytes) ||
        !(t_start_s >= 0) || !isfinite(t_start_s))
        return cr_diag_set(d, CR_EINVAL,
                           "simulator: compute \"%s\" needs a finite duration, HBM bytes and "
                           "start time >= 0",
                           name ? name : "compute");
    if (!budget_fits(s, (double)n + 2))
        return budget_fail(s, d, "compute", n, (double)n + 2, BUDGET_HINT);
    int o = cr_sim_op_add(s, name ? name : "compute", CR_SIM_OP_COMPUTE, ranks, n, stream);
    int first, last;
    if (o < 0)
        return cr_diag_set(d, CR_EINVAL, "simulator: compute \"%s\": bad rank list",
                           name ? name : "compute");
    if (cr_sim_op_markers(s, o, 0.0, t_start_s, &first, &last) || cr_sim_dep_add(s, first, last))
        return cr_diag_set(d, CR_ENOMEM, "simulator: out of memory");
    for (int i = 0; i < n; i++) {
        int k = cr_sim_compute_add(s, o, i, dur_s, hbm_bytes);
        if (k < 0 || cr_sim_dep_add(s, first, k) || cr_sim_dep_add(s, k, last))
            return cr_diag_set(d, CR_ENOMEM, "simulator: out of memory");
    }
    *op = o;
    return CR_OK;
}

cr_status cr_sim_op_after(cr_sim *s, int before, int after)
{
    cr_sim_op_result a = cr_sim_op_get(s, before), b = cr_sim_op_get(s, after);
    if (before == after || a.last_task < 0 || b.first_task < 0)
        return CR_EINVAL;
    return cr_sim_dep_add(s, a.last_task, b.first_task);
}
