/* SPDX-License-Identifier: MIT */
/*
 * `commroof trace [-o DIR] [--lib PATH] [--top N] [--json] -- CMD [ARGS...]`
 * runs CMD under the CUPTI tracer (traces/tracer/, an injection library),
 * passes its exit status through, and summarises the traces it wrote;
 * `commroof trace summary FILE...` summarises traces already written.
 * The trace format is traces/README.md; reading is traces/reader/.
 */
#define _XOPEN_SOURCE 700 /* realpath() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "json_dump.h"
#include "sbuf.h"
#include "cli.h"
#include "fileio.h"
#include "grow.h"
#include "opts.h"
#include "run_child.h"
#include "traces/tracer/trace_names.h"
#include "traces/reader/trace_summary.h"
#include "json_num.h"

#define TRACER_SO "libcommroof_trace.so"

static const char trace_help_head[] =
    "usage: commroof trace [-o DIR] [--lib PATH] [--top N] [--full-names] [--json] -- CMD "
    "[ARGS...]\n"
    "       commroof trace summary TRACE.json... [--top N] [--full-names] [--json]\n"
    "\n"
    "Runs CMD (any CUDA program: a binary, python3 script.py, torchrun ...) under the\n"
    "CUPTI tracer, passes CMD's exit status through, and prints where the traces went\n"
    "with a summary: kernels by total time, copies and memsets by bytes. One trace\n"
    "per process: DIR/commroof-trace.HOST.PID[.rankR][.N].json (.N where the name\n"
    "is taken: a program that called exec), Chrome trace JSON that opens in\n"
    "Perfetto (format: traces/README.md).\n"
    "\n"
    "options:\n";

static const char trace_help_tail[] =
    "\n"
    "The tracer sets CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH in CMD's\n"
    "environment. Times in the tables are microseconds; bandwidth is GB/s (1e9 B/s).\n"
    "\n"
    "exit status: CMD's, as a shell gives it (128+N when signal N ended it, 127\n"
    "when CMD is not found, 126 when it cannot be executed); before CMD runs, 2 for\n"
    "a usage error (e.g. -o naming a file), 1 for a runtime one (no tracer library,\n"
    "a folder that cannot be made).\n"
    "Ctrl-C reaches CMD; SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, and SIGINT or\n"
    "SIGQUIT sent to commroof alone (kill), are passed on to it.\n"
    "\n"
    "examples:\n"
    "  commroof trace -o traces/ -- ./my_kernel --size 1G\n"
    "  commroof trace -- python3 train.py\n"
    "  commroof trace summary traces/h200-1/cuda_demo.json\n";

struct opts {
    const char *dir;
    const char *lib;
    long top;
    bool json;
    bool full_names;
    bool summary_only;
    char **files; /* summary: the files; run: NULL */
    int n_files;
    char **cmd; /* run: CMD and its arguments, NULL-terminated */
};

/* ---------- options ---------- */

enum { O_HELP = 1, O_DIR, O_LIB, O_TOP, O_CMD };

