// SPDX-License-Identifier: GPL-2.0-only
/*
 * msi_redirect: point one MSI (or MSI-X) vector of any PCI device at a
 * SynPCI-X card slot's doorbell, so the card stamps the moment the device
 * interrupts. Generic: nothing here knows which device it is.
 *
 * Interface, /sys/kernel/msi_redirect/:
 *   attach     write "DDDD:BB:DD.F VECTOR SLOT"  (domain optional)
 *   detach     write "DDDD:BB:DD.F VECTOR"
 *   redirects  read: one line per active redirect
 * Every refusal returns an errno to the writer and says why in the log.
 *
 * What an attach changes on the device, and restores on detach, module
 * unload, device unbind/removal and card unbind: the vector's message
 * address and data (MSI capability or MSI-X table entry), and the INTx
 * disable bit of the command register (set, so the device cannot fall back
 * to a shared line while its MSI goes elsewhere). Nothing else is touched.
 *
 * The kernel rewrites a vector's message when it moves the IRQ (affinity
 * change, CPU hot-unplug). A watchdog re-reads the message every second;
 * when the kernel has written a new one it becomes the value to restore and
 * the redirect is put back, with a log line, so neither side loses.
 *
 * The slot comes from synpcix.ko's slot API (include/synpcix_slot.h): SLOT
 * is the slot number on the first bound card that has it free. The slot is
 * held while the redirect lasts (its owner file in sysfs names the device),
 * and the card's driver tells us through revoke() before it goes away; the
 * bus notifier below usually restores first (UNBIND_DRIVER of the card).
 * The device's message data becomes the slot's tag (0x53NN), so the card's
 * last_data shows which writes came from us.
 *
 * Forwarding. While a vector is redirected its MSI never reaches the CPU;
 * the card raises its own interrupt for the slot after it has stamped. We
 * request that card IRQ (synpcix_slot_irq, IRQF_SHARED: slots may share
 * one vector, and an INTx line is shared anyway) and in the handler run
 * the redirected vector's Linux IRQ with generic_handle_irq_safe(), so the
 * device's own handler, its flow handler and /proc/interrupts count see an
 * ordinary interrupt. When the card IRQ is shared we forward only when the
 * slot's activity count (captures + lost doorbells) moved since the last
 * forward (synpcix_slot_irq_check). docs/driver.md, "Interrupt path", has
 * the details: what the x86 flow handler's ack does for a vector that was
 * not delivered, the race at detach and how it is closed.
 *
 * In-kernel API (msi_redirect.h): msi_redirect_slot()/msi_redirect_release()
 * for a driver that holds its own slot; sysfs and API redirects share one
 * list. An API redirect that the bus notifier restores (device or card
 * going away) stays allocated, inactive, until its owner releases it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pci.h>
#include <linux/dma-mapping.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/msi.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>

#include "synpcix_pci_ids.h"
#include "synpcix_slot.h"
#include "msi_redirect.h"

#define MSIR_WATCH_MS 1000

/* x86 interrupt address window: writes here are interrupts, not memory. */
#define MSIR_IRQ_WINDOW_BASE 0xfee00000ULL
#define MSIR_IRQ_WINDOW_MASK 0xfff00000ULL

struct msir_msg {
	u32 addr_lo, addr_hi, data;
};

struct msir {
	struct list_head node;
	struct pci_dev *pdev;		/* redirected device (reference held) */
	struct synpcix_slot *slot;	/* held slot of the card */
	struct pci_dev *card;		/* its card (referenced by the slot) */
	unsigned int vector;
	unsigned int slot_nr;		/* slot number asked for */
	bool msix;
	void __iomem *msix_entry;	/* mapped MSI-X table entry */
	struct msir_msg orig;		/* to restore */
	struct msir_msg redir;		/* what we wrote */
	u16 orig_cmd_intx;		/* PCI_COMMAND_INTX_DISABLE as found */
	dma_addr_t db_dma;		/* doorbell as the device sees it */
	phys_addr_t db_phys;
	bool api;			/* msi_redirect_slot(): the slot is the caller's */
	bool active;			/* on msir_list, device redirected */
	int dev_irq;			/* Linux IRQ of the redirected vector */
	int card_irq;			/* the slot's card IRQ while requested, else 0 */
	u32 seen;			/* slot activity count at the last forward */
	unsigned long forwarded;	/* forwards (written by the handler only) */
	struct irq_work fwd_work;	/* the last forward at detach, in hard IRQ */
	char irq_name[40];
};

