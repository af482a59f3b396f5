/* SPDX-License-Identifier: MIT */
/*
 * The built-in GPU catalog (see gpu_catalog.h).
 *
 * Datasheets list tensor-core figures "with sparsity"; the dense peak used
 * here is half of that. Capacities use the datasheet's decimal GB (1e9 bytes),
 * which is at or below the real capacity, and L2 sizes the whitepapers' MB,
 * which are MiB (cudaDeviceProp reports 40960 KiB for the A100's "40 MB").
 * PCI device ids: pci.ids from pciutils/pciids, version 2026.08.22.
 *
 * Documents (besides each product's datasheet / product page):
 * - NVIDIA Blackwell Architecture Technical Brief v2.1,
 *   https://resources.nvidia.com/en-us-blackwell-architecture (Table 2:
 *   GB300 NVL72 rack; Table 3: HGX B300 per GPU)
 * - NVIDIA "Inside NVIDIA Blackwell Ultra: The Chip Powering the AI Factory
 *   Era",
 * https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era
 * - AMD CDNA 2 architecture whitepaper,
 *   https://www.amd.com/content/dam/amd/en/documents/instinct-business-docs/white-papers/amd-cdna2-white-paper.pdf
 *   (Table 1: MI210/MI250/MI250X; endnotes: clocks, HBM, L2, links; MI100)
 * - ROCm "AMD Instinct MI250 microarchitecture" and "... MI100
 *   microarchitecture", https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi250.html
 *   and .../gpu-arch/mi100.html; ROCm "AMD GPU specifications",
 *   https://rocm.docs.amd.com/en/latest/reference/gpu-specs.html (CUs, L2,
 *   LLVM targets)
 *
 * AMD MI200 (MI250X, MI250): one OAM package holds two GCDs, and each GCD is
 * a PCI function and a GPU device of its own (ROCm "AMD Instinct MI250
 * microarchitecture": "two GCDs, each of which constitutes one GPU device in
 * the system"); RCCL dumps list one <gpu> per GCD. The entries here are per
 * GCD: the package's datasheet figures halved.
 */
#include "sbuf.h"
#include "gpu_catalog.h"

#include <stdio.h>
#include <string.h>

#define T 1e12
#define GB 1e9
#define MiB 1048576.0

/* L2 bandwidth: bytes read plus written per second that the L2 can serve
 * at most (doc/bounds.md 1.4, warm and cold). The A100 whitepaper gives L2
 * read bandwidth per clock (5120 B/clk, against 2048 B/clk for V100: "2.3x"
 * at the two boost clocks); writes are taken to have a path no wider, so
 * the ceiling is twice the read figure at the boost clock. NVIDIA publishes
 * no Hopper figure: Hopper takes the A100's width per clock (the widest
 * NVIDIA has published) at its own boost clock, 20.3 TB/s on an SXM part,
 * 3.1x the fastest L2-resident kernel measured on the H200 (6.5 TB/s,
 * traces/h200-1/cache-2026-12-02) and above the published Hopper L2
 * microbenchmarks (Chips and Cheese, "Nvidia's H100: Funny L2, and Tons of
 * Bandwidth", 2023, H100 PCIe). An assumption, not a datasheet figure: a
 * kernel measured faster than it is reported impossible, and the figure
 * must then rise. 0 = unknown (the warm bound then lets what fits in the
 * L2 cost nothing: loose but true). */
#define V100_L2_BPS (2 * 2048 * 1.53e9)         /* 6.27 TB/s */
#define A100_L2_BPS (2 * 5120 * 1.41e9)         /* 14.4 TB/s */
#define HOPPER_L2_BPS (2 * 5120 * 1.98e9)       /* 20.3 TB/s, SXM boost 1.98 GHz */
#define HOPPER_PCIE_L2_BPS (2 * 5120 * 1.755e9) /* 18.0 TB/s, PCIe boost 1.755 GHz */
/* Blackwell and Ada: the same rule, unverified like the L2 sizes beside
 * them (B200 boost clock 1.965 GHz third-party; L40S/L40 2.52 GHz from the
 * Ada whitepaper's AD102 boost). */
#define B200_L2_BPS (2 * 5120 * 1.965e9) /* 20.1 TB/s */
/* Blackwell Ultra: the same rule at 2.032 GHz, the B300 SXM6 AC boost clock
 * a third-party characterization reports (148 SMs, 126 MB L2 from the device;
 * its L2 traffic peaked at 13.3 TB/s), unverified; GB300 as B300. */
#define B300_L2_BPS (2 * 5120 * 2.032e9) /* 20.8 TB/s */
#define ADA_L2_BPS (2 * 5120 * 2.52e9)   /* 25.8 TB/s */
/* MI300X L2: 4 MB per XCD, 16 channels of 128 B/clk each (CDNA 3
 * whitepaper), 8 XCDs at 2.1 GHz, doubled for writes: 68.8 TB/s. */
#define MI300X_L2_BPS (2 * 8 * 16 * 128 * 2.1e9)
/* MI200 L2, per GCD: 32 slices of 128 B/clk at 1.7 GHz, "a peak of 6.96 TB/s"
 * of reads (AMD CDNA 2 whitepaper, endnote MI200-34), doubled for writes.
 * MI100: 3.07 TB/s of reads at 1.502 GHz (the same endnote), doubled. */
#define MI200_L2_BPS (2 * 32 * 128 * 1.7e9) /* 13.9 TB/s per GCD */
#define MI100_L2_BPS (2 * 3.07e12)          /* 6.14 TB/s */

/* NVLink per-link, per-direction figures. */
#define NVLINK2_BPS 25e9 /* V100 whitepaper: 6 links, 300 GB/s bidirectional */
#define NVLINK3_BPS 25e9 /* A100 whitepaper: 12 links, 600 GB/s bidirectional */
#define NVLINK4_BPS 25e9 /* Hopper whitepaper: 18 links, 900 GB/s bidirectional */
#define NVLINK5_BPS 50e9 /* NVIDIA Blackwell / HGX B200 page: 18 links, 1.8 TB/s bidirectional */
/* AMD Infinity Fabric per-link, per-direction figures. */
#define MI200_IF_BPS 50e9 /* CDNA 2 whitepaper: 100 GB/s per link bidirectional (25 GT/s x16) */
#define MI100_IF_BPS 46e9 /* CDNA 2 whitepaper: MI100 3 links, 276 GB/s (23 GT/s x16) */

