/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A conventional PCI bus (32 bit, one bus segment), clock-accurate at the
 * signal level, and the two engines every agent model is built from.
 *
 * Timing model (one call of pci_sim_step per PCI clock):
 *   - struct pci_sig holds the bus as resolved during clock k-1, i.e. what
 *     every agent samples at the rising edge that starts clock k;
 *   - each agent's step function sees that and fills its struct pci_drive
 *     for clock k (outputs from flip-flops, as in a real PCI agent);
 *   - the resolver merges the drives into the new pci_sig: a line no agent
 *     drives is pulled up (reads 1; AD reads all ones, as the central
 *     resource's keepers are not modelled), an open-drain line (SERR#,
 *     INTA#) is low when anyone asserts it, and a tristate line with two
 *     drivers is flagged (driver id PCI_DRV_MANY) for the checker;
 *   - the arbiter computes GNT# from REQ# of clock k-1 like any agent;
 *   - the checker then judges clock k against clock k-1.
 * Active-low lines are stored as their electrical level (0 = asserted).
 */
#ifndef PCI_BUS_H
#define PCI_BUS_H

#include <stdint.h>
#include <stdbool.h>

#include "pci_rng.h"

#define PCI_MAX_AGENTS 8
/* The PCI clock period in ns: 15 (66.67 MHz, the card's bus clock) unless
 * a program sets pci_period_ns (30: 33.33 MHz) before it builds a world;
 * every model, the card's glue included, reads it at set-up and per clock. */
#ifdef __cplusplus
extern "C" {
#endif
extern double pci_period_ns;
#ifdef __cplusplus
}
#endif
#define PCI_PERIOD_NS (pci_period_ns)

/* PCI 2.3 table 3-1 bus commands (C/BE# in the address phase) */
#define PCI_CMD_MEM_READ   0x6
#define PCI_CMD_MEM_WRITE  0x7
#define PCI_CMD_CFG_READ   0xA
#define PCI_CMD_CFG_WRITE  0xB
#define PCI_CMD_MEM_READ_M 0xC
#define PCI_CMD_MEM_READ_L 0xE
#define PCI_CMD_MEM_WRITE_INV 0xF

static inline bool pci_cmd_is_read(unsigned cmd)
{
	return cmd == PCI_CMD_MEM_READ || cmd == PCI_CMD_MEM_READ_M ||
	       cmd == PCI_CMD_MEM_READ_L || cmd == PCI_CMD_CFG_READ;
}

static inline bool pci_cmd_is_mem(unsigned cmd)
{
	return cmd == PCI_CMD_MEM_READ || cmd == PCI_CMD_MEM_WRITE ||
	       cmd == PCI_CMD_MEM_READ_M || cmd == PCI_CMD_MEM_READ_L ||
	       cmd == PCI_CMD_MEM_WRITE_INV;
}

/* Shared lines, one bit each in pci_drive.oe */
enum pci_line {
	PCI_AD, PCI_CBE, PCI_PAR, PCI_FRAME, PCI_IRDY, PCI_TRDY, PCI_DEVSEL,
	PCI_STOP, PCI_PERR, PCI_SERR, PCI_INTA, PCI_NLINES
};
extern const char *const pci_line_name[PCI_NLINES];

#define PCI_DRV_NONE (-1)
#define PCI_DRV_MANY (-2)

/* What one agent drives in one clock. Bit L of oe: the agent drives line L. */
struct pci_drive {
	uint32_t oe;
	uint32_t ad;
	uint8_t cbe;
	uint8_t par, frame, irdy, trdy, devsel, stop, perr;
	uint8_t req_n;   /* point to point to the arbiter, always driven */
};

/* The bus as resolved in one clock. */
struct pci_sig {
	uint32_t ad;
	uint8_t cbe;
	uint8_t par, frame, irdy, trdy, devsel, stop, perr, serr, inta;
	int8_t drv[PCI_NLINES];   /* agent driving the line, or PCI_DRV_* */
	uint8_t req_n_mask;       /* bit a: REQ# of agent a (1 = deasserted) */
	uint8_t gnt_n_mask;       /* bit a: GNT# of agent a (1 = deasserted) */
};

static inline bool pci_gnt(const struct pci_sig *s, int agent)
{
	return !((s->gnt_n_mask >> agent) & 1);
}

static inline bool pci_idle(const struct pci_sig *s)
{
	return s->frame && s->irdy;
}

/* Even parity over AD and C/BE#: PAR makes the count of ones even. */
static inline uint8_t pci_parity(uint32_t ad, uint8_t cbe)
{
	uint32_t x = ad ^ ((uint32_t)cbe & 0xF);

	x ^= x >> 16;
	x ^= x >> 8;
	x ^= x >> 4;
	x ^= x >> 2;
	x ^= x >> 1;
	return x & 1;
}

static inline void pci_drive_none(struct pci_drive *d)
{
	d->oe = 0;
	d->req_n = 1;
}

/* Drive a line: d->oe |= bit, value set by the caller. */
#define PCI_OE(l) (1u << (l))

/* Reset the resolved state to an idle, undriven bus. */
void pci_sig_idle(struct pci_sig *s);
/* Resolve n drives into s (req/gnt masks: req from drives, gnt kept). */
void pci_resolve(struct pci_sig *s, const struct pci_drive *d, int n);

/* ---- master engine: one burst request at a time ---------------------- */

enum pci_result { PCI_OK = 0, PCI_MASTER_ABORT = 1, PCI_TARGET_ABORT = 2 };

struct pci_master {
	int agent;            /* REQ#/GNT# index and driver id */
	bool parks;           /* drives AD/C/BE#/PAR when parked (the bridge) */
	uint8_t latency_timer; /* clocks (PCI 2.3 3.5.4), 0: no limit */
	/* request */
	bool busy;
	unsigned cmd;
	uint32_t addr;        /* byte address of word 0 (config: with IDSEL bit) */
	uint8_t be_n;         /* C/BE# in data phases */
	int n;                /* words */
	uint32_t *data;       /* write source / read destination, n words */
	int done;             /* words transferred */
	enum pci_result result;
	int max_retries;      /* 0: unlimited */
	/* state */
	int st;
	int clk_in_txn;       /* clocks since the address phase */
	bool devsel_seen;
	bool last;            /* our FRAME# is deasserted: last data phase */
	bool drove_ad;        /* drove AD last clock: PAR due now */
	int backoff;          /* clocks REQ# stays released after a retry */
	int fault;            /* PCI_MFAULT_* (checker tests) */
	bool fault_done;
	int attempt_retries;
	/* statistics */
	uint64_t transactions, retries, disconnects, master_aborts, words;
};

void pci_master_init(struct pci_master *m, int agent, bool parks);
/* Start a request; the master must be idle (!m->busy). */
void pci_master_start(struct pci_master *m, unsigned cmd, uint32_t addr,
		      uint8_t be_n, uint32_t *data, int n);
void pci_master_step(struct pci_master *m, const struct pci_sig *in,
		     struct pci_drive *out);

/* ---- target engine ----------------------------------------------------- */

struct pci_target_ops {
	/* Decode an address phase; return true to claim it. */
	bool (*claim)(void *ctx, unsigned cmd, uint32_t addr, bool idsel);
	/* Data phases (addr of this word; be_n as on the bus). */
	uint32_t (*read)(void *ctx, unsigned cmd, uint32_t addr, uint8_t be_n);
	void (*write)(void *ctx, unsigned cmd, uint32_t addr, uint32_t data, uint8_t be_n);
};

struct pci_target_policy {
	int devsel;           /* 1 fast, 2 medium, 3 slow */
	int max_initial_wait; /* extra clocks before the first TRDY#, uniform 0..max */
	int max_wait;         /* extra clocks before later TRDY#s */
	unsigned retry_pct;   /* % of transactions retried (STOP# without data) */
	unsigned disc_pct;    /* % of data phases ending the burst (TRDY# + STOP#) */
	bool single_word;     /* every transaction disconnects with its first word */
	int fault;            /* PCI_TFAULT_*: deliberate protocol errors (checker tests) */
};

/* Deliberate errors, to show the checker catches a live agent breaking a rule. */
enum {
	PCI_TFAULT_NONE,
	PCI_TFAULT_BAD_PAR,      /* PAR of read data inverted */
	PCI_TFAULT_NO_HIGH,      /* TRDY#/DEVSEL#/STOP# released without the high clock */
	PCI_TFAULT_LATE_DEVSEL,  /* DEVSEL# (and data) from the fifth clock on */
};
enum {
	PCI_MFAULT_NONE,
	PCI_MFAULT_IRDY_EARLY,   /* IRDY# dropped once while a data phase waits */
	PCI_MFAULT_NO_TURN,      /* AD still driven in a read's turnaround clock */
};

struct pci_target {
	int agent;
	int idsel_bit;        /* AD line wired to our IDSEL, -1: none */
	struct pci_target_ops ops;
	void *ctx;
	struct pci_target_policy pol;
	struct pci_rng rng;
	/* state */
	int st;
	unsigned cmd;
	uint32_t addr;
	int clk_in_txn, wait, words;
	bool frame_prev;      /* FRAME# in the clock before `in` */
	bool drove_ad;
	bool stopping;
	uint32_t rdata;
	/* statistics */
	uint64_t claims, retries, disconnects, words_total, wait_clocks;
};

void pci_target_init(struct pci_target *t, int agent, int idsel_bit,
		     const struct pci_target_ops *ops, void *ctx,
		     const struct pci_target_policy *pol, uint64_t seed);
void pci_target_step(struct pci_target *t, const struct pci_sig *in,
		     struct pci_drive *out);

/* Merge b into a (an agent with a master and a target side). Lines are
 * driven by one side at a time; both driving one is a model bug. */
void pci_drive_merge(struct pci_drive *a, const struct pci_drive *b);

/* ---- the simulation: agents, arbiter, checker -------------------------- */

typedef void (*pci_step_fn)(void *ctx, const struct pci_sig *in, struct pci_drive *out);
typedef void (*pci_hook_fn)(void *ctx, uint64_t clk);

struct pci_checker;
struct pci_arbiter;

struct pci_sim {
	struct pci_sig sig;
	uint64_t clk;
	int n;
	const char *name[PCI_MAX_AGENTS];
	pci_step_fn step[PCI_MAX_AGENTS];
	void *ctx[PCI_MAX_AGENTS];
	struct pci_drive drv[PCI_MAX_AGENTS];
	struct pci_arbiter *arb;
	struct pci_checker *chk;
	/* called once per clock before the agents (software models) */
	pci_hook_fn hook[4];
	void *hook_ctx[4];
	int n_hooks;
};

void pci_sim_init(struct pci_sim *s, struct pci_arbiter *arb, struct pci_checker *chk);
int pci_sim_add(struct pci_sim *s, const char *name, pci_step_fn fn, void *ctx);
void pci_sim_add_hook(struct pci_sim *s, pci_hook_fn fn, void *ctx);
void pci_sim_step(struct pci_sim *s);
static inline double pci_sim_ns(const struct pci_sim *s)
{
	return (double)s->clk * PCI_PERIOD_NS;
}

#endif /* PCI_BUS_H */
