/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the bulk check JSON (`commroof check --measured-json`
 * and the charts' harness results), read an item at a time by json_items.
 * test_json_items.c replays tests/fuzz/corpus/measured_json/ through this
 * same function on every make test.
 * fuzz-seeds: tests/fixtures/check
 *
 * Properties: the reader neither crashes nor leaks; a failure says why;
 * every item it returns is a JSON value and the count matches; and when
 * jansson loads the whole input as an array, or as an object whose
 * "results" is an array, the reader succeeds with the same items in the
 * same order (json_equal); every item read as an entry (harness.h) is a
 * result with a positive, finite time or a refusal that names the entry.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "json_items.h"
#include "tests/fuzz/fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t je;
    json_t *whole = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
    json_t *arr = json_is_array(whole) ? whole : json_object_get(whole, "results");
    if (!json_is_array(arr))
        arr = NULL;
    FILE *f = fuzz_stream(data, size);
    if (!f) {
        json_decref(whole);
        return 0;
    }
    cr_json_items *r = NULL;
    if (cr_json_items_open(f, "fuzz.json", "results", &r) != CR_OK)
        abort();
    cr_diag d = {{0}};
    json_t *e = NULL;
    cr_status st;
    size_t n = 0;
    while ((st = cr_json_items_next(r, &e, &d)) == CR_OK && e) {
        if (arr && !json_equal(e, json_array_get(arr, n)))
            abort();
        /* every command's entry reader (harness.h): a result has a positive,
         * finite time; a refusal names the entry */
        cr_harness_result hr;
        cr_diag hd = {{0}};
        char idx[32];
        snprintf(idx, sizeof idx, "entry %zu", n);
        if (cr_harness_result_read(e, n, CR_HARNESS_NEED_NAME | CR_HARNESS_NEED_OP, &hr, &hd) ==
            CR_OK) {
            if (!(hr.measured_s > 0) || !isfinite(hr.measured_s) || !hr.name || !hr.op)
                abort();
            const cr_op_def *op = NULL;
            cr_op_params p;
            cr_status os = cr_harness_result_op(&hr, n, &op, &p, &hd);
            if ((os == CR_OK && !op) || (os != CR_OK && strncmp(hd.msg, idx, strlen(idx)) != 0))
                abort();
        } else if (strncmp(hd.msg, idx, strlen(idx)) != 0) {
            abort();
        }
        json_decref(e);
        n++;
    }
    if (st == CR_OK) {
        if (n != cr_json_items_count(r) || (arr && n != json_array_size(arr)))
            abort();
    } else if (!d.msg[0] || arr) {
        abort();
    }
    /* after the end or an error, the same answer again */
    cr_diag d2 = {{0}};
    if (cr_json_items_next(r, &e, &d2) != st || e)
        abort();
    cr_json_items_free(r);
    fclose(f);
    json_decref(whole);
    return 0;
}
