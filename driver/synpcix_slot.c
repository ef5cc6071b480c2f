// SPDX-License-Identifier: GPL-2.0-only
/*
 * SynPCI-X slot API (include/synpcix_slot.h): hands the card's MSI capture
 * slots to NIC drivers and msi_redirect, and tears them down safely when
 * the card goes away. The register work is in core/synpcix_slot.c.
 *
 * Locking: synpcix_slots_mutex protects the list of bound cards, every
 * card's slot table and each handle's link to its card; slot operations
 * that touch the card hold it, so they cannot race with teardown. Holders
 * call in with their own locks held and synpcix calls revoke() without
 * this mutex, so the only order is holder lock -> synpcix_slots_mutex.
 * synpcix_slot_stamp() takes no lock: it reads the card's reference time
 * (an atomic) and constants, and holders do not call it after revoke or
 * put (the contract in the header).
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/kref.h>
#include <linux/mutex.h>

#include "synpcix.h"

/* Data a doorbell write carries: tagged, so last_data shows a foreign write. */
#define SYNPCIX_SLOT_MSI_DATA(nr) (0x5300u | (nr))

struct synpcix_slot {
	struct kref ref;		/* holder's, plus teardown's during revoke */
	struct synpcix *sp;		/* NULL once released or revoked */
	struct pci_dev *card;		/* referenced */
	unsigned int nr;
	bool held;			/* holder has not put it yet */
	synpcix_revoke_fn revoke;
	void *ctx;
	char owner[48];
};

static DEFINE_MUTEX(synpcix_slots_mutex);
static LIST_HEAD(synpcix_cards);

static void synpcix_slot_free(struct kref *ref)
{
	struct synpcix_slot *h = container_of(ref, struct synpcix_slot, ref);

	pci_dev_put(h->card);
	kfree(h);
}

/* Detach h from its card, slot disabled; caller holds the mutex. */
static void synpcix_slot_detach(struct synpcix_slot *h)
{
	struct synpcix *sp = h->sp;

	if (!sp)
		return;
	if (pci_device_is_present(sp->pdev))
		spx_slot_disable(&sp->hw, h->nr);
	sp->slot[h->nr] = NULL;
	atomic_dec(&sp->slots_held);
	WRITE_ONCE(h->sp, NULL);	/* synpcix_slot_stamp reads it unlocked */
}

void synpcix_refresh_ref(struct synpcix *sp)
{
	u64 ns;

	if (!spx_read_time(&sp->hw, &ns, NULL, NULL))
		atomic64_set(&sp->ref_ns, ns);
}

/**
 * synpcix_slot_get - take a free MSI capture slot
 * @card: the card's PCI device, or NULL for the first card that has one free
 * @nr: slot number, or -1 for any free slot
 * @owner: who holds it (shown in sysfs), copied
 * @revoke: called when the card goes away (see include/synpcix_slot.h)
 * @ctx: passed to @revoke
 *
 * Return: the slot, or ERR_PTR(-ENODEV) without a bound card (or @card is
 * not one), -EOPNOTSUPP when the card has no slots, -EINVAL for an @nr it
 * does not have, -EBUSY when @nr (or every slot) is taken.
 */
