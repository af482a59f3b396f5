/* SPDX-License-Identifier: MIT */
/*
 * families: the table of families (every one parses, labels, evaluates and
 * is timed as validate.h says), and the model match against ops' and
 * coll's models: the stream-kernel, local SM-copy and launch predictions
 * with parameters set in the test (expected times derived below from those
 * parameters), bounds and violations, the committed H200 traces (every
 * single-GPU case predicted, none below its bound or its attainable
 * bound). Calibration's estimates of the same parameters: test_calibrate.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cr_test.h"
#include "cr_test_topo.h"
#include "params.h"
#include "ops.h"
#include "topo_xml.h"
#include "validate/validate.h"
#include "validate/validate_priv.h"

#define GIB 1073741824.0
#define MIB 1048576.0
/* h200-1.xml: 4.8 TB/s HBM, 132 SMs (H200 datasheet, Hopper whitepaper). */
#define PEAK 4.8e12

static cr_topo *h200_with(const char *const *kv)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    for (int i = 0; kv && kv[i]; i += 2)
        assert_int_equal(cr_topo_set_param(t, kv[i], atof(kv[i + 1]), "test"), CR_OK);
    return t;
}

static const char *const stream_params[] = {"ops.kernel.fixed",
                                            "1e-6",
                                            "ops.hbm.read_eff",
                                            "0.9",
                                            "ops.hbm.write_eff",
                                            "0.8",
                                            "ops.hbm.turn",
                                            "2",
                                            "ops.hbm.read_lat",
                                            "5e-7",
                                            "ops.hbm.reduce_tail",
                                            "3e-7",
                                            NULL};

/* Every family's entry: its name parses back to it, and it has a label
 * and a model match; each family is timed as validate.h says (collectives
 * from the last GPU's start, launches start to start, fused operators by
 * their span, the rest by device time). */
static void test_table(void **state)
{
    (void)state;
    static const cr_vtiming timing[CR_VFAM__COUNT] = {
        [CR_VFAM_HBM] = CR_VTIME_DEVICE,     [CR_VFAM_CE] = CR_VTIME_DEVICE,
        [CR_VFAM_MECH] = CR_VTIME_DEVICE,    [CR_VFAM_GEMM] = CR_VTIME_DEVICE,
        [CR_VFAM_LAUNCH] = CR_VTIME_SPACING, [CR_VFAM_NCCL] = CR_VTIME_LAST_START,
        [CR_VFAM_P2P] = CR_VTIME_DEVICE,     [CR_VFAM_FUSED] = CR_VTIME_SPAN};
    for (int f = 0; f < CR_VFAM__COUNT; f++) {
        const cr_vfam_def *def = cr_vfam_def_of((cr_vfam)f);
        assert_non_null(def);
        assert_non_null(def->label);
        assert_non_null(def->eval);
        assert_int_equal(def->measure, timing[f]);
        char name[32];
        snprintf(name, sizeof name, "cr:%s", def->name);
        cr_vcase c;
        cr_diag d = {{0}};
        assert_int_equal(cr_vcase_parse(name, &c, &d), CR_OK);
        assert_int_equal(c.family, f);
        assert_string_equal(cr_vfam_name((cr_vfam)f), def->name);
    }
    assert_null(cr_vfam_def_of(CR_VFAM__COUNT));
    assert_string_equal(cr_vfam_name(CR_VFAM__COUNT), "?");
    /* the families calibration takes nothing from */
    assert_null(cr_vfam_def_of(CR_VFAM_NCCL)->calibrate);
    assert_null(cr_vfam_def_of(CR_VFAM_FUSED)->calibrate);
}

static cr_vresult eval_case(cr_topo *t, const char *name, double measured_s)
{
    cr_vmeas m;
    memset(&m, 0, sizeof m);
    cr_diag d = {{0}};
    assert_int_equal(cr_vcase_parse(name, &m.c, &d), CR_OK);
    snprintf(m.source, sizeof m.source, "test");
    m.measured_s = measured_s;
    cr_vresult r;
    if (cr_validate_eval(t, &m, NULL, &r, &d) != CR_OK)
        fail_msg("%s: %s", name, d.msg);
    return r;
}

