/* SPDX-License-Identifier: MIT */
/*
 * bench_topo_metrics: what `commroof topo show` costs on the largest shipped
 * topology (h100-ib-1024n, 8,192 GPUs) and on an 8-GPU box, per metric, and
 * the NCCL dump import. One core, best of five runs per row, and the
 * process's peak resident memory. Target: the whole `show` (all four metrics)
 * of the 8,192-GPU cluster under 1 s.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nccl_import.h"
#include "topo_metrics.h"
#include "topo_xml.h"
#include "bench_clock.h"

enum { REPS = 5, N_ROWS = 5 };

struct row {
    double best;
};

/* Times the four metrics on t; best[i] keeps the best of the runs. */
static int run_metrics(const cr_topo *t, double best[N_ROWS])
{
    double lo[CR_LINK__COUNT], hi[CR_LINK__COUNT];
    cr_bisection b;
    cr_switch_summary *sw = NULL;
    int n_sw = 0;
    cr_pair_summary p;
    double t0 = bench_wall_s();
    if (cr_metrics_injection_range(t, lo, hi) != CR_OK)
        return 1;
    double t1 = bench_wall_s();
    if (cr_metrics_bisection(t, &b) != CR_OK)
        return 1;
    double t2 = bench_wall_s();
    if (cr_metrics_switches(t, &sw, &n_sw) != CR_OK)
        return 1;
    double t3 = bench_wall_s();
    if (cr_metrics_pairs(t, &p) != CR_OK)
        return 1;
    double t4 = bench_wall_s();
    free(sw);
    cr_pair_summary_release(&p);
    double d[N_ROWS] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0};
    for (int i = 0; i < N_ROWS; i++)
        if (d[i] < best[i])
            best[i] = d[i];
    return 0;
}

int main(void)
{
    static const char *const what[N_ROWS] = {"injection per fabric", "bisection (2 max-flows)",
                                             "switch summary", "pair classes (routes)",
                                             "all of topo show"};
    const char *names[2] = {"hgx-h200-8", "h100-ib-1024n"};
    double best[2][N_ROWS];
    int gpus[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        cr_topo *t = NULL;
        cr_diag d = {{0}};
        if (cr_topo_open(names[k], &t, &d) != CR_OK) {
            fprintf(stderr, "bench_topo_metrics: %s\n", d.msg);
            return 1;
        }
        gpus[k] = t->n_gpus;
        for (int i = 0; i < N_ROWS; i++)
            best[k][i] = 1e9;
        for (int r = 0; r < REPS; r++)
            if (run_metrics(t, best[k])) {
                fprintf(stderr, "bench_topo_metrics: a metric failed on %s\n", names[k]);
                return 1;
            }
        cr_topo_free(t);
    }
    double best_import = 1e9;
    for (int r = 0; r < REPS; r++) {
        cr_topo *t = NULL;
        cr_diag d = {{0}};
        double t0 = bench_wall_s();
        if (cr_nccl_import_file("tests/fixtures/nccl/dgx-a100-2socket.xml", &t, &d) != CR_OK) {
            fprintf(stderr, "bench_topo_metrics: %s\n", d.msg);
            return 1;
        }
        double t1 = bench_wall_s();
        best_import = t1 - t0 < best_import ? t1 - t0 : best_import;
        cr_topo_free(t);
    }
    printf("# bench_topo_metrics: topology metrics (commroof topo show), one core, best of %d\n",
           REPS);
    printf("# %-44s %8s %10s %10s\n", "what", "size", "wall", "peak_rss");
    printf("# %-44s %8s %10s %10s\n", "", "GPUs", "s", "MiB");
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < N_ROWS; i++) {
            char label[96];
            snprintf(label, sizeof label, "%s: %s", names[k], what[i]);
            printf("  %-44s %8d %10.6f %10.1f\n", label, gpus[k], best[k][i], bench_peak_rss_mib());
        }
    printf("  %-44s %8d %10.6f %10.1f\n", "import-nccl dgx-a100-2socket (fixture)", 8, best_import,
           bench_peak_rss_mib());
    int ok = best[1][N_ROWS - 1] < 1.0;
    printf("# target: all metrics of h100-ib-1024n under 1 s: %s\n", ok ? "OK" : "FAILED");
    return bench_exit(ok);
}
