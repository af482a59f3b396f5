/* SPDX-License-Identifier: MIT */
/* Status strings and the diagnostic helper (see status.h). */
#include "status.h"
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>

const char *cr_strerror(cr_status st)
{
    switch (st) {
    case CR_OK:
        return "success";
    case CR_ENOMEM:
        return "out of memory";
    case CR_EINVAL:
        return "invalid argument or value";
    case CR_EIO:
        return "input/output error";
    case CR_EPARSE:
        return "malformed input";
    case CR_ENOTFOUND:
        return "not found";
    case CR_ERANGE:
        return "value out of range";
    case CR_EUNSUPPORTED:
        return "not supported by the model";
    case CR_EINVARIANT:
        return "topology invariant violated";
    case CR_EDUPLICATE:
        return "input given twice";
    }
    return "unknown status";
}

cr_status cr_diag_set(cr_diag *d, cr_status st, const char *fmt, ...)
{
    if (d && d->msg[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        cr_vsnprintf_c(d->msg, sizeof d->msg, fmt, ap);
        va_end(ap);
    }
    return st;
}