static const cr_gpu_catalog_entry catalog[] = {
    {
        .name = "V100-SXM2-16GB",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x1db1, /* pci.ids: GV100GL [Tesla V100 SXM2 16GB] */
        .arch = 70,
        .peak_flops = {[CR_DT_FP64] = 7.8 * T, /* V100 datasheet, SXM2 */
                       [CR_DT_FP32] = 15.7 * T,
                       [CR_DT_FP16] = 125 * T}, /* tensor core */
        .hbm_bytes = 16 * GB,
        .hbm_Bps = 900 * GB, /* V100 datasheet */
        .l2_bytes = 6 * MiB, /* V100 whitepaper */
        .l2_Bps = V100_L2_BPS,
        .sms = 80,
        .clock_hz = 1.53e9, /* V100 whitepaper, SXM2 boost */
        .scaleup_links = 6,
        .scaleup_link_Bps = NVLINK2_BPS,
        .scaleup_source = "NVIDIA V100 whitepaper: 6 NVLink2 links, 25 GB/s per direction each",
        .source = "NVIDIA Tesla V100 datasheet (SXM2); NVIDIA Volta whitepaper (SMs, L2, clock)",
    },
    {
        .name = "V100-SXM2-32GB",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x1db5, /* pci.ids: GV100GL [Tesla V100 SXM2 32GB] */
        .arch = 70,
        .peak_flops = {[CR_DT_FP64] = 7.8 * T, [CR_DT_FP32] = 15.7 * T, [CR_DT_FP16] = 125 * T},
        .hbm_bytes = 32 * GB,
        .hbm_Bps = 900 * GB, /* V100 datasheet */
        .l2_bytes = 6 * MiB,
        .l2_Bps = V100_L2_BPS,
        .sms = 80,
        .clock_hz = 1.53e9,
        .scaleup_links = 6,
        .scaleup_link_Bps = NVLINK2_BPS,
        .scaleup_source = "NVIDIA V100 whitepaper: 6 NVLink2 links, 25 GB/s per direction each",
        .source = "NVIDIA Tesla V100 datasheet (SXM2); NVIDIA Volta whitepaper (SMs, L2, clock)",
    },
    {
        .name = "A100-SXM-40GB",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x20b0, /* pci.ids: GA100 [A100 SXM4 40GB] */
        .arch = 80,
        .peak_flops = {[CR_DT_FP64] = 19.5 * T, /* A100 datasheet: FP64 Tensor Core */
                       [CR_DT_FP32] = 19.5 * T,
                       [CR_DT_TF32] = 156 * T, /* 312 with sparsity */
                       [CR_DT_BF16] = 312 * T, /* 624 with sparsity */
                       [CR_DT_FP16] = 312 * T,
                       [CR_DT_INT8] = 624 * T}, /* 1248 TOPS with sparsity */
        .hbm_bytes = 40 * GB,
        .hbm_Bps = 1555 * GB, /* A100 datasheet, 40GB SXM */
        .l2_bytes = 40 * MiB, /* A100 whitepaper */
        .l2_Bps = A100_L2_BPS,
        .sms = 108,
        .clock_hz = 1.41e9, /* A100 whitepaper */
        .scaleup_links = 12,
        .scaleup_link_Bps = NVLINK3_BPS,
        .scaleup_source = "NVIDIA A100 whitepaper: 12 NVLink3 links, 25 GB/s per direction each",
        .source = "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 whitepaper (SMs, L2, clock)",
    },
    {
        .name = "A100-SXM-80GB",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x20b2, /* pci.ids: GA100 [A100 SXM4 80GB] */
        .arch = 80,
        .peak_flops = {[CR_DT_FP64] = 19.5 * T, /* A100 datasheet, as above */
                       [CR_DT_FP32] = 19.5 * T,
                       [CR_DT_TF32] = 156 * T,
                       [CR_DT_BF16] = 312 * T,
                       [CR_DT_FP16] = 312 * T,
                       [CR_DT_INT8] = 624 * T},
        .hbm_bytes = 80 * GB,
        .hbm_Bps = 2039 * GB, /* A100 datasheet, 80GB SXM */
        .l2_bytes = 40 * MiB,
        .l2_Bps = A100_L2_BPS,
        .sms = 108,
        .clock_hz = 1.41e9,
        .scaleup_links = 12,
        .scaleup_link_Bps = NVLINK3_BPS,
        .scaleup_source = "NVIDIA A100 whitepaper: 12 NVLink3 links, 25 GB/s per direction each",
        .source = "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 whitepaper (SMs, L2, clock)",
    },
    {
        .name = "A100-PCIe-40GB",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x20f1, /* pci.ids: GA100 [A100 PCIe 40GB] */
        .arch = 80,
        .peak_flops = {[CR_DT_FP64] = 19.5 * T, /* A100 datasheet: same peaks as SXM */
                       [CR_DT_FP32] = 19.5 * T,
                       [CR_DT_TF32] = 156 * T,
                       [CR_DT_BF16] = 312 * T,
                       [CR_DT_FP16] = 312 * T,
                       [CR_DT_INT8] = 624 * T},
        .hbm_bytes = 40 * GB,
        .hbm_Bps = 1555 * GB, /* A100 datasheet, 40GB PCIe */
        .l2_bytes = 40 * MiB,
        .l2_Bps = A100_L2_BPS,
        .sms = 108,
        .clock_hz = 1.41e9,
        .scaleup_links = 12,
        .scaleup_link_Bps = NVLINK3_BPS,
        .scaleup_source = "NVIDIA A100 datasheet: NVLink bridge for 2 GPUs, 600 GB/s "
                          "bidirectional (12 NVLink3 links)",
        .source = "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 whitepaper (SMs, L2, clock)",
    },
    {
        .name = "A100-PCIe-80GB",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x20b5, /* pci.ids: GA100 [A100 PCIe 80GB] */
        .arch = 80,
        .peak_flops = {[CR_DT_FP64] = 19.5 * T,
                       [CR_DT_FP32] = 19.5 * T,
                       [CR_DT_TF32] = 156 * T,
                       [CR_DT_BF16] = 312 * T,
                       [CR_DT_FP16] = 312 * T,
                       [CR_DT_INT8] = 624 * T},
        .hbm_bytes = 80 * GB,
        .hbm_Bps = 1935 * GB, /* A100 datasheet, 80GB PCIe */
        .l2_bytes = 40 * MiB,
        .l2_Bps = A100_L2_BPS,
        .sms = 108,
        .clock_hz = 1.41e9,
        .scaleup_links = 12,
        .scaleup_link_Bps = NVLINK3_BPS,
        .scaleup_source = "NVIDIA A100 datasheet: NVLink bridge for 2 GPUs, 600 GB/s "
                          "bidirectional (12 NVLink3 links)",
        .source = "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 whitepaper (SMs, L2, clock)",
    },
    {
        .name = "H100-SXM",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x2330, /* pci.ids: GH100 [H100 SXM5 80GB] */
        .arch = 90,
        .peak_flops = {[CR_DT_FP64] = 67 * T, /* H100 datasheet (SXM): FP64 Tensor Core */
                       [CR_DT_FP32] = 67 * T,
                       [CR_DT_TF32] = 494.5 * T, /* 989 with sparsity */
                       [CR_DT_BF16] = 989.5 * T, /* 1979 with sparsity, halved */
                       [CR_DT_FP16] = 989.5 * T,
                       [CR_DT_FP8] = 1979 * T,   /* 3958 with sparsity */
                       [CR_DT_INT8] = 1979 * T}, /* 3958 TOPS with sparsity */
        .hbm_bytes = 80 * GB,
        .hbm_Bps = 3350 * GB, /* H100 datasheet, SXM */
        .l2_bytes = 50 * MiB, /* Hopper whitepaper */
        .l2_Bps = HOPPER_L2_BPS,
        .sms = 132, /* Hopper whitepaper, H100 SXM5 */
        .scaleup_links = 18,
        .scaleup_link_Bps = NVLINK4_BPS,
        .scaleup_source = "NVIDIA Hopper whitepaper: 18 NVLink4 links, 25 GB/s per direction each",
        .source = "NVIDIA H100 Tensor Core GPU datasheet (SXM); NVIDIA Hopper whitepaper (SMs, L2)",
    },
    {
        .name = "H100-SXM-94GB",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x2339, /* pci.ids: GH100 [H100 SXM5 94GB] */
        .arch = 90,
        .peak_flops = {[CR_DT_FP64] = 67 * T, /* same die and clocks as H100 SXM (datasheet) */
                       [CR_DT_FP32] = 67 * T,
                       [CR_DT_TF32] = 494.5 * T,
                       [CR_DT_BF16] = 989.5 * T,
                       [CR_DT_FP16] = 989.5 * T,
                       [CR_DT_FP8] = 1979 * T,
                       [CR_DT_INT8] = 1979 * T},
        .hbm_bytes = 94 * GB,
        .hbm_Bps = 3350 * GB, /* unverified: taken as H100 SXM 80GB */
        .l2_bytes = 50 * MiB,
        .l2_Bps = HOPPER_L2_BPS,
        .sms = 132,
        .scaleup_links = 18,
        .scaleup_link_Bps = NVLINK4_BPS,
        .scaleup_source = "NVIDIA Hopper whitepaper: 18 NVLink4 links, 25 GB/s per direction each",
        .source = "as H100 SXM (NVIDIA H100 datasheet); 94 GB from pci.ids name; HBM bandwidth "
                  "unverified",
    },
    {
        .name = "H100-PCIe",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x2331, /* pci.ids: GH100 [H100 PCIe] */
        .arch = 90,
        .peak_flops = {[CR_DT_FP64] = 51 * T, /* H100 datasheet (PCIe): FP64 Tensor Core */
                       [CR_DT_FP32] = 51 * T,
                       [CR_DT_TF32] = 378 * T,   /* 756 with sparsity */
                       [CR_DT_BF16] = 756.5 * T, /* 1513 with sparsity */
                       [CR_DT_FP16] = 756.5 * T,
                       [CR_DT_FP8] = 1513 * T, /* 3026 with sparsity */
                       [CR_DT_INT8] = 1513 * T},
        .hbm_bytes = 80 * GB,
        .hbm_Bps = 2000 * GB, /* H100 datasheet, PCIe */
        .l2_bytes = 50 * MiB,
        .l2_Bps = HOPPER_PCIE_L2_BPS,
        .sms = 114, /* Hopper whitepaper, H100 PCIe */
        .scaleup_links = 12,
        .scaleup_link_Bps = NVLINK4_BPS,
        .scaleup_source = "NVIDIA H100 datasheet (PCIe): NVLink bridge 600 GB/s bidirectional "
                          "(12 NVLink4 links)",
        .source = "NVIDIA H100 Tensor Core GPU datasheet (PCIe); NVIDIA Hopper whitepaper (SMs)",
    },
    {
        .name = "H200-SXM",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x2335, /* pci.ids: GH100 [H200 SXM 141GB] */
        .arch = 90,
        .peak_flops = {[CR_DT_FP64] = 67 * T, /* H200 datasheet (SXM): FP64 Tensor Core */
                       [CR_DT_FP32] = 67 * T,
                       [CR_DT_TF32] = 494.5 * T, /* 989 with sparsity */
                       [CR_DT_BF16] = 989.5 * T, /* 1979 with sparsity, halved */
                       [CR_DT_FP16] = 989.5 * T,
                       [CR_DT_FP8] = 1979 * T,   /* 3958 with sparsity */
                       [CR_DT_INT8] = 1979 * T}, /* 3958 TOPS with sparsity */
        .hbm_bytes = 141 * GB,
        .hbm_Bps = 4800 * GB, /* H200 datasheet */
        /* cudaDeviceProp.l2CacheSize 62914560 on the H200 (traces/README.md) */
        .l2_bytes = 60 * MiB,
        .l2_Bps = HOPPER_L2_BPS,
        .sms = 132,
        .scaleup_links = 18,
        .scaleup_link_Bps = NVLINK4_BPS,
        .scaleup_source = "NVIDIA H200 datasheet: NVLink 900 GB/s bidirectional (18 NVLink4 "
                          "links, 25 GB/s per direction each, Hopper whitepaper)",
        .source = "NVIDIA H200 Tensor Core GPU datasheet (SXM); SMs as H100 SXM (Hopper "
                  "whitepaper); L2 60 MiB as the device reports it (cudaDeviceProp)",
    },
    {
        .name = "B200",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x2901, /* pci.ids: GB100 [B200] */
        .arch = 100,
        .peak_flops = {[CR_DT_FP64] = 40 * T, /* HGX B200 page: 320 TFLOP/s for 8 GPUs */
                       [CR_DT_FP32] = 80 * T, /* third-party (TechPowerUp B200 entry), unverified */
                       [CR_DT_TF32] = 1125 * T, /* HGX B200: 18 PFLOP/s sparse for 8, halved */
                       [CR_DT_BF16] = 2250 * T, /* HGX B200: 36 PFLOP/s sparse for 8, halved */
                       [CR_DT_FP16] = 2250 * T,
                       [CR_DT_FP8] = 4500 * T,  /* HGX B200: 72 PFLOP/s sparse for 8, halved */
                       [CR_DT_INT8] = 4500 * T, /* HGX B200: 72 POP/s sparse for 8, halved */
                       [CR_DT_FP4] = 9000 * T}, /* HGX B200: 144 PFLOP/s sparse for 8, halved */
        .hbm_bytes = 180 * GB,                  /* HGX B200: 1.44 TB for 8 GPUs */
        .hbm_Bps = 8000 * GB,                   /* HGX B200 page */
        .l2_bytes = 126 * MiB,                  /* third-party figure, unverified */
        .l2_Bps = B200_L2_BPS,
        .sms = 148, /* third-party figure */
        .scaleup_links = 18,
        .scaleup_link_Bps = NVLINK5_BPS,
        .scaleup_source = "NVIDIA HGX B200 page: NVLink5 1.8 TB/s bidirectional per GPU (18 "
                          "links, 50 GB/s per direction each)",
        .source = "NVIDIA HGX B200 / DGX B200 pages (per-GPU = 8-GPU figure / 8); SMs, L2 and "
                  "FP32 third-party",
    },
    {
        .name = "GB200",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x2941, /* pci.ids: GB100 [HGX GB200] */
        .arch = 100,
        .peak_flops = {[CR_DT_FP64] = 45 * T,   /* GB200 NVL72 page: 3240 TFLOP/s for 72 GPUs */
                       [CR_DT_FP32] = 80 * T,   /* third-party, as B200, unverified */
                       [CR_DT_TF32] = 1250 * T, /* NVL72: 180 PFLOP/s sparse for 72, halved */
                       [CR_DT_BF16] = 2500 * T, /* NVL72: 360 PFLOP/s sparse for 72, halved */
                       [CR_DT_FP16] = 2500 * T,
                       [CR_DT_FP8] = 5000 * T,   /* NVL72: 720 PFLOP/s sparse for 72, halved */
                       [CR_DT_INT8] = 5000 * T,  /* NVL72: 720 POP/s sparse for 72, halved */
                       [CR_DT_FP4] = 10000 * T}, /* NVL72: 1440 PFLOP/s sparse for 72, halved */
        .hbm_bytes = 186 * GB,                   /* NVL72: 13.4 TB for 72 GPUs */
        .hbm_Bps = 8000 * GB,                    /* NVL72: 576 TB/s for 72 GPUs */
        .l2_bytes = 126 * MiB,                   /* third-party, as B200, unverified */
        .l2_Bps = B200_L2_BPS,
        .sms = 148, /* third-party, as B200, unverified */
        .scaleup_links = 18,
        .scaleup_link_Bps = NVLINK5_BPS,
        .scaleup_source = "NVIDIA GB200 NVL72 page: NVLink5 1.8 TB/s bidirectional per GPU",
        .source = "NVIDIA GB200 NVL72 page (per-GPU = rack figure / 72); SMs, L2, FP32 "
                  "third-party",
    },
    {
        .name = "B300",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x3182, /* pci.ids: GB110 [B300 SXM6 AC] */
        .arch = 103,
        /* NVIDIA Blackwell Architecture Technical Brief v2.1 (resources.nvidia.com/
         * en-us-blackwell-architecture), Table 3, HGX B300 per GPU; NVIDIA HGX page
         * (nvidia.com/en-us/data-center/hgx), HGX B300 8-GPU column / 8. Blackwell
         * Ultra cuts FP64 and INT8 tensor throughput. */
        .peak_flops = {[CR_DT_FP64] = 1.25 * T, /* HGX B300: 10 TFLOP/s for 8 (brief: 1.2) */
                       [CR_DT_FP32] = 75 * T,   /* brief Table 3: 75 TFLOP/s; HGX: 600 for 8 */
                       [CR_DT_TF32] = 1125 * T, /* HGX B300: 18 PFLOP/s sparse for 8, halved */
                       [CR_DT_BF16] = 2250 * T, /* HGX B300: 36 PFLOP/s sparse for 8, halved */
                       [CR_DT_FP16] = 2250 * T,
                       [CR_DT_FP8] = 4500 * T, /* HGX B300: 72 PFLOP/s sparse for 8, halved */
                       [CR_DT_INT8] =
                           153.5 * T, /* per-GPU row: 307 TOPS sparse (brief: 0.3 POPS) */
                       [CR_DT_FP4] = 14000 * T}, /* brief Table 3: 14 PFLOP/s dense (18 sparse) */
        .hbm_bytes = 270 * GB,                   /* brief Table 3: 270 GB HBM3e per GPU */
        .hbm_Bps = 7700 * GB,                    /* brief Table 3: 7.7 TB/s */
        .l2_bytes = 126 * MiB,                   /* third-party (device-reported), unverified */
        .l2_Bps = B300_L2_BPS,
        .sms = 148, /* third-party (device-reported; 160 in the full die, NVIDIA blog) */
        .scaleup_links = 18,
        .scaleup_link_Bps = NVLINK5_BPS,
        .scaleup_source = "NVIDIA Blackwell Architecture Technical Brief v2.1 / HGX B300 page: "
                          "NVLink5 1.8 TB/s bidirectional per GPU (18 links, 50 GB/s per "
                          "direction each)",
        .source = "NVIDIA Blackwell Architecture Technical Brief v2.1, Table 3 (HGX B300 per "
                  "GPU); NVIDIA HGX B300 page (per-GPU = 8-GPU figure / 8); SMs and L2 "
                  "third-party",
    },
    {
        .name = "GB300",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x31c2,     /* pci.ids: GB110 [GB300] */
        .pci_device_alt = 0x31c3, /* pci.ids: GB110 [GB300] */
        .arch = 103,
        /* NVIDIA GB300 NVL72 page (nvidia.com/en-us/data-center/gb300-nvl72) and
         * Blackwell Architecture Technical Brief v2.1 Table 2: rack figures / 72;
         * higher clocks than HGX B300 (NVIDIA "Inside NVIDIA Blackwell Ultra"
         * blog: 15 PFLOP/s dense NVFP4 per GPU). */
        .peak_flops = {[CR_DT_FP64] = 100.0 / 72 * T, /* NVL72: 100 TFLOP/s for 72 GPUs */
                       [CR_DT_FP32] = 80 * T,   /* third-party (Verda GB300 article), unverified */
                       [CR_DT_TF32] = 1250 * T, /* NVL72: 180 PFLOP/s sparse for 72, halved */
                       [CR_DT_BF16] = 2500 * T, /* NVL72: 360 PFLOP/s sparse for 72, halved */
                       [CR_DT_FP16] = 2500 * T,
                       [CR_DT_FP8] = 5000 * T,           /* NVL72: 720 PFLOP/s sparse, halved */
                       [CR_DT_INT8] = 24000.0 / 144 * T, /* brief Table 2: 24 POPS sparse */
                       [CR_DT_FP4] = 15000 * T},         /* NVL72: 1080 PFLOP/s dense for 72 */
        .hbm_bytes = 279 * GB,                           /* brief: up to 279 GB HBM3e per GPU */
        .hbm_Bps = 8000 * GB,                            /* NVL72: 576 TB/s for 72 GPUs */
        .l2_bytes = 126 * MiB,                           /* as B300, unverified */
        .l2_Bps = B300_L2_BPS,
        .sms = 148, /* as B300, unverified */
        .scaleup_links = 18,
        .scaleup_link_Bps = NVLINK5_BPS,
        .scaleup_source = "NVIDIA GB300 NVL72 page: NVLink5 1.8 TB/s bidirectional per GPU (18 "
                          "links, 50 GB/s per direction each)",
        .source = "NVIDIA GB300 NVL72 page and Blackwell Architecture Technical Brief v2.1, "
                  "Table 2 (per-GPU = rack figure / 72); SMs, L2, FP32 third-party",
    },
    {
        .name = "L40S",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x26b9, /* pci.ids: AD102GL [L40S] */
        .arch = 89,
        .peak_flops = {[CR_DT_FP32] = 91.6 * T,   /* L40S datasheet; no FP64 figure published */
                       [CR_DT_TF32] = 183 * T,    /* 366 with sparsity */
                       [CR_DT_BF16] = 362.05 * T, /* 733 with sparsity */
                       [CR_DT_FP16] = 362.05 * T,
                       [CR_DT_FP8] = 733 * T,   /* 1466 with sparsity */
                       [CR_DT_INT8] = 733 * T}, /* 1466 TOPS with sparsity */
        .hbm_bytes = 48 * GB,                   /* GDDR6 with ECC */
        .hbm_Bps = 864 * GB,                    /* L40S datasheet */
        .l2_bytes = 96 * MiB,                   /* Ada whitepaper: AD102 L2 */
        .l2_Bps = ADA_L2_BPS,
        .sms = 142, /* L40S datasheet: 18,176 CUDA cores / 128 */
        .scaleup_source = "L40S has no NVLink (datasheet): PCIe Gen4 x16 only",
        .source = "NVIDIA L40S datasheet; NVIDIA Ada Lovelace whitepaper (L2)",
    },
    {
        .name = "L40",
        .vendor = "nvidia",
        .pci_vendor = 0x10de,
        .pci_device = 0x26b5, /* pci.ids: AD102GL [L40] */
        .arch = 89,
        .peak_flops = {[CR_DT_FP32] = 90.5 * T,   /* L40 datasheet */
                       [CR_DT_TF32] = 90.5 * T,   /* 181 with sparsity */
                       [CR_DT_BF16] = 181.05 * T, /* 362.1 with sparsity */
                       [CR_DT_FP16] = 181.05 * T,
                       [CR_DT_FP8] = 362 * T,   /* 724 with sparsity */
                       [CR_DT_INT8] = 362 * T}, /* 724 TOPS with sparsity */
        .hbm_bytes = 48 * GB,
        .hbm_Bps = 864 * GB, /* L40 datasheet */
        .l2_bytes = 96 * MiB,
        .l2_Bps = ADA_L2_BPS,
        .sms = 142, /* L40 datasheet: 18,176 CUDA cores / 128 */
        .scaleup_source = "L40 has no NVLink (datasheet)",
        .source = "NVIDIA L40 datasheet; NVIDIA Ada Lovelace whitepaper (L2)",
    },
    {
        .name = "MI300X",
        .vendor = "amd",
        .pci_vendor = 0x1002,
        .pci_device = 0x74a1, /* pci.ids: Aqua Vanjaram [Instinct MI300X] */
        .arch = 0,
        .gcn = "gfx942",                         /* ROCm GPU specifications: LLVM target */
        .peak_flops = {[CR_DT_FP64] = 163.4 * T, /* MI300X datasheet: FP64 matrix */
                       [CR_DT_FP32] = 163.4 * T,
                       [CR_DT_TF32] = 653.7 * T,
                       [CR_DT_BF16] = 1307.4 * T,
                       [CR_DT_FP16] = 1307.4 * T,
                       [CR_DT_FP8] = 2614.9 * T,
                       [CR_DT_INT8] = 2614.9 * T},
        .hbm_bytes = 192 * GB,
        .hbm_Bps = 5300 * GB, /* MI300X datasheet */
        .l2_bytes = 32 * MiB, /* CDNA 3 whitepaper: 4 MB L2 per XCD, 8 XCDs */
        .l2_Bps = MI300X_L2_BPS,
        .llc_bytes = 256 * MiB, /* MI300X datasheet: 256 MB Infinity Cache (memory side) */
        .llc_Bps = 17.2e12,     /* CDNA 3 whitepaper: Infinity Cache peak bandwidth */
        .sms = 304,             /* compute units */
        .scaleup_links = 7,
        .scaleup_link_Bps = 64e9,
        .scaleup_source = "AMD MI300X datasheet: 7 Infinity Fabric links, 64 GB/s per direction "
                          "each (128 GB/s bidirectional)",
        .source = "AMD Instinct MI300X datasheet",
    },
    {
        /* One GCD of the package (see the top of the file). */
        .name = "MI250X",
        .vendor = "amd",
        .pci_vendor = 0x1002,
        .pci_device = 0x7408,     /* pci.ids: Aldebaran/MI200 [Instinct MI250X] */
        .pci_device_alt = 0x740c, /* pci.ids: Aldebaran/MI200 [Instinct MI250X/MI250] */
        .arch = 0,
        .gcn = "gfx90a", /* ROCm GPU specifications: LLVM target */
        /* AMD CDNA 2 whitepaper, Table 1 (MI250X, 2 GCDs), halved */
        .peak_flops = {[CR_DT_FP64] = 95.7 / 2 * T, /* FP64 matrix 95.7 (vector 47.9) */
                       [CR_DT_FP32] = 95.7 / 2 * T, /* FP32 matrix / packed 95.7 (vector 47.9) */
                       [CR_DT_BF16] = 383.0 / 2 * T,
                       [CR_DT_FP16] = 383.0 / 2 * T,
                       [CR_DT_INT8] = 383.0 / 2 * T}, /* no TF32, FP8 on CDNA 2 */
        .hbm_bytes = 64 * GB,                         /* 128 GB HBM2e for 2 GCDs */
        .hbm_Bps = 3276.8 / 2 * GB, /* whitepaper MI200-30: 3.2768 TB/s for 2 GCDs */
        .l2_bytes = 8 * MiB,        /* whitepaper: 8 MB per GCD (ROCm specs: 8 MiB) */
        .l2_Bps = MI200_L2_BPS,
        .sms = 110,        /* whitepaper Table 1: 220 CUs for 2 GCDs */
        .clock_hz = 1.7e9, /* whitepaper endnote MI200-05: 1,700 MHz engine clock */
        .scaleup_links = 8,
        .scaleup_link_Bps = MI200_IF_BPS,
        .scaleup_source = "AMD CDNA 2 whitepaper: each GCD has 8 Infinity Fabric links (one "
                          "may be PCIe), 100 GB/s bidirectional each; ROCm 'AMD Instinct MI250 "
                          "microarchitecture': 25 GT/s x16 = 50 GB/s per direction, the two GCDs "
                          "of a package joined by 4",
        .source = "AMD CDNA 2 architecture whitepaper, Table 1 and endnotes (MI250X, 2 GCDs, "
                  "halved per GCD); ROCm GPU specifications (L2 per GCD)",
    },
    {
        /* One GCD of the package (see the top of the file). */
        .name = "MI250",
        .vendor = "amd",
        .pci_vendor = 0x1002,
        .pci_device = 0x740c, /* pci.ids: Aldebaran/MI200 [Instinct MI250X/MI250] */
        .arch = 0,
        .gcn = "gfx90a",
        /* AMD CDNA 2 whitepaper, Table 1 (MI250, 2 GCDs), halved; the same in the
         * ROCm 'AMD Instinct MI250 microarchitecture' peak table */
        .peak_flops = {[CR_DT_FP64] = 90.5 / 2 * T, /* FP64 matrix 90.5 (vector 45.3) */
                       [CR_DT_FP32] = 90.5 / 2 * T, /* FP32 matrix / packed 90.5 */
                       [CR_DT_BF16] = 362.1 / 2 * T,
                       [CR_DT_FP16] = 362.1 / 2 * T,
                       [CR_DT_INT8] = 362.1 / 2 * T},
        .hbm_bytes = 64 * GB,       /* 128 GB HBM2e for 2 GCDs */
        .hbm_Bps = 3276.8 / 2 * GB, /* whitepaper MI200-30: 3.2768 TB/s for 2 GCDs */
        .l2_bytes = 8 * MiB,        /* whitepaper: 8 MB per GCD (ROCm specs: 8 MiB) */
        .l2_Bps = MI200_L2_BPS,     /* whitepaper MI200-34: 6.96 TB/s for MI250 too */
        .sms = 104,                 /* ROCm: "The MI250 GCD has 104 active CUs" */
        .clock_hz = 1.7e9,          /* whitepaper MI200-34: 1,700 MHz peak boost */
        .scaleup_links = 8,         /* the GCD's 8 (whitepaper); the OAM wires 6 external, not 8 */
        .scaleup_link_Bps = MI200_IF_BPS,
        .scaleup_source = "AMD CDNA 2 whitepaper: each GCD has 8 Infinity Fabric links (one "
                          "may be PCIe), 100 GB/s bidirectional each; ROCm 'AMD Instinct MI250 "
                          "microarchitecture': 25 GT/s x16 = 50 GB/s per direction, the two GCDs "
                          "of a package joined by 4",
        .source = "AMD CDNA 2 architecture whitepaper, Table 1 and endnotes (MI250, 2 GCDs, "
                  "halved per GCD); ROCm 'AMD Instinct MI250 microarchitecture' (CUs)",
    },
    {
        .name = "MI100",
        .vendor = "amd",
        .pci_vendor = 0x1002,
        .pci_device = 0x738c,     /* pci.ids: Arcturus GL-XL [Instinct MI100] */
        .pci_device_alt = 0x738e, /* pci.ids: Arcturus GL-XL [Instinct MI100] */
        .arch = 0,
        .gcn = "gfx908",
        /* ROCm 'AMD Instinct MI100 microarchitecture' peak table; AMD CDNA 2
         * whitepaper's MI100 column (INT8, BF16 92.28 at 1,502 MHz). No FP64
         * matrix on CDNA 1. */
        .peak_flops = {[CR_DT_FP64] = 11.5 * T,
                       [CR_DT_FP32] = 46.1 * T, /* matrix FP32 (vector 23.1) */
                       [CR_DT_BF16] = 92.3 * T,
                       [CR_DT_FP16] = 184.6 * T,
                       [CR_DT_INT8] = 184.6 * T}, /* CDNA 2 whitepaper: MI100 INT8 184.6 TOPS */
        .hbm_bytes = 32 * GB,
        .hbm_Bps = 1228.8 * GB, /* whitepaper MI200-30: 4,096 bits at 2.4 Gb/s, 1.2288 TB/s */
        .l2_bytes = 8 * MiB,    /* ROCm GPU specifications */
        .l2_Bps = MI100_L2_BPS,
        .sms = 120,          /* compute units */
        .clock_hz = 1.502e9, /* whitepaper MI200-05: 1,502 MHz engine clock */
        .scaleup_links = 3,
        .scaleup_link_Bps = MI100_IF_BPS,
        .scaleup_source = "AMD CDNA 2 whitepaper: MI100 has 3 Infinity Fabric links, 276 GB/s "
                          "P2P per card (46 GB/s per link per direction); ROCm 'AMD Instinct "
                          "MI100 microarchitecture': 23 GT/s links",
        .source = "ROCm 'AMD Instinct MI100 microarchitecture' (peaks, HBM); AMD CDNA 2 "
                  "whitepaper (MI100 INT8, clock, L2 bandwidth); ROCm GPU specifications (L2)",
    },
};

