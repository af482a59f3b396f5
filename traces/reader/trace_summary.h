/* SPDX-License-Identifier: MIT */
/*
 * Summary of one trace: kernels grouped by name (sorted by total time),
 * copies and memsets grouped by direction and devices (sorted by bytes), and
 * NVTX ranges with a message size (NCCL's calls) by name and size, read
 * in one streaming pass with the trace reader. Used by `commroof trace`.
 */
#ifndef CR_TRACE_SUMMARY_H
#define CR_TRACE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "trace_reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kernels of one name. Times in seconds. */
typedef struct {
    char *name; /* owned by the summary */
    uint64_t calls;
    double total_s, min_s, max_s;
} cr_trace_kernel_stat;

/* Copies (or memsets) of one kind between one pair of devices. */
typedef struct {
    bool memset;                   /* a memset group; kind is CR_COPY_NONE then */
    cr_copy_kind kind;             /* copy direction */
    int src_device, dst_device;    /* -1 = host or unknown */
    char src_mem[16], dst_mem[16]; /* memory kinds as in cr_trace_event ("" absent) */
    uint64_t count;
    double bytes;   /* total bytes */
    double total_s; /* total time, seconds */
} cr_trace_copy_stat;

/* NVTX ranges of one name and one message size: NCCL's calls, whose size the
 * tracer decodes from NCCL's NVTX payloads (traces/README.md). Times are the
 * ranges' host-side durations (the API call), not the GPU's. */
typedef struct {
    char *name; /* owned by the summary */
    double bytes;
    uint64_t calls;
    double total_s;
} cr_trace_nvtx_size_stat;

#define CR_TRACE_NVTX_SIZE_GROUPS_MAX 4096 /* more (name, size) pairs are counted only */

typedef struct {
    cr_trace_info info;                             /* completeness and dropped records */
    uint64_t kernels, copies, memsets, syncs, nvtx; /* event counts by category */
    uint64_t other;                                 /* metadata and unknown events */
    double kernel_s;                                /* sum of kernel durations, seconds */
    double span_s;                      /* first start to last end of timed events, seconds */
    cr_trace_kernel_stat *kernel_stats; /* sorted by total_s, descending */
    size_t n_kernel_stats;
    cr_trace_copy_stat *copy_stats; /* sorted by bytes, descending */
    size_t n_copy_stats;
    cr_trace_nvtx_size_stat *nvtx_sizes; /* sorted by name, then bytes */
    size_t n_nvtx_sizes;
    uint64_t nvtx_sized;           /* NVTX ranges with a message size */
    uint64_t nvtx_sizes_ungrouped; /* ... beyond CR_TRACE_NVTX_SIZE_GROUPS_MAX groups */
    size_t n_devices;              /* devices described in the trace */
    /* private */
    size_t cap_kernel_, cap_copy_, cap_nvtx_, *index_;
    size_t index_cap_;
    double first_ts_, last_end_;
} cr_trace_summary;

/* Reads the trace at path (.json, or .json.gz: trace_file.h) and
 * summarises it into a new *out (free with
 * cr_trace_summary_free). A file cut short is summarised up to its last
 * complete event (out->info.complete is false). Errors: those of the reader
 * (CR_EIO, CR_EPARSE, CR_ERANGE, CR_EUNSUPPORTED; CR_EIO too for a corrupt
 * or truncated gzip stream) with d filled; CR_ENOMEM. */
cr_status cr_trace_summarize(const char *path, cr_trace_summary **out, cr_diag *d);

/* The same from an open reader (read to its end; the reader stays the
 * caller's). */
cr_status cr_trace_summarize_reader(cr_trace_reader *r, cr_trace_summary **out, cr_diag *d);

/* The short form of a demangled C++ kernel name: template arguments and
 * the parameter list left out, and the return type before the name,
 * "void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)" ->
 * "at::native::vectorized_elementwise_kernel" ("(anonymous namespace)" is
 * kept). A name that is not C++ (nvjet_..., a mangled one) comes back as
 * it is. Writes at most size bytes (NUL included) into buf; returns buf. */
char *cr_trace_short_name(const char *name, char *buf, size_t size);

/* Gives every kernel group of s its short name (cr_trace_short_name),
 * merges the groups whose short names are the same and sorts them again by
 * total time. Errors: CR_ENOMEM (s is unchanged). */
cr_status cr_trace_summary_shorten(cr_trace_summary *s);

/* Frees a summary; NULL is a no-op. */
void cr_trace_summary_free(cr_trace_summary *s);

#ifdef __cplusplus
}
#endif

#endif
