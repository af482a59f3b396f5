/* SPDX-License-Identifier: MIT */
/*
 * A uniform all-to-all by symmetry (issue 17; doc/simulator.md, "All-to-all
 * by symmetry").
 *
 * Every message of a uniform all-to-all over all GPUs has the same payload
 * and start, and its wire bytes are that over its NCCL transport's figure
 * (node-mates directly or through host memory, another node), which the
 * automorphisms keep, so any automorphism of the fabric that maps nodes to
 * nodes (each node's devices in order, so that a GPU keeps its index in
 * its node, its NICs, its PXN relay and its way to a node-mate) maps the
 * simulation onto itself: max-min rates
 * are unique, so flows of one orbit always have one rate, start and end
 * together, and resources of one orbit carry one load. The simulation of
 * the quotient, one flow per flow orbit (cell) over one representative
 * resource per resource orbit J with weight n_i w_i(J) / |J| (n_i flows in
 * the cell, w_i(J) the weight one of them puts on J's members in all), has
 * the same rates: progressive filling saturates a resource orbit at once
 * and freezes whole cells.
 *
 * The group is found, not assumed: node transpositions (two nodes with the
 * same attachment swapped, every other device fixed) and swaps of such
 * groups of nodes with the fabric devices they attach to (a leaf for a
 * leaf), each verified as an automorphism of the topology (kinds, models,
 * GPU indices in the node, every moved link's kind, count, latency and
 * bandwidth each way). Orbits are then unions along the verified
 * generators: resources by union-find, flows by their node pair's type
 * (same node, same group, different groups) with the classes of groups
 * the swaps join and the two GPUs' indices in their nodes. A generator that
 * fails its check only leaves orbits finer (more cells), never wrong; a
 * topology without node structure, a rank set that is not every GPU, or
 * more cells than the table takes, is not run this way (the caller falls
 * back to one flow per pair, or to its refusal).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flowsim_priv.h"

#define SYM_MAX_CELLS (1L << 22) /* the dense cell table's entries */

