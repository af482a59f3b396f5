/* SPDX-License-Identifier: MIT */
/*
 * validate: model against measurement.
 *
 * Measurements come from commroof traces of the kernels/ microbenchmarks
 * (crbench) and from nccl-tests output logs. Each crbench case runs inside
 * one NVTX range named "cr:<family> key=value ..." (doc/validation.md); the
 * GPU activities (kernels, copies, memsets) inside the range's time window,
 * in the same process, are the case's work. The range's `iters` key says how
 * many timed iterations it holds; the activities are split into that many
 * consecutive groups per device and
 *
 *   measured = median over i of (last end - first start of iteration i)
 *
 * the device time of one iteration over every device of the case (what the
 * GPU spent; the host's launch cost is not in it). Launch cases measure the
 * launch itself: the median start-to-start spacing of consecutive
 * iterations (per kernel for graphs). With one iteration, or a range
 * without activities (host-side waits), the range's duration divided by
 * `iters`.
 *
 * Each measurement is matched to its model case: hbm -> ops elementwise,
 * ce -> ops memcpy, mech -> ops memcpy d2d (bound) and ops' SM copy by
 * mechanism and SM count, or the copy engine (prediction), gemm -> ops
 * gemm, launch -> ops' launch constants (prediction only: there is no bound
 * on a launch), nccl and p2p -> coll (bound and prediction of the
 * collective, or of a custom kernel on the named mechanism). The result
 * carries bound, attainable bound (from measured ceilings where the
 * topology has them), prediction, % of roofline and the prediction error.
 *
 * fused -> ops' ag_gemm, gemm_rs, gemm_ar: measured = the span of every
 * device's activities in the range / iters (the overlapped variant's
 * kernels of consecutive iterations interleave across streams, so they
 * cannot be split by count); bound = ops' bound; prediction = ops'
 * baseline for variant=baseline and the chunked-overlap model below for
 * variant=overlap, each no faster than the host can issue the work when
 * one process drives every GPU of the case (doc/validation.md).
 *
 * One process per GPU (torchrun, mpirun): each rank's trace holds its own
 * share of a case; cr_validate_merge_ranks() combines them (per iteration,
 * the last end less the last rank's start).
 *
 * A measured time below the bound is a violation: the kernel, its timing or
 * the bound is wrong.
 */
#ifndef CR_VALIDATE_H
#define CR_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Families of cases (the word after "cr:"). */
typedef enum {
    CR_VFAM_HBM,    /* HBM streaming kernels: read, write, copy, triad */
    CR_VFAM_CE,     /* copy engine: d2d, h2d, d2h; pinned or pageable */
    CR_VFAM_MECH,   /* one-GPU copy by mechanism (ldst, tma, ce) and SM count */
    CR_VFAM_GEMM,   /* cuBLASLt GEMM */
    CR_VFAM_LAUNCH, /* launch and synchronisation overheads */
    CR_VFAM_NCCL,   /* NCCL collectives (crbench or nccl-tests) */
    CR_VFAM_P2P,    /* GPU-to-GPU copies by mechanism */
    CR_VFAM_FUSED,  /* fused multi-GPU operators (ag_gemm, gemm_rs, gemm_ar) */
    CR_VFAM__COUNT
} cr_vfam;

/* "hbm", "ce", ...; "?" out of range. */
const char *cr_vfam_name(cr_vfam f);

#define CR_VCASE_MAX_KEYS 24

/* A parsed case name "cr:<family> key=value key=value ...". */
typedef struct {
    cr_vfam family;
    int n_keys;
    struct {
        char key[24];
        char value[40];
    } kv[CR_VCASE_MAX_KEYS];
} cr_vcase;

/* Parses a case name. Keys are [a-z0-9_]+, values non-empty without spaces;
 * a key appears once. Errors: CR_EPARSE (not "cr:" + a known family, a
 * malformed pair, a duplicate key, too many keys, a key or value too long),
 * with the reason in d. */
cr_status cr_vcase_parse(const char *name, cr_vcase *out, cr_diag *d);

