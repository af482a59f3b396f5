/* SPDX-License-Identifier: MIT */
/*
 * The generated topologies the benchmarks run on: `topo gen fat-tree`'s
 * XML, loaded as a user's file would be.
 */
#ifndef CR_BENCH_GEN_H
#define CR_BENCH_GEN_H

#include <stdlib.h>

#include "topo_gen.h"
#include "topo_xml.h"

/* The fat tree o describes, generated and loaded into *t. */
static inline cr_status bench_gen_fat_tree(const cr_topo_gen_fat_tree *o, cr_topo **t, cr_diag *d)
{
    char *xml = NULL;
    size_t len = 0;
    cr_status st = cr_topo_gen_fat_tree_xml(o, &xml, &len, d);
    if (st == CR_OK)
        st = cr_topo_xml_load_memory(xml, len, "topo gen fat-tree", t, d);
    free(xml);
    return st;
}

#endif
