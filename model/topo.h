/* SPDX-License-Identifier: MIT */
/*
 * The topology graph: GPUs, switches, CPUs, PCIe switches and NICs joined by
 * links, plus the figures the model needs (peaks, measured ceilings,
 * transfer-mechanism parameters).
 *
 * The struct is public and read-only for consumers (model, sim, CLI); change
 * it only through the builder functions below, then call cr_topo_finalize().
 * Node templates are expanded at load time: a 1,024-node cluster holds every
 * device and link, so queries never special-case replication; each device
 * records the node it came from.
 *
 * Units: bytes, seconds, bytes per second, FLOP per second (see units.h).
 */
#ifndef CR_TOPO_H
#define CR_TOPO_H

#include <stdbool.h>

#include "dtype.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most GPUs a topology may hold: four times a 65,536-GPU cluster (the
 * largest shipped, h100-ib-1024n, has 8,192). Loading stays bounded well
 * past it (a million GPUs on one switch loaded in 2 s and 183 MB), but
 * what runs on a topology grows faster than its size: the simulator's route
 * searches scan every port of a switch (flowsim.h, CR_SIM_ROUTE_WORK_MAX)
 * and the closed forms walk every rank. The loader and cr_topo_check refuse
 * more with CR_TOPO_MAX_GPUS_MSG. */
/* The least figures a topology may carry (cr_topo_check, and the XML
 * loader at the attribute): below them a figure is a unit typo (8 Mb/s for
 * 8 Gb/s), and near 0 the model's times overflow to infinity (issue 13 item
 * 8: a peak of 1e-300FLOP/s made every bound infinite). */
#define CR_TOPO_MIN_BPS 1e6   /* 1MB/s: a link, HBM */
#define CR_TOPO_MIN_FLOPS 1e6 /* 1MFLOP/s: a peak or measured FLOP/s that is given */
#define CR_TOPO_MIN_BYTES 1e3 /* 1kB: HBM, a cache */

#define CR_TOPO_MAX_GPUS 262144
#define CR_TOPO_MAX_GPUS_MSG                                                                       \
    "more than %d GPUs, the most a topology may hold; to study a larger cluster, describe a "      \
    "slice of it (fewer nodes on the same fabric)"

typedef enum {
    CR_DEV_GPU,
    CR_DEV_SWITCH, /* NVSwitch, NVLink switch tray chip, IB/Ethernet switch, ICI router */
    CR_DEV_CPU,    /* a CPU socket (root complex) */
    CR_DEV_PCISW,  /* a PCIe switch */
    CR_DEV_NIC,
    CR_DEV__COUNT
} cr_dev_kind;

/* A CPU's vendor (cr_dev.spec of a CPU): NCCL lets GPUs use PCIe peer
 * access across CPUs only on AMD (route.h cr_route_pcie_peers). */
typedef enum { CR_CPU_INTEL, CR_CPU_AMD, CR_CPU_ARM, CR_CPU__COUNT } cr_cpu_vendor;

typedef enum {
    CR_LINK_NVLINK,
    CR_LINK_PCIE,
    CR_LINK_IB,
    CR_LINK_ETHERNET,
    CR_LINK_XGMI,
    CR_LINK_ICI,
    CR_LINK_C2C, /* NVLink-C2C or a socket-to-socket link (UPI, xGMI between CPUs) */
    CR_LINK__COUNT
} cr_link_kind;

