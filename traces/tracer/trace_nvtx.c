/* SPDX-License-Identifier: MIT */
/*
 * NVTX: our wrappers around CUPTI's NVTX handlers, the guards of guard
 * mode, and NVTX's entry points InitializeInjectionNvtx2 and
 * InitializeInjectionNvtxExtension.
 *
 * NVTX hands a tool tables of function slots (nvtxDetail/nvtxTypes.h): the
 * core modules through InitializeInjectionNvtx2, extension modules such as
 * the payload extension through InitializeInjectionNvtxExtension. CUPTI
 * fills the core slots; we then put our wrappers in the slots we need and
 * call CUPTI's handler from them, so CUPTI records as before. The wrappers:
 * - decode NVTX extended payloads (NVTX_PAYLOAD_TYPE_EXT in the event
 *   attributes, or nvtxRangePopPayload) with the schemas the program
 *   registered (nvtx_payload.h), and queue the fields for the CUPTI marker
 *   record of the same range (pend_claim);
 * - where CUPTI records no markers (no GPU, CUPTI refused), record every
 *   range, mark and payload themselves: the "own path".
 * Anything unexpected is skipped and counted, and the program's call always
 * reaches CUPTI's handler unchanged.
 */
#include "tracer.h"

typedef int (*fn_push_ex)(const nvtxEventAttributes_t *);
typedef int (*fn_push_a)(const char *);
typedef int (*fn_pop)(void);
typedef nvtxRangeId_t (*fn_start_ex)(const nvtxEventAttributes_t *);
typedef nvtxRangeId_t (*fn_start_a)(const char *);
typedef void (*fn_end)(nvtxRangeId_t);
typedef void (*fn_mark_ex)(const nvtxEventAttributes_t *);
typedef void (*fn_mark_a)(const char *);
typedef void (*fn_dmark_ex)(nvtxDomainHandle_t, const nvtxEventAttributes_t *);
typedef nvtxRangeId_t (*fn_dstart_ex)(nvtxDomainHandle_t, const nvtxEventAttributes_t *);
typedef void (*fn_dend)(nvtxDomainHandle_t, nvtxRangeId_t);
typedef int (*fn_dpush_ex)(nvtxDomainHandle_t, const nvtxEventAttributes_t *);
typedef int (*fn_dpop)(nvtxDomainHandle_t);
typedef nvtxStringHandle_t (*fn_dreg_str)(nvtxDomainHandle_t, const char *);
typedef nvtxDomainHandle_t (*fn_dcreate)(const char *);
typedef uint64_t (*fn_schema_reg)(nvtxDomainHandle_t, const nvtxPayloadSchemaAttr_t *);
typedef uint64_t (*fn_enum_reg)(nvtxDomainHandle_t, const nvtxPayloadEnumAttr_t *);
typedef int (*fn_range_pl)(nvtxDomainHandle_t, const nvtxPayloadData_t *, size_t);

/* CUPTI's handlers (NULL where CUPTI has none: then we alone handle it). */
static struct {
    fn_push_ex push_ex;
    fn_push_a push_a;
    fn_pop pop;
    fn_start_ex start_ex;
    fn_start_a start_a;
    fn_end end;
    fn_mark_ex mark_ex;
    fn_mark_a mark_a;
    fn_dmark_ex dmark_ex;
    fn_dstart_ex dstart_ex;
    fn_dend dend;
    fn_dpush_ex dpush_ex;
    fn_dpop dpop;
    fn_dreg_str dreg_str;
    fn_dcreate dcreate;
} orig;

static __thread int own_depth; /* push/pop level when CUPTI keeps none */

/* Marks attributes we hand CUPTI as carrying no payload (attr_for_cupti). */
static void no_payload(nvtxEventAttributes_t *a)
{
    a->payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
    a->payload.dValue = __builtin_nan("");
    a->reserved0 = 0;
}

