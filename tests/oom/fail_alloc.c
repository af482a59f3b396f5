/* SPDX-License-Identifier: MIT */
/*
 * An LD_PRELOAD library for tests/check_oom.sh: the Nth call to malloc,
 * calloc, realloc, strdup, strndup or posix_memalign (counted from the
 * program's start, libxml2's and jansson's calls included) returns NULL
 * with errno ENOMEM, once; every other call goes through.
 *
 *   OOM_FAIL_AT=N   the call that fails (unset or 0: none)
 *   OOM_COUNT=FILE  at exit, the number of calls counted, written to FILE
 *
 * strdup and strndup are counted here (glibc's and ASan's do not call the
 * malloc this library interposes). Under ASan, preload it with
 * ASAN_OPTIONS=verify_asan_link_order=0: it then wraps ASan's allocator.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_memalign)(void **, size_t, size_t);

static unsigned long calls, fail_at;
static int counting;
static const char *count_file;

/* dlsym may allocate before the real functions are known: from here */
static _Alignas(16) char boot[16384];
static size_t boot_used;

static void *boot_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n > sizeof boot - boot_used)
        return NULL;
    void *p = boot + boot_used;
    boot_used += n;
    return p;
}

static void resolve(void)
{
    if (real_malloc)
        return;
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    real_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
}

static void write_count(void)
{
    int fd = open(count_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    char b[32];
    int n = snprintf(b, sizeof b, "%lu\n", calls);
    if (n > 0 && write(fd, b, (size_t)n) != n)
        n = 0;
    close(fd);
}

__attribute__((constructor)) static void start(void)
{
    resolve();
    const char *s = getenv("OOM_FAIL_AT");
    fail_at = s ? strtoul(s, NULL, 10) : 0;
    count_file = getenv("OOM_COUNT");
    if (count_file)
        atexit(write_count);
    counting = 1;
}

static int fail_now(void)
{
    if (!counting)
        return 0;
    if (++calls != fail_at)
        return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    if (!real_malloc)
        return boot_alloc(n);
    return fail_now() ? NULL : real_malloc(n);
}

void *calloc(size_t a, size_t b)
{
    if (!real_calloc)
        return b && a > (size_t)-1 / b ? NULL : boot_alloc(a * b); /* boot is zeroed */
    return fail_now() ? NULL : real_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
    resolve();
    return fail_now() ? NULL : real_realloc(p, n);
}

void free(void *p)
{
    if ((char *)p >= boot && (char *)p < boot + sizeof boot)
        return;
    resolve();
    real_free(p);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    resolve();
    return fail_now() ? ENOMEM : real_memalign(out, align, n);
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    return p ? memcpy(p, s, n) : NULL;
}

char *strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}
