/* SPDX-License-Identifier: MIT */
/*
 * Maximum flow (Dinic) on a small directed network: the one max-flow that
 * routes, bounds and topology metrics share. Capacities are in bytes per
 * second; arcs are added in opposite pairs (a link's two directions).
 *
 *   cr_maxflow f;
 *   cr_maxflow_init(&f, n_vertices, max_pairs);
 *   cr_maxflow_add(&f, u, v, cap_uv, cap_vu);   ... once per pair
 *   double bps = cr_maxflow_run(&f, source, sink);
 *   cr_maxflow_release(&f);
 */
#ifndef CR_MAXFLOW_H
#define CR_MAXFLOW_H

#include "status.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

typedef struct {
    int n_vertices;
    int n_arcs, max_arcs;
    int *head;   /* first arc leaving each vertex, -1 = none */
    int *next;   /* next arc with the same tail */
    int *to;     /* head vertex of each arc */
    double *cap; /* residual capacity; arc a ^ 1 is a's opposite */
    int *level, *iter, *queue, *stack;
} cr_maxflow;

/* Prepares f for n_vertices vertices and up to max_pairs arc pairs.
 * Errors: CR_ENOMEM (f is then safe to release). */
cr_status cr_maxflow_init(cr_maxflow *f, int n_vertices, int max_pairs);

/* Frees what f holds; a zeroed or released f is fine. */
void cr_maxflow_release(cr_maxflow *f);

/* Adds the arc u->v with capacity c_uv and its opposite v->u with c_vu.
 * Pairs past max_pairs are ignored (size max_pairs from the graph). */
void cr_maxflow_add(cr_maxflow *f, int u, int v, double c_uv, double c_vu);

/* Pushes the maximum flow from s to t and returns it (bytes per second).
 * Residual capacities below 1e-3 B/s count as saturated: real capacities
 * are 1e9 to 1e13 B/s. */
double cr_maxflow_run(cr_maxflow *f, int s, int t);

#pragma GCC visibility pop

#endif
