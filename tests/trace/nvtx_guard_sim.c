/* SPDX-License-Identifier: MIT */
/*
 * Checks, on a CPU machine, that CUPTI's NVTX handlers never see an NVTX
 * extended payload once the tracer has taken NVTX over, with the payload
 * wrappers (default) and in guard mode (COMMROOF_TRACE_NVTX_WRAP=0). On the
 * H200, CUPTI followed a bad extended-payload pointer and crashed the traced
 * program (SIGSEGV inside libcupti, traces/README.md); the tracer must never
 * make the traced program fail.
 *
 * A stand-in NVTX (function tables as NVTX's GetModuleFunctionTable hands
 * them out, nvtxDetail/nvtxImpl.h) and a stand-in CUPTI (its
 * InitializeInjectionNvtx2 fills the slots with handlers that, like the real
 * one, read an extended payload's nvtxPayloadData_t) are given to the
 * tracer's nvtx_take_over(). Then every attribute-taking NVTX call is made
 * through the slots with a wild payload pointer (0x10: reading it faults),
 * and a pop with a payload goes through the payload extension's slot.
 *
 * Expected (by construction): every call reaches the stand-in CUPTI handler
 * (6 attribute calls with the wild payload, one with a u64 payload, passed
 * by the caller's own pointer, one with none, and the pops); no handler sees
 * payloadType NVTX_PAYLOAD_TYPE_EXT, nor NVTX_PAYLOAD_UNKNOWN (CUPTI records
 * that as a u64 payload 0): the 7 without a usable payload carry the NaN
 * no-payload mark; the pop with a payload reaches CUPTI's pop handler as a
 * plain pop. A fault ends the program with SIGSEGV, which
 * tests/check_trace.sh reports.
 *
 * Usage: nvtx_guard_sim   (mode from COMMROOF_TRACE_NVTX_WRAP)
 */
#include "tracer_src.h"

static int calls, ext_seen, unknown_seen, nan_seen, pops, same_ptr;
static const nvtxEventAttributes_t *plain_attr;

/* What CUPTI does with an extended payload: reads the nvtxPayloadData_t. */
static void cupti_reads(const nvtxEventAttributes_t *a)
{
    calls++;
    if (a == plain_attr)
        same_ptr++;
    if (a->payloadType == NVTX_PAYLOAD_UNKNOWN)
        unknown_seen++; /* CUPTI would record it as payload u64 0 */
    if (a->payloadType == NVTX_PAYLOAD_TYPE_DOUBLE && a->payload.dValue != a->payload.dValue)
        nan_seen++;
    if (a->payloadType == NVTX_PAYLOAD_TYPE_EXT) {
        ext_seen++;
        const volatile nvtxPayloadData_t *pd =
            (const volatile nvtxPayloadData_t *)(uintptr_t)a->payload.ullValue;
        (void)pd->schemaId; /* faults on the wild pointer, as libcupti did */
    }
}

static int NVTX_API fake_cupti_push(const nvtxEventAttributes_t *a)
{
    cupti_reads(a);
    return 0;
}
static nvtxRangeId_t NVTX_API fake_cupti_start(const nvtxEventAttributes_t *a)
{
    cupti_reads(a);
    return 1;
}
static void NVTX_API fake_cupti_mark(const nvtxEventAttributes_t *a)
{
    cupti_reads(a);
}
static int NVTX_API fake_cupti_dpush(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    (void)d;
    cupti_reads(a);
    return 0;
}
static nvtxRangeId_t NVTX_API fake_cupti_dstart(nvtxDomainHandle_t d,
                                                const nvtxEventAttributes_t *a)
{
    (void)d;
    cupti_reads(a);
    return 1;
}
static void NVTX_API fake_cupti_dmark(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    (void)d;
    cupti_reads(a);
}
static int NVTX_API fake_cupti_dpop(nvtxDomainHandle_t d)
{
    (void)d;
    pops++;
    return 0;
}
static int NVTX_API fake_cupti_pop(void)
{
    pops++;
    return 0;
}

