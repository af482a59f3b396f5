/* SPDX-License-Identifier: MIT */
/*
 * The one way the library and the CLI write a number into JSON.
 *
 * Every JSON text of commroof is dumped at JSON_REAL_PRECISION(10), which
 * keeps tables readable but would print a byte count of 17,179,869,184 as
 * 1.717986918e10: a count that a double holds exactly is written as an
 * integer, so that it reads back exactly.
 */
#ifndef CR_JSON_NUM_H
#define CR_JSON_NUM_H

#include <math.h>

#include <jansson.h>

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* v as a JSON number: an integer where v is whole and below 2^53 (a count,
 * a byte size, a whole-number axis value), a real otherwise, null where v
 * is not finite (NaN or infinite: no number at all). NULL when out of
 * memory, as jansson's constructors. */
static inline json_t *cr_json_count(double v)
{
    if (!isfinite(v))
        return json_null();
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        return json_integer((json_int_t)v);
    return json_real(v);
}

/* v as a JSON real (a time, a rate, a percentage), null where not finite. */
static inline json_t *cr_json_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

#pragma GCC visibility pop

#endif