/* Whether an NVTX range name is a call of a catalog operator,
 * "cr:<op> key=value ..." with <op> one cr_op_find() knows (what
 * commroof_nvtx.h and commroof_nvtx.py open), rather than a crbench case
 * validate reads: a family's range with iters= that, where the family is
 * also a catalog operator (gemm), declares its work (rd_bytes=, wr_bytes=
 * or flops=, as crbench writes in every case). In both, iters=N says the
 * range holds N repetitions (N calls); a catalog call without it is one.
 * validate skips catalog calls; roofline reads them. false for NULL. */
bool cr_vcase_is_catalog_call(const char *name);

/* The value of key (borrowed), or NULL. */
const char *cr_vcase_get(const cr_vcase *c, const char *key);

/* The value of key as a finite number. Errors: CR_ENOTFOUND (absent),
 * CR_EPARSE (not a number), each with the key and case in d. */
cr_status cr_vcase_num(const cr_vcase *c, const char *key, double *out, cr_diag *d);

/* One measured case. */
typedef struct {
    cr_vcase c;
    char label[96];   /* short human name: "copy 1GiB", "bf16 8192x8192x8192" */
    char source[128]; /* "file.json" or "file.log:12" */
    int rank;         /* process rank (trace metadata or case key), -1 unknown */
    double measured_s;
    int samples;         /* iterations that make up the median */
    int activities;      /* GPU activities found in the range (0 for logs) */
    bool host_timed;     /* measured from the range (no activities) */
    bool loop_timed;     /* nccl-tests: its host-timed loop of back-to-back operations,
                            divided by their count (cr_coll_req host_loop) */
    double act_median_s; /* median duration of one activity in the range (0: none) */
    int devices;         /* distinct GPUs with activities in the range (one process) */
    /* The job the trace belongs to (trace metadata; rank also from a
     * ".rank<R>" / "-rank<R>" file name): */
    int world_size;     /* processes of the job, -1 unknown */
    char host[64];      /* metadata.hostname, "" unknown */
    char gpu[48];       /* the GPU measured, "" unknown: nccl-tests, the one its rank lines
                           name; traces, metadata.devices[].name of the case's (first)
                           device */
    int64_t ts_base_ns; /* metadata.ts_base_ns: aligns the ranks' clocks */
    /* Per iteration (device time split by iters, not launch or fused
     * cases): start and last end over the process's devices (an NCCL case
     * on several devices starts at the last device's start), seconds
     * from ts_base_ns, at iter_s[iter_off + i] and
     * iter_s[iter_off + n_iter + i] of the list (an index, so copies of a
     * cr_vmeas own nothing); n_iter 0 when absent. */
    int n_iter;
    size_t iter_off;
    int ranks_merged;     /* > 1: measured over that many ranks' traces */
    double first_start_s; /* merged, or NCCL on several devices: median of
                             (last end - first start) */
    char note[112];       /* e.g. a rank of a multi-process job alone */
    /* nccl-tests logs: where the collective and the rank count came from
     * (cr_validate_read_nccl_tests); "" otherwise. */
    char coll_source[12];   /* "log", "--coll", "file name" */
    char nranks_source[12]; /* "rank lines", "devices" (JSON), "busbw/algbw", "--ranks" */
} cr_vmeas;

/* A growable list of measurements. Zero-initialise; release with
 * cr_vmeas_list_release(). */
typedef struct {
    cr_vmeas *v;
    size_t n, cap;
    double *iter_s; /* per-iteration times of the measurements (see n_iter) */
    size_t iter_n, iter_cap;
    /* nccl-tests logs: tables of tests that are not a collective commroof
     * models (hypercube_perf), left out, and the first one's place and name */
    int nccl_tables_skipped;
    char nccl_skip_why[160];
} cr_vmeas_list;

void cr_vmeas_list_release(cr_vmeas_list *l);

/* Reads a commroof trace (.json, or gzip-compressed when the path ends in
 * ".gz") and appends one measurement per "cr:" range.
 * Ranges whose name does not parse, or whose activities cannot be split
 * into `iters` groups, are reported through *n_skipped (may be NULL) with
 * the first reason in skip_why (may be NULL, size skip_why_size) and not
 * appended. Errors: those of the trace reader (CR_EIO, CR_EPARSE, ...),
 * CR_ENOMEM; d says what and where. */