typedef struct {
    const cr_topo *t;
    int *nd_off, *nd_dev; /* per node: its devices in index order */
    int *pos;             /* per device: its position in its node, -1 fabric */
    uint64_t *hk;         /* link lookup by (min, max) device: keys */
    int *hv;              /* link index + 1, 0 empty */
    size_t hcap;
    int *map; /* the permutation being checked, identity where map[v] < 0 */
    int *moved;
    int n_moved;
    int *ufd, *ufr; /* union-find over devices and resources */
} symx;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static int uf_find(int *p, int x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

static void uf_join(int *p, int a, int b)
{
    a = uf_find(p, a);
    b = uf_find(p, b);
    if (a != b) {
        if (a < b)
            p[b] = a; /* the lowest index represents: deterministic */
        else
            p[a] = b;
    }
}

static uint64_t pair_key(int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return ((uint64_t)(uint32_t)lo << 32 | (uint32_t)hi) + 1;
}

/* The link between devices a and b, -1 none. */
static int link_find(const symx *X, int a, int b)
{
    uint64_t k = pair_key(a, b);
    for (size_t i = mix(k) & (X->hcap - 1);; i = (i + 1) & (X->hcap - 1)) {
        if (X->hk[i] == 0)
            return -1;
        if (X->hk[i] == k)
            return X->hv[i] - 1;
    }
}

/* Builds the link table; false when two links join the same pair (the
 * image of a link would be ambiguous) or out of memory. */
static bool link_table(symx *X)
{
    const cr_topo *t = X->t;
    X->hcap = 16;
    while (X->hcap < 2 * (size_t)t->n_links + 16)
        X->hcap <<= 1;
    X->hk = calloc(X->hcap, sizeof *X->hk);
    X->hv = calloc(X->hcap, sizeof *X->hv);
    if (!X->hk || !X->hv)
        return false;
    for (int l = 0; l < t->n_links; l++) {
        uint64_t k = pair_key(t->links[l].a, t->links[l].b);
        size_t i = mix(k) & (X->hcap - 1);
        while (X->hk[i] != 0) {
            if (X->hk[i] == k)
                return false;
            i = (i + 1) & (X->hcap - 1);
        }
        X->hk[i] = k;
        X->hv[i] = l + 1;
    }
    return true;
}

static int img(const symx *X, int v)
{
    return X->map[v] >= 0 ? X->map[v] : v;
}

static void map_reset(symx *X)
{
    for (int i = 0; i < X->n_moved; i++)
        X->map[X->moved[i]] = -1;
    X->n_moved = 0;
}

/* Sets map[v] = w and map[w] = v (an involution); false on a conflict. */
static bool map_swap(symx *X, int v, int w)
{
    if (v == w)
        return img(X, v) == v;
    if ((X->map[v] >= 0 && X->map[v] != w) || (X->map[w] >= 0 && X->map[w] != v))
        return false;
    if (X->map[v] < 0) {
        X->map[v] = w;
        X->map[w] = v;
        X->moved[X->n_moved++] = v;
        X->moved[X->n_moved++] = w;
    }
    return true;
}

/* Whether the involution in map is an automorphism of the topology that
 * keeps every GPU's index in its node; on success joins the orbits of the
 * moved devices and of the resources of their links. */
static bool auto_check(symx *X, const cr_sim *s, bool join)
{
    const cr_topo *t = X->t;
    for (int i = 0; i < X->n_moved; i++) {
        int v = X->moved[i], w = img(X, v);
        const cr_dev *dv = &t->devs[v], *dw = &t->devs[w];
        if (dv->kind != dw->kind || dv->spec != dw->spec || X->pos[v] != X->pos[w] ||
            (dv->node < 0) != (dw->node < 0) ||
            t->adj_off[v + 1] - t->adj_off[v] != t->adj_off[w + 1] - t->adj_off[w])
            return false;
        if (dv->gpu_rank >= 0 &&
            (dw->gpu_rank < 0 || s->local[dv->gpu_rank] != s->local[dw->gpu_rank]))
            return false;
        for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int ia = img(X, l->a), ib = img(X, l->b);
            int m = link_find(X, ia, ib);
            if (m < 0)
                return false;
            const cr_link *q = &t->links[m];
            bool same = q->a == ia;
            if (q->kind != l->kind || q->count != l->count || q->lat_s != l->lat_s ||
                (same ? q->bw_ab_Bps : q->bw_ba_Bps) != l->bw_ab_Bps ||
                (same ? q->bw_ba_Bps : q->bw_ab_Bps) != l->bw_ba_Bps)
                return false;
        }
    }
    if (!join)
        return true;
    for (int i = 0; i < X->n_moved; i++) {
        int v = X->moved[i];
        uf_join(X->ufd, v, img(X, v));
        if (t->devs[v].gpu_rank >= 0)
            uf_join(X->ufr, s->hbm_res0 + t->devs[v].gpu_rank,
                    s->hbm_res0 + t->devs[img(X, v)].gpu_rank);
        for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            int li = t->adj[k];
            const cr_link *l = &t->links[li];
            int ia = img(X, l->a), ib = img(X, l->b);
            int m = link_find(X, ia, ib);
            bool same = t->links[m].a == ia;
            uf_join(X->ufr, 2 * li, 2 * m + (same ? 0 : 1));
            uf_join(X->ufr, 2 * li + 1, 2 * m + (same ? 1 : 0));
        }
    }
    return true;
}

/* Maps node m's devices onto node k's, position by position. */
static bool map_nodes(symx *X, int m, int k)
{
    int n = X->nd_off[m + 1] - X->nd_off[m];
    if (n != X->nd_off[k + 1] - X->nd_off[k])
        return false;
    for (int i = 0; i < n; i++)
        if (!map_swap(X, X->nd_dev[X->nd_off[m] + i], X->nd_dev[X->nd_off[k] + i]))
            return false;
    return true;
}

