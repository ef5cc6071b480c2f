/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PCI bus: resolver, the master and target engines the agent models are
 * built from, and the per-clock scheduler. See pci_bus.h for the timing
 * model. Rules followed (PCI Local Bus Specification 2.3, chapter 3):
 *   - FRAME# turnaround is the idle clock, IRDY#/TRDY#/DEVSEL#/STOP#
 *     turnaround the address phase (3.3.1): a master drives IRDY# from the
 *     clock after its address phase, a target its lines likewise;
 *   - s/t/s lines are driven high for one clock before release (2.1);
 *   - PAR is driven one clock after AD by the agent that drove AD (3.7.1);
 *   - a read's AD turnaround is the clock after the address phase;
 *   - a retried master releases REQ# for two clocks (3.4.1);
 *   - master abort: no DEVSEL# by the fourth clock after the address phase
 *     (3.3.3.1), FRAME# then IRDY# deasserted;
 *   - STOP# kept until FRAME# is deasserted, the master then ends with one
 *     last data phase (3.3.3.2); STOP# with DEVSEL# deasserted is a
 *     target abort (the C targets never issue one).
 */
#include <string.h>

#include "pci_bus.h"
#include "pci_arbiter.h"
#include "pci_checker.h"

double pci_period_ns = 15.0;

const char *const pci_line_name[PCI_NLINES] = {
	"AD", "C/BE#", "PAR", "FRAME#", "IRDY#", "TRDY#", "DEVSEL#", "STOP#",
	"PERR#", "SERR#", "INTA#"
};

void pci_sig_idle(struct pci_sig *s)
{
	memset(s, 0, sizeof(*s));
	s->ad = 0xFFFFFFFFu;
	s->cbe = 0xF;
	s->par = s->frame = s->irdy = s->trdy = s->devsel = s->stop = 1;
	s->perr = s->serr = s->inta = 1;
	for (int l = 0; l < PCI_NLINES; l++)
		s->drv[l] = PCI_DRV_NONE;
	s->req_n_mask = 0xFF;
	s->gnt_n_mask = 0xFF;
}

static void put_line(struct pci_sig *s, int l, int agent)
{
	s->drv[l] = s->drv[l] == PCI_DRV_NONE ? agent : PCI_DRV_MANY;
}

void pci_resolve(struct pci_sig *s, const struct pci_drive *d, int n)
{
	uint8_t gnt = s->gnt_n_mask;

	pci_sig_idle(s);
	s->gnt_n_mask = gnt;
	/* undriven tristate lines read high; contended ones read as the wired
	 * AND, which is as good as any value: the checker flags them */
	uint32_t ad = 0xFFFFFFFFu;
	uint8_t cbe = 0xF, par = 1, fr = 1, ir = 1, tr = 1, dv = 1, st = 1, pe = 1;

	for (int a = 0; a < n; a++) {
		const struct pci_drive *x = &d[a];

		if (!x->req_n)
			s->req_n_mask &= ~(1u << a);
		if (x->oe & PCI_OE(PCI_AD)) { ad &= x->ad; put_line(s, PCI_AD, a); }
		if (x->oe & PCI_OE(PCI_CBE)) { cbe &= x->cbe; put_line(s, PCI_CBE, a); }
		if (x->oe & PCI_OE(PCI_PAR)) { par &= x->par; put_line(s, PCI_PAR, a); }
		if (x->oe & PCI_OE(PCI_FRAME)) { fr &= x->frame; put_line(s, PCI_FRAME, a); }
		if (x->oe & PCI_OE(PCI_IRDY)) { ir &= x->irdy; put_line(s, PCI_IRDY, a); }
		if (x->oe & PCI_OE(PCI_TRDY)) { tr &= x->trdy; put_line(s, PCI_TRDY, a); }
		if (x->oe & PCI_OE(PCI_DEVSEL)) { dv &= x->devsel; put_line(s, PCI_DEVSEL, a); }
		if (x->oe & PCI_OE(PCI_STOP)) { st &= x->stop; put_line(s, PCI_STOP, a); }
		if (x->oe & PCI_OE(PCI_PERR)) { pe &= x->perr; put_line(s, PCI_PERR, a); }
		/* open drain: oe means "pull low"; several pullers are legal */
		if (x->oe & PCI_OE(PCI_SERR)) { s->serr = 0; s->drv[PCI_SERR] = a; }
		if (x->oe & PCI_OE(PCI_INTA)) { s->inta = 0; s->drv[PCI_INTA] = a; }
	}
	s->ad = ad;
	s->cbe = cbe & 0xF;
	s->par = par;
	s->frame = fr;
	s->irdy = ir;
	s->trdy = tr;
	s->devsel = dv;
	s->stop = st;
	s->perr = pe;
}

