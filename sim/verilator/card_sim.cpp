// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Verilator glue for the card without its PCI interface (clock core +
 * capture unit): the two-clock scheduler, the register port master, the
 * doorbell strobe, the DMA responder, the interrupt callback and the pin
 * drivers behind card_sim.h. This is the only C++ in the simulation; the
 * world models are plain C.
 *
 * Scheduling. Only rising edges matter (the core has no negedge logic, which
 * the build checks), so the scheduler jumps from one rising edge to the next
 * earliest one of the two clocks. For each such instant it lowers the
 * clock(s) about to rise, evaluates, raises them and evaluates again;
 * Verilator sees a clean 0->1 transition. When both clocks rise at the same
 * instant they rise together, as two real clocks would.
 *
 * Asynchronous inputs. An input edge at true time t is applied before the
 * first clock edge at or after t, i.e. the first timebase edge >= t samples
 * it. The 2-flop synchronisers in the core then behave as real flops whose
 * input met setup: metastability (an extra clock of uncertainty for edges
 * within the aperture, ~100 ps of 8 ns) is not modelled.
 *
 * Register port protocol (see hdl/core/clock_core.vhd): the master holds
 * reg_valid with write/addr/wdata stable until reg_ready pulses for one
 * bus clock; reg_rdata is valid in that cycle. The master's output flops
 * are in card_top.v (why: see there); this file raises m_req with the
 * access and drops it when it sees reg_ready.
 *
 * DMA responder (docs/card-internals.md section 3): a state machine run
 * after every bus edge. It looks at the capture unit's outputs as they
 * stand in the clock that edge began and sets the responder's signals for
 * the next clock (card_top.v's *_n inputs, registered there), so the unit
 * sees a synchronous initiator. Latencies in card_sim.h.
 */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <queue>
#include <vector>

#include "Vcard_top.h"
#include "verilated.h"

#include "card_sim.h"
#include "synpcix_regs.h"

typedef unsigned __int128 fx_t;   // true time, units of 2^-32 ns

static const double FX_PER_NS = 4294967296.0;
static const fx_t BUS_PERIOD_FX = (fx_t)15 << 32;   // 66.67 MHz, exact
// Longest a register access may take before the master calls it a hang.
static const uint64_t ACCESS_TIMEOUT_BUS_CLOCKS = 100000;

struct pin_event {
	fx_t t;
	uint64_t order;	// FIFO among events at the same time
	int pin, level;
	bool operator>(const pin_event &o) const
	{
		return t != o.t ? t > o.t : order > o.order;
	}
};

struct card {
	VerilatedContext *vctx;
	Vcard_top *top;
	fx_t now, next_tb, next_bus;
	fx_t tb_period;
	uint64_t n_tb, n_bus;
	card_osc_fn osc;
	void *osc_ctx;
	card_horizon_fn horizon_fn;
	void *horizon_ctx;
	fx_t horizon;
	std::priority_queue<pin_event, std::vector<pin_event>, std::greater<pin_event>> pins;
	uint64_t pin_order;
	int loop_ch;
	int perout_prev;
	std::vector<double> perout_edges;
	bool in_horizon;
	// DMA responder
	card_dma_fn dma_fn;
	void *dma_ctx;
	int dma_phase;
	bool dma_wd_now;        // dma_wd_ready is high in the current clock
	bool dma_wr;
	uint64_t dma_addr;      // byte address
	unsigned dma_len, dma_k, dma_wait;
	int dma_err;
	uint32_t dma_buf[32];
	uint64_t dma_requests;
	// interrupts, doorbells
	card_irq_fn irq_fn;
	void *irq_ctx;
	unsigned n_slots;
	uint64_t bad_doorbells;
};

enum { DMA_IDLE, DMA_ACCEPT, DMA_WDATA, DMA_RWAIT, DMA_RDATA, DMA_DONE };

static fx_t ns_to_fx(double ns)
{
	if (ns < 0)
		ns = 0;
	return (fx_t)(ns * FX_PER_NS + 0.5);
}

static double fx_to_ns(fx_t fx)
{
	// split so the integer part keeps full precision
	return (double)(uint64_t)(fx >> 32) + (double)(uint32_t)fx / FX_PER_NS;
}

static void update_period(struct card *c)
{
	double y = c->osc ? c->osc(c->osc_ctx, fx_to_ns(c->now)) : 0.0;

	c->tb_period = (fx_t)(CARD_TB_PERIOD_NS * FX_PER_NS / (1.0 + y) + 0.5);
}

static void set_pin(struct card *c, int pin, int level)
{
	if (pin == CARD_PIN_PPS) {
		c->top->pps_in = level;
	} else {
		unsigned bit = 1u << (pin - 1);
		c->top->event_in = level ? (c->top->event_in | bit) : (c->top->event_in & ~bit);
	}
}

static void check_horizon(struct card *c)
{
	if (c->horizon_fn && !c->in_horizon && c->now >= c->horizon) {
		c->in_horizon = true;   // the hook may schedule, not run the card
		c->horizon = ns_to_fx(c->horizon_fn(c->horizon_ctx, fx_to_ns(c->now)));
		c->in_horizon = false;
	}
}

static int dma_call(struct card *c, bool write, unsigned n)
{
	if (!c->dma_fn)
		return CARD_DMA_MASTER_ABORT;
	int e = c->dma_fn(c->dma_ctx, write, c->dma_addr, c->dma_buf, n);
	return e & 3;
}

// After a bus edge: the capture unit's outputs of this clock are visible;
// set the responder's signals for the next clock.
static void dma_step(struct card *c)
{
	Vcard_top *t = c->top;
	bool ready = false, wd_ready = false, rd_valid = false, done = false;
	uint32_t rd_data = 0;
	int err = 0;

	switch (c->dma_phase) {
	case DMA_IDLE:
		if (t->dma_valid) {
			c->dma_wr = t->dma_write;
			c->dma_addr = (uint64_t)t->dma_addr << 2;
			c->dma_len = t->dma_len;
			if (c->dma_len < 1 || c->dma_len > 16) {
				fprintf(stderr, "card_sim: DMA request of %u words at 0x%llx "
					"(the port allows 1..16)\n", c->dma_len,
					(unsigned long long)c->dma_addr);
				abort();
			}
			c->dma_k = 0;
			c->dma_requests++;
			ready = true;
			c->dma_phase = DMA_ACCEPT;
		}
		break;
	case DMA_ACCEPT:	// dma_ready is high in this clock
		if (c->dma_wr) {
			wd_ready = true;
			c->dma_phase = DMA_WDATA;
		} else {
			// the first word CARD_DMA_LATENCY_CLKS after the ready clock
			c->dma_wait = CARD_DMA_LATENCY_CLKS - 2;
			c->dma_phase = DMA_RWAIT;
		}
		break;
	case DMA_WDATA:		// dma_wd_ready is high: word k is on dma_wd_data
		c->dma_buf[c->dma_k++] = t->dma_wd_data;
		if (c->dma_k < c->dma_len) {
			wd_ready = true;
		} else {
			// written CARD_DMA_LATENCY_CLKS after the last word's clock
			c->dma_wait = CARD_DMA_LATENCY_CLKS - 1;
			c->dma_phase = DMA_RWAIT;
		}
		break;
	case DMA_RWAIT:
		if (c->dma_wait > 0) {
			c->dma_wait--;
			break;
		}
		c->dma_err = dma_call(c, c->dma_wr, c->dma_len);
		c->dma_k = 0;
		if (c->dma_wr || c->dma_err) {
			// done CARD_DMA_DONE_CLKS after this clock (the data phase)
			c->dma_wait = CARD_DMA_DONE_CLKS - 2;
			c->dma_phase = DMA_DONE;
			break;
		}
		c->dma_phase = DMA_RDATA;
		[[fallthrough]];	// the first word in the next clock
	case DMA_RDATA:
		rd_valid = true;
		rd_data = c->dma_buf[c->dma_k++];
		if (c->dma_k == c->dma_len) {
			// done CARD_DMA_DONE_CLKS after the last word's clock
			c->dma_wait = CARD_DMA_DONE_CLKS - 1;
			c->dma_phase = DMA_DONE;
		}
		break;
	case DMA_DONE:
		if (c->dma_wait > 0) {
			c->dma_wait--;
			break;
		}
		done = true;
		err = c->dma_err;
		c->dma_phase = DMA_IDLE;
		break;
	}
	t->dma_ready_n = ready;
	t->dma_wd_ready_n = wd_ready;
	t->dma_rd_valid_n = rd_valid;
	t->dma_rd_data_n = rd_data;
	t->dma_done_n = done;
	t->dma_err_n = err;
}

// Advance to the next rising edge(s). Returns true if bus_clk rose.
static bool step(struct card *c)
{
	fx_t t = c->next_tb < c->next_bus ? c->next_tb : c->next_bus;
	bool tb = c->next_tb == t, bus = c->next_bus == t;

	while (!c->pins.empty() && c->pins.top().t <= t) {
		set_pin(c, c->pins.top().pin, c->pins.top().level);
		c->pins.pop();
	}
	if (tb)
		c->top->tb_clk = 0;
	if (bus)
		c->top->bus_clk = 0;
	c->top->eval();
	if (tb)
		c->top->tb_clk = 1;
	if (bus)
		c->top->bus_clk = 1;
	c->top->eval();
	c->now = t;
	if (tb) {
		c->n_tb++;
		if ((c->n_tb % CARD_OSC_UPDATE_CLOCKS) == 0)
			update_period(c);
		c->next_tb += c->tb_period;
		int p = c->top->perout;
		if (p != c->perout_prev) {
			if (p)
				c->perout_edges.push_back(fx_to_ns(t));
			if (c->loop_ch >= 0)
				set_pin(c, CARD_PIN_EVENT(c->loop_ch), p);
			c->perout_prev = p;
		}
	}
	if (bus) {
		c->n_bus++;
		c->next_bus += BUS_PERIOD_FX;
		dma_step(c);
		uint32_t r = c->top->irq_raise;
		for (unsigned i = 0; r && c->irq_fn && i < 4; i++)
			if (r & (1u << i))
				c->irq_fn(c->irq_ctx, i);
	}
	check_horizon(c);
	return bus;
}

extern "C" struct card *card_new(void)
{
	struct card *c = new card();

	c->vctx = new VerilatedContext;
	c->top = new Vcard_top{c->vctx};
	c->tb_period = (fx_t)(CARD_TB_PERIOD_NS * FX_PER_NS);
	// the two clocks start out of phase, as unrelated oscillators would
	c->next_tb = ns_to_fx(3.3);
	c->next_bus = ns_to_fx(7.1);
	c->loop_ch = -1;
	c->top->tb_clk = 1;
	c->top->bus_clk = 1;
	c->top->m_req = 0;
	c->top->db_req = 0;
	c->top->pps_in = 0;
	c->top->event_in = 0;
	c->top->rst = 1;
	c->top->eval();
	// synchronous resets in both domains: hold for 16 bus clocks (30 tb)
	while (c->n_bus < 16)
		step(c);
	c->top->rst = 0;
	while (c->n_bus < 20)
		step(c);
	c->n_slots = (card_read32(c, SYNPCIX_MSI_SLOTS_INFO) & SYNPCIX_MSI_SLOTS_INFO_N_SLOTS_MASK)
		>> SYNPCIX_MSI_SLOTS_INFO_N_SLOTS_SHIFT;
	return c;
}

extern "C" void card_free(struct card *c)
{
	if (!c)
		return;
	c->top->final();
	delete c->top;
	delete c->vctx;
	delete c;
}

extern "C" void card_set_osc(struct card *c, card_osc_fn fn, void *ctx)
{
	c->osc = fn;
	c->osc_ctx = ctx;
	update_period(c);
}

extern "C" void card_set_horizon(struct card *c, card_horizon_fn fn, void *ctx)
{
	c->horizon_fn = fn;
	c->horizon_ctx = ctx;
	c->horizon = 0;
	check_horizon(c);
}

// One bus clock: the next bus edge.
static void bus_edge(struct card *c)
{
	while (!step(c))
		;
}

extern "C" void card_doorbell(struct card *c, unsigned slot, uint32_t data)
{
	if (slot >= c->n_slots) {
		c->bad_doorbells++;
		bus_edge(c);
		return;
	}
	c->top->db_req = 1;
	c->top->db_slot_n = slot;
	c->top->db_data_n = data;
	bus_edge(c);	// the data phase completes at this edge
	c->top->db_req = 0;
}

static uint32_t access(struct card *c, uint32_t off, bool write, uint32_t val)
{
	if (off >= 4096 || (off & 3)) {
		fprintf(stderr, "card_sim: bad register offset 0x%x\n", off);
		abort();
	}
	if (off >= SYNPCIX_RSV_DOORBELLS_BASE) {
		uint32_t rel = off - SYNPCIX_RSV_DOORBELLS_BASE;

		if (!write) {
			bus_edge(c);
			return 0;
		}
		if (rel % SYNPCIX_RSV_DOORBELLS_STRIDE) {
			c->bad_doorbells++;
			bus_edge(c);
			return 0;
		}
		card_doorbell(c, rel / SYNPCIX_RSV_DOORBELLS_STRIDE, val);
		return 0;
	}
	c->top->m_req = 1;
	c->top->m_write = write;
	c->top->m_addr = off >> 2;
	c->top->m_wdata = val;
	for (uint64_t n = 0; n < ACCESS_TIMEOUT_BUS_CLOCKS;) {
		if (!step(c))
			continue;
		n++;
		if (c->top->reg_ready) {
			uint32_t r = c->top->reg_rdata;
			c->top->m_req = 0;
			c->top->m_write = 0;
			return r;
		}
	}
	fprintf(stderr, "card_sim: register %s at 0x%03x: no reg_ready in %llu bus clocks "
		"(t = %.0f ns): the core hangs\n", write ? "write" : "read", off,
		(unsigned long long)ACCESS_TIMEOUT_BUS_CLOCKS, fx_to_ns(c->now));
	exit(3);
}

extern "C" uint32_t card_read32(void *card, uint32_t off)
{
	return access((struct card *)card, off, false, 0);
}

extern "C" void card_write32(void *card, uint32_t off, uint32_t val)
{
	access((struct card *)card, off, true, val);
}

extern "C" void card_run_until(struct card *c, double t_ns)
{
	fx_t t = ns_to_fx(t_ns);

	while ((c->next_tb < c->next_bus ? c->next_tb : c->next_bus) <= t)
		step(c);
}

extern "C" void card_run_for(struct card *c, double dt_ns)
{
	card_run_until(c, fx_to_ns(c->now) + dt_ns);
}

extern "C" double card_now_ns(const struct card *c)
{
	return fx_to_ns(c->now);
}

extern "C" double card_next_bus_edge_ns(const struct card *c)
{
	return fx_to_ns(c->next_bus);
}

extern "C" void card_input_at(struct card *c, double t_ns, int pin, int level)
{
	fx_t t = ns_to_fx(t_ns);

	if (t < c->now) {
		fprintf(stderr, "card_sim: pin %d edge at %.1f ns is in the past (now %.1f ns)\n",
			pin, t_ns, fx_to_ns(c->now));
		abort();
	}
	c->pins.push(pin_event{t, c->pin_order++, pin, level});
}

extern "C" void card_loop_perout(struct card *c, int ch)
{
	c->loop_ch = ch;
}

extern "C" int card_perout_edges(struct card *c, double *t_ns, int max)
{
	int n = 0;

	while (n < max && (size_t)n < c->perout_edges.size()) {
		t_ns[n] = c->perout_edges[n];
		n++;
	}
	c->perout_edges.erase(c->perout_edges.begin(), c->perout_edges.begin() + n);
	return n;
}

extern "C" uint64_t card_bad_doorbells(const struct card *c)
{
	return c->bad_doorbells;
}

extern "C" unsigned card_n_slots(const struct card *c)
{
	return c->n_slots;
}

extern "C" void card_set_dma(struct card *c, card_dma_fn fn, void *ctx)
{
	c->dma_fn = fn;
	c->dma_ctx = ctx;
}

extern "C" uint64_t card_dma_requests(const struct card *c)
{
	return c->dma_requests;
}

extern "C" void card_set_irq(struct card *c, card_irq_fn fn, void *ctx)
{
	c->irq_fn = fn;
	c->irq_ctx = ctx;
}

extern "C" uint32_t card_irq_pending(const struct card *c)
{
	return c->top->irq_pending;
}

extern "C" int card_irq_line(const struct card *c)
{
	return c->top->irq_intx;
}

extern "C" uint64_t card_tb_clocks(const struct card *c)
{
	return c->n_tb;
}

extern "C" uint64_t card_time_ns(const struct card *c)
{
	return c->top->tb_time_ns;
}

extern "C" uint64_t card_bus_clocks(const struct card *c)
{
	return c->n_bus;
}

extern "C" double card_tb_period_ns(const struct card *c)
{
	return fx_to_ns(c->tb_period);
}
