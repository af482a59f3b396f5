/* SPDX-License-Identifier: MIT */
/*
 * The one ordering and median of doubles the library sorts with (the
 * simulator's message sizes, validate's and the corpus's errors, the
 * accuracy charts), in place of a comparator written out in each module.
 * Percentiles stay with their users: validate's is nearest-rank (a
 * measured time the report can name), the corpus's interpolates between
 * ranks (doc/corpus.md, "Reading the tables").
 */
#ifndef CR_STATS_H
#define CR_STATS_H

#include <stddef.h>

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* qsort comparator: ascending doubles (the inputs hold no NaN). */
int cr_cmp_double(const void *a, const void *b);

/* Median of v[0..n) (the mean of the middle two when n is even); 0 when
 * n = 0. Sorts v. */
double cr_median(double *v, size_t n);

#pragma GCC visibility pop

#endif
