/* SPDX-License-Identifier: MIT */
/*
 * calibrate: measured ceilings and ops' and coll's parameters from
 * synthetic measurements made with known figures (each expected value
 * derived below from those figures), and a calibrated topology predicting
 * what it was calibrated from.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cr_test.h"
#include "cr_test_topo.h"
#include "ops.h"
#include "route.h"
#include "topo_xml.h"
#include "validate/validate.h"

#define GIB 1073741824.0
#define MIB 1048576.0
/* h200-1.xml: 4.8 TB/s HBM, 132 SMs (H200 datasheet, Hopper whitepaper). */
#define PEAK 4.8e12

static void test_calibrate(void **state)
{
    (void)state;
    cr_vmeas ms[4];
    memset(ms, 0, sizeof ms);
    cr_diag d = {{0}};
    /* Two large HBM copies: 2 GiB moved in 500 us and in 550 us. Ceiling:
     * the best, 2^31 / 500e-6 B/s; typical: their median. */
    assert_int_equal(cr_vcase_parse("cr:hbm op=copy bytes=1073741824 iters=3 rd_bytes=1073741824 "
                                    "wr_bytes=1073741824",
                                    &ms[0].c, &d),
                     CR_OK);
    ms[1].c = ms[0].c;
    ms[0].measured_s = 500e-6;
    ms[1].measured_s = 550e-6;
    /* A small one (1 MiB) does not count. */
    assert_int_equal(cr_vcase_parse("cr:hbm op=copy bytes=1048576 iters=3 rd_bytes=1048576 "
                                    "wr_bytes=1048576",
                                    &ms[2].c, &d),
                     CR_OK);
    ms[2].measured_s = 0.1e-6;
    assert_int_equal(
        cr_vcase_parse("cr:ce dir=h2d host=pinned bytes=1073741824 iters=3", &ms[3].c, &d), CR_OK);
    ms[3].measured_s = 1073741824 / 55e9;
    cr_vmeas_list l = {.v = ms, .n = 4, .cap = 4};
    cr_vcalib c;
    cr_validate_calibrate(&l, &c);
    double moved = 2.0 * 1073741824;
    assert_close(c.hbm_Bps, moved / 500e-6, 1e-12, 0);
    assert_close(c.hbm_typ_Bps, 0.5 * (moved / 500e-6 + moved / 550e-6), 1e-12, 0);
    assert_close(c.h2d_pinned_Bps, 55e9, 1e-9, 0);
    cr_topo *t = cr_test_open_topo("h200-1");
    assert_int_equal(cr_validate_apply_calibration(t, &c, "test"), CR_OK);
    assert_close(cr_topo_gpu_spec(t, 0)->meas_hbm_Bps, moved / 500e-6, 1e-12, 0);
    /* ops.hbm.eff = typical / 4.8 TB/s; ops.pcie.eff = 55 / 63 GB/s (h200-1's link). */
    assert_close(cr_topo_param(t, "ops.hbm.eff", -1), c.hbm_typ_Bps / 4.8e12, 1e-12, 0);
    assert_close(cr_topo_param(t, "ops.pcie.eff", -1), 55.0 / 63.0, 1e-9, 0);
    cr_topo_free(t);
}

