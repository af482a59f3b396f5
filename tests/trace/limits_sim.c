/* SPDX-License-Identifier: MIT */
/*
 * Checks, on a CPU machine, what the tracer writes at the edges of what the
 * trace reader takes and of what the process allows (QA review of the
 * tracer, 2026-12-07). setup() runs with a stand-in cuptiActivityEnable
 * that refuses MEMSET, as CUPTI does where a kind is not supported.
 *
 *   1. metadata.recorded lists what CUPTI records: kernel and memcpy, not
 *      the memset it refused (before: ["kernel","memcpy","memset"], so a
 *      reader took "no memsets" for "none recorded");
 *   2. COMMROOF_TRACE_RECORD="," (no word) is noted and records the
 *      default (before: nothing, unsaid);
 *   3. a CUPTI marker named with 2 MB is written cut at NVP_MAX_STR bytes,
 *      as the wrappers cut theirs (before: a 2 MB line, over the reader's
 *      1 MiB event limit: the whole trace was refused), and so is its domain;
 *   4. a range named with 300 bytes and an NVTX extended payload gets its
 *      payload in CUPTI mode (before: the wrapper's copy of the name was cut
 *      and CUPTI's was not, the names differed, the payload was counted
 *      unmatched);
 *   5. a u64 payload of 2^63 or more is a decimal string (before: a JSON
 *      number the reader refused, "too big integer": the whole trace lost);
 *      an i64 of -2^60 too, a small one a number;
 *   7. with --lowfd: stderr closed (2>&-, a daemon), the trace does not
 *      take descriptor 2 (before it did, and the tracer's own messages on
 *      stderr went into it: the reader refused the trace, "not a trace");
 *   6. with --fsize: under RLIMIT_FSIZE (ulimit -f) of 16 KiB the trace
 *      stops below the limit, says so, and counts the rest as dropped; the
 *      process lives (before: the write past the limit raised SIGXFSZ, which
 *      ended the traced program, exit 153).
 *
 *   8. with --heldlock: finish() on a thread that holds the tracer's lock
 *      (exit() from a signal handler that interrupted an NVTX push) gives
 *      up within a few seconds and leaves the trace without its end
 *      (before: it waited for ever, the program hung at exit).
 *
 * tests/check_trace.sh builds it (including the tracer's source, against
 * the real libcupti), runs it both ways and reads its traces with
 * `commroof trace summary`. Prints "limits sim: ok" (or "limits sim
 * --fsize: ok") and exits 0, else names the first failed check and exits 1.
 *
 * Usage: limits_sim [--fsize | --lowfd | --heldlock] DIR
 */
#define cuptiActivityEnable sim_enable
#define cuptiActivityRegisterCallbacks sim_register
#include "tracer_src.h"
#undef cuptiActivityEnable
#undef cuptiActivityRegisterCallbacks
#include <sys/resource.h>

#define SIM_NAME "limits sim"
#include "sim_check.h"

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
    return kind == CUPTI_ACTIVITY_KIND_MEMSET ? CUPTI_ERROR_NOT_SUPPORTED : CUPTI_SUCCESS;
}

/* CUPTI's marker record, written as the tracer writes a buffer's. */
static void deliver(uint32_t flags, uint32_t id, const char *name, const char *domain)
{
    CUpti_ActivityMarker2 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = flags;
    m.timestamp = now_ns();
    m.id = id;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.threadId = self_tid();
    m.name = name;
    m.domain = domain;
    sb_t s = {0};
    pthread_mutex_lock(&g.mu);
    size_t before = s.len;
    marker_record(&s, &m);
    if (s.len > before)
        g.records++;
    written_or_dropped(s.p && write_all(s.p, s.len), s.len > before);
    pthread_mutex_unlock(&g.mu);
    free(s.p);
}

static void payload(uint32_t id, CUpti_MetricValueKind kind, CUpti_MetricValue v)
{
    CUpti_ActivityMarkerData2 md;
    memset(&md, 0, sizeof md);
    md.kind = CUPTI_ACTIVITY_KIND_MARKER_DATA;
    md.id = id;
    md.payloadKind = kind;
    md.payload = v;
    pthread_mutex_lock(&g.mu);
    marker_data_record(&md);
    pthread_mutex_unlock(&g.mu);
}