struct synpcix_slot *synpcix_slot_get(struct pci_dev *card, int nr,
				      const char *owner,
				      synpcix_revoke_fn revoke, void *ctx)
{
	struct synpcix_slot *h;
	struct synpcix *sp;
	int err = -ENODEV;
	unsigned int i;

	if (!revoke)
		return ERR_PTR(-EINVAL);
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return ERR_PTR(-ENOMEM);
	kref_init(&h->ref);
	h->revoke = revoke;
	h->ctx = ctx;
	strscpy(h->owner, owner ? owner : "?", sizeof(h->owner));

	mutex_lock(&synpcix_slots_mutex);
	list_for_each_entry(sp, &synpcix_cards, card_node) {
		if (card && sp->pdev != card)
			continue;
		if (sp->dying)
			continue;
		if (!sp->hw.n_slots) {
			err = -EOPNOTSUPP;
			continue;
		}
		if (nr >= 0) {
			if (nr >= sp->hw.n_slots) {
				err = -EINVAL;
				continue;
			}
			if (sp->slot[nr]) {
				err = -EBUSY;
				continue;
			}
			i = nr;
		} else {
			for (i = 0; i < sp->hw.n_slots && sp->slot[i]; i++)
				;
			if (i == sp->hw.n_slots) {
				err = -EBUSY;
				continue;
			}
		}
		h->sp = sp;
		h->nr = i;
		h->held = true;
		h->card = pci_dev_get(sp->pdev);
		sp->slot[i] = h;
		atomic_inc(&sp->slots_held);
		/*
		 * The first stamp may come at once: reference now, then
		 * every second. Under the mutex: teardown cannot free sp.
		 */
		synpcix_refresh_ref(sp);
		ptp_schedule_worker(sp->ptp, 0);
		break;
	}
	mutex_unlock(&synpcix_slots_mutex);
	if (!h->sp) {
		kfree(h);
		return ERR_PTR(err);
	}
	pci_dbg(h->card, "slot %u taken by %s\n", h->nr, h->owner);
	return h;
}
EXPORT_SYMBOL_GPL(synpcix_slot_get);

/**
 * synpcix_slot_put - give a slot back (disabled first); NULL or ERR_PTR ok
 * @h: the slot
 */
void synpcix_slot_put(struct synpcix_slot *h)
{
	if (IS_ERR_OR_NULL(h))
		return;
	mutex_lock(&synpcix_slots_mutex);
	if (h->held) {
		h->held = false;
		synpcix_slot_detach(h);
	}
	mutex_unlock(&synpcix_slots_mutex);
	kref_put(&h->ref, synpcix_slot_free);
}
EXPORT_SYMBOL_GPL(synpcix_slot_put);

unsigned int synpcix_slot_nr(struct synpcix_slot *h)
{
	return h->nr;
}
EXPORT_SYMBOL_GPL(synpcix_slot_nr);

/* The card's PCI device; valid until synpcix_slot_put() (referenced). */
struct pci_dev *synpcix_slot_card(struct synpcix_slot *h)
{
	return h->card;
}
EXPORT_SYMBOL_GPL(synpcix_slot_card);

/*
 * Run fn on the card under the mutex, or -ENODEV once the slot is revoked.
 * A card that stopped answering also gives -ENODEV from the core.
 */
#define SLOT_CALL(h, expr)                                         \
	({                                                         \
		struct synpcix *sp;                                \
		int __r = -ENODEV;                                 \
		mutex_lock(&synpcix_slots_mutex);                  \
		sp = (h)->sp;                                      \
		if (sp)                                            \
			__r = (expr);                              \
		mutex_unlock(&synpcix_slots_mutex);                \
		__r;                                               \
	})

/**
 * synpcix_slot_doorbell - where the device's MSI must write
 * @h: the slot
 * @addr: CPU physical address of the doorbell (BAR start +
 *        RSV_DOORBELLS_BASE + nr * RSV_DOORBELLS_STRIDE); map it for the
 *        writing device with dma_map_resource() to get its bus address
 * @msi_data: the message data to use
 */
int synpcix_slot_doorbell(struct synpcix_slot *h, phys_addr_t *addr,
			  u32 *msi_data)
{
	return SLOT_CALL(h, ({
		*addr = sp->regs_phys + SYNPCIX_RSV_DOORBELLS_BASE +
			(phys_addr_t)h->nr * SYNPCIX_RSV_DOORBELLS_STRIDE;
		*msi_data = SYNPCIX_SLOT_MSI_DATA(h->nr);
		0;
	}));
}
EXPORT_SYMBOL_GPL(synpcix_slot_doorbell);

