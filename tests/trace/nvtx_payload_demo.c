/* SPDX-License-Identifier: MIT */
/*
 * A CPU-only program that uses the NVTX payload extension the way NCCL does
 * (NVIDIA/nccl src/include/nvtx.h, nvtx_payload_schemas.h, init_nvtx.cc), so
 * that tests/check_trace.sh can check, without a GPU, that the tracer decodes
 * NCCL's extended payloads into the trace (traces/README.md):
 *
 * - domain "NCCL"; the reduction operation registered as an enum
 *   (nvtxPayloadEnumRegister, schema id 24 + NVTX_PAYLOAD_SCHEMA_ID_STATIC_START,
 *   4-byte values Sum=0 Product=1 Max=2 Min=3 Avg=4);
 * - static schemas with NCCL's entry names and types, registered with ids
 *   NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + NVTX_SID_* (AllReduce 5, Send 9,
 *   CommInitRank 0), offsets from offsetof as NCCL's helper macros set them;
 * - ranges named by registered strings, pushed with nvtxDomainRangePushEx and
 *   payloadType NVTX_PAYLOAD_TYPE_EXT (one nvtxPayloadData_t, reserved0 = 1),
 *   as NVTX3_FUNC_WITH_PARAMS does; and a range whose payload comes at the pop
 *   (nvtxRangePopPayload), as NVTX3_RANGE_ADD_PAYLOAD does for ncclCommInit*;
 * - a start/end range with an extended payload, a scalar-payload range, and
 *   five payloads the tracer must count as undecoded (unknown schema, size
 *   smaller than the schema, NULL data, wild data pointer, wild pointer to
 *   the nvtxPayloadData_t) without crashing.
 *
 * Run with NVTX_INJECTION64_PATH=libcommroof_trace.so. Expected content
 * (derived from the values below): ncclAllReduce ranges with "Message size
 * [bytes]" 1048576 and 4096, "Reduction operation" "Sum" and "Max"; ncclSend
 * with 65536 bytes to peer 3; ncclCommInitRank with 8 ranks, rank 2, device 2;
 * 5 undecoded payloads.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>

#define SID(n) ((uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + (n))
#define SID_REDOP SID(24) /* NVTX_PAYLOAD_ENTRY_NCCL_REDOP in NCCL's nvtx.h */

typedef struct {
    uint64_t comm;
    size_t bytes;
    int op; /* ncclRedOp_t */
} all_reduce_params;

typedef struct {
    uint64_t comm;
    size_t bytes;
    int peer;
} send_recv_params;

typedef struct {
    uint64_t newcomm;
    int nranks, myrank, cuda_dev;
} comm_init_rank_params;

static const nvtxPayloadSchemaEntry_t all_reduce_schema[] = {
    {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "NCCL communicator ID", NULL, 0,
     offsetof(all_reduce_params, comm), NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_SIZE, "Message size [bytes]", NULL, 0,
     offsetof(all_reduce_params, bytes), NULL, NULL},
    {0, SID_REDOP, "Reduction operation", NULL, 0, offsetof(all_reduce_params, op), NULL, NULL},
    {0, 0, NULL, NULL, 0, 0, NULL, NULL},
};

static const nvtxPayloadSchemaEntry_t send_recv_schema[] = {
    {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "NCCL communicator ID", NULL, 0,
     offsetof(send_recv_params, comm), NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_SIZE, "Message size [bytes]", NULL, 0,
     offsetof(send_recv_params, bytes), NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "Peer rank", NULL, 0, offsetof(send_recv_params, peer), NULL,
     NULL},
    {0, 0, NULL, NULL, 0, 0, NULL, NULL},
};

/* Offsets left 0 here: the tracer must derive them by natural alignment. */
static const nvtxPayloadSchemaEntry_t comm_init_schema[] = {
    {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "NCCL communicator ID", NULL, 0, 0, NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "No. of ranks", NULL, 0, 0, NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "Rank", NULL, 0, 0, NULL, NULL},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "CUDA device", NULL, 0, 0, NULL, NULL},
    {0, 0, NULL, NULL, 0, 0, NULL, NULL},
};

static const nvtxPayloadEnum_t red_ops[] = {
    {"Sum", 0, 0}, {"Product", 1, 0}, {"Max", 2, 0}, {"Min", 3, 0}, {"Avg", 4, 0},
};

static void register_schema(nvtxDomainHandle_t d, const nvtxPayloadSchemaEntry_t *e, size_t n,
                            uint64_t id, size_t size)
{
    nvtxPayloadSchemaAttr_t a = {
        NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
            NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
            NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID,
        NULL,
        NVTX_PAYLOAD_SCHEMA_TYPE_STATIC,
        NVTX_PAYLOAD_SCHEMA_FLAG_NONE,
        e,
        n,
        size,
        0,
        id,
        NULL};
    nvtxPayloadSchemaRegister(d, &a);
}

/* nvtxDomainRangePushEx with one extended payload, as NCCL's
 * NVTX3_FUNC_WITH_PARAMS (nvtx3::event_attributes with a nvtxPayloadData_t). */