static void test_calibrate_p2p(void **state)
{
    (void)state;
    cr_vmeas ms[3];
    memset(ms, 0, sizeof ms);
    cr_diag d = {{0}};
    /* TMA: 1 GiB with all SMs in 3 ms; 1 GiB from one SM in 20 ms; 4 KiB in
     * 0.5 ms (far above any prediction: the launch absorbs the rest). */
    assert_int_equal(
        cr_vcase_parse("cr:p2p mech=tma mode=pull bytes=1073741824 sms=132 iters=3", &ms[0].c, &d),
        CR_OK);
    ms[0].measured_s = 3e-3;
    assert_int_equal(
        cr_vcase_parse("cr:p2p mech=tma mode=pull bytes=1073741824 sms=1 iters=3", &ms[1].c, &d),
        CR_OK);
    ms[1].measured_s = 20e-3;
    assert_int_equal(
        cr_vcase_parse("cr:p2p mech=tma mode=pull bytes=4096 sms=1 iters=3", &ms[2].c, &d), CR_OK);
    ms[2].measured_s = 0.5e-3;
    cr_vmeas_list l = {.v = ms, .n = 3, .cap = 3};
    cr_vcalib c;
    cr_validate_calibrate(&l, &c);
    assert_close(c.p2p_Bps[1], 1073741824 / 3e-3, 1e-12, 0);
    assert_close(c.p2p_sm1_Bps[1], 1073741824 / 20e-3, 1e-12, 0);
    assert_close(c.p2p_small_bytes[1], 4096, 0, 0);
    cr_topo *t = NULL;
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    /* eff = rate / the link coll's copy prediction multiplies it by: the
     * pair's NVLink, 18 x 25 GB/s = 450 GB/s, not the all-paths route of
     * 513 GB/s (NVLink + 63 GB/s of PCIe through the CPU, the bound's);
     * SMs to reach it = eff x link / one SM's rate = 20 / 3 (the ratio of
     * the two times). */
    assert_close(cr_route_bw_Bps(t, 0, 1), 513e9, 1e-9, 0);
    double link = 450e9;
    assert_int_equal(cr_validate_apply_calibration(t, &c, "test"), CR_OK);
    double eff = fmin(1073741824 / 3e-3 / link, 1.0);
    assert_close(cr_topo_param(t, "mech.tma.eff", -1), eff, 1e-12, 0);
    assert_close(cr_topo_param(t, "mech.tma.sms", -1), eff * link / (1073741824 / 20e-3), 1e-9, 0);
    double launch = cr_topo_param(t, "mech.tma.launch", -1);
    assert_true(launch > 0 && launch < 0.5e-3);
    /* No copy-engine figures: its parameters stay unset. */
    assert_close(cr_topo_param(t, "mech.ce.eff", -1), -1, 0, 0);
    /* The calibrated topology predicts the measured copy: 1 GiB in 3 ms
     * (within 1%: one chunk's fill) after the calibrated launch, which here
     * holds most of the 4 KiB case's 0.5 ms. */
    cr_coll_ctx *cx = cr_test_coll_ctx(t, "0,1");
    cr_coll_req rq = cr_coll_req_default(CR_COLL_SENDRECV, 1073741824);
    rq.mech = CR_MECH_TMA;
    cr_coll_result r;
    assert_int_equal(cr_coll_eval(cx, &rq, &r, &d), CR_OK);
    assert_close(r.pred.pred_s - launch, 3e-3, 0.01, 0);
    cr_coll_ctx_free(cx);
    cr_topo_free(t);
}

/* calibrate's closed forms for the stream model, from synthetic cases made
 * with known figures: reads at 4.5 TB/s, writes at 4.2 TB/s, a copy whose
 * extra time is 2^30 B at 15 TB/s (turn = 15 / 4.8), a kernel fixed cost of
 * 0.8 us, a read latency of 1 us and a reduction tail of 0.3 us, a
 * GEMV-like bf16 GEMM at 3.9 TB/s, and launch figures. */
