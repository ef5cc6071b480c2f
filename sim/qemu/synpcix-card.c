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
 * register means, with two exceptions: the board straps (below) and the
 * doorbell window, whose writes the timelog records (synpcix_log_doorbell).
 *
 * DMA: the capture unit's DMA port is served by pci_dma_read/pci_dma_write
 * at the card time of the transfer (fixed latencies of card_sim.h); the
 * card runs in bus-clock steps while it works (synpcix_schedule), so guest
 * memory is read and written at the virtual time of that card time. Bus
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
 * MSI off the card uses INTA#, driven from the gateware's own level
 * (card_irq_line: an unmasked irq.status bit set by a raise, until the
 * driver writes it back), re-read after every raise, register write and
 * configuration write. The level counts only while MSI is off here; on the
 * card pci_interface gates the pin the same way, but its configuration
 * status bit 3 shows the level also while MSI is on (QEMU's status bit
 * follows the pin).
 *
 * Board straps (the second place that knows registers): at clock-scale
 * S <= 31 the device loads clock.period_ns = 8 * S through the register
 * port at every card reset, and id.clk_hz reads 125 MHz / S (rounded to
 * Hz) instead of the gateware's build constant. That is what a board with
 * a 125/S MHz oscillator and the matching build would show: the guest sees
 * the timebase clock tick 125/S M times per virtual second, so the driver's
 * nominal period (1e9 / clk_hz) is 8 * S ns and the PHC counts guest
 * virtual time 1:1 (see "Time" below). Above 31 (8 * S > 255 ns, the
 * period field's range) no strap: card time is scaled as before.
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
 *
 * With the period strap (S <= 31) the gateware adds 8 * S ns per clock, so
 * the PHC reads virtual time since the reset (plus whatever the guest sets)
 * at 8 * S ns resolution, and its rate equals the guest's clocks: ts2phc
 * and phc2sys can lock. The cost is 125 M / S timebase clocks (plus
 * 66.67 M / S bus clocks) per virtual second.
 *
 * PPS (pps=on): the card's PPS input pin sees a pulse at every virtual
 * time k * 1 s + pps-offset-ns (k whole, the pulse pps-width-ns long), an
 * ideal GPS receiver whose time scale is QEMU_CLOCK_VIRTUAL. The edges are
 * scheduled on the card model's own horizon hook, in card time through
 * the same mapping as above, so they land on the exact virtual time
 * whatever the host does and however late any QEMU timer would fire.
 * osc-ppb gives the card's oscillator a constant fractional frequency
 * offset (the card_sim oscillator model, y = osc-ppb * 1e-9), so the
 * disciplining servo has a frequency to learn; 0 is an ideal oscillator.
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
/*
 * While the card works (see synpcix_tick) it runs in steps of one bus
 * clock of card time (15 ns at 66.67 MHz), for this long in card time after
 * the last register write, doorbell or DMA transfer: longer than any gap
 * between the transfers of one stamping pass (row load, cause read, ring
 * read, stamp writes; tens of bus clocks), short enough that an idle card
 * costs nothing.
 */
#define SYNPCIX_STEP_CARD_NS 15
#define SYNPCIX_ACTIVE_CARD_NS 4000
/* The gateware's MSI capability (hdl/pci/pci_target.vhd, docs/pci.md). */
#define SYNPCIX_MSI_OFFSET 0x40
#define SYNPCIX_MSI_VECTORS 4
/* Largest clock-scale whose period 8 * S fits clock.period_ns (8 bits). */
#define SYNPCIX_STRAP_MAX_SCALE 31

OBJECT_DECLARE_SIMPLE_TYPE(SynpcixState, SYNPCIX)

struct SynpcixState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    QEMUTimer *tick;
    struct card *card;
    int64_t virt_base;      /* QEMU_CLOCK_VIRTUAL at card reset (ns) */
    double card_base;       /* card time at that moment (ns) */
    uint32_t scale;         /* virtual ns per card ns */
    bool strap;             /* scale <= 31: period strap, PHC = virtual time */
    uint32_t clk_hz;        /* id.clk_hz the guest reads with the strap */
    bool pps;               /* drive the PPS pin */
    int64_t pps_offset_ns;  /* PPS edges at k s + this (virtual time) */
    uint32_t pps_width_ns;  /* PPS pulse width (virtual time) */
    int32_t osc_ppb;        /* card oscillator offset */
    char *timelog;          /* path: "reset <virtual ns> <card time ns>" per
                             * reset, "doorbell <virtual ns> <lead ns>
                             * <reg reads> <reg writes>" */
    FILE *timelog_fp;
    uint64_t accesses;
    uint64_t reg_reads, reg_writes; /* BAR0 accesses that are not doorbells */
    bool in_card;           /* the gateware is running (callbacks may come) */
    double active_until;    /* card time: step finely until then (synpcix_tick) */
    bool intx;              /* INTA# asserted (MSI off) */
    uint64_t dma_reads, dma_writes, dma_aborts, msis, intx_raises;
};

static void synpcix_schedule(SynpcixState *s);

