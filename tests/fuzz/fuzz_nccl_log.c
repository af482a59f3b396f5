/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the nccl-tests log reader
 * (cr_validate_read_nccl_tests_stream: the text log, and the JSON file of
 * nccl-tests -J when the input starts with '{') and the rank merge that
 * validate runs after it. test_validate_log.c replays tests/fuzz/corpus/nccl_log/
 * through this same function on every make test.
 * fuzz-max-len: 65536
 * fuzz-seeds: tests/fixtures/nccl-tests
 *
 * Properties: no crash, leak or uninitialised read (the type column past a
 * row's end was one); a failure says why, names the log and leaves the
 * list as it was (a case already in it stays, none is added); a log that
 * reads yields nccl cases with a positive, finite time, a known collective
 * and dtype, bytes and nranks >= 1, each citing its line; merging them
 * (rank -1: nothing to merge) keeps every case; the same log read again
 * under another name repeats it (cr_validate_nccl_logs_distinct) where a
 * table has two rows or more, and one log alone repeats nothing.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate.h"
#include "tests/fuzz/fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_stream(data, size);
    if (!f)
        return 0;
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    /* one case already there: the reader appends, and on failure leaves it */
    FILE *seed =
        fmemopen((void *)(uintptr_t) "#  Rank 0 Group 0\n8 2 float sum -1 1.0 0 0 0\n", 45, "r");
    if (!seed ||
        cr_validate_read_nccl_tests_stream(seed, "seed_all_reduce_perf.log", NULL, &l, &d) !=
            CR_OK ||
        l.n != 1)
        abort();
    fclose(seed);
    cr_status st = cr_validate_read_nccl_tests_stream(f, "fuzz_all_gather_perf.log", NULL, &l, &d);
    fclose(f);
    if (st != CR_OK) {
        if (!d.msg[0] || !strstr(d.msg, "fuzz_all_gather_perf.log") || l.n != 1)
            abort();
    } else {
        for (size_t i = 1; i < l.n; i++) {
            const cr_vmeas *m = &l.v[i];
            double nr = 0, b = -1;
            if (m->c.family != CR_VFAM_NCCL || !(m->measured_s > 0) || !isfinite(m->measured_s) ||
                !cr_vcase_get(&m->c, "coll") || !cr_vcase_get(&m->c, "dtype") ||
                cr_vcase_num(&m->c, "nranks", &nr, NULL) != CR_OK || !(nr >= 1) ||
                cr_vcase_num(&m->c, "bytes", &b, NULL) != CR_OK || !(b >= 0) ||
                strncmp(m->source, "fuzz_all_gather_perf.log:", 25) != 0)
                abort();
        }
        /* one log repeats no other log's table; read again under another
         * name, it repeats its own wherever a table has two rows or more
         * (consecutive rows of one collective and rank count) */
        if (cr_validate_nccl_logs_distinct(&l, 1, &d) != CR_OK)
            abort();
        bool run2 = false;
        for (size_t i = 2; i < l.n && !run2; i++)
            run2 =
                !strcmp(cr_vcase_get(&l.v[i].c, "coll"), cr_vcase_get(&l.v[i - 1].c, "coll")) &&
                !strcmp(cr_vcase_get(&l.v[i].c, "nranks"), cr_vcase_get(&l.v[i - 1].c, "nranks"));
        size_t once = l.n;
        FILE *g = fuzz_stream(data, size);
        if (g) {
            st = cr_validate_read_nccl_tests_stream(g, "fuzz_copy_all_gather_perf.log", NULL, &l,
                                                    &d);
            fclose(g);
            if (st != CR_OK || l.n != 2 * once - 1)
                abort();
            cr_status ds = cr_validate_nccl_logs_distinct(&l, 1, &d);
            if (run2 ? ds != CR_EPARSE || !strstr(d.msg, "fuzz_copy_all_gather_perf.log")
                     : ds != CR_OK)
                abort();
        }
        size_t n = l.n;
        cr_vmerge_info mi;
        if (cr_validate_merge_ranks(&l, &mi, &d) != CR_OK || l.n != n || mi.merged)
            abort();
    }
    cr_vmeas_list_release(&l);
    return 0;
}
