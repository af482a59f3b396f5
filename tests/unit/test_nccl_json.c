/* SPDX-License-Identifier: MIT */
/*
 * validate/nccl_json.c: the JSON file nccl-tests -J writes, read through
 * cr_validate_read_nccl_tests like a text log. The fixture
 * tests/fixtures/nccl-tests/dgxc-h100-8-all_reduce.json holds a published
 * log's run (validate/corpus/h100-8/nvidia-dgxc-nccl-readme-all_reduce_perf
 * .log) as nccl-tests 2.19.6 writes it (text_to_json.py beside it): both
 * must give the same measurements. The smaller files below are written
 * here, each for one rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cr_test.h"
#include "cr_test_trace.h"
#include "validate/validate.h"

static void test_json_reads_as_its_log(void **state)
{
    (void)state;
    cr_vmeas_list j = {0}, t = {0};
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_read_nccl_tests(
                         "tests/fixtures/nccl-tests/dgxc-h100-8-all_reduce.json", NULL, &j, &d),
                     CR_OK);
    assert_int_equal(
        cr_validate_read_nccl_tests(
            "validate/corpus/h100-8/nvidia-dgxc-nccl-readme-all_reduce_perf.log", NULL, &t, &d),
        CR_OK);
    assert_int_equal(j.n, 32);
    assert_int_equal(j.n, t.n);
    static const char *const keys[] = {"bytes", "dtype", "coll", "nranks", "loop_ops"};
    for (size_t i = 0; i < j.n; i++) {
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            assert_string_equal(cr_vcase_get(&j.v[i].c, keys[k]), cr_vcase_get(&t.v[i].c, keys[k]));
        assert_close(j.v[i].measured_s, t.v[i].measured_s, 1e-12, 0);
        assert_string_equal(j.v[i].gpu, "NVIDIA H100 80GB HBM3");
        char src[64];
        snprintf(src, sizeof src, "dgxc-h100-8-all_reduce.json:results[%zu]", i);
        assert_string_equal(j.v[i].source, src);
        /* the binary in "args" names the collective; the log names it only
         * in its file name */
        assert_string_equal(j.v[i].coll_source, "log");
        assert_string_equal(t.v[i].coll_source, "file name");
        assert_string_equal(j.v[i].nranks_source, "devices");
        assert_string_equal(j.v[i].note, "");
    }
    assert_string_equal(cr_vcase_get(&j.v[0].c, "nranks"), "8");
    assert_null(cr_vcase_get(&j.v[0].c, "gpus_per_thread"));
    cr_vmeas_list_release(&j);
    cr_vmeas_list_release(&t);
}

/* A result of size S (bytes, fp32) at T us with alg_bw and bus_bw as
 * nccl-tests computes them for an allreduce of n ranks. */
static void result(char *buf, size_t n_buf, long long S, double T, int n, const char *part)
{
    double alg = (double)S / 1e9 / (T * 1e-6), bus = alg * 2 * (n - 1) / n;
    snprintf(buf, n_buf,
             "{\"size\":%lld,\"count\":%lld,\"type\":\"float\",\"redop\":\"sum\",\"root\":\"    "
             "-1\",\"%s\":{\"time\":%f,\"alg_bw\":%f,\"bus_bw\":%f,\"nwrong\":0.000000}}",
             S, S / 4, part, T, alg, bus);
}

