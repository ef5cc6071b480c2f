// SPDX-License-Identifier: GPL-2.0-only
/*
 * SynPCI-X PCI driver: probe and remove.
 *
 * Every resource is managed (pcim_*, devm_*), so each error path and
 * removal unwinds in reverse order without code here: slots revoked, PHC
 * unregistered, IRQ handlers freed, vectors freed, BAR unmapped, device
 * disabled.
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/version.h>
#include <linux/dma-mapping.h>
#include <linux/log2.h>

#include "synpcix.h"
#include "synpcix_pci_ids.h"

#ifndef PCI_IRQ_INTX
#define PCI_IRQ_INTX PCI_IRQ_LEGACY	/* renamed in 6.8 */
#endif

/*
 * The card has its register window at SYNPCIX_PCI_REG_BAR. Boards or
 * emulations that put it elsewhere (the kernel test binds the driver to a
 * RAM-backed BAR holding a register image) say so here.
 */
static int reg_bar = SYNPCIX_PCI_REG_BAR;
module_param(reg_bar, int, 0444);
MODULE_PARM_DESC(reg_bar, "BAR of the register window (default 0)");

/*
 * INTx even where MSI works: for tests of the shared-line path (the e2e
 * guest) and for platforms whose MSI is broken.
 */
static bool force_intx;
module_param(force_intx, bool, 0444);
MODULE_PARM_DESC(force_intx, "use INTx, not MSI (default no)");

