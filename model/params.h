/* SPDX-License-Identifier: MIT */
/*
 * Model constants for collective predictions and transfer mechanisms: per
 * GPU generation defaults, each with its source, overridable by a topology's
 * <param key="..." value="..." source="..."/> entries.
 *
 * These feed predictions only. The bound (bound.h) uses peak capacities from
 * the topology and no constant from here.
 *
 * Efficiencies are fractions of a link's datasheet per-direction bandwidth
 * reached at large messages; size dependence comes from the latencies and
 * the half-efficiency message sizes (mech.h shows the formulas).
 */
#ifndef CR_PARAMS_H
#define CR_PARAMS_H

#include "coll.h"
#include "status.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GPU generation used to pick defaults. */
typedef enum {
    CR_GEN_OTHER = 0, /* pre-Ampere NVIDIA, AMD, TPU: Ampere-like defaults */
    CR_GEN_AMPERE,    /* sm80 */
    CR_GEN_HOPPER,    /* sm90 */
    CR_GEN_BLACKWELL, /* sm100 */
    CR_GEN__COUNT
} cr_gen;

/* Link classes as NCCL's latency tables distinguish them. */
typedef enum { CR_HW_NVLINK, CR_HW_PCI, CR_HW_NET, CR_HW__COUNT } cr_hw;

typedef struct {
    cr_gen gen;
    /* NCCL predictions */
    double proto_eff[CR_PROTO__COUNT]; /* of scale-up link bandwidth (NVLink/XGMI/ICI) */
    double pcie_eff;                   /* of PCIe link bandwidth */
    double shm_eff;                    /* through host memory (NCCL SHM), of the host path's rate */
    double net_eff;                    /* of NIC link bandwidth (IB/Ethernet) */
    double p2p_net_eff;                /* the same for point-to-point traffic across nodes
                                          (algo_direct.c); 0 = net_eff */
    double ll_net_eff;                 /* LL across nodes: of its NVLink share (host memory) */
    double nvls_eff;                   /* NVLS / multimem: of the GPU's ports to the switch */
    double tree_eff;      /* tree: of the rates above, inside and across nodes (1: those alone) */
    double ll_max_Bps;    /* LL protocol ceiling per GPU */
    double ll128_ch_Bps;  /* LL128 ceiling per channel */
    double simple_ch_Bps; /* Simple ceiling per channel */
    int nchannels;        /* NCCL channels at large sizes */
    int nccl_version;     /* the NCCL release whose choices are followed, 22809 = 2.28.9 */
    double ch_min_bytes[CR_PROTO__COUNT]; /* bytes per channel before NCCL adds a channel */
    double lat_scale;                     /* multiplies NCCL's latency tables (1 = as NCCL) */
    double ch_min_traffic_bytes;          /* NCCL's planner: traffic per channel at least */
    double simple_step_bytes;             /* Simple protocol: one FIFO step per channel */
    double ch_fill_Bps;  /* two ranks: one channel's rate through the first step (0: no fill) */
    double n2_lat_scale; /* two ranks: further multiplies NCCL's latency tables */
    double n2_lat_scale_ll128;  /* the same for LL128 (its own measured figure) */
    double n2_lat_scale_simple; /* the same for Simple (one process per GPU) */
    double n2_p2p_ll_lat_s;     /* two ranks: point-to-point latency under LL (0: NCCL's table) */
    double launch_gap_s;        /* host launch gap per extra GPU one thread drives (cr_coll_req
                                   ranks_per_process) */
    double ll_stream_Bps;       /* LL on scale-up links: data bytes per second one GPU moves through
                                   one memory stream (a load or store of an LL buffer or user
                                   buffer), all channels; 0: no such term */
    double ll_stream_tree_Bps;  /* the same for tree allreduce (0: ll_stream_Bps) */
    double ring2_ar_eff;        /* ring allreduce of two ranks on scale-up links, Simple */
    double ring2_agrs_eff;      /* ring allgather / reducescatter of two ranks, Simple */
    /* nccl-tests beyond two ranks of one node (doc/corpus.md, algo.c corpus_lat_s) */
    double op_fixed_s;     /* fixed cost per operation as nccl-tests times it */
    double op_fixed_net_s; /* added to op_fixed_s when the operation crosses nodes */
    double alpha_s[CR_HW__COUNT][CR_PROTO__COUNT]; /* one sequential step of a ring or tree, per
                                                      link class and protocol (0 for NVLink LL:
                                                      NCCL's latency tables as they are); a
                                                      tree's across nodes: alpha_tree_net_s */
    double chain_simple;                           /* the share of coll.alpha.nvlink.simple a
                                                      broadcast's or reduce's Simple chain hop
                                                      pays (one slice of a ring step's two) */
    double alpha_tree_net_s[CR_PROTO__COUNT];      /* one step of a tree across nodes, per protocol
                                                      (NCCL prices it apart from a ring's) */
    double nvls_alpha_s;   /* NVLS / NVLS tree inside a node, per operation */
    double nvls_loop_s;    /* NVLS allreduce, and the NVLS tree inside each node: each loop
                              of the kernel (every channel and head one chunk, algo.c
                              nvls_chunk_bytes) */
    double net_lat_s;      /* the network plugin's own latency per inter-node step (NCCL's
                              latencyInter; twice for Simple), a topology's figure */
    double p2p_peer_s[2];  /* point-to-point: per peer inside the node, per peer across nodes */
    double p2p_net_ch_Bps; /* point-to-point to another node: what one channel moves */
    double p2p_nvl_ch_Bps; /* point-to-point over NVLink: what one channel moves (0: no limit) */
    double p2p_nvl_direct_ch_Bps;        /* the same where NCCL writes into the receiver's buffer
                                            (one process, NCCL before 2.23; 0: as p2p_nvl_ch_Bps) */
    double msccl_lat_s[CR_PROTO__COUNT]; /* RCCL's MSCCL all-pairs allreduce: per operation */
    double msccl_eff;                    /* its rate: fraction of the scale-up links' peak */
    double net_eager_B;   /* the largest network message (wire bytes) the plugin sends eagerly */
    double net_rndv_s;    /* added to a network step whose message is larger (a rendezvous) */
    double host_op_s;     /* host enqueue per GPU per operation in a host-timed loop
                             (cr_coll_req host_loop) */
    double host_op_ch_s;  /* its part per work planned: a collective's channels, a
                             point-to-point operation's (peer, channel) pairs (NCCL
                             enqueue.cc; algo_p2p.c algo_host_works) */
    double host_op_p2p_s; /* its part per point-to-point call (ncclSend, ncclRecv; algo_p2p.c
                             algo_host_calls) */
    double ll_ch_Bps;     /* LL: data rate of one channel (all channels: up to ll_max_Bps) */
    /* custom kernels (ParallelKittens mechanisms) */
    double mech_eff[CR_MECH__COUNT];         /* at large messages, enough SMs */
    double mech_half_bytes[CR_MECH__COUNT];  /* message size reaching half of mech_eff */
    double mech_sat_sms[CR_MECH__COUNT];     /* SMs that saturate the link (0: none used) */
    double mech_launch_s[CR_MECH__COUNT];    /* launch / issue cost, once per operation */
    double mech_chunk_bytes[CR_MECH__COUNT]; /* bytes one SM moves before the link streams
                                                (pipeline fill; 0: none) */
    double mech_step_s;                      /* one cross-GPU synchronisation step */
    /* one rank: NCCL copies the buffer locally (out of place) */
    double local_eff;          /* of HBM peak, read + written bytes, NCCL's one-rank copy kernel */
    double local_launch_s;     /* its fixed device time */
    double local_p2p_eff;      /* alltoall/sendrecv to itself: NCCL's point-to-point copy */
    double local_p2p_launch_s; /* its fixed device time, Simple */
    double local_p2p_ll_launch_s; /* the same up to NCCL_P2P_LL_THRESHOLD (LL) */
    double local_l2_x;            /* L2-resident copy rate over HBM peak (buffers that fit in L2) */
} cr_params;

