/* SPDX-License-Identifier: MIT */
/* commroof: entry point and command dispatch. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"topo", cli_cmd_topo, "list, show, check, import and generate (gen) topologies"},
    {"op", cli_cmd_op, "one operator: bound, baseline, overlap predictions, headroom"},
    {"suite", cli_cmd_suite, "a suite of operators (pkb, llm, h200x2): one row per problem"},
    {"check", cli_cmd_check, "a measured time against the bound: % of roofline, verdict"},
    {"coll", cli_cmd_coll, "collective bound and NCCL/custom-kernel prediction per size"},
    {"plot", cli_cmd_plot, "charts: roofline, comm-roofline, gap, sweep, compare, accuracy"},
    {"report", cli_cmd_report, "all tables and charts for a machine and a suite, with index.html"},
    {"trace", cli_cmd_trace, "run a CUDA program under the CUPTI tracer; summarise traces"},
    {"validate", cli_cmd_validate,
     "measured traces and nccl-tests logs against bound and prediction"},
    {"roofline", cli_cmd_roofline,
     "any traced program's operators (PyTorch, NCCL, cr:) against their bounds"},
    {"calibrate", cli_cmd_calibrate, "measure this GPU; write a topology with measured ceilings"},
    {"sim", cli_cmd_sim, "flow-level simulation: contention, timelines, scenarios"},
};

static void usage(FILE *f)
{
    fputs("usage: commroof COMMAND [ARGS...] [--json] [--help]\n\n"
          "commroof tells how fast a multi-GPU operator could possibly run on a machine\n"
          "(the bound), what an implementation should take (the prediction), and how far\n"
          "a measured kernel is from the limit.\n\ncommands:\n",
          f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\nRun 'commroof COMMAND --help' for a command's options.\n", f);
}

/* A command whose output never reached stdout (a full disk, a closed pipe
 * reader, /dev/full) has failed even if it computed everything: a harness
 * reading its JSON would otherwise see exit 0 and nothing, or half a
 * document. A command that already failed has said why. */
static int finish_stdout(const char *cmd, int rc)
{
    errno = 0;
    bool bad = fflush(stdout) != 0 || ferror(stdout);
    if (!bad || rc == CLI_FAIL || rc == CLI_USAGE)
        return rc;
    return cli_fail(cmd, "cannot write the output to stdout: %s",
                    errno ? strerror(errno) : "write error");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return finish_stdout("--help", CLI_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return finish_stdout(argv[1], commands[i].run(argc - 1, argv + 1));
    fprintf(stderr, "commroof: unknown command \"%s\"\nRun 'commroof --help' for the list.\n",
            argv[1]);
    return CLI_USAGE;
}
