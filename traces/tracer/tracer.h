/* SPDX-License-Identifier: MIT */
/*
 * libcommroof_trace.so: a CUPTI injection library that traces an unmodified
 * CUDA program (CUDA_INJECTION64_PATH) and its NVTX ranges
 * (NVTX_INJECTION64_PATH) into one Chrome trace JSON file per process. The
 * format is described in traces/README.md; the reader is traces/reader/.
 *
 * Rules the library keeps:
 * - Never make the traced program fail: every CUPTI call is checked, each
 *   distinct failure is printed once to stderr and recorded in the file's
 *   metadata, and tracing carries on with what still works. No exit(), no
 *   abort(), no assert().
 * - Never lose a record silently: CUPTI's dropped counts, buffers we could not
 *   allocate, incomplete records and failed writes all add to dropped_records.
 * - A crash or kill leaves a readable file: complete event lines are written
 *   with write(2) after every CUPTI buffer, and a thread asks CUPTI for
 *   completed buffers every COMMROOF_TRACE_FLUSH_MS.
 * - A fork()ed child (no exec) never writes to its parent's file: the file is
 *   written with write(2), not stdio, and every entry point checks the pid.
 * - No file is ever truncated: an exec()ed program (same pid) writes the
 *   next free name, .1.json, .2.json, ... (trace_main.c, setup).
 *
 * The library's parts, and this header, which is theirs alone (nothing here
 * is exported: the library is built with -fvisibility=hidden, and its only
 * exported names are the injection entry points marked EXPORT):
 *   trace_core.c      the tracer's state, the file, errors, the environment
 *   trace_device.c    device properties from CUPTI's record and the driver
 *   trace_records.c   CUPTI's activity records (and NVTX ranges) as JSON, and
 *                     the timeline's process and stream names
 *   trace_buffers.c   CUPTI's activity buffers: the pool, the delivery
 *   trace_pending.c   NVTX payloads waiting for CUPTI's record of their range
 *   trace_main.c      set-up, the flush thread, the closing metadata, fork
 *   trace_nvtx_own.c  what the NVTX wrappers read from a call, and the ranges
 *                     they record themselves where CUPTI records none
 *   trace_nvtx.c      the NVTX wrappers and guards around CUPTI's handlers
 *   trace_graph.c     which thread made each CUDA graph node, and when
 *
 * Built by traces/tracer/tracer.mk with gcc against CUDA's CUPTI headers.
 * The simulations in tests/trace/ include the parts' source (tracer_src.h
 * there) to run them with stand-in CUPTI calls.
 */
#ifndef CR_TRACER_H
#define CR_TRACER_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>
#include <cupti.h>

#include "sb.h"
#include "nvtx_payload.h"
#include "../../model/grow.h" /* cr_grow: the one way arrays grow, as in the library */

#define EXPORT __attribute__((visibility("default")))
#define HOST_DEV 99 /* pid suffix of the host timeline (traces/README.md) */
#define MAX_DEV 99
#define ALIGN 8

/* dlsym() returns an object pointer; ISO C has no cast from it to a function
 * pointer, so copy the bits (same size on every platform CUDA supports). */
#define LOAD_SYM(var, handle, name)                                                                \
    do {                                                                                           \
        void *p_ = dlsym((handle), (name));                                                        \
        memcpy(&(var), &p_, sizeof(var));                                                          \
    } while (0)

/* ---------- the tracer's state (one tracer per process: trace_core.c) ---------- */

/* An NVTX range that has opened and not yet closed. */
typedef struct {
    uint32_t id;
    uint64_t start;
    uint32_t tid;
    char *name, *domain;
    bool has_data;
    int payload_kind; /* CUpti_MetricValueKind, -1 none */
    CUpti_MetricValue payload;
    uint32_t color, category;
    char *ext_json;     /* decoded NVTX extended payload fields, or NULL */
    bool ext_undecoded; /* an extended payload came that was not (fully) decoded */
    bool own;           /* recorded by our NVTX wrappers, not CUPTI (nvtx own path) */
    bool is_push;       /* own: push/pop (else start/end) */
    const void *dom;    /* own: the NVTX domain handle */
    uint64_t own_id;    /* own: order of opening, and the start/end range id */
} open_range;

typedef struct {
    const void *key; /* CUPTI's name pointer (stable per function) */
    char *json;      /* ,"name":"...","mangled":"..." fragment */
} name_slot;

struct drv_props; /* what the driver said about a device (trace_device.c) */

