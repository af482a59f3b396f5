/* SPDX-License-Identifier: MIT */
/*
 * json_items: a JSON array read an item at a time (the bulk check input):
 * the two forms, the errors with their lines, the item size cap, and the
 * fuzz corpus replayed through the fuzz target.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cr_test.h"
#include "json_items.h"

#include "tests/fuzz/fuzz_measured_json.c"

/* Reads text to the end or the first error; the items' "i" members summed
 * into *sum, their count in *n; d holds the error. */
static cr_status read_all(const char *text, size_t *n, long long *sum, cr_diag *d)
{
    FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
    assert_non_null(f);
    cr_json_items *r = NULL;
    assert_int_equal(cr_json_items_open(f, "in.json", "results", &r), CR_OK);
    memset(d, 0, sizeof *d);
    json_t *e = NULL;
    cr_status st;
    *n = 0;
    *sum = 0;
    while ((st = cr_json_items_next(r, &e, d)) == CR_OK && e) {
        *sum += json_integer_value(json_object_get(e, "i"));
        json_decref(e);
        (*n)++;
    }
    assert_int_equal(cr_json_items_count(r), *n);
    cr_json_items_free(r);
    fclose(f);
    return st;
}

static void test_forms(void **state)
{
    (void)state;
    size_t n;
    long long sum;
    cr_diag d;
    assert_int_equal(read_all("[{\"i\": 1}, {\"i\": 20}]", &n, &sum, &d), CR_OK);
    assert_int_equal(n, 2);
    assert_int_equal(sum, 21);
    assert_int_equal(read_all("  [ ]\n", &n, &sum, &d), CR_OK);
    assert_int_equal(n, 0);
    /* the object form: other members (brackets in strings, nested arrays)
     * before and after are checked and skipped */
    assert_int_equal(read_all("{\"x\": [\"]\", {\"y\": \"}\"}], \"results\": [{\"i\": 3, \"s\": "
                              "\"a\\\"]\"}, 7, \"t\", [[]]], \"z\": null}",
                              &n, &sum, &d),
                     CR_OK);
    assert_int_equal(n, 4);
    assert_int_equal(sum, 3);
    /* a UTF-8 byte-order mark before the text (an editor's) is passed over;
     * the same bytes elsewhere are no JSON */
    assert_int_equal(read_all("\xef\xbb\xbf[{\"i\": 5}]", &n, &sum, &d), CR_OK);
    assert_int_equal(n, 1);
    assert_int_equal(sum, 5);
    assert_int_equal(read_all(" \xef\xbb\xbf[{\"i\": 5}]", &n, &sum, &d), CR_EPARSE);
    assert_int_equal(read_all("\xef\xbb[]", &n, &sum, &d), CR_EPARSE);
}

/* Each error: its line and what is wrong. */
static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
        cr_status st;
        size_t n;
    } cases[] = {
        {"[{\"i\": 1},\n {\"i\": 2\n \"j\": 3}]", "in.json:3: item 1: '}' expected near '\"j\"'",
         CR_EPARSE, 1},
        {"[1,\n]", "in.json:2: expected item 1, found ']'", CR_EPARSE, 1},
        {"[1, 2", "in.json:1: the input ends inside the array, after item 1", CR_EPARSE, 2},
        {"[1, {\"a\": ", "in.json:1: the input ends inside item 1", CR_EPARSE, 1},
        {"[1 2]", "in.json:1: expected ',' or ']' after item 0, found '2'", CR_EPARSE, 1},
        {"[]\nx", "in.json:2: 'x' after the end of the JSON", CR_EPARSE, 0},
        {"{\"a\": 1}", "in.json: the top-level object has no \"results\" array", CR_EPARSE, 0},
        {"{\"results\": [], \"results\": []}", "in.json:1: \"results\" given twice", CR_EPARSE, 0},
        {"{\"results\": {}}", "in.json:1: \"results\" must be an array, found '{'", CR_EPARSE, 0},
        {"[{\"a\": 1, \"a\": 2}]", "in.json:1: item 0: duplicate object key", CR_EPARSE, 0},
        {"\"x\"", "in.json:1: expected a JSON array, or an object with a \"results\" array",
         CR_EPARSE, 0},
        {"", "found the end of the input", CR_EPARSE, 0},
        /* in words of the file, not of jansson's flags (QA audit) */
        {"[{\"n\": \"a\\u0000b\"}]",
         "in.json:1: item 0: a \\u0000 (NUL character) inside a string: remove it", CR_EPARSE, 0},
        {"[{\"m\": 123456789012345678901234}]",
         "in.json:1: item 0: an integer beyond 64 bits: write it smaller, or as a number with an "
         "exponent (e.g. 1e20)",
         CR_EPARSE, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n;
        long long sum;
        cr_diag d;
        assert_int_equal(read_all(cases[i].text, &n, &sum, &d), cases[i].st);
        if (!strstr(d.msg, cases[i].msg))
            fail_msg("case %zu: \"%s\" lacks \"%s\"", i, d.msg, cases[i].msg);
        assert_int_equal(n, cases[i].n);
    }
}