/* Figures of one GPU model, shared by every GPU of that model. */
typedef struct {
    char *name;                            /* "H200-SXM" */
    char *vendor;                          /* "nvidia", "amd", "google" */
    int arch;                              /* NVIDIA SM version x10 (90 = Hopper); 0 otherwise */
    double peak_flops[CR_DT__COUNT];       /* dense peak, FLOP/s; 0 = not supported */
    double hbm_bytes;                      /* capacity */
    double hbm_Bps;                        /* peak bandwidth */
    double l2_bytes;                       /* on-chip cache (NVIDIA L2; AMD: the L2s of all dies) */
    double l2_Bps;                         /* its bandwidth, bytes read plus written per second; 0 =
                                              unknown (doc/bounds.md 1.4: warm and cold) */
    double llc_bytes, llc_Bps;             /* a memory-side last-level cache (MI300X Infinity Cache)
                                              between the L2 and HBM; 0 = none / unknown */
    int sms;                               /* SMs (or CUs) */
    double clock_hz;                       /* boost clock, 0 if unknown */
    double meas_flops[CR_DT__COUNT];       /* measured ceilings (calibrate); 0 = absent */
    double meas_hbm_Bps;                   /* measured copy bandwidth; 0 = absent */
    double meas_l2_Bps;                    /* measured L2-resident stream bandwidth; 0 = absent */
    char *source;                          /* where the figures come from */
    char *meas_source;                     /* where meas_hbm_Bps and meas_l2_Bps (<measured>) come
                                              from, NULL unsaid */
    char *meas_flops_source[CR_DT__COUNT]; /* where each meas_flops figure (<measured-flops>)
                                              comes from, NULL unsaid: a calibration that
                                              measured some types keeps the others' origins */
} cr_gpu_spec;

/* Figures of one switch model. */
typedef struct {
    char *name;        /* "nvswitch3", "quantum2" */
    int generation;    /* NVSwitch generation, 0 for others */
    bool multicast;    /* can replicate one write to many ports (NVLS, SHARP) */
    bool reduction;    /* can reduce in the switch (NVLS, SHARP) */
    double reduce_Bps; /* in-switch reduction throughput per chip, 0 = port limited */
    char *source;
} cr_switch_spec;

typedef struct {
    cr_dev_kind kind;
    char *id;        /* unique in the topology, e.g. "n12.gpu3" */
    int node;        /* node (template replica) index, -1 for fabric devices */
    int spec;        /* index into gpu_specs / switch_specs; for a CPU its vendor
                        (cr_cpu_vendor); -1 for others and where unstated */
    int gpu_rank;    /* dense GPU number 0..n_gpus-1 for GPUs, -1 otherwise */
    double port_Bps; /* a NIC's network port speed per direction (<nic port-bw>), 0 =
                        unstated; no network link of the NIC may be faster */
} cr_dev;

/* A bundle of `count` identical full-duplex links between devices a and b.
 * bw_ab_Bps is one link's bandwidth from a to b, bw_ba_Bps from b to a. */
typedef struct {
    int a, b;
    cr_link_kind kind;
    double bw_ab_Bps, bw_ba_Bps;
    int count;
    double lat_s; /* one-way latency of one hop */
} cr_link;

/* A named model parameter with its source ("coll.eff.simple" = 0.815; the
 * keys and their ranges: model/params.c, doc/topology-format.md). */
typedef struct {
    char *key;
    double value;
    char *source;
} cr_param;

typedef struct cr_topo {
    char *name;
    char *description;
    char *source;

    cr_gpu_spec *gpu_specs;
    int n_gpu_specs;
    cr_switch_spec *switch_specs;
    int n_switch_specs;

    cr_dev *devs;
    int n_devs;
    cr_link *links;
    int n_links;
    cr_param *params;
    int n_params;

    int n_nodes; /* number of node replicas (0 if none) */

    /* Built by cr_topo_finalize(). */
    int *gpus; /* gpus[r] = device index of GPU rank r */
    int n_gpus;
    int *adj_off; /* links touching device v: adj[adj_off[v] .. adj_off[v+1]) */
    int *adj;
    bool finalized;

    struct cr_topo_priv *priv; /* id index, capacities, deferred errors */
} cr_topo;

/* Returns a new empty topology, or NULL on allocation failure.
 * Free with cr_topo_free(). */
cr_topo *cr_topo_new(const char *name);

/* Frees t and everything it owns. cr_topo_free(NULL) is a no-op. */
void cr_topo_free(cr_topo *t);