cr_status cr_validate_read_trace(const char *path, cr_vmeas_list *out, int *n_skipped,
                                 char *skip_why, size_t skip_why_size, cr_diag *d);

/* What cr_validate_merge_ranks() did. */
typedef struct {
    int merged;     /* cases now measured over several ranks */
    int ranks_max;  /* the most ranks combined into one case */
    int rank_alone; /* cases of a multi-process job with ranks missing */
} cr_vmerge_info;

/* Combines the traces of one multi-process run (one process per GPU, each
 * rank traced into its own file): measurements of the same case (the same
 * "cr:" name but for its rank key, the same iteration count, the same
 * host and job size) from different ranks, matched by order of occurrence
 * per rank, become one whose iteration i takes
 *
 *   max over ranks of the last end - max over ranks of the first start
 *
 * (the collective's cost once the last rank arrived; each rank's own span
 * includes waiting for the others), clocks aligned by ts_base_ns, and
 * measured_s = their median; first_start_s keeps the alternative (from the
 * first rank's start). The merged entry takes the first one's place with
 * rank -1, ranks_merged = the count and both sources; the others are
 * removed. A rank of a multi-process job whose peers are missing keeps its
 * per-rank figure and gets a note.
 * Hosts' clocks are not comparable: ranks on different hosts are not
 * merged. info may be NULL. Errors: CR_ENOMEM (the list is unchanged);
 * CR_EINVAL with d naming the files: shares that do not overlap in time
 * (not one run), a rank at or beyond its job's size, or one rank of a job
 * in two files (one left unpaired). */
cr_status cr_validate_merge_ranks(cr_vmeas_list *l, cr_vmerge_info *info, cr_diag *d);

/* The rank in a trace file name: "<...>.rank<R>.json", "...-rank<R>.json.gz"
 * ('.', '-' or '_' before "rank", '.', '-', '_' or the end after the digits);
 * -1 when there is none. */
int cr_validate_rank_from_name(const char *path);

/* What cr_validate_read_path() read; it adds to the figures (zero it once
 * before the first call). */
#define CR_VREAD_SEEN_MAX 512

typedef struct {
    int files;                 /* trace files read */
    int skipped;               /* ranges skipped (cr_validate_read_trace's n_skipped) */
    char why[256];             /* the first skipped range's reason */
    int skipped_catalog;       /* of those, calls of a catalog operator
                                  (cr_vcase_is_catalog_call), which roofline reads */
    char why_other[256];       /* the first reason among the skipped ranges that are not
                                  such calls (what roofline reports) */
    int not_traces;            /* files of a folder that could not be read as traces */
    char not_trace_why[320];   /* the first of them: the reader's message */
    int incomplete;            /* traces that end before their closing bracket (the
                                  traced process was killed, or the file was cut) */
    char incomplete_path[256]; /* the first of them */
    int unrecorded;            /* traces whose writer left out kernels, copies or memsets
                                  (metadata.recorded, COMMROOF_TRACE_RECORD): ranges
                                  that launched those lack them */
    unsigned unrecorded_kinds; /* the kinds left out, over those traces (CR_TRACE_REC bits) */
    char unrecorded_what[40];  /* the same as words ("memcpy, memset") */
    char unrecorded_path[256]; /* the first of them */
    /* the files read so far (device and inode), so that one given twice,
     * or given and inside a folder also given, is refused instead of
     * counted twice; the first CR_VREAD_SEEN_MAX files are checked */
    struct {
        unsigned long long dev, ino;
    } seen[CR_VREAD_SEEN_MAX];
    int n_seen;
    /* the traces read so far by what their tracer wrote (metadata hostname,
     * os_pid, ts_base_ns): a copy of one under another name is refused too;
     * host_hash is the hostname's FNV-1a hash */
    struct {
        long long ts_base_ns, os_pid;
        unsigned long long host_hash;
    } ids[CR_VREAD_SEEN_MAX];
    int n_ids;
} cr_vread_info;

