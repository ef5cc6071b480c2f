# SPDX-License-Identifier: GPL-2.0-or-later
# nextpnr-ice40 --pre-pack script: put flip-flops that nextpnr would pack
# alone into the logic cells it makes for a carry alone.
#
# nextpnr packs an SB_CARRY into the logic cell of the LUT whose I1/I2 are
# the carry's I0/I1 and whose I3 is its carry in (an adder bit's sum LUT).
# A carry without such a LUT (a comparison, whose sum nobody reads) gets a
# logic cell of its own, whose LUT and flip-flop stay empty; a flip-flop
# whose D does not come from a LUT of its own (a block RAM's output, another
# flip-flop, a LUT that drives more than it) gets one too, its LUT empty.
# Both are whole cells of the 7680 (docs/bitstream.md "Session 14: lone
# flip-flops into carry cells"). This script gives such a carry a LUT that
# reads the flip-flop's D on I0 and passes it through (LUT_INIT 0xAAAA),
# with I1/I2/I3 on the carry's own nets (the cell's I1/I2 feed the carry
# anyway, and I3 is its carry in), and moves the flip-flop's D onto that
# LUT: the packer then puts LUT, flip-flop and carry into one cell.
#
# What it leaves alone, and why:
# - flip-flops whose D comes from a pad, a global or a carry: a pad's
#   register stays at its pad (PCI input setup, pci_input_ffs.py), and a
#   carry output cannot reach I0 without a cell of its own;
# - a chain gets flip-flops of one control set (clock, enable, set/reset)
#   only, the one its own sum registers have if it has any: the cells of a
#   chain sit in consecutive places of a tile, which shares those nets;
# - a flip-flop is only moved next to a chain it is already near: its D's
#   driver or one of its Q's loads shares a net with the chain's cells
#   (NEAR hops), so that it does not drag routes across the die.
NEAR = 2


def _ports(cell):
    return {str(k): v for k, v in cell.ports}


def _net(cell, port):
    p = _ports(cell).get(port)
    return None if p is None or p.net is None else p.net


def _nname(net):
    return None if net is None else str(net.name)


def _is_const(net):
    # before packing a constant is a net of its own, driven by a GND or VCC
    # cell (the packer merges them later)
    if net is None:
        return True
    d = net.driver.cell
    return d is None or d.type in ("GND", "VCC")


FF_TYPES = {
    "SB_DFF": (None, None), "SB_DFFE": ("E", None),
    "SB_DFFSR": (None, "R"), "SB_DFFR": (None, "R"),
    "SB_DFFSS": (None, "S"), "SB_DFFS": (None, "S"),
    "SB_DFFESR": ("E", "R"), "SB_DFFER": ("E", "R"),
    "SB_DFFESS": ("E", "S"), "SB_DFFES": ("E", "S"),
}
FF_TYPES.update({t.replace("SB_DFF", "SB_DFFN"): v for t, v in list(FF_TYPES.items())})


def _ctrl(ff):
    """The nets a logic tile shares: clock (and its edge), enable, set/reset."""
    en, sr = FF_TYPES[ff.type]
    return (_nname(_net(ff, "C")), ff.type.startswith("SB_DFFN"),
            _nname(_net(ff, en)) if en else None, _nname(_net(ff, sr)) if sr else None)


def _only_user(net):
    return net.users[0].cell if net is not None and len(net.users) == 1 else None


cells = {str(n): c for n, c in ctx.cells}
carries = [c for c in cells.values() if c.type == "SB_CARRY"]


def _key(net):
    """A net as the packer will see it: the JSON reader gives every constant
    input a net of its own, which the packer merges into one per value."""
    if net is None:
        return "GND"
    d = net.driver.cell
    if d is not None and d.type in ("GND", "VCC"):
        return d.type
    return str(net.name)


def _sum_lut(carry):
    """The LUT the packer puts this carry with: the first on the carry in's
    I3 loads, if its I1/I2 are the carry's I0/I1 (a constant carry in: none)."""
    ci = _net(carry, "CI")
    if _is_const(ci):
        return None
    for u in ci.users:
        if u.cell.type == "SB_LUT4" and str(u.port) == "I3":
            lut = u.cell
            if (_key(_net(lut, "I1")) == _key(_net(carry, "I0")) and
                    _key(_net(lut, "I2")) == _key(_net(carry, "I1"))):
                return lut
            return None
    return None


def _small_lut(net):
    """A LUT of at most two inputs drives the net alone: the packer merges
    it into a carry-only cell (merge_carry_luts), which a fill would stop."""
    if net is None or net.driver.cell is None or net.driver.cell.type != "SB_LUT4":
        return False
    lut = net.driver.cell
    used = [p for p in ("I0", "I1", "I2", "I3") if not _is_const(_net(lut, p))]
    return len(used) <= 2


