/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The central arbiter: one REQ#/GNT# pair per agent index, round robin
 * among requesters, parked on the host bridge (agent 0) when nobody asks.
 *
 * Rules kept (PCI 2.3 3.4.1): GNT# moves to the next requester once the
 * granted master has started its transaction (hidden arbitration: the
 * next master waits for the bus to go idle); when the bus is idle and the
 * grant moves from one agent to another, one clock passes with no GNT# at
 * all, the turnaround for the AD/C/BE#/PAR lines a parked agent drives.
 */
#ifndef PCI_ARBITER_H
#define PCI_ARBITER_H

#include <stdint.h>

#include "pci_bus.h"

struct pci_arbiter {
	uint8_t masters;   /* agents that may be granted */
	int park;          /* agent the bus parks on */
	int granted;       /* agent with GNT# now, -1: none (turnaround) */
	int pending;       /* agent to grant after the turnaround clock */
	int last;          /* round robin: last agent granted */
	bool frame_prev;
	uint64_t grants;
};

void pci_arbiter_init(struct pci_arbiter *a, uint8_t masters, int park);
/* One clock: REQ# and FRAME# as resolved in the last clock in, GNT# mask
 * for this clock out (bit a = GNT# of agent a, 1 = deasserted). */
uint8_t pci_arbiter_step(struct pci_arbiter *a, const struct pci_sig *in);

#endif /* PCI_ARBITER_H */