/* cr_validate_read_trace() for a file, or for every *.json and *.json.gz
 * of a folder in name order (not its subfolders; hidden files, a leading
 * '.', left out: the one rule of every command that gathers traces, plot
 * and report included). A file named by path
 * must be a trace; a folder's file that is not one (another tool's JSON
 * beside the traces: no first event reads) is counted in info->not_traces
 * with the reader's message and left out, so that the caller can report
 * it, while one that starts as a trace and fails further on (a negative
 * duration, a .json.gz cut short) fails the reading as a named file does. Errors: CR_EIO for a
 * folder that cannot be read or holds no trace file that reads, CR_ENOMEM, CR_EDUPLICATE for a file
 * read before through info (given twice, inside a folder also given, or a copy under another name:
 * the same hostname, os_pid and ts_base_ns), and for a file those of cr_validate_read_trace(). */
cr_status cr_validate_read_path(const char *path, cr_vmeas_list *out, cr_vread_info *info,
                                cr_diag *d);

/* What the nccl-tests log reader (validate/nccl_log.c) takes from its
 * caller when the log does not say (`--coll`, `--ranks` of validate and
 * calibrate). Zero-initialised: nothing. */
typedef struct {
    /* The collective of tables whose log has no "# Collective test
     * starting: <name>_perf" line: any name cr_coll_parse() takes, or an
     * nccl-tests binary name ("all_reduce", "all_reduce_perf",
     * "all_reduce_perf_mpi"). It wins over the file name; a log line that
     * names another collective is an error. NULL: none. */
    const char *coll;
    /* The rank count of tables whose rank count neither the "#  Rank"
     * lines nor the rows' busbw/algbw ratio tell (broadcast, reduce and
     * sendrecv print busbw = algbw whatever the count). 0: none. */
    int nranks;
    /* The NCCL release (NCCL_VERSION_CODE, 22304 = 2.23.4; coll.h
     * cr_nccl_version_parse) of tables whose log prints none (nccl-tests'
     * "nccl-library=" or NCCL's own "NCCL version" line); 0: none (the
     * model's coll.nccl_version). */
    int nccl_version;
    /* The run's NCCL_ALGO and NCCL_PROTO (as NCCL reads them: "Ring",
     * "^NVLS", "allreduce:tree;allgather:ring"; coll.h
     * cr_nccl_select_parse), which a log does not print: the prediction
     * chooses among what they leave NCCL. NULL: NCCL's defaults. */
    const char *nccl_algo, *nccl_proto;
    /* GPUs one host thread drives (nccl-tests -g G) in tables whose log
     * shows neither its "# nThread T nGpus G" line nor rank lines (which
     * say it themselves); 0: one, a process per GPU, with a note on each
     * row of a multi-rank table that it was taken, not read. */
    int gpus_per_thread;
} cr_nccl_log_opts;

/* The collective named by s as cr_nccl_log_opts.coll takes it (commroof's
 * name, "allreduce"), or NULL with the reason in d (CR_ENOTFOUND). */
const char *cr_nccl_log_coll(const char *s, cr_diag *d);

/* Whether the GPU an nccl-tests log's rank lines name (cr_vmeas gpu:
 * "NVIDIA A100-SXM4-40GB") is another part than topology t's GPU models:
 * both reduced to a part number (A100, H100, GH200, B200, MI300X, ...);
 * false where either names none. True with "the log's part, t's part" in
 * why. */
bool cr_nccl_log_gpu_differs(const cr_topo *t, const char *log_gpu, char *why, size_t n);

/* The part number in a GPU's name ("NVIDIA H200" -> "H200", "NVIDIA
 * A100-SXM4-40GB" -> "A100", a GB200's GPU -> "B200"; MI300X, TPU, ...):
 * borrowed, static; NULL where the name holds none commroof knows. */
const char *cr_validate_gpu_part(const char *name);

