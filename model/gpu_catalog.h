/* SPDX-License-Identifier: MIT */
/*
 * Built-in catalog of GPU figures, keyed by PCI vendor/device id and SM
 * architecture: what the NCCL import (and any other reader that only knows
 * "sm=90, device 0x2335") needs to fill a cr_gpu_spec.
 *
 * Every figure is a datasheet peak (dense, no sparsity) in SI units, with its
 * source next to the number in gpu_catalog.c. PCI ids come from the PCI ID
 * repository (pciutils/pciids, pci.ids version 2026.08.22).
 */
#ifndef CR_GPU_CATALOG_H
#define CR_GPU_CATALOG_H

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One GPU product. Strings are static. */
typedef struct {
    const char *name;   /* commroof model name, e.g. "H200-SXM" */
    const char *vendor; /* "nvidia", "amd" */
    unsigned pci_vendor, pci_device;
    unsigned pci_device_alt;         /* a second PCI device id of the product, 0 = none */
    int arch;                        /* NVIDIA SM version x10 (90 = Hopper), 0 otherwise */
    const char *gcn;                 /* AMD LLVM target ("gfx942"), NULL for NVIDIA */
    double peak_flops[CR_DT__COUNT]; /* dense peak FLOP/s; 0 = not supported / not published */
    double hbm_bytes, hbm_Bps, l2_bytes;
    double l2_Bps;              /* L2 bytes read plus written per second at most; 0 = unknown */
    double llc_bytes, llc_Bps;  /* memory-side last-level cache (MI300X Infinity Cache) */
    int sms;                    /* SMs (NVIDIA) or CUs (AMD; of one GCD on MI200) */
    double clock_hz;            /* boost clock, 0 when not taken from a source */
    int scaleup_links;          /* NVLink / XGMI links per GPU, 0 = none */
    double scaleup_link_Bps;    /* one link, one direction */
    const char *scaleup_source; /* where the link figures come from */
    const char *source;         /* where the other figures come from */
} cr_gpu_catalog_entry;

/* Number of entries; entries are numbered 0..count-1. */
int cr_gpu_catalog_count(void);

/* The i-th entry (borrowed, static), or NULL when i is out of range. */
const cr_gpu_catalog_entry *cr_gpu_catalog_get(int i);

/* The entry with that PCI vendor and device id (its pci_device or
 * pci_device_alt), or NULL; the first such where products share an id (AMD
 * 0x740c: MI250X and MI250, told apart by CU count in
 * cr_gpu_catalog_lookup_amd). */
const cr_gpu_catalog_entry *cr_gpu_catalog_find_pci(unsigned pci_vendor, unsigned pci_device);

/* The entry with that commroof model name ("H100-SXM"), or NULL. */
const cr_gpu_catalog_entry *cr_gpu_catalog_find_name(const char *name);

/* Finds the figures of an NVIDIA GPU as NCCL reports it: sm (major x 10 +
 * minor, e.g. 90) and PCI device id (0 when unknown). The device id decides;
 * when it is unknown and exactly one catalog entry has that sm, that entry is
 * used. Errors: CR_ENOTFOUND with the known ids in d; CR_EINVAL when the
 * device id is known but its sm differs (a corrupt dump). */
cr_status cr_gpu_catalog_lookup(int sm, unsigned pci_device, const cr_gpu_catalog_entry **out,
                                cr_diag *d);

/* Finds the figures of an AMD GPU as RCCL reports it: the gcn attribute
 * ("gfx90a", the older numeric "910", or with feature flags
 * "gfx90a:sramecc+:xnack-"; NULL or "" when absent), its CU count (RCCL
 * writes it as sm), the PCI device id and subsystem device id (a virtual
 * function carries its board's id there). The device id decides, else the
 * subsystem id; where products share an id (0x740c: MI250X, 110 CUs per
 * GCD, and MI250, 104) the CU count picks one. A gcn that differs from the
 * entry's is CR_EINVAL (a corrupt dump); an id not in the catalog, or no
 * product of that id with that CU count, CR_ENOTFOUND naming the known
 * AMD ids. Each MI200 GCD is a GPU of its own (its own PCI function), and
 * so is each entry's figures: one GCD's. */
cr_status cr_gpu_catalog_lookup_amd(const char *gcn, int cus, unsigned pci_device,
                                    unsigned subsys_device, const cr_gpu_catalog_entry **out,
                                    cr_diag *d);

/* Normalizes an RCCL gcn attribute into buf: "910" -> "gfx90a", "908" ->
 * "gfx908" (RCCL's convertGcnArchToGcnArchName), feature flags after ':'
 * dropped. Writes at most size bytes, NUL included (size 0: nothing).
 * Returns buf. */
const char *cr_gpu_catalog_gcn_name(const char *gcn, char *buf, size_t size);

/* Adds e's figures to t as a GPU model named e->name, or finds the model of
 * that name already there. Returns the gpu_specs index, or -1 when
 * allocation fails. */
int cr_gpu_catalog_add_spec(cr_topo *t, const cr_gpu_catalog_entry *e);

#ifdef __cplusplus
}
#endif

#endif
