/* SPDX-License-Identifier: MIT */
/*
 * The simulator's ring orders (flowsim_coll.c expands each channel's ring
 * over them): rank order grouped by node and rail-aligned as NCCL's rings
 * are, or, for ranks joined by direct links (an XGMI mesh, a TPU torus),
 * arc-disjoint rings through neighbours found by cycle decomposition.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flowsim_xp_priv.h"
#include "nic.h"
#include "route.h"

/* What NCCL takes for a node, as coll.c does: the topology's nodes; or,
 * where the op's ranks share one scale-up domain although they span several
 * nodes (GB200 NVL72: 18 trays, one NVLink domain), that domain, one node
 * (MNNVL); or, where they span several such domains, fewer than their
 * nodes (two NVL72 racks), each domain (coll.c mnnvl). */
enum { NODES_TOPO, NODES_ONE_DOMAIN, NODES_DOMAINS };

static int nccl_nodes(xp *x)
{
    if (x->nccl_nodes >= 0)
        return x->nccl_nodes;
    const cr_topo *t = cr_sim_topo(x->s);
    char *dom_seen = calloc((size_t)t->n_gpus + 1, 1);
    char *node_seen = calloc((size_t)t->n_nodes + 1, 1);
    if (!dom_seen || !node_seen) {
        free(dom_seen);
        free(node_seen);
        flowsim_xp_oom(x);
        return -1;
    }
    int n_dom = 0, n_node = 0;
    bool all_in_domains = true;
    for (int i = 0; i < x->n; i++) {
        int d = cr_sim_gpu_domain(x->s, x->ranks[i]);
        int v = t->devs[t->gpus[x->ranks[i]]].node;
        all_in_domains = all_in_domains && d >= 0;
        if (d >= 0 && !dom_seen[d]++)
            n_dom++;
        if (v >= 0 && v < t->n_nodes && !node_seen[v]++)
            n_node++;
    }
    free(dom_seen);
    free(node_seen);
    x->nccl_nodes = !all_in_domains  ? NODES_TOPO
                    : n_dom == 1     ? NODES_ONE_DOMAIN
                    : n_dom < n_node ? NODES_DOMAINS
                                     : NODES_TOPO;
    return x->nccl_nodes;
}

/* Rank i's NCCL node (nccl_nodes): its topology node; 0 for all in one
 * domain; its domain's, named by the topology node of the domain's first
 * GPU, across domains. -1 when out of memory (x->err set). */
int flowsim_node_of(xp *x, int i)
{
    const cr_topo *t = cr_sim_topo(x->s);
    int g = x->ranks[i];
    switch (nccl_nodes(x)) {
    case NODES_ONE_DOMAIN:
        return 0;
    case NODES_DOMAINS:
        return t->devs[t->gpus[cr_sim_gpu_domain(x->s, g)]].node;
    case NODES_TOPO:
        return t->devs[t->gpus[g]].node;
    default:
        return -1;
    }
}

/* Greatest common divisor (a channel's ring stride must be coprime to the
 * ranks). */
static int gcd(int a, int b)
{
    while (b) {
        int r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Whether GPUs ga and gb share a link. */
static bool linked(const cr_topo *t, int ga, int gb)
{
    int va = t->gpus[ga], vb = t->gpus[gb];
    for (int k = t->adj_off[va]; k < t->adj_off[va + 1]; k++)
        if (cr_link_other(&t->links[t->adj[k]], va) == vb)
            return true;
    return false;
}

/* The ring stride of channel c (see flowsim_ring_order): 1 unless the op's ranks
 * are directly linked for at least two strides coprime with n. On 8 fully
 * meshed MI300X that is strides 1, 3, 5, 7: four of each GPU's seven links,
 * where RCCL's rings reach all seven (doc/simulator.md). */
static int mesh_stride(const xp *x, int c)
{
    const cr_topo *t = cr_sim_topo(x->s);
    int n = x->n, cand[64], nc = 0;
    if (n > 512)
        return 1; /* direct meshes are small; do not scan n^2 pairs */
    for (int st = 1; st < n && nc < 64; st++) {
        if (gcd(st, n) != 1)
            continue;
        bool all = true;
        for (int i = 0; i < n && all; i++)
            all = linked(t, x->ranks[i], x->ranks[(i + st) % n]);
        if (all)
            cand[nc++] = st;
    }
    return nc >= 2 ? cand[c % nc] : 1;
}

/* Direct links (GPU-to-GPU, no switch) among n op ranks: members[i] is
 * the op index of the i-th (NULL: op index i, n the op's ranks), and the
 * links come as those positions: nb[off[i] .. off[i+1]). Returns false on
 * allocation failure. */
static bool direct_adjacency(xp *x, const int *members, int n, int **off_out, int **nb_out)
{
    const cr_topo *t = cr_sim_topo(x->s);
    int *pos = malloc(((size_t)t->n_devs + 1) * sizeof *pos);
    int *off = calloc((size_t)n + 1, sizeof *off), *nb = NULL;
    if (!pos || !off)
        goto fail;
    for (int v = 0; v < t->n_devs; v++)
        pos[v] = -1;
    for (int i = 0; i < n; i++)
        pos[t->gpus[x->ranks[members ? members[i] : i]]] = i;
    for (int pass = 0; pass < 2; pass++) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            int v = t->gpus[x->ranks[members ? members[i] : i]];
            if (pass == 1)
                off[i] = k;
            for (int e = t->adj_off[v]; e < t->adj_off[v + 1]; e++) {
                int j = pos[cr_link_other(&t->links[t->adj[e]], v)];
                if (j < 0 || j == i)
                    continue;
                if (pass == 1)
                    nb[k] = j;
                k++;
            }
        }
        if (pass == 0 && !(nb = malloc(((size_t)k + 1) * sizeof *nb)))
            goto fail;
        if (pass == 1)
            off[n] = k;
    }
    free(pos);
    *off_out = off;
    *nb_out = nb;
    return true;
fail:
    free(pos);
    free(off);
    free(nb);
    return false;
}

