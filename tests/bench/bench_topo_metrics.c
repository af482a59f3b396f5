/* SPDX-License-Identifier: MIT */
/*
 * bench_topo_metrics: what `commroof topo show` costs on the largest shipped
 * topology (h100-ib-1024n, 8,192 GPUs) and on an 8-GPU box, per metric, and
 * the NCCL dump import. One core, best of five runs per row, and the
 * process's peak resident memory. Target: the whole `show` (all four metrics)
 * of the 8,192-GPU cluster under 1 s.
 * And the 65,536-GPU cluster `commroof topo gen fat-tree --nodes 8192 --node
 * hgx-h100-8 --rails 8 --tiers 3` writes, generated in the process (not in
 * the smoke run): its pair classes' route queries each searched the whole
 * fabric from the source GPU: 1.42 s here, of the command's 1.6 s, on the
 * 2-core development machine (2026-12-07; the command 4.1 s at 16,384
 * nodes, 10.6 s at 32,768), before route.c searched from both ends (0.17 s;
 * the command 0.37 s, 0.85 s, 1.9 s: loading and checking the file).
 * Target: all of its metrics under 1 s. Its peak_rss is measured after its
 * rows, so it includes the two topologies before it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nccl_import.h"
#include "topo_gen.h"
#include "topo_metrics.h"
#include "topo_xml.h"
#include "bench_clock.h"
#include "bench_gen.h"

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
    const char *names[3] = {"hgx-h200-8", "h100-ib-1024n", "ft-8192n-h100"};
    double best[3][N_ROWS], rss[3] = {0, 0, 0};
    int gpus[3] = {0, 0, 0};
    const int n_topos = bench_smoke() ? 2 : 3;
    for (int k = 0; k < n_topos; k++) {
        cr_topo *t = NULL;
        cr_diag d = {{0}};
        cr_status st;
        if (k < 2) {
            st = cr_topo_open(names[k], &t, &d);
        } else {
            cr_topo_gen_fat_tree o = {0};
            o.nodes = 8192;
            o.node = "hgx-h100-8";
            o.rails = 8;
            o.tiers = 3;
            st = bench_gen_fat_tree(&o, &t, &d);
        }
        if (st != CR_OK) {
            fprintf(stderr, "bench_topo_metrics: %s\n", d.msg);
            return 1;
        }
        gpus[k] = t->n_gpus;
        for (int i = 0; i < N_ROWS; i++)
            best[k][i] = 1e9;
        for (int r = 0; r < (k < 2 ? REPS : 3); r++)
            if (run_metrics(t, best[k])) {
                fprintf(stderr, "bench_topo_metrics: a metric failed on %s\n", names[k]);
                return 1;
            }
        rss[k] = bench_peak_rss_mib();
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
    for (int k = 0; k < n_topos; k++)
        for (int i = 0; i < N_ROWS; i++) {
            char label[96];
            snprintf(label, sizeof label, "%s: %s", names[k], what[i]);
            printf("  %-44s %8d %10.6f %10.1f\n", label, gpus[k], best[k][i], rss[k]);
        }
    printf("  %-44s %8d %10.6f %10.1f\n", "import-nccl dgx-a100-2socket (fixture)", 8, best_import,
           bench_peak_rss_mib());
    int ok = best[1][N_ROWS - 1] < 1.0;
    printf("# target: all metrics of h100-ib-1024n under 1 s: %s\n", ok ? "OK" : "FAILED");
    if (n_topos > 2) {
        int ok_big = best[2][N_ROWS - 1] < 1.0;
        printf("# target: all metrics of the 8,192-node fat tree under 1 s: %s\n",
               ok_big ? "OK" : "FAILED");
        ok = ok && ok_big;
    }
    return bench_exit(ok);
}
