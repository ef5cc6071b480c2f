# SPDX-License-Identifier: GPL-2.0-or-later
# nextpnr-ice40 --pre-place script: keep the flip-flops that take a PCI
# input straight from its pad next to that pad, and fix the LUTs from a
# pad into a pad's register beside their input pad (TRDY#'s and STOP#'s,
# which come over a global, beside the pads they feed).
#
# PCI 2.3 at 66 MHz gives an input 3 ns of setup at the pin; the pad takes
# 1.8 ns and the clock reaches a logic-cell flip-flop 1.5 ns after the pin,
# so the route from the pad to the flip-flop may take about 2.5 ns
# (docs/bitstream.md "Session 7: PCI inputs"). nextpnr does not time that
# route (SB_IO has no delay arcs), so the placer puts such a flip-flop by
# its loads, anywhere on the die. This script finds every logic cell with
# its flip-flop enabled that reads the D_IN_0 net of a PCI pad (an SB_IO of
# the pci_pads instance `pads`) and
# confines it to the logic tiles within RADIUS tiles of that pad.
# Only cells that read the pad net directly are constrained: logic with
# several levels between pad and flip-flop misses the bound anyway.
# 3 tiles: with 2, nextpnr 0.4's HeAP legaliser looped for over 5 minutes
# on one netlist (session 7); 3 places in the usual time
RADIUS = 3
GRID = 33     # HX8K: logic tiles 1..32 in x and y, I/O on 0 and 33


def _loc(bel):
    # "X0/Y14/io0"
    x, y = bel.split("/")[:2]
    return int(x[1:]), int(y[1:])


def _clamp(v):
    return max(1, min(GRID - 1, v))


def _drives(lc, io_name):
    """The logic cell's output reaches the SB_IO io_name directly."""
    ports = {k: v for k, v in lc.ports}
    o = ports.get("O")
    if o is None or o.net is None:
        return False
    return any(str(u.cell.name) == str(io_name) for u in o.net.users)


def _pad_loads(lc):
    """What the logic cell's output drives directly: PCI pads (SB_IO of
    pci_pads) and logic cells."""
    ports = {k: v for k, v in lc.ports}
    o = ports.get("O")
    if o is None or o.net is None:
        return [], []
    users = [u.cell for u in o.net.users]
    return ([c for c in users if c.type == "SB_IO" and str(c.name).startswith("pads.")],
            [c for c in users if c.type == "ICESTORM_LC"])


def _out_reg(cell):
    """The pad's output goes through its I/O register (PIN_TYPE 1101xx)."""
    params = {k: v for k, v in cell.params}
    pt = str(params.get("PIN_TYPE", "")).replace("0b", "")
    return pt.endswith("110101") or pt == str(0b110101)


# Only for the board's registered pads: with the direct pads of sessions
# 4-5 (make pci-io-fit PCI_IO_REGS=false, which only shows that those miss
# Tval) the regions made nextpnr 0.4's HeAP legaliser loop (session 9,
# over 9 minutes), and inputs are not judged there.
registered = any(c.type == "SB_IO" and str(n).startswith("pads.") and _out_reg(c)
                 for n, c in ctx.cells)

n_regions = 0
n_cells = 0
# the LUTs between a pad and its own output register: kept beside that
# pad, not moved by another pad's rule
own = set()
beside = {}
for name, cell in ctx.cells:
    if registered and cell.type == "SB_IO" and str(name).startswith("pads.") and _out_reg(cell):
        pin = {k: v for k, v in cell.ports}.get("D_IN_0")
        if pin is not None and pin.net is not None:
            own.update(u.cell.name for u in pin.net.users
                       if u.cell.type == "ICESTORM_LC" and _drives(u.cell, name))
