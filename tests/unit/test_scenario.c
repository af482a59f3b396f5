/* SPDX-License-Identifier: MIT */
/*
 * Tests for the scenario loader (model/scenario.c). Its messages are pinned
 * by the golden sim_scenario_* tests; here the fuzz corpus
 * (tests/fuzz/corpus/scenario: seeds, the fixtures, what libFuzzer finds)
 * replays through the fuzz target's properties on every make test; and an
 * op's simulated time does not depend on its start.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_test.h"

/* The fuzz target itself: the corpus replay below calls it. */
#include "tests/fuzz/fuzz_scenario.c"

/* Replays every corpus file; at least the 14 seeds committed with it. */
static void test_fuzz_replay(void **state)
{
    (void)state;
    assert_true(cr_test_replay_dir("tests/fuzz/corpus/scenario", LLVMFuzzerTestOneInput, 1 << 20) >=
                14);
}

/* The seeds that should load do: the properties above hold on a real run,
 * not only on refusals. */
static void test_seeds_load(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h100-ib-4n", &t, &d), CR_OK);
    const char *ok[] = {"tp-dp.xml",       "moe-hot.xml", "compute-after.xml",
                        "alltoallv-2.xml", "rooted.xml",  "zero-bytes.xml"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fuzz/corpus/scenario/%s", ok[i]);
        cr_sim *s = NULL;
        if (cr_scenario_load_file(path, t, &s, &d) != CR_OK)
            fail_msg("%s", d.msg);
        assert_int_equal(cr_sim_run(s, &d), CR_OK);
        cr_sim_free(s);
    }
    cr_topo_free(t);
}

/* An op's simulated time does not depend on when it starts: a 1 MB
 * allreduce at 0, 1 s and 1000 s takes the same (the event batching was
 * relative to the clock's value: at 1000 s every event within a microsecond
 * merged, and it came out 20.2 us instead of 29.3). */
static void test_start_time_invariant(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    const char *starts[] = {"0s", "1s", "1000s"};
    double dur[3];
    for (int i = 0; i < 3; i++) {
        char xml[256];
        snprintf(xml, sizeof xml,
                 "<scenario name=\"x\"><collective name=\"a\" coll=\"allreduce\" "
                 "ranks=\"0-7\" bytes=\"1MB\" start=\"%s\"/></scenario>",
                 starts[i]);
        cr_sim *s = NULL;
        if (cr_scenario_load_memory(xml, strlen(xml), "start.xml", t, &s, &d) != CR_OK)
            fail_msg("%s", d.msg);
        assert_int_equal(cr_sim_run(s, &d), CR_OK);
        cr_sim_op_result r = cr_sim_op_get(s, 0);
        dur[i] = r.end_s - r.start_s;
        cr_sim_free(s);
    }
    /* to the clock's resolution at 1000 s (1.1e-13 s a step) */
    assert_true(dur[0] > 20e-6);
    assert_true(fabs(dur[1] - dur[0]) < 1e-12);
    assert_true(fabs(dur[2] - dur[0]) < 1e-10);
    cr_topo_free(t);
}

/* Loads xml on hgx-h200-8 and asserts it is refused with a message that
 * starts "t.xml:LINE: " and holds want. */
static void assert_refused(const char *xml, int line, const char *want)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    cr_sim *s = NULL;
    cr_status st = cr_scenario_load_memory(xml, strlen(xml), "t.xml", t, &s, &d);
    if (st == CR_OK)
        fail_msg("loaded, expected a refusal holding \"%s\": %s", want, xml);
    assert_null(s);
    char where[32];
    snprintf(where, sizeof where, "t.xml:%d: ", line);
    if (strncmp(d.msg, where, strlen(where)) || !strstr(d.msg, want))
        fail_msg("message \"%s\", expected \"%s...%s\"", d.msg, where, want);
    cr_topo_free(t);
}

/* Loads xml on hgx-h200-8; it must load. */
static void assert_loads(const char *xml)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    cr_sim *s = NULL;
    if (cr_scenario_load_memory(xml, strlen(xml), "t.xml", t, &s, &d) != CR_OK)
        fail_msg("%s: %s", xml, d.msg);
    cr_sim_free(s);
    cr_topo_free(t);
}

