// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SynPCI-X timing card for QEMU: a PCI device whose behaviour is the
 * Verilated gateware (hdl/core clock_core + capture_unit, through
 * sim/verilator/card_sim.h). QEMU does the PCI side: configuration space,
 * BAR0 decoding, bus-master DMA and the MSI capability.
 *
 * PCI identity from driver/core/synpcix_pci_ids.h; BAR0 is the card's 4 KiB
 * register window. Every guest access to BAR0 first runs the gateware up to
 * the card time that corresponds to the current QEMU_CLOCK_VIRTUAL time,
 * then goes through the model's register port (card_read32/card_write32).
 * Writes to the doorbell window (0x800..0xFFF) are doorbells: the model
 * strobes the capture unit's doorbell at that card time (a CPU write there
 * is exactly what an MSI write is to the card). Nothing here knows what a
 * register means, with one exception: INTx acknowledge (below).
 *
 * DMA: the capture unit's DMA port is served by pci_dma_read/pci_dma_write
 * at the card time of the transfer (fixed latencies of card_sim.h). Bus
 * mastering off, or nothing at the address, ends the request in master
 * abort (the gateware counts it in dma.errors), as on the bus; any other
 * memory transaction error is a target abort. A request at the card's own
 * BAR0 is a master abort, as in pci_interface (the target does not claim
 * the card's own cycles).
 *
 * Interrupts: the MSI capability of the gateware's pci_target (config 0x40,
 * 4 vectors, 64-bit, no per-vector masking). The capture unit's irq_raise
 * for slot i becomes msi_notify of vector i with the vector's bits above
 * the granted count (MME) dropped, as pci_msi_raise does. Bus mastering off
 * drops the message (QEMU's bus-master address space is disabled). With
 * MSI off the card uses INTA#: a raise asserts it, and it stays asserted
 * until the driver writes irq.mask (an interrupt handler masks the card
 * before it polls). This acknowledge is this device's stand-in: the
 * gateware's INTx acknowledge (card_irq int_pending, card-internals.md
 * section 5) does not exist yet.
 *
 * Time. The model cannot run 125 MHz in real time (about 1.5 M clocks per
 * host second), so card time is guest virtual time divided by clock-scale:
 *
 *     card_ns = card_ns_at_reset + (virtual_ns - virtual_ns_at_reset) / scale
 *
 * The gateware still runs its nominal 125 MHz timebase and 66.67 MHz bus
 * clock in card time and counts 8 ns per timebase clock, so everything
 * inside the card is exact in card time; seen from the guest, the card's
 * clock runs `scale` times slower than its own clocks (docs/simulation.md,
 * "The card inside QEMU"). With -icount the guest's virtual time, and so
 * every value the card returns, is deterministic.
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/timer.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "hw/pci/pci.h"
#include "hw/pci/msi.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "qom/object.h"

#include "synpcix_pci_ids.h"
#include "card_sim.h"
#include "synpcix_regs.h"

#define TYPE_SYNPCIX "synpcix"
#define SYNPCIX_BAR0_SIZE (4 * KiB)
/* Catch-up tick in virtual time (see synpcix_tick). */
#define SYNPCIX_TICK_NS (10 * SCALE_MS)
/* The gateware's MSI capability (hdl/pci/pci_target.vhd, docs/pci.md). */
#define SYNPCIX_MSI_OFFSET 0x40
#define SYNPCIX_MSI_VECTORS 4

OBJECT_DECLARE_SIMPLE_TYPE(SynpcixState, SYNPCIX)

struct SynpcixState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    QEMUTimer *tick;
    struct card *card;
    int64_t virt_base;      /* QEMU_CLOCK_VIRTUAL at card reset (ns) */
    double card_base;       /* card time at that moment (ns) */
    uint32_t scale;         /* virtual ns per card ns */
    uint64_t accesses;
    bool in_card;           /* the gateware is running (callbacks may come) */
    bool intx;              /* INTA# asserted (MSI off) */
    uint64_t dma_reads, dma_writes, dma_aborts, msis, intx_raises;
};