static LIST_HEAD(msir_list);
static DEFINE_MUTEX(msir_lock);
static void msir_watch(struct work_struct *work);
static DECLARE_DELAYED_WORK(msir_watch_work, msir_watch);

/* ------------------------------------------------------------------ */
/* Message access                                                     */
/* ------------------------------------------------------------------ */

static void msir_read_msg(struct msir *r, struct msir_msg *m)
{
	struct pci_dev *pdev = r->pdev;
	int pos = pdev->msi_cap;
	u16 flags;

	if (r->msix) {
		m->addr_lo = readl(r->msix_entry + PCI_MSIX_ENTRY_LOWER_ADDR);
		m->addr_hi = readl(r->msix_entry + PCI_MSIX_ENTRY_UPPER_ADDR);
		m->data = readl(r->msix_entry + PCI_MSIX_ENTRY_DATA);
		return;
	}
	pci_read_config_word(pdev, pos + PCI_MSI_FLAGS, &flags);
	pci_read_config_dword(pdev, pos + PCI_MSI_ADDRESS_LO, &m->addr_lo);
	if (flags & PCI_MSI_FLAGS_64BIT) {
		u16 data;

		pci_read_config_dword(pdev, pos + PCI_MSI_ADDRESS_HI, &m->addr_hi);
		pci_read_config_word(pdev, pos + PCI_MSI_DATA_64, &data);
		m->data = data;
	} else {
		u16 data;

		m->addr_hi = 0;
		pci_read_config_word(pdev, pos + PCI_MSI_DATA_32, &data);
		m->data = data;
	}
}

/*
 * Write a message. MSI-X: mask the entry around the update so the device
 * never sends a half-written message. MSI without per-vector masking cannot
 * be held off; the address is written high word first, so an MSI in the
 * window goes to the old or the new low address with the data that matches
 * one of them only when the high words agree (they do: both targets are
 * below 4 GiB on the platforms this runs on; a 64-bit doorbell is refused).
 */
static void msir_write_msg(struct msir *r, const struct msir_msg *m)
{
	struct pci_dev *pdev = r->pdev;
	int pos = pdev->msi_cap;
	u16 flags;

	if (r->msix) {
		u32 ctrl = readl(r->msix_entry + PCI_MSIX_ENTRY_VECTOR_CTRL);

		writel(ctrl | PCI_MSIX_ENTRY_CTRL_MASKBIT,
		       r->msix_entry + PCI_MSIX_ENTRY_VECTOR_CTRL);
		writel(m->addr_lo, r->msix_entry + PCI_MSIX_ENTRY_LOWER_ADDR);
		writel(m->addr_hi, r->msix_entry + PCI_MSIX_ENTRY_UPPER_ADDR);
		writel(m->data, r->msix_entry + PCI_MSIX_ENTRY_DATA);
		writel(ctrl, r->msix_entry + PCI_MSIX_ENTRY_VECTOR_CTRL);
		readl(r->msix_entry + PCI_MSIX_ENTRY_DATA);	/* flush */
		return;
	}
	pci_read_config_word(pdev, pos + PCI_MSI_FLAGS, &flags);
	if (flags & PCI_MSI_FLAGS_64BIT) {
		pci_write_config_dword(pdev, pos + PCI_MSI_ADDRESS_HI, m->addr_hi);
		pci_write_config_dword(pdev, pos + PCI_MSI_ADDRESS_LO, m->addr_lo);
		pci_write_config_word(pdev, pos + PCI_MSI_DATA_64, (u16)m->data);
	} else {
		pci_write_config_dword(pdev, pos + PCI_MSI_ADDRESS_LO, m->addr_lo);
		pci_write_config_word(pdev, pos + PCI_MSI_DATA_32, (u16)m->data);
	}
}

static bool msir_msg_eq(const struct msir_msg *a, const struct msir_msg *b)
{
	return a->addr_lo == b->addr_lo && a->addr_hi == b->addr_hi &&
	       a->data == b->data;
}

static void msir_set_intx_disable(struct pci_dev *pdev, u16 bit)
{
	u16 cmd;

	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	cmd = (cmd & ~PCI_COMMAND_INTX_DISABLE) | bit;
	pci_write_config_word(pdev, PCI_COMMAND, cmd);
}

