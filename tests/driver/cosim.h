/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the co-simulation's parts (cosim.c: PHC operations and servo,
 * cosim_slot.c: MSI capture slots): the test line format and the access
 * layer that puts the driver core on the Verilator card model.
 *
 * Output: "ok NAME" / "not ok NAME: why" per test and "# ..." figure lines.
 */
#ifndef COSIM_H
#define COSIM_H

#include <stdio.h>

#include "synpcix_hw.h"
#include "card_sim.h"

extern int failures;

#define TEST(name, cond, ...)                                              \
	do {                                                               \
		if (cond) {                                                \
			printf("ok %s\n", name);                          \
		} else {                                                   \
			printf("not ok %s: ", name);                      \
			printf(__VA_ARGS__);                               \
			printf("\n");                                      \
			failures++;                                        \
		}                                                          \
	} while (0)

/* read32/write32 on the model's register port, udelay = simulated time,
 * system time = the simulation's true time; ctx is the struct card. */
extern const struct spx_os_ops sim_ops;

/* MSI capture slots: rings in test-owned memory, stamps, card interrupts. */
void slot_tests(void);

#endif /* COSIM_H */
