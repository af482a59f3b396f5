/* SPDX-License-Identifier: MIT */
/*
 * A hash index over the ids of an array of records (open addressing, FNV-1a):
 * the topology's devices and a node template's devices are looked up by id
 * once per device and link, so that loading stays linear in their number.
 * The records stay the caller's; the index keeps their positions. The id of
 * record i is the string pointer at byte offset off of base + i x stride.
 */
#ifndef CR_ID_INDEX_PRIV_H
#define CR_ID_INDEX_PRIV_H

#include <stddef.h>

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

typedef struct {
    int *slots; /* record + 1 per slot, 0 = empty */
    size_t n_slots;
} cr_id_index;

/* The record whose id is id, or -1. */
int cr_id_index_find(const cr_id_index *x, const void *base, size_t stride, size_t off,
                     const char *id);

/* Indexes record i (0 <= i < n, the records base holds now; its id not yet
 * in the index), growing the index to keep it at most half full. Returns
 * 0, or -1 when out of memory (the index is left as it was). */
int cr_id_index_add(cr_id_index *x, const void *base, size_t stride, size_t off, int n, int i);

void cr_id_index_free(cr_id_index *x);

#pragma GCC visibility pop

#endif