/* The attributes CUPTI's handlers get.
 * - An extended payload is removed: CUPTI follows its pointers itself and
 *   crashed on a bad one (seen on the H200 with tests/trace/nvtx_payload_demo.c:
 *   SIGSEGV inside libcupti's domain push handler, exit 139); it records no
 *   field of such a payload anyway, we decode it.
 * - An event with no payload gets a NaN double: CUPTI records payload kind
 *   u64 value 0 for NVTX_PAYLOAD_UNKNOWN (seen on the H200, 2026-12-01: every
 *   NCCL range read "payload":0 in guard mode), which no reader can tell from
 *   a real 0; a NaN is never written (JSON has none, range_args), so such a
 *   range has no payload in the trace, as in the program.
 * Events with a scalar payload pass through untouched. */
static const nvtxEventAttributes_t *attr_for_cupti(const nvtxEventAttributes_t *attr,
                                                   const nvtxEventAttributes_t *copy, bool ok,
                                                   nvtxEventAttributes_t *clean)
{
    if (!attr || !ok ||
        (copy->payloadType != NVTX_PAYLOAD_TYPE_EXT && copy->payloadType != NVTX_PAYLOAD_UNKNOWN))
        return attr;
    *clean = *copy;
    no_payload(clean);
    return clean;
}

/* push/start with attributes, in a domain or the default one (dom NULL) */
typedef struct {
    const void *dom;
    const nvtxEventAttributes_t *attr;
} push_ctx;

static int w_push(const void *dom, const nvtxEventAttributes_t *attr, int (*call)(push_ctx *),
                  push_ctx *ctx)
{
    nvtxEventAttributes_t a, clean;
    bool ok = read_attr(attr, &a);
    ctx->attr = attr_for_cupti(attr, &a, ok, &clean);
    bool own = own_mode();
    bool has = false, bad = false;
    char *ext = ok ? attr_ext(dom, &a, &has, &bad) : NULL;
    if (!own && has)
        pend_add(self_tid(), now_ns(), false, ext, bad, attr_message(&a));
    else if (own && ok)
        own_open(dom, true, next_own_id(), &a, NULL, ext, has, bad);
    else
        free(ext);
    int r = call ? call(ctx) : -1;
    if (!call)
        r = own_depth;
    own_depth++;
    return r;
}

static int call_push_ex(push_ctx *c)
{
    return orig.push_ex(c->attr);
}

static int call_dpush_ex(push_ctx *p)
{
    return orig.dpush_ex((nvtxDomainHandle_t)(uintptr_t)p->dom, p->attr);
}

static int NVTX_API w_push_ex(const nvtxEventAttributes_t *attr)
{
    push_ctx c = {NULL, attr};
    return w_push(NULL, attr, orig.push_ex ? call_push_ex : NULL, &c);
}

static int NVTX_API w_dpush_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    push_ctx c = {d, attr};
    return w_push(d, attr, orig.dpush_ex ? call_dpush_ex : NULL, &c);
}

static int NVTX_API w_push_a(const char *msg)
{
    if (own_mode())
        own_open(NULL, true, next_own_id(), NULL, msg, NULL, false, false);
    int r = orig.push_a ? orig.push_a(msg) : own_depth;
    own_depth++;
    return r;
}

static int pop_common(const void *dom)
{
    if (own_mode())
        own_close(dom, true, 0, NULL, false);
    if (own_depth > 0)
        own_depth--;
    return own_depth;
}

static int NVTX_API w_pop(void)
{
    int r = pop_common(NULL);
    return orig.pop ? orig.pop() : r;
}

static int NVTX_API w_dpop(nvtxDomainHandle_t d)
{
    int r = pop_common(d);
    return orig.dpop ? orig.dpop(d) : r;
}

static nvtxRangeId_t start_common(const void *dom, const nvtxEventAttributes_t *attr,
                                  const char *ascii,
                                  nvtxRangeId_t (*call)(const void *, const void *))
{
    nvtxEventAttributes_t a, clean;
    bool ok = attr ? read_attr(attr, &a) : false;
    bool own = own_mode();
    bool has = false, bad = false;
    char *ext = ok ? attr_ext(dom, &a, &has, &bad) : NULL;
    if (!own && has) {
        pend_add(self_tid(), now_ns(), false, ext, bad, attr_message(&a));
        ext = NULL;
    }
    const nvtxEventAttributes_t *to_cupti = attr_for_cupti(attr, &a, ok, &clean);
    nvtxRangeId_t id = call ? call(dom, attr ? (const void *)to_cupti : (const void *)ascii) : 0;
    if (own) {
        uint64_t oid = next_own_id();
        if (id == 0)
            id = oid;
        if (attr && ok)
            own_open(dom, false, id, &a, NULL, ext, has, bad);
        else if (!attr)
            own_open(dom, false, id, NULL, ascii, NULL, false, false);
        else
            free(ext);
    }
    return id;
}