void pci_drive_merge(struct pci_drive *a, const struct pci_drive *b)
{
	if (b->oe & PCI_OE(PCI_AD)) a->ad = b->ad;
	if (b->oe & PCI_OE(PCI_CBE)) a->cbe = b->cbe;
	if (b->oe & PCI_OE(PCI_PAR)) a->par = b->par;
	if (b->oe & PCI_OE(PCI_FRAME)) a->frame = b->frame;
	if (b->oe & PCI_OE(PCI_IRDY)) a->irdy = b->irdy;
	if (b->oe & PCI_OE(PCI_TRDY)) a->trdy = b->trdy;
	if (b->oe & PCI_OE(PCI_DEVSEL)) a->devsel = b->devsel;
	if (b->oe & PCI_OE(PCI_STOP)) a->stop = b->stop;
	if (b->oe & PCI_OE(PCI_PERR)) a->perr = b->perr;
	/* a line both sides drive stays "driven"; the checker cannot see it,
	 * so the models never do it (master and target share no line while
	 * the agent is both: it never targets its own transactions) */
	a->oe |= b->oe;
	a->req_n &= b->req_n;
}

/* ---- master engine ----------------------------------------------------- */

enum { M_IDLE, M_ADDR, M_DATA, M_TURN };

void pci_master_init(struct pci_master *m, int agent, bool parks)
{
	memset(m, 0, sizeof(*m));
	m->agent = agent;
	m->parks = parks;
	m->latency_timer = 64;   /* what Linux's pcibios_set_master programs */
}

void pci_master_start(struct pci_master *m, unsigned cmd, uint32_t addr,
		      uint8_t be_n, uint32_t *data, int n)
{
	m->busy = true;
	m->cmd = cmd;
	m->addr = addr;
	m->be_n = be_n;
	m->data = data;
	m->n = n;
	m->done = 0;
	m->result = PCI_OK;
	m->attempt_retries = 0;
}

static void m_data_outputs(struct pci_master *m, struct pci_drive *out)
{
	out->oe |= PCI_OE(PCI_FRAME) | PCI_OE(PCI_IRDY) | PCI_OE(PCI_CBE);
	out->frame = m->last;
	out->irdy = 0;
	out->cbe = m->be_n;
	if (!pci_cmd_is_read(m->cmd)) {
		out->oe |= PCI_OE(PCI_AD);
		out->ad = m->done < m->n ? m->data[m->done] : 0;
		m->drove_ad = true;
	}
}

void pci_master_step(struct pci_master *m, const struct pci_sig *in,
		     struct pci_drive *out)
{
	bool par_due = m->drove_ad;