/* A streaming kernel: fixed + read latency (when it reads) + reads at
 * read_eff x peak + writes at write_eff x peak + min(rd, wr) at turn x
 * peak. */
static void test_stream_model(void **state)
{
    (void)state;
    cr_topo *t = h200_with(stream_params);
    cr_vresult r = eval_case(t,
                             "cr:hbm op=copy bytes=1073741824 iters=3 rd_bytes=1073741824 "
                             "wr_bytes=1073741824 flops=0",
                             600e-6);
    double want = 1e-6 + 5e-7 + GIB / (0.9 * PEAK) + GIB / (0.8 * PEAK) + GIB / (2 * PEAK);
    assert_close(r.pred_s, want, 1e-9, 0);
    /* warm bound: the L2's 60 MiB may stay on chip (doc/bounds.md 1.4) */
    assert_close(r.bound_s, (2 * GIB - 60 * 1048576.0) / PEAK, 1e-9, 0);
    /* a write kernel: no read latency, no turnaround */
    r = eval_case(t, "cr:hbm op=write bytes=1048576 iters=3 rd_bytes=0 wr_bytes=1048576 flops=0",
                  2e-6);
    assert_close(r.pred_s, 1e-6 + MIB / (0.8 * PEAK), 1e-9, 0);
    /* a read-only kernel reduces: + the reduction's tail */
    r = eval_case(t, "cr:hbm op=read bytes=1048576 iters=3 rd_bytes=1048576 wr_bytes=0 flops=0",
                  3e-6);
    assert_close(r.pred_s, 1e-6 + 5e-7 + 3e-7 + MIB / (0.9 * PEAK), 1e-9, 0);
    /* triad a = b + s c: two arrays read, one written; 2 FLOP per fp32
     * element are far below the CUDA cores' rate */
    r = eval_case(t,
                  "cr:hbm op=triad bytes=1073741824 iters=3 rd_bytes=2147483648 "
                  "wr_bytes=1073741824 flops=536870912",
                  800e-6);
    want = 1e-6 + 5e-7 + 2 * GIB / (0.9 * PEAK) + GIB / (0.8 * PEAK) + GIB / (2 * PEAK);
    assert_close(r.pred_s, want, 1e-9, 0);
    cr_topo_free(t);
}

/* A local copy by SMs: fixed + bytes / softmin(sms x one SM's rate, HBM's
 * copy rate), HBM's copy rate from the stream model (bytes copied per
 * second: 1 / (1/rd + 1/wr + 1/turn)). A large knee makes the soft minimum
 * a plain one. */
