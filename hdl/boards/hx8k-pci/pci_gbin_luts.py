# SPDX-License-Identifier: GPL-2.0-or-later
# nextpnr-ice40 --pre-pack script (hx8k-pci board, `make pci-io-fit`):
# copy each LUT that TRDY# or STOP# feeds through its global buffer into
# pads that span more than SPAN die rows, one copy per group of pads.
#
# TRDY# and STOP# come in on GBIN balls (SB_GB_IO, docs/bitstream.md
# "Session 12: PCI TRDY#/STOP# on GBINs"): their global reaches every
# logic tile at one delay, so what is left of their 3 ns setup is the LUT
# and its route to the I/O registers it loads. AD's and C/BE#'s enables
# (one LUT each in pci_initiator) load pads on rows 5-31; from one LUT the
# route to the farthest took 2.2-2.4 ns, the whole miss. A copy per group
# of pads, fixed beside the group (hdl/boards/pci_input_ffs.py, before
# placement), keeps every such route within SPAN / 2 rows or so.
# Before packing because a cell made later lacks the packer's per-cell
# data (nextpnr 0.4 then crashed before placing); in the HDL the copies
# would need a port per copy through pci_interface and pci_pads.
SPAN = 6


def _ports(cell):
    return {k: v for k, v in cell.ports}


def _row(io):
    """The die row of a pad (its top-level buffer carries the pcf's BEL)."""
    pin = _ports(io).get("PACKAGE_PIN")
    if pin is None or pin.net is None or pin.net.driver.cell is None:
        return None
    bel = {k: v for k, v in pin.net.driver.cell.attrs}.get("BEL")
    return int(bel.split("/")[1][1:]) if bel else None


luts = []
for name, cell in ctx.cells:
    if cell.type != "SB_GB_IO" or not str(name).startswith("pads."):
        continue
    g = _ports(cell).get("GLOBAL_BUFFER_OUTPUT")
    if g is None or g.net is None:
        continue
    for u in g.net.users:
        if u.cell.type == "SB_LUT4" and u.cell.name not in luts:
            luts.append(u.cell.name)

n_copies = 0
for lname in luts:
    lut = ctx.cells[lname]
    o = _ports(lut)["O"].net
    if o is None:
        continue
    loads = []
    for u in o.users:
        if u.cell.type in ("SB_IO", "SB_GB_IO") and str(u.cell.name).startswith("pads."):
            y = _row(u.cell)
            if y is not None:
                loads.append((y, str(u.cell.name), u.port))
    groups = []
    for y, c, p in sorted(loads):
        if groups and y - groups[-1][0][0] <= SPAN:
            groups[-1].append((y, c, p))
        else:
            groups.append([(y, c, p)])
    # the first group stays on the LUT itself (and its other loads)
    for k, grp in enumerate(groups[1:], 1):
        cname = "%s$gbcopy%d" % (lname, k)
        copy = ctx.createCell(cname, "SB_LUT4")
        for pk, pv in lut.params:
            copy.setParam(pk, pv)
        for pk, pv in lut.ports:
            if pk == "O":
                copy.addOutput(pk)
            else:
                copy.addInput(pk)
                if pv.net is not None:
                    ctx.connectPort(pv.net.name, cname, pk)
        net = ctx.createNet(cname + "$o")
        ctx.connectPort(net.name, cname, "O")
        for _, c, p in grp:
            ctx.disconnectPort(c, p)
            ctx.connectPort(net.name, c, p)
        n_copies += 1
print("pci_gbin_luts: %d LUTs on the TRDY#/STOP# globals, %d copies" % (len(luts), n_copies))
