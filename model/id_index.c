/* SPDX-License-Identifier: MIT */
/* The hash index over record ids (id_index_priv.h). */
#include "id_index_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_id(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

static const char *id_of(const void *base, size_t stride, size_t off, int i)
{
    const char *rec = (const char *)base + (size_t)i * stride;
    const char *id;
    memcpy(&id, rec + off, sizeof id);
    return id;
}

/* The slot holding id, or the empty slot where it would go. */
static size_t slot_of(const int *slots, size_t n_slots, const void *base, size_t stride, size_t off,
                      const char *id)
{
    size_t mask = n_slots - 1;
    size_t i = (size_t)hash_id(id) & mask;
    while (slots[i] && strcmp(id_of(base, stride, off, slots[i] - 1), id) != 0)
        i = (i + 1) & mask;
    return i;
}

int cr_id_index_find(const cr_id_index *x, const void *base, size_t stride, size_t off,
                     const char *id)
{
    if (!x->n_slots)
        return -1;
    return x->slots[slot_of(x->slots, x->n_slots, base, stride, off, id)] - 1;
}

int cr_id_index_add(cr_id_index *x, const void *base, size_t stride, size_t off, int n, int i)
{
    if ((size_t)n * 2 > x->n_slots) {
        size_t grown = x->n_slots ? x->n_slots * 2 : 64;
        while ((size_t)n * 2 > grown)
            grown *= 2;
        int *slots = calloc(grown, sizeof *slots);
        if (!slots)
            return -1;
        for (int k = 0; k < n; k++)
            if (k != i)
                slots[slot_of(slots, grown, base, stride, off, id_of(base, stride, off, k))] =
                    k + 1;
        free(x->slots);
        x->slots = slots;
        x->n_slots = grown;
    }
    x->slots[slot_of(x->slots, x->n_slots, base, stride, off, id_of(base, stride, off, i))] = i + 1;
    return 0;
}

void cr_id_index_free(cr_id_index *x)
{
    free(x->slots);
    x->slots = NULL;
    x->n_slots = 0;
}
