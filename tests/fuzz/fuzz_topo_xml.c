/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the topology XML loader (tests/fuzz/build.sh builds
 * it; test_topo_xml.c replays the corpus through this same function).
 * fuzz-max-len: 65536
 * fuzz-seeds: tests/fixtures/xml topologies
 *
 * Properties: loading never crashes or leaks; a failure always says why and
 * returns no topology; whatever loads saves, and the saved text loads back
 * into an identical graph; the routing note every command asks for
 * (cr_route_nvb_pair) names two distinct GPUs and a third between them.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "route.h"
#include "topo_xml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cr_topo *t = NULL, *u = NULL;
    cr_diag d = {{0}};
    cr_status st = cr_topo_xml_load_memory((const char *)data, size, "fuzz.xml", &t, &d);
    if (st != CR_OK) {
        if (t || !d.msg[0])
            abort();
        return 0;
    }
    char *buf = NULL;
    size_t len = 0;
    if (cr_topo_xml_save_memory(t, &buf, &len, &d) != CR_OK)
        abort();
    if (cr_topo_xml_load_memory(buf, len, "saved.xml", &u, &d) != CR_OK)
        abort();
    if (!cr_topo_equal(t, u, &d))
        abort();
    int ga = -1, gb = -1, via = -1;
    if (cr_route_nvb_pair(t, &ga, &gb, &via) && (ga < 0 || gb <= ga || gb >= t->n_gpus || via < 0 ||
                                                 via >= t->n_gpus || via == ga || via == gb))
        abort();
    free(buf);
    cr_topo_free(t);
    cr_topo_free(u);
    return 0;
}