static void test_sm_copy(void **state)
{
    (void)state;
    static const char *const p[] = {"ops.kernel.fixed",
                                    "1e-6",
                                    "ops.hbm.read_eff",
                                    "0.9",
                                    "ops.hbm.write_eff",
                                    "0.8",
                                    "ops.hbm.turn",
                                    "2",
                                    "ops.hbm.read_lat",
                                    "5e-7",
                                    "ops.ldst.sm_bw",
                                    "50e9",
                                    "ops.ldst.fixed",
                                    "1.5e-6",
                                    "ops.tma.sm_bw",
                                    "40e9",
                                    "ops.tma.fixed",
                                    "2e-6",
                                    "ops.smcopy.knee",
                                    "60",
                                    NULL};
    cr_topo *t = h200_with(p);
    double hbm = 1 / (1 / (0.9 * PEAK) + 1 / (0.8 * PEAK) + 1 / (2 * PEAK));
    cr_op_result r;
    cr_diag d = {{0}};
    assert_int_equal(cr_op_eval_sm_copy(t, "ldst", 1, GIB, &r, &d), CR_OK);
    assert_close(r.pred_s, 1.5e-6 + GIB / 50e9, 1e-9, 0);
    assert_close(r.bound_cold_s, 2 * GIB / PEAK, 1e-12, 0);
    assert_int_equal(cr_op_eval_sm_copy(t, "tma", 4, GIB, &r, &d), CR_OK);
    assert_close(r.pred_s, 2e-6 + GIB / 160e9, 1e-9, 0);
    assert_int_equal(cr_op_eval_sm_copy(t, "ldst", 132, GIB, &r, &d), CR_OK);
    assert_close(r.pred_s, 1.5e-6 + GIB / hbm, 1e-6, 0);
    /* through validate: the case's keys pick mechanism and SMs */
    cr_vresult v = eval_case(t,
                             "cr:mech mech=tma bytes=1073741824 sms=4 chunk=32768 iters=3 "
                             "rd_bytes=1073741824 wr_bytes=1073741824 flops=0",
                             30e-3);
    assert_true(v.has_pred && v.has_bound);
    assert_close(v.pred_s, 2e-6 + GIB / 160e9, 1e-9, 0);
    assert_string_equal(v.impl, "tma, 4 SMs");
    /* errors: SMs outside the GPU, an unknown mechanism */
    assert_int_equal(cr_op_eval_sm_copy(t, "ldst", 0, GIB, &r, &d), CR_ERANGE);
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_op_eval_sm_copy(t, "ldst", 133, GIB, &r, &d), CR_ERANGE);
    assert_non_null(strstr(d.msg, "133 SMs, GPU 0 of h200-1 has 1 to 132"));
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_op_eval_sm_copy(t, "dma", 4, GIB, &r, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "\"dma\" is not ldst or tma"));
    memset(&d, 0, sizeof d);
    cr_vmeas m;
    memset(&m, 0, sizeof m);
    snprintf(m.source, sizeof m.source, "x.json");
    assert_int_equal(cr_vcase_parse("cr:mech mech=ldst bytes=4096 sms=500 iters=1", &m.c, &d),
                     CR_OK);
    assert_int_equal(cr_validate_eval(t, &m, NULL, &v, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "sms=500"));
    /* a mechanism ops does not model: the bound, no prediction */
    assert_int_equal(cr_vcase_parse("cr:mech mech=multimem bytes=4096 sms=4 iters=1", &m.c, &d),
                     CR_OK);
    m.measured_s = 10e-6;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &v, &d), CR_OK);
    assert_true(v.has_bound);
    assert_false(v.has_pred);
    assert_non_null(strstr(v.note, "got mech=multimem"));
    cr_topo_free(t);
}

/* With the shipped constants: more SMs never slow a copy, and no
 * prediction is below its bound, for every mechanism, size and SM count. */
static void test_sm_copy_properties(void **state)
{
    (void)state;
    cr_topo *t = h200_with(NULL);
    cr_diag d = {{0}};
    static const char *const mech[] = {"ldst", "tma"};
    for (int k = 0; k < 2; k++)
        for (double b = 4096; b <= 8 * GIB; b *= 4) {
            double prev = INFINITY;
            for (int s = 1; s <= 132; s++) {
                cr_op_result r;
                assert_int_equal(cr_op_eval_sm_copy(t, mech[k], s, b, &r, &d), CR_OK);
                assert_true(r.pred_s >= r.bound_s);
                assert_true(r.pred_s <= prev * (1 + 1e-12));
                prev = r.pred_s;
            }
        }
    cr_topo_free(t);
}

static void test_launch(void **state)
{
    (void)state;
    static const char *const p[] = {"ops.launch.host",
                                    "5e-6",
                                    "ops.launch.sync",
                                    "11e-6",
                                    "ops.launch.graph",
                                    "1e-6",
                                    "ops.launch.event",
                                    "2e-6",
                                    NULL};
    cr_topo *t = h200_with(p);
    static const struct {
        const char *name;
        double want_s;
    } c[] = {{"cr:launch kind=async nodes=1 iters=100", 5e-6},
             {"cr:launch kind=sync nodes=1 iters=100", 11e-6},
             {"cr:launch kind=graph nodes=100 iters=10", 1e-6},
             {"cr:launch kind=event nodes=1 iters=100", 2e-6}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        cr_vresult r = eval_case(t, c[i].name, 4e-6);
        assert_true(r.has_pred);
        assert_false(r.has_bound);
        assert_close(r.pred_s, c[i].want_s, 1e-12, 0);
        assert_close(r.error_pct, (c[i].want_s - 4e-6) / 4e-6 * 100, 1e-9, 0);
    }
    cr_vmeas m;
    memset(&m, 0, sizeof m);
    cr_diag d = {{0}};
    snprintf(m.source, sizeof m.source, "x.json");
    /* a kind without a constant: measured only, with the reason */
    assert_int_equal(cr_vcase_parse("cr:launch kind=warp iters=1", &m.c, &d), CR_OK);
    cr_vresult r;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_false(r.has_pred);
    assert_non_null(strstr(r.note, "kind=async, sync, graph and event (got warp)"));
    double s = 0;
    assert_int_equal(cr_op_launch_s(t, "nope", &s, &d), CR_EINVAL);
    cr_topo_free(t);
}

