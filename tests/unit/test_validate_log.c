/* SPDX-License-Identifier: MIT */
/*
 * validate: the nccl-tests log reader under its fuzz target's properties:
 * tests/fuzz/corpus/nccl_log/ (seeds and what libFuzzer found) and the
 * nccl-tests fixtures replayed through fuzz_nccl_log.c on every make test.
 * The reader's figures are checked in test_validate.c.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cr_test.h"
#include "validate/validate.h"

#include "tests/fuzz/fuzz_nccl_log.c"

static void test_fuzz_replay(void **state)
{
    (void)state;
    static const char *const dirs[] = {"tests/fuzz/corpus/nccl_log", "tests/fixtures/nccl-tests",
                                       "tests/fixtures/nccl-tests-opts"};
    int n = 0;
    for (int k = 0; k < 3; k++) {
        DIR *dir = opendir(dirs[k]);
        assert_non_null(dir);
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (e->d_name[0] == '.')
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dirs[k], e->d_name);
            FILE *f = fopen(path, "rb");
            assert_non_null(f);
            static uint8_t buf[1 << 16];
            size_t len = fread(buf, 1, sizeof buf, f);
            fclose(f);
            assert_int_equal(LLVMFuzzerTestOneInput(buf, len), 0);
            n++;
        }
        closedir(dir);
    }
    assert_true(n >= 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
