/* SPDX-License-Identifier: MIT */
/*
 * Flow-level discrete-event simulator: the engine (see flowsim.h and
 * doc/simulator.md, which derives the model and the costs below). This
 * file builds the simulator, its tasks and events and reads the results;
 * flowsim_class.c builds the resource classes, flowsim_solve.c keeps the
 * flows on them and solves the rates (the state they share:
 * flowsim_priv.h).
 *
 * Data structures, chosen so that one change costs what it touches:
 *   - routes are computed once per GPU pair and cached by the router
 *     (flowroute.c);
 *   - flows added by cr_sim_flow_add keep references to their route legs,
 *     not copies of the links, until the run starts;
 *   - at run start, base resources (link directions, HBM, reduction
 *     engines) that are used by exactly the same routes and explicit flows
 *     with proportional weights are merged into one solver resource
 *     ("class"): they saturate together, so one constraint of capacity
 *     min(cap_i / alpha_i) is exactly equivalent. This folds the 4 NVSwitch
 *     planes of a GPU, the 16 spine uplinks of a leaf, a NIC's PCIe and
 *     network sides, into one each. HBM that cannot bind (its capacity
 *     exceeds everything the GPU's links can carry to and from it, and no
 *     compute task uses it) is not simulated; its bytes are still counted;
 *   - every solver resource keeps the list of flows active on it
 *     (swap-remove; each flow use remembers its position), every flow the
 *     list of solver resources it uses with weights;
 *   - after each batch of simultaneous arrivals and departures, only the
 *     connected component of resources and flows reachable from the changed
 *     resources is re-solved, by progressive filling with a heap of
 *     resources keyed by saturation level (lazy keys: levels only rise);
 *   - a re-solved component gets one completion event (its earliest flow
 *     end) instead of one per flow: a component is superseded as a whole by
 *     the next solve that touches any of its flows, so when its event fires
 *     one scan of its flows finds those that end;
 *   - tasks released together with the same activation time share one
 *     event;
 *   - flows that become active at the same instant over the same uses
 *     (route legs and HBM classes, or one explicit use list shared through
 *     cr_sim_flow_add_like) with the same bytes and rate cap attach as one
 *     weighted flow (merge_pending): its weights count its k members, its
 *     rate is each member's, and the members end with it. Weighted max-min
 *     gives k identical flows this one rate, so the results are the
 *     unmerged ones (test_flowsim_merge).
 */
#include "flowsim_priv.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_FLOW = 0, T_DELAY = 1 };

/* Events between two progress reports: a few per second on one core. */
#define PROGRESS_EVERY 65536

/* Two events closer than this (relative to the time simulated so far) are
 * processed as one batch: it merges the completions of identical flows that
 * rounding separates by a few ulps, far below the 1% agreement the tests ask
 * for. */
#define BATCH_REL 1e-9
#define BATCH_ABS 1e-15

/* Released successors of one task are grouped by activation time (one
 * event per group) when there are at least this many. */
#define GROUP_MIN 16
#define GROUP_SLOTS 8

/* ---------- small helpers ---------- */

static char *dup_str(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static bool has_reduce(const cr_topo *t, int v)
{
    const cr_dev *dv = &t->devs[v];
    return dv->kind == CR_DEV_SWITCH && dv->spec >= 0 && t->switch_specs[dv->spec].reduction &&
           t->switch_specs[dv->spec].reduce_Bps > 0;
}

/* ---------- construction ---------- */

cr_status cr_sim_new(const cr_topo *t, cr_sim **out, cr_diag *d)
{
    *out = NULL;
    if (!t || !t->finalized || t->n_gpus < 1)
        return cr_diag_set(d, CR_EINVAL, "simulator: the topology must be finalized and hold GPUs");
    cr_sim *s = calloc(1, sizeof *s);
    if (!s)
        return cr_diag_set(d, CR_ENOMEM, "simulator: out of memory");
    s->t = t;
    s->transit = cr_route_transit(t);
    s->pxn = cr_topo_param(t, "sim.pxn", 1.0) != 0.0;
    s->fw_src = -1;
    s->prewarm = -1;
    s->max_tasks = CR_SIM_FLOWS_MAX;
    s->max_route_work = CR_SIM_ROUTE_WORK_MAX;
    s->merge = true;
    s->local = malloc(((size_t)t->n_gpus + 1) * sizeof *s->local);
    s->node_first = malloc(((size_t)t->n_nodes + 1) * sizeof *s->node_first);
    if (!s->local || !s->node_first)
        goto oom;
    for (int i = 0; i < t->n_nodes; i++)
        s->node_first[i] = -1;
    for (int g = 0; g < t->n_gpus; g++) {
        int nd = t->devs[t->gpus[g]].node;
        s->local[g] = -1;
        if (nd < 0 || nd >= t->n_nodes)
            continue;
        if (s->node_first[nd] < 0)
            s->node_first[nd] = g;
        s->local[g] = g - s->node_first[nd];
    }
    /* Scale-up domains: GPUs joined by NVLink, XGMI or ICI, through switches
     * or directly (an NVL72 rack is one domain of 18 nodes, a TPU torus one
     * domain; cr_route_scaleup). PXN applies between domains
     * only: inside one, NCCL reaches a peer over NVLink, not the network. */
    s->domain = malloc(((size_t)t->n_gpus + 1) * sizeof *s->domain);
    int *dev_dom = malloc(((size_t)t->n_devs + 1) * sizeof *dev_dom);
    int *stack = malloc(((size_t)t->n_devs + 1) * sizeof *stack);
    if (!s->domain || !dev_dom || !stack) {
        free(dev_dom);
        free(stack);
        goto oom;
    }
    for (int v = 0; v < t->n_devs; v++)
        dev_dom[v] = -1;
    for (int g = 0; g < t->n_gpus; g++) {
        int v0 = t->gpus[g];
        if (dev_dom[v0] >= 0)
            continue;
        int sp = 0;
        dev_dom[v0] = g;
        stack[sp++] = v0;
        while (sp > 0) {
            int v = stack[--sp];
            for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
                const cr_link *l = &t->links[t->adj[k]];
                int w = cr_link_other(l, v);
                if (!cr_route_scaleup(l->kind) || dev_dom[w] >= 0)
                    continue;
                dev_dom[w] = g;
                stack[sp++] = w;
            }
        }
    }
    for (int g = 0; g < t->n_gpus; g++)
        s->domain[g] = dev_dom[t->gpus[g]];
    free(dev_dom);
    free(stack);
    if (!(s->domain_multi = calloc((size_t)t->n_gpus + 1, 1)))
        goto oom;
    for (int g = 0; g < t->n_gpus; g++)
        if (t->devs[t->gpus[g]].node != t->devs[t->gpus[s->domain[g]]].node)
            s->domain_multi[s->domain[g]] = 1;
    int n_red = 0;
    s->reduce_res = malloc(((size_t)t->n_devs + 1) * sizeof *s->reduce_res);
    if (!s->reduce_res)
        goto oom;
    for (int v = 0; v < t->n_devs; v++) {
        s->reduce_res[v] = -1;
        if (has_reduce(t, v))
            n_red++;
    }
    s->hbm_res0 = 2 * t->n_links;
    s->n_res = 2 * t->n_links + t->n_gpus + n_red;
    s->res = calloc((size_t)s->n_res + 1, sizeof *s->res);
    if (!s->res)
        goto oom;
    for (int l = 0; l < t->n_links; l++) {
        const cr_link *k = &t->links[l];
        for (int dir = 0; dir < 2; dir++) {
            res_t *r = &s->res[2 * l + dir];
            r->kind = CR_SIM_RES_LINK;
            r->index = l;
            r->dir = dir;
            r->cap_Bps = k->count * (dir == 0 ? k->bw_ab_Bps : k->bw_ba_Bps);
        }
    }
    for (int g = 0; g < t->n_gpus; g++) {
        res_t *r = &s->res[s->hbm_res0 + g];
        const cr_gpu_spec *sp = cr_topo_gpu_spec(t, g);
        r->kind = CR_SIM_RES_HBM;
        r->index = g;
        r->cap_Bps = sp && sp->hbm_Bps > 0 ? sp->hbm_Bps : INFINITY;
    }
    int ri = s->hbm_res0 + t->n_gpus;
    for (int v = 0; v < t->n_devs; v++) {
        if (!has_reduce(t, v))
            continue;
        res_t *r = &s->res[ri];
        r->kind = CR_SIM_RES_REDUCE;
        r->index = v;
        r->cap_Bps = t->switch_specs[t->devs[v].spec].reduce_Bps;
        s->reduce_res[v] = ri++;
    }
    for (int r = 0; r < s->n_res; r++) {
        s->res[r].cls = -1;
        s->res[r].alpha = 1.0;
    }
    s->res_slot = malloc(((size_t)s->n_res + 1) * sizeof *s->res_slot);
    if (!s->res_slot || flowroute_init(s))
        goto oom;
    for (int r = 0; r < s->n_res; r++)
        s->res_slot[r] = -1;
    *out = s;
    return CR_OK;
oom:
    cr_sim_free(s);
    return cr_diag_set(d, CR_ENOMEM, "simulator: out of memory");
}

