/* SPDX-License-Identifier: MIT */
/*
 * Decoder for NVTX extended payloads (the NVTX payload extension,
 * nvtx3/nvToolsExtPayload.h): a registry of the schemas and enums a program
 * registers (nvtxPayloadSchemaRegister, nvtxPayloadEnumRegister), and a
 * decoder that turns a nvtxPayloadData_t array into JSON fields named by the
 * schema's entries. NCCL puts its message sizes in such payloads
 * (NVIDIA/nccl src/include/nvtx_payload_schemas.h); CUPTI does not decode
 * them. Used by the tracer (trace_*.c, tracer.h) and fuzzed by
 * tests/fuzz/fuzz_nvtx_payload.c.
 *
 * Everything the program hands over is untrusted: every read of its memory
 * goes through nvp_safe_read (process_vm_readv on our own pid, which fails
 * with EFAULT instead of faulting), every size and count is bounded, and
 * anything not understood is left out and counted, never guessed.
 *
 * Decoded: integer types (char..int64, size_t, the NVTX category, colour,
 * scope, pid and tid types), float and double, addresses (as hex strings),
 * registered enums (by value name, or the number), inline char arrays and
 * C-string pointers (UTF-8/ASCII), nested static schemas (depth <= 4).
 * Not decoded (counted): arrays other than inline chars, pointer entries,
 * wide strings, unions, dynamic schemas, types this file does not know.
 * Integers beyond +-2^53 are written as decimal strings so that every JSON
 * reader keeps them exact (NCCL's communicator IDs are 64-bit hashes).
 */
#ifndef CR_TRACER_NVTX_PAYLOAD_H
#define CR_TRACER_NVTX_PAYLOAD_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* process_vm_readv */
#endif
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef NVTX_NO_IMPL
#define NVTX_NO_IMPL /* types only: this is a tool, not an NVTX client */
#endif
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>

#include "sb.h"

#define NVP_MAX_SCHEMAS 4096     /* registrations kept; more are not decoded */
#define NVP_MAX_ENTRIES 256      /* entries per schema, values per enum */
#define NVP_MAX_PAYLOADS 16      /* nvtxPayloadData_t items per event */
#define NVP_MAX_BYTES (1u << 20) /* payload bytes per item */
#define NVP_MAX_STR 256          /* bytes of a string entry or name */
#define NVP_MAX_DEPTH 4          /* nested schemas */

/* Copies n bytes the program pointed us at, outside AddressSanitizer's
 * view. A payload's pointer may lead anywhere readable: into a frame of the
 * caller's stack whose variable has gone out of scope, into a heap
 * redzone. The read is wanted (the tracer records what the program handed
 * it; nvp_safe_read decides it is mapped), but ASan, in the fuzz harness and
 * the SAN build, would call it a use after scope: the fuzzer found one after
 * 4 million runs (a C-string pointer from the blob into its own stack).
 * So the copy is a byte loop in a function ASan does not instrument, and
 * not memcpy, whose interceptor checks the range even there. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NVP_NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#if !defined(NVP_NO_ASAN) && defined(__SANITIZE_ADDRESS__)
#define NVP_NO_ASAN __attribute__((no_sanitize_address))
#endif
#ifndef NVP_NO_ASAN
#define NVP_NO_ASAN
#endif
NVP_NO_ASAN static inline void nvp_copy_raw(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const volatile unsigned char *p = src;
    for (size_t i = 0; i < n; i++)
        d[i] = p[i];
}

/* Reads n bytes of our own process's memory at src into dst; returns the
 * bytes read (fewer when src runs into unmapped memory, 0 for NULL). When the
 * kernel refuses process_vm_readv (seccomp), falls back to memcpy for
 * pointers that look like user-space addresses: programs hand NVTX pointers
 * to their own live data, so this is the rare and last resort. */
