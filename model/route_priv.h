/* SPDX-License-Identifier: MIT */
/*
 * Host-link route searches over buffers the caller keeps (route.c): the
 * public cr_route_pcie_peers and cr_route_host_cpu set up buffers the size
 * of the whole topology on every call, which a caller asking about many
 * pairs (the simulator's SHM hops, one query per pair of GPUs of a PCIe
 * node) paid per query: O(devices) each, quadratic over a cluster. A
 * scratch is set up once (O(devices)); each query then costs what its
 * search reaches, a node's host links.
 */
#ifndef CR_ROUTE_PRIV_H
#define CR_ROUTE_PRIV_H

#include "route.h"

#pragma GCC visibility push(hidden)

/* Search buffers for one topology: via all -2 between queries. */
typedef struct {
    int *via, *queue;
} cr_route_scratch;

/* Errors: CR_ENOMEM (sc is then safe to release). */
cr_status cr_route_scratch_init(cr_route_scratch *sc, const cr_topo *t);

/* Frees what sc holds; a zeroed or released sc is fine. */
void cr_route_scratch_release(cr_route_scratch *sc);

/* cr_route_pcie_peers and cr_route_host_cpu (route.h) with sc's buffers,
 * which must have been set up for t. */
cr_status cr_route_pcie_peers_sc(const cr_topo *t, const int *src, const int *dst,
                                 const int *node_ranks, int n, bool *peer, cr_route_scratch *sc);
int cr_route_host_cpu_sc(const cr_topo *t, int rank, cr_route_scratch *sc);

/* What a least-latency search (cr_route_lat_search) walks: the links whose
 * kind link_ok takes; a device other than the source passes traffic on
 * only where relays(ctx, v) says so; the search ends at the first settled
 * device for which done(ctx, v) is true (NULL: it runs to the end). */
typedef struct {
    bool (*link_ok)(cr_link_kind k);
    bool (*relays)(void *ctx, int v);
    bool (*done)(void *ctx, int v);
    void *ctx;
} cr_route_lat_walk;

/* Dijkstra over link latencies from device src: dist[t->n_devs] gets each
 * settled device's least latency (INFINITY where not reached; a device
 * not settled when the search ended may hold a longer one). Returns the
 * device the search ended at (done), -1 when it ran out, -2 when out of
 * memory. The one search over latencies: the bound's rank latencies
 * (bound.c) and a copy's least host latency (cr_route_host_lat_s). */
int cr_route_lat_search(const cr_topo *t, int src, const cr_route_lat_walk *w, double *dist);

#pragma GCC visibility pop

#endif
