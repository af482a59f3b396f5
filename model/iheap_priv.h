/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the simulator's router (flowroute.c) and the
 * nearest-NIC search (nic.c): a growing array and an integer-keyed binary
 * min-heap of devices for Dijkstra.
 */
#ifndef CR_IHEAP_PRIV_H
#define CR_IHEAP_PRIV_H

#include <stdlib.h>

/* Grows *arr (elements of elem bytes, *cap of them) to hold need, doubling
 * from 16. Returns -1 when out of memory (*arr then unchanged). */
static inline int cr_grow(void **arr, long *cap, long need, size_t elem)
{
    if (need <= *cap)
        return 0;
    long n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*arr, (size_t)n * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = n;
    return 0;
}

/* Lazy: a search skips an entry whose key is no longer the vertex's
 * distance when it pops it, instead of decreasing keys in place. */
typedef struct {
    int *v, *d; /* vertex and key of each entry */
    long n, cap;
} cr_iheap;

/* Pushes vertex v with key dist. Returns -1 when out of memory. */
static inline int cr_iheap_push(cr_iheap *h, int v, int dist)
{
    if (h->n + 1 > h->cap) {
        long c = h->cap ? h->cap * 2 : 64;
        int *a = realloc(h->v, (size_t)c * sizeof *a);
        if (!a)
            return -1;
        h->v = a;
        int *b = realloc(h->d, (size_t)c * sizeof *b);
        if (!b)
            return -1;
        h->d = b;
        h->cap = c;
    }
    long i = h->n++;
    while (i > 0) {
        long p = (i - 1) / 2;
        if (h->d[p] <= dist)
            break;
        h->v[i] = h->v[p];
        h->d[i] = h->d[p];
        i = p;
    }
    h->v[i] = v;
    h->d[i] = dist;
    return 0;
}

/* Pops the entry of least key into *v, *dist; h must not be empty. */
static inline void cr_iheap_pop(cr_iheap *h, int *v, int *dist)
{
    *v = h->v[0];
    *dist = h->d[0];
    long n = --h->n;
    int lv = h->v[n], ld = h->d[n];
    long i = 0;
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h->d[c + 1] < h->d[c])
            c++;
        if (h->d[c] >= ld)
            break;
        h->v[i] = h->v[c];
        h->d[i] = h->d[c];
        i = c;
    }
    if (n > 0) {
        h->v[i] = lv;
        h->d[i] = ld;
    }
}

static inline void cr_iheap_free(cr_iheap *h)
{
    free(h->v);
    free(h->d);
}

#endif