/* NVTX's slots before a tool fills them hold its initialiser. */
static void NVTX_API nvtx_initialiser(void)
{
}

static NvtxFunctionPointer core_fn[NVTX_CBID_CORE_SIZE];
static NvtxFunctionPointer core2_fn[NVTX_CBID_CORE2_SIZE];
static NvtxFunctionPointer *core_tab[NVTX_CBID_CORE_SIZE + 1];
static NvtxFunctionPointer *core2_tab[NVTX_CBID_CORE2_SIZE + 1];

static int NVTX_API fake_get_table(NvtxCallbackModule m, NvtxFunctionTable *out, unsigned *size)
{
    if (m == NVTX_CB_MODULE_CORE) {
        *out = core_tab;
        *size = NVTX_CBID_CORE_SIZE;
    } else if (m == NVTX_CB_MODULE_CORE2) {
        *out = core2_tab;
        *size = NVTX_CBID_CORE2_SIZE;
    } else {
        return 0;
    }
    return 1;
}

static const NvtxExportTableCallbacks fake_callbacks = {sizeof(NvtxExportTableCallbacks),
                                                        fake_get_table};

static const void *NVTX_API fake_get(uint32_t id)
{
    return id == NVTX_ETID_CALLBACKS ? &fake_callbacks : NULL;
}

static int fake_cupti_init(NvtxGetExportTableFunc_t get)
{
    (void)get;
    core_fn[NVTX_CBID_CORE_RangePushEx] = FP(fake_cupti_push);
    core_fn[NVTX_CBID_CORE_RangePop] = FP(fake_cupti_pop);
    core_fn[NVTX_CBID_CORE_RangeStartEx] = FP(fake_cupti_start);
    core_fn[NVTX_CBID_CORE_MarkEx] = FP(fake_cupti_mark);
    core2_fn[NVTX_CBID_CORE2_DomainRangePushEx] = FP(fake_cupti_dpush);
    core2_fn[NVTX_CBID_CORE2_DomainRangePop] = FP(fake_cupti_dpop);
    core2_fn[NVTX_CBID_CORE2_DomainRangeStartEx] = FP(fake_cupti_dstart);
    core2_fn[NVTX_CBID_CORE2_DomainMarkEx] = FP(fake_cupti_dmark);
    return 1;
}

/* A slot's function, typed (as NVTX's inline functions call it). */
#define SLOT(tab, cbid, type) ((type)(void (*)(void))(tab)[cbid])

