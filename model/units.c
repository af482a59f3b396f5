/* SPDX-License-Identifier: MIT */
/* Parsing and printing of quantities with units (see units.h). */
#include "units.h"
#include "sbuf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct prefix {
    const char *text;
    double scale;
};

/* IEC before SI so that "Gi" is tried before "G". */
static const struct prefix prefixes[] = {
    {"Ki", 1024.0},
    {"Mi", 1048576.0},
    {"Gi", 1073741824.0},
    {"Ti", 1099511627776.0},
    {"Pi", 1125899906842624.0},
    {"Ei", 1152921504606846976.0},
    {"k", 1e3},
    {"K", 1e3},
    {"M", 1e6},
    {"G", 1e9},
    {"T", 1e12},
    {"P", 1e15},
    {"E", 1e18},
    {"m", 1e-3},
    {"u", 1e-6},
    {"\xC2\xB5", 1e-6}, /* U+00B5 MICRO SIGN in UTF-8 */
    {"n", 1e-9},
    {"p", 1e-12},
    {"", 1.0},
};

const char *cr_units_example(cr_unit_kind kind)
{
    switch (kind) {
    case CR_UNIT_BYTES:
        return "a size such as \"64MiB\" or \"1GB\"";
    case CR_UNIT_BANDWIDTH:
        return "a bandwidth such as \"450GB/s\" or \"400Gb/s\"";
    case CR_UNIT_TIME:
        return "a time such as \"0.7us\" or \"5ms\"";
    case CR_UNIT_FLOPS:
        return "a rate such as \"989TFLOP/s\"";
    case CR_UNIT_FLOP:
        return "an operation count such as \"2TFLOP\"";
    }
    return "a number with a unit";
}

/* Matches the unit after the prefix; returns the multiplier or 0 if the unit
 * is not one of kind's. Submultiple prefixes are meaningful only for time. */
static double unit_factor(const char *unit, cr_unit_kind kind, int submultiple)
{
    switch (kind) {
    case CR_UNIT_BYTES:
        return (!submultiple && strcmp(unit, "B") == 0) ? 1.0 : 0.0;
    case CR_UNIT_BANDWIDTH:
        if (submultiple)
            return 0.0;
        if (strcmp(unit, "B/s") == 0)
            return 1.0;
        /* "400Gbps", as NIC datasheets and `topo gen --nic-bw` spell it
         * (a node file's port-bw="200Gbps" was refused while the option
         * took it: QA audit of the simulator, session 45) */
        if (strcmp(unit, "b/s") == 0 || strcmp(unit, "bps") == 0)
            return 0.125;
        return 0.0;
    case CR_UNIT_TIME:
        return strcmp(unit, "s") == 0 ? 1.0 : 0.0;
    case CR_UNIT_FLOPS:
        if (submultiple)
            return 0.0;
        return (strcmp(unit, "FLOP/s") == 0 || strcmp(unit, "OP/s") == 0) ? 1.0 : 0.0;
    case CR_UNIT_FLOP:
        if (submultiple)
            return 0.0;
        return (strcmp(unit, "FLOP") == 0 || strcmp(unit, "OP") == 0) ? 1.0 : 0.0;
    }
    return 0.0;
}

bool cr_plain_number(const char *text)
{
    const char *q = text;
    if (*q == '+' || *q == '-')
        q++;
    if (*q == '.')
        q++;
    if (!isdigit((unsigned char)*q))
        return false;
    return !(q[0] == '0' && (q[1] == 'x' || q[1] == 'X'));
}

bool cr_units_nccl_size(const char *text, double *bytes)
{
    /* never signed: "-0" read as a size of -0, and strtod alone takes
     * hexadecimal, "inf" and "nan" (audit of 2026-12-04) */
    if (!text || !cr_plain_number(text) || text[0] == '-')
        return false;
    char *end = NULL;
    errno = 0;
    double v = cr_strtod_c(text, &end);
    if (end == text || errno == ERANGE || !isfinite(v))
        return false;
    static const char suffixes[] = "kmgt";
    const char *p = *end ? strchr(suffixes, *end | 0x20) : NULL;
    if (*end && !(p && end[1] == '\0'))
        return false;
    *bytes = p ? v * pow(1024.0, (double)(p - suffixes + 1)) : v;
    return true;
}