/* Whether the GPU gpu (a device name: a trace's metadata.devices[].name,
 * an nccl-tests rank line's) is another part than every GPU model of
 * topology t (cr_validate_gpu_part of each); false where either names none.
 * True with "H200 (\"NVIDIA H200\"), topology T has A100" in why. */
bool cr_validate_gpu_differs(const cr_topo *t, const char *gpu, char *why, size_t n);

/* One GPU model a trace file ran device activities on. */
typedef struct {
    char path[512]; /* the trace file */
    char gpu[48];   /* its metadata.devices[].name for the activities' device */
} cr_vtrace_gpu;

/* The GPU models the trace files of paths[0..n) (files or folders, read as
 * cr_validate_read_path reads them) ran kernels, copies and memsets on:
 * one entry per file and model, in reading order, into *out (free() it;
 * NULL when none), their count into *n_out. A file whose metadata names no
 * device gives none. `roofline` and `report --trace` hold each against the
 * topology (cr_validate_gpu_differs) as validate holds its cases. Errors:
 * those of cr_validate_read_path. */
cr_status cr_validate_trace_gpus(const char *const *paths, int n, cr_vtrace_gpu **out,
                                 size_t *n_out, cr_diag *d);

/* Reads an nccl-tests (or rccl-tests) output log, as people publish it,
 * and appends one measurement per size row (out-of-place time). The log
 * may carry launcher prefixes on every line ("0: " of srun -l,
 * "[1,0]<stdout>:" of mpirun --tag-output, also inside a row), lack the
 * '#' of its header lines, hold NCCL_DEBUG output between and inside rows
 * (a row cut by a debug message and continued on a later line is joined),
 * and several runs one after the other (each "# nThread" line starts one).
 *
 * The collective comes from the log ("Collective test starting:
 * all_reduce_perf"), else o->coll, else the file name (label); each
 * measurement's coll_source says which ("log", "--coll", "file name").
 * The rank count from the "#  Rank" lines (max rank + 1); where there are
 * none, or the list is shortened (an excerpt: busbw/algbw says more), from
 * the rows' busbw/algbw ratio (nccl-tests' factor: allreduce 2(n-1)/n;
 * allgather, reducescatter, alltoall, gather, scatter (n-1)/n), every
 * row's printed figures with their rounding, one rank count that fits
 * them all; else o->nranks; nranks_source says which ("rank lines",
 * "busbw/algbw", "--ranks"). o may be NULL.
 * A file that starts with '{' is the JSON nccl-tests -J FILE.json writes
 * (validate/nccl_json.c): its "results" are the rows (each one's source
 * "file.json:results[N]"), "args" names the collective, "devices" and
 * "config" the rank count, "nccl_version" the release; the rest as for a
 * log.
 * Errors: CR_EIO, CR_EPARSE ("file:line: ..." when a row is malformed, the
 * collective cannot be told or contradicts --coll, or the rank count
 * cannot be told: the message says what to give), CR_ENOMEM; on error the
 * list is as it was. */
cr_status cr_validate_read_nccl_tests(const char *path, const cr_nccl_log_opts *o,
                                      cr_vmeas_list *out, cr_diag *d);

/* The most result rows one log (or JSON file) may hold: an nccl-tests
 * sweep has tens to a few thousand (-i 8 from 0 to 10 KB: 1,300); each row
 * becomes a case of about 2 KB, so a bound keeps a runaway or hostile
 * file from taking gigabytes. More is CR_ERANGE, naming the limit. */
#define CR_NCCL_LOG_MAX_ROWS 100000

/* After cr_validate_read_nccl_tests(path, ..., l, ...): CR_EPARSE with why
 * in d when the log added nothing to l (l->n still `before`): only tables
 * of tests commroof does not model (l->nccl_tables_skipped grew past
 * `skipped_before`), or no result row at all; CR_OK when it added rows. The
 * one message every command that reads a log for its rows gives. */
cr_status cr_validate_nccl_log_gave_rows(const char *path, const cr_vmeas_list *l, size_t before,
                                         int skipped_before, cr_diag *d);

