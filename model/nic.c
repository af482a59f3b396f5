/* SPDX-License-Identifier: MIT */
/*
 * NCCL's NIC per GPU (see nic.h): the nearest NICs of each GPU by a
 * Dijkstra over its node's host devices, the ranks' shares and the NICs a
 * share picks.
 */
#include "nic.h"

#include "grow.h"
#include "heap_priv.h"

#include <limits.h>
#include <stdlib.h>

/* At most this many nearest NICs per GPU are kept (a share fits a byte);
 * DGX-class nodes have one or two. */
#define NEAR_NICS_MAX 255

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

double cr_nic_net_Bps(const cr_topo *t, int v)
{
    double out = 0;
    for (int a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
        const cr_link *l = &t->links[t->adj[a]];
        if (cr_route_network(l->kind))
            out += cr_link_bw_from(l, v);
    }
    return out;
}

/* Appends GPU rank g's nearest NICs to m->nic (*n entries used of *cap).
 * dist: n_devs ints, all INT_MAX, left so; touched: n_devs ints of scratch. */
static int near_one(const cr_topo *t, cr_nic_map *m, int g, long *n, size_t *cap, cr_heap *h,
                    int *dist, int *touched)
{
    int src = t->gpus[g], node = t->devs[src].node, nt = 0, rc = 0;
    if (node < 0)
        return 0;
    long first = *n;
    int best = INT_MAX;
    h->n = 0;
    dist[src] = 0;
    touched[nt++] = src;
    if (cr_heap_push(h, 0, src, 0))
        return -1;
    while (h->n > 0) {
        cr_heap_ent e = cr_heap_pop(h);
        int v = e.id, dv = (int)e.key;
        if (dv != dist[v])
            continue; /* stale */
        if (dv > best)
            break;
        if (t->devs[v].kind == CR_DEV_NIC) {
            /* a NIC wired to nothing (a generated fat tree with fewer rails
             * than the node has NICs leaves the others unwired) is none */
            if (!(cr_nic_net_Bps(t, v) > 0)) {
                dist[v] = -1; /* settled, and no candidate: look further */
                continue;
            }
            best = dv;
            if (*n - first < NEAR_NICS_MAX) {
                if (cr_grow((void **)&m->nic, cap, (size_t)*n + 1, sizeof *m->nic)) {
                    rc = -1;
                    break;
                }
                m->nic[(*n)++] = v;
            }
            dist[v] = -1; /* settled: never relaxed again */
            continue;
        }
        if (v != src && !cr_route_forwards(t, v, false))
            continue; /* GPUs do not forward host traffic */
        for (int k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            const cr_link *l = &t->links[t->adj[k]];
            int w = cr_link_other(l, v);
            /* a scale-up hop joins GPUs of one domain: not a way to a NIC */
            if (cr_route_scaleup(l->kind) || t->devs[w].node != node || cr_link_bw_from(l, v) <= 0)
                continue;
            int dw = dv + cr_nic_hop_cost(l);
            if (dist[w] >= 0 && dw < dist[w]) {
                if (dist[w] == INT_MAX)
                    touched[nt++] = w;
                dist[w] = dw;
                if (cr_heap_push(h, dw, w, 0)) {
                    rc = -1;
                    break;
                }
            }
        }
        if (rc)
            break;
    }
    for (int i = 0; i < nt; i++)
        dist[touched[i]] = INT_MAX;
    if (*n > first)
        qsort(m->nic + first, (size_t)(*n - first), sizeof *m->nic, cmp_int);
    return rc;
}

cr_nic_map *cr_nic_map_new(const cr_topo *t)
{
    cr_nic_map *m = calloc(1, sizeof *m);
    size_t nd = (size_t)t->n_devs + 1;
    int *dist = malloc(nd * sizeof *dist), *touched = malloc(nd * sizeof *touched);
    cr_heap h = {0};
    long n = 0;
    size_t cap = 0;
    int rc = -1;
    if (!m || !dist || !touched || !(m->off = malloc(((size_t)t->n_gpus + 1) * sizeof *m->off)))
        goto out;
    m->n_gpus = t->n_gpus;
    for (size_t v = 0; v < nd; v++)
        dist[v] = INT_MAX;
    rc = 0;
    for (int g = 0; g < t->n_gpus && rc == 0; g++) {
        m->off[g] = (int)n;
        rc = near_one(t, m, g, &n, &cap, &h, dist, touched);
    }
    m->off[t->n_gpus] = (int)n;
out:
    free(dist);
    free(touched);
    cr_heap_free(&h);
    if (rc) {
        cr_nic_map_free(m);
        return NULL;
    }
    return m;
}

void cr_nic_map_free(cr_nic_map *m)
{
    if (!m)
        return;
    free(m->off);
    free(m->nic);
    free(m);
}

void cr_nic_shares(const cr_nic_map *m, const uint64_t *member, unsigned char *share, int *scratch)
{
    for (int pass = 0; pass < 3; pass++)
        for (int g = 0; g < m->n_gpus; g++) {
            if (!((member[g >> 6] >> (g & 63)) & 1u) || cr_nic_count(m, g) == 0)
                continue;
            int *c = &scratch[m->nic[m->off[g]]];
            if (pass == 0)
                (*c)++;
            else if (pass == 1)
                share[g] = (unsigned char)((cr_nic_count(m, g) + *c - 1) / *c);
            else
                *c = 0;
        }
}

/* NCCL's mirrorBits (src/graph/topo.cc): val's low log2(pow2) bits reversed. */
static int mirror_bits(int val, int pow2)
{
    int r = 0;
    for (int b = 1, mb = pow2 >> 1; b < pow2; b <<= 1, mb >>= 1)
        if (val & b)
            r |= mb;
    return r;
}

int cr_nic_pick(const cr_nic_map *m, int g, int local, int share, int *out)
{
    int k = cr_nic_count(m, g), dev = local > 0 ? local : 0, n = 0;
    const int *near = m->nic + m->off[g];
    if (k == 0)
        return 0;
    if ((k & (k - 1)) == 0)
        dev = mirror_bits(dev, k);
    for (int c = 0; c < share && c < k; c++)
        out[n++] = near[(dev + c) % k];
    return n;
}
