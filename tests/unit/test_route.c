/* SPDX-License-Identifier: MIT */
/*
 * Route tests on small graphs built in code, with expected bandwidths derived
 * by hand from the link figures.
 */
#include "cr_test.h"
#include "cr_test_topo.h"

#include <stdlib.h>

#include "nic.h"
#include "route.h"

static int add_gpu(cr_topo *t, const char *id)
{
    cr_gpu_spec s = {.name = "g", .sms = 1, .hbm_bytes = 1e9, .hbm_Bps = 1e12};
    s.peak_flops[CR_DT_BF16] = 1e15;
    int spec = cr_topo_find_gpu_spec(t, "g");
    if (spec < 0)
        spec = cr_topo_add_gpu_spec(t, &s);
    return cr_topo_add_dev(t, CR_DEV_GPU, id, -1, spec);
}

/* GPUs g0 .. g(n-1), their devices in g[]. */
static void add_gpus(cr_topo *t, int *g, int n)
{
    for (int i = 0; i < n; i++) {
        char id[16];
        snprintf(id, sizeof id, "g%d", i);
        g[i] = add_gpu(t, id);
    }
}

/* Two GPUs (device indices into g[0], g[1]) on four switch chips with
 * 5/4/4/5 NVLinks of 25 GB/s each, 0.5 us per link. */
static void add_board(cr_topo *t, int g[2])
{
    g[0] = add_gpu(t, "gpu0");
    g[1] = add_gpu(t, "gpu1");
    const int links[4] = {5, 4, 4, 5};
    for (int i = 0; i < 4; i++) {
        char id[16];
        snprintf(id, sizeof id, "nvs%d", i);
        int s = cr_topo_add_dev(t, CR_DEV_SWITCH, id, -1, -1);
        cr_topo_add_link(t, g[0], s, CR_LINK_NVLINK, 25e9, 25e9, links[i], 0.5e-6);
        cr_topo_add_link(t, g[1], s, CR_LINK_NVLINK, 25e9, 25e9, links[i], 0.5e-6);
    }
}

/* Two GPUs on four switch chips with 5/4/4/5 links of 25 GB/s: a pair
 * reaches 18 x 25 = 450 GB/s through all chips together. */
static void test_nvswitch_board(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("board");
    int g[2];
    add_board(t, g);
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_check(t, &d), CR_OK);
    assert_close(cr_route_bw_Bps(t, 0, 1), 450e9, 1e-12, 0);
    int path[8], n = 0;
    double lat = 0;
    assert_int_equal(cr_route_path(t, 0, 1, path, 8, &n, &lat), CR_OK);
    assert_int_equal(n, 2);
    assert_close(lat, 1e-6, 1e-12, 0);
    cr_topo_free(t);
}

/* A chain a - b - c (ICI, 100 GB/s then 2 x 60 GB/s): no path from a to c
 * avoids b, so b forwards (route.h) and a reaches c at min(100, 2 x 60) =
 * 100 GB/s, in two hops of 1 us. A direct a - c PCIe link of 10 GB/s
 * gives a path that avoids b: then b forwards nothing (10 GB/s) unless
 * route.gpu_transit is set (10 + 100 = 110 GB/s). */
/* The fewest-hop paths' rate (cr_route_ecmp_Bps) against max-flow
 * (cr_route_bw_kinds_Bps) on a 4 x 4 torus of chips with 100 GB/s ICI
 * links and route.gpu_transit: neighbours have one link on a fewest-hop
 * path (100 GB/s) where max-flow finds all four of a chip's (400); a
 * diagonal neighbour two paths of two hops (200), as the opposite chip
 * of a ring of four (both ways round); on the NVSwitch board
 * the two agree (450). GPU ranks, not devices: a switch declared before
 * the chips shifts every device index. */