#define N_CATALOG ((int)(sizeof catalog / sizeof catalog[0]))

int cr_gpu_catalog_count(void)
{
    return N_CATALOG;
}

const cr_gpu_catalog_entry *cr_gpu_catalog_get(int i)
{
    return i >= 0 && i < N_CATALOG ? &catalog[i] : NULL;
}

const cr_gpu_catalog_entry *cr_gpu_catalog_find_pci(unsigned pci_vendor, unsigned pci_device)
{
    for (int i = 0; pci_device && i < N_CATALOG; i++)
        if (catalog[i].pci_vendor == pci_vendor &&
            (catalog[i].pci_device == pci_device || catalog[i].pci_device_alt == pci_device))
            return &catalog[i];
    return NULL;
}

/* "0x31c2/0x31c3": an entry's ids. */
static int entry_ids(const cr_gpu_catalog_entry *e, char *buf, size_t size)
{
    if (e->pci_device_alt)
        return snprintf(buf, size, "0x%04x/0x%04x", e->pci_device, e->pci_device_alt);
    return snprintf(buf, size, "0x%04x", e->pci_device);
}

const cr_gpu_catalog_entry *cr_gpu_catalog_find_name(const char *name)
{
    for (int i = 0; name && i < N_CATALOG; i++)
        if (strcmp(catalog[i].name, name) == 0)
            return &catalog[i];
    return NULL;
}

