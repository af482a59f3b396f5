/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for validate's parsers: crbench case names
 * ("cr:<family> key=value ...") and nccl-tests output logs. test_validate.c
 * replays tests/fuzz/corpus/validate/ through this same function on every
 * make test. tests/fuzz/build.sh builds it (validate/ is in its library).
 * fuzz-max-len: 16384
 * fuzz-seeds: tests/fixtures/nccl-tests
 *
 * Properties: neither parser crashes or leaks; a failure says why; a parsed
 * case has a known family, at most CR_VCASE_MAX_KEYS keys, each key of
 * [a-z0-9_] and a non-empty value, and every key is found by cr_vcase_get;
 * a log that parses yields cases whose measured times are positive and
 * finite.
 */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    cr_vcase c;
    cr_diag d = {{0}};
    if (cr_vcase_parse(text, &c, &d) == CR_OK) {
        if ((unsigned)c.family >= CR_VFAM__COUNT || c.n_keys > CR_VCASE_MAX_KEYS)
            abort();
        for (int i = 0; i < c.n_keys; i++) {
            if (!c.kv[i].key[0] || !c.kv[i].value[0])
                abort();
            for (const char *p = c.kv[i].key; *p; p++)
                if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
                    abort();
            if (cr_vcase_get(&c, c.kv[i].key) != c.kv[i].value)
                abort();
        }
    } else if (!d.msg[0]) {
        abort();
    }

    FILE *f = fmemopen(text, size ? size : 1, "r");
    if (f) {
        cr_vmeas_list l = {0};
        cr_diag dl = {{0}};
        cr_status st =
            cr_validate_read_nccl_tests_stream(f, "fuzz_all_reduce_perf.log", NULL, &l, &dl);
        if (st == CR_OK) {
            for (size_t i = 0; i < l.n; i++)
                if (!(l.v[i].measured_s > 0) || !isfinite(l.v[i].measured_s))
                    abort();
        } else if (!dl.msg[0] || l.n != 0) {
            abort();
        }
        cr_vmeas_list_release(&l);
        fclose(f);
    }
    free(text);
    return 0;
}
