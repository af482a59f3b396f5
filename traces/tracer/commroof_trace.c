/* SPDX-License-Identifier: MIT */
/*
 * libcommroof_trace.so: a CUPTI injection library that traces an unmodified
 * CUDA program (CUDA_INJECTION64_PATH) and its NVTX ranges
 * (NVTX_INJECTION64_PATH) into one Chrome trace JSON file per process. The
 * format is described in traces/README.md; the reader is traces/reader/.
 *
 * Rules this file keeps:
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
 *   next free name, .1.json, .2.json, ... (setup).
 *
 * Built by traces/tracer/tracer.mk with gcc against CUDA's CUPTI headers.
 */
#define _GNU_SOURCE
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
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>
#include <cupti.h>

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

#include "sb.h"
#include "nvtx_payload.h"

/* Microseconds with exactly 3 decimals from a signed ns count (no rounding). */
static void sb_us(sb_t *s, int64_t ns)
{
    const char *sign = "";
    uint64_t a = (uint64_t)ns;
    if (ns < 0) {
        sign = "-";
        a = (uint64_t)(-(ns + 1)) + 1;
    }
    sb_printf(s, "%s%" PRIu64 ".%03u", sign, a / 1000, (unsigned)(a % 1000));
}

/* ---------- global state (one tracer per process) ---------- */

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

static struct {
    pthread_mutex_t mu;     /* the file and all tracing state */
    pthread_mutex_t err_mu; /* errors[] only: taken with or without mu */
    pthread_once_t once;
    bool active;  /* set up and writing */
    bool closed;  /* the closing text was written */
    pid_t os_pid; /* the process that owns fd */
    int fd;
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
} g = {.mu = PTHREAD_MUTEX_INITIALIZER,
       .err_mu = PTHREAD_MUTEX_INITIALIZER,
       .once = PTHREAD_ONCE_INIT,
       .fd = -1};

static bool owner(void)
{
    return g.os_pid == getpid();
}

/* A timestamp on CUPTI's clock (ns), or CLOCK_REALTIME where CUPTI has none. */
static uint64_t now_ns(void)
{
    uint64_t t = 0;
    if (!g.clock_own && cuptiGetTimestamp(&t) == CUPTI_SUCCESS)
        return t;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Prints a message once per distinct text, and keeps it for the metadata. */
__attribute__((format(printf, 1, 2))) static void note_error(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&g.err_mu);
    bool seen = false;
    for (int i = 0; i < g.nerrors && !seen; i++)
        seen = strcmp(g.errors[i], msg) == 0;
    if (!seen && g.nerrors < (int)(sizeof g.errors / sizeof g.errors[0]))
        g.errors[g.nerrors++] = strdup(msg);
    pthread_mutex_unlock(&g.err_mu);
    if (!seen)
        fprintf(stderr, "commroof-trace: %s\n", msg);
}

static bool cupti_ok(CUptiResult r, const char *what)
{
    if (r == CUPTI_SUCCESS)
        return true;
    const char *s = NULL;
    if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s)
        s = "unknown CUPTI error";
    note_error("%s: %s (tracing continues without it)", what, s);
    return false;
}

/* Writes all n bytes; false when they were not all written: the file was
 * closed by an earlier failure, or this write failed (then the file is
 * closed, so that it ends there and reads as incomplete). The caller counts
 * the records of what it could not write as dropped: after a failure every
 * later record is lost, not only the line that failed. */
static bool write_all(const char *p, size_t n)
{
    if (g.fd < 0 || !owner())
        return false;
    while (n > 0) {
        ssize_t w = write(g.fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            note_error("writing %s: %s; the trace stops here (every later record is counted as "
                       "dropped)",
                       g.path, w < 0 ? strerror(errno) : "nothing written");
            close(g.fd);
            g.fd = -1;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* After writing (wrote) the text of nrec records that were counted in
 * g.records: where it was not written, they move to g.dropped. A text cut
 * by a failed write counts all its records, though the lines before the
 * cut reached the file (the reader takes them; the file is incomplete). */
static void written_or_dropped(bool wrote, uint64_t nrec)
{
    if (wrote)
        return;
    g.records -= nrec;
    g.dropped += nrec;
}

/* Environment values. A value that does not parse as a whole is never half
 * taken ("1000ms" is not 1000) nor silently dropped: it is reported once,
 * naming the variable, the value and what is accepted (stderr and
 * metadata.errors, note_error), and the default is used. Unset or empty
 * means the default. */

/* The decimal integer v, all of it (no sign other than '-', no space, no
 * unit), into *x; false when it is not one or does not fit. */
static bool parse_whole(const char *v, long long *x)
{
    const char *d = v[0] == '-' ? v + 1 : v;
    if (*d < '0' || *d > '9')
        return false;
    for (const char *p = d; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    errno = 0;
    char *end;
    *x = strtoll(v, &end, 10);
    return errno == 0 && *end == '\0';
}

/* The number in variable name, from lo to hi (what: its unit, for the
 * message); dflt when unset, empty or bad (reported). */
static long long env_num(const char *name, long long lo, long long hi, long long dflt,
                         const char *what)
{
    const char *v = getenv(name);
    long long x = 0;
    if (!v || !*v)
        return dflt;
    if (parse_whole(v, &x) && x >= lo && x <= hi)
        return x;
    note_error("%s=\"%.100s\" is not a whole number from %lld to %lld (%s, digits only); "
               "using %lld",
               name, v, lo, hi, what, dflt);
    return dflt;
}

/* The boolean in variable name: 1, yes, on, true or 0, no, off, false (any
 * case); dflt when unset, empty or anything else (reported). */
static bool env_bool(const char *name, bool dflt)
{
    static const char *const yes[] = {"1", "yes", "on", "true"};
    static const char *const no[] = {"0", "no", "off", "false"};
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcasecmp(v, yes[i]) == 0)
            return true;
        if (strcasecmp(v, no[i]) == 0)
            return false;
    }
    note_error("%s=\"%.100s\" is not 1, yes, on, true or 0, no, off, false; using %s", name, v,
               dflt ? "1" : "0");
    return dflt;
}

/* The first of names that is set to a whole number from 0 to 999999; one set
 * to anything else is reported and passed over. dflt when none is. */
static int env_int(const char *const *names, int dflt)
{
    for (; *names; names++) {
        const char *v = getenv(*names);
        long long x = 0;
        if (!v || !*v)
            continue;
        if (parse_whole(v, &x) && x >= 0 && x <= 999999)
            return (int)x;
        note_error("%s=\"%.100s\" is not a whole number from 0 to 999999; ignored", *names, v);
    }
    return dflt;
}

static int64_t host_pid_of(int dev)
{
    return (int64_t)g.os_pid * 100 + (dev < 0 || dev >= MAX_DEV ? HOST_DEV : dev);
}

static void sb_rank_suffix(sb_t *s)
{
    if (g.rank >= 0)
        sb_printf(s, ", rank %d", g.rank);
}

static void describe_device(sb_t *s, int dev, const CUpti_ActivityDevice5 *d);

/* process_name for a pid the first time it appears. Called with g.mu held. */
static void name_pid(sb_t *s, int dev)
{
    int slot = (dev < 0 || dev >= MAX_DEV) ? HOST_DEV : dev;
    if (g.pid_named[slot])
        return;
    g.pid_named[slot] = true;
    if (slot != HOST_DEV)
        describe_device(s, slot, NULL);
    sb_t n = {0};
    if (slot == HOST_DEV)
        sb_printf(&n, "host (pid %d", (int)g.os_pid);
    else if (g.dev_name[slot][0])
        sb_printf(&n, "GPU %d %s (pid %d", slot, g.dev_name[slot], (int)g.os_pid);
    else
        sb_printf(&n, "GPU %d (pid %d", slot, (int)g.os_pid);
    sb_rank_suffix(&n);
    sb_puts(&n, ")");
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64
              ",\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":",
              host_pid_of(slot));
    sb_str(s, n.p ? n.p : "");
    sb_puts(s, "}},\n");
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64
              ",\"tid\":0,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}},\n",
              host_pid_of(slot), slot);
    free(n.p);
}

static void name_stream(sb_t *s, int dev, uint32_t stream)
{
    name_pid(s, dev);
    uint32_t d = (uint32_t)(dev < 0 || dev >= MAX_DEV ? HOST_DEV : dev);
    for (size_t i = 0; i < g.nseen; i++)
        if (g.seen_streams[2 * i] == d && g.seen_streams[2 * i + 1] == stream)
            return;
    if (g.nseen == g.capseen) {
        size_t cap = g.capseen ? 2 * g.capseen : 64;
        uint32_t *p = realloc(g.seen_streams, cap * 2 * sizeof *p);
        if (!p)
            return; /* the name is cosmetic: no record is lost */
        g.seen_streams = p;
        g.capseen = cap;
    }
    g.seen_streams[2 * g.nseen] = d;
    g.seen_streams[2 * g.nseen + 1] = stream;
    g.nseen++;
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%u,\"name\":\"thread_name\",\"args\":{"
              "\"name\":\"stream %u\"}},\n",
              host_pid_of(dev), stream, stream);
}

/* ---------- device properties ---------- */

typedef CUresult (*fn_cuDeviceGet)(CUdevice *, int);
typedef CUresult (*fn_cuDeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*fn_cuDeviceGetPCIBusId)(char *, int, CUdevice);
typedef CUresult (*fn_cuDeviceGetName)(char *, int, CUdevice);
typedef CUresult (*fn_cuDeviceTotalMem)(size_t *, CUdevice);
typedef CUresult (*fn_cuDeviceGetUuid)(CUuuid *, CUdevice);

static void sb_uuid(sb_t *s, const CUuuid *id)
{
    const unsigned char *u = (const unsigned char *)id->bytes;
    sb_printf(s,
              ",\"uuid\":\"GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%"
              "02x\"",
              u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
              u[13], u[14], u[15]);
}

/* dl_iterate_phdr callback: copies the path of a loaded libcuda into data. */
static int find_libcuda(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *n = info->dlpi_name;
    const char *base = n ? strrchr(n, '/') : NULL;
    base = base ? base + 1 : n;
    if (base && strncmp(base, "libcuda.so", 10) == 0) {
        snprintf((char *)data, 4096, "%s", n);
        return 1;
    }
    return 0;
}

/* What the driver says about one device; what CUPTI's device record lacks
 * (PCI ids, memory clock and bus width) comes only from here. */
struct drv_props {
    bool ok; /* the driver answered for this device */
    char name[128];
    bool has_uuid;
    CUuuid uuid;
    int cc_major, cc_minor, sm_count, clock_khz, l2_bytes; /* 0 = not given */
    int mem_clock_khz, mem_bus_bits, pci_device_id;
    size_t mem_bytes;
    char pci[32]; /* "0000:00:06.0", "" = not given */
};

/* The loaded libcuda (a NOLOAD reference the caller dlclose()s), or NULL when
 * none is loaded. The runtime dlopen()s libcuda privately (RTLD_LOCAL), so
 * RTLD_DEFAULT does not see it (seen on the H200, 2026-11-29). Never loads
 * it: a process that has not loaded CUDA must not get it from us. */
static void *loaded_libcuda(void)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!cuda) { /* loaded under another name or path: find it among the loaded objects */
        char path[4096] = "";
        dl_iterate_phdr(find_libcuda, path);
        if (path[0])
            cuda = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    }
    return cuda;
}

