/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SynPCI-X PCI identity: the one place these numbers are written.
 *
 * The gateware's configuration space (hdl/pci/, issue 3) must read them from
 * here: every line below that starts with "#define SYNPCIX_PCI_" has the form
 * "#define NAME 0xHEX" so a generator can take them with one regular
 * expression. Why these values: docs/decisions.md, section "PCI IDs".
 *
 * The vendor ID is NOT assigned to this project by the PCI-SIG. It is the
 * unassigned ID that QEMU's own emulated devices and other open FPGA cards use
 * for the same reason; it must be replaced by a registered ID before cards
 * are distributed. The driver never trusts the ID alone: probe also checks
 * the magic word of the card's identity block.
 */
#ifndef SYNPCIX_PCI_IDS_H
#define SYNPCIX_PCI_IDS_H

#define SYNPCIX_PCI_VENDOR_ID 0x1234
#define SYNPCIX_PCI_DEVICE_ID 0x5350
#define SYNPCIX_PCI_SUBVENDOR_ID 0x1234
#define SYNPCIX_PCI_SUBDEVICE_ID 0x0001
/* Base class 0x11 "signal processing controller", subclass 0x80 "other". */
#define SYNPCIX_PCI_CLASS 0x118000
/* BAR holding the register window described by hdl/regmap/synpcix.toml. */
#define SYNPCIX_PCI_REG_BAR 0x0

#endif /* SYNPCIX_PCI_IDS_H */