static void test_eval_hbm(void **state)
{
    (void)state;
    cr_topo *t = cr_test_open_topo("h200-1");
    cr_vmeas m;
    memset(&m, 0, sizeof m);
    cr_diag d = {{0}};
    assert_int_equal(cr_vcase_parse("cr:hbm op=copy bytes=1073741824 iters=3 rd_bytes=1073741824 "
                                    "wr_bytes=1073741824 flops=0",
                                    &m.c, &d),
                     CR_OK);
    /* Bound (warm): 2 x 2^30 bytes less the 60 MiB the L2 may hold, over
     * the H200's 4.8 TB/s = 434.285 us; cold: all of it, 447.392 us. */
    double bound = (2.0 * 1073741824 - 60 * 1048576.0) / 4.8e12;
    double cold = 2.0 * 1073741824 / 4.8e12;
    m.measured_s = 510e-6;
    cr_vresult r;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_true(r.has_bound);
    assert_close(r.bound_s, bound, 1e-6, 0);
    assert_string_equal(r.binding, "hbm");
    assert_false(r.violation);
    assert_close(r.pct_of_roofline, bound / 510e-6 * 100, 1e-6, 0);
    assert_true(r.has_pred);
    assert_close(r.error_pct, (r.pred_s - 510e-6) / 510e-6 * 100, 1e-9, 0);
    /* A time below the bound is impossible. */
    assert_close(r.bound_cold_s, cold, 1e-6, 0);
    m.measured_s = 400e-6;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_true(r.violation);
    /* Between the two: cache-resident for a case that may be warm; a
     * violation for one that declares its data cold (crbench cache=cold) */
    m.measured_s = 440e-6;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_false(r.violation);
    assert_true(r.cache_resident);
    assert_false(r.held_cold);
    assert_int_equal(cr_vcase_parse("cr:hbm op=copy bytes=1073741824 iters=3 sets=1 cache=cold "
                                    "rd_bytes=1073741824 wr_bytes=1073741824 flops=0",
                                    &m.c, &d),
                     CR_OK);
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_true(r.violation);
    assert_false(r.cache_resident);
    assert_true(r.held_cold); /* roofline judges its verdict and calls by bound_cold_s */
    /* Host-timed (no GPU activity in its range): 440 us is below this
     * cache=cold case's bound (447.392 us, above), but a host time is no
     * device time: no violation, and the note says how it was timed. */
    m.host_timed = true;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_false(r.violation);
    assert_false(r.cache_resident);
    assert_non_null(strstr(r.note, "host-timed: no GPU activity in the range"));
    m.host_timed = false;
    /* A case without its keys is an error naming the key. */
    assert_int_equal(cr_vcase_parse("cr:hbm op=copy iters=3", &m.c, &d), CR_OK);
    snprintf(m.source, sizeof m.source, "x.json");
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "lacks the key \"bytes\""));
    cr_topo_free(t);
}

static void test_eval_gemm_and_multi_gpu(void **state)
{
    (void)state;
    cr_topo *t = cr_test_open_topo("h200-1");
    cr_vmeas m;
    memset(&m, 0, sizeof m);
    cr_diag d = {{0}};
    assert_int_equal(cr_vcase_parse("cr:gemm dtype=bf16 m=8192 n=8192 k=8192 iters=5 "
                                    "flops=1099511627776",
                                    &m.c, &d),
                     CR_OK);
    m.measured_s = 1.4e-3;
    cr_vresult r;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    /* Compute bound: 2 x 8192^3 FLOP at 989.5 TFLOP/s = 1.1112 ms. */
    assert_close(r.bound_s, 2.0 * 8192.0 * 8192 * 8192 / 989.5e12, 1e-6, 0);
    assert_string_equal(r.binding, "compute");
    assert_false(r.violation);
    /* Two ranks on a one-GPU topology: no figures, a note, not an error. */
    assert_int_equal(
        cr_vcase_parse("cr:nccl coll=allreduce bytes=1048576 nranks=2 iters=5", &m.c, &d), CR_OK);
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_false(r.has_bound);
    assert_non_null(strstr(r.note, "topology h200-1 has 1 GPUs"));
    cr_topo_free(t);
}

