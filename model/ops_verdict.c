/* SPDX-License-Identifier: MIT */
/*
 * Verdicts (see ops.h): what a measured time says against an operator's
 * bounds and baseline, and the words each verdict is printed with. Apart
 * from ops.c's evaluation because check, validate, roofline and the plots
 * read a verdict from any result, evaluated or read back.
 */
#include "ops.h"

cr_verdict cr_op_verdict(const cr_op_result *r, double measured_s, double *pct, double *speedup)
{
    *pct = 100 * r->bound_s / measured_s;
    *speedup = r->baseline_s / measured_s;
    if (cr_below_bound(measured_s, r->bound_s))
        return CR_VERDICT_IMPOSSIBLE;
    if (cr_below_bound(measured_s, r->bound_cold_s))
        return CR_VERDICT_CACHE_RESIDENT;
    if (cr_near_roofline(measured_s, r->bound_s))
        return CR_VERDICT_NEAR_ROOF;
    /* faster than the baseline by more than a part in 10^9, as the bound
     * compares: the baseline printed with ten digits and handed back is
     * the baseline's time, not faster (speedup 1.0; QA audit of
     * 2026-12-07: 56.16218416 us was faster-than-baseline) */
    if (cr_below_bound(measured_s, r->baseline_s))
        return CR_VERDICT_GOOD;
    return CR_VERDICT_SLOW;
}

const char *cr_verdict_name(cr_verdict v)
{
    switch (v) {
    case CR_VERDICT_IMPOSSIBLE:
        return "impossible";
    case CR_VERDICT_CACHE_RESIDENT:
        return "cache-resident";
    case CR_VERDICT_NEAR_ROOF:
        return "near-roofline";
    case CR_VERDICT_GOOD:
        return "faster-than-baseline";
    case CR_VERDICT_SLOW:
        return "slower-than-baseline";
    }
    return "?";
}

const char *cr_verdict_help(cr_verdict v)
{
    switch (v) {
    case CR_VERDICT_IMPOSSIBLE:
        return "measured time is below the bound: no correct kernel can run this fast on "
               "this hardware (the bound lets what fits in the caches stay there between "
               "iterations, unless --cold); check the timing (synchronisation, skipped work) "
               "and the results";
    case CR_VERDICT_CACHE_RESIDENT:
        return "below the cold (HBM-only) bound but not the warm one: the data stayed in "
               "the L2 between iterations, as a back-to-back loop keeps it; not a failure. "
               "Flush the caches between iterations (or rotate buffers) to time the cold "
               "case, and compare with --cold";
    case CR_VERDICT_NEAR_ROOF:
        return "at 80% or more of the roofline (within 1.25x the bound): little is "
               "left to gain on this hardware";
    case CR_VERDICT_GOOD:
        return "faster than the PyTorch + NCCL baseline, with headroom left to the "
               "bound";
    case CR_VERDICT_SLOW:
        return "no faster than the PyTorch + NCCL baseline: fuse the kernels, overlap "
               "communication with compute, or move data with a cheaper mechanism";
    }
    return "?";
}
