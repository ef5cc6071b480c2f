/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000-like NIC (82546GB receive path) on the PCI bus; what is modelled
 * and from which part of the 8254x SDM is listed in nic_e1000.h.
 *
 * DMA order per packet: [descriptor fetch when the cache is empty] ->
 * packet data -> descriptor write-back -> RDH++ and ICR.RXT0 -> MSI if
 * that made (ICR & IMS) rise. The master runs one request at a time, so
 * the MSI reaches the bus after the write-back, as PCI's posted-write
 * ordering makes it reach host memory after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic_e1000.h"

enum { D_IDLE, D_FETCH, D_DATA, D_WB, D_MSI };

#define CMD_MEM 0x2
#define CMD_MASTER 0x4
#define CMD_RW_BITS 0x0546   /* memory, master, parity resp, SERR#, INTx disable */
#define CAP_PM 0xDC
#define CAP_PCIX 0xE4
#define CAP_MSI 0xF0

uint8_t nic_pkt_byte(uint64_t seq, uint32_t i)
{
	/* the first 8 bytes carry the sequence number, so a misplaced
	 * packet is recognised; the rest is a cheap hash of (seq, i) */
	if (i < 8)
		return (uint8_t)(seq >> (8 * i));
	uint32_t x = (uint32_t)seq * 2654435761u + i * 40503u;

	x ^= x >> 13;
	return (uint8_t)(x * 0x9E37u >> 8);
}

double nic_wire_ns(uint32_t len)
{
	/* + 4 FCS + 8 preamble/SFD + 12 inter-frame gap, 8 ns per byte */
	return (len + 4.0 + 8.0 + 12.0) * 8.0;
}

static void *grow(void *p, size_t *cap, size_t elem)
{
	*cap = *cap ? 2 * *cap : 4096;
	p = realloc(p, *cap * elem);
	if (!p) {
		fprintf(stderr, "nic_e1000: out of memory\n");
		exit(2);
	}
	return p;
}

static void irq_eval(struct nic_e1000 *n)
{
	bool level = (n->icr & n->ims) != 0;

	if (level && !n->irq_level) {
		n->rising_edges++;
		if (n->msi_ctl & 1) {
			if (n->msi_pending >= 64) {
				fprintf(stderr, "nic_e1000: more than 64 MSIs waiting for the bus\n");
				exit(2);
			}
			n->msi_edge_clk[(n->msi_q_head + n->msi_pending) % 64] = n->sim->clk;
			n->msi_edge_seq[(n->msi_q_head + n->msi_pending) % 64] = n->edge_cause;
			n->msi_pending++;
		}
	}
	n->irq_level = level;
}

/* ---- configuration space and registers (target side) -------------------- */

static uint32_t cfg_read(struct nic_e1000 *n, uint32_t reg)
{
	switch (reg) {
	case 0x00: return NIC_VENDOR | (uint32_t)NIC_DEVICE << 16;
	case 0x04: /* status: capability list, 66 MHz capable, DEVSEL medium */
		return n->command | (uint32_t)(0x0230 | n->status_rw1c) << 16;
	case 0x08: return 0x02000000u | 0x03;   /* Ethernet controller, rev 3 */
	case 0x0C: return (uint32_t)n->latency << 8;
	case 0x10: return n->bar0 | 0x4;        /* 64-bit memory, not prefetchable */
	case 0x14: return 0;
	case 0x2C: return NIC_VENDOR | (uint32_t)NIC_DEVICE << 16;
	case 0x34: return CAP_PM;
	case 0x3C: return n->int_line | 0x0100u;   /* INTA# */
	case CAP_PM: return 0x01 | CAP_PCIX << 8;
	case CAP_PCIX: return 0x07 | CAP_MSI << 8;
	case CAP_MSI: return 0x05 | (uint32_t)n->msi_ctl << 16;
	case CAP_MSI + 4: return n->msi_addr_lo;
	case CAP_MSI + 8: return n->msi_addr_hi;
	case CAP_MSI + 12: return n->msi_data;
	default: return 0;
	}
}

