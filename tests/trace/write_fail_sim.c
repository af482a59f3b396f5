/* SPDX-License-Identifier: MIT */
/*
 * Checks, on a CPU machine, that the tracer's dropped-record count is right
 * when text cannot reach the file:
 *
 *   1. no memory for a buffer's commroof_stats line (realloc fails past the
 *      text buffer's first 8 KiB): the buffer's n records are still written
 *      (before the fix the whole buffer was skipped, yet counted written);
 *   2. the file's writes fail (its descriptor swapped for /dev/full): a
 *      buffer of 3 records, then one of 2, then an NVTX range and a mark of
 *      the own path are each lost: dropped_records 3 + 2 + 1 + 1 = 7 and
 *      records stay at 1 + n (before the fix: dropped 1, and the 7 counted
 *      as written);
 *   3. the file stays without an end (incomplete to the reader).
 *
 * Prints "write fail sim: ok" and exits 0, else names the first failed
 * check and exits 1. tests/check_trace.sh builds it (including the tracer's
 * source, against the real libcupti, for its record iterator) and runs it.
 *
 * Usage: write_fail_sim OUT.json
 */
#define _GNU_SOURCE /* as the tracer, whose source follows, asks */
#include <stddef.h>
#include <stdlib.h>
static int fail_big; /* realloc fails for more than 8 KiB while set */
static void *sim_realloc(void *p, size_t n)
{
    return fail_big && n > 8192 ? NULL : realloc(p, n);
}
#define realloc sim_realloc
#include "tracer_src.h"
#include "sim_open.h"
#undef realloc

#define SIM_NAME "write fail sim"
#include "sim_check.h"

/* An instant marker named name at a fixed time (so its line's length is
 * known in advance). */
static CUpti_ActivityMarker2 marker(const char *name)
{
    CUpti_ActivityMarker2 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS;
    m.timestamp = g.ts_base + 1000;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.name = name;
    return m;
}

/* Hands the tracer a buffer of n markers with the given names. */
static void deliver(const char *const *names, size_t n)
{
    uint8_t *b = NULL;
    if (posix_memalign((void **)&b, ALIGN, g.buffer_bytes) != 0)
        exit(1);
    memset(b, 0, g.buffer_bytes);
    for (size_t i = 0; i < n; i++) {
        CUpti_ActivityMarker2 m = marker(names[i]);
        memcpy(b + i * sizeof m, &m, sizeof m);
    }
    buffer_completed(NULL, 0, b, g.buffer_bytes, n * sizeof(CUpti_ActivityMarker2));
}

/* The length of a marker's line (name_pid already written). */
static size_t line_len(const char *name)
{
    sb_t s = {0};
    CUpti_ActivityMarker2 m = marker(name);
    marker_record(&s, &m);
    free(s.p);
    return s.len;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: write_fail_sim OUT.json\n");
        return 2;
    }
    if (sim_open_trace(argv[1]) != 0)
        return 1;
    g.quiet = true;
    g.buffer_bytes = 65536;
    static const char *const warm[] = {"warm"};
    deliver(warm, 1); /* names the pid: later buffers hold marker lines only */
    EXPECT(g.records == 1 && g.dropped == 0);

    /* 1: 40 markers whose lines fill the text buffer (8 KiB: 40 x 56 bytes
     * of records / 2 + 4096 reserved, rounded up to a power of 2) to 40
     * bytes short of its end, so that the stats line needs more */
    enum { N = 40 };
    static char names[N][256];
    static const char *np[N];
    size_t base = line_len("x");
    size_t target = 8192 - 1 - 40;
    for (int i = 0; i < N; i++) {
        size_t len =
            1 + (i < N - 1 ? (target / N - base) : (target - (N - 1) * (target / N)) - base);
        memset(names[i], 'a' + i % 26, len);
        names[i][len] = '\0';
        np[i] = names[i];
    }
    size_t total = 0;
    for (int i = 0; i < N; i++)
        total += line_len(np[i]);
    EXPECT(total == target);
    fail_big = 1;
    deliver(np, N);
    fail_big = 0;
    EXPECT(g.records == 1 + N && g.dropped == 0);

    /* 2 */
    close(g.fd);
    g.fd = open("/dev/full", O_WRONLY);
    static const char *const three[] = {"f1", "f2", "f3"}, *const two[] = {"f4", "f5"};
    deliver(three, 3);
    EXPECT(g.dropped == 3);
    deliver(two, 2);
    EXPECT(g.dropped == 5);
    own_open(NULL, true, 1, NULL, "own range", NULL, false, false);
    own_close(NULL, true, 0, NULL, false);
    own_mark(NULL, NULL, "own mark");
    EXPECT(g.dropped == 7);
    EXPECT(g.records == 1 + N);
    finish();

    /* 1 and 3: the file */
    static char text[1 << 16];
    sim_read_trace(argv[1], text, sizeof text);
    for (int i = 0; i < N; i++) {
        char want[300];
        snprintf(want, sizeof want, "\"name\":\"%s\"", np[i]);
        EXPECT(strstr(text, want));
    }
    /* the warm buffer's stats line only: the 40 markers' one had no memory */
    const char *st = strstr(text, "commroof_stats");
    EXPECT(st && !strstr(st + 1, "commroof_stats"));
    EXPECT(!strstr(text, "\"name\":\"f1\""));
    EXPECT(!strstr(text, "commroof_end"));
    if (fails)
        return 1;
    printf("write fail sim: ok\n");
    return 0;
}