/* Asks the driver (cuda, from loaded_libcuda) about device ordinal dev.
 * Returns the cuDeviceGet result; *p is filled on CUDA_SUCCESS. Never calls
 * cuInit. Reads only device attributes: no context is made or touched. */
static CUresult drv_query(void *cuda, int dev, struct drv_props *p)
{
    fn_cuDeviceGet get;
    fn_cuDeviceGetAttribute attr;
    fn_cuDeviceGetPCIBusId bus;
    fn_cuDeviceGetName getname;
    fn_cuDeviceTotalMem totalmem;
    fn_cuDeviceGetUuid getuuid;
    LOAD_SYM(get, cuda, "cuDeviceGet");
    LOAD_SYM(attr, cuda, "cuDeviceGetAttribute");
    LOAD_SYM(bus, cuda, "cuDeviceGetPCIBusId");
    LOAD_SYM(getname, cuda, "cuDeviceGetName");
    LOAD_SYM(totalmem, cuda, "cuDeviceTotalMem_v2");
    LOAD_SYM(getuuid, cuda, "cuDeviceGetUuid_v2");
    memset(p, 0, sizeof *p);
    CUdevice cu = 0;
    CUresult r = get ? get(&cu, dev) : CUDA_ERROR_NOT_FOUND;
    if (r != CUDA_SUCCESS)
        return r;
    p->ok = true;
    if (getname && getname(p->name, (int)sizeof p->name, cu) != CUDA_SUCCESS)
        p->name[0] = '\0';
    p->has_uuid = getuuid && getuuid(&p->uuid, cu) == CUDA_SUCCESS;
    static const struct {
        CUdevice_attribute a;
        size_t off;
    } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, offsetof(struct drv_props, cc_major)},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, offsetof(struct drv_props, cc_minor)},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, offsetof(struct drv_props, sm_count)},
        {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, offsetof(struct drv_props, clock_khz)},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, offsetof(struct drv_props, l2_bytes)},
        {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, offsetof(struct drv_props, mem_clock_khz)},
        {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, offsetof(struct drv_props, mem_bus_bits)},
        {CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID, offsetof(struct drv_props, pci_device_id)},
    };
    for (size_t i = 0; attr && i < sizeof attrs / sizeof attrs[0]; i++) {
        int v = 0;
        if (attr(&v, attrs[i].a, cu) == CUDA_SUCCESS)
            memcpy((char *)p + attrs[i].off, &v, sizeof v);
    }
    if (totalmem && totalmem(&p->mem_bytes, cu) != CUDA_SUCCESS)
        p->mem_bytes = 0;
    if (bus && bus(p->pci, (int)sizeof p->pci, cu) != CUDA_SUCCESS)
        p->pci[0] = '\0';
    return CUDA_SUCCESS;
}

/* Takes the driver's view of every device once CUDA is initialised; the
 * flush thread calls it until it returns true. Why not only when CUPTI's
 * device record comes: a program shorter than the flush period gets its
 * records at exit, when the runtime may have shut the driver down already
 * (cuDeviceGet failed there: h200-1/cuda_demo.json, a 0.46 s program, had no
 * PCI ids). cuDeviceGetCount does not initialise CUDA: before the program's
 * cuInit it fails and we ask again later. */
static bool drv_snapshot(void)
{
    if (__atomic_load_n(&g.drv_state, __ATOMIC_ACQUIRE) != 0)
        return true;
    void *cuda = loaded_libcuda();
    if (!cuda)
        return false;
    CUresult (*count)(int *);
    LOAD_SYM(count, cuda, "cuDeviceGetCount");
    int n = 0;
    CUresult r = count ? count(&n) : CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_ERROR_NOT_INITIALIZED) {
        dlclose(cuda);
        return false;
    }
    struct drv_props *props = calloc(MAX_DEV, sizeof *props);
    if (r == CUDA_SUCCESS && props)
        for (int d = 0; d < n && d < MAX_DEV; d++)
            drv_query(cuda, d, &props[d]);
    dlclose(cuda); /* drops only the reference NOLOAD took */
    pthread_mutex_lock(&g.mu);
    if (!g.drv && props && r == CUDA_SUCCESS) {
        g.drv = props;
        props = NULL;
    }
    __atomic_store_n(&g.drv_state, g.drv ? 1 : 2, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g.mu);
    free(props);
    return true;
}

/* The driver's properties of dev (g.mu held): the snapshot when it has
 * them, else asked now (cuInit retried only when the driver says it is not
 * initialised: records arrive, so the program is initialising CUDA). */
static bool drv_props_of(int dev, struct drv_props *p)
{
    if (g.drv && g.drv[dev].ok) {
        *p = g.drv[dev];
        return true;
    }
    void *cuda = loaded_libcuda();
    void *h = cuda ? cuda : RTLD_DEFAULT;
    CUresult r = drv_query(h, dev, p);
    if (r == CUDA_ERROR_NOT_INITIALIZED) {
        CUresult (*init)(unsigned);
        LOAD_SYM(init, h, "cuInit");
        if (init && init(0) == CUDA_SUCCESS)
            r = drv_query(h, dev, p);
    }
    if (cuda)
        dlclose(cuda);
    if (r != CUDA_SUCCESS)
        note_error("device %d: no PCI ids or memory clock (the driver did not answer: "
                   "cuDeviceGet returned %d)",
                   dev, (int)r);
    return r == CUDA_SUCCESS;
}

/* The device's properties, written once per device as a commroof_device
 * event and kept for metadata.devices. From CUPTI's device record when it
 * came (d != NULL), otherwise, and for what that record lacks (PCI ids,
 * memory clock and bus), from the driver. Fields neither source gives stay
 * absent, never guessed. Called with g.mu held. */
static void describe_device(sb_t *s, int dev, const CUpti_ActivityDevice5 *d)
{
    if (dev < 0 || dev >= MAX_DEV || g.dev_known[dev])
        return;
    g.dev_known[dev] = true;
    struct drv_props p;
    bool drv = drv_props_of(dev, &p);
    sb_t j = {0};
    sb_printf(&j, "{\"device\":%d", dev);
    char name[128] = "";
    if (d && d->name)
        snprintf(name, sizeof name, "%s", d->name);
    else if (drv)
        snprintf(name, sizeof name, "%s", p.name);
    snprintf(g.dev_name[dev], sizeof g.dev_name[dev], "%s", name);
    if (name[0]) {
        sb_puts(&j, ",\"name\":");
        sb_str(&j, name);
    }
    if (d)
        sb_uuid(&j, &d->uuid);
    else if (drv && p.has_uuid)
        sb_uuid(&j, &p.uuid);
    if (d) {
        sb_printf(&j,
                  ",\"cc_major\":%u,\"cc_minor\":%u,\"sm_count\":%u,\"clock_khz\":%u,"
                  "\"mem_bytes\":%" PRIu64 ",\"l2_bytes\":%u,\"copy_engines\":%u,"
                  "\"max_smem_per_sm_bytes\":%u,\"max_regs_per_sm\":%u",
                  d->computeCapabilityMajor, d->computeCapabilityMinor, d->numMultiprocessors,
                  d->coreClockRate, d->globalMemorySize, d->l2CacheSize, d->numMemcpyEngines,
                  d->maxSharedMemoryPerMultiprocessor, d->maxRegistersPerMultiprocessor);
    } else if (drv) {
        if (p.sm_count > 0) /* cc 0.0 is no device: with no SMs, leave the pair out */
            sb_printf(&j, ",\"cc_major\":%d,\"cc_minor\":%d,\"sm_count\":%d", p.cc_major,
                      p.cc_minor, p.sm_count);
        if (p.clock_khz > 0)
            sb_printf(&j, ",\"clock_khz\":%d", p.clock_khz);
        if (p.mem_bytes > 0)
            sb_printf(&j, ",\"mem_bytes\":%zu", p.mem_bytes);
        if (p.l2_bytes > 0)
            sb_printf(&j, ",\"l2_bytes\":%d", p.l2_bytes);
    }
    if (drv && p.mem_clock_khz > 0)
        sb_printf(&j, ",\"mem_clock_khz\":%d", p.mem_clock_khz);
    if (drv && p.mem_bus_bits > 0)
        sb_printf(&j, ",\"mem_bus_bits\":%d", p.mem_bus_bits);
    if (drv && p.pci_device_id != 0)
        sb_printf(&j, ",\"pci_device_id\":\"0x%08x\"", (unsigned)p.pci_device_id);
    if (drv && p.pci[0]) {
        sb_puts(&j, ",\"pci\":");
        sb_str(&j, p.pci);
    }
    sb_puts(&j, ",\"source\":");
    sb_str(&j, d ? (drv ? "cupti+driver" : "cupti") : "driver");
    sb_puts(&j, "}");
    if (j.oom) {
        free(j.p);
        return;
    }
    g.dev_json[dev] = j.p;
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":0,\"name\":\"commroof_device\",\"args\":",
              host_pid_of(dev));
    sb_puts(s, j.p);
    sb_puts(s, "},\n");
}

/* ---------- names ---------- */

typedef char *(*fn_demangle)(const char *, char *, size_t *, int *);

/* The ,"name":..."mangled":... fragment of a kernel, cached by CUPTI's
 * pointer (constant per function), so demangling happens once per kernel. */
static const char *kernel_name_json(const char *mangled)
{
    if (!mangled)
        mangled = "";
    if (g.capnames && g.nnames * 2 < g.capnames) {
        size_t h = ((uintptr_t)mangled >> 3) * 11400714819323198485ull % g.capnames;
        for (;;) {
            if (g.names[h].key == mangled)
                return g.names[h].json;
            if (!g.names[h].key)
                break;
            h = (h + 1) % g.capnames;
        }
    }
    if (g.nnames * 2 >= g.capnames) { /* grow (also the first time) */
        size_t cap = g.capnames ? 2 * g.capnames : 1024;
        name_slot *n = calloc(cap, sizeof *n);
        if (!n)
            return NULL;
        for (size_t i = 0; i < g.capnames; i++)
            if (g.names[i].key) {
                size_t h = ((uintptr_t)g.names[i].key >> 3) * 11400714819323198485ull % cap;
                while (n[h].key)
                    h = (h + 1) % cap;
                n[h] = g.names[i];
            }
        free(g.names);
        g.names = n;
        g.capnames = cap;
    }
    static fn_demangle dem;
    static bool looked;
    if (!looked) {
        /* PyTorch loads libstdc++ privately, where RTLD_DEFAULT misses it
         * (seen on the H200, 2026-11-29); a plain C program may not have it
         * at all, and then loading it (privately) is harmless. */
        void *cxx = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_NOLOAD);
        if (!cxx)
            cxx = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        LOAD_SYM(dem, cxx ? cxx : RTLD_DEFAULT, "__cxa_demangle");
        looked = true;
    }
    char *d = NULL;
    if (dem && mangled[0] == '_' && mangled[1] == 'Z') {
        int st = -1;
        d = dem(mangled, NULL, NULL, &st);
        if (st != 0) {
            free(d);
            d = NULL;
        }
    }
    sb_t s = {0};
    sb_puts(&s, ",\"name\":");
    sb_str(&s, d ? d : mangled);
    if (d) {
        sb_puts(&s, ",\"args\":{\"mangled\":");
        sb_str(&s, mangled);
        sb_puts(&s, ",");
    } else {
        sb_puts(&s, ",\"args\":{");
    }
    free(d);
    if (s.oom) {
        free(s.p);
        return NULL;
    }
    size_t h = ((uintptr_t)mangled >> 3) * 11400714819323198485ull % g.capnames;
    while (g.names[h].key)
        h = (h + 1) % g.capnames;
    g.names[h].key = mangled;
    g.names[h].json = s.p;
    g.nnames++;
    return s.p;
}

