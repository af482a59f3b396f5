/* SPDX-License-Identifier: MIT */
/*
 * The tracer's life: set-up from the environment (setup), the flush
 * thread, the closing text and metadata (finish), fork, and the CUDA
 * driver's entry point InitializeInjection.
 */
#include "trace_names.h"
#include "tracer.h"

/* COMMROOF_TRACE_RECORD: which device activities CUPTI records. Each kind
 * costs the program time per operation (CUPTI instruments each launch, copy
 * and memset to time it), so a launch-bound program may leave out what it
 * does not need; NVTX ranges, devices and contexts are always recorded. */
enum {
    REC_KERNEL = 1,
    REC_MEMCPY = 2,
    REC_MEMSET = 4,
    REC_SYNC = 8,
    REC_API = 16,
    REC_GRAPH = 32,
    REC_ALL = 63
};
/* What is recorded unless COMMROOF_TRACE_RECORD says otherwise: everything
 * but synchronisations. On the H200 (traces/h200-1/overhead-2026-12-02)
 * recording SYNCHRONIZATION cost launch-bound loops 0.8-1.1 us per tiny
 * kernel or copy and 4.3 us per 256-element torch.add, though none of
 * them synchronises (CUPTI instruments more once the kind is on), while
 * nothing in commroof reads sync records beyond trace summary's count.
 * "sync" or "all" brings them back. "api" (or "all") records the CUDA
 * calls that launch, copy or set memory (runtime and driver API records,
 * one per such call on the calling thread; enable_work_calls): their correlation id ties each
 * kernel, copy and memset to the call that made it, and so to the NVTX
 * range open on that thread then, whatever the GPU's lag (doc/roofline.md);
 * left out by default for what a record per call costs a launch-bound
 * program. "graph" records which thread made each CUDA graph node, and
 * when (trace_graph.c): a callback per node while a graph is built, none
 * at a launch, so that roofline gives a replayed graph's kernels to the
 * operator that captured them. On by default since it ran on a GPU
 * (traces/h100-1/graph-2026-12-07: the C and PyTorch graph demos' replays
 * owned by their capturing ranges; kernels/overhead -m launch with and
 * without it, 5 processes each, -0.09 us per tiny kernel, inside the
 * spread). It takes CUPTI's one callback subscriber: a program that
 * subscribes itself (a profiler of its own) finds it taken, and
 * COMMROOF_TRACE_RECORD=kernel,memcpy,memset leaves it free. */
#define REC_DEFAULT (REC_KERNEL | REC_MEMCPY | REC_MEMSET | REC_GRAPH)
static const struct {
    const char *word;
    unsigned bit;
} rec_words[] = {{"kernel", REC_KERNEL},
                 {"memcpy", REC_MEMCPY},
                 {"memset", REC_MEMSET},
                 {"sync", REC_SYNC},
                 {"api", REC_API},
                 {"graph", REC_GRAPH},
                 {"none", 0},
                 {"all", REC_ALL}};

/* COMMROOF_TRACE_RECORD=api: CUPTI records only the runtime and driver
 * calls that put work on a device (api_work_name), each enabled by
 * its callback id; enabling CUPTI_ACTIVITY_KIND_RUNTIME and _DRIVER
 * instead would have it record every call on the program's thread (a
 * stream query, a device get: PyTorch makes several per operator) for the
 * tracer to throw away. */
