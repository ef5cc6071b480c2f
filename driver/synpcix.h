/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SynPCI-X PCI driver: shared declarations of synpcix.ko.
 *
 * The hardware logic is in core/ (OS-independent); this module adds the PCI
 * binding (synpcix_main.c), the PTP hardware clock (synpcix_ptp.c) and the
 * sysfs view of the PPS servo (synpcix_sysfs.c).
 *
 * The MSI capture slots and their in-kernel API (include/synpcix_slot.h)
 * are in synpcix_slot.c on top of core/synpcix_slot.c.
 */
#ifndef SYNPCIX_H
#define SYNPCIX_H

#include <linux/pci.h>
#include <linux/mutex.h>
#include <linux/ptp_clock_kernel.h>

#include <linux/atomic.h>
#include <linux/list.h>

#include "synpcix_hw.h"
#include "synpcix_slot.h"		/* core */
#include "include/synpcix_slot.h"	/* kernel API */

/* EXTTS channel 0 is the PPS input; channel 1 + i is event input i. */
#define SYNPCIX_EXTTS_PPS 0
#define SYNPCIX_N_EXTTS_MAX (1 + SPX_MAX_EVENTS)

struct synpcix {
	struct pci_dev *pdev;
	struct spx_hw hw;

	struct ptp_clock *ptp;
	struct ptp_clock_info ptp_info;
	struct ptp_pin_desc *pins;

	/* Serialises PTP enable requests, pin changes and the poll worker's
	 * view of what is enabled.
	 */
	struct mutex lock;
	unsigned long extts_on;		/* bit n: EXTTS channel n enabled */
	bool pps_report_by_us;		/* we switched PPS OFF -> REPORT */
	bool perout_on;
	u64 extts_unknown;		/* stamps for channels not enabled */
	/* event ring (event block 1.1): the card writes the stamps here by
	 * DMA; NULL on older cards (register pops). Under lock.
	 */
	u32 *evring;
	dma_addr_t evring_dma;
	u32 evring_bytes;

	const char *irq_kind;		/* "MSI", "INTx" or "none" */
	int nvec;			/* vectors allocated (0: none) */
	bool intx;			/* the vector is the (shared) INTx line */
	u32 irq_raised_seen;		/* irq 1.0: irq.raised at the last INTx handled */

	/* MSI slots; protected by synpcix_slots_mutex (synpcix_slot.c) */
	struct list_head card_node;	/* on the list of bound cards */
	bool dying;			/* card going away: no new holders */
	struct synpcix_slot *slot[SPX_MAX_SLOTS];
	atomic_t slots_held;		/* aux worker keeps ref_ns fresh */
	atomic64_t ref_ns;		/* recent card time for stamp extension */
	phys_addr_t regs_phys;		/* CPU physical address of the window */
	/* per slot, set through sysfs; read without lock by the stamp path */
	struct spx_ingress ingress[SPX_MAX_SLOTS];
};

/* Per-slot sysfs files: dev_ext_attribute var = slot << 8 | file. */
enum synpcix_slot_file {
	SF_ENABLED, SF_INDEX, SF_CAPTURES, SF_STAMPED, SF_BATCHED, SF_EMPTY,
	SF_OVERFLOW, SF_DMA_ERRORS, SF_CAUSE_LAST, SF_AMBIGUOUS, SF_LAST_DATA, SF_OWNER,
};
ssize_t synpcix_slot_file_show(struct device *dev, struct device_attribute *attr,
			       char *buf);
/* slotN/ingress_latency_ns and slotN/ingress_latency_ps_per_byte */
enum synpcix_ingress_file { SF_INGRESS_NS, SF_INGRESS_PS_PER_BYTE };
ssize_t synpcix_slot_ingress_show(struct device *dev, struct device_attribute *attr,
				  char *buf);
ssize_t synpcix_slot_ingress_store(struct device *dev, struct device_attribute *attr,
				   const char *buf, size_t count);

int synpcix_ptp_register(struct synpcix *sp);
int synpcix_slots_register(struct synpcix *sp);
void synpcix_refresh_ref(struct synpcix *sp);
extern const struct attribute_group *synpcix_groups[];

#endif /* SYNPCIX_H */