static int parse(int argc, char **argv, struct opts *o, bool *help)
{
    o->top = 10;
    const cli_opt opts[] = {
        {"-o", NULL, "DIR", "where the traces go (created if missing; default ./commroof-traces)",
         .str = &o->dir, .id = O_DIR},
        {"--lib", NULL, "PATH",
         "the tracer library; default $COMMROOF_TRACE_LIB, else\n" TRACER_SO
         " beside the commroof binary, else ../lib/ of it",
         .str = &o->lib, .id = O_LIB},
        {"--top", NULL, "N", "kernel names listed per trace (default 10, 0 = all)", .id = O_TOP},
        {"--full-names", NULL, NULL,
         "C++ kernel names as they are; by default without template\n"
         "arguments, parameters and return type (void at::native::k<4, ..>(..)\n"
         "-> at::native::k), the kernels of one short name counted together",
         .flag = &o->full_names},
        {"--json", NULL, NULL, "one JSON document on stdout (CMD's stdout then goes to stderr)",
         .flag = &o->json},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = O_HELP},
        {"--", NULL, NULL, NULL, .id = O_CMD}, /* CMD follows */
        {0}};
    cli_args args = cli_args_begin("trace", opts, argc, argv);
    args.pass_unknown = true;
    if (argc > 1 && strcmp(argv[1], "summary") == 0) {
        o->summary_only = true;
        args.i = 2;
    }
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        const char *v = args.val;
        int id = r == CLI_ARGS_OPT ? args.opt->id : 0;
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (id == O_CMD && !o->summary_only) {
            if (args.i >= argc)
                return cli_usage_error("trace", "nothing to run after \"--\" (e.g. -- ./app)");
            o->cmd = argv + args.i;
            break;
        }
        if (id == O_HELP) {
            fputs(trace_help_head, stdout);
            cli_opts_help(stdout, opts, 16, 0);
            fputs(trace_help_tail, stdout);
            *help = true;
            return CLI_OK;
        }
        if (r == CLI_ARGS_UNKNOWN || id == O_CMD) {
            const char *bad = argv[args.i - (id != 0)];
            const char *eq = strchr(bad, '=');
            const char *near =
                id == O_CMD ? NULL
                            : cli_opts_nearest(opts, bad, eq ? (size_t)(eq - bad) : strlen(bad));
            char hint[96] = "";
            if (near)
                snprintf(hint, sizeof hint, ": did you mean %s?", near);
            return cli_usage_error("trace", "unknown option \"%s\"%s%s", bad, hint,
                                   o->summary_only ? "" : " (put CMD after \"--\")");
        } else if (id == O_DIR && o->summary_only) {
            return cli_usage_error("trace", "-o applies to running a command, not to "
                                            "summary");
        } else if (id == O_LIB && o->summary_only) {
            return cli_usage_error("trace", "--lib applies to running a command");
        } else if (id == O_TOP) {
            char *end;
            errno = 0;
            o->top = strtol(v, &end, 10);
            if (errno || *end || end == v || o->top < 0 || o->top > 1000000)
                return cli_usage_error("trace", "--top \"%s\" is not a count (e.g. --top 20)", v);
        } else if (r == CLI_ARGS_ARG && o->summary_only) {
            char **at = argv + args.i - 1;
            if (!o->files)
                o->files = at;
            if (o->files + o->n_files != at)
                return cli_usage_error("trace", "options go after the files");
            o->n_files++;
        } else if (r == CLI_ARGS_ARG) {
            return cli_usage_error("trace",
                                   "\"%s\": the command to trace goes after \"--\" "
                                   "(commroof trace -- %s ...)",
                                   v, v);
        }
    }
    if (o->summary_only && o->n_files == 0)
        return cli_usage_error("trace", "summary needs at least one trace file");
    if (!o->summary_only && !o->cmd)
        return cli_usage_error("trace", "no command: commroof trace [-o DIR] -- CMD [ARGS...]");
    return CLI_OK;
}

/* ---------- output ---------- */

static const char *dev_word(int dev, char *buf, size_t n)
{
    if (dev < 0)
        return "host";
    snprintf(buf, n, "%d", dev);
    return buf;
}