static bool enable_work_calls(void)
{
    bool any = false;
    static const struct {
        CUpti_CallbackDomain domain;
        CUpti_CallbackId n;
        CUptiResult (*enable)(CUpti_CallbackId, uint8_t);
        const char *what;
    } domains[] = {
        {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE, cuptiActivityEnableRuntimeApi,
         "cuptiActivityEnableRuntimeApi"},
        {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE, cuptiActivityEnableDriverApi,
         "cuptiActivityEnableDriverApi"},
    };
    for (size_t d = 0; d < sizeof domains / sizeof domains[0]; d++) {
        CUptiResult first_error = CUPTI_SUCCESS;
        for (CUpti_CallbackId cbid = 1; cbid < domains[d].n; cbid++) {
            if (!api_work_name(domains[d].domain, cbid))
                continue;
            CUptiResult r = domains[d].enable(cbid, 1);
            if (r != CUPTI_SUCCESS && first_error == CUPTI_SUCCESS)
                first_error = r;
            any = any || r == CUPTI_SUCCESS;
        }
        cupti_ok(first_error, domains[d].what);
    }
    return any;
}

/* The REC_* bits a comma-separated list names; REC_DEFAULT for NULL or
 * empty, and (with an error noted) for a list with an unknown word. */
static unsigned record_mask(const char *v)
{
    if (!v || !*v)
        return REC_DEFAULT;
    unsigned m = 0;
    size_t words = 0;
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ", ");
        bool known = n == 0;
        words += n > 0;
        for (size_t i = 0; !known && i < sizeof rec_words / sizeof rec_words[0]; i++)
            if (strlen(rec_words[i].word) == n && strncmp(p, rec_words[i].word, n) == 0) {
                m |= rec_words[i].bit;
                known = true;
            }
        if (!known) {
            note_error(
                "COMMROOF_TRACE_RECORD=\"%.200s\": unknown word \"%.*s\" (expected a "
                "comma-separated list of kernel, memcpy, memset, sync, api, graph, none, all); "
                "recording the default, kernel,memcpy,memset,graph",
                v, (int)(n < 64 ? n : 64), p);
            return REC_DEFAULT;
        }
        p += n;
        p += strspn(p, ", ");
    }
    if (words == 0) { /* "," recorded nothing, unsaid; "none" says so */
        note_error("COMMROOF_TRACE_RECORD=\"%.200s\" names no kind (expected a comma-separated "
                   "list of kernel, memcpy, memset, sync, api, graph, none, all); recording "
                   "the default, kernel,memcpy,memset,graph",
                   v);
        return REC_DEFAULT;
    }
    return m;
}

/* ---------- lifecycle ---------- */

/* Until the driver's snapshot of the devices is taken (drv_snapshot), the
 * thread wakes this often to try, for at most DRV_POLL_MAX tries (2 s: a
 * program that started the tracer from NVTX and initialises CUDA later is
 * then asked at each flush only); then only at each flush. */
#define DRV_POLL_MS 10
#define DRV_POLL_MAX 200

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void *flusher_main(void *arg)
{
    (void)arg;
    unsigned since_flush_ms = 0, polls = 0;
    bool drv_done = false;
    while (!__atomic_load_n(&g.stop_flusher, __ATOMIC_ACQUIRE)) {
        bool fast = !drv_done && polls < DRV_POLL_MAX;
        unsigned left = g.flush_ms - since_flush_ms; /* to the next flush */
        unsigned step = fast && DRV_POLL_MS < left ? DRV_POLL_MS : left;
        sleep_ms(step);
        since_flush_ms += step;
        if (__atomic_load_n(&g.stop_flusher, __ATOMIC_ACQUIRE))
            break;
        if (!drv_done && (fast || since_flush_ms >= g.flush_ms)) {
            drv_done = drv_snapshot();
            polls++;
        }
        if (since_flush_ms >= g.flush_ms) {
            since_flush_ms = 0;
            /* flag 0: only buffers whose records are all complete; cheap. */
            cuptiActivityFlushAll(0);
            pthread_mutex_lock(&g.mu);
            graph_drain();
            pthread_mutex_unlock(&g.mu);
        }
    }
    return NULL;
}

static void mkdir_p(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0777);
            *p = '/';
        }
    mkdir(tmp, 0777);
}

static void read_cmdline(sb_t *s)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return;
    for (ssize_t i = 0; i < n - 1; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    buf[n] = '\0';
    sb_str(s, buf);
}

