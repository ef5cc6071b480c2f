/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Verilator model of the card without its PCI interface, seen from C:
 * hdl/core clock_core + capture_unit (hdl/card/card_core.vhd, the card minus PCI).
 *
 * One card = the verilated core plus a two-clock scheduler:
 *   tb_clk   timebase clock, nominally 125 MHz (8 ns); its true period is
 *            8 ns / (1 + y(t)) where y is the oscillator model's fractional
 *            frequency offset, asked for every CARD_OSC_UPDATE_CLOCKS clocks.
 *   bus_clk  register clock, 66.67 MHz (15 ns exactly), from the ideal host
 *            clock: host time, GPS time and simulation time are the same
 *            "true time" here.
 * Time is kept internally as an integer in units of 2^-32 ns (128 bits), so
 * edge times carry no rounding drift however long a run is.
 *
 * The ways in are the register port (card_read32 / card_write32, the same
 * shape as struct spx_os_ops of the driver core; offsets in the doorbell
 * window 0x800..0xFFF are doorbells, see card_doorbell), the DMA port
 * (served by a callback standing for the PCI initiator and host memory),
 * the card interrupt lines (a callback per raise) and the card's pins:
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

/*
 * Doorbell (the MSI of the device pointed at slot `slot`): the memory write
 * to BAR0 RSV_DOORBELLS_BASE + slot * RSV_DOORBELLS_STRIDE whose data phase
 * completes at the next bus clock edge; db_valid is high in the clock after
 * that edge (pci_target's DB_LATENCY = 1, docs/pci.md). Runs the card to
 * that edge. card_write32 to a doorbell offset does the same; a write in
 * the window that is no built doorbell (slot >= n_slots, or not the first
 * word of its 16-byte line) is ignored and counted (card_bad_doorbells),
 * reads of the window return 0 after one bus clock, as pci_target does.
 */
void card_doorbell(struct card *c, unsigned slot, uint32_t data);
uint64_t card_bad_doorbells(const struct card *c);
/* Number of MSI capture slots of the model (msi_slots.info.n_slots). */
unsigned card_n_slots(const struct card *c);

/*
 * DMA port (docs/card-internals.md section 3): the model stands for the PCI
 * initiator and everything behind it. Each request of the capture unit
 * becomes one call of the callback, at the card time of its bus transfer:
 * write = 1: n words to write at byte address addr; write = 0: fill n words
 * from addr. The callback returns one of CARD_DMA_* (the dma_err code).
 * Without a callback every request ends in master abort (nothing on the
 * bus answers).
 *
 * Fixed latencies, in bus clocks counted from clock to clock (a real
 * initiator's vary with arbitration, retries and the bridge; these are
 * typical for a PCI host bridge):
 *   - dma_ready high in the clock after the first clock with dma_valid (a
 *     registered responder);
 *   - write: dma_wd_ready high in the dma_len clocks right after the ready
 *     clock (the initiator's burst buffer); the callback (the bus write)
 *     CARD_DMA_LATENCY_CLKS after the last of them;
 *   - read: the first dma_rd_valid CARD_DMA_LATENCY_CLKS after the ready
 *     clock (the callback in the clock before), then one word per clock;
 *     none after an error;
 *   - dma_done (with dma_err) CARD_DMA_DONE_CLKS after the last data phase
 *     (the callback's clock for writes and failed reads, the last
 *     dma_rd_valid for reads), close to pci_initiator, whose dma_done follows
 *     the fourth edge after the last data phase.
 */
#define CARD_DMA_LATENCY_CLKS 8
#define CARD_DMA_DONE_CLKS 4
#define CARD_DMA_OK 0
#define CARD_DMA_MASTER_ABORT 1
#define CARD_DMA_TARGET_ABORT 2
#define CARD_DMA_PARITY 3
typedef int (*card_dma_fn)(void *ctx, int write, uint64_t addr, uint32_t *words,
			   unsigned n);
void card_set_dma(struct card *c, card_dma_fn fn, void *ctx);
/* DMA requests served since card_new (for tests and speed figures). */
uint64_t card_dma_requests(const struct card *c);

/*
 * Card interrupt: called once per irq_raise pulse of the capture unit
 * (slot = the slot's MSI vector), at the card time of the pulse, which is
 * after the dma_done of the stamp writes it announces. The MSI writer of
 * pci_interface would now write the MSI (or assert INTA#).
 */
typedef void (*card_irq_fn)(void *ctx, unsigned slot);
void card_set_irq(struct card *c, card_irq_fn fn, void *ctx);
/* irq_pending of the capture unit now: bit i = slot i has a request held
 * back by masking or moderation. */
uint32_t card_irq_pending(const struct card *c);
/* The card's INTx level now (irq_intx of the capture unit): some slot was
 * raised and its irq.status bit is neither cleared by the driver nor
 * masked. pci_interface drives INTA# from it while MSI is off. It rises
 * only with a raise (the card_irq_fn call sees it high) and falls only
 * through a register write (irq.status, irq.mask) or a reset. */
int card_irq_line(const struct card *c);

/* Let true time run (the register port idle). */
void card_run_until(struct card *c, double t_ns);
void card_run_for(struct card *c, double dt_ns);
double card_now_ns(const struct card *c);
/*
 * True time of the next bus clock edge, the one a card_doorbell or register
 * access issued now completes at (tests schedule pin edges against it).
 */
double card_next_bus_edge_ns(const struct card *c);

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
/*
 * The card's clock now: the timebase's time_ns as the capture unit sees it
 * (a doorbell latched in this tb clock would carry it, before the capture
 * path's latency). Read from the model's port, no register access: the
 * card does not run. For mapping a simulator's time onto card time.
 */
uint64_t card_time_ns(const struct card *c);

#ifdef __cplusplus
}
#endif

#endif /* CARD_SIM_H */