static inline size_t nvp_safe_read(void *dst, const void *src, size_t n)
{
    static int no_vm_readv;                   /* set once the kernel refused the call */
    static __thread uintptr_t stk_lo, stk_hi; /* this thread's stack, 1/1 if unknown */
    uintptr_t a = (uintptr_t)src;
    if (!src || n == 0 || a < 4096 || a + n < a)
        return 0;
    /* Fast path, no system call: data between our own frame and the top of
     * this thread's stack is mapped (NCCL's payloads are locals of the
     * caller, so they are there). Not on a signal's alternate stack. */
    if (!stk_hi) {
        pthread_attr_t at;
        void *lo = NULL;
        size_t sz = 0;
        stk_lo = stk_hi = 1;
        if (pthread_getattr_np(pthread_self(), &at) == 0) {
            if (pthread_attr_getstack(&at, &lo, &sz) == 0 && lo && sz) {
                stk_lo = (uintptr_t)lo;
                stk_hi = (uintptr_t)lo + sz;
            }
            pthread_attr_destroy(&at);
        }
    }
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    if (sp >= stk_lo && sp < stk_hi && a >= sp && a + n <= stk_hi) {
        nvp_copy_raw(dst, src, n);
        return n;
    }
    if (!__atomic_load_n(&no_vm_readv, __ATOMIC_RELAXED)) {
        struct iovec local = {dst, n};
        struct iovec remote = {(void *)a, n};
        ssize_t r = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
        if (r >= 0)
            return (size_t)r;
        if (errno != ENOSYS && errno != EPERM)
            return 0; /* EFAULT and friends: not readable */
        __atomic_store_n(&no_vm_readv, 1, __ATOMIC_RELAXED);
    }
    if (a >= ((uintptr_t)1 << 47))
        return 0; /* not a user-space address on x86-64 or aarch64 Linux */
    nvp_copy_raw(dst, src, n);
    return n;
}

/* The address of item i of size bytes in the program's array at base, by
 * integer arithmetic: base is whatever the program passed (NULL, wild), and
 * base + i on such a pointer is undefined behaviour before anything reads
 * it. nvp_safe_read then refuses what is not readable. */
static inline const void *nvp_item(const void *base, size_t i, size_t size)
{
    return (const void *)((uintptr_t)base + i * size);
}

/* A NUL-terminated copy (malloc'd) of the string at src, at most NVP_MAX_STR
 * bytes; NULL when src is NULL or unreadable. A string cut (at the limit, or
 * where its memory ends) loses a last character split in two. */
static inline char *nvp_read_str(const char *src)
{
    char buf[NVP_MAX_STR + 1];
    size_t got = 0;
    if (!src)
        return NULL;
    /* Page by page, so a string near the end of a mapping still reads. */
    while (got < NVP_MAX_STR) {
        const void *at = nvp_item(src, got, 1);
        size_t chunk = 4096 - ((uintptr_t)at & 4095);
        if (chunk > NVP_MAX_STR - got)
            chunk = NVP_MAX_STR - got;
        size_t r = nvp_safe_read(buf + got, at, chunk);
        if (r == 0)
            break;
        void *nul = memchr(buf + got, '\0', r);
        got += r;
        if (nul)
            return strdup(buf);
        if (r < chunk)
            break;
    }
    if (got == 0)
        return NULL;
    buf[sb_utf8_cut(buf, got)] = '\0';
    return strdup(buf);
}

typedef struct {
    char *name;
    uint64_t type, flags, offset, array_detail;
} nvp_entry;

typedef struct {
    char *name;
    uint64_t value;
    int is_flag;
} nvp_enum_value;

typedef struct {
    const void *domain; /* the domain handle it was registered in */
    uint64_t id;
    bool is_enum;
    char *name;
    uint64_t schema_type; /* NVTX_PAYLOAD_SCHEMA_TYPE_* */
    size_t static_size;   /* 0 when not given */
    size_t n;             /* entries or enum values */
    nvp_entry *entries;
    nvp_enum_value *values;
    size_t enum_size; /* bytes of an enum value */
} nvp_schema;

typedef struct {
    nvp_schema *s;
    size_t n, cap;
    uint64_t rejected; /* registrations that could not be read or kept */
} nvp_registry;

static inline void nvp_schema_free(nvp_schema *s)
{
    for (size_t i = 0; s->entries && i < s->n; i++)
        free(s->entries[i].name);
    for (size_t i = 0; s->values && i < s->n; i++)
        free(s->values[i].name);
    free(s->entries);
    free(s->values);
    free(s->name);
}

static inline void nvp_registry_free(nvp_registry *r)
{
    for (size_t i = 0; i < r->n; i++)
        nvp_schema_free(&r->s[i]);
    free(r->s);
    memset(r, 0, sizeof *r);
}

