/* SPDX-License-Identifier: MIT */
/* Element type names and sizes (see dtype.h). */
#include "dtype.h"

#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    double bytes;
} dtypes[CR_DT__COUNT] = {
    [CR_DT_FP64] = {"fp64", 8.0}, [CR_DT_FP32] = {"fp32", 4.0}, [CR_DT_TF32] = {"tf32", 4.0},
    [CR_DT_BF16] = {"bf16", 2.0}, [CR_DT_FP16] = {"fp16", 2.0}, [CR_DT_FP8] = {"fp8", 1.0},
    [CR_DT_INT8] = {"int8", 1.0}, [CR_DT_FP4] = {"fp4", 0.5},
};

static const struct {
    const char *alias;
    cr_dtype t;
} aliases[] = {
    {"float64", CR_DT_FP64}, {"double", CR_DT_FP64},   {"float32", CR_DT_FP32},
    {"float", CR_DT_FP32},   {"bfloat16", CR_DT_BF16}, {"float16", CR_DT_FP16},
    {"half", CR_DT_FP16},    {"e4m3", CR_DT_FP8},      {"e5m2", CR_DT_FP8},
    {"fp8e4m3", CR_DT_FP8},  {"uint8", CR_DT_INT8},
};

const char *cr_dtype_name(cr_dtype t)
{
    return (unsigned)t < CR_DT__COUNT ? dtypes[t].name : NULL;
}

double cr_dtype_bytes(cr_dtype t)
{
    return (unsigned)t < CR_DT__COUNT ? dtypes[t].bytes : 0.0;
}

cr_status cr_dtype_parse(const char *name, cr_dtype *out, cr_diag *d)
{
    if (!name)
        return cr_diag_set(d, CR_EINVAL, "no element type given (fp32, bf16, ...)");
    /* in any case, as every other enumerated parameter (kind, coll, norm,
     * causal): "BF16" was refused where "D2D" was taken */
    for (int i = 0; i < CR_DT__COUNT; i++)
        if (strcasecmp(name, dtypes[i].name) == 0) {
            *out = (cr_dtype)i;
            return CR_OK;
        }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcasecmp(name, aliases[i].alias) == 0) {
            *out = aliases[i].t;
            return CR_OK;
        }
    return cr_diag_set(
        d, CR_ENOTFOUND,
        "unknown dtype \"%s\", expected one of fp64 fp32 tf32 bf16 fp16 fp8 int8 fp4", name);
}

cr_status cr_dtype_check_nccl(cr_dtype t, cr_diag *d)
{
    /* a value outside the enumeration is no NCCL type either (it passed,
     * QA audit of the API) */
    if ((unsigned)t >= CR_DT__COUNT)
        return cr_diag_set(d, CR_EINVAL,
                           "dtype %d is not an element type (a cr_dtype, 0 to %d); use fp32, "
                           "bf16, fp16, fp8, int8 or fp64",
                           (int)t, CR_DT__COUNT - 1);
    if (t != CR_DT_TF32 && t != CR_DT_FP4)
        return CR_OK;
    return cr_diag_set(
        d, CR_EINVAL, "%s is not an NCCL element type; use fp32, bf16, fp16, fp8, int8 or fp64%s",
        cr_dtype_name(t),
        t == CR_DT_TF32 ? " (tf32 is stored as fp32)" : " (packed fp4 moves as int8 bytes)");
}
