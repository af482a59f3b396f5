/* SPDX-License-Identifier: MIT */
/*
 * Topologies for the simulator's tests and benchmark, built with the cr_topo
 * builder so that every figure a test derives from is visible here:
 *
 *   fx_star:    n GPUs on one switch, each by one link of bw each way;
 *   fx_mesh:    n GPUs, every pair by one direct XGMI link of bw each way;
 *   fx_cluster: n_nodes HGX-style nodes (8 GPUs, 4 NVSwitch chips, the 18
 *               NVLinks of a GPU split 5/4/4/5 over the chips at 25 GB/s per
 *               link and direction = 450 GB/s, NVIDIA Hopper whitepaper), one
 *               400 Gb/s NIC per GPU on a PCIe switch (64 GB/s, PCIe Gen5
 *               x16), rail-optimised: NIC k of every node on rail k's leaf
 *               switches, `per_leaf` nodes per leaf, each leaf with one link
 *               of up_Bps to each of `spines` spines (spines x up_Bps of
 *               uplink against per_leaf x 50 GB/s of downlink: the
 *               oversubscription is per_leaf x 50 GB/s / (spines x up_Bps)).
 * Every helper returns a finalized, checked topology or NULL.
 */
#ifndef CR_TEST_FLOWSIM_FIXTURE_H
#define CR_TEST_FLOWSIM_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "topo.h"

#define FX_NVLINK_Bps 25e9 /* NVLink4, one link one way (Hopper whitepaper) */
#define FX_NIC_Bps 50e9    /* 400 Gb/s NDR (ConnectX-7) */
#define FX_PCIE_Bps 64e9   /* PCIe Gen5 x16, per direction (raw, rounded) */
#define FX_HBM_Bps 4.8e12  /* H200 datasheet */
#define FX_HOP_LAT 0.5e-6  /* per-hop latency used everywhere in the fixtures */

static inline int fx_gpu_spec(cr_topo *t)
{
    cr_gpu_spec g;
    memset(&g, 0, sizeof g);
    g.name = (char *)(uintptr_t) "H200-fixture";
    g.vendor = (char *)(uintptr_t) "nvidia";
    g.arch = 90;
    g.peak_flops[CR_DT_BF16] = 989e12;
    g.hbm_bytes = 141e9;
    g.hbm_Bps = FX_HBM_Bps;
    g.l2_bytes = 50e6;
    g.sms = 132;
    g.source = (char *)(uintptr_t) "test fixture";
    return cr_topo_add_gpu_spec(t, &g);
}

static inline int fx_switch_spec(cr_topo *t, const char *name, int gen, bool mc, double reduce_Bps)
{
    cr_switch_spec s;
    memset(&s, 0, sizeof s);
    s.name = (char *)(uintptr_t)name;
    s.generation = gen;
    s.multicast = mc;
    s.reduction = mc;
    s.reduce_Bps = reduce_Bps;
    s.source = (char *)(uintptr_t) "test fixture";
    return cr_topo_add_switch_spec(t, &s);
}

static inline cr_topo *fx_done(cr_topo *t)
{
    cr_diag d = {{0}};
    if (cr_topo_check(t, &d) != CR_OK) {
        fprintf(stderr, "fixture: %s\n", d.msg);
        cr_topo_free(t);
        return NULL;
    }
    return t;
}

/* n GPUs, one switch, one link each of bw_Bps per direction. */
static inline cr_topo *fx_star(int n, double bw_Bps)
{
    cr_topo *t = cr_topo_new("fx-star");
    int gs = fx_gpu_spec(t), ss = fx_switch_spec(t, "sw", 0, false, 0);
    int sw = cr_topo_add_dev(t, CR_DEV_SWITCH, "sw", -1, ss);
    char id[32];
    for (int i = 0; i < n; i++) {
        snprintf(id, sizeof id, "gpu%d", i);
        int g = cr_topo_add_dev(t, CR_DEV_GPU, id, -1, gs);
        cr_topo_add_link(t, g, sw, CR_LINK_NVLINK, bw_Bps, bw_Bps, 1, FX_HOP_LAT);
    }
    return fx_done(t);
}

/* n GPUs, every pair joined by one direct XGMI link of bw_Bps each way (a
 * fully meshed MI300X board), no switch. */
