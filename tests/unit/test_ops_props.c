/* SPDX-License-Identifier: MIT */
/*
 * Properties of every problem of both shipped suites on every shipped
 * topology: bound <= baseline (headroom >= 1), bound <= every prediction
 * (a prediction below the bound would be an impossible implementation),
 * bound <= attainable, the binding resource named, the overlap prediction
 * the faster of the two schedules with `why` naming it (and saying so when
 * neither beats the baseline). Problems that need
 * more GPUs than a topology has are skipped with a reason; every 8-GPU or
 * larger topology must evaluate most of pkb. The laws are the fuzz target's
 * (tests/fuzz/fuzz_ops_laws.c, ops_laws_case), whose corpus replays here.
 */
#include "cr_test.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "suite.h"
#include "topo_xml.h"
#include "tests/fuzz/fuzz_ops_laws.c"

/* ops_laws_case (tests/fuzz/fuzz_ops_laws.c): a law broken fails the test;
 * a refusal skips the problem ("does not fit this machine"). */
static void check_case(const cr_topo *t, const char *where, const cr_op_def *op,
                       const cr_op_params *p, int *ok, int *skipped)
{
    char why[640];
    ops_laws_verdict v = ops_laws_case(t, where, op, p, why, sizeof why);
    if (v == OPS_LAWS_BROKEN)
        fail_msg("%s", why);
    if (v == OPS_LAWS_REFUSED)
        (*skipped)++;
    else
        (*ok)++;
}

static void check_problem(const cr_topo *t, const cr_suite_problem *pr, int *ok, int *skipped)
{
    check_case(t, pr->name, pr->op, &pr->params, ok, skipped);
}

static void test_suites_everywhere(void **state)
{
    (void)state;
    int topos = 0;
    for (int i = 0; cr_topo_shipped_name(i); i++) {
        cr_topo *t = NULL;
        cr_diag d = {{0}};
        if (cr_topo_open(cr_topo_shipped_name(i), &t, &d) != CR_OK)
            fail_msg("%s: %s", cr_topo_shipped_name(i), d.msg);
        topos++;
        for (int k = 0; cr_suite_shipped_name(k); k++) {
            cr_suite *s = NULL;
            if (cr_suite_open(cr_suite_shipped_name(k), &s, &d) != CR_OK)
                fail_msg("%s: %s", cr_suite_shipped_name(k), d.msg);
            int ok = 0, skipped = 0;
            for (int p = 0; p < s->n_problems; p++)
                check_problem(t, &s->problems[p], &ok, &skipped);
            if (t->n_gpus >= 8 && strcmp(s->name, "pkb") == 0 && ok < s->n_problems * 9 / 10)
                fail_msg("pkb on %s: only %d of %d problems evaluated", t->name, ok, s->n_problems);
            if (t->n_gpus == 1 && strcmp(s->name, "pkb") == 0 && ok < 4)
                fail_msg("pkb on %s: the single-GPU problems must run (%d ran)", t->name, ok);
            cr_suite_free(s);
        }
        cr_topo_free(t);
    }
    assert_true(topos >= 12);
}

/* The same properties off the suites' shapes: every operator of the
 * catalog on every shipped topology with its defaults, and with each size
 * it takes 4 and 64 times larger and 16 times smaller, one at a time, and a
 * 2-wide process grid for the halo exchange (whose four concurrent phases
 * once predicted 597 us under a 1067 us bound on l40s-pcie-8: px=2
 * halo=64, the mechanism times taking their maximum where they share a
 * GPU's one PCIe port). */
static void test_catalog_sizes_everywhere(void **state)
{
    (void)state;
    static const cr_opp sizes[] = {CR_OPP_M,     CR_OPP_N,      CR_OPP_K,      CR_OPP_BATCH,
                                   CR_OPP_SEQ,   CR_OPP_TOKENS, CR_OPP_HIDDEN, CR_OPP_FFN,
                                   CR_OPP_VOCAB, CR_OPP_NX,     CR_OPP_NY,     CR_OPP_CHANNELS,
                                   CR_OPP_HALO,  CR_OPP_PARAMS};
    int ok = 0, skipped = 0;
    for (int i = 0; cr_topo_shipped_name(i); i++) {
        cr_topo *t = NULL;
        cr_diag d = {{0}};
        if (cr_topo_open(cr_topo_shipped_name(i), &t, &d) != CR_OK)
            fail_msg("%s: %s", cr_topo_shipped_name(i), d.msg);
        for (int k = 0; cr_op_at(k); k++) {
            const cr_op_def *op = cr_op_at(k);
            cr_op_params base;
            memset(&base, 0, sizeof base);
            cr_op_params_defaults(op, &base);
            char where[96];
            snprintf(where, sizeof where, "%s (defaults)", cr_op_name(op));
            check_case(t, where, op, &base, &ok, &skipped);
            for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
                if (!cr_op_uses(op, sizes[j]))
                    continue;
                static const double scale[] = {1.0 / 16, 4, 64};
                for (size_t u = 0; u < sizeof scale / sizeof scale[0]; u++) {
                    cr_op_params p = base;
                    p.v[sizes[j]] = floor(base.v[sizes[j]] * scale[u]);
                    if (!(p.v[sizes[j]] >= 1))
                        continue;
                    p.set[sizes[j]] = true;
                    snprintf(where, sizeof where, "%s %s=%.0f", cr_op_name(op),
                             cr_opp_name(sizes[j]), p.v[sizes[j]]);
                    check_case(t, where, op, &p, &ok, &skipped);
                    if (cr_op_uses(op, CR_OPP_PX)) {
                        p.v[CR_OPP_PX] = 2;
                        p.set[CR_OPP_PX] = true;
                        snprintf(where, sizeof where, "%s %s=%.0f px=2", cr_op_name(op),
                                 cr_opp_name(sizes[j]), p.v[sizes[j]]);
                        check_case(t, where, op, &p, &ok, &skipped);
                    }
                }
            }
        }
        cr_topo_free(t);
    }
    /* most cases fit some machine: a grid that skips everything tests nothing */
    if (ok < 3 * skipped)
        fail_msg("catalog grid: %d cases evaluated, %d skipped", ok, skipped);
}