/* Who recorded the NVTX ranges (metadata.nvtx_recorder, traces/README.md). */
static const char *nvtx_recorder(void)
{
    if (nvtx_guard_only()) /* CUPTI alone, or nobody where it records no markers */
        return g.marker_on ? "cupti" : "none";
    return own_mode() ? "own" : "cupti";
}

/* Whether m can be taken within two seconds (it is left unlocked). A
 * program that calls exit() from a signal handler (common, though not
 * async-signal-safe) runs finish() on the interrupted thread, which may
 * hold g.mu or nv.mu for ever: finish() then waited for ever (15 of 20
 * runs of a SIGALRM handler hung, QA review of session 44). */
static bool free_within_2s(pthread_mutex_t *m)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += 2;
    if (pthread_mutex_timedlock(m, &t) != 0)
        return false;
    pthread_mutex_unlock(m);
    return true;
}

static void finish(void)
{
    if (!owner()) /* a fork()ed child: nothing of ours to close */
        return;
    if (!free_within_2s(&g.mu) || !free_within_2s(&nv.mu)) {
        /* left without its end, the trace reads as incomplete */
        fprintf(stderr,
                "commroof-trace: at exit the tracer's lock is held by the exiting thread (exit() "
                "from a signal handler?): %s is left without its end\n",
                g.path);
        return;
    }
    pthread_mutex_lock(&g.mu);
    bool go = owner() && g.active && !g.closed;
    pthread_mutex_unlock(&g.mu);
    if (!go)
        return;
    __atomic_store_n(&g.stop_flusher, 1, __ATOMIC_RELEASE);
    drv_snapshot(); /* while the driver may still be up (a program shorter than a poll) */
    /* Deliver everything CUPTI still holds, complete or not (incomplete
     * records are counted as dropped by times_ok()). */
    if (g.cupti_on)
        cupti_ok(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
    pend_finish();
    pthread_mutex_lock(&g.mu);
    graph_drain();
    sb_t s = {0};
    uint64_t unclosed = g.nranges;
    for (size_t i = 0; i < g.nranges; i++) {
        emit_range(&s, &g.ranges[i], g.last_ts, true);
        g.records++;
        free_range(&g.ranges[i]);
    }
    g.nranges = 0;
    g.stats_records_written = (uint64_t)-1; /* force a final stats line */
    stats_line(&s);
    sb_printf(
        &s,
        "{\"ph\":\"M\",\"pid\":%" PRId64
        ",\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}\n],\n\"displayTimeUnit\":\"ns\",\n",
        host_pid_of(-1));
    sb_printf(&s,
              "\"metadata\":{\"format\":\"commroof-trace\",\"format_version\":1,"
              "\"tool\":\"libcommroof_trace\",\"cupti_api_version\":%d,\"hostname\":",
              CUPTI_API_VERSION);
    sb_str(&s, g.host);
    sb_printf(&s, ",\"os_pid\":%d", (int)g.os_pid);
    if (g.rank >= 0)
        sb_printf(&s, ",\"rank\":%d", g.rank);
    if (g.local_rank >= 0)
        sb_printf(&s, ",\"local_rank\":%d", g.local_rank);
    if (g.world_size >= 0)
        sb_printf(&s, ",\"world_size\":%d", g.world_size);
    sb_printf(&s, ",\"launch_blocking\":%s", g.launch_blocking ? "true" : "false");
    sb_puts(&s, ",\"command\":");
    size_t before = s.len;
    read_cmdline(&s);
    if (s.len == before)
        sb_puts(&s, "\"\"");
    sb_printf(&s, ",\"ts_base_ns\":%" PRIu64 ",\"end_ts\":", g.ts_base);
    sb_us(&s, g.last_ts > g.ts_base ? (int64_t)(g.last_ts - g.ts_base) : 0);
    sb_printf(&s,
              ",\"records\":%" PRIu64 ",\"dropped_records\":%" PRIu64
              ",\"incomplete_records\":%" PRIu64 ",\"nvtx_unmatched_ends\":%" PRIu64
              ",\"nvtx_recorder\":\"%s\",\"nvtx_payloads_decoded\":%" PRIu64
              ",\"nvtx_payloads_undecoded\":%" PRIu64 ",\"nvtx_payloads_unmatched\":%" PRIu64
              ",\"errors\":[",
              g.records, g.dropped, g.incomplete, g.unmatched_ends, nvtx_recorder(),
              __atomic_load_n(&g.ext_decoded, __ATOMIC_RELAXED),
              __atomic_load_n(&g.ext_undecoded, __ATOMIC_RELAXED),
              __atomic_load_n(&g.ext_unmatched, __ATOMIC_RELAXED));
    pthread_mutex_lock(&g.err_mu);
    for (int i = 0; i < g.nerrors; i++) {
        if (i)
            sb_puts(&s, ",");
        sb_str(&s, g.errors[i]);
    }
    pthread_mutex_unlock(&g.err_mu);
    sb_puts(&s, "],\"devices\":[");
    bool first = true;
    for (int d = 0; d < MAX_DEV; d++)
        if (g.dev_json[d]) {
            if (!first)
                sb_puts(&s, ",");
            sb_puts(&s, g.dev_json[d]);
            first = false;
        }
    sb_puts(&s, "],\"recorded\":[");
    first = true;
    for (size_t i = 0; i < sizeof rec_words / sizeof rec_words[0]; i++)
        if (rec_words[i].bit && rec_words[i].bit != REC_ALL && (g.record & rec_words[i].bit)) {
            sb_printf(&s, "%s\"%s\"", first ? "" : ",", rec_words[i].word);
            first = false;
        }
    pthread_mutex_lock(&pool.mu);
    sb_printf(&s,
              "],\"activity_buffers\":{\"bytes\":%zu,\"requests\":%" PRIu64
              ",\"allocated_on_request\":%" PRIu64 ",\"zeroed_in_advance\":%s}",
              g.buffer_bytes, pool.requests, pool.allocs_on_request,
              pool.zeroed ? "true" : "false");
    pthread_mutex_unlock(&pool.mu);
    sb_puts(&s, "}}\n");
    if (s.oom)
        note_error("out of memory writing the trace's end; the file is left incomplete");
    /* the unclosed ranges are in this text: lost with it (stderr, below) */
    written_or_dropped(!s.oom && write_all(s.p, s.len), unclosed);
    g.closed = true;
    if (g.fd >= 0)
        close(g.fd);
    g.fd = -1;
    if (g.dropped)
        fprintf(stderr, "commroof-trace: %" PRIu64 " records dropped (see %s)\n", g.dropped,
                g.path);
    else if (!g.quiet)
        fprintf(stderr, "commroof-trace: %" PRIu64 " records written to %s\n", g.records, g.path);
    pthread_mutex_unlock(&g.mu);
    free(s.p);
}

/* fork() in a threaded program copies the tracer's mutexes in whatever
 * state another thread held them (the flush thread, CUPTI's worker, an NVTX
 * call on the own path); a child that then exits (finish, atexit) or calls
 * NVTX blocked forever. The child owns nothing of the tracer (owner() is
 * false there), so it gets fresh, unlocked mutexes. Not a prepare handler
 * that takes them all: the flush thread can hold g.mu while it waits inside
 * the driver (drv_props_of), and the driver's own fork handlers may hold
 * the driver's locks by then. */
static void fork_child(void);

static void setup(void)
{
    g.os_pid = getpid();
    pthread_atfork(NULL, NULL, fork_child);
    g.quiet = env_bool("COMMROOF_TRACE_QUIET", false);
    g.flush_ms = (unsigned)env_num("COMMROOF_TRACE_FLUSH_MS", 10, 600000, 500, "milliseconds");
    g.buffer_bytes =
        (size_t)env_num("COMMROOF_TRACE_BUFFER_BYTES", 65536, 1LL << 30, 8 << 20, "bytes");
    g.record = record_mask(getenv("COMMROOF_TRACE_RECORD"));
    static const char *const rank_env[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                           "SLURM_PROCID", NULL};
    static const char *const local_env[] = {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                            "MPI_LOCALRANKID", "SLURM_LOCALID", NULL};
    static const char *const world_env[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                            "SLURM_NTASKS", NULL};
    g.rank = env_int(rank_env, -1);
    g.local_rank = env_int(local_env, -1);
    g.world_size = env_int(world_env, -1);
    g.launch_blocking = launch_blocking_env();
    if (gethostname(g.host, sizeof g.host - 1) != 0)
        snprintf(g.host, sizeof g.host, "unknown");
    /* A hostname with '/' would make a path: keep file names plain. */
    char hostfile[256];
    snprintf(hostfile, sizeof hostfile, "%s", g.host);
    for (char *p = hostfile; *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '_';

    const char *dir = getenv("COMMROOF_TRACE_DIR");
    if (!dir || !*dir)
        dir = ".";
    char stem[4096];
    int sn;
    if (g.rank >= 0)
        sn = snprintf(stem, sizeof stem, "%s/" CR_TRACE_FILE_PREFIX "%s.%d.rank%d", dir, hostfile,
                      (int)g.os_pid, g.rank);
    else
        sn = snprintf(stem, sizeof stem, "%s/" CR_TRACE_FILE_PREFIX "%s.%d", dir, hostfile,
                      (int)g.os_pid);
    /* the stem whole (g.path takes at most CR_TRACE_STEM_MAX of it, then ".999.json"):
     * a longer folder cut the name (a trace named "comm.json", which
     * commroof trace did not find, the pid and rank lost from it) */
    if (sn < 0 || sn > CR_TRACE_STEM_MAX) {
        note_error("COMMROOF_TRACE_DIR is %zu characters long, too long for the trace's file "
                   "name (at most %zu with this host name): the program runs untraced; give a "
                   "shorter folder",
                   strlen(dir),
                   (size_t)CR_TRACE_STEM_MAX - (sn < 0 ? 0 : (size_t)sn - strlen(dir)));
        return;
    }
    mkdir_p(dir);
    /* Never an existing file (O_EXCL): exec() keeps the pid and the
     * environment, so the new program's tracer comes here with the name of
     * the file the old one wrote, and truncating it lost every event the
     * old program had written. exec() cannot be intercepted from an
     * injected library (the program's calls bind to libc, not to us): the
     * old file keeps what reached it (each range and each CUPTI buffer is
     * written as it comes) and has no end, so readers report it
     * incomplete; the new one goes to STEM.1.json, .2, ... */
    int suffix = 0;
    for (;;) {
        if (suffix == 0)
            snprintf(g.path, sizeof g.path, "%.4000s.json", stem);
        else
            snprintf(g.path, sizeof g.path, "%.4000s.%d.json", stem, suffix);
        g.fd = open(g.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (g.fd >= 0 || errno != EEXIST || suffix >= 999)
            break;
        suffix++;
    }
    if (g.fd < 0) {
        note_error("cannot create %s: %s; the program runs untraced", g.path, strerror(errno));
        return;
    }
    if (g.fd <= STDERR_FILENO) {
        /* The program runs with stdin, stdout or stderr closed (2>&-, a
         * daemon): the trace got that number, and everything written there
         * (our own messages on stderr, the program's output) went into the
         * trace, which then did not read. Move it above them; the standard
         * number stays closed, as the program had it. */
        int hi = fcntl(g.fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
        if (hi >= 0) {
            close(g.fd);
            g.fd = hi;
        }
    }
    struct rlimit fsz;
    if (getrlimit(RLIMIT_FSIZE, &fsz) == 0 && fsz.rlim_cur != RLIM_INFINITY) {
        g.fsize_limited = true;
        g.fsize_max = (uint64_t)fsz.rlim_cur;
    }
    if (suffix > 0)
        note_error("%.4000s.json exists (this process exec()ed from a traced program, or an "
                   "earlier process had its pid): tracing to %s",
                   stem, g.path);
    if (cuptiGetTimestamp(&g.ts_base) != CUPTI_SUCCESS) {
        g.clock_own = true; /* CUPTI's clock is CLOCK_REALTIME in ns where it works */
        g.ts_base = now_ns();
    }
    /* Before any kind is enabled, so before CUPTI asks for a buffer: buffers
     * come from the pool already zeroed, so CUPTI does not zero them on the
     * program's thread (trace_buffers.c). Where CUPTI refuses, it zeroes them
     * itself as before and the pool still saves the allocation. */
    bool cupti = cupti_ok(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
                          "cuptiActivityRegisterCallbacks");
    if (!cupti && !g.nvtx_started) {
        close(g.fd);
        g.fd = -1;
        unlink(g.path);
        return;
    }
    uint8_t zeroed = 1;
    size_t zsz = sizeof zeroed;
    if (cupti) {
        pool.zeroed = cupti_ok(cuptiActivitySetAttribute(
                                   CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &zsz, &zeroed),
                               "cuptiActivitySetAttribute(ZEROED_OUT_ACTIVITY_BUFFER)");
        pool_prefill();
    }
    /* A device-side record buffer large enough for many thousands of kernels
     * in flight (each kernel record is ~200 bytes): CUPTI drops records when
     * it fills before the worker thread drains it. */
    size_t devbuf = 32u << 20;
    size_t sz = sizeof devbuf;
    if (cupti)
        cupti_ok(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &sz, &devbuf),
                 "cuptiActivitySetAttribute(DEVICE_BUFFER_SIZE)");
    /* COMMROOF_TRACE_CUPTI_PINNED=1: CUPTI's timestamp buffers in pinned host
     * memory instead of device memory (CUPTI's default since CUDA 12.0
     * Update 1); for measuring which costs the program less
     * (traces/tracer/h200_overhead_ab.sh). */
    if (env_bool("COMMROOF_TRACE_CUPTI_PINNED", false) && cupti) {
        uint8_t on = 1;
        size_t osz = sizeof on;
        cupti_ok(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED,
                                           &osz, &on),
                 "cuptiActivitySetAttribute(MEM_ALLOCATION_TYPE_HOST_PINNED)");
    }
    static const struct {
        CUpti_ActivityKind kind;
        const char *name;
        unsigned need; /* REC_* bit that asks for it; 0: always */
    } kinds[] = {
        {CUPTI_ACTIVITY_KIND_DEVICE, "DEVICE", 0},
        {CUPTI_ACTIVITY_KIND_CONTEXT, "CONTEXT", 0},
        {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CONCURRENT_KERNEL", REC_KERNEL},
        {CUPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY", REC_MEMCPY},
        {CUPTI_ACTIVITY_KIND_MEMCPY2, "MEMCPY2", REC_MEMCPY},
        {CUPTI_ACTIVITY_KIND_MEMSET, "MEMSET", REC_MEMSET},
        {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "SYNCHRONIZATION", REC_SYNC},
        {CUPTI_ACTIVITY_KIND_MARKER, "MARKER", 0},
        {CUPTI_ACTIVITY_KIND_MARKER_DATA, "MARKER_DATA", 0},
    };
    /* The file's opening text is written and the tracer marked active (under
     * g.mu, as buffer_completed reads it) before the first kind is enabled:
     * CUPTI may deliver a buffer from its worker thread as soon as one is,
     * and a buffer that found the tracer not yet active was neither written
     * nor counted. */
    static const char head[] = "{\"traceEvents\":[\n";
    pthread_mutex_lock(&g.mu);
    write_all(head, sizeof head - 1);
    sb_t s = {0};
    name_pid(&s, -1);
    if (s.p)
        write_all(s.p, s.len);
    free(s.p);
    g.active = true;
    pthread_mutex_unlock(&g.mu);
    int enabled = 0;
    CUptiResult why[sizeof kinds / sizeof kinds[0]] = {CUPTI_SUCCESS};
    for (size_t i = 0; cupti && i < sizeof kinds / sizeof kinds[0]; i++) {
        if (kinds[i].need && !(g.record & kinds[i].need)) {
            why[i] = CUPTI_SUCCESS; /* left out on request, not an error */
            continue;
        }
        why[i] = cuptiActivityEnable(kinds[i].kind);
        if (why[i] == CUPTI_SUCCESS) {
            enabled++;
            g.cupti_on = true;
            if (kinds[i].kind == CUPTI_ACTIVITY_KIND_MARKER)
                g.marker_on = true;
        }
    }
    for (size_t i = 0; cupti && i < sizeof kinds / sizeof kinds[0]; i++) {
        char what[96];
        if (enabled == 0) { /* one line, not one per kind (a machine without a GPU) */
            cupti_ok(why[i], "cuptiActivityEnable (every activity kind)");
            break;
        }
        snprintf(what, sizeof what, "cuptiActivityEnable(%s)", kinds[i].name);
        cupti_ok(why[i], what);
    }
    /* metadata.recorded says what CUPTI records, not what was asked for: a
     * kind CUPTI refused (an error above) is not recorded, and a reader
     * that took it as recorded read "no copies" where none were recorded */
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].need && (!cupti || why[i] != CUPTI_SUCCESS))
            g.record &= ~kinds[i].need;
    if ((g.record & REC_API) && !(cupti && enabled > 0 && enable_work_calls()))
        g.record &= ~(unsigned)REC_API;
    if ((g.record & REC_GRAPH) && !(cupti && enabled > 0 && graph_setup()))
        g.record &= ~(unsigned)REC_GRAPH;
    if (enabled == 0 && g.nvtx_started) {
        /* No GPU, or CUPTI refuses: NVTX ranges are still recorded, by our
         * own NVTX wrappers (the "own path", traces/README.md). */
        note_error("CUPTI records nothing here; recording NVTX ranges only, without CUPTI");
    } else if (enabled == 0) {
        note_error("no activity kind could be enabled; the program runs untraced");
        pthread_mutex_lock(&g.mu); /* nothing was enabled, so nothing came */
        g.active = false;
        close(g.fd);
        g.fd = -1;
        unlink(g.path); /* an empty file would read as a truncated trace */
        pthread_mutex_unlock(&g.mu);
        return;
    }
    if (!g.cupti_on) {
        /* nothing to flush: the own path writes each range as it ends */
    } else if (pthread_create(&g.flusher, NULL, flusher_main, NULL) == 0) {
        pthread_detach(g.flusher);
        g.flusher_started = true;
    } else {
        note_error("no periodic flush thread; records reach the file at exit or when buffers "
                   "fill");
    }
    atexit(finish);
    if (!g.quiet)
        fprintf(stderr, "commroof-trace: tracing to %s\n", g.path);
}

static void fork_child(void)
{
    static const pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    g.mu = fresh;
    g.err_mu = fresh;
    nv.mu = fresh;
    pool.mu = fresh;
    graph_fork_child();
}

void setup_once(void)
{
    pthread_once(&g.once, setup);
}

/* Called by the CUDA driver when it initialises (CUDA_INJECTION64_PATH). */
EXPORT int InitializeInjection(void);
EXPORT int InitializeInjection(void)
{
    setup_once();
    return 1; /* the driver carries on whatever happens here */
}