static void test_ecmp(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("torus");
    cr_topo_add_dev(t, CR_DEV_SWITCH, "decoy", -1, -1);
    int g[16];
    add_gpus(t, g, 16);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            int v = g[y * 4 + x];
            cr_topo_add_link(t, v, g[y * 4 + (x + 1) % 4], CR_LINK_ICI, 100e9, 100e9, 1, 1e-6);
            cr_topo_add_link(t, v, g[(y + 1) % 4 * 4 + x], CR_LINK_ICI, 100e9, 100e9, 1, 1e-6);
        }
    assert_int_equal(cr_topo_finalize(t), CR_OK);
    cr_topo_set_param(t, "route.gpu_transit", 1, "test");
    unsigned up = CR_ROUTE_SCALEUP_KINDS;
    assert_true(t->gpus[0] != 0);
    assert_close(cr_route_bw_kinds_Bps(t, 0, 1, up), 400e9, 1e-12, 0);
    assert_close(cr_route_ecmp_Bps(t, 0, 1, up), 100e9, 1e-12, 0);
    assert_close(cr_route_ecmp_Bps(t, 0, 5, up), 200e9, 1e-12, 0);
    /* the opposite chip of a ring of four: two ways round, two hops each */
    assert_close(cr_route_ecmp_Bps(t, 0, 2, up), 200e9, 1e-12, 0);
    assert_close(cr_route_ecmp_Bps(t, 0, 0, up), 0.0, 0, 0);
    cr_topo_free(t);

    /* a chain a - b - c over NVLink beside a PCIe switch joining a and c:
     * b forwards nothing (no transit), so the fewest-hop path is the
     * switch's, 10 GB/s; none of the flow goes towards b */
    t = cr_topo_new("chain+switch");
    int a = add_gpu(t, "a"), bb = add_gpu(t, "b"), cc = add_gpu(t, "c");
    int sw = cr_topo_add_dev(t, CR_DEV_PCISW, "sw", -1, -1);
    cr_topo_add_link(t, a, bb, CR_LINK_NVLINK, 100e9, 100e9, 1, 1e-6);
    cr_topo_add_link(t, bb, cc, CR_LINK_NVLINK, 100e9, 100e9, 1, 1e-6);
    cr_topo_add_link(t, a, sw, CR_LINK_PCIE, 10e9, 10e9, 1, 1e-6);
    cr_topo_add_link(t, sw, cc, CR_LINK_PCIE, 10e9, 10e9, 1, 1e-6);
    assert_int_equal(cr_topo_finalize(t), CR_OK);
    assert_close(cr_route_ecmp_Bps(t, 0, 2, CR_ROUTE_ALL_KINDS), 10e9, 1e-12, 0);
    /* over NVLink alone only the chain joins them: through b (route.h) */
    assert_close(cr_route_ecmp_Bps(t, 0, 2, up), 100e9, 1e-12, 0);
    cr_topo_free(t);

    t = cr_topo_new("board");
    int b[2];
    add_board(t, b);
    assert_int_equal(cr_topo_finalize(t), CR_OK);
    assert_close(cr_route_ecmp_Bps(t, 0, 1, up), 450e9, 1e-12, 0);
    assert_close(cr_route_ecmp_Bps(t, 0, 1, up), cr_route_bw_kinds_Bps(t, 0, 1, up), 1e-12, 0);
    cr_topo_free(t);
}