/* A forced protocol on a collective NCCL runs as point-to-point transfers
 * would be dropped (addP2pToPlan picks the protocol): refused, for
 * alltoall, gather, scatter, sendrecv and alltoallv alike; on a ring
 * collective it binds and loads. */
static void test_p2p_proto_refused(void **state)
{
    (void)state;
    const char *colls[] = {"alltoall", "gather", "scatter", "sendrecv"};
    for (size_t i = 0; i < sizeof colls / sizeof colls[0]; i++) {
        char xml[256];
        snprintf(xml, sizeof xml,
                 "<scenario name=\"x\">\n<collective name=\"a\" coll=\"%s\" ranks=\"0-7\" "
                 "bytes=\"64MB\" proto=\"ll\"/></scenario>",
                 colls[i]);
        assert_refused(xml, 2, "ignore a forced protocol");
    }
    assert_refused("<scenario name=\"x\">\n\n<alltoallv name=\"m\" ranks=\"0,1\" proto=\"ll\">"
                   "<row bytes=\"0 1MB\"/><row bytes=\"1MB 0\"/></alltoallv></scenario>",
                   3, "alltoallv runs as NCCL's point-to-point");
    assert_loads("<scenario name=\"x\"><collective name=\"a\" coll=\"allgather\" ranks=\"0-7\" "
                 "bytes=\"64MB\" proto=\"ll\"/></scenario>");
}

/* A scenario's collective follows the one-collective form's rules, from
 * one place: channels= within NCCL's 64 (CR_COLL_MAX_NCHANNELS, the limit
 * of --nchannels; 1024 was taken), dtype= an NCCL element type
 * (cr_dtype_check_nccl, --dtype's rule: tf32 and fp4 were taken). */
static void test_coll_rules_as_cli(void **state)
{
    (void)state;
    const char *head = "<scenario name=\"x\">\n<collective name=\"a\" coll=\"allreduce\" "
                       "ranks=\"0-7\" bytes=\"1MB\" ";
    char xml[256];
    snprintf(xml, sizeof xml, "%schannels=\"65\"/></scenario>", head);
    assert_refused(xml, 2, "channels=\"65\" is not a count from 1 to 64");
    snprintf(xml, sizeof xml, "%schannels=\"1024\"/></scenario>", head);
    assert_refused(xml, 2, "channels=\"1024\"");
    snprintf(xml, sizeof xml, "%schannels=\"64\"/></scenario>", head);
    assert_loads(xml);
    snprintf(xml, sizeof xml, "%sdtype=\"tf32\"/></scenario>", head);
    assert_refused(xml, 2, "dtype: tf32 is not an NCCL element type");
    snprintf(xml, sizeof xml, "%sdtype=\"fp4\"/></scenario>", head);
    assert_refused(xml, 2, "dtype: fp4 is not an NCCL element type");
    snprintf(xml, sizeof xml, "%sdtype=\"fp64\"/></scenario>", head);
    assert_loads(xml);
}

/* An op's name is one after= can name: no comma (after= separates names
 * with commas; "a,b" was taken and no after= reached it) and no blank at
 * either end (after= drops those; " a" stood beside "a" and after=" a "
 * found "a"). Blanks inside a name are kept and after= finds it. */
static void test_op_names(void **state)
{
    (void)state;
    const char *bad[] = {" a", "a ", "a,b", ",", "  "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char xml[256];
        snprintf(xml, sizeof xml,
                 "<scenario name=\"x\">\n<compute name=\"a\" duration=\"1us\"/>\n"
                 "<compute name=\"%s\" duration=\"1us\"/></scenario>",
                 bad[i]);
        assert_refused(xml, 3,
                       strchr(bad[i], ',') ? "holds a comma" : "starts or ends with a blank");
    }
    assert_loads("<scenario name=\"x\"><compute name=\"a b\" duration=\"1us\"/>"
                 "<compute name=\"c\" duration=\"1us\" after=\" a b ,\ta b\"/></scenario>");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_replay),          cmocka_unit_test(test_seeds_load),
        cmocka_unit_test(test_start_time_invariant), cmocka_unit_test(test_p2p_proto_refused),
        cmocka_unit_test(test_coll_rules_as_cli),    cmocka_unit_test(test_op_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