static void batches_free(batch_t *b, int n)
{
    for (int i = 0; i < n; i++) {
        free(b[i].f);
        free(b[i].end);
    }
    free(b);
}

void cr_sim_free(cr_sim *s)
{
    if (!s)
        return;
    if (s->cls)
        for (int c = 0; c < s->n_cls; c++)
            free(s->cls[c].act);
    free(s->cls);
    flowsim_sym_free(s->sym);
    free(s->res);
    free(s->reduce_res);
    free(s->local);
    free(s->domain);
    free(s->domain_multi);
    free(s->node_first);
    for (long i = 0; i < s->n_tasks; i++)
        free(s->tasks[i].label);
    free(s->tasks);
    free(s->fd);
    free(s->unf);
    free(s->alive);
    free(s->fbn);
    free(s->mult);
    free(s->fnext);
    free(s->pend);
    free(s->mslot);
    free(s->uf_par);
    free(s->uf_size);
    free(s->uf_next);
    free(s->root_stamp);
    free(s->uf_nf);
    free(s->uses);
    free(s->deps);
    free(s->rr);
    free(s->rr_off);
    free(s->vr);
    free(s->vbuf);
    for (int i = 0; i < s->n_ops; i++) {
        free(s->ops[i].name);
        free(s->ops[i].ranks);
        free(s->ops[i].member);
        free(s->ops[i].share);
        free(s->ops[i].rank_end);
    }
    free(s->ops);
    cr_heap_free(&s->heap);
    batches_free(s->batches, s->n_batches);
    batches_free(s->groups, s->n_groups);
    free(s->res_slot);
    flowroute_free(s);
    free(s->cls_stamp);
    free(s->comp_res);
    free(s->comp_flows);
    free(s->rem);
    free(s->wsum);
    free(s->nunf);
    cr_heap_free(&s->rheap);
    cr_heap_free(&s->cheap);
    free(s->newrate);
    free(s->seeds);
    free(s->seeded);
    free(s->hard);
    free(s->nb);
    free(s);
}

const cr_topo *cr_sim_topo(const cr_sim *s)
{
    return s->t;
}

int cr_sim_res_link(const cr_sim *s, int l, int from)
{
    if (l < 0 || l >= s->t->n_links)
        return -1;
    return 2 * l + (from == s->t->links[l].a ? 0 : 1);
}

int cr_sim_res_hbm(const cr_sim *s, int rank)
{
    return rank >= 0 && rank < s->t->n_gpus ? s->hbm_res0 + rank : -1;
}

int cr_sim_res_reduce(const cr_sim *s, int dev)
{
    return dev >= 0 && dev < s->t->n_devs ? s->reduce_res[dev] : -1;
}

int cr_sim_n_res(const cr_sim *s)
{
    return s->n_res;
}

int flowsim_repeated_gpu(const cr_topo *t, const int *ranks, int n)
{
    uint64_t *seen = calloc((size_t)t->n_gpus / 64 + 1, sizeof *seen);
    if (!seen)
        return -2;
    int rep = -1;
    for (int i = 0; i < n && rep < 0; i++) {
        uint64_t bit = (uint64_t)1 << (ranks[i] & 63);
        if (seen[ranks[i] >> 6] & bit)
            rep = ranks[i];
        seen[ranks[i] >> 6] |= bit;
    }
    free(seen);
    return rep;
}

int cr_sim_op_add(cr_sim *s, const char *name, cr_sim_op_kind kind, const int *ranks, int n,
                  int stream)
{
    if (n < 1 || s->ran || (kind != CR_SIM_OP_COLL && kind != CR_SIM_OP_COMPUTE))
        return -1;
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= s->t->n_gpus)
            return -1;
    if (flowsim_repeated_gpu(s->t, ranks, n) != -1) /* a GPU twice: one op rank each */
        return -1;
    if (cr_grow((void **)&s->ops, &s->cap_ops, (size_t)s->n_ops + 1, sizeof *s->ops))
        return -1;
    op_t *o = &s->ops[s->n_ops];
    memset(o, 0, sizeof *o);
    o->name = dup_str(name ? name : "op");
    o->ranks = malloc((size_t)n * sizeof *o->ranks);
    o->rank_end = malloc((size_t)n * sizeof *o->rank_end);
    o->member = calloc((size_t)s->t->n_gpus / 64 + 1, sizeof *o->member);
    if (!o->name || !o->ranks || !o->rank_end || !o->member) {
        free(o->name);
        free(o->ranks);
        free(o->rank_end);
        free(o->member);
        return -1;
    }
    memcpy(o->ranks, ranks, (size_t)n * sizeof *ranks);
    for (int i = 0; i < n; i++)
        o->member[ranks[i] >> 6] |= (uint64_t)1 << (ranks[i] & 63);
    if (s->nics->off[s->t->n_gpus] > 0) {
        if (!(o->share = calloc((size_t)s->t->n_gpus + 1, 1))) {
            free(o->name);
            free(o->ranks);
            free(o->rank_end);
            free(o->member);
            return -1;
        }
        flowroute_nic_shares(s, o->member, o->share);
    }
    o->kind = (int)kind;
    o->n = n;
    o->stream = stream;
    o->first_task = o->last_task = -1;
    return s->n_ops++;
}

/* ---------- tasks ---------- */

