/* SPDX-License-Identifier: MIT */
/*
 * For the simulations that include the tracer's source (the *_sim.c files here):
 * the trace file opened and the tracer's clock and ranks set as setup()
 * would, without CUPTI. Include after tracer_src.h.
 */
#ifndef CR_SIM_OPEN_H
#define CR_SIM_OPEN_H

/* Opens the trace as setup() does and writes its opening: the tracer is
 * active from here. Returns 0, or 1 after perror when the file cannot be
 * created. */
static int sim_open_trace(const char *path)
{
    g.os_pid = getpid();
    snprintf(g.path, sizeof g.path, "%s", path);
    g.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (g.fd < 0) {
        perror(path);
        return 1;
    }
    g.clock_own = true; /* CLOCK_REALTIME: no CUPTI clock needed */
    g.ts_base = now_ns();
    g.rank = g.local_rank = g.world_size = -1;
    write_all("{\"traceEvents\":[\n", 17);
    g.active = true;
    return 0;
}

#endif