static nvtxRangeId_t call_start_ex(const void *dom, const void *a)
{
    (void)dom;
    return orig.start_ex((const nvtxEventAttributes_t *)a);
}

static nvtxRangeId_t call_dstart_ex(const void *dom, const void *a)
{
    return orig.dstart_ex((nvtxDomainHandle_t)(uintptr_t)dom, (const nvtxEventAttributes_t *)a);
}

static nvtxRangeId_t call_start_a(const void *dom, const void *m)
{
    (void)dom;
    return orig.start_a((const char *)m);
}

static nvtxRangeId_t NVTX_API w_start_ex(const nvtxEventAttributes_t *attr)
{
    return start_common(NULL, attr, NULL, orig.start_ex ? call_start_ex : NULL);
}

static nvtxRangeId_t NVTX_API w_dstart_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    return start_common(d, attr, NULL, orig.dstart_ex ? call_dstart_ex : NULL);
}

static nvtxRangeId_t NVTX_API w_start_a(const char *msg)
{
    return start_common(NULL, NULL, msg, orig.start_a ? call_start_a : NULL);
}

static void NVTX_API w_end(nvtxRangeId_t id)
{
    if (own_mode())
        own_close(NULL, false, id, NULL, false);
    if (orig.end)
        orig.end(id);
}

static void NVTX_API w_dend(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    if (own_mode())
        own_close(d, false, id, NULL, false);
    if (orig.dend)
        orig.dend(d, id);
}

static void NVTX_API w_mark_ex(const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t a, clean;
    bool ok = read_attr(attr, &a);
    if (own_mode() && ok)
        own_mark(NULL, &a, NULL);
    if (orig.mark_ex)
        orig.mark_ex(attr_for_cupti(attr, &a, ok, &clean));
}

static void NVTX_API w_dmark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t a, clean;
    bool ok = read_attr(attr, &a);
    if (own_mode() && ok)
        own_mark(d, &a, NULL);
    if (orig.dmark_ex)
        orig.dmark_ex(d, attr_for_cupti(attr, &a, ok, &clean));
}

static void NVTX_API w_mark_a(const char *msg)
{
    if (own_mode())
        own_mark(NULL, NULL, msg);
    if (orig.mark_a)
        orig.mark_a(msg);
}

static nvtxStringHandle_t NVTX_API w_dreg_str(nvtxDomainHandle_t d, const char *str)
{
    nvtxStringHandle_t h = orig.dreg_str ? orig.dreg_str(d, str) : NULL;
    char *copy = nvp_read_str(str);
    pthread_mutex_lock(&nv.mu);
    if (!h) /* no CUPTI: a handle of our own (NVTX never dereferences it) */
        h = (nvtxStringHandle_t)(nv.next_handle += 16);
    map_put(&nv.strings, &nv.nstrings, &nv.capstrings, h, copy);
    pthread_mutex_unlock(&nv.mu);
    free(copy);
    return h;
}

static nvtxDomainHandle_t NVTX_API w_dcreate(const char *name)
{
    nvtxDomainHandle_t h = orig.dcreate ? orig.dcreate(name) : NULL;
    char *copy = nvp_read_str(name);
    pthread_mutex_lock(&nv.mu);
    if (!h)
        h = (nvtxDomainHandle_t)(nv.next_handle += 16);
    map_put(&nv.domains, &nv.ndomains, &nv.capdomains, h, copy);
    pthread_mutex_unlock(&nv.mu);
    free(copy);
    return h;
}

/* ----- the payload extension (module NVTX_EXT_PAYLOAD_MODULEID) ----- */

/* The id a schema or enum registration returns, as NVTX's contract gives
 * it: the caller's static id when given, else a fresh dynamic one. */
static uint64_t schema_id(bool given, uint64_t id)
{
    return given ? id : __atomic_fetch_add(&nv.next_schema, 1, __ATOMIC_RELAXED);
}

