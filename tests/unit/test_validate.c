/* SPDX-License-Identifier: MIT */
/*
 * validate: case names, measurements from synthetic traces (expected times
 * derived by hand from the event times written below), the nccl-tests
 * reader, the model match on h200-1, summaries and calibration.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cr_test.h"
#include "cr_test_topo.h"
#include "params.h"
#include "route.h"
#include "topo_xml.h"
#include "validate/validate.h"

#include "tests/fuzz/fuzz_validate.c"

/* --- case names ---------------------------------------------------------- */

static void test_case_parse_ok(void **state)
{
    (void)state;
    cr_vcase c;
    cr_diag d = {{0}};
    assert_int_equal(cr_vcase_parse("cr:gemm dtype=bf16 m=8192 n=1 k=4096  iters=5", &c, &d),
                     CR_OK);
    assert_int_equal(c.family, CR_VFAM_GEMM);
    assert_int_equal(c.n_keys, 5);
    assert_string_equal(cr_vcase_get(&c, "dtype"), "bf16");
    assert_null(cr_vcase_get(&c, "bytes"));
    double v = 0;
    assert_int_equal(cr_vcase_num(&c, "m", &v, &d), CR_OK);
    assert_close(v, 8192, 0, 0);
    assert_int_equal(cr_vcase_num(&c, "dtype", &v, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, "dtype=\"bf16\" is not a finite number"));
    assert_int_equal(cr_vcase_num(&c, "bytes", &v, NULL), CR_ENOTFOUND);
    assert_int_equal(cr_vcase_parse("cr:launch", &c, &d), CR_OK);
    assert_int_equal(c.n_keys, 0);
}

