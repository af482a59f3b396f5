/* SPDX-License-Identifier: MIT */
/*
 * ops_mix: the least time over splits of an operator's work between its
 * correct algorithms (ops.c, the least over algorithms; doc/operators.md).
 *
 * Algorithm j alone loads resource r (compute, one direction of a cut) for
 * v[r][j] seconds. Doing the fraction x_j of the output by algorithm j
 * loads r for sum_j x_j v[r][j]: each algorithm's bytes and FLOPs scale
 * with the share of the output it produces, and a cut's own latency is
 * counted once per algorithm that uses it (under what the split pays, so
 * still a bound). The split's time is at least
 *
 *     g(x) = max(floor, max_r sum_j x_j v[r][j], max over used j of lat_j)
 *
 * (floor: the memory term, the same for every algorithm). Where one
 * algorithm loads a cut's outward direction and another its inward one
 * (a reduce-scatter through the switches against a multicast all-gather of
 * the other operand), or one is compute-bound and another transfer-bound,
 * a split beats both (QA audit of 2026-12-06: gemm_rs 8192^3 on 8 H100s,
 * 229.5 us for either alone, 160 us for half each).
 *
 * g is a maximum of affine functions on the simplex (piecewise constant in
 * its latency term on the simplex's faces): its least value lies at a
 * vertex of the arrangement of the resources' planes restricted to a face:
 * a pure algorithm, a point of an edge where two resources tie, or with
 * three algorithms an interior point where three tie. Every such point is
 * evaluated; each is a real split, so the least of them is the minimum.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ops_priv.h"

/* g at x (k entries summing to 1); *arg: the binding resource, -1 the
 * floor, -2 the latency. */
static double g_at(int k, const ops_mix_res *res, int n, double floor, const double *lat,
                   const double *x, int *arg)
{
    double f = floor;
    int b = -1;
    for (int r = 0; r < n; r++) {
        double s = 0;
        for (int j = 0; j < k; j++)
            s += x[j] * res[r].v[j];
        /* a tie names compute (resource 0) before the memory floor, as
         * ops.c's bindings do */
        if (s > f || (r == 0 && s > 0 && s == f)) {
            f = s;
            b = r;
        }
    }
    double l = 0;
    for (int j = 0; j < k; j++)
        if (x[j] > 1e-12)
            l = fmax(l, lat[j]);
    if (l > f) {
        f = l;
        b = -2;
    }
    *arg = b;
    return f;
}

/* Keeps x when g(x) is below the best so far. */
static void consider(int k, const ops_mix_res *res, int n, double floor, const double *lat,
                     const double *x, double *best, double *x_out, int *arg_out)
{
    int a;
    double g = g_at(k, res, n, floor, lat, x, &a);
    /* near-ties keep the earlier point: an algorithm alone (tried first)
     * over a split that only rounding makes look cheaper */
    if (g < *best * (1 - 1e-12)) {
        *best = g;
        *arg_out = a;
        memcpy(x_out, x, (size_t)k * sizeof *x);
    }
}

static double det3(double m[3][3])
{
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

double ops_mix_min(int k, const ops_mix_res *res, int n, double floor, const double *lat,
                   double *x_out, int *arg_out)
{
    double best = INFINITY, x[OPS_MIX_ALGOS];
    *arg_out = -1;
    if (k < 1 || k > OPS_MIX_ALGOS)
        return best;
    /* the pure algorithms */
    for (int j = 0; j < k; j++) {
        memset(x, 0, sizeof x);
        x[j] = 1;
        consider(k, res, n, floor, lat, x, &best, x_out, arg_out);
    }
    /* two algorithms: where two resources tie along their edge */
    for (int j = 0; j < k; j++)
        for (int l = j + 1; l < k; l++)
            for (int p = 0; p < n; p++)
                for (int q = p + 1; q < n; q++) {
                    double dp = res[p].v[j] - res[p].v[l], dq = res[q].v[j] - res[q].v[l];
                    if (fabs(dp - dq) < 1e-300)
                        continue;
                    double t = (res[q].v[l] - res[p].v[l]) / (dp - dq);
                    if (!(t > 0 && t < 1))
                        continue;
                    memset(x, 0, sizeof x);
                    x[j] = t;
                    x[l] = 1 - t;
                    consider(k, res, n, floor, lat, x, &best, x_out, arg_out);
                }
    /* three algorithms: where three resources tie inside a triangle of
     * the simplex (Cramer's rule on x.(v_p - v_q) = 0, x.(v_p - v_s) = 0,
     * sum x = 1 over the three algorithms' shares). With four algorithms
     * the points where four resources tie inside the simplex are not
     * tried: the least is then over splits of at most three (each a real
     * split, so still at or above the true least split: ops.c's bound
     * takes it as the best split it knows). */
    for (int j0 = 0; j0 < k; j0++)
        for (int j1 = j0 + 1; j1 < k; j1++)
            for (int j2 = j1 + 1; j2 < k; j2++) {
                const int js[3] = {j0, j1, j2};
                for (int p = 0; p < n; p++)
                    for (int q = p + 1; q < n; q++)
                        for (int s = q + 1; s < n; s++) {
                            double a[3][3], rhs[3] = {0, 0, 1};
                            for (int c = 0; c < 3; c++) {
                                a[0][c] = res[p].v[js[c]] - res[q].v[js[c]];
                                a[1][c] = res[p].v[js[c]] - res[s].v[js[c]];
                                a[2][c] = 1;
                            }
                            double det = det3(a);
                            if (!(fabs(det) > 1e-300))
                                continue;
                            memset(x, 0, sizeof x);
                            bool inside = true;
                            for (int c = 0; c < 3 && inside; c++) {
                                double m[3][3];
                                memcpy(m, a, sizeof m);
                                for (int i = 0; i < 3; i++)
                                    m[i][c] = rhs[i];
                                x[js[c]] = det3(m) / det;
                                inside = x[js[c]] > 0;
                            }
                            if (inside)
                                consider(k, res, n, floor, lat, x, &best, x_out, arg_out);
                        }
            }
    return best;
}
