/* SPDX-License-Identifier: MIT */
/*
 * The CPU socket links of an imported NCCL dump (nccl_import_priv.h): what
 * a CPU's product brief gives its socket-to-socket links, chosen by the
 * vendor, family and model NCCL's dump names; and the form of a PCI bus
 * id. Apart from the importer's walk and build so that each stays a file
 * one reads whole.
 */
#include "nccl_import_priv.h"

#include <stdbool.h>
#include <string.h>

void cr_nccl_socket_link(const char *vendor, int familyid, int modelid, double *bw, int *count,
                         const char **src)
{
    if (strcmp(vendor, "GenuineIntel") == 0) {
        int m = modelid;
        if (familyid == 6 && (m == 0xAD || m == 0xAE || m == 0xAF)) {
            /* Xeon 6 (Granite Rapids 0xAD/0xAE, Sierra Forest 0xAF): the
             * 6900 series has 6 links at 24 GT/s, the 6700 series 4; the
             * larger is taken, as a bound needs. */
            *bw = 48e9; /* UPI 2.0 24 GT/s x 2 bytes per transfer */
            *count = 6;
            *src = "Intel Xeon 6900-series product brief: 6 UPI 2.0 links at 24GT/s, 48GB/s per "
                   "direction each (the 6700 series has 4)";
        } else if (familyid == 6 && m == 0xCF) {
            /* Emerald Rapids; NCCL tells it from Sapphire Rapids too
             * (NCCL_TOPO_CPU_MODEL_INTEL_ERP, modelid >= 0xCF, src/graph/topo.cc) */
            *bw = 40e9; /* UPI 2.0 20 GT/s x 2 bytes per transfer */
            *count = 4;
            *src = "Intel Xeon 5th gen (Emerald Rapids) product brief: 4 UPI 2.0 links at 20GT/s, "
                   "40GB/s per direction each (2 bytes per transfer)";
        } else if (familyid == 6 && m >= 0x8F) {
            *bw = 32e9; /* UPI 2.0 16 GT/s x 2 bytes per transfer */
            *count = 4;
            *src = "Intel Xeon 4th gen (Sapphire Rapids) product brief: 4 UPI 2.0 links at "
                   "16GT/s, 32GB/s per direction each (2 bytes per transfer)";
        } else if (familyid == 6 && (m == 0x6A || m == 0x6C)) {
            *bw = 22.4e9; /* UPI 11.2 GT/s */
            *count = 3;
            *src = "Intel Xeon 3rd gen (Ice Lake) product brief: 3 UPI links at 11.2GT/s, "
                   "22.4GB/s per direction each";
        } else {
            *bw = 20.8e9; /* UPI 10.4 GT/s */
            *count = 3;
            *src = "Intel Xeon Scalable (Skylake/Cascade Lake) product brief: 3 UPI links at "
                   "10.4GT/s, 20.8GB/s per direction each";
        }
    } else if (strcmp(vendor, "AuthenticAMD") == 0) {
        /* familyid is the CPUID family (25 = Zen 3/4) or, in dumps from older
         * NCCL, 0x8F/0xAF/0xBF (ncclTopoAddCpu). */
        bool zen4plus = familyid == 26 || familyid == 0xBF ||
                        ((familyid == 25 || familyid == 0xAF) && modelid >= 0x10);
        *count = 4;
        if (zen4plus) {
            *bw = 64e9; /* xGMI3 x16 at 32 Gb/s per lane */
            *src = "AMD EPYC 9004 (Genoa) platform: 4 xGMI3 x16 links at 32Gb/s per lane, "
                   "64GB/s per direction each";
        } else {
            *bw = 36e9; /* xGMI2 x16 at 18 Gb/s per lane */
            *src = "AMD EPYC 7002/7003 platform: 4 xGMI2 x16 links at 18Gb/s per lane, "
                   "36GB/s per direction each";
        }
    } else {
        *bw = 64e9;
        *count = 1;
        *src = "unknown CPU vendor: socket link figure is a placeholder (64GB/s), not a "
               "datasheet figure";
    }
}

bool cr_nccl_is_busid(const char *s)
{
    size_t n = strlen(s);
    if (n < 7 || n > 16)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789abcdefABCDEF:.", s[i]))
            return false;
    return true;
}