/* After reading several logs into l (their rows from index `from` on):
 * CR_EPARSE, naming both places, when a table of one log repeats rows of a
 * table of another row for row (the same collective and rank count, two
 * rows or more of the same sizes and times): the same run given twice,
 * under two names or pasted into another file, whose rows would count
 * twice. A log's repeats of its own tables are cr_validate_read_nccl_tests'
 * error. Errors: CR_EPARSE, CR_ENOMEM. */
cr_status cr_validate_nccl_logs_distinct(const cr_vmeas_list *l, size_t from, cr_diag *d);

/* The same from an open stream the caller keeps owning; label names it in
 * diagnostics and in each measurement's source, and stands for the file name
 * when the log does not name its collective. */
cr_status cr_validate_read_nccl_tests_stream(FILE *f, const char *label, const cr_nccl_log_opts *o,
                                             cr_vmeas_list *out, cr_diag *d);

/* Model figures for one measurement. Times in seconds; 0 when absent. */
typedef struct {
    bool has_bound;
    double bound_s;      /* warm: the strict limit (doc/bounds.md 1.4) */
    double bound_cold_s; /* cold: HBM only (equal to bound_s where no cache term applies) */
    double attainable_s; /* bound from measured ceilings; 0 when none */
    char binding[64];
    bool has_pred;
    double pred_s;
    char impl[48];               /* the implementation predicted: "ring/simple", "ldst 16 SMs" */
    bool timed;                  /* measured > 0: pct_of_roofline and error_pct are defined */
    double pct_of_roofline;      /* bound / measured x 100 */
    double pct_of_roofline_cold; /* bound_cold / measured x 100 */
    double error_pct;            /* (pred - measured) / measured x 100 */
    bool violation;              /* measured < bound; for a case that declares cache=cold
                                    (its data out of the caches each iteration: crbench's
                                    rotating sets), measured < bound_cold */
    bool cache_resident;         /* bound <= measured < bound_cold on a case not declared cold:
                                    the data stayed in the L2; not a violation */
    bool held_cold;              /* the case declares its data cold (cache=cold): it is held
                                    to bound_cold_s, as check --cold holds a kernel (the
                                    violation above, and roofline's verdict and calls) */
    bool beats_attainable;       /* measured < attainable: the topology's measured
                                    ceilings are stale (recalibrate); not a violation */
    char note[160];              /* why a figure is absent, or a warning */
} cr_vresult;

/* The bound r's case is held to: bound_cold_s where it declares its data
 * cold (held_cold), else bound_s (the violation's, roofline's verdict's
 * and the FAILED line's). */
static inline double cr_vresult_held_s(const cr_vresult *r)
{
    return r->held_cold ? r->bound_cold_s : r->bound_s;
}

/* The collective contexts (coll.h cr_coll_ctx: cuts, latencies, NCCL's
 * graph figures) that cr_validate_eval built, kept for the next cases of
 * the same topology and rank set: building one is a search of the whole
 * topology (0.15 s on 32,768 GPUs), evaluating one a size is O(cuts), and
 * the rows of a log or the calls of a trace share a few rank sets. A cache
 * holds the contexts of the topologies it was used with: free it before
 * them. The same figures with or without one. */
typedef struct cr_validate_cache cr_validate_cache;

/* A new empty cache; NULL when out of memory. Free with
 * cr_validate_cache_free. */
cr_validate_cache *cr_validate_cache_new(void);

/* Frees c and its contexts; NULL is a no-op. */
void cr_validate_cache_free(cr_validate_cache *c);

/* How many contexts c built (each lookup that found none kept). */
long cr_validate_cache_builds(const cr_validate_cache *c);

/* Options of the comparison. */
typedef struct {
    const char *ranks;        /* rank set for multi-GPU cases (NULL: the first n) */
    cr_validate_cache *cache; /* contexts kept between calls (NULL: none kept) */
} cr_validate_opts;

/* Evaluates the model for m on topology t. A case the model does not cover
 * is not an error: has_bound/has_pred are false and note says why. Errors:
 * CR_EINVAL (the case lacks a key its family needs, or carries a value the
 * model rejects; d says which), CR_ENOMEM. */
