/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Verilator model of the card's clock core, seen from C.
 *
 * One card = the verilated clock_core plus a two-clock scheduler:
 *   tb_clk   timebase clock, nominally 125 MHz (8 ns); its true period is
 *            8 ns / (1 + y(t)) where y is the oscillator model's fractional
 *            frequency offset, asked for every CARD_OSC_UPDATE_CLOCKS clocks.
 *   bus_clk  register clock, 66.67 MHz (15 ns exactly), from the ideal host
 *            clock: host time, GPS time and simulation time are the same
 *            "true time" here.
 * Time is kept internally as an integer in units of 2^-32 ns (128 bits), so
 * edge times carry no rounding drift however long a run is.
 *
 * The only way in is the register port (card_read32 / card_write32, the
 * same shape as struct spx_os_ops of the driver core) and the card's pins:
 * pps_in and event_in are driven at chosen true times, perout is watched.
 * Nothing reads the design's internal signals.
 */
#ifndef CARD_SIM_H
#define CARD_SIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct card;

/* Pins that card_input_at can drive. */
#define CARD_PIN_PPS 0
#define CARD_PIN_EVENT(i) (1 + (i))

/* Nominal clock periods of the two domains. */
#define CARD_TB_PERIOD_NS 8.0
#define CARD_BUS_PERIOD_NS 15.0
/* How often (timebase clocks) the oscillator model is asked for y. */
#define CARD_OSC_UPDATE_CLOCKS 1024

/* Oscillator: fractional frequency offset y_sim at true time t_ns. */
typedef double (*card_osc_fn)(void *ctx, double t_ns);
/*
 * Horizon hook: called once the true time reaches the horizon it last
 * returned (0 at first: called at once); it schedules input edges ahead and
 * returns the next horizon in ns. World models use it to stay ahead of the
 * card however much time register accesses take.
 */
typedef double (*card_horizon_fn)(void *ctx, double now_ns);

struct card *card_new(void);
void card_free(struct card *c);

void card_set_osc(struct card *c, card_osc_fn fn, void *ctx);
void card_set_horizon(struct card *c, card_horizon_fn fn, void *ctx);

/* Register port master (bus clock domain). Offsets from synpcix_regs.h. */
uint32_t card_read32(void *card, uint32_t off);
void card_write32(void *card, uint32_t off, uint32_t val);

/* Let true time run (the register port idle). */
void card_run_until(struct card *c, double t_ns);
void card_run_for(struct card *c, double dt_ns);
double card_now_ns(const struct card *c);

/* Drive a pin to level at true time t_ns (must not be in the past). */
void card_input_at(struct card *c, double t_ns, int pin, int level);

/*
 * Wire perout to event input ch (-1: no loop): the event input then follows
 * perout with no delay beyond the clock edge perout changes on.
 */
void card_loop_perout(struct card *c, int ch);
/* True times of perout rising edges seen since the last call (up to max). */
int card_perout_edges(struct card *c, double *t_ns, int max);

/* Counters for speed figures. */
uint64_t card_tb_clocks(const struct card *c);
uint64_t card_bus_clocks(const struct card *c);
/* Current true tb_clk period in ns (from the oscillator model). */
double card_tb_period_ns(const struct card *c);

#ifdef __cplusplus
}
#endif

#endif /* CARD_SIM_H */