static long task_new(cr_sim *s, int op, int type, int src, int dst)
{
    if (s->ran || op < 0 || op >= s->n_ops)
        return -1;
    const op_t *o = &s->ops[op];
    if (src < 0 || src >= o->n || dst < -1 || dst >= o->n)
        return -1;
    if (s->n_tasks >= INT_MAX - 1 || s->n_tasks >= s->max_tasks)
        return -1;
    if (cr_grow((void **)&s->tasks, &s->cap_tasks, (size_t)s->n_tasks + 1, sizeof *s->tasks))
        return -1;
    task_t *k = &s->tasks[s->n_tasks];
    memset(k, 0, sizeof *k);
    k->op = op;
    k->type = (unsigned char)type;
    k->src = src;
    k->dst = dst;
    k->r1 = k->r2 = -1;
    k->ready_s = k->start_s = k->end_s = -1.0;
    k->use_off = s->n_uses;
    return s->n_tasks++;
}

/* Appends an explicit use to the task being built (the last one), merging
 * duplicates through res_slot (reset by task_uses_done). An HBM used
 * explicitly is pinned: it stays simulated whatever its capacity. */
static int task_use(cr_sim *s, int res, double w)
{
    if (res < 0 || res >= s->n_res || !(w > 0) || !isfinite(w))
        return -1;
    if (!isfinite(s->res[res].cap_Bps))
        return 0; /* an unlimited resource never binds */
    if (s->res[res].kind == CR_SIM_RES_HBM)
        s->res[res].pinned = 1;
    if (s->res_slot[res] >= 0) {
        s->uses[s->res_slot[res]].w += w;
        return 0;
    }
    if (s->n_uses >= INT_MAX - 1 ||
        cr_grow((void **)&s->uses, &s->cap_uses, (size_t)s->n_uses + 1, sizeof *s->uses))
        return -1;
    s->res_slot[res] = (int)s->n_uses;
    s->uses[s->n_uses].res = res;
    s->uses[s->n_uses].w = w;
    s->n_uses++;
    return 0;
}

static void task_uses_done(cr_sim *s, task_t *k)
{
    for (long i = k->use_off; i < s->n_uses; i++)
        s->res_slot[s->uses[i].res] = -1;
    k->n_use = (int)(s->n_uses - k->use_off);
}

/* Drops the last task (after a failure while adding its uses). */
static int task_abort(cr_sim *s)
{
    task_t *k = &s->tasks[s->n_tasks - 1];
    for (long i = k->use_off; i < s->n_uses; i++)
        s->res_slot[s->uses[i].res] = -1;
    s->n_uses = k->use_off;
    s->n_tasks--;
    return -1;
}

/* A flow from op rank src to dst; its latency is its path's plus
 * extra_lat_s, and at least min_lat_s (exactly min_lat_s when whole). */
static int flow_add(cr_sim *s, int op, int src, int dst, double bytes, double extra_lat_s,
                    double min_lat_s, bool red, bool whole)
{
    if (!(bytes >= 0) || !isfinite(bytes) || !(extra_lat_s >= 0) || !isfinite(extra_lat_s) ||
        !(min_lat_s >= 0) || !isfinite(min_lat_s))
        return -1;
    if (op < 0 || op >= s->n_ops || src < 0 || dst < 0 || src >= s->ops[op].n ||
        dst >= s->ops[op].n)
        return -1;
    int a = s->ops[op].ranks[src], b = s->ops[op].ranks[dst];
    if (a == b) {
        /* A local copy: reads and writes (and reads the operand) in HBM. */
        long id = task_new(s, op, T_FLOW, src, dst);
        if (id < 0)
            return -1;
        if (task_use(s, cr_sim_res_hbm(s, a), red ? 3.0 : 2.0))
            return task_abort(s);
        task_t *k = &s->tasks[id];
        task_uses_done(s, k);
        k->bytes = bytes;
        k->lat_s = fmax(extra_lat_s, min_lat_s);
        s->st.n_flows++;
        return (int)id;
    }
    long r1, r2;
    if (flowroute_legs(s, s->ops[op].member, s->ops[op].share, a, b, &r1, &r2) < 0)
        return -1;
    long id = task_new(s, op, T_FLOW, src, dst);
    if (id < 0)
        return -1;
    task_t *k = &s->tasks[id];
    k->routed = 1;
    k->red = red;
    k->r1 = (int)r1;
    k->r2 = (int)r2;
    s->rc.routes[r1].refs++;
    if (r2 >= 0)
        s->rc.routes[r2].refs++;
    k->bytes = bytes;
    k->lat_s =
        whole ? min_lat_s
              : fmax(s->rc.routes[r1].lat_s + (r2 >= 0 ? s->rc.routes[r2].lat_s : 0) + extra_lat_s,
                     min_lat_s);
    s->st.n_flows++;
    return (int)id;
}

int cr_sim_flow_add(cr_sim *s, int op, int src, int dst, double bytes, double extra_lat_s)
{
    return flow_add(s, op, src, dst, bytes, extra_lat_s, 0.0, false, false);
}

int cr_sim_flow_add_reduce(cr_sim *s, int op, int src, int dst, double bytes, double extra_lat_s)
{
    return flow_add(s, op, src, dst, bytes, extra_lat_s, 0.0, true, false);
}

int cr_sim_flow_add_step(cr_sim *s, int op, int src, int dst, double bytes, double step_lat_s,
                         bool reduce)
{
    return flow_add(s, op, src, dst, bytes, 0.0, step_lat_s, reduce, false);
}

int cr_sim_flow_add_step_at(cr_sim *s, int op, int src, int dst, double bytes, double lat_s,
                            bool reduce)
{
    return flow_add(s, op, src, dst, bytes, 0.0, lat_s, reduce, true);
}

int cr_sim_flow_add_uses(cr_sim *s, int op, int rank, int peer, const cr_sim_use *uses, int n,
                         double bytes, double lat_s)
{
    if (!(bytes >= 0) || !isfinite(bytes) || !(lat_s >= 0) || !isfinite(lat_s) || n < 0)
        return -1;
    long id = task_new(s, op, T_FLOW, rank, peer == CR_SIM_ALL_RANKS ? -1 : peer);
    if (id < 0)
        return -1;
    s->tasks[id].all = peer == CR_SIM_ALL_RANKS;
    for (int i = 0; i < n; i++)
        if (task_use(s, uses[i].res, uses[i].w))
            return task_abort(s);
    task_t *k = &s->tasks[id];
    task_uses_done(s, k);
    k->bytes = bytes;
    k->lat_s = lat_s;
    s->st.n_flows++;
    return (int)id;
}

cr_status cr_sim_flow_cap(cr_sim *s, int f, double max_Bps)
{
    if (f < 0 || f >= s->n_tasks || s->tasks[f].type != T_FLOW || !(max_Bps > 0) ||
        !isfinite(max_Bps))
        return CR_EINVAL;
    s->tasks[f].max_rate = max_Bps;
    return CR_OK;
}

