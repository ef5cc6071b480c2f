/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bus monitor: decodes the resolved bus into a transaction log (address
 * phase clock, command, address, words transferred, first data word, the
 * agent that claimed it with DEVSEL#, how it ended). Like the checker it
 * only watches the lines. Install with pci_sim_add_hook(sim,
 * pci_monitor_hook, mon): a hook runs before the agents of a clock and sees
 * the bus as resolved in the clock before.
 */
#ifndef PCI_MONITOR_H
#define PCI_MONITOR_H

#include <stddef.h>
#include <stdint.h>

#include "pci_bus.h"

struct pci_txn {
	uint64_t clk;          /* address phase */
	uint64_t clk_end;      /* last data phase completed (or bus idle) */
	unsigned cmd;
	uint32_t addr;
	int words;             /* data phases with IRDY# and TRDY# */
	uint32_t data0;
	int master, target;    /* FRAME# / DEVSEL# drivers, -1: none */
	bool master_abort;     /* nobody asserted DEVSEL# */
	bool stopped;          /* ended by the target's STOP# */
};

struct pci_monitor {
	const struct pci_sim *sim;
	struct pci_sig prev;
	bool active;
	struct pci_txn cur;
	struct pci_txn *log;
	size_t n, cap;
};

void pci_monitor_init(struct pci_monitor *m, const struct pci_sim *sim);
void pci_monitor_free(struct pci_monitor *m);
void pci_monitor_hook(void *ctx, uint64_t clk);

#endif /* PCI_MONITOR_H */
