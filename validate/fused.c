/* SPDX-License-Identifier: MIT */
/*
 * The chunked-overlap schedule of a fused GEMM + collective (validate.h,
 * cr_vfused_pipeline_s): what kernels/fused/fused.cu's overlap variant
 * runs. Two streams, each a chain of `chunks` tasks; a task starts when
 * its predecessor on its own stream and the task it waits for on the other
 * stream are done. While both streams run, each progresses at its reduced
 * rate (the GEMM loses the SMs NCCL's channels occupy and HBM bandwidth;
 * NCCL's channels lose issue slots and HBM bandwidth to the GEMM and wait
 * for the peer's piece). Rates are constant between events, so the
 * simulation below is exact: advance to the next task end, update the
 * remaining work, start what became ready.
 */
#include <math.h>
#include <stdbool.h>

#include "validate.h"

double cr_vfused_pipeline_s(const cr_vfused_pipe *p)
{
    if (!p || p->chunks < 1 || p->chunks > 1 << 20 || !(p->gemm_s >= 0) || !(p->coll_s >= 0) ||
        !isfinite(p->gemm_s) || !isfinite(p->coll_s) || !(p->gemm_slow >= 1) ||
        !(p->coll_slow >= 1) || !isfinite(p->gemm_slow) || !isfinite(p->coll_slow))
        return NAN;
    const int c = p->chunks;
    int gi = 0, ni = 0;         /* next GEMM / collective to start (or running) */
    int g_done = 0, n_done = 0; /* tasks finished on each stream */
    double gr = -1, nr = -1;    /* remaining solo work of the running task; < 0: idle */
    double t = 0;
    while (g_done < c || n_done < c) {
        /* start what is ready */
        if (gr < 0 && gi < c && g_done == gi && (!p->comm_first || n_done > gi)) {
            gr = p->gemm_s;
        }
        if (nr < 0 && ni < c && n_done == ni && (p->comm_first || g_done > ni)) {
            nr = p->coll_s;
        }
        bool both = gr >= 0 && nr >= 0;
        double rg = both ? 1 / p->gemm_slow : 1, rn = both ? 1 / p->coll_slow : 1;
        double dt = INFINITY;
        if (gr >= 0)
            dt = fmin(dt, gr / rg);
        if (nr >= 0)
            dt = fmin(dt, nr / rn);
        if (!isfinite(dt))
            return NAN; /* nothing runs and nothing can start: cannot happen */
        t += dt;
        /* finish the task(s) that end now (exactly: the one that set dt) */
        if (gr >= 0) {
            double left = gr - dt * rg;
            if (left <= 1e-12 * (p->gemm_s + p->coll_s) || gr / rg == dt) {
                gr = -1;
                g_done++;
                gi++;
            } else {
                gr = left;
            }
        }
        if (nr >= 0) {
            double left = nr - dt * rn;
            if (left <= 1e-12 * (p->gemm_s + p->coll_s) || nr / rn == dt) {
                nr = -1;
                n_done++;
                ni++;
            } else {
                nr = left;
            }
        }
    }
    return t;
}