/* A node's attachment: its devices' links leaving the node (position,
 * other end, attributes), combined without regard to order. */
static uint64_t node_sig(const symx *X, int m)
{
    const cr_topo *t = X->t;
    uint64_t h = mix((uint64_t)(X->nd_off[m + 1] - X->nd_off[m]) + 7);
    for (int i = X->nd_off[m]; i < X->nd_off[m + 1]; i++) {
        int v = X->nd_dev[i];
        for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int w = cr_link_other(l, v);
            if (t->devs[w].node == m)
                continue;
            uint64_t e = mix(((uint64_t)(uint32_t)X->pos[v] << 32) ^ (uint64_t)(uint32_t)w);
            e = mix(e ^ (uint64_t)l->kind ^ ((uint64_t)l->count << 8));
            h += e;
        }
    }
    return h;
}

/* The one device outside node m that device v links to; -1 none, -2 more
 * than one or another node's. */
static int ext_of(const symx *X, int v, int m)
{
    const cr_topo *t = X->t;
    int e = -1;
    for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
        int w = cr_link_other(&t->links[t->adj[k]], v);
        if (t->devs[w].node == m)
            continue;
        if (e >= 0 || t->devs[w].node >= 0)
            return -2;
        e = w;
    }
    return e;
}

/* Group swap: X's nodes onto Y's, position by position, and the fabric
 * devices X's nodes attach to onto those Y's attach to. */
static bool map_groups(symx *X, const int *gm, int gx, int gy, int gsize)
{
    for (int i = 0; i < gsize; i++) {
        int m = gm[gx + i], k = gm[gy + i];
        if (!map_nodes(X, m, k))
            return false;
    }
    int m = gm[gx], k = gm[gy];
    for (int i = 0; i < X->nd_off[m + 1] - X->nd_off[m]; i++) {
        int a = ext_of(X, X->nd_dev[X->nd_off[m] + i], m);
        int b = ext_of(X, X->nd_dev[X->nd_off[k] + i], k);
        if (a == -2 || b == -2 || (a < 0) != (b < 0))
            return false;
        if (a >= 0 && !map_swap(X, a, b))
            return false;
    }
    return true;
}

static void symx_free(symx *X)
{
    free(X->nd_off);
    free(X->nd_dev);
    free(X->pos);
    free(X->hk);
    free(X->hv);
    free(X->map);
    free(X->moved);
    free(X->ufd);
    free(X->ufr);
}

void flowsim_sym_free(flowsim_sym *y)
{
    if (!y)
        return;
    free(y->cell_task);
    free(y->cell_scls);
    free(y->cell_dcls);
    free(y->node_grp);
    free(y->grp_cls);
    free(y->res_rep);
    free(y->cell_hbm);
    free(y->cell_hw);
    free(y);
}

typedef struct {
    uint64_t sig;
    int node;
} nsig;

static int by_sig(const void *a, const void *b)
{
    const nsig *x = a, *y = b;
    return x->sig < y->sig ? -1 : x->sig > y->sig ? 1 : (x->node > y->node) - (x->node < y->node);
}

int flowsim_sym_cell(const flowsim_sym *y, const cr_sim *s, int ga, int gb)
{
    const cr_topo *t = s->t;
    int na = t->devs[t->gpus[ga]].node, nb = t->devs[t->gpus[gb]].node;
    int a = s->local[ga], b = s->local[gb];
    int xa = y->node_grp[na], xb = y->node_grp[nb];
    int ca = y->grp_cls[xa], cb = y->grp_cls[xb];
    int type = na == nb ? 0 : xa == xb ? 1 : 2;
    long L = y->max_local;
    return (int)((((long)ca * y->n_cls + cb) * 3 + type) * L * L + (long)a * L + b);
}