static void test_calibrate_stream(void **state)
{
    (void)state;
    const double R = 4.5e12, W = 4.2e12, T = 15e12, F = 0.8e-6, L = 1e-6, X = 0.3e-6;
    cr_vmeas ms[9];
    memset(ms, 0, sizeof ms);
    cr_diag d = {{0}};
    const char *names[9] = {
        "cr:hbm op=read bytes=1073741824 iters=3 rd_bytes=1073741824 wr_bytes=0",
        "cr:hbm op=write bytes=1073741824 iters=3 rd_bytes=0 wr_bytes=1073741824",
        "cr:hbm op=copy bytes=1073741824 iters=3 rd_bytes=1073741824 wr_bytes=1073741824",
        "cr:hbm op=write bytes=1048576 iters=3 rd_bytes=0 wr_bytes=1048576",
        "cr:hbm op=read bytes=1048576 iters=3 rd_bytes=1048576 wr_bytes=0",
        "cr:gemm dtype=bf16 m=16 n=8192 k=8192 iters=3",
        "cr:launch kind=graph nodes=100 iters=10",
        "cr:launch kind=event nodes=1 iters=10",
        "cr:hbm op=copy bytes=1048576 iters=3 rd_bytes=1048576 wr_bytes=1048576"};
    for (int i = 0; i < 9; i++)
        assert_int_equal(cr_vcase_parse(names[i], &ms[i].c, &d), CR_OK);
    ms[0].measured_s = GIB / R;
    ms[1].measured_s = GIB / W;
    ms[2].measured_s = GIB / R + GIB / W + GIB / T;
    ms[3].measured_s = F + MIB / W;
    ms[4].measured_s = F + L + X + MIB / R;
    double gemv = 2.0 * (16 * 8192 + 8192.0 * 8192 + 16 * 8192);
    ms[5].measured_s = gemv / 3.9e12;
    ms[6].measured_s = 1.5e-6;
    ms[7].measured_s = 2e-6;
    ms[8].measured_s = F + L + MIB / R + MIB / W + MIB / T;
    cr_vmeas_list l = {.v = ms, .n = 9, .cap = 9};
    cr_vcalib c;
    cr_validate_calibrate(&l, &c);
    cr_topo *t = cr_test_open_topo("h200-1");
    assert_int_equal(cr_validate_apply_calibration(t, &c, "test"), CR_OK);
    assert_close(cr_topo_param(t, "ops.hbm.read_eff", -1), R / PEAK, 1e-9, 0);
    assert_close(cr_topo_param(t, "ops.hbm.write_eff", -1), W / PEAK, 1e-9, 0);
    assert_close(cr_topo_param(t, "ops.hbm.turn", -1), T / PEAK, 1e-6, 0);
    assert_close(cr_topo_param(t, "ops.kernel.fixed", -1), F, 1e-6, 0);
    assert_close(cr_topo_param(t, "ops.hbm.read_lat", -1), L, 1e-6, 0);
    assert_close(cr_topo_param(t, "ops.hbm.reduce_tail", -1), X, 1e-6, 0);
    assert_close(cr_topo_param(t, "ops.gemm.mem_eff", -1), 3.9e12 / PEAK, 1e-9, 0);
    assert_close(cr_topo_param(t, "ops.launch.graph", -1), 1.5e-6, 1e-12, 0);
    assert_close(cr_topo_param(t, "ops.launch.event", -1), 2e-6, 1e-12, 0);
    /* what was not measured stays unset */
    assert_close(cr_topo_param(t, "ops.launch.sync", -1), -1, 0, 0);
    /* the calibrated topology predicts the copy it was calibrated from */
    cr_vmeas m;
    memset(&m, 0, sizeof m);
    assert_int_equal(cr_vcase_parse("cr:hbm op=copy bytes=1073741824 iters=3 rd_bytes=1073741824 "
                                    "wr_bytes=1073741824 flops=0",
                                    &m.c, &d),
                     CR_OK);
    m.measured_s = ms[2].measured_s;
    cr_vresult r;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_close(r.pred_s, F + L + ms[2].measured_s, 1e-6, 0);
    cr_topo_free(t);
}

/* Measured ceilings go to the measured GPU's model only (rank 0's, the
 * one the traces are checked against), and calibrating a calibrated
 * topology again names each kept figure's first origin instead of
 * nesting the old source (QA audit, 2026-12-06). */