/* The arc u -> w (op ranks) not yet taken by a ring: its index in nb, or -1. */
static int free_arc(const int *off, const int *nb, const char *taken, int u, int w)
{
    for (int e = off[u]; e < off[u + 1]; e++)
        if (nb[e] == w && !taken[e])
            return e;
    return -1;
}

/* One ring through neighbours over arcs no earlier ring took (a directed
 * Hamiltonian cycle of the direct links): depth-first, trying first the
 * unvisited neighbour with the fewest free arcs on to unvisited ranks
 * (Warnsdorff's rule; ties to the lower rank), or with key[] (n x n) the
 * neighbours w of u in the order of key[u n + w] alone, within *budget
 * search steps (counted down). Returns true with path[] the cycle and its
 * arcs marked taken. */
#define NB_RING_BUDGET 200000L
static bool one_neighbour_ring(int n, const int *off, const int *nb, char *taken, int *path,
                               int *next, char *used, const int *key, long *budget)
{
    memset(used, 0, (size_t)n);
    int depth = 1;
    path[0] = 0;
    used[0] = 1;
    next[0] = 0; /* candidates of path[d] already tried: next[d] of them */
    while (depth > 0 && depth < n && (*budget)-- > 0) {
        int u = path[depth - 1], best = -1, best_deg = 1 << 30, best_key = -1;
        int tried = next[depth - 1];
        /* the tried-th best candidate by (free onward arcs, key) */
        for (int round = 0; round <= tried; round++) {
            int pick = -1, pick_deg = 1 << 30, pick_key = 1 << 30;
            for (int e = off[u]; e < off[u + 1]; e++) {
                int w = nb[e];
                if (used[w] || taken[e])
                    continue;
                int deg = 0;
                for (int f = off[w]; f < off[w + 1] && !key; f++)
                    deg += !used[nb[f]] && !taken[f];
                /* strictly after the previous pick in (deg, key) order */
                int kw = key ? key[u * n + w] : w;
                if (round > 0 && (deg < best_deg || (deg == best_deg && kw <= best_key)))
                    continue;
                if (deg < pick_deg || (deg == pick_deg && kw < pick_key)) {
                    pick = w;
                    pick_deg = deg;
                    pick_key = kw;
                }
            }
            best = pick;
            best_deg = pick_deg;
            best_key = pick_key;
            if (best < 0)
                break;
        }
        next[depth - 1] = tried + 1;
        if (best < 0) { /* dead end: step back */
            depth--;
            if (depth > 0)
                used[path[depth]] = 0;
            continue;
        }
        path[depth] = best;
        used[best] = 1;
        next[depth] = 0;
        depth++;
        /* a full path closes only over a free arc back to the first */
        if (depth == n && free_arc(off, nb, taken, best, path[0]) < 0) {
            depth--;
            used[best] = 0;
        }
    }
    if (depth != n)
        return false;
    for (int i = 0; i < n; i++)
        taken[free_arc(off, nb, taken, path[i], path[(i + 1) % n])] = 1;
    return true;
}

/* Cycles of 2-factor f (edges with fac[] == f) on n ranks; ea: per arc its
 * edge id. seen: n bytes of scratch. */
static int factor_cycles(int n, const int *off, const int *nb, const int *ea,
                         const signed char *fac, int f, char *seen)
{
    memset(seen, 0, (size_t)n);
    int cycles = 0;
    for (int v0 = 0; v0 < n; v0++) {
        if (seen[v0])
            continue;
        cycles++;
        int prev_e = -1, v = v0;
        while (!seen[v]) {
            seen[v] = 1;
            int go = -1;
            for (int e = off[v]; e < off[v + 1] && go < 0; e++)
                if (fac[ea[e]] == f && ea[e] != prev_e)
                    go = e;
            if (go < 0)
                break;
            prev_e = ea[go];
            v = nb[go];
        }
    }
    return cycles;
}