static char text[1 << 20];

static void read_trace(void)
{
    sim_read_trace(g.path, text, sizeof text);
}

typedef struct {
    size_t bytes;
} sz_params;

static const nvtxPayloadSchemaEntry_t sz_schema[] = {
    {0, NVTX_PAYLOAD_ENTRY_TYPE_SIZE, "Message size [bytes]", NULL, 0, offsetof(sz_params, bytes),
     NULL, NULL},
};

static int fsize_run(void)
{
    struct rlimit lim = {16384, RLIM_INFINITY};
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) {
        perror("setrlimit");
        return 1;
    }
    setup();
    EXPECT(g.active && g.fsize_limited && g.fsize_max == 16384);
    for (uint32_t i = 0; i < 1000; i++)
        deliver(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, i + 1, "a mark of some length", NULL);
    EXPECT(g.dropped > 0 && g.fd < 0);
    finish();
    struct stat st;
    EXPECT(stat(g.path, &st) == 0 && st.st_size > 0 && st.st_size <= 16384);
    read_trace();
    EXPECT(!strstr(text, "commroof_end")); /* incomplete to the reader */
    bool said = false;
    for (int i = 0; i < g.nerrors; i++)
        said = said || strstr(g.errors[i], "the file size limit (ulimit -f, 16384 bytes)");
    EXPECT(said);
    if (fails)
        return 1;
    printf("limits sim --fsize: ok\n");
    return 0;
}

static int lowfd_run(void)
{
    int out = dup(STDOUT_FILENO);
    close(STDERR_FILENO);
    setup();
    EXPECT(g.active && g.fd > STDERR_FILENO);
    note_error("a message for stderr, which is closed");
    finish();
    read_trace();
    EXPECT(strncmp(text, "{\"traceEvents\":[\n", 17) == 0);
    EXPECT(!strstr(text, "commroof-trace: "));
    if (fails)
        return 1;
    dprintf(out, "limits sim --lowfd: ok\n");
    return 0;
}

static int heldlock_run(void)
{
    setup();
    EXPECT(g.active);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, 1, "before the signal", NULL);
    pthread_mutex_lock(&g.mu); /* the interrupted thread's, as in its NVTX push */
    uint64_t t0 = now_ns();
    finish();
    double waited_s = (double)(now_ns() - t0) * 1e-9;
    pthread_mutex_unlock(&g.mu);
    EXPECT(waited_s < 10);
    read_trace();
    EXPECT(strstr(text, "before the signal") != NULL);
    EXPECT(!strstr(text, "commroof_end")); /* incomplete to the reader */
    if (fails)
        return 1;
    printf("limits sim --heldlock: ok\n");
    fflush(stdout);
    _exit(0); /* as the handler's thread would end: no second finish() from atexit */
}

