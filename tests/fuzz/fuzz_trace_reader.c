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
 * summary of the same bytes agrees with the reader on the event count; the
 * fast path (traces/reader/json_subset.c) changes nothing: read with jansson
 * alone, the same bytes give the same events field by field (args equal as
 * JSON), the same status, message, info, metadata and devices.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "traces/reader/trace_reader.h"
#include "traces/reader/trace_reader_priv.h"
#include "traces/reader/trace_summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool fuzz_same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The same double, bit for bit (NaN never occurs: the reader rejects it). */
static bool fuzz_same_num(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static bool fuzz_same_json(const json_t *a, const json_t *b)
{
    return (!a && !b) || (a && b && json_equal((json_t *)(uintptr_t)a, (json_t *)(uintptr_t)b));
}

static bool fuzz_same_event(const cr_trace_event *a, const cr_trace_event *b)
{
    return a->ph == b->ph && a->cat == b->cat && fuzz_same_str(a->name, b->name) &&
           fuzz_same_str(a->cat_str, b->cat_str) && a->pid == b->pid && a->tid == b->tid &&
           fuzz_same_num(a->ts_s, b->ts_s) && fuzz_same_num(a->dur_s, b->dur_s) &&
           a->device == b->device && a->stream == b->stream &&
           memcmp(a->grid, b->grid, sizeof a->grid) == 0 &&
           memcmp(a->block, b->block, sizeof a->block) == 0 && a->registers == b->registers &&
           fuzz_same_num(a->smem_static_bytes, b->smem_static_bytes) &&
           fuzz_same_num(a->smem_dynamic_bytes, b->smem_dynamic_bytes) &&
           a->copy_kind == b->copy_kind && fuzz_same_num(a->bytes, b->bytes) &&
           a->src_device == b->src_device && a->dst_device == b->dst_device &&
           fuzz_same_str(a->src_mem, b->src_mem) && fuzz_same_str(a->dst_mem, b->dst_mem) &&
           a->has_payload == b->has_payload && fuzz_same_num(a->payload, b->payload) &&
           fuzz_same_str(a->domain, b->domain) && fuzz_same_json(a->args, b->args);
}

/* Reads the bytes with the fast path and with jansson alone, side by side;
 * false where they differ. */
static bool fuzz_fast_matches_jansson(const uint8_t *data, size_t size)
{
    cr_trace_reader *fast = NULL, *slow = NULL;
    if (cr_trace_reader_open_mem(data, size, "fuzz", &fast) != CR_OK ||
        cr_trace_reader_open_mem(data, size, "fuzz", &slow) != CR_OK) {
        cr_trace_reader_free(fast);
        return true; /* out of memory: nothing to compare */
    }
    cr_trace_reader_set_fast_path(slow, false);
    cr_diag df = {{0}}, ds = {{0}};
    const cr_trace_event *ef = NULL, *es = NULL;
    cr_status sf, ss;
    bool same;
    do {
        sf = cr_trace_reader_next(fast, &ef, &df);
        ss = cr_trace_reader_next(slow, &es, &ds);
        same = sf == ss && !ef == !es && (!ef || fuzz_same_event(ef, es));
    } while (same && sf == CR_OK && ef);
    same = same && (sf == CR_OK || strcmp(df.msg, ds.msg) == 0);
    cr_trace_info inf, ins;
    cr_trace_reader_info(fast, &inf);
    cr_trace_reader_info(slow, &ins);
    same = same && inf.complete == ins.complete && inf.has_metadata == ins.has_metadata &&
           inf.events == ins.events && inf.discarded_bytes == ins.discarded_bytes &&
           inf.dropped_known == ins.dropped_known && inf.dropped_records == ins.dropped_records &&
           inf.format_version == ins.format_version && inf.ts_base_ns == ins.ts_base_ns &&
           fuzz_same_json(cr_trace_reader_metadata(fast), cr_trace_reader_metadata(slow)) &&
           fuzz_same_json(cr_trace_reader_devices(fast), cr_trace_reader_devices(slow));
    cr_trace_reader_free(fast);
    cr_trace_reader_free(slow);
    return same;
}

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

    if (!fuzz_fast_matches_jansson(data, size))
        abort();
    return 0;
}
