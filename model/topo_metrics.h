/* SPDX-License-Identifier: MIT */
/*
 * Figures that summarise a topology for people and for the model: per-GPU
 * injection bandwidth per fabric, bisection bandwidth, what the switches can
 * do, and the GPU-to-GPU bottleneck bandwidth (route.h) by class of pair.
 *
 * Definitions (exact; the CLI prints these figures under these names):
 *
 * - injection bandwidth of GPU g on fabric k (a link kind): the bandwidth g
 *   can send into links of kind k. For kinds g attaches to directly (nvlink,
 *   pcie, xgmi, ici, c2c, ...) it is the sum over those links of
 *   count x per-link bandwidth out of g. For network kinds (ib, ethernet)
 *   reached through NICs, it adds g's share of its node's network ports: the
 *   sum of the ib (or ethernet) bandwidth out of every NIC of g's node,
 *   divided by the number of GPUs in that node (the figure when all GPUs of
 *   the node inject at once). "Node" is cr_dev.node; devices outside any
 *   template (node -1) form one node together.
 *
 * - bisection bandwidth: split the GPUs into halves A and B. With two or more
 *   nodes the split is node-aligned: A holds the GPUs of the first
 *   floor(N/2) nodes in order of their first GPU rank, B the rest. With one
 *   node, A is ranks 0 .. floor(n/2)-1 and B the rest. The bisection
 *   bandwidth is the smaller of the two one-way max-flows, A to B and B to
 *   A, from a super source joined to every GPU of one half to a super sink
 *   joined to every GPU of the other, over the links' per-direction
 *   capacities. GPUs forward no traffic (as in route.h) unless the topology
 *   sets "route.gpu_transit" to 1. Two max-flows (Dinic), so it stays fast for
 *   8,192 GPUs.
 *
 * - pair classes: GPU pairs (s, d), s != d, in the same node and in different
 *   nodes; for each, the min and max of cr_route_bw_Bps(s, d) over the pairs
 *   evaluated, and the same over the scale-up fabrics alone
 *   (cr_route_bw_kinds_Bps with CR_ROUTE_SCALEUP_KINDS: NVLink, XGMI, ICI;
 *   0 for a pair they do not join). With n <= CR_METRICS_FULL_MATRIX_MAX GPUs every ordered pair is
 *   evaluated and the full matrix is returned; above it a fixed sample is
 *   (first GPU of the first and last node to every GPU of its node; the
 *   first node's GPUs to those of the second, middle and last node), and
 *   the result says how many pairs were evaluated out of how many.
 */
#ifndef CR_TOPO_METRICS_H
#define CR_TOPO_METRICS_H

#include <stdbool.h>

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Above this many GPUs the pair matrix is sampled, not computed in full. */
#define CR_METRICS_FULL_MATRIX_MAX 16

/* Injection bandwidth of GPU rank r per fabric, bytes per second, indexed by
 * cr_link_kind (0 where r has no such fabric). t must be finalized.
 * Errors: CR_EINVAL for a bad rank, CR_ENOMEM. */
cr_status cr_metrics_injection(const cr_topo *t, int rank, double out_Bps[CR_LINK__COUNT]);

/* Min and max over all GPUs of the injection bandwidth per fabric. */
cr_status cr_metrics_injection_range(const cr_topo *t, double min_Bps[CR_LINK__COUNT],
                                     double max_Bps[CR_LINK__COUNT]);

typedef struct {
    double bw_Bps;     /* min(ab_Bps, ba_Bps) */
    double ab_Bps;     /* max-flow from half A to half B */
    double ba_Bps;     /* from B to A */
    int n_a, n_b;      /* GPUs in each half */
    bool node_aligned; /* split along node boundaries */
    int n_nodes;       /* distinct nodes holding GPUs */
} cr_bisection;

/* Bisection bandwidth as defined above. A topology with one GPU gives
 * bw_Bps 0 and n_a 0. Errors: CR_EINVAL (t not finalized), CR_ENOMEM. */
cr_status cr_metrics_bisection(const cr_topo *t, cr_bisection *out);

/* One switch model and the devices that use it. */
typedef struct {
    const char *name; /* the model's name (borrowed from t), or "(none)" */
    int spec;         /* index into t->switch_specs, -1 for switches without one */
    int count;        /* switch devices of this model */
    int generation;
    bool multicast, reduction;
    double reduce_Bps;     /* in-switch reduction throughput, 0 = port limited */
    int max_ports;         /* most links (sum of counts) on one such switch */
    double max_switch_Bps; /* most bandwidth out of one such switch */
    unsigned kinds;        /* bit (1u << cr_link_kind) for each link kind attached */
} cr_switch_summary;

/* One entry per switch model in use, in spec order, the spec-less last.
 * *out is malloc'ed (free()), *n its length (0 and NULL when the topology
 * has no switch). Errors: CR_ENOMEM. */
cr_status cr_metrics_switches(const cr_topo *t, cr_switch_summary **out, int *n);

typedef struct {
    long long pairs;     /* ordered pairs in the class */
    long long evaluated; /* of them, how many were routed */
    double min_Bps, max_Bps;
    double scaleup_min_Bps, scaleup_max_Bps; /* NVLink, XGMI, ICI links only */
} cr_pair_class;

typedef struct {
    cr_pair_class same_node, other_node;
    bool sampled;   /* fewer pairs evaluated than exist */
    int n;          /* GPUs */
    double *matrix; /* n x n, row = source rank, bytes per second, diagonal 0;
                       NULL when n > CR_METRICS_FULL_MATRIX_MAX */
} cr_pair_summary;

/* Bottleneck (max-flow) bandwidth by class of GPU pair, as defined above.
 * Release with cr_pair_summary_release. Errors: CR_ENOMEM. */
cr_status cr_metrics_pairs(const cr_topo *t, cr_pair_summary *out);

/* Frees what cr_metrics_pairs allocated; s may be zeroed or NULL. */
void cr_pair_summary_release(cr_pair_summary *s);

#ifdef __cplusplus
}
#endif

#endif