static void test_gpu_transit(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("chain");
    int a = add_gpu(t, "a"), b = add_gpu(t, "b"), c = add_gpu(t, "c");
    cr_topo_add_link(t, a, b, CR_LINK_ICI, 100e9, 100e9, 1, 1e-6);
    cr_topo_add_link(t, b, c, CR_LINK_ICI, 60e9, 60e9, 2, 1e-6);
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_check(t, &d), CR_OK); /* the checker accepts the chain */
    int na = -1, nb = -1, nvia = -1;
    assert_false(cr_route_nvb_pair(t, &na, &nb, &nvia)); /* relayed already: no host path */
    assert_int_equal(na, -1);
    assert_close(cr_route_bw_Bps(t, 0, 2), 100e9, 1e-12, 0);
    assert_close(cr_route_bw_Bps(t, 2, 0), 100e9, 1e-12, 0);
    int path[8], n = 0;
    double lat = 0;
    assert_int_equal(cr_route_path(t, 0, 2, path, 8, &n, &lat), CR_OK);
    assert_int_equal(n, 2);
    assert_close(lat, 2e-6, 1e-12, 0);
    cr_topo_free(t);

    t = cr_topo_new("chain+pcie");
    a = add_gpu(t, "a"), b = add_gpu(t, "b"), c = add_gpu(t, "c");
    cr_topo_add_link(t, a, b, CR_LINK_ICI, 100e9, 100e9, 1, 1e-6);
    cr_topo_add_link(t, b, c, CR_LINK_ICI, 60e9, 60e9, 2, 1e-6);
    cr_topo_add_link(t, a, c, CR_LINK_PCIE, 10e9, 10e9, 1, 3e-6);
    assert_int_equal(cr_topo_finalize(t), CR_OK);
    assert_close(cr_route_bw_Bps(t, 0, 2), 10e9, 1e-12, 0);
    assert_int_equal(cr_route_path(t, 0, 2, path, 8, &n, &lat), CR_OK);
    assert_int_equal(n, 1);
    assert_close(lat, 3e-6, 1e-12, 0);
    /* a and c share no scale-up link but both have one to b, and the PCIe
     * link joins them: NCCL would relay through b (NVB), these routes do
     * not (cr_route_nvb_pair, the note the CLI prints) */
    assert_true(cr_route_nvb_pair(t, &na, &nb, &nvia));
    assert_int_equal(na, 0);
    assert_int_equal(nb, 2);
    assert_int_equal(nvia, 1);
    cr_topo_set_param(t, "route.gpu_transit", 1, "test");
    assert_close(cr_route_bw_Bps(t, 0, 2), 110e9, 1e-12, 0);
    assert_false(cr_route_nvb_pair(t, &na, &nb, &nvia));
    cr_topo_free(t);

    /* a full mesh (MI300X, every pair joined) and NVSwitch boards have no
     * such pair; the DGX-1-style V100 mesh of the corpus sets transit */
    const char *none[] = {"mi300x-8", "hgx-h100-8", "l40s-pcie-8",
                          "validate/corpus/topologies/dgx1v-v100-8.xml"};
    for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
        t = cr_test_open_topo(none[k]);
        if (cr_route_nvb_pair(t, &na, &nb, &nvia))
            fail_msg("%s: gpu %d and %d relayed through %d", none[k], na, nb, nvia);
        cr_topo_free(t);
    }

    /* Two pieces: no route at all. */
    t = cr_topo_new("apart");
    a = add_gpu(t, "a"), b = add_gpu(t, "b"), c = add_gpu(t, "c");
    cr_topo_add_link(t, a, b, CR_LINK_ICI, 100e9, 100e9, 1, 1e-6);
    assert_int_equal(cr_topo_finalize(t), CR_OK);
    assert_close(cr_route_bw_Bps(t, 0, 2), 0.0, 0, 0);
    assert_int_equal(cr_route_path(t, 0, 2, path, 8, &n, &lat), CR_ENOTFOUND);
    cr_topo_free(t);
}

/* NCCL's NIC per GPU (nic.c, ncclTopoGetLocalNet) on h100-ib-4n: each
 * PCIe switch holds two GPUs and two NICs (n0.pcisw0: GPUs 0, 1, NICs 0,
 * 1), so GPU 0's nearest NICs are n0.nic0 and n0.nic1, GPU 2's n0.nic2 and
 * n0.nic3. With GPUs 0 and 1 both ranks each gets DIVUP(2, 2) = 1 NIC:
 * GPU 0 index 0, GPU 1 index mirrorBits(1, 2) = 1, so nic0 and nic1; with
 * GPU 0 alone on its switch it gets DIVUP(2, 1) = 2, both. */
static const char *nic_id(const cr_topo *t, int v)
{
    return t->devs[v].id;
}

static void test_nic_share(void **state)
{
    (void)state;
    cr_topo *t = cr_test_open_topo("h100-ib-4n");
    cr_nic_map *m = cr_nic_map_new(t);
    assert_non_null(m);
    assert_int_equal(cr_nic_count(m, 0), 2);
    assert_string_equal(nic_id(t, m->nic[m->off[0]]), "n0.nic0");
    assert_string_equal(nic_id(t, m->nic[m->off[0] + 1]), "n0.nic1");
    assert_string_equal(nic_id(t, m->nic[m->off[2]]), "n0.nic2");
    uint64_t member[1] = {(1u << 0) | (1u << 1) | (1u << 8)};
    unsigned char share[33] = {0};
    int *scratch = calloc((size_t)t->n_devs + 1, sizeof *scratch);
    assert_non_null(scratch);
    cr_nic_shares(m, member, share, scratch);
    assert_int_equal(share[0], 1);
    assert_int_equal(share[1], 1);
    assert_int_equal(share[8], 2);
    assert_int_equal(share[2], 0); /* not a member */
    for (int v = 0; v <= t->n_devs; v++)
        assert_int_equal(scratch[v], 0);
    int pick[4];
    assert_int_equal(cr_nic_pick(m, 0, 0, share[0], pick), 1);
    assert_string_equal(nic_id(t, pick[0]), "n0.nic0");
    assert_int_equal(cr_nic_pick(m, 1, 1, share[1], pick), 1);
    assert_string_equal(nic_id(t, pick[0]), "n0.nic1");
    assert_int_equal(cr_nic_pick(m, 8, 0, share[8], pick), 2);
    assert_string_equal(nic_id(t, pick[0]), "n1.nic0");
    assert_string_equal(nic_id(t, pick[1]), "n1.nic1");
    free(scratch);
    cr_nic_map_free(m);
    cr_topo_free(t);
}