static inline cr_topo *fx_mesh(int n, double bw_Bps)
{
    cr_topo *t = cr_topo_new("fx-mesh");
    int gs = fx_gpu_spec(t), g[64];
    char id[32];
    for (int i = 0; i < n && i < 64; i++) {
        snprintf(id, sizeof id, "gpu%d", i);
        g[i] = cr_topo_add_dev(t, CR_DEV_GPU, id, -1, gs);
    }
    for (int i = 0; i < n && i < 64; i++)
        for (int j = i + 1; j < n && j < 64; j++)
            cr_topo_add_link(t, g[i], g[j], CR_LINK_XGMI, bw_Bps, bw_Bps, 1, FX_HOP_LAT);
    return fx_done(t);
}

/* See the file comment. The NVSwitch chips multicast and reduce (NVSwitch
 * gen3); reduce_Bps > 0 limits each chip's reduction throughput, 0 leaves it
 * port limited. */
static inline cr_topo *fx_cluster(int n_nodes, int per_leaf, int spines, double up_Bps,
                                  double reduce_Bps)
{
    static const int split[4] = {5, 4, 4, 5};
    cr_topo *t = cr_topo_new("fx-cluster");
    int gs = fx_gpu_spec(t), nvs = fx_switch_spec(t, "nvswitch3", 3, true, reduce_Bps);
    int ibs = fx_switch_spec(t, "quantum2", 0, false, 0);
    char id[64];
    int n_leaf = n_nodes > 1 ? (n_nodes + per_leaf - 1) / per_leaf : 0;
    int leaf0 = -1, spine0 = -1;
    for (int r = 0; r < 8 && n_nodes > 1; r++)
        for (int l = 0; l < n_leaf; l++) {
            snprintf(id, sizeof id, "rail%d.leaf%d", r, l);
            int v = cr_topo_add_dev(t, CR_DEV_SWITCH, id, -1, ibs);
            if (leaf0 < 0)
                leaf0 = v;
        }
    if (n_leaf > 1)
        for (int s = 0; s < spines; s++) {
            snprintf(id, sizeof id, "spine%d", s);
            int v = cr_topo_add_dev(t, CR_DEV_SWITCH, id, -1, ibs);
            if (spine0 < 0)
                spine0 = v;
        }
    if (n_leaf > 1)
        for (int r = 0; r < 8; r++)
            for (int l = 0; l < n_leaf; l++)
                for (int s = 0; s < spines; s++)
                    cr_topo_add_link(t, leaf0 + r * n_leaf + l, spine0 + s, CR_LINK_IB, up_Bps,
                                     up_Bps, 1, FX_HOP_LAT);
    for (int n = 0; n < n_nodes; n++) {
        int sw[4], g[8];
        for (int c = 0; c < 4; c++) {
            snprintf(id, sizeof id, "n%d.nvsw%d", n, c);
            sw[c] = cr_topo_add_dev(t, CR_DEV_SWITCH, id, n, nvs);
        }
        for (int k = 0; k < 8; k++) {
            snprintf(id, sizeof id, "n%d.gpu%d", n, k);
            g[k] = cr_topo_add_dev(t, CR_DEV_GPU, id, n, gs);
            for (int c = 0; c < 4; c++)
                cr_topo_add_link(t, g[k], sw[c], CR_LINK_NVLINK, FX_NVLINK_Bps, FX_NVLINK_Bps,
                                 split[c], FX_HOP_LAT);
        }
        if (n_nodes < 2)
            continue;
        for (int k = 0; k < 8; k++) {
            snprintf(id, sizeof id, "n%d.pcisw%d", n, k);
            int p = cr_topo_add_dev(t, CR_DEV_PCISW, id, n, -1);
            snprintf(id, sizeof id, "n%d.nic%d", n, k);
            int nic = cr_topo_add_dev(t, CR_DEV_NIC, id, n, -1);
            cr_topo_add_link(t, g[k], p, CR_LINK_PCIE, FX_PCIE_Bps, FX_PCIE_Bps, 1, FX_HOP_LAT);
            cr_topo_add_link(t, p, nic, CR_LINK_PCIE, FX_PCIE_Bps, FX_PCIE_Bps, 1, FX_HOP_LAT);
            cr_topo_add_link(t, nic, leaf0 + k * n_leaf + n / per_leaf, CR_LINK_IB, FX_NIC_Bps,
                             FX_NIC_Bps, 1, FX_HOP_LAT);
        }
    }
    return fx_done(t);
}

#endif
