/* SPDX-License-Identifier: MIT */
/*
 * Topology generators (`commroof topo gen`): cluster topologies written as
 * topology XML (doc/topology-format.md) from a few parameters, the way the
 * shipped clusters are written: a single node's models and devices copied
 * verbatim as a <node-template> (every datasheet figure keeps its source),
 * <nodes count=...> to replicate it, and the format's fabric generators
 * (<rail-fabric>, <torus>) or brace-range <switch>/<link> elements for the
 * network. Every generated element names the generator and its parameters
 * in its source attribute, a command that reruns to the same text (the
 * oversubscription as the leaf's split in lowest terms, "5:3" or "3"). The
 * text loads with cr_topo_xml_load_memory() and passes cr_topo_check().
 *
 * Parameter errors are CR_EINVAL with d saying what is wrong and what is
 * accepted; a node topology that cannot be opened gives cr_topo_open()'s
 * error.
 */
#ifndef CR_TOPO_GEN_H
#define CR_TOPO_GEN_H

#include <stddef.h>

#include <stdbool.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `topo gen fat-tree`: nodes copies of a single-node topology, NIC nicR of
 * every node on rail R of a rail-optimised fat tree (rails = 1: a plain
 * fat tree on nic0). A leaf switch of leaf_radix ports gives d down ports
 * (one per node) and u up ports with d / u = oversub; spines and cores are
 * non-blocking switches of the same radix. 2 tiers: <rail-fabric>, every
 * leaf of a rail joined to every spine of that rail; 3 tiers: pods of
 * leaf_radix / 2 leaves and u spines per rail, cores joining spine j of
 * every pod (doc/topology-format.md, "Generating topologies"). */
/* Which leaves a spine joins: CR_TOPO_GEN_SPINES_RAIL, its own rail's only
 * (every rail a network of its own: a NIC reaches another rail only
 * through its node); SHARED, every rail's (a leaf per rail, spines joining
 * all leaves, as NVIDIA's DGX SuperPOD compute fabrics are built: "traffic
 * between nodes, or between rails, traverses the spine layer"); DEFAULT:
 * rail for fat-tree, shared for nvl. */
typedef enum {
    CR_TOPO_GEN_SPINES_DEFAULT = 0,
    CR_TOPO_GEN_SPINES_RAIL,
    CR_TOPO_GEN_SPINES_SHARED
} cr_topo_gen_spines;

typedef struct cr_topo_gen_fat_tree {
    int nodes;         /* >= 1 */
    const char *node;  /* shipped name or file: one <node-template>, one <nodes count="1"> */
    int rails;         /* 0: every NIC of the node (nic0, nic1, ...) */
    double nic_bw_Bps; /* per direction; 0: 400Gb/s (NDR) */
    int leaf_radix;    /* ports per switch; 0: 64 (Quantum-2 QM9700) */
    double oversub;    /* down:up ports of a leaf; 0: 1 (non-blocking) */
    int tiers;         /* 2 or 3; 0: 2 */
    cr_topo_gen_spines spines; /* shared: 2 tiers, every leaf of every rail joined to
                                  every spine; 3 tiers, the cores shared likewise */
    bool sharp; /* the network's switches reduce and multicast (InfiniBand SHARP): one
                   <switch-model> with both for every leaf, spine and core; false:
                   switches without a model, which do neither */
    /* oversub and nic_bw_Bps as the user typed them ("5:3", "62.5GB/s"), quoted
     * in messages; NULL: the numbers are written instead, to the digits that
     * give them back. Borrowed; the recorded command is written from the
     * plan, not from these. */
    const char *oversub_arg, *nic_bw_arg;
} cr_topo_gen_fat_tree;

/* `topo gen torus`: prod(dims) chips of one GPU model on a torus with
 * wrap-around (<torus>), route.gpu_transit = 1 (chips forward traffic). */
typedef struct cr_topo_gen_torus {
    const char *dims;   /* "4x4x4": 1 to 4 sizes of 1..1024 */
    const char *chip;   /* a <gpu-model> name of a shipped topology (any case); NULL: TPU-v5p */
    double link_bw_Bps; /* per link and direction; 0: the chip's shipped <torus> figure */
} cr_topo_gen_torus;

/* Writes the topology XML of a fat tree into *xml (NUL-terminated, *len
 * bytes without the NUL; free() it). Errors: CR_EINVAL (a parameter out of
 * range, with what is accepted), the node topology's load errors,
 * CR_ENOMEM. */
cr_status cr_topo_gen_fat_tree_xml(const cr_topo_gen_fat_tree *o, char **xml, size_t *len,
                                   cr_diag *d);

/* `topo gen nvl`: o->nodes racks of the rack topology o->node (NULL:
 * gb200-nvl72), each rack's nodes, devices and links copied under ids
 * "rK." (rack K: nodes rK.n0 ..., switches rK.nvsw0 ...), the NICs of all
 * racks' nodes joined by a fat tree as cr_topo_gen_fat_tree_xml() builds
 * it, counting nodes (trays) across racks in order. */
cr_status cr_topo_gen_nvl_xml(const cr_topo_gen_fat_tree *o, char **xml, size_t *len, cr_diag *d);

/* Same for a torus. */
cr_status cr_topo_gen_torus_xml(const cr_topo_gen_torus *o, char **xml, size_t *len, cr_diag *d);

#ifdef __cplusplus
}
#endif

#endif
