/* SPDX-License-Identifier: MIT */
/*
 * Import of NCCL's topology dump (the file NCCL writes when
 * NCCL_TOPO_DUMP_FILE is set): a user's real machine becomes a commroof
 * topology.
 *
 * The format is NCCL's own (NVIDIA/nccl src/graph/xml.cc writes it,
 * src/graph/topo.cc reads it): <system version="1"> holding <cpu numaid
 * affinity arch vendor familyid modelid> elements, each a tree of <pci busid
 * class vendor device link_speed link_width> elements; a PCI element holds a
 * <gpu dev sm rank gdr> with <nvlink target count tclass> and <c2c bw count>
 * children, or a <nic> with <net name dev speed port guid maxconn gdr> ports.
 *
 * What becomes what:
 *  - each <gpu> with a rank: a GPU "gpu<dev>", GPUs numbered in rank order,
 *    figures from the built-in catalog (gpu_catalog.h) by sm and PCI device;
 *  - <nvlink tclass="0x068000">: an NVSwitch. Every distinct target bus id
 *    is one switch chip (bare-metal HGX: four, with 4/5/5/4 links per GPU);
 *    a target naming no visible chip, "fffffff:ff:ff.0" (what NVML reports
 *    for switches the host cannot see: VMs, containers, HGX B200, NVL72
 *    compute trays) or NCCL's "fffffff:ffff:ff", is one switch
 *    "nvswitch.hidden" standing for all of them. Each link is the GPU generation's
 *    NVLink figure (25GB/s per direction for NVLink3/4, 50GB/s for NVLink5);
 *    <nvlink> to a GPU (tclass 0x03...) is a direct GPU-GPU bundle, to a CPU
 *    (0x068001) a GPU-CPU bundle;
 *  - <pci class="0x0604..">: a PCIe switch "pcisw.<busid>", kept only when a
 *    GPU or NIC sits below it; the link to the parent has the element's own
 *    link_speed x link_width, with 8b/10b (2.5, 5GT/s), 128b/130b (8-32GT/s)
 *    or FLIT 242/256 (64GT/s) encoding;
 *  - <cpu>: a CPU socket "cpu<numaid>"; sockets are joined pairwise by a c2c
 *    bundle with the vendor's socket-link figure (nccl_import.c names it);
 *  - <nic>: a NIC "nic.<name of its first port>"; its ports (Mb/s in the dump)
 *    join a switch "fabric.ib" (PCI class 0x0207, InfiniBand) or
 *    "fabric.ethernet" that stands for the network outside the host;
 *  - several hosts in one dump (NCCL fuses the topologies of an NVLink
 *    domain spanning hosts, MNNVL, e.g. GB200 NVL72 trays; one set of <cpu>
 *    per host_hash): each host is a node and its device ids get the prefix
 *    "h<host>."; the invisible NVLink switches are one switch shared by all
 *    hosts; sockets are joined within a host only.
 *
 *  - RCCL dumps (ROCm/rccl, <system version="2">): <gpu gcn="gfx942"> is an
 *    AMD GPU, found in the catalog by PCI device or, for a virtual function,
 *    subsystem_device (sm there is the CU count); <xgmi> to a GPU is an
 *    xgmi bundle of the catalog's Infinity Fabric figure;
 *  - a PCIe port reporting 2.5 GT/s x1 above faster devices (a VM's emulated
 *    port) carries the sum of the links below it; a GPU of known generation
 *    with no link_speed right under the CPU takes its datasheet interface;
 *  - refused with what to do: an NVLink naming its own GPU as peer (NVML in
 *    some VMs), a PCI layout for NCCL_TOPO_FILE with no <gpu> inside.
 *
 * Link latencies are not in the dump: imported links carry 0 (a bound stays
 * a bound; nothing is guessed).
 *
 * Safety as for commroof's own XML: no network, no entity substitution, any
 * DOCTYPE (hence any entity declaration) refused before parsing, input at
 * most CR_NCCL_IMPORT_MAX_BYTES, attribute values at most 255 characters
 * (NCCL's own MAX_STR_LEN). Unknown elements are errors; attributes commroof
 * does not need (affinity, guid, gdr, ...) are ignored, since NCCL adds new
 * ones from version to version.
 */
#ifndef CR_NCCL_IMPORT_H
#define CR_NCCL_IMPORT_H

#include <stddef.h>

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest dump accepted, bytes. A 72-GPU dump is about 100 KB. */
#define CR_NCCL_IMPORT_MAX_BYTES (16u * 1024u * 1024u)

/* Imports the dump at path. On success *out is a new, finalized topology
 * that passes cr_topo_check (free with cr_topo_free); on failure *out is
 * NULL and d reads "path:line: what is wrong, what would be right".
 * Errors: CR_EIO (unreadable), CR_ERANGE (too large), CR_EPARSE (not XML,
 * DOCTYPE, wrong root or version, unknown element, bad attribute),
 * CR_ENOTFOUND (GPU not in the catalog), CR_EINVARIANT (the result fails
 * the checker), CR_ENOMEM. */
cr_status cr_nccl_import_file(const char *path, cr_topo **out, cr_diag *d);

/* The same from a buffer of len bytes; origin names it in messages and
 * gives the topology its name (its base name without ".xml"); NULL:
 * "<memory>" in messages, the topology "nccl-import". */
cr_status cr_nccl_import_memory(const char *buf, size_t len, const char *origin, cr_topo **out,
                                cr_diag *d);

/* Per-direction bandwidth of one PCIe lane for a sysfs/NCCL link_speed text
 * ("32.0 GT/s PCIe", "16 GT/s", "8.0 GT/s"), in bytes per second, after
 * line encoding. Errors: CR_EPARSE when the text is not one of the PCIe
 * rates 2.5, 5, 8, 16, 32, 64 GT/s; CR_EINVAL for NULL. */
cr_status cr_nccl_pcie_lane_Bps(const char *link_speed, double *out);

#ifdef __cplusplus
}
#endif

#endif