/* The suite rows API gives the same numbers as cr_op_eval. */
static void test_suite_rows(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_suite *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h100-8", &t, &d), CR_OK);
    assert_int_equal(cr_suite_open("pkb", &s, &d), CR_OK);
    cr_op_row *rows = NULL;
    int n = 0;
    assert_int_equal(cr_op_eval_suite(t, s, &rows, &n, &d), CR_OK);
    assert_int_equal(n, s->n_problems);
    for (int i = 0; i < n; i++) {
        assert_int_equal(rows[i].status, CR_OK);
        cr_op_result r;
        assert_int_equal(cr_op_eval(t, s->problems[i].op, &s->problems[i].params, &r, &d), CR_OK);
        assert_close(rows[i].bound_us, r.bound_s * 1e6, 1e-12, 0);
        assert_close(rows[i].baseline_us, r.baseline_s * 1e6, 1e-12, 0);
        assert_close(rows[i].headroom, r.headroom, 1e-12, 0);
        assert_string_equal(rows[i].binding, r.binding);
        assert_string_equal(rows[i].name, s->problems[i].name);
    }
    free(rows);
    cr_suite_free(s);
    cr_topo_free(t);
}

static void test_fuzz_replay(void **state)
{
    (void)state;
    assert_true(cr_test_replay_dir("tests/fuzz/corpus/ops_laws", LLVMFuzzerTestOneInput, 1 << 20) >=
                4);
}

/* A heavier skew never lowers an alltoallv's bound: the hot receiver's
 * ingress cut carries a GPU port's latency as the other GPU cuts do. It
 * had none, and where it bound (small messages, skew 2 and up) the bound
 * fell below the even split's: hgx-h100-8, 28,381 B, 0.648 us at skew 1,
 * 0.600 at skew 8 (QA audit, 2026-12-06). */
static void test_alltoallv_skew_monotone(void **state)
{
    (void)state;
    static const char *const topos[] = {"hgx-h100-8", "hgx-b200-8", "mi300x-8", "h100-ib-4n"};
    static const double sizes[] = {1024, 28382, 1048576, 64.0 * 1048576};
    const cr_op_def *op = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_op_find("alltoallv", &op, &d), CR_OK);
    for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
        cr_topo *t = NULL;
        if (cr_topo_open(topos[i], &t, &d) != CR_OK)
            fail_msg("%s: %s", topos[i], d.msg);
        for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            double prev = 0;
            for (int skew = 1; skew <= 8; skew++) {
                cr_op_params p;
                memset(&p, 0, sizeof p);
                cr_op_params_defaults(op, &p);
                p.v[CR_OPP_BYTES] = sizes[j];
                p.set[CR_OPP_BYTES] = true;
                p.v[CR_OPP_SKEW] = skew;
                p.set[CR_OPP_SKEW] = true;
                cr_op_result r;
                if (cr_op_eval(t, op, &p, &r, &d) != CR_OK)
                    fail_msg("%s %.0f B skew %d: %s", topos[i], sizes[j], skew, d.msg);
                if (r.bound_s < prev * (1 - 1e-12))
                    fail_msg("%s %.0f B: bound %.4f us at skew %d, %.4f us at skew %d", topos[i],
                             sizes[j], r.bound_s * 1e6, skew, prev * 1e6, skew - 1);
                prev = r.bound_s;
            }
        }
        cr_topo_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_replay),
        cmocka_unit_test(test_suites_everywhere),
        cmocka_unit_test(test_suite_rows),
        cmocka_unit_test(test_catalog_sizes_everywhere),
        cmocka_unit_test(test_alltoallv_skew_monotone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
