/* SPDX-License-Identifier: MIT */
/* Test support: topologies and collective contexts (see cr_test_topo.h). */
#include "cr_test.h"

#include "cr_test_topo.h"
#include "rankset.h"
#include "topo_gen.h"
#include "topo_xml.h"

#include <stdlib.h>

cr_topo *cr_test_open_topo(const char *name)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    if (cr_topo_open(name, &t, &d) != CR_OK)
        fail_msg("cannot open %s: %s", name, d.msg);
    return t;
}

cr_coll_ctx *cr_test_coll_ctx(cr_topo *t, const char *ranks)
{
    cr_rankset *rs = NULL;
    cr_diag d = {{0}};
    if (ranks && cr_rankset_parse(ranks, t->n_gpus, &rs, &d) != CR_OK)
        fail_msg("ranks %s: %s", ranks, d.msg);
    cr_coll_ctx *c = NULL;
    if (cr_coll_ctx_new(t, rs, &c, &d) != CR_OK)
        fail_msg("ctx: %s", d.msg);
    cr_rankset_free(rs);
    return c;
}

cr_topo *cr_test_gen_fat_tree_opts(const cr_topo_gen_fat_tree *o)
{
    char *xml = NULL;
    size_t len = 0;
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    if (cr_topo_gen_fat_tree_xml(o, &xml, &len, &d) != CR_OK ||
        cr_topo_xml_load_memory(xml, len, "topo gen fat-tree", &t, &d) != CR_OK)
        fail_msg("topo gen: %s", d.msg);
    free(xml);
    return t;
}

cr_topo *cr_test_gen_fat_tree(const char *node, int nodes, int rails, int radix, double oversub,
                              int tiers)
{
    cr_topo_gen_fat_tree o = {.nodes = nodes,
                              .node = node,
                              .rails = rails,
                              .leaf_radix = radix,
                              .oversub = oversub,
                              .tiers = tiers};
    return cr_test_gen_fat_tree_opts(&o);
}
