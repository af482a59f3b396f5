/* SPDX-License-Identifier: MIT */
/*
 * Topology metrics on small hand-built graphs whose answers are derived in
 * the comments: injection per fabric, bisection (plain and node-aligned),
 * switch summary, pair classes (full matrix and sampled).
 */
#include "cr_test.h"

#include <stdlib.h>
#include <string.h>

#include "topo_metrics.h"

#define NVL 25e9 /* per link per direction */

static int add_spec(cr_topo *t)
{
    char name[] = "X", vendor[] = "nvidia", src[] = "test";
    cr_gpu_spec s = {0};
    s.name = name;
    s.vendor = vendor;
    s.source = src;
    s.peak_flops[CR_DT_BF16] = 1e15;
    s.hbm_bytes = 1e11;
    s.hbm_Bps = 1e12;
    s.sms = 100;
    return cr_topo_add_gpu_spec(t, &s);
}

static int add_switch_spec(cr_topo *t, const char *name, bool mc)
{
    char buf[32], src[] = "test";
    snprintf(buf, sizeof buf, "%s", name);
    cr_switch_spec s = {0};
    s.name = buf;
    s.source = src;
    s.generation = mc ? 3 : 0;
    s.multicast = s.reduction = mc;
    return cr_topo_add_switch_spec(t, &s);
}

/* One box: 4 GPUs, each with 2 NVLinks to one switch and a 30 GB/s PCIe
 * link to one CPU. */
static cr_topo *box4(void)
{
    cr_topo *t = cr_topo_new("box4");
    int g = add_spec(t);
    int sw = cr_topo_add_dev(t, CR_DEV_SWITCH, "sw", -1, add_switch_spec(t, "nvs", true));
    int cpu = cr_topo_add_dev(t, CR_DEV_CPU, "cpu", -1, -1);
    for (int i = 0; i < 4; i++) {
        char id[16];
        snprintf(id, sizeof id, "g%d", i);
        int v = cr_topo_add_dev(t, CR_DEV_GPU, id, -1, g);
        cr_topo_add_link(t, v, sw, CR_LINK_NVLINK, NVL, NVL, 2, 0);
        cr_topo_add_link(t, v, cpu, CR_LINK_PCIE, 30e9, 30e9, 1, 0);
    }
    cr_diag d = {{0}};
    if (cr_topo_check(t, &d))
        fail_msg("%s", d.msg);
    return t;
}

/* nodes x gpn GPUs: per node an NVSwitch (2 links per GPU), one NIC per GPU
 * (PCIe 60 GB/s) with one 50 GB/s IB port to a single IB switch. */
static cr_topo *cluster(int nodes, int gpn)
{
    cr_topo *t = cr_topo_new("cluster");
    int g = add_spec(t);
    int nvs = add_switch_spec(t, "nvs", true);
    int ibs = add_switch_spec(t, "ibsw", false);
    int ib = cr_topo_add_dev(t, CR_DEV_SWITCH, "ib", -1, ibs);
    for (int n = 0; n < nodes; n++) {
        char id[32];
        snprintf(id, sizeof id, "n%d.nvsw", n);
        int sw = cr_topo_add_dev(t, CR_DEV_SWITCH, id, n, nvs);
        for (int i = 0; i < gpn; i++) {
            snprintf(id, sizeof id, "n%d.g%d", n, i);
            int v = cr_topo_add_dev(t, CR_DEV_GPU, id, n, g);
            snprintf(id, sizeof id, "n%d.nic%d", n, i);
            int nic = cr_topo_add_dev(t, CR_DEV_NIC, id, n, -1);
            cr_topo_add_link(t, v, sw, CR_LINK_NVLINK, NVL, NVL, 2, 0);
            cr_topo_add_link(t, v, nic, CR_LINK_PCIE, 60e9, 60e9, 1, 0);
            cr_topo_add_link(t, nic, ib, CR_LINK_IB, 50e9, 50e9, 1, 0);
        }
    }
    cr_diag d = {{0}};
    if (cr_topo_check(t, &d))
        fail_msg("%s", d.msg);
    return t;
}

static void test_injection(void **state)
{
    (void)state;
    cr_topo *t = box4();
    double bw[CR_LINK__COUNT];
    assert_int_equal(cr_metrics_injection(t, 2, bw), CR_OK);
    assert_close(bw[CR_LINK_NVLINK], 2 * NVL, 1e-12, 0);
    assert_close(bw[CR_LINK_PCIE], 30e9, 1e-12, 0);
    assert_close(bw[CR_LINK_IB], 0, 0, 0);
    assert_int_equal(cr_metrics_injection(t, 4, bw), CR_EINVAL);
    cr_topo_free(t);

    /* IB: the node's NIC ports (gpn x 50 GB/s) shared by its gpn GPUs. */
    t = cluster(2, 4);
    double lo[CR_LINK__COUNT], hi[CR_LINK__COUNT];
    assert_int_equal(cr_metrics_injection_range(t, lo, hi), CR_OK);
    assert_close(lo[CR_LINK_IB], 50e9, 1e-12, 0);
    assert_close(hi[CR_LINK_IB], 50e9, 1e-12, 0);
    assert_close(lo[CR_LINK_PCIE], 60e9, 1e-12, 0);
    assert_close(hi[CR_LINK_NVLINK], 2 * NVL, 1e-12, 0);
    cr_topo_free(t);
}