static uint64_t NVTX_API w_schema_reg(nvtxDomainHandle_t d, const nvtxPayloadSchemaAttr_t *attr)
{
    nvtxPayloadSchemaAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        return 0;
    pthread_mutex_lock(&nv.mu);
    uint64_t id =
        schema_id((a.fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID) != 0, a.schemaId);
    if (!nvp_register_schema(&nv.reg, d, attr, id))
        id = 0;
    pthread_mutex_unlock(&nv.mu);
    if (!id)
        note_error("an NVTX payload schema could not be read; its payloads are not decoded");
    return id;
}

static uint64_t NVTX_API w_enum_reg(nvtxDomainHandle_t d, const nvtxPayloadEnumAttr_t *attr)
{
    nvtxPayloadEnumAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        return 0;
    pthread_mutex_lock(&nv.mu);
    uint64_t id =
        schema_id((a.fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID) != 0, a.schemaId);
    if (!nvp_register_enum(&nv.reg, d, attr, id))
        id = 0;
    pthread_mutex_unlock(&nv.mu);
    if (!id)
        note_error("an NVTX payload enum could not be read; its values are not named");
    return id;
}

/* The attributes of a push that carries only a name (ascii), with no payload
 * for CUPTI: what nvtxRangePushPayload hands it. */
static void named_attr(nvtxEventAttributes_t *a, const char *ascii)
{
    memset(a, 0, sizeof *a);
    a->version = NVTX_VERSION;
    a->size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a->messageType = NVTX_MESSAGE_TYPE_ASCII;
    a->message.ascii = ascii;
    no_payload(a);
}

/* nvtxRangePushPayload: a push whose only data is the payload; named after
 * the schema (CUPTI gets a push with that name). */
static int NVTX_API w_push_pl(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t count)
{
    bool bad = false;
    char *ext = decode_ext(d, pd, count, &bad);
    char name[128] = "payload range";
    nvtxPayloadData_t first;
    if (nvp_safe_read(&first, pd, sizeof first) == sizeof first) {
        pthread_mutex_lock(&nv.mu);
        const nvp_schema *sc = nvp_find(&nv.reg, d, first.schemaId);
        if (sc && sc->name)
            snprintf(name, sizeof name, "%s", sc->name);
        pthread_mutex_unlock(&nv.mu);
    }
    nvtxEventAttributes_t a;
    named_attr(&a, name); /* no payload for CUPTI; ours is ext (decoded above) */
    if (own_mode()) {
        own_open(d, true, next_own_id(), &a, NULL, ext, true, bad);
    } else {
        pend_add(self_tid(), now_ns(), false, ext, bad, strdup(name));
    }
    int r = orig.dpush_ex ? orig.dpush_ex(d, &a) : own_depth;
    own_depth++;
    return r;
}

/* nvtxRangePopPayload: NCCL's ncclCommInit* ranges get their payload here
 * (NVTX3_RANGE_ADD_PAYLOAD). CUPTI is handed a plain pop, so the range closes
 * (without this it stayed open: h200-1/torch_demo.json, ncclCommInitRankConfig). */
static int NVTX_API w_pop_pl(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t count)
{
    bool bad = false;
    char *ext = decode_ext(d, pd, count, &bad);
    if (own_mode())
        own_close(d, true, 0, ext, bad);
    else
        pend_add(self_tid(), now_ns(), true, ext, bad, NULL);
    if (own_depth > 0)
        own_depth--;
    return orig.dpop ? orig.dpop(d) : own_depth;
}

/* ----- installing the wrappers ----- */

typedef int (*nvtx_init_fn)(NvtxGetExportTableFunc_t);

typedef struct {
    NvtxCallbackModule module;
    unsigned cbid;
    NvtxFunctionPointer wrapper;
    void *orig_slot; /* where CUPTI's handler is kept (a function pointer) */
} wrap_t;

#define FP(f) ((NvtxFunctionPointer)(void (*)(void))(f))

/* Reads every slot of the core modules (before the tool fills them). */
typedef struct {
    NvtxFunctionTable table[NVTX_CB_MODULE_SIZE];
    unsigned size[NVTX_CB_MODULE_SIZE];
    NvtxFunctionPointer before[NVTX_CB_MODULE_SIZE][32];
} tables_t;