static void test_json_rank_count(void **state)
{
    (void)state;
    char r1[512], r2[512], text[2048];
    result(r1, sizeof r1, 1048576, 40.0, 8, "out_of_place");
    result(r2, sizeof r2, 2097152, 52.0, 8, "out_of_place");
    /* one process driving 8 GPUs (-g 8): one "devices" entry */
    snprintf(text, sizeof text,
             "{\"version\":3,\"args\":[\"./build/all_reduce_perf\",\"-g\",\"8\"],\"env\":[],"
             "\"nccl_version\":22809,\"config\":{\"nthreads\":1,\"ngpus\":8,\"iterations\":20,"
             "\"aggregated_iterations\":1},\"devices\":[{\"rank\":0,\"device_info\":\"NVIDIA "
             "H200\"}],\"results\":[%s,%s]}",
             r1, r2);
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    assert_int_equal(cr_test_read_nccl_text(text, ".json", NULL, &l, &d), CR_OK);
    assert_int_equal(l.n, 2);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "8");
    assert_string_equal(cr_vcase_get(&l.v[0].c, "gpus_per_thread"), "8");
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nccl_version"), "22809");
    assert_string_equal(cr_vcase_get(&l.v[0].c, "loop_ops"), "20");
    assert_string_equal(l.v[1].gpu, "NVIDIA H200");
    cr_vmeas_list_release(&l);
    /* four processes of 2 GPUs each (mpirun -np 4 ... -g 2): an entry per
     * process, its first rank */
    snprintf(text, sizeof text,
             "{\"args\":[\"all_reduce_perf_mpi\"],\"config\":{\"nthreads\":1,\"ngpus\":2},"
             "\"devices\":[{\"rank\":0},{\"rank\":2},{\"rank\":4},{\"rank\":6}],\"results\":[%s]}",
             r1);
    assert_int_equal(cr_test_read_nccl_text(text, ".json", NULL, &l, &d), CR_OK);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "8");
    cr_vmeas_list_release(&l);
    /* no "devices": the rows' bus_bw / alg_bw tell 8, as in a text log */
    snprintf(text, sizeof text, "{\"args\":[\"all_reduce_perf\"],\"results\":[%s,%s]}", r1, r2);
    assert_int_equal(cr_test_read_nccl_text(text, ".json", NULL, &l, &d), CR_OK);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "8");
    assert_string_equal(l.v[0].nranks_source, "busbw/algbw");
    cr_vmeas_list_release(&l);
    /* a "devices" list of 4 ranks where the figures say 8: the figures
     * count, and the note says so */
    snprintf(text, sizeof text,
             "{\"args\":[\"all_reduce_perf\"],\"devices\":[{\"rank\":0},{\"rank\":3}],"
             "\"results\":[%s,%s]}",
             r1, r2);
    assert_int_equal(cr_test_read_nccl_text(text, ".json", NULL, &l, &d), CR_OK);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "8");
    assert_non_null(strstr(l.v[0].note, "the \"devices\" list gives 4 ranks (a shortened list)"));
    cr_vmeas_list_release(&l);
    /* NCCL_TESTS_SPLIT_MASK=0x1 on 16 processes: two communicators of 8
     * (groups 0 and 1, processes alternating); the table is rank 0's, so
     * 8 ranks, not the 16 the list holds */
    char dev[1024];
    size_t k = 0;
    for (int i = 0; i < 16; i++)
        k += (size_t)snprintf(dev + k, sizeof dev - k, "%s{\"rank\":%d,\"group\":%d}", i ? "," : "",
                              i, i % 2);
    snprintf(text, sizeof text,
             "{\"args\":[\"all_reduce_perf\"],\"devices\":[%s],\"results\":[%s]}", dev, r1);
    assert_int_equal(cr_test_read_nccl_text(text, ".json", NULL, &l, &d), CR_OK);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "8");
    assert_string_equal(l.v[0].nranks_source, "devices");
    assert_non_null(strstr(l.v[0].note, "NCCL_TESTS_SPLIT): rank 0's, 8 of 16 ranks"));
    cr_vmeas_list_release(&l);
}