/* Splits the edges not in factor 0 of a 4-regular remainder into factors 1
 * and 2: along an Euler circuit of each component, alternately (every
 * pass through a vertex enters by one and leaves by the other, so each
 * vertex keeps two edges of each when the circuit's length is even).
 * Returns false when a circuit is odd. */
static bool euler_split(int n, const int *off, const int *nb, const int *ea, signed char *fac,
                        int m, int *stack_v, int *stack_e, int *ptr)
{
    char *used = calloc((size_t)m + 1, 1);
    if (!used)
        return false;
    for (int v = 0; v < n; v++)
        ptr[v] = off[v];
    bool ok = true;
    for (int s0 = 0; s0 < n && ok; s0++) {
        int sp = 0, len = 0;
        stack_v[sp] = s0;
        stack_e[sp++] = -1;
        while (sp > 0) {
            int v = stack_v[sp - 1];
            while (ptr[v] < off[v + 1] && (fac[ea[ptr[v]]] == 0 || used[ea[ptr[v]]]))
                ptr[v]++;
            if (ptr[v] < off[v + 1]) {
                int e = ptr[v]++;
                used[ea[e]] = 1;
                stack_v[sp] = nb[e];
                stack_e[sp++] = ea[e];
            } else {
                /* Hierholzer: edges leave the stack in circuit order */
                int e = stack_e[--sp];
                if (e >= 0)
                    fac[e] = (signed char)(1 + len++ % 2);
            }
        }
        ok = len % 2 == 0;
    }
    free(used);
    return ok;
}

/* Three (or two) edge-disjoint Hamiltonian cycles of a 6-regular (4-regular)
 * graph of direct links, such as a 3D (2D) torus, every link in one: the
 * greedy search's first ring is factor 0, the other links are split into
 * 2-factors (euler_split), then squares a-b-c-d whose sides alternate
 * between two factors swap them (each factor stays a 2-factor; two cycles
 * of a factor crossing the square merge), a swap kept when the factors'
 * cycles do not grow in number, until every factor is one cycle (the
 * cycle-merging switches constructions of Hamiltonian decompositions of
 * tori use). Writes
 * each cycle and its reverse to rings (2h rings of n) and returns 2h, or 0
 * where the links are not so (odd degree, parallel links) or the search
 * ends first. Deterministic (a fixed xorshift seed). */
#define DECOMP_WORK 50000000L
static int cycle_decomposition(int n, const int *off, const int *nb, const int *h1, int *rings)
{
    int deg = off[1] - off[0], h = deg / 2, m = n * h, got = 0;
    if (deg % 2 || h < 2 || h > 3)
        return 0;
    for (int v = 0; v < n; v++) {
        if (off[v + 1] - off[v] != deg)
            return 0;
        for (int e = off[v]; e < off[v + 1]; e++)
            for (int f = e + 1; f < off[v + 1]; f++)
                if (nb[e] == nb[f])
                    return 0;
    }
    int *ea = malloc((size_t)off[n] * sizeof *ea), *sq = NULL, nsq = 0;
    size_t cap = 0;
    int *sv = malloc(((size_t)m + 2) * sizeof *sv), *se = malloc(((size_t)m + 2) * sizeof *se);
    int *ptr = malloc((size_t)n * sizeof *ptr), *cyc = calloc((size_t)h, sizeof *cyc);
    signed char *fac = malloc((size_t)m + 1);
    char *seen = malloc((size_t)n);
    if (!ea || !sv || !se || !ptr || !cyc || !fac || !seen)
        goto out;
    /* edge ids: u < w numbers the pair, the reverse arc finds it */
    int id = 0;
    for (int u = 0; u < n; u++)
        for (int e = off[u]; e < off[u + 1]; e++) {
            int w = nb[e];
            if (u < w) {
                ea[e] = id++;
                continue;
            }
            for (int f = off[w]; f < off[w + 1]; f++)
                if (nb[f] == u)
                    ea[e] = ea[f];
        }
    for (int k = 0; k < m; k++)
        fac[k] = 1;
    for (int i = 0; i < n; i++)
        for (int e = off[h1[i]]; e < off[h1[i] + 1]; e++)
            if (nb[e] == h1[(i + 1) % n])
                fac[ea[e]] = 0;
    if (h == 3 && !euler_split(n, off, nb, ea, fac, m, sv, se, ptr))
        goto out;
    /* squares a-b-c-d, a the least corner, b < d */
    for (int a = 0; a < n; a++)
        for (int e1 = off[a]; e1 < off[a + 1]; e1++)
            for (int e4 = off[a]; e4 < off[a + 1]; e4++) {
                int b = nb[e1], d = nb[e4];
                if (b <= a || d <= b)
                    continue;
                for (int e2 = off[b]; e2 < off[b + 1]; e2++) {
                    int c = nb[e2];
                    if (c <= a)
                        continue;
                    for (int e3 = off[c]; e3 < off[c + 1]; e3++) {
                        if (nb[e3] != d)
                            continue;
                        if (cr_grow((void **)&sq, &cap, 4 * ((size_t)nsq + 1), sizeof *sq))
                            goto out;
                        sq[4 * nsq] = ea[e1];
                        sq[4 * nsq + 1] = ea[e2];
                        sq[4 * nsq + 2] = ea[e3];
                        sq[4 * nsq + 3] = ea[e4];
                        nsq++;
                    }
                }
            }
    int total = 0;
    for (int f = 0; f < h; f++)
        total += cyc[f] = factor_cycles(n, off, nb, ea, fac, f, seen);
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    for (long work = 0; total > h && nsq > 0 && work < DECOMP_WORK; work += 2L * off[n]) {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        const int *q = sq + 4 * (long)(rng % (uint64_t)nsq);
        int f0 = fac[q[0]], f1 = fac[q[1]];
        if (f0 == f1 || fac[q[2]] != f0 || fac[q[3]] != f1)
            continue;
        fac[q[0]] = fac[q[2]] = (signed char)f1;
        fac[q[1]] = fac[q[3]] = (signed char)f0;
        int c0 = factor_cycles(n, off, nb, ea, fac, f0, seen);
        int c1 = factor_cycles(n, off, nb, ea, fac, f1, seen);
        if (c0 + c1 <= cyc[f0] + cyc[f1]) {
            total += c0 + c1 - cyc[f0] - cyc[f1];
            cyc[f0] = c0;
            cyc[f1] = c1;
        } else {
            fac[q[0]] = fac[q[2]] = (signed char)f0;
            fac[q[1]] = fac[q[3]] = (signed char)f1;
        }
    }
    if (total != h)
        goto out;
    for (int f = 0; f < h; f++) {
        int *r = rings + (size_t)(2 * f) * (size_t)n, *back = r + n;
        int prev_e = -1, v = 0;
        for (int i = 0; i < n; i++) {
            r[i] = v;
            for (int e = off[v]; e < off[v + 1]; e++)
                if (fac[ea[e]] == f && ea[e] != prev_e) {
                    prev_e = ea[e];
                    v = nb[e];
                    break;
                }
        }
        for (int i = 0; i < n; i++)
            back[i] = r[(n - i) % n];
    }
    got = 2 * h;
out:
    free(ea);
    free(sq);
    free(sv);
    free(se);
    free(ptr);
    free(cyc);
    free(fac);
    free(seen);
    return got;
}