/* ---------- activity records ---------- */

static const char *copy_kind_word(unsigned k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return "h2d";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return "d2h";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return "h2a";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return "a2h";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
        return "a2a";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
        return "a2d";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
        return "d2a";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return "d2d";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return "h2h";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return "p2p";
    default:
        return "unknown";
    }
}

static const char *mem_kind_word(unsigned k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
        return "pageable";
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
        return "pinned";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
        return "device";
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
        return "array";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
        return "managed";
    default:
        return "unknown";
    }
}

/* False (and counted as dropped) for a record whose timestamps CUPTI never
 * filled in: a forced flush at exit can deliver such records. */
static bool times_ok(uint64_t start, uint64_t end)
{
    if (start == 0 || end == 0 || end < start) {
        g.incomplete++;
        g.dropped++;
        return false;
    }
    if (end > g.last_ts)
        g.last_ts = end;
    return true;
}

static void head_x(sb_t *s, const char *cat, int dev, uint32_t stream, uint64_t start, uint64_t end)
{
    sb_printf(s, "{\"ph\":\"X\",\"cat\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":", cat,
              host_pid_of(dev), stream);
    sb_us(s, (int64_t)(start - g.ts_base));
    sb_puts(s, ",\"dur\":");
    sb_us(s, (int64_t)(end - start));
}

static void note_ctx(uint32_t ctx, uint32_t dev)
{
    if (ctx < sizeof g.ctx_dev / sizeof g.ctx_dev[0])
        g.ctx_dev[ctx] = dev + 1;
}

static void kernel_record(sb_t *s, const CUpti_ActivityKernel10 *k)
{
    if (!times_ok(k->start, k->end))
        return;
    int dev = (int)k->deviceId;
    note_ctx(k->contextId, k->deviceId);
    name_stream(s, dev, k->streamId);
    head_x(s, "kernel", dev, k->streamId, k->start, k->end);
    const char *nj = kernel_name_json(k->name);
    if (nj) {
        sb_puts(s, nj);
    } else {
        sb_puts(s, ",\"name\":");
        sb_str(s, k->name);
        sb_puts(s, ",\"args\":{");
    }
    sb_printf(s,
              "\"device\":%d,\"stream\":%u,\"context\":%u,\"correlation\":%u,"
              "\"grid\":[%d,%d,%d],\"block\":[%d,%d,%d],\"cluster\":[%u,%u,%u],"
              "\"registers\":%u,\"smem_static_bytes\":%d,\"smem_dynamic_bytes\":%d,"
              "\"local_bytes_per_thread\":%u",
              dev, k->streamId, k->contextId, k->correlationId, k->gridX, k->gridY, k->gridZ,
              k->blockX, k->blockY, k->blockZ, k->clusterX, k->clusterY, k->clusterZ,
              k->registersPerThread, k->staticSharedMemory, k->dynamicSharedMemory,
              k->localMemoryPerThread);
    if (k->graphId)
        sb_printf(s, ",\"graph\":%u", k->graphId);
    sb_puts(s, "}},\n");
}

static void memcpy_record(sb_t *s, const CUpti_ActivityMemcpy6 *m)
{
    if (!times_ok(m->start, m->end))
        return;
    int dev = (int)m->deviceId;
    note_ctx(m->contextId, m->deviceId);
    const char *kind = copy_kind_word(m->copyKind);
    int src = -1, dst = -1;
    switch (m->copyKind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        dst = dev;
        break;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        src = dev;
        break;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        break;
    default:
        src = dst = dev;
    }
    name_stream(s, dev, m->streamId);
    head_x(s, "memcpy", dev, m->streamId, m->start, m->end);
    sb_printf(s,
              ",\"name\":\"memcpy %s\",\"args\":{\"device\":%d,\"stream\":%u,\"context\":%u,"
              "\"correlation\":%u,\"kind\":\"%s\",\"bytes\":%" PRIu64
              ",\"src_device\":%d,\"dst_device\":%d,\"src_mem\":\"%s\",\"dst_mem\":\"%s\"",
              kind, dev, m->streamId, m->contextId, m->correlationId, kind, m->bytes, src, dst,
              mem_kind_word(m->srcKind), mem_kind_word(m->dstKind));
    if (m->graphId)
        sb_printf(s, ",\"graph\":%u", m->graphId);
    sb_puts(s, "}},\n");
}

static void p2p_record(sb_t *s, const CUpti_ActivityMemcpyPtoP4 *m)
{
    if (!times_ok(m->start, m->end))
        return;
    int dev = (int)m->deviceId;
    note_ctx(m->contextId, m->deviceId);
    name_stream(s, dev, m->streamId);
    head_x(s, "memcpy", dev, m->streamId, m->start, m->end);
    sb_printf(s,
              ",\"name\":\"memcpy p2p\",\"args\":{\"device\":%d,\"stream\":%u,\"context\":%u,"
              "\"correlation\":%u,\"kind\":\"p2p\",\"bytes\":%" PRIu64
              ",\"src_device\":%u,\"dst_device\":%u,\"src_mem\":\"%s\",\"dst_mem\":\"%s\"}},\n",
              dev, m->streamId, m->contextId, m->correlationId, m->bytes, m->srcDeviceId,
              m->dstDeviceId, mem_kind_word(m->srcKind), mem_kind_word(m->dstKind));
}

static void memset_record(sb_t *s, const CUpti_ActivityMemset4 *m)
{
    if (!times_ok(m->start, m->end))
        return;
    int dev = (int)m->deviceId;
    note_ctx(m->contextId, m->deviceId);
    name_stream(s, dev, m->streamId);
    head_x(s, "memset", dev, m->streamId, m->start, m->end);
    sb_printf(s,
              ",\"name\":\"memset\",\"args\":{\"device\":%d,\"stream\":%u,\"context\":%u,"
              "\"correlation\":%u,\"bytes\":%" PRIu64 ",\"value\":%u,\"mem\":\"%s\"}},\n",
              dev, m->streamId, m->contextId, m->correlationId, m->bytes, m->value,
              mem_kind_word(m->memoryKind));
}

static void sync_record(sb_t *s, const CUpti_ActivitySynchronization2 *y)
{
    if (!times_ok(y->start, y->end))
        return;
    const char *type = "unknown";
    switch (y->type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
        type = "event";
        break;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
        type = "stream_wait_event";
        break;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
        type = "stream";
        break;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
        type = "context";
        break;
    default:
        break;
    }
    int dev = -1;
    if (y->contextId < sizeof g.ctx_dev / sizeof g.ctx_dev[0] && g.ctx_dev[y->contextId])
        dev = (int)g.ctx_dev[y->contextId] - 1;
    uint32_t stream = y->streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? 0 : y->streamId;
    name_stream(s, dev, stream);
    head_x(s, "sync", dev, stream, y->start, y->end);
    sb_printf(s,
              ",\"name\":\"sync %s\",\"args\":{\"device\":%d,\"stream\":%d,\"context\":%u,"
              "\"correlation\":%u,\"type\":\"%s\"",
              type, dev, y->streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? -1 : (int)stream,
              y->contextId, y->correlationId, type);
    if (y->cudaEventId != CUPTI_SYNCHRONIZATION_INVALID_VALUE)
        sb_printf(s, ",\"event\":%u", y->cudaEventId);
    sb_puts(s, "}},\n");
}

static void range_args(sb_t *s, const open_range *o, bool unclosed)
{
    sb_printf(s, ",\"args\":{\"device\":-1,\"thread\":%u", o->tid);
    if (o->domain) {
        sb_puts(s, ",\"domain\":");
        sb_str(s, o->domain);
    }
    /* An event whose extended payload we decoded reached CUPTI without it
     * (attr_for_cupti), so CUPTI's scalar payload is only a placeholder. */
    bool ext = o->ext_json || o->ext_undecoded;
    if (o->has_data) {
        switch (ext ? -1 : o->payload_kind) {
        case CUPTI_METRIC_VALUE_KIND_UINT64:
            sb_printf(s, ",\"payload\":%" PRIu64 ",\"payload_kind\":\"u64\"",
                      o->payload.metricValueUint64);
            break;
        case CUPTI_METRIC_VALUE_KIND_INT64:
            sb_printf(s, ",\"payload\":%" PRId64 ",\"payload_kind\":\"i64\"",
                      o->payload.metricValueInt64);
            break;
        case CUPTI_METRIC_VALUE_KIND_DOUBLE:
            /* JSON has no NaN or infinity: leave such a payload out. */
            if (o->payload.metricValueDouble == o->payload.metricValueDouble &&
                o->payload.metricValueDouble < 1e308 && o->payload.metricValueDouble > -1e308)
                sb_printf(s, ",\"payload\":%.17g,\"payload_kind\":\"double\"",
                          o->payload.metricValueDouble);
            break;
        case CUPTI_METRIC_VALUE_KIND_NVTX_EXTENDED_PAYLOAD:
            if (!o->ext_json && !o->ext_undecoded)
                sb_puts(s, ",\"payload_kind\":\"nvtx_ext\"");
            break;
        default:
            break;
        }
        if (o->color)
            sb_printf(s, ",\"color\":%u", o->color);
        if (o->category)
            sb_printf(s, ",\"category\":%u", o->category);
    }
    if (o->ext_json) {
        sb_puts(s, ",\"payload\":{");
        sb_puts(s, o->ext_json);
        sb_puts(s, "},\"payload_kind\":\"nvtx_ext\"");
    } else if (o->ext_undecoded) {
        sb_puts(s, ",\"payload_kind\":\"nvtx_ext\"");
    }
    if (o->ext_undecoded)
        sb_puts(s, ",\"payload_undecoded\":true");
    if (unclosed)
        sb_puts(s, ",\"unclosed\":true");
    sb_puts(s, "}},\n");
}

static void emit_range(sb_t *s, const open_range *o, uint64_t end, bool unclosed)
{
    if (end < o->start)
        end = o->start;
    name_pid(s, -1);
    sb_printf(s, "{\"ph\":\"X\",\"cat\":\"nvtx\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":",
              host_pid_of(-1), o->tid);
    sb_us(s, (int64_t)(o->start - g.ts_base));
    sb_puts(s, ",\"dur\":");
    sb_us(s, (int64_t)(end - o->start));
    sb_puts(s, ",\"name\":");
    sb_str(s, o->name ? o->name : "");
    range_args(s, o, unclosed);
}

static void free_range(open_range *o)
{
    free(o->name);
    free(o->domain);
    free(o->ext_json);
}

static void pend_claim(open_range *o, uint32_t tid, uint64_t ts, bool at_end);

static open_range *find_range(uint32_t id)
{
    for (size_t i = g.nranges; i-- > 0;)
        if (!g.ranges[i].own && g.ranges[i].id == id)
            return &g.ranges[i];
    return NULL;
}