	m->drove_ad = false;
	switch (m->st) {
	case M_IDLE:
		if (m->backoff > 0)
			m->backoff--;
		if (m->busy && m->backoff == 0) {
			out->req_n = 0;
			if (pci_gnt(in, m->agent) && pci_idle(in)) {
				out->oe |= PCI_OE(PCI_FRAME) | PCI_OE(PCI_AD) | PCI_OE(PCI_CBE);
				out->frame = 0;
				out->ad = m->addr + 4u * (uint32_t)m->done;
				out->cbe = m->cmd;
				m->drove_ad = true;
				m->st = M_ADDR;
				m->clk_in_txn = 0;
				m->devsel_seen = false;
				m->transactions++;
				break;
			}
		}
		/* parked (PCI 2.3 3.4.3): GNT# on an idle bus and no
		 * transaction to start: keep AD, C/BE# and PAR driven */
		if (m->parks && pci_gnt(in, m->agent) && pci_idle(in)) {
			out->oe |= PCI_OE(PCI_AD) | PCI_OE(PCI_CBE);
			out->ad = 0;
			out->cbe = 0;
			m->drove_ad = true;
		}
		break;
	case M_ADDR:
		m->clk_in_txn = 1;
		m->last = m->n - m->done == 1;
		m->st = M_DATA;
		m_data_outputs(m, out);
		if (m->fault == PCI_MFAULT_NO_TURN && pci_cmd_is_read(m->cmd)) {
			out->oe |= PCI_OE(PCI_AD);   /* deliberate: no turnaround */
			out->ad = 0;
		}
		break;
	case M_DATA: {
		int rel = m->clk_in_txn++;   /* `in` is clock A + rel */
		bool compl = !in->irdy && (!in->trdy || !in->stop);

		if (!in->devsel)
			m->devsel_seen = true;
		if (!m->devsel_seen && rel >= 4) {
			/* master abort: FRAME# first (IRDY# stays), then IRDY# */
			if (m->result != PCI_MASTER_ABORT) {
				m->result = PCI_MASTER_ABORT;
				m->master_aborts++;
				if (pci_cmd_is_read(m->cmd))
					for (int i = m->done; i < m->n; i++)
						m->data[i] = 0xFFFFFFFFu;
			}
			if (!m->last) {
				m->last = true;
				m_data_outputs(m, out);
			} else {
				out->oe |= PCI_OE(PCI_IRDY);
				out->irdy = 1;
				m->st = M_TURN;
			}
			break;
		}
		if (!compl) {
			m_data_outputs(m, out);   /* wait: hold everything */
			if (m->fault == PCI_MFAULT_IRDY_EARLY && m->devsel_seen && !m->fault_done) {
				out->irdy = 1;    /* deliberate: IRDY# dropped */
				m->fault_done = true;
			}
			break;
		}
		if (!in->trdy) {
			if (pci_cmd_is_read(m->cmd))
				m->data[m->done] = in->ad;
			m->done++;
			m->words++;
		}
		if (!in->stop) {
			if (in->devsel && m->result == PCI_OK) {
				/* STOP# with DEVSEL# deasserted: target abort (3.3.3.2.1) */
				m->result = PCI_TARGET_ABORT;
				if (pci_cmd_is_read(m->cmd))
					for (int i = m->done; i < m->n; i++)
						m->data[i] = 0xFFFFFFFFu;
			}
			if (in->trdy && m->done == 0)
				m->retries++;
			else if (!m->last)
				m->disconnects++;
			if (!m->last && m->done < m->n) {
				/* one more (last) data phase to end it */
				m->last = true;
				m_data_outputs(m, out);
				break;
			}
		} else if (!m->last) {
			bool lat_out = m->latency_timer && m->clk_in_txn > m->latency_timer &&
				       !pci_gnt(in, m->agent);

			m->last = m->n - m->done == 1 || lat_out;
			m_data_outputs(m, out);
			break;
		}
		/* last data phase completed: IRDY# high for a clock, then release */
		out->oe |= PCI_OE(PCI_IRDY);
		out->irdy = 1;
		m->st = M_TURN;
		break;
	}
	case M_TURN:
		m->st = M_IDLE;
		if (m->result != PCI_OK || m->done >= m->n) {
			m->busy = false;
		} else {
			m->attempt_retries++;
			m->backoff = 2;
		}
		break;
	}
	if (par_due) {
		out->oe |= PCI_OE(PCI_PAR);
		out->par = pci_parity(in->ad, in->cbe);
	}
}

/* ---- target engine ----------------------------------------------------- */

enum { T_IDLE, T_ACTIVE, T_STOPPING, T_END };

void pci_target_init(struct pci_target *t, int agent, int idsel_bit,
		     const struct pci_target_ops *ops, void *ctx,
		     const struct pci_target_policy *pol, uint64_t seed)
{
	memset(t, 0, sizeof(*t));
	t->agent = agent;
	t->idsel_bit = idsel_bit;
	t->ops = *ops;
	t->ctx = ctx;
	t->pol = *pol;
	if (t->pol.devsel < 1 || t->pol.devsel > 3)
		t->pol.devsel = 2;
	pci_rng_seed(&t->rng, seed);
	t->frame_prev = true;
}

static int t_rand(struct pci_target *t, int max)
{
	return max > 0 ? (int)pci_rng_below(&t->rng, (uint32_t)max + 1) : 0;
}

static void t_lines(struct pci_drive *out, int devsel, int trdy, int stop)
{
	out->oe |= PCI_OE(PCI_DEVSEL) | PCI_OE(PCI_TRDY) | PCI_OE(PCI_STOP);
	out->devsel = devsel;
	out->trdy = trdy;
	out->stop = stop;
}

/* Outputs of an active target for clock A + rel. */
static void t_active(struct pci_target *t, const struct pci_sig *in, struct pci_drive *out,
		     bool held)
{
	int rel = t->clk_in_txn;
	bool rd = pci_cmd_is_read(t->cmd);
	bool dsel = rel >= (t->pol.fault == PCI_TFAULT_LATE_DEVSEL ? 5 : t->pol.devsel);
	int trdy = 1, stop = 1;

	if (held) {
		/* TRDY# (and STOP#) asserted and the phase not complete */
		trdy = in->trdy;
		stop = in->stop;
	} else if (dsel && (!rd || rel >= 2)) {
		if (t->wait > 0) {
			t->wait--;
			t->wait_clocks++;
		} else if (t->words == 0 && t->stopping) {
			stop = 0;              /* retry: STOP# without data */
			t->retries++;
		} else {
			trdy = 0;
			if (t->pol.single_word || pci_rng_pct(&t->rng, t->pol.disc_pct)) {
				stop = 0;      /* disconnect with data */
				t->disconnects++;
			}
			if (rd)
				t->rdata = t->ops.read(t->ctx, t->cmd, t->addr, in->cbe);
		}
	}
	t_lines(out, dsel ? 0 : 1, trdy, stop);
	if (rd && rel >= 2) {
		out->oe |= PCI_OE(PCI_AD);
		out->ad = t->rdata;
		t->drove_ad = true;
	}
}