static void cfg_write(struct nic_e1000 *n, uint32_t reg, uint32_t v, uint8_t be_n)
{
	uint32_t mask = 0, old = cfg_read(n, reg), nv;

	for (int b = 0; b < 4; b++)
		if (!((be_n >> b) & 1))
			mask |= 0xFFu << (8 * b);
	nv = (old & ~mask) | (v & mask);
	switch (reg) {
	case 0x04:
		n->command = (uint16_t)(nv & CMD_RW_BITS);
		n->status_rw1c &= (uint16_t)~((v & mask) >> 16);   /* RW1C */
		break;
	case 0x0C: n->latency = (uint8_t)(nv >> 8); break;
	case 0x10: n->bar0 = nv & ~(NIC_BAR0_SIZE - 1); break;
	case 0x3C: n->int_line = (uint8_t)nv; break;
	case CAP_MSI:
		/* enable (bit 0) and MME (6:4, clamped to MMC = 0: one vector) */
		n->msi_ctl = (uint16_t)(0x80 | ((nv >> 16) & 1));
		irq_eval(n);
		break;
	case CAP_MSI + 4: n->msi_addr_lo = nv & ~3u; break;
	case CAP_MSI + 8: n->msi_addr_hi = nv; break;
	case CAP_MSI + 12: n->msi_data = (uint16_t)nv; break;
	default: break;
	}
}

static uint32_t reg_read(struct nic_e1000 *n, uint32_t off)
{
	uint32_t v;

	switch (off) {
	case E1000_CTRL: return n->ctrl;
	case E1000_STATUS: return 0x83;   /* full duplex, link up, 1000 Mb/s */
	case E1000_ICR:
		v = n->icr;
		n->icr = 0;   /* read to clear */
		if (v)
			n->icr_reads_nonzero++;
		irq_eval(n);
		return v;
	case E1000_IMS: return n->ims;
	case E1000_RCTL: return n->rctl;
	case E1000_RDBAL: return n->rdbal;
	case E1000_RDBAH: return n->rdbah;
	case E1000_RDLEN: return n->rdlen;
	case E1000_RDH: return n->rdh;
	case E1000_RDT: return n->rdt;
	case E1000_RDTR: return n->rdtr;
	case E1000_MPC: v = n->mpc; n->mpc = 0; return v;
	case E1000_GPRC: v = n->gprc; n->gprc = 0; return v;
	default: return 0;
	}
}

static void reg_write(struct nic_e1000 *n, uint32_t off, uint32_t v)
{
	switch (off) {
	case E1000_CTRL: n->ctrl = v; break;
	case E1000_ICS: n->icr |= v; irq_eval(n); break;
	case E1000_IMS: n->ims |= v; irq_eval(n); break;
	case E1000_IMC: n->ims &= ~v; irq_eval(n); break;
	case E1000_RCTL: n->rctl = v; break;
	case E1000_RDBAL: n->rdbal = v & ~0xFu; break;
	case E1000_RDBAH: n->rdbah = v; break;
	case E1000_RDLEN: n->rdlen = v & 0xFFF80u; n->dc_n = 0; break;
	case E1000_RDH: n->rdh = v & 0xFFFF; n->dc_n = 0; break;
	case E1000_RDT: n->rdt = v & 0xFFFF; break;
	case E1000_RDTR: n->rdtr = v & 0xFFFF; break;
	default: break;
	}
}

static bool nic_claim(void *ctx, unsigned cmd, uint32_t addr, bool idsel)
{
	struct nic_e1000 *n = ctx;

	if (cmd == PCI_CMD_CFG_READ || cmd == PCI_CMD_CFG_WRITE)
		return idsel && (addr & 3) == 0 && ((addr >> 8) & 7) == 0;
	return pci_cmd_is_mem(cmd) && (n->command & CMD_MEM) && n->bar0 &&
	       (addr & ~(NIC_BAR0_SIZE - 1)) == n->bar0;
}

static uint32_t nic_read(void *ctx, unsigned cmd, uint32_t addr, uint8_t be_n)
{
	struct nic_e1000 *n = ctx;

	(void)be_n;
	if (cmd == PCI_CMD_CFG_READ)
		return cfg_read(n, addr & 0xFC);
	return reg_read(n, addr & (NIC_BAR0_SIZE - 4));
}