int cr_sim_flow_add_like(cr_sim *s, int like, int rank, int peer, double bytes, double lat_s)
{
    if (like < 0 || like >= s->n_tasks || !(bytes >= 0) || !isfinite(bytes) || !(lat_s >= 0) ||
        !isfinite(lat_s))
        return -1;
    const task_t *l = &s->tasks[like];
    /* not a compute kernel's HBM stream (a flow with a rate cap in a
     * compute op); a capped flow of a collective is fine: its cap is not
     * shared (cr_sim_flow_cap the new one) */
    if (l->type != T_FLOW || l->routed ||
        (l->max_rate > 0 && s->ops[l->op].kind == CR_SIM_OP_COMPUTE))
        return -1;
    if (l->shared)
        like = l->r1; /* the task that holds the uses */
    long id = task_new(s, s->tasks[like].op, T_FLOW, rank, peer == CR_SIM_ALL_RANKS ? -1 : peer);
    if (id < 0)
        return -1;
    task_t *k = &s->tasks[id];
    const task_t *o = &s->tasks[like];
    k->all = peer == CR_SIM_ALL_RANKS;
    k->shared = 1;
    k->r1 = like;
    k->use_off = o->use_off;
    k->n_use = o->n_use;
    k->bytes = bytes;
    k->lat_s = lat_s;
    s->st.n_flows++;
    return (int)id;
}

int cr_sim_compute_add(cr_sim *s, int op, int rank, double dur_s, double hbm_bytes)
{
    if (!(dur_s >= 0) || !isfinite(dur_s) || !(hbm_bytes >= 0) || !isfinite(hbm_bytes))
        return -1;
    if (hbm_bytes <= 0 || dur_s <= 0) {
        if (hbm_bytes > 0)
            dur_s = 0; /* bytes with no compute time: a pure HBM stream */
        else
            return cr_sim_delay_add(s, op, rank, dur_s);
    }
    if (op < 0 || op >= s->n_ops || rank < 0 || rank >= s->ops[op].n)
        return -1;
    long id = task_new(s, op, T_FLOW, rank, -1);
    if (id < 0)
        return -1;
    if (task_use(s, cr_sim_res_hbm(s, s->ops[op].ranks[rank]), 1.0))
        return task_abort(s);
    task_t *k = &s->tasks[id];
    task_uses_done(s, k);
    k->bytes = hbm_bytes;
    /* The roofline of one kernel: it cannot stream faster than its compute
     * lets it, nor faster than its (shared) HBM. */
    k->max_rate = dur_s > 0 ? hbm_bytes / dur_s : 0.0;
    if (k->n_use == 0 && k->max_rate == 0) {
        k->type = T_DELAY;
        k->lat_s = 0;
    }
    return (int)id;
}

int cr_sim_delay_add(cr_sim *s, int op, int rank, double dur_s)
{
    if (!(dur_s >= 0) || !isfinite(dur_s))
        return -1;
    long id = task_new(s, op, T_DELAY, rank, -1);
    if (id < 0)
        return -1;
    s->tasks[id].lat_s = dur_s;
    s->tasks[id].n_use = 0;
    return (int)id;
}

static int max_degree(const cr_topo *t)
{
    int m = 0;
    for (int v = 0; v < t->n_devs; v++)
        if (t->adj_off[v + 1] - t->adj_off[v] > m)
            m = t->adj_off[v + 1] - t->adj_off[v];
    return m;
}

void cr_sim_set_task_limit(cr_sim *s, long max_tasks)
{
    s->max_tasks = max_tasks >= 1 && max_tasks <= CR_SIM_FLOWS_MAX ? max_tasks : CR_SIM_FLOWS_MAX;
}

void cr_sim_set_route_work_limit(cr_sim *s, long max_links)
{
    s->max_route_work =
        max_links >= 1 && max_links <= CR_SIM_ROUTE_WORK_MAX ? max_links : CR_SIM_ROUTE_WORK_MAX;
}

long cr_sim_task_limit(const cr_sim *s)
{
    return s->max_tasks;
}

cr_status cr_sim_limit_hit(const cr_sim *s, cr_diag *d)
{
    if (s->work_over)
        return cr_diag_set(d, CR_ERANGE,
                           "simulator: route searches scanned more than %ld links, the most one "
                           "simulation may (a switch with n GPUs costs n per route through it; "
                           "%s has a device with %d links); simulate fewer ranks (--ranks) or "
                           "give the topology switches of fewer ports (a tree of switches)",
                           s->max_route_work, s->t->name ? s->t->name : "the topology",
                           max_degree(s->t));
    if (s->n_tasks >= s->max_tasks)
        return cr_diag_set(d, CR_ERANGE,
                           "simulator: the simulation holds %ld tasks, the most it takes (about "
                           "%.1f GB at 280 bytes a flow); simulate fewer ranks (--ranks), or "
                           "split the scenario into smaller ones",
                           s->n_tasks, (double)s->max_tasks * 280e-9);
    return CR_OK;
}

cr_status cr_sim_reserve(cr_sim *s, long tasks, long deps)
{
    /* deps bounded as tasks: n_deps + LONG_MAX overflowed (QA audit of the API) */
    if (tasks < 0 || deps < 0 || tasks > INT_MAX || deps > INT_MAX)
        return CR_EINVAL;
    if (tasks > s->max_tasks - s->n_tasks)
        return CR_ERANGE;
    if (cr_grow((void **)&s->tasks, &s->cap_tasks, (size_t)(s->n_tasks + tasks),
                sizeof *s->tasks) ||
        cr_grow((void **)&s->deps, &s->cap_deps, (size_t)(s->n_deps + deps), sizeof *s->deps))
        return CR_ENOMEM;
    return CR_OK;
}

cr_status cr_sim_dep_add(cr_sim *s, int before, int after)
{
    if (s->ran || before < 0 || after < 0 || before >= s->n_tasks || after >= s->n_tasks ||
        before == after)
        return CR_EINVAL;
    if (cr_grow((void **)&s->deps, &s->cap_deps, (size_t)s->n_deps + 1, sizeof *s->deps))
        return CR_ENOMEM;
    s->deps[s->n_deps][0] = before;
    s->deps[s->n_deps][1] = after;
    s->n_deps++;
    return CR_OK;
}

cr_status cr_sim_op_markers(cr_sim *s, int op, double launch_s, double t_start_s, int *first,
                            int *last)
{
    /* times as cr_sim_delay_add and cr_sim_task_not_before take them: a
     * NaN start was taken as 0 and an infinite one made cr_sim_run loop
     * for ever; a bad launch_s and the task budget read "out of memory"
     * (QA audit of the API) */
    if (op < 0 || op >= s->n_ops || s->ops[op].first_task >= 0 || !(launch_s >= 0) ||
        !isfinite(launch_s) || !(t_start_s >= 0) || !isfinite(t_start_s))
        return CR_EINVAL;
    if (s->max_tasks - s->n_tasks < 2)
        return CR_ERANGE;
    int a = cr_sim_delay_add(s, op, 0, launch_s);
    if (a < 0)
        return CR_ENOMEM;
    int b = cr_sim_delay_add(s, op, 0, 0.0);
    if (b < 0)
        return CR_ENOMEM;
    s->tasks[a].quiet = s->tasks[b].quiet = 1;
    s->tasks[a].not_before = t_start_s;
    s->ops[op].first_task = a;
    s->ops[op].last_task = b;
    *first = a;
    *last = b;
    return CR_OK;
}

cr_status cr_sim_task_not_before(cr_sim *s, int task, double t_s)
{
    if (task < 0 || task >= s->n_tasks || !(t_s >= 0) || !isfinite(t_s))
        return CR_EINVAL;
    s->tasks[task].not_before = t_s;
    return CR_OK;
}

