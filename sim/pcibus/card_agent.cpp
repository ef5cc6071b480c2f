// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Verilator glue of the card on the PCI bus model: the only C++ of
 * sim/pcibus (Verilator's model is a C++ class). See card_agent.h.
 *
 * Scheduling: before a PCI clock edge at time T every timebase edge
 * earlier than T is run; a timebase edge at exactly T rises together with
 * the PCI clock. The PCI clock also falls at T - period/2 (pci_initiator
 * writes its burst buffer at the falling edge), in time order with the
 * timebase edges; the timebase clock's falling edges drive no logic and
 * are run with its rising ones.
 */
#include <cstdint>

#include "Vsynpcix_card.h"
#include "verilated.h"

#include "card_agent.h"

static const uint64_t TB_PS = 8000;

struct card_agent {
	VerilatedContext *vctx;
	Vsynpcix_card *top;
	int agent, devno;
	uint64_t next_tb, next_bus;
	uint64_t n_tb, n_bus;
	uint64_t bus_ps;        /* PCI period, fixed when the card is made */
	bool ev_pending;
	unsigned ev_value;
	uint64_t ev_at;
};

extern "C" struct card_agent *card_agent_new(int devno)
{
	struct card_agent *c = new card_agent();

	c->vctx = new VerilatedContext;
	c->top = new Vsynpcix_card{c->vctx};
	c->devno = devno;
	c->next_tb = 3300;
	c->bus_ps = (uint64_t)(PCI_PERIOD_NS * 1000.0 + 0.5);
	c->next_bus = c->bus_ps;
	c->top->clk = 1;
	c->top->tb_clk = 1;
	c->top->rst_n = 0;
	c->top->frame_n_in = 1;
	c->top->irdy_n_in = 1;
	c->top->trdy_n_in = 1;
	c->top->devsel_n_in = 1;
	c->top->stop_n_in = 1;
	c->top->perr_n_in = 1;
	c->top->gnt_n = 1;
	c->top->ad_in = 0xFFFFFFFFu;
	c->top->cbe_n_in = 0xF;
	c->top->par_in = 1;
	c->top->pps_in = 0;
	c->top->event_in = 0;
	c->top->eval();
	return c;
}

extern "C" void card_agent_free(struct card_agent *c)
{
	if (!c)
		return;
	c->top->final();
	delete c->top;
	delete c->vctx;
	delete c;
}

extern "C" void card_agent_set_index(struct card_agent *c, int agent)
{
	c->agent = agent;
}

extern "C" uint64_t card_agent_tb_clocks(const struct card_agent *c)
{
	return c->n_tb;
}

extern "C" uint64_t card_agent_next_edge_ps(const struct card_agent *c)
{
	return c->next_bus;
}

extern "C" void card_agent_set_event(struct card_agent *c, unsigned value, uint64_t at_ps)
{
	c->ev_pending = true;
	c->ev_value = value;
	c->ev_at = at_ps;
}

/* apply a pending event-pin change due before an edge at t (strictly) */
static void event_due(struct card_agent *c, uint64_t t, bool inclusive)
{
	if (c->ev_pending && (c->ev_at < t || (inclusive && c->ev_at == t))) {
		c->top->event_in = c->ev_value;
		c->ev_pending = false;
	}
}

/* the PCI clock's falling edge (it stays low until the rising edge) */
static void bus_fall(struct card_agent *c)
{
	c->top->clk = 0;
	c->top->eval();
}

static void edge(struct card_agent *c, bool tb, bool bus)
{
	if (tb)
		c->top->tb_clk = 0;
	if (bus)
		c->top->clk = 0;
	c->top->eval();
	if (tb)
		c->top->tb_clk = 1;
	if (bus)
		c->top->clk = 1;
	c->top->eval();
}

extern "C" void card_agent_step(void *ctx, const struct pci_sig *in, struct pci_drive *out)
{
	struct card_agent *c = (struct card_agent *)ctx;
	Vsynpcix_card *t = c->top;

	t->rst_n = c->n_bus >= CARD_RST_CLOCKS;
	t->ad_in = in->ad;
	t->cbe_n_in = in->cbe;
	t->par_in = in->par;
	t->frame_n_in = in->frame;
	t->irdy_n_in = in->irdy;
	t->trdy_n_in = in->trdy;
	t->devsel_n_in = in->devsel;
	t->stop_n_in = in->stop;
	t->perr_n_in = in->perr;
	t->idsel_in = (in->ad >> (16 + c->devno)) & 1;
	t->gnt_n = (in->gnt_n_mask >> c->agent) & 1;
	uint64_t fall = c->next_bus - c->bus_ps / 2;
	bool fallen = false;

	while (c->next_tb < c->next_bus) {
		if (!fallen && fall <= c->next_tb) {
			/* a timebase edge at the falling edge's instant sees the
			 * bus domain as it was: bus_clk's falling-edge flops feed
			 * only bus-domain logic */
			event_due(c, fall, false);
			bus_fall(c);
			fallen = true;
		}
		event_due(c, c->next_tb, false);
		edge(c, true, false);
		c->next_tb += TB_PS;
		c->n_tb++;
	}
	if (!fallen) {
		event_due(c, fall, false);
		bus_fall(c);
	}
	bool tb = c->next_tb == c->next_bus;

	event_due(c, c->next_bus, false);
	edge(c, tb, true);
	event_due(c, c->next_bus, true);
	if (tb) {
		c->next_tb += TB_PS;
		c->n_tb++;
	}
	c->next_bus += c->bus_ps;
	c->n_bus++;

	out->oe = 0;
	out->req_n = t->req_n;
	if (t->ad_oe) { out->oe |= PCI_OE(PCI_AD); out->ad = t->ad_out; }
	if (t->cbe_n_oe) { out->oe |= PCI_OE(PCI_CBE); out->cbe = t->cbe_n_out; }
	if (t->par_oe) { out->oe |= PCI_OE(PCI_PAR); out->par = t->par_out; }
	if (t->frame_n_oe) { out->oe |= PCI_OE(PCI_FRAME); out->frame = t->frame_n_out; }
	if (t->irdy_n_oe) { out->oe |= PCI_OE(PCI_IRDY); out->irdy = t->irdy_n_out; }
	if (t->trdy_n_oe) { out->oe |= PCI_OE(PCI_TRDY); out->trdy = t->trdy_n_out; }
	if (t->devsel_n_oe) { out->oe |= PCI_OE(PCI_DEVSEL); out->devsel = t->devsel_n_out; }
	if (t->stop_n_oe) { out->oe |= PCI_OE(PCI_STOP); out->stop = t->stop_n_out; }
	if (t->perr_n_oe) { out->oe |= PCI_OE(PCI_PERR); out->perr = t->perr_n_out; }
	if (t->serr_n_oe) out->oe |= PCI_OE(PCI_SERR);
	if (t->inta_n_oe) out->oe |= PCI_OE(PCI_INTA);
}