/* An item over CR_JSON_ITEM_MAX_BYTES is refused at its line, whatever
 * it holds; one just under is read. */
static void test_item_cap(void **state)
{
    (void)state;
    size_t big = CR_JSON_ITEM_MAX_BYTES + 16;
    char *text = malloc(big + 64);
    assert_non_null(text);
    for (int over = 0; over < 2; over++) {
        size_t len = over ? big : CR_JSON_ITEM_MAX_BYTES - 2; /* the string and its quotes */
        size_t k = (size_t)snprintf(text, 64, "[1,\n\"");
        memset(text + k, 'a', len - 2);
        k += len - 2;
        snprintf(text + k, 64, "\"]");
        size_t n;
        long long sum;
        cr_diag d;
        cr_status st = read_all(text, &n, &sum, &d);
        if (over) {
            assert_int_equal(st, CR_ERANGE);
            assert_non_null(strstr(d.msg, "in.json:2: item 1 is over 1048576 bytes of JSON"));
        } else {
            assert_int_equal(st, CR_OK);
            assert_int_equal(n, 2);
        }
    }
    free(text);
}

static void test_fuzz_replay(void **state)
{
    (void)state;
    int n = cr_test_replay_dir("tests/fuzz/corpus/measured_json", LLVMFuzzerTestOneInput, 1 << 16);
    n += cr_test_replay_dir("tests/fixtures/check", LLVMFuzzerTestOneInput, 1 << 16);
    assert_true(n >= 10);
}

/* The member callback's record: names seen, in order, and the sum of
 * their integer values; refuse: the name it stops at. */
typedef struct {
    char names[128];
    long long sum;
    const char *refuse;
} members_seen;

static cr_status on_member(void *ctx, const char *name, json_t *value, cr_diag *d)
{
    members_seen *m = ctx;
    if (m->refuse && !strcmp(name, m->refuse))
        return cr_diag_set(d, CR_EPARSE, "in.json: \"%s\" refused", name);
    strncat(m->names, name, sizeof m->names - strlen(m->names) - 2);
    strcat(m->names, ",");
    m->sum += json_integer_value(value);
    return CR_OK;
}

static void test_member_callback(void **state)
{
    (void)state;
    const char *text = "{\"a\": 1, \"results\": [{\"i\": 5}], \"b\": 20, \"c\": [1]}";
    for (int refuse = 0; refuse < 2; refuse++) {
        FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
        assert_non_null(f);
        cr_json_items *r = NULL;
        assert_int_equal(cr_json_items_open(f, "in.json", "results", &r), CR_OK);
        members_seen m = {.refuse = refuse ? "b" : NULL};
        cr_json_items_on_member(r, on_member, &m);
        cr_diag d = {{0}};
        json_t *e = NULL;
        size_t items = 0;
        cr_status st;
        while ((st = cr_json_items_next(r, &e, &d)) == CR_OK && e) {
            /* a member before the array is seen before its items */
            assert_string_equal(m.names, "a,");
            json_decref(e);
            items++;
        }
        assert_int_equal(items, 1);
        if (refuse) {
            /* the callback's refusal ends the read with its message */
            assert_int_equal(st, CR_EPARSE);
            assert_string_equal(d.msg, "in.json: \"b\" refused");
            assert_string_equal(m.names, "a,");
            assert_int_equal(cr_json_items_next(r, &e, &d), CR_EPARSE);
        } else {
            assert_int_equal(st, CR_OK);
            assert_string_equal(m.names, "a,b,c,");
            assert_int_equal(m.sum, 21);
        }
        cr_json_items_free(r);
        fclose(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms),       cmocka_unit_test(test_errors),
        cmocka_unit_test(test_item_cap),    cmocka_unit_test(test_member_callback),
        cmocka_unit_test(test_fuzz_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
