/* tap.h - the test protocol of tests/run.sh: one "ok"/"not ok" line per check. */
#ifndef SB_TAP_H
#define SB_TAP_H

#include <stdio.h>

static int tap_failed;

#define CHECK(cond, ...)                                                                  \
	do {                                                                               \
		int ok_ = !!(cond);                                                        \
		printf("%s ", ok_ ? "ok" : "not ok");                                      \
		printf(__VA_ARGS__);                                                       \
		printf("\n");                                                              \
		if (!ok_) {                                                                \
			tap_failed++;                                                      \
			printf("#   failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);        \
		}                                                                          \
		fflush(stdout);                                                            \
	} while (0)

#define SKIP(...)                                                                         \
	do {                                                                               \
		printf("ok ");                                                             \
		printf(__VA_ARGS__);                                                       \
		printf("\n");                                                              \
		fflush(stdout);                                                            \
	} while (0)

#endif