int main(int argc, char **argv)
{
    bool fsize = argc == 3 && strcmp(argv[1], "--fsize") == 0;
    bool lowfd = argc == 3 && strcmp(argv[1], "--lowfd") == 0;
    bool heldlock = argc == 3 && strcmp(argv[1], "--heldlock") == 0;
    if (argc != 2 && !fsize && !lowfd && !heldlock) {
        fprintf(stderr, "usage: limits_sim [--fsize | --lowfd | --heldlock] DIR\n");
        return 2;
    }
    setenv("COMMROOF_TRACE_DIR", argv[argc - 1], 1);
    setenv("COMMROOF_TRACE_QUIET", "1", 1);
    g.clock_own = true; /* CLOCK_REALTIME: no CUPTI clock needed */
    if (fsize)
        return fsize_run();
    if (lowfd)
        return lowfd_run();
    if (heldlock)
        return heldlock_run();
    /* 2 */
    setenv("COMMROOF_TRACE_RECORD", ",", 1);
    setup();
    EXPECT(g.active && g.marker_on);
    EXPECT(g.record == (REC_KERNEL | REC_MEMCPY)); /* 1: the default less memset */
    nv.cupti_nvtx = true;                          /* CUPTI took NVTX, as on a GPU */
    orig.dpush_ex = fake_cupti_dpush;
    orig.dpop = fake_cupti_dpop;

    /* 3 */
    size_t big = 2u << 20;
    char *huge = malloc(big + 1);
    if (!huge)
        return 1;
    memset(huge, 'n', big);
    huge[big] = '\0';
    huge[NVP_MAX_STR - 1] = '\xe2'; /* a character the cut splits: left out */
    huge[NVP_MAX_STR] = '\x82';
    huge[NVP_MAX_STR + 1] = '\xac';
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, 1, huge, huge);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_START, 2, huge, NULL);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_END, 2, NULL, NULL);

    /* 4: the wrapper decodes the payload, CUPTI records the range */
    nvtxDomainHandle_t d = w_dcreate("D");
    nvtxPayloadSchemaAttr_t sa = {
        NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
            NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
            NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID,
        NULL,
        NVTX_PAYLOAD_SCHEMA_TYPE_STATIC,
        0,
        sz_schema,
        1,
        sizeof(sz_params),
        0,
        (uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 1,
        NULL};
    w_schema_reg(d, &sa);
    char name300[301];
    memset(name300, 'r', 300);
    name300[300] = '\0';
    sz_params p = {777777};
    nvtxPayloadData_t pd = {(uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 1, sizeof p, &p};
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name300;
    a.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    a.reserved0 = 1;
    a.payload.ullValue = (uint64_t)(uintptr_t)&pd;
    w_dpush_ex(d, &a);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_START, 3, name300, "D");
    w_dpop(d);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_END, 3, NULL, NULL);

    /* 5 */
    CUpti_MetricValue v;
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_START, 4, "u64 hash", NULL);
    v.metricValueUint64 = 0xcbf29ce484222325ull;
    payload(4, CUPTI_METRIC_VALUE_KIND_UINT64, v);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_END, 4, NULL, NULL);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_START, 5, "i64 big", NULL);
    v.metricValueInt64 = -(1ll << 60);
    payload(5, CUPTI_METRIC_VALUE_KIND_INT64, v);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_END, 5, NULL, NULL);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_START, 6, "u64 small", NULL);
    v.metricValueUint64 = 4096;
    payload(6, CUPTI_METRIC_VALUE_KIND_UINT64, v);
    deliver(CUPTI_ACTIVITY_FLAG_MARKER_END, 6, NULL, NULL);

    finish();
    read_trace();
    char want[NVP_MAX_STR + 64];
    snprintf(want, sizeof want, "\"name\":\"%.*s\",", NVP_MAX_STR - 1, huge);
    EXPECT(strstr(text, want)); /* the instant marker, cut before the split character */
    snprintf(want, sizeof want, "\"domain\":\"%.*s\"}", NVP_MAX_STR - 1, huge);
    EXPECT(strstr(text, want));
    snprintf(want, sizeof want, "\"name\":\"%.*s\",\"args\"", NVP_MAX_STR - 1, huge);
    EXPECT(strstr(text, want)); /* the range */
    EXPECT(strlen(text) < 64 * 1024);
    snprintf(want, sizeof want, "\"name\":\"%.*s\",", NVP_MAX_STR, name300);
    EXPECT(strstr(text, want));
    EXPECT(strstr(text,
                  "\"payload\":{\"Message size [bytes]\":777777},\"payload_kind\":\"nvtx_ext\""));
    EXPECT(strstr(text, "\"nvtx_payloads_decoded\":1,\"nvtx_payloads_undecoded\":0,"
                        "\"nvtx_payloads_unmatched\":0"));
    EXPECT(strstr(text, "\"payload\":\"14695981039346656037\",\"payload_kind\":\"u64\""));
    EXPECT(strstr(text, "\"payload\":\"-1152921504606846976\",\"payload_kind\":\"i64\""));
    EXPECT(strstr(text, "\"payload\":4096,\"payload_kind\":\"u64\""));
    EXPECT(strstr(text, "\"recorded\":[\"kernel\",\"memcpy\"]"));
    EXPECT(strstr(text, "cuptiActivityEnable(MEMSET): CUPTI_ERROR_NOT_SUPPORTED"));
    EXPECT(strstr(text, "COMMROOF_TRACE_RECORD=\\\",\\\" names no kind"));
    free(huge);
    if (fails)
        return 1;
    printf("limits sim: ok\n");
    return 0;
}
