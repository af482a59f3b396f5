/* SPDX-License-Identifier: MIT */
/*
 * The topology graph (model/topo.h): builder, id index, adjacency, the
 * invariant checker with its messages, parameters and cr_topo_equal. Graphs
 * are built in code so each test shows the one thing it breaks.
 */
#include "cr_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "topo_xml.h"

/* Two GPUs of one model joined by one NVLink bundle: a valid graph. */
static cr_topo *pair(void)
{
    cr_topo *t = cr_topo_new("pair");
    assert_non_null(t);
    cr_gpu_spec g = {.name = "G", .vendor = "nvidia", .sms = 1, .hbm_bytes = 1e9, .hbm_Bps = 1e12};
    g.peak_flops[CR_DT_BF16] = 1e12;
    assert_int_equal(cr_topo_add_gpu_spec(t, &g), 0);
    assert_int_equal(cr_topo_add_dev(t, CR_DEV_GPU, "gpu0", 0, 0), 0);
    assert_int_equal(cr_topo_add_dev(t, CR_DEV_GPU, "gpu1", 0, 0), 1);
    assert_int_equal(cr_topo_add_link(t, 0, 1, CR_LINK_NVLINK, 25e9, 25e9, 18, 0.3e-6), 0);
    return t;
}

static void check_fails(cr_topo *t, const char *want)
{
    cr_diag d = {{0}};
    cr_status st = cr_topo_check(t, &d);
    if (st != CR_EINVARIANT || strcmp(d.msg, want) != 0)
        fail_msg("status %d\n  got:  %s\n  want: %s", st, d.msg, want);
    cr_topo_free(t);
}

static void test_valid_pair(void **state)
{
    (void)state;
    cr_topo *t = pair();
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_check(t, &d), CR_OK);
    assert_true(t->finalized);
    assert_int_equal(t->n_gpus, 2);
    assert_int_equal(t->gpus[1], 1);
    assert_int_equal(t->devs[1].gpu_rank, 1);
    assert_int_equal(t->n_nodes, 1); /* node 0 seen */
    assert_int_equal(t->adj_off[1] - t->adj_off[0], 1);
    assert_close(cr_link_bw_from(&t->links[0], 0), 18 * 25e9, 1e-15, 0);
    assert_int_equal(cr_link_other(&t->links[0], 0), 1);
    assert_int_equal(cr_link_other(&t->links[0], 1), 0);
    assert_ptr_equal(cr_topo_gpu_spec(t, 1), &t->gpu_specs[0]);
    cr_topo_free(t);
    cr_topo_free(NULL);
}

static void test_asymmetric_link(void **state)
{
    (void)state;
    cr_topo *t = pair();
    t->links[0].bw_ab_Bps = 50e9;
    t->links[0].bw_ba_Bps = 40e9;
    t->links[0].count = 2;
    assert_close(cr_link_bw_from(&t->links[0], 0), 100e9, 1e-15, 0);
    assert_close(cr_link_bw_from(&t->links[0], 1), 80e9, 1e-15, 0);
    cr_topo_free(t);
}

/* 10,000 ids: the open-addressing index grows and still finds each one. */
static void test_many_ids(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("many");
    char id[32];
    for (int i = 0; i < 10000; i++) {
        snprintf(id, sizeof id, "n%d.nic%d", i / 8, i % 8);
        assert_int_equal(cr_topo_add_dev(t, CR_DEV_NIC, id, i / 8, -1), i);
    }
    for (int i = 0; i < 10000; i += 7) {
        snprintf(id, sizeof id, "n%d.nic%d", i / 8, i % 8);
        assert_int_equal(cr_topo_find_dev(t, id), i);
    }
    assert_int_equal(cr_topo_find_dev(t, "n0.nic8"), -1);
    assert_int_equal(t->n_nodes, 1250);
    cr_topo_free(t);
}

static void test_duplicate_id(void **state)
{
    (void)state;
    cr_topo *t = pair();
    assert_int_equal(cr_topo_add_dev(t, CR_DEV_CPU, "gpu1", -1, -1), -1);
    check_fails(t, "device id \"gpu1\" is used twice: ids must be unique");
}