static void test_case_parse_bad(void **state)
{
    (void)state;
    static const struct {
        const char *name, *msg;
    } bad[] = {
        {"gemm m=1", "does not start with \"cr:\""},
        {"cr:foo m=1", "unknown family \"foo\""},
        {"cr:hbmx m=1", "unknown family \"hbmx\""},
        {"cr:hbm bytes", "\"bytes\" is not key=value"},
        {"cr:hbm =5", "\"=5\" is not key=value"},
        {"cr:hbm bytes=", "\"bytes=\" is not key=value"},
        {"cr:hbm Bytes=5", "key \"Bytes\" has characters other than"},
        {"cr:hbm bytes=1 bytes=2", "key \"bytes\" given twice"},
        {"cr:hbm averyveryveryverylongkeyname=1", "is too long"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_vcase c;
        cr_diag d = {{0}};
        assert_int_equal(cr_vcase_parse(bad[i].name, &c, &d), CR_EPARSE);
        if (!strstr(d.msg, bad[i].msg))
            fail_msg("\"%s\": message \"%s\" lacks \"%s\"", bad[i].name, d.msg, bad[i].msg);
    }
}

/* --- traces ----------------------------------------------------------------- */

static char *write_tmp(const char *text, const char *suffix)
{
    char tmpl[] = "/tmp/test_validate_XXXXXX";
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal((size_t)write(fd, text, n), n);
    close(fd);
    size_t sz = strlen(tmpl) + strlen(suffix) + 1;
    char *path = malloc(sz);
    assert_non_null(path);
    snprintf(path, sz, "%s%s", tmpl, suffix);
    assert_int_equal(rename(tmpl, path), 0);
    return path;
}

#define HDR "{\"traceEvents\":[\n"
#define END "{\"ph\":\"M\",\"pid\":100,\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}\n]}\n"
/* A kernel on process 1 (pid 100 + device), ts/dur in us. */
#define K(dev, ts, dur)                                                                            \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":10" #dev ",\"tid\":7,\"ts\":" #ts     \
    ",\"dur\":" #dur ",\"args\":{\"device\":" #dev "}},\n"
#define R(name, ts, dur)                                                                           \
    "{\"ph\":\"X\",\"cat\":\"nvtx\",\"name\":\"" name "\",\"pid\":199,\"tid\":1,\"ts\":" #ts       \
    ",\"dur\":" #dur ",\"args\":{\"device\":-1}},\n"

static void test_trace_measure(void **state)
{
    (void)state;
    /* Range A: 3 iterations of one kernel each, durations 500, 510, 520 us:
     * the median device time per iteration is 510 us.
     * Range B: 2 iterations of 2 kernels on device 0 plus 2 on device 1, a
     * collective on two GPUs, so timed from the last GPU's start: iteration
     * 0 from max(2000, 2001) to max(2010, 2012) = 11 us, iteration 1 from
     * max(2020, 2022) to max(2035, 2040) = 18 us; the median of {11, 18} is
     * 14.5 us. From the first GPU's start (first_start_s): 12 and 20 us,
     * median 16 us.
     * Range C: 5 kernels for iters=3 cannot be split: skipped.
     * Range D: no activities, 400 us over iters=4: 100 us, host-timed.
     * A kernel of another process (pid 200) inside range A is not counted. */
    const char *text = HDR R("cr:hbm op=copy bytes=1073741824 iters=3 rd_bytes=1073741824 "
                             "wr_bytes=1073741824 flops=0",
                             0, 1900) K(0, 10, 500) K(0, 600, 510)
        K(0, 1200, 520) "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"other\",\"pid\":200,\"tid\":7,"
                        "\"ts\":700,"
                        "\"dur\":5,\"args\":{\"device\":0}},\n" R(
                            "cr:nccl coll=allreduce bytes=4096 nranks=2 "
                            "iters=2",
                            1999, 100) K(0, 2000, 5) K(0, 2006, 4) K(1, 2001, 11) K(1, 2003, 9)
                            K(0, 2020, 5) K(0, 2030, 5) K(1, 2022, 18) K(1, 2025, 10)
                                R("cr:gemm dtype=bf16 m=8 n=8 k=8 iters=3", 3000, 100) K(0, 3001, 1)
                                    K(0, 3010, 1) K(0, 3020, 1) K(0, 3030, 1) K(0, 3040, 1)
                                        R("cr:launch kind=event iters=4", 4000, 400) END;
    char *path = write_tmp(text, ".json");
    cr_vmeas_list l = {0};
    int skipped = 0;
    char why[256] = "";
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_read_trace(path, &l, &skipped, why, sizeof why, &d), CR_OK);
    assert_int_equal(l.n, 3);
    assert_int_equal(skipped, 1);
    assert_non_null(strstr(why, "do not split into iters=3 groups"));
    assert_int_equal(l.v[0].c.family, CR_VFAM_HBM);
    assert_close(l.v[0].measured_s, 510e-6, 1e-9, 0);
    assert_int_equal(l.v[0].activities, 3);
    assert_string_equal(l.v[0].label, "copy 1GiB");
    assert_int_equal(l.v[1].c.family, CR_VFAM_NCCL);
    assert_close(l.v[1].measured_s, 14.5e-6, 1e-9, 0);
    assert_close(l.v[1].first_start_s, 16e-6, 1e-9, 0);
    assert_int_equal(l.v[1].devices, 2);
    assert_int_equal(l.v[2].c.family, CR_VFAM_LAUNCH);
    assert_true(l.v[2].host_timed);
    assert_close(l.v[2].measured_s, 100e-6, 1e-9, 0);
    cr_vmeas_list_release(&l);
    unlink(path);
    free(path);
}

static void test_trace_errors(void **state)
{
    (void)state;
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_read_trace("/nonexistent/x.json", &l, NULL, NULL, 0, &d), CR_EIO);
    char *path = write_tmp(
        "{\"traceEvents\":[\n{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":\"no\"}\n]}", ".json");
    memset(&d, 0, sizeof d);
    assert_int_not_equal(cr_validate_read_trace(path, &l, NULL, NULL, 0, &d), CR_OK);
    assert_true(d.msg[0] != 0);
    assert_int_equal(l.n, 0);
    cr_vmeas_list_release(&l);
    unlink(path);
    free(path);
}

/* --- model match -------------------------------------------------------------- */

static cr_topo *h200(void)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    return t;
}

