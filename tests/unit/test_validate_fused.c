/* SPDX-License-Identifier: MIT */
/*
 * validate's fused family: the chunked-overlap pipeline (makespans derived
 * by hand below), the span measurement from a synthetic trace, and the
 * model match (ops' baseline, the host-issue floor, bad cases).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cr_test.h"
#include "cr_test_trace.h"
#include "ops.h"
#include "topo_xml.h"
#include "validate/validate.h"

/* --- the pipeline ------------------------------------------------------- */

static double pipe_s(int c, bool comm_first, double a, double b, double sg, double sn)
{
    cr_vfused_pipe p = {c, comm_first, a, b, sg, sn};
    return cr_vfused_pipeline_s(&p);
}

static void test_pipeline_no_interference(void **state)
{
    (void)state;
    /* One piece: GEMM then collective, nothing overlaps: a + b. */
    assert_close(pipe_s(1, false, 3, 2, 1.5, 1.5), 5, 1e-12, 0);
    assert_close(pipe_s(1, true, 3, 2, 1.5, 1.5), 5, 1e-12, 0);
    /* c pieces without slowdown: the first stage alone, c - 1 steps of the
     * slower stage, the last stage alone: a + (c - 1) max(a, b) + b. */
    assert_close(pipe_s(4, false, 3, 2, 1, 1), 3 + 3 * 3 + 2, 1e-12, 0);
    assert_close(pipe_s(4, false, 2, 3, 1, 1), 2 + 3 * 3 + 3, 1e-12, 0);
    /* collective first (ag_gemm): b + (c - 1) max(a, b) + a */
    assert_close(pipe_s(4, true, 2, 3, 1, 1), 3 + 3 * 3 + 2, 1e-12, 0);
    assert_close(pipe_s(8, true, 5, 1, 1, 1), 1 + 7 * 5 + 5, 1e-12, 0);
}

static void test_pipeline_interference(void **state)
{
    (void)state;
    /* c = 2, a = b = 1, both slowed 2x: G0 alone 0 -> 1; G1 and N0 run
     * together at half rate, both end at 3; N1 alone 3 -> 4. */
    assert_close(pipe_s(2, false, 1, 1, 2, 2), 4, 1e-12, 0);
    /* Only the GEMM slowed (2x): G0 0 -> 1; N0 ends at 2 while G1 has done
     * half its work; G1 alone finishes the other half at 2.5; N1 2.5 -> 3.5. */
    assert_close(pipe_s(2, false, 1, 1, 2, 1), 3.5, 1e-12, 0);
    /* Collective first, only the collective slowed 3x: N0 0 -> 1; G0 (1
     * unit) and N1 together from 1: G0 ends at 2, N1 has done 1/3; N1 alone
     * does the other 2/3 by 2 + 2/3; G1 runs 2 + 2/3 -> 3 + 2/3. */
    assert_close(pipe_s(2, true, 1, 1, 1, 3), 3 + 2.0 / 3, 1e-12, 0);
    /* Slowdown never makes it faster than without. */
    assert_true(pipe_s(4, false, 3, 2, 1.6, 1.6) >= pipe_s(4, false, 3, 2, 1, 1));
    /* Invalid schedules. */
    assert_true(isnan(pipe_s(0, false, 1, 1, 1, 1)));
    assert_true(isnan(pipe_s(2, false, -1, 1, 1, 1)));
    assert_true(isnan(pipe_s(2, false, 1, NAN, 1, 1)));
    assert_true(isnan(pipe_s(2, false, 1, 1, 0.5, 1)));
    assert_true(isnan(cr_vfused_pipeline_s(NULL)));
}

/* --- measurement ---------------------------------------------------------- */

#define FUSED_NAME(variant, chunks)                                                                \
    "cr:fused op=gemm_rs variant=" variant " dtype=bf16 m=1024 n=1024 k=1024 ranks=2 "             \
    "chunks=" chunks " algo=auto proto=auto iters=2"

static void test_measure_span(void **state)
{
    (void)state;
    /* Two iterations of an overlap case whose streams interleave: device 0
     * has 3 kernels, device 1 has 4 (no split by count is possible); the
     * span is 1000 .. max(1180, 1190) = 190 us, 95 us per iteration over
     * both devices. */
    const char *text = HDR R(FUSED_NAME("overlap", "4"), 990, 300) K(0, 1000, 50) K(0, 1040, 80)
        K(0, 1150, 30) K(1, 1005, 20) K(1, 1030, 40) K(1, 1100, 60) K(1, 1170, 20) END;
    char *path = cr_test_write_tmp(text, ".json");
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    int skipped = -1;
    assert_int_equal(cr_validate_read_trace(path, &l, &skipped, NULL, 0, &d), CR_OK);
    unlink(path);
    free(path);
    assert_int_equal(skipped, 0);
    assert_int_equal((int)l.n, 1);
    assert_int_equal(l.v[0].c.family, CR_VFAM_FUSED);
    assert_close(l.v[0].measured_s, 95e-6, 1e-9, 0);
    assert_int_equal(l.v[0].devices, 2);
    assert_int_equal(l.v[0].activities, 7);
    assert_string_equal(cr_vfam_name(CR_VFAM_FUSED), "fused");
    cr_vmeas_list_release(&l);
}

/* --- model match ----------------------------------------------------------- */

static cr_topo *x8(void)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    return t;
}

static void set_case(cr_vmeas *m, const char *name, int devices, double measured_s)
{
    memset(m, 0, sizeof *m);
    cr_diag d = {{0}};
    assert_int_equal(cr_vcase_parse(name, &m->c, &d), CR_OK);
    snprintf(m->source, sizeof m->source, "t.json");
    m->devices = devices;
    m->measured_s = measured_s;
}