/* Fills p with the defaults for the generation of the topology's GPU rank
 * `rank` (its spec's arch), then applies every topology parameter whose key
 * is one of cr_params_key(i). Errors: CR_EINVAL when a topology parameter
 * with a known key has an invalid value (an efficiency outside (0, 1], a
 * negative size or latency), with the key and the valid range in d. */
cr_status cr_params_for_topo(const cr_topo *t, int rank, cr_params *p, cr_diag *d);

/* Defaults of one generation (no topology overrides). */
void cr_params_default(cr_gen gen, cr_params *p);

/* Generation of a GPU model: from arch (80, 90, 100 ...), vendor "nvidia". */
cr_gen cr_params_gen(const cr_gpu_spec *spec);

/* The i-th override key ("coll.eff.simple", "mech.ce.eff", ...), or NULL past
 * the end; *source (optional) receives the default's source text, *unit
 * (optional) its unit ("", "B/s", "B", "s"). Borrowed strings. */
const char *cr_params_key(int i, const char **source, const char **unit);

/* The value of key in p (after defaults and overrides). Errors:
 * CR_ENOTFOUND for an unknown key. */
cr_status cr_params_get(const cr_params *p, const char *key, double *out, cr_diag *d);

/* Sets key in p to value, as a topology parameter with that key would.
 * Errors: CR_ENOTFOUND for an unknown key, CR_EINVAL for a value outside the
 * key's valid range (both with the key in d); p is unchanged then. */
cr_status cr_params_set(cr_params *p, const char *key, double value, cr_diag *d);

/* Whether a topology's <param key value> names a parameter the model reads
 * (the table's, or one another module reads: ops.*, route.*,
 * coll.ceil.*) with a value it takes: value_unit the unit the value was
 * written with ("s", "B/s", "B", "FLOP/s", "FLOP"; "" for a plain number,
 * taken in SI base units), which must be the key's; a table key's value
 * in its range and, for a count, whole; a switch (route.gpu_transit,
 * route.pcie_p2p, sim.pxn) 0 or 1. Errors: CR_ENOTFOUND (an unknown key; d
 * suggests the nearest within three edits), CR_ERANGE. */
cr_status cr_params_check_topo_key(const char *key, double value, const char *value_unit,
                                   cr_diag *d);

#ifdef __cplusplus
}
#endif

#endif
