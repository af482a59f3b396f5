/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the suite XML loader (tests/fuzz/build.sh builds it
 * with the model sources and the embedded topologies and suites).
 * fuzz-max-len: 8192
 * fuzz-seeds: suites
 *
 * test_suite.c replays tests/fuzz/corpus/suite through this function.
 * Properties: loading never crashes or leaks; a failure always says why
 * (file:line) and returns no suite; every problem of a loaded suite passes
 * the parameter check, so evaluating it can only fail on the topology.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cr_suite *s = NULL;
    cr_diag d = {{0}};
    cr_status st = cr_suite_load_memory((const char *)data, size, "fuzz.xml", &s, &d);
    if (st != CR_OK) {
        if (s || strncmp(d.msg, "fuzz.xml", 8) != 0)
            abort();
        return 0;
    }
    if (!s || !s->name || s->n_problems < 1)
        abort();
    for (int i = 0; i < s->n_problems; i++) {
        cr_op_result r;
        if (cr_op_counts(s->problems[i].op, &s->problems[i].params, &r, &d) != CR_OK)
            abort();
    }
    cr_suite_free(s);
    return 0;
}
