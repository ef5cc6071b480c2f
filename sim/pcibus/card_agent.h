/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The card (hdl/card/synpcix_card.vhd through GHDL and Verilator) as an
 * agent on the simulated PCI bus.
 *
 * Clocks: bus_clk is the PCI clock of the bus model (PCI_PERIOD_NS, 15 ns),
 * tb_clk an ideal 125 MHz (8 ns) clock starting 3.3 ns out of phase; the
 * glue steps both in true time (integer picoseconds), so the timebase runs
 * 15/8 clocks per PCI clock as on the board. Oscillator error is the
 * business of sim/verilator's world models, not of this bus test.
 *
 * Pins: at each PCI clock edge the card's inputs are the bus as resolved in
 * the clock before (pci_sig), its outputs after the edge are its drive for
 * this clock. IDSEL is AD[16 + devno] (a resistor from AD to IDSEL, as on
 * a motherboard). RST# is held low for the first CARD_RST_CLOCKS clocks.
 */
#ifndef CARD_AGENT_H
#define CARD_AGENT_H

#include <stdint.h>

#include "pci_bus.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CARD_RST_CLOCKS 16

struct card_agent;

struct card_agent *card_agent_new(int devno);
void card_agent_free(struct card_agent *c);
/* Set the agent index the bus gave it (REQ#/GNT#, driver identity). */
void card_agent_set_index(struct card_agent *c, int agent);
/* pci_step_fn */
void card_agent_step(void *ctx, const struct pci_sig *in, struct pci_drive *out);
uint64_t card_agent_tb_clocks(const struct card_agent *c);
/* True time (ps) of the card's next PCI clock edge: the edge of the
 * pci_sim_step call with sim->clk == k is at (k + 1) * PCI period. */
uint64_t card_agent_next_edge_ps(const struct card_agent *c);
/* Change the event input pins to `value` at true time at_ps (one change
 * pending at a time; a later call replaces it). A clock edge at exactly
 * at_ps still samples the old value, as a flip-flop output changing at a
 * clock edge is seen by the next edge: an edge placed on a PCI clock edge
 * behaves like a bus-domain toggle changing there. */
void card_agent_set_event(struct card_agent *c, unsigned value, uint64_t at_ps);

#ifdef __cplusplus
}
#endif

#endif /* CARD_AGENT_H */