def _free(carry):
    """The packer gives this carry a cell of its own, and nothing else
    would be merged into it."""
    ci = _net(carry, "CI")
    if _is_const(ci):
        return False                       # no LUT can take it (CIN_CONST)
    if any(u.cell.type == "SB_LUT4" and str(u.port) == "I3" for u in ci.users):
        return False
    return not (_small_lut(_net(carry, "I0")) or _small_lut(_net(carry, "I1")))


# chains: follow CO -> CI
nxt = {}
has_prev = set()
for c in carries:
    co = _net(c, "CO")
    if co is None:
        continue
    for u in co.users:
        if u.cell.type == "SB_CARRY" and str(u.port) == "CI":
            nxt[str(c.name)] = u.cell
            has_prev.add(str(u.cell.name))
chains = []
for c in carries:
    if str(c.name) in has_prev:
        continue
    chain = [c]
    while str(chain[-1].name) in nxt:
        chain.append(nxt[str(chain[-1].name)])
    chains.append(chain)


def _lone(ff):
    """A flip-flop the packer would put in a cell of its own whose D can be
    moved: not from a pad, a global, a carry or a constant."""
    d = _net(ff, "D")
    if _is_const(d):
        return False
    drv = d.driver.cell
    if drv.type == "SB_LUT4" and len(d.users) == 1:
        return False                       # packs with its LUT already
    if drv.type not in ("SB_LUT4", "SB_RAM40_4K", "SB_RAM40_4KNR", "SB_RAM40_4KNW",
                        "SB_RAM40_4KNRNW") and drv.type not in FF_TYPES:
        return False                       # a pad, a global, a carry
    return True


lone = [c for c in cells.values() if c.type in FF_TYPES and _lone(c)]


def _nets_of(cell):
    """The cell's signal nets: no constants, and no clock, reset or enable
    trees (64 loads or more), through which everything is near everything."""
    return [p.net for _, p in cell.ports if p.net is not None and not _is_const(p.net)
            and len(p.net.users) < 64]


# each lone flip-flop's neighbourhood: hops from its D and Q to the nets
# around it (a hop: through a cell on the net)
def _near_nets(ff):
    dist = {}
    frontier = [n for n in (_net(ff, "D"), _net(ff, "Q")) if n is not None]
    for hop in range(NEAR + 1):
        nxt_f = []
        for n in frontier:
            if str(n.name) in dist:
                continue
            dist[str(n.name)] = hop
            if hop == NEAR:
                continue
            for cell in [n.driver.cell] + [u.cell for u in n.users]:
                if cell is None:
                    continue
                nxt_f.extend(m for m in _nets_of(cell) if str(m.name) not in dist)
        frontier = nxt_f
    return dist


near = {str(ff.name): _near_nets(ff) for ff in lone}
taken = set()
n_fill = 0
n_free = 0
for chain in chains:
    free = [c for c in chain if _free(c)]
    if not free:
        continue
    n_free += len(free)
    ctrl = set()
    chain_nets = set()
    for c in chain:
        chain_nets.update(str(n.name) for n in _nets_of(c))
        lut = _sum_lut(c)
        if lut is not None:
            chain_nets.update(str(n.name) for n in _nets_of(lut))
            ff = _only_user(_net(lut, "O"))
            if ff is not None and ff.type in FF_TYPES:
                ctrl.add(_ctrl(ff))
    if len(ctrl) > 1:
        continue
    # candidates by their distance to the chain; with no control set given
    # by the chain, the one most candidates share
    cands = []
    for ff in lone:
        n = str(ff.name)
        if n in taken:
            continue
        d = [h for net, h in near[n].items() if net in chain_nets]
        if d:
            cands.append((min(d), n, ff))
    if ctrl:
        want = next(iter(ctrl))
    else:
        count = {}
        for _, _, ff in cands:
            count[_ctrl(ff)] = count.get(_ctrl(ff), 0) + 1
        if not count:
            continue
        want = max(count, key=lambda k: count[k])
    cands = sorted((h, n, ff) for h, n, ff in cands if _ctrl(ff) == want)
    for c, (_, _, pick) in zip(free, cands):
        taken.add(str(pick.name))
        name = "%s$fill" % c.name
        lut = ctx.createCell(name, "SB_LUT4")
        lut.setParam("LUT_INIT", "1010101010101010")
        for p in ("I0", "I1", "I2", "I3"):
            lut.addInput(p)
        lut.addOutput("O")
        d = _net(pick, "D")
        ctx.connectPort(d.name, name, "I0")
        for lp, cp in (("I1", "I0"), ("I2", "I1"), ("I3", "CI")):
            n = _net(c, cp)
            if n is not None and not (cp == "CI" and _is_const(n)):
                ctx.connectPort(n.name, name, lp)
        o = ctx.createNet(name + "$o")
        ctx.connectPort(o.name, name, "O")
        ctx.disconnectPort(pick.name, "D")
        ctx.connectPort(o.name, pick.name, "D")
        n_fill += 1
print("carry_ff_fill: %d carries without a LUT in %d chains, %d lone flip-flops, %d moved in"
      % (n_free, len(chains), len(lone), n_fill))
