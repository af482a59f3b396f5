/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by flowsim_coll.c (collectives expanded into flows) and
 * flowsim_rings.c (the rings they run over); nothing outside model/
 * includes this. The names carry no cr_ prefix: libcommroof.so keeps them
 * local (tools/libcommroof.map).
 */
#ifndef CR_FLOWSIM_XP_PRIV_H
#define CR_FLOWSIM_XP_PRIV_H

#include "coll.h"
#include "flowsim.h"
#include "flowsim_priv.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* One collective's expansion in progress. */
typedef struct {
    cr_sim *s;
    const cr_sim_coll_spec *sp;
    const int *ranks;
    int n, op, first, last;
    cr_diag *d;
    cr_status err;   /* what the last failing flow() hit */
    cr_sim_use *acc; /* coupled-flow use accumulator */
    int n_acc;
    size_t cap_acc;
    double step_at;   /* >= 0: flow() steps take this latency whole (a ring) */
    int nccl_nodes;   /* what NCCL's nodes are for the op's ranks
                         (flowsim_node_of): -1 unknown, NODES_TOPO, ... */
    int *rings;       /* n_rings rings through direct neighbours, n ranks each */
    int n_rings;      /* (flowsim_neighbour_rings); 0 none */
    int ring_links;   /* with them: the fewest direct links of a rank */
    double eff;       /* the flows' bandwidth efficiency: sp->bw_eff, or a
                         ring's over the links its channels take (ring) */
    bool rings_tried; /* flowsim_neighbour_rings has run */
    int *node_rings;  /* over several nodes: n_node_rings rings through the
                         direct neighbours inside a node, as local positions
                         (flowsim_ring_order); 0 none */
    int n_node_rings;
    int *node_ring_at; /* with them: where ring q enters a node (its position) */
    bool node_rings_tried;
    /* over several nodes of GPUs with no scale-up link (PCIe): NCCL's PCI
     * order in each node and each channel's NIC (flowsim_ring_order,
     * flowsim_ring_pins); pci_nets NULL where that does not apply */
    int pci_state; /* 0 not yet looked at, 1 applies, -1 does not */
    int *pci_nets; /* per node group g the NICs its channels take in turn:
                      pci_nets[pci_off[g] .. pci_off[g + 1]) */
    int *pci_off;  /* pci_ng + 1 entries */
    int *pci_node; /* per group its topology node */
    int pci_ng;
    int pci_period; /* channels c and c + pci_period take the same NICs; 0:
                       none repeats */
    int *pin;       /* per topology node the NIC of the channel being expanded */
    /* a ring NCCL's channels cap (ring): each flow's most payload rate,
     * bytes a second, sp->ring_cap_Bps / channels; 0 none */
    double ch_cap_Bps;
    /* a ring's hops at their transports' figures (ring): in steps, edge
     * order[i] -> order[i + 1] at edge_eff[i] (NULL: x->eff); a coupled
     * flow's edge with its uses times edge_w = x->eff / that (0: 1) */
    const double *edge_eff;
    double edge_w;
} xp;

/* Records an allocation failure (or the simulator budget that made it
 * fail) in x and d; returns the status. */
static inline cr_status flowsim_xp_oom(xp *x)
{
    x->err = CR_ENOMEM;
    /* Task additions and route searches fail at the simulator's budgets
     * too: say which, not "out of memory". */
    if (cr_sim_limit_hit(x->s, x->d) != CR_OK)
        return x->err = CR_ERANGE;
    return cr_diag_set(x->d, CR_ENOMEM, "simulator: out of memory expanding %s",
                       cr_coll_name(x->sp->coll));
}

/* The ranks' NCCL node: the topology node, or 0 for all when they share
 * one scale-up domain. */
int flowsim_node_of(xp *x, int i);

/* Rings through direct neighbours (cached in x->rings; none where the
 * ranks have no direct links). */
cr_status flowsim_neighbour_rings(xp *x);

/* Over ng nodes of m ranks each (grp[g m .. g m + m): node g's op
 * indices), wired alike with direct links between their GPUs (an XGMI
 * mesh): the rings through neighbours inside a node and where each enters
 * and leaves it (x->node_rings, x->n_node_rings, x->node_ring_at, as
 * flowsim_ring_order finds them for its rings); x->n_node_rings stays 0
 * where the nodes have no such rings. */
cr_status flowsim_node_chains(xp *x, const int *grp, int ng, int m);

/* Fills order[] (n ranks) with channel c's ring. */
cr_status flowsim_ring_order(xp *x, int c, int *order);

/* Where channel c's ring runs in NCCL's PCI order (flowsim_ring_order
 * called first): per topology node the NIC it crosses through, for
 * flowroute_pin_nics (x->pin); NULL elsewhere. */
const int *flowsim_ring_pins(xp *x, int c);

/* Whether the hop from op rank a to b of another node reaches a NIC the
 * channel's pins (flowsim_ring_pins, last called) give it that is none of
 * its GPU's nearest: a path through the CPUs, on which NCCL's network
 * transport has no GPUDirect RDMA (ncclTopoCheckGdr: the GPU's path to
 * the NIC beyond NCCL_NET_GDR_LEVEL) and stages the data in host memory,
 * as SHM does. */
bool flowsim_ring_hop_staged(xp *x, int a, int b);

#pragma GCC visibility pop

#endif