cr_status cr_units_parse(const char *text, cr_unit_kind kind, double *out, cr_diag *d)
{
    if (!text || !*text)
        return cr_diag_set(d, CR_EPARSE, "empty value, expected %s", cr_units_example(kind));
    const char *p = text;
    if (!cr_plain_number(text)) {
        const char *q = text + (*text == '+' || *text == '-');
        bool hex = q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
        return cr_diag_set(d, CR_EPARSE,
                           hex ? "\"%s\": hexadecimal is not accepted, expected %s"
                               : "\"%s\" is not a number with a unit, expected %s",
                           text, cr_units_example(kind));
    }
    errno = 0;
    char *end = NULL;
    double v = cr_strtod_c(p, &end);
    if (errno == ERANGE || !isfinite(v))
        return cr_diag_set(d, CR_ERANGE, "\"%s\" is out of range", text);
    if (*end == ' ')
        end++;
    if (*end == '\0')
        return cr_diag_set(d, CR_EPARSE, "\"%s\" has no unit, expected %s", text,
                           cr_units_example(kind));
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i].text);
        if (strncmp(end, prefixes[i].text, n) != 0)
            continue;
        int sub = prefixes[i].scale < 1.0;
        double f = unit_factor(end + n, kind, sub);
        if (f == 0.0)
            continue;
        double r = v * prefixes[i].scale * f;
        if (!isfinite(r))
            return cr_diag_set(d, CR_ERANGE, "\"%s\" is out of range", text);
        *out = r;
        return CR_OK;
    }
    return cr_diag_set(d, CR_EPARSE, "\"%s\" has an unknown unit \"%s\", expected %s", text, end,
                       cr_units_example(kind));
}

static const char *base_unit(cr_unit_kind kind)
{
    switch (kind) {
    case CR_UNIT_BYTES:
        return "B";
    case CR_UNIT_BANDWIDTH:
        return "B/s";
    case CR_UNIT_TIME:
        return "s";
    case CR_UNIT_FLOPS:
        return "FLOP/s";
    case CR_UNIT_FLOP:
        return "FLOP";
    }
    return "";
}

char *cr_units_format(double value, cr_unit_kind kind, char *buf, size_t size)
{
    const char *unit = base_unit(kind);
    if (!isfinite(value)) {
        cr_snprintf_c(buf, size, "%g%s", value, unit);
        return buf;
    }
    double mag = fabs(value);
    if (kind == CR_UNIT_BYTES && mag >= 1024.0 && value == floor(value)) {
        static const char *const iec[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        double scale = 1024.0;
        int best = -1;
        for (int i = 0; i < 6 && mag >= scale; i++, scale *= 1024.0)
            if (fmod(mag, scale) == 0.0)
                best = i;
        if (best >= 0) {
            cr_snprintf_c(buf, size, "%.0f%sB", value / pow(1024.0, best + 1), iec[best]);
            return buf;
        }
    }
    static const struct prefix si[] = {{"E", 1e18}, {"P", 1e15}, {"T", 1e12}, {"G", 1e9},
                                       {"M", 1e6},  {"k", 1e3},  {"", 1.0}};
    static const struct prefix sub[] = {{"m", 1e-3}, {"u", 1e-6}, {"n", 1e-9}, {"p", 1e-12}};
    const char *pre = "";
    double scale = 1.0;
    if (mag >= 1.0 || mag == 0.0 || kind != CR_UNIT_TIME) {
        for (size_t i = 0; i < sizeof si / sizeof si[0]; i++)
            if (mag >= si[i].scale) {
                pre = si[i].text;
                scale = si[i].scale;
                break;
            }
    } else {
        for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
            pre = sub[i].text;
            scale = sub[i].scale;
            if (mag >= sub[i].scale)
                break;
        }
    }
    cr_snprintf_c(buf, size, "%.4g%s%s", value / scale, pre, unit);
    return buf;
}