/* Directed rings alone, without their reverses: where a GPU's links are
 * odd in number (8 fully meshed MI300X: seven) the rings and reverses the
 * search pairs leave a GPU's last link unused (three pairs, six rings),
 * while the complete digraph on 8 ranks splits into seven arc-disjoint
 * directed Hamiltonian cycles (Tillson, "A Hamiltonian decomposition of
 * K*_2m, 2m >= 8", J. Combin. Theory B 29, 1980). The same greedy search
 * per ring, each rank's neighbours tried in a new random order on each of
 * at most DIRECTED_TRIES starts (a fixed xorshift seed: deterministic),
 * keeping the start that found the most rings, within DIRECTED_WORK search
 * steps in all; small meshes only (DIRECTED_MAX_RANKS). Writes the rings to
 * rings (room for maxk) and returns how many, 0 where none beat `have`. */
#define DIRECTED_TRIES 4000
#define DIRECTED_WORK 4000000L
#define DIRECTED_MAX_RANKS 16
static int directed_rings(int n, const int *off, const int *nb, int maxk, int have, int *rings,
                          int *path, int *next, char *used, char *taken)
{
    int key[DIRECTED_MAX_RANKS * DIRECTED_MAX_RANKS], got = 0;
    int *cur = malloc((size_t)maxk * (size_t)n * sizeof *cur);
    if (n > DIRECTED_MAX_RANKS || !cur) {
        free(cur);
        return 0;
    }
    uint64_t rng = 0x2545F4914F6CDD1Dull;
    long work = DIRECTED_WORK;
    for (int t = 0; t < DIRECTED_TRIES && got < maxk && work > 0; t++) {
        for (int i = 0; i < n * n; i++) { /* random, distinct in a row: the rank below */
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            key[i] = (int)((rng >> 40) << 4) | i % n;
        }
        memset(taken, 0, (size_t)off[n] + 1);
        int k = 0;
        while (k < maxk && one_neighbour_ring(n, off, nb, taken, path, next, used, key, &work))
            memcpy(cur + (size_t)k++ * (size_t)n, path, (size_t)n * sizeof *path);
        if (k > have && k > got) {
            memcpy(rings, cur, (size_t)k * (size_t)n * sizeof *cur);
            got = k;
        }
    }
    free(cur);
    return got;
}

/* Rings through neighbours for ranks joined by direct links (an XGMI mesh,
 * a TPU torus): as many arc-disjoint directed rings as the search finds,
 * up to the ranks' fewest links, so that channels spread over every link
 * of a GPU as RCCL's ring sets do (8 fully meshed MI300X: 7 rings over
 * their 7 links each way; a 4x4x4 torus: up to 6). Cached in x->rings;
 * none where the ranks have no direct links (switched, PCIe). */