/* Program the ring of a disabled slot; every field checked (core). */
int synpcix_slot_set_ring(struct synpcix_slot *h, const struct synpcix_ring *ring)
{
	const struct spx_ring r = {
		.base = ring->base, .count = ring->count, .stride = ring->stride,
		.stamp_off = ring->stamp_off, .done_off = ring->done_off,
		.done_mask = ring->done_mask, .index = ring->index,
		.cause_en = ring->cause_en, .cause_addr = ring->cause_addr,
		.head_addr = ring->head_addr,
	};

	return SLOT_CALL(h, spx_slot_program(&sp->hw, h->nr, &r));
}
EXPORT_SYMBOL_GPL(synpcix_slot_set_ring);

int synpcix_slot_enable(struct synpcix_slot *h)
{
	return SLOT_CALL(h, spx_slot_enable(&sp->hw, h->nr));
}
EXPORT_SYMBOL_GPL(synpcix_slot_enable);

/* Returns when the card no longer writes into the ring (or -ETIMEDOUT). */
int synpcix_slot_disable(struct synpcix_slot *h)
{
	return SLOT_CALL(h, spx_slot_disable(&sp->hw, h->nr));
}
EXPORT_SYMBOL_GPL(synpcix_slot_disable);

/*
 * Linux IRQ of the card's vector for this slot: the card sends vector
 * nr with the bits above the granted count dropped (docs/card-internals.md
 * section 5), so with one vector per slot it is vector nr, with a single
 * one (MSI or INTx) vector 0 for every slot. A shared one is requested with
 * IRQF_SHARED, and the handler asks synpcix_slot_irq_check() whether the
 * interrupt was this slot's. -ENXIO: the card has no interrupt.
 */
int synpcix_slot_irq(struct synpcix_slot *h)
{
	return SLOT_CALL(h, sp->nvec <= 0 ? -ENXIO :
			 pci_irq_vector(sp->pdev, h->nr & (sp->nvec - 1)));
}
EXPORT_SYMBOL_GPL(synpcix_slot_irq);

/**
 * synpcix_slot_irq_check - new activity on the slot since *@seen?
 * @h: the slot
 * @seen: the holder's copy of the slot's activity count (captures handled
 *        plus doorbells lost to a full FIFO); set it with a first call
 *        before requesting the IRQ
 *
 * The card's interrupt for a slot follows the write-back of that count
 * (docs/stamping.md, pass step 5 before 6), so a handler that sees the
 * count unchanged was called for another slot sharing the vector, or for a
 * raise whose activity an earlier call already reported.
 *
 * Any context, hard IRQ included (a spinlock, two register reads and one
 * write; on the card the window read waits for the engine to finish a pass,
 * a few microseconds at most). No sleeping lock: the holder calls it only
 * while it holds the slot and from its own IRQ handler, which it frees in
 * revoke, so the card is there.
 *
 * Return: 1 new activity (*@seen updated), 0 none, -ENODEV after revoke or
 * when the card does not answer.
 */
int synpcix_slot_irq_check(struct synpcix_slot *h, u32 *seen)
{
	struct synpcix *sp = READ_ONCE(h->sp);
	u32 now;
	int err;

	if (!sp)
		return -ENODEV;
	err = spx_slot_activity(&sp->hw, h->nr, &now);
	if (err)
		return err;
	if (now == *seen)
		return 0;
	*seen = now;
	return 1;
}
EXPORT_SYMBOL_GPL(synpcix_slot_irq_check);

/*
 * Mask (hold back) or unmask the slot's card interrupt; a request made
 * while masked is raised at the unmask. Any context, hard IRQ included,
 * for the reason given at synpcix_slot_irq_check() (the irq.mask update
 * is under the window spinlock): a NIC driver masks it in its interrupt
 * handler and unmasks it when its NAPI poll completes.
 */
