/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for rank-set specifications (--ranks SPEC of coll, sim,
 * validate and roofline). tests/fuzz/build.sh builds it; test_rankset.c
 * replays tests/fuzz/corpus/rankset/ through this same function.
 * fuzz-max-len: 256
 *
 * Input: two bytes give the topology's GPU count (1 .. 65,536, little
 * endian, plus one), the rest is the spec text.
 *
 * Properties: parsing never crashes; a failure says why; a parsed set has
 * n >= 1 distinct ranks, each in 0 .. n_gpus-1; its shortest text form
 * parses back to the same ranks in the same order.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rankset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 258)
        return 0;
    int n_gpus = 1 + (data[0] | data[1] << 8);
    char spec[257];
    memcpy(spec, data + 2, size - 2);
    spec[size - 2] = '\0';

    cr_rankset *s = NULL;
    cr_diag d = {{0}};
    if (cr_rankset_parse(spec, n_gpus, &s, &d) != CR_OK) {
        if (!d.msg[0] || s)
            abort();
        return 0;
    }
    if (!s || s->n < 1 || s->n > n_gpus)
        abort();
    char *seen = calloc((size_t)n_gpus, 1);
    if (!seen)
        abort();
    for (int i = 0; i < s->n; i++) {
        int r = s->ranks[i];
        if (r < 0 || r >= n_gpus || seen[r])
            abort();
        seen[r] = 1;
    }
    free(seen);

    size_t need = cr_rankset_format(s, n_gpus, NULL, 0) + 1;
    char *text = malloc(need);
    if (!text)
        abort();
    cr_rankset_format(s, n_gpus, text, need);
    cr_rankset *back = NULL;
    cr_diag d2 = {{0}};
    if (cr_rankset_parse(text, n_gpus, &back, &d2) != CR_OK || back->n != s->n ||
        memcmp(back->ranks, s->ranks, (size_t)s->n * sizeof s->ranks[0]) != 0)
        abort();
    cr_rankset_free(back);
    free(text);
    cr_rankset_free(s);
    return 0;
}