/* Node structure: every GPU in a node, each node's GPUs consecutive ranks
 * (local = rank - the node's first), every node's devices listed. */
static int node_lists(symx *X, const cr_sim *s)
{
    const cr_topo *t = X->t;
    int nn = t->n_nodes;
    int *gcnt = calloc((size_t)nn + 1, sizeof *gcnt);
    X->nd_off = calloc((size_t)nn + 2, sizeof *X->nd_off);
    X->pos = malloc(((size_t)t->n_devs + 1) * sizeof *X->pos);
    if (!gcnt || !X->nd_off || !X->pos) {
        free(gcnt);
        return -1;
    }
    int ok = 1;
    for (int g = 0; g < t->n_gpus && ok; g++) {
        int m = t->devs[t->gpus[g]].node;
        if (m < 0 || m >= nn || s->local[g] != gcnt[m])
            ok = 0;
        else
            gcnt[m]++;
    }
    free(gcnt);
    if (!ok)
        return 0;
    for (int v = 0; v < t->n_devs; v++) {
        int m = t->devs[v].node;
        X->pos[v] = -1;
        if (m >= nn)
            return 0;
        if (m >= 0)
            X->pos[v] = X->nd_off[m + 1]++;
    }
    for (int m = 0; m < nn; m++)
        X->nd_off[m + 1] += X->nd_off[m];
    X->nd_dev = malloc(((size_t)X->nd_off[nn] + 1) * sizeof *X->nd_dev);
    if (!X->nd_dev)
        return -1;
    for (int v = 0; v < t->n_devs; v++)
        if (t->devs[v].node >= 0)
            X->nd_dev[X->nd_off[t->devs[v].node] + X->pos[v]] = v;
    return 1;
}

/* Groups of nodes with one attachment (joined by verified transpositions),
 * then classes of groups (joined by verified group swaps). Fills
 * y->node_grp, y->grp_cls, y->n_cls; *gm_out lists the nodes group by
 * group from (*goff_out)[g]. Returns 1, or -1 when out of memory. */
static int find_groups(symx *X, const cr_sim *s, flowsim_sym *y, int **gm_out, int **goff_out,
                       int *ng_out)
{
    int nn = X->t->n_nodes, ng = 0;
    nsig *ns = malloc((size_t)nn * sizeof *ns);
    int *grep = malloc((size_t)nn * sizeof *grep);
    int *gcnt = calloc((size_t)nn + 1, sizeof *gcnt);
    int *goff = calloc((size_t)nn + 2, sizeof *goff);
    int *gm = malloc((size_t)nn * sizeof *gm);
    int *crep = malloc((size_t)nn * sizeof *crep);
    y->node_grp = malloc((size_t)nn * sizeof *y->node_grp);
    y->grp_cls = malloc((size_t)nn * sizeof *y->grp_cls);
    if (!ns || !grep || !gcnt || !goff || !gm || !crep || !y->node_grp || !y->grp_cls) {
        free(ns);
        free(grep);
        free(gcnt);
        free(goff);
        free(gm);
        free(crep);
        return -1;
    }
    for (int m = 0; m < nn; m++) {
        ns[m].sig = node_sig(X, m);
        ns[m].node = m;
    }
    qsort(ns, (size_t)nn, sizeof *ns, by_sig);
    for (int i = 0, run = 0; i < nn; i++) {
        if (i > 0 && ns[i].sig != ns[i - 1].sig)
            run = ng;
        int m = ns[i].node, g = -1;
        for (int c = run; c < ng && g < 0; c++) {
            map_reset(X);
            if (map_nodes(X, grep[c], m) && auto_check(X, s, true))
                g = c;
        }
        map_reset(X);
        if (g < 0) {
            g = ng++;
            grep[g] = m;
        }
        y->node_grp[m] = g;
        gcnt[g]++;
    }
    for (int g = 0; g < ng; g++)
        goff[g + 1] = goff[g] + gcnt[g];
    memset(gcnt, 0, (size_t)ng * sizeof *gcnt);
    for (int m = 0; m < nn; m++) {
        int g = y->node_grp[m];
        gm[goff[g] + gcnt[g]++] = m;
    }
    int nc = 0;
    for (int g = 0; g < ng; g++) {
        int c = -1;
        for (int k = 0; k < nc && c < 0; k++) {
            int r = crep[k];
            if (gcnt[r] != gcnt[g])
                continue;
            map_reset(X);
            if (map_groups(X, gm, goff[r], goff[g], gcnt[g]) && auto_check(X, s, true))
                c = k;
        }
        map_reset(X);
        if (c < 0) {
            c = nc++;
            crep[c] = g;
        }
        y->grp_cls[g] = c;
    }
    y->n_cls = nc;
    free(ns);
    free(grep);
    free(gcnt);
    free(crep);
    *gm_out = gm;
    *goff_out = goff;
    *ng_out = ng;
    return 1;
}

