/* SPDX-License-Identifier: MIT */
/*
 * The tracer's header-only parts on the CPU (the tracer itself is a CUDA
 * injection library, checked end to end by tests/check_trace.sh):
 *
 * - sb.h's string writer: every NVTX string reaches the trace through
 *   sb_str, which must write what the trace reader accepts. A table of byte
 *   sequences and the JSON text the Unicode rules give for them; the
 *   tracer's notion of well-formed UTF-8 held to the reader's (jansson's
 *   json_loadb, which trace_reader.c calls on every string that is not
 *   plain ASCII) on every lead byte with the boundary values of the bytes
 *   after it; and all of sb_str's output read back by the trace reader.
 * - nvtx_payload.h, where CUDA's NVTX headers are: the fuzz corpus
 *   (tests/fuzz/corpus/nvtx_payload) replayed through the fuzz target, so
 *   that make test SAN=1 sees undefined behaviour there; and the null and
 *   wild pointers a program may pass for strings and entry arrays.
 */
#define _GNU_SOURCE /* nvtx_payload.h: process_vm_readv; before any system header */
#include "cr_test.h"
#include "cr_test_locale.h"

#include <dirent.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "traces/reader/trace_reader.h"
#include "traces/tracer/sb.h"

#if defined(__has_include)
#if __has_include(<nvtx3/nvToolsExtPayload.h>)
#define HAVE_NVTX 1
/* The fuzz target itself: the corpus replay below calls it. */
#include "tests/fuzz/fuzz_nvtx_payload.c"
#endif
#endif

#define R "\xef\xbf\xbd" /* U+FFFD REPLACEMENT CHARACTER in UTF-8 */

/* sb_str's output for str, a JSON string literal (malloc'd). */
static char *json_of(const char *str)
{
    sb_t s = {0};
    sb_str(&s, str);
    assert_false(s.oom);
    return s.p;
}

/* Byte sequences and what sb_str writes for them. The first five are the
 * examples of the Unicode Standard 15.0, section 3.9, Tables 3-8 to 3-12
 * ("U+FFFD Substitution of Maximal Subparts"); the rest follow from Table
 * 3-7 (the well-formed sequences) by the same practice: one U+FFFD for each
 * maximal subpart, i.e. for the longest prefix of a well-formed sequence, or
 * for one byte where none starts. */
static void test_sb_str_table(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        /* Table 3-8: a truncated 4-byte (F1 80 80), a truncated 3-byte
         * (E1 80), a lone lead (C2), stray continuations */
        {"\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64", "\"a" R R R "b" R "c" R R "d\""},
        /* Table 3-9: non-shortest forms, one U+FFFD per byte */
        {"\xc0\xaf\xe0\x80\xbf\xf0\x81\x82\x41", "\"" R R R R R R R R "A\""},
        /* Table 3-10: surrogates ED A0 80 (D800), ED BF BF (DFFF), ED AF */
        {"\xed\xa0\x80\xed\xbf\xbf\xed\xaf\x41", "\"" R R R R R R R R "A\""},
        /* Table 3-11: beyond U+10FFFF (F4 91), FF, stray continuations */
        {"\xf4\x91\x92\x93\xff\x41\x80\xbf\x42", "\"" R R R R R "A" R R "B\""},
        /* Table 3-12: truncated sequences E1 80, E2, F0 91 92, F1 BF */
        {"\xe1\x80\xe2\xf0\x91\x92\xf1\xbf\x41", "\"" R R R R "A\""},
        /* the shortest and longest of each length, kept */
        {"\x7f", "\"\x7f\""},
        {"\xc2\x80\xdf\xbf", "\"\xc2\x80\xdf\xbf\""},                 /* U+0080, U+07FF */
        {"\xe0\xa0\x80\xef\xbf\xbf", "\"\xe0\xa0\x80\xef\xbf\xbf\""}, /* U+0800, U+FFFF */
        {"\xed\x9f\xbf\xee\x80\x80", "\"\xed\x9f\xbf\xee\x80\x80\""}, /* U+D7FF, U+E000 */
        {"\xf0\x90\x80\x80", "\"\xf0\x90\x80\x80\""},                 /* U+10000 */
        {"\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\""},                 /* U+10FFFF */
        {"caf\xc3\xa9 \xe2\x82\xac", "\"caf\xc3\xa9 \xe2\x82\xac\""}, /* café € */
        {"\xef\xbf\xbd", "\"" R "\""},                                /* U+FFFD itself is valid */
        /* overlongs at each length: C0/C1 lead, E0 80..9F, F0 80..8F */
        {"\xc0\x80", "\"" R R "\""},
        {"\xc1\xbf", "\"" R R "\""},
        {"\xe0\x9f\xbf", "\"" R R R "\""},
        {"\xf0\x8f\xbf\xbf", "\"" R R R R "\""},
        /* surrogates: ED A0..BF */
        {"\xed\xa0\x80", "\"" R R R "\""},
        {"\xed\xbf\xbf", "\"" R R R "\""},
        /* beyond U+10FFFF: F4 90.., F5..F7 leads */
        {"\xf4\x90\x80\x80", "\"" R R R R "\""},
        {"\xf5\x80\x80\x80", "\"" R R R R "\""},
        {"\xf7\xbf\xbf\xbf", "\"" R R R R "\""},
        /* bytes that are never in UTF-8 */
        {"\xf8\xfc\xfe\xff", "\"" R R R R "\""},
        /* truncated: at the end of the string, before ASCII, before a lead */
        {"\xc3", "\"" R "\""},
        {"\xe2\x82", "\"" R "\""},
        {"\xf0\x9f\x98", "\"" R "\""},
        {"\xe2\x82x", "\"" R "x\""},
        {"\xe2\x82\xe2\x82\xac", "\"" R "\xe2\x82\xac\""},
        {"\xf0\x9f\x98\xc3\xa9", "\"" R "\xc3\xa9\""},
        /* a valid character after a wrong second byte starts afresh */
        {"\xe0\xc3\xa9", "\"" R "\xc3\xa9\""},
        /* escapes still apply around them */
        {"\"\\\x01\x1f\xc0", "\"\\\"\\\\\\u0001\\u001f" R "\""},
        {"", "\"\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = json_of(cases[i].in);
        if (strcmp(got, cases[i].out) != 0)
            fail_msg("case %zu: got %s, expected %s", i, got, cases[i].out);
        free(got);
    }
    char *got = json_of(NULL);
    assert_string_equal(got, "\"\"");
    free(got);
}