cr_status cr_validate_eval(const cr_topo *t, const cr_vmeas *m, const cr_validate_opts *o,
                           cr_vresult *out, cr_diag *d);

/* The chunked-overlap schedule of a fused GEMM + collective (validate/
 * fused.c): the rows in `chunks` pieces, GEMMs on one stream, collectives
 * on a second; comm_first (ag_gemm): the collective of piece j comes
 * before the GEMM of piece j, which waits for it; otherwise (gemm_rs,
 * gemm_ar) the collective of piece j waits for the GEMM of piece j. While
 * both streams run, the GEMM progresses at 1/gemm_slow and the collective
 * at 1/coll_slow of their solo rates (they share SMs and HBM). */
typedef struct {
    int chunks;
    bool comm_first;
    double gemm_s;    /* one piece's GEMM alone, seconds */
    double coll_s;    /* one piece's collective alone, seconds */
    double gemm_slow; /* >= 1 */
    double coll_slow; /* >= 1 */
} cr_vfused_pipe;

/* Makespan in seconds of the schedule p (an exact event simulation of the
 * two streams with piecewise-constant rates). Returns NaN when chunks < 1,
 * a time is negative or not finite, or a slowdown is below 1. */
double cr_vfused_pipeline_s(const cr_vfused_pipe *p);

/* Shared slowdown of a GEMM and an NCCL collective running at once on the
 * same GPU (both ways): fitted on the 8192^3 overlap cases of
 * traces/nvidia-h200-x2/fused.json.gz (tools/fit_fused.py), held out on
 * 4096^3; topology parameter "fused.overlap.slow". Refitted 2026-12-01 at
 * 7f87c06 (1.585 before): ops' GEMM predictions of the pieces had changed
 * since the first fit, and the same least squares now lands at 1.615. */
#define CR_VFUSED_SLOW 1.615
/* Host time to issue one step (one cuBLASLt GEMM and one NCCL call with its
 * event record/wait) for one GPU when a single thread drives them all:
 * the host-bound 1024^3 baseline gemm_rs and gemm_ar cases of the same
 * trace (47.9 and 47.1 us per iteration for 2 GPUs); topology parameter
 * "fused.host.step". */
#define CR_VFUSED_HOST_STEP_S 23.75e-6

/* Summary of one family (or of all). */
typedef struct {
    int cases;
    int with_pred;
    double median_abs_err_pct;
    double p90_abs_err_pct;
    double max_abs_err_pct;
    int violations;
    int beats_attainable; /* cases faster than the measured-ceiling bound */
} cr_vsummary;

/* Summarises results r[0..n) of measurements l: out[f] per family, *all
 * over everything. Errors: CR_ENOMEM. */
cr_status cr_validate_summarize(const cr_vmeas_list *l, const cr_vresult *r,
                                cr_vsummary out[CR_VFAM__COUNT], cr_vsummary *all);

/* The median and p-th percentile (p in [0, 100], nearest rank) of v[0..n),
 * which this sorts. 0 when n = 0. */
double cr_validate_percentile(double *v, size_t n, double p);

/* Calibration: measured ceilings and mechanism parameters from measurements.
 * Fills what the measurements support (0 / false otherwise). */