/* The schema or enum registered under id, preferring the same domain (ids are
 * per domain); NULL when unknown. */
static inline const nvp_schema *nvp_find(const nvp_registry *r, const void *domain, uint64_t id)
{
    const nvp_schema *any = NULL;
    for (size_t i = r->n; i-- > 0;)
        if (r->s[i].id == id) {
            if (r->s[i].domain == domain)
                return &r->s[i];
            if (!any)
                any = &r->s[i];
        }
    return any;
}

/* Keeps s (taking ownership); a re-registration of the same id in the same
 * domain replaces the old one. False (s freed) when the registry is full. */
static inline bool nvp_keep(nvp_registry *r, nvp_schema *s)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->s[i].id == s->id && r->s[i].domain == s->domain) {
            nvp_schema_free(&r->s[i]);
            r->s[i] = *s;
            return true;
        }
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 32;
        nvp_schema *p = r->n < NVP_MAX_SCHEMAS ? realloc(r->s, cap * sizeof *p) : NULL;
        if (!p) {
            nvp_schema_free(s);
            r->rejected++;
            return false;
        }
        r->s = p;
        r->cap = cap;
    }
    r->s[r->n++] = *s;
    return true;
}

/* Records the schema described by attr (program memory) under id. False when
 * attr is unreadable, has no entries, or too many. */
static inline bool nvp_register_schema(nvp_registry *r, const void *domain,
                                       const nvtxPayloadSchemaAttr_t *attr, uint64_t id)
{
    nvtxPayloadSchemaAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        goto bad;
    const uint64_t need =
        NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES;
    if ((a.fieldMask & need) != need || a.numEntries == 0 || a.numEntries > NVP_MAX_ENTRIES)
        goto bad;
    nvp_schema s;
    memset(&s, 0, sizeof s);
    s.domain = domain;
    s.id = id;
    s.schema_type = (a.fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE)
                        ? a.type
                        : (uint64_t)NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
    if (a.fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE)
        s.static_size = a.payloadStaticSize;
    if (a.fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME)
        s.name = nvp_read_str(a.name);
    s.entries = calloc(a.numEntries, sizeof *s.entries);
    if (!s.entries) {
        nvp_schema_free(&s);
        goto bad;
    }
    s.n = a.numEntries;
    for (size_t i = 0; i < a.numEntries; i++) {
        nvtxPayloadSchemaEntry_t e;
        if (nvp_safe_read(&e, nvp_item(a.entries, i, sizeof e), sizeof e) != sizeof e) {
            nvp_schema_free(&s);
            goto bad;
        }
        s.entries[i].name = nvp_read_str(e.name);
        s.entries[i].type = e.type;
        s.entries[i].flags = e.flags;
        s.entries[i].offset = e.offset;
        s.entries[i].array_detail = e.arrayOrUnionDetail;
    }
    return nvp_keep(r, &s);
bad:
    r->rejected++;
    return false;
}

/* Records the enum described by attr (program memory) under id. */
static inline bool nvp_register_enum(nvp_registry *r, const void *domain,
                                     const nvtxPayloadEnumAttr_t *attr, uint64_t id)
{
    nvtxPayloadEnumAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        goto bad;
    const uint64_t need =
        NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES;
    if ((a.fieldMask & need) != need || a.numEntries == 0 || a.numEntries > NVP_MAX_ENTRIES)
        goto bad;
    nvp_schema s;
    memset(&s, 0, sizeof s);
    s.domain = domain;
    s.id = id;
    s.is_enum = true;
    s.enum_size = (a.fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE) ? a.sizeOfEnum : sizeof(int);
    if (s.enum_size != 1 && s.enum_size != 2 && s.enum_size != 4 && s.enum_size != 8)
        goto bad;
    if (a.fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_NAME)
        s.name = nvp_read_str(a.name);
    s.values = calloc(a.numEntries, sizeof *s.values);
    if (!s.values) {
        nvp_schema_free(&s);
        goto bad;
    }
    s.n = a.numEntries;
    for (size_t i = 0; i < a.numEntries; i++) {
        nvtxPayloadEnum_t e;
        if (nvp_safe_read(&e, nvp_item(a.entries, i, sizeof e), sizeof e) != sizeof e) {
            nvp_schema_free(&s);
            goto bad;
        }
        s.values[i].name = nvp_read_str(e.name);
        s.values[i].value = e.value;
        s.values[i].is_flag = e.isFlag;
    }
    return nvp_keep(r, &s);
bad:
    r->rejected++;
    return false;
}