static void print_summary(const char *path, const cr_trace_summary *s, long top)
{
    printf("#\n# trace %s\n", path);
    char dropped[32];
    if (s->info.dropped_known)
        snprintf(dropped, sizeof dropped, "%llu", (unsigned long long)s->info.dropped_records);
    else
        cr_str_copy(dropped, sizeof dropped, "unknown");
    printf("#   %s, %llu events, dropped records %s%s, %zu device(s) described\n",
           s->info.complete ? "complete"
                            : "INCOMPLETE (the program was killed, crashed or called exec, or "
                              "the file size limit, ulimit -f, cut the trace)",
           (unsigned long long)s->info.events, dropped,
           s->info.dropped_known && s->info.dropped_records ? " (records are missing!)" : "",
           s->n_devices);
    if (s->info.discarded_bytes)
        printf("#   a partial last event (%llu bytes) was ignored\n",
               (unsigned long long)s->info.discarded_bytes);
    printf("#   kernels %llu (%.3f us total), copies %llu, memsets %llu, syncs %llu, nvtx %llu, "
           "span %.3f us\n",
           (unsigned long long)s->kernels, s->kernel_s * 1e6, (unsigned long long)s->copies,
           (unsigned long long)s->memsets, (unsigned long long)s->syncs,
           (unsigned long long)s->nvtx, s->span_s * 1e6);
    if (s->info.recorded_known && s->info.recorded != CR_TRACE_REC_DEVICE) {
        /* a zero count above is then "not recorded", not "none ran" */
        char words[64];
        printf("#   not recorded (metadata.recorded; COMMROOF_TRACE_RECORD): %s\n",
               cr_trace_rec_words(CR_TRACE_REC_DEVICE & ~s->info.recorded, words, sizeof words));
    }
    if (s->info.n_errors > 0)
        /* the counts above may be what the tracer could record, not what ran */
        printf("#   the tracer reported %d problem(s) (metadata.errors); first: %s\n",
               s->info.n_errors, s->info.first_error);
    if (s->info.launch_blocking >= 0)
        printf("#   launches %s (metadata.launch_blocking: CUDA_LAUNCH_BLOCKING=1 %s)\n",
               s->info.launch_blocking ? "blocking" : "asynchronous",
               s->info.launch_blocking ? "set" : "not set");
    size_t nk = s->n_kernel_stats;
    size_t shown = top == 0 || (size_t)top > nk ? nk : (size_t)top;
    printf("#\n# kernels by total time (%zu of %zu names)\n", shown, nk);
    printf("# %8s %13s %11s %11s %11s %7s  %s\n", "calls", "total", "mean", "min", "max", "share",
           "name");
    printf("# %8s %13s %11s %11s %11s %7s  %s\n", "-", "us", "us", "us", "us", "%", "-");
    for (size_t i = 0; i < shown; i++) {
        const cr_trace_kernel_stat *k = &s->kernel_stats[i];
        printf("  %8llu %13.3f %11.3f %11.3f %11.3f %7.2f  %s\n", (unsigned long long)k->calls,
               k->total_s * 1e6, k->total_s / (double)k->calls * 1e6, k->min_s * 1e6,
               k->max_s * 1e6, s->kernel_s > 0 ? 100.0 * k->total_s / s->kernel_s : 0.0, k->name);
    }
    printf("#\n# copies and memsets by bytes\n");
    printf("# %8s %5s %5s %-18s %8s %15s %13s %10s\n", "kind", "src", "dst", "memory", "count",
           "bytes", "total", "algbw");
    printf("# %8s %5s %5s %-18s %8s %15s %13s %10s\n", "-", "-", "-", "-", "-", "B", "us", "GB/s");
    for (size_t i = 0; i < s->n_copy_stats; i++) {
        const cr_trace_copy_stat *c = &s->copy_stats[i];
        char a[16], b[16], mem[40];
        if (c->memset)
            cr_str_copy(mem, sizeof mem, c->dst_mem[0] ? c->dst_mem : "-");
        else if (c->src_mem[0] || c->dst_mem[0])
            snprintf(mem, sizeof mem, "%s->%s", c->src_mem[0] ? c->src_mem : "?",
                     c->dst_mem[0] ? c->dst_mem : "?");
        else
            cr_str_copy(mem, sizeof mem, "-");
        /* no time, no rate: "-" (0.00 read as a rate of nothing) */
        char bw[24] = "-";
        if (c->total_s > 0)
            snprintf(bw, sizeof bw, "%.2f", c->bytes / c->total_s / 1e9);
        printf("  %8s %5s %5s %-18s %8llu %15.0f %13.3f %10s\n",
               c->memset ? "memset" : cr_copy_kind_name(c->kind),
               dev_word(c->src_device, a, sizeof a), dev_word(c->dst_device, b, sizeof b), mem,
               (unsigned long long)c->count, c->bytes, c->total_s * 1e6, bw);
    }
    if (s->n_nvtx_sizes == 0)
        return; /* no NCCL payloads: the table would be empty */
    printf("#\n# NVTX ranges by message size (NCCL calls; host-side time of the call, not the "
           "GPU's)\n");
    printf("# %8s %15s %13s %11s  %s\n", "calls", "bytes", "total", "mean", "name");
    printf("# %8s %15s %13s %11s  %s\n", "-", "B", "us", "us", "-");
    for (size_t i = 0; i < s->n_nvtx_sizes; i++) {
        const cr_trace_nvtx_size_stat *n = &s->nvtx_sizes[i];
        printf("  %8llu %15.0f %13.3f %11.3f  %s\n", (unsigned long long)n->calls, n->bytes,
               n->total_s * 1e6, n->total_s / (double)n->calls * 1e6, n->name);
    }
    if (s->nvtx_sizes_ungrouped)
        printf("#   %llu more ranges in further (name, size) groups are not listed\n",
               (unsigned long long)s->nvtx_sizes_ungrouped);
}