for name, cell in ctx.cells:
    if not registered:
        break
    if cell.type != "SB_IO":
        continue
    attrs = {k: v for k, v in cell.attrs}
    ports = {k: v for k, v in cell.ports}
    bel = attrs.get("BEL")
    pin = ports.get("D_IN_0")
    if not bel or pin is None or pin.net is None:
        continue
    # a PCI bus pad: an SB_IO of the pci_pads instance "pads" (the name in
    # synpcix_hx8k_pci_top and in pci-io-fit's harness; the inout pins' nets
    # have generated names). RST# and CLK are not among its pads.
    if not str(name).startswith("pads."):
        continue
    net = pin.net
    out_reg = _out_reg(cell)
    users = []
    for u in net.users:
        c = u.cell
        if c.type != "ICESTORM_LC":
            continue
        params = {k: v for k, v in c.params}
        if str(params.get("DFF_ENABLE", "0")).strip("0b") in ("1",):
            users.append(c.name)
        elif out_reg and _drives(c, name):
            # a LUT between this pad and its own output register (the
            # initiator's AD held by reading the pad back): a route from
            # the pad and one back, so right beside it (fixed there as
            # the pin LUTs below: a region of one tile lost pci_ad[29]'s
            # LUT, Tsu 4.68 ns, in one session 11 run)
            beside[c.name] = _loc(bel)[1]
        elif c.name not in own:
            # a pin LUT of another pad's register (PAR into PERR#), or the
            # first of GNT#'s two LUTs (into the AD enables):
            # nextpnr times neither the pad's route into it nor its routes
            # to the pads, and a region does not hold it (nextpnr 0.4's
            # placer moved such LUTs 2-5 tiles out of theirs, session 11).
            # So it is fixed in the logic tile beside its input pad: the
            # one long route is then the one fanned out to the pads
            pads, lcs = _pad_loads(c)
            if pads or any(_pad_loads(d)[0] for d in lcs):
                beside[c.name] = _loc(bel)[1]
    if not users:
        continue
    x, y = _loc(bel)
    region = "pci_in_%d_%d_%s" % (x, y, bel.split("/")[2])
    ctx.createRectangularRegion(region, _clamp(x - RADIUS), _clamp(y - RADIUS),
                                _clamp(x + RADIUS), _clamp(y + RADIUS))
    n_regions += 1
    for u in users:
        ctx.constrainCellToRegion(u, region)
        n_cells += 1
# TRDY# and STOP# come in on GBIN balls through their global buffers
# (SB_GB_IO, session 12): the global reaches every logic tile at one delay,
# so their pin LUTs (split into copies per group of pads before packing,
# hdl/boards/hx8k-pci/pci_gbin_luts.py) go beside the middle of the pads
# they feed, not beside the input pad.
gb_luts = []
for name, cell in list(ctx.cells):
    if not (registered and cell.type == "SB_GB" and str(name).startswith("$gbuf_pads.")):
        continue
    out = {k: v for k, v in cell.ports}.get("GLOBAL_BUFFER_OUTPUT")
    if out is None or out.net is None:
        continue
    for u in out.net.users:
        c = u.cell
        params = {k: v for k, v in c.params}
        if c.type == "ICESTORM_LC" and str(params.get("DFF_ENABLE", "0")).strip("0b") != "1":
            if c.name not in gb_luts:
                gb_luts.append(c.name)
for lname in gb_luts:
    lc = ctx.cells[lname]
    o = {k: v for k, v in lc.ports}["O"].net
    if o is None:
        continue
    rows = [(u.cell, _loc({k: v for k, v in u.cell.attrs}["BEL"])[1])
            for u in o.users if u.cell.type == "SB_IO" and str(u.cell.name).startswith("pads.")]
    if not rows:
        continue
    rows.sort(key=lambda cy: (cy[1], str(cy[0].name)))
    beside[lname] = rows[len(rows) // 2][1]
# each pin LUT at a fixed BEL of the logic tile of its row (the last of its
# input pads, or the middle pad it feeds), in column 1, or the next column
# when that tile is full. The burst buffer's RAMs, whose read address
# TRDY# moves, were fixed by TRDY#'s pad until session 11; over the global
# the placer's choice does (TRDY# Tsu into them 2.05 ns)
used = {}
for c, y in sorted(beside.items(), key=lambda kv: (kv[1], str(kv[0]))):
    x = 1
    while used.get((x, y), 0) == 8:
        x += 1
    k = used.get((x, y), 0)
    used[(x, y)] = k + 1
    ctx.cells[c].setAttr("BEL", "X%d/Y%d/lc%d" % (x, y, k))
print("pci_input_ffs: %d flip-flops kept within %d tiles of %d PCI pads, %d LUTs fixed"
      % (n_cells, RADIUS, n_regions, len(beside)))