static void push_ext(nvtxDomainHandle_t d, nvtxStringHandle_t name, const nvtxPayloadData_t *pd)
{
    nvtxEventAttributes_t at = {0};
    at.version = NVTX_VERSION;
    at.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    at.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    at.message.registered = name;
    at.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    at.reserved0 = 1;
    at.payload.ullValue = (uint64_t)(uintptr_t)pd;
    nvtxDomainRangePushEx(d, &at);
}

int main(void)
{
    nvtxDomainHandle_t nccl = nvtxDomainCreateA("NCCL");
    nvtxPayloadEnumAttr_t ea = {
        NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES |
            NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE | NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID,
        NULL,
        red_ops,
        sizeof red_ops / sizeof red_ops[0],
        sizeof(int),
        SID_REDOP,
        NULL};
    nvtxPayloadEnumRegister(nccl, &ea);
    register_schema(nccl, all_reduce_schema, 3, SID(5), sizeof(all_reduce_params));
    register_schema(nccl, send_recv_schema, 3, SID(9), sizeof(send_recv_params));
    register_schema(nccl, comm_init_schema, 4, SID(0), sizeof(comm_init_rank_params));
    nvtxStringHandle_t s_ar = nvtxDomainRegisterStringA(nccl, "ncclAllReduce");
    nvtxStringHandle_t s_send = nvtxDomainRegisterStringA(nccl, "ncclSend");
    nvtxStringHandle_t s_init = nvtxDomainRegisterStringA(nccl, "ncclCommInitRank");

    /* ncclCommInitRank: pushed bare, its payload given at the pop. */
    nvtxEventAttributes_t bare = {0};
    bare.version = NVTX_VERSION;
    bare.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    bare.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    bare.message.registered = s_init;
    nvtxDomainRangePushEx(nccl, &bare);
    comm_init_rank_params ip = {0xabcdef0123456789ull, 8, 2, 2};
    nvtxPayloadData_t ipd = {SID(0), sizeof ip, &ip};
    nvtxRangePopPayload(nccl, &ipd, 1);

    all_reduce_params ar1 = {0xabcdef0123456789ull, 1048576, 0};
    nvtxPayloadData_t pd1 = {SID(5), sizeof ar1, &ar1};
    push_ext(nccl, s_ar, &pd1);
    nvtxDomainRangePop(nccl);

    all_reduce_params ar2 = {0xabcdef0123456789ull, 4096, 2};
    nvtxPayloadData_t pd2 = {SID(5), sizeof ar2, &ar2};
    push_ext(nccl, s_ar, &pd2);
    nvtxDomainRangePop(nccl);

    send_recv_params sr = {0xabcdef0123456789ull, 65536, 3};
    nvtxPayloadData_t pd3 = {SID(9), sizeof sr, &sr};
    push_ext(nccl, s_send, &pd3);
    nvtxDomainRangePop(nccl);

    /* start/end with an extended payload, message as a plain string */
    nvtxEventAttributes_t se = {0};
    se.version = NVTX_VERSION;
    se.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    se.messageType = NVTX_MESSAGE_TYPE_ASCII;
    se.message.ascii = "allreduce_started";
    se.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    se.reserved0 = 1;
    se.payload.ullValue = (uint64_t)(uintptr_t)&pd1;
    nvtxRangeId_t id = nvtxDomainRangeStartEx(nccl, &se);
    nvtxDomainRangeEnd(nccl, id);

    /* a scalar payload, recorded as before */
    nvtxEventAttributes_t sc = {0};
    sc.version = NVTX_VERSION;
    sc.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    sc.messageType = NVTX_MESSAGE_TYPE_ASCII;
    sc.message.ascii = "scalar";
    sc.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    sc.payload.ullValue = 777;
    nvtxRangePushEx(&sc);
    nvtxRangePop();

    /* undecodable: unknown schema, too short, NULL data */
    nvtxPayloadData_t bad1 = {SID(99), sizeof ar1, &ar1};
    push_ext(nccl, s_ar, &bad1);
    nvtxDomainRangePop(nccl);
    nvtxPayloadData_t bad2 = {SID(5), 4, &ar1};
    push_ext(nccl, s_ar, &bad2);
    nvtxDomainRangePop(nccl);
    nvtxPayloadData_t bad3 = {SID(5), sizeof ar1, NULL};
    push_ext(nccl, s_ar, &bad3);
    nvtxDomainRangePop(nccl);
    /* wild pointers: to data, and to the nvtxPayloadData_t itself */
    nvtxPayloadData_t bad4 = {SID(5), sizeof ar1, (const void *)(uintptr_t)0xdead0000};
    push_ext(nccl, s_ar, &bad4);
    nvtxDomainRangePop(nccl);
    push_ext(nccl, s_ar, (const nvtxPayloadData_t *)(uintptr_t)0x8);
    nvtxDomainRangePop(nccl);

    puts("nvtx_payload_demo: done");
    return 0;
}
