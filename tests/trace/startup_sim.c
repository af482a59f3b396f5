/* SPDX-License-Identifier: MIT */
/*
 * Checks, on a CPU machine, the tracer's start-up window: CUPTI may deliver
 * a buffer from its worker thread as soon as the first activity kind is
 * enabled. Here a stand-in cuptiActivityEnable delivers one, holding the
 * instant markers "m1" and "m2", the moment it is first called (from inside
 * setup()). Both must be written (the file's opening was written and the
 * tracer active before that), so the trace reads records 2, dropped 0;
 * before the fix, setup() enabled CUPTI first and the buffer was neither
 * written nor counted (records 0, dropped 0). A buffer delivered while the
 * tracer is not active is counted as dropped: one with 3 markers handed over
 * before setup() adds 3 (dropped_records 3 in the end).
 *
 * Prints "startup sim: ok" and exits 0, else names the first failed check
 * and exits 1. tests/check_trace.sh builds it (including the tracer's source,
 * against the real libcupti, for its record iterator) and runs it.
 *
 * Usage: startup_sim DIR
 */
#define cuptiActivityEnable sim_enable
#define cuptiActivityRegisterCallbacks sim_register
#include "tracer_src.h"
#undef cuptiActivityEnable
#undef cuptiActivityRegisterCallbacks

#define SIM_NAME "startup sim"
#include "sim_check.h"

/* A buffer as CUPTI hands it over: n instant markers named names[i],
 * back to back (cuptiActivityGetNextRecord walks them); *valid its bytes. */
static uint8_t *marker_buffer(const char *const *names, size_t n, size_t *valid)
{
    size_t bytes = g.buffer_bytes ? g.buffer_bytes : 65536;
    uint8_t *b = NULL;
    if (posix_memalign((void **)&b, ALIGN, bytes) != 0)
        return NULL;
    memset(b, 0, bytes);
    for (size_t i = 0; i < n; i++) {
        CUpti_ActivityMarker2 m;
        memset(&m, 0, sizeof m);
        m.kind = CUPTI_ACTIVITY_KIND_MARKER;
        m.flags = CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS;
        m.timestamp = now_ns();
        m.id = (uint32_t)i + 1;
        m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
        m.name = names[i];
        memcpy(b + i * sizeof m, &m, sizeof m);
    }
    *valid = n * sizeof(CUpti_ActivityMarker2);
    return b;
}

CUptiResult CUPTIAPI sim_register(CUpti_BuffersCallbackRequestFunc req,
                                  CUpti_BuffersCallbackCompleteFunc done);
CUptiResult CUPTIAPI sim_register(CUpti_BuffersCallbackRequestFunc req,
                                  CUpti_BuffersCallbackCompleteFunc done)
{
    (void)req;
    (void)done;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI sim_enable(CUpti_ActivityKind kind);
CUptiResult CUPTIAPI sim_enable(CUpti_ActivityKind kind)
{
    static bool delivered;
    (void)kind;
    if (!delivered) {
        delivered = true;
        static const char *const names[] = {"m1", "m2"};
        size_t valid = 0;
        uint8_t *b = marker_buffer(names, 2, &valid);
        if (b)
            buffer_completed(NULL, 0, b, g.buffer_bytes, valid);
    }
    return CUPTI_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: startup_sim DIR\n");
        return 2;
    }
    setenv("COMMROOF_TRACE_DIR", argv[1], 1);
    setenv("COMMROOF_TRACE_QUIET", "1", 1);
    g.clock_own = true; /* CLOCK_REALTIME: no CUPTI clock needed */
    /* before setup: not active, so a buffer's records are dropped, counted */
    g.os_pid = getpid();
    static const char *const early[] = {"e1", "e2", "e3"};
    size_t valid = 0;
    uint8_t *b = marker_buffer(early, 3, &valid);
    buffer_completed(NULL, 0, b, 65536, valid);
    EXPECT(g.dropped == 3 && g.records == 0);
    setup();
    EXPECT(g.active);
    finish();
    char path[4200];
    snprintf(path, sizeof path, "%s", g.path);
    static char text[1 << 16];
    sim_read_trace(path, text, sizeof text);
    EXPECT(strstr(text, "{\"traceEvents\":[\n") == text);
    EXPECT(strstr(text, "\"name\":\"m1\""));
    EXPECT(strstr(text, "\"name\":\"m2\""));
    EXPECT(!strstr(text, "\"name\":\"e1\""));
    EXPECT(strstr(text, "\"records\":2,\"dropped_records\":3,"));
    if (fails)
        return 1;
    printf("startup sim: ok\n");
    return 0;
}
