/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stamping rig: the world of sim/pcibus (host bridge, arbiter,
 * checker, the card, an e1000-like NIC) set up the way the product runs
 * it, shared by the test suite (tests/pcibus/pcibus_tests.c) and the demo
 * (sim/pcibus/stamp_demo.c) so both measure the same thing:
 *
 *  - world_*: reset, Linux enumeration, card register access;
 *  - calibrate_card_time: card time - true time through event input 0;
 *  - program_slot: slot STAMP_SLOT pointed at the NIC's RX ring, as the
 *    driver's slot API does;
 *  - the stamp driver: a per-clock model of the patched e1000's receive
 *    path, woken by the card's MSI after a modelled interrupt latency,
 *    taking every descriptor that has DD and a stamp, decoding and
 *    refining its stamp with the driver core (spx_stamp_decode,
 *    spx_stamp_refine: what the driver would hand to the socket);
 *  - stamp_rig_run: all of the above, msi_redirect's MSI address, traffic
 *    at a rate, with a bus monitor logging every transaction.
 *
 * Judging the result (checks, statistics, files) is the caller's job.
 */
#ifndef STAMP_RIG_H
#define STAMP_RIG_H

#include <stdbool.h>
#include <stdint.h>

#include "pci_bus.h"
#include "pci_arbiter.h"
#include "pci_checker.h"
#include "pci_monitor.h"
#include "host_bridge.h"
#include "enumerate.h"
#include "nic_e1000.h"
#include "card_agent.h"
#include "pci_rng.h"
#include "synpcix_slot.h"   /* driver core: stamp decoding and refinement */

#define CARD_DEV 3
#define NIC_DEV 5
#define MMIO_BASE 0xE0000000u
#define MSI_ADDR 0xFEE00000u
#define RING_BASE 0x00100000u
#define BUF_BASE 0x00200000u
#define BUF_SIZE 2048u

struct world {
	struct pci_sim sim;
	struct pci_arbiter arb;
	struct pci_checker chk;
	struct host_bridge hb;
	struct nic_e1000 nic;
	struct card_agent *card;
	bool has_card, has_nic;
	struct pci_dev_info devs[8];
	int n_devs;
	struct pci_dev_info *card_dev, *nic_dev;
	/* set-up steps that went wrong (calibration, slot programming) */
	unsigned problems;
	char problem[200];
};

extern bool rig_quiet;   /* set-up prints nothing (calibration result) */
extern const struct pci_target_policy rig_quiet_bridge;   /* 2 clocks DEVSEL, no waits */
extern const struct pci_target_policy rig_fast_bridge;    /* 1 clock DEVSEL, no waits */
extern const struct pci_target_policy rig_nic_regs;

void world_init(struct world *w, bool card, bool nic, const struct pci_target_policy *hb_pol,
		uint64_t seed);
void world_free(struct world *w);
void world_enumerate(struct world *w);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void world_problem(struct world *w, const char *fmt, ...);

/* card register access through BAR0 */
void card_wr(struct world *w, uint32_t off, uint32_t v);
uint32_t card_rd(struct world *w, uint32_t off);

/* ---- stamping ----------------------------------------------------------- */

#define STAMP_SLOT 2
#define E1000_ICR_TXDW 0x01u   /* transmit descriptor written back (SDM 13.4.17) */
#define STAMP_MARKER 0x2Du     /* bits 63..58 */
#define GUARD 4096u
#define GUARD_WORD(a) (0xC0DE0000u ^ (a))

/* off = card time - true time, through event input 0 */
double calibrate_card_time(struct world *w);
/* slot STAMP_SLOT for the NIC's RX ring; settle < 0 keeps its reset value */
void program_slot(struct world *w, uint32_t ring_n, bool cause_en, int settle);

struct slot_counters {
	uint32_t captures, stamped, batched, empty, overflow, dma_errors, cause_acc, ambiguous;
};
struct slot_counters read_slot(struct world *w);
bool rig_head_en(void);   /* STAMP_HEAD=0 turns pairing by count off */

