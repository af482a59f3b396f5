/* SPDX-License-Identifier: MIT */
/*
 * Cuts of a topology around a rank set, with their capacities, and the
 * bytes each collective's semantics force across a cut. doc/bounds.md
 * derives every formula; coll.h combines them into the bound.
 *
 * A cut is a set of devices (one GPU; a node; a PCIe switch with the GPUs
 * and NICs under it; a CPU socket with its PCIe tree; one half of the
 * ranks, with the fabric split by a max-flow min-cut). Its capacity is the
 * sum of the link bandwidths leaving (out) or entering (in) the set, which
 * is what any traffic between the inside and the outside must cross.
 * Capacities are computed once per (topology, rank set): evaluating a size
 * costs O(number of cuts), never a graph search.
 */
#ifndef CR_BOUND_H
#define CR_BOUND_H

#include <stdbool.h>

#include "coll.h"
#include "params.h"
#include "rankset.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CR_CUT_GPU,       /* one GPU's ports, every fabric together */
    CR_CUT_PCISW,     /* a PCIe switch and the GPUs/NICs under it */
    CR_CUT_SOCKET,    /* a CPU socket with its PCIe tree */
    CR_CUT_NODE,      /* one node: its NICs (and any other link leaving it) */
    CR_CUT_DOMAIN,    /* GPUs outside every node joined by links that are not network
                         links (a torus slice, a mesh), with the devices between them */
    CR_CUT_LEAF,      /* nodes behind the same network switches, with those switches */
    CR_CUT_POD,       /* leaf groups whose switches reach the same further switches */
    CR_CUT_BISECTION, /* first half of the ranks against the second */
    CR_CUT__COUNT
} cr_cut_kind;

typedef struct {
    cr_cut_kind kind;
    int k;                  /* member ranks inside */
    double out_Bps, in_Bps; /* capacity of the links leaving / entering */
    int ring_out, ring_in;  /* rank-order ring edges i -> i+1 (mod n) leaving / entering */
    cr_hw hw;               /* class of the dominant crossing links */
    double hw_out_Bps;      /* the part of out_Bps on that class (rest: other classes) */
    int id;                 /* GPU rank, node, device index (a domain: its first GPU's),
                               or -1 (bisection) */
    char name[40];          /* the instance as users read it: "gpu 3", "node 12", a device id */
} cr_cut;

/* The cuts of one (topology, rank set). */
typedef struct {
    int n; /* ranks */
    cr_cut *cuts;
    int n_cuts;
    int *classes;     /* one representative cut per distinct (kind, k, capacities,
                         ring crossings, hw): evaluations loop over these */
    int *class_count; /* cuts in each class */
    int n_classes;
    double agg_out_Bps[CR_CUT__COUNT], agg_in_Bps[CR_CUT__COUNT]; /* sums over a kind */
    int agg_m[CR_CUT__COUNT];                                     /* cuts of that kind */
    int agg_covered[CR_CUT__COUNT]; /* ranks inside some cut of that kind */
    int *member_cut;                /* [i * CR_CUT__COUNT + kind]: cut of that kind holding
                                       communicator rank i, or -1 */
    int n_member_nodes;             /* nodes holding ranks (1 when the topology has no nodes) */
    bool agg_ok[CR_CUT__COUNT];     /* the counting argument holds at this level even with the
                                       topology's in-switch reduction (no reducer outside) */
    bool reducer;                   /* some switch usable by the ranks reduces in-network */
    bool multicaster;               /* some switch replicates writes (multicast): the counting
                                       argument then holds for bytes into groups only */
    double *hbm_Bps;                /* [i]: HBM bandwidth of communicator rank i */
    double *l2_bytes;               /* [i]: its L2 capacity (bytes that may stay on chip) */
    cr_gpu_spec *gspec;             /* [i]: its GPU model's figures (strings borrowed from the
                                       topology; zeroed where the rank has none) */
    int n_mem;                      /* memory classes: ranks of one GPU model (so of equal
                                       gspec, hbm_Bps and l2_bytes) */
    int *mem_of;                    /* [i]: class of rank i */
    int *mem_first, *mem_second;    /* [q]: lowest and next lowest rank of class q (-1: none);
                                       the memory term evaluates these, not every rank */
    double lat_cut_s;               /* latency any byte crossing a GPU's ports still needs */
    double *lat0_s;                 /* [i]: path latency from rank 0 to rank i */
    double lat_ecc0_s;              /* max over i of lat0_s[i] */
    double *lat0_peer_s;            /* [i]: rank 0 to rank i as NCCL's peer transport goes:
                                       over scale-up links alone where they join the two
                                       (never through a CPU), else lat0_s[i] */
    /* what a rooted collective's bound needs to search the latencies from
     * its root (doc/bounds.md 1.5), and the memo of what it found: bound.c's
     * alone */
    struct cr_cuts_roots *roots;
} cr_cuts;