static const struct pci_device_id synpcix_ids[] = {
	{ PCI_DEVICE(SYNPCIX_PCI_VENDOR_ID, SYNPCIX_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, synpcix_ids);

static void __iomem *synpcix_map_bar(struct pci_dev *pdev, int bar)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	return pcim_iomap_region(pdev, bar, KBUILD_MODNAME);
#else
	int err = pcim_iomap_regions(pdev, BIT(bar), KBUILD_MODNAME);

	return err ? IOMEM_ERR_PTR(err) : pcim_iomap_table(pdev)[bar];
#endif
}

/*
 * The card's own interrupt handler, first on its IRQ (requested in probe,
 * before any slot holder can request the same IRQ).
 *
 * MSI: the vector is the card's alone, so every interrupt on it is the
 * card's and handled. Slot holders (msi_redirect) share it and return
 * IRQ_NONE when the raise was not their slot's; without this handler a
 * vector whose holders all said no (activity already reported, no holder
 * at all) would count as unhandled and the spurious-interrupt detector
 * would eventually disable it for everyone.
 *
 * INTx: a level line, possibly shared with other devices. The card keeps
 * it asserted from a raise while the slot's irq.status bit is set and the
 * slot unmasked (docs/driver.md "Interrupt path"); spx_irq_ack() reads
 * irq.status and writes the bits back: no unmasked bit set means the line
 * was not ours (a card with irq 1.0: the mask written back, irq.raised
 * unchanged). Acknowledging before the holders look at their slots (they
 * run after this handler) loses no raise: one after the acknowledge
 * asserts the line again.
 *
 * EXTTS (PPS and event inputs) stays polled by the PTP aux worker: the
 * gateware raises interrupts only for MSI slots (card_irq has one request
 * per slot, none for the event FIFO).
 */
static irqreturn_t synpcix_irq(int irq, void *data)
{
	struct synpcix *sp = data;

	if (!sp->intx)
		return IRQ_HANDLED;
	/* < 0: no irq block, or the card is gone; 0: not the card's */
	return spx_irq_ack(&sp->hw, &sp->irq_raised_seen) > 0 ? IRQ_HANDLED : IRQ_NONE;
}

/*
 * INTx, after the handlers are freed (devm order): release a line the card
 * may still hold from a last raise, so that no other device's handler on a
 * shared line is left with an interrupt nobody acknowledges.
 */
static void synpcix_intx_release(void *data)
{
	struct synpcix *sp = data;

	if (pci_device_is_present(sp->pdev))
		spx_irq_ack(&sp->hw, &sp->irq_raised_seen);
}

/*
 * The card's MSI write carries hw.addr_bits of bus address (dma.info, 48):
 * an MSI address the host programmed at or above 2^addr_bits would land
 * somewhere else, so the probe takes INTx instead. Read back from the
 * capability, where the card takes it from.
 */
static bool synpcix_msi_reachable(struct synpcix *sp)
{
	struct pci_dev *pdev = sp->pdev;
	unsigned int bits = sp->hw.addr_bits;
	u32 lo, hi;
	u16 flags;

	if (!pdev->msi_enabled || !pdev->msi_cap || bits >= 64)
		return true;
	pci_read_config_word(pdev, pdev->msi_cap + PCI_MSI_FLAGS, &flags);
	if (!(flags & PCI_MSI_FLAGS_64BIT))
		return true;
	pci_read_config_dword(pdev, pdev->msi_cap + PCI_MSI_ADDRESS_LO, &lo);
	pci_read_config_dword(pdev, pdev->msi_cap + PCI_MSI_ADDRESS_HI, &hi);
	if (!(hi >> (bits - 32)))
		return true;
	dev_warn(&pdev->dev, "MSI address 0x%08x%08x is beyond the card's %u-bit bus addresses: using INTx\n",
		 hi, lo, bits);
	return false;
}

/* n MSI vectors the card can reach, -ERANGE if the host's address is not */
static int synpcix_alloc_msi(struct synpcix *sp, int n)
{
	int nvec = pci_alloc_irq_vectors(sp->pdev, n, n, PCI_IRQ_MSI);

	if (nvec >= 0 && !synpcix_msi_reachable(sp)) {
		pci_free_irq_vectors(sp->pdev);
		return -ERANGE;
	}
	return nvec;
}

static int synpcix_request_irqs(struct synpcix *sp)
{
	struct device *dev = &sp->pdev->dev;
	int i, err;

	if (sp->intx) {
		if (spx_irq_ack(&sp->hw, &sp->irq_raised_seen) < 0)
			dev_warn(dev, "INTx without an irq block: the line cannot be acknowledged\n");
		err = devm_add_action_or_reset(dev, synpcix_intx_release, sp);
		if (err)
			return err;
	}
	for (i = 0; i < sp->nvec; i++) {
		int irq = pci_irq_vector(sp->pdev, i);

		if (irq < 0)
			return dev_err_probe(dev, irq, "no IRQ for vector %d\n", i);
		/* shared: slot holders hang their handlers on it */
		err = devm_request_irq(dev, irq, synpcix_irq, IRQF_SHARED,
				       KBUILD_MODNAME, sp);
		if (err)
			return dev_err_probe(dev, err, "cannot request IRQ %d\n", irq);
	}
	return 0;
}

static int synpcix_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	const int bar = reg_bar;
	struct device *dev = &pdev->dev;
	struct synpcix *sp;
	void __iomem *regs;
	int err, nvec;
	bool msi;

	sp = devm_kzalloc(dev, sizeof(*sp), GFP_KERNEL);
	if (!sp)
		return -ENOMEM;
	sp->pdev = pdev;
	mutex_init(&sp->lock);

	if (bar < 0 || bar >= PCI_STD_NUM_BARS)
		return dev_err_probe(dev, -EINVAL, "reg_bar=%d is not a BAR (0..%d)\n",
				     bar, PCI_STD_NUM_BARS - 1);
	err = pcim_enable_device(pdev);
	if (err)
		return dev_err_probe(dev, err, "cannot enable the device\n");

	if (!(pci_resource_flags(pdev, bar) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, bar) < SYNPCIX_REG_WINDOW_BYTES)
		return dev_err_probe(dev, -ENODEV,
				     "BAR%d is not a memory window of at least %u bytes\n",
				     bar, SYNPCIX_REG_WINDOW_BYTES);
	regs = synpcix_map_bar(pdev, bar);
	if (IS_ERR(regs))
		return dev_err_probe(dev, PTR_ERR(regs), "cannot map BAR%d\n", bar);

	spin_lock_init(&sp->hw.os.lock);
	sp->hw.os.regs = regs;
	sp->hw.os.dev = dev;
	sp->hw.os.window = SYNPCIX_REG_WINDOW_BYTES;
	err = spx_probe(&sp->hw);	/* says why on failure */
	if (err)
		return err;

	/*
	 * The card masters the bus for its stamp DMA and MSI writes. Vectors:
	 * one per slot (slot i raises MSI vector i; a multi-message MSI count
	 * is a power of two), else a single MSI vector or INTx that all slots
	 * share (synpcix_slot_irq). A card without any interrupt still keeps
	 * time and stamps, so failure here is not fatal.
	 */
	pci_set_master(pdev);
	err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(sp->hw.addr_bits));
	sp->hw.dma_bits = sp->hw.addr_bits;
	if (err) {
		err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
		sp->hw.dma_bits = 32;
	}
	if (err)
		dev_warn(dev, "no usable DMA mask (%d): rings must be below 4 GiB\n", err);
	nvec = -ENOSPC;
	msi = !force_intx;
	if (sp->hw.n_slots > 1 && msi) {
		nvec = synpcix_alloc_msi(sp, roundup_pow_of_two(sp->hw.n_slots));
		msi = nvec != -ERANGE;
	}
	if (nvec < 0 && msi)
		nvec = synpcix_alloc_msi(sp, 1);
	if (nvec < 0)
		nvec = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_INTX);
	if (nvec < 0) {
		dev_warn(dev, "no interrupt vector (%d): inputs are polled\n", nvec);
		sp->irq_kind = "none";
		sp->nvec = 0;
	} else {
		sp->irq_kind = pdev->msi_enabled ? "MSI" : "INTx";
		sp->nvec = nvec;
		sp->intx = !pdev->msi_enabled;
	}
	sp->regs_phys = pci_resource_start(pdev, bar);
	/* after the vectors, so devm frees the handlers before them */
	err = synpcix_request_irqs(sp);
	if (err)
		return err;

	pci_set_drvdata(pdev, sp);
	err = synpcix_ptp_register(sp);
	if (err)
		return err;
	/* last: its teardown runs first, while PHC and BAR are still there */
	err = synpcix_slots_register(sp);
	if (err)
		return err;

	dev_info(dev, "SynPCI-X build %08x, %u Hz, %u event input(s), %u MSI slot(s), %u blocks, %d %s vector(s), PHC ptp%d\n",
		 sp->hw.build, sp->hw.clk_hz, sp->hw.n_events, sp->hw.n_slots,
		 sp->hw.n_blocks, sp->nvec, sp->irq_kind, ptp_clock_index(sp->ptp));
	return 0;
}

static struct pci_driver synpcix_driver = {
	.name = KBUILD_MODNAME,
	.id_table = synpcix_ids,
	.probe = synpcix_probe,
	.dev_groups = synpcix_groups,	/* pci core copies it to .driver */
};
module_pci_driver(synpcix_driver);

MODULE_DESCRIPTION("SynPCI-X GPS-disciplined PCI timing card: PTP hardware clock, MSI capture slots");
MODULE_AUTHOR("SynPCI-X project");
MODULE_LICENSE("GPL");
