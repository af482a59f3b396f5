/* SPDX-License-Identifier: MIT */
/*
 * exec() without fork() under the tracer (own path, no GPU needed): the
 * program opens and closes the NVTX range "before exec", then execs itself
 * (same pid, same environment) with the argument "after", which opens and
 * closes "after exec" and exits. tests/check_trace_fork.sh runs it: both
 * ranges must be in the trace folder, in two files (the first program's,
 * left without an end, and the second's, named .1.json); before the fix the
 * second program truncated the first one's file.
 *
 * Usage: exec_self_sim [after]
 */
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "after") == 0) {
        nvtxRangePushA("after exec");
        nvtxRangePop();
        return 0;
    }
    nvtxRangePushA("before exec");
    nvtxRangePop();
    char *const args[] = {argv[0], "after", NULL};
    execv("/proc/self/exe", args);
    perror("exec_self_sim: execv");
    return 1;
}