static bool get_tables(NvtxGetExportTableFunc_t get, tables_t *t)
{
    memset(t, 0, sizeof *t);
    const NvtxExportTableCallbacks *cb = get ? get(NVTX_ETID_CALLBACKS) : NULL;
    if (!cb || cb->struct_size < sizeof *cb || !cb->GetModuleFunctionTable)
        return false;
    for (unsigned m = NVTX_CB_MODULE_CORE; m < NVTX_CB_MODULE_SIZE; m++) {
        NvtxFunctionTable tab = NULL;
        unsigned size = 0;
        if (!cb->GetModuleFunctionTable((NvtxCallbackModule)m, &tab, &size) || !tab)
            continue;
        if (size > 32)
            size = 32;
        t->table[m] = tab;
        t->size[m] = size;
        for (unsigned i = 1; i < size; i++)
            t->before[m][i] = tab[i] ? *tab[i] : NULL;
    }
    return t->table[NVTX_CB_MODULE_CORE] && t->table[NVTX_CB_MODULE_CORE2];
}

/* ----- guard mode (COMMROOF_TRACE_NVTX_WRAP=0) -----
 * No payload decoding and no own path: CUPTI records NVTX alone, as before
 * the wrappers existed. But CUPTI follows an extended payload's pointers and
 * crashed on a bad one (SIGSEGV inside libcupti, tests/trace/nvtx_payload_demo.c
 * on the H200), and the tracer must never make the traced program fail; so
 * the slots that take event attributes still get a thin guard that hands
 * CUPTI the attributes without the extended payload (attr_for_cupti), and
 * the payload extension is still taken, so that a pop with a payload
 * (NCCL's ncclCommInit* ranges) reaches CUPTI as a plain pop and its range
 * closes. Guards are installed only over CUPTI's own handlers. */

/* What a guard hands CUPTI: attr_for_cupti of the caller's attributes
 * (attr itself, or clean). */
static const nvtxEventAttributes_t *guarded(const nvtxEventAttributes_t *attr,
                                            nvtxEventAttributes_t *clean)
{
    nvtxEventAttributes_t a;
    bool ok = read_attr(attr, &a);
    return attr_for_cupti(attr, &a, ok, clean);
}

static int NVTX_API gd_push_ex(const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    return orig.push_ex(guarded(attr, &clean));
}

static int NVTX_API gd_dpush_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    return orig.dpush_ex(d, guarded(attr, &clean));
}

static nvtxRangeId_t NVTX_API gd_start_ex(const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    return orig.start_ex(guarded(attr, &clean));
}

static nvtxRangeId_t NVTX_API gd_dstart_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    return orig.dstart_ex(d, guarded(attr, &clean));
}

static void NVTX_API gd_mark_ex(const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    orig.mark_ex(guarded(attr, &clean));
}

static void NVTX_API gd_dmark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    orig.dmark_ex(d, guarded(attr, &clean));
}

/* Schema and enum ids as NVTX's contract gives them (the caller's static id,
 * or a fresh dynamic one); nothing is registered, nothing decoded. */
static uint64_t NVTX_API gd_schema_reg(nvtxDomainHandle_t d, const nvtxPayloadSchemaAttr_t *attr)
{
    (void)d;
    nvtxPayloadSchemaAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        return 0;
    return schema_id((a.fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID) != 0, a.schemaId);
}

static uint64_t NVTX_API gd_enum_reg(nvtxDomainHandle_t d, const nvtxPayloadEnumAttr_t *attr)
{
    (void)d;
    nvtxPayloadEnumAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        return 0;
    return schema_id((a.fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID) != 0, a.schemaId);
}

/* nvtxRangePushPayload: a plain push named "payload range" (the payload is
 * not read). */
static int NVTX_API gd_push_pl(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t count)
{
    (void)pd;
    (void)count;
    nvtxEventAttributes_t a;
    named_attr(&a, "payload range");
    return orig.dpush_ex ? orig.dpush_ex(d, &a) : 0;
}

