/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI enumeration the way Linux does it, over the host bridge's
 * configuration cycles (drivers/pci/probe.c, pci.c, msi/msi.c of Linux 6.x):
 *   - pci_scan_slot: 32-bit read of vendor/device at 0x00; all ones or 0
 *     means an empty slot (a master abort on our bus);
 *   - header type (byte 0x0E), class/revision (dword 0x08);
 *   - pci_read_bases / __pci_read_base: memory decode switched off in the
 *     command register first, then per BAR: read, write all ones, read the
 *     size, write the original back; a 64-bit BAR takes the next dword too;
 *     command restored;
 *   - resources assigned (largest first, naturally aligned) from the MMIO
 *     window, BARs written;
 *   - pci_enable_device: command |= memory space; pci_set_master:
 *     command |= bus master, latency timer set to 64 if below 16;
 *   - capability list (pci_find_capability): status bit 4, pointer at 0x34,
 *     each entry read as a word (ID, next), at most 48 steps;
 *   - MSI (msi_capability_init, pci_msi_set_enable, __pci_write_msi_msg):
 *     disable, read control, write multiple message enable, address low,
 *     address high (64-bit capable), data, INTx disable, enable.
 * Only bus 0 and function 0 (devices 0..15: IDSEL is AD[16 + d]).
 */
#ifndef ENUMERATE_H
#define ENUMERATE_H

#include <stdint.h>

#include "host_bridge.h"

struct pci_bar_info {
	uint32_t addr;     /* assigned */
	uint32_t size;     /* 0: not implemented */
	int is_io, is_64, prefetch;
};

struct pci_dev_info {
	int dev;
	uint16_t vendor, device;
	uint32_t class_rev;
	uint8_t header;
	uint16_t subvendor, subdevice;
	struct pci_bar_info bar[6];
	int n_caps;
	uint8_t cap_id[16], cap_pos[16];
	int msi_pos;        /* 0: no MSI capability */
	uint16_t msi_ctl;   /* as read before programming */
	int msi_vectors;    /* granted (multiple message enable) */
};

/* Scan devices 0..max_dev-1 on bus 0; fill devs (up to max); returns the
 * count. MMIO is assigned upward from mmio_base. */
int pci_enumerate(struct host_bridge *hb, struct pci_dev_info *devs, int max,
		  int max_dev, uint32_t mmio_base);
/* Find a capability (as pci_find_capability); 0 if absent. */
int pci_find_cap(struct host_bridge *hb, int dev, uint8_t id);
/* Program and enable MSI with nvec vectors (power of two, clamped to what
 * the function offers, as pci_alloc_irq_vectors does). Returns vectors
 * granted, or -1 without an MSI capability. */
int pci_enable_msi(struct host_bridge *hb, struct pci_dev_info *d, uint64_t addr,
		   uint16_t data, int nvec);

#endif /* ENUMERATE_H */