static void test_eval_hbm(void **state)
{
    (void)state;
    cr_topo *t = h200();
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
    assert_int_equal(cr_vcase_parse("cr:hbm op=copy bytes=1073741824 iters=3 sets=1 cache=cold "
                                    "rd_bytes=1073741824 wr_bytes=1073741824 flops=0",
                                    &m.c, &d),
                     CR_OK);
    assert_int_equal(cr_validate_eval(t, &m, NULL, &r, &d), CR_OK);
    assert_true(r.violation);
    assert_false(r.cache_resident);
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
    cr_topo *t = h200();
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
    /* Compute bound: 2 x 8192^3 FLOP at 989 TFLOP/s = 1.1117 ms. */
    assert_close(r.bound_s, 2.0 * 8192.0 * 8192 * 8192 / 989e12, 1e-6, 0);
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

/* A folder: its traces are read in name order (.json and .json.gz); another
 * tool's JSON beside them is left out and counted with the reader's
 * message; a trace cut before its closing bracket is read and counted as
 * incomplete. A file named directly must be a trace. */
static void test_read_path(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_validate_dir_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[128], b[128], c[128], e[128];
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b-measured.json", dir);
    snprintf(c, sizeof c, "%s/c.json", dir);
    snprintf(e, sizeof e, "%s/notes.txt", dir);
    const char *whole = HDR R("cr:hbm op=read bytes=1048576 iters=1 rd_bytes=1048576 wr_bytes=0 "
                              "flops=0",
                              0, 100) K(0, 10, 5) END;
    /* cut after the second event: no closing bracket */
    const char *cut = HDR R("cr:hbm op=write bytes=1048576 iters=1 rd_bytes=0 wr_bytes=1048576 "
                            "flops=0",
                            0, 100) K(0, 10, 7) "{\"ph\":\"X\",\"cat\":\"ker";
    const char *other = "[{\"name\": \"ag_gemm baseline\", \"measured_us\": 76.2}]\n";
    const char *files[4][2] = {{a, whole}, {b, other}, {c, cut}, {e, "not json"}};
    for (int i = 0; i < 4; i++) {
        FILE *f = fopen(files[i][0], "w");
        assert_non_null(f);
        fputs(files[i][1], f);
        fclose(f);
    }
    cr_vmeas_list l = {0};
    cr_vread_info ri = {0};
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_read_path(dir, &l, &ri, &d), CR_OK);
    assert_int_equal(l.n, 2);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "op"), "read"); /* a.json first */
    /* iters=1: the kernel's 5 us of device time, not the range's 100 us */
    assert_close(l.v[0].measured_s, 5e-6, 1e-12, 0);
    assert_string_equal(cr_vcase_get(&l.v[1].c, "op"), "write");
    assert_close(l.v[1].measured_s, 7e-6, 1e-12, 0);
    assert_int_equal(ri.files, 2);
    assert_int_equal(ri.not_traces, 1);
    assert_non_null(strstr(ri.not_trace_why, "b-measured.json"));
    assert_int_equal(ri.incomplete, 1);
    assert_non_null(strstr(ri.incomplete_path, "c.json"));
    cr_vmeas_list_release(&l);
    /* named directly, the other tool's file is an error */
    memset(&ri, 0, sizeof ri);
    assert_int_not_equal(cr_validate_read_path(b, &l, &ri, &d), CR_OK);
    assert_non_null(strstr(d.msg, "b-measured.json"));
    assert_int_equal(l.n, 0);
    for (int i = 0; i < 4; i++)
        unlink(files[i][0]);
    /* an empty folder is an error */
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_validate_read_path(dir, &l, &ri, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "no trace file"));
    rmdir(dir);
    cr_vmeas_list_release(&l);
}

/* Writes text to a temporary file whose name ends in suffix, reads it as an
 * nccl-tests log into l (d cleared first) and removes the file. */
static cr_status read_log(const char *text, const char *suffix, cr_vmeas_list *l, cr_diag *d)
{
    char *path = write_tmp(text, suffix);
    memset(d, 0, sizeof *d);
    cr_status st = cr_validate_read_nccl_tests(path, NULL, l, d);
    unlink(path);
    free(path);
    return st;
}

/* --- nccl-tests ------------------------------------------------------------------ */

static void test_nccl_tests(void **state)
{
    (void)state;
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    const char *log = "# nThread 1 nGpus 2 minBytes 1024 maxBytes 2048\n"
                      "#  Rank  0 Group  0 Pid  1 on h device  0 [0x18] NVIDIA H100\n"
                      "#  Rank  1 Group  0 Pid  1 on h device  1 [0x28] NVIDIA H100\n"
                      "# Collective test starting: all_gather_perf\n"
                      "#       size         count      type   redop    root     time   algbw   "
                      "busbw #wrong\n"
                      "        1024           128     float    none      -1    12.50    0.08    "
                      "0.04      0    12.00    0.09    0.04      0\n"
                      "        2048           256     float    none      -1    13.00    0.16    "
                      "0.08      0    12.80    0.16    0.08      0\n"
                      "# Avg bus bandwidth    : 0.06\n";
    assert_int_equal(read_log(log, ".log", &l, &d), CR_OK);
    assert_int_equal(l.n, 2);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "coll"), "allgather");
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "2");
    assert_string_equal(cr_vcase_get(&l.v[1].c, "bytes"), "2048");
    assert_close(l.v[1].measured_s, 13e-6, 1e-12, 0);
    cr_vmeas_list_release(&l);
    /* A row cut short is an error at its line. */
    assert_int_equal(read_log("#  Rank  0 Group  0\n# Collective test starting: all_reduce_perf\n"
                              "        1024           256     float\n",
                              ".log", &l, &d),
                     CR_EPARSE);
    assert_non_null(strstr(d.msg, ":3: not an nccl-tests result row"));
    assert_int_equal(l.n, 0);
    /* No collective named anywhere. */
    assert_int_equal(
        read_log("#  Rank  0 Group  0\n        1024           256     float     sum      -1  "
                 "  10.0    0.1    0.1      0\n",
                 ".log", &l, &d),
        CR_EPARSE);
    assert_non_null(strstr(d.msg, "cannot tell the collective"));
    cr_vmeas_list_release(&l);
}

