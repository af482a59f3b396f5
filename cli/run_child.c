/* SPDX-License-Identifier: MIT */
/*
 * cli_run_child (run_child.h): one way to run a program for commroof's
 * commands, its signals and exit status as a shell handles them. The pid
 * of the child is the one piece of process-wide state, for the signal
 * handler; a command runs one child at a time.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_child.h"

/* The child's pid while it runs, for forward_signal (0 otherwise). */
static volatile sig_atomic_t child_pid;

/* The signals passed on to the child while it runs: the ones that end a program
 * by default and that a batch system, a terminal or another program sends
 * to a job (SIGUSR1 and SIGUSR2 are Slurm's warnings before its time
 * limit). Before, SIGUSR1, SIGUSR2 or SIGALRM ended commroof and left the child
 * running without it, and a SIGINT sent to commroof alone (kill -INT, a
 * Python Popen.send_signal) was ignored, so the child never stopped (QA audit,
 * session 45). */
static const int forwarded[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM};
#define N_FORWARDED (sizeof forwarded / sizeof forwarded[0])

/* Passes sig on to the child. The terminal's Ctrl-C and Ctrl-\ (si_code > 0:
 * from the kernel) reach the child by themselves, as it shares our process group:
 * passed on too, the child had them twice. Anything sent by a process (kill,
 * sigqueue, tgkill: si_code <= 0 on Linux) goes on. */
static void forward_signal(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if ((sig == SIGINT || sig == SIGQUIT) && si && si->si_code > 0)
        return;
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

int cli_run_child(char *const argv[], const cli_env_set *env, int n_env, cli_child_stdout out,
                  cli_child_result *res)
{
    memset(res, 0, sizeof *res);
    fflush(stdout);
    fflush(stderr);
    /* exec's failure comes back through a close-on-exec pipe: an exec that
     * works closes it empty, so the child's own exit 127 is never mistaken for it */
    int pfd[2];
    if (pipe(pfd) != 0)
        return -1;
    fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
    fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
    struct sigaction fwd, old[N_FORWARDED];
    memset(&fwd, 0, sizeof fwd);
    fwd.sa_sigaction = forward_signal;
    fwd.sa_flags = SA_SIGINFO;
    sigemptyset(&fwd.sa_mask);
    /* blocked from before the handlers until child_pid is set: one that
     * came between fork() and then found no pid and was lost (the child ran on),
     * and one sent to the child before it put back its own handlers found
     * ours there (child_pid 0 in its copy) and was lost too */
    sigset_t block, old_mask;
    sigemptyset(&block);
    for (size_t i = 0; i < N_FORWARDED; i++)
        sigaddset(&block, forwarded[i]);
    sigprocmask(SIG_BLOCK, &block, &old_mask);
    for (size_t i = 0; i < N_FORWARDED; i++) {
        sigaction(forwarded[i], NULL, &old[i]);
        /* one ignored where we started (nohup's SIGHUP, SIGINT of a
         * background job) stays ignored, by us and by the child (it inherits
         * that), as a shell leaves it */
        if (old[i].sa_handler != SIG_IGN || (old[i].sa_flags & SA_SIGINFO))
            sigaction(forwarded[i], &fwd, NULL);
    }
    pid_t pid = fork();
    if (pid == 0) {
        for (size_t i = 0; i < N_FORWARDED; i++)
            sigaction(forwarded[i], &old[i], NULL);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        close(pfd[0]);
        for (int i = 0; i < n_env; i++)
            setenv(env[i].name, env[i].value, 1);
        /* stdout to stderr (trace --json: the JSON document is ours). Where
         * stderr is closed (2>&-), dup2 fails and the child wrote into the JSON
         * document on stdout: it goes to /dev/null then */
        if ((out == CLI_CHILD_STDOUT_NULL ||
             (out == CLI_CHILD_STDOUT_TO_STDERR && dup2(STDERR_FILENO, STDOUT_FILENO) < 0))) {
            int nul = open("/dev/null", O_WRONLY);
            if (nul < 0 || dup2(nul, STDOUT_FILENO) < 0) {
                int e = errno;
                ssize_t w = write(pfd[1], &e, sizeof e);
                (void)w;
                _exit(126);
            }
            if (nul > STDERR_FILENO)
                close(nul);
        }
        execvp(argv[0], argv);
        int e = errno;
        ssize_t w = write(pfd[1], &e, sizeof e);
        (void)w; /* the parent then reports the exec as failed with errno 0: EIO below */
        _exit(e == ENOENT ? 127 : 126);
    }
    int saved = errno;
    if (pid > 0)
        child_pid = pid;
    sigprocmask(SIG_SETMASK, &old_mask, NULL); /* what came meanwhile goes on now */
    close(pfd[1]);
    int status = 0;
    if (pid > 0) {
        int e = 0;
        ssize_t n;
        while ((n = read(pfd[0], &e, sizeof e)) < 0 && errno == EINTR)
            ;
        if (n == (ssize_t)sizeof e)
            res->exec_errno = e ? e : EIO;
        while (waitpid(pid, &status, 0) < 0) {
            if (errno != EINTR) {
                saved = errno;
                pid = -1;
                break;
            }
        }
        child_pid = 0;
    }
    close(pfd[0]);
    for (size_t i = 0; i < N_FORWARDED; i++)
        sigaction(forwarded[i], &old[i], NULL);
    if (pid < 0) {
        errno = saved;
        return -1;
    }
    if (res->exec_errno)
        res->status = res->exec_errno == ENOENT ? 127 : 126; /* as a shell says it */
    else if (WIFEXITED(status))
        res->status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) {
        res->signal = WTERMSIG(status);
        res->status = 128 + res->signal;
    } else {
        res->status = 1;
    }
    return 0;
}
