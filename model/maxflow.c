/* SPDX-License-Identifier: MIT */
/* Dinic's maximum flow (see maxflow.h): breadth-first levels, then
 * blocking flows found by an iterative depth-first search, so deep
 * networks never recurse. */
#include "maxflow.h"

#include <float.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAXFLOW_EPS_BPS 1e-3

cr_status cr_maxflow_init(cr_maxflow *f, int n_vertices, int max_pairs)
{
    memset(f, 0, sizeof *f);
    f->n_vertices = n_vertices;
    f->max_arcs = 2 * max_pairs;
    size_t nv = (size_t)n_vertices + 1, na = (size_t)f->max_arcs + 1;
    f->head = malloc(nv * sizeof *f->head);
    f->next = malloc(na * sizeof *f->next);
    f->to = malloc(na * sizeof *f->to);
    f->cap = malloc(na * sizeof *f->cap);
    f->level = malloc(nv * sizeof *f->level);
    f->iter = malloc(nv * sizeof *f->iter);
    f->queue = malloc(nv * sizeof *f->queue);
    f->stack = malloc(nv * sizeof *f->stack);
    if (!f->head || !f->next || !f->to || !f->cap || !f->level || !f->iter || !f->queue ||
        !f->stack)
        return CR_ENOMEM;
    for (int v = 0; v < n_vertices; v++)
        f->head[v] = -1;
    return CR_OK;
}

void cr_maxflow_release(cr_maxflow *f)
{
    free(f->head);
    free(f->next);
    free(f->to);
    free(f->cap);
    free(f->level);
    free(f->iter);
    free(f->queue);
    free(f->stack);
    memset(f, 0, sizeof *f);
}

void cr_maxflow_add(cr_maxflow *f, int u, int v, double c_uv, double c_vu)
{
    if (f->n_arcs + 2 > f->max_arcs)
        return;
    int a = f->n_arcs;
    f->to[a] = v;
    f->cap[a] = c_uv;
    f->next[a] = f->head[u];
    f->head[u] = a;
    f->to[a + 1] = u;
    f->cap[a + 1] = c_vu;
    f->next[a + 1] = f->head[v];
    f->head[v] = a + 1;
    f->n_arcs += 2;
}

static bool levels(cr_maxflow *f, int s, int t)
{
    for (int v = 0; v < f->n_vertices; v++)
        f->level[v] = -1;
    int h = 0, tl = 0;
    f->queue[tl++] = s;
    f->level[s] = 0;
    while (h < tl) {
        int v = f->queue[h++];
        /* Paths longer than the sink's level are never used this phase:
         * stop there, so a nearby sink costs little in a large network. */
        if (f->level[t] >= 0 && f->level[v] >= f->level[t])
            break;
        for (int a = f->head[v]; a >= 0; a = f->next[a])
            if (f->cap[a] > MAXFLOW_EPS_BPS && f->level[f->to[a]] < 0) {
                f->level[f->to[a]] = f->level[v] + 1;
                f->queue[tl++] = f->to[a];
            }
    }
    return f->level[t] >= 0;
}

/* One augmenting path in the level graph (stack holds its arcs); pushes its
 * bottleneck and returns it, 0 when the level graph is blocked. */
static double augment(cr_maxflow *f, int s, int t)
{
    int depth = 0, v = s;
    while (1) {
        if (v == t) {
            double push = DBL_MAX;
            for (int i = 0; i < depth; i++)
                if (f->cap[f->stack[i]] < push)
                    push = f->cap[f->stack[i]];
            for (int i = 0; i < depth; i++) {
                f->cap[f->stack[i]] -= push;
                f->cap[f->stack[i] ^ 1] += push;
            }
            return push;
        }
        int a = f->iter[v];
        while (a >= 0 && !(f->cap[a] > MAXFLOW_EPS_BPS && f->level[f->to[a]] == f->level[v] + 1))
            a = f->next[a];
        f->iter[v] = a;
        if (a < 0) {
            if (depth == 0)
                return 0;
            f->level[v] = -1; /* dead end: never enter it again this phase */
            depth--;
            v = f->to[f->stack[depth] ^ 1];
            f->iter[v] = f->next[f->iter[v]];
            continue;
        }
        f->stack[depth++] = a;
        v = f->to[a];
    }
}

double cr_maxflow_run(cr_maxflow *f, int s, int t)
{
    double total = 0;
    if (s == t)
        return 0;
    while (levels(f, s, t)) {
        memcpy(f->iter, f->head, (size_t)f->n_vertices * sizeof *f->iter);
        double pushed;
        while ((pushed = augment(f, s, t)) > 0)
            total += pushed;
    }
    return total;
}
