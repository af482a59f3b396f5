/* SPDX-License-Identifier: MIT */
/* Test support for the trace readers' tests: synthetic commroof traces
 * written to temporary files. */
#ifndef CR_TEST_TRACE_H
#define CR_TEST_TRACE_H

#include "validate/validate.h"

/* Writes text to a new temporary file whose name ends in suffix (".json",
 * ".json.gz", ".log"); returns its path (free() it; unlink() the file).
 * Fails the running cmocka test on error. */
char *cr_test_write_tmp(const char *text, const char *suffix);

/* Writes text to a temporary file whose name ends in suffix, reads it as an
 * nccl-tests log or JSON file with options o (NULL: none) into l (d
 * cleared first) and removes the file: cr_validate_read_nccl_tests'
 * status. */
cr_status cr_test_read_nccl_text(const char *text, const char *suffix, const cr_nccl_log_opts *o,
                                 cr_vmeas_list *l, cr_diag *d);

/* A trace's opening, and its end without metadata (short names: the
 * tests write traces inline as HDR R(...) K(...) K(...) END). */
#define HDR "{\"traceEvents\":[\n"
#define END "{\"ph\":\"M\",\"pid\":100,\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}\n]}\n"
/* A kernel on process 1 (pid 100 + device), ts/dur in us. */
#define K(dev, ts, dur)                                                                            \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":10" #dev ",\"tid\":7,\"ts\":" #ts     \
    ",\"dur\":" #dur ",\"args\":{\"device\":" #dev "}},\n"
/* An NVTX range of process 1's host thread, ts/dur in us. */
#define R(name, ts, dur)                                                                           \
    "{\"ph\":\"X\",\"cat\":\"nvtx\",\"name\":\"" name "\",\"pid\":199,\"tid\":1,\"ts\":" #ts       \
    ",\"dur\":" #dur ",\"args\":{\"device\":-1}},\n"

#endif
