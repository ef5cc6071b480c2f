/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI 2.3 protocol checker: judges every clock of the resolved bus against
 * the clock before it and reports the first violation (clock number, rule,
 * details). It only watches the bus; it knows no agent's intentions.
 *
 * Rules (section numbers of the PCI Local Bus Specification 2.3):
 *   PCI_R_CONTENTION   two agents drive one tristate line (2.1)
 *   PCI_R_TURNAROUND   a line passes from one driver to another without a
 *                      clock in which nobody drives it (3.3.1)
 *   PCI_R_RELEASE_LOW  an s/t/s line released while asserted (driven high
 *                      for one clock first, 2.1)
 *   PCI_R_FRAME_DEASSERT FRAME# deasserted while IRDY# is not asserted (3.3.3.1)
 *   PCI_R_FRAME_REASSERT FRAME# asserted again during a transaction (3.3.3.1)
 *   PCI_R_IRDY_HOLD    IRDY# deasserted before its data phase completed (3.2.1)
 *   PCI_R_TRDY_HOLD    TRDY# deasserted before its data phase completed (3.2.1)
 *   PCI_R_STOP_HOLD    STOP# deasserted before FRAME# was, or before the
 *                      last data phase completed (3.3.3.2)
 *   PCI_R_NO_DEVSEL    TRDY# or STOP# without DEVSEL# (3.3.3.2; STOP# alone
 *                      after DEVSEL# was seen is a target abort, legal)
 *   PCI_R_DEVSEL_LATE  DEVSEL# first asserted later than 4 clocks after the
 *                      address phase (3.6.1: fast/medium/slow/subtractive)
 *   PCI_R_MASTER_ABORT no DEVSEL# by then and the master still holds FRAME#
 *                      (clock A+6) or IRDY# (A+7) (3.3.3.1)
 *   PCI_R_OUTSIDE      TRDY#/STOP#/DEVSEL#/IRDY# asserted with no
 *                      transaction on the bus
 *   PCI_R_STABLE       AD or C/BE# changed while a data phase waits with
 *                      IRDY# (write data, byte enables) or TRDY# (read
 *                      data) asserted (3.2.1)
 *   PCI_R_AD_UNDRIVEN  AD not driven in an address phase or in a data phase
 *                      that transfers (3.2.2)
 *   PCI_R_PARITY       PAR undriven or wrong one clock after an address
 *                      phase, a write data phase with IRDY# or a read data
 *                      phase with TRDY# (3.7.1)
 */
#ifndef PCI_CHECKER_H
#define PCI_CHECKER_H

#include <stdint.h>
#include <stdio.h>

#include "pci_bus.h"

enum pci_rule {
	PCI_R_NONE, PCI_R_CONTENTION, PCI_R_TURNAROUND, PCI_R_RELEASE_LOW,
	PCI_R_FRAME_DEASSERT, PCI_R_FRAME_REASSERT, PCI_R_IRDY_HOLD,
	PCI_R_TRDY_HOLD, PCI_R_STOP_HOLD, PCI_R_NO_DEVSEL, PCI_R_DEVSEL_LATE,
	PCI_R_MASTER_ABORT, PCI_R_OUTSIDE, PCI_R_STABLE, PCI_R_AD_UNDRIVEN,
	PCI_R_PARITY, PCI_R_COUNT
};
extern const char *const pci_rule_name[PCI_R_COUNT];

struct pci_checker {
	struct pci_sig prev;
	bool have_prev;
	/* transaction state */
	bool active;         /* from the address phase until the bus is idle */
	bool data_done;      /* the last data phase has completed */
	uint64_t addr_clk;
	unsigned cmd;
	bool devsel_seen;
	bool prev_addr;      /* prev clock was an address phase */
	const char *agent_name[PCI_MAX_AGENTS];
	/* results */
	uint64_t violations;
	enum pci_rule first_rule;
	uint64_t first_clk;
	char first_msg[256];
	uint64_t count[PCI_R_COUNT];
	bool quiet;          /* do not print violations (self-test) */
	/* statistics of what was seen */
	uint64_t transactions, data_phases, wait_clocks, retries, disconnects,
		 master_aborts, clocks;
};

void pci_checker_init(struct pci_checker *c);
void pci_checker_name_agent(struct pci_checker *c, int agent, const char *name);
/* Judge one clock (s resolved in clock clk). */
void pci_checker_clock(struct pci_checker *c, const struct pci_sig *s, uint64_t clk);
/* One line: "clean, N transactions ..." or the first violation. */
void pci_checker_report(const struct pci_checker *c, FILE *f);

#endif /* PCI_CHECKER_H */