int main(void)
{
    for (unsigned i = 1; i < NVTX_CBID_CORE_SIZE; i++) {
        core_fn[i] = FP(nvtx_initialiser);
        core_tab[i] = &core_fn[i];
    }
    for (unsigned i = 1; i < NVTX_CBID_CORE2_SIZE; i++) {
        core2_fn[i] = FP(nvtx_initialiser);
        core2_tab[i] = &core2_fn[i];
    }
    g.quiet = true;
    if (nvtx_take_over(fake_get, fake_cupti_init) == 0) {
        fprintf(stderr, "nvtx_guard_sim: nvtx_take_over refused\n");
        return 1;
    }
    bool guard = nvtx_guard_only();

    nvtxEventAttributes_t wild;
    memset(&wild, 0, sizeof wild);
    wild.version = NVTX_VERSION;
    wild.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    wild.messageType = NVTX_MESSAGE_TYPE_ASCII;
    wild.message.ascii = "wild";
    wild.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    wild.reserved0 = 1;
    wild.payload.ullValue = 0x10; /* no nvtxPayloadData_t lives there */
    nvtxEventAttributes_t plain = wild;
    plain.message.ascii = "plain";
    plain.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    plain.payload.ullValue = 42;
    plain_attr = &plain;
    nvtxDomainHandle_t dom = (nvtxDomainHandle_t)(uintptr_t)0x5000;

    SLOT(core_fn, NVTX_CBID_CORE_RangePushEx, fn_push_ex)(&wild);
    SLOT(core_fn, NVTX_CBID_CORE_RangePop, fn_pop)();
    SLOT(core_fn, NVTX_CBID_CORE_RangeStartEx, fn_start_ex)(&wild);
    SLOT(core_fn, NVTX_CBID_CORE_MarkEx, fn_mark_ex)(&wild);
    SLOT(core2_fn, NVTX_CBID_CORE2_DomainRangePushEx, fn_dpush_ex)(dom, &wild);
    SLOT(core2_fn, NVTX_CBID_CORE2_DomainRangeStartEx, fn_dstart_ex)(dom, &wild);
    SLOT(core2_fn, NVTX_CBID_CORE2_DomainMarkEx, fn_dmark_ex)(dom, &wild);
    SLOT(core2_fn, NVTX_CBID_CORE2_DomainRangePushEx, fn_dpush_ex)(dom, &plain);
    nvtxEventAttributes_t bare = plain; /* a colour, no payload */
    bare.message.ascii = "bare";
    bare.payloadType = NVTX_PAYLOAD_UNKNOWN;
    bare.payload.ullValue = 0;
    bare.colorType = NVTX_COLOR_ARGB;
    bare.color = 0xff00ff00u;
    SLOT(core2_fn, NVTX_CBID_CORE2_DomainRangePushEx, fn_dpush_ex)(dom, &bare);

    /* the payload extension: a pop with a (wild) payload */
    intptr_t ext_slots[NVTX3EXT_CBID_nvtxRangePopPayload + 1];
    memset(ext_slots, 0, sizeof ext_slots);
    nvtxExtModuleSegment_t seg = {0, NVTX3EXT_CBID_nvtxRangePopPayload + 1, ext_slots};
    nvtxExtModuleInfo_t info;
    memset(&info, 0, sizeof info);
    info.moduleId = NVTX_EXT_PAYLOAD_MODULEID;
    info.segmentsCount = 1;
    info.segments = &seg;
    if (!InitializeInjectionNvtxExtension(&info) || !ext_slots[NVTX3EXT_CBID_nvtxRangePopPayload]) {
        fprintf(stderr, "nvtx_guard_sim: the payload extension was declined\n");
        return 1;
    }
    fn_range_pl pop_pl;
    intptr_t raw = ext_slots[NVTX3EXT_CBID_nvtxRangePopPayload];
    memcpy(&pop_pl, &raw, sizeof pop_pl);
    pop_pl(dom, (const nvtxPayloadData_t *)(uintptr_t)0x10, 1);

    int fails = 0;
    if (calls != 8) {
        fprintf(stderr, "nvtx_guard_sim: %d calls reached CUPTI's handlers, expected 8\n", calls);
        fails++;
    }
    if (unknown_seen != 0 || nan_seen != 7) {
        fprintf(stderr,
                "nvtx_guard_sim: %d events reached CUPTI with payload type unknown (expected "
                "0), %d with the NaN no-payload mark (expected 7: 6 stripped, 1 bare)\n",
                unknown_seen, nan_seen);
        fails++;
    }
    if (ext_seen != 0) {
        fprintf(stderr, "nvtx_guard_sim: CUPTI saw %d extended payloads, expected 0\n", ext_seen);
        fails++;
    }
    if (same_ptr != 1) {
        fprintf(stderr, "nvtx_guard_sim: the plain event reached CUPTI as a copy\n");
        fails++;
    }
    if (pops != 2) {
        fprintf(stderr,
                "nvtx_guard_sim: %d pops reached CUPTI, expected 2 (a plain one and "
                "the pop with a payload)\n",
                pops);
        fails++;
    }
    if (fails)
        return 1;
    printf("nvtx_guard_sim: %s mode: 8 calls, 2 pops reached CUPTI, no extended payload, no "
           "unknown payload\n",
           guard ? "guard" : "wrapper");
    return 0;
}
