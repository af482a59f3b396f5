/* SPDX-License-Identifier: MIT */
/*
 * Operator benchmark (make bench): evaluating the shipped suites (bound,
 * baseline, the intra-SM prediction and the inter-SM SM-split search over
 * 60 candidates per operator) on an 8-GPU board and on the 8,192-GPU
 * h100-ib-1024n cluster, where the DP groups span 1,024 nodes. One core;
 * topology load excluded.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ops.h"
#include "suite.h"
#include "topo_xml.h"
#include "bench_clock.h"

static int run(const char *topo, const char *suite)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    cr_suite *s = NULL;
    if (cr_topo_open(topo, &t, &d) != CR_OK || cr_suite_open(suite, &s, &d) != CR_OK) {
        fprintf(stderr, "bench_ops: %s\n", d.msg);
        cr_topo_free(t);
        return 1;
    }
    double t0 = bench_wall_s();
    cr_op_row *rows = NULL;
    int n = 0;
    if (cr_op_eval_suite(t, s, &rows, &n, &d) != CR_OK) {
        fprintf(stderr, "bench_ops: %s\n", d.msg);
        cr_suite_free(s);
        cr_topo_free(t);
        return 1;
    }
    double wall = bench_wall_s() - t0;
    int ok = 0;
    for (int i = 0; i < n; i++)
        ok += rows[i].status == CR_OK;
    printf("  %-22s %-14s %6d %9d %12.4f %10.1f\n", "suite evaluation", topo, t->n_gpus, ok, wall,
           bench_peak_rss_mib());
    free(rows);
    cr_suite_free(s);
    cr_topo_free(t);
    return 0;
}

int main(void)
{
    printf("# bench_ops: suite evaluation (bound, baseline, overlap search), one core\n");
    printf("# %-22s %-14s %6s %9s %12s %10s\n", "what", "topology", "gpus", "problems", "wall",
           "peak_rss");
    printf("# %-22s %-14s %6s %9s %12s %10s\n", "", "", "", "", "(s)", "(MB)");
    int rc = run("hgx-h100-8", "pkb");
    if (bench_smoke())
        return rc;
    rc |= run("hgx-h100-8", "llm");
    rc |= run("gb200-nvl72", "llm");
    rc |= run("h100-ib-1024n", "llm");
    return rc;
}
