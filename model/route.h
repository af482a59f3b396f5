/* SPDX-License-Identifier: MIT */
/*
 * Routes between GPUs: the links a transfer crosses and the bandwidth it can
 * reach.
 *
 * GPUs do not forward traffic for other GPUs (NVLink, XGMI and PCIe GPUs do
 * not route), except where the topology sets the parameter
 * "route.gpu_transit" to 1 (TPU ICI routers sit in the chip).
 *
 * One exception keeps routes in line with the invariant checker (every GPU
 * reaches every other through links, other GPUs included): a pair that has
 * no path avoiding the other GPUs (a chain gpu1 - gpu0 - gpu2, a rail-only
 * fabric without spines between rails) is routed through them, as NCCL
 * does (P2P through an intermediate GPU, PXN through a peer GPU's NIC).
 * Where a path that avoids them exists, GPUs still forward nothing.
 */
#ifndef CR_ROUTE_H
#define CR_ROUTE_H

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Maximum bandwidth from GPU rank src to GPU rank dst in that direction, in
 * bytes per second: the max-flow over all paths (so an HGX GPU reaches a
 * peer through all four NVSwitch chips at once), through other GPUs only
 * where no path avoids them (see above). Returns 0 when src == dst or no
 * path exists. t must be finalized. */
double cr_route_bw_Bps(const cr_topo *t, int src, int dst);

/* Link-kind masks for cr_route_bw_kinds_Bps: bit (1u << cr_link_kind). */
#define CR_ROUTE_ALL_KINDS ((1u << CR_LINK__COUNT) - 1u)
/* The scale-up fabrics GPUs copy over directly: NVLink, XGMI, ICI. */
#define CR_ROUTE_SCALEUP_KINDS ((1u << CR_LINK_NVLINK) | (1u << CR_LINK_XGMI) | (1u << CR_LINK_ICI))
/* The networks NICs attach to: InfiniBand, Ethernet. */
#define CR_ROUTE_NETWORK_KINDS ((1u << CR_LINK_IB) | (1u << CR_LINK_ETHERNET))
/* The host's own links: PCIe, and C2C (NVLink-C2C to a Grace CPU, a socket
 * link between CPUs). */
#define CR_ROUTE_HOST_KINDS ((1u << CR_LINK_PCIE) | (1u << CR_LINK_C2C))

/* The routing policy, one predicate each; every search over the link graph
 * (bounds, collectives, NIC choice, metrics, the simulator, the plots) asks
 * these rather than spelling a set of kinds itself. */

/* Is a link of kind k part of a scale-up fabric (CR_ROUTE_SCALEUP_KINDS)? */
static inline bool cr_route_scaleup(cr_link_kind k)
{
    return (CR_ROUTE_SCALEUP_KINDS >> k) & 1u;
}

/* Is a link of kind k a network link, a NIC's way onto the fabric
 * (CR_ROUTE_NETWORK_KINDS)? */
static inline bool cr_route_network(cr_link_kind k)
{
    return (CR_ROUTE_NETWORK_KINDS >> k) & 1u;
}

/* Is a link of kind k one of the host's links (CR_ROUTE_HOST_KINDS)? */
static inline bool cr_route_host(cr_link_kind k)
{
    return (CR_ROUTE_HOST_KINDS >> k) & 1u;
}

/* Do the topology's GPUs forward traffic for others (the parameter
 * "route.gpu_transit" set to non-zero: TPU ICI)? */
static inline bool cr_route_transit(const cr_topo *t)
{
    return cr_topo_param(t, "route.gpu_transit", 0.0) != 0.0;
}

/* May the topology's GPUs reach each other's memory over PCIe at all (the
 * parameter "route.pcie_p2p", default 1)? 0 where peer access is not
 * offered (GeForce cards, many containers and VMs) or NCCL_P2P_DISABLE=1
 * is set: NCCL then moves the data between GPUs of a node through host
 * memory (its SHM transport, src/transport/shm.cc: the sender's SMs store
 * into a buffer in the receiver's host memory, the receiver's SMs load
 * from it), as it does where its own P2P level refuses a pair
 * (cr_route_pcie_peers). */
static inline bool cr_route_pcie_p2p(const cr_topo *t)
{
    return cr_topo_param(t, "route.pcie_p2p", 1.0) != 0.0;
}

/* May a route pass through device v on its way (v is neither end)? Every
 * device but a GPU forwards; a GPU only under transit (cr_route_transit, or
 * true where a caller routes through GPUs because nothing else connects a
 * pair; false for host traffic, which GPUs never forward). */
static inline bool cr_route_forwards(const cr_topo *t, int v, bool transit)
{
    return transit || t->devs[v].kind != CR_DEV_GPU;
}

/* A pair of GPUs that NCCL relays through a third over the scale-up
 * fabric while this topology does not: gpu rank *a and *b share no
 * scale-up link and reach no scale-up switch, but both link to GPU *via
 * (NCCL's path type NVB, one intermediate GPU: src/graph/paths.cc "allow
 * routing through a GPU only as 1 hop"; a DGX-1's hybrid cube-mesh). Where
 * a host path joins them, the model's routes send such a pair through host
 * memory unless the topology sets route.gpu_transit (route.h above), and
 * a ring through it runs at the host's rate. Returns false, touching
 * nothing, where no such pair has a host path, where transit is set, or
 * on no memory. */