/* Sets a descriptive string (copied). Returns CR_ENOMEM on failure. */
cr_status cr_topo_set_description(cr_topo *t, const char *description);
cr_status cr_topo_set_source(cr_topo *t, const char *source);

/* Adds a GPU or switch model (deep-copied). Returns its index, or -1 when
 * allocation fails. */
int cr_topo_add_gpu_spec(cr_topo *t, const cr_gpu_spec *spec);
int cr_topo_add_switch_spec(cr_topo *t, const cr_switch_spec *spec);

/* Index of the GPU/switch model with that name, or -1. */
int cr_topo_find_gpu_spec(const cr_topo *t, const char *name);
int cr_topo_find_switch_spec(const cr_topo *t, const char *name);

/* Adds a device. spec is a gpu_specs index for GPUs, a switch_specs index
 * for switches, -1 for others. Returns the device index, -1 on allocation
 * failure, for a NULL id, or when id is already taken (cr_topo_check then
 * reports a taken id: use cr_topo_find_dev first to give a precise
 * message). A kind outside cr_dev_kind is reported by cr_topo_check. */
int cr_topo_add_dev(cr_topo *t, cr_dev_kind kind, const char *id, int node, int spec);

/* Device index for id, or -1 (also for a NULL id). O(1). */
int cr_topo_find_dev(const cr_topo *t, const char *id);

/* Adds a link bundle between devices a and b. Returns its index or -1 on
 * allocation failure. Values are checked by cr_topo_check(). */
int cr_topo_add_link(cr_topo *t, int a, int b, cr_link_kind kind, double bw_ab_Bps,
                     double bw_ba_Bps, int count, double lat_s);

/* Sets (or replaces) a parameter; source may be NULL, key may not (CR_EINVAL). */
cr_status cr_topo_set_param(cr_topo *t, const char *key, double value, const char *source);

/* The parameter's value, or fallback when the topology does not set it. */
double cr_topo_param(const cr_topo *t, const char *key, double fallback);

/* The parameter entry or NULL (borrowed). */
const cr_param *cr_topo_find_param(const cr_topo *t, const char *key);

/* Builds the GPU rank list and the adjacency arrays. Call after the last
 * add; adding later un-finalizes. Errors: CR_ENOMEM. */
cr_status cr_topo_finalize(cr_topo *t);

/* Checks the invariants: at least one GPU; unique ids; link ends exist and
 * differ; positive, finite bandwidths, counts and non-negative latencies;
 * positive finite GPU capacities; no two bundles between the same pair of
 * the same kind (merge them with count); every GPU reaches every other;
 * device and link kinds within their enums, every GPU with a model, a
 * switch's model and a CPU's vendor (cr_cpu_vendor, or -1) ones that exist.
 * Finalizes t if needed. Errors: CR_EINVARIANT with the first problem in d. */
cr_status cr_topo_check(cr_topo *t, cr_diag *d);

/* Total bandwidth of link l leaving device `from` (count x per-link). */
double cr_link_bw_from(const cr_link *l, int from);

/* The other end of link l seen from device v. */
int cr_link_other(const cr_link *l, int v);

/* Names for enum values ("gpu", "nvlink") and their inverses (-1 if unknown). */
const char *cr_dev_kind_name(cr_dev_kind k);
const char *cr_link_kind_name(cr_link_kind k);
int cr_dev_kind_parse(const char *name);
int cr_link_kind_parse(const char *name);
const char *cr_cpu_vendor_name(cr_cpu_vendor v);
int cr_cpu_vendor_parse(const char *name);

/* Compares two topologies device by device, link by link, spec by spec and
 * parameter by parameter (exact doubles). Returns true when identical;
 * otherwise false with the first difference in d. */
bool cr_topo_equal(const cr_topo *a, const cr_topo *b, cr_diag *d);

/* Convenience: the GPU model of GPU rank r (borrowed); NULL for a rank
 * outside 0..n_gpus-1 (or a GPU without a model). */
const cr_gpu_spec *cr_topo_gpu_spec(const cr_topo *t, int rank);

#ifdef __cplusplus
}
#endif

#endif