typedef struct {
    double hbm_Bps;        /* best large (>= 256 MiB) HBM kernel, read + written bytes */
    double hbm_typ_Bps;    /* median of those large HBM cases (what ops.hbm.eff predicts) */
    double l2_Bps;         /* best L2-resident stream kernel (hbm cases cache=warm whose
                              arrays total at most 32 MiB), read + written bytes */
    double gemm_typ_eff;   /* median fraction of peak of large (>= 4096^3) bf16 GEMMs */
    double flops[16];      /* best GEMM rate per cr_dtype (index), FLOP/s */
    double h2d_pinned_Bps; /* best large (>= 64 MiB) copy-engine rates */
    double d2h_pinned_Bps;
    double h2d_pageable_Bps;
    double d2h_pageable_Bps;
    double launch_s;    /* median start-to-start of back-to-back empty kernels (host rate) */
    double kernel_s;    /* median device time of one empty kernel */
    double sync_s;      /* launch + stream synchronize round trip */
    double graph_s;     /* start-to-start of kernels replayed from a CUDA graph */
    double event_s;     /* event record + synchronize */
    double ldst_sm_Bps; /* one SM's copy rate with 16-byte loads/stores (1 SM case) */
    double tma_sm_Bps;  /* one SM's copy rate with TMA bulk copies */
    /* The stream-kernel model of ops (model/ops.c): medians of the large
     * (>= 256 MiB) read, write and copy cases, bytes moved per second; the
     * fixed device time of a kernel (small writes less their bytes at the
     * write rate), the extra of a kernel that reads (small copies) and of
     * one that only reads (small reads: the reduction's tail). */
    double hbm_rd_Bps, hbm_wr_Bps, hbm_copy_Bps;
    double kernel_fixed_s, read_lat_s, reduce_s;
    double ce_d2d_Bps;        /* median large (>= 256 MiB) copy-engine d2d, read + written */
    double gemm_mem_Bps;      /* median HBM rate of memory-bound 16-bit GEMMs (m or n <= 16) */
    double pageable_Bps[3];   /* [1] h2d, [2] d2h: median pageable rate >= 64 MiB */
    double pageable_c_Bps[3]; /* the same for 4-16 MiB (the host's caches) */
    double ldst_fixed_s;      /* fixed device time of an SM copy (smallest size, >= 8 SMs) */
    double tma_fixed_s;
    /* GPU-to-GPU copies (p2p family), indexed by cr_mech (ce, tma, ldst): */
    double p2p_Bps[3];     /* best rate of a large (>= 256 MiB) copy, any SM count */
    double p2p_sm1_Bps[3]; /* best rate of a large (>= 64 MiB) copy from one SM */
    double p2p_small_s[3]; /* best device time of the smallest message measured */
    double p2p_small_bytes[3];
    int n_used; /* measurements that contributed */
} cr_vcalib;

/* Derives calibration figures from l. */
void cr_validate_calibrate(const cr_vmeas_list *l, cr_vcalib *out);

/* Writes cal into t: measured HBM bandwidth and FLOP/s into every GPU model
 * (meas_hbm_Bps, meas_flops: the best case, a ceiling; ops derives the
 * GEMM per-tile efficiency per dtype from them), and ops' parameters
 * (typical figures, what predictions need; model/ops.c): "ops.hbm.eff"
 * (median large HBM case / peak), "ops.hbm.read_eff", "ops.hbm.write_eff",
 * "ops.hbm.turn" (the copy's extra time per byte, as a multiple of peak),
 * "ops.kernel.fixed", "ops.hbm.read_lat", "ops.hbm.reduce_tail",
 * "ops.gemm.mem_eff",
 * "ops.ce.d2d_eff", "ops.pcie.eff", "ops.pageable.h2d", "ops.pageable.d2h",
 * "ops.pageable.cached_h2d", "ops.pageable.cached_d2h", "ops.launch.host"
 * (host start-to-start of back-to-back launches), "ops.launch.sync",
 * "ops.launch.graph", "ops.launch.event", "ops.ldst.sm_bw",
 * "ops.tma.sm_bw" (one SM's local copy rate), "ops.ldst.fixed",
 * "ops.tma.fixed", and for the record "calib.kernel" (an empty kernel's
 * device time), with `source` as their source. With p2p
 * measurements and a topology of two or more GPUs, coll's mechanism
 * parameters (params.h) for the link between GPU ranks 0 and 1:
 * "mech.<m>.eff" (best large rate / the route's bandwidth), "mech.<m>.sms"
 * (SMs that reach it: eff x route / one SM's rate) and "mech.<m>.launch"
 * (the smallest message's device time less what coll predicts for it without
 * a launch cost: coll's own formula, used as it is). Only the
 * figures cal has are written. Errors: CR_ENOMEM. */
cr_status cr_validate_apply_calibration(cr_topo *t, const cr_vcalib *cal, const char *source);

#ifdef __cplusplus
}
#endif

#endif
