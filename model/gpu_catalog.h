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
    int arch;                        /* NVIDIA SM version x10 (90 = Hopper), 0 otherwise */
    double peak_flops[CR_DT__COUNT]; /* dense peak FLOP/s; 0 = not supported / not published */
    double hbm_bytes, hbm_Bps, l2_bytes;
    double l2_Bps;              /* L2 bytes read plus written per second at most; 0 = unknown */
    double llc_bytes, llc_Bps;  /* memory-side last-level cache (MI300X Infinity Cache) */
    int sms;                    /* SMs (NVIDIA) or CUs (AMD) */
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

/* The entry with that PCI vendor and device id, or NULL. */
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

/* Adds e's figures to t as a GPU model named e->name, or finds the model of
 * that name already there. Returns the gpu_specs index, or -1 when
 * allocation fails. */
int cr_gpu_catalog_add_spec(cr_topo *t, const cr_gpu_catalog_entry *e);

#ifdef __cplusplus
}
#endif

#endif