static void test_calibrate_measured_model(void **state)
{
    (void)state;
    static const char xml[] =
        "<topology name=\"two-models\">"
        "<gpu-model name=\"A\" vendor=\"nvidia\" sms=\"132\" hbm=\"141GB\" hbm-bw=\"4.8TB/s\" "
        "l2=\"60MiB\"><flops dtype=\"bf16\" peak=\"989TFLOP/s\"/></gpu-model>"
        "<gpu-model name=\"B\" vendor=\"nvidia\" sms=\"108\" hbm=\"80GB\" hbm-bw=\"1.5TB/s\">"
        "<flops dtype=\"bf16\" peak=\"312TFLOP/s\"/></gpu-model>"
        "<gpu id=\"gpu0\" model=\"A\"/><gpu id=\"gpu1\" model=\"B\"/>"
        "<link a=\"gpu0\" b=\"gpu1\" kind=\"nvlink\" bw=\"100GB/s\"/></topology>";
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_xml_load_memory(xml, strlen(xml), "two.xml", &t, &d), CR_OK);
    cr_vcalib c;
    memset(&c, 0, sizeof c);
    c.hbm_Bps = 4.65e12;
    c.flops[CR_DT_BF16] = 800e12;
    c.flops[CR_DT_FP32] = 50e12;
    assert_int_equal(cr_validate_apply_calibration(t, &c, "run1"), CR_OK);
    const cr_gpu_spec *a = cr_topo_gpu_spec(t, 0), *b = cr_topo_gpu_spec(t, 1);
    assert_close(a->meas_hbm_Bps, 4.65e12, 0, 0);
    assert_close(a->meas_flops[CR_DT_BF16], 800e12, 0, 0);
    assert_close(b->meas_hbm_Bps, 0, 0, 0);
    assert_close(b->meas_flops[CR_DT_BF16], 0, 0, 0);
    assert_close(b->meas_flops[CR_DT_FP32], 0, 0, 0);
    assert_null(b->meas_source);
    assert_null(b->meas_flops_source[CR_DT_BF16]);
    assert_string_equal(a->meas_source, "run1");
    assert_string_equal(a->meas_flops_source[CR_DT_BF16], "run1");
    assert_string_equal(a->meas_flops_source[CR_DT_FP32], "run1");
    assert_null(a->meas_flops_source[CR_DT_FP16]);

    /* run2 measures the L2 only: the HBM figure is kept from run1 */
    memset(&c, 0, sizeof c);
    c.l2_Bps = 9e12;
    assert_int_equal(cr_validate_apply_calibration(t, &c, "run2"), CR_OK);
    assert_string_equal(cr_topo_gpu_spec(t, 0)->meas_source,
                        "run2; hbm-bw not measured again, kept from: run1");
    /* run2 again: the same text, not run1 nested in run2 */
    assert_int_equal(cr_validate_apply_calibration(t, &c, "run2"), CR_OK);
    assert_string_equal(cr_topo_gpu_spec(t, 0)->meas_source,
                        "run2; hbm-bw not measured again, kept from: run1");
    /* run3 measures bf16 FLOP/s only: <measured> (HBM from run1, L2 from
     * run2) keeps its source, bf16 takes run3's and fp32 keeps run1's (QA
     * audit, 2026-12-07: every measured figure was credited to run3) */
    memset(&c, 0, sizeof c);
    c.flops[CR_DT_BF16] = 810e12;
    assert_int_equal(cr_validate_apply_calibration(t, &c, "run3"), CR_OK);
    assert_string_equal(cr_topo_gpu_spec(t, 0)->meas_source,
                        "run2; hbm-bw not measured again, kept from: run1");
    assert_string_equal(cr_topo_gpu_spec(t, 0)->meas_flops_source[CR_DT_BF16], "run3");
    assert_string_equal(cr_topo_gpu_spec(t, 0)->meas_flops_source[CR_DT_FP32], "run1");
    /* run4 measures HBM only: L2 still from run2, the FLOP/s untouched */
    memset(&c, 0, sizeof c);
    c.hbm_Bps = 4.6e12;
    assert_int_equal(cr_validate_apply_calibration(t, &c, "run4"), CR_OK);
    assert_string_equal(cr_topo_gpu_spec(t, 0)->meas_source,
                        "run4; l2-bw not measured again, kept from: run2");
    assert_string_equal(cr_topo_gpu_spec(t, 0)->meas_flops_source[CR_DT_BF16], "run3");
    assert_string_equal(cr_topo_gpu_spec(t, 0)->meas_flops_source[CR_DT_FP32], "run1");
    cr_topo_free(t);
}

/* ops.pcie.eff on an asymmetric host link: each pinned direction against
 * the link's own side in that direction (QA audit, 2026-12-06: 55 GB/s host
 * to GPU against the 20 GB/s GPU-to-host side gave 1). */
static void test_calibrate_asymmetric_pcie(void **state)
{
    (void)state;
    static const char xml[] =
        "<topology name=\"asym\">"
        "<gpu-model name=\"A\" vendor=\"nvidia\" sms=\"132\" hbm=\"141GB\" hbm-bw=\"4.8TB/s\">"
        "<flops dtype=\"bf16\" peak=\"989TFLOP/s\"/></gpu-model>"
        "<cpu id=\"cpu0\"/><gpu id=\"gpu0\" model=\"A\"/>"
        "<link a=\"cpu0\" b=\"gpu0\" kind=\"pcie\" bw-ab=\"63GB/s\" bw-ba=\"20GB/s\"/>"
        "</topology>";
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_xml_load_memory(xml, strlen(xml), "asym.xml", &t, &d), CR_OK);
    cr_vcalib c;
    memset(&c, 0, sizeof c);
    c.h2d_pinned_Bps = 55e9;
    c.d2h_pinned_Bps = 15e9;
    assert_int_equal(cr_validate_apply_calibration(t, &c, "test"), CR_OK);
    /* the better of 55 / 63 (host to GPU) and 15 / 20 (GPU to host) */
    assert_close(cr_topo_param(t, "ops.pcie.eff", -1), 55.0 / 63.0, 1e-9, 0);
    cr_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibrate),
        cmocka_unit_test(test_calibrate_p2p),
        cmocka_unit_test(test_calibrate_stream),
        cmocka_unit_test(test_calibrate_measured_model),
        cmocka_unit_test(test_calibrate_asymmetric_pcie),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
