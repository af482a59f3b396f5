/* SPDX-License-Identifier: MIT */
/*
 * Simulates, on a CPU machine, the tracer's CUPTI mode for NVTX extended
 * payloads: the tracer's NVTX wrappers run with stand-in "CUPTI handlers", and
 * the CUPTI marker records that a GPU run would deliver are fed to the
 * tracer's record handler by hand, in the order and with the timestamps
 * CUPTI gives them (after the wrapper read the clock). What it checks is the
 * matching of decoded payloads to CUPTI's ranges (traces/README.md), which a
 * CPU machine otherwise never exercises. tests/check_trace.sh builds it
 * (including the tracer's source) and checks the trace it writes:
 *
 *   1. ncclAllReduce 1048576 B Sum: START and END delivered -> payload;
 *      its MARKER_DATA (payload kind "extended") adds no second payload_kind.
 *   2. ncclAllReduce 4096 B: CUPTI loses its START (the END comes alone).
 *   3. a plain range "other" on the same thread: must not take 4096's payload
 *      (names differ).
 *   4. ncclAllReduce 65536 B Max: takes its own payload; 4096's, older on
 *      the same thread, is counted unmatched (nvtx_payloads_unmatched 1).
 *   5. ncclCommInitRank pushed bare, payload at the pop (8 ranks, rank 2):
 *      matched at CUPTI's END record, which names no thread.
 *   6. 20,000 ncclAllReduce calls (sizes 100001..120000 B) whose records CUPTI
 *      delivers only afterwards, as after a flush interval: all matched,
 *      in order (last one 120000 B); nothing more unmatched.
 *
 * Usage: cupti_mode_sim OUT.json
 */
#include "tracer_src.h"
#include "sim_open.h"
#define SIM_NAME "cupti mode sim"
#include "sim_check.h"

static nvtxDomainHandle_t NVTX_API fake_cupti_dcreate(const char *n)
{
    (void)n;
    return (nvtxDomainHandle_t)(uintptr_t)0x5000;
}

static nvtxStringHandle_t NVTX_API fake_cupti_dreg(nvtxDomainHandle_t d, const char *s)
{
    (void)d;
    static uintptr_t next = 0x6000;
    (void)s;
    return (nvtxStringHandle_t)(next += 16);
}

typedef struct {
    uint64_t comm;
    size_t bytes;
    int op;
} ar_params;

typedef struct {
    uint64_t comm;
    int nranks, rank, dev;
} init_params;

