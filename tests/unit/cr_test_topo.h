/* SPDX-License-Identifier: MIT */
/* Test support shared by the model tests: open a shipped topology, build a
 * collective context; both fail the running cmocka test on error. */
#ifndef CR_TEST_TOPO_H
#define CR_TEST_TOPO_H

#include "coll.h"
#include "topo.h"
#include "topo_gen.h"

/* A shipped topology by name (or a file); free with cr_topo_free(). */
cr_topo *cr_test_open_topo(const char *name);

/* A collective context over t for the rank set spec (NULL = all ranks);
 * free with cr_coll_ctx_free(). */
cr_coll_ctx *cr_test_coll_ctx(cr_topo *t, const char *ranks);

/* A fat tree of `nodes` copies of the node topology `node`, as `commroof
 * topo gen fat-tree` builds it (0 = its default for rails, radix, oversub,
 * tiers); free with cr_topo_free(). */
cr_topo *cr_test_gen_fat_tree(const char *node, int nodes, int rails, int radix, double oversub,
                              int tiers);

/* The same from the generator's own options (e.g. .spines); free with
 * cr_topo_free(). */
cr_topo *cr_test_gen_fat_tree_opts(const cr_topo_gen_fat_tree *o);

#endif