static json_t *summary_json(const char *path, const cr_trace_summary *s, long top)
{
    json_t *o = json_object();
    json_object_set_new(o, "path", json_string(path));
    json_object_set_new(o, "complete", json_boolean(s->info.complete));
    json_object_set_new(o, "events", json_integer((json_int_t)s->info.events));
    json_object_set_new(o, "dropped_records",
                        s->info.dropped_known ? json_integer((json_int_t)s->info.dropped_records)
                                              : json_null());
    json_object_set_new(o, "discarded_bytes", json_integer((json_int_t)s->info.discarded_bytes));
    json_object_set_new(o, "kernel_count", json_integer((json_int_t)s->kernels));
    json_object_set_new(o, "kernel_us", json_real(s->kernel_s * 1e6));
    json_object_set_new(o, "copy_count", json_integer((json_int_t)s->copies));
    json_object_set_new(o, "memset_count", json_integer((json_int_t)s->memsets));
    json_object_set_new(o, "sync_count", json_integer((json_int_t)s->syncs));
    json_object_set_new(o, "nvtx_count", json_integer((json_int_t)s->nvtx));
    json_object_set_new(o, "span_us", json_real(s->span_s * 1e6));
    char words[64];
    json_object_set_new(o, "recorded", /* "kernel, memcpy"; null: the trace does not say */
                        s->info.recorded_known
                            ? json_string(cr_trace_rec_words(s->info.recorded, words, sizeof words))
                            : json_null());
    /* what the tracer could not do (CUPTI refused, recorded nothing): a
     * trace of no kernels then says nothing of the program's GPU work */
    json_object_set_new(o, "tracer_errors", json_integer(s->info.n_errors));
    json_object_set_new(o, "tracer_first_error",
                        s->info.n_errors ? json_string(s->info.first_error) : json_null());
    json_object_set_new(o, "launch_blocking", /* null: the trace does not say */
                        s->info.launch_blocking >= 0 ? json_boolean(s->info.launch_blocking)
                                                     : json_null());
    json_t *ks = json_array();
    size_t nk = s->n_kernel_stats;
    size_t shown = top == 0 || (size_t)top > nk ? nk : (size_t)top;
    for (size_t i = 0; i < shown; i++) {
        const cr_trace_kernel_stat *k = &s->kernel_stats[i];
        json_array_append_new(ks,
                              json_pack("{s:s, s:I, s:f, s:f, s:f, s:f}", "name", k->name, "calls",
                                        (json_int_t)k->calls, "total_us", k->total_s * 1e6,
                                        "mean_us", k->total_s / (double)k->calls * 1e6, "min_us",
                                        k->min_s * 1e6, "max_us", k->max_s * 1e6));
    }
    json_object_set_new(o, "kernels", ks);
    json_t *cs = json_array();
    for (size_t i = 0; i < s->n_copy_stats; i++) {
        const cr_trace_copy_stat *c = &s->copy_stats[i];
        json_array_append_new(
            cs,
            json_pack("{s:s, s:i, s:i, s:s, s:s, s:I, s:o, s:f, s:o}", "kind",
                      c->memset ? "memset" : cr_copy_kind_name(c->kind), "src_device",
                      c->src_device, "dst_device", c->dst_device, "src_mem", c->src_mem, "dst_mem",
                      c->dst_mem, "count", (json_int_t)c->count, "bytes", cr_json_count(c->bytes),
                      "total_us", c->total_s * 1e6, "algbw_GBps",
                      c->total_s > 0 ? cr_json_real(c->bytes / c->total_s / 1e9) : json_null()));
    }
    json_object_set_new(o, "copies", cs);
    json_t *ns = json_array();
    for (size_t i = 0; i < s->n_nvtx_sizes; i++) {
        const cr_trace_nvtx_size_stat *n = &s->nvtx_sizes[i];
        json_array_append_new(ns, json_pack("{s:s, s:o, s:I, s:f}", "name", n->name, "bytes",
                                            cr_json_count(n->bytes), "calls", (json_int_t)n->calls,
                                            "total_us", n->total_s * 1e6));
    }
    json_object_set_new(o, "nvtx_sizes", ns);
    json_object_set_new(o, "nvtx_sizes_ungrouped",
                        json_integer((json_int_t)s->nvtx_sizes_ungrouped));
    return o;
}

/* Summarises every file first, then prints them (or appends them to arr).
 * `trace summary FILE...` (unread NULL) prints them only when all read: a
 * file that fails leaves stdout empty, not half a report (its error on
 * stderr names it). After a run (unread: an array for the errors, or NULL
 * with a text report) a file that fails is left out and the others are
 * summarised: CMD has run, and one bad file lost every summary (QA audit,
 * session 42); its error goes to stderr and into unread. Returns how many
 * failed. */