/* nvtxRangePopPayload: a plain pop, so the range closes. */
static int NVTX_API gd_pop_pl(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t count)
{
    (void)pd;
    (void)count;
    return orig.dpop ? orig.dpop(d) : 0;
}

/* Puts the wrappers (or, in guard mode, the guards) into NVTX's slots
 * around CUPTI's handlers. init is CUPTI's InitializeInjectionNvtx2 (NULL
 * when there is none): it fills the slots first. Returns what NVTX gets
 * back from InitializeInjectionNvtx2. Separate from it so that
 * tests/trace/nvtx_guard_sim.c can run it with a stand-in NVTX and CUPTI. */
static int nvtx_take_over(NvtxGetExportTableFunc_t get, nvtx_init_fn init)
{
    bool guard = nvtx_guard_only();
    tables_t t;
    bool tables = get_tables(get, &t);
    if (!tables)
        note_error("NVTX export tables unreadable; NVTX payloads are not decoded%s",
                   guard ? " and CUPTI sees them unguarded" : "");
    int r = init ? init(get) : 0;
    if (!init)
        note_error("libcupti has no InitializeInjectionNvtx2; NVTX ranges are recorded without "
                   "CUPTI");
    else if (!r)
        note_error("CUPTI's NVTX initialisation failed; NVTX ranges are recorded without CUPTI");
    if (!tables || (guard && !r))
        return r; /* guard mode without CUPTI: there is nothing to guard */
    pthread_mutex_lock(&nv.mu);
    if (r && !guard)
        nv.cupti_nvtx = true;
    /* wrapper NULL: CUPTI's handler stays in the slot; we only keep it (for
     * the payload extension's push and pop) */
    const wrap_t full[] = {
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, FP(w_push_ex), &orig.push_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushA, FP(w_push_a), &orig.push_a},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePop, FP(w_pop), &orig.pop},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartEx, FP(w_start_ex), &orig.start_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartA, FP(w_start_a), &orig.start_a},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeEnd, FP(w_end), &orig.end},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_MarkEx, FP(w_mark_ex), &orig.mark_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_MarkA, FP(w_mark_a), &orig.mark_a},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainMarkEx, FP(w_dmark_ex), &orig.dmark_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeStartEx, FP(w_dstart_ex),
         &orig.dstart_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeEnd, FP(w_dend), &orig.dend},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, FP(w_dpush_ex), &orig.dpush_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, FP(w_dpop), &orig.dpop},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRegisterStringA, FP(w_dreg_str),
         &orig.dreg_str},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainCreateA, FP(w_dcreate), &orig.dcreate},
    };
    const wrap_t guards[] = {
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, FP(gd_push_ex), &orig.push_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartEx, FP(gd_start_ex), &orig.start_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_MarkEx, FP(gd_mark_ex), &orig.mark_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainMarkEx, FP(gd_dmark_ex), &orig.dmark_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeStartEx, FP(gd_dstart_ex),
         &orig.dstart_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, FP(gd_dpush_ex), &orig.dpush_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, NULL, &orig.dpop},
    };
    const wrap_t *wraps = guard ? guards : full;
    size_t nwraps = guard ? sizeof guards / sizeof guards[0] : sizeof full / sizeof full[0];
    for (size_t i = 0; i < nwraps; i++) {
        const wrap_t *w = &wraps[i];
        if (w->cbid >= t.size[w->module] || !t.table[w->module][w->cbid])
            continue;
        NvtxFunctionPointer *slot = t.table[w->module][w->cbid];
        NvtxFunctionPointer now = *slot;
        /* CUPTI's handler is what it put there; an untouched slot still
         * holds NVTX's own initialiser, which must never be called again. */
        NvtxFunctionPointer cupti = (r && now != t.before[w->module][w->cbid]) ? now : NULL;
        NvtxFunctionPointer kept;
        memcpy(&kept, w->orig_slot, sizeof kept);
        if (kept && cupti && kept != cupti) {
            /* another NVTX copy, another handler: leave CUPTI's in place */
            note_error("NVTX handlers differ between NVTX copies; some ranges are recorded by "
                       "CUPTI alone%s",
                       guard ? " and unguarded" : "");
            continue;
        }
        if (guard && !cupti)
            continue; /* a guard calls CUPTI's handler: only over one */
        if (cupti)
            memcpy(w->orig_slot, &cupti, sizeof cupti);
        else if (kept && r)
            continue; /* CUPTI handles it elsewhere but not here: leave as is */
        if (w->wrapper)
            *slot = w->wrapper;
    }
    if (!r) {
        /* CUPTI failed: undo whatever else it put in the slots. */
        for (unsigned m = NVTX_CB_MODULE_CORE; m < NVTX_CB_MODULE_SIZE; m++)
            for (unsigned i = 1; i < t.size[m]; i++) {
                if (!t.table[m] || !t.table[m][i])
                    continue;
                bool ours = false;
                for (size_t k = 0; k < nwraps; k++)
                    ours = ours || (wraps[k].module == m && wraps[k].cbid == i);
                if (!ours)
                    *t.table[m][i] = t.before[m][i];
            }
    }
    pthread_mutex_unlock(&nv.mu);
    return guard ? r : 1;
}