/* ------------------------------------------------------------------ */
/* Redirect and restore                                                */
/* ------------------------------------------------------------------ */

static void msir_free(struct msir *r)
{
	if (r->msix_entry)
		iounmap(r->msix_entry);
	if (!r->api)
		synpcix_slot_put(r->slot);	/* NULL or ERR_PTR: nothing */
	pci_dev_put(r->pdev);
	kfree(r);
}

/* ------------------------------------------------------------------ */
/* Forwarding the card's interrupt to the device's IRQ                 */
/* ------------------------------------------------------------------ */

/*
 * Hard IRQ context (the card's vector; on INTx after synpcix's own handler,
 * which acknowledged the line first). The slot is valid here: revoke and
 * every detach free this handler before the slot can go.
 */
static irqreturn_t msir_card_irq(int irq, void *data)
{
	struct msir *r = data;

	if (synpcix_slot_irq_check(r->slot, &r->seen) <= 0)
		return IRQ_NONE;	/* another slot's, or the card is gone */
	r->forwarded++;
	generic_handle_irq_safe(r->dev_irq);
	return IRQ_HANDLED;
}

/* The detach's last forward; irq_work runs it in hard IRQ context. */
static void msir_fwd_work(struct irq_work *work)
{
	struct msir *r = container_of(work, struct msir, fwd_work);

	generic_handle_irq_safe(r->dev_irq);
}

/*
 * Stop forwarding, after the device's message points back at its own
 * vector. A capture the card latched before that may still be in the
 * engine, its raise not yet here: once the handler is gone, one more look
 * at the slot's activity count, and if it moved (or the card cannot say)
 * the device's handler runs once more, so no interrupt of the device is
 * lost (an 82574 auto-masks its cause on the MSI and sends none until the
 * driver has seen it). x86 requires hard IRQ context for that (IRQ
 * context enforcement of the vector domain), hence the irq_work.
 */
static void msir_stop_forwarding(struct msir *r, bool device_present)
{
	if (!r->card_irq)
		return;
	free_irq(r->card_irq, r);
	r->card_irq = 0;
	if (device_present && synpcix_slot_irq_check(r->slot, &r->seen) != 0) {
		r->forwarded++;
		irq_work_queue(&r->fwd_work);
		irq_work_sync(&r->fwd_work);
	}
}

/*
 * Put the device back as found and stop forwarding. Caller holds
 * msir_lock; r is unlinked. A sysfs redirect is freed; an API redirect
 * stays, inactive, until msi_redirect_release().
 */
static void msir_restore(struct msir *r, bool device_present)
{
	bool present = device_present && pci_device_is_present(r->pdev);

	if (present) {
		msir_write_msg(r, &r->orig);
		msir_set_intx_disable(r->pdev, r->orig_cmd_intx);
	}
	msir_stop_forwarding(r, present);
	if (r->db_dma)
		dma_unmap_resource(&r->pdev->dev, r->db_dma, sizeof(u32),
				   DMA_FROM_DEVICE, 0);
	r->db_dma = 0;
	r->active = false;
	pci_info(r->pdev, "vector %u restored (MSI%s to %08x:%08x data %04x), %lu interrupt(s) forwarded\n",
		 r->vector, r->msix ? "-X" : "", r->orig.addr_hi, r->orig.addr_lo,
		 r->orig.data, r->forwarded);
	if (!r->api)
		msir_free(r);
}

/*
 * Point r's vector at the doorbell at physical address db. The device's
 * write is DMA like any other: map the doorbell for this device (through the
 * IOMMU when there is one) and refuse if the platform cannot. Interrupt
 * remapping only intercepts writes into the interrupt window; a doorbell in
 * that window would be taken for an interrupt (and dropped or misrouted by
 * the remapping table), so such an address is refused.
 */
