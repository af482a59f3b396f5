/* SPDX-License-Identifier: MIT */
/*
 * Internals of the NCCL dump import shared by its files (nccl_import.c,
 * nccl_import_cpu.c); nothing outside model/ includes this.
 */
#ifndef CR_NCCL_IMPORT_PRIV_H
#define CR_NCCL_IMPORT_PRIV_H

#include <stdbool.h>

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* The socket-to-socket link of a CPU as NCCL's dump names it (its vendor
 * string, CPUID family and model): per-link bandwidth per direction in
 * B/s (*bw), link count (*count) and the product brief it comes from
 * (*src, static). Figures from the link rates, not measurements; an
 * unknown vendor gets a placeholder that its source says is one. */
void cr_nccl_socket_link(const char *vendor, int familyid, int modelid, double *bw, int *count,
                         const char **src);

/* Whether s is a PCI bus id as sysfs and NCCL write it: "0000:05:00.0"
 * (hex digits, ':' and '.'), or NCCL's sentinel for a device NVML cannot
 * see. */
bool cr_nccl_is_busid(const char *s);

#pragma GCC visibility pop

#endif
