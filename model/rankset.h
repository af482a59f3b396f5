/* SPDX-License-Identifier: MIT */
/*
 * Rank sets: which GPUs of a topology take part in a collective.
 *
 * A rank is a GPU's dense number in the topology (cr_dev.gpu_rank, 0 ..
 * n_gpus-1). A rank set lists distinct ranks in the order the user gave
 * them; that order is the collective's rank order (rank index i of the set
 * is communicator rank i, so "--ranks 0,8,16" makes GPU 8 communicator
 * rank 1). Text forms, as `--ranks` takes them:
 *
 *   all            every GPU of the topology, in rank order
 *   5              one rank
 *   0-7            an inclusive range
 *   0-8191:8       a range with a stride (one GPU per 8-GPU node)
 *   0,3,5          a list; items may be ranges: 0-3,8-11
 *
 * Whitespace is not allowed; duplicates and ranks >= n_gpus are errors.
 */
#ifndef CR_RANKSET_H
#define CR_RANKSET_H

#include <stddef.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int n;      /* number of ranks (>= 1) */
    int *ranks; /* ranks[i] = topology GPU rank of communicator rank i */
} cr_rankset;

/* Parses spec against a topology of n_gpus GPUs. On success *out is a new
 * set (free with cr_rankset_free). Errors: CR_EPARSE (malformed text: the
 * position and the accepted forms in d), CR_ERANGE (a rank >= n_gpus, a zero
 * stride, a reversed range), CR_EINVAL (a duplicate rank), CR_ENOMEM. */
cr_status cr_rankset_parse(const char *spec, int n_gpus, cr_rankset **out, cr_diag *d);

/* A set of all n_gpus ranks in order, or NULL on allocation failure or
 * n_gpus < 1. Free with cr_rankset_free. */
cr_rankset *cr_rankset_all(int n_gpus);

/* A set from an array of n ranks (copied). Errors as cr_rankset_parse
 * (duplicates, out of range against n_gpus). */
cr_status cr_rankset_from_array(const int *ranks, int n, int n_gpus, cr_rankset **out, cr_diag *d);

/* A deep copy, or NULL on allocation failure. */
cr_rankset *cr_rankset_dup(const cr_rankset *s);

/* Frees s. cr_rankset_free(NULL) is a no-op. */
void cr_rankset_free(cr_rankset *s);

/* Position of topology rank r in s (its communicator rank), or -1. O(n). */
int cr_rankset_index(const cr_rankset *s, int r);

/* Writes the shortest text form that parses back to the same set ("all"
 * when s is every rank of an n_gpus topology in order, else ranges with
 * strides where they apply). Truncates to size, always NUL-terminates.
 * Returns the length the full text needs (like snprintf). */
size_t cr_rankset_format(const cr_rankset *s, int n_gpus, char *buf, size_t size);

/* NCCL's double binary tree over n ranks (src/graph/trees.cc ncclGetDtree):
 * tree 0 is ncclGetBtree (rank 0 the root, with one child; odd ranks are
 * leaves), tree 1 its mirror (n even: r -> n-1-r) or its shift by one (n
 * odd). Returns r's parent in tree `tree` (0 or 1), -1 for the root, and
 * its number of children in *n_children (may be NULL). r in [0, n); -1
 * with no children for an r, n or tree out of range. */
int cr_nccl_dtree(int n, int r, int tree, int *n_children);

#ifdef __cplusplus
}
#endif

#endif
