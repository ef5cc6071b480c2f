/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_bridge.h"

/* ---- host memory ---------------------------------------------------------- */

void host_mem_init(struct host_mem *m)
{
	memset(m, 0, sizeof(*m));
}

void host_mem_free(struct host_mem *m)
{
	for (int i = 0; i < 1024; i++) {
		if (!m->page[i])
			continue;
		for (int j = 0; j < 1024; j++)
			free(m->page[i][j]);
		free(m->page[i]);
	}
	memset(m, 0, sizeof(*m));
}

static uint8_t *mem_page(struct host_mem *m, uint32_t addr, bool create)
{
	uint32_t i = addr >> 22, j = (addr >> 12) & 1023;

	if (!m->page[i]) {
		if (!create)
			return NULL;
		m->page[i] = calloc(1024, sizeof(uint8_t *));
		if (!m->page[i]) {
			fprintf(stderr, "host_mem: out of memory\n");
			exit(2);
		}
	}
	if (!m->page[i][j] && create) {
		m->page[i][j] = calloc(1, 4096);
		if (!m->page[i][j]) {
			fprintf(stderr, "host_mem: out of memory\n");
			exit(2);
		}
		m->pages++;
	}
	return m->page[i][j];
}

uint32_t host_mem_read32(struct host_mem *m, uint32_t addr)
{
	uint8_t *p = mem_page(m, addr, false);
	uint32_t v;

	if (!p)
		return 0;
	memcpy(&v, p + (addr & 0xFFC), 4);
	return v;
}

void host_mem_write32(struct host_mem *m, uint32_t addr, uint32_t v, uint8_t be_n)
{
	uint8_t *p = mem_page(m, addr, true) + (addr & 0xFFC);

	for (int b = 0; b < 4; b++)
		if (!((be_n >> b) & 1))
			p[b] = (uint8_t)(v >> (8 * b));
}

void host_mem_read(struct host_mem *m, uint32_t addr, void *dst, size_t n)
{
	uint8_t *d = dst;

	while (n) {
		size_t chunk = 4096 - (addr & 4095);
		uint8_t *p = mem_page(m, addr, false);

		if (chunk > n)
			chunk = n;
		if (p)
			memcpy(d, p + (addr & 4095), chunk);
		else
			memset(d, 0, chunk);
		d += chunk;
		addr += (uint32_t)chunk;
		n -= chunk;
	}
}

/* ---- target side: DMA into host memory, MSI window ------------------------ */

static bool hb_claim(void *ctx, unsigned cmd, uint32_t addr, bool idsel)
{
	struct host_bridge *hb = ctx;

	(void)idsel;
	if (!pci_cmd_is_mem(cmd))
		return false;
	if ((addr & HB_MSI_MASK) == HB_MSI_BASE)
		return !pci_cmd_is_read(cmd);
	return addr < hb->mem_top;
}

static uint32_t hb_read(void *ctx, unsigned cmd, uint32_t addr, uint8_t be_n)
{
	struct host_bridge *hb = ctx;

	(void)cmd;
	(void)be_n;
	hb->dma_read_words++;
	return host_mem_read32(&hb->mem, addr);
}

static void hb_write(void *ctx, unsigned cmd, uint32_t addr, uint32_t data, uint8_t be_n)
{
	struct host_bridge *hb = ctx;

	(void)cmd;
	if ((addr & HB_MSI_MASK) == HB_MSI_BASE) {
		if (hb->n_msi == hb->cap_msi) {
			hb->cap_msi = hb->cap_msi ? 2 * hb->cap_msi : 1024;
			hb->msi = realloc(hb->msi, hb->cap_msi * sizeof(*hb->msi));
			if (!hb->msi) {
				fprintf(stderr, "host_bridge: out of memory\n");
				exit(2);
			}
		}
		/* the clock this data phase completed in (sim->clk is the last
		 * resolved clock, the one the target sampled) */
		hb->msi[hb->n_msi++] = (struct hb_msi){ hb->sim->clk, addr, data };
		return;
	}
	hb->dma_write_words++;
	host_mem_write32(&hb->mem, addr, data, be_n);
}

/* ---- master side: the CPU's accesses --------------------------------------- */

static void hb_step(void *ctx, const struct pci_sig *in, struct pci_drive *out)
{
	struct host_bridge *hb = ctx;
	struct pci_drive td;

	if (!hb->running && hb->q_head != hb->q_tail) {
		struct hb_op *op = &hb->q[hb->q_head % HB_QUEUE];

		op->clk_start = hb->sim->clk;
		pci_master_start(&hb->m, op->cmd, op->addr, op->be_n, &op->data, 1);
		hb->running = true;
	}
	pci_master_step(&hb->m, in, out);
	if (hb->running && !hb->m.busy) {
		struct hb_op *op = &hb->q[hb->q_head % HB_QUEUE];

		op->result = hb->m.result;
		op->retries = hb->m.attempt_retries;
		op->clk_done = hb->sim->clk;
		hb->q_head++;
		hb->ops_done++;
		hb->running = false;
	}
	memset(&td, 0, sizeof(td));
	pci_drive_none(&td);
	pci_target_step(&hb->t, in, &td);
	pci_drive_merge(out, &td);
}

