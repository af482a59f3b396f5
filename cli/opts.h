/* SPDX-License-Identifier: MIT */
/*
 * One option parser for every command: a command describes its options in a
 * table of cli_opt rows, cli_args_next walks argv against it (`--opt value`
 * and `--opt=value` alike; short aliases such as -o take the next argument)
 * and cli_opts_help prints the option lines of the command's --help from the
 * same rows, so an option cannot be parsed and undocumented, or documented
 * under another name.
 *
 *     const char *topo = NULL;
 *     bool json = false;
 *     const cli_opt opts[] = {
 *         {"--topo", NULL, "T", "topology (default hgx-h200-8)", .str = &topo},
 *         {"--json", NULL, NULL, "one JSON document on stdout", .flag = &json},
 *         {0}};
 *     cli_args a = cli_args_begin("suite", opts, argc, argv);
 *     int r;
 *     while ((r = cli_args_next(&a)) != CLI_ARGS_END) {
 *         if (r == CLI_ARGS_ERROR) return CLI_USAGE;
 *         if (r == CLI_ARGS_ARG) ...a.val is a positional argument...
 *     }
 */
#ifndef CR_CLI_OPTS_H
#define CR_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One row of a command's option table; the table ends with a row of zeros
 * ({0}). A row with no name is a help line only (a positional argument, or
 * several options described together). Where two rows have the same name the
 * first one parses; a later one only adds a help line (another section). */
typedef struct cli_opt {
    const char *name;  /* "--topo", "-o"; NULL for a help line only */
    const char *alias; /* another spelling ("--output", "-h"), not shown in help */
    const char *meta;  /* the value's name ("T"); NULL: a flag, which takes none */
    const char *help;  /* the help text; '\n' starts an indented continuation
                          line; NULL: not listed in --help */
    const char *label; /* the left column when not "NAME META" ("--help, -h") */
    const char **str;  /* a value option stores its value here (or NULL) */
    bool *flag;        /* a flag sets this to true (or NULL) */
    int id;            /* for the caller's switch on cli_args.opt->id */
    unsigned section;  /* help sections this line is in (0: every one) */
    bool repeat;       /* an option that may come more than once (each
                          value the caller's to collect); any other, flags
                          included, is refused the second time */
    bool opens_list;   /* a flag that the positional arguments after it belong
                          to (calibrate --nccl-tests LOG...): "--opt=X" gives X
                          as the first of them, in val; it may come again */
    bool output;       /* a file the command writes (-o, --timeline; .str):
                          the walk's end refuses it, as a usage error, where
                          it is the file another argument names (an input,
                          which writing it would replace), a folder, in a
                          folder that does not exist, or stdout while the
                          table's --json flag is given */
} cli_opt;

/* The most rows an option table may have. */
#define CLI_MAX_OPTS 96

/* The state of a walk over argv: set up by cli_args_begin. */
typedef struct cli_args {
    const char *cmd;     /* the command named in messages ("coll") */
    const cli_opt *opts; /* its table */
    int argc;
    char **argv;
    int i;                             /* the next argument to read */
    bool pass_unknown;                 /* return CLI_ARGS_UNKNOWN for an unknown option */
    const cli_opt *opt;                /* the row of the option just read */
    const char *name;                  /* the option as given, without "=value" ("--topo") */
    const char *val;                   /* its value, or the positional argument; NULL for a flag */
    unsigned char given[CLI_MAX_OPTS]; /* per table row: its value read already */
    bool outputs_checked;              /* the end's check of output rows made */
} cli_args;

enum {
    CLI_ARGS_END = 0, /* no arguments left */
    CLI_ARGS_OPT,     /* an option of the table: opt, name, val; str/flag stored */
    CLI_ARGS_ARG,     /* a positional argument (anything not starting with '-',
                         and "-" alone): val */
    CLI_ARGS_UNKNOWN, /* with pass_unknown: argv[i] is an option not in the
                         table, not consumed; the caller advances i */
    CLI_ARGS_ERROR,   /* a usage error, already printed: an unknown option,
                         a missing value, a value given to a flag */
};

/* A walk over argv[1..argc-1] of command cmd against opts (argv[0] is the
 * command name). */
cli_args cli_args_begin(const char *cmd, const cli_opt *opts, int argc, char **argv);

/* Reads the next argument; see the CLI_ARGS_* values. Errors print as
 * cli_usage_error does (exit status 2 for the caller to return). At the end
 * of argv (before "--"), an output row's value that names the same file as
 * another argument (positional or an option's value) is such an error: the
 * output would replace that input; so is one that names a folder, or a file
 * in a folder that does not exist. */
int cli_args_next(cli_args *a);

/* True when argv[1..argc-1] holds --help or -h (for commands that answer
 * --help whatever else the line holds). */
bool cli_args_help(int argc, char **argv);

/* The option of opts whose name (or alias) is nearest to the unknown
 * option s (its first len characters: without "=value") within a small
 * edit distance, for "did you mean" (--prot: --proto); NULL when none is
 * near enough. */
const char *cli_opts_nearest(const cli_opt *opts, const char *s, size_t len);

/* Prints the help lines of the rows of opts in section (0: every row): two
 * spaces, the label padded so that the text starts at column col, the text,
 * its continuation lines indented to col; a label too long for the column
 * stands on its own line and the text starts on the next. */
void cli_opts_help(FILE *f, const cli_opt *opts, int col, unsigned section);

#endif