int synpcix_slot_irq_mask(struct synpcix_slot *h, bool masked)
{
	struct synpcix *sp = READ_ONCE(h->sp);

	if (!sp)
		return -ENODEV;
	return spx_irq_mask(&sp->hw, h->nr, masked);
}
EXPORT_SYMBOL_GPL(synpcix_slot_irq_mask);

/**
 * synpcix_slot_cause_acc - NIC cause bits the card read since the last call
 * @h: the slot
 * @acc: the bits (the card's read of the NIC's read-to-clear cause register
 *       cleared them in the NIC, so the NIC driver must see them here)
 *
 * Any context, hard IRQ included, for the same reason as
 * synpcix_slot_irq_check(): the NIC driver ORs these bits into the cause
 * it reads in its interrupt handler, which it frees before it gives the
 * slot back. The read clears the card's accumulator.
 *
 * Return: 0, or -ENODEV after revoke.
 */
int synpcix_slot_cause_acc(struct synpcix_slot *h, u32 *acc)
{
	struct synpcix *sp = READ_ONCE(h->sp);

	if (!sp)
		return -ENODEV;
	return spx_slot_cause_acc(&sp->hw, h->nr, acc);
}
EXPORT_SYMBOL_GPL(synpcix_slot_cause_acc);

/* For ethtool -T: the index of the card's /dev/ptpN. */
int synpcix_slot_phc_index(struct synpcix_slot *h)
{
	return SLOT_CALL(h, ptp_clock_index(sp->ptp));
}
EXPORT_SYMBOL_GPL(synpcix_slot_phc_index);

/**
 * synpcix_slot_stamp - card time of a raw stamp read from a ring entry
 * @h: the slot
 * @raw: the entry's stamp field (little-endian 64-bit value)
 * @t: card time of the doorbell write (latch latency removed)
 * @seq: the stamp's sequence, or NULL
 * @batched: whether the entry was found after the first of its capture, or NULL
 *
 * Return: 0, or -ENODATA when @raw is not a stamp (the card has not
 * stamped the entry: its buffer address is still there), -ENODEV after
 * revoke. Any context; no lock. The 48-bit time is extended from the
 * card's reference time, which the PTP aux worker refreshes every
 * SYNPCIX_REF_MS while a slot is held: correct for stamps within 2^47 ns
 * (39 hours) of it.
 */
int synpcix_slot_stamp(struct synpcix_slot *h, u64 raw, ktime_t *t, u8 *seq,
		       bool *batched)
{
	struct synpcix *sp = READ_ONCE(h->sp);
	struct spx_stamp st;
	int err;

	if (!sp)
		return -ENODEV;
	err = spx_stamp_decode(raw, (u64)atomic64_read(&sp->ref_ns),
			       sp->hw.latch_ns, &st);
	if (err)
		return err;
	*t = ns_to_ktime(min_t(u64, st.ns, KTIME_MAX));
	if (seq)
		*seq = st.seq;
	if (batched)
		*batched = st.batched;
	return 0;
}
EXPORT_SYMBOL_GPL(synpcix_slot_stamp);

/* ------------------------------------------------------------------ */
/* Stamp refinement (docs/driver.md, "Stamp refinement")                */
/* ------------------------------------------------------------------ */

/**
 * synpcix_slot_stamp_rx - arrival time of a received frame from its stamp
 * @h: the slot
 * @raw: the entry's stamp field (little-endian 64-bit value)
 * @len: the descriptor's length field (bytes of the frame in the buffer)
 * @chain: the ring's refinement state (struct synpcix_rx_chain), caller's
 * @t: the frame's arrival (last bit) on the card's clock
 * @seq: the stamp's 8-bit sequence, or NULL
 * @batched: whether the stamp was batched, or NULL
 *
 * synpcix_slot_stamp() plus the two corrections of the core's
 * spx_stamp_refine(): the slot's ingress latency (sysfs
 * slotN/ingress_latency_ns + ingress_latency_ps_per_byte * len, 0 by
 * default) off an exact stamp, and a batched stamp raised to the previous
 * entry's time plus this frame's wire time when that is later. Call it for every stamped
 * entry in ring order, from one context per ring (NAPI). Returns as
 * synpcix_slot_stamp(); on an error @chain is unchanged.
 */