/* crbench's rank=-1 (one thread drives both GPUs): a case timed on both
 * GPUs starts at the last GPU's start, so the host launch gap is not in it
 * and the prediction leaves coll.launch_gap out; one timed on fewer GPUs
 * than ranks (here none: a host-timed range) includes it, and the
 * prediction is exactly one gap longer (2 ranks, 1 extra GPU). */
static void test_eval_launch_gap(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    if (cr_topo_open("hgx-h200-8", &t, &d) != CR_OK)
        fail_msg("%s", d.msg);
    cr_params p;
    cr_params_default(CR_GEN_HOPPER, &p);
    double gap = 0;
    assert_int_equal(cr_params_get(&p, "coll.launch_gap", &gap, &d), CR_OK);
    cr_vmeas m;
    memset(&m, 0, sizeof m);
    assert_int_equal(
        cr_vcase_parse("cr:nccl coll=allreduce bytes=4096 nranks=2 rank=-1 iters=5", &m.c, &d),
        CR_OK);
    m.measured_s = 20e-6;
    cr_vresult both, host;
    m.devices = 2;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &both, &d), CR_OK);
    m.devices = 0;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &host, &d), CR_OK);
    assert_true(both.has_pred && host.has_pred);
    assert_close(host.pred_s - both.pred_s, gap, 1e-12, 0);
    assert_close(host.bound_s, both.bound_s, 1e-15, 0);
    cr_topo_free(t);
}

/* A forced algorithm, protocol or element type that does not parse is an
 * error naming the key: before, algo=Tre was predicted as NCCL's own choice
 * (ring/LL for a 1 GiB allreduce forced to LL on 2 GPUs) under a label that
 * still said "Tre", and dtype=bf61 as fp32. A valid forced Tree is kept. */
static void test_eval_coll_bad_keys(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    if (cr_topo_open("hgx-h200-8", &t, &d) != CR_OK)
        fail_msg("%s", d.msg);
    static const char *const bad[][2] = {
        {"cr:nccl coll=allreduce bytes=1073741824 nranks=2 rank=-1 algo=Tre proto=LL iters=2",
         "algo=Tre"},
        {"cr:nccl coll=allreduce bytes=1073741824 nranks=2 rank=-1 algo=Ring proto=L iters=2",
         "proto=L"},
        {"cr:nccl coll=allreduce bytes=1073741824 nranks=2 dtype=bf61 iters=2", "dtype=bf61"}};
    cr_vmeas m;
    cr_vresult r;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&m, 0, sizeof m);
        snprintf(m.source, sizeof m.source, "x.json");
        assert_int_equal(cr_vcase_parse(bad[i][0], &m.c, &d), CR_OK);
        m.measured_s = 3e-3;
        m.devices = 2;
        cr_diag e = {{0}};
        assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &e), CR_EINVAL);
        assert_non_null(strstr(e.msg, "x.json"));
        assert_non_null(strstr(e.msg, bad[i][1]));
    }
    memset(&m, 0, sizeof m);
    assert_int_equal(cr_vcase_parse("cr:nccl coll=allreduce bytes=1073741824 nranks=2 rank=-1 "
                                    "algo=Tree proto=LL iters=2",
                                    &m.c, &d),
                     CR_OK);
    m.measured_s = 3e-3;
    m.devices = 2;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_string_equal(r.impl, "tree/ll");
    cr_topo_free(t);
}

/* The committed H200 sweep on the shipped h200-1: every single-GPU case has
 * a prediction, none is below its bound or its attainable bound (measured
 * ceilings), and every prediction is at or above its bound. */
