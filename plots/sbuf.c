/* SPDX-License-Identifier: MIT */
/* plots/' gnuplot quoting on the library's string (sbuf_priv.h). */
#include "plots/sbuf_priv.h"

void cr_sbuf_gnuplot(cr_sbuf *b, const char *s)
{
    cr_sbuf_add(b, "\"");
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            cr_sbuf_add(b, "\\%c", ch);
        else if (ch == '`' || ch == '\'' || ch == '@')
            cr_sbuf_add(b, "\\%03o", ch);
        else if (ch == '\n')
            cr_sbuf_add(b, "\\n");
        else if (ch >= 0x20)
            cr_sbuf_add(b, "%c", ch);
    }
    cr_sbuf_add(b, "\"");
}
