/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for one ParallelKernelBench rank_<r>_perf.json
 * (`commroof check --pkb-logs`), through cr_pkb_perf_parse.
 * test_pkb_logs.c replays tests/fuzz/corpus/pkb_logs/ through this same
 * function on every make test.
 * fuzz-seeds: tests/fixtures/pkb/logs/problem_1_allreduce/cuda
 *
 * Properties: the parser neither crashes nor leaks; a success gives a
 * finite time check takes (cr_harness_measured_ok); a failure names the
 * file at the start of its message.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "pkb_logs_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    if (size)
        memcpy(buf, data, size);
    buf[size] = '\0';
    double wall_s = -1;
    cr_diag d = {{0}};
    cr_status st = cr_pkb_perf_parse(buf, size, "rank_0_perf.json", &wall_s, &d);
    if (st == CR_OK) {
        if (!cr_harness_measured_ok(wall_s) || !isfinite(wall_s))
            abort();
    } else if (strncmp(d.msg, "rank_0_perf.json:", 17) != 0) {
        abort();
    }
    free(buf);
    return 0;
}
