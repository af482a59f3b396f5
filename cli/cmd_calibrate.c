/* SPDX-License-Identifier: MIT */
/*
 * commroof calibrate [--topo BASE] [-o OUT.xml] [--from-traces TRACE...]
 *                   [--quick] [--json]
 *
 * Measures the local GPU with the kernels/ microbenchmarks (crbench, under
 * the CUPTI tracer) or reads traces of an earlier run, and writes BASE with
 * measured ceilings (<measured hbm-bw>, <measured-flops>) beside the
 * datasheet peaks and the fitted model parameters of ops' single-GPU
 * predictions (ops.hbm.*, ops.kernel.fixed, ops.gemm.mem_eff, ops.ce.*,
 * ops.pcie.eff, ops.pageable.*, ops.launch.*, ops.{ldst,tma}.*; see
 * cr_validate_apply_calibration) and of coll's mechanisms (mech.*). The
 * attainable bound (attainable_us) and the predictions then use them.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "dtype.h"
#include "topo_xml.h"
#include "validate/validate.h"

static const char *const calibrate_help =
    "usage: commroof calibrate [--topo BASE] [-o OUT.xml] [--from-traces TRACE...]\n"
    "                          [--quick] [--json]\n"
    "\n"
    "Measures this machine's GPU 0 and writes topology BASE (default hgx-h200-8; use the\n"
    "one that describes this machine, e.g. h200-1) with measured ceilings beside the\n"
    "peaks: <measured hbm-bw> (best HBM stream kernel, bytes read plus written),\n"
    "<measured l2-bw> (best warm stream kernel of 32 MiB or less: the L2),\n"
    "<measured-flops> per dtype (best cuBLASLt GEMM), and the parameters of the\n"
    "single-GPU predictions (typical figures): ops.hbm.{eff,read_eff,write_eff,turn,\n"
    "read_lat}, ops.kernel.fixed, ops.gemm.mem_eff, ops.ce.d2d_eff, ops.pcie.eff,\n"
    "ops.pageable.{h2d,d2h,cached_h2d,cached_d2h}, ops.launch.{host,sync,graph,event},\n"
    "ops.{ldst,tma}.{sm_bw,fixed}; from p2p traces on a topology of two or more GPUs,\n"
    "coll's mechanism parameters mech.{ce,tma,ldst}.{eff,sms,launch}.\n"
    "attainable_us and predictions then use them.\n"
    "\n"
    "  --from-traces TRACE...  use traces of an earlier kernels/ sweep (files or\n"
    "                          folders; .json or .json.gz; every rank's trace of a\n"
    "                          one-process-per-GPU run, combined) instead of running\n"
    "                          the kernels\n"
    "  --quick                 fewer sizes when running the kernels\n"
    "  -o OUT.xml              where to write (default: stdout)\n"
    "  --json                  print the measured figures as JSON (the XML still goes\n"
    "                          to -o when given)\n"
    "\n"
    "Running the kernels needs crbench (make kernels) and libcommroof_trace.so: they\n"
    "are looked up beside this binary ($BUILD/kernels/crbench, $BUILD/\n"
    "libcommroof_trace.so) or given by COMMROOF_CRBENCH and COMMROOF_TRACE_LIB.\n"
    "Without a usable GPU it says so and exits 1, writing nothing.\n"
    "\n"
    "Exit status: 0 ok; 1 no GPU, crbench failed, or unreadable input; 2 usage.\n";

/* crbench's exit status when the machine has no usable GPU
 * (CR_EXIT_NO_GPU, kernels/crbench.h; crbench is CUDA, this file is not). */
enum { CRBENCH_EXIT_NO_GPU = 4 };

/* Directory of this executable, or "." */
static void self_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0) {
        snprintf(buf, size, ".");
        return;
    }
    buf[n] = 0;
    char *s = strrchr(buf, '/');
    if (s)
        *s = 0;
}