static void marker_record(sb_t *s, const CUpti_ActivityMarker2 *m)
{
    uint32_t tid = m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? m->objectId.pt.threadId : 0;
    if (m->timestamp > g.last_ts)
        g.last_ts = m->timestamp;
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
        name_pid(s, -1);
        sb_printf(
            s, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"nvtx\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":",
            host_pid_of(-1), tid);
        sb_us(s, (int64_t)(m->timestamp - g.ts_base));
        sb_puts(s, ",\"name\":");
        sb_str(s, m->name);
        sb_printf(s, ",\"args\":{\"device\":-1,\"thread\":%u", tid);
        if (m->domain) {
            sb_puts(s, ",\"domain\":");
            sb_str(s, m->domain);
        }
        sb_puts(s, "}},\n");
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
        if (g.nranges == g.capranges) {
            size_t cap = g.capranges ? 2 * g.capranges : 64;
            open_range *p = realloc(g.ranges, cap * sizeof *p);
            if (!p) {
                g.dropped++;
                return;
            }
            g.ranges = p;
            g.capranges = cap;
        }
        open_range *o = &g.ranges[g.nranges++];
        memset(o, 0, sizeof *o);
        o->id = m->id;
        o->start = m->timestamp;
        o->tid = tid;
        o->name = strdup(m->name ? m->name : "");
        o->domain = m->domain ? strdup(m->domain) : NULL;
        o->payload_kind = -1;
        pend_claim(o, tid, m->timestamp, false);
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        open_range *o = find_range(m->id);
        if (!o) {
            /* An end without a start: the range opened before tracing began
             * (traces/README.md, known limits). Not a lost record; counted. */
            g.unmatched_ends++;
            return;
        }
        /* a pop happens on its push's thread: the START record's tid holds
         * even if CUPTI's END record names no thread */
        pend_claim(o, o->tid ? o->tid : tid, m->timestamp, true);
        emit_range(s, o, m->timestamp, false);
        free_range(o);
        *o = g.ranges[--g.nranges];
    }
}

static void marker_data_record(const CUpti_ActivityMarkerData2 *m)
{
    open_range *o = find_range(m->id);
    if (!o)
        return; /* data of an instant marker or of a range we do not hold */
    o->has_data = true;
    o->payload_kind = (int)m->payloadKind;
    o->payload = m->payload;
    o->color = m->color;
    o->category = m->category;
}

static void stats_line(sb_t *s)
{
    if (g.records == g.stats_records_written && g.dropped == g.stats_dropped_written)
        return;
    g.stats_records_written = g.records;
    g.stats_dropped_written = g.dropped;
    name_pid(s, -1);
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64
              ",\"tid\":0,\"name\":\"commroof_stats\",\"args\":{\"records\":%" PRIu64
              ",\"dropped_records\":%" PRIu64 "}},\n",
              host_pid_of(-1), g.records, g.dropped);
}

/* ---------- CUPTI buffers ---------- */

/* Activity buffers are kept in a pool and reused, zeroed in advance, so that
 * the program's thread that asks for one (CUPTI asks from the launching
 * thread when its per-thread buffer is full) neither maps fresh pages nor
 * waits for CUPTI to zero 8 MiB: with CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER
 * set, CUPTI trusts the buffer to be zero; otherwise "CUPTI will zero out the
 * buffer in the main thread" (cupti_activity.h), a stall on the launch path
 * (also reported by Kineto, pytorch/kineto#1020). A buffer comes back through
 * buffer_completed, on CUPTI's worker thread or a flushing one, where it is
 * zeroed again before it returns to the pool. */
#define POOL_MAX 8     /* buffers kept for reuse; more are freed */
#define POOL_PREFILL 2 /* allocated (and zeroed) at start */