/* "0x20b0 (A100-SXM-40GB), 0x20b2 (...)" for the NVIDIA entries of one sm, or
 * of all when sm is 0. */
static void list_ids(int sm, char *buf, size_t size)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < N_CATALOG && off < size; i++) {
        if (catalog[i].pci_vendor != 0x10de || (sm && catalog[i].arch != sm))
            continue;
        char id[24];
        entry_ids(&catalog[i], id, sizeof id);
        int n = snprintf(buf + off, size - off, "%s%s (%s, sm %d)", off ? ", " : "", id,
                         catalog[i].name, catalog[i].arch);
        if (n < 0)
            break;
        off += (size_t)n;
    }
}

cr_status cr_gpu_catalog_lookup(int sm, unsigned pci_device, const cr_gpu_catalog_entry **out,
                                cr_diag *d)
{
    char ids[900];
    *out = NULL;
    const cr_gpu_catalog_entry *e = pci_device ? cr_gpu_catalog_find_pci(0x10de, pci_device) : NULL;
    if (e) {
        if (e->arch != sm)
            return cr_diag_set(d, CR_EINVAL,
                               "PCI device 0x%04x is the %s (sm %d), but the dump says sm %d: "
                               "the dump is inconsistent",
                               pci_device, e->name, e->arch, sm);
        *out = e;
        return CR_OK;
    }
    const cr_gpu_catalog_entry *only = NULL;
    int n = 0;
    for (int i = 0; i < N_CATALOG; i++)
        if (catalog[i].pci_vendor == 0x10de && catalog[i].arch == sm) {
            only = &catalog[i];
            n++;
        }
    if (n == 1) {
        *out = only;
        return CR_OK;
    }
    list_ids(n ? sm : 0, ids, sizeof ids);
    if (n > 1 && !pci_device)
        return cr_diag_set(d, CR_ENOTFOUND,
                           "GPU with sm %d and no PCI device id: sm %d alone does not identify "
                           "it; give its <pci> the device attribute NCCL writes (e.g. "
                           "device=\"0x2335\"); known for sm %d: %s",
                           sm, sm, sm, ids);
    if (n > 1)
        return cr_diag_set(d, CR_ENOTFOUND,
                           "GPU with PCI device 0x%04x and sm %d is not in the catalog, and sm %d "
                           "alone does not identify it: add it to model/gpu_catalog.c with its "
                           "datasheet figures, or write the topology by hand "
                           "(doc/topology-format.md); known for sm %d: %s",
                           pci_device, sm, sm, sm, ids);
    return cr_diag_set(d, CR_ENOTFOUND,
                       "GPU with PCI device 0x%04x and sm %d is not in the catalog: add it to "
                       "model/gpu_catalog.c with its datasheet figures, or write the topology by "
                       "hand (doc/topology-format.md); known: %s",
                       pci_device, sm, ids);
}