static int msir_redirect(struct msir *r, phys_addr_t db, u32 data)
{
	struct pci_dev *pdev = r->pdev;
	u64 bus;

	r->db_dma = dma_map_resource(&pdev->dev, db, sizeof(u32),
				     DMA_FROM_DEVICE, 0);
	if (dma_mapping_error(&pdev->dev, r->db_dma)) {
		r->db_dma = 0;
		pci_warn(pdev, "refused: the IOMMU cannot map the card's doorbell %pa for this device\n",
			 &db);
		return -EPERM;
	}
	bus = r->db_dma;
	if ((bus & MSIR_IRQ_WINDOW_MASK) == MSIR_IRQ_WINDOW_BASE) {
		pci_warn(pdev, "refused: doorbell maps to %pad, inside the interrupt window that interrupt remapping owns\n",
			 &r->db_dma);
		return -EPERM;
	}
	if (upper_32_bits(bus) && !r->msix) {
		u16 flags;

		pci_read_config_word(pdev, pdev->msi_cap + PCI_MSI_FLAGS, &flags);
		if (!(flags & PCI_MSI_FLAGS_64BIT)) {
			pci_warn(pdev, "refused: doorbell %pad is above 4 GiB and the MSI capability is 32-bit\n",
				 &r->db_dma);
			return -ERANGE;
		}
	}
	r->db_phys = db;
	r->redir.addr_lo = lower_32_bits(bus);
	r->redir.addr_hi = upper_32_bits(bus);
	r->redir.data = data;
	msir_set_intx_disable(pdev, PCI_COMMAND_INTX_DISABLE);
	msir_write_msg(r, &r->redir);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The slot                                                            */
/* ------------------------------------------------------------------ */

static void msir_revoke(struct synpcix_slot *slot, void *ctx);

/* Take slot nr of a card for r; says why when it cannot. */
static int msir_take_slot(struct msir *r, unsigned int nr)
{
	struct pci_dev *pdev = r->pdev;
	char owner[48];
	int err;

	snprintf(owner, sizeof(owner), "msi_redirect %s vector %u", pci_name(pdev),
		 r->vector);
	r->slot = synpcix_slot_get(NULL, nr > INT_MAX ? INT_MAX : nr, owner,
				   msir_revoke, NULL);
	if (!IS_ERR(r->slot)) {
		r->card = synpcix_slot_card(r->slot);
		return 0;
	}
	err = PTR_ERR(r->slot);
	r->slot = NULL;
	switch (err) {
	case -ENODEV:
		pci_warn(pdev, "refused: no SynPCI-X card (none bound to the synpcix driver)\n");
		break;
	case -EOPNOTSUPP:
		pci_warn(pdev, "refused: the SynPCI-X card has no MSI capture slots\n");
		break;
	case -EINVAL:
		pci_warn(pdev, "refused: no SynPCI-X card has a slot %u\n", nr);
		break;
	case -EBUSY:
		pci_warn(pdev, "refused: slot %u is busy (held by another user, see slot%u/owner)\n",
			 nr, nr);
		break;
	default:
		pci_warn(pdev, "refused: cannot take slot %u (%d)\n", nr, err);
	}
	return err;
}

/* ------------------------------------------------------------------ */
/* Attach / detach                                                     */
/* ------------------------------------------------------------------ */

static struct msir *msir_find(struct pci_dev *pdev, unsigned int vector)
{
	struct msir *r;

	list_for_each_entry(r, &msir_list, node)
		if (r->pdev == pdev && r->vector == vector)
			return r;
	return NULL;
}

/* Check the device and locate the vector; on success r->msix(_entry) set. */
static int msir_check_device(struct msir *r)
{
	struct pci_dev *pdev = r->pdev;

	if (!pdev->msi_cap && !pdev->msix_cap) {
		pci_warn(pdev, "refused: no MSI or MSI-X capability, nothing to redirect\n");
		return -EOPNOTSUPP;
	}
	if (pdev->msix_enabled) {
		u32 table, off;
		u16 flags;
		int bir;

		pci_read_config_word(pdev, pdev->msix_cap + PCI_MSIX_FLAGS, &flags);
		if (r->vector >= (flags & PCI_MSIX_FLAGS_QSIZE) + 1) {
			pci_warn(pdev, "refused: MSI-X vector %u does not exist (table has %u)\n",
				 r->vector, (flags & PCI_MSIX_FLAGS_QSIZE) + 1);
			return -EINVAL;
		}
		pci_read_config_dword(pdev, pdev->msix_cap + PCI_MSIX_TABLE, &table);
		bir = table & PCI_MSIX_TABLE_BIR;
		off = (table & PCI_MSIX_TABLE_OFFSET) + r->vector * PCI_MSIX_ENTRY_SIZE;
		if (!(pci_resource_flags(pdev, bir) & IORESOURCE_MEM) ||
		    off + PCI_MSIX_ENTRY_SIZE > pci_resource_len(pdev, bir)) {
			pci_warn(pdev, "refused: MSI-X table outside BAR%d\n", bir);
			return -EIO;
		}
		r->msix = true;
		r->msix_entry = ioremap(pci_resource_start(pdev, bir) + off,
					PCI_MSIX_ENTRY_SIZE);
		return r->msix_entry ? 0 : -ENOMEM;
	}
	if (pdev->msi_enabled) {
		u16 flags;

		/* multiple MSI vectors share one address: all move or none */
		if (r->vector != 0) {
			pci_warn(pdev, "refused: MSI vectors share one address, only vector 0 (all of them) can be redirected\n");
			return -EINVAL;
		}
		/* and the card's capture cannot tell them apart to forward */
		pci_read_config_word(pdev, pdev->msi_cap + PCI_MSI_FLAGS, &flags);
		if (flags & PCI_MSI_FLAGS_QSIZE) {
			pci_warn(pdev, "refused: %u MSI vectors enabled, the card could forward only one\n",
				 1u << ((flags & PCI_MSI_FLAGS_QSIZE) >> 4));
			return -EINVAL;
		}
		return 0;
	}
	pci_warn(pdev, "refused: MSI/MSI-X not enabled (its driver uses INTx or is not bound)\n");
	return -ENODEV;
}

/*
 * Request the slot's card IRQ for r, with r->seen at the slot's current
 * activity, before the device's message moves: from the first capture on,
 * the card's interrupt finds the handler. A card without any interrupt
 * (no MSI and no INTx pin, e.g. the kernel test's register image) cannot
 * forward: an API caller is refused (its handler would never run), a
 * sysfs attach goes ahead without forwarding and says so (for a consumer
 * that polls the stamps).
 */
static int msir_start_forwarding(struct msir *r, bool required)
{
	struct pci_dev *pdev = r->pdev;
	int irq, err;

	r->dev_irq = pci_irq_vector(pdev, r->vector);
	if (r->dev_irq <= 0) {
		pci_warn(pdev, "refused: vector %u has no Linux IRQ (%d)\n",
			 r->vector, r->dev_irq);
		return -EINVAL;
	}
	irq = synpcix_slot_irq(r->slot);
	if (irq == -ENODEV) {
		pci_warn(pdev, "refused: the card's slot %u is gone\n", r->slot_nr);
		return -ENODEV;
	}
	if (irq <= 0 && required) {
		pci_warn(pdev, "refused: the card has no interrupt for slot %u (%d), the device's interrupts could not be forwarded\n",
			 r->slot_nr, irq);
		return -EOPNOTSUPP;
	}
	if (irq <= 0) {
		pci_warn(pdev, "the card has no interrupt (%d): vector %u's interrupts are NOT forwarded while it is redirected, its handler will not run\n",
			 irq, r->vector);
		return 0;
	}
	err = synpcix_slot_irq_check(r->slot, &r->seen);
	if (err < 0) {
		pci_warn(pdev, "refused: the card's slot %u does not answer (%d)\n",
			 r->slot_nr, err);
		return err;
	}
	snprintf(r->irq_name, sizeof(r->irq_name), "msi_redirect %s v%u",
		 pci_name(pdev), r->vector);
	err = request_irq(irq, msir_card_irq, IRQF_SHARED, r->irq_name, r);
	if (err) {
		pci_warn(pdev, "refused: cannot share the card's IRQ %d (%d)\n", irq, err);
		return err;
	}
	r->card_irq = irq;
	return 0;
}

/*
 * Redirect pdev's vector to a slot: the one given (API: the caller holds
 * it) or slot number slot_nr taken here (sysfs). Caller holds msir_lock.
 */
static struct msir *msir_attach(struct pci_dev *pdev, unsigned int vector,
				unsigned int slot_nr, struct synpcix_slot *slot)
{
	phys_addr_t db;
	struct msir *r;
	u32 data;
	u16 cmd;
	int err;

	lockdep_assert_held(&msir_lock);
	if (msir_find(pdev, vector)) {
		pci_warn(pdev, "refused: vector %u is already redirected\n", vector);
		return ERR_PTR(-EBUSY);
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->pdev = pci_dev_get(pdev);
	r->vector = vector;
	r->slot_nr = slot_nr;
	r->fwd_work = IRQ_WORK_INIT_HARD(msir_fwd_work);

	err = msir_check_device(r);
	if (err)
		goto fail;
	if (slot) {
		r->api = true;
		r->slot = slot;
		r->slot_nr = synpcix_slot_nr(slot);
		r->card = synpcix_slot_card(slot);
	} else {
		err = msir_take_slot(r, slot_nr);
		if (err)
			goto fail;
	}
	err = synpcix_slot_doorbell(r->slot, &db, &data);
	if (err) {
		pci_warn(pdev, "refused: the card's slot %u is gone (%d)\n", r->slot_nr, err);
		goto fail;
	}
	err = msir_start_forwarding(r, !!slot);
	if (err)
		goto fail;

	msir_read_msg(r, &r->orig);
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	r->orig_cmd_intx = cmd & PCI_COMMAND_INTX_DISABLE;
	err = msir_redirect(r, db, data);
	if (err)
		goto fail;
	r->active = true;
	list_add_tail(&r->node, &msir_list);
	if (list_is_singular(&msir_list))
		schedule_delayed_work(&msir_watch_work,
				      msecs_to_jiffies(MSIR_WATCH_MS));
	pci_info(pdev, "vector %u (IRQ %d) redirected to SynPCI-X %s slot %u (doorbell %pa, bus %pad), forwarded from card IRQ %d (0: none)\n",
		 vector, r->dev_irq, pci_name(r->card), r->slot_nr, &r->db_phys,
		 &r->db_dma, r->card_irq);
	return r;
fail:
	if (r->card_irq) {
		free_irq(r->card_irq, r);
		r->card_irq = 0;
	}
	if (r->db_dma)
		dma_unmap_resource(&pdev->dev, r->db_dma, sizeof(u32),
				   DMA_FROM_DEVICE, 0);
	r->api = !!slot;	/* a caller's slot is not ours to put */
	msir_free(r);
	return ERR_PTR(err);
}

/* Restore every redirect of pdev (as device or as card); NULL: all. */
static void msir_detach_all(struct pci_dev *pdev, bool present)
{
	struct msir *r, *tmp;

	lockdep_assert_held(&msir_lock);
	list_for_each_entry_safe(r, tmp, &msir_list, node) {
		if (pdev && r->pdev != pdev && r->card != pdev)
			continue;	/* r->card stays valid while r holds the slot */
		list_del(&r->node);
		/* card gone: the device itself is still there, restore it */
		msir_restore(r, r->pdev == pdev ? present : true);
	}
}

/*
 * The card is going away with our slot (synpcix calls this in process
 * context, without its own lock): put the device back now. The slot stays
 * valid during the call, so looking it up in our list is safe; the bus
 * notifier may have restored it already, then nothing is left to do.
 */
static void msir_revoke(struct synpcix_slot *slot, void *ctx)
{
	struct msir *r, *tmp;

	mutex_lock(&msir_lock);
	list_for_each_entry_safe(r, tmp, &msir_list, node) {
		if (r->slot != slot)
			continue;
		list_del(&r->node);
		pci_info(r->pdev, "vector %u: the card's slot is revoked, restoring\n",
			 r->vector);
		msir_restore(r, true);
	}
	mutex_unlock(&msir_lock);
}

static void msir_watch(struct work_struct *work)
{
	struct msir *r;
	struct msir_msg now;

	mutex_lock(&msir_lock);
	list_for_each_entry(r, &msir_list, node) {
		if (!pci_device_is_present(r->pdev))
			continue;
		msir_read_msg(r, &now);
		if (msir_msg_eq(&now, &r->redir))
			continue;
		pci_info(r->pdev, "vector %u: kernel rewrote the message (%08x:%08x data %04x), redirect put back\n",
			 r->vector, now.addr_hi, now.addr_lo, now.data);
		r->orig = now;
		msir_write_msg(r, &r->redir);
	}
	if (!list_empty(&msir_list))
		schedule_delayed_work(&msir_watch_work,
				      msecs_to_jiffies(MSIR_WATCH_MS));
	mutex_unlock(&msir_lock);
}

/* ------------------------------------------------------------------ */
/* In-kernel API (msi_redirect.h)                                      */
/* ------------------------------------------------------------------ */

/**
 * msi_redirect_slot - point a device's vector at a slot the caller holds
 * @pdev: the device; its driver has enabled MSI or MSI-X
 * @vector: MSI-X entry index, or 0 for MSI
 * @slot: a slot from synpcix_slot_get(), held until msi_redirect_release()
 *
 * Return: the redirect, or ERR_PTR(-EINVAL) for bad arguments or a vector
 * that does not exist, -ENODEV when MSI/MSI-X is not enabled or the card is
 * gone, -EBUSY when the vector is redirected already, -EOPNOTSUPP when the
 * device has no MSI capability, the platform cannot let it write the
 * doorbell (IOMMU, interrupt window, 32-bit MSI above 4 GiB) or the card
 * has no interrupt to forward (the sysfs attach allows that one, with a
 * warning). The log says why. May sleep.
 */
struct msir *msi_redirect_slot(struct pci_dev *pdev, unsigned int vector,
			       struct synpcix_slot *slot)
{
	struct msir *r;

	if (!pdev || IS_ERR_OR_NULL(slot))
		return ERR_PTR(-EINVAL);
	mutex_lock(&msir_lock);
	r = msir_attach(pdev, vector, 0, slot);
	mutex_unlock(&msir_lock);
	if (IS_ERR(r) && (PTR_ERR(r) == -EPERM || PTR_ERR(r) == -ERANGE))
		r = ERR_PTR(-EOPNOTSUPP);
	return r;
}
EXPORT_SYMBOL_GPL(msi_redirect_slot);

/**
 * msi_redirect_release - undo msi_redirect_slot(); NULL or ERR_PTR: nothing
 * @r: the redirect
 *
 * Restores the device's message and INTx bit (unless the bus notifier did
 * already, when the device or the card went away) and stops forwarding.
 * Call it before synpcix_slot_put() and before the device's vectors are
 * freed. May sleep.
 */
void msi_redirect_release(struct msir *r)
{
	if (IS_ERR_OR_NULL(r))
		return;
	mutex_lock(&msir_lock);
	if (r->active) {
		list_del(&r->node);
		msir_restore(r, true);
	}
	mutex_unlock(&msir_lock);
	msir_free(r);
}
EXPORT_SYMBOL_GPL(msi_redirect_release);

/* ------------------------------------------------------------------ */
/* sysfs                                                              */
/* ------------------------------------------------------------------ */

/* "[DDDD:]BB:DD.F" -> referenced pci_dev, or NULL with a log line */
static struct pci_dev *msir_parse_bdf(const char *s)
{
	unsigned int dom = 0, bus, dev, fn;
	struct pci_dev *pdev;
	char c;

	if (sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &c) != 4) {
		dom = 0;
		if (sscanf(s, "%x:%x.%x%c", &bus, &dev, &fn, &c) != 3)
			return ERR_PTR(-EINVAL);
	}
	if (dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
		return ERR_PTR(-EINVAL);
	pdev = pci_get_domain_bus_and_slot(dom, bus, PCI_DEVFN(dev, fn));
	if (!pdev) {
		pr_warn("refused: no PCI device %04x:%02x:%02x.%x\n", dom, bus, dev, fn);
		return ERR_PTR(-ENODEV);
	}
	return pdev;
}

/* Split "BDF N [M]" into its words; returns the word count (max 3). */
static int msir_words(const char *buf, size_t count, char *bdf, size_t bdf_len,
		      unsigned int *a, unsigned int *b)
{
	char line[64], extra;
	int n;

	if (count >= sizeof(line))
		return -EINVAL;
	memcpy(line, buf, count);
	line[count] = 0;
	n = sscanf(line, "%31s %u %u %c", bdf, a, b, &extra);
	return n > 3 ? -EINVAL : n;
}

static ssize_t attach_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	unsigned int vector, slot;
	struct pci_dev *pdev;
	struct msir *r;
	char bdf[32];

	if (msir_words(buf, count, bdf, sizeof(bdf), &vector, &slot) != 3) {
		pr_warn("attach: expected \"DDDD:BB:DD.F VECTOR SLOT\"\n");
		return -EINVAL;
	}
	pdev = msir_parse_bdf(bdf);
	if (IS_ERR(pdev)) {
		if (PTR_ERR(pdev) == -EINVAL)
			pr_warn("attach: \"%s\" is not a PCI address DDDD:BB:DD.F\n", bdf);
		return PTR_ERR(pdev);
	}
	mutex_lock(&msir_lock);
	r = msir_attach(pdev, vector, slot, NULL);
	mutex_unlock(&msir_lock);
	pci_dev_put(pdev);
	return IS_ERR(r) ? PTR_ERR(r) : count;
}

static ssize_t detach_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	unsigned int vector, unused;
	struct pci_dev *pdev;
	struct msir *r;
	char bdf[32];

	if (msir_words(buf, count, bdf, sizeof(bdf), &vector, &unused) != 2) {
		pr_warn("detach: expected \"DDDD:BB:DD.F VECTOR\"\n");
		return -EINVAL;
	}
	pdev = msir_parse_bdf(bdf);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	mutex_lock(&msir_lock);
	r = msir_find(pdev, vector);
	if (r) {
		list_del(&r->node);
		msir_restore(r, true);
	}
	mutex_unlock(&msir_lock);
	pci_dev_put(pdev);
	return r ? count : -ENOENT;
}