/* The column layouts of earlier nccl-tests releases (common.cu's
 * print_header): before 2.11 no "root" column, so the out-of-place time is
 * the fifth column, and all_gather printed no "redop" column either (time
 * fourth). The times below are read off the rows by hand. */
static void test_nccl_tests_layouts(void **state)
{
    (void)state;
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    const char *old = "# nThread 1 nGpus 2 minBytes 1024 maxBytes 2048 step: 2(factor)\n"
                      "#   Rank  0 Pid  7001 on  dgx device  0 [0x07] A100-SXM4-80GB\n"
                      "#   Rank  1 Pid  7002 on  dgx device  1 [0x0f] A100-SXM4-80GB\n"
                      "#       size         count    type   redop     time   algbw   busbw  "
                      "error     time   algbw   busbw  error\n"
                      "        1024           128   float     sum    25.00    0.04    0.04  "
                      "0e+00    24.75    0.04    0.04  0e+00\n"
                      "# Collective test starting: all_gather_perf\n"
                      "#       size         count    type     time   algbw   busbw  error     "
                      "time   algbw   busbw  error\n"
                      "        2048           256   float    12.50    0.16    0.08  0e+00    "
                      "12.40    0.17    0.08  0e+00\n";
    assert_int_equal(read_log(old, "reduce_scatter_perf.log", &l, &d), CR_OK);
    assert_int_equal(l.n, 2);
    /* first table: time is the 5th column; the collective from the file
     * name until the log names one */
    assert_string_equal(cr_vcase_get(&l.v[0].c, "coll"), "reducescatter");
    assert_close(l.v[0].measured_s, 25.00e-6, 1e-12, 0);
    /* second table: no redop column, time 4th */
    assert_string_equal(cr_vcase_get(&l.v[1].c, "coll"), "allgather");
    assert_close(l.v[1].measured_s, 12.50e-6, 1e-12, 0);
    assert_string_equal(cr_vcase_get(&l.v[1].c, "dtype"), "fp32");
    assert_string_equal(cr_vcase_get(&l.v[1].c, "nranks"), "2");
    cr_vmeas_list_release(&l);
}

/* Several runs in one log: each "# nThread" line starts a run with its own
 * "#  Rank" lines and collective. mpirun of a build without MPI prints one
 * one-rank run per process (n = 1 each, not their sum); NCCL_DEBUG lines
 * whose host name starts with digits are not rows. */