const char *cr_gpu_catalog_gcn_name(const char *gcn, char *buf, size_t size)
{
    /* RCCL's convertGcnArchToGcnArchName (src/misc/archinfo.cc): older dumps
     * carry the numeric gcnArch */
    static const char *const old[][2] = {{"906", "gfx906"}, {"908", "gfx908"}, {"910", "gfx90a"},
                                         {"940", "gfx940"}, {"941", "gfx941"}, {"942", "gfx942"}};
    if (size == 0) /* no room, not even for the NUL: buf is not a string */
        return buf;
    cr_str_copy(buf, size, gcn ? gcn : "");
    char *colon = strchr(buf, ':'); /* "gfx90a:sramecc+:xnack-" */
    if (colon)
        *colon = '\0';
    for (size_t i = 0; i < sizeof old / sizeof old[0]; i++)
        if (strcmp(buf, old[i][0]) == 0)
            cr_str_copy(buf, size, old[i][1]);
    return buf;
}

/* "0x74a1 (MI300X, gfx942, 304 CUs), ..." for the AMD entries. */
static void list_amd(char *buf, size_t size)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < N_CATALOG && off < size; i++) {
        if (catalog[i].pci_vendor != 0x1002)
            continue;
        char id[24];
        entry_ids(&catalog[i], id, sizeof id);
        int n = snprintf(buf + off, size - off, "%s%s (%s, %s, %d CUs)", off ? ", " : "", id,
                         catalog[i].name, catalog[i].gcn, catalog[i].sms);
        if (n < 0)
            break;
        off += (size_t)n;
    }
}