/* Size and alignment of a predefined entry type on LP64 Linux (the tracer's
 * only platform); 0 when not a plain value this decoder reads. */
static inline size_t nvp_type_size(uint64_t t)
{
    switch (t) {
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR:
    case NVTX_PAYLOAD_ENTRY_TYPE_UCHAR:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT8:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT8:
    case NVTX_PAYLOAD_ENTRY_TYPE_BYTE:
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR8:
        return 1;
    case NVTX_PAYLOAD_ENTRY_TYPE_SHORT:
    case NVTX_PAYLOAD_ENTRY_TYPE_USHORT:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT16:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT16:
        return 2;
    case NVTX_PAYLOAD_ENTRY_TYPE_INT:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT:
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_CATEGORY:
    case NVTX_PAYLOAD_ENTRY_TYPE_COLOR_ARGB:
    case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT32:
        return 4;
    case NVTX_PAYLOAD_ENTRY_TYPE_LONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_ULONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_LONGLONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_ULONGLONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT64:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT64:
    case NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE:
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT64:
    case NVTX_PAYLOAD_ENTRY_TYPE_SIZE:
    case NVTX_PAYLOAD_ENTRY_TYPE_ADDRESS:
    case NVTX_PAYLOAD_ENTRY_TYPE_SCOPE_ID:
    case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT64:
    case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT64:
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING: /* a char pointer when not an inline array */
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF8:
        return 8;
    default:
        return 0;
    }
}

static inline bool nvp_is_signed(uint64_t t)
{
    switch (t) {
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT8:
    case NVTX_PAYLOAD_ENTRY_TYPE_SHORT:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT16:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_LONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_LONGLONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT64:
        return true;
    default:
        return false;
    }
}

/* Unsigned little-endian integer of n bytes at p. */
static inline uint64_t nvp_load(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    memcpy(&v, p, n); /* the tracer's platforms are little-endian */
    return v;
}

static inline void nvp_put_u64(sb_t *s, uint64_t v)
{
    if (v <= (1ull << 53))
        sb_printf(s, "%" PRIu64, v);
    else
        sb_printf(s, "\"%" PRIu64 "\"", v);
}

static inline void nvp_put_i64(sb_t *s, int64_t v)
{
    if (v >= -(1ll << 53) && v <= (1ll << 53))
        sb_printf(s, "%" PRId64, v);
    else
        sb_printf(s, "\"%" PRId64 "\"", v);
}

typedef struct {
    const nvp_registry *reg;
    const void *domain;
    unsigned fields;    /* fields written */
    unsigned undecoded; /* entries left out */
} nvp_ctx;

static inline void nvp_key(sb_t *s, nvp_ctx *c, const char *name, size_t index)
{
    if (c->fields++)
        sb_puts(s, ",");
    if (name && *name) {
        sb_str(s, name);
    } else {
        char k[32];
        snprintf(k, sizeof k, "field %zu", index);
        sb_str(s, k);
    }
    sb_puts(s, ":");
}

static inline void nvp_decode_schema(sb_t *s, nvp_ctx *c, const nvp_schema *sc,
                                     const unsigned char *data, size_t size, int depth);

/* One entry of a static schema at data[off]; false when its size is not
 * known (then the offsets of the entries after it are not known either). */