struct tracer {
    pthread_mutex_t mu;     /* the file and all tracing state */
    pthread_mutex_t err_mu; /* errors[] only: taken with or without mu */
    pthread_once_t once;
    bool active;  /* set up and writing */
    bool closed;  /* the closing text was written */
    pid_t os_pid; /* the process that owns fd */
    int fd;
    uint64_t written;   /* bytes written to fd */
    bool fsize_limited; /* RLIMIT_FSIZE was set when the file was made (write_all) ... */
    uint64_t fsize_max; /* ... to this many bytes */
    char path[4096];
    uint64_t ts_base;
    uint64_t last_ts;
    uint64_t records, dropped, incomplete;
    uint64_t unmatched_ends;        /* NVTX ends whose start preceded tracing */
    bool nvtx_started;              /* setup() was asked for by NVTX's initialisation */
    bool marker_on;                 /* CUPTI records NVTX markers (else the own path) */
    bool clock_own;                 /* cuptiGetTimestamp failed: CLOCK_REALTIME instead */
    bool cupti_on;                  /* CUPTI activity recording works */
    uint64_t ext_decoded;           /* NVTX extended payloads decoded */
    uint64_t ext_undecoded;         /* ... not (fully) decoded: unknown schema, bad data */
    uint64_t ext_unmatched;         /* ... decoded but whose range CUPTI never delivered */
    uint64_t stats_records_written; /* records at the last commroof_stats line */
    uint64_t stats_dropped_written;
    size_t buffer_bytes;
    unsigned record; /* REC_* bits: what CUPTI is asked to record (COMMROOF_TRACE_RECORD) */
    unsigned flush_ms;
    bool quiet;
    int rank, local_rank, world_size; /* -1 when unknown */
    bool launch_blocking; /* CUDA_LAUNCH_BLOCKING=1: each launch returned after its work,
                             so every kernel ran inside the range that launched it */
    char host[256];
    /* once-only error messages, also kept for metadata.errors */
    char *errors[32];
    int nerrors;
    /* what has been named already */
    bool pid_named[MAX_DEV + 1];
    uint32_t *seen_streams; /* (dev << 32 | stream) packed into two u32 */
    size_t nseen, capseen;
    bool dev_known[MAX_DEV];
    char *dev_json[MAX_DEV]; /* the device's properties object */
    struct drv_props *drv;   /* [MAX_DEV] what the driver said, taken while it was up */
    int drv_state;           /* __atomic: 0 not yet asked, 1 snapshot taken, 2 no driver */
    char dev_name[MAX_DEV][128];
    uint32_t ctx_dev[1024]; /* context id -> device + 1 (0 unknown) */
    open_range *ranges;
    size_t nranges, capranges;
    name_slot *names;
    size_t nnames, capnames;
    pthread_t flusher;
    bool flusher_started;
    int stop_flusher; /* read and written with __atomic builtins */
};
extern struct tracer g;

/* trace_core.c */
bool owner(void);
uint64_t now_ns(void);
__attribute__((format(printf, 1, 2))) void note_error(const char *fmt, ...);
bool cupti_ok(CUptiResult r, const char *what);
bool write_all(const char *p, size_t n);
void written_or_dropped(bool wrote, uint64_t nrec);
long long env_num(const char *name, long long lo, long long hi, long long dflt, const char *what);
bool env_bool(const char *name, bool dflt);

/* Whether CUDA_LAUNCH_BLOCKING is "1", as CUDA reads it (0 or 1, default 0:
 * CUDA Programming Guide, CUDA environment variables). */
bool launch_blocking_env(void);
int env_int(const char *const *names, int dflt);
int64_t host_pid_of(int dev);
void sb_us(sb_t *s, int64_t ns);

/* trace_device.c */
bool drv_snapshot(void);
void describe_device(sb_t *s, int dev, const CUpti_ActivityDevice5 *d);

/* trace_records.c */
void name_pid(sb_t *s, int dev);
void name_stream(sb_t *s, int dev, uint32_t stream);
void note_ctx(uint32_t ctx, uint32_t dev);
void kernel_record(sb_t *s, const CUpti_ActivityKernel10 *k);
void memcpy_record(sb_t *s, const CUpti_ActivityMemcpy6 *m);
void p2p_record(sb_t *s, const CUpti_ActivityMemcpyPtoP4 *m);
void memset_record(sb_t *s, const CUpti_ActivityMemset4 *m);
void sync_record(sb_t *s, const CUpti_ActivitySynchronization2 *y);
/* The name CUPTI gives the runtime or driver call cbid where it puts work
 * on a device (a launch, copy, memset or graph launch), else NULL. */
