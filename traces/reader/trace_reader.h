/* SPDX-License-Identifier: MIT */
/*
 * Streaming reader for commroof traces (traces/README.md, format version 1)
 * and, more loosely, any Chrome trace event JSON.
 *
 * The reader never holds the whole file: it scans the "traceEvents" array one
 * element at a time and parses each element alone (jansson, or for the usual
 * event shapes a faster parser that accepts exactly the same), so memory is
 * bounded by the largest event (CR_TRACE_MAX_EVENT_BYTES), not by the file. A
 * file cut short by a crash or kill of the traced program (no closing "]" or
 * "metadata") is read up to its last complete event and reported as
 * incomplete, not as an error. Malformed content is an error with
 * "file:line: ..." in the diagnostic.
 *
 * Typical use:
 *     cr_trace_reader *r = NULL;
 *     if (cr_trace_reader_open(path, &r, &d) != CR_OK) ...
 *     const cr_trace_event *ev;
 *     while ((st = cr_trace_reader_next(r, &ev, &d)) == CR_OK && ev) ...
 *     cr_trace_reader_info(r, &info);
 *     cr_trace_reader_free(r);
 */
#ifndef CR_TRACE_READER_H
#define CR_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest single event (or top-level value other than traceEvents) the
 * reader accepts, in bytes. Our tracer's events are under 2 KiB. */
#define CR_TRACE_MAX_EVENT_BYTES (1u << 20)

/* The trace format version this reader was written for (traces/README.md). */
#define CR_TRACE_FORMAT_VERSION 1

/* What an event records, from its "cat" (other tools' names are mapped too:
 * PyTorch profiler's "gpu_memcpy" is CR_TRACE_MEMCPY, for instance). */
typedef enum {
    CR_TRACE_OTHER = 0, /* metadata events, counters, unknown categories */
    CR_TRACE_KERNEL,
    CR_TRACE_MEMCPY,
    CR_TRACE_MEMSET,
    CR_TRACE_SYNC,
    CR_TRACE_NVTX,
    CR_TRACE_API, /* "cuda_api": a CUDA call that put work on a device (COMMROOF_TRACE_RECORD=api)
                   */
    CR_TRACE__COUNT
} cr_trace_cat;

/* Direction of a copy (args.kind): h2d, d2h, d2d, h2h, p2p; anything else
 * (array copies, unknown) is CR_COPY_OTHER; absent is CR_COPY_NONE. */
typedef enum {
    CR_COPY_NONE = 0,
    CR_COPY_H2D,
    CR_COPY_D2H,
    CR_COPY_D2D,
    CR_COPY_H2H,
    CR_COPY_P2P,
    CR_COPY_OTHER,
} cr_copy_kind;

/* One event. Fields that the event does not carry hold their "absent" value
 * (-1 for device, stream, src/dst device; 0 otherwise). Pointers are
 * borrowed: valid until the next cr_trace_reader_next() or _free(). */
/* The field of NCCL's NVTX payload schemas that holds a collective's message
 * size (NVIDIA/nccl src/include/nvtx_payload_schemas.h). */
#define CR_TRACE_NCCL_SIZE_FIELD "Message size [bytes]"

/* The name of a complete event ("ph":"X": a kernel, copy or range) that
 * has none (or ""), so that every table and message shows one. */
#define CR_TRACE_NO_NAME "(unnamed)"