static ssize_t redirects_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	struct msir *r;
	int len = 0;

	mutex_lock(&msir_lock);
	list_for_each_entry(r, &msir_list, node)
		len += sysfs_emit_at(buf, len, "%s %u slot %u card %s MSI%s orig %08x:%08x/%04x now %08x:%08x/%04x irq %d card_irq %d forwarded %lu %s\n",
				     pci_name(r->pdev), r->vector, r->slot_nr,
				     pci_name(r->card), r->msix ? "-X" : "",
				     r->orig.addr_hi, r->orig.addr_lo, r->orig.data,
				     r->redir.addr_hi, r->redir.addr_lo, r->redir.data,
				     r->dev_irq, r->card_irq, READ_ONCE(r->forwarded),
				     r->api ? "api" : "sysfs");
	mutex_unlock(&msir_lock);
	return len;
}

static struct kobj_attribute msir_attach_attr = __ATTR_WO(attach);
static struct kobj_attribute msir_detach_attr = __ATTR_WO(detach);
static struct kobj_attribute msir_redirects_attr = __ATTR_RO(redirects);

static struct attribute *msir_attrs[] = {
	&msir_attach_attr.attr,
	&msir_detach_attr.attr,
	&msir_redirects_attr.attr,
	NULL
};

static const struct attribute_group msir_group = {
	.attrs = msir_attrs,
};