static void test_json_times(void **state)
{
    (void)state;
    char r1[512], text[2048];
    /* a replayed trace's rows have in-place figures only */
    result(r1, sizeof r1, 1048576, 40.0, 8, "in_place");
    snprintf(text, sizeof text,
             "{\"args\":[\"all_reduce_perf\"],\"devices\":[{\"rank\":0},{\"rank\":1},{\"rank\":2},"
             "{\"rank\":3},{\"rank\":4},{\"rank\":5},{\"rank\":6},{\"rank\":7}],\"results\":[%.*s,"
             "\"out_of_place\":null}]}",
             (int)strlen(r1) - 1, r1);
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    assert_int_equal(cr_test_read_nccl_text(text, ".json", NULL, &l, &d), CR_OK);
    assert_close(l.v[0].measured_s, 40e-6, 1e-12, 0);
    assert_non_null(strstr(l.v[0].note, "in-place time"));
    cr_vmeas_list_release(&l);
    /* -C 1: "cpu_time" for "time", the host's enqueue time and not the
     * operation's (nccl-tests src/common.cu BenchTime: alg_bw is from the
     * GPU time): refused */
    result(r1, sizeof r1, 1048576, 40.0, 8, "out_of_place");
    char *t = strstr(r1, "\"time\"");
    assert_non_null(t);
    char r2[600];
    snprintf(r2, sizeof r2, "%.*s\"cpu_time\"%s", (int)(t - r1), r1, t + 6);
    snprintf(text, sizeof text, "{\"args\":[\"all_reduce_perf\"],\"results\":[%s]}", r2);
    assert_int_equal(cr_test_read_nccl_text(text, ".json", NULL, &l, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, "results[0]: out_of_place.cpu_time (nccl-tests -C 1)"));
    assert_int_equal(l.n, 0);
    cr_vmeas_list_release(&l);
}

static void test_json_collective(void **state)
{
    (void)state;
    char r1[512], text[2048];
    result(r1, sizeof r1, 1048576, 40.0, 8, "out_of_place");
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    /* no "args": the file name, else --coll */
    snprintf(text, sizeof text, "{\"results\":[%s]}", r1);
    assert_int_equal(cr_test_read_nccl_text(text, "-all_reduce_perf.json", NULL, &l, &d), CR_OK);
    assert_string_equal(l.v[0].coll_source, "file name");
    cr_vmeas_list_release(&l);
    assert_int_equal(cr_test_read_nccl_text(text, ".json", NULL, &l, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, "cannot tell the collective"));
    assert_non_null(strstr(d.msg, "--coll"));
    cr_nccl_log_opts o = {.coll = "allreduce"};
    assert_int_equal(cr_test_read_nccl_text(text, ".json", &o, &l, &d), CR_OK);
    assert_string_equal(l.v[0].coll_source, "--coll");
    cr_vmeas_list_release(&l);
    /* "args" and --coll disagree */
    snprintf(text, sizeof text,
             "{\"args\":[\"/opt/nccl-tests/build/all_gather_perf\"],"
             "\"results\":[%s]}",
             r1);
    assert_int_equal(cr_test_read_nccl_text(text, ".json", &o, &l, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, "the file runs allgather"));
    assert_non_null(strstr(d.msg, "--coll says allreduce"));
    assert_int_equal(l.n, 0);
}

