/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for quantities with units (tests/fuzz/build.sh builds
 * it; test_units.c replays the corpus through this same function).
 * fuzz-max-len: 64
 *
 * Properties: parsing never crashes; a success gives a finite value; a
 * failure says why; what parses prints, and the printed text (four
 * significant digits) parses back to within 0.05%.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256)
        return 0;
    char text[257];
    memcpy(text, data, size);
    text[size] = '\0';
    static const cr_unit_kind kinds[] = {CR_UNIT_BYTES, CR_UNIT_BANDWIDTH, CR_UNIT_TIME,
                                         CR_UNIT_FLOPS, CR_UNIT_FLOP};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        cr_diag d = {{0}};
        double v = 0;
        if (cr_units_parse(text, kinds[k], &v, &d) != CR_OK) {
            if (!d.msg[0])
                abort();
            continue;
        }
        if (!isfinite(v))
            abort();
        double mag = fabs(v);
        if (mag != 0 && (mag < 1e-30 || mag > 1e30))
            continue; /* subnormal-ish or beyond any prefix: no round trip promised */
        char out[64];
        cr_units_format(v, kinds[k], out, sizeof out);
        double back = 0;
        cr_diag d2 = {{0}};
        if (cr_units_parse(out, kinds[k], &back, &d2) != CR_OK)
            abort();
        if (fabs(back - v) > 5e-4 * mag)
            abort();
    }
    return 0;
}