static void test_no_gpu(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("empty");
    cr_topo_add_dev(t, CR_DEV_CPU, "cpu0", -1, -1);
    check_fails(t, "the topology has no GPU: describe at least one");
}

static void test_bad_links(void **state)
{
    (void)state;
    static const struct {
        double ab, ba;
        int count;
        double lat;
        const char *want;
    } cases[] = {
        {0, 25e9, 1, 0,
         "link \"gpu0\"-\"gpu1\": bandwidth must be finite, at least 1MB/s and at most 1PB/s in "
         "each direction"},
        {25e9, -1, 1, 0,
         "link \"gpu0\"-\"gpu1\": bandwidth must be finite, at least 1MB/s and at most 1PB/s in "
         "each direction"},
        {NAN, 25e9, 1, 0,
         "link \"gpu0\"-\"gpu1\": bandwidth must be finite, at least 1MB/s and at most 1PB/s in "
         "each direction"},
        {2e15, 25e9, 1, 0,
         "link \"gpu0\"-\"gpu1\": bandwidth must be finite, at least 1MB/s and at most 1PB/s in "
         "each direction"},
        /* 1 Mb/s (an NCCL dump's NIC speed="1"): under the 1MB/s floor */
        {125e3, 25e9, 1, 0,
         "link \"gpu0\"-\"gpu1\": bandwidth must be finite, at least 1MB/s and at most 1PB/s in "
         "each direction"},
        {25e9, 25e9, 0, 0, "link \"gpu0\"-\"gpu1\": count must be at least 1"},
        {25e9, 25e9, 1, -1e-6, "link \"gpu0\"-\"gpu1\": latency must be finite and not negative"},
        {25e9, 25e9, 1, INFINITY,
         "link \"gpu0\"-\"gpu1\": latency must be finite and not negative"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_topo *t = pair();
        t->links[0].bw_ab_Bps = cases[i].ab;
        t->links[0].bw_ba_Bps = cases[i].ba;
        t->links[0].count = cases[i].count;
        t->links[0].lat_s = cases[i].lat;
        check_fails(t, cases[i].want);
    }
    cr_topo *t = pair();
    cr_topo_add_link(t, 1, 1, CR_LINK_NVLINK, 1e9, 1e9, 1, 0);
    check_fails(t, "link from \"gpu1\" to itself: a link joins two devices");
    t = pair();
    cr_topo_add_link(t, 1, 7, CR_LINK_NVLINK, 1e9, 1e9, 1, 0);
    check_fails(t, "link 1 ends at a device that does not exist");
}

static void test_duplicate_bundle(void **state)
{
    (void)state;
    cr_topo *t = pair();
    cr_topo_add_link(t, 1, 0, CR_LINK_NVLINK, 25e9, 25e9, 1, 0);
    check_fails(t, "two nvlink links join \"gpu0\" and \"gpu1\": give one link a count instead");
    /* A bundle of another kind between the same pair is fine. */
    t = pair();
    cr_topo_add_link(t, 1, 0, CR_LINK_PCIE, 25e9, 25e9, 1, 0);
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_check(t, &d), CR_OK);
    cr_topo_free(t);
}

static void test_disconnected(void **state)
{
    (void)state;
    cr_topo *t = pair();
    cr_topo_add_dev(t, CR_DEV_GPU, "gpu2", 1, 0);
    cr_topo_add_dev(t, CR_DEV_CPU, "cpu0", 1, -1);
    cr_topo_add_link(t, 2, 3, CR_LINK_PCIE, 63e9, 63e9, 1, 0);
    check_fails(t, "GPU \"gpu2\" cannot reach GPU \"gpu0\": every GPU must be connected to every "
                   "other through links");
    /* Joining cpu0 to gpu1 connects everything (through non-GPU devices). */
    t = pair();
    cr_topo_add_dev(t, CR_DEV_GPU, "gpu2", 1, 0);
    cr_topo_add_dev(t, CR_DEV_CPU, "cpu0", 1, -1);
    cr_topo_add_link(t, 2, 3, CR_LINK_PCIE, 63e9, 63e9, 1, 0);
    cr_topo_add_link(t, 3, 1, CR_LINK_PCIE, 63e9, 63e9, 1, 0);
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_check(t, &d), CR_OK);
    assert_int_equal(t->n_gpus, 3);
    assert_int_equal(t->n_nodes, 2);
    cr_topo_free(t);
}