static struct {
    pthread_mutex_t mu;
    void *b[POOL_MAX];
    int n;
    bool zeroed;                /* CUPTI was told buffers come zeroed */
    uint64_t requests;          /* buffers CUPTI asked for */
    uint64_t allocs_on_request; /* ... that the pool could not give */
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* A new buffer, every page touched (zeroed) when CUPTI relies on it. */
static void *buffer_new(void)
{
    void *p = NULL;
    if (posix_memalign(&p, ALIGN, g.buffer_bytes) != 0 || !p)
        return NULL;
    if (pool.zeroed)
        memset(p, 0, g.buffer_bytes);
    return p;
}

static void pool_prefill(void)
{
    pthread_mutex_lock(&pool.mu);
    while (pool.n < POOL_PREFILL) {
        void *p = buffer_new();
        if (!p)
            break;
        pool.b[pool.n++] = p;
    }
    pthread_mutex_unlock(&pool.mu);
}

/* Gives a delivered buffer back to the pool (zeroed again), or frees it. */
static void pool_put(void *buffer)
{
    if (!buffer)
        return;
    pthread_mutex_lock(&pool.mu);
    bool keep = pool.n < POOL_MAX;
    pthread_mutex_unlock(&pool.mu);
    if (!keep) {
        free(buffer);
        return;
    }
    if (pool.zeroed) /* the whole buffer: CUPTI may write past the valid records */
        memset(buffer, 0, g.buffer_bytes);
    pthread_mutex_lock(&pool.mu);
    if (pool.n < POOL_MAX) {
        pool.b[pool.n++] = buffer;
        buffer = NULL;
    }
    pthread_mutex_unlock(&pool.mu);
    free(buffer);
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *max_records = 0;
    *size = 0;
    *buffer = NULL;
    void *p = NULL;
    pthread_mutex_lock(&pool.mu);
    pool.requests++;
    if (pool.n > 0)
        p = pool.b[--pool.n];
    else
        pool.allocs_on_request++;
    pthread_mutex_unlock(&pool.mu);
    if (!p)
        p = buffer_new();
    if (!p) {
        note_error("could not allocate a %zu-byte activity buffer; records are being dropped",
                   g.buffer_bytes);
        return; /* CUPTI counts what it drops; we read that count per buffer */
    }
    *buffer = p;
    *size = g.buffer_bytes;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    (void)size;
    pthread_mutex_lock(&g.mu);
    bool mine = owner();
    sb_t s = {0};
    if (mine && g.active && !g.closed && buffer) {
        CUpti_Activity *rec = NULL;
        uint64_t nrec = 0; /* records of this buffer in s */
        sb_reserve(&s, valid / 2 + 4096);
        for (;;) {
            CUptiResult r = cuptiActivityGetNextRecord(buffer, valid, &rec);
            if (r == CUPTI_ERROR_MAX_LIMIT_REACHED)
                break;
            if (r != CUPTI_SUCCESS) {
                cupti_ok(r, "cuptiActivityGetNextRecord");
                g.dropped++; /* the rest of this buffer is unreadable */
                break;
            }
            size_t before = s.len;
            switch (rec->kind) {
            case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
            case CUPTI_ACTIVITY_KIND_KERNEL:
                kernel_record(&s, (const CUpti_ActivityKernel10 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_MEMCPY:
                memcpy_record(&s, (const CUpti_ActivityMemcpy6 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_MEMCPY2:
                p2p_record(&s, (const CUpti_ActivityMemcpyPtoP4 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_MEMSET:
                memset_record(&s, (const CUpti_ActivityMemset4 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
                sync_record(&s, (const CUpti_ActivitySynchronization2 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_MARKER:
                marker_record(&s, (const CUpti_ActivityMarker2 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_MARKER_DATA:
                marker_data_record((const CUpti_ActivityMarkerData2 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_DEVICE:
                describe_device(&s, (int)((const CUpti_ActivityDevice5 *)(void *)rec)->id,
                                (const CUpti_ActivityDevice5 *)(void *)rec);
                break;
            case CUPTI_ACTIVITY_KIND_CONTEXT: {
                const CUpti_ActivityContext3 *c = (const CUpti_ActivityContext3 *)(void *)rec;
                note_ctx(c->contextId, c->deviceId);
                break;
            }
            default:
                break;
            }
            if (s.len > before && !s.oom) {
                g.records++;
                nrec++;
            }
            if (s.oom) {
                g.dropped++;
                s.oom = false;
                s.len = before;
            }
        }
        size_t dropped = 0;
        if (cuptiActivityGetNumDroppedRecords(ctx, stream_id, &dropped) == CUPTI_SUCCESS &&
            dropped > 0) {
            g.dropped += dropped;
        }
        size_t before_stats = s.len;
        stats_line(&s);
        if (s.oom) {
            /* no memory for the stats line: write the records without it,
             * and try the line again with the next buffer */
            s.oom = false;
            s.len = before_stats;
            g.stats_records_written = (uint64_t)-1;
        }
        if (s.len > 0)
            written_or_dropped(s.p && write_all(s.p, s.len), nrec);
    } else if (mine && buffer && !g.active && !g.closed) {
        /* A buffer before the tracer is active (setup enables CUPTI only
         * after it is, so none should come): its records are lost, counted. */
        CUpti_Activity *rec = NULL;
        while (valid > 0 && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS)
            g.dropped++;
        size_t dropped = 0;
        if (cuptiActivityGetNumDroppedRecords(ctx, stream_id, &dropped) == CUPTI_SUCCESS)
            g.dropped += dropped;
    } else if (mine && buffer && valid > 0 && g.closed) {
        /* Records that arrive after the file was closed (CUDA torn down after
         * our exit handler) cannot be written; stderr says how many. */
        CUpti_Activity *rec = NULL;
        uint64_t late = 0;
        while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS)
            late++;
        if (late)
            note_error("%" PRIu64 " records arrived after the trace was closed", late);
    }
    pthread_mutex_unlock(&g.mu);
    free(s.p);
    pool_put(buffer);
}

/* ---------- NVTX: state shared by our wrappers (see the end of the file) ---------- */

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

#define PEND_MAX 65536        /* payloads waiting per thread (CUPTI delivers every flush) */
#define PEND_THREADS_MAX 4096 /* threads with waiting payloads */
#define NAMES_MAX 65536

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

static struct {
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
} nv = {.mu = PTHREAD_MUTEX_INITIALIZER,
        .next_handle = 0x10000,
        .next_schema = NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START};

static uint32_t self_tid(void)
{
    /* CUPTI's marker records name threads by the low 32 bits of pthread_self
     * (seen in the h200-1 traces); the own path uses the same, so tids agree. */
    return (uint32_t)(uintptr_t)pthread_self();
}

static bool own_mode(void)
{
    return !(g.marker_on && nv.cupti_nvtx);
}

/* Remembers h -> a copy of s (nv.mu held). Lost names only cost labels. */
static void map_put(handle_name **a, size_t *n, size_t *cap, const void *h, const char *s)
{
    if (!h || !s || *n >= NAMES_MAX)
        return;
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        handle_name *p = realloc(*a, c * sizeof *p);
        if (!p)
            return;
        *a = p;
        *cap = c;
    }
    char *copy = strdup(s);
    if (!copy)
        return;
    (*a)[*n].h = h;
    (*a)[*n].s = copy;
    (*n)++;
}

/* A copy of the name of h, or NULL (nv.mu held). */
static char *map_get(const handle_name *a, size_t n, const void *h)
{
    for (size_t i = n; h && i-- > 0;)
        if (a[i].h == h)
            return strdup(a[i].s);
    return NULL;
}

static pend_thread *pend_thread_of(uint32_t tid, bool create)
{
    for (size_t i = 0; i < nv.nthreads; i++)
        if (nv.threads[i].tid == tid)
            return &nv.threads[i];
    if (!create || nv.nthreads >= PEND_THREADS_MAX)
        return NULL;
    if (nv.nthreads == nv.capthreads) {
        size_t c = nv.capthreads ? 2 * nv.capthreads : 16;
        pend_thread *p = realloc(nv.threads, c * sizeof *p);
        if (!p)
            return NULL;
        nv.threads = p;
        nv.capthreads = c;
    }
    pend_thread *t = &nv.threads[nv.nthreads++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    return t;
}

static void pend_free(pend_t *p)
{
    free(p->json);
    free(p->name);
}

/* Queues a decoded payload for the CUPTI record of its range (takes json
 * and name). */
static void pend_add(uint32_t tid, uint64_t t, bool at_end, char *json, bool undecoded, char *name)
{
    pthread_mutex_lock(&nv.mu);
    pend_thread *th = pend_thread_of(tid, true);
    int k = at_end ? 1 : 0;
    if (th && th->n[k] - th->head[k] >= PEND_MAX) {
        /* CUPTI is not delivering this thread's records: the oldest is lost */
        pend_free(&th->q[k][th->head[k]++]);
        __atomic_fetch_add(&g.ext_unmatched, 1, __ATOMIC_RELAXED);
    }
    if (th && th->head[k] > 0 && th->head[k] * 2 >= th->n[k]) { /* compact */
        memmove(th->q[k], th->q[k] + th->head[k], (th->n[k] - th->head[k]) * sizeof *th->q[k]);
        th->n[k] -= th->head[k];
        th->head[k] = 0;
    }
    if (th && th->n[k] == th->cap[k]) {
        size_t c = th->cap[k] ? 2 * th->cap[k] : 64;
        pend_t *p = realloc(th->q[k], c * sizeof *p);
        if (p) {
            th->q[k] = p;
            th->cap[k] = c;
        }
    }
    if (!th || th->n[k] == th->cap[k]) {
        pthread_mutex_unlock(&nv.mu);
        free(json);
        free(name);
        __atomic_fetch_add(&g.ext_unmatched, 1, __ATOMIC_RELAXED);
        return;
    }
    th->q[k][th->n[k]++] = (pend_t){tid, t, at_end, undecoded, json, name};
    pthread_mutex_unlock(&nv.mu);
}

/* Gives range o (CUPTI's, starting or ending at ts on thread tid) the payload
 * our wrapper decoded for it: the latest one queued on that thread at or
 * before ts, when its name agrees (a different name means CUPTI lost that
 * payload's range and o is another one: it stays, to be counted). Older
 * ones on that thread were never claimed: their ranges did not reach us
 * (counted). Called with g.mu held. */
static void pend_claim(open_range *o, uint32_t tid, uint64_t ts, bool at_end)
{
    if (tid == 0)
        return;
    pthread_mutex_lock(&nv.mu);
    pend_thread *th = pend_thread_of(tid, false);
    int k = at_end ? 1 : 0;
    size_t last = th ? th->head[k] : 0;
    while (th && last < th->n[k] && th->q[k][last].t <= ts)
        last++;
    if (!th || last == th->head[k]) {
        pthread_mutex_unlock(&nv.mu);
        return;
    }
    size_t cand = last - 1;
    for (size_t i = th->head[k]; i < cand; i++) {
        pend_free(&th->q[k][i]);
        __atomic_fetch_add(&g.ext_unmatched, 1, __ATOMIC_RELAXED);
    }
    th->head[k] = cand;
    pend_t *p = &th->q[k][cand];
    if (p->name && p->name[0] && o->name && strcmp(p->name, o->name) != 0) {
        pthread_mutex_unlock(&nv.mu);
        return;
    }
    if (p->json && !o->ext_json) {
        o->ext_json = p->json;
        p->json = NULL;
    }
    o->ext_undecoded = o->ext_undecoded || p->undecoded;
    pend_free(p);
    th->head[k] = cand + 1;
    pthread_mutex_unlock(&nv.mu);
}

/* At exit: payloads never claimed are counted. */
static void pend_finish(void)
{
    pthread_mutex_lock(&nv.mu);
    for (size_t i = 0; i < nv.nthreads; i++)
        for (int k = 0; k < 2; k++) {
            pend_thread *th = &nv.threads[i];
            for (size_t j = th->head[k]; j < th->n[k]; j++) {
                pend_free(&th->q[k][j]);
                __atomic_fetch_add(&g.ext_unmatched, 1, __ATOMIC_RELAXED);
            }
            th->head[k] = th->n[k] = 0;
        }
    pthread_mutex_unlock(&nv.mu);
}

/* COMMROOF_TRACE_RECORD: which device activities CUPTI records. Each kind
 * costs the program time per operation (CUPTI instruments each launch, copy
 * and memset to time it), so a launch-bound program may leave out what it
 * does not need; NVTX ranges, devices and contexts are always recorded. */
enum { REC_KERNEL = 1, REC_MEMCPY = 2, REC_MEMSET = 4, REC_SYNC = 8, REC_ALL = 15 };
/* What is recorded unless COMMROOF_TRACE_RECORD says otherwise: everything
 * but synchronisations. On the H200 (traces/h200-1/overhead-2026-12-02)
 * recording SYNCHRONIZATION cost launch-bound loops 0.8-1.1 us per tiny
 * kernel or copy and 4.3 us per 256-element torch.add, though none of
 * them synchronises (CUPTI instruments more once the kind is on), while
 * nothing in commroof reads sync records beyond trace summary's count.
 * "sync" or "all" brings them back. */
#define REC_DEFAULT (REC_KERNEL | REC_MEMCPY | REC_MEMSET)
static const struct {
    const char *word;
    unsigned bit;
} rec_words[] = {{"kernel", REC_KERNEL},
                 {"memcpy", REC_MEMCPY},
                 {"memset", REC_MEMSET},
                 {"sync", REC_SYNC},
                 {"none", 0},
                 {"all", REC_ALL}};

/* The REC_* bits a comma-separated list names; REC_DEFAULT for NULL or
 * empty, and (with an error noted) for a list with an unknown word. */
static unsigned record_mask(const char *v)
{
    if (!v || !*v)
        return REC_DEFAULT;
    unsigned m = 0;
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ", ");
        bool known = n == 0;
        for (size_t i = 0; !known && i < sizeof rec_words / sizeof rec_words[0]; i++)
            if (strlen(rec_words[i].word) == n && strncmp(p, rec_words[i].word, n) == 0) {
                m |= rec_words[i].bit;
                known = true;
            }
        if (!known) {
            note_error(
                "COMMROOF_TRACE_RECORD=\"%.200s\": unknown word \"%.*s\" (expected a "
                "comma-separated list of kernel, memcpy, memset, sync, none, all); recording "
                "kernel,memcpy,memset",
                v, (int)(n < 64 ? n : 64), p);
            return REC_DEFAULT;
        }
        p += n;
        p += strspn(p, ", ");
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

static bool nvtx_guard_only(void);

/* Who recorded the NVTX ranges (metadata.nvtx_recorder, traces/README.md). */
static const char *nvtx_recorder(void)
{
    if (nvtx_guard_only()) /* CUPTI alone, or nobody where it records no markers */
        return g.marker_on ? "cupti" : "none";
    return own_mode() ? "own" : "cupti";
}

static void finish(void)
{
    if (!owner()) /* a fork()ed child: nothing of ours to close */
        return;
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
    mkdir_p(dir);
    char stem[4096];
    if (g.rank >= 0)
        snprintf(stem, sizeof stem, "%s/commroof-trace.%s.%d.rank%d", dir, hostfile, (int)g.os_pid,
                 g.rank);
    else
        snprintf(stem, sizeof stem, "%s/commroof-trace.%s.%d", dir, hostfile, (int)g.os_pid);
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
     * program's thread (pool, above). Where CUPTI refuses, it zeroes them
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
    CUptiResult why[sizeof kinds / sizeof kinds[0]];
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
}

static void setup_once(void)
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

/* ---------- NVTX: our wrappers around CUPTI's NVTX handlers ---------- */

/* NVTX hands a tool tables of function slots (nvtxDetail/nvtxTypes.h): the
 * core modules through InitializeInjectionNvtx2, extension modules such as
 * the payload extension through InitializeInjectionNvtxExtension. CUPTI
 * fills the core slots; we then put our wrappers in the slots we need and
 * call CUPTI's handler from them, so CUPTI records as before. The wrappers:
 * - decode NVTX extended payloads (NVTX_PAYLOAD_TYPE_EXT in the event
 *   attributes, or nvtxRangePopPayload) with the schemas the program
 *   registered (nvtx_payload.h), and queue the fields for the CUPTI marker
 *   record of the same range (pend_claim);
 * - where CUPTI records no markers (no GPU, CUPTI refused), record every
 *   range, mark and payload themselves: the "own path".
 * Anything unexpected is skipped and counted, and the program's call always
 * reaches CUPTI's handler unchanged. */

typedef int (*fn_push_ex)(const nvtxEventAttributes_t *);
typedef int (*fn_push_a)(const char *);
typedef int (*fn_pop)(void);
typedef nvtxRangeId_t (*fn_start_ex)(const nvtxEventAttributes_t *);
typedef nvtxRangeId_t (*fn_start_a)(const char *);
typedef void (*fn_end)(nvtxRangeId_t);
typedef void (*fn_mark_ex)(const nvtxEventAttributes_t *);
typedef void (*fn_mark_a)(const char *);
typedef void (*fn_dmark_ex)(nvtxDomainHandle_t, const nvtxEventAttributes_t *);
typedef nvtxRangeId_t (*fn_dstart_ex)(nvtxDomainHandle_t, const nvtxEventAttributes_t *);
typedef void (*fn_dend)(nvtxDomainHandle_t, nvtxRangeId_t);
typedef int (*fn_dpush_ex)(nvtxDomainHandle_t, const nvtxEventAttributes_t *);
typedef int (*fn_dpop)(nvtxDomainHandle_t);
typedef nvtxStringHandle_t (*fn_dreg_str)(nvtxDomainHandle_t, const char *);
typedef nvtxDomainHandle_t (*fn_dcreate)(const char *);
typedef uint64_t (*fn_schema_reg)(nvtxDomainHandle_t, const nvtxPayloadSchemaAttr_t *);
typedef uint64_t (*fn_enum_reg)(nvtxDomainHandle_t, const nvtxPayloadEnumAttr_t *);
typedef int (*fn_range_pl)(nvtxDomainHandle_t, const nvtxPayloadData_t *, size_t);

/* CUPTI's handlers (NULL where CUPTI has none: then we alone handle it). */
static struct {
    fn_push_ex push_ex;
    fn_push_a push_a;
    fn_pop pop;
    fn_start_ex start_ex;
    fn_start_a start_a;
    fn_end end;
    fn_mark_ex mark_ex;
    fn_mark_a mark_a;
    fn_dmark_ex dmark_ex;
    fn_dstart_ex dstart_ex;
    fn_dend dend;
    fn_dpush_ex dpush_ex;
    fn_dpop dpop;
    fn_dreg_str dreg_str;
    fn_dcreate dcreate;
} orig;

static __thread int own_depth; /* push/pop level when CUPTI keeps none */

/* The event attributes as far as the caller's struct goes (its size field);
 * false for NULL or a struct too short to hold the message. NVTX's contract
 * is a valid struct; CUPTI reads it directly too. */
static bool read_attr(const nvtxEventAttributes_t *a, nvtxEventAttributes_t *out)
{
    memset(out, 0, sizeof *out);
    if (!a || a->size < offsetof(nvtxEventAttributes_t, message) + sizeof a->message)
        return false;
    size_t n = a->size < sizeof *out ? a->size : sizeof *out;
    memcpy(out, a, n);
    return true;
}

/* A copy of the event's message (ASCII, wide or registered), "" when absent. */
static char *attr_message(const nvtxEventAttributes_t *a)
{
    char *m = NULL;
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        m = nvp_read_str(a->message.ascii);
        break;
    case NVTX_MESSAGE_TYPE_UNICODE: {
        /* wchar_t is UTF-32 on Linux: each one a code point, in UTF-8 */
        wchar_t w[128];
        size_t got = nvp_safe_read(w, a->message.unicode, sizeof w) / sizeof w[0];
        char buf[4 * 128 + 1];
        size_t len = 0;
        for (size_t i = 0; i < got && w[i]; i++)
            len += sb_utf8_encode(w[i] > 0 ? (unsigned long)w[i] : 0xfffdul, buf + len);
        buf[len] = '\0';
        m = strdup(buf);
        break;
    }
    case NVTX_MESSAGE_TYPE_REGISTERED:
        pthread_mutex_lock(&nv.mu);
        m = map_get(nv.strings, nv.nstrings, a->message.registered);
        pthread_mutex_unlock(&nv.mu);
        break;
    default:
        break;
    }
    return m ? m : strdup("");
}

/* Decodes count payloads at pd for domain: the "name":value,... text
 * (malloc'd) or NULL; *undecoded when any was not fully decoded. Counted. */
static char *decode_ext(const void *domain, const nvtxPayloadData_t *pd, size_t count,
                        bool *undecoded)
{
    sb_t s = {0};
    unsigned bad = 0;
    pthread_mutex_lock(&nv.mu);
    unsigned fields = nvp_decode(&nv.reg, domain, pd, count, &s, &bad);
    pthread_mutex_unlock(&nv.mu);
    *undecoded = bad > 0 || s.oom;
    if (*undecoded)
        __atomic_fetch_add(&g.ext_undecoded, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_add(&g.ext_decoded, 1, __ATOMIC_RELAXED);
    if (fields == 0 || s.oom) {
        free(s.p);
        return NULL;
    }
    return s.p;
}

/* The extended payload of an event, decoded (NULL when it has none). */
static char *attr_ext(const void *domain, const nvtxEventAttributes_t *a, bool *has,
                      bool *undecoded)
{
    *has = a->payloadType == NVTX_PAYLOAD_TYPE_EXT;
    *undecoded = false;
    if (!*has)
        return NULL;
    /* reserved0 holds the number of nvtxPayloadData_t items (NVTX's
     * NVTX_PAYLOAD_EVTATTR_SET_DATA sets 1; 0 from older writers means 1). */
    size_t count = a->reserved0 > 0 ? (size_t)a->reserved0 : 1;
    const nvtxPayloadData_t *pd = (const nvtxPayloadData_t *)(uintptr_t)a->payload.ullValue;
    return decode_ext(domain, pd, count, undecoded);
}

/* Own path: opens a range (push or start) with what the attributes say. */
static void own_open(const void *dom, bool is_push, uint64_t id, const nvtxEventAttributes_t *a,
                     const char *ascii, char *ext, bool has_ext, bool undecoded)
{
    uint64_t t = now_ns();
    char *name = a ? attr_message(a) : nvp_read_str(ascii);
    char *dname = NULL;
    if (dom) {
        pthread_mutex_lock(&nv.mu);
        dname = map_get(nv.domains, nv.ndomains, dom);
        pthread_mutex_unlock(&nv.mu);
    }
    pthread_mutex_lock(&g.mu);
    if (!g.active || g.closed || !owner()) {
        pthread_mutex_unlock(&g.mu);
        free(name);
        free(dname);
        free(ext);
        return;
    }
    if (g.nranges == g.capranges) {
        size_t cap = g.capranges ? 2 * g.capranges : 64;
        open_range *p = realloc(g.ranges, cap * sizeof *p);
        if (!p) {
            g.dropped++;
            pthread_mutex_unlock(&g.mu);
            free(name);
            free(dname);
            free(ext);
            return;
        }
        g.ranges = p;
        g.capranges = cap;
    }
    open_range *o = &g.ranges[g.nranges++];
    memset(o, 0, sizeof *o);
    o->own = true;
    o->is_push = is_push;
    o->dom = dom;
    o->own_id = id;
    o->start = t;
    o->tid = self_tid();
    o->name = name ? name : strdup("");
    o->domain = dname;
    o->payload_kind = -1;
    o->ext_json = ext;
    o->ext_undecoded = undecoded;
    if (a && !has_ext && a->payloadType != NVTX_PAYLOAD_UNKNOWN) {
        o->has_data = true;
        switch (a->payloadType) {
        case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_UINT64;
            o->payload.metricValueUint64 = a->payload.ullValue;
            break;
        case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_UINT64;
            o->payload.metricValueUint64 = a->payload.uiValue;
            break;
        case NVTX_PAYLOAD_TYPE_INT64:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_INT64;
            o->payload.metricValueInt64 = a->payload.llValue;
            break;
        case NVTX_PAYLOAD_TYPE_INT32:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_INT64;
            o->payload.metricValueInt64 = a->payload.iValue;
            break;
        case NVTX_PAYLOAD_TYPE_DOUBLE:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_DOUBLE;
            o->payload.metricValueDouble = a->payload.dValue;
            break;
        case NVTX_PAYLOAD_TYPE_FLOAT:
            o->payload_kind = CUPTI_METRIC_VALUE_KIND_DOUBLE;
            o->payload.metricValueDouble = (double)a->payload.fValue;
            break;
        default:
            break;
        }
    }
    if (a) {
        if (a->colorType == NVTX_COLOR_ARGB) {
            o->has_data = true;
            o->color = a->color;
        }
        if (a->category) {
            o->has_data = true;
            o->category = a->category;
        }
    }
    pthread_mutex_unlock(&g.mu);
}

/* Own path: closes the newest push range of this thread in dom (is_push), or
 * the start range id, adding a payload given at the close. */
static void own_close(const void *dom, bool is_push, uint64_t id, char *ext, bool undecoded)
{
    uint64_t t = now_ns();
    uint32_t tid = self_tid();
    pthread_mutex_lock(&g.mu);
    open_range *o = NULL;
    for (size_t i = 0; i < g.nranges; i++) {
        open_range *r = &g.ranges[i];
        if (!r->own || r->is_push != is_push)
            continue;
        if (is_push ? (r->tid == tid && r->dom == dom && (!o || r->own_id > o->own_id))
                    : r->own_id == id)
            o = r;
    }
    if (!o || !g.active || g.closed || !owner()) {
        if (g.active && !o)
            g.unmatched_ends++;
        pthread_mutex_unlock(&g.mu);
        free(ext);
        return;
    }
    if (ext && !o->ext_json) {
        o->ext_json = ext;
        ext = NULL;
    }
    o->ext_undecoded = o->ext_undecoded || undecoded;
    if (t > g.last_ts)
        g.last_ts = t;
    sb_t s = {0};
    emit_range(&s, o, t, false);
    if (!s.oom && write_all(s.p, s.len))
        g.records++;
    else
        g.dropped++;
    free_range(o);
    *o = g.ranges[--g.nranges];
    pthread_mutex_unlock(&g.mu);
    free(s.p);
    free(ext);
}

/* Own path: an instant event. */
static void own_mark(const void *dom, const nvtxEventAttributes_t *a, const char *ascii)
{
    uint64_t t = now_ns();
    char *name = a ? attr_message(a) : nvp_read_str(ascii);
    char *dname = NULL;
    if (dom) {
        pthread_mutex_lock(&nv.mu);
        dname = map_get(nv.domains, nv.ndomains, dom);
        pthread_mutex_unlock(&nv.mu);
    }
    pthread_mutex_lock(&g.mu);
    if (g.active && !g.closed && owner()) {
        sb_t s = {0};
        uint32_t tid = self_tid();
        name_pid(&s, -1);
        sb_printf(
            &s, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"nvtx\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":",
            host_pid_of(-1), tid);
        sb_us(&s, (int64_t)(t - g.ts_base));
        sb_puts(&s, ",\"name\":");
        sb_str(&s, name ? name : "");
        sb_printf(&s, ",\"args\":{\"device\":-1,\"thread\":%u", tid);
        if (dname) {
            sb_puts(&s, ",\"domain\":");
            sb_str(&s, dname);
        }
        sb_puts(&s, "}},\n");
        if (t > g.last_ts)
            g.last_ts = t;
        if (!s.oom && write_all(s.p, s.len))
            g.records++;
        else
            g.dropped++;
        free(s.p);
    }
    pthread_mutex_unlock(&g.mu);
    free(name);
    free(dname);
}

static uint64_t next_own_id(void)
{
    return __atomic_add_fetch(&nv.next_id, 1, __ATOMIC_RELAXED);
}

/* Marks attributes we hand CUPTI as carrying no payload (attr_for_cupti). */
static void no_payload(nvtxEventAttributes_t *a)
{
    a->payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
    a->payload.dValue = __builtin_nan("");
    a->reserved0 = 0;
}

/* The attributes CUPTI's handlers get.
 * - An extended payload is removed: CUPTI follows its pointers itself and
 *   crashed on a bad one (seen on the H200 with tests/trace/nvtx_payload_demo.c:
 *   SIGSEGV inside libcupti's domain push handler, exit 139); it records no
 *   field of such a payload anyway, we decode it.
 * - An event with no payload gets a NaN double: CUPTI records payload kind
 *   u64 value 0 for NVTX_PAYLOAD_UNKNOWN (seen on the H200, 2026-12-01: every
 *   NCCL range read "payload":0 in guard mode), which no reader can tell from
 *   a real 0; a NaN is never written (JSON has none, range_args), so such a
 *   range has no payload in the trace, as in the program.
 * Events with a scalar payload pass through untouched. */
static const nvtxEventAttributes_t *attr_for_cupti(const nvtxEventAttributes_t *attr,
                                                   const nvtxEventAttributes_t *copy, bool ok,
                                                   nvtxEventAttributes_t *clean)
{
    if (!attr || !ok ||
        (copy->payloadType != NVTX_PAYLOAD_TYPE_EXT && copy->payloadType != NVTX_PAYLOAD_UNKNOWN))
        return attr;
    *clean = *copy;
    no_payload(clean);
    return clean;
}

/* push/start with attributes, in a domain or the default one (dom NULL) */
typedef struct {
    const void *dom;
    const nvtxEventAttributes_t *attr;
} push_ctx;

static int w_push(const void *dom, const nvtxEventAttributes_t *attr, int (*call)(push_ctx *),
                  push_ctx *ctx)
{
    nvtxEventAttributes_t a, clean;
    bool ok = read_attr(attr, &a);
    ctx->attr = attr_for_cupti(attr, &a, ok, &clean);
    bool own = own_mode();
    bool has = false, bad = false;
    char *ext = ok ? attr_ext(dom, &a, &has, &bad) : NULL;
    if (!own && has)
        pend_add(self_tid(), now_ns(), false, ext, bad, attr_message(&a));
    else if (own && ok)
        own_open(dom, true, next_own_id(), &a, NULL, ext, has, bad);
    else
        free(ext);
    int r = call ? call(ctx) : -1;
    if (!call)
        r = own_depth;
    own_depth++;
    return r;
}

static int call_push_ex(push_ctx *c)
{
    return orig.push_ex(c->attr);
}

static int call_dpush_ex(push_ctx *p)
{
    return orig.dpush_ex((nvtxDomainHandle_t)(uintptr_t)p->dom, p->attr);
}

static int NVTX_API w_push_ex(const nvtxEventAttributes_t *attr)
{
    push_ctx c = {NULL, attr};
    return w_push(NULL, attr, orig.push_ex ? call_push_ex : NULL, &c);
}

static int NVTX_API w_dpush_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    push_ctx c = {d, attr};
    return w_push(d, attr, orig.dpush_ex ? call_dpush_ex : NULL, &c);
}

static int NVTX_API w_push_a(const char *msg)
{
    if (own_mode())
        own_open(NULL, true, next_own_id(), NULL, msg, NULL, false, false);
    int r = orig.push_a ? orig.push_a(msg) : own_depth;
    own_depth++;
    return r;
}

static int pop_common(const void *dom)
{
    if (own_mode())
        own_close(dom, true, 0, NULL, false);
    if (own_depth > 0)
        own_depth--;
    return own_depth;
}

static int NVTX_API w_pop(void)
{
    int r = pop_common(NULL);
    return orig.pop ? orig.pop() : r;
}

static int NVTX_API w_dpop(nvtxDomainHandle_t d)
{
    int r = pop_common(d);
    return orig.dpop ? orig.dpop(d) : r;
}

static nvtxRangeId_t start_common(const void *dom, const nvtxEventAttributes_t *attr,
                                  const char *ascii,
                                  nvtxRangeId_t (*call)(const void *, const void *))
{
    nvtxEventAttributes_t a, clean;
    bool ok = attr ? read_attr(attr, &a) : false;
    bool own = own_mode();
    bool has = false, bad = false;
    char *ext = ok ? attr_ext(dom, &a, &has, &bad) : NULL;
    if (!own && has) {
        pend_add(self_tid(), now_ns(), false, ext, bad, attr_message(&a));
        ext = NULL;
    }
    const nvtxEventAttributes_t *to_cupti = attr_for_cupti(attr, &a, ok, &clean);
    nvtxRangeId_t id = call ? call(dom, attr ? (const void *)to_cupti : (const void *)ascii) : 0;
    if (own) {
        uint64_t oid = next_own_id();
        if (id == 0)
            id = oid;
        if (attr && ok)
            own_open(dom, false, id, &a, NULL, ext, has, bad);
        else if (!attr)
            own_open(dom, false, id, NULL, ascii, NULL, false, false);
        else
            free(ext);
    }
    return id;
}

static nvtxRangeId_t call_start_ex(const void *dom, const void *a)
{
    (void)dom;
    return orig.start_ex((const nvtxEventAttributes_t *)a);
}

static nvtxRangeId_t call_dstart_ex(const void *dom, const void *a)
{
    return orig.dstart_ex((nvtxDomainHandle_t)(uintptr_t)dom, (const nvtxEventAttributes_t *)a);
}

static nvtxRangeId_t call_start_a(const void *dom, const void *m)
{
    (void)dom;
    return orig.start_a((const char *)m);
}

static nvtxRangeId_t NVTX_API w_start_ex(const nvtxEventAttributes_t *attr)
{
    return start_common(NULL, attr, NULL, orig.start_ex ? call_start_ex : NULL);
}

static nvtxRangeId_t NVTX_API w_dstart_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    return start_common(d, attr, NULL, orig.dstart_ex ? call_dstart_ex : NULL);
}

static nvtxRangeId_t NVTX_API w_start_a(const char *msg)
{
    return start_common(NULL, NULL, msg, orig.start_a ? call_start_a : NULL);
}

static void NVTX_API w_end(nvtxRangeId_t id)
{
    if (own_mode())
        own_close(NULL, false, id, NULL, false);
    if (orig.end)
        orig.end(id);
}

static void NVTX_API w_dend(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    if (own_mode())
        own_close(d, false, id, NULL, false);
    if (orig.dend)
        orig.dend(d, id);
}

static void NVTX_API w_mark_ex(const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t a, clean;
    bool ok = read_attr(attr, &a);
    if (own_mode() && ok)
        own_mark(NULL, &a, NULL);
    if (orig.mark_ex)
        orig.mark_ex(attr_for_cupti(attr, &a, ok, &clean));
}

static void NVTX_API w_dmark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t a, clean;
    bool ok = read_attr(attr, &a);
    if (own_mode() && ok)
        own_mark(d, &a, NULL);
    if (orig.dmark_ex)
        orig.dmark_ex(d, attr_for_cupti(attr, &a, ok, &clean));
}

static void NVTX_API w_mark_a(const char *msg)
{
    if (own_mode())
        own_mark(NULL, NULL, msg);
    if (orig.mark_a)
        orig.mark_a(msg);
}

static nvtxStringHandle_t NVTX_API w_dreg_str(nvtxDomainHandle_t d, const char *str)
{
    nvtxStringHandle_t h = orig.dreg_str ? orig.dreg_str(d, str) : NULL;
    char *copy = nvp_read_str(str);
    pthread_mutex_lock(&nv.mu);
    if (!h) /* no CUPTI: a handle of our own (NVTX never dereferences it) */
        h = (nvtxStringHandle_t)(nv.next_handle += 16);
    map_put(&nv.strings, &nv.nstrings, &nv.capstrings, h, copy);
    pthread_mutex_unlock(&nv.mu);
    free(copy);
    return h;
}

static nvtxDomainHandle_t NVTX_API w_dcreate(const char *name)
{
    nvtxDomainHandle_t h = orig.dcreate ? orig.dcreate(name) : NULL;
    char *copy = nvp_read_str(name);
    pthread_mutex_lock(&nv.mu);
    if (!h)
        h = (nvtxDomainHandle_t)(nv.next_handle += 16);
    map_put(&nv.domains, &nv.ndomains, &nv.capdomains, h, copy);
    pthread_mutex_unlock(&nv.mu);
    free(copy);
    return h;
}

/* ----- the payload extension (module NVTX_EXT_PAYLOAD_MODULEID) ----- */

/* The id a schema or enum registration returns, as NVTX's contract gives
 * it: the caller's static id when given, else a fresh dynamic one. */
static uint64_t schema_id(bool given, uint64_t id)
{
    return given ? id : __atomic_fetch_add(&nv.next_schema, 1, __ATOMIC_RELAXED);
}

static uint64_t NVTX_API w_schema_reg(nvtxDomainHandle_t d, const nvtxPayloadSchemaAttr_t *attr)
{
    nvtxPayloadSchemaAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        return 0;
    pthread_mutex_lock(&nv.mu);
    uint64_t id =
        schema_id((a.fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID) != 0, a.schemaId);
    if (!nvp_register_schema(&nv.reg, d, attr, id))
        id = 0;
    pthread_mutex_unlock(&nv.mu);
    if (!id)
        note_error("an NVTX payload schema could not be read; its payloads are not decoded");
    return id;
}

static uint64_t NVTX_API w_enum_reg(nvtxDomainHandle_t d, const nvtxPayloadEnumAttr_t *attr)
{
    nvtxPayloadEnumAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        return 0;
    pthread_mutex_lock(&nv.mu);
    uint64_t id =
        schema_id((a.fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID) != 0, a.schemaId);
    if (!nvp_register_enum(&nv.reg, d, attr, id))
        id = 0;
    pthread_mutex_unlock(&nv.mu);
    if (!id)
        note_error("an NVTX payload enum could not be read; its values are not named");
    return id;
}

/* The attributes of a push that carries only a name (ascii), with no payload
 * for CUPTI: what nvtxRangePushPayload hands it. */
static void named_attr(nvtxEventAttributes_t *a, const char *ascii)
{
    memset(a, 0, sizeof *a);
    a->version = NVTX_VERSION;
    a->size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a->messageType = NVTX_MESSAGE_TYPE_ASCII;
    a->message.ascii = ascii;
    no_payload(a);
}

/* nvtxRangePushPayload: a push whose only data is the payload; named after
 * the schema (CUPTI gets a push with that name). */
static int NVTX_API w_push_pl(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t count)
{
    bool bad = false;
    char *ext = decode_ext(d, pd, count, &bad);
    char name[128] = "payload range";
    nvtxPayloadData_t first;
    if (nvp_safe_read(&first, pd, sizeof first) == sizeof first) {
        pthread_mutex_lock(&nv.mu);
        const nvp_schema *sc = nvp_find(&nv.reg, d, first.schemaId);
        if (sc && sc->name)
            snprintf(name, sizeof name, "%s", sc->name);
        pthread_mutex_unlock(&nv.mu);
    }
    nvtxEventAttributes_t a;
    named_attr(&a, name); /* no payload for CUPTI; ours is ext (decoded above) */
    if (own_mode()) {
        own_open(d, true, next_own_id(), &a, NULL, ext, true, bad);
    } else {
        pend_add(self_tid(), now_ns(), false, ext, bad, strdup(name));
    }
    int r = orig.dpush_ex ? orig.dpush_ex(d, &a) : own_depth;
    own_depth++;
    return r;
}

/* nvtxRangePopPayload: NCCL's ncclCommInit* ranges get their payload here
 * (NVTX3_RANGE_ADD_PAYLOAD). CUPTI is handed a plain pop, so the range closes
 * (without this it stayed open: h200-1/torch_demo.json, ncclCommInitRankConfig). */
static int NVTX_API w_pop_pl(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t count)
{
    bool bad = false;
    char *ext = decode_ext(d, pd, count, &bad);
    if (own_mode())
        own_close(d, true, 0, ext, bad);
    else
        pend_add(self_tid(), now_ns(), true, ext, bad, NULL);
    if (own_depth > 0)
        own_depth--;
    return orig.dpop ? orig.dpop(d) : own_depth;
}

/* ----- installing the wrappers ----- */

typedef int (*nvtx_init_fn)(NvtxGetExportTableFunc_t);

typedef struct {
    NvtxCallbackModule module;
    unsigned cbid;
    NvtxFunctionPointer wrapper;
    void *orig_slot; /* where CUPTI's handler is kept (a function pointer) */
} wrap_t;

#define FP(f) ((NvtxFunctionPointer)(void (*)(void))(f))

/* Reads every slot of the core modules (before the tool fills them). */
typedef struct {
    NvtxFunctionTable table[NVTX_CB_MODULE_SIZE];
    unsigned size[NVTX_CB_MODULE_SIZE];
    NvtxFunctionPointer before[NVTX_CB_MODULE_SIZE][32];
} tables_t;

static bool get_tables(NvtxGetExportTableFunc_t get, tables_t *t)
{
    memset(t, 0, sizeof *t);
    const NvtxExportTableCallbacks *cb = get ? get(NVTX_ETID_CALLBACKS) : NULL;
    if (!cb || cb->struct_size < sizeof *cb || !cb->GetModuleFunctionTable)
        return false;
    for (unsigned m = NVTX_CB_MODULE_CORE; m < NVTX_CB_MODULE_SIZE; m++) {
        NvtxFunctionTable tab = NULL;
        unsigned size = 0;
        if (!cb->GetModuleFunctionTable((NvtxCallbackModule)m, &tab, &size) || !tab)
            continue;
        if (size > 32)
            size = 32;
        t->table[m] = tab;
        t->size[m] = size;
        for (unsigned i = 1; i < size; i++)
            t->before[m][i] = tab[i] ? *tab[i] : NULL;
    }
    return t->table[NVTX_CB_MODULE_CORE] && t->table[NVTX_CB_MODULE_CORE2];
}

/* COMMROOF_TRACE_NVTX_WRAP=0: guard mode (below) instead of the wrappers. */
static bool nvtx_guard_only(void)
{
    return !env_bool("COMMROOF_TRACE_NVTX_WRAP", true);
}

/* ----- guard mode (COMMROOF_TRACE_NVTX_WRAP=0) -----
 * No payload decoding and no own path: CUPTI records NVTX alone, as before
 * the wrappers existed. But CUPTI follows an extended payload's pointers and
 * crashed on a bad one (SIGSEGV inside libcupti, tests/trace/nvtx_payload_demo.c
 * on the H200), and the tracer must never make the traced program fail; so
 * the slots that take event attributes still get a thin guard that hands
 * CUPTI the attributes without the extended payload (attr_for_cupti), and
 * the payload extension is still taken, so that a pop with a payload
 * (NCCL's ncclCommInit* ranges) reaches CUPTI as a plain pop and its range
 * closes. Guards are installed only over CUPTI's own handlers. */

/* What a guard hands CUPTI: attr_for_cupti of the caller's attributes
 * (attr itself, or clean). */
static const nvtxEventAttributes_t *guarded(const nvtxEventAttributes_t *attr,
                                            nvtxEventAttributes_t *clean)
{
    nvtxEventAttributes_t a;
    bool ok = read_attr(attr, &a);
    return attr_for_cupti(attr, &a, ok, clean);
}

static int NVTX_API gd_push_ex(const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    return orig.push_ex(guarded(attr, &clean));
}

static int NVTX_API gd_dpush_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    return orig.dpush_ex(d, guarded(attr, &clean));
}

static nvtxRangeId_t NVTX_API gd_start_ex(const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    return orig.start_ex(guarded(attr, &clean));
}

static nvtxRangeId_t NVTX_API gd_dstart_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    return orig.dstart_ex(d, guarded(attr, &clean));
}

static void NVTX_API gd_mark_ex(const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    orig.mark_ex(guarded(attr, &clean));
}

static void NVTX_API gd_dmark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *attr)
{
    nvtxEventAttributes_t clean;
    orig.dmark_ex(d, guarded(attr, &clean));
}

/* Schema and enum ids as NVTX's contract gives them (the caller's static id,
 * or a fresh dynamic one); nothing is registered, nothing decoded. */
static uint64_t NVTX_API gd_schema_reg(nvtxDomainHandle_t d, const nvtxPayloadSchemaAttr_t *attr)
{
    (void)d;
    nvtxPayloadSchemaAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        return 0;
    return schema_id((a.fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID) != 0, a.schemaId);
}

static uint64_t NVTX_API gd_enum_reg(nvtxDomainHandle_t d, const nvtxPayloadEnumAttr_t *attr)
{
    (void)d;
    nvtxPayloadEnumAttr_t a;
    if (nvp_safe_read(&a, attr, sizeof a) != sizeof a)
        return 0;
    return schema_id((a.fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID) != 0, a.schemaId);
}

/* nvtxRangePushPayload: a plain push named "payload range" (the payload is
 * not read). */
static int NVTX_API gd_push_pl(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t count)
{
    (void)pd;
    (void)count;
    nvtxEventAttributes_t a;
    named_attr(&a, "payload range");
    return orig.dpush_ex ? orig.dpush_ex(d, &a) : 0;
}

/* nvtxRangePopPayload: a plain pop, so the range closes. */
static int NVTX_API gd_pop_pl(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t count)
{
    (void)pd;
    (void)count;
    return orig.dpop ? orig.dpop(d) : 0;
}

/* Puts the wrappers (or, in guard mode, the guards) into NVTX's slots
 * around CUPTI's handlers. init is CUPTI's InitializeInjectionNvtx2 (NULL
 * when there is none): it fills the slots first. Returns what NVTX gets
 * back from InitializeInjectionNvtx2. Separate from it so that
 * tests/trace/nvtx_guard_sim.c can run it with a stand-in NVTX and CUPTI. */
static int nvtx_take_over(NvtxGetExportTableFunc_t get, nvtx_init_fn init)
{
    bool guard = nvtx_guard_only();
    tables_t t;
    bool tables = get_tables(get, &t);
    if (!tables)
        note_error("NVTX export tables unreadable; NVTX payloads are not decoded%s",
                   guard ? " and CUPTI sees them unguarded" : "");
    int r = init ? init(get) : 0;
    if (!init)
        note_error("libcupti has no InitializeInjectionNvtx2; NVTX ranges are recorded without "
                   "CUPTI");
    else if (!r)
        note_error("CUPTI's NVTX initialisation failed; NVTX ranges are recorded without CUPTI");
    if (!tables || (guard && !r))
        return r; /* guard mode without CUPTI: there is nothing to guard */
    pthread_mutex_lock(&nv.mu);
    if (r && !guard)
        nv.cupti_nvtx = true;
    /* wrapper NULL: CUPTI's handler stays in the slot; we only keep it (for
     * the payload extension's push and pop) */
    const wrap_t full[] = {
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, FP(w_push_ex), &orig.push_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushA, FP(w_push_a), &orig.push_a},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePop, FP(w_pop), &orig.pop},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartEx, FP(w_start_ex), &orig.start_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartA, FP(w_start_a), &orig.start_a},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeEnd, FP(w_end), &orig.end},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_MarkEx, FP(w_mark_ex), &orig.mark_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_MarkA, FP(w_mark_a), &orig.mark_a},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainMarkEx, FP(w_dmark_ex), &orig.dmark_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeStartEx, FP(w_dstart_ex),
         &orig.dstart_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeEnd, FP(w_dend), &orig.dend},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, FP(w_dpush_ex), &orig.dpush_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, FP(w_dpop), &orig.dpop},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRegisterStringA, FP(w_dreg_str),
         &orig.dreg_str},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainCreateA, FP(w_dcreate), &orig.dcreate},
    };
    const wrap_t guards[] = {
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, FP(gd_push_ex), &orig.push_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartEx, FP(gd_start_ex), &orig.start_ex},
        {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_MarkEx, FP(gd_mark_ex), &orig.mark_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainMarkEx, FP(gd_dmark_ex), &orig.dmark_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeStartEx, FP(gd_dstart_ex),
         &orig.dstart_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, FP(gd_dpush_ex), &orig.dpush_ex},
        {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, NULL, &orig.dpop},
    };
    const wrap_t *wraps = guard ? guards : full;
    size_t nwraps = guard ? sizeof guards / sizeof guards[0] : sizeof full / sizeof full[0];
    for (size_t i = 0; i < nwraps; i++) {
        const wrap_t *w = &wraps[i];
        if (w->cbid >= t.size[w->module] || !t.table[w->module][w->cbid])
            continue;
        NvtxFunctionPointer *slot = t.table[w->module][w->cbid];
        NvtxFunctionPointer now = *slot;
        /* CUPTI's handler is what it put there; an untouched slot still
         * holds NVTX's own initialiser, which must never be called again. */
        NvtxFunctionPointer cupti = (r && now != t.before[w->module][w->cbid]) ? now : NULL;
        NvtxFunctionPointer kept;
        memcpy(&kept, w->orig_slot, sizeof kept);
        if (kept && cupti && kept != cupti) {
            /* another NVTX copy, another handler: leave CUPTI's in place */
            note_error("NVTX handlers differ between NVTX copies; some ranges are recorded by "
                       "CUPTI alone%s",
                       guard ? " and unguarded" : "");
            continue;
        }
        if (guard && !cupti)
            continue; /* a guard calls CUPTI's handler: only over one */
        if (cupti)
            memcpy(w->orig_slot, &cupti, sizeof cupti);
        else if (kept && r)
            continue; /* CUPTI handles it elsewhere but not here: leave as is */
        if (w->wrapper)
            *slot = w->wrapper;
    }
    if (!r) {
        /* CUPTI failed: undo whatever else it put in the slots. */
        for (unsigned m = NVTX_CB_MODULE_CORE; m < NVTX_CB_MODULE_SIZE; m++)
            for (unsigned i = 1; i < t.size[m]; i++) {
                if (!t.table[m] || !t.table[m][i])
                    continue;
                bool ours = false;
                for (size_t k = 0; k < nwraps; k++)
                    ours = ours || (wraps[k].module == m && wraps[k].cbid == i);
                if (!ours)
                    *t.table[m][i] = t.before[m][i];
            }
    }
    pthread_mutex_unlock(&nv.mu);
    return guard ? r : 1;
}

