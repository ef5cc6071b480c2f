/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An e1000-like NIC on the PCI bus: the receive path of the Intel 82546GB
 * as the PCI/PCI-X Family of Gigabit Ethernet Controllers Software
 * Developer's Manual (8254x SDM) describes it, reduced to what
 * the capture card sees on the bus. docs/simulation.md lists what is and
 * is not modelled.
 *
 * Modelled:
 *   - configuration space: vendor 8086h, device 1079h (82546GB copper),
 *     class 020000h, BAR0 128 KiB 64-bit non-prefetchable memory (SDM chapter 4,
 *     PCI configuration space), capability list PM (DCh) -> PCI-X (E4h) ->
 *     MSI (F0h; 64-bit address, one message, no per-vector masking; the
 *     QEMU model in sim/qemu uses the same place). PM and PCI-X entries
 *     carry only their ID and next pointer;
 *   - registers (SDM chapter 13, register descriptions): CTRL 0000h, STATUS 0008h (link up, 1000 Mb/s),
 *     ICR 00C0h (read to clear), ICS 00C8h, IMS 00D0h, IMC 00D8h,
 *     RCTL 0100h (EN bit 1), RDBAL/RDBAH/RDLEN/RDH/RDT 2800h..2818h,
 *     RDTR 2820h (only 0 = no delay is modelled), MPC 4010h and GPRC 4074h
 *     (statistics, clear on read);
 *   - receive (SDM 3.2): packets arrive from a seeded generator into a
 *     40 KiB receive FIFO (a full FIFO drops the packet and counts MPC);
 *     legacy descriptors (16 bytes: buffer address, length, checksum,
 *     status, errors, special, SDM 3.2.3) are fetched from the ring by
 *     burst reads of up to 4 at a time between RDH and RDT, the packet is
 *     written to the buffer by memory write bursts (at most 16 words, never
 *     across a 4 KiB boundary), then the descriptor's upper 8 bytes are
 *     written back: length, checksum 0, status DD (bit 0) | EOP (bit 1),
 *     errors 0, special 0; then RDH advances and ICR.RXT0 (bit 7) is set;
 *   - interrupts: an MSI (memory write of the programmed data to the
 *     programmed address, after all earlier DMA writes) on every rising
 *     edge of (ICR & IMS) != 0 (SDM chapter 13: ICR, ICS, IMS, IMC); none while
 *     ICR stays set.
 * Not modelled: transmit, multiple descriptors per packet, RDTR/RADV/ITR
 * delays, checksum offload (IXSM etc. status bits stay 0), VLAN, the I/O
 * BAR, flash/EEPROM, PCI-X mode, 64-bit (DAC) addressing: ring, buffers
 * and the MSI address must be below 4 GiB.
 */
#ifndef NIC_E1000_H
#define NIC_E1000_H

#include <stdint.h>
#include <stddef.h>

#include "pci_bus.h"

#define E1000_CTRL   0x0000
#define E1000_STATUS 0x0008
#define E1000_ICR    0x00C0
#define E1000_ICS    0x00C8
#define E1000_IMS    0x00D0
#define E1000_IMC    0x00D8
#define E1000_RCTL   0x0100
#define E1000_RDBAL  0x2800
#define E1000_RDBAH  0x2804
#define E1000_RDLEN  0x2808
#define E1000_RDH    0x2810
#define E1000_RDT    0x2818
#define E1000_RDTR   0x2820
#define E1000_MPC    0x4010
#define E1000_GPRC   0x4074

#define E1000_ICR_RXT0 0x80u
#define E1000_RCTL_EN 0x2u
#define E1000_RXD_STAT_DD 0x01u
#define E1000_RXD_STAT_EOP 0x02u

#define NIC_VENDOR 0x8086
#define NIC_DEVICE 0x1079
#define NIC_BAR0_SIZE 0x20000u
#define NIC_FIFO_BYTES 40960
#define NIC_FIFO_PKTS 1024

struct nic_pkt_rec {
	uint64_t seq;
	double t_arrival_ns;   /* true time the last bit arrived */
	uint32_t len;
	uint32_t desc;         /* ring index it went to */
	double t_wb_ns;        /* descriptor write-back completed on the bus */
	int dropped;           /* FIFO full: counted in MPC */
};

struct nic_msi_rec {
	uint64_t clk;          /* the MSI write completed */
	uint64_t edge_clk;     /* the rising edge of ICR & IMS it reports */
	uint64_t seq;          /* packet whose write-back made that edge, or
				* UINT64_MAX for an edge made by a register write */
};

struct nic_e1000 {
	struct pci_sim *sim;
	int agent, devno;
	struct pci_master m;
	struct pci_target t;
	/* configuration space */
	uint16_t command, status_rw1c;
	uint32_t bar0;
	uint8_t int_line, latency;
	uint16_t msi_ctl;
	uint32_t msi_addr_lo, msi_addr_hi;
	uint16_t msi_data;
	/* registers */
	uint32_t ctrl, icr, ims, rctl, rdbal, rdbah, rdlen, rdh, rdt, rdtr, mpc, gprc;
	bool irq_level;
	/* traffic generator */
	struct pci_rng rng;
	double rate_pps;
	uint32_t pkt_len;      /* frame without FCS (the NIC strips it) */
	uint64_t n_packets;    /* how many to generate, then silence */
	uint64_t seq;
	double next_arrival_ns;
	/* receive FIFO */
	uint64_t fifo[NIC_FIFO_PKTS];   /* seq numbers */
	int f_head, f_count;
	uint32_t f_bytes;
	/* descriptor cache: buffer addresses for ring indices rdh.. */
	uint32_t dcache[4];
	int dc_n;
	/* DMA */
	int dst;
	uint32_t dma_buf[16];
	uint32_t pkt_off;      /* bytes of the current packet written */
	uint64_t cur_seq;
	int msi_pending;
	uint64_t msi_edge_clk[64];
	uint64_t msi_edge_seq[64];
	uint64_t edge_cause;   /* packet being completed while ICR is set */
	int msi_q_head;
	/* records */
	struct nic_pkt_rec *rec;
	size_t n_rec, cap_rec;
	struct nic_msi_rec *msi;
	size_t n_msi, cap_msi;
	uint64_t rising_edges, icr_reads_nonzero;
};

/* On sim; devno sets IDSEL (AD[16 + devno]). */
int nic_e1000_init(struct nic_e1000 *n, struct pci_sim *sim, int devno,
		   const struct pci_target_policy *reg_pol, uint64_t seed);
void nic_e1000_free(struct nic_e1000 *n);
/* Start traffic: n_packets of len bytes at rate_pps on average, the first
 * at start_ns. Inter-arrival: wire time + exponential(mean - wire time), so
 * at GbE line rate (1.488 Mpps for 60-byte frames) they are back to back. */
void nic_e1000_traffic(struct nic_e1000 *n, double rate_pps, uint32_t len,
		       uint64_t n_packets, double start_ns);
/* Expected byte i of packet seq (the generator's payload). */
uint8_t nic_pkt_byte(uint64_t seq, uint32_t i);
/* GbE wire time of a frame of len bytes (+FCS, preamble, IFG). */
double nic_wire_ns(uint32_t len);

#endif /* NIC_E1000_H */
