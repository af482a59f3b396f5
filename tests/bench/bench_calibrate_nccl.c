/* SPDX-License-Identifier: MIT */
/*
 * bench_calibrate_nccl: what one fit of `commroof calibrate --nccl-tests`
 * costs (cr_cnf_fit_run: coordinate descent over the key table, each step
 * a prediction of every row that informs the key). The command runs one
 * fit for the written topology and, for its leave-one-log-out cross-check,
 * one more per log, so a fit's time times (logs + 1) is the command's.
 * The logs: the seven nccl-tests logs of one 8x H100 box in the corpus
 * (validate/corpus/h100-8/sakura-llmjp-h100-1n-*, about 180 rows), read
 * from the source tree (run from the repository root, as make bench does).
 * One core, best of three fits, and the process's peak resident memory.
 * On the 2-core development machine (2026-12-06) one such fit took 3.16 s
 * while the prediction path formatted its names with snprintf, 1.84 s
 * after (cr_str_copy, model/sbuf.h): 724,440 row predictions either way.
 * Target: one fit of the seven logs under 2.5 s.
 */
#include <stdio.h>
#include <stdlib.h>

#include "topo_xml.h"
#include "validate/calibrate_nccl.h"
#include "validate/validate.h"
#include "bench_clock.h"

enum { REPS = 3, N_LOGS = 7 };

static const char *const logs[N_LOGS] = {
    "validate/corpus/h100-8/sakura-llmjp-h100-1n-all_gather_perf.log",
    "validate/corpus/h100-8/sakura-llmjp-h100-1n-all_reduce_perf.log",
    "validate/corpus/h100-8/sakura-llmjp-h100-1n-alltoall_perf.log",
    "validate/corpus/h100-8/sakura-llmjp-h100-1n-broadcast_perf.log",
    "validate/corpus/h100-8/sakura-llmjp-h100-1n-reduce_perf.log",
    "validate/corpus/h100-8/sakura-llmjp-h100-1n-reduce_scatter_perf.log",
    "validate/corpus/h100-8/sakura-llmjp-h100-1n-sendrecv_perf.log",
};

static int fail(const char *what, const cr_diag *d)
{
    fprintf(stderr, "bench_calibrate_nccl: %s: %s\n", what, d->msg);
    return 1;
}

int main(void)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    if (cr_topo_open("hgx-h100-8", &t, &d) != CR_OK)
        return fail("hgx-h100-8", &d);
    cr_cnf *f = NULL;
    if (cr_cnf_new(t, NULL, &f, &d) != CR_OK)
        return fail("cr_cnf_new", &d);
    cr_vmeas_list l = {0};
    cr_nccl_log_opts lo = {0};
    int n_logs = bench_smoke() ? 2 : N_LOGS;
    for (int i = 0; i < n_logs; i++) {
        size_t first = l.n;
        if (cr_validate_read_nccl_tests(logs[i], &lo, &l, &d) != CR_OK)
            return fail(logs[i], &d);
        for (size_t j = first; j < l.n; j++) {
            bool added = false;
            char why[200];
            if (cr_cnf_add(f, &l.v[j], i, &added, why, sizeof why, &d) != CR_OK)
                return fail(logs[i], &d);
        }
    }
    size_t n_rows = 0;
    (void)cr_cnf_rows(f, &n_rows);
    bool use[N_LOGS];
    for (int i = 0; i < N_LOGS; i++)
        use[i] = i < n_logs;
    double best = 1e9;
    cr_cnf_fit fit;
    for (int r = 0; r < REPS; r++) {
        double t0 = bench_wall_s();
        if (cr_cnf_fit_run(f, use, n_logs, &fit, &d) != CR_OK)
            return fail("cr_cnf_fit_run", &d);
        double t1 = bench_wall_s();
        best = t1 - t0 < best ? t1 - t0 : best;
    }
    /* a fit that moves nothing measured nothing worth timing */
    if (!(fit.obj_after < fit.obj_before)) {
        fprintf(stderr, "bench_calibrate_nccl: the fit did not improve (%g -> %g)\n",
                fit.obj_before, fit.obj_after);
        return 1;
    }
    printf("# bench_calibrate_nccl: one fit of calibrate --nccl-tests on hgx-h100-8, one core, "
           "best of %d\n",
           REPS);
    printf("# %-36s %8s %10s %12s %10s\n", "what", "rows", "wall", "predictions", "peak_rss");
    printf("# %-36s %8s %10s %12s %10s\n", "", "", "s", "", "MiB");
    char label[64];
    snprintf(label, sizeof label, "%d logs of one 8x H100 box", n_logs);
    printf("  %-36s %8zu %10.3f %12ld %10.1f\n", label, n_rows, best, fit.evals,
           bench_peak_rss_mib());
    int ok = best < 2.5;
    printf("# target: one fit of the seven logs under 2.5 s: %s\n", ok ? "OK" : "FAILED");
    cr_vmeas_list_release(&l);
    cr_cnf_free(f);
    cr_topo_free(t);
    return bench_exit(ok);
}