static void test_eval_baseline_is_ops(void **state)
{
    (void)state;
    cr_topo *t = x8();
    /* variant=baseline predicts ops' baseline and takes ops' bound. */
    const cr_op_def *op = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_op_find("gemm_rs", &op, &d), CR_OK);
    cr_op_params p;
    memset(&p, 0, sizeof p);
    cr_op_params_defaults(op, &p);
    assert_int_equal(cr_op_param_set(op, &p, "m", "8192", &d), CR_OK);
    assert_int_equal(cr_op_param_set(op, &p, "n", "8192", &d), CR_OK);
    assert_int_equal(cr_op_param_set(op, &p, "k", "8192", &d), CR_OK);
    assert_int_equal(cr_op_param_set(op, &p, "tp", "2", &d), CR_OK);
    assert_int_equal(cr_op_param_set(op, &p, "dtype", "bf16", &d), CR_OK);
    cr_op_result o;
    assert_int_equal(cr_op_eval(t, op, &p, &o, &d), CR_OK);
    cr_vmeas m;
    set_case(&m,
             "cr:fused op=gemm_rs variant=baseline dtype=bf16 m=8192 n=8192 k=8192 ranks=2 "
             "chunks=1 iters=16",
             2, 957.8e-6);
    cr_vresult r;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_true(r.has_bound && r.has_pred);
    assert_close(r.bound_s, o.bound_s, 1e-12, 0);
    assert_close(r.pred_s, o.baseline_s, 1e-12, 0);
    assert_false(r.violation);
    /* Below the bound: a violation. */
    m.measured_s = o.bound_s * 0.99;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_true(r.violation);
    cr_topo_free(t);
}

static void test_eval_overlap_and_host_floor(void **state)
{
    (void)state;
    cr_topo *t = x8();
    cr_diag d = {{0}};
    cr_vmeas m;
    cr_vresult r;
    /* 1024^3 with 4 chunks in one process driving 2 GPUs: the device
     * schedule is tens of us, the host issues 4 steps x 2 GPUs x 23.75 us =
     * 190 us. */
    set_case(&m,
             "cr:fused op=gemm_ar variant=overlap dtype=bf16 m=1024 n=1024 k=1024 ranks=2 "
             "chunks=4 iters=50",
             2, 198e-6);
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_true(r.has_pred);
    assert_close(r.pred_s, 4 * 2 * CR_VFUSED_HOST_STEP_S, 1e-12, 0);
    assert_close(CR_VFUSED_HOST_STEP_S, 190e-6 / 8, 1e-12, 0);
    assert_non_null(strstr(r.note, "host-bound"));
    /* One GPU per process (devices = 1 seen): no host floor, the device
     * schedule alone, shorter. */
    m.devices = 1;
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_true(r.pred_s < 100e-6 && r.pred_s > 0);
    /* At 8192^3 the device schedule lies between the sum of the pieces'
     * solo times with full overlap and the unoverlapped sum x slowdown. */
    set_case(&m,
             "cr:fused op=gemm_rs variant=overlap dtype=bf16 m=8192 n=8192 k=8192 ranks=2 "
             "chunks=4 iters=16",
             2, 951.9e-6);
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    cr_op_result g;
    assert_int_equal(cr_op_eval_gemm(t, 2048, 8192, 4096, CR_DT_BF16, &g, &d), CR_OK);
    assert_true(r.pred_s > 4 * g.pred_s);
    assert_true(r.pred_s < 4 * g.pred_s * CR_VFUSED_SLOW * 2);
    assert_null(strstr(r.note, "host-bound"));
    assert_non_null(strstr(r.impl, "4 chunks"));
    cr_topo_free(t);
}

static void test_eval_bad_cases(void **state)
{
    (void)state;
    cr_topo *t = x8();
    cr_diag d = {{0}};
    cr_vmeas m;
    cr_vresult r;
    set_case(&m, "cr:fused op=moe variant=baseline m=1 n=1 k=1 ranks=2 iters=1", 2, 1e-3);
    memset(&d, 0, sizeof d); /* the first message of a diag sticks */
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "ag_gemm, gemm_rs and gemm_ar"));
    set_case(&m, "cr:fused op=ag_gemm variant=fast m=1024 n=1024 k=1024 ranks=2 iters=1", 2, 1e-3);
    memset(&d, 0, sizeof d); /* the first message of a diag sticks */
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "baseline or overlap"));
    set_case(&m, "cr:fused op=ag_gemm variant=overlap m=1024 n=1024 k=1024 ranks=2 iters=1", 2,
             1e-3);
    memset(&d, 0, sizeof d); /* the first message of a diag sticks */
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "chunks"));
    set_case(&m,
             "cr:fused op=ag_gemm variant=overlap m=1024 n=1024 k=1024 ranks=2 chunks=2.5 "
             "iters=1",
             2, 1e-3);
    memset(&d, 0, sizeof d); /* the first message of a diag sticks */
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_EINVAL);
    /* More ranks than the topology has: no figures, a note, not an error. */
    set_case(&m, "cr:fused op=ag_gemm variant=baseline m=1024 n=1024 k=1024 ranks=16 iters=1", 2,
             1e-3);
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_false(r.has_bound);
    assert_non_null(strstr(r.note, "--topo"));
    cr_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_no_interference),
        cmocka_unit_test(test_pipeline_interference),
        cmocka_unit_test(test_measure_span),
        cmocka_unit_test(test_eval_baseline_is_ops),
        cmocka_unit_test(test_eval_overlap_and_host_floor),
        cmocka_unit_test(test_eval_bad_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
