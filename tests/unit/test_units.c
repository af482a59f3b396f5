/* SPDX-License-Identifier: MIT */
/*
 * Units: parsing and printing of quantities (model/units.h). Expected values
 * are the definitions: SI prefixes are powers of 1000, IEC powers of 1024,
 * a bit is an eighth of a byte; printing keeps four significant digits under
 * the largest SI prefix that leaves the mantissa at or above 1, and exact
 * multiples of a power of 1024 bytes in IEC. The fuzz corpus replays
 * through the fuzz target.
 */
#include "cr_test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#include "tests/fuzz/fuzz_units.c"

struct parse_case {
    const char *text;
    cr_unit_kind kind;
    double want;
};

static const struct parse_case good[] = {
    {"450GB/s", CR_UNIT_BANDWIDTH, 450e9},
    {"4.8TB/s", CR_UNIT_BANDWIDTH, 4.8e12},
    {"400Gb/s", CR_UNIT_BANDWIDTH, 400e9 / 8}, /* bits */
    {"100Gb/s", CR_UNIT_BANDWIDTH, 12.5e9},    /* bits */
    {"200Gbps", CR_UNIT_BANDWIDTH, 25e9},      /* bits, as NIC datasheets spell them */
    {"25 GB/s", CR_UNIT_BANDWIDTH, 25e9},      /* one space */
    {"1KiB/s", CR_UNIT_BANDWIDTH, 1024},       /* IEC rate */
    {"63B/s", CR_UNIT_BANDWIDTH, 63},          /* no prefix */
    {"1GiB", CR_UNIT_BYTES, 1073741824.0},     /* 2^30 */
    {"50MiB", CR_UNIT_BYTES, 50 * 1048576.0},  /* 50 x 2^20 */
    {"1KiB", CR_UNIT_BYTES, 1024},
    {"1kB", CR_UNIT_BYTES, 1000},
    {"1KB", CR_UNIT_BYTES, 1000}, /* K accepted as k */
    {"141GB", CR_UNIT_BYTES, 141e9},
    {"2TiB", CR_UNIT_BYTES, 2 * 1099511627776.0},
    {"1EiB", CR_UNIT_BYTES, 1152921504606846976.0},
    {"0B", CR_UNIT_BYTES, 0},
    {".5KiB", CR_UNIT_BYTES, 512},
    {"1e3B", CR_UNIT_BYTES, 1000}, /* exponents are numbers too */
    {"0.7us", CR_UNIT_TIME, 0.7e-6},
    {"5ms", CR_UNIT_TIME, 5e-3},
    {"20ns", CR_UNIT_TIME, 20e-9},
    {"3ps", CR_UNIT_TIME, 3e-12},
    {"2s", CR_UNIT_TIME, 2},
    {"7\xC2\xB5s", CR_UNIT_TIME, 7e-6}, /* MICRO SIGN */
    {"989TFLOP/s", CR_UNIT_FLOPS, 989e12},
    {"1979TOP/s", CR_UNIT_FLOPS, 1979e12}, /* integer ops */
    {"2.25PFLOP/s", CR_UNIT_FLOPS, 2.25e15},
    {"2TFLOP", CR_UNIT_FLOP, 2e12},
    {"5GOP", CR_UNIT_FLOP, 5e9},
    {"-5GB/s", CR_UNIT_BANDWIDTH, -5e9}, /* the caller judges the sign */
    {"+2GB/s", CR_UNIT_BANDWIDTH, 2e9},
    {"1e3GB/s", CR_UNIT_BANDWIDTH, 1e12},        /* 1e3 x 1e9 */
    {"1E3GB/s", CR_UNIT_BANDWIDTH, 1e12},        /* E followed by digits: an exponent */
    {"1EB/s", CR_UNIT_BANDWIDTH, 1e18},          /* E followed by the unit: exa */
    {"1GiB/s", CR_UNIT_BANDWIDTH, 1073741824.0}, /* IEC rate: 2^30 B/s */
};

static void test_parse_good(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double v = -1;
        cr_diag d = {{0}};
        if (cr_units_parse(good[i].text, good[i].kind, &v, &d) != CR_OK)
            fail_msg("\"%s\": %s", good[i].text, d.msg);
        assert_close(v, good[i].want, 1e-15, 0);
    }
}

struct bad_case {
    const char *text;
    cr_unit_kind kind;
    cr_status st;
    const char *msg;
};

