/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pci_arbiter.h"

void pci_arbiter_init(struct pci_arbiter *a, uint8_t masters, int park)
{
	a->masters = masters | (uint8_t)(1u << park);
	a->park = park;
	a->granted = park;
	a->pending = -1;
	a->last = park;
	a->frame_prev = true;
	a->grants = 0;
}

/* next requester after `from` in round-robin order, -1 if none */
static int next_req(uint8_t req, int from)
{
	for (int i = 1; i <= 8; i++) {
		int c = (from + i) % 8;

		if ((req >> c) & 1)
			return c;
	}
	return -1;
}

uint8_t pci_arbiter_step(struct pci_arbiter *a, const struct pci_sig *in)
{
	uint8_t req = (uint8_t)~in->req_n_mask & a->masters;
	bool started = !in->frame && a->frame_prev;   /* an address phase */
	bool idle = pci_idle(in);
	int want;

	a->frame_prev = in->frame;
	if (a->granted < 0) {
		/* the turnaround clock is over */
		a->granted = a->pending;
		a->pending = -1;
		a->grants++;
		return (uint8_t)~(1u << a->granted);
	}
	int g = a->granted;

	if (started) {
		/* the owner has the bus; line up the next requester */
		want = next_req(req & (uint8_t)~(1u << g), g);
		if (want < 0)
			want = g;
		a->last = g;
	} else if ((req >> g) & 1) {
		want = g;          /* still waiting for an idle bus */
	} else {
		want = next_req(req, a->last);
		if (want < 0)
			want = a->park;
	}
	if (want != g) {
		if (idle) {
			/* move through a clock without any grant */
			a->granted = -1;
			a->pending = want;
			return 0xFF;
		}
		a->granted = want;
		a->grants++;
	}
	return (uint8_t)~(1u << a->granted);
}
