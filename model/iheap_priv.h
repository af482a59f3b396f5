/* SPDX-License-Identifier: MIT */
/*
 * An integer-keyed binary min-heap of devices for Dijkstra, shared by the
 * simulator's router (flowroute.c) and the nearest-NIC search (nic.c).
 */
#ifndef CR_IHEAP_PRIV_H
#define CR_IHEAP_PRIV_H

#include <stdlib.h>

#include "grow.h"

/* Lazy: a search skips an entry whose key is no longer the vertex's
 * distance when it pops it, instead of decreasing keys in place. */
typedef struct {
    struct cr_iheap_ent {
        int v, d; /* vertex and key */
    } * e;
    long n;
    size_t cap;
} cr_iheap;

/* Pushes vertex v with key dist. Returns -1 when out of memory. */
static inline int cr_iheap_push(cr_iheap *h, int v, int dist)
{
    if (cr_grow((void **)&h->e, &h->cap, (size_t)h->n + 1, sizeof *h->e))
        return -1;
    long i = h->n++;
    while (i > 0) {
        long p = (i - 1) / 2;
        if (h->e[p].d <= dist)
            break;
        h->e[i] = h->e[p];
        i = p;
    }
    h->e[i].v = v;
    h->e[i].d = dist;
    return 0;
}

/* Pops the entry of least key into *v, *dist; h must not be empty. */
static inline void cr_iheap_pop(cr_iheap *h, int *v, int *dist)
{
    *v = h->e[0].v;
    *dist = h->e[0].d;
    long n = --h->n;
    struct cr_iheap_ent last = h->e[n];
    long i = 0;
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h->e[c + 1].d < h->e[c].d)
            c++;
        if (h->e[c].d >= last.d)
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (n > 0)
        h->e[i] = last;
}

static inline void cr_iheap_free(cr_iheap *h)
{
    free(h->e);
}

#endif