static cr_status rings_among(xp *x, const int *members, int n, int **rings_out, int *k_out,
                             int *links_out)
{
    int *off = NULL, *nb = NULL;
    *rings_out = NULL;
    *k_out = *links_out = 0;
    if (n < 3 || n > 65536)
        return CR_OK;
    if (!direct_adjacency(x, members, n, &off, &nb))
        return flowsim_xp_oom(x);
    int maxk = off[n] > 0 ? 1 << 30 : 0;
    for (int i = 0; i < n; i++)
        if (off[i + 1] - off[i] < maxk)
            maxk = off[i + 1] - off[i];
    int *path = malloc((size_t)n * sizeof *path), *next = malloc((size_t)n * sizeof *next);
    char *used = malloc((size_t)n), *taken = calloc((size_t)off[n] + 1, 1);
    int *rings = maxk > 0 ? malloc((size_t)maxk * (size_t)n * sizeof *rings) : NULL;
    cr_status st = CR_OK;
    if (!path || !next || !used || !taken || (maxk > 0 && !rings)) {
        st = flowsim_xp_oom(x);
        goto out;
    }
    int k = 0;
    for (long budget = NB_RING_BUDGET;
         k < maxk && one_neighbour_ring(n, off, nb, taken, path, next, used, NULL, &budget);
         budget = NB_RING_BUDGET) {
        memcpy(rings + (size_t)k * (size_t)n, path, (size_t)n * sizeof *path);
        k++;
        /* the same ring the other way round, where its arcs are free: the
         * greedy search alone may stop at one ring (a torus) */
        bool free_back = k < maxk;
        for (int i = 0; i < n && free_back; i++)
            free_back = free_arc(off, nb, taken, path[(i + 1) % n], path[i]) >= 0;
        if (!free_back)
            continue;
        for (int i = 0; i < n; i++) {
            int *r = rings + (size_t)k * (size_t)n;
            r[i] = path[(n - i) % n];
            taken[free_arc(off, nb, taken, path[(i + 1) % n], path[i])] = 1;
        }
        k++;
    }
    /* a torus: the greedy search stops at one cycle and its reverse where
     * its links decompose into three (two) */
    if (k > 0 && k < maxk) {
        int *whole = malloc((size_t)maxk * (size_t)n * sizeof *whole);
        if (!whole) {
            st = flowsim_xp_oom(x);
            goto out;
        }
        memcpy(whole, rings, (size_t)n * sizeof *rings);
        int got = cycle_decomposition(n, off, nb, rings, whole);
        if (got > k) {
            free(rings);
            rings = whole;
            k = got;
        } else {
            free(whole);
        }
    }
    if (k < maxk) {
        int got = directed_rings(n, off, nb, maxk, k, rings, path, next, used, taken);
        if (got > k)
            k = got;
    }
    if (k > 0) {
        *rings_out = rings;
        *k_out = k;
        *links_out = maxk;
        rings = NULL;
    }
out:
    free(off);
    free(nb);
    free(path);
    free(next);
    free(used);
    free(taken);
    free(rings);
    return st;
}

cr_status flowsim_neighbour_rings(xp *x)
{
    if (x->rings || x->rings_tried)
        return CR_OK;
    x->rings_tried = true;
    return rings_among(x, NULL, x->n, &x->rings, &x->n_rings, &x->ring_links);
}

/* Rings through neighbours inside each node of an op over several nodes of
 * m ranks each (grp[g m .. g m + m), op indices by node): found on node 0's
 * ranks as local positions 0..m-1 and kept where every node has the same
 * direct links (nodes from one template: 2 x 8 MI300X on a fat-tree);
 * cached in x->node_rings. */
static cr_status node_rings(xp *x, const int *grp, int ng, int m)
{
    if (x->node_rings || x->node_rings_tried)
        return CR_OK;
    x->node_rings_tried = true;
    int k = 0, links = 0, *r = NULL;
    cr_status st = rings_among(x, grp, m, &r, &k, &links);
    if (st != CR_OK || k == 0)
        return st;
    const cr_topo *t = cr_sim_topo(x->s);
    for (int g = 1; g < ng; g++)
        for (int q = 0; q < k; q++)
            for (int i = 0; i < m; i++) {
                const int *mem = grp + (size_t)g * (size_t)m, *rq = r + (size_t)q * (size_t)m;
                if (!linked(t, x->ranks[mem[rq[i]]], x->ranks[mem[rq[(i + 1) % m]]])) {
                    free(r); /* nodes wired unlike node 0: the rank order in each */
                    return CR_OK;
                }
            }
    x->node_rings = r;
    x->n_node_rings = k;
    return CR_OK;
}