static void test_nccl_tests_runs(void **state)
{
    (void)state;
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    const char *hdr = "#       size         count      type   redop    root     time   algbw   "
                      "busbw #wrong     time   algbw   busbw #wrong\n";
    char log[4096];
    snprintf(log, sizeof log,
             "# Collective test starting: all_reduce_perf\n"
             "# nThread 1 nGpus 1 minBytes 4096 maxBytes 4096\n"
             "#  Rank  0 Group  0 Pid 3300 on 10-0-3-17 device  0 [0x18] NVIDIA H100\n"
             "#  Rank  1 Group  0 Pid 3301 on 10-0-3-17 device  1 [0x28] NVIDIA H100\n"
             "#  Rank  2 Group  0 Pid 3302 on 10-0-3-18 device  0 [0x18] NVIDIA H100\n"
             "#  Rank  3 Group  0 Pid 3303 on 10-0-3-18 device  1 [0x28] NVIDIA H100\n"
             "10-0-3-17:3300:3300 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
             "%s"
             "        4096          1024     float     sum      -1    18.02    0.23    0.40      0 "
             "   17.66    0.23    0.41      0\n"
             "# Collective test starting: sendrecv_perf\n"
             "# nThread 1 nGpus 1 minBytes 4096 maxBytes 4096\n"
             "#  Rank  0 Group  0 Pid 3400 on 10-0-3-17 device  0 [0x18] NVIDIA H100\n"
             "%s"
             "        4096          1024     float     sum      -1     7.50    0.55    0.55      0 "
             "    7.20    0.57    0.57      0\n"
             "# nThread 1 nGpus 1 minBytes 4096 maxBytes 4096\n"
             "#  Rank  0 Group  0 Pid 3401 on 10-0-3-17 device  1 [0x28] NVIDIA H100\n"
             "%s"
             "        4096          1024    bfloat16     sum      -1     7.70    0.53    0.53      "
             "0     7.30    0.56    0.56      0\n",
             hdr, hdr, hdr);
    assert_int_equal(read_log(log, ".log", &l, &d), CR_OK);
    assert_int_equal(l.n, 3);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "coll"), "allreduce");
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "4");
    assert_close(l.v[0].measured_s, 18.02e-6, 1e-12, 0);
    assert_string_equal(cr_vcase_get(&l.v[1].c, "coll"), "sendrecv");
    assert_string_equal(cr_vcase_get(&l.v[1].c, "nranks"), "1");
    assert_close(l.v[1].measured_s, 7.50e-6, 1e-12, 0);
    assert_string_equal(cr_vcase_get(&l.v[2].c, "nranks"), "1");
    assert_string_equal(cr_vcase_get(&l.v[2].c, "dtype"), "bf16");
    assert_close(l.v[2].measured_s, 7.70e-6, 1e-12, 0);
    cr_vmeas_list_release(&l);

    /* A time that is not a number is an error naming its line and column. */
    snprintf(
        log, sizeof log,
        "#  Rank  0 Group  0\n# Collective test starting: all_reduce_perf\n%s"
        "        4096          1024     float     sum      -1      N/A    0.23    0.40      0\n",
        hdr);
    assert_int_equal(read_log(log, ".log", &l, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, ":4: size 4096, out-of-place time \"N/A\" (column 6)"));
    assert_int_equal(l.n, 0);
    /* A row before any rank line: n unknown. */
    snprintf(
        log, sizeof log,
        "# Collective test starting: all_reduce_perf\n%s"
        "        4096          1024     float     sum      -1    18.02    0.23    0.40      0\n",
        hdr);
    /* (the row's busbw/algbw, 0.40 / 0.23 = 1.68 to 1.80, fits 7 to 10
     * ranks of allreduce: no one count) */
    assert_int_equal(read_log(log, ".log", &l, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, ":3: the number of ranks is unknown"));
    assert_non_null(strstr(d.msg, "fit 7 to 10 ranks: give it (--ranks)"));
    cr_vmeas_list_release(&l);
}

/* Reads text as a log named name with options o into l (d cleared). */
static cr_status read_log_o(const char *text, const char *name, const cr_nccl_log_opts *o,
                            cr_vmeas_list *l, cr_diag *d)
{
    FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
    assert_non_null(f);
    memset(d, 0, sizeof *d);
    cr_status st = cr_validate_read_nccl_tests_stream(f, name, o, l, d);
    fclose(f);
    return st;
}

/* Logs as people paste them (issue 14 item 4; the shapes and figures are
 * those of validate/corpus logs named in each comment). */