typedef struct {
    char ph;             /* Chrome phase: 'X' complete, 'i' instant, 'M' metadata, ... */
    cr_trace_cat cat;    /* what it records */
    const char *name;    /* never NULL: "" when absent, CR_TRACE_NO_NAME for a complete event */
    const char *cat_str; /* the raw "cat" string, never NULL */
    int64_t pid, tid;    /* as in the file (pid = os pid x 100 + device for our traces) */
    double ts_s;         /* start, seconds, relative to the file's ts base */
    double dur_s;        /* duration, seconds (0 for instants and metadata) */
    int device;          /* CUDA device ordinal, -1 when host or unknown */
    int64_t stream;      /* CUDA stream id, -1 when unknown */
    /* kernel */
    unsigned grid[3], block[3]; /* 0 when absent */
    unsigned registers;         /* per thread */
    long long correlation;      /* args.correlation of a kernel, copy, memset or CUDA call: CUPTI's
                                   id tying an activity to the call that made it; -1 absent */
    long long graph_node;       /* args.graph_node of a kernel, copy or memset a CUDA graph ran:
                                   its node in the executable graph ("cuda_graph_node" events
                                   say who made it); 0 absent */
    double smem_static_bytes, smem_dynamic_bytes; /* per block */
    /* memcpy / memset */
    cr_copy_kind copy_kind;
    double bytes;                  /* bytes copied or set; 0 otherwise */
    int src_device, dst_device;    /* -1 = host or unknown; for other tools' copies that
                                      name only "device", set from the direction */
    const char *src_mem, *dst_mem; /* memory kinds: "pinned", "pageable", "device",
                                      "managed", "array", "unknown"; "" when absent
                                      (a memset's kind is in dst_mem) */
    /* nvtx */
    bool has_payload;
    double payload;     /* the range's scalar payload; for a decoded NVTX extended
                           payload (args.payload an object), its NCCL message size
                           (CR_TRACE_NCCL_SIZE_FIELD), also in bytes; the other
                           fields are in args, and so is a scalar payload beyond
                           +-2^53, which the tracer writes as a string */
    const char *domain; /* NVTX domain, NULL for the default one */
    /* everything else: the event's "args" object, or NULL */
    const json_t *args;
} cr_trace_event;

/* What the reader learnt about the file; complete after the last event. */
typedef struct {
    bool complete;            /* the closing "]" was read: the writer finished */
    bool has_metadata;        /* a top-level "metadata" object was read */
    uint64_t events;          /* events returned so far */
    uint64_t discarded_bytes; /* bytes of a partial last event (incomplete files) */
    bool dropped_known;       /* the file states its dropped-record count */
    uint64_t dropped_records; /* from metadata, else the last commroof_stats event */
    int format_version;       /* metadata.format_version, 0 when absent */
    int64_t ts_base_ns;       /* metadata.ts_base_ns, 0 when absent */
    long long os_pid;         /* metadata.os_pid, 0 when absent */
    char hostname[64];        /* metadata.hostname, "" when absent */
    bool recorded_known;      /* metadata.recorded was read: the writer says which
                                 device activities it recorded (COMMROOF_TRACE_RECORD) */
    unsigned recorded;        /* CR_TRACE_REC(cat) bits of those (kernel, memcpy,
                                 memset, sync); all of them when not known */
    int launch_blocking;      /* metadata.launch_blocking: 1 the process ran with
                                 CUDA_LAUNCH_BLOCKING=1 (each launch returned after its
                                 work, inside the range that made it), 0 without, -1 the
                                 file does not say (an older tracer, another tool) */
    int n_errors;             /* metadata.errors: problems the tracer met (CUPTI refused
                                 a kind, recorded nothing), 0 when none or absent */
    char first_error[240];    /* the first of them, "" when none */
} cr_trace_info;

/* The bit of category c in cr_trace_info.recorded. */
#define CR_TRACE_REC(c) (1u << (unsigned)(c))
/* The device activities a trace can leave out (COMMROOF_TRACE_RECORD);
 * NVTX ranges are always recorded. */
#define CR_TRACE_REC_DEVICE                                                                        \
    (CR_TRACE_REC(CR_TRACE_KERNEL) | CR_TRACE_REC(CR_TRACE_MEMCPY) |                               \
     CR_TRACE_REC(CR_TRACE_MEMSET) | CR_TRACE_REC(CR_TRACE_SYNC))