/* Where channel q of the node rings (ring q, q < x->n_node_rings) enters
 * and leaves a node: in at R[p] and out at R[p - 1] (x->node_ring_at[q] =
 * p), chosen so that no two rings enter at one GPU and no two leave at one:
 * each crossing between nodes on a rail of its own, as NCCL's rings spread
 * over the NICs (in rank order every ring entered at its first GPU and
 * left at one GPU's NIC). A depth-first search over the rings' choices,
 * each ring trying its own position q first, within NODE_AT_BUDGET steps;
 * where it finds none, each ring takes the first position whose GPUs are
 * free, or failing that its own. Writes x->node_ring_at. */
#define NODE_AT_BUDGET 100000L
static cr_status node_ring_entries(xp *x, int m)
{
    int k = x->n_node_rings, *at = malloc((size_t)k * sizeof *at),
        *tried = calloc((size_t)k + 1, sizeof *tried);
    char *in_used = calloc((size_t)m, 1), *out_used = calloc((size_t)m, 1);
    if (!at || !tried || !in_used || !out_used) {
        free(at);
        free(tried);
        free(in_used);
        free(out_used);
        return flowsim_xp_oom(x);
    }
    int q = 0;
    long budget = NODE_AT_BUDGET;
    while (q >= 0 && q < k && budget-- > 0) {
        const int *R = x->node_rings + (size_t)q * (size_t)m;
        if (tried[q] > 0) { /* undo the last choice of ring q before the next */
            int p = at[q];
            in_used[R[p]] = 0;
            out_used[R[(p + m - 1) % m]] = 0;
        }
        int p = -1;
        while (tried[q] < m && p < 0) {
            int pj = (q + tried[q]++) % m;
            if (!in_used[R[pj]] && !out_used[R[(pj + m - 1) % m]])
                p = pj;
        }
        if (p < 0) { /* back to the ring before */
            tried[q--] = 0;
            continue;
        }
        at[q] = p;
        in_used[R[p]] = 1;
        out_used[R[(p + m - 1) % m]] = 1;
        q++;
    }
    if (q != k) { /* none found: first free positions, ring by ring */
        memset(in_used, 0, (size_t)m);
        memset(out_used, 0, (size_t)m);
        for (q = 0; q < k; q++) {
            const int *R = x->node_rings + (size_t)q * (size_t)m;
            at[q] = q % m;
            for (int j = 0; j < m; j++) {
                int pj = (q + j) % m;
                if (!in_used[R[pj]] && !out_used[R[(pj + m - 1) % m]]) {
                    at[q] = pj;
                    break;
                }
            }
            in_used[R[at[q]]] = 1;
            out_used[R[(at[q] + m - 1) % m]] = 1;
        }
    }
    free(tried);
    free(in_used);
    free(out_used);
    x->node_ring_at = at;
    return CR_OK;
}

cr_status flowsim_node_chains(xp *x, const int *grp, int ng, int m)
{
    cr_status st = node_rings(x, grp, ng, m);
    if (st == CR_OK && x->n_node_rings > 0 && !x->node_ring_at)
        st = node_ring_entries(x, m);
    return st;
}

/* Whether GPU rank g reaches no GPU over a scale-up link: no link of its
 * to a GPU or a switch (NVLink, XGMI, ICI), PCIe alone. */
static bool pcie_only(const cr_topo *t, int g)
{
    int v = t->gpus[g];
    for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
        int w = cr_link_other(&t->links[t->adj[k]], v);
        if (t->devs[w].kind == CR_DEV_GPU || t->devs[w].kind == CR_DEV_SWITCH)
            return false;
    }
    return true;
}

static int lcm_capped(int a, int b)
{
    if (a == 0 || b == 0)
        return a ? a : b;
    long l = (long)a / gcd(a, b) * b;
    return l > 4096 ? -1 : (int)l;
}

/* NCCL's ring on nodes without NVSwitch (src/graph/search.cc @v2.28.9-1,
 * ncclTopoSearchRecNet): channel 0 tries the PCI order first
 * (FORCED_ORDER_PCI: GPU 0, 1, ... of the node) and every later channel
 * replays it (FORCED_ORDER_REPLAY, sameChannels), channel c entering and
 * leaving the node through nets[c mod |nets|] (crossNic 0: back to the
 * NIC it came in through, ncclTopoSearchCheckNet), nets being
 * ncclTopoSelectNets' list: each GPU's own NICs in channel order
 * (ncclTopoGetLocalNet), GPU by GPU, each NIC once
 * (ncclTopoPrefNetsChannelFirst). Applies here where every node group of
 * the op (grp, gstart: ng >= 2 groups of at least two ranks) holds GPUs
 * with no scale-up link (PCIe boards: nodes with NVSwitch or direct links
 * keep their rings); sets x->pci_nets, pci_off, pci_node, pci_period and
 * x->pin, or x->pci_state -1. */
