/* SPDX-License-Identifier: MIT */
/*
 * Quantities with units: parse and print bytes, bandwidth, time, FLOP/s and
 * FLOP counts.
 *
 * Internally everything is SI base units in a double: bytes, bytes per
 * second, seconds, FLOP per second, FLOP. Text always carries a unit:
 * "450GB/s", "4.8TB/s", "400Gb/s" (bits), "1GiB", "0.7us", "989TFLOP/s".
 * SI prefixes (k M G T P E) are powers of 1000; IEC prefixes (Ki Mi Gi Ti Pi
 * Ei) powers of 1024. One optional space may separate number and unit.
 * Anything else (no unit, wrong unit, NaN, infinity, trailing text) is
 * rejected.
 */
#ifndef CR_UNITS_H
#define CR_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CR_UNIT_BYTES,     /* "B": 4KiB, 1GB */
    CR_UNIT_BANDWIDTH, /* "B/s" or bits "b/s": 450GB/s, 400Gb/s */
    CR_UNIT_TIME,      /* "s": 0.7us, 5ms, 20ns */
    CR_UNIT_FLOPS,     /* "FLOP/s" (also "OP/s" for integer math): 989TFLOP/s */
    CR_UNIT_FLOP,      /* a count of operations: "2TFLOP" */
} cr_unit_kind;

/* Parses text as a quantity of the given kind into SI base units.
 * Errors: CR_EPARSE (not a number followed by a unit of that kind, with the
 * reason in d), CR_ERANGE (infinite or not representable). Does not reject
 * zero or negative values: callers decide what range is valid. */
cr_status cr_units_parse(const char *text, cr_unit_kind kind, double *out, cr_diag *d);

/* Whether text starts as a decimal number does: an optional sign and point,
 * then a digit, and no "0x" (strtod alone also takes "inf", "nan" and
 * hexadecimal, which no figure of ours is written in). Every parser of a
 * number checks it before strtod. */
bool cr_plain_number(const char *text);

/* A size as nccl-tests writes one (its -b 8, 128M, 64m): an unsigned
 * decimal number with an optional K, M, G or T in either case, powers of
 * 1024, into *bytes (not rounded, not range-checked). False where text is
 * not of that form: a quantity with a unit (64MiB, 25MB) is
 * cr_units_parse's. The one reader of such sizes: coll's -b, op's bytes. */
bool cr_units_nccl_size(const char *text, double *bytes);

/* Writes value (SI base units) with the largest SI prefix that keeps the
 * mantissa at or above 1, four significant digits: "450GB/s", "1.2us".
 * Bytes that are an exact multiple of a power of 1024 print in IEC ("1GiB").
 * Returns buf. */
char *cr_units_format(double value, cr_unit_kind kind, char *buf, size_t size);

/* Name of the unit kind's base unit, for error messages: "B/s", "s", ... */
const char *cr_units_example(cr_unit_kind kind);

#ifdef __cplusplus
}
#endif

#endif