static int summarise_files(char **files, int n, const struct opts *o, json_t *arr, bool run,
                           json_t *unread)
{
    int failed = 0;
    cr_trace_summary **sum = calloc((size_t)(n > 0 ? n : 1), sizeof *sum);
    if (!sum) {
        cli_fail("trace", "out of memory");
        return n > 0 ? n : 1;
    }
    for (int i = 0; i < n; i++) {
        cr_diag d = {{0}};
        bool bad = false;
        if (cr_trace_summarize(files[i], &sum[i], &d) != CR_OK) {
            cli_fail("trace", "%s", d.msg);
            bad = true;
        } else if (!o->full_names && cr_trace_summary_shorten(sum[i]) != CR_OK) {
            snprintf(d.msg, sizeof d.msg, "%s: out of memory", files[i]);
            cli_fail("trace", "%s", d.msg);
            bad = true;
        }
        if (bad) {
            failed++;
            if (unread)
                json_array_append_new(unread, json_string(d.msg));
            cr_trace_summary_free(sum[i]);
            sum[i] = NULL;
        }
    }
    bool print = run || !failed;
    /* after a run, its own first line has said how many files there are:
     * "summary: 0 file(s)" under it read as a second, different count */
    if (print && !arr && !run)
        printf("# commroof trace summary: %d file(s)%s\n", n - failed,
               failed ? " (the others could not be read: stderr says why)" : "");
    else if (print && !arr && failed)
        printf("# %d of them could not be read (stderr says why)\n", failed);
    for (int i = 0; i < n; i++) {
        if (print && sum[i]) {
            if (arr)
                json_array_append_new(arr, summary_json(files[i], sum[i], o->top));
            else
                print_summary(files[i], sum[i], o->top);
            if (sum[i]->info.dropped_known && sum[i]->info.dropped_records)
                fprintf(stderr, "commroof trace: %s: %llu records were dropped\n", files[i],
                        (unsigned long long)sum[i]->info.dropped_records);
        }
        cr_trace_summary_free(sum[i]);
    }
    free(sum);
    return failed;
}

static int print_json_doc(json_t *root)
{
    /* 15 digits: a trace's times in us to the nanosecond up to 1e12 us, as
     * the text's %.3f (10 rounded 13,088,326,784 bytes of copies to
     * ...780 and an hour's kernel time to the microsecond; byte counts go
     * as integers, cr_json_count) */
    char *txt = cr_json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
    json_decref(root);
    if (!txt)
        return cli_fail("trace", "out of memory writing JSON");
    puts(txt);
    free(txt);
    return CLI_OK;
}

/* ---------- running ---------- */

static bool readable(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, R_OK) == 0;
}

/* Why the file at p cannot be the tracer library (the CUDA driver and
 * NVTX dlopen a 64-bit ELF shared object), or NULL where it can be. Any
 * other file ran the whole program untraced, with commroof's hint asking
 * whether it used CUDA (QA audit, session qa-trace). */
static const char *not_a_library(const char *p)
{
    unsigned char h[18]; /* e_ident, then e_type */
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return strerror(errno);
    ssize_t n = read(fd, h, sizeof h);
    close(fd);
    if (n != (ssize_t)sizeof h || memcmp(h, "\177ELF", 4) != 0)
        return "not an ELF file (a shared library starts with \\177ELF)";
    if (h[4] != 2) /* EI_CLASS: ELFCLASS64 */
        return "a 32-bit ELF file; CUDA_INJECTION64_PATH needs a 64-bit shared library";
    unsigned type = h[5] == 2 ? (unsigned)h[16] << 8 | h[17] : (unsigned)h[17] << 8 | h[16];
    if (type != 3) /* ET_DYN; an executable, an object file (.o) or a core dump is not one */
        return "an ELF file but not a shared library (an object file or a static executable?)";
    return NULL;
}