static int synpcix_dma(void *opaque, int write, uint64_t addr, uint32_t *words,
                       unsigned n)
{
    SynpcixState *s = opaque;
    PCIDevice *pdev = PCI_DEVICE(s);
    pcibus_t bar = pci_get_bar_addr(pdev, SYNPCIX_PCI_REG_BAR);
    uint8_t buf[16 * 4];
    MemTxResult r;
    unsigned k;

    if (n > 16) {
        return CARD_DMA_MASTER_ABORT;   /* the port never asks for more */
    }
    if (!(pci_get_word(pdev->config + PCI_COMMAND) & PCI_COMMAND_MASTER) ||
        (bar != PCI_BAR_UNMAPPED && addr < bar + SYNPCIX_BAR0_SIZE &&
         addr + 4 * n > bar)) {
        s->dma_aborts++;
        return CARD_DMA_MASTER_ABORT;
    }
    if (write) {
        for (k = 0; k < n; k++) {
            stl_le_p(buf + 4 * k, words[k]);
        }
        r = pci_dma_write(pdev, addr, buf, 4 * n);
        s->dma_writes++;
    } else {
        r = pci_dma_read(pdev, addr, buf, 4 * n);
        s->dma_reads++;
        for (k = 0; k < n; k++) {
            words[k] = ldl_le_p(buf + 4 * k);
        }
    }
    if (r == MEMTX_OK) {
        return CARD_DMA_OK;
    }
    s->dma_aborts++;
    return (r & MEMTX_DECODE_ERROR) ? CARD_DMA_MASTER_ABORT
                                    : CARD_DMA_TARGET_ABORT;
}

static void synpcix_irq(void *opaque, unsigned slot)
{
    SynpcixState *s = opaque;
    PCIDevice *pdev = PCI_DEVICE(s);

    if (msi_enabled(pdev)) {
        msi_notify(pdev, slot & (msi_nr_vectors_allocated(pdev) - 1));
        s->msis++;
    } else {
        s->intx = true;
        s->intx_raises++;
        pci_set_irq(pdev, 1);
    }
}

static void synpcix_card_reset(SynpcixState *s)
{
    card_free(s->card);
    s->card = card_new();
    card_set_dma(s->card, synpcix_dma, s);
    card_set_irq(s->card, synpcix_irq, s);
    s->intx = false;
    s->virt_base = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    s->card_base = card_now_ns(s->card);
    timer_mod(s->tick, s->virt_base + SYNPCIX_TICK_NS);
}

/* Run the gateware up to the card time of the current virtual time. */
static void synpcix_catch_up(SynpcixState *s)
{
    int64_t dv = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->virt_base;
    double t;

    if (dv <= 0) {
        return;
    }
    t = s->card_base + (double)dv / s->scale;
    /* a register access runs the card a few bus clocks past "now" */
    if (t > card_now_ns(s->card)) {
        s->in_card = true;
        card_run_until(s->card, t);
        s->in_card = false;
    }
}

/*
 * An access to BAR0 while the gateware runs can only come from one of its
 * own callbacks (a DMA that makes another device write here); the model is
 * not re-entrant, and the card's own cycles never reach its target anyway.
 */
static bool synpcix_reentered(SynpcixState *s, hwaddr addr)
{
    if (s->in_card) {
        qemu_log_mask(LOG_GUEST_ERROR, "synpcix: BAR0 access at 0x%03" HWADDR_PRIx
                      " from inside the card's own DMA or interrupt, ignored\n",
                      addr);
    }
    return s->in_card;
}

/*
 * Keep the card within one tick of virtual time even when the guest does
 * not touch it. Without this, an idle guest under -icount sleep=off warps
 * virtual time ahead for free and the next register access would have to
 * simulate all of it at once, holding the BQL (QEMU could not even be
 * stopped). With it, every warp stops at a tick and pays for its card time:
 * virtual time cannot outrun the gateware by more than one tick.
 */
