/* SPDX-License-Identifier: MIT */
/* Test support: a locale whose decimal point is a comma, for the tests
 * that hold numbers read and written to the C locale's '.' whatever the
 * host program set (test_reentrancy, test_tracer). */
#ifndef CR_TEST_LOCALE_H
#define CR_TEST_LOCALE_H

#include <stddef.h>

/* Sets LC_ALL to a decimal-comma locale and returns its name: an installed
 * one, else de_DE (ISO-8859-1, a quarter second) built with localedef into
 * a new folder named in dir (LOCPATH set to it). Where neither works, the
 * running cmocka test is skipped (LC_ALL back to "C", dir removed). */
const char *cr_test_comma_locale(char *dir, size_t size);

/* Removes the folder cr_test_comma_locale made, if any, and empties dir. */
void cr_test_locale_drop(char *dir);

#endif