int host_bridge_init(struct host_bridge *hb, struct pci_sim *sim, uint32_t mem_top,
		     const struct pci_target_policy *pol, uint64_t seed)
{
	static const struct pci_target_ops ops = { hb_claim, hb_read, hb_write };

	memset(hb, 0, sizeof(*hb));
	hb->sim = sim;
	hb->mem_top = mem_top;
	host_mem_init(&hb->mem);
	hb->agent = pci_sim_add(sim, "host_bridge", hb_step, hb);
	if (hb->agent != 0)
		return -1;
	pci_master_init(&hb->m, hb->agent, true);
	pci_target_init(&hb->t, hb->agent, -1, &ops, hb, pol, seed);
	return 0;
}

void host_bridge_free(struct host_bridge *hb)
{
	host_mem_free(&hb->mem);
	free(hb->msi);
	hb->msi = NULL;
}

bool hb_queue_full(const struct host_bridge *hb)
{
	return hb->q_tail - hb->q_head >= HB_QUEUE;
}

uint64_t hb_submit(struct host_bridge *hb, unsigned cmd, uint32_t addr, uint8_t be_n,
		   uint32_t data)
{
	if (hb_queue_full(hb)) {
		fprintf(stderr, "host_bridge: access queue full\n");
		exit(2);
	}
	struct hb_op *op = &hb->q[hb->q_tail % HB_QUEUE];

	memset(op, 0, sizeof(*op));
	op->cmd = cmd;
	op->addr = addr;
	op->be_n = be_n & 0xF;
	op->data = data;
	return hb->q_tail++;
}

bool hb_done(const struct host_bridge *hb, uint64_t ticket)
{
	return ticket < hb->q_head;
}

const struct hb_op *hb_op_get(const struct host_bridge *hb, uint64_t ticket)
{
	/* valid until HB_QUEUE later submissions reuse the slot */
	return &hb->q[ticket % HB_QUEUE];
}

enum pci_result hb_last_result(const struct host_bridge *hb)
{
	return hb->last_result;
}

static uint32_t hb_wait(struct host_bridge *hb, uint64_t ticket)
{
	uint64_t limit = hb->sim->clk + 1000000;

	while (!hb_done(hb, ticket)) {
		if (hb->sim->clk > limit) {
			fprintf(stderr, "host_bridge: access %llu not done after 10^6 clocks (hung bus)\n",
				(unsigned long long)ticket);
			exit(2);
		}
		pci_sim_step(hb->sim);
	}
	hb->last_result = hb_op_get(hb, ticket)->result;
	return hb_op_get(hb, ticket)->data;
}

static uint8_t be_for(int off, int size)
{
	unsigned lanes = size == 1 ? 1u : size == 2 ? 3u : 15u;

	return (uint8_t)(~(lanes << (off & 3)) & 0xF);
}

static uint32_t cfg_addr(int dev, int fn, int off)
{
	return (1u << (16 + dev)) | ((uint32_t)(fn & 7) << 8) | ((uint32_t)off & 0xFC);
}

uint32_t hb_cfg_read(struct host_bridge *hb, int dev, int fn, int off, int size)
{
	uint32_t v = hb_wait(hb, hb_submit(hb, PCI_CMD_CFG_READ, cfg_addr(dev, fn, off),
					  be_for(off, size), 0));

	v >>= 8 * (off & 3);
	return size == 4 ? v : v & ((1u << (8 * size)) - 1);
}

void hb_cfg_write(struct host_bridge *hb, int dev, int fn, int off, int size, uint32_t v)
{
	hb_wait(hb, hb_submit(hb, PCI_CMD_CFG_WRITE, cfg_addr(dev, fn, off), be_for(off, size),
			      v << (8 * (off & 3))));
}

uint32_t hb_mem_read32(struct host_bridge *hb, uint32_t addr)
{
	return hb_wait(hb, hb_submit(hb, PCI_CMD_MEM_READ, addr, 0, 0));
}

void hb_mem_write32(struct host_bridge *hb, uint32_t addr, uint32_t v)
{
	hb_wait(hb, hb_submit(hb, PCI_CMD_MEM_WRITE, addr, 0, v));
}

void hb_run(struct host_bridge *hb, uint64_t clocks)
{
	for (uint64_t i = 0; i < clocks; i++)
		pci_sim_step(hb->sim);
}
