/* SPDX-License-Identifier: MIT */
/* Shared test helpers: cmocka plus a double-precision assertion. */
#ifndef CR_TEST_H
#define CR_TEST_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

/* Passes when |a - b| <= max(abs_tol, rel_tol * |b|); b is the expected value. */
#define assert_close(a, b, rel_tol, abs_tol)                                                       \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        double tol_ = fmax((abs_tol), (rel_tol)*fabs(b_));                                         \
        if (!(fabs(a_ - b_) <= tol_))                                                              \
            fail_msg("%s = %.9g, expected %.9g (tolerance %.3g)", #a, a_, b_, tol_);               \
    } while (0)

/* A fuzz target (LLVMFuzzerTestOneInput): 0 on every input it accepts or
 * rejects cleanly; it aborts on a broken property. */
typedef int (*cr_test_fuzz_fn)(const uint8_t *data, size_t size);

/* Runs fn on every file of the folder dirname (dot files skipped, no
 * recursion), each read up to max_len bytes (the target's fuzz-max-len or
 * more): the corpus replay every make test does. Fails the test when the
 * folder or a file cannot be read or fn returns non-zero. Returns the
 * number of files run. */
int cr_test_replay_dir(const char *dirname, cr_test_fuzz_fn fn, size_t max_len);

#endif
