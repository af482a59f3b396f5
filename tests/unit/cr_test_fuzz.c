/* SPDX-License-Identifier: MIT */
/* Replaying a fuzz target's corpus inside a unit test (cr_test.h). */
#include "cr_test.h"

#include <dirent.h>
#include <stdlib.h>

int cr_test_replay_dir(const char *dirname, cr_test_fuzz_fn fn, size_t max_len)
{
    DIR *dir = opendir(dirname);
    if (!dir)
        fail_msg("cannot open the corpus folder %s", dirname);
    uint8_t *data = malloc(max_len ? max_len : 1);
    if (!data)
        fail_msg("out of memory");
    int n = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dirname, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            fail_msg("cannot read %s", path);
        size_t len = fread(data, 1, max_len, f);
        fclose(f);
        if (fn(data, len) != 0)
            fail_msg("the fuzz target returned non-zero on %s", path);
        n++;
    }
    closedir(dir);
    free(data);
    return n;
}