cr_status cr_sim_task_label(cr_sim *s, int task, const char *label)
{
    if (task < 0 || task >= s->n_tasks)
        return CR_EINVAL;
    char *c = dup_str(label);
    if (label && !c)
        return CR_ENOMEM;
    free(s->tasks[task].label);
    s->tasks[task].label = c;
    return CR_OK;
}

/* ---------- event heap ---------- */

int flowsim_ev_push(cr_sim *s, double t, int id, int kind)
{
    return cr_heap_push(&s->heap, t, id, kind);
}

/* ---------- batches: solved components, activation groups ---------- */

/* A new batch (list copied from f[0..n) when f is given). Returns its
 * index or -1. */
int flowsim_batch_new(batch_t **arr, int *n_arr, size_t *cap, const long *f, int n)
{
    if (cr_grow((void **)arr, cap, (size_t)*n_arr + 1, sizeof **arr))
        return -1;
    batch_t *b = &(*arr)[*n_arr];
    b->n = 0;
    b->live = 0;
    b->end = NULL;
    b->scanned = 0;
    b->cap = (size_t)(n > 0 ? n : 1);
    b->f = malloc(b->cap * sizeof *b->f);
    if (!b->f)
        return -1;
    if (f)
        for (int i = 0; i < n; i++)
            b->f[i] = (int)f[i];
    b->n = f ? n : 0;
    b->live = f ? n : 0;
    return (*n_arr)++;
}

void flowsim_batch_leave(cr_sim *s, int b)
{
    if (b < 0)
        return;
    batch_t *x = &s->batches[b];
    if (--x->live <= 0) {
        free(x->f);
        free(x->end);
        x->f = NULL;
        x->end = NULL;
        x->n = 0;
    }
}

/* ---------- the event loop ---------- */

typedef struct {
    const long *succ_off;
    const int *succ;
    long finished;
    long *fin;
    long n_fin;
    size_t cap_fin;
} loop_t;

/* Task f's successors whose last predecessor it was become ready at now
 * (or their start time) and activate after their latency; many released
 * at once are grouped by activation time (within the batch tolerance). */
static int release(cr_sim *s, loop_t *L, long f, double now)
{
    long a = L->succ_off[f], e = L->succ_off[f + 1];
    double gt[GROUP_SLOTS];
    int gid[GROUP_SLOTS], ng = 0;
    for (long i = a; i < e; i++) {
        long x = L->succ[i];
        task_t *n = &s->tasks[x];
        if (--n->npred != 0)
            continue;
        double r = now > n->not_before ? now : n->not_before;
        n->ready_s = r;
        double ta = r + n->lat_s;
        int g = -1;
        if (e - a >= GROUP_MIN) {
            for (int j = 0; j < ng && g < 0; j++)
                if (fabs(ta - gt[j]) <= BATCH_ABS + BATCH_REL * fabs(ta))
                    g = j;
            if (g < 0 && ng < GROUP_SLOTS) {
                int id = flowsim_batch_new(&s->groups, &s->n_groups, &s->cap_groups, NULL,
                                           (int)(e - a < 1024 ? e - a : 1024));
                if (id < 0)
                    return -1;
                gt[ng] = ta;
                gid[ng] = id;
                g = ng++;
            }
        }
        if (g < 0) {
            if (flowsim_ev_push(s, ta, (int)x, EV_ACT))
                return -1;
            continue;
        }
        batch_t *gr = &s->groups[gid[g]];
        if (cr_grow((void **)&gr->f, &gr->cap, (size_t)gr->n + 1, sizeof *gr->f))
            return -1;
        gr->f[gr->n++] = (int)x;
    }
    for (int j = 0; j < ng; j++)
        if (flowsim_ev_push(s, gt[j], gid[j], EV_ACTG))
            return -1;
    return 0;
}

/* Task f finished at now: record, release successors. */
static int task_finish(cr_sim *s, loop_t *L, long f, double now)
{
    task_t *k = &s->tasks[f];
    k->done = 1;
    k->end_s = now;
    s->fd[f].left = 0;
    L->finished++;
    s->st.n_events++;
    op_t *o = &s->ops[k->op];
    if (o->end_s < now)
        o->end_s = now;
    if (k->all && o->all_end_s < now)
        o->all_end_s = now; /* every rank's end: folded into rank_end at the end of the run */
    if (!k->quiet && o->rank_end[k->src] < now)
        o->rank_end[k->src] = now;
    if (!k->quiet && k->dst >= 0 && o->rank_end[k->dst] < now)
        o->rank_end[k->dst] = now;
    if (now > s->makespan)
        s->makespan = now;
    if (k->routed) {
        /* HBM that is not simulated still counts its bytes. */
        res_t *ha = &s->res[s->hbm_res0 + o->ranks[k->src]];
        res_t *hb = &s->res[s->hbm_res0 + o->ranks[k->dst]];
        if (ha->dropped)
            ha->dropped_bytes += k->bytes;
        if (hb->dropped)
            hb->dropped_bytes += k->bytes * (k->red ? 2.0 : 1.0);
    }
    return release(s, L, f, now);
}

/* Task x's latency has passed: a delay ends, a flow starts moving bytes. */
static int activate(cr_sim *s, loop_t *L, long x, double now)
{
    task_t *k = &s->tasks[x];
    s->st.n_events++;
    k->start_s = k->type == T_DELAY ? k->ready_s : now;
    if (k->type == T_DELAY || k->n_use == 0 || k->bytes <= 0) {
        if (k->type != T_DELAY && k->n_use == 0 && k->bytes > 0 && k->max_rate > 0) {
            /* A capped stream over unlimited resources: a batch of one. */
            k->active = 1;
            s->fd[x].rate = k->max_rate;
            s->fd[x].t_last = now;
            int b = flowsim_batch_new(&s->batches, &s->n_batches, &s->cap_batches, &x, 1);
            if (b < 0)
                return -1;
            s->fd[x].batch = b;
            return flowsim_ev_push(s, now + k->bytes / k->max_rate, b, EV_BATCH);
        }
        return task_finish(s, L, x, now);
    }
    s->fd[x].t_last = now;
    if (s->merge) {
        /* attached with the others of this instant (merge_pending) */
        if (cr_grow((void **)&s->pend, &s->cap_pend, (size_t)s->n_pend + 1, sizeof *s->pend))
            return -1;
        s->pend[s->n_pend++] = (int)x;
        return 0;
    }
    return flowsim_attach(s, x);
}

/* A hash of what decides a flow's rate and end: its uses in classes, its
 * bytes and its rate cap. */
static uint64_t flow_sig(cr_sim *s, long f)
{
    const task_t *k = &s->tasks[f];
    uint64_t h = mix64((uint64_t)k->routed);
    double num[2] = {k->bytes, k->max_rate};
    uint64_t bits[2];
    memcpy(bits, num, sizeof bits);
    h = mix64(h ^ bits[0]) ^ bits[1];
    if (k->routed) {
        const int *v = s->vr[f];
        for (int i = 0; i < 4; i++)
            h = mix64(h ^ (uint64_t)(uint32_t)v[i]);
        return mix64(h);
    }
    h = mix64(h ^ (uint64_t)k->use_off) ^ (uint64_t)k->n_use;
    return mix64(h);
}

/* Whether flows f and g have the same uses (same classes, same weights, in
 * the same order), bytes and rate cap: then max-min fairness gives them
 * one rate at every instant and they end together. */
