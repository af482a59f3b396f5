/* SPDX-License-Identifier: MIT */
/*
 * The library's one binary min-heap: entries of a double key and two ints,
 * used by every Dijkstra (bound.c's latencies, nic.c's nearest NICs, the
 * simulator's router) and by the simulator's event queue, solver and
 * batches.
 *
 * Ties: an entry pushed with the key of its parent stays below it, and a
 * sift-down takes the right child only when its key is strictly less than
 * the left's and stops at a child whose key is not less than the entry's.
 * The order in which equal keys pop follows from that alone, and the
 * simulator's results and Dijkstra's choice among equal paths depend on it:
 * keep these comparisons as they are (tests/unit/test_heap.c pins them).
 *
 * Dijkstra here is lazy: a search pushes a vertex again when its distance
 * falls and skips an entry whose key is no longer the vertex's distance
 * when it pops it, instead of decreasing keys in place.
 */
#ifndef CR_HEAP_PRIV_H
#define CR_HEAP_PRIV_H

#include <stddef.h>
#include <stdlib.h>

#include "grow.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

typedef struct {
    double key;
    int id;  /* what the entry stands for: a vertex, class, flow or batch */
    int tag; /* a second value the user may carry (the simulator's event kind) */
} cr_heap_ent;

typedef struct {
    cr_heap_ent *e;
    long n;
    size_t cap;
} cr_heap;

/* Moves e[i] of the n-entry array e down until no child has a smaller key,
 * given that its subtrees are heaps. */
static inline void cr_heap_sift_down(cr_heap_ent *e, long n, long i)
{
    cr_heap_ent x = e[i];
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && e[c + 1].key < e[c].key)
            c++;
        if (e[c].key >= x.key)
            break;
        e[i] = e[c];
        i = c;
    }
    e[i] = x;
}

/* Makes the n entries of e a heap (a batch of keys known at once). */
static inline void cr_heap_make(cr_heap_ent *e, long n)
{
    for (long i = n / 2 - 1; i >= 0; i--)
        cr_heap_sift_down(e, n, i);
}

/* Removes the entry of least key from the n-entry heap e (n > 0) and
 * returns it; e[0..n-1) is a heap then. */
static inline cr_heap_ent cr_heap_take(cr_heap_ent *e, long n)
{
    cr_heap_ent top = e[0];
    if (--n > 0) {
        e[0] = e[n];
        cr_heap_sift_down(e, n, 0);
    }
    return top;
}

/* Pushes (key, id, tag). Returns 0, or -1 when out of memory (h is then
 * unchanged). */
static inline int cr_heap_push(cr_heap *h, double key, int id, int tag)
{
    if (cr_grow((void **)&h->e, &h->cap, (size_t)h->n + 1, sizeof *h->e))
        return -1;
    long i = h->n++;
    while (i > 0) {
        long p = (i - 1) / 2;
        if (h->e[p].key <= key)
            break;
        h->e[i] = h->e[p];
        i = p;
    }
    h->e[i] = (cr_heap_ent){key, id, tag};
    return 0;
}

/* Pops the entry of least key; h must not be empty. */
static inline cr_heap_ent cr_heap_pop(cr_heap *h)
{
    return cr_heap_take(h->e, h->n--);
}

/* Frees the entries and empties h, which may be used again. */
static inline void cr_heap_free(cr_heap *h)
{
    free(h->e);
    *h = (cr_heap){0};
}

#pragma GCC visibility pop

#endif
