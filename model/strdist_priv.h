/* SPDX-License-Identifier: MIT */
/*
 * The library's one edit distance, for "did you mean" in its messages
 * (harness.c's keys of a results file, params.c's topology parameters).
 */
#ifndef CR_STRDIST_PRIV_H
#define CR_STRDIST_PRIV_H

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* Insertions, deletions and substitutions that turn a into b
 * (Levenshtein), at most cap: cap itself when it is more, or when either
 * string is longer than 63 bytes (names, never text). */
int cr_edit_distance(const char *a, const char *b, int cap);

#pragma GCC visibility pop

#endif