void fill_guard(struct host_mem *m, uint32_t ring_n);
/* guard words changed; *first: the first changed address */
uint32_t check_guard(struct host_mem *m, uint32_t ring_n, uint32_t *first);

struct stamp_rec {
	uint64_t seq;          /* packet (from its payload) */
	uint64_t card_ns;      /* 48-bit stamp, extended */
	double true_ns;        /* card_ns - off */
	bool batched;
	uint32_t desc;
	double isr_ns;         /* when the driver model took it (interrupt time) */
	/* what the driver hands to the socket: card_ns refined by the driver
	 * core (spx_stamp_refine: ingress latency, batched-stamp bound) */
	uint64_t refined_ns;
	double refined_true_ns;  /* refined_ns - off */
	bool bounded;            /* the wire-time bound raised it */
};

/*
 * When the driver runs after the card's MSI reaches the host bridge:
 *  LAT_UNIFORM: latency_ns + jitter_ns * U[0,1) (the suite's model);
 *  LAT_THESIS:  the interrupt-to-software-stamp latency of a Linux host
 *               with an e1000, modelled from the thesis's Table 5.7
 *               (stamp_rig.c, isr_latency_thesis, says how).
 */
enum isr_lat_model { LAT_UNIFORM, LAT_THESIS };

struct stamp_driver {
	struct world *w;
	uint32_t bar, card_bar, ring_n, next;
	enum isr_lat_model lat_model;
	double latency_ns, jitter_ns;
	struct pci_rng rng;
	size_t msi_seen;
	int state;
	double t_due;
	uint64_t delivered, bad;
	uint64_t last_seq;     /* payload sequence of the packet taken last */
	char first_bad[200];
	struct stamp_rec *st;
	size_t n_st, cap_st;
	uint64_t wakeups, empty_wakeups;
	double off;            /* card ns - true ns */
	double now_ns;
	/* stamp refinement, as the patched e1000 does it per RX ring: the
	 * slot's ingress latency (sysfs) and the ring's chain */
	struct spx_ingress ingress;
	struct spx_rx_chain chain;
	uint32_t link_mbps;    /* from the NIC's STATUS.SPEED at set-up */
	uint64_t bounded;      /* stamps the wire-time bound raised */
};

double isr_latency_thesis(struct pci_rng *r);

struct stamp_run {
	double rate;
	uint64_t n_pkts;
	uint32_t ring_n;
	const struct pci_target_policy *bridge;
	enum isr_lat_model lat_model;
	double latency_ns, jitter_ns;   /* LAT_UNIFORM */
	double tx_msi_every_ns;  /* host doorbell writes as TX/link MSIs; 0: none */
	uint64_t seed;
	int settle;              /* msi_slots.settle; < 0: reset value */
	uint32_t pkt_len;        /* bytes without FCS (60: 64-byte frames) */
};

/* The slot's ingress latency the driver model refines with, as a user
 * sets it in sysfs (slotN/ingress_latency_ns, _ps_per_byte): per slot,
 * not per run, like the driver's. Zero (the default): uncorrected. */
extern struct spx_ingress rig_ingress;

struct stamp_rig {
	struct world w;
	struct stamp_driver d;
	struct pci_monitor mon;
	uint32_t door;           /* the slot's doorbell (bus address) */
	uint32_t nic_bar;
	int card_agent;          /* bus agent index of the card */
	uint64_t c0, run_clocks; /* traffic started at clock c0, lasted run_clocks */
	uint64_t tx_sent;        /* TX-style ICS writes */
	double wall_s;           /* wall-clock time of the traffic */
};

/* Set up and run the traffic until every packet is taken or the time
 * limit (twice the traffic's duration + 3 ms) passes. Returns 0, or -1
 * when enumeration failed (nothing to free then). r is large: allocate it. */
int stamp_rig_run(struct stamp_rig *r, const struct stamp_run *cfg);
void stamp_rig_free(struct stamp_rig *r);

#endif /* STAMP_RIG_H */