/*
 * The card works: keep it in step with virtual time for a while (see
 * synpcix_tick). Called on register writes, doorbells and DMA transfers,
 * at the card time they happen.
 */
static void synpcix_busy(SynpcixState *s)
{
    double until = card_now_ns(s->card) + SYNPCIX_ACTIVE_CARD_NS;

    if (until > s->active_until) {
        s->active_until = until;
        synpcix_schedule(s);
    }
}

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
    synpcix_busy(s);
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

/* INTA#: the gateware's level while MSI is off (see the top) */
static void synpcix_update_intx(SynpcixState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    bool level = s->card && !msi_enabled(pdev) && card_irq_line(s->card);

    if (level != s->intx) {
        s->intx = level;
        pci_set_irq(pdev, level);
    }
}

static void synpcix_irq(void *opaque, unsigned slot)
{
    SynpcixState *s = opaque;
    PCIDevice *pdev = PCI_DEVICE(s);

    if (msi_enabled(pdev)) {
        msi_notify(pdev, slot & (msi_nr_vectors_allocated(pdev) - 1));
        s->msis++;
    } else {
        s->intx_raises++;
        synpcix_update_intx(s);
    }
}

/* The oscillator model: a constant offset (card_sim.h, card_osc_fn). */
static double synpcix_osc(void *opaque, double t_ns)
{
    SynpcixState *s = opaque;

    return s->osc_ppb * 1e-9;
}

/* Card time of a virtual time (the mapping of synpcix_catch_up). */
static double synpcix_card_time(SynpcixState *s, int64_t virt_ns)
{
    return s->card_base + (double)(virt_ns - s->virt_base) / s->scale;
}

/*
 * Horizon hook of the card model: called once card time reaches the
 * horizon it returned last. Schedules the next PPS pulse after "now" and
 * returns the end of that pulse, so every pulse is scheduled exactly once,
 * ahead of the card, and never in the past.
 */
static double synpcix_pps_horizon(void *opaque, double now_ns)
{
    SynpcixState *s = opaque;
    /* virtual time of card time now_ns, rounded up: edges after it only */
    int64_t v_now = s->virt_base +
                    (int64_t)((now_ns - s->card_base) * s->scale) + 1;
    int64_t k = (v_now - s->pps_offset_ns) / NANOSECONDS_PER_SECOND;
    int64_t v_edge;
    double rise, fall;

    while ((v_edge = k * NANOSECONDS_PER_SECOND + s->pps_offset_ns) <= v_now) {
        k++;
    }
    rise = synpcix_card_time(s, v_edge);
    fall = synpcix_card_time(s, v_edge + s->pps_width_ns);
    card_input_at(s->card, rise, CARD_PIN_PPS, 1);
    card_input_at(s->card, fall, CARD_PIN_PPS, 0);
    return fall;
}