/* The tracer library's absolute path, or false with why in msg. */
static bool find_lib(const char *opt, char out[PATH_MAX], char *msg, size_t msgn)
{
    char cand[3][PATH_MAX];
    int nc = 0;
    const char *env = getenv("COMMROOF_TRACE_LIB");
    if (opt) {
        cr_str_copy(cand[nc++], PATH_MAX, opt);
    } else if (env && *env) {
        cr_str_copy(cand[nc++], PATH_MAX, env);
    } else {
        char exe[PATH_MAX];
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (len > 0) {
            exe[len] = '\0';
            char *slash = strrchr(exe, '/');
            if (slash)
                *slash = '\0';
            snprintf(cand[nc++], PATH_MAX, "%.*s/%s", PATH_MAX - 32, exe, TRACER_SO);
            snprintf(cand[nc++], PATH_MAX, "%.*s/../lib/%s", PATH_MAX - 32, exe, TRACER_SO);
        }
    }
    for (int i = 0; i < nc; i++) {
        if (!readable(cand[i]) || !realpath(cand[i], out))
            continue;
        const char *why = not_a_library(out);
        if (!why)
            return true;
        snprintf(msg, msgn, "tracer library \"%.2000s\"%s%s%s is %s: give %s built by make",
                 cand[i], opt || (env && *env) ? " (from " : "",
                 opt           ? "--lib"
                 : env && *env ? "COMMROOF_TRACE_LIB"
                               : "",
                 opt || (env && *env) ? ")" : "", why, TRACER_SO);
        return false;
    }
    if (opt || (env && *env))
        snprintf(msg, msgn, "tracer library \"%s\" (from %s) is not a readable file",
                 opt ? opt : env, opt ? "--lib" : "COMMROOF_TRACE_LIB");
    else
        snprintf(msg, msgn,
                 "tracer library %s not found beside the commroof binary or in ../lib; build it "
                 "with make where CUDA's CUPTI is installed, or pass --lib PATH",
                 TRACER_SO);
    return false;
}

struct seen {
    char name[256];
    struct timespec mtime;
    off_t size;
};

static bool is_trace_name(const char *n)
{
    size_t len = strlen(n);
    return strncmp(n, CR_TRACE_FILE_PREFIX, strlen(CR_TRACE_FILE_PREFIX)) == 0 && len > 5 &&
           strcmp(n + len - 5, ".json") == 0 && len < sizeof(((struct seen *)0)->name);
}

/* The trace files in dir with their times (caller frees *out). */
static int list_traces(const char *dir, struct seen **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_trace_name(e->d_name))
            continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%.*s/%s", PATH_MAX - 300, dir, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (cr_grow((void **)out, &cap, *n + 1, sizeof **out)) {
            closedir(d);
            return -1;
        }
        struct seen *s = &(*out)[(*n)++];
        cr_str_copy(s->name, sizeof s->name, e->d_name);
        s->mtime = st.st_mtim;
        s->size = st.st_size;
    }
    closedir(d);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct seen *)a)->name, ((const struct seen *)b)->name);
}

/* The length of dir's longest prefix (at a '/') that exists already:
 * cr_file_mkdirs makes the folders below it. strlen(dir) when dir exists
 * (or no memory: nothing is removed then). Any length: one beyond
 * PATH_MAX makes folders up to the one mkdir refuses (ENAMETOOLONG). */
static size_t first_missing_dir(const char *dir)
{
    struct stat st;
    size_t len = strlen(dir);
    if (stat(dir, &st) == 0)
        return len;
    char *path = strdup(dir);
    if (!path)
        return len;
    size_t at = 0;
    for (size_t i = len; i > 0; i--) {
        if (path[i - 1] != '/' || i == 1)
            continue;
        path[i - 1] = '\0';
        if (stat(path, &st) == 0) {
            at = i - 1;
            break;
        }
    }
    free(path);
    return at;
}

/* Removes the folders of dir below its first made_from bytes, deepest
 * first, as long as they are empty (rmdir leaves any other alone). */
static void remove_made_dirs(const char *dir, size_t made_from)
{
    size_t len = strlen(dir);
    if (made_from >= len)
        return;
    char *path = strdup(dir);
    if (!path)
        return;
    for (size_t i = len; i > made_from; i--) {
        if (i == len || path[i] == '/') {
            path[i] = '\0';
            if (path[0] && rmdir(path) != 0 && errno != ENOENT && errno != ENAMETOOLONG)
                break;
        }
    }
    free(path);
}

/* CMD's status rc, whatever became of the summary on stdout: a write that
 * failed (a full disk, a closed pipe) is said on stderr and dropped, so
 * that main's own check does not put its 1 in place of rc (a program's 7
 * came back as 1). */
static int finish_output(int rc)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "commroof trace: cannot write the summary to stdout: %s\n",
                errno ? strerror(errno) : "write error");
        /* what stays buffered would fail again at exit */
        if (!freopen("/dev/null", "w", stdout))
            clearerr(stdout);
    }
    return rc;
}