/* Whether the n bytes at p are well-formed UTF-8 by sb_utf8_seq. */
static bool well_formed(const unsigned char *p, size_t n)
{
    for (size_t i = 0, k; i < n; i += k)
        if (!sb_utf8_seq(p + i, n - i, &k))
            return false;
    return true;
}

/* Every lead byte (but NUL, controls, '"' and '\\', which are not raw string
 * bytes in JSON), followed by 0 to 3 bytes from the values where Table 3-7
 * changes its mind: sb_utf8_seq's verdict is jansson's (the reader's), and
 * what sb_str writes the trace reader reads, as the same bytes where they
 * were well-formed. */
static void test_utf8_same_as_reader(void **state)
{
    (void)state;
    static const unsigned char next[] = {0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f,
                                         0xa0, 0xbf, 0xc0, 0xf4, 0xff};
    const size_t nn = sizeof next / sizeof next[0];
    sb_t trace = {0};
    sb_puts(&trace, "{\"traceEvents\":[\n");
    size_t cases = 0, valid = 0;
    char **inputs = NULL;
    size_t cap = 0;
    for (unsigned lead = 0x20; lead <= 0xff; lead++) {
        if (lead == '"' || lead == '\\')
            continue;
        for (size_t len = 1; len <= 4; len++) {
            size_t combos = len == 1 ? 1 : len == 2 ? nn : len == 3 ? nn * nn : nn * nn * nn;
            for (size_t c = 0; c < combos; c++) {
                unsigned char in[5] = {(unsigned char)lead, 0, 0, 0, 0};
                for (size_t j = 1, rest = c; j < len; j++, rest /= nn)
                    in[j] = next[rest % nn];
                /* jansson on the raw bytes as a JSON string */
                char raw[8];
                raw[0] = '"';
                memcpy(raw + 1, in, len);
                raw[len + 1] = '"';
                json_error_t err;
                json_t *j = json_loadb(raw, len + 2, JSON_DECODE_ANY, &err);
                bool ours = well_formed(in, len);
                if (ours != (j != NULL))
                    fail_msg("%02x %02x %02x %02x (%zu bytes): sb_utf8_seq says %s, jansson %s",
                             in[0], in[1], in[2], in[3], len, ours ? "valid" : "invalid",
                             j ? "valid" : err.text);
                json_decref(j);
                valid += ours;
                /* sb_str's text of it, as the name of one event */
                sb_puts(&trace, cases ? ",\n{\"ph\":\"i\",\"ts\":1,\"name\":"
                                      : "{\"ph\":\"i\",\"ts\":1,\"name\":");
                sb_str(&trace, (const char *)in);
                sb_puts(&trace, "}");
                if (cases == cap) {
                    cap = cap ? 2 * cap : 1024;
                    inputs = realloc(inputs, cap * sizeof *inputs);
                    assert_non_null(inputs);
                }
                inputs[cases++] = strdup((const char *)in);
            }
        }
    }
    sb_puts(&trace, "\n]}\n");
    assert_false(trace.oom);
    /* the grid holds both kinds: all 128-ish ASCII leads alone are valid */
    assert_true(valid > 1000 && valid < cases / 2);

    cr_trace_reader *r = NULL;
    assert_int_equal(cr_trace_reader_open_mem(trace.p, trace.len, "grid", &r), CR_OK);
    size_t n = 0;
    for (;;) {
        const cr_trace_event *ev = NULL;
        cr_diag d = {{0}};
        cr_status st = cr_trace_reader_next(r, &ev, &d);
        if (st != CR_OK)
            fail_msg("event %zu: %s", n, d.msg);
        if (!ev)
            break;
        assert_true(n < cases);
        const unsigned char *in = (const unsigned char *)inputs[n];
        if (well_formed(in, strlen(inputs[n])))
            assert_string_equal(ev->name, inputs[n]);
        else
            assert_non_null(strstr(ev->name, R));
        free(inputs[n]);
        n++;
    }
    assert_int_equal(n, cases);
    cr_trace_reader_free(r);
    free(inputs);
    free(trace.p);
}

