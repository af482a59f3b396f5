/* SPDX-License-Identifier: MIT */
/*
 * The clocks every benchmark of tests/bench reads: wall time, the
 * process's CPU time (on a shared machine wall time also counts others'
 * work) and its peak resident memory.
 */
#ifndef CR_BENCH_CLOCK_H
#define CR_BENCH_CLOCK_H

#include <sys/resource.h>
#include <time.h>

static inline double bench_wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline double bench_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Peak resident set of this process in bytes (Linux reports KiB). */
static inline double bench_peak_rss_bytes(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss * 1024.0;
}

static inline double bench_peak_rss_mib(void)
{
    return bench_peak_rss_bytes() / 1048576.0;
}

#endif