static cr_status pci_order_setup(xp *x, const int *grp, const int *gstart, int ng)
{
    if (x->pci_state)
        return CR_OK;
    x->pci_state = -1;
    cr_sim *s = x->s;
    const cr_topo *t = cr_sim_topo(s);
    for (int i = 0; i < x->n; i++)
        if (!pcie_only(t, x->ranks[i]))
            return CR_OK;
    int nn = t->n_nodes > 0 ? t->n_nodes : 1;
    x->pci_off = calloc((size_t)ng + 1, sizeof *x->pci_off);
    x->pci_node = malloc((size_t)ng * sizeof *x->pci_node);
    x->pin = malloc((size_t)nn * sizeof *x->pin);
    /* at most each rank's near NICs */
    size_t cap = 0;
    for (int i = 0; i < x->n; i++)
        cap += (size_t)cr_nic_count(s->nics, x->ranks[i]);
    x->pci_nets = malloc((cap + 1) * sizeof *x->pci_nets);
    int *pick = malloc(256 * sizeof *pick);
    if (!x->pci_off || !x->pci_node || !x->pin || !x->pci_nets || !pick) {
        free(pick);
        return flowsim_xp_oom(x);
    }
    for (int v = 0; v < nn; v++)
        x->pin[v] = -1;
    int k = 0, period = 0;
    for (int g = 0; g < ng; g++) {
        const int *mem = grp + gstart[g];
        int cnt = gstart[g + 1] - gstart[g];
        x->pci_node[g] = t->devs[t->gpus[x->ranks[mem[0]]]].node;
        /* the node's GPUs in PCI order (their index in the node), each
         * one's own NICs from its channel 0 on */
        int done = -1;
        for (int j = 0; j < cnt; j++) {
            int best = -1;
            for (int i = 0; i < cnt; i++) {
                int r = x->ranks[mem[i]];
                if (r > done && (best < 0 || r < best))
                    best = r;
            }
            done = best;
            int np = cr_nic_pick(s->nics, best, s->local[best], 256, pick);
            for (int q = 0; q < np; q++) {
                bool seen = false;
                for (int e = x->pci_off[g]; e < k && !seen; e++)
                    seen = x->pci_nets[e] == pick[q];
                if (!seen)
                    x->pci_nets[k++] = pick[q];
            }
        }
        x->pci_off[g + 1] = k;
        if (period >= 0)
            period = lcm_capped(period, k - x->pci_off[g]);
    }
    free(pick);
    x->pci_ng = ng;
    x->pci_period = period > 0 ? period : period == 0 ? 1 : 0;
    x->pci_state = 1;
    return CR_OK;
}

const int *flowsim_ring_pins(xp *x, int c)
{
    if (x->pci_state != 1)
        return NULL;
    for (int g = 0; g < x->pci_ng; g++) {
        int k = x->pci_off[g + 1] - x->pci_off[g], v = x->pci_node[g];
        if (v >= 0 && v < cr_sim_topo(x->s)->n_nodes)
            x->pin[v] = k > 0 ? x->pci_nets[x->pci_off[g] + c % k] : -1;
    }
    return x->pin;
}

/* Whether GPU rank g's nearest NICs hold device v. */
static bool near_nic(const cr_sim *s, int g, int v)
{
    const cr_nic_map *m = s->nics;
    for (int k = m->off[g]; k < m->off[g + 1]; k++)
        if (m->nic[k] == v)
            return true;
    return false;
}

bool flowsim_ring_hop_staged(xp *x, int a, int b)
{
    if (x->pci_state != 1)
        return false;
    const cr_topo *t = cr_sim_topo(x->s);
    int ga = x->ranks[a], gb = x->ranks[b];
    int va = t->devs[t->gpus[ga]].node, vb = t->devs[t->gpus[gb]].node;
    if (va < 0 || vb < 0 || va >= t->n_nodes || vb >= t->n_nodes || va == vb || x->pin[va] < 0 ||
        x->pin[vb] < 0)
        return false;
    return !near_nic(x->s, ga, x->pin[va]) || !near_nic(x->s, gb, x->pin[vb]);
}

/* Fills order[] with channel c's ring. Ranks are grouped by node in the
 * order they first appear; when every node holds m >= 2 ranks or more (m
 * the fewest), node j's segment enters at member c and leaves at member
 * c+1 (mod m) on even nodes and the reverse on odd nodes, so every
 * inter-node edge joins the same local GPU of two nodes (the same rail) and
 * channel c's crossings use rails c and c+1, spreading channels over the
 * NICs as NCCL's rail-aligned rings do (on uneven nodes over the smallest
 * node's m rails: coll.c net_rails). Otherwise the ring is the rank
 * order. */