cr_status cr_gpu_catalog_lookup_amd(const char *gcn, int cus, unsigned pci_device,
                                    unsigned subsys_device, const cr_gpu_catalog_entry **out,
                                    cr_diag *d)
{
    char ids[600], name[32], shared[200];
    *out = NULL;
    cr_gpu_catalog_gcn_name(gcn, name, sizeof name);
    /* By device id; a virtual function (an MI300X VF, 0x74b5) carries its
     * board's id as subsystem_device. */
    unsigned id = cr_gpu_catalog_find_pci(0x1002, pci_device) ? pci_device : subsys_device;
    const cr_gpu_catalog_entry *first = cr_gpu_catalog_find_pci(0x1002, id);
    const cr_gpu_catalog_entry *e = NULL;
    int n = 0;
    size_t off = 0;
    shared[0] = '\0';
    for (int i = 0; first && i < N_CATALOG; i++) {
        const cr_gpu_catalog_entry *c = &catalog[i];
        if (c->pci_vendor != 0x1002 || (c->pci_device != id && c->pci_device_alt != id))
            continue;
        n++;
        if (c->sms == cus)
            e = c;
        int k = snprintf(shared + off, sizeof shared - off, "%s%s (%d CUs)", off ? ", " : "",
                         c->name, c->sms);
        if (k > 0 && (size_t)k < sizeof shared - off)
            off += (size_t)k;
    }
    if (n == 1)
        e = first; /* one product of that id: the CU count does not decide */
    if (!first) {
        list_amd(ids, sizeof ids);
        return cr_diag_set(d, CR_ENOTFOUND,
                           "AMD GPU gcn=\"%s\" with PCI device 0x%04x (subsystem 0x%04x) is not "
                           "in the catalog: add it to model/gpu_catalog.c with its datasheet "
                           "figures, or write the topology by hand (doc/topology-format.md)%s; "
                           "known AMD: %s",
                           gcn && *gcn ? gcn : "?", pci_device, subsys_device,
                           pci_device ? ""
                                      : " (the dump's <pci> has no device attribute: give it the "
                                        "one RCCL writes, e.g. device=\"0x740c\")",
                           ids);
    }
    if (!e)
        return cr_diag_set(d, CR_ENOTFOUND,
                           "AMD GPU with PCI device 0x%04x and %d CUs (RCCL's sm): 0x%04x is %s, "
                           "none with %d CUs; the dump is inconsistent, or the product is not "
                           "in the catalog",
                           id, cus, id, shared, cus);
    if (name[0] && e->gcn && strcmp(name, e->gcn) != 0)
        return cr_diag_set(d, CR_EINVAL,
                           "PCI device 0x%04x is the %s (%s), but the dump says gcn=\"%s\": the "
                           "dump is inconsistent",
                           id, e->name, e->gcn, gcn);
    *out = e;
    return CR_OK;
}

