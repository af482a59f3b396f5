/* SPDX-License-Identifier: MIT */
/*
 * NCCL's NIC per GPU for the network transport between nodes
 * (ncclTopoGetLocalNet, src/graph/topo.cc), shared by the simulator
 * (flowroute.c: the NICs a route between nodes may cross) and coll's
 * per-rank NIC figure (coll.c build_rails): a GPU's NICs are the nearest
 * ones through host devices of its node; its share is DIVUP(those NICs,
 * ranks whose nearest NICs begin with the same one); which ones: from the
 * GPU's index in its node on (bit-mirrored when the NIC count is a power
 * of two), one per channel, share of them in all.
 */
#ifndef CR_NIC_H
#define CR_NIC_H

#include <stdint.h>

#include "route.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per GPU rank g its nearest NICs (device indices, topology order):
 * nic[off[g] .. off[g + 1]); none for a GPU outside every node or without
 * a NIC in its node. */
typedef struct cr_nic_map {
    int n_gpus;
    int *off; /* n_gpus + 1 entries */
    int *nic;
} cr_nic_map;

/* Route cost of one hop: a hop through the host (PCIe, or C2C: NVLink-C2C
 * to a Grace CPU, a socket link) costs 9, a little more than a scale-up or
 * network hop's 8 (NCCL ranks PHB, SYS below NVL, src/graph/paths.cc), so GPUs
 * joined by NVLink never send peer traffic through a PCIe switch or a CPU
 * (GB200: GPU -> Grace -> GPU is as short as GPU -> NVSwitch -> GPU), while
 * equal-hop paths over the same kind of links tie and share the traffic.
 * The simulator's routes use the same (inline: its searches' inner loop). */
static inline int cr_nic_hop_cost(const cr_link *l)
{
    return cr_route_host(l->kind) ? 9 : 8;
}

/* Network capacity out of NIC device v (its links onto a fabric; 0 for a
 * NIC wired to none, which no rank sends through). */
double cr_nic_net_Bps(const cr_topo *t, int v);

/* The NICs nearest to each GPU, as ncclTopoGetLocal(GPU, NET) finds them:
 * the least cr_nic_hop_cost path from the GPU through host devices of its
 * own node (PCIe switches, CPUs; never a GPU, a NIC or a scale-up link),
 * every tie kept (at most 255), NICs wired to no network left out (NCCL
 * lists only those its plugin finds with a port up). NULL when out of
 * memory. t finalized. */
cr_nic_map *cr_nic_map_new(const cr_topo *t);
void cr_nic_map_free(cr_nic_map *m);

static inline int cr_nic_count(const cr_nic_map *m, int g)
{
    return m->off[g + 1] - m->off[g];
}

/* Each member's share of its nearest NICs: DIVUP(its NICs, member GPUs
 * whose nearest NICs begin with the same one; NCCL's topology holds only
 * the communicator's GPUs). member: bitmap over GPU ranks; writes share[g]
 * for every member g (0: no NIC near it). scratch: t->n_devs + 1 ints, all
 * 0, left all 0. */
void cr_nic_shares(const cr_nic_map *m, const uint64_t *member, unsigned char *share, int *scratch);

/* The NICs GPU rank g uses with a share of `share`, g being the local-th
 * GPU of its node: its nearest NICs from index local (mirrored when their
 * number is a power of two) on, channel c using the (local + c mod k)-th.
 * Writes up to `share` device indices to out; returns how many. */
int cr_nic_pick(const cr_nic_map *m, int g, int local, int share, int *out);

#ifdef __cplusplus
}
#endif

#endif
