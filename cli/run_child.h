/* SPDX-License-Identifier: MIT */
/*
 * Running a program as a shell would, for the commands that start one
 * (`commroof trace -- CMD`, `commroof calibrate`'s crbench): its exit
 * status as a shell gives it, the signals a batch system, a terminal or
 * another program sends passed on to it while it runs.
 */
#ifndef CR_CLI_RUN_CHILD_H
#define CR_CLI_RUN_CHILD_H

/* One variable set in the child's environment. */
typedef struct {
    const char *name, *value;
} cli_env_set;

/* Where the child's stdout goes. */
typedef enum {
    CLI_CHILD_STDOUT_KEEP,      /* ours */
    CLI_CHILD_STDOUT_TO_STDERR, /* our stderr (/dev/null where stderr is closed) */
    CLI_CHILD_STDOUT_NULL       /* /dev/null */
} cli_child_stdout;

/* How the child ended. */
typedef struct {
    int status;     /* exit status, 128 + N for signal N, 126/127 when exec failed */
    int signal;     /* the signal that ended it, 0 if it exited */
    int exec_errno; /* why it could not be run, 0 if it ran */
} cli_child_result;

/* Runs argv[0] (searched in PATH) with env set, until it ends; SIGHUP,
 * SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2 and SIGALRM sent to us go on
 * to it meanwhile. Returns -1 (errno set) when no child could be made or
 * waited for, else 0 and *res. */
int cli_run_child(char *const argv[], const cli_env_set *env, int n_env, cli_child_stdout out,
                  cli_child_result *res);

#endif
