/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the trace reader (traces/reader/): tests/fuzz/build.sh
 * builds it, `tests/fuzz/build.sh run trace_reader` fuzzes it.
 * fuzz-max-len: 65536
 * fuzz-seeds: tests/fixtures/traces
 *
 * Properties: reading never crashes, leaks or reads out of bounds; every
 * event returned is well formed (a phase, a name, a non-negative duration);
 * an error comes with a message naming the input; reading stops, and the
 * summary of the same bytes agrees with the reader on the event count.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "traces/reader/trace_reader.h"
#include "traces/reader/trace_summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cr_trace_reader *r = NULL;
    if (cr_trace_reader_open_mem(data, size, "fuzz", &r) != CR_OK)
        return 0;
    cr_diag d = {{0}};
    const cr_trace_event *e = NULL;
    cr_status st;
    uint64_t n = 0;
    while ((st = cr_trace_reader_next(r, &e, &d)) == CR_OK && e) {
        n++;
        if (e->ph == '\0' || !e->name || !e->cat_str || !(e->dur_s >= 0) || n > size)
            abort();
    }
    if (st != CR_OK && strncmp(d.msg, "fuzz:", 5) != 0)
        abort();
    cr_trace_info info;
    cr_trace_reader_info(r, &info);
    if (info.events != n)
        abort();
    cr_trace_reader_free(r);

    if (cr_trace_reader_open_mem(data, size, "fuzz", &r) != CR_OK)
        return 0;
    cr_trace_summary *s = NULL;
    cr_diag d2 = {{0}};
    cr_status st2 = cr_trace_summarize_reader(r, &s, &d2);
    if ((st2 == CR_OK) != (st == CR_OK))
        abort();
    if (s && s->info.events != n)
        abort();
    cr_trace_summary_free(s);
    cr_trace_reader_free(r);
    return 0;
}
