/* SPDX-License-Identifier: MIT */
/*
 * The tracer's state and what every part uses: the file (write_all), errors
 * noted once (note_error), the environment, the clock. tracer.h describes
 * the library.
 */
#include "tracer.h"

/* Microseconds with exactly 3 decimals from a signed ns count (no rounding). */
void sb_us(sb_t *s, int64_t ns)
{
    const char *sign = "";
    uint64_t a = (uint64_t)ns;
    if (ns < 0) {
        sign = "-";
        a = (uint64_t)(-(ns + 1)) + 1;
    }
    sb_printf(s, "%s%" PRIu64 ".%03u", sign, a / 1000, (unsigned)(a % 1000));
}

struct tracer g = {.mu = PTHREAD_MUTEX_INITIALIZER,
                   .err_mu = PTHREAD_MUTEX_INITIALIZER,
                   .once = PTHREAD_ONCE_INIT,
                   .fd = -1};

bool owner(void)
{
    return g.os_pid == getpid();
}

/* A timestamp on CUPTI's clock (ns), or CLOCK_REALTIME where CUPTI has none. */
uint64_t now_ns(void)
{
    uint64_t t = 0;
    if (!g.clock_own && cuptiGetTimestamp(&t) == CUPTI_SUCCESS)
        return t;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Prints a message once per distinct text, and keeps it for the metadata. */
void note_error(const char *fmt, ...)
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

bool cupti_ok(CUptiResult r, const char *what)
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
bool write_all(const char *p, size_t n)
{
    if (g.fd < 0 || !owner())
        return false;
    if (g.fsize_limited && g.written + n > g.fsize_max) {
        /* A write past RLIMIT_FSIZE (ulimit -f) raises SIGXFSZ, which ends
         * the program by default: the trace stops at the last whole text
         * below the limit instead (traces/README.md). */
        note_error("writing %s: the file size limit (ulimit -f, %" PRIu64
                   " bytes) is reached; the trace stops here (every later record is counted as "
                   "dropped)",
                   g.path, g.fsize_max);
        close(g.fd);
        g.fd = -1;
        return false;
    }
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
        g.written += (uint64_t)w;
    }
    return true;
}

/* After writing (wrote) the text of nrec records that were counted in
 * g.records: where it was not written, they move to g.dropped. A text cut
 * by a failed write counts all its records, though the lines before the
 * cut reached the file (the reader takes them; the file is incomplete). */
void written_or_dropped(bool wrote, uint64_t nrec)
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
long long env_num(const char *name, long long lo, long long hi, long long dflt, const char *what)
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
bool env_bool(const char *name, bool dflt)
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

bool launch_blocking_env(void)
{
    const char *v = getenv("CUDA_LAUNCH_BLOCKING");
    return v && strcmp(v, "1") == 0;
}

/* The first of names that is set to a whole number from 0 to 999999; one set
 * to anything else is reported and passed over. dflt when none is. */
int env_int(const char *const *names, int dflt)
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

int64_t host_pid_of(int dev)
{
    return (int64_t)g.os_pid * 100 + (dev < 0 || dev >= MAX_DEV ? HOST_DEV : dev);
}