static void test_bisection(void **state)
{
    (void)state;
    cr_bisection b;
    cr_topo *t = box4();
    /* A = {g0, g1}: each sends 50 GB/s into the switch, which reaches g2, g3
     * at 50 each (100), plus 30 each through the CPU (60): 160 GB/s. */
    assert_int_equal(cr_metrics_bisection(t, &b), CR_OK);
    assert_false(b.node_aligned);
    assert_int_equal(b.n_a, 2);
    assert_int_equal(b.n_b, 2);
    assert_close(b.ab_Bps, 4 * NVL + 60e9, 1e-9, 0);
    assert_close(b.bw_Bps, 4 * NVL + 60e9, 1e-9, 0);
    cr_topo_free(t);

    /* Three nodes of 8: A is node 0 (floor(3/2) = 1 node), B nodes 1-2. A's
     * 8 NIC ports (50 GB/s each) bind both ways: 400 GB/s. NVLink cannot
     * cross nodes and GPUs do not forward. */
    t = cluster(3, 8);
    assert_int_equal(cr_metrics_bisection(t, &b), CR_OK);
    assert_true(b.node_aligned);
    assert_int_equal(b.n_nodes, 3);
    assert_int_equal(b.n_a, 8);
    assert_int_equal(b.n_b, 16);
    assert_close(b.ab_Bps, 8 * 50e9, 1e-9, 0);
    assert_close(b.ba_Bps, 8 * 50e9, 1e-9, 0);
    cr_topo_free(t);
}

static void test_switches(void **state)
{
    (void)state;
    cr_topo *t = cluster(2, 4);
    cr_switch_summary *s = NULL;
    int n = 0;
    assert_int_equal(cr_metrics_switches(t, &s, &n), CR_OK);
    assert_int_equal(n, 2);
    assert_string_equal(s[0].name, "nvs");
    assert_int_equal(s[0].count, 2);
    assert_true(s[0].multicast && s[0].reduction);
    assert_int_equal(s[0].max_ports, 4 * 2);                  /* 4 GPUs x 2 links */
    assert_close(s[0].max_switch_Bps, 4 * 2 * NVL, 1e-12, 0); /* 200 GB/s */
    assert_int_equal(s[0].kinds, 1u << CR_LINK_NVLINK);
    assert_string_equal(s[1].name, "ibsw");
    assert_int_equal(s[1].count, 1);
    assert_false(s[1].multicast);
    assert_int_equal(s[1].max_ports, 8); /* one port per NIC, 2 nodes x 4 */
    free(s);
    cr_topo_free(t);
}

static void test_pairs_full(void **state)
{
    (void)state;
    cr_topo *t = box4();
    cr_pair_summary p;
    assert_int_equal(cr_metrics_pairs(t, &p), CR_OK);
    assert_false(p.sampled);
    assert_non_null(p.matrix);
    /* Every pair: 2 NVLinks through the switch (50) + PCIe via the CPU (30). */
    assert_int_equal(p.same_node.pairs, 12);
    assert_int_equal(p.same_node.evaluated, 12);
    assert_int_equal(p.other_node.pairs, 0);
    assert_close(p.same_node.min_Bps, 80e9, 1e-9, 0);
    assert_close(p.same_node.max_Bps, 80e9, 1e-9, 0);
    /* NVLink alone: the 2 links through the switch, 50 GB/s. */
    assert_close(p.same_node.scaleup_min_Bps, 50e9, 1e-9, 0);
    assert_close(p.same_node.scaleup_max_Bps, 50e9, 1e-9, 0);
    assert_close(p.matrix[0 * 4 + 3], 80e9, 1e-9, 0);
    assert_close(p.matrix[2 * 4 + 2], 0, 0, 0);
    cr_pair_summary_release(&p);
    cr_topo_free(t);
}

static void test_pairs_sampled(void **state)
{
    (void)state;
    cr_topo *t = cluster(3, 8); /* 24 GPUs > 16: sampled */
    cr_pair_summary p;
    assert_int_equal(cr_metrics_pairs(t, &p), CR_OK);
    assert_true(p.sampled);
    assert_null(p.matrix);
    assert_int_equal(p.same_node.pairs, 3 * 8 * 7);
    assert_int_equal(p.other_node.pairs, 24 * 23 - 3 * 8 * 7);
    /* node 0's first GPU to 7 others, node 2's likewise: 14 pairs; node 0 to
     * nodes 1 and 2 (middle = 1 = second): 8 x 8 x 2 = 128 pairs. */
    assert_int_equal(p.same_node.evaluated, 14);
    assert_int_equal(p.other_node.evaluated, 128);
    /* Same node: NVLink 50 GB/s + the loop through both NICs and the IB
     * switch, 50 GB/s (the IB port binds): 100 GB/s. Other node: only the
     * network path, bound by one 50 GB/s port. */
    assert_close(p.same_node.min_Bps, 100e9, 1e-9, 0);
    assert_close(p.same_node.max_Bps, 100e9, 1e-9, 0);
    assert_close(p.other_node.min_Bps, 50e9, 1e-9, 0);
    assert_close(p.other_node.max_Bps, 50e9, 1e-9, 0);
    /* Over NVLink alone: 50 GB/s in a node, nothing between nodes. */
    assert_close(p.same_node.scaleup_min_Bps, 50e9, 1e-9, 0);
    assert_close(p.same_node.scaleup_max_Bps, 50e9, 1e-9, 0);
    assert_close(p.other_node.scaleup_min_Bps, 0, 0, 0);
    assert_close(p.other_node.scaleup_max_Bps, 0, 0, 0);
    cr_pair_summary_release(&p);
    cr_pair_summary_release(NULL);
    cr_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_injection),     cmocka_unit_test(test_bisection),
        cmocka_unit_test(test_switches),      cmocka_unit_test(test_pairs_full),
        cmocka_unit_test(test_pairs_sampled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
