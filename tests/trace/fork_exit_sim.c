/* SPDX-License-Identifier: MIT */
/* A threaded program that fork()s while another thread is in NVTX calls
 * (the tracer's own path takes g.mu there); each child exit()s, which runs
 * the tracer's atexit handler. Before the fork handler, about 4 children in
 * 10 blocked forever on a mutex copied locked. Prints how many hung. */
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile int stop;
static void *hammer(void *a)
{
    (void)a;
    while (!stop) {
        nvtxRangePushA("worker");
        nvtxRangePop();
    }
    return NULL;
}
int main(void)
{
    nvtxRangePushA("main");
    nvtxRangePop();
    pthread_t t;
    pthread_create(&t, NULL, hammer, NULL);
    int hung = 0, n = 200;
    for (int i = 0; i < n; i++) {
        pid_t p = fork();
        if (p == 0) {
            alarm(2);
            exit(0);
        } /* exit(): atexit handlers run, as in a C child */
        int st;
        waitpid(p, &st, 0);
        if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
            hung++;
    }
    stop = 1;
    pthread_join(t, NULL);
    fprintf(stderr, "%d of %d forked children hung at exit\n", hung, n);
    return 0;
}
