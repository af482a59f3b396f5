/* SPDX-License-Identifier: MIT */
/*
 * The parser of one ParallelKernelBench rank_<r>_perf.json, apart from the
 * folder walk (pkb_logs.h), for tests/fuzz/fuzz_pkb_logs.c.
 */
#ifndef CR_PKB_LOGS_PRIV_H
#define CR_PKB_LOGS_PRIV_H

#include <stddef.h>

#include "status.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* One rank's "wall_time_ms" from the len bytes of buf (buf[len] must be
 * '\0'; a NUL before it is refused as not JSON), in seconds into *wall_s;
 * path names the file in messages. The rules and errors are
 * cr_pkb_logs_read_backend's for one file (CR_EPARSE). */
cr_status cr_pkb_perf_parse(const char *buf, size_t len, const char *path, double *wall_s,
                            cr_diag *d);

#pragma GCC visibility pop

#endif