int cr_gpu_catalog_add_spec(cr_topo *t, const cr_gpu_catalog_entry *e)
{
    int have = cr_topo_find_gpu_spec(t, e->name);
    if (have >= 0)
        return have;
    /* cr_gpu_spec holds mutable strings; copy the static ones into local
     * buffers (cr_topo_add_gpu_spec deep-copies them again). */
    char name[64], vendor[16], source[512];
    cr_str_copy(name, sizeof name, e->name);
    cr_str_copy(vendor, sizeof vendor, e->vendor);
    snprintf(source, sizeof source, "%s (commroof built-in GPU catalog)", e->source);
    cr_gpu_spec s = {0};
    s.name = name;
    s.vendor = vendor;
    s.source = source;
    s.arch = e->arch;
    memcpy(s.peak_flops, e->peak_flops, sizeof s.peak_flops);
    s.hbm_bytes = e->hbm_bytes;
    s.hbm_Bps = e->hbm_Bps;
    s.l2_bytes = e->l2_bytes;
    s.l2_Bps = e->l2_Bps;
    s.llc_bytes = e->llc_bytes;
    s.llc_Bps = e->llc_Bps;
    s.sms = e->sms;
    s.clock_hz = e->clock_hz;
    return cr_topo_add_gpu_spec(t, &s);
}