static void test_bad_gpu_specs(void **state)
{
    (void)state;
    cr_topo *t = pair();
    t->gpu_specs[0].hbm_Bps = 0;
    check_fails(t, "GPU model \"G\": HBM capacity and bandwidth must be finite and at least 1kB "
                   "and 1MB/s");
    t = pair();
    t->gpu_specs[0].hbm_bytes = 512; /* 512 B: a unit typo */
    check_fails(t, "GPU model \"G\": HBM capacity and bandwidth must be finite and at least 1kB "
                   "and 1MB/s");
    t = pair();
    t->gpu_specs[0].peak_flops[CR_DT_BF16] = 1e-300; /* issue 13 item 8, built in code */
    check_fails(t, "GPU model \"G\": bf16 FLOP/s must be finite, and 0 (none) or at least "
                   "1MFLOP/s");
    t = pair();
    t->gpu_specs[0].peak_flops[CR_DT_BF16] = 0;
    check_fails(t, "GPU model \"G\" has no peak FLOP/s for any dtype: give at least one");
    t = pair();
    t->gpu_specs[0].meas_flops[CR_DT_FP8] = -1;
    check_fails(t, "GPU model \"G\": fp8 FLOP/s must be finite, and 0 (none) or at least "
                   "1MFLOP/s");
    t = pair();
    t->gpu_specs[0].sms = 0;
    check_fails(t, "GPU model \"G\": SM count must be positive");
    /* measured ceilings above the peak, or of nothing the model has (QA
     * audit, 2026-12-06); the pair's peaks: 1 TB/s HBM, 1 TFLOP/s bf16 */
    t = pair();
    t->gpu_specs[0].meas_hbm_Bps = 3e12;
    check_fails(t, "GPU model \"G\": measured hbm-bw 3TB/s is above its peak 1TB/s: a kernel "
                   "cannot beat the peak; correct the peak (with its source) or the measurement");
    t = pair();
    t->gpu_specs[0].meas_flops[CR_DT_BF16] = 1.2e12;
    check_fails(t, "GPU model \"G\": measured bf16 FLOP/s 1.2TFLOP/s is above its peak 1TFLOP/s: "
                   "a kernel cannot beat the peak; correct the peak (with its source) or the "
                   "measurement");
    t = pair();
    t->gpu_specs[0].meas_flops[CR_DT_FP32] = 1e11;
    check_fails(t, "GPU model \"G\": measured fp32 FLOP/s but no fp32 peak: give the peak too "
                   "(e.g. <flops dtype=\"fp32\" peak=\"989TFLOP/s\"/>)");
    t = pair();
    t->gpu_specs[0].meas_l2_Bps = 5e12;
    check_fails(t, "GPU model \"G\": a measured l2-bw but no l2 size: give the cache's size (e.g. "
                   "l2=\"50MiB\")");
    t = pair();
    t->gpu_specs[0].l2_bytes = 50e6;
    t->gpu_specs[0].l2_Bps = 5e12;
    t->gpu_specs[0].meas_l2_Bps = 6e12;
    check_fails(t, "GPU model \"G\": measured l2-bw 6TB/s is above its peak 5TB/s: a kernel "
                   "cannot beat the peak; correct the peak (with its source) or the measurement");
    /* at the peak is allowed */
    t = pair();
    t->gpu_specs[0].meas_hbm_Bps = 1e12;
    t->gpu_specs[0].meas_flops[CR_DT_BF16] = 1e12;
    cr_diag dd = {{0}};
    assert_int_equal(cr_topo_check(t, &dd), CR_OK);
    cr_topo_free(t);
    t = pair();
    t->devs[1].spec = 3;
    check_fails(t, "GPU \"gpu1\" has no GPU model");
    t = pair();
    cr_topo_add_dev(t, CR_DEV_SWITCH, "sw", -1, 0); /* no switch models at all */
    cr_topo_add_link(t, 2, 0, CR_LINK_NVLINK, 1e9, 1e9, 1, 0);
    check_fails(t, "switch \"sw\" names no known switch model");
}