static void test_json_refused(void **state)
{
    (void)state;
    char ok[512];
    result(ok, sizeof ok, 1048576, 40.0, 8, "out_of_place");
    static const struct {
        const char *results; /* the "results" member's text, "%s" a good row */
        const char *extra;   /* more members */
        const char *msg;
    } bad[] = {
        {"[]", "", "\"results\" holds no result"},
        {NULL, "", "has no \"results\" array"},
        {"[%s", "", "after item 0"},
        {"[{\"size\":-8,\"type\":\"float\",\"out_of_place\":{\"time\":1.0}}]", "",
         "results[0]: "
         "\"size\""},
        {"[%s,{\"size\":64,\"type\":\"int32\",\"out_of_place\":{\"time\":1.0}}]", "",
         "results[1]: element type \"int32\""},
        {"[{\"size\":64,\"type\":\"float\"}]", "", "no \"out_of_place\" or \"in_place\""},
        {"[{\"size\":64,\"out_of_place\":{\"time\":1.0}}]", "", "results[0]: no \"type\""},
        {"[{\"size\":64,\"type\":\"float\",\"out_of_place\":{\"alg_bw\":1.0}}]", "", "no \"time\""},
        {"[{\"size\":64,\"type\":\"float\",\"out_of_place\":{\"time\":\"nan\"}}]", "",
         "no \"time\""},
        {"[{\"size\":1048576,\"type\":\"float\",\"out_of_place\":{\"time\":40.0,\"alg_bw\":"
         "2.5,\"bus_bw\":4.0}}]",
         "", "alg_bw says 2.5"},
        {"[%s]", ",\"devices\":[{\"device\":0}]", "devices[0]: no \"rank\""},
        {"[%s]", ",\"config\":{\"ngpus\":0}", "config.ngpus: expected a whole number"},
        {"[%s]", ",\"nccl_version\":\"2.28\"", "\"nccl_version\": expected NCCL's version"},
        {"[%s]", ",\"args\":\"all_reduce_perf\"", "\"args\": expected the command line"},
        {"[%s]", ",\"args\":[\"/opt/nccl-tests/build/hypercube_perf\"]",
         "\"args\" runs hypercube_perf, not a collective commroof models"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char res[1024] = "", text[2048];
        if (bad[i].results) {
            /* "%s" in the template stands for the good row */
            const char *at = strstr(bad[i].results, "%s");
            if (at)
                snprintf(res, sizeof res, "%.*s%s%s", (int)(at - bad[i].results), bad[i].results,
                         ok, at + 2);
            else
                snprintf(res, sizeof res, "%s", bad[i].results);
        }
        snprintf(text, sizeof text, "{\"args\":[\"all_reduce_perf\"]%s%s%s}", bad[i].extra,
                 bad[i].results ? ",\"results\":" : "", res);
        cr_vmeas_list l = {0};
        cr_diag d = {{0}};
        /* one case already there: a refusal leaves it */
        assert_int_equal(
            cr_test_read_nccl_text("{\"args\":[\"all_reduce_perf\"],\"devices\":[{\"rank\":0},"
                                   "{\"rank\":7}],\"results\":[{\"size\":8,\"type\":\"float\","
                                   "\"out_of_place\":{\"time\":10.0}}]}",
                                   ".json", NULL, &l, &d),
            CR_OK);
        assert_int_equal(l.n, 1);
        cr_status st = cr_test_read_nccl_text(text, "-x.json", NULL, &l, &d);
        if (st != CR_EPARSE || !strstr(d.msg, bad[i].msg) || !strstr(d.msg, "-x.json"))
            fail_msg("case %zu: status %d, message \"%s\" lacks \"%s\"", i, st, d.msg, bad[i].msg);
        assert_int_equal(l.n, 1);
        cr_vmeas_list_release(&l);
    }
}

/* The row cap holds for a JSON file too, at its item. */
static void test_json_row_cap(void **state)
{
    (void)state;
    static const char head[] = "{\"args\":[\"all_reduce_perf\"],\"results\":[";
    static const char item[] = "{\"size\":8,\"type\":\"float\",\"out_of_place\":{\"time\":10.0}},";
    size_t n = CR_NCCL_LOG_MAX_ROWS + 1, len = sizeof head - 1 + n * (sizeof item - 1) + 1;
    char *text = malloc(len + 1), *w = text;
    assert_non_null(text);
    memcpy(w, head, sizeof head - 1);
    w += sizeof head - 1;
    for (size_t i = 0; i < n; i++, w += sizeof item - 1)
        memcpy(w, item, sizeof item - 1);
    memcpy(w - 1, "]}", 3);
    FILE *f = fmemopen(text, strlen(text), "r");
    assert_non_null(f);
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_read_nccl_tests_stream(f, "cap.json", NULL, &l, &d), CR_ERANGE);
    fclose(f);
    free(text);
    char want[96];
    snprintf(want, sizeof want, "cap.json: results[%d]: more than %d result rows",
             CR_NCCL_LOG_MAX_ROWS, CR_NCCL_LOG_MAX_ROWS);
    assert_non_null(strstr(d.msg, want));
    assert_int_equal(l.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_reads_as_its_log),
        cmocka_unit_test(test_json_rank_count),
        cmocka_unit_test(test_json_times),
        cmocka_unit_test(test_json_collective),
        cmocka_unit_test(test_json_refused),
        cmocka_unit_test(test_json_row_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