static void test_nccl_tests_pasted(void **state)
{
    (void)state;
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    /* dstack (b200-ib-2n): no '#', no rank lines. busbw/algbw of the 2 MiB
     * row 34.36/18.33 in [34.355/18.335, 34.365/18.325] = [1.8737, 1.8753]:
     * 2(n-1)/n there for n = 16 only (n = 2/(2-r): 15.9 to 16.04). */
    const char *nohash =
        "  Collective test starting: all_reduce_perf\n"
        "        size         count      type   redop    root     time   algbw   busbw  #wrong "
        "    time   algbw   busbw  #wrong\n"
        "           8             2     float     sum      -1    36.50    0.00    0.00       0  "
        "  36.16    0.00    0.00       0\n"
        "     2097152        524288     float     sum      -1   114.44   18.33   34.36       0  "
        " 114.27   18.35   34.41       0\n";
    assert_int_equal(read_log_o(nohash, "b200.log", NULL, &l, &d), CR_OK);
    assert_int_equal(l.n, 2);
    assert_string_equal(cr_vcase_get(&l.v[1].c, "nranks"), "16");
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "16"); /* one count per table */
    assert_string_equal(l.v[0].nranks_source, "busbw/algbw");
    assert_string_equal(l.v[0].coll_source, "log");
    assert_close(l.v[1].measured_s, 114.44e-6, 1e-12, 0);
    cr_vmeas_list_release(&l);

    /* srun -l (aws-adt-p5) and an all_gather of 16 ranks (dstack a3mega
     * 8 GiB row: 219.25/233.87 = 0.9375 = 15/16); "--coll all_gather_perf"
     * names it and wins over the file name. */
    const char *srun =
        "0: #       size         count      type   redop    root     time   algbw   busbw #wrong"
        "     time   algbw   busbw #wrong\n"
        "0:   8589934592     134217728     float    none      -1    36730  233.87  219.25      0"
        "    36560  234.95  220.27      0\n";
    cr_nccl_log_opts o = {"all_gather_perf", 0};
    assert_int_equal(read_log_o(srun, "x_all_reduce_perf.log", &o, &l, &d), CR_OK);
    assert_int_equal(l.n, 1);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "coll"), "allgather");
    assert_string_equal(l.v[0].coll_source, "--coll");
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "16");
    assert_close(l.v[0].measured_s, 36730e-6, 1e-12, 0);
    cr_vmeas_list_release(&l);
    /* the same as allreduce: 0.9375 is no 2(n-1)/n of a whole n >= 2 */
    o.coll = "allreduce";
    assert_int_equal(read_log_o(srun, "x.log", &o, &l, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, "x.log:2: the rows' busbw/algbw (0.9375 at line 2) fit no rank"));
    assert_int_equal(l.n, 0);

    /* mpirun --tag-output, the tag repeated inside the row (keitaw-p5):
     * rank lines 0 and 1; the time after the inner tag */
    const char *tag = "[1,0]<stdout>:#  Rank  0 Group  0 Pid 25 on w0 device  0 [0x53] H100\n"
                      "[1,0]<stdout>:#  Rank  1 Group  0 Pid 26 on w0 device  1 [0x64] H100\n"
                      "[1,0]<stdout>:           8             2     float     sum      -1[1,0]"
                      "<stdout>:    85.70    0.00    0.00      0[1,0]<stdout>:    74.97    0.00 "
                      "   0.00      0\n";
    assert_int_equal(read_log_o(tag, "t_all_reduce_perf.log", NULL, &l, &d), CR_OK);
    assert_int_equal(l.n, 1);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "2");
    assert_string_equal(l.v[0].nranks_source, "rank lines");
    assert_string_equal(l.v[0].coll_source, "file name");
    assert_close(l.v[0].measured_s, 85.70e-6, 1e-12, 0);
    cr_vmeas_list_release(&l);

    /* NCCL_DEBUG inside a row (snellius 2n line 344): the message swallowed
     * the root column ("-1gcn151:..."), the rest of the row comes 2 lines
     * later; rank lines 0-1 only, the rows say 8 (42.10/24.05 = 1.7505). */
    const char *dbg = "#  Rank  0 Group  0\n#  Rank  1 Group  0\n"
                      "#       size         count      type   redop    root     time   algbw   "
                      "busbw #wrong     time   algbw   busbw #wrong\n"
                      "     2097152        524288     float     sum      -1gcn151:1904979:1905073"
                      " [0] NCCL INFO Channel 00/0 : 7[3] -> 0[0] [receive] via NET/IB/2/GDRDMA\n"
                      "gcn154:1793998:1794081 [0] NCCL INFO Connected all rings\n"
                      "    87.18   24.05   42.10      0    85.11   24.64   43.12      0\n";
    assert_int_equal(read_log_o(dbg, "s_all_reduce_perf.log", NULL, &l, &d), CR_OK);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.v[0].source, "s_all_reduce_perf.log:4");
    assert_close(l.v[0].measured_s, 87.18e-6, 1e-12, 0);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "8");
    assert_string_equal(l.v[0].nranks_source, "busbw/algbw");
    assert_non_null(strstr(l.v[0].note, "rank lines list 2 ranks (a shortened list)"));
    cr_vmeas_list_release(&l);
    /* a cut row followed by another row: never continued */
    const char *cut = "#  Rank  0 Group  0\n"
                      "     2097152        524288     float     sum      -1gcn151:1:2 [0] NCCL "
                      "INFO x\n"
                      "     4194304       1048576     float     sum      -1    137.6   30.48   "
                      "53.34      0\n";
    assert_int_equal(read_log_o(cut, "c_all_reduce_perf.log", NULL, &l, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, "c_all_reduce_perf.log:2: the result row cut by NCCL_DEBUG"));

    /* sendrecv (li-plus a100): busbw = algbw tells nothing; --ranks does */
    const char *sr = "   134217728      33554432     float     sum      -1   1211.2  110.81  "
                     "110.81      0   1211.8  110.76  110.76    N/A\n";
    assert_int_equal(read_log_o(sr, "bw.md", NULL, &l, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, "bw.md:1: cannot tell the collective"));
    o = (cr_nccl_log_opts){"sendrecv", 0};
    assert_int_equal(read_log_o(sr, "bw.md", &o, &l, &d), CR_EPARSE);
    assert_non_null(strstr(d.msg, "sendrecv prints busbw = algbw whatever the rank count"));
    o.nranks = 8;
    assert_int_equal(read_log_o(sr, "bw.md", &o, &l, &d), CR_OK);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "nranks"), "8");
    assert_string_equal(l.v[0].nranks_source, "--ranks");
    cr_vmeas_list_release(&l);

    /* --coll names: nccl-tests' binary names and commroof's alike */
    assert_string_equal(cr_nccl_log_coll("all_reduce", NULL), "allreduce");
    assert_string_equal(cr_nccl_log_coll("./build/reduce_scatter_perf_mpi", NULL), "reducescatter");
    assert_string_equal(cr_nccl_log_coll("alltoall_perf", NULL), "alltoall");
    assert_null(cr_nccl_log_coll("hypercube_perf", &d));
}