static void test_specs(void **state)
{
    (void)state;
    cr_topo *t = pair();
    cr_switch_spec s = {.name = "nvswitch3",
                        .generation = 3,
                        .multicast = true,
                        .reduction = true,
                        .source = "whitepaper"};
    assert_int_equal(cr_topo_add_switch_spec(t, &s), 0);
    assert_int_equal(cr_topo_find_switch_spec(t, "nvswitch3"), 0);
    assert_int_equal(cr_topo_find_switch_spec(t, "nvswitch4"), -1);
    assert_int_equal(cr_topo_find_gpu_spec(t, "G"), 0);
    assert_int_equal(cr_topo_find_gpu_spec(t, "H"), -1);
    assert_ptr_not_equal(t->switch_specs[0].name, s.name); /* deep copy */
    assert_string_equal(t->switch_specs[0].source, "whitepaper");
    cr_topo_free(t);
}

static void test_params(void **state)
{
    (void)state;
    cr_topo *t = pair();
    assert_close(cr_topo_param(t, "route.gpu_transit", 0), 0, 0, 0);
    assert_null(cr_topo_find_param(t, "route.gpu_transit"));
    assert_int_equal(cr_topo_set_param(t, "route.gpu_transit", 1, "TPU docs"), CR_OK);
    assert_close(cr_topo_param(t, "route.gpu_transit", 0), 1, 0, 0);
    assert_int_equal(cr_topo_set_param(t, "route.gpu_transit", 0.5, NULL), CR_OK);
    assert_int_equal(t->n_params, 1); /* replaced, not added */
    assert_close(cr_topo_find_param(t, "route.gpu_transit")->value, 0.5, 0, 0);
    assert_null(cr_topo_find_param(t, "route.gpu_transit")->source);
    t->params[0].value = NAN;
    check_fails(t, "parameter \"route.gpu_transit\" is not finite");
}

static void test_names(void **state)
{
    (void)state;
    for (int k = 0; k < CR_DEV__COUNT; k++)
        assert_int_equal(cr_dev_kind_parse(cr_dev_kind_name((cr_dev_kind)k)), k);
    for (int k = 0; k < CR_LINK__COUNT; k++)
        assert_int_equal(cr_link_kind_parse(cr_link_kind_name((cr_link_kind)k)), k);
    assert_string_equal(cr_link_kind_name(CR_LINK_XGMI), "xgmi");
    assert_string_equal(cr_dev_kind_name(CR_DEV_PCISW), "pcisw");
    assert_int_equal(cr_link_kind_parse("NVLink"), -1);
    assert_int_equal(cr_dev_kind_parse("tpu"), -1);
    assert_string_equal(cr_link_kind_name((cr_link_kind)99), "?");
}

static void test_equal(void **state)
{
    (void)state;
    cr_topo *a = pair(), *b = pair();
    cr_diag d = {{0}};
    assert_true(cr_topo_equal(a, b, &d));
    assert_string_equal(d.msg, "");
    b->links[0].lat_s = 0.31e-6;
    assert_false(cr_topo_equal(a, b, &d));
    assert_string_equal(d.msg, "link 0 (\"gpu0\"-\"gpu1\") differs");
    b->links[0].lat_s = a->links[0].lat_s;
    b->gpu_specs[0].hbm_bytes = 2e9;
    d = (cr_diag){{0}};
    assert_false(cr_topo_equal(a, b, &d));
    assert_string_equal(d.msg, "GPU model 0 (\"G\") differs");
    cr_topo_free(b);
    b = pair();
    cr_topo_set_param(b, "x", 1, NULL);
    d = (cr_diag){{0}};
    assert_false(cr_topo_equal(a, b, &d));
    assert_string_equal(d.msg, "parameter counts differ: 0 vs 1");
    cr_topo_free(a);
    cr_topo_free(b);
}

