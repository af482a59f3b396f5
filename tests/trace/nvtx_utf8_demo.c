/* SPDX-License-Identifier: MIT */
/*
 * A CPU-only program that hands NVTX strings which are not valid UTF-8 to the
 * tracer, in every place it copies a string into the trace: range names
 * (nvtxRangePushA, and nvtxRangePushEx with a wide string), a mark, a domain
 * name, a registered string, and a payload schema's entry name and C-string
 * value. tests/check_trace.sh runs it under `commroof trace` and checks that
 * `commroof trace summary` accepts the trace and that each name holds
 * U+FFFD where the bytes were ill-formed (issue 13, item 7).
 *
 * Expected names (R is U+FFFD, EF BF BD; one R per maximal subpart, Unicode
 * 15.0 section 3.9, Table 3-7 for what is well-formed):
 *   u1 C0 AF            overlong '/' (C0 starts nothing)         "u1 RR|"
 *   u2 E0 80 AF         overlong '/' (E0 needs A0..BF next)      "u2 RRR|"
 *   u3 ED A0 80         surrogate U+D800 (ED needs 80..9F next)  "u3 RRR|"
 *   u4 E2 82            truncated U+20AC                         "u4 R|"
 *   u5 F4 90 80 80      U+110000 (F4 needs 80..8F next)          "u5 RRRR|"
 *   u6 80 BF C1 F5 FF   stray continuations, bytes never valid   "u6 RRRRR|"
 *   u7 F0 9F 98         truncated U+1F600                        "u7 R|"
 *   u8 caf\u00e9 \u20ac \U0001d11e   valid, kept as it is        unchanged
 *   mark m1 ED BF BF    surrogate U+DFFF                         "m1 RRR|"
 *   domain d1 C0 80     overlong NUL                             "d1 RR|"
 *   registered r1 EF BF truncated U+FFFF... prefix               "r1 R|"
 *   wide w1 U+1F600 U+D800 0x110000 (wchar_t)                    "w1 \U0001f600RR|"
 *   255 'a' then E2 82 AC, cut by the tracer's 256-byte limit    255 'a', no R
 *   payload: entry "k" FF, C-string value "v" E0 80              "kR": "vRR|"
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>

#define SID(n) ((uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + (n))

typedef struct {
    const char *text;
} str_params;

static const nvtxPayloadSchemaEntry_t str_schema[] = {
    {0, NVTX_PAYLOAD_ENTRY_TYPE_CSTRING, "k\xff", NULL, 0, offsetof(str_params, text), NULL, NULL},
};

static void push_pop(const char *name)
{
    nvtxRangePushA(name);
    nvtxRangePop();
}

int main(void)
{
    push_pop("u1 \xc0\xaf"
             "|");
    push_pop("u2 \xe0\x80\xaf"
             "|");
    push_pop("u3 \xed\xa0\x80"
             "|");
    push_pop("u4 \xe2\x82"
             "|");
    push_pop("u5 \xf4\x90\x80\x80"
             "|");
    push_pop("u6 \x80\xbf\xc1\xf5\xff"
             "|");
    push_pop("u7 \xf0\x9f\x98"
             "|");
    push_pop("u8 caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e"
             "|");
    nvtxMarkA("m1 \xed\xbf\xbf"
              "|");

    nvtxDomainHandle_t d = nvtxDomainCreateA("d1 \xc0\x80"
                                             "|");
    nvtxEventAttributes_t at = {0};
    at.version = NVTX_VERSION;
    at.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    at.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    at.message.registered = nvtxDomainRegisterStringA(d, "r1 \xef\xbf"
                                                         "|");
    nvtxDomainRangePushEx(d, &at);
    nvtxDomainRangePop(d);

    /* wchar_t strings are UTF-32 on Linux */
    static const wchar_t wide[] = {L'w', L'1', L' ', 0x1f600, 0xd800, 0x110000, L'|', 0};
    nvtxEventAttributes_t w = {0};
    w.version = NVTX_VERSION;
    w.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    w.messageType = NVTX_MESSAGE_TYPE_UNICODE;
    w.message.unicode = wide;
    nvtxRangePushEx(&w);
    nvtxRangePop();

    char lng[300];
    memset(lng, 'a', 255);
    memcpy(lng + 255, "\xe2\x82\xac", 4); /* U+20AC at bytes 255..257, and the NUL */
    push_pop(lng);

    nvtxPayloadSchemaAttr_t sa = {
        NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
            NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
            NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID,
        NULL,
        NVTX_PAYLOAD_SCHEMA_TYPE_STATIC,
        NVTX_PAYLOAD_SCHEMA_FLAG_NONE,
        str_schema,
        1,
        sizeof(str_params),
        0,
        SID(3),
        NULL};
    nvtxPayloadSchemaRegister(d, &sa);
    str_params sp = {"v\xe0\x80"
                     "|"};
    nvtxPayloadData_t pd = {SID(3), sizeof sp, &sp};
    nvtxEventAttributes_t pe = {0};
    pe.version = NVTX_VERSION;
    pe.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    pe.messageType = NVTX_MESSAGE_TYPE_ASCII;
    pe.message.ascii = "p1";
    pe.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    pe.reserved0 = 1;
    pe.payload.ullValue = (uint64_t)(uintptr_t)&pd;
    nvtxDomainRangePushEx(d, &pe);
    nvtxDomainRangePop(d);
    return 0;
}