static bool flow_same(const cr_sim *s, long f, long g)
{
    const task_t *a = &s->tasks[f], *b = &s->tasks[g];
    if (a->routed != b->routed || a->bytes != b->bytes || a->max_rate != b->max_rate ||
        a->n_use != b->n_use)
        return false;
    if (a->routed)
        return memcmp(s->vr[f], s->vr[g], sizeof s->vr[f]) == 0;
    return a->use_off == b->use_off;
}

/* The merge lists, at the first merge: every flow on its own so far. */
static int merge_alloc(cr_sim *s)
{
    size_t n = (size_t)s->n_tasks + 1;
    s->mult = malloc(n * sizeof *s->mult);
    s->fnext = malloc(n * sizeof *s->fnext);
    if (!s->mult || !s->fnext)
        return -1;
    for (size_t f = 0; f < n; f++) {
        s->mult[f] = 1;
        s->fnext[f] = -1;
    }
    return 0;
}

/* Attaches the flows activated at this instant. Flows with the same uses,
 * bytes and rate cap become one weighted flow: weighted max-min fairness
 * gives a flow of weight k x w on each resource the rate each of its k
 * members would get, so the members need no rates of their own; they end
 * with their leader (batch_event). Explicit flows merge when they share
 * their uses (cr_sim_flow_add_like). */
static int merge_pending(cr_sim *s)
{
    long n = s->n_pend;
    s->n_pend = 0;
    if (n == 1)
        return flowsim_attach(s, s->pend[0]);
    long cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    if (cr_grow((void **)&s->mslot, &s->cap_mslot, (size_t)cap, sizeof *s->mslot))
        return -1;
    for (long i = 0; i < cap; i++)
        s->mslot[i] = -1;
    for (long i = 0; i < n; i++) {
        int f = s->pend[i];
        long j = (long)(flow_sig(s, f) >> 17) & (cap - 1);
        for (;; j = (j + 1) & (cap - 1)) {
            int g = s->mslot[j];
            if (g < 0) {
                s->mslot[j] = f;
                break;
            }
            if (flow_same(s, f, g)) {
                if (!s->mult && merge_alloc(s))
                    return -1;
                s->fnext[f] = s->fnext[g];
                s->fnext[g] = f;
                s->mult[g]++;
                s->st.n_merged++;
                s->pend[i] = -1;
                break;
            }
        }
    }
    /* leaders attach in activation order, as they would unmerged */
    for (long i = 0; i < n; i++)
        if (s->pend[i] >= 0 && flowsim_attach(s, s->pend[i]))
            return -1;
    return 0;
}

static double flow_end(const fdyn_t *y)
{
    return !isfinite(y->rate) ? y->t_last : y->rate > 0 ? y->t_last + y->left / y->rate : INFINITY;
}

/* A batch's event: its flows that end by horizon finish now. The first
 * event scans the batch; if the batch outlives it (no re-solve touched it),
 * its live flows become a heap on their end times. */
static int batch_event(cr_sim *s, loop_t *L, int b, double now, double horizon)
{
    batch_t *x = &s->batches[b];
    if (!x->f)
        return 0;
    L->n_fin = 0;
    if (!x->end) {
        double tmin = INFINITY;
        int keep = 0;
        for (int i = 0; i < x->n; i++) {
            long f = x->f[i];
            const fdyn_t *y = &s->fd[f];
            if (y->batch != b)
                continue; /* re-rated since, or finished */
            double end = flow_end(y);
            if (end <= horizon) {
                if (cr_grow((void **)&L->fin, &L->cap_fin, (size_t)L->n_fin + 1, sizeof *L->fin))
                    return -1;
                L->fin[L->n_fin++] = f;
            } else {
                x->f[keep++] = (int)f;
                if (end < tmin)
                    tmin = end;
            }
        }
        x->n = keep;
        if (keep > 0 && !x->scanned) {
            /* Usually the solve that follows supersedes the batch: make the
             * heap only if it survives to a second event. */
            x->scanned = 1;
            if (flowsim_ev_push(s, tmin, b, EV_BATCH))
                return -1;
        } else if (keep > 0) {
            x->end = malloc((size_t)keep * sizeof *x->end);
            if (!x->end)
                return -1;
            for (int i = 0; i < keep; i++)
                x->end[i] = (cr_heap_ent){flow_end(&s->fd[x->f[i]]), x->f[i], 0};
            cr_heap_make(x->end, keep);
            if (flowsim_ev_push(s, tmin, b, EV_BATCH))
                return -1;
        }
    } else {
        while (x->n > 0 && (s->fd[x->end[0].id].batch != b || x->end[0].key <= horizon)) {
            long f = cr_heap_take(x->end, x->n--).id;
            if (s->fd[f].batch == b) {
                if (cr_grow((void **)&L->fin, &L->cap_fin, (size_t)L->n_fin + 1, sizeof *L->fin))
                    return -1;
                L->fin[L->n_fin++] = f;
            }
        }
        if (x->n > 0 && flowsim_ev_push(s, x->end[0].key, b, EV_BATCH))
            return -1;
    }
    for (long i = 0; i < L->n_fin; i++) {
        long f = L->fin[i];
        task_t *k = &s->tasks[f];
        if (k->n_use > 0 && flowsim_detach(s, f, now))
            return -1;
        k->active = 0;
        flowsim_batch_leave(s, s->fd[f].batch);
        s->fd[f].batch = -1;
        if (task_finish(s, L, f, now))
            return -1;
        for (long g = s->fnext ? s->fnext[f] : -1; g >= 0; g = s->fnext[g])
            if (task_finish(s, L, g, now))
                return -1;
    }
    return 0;
}

