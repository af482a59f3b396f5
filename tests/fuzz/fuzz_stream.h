/* SPDX-License-Identifier: MIT */
/*
 * The fuzz input as a read-only stream, for the targets whose reader takes
 * a FILE * (fuzz_nccl_log.c, fuzz_measured_json.c, fuzz_calibrate_nccl.c):
 * NULL where the C library cannot make one.
 */
#ifndef CR_FUZZ_STREAM_H
#define CR_FUZZ_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static FILE *fuzz_stream(const uint8_t *data, size_t size)
{
    static char empty[1];
    FILE *f = fmemopen(size ? (void *)(uintptr_t)data : empty, size ? size : 1, "r");
    if (f && size == 0)
        fgetc(f); /* fmemopen needs a byte: read it, so the stream is empty */
    return f;
}

#endif