void pci_target_step(struct pci_target *t, const struct pci_sig *in,
		     struct pci_drive *out)
{
	bool par_due = t->drove_ad;
	bool addr_phase = !in->frame && t->frame_prev && in->irdy;

	t->drove_ad = false;
	t->frame_prev = in->frame;
	if (t->st == T_END)
		t->st = T_IDLE;   /* lines released this clock */
	switch (t->st) {
	case T_IDLE:
		if (addr_phase) {
			bool idsel = t->idsel_bit >= 0 && ((in->ad >> t->idsel_bit) & 1);

			if (t->ops.claim(t->ctx, in->cbe, in->ad, idsel)) {
				t->st = T_ACTIVE;
				t->cmd = in->cbe;
				t->addr = in->ad & ~3u;
				t->clk_in_txn = 1;
				t->words = 0;
				t->claims++;
				t->wait = t_rand(t, t->pol.max_initial_wait);
				/* stopping = "this transaction is retried" */
				t->stopping = pci_rng_pct(&t->rng, t->pol.retry_pct);
				t_active(t, in, out, false);
			}
		}
		break;
	case T_ACTIVE: {
		bool ours = in->drv[PCI_TRDY] == t->agent;
		bool compl = ours && !in->irdy && (!in->trdy || !in->stop);
		bool held = ours && !compl && (!in->trdy || !in->stop);

		t->clk_in_txn++;
		if (compl && !in->trdy) {
			if (!pci_cmd_is_read(t->cmd))
				t->ops.write(t->ctx, t->cmd, t->addr, in->ad, in->cbe);
			t->addr += 4;
			t->words++;
			t->words_total++;
		}
		if (compl && in->frame) {
			if (t->pol.fault == PCI_TFAULT_NO_HIGH) {
				t->st = T_IDLE;  /* deliberate: released while low */
			} else {
				t_lines(out, 1, 1, 1);   /* last phase done: high, then release */
				t->st = T_END;
			}
		} else if (compl && !in->stop) {
			t_lines(out, 0, 1, 0);
			t->st = T_STOPPING;
		} else {
			if (compl)
				t->wait = t_rand(t, t->pol.max_wait);
			t_active(t, in, out, held);
		}
		break;
	}
	case T_STOPPING: {
		bool compl = !in->irdy && !in->stop;

		if (compl && in->frame) {
			t_lines(out, 1, 1, 1);
			t->st = T_END;
		} else {
			t_lines(out, 0, 1, 0);
		}
		break;
	}
	}
	if (par_due) {
		out->oe |= PCI_OE(PCI_PAR);
		out->par = pci_parity(in->ad, in->cbe) ^ (t->pol.fault == PCI_TFAULT_BAD_PAR);
	}
}

/* ---- scheduler ----------------------------------------------------------- */

void pci_sim_init(struct pci_sim *s, struct pci_arbiter *arb, struct pci_checker *chk)
{
	memset(s, 0, sizeof(*s));
	pci_sig_idle(&s->sig);
	s->arb = arb;
	s->chk = chk;
}

int pci_sim_add(struct pci_sim *s, const char *name, pci_step_fn fn, void *ctx)
{
	if (s->n >= PCI_MAX_AGENTS)
		return -1;
	s->name[s->n] = name;
	s->step[s->n] = fn;
	s->ctx[s->n] = ctx;
	if (s->chk)
		pci_checker_name_agent(s->chk, s->n, name);
	return s->n++;
}

void pci_sim_add_hook(struct pci_sim *s, pci_hook_fn fn, void *ctx)
{
	if (s->n_hooks < 4) {
		s->hook[s->n_hooks] = fn;
		s->hook_ctx[s->n_hooks] = ctx;
		s->n_hooks++;
	}
}

void pci_sim_step(struct pci_sim *s)
{
	for (int h = 0; h < s->n_hooks; h++)
		s->hook[h](s->hook_ctx[h], s->clk);
	for (int a = 0; a < s->n; a++) {
		memset(&s->drv[a], 0, sizeof(s->drv[a]));
		pci_drive_none(&s->drv[a]);
		s->step[a](s->ctx[a], &s->sig, &s->drv[a]);
	}
	uint8_t gnt = s->arb ? pci_arbiter_step(s->arb, &s->sig) : 0xFE;

	pci_resolve(&s->sig, s->drv, s->n);
	s->sig.gnt_n_mask = gnt;
	s->clk++;
	if (s->chk)
		pci_checker_clock(s->chk, &s->sig, s->clk);
}