/* Runs crbench FAMILIES under the tracer into dir. Returns 0 on success. */
static int run_kernels(const char *dir, int quick)
{
    char here[PATH_MAX], crbench[PATH_MAX + 32], lib[PATH_MAX + 32];
    self_dir(here, sizeof here);
    const char *e = getenv("COMMROOF_CRBENCH");
    snprintf(crbench, sizeof crbench, "%s", e ? e : "");
    if (!e)
        snprintf(crbench, sizeof crbench, "%s/kernels/crbench", here);
    e = getenv("COMMROOF_TRACE_LIB");
    snprintf(lib, sizeof lib, "%s", e ? e : "");
    if (!e)
        snprintf(lib, sizeof lib, "%s/libcommroof_trace.so", here);
    if (access(crbench, X_OK) != 0)
        return cli_fail("calibrate",
                        "crbench not found at %s (run 'make kernels' where nvcc exists, or set "
                        "COMMROOF_CRBENCH)",
                        crbench);
    if (access(lib, R_OK) != 0)
        return cli_fail("calibrate",
                        "tracer not found at %s (build it with 'make', or set COMMROOF_TRACE_LIB)",
                        lib);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return cli_fail("calibrate", "fork: %s", strerror(errno));
    if (pid == 0) {
        setenv("CUDA_INJECTION64_PATH", lib, 1);
        setenv("NVTX_INJECTION64_PATH", lib, 1);
        setenv("COMMROOF_TRACE_DIR", dir, 1);
        setenv("COMMROOF_TRACE_QUIET", "1", 1);
        setenv("NCCL_NVLS_ENABLE", "0", 1);
        /* crbench's table is for people; keep stdout for our output. */
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        char *args[] = {crbench,
                        (char *)"hbm",
                        (char *)"ce",
                        (char *)"mech",
                        (char *)"gemm",
                        (char *)"launch",
                        quick ? (char *)"--quick" : NULL,
                        NULL};
        execv(crbench, args);
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0)
        return cli_fail("calibrate", "waitpid: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == CRBENCH_EXIT_NO_GPU)
        return cli_fail("calibrate",
                        "no usable NVIDIA GPU on this machine (%s says why above): calibrate "
                        "measures GPU 0 here; on a machine without one, calibrate from traces "
                        "recorded on the GPU machine: --from-traces DIR",
                        crbench);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return cli_fail("calibrate", "cannot run %s", crbench);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return cli_fail("calibrate",
                        "%s failed (%s %d): a correctness check or a CUDA call failed; run it by "
                        "hand to see its table",
                        crbench, WIFEXITED(status) ? "exit" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return CLI_OK;
}

int cli_cmd_calibrate(int argc, char **argv)
{
    const char *topo_name = NULL, *out_path = NULL;
    int json = 0, quick = 0, from = 0, rc = CLI_OK;
    const char **inputs = calloc((size_t)argc, sizeof *inputs);
    int n_in = 0;
    cr_topo *t = NULL;
    cr_vmeas_list l = {0};
    char tmpdir[] = "/tmp/commroof-calibrate-XXXXXX";
    int made_tmp = 0;
    if (!inputs)
        return cli_fail("calibrate", "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(calibrate_help, stdout);
            goto out;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--quick")) {
            quick = 1;
        } else if (!strcmp(a, "--topo") || !strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                rc = cli_usage_error("calibrate", "%s needs a value", a);
                goto out;
            }
            if (!strcmp(a, "-o"))
                out_path = argv[++i];
            else
                topo_name = argv[++i];
        } else if (!strcmp(a, "--from-traces")) {
            from = 1;
        } else if (a[0] == '-' && a[1]) {
            rc = cli_usage_error("calibrate", "unknown option \"%s\"", a);
            goto out;
        } else if (from) {
            inputs[n_in++] = a;
        } else {
            rc = cli_usage_error("calibrate",
                                 "unexpected argument \"%s\" (traces go after --from-traces)", a);
            goto out;
        }
    }
    if (from && n_in == 0) {
        rc = cli_usage_error("calibrate", "--from-traces needs at least one trace or folder");
        goto out;
    }
    t = cli_open_topo("calibrate", topo_name);
    if (!t) {
        rc = CLI_FAIL;
        goto out;
    }
    if (!from) {
        if (!mkdtemp(tmpdir)) {
            rc = cli_fail("calibrate", "cannot create a temporary folder: %s", strerror(errno));
            goto out;
        }
        made_tmp = 1;
        if (cli_progress_enabled())
            fprintf(stderr, "calibrate: running the kernels (a minute or two)...\n");
        if ((rc = run_kernels(tmpdir, quick)) != CLI_OK)
            goto out;
        inputs[n_in++] = tmpdir;
    }
    cr_vread_info ri = {0};
    for (int i = 0; i < n_in; i++) {
        cr_diag d = {{0}};
        if (cr_validate_read_path(inputs[i], &l, &ri, &d) != CR_OK) {
            rc = cli_fail("calibrate", "%s", d.msg);
            goto out;
        }
    }
    if (ri.not_traces)
        fprintf(stderr,
                "commroof calibrate: note: %d file(s) of the folder(s) given are not traces and "
                "were left out; first: %s\n",
                ri.not_traces, ri.not_trace_why);
    /* One process per GPU (torchrun, mpirun): one trace per rank; combine
     * each case's ranks as validate does before taking figures from it. */
    {
        cr_vmerge_info mi = {0};
        cr_diag d = {{0}};
        if (cr_validate_merge_ranks(&l, &mi, &d) != CR_OK) {
            rc = cli_fail("calibrate", "%s", d.msg);
            goto out;
        }
    }
    cr_vcalib cal;
    cr_validate_calibrate(&l, &cal);
    if (cal.n_used == 0) {
        size_t n_other = 0;
        for (size_t i = 0; i < l.n; i++)
            n_other += l.v[i].c.family == CR_VFAM_NCCL || l.v[i].c.family == CR_VFAM_FUSED;
        rc =
            cli_fail("calibrate",
                     "the input holds no calibration cases (hbm, ce, mech, gemm, launch or p2p "
                     "ranges from kernels/crbench)%s",
                     n_other ? "; its nccl and fused cases calibrate nothing: NCCL's constants are "
                               "coll's (model/params.c), validate checks them"
                             : "");
        goto out;
    }
    char src[256];
    snprintf(src, sizeof src, "commroof calibrate: %d measured cases (%s)", cal.n_used,
             from ? "from traces" : "kernels/crbench on this machine");
    if (cr_validate_apply_calibration(t, &cal, src) != CR_OK) {
        rc = cli_fail("calibrate", "out of memory");
        goto out;
    }
    cr_diag d = {{0}};
    if (out_path) {
        if (cr_topo_xml_save_file(t, out_path, &d) != CR_OK) {
            rc = cli_fail("calibrate", "%s", d.msg);
            goto out;
        }
    }
    if (json) {
        json_t *o = json_object(), *fl = json_object();
        json_object_set_new(o, "topology", json_string(t->name));
        json_object_set_new(o, "cases_used", json_integer(cal.n_used));
        json_object_set_new(o, "hbm_Bps", json_real(cal.hbm_Bps));
        json_object_set_new(o, "l2_Bps", json_real(cal.l2_Bps));
        for (int dt = 0; dt < CR_DT__COUNT; dt++)
            if (cal.flops[dt] > 0)
                json_object_set_new(fl, cr_dtype_name((cr_dtype)dt), json_real(cal.flops[dt]));
        json_object_set_new(o, "flops", fl);
        json_object_set_new(o, "h2d_pinned_Bps", json_real(cal.h2d_pinned_Bps));
        json_object_set_new(o, "d2h_pinned_Bps", json_real(cal.d2h_pinned_Bps));
        json_object_set_new(o, "h2d_pageable_Bps", json_real(cal.h2d_pageable_Bps));
        json_object_set_new(o, "d2h_pageable_Bps", json_real(cal.d2h_pageable_Bps));
        json_object_set_new(o, "launch_us", json_real(cal.launch_s * 1e6));
        json_object_set_new(o, "sync_us", json_real(cal.sync_s * 1e6));
        json_object_set_new(o, "graph_us", json_real(cal.graph_s * 1e6));
        json_object_set_new(o, "event_us", json_real(cal.event_s * 1e6));
        json_object_set_new(o, "kernel_us", json_real(cal.kernel_s * 1e6));
        json_object_set_new(o, "kernel_fixed_us", json_real(cal.kernel_fixed_s * 1e6));
        json_object_set_new(o, "hbm_read_Bps", json_real(cal.hbm_rd_Bps));
        json_object_set_new(o, "hbm_write_Bps", json_real(cal.hbm_wr_Bps));
        json_object_set_new(o, "hbm_copy_Bps", json_real(cal.hbm_copy_Bps));
        json_object_set_new(o, "ce_d2d_Bps", json_real(cal.ce_d2d_Bps));
        json_object_set_new(o, "gemm_mem_Bps", json_real(cal.gemm_mem_Bps));
        json_object_set_new(o, "ldst_sm_Bps", json_real(cal.ldst_sm_Bps));
        json_object_set_new(o, "tma_sm_Bps", json_real(cal.tma_sm_Bps));
        static const char *const mn[3] = {"ce", "tma", "ldst"};
        for (int mk = 0; mk < 3; mk++) {
            if (!(cal.p2p_Bps[mk] > 0))
                continue;
            char k[48];
            snprintf(k, sizeof k, "p2p_%s_Bps", mn[mk]);
            json_object_set_new(o, k, json_real(cal.p2p_Bps[mk]));
            snprintf(k, sizeof k, "p2p_%s_1sm_Bps", mn[mk]);
            json_object_set_new(o, k, json_real(cal.p2p_sm1_Bps[mk]));
            snprintf(k, sizeof k, "p2p_%s_small_us", mn[mk]);
            json_object_set_new(o, k, json_real(cal.p2p_small_s[mk] * 1e6));
        }
        if (out_path)
            json_object_set_new(o, "output", json_string(out_path));
        int bad = json_dumpf(o, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(6)) != 0;
        json_decref(o);
        if (bad) {
            rc = cli_fail("calibrate", "cannot write JSON to stdout");
            goto out;
        }
        fputc('\n', stdout);
    } else if (out_path) {
        const cr_gpu_spec *g = cr_topo_gpu_spec(t, 0);
        printf("# commroof calibrate: %d cases -> %s\n", cal.n_used, out_path);
        printf("# %-20s %14s %14s\n", "figure", "measured", "peak");
        if (cal.hbm_Bps > 0)
            printf("  %-20s %11.1f GB/s %9.1f GB/s\n", "hbm", cal.hbm_Bps / 1e9,
                   g ? g->hbm_Bps / 1e9 : 0);
        if (cal.l2_Bps > 0)
            printf("  %-20s %11.1f GB/s %9.1f GB/s\n", "l2", cal.l2_Bps / 1e9,
                   g ? g->l2_Bps / 1e9 : 0);
        for (int dt = 0; dt < CR_DT__COUNT; dt++)
            if (cal.flops[dt] > 0)
                printf("  %-20s %8.1f TFLOP/s %6.1f TFLOP/s\n", cr_dtype_name((cr_dtype)dt),
                       cal.flops[dt] / 1e12, g ? g->peak_flops[dt] / 1e12 : 0);
        /* Only the figures the input measured (a p2p trace has no HBM case). */
        const struct {
            const char *name;
            double v, scale;
            const char *unit;
        } rows[] = {{"h2d pinned", cal.h2d_pinned_Bps, 1e-9, "GB/s"},
                    {"d2h pinned", cal.d2h_pinned_Bps, 1e-9, "GB/s"},
                    {"h2d pageable", cal.h2d_pageable_Bps, 1e-9, "GB/s"},
                    {"d2h pageable", cal.d2h_pageable_Bps, 1e-9, "GB/s"},
                    {"launch", cal.launch_s, 1e6, "us"},
                    {"launch+sync", cal.sync_s, 1e6, "us"},
                    {"graph kernel", cal.graph_s, 1e6, "us"},
                    {"event sync", cal.event_s, 1e6, "us"},
                    {"kernel fixed", cal.kernel_fixed_s, 1e6, "us"},
                    {"hbm read", cal.hbm_rd_Bps, 1e-9, "GB/s"},
                    {"hbm write", cal.hbm_wr_Bps, 1e-9, "GB/s"},
                    {"hbm copy", cal.hbm_copy_Bps, 1e-9, "GB/s"},
                    {"ce d2d", cal.ce_d2d_Bps, 1e-9, "GB/s"},
                    {"gemm memory-bound", cal.gemm_mem_Bps, 1e-9, "GB/s"},
                    {"ldst per SM", cal.ldst_sm_Bps, 1e-9, "GB/s"},
                    {"tma per SM", cal.tma_sm_Bps, 1e-9, "GB/s"}};
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            if (rows[i].v > 0)
                printf("  %-20s %14.2f %s\n", rows[i].name, rows[i].v * rows[i].scale,
                       rows[i].unit);
        static const char *const mn[3] = {"ce", "tma", "ldst"};
        for (int mk = 0; mk < 3; mk++)
            if (cal.p2p_Bps[mk] > 0)
                printf("  p2p %-16s %11.1f GB/s, 1 SM %.1f GB/s, %.0f B in %.2f us\n", mn[mk],
                       cal.p2p_Bps[mk] / 1e9, cal.p2p_sm1_Bps[mk] / 1e9, cal.p2p_small_bytes[mk],
                       cal.p2p_small_s[mk] * 1e6);
    } else {
        char *buf = NULL;
        size_t len = 0;
        if (cr_topo_xml_save_memory(t, &buf, &len, &d) != CR_OK) {
            rc = cli_fail("calibrate", "%s", d.msg);
            goto out;
        }
        fwrite(buf, 1, len, stdout);
        free(buf);
    }
out:
    if (made_tmp) {
        DIR *dp = opendir(tmpdir);
        if (dp) {
            struct dirent *e;
            while ((e = readdir(dp))) {
                if (e->d_name[0] == '.')
                    continue;
                char f[PATH_MAX];
                snprintf(f, sizeof f, "%s/%s", tmpdir, e->d_name);
                unlink(f);
            }
            closedir(dp);
        }
        rmdir(tmpdir);
    }
    cr_vmeas_list_release(&l);
    cr_topo_free(t);
    free(inputs);
    return rc;
}
