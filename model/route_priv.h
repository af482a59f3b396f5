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

#pragma GCC visibility pop

#endif
