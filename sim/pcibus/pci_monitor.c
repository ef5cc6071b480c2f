/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pci_monitor.h"

void pci_monitor_init(struct pci_monitor *m, const struct pci_sim *sim)
{
	memset(m, 0, sizeof(*m));
	m->sim = sim;
	pci_sig_idle(&m->prev);
}

void pci_monitor_free(struct pci_monitor *m)
{
	free(m->log);
	m->log = NULL;
	m->n = m->cap = 0;
}

static void push(struct pci_monitor *m, uint64_t clk)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 4096;
		m->log = realloc(m->log, m->cap * sizeof(*m->log));
		if (!m->log) {
			fprintf(stderr, "pci_monitor: out of memory\n");
			exit(2);
		}
	}
	m->cur.clk_end = clk;
	m->log[m->n++] = m->cur;
	m->active = false;
}

void pci_monitor_hook(void *ctx, uint64_t clk)
{
	struct pci_monitor *m = ctx;
	const struct pci_sig *s = &m->sim->sig, *p = &m->prev;

	if (clk == 0)
		return;   /* nothing resolved yet */
	if (p->frame && !s->frame) {
		if (m->active)
			push(m, clk);   /* fast back-to-back: the last one ended */
		memset(&m->cur, 0, sizeof(m->cur));
		m->cur.clk = clk;
		m->cur.cmd = s->cbe;
		m->cur.addr = s->ad;
		m->cur.master = s->drv[PCI_FRAME];
		m->cur.target = -1;
		m->active = true;
	} else if (m->active) {
		if (!s->devsel && m->cur.target < 0)
			m->cur.target = s->drv[PCI_DEVSEL];
		if (!s->irdy && !s->trdy) {
			if (m->cur.words == 0)
				m->cur.data0 = s->ad;
			m->cur.words++;
		}
		if (!s->irdy && !s->stop)
			m->cur.stopped = true;
		if (!s->irdy && (!s->trdy || !s->stop) && s->frame) {
			push(m, clk);
		} else if (pci_idle(s)) {
			m->cur.master_abort = m->cur.target < 0;
			push(m, clk);
		}
	}
	m->prev = *s;
}