/* Builds the cuts of topo around ranks (NULL = all). Errors: CR_EINVAL
 * (an empty set or a rank out of range), CR_ENOMEM. Free with
 * cr_cuts_free. */
cr_status cr_cuts_build(const cr_topo *topo, const cr_rankset *ranks, cr_cuts **out, cr_diag *d);

/* Frees c; NULL is a no-op. */
void cr_cuts_free(cr_cuts *c);

/* Name of a cut kind as the bound reports it ("gpu-ports", "pcie-switch",
 * "socket", "node-nics", "bisection"). */
const char *cr_cut_kind_name(cr_cut_kind k);

/* Bytes the semantics of coll force out of and into a cut holding k of n
 * ranks (root_inside says whether the root is among them; ring_out/ring_in
 * are the sendrecv edges crossing), for nccl-tests size `bytes`. Valid for
 * any algorithm, with or without in-network reduction. */
void cr_cut_forced_bytes(cr_coll coll, double bytes, int n, int k, bool root_inside, int ring_out,
                         int ring_in, double *out_bytes, double *in_bytes);

/* HBM bytes a rank must read plus write (root: whether it is the root), for
 * out-of-place buffers as nccl-tests times them. One rank (n = 1): its
 * send buffer is copied to its receive buffer, 2 x bytes for every
 * collective (doc/bounds.md 1.4). The bound subtracts what the rank's L2
 * can hold (data left there by the previous call need not touch HBM). */
double cr_coll_hbm_bytes(cr_coll coll, double bytes, int n, bool root);

/* The memory term of a bound: the least time to read plus write `bytes`
 * (distinct data, counted as the HBM traffic of a cold run) on GPU model g
 * (doc/bounds.md 1.4, warm and cold).
 *   cold: bytes / HBM peak (every byte starts in, or must reach, HBM);
 *   warm: up to the caches' capacity may stay on chip between iterations,
 *         so max over levels of (bytes not held by the levels above it) /
 *         (that level's bandwidth): bytes / l2_Bps, (bytes - l2) / llc_Bps,
 *         (bytes - l2 - llc) / hbm_Bps; a level of unknown bandwidth gives
 *         no term (loose but true).
 * hbm_Bps overrides g's HBM bandwidth when > 0 (measured ceilings). *level
 * (optional) names the level that sets it: "hbm", "l2" or "llc". */
double cr_mem_floor_s(const cr_gpu_spec *g, double bytes, bool cold, double hbm_Bps,
                      const char **level);

/* Evaluates the bound (see coll.h cr_coll_bound). rq->bytes must be finite
 * and >= 0, rq->root in range (checked by the caller). */
void cr_bound_eval(const cr_cuts *c, const cr_coll_req *rq, cr_coll_bound *out);

/* The same bound with every cut's capacity multiplied by hw_frac[cut's link
 * class] (fractions in (0, 1]: measured ceilings over datasheet peaks) and
 * the HBM bandwidth of the ranks of memory class q (c->mem_of) replaced by
 * hbm_Bps[q] (NULL: the peaks). Gives the attainable bound (doc/bounds.md
 * 1.6); hw_frac NULL is cr_bound_eval. */
void cr_bound_eval_scaled(const cr_cuts *c, const cr_coll_req *rq,
                          const double hw_frac[CR_HW__COUNT], const double *hbm_Bps,
                          cr_coll_bound *out);

#ifdef __cplusplus
}
#endif

#endif