static int trace_run(const struct opts *o)
{
    const char *dir_arg = o->dir ? o->dir : "commroof-traces";
    struct stat dst;
    if (stat(dir_arg, &dst) == 0 && !S_ISDIR(dst.st_mode))
        return cli_usage_error("trace",
                               "-o \"%s\" is a file, not a folder: give a folder for the traces "
                               "(made if missing), e.g. -o traces/",
                               dir_arg);
    char lib[PATH_MAX], msg[PATH_MAX + 256];
    if (!find_lib(o->lib, lib, msg, sizeof msg))
        return cli_fail("trace", "%s", msg);
    /* the folders -o makes, so that a run that never starts CMD leaves
     * none of them behind (a mistyped command made an empty folder) */
    size_t made_from = first_missing_dir(dir_arg);
    cr_diag md = {{0}};
    if (cr_file_mkdirs(dir_arg, &md) != CR_OK) {
        remove_made_dirs(dir_arg, made_from); /* those made before the one that failed */
        return cli_fail("trace", "the trace folder: %s", md.msg);
    }
    char dir[PATH_MAX];
    if (!realpath(dir_arg, dir)) {
        int e = errno;
        remove_made_dirs(dir_arg, made_from);
        return cli_fail("trace", "\"%s\": %s", dir_arg, strerror(e));
    }
    /* the tracer writes there from inside CMD: a folder it cannot write
     * ran the whole program untraced (QA audit, session 42) */
    if (access(dir, W_OK | X_OK) != 0) {
        int e = errno;
        remove_made_dirs(dir_arg, made_from);
        return cli_fail("trace", "-o \"%s\": the tracer cannot write there: %s", dir_arg,
                        strerror(e));
    }
    /* the tracer's file name is DIR/commroof-trace.HOST.PID[.rankR] of at
     * most CR_TRACE_STEM_MAX characters (traces/tracer/trace_names.h); a
     * longer one ran the whole program untraced (the tracer cut the name
     * before) */
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        cr_str_copy(host, sizeof host, "unknown");
    size_t stem_max = strlen(dir) + strlen("/" CR_TRACE_FILE_PREFIX) + strlen(host) +
                      strlen(".4194304.rank999999");
    if (stem_max > CR_TRACE_STEM_MAX) {
        remove_made_dirs(dir_arg, made_from);
        return cli_usage_error("trace",
                               "-o \"%.100s...\": a folder path of %zu characters leaves no room "
                               "for the trace's file name (at most %zu here): give a shorter "
                               "folder",
                               dir_arg, strlen(dir), CR_TRACE_STEM_MAX - (stem_max - strlen(dir)));
    }
    /* CMD's environment: what it held that the run replaces is said, each
     * of the variables set (NVTX_INJECTION64_PATH, another tool's NVTX
     * library, and COMMROOF_TRACE_DIR went silently) */
    const cli_env_set env[] = {{"CUDA_INJECTION64_PATH", lib},
                               {"NVTX_INJECTION64_PATH", lib},
                               {"COMMROOF_TRACE_DIR", dir}};
    const int n_env = (int)(sizeof env / sizeof env[0]);
    for (int i = 0; i < n_env; i++) {
        const char *prev = getenv(env[i].name);
        char prev_real[PATH_MAX];
        if (!prev || !*prev || strcmp(prev, env[i].value) == 0 ||
            (realpath(prev, prev_real) && strcmp(prev_real, env[i].value) == 0))
            continue;
        fprintf(stderr, "commroof trace: replacing %s=%s with %s for this run%s\n", env[i].name,
                prev, env[i].value,
                env[i].value == dir ? " (-o DIR names the folder, ./commroof-traces without it)"
                                    : "");
    }
    struct seen *before = NULL, *after = NULL;
    size_t nb = 0, na = 0;
    if (list_traces(dir, &before, &nb) != 0)
        return cli_fail("trace", "cannot list \"%s\": %s", dir, strerror(errno));
    cli_child_result res;
    if (cli_run_child(o->cmd, env, n_env,
                      o->json ? CLI_CHILD_STDOUT_TO_STDERR : CLI_CHILD_STDOUT_KEEP, &res) != 0) {
        free(before);
        remove_made_dirs(dir_arg, made_from);
        return cli_fail("trace", "cannot start \"%s\": %s", o->cmd[0], strerror(errno));
    }
    int rc = res.status;
    /* CMD has run: a reader that closes the pipe early must not end
     * commroof by SIGPIPE and lose CMD's status (finish_output says) */
    signal(SIGPIPE, SIG_IGN);
    if (res.exec_errno) {
        /* CMD never ran: nothing was traced, and a summary would only say so */
        free(before);
        remove_made_dirs(dir_arg, made_from);
        cli_fail("trace", "cannot run \"%s\": %s (exit status %d, as a shell gives it)", o->cmd[0],
                 strerror(res.exec_errno), rc);
        if (o->json) {
            json_t *root = json_pack("{s:s, s:i, s:n, s:s, s:[], s:[]}", "exec_error",
                                     strerror(res.exec_errno), "exit_status", rc, "signal",
                                     "trace_dir", dir, "traces", "unread");
            if (root)
                print_json_doc(root);
        }
        return rc;
    }
    char how[128];
    if (res.signal)
        snprintf(how, sizeof how, "was ended by signal %d (%s): exit status %d", res.signal,
                 strsignal(res.signal), rc);
    else
        snprintf(how, sizeof how, "exited with status %d", rc);
    if (list_traces(dir, &after, &na) != 0) {
        free(before);
        cli_fail("trace", "cannot list \"%s\": %s", dir, strerror(errno));
        return rc;
    }
    /* The traces of this run: new files, or files rewritten since (a pid
     * reused between runs overwrites an older file of the same name). */
    size_t nnew = 0;
    for (size_t i = 0; i < na; i++) {
        bool old = false;
        for (size_t j = 0; j < nb && !old; j++)
            old = strcmp(after[i].name, before[j].name) == 0 &&
                  after[i].mtime.tv_sec == before[j].mtime.tv_sec &&
                  after[i].mtime.tv_nsec == before[j].mtime.tv_nsec &&
                  after[i].size == before[j].size;
        if (!old)
            after[nnew++] = after[i];
    }
    free(before);
    if (nnew > 1) /* after may be NULL when the folder holds no trace */
        qsort(after, nnew, sizeof *after, by_name);
    char **paths = calloc(nnew ? nnew : 1, sizeof *paths);
    for (size_t i = 0; paths && i < nnew; i++) {
        size_t len = strlen(dir) + strlen(after[i].name) + 2;
        paths[i] = malloc(len);
        if (paths[i])
            snprintf(paths[i], len, "%s/%s", dir, after[i].name);
    }
    free(after);
    bool oom = !paths;
    for (size_t i = 0; !oom && i < nnew; i++)
        oom = !paths[i];
    if (oom) {
        for (size_t i = 0; paths && i < nnew; i++)
            free(paths[i]);
        free(paths);
        cli_fail("trace", "out of memory listing the traces");
        return rc; /* CMD's status still passes through */
    }
    if (nnew == 0)
        fprintf(stderr,
                "commroof trace: no trace was written in %s: did \"%s\" use CUDA? (the tracer "
                "starts when CUDA initialises)\n",
                dir, o->cmd[0]);
    if (o->json) {
        json_t *root = json_object();
        json_t *cmd = json_array();
        for (char **c = o->cmd; *c; c++)
            json_array_append_new(cmd, json_string(*c));
        json_object_set_new(root, "command", cmd);
        json_object_set_new(root, "exit_status", json_integer(rc));
        json_object_set_new(root, "signal", res.signal ? json_integer(res.signal) : json_null());
        json_object_set_new(root, "trace_dir", json_string(dir));
        json_t *arr = json_array(), *unread = json_array();
        summarise_files(paths, (int)nnew, o, arr, true, unread);
        json_object_set_new(root, "traces", arr);
        json_object_set_new(root, "unread", unread);
        print_json_doc(root);
    } else {
        printf("# commroof trace: \"%s\" %s; %zu trace file(s) in %s\n", o->cmd[0], how, nnew, dir);
        summarise_files(paths, (int)nnew, o, NULL, true, NULL);
    }
    for (size_t i = 0; i < nnew; i++)
        free(paths[i]);
    free(paths);
    return finish_output(rc);
}

int cli_cmd_trace(int argc, char **argv)
{
    struct opts o;
    memset(&o, 0, sizeof o);
    bool help = false;
    int rc = parse(argc, argv, &o, &help);
    if (rc != CLI_OK)
        return rc;
    if (help)
        return CLI_OK;
    if (!o.summary_only)
        return trace_run(&o);
    if (o.json) {
        json_t *root = json_object();
        json_t *arr = json_array();
        int failed = summarise_files(o.files, o.n_files, &o, arr, false, NULL);
        json_object_set_new(root, "traces", arr);
        if (failed) { /* no document that leaves a trace out: the errors say which */
            json_decref(root);
            return CLI_FAIL;
        }
        return print_json_doc(root);
    }
    return summarise_files(o.files, o.n_files, &o, NULL, false, NULL) ? CLI_FAIL : CLI_OK;
}
