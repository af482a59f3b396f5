/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the corpus gate reader (validate/corpus.c
 * cr_corpus_gate_read, the file `validate --corpus --gate` takes;
 * tests/fuzz/build.sh builds it; test_corpus.c replays the corpus through
 * this same function). The reader takes a path, so each input is written to
 * a temporary file first.
 * fuzz-max-len: 4096
 *
 * Properties: reading never crashes or leaks; every failure says why; a success
 * gives at least one line, each of a known half and band, a limit that is
 * finite and not negative, a target that is not negative where given, and
 * a line number within the input's lines.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "validate/corpus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char path[] = "/tmp/cr-fuzz-gate.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(path);
        return 0;
    }
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    int ok_write = fwrite(data, 1, size, f) == size;
    fclose(f);
    if (!ok_write) {
        unlink(path);
        return 0;
    }
    cr_corpus_gate *g = NULL;
    int n = 0;
    cr_diag d = {{0}};
    cr_status st = cr_corpus_gate_read(path, &g, &n, &d);
    unlink(path);
    if (st != CR_OK) {
        if (g || n != 0)
            abort();
        if (d.msg[0] == '\0')
            abort();
        return 0;
    }
    if (!g || n < 1)
        abort();
    for (int i = 0; i < n; i++) {
        if ((g[i].half != CR_CORPUS_FIT && g[i].half != CR_CORPUS_CHECK) || g[i].band < 0 ||
            g[i].band > CR_CORPUS_BAND_ALL || !isfinite(g[i].limit_pct) || g[i].limit_pct < 0 ||
            (!isnan(g[i].target_pct) && !(g[i].target_pct >= 0)) || g[i].line < 1 ||
            (size_t)g[i].line > lines)
            abort();
    }
    free(g);
    return 0;
}
