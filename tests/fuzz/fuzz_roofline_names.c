/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the emit_nvtx range-name parser of roofline
 * (cr_rf_parse_name, validate/roofline.h), which reads whatever NVTX
 * message a traced program pushed. tests/fuzz/build.sh builds it;
 * test_roofline.c replays tests/fuzz/corpus/roofline_names/ through this
 * same function.
 * fuzz-max-len: 512
 *
 * Input: the range name (NUL bytes end it), also read as a kernel's name
 * (cr_rf_kernel_dtype, cr_rf_kernel_elem_bytes).
 *
 * Properties: parsing never crashes or reads past the name; a failure says
 * why; a parsed name has a non-empty operator without ',', at most
 * CR_RF_MAX_SHAPES shapes of at most CR_RF_MAX_DIMS dimensions, sizes in
 * 0 .. 2^53, a sizes text inside the name that starts with '[', and a
 * complete (not truncated) sizes text parses again to the same shapes;
 * the element count of each shape is finite and >= 1 or a product with a 0;
 * a kernel's name gives a known type or -1, and 0, 1, 2, 4 or 8 bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "validate/roofline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *name = malloc(size + 1);
    if (!name)
        abort();
    memcpy(name, data, size);
    name[size] = '\0';
    size_t len = strlen(name);
    /* the same text as a kernel's name: a known type or none, an element
     * size or none */
    int kt = cr_rf_kernel_dtype(name), kb = cr_rf_kernel_elem_bytes(name);
    if (kt < -1 || kt >= CR_DT__COUNT || (kb != 0 && kb != 1 && kb != 2 && kb != 4 && kb != 8))
        abort();
    cr_rf_name n;
    cr_diag d = {{0}};
    if (cr_rf_parse_name(name, &n, &d) != CR_OK) {
        if (!d.msg[0])
            abort();
        free(name);
        return 0;
    }
    if (!n.op[0] || strchr(n.op, ',') || n.n_shapes < 0 || n.n_shapes > CR_RF_MAX_SHAPES)
        abort();
    for (int i = 0; i < n.n_shapes; i++) {
        if (n.ndim[i] < 0 || n.ndim[i] > CR_RF_MAX_DIMS)
            abort();
        for (int k = 0; k < n.ndim[i]; k++)
            if (n.dim[i][k] < 0 || n.dim[i][k] > (int64_t)1 << 53)
                abort();
        double e = cr_rf_numel(&n, i);
        if (!(e >= 0) || e != e)
            abort();
    }
    if (n.has_sizes) {
        if (n.sizes_off > len || n.sizes_len > len - n.sizes_off || name[n.sizes_off] != '[')
            abort();
        if (!n.truncated) {
            /* "x, sizes = <the same text>" gives the same shapes */
            char *again = malloc(n.sizes_len + 16);
            if (!again)
                abort();
            memcpy(again, "x, sizes = ", 11);
            memcpy(again + 11, name + n.sizes_off, n.sizes_len);
            again[11 + n.sizes_len] = '\0';
            cr_rf_name m;
            cr_diag d2 = {{0}};
            if (cr_rf_parse_name(again, &m, &d2) != CR_OK || m.n_shapes != n.n_shapes ||
                m.truncated)
                abort();
            for (int i = 0; i < n.n_shapes; i++) {
                if (m.ndim[i] != n.ndim[i])
                    abort();
                for (int k = 0; k < n.ndim[i]; k++)
                    if (m.dim[i][k] != n.dim[i][k])
                        abort();
            }
            free(again);
        }
    } else if (n.n_shapes != 0) {
        abort();
    }
    free(name);
    return 0;
}
