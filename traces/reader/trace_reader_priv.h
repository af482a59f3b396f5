/* SPDX-License-Identifier: MIT */
/*
 * Trace reader internals for its tests and fuzz target
 * (tests/unit/test_trace_reader.c, tests/fuzz/fuzz_trace_reader.c), which
 * read each input with and without the fast path and require the same
 * events, errors and messages.
 */
#ifndef CR_TRACE_READER_PRIV_H
#define CR_TRACE_READER_PRIV_H

#include <stdbool.h>

#include "trace_reader.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* With on false every event goes through jansson (as before the fast path);
 * the default is on. Call before the first cr_trace_reader_next(). */
void cr_trace_reader_set_fast_path(cr_trace_reader *r, bool on);

#pragma GCC visibility pop

#endif
