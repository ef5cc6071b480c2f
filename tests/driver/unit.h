/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The small test harness of the driver core's user-space unit tests
 * (test_core.c, test_slot.c): one line per test, "ok NAME" or
 * "not ok NAME: why" (later failures of the same test as "also:"), and a
 * deterministic random source so a failure reproduces. Each test program
 * includes it once; define UNIT_RNG_SEED first to give it its own sequence.
 */
#ifndef SYNPCIX_TEST_UNIT_H
#define SYNPCIX_TEST_UNIT_H

#include <stdio.h>

#ifndef UNIT_RNG_SEED
#define UNIT_RNG_SEED 0x9e3779b97f4a7c15ULL
#endif

static int failures;
static int test_failed;
static const char *test_name;

#define CHECK(cond, ...)                                                  \
	do {                                                              \
		if (!(cond)) {                                            \
			if (!test_failed)                                 \
				printf("not ok %s: ", test_name);         \
			else                                              \
				printf("    also: ");                     \
			printf(__VA_ARGS__);                              \
			printf(" [line %d]\n", __LINE__);                 \
			test_failed = 1;                                  \
		}                                                         \
	} while (0)

static void begin(const char *name)
{
	test_name = name;
	test_failed = 0;
}

static void end(void)
{
	if (test_failed)
		failures++;
	else
		printf("ok %s\n", test_name);
}

static unsigned long long rng_state = UNIT_RNG_SEED;

/* xorshift64*: deterministic, so a failure reproduces */
static unsigned long long rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

#endif /* SYNPCIX_TEST_UNIT_H */
