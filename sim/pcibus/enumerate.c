/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "enumerate.h"

#define CMD_IO 0x1
#define CMD_MEM 0x2
#define CMD_MASTER 0x4
#define CMD_INTX_DISABLE 0x400

int pci_find_cap(struct host_bridge *hb, int dev, uint8_t id)
{
	int ttl = 48;   /* PCI_FIND_CAP_TTL */

	if (!(hb_cfg_read(hb, dev, 0, 0x06, 2) & 0x10))
		return 0;
	int pos = (int)hb_cfg_read(hb, dev, 0, 0x34, 1);

	while (ttl--) {
		pos &= ~3;
		if (pos < 0x40)
			break;
		uint16_t ent = (uint16_t)hb_cfg_read(hb, dev, 0, pos, 2);

		if ((ent & 0xFF) == 0xFF)
			break;
		if ((ent & 0xFF) == id)
			return pos;
		pos = ent >> 8;
	}
	return 0;
}

static void walk_caps(struct host_bridge *hb, struct pci_dev_info *d)
{
	int ttl = 48;

	d->n_caps = 0;
	if (!(hb_cfg_read(hb, d->dev, 0, 0x06, 2) & 0x10))
		return;
	int pos = (int)hb_cfg_read(hb, d->dev, 0, 0x34, 1);

	while (ttl-- && d->n_caps < 16) {
		pos &= ~3;
		if (pos < 0x40)
			break;
		uint16_t ent = (uint16_t)hb_cfg_read(hb, d->dev, 0, pos, 2);

		if ((ent & 0xFF) == 0xFF)
			break;
		d->cap_id[d->n_caps] = ent & 0xFF;
		d->cap_pos[d->n_caps] = (uint8_t)pos;
		d->n_caps++;
		if ((ent & 0xFF) == 0x05)
			d->msi_pos = pos;
		pos = ent >> 8;
	}
}

/* __pci_read_base for BAR i; returns how many BAR slots it used (1 or 2) */
static int read_base(struct host_bridge *hb, struct pci_dev_info *d, int i)
{
	int pos = 0x10 + 4 * i;
	uint32_t l = hb_cfg_read(hb, d->dev, 0, pos, 4), sz;
	struct pci_bar_info *b = &d->bar[i];

	hb_cfg_write(hb, d->dev, 0, pos, 4, l | 0xFFFFFFFFu);
	sz = hb_cfg_read(hb, d->dev, 0, pos, 4);
	hb_cfg_write(hb, d->dev, 0, pos, 4, l);
	if (sz == 0xFFFFFFFFu)
		sz = 0;   /* a device that reads all ones has no BAR here */
	if (!sz)
		return 1;
	b->is_io = l & 1;
	if (b->is_io) {
		uint32_t m = sz & ~3u;

		b->size = m ? (m & ~(m - 1)) & 0xFFFF : 0;
		return 1;
	}
	b->is_64 = ((l >> 1) & 3) == 2;
	b->prefetch = (l >> 3) & 1;
	uint32_t m = sz & ~0xFu;

	b->size = m & ~(m - 1);
	if (b->is_64 && i < 5) {
		uint32_t h = hb_cfg_read(hb, d->dev, 0, pos + 4, 4), szh;

		hb_cfg_write(hb, d->dev, 0, pos + 4, 4, 0xFFFFFFFFu);
		szh = hb_cfg_read(hb, d->dev, 0, pos + 4, 4);
		hb_cfg_write(hb, d->dev, 0, pos + 4, 4, h);
		if (!m && szh)
			b->size = 0;   /* > 4 GiB BARs are not for this 32-bit model */
		return 2;
	}
	return 1;
}