int flowsim_sym_alltoall(cr_sim *s, int op, double payload, flowsim_pair_eff eff, void *ctx,
                         double step_lat_s, double max_rate, int first, int last)
{
    const cr_topo *t = s->t;
    if (s->sym || s->n_ops != 1 || t->n_nodes < 1 || op != 0)
        return 0;
    const op_t *o = &s->ops[op];
    if (o->n != t->n_gpus)
        return 0;
    int rc = -1, ng = 0;
    symx X;
    memset(&X, 0, sizeof X);
    X.t = t;
    flowsim_sym *y = calloc(1, sizeof *y);
    int *inv = malloc(((size_t)t->n_gpus + 1) * sizeof *inv);
    int *gm = NULL, *goff = NULL, *osz = NULL, *touched = NULL;
    double *wacc = NULL;
    cr_sim_use *uses = NULL;
    int *cfirst = NULL;
    if (!y || !inv)
        goto out;
    y->op = op;
    for (int g = 0; g < t->n_gpus; g++)
        inv[g] = -1;
    for (int i = 0; i < o->n; i++) {
        if (inv[o->ranks[i]] >= 0) {
            rc = 0;
            goto out;
        }
        inv[o->ranks[i]] = i;
    }
    int nl = node_lists(&X, s);
    if (nl <= 0) {
        rc = nl;
        goto out;
    }
    if (!link_table(&X)) {
        rc = X.hk && X.hv ? 0 : -1;
        goto out;
    }
    X.map = malloc(((size_t)t->n_devs + 1) * sizeof *X.map);
    X.moved = malloc(((size_t)t->n_devs + 1) * sizeof *X.moved);
    X.ufd = malloc(((size_t)t->n_devs + 1) * sizeof *X.ufd);
    X.ufr = malloc(((size_t)s->n_res + 1) * sizeof *X.ufr);
    if (!X.map || !X.moved || !X.ufd || !X.ufr)
        goto out;
    for (int v = 0; v < t->n_devs; v++) {
        X.map[v] = -1;
        X.ufd[v] = v;
    }
    for (int r = 0; r < s->n_res; r++)
        X.ufr[r] = r;
    if (find_groups(&X, s, y, &gm, &goff, &ng) < 0)
        goto out;
    int L = 0;
    for (int g = 0; g < t->n_gpus; g++)
        if (s->local[g] + 1 > L)
            L = s->local[g] + 1;
    y->max_local = L;
    int nc = y->n_cls;
    y->n_cells = (long)nc * nc * 3 * L * L;
    if (y->n_cells > SYM_MAX_CELLS) {
        rc = 0;
        goto out;
    }
    y->cell_task = malloc((size_t)y->n_cells * sizeof *y->cell_task);
    y->cell_scls = malloc((size_t)y->n_cells * sizeof *y->cell_scls);
    y->cell_dcls = malloc((size_t)y->n_cells * sizeof *y->cell_dcls);
    y->res_rep = malloc(((size_t)s->n_res + 1) * sizeof *y->res_rep);
    y->cell_hbm = malloc((size_t)y->n_cells * sizeof *y->cell_hbm);
    y->cell_hw = calloc((size_t)y->n_cells, sizeof *y->cell_hw);
    osz = calloc((size_t)s->n_res + 1, sizeof *osz);
    wacc = calloc((size_t)s->n_res + 1, sizeof *wacc);
    touched = malloc(((size_t)s->n_res + 1) * sizeof *touched);
    uses = malloc(((size_t)s->n_res + 1) * sizeof *uses);
    /* per class: its first group, a second one, groups and nodes */
    cfirst = malloc(4 * ((size_t)nc + 1) * sizeof *cfirst);
    if (!y->cell_task || !y->cell_scls || !y->cell_dcls || !y->res_rep || !y->cell_hbm ||
        !y->cell_hw || !osz || !wacc || !touched || !uses || !cfirst)
        goto out;
    for (long c = 0; c < y->n_cells; c++)
        y->cell_task[c] = y->cell_scls[c] = y->cell_dcls[c] = -1;
    for (int r = 0; r < s->n_res; r++) {
        y->res_rep[r] = uf_find(X.ufr, r);
        osz[y->res_rep[r]]++;
    }
    int *c1 = cfirst, *c2 = cfirst + nc, *cg = cfirst + 2 * nc, *cn = cfirst + 3 * nc;
    for (int c = 0; c < nc; c++)
        c1[c] = c2[c] = -1, cg[c] = cn[c] = 0;
    for (int g = 0; g < ng; g++) {
        int c = y->grp_cls[g];
        if (c1[c] < 0)
            c1[c] = g;
        else if (c2[c] < 0)
            c2[c] = g;
        cg[c]++;
        cn[c] += goff[g + 1] - goff[g];
    }
    for (int cs = 0; cs < nc; cs++)
        for (int cd = 0; cd < nc; cd++)
            for (int type = 0; type < 3; type++) {
                int k = goff[c1[cs] + 1] - goff[c1[cs]];
                int ns = gm[goff[c1[cs]]], nd;
                double cnt;
                if (type < 2 && cs != cd)
                    continue;
                if (type == 0) {
                    nd = ns;
                    cnt = cn[cs];
                } else if (type == 1) {
                    if (k < 2)
                        continue;
                    nd = gm[goff[c1[cs]] + 1];
                    cnt = (double)cg[cs] * k * (k - 1);
                } else if (cs == cd) {
                    if (c2[cs] < 0)
                        continue;
                    nd = gm[goff[c2[cs]]];
                    cnt = (double)cn[cs] * cn[cs] - (double)cg[cs] * k * k;
                } else {
                    nd = gm[goff[c1[cd]]];
                    cnt = (double)cn[cs] * cn[cd];
                }
                int gs = s->node_first[ns], gd = s->node_first[nd];
                for (int a = 0; a < L; a++)
                    for (int b = 0; b < L; b++) {
                        int ga = gs + a, gb = gd + b;
                        if ((type == 0 && a == b) || ga >= t->n_gpus || gb >= t->n_gpus ||
                            t->devs[t->gpus[ga]].node != ns || t->devs[t->gpus[gb]].node != nd)
                            continue;
                        const cr_sim_use *u;
                        int nu, nt = 0;
                        double lat;
                        cr_status ps = cr_sim_path(s, op, ga, gb, &u, &nu, &lat);
                        if (ps != CR_OK) {
                            /* tasks may have been added: no fallback */
                            rc = ps == CR_ENOTFOUND ? -2 : -1;
                            goto out;
                        }
                        for (int i = 0; i <= nu + 1; i++) {
                            int r = i < nu ? u[i].res : s->hbm_res0 + (i == nu ? ga : gb);
                            double w = i < nu ? u[i].w : 1.0;
                            r = y->res_rep[r];
                            if (wacc[r] == 0)
                                touched[nt++] = r;
                            wacc[r] += w;
                        }
                        long cell = flowsim_sym_cell(y, s, ga, gb);
                        int hb[2] = {y->res_rep[s->hbm_res0 + ga], y->res_rep[s->hbm_res0 + gb]};
                        y->cell_hbm[cell][0] = hb[0];
                        y->cell_hbm[cell][1] = hb[1];
                        for (int i = 0; i < nt; i++) {
                            int r = touched[i];
                            uses[i].res = r;
                            uses[i].w = cnt * wacc[r] / osz[r];
                            wacc[r] = 0;
                            for (int h = 0; h < 2; h++)
                                if (r == hb[h] && (h == 0 || hb[1] != hb[0])) {
                                    y->cell_hbm[cell][h] = r;
                                    y->cell_hw[cell][h] = uses[i].w;
                                }
                        }
                        /* the cell's transport: its representative's */
                        double e = eff(ctx, inv[ga], inv[gb]);
                        if (!(e > 0))
                            goto out;
                        int f = cr_sim_flow_add_uses(s, op, inv[ga], inv[gb], uses, nt, payload / e,
                                                     fmax(lat, step_lat_s));
                        if (f < 0 || cr_sim_dep_add(s, first, f) || cr_sim_dep_add(s, f, last))
                            goto out;
                        /* a member's cap: the cell's flow moves at a member's rate */
                        if (max_rate > 0 && cr_sim_flow_cap(s, f, max_rate) != CR_OK)
                            goto out;
                        y->cell_task[cell] = f;
                        y->cell_scls[cell] = cs * L + a;
                        y->cell_dcls[cell] = cd * L + b;
                        y->n_flows += (long)cnt;
                    }
            }
    /* As the only op, nothing else pins an HBM: those that cannot bind
     * are left out of the run as for routed flows (flowsim_classes), their
     * bytes counted at the end (flowsim_sym_finish). */
    for (int g = 0; g < t->n_gpus; g++)
        s->res[s->hbm_res0 + g].pinned = 0;
    s->sym = y;
    y = NULL;
    rc = 1;
out:
    if (y) {
        /* the node tables are freed with it; keep nothing half made */
        flowsim_sym_free(y);
    }
    symx_free(&X);
    free(inv);
    free(gm);
    free(goff);
    free(osz);
    free(wacc);
    free(touched);
    free(uses);
    free(cfirst);
    return rc;
}

