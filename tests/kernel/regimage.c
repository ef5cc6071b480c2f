// SPDX-License-Identifier: GPL-2.0-only
/*
 * Register image for the kernel test: a 4 KiB file laid out as the card's
 * register window (from the generated synpcix_regs.h), which QEMU maps as
 * the RAM BAR of an ivshmem-plain device. synpcix.ko bound to that device
 * (reg_bar=2, new_id) walks the chain, registers its PHC and programs
 * registers; the guest reads back what it wrote. Plain RAM has no side
 * effects, so a command's pending bit stays set once written (the driver's
 * timeout path) and time stands still; this tests the kernel module, not
 * the card (that is the co-simulation's job).
 *
 * The capture unit's blocks (msi_slots, dma, irq) are in the chain too, so
 * probe finds SLOTS slots. The slot window (slot_sel + 0x80..0xD4) is plain
 * RAM here: every slot reads the same words, which hold known counters.
 * Doorbells (0x800 + slot * 0x10) are RAM as well: a device whose MSI is
 * redirected to one leaves its message data there, which the guest reads.
 *
 *   regimage IMAGE ENVFILE   writes the image and, for the guest script,
 *                            shell variables with the offsets and values
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "synpcix_regs.h"

#define IMG_BYTES 4096
#define TIME_NS 1700000000500000000ULL	/* 1700000000.5 s */
#define PPS_NS 1700000000000000000ULL	/* 1700000000.0 s */
#define CAPTURE_CLOCKS 3
#define PEROUT_CLOCKS 2
#define BUILD 0x1a2b3c4du
/* servo correction giving 10000 ppb at 8 ns: 8 * 2^32 * 1e-5 */
#define FREQ_ADJ 343597
#define SLOTS 4
#define LATCH_CLKS 2

static uint32_t img[IMG_BYTES / 4];

static void w(uint32_t off, uint32_t v)
{
	img[off / 4] = v;	/* x86 guest and host: little endian */
}

static void hdr(uint32_t base, uint32_t type, uint32_t version, uint32_t next)
{
	w(base + SYNPCIX_BLK_TYPE, type);
	w(base + SYNPCIX_BLK_VERSION, version);
	w(base + SYNPCIX_BLK_NEXT, next);
}