/* sb_utf8_encode: wchar_t strings (UTF-32 on Linux) into UTF-8; what is no
 * Unicode scalar value becomes U+FFFD. Expected bytes from Table 3-6. */
static void test_utf8_encode(void **state)
{
    (void)state;
    static const struct {
        unsigned long cp;
        const char *out;
    } cases[] = {
        {0x41, "A"},
        {0x7f, "\x7f"},
        {0x80, "\xc2\x80"},
        {0xe9, "\xc3\xa9"},
        {0x7ff, "\xdf\xbf"},
        {0x800, "\xe0\xa0\x80"},
        {0x20ac, "\xe2\x82\xac"},
        {0xd7ff, "\xed\x9f\xbf"},
        {0xd800, R},
        {0xdfff, R},
        {0xe000, "\xee\x80\x80"},
        {0xffff, "\xef\xbf\xbf"},
        {0x10000, "\xf0\x90\x80\x80"},
        {0x1f600, "\xf0\x9f\x98\x80"},
        {0x10ffff, "\xf4\x8f\xbf\xbf"},
        {0x110000, R},
        {0xffffffff, R},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[5] = {0};
        size_t n = sb_utf8_encode(cases[i].cp, out);
        assert_int_equal(n, strlen(cases[i].out));
        assert_memory_equal(out, cases[i].out, n);
    }
}

/* sb_utf8_cut: a string the tracer shortens loses a character cut in two,
 * nothing else. */
