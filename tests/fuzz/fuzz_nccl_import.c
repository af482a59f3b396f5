/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the NCCL topology dump import (model/nccl_import.h).
 * test_nccl_import.c replays the fixtures and their truncations through this
 * same function on every make test. tests/fuzz/build.sh builds it
 * (`tests/fuzz/build.sh run nccl_import` fuzzes it):
 * fuzz-max-len: 65536
 * fuzz-seeds: tests/fixtures/nccl
 *
 * Properties: importing never crashes or leaks; a failure always says why and
 * returns no topology; whatever imports passes the checker, saves as
 * commroof XML, and loads back into an identical graph.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "nccl_import.h"
#include "topo_xml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cr_topo *t = NULL, *u = NULL;
    cr_diag d = {{0}};
    cr_status st = cr_nccl_import_memory((const char *)data, size, "fuzz.xml", &t, &d);
    if (st != CR_OK) {
        if (t || !d.msg[0])
            abort();
        return 0;
    }
    if (cr_topo_check(t, &d) != CR_OK)
        abort();
    char *buf = NULL;
    size_t len = 0;
    if (cr_topo_xml_save_memory(t, &buf, &len, &d) != CR_OK)
        abort();
    if (cr_topo_xml_load_memory(buf, len, "saved.xml", &u, &d) != CR_OK)
        abort();
    if (!cr_topo_equal(t, u, &d))
        abort();
    free(buf);
    cr_topo_free(t);
    cr_topo_free(u);
    return 0;
}
