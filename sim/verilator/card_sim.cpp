// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Verilator glue for the card's clock core: the two-clock scheduler, the
 * register port master and the pin drivers behind card_sim.h. This is the
 * only C++ in the simulation; the world models are plain C.
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
 */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <queue>
#include <vector>

#include "Vcard_top.h"
#include "verilated.h"

#include "card_sim.h"

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
};

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

static uint32_t access(struct card *c, uint32_t off, bool write, uint32_t val)
{
	if (off >= 4096 || (off & 3)) {
		fprintf(stderr, "card_sim: bad register offset 0x%x\n", off);
		abort();
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

extern "C" uint64_t card_tb_clocks(const struct card *c)
{
	return c->n_tb;
}

extern "C" uint64_t card_bus_clocks(const struct card *c)
{
	return c->n_bus;
}

extern "C" double card_tb_period_ns(const struct card *c)
{
	return fx_to_ns(c->tb_period);
}