static void test_utf8_cut(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t n, want;
    } cases[] = {
        {"ab", 2, 2},
        {"a\xe2\x82\xac", 2, 1},        /* cut after E2 */
        {"a\xe2\x82\xac", 3, 1},        /* cut after E2 82 */
        {"a\xe2\x82\xac", 4, 4},        /* whole */
        {"a\xf0\x9f\x98\x80", 4, 1},    /* cut after F0 9F 98 */
        {"a\xc3\xa9", 2, 1},            /* cut after C3 */
        {"a\x80", 2, 2},                /* a stray byte is not a cut character */
        {"a\xe0\x80", 3, 3},            /* E0 80 is no prefix of anything */
        {"a\xed\xa0", 3, 3},            /* nor is ED A0 (a surrogate) */
        {"a\xf5", 2, 2},                /* nor F5 */
        {"\xe2\x82\xac\xe2\x82", 5, 3}, /* the last one only */
        {"", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (sb_utf8_cut(cases[i].s, cases[i].n) != cases[i].want)
            fail_msg("case %zu: cut %zu, expected %zu", i, sb_utf8_cut(cases[i].s, cases[i].n),
                     cases[i].want);
}

#ifdef HAVE_NVTX
/* Replays the fuzz corpus through the target (it aborts on a broken
 * property; the SAN build stops at the first UBSan report). The seed
 * nccl_allreduce has an entry without a name: nvp_read_str(NULL) was
 * pointer arithmetic on a null pointer (issue 13, item 7). */
/* A double payload is written with a '.' under a decimal-comma locale
 * the traced program set (a C++ program's std::locale::global(
 * std::locale("")) on a German host): it was "1,5", which the reader
 * refuses, and the whole trace with it. NaN is null. */
static void test_sb_double_comma_locale(void **state)
{
    (void)state;
    char dir[64] = "";
    cr_test_comma_locale(dir, sizeof dir);
    char c_text[32];
    snprintf(c_text, sizeof c_text, "%.1f", 1.5);
    assert_string_equal(c_text, "1,5"); /* the locale is in force */
    sb_t s = {0};
    sb_double(&s, 1.5);
    sb_puts(&s, " ");
    sb_double(&s, -2.25e-7);
    sb_puts(&s, " ");
    sb_double(&s, NAN);
    assert_string_equal(s.p, "1.5 -2.2499999999999999e-07 null");
    snprintf(c_text, sizeof c_text, "%.1f", 1.5);
    assert_string_equal(c_text, "1,5"); /* and still is */
    free(s.p);
    setlocale(LC_ALL, "C");
    cr_test_locale_drop(dir);
}

static void test_nvtx_payload_corpus(void **state)
{
    (void)state;
    /* 4096: the target's fuzz-max-len */
    assert_true(
        cr_test_replay_dir("tests/fuzz/corpus/nvtx_payload", LLVMFuzzerTestOneInput, 4096) >= 2);
}

/* What a program may hand over for strings and arrays: NULL, a wild
 * pointer, a string longer than NVP_MAX_STR with a character across the
 * limit. */
static void test_nvtx_payload_pointers(void **state)
{
    (void)state;
    assert_null(nvp_read_str(NULL));
    assert_null(nvp_read_str((const char *)(uintptr_t)0xdead0000));
    assert_null(nvp_read_str((const char *)UINTPTR_MAX));
    char lng[NVP_MAX_STR + 8];
    memset(lng, 'a', sizeof lng);
    memcpy(lng + NVP_MAX_STR - 1, "\xe2\x82\xac", 4); /* U+20AC across the limit */
    char *s = nvp_read_str(lng);
    assert_non_null(s);
    assert_int_equal(strlen(s), NVP_MAX_STR - 1); /* the cut character left out */
    free(s);

    nvp_registry reg = {0};
    nvtxPayloadSchemaAttr_t a = {0};
    a.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
                  NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME;
    a.numEntries = 2;
    a.entries = NULL;
    a.name = NULL;
    assert_false(nvp_register_schema(&reg, NULL, &a, 1));
    a.entries = (const nvtxPayloadSchemaEntry_t *)(uintptr_t)UINTPTR_MAX;
    assert_false(nvp_register_schema(&reg, NULL, &a, 1));
    nvtxPayloadEnumAttr_t ea = {0};
    ea.fieldMask = NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES;
    ea.numEntries = 3;
    ea.entries = NULL;
    assert_false(nvp_register_enum(&reg, NULL, &ea, 2));
    assert_int_equal(reg.n, 0);
    assert_int_equal(reg.rejected, 3);
    nvp_registry_free(&reg);
}
/* nvp_safe_read on memory whose variable went out of scope, in a frame
 * above the reader's (its no-system-call path): the tracer reads it, and
 * the SAN build's AddressSanitizer must not call that a use after scope
 * (fuzz_nvtx_payload found it after 4 million runs: a C-string pointer from
 * the blob into the harness's own stack). */
__attribute__((noinline)) static size_t read_16(uintptr_t at, unsigned char *out)
{
    return nvp_safe_read(out, (const void *)at, 16);
}

static void test_nvtx_payload_dead_scope(void **state)
{
    (void)state;
    volatile uintptr_t at = 0;
    {
        unsigned char gone[64];
        memset(gone, 0x5a, sizeof gone);
        at = (uintptr_t)gone;
    }
    unsigned char out[16] = {0};
    assert_int_equal(read_16(at, out), 16);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_str_table),
        cmocka_unit_test(test_utf8_same_as_reader),
        cmocka_unit_test(test_utf8_encode),
        cmocka_unit_test(test_utf8_cut),
        cmocka_unit_test(test_sb_double_comma_locale),
#ifdef HAVE_NVTX
        cmocka_unit_test(test_nvtx_payload_corpus),
        cmocka_unit_test(test_nvtx_payload_pointers),
        cmocka_unit_test(test_nvtx_payload_dead_scope),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
