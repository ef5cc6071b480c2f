/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host bridge: the CPU's side of the PCI bus.
 *
 * As a master (agent 0, the arbiter parks on it) it runs the CPU's
 * accesses one after another: type-0 configuration cycles (device d's
 * IDSEL is AD[16 + d], so d = 0..15; function in AD[10:8]) and single-dword
 * memory reads and writes, each repeated after a retry until it completes
 * (a retried read is a delayed transaction on the card; the bridge simply
 * repeats it, PCI 2.3 3.3.3.3). A configuration read nobody claims ends in
 * master abort and returns all ones, as Linux expects of an empty slot.
 *
 * As a target it is host memory for bus masters' DMA: addresses below
 * mem_top are RAM (host_mem, sparse 4 KiB pages, zero when never written),
 * 0xFEE00000..0xFEEFFFFF is the MSI window (x86 style: writes there are
 * interrupt messages, logged with their clock). Its behaviour as a target
 * is random but seeded: initial and per-word wait states, retries and
 * disconnects (struct pci_target_policy).
 */
#ifndef HOST_BRIDGE_H
#define HOST_BRIDGE_H

#include <stdint.h>
#include <stddef.h>

#include "pci_bus.h"

#define HB_MSI_BASE 0xFEE00000u
#define HB_MSI_MASK 0xFFF00000u
#define HB_QUEUE 64

struct host_mem {
	uint8_t **page[1024];   /* two-level table over the 32-bit space */
	size_t pages;
};

void host_mem_init(struct host_mem *m);
void host_mem_free(struct host_mem *m);
uint32_t host_mem_read32(struct host_mem *m, uint32_t addr);
void host_mem_write32(struct host_mem *m, uint32_t addr, uint32_t v, uint8_t be_n);
void host_mem_read(struct host_mem *m, uint32_t addr, void *dst, size_t n);

struct hb_op {
	unsigned cmd;
	uint32_t addr;
	uint8_t be_n;
	uint32_t data;
	enum pci_result result;
	int retries;
	uint64_t clk_start, clk_done;
};

struct hb_msi {
	uint64_t clk;
	uint32_t addr, data;
};

struct host_bridge {
	struct pci_sim *sim;
	int agent;
	struct pci_master m;
	struct pci_target t;
	struct host_mem mem;
	uint32_t mem_top;
	/* CPU access queue, run in order */
	struct hb_op q[HB_QUEUE];
	uint64_t q_head, q_tail;   /* head: next to start; tail: next free */
	bool running;
	uint64_t ops_done;
	/* MSI log */
	struct hb_msi *msi;
	size_t n_msi, cap_msi;
	uint64_t dma_read_words, dma_write_words;
	enum pci_result last_result;   /* of the last blocking access */
};

/* Create on sim as agent 0 (call before adding other agents). */
int host_bridge_init(struct host_bridge *hb, struct pci_sim *sim, uint32_t mem_top,
		     const struct pci_target_policy *pol, uint64_t seed);
void host_bridge_free(struct host_bridge *hb);

/* Non-blocking: queue an access, returns its ticket (index for hb_op_get). */
uint64_t hb_submit(struct host_bridge *hb, unsigned cmd, uint32_t addr, uint8_t be_n,
		   uint32_t data);
bool hb_done(const struct host_bridge *hb, uint64_t ticket);
const struct hb_op *hb_op_get(const struct host_bridge *hb, uint64_t ticket);
bool hb_queue_full(const struct host_bridge *hb);

/* Blocking accesses: run the simulation until done. Exit the program with
 * a message if one does not complete in 10^6 clocks (a hung bus). */
uint32_t hb_cfg_read(struct host_bridge *hb, int dev, int fn, int off, int size);
void hb_cfg_write(struct host_bridge *hb, int dev, int fn, int off, int size, uint32_t v);
uint32_t hb_mem_read32(struct host_bridge *hb, uint32_t addr);
void hb_mem_write32(struct host_bridge *hb, uint32_t addr, uint32_t v);
/* Last blocking access's result (master abort etc.). */
enum pci_result hb_last_result(const struct host_bridge *hb);
void hb_run(struct host_bridge *hb, uint64_t clocks);

#endif /* HOST_BRIDGE_H */
