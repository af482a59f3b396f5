/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the tracer's NVTX extended-payload decoder
 * (traces/tracer/nvtx_payload.h), which reads schemas and payloads a traced
 * program hands to NVTX. tests/fuzz/build.sh builds it where CUDA's NVTX
 * headers are; `tests/fuzz/build.sh run nvtx_payload` fuzzes it.
 * fuzz-cflags: -I/usr/local/cuda/include
 * fuzz-needs: /usr/local/cuda/include/nvtx3/nvToolsExtPayload.h
 * fuzz-max-len: 4096
 *
 * The input describes a schema and a payload: byte 0 the entry count
 * (1..16), then 4 bytes per entry (type selector, flags selector, offset,
 * array length), one byte of flags for the payload item (static size given,
 * size SIZE_MAX, NULL data, a wild data pointer), and the rest is the payload
 * blob. The types include NCCL's: integers, size_t, the reduction-op enum,
 * a nested schema, C strings (whose pointers come from the blob, so they
 * point anywhere) and types the decoder does not know.
 *
 * Properties: decoding never crashes, leaks or reads outside the blob except
 * through its checked reads; what it writes, in braces, is a JSON object;
 * the undecoded count never exceeds the payload count.
 */
#define _GNU_SOURCE /* process_vm_readv, before any system header */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "traces/tracer/nvtx_payload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SID(n) ((uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + (n))

static const uint64_t types[] = {
    NVTX_PAYLOAD_ENTRY_TYPE_UINT64,
    NVTX_PAYLOAD_ENTRY_TYPE_SIZE,
    NVTX_PAYLOAD_ENTRY_TYPE_INT,
    NVTX_PAYLOAD_ENTRY_TYPE_INT8,
    NVTX_PAYLOAD_ENTRY_TYPE_UINT16,
    NVTX_PAYLOAD_ENTRY_TYPE_FLOAT,
    NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE,
    NVTX_PAYLOAD_ENTRY_TYPE_ADDRESS,
    NVTX_PAYLOAD_ENTRY_TYPE_CSTRING,
    NVTX_PAYLOAD_ENTRY_TYPE_CHAR,
    NVTX_PAYLOAD_ENTRY_TYPE_LONGDOUBLE,
    NVTX_PAYLOAD_ENTRY_TYPE_COLOR_ARGB,
    SID(24), /* the reduction-op enum */
    SID(1),  /* a nested static schema */
    SID(2),  /* the fuzzed schema itself (recursion) */
    SID(77), /* unregistered */
    999,     /* unknown type */
};

static const uint64_t flag_sets[] = {
    0,
    NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_FIXED_SIZE,
    NVTX_PAYLOAD_ENTRY_FLAG_POINTER,
    NVTX_PAYLOAD_ENTRY_FLAG_HIDE,
    NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_ZERO_TERMINATED,
    NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_FIXED_SIZE | NVTX_PAYLOAD_ENTRY_FLAG_POINTER,
};

static const char *const names[] = {"a", "Message size [bytes]", NULL, "b\"\\\x01", "c"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t n = (size_t)(data[0] % 16) + 1;
    if (size < 2 + 4 * n)
        return 0;
    nvtxPayloadSchemaEntry_t e[16];
    memset(e, 0, sizeof e);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = data + 1 + 4 * i;
        e[i].type = types[p[0] % (sizeof types / sizeof types[0])];
        e[i].flags = flag_sets[p[1] % (sizeof flag_sets / sizeof flag_sets[0])];
        e[i].offset = p[2];
        e[i].arrayOrUnionDetail = p[3];
        e[i].name = names[i % (sizeof names / sizeof names[0])];
    }
    uint8_t pf = data[1 + 4 * n];
    const uint8_t *blob = data + 2 + 4 * n;
    size_t blob_len = size - 2 - 4 * n;

    nvp_registry reg = {0};
    static const nvtxPayloadEnum_t ops[] = {{"Sum", 0, 0}, {"Max", 2, 0}, {"Bit", 4, 1}};
    nvtxPayloadEnumAttr_t ea = {NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES |
                                    NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES |
                                    NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE,
                                NULL,
                                ops,
                                3,
                                (size_t)1 << (pf & 3),
                                0,
                                NULL};
    nvp_register_enum(&reg, NULL, &ea, SID(24));
    static const nvtxPayloadSchemaEntry_t inner[] = {
        {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT32, "x", NULL, 0, 0, NULL, NULL},
        {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT8, "y", NULL, 0, 0, NULL, NULL},
    };
    nvtxPayloadSchemaAttr_t ia = {NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
                                      NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
                                      NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE,
                                  "inner",
                                  NVTX_PAYLOAD_SCHEMA_TYPE_STATIC,
                                  0,
                                  inner,
                                  2,
                                  8,
                                  0,
                                  0,
                                  NULL};
    nvp_register_schema(&reg, NULL, &ia, SID(1));
    nvtxPayloadSchemaAttr_t a = {
        NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
            NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE,
        NULL,
        (pf & 64) ? NVTX_PAYLOAD_SCHEMA_TYPE_DYNAMIC : NVTX_PAYLOAD_SCHEMA_TYPE_STATIC,
        0,
        e,
        n,
        blob_len,
        0,
        0,
        NULL};
    nvp_register_schema(&reg, NULL, &a, SID(2));

    /* The blob in its own allocation, so ASan sees any read past its end. */
    uint8_t *copy = malloc(blob_len ? blob_len : 1);
    if (!copy) {
        nvp_registry_free(&reg);
        return 0;
    }
    memcpy(copy, blob, blob_len);
    nvtxPayloadData_t pd[2] = {
        {SID(2), (pf & 4) ? SIZE_MAX : blob_len, copy},
        {SID(1), 8, copy},
    };
    if (pf & 8)
        pd[0].payload = NULL;
    if (pf & 16)
        pd[0].payload = (const void *)(uintptr_t)0xdead0000;
    size_t count = (pf & 32) ? 2 : 1;
    if (count == 2 && blob_len < 8)
        pd[1].size = blob_len;

    sb_t s = {0};
    unsigned undecoded = 0;
    nvp_decode(&reg, NULL, pd, count, &s, &undecoded);
    if (undecoded > count)
        abort();
    if (!s.oom) {
        sb_t w = {0};
        sb_puts(&w, "{");
        if (s.p)
            sb_puts(&w, s.p);
        sb_puts(&w, "}");
        json_error_t err;
        json_t *j = w.oom ? NULL : json_loads(w.p, JSON_ALLOW_NUL, &err);
        if (!w.oom && !json_is_object(j))
            abort();
        json_decref(j);
        free(w.p);
    }
    free(s.p);
    free(copy);
    nvp_registry_free(&reg);
    return 0;
}