/* GPUs one nccl-tests thread drives (-g G): from the "# nThread T nGpus G"
 * line, else from rank lines sharing one Pid on one host (odissei-snellius
 * 1n: nGpus 4, one Pid); a key only where it is more than one, so that
 * validate sets cr_coll_req host_loop for those rows alone. */
static void test_nccl_tests_gpus_per_thread(void **state)
{
    (void)state;
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    const char *row = "           8             2     float     sum      -1    17.10    0.00    "
                      "0.00      0    16.90    0.00    0.00      0\n";
    char log[1024];
    /* the header says 4, whatever the rank lines */
    snprintf(log, sizeof log,
             "# nThread 1 nGpus 4 minBytes 8 maxBytes 8 step: 2(factor)\n"
             "#  Rank  0 Group  0 Pid 1539421 on gcn155 device  0 [0x06] NVIDIA H100\n"
             "#  Rank  1 Group  0 Pid 1539421 on gcn155 device  1 [0x26] NVIDIA H100\n"
             "#  Rank  2 Group  0 Pid 1539421 on gcn155 device  2 [0xa6] NVIDIA H100\n"
             "#  Rank  3 Group  0 Pid 1539421 on gcn155 device  3 [0xc6] NVIDIA H100\n%s",
             row);
    assert_int_equal(read_log(log, "all_reduce_perf.log", &l, &d), CR_OK);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "gpus_per_thread"), "4");
    cr_vmeas_list_release(&l);
    /* one GPU per process (MPI): no key */
    snprintf(log, sizeof log,
             "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor)\n"
             "#  Rank  0 Group  0 Pid 11 on a device  0 [0x06] NVIDIA H100\n"
             "#  Rank  1 Group  0 Pid 12 on a device  1 [0x26] NVIDIA H100\n%s",
             row);
    assert_int_equal(read_log(log, "all_reduce_perf.log", &l, &d), CR_OK);
    assert_null(cr_vcase_get(&l.v[0].c, "gpus_per_thread"));
    cr_vmeas_list_release(&l);
    /* no header: three rank lines of one Pid on host a, then Pid 7 on a
     * second host b (the same number, another process) */
    snprintf(log, sizeof log,
             "#  Rank  0 Group  0 Pid 7 on a device  0 [0x06] NVIDIA H100\n"
             "#  Rank  1 Group  0 Pid 7 on a device  1 [0x26] NVIDIA H100\n"
             "#  Rank  2 Group  0 Pid 7 on a device  2 [0x26] NVIDIA H100\n"
             "#  Rank  3 Group  0 Pid 7 on b device  0 [0x26] NVIDIA H100\n%s",
             row);
    assert_int_equal(read_log(log, "all_reduce_perf.log", &l, &d), CR_OK);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "gpus_per_thread"), "3");
    cr_vmeas_list_release(&l);
    /* a second run (its own nThread line) starts over */
    snprintf(log, sizeof log,
             "# nThread 1 nGpus 2 minBytes 8 maxBytes 8 step: 2(factor)\n"
             "#  Rank  0 Group  0 Pid 5 on a device  0 [0x06] NVIDIA H100\n"
             "#  Rank  1 Group  0 Pid 5 on a device  1 [0x26] NVIDIA H100\n%s"
             "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor)\n"
             "#  Rank  0 Group  0 Pid 7 on a device  0 [0x06] NVIDIA H100\n"
             "#  Rank  1 Group  0 Pid 8 on a device  1 [0x26] NVIDIA H100\n%s",
             row, row);
    assert_int_equal(read_log(log, "all_reduce_perf.log", &l, &d), CR_OK);
    assert_int_equal(l.n, 2);
    assert_string_equal(cr_vcase_get(&l.v[0].c, "gpus_per_thread"), "2");
    assert_null(cr_vcase_get(&l.v[1].c, "gpus_per_thread"));
    cr_vmeas_list_release(&l);
}