int synpcix_slot_stamp_rx(struct synpcix_slot *h, u64 raw, u32 len,
			  struct synpcix_rx_chain *chain, ktime_t *t,
			  u8 *seq, bool *batched)
{
	struct synpcix *sp = READ_ONCE(h->sp);
	struct spx_rx_chain c;
	struct spx_ingress lat;
	struct spx_stamp st;
	u64 ns;
	int err;

	if (!sp)
		return -ENODEV;
	err = spx_stamp_decode(raw, (u64)atomic64_read(&sp->ref_ns),
			       sp->hw.latch_ns, &st);
	if (err)
		return err;
	lat.base_ns = READ_ONCE(sp->ingress[h->nr].base_ns);
	lat.ps_per_byte = READ_ONCE(sp->ingress[h->nr].ps_per_byte);
	c.prev_ns = chain->prev_ns;
	c.link_mbps = chain->link_mbps;
	c.len_has_fcs = chain->len_has_fcs;
	c.valid = chain->valid;
	ns = spx_stamp_refine(&c, &st, len, &lat, NULL);
	chain->prev_ns = c.prev_ns;
	chain->valid = c.valid;
	*t = ns_to_ktime(min_t(u64, ns, KTIME_MAX));
	if (seq)
		*seq = st.seq;
	if (batched)
		*batched = st.batched;
	return 0;
}
EXPORT_SYMBOL_GPL(synpcix_slot_stamp_rx);

/* sysfs slotN/ingress_latency_*: dev_ext_attribute var = slot << 8 | file */
ssize_t synpcix_slot_ingress_show(struct device *dev, struct device_attribute *attr,
				  char *buf)
{
	struct dev_ext_attribute *ea = container_of(attr, struct dev_ext_attribute, attr);
	unsigned long v = (unsigned long)ea->var;
	unsigned int nr = v >> 8, file = v & 0xff;
	struct synpcix *sp = dev_get_drvdata(dev);

	if (!sp || nr >= sp->hw.n_slots)
		return -ENODEV;
	return sysfs_emit(buf, "%d\n", file == SF_INGRESS_NS ?
			  READ_ONCE(sp->ingress[nr].base_ns) :
			  READ_ONCE(sp->ingress[nr].ps_per_byte));
}

ssize_t synpcix_slot_ingress_store(struct device *dev, struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct dev_ext_attribute *ea = container_of(attr, struct dev_ext_attribute, attr);
	unsigned long v = (unsigned long)ea->var;
	unsigned int nr = v >> 8, file = v & 0xff;
	struct synpcix *sp = dev_get_drvdata(dev);
	struct spx_ingress lat;
	int val, err;

	if (!sp || nr >= sp->hw.n_slots)
		return -ENODEV;
	err = kstrtoint(buf, 0, &val);
	if (err)
		return err;
	lat = sp->ingress[nr];
	if (file == SF_INGRESS_NS)
		lat.base_ns = val;
	else
		lat.ps_per_byte = val;
	if (spx_ingress_check(&lat))
		return -ERANGE;
	if (file == SF_INGRESS_NS)
		WRITE_ONCE(sp->ingress[nr].base_ns, val);
	else
		WRITE_ONCE(sp->ingress[nr].ps_per_byte, val);
	return count;
}

/* ------------------------------------------------------------------ */
/* Card side                                                            */
/* ------------------------------------------------------------------ */