const char *api_work_name(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
void api_record(sb_t *s, const CUpti_ActivityAPI *a, CUpti_CallbackDomain domain);
void marker_record(sb_t *s, const CUpti_ActivityMarker2 *m);
void marker_data_record(const CUpti_ActivityMarkerData2 *m);
void emit_range(sb_t *s, const open_range *o, uint64_t end, bool unclosed);
void free_range(open_range *o);
open_range *new_range(void);
void stats_line(sb_t *s);

/* ---------- CUPTI's activity buffers (trace_buffers.c) ---------- */

#define POOL_MAX 8 /* buffers kept for reuse; more are freed */

struct activity_pool {
    pthread_mutex_t mu;
    void *b[POOL_MAX];
    int n;
    bool zeroed;                /* CUPTI was told buffers come zeroed */
    uint64_t requests;          /* buffers CUPTI asked for */
    uint64_t allocs_on_request; /* ... that the pool could not give */
};
extern struct activity_pool pool;

void pool_prefill(void);
void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records);
void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer, size_t size,
                               size_t valid);

/* ---------- NVTX state shared by the wrappers (trace_pending.c) ---------- */

/* A decoded extended payload waiting for the CUPTI marker record of its range
 * (CUPTI mode): matched by thread and time, since our wrapper reads the clock
 * just before it calls CUPTI's handler, which stamps the range. */
typedef struct {
    uint32_t tid;
    uint64_t t;
    bool at_end; /* payload given at the pop (nvtxRangePopPayload) */
    bool undecoded;
    char *json;
    char *name; /* the range's message when we could resolve it, else NULL */
} pend_t;

typedef struct {
    const void *h;
    char *s;
} handle_name;

/* One thread's payloads waiting for CUPTI's records, oldest first: [0] for
 * range starts, [1] for pops. A thread's records come in time order, and so
 * do its payloads, so matching takes from the front (amortised O(1)). */
typedef struct {
    uint32_t tid;
    pend_t *q[2];
    size_t head[2], n[2], cap[2];
} pend_thread;

struct nvtx_state {
    pthread_mutex_t mu; /* everything below; taken after g.mu, never before */
    bool cupti_nvtx;    /* CUPTI's InitializeInjectionNvtx2 succeeded */
    nvp_registry reg;
    handle_name *strings, *domains;
    size_t nstrings, capstrings, ndomains, capdomains;
    uintptr_t next_handle; /* own handles for domains and strings (no CUPTI) */
    uint64_t next_schema;  /* dynamic schema ids we hand out */
    uint64_t next_id;      /* own range ids */
    pend_thread *threads;
    size_t nthreads, capthreads;
};
extern struct nvtx_state nv;

uint32_t self_tid(void);
bool own_mode(void);
bool nvtx_guard_only(void);
void map_put(handle_name **a, size_t *n, size_t *cap, const void *h, const char *s);
char *map_get(const handle_name *a, size_t n, const void *h);
void pend_add(uint32_t tid, uint64_t t, bool at_end, char *json, bool undecoded, char *name);
void pend_claim(open_range *o, uint32_t tid, uint64_t ts, bool at_end);
void pend_finish(void);

/* trace_main.c */
void setup_once(void);

/* trace_graph.c: which thread made each CUDA graph node, and when */
bool graph_setup(void); /* subscribes to CUPTI's graph node callbacks; false: not recorded */
void graph_drain(void); /* the queued node events into the file; g.mu held */
void graph_fork_child(void);

/* trace_nvtx_own.c */
bool read_attr(const nvtxEventAttributes_t *a, nvtxEventAttributes_t *out);
char *attr_message(const nvtxEventAttributes_t *a);
char *decode_ext(const void *domain, const nvtxPayloadData_t *pd, size_t count, bool *undecoded);
char *attr_ext(const void *domain, const nvtxEventAttributes_t *a, bool *has, bool *undecoded);
void own_open(const void *dom, bool is_push, uint64_t id, const nvtxEventAttributes_t *a,
              const char *ascii, char *ext, bool has_ext, bool undecoded);
void own_close(const void *dom, bool is_push, uint64_t id, char *ext, bool undecoded);
void own_mark(const void *dom, const nvtxEventAttributes_t *a, const char *ascii);
uint64_t next_own_id(void);

#endif