/* Called by NVTX (NVTX_INJECTION64_PATH) in every NVTX copy in the process
 * (the program's, PyTorch's, NCCL's). CUPTI implements NVTX recording; we
 * hand NVTX to the libcupti this library is bound to, so that one CUPTI
 * instance sees both activity and markers (a second libcupti would lose
 * every marker: seen on the H200, traces/README.md). Activity is enabled
 * here too, so ranges opened before the first CUDA call are recorded. Then
 * our wrappers (or guards) go into the slots (nvtx_take_over). */
EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get);
EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
    g.nvtx_started = true;
    if (env_bool("COMMROOF_TRACE_EARLY_NVTX", true))
        setup_once();
    Dl_info info;
    memset(&info, 0, sizeof info);
    nvtx_init_fn fwd = NULL;
    void *self_sym;
    CUptiResult (*enable)(CUpti_ActivityKind) = cuptiActivityEnable;
    memcpy(&self_sym, &enable, sizeof self_sym);
    if (dladdr(self_sym, &info) && info.dli_fname) {
        void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (h)
            LOAD_SYM(fwd, h, "InitializeInjectionNvtx2");
    }
    if (!fwd) {
        void *h = dlopen("libcupti.so.13", RTLD_LAZY | RTLD_NOLOAD);
        if (h)
            LOAD_SYM(fwd, h, "InitializeInjectionNvtx2");
    }
    if (fwd == InitializeInjectionNvtx2)
        fwd = NULL;
    return nvtx_take_over(get, fwd);
}