static void synpcix_tick(void *opaque)
{
    SynpcixState *s = opaque;

    synpcix_catch_up(s);
    timer_mod(s->tick, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + SYNPCIX_TICK_NS);
}

static uint64_t synpcix_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    SynpcixState *s = opaque;
    uint32_t v;

    if (synpcix_reentered(s, addr)) {
        return 0;
    }
    synpcix_catch_up(s);
    s->accesses++;
    s->in_card = true;
    v = card_read32(s->card, addr);
    s->in_card = false;
    return v;
}

static void synpcix_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    SynpcixState *s = opaque;
    PCIDevice *pdev = PCI_DEVICE(s);

    if (synpcix_reentered(s, addr)) {
        return;
    }
    synpcix_catch_up(s);
    s->accesses++;
    /* INTx acknowledge (see the top): before the write, which may raise */
    if (addr == SYNPCIX_IRQ_MASK && s->intx) {
        s->intx = false;
        pci_set_irq(pdev, 0);
    }
    s->in_card = true;
    card_write32(s->card, addr, val);   /* 0x800..: a doorbell */
    s->in_card = false;
}

static const MemoryRegionOps synpcix_mmio_ops = {
    .read = synpcix_mmio_read,
    .write = synpcix_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* the register port is 32 bits wide; other sizes are not accepted */
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void synpcix_realize(PCIDevice *pdev, Error **errp)
{
    SynpcixState *s = SYNPCIX(pdev);

    if (s->scale < 1) {
        error_setg(errp, "synpcix: clock-scale must be at least 1");
        return;
    }
    pdev->config[PCI_CLASS_PROG] = SYNPCIX_PCI_CLASS & 0xff;
    pdev->config[PCI_INTERRUPT_PIN] = 1;    /* INTA# when MSI is off */
    if (msi_init(pdev, SYNPCIX_MSI_OFFSET, SYNPCIX_MSI_VECTORS, true, false,
                 errp) < 0) {
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(s), &synpcix_mmio_ops, s,
                          "synpcix-regs", SYNPCIX_BAR0_SIZE);
    pci_register_bar(pdev, SYNPCIX_PCI_REG_BAR, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    s->tick = timer_new_ns(QEMU_CLOCK_VIRTUAL, synpcix_tick, s);
    synpcix_card_reset(s);
}

static void synpcix_exit(PCIDevice *pdev)
{
    SynpcixState *s = SYNPCIX(pdev);

    timer_free(s->tick);
    s->tick = NULL;
    card_free(s->card);
    s->card = NULL;
    msi_uninit(pdev);
}

/* PCI RST#: the card's gateware starts from its reset state. */
static void synpcix_reset(DeviceState *dev)
{
    synpcix_card_reset(SYNPCIX(dev));
}

static Property synpcix_properties[] = {
    DEFINE_PROP_UINT32("clock-scale", SynpcixState, scale, 1000),
    DEFINE_PROP_END_OF_LIST(),
};

/* The gateware's state lives in the Verilated model: no migration. */
static const VMStateDescription vmstate_synpcix = {
    .name = TYPE_SYNPCIX,
    .unmigratable = 1,
};

static void synpcix_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = synpcix_realize;
    k->exit = synpcix_exit;
    k->vendor_id = SYNPCIX_PCI_VENDOR_ID;
    k->device_id = SYNPCIX_PCI_DEVICE_ID;
    k->subsystem_vendor_id = SYNPCIX_PCI_SUBVENDOR_ID;
    k->subsystem_id = SYNPCIX_PCI_SUBDEVICE_ID;
    k->class_id = SYNPCIX_PCI_CLASS >> 8;   /* base class and subclass */
    dc->desc = "SynPCI-X timing card (Verilated gateware)";
    dc->reset = synpcix_reset;
    dc->vmsd = &vmstate_synpcix;
    device_class_set_props(dc, synpcix_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo synpcix_info = {
    .name = TYPE_SYNPCIX,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(SynpcixState),
    .class_init = synpcix_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void synpcix_register_types(void)
{
    type_register_static(&synpcix_info);
}

type_init(synpcix_register_types)
