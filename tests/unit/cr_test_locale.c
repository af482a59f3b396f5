/* SPDX-License-Identifier: MIT */
/* Test support: a decimal-comma locale (cr_test_locale.h). */
#include "cr_test.h"
#include "cr_test_locale.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

void cr_test_locale_drop(char *dir)
{
    if (!dir[0])
        return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    dir[0] = '\0';
}

const char *cr_test_comma_locale(char *dir, size_t size)
{
    static const char *const installed[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                                            "ru_RU.UTF-8", "de_DE",      "nl_NL.UTF-8"};
    for (size_t i = 0; i < sizeof installed / sizeof installed[0]; i++)
        if (setlocale(LC_ALL, installed[i]) && localeconv()->decimal_point[0] == ',')
            return installed[i];
    snprintf(dir, size, "/tmp/cr-test-locale-XXXXXX");
    if (!mkdtemp(dir)) {
        dir[0] = '\0';
        return NULL;
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f ISO-8859-1 %s/de_DE >/dev/null 2>&1", dir);
    if (system(cmd) == 0) {
        setenv("LOCPATH", dir, 1);
        if (setlocale(LC_ALL, "de_DE") && localeconv()->decimal_point[0] == ',')
            return "de_DE";
    }
    cr_test_locale_drop(dir);
    setlocale(LC_ALL, "C");
    print_message("no decimal-comma locale (nor localedef): skipped\n");
    skip();
    return NULL;
}
