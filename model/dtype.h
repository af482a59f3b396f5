/* SPDX-License-Identifier: MIT */
/* Element types: names as users type them, sizes in bytes. */
#ifndef CR_DTYPE_H
#define CR_DTYPE_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CR_DT_FP64,
    CR_DT_FP32, /* plain IEEE fp32 on CUDA cores */
    CR_DT_TF32, /* fp32 inputs on tensor cores */
    CR_DT_BF16,
    CR_DT_FP16,
    CR_DT_FP8, /* e4m3 / e5m2 */
    CR_DT_INT8,
    CR_DT_FP4,
    CR_DT__COUNT
} cr_dtype;

/* "fp32", "bf16", ...; NULL for an out-of-range value. */
const char *cr_dtype_name(cr_dtype t);

/* Size of one element in bytes (fp4 is 0.5). */
double cr_dtype_bytes(cr_dtype t);

/* Whether t is an element type NCCL has, the rule every collective's
 * dtype follows (coll and sim --dtype, a scenario's dtype=): tf32 is fp32
 * in memory, and NCCL has no 4-bit type (packed fp4 moves as int8 bytes).
 * CR_OK, or CR_EINVAL with "NAME is not an NCCL element type; use ..."
 * and the right type in d (also for a value outside cr_dtype). */
cr_status cr_dtype_check_nccl(cr_dtype t, cr_diag *d);

/* Accepts the names above and common aliases ("float32", "e4m3", "half").
 * Errors: CR_ENOTFOUND with the list of valid names in d. */
cr_status cr_dtype_parse(const char *name, cr_dtype *out, cr_diag *d);

#ifdef __cplusplus
}
#endif

#endif