/* Those whose durations make up a range's device time (validate, roofline). */
#define CR_TRACE_REC_TIMED                                                                         \
    (CR_TRACE_REC(CR_TRACE_KERNEL) | CR_TRACE_REC(CR_TRACE_MEMCPY) | CR_TRACE_REC(CR_TRACE_MEMSET))

typedef struct cr_trace_reader cr_trace_reader;

/* Opens path for streaming (a regular file only: a FIFO, a directory or a
 * device is refused, never waited on). On success *out owns the file; free
 * it with cr_trace_reader_free(). Errors: CR_EIO (cannot open, not a
 * regular file; d says why), CR_ENOMEM.
 * Content errors come from cr_trace_reader_next(). */
cr_status cr_trace_reader_open(const char *path, cr_trace_reader **out, cr_diag *d);

/* Reads from an open stream the caller keeps owning (it must outlive the
 * reader); label names it in diagnostics (e.g. "<stdin>"). Errors: CR_ENOMEM. */
cr_status cr_trace_reader_open_stream(FILE *f, const char *label, cr_trace_reader **out);

/* Where cr_trace_reader_open_read() takes its bytes: read puts at most n
 * into buf and returns how many, 0 at the end of the input, -1 on an
 * error. */
typedef long (*cr_trace_read_fn)(void *ctx, void *buf, size_t n);

/* Reads what read(ctx, ...) gives, as it gives it (e.g. decompressed on the
 * fly: validate's .json.gz); ctx must outlive the reader. When read fails,
 * next() fails with CR_EIO ("<label>: read error"): the caller, who knows
 * ctx, may say why. label names the input in diagnostics. Errors:
 * CR_ENOMEM. */
cr_status cr_trace_reader_open_read(cr_trace_read_fn read, void *ctx, const char *label,
                                    cr_trace_reader **out);

/* Reads from memory (len bytes at data; not copied, must outlive the reader).
 * For tests and fuzzing. Errors: CR_ENOMEM. */
cr_status cr_trace_reader_open_mem(const void *data, size_t len, const char *label,
                                   cr_trace_reader **out);

/* Returns the next event in *ev, or *ev = NULL at the end (CR_OK). At the end
 * of a file cut short, the partial tail is skipped and info.complete is false.
 * Errors: CR_EPARSE (malformed JSON, or an event whose fields have the wrong
 * type; d has "file:line: ..."), CR_ERANGE (an event over
 * CR_TRACE_MAX_EVENT_BYTES, a negative duration), CR_EIO, CR_ENOMEM. After an
 * error the reader only returns that error again. */
cr_status cr_trace_reader_next(cr_trace_reader *r, const cr_trace_event **ev, cr_diag *d);

/* Fills *info with what is known so far (all of it once next() returned the
 * end). */
void cr_trace_reader_info(const cr_trace_reader *r, cr_trace_info *info);

/* The top-level "metadata" object (borrowed; NULL until read, or when the
 * file has none: a truncated file never has one). */
const json_t *cr_trace_reader_metadata(const cr_trace_reader *r);

/* The devices' property objects (borrowed JSON array, possibly empty): from
 * the "commroof_device" metadata events seen so far, replaced by
 * metadata.devices once that is read. */
const json_t *cr_trace_reader_devices(const cr_trace_reader *r);

/* Closes the reader (and the file if it opened it). NULL is a no-op. */
void cr_trace_reader_free(cr_trace_reader *r);

/* The lower-case word for a copy kind ("h2d", ..., "other", "none"). */
const char *cr_copy_kind_name(cr_copy_kind k);

/* The word for a category ("kernel", "memcpy", ..., "other"). */
const char *cr_trace_cat_name(cr_trace_cat c);

/* The categories of CR_TRACE_REC bits, as words in one order ("memcpy,
 * memset"; "" for none) into buf; returns buf. */
const char *cr_trace_rec_words(unsigned bits, char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