/* The board above plus one PCIe Gen5 x16 link (63 GB/s) from each GPU to a
 * shared PCIe switch: all paths give 450 + 63 = 513 GB/s, the scale-up
 * fabric alone 18 x 25 = 450 GB/s, PCIe alone 63 GB/s. */
static void test_kinds(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("board+pcie");
    int g[2];
    add_board(t, g);
    int p = cr_topo_add_dev(t, CR_DEV_PCISW, "pcisw0", -1, -1);
    cr_topo_add_link(t, g[0], p, CR_LINK_PCIE, 63e9, 63e9, 1, 0.5e-6);
    cr_topo_add_link(t, g[1], p, CR_LINK_PCIE, 63e9, 63e9, 1, 0.5e-6);
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_check(t, &d), CR_OK);
    assert_close(cr_route_bw_Bps(t, 0, 1), 513e9, 1e-12, 0);
    assert_close(cr_route_bw_kinds_Bps(t, 0, 1, CR_ROUTE_ALL_KINDS), 513e9, 1e-12, 0);
    assert_close(cr_route_bw_kinds_Bps(t, 0, 1, CR_ROUTE_SCALEUP_KINDS), 450e9, 1e-12, 0);
    assert_close(cr_route_bw_kinds_Bps(t, 1, 0, 1u << CR_LINK_PCIE), 63e9, 1e-12, 0);
    assert_close(cr_route_bw_kinds_Bps(t, 0, 1, 1u << CR_LINK_IB), 0.0, 0, 0);
    cr_topo_free(t);
}

/* The policy's predicates (route.h): the three link sets split the kinds,
 * each kind in exactly one (topo.h's list: NVLink, XGMI, ICI scale up; IB,
 * Ethernet are networks; PCIe, C2C the host's); a GPU forwards only under
 * transit, which "route.gpu_transit" = 1 sets, and a switch always. */
static void test_policy(void **state)
{
    (void)state;
    for (int k = 0; k < CR_LINK__COUNT; k++)
        assert_int_equal(cr_route_scaleup((cr_link_kind)k) + cr_route_network((cr_link_kind)k) +
                             cr_route_host((cr_link_kind)k),
                         1);
    assert_true(cr_route_scaleup(CR_LINK_NVLINK) && cr_route_scaleup(CR_LINK_XGMI) &&
                cr_route_scaleup(CR_LINK_ICI));
    assert_true(cr_route_network(CR_LINK_IB) && cr_route_network(CR_LINK_ETHERNET));
    assert_true(cr_route_host(CR_LINK_PCIE) && cr_route_host(CR_LINK_C2C));
    cr_topo *t = cr_topo_new("pair");
    int a = add_gpu(t, "a");
    int s = cr_topo_add_dev(t, CR_DEV_SWITCH, "sw", -1, -1);
    assert_false(cr_route_transit(t));
    assert_false(cr_route_forwards(t, a, cr_route_transit(t)));
    assert_true(cr_route_forwards(t, s, false));
    cr_topo_set_param(t, "route.gpu_transit", 1, "test");
    assert_true(cr_route_transit(t));
    assert_true(cr_route_forwards(t, a, cr_route_transit(t)));
    cr_topo_free(t);
}

/* Asymmetric link: the direction matters. */
static void test_direction(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("asym");
    int a = add_gpu(t, "a"), b = add_gpu(t, "b");
    cr_topo_add_link(t, a, b, CR_LINK_PCIE, 30e9, 10e9, 1, 1e-6);
    assert_int_equal(cr_topo_finalize(t), CR_OK);
    assert_close(cr_route_bw_Bps(t, 0, 1), 30e9, 1e-12, 0);
    assert_close(cr_route_bw_Bps(t, 1, 0), 10e9, 1e-12, 0);
    cr_topo_free(t);
}