cr_status flowsim_ring_order(xp *x, int c, int *order)
{
    int n = x->n;
    int *node = malloc((size_t)n * sizeof *node), *grp = malloc((size_t)n * sizeof *grp);
    int *gstart = malloc(((size_t)n + 1) * sizeof *gstart);
    int *cnt = calloc((size_t)n + 1, sizeof *cnt);
    cr_status st = CR_OK;
    if (!node || !grp || !gstart || !cnt) {
        st = flowsim_xp_oom(x);
        goto out;
    }
    /* Group index per rank, in order of first appearance (O(n) via a map
     * from topology node to group, nodes being small integers). */
    const cr_topo *t = cr_sim_topo(x->s);
    int nn = t->n_nodes > 0 ? t->n_nodes : 1;
    int *map = malloc((size_t)nn * sizeof *map);
    if (!map) {
        st = flowsim_xp_oom(x);
        goto out;
    }
    for (int i = 0; i < nn; i++)
        map[i] = -1;
    int ng = 0;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        int v = flowsim_node_of(x, i);
        if (v < 0 && x->err == CR_ENOMEM) {
            free(map);
            st = CR_ENOMEM;
            goto out;
        }
        if (v < 0 || v >= nn) {
            ok = false;
            break;
        }
        if (map[v] < 0)
            map[v] = ng++;
        node[i] = map[v];
        cnt[node[i]]++;
    }
    free(map);
    /* m: the fewest ranks a node holds, the rails every node's segment
     * crosses on (coll.c net_rails); even: every node holds m */
    int m = ok && ng > 0 ? cnt[0] : 0;
    bool even = ok;
    for (int g = 0; g < ng && ok; g++) {
        even = even && cnt[g] == m;
        m = cnt[g] < m ? cnt[g] : m;
    }
    if (!ok || ng < 2 || m < 2) {
        /* GPUs wired to each other directly (an XGMI mesh, a TPU torus):
         * channel c takes the c-th ring through neighbours (arc-disjoint
         * rings over the direct links); where the search finds none, the
         * c-th stride s coprime with n whose pairs (i, i+s) all have a
         * link; otherwise (switched or PCIe) the rank order. */
        if ((st = flowsim_neighbour_rings(x)) != CR_OK)
            goto out;
        if (x->n_rings > 0) {
            memcpy(order, x->rings + (size_t)(c % x->n_rings) * (size_t)n,
                   (size_t)n * sizeof *order);
            goto out;
        }
        int s_c = mesh_stride(x, c);
        for (int i = 0, r = 0; i < n; i++, r = (r + s_c) % n)
            order[i] = r;
        goto out;
    }
    gstart[0] = 0;
    for (int g = 0; g < ng; g++)
        gstart[g + 1] = gstart[g] + cnt[g];
    memset(cnt, 0, (size_t)ng * sizeof *cnt);
    for (int i = 0; i < n; i++)
        grp[gstart[node[i]] + cnt[node[i]]++] = i;
    /* nodes of PCIe GPUs: every channel in NCCL's PCI order, each node's
     * GPUs by their index in it, one node after the other (the channel's
     * NICs: flowsim_ring_pins); rail-aligned rings (below) spread the SHM
     * hops over the socket uplinks that NCCL's PCI order loads, 3.5 a
     * channel for 4 (doc/simulator.md, QA audit of PCIe clusters) */
    if ((st = pci_order_setup(x, grp, gstart, ng)) != CR_OK)
        goto out;
    if (x->pci_state == 1) {
        for (int g = 0, k = 0; g < ng; g++) {
            const int *mem = grp + gstart[g];
            int held = gstart[g + 1] - gstart[g], done = -1;
            for (int j = 0; j < held; j++) {
                int best = -1;
                for (int i = 0; i < held; i++)
                    if (x->ranks[mem[i]] > done && (best < 0 || x->ranks[mem[i]] < x->ranks[best]))
                        best = mem[i];
                done = x->ranks[best];
                order[k++] = best;
            }
        }
        goto out;
    }
    /* nodes whose GPUs are wired to each other directly (a fat-tree of
     * MI300X nodes): channel c's way through each node follows its ring
     * through neighbours, so that the channels spread over every XGMI
     * link as they do on one such node (in rank order all eight crossed
     * the same seven links, sim/pr 3.43) */
    if (even && (st = flowsim_node_chains(x, grp, ng, m)) != CR_OK)
        goto out;
    if (x->n_node_rings > 0) {
        /* channel c on ring c (mesh_channels runs at most one channel a
         * ring): in at R[p], along R to R[p - 1] on even nodes; on odd
         * ones in at R[p - 1] and back along R to R[p], so that each
         * crossing joins one local GPU of two nodes (one rail), as the
         * switched nodes' segments below do */
        int q = c % x->n_node_rings, p = x->node_ring_at[q];
        const int *R = x->node_rings + (size_t)q * (size_t)m;
        for (int g = 0, k = 0; g < ng; g++)
            for (int i = 0; i < m; i++)
                order[k++] = grp[gstart[g] + R[(g % 2 ? p + 2 * m - 1 - i : p + i) % m]];
        goto out;
    }
    int k = 0;
    for (int g = 0; g < ng; g++) {
        const int *mem = grp + gstart[g];
        int in = c % m, outm = (c + 1) % m;
        if (g % 2) {
            int tmp = in;
            in = outm;
            outm = tmp;
        }
        order[k++] = mem[in];
        for (int j = 0; j < gstart[g + 1] - gstart[g]; j++)
            if (j != in && j != outm)
                order[k++] = mem[j];
        order[k++] = mem[outm];
    }
out:
    free(node);
    free(grp);
    free(gstart);
    free(cnt);
    return st;
}