static inline bool nvp_entry_value(sb_t *s, nvp_ctx *c, const nvp_entry *e, size_t index,
                                   const unsigned char *data, size_t size, size_t off, size_t *len,
                                   int depth)
{
    uint64_t arr = NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_TYPE(e->flags);
    bool is_char =
        e->type == NVTX_PAYLOAD_ENTRY_TYPE_CHAR || e->type == NVTX_PAYLOAD_ENTRY_TYPE_CSTRING ||
        e->type == NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF8 || e->type == NVTX_PAYLOAD_ENTRY_TYPE_CHAR8;
    *len = 0;
    if (arr == NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_FIXED_SIZE && is_char &&
        !(e->flags & NVTX_PAYLOAD_ENTRY_FLAG_POINTER)) {
        /* an inline char array of array_detail bytes */
        if (e->array_detail == 0 || e->array_detail > NVP_MAX_BYTES)
            return false;
        *len = (size_t)e->array_detail;
        if (off > size || *len > size - off) {
            c->undecoded++;
            return true;
        }
        size_t n = *len < NVP_MAX_STR ? *len : NVP_MAX_STR;
        char buf[NVP_MAX_STR + 1];
        memcpy(buf, data + off, n);
        buf[n < *len ? sb_utf8_cut(buf, n) : n] = '\0';
        nvp_key(s, c, e->name, index);
        sb_str(s, buf);
        return true;
    }
    if (arr || (e->flags & NVTX_PAYLOAD_ENTRY_FLAG_POINTER)) {
        /* arrays and pointers: pointer-sized when a pointer, else unknown */
        c->undecoded++;
        if (e->flags & NVTX_PAYLOAD_ENTRY_FLAG_POINTER) {
            *len = sizeof(void *);
            return true;
        }
        return false;
    }
    if (e->type >= NVTX_PAYLOAD_SCHEMA_ID_STATIC_START) {
        const nvp_schema *sub = nvp_find(c->reg, c->domain, e->type);
        if (!sub) {
            c->undecoded++;
            return false;
        }
        if (sub->is_enum) {
            *len = sub->enum_size;
            if (off > size || *len > size - off) {
                c->undecoded++;
                return true;
            }
            uint64_t v = nvp_load(data + off, *len);
            nvp_key(s, c, e->name, index);
            for (size_t i = 0; i < sub->n; i++)
                if (!sub->values[i].is_flag && sub->values[i].value == v && sub->values[i].name) {
                    sb_str(s, sub->values[i].name);
                    return true;
                }
            nvp_put_u64(s, v); /* a value the enum does not name */
            return true;
        }
        if (sub->schema_type != NVTX_PAYLOAD_SCHEMA_TYPE_STATIC || sub->static_size == 0 ||
            depth >= NVP_MAX_DEPTH) {
            c->undecoded++;
            return false;
        }
        *len = sub->static_size;
        if (off > size || *len > size - off) {
            c->undecoded++;
            return true;
        }
        nvp_key(s, c, e->name, index);
        sb_puts(s, "{");
        nvp_ctx inner = {c->reg, c->domain, 0, 0};
        nvp_decode_schema(s, &inner, sub, data + off, *len, depth + 1);
        c->undecoded += inner.undecoded;
        sb_puts(s, "}");
        return true;
    }
    size_t n = nvp_type_size(e->type);
    if (n == 0) {
        c->undecoded++;
        return false;
    }
    *len = n;
    if (off > size || n > size - off) {
        c->undecoded++;
        return true;
    }
    const unsigned char *p = data + off;
    uint64_t v = nvp_load(p, n);
    switch (e->type) {
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT:
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT32: {
        float f;
        memcpy(&f, p, sizeof f);
        nvp_key(s, c, e->name, index);
        sb_double(s, (double)f);
        return true;
    }
    case NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE:
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT64: {
        double d;
        memcpy(&d, p, sizeof d);
        nvp_key(s, c, e->name, index);
        sb_double(s, d);
        return true;
    }
    case NVTX_PAYLOAD_ENTRY_TYPE_ADDRESS:
        nvp_key(s, c, e->name, index);
        sb_printf(s, "\"0x%" PRIx64 "\"", v);
        return true;
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING:
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF8: {
        const char *str;
        memcpy(&str, p, sizeof str);
        char *copy = nvp_read_str(str);
        if (!copy) {
            c->undecoded++;
            return true;
        }
        nvp_key(s, c, e->name, index);
        sb_str(s, copy);
        free(copy);
        return true;
    }
    default:
        break;
    }
    nvp_key(s, c, e->name, index);
    if (nvp_is_signed(e->type)) {
        int64_t sv = (int64_t)(v << (64 - 8 * n)) >> (64 - 8 * n); /* sign-extend */
        nvp_put_i64(s, sv);
    } else {
        nvp_put_u64(s, v);
    }
    return true;
}

/* The fields of one static-layout payload of size bytes. Entries without an
 * offset (0 after the first) follow the previous one at natural alignment. */
