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

#endif
