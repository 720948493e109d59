/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal assertions for standalone tests: exit 0 pass, 1 fail, 77 skip. */
#ifndef IODIG_TEST_CHECK_H
#define IODIG_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n",       \
				__FILE__, __LINE__, #cond);                \
			check_failures++;                                  \
		}                                                          \
	} while (0)

#define CHECK_MSG(cond, ...)                                               \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s: ",       \
				__FILE__, __LINE__, #cond);                \
			fprintf(stderr, __VA_ARGS__);                      \
			fputc('\n', stderr);                               \
			check_failures++;                                  \
		}                                                          \
	} while (0)

#define SKIP(...)                                                          \
	do {                                                               \
		printf("skipped: ");                                       \
		printf(__VA_ARGS__);                                       \
		printf("\n");                                              \
		exit(77);                                                  \
	} while (0)

#define CHECK_DONE() (check_failures ? 1 : 0)

#endif
