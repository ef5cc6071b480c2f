// SPDX-License-Identifier: GPL-2.0-only
/*
 * msir_apitest.ko: exercises msi_redirect's in-kernel API
 * (msi-redirect/msi_redirect.h) from a module, the way the patched e1000
 * uses it. Built and run by tests/kernel (run.sh builds it against the
 * same headers, guest-init.sh loads it). Each check logs one line
 * "msir_apitest: ok cardC-NAME" or "msir_apitest: not ok cardC-NAME: why"
 * (C: the card parameter, so the two runs' names differ); the guest
 * turns them into results. The module stays loaded until rmmod and holds
 * nothing.
 *
 * Parameters: dev, an MSI/MSI-X capable device with its driver bound (the
 * e1000e); nomsi, a device without MSI capability (the e1000); card: 0 when
 * no card is bound (every request must be refused), 1 when the register
 * image is bound (slots exist, but the image has no interrupt, so the API
 * must refuse a redirect it could not forward, and leave the device as it
 * was).
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/err.h>

#include "synpcix_slot.h"
#include "msi_redirect.h"

static char *dev = "";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "PCI address of a device with MSI/MSI-X enabled");
static char *nomsi = "";
module_param(nomsi, charp, 0444);
MODULE_PARM_DESC(nomsi, "PCI address of a device without MSI capability");
static int card;
module_param(card, int, 0444);
MODULE_PARM_DESC(card, "1: a card without interrupt (register image) is bound");

static void result(const char *name, bool pass, const char *fmt, long v)
{
	if (pass)
		pr_info("msir_apitest: ok card%d-%s\n", card, name);
	else
		pr_info("msir_apitest: not ok card%d-%s: %s %ld\n", card, name, fmt, v);
}

/* r must be ERR_PTR(want); anything else (a redirect!) is released. */
static void expect_err(const char *name, struct msir *r, long want)
{
	if (!IS_ERR(r)) {
		msi_redirect_release(r);
		result(name, false, "redirect made, wanted errno", -want);
		return;
	}
	result(name, PTR_ERR(r) == want, "got errno", -PTR_ERR(r));
}

static struct pci_dev *lookup(const char *bdf)
{
	unsigned int dom, bus, slot, fn;

	if (sscanf(bdf, "%x:%x:%x.%x", &dom, &bus, &slot, &fn) != 4)
		return NULL;
	return pci_get_domain_bus_and_slot(dom, bus, PCI_DEVFN(slot, fn));
}

static void revoke(struct synpcix_slot *slot, void *ctx)
{
	/* nothing redirected is left by the time a card could go */
}

/* config space of pdev, to see that a refusal changed nothing */
static void snapshot(struct pci_dev *pdev, u32 *cfg)
{
	int i;

	for (i = 0; i < 64; i++)
		pci_read_config_dword(pdev, i * 4, &cfg[i]);
}

static int __init msir_apitest_init(void)
{
	struct pci_dev *pdev = lookup(dev), *plain = lookup(nomsi);
	struct synpcix_slot *slot;
	u32 before[64], after[64];

	msi_redirect_release(NULL);
	msi_redirect_release(ERR_PTR(-ENODEV));
	result("api-release-null-and-errptr", true, "", 0);
	result("api-test-devices-found", pdev && plain, "missing device", 0);
	if (!pdev || !plain)
		goto out;
	expect_err("api-null-device", msi_redirect_slot(NULL, 0, NULL), -EINVAL);
	expect_err("api-null-slot", msi_redirect_slot(pdev, 0, NULL), -EINVAL);
	expect_err("api-errptr-slot",
		   msi_redirect_slot(pdev, 0, ERR_PTR(-ENODEV)), -EINVAL);

	slot = synpcix_slot_get(NULL, -1, "msir_apitest", revoke, NULL);
	if (!card) {
		result("api-no-card-no-slot", IS_ERR(slot) && PTR_ERR(slot) == -ENODEV,
		       "slot_get gave", IS_ERR(slot) ? -PTR_ERR(slot) : 0);
		if (!IS_ERR(slot))
			synpcix_slot_put(slot);
		goto out;
	}
	result("api-image-slot", !IS_ERR(slot), "slot_get errno",
	       IS_ERR(slot) ? -PTR_ERR(slot) : 0);
	if (IS_ERR(slot))
		goto out;
	result("api-image-slot-irq-none", synpcix_slot_irq(slot) == -ENXIO,
	       "synpcix_slot_irq gave", synpcix_slot_irq(slot));
	snapshot(pdev, before);
	expect_err("api-no-msi-capability", msi_redirect_slot(plain, 0, slot),
		   -EOPNOTSUPP);
	expect_err("api-vector-out-of-range", msi_redirect_slot(pdev, 4096, slot),
		   -EINVAL);
	expect_err("api-card-without-interrupt-refused",
		   msi_redirect_slot(pdev, 0, slot), -EOPNOTSUPP);
	snapshot(pdev, after);
	result("api-refusals-leave-device-untouched",
	       !memcmp(before, after, sizeof(before)), "config differs", 0);
	synpcix_slot_put(slot);
out:
	pci_dev_put(pdev);
	pci_dev_put(plain);
	return 0;
}

static void __exit msir_apitest_exit(void)
{
}

module_init(msir_apitest_init);
module_exit(msir_apitest_exit);

MODULE_DESCRIPTION("Test of msi_redirect's in-kernel API (tests/kernel)");
MODULE_LICENSE("GPL");
