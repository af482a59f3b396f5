/* SPDX-License-Identifier: MIT */
/*
 * For the simulations here (the *_sim.c files): EXPECT(cond) names a
 * failed check on stderr after SIM_NAME ("limits sim: FILE:LINE: cond")
 * and counts it in `fails`; sim_read_trace reads the trace back; and
 * CUPTI's NVTX handlers as stand-ins that record nothing, for the wrappers
 * to call where CUPTI took NVTX (orig.dpush_ex, orig.dpop). Define SIM_NAME, then include after
 * tracer_src.h.
 */
#ifndef CR_SIM_CHECK_H
#define CR_SIM_CHECK_H

static int fails;

#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s: %s:%d: %s\n", SIM_NAME, __FILE__, __LINE__, #cond);               \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

static inline int NVTX_API fake_cupti_dpush(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    (void)d;
    (void)a;
    return 0;
}

static inline int NVTX_API fake_cupti_dpop(nvtxDomainHandle_t d)
{
    (void)d;
    return 0;
}

/* The file at path into text[size], '\0'-ended (empty when it cannot be
 * read; a longer file is cut, which the checks after then miss). */
static inline void sim_read_trace(const char *path, char *text, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, size - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
}

#endif