static void nic_write(void *ctx, unsigned cmd, uint32_t addr, uint32_t data, uint8_t be_n)
{
	struct nic_e1000 *n = ctx;

	if (cmd == PCI_CMD_CFG_WRITE)
		cfg_write(n, addr & 0xFC, data, be_n);
	else if (be_n != 0xF)
		reg_write(n, addr & (NIC_BAR0_SIZE - 4), data);
}

/* ---- receive path (master side) ----------------------------------------- */

static void arrivals(struct nic_e1000 *n)
{
	double now = (double)(n->sim->clk + 1) * PCI_PERIOD_NS;

	while (n->seq < n->n_packets && n->next_arrival_ns <= now) {
		struct nic_pkt_rec r = { n->seq, n->next_arrival_ns, n->pkt_len, 0, 0, 0 };

		if (n->f_count < NIC_FIFO_PKTS && n->f_bytes + n->pkt_len <= NIC_FIFO_BYTES) {
			n->fifo[(n->f_head + n->f_count) % NIC_FIFO_PKTS] = n->seq;
			n->f_count++;
			n->f_bytes += n->pkt_len;
		} else {
			r.dropped = 1;
			n->mpc++;
		}
		if (n->n_rec == n->cap_rec)
			n->rec = grow(n->rec, &n->cap_rec, sizeof(*n->rec));
		n->rec[n->n_rec++] = r;
		n->seq++;
		double wire = nic_wire_ns(n->pkt_len), mean = 1e9 / n->rate_pps;

		n->next_arrival_ns += wire + (mean > wire ? pci_rng_exp(&n->rng, mean - wire) : 0.0);
	}
}

static void start_chunk(struct nic_e1000 *n)
{
	uint32_t addr = n->dcache[0] + n->pkt_off;
	uint32_t left = (n->pkt_len - n->pkt_off + 3) / 4;
	uint32_t to_page = (4096 - (addr & 4095)) / 4;
	uint32_t w = left < 16 ? left : 16;

	if (w > to_page)
		w = to_page;
	for (uint32_t k = 0; k < w; k++) {
		uint32_t v = 0;

		for (uint32_t b = 0; b < 4; b++) {
			uint32_t i = n->pkt_off + 4 * k + b;

			if (i < n->pkt_len)
				v |= (uint32_t)nic_pkt_byte(n->cur_seq, i) << (8 * b);
		}
		n->dma_buf[k] = v;
	}
	pci_master_start(&n->m, PCI_CMD_MEM_WRITE, addr, 0, n->dma_buf, (int)w);
	n->dst = D_DATA;
}