void flowsim_sym_finish(cr_sim *s)
{
    flowsim_sym *y = s->sym;
    if (!y)
        return;
    op_t *o = &s->ops[y->op];
    int nk = y->n_cls * y->max_local;
    double *ke = malloc(((size_t)nk + 1) * sizeof *ke);
    if (!ke)
        return;
    for (int k = 0; k < nk; k++)
        ke[k] = -1;
    for (long c = 0; c < y->n_cells; c++) {
        int f = y->cell_task[c];
        if (f < 0)
            continue;
        double e = s->tasks[f].end_s;
        for (int h = 0; h < 2; h++) {
            res_t *q = &s->res[y->cell_hbm[c][h]];
            if (y->cell_hw[c][h] > 0 && q->dropped)
                q->dropped_bytes += y->cell_hw[c][h] * s->tasks[f].bytes;
        }
        if (ke[y->cell_scls[c]] < e)
            ke[y->cell_scls[c]] = e;
        if (ke[y->cell_dcls[c]] < e)
            ke[y->cell_dcls[c]] = e;
    }
    for (int i = 0; i < o->n; i++) {
        int g = o->ranks[i];
        int m = s->t->devs[s->t->gpus[g]].node;
        o->rank_end[i] = ke[y->grp_cls[y->node_grp[m]] * y->max_local + s->local[g]];
    }
    free(ke);
}