int pci_enumerate(struct host_bridge *hb, struct pci_dev_info *devs, int max,
		  int max_dev, uint32_t mmio_base)
{
	int n = 0;
	uint32_t next = mmio_base;

	for (int dev = 0; dev < max_dev && dev < 16 && n < max; dev++) {
		uint32_t id = hb_cfg_read(hb, dev, 0, 0x00, 4);

		if (id == 0xFFFFFFFFu || id == 0 || id == 0xFFFF0000u || id == 0x0000FFFFu)
			continue;
		struct pci_dev_info *d = &devs[n++];

		memset(d, 0, sizeof(*d));
		d->dev = dev;
		d->vendor = id & 0xFFFF;
		d->device = id >> 16;
		d->header = (uint8_t)hb_cfg_read(hb, dev, 0, 0x0E, 1);
		d->class_rev = hb_cfg_read(hb, dev, 0, 0x08, 4);
		d->subvendor = (uint16_t)hb_cfg_read(hb, dev, 0, 0x2C, 2);
		d->subdevice = (uint16_t)hb_cfg_read(hb, dev, 0, 0x2E, 2);
		/* pci_read_bases: decode off around the sizing */
		uint16_t orig = (uint16_t)hb_cfg_read(hb, dev, 0, 0x04, 2);

		if (orig & (CMD_IO | CMD_MEM))
			hb_cfg_write(hb, dev, 0, 0x04, 2, orig & ~(CMD_IO | CMD_MEM));
		for (int i = 0; i < 6;)
			i += read_base(hb, d, i);
		if (orig & (CMD_IO | CMD_MEM))
			hb_cfg_write(hb, dev, 0, 0x04, 2, orig);
		walk_caps(hb, d);
	}
	/* assign memory BARs, largest first, naturally aligned */
	for (;;) {
		struct pci_bar_info *best = NULL;
		struct pci_dev_info *bd = NULL;
		int bi = 0;

		for (int k = 0; k < n; k++)
			for (int i = 0; i < 6; i++) {
				struct pci_bar_info *b = &devs[k].bar[i];

				if (b->size && !b->is_io && !b->addr && (!best || b->size > best->size)) {
					best = b;
					bd = &devs[k];
					bi = i;
				}
			}
		if (!best)
			break;
		next = (next + best->size - 1) & ~(best->size - 1);
		best->addr = next;
		next += best->size;
		hb_cfg_write(hb, bd->dev, 0, 0x10 + 4 * bi, 4, best->addr);
		if (best->is_64)
			hb_cfg_write(hb, bd->dev, 0, 0x14 + 4 * bi, 4, 0);
	}
	for (int k = 0; k < n; k++) {
		int dev = devs[k].dev;
		/* pci_enable_device, then pci_set_master */
		uint16_t cmd = (uint16_t)hb_cfg_read(hb, dev, 0, 0x04, 2);

		hb_cfg_write(hb, dev, 0, 0x04, 2, cmd | CMD_MEM);
		cmd = (uint16_t)hb_cfg_read(hb, dev, 0, 0x04, 2);
		hb_cfg_write(hb, dev, 0, 0x04, 2, cmd | CMD_MASTER);
		if (hb_cfg_read(hb, dev, 0, 0x0D, 1) < 16)
			hb_cfg_write(hb, dev, 0, 0x0D, 1, 64);
	}
	return n;
}

int pci_enable_msi(struct host_bridge *hb, struct pci_dev_info *d, uint64_t addr,
		   uint16_t data, int nvec)
{
	int pos = d->msi_pos;

	if (!pos)
		return -1;
	/* pci_msi_set_enable(dev, 0) */
	uint16_t ctl = (uint16_t)hb_cfg_read(hb, d->dev, 0, pos + 2, 2);

	hb_cfg_write(hb, d->dev, 0, pos + 2, 2, ctl & ~1u);
	ctl = (uint16_t)hb_cfg_read(hb, d->dev, 0, pos + 2, 2);
	d->msi_ctl = ctl;
	int mmc = (ctl >> 1) & 7, log2 = 0;

	while ((1 << (log2 + 1)) <= nvec && log2 + 1 <= mmc)
		log2++;
	/* multiple message enable, then the message */
	ctl = (uint16_t)((ctl & ~0x70u) | (unsigned)(log2 << 4));
	hb_cfg_write(hb, d->dev, 0, pos + 2, 2, ctl);
	hb_cfg_write(hb, d->dev, 0, pos + 4, 4, (uint32_t)addr);
	if (ctl & 0x80) {
		hb_cfg_write(hb, d->dev, 0, pos + 8, 4, (uint32_t)(addr >> 32));
		hb_cfg_write(hb, d->dev, 0, pos + 12, 2, data);
	} else {
		hb_cfg_write(hb, d->dev, 0, pos + 8, 2, data);
	}
	/* pci_intx_for_msi(dev, 0) */
	uint16_t cmd = (uint16_t)hb_cfg_read(hb, d->dev, 0, 0x04, 2);

	hb_cfg_write(hb, d->dev, 0, 0x04, 2, cmd | CMD_INTX_DISABLE);
	hb_cfg_write(hb, d->dev, 0, pos + 2, 2, ctl | 1u);
	d->msi_vectors = 1 << log2;
	return d->msi_vectors;
}