/* Host memory as the way between GPUs (NCCL's SHM, route.pcie_p2p 0): a
 * hop writes up to the receiver's nearest CPU and the receiver reads it
 * down. g0, g1 under pcisw0 (16 GB/s links, one 16 GB/s uplink to cpu0),
 * g2, g3 under pcisw1 (two 16 GB/s uplinks to cpu0), g5 alone under cpu1,
 * which a 10 GB/s socket link joins to cpu0.
 * - the ring 0 -> 1 -> 2 -> 3 -> 0: pcisw0's uplink carries 0->1's and
 *   3->0's way down and 0->1's and 1->2's way up: 16 / 2 = 8 GB/s each;
 * - the chain 0 -> 1 alone: 16 (every arc one hop);
 * - 0 -> 5 and 5 -> 0: each crosses the socket link once each way, 10;
 * - a hop from g4, which has no way to a CPU: 0. */
static void test_host_share(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("pcie-box");
    int g[6];
    add_gpus(t, g, 6);
    int cpu0 = cr_topo_add_dev(t, CR_DEV_CPU, "cpu0", -1, -1);
    int cpu1 = cr_topo_add_dev(t, CR_DEV_CPU, "cpu1", -1, -1);
    int sw0 = cr_topo_add_dev(t, CR_DEV_PCISW, "pcisw0", -1, -1);
    int sw1 = cr_topo_add_dev(t, CR_DEV_PCISW, "pcisw1", -1, -1);
    for (int i = 0; i < 4; i++)
        cr_topo_add_link(t, g[i], i < 2 ? sw0 : sw1, CR_LINK_PCIE, 16e9, 16e9, 1, 0.5e-6);
    cr_topo_add_link(t, sw0, cpu0, CR_LINK_PCIE, 16e9, 16e9, 1, 0.5e-6);
    cr_topo_add_link(t, sw1, cpu0, CR_LINK_PCIE, 16e9, 16e9, 2, 0.5e-6);
    int s4 = cr_topo_add_dev(t, CR_DEV_PCISW, "pcisw4", -1, -1);
    cr_topo_add_link(t, g[4], s4, CR_LINK_PCIE, 16e9, 16e9, 1, 0.5e-6);
    cr_topo_add_link(t, g[5], cpu1, CR_LINK_PCIE, 16e9, 16e9, 1, 0.5e-6);
    cr_topo_add_link(t, cpu0, cpu1, CR_LINK_C2C, 10e9, 10e9, 1, 0.1e-6);
    assert_int_equal(cr_topo_finalize(t), CR_OK);
    assert_true(cr_route_pcie_p2p(t));
    assert_int_equal(cr_topo_set_param(t, "route.pcie_p2p", 0, "test"), CR_OK);
    assert_false(cr_route_pcie_p2p(t));
    double bw = -1;
    const int ring_s[4] = {0, 1, 2, 3}, ring_d[4] = {1, 2, 3, 0};
    double lat = -1;
    assert_int_equal(cr_route_host_share_Bps(t, ring_s, ring_d, 4, &bw, &lat), CR_OK);
    assert_close(bw, 8e9, 1e-12, 0);
    /* each hop up two PCIe links to cpu0 and down two: 4 x 0.5 us */
    assert_close(lat, 2e-6, 1e-12, 0);
    assert_int_equal(cr_route_host_share_Bps(t, ring_s, ring_d, 1, &bw, NULL), CR_OK);
    assert_close(bw, 16e9, 1e-12, 0);
    const int sock_s[2] = {0, 5}, sock_d[2] = {5, 0};
    assert_int_equal(cr_route_host_share_Bps(t, sock_s, sock_d, 2, &bw, &lat), CR_OK);
    assert_close(bw, 10e9, 1e-12, 0);
    /* g0 -> g5: up pcisw0, cpu0, the socket link to g5's cpu1, down one
     * link: 0.5 + 0.5 + 0.1 + 0.5 us; g5 -> g0 the same links reversed */
    assert_close(lat, 1.6e-6, 1e-12, 0);
    const int lost_s[1] = {4}, lost_d[1] = {0};
    assert_int_equal(cr_route_host_share_Bps(t, lost_s, lost_d, 1, &bw, &lat), CR_OK);
    assert_close(bw, 0.0, 0, 0);
    assert_close(lat, 0.0, 0, 0);

    /* NCCL's P2P level on the same box (peer access offered again):
     * g0 - g1 share pcisw0 (PIX): peer; g0 - g2 pass cpu0 and g0 - g5 the
     * socket link: not, with CPUs of unstated vendor, as on Intel; with
     * AMD CPUs they are where the node holds at most two ranks */
    assert_int_equal(cr_topo_set_param(t, "route.pcie_p2p", 1, "test"), CR_OK);
    const int ps[3] = {0, 0, 0}, pd[3] = {1, 2, 5}, two[3] = {2, 2, 2}, three[3] = {3, 3, 3};
    bool peer[3];
    assert_int_equal(cr_route_pcie_peers(t, ps, pd, two, 3, peer), CR_OK);
    assert_true(peer[0]);
    assert_false(peer[1]);
    assert_false(peer[2]);
    t->devs[cpu0].spec = CR_CPU_AMD;
    t->devs[cpu1].spec = CR_CPU_AMD;
    assert_int_equal(cr_route_pcie_peers(t, ps, pd, two, 3, peer), CR_OK);
    assert_true(peer[0] && peer[1] && peer[2]);
    assert_int_equal(cr_route_pcie_peers(t, ps, pd, three, 3, peer), CR_OK);
    assert_true(peer[0]);
    assert_false(peer[1] || peer[2]);
    assert_int_equal(cr_topo_set_param(t, "route.pcie_p2p", 0, "test"), CR_OK);
    assert_int_equal(cr_route_pcie_peers(t, ps, pd, two, 3, peer), CR_OK);
    assert_false(peer[0] || peer[1] || peer[2]);
    cr_topo_free(t);
}

