/* SPDX-License-Identifier: MIT */
/*
 * cr_grow: the one way the library grows an array it appends to (model/,
 * plots/, traces/reader/, the CLI), in place of a realloc and a doubling
 * written out at each site.
 *
 *   size_t cap = 0;  (the array's capacity, in elements, next to its count)
 *   if (cr_grow((void **)&v, &cap, n + 1, sizeof *v)) return CR_ENOMEM;
 *   v[n++] = x;
 */
#ifndef CR_GROW_H
#define CR_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* Grows *arr (elements of elem bytes, *cap of them) to hold at least need
 * elements: nothing when it does, else a capacity doubled from *cap (from
 * 16 when 0) until it does. The elements past the old capacity are not
 * initialised. Returns 0, or -1 when out of memory or when the byte size
 * would overflow size_t; *arr and *cap are then unchanged (the caller still
 * owns *arr). */
static inline int cr_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return -1;
        n *= 2;
    }
    if (elem > 0 && n > SIZE_MAX / elem)
        return -1;
    /* never realloc(p, 0): that may free p and return NULL */
    size_t bytes = n * elem;
    void *p = realloc(*arr, bytes > 0 ? bytes : 1);
    if (!p)
        return -1;
    *arr = p;
    *cap = n;
    return 0;
}

#pragma GCC visibility pop

#endif