/*
 * Card going away (devm action, runs first on unbind/removal while the
 * BAR is still mapped): no new holders; each holder is told and then its
 * slot is disabled and cut off.
 */
static void synpcix_slots_teardown(void *data)
{
	struct synpcix *sp = data;
	struct synpcix_slot *h;
	unsigned int i;

	mutex_lock(&synpcix_slots_mutex);
	sp->dying = true;
	list_del(&sp->card_node);
	mutex_unlock(&synpcix_slots_mutex);

	for (i = 0; i < sp->hw.n_slots; i++) {
		mutex_lock(&synpcix_slots_mutex);
		h = sp->slot[i];
		if (h)
			kref_get(&h->ref);	/* alive through revoke */
		mutex_unlock(&synpcix_slots_mutex);
		if (!h)
			continue;
		dev_info(&sp->pdev->dev, "slot %u: card going away, revoking it from %s\n",
			 i, h->owner);
		h->revoke(h, h->ctx);
		mutex_lock(&synpcix_slots_mutex);
		synpcix_slot_detach(h);
		mutex_unlock(&synpcix_slots_mutex);
		kref_put(&h->ref, synpcix_slot_free);
	}
}

int synpcix_slots_register(struct synpcix *sp)
{
	atomic_set(&sp->slots_held, 0);
	synpcix_refresh_ref(sp);
	mutex_lock(&synpcix_slots_mutex);
	list_add_tail(&sp->card_node, &synpcix_cards);
	mutex_unlock(&synpcix_slots_mutex);
	return devm_add_action_or_reset(&sp->pdev->dev, synpcix_slots_teardown, sp);
}

/* ------------------------------------------------------------------ */
/* sysfs: per-slot files in slotN/ (docs/sysfs-synpcix.md)              */
/* ------------------------------------------------------------------ */

ssize_t synpcix_slot_file_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	struct dev_ext_attribute *ea = container_of(attr, struct dev_ext_attribute, attr);
	unsigned long v = (unsigned long)ea->var;
	unsigned int nr = v >> 8, file = v & 0xff;
	struct synpcix *sp = dev_get_drvdata(dev);
	struct spx_slot_counters c;
	int err;

	if (!sp || nr >= sp->hw.n_slots)
		return -ENODEV;
	if (file == SF_OWNER) {
		ssize_t n;

		mutex_lock(&synpcix_slots_mutex);
		n = sysfs_emit(buf, "%s\n", sp->slot[nr] ? sp->slot[nr]->owner : "");
		mutex_unlock(&synpcix_slots_mutex);
		return n;
	}
	err = spx_slot_read(&sp->hw, nr, &c);
	if (err)
		return err;
	switch (file) {
	case SF_ENABLED:
		return sysfs_emit(buf, "%u\n", !!(c.ctrl & SYNPCIX_MSI_SLOTS_CTRL_ENABLE_MASK));
	case SF_INDEX:
		return sysfs_emit(buf, "%u\n", c.index & 0xffff);
	case SF_CAPTURES:
		return sysfs_emit(buf, "%u\n", c.captures);
	case SF_STAMPED:
		return sysfs_emit(buf, "%u\n", c.stamped);
	case SF_BATCHED:
		return sysfs_emit(buf, "%u\n", c.batched);
	case SF_EMPTY:
		return sysfs_emit(buf, "%u\n", c.empty);
	case SF_OVERFLOW:
		return sysfs_emit(buf, "%u\n", c.overflow);
	case SF_DMA_ERRORS:
		return sysfs_emit(buf, "%u\n", c.dma_errors);
	case SF_CAUSE_LAST:
		return sysfs_emit(buf, "0x%08x\n", c.cause_last);
	case SF_AMBIGUOUS:
		return sysfs_emit(buf, "%u\n", c.ambiguous);
	case SF_LAST_DATA:
		return sysfs_emit(buf, "0x%04x\n", c.last_data & 0xffff);
	}
	return -EINVAL;
}