cr_status cr_sim_run(cr_sim *s, cr_diag *d)
{
    if (s->ran)
        return cr_diag_set(d, CR_EINVAL, "simulator: cr_sim_run was already called");
    if (s->sym && s->n_ops != 1)
        return cr_diag_set(d, CR_EUNSUPPORTED,
                           "simulator: %s runs by symmetry, one flow per orbit of GPU pairs, "
                           "only as the only op; simulate it alone or over fewer ranks",
                           s->ops[s->sym->op].name);
    s->ran = true;
    cr_status st = CR_ENOMEM;
    long n = s->n_tasks;
    loop_t L;
    memset(&L, 0, sizeof L);
    long *succ_off = calloc((size_t)n + 2, sizeof *succ_off);
    int *succ = malloc(((size_t)s->n_deps + 1) * sizeof *succ);
    s->newrate = malloc(((size_t)n + 1) * sizeof *s->newrate);
    s->fd = malloc(((size_t)n + 1) * sizeof *s->fd);
    s->unf = calloc((size_t)n / 64 + 2, sizeof *s->unf);
    s->alive = calloc((size_t)n / 64 + 2, sizeof *s->alive);
    s->fbn = malloc(((size_t)n + 1) * sizeof *s->fbn);
    if (!succ_off || !succ || !s->newrate || !s->fd || !s->unf || !s->alive || !s->fbn ||
        flowsim_classes(s))
        goto out;
    for (long f = 0; f < n; f++) {
        s->fd[f].left = s->tasks[f].bytes;
        s->fd[f].rate = s->fd[f].t_last = 0;
        s->fd[f].batch = -1;
        s->fd[f].capped = s->tasks[f].max_rate > 0;
        s->fbn[f] = -1;
    }
    size_t nc = (size_t)s->n_cls + 1;
    s->cls_stamp = calloc(nc, sizeof *s->cls_stamp);
    s->seeded = calloc(nc, sizeof *s->seeded);
    s->hard = calloc(nc, sizeof *s->hard);
    s->nb = calloc(nc, sizeof *s->nb);

    s->uf_par = malloc(nc * sizeof *s->uf_par);
    s->uf_size = malloc(nc * sizeof *s->uf_size);
    s->uf_next = malloc(nc * sizeof *s->uf_next);
    s->root_stamp = calloc(nc, sizeof *s->root_stamp);
    s->uf_nf = calloc(nc, sizeof *s->uf_nf);
    s->comp_res = malloc(nc * sizeof *s->comp_res);
    s->rem = malloc(nc * sizeof *s->rem);
    s->wsum = malloc(nc * sizeof *s->wsum);
    s->nunf = malloc(nc * sizeof *s->nunf);
    if (!s->cls_stamp || !s->seeded || !s->hard || !s->nb || !s->uf_par || !s->uf_size ||
        !s->uf_next || !s->root_stamp || !s->uf_nf || !s->comp_res || !s->rem || !s->wsum ||
        !s->nunf)
        goto out;
    s->seed_round = 1;
    flowsim_uf_rebuild(s);
    /* Active lists sized once for every flow that will use each class, so
     * that activations append without reallocating. */
    for (long f = 0; f < n; f++) {
        const use_t *us;
        int nu = s->tasks[f].type == T_FLOW ? flowsim_flow_uses(s, f, &us) : 0;
        for (int i = 0; i < nu; i++)
            s->cls[use_cls(&us[i])].cap_act++;
    }
    for (int c = 0; c < s->n_cls; c++) {
        cls_t *r = &s->cls[c];
        if (r->cap_act > 0 && !(r->act = malloc(r->cap_act * sizeof *r->act)))
            goto out;
    }
    for (long i = 0; i < s->n_deps; i++) {
        succ_off[s->deps[i][0] + 1]++;
        s->tasks[s->deps[i][1]].npred++;
    }
    for (long i = 0; i < n; i++)
        succ_off[i + 1] += succ_off[i];
    {
        long *fill = malloc(((size_t)n + 1) * sizeof *fill);
        if (!fill)
            goto out;
        memcpy(fill, succ_off, (size_t)n * sizeof *fill);
        for (long i = 0; i < s->n_deps; i++)
            succ[fill[s->deps[i][0]]++] = s->deps[i][1];
        free(fill);
    }
    free(s->deps);
    s->deps = NULL;
    s->cap_deps = 0;
    L.succ_off = succ_off;
    L.succ = succ;
    for (int i = 0; i < s->n_ops; i++) {
        s->ops[i].start_s = INFINITY;
        s->ops[i].end_s = 0;
        s->ops[i].all_end_s = -1.0;
        for (int j = 0; j < s->ops[i].n; j++)
            s->ops[i].rank_end[j] = -1.0;
    }
    s->makespan = 0;
    for (long f = 0; f < n; f++) {
        task_t *k = &s->tasks[f];
        s->ops[k->op].n_tasks++;
        if (k->npred == 0) {
            k->ready_s = k->not_before;
            if (flowsim_ev_push(s, k->ready_s + k->lat_s, (int)f, EV_ACT))
                goto out;
        }
    }
    s->st.n_tasks = n;
    long next_report = PROGRESS_EVERY;
    /* batching is relative to the time simulated so far, not to the clock's
     * value: ops that start at 1000 s would otherwise batch every event
     * within a microsecond (a 29 us allreduce came out 20 us) */
    double t0 = s->heap.n > 0 ? s->heap.e[0].key : 0;
    while (s->heap.n > 0) {
        double now = s->heap.e[0].key;
        if (s->progress && s->st.n_events >= next_report) {
            s->progress(s->progress_ctx, L.finished, n, now);
            next_report = s->st.n_events + PROGRESS_EVERY;
        }
        /* and a few ulps of now, which rounding at a large clock value
         * puts between completions of identical flows */
        double horizon =
            now + BATCH_ABS + BATCH_REL * fabs(now - t0) + 8 * (nextafter(now, INFINITY) - now);
        while (s->heap.n > 0 && s->heap.e[0].key <= horizon) {
            cr_heap_ent e = cr_heap_pop(&s->heap);
            if (e.tag == EV_ACT) {
                if (activate(s, &L, e.id, now))
                    goto out;
            } else if (e.tag == EV_ACTG) {
                batch_t *g = &s->groups[e.id];
                for (int i = 0; i < g->n; i++)
                    if (activate(s, &L, g->f[i], now))
                        goto out;
                free(g->f);
                g->f = NULL;
                g->n = 0;
            } else if (batch_event(s, &L, e.id, now, horizon)) {
                goto out;
            }
        }
        if (s->n_pend > 0 && merge_pending(s))
            goto out;
        if (flowsim_solve(s, now))
            goto out;
    }
    if (L.finished < n) {
        long stuck = -1;
        for (long f = 0; f < n && stuck < 0; f++)
            if (!s->tasks[f].done)
                stuck = f;
        st = cr_diag_set(d, CR_EINVAL,
                         "simulator: %ld of %ld tasks never became ready (a dependency cycle "
                         "through task %ld of \"%s\"); dependencies must form a DAG",
                         n - L.finished, n, stuck, s->ops[s->tasks[stuck].op].name);
        goto out;
    }
    /* An op starts when its start marker becomes ready (its launch counts),
     * or else with its first task. */
    for (long f = 0; f < n; f++) {
        op_t *o = &s->ops[s->tasks[f].op];
        if (o->first_task < 0 && s->tasks[f].ready_s < o->start_s)
            o->start_s = s->tasks[f].ready_s;
    }
    for (int i = 0; i < s->n_ops; i++) {
        op_t *o = &s->ops[i];
        if (o->first_task >= 0)
            o->start_s = s->tasks[o->first_task].ready_s;
        if (!isfinite(o->start_s))
            o->start_s = 0;
    }
    /* Every rank of an op ended no earlier than its tasks for all ranks. */
    for (int i = 0; i < s->n_ops; i++) {
        op_t *o = &s->ops[i];
        for (int j = 0; j < o->n && o->all_end_s >= 0; j++)
            if (o->rank_end[j] < o->all_end_s)
                o->rank_end[j] = o->all_end_s;
    }
    /* Close the resource counters at the end. */
    for (int q = 0; q < s->n_cls; q++)
        if (s->makespan > s->cls[q].t_last)
            flowsim_cls_settle(&s->cls[q], s->makespan);
    flowsim_sym_finish(s);
    st = CR_OK;
out:
    free(succ_off);
    free(succ);
    free(L.fin);
    if (st == CR_ENOMEM)
        cr_diag_set(d, st, "simulator: out of memory");
    return st;
}

/* ---------- results ---------- */

double cr_sim_makespan_s(const cr_sim *s)
{
    return s->makespan;
}

int cr_sim_n_ops(const cr_sim *s)
{
    return s->n_ops;
}