/* --- summaries and calibration ------------------------------------------------------ */

static void test_percentile_and_summary(void **state)
{
    (void)state;
    double v[] = {5, 1, 4, 2, 3};
    /* Nearest rank: ceil(0.9 x 5) = 5th smallest = 5; ceil(0.5 x 5) = 3rd = 3. */
    assert_close(cr_validate_percentile(v, 5, 90), 5, 0, 0);
    assert_close(cr_validate_percentile(v, 5, 50), 3, 0, 0);
    assert_close(cr_validate_percentile(v, 0, 50), 0, 0, 0);
    cr_vmeas ms[3];
    memset(ms, 0, sizeof ms);
    ms[0].c.family = ms[1].c.family = CR_VFAM_HBM;
    ms[2].c.family = CR_VFAM_GEMM;
    cr_vmeas_list l = {.v = ms, .n = 3, .cap = 3};
    cr_vresult r[3];
    memset(r, 0, sizeof r);
    r[0].has_pred = r[1].has_pred = r[2].has_pred = true;
    r[0].error_pct = -4;
    r[1].error_pct = 8;
    r[2].error_pct = 30;
    r[2].violation = true;
    cr_vsummary s[CR_VFAM__COUNT], all;
    assert_int_equal(cr_validate_summarize(&l, r, s, &all), CR_OK);
    /* hbm: |err| {4, 8}: median 6, p90 8. */
    assert_int_equal(s[CR_VFAM_HBM].cases, 2);
    assert_close(s[CR_VFAM_HBM].median_abs_err_pct, 6, 0, 1e-12);
    assert_close(s[CR_VFAM_HBM].p90_abs_err_pct, 8, 0, 1e-12);
    assert_int_equal(s[CR_VFAM_GEMM].violations, 1);
    assert_int_equal(all.cases, 3);
    assert_close(all.median_abs_err_pct, 8, 0, 1e-12);
}

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
    cr_topo *t = h200();
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

/* Every corpus file through the fuzz target (it aborts on a broken
 * property). */
static void test_fuzz_replay(void **state)
{
    (void)state;
    DIR *dir = opendir("tests/fuzz/corpus/validate");
    assert_non_null(dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/fuzz/corpus/validate/%s", e->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        uint8_t buf[4096];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        assert_int_equal(LLVMFuzzerTestOneInput(buf, len), 0);
        n++;
    }
    closedir(dir);
    assert_true(n >= 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_parse_ok),
        cmocka_unit_test(test_case_parse_bad),
        cmocka_unit_test(test_trace_measure),
        cmocka_unit_test(test_trace_errors),
        cmocka_unit_test(test_eval_hbm),
        cmocka_unit_test(test_eval_gemm_and_multi_gpu),
        cmocka_unit_test(test_eval_launch_gap),
        cmocka_unit_test(test_read_path),
        cmocka_unit_test(test_nccl_tests),
        cmocka_unit_test(test_nccl_tests_layouts),
        cmocka_unit_test(test_nccl_tests_runs),
        cmocka_unit_test(test_nccl_tests_pasted),
        cmocka_unit_test(test_nccl_tests_gpus_per_thread),
        cmocka_unit_test(test_percentile_and_summary),
        cmocka_unit_test(test_calibrate),
        cmocka_unit_test(test_calibrate_p2p),
        cmocka_unit_test(test_fuzz_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