static void dma(struct nic_e1000 *n)
{
	uint32_t ring = n->rdlen / 16;

	if (n->m.busy)
		return;
	switch (n->dst) {
	case D_FETCH:
		for (int k = 0; k < n->m.n / 4; k++)
			n->dcache[n->dc_n++] = n->dma_buf[4 * k];   /* buffer address, low */
		n->dst = D_IDLE;
		break;
	case D_DATA:
		n->pkt_off += 4u * (uint32_t)n->m.n;
		if (n->pkt_off < n->pkt_len) {
			start_chunk(n);
			return;
		}
		/* write-back: length | checksum << 16, status | errors << 8 | special << 16 */
		n->dma_buf[0] = n->pkt_len & 0xFFFF;
		n->dma_buf[1] = E1000_RXD_STAT_DD | E1000_RXD_STAT_EOP;
		pci_master_start(&n->m, PCI_CMD_MEM_WRITE, n->rdbal + n->rdh * 16 + 8, 0,
				 n->dma_buf, 2);
		n->dst = D_WB;
		return;
	case D_WB: {
		struct nic_pkt_rec *r = &n->rec[n->cur_seq];

		r->desc = n->rdh;
		r->t_wb_ns = pci_sim_ns(n->sim);
		n->rdh = (n->rdh + 1) % ring;
		n->dc_n--;
		memmove(n->dcache, n->dcache + 1, sizeof(n->dcache[0]) * (size_t)n->dc_n);
		n->f_head = (n->f_head + 1) % NIC_FIFO_PKTS;
		n->f_count--;
		n->f_bytes -= n->pkt_len;
		n->gprc++;
		n->dst = D_IDLE;
		n->icr |= E1000_ICR_RXT0;   /* RDTR = 0: no receive delay timer */
		n->edge_cause = n->cur_seq;
		irq_eval(n);
		n->edge_cause = UINT64_MAX;
		break;
	}
	case D_MSI:
		if (n->n_msi == n->cap_msi)
			n->msi = grow(n->msi, &n->cap_msi, sizeof(*n->msi));
		n->msi[n->n_msi++] = (struct nic_msi_rec){ n->sim->clk, n->msi_edge_clk[n->msi_q_head],
							    n->msi_edge_seq[n->msi_q_head] };
		n->msi_q_head = (n->msi_q_head + 1) % 64;
		n->msi_pending--;
		n->dst = D_IDLE;
		break;
	default:
		break;
	}
	if (!(n->command & CMD_MASTER))
		return;
	if (n->rdbah || (n->msi_pending && n->msi_addr_hi)) {
		/* dual address cycles are not modelled: refuse, do not truncate */
		fprintf(stderr, "nic_e1000: RDBAH %08X / MSI upper address %08X: addresses above 4 GiB are not modelled\n",
			n->rdbah, n->msi_addr_hi);
		exit(2);
	}
	if (n->msi_pending && (n->msi_ctl & 1)) {
		n->dma_buf[0] = n->msi_data;
		pci_master_start(&n->m, PCI_CMD_MEM_WRITE, n->msi_addr_lo, 0, n->dma_buf, 1);
		n->dst = D_MSI;
		return;
	}
	if (!n->f_count || !(n->rctl & E1000_RCTL_EN) || !ring)
		return;
	if (n->dc_n == 0) {
		uint32_t avail = (n->rdt + ring - n->rdh) % ring;   /* RDH..RDT-1 */
		uint32_t k = avail < 4 ? avail : 4;

		if (k > ring - n->rdh)
			k = ring - n->rdh;
		if (!k)
			return;   /* ring full: the packet waits in the FIFO */
		pci_master_start(&n->m, PCI_CMD_MEM_READ_L, n->rdbal + n->rdh * 16, 0,
				 n->dma_buf, (int)(4 * k));
		n->dst = D_FETCH;
		return;
	}
	n->cur_seq = n->fifo[n->f_head];
	n->pkt_off = 0;
	start_chunk(n);
}

static void nic_step(void *ctx, const struct pci_sig *in, struct pci_drive *out)
{
	struct nic_e1000 *n = ctx;
	struct pci_drive td;

	arrivals(n);
	dma(n);
	pci_master_step(&n->m, in, out);
	memset(&td, 0, sizeof(td));
	pci_drive_none(&td);
	pci_target_step(&n->t, in, &td);
	pci_drive_merge(out, &td);
}

int nic_e1000_init(struct nic_e1000 *n, struct pci_sim *sim, int devno,
		   const struct pci_target_policy *reg_pol, uint64_t seed)
{
	static const struct pci_target_ops ops = { nic_claim, nic_read, nic_write };

	memset(n, 0, sizeof(*n));
	n->sim = sim;
	n->devno = devno;
	n->msi_ctl = 0x80;   /* 64-bit capable, one message */
	n->edge_cause = UINT64_MAX;
	n->agent = pci_sim_add(sim, "nic_e1000", nic_step, n);
	if (n->agent < 0)
		return -1;
	pci_master_init(&n->m, n->agent, false);
	pci_target_init(&n->t, n->agent, 16 + devno, &ops, n, reg_pol, seed ^ 0x5A5A);
	pci_rng_seed(&n->rng, seed);
	return 0;
}

void nic_e1000_free(struct nic_e1000 *n)
{
	free(n->rec);
	free(n->msi);
	n->rec = NULL;
	n->msi = NULL;
}

void nic_e1000_traffic(struct nic_e1000 *n, double rate_pps, uint32_t len,
		       uint64_t n_packets, double start_ns)
{
	n->rate_pps = rate_pps;
	n->pkt_len = len;
	n->n_packets = n->seq + n_packets;
	n->next_arrival_ns = start_ns;
}