/* Called by NVTX's extension loader (nvtxDetail/nvtxExtInit.h) for each
 * extension module a program uses. The payload extension is ours: schema and
 * enum registration, push and pop with a payload (guard mode: the gd_
 * versions, which decode nothing). Other modules (counters, memory, ...) are
 * declined, as before this library exported the function; CUPTI's
 * InitializeInjectionNvtxExtension is not called (CUPTI does not decode
 * payloads, and how it behaves there is not verified on a GPU). */
EXPORT int InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *info);
EXPORT int InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *info)
{
    if (!info || info->moduleId != NVTX_EXT_PAYLOAD_MODULEID || info->segmentsCount < 1 ||
        !info->segments)
        return 0;
    nvtxExtModuleSegment_t *seg = &info->segments[0];
    if (!seg->functionSlots || seg->slotCount <= NVTX3EXT_CBID_nvtxRangePopPayload)
        return 0;
    bool guard = nvtx_guard_only();
    seg->functionSlots[NVTX3EXT_CBID_nvtxPayloadSchemaRegister] =
        guard ? (intptr_t)gd_schema_reg : (intptr_t)w_schema_reg;
    seg->functionSlots[NVTX3EXT_CBID_nvtxPayloadEnumRegister] =
        guard ? (intptr_t)gd_enum_reg : (intptr_t)w_enum_reg;
    seg->functionSlots[NVTX3EXT_CBID_nvtxRangePushPayload] =
        guard ? (intptr_t)gd_push_pl : (intptr_t)w_push_pl;
    seg->functionSlots[NVTX3EXT_CBID_nvtxRangePopPayload] =
        guard ? (intptr_t)gd_pop_pl : (intptr_t)w_pop_pl;
    return 1;
}
