/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msi_redirect in-kernel API, for a device driver that wants its own MSI
 * (or MSI-X) vector stamped by a SynPCI-X card slot it holds itself (the
 * patched e1000 does this; it also programs the slot's ring).
 *
 *   slot = synpcix_slot_get(NULL, -1, name, my_revoke, priv);
 *   r = msi_redirect_slot(pdev, 0, slot);     after the vector is allocated
 *   ... the device's MSI now writes the slot's doorbell; the card's
 *   ... interrupt for the slot runs the handler requested on the device's
 *   ... own IRQ (pci_irq_vector(pdev, 0)), so request_irq() is unchanged
 *   msi_redirect_release(r);                  restores the device's message
 *   synpcix_slot_put(slot);
 *
 * The caller holds the slot for as long as the redirect lasts and must call
 * msi_redirect_release() from its revoke callback (before the slot goes)
 * and before it frees the device's vectors. Everything here may sleep.
 * The sysfs interface (/sys/kernel/msi_redirect/) and this API share the
 * same redirect list: `redirects` shows both kinds.
 */
#ifndef MSI_REDIRECT_API_H
#define MSI_REDIRECT_API_H

struct pci_dev;
struct synpcix_slot;
struct msir;

/*
 * Point @pdev's @vector (MSI or MSI-X entry index, as enabled by its
 * driver) at @slot's doorbell and forward the slot's card interrupt to the
 * vector's Linux IRQ. Returns the redirect or an ERR_PTR: -ENODEV (no MSI
 * enabled / card gone), -EBUSY (vector already redirected), -EOPNOTSUPP
 * (interrupt remapping or an IOMMU that blocks the doorbell), -EINVAL.
 */
struct msir *msi_redirect_slot(struct pci_dev *pdev, unsigned int vector,
			       struct synpcix_slot *slot);

/* Restore the device's original message and INTx bit, stop forwarding. */
void msi_redirect_release(struct msir *r);

#endif /* MSI_REDIRECT_API_H */