static void test_committed_traces(void **state)
{
    (void)state;
    static const char *const files[] = {
        "traces/h200-1/kernels-hbm.json", "traces/h200-1/kernels-ce.json",
        "traces/h200-1/kernels-mech.json", "traces/h200-1/kernels-gemm.json",
        "traces/h200-1/kernels-launch.json"};
    cr_topo *t = h200_with(NULL);
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        int skipped = 0;
        if (cr_validate_read_trace(files[i], &l, &skipped, NULL, 0, &d) != CR_OK)
            fail_msg("%s", d.msg);
        assert_int_equal(skipped, 0);
    }
    /* 56 hbm, 55 ce, 152 mech, 54 gemm, 4 launch cases (doc/validation.md) */
    assert_int_equal(l.n, 56 + 55 + 152 + 54 + 4);
    for (size_t i = 0; i < l.n; i++) {
        cr_vresult r;
        if (cr_validate_eval(t, &l.v[i], NULL, &r, &d) != CR_OK)
            fail_msg("%s", d.msg);
        if (!r.has_pred || r.violation || r.beats_attainable ||
            (r.has_bound && r.pred_s < r.bound_s))
            fail_msg("%s %s: pred %s %g us, bound %g us, attainable %g us, measured %g us",
                     cr_vfam_name(l.v[i].c.family), l.v[i].label, r.has_pred ? "" : "(none)",
                     r.pred_s * 1e6, r.bound_s * 1e6, r.attainable_s * 1e6,
                     l.v[i].measured_s * 1e6);
    }
    cr_vmeas_list_release(&l);
    cr_topo_free(t);
}

/* The rows of an nccl-tests log share one rank set: with a cache
 * (cr_validate_cache) they build one collective context between them, not
 * one per row (validate of a 32,768-rank log on a 4,096-node fat tree: 31
 * contexts of 0.15 s each before), and get the same figures as without
 * one. Two rank sets taken in turn build two. */
static void test_eval_cache_one_context_per_rank_set(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h100-8", &t, &d), CR_OK);
    cr_vmeas_list l = {0};
    cr_nccl_log_opts o;
    memset(&o, 0, sizeof o);
    if (cr_validate_read_nccl_tests("tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log", &o, &l,
                                    &d) != CR_OK)
        fail_msg("%s", d.msg);
    assert_true(l.n >= 10);
    cr_validate_cache *c = cr_validate_cache_new();
    assert_non_null(c);
    cr_validate_opts with = {NULL, c}, without = {NULL, NULL};
    for (size_t i = 0; i < l.n; i++) {
        cr_vresult a, b;
        assert_int_equal(cr_validate_eval(t, &l.v[i], &with, &a, &d), CR_OK);
        assert_int_equal(cr_validate_eval(t, &l.v[i], &without, &b, &d), CR_OK);
        assert_true(a.has_bound && a.has_pred);
        assert_true(a.bound_s == b.bound_s && a.pred_s == b.pred_s);
        assert_string_equal(a.binding, b.binding);
        assert_string_equal(a.impl, b.impl);
        assert_string_equal(a.note, b.note);
    }
    assert_int_equal(cr_validate_cache_builds(c), 1);
    /* 4 GPUs and the 8 in turn: one more context, each kept */
    for (int k = 0; k < 4; k++) {
        cr_vmeas m;
        memset(&m, 0, sizeof m);
        m.measured_s = 1e-3;
        assert_int_equal(cr_vcase_parse(k % 2 ? "cr:nccl coll=allreduce bytes=1048576 nranks=8"
                                              : "cr:nccl coll=allreduce bytes=1048576 nranks=4",
                                        &m.c, &d),
                         CR_OK);
        cr_vresult r;
        assert_int_equal(cr_validate_eval(t, &m, &with, &r, &d), CR_OK);
        assert_true(r.has_bound);
    }
    assert_int_equal(cr_validate_cache_builds(c), 2);
    cr_validate_cache_free(c);
    cr_validate_cache_free(NULL);
    cr_vmeas_list_release(&l);
    cr_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_stream_model),
        cmocka_unit_test(test_sm_copy),
        cmocka_unit_test(test_sm_copy_properties),
        cmocka_unit_test(test_launch),
        cmocka_unit_test(test_eval_hbm),
        cmocka_unit_test(test_eval_coll_bad_keys),
        cmocka_unit_test(test_eval_gemm_and_multi_gpu),
        cmocka_unit_test(test_eval_launch_gap),
        cmocka_unit_test(test_committed_traces),
        cmocka_unit_test(test_eval_cache_one_context_per_rank_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