static const struct bad_case bad[] = {
    {"450", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"450\" has no unit, expected a bandwidth such as \"450GB/s\" or \"400Gb/s\""},
    {"", CR_UNIT_TIME, CR_EPARSE, "empty value, expected a time such as \"0.7us\" or \"5ms\""},
    {"GB/s", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"GB/s\" is not a number with a unit, expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"nanGB/s", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"nanGB/s\" is not a number with a unit, expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"infGB/s", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"infGB/s\" is not a number with a unit, expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"0x10GB", CR_UNIT_BYTES, CR_EPARSE,
     "\"0x10GB\": hexadecimal is not accepted, expected a size such as \"64MiB\" or \"1GB\""},
    {"1e400GB/s", CR_UNIT_BANDWIDTH, CR_ERANGE, "\"1e400GB/s\" is out of range"},
    {"450GB", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"450GB\" has an unknown unit \"GB\", expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"450GB/s extra", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"450GB/s extra\" has an unknown unit \"GB/s extra\", expected a bandwidth such as "
     "\"450GB/s\" or \"400Gb/s\""},
    {"450  GB/s", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"450  GB/s\" has an unknown unit \" GB/s\", expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"5mB", CR_UNIT_BYTES, CR_EPARSE,
     "\"5mB\" has an unknown unit \"mB\", expected a size such as \"64MiB\" or \"1GB\""},
    {"1uB/s", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"1uB/s\" has an unknown unit \"uB/s\", expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"3 TFLOPS", CR_UNIT_FLOPS, CR_EPARSE,
     "\"3 TFLOPS\" has an unknown unit \"TFLOPS\", expected a rate such as \"989TFLOP/s\""},
    {"0.7 us", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"0.7 us\" has an unknown unit \"us\", expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"1GIB", CR_UNIT_BYTES, CR_EPARSE,
     "\"1GIB\" has an unknown unit \"GIB\", expected a size such as \"64MiB\" or \"1GB\""},
    {" 450GB/s", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\" 450GB/s\" is not a number with a unit, expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"450GB/s ", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"450GB/s \" has an unknown unit \"GB/s \", expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"1.5.2GB/s", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"1.5.2GB/s\" has an unknown unit \".2GB/s\", expected a bandwidth such as \"450GB/s\" "
     "or \"400Gb/s\""},
    {"1e-400GB/s", CR_UNIT_BANDWIDTH, CR_ERANGE, "\"1e-400GB/s\" is out of range"}, /* underflow */
    {"1e308TB/s", CR_UNIT_BANDWIDTH, CR_ERANGE, "\"1e308TB/s\" is out of range"},   /* x 1e12 */
    {"-infGB/s", CR_UNIT_BANDWIDTH, CR_EPARSE,
     "\"-infGB/s\" is not a number with a unit, expected a bandwidth such as \"450GB/s\" or "
     "\"400Gb/s\""},
    {"0x1p4GB", CR_UNIT_BYTES, CR_EPARSE,
     "\"0x1p4GB\": hexadecimal is not accepted, expected a size such as \"64MiB\" or \"1GB\""},
};

static void test_parse_bad(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = 12345;
        cr_diag d = {{0}};
        cr_status st = cr_units_parse(bad[i].text, bad[i].kind, &v, &d);
        if (st != bad[i].st || strcmp(d.msg, bad[i].msg) != 0)
            fail_msg("\"%s\": status %d (want %d)\n  got:  %s\n  want: %s", bad[i].text, st,
                     bad[i].st, d.msg, bad[i].msg);
        assert_close(v, 12345, 0, 0); /* untouched on failure */
    }
    /* NULL text is an empty value, not a crash. */
    double v;
    assert_int_equal(cr_units_parse(NULL, CR_UNIT_BYTES, &v, NULL), CR_EPARSE);
}

struct fmt_case {
    double v;
    cr_unit_kind kind;
    const char *want;
};

static const struct fmt_case fmts[] = {
    {450e9, CR_UNIT_BANDWIDTH, "450GB/s"},
    {4.8e12, CR_UNIT_BANDWIDTH, "4.8TB/s"},
    {50e9, CR_UNIT_BANDWIDTH, "50GB/s"},
    {12.3456e9, CR_UNIT_BANDWIDTH, "12.35GB/s"}, /* four significant digits */
    {0, CR_UNIT_BANDWIDTH, "0B/s"},
    {1073741824.0, CR_UNIT_BYTES, "1GiB"}, /* exact power of 1024 */
    {50 * 1048576.0, CR_UNIT_BYTES, "50MiB"},
    {1536, CR_UNIT_BYTES, "1.536kB"}, /* 1.5 x 1024: not a whole number of KiB */
    {141e9, CR_UNIT_BYTES, "141GB"},
    {512, CR_UNIT_BYTES, "512B"},
    {7e-7, CR_UNIT_TIME, "700ns"},
    {1.5e-3, CR_UNIT_TIME, "1.5ms"},
    {2, CR_UNIT_TIME, "2s"},
    {3e-12, CR_UNIT_TIME, "3ps"},
    {989e12, CR_UNIT_FLOPS, "989TFLOP/s"},
    {2.25e15, CR_UNIT_FLOPS, "2.25PFLOP/s"},
    {2e12, CR_UNIT_FLOP, "2TFLOP"},
};

static void test_format(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        char buf[64];
        assert_ptr_equal(cr_units_format(fmts[i].v, fmts[i].kind, buf, sizeof buf), buf);
        if (strcmp(buf, fmts[i].want) != 0)
            fail_msg("%.17g: got \"%s\", want \"%s\"", fmts[i].v, buf, fmts[i].want);
        /* What prints parses back (within the four printed digits). */
        double back;
        assert_int_equal(cr_units_parse(buf, fmts[i].kind, &back, NULL), CR_OK);
        assert_close(back, fmts[i].v, 5e-4, 0);
    }
}

static void test_examples(void **state)
{
    (void)state;
    assert_string_equal(cr_units_example(CR_UNIT_BANDWIDTH),
                        "a bandwidth such as \"450GB/s\" or \"400Gb/s\"");
    assert_string_equal(cr_units_example(CR_UNIT_TIME), "a time such as \"0.7us\" or \"5ms\"");
}

static void test_fuzz_replay(void **state)
{
    (void)state;
    assert_true(cr_test_replay_dir("tests/fuzz/corpus/units", LLVMFuzzerTestOneInput, 512) >= 20);
    /* And every case above. */
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        LLVMFuzzerTestOneInput((const uint8_t *)good[i].text, strlen(good[i].text));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        LLVMFuzzerTestOneInput((const uint8_t *)bad[i].text, strlen(bad[i].text));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good),  cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_format),      cmocka_unit_test(test_examples),
        cmocka_unit_test(test_fuzz_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
