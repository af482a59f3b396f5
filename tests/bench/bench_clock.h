/* SPDX-License-Identifier: MIT */
/*
 * The clocks every benchmark of tests/bench reads: wall time, the
 * process's CPU time (on a shared machine wall time also counts others'
 * work) and its peak resident memory.
 */
#ifndef CR_BENCH_CLOCK_H
#define CR_BENCH_CLOCK_H

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* COMMROOF_BENCH_SMOKE set (and not "0"): the run tests/check_bench.sh
 * makes under make test and its sanitizer pass. Each benchmark then runs
 * its small cases only and judges no time or memory target, so a change
 * that breaks a benchmark fails the tests instead of waiting for the next
 * make bench; make bench runs every case and every target. */
static inline int bench_smoke(void)
{
    const char *s = getenv("COMMROOF_BENCH_SMOKE");
    return s && *s && strcmp(s, "0") != 0;
}

/* A benchmark's exit status for its time and memory targets: 0 when they
 * hold, and always in a smoke run, which judges none (a wrong result
 * still fails it: callers return 1 for that themselves). */
static inline int bench_exit(int targets_met)
{
    return targets_met || bench_smoke() ? 0 : 1;
}

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