/* Adding after a finalize un-finalizes; the next check rebuilds. */
static void test_refinalize(void **state)
{
    (void)state;
    cr_topo *t = pair();
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_check(t, &d), CR_OK);
    cr_topo_add_dev(t, CR_DEV_GPU, "gpu2", 0, 0);
    assert_false(t->finalized);
    cr_topo_add_link(t, 2, 1, CR_LINK_NVLINK, 25e9, 25e9, 1, 0);
    assert_int_equal(cr_topo_check(t, &d), CR_OK);
    assert_int_equal(t->n_gpus, 3);
    assert_int_equal(t->adj_off[2] - t->adj_off[1], 2); /* gpu1: two bundles */
    cr_topo_free(t);
}

/* Kinds outside the enums, as a C caller of the builder may pass them,
 * are refused by the checker (they indexed the name and route tables: a
 * link kind 99 shifted past an int in route.h, QA audit of the API), and
 * a NULL id is refused at the add. */
static void test_bad_kinds(void **state)
{
    (void)state;
    cr_topo *t = pair();
    t->devs[1].kind = (cr_dev_kind)99;
    check_fails(t, "device \"gpu1\": kind 99 is not a cr_dev_kind");
    t = pair();
    t->links[0].kind = (cr_link_kind)-1;
    check_fails(t, "link \"gpu0\"-\"gpu1\": kind -1 is not a cr_link_kind");
    /* a CPU vendor outside cr_cpu_vendor, a switch model below -1: the
     * XML saver leaves them out, so the saved file loaded back unequal
     * (cr_topo_xml_save_memory: "loads back into an identical graph") */
    for (int v = -2; v <= CR_CPU__COUNT; v++) {
        t = pair();
        assert_int_equal(cr_topo_add_dev(t, CR_DEV_CPU, "cpu0", 0, v), 2);
        assert_int_equal(cr_topo_add_link(t, 0, 2, CR_LINK_PCIE, 64e9, 64e9, 1, 1e-6), 1);
        if (v == -2 || v == CR_CPU__COUNT) {
            char want[128];
            snprintf(want, sizeof want,
                     "CPU \"cpu0\": vendor %d is not a cr_cpu_vendor (0 to %d, or -1 unstated)", v,
                     CR_CPU__COUNT - 1);
            check_fails(t, want);
            continue;
        }
        cr_diag d = {{0}};
        assert_int_equal(cr_topo_check(t, &d), CR_OK);
        char *xml = NULL;
        size_t len = 0;
        assert_int_equal(cr_topo_xml_save_memory(t, &xml, &len, &d), CR_OK);
        cr_topo *back = NULL;
        assert_int_equal(cr_topo_xml_load_memory(xml, len, "pair.xml", &back, &d), CR_OK);
        if (!cr_topo_equal(t, back, &d))
            fail_msg("vendor %d: %s", v, d.msg);
        free(xml);
        cr_topo_free(back);
        cr_topo_free(t);
    }
    t = pair();
    assert_int_equal(cr_topo_add_dev(t, CR_DEV_SWITCH, "sw0", 0, -3), 2);
    check_fails(t, "switch \"sw0\" names no known switch model");
    t = pair();
    assert_int_equal(cr_topo_add_dev(t, CR_DEV_SWITCH, NULL, 0, -1), -1);
    assert_int_equal(t->n_devs, 2);
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_check(t, &d), CR_OK);
    cr_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_pair),
        cmocka_unit_test(test_asymmetric_link),
        cmocka_unit_test(test_many_ids),
        cmocka_unit_test(test_duplicate_id),
        cmocka_unit_test(test_no_gpu),
        cmocka_unit_test(test_bad_links),
        cmocka_unit_test(test_duplicate_bundle),
        cmocka_unit_test(test_disconnected),
        cmocka_unit_test(test_bad_gpu_specs),
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_equal),
        cmocka_unit_test(test_refinalize),
        cmocka_unit_test(test_bad_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