/* Called by NVTX (NVTX_INJECTION64_PATH) in every NVTX copy in the process
 * (the program's, PyTorch's, NCCL's). CUPTI implements NVTX recording; we
 * hand NVTX to the libcupti this library is bound to, so that one CUPTI
 * instance sees both activity and markers (a second libcupti would lose
 * every marker: seen on the H200, traces/README.md). Activity is enabled
 * here too, so ranges opened before the first CUDA call are recorded. Then
 * our wrappers (or guards) go into the slots (nvtx_take_over). */
EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get);
EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
    g.nvtx_started = true;
    if (env_bool("COMMROOF_TRACE_EARLY_NVTX", true))
        setup_once();
    Dl_info info;
    memset(&info, 0, sizeof info);
    nvtx_init_fn fwd = NULL;
    void *self_sym;
    CUptiResult (*enable)(CUpti_ActivityKind) = cuptiActivityEnable;
    memcpy(&self_sym, &enable, sizeof self_sym);
    if (dladdr(self_sym, &info) && info.dli_fname) {
        void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (h)
            LOAD_SYM(fwd, h, "InitializeInjectionNvtx2");
    }
    if (!fwd) {
        void *h = dlopen("libcupti.so.13", RTLD_LAZY | RTLD_NOLOAD);
        if (h)
            LOAD_SYM(fwd, h, "InitializeInjectionNvtx2");
    }
    if (fwd == InitializeInjectionNvtx2)
        fwd = NULL;
    return nvtx_take_over(get, fwd);
}

/* Called by NVTX's extension loader (nvtxDetail/nvtxExtInit.h) for each
 * extension module a program uses. The payload extension is ours: schema and
 * enum registration, push and pop with a payload (guard mode: the gd_
 * versions, which decode nothing). Other modules (counters, memory, ...) are
 * declined, as before this library exported the function; CUPTI's
 * InitializeInjectionNvtxExtension is not called (CUPTI does not decode
 * payloads, and how it behaves there is not verified on a GPU). */
EXPORT int InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *info);
EXPORT int InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *info)
{
    if (!info || info->moduleId != NVTX_EXT_PAYLOAD_MODULEID || info->segmentsCount < 1 ||
        !info->segments)
        return 0;
    nvtxExtModuleSegment_t *seg = &info->segments[0];
    if (!seg->functionSlots || seg->slotCount <= NVTX3EXT_CBID_nvtxRangePopPayload)
        return 0;
    bool guard = nvtx_guard_only();
    seg->functionSlots[NVTX3EXT_CBID_nvtxPayloadSchemaRegister] =
        guard ? (intptr_t)gd_schema_reg : (intptr_t)w_schema_reg;
    seg->functionSlots[NVTX3EXT_CBID_nvtxPayloadEnumRegister] =
        guard ? (intptr_t)gd_enum_reg : (intptr_t)w_enum_reg;
    seg->functionSlots[NVTX3EXT_CBID_nvtxRangePushPayload] =
        guard ? (intptr_t)gd_push_pl : (intptr_t)w_push_pl;
    seg->functionSlots[NVTX3EXT_CBID_nvtxRangePopPayload] =
        guard ? (intptr_t)gd_pop_pl : (intptr_t)w_pop_pl;
    return 1;
}