static const nvtxPayloadSchemaEntry_t ar_schema[] = {
    {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "NCCL communicator ID", NULL, 0, offsetof(ar_params, comm),
     NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_SIZE, "Message size [bytes]", NULL, 0, offsetof(ar_params, bytes),
     NULL, NULL},
    {0, (uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 24, "Reduction operation", NULL, 0,
     offsetof(ar_params, op), NULL, NULL},
};

static const nvtxPayloadSchemaEntry_t init_schema[] = {
    {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "NCCL communicator ID", NULL, 0, 0, NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "No. of ranks", NULL, 0, 0, NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "Rank", NULL, 0, 0, NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "CUDA device", NULL, 0, 0, NULL, NULL},
};

static const nvtxPayloadEnum_t ops[] = {{"Sum", 0, 0}, {"Max", 2, 0}};

/* CUPTI's record of a range start or end, delivered to the tracer. */
static void deliver_at(uint64_t ts, uint32_t id, bool start, const char *name, uint32_t tid)
{
    CUpti_ActivityMarker2 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = start ? CUPTI_ACTIVITY_FLAG_MARKER_START : CUPTI_ACTIVITY_FLAG_MARKER_END;
    m.timestamp = ts;
    m.id = id;
    m.objectKind = tid ? CUPTI_ACTIVITY_OBJECT_THREAD : CUPTI_ACTIVITY_OBJECT_UNKNOWN;
    m.objectId.pt.threadId = tid;
    m.name = start ? name : NULL;
    m.domain = start ? "NCCL" : NULL;
    sb_t s = {0};
    pthread_mutex_lock(&g.mu);
    marker_record(&s, &m);
    write_all(s.p, s.len);
    pthread_mutex_unlock(&g.mu);
    free(s.p);
}

static void deliver(uint32_t id, bool start, const char *name, uint32_t tid)
{
    deliver_at(now_ns(), id, start, name, tid);
}

static void push_ext(nvtxDomainHandle_t d, nvtxStringHandle_t name, const nvtxPayloadData_t *pd)
{
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = name;
    a.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    a.reserved0 = 1;
    a.payload.ullValue = (uint64_t)(uintptr_t)pd;
    w_dpush_ex(d, &a);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cupti_mode_sim OUT.json\n");
        return 2;
    }
    if (sim_open_trace(argv[1]) != 0)
        return 1;
    g.quiet = true;
    g.marker_on = true;   /* as on a GPU: CUPTI records markers ... */
    nv.cupti_nvtx = true; /* ... and took NVTX */
    orig.dpush_ex = fake_cupti_dpush;
    orig.dpop = fake_cupti_dpop;
    orig.dcreate = fake_cupti_dcreate;
    orig.dreg_str = fake_cupti_dreg;

    nvtxDomainHandle_t d = w_dcreate("NCCL");
    nvtxPayloadEnumAttr_t ea = {
        NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES |
            NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE | NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID,
        NULL,
        ops,
        2,
        sizeof(int),
        (uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 24,
        NULL};
    w_enum_reg(d, &ea);
    nvtxPayloadSchemaAttr_t sa = {
        NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
            NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
            NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID,
        NULL,
        NVTX_PAYLOAD_SCHEMA_TYPE_STATIC,
        0,
        ar_schema,
        3,
        sizeof(ar_params),
        0,
        (uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 5,
        NULL};
    w_schema_reg(d, &sa);
    sa.entries = init_schema;
    sa.numEntries = 4;
    sa.payloadStaticSize = sizeof(init_params);
    sa.schemaId = NVTX_PAYLOAD_SCHEMA_ID_STATIC_START;
    w_schema_reg(d, &sa);
    nvtxStringHandle_t s_ar = w_dreg_str(d, "ncclAllReduce");
    nvtxStringHandle_t s_init = w_dreg_str(d, "ncclCommInitRank");
    uint32_t tid = self_tid();

    /* 1 */
    ar_params p1 = {7, 1048576, 0};
    nvtxPayloadData_t d1 = {(uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 5, sizeof p1, &p1};
    push_ext(d, s_ar, &d1);
    deliver(1, true, "ncclAllReduce", tid);
    CUpti_ActivityMarkerData2 md;
    memset(&md, 0, sizeof md);
    md.kind = CUPTI_ACTIVITY_KIND_MARKER_DATA;
    md.id = 1;
    md.payloadKind = CUPTI_METRIC_VALUE_KIND_NVTX_EXTENDED_PAYLOAD;
    pthread_mutex_lock(&g.mu);
    marker_data_record(&md);
    pthread_mutex_unlock(&g.mu);
    w_dpop(d);
    deliver(1, false, NULL, tid);
    /* 2: START lost */
    ar_params p2 = {7, 4096, 0};
    nvtxPayloadData_t d2 = {(uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 5, sizeof p2, &p2};
    push_ext(d, s_ar, &d2);
    w_dpop(d);
    deliver(2, false, NULL, tid);
    /* 3 */
    nvtxEventAttributes_t plain;
    memset(&plain, 0, sizeof plain);
    plain.version = NVTX_VERSION;
    plain.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    plain.messageType = NVTX_MESSAGE_TYPE_ASCII;
    plain.message.ascii = "other";
    w_dpush_ex(d, &plain);
    deliver(3, true, "other", tid);
    w_dpop(d);
    deliver(3, false, NULL, tid);
    /* 4 */
    ar_params p4 = {7, 65536, 2};
    nvtxPayloadData_t d4 = {(uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 5, sizeof p4, &p4};
    push_ext(d, s_ar, &d4);
    deliver(4, true, "ncclAllReduce", tid);
    w_dpop(d);
    deliver(4, false, NULL, tid);
    /* 5 */
    nvtxEventAttributes_t bare = plain;
    bare.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    bare.message.registered = s_init;
    w_dpush_ex(d, &bare);
    deliver(5, true, "ncclCommInitRank", tid);
    init_params p5 = {7, 8, 2, 2};
    nvtxPayloadData_t d5 = {(uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START, sizeof p5, &p5};
    w_pop_pl(d, &d5, 1);
    deliver(5, false, NULL, 0);
    /* 6 */
    enum { N6 = 20000 };
    static uint64_t t6[N6][2];
    for (int i = 0; i < N6; i++) {
        ar_params p6 = {7, (size_t)i + 100001, 0};
        nvtxPayloadData_t d6 = {(uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 5, sizeof p6, &p6};
        push_ext(d, s_ar, &d6);
        t6[i][0] = now_ns(); /* CUPTI stamps the start inside its handler */
        w_dpop(d);
        t6[i][1] = now_ns();
    }
    for (int i = 0; i < N6; i++) {
        deliver_at(t6[i][0], 100 + (uint32_t)i, true, "ncclAllReduce", tid);
        deliver_at(t6[i][1], 100 + (uint32_t)i, false, NULL, tid);
    }

    finish();
    return 0;
}