static inline void nvp_decode_schema(sb_t *s, nvp_ctx *c, const nvp_schema *sc,
                                     const unsigned char *data, size_t size, int depth)
{
    size_t next = 0;
    for (size_t i = 0; i < sc->n; i++) {
        const nvp_entry *e = &sc->entries[i];
        size_t off;
        if (e->offset != 0 || i == 0) {
            if (e->offset > NVP_MAX_BYTES) {
                c->undecoded++;
                continue;
            }
            off = (size_t)e->offset;
        } else {
            size_t al = nvp_type_size(e->type);
            if (al == 0 && e->type >= NVTX_PAYLOAD_SCHEMA_ID_STATIC_START) {
                const nvp_schema *sub = nvp_find(c->reg, c->domain, e->type);
                al = sub && sub->is_enum ? sub->enum_size : 8;
            }
            if (NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_TYPE(e->flags) &&
                !(e->flags & NVTX_PAYLOAD_ENTRY_FLAG_POINTER))
                al = al ? al : 1;
            if (e->flags & NVTX_PAYLOAD_ENTRY_FLAG_POINTER)
                al = sizeof(void *);
            if (al == 0)
                al = 1;
            if (al > 8)
                al = 8;
            off = (next + al - 1) / al * al;
        }
        size_t len = 0;
        if (e->flags & NVTX_PAYLOAD_ENTRY_FLAG_HIDE) { /* not shown, but takes its bytes */
            size_t n = nvp_type_size(e->type);
            if (n == 0) { /* unknown size: later implicit offsets unknown too */
                for (size_t j = i + 1; j < sc->n; j++)
                    if (sc->entries[j].offset == 0) {
                        c->undecoded++;
                    }
                return;
            }
            next = off + n;
            continue;
        }
        if (!nvp_entry_value(s, c, e, i, data, size, off, &len, depth)) {
            /* Its size is unknown: entries with their own offset still read. */
            for (size_t j = i + 1; j < sc->n; j++) {
                if (sc->entries[j].offset == 0) {
                    c->undecoded++;
                    continue;
                }
                size_t l2;
                if (sc->entries[j].offset > NVP_MAX_BYTES ||
                    sc->entries[j].flags & NVTX_PAYLOAD_ENTRY_FLAG_HIDE)
                    continue;
                nvp_entry_value(s, c, &sc->entries[j], j, data, size, (size_t)sc->entries[j].offset,
                                &l2, depth);
            }
            return;
        }
        next = off + len;
    }
}

/* Appends the decoded fields of count payloads at pd (program memory: an
 * nvtxPayloadData_t array) to s as `"name":value,...` (no braces), for
 * domain. Returns the number of fields written; *undecoded gets the number of
 * payload items that were not fully decoded (unknown schema, unreadable or
 * short data, entries of kinds this decoder leaves out). */
static inline unsigned nvp_decode(const nvp_registry *reg, const void *domain,
                                  const nvtxPayloadData_t *pd, size_t count, sb_t *s,
                                  unsigned *undecoded)
{
    unsigned fields = 0;
    *undecoded = 0;
    if (count == 0 || count > NVP_MAX_PAYLOADS) {
        *undecoded = 1;
        return 0;
    }
    nvtxPayloadData_t items[NVP_MAX_PAYLOADS];
    if (nvp_safe_read(items, pd, count * sizeof items[0]) != count * sizeof items[0]) {
        *undecoded = (unsigned)count;
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        const nvp_schema *sc = nvp_find(reg, domain, items[i].schemaId);
        size_t size = items[i].size;
        if (sc && size == SIZE_MAX)
            size = sc->static_size; /* "the tool should figure out the size" */
        if (!sc || sc->is_enum || sc->schema_type != NVTX_PAYLOAD_SCHEMA_TYPE_STATIC || size == 0 ||
            size > NVP_MAX_BYTES || !items[i].payload) {
            (*undecoded)++;
            continue;
        }
        unsigned char *buf = malloc(size);
        if (!buf || nvp_safe_read(buf, items[i].payload, size) != size) {
            free(buf);
            (*undecoded)++;
            continue;
        }
        nvp_ctx c = {reg, domain, fields, 0};
        size_t before = s->len;
        nvp_decode_schema(s, &c, sc, buf, size, 0);
        free(buf);
        if (s->oom) {
            s->len = before;
            (*undecoded)++;
            continue;
        }
        fields = c.fields;
        if (c.undecoded)
            (*undecoded)++;
    }
    return fields;
}

#endif
