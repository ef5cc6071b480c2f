/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SynPCI-X PCI driver: shared declarations of synpcix.ko.
 *
 * The hardware logic is in core/ (OS-independent); this module adds the PCI
 * binding (synpcix_main.c), the PTP hardware clock (synpcix_ptp.c) and the
 * sysfs view of the PPS servo (synpcix_sysfs.c).
 *
 * There is no in-kernel slot API yet: MSI capture slots, their doorbells and
 * the card's interrupt block are defined by the PCI gateware (issue 3), and
 * an API with nothing behind it would be a stub. It is added with them.
 */
#ifndef SYNPCIX_H
#define SYNPCIX_H

#include <linux/pci.h>
#include <linux/mutex.h>
#include <linux/ptp_clock_kernel.h>

#include "synpcix_hw.h"

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

	const char *irq_kind;		/* "MSI", "INTx" or "none" */
};

int synpcix_ptp_register(struct synpcix *sp);
extern const struct attribute_group *synpcix_groups[];

#endif /* SYNPCIX_H */