/* A GPU's way to its nearest NIC as NCCL's LL128 switch reads it: g0
 * under a PCIe switch with its NIC (PXB: no CPU); g1 over C2C to a CPU
 * whose PCIe holds a NIC (GH200: P2C); g2 on a CPU's PCIe as its NIC is
 * (PHB); g3 with no NIC within reach. */
static void test_nic_path(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("nics");
    int g[4];
    add_gpus(t, g, 4);
    int sw = cr_topo_add_dev(t, CR_DEV_PCISW, "sw", -1, -1);
    int c1 = cr_topo_add_dev(t, CR_DEV_CPU, "c1", -1, -1);
    int c2 = cr_topo_add_dev(t, CR_DEV_CPU, "c2", -1, -1);
    int n0 = cr_topo_add_dev(t, CR_DEV_NIC, "n0", -1, -1);
    int n1 = cr_topo_add_dev(t, CR_DEV_NIC, "n1", -1, -1);
    int n2 = cr_topo_add_dev(t, CR_DEV_NIC, "n2", -1, -1);
    cr_topo_add_link(t, g[0], sw, CR_LINK_PCIE, 63e9, 63e9, 1, 0.5e-6);
    cr_topo_add_link(t, n0, sw, CR_LINK_PCIE, 63e9, 63e9, 1, 0.5e-6);
    cr_topo_add_link(t, g[1], c1, CR_LINK_C2C, 450e9, 450e9, 1, 0.2e-6);
    cr_topo_add_link(t, n1, c1, CR_LINK_PCIE, 63e9, 63e9, 1, 0.5e-6);
    cr_topo_add_link(t, g[2], c2, CR_LINK_PCIE, 31.5e9, 31.5e9, 1, 0.5e-6);
    cr_topo_add_link(t, n2, c2, CR_LINK_PCIE, 31.5e9, 31.5e9, 1, 0.5e-6);
    int c3 = cr_topo_add_dev(t, CR_DEV_CPU, "c3", -1, -1);
    cr_topo_add_link(t, g[3], c3, CR_LINK_PCIE, 31.5e9, 31.5e9, 1, 0.5e-6);
    assert_int_equal(cr_topo_finalize(t), CR_OK);
    static const bool cpu[4] = {false, true, true, false}, c2c[4] = {false, true, false, false};
    for (int r = 0; r < 4; r++) {
        bool via_cpu = true, via_c2c = true;
        cr_route_nic_path(t, r, &via_cpu, &via_c2c);
        assert_true(via_cpu == cpu[r]);
        assert_true(via_c2c == c2c[r]);
    }
    cr_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvswitch_board), cmocka_unit_test(test_gpu_transit),
        cmocka_unit_test(test_ecmp),           cmocka_unit_test(test_direction),
        cmocka_unit_test(test_kinds),          cmocka_unit_test(test_nic_share),
        cmocka_unit_test(test_policy),         cmocka_unit_test(test_host_share),
        cmocka_unit_test(test_nic_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
