/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI 2.3 protocol checker; the rules and their spec sections are listed
 * in pci_checker.h. Each clock s is judged against the clock before, p:
 * "p completed" means IRDY# and (TRDY# or STOP#) were asserted in p.
 */
#include <stdarg.h>
#include <string.h>

#include "pci_checker.h"

const char *const pci_rule_name[PCI_R_COUNT] = {
	"none", "contention", "turnaround", "release-low", "frame-deassert",
	"frame-reassert", "irdy-hold", "trdy-hold", "stop-hold", "no-devsel",
	"devsel-late", "master-abort", "outside", "stable", "ad-undriven",
	"parity"
};

void pci_checker_init(struct pci_checker *c)
{
	memset(c, 0, sizeof(*c));
	pci_sig_idle(&c->prev);
}

void pci_checker_name_agent(struct pci_checker *c, int agent, const char *name)
{
	if (agent >= 0 && agent < PCI_MAX_AGENTS)
		c->agent_name[agent] = name;
}

static const char *who(const struct pci_checker *c, int a)
{
	if (a == PCI_DRV_NONE)
		return "nobody";
	if (a == PCI_DRV_MANY)
		return "several";
	return a < PCI_MAX_AGENTS && c->agent_name[a] ? c->agent_name[a] : "agent";
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void viol(struct pci_checker *c, uint64_t clk, enum pci_rule r, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->count[r]++;
	if (c->violations++ == 0) {
		c->first_rule = r;
		c->first_clk = clk;
		snprintf(c->first_msg, sizeof(c->first_msg), "clock %llu: %s: %s",
			 (unsigned long long)clk, pci_rule_name[r], msg);
	}
	if (!c->quiet && c->violations <= 5)
		fprintf(stderr, "pci_checker: clock %llu: %s: %s\n",
			(unsigned long long)clk, pci_rule_name[r], msg);
}

static const int stl_lines[] = { PCI_FRAME, PCI_IRDY, PCI_TRDY, PCI_DEVSEL, PCI_STOP, PCI_PERR };

static uint8_t line_val(const struct pci_sig *s, int l)
{
	switch (l) {
	case PCI_FRAME: return s->frame;
	case PCI_IRDY: return s->irdy;
	case PCI_TRDY: return s->trdy;
	case PCI_DEVSEL: return s->devsel;
	case PCI_STOP: return s->stop;
	case PCI_PERR: return s->perr;
	default: return 1;
	}
}

void pci_checker_clock(struct pci_checker *c, const struct pci_sig *s, uint64_t clk)
{
	const struct pci_sig *p = &c->prev;
	bool p_compl = !p->irdy && (!p->trdy || !p->stop);
	bool s_compl = !s->irdy && (!s->trdy || !s->stop);
	bool addr = !s->frame && p->frame;
	bool was_active = c->active;
	bool p_addr = c->prev_addr;
	/* prev was a data-phase clock of the current transaction */
	bool p_data = was_active && !p_addr;
	bool rd = pci_cmd_is_read(c->cmd);

	c->clocks++;
	/* drivers */
	for (int l = PCI_AD; l <= PCI_PERR; l++) {
		if (s->drv[l] == PCI_DRV_MANY)
			viol(c, clk, PCI_R_CONTENTION, "two drivers on %s", pci_line_name[l]);
		else if (p->drv[l] >= 0 && s->drv[l] >= 0 && p->drv[l] != s->drv[l])
			viol(c, clk, PCI_R_TURNAROUND, "%s passed from %s to %s without a turnaround clock",
			     pci_line_name[l], who(c, p->drv[l]), who(c, s->drv[l]));
	}
	for (unsigned i = 0; i < sizeof(stl_lines) / sizeof(stl_lines[0]); i++) {
		int l = stl_lines[i];

		if (p->drv[l] >= 0 && s->drv[l] == PCI_DRV_NONE && line_val(p, l) == 0)
			viol(c, clk, PCI_R_RELEASE_LOW, "%s released by %s while asserted",
			     pci_line_name[l], who(c, p->drv[l]));
	}
	/* a master abort may drop IRDY# from A+5 on (no DEVSEL# seen) */
	bool mabort_ok = was_active && !c->devsel_seen && !addr && clk - c->addr_clk >= 5;

	/* end of the previous transaction: the bus went idle */
	if (was_active && !addr && pci_idle(s) && (c->data_done || !c->devsel_seen) && !p_addr) {
		if (!c->devsel_seen) {
			c->master_aborts++;
			if (!s->devsel)
				viol(c, clk, PCI_R_DEVSEL_LATE, "DEVSEL# %llu clocks after the address phase, as the master aborted",
				     (unsigned long long)(clk - c->addr_clk));
		}
		c->active = false;
	}
	if (addr) {
		if (was_active && !c->data_done && !(p_compl && p->frame))
			viol(c, clk, PCI_R_FRAME_REASSERT, "FRAME# asserted during a transaction");
		c->active = true;
		c->data_done = false;
		c->addr_clk = clk;
		c->cmd = s->cbe;
		c->devsel_seen = false;
		c->transactions++;
		if (s->drv[PCI_AD] < 0)
			viol(c, clk, PCI_R_AD_UNDRIVEN, "AD not driven in the address phase");
		if (!s->irdy || !s->trdy || !s->stop || !s->devsel)
			viol(c, clk, PCI_R_OUTSIDE, "IRDY#/TRDY#/STOP#/DEVSEL# asserted in an address phase");
	}
	uint64_t rel = clk - c->addr_clk;

	if (!p->frame && s->frame && s->irdy)
		viol(c, clk, PCI_R_FRAME_DEASSERT, "FRAME# deasserted without IRDY# asserted");
	if (!p->irdy && !p_compl && s->irdy && !mabort_ok)
		viol(c, clk, PCI_R_IRDY_HOLD, "IRDY# deasserted before its data phase completed");
	if (!p->trdy && p->irdy && s->trdy)
		viol(c, clk, PCI_R_TRDY_HOLD, "TRDY# deasserted before its data phase completed");
	if (!p->stop && s->stop && (!p->frame || !p_compl))
		viol(c, clk, PCI_R_STOP_HOLD, "STOP# deasserted before %s",
		     !p->frame ? "FRAME# was" : "the last data phase completed");
	if (c->active && !addr && !s->devsel && !c->devsel_seen) {
		if (rel > 4)
			viol(c, clk, PCI_R_DEVSEL_LATE, "DEVSEL# %llu clocks after the address phase",
			     (unsigned long long)rel);
		c->devsel_seen = true;
	}
	if (!s->trdy && s->devsel)
		viol(c, clk, PCI_R_NO_DEVSEL, "TRDY# without DEVSEL#");
	if (!s->stop && s->devsel && !c->devsel_seen)
		viol(c, clk, PCI_R_NO_DEVSEL, "STOP# without DEVSEL# ever asserted");
	if (c->active && !c->devsel_seen && !addr) {
		if (rel >= 6 && !s->frame)
			viol(c, clk, PCI_R_MASTER_ABORT, "no DEVSEL# and FRAME# still asserted %llu clocks after the address phase",
			     (unsigned long long)rel);
		if (rel >= 7 && !s->irdy)
			viol(c, clk, PCI_R_MASTER_ABORT, "no DEVSEL# and IRDY# still asserted %llu clocks after the address phase",
			     (unsigned long long)rel);
	}
	if (!c->active && (!s->irdy || !s->trdy || !s->stop || !s->devsel))
		viol(c, clk, PCI_R_OUTSIDE, "IRDY#/TRDY#/STOP#/DEVSEL# asserted with no transaction");
	/* stability while a data phase waits (p waited, s is the same phase) */
	if (p_data && !addr && c->active && !p_compl) {
		if (!p->irdy && s->cbe != p->cbe)
			viol(c, clk, PCI_R_STABLE, "C/BE# changed while IRDY# waited (%X -> %X)", p->cbe, s->cbe);
		if (!rd && !p->irdy && s->ad != p->ad)
			viol(c, clk, PCI_R_STABLE, "write data changed while IRDY# waited (%08X -> %08X)",
			     p->ad, s->ad);
		if (rd && !p->trdy && s->ad != p->ad)
			viol(c, clk, PCI_R_STABLE, "read data changed while TRDY# waited (%08X -> %08X)",
			     p->ad, s->ad);
	}
	if (c->active && !addr && s->drv[PCI_AD] < 0 &&
	    ((!rd && !s->irdy) || (rd && !s->trdy)))
		viol(c, clk, PCI_R_AD_UNDRIVEN, "AD not driven in a %s data phase with %s asserted",
		     rd ? "read" : "write", rd ? "TRDY#" : "IRDY#");
	/* parity one clock after AD was valid */
	if (p_addr || (p_data && ((!rd && !p->irdy) || (rd && !p->trdy)))) {
		uint8_t want = pci_parity(p->ad, p->cbe);

		if (s->drv[PCI_PAR] < 0)
			viol(c, clk, PCI_R_PARITY, "PAR not driven one clock after valid AD");
		else if (s->par != want)
			viol(c, clk, PCI_R_PARITY, "PAR %u for AD %08X C/BE# %X (even parity needs %u), driven by %s",
			     s->par, p->ad, p->cbe, want, who(c, s->drv[PCI_PAR]));
	}
	/* statistics and data-phase bookkeeping */
	if (c->active && !addr) {
		if (s_compl) {
			if (!s->trdy)
				c->data_phases++;
			if (!s->stop && s->trdy)
				c->retries++;
			else if (!s->stop)
				c->disconnects++;
			if (s->frame)
				c->data_done = true;
		} else if (c->devsel_seen && !c->data_done) {
			c->wait_clocks++;
		}
	}
	c->prev_addr = addr;
	c->prev = *s;
}

void pci_checker_report(const struct pci_checker *c, FILE *f)
{
	if (c->violations)
		fprintf(f, "pci_checker: %llu violations, first at %s\n",
			(unsigned long long)c->violations, c->first_msg);
	else
		fprintf(f, "pci_checker: clean over %llu clocks: %llu transactions, %llu data phases, "
			"%llu wait clocks, %llu retries/aborted phases, %llu disconnects, %llu master aborts\n",
			(unsigned long long)c->clocks, (unsigned long long)c->transactions,
			(unsigned long long)c->data_phases, (unsigned long long)c->wait_clocks,
			(unsigned long long)c->retries, (unsigned long long)c->disconnects,
			(unsigned long long)c->master_aborts);
}
