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

/* The makespan of a scenario of one op (xml) on t. */
static double sim_s(const cr_topo *t, const char *xml)
{
    cr_sim *s = NULL;
    cr_diag d = {{0}};
    if (cr_scenario_load_memory(xml, strlen(xml), "v.xml", t, &s, &d) != CR_OK)
        fail_msg("%s", d.msg);
    assert_int_equal(cr_sim_run(s, &d), CR_OK);
    double m = cr_sim_makespan_s(s);
    cr_sim_free(s);
    return m;
}

/* An <alltoallv> over ranks "0-(n-1)" whose only messages are the given
 * (from, to, size) triples. */
static double alltoallv_s(const cr_topo *t, int n, int k, const int *from, const int *to,
                          const char *const *size)
{
    char xml[4096];
    size_t o =
        (size_t)snprintf(xml, sizeof xml, "<scenario><alltoallv name=\"v\" ranks=\"0-%d\">", n - 1);
    for (int i = 0; i < n; i++) {
        o += (size_t)snprintf(xml + o, sizeof xml - o, "<row bytes=\"");
        for (int j = 0; j < n; j++) {
            const char *b = "0";
            for (int q = 0; q < k; q++)
                if (from[q] == i && to[q] == j)
                    b = size[q];
            o += (size_t)snprintf(xml + o, sizeof xml - o, "%s%s", j ? " " : "", b);
        }
        o += (size_t)snprintf(xml + o, sizeof xml - o, "\"/>");
    }
    snprintf(xml + o, sizeof xml - o, "</alltoallv></scenario>");
    return sim_s(t, xml);
}

/* The QA audit's cases on hgx-h200-8 (an <alltoallv> priced as coll's
 * all-to-all of the mean row, so each message's channels came from a size
 * it did not have): one 64 MB message 0 -> 1 ran 288.9 us, the same plus
 * 64 MB back 253.4 us (more bytes, faster), the one message among 8 ranks
 * 204.2 us, and sim sendrecv 0-1 of 64 MB takes 235.6 us. Now each
 * message moves as NCCL moves one of its size: sending more is never
 * faster, and the lone message takes what coll's sendrecv of it over the
 * same ranks takes (the references below are sendrecv ops simulated in
 * the same way, not pasted figures). */
