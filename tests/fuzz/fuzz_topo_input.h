/* SPDX-License-Identifier: MIT */
/*
 * The topology a fuzz input describes, for the targets that hold the model
 * to its laws on any graph the loader accepts (fuzz_coll_laws.c,
 * fuzz_ops_laws.c): NULL where the input does not load (the loader's own
 * target, fuzz_topo_xml.c, checks how it refuses) or has more than
 * max_gpus GPUs (larger graphs add evaluation time, not new paths).
 */
#ifndef CR_FUZZ_TOPO_INPUT_H
#define CR_FUZZ_TOPO_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "topo_xml.h"

static cr_topo *fuzz_topo_input(const uint8_t *data, size_t size, int max_gpus)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    if (cr_topo_xml_load_memory((const char *)data, size, "fuzz.xml", &t, &d) != CR_OK)
        return NULL;
    if (t->n_gpus > max_gpus) {
        cr_topo_free(t);
        return NULL;
    }
    return t;
}

#endif