static void synpcix_card_reset(SynpcixState *s)
{
    card_free(s->card);
    s->card = card_new();
    card_set_dma(s->card, synpcix_dma, s);
    card_set_irq(s->card, synpcix_irq, s);
    if (s->osc_ppb) {
        card_set_osc(s->card, synpcix_osc, s);
    }
    s->intx = false;
    s->active_until = 0;
    if (s->strap) {
        /* the strap: nominal period 8 * S ns, loaded as the driver would */
        s->in_card = true;
        card_write32(s->card, SYNPCIX_CLOCK_PERIOD_NS, 8 * s->scale);
        card_write32(s->card, SYNPCIX_CLOCK_PERIOD_FRAC, 0);
        card_write32(s->card, SYNPCIX_CLOCK_CTRL, SYNPCIX_CLOCK_CTRL_PERIOD_MASK);
        s->in_card = false;
    }
    s->virt_base = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    s->card_base = card_now_ns(s->card);
    /*
     * The card's clock is not 0 here: card_new() ran the reset sequence and
     * a register read (and the strap its writes) before this instant, and
     * the timebase counted through part of that. Whoever maps virtual time
     * onto card time (the e2e test) needs the clock's value at virt_base.
     */
    if (s->timelog_fp) {
        fprintf(s->timelog_fp, "reset %" PRId64 " %" PRIu64 "\n", s->virt_base,
                card_time_ns(s->card));
        fflush(s->timelog_fp);
    }
    if (s->pps) {
        card_set_horizon(s->card, synpcix_pps_horizon, s);
    }
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
 * timelog: "doorbell <virtual ns> <lead ns> <reg reads> <reg writes>" for
 * every doorbell write, the last two the register accesses so far: what a
 * driver spends on the card per interrupt (a read stalls the CPU for a bus
 * round trip, a posted write does not), counted where it happens. A
 * register access runs the card a few bus clocks past the card time of its
 * virtual time (card time never goes back), so a doorbell soon after one
 * reaches the card `lead` ns of card time later than its virtual time maps
 * to. On the card a register access takes no time from a doorbell; the
 * e2e test adds the lead to the MSI's mapped time, so that its bound on
 * MSI -> stamp checks the card's latch path and not this artefact.
 */
static void synpcix_log_doorbell(SynpcixState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    double lead = card_now_ns(s->card) - synpcix_card_time(s, now);

    if (s->timelog_fp) {
        fprintf(s->timelog_fp, "doorbell %" PRId64 " %.0f %" PRIu64 " %" PRIu64
                "\n", now, lead > 0 ? lead : 0, s->reg_reads, s->reg_writes);
        fflush(s->timelog_fp);
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
    synpcix_schedule(s);
}

/*
 * The next tick. An idle card only needs the catch-up above; a working one
 * is run in bus-clock steps, because its DMA sees guest memory at the
 * virtual time the model runs, not at the card time of the transfer: with
 * ticks 10 ms apart (10 us of card time at scale 1000) a stamping pass's
 * ring read would see descriptors the NIC wrote milliseconds of virtual
 * time after the pass's card time, and stamp a frame that completed after
 * the MSI with that MSI's time (seen in the e2e test, error -2.3 us). In
 * steps the card's reads are late by at most one bus clock of card time.
 */
static void synpcix_schedule(SynpcixState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    int64_t step = SYNPCIX_TICK_NS;

    if (card_now_ns(s->card) < s->active_until) {
        step = MAX((int64_t)SYNPCIX_STEP_CARD_NS * s->scale, 1);
    }
    timer_mod(s->tick, now + step);
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
    s->reg_reads++;
    s->in_card = true;
    v = card_read32(s->card, addr);
    s->in_card = false;
    if (s->strap && addr == SYNPCIX_ID_CLK_HZ) {
        v = s->clk_hz;      /* the strap (see the top) */
    }
    return v;
}

static void synpcix_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    SynpcixState *s = opaque;

    if (synpcix_reentered(s, addr)) {
        return;
    }
    synpcix_catch_up(s);
    s->accesses++;
    if (addr >= SYNPCIX_RSV_DOORBELLS_BASE) {
        synpcix_log_doorbell(s);
    } else {
        s->reg_writes++;
    }
    s->in_card = true;
    card_write32(s->card, addr, val);   /* 0x800..: a doorbell */
    s->in_card = false;
    synpcix_busy(s);
    /* irq.status (the acknowledge) or irq.mask may have moved the level */
    synpcix_update_intx(s);
}

/* MSI enable moves INTA# (see the top) */
static void synpcix_config_write(PCIDevice *pdev, uint32_t addr, uint32_t val,
                                 int len)
{
    pci_default_write_config(pdev, addr, val, len);
    synpcix_update_intx(SYNPCIX(pdev));
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
    if (s->pps_offset_ns <= -NANOSECONDS_PER_SECOND ||
        s->pps_offset_ns >= NANOSECONDS_PER_SECOND) {
        error_setg(errp, "synpcix: pps-offset-ns must lie within (-1 s, 1 s), got %"
                   PRId64, s->pps_offset_ns);
        return;
    }
    if (s->pps_width_ns < 1000 || s->pps_width_ns >= NANOSECONDS_PER_SECOND) {
        error_setg(errp, "synpcix: pps-width-ns must be 1000..999999999, got %"
                   PRIu32, s->pps_width_ns);
        return;
    }
    if (s->osc_ppb <= -100000000 || s->osc_ppb >= 100000000) {
        error_setg(errp, "synpcix: osc-ppb must lie within +-10 %%, got %" PRId32,
                   s->osc_ppb);
        return;
    }
    if (s->timelog && s->timelog[0]) {
        s->timelog_fp = fopen(s->timelog, "a");
        if (!s->timelog_fp) {
            error_setg_errno(errp, errno, "synpcix: cannot open timelog '%s'",
                             s->timelog);
            return;
        }
    }
    s->strap = s->scale <= SYNPCIX_STRAP_MAX_SCALE;
    /* 125 MHz / S, rounded: exact for S dividing 125 M (1, 2, 4, 5, 8, 10, 25..) */
    s->clk_hz = (uint32_t)((1000000000ull / CARD_TB_PERIOD_NS + s->scale / 2) /
                           s->scale);
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
    if (s->timelog_fp) {
        fclose(s->timelog_fp);
        s->timelog_fp = NULL;
    }
}

/* PCI RST#: the card's gateware starts from its reset state. */
static void synpcix_reset(DeviceState *dev)
{
    synpcix_card_reset(SYNPCIX(dev));
}

static Property synpcix_properties[] = {
    DEFINE_PROP_UINT32("clock-scale", SynpcixState, scale, 1000),
    DEFINE_PROP_BOOL("pps", SynpcixState, pps, false),
    DEFINE_PROP_INT64("pps-offset-ns", SynpcixState, pps_offset_ns, 0),
    DEFINE_PROP_UINT32("pps-width-ns", SynpcixState, pps_width_ns, 100000000),
    DEFINE_PROP_INT32("osc-ppb", SynpcixState, osc_ppb, 0),
    DEFINE_PROP_STRING("timelog", SynpcixState, timelog),
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
    k->config_write = synpcix_config_write;
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