static void test_alltoallv_per_message(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    const int f1[] = {0, 1}, t1[] = {1, 0};
    const char *const s64[] = {"64MB", "64MB"}, *const s32[] = {"32MB"};
    double one = alltoallv_s(t, 2, 1, f1, t1, s64);
    double both = alltoallv_s(t, 2, 2, f1, t1, s64);
    double half = alltoallv_s(t, 2, 1, f1, t1, s32);
    double lone8 = alltoallv_s(t, 8, 1, f1, t1, s64);
    double both8 = alltoallv_s(t, 8, 2, f1, t1, s64);
    double sr2 = sim_s(t, "<scenario><collective name=\"s\" coll=\"sendrecv\" ranks=\"0-1\" "
                          "bytes=\"64MB\"/></scenario>");
    double sr8 = sim_s(t, "<scenario><collective name=\"s\" coll=\"sendrecv\" ranks=\"0-7\" "
                          "bytes=\"64MB\"/></scenario>");
    /* more bytes never faster (before: both 253.4 us < one 288.9 us) */
    assert_true(both >= one * (1 - 1e-9));
    assert_true(one >= half * (1 - 1e-9));
    assert_true(both8 >= lone8 * (1 - 1e-9));
    /* two ranks: an all-to-all with one peer is a sendrecv, and the
     * reverse message shares no link direction with it, so all three agree
     * to rounding (before: 288.9 us against 235.6) */
    assert_close(one, sr2, 1e-6, 0);
    assert_close(both, sr2, 1e-6, 0);
    /* eight ranks: NCCL halves a peer's channels as ranks grow
     * (algo_p2p_message_channels), for a sendrecv over 0-7 as for this
     * message, so the lone message takes that sendrecv's time (before:
     * 204.2 us, faster than its own channels allow), plus at most 2 %: the
     * all-to-all's one step waits for posting all 7 peers (coll's
     * all-to-all step latency, which the op keeps for every message: about
     * 13 us more than the sendrecv's on this board, 1.5 % of it) */
    assert_true(lone8 >= sr8 * (1 - 1e-9));
    assert_true(lone8 <= sr8 * 1.02);
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

/* Every piece of after= between commas names an op: an empty one is
 * refused where it is written, as a blank one (" , ") was. A QA audit
 * (qa-sim) found after="", after="," and after="a,,a" loaded without a
 * word (strtok_r skips empty pieces), so a name left out by a generator
 * dropped its dependency in silence. root= and channels= are digits only:
 * root="" loaded as root 0 and root=" +3" as 3. */
static void test_empty_after_and_numbers(void **state)
{
    (void)state;
    const char *afters[] = {"", ",", "a,,a", "a,", ",a"};
    for (size_t i = 0; i < sizeof afters / sizeof afters[0]; i++) {
        char xml[256];
        snprintf(xml, sizeof xml,
                 "<scenario name=\"x\">\n<compute name=\"a\" duration=\"1us\"/>\n"
                 "<compute name=\"b\" duration=\"1us\" after=\"%s\"/></scenario>",
                 afters[i]);
        assert_refused(xml, 3, "an empty name");
    }
    const char *roots[] = {"", " 3", "+3", "3 ", "0x1"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        char xml[256];
        snprintf(xml, sizeof xml,
                 "<scenario name=\"x\">\n<collective name=\"a\" coll=\"broadcast\" "
                 "ranks=\"0-7\" bytes=\"1MB\" root=\"%s\"/></scenario>",
                 roots[i]);
        assert_refused(xml, 2, "is not a position in the rank list");
    }
    assert_refused("<scenario name=\"x\">\n<collective name=\"a\" coll=\"allreduce\" "
                   "ranks=\"0-7\" bytes=\"1MB\" channels=\" +4\"/></scenario>",
                   2, "is not a count from 1 to 64");
    assert_loads("<scenario name=\"x\"><compute name=\"a\" duration=\"1us\"/>"
                 "<compute name=\"b\" duration=\"1us\" after=\" a \"/>"
                 "<collective name=\"c\" coll=\"broadcast\" ranks=\"0-7\" bytes=\"1MB\" "
                 "root=\"7\" channels=\"4\" after=\"a, b\"/></scenario>");
}

/* A topology that is not finalized (or none) is CR_EINVAL with
 * cr_sim_new's reason, not CR_ENOMEM "out of memory" (QA audit of the
 * API); *out NULL. */
static void test_unfinalized_topology(void **state)
{
    (void)state;
    const char *xml = "<scenario name=\"x\"><compute name=\"c\" ranks=\"0\" "
                      "duration=\"1ms\"/></scenario>";
    cr_topo *t = cr_topo_new("bare");
    const cr_topo *topos[] = {t, NULL};
    for (int i = 0; i < 2; i++) {
        cr_sim *s = (cr_sim *)&s;
        cr_diag d = {{0}};
        assert_int_equal(cr_scenario_load_memory(xml, strlen(xml), "s.xml", topos[i], &s, &d),
                         CR_EINVAL);
        assert_null(s);
        assert_non_null(strstr(d.msg, "must be finalized"));
    }
    cr_topo_free(t);
}

/* "has no unit: write it with one" is for a plain decimal number, whose
 * fix it names ("5" -> "5us" loads). strtod also reads "inf", "nan",
 * hex and an overflowing exponent whole, so "inf" was told to write
 * "infus" and "0x10" "0x10B", which are refused in turn (QA audit of
 * sim --scenario): those get the message of a value that is no quantity. */
static void test_no_unit_hint_only_for_numbers(void **state)
{
    (void)state;
    const char *vals[] = {"inf", "infinity", "0x10", "1e999"};
    const char *attrs[] = {"start", "bytes"};
    for (size_t a = 0; a < 2; a++)
        for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
            char xml[256];
            snprintf(xml, sizeof xml,
                     "<scenario name=\"x\">\n<collective name=\"a\" coll=\"allreduce\" "
                     "ranks=\"0-7\" %s=\"%s\" %s=\"%s\"/></scenario>",
                     attrs[a], vals[i], attrs[1 - a], a ? "5us" : "1MB");
            assert_refused(xml, 2, "is not a quantity >= 0 with a unit");
        }
    /* the hint stays where it is right: a plain number, its fix loads */
    assert_refused("<scenario name=\"x\">\n<compute name=\"a\" duration=\"1e3\"/></scenario>", 2,
                   "duration=\"1e3\" has no unit: write it with one (e.g. \"1e3us\")");
    assert_loads("<scenario name=\"x\"><compute name=\"a\" duration=\"1e3us\"/></scenario>");
}

/* At most 4,096 ops (doc/simulator.md): the 4,097th is refused on its own
 * line, and the message says what would load; 4,096 load. It said only
 * "more than 4096 ops in one scenario" (QA audit of sim --scenario). */
static void test_op_limit(void **state)
{
    (void)state;
    size_t cap = 4097 * 64 + 64, used = 0;
    char *xml = malloc(cap);
    assert_non_null(xml);
    used += (size_t)snprintf(xml + used, cap - used, "<scenario name=\"x\">");
    for (int i = 0; i < 4097; i++)
        used += (size_t)snprintf(xml + used, cap - used,
                                 "\n<compute name=\"c%d\" ranks=\"0\" duration=\"1us\"/>", i);
    snprintf(xml + used, cap - used, "</scenario>");
    /* line 1 holds <scenario>; op k (from 0) sits on line k + 2 */
    assert_refused(xml, 4098, "more than 4096 ops in one scenario; split it");
    char *last = strrchr(xml, '\n');
    snprintf(last, cap - (size_t)(last - xml), "</scenario>");
    assert_loads(xml);
    free(xml);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_replay),
        cmocka_unit_test(test_seeds_load),
        cmocka_unit_test(test_start_time_invariant),
        cmocka_unit_test(test_p2p_proto_refused),
        cmocka_unit_test(test_coll_rules_as_cli),
        cmocka_unit_test(test_op_names),
        cmocka_unit_test(test_alltoallv_per_message),
        cmocka_unit_test(test_empty_after_and_numbers),
        cmocka_unit_test(test_unfinalized_topology),
        cmocka_unit_test(test_no_unit_hint_only_for_numbers),
        cmocka_unit_test(test_op_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