cr_sim_op_result cr_sim_op_get(const cr_sim *s, int op)
{
    cr_sim_op_result r;
    memset(&r, 0, sizeof r);
    if (op < 0 || op >= s->n_ops)
        return r;
    const op_t *o = &s->ops[op];
    r.name = o->name;
    r.kind = (cr_sim_op_kind)o->kind;
    r.n_ranks = o->n;
    r.ranks = o->ranks;
    r.stream = o->stream;
    r.start_s = o->start_s;
    r.end_s = o->end_s;
    r.rank_end_s = o->rank_end;
    r.n_tasks = o->n_tasks;
    r.first_task = o->first_task;
    r.last_task = o->last_task;
    return r;
}

long cr_sim_n_tasks(const cr_sim *s)
{
    return s->n_tasks;
}

cr_sim_task_info cr_sim_task_get(const cr_sim *s, long task)
{
    cr_sim_task_info ti;
    memset(&ti, 0, sizeof ti);
    if (task < 0 || task >= s->n_tasks)
        return ti;
    const task_t *k = &s->tasks[task];
    const op_t *o = &s->ops[k->op];
    ti.op = k->op;
    ti.rank = o->ranks[k->src];
    ti.peer = k->dst >= 0 ? o->ranks[k->dst] : -1;
    ti.is_flow = k->type == T_FLOW;
    ti.bytes = k->bytes;
    ti.ready_s = k->ready_s;
    ti.start_s = k->start_s;
    ti.end_s = k->end_s;
    ti.label = k->label;
    ti.marker = k->quiet != 0;
    return ti;
}

static cr_sim_res_stat res_get(const cr_sim *s, int res)
{
    cr_sim_res_stat r;
    memset(&r, 0, sizeof r);
    const res_t *q = &s->res[res];
    r.kind = (cr_sim_res_kind)q->kind;
    r.index = q->index;
    r.dir = q->dir;
    r.cap_Bps = q->cap_Bps;
    if (q->dropped) {
        r.bytes = q->dropped_bytes;
    } else if (q->cls >= 0 && s->cls) {
        /* A member carries alpha x its class's load; it is saturated when
         * it is the class's binding member. */
        const cls_t *c = &s->cls[q->cls];
        r.bytes = q->alpha * c->bytes;
        r.peak_load_Bps = q->alpha * c->peak_Bps;
        r.busy_s = q->tight ? c->busy_s : 0;
    }
    return r;
}

cr_sim_res_stat cr_sim_res_get(const cr_sim *s, int res)
{
    cr_sim_res_stat r;
    memset(&r, 0, sizeof r);
    if (res < 0 || res >= s->n_res)
        return r;
    if (!s->sym || s->sym->res_rep[res] == res)
        return res_get(s, res);
    /* run by symmetry: every member of an orbit carries its representative's load */
    r = res_get(s, s->sym->res_rep[res]);
    const res_t *q = &s->res[res];
    r.kind = (cr_sim_res_kind)q->kind;
    r.index = q->index;
    r.dir = q->dir;
    r.cap_Bps = q->cap_Bps;
    return r;
}

void cr_sim_set_symmetry(cr_sim *s, cr_sim_sym_mode m)
{
    s->sym_mode = (int)m;
}

long cr_sim_sym_task(const cr_sim *s, int op, int src, int dst)
{
    if (!s->sym || op != s->sym->op || src < 0 || dst < 0 || src >= s->ops[op].n ||
        dst >= s->ops[op].n || src == dst)
        return -1;
    int c = flowsim_sym_cell(s->sym, s, s->ops[op].ranks[src], s->ops[op].ranks[dst]);
    return s->sym->cell_task[c];
}

cr_sim_stats cr_sim_stats_get(const cr_sim *s)
{
    cr_sim_stats st = s->st;
    st.n_tasks = s->n_tasks;
    st.n_sym = s->sym ? s->sym->n_flows : 0;
    return st;
}

char *cr_sim_res_name(const cr_sim *s, int res, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    buf[0] = 0;
    if (res < 0 || res >= s->n_res)
        return buf;
    const res_t *q = &s->res[res];
    const cr_topo *t = s->t;
    if (q->kind == CR_SIM_RES_LINK) {
        const cr_link *l = &t->links[q->index];
        int a = q->dir == 0 ? l->a : l->b, b = q->dir == 0 ? l->b : l->a;
        snprintf(buf, size, "%s->%s", t->devs[a].id, t->devs[b].id);
    } else if (q->kind == CR_SIM_RES_HBM) {
        snprintf(buf, size, "hbm %s", t->devs[t->gpus[q->index]].id);
    } else {
        snprintf(buf, size, "reduce %s", t->devs[q->index].id);
    }
    return buf;
}

size_t cr_sim_mem_bytes(const cr_sim *s)
{
    size_t m = sizeof *s;
    m += s->cap_tasks * sizeof *s->tasks + s->cap_uses * sizeof *s->uses;
    m += s->cap_deps * sizeof *s->deps + s->heap.cap * sizeof *s->heap.e;
    m += s->rc.cap_rpool * sizeof *s->rc.rpool + s->rc.cap_routes * sizeof *s->rc.routes;
    m += (size_t)(s->rc.rhash.cap + s->rc.via_hash.cap) * (sizeof(uint64_t) + sizeof(long));
    m += (size_t)s->n_res * sizeof *s->res;
    m += (size_t)s->n_cls * (sizeof *s->cls + 3 * sizeof(double) + 4 * sizeof(int));
    for (int c = 0; c < s->n_cls; c++)
        m += s->cls[c].cap_act * sizeof(ref_t);
    for (int b = 0; b < s->n_batches; b++)
        m += sizeof(batch_t) + (s->batches[b].f ? (size_t)s->batches[b].n * sizeof(int) : 0);
    m += s->cap_comp_flows * sizeof(long) +
         (size_t)s->n_tasks * (sizeof(double) + sizeof(fdyn_t) + 2 * sizeof(int));
    if (s->vr)
        m += (size_t)s->n_tasks * sizeof *s->vr;
    if (s->mult)
        m += (size_t)s->n_tasks * (sizeof *s->mult + sizeof *s->fnext);
    m += s->cap_pend * sizeof *s->pend + s->cap_mslot * sizeof *s->mslot;
    if (s->rr_off)
        m += (size_t)s->rr_off[s->rc.n_routes] * sizeof *s->rr +
             (size_t)s->rc.n_routes * sizeof(long);
    if (s->rc.dense)
        m += (size_t)s->t->n_gpus * (size_t)s->t->n_gpus * sizeof *s->rc.dense;
    size_t ng = (size_t)s->t->n_gpus + 1;
    m += ng * (sizeof *s->nics->off + 1) + (size_t)s->nics->off[ng - 1] * sizeof *s->nics->nic;
    m += 2 * ((size_t)s->t->n_devs + 1) * sizeof(int); /* nic_ok, grp_cnt */
    for (int i = 0; i < s->n_ops; i++)
        m += s->ops[i].share ? ng : 0;
    return m;
}

int cr_sim_gpu_domain(const cr_sim *s, int rank)
{
    return rank >= 0 && rank < s->t->n_gpus ? s->domain[rank] : -1;
}

void cr_sim_set_merge(cr_sim *s, bool on)
{
    if (!s->ran)
        s->merge = on;
}

bool cr_sim_merge(const cr_sim *s)
{
    return s->merge;
}

void cr_sim_set_progress(cr_sim *s, cr_sim_progress_fn fn, void *ctx)
{
    s->progress = fn;
    s->progress_ctx = ctx;
}