int main(int argc, char **argv)
{
	uint64_t pps = PPS_NS + CAPTURE_CLOCKS * 8;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: regimage IMAGE ENVFILE\n");
		return 2;
	}
	hdr(SYNPCIX_ID_BASE, SYNPCIX_ID_TYPE_ID, SYNPCIX_ID_VERSION, SYNPCIX_CLOCK_BASE);
	w(SYNPCIX_ID_MAGIC, SYNPCIX_ID_MAGIC_RESET);
	w(SYNPCIX_ID_BUILD, BUILD);
	w(SYNPCIX_ID_FEATURES,
	  (2u << SYNPCIX_ID_FEATURES_N_EVENTS_SHIFT) |
	  (4u << SYNPCIX_ID_FEATURES_FIFO_LOG2_SHIFT) |
	  (CAPTURE_CLOCKS << SYNPCIX_ID_FEATURES_CAPTURE_DELAY_SHIFT) |
	  (PEROUT_CLOCKS << SYNPCIX_ID_FEATURES_PEROUT_DELAY_SHIFT));
	w(SYNPCIX_ID_CLK_HZ, 125000000);

	hdr(SYNPCIX_CLOCK_BASE, SYNPCIX_CLOCK_TYPE_ID, SYNPCIX_CLOCK_VERSION, SYNPCIX_PPS_BASE);
	w(SYNPCIX_CLOCK_TIME_NS_LO, (uint32_t)TIME_NS);
	w(SYNPCIX_CLOCK_TIME_NS_HI, (uint32_t)(TIME_NS >> 32));
	w(SYNPCIX_CLOCK_PERIOD_NS, 8);
	w(SYNPCIX_CLOCK_EFF_PERIOD_NS, 8);

	hdr(SYNPCIX_PPS_BASE, SYNPCIX_PPS_TYPE_ID, SYNPCIX_PPS_VERSION, SYNPCIX_EVENT_BASE);
	w(SYNPCIX_PPS_STATUS, SYNPCIX_PPS_STATUS_STATE_LOCKED |
	  SYNPCIX_PPS_STATUS_PRESENT_MASK | SYNPCIX_PPS_STATUS_STAMP_NEW_MASK);
	w(SYNPCIX_PPS_STAMP_NS_LO, (uint32_t)pps);
	w(SYNPCIX_PPS_STAMP_NS_HI, (uint32_t)(pps >> 32));
	w(SYNPCIX_PPS_OFFSET_NS, (uint32_t)-5);
	w(SYNPCIX_PPS_FREQ_ADJ, FREQ_ADJ);
	w(SYNPCIX_PPS_EDGES, 42);
	w(SYNPCIX_PPS_GLITCHES, 1);
	w(SYNPCIX_PPS_REJECTS, 2);
	w(SYNPCIX_PPS_LOSSES, 3);
	w(SYNPCIX_PPS_STEPS, 4);

	hdr(SYNPCIX_EVENT_BASE, SYNPCIX_EVENT_TYPE_ID, SYNPCIX_EVENT_VERSION, SYNPCIX_PEROUT_BASE);
	w(SYNPCIX_EVENT_OVERFLOWS, 7);
	/* event 1.1: a 256-entry ring as on the card (RAM: the driver's enable
	 * write replaces the field, and busy reads 0, so disable never waits) */
	w(SYNPCIX_EVENT_RING_CTRL, 8u << SYNPCIX_EVENT_RING_CTRL_SIZE_LOG2_SHIFT);

	hdr(SYNPCIX_PEROUT_BASE, SYNPCIX_PEROUT_TYPE_ID, SYNPCIX_PEROUT_VERSION,
	    SYNPCIX_MSI_SLOTS_BASE);

	hdr(SYNPCIX_MSI_SLOTS_BASE, SYNPCIX_MSI_SLOTS_TYPE_ID, SYNPCIX_MSI_SLOTS_VERSION,
	    SYNPCIX_DMA_BASE);
	w(SYNPCIX_MSI_SLOTS_INFO, (SLOTS << SYNPCIX_MSI_SLOTS_INFO_N_SLOTS_SHIFT) |
	  (8u << SYNPCIX_MSI_SLOTS_INFO_FIFO_LOG2_SHIFT) |
	  (LATCH_CLKS << SYNPCIX_MSI_SLOTS_INFO_LATCH_CLKS_SHIFT) |
	  (12u << SYNPCIX_MSI_SLOTS_INFO_RING_LOG2_SHIFT));
	w(SYNPCIX_MSI_SLOTS_RING_STRIDE, SYNPCIX_MSI_SLOTS_RING_STRIDE_RESET);
	w(SYNPCIX_MSI_SLOTS_DONE_OFF, SYNPCIX_MSI_SLOTS_DONE_OFF_RESET);
	w(SYNPCIX_MSI_SLOTS_DONE_MASK, SYNPCIX_MSI_SLOTS_DONE_MASK_RESET);
	w(SYNPCIX_MSI_SLOTS_INDEX, 17);
	w(SYNPCIX_MSI_SLOTS_CAPTURES, 11);
	w(SYNPCIX_MSI_SLOTS_STAMPED, 22);
	w(SYNPCIX_MSI_SLOTS_BATCHED, 33);
	w(SYNPCIX_MSI_SLOTS_EMPTY, 44);
	w(SYNPCIX_MSI_SLOTS_OVERFLOW, 55);
	w(SYNPCIX_MSI_SLOTS_DMA_ERRORS, 66);
	w(SYNPCIX_MSI_SLOTS_CAUSE_LAST, 0x9d);
	w(SYNPCIX_MSI_SLOTS_LAST_DATA, 0x4321);

	hdr(SYNPCIX_DMA_BASE, SYNPCIX_DMA_TYPE_ID, SYNPCIX_DMA_VERSION, SYNPCIX_IRQ_BASE);
	w(SYNPCIX_DMA_ERRORS, 5);
	w(SYNPCIX_DMA_INFO, SYNPCIX_DMA_INFO_RESET);
	hdr(SYNPCIX_IRQ_BASE, SYNPCIX_IRQ_TYPE_ID, SYNPCIX_IRQ_VERSION, 0);
	w(SYNPCIX_IRQ_RAISED, 777);
	w(SYNPCIX_IRQ_PENDING, 0x3);

	f = fopen(argv[1], "wb");
	if (!f || fwrite(img, sizeof(img), 1, f) != 1 || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	f = fopen(argv[2], "w");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	fprintf(f, "IMG_BUILD=%08x\n", BUILD);
	fprintf(f, "IMG_TIME_S=1700000000\nIMG_PPS_S=1700000000\n");
	fprintf(f, "R_CLOCK_CTRL=%u\nR_SET_NS_LO=%u\nR_SET_NS_HI=%u\n", SYNPCIX_CLOCK_CTRL,
		SYNPCIX_CLOCK_SET_NS_LO, SYNPCIX_CLOCK_SET_NS_HI);
	fprintf(f, "R_ADJ_NS_LO=%u\nR_ADJ_NS_HI=%u\n", SYNPCIX_CLOCK_ADJ_NS_LO,
		SYNPCIX_CLOCK_ADJ_NS_HI);
	fprintf(f, "R_PERIOD_NS=%u\nR_PERIOD_FRAC=%u\n", SYNPCIX_CLOCK_PERIOD_NS,
		SYNPCIX_CLOCK_PERIOD_FRAC);
	fprintf(f, "R_TIME_NS_LO=%u\nR_TIME_NS_HI=%u\nR_TIME_FRAC=%u\n", SYNPCIX_CLOCK_TIME_NS_LO,
		SYNPCIX_CLOCK_TIME_NS_HI, SYNPCIX_CLOCK_TIME_FRAC);
	fprintf(f, "R_PPS_CTRL=%u\nR_EVENT_CTRL=%u\n", SYNPCIX_PPS_CTRL, SYNPCIX_EVENT_CTRL);
	fprintf(f, "R_PEROUT_CTRL=%u\nR_PEROUT_START_LO=%u\nR_PEROUT_START_HI=%u\n",
		SYNPCIX_PEROUT_CTRL, SYNPCIX_PEROUT_START_NS_LO, SYNPCIX_PEROUT_START_NS_HI);
	fprintf(f, "R_PEROUT_PERIOD=%u\nR_PEROUT_WIDTH=%u\n", SYNPCIX_PEROUT_PERIOD_NS,
		SYNPCIX_PEROUT_WIDTH_NS);
	fprintf(f, "PEROUT_DELAY_NS=%u\n", PEROUT_CLOCKS * 8);
	fprintf(f, "IMG_SLOTS=%u\nIMG_LATCH_NS=%u\n", SLOTS, LATCH_CLKS * 8);
	fprintf(f, "R_SLOT_SEL=%u\nR_SLOT_CTRL=%u\nR_IRQ_GAP=%u\nR_IRQ_MASK=%u\n",
		SYNPCIX_MSI_SLOTS_SLOT_SEL, SYNPCIX_MSI_SLOTS_CTRL, SYNPCIX_IRQ_GAP,
		SYNPCIX_IRQ_MASK);
	fprintf(f, "R_DOORBELLS=%u\nDOORBELL_STRIDE=%u\n", SYNPCIX_RSV_DOORBELLS_BASE,
		SYNPCIX_RSV_DOORBELLS_STRIDE);
	return fclose(f) ? 1 : 0;
}
