/* SPDX-License-Identifier: MIT */
/* Helpers shared by the command files (see cli.h). */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "topo_xml.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "commroof %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'commroof %s --help'.\n", cmd);
    return CLI_USAGE;
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "commroof %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAIL;
}

cr_topo *cli_open_topo(const char *cmd, const char *name_or_path)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    if (cr_topo_open(name_or_path ? name_or_path : CR_TOPO_DEFAULT, &t, &d) != CR_OK) {
        cli_fail(cmd, "%s", d.msg);
        return NULL;
    }
    return t;
}

bool cli_progress_enabled(void)
{
    return isatty(STDERR_FILENO) == 1;
}