bool cr_route_nvb_pair(const cr_topo *t, int *a, int *b, int *via);

/* cr_route_bw_Bps over links of the kinds in the mask only: with
 * CR_ROUTE_SCALEUP_KINDS, what a peer copy over NVLink (or XGMI, ICI) can
 * reach, 450 GB/s for an HGX H200 pair where all paths give 513. */
double cr_route_bw_kinds_Bps(const cr_topo *t, int src, int dst, unsigned kinds);

/* The rate one transfer from GPU rank src to dst reaches over links of the
 * kinds in the mask when it takes only the fewest-hop paths, split at each
 * fork in proportion to the links' capacity (the flow simulator's routes,
 * doc/simulator.md "Routes"; through other GPUs under route.gpu_transit,
 * or where no path avoids them): the least capacity / share over those
 * links. Where the fewest-hop paths are all there are and the split
 * matches what lies beyond each fork (a GPU pair through NVSwitches with
 * the same links from every GPU to each switch, a mesh's direct link) this
 * is cr_route_bw_kinds_Bps; it is less on a torus (a neighbour's one
 * direct link where max-flow finds all six: TPU ICI routes along the
 * shortest paths) and on a board whose GPUs have unequal links to a
 * switch (the split at the sender does not see the receiver's fewer links:
 * an imported board with a failed NVLink). 0 without a path, -1 when
 * memory runs out. */
double cr_route_ecmp_Bps(const cr_topo *t, int src, int dst, unsigned kinds);

/* Whether each hop src[k] -> dst[k] between GPU ranks of one node uses
 * PCIe peer access as NCCL decides it (src/graph/paths.cc
 * ncclTopoCheckP2p): never where cr_route_pcie_p2p is false; else where
 * the fewest-hop PCIe path between them passes PCIe switches only
 * (NCCL's default level, PATH_PXB), or crosses only AMD CPUs while the
 * node holds at most two of the communicator's GPUs (node_ranks[k]; NCCL
 * allows PATH_SYS there). A CPU of unstated vendor counts as not AMD, as
 * NCCL treats Intel and Arm. Fills peer[0..n). Errors: CR_ENOMEM. */
cr_status cr_route_pcie_peers(const cr_topo *t, const int *src, const int *dst,
                              const int *node_ranks, int n, bool *peer);

/* NCCL's path type from GPU rank `rank` to its nearest NIC over host
 * links, as far as its LL128 switch reads it (src/graph/tuning.cc: LL128
 * across nodes only where that path is PATH_PXB or better, on Hopper and
 * later PATH_PXN, and from NCCL 2.27 PATH_P2C): *via_cpu, the path passes
 * a CPU (PATH_PHB or worse); *via_c2c, it leaves the GPU over C2C
 * (GH200: NVLink-C2C to Grace, PCIe to the NIC; PATH_P2C from 2.27,
 * PATH_PHB before). Both false where no NIC is reached or on no memory. */
void cr_route_nic_path(const cr_topo *t, int rank, bool *via_cpu, bool *via_c2c);

/* The CPU whose memory holds the buffer of NCCL's SHM transport for a hop
 * to GPU rank `rank` (cr_route_pcie_p2p): the receiver's nearest CPU over
 * host links (PCIe, C2C), the one cr_route_host_share_Bps walks a hop up
 * to and down from. Returns its device index, -1 where no CPU is reached
 * (or rank is out of range), -2 on no memory. */
int cr_route_host_cpu(const cr_topo *t, int rank);

/* The rate each of n_hops transfers between GPU ranks (src[k] to
 * dst[k], all at once) gets through host memory (NCCL's SHM, see
 * cr_route_pcie_p2p): a hop writes from its sender up to the receiver's
 * nearest CPU (NCCL keeps the buffer in the receiver's memory) and the
 * receiver reads it down from there, each part the fewest hops over host
 * links (PCIe, C2C); a link carries in each direction every hop through
 * it that way. The least, over the hops, of the least share along the
 * hop. 0 when a hop finds no path. lat_s (may be NULL): the longest of
 * the hops' host paths in link latency, what a step of them all at once
 * waits for at least. Errors: CR_ENOMEM (*Bps and *lat_s left 0). */
cr_status cr_route_host_share_Bps(const cr_topo *t, const int *src, const int *dst, int n_hops,
                                  double *Bps, double *lat_s);

/* The least link latency from device src to any CPU over host links
 * (PCIe, C2C), GPUs other than src forwarding nothing: what an h2d or d2h
 * copy's last byte travels at least, whichever CPU holds the buffer and
 * whichever path carries it. Never rises when a link gets faster or one
 * is added, unlike the latency of the widest path (QA audit of hardware
 * monotonicity). INFINITY when no CPU is reached; -1 when out of memory. */
double cr_route_host_lat_s(const cr_topo *t, int src);

/* Fewest-hop path from GPU rank src to dst (through other GPUs only where
 * no path avoids them): fills links[0..*n) (up to max)
 * with link indices in order and *lat_s with the sum of their latencies.
 * Errors: CR_ENOTFOUND when there is no path, CR_ERANGE when longer than
 * max, CR_ENOMEM. */
cr_status cr_route_path(const cr_topo *t, int src, int dst, int *links, int max, int *n,
                        double *lat_s);

#ifdef __cplusplus
}
#endif

#endif