static struct kobject *msir_kobj;

/* ------------------------------------------------------------------ */
/* Device and card going away                                          */
/* ------------------------------------------------------------------ */

static int msir_bus_event(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);

	/*
	 * UNBIND_DRIVER comes before the driver's remove: its vectors are
	 * still set up, so the restore lands before they are torn down.
	 * DEL_DEVICE: the device is leaving; write only if it still answers.
	 */
	if (action != BUS_NOTIFY_UNBIND_DRIVER && action != BUS_NOTIFY_DEL_DEVICE)
		return NOTIFY_DONE;
	mutex_lock(&msir_lock);
	msir_detach_all(pdev, action == BUS_NOTIFY_UNBIND_DRIVER);
	mutex_unlock(&msir_lock);
	return NOTIFY_OK;
}

static struct notifier_block msir_nb = {
	.notifier_call = msir_bus_event,
};

static int __init msir_init(void)
{
	int err;

	err = bus_register_notifier(&pci_bus_type, &msir_nb);
	if (err)
		return err;
	msir_kobj = kobject_create_and_add("msi_redirect", kernel_kobj);
	if (!msir_kobj) {
		err = -ENOMEM;
		goto fail_nb;
	}
	err = sysfs_create_group(msir_kobj, &msir_group);
	if (err)
		goto fail_kobj;
	return 0;
fail_kobj:
	kobject_put(msir_kobj);
fail_nb:
	bus_unregister_notifier(&pci_bus_type, &msir_nb);
	return err;
}

static void __exit msir_exit(void)
{
	/* no new attach after the files are gone */
	sysfs_remove_group(msir_kobj, &msir_group);
	kobject_put(msir_kobj);
	bus_unregister_notifier(&pci_bus_type, &msir_nb);
	mutex_lock(&msir_lock);
	msir_detach_all(NULL, true);
	mutex_unlock(&msir_lock);
	cancel_delayed_work_sync(&msir_watch_work);
}

module_init(msir_init);
module_exit(msir_exit);

MODULE_DESCRIPTION("Point a PCI device's MSI at a SynPCI-X card slot doorbell");
MODULE_AUTHOR("SynPCI-X project");
MODULE_LICENSE("GPL");
