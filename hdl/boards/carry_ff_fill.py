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
# Session 17 added three kinds of step, each saving a cell:
# - a chain's first carry with a constant carry in (a compare's first
#   bit): nextpnr pairs it with the one logic cell whose I1/I2 are its
#   operands, if exactly one is; the fill is made to be that one;
# - a chain fed from the fabric (its first carry in is a signal x, e.g. an
#   incrementer's bit 1, whose carry in is bit 0): nextpnr would add a
#   feed-in cell below it after packing (a carry on x with carry in 1, its
#   LUT and flip-flop empty, too late for any fill). The script makes that
#   feed-in itself, as a carry G (operands x and 0, carry in 1: carry out
#   x) under the chain, and a fill whose I1 is x and I2 free, which the
#   packer pairs with G; the chain and its first sum LUT read x from G;
# - a carry out read by one flip-flop or one LUT joins its chain (no
#   pass-out cell).
# Session 18 added a fourth, the host step, for bus-clock chains only:
# - a feed-in that found no flip-flop takes the chain's own LUT of x (at
#   most three inputs, paired with no carry; typically an incrementer's
#   bit 0) instead: its inputs are permuted to x on I1, the others on I0 /
#   I3, I2 free, and the packer pairs G with it. This ties that LUT to the
#   foot of the chain, which cost tb_clk (125 MHz) its margin when the
#   step ran on every chain (36ad866: PCI board 123.37 / 123.64 MHz at
#   seeds 1 / 3, hx8k board 122.10; 14 of the 25 hosts were on tb_clk).
#   The rule: a chain's domain is the set of clock nets of the flip-flops
#   one cell around it -- x's driver, its carries' operand drivers, the
#   flip-flops its sum LUTs and its carry out feed, the host LUT's input
#   drivers and its flip-flop. A chain gets a host only if that set holds
#   exactly one clock, that clock is none of those named in the
#   environment variable CARRY_FILL_FAST_CLOCKS, and x is a flip-flop's
#   output (a chain with no flip-flop around it: domain unknown, no host).
#   Names are resolved through ctx.net_aliases, as the pcf's set_frequency
#   resolves them (the flip-flops' clock net is common_tb_clk on the
#   boards, tb_clk in block-fit); mk/bitstream.mk exports tb_clk, the name
#   both pcfs use. Why a name: nothing in the netlist tells the timebase
#   from the bus clock without one -- tb_clk is a PLL output on the boards
#   but a port in block-fit's synpcix_card, as bus_clk is, and block-fit
#   has no pcf and so no frequency targets. A name that clocks no
#   flip-flop is an error, so a renamed clock cannot quietly host its
#   chains again. Variable unset (a hand run, the equivalence probe): no
#   clock is excluded.
#   Measured (docs/bitstream.md, "Session 18: host step for bus-clock
#   chains"): before the tile budget below, the PCI board missed tb_clk
#   at seeds 1, 2 and 3 with it (perout_gen's compare chains, split by
#   over-full tiles, were the worst paths); with the budget it meets both
#   clocks at all three, and a host is made only where the chain's first
#   tile stays within TILE_INPUTS.
# tests/bitstream/carry_fill_equiv.sh proves a placed probe with every
# kind equal to its HDL.
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
#   (NEAR hops), so that it does not drag routes across the die;
# - a fill that would take a tile of the chain past TILE_INPUTS: nextpnr
#   places a chain 8 cells to a logic tile and splits it where a tile's
#   cells have more than 32 local inputs between them (LUT inputs, and the
#   tile's enable and set/reset unless global: Arch::logicCellsCompatible),
#   with a pass-out cell below the split and a feed-in above it. A fill
#   turns a carry's cell of 2 inputs into 4, so a compare chain filled in
#   all 8 cells of a tile was split there: two cells lost for the one
#   saved, and the carry routed out and back in (perout_gen's compare
#   chains, tb_clk's worst path at seeds 1 and 2 of the session-18 tree).
import os

NEAR = 2
TILE_INPUTS = 32


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
        return False                       # _const_free's case
    if any(u.cell.type == "SB_LUT4" and str(u.port) == "I3" for u in ci.users):
        return False
    return not (_small_lut(_net(carry, "I0")) or _small_lut(_net(carry, "I1")))


def _luts_on(net_i1, net_i2):
    """LUTs whose I1 reads net_i1 and whose I2 reads net_i2 (None: I2 not
    connected or tied to 0, as the packer sees it after merging constants)."""
    found = []
    for u in net_i1.users:
        if u.cell.type != "SB_LUT4" or str(u.port) != "I1":
            continue
        i2 = _net(u.cell, "I2")
        if (net_i2 is None and _key(i2) == "GND") or \
                (net_i2 is not None and _key(i2) == str(net_i2.name)):
            found.append(u.cell)
    return found


def _const_free(carry):
    """A carry whose carry in is a constant and that the packer gives a
    cell of its own. With a constant carry in nextpnr pairs the carry with
    the one logic cell whose I1/I2 are its operands, if exactly one is
    (pack_carries); a chain's first compare carry has none. Only carries
    on two signal operands: a constant operand would route a constant."""
    if not _is_const(_net(carry, "CI")):
        return False
    a, b = _net(carry, "I0"), _net(carry, "I1")
    if _is_const(a) or _is_const(b) or _luts_on(a, b):
        return False
    return not (_small_lut(a) or _small_lut(b))


def _fed(carry):
    """The chain starting at this carry is fed from the fabric: its carry
    in is a signal x, not a constant or another carry's out (an
    incrementer's bit 1, whose carry in is bit 0). nextpnr legalises that
    with a feed-in cell of its own below the chain (chains.cc: a carry on x
    with carry in 1, its LUT and flip-flop empty). The feed-in is made here
    instead, as a carry G with operands x and 0 and constant carry in 1 (so
    its carry out is x), which the packer pairs with the one cell whose I1
    is x and whose I2 is free: a fill made for it. Not when another LUT
    reads x on I1 with I2 free (the pairing would not be unique)."""
    ci = _net(carry, "CI")
    if _is_const(ci) or ci.driver.cell.type == "SB_CARRY":
        return False
    return not _luts_on(ci, None)


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


def _new_lut(name, init, ins):
    """A LUT of the given LUT_INIT with the given nets on its inputs
    (constants left unconnected); returns its output net."""
    lut = ctx.createCell(name, "SB_LUT4")
    lut.setParam("LUT_INIT", init)
    for p in ("I0", "I1", "I2", "I3"):
        lut.addInput(p)
    lut.addOutput("O")
    for lp, n in ins:
        if n is not None and not _is_const(n):
            ctx.connectPort(n.name, name, lp)
    o = ctx.createNet(name + "$o")
    ctx.connectPort(o.name, name, "O")
    return o


def _fill_lut(name, d, ins):
    """A LUT passing I0 (the flip-flop's D) with the given nets on I1..I3."""
    return _new_lut(name, "1010101010101010", [("I0", d)] + ins)


def _feed_in(c0):
    """Carry G below the chain start c0: operands x and nothing (0), carry
    in constant 1, so its carry out is x; c0 and its sum LUT then read x
    from G's carry out instead."""
    x = _net(c0, "CI")
    # c0's sum LUT: any LUT reading x on I3 with c0's operands on I1/I2
    sums = [u.cell for u in x.users if u.cell.type == "SB_LUT4" and str(u.port) == "I3"
            and _key(_net(u.cell, "I1")) == _key(_net(c0, "I0"))
            and _key(_net(u.cell, "I2")) == _key(_net(c0, "I1"))]
    sum_lut = sums[0] if sums else None
    g = "%s$feed" % c0.name
    gc = ctx.createCell(g, "SB_CARRY")
    for p in ("I0", "I1", "CI"):
        gc.addInput(p)
    gc.addOutput("CO")
    one = ctx.createCell(g + "$one", "VCC")
    one.addOutput("Y")
    vn = ctx.createNet(g + "$1")
    ctx.connectPort(vn.name, g + "$one", "Y")
    ctx.connectPort(vn.name, g, "CI")
    ctx.connectPort(x.name, g, "I0")
    co = ctx.createNet(g + "$co")
    ctx.connectPort(co.name, g, "CO")
    ctx.disconnectPort(c0.name, "CI")
    ctx.connectPort(co.name, c0.name, "CI")
    if sum_lut is not None:
        ctx.disconnectPort(sum_lut.name, "I3")
        ctx.connectPort(co.name, sum_lut.name, "I3")
    return g, x


def _lut_inputs(lut):
    """Connected inputs of a LUT as nextpnr counts them (constants too:
    the packer ties them to its constant nets)."""
    return sum(1 for p in ("I0", "I1", "I2", "I3") if _net(lut, p) is not None)


def _chain_ctrl(chain):
    """The control sets of the flip-flops the chain's sum LUTs drive alone."""
    ctrl = set()
    for c in chain:
        lut = _sum_lut(c)
        ff = _only_user(_net(lut, "O")) if lut is not None else None
        if ff is not None and ff.type in FF_TYPES:
            ctrl.add(_ctrl(ff))
    return ctrl


def _ctrl_inputs(want):
    """A tile's local control inputs for control set want (None: not known,
    both counted): its enable and set/reset, counted as local (whether
    nextpnr makes one global is decided after this script)."""
    return 2 if want is None else sum(1 for n in want[2:] if n is not None)


def _layout(chain, fed):
    """The chain's cells as nextpnr lines them up, as a list of their
    input counts before any fill: a feed-in below the chain if its carry in
    comes from the fabric (1 input: x on I1), then one cell per carry: its
    sum LUT's inputs, or 2 for a carry alone (its operands on I1/I2)."""
    cells_in = [1] if fed else []
    for c in chain:
        lut = _sum_lut(c)
        cells_in.append(_lut_inputs(lut) if lut is not None else 2)
    return cells_in


taken = set()
n_fill = 0
n_tile = 0
n_free = 0
n_feed = 0
n_const = 0
for chain in chains:
    # ("feed", c0): a feed-in made here; ("const", c0): a constant carry in;
    # ("free", c): a carry alone
    slots = []
    if _fed(chain[0]):
        slots.append(("feed", chain[0]))
    elif _const_free(chain[0]):
        slots.append(("const", chain[0]))
    slots += [("free", c) for c in chain if _free(c)]
    if not slots:
        continue
    n_free += len(slots)
    ctrl = _chain_ctrl(chain)
    chain_nets = set()
    for c in chain:
        chain_nets.update(str(n.name) for n in _nets_of(c))
        lut = _sum_lut(c)
        if lut is not None:
            chain_nets.update(str(n.name) for n in _nets_of(lut))
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
    # the tiles' input budget (TILE_INPUTS)
    ci0 = _net(chain[0], "CI")
    fed = not _is_const(ci0) and ci0.driver.cell.type != "SB_CARRY"
    lay = _layout(chain, fed)
    pos = {str(c.name): i + (1 if fed else 0) for i, c in enumerate(chain)}
    ctrl_in = _ctrl_inputs(want)
    tile_in = {}
    for i, k in enumerate(lay):
        tile_in[i // 8] = tile_in.get(i // 8, ctrl_in) + k
    cands = iter(cands)
    for kind, c in slots:
        i = 0 if kind == "feed" else pos[str(c.name)]
        grow = {"feed": 1, "const": 3 - lay[i], "free": 4 - lay[i]}[kind]
        if tile_in[i // 8] + grow > TILE_INPUTS:
            n_tile += 1
            continue
        pick = next(cands, None)
        if pick is None:
            break
        pick = pick[2]
        tile_in[i // 8] += grow
        taken.add(str(pick.name))
        d = _net(pick, "D")
        if kind == "feed":
            g, x = _feed_in(c)
            o = _fill_lut("%s$fill" % g, d, [("I1", x)])
            n_feed += 1
        elif kind == "const":
            o = _fill_lut("%s$fill" % c.name, d, [("I1", _net(c, "I0")), ("I2", _net(c, "I1"))])
            n_const += 1
        else:
            o = _fill_lut("%s$fill" % c.name, d,
                          [("I1", _net(c, "I0")), ("I2", _net(c, "I1")), ("I3", _net(c, "CI"))])
        ctx.disconnectPort(pick.name, "D")
        ctx.connectPort(o.name, pick.name, "D")
        n_fill += 1


def _permute_init(init, perm):
    """LUT_INIT for inputs permuted: new input perm[i] is old input i."""
    bits = [(init >> i) & 1 for i in range(16)]
    out = 0
    for n in range(16):
        o = 0
        for i in range(4):
            if (n >> perm[i]) & 1:
                o |= 1 << i
        if bits[o]:
            out |= 1 << n
    return out


def _init_of(lut):
    v = dict((str(k), v) for k, v in lut.params)["LUT_INIT"]
    v = str(v)
    return int(v, 2) if set(v) <= {"0", "1"} else int(v)


def _is_sum_lut(lut):
    """The LUT reads on I3 a net that is some carry's carry in (an adder
    bit's sum LUT, which the packer pairs with that carry, or a LUT reading
    the carry like one), or reads a carry out on I3 already: its I3 is
    taken."""
    i3 = _net(lut, "I3")
    if i3 is None or _is_const(i3):
        return False
    if i3.driver.cell is not None and i3.driver.cell.type == "SB_CARRY":
        return True
    return any(u.cell.type == "SB_CARRY" and str(u.port) == "CI" for u in i3.users)


# Feed-ins left without a flip-flop: the chain's own x-reading logic goes
# in instead. A LUT that reads x and at most two other signals, and is no
# sum LUT, gets its inputs permuted to x on I1, the others on I0 / I3 and
# I2 free (it reads 0 there, so LUT_INIT is taken at I2 = 0): the packer
# pairs G with it (with its flip-flop, if it drives one alone, which must
# then be of the chain's control set). Typically an incrementer's bit 0.
def _paired(lut):
    """The packer pairs this LUT with a carry: I3 on the carry's carry in,
    I1/I2 on its operands."""
    i3 = _net(lut, "I3")
    if _is_const(i3):
        return False
    return any(u.cell.type == "SB_CARRY" and str(u.port) == "CI"
               and _key(_net(lut, "I1")) == _key(_net(u.cell, "I0"))
               and _key(_net(lut, "I2")) == _key(_net(u.cell, "I1")) for u in i3.users)


def _lut_host(x, want):
    for u in x.users:
        lut = u.cell
        if lut.type != "SB_LUT4" or _paired(lut) or str(lut.name).endswith("$fill"):
            continue
        pins = [p for p in ("I0", "I1", "I2", "I3") if not _is_const(_net(lut, p))]
        if any(_net(lut, p).driver.cell is not None and _net(lut, p).driver.cell.type == "SB_CARRY"
               for p in pins):
            continue
        if len(pins) > 3 or any(_key(_net(lut, p)) == "VCC" for p in ("I0", "I1", "I2", "I3")):
            continue
        ff = _only_user(_net(lut, "O"))
        if ff is not None and ff.type in FF_TYPES and str(_ports(ff).get("D").net.name) == str(_net(lut, "O").name):
            if want is not None and _ctrl(ff) != want:
                continue
        return lut, str(u.port), pins
    return None


def _host_permute(lut, xpin, pins):
    """x onto I1, the other used inputs onto I0 and I3, I2 left free."""
    others = [p for p in pins if p != xpin]
    dest = {xpin: "I1"}
    for p, q in zip(others, ("I0", "I3")):
        dest[p] = q
    # the unused inputs onto what is left (I2 among it): they read 0
    # before and after, so the table entries they select are never read
    spare = [q for q in ("I0", "I2", "I3") if q not in dest.values()]
    perm = [0, 1, 2, 3]
    for p in ("I0", "I1", "I2", "I3"):
        perm[int(p[1])] = int(dest[p][1]) if p in dest else int(spare.pop(0)[1])
    new = _permute_init(_init_of(lut), perm)
    nets = {p: _net(lut, p) for p in ("I0", "I1", "I2", "I3")}
    for p in ("I0", "I1", "I2", "I3"):
        if nets[p] is not None:
            ctx.disconnectPort(lut.name, p)
    for p, q in dest.items():
        ctx.connectPort(nets[p].name, lut.name, q)
    lut.setParam("LUT_INIT", format(new, "016b"))


def _clocks_around(chain, host_lut):
    """The clock nets of the flip-flops a chain is fed by or feeds, one
    cell away: x's driver, its carries' operand drivers, its sum LUTs'
    flip-flops, its carry out's flip-flops, and the host LUT's input
    drivers and flip-flops."""
    clocks = set()

    def drv(net):
        if net is not None and not _is_const(net) and net.driver.cell is not None \
                and net.driver.cell.type in FF_TYPES:
            clocks.add(_nname(_net(net.driver.cell, "C")))

    def loads(net):
        if net is None:
            return
        for u in net.users:
            if u.cell.type in FF_TYPES and str(u.port) == "D":
                clocks.add(_nname(_net(u.cell, "C")))

    drv(_net(chain[0], "CI"))
    for c in chain:
        drv(_net(c, "I0"))
        drv(_net(c, "I1"))
        lut = _sum_lut(c)
        if lut is not None:
            loads(_net(lut, "O"))
    loads(_net(chain[-1], "CO"))
    for p in ("I0", "I1", "I2", "I3"):
        drv(_net(host_lut, p))
    loads(_net(host_lut, "O"))
    return clocks


# The host step's clock rule (see the header): CARRY_FILL_FAST_CLOCKS names
# the clock nets whose chains get no host, by any of the net's names (as
# the pcf's set_frequency does: nextpnr keeps one name per net, e.g.
# common_tb_clk on the boards, and the others in ctx.net_aliases). A name
# no flip-flop is clocked by is an error, so that a renamed clock does not
# quietly host its chains.
_aliases = {str(k): str(v) for k, v in ctx.net_aliases}
FAST_NAMES = sorted(set(os.environ.get("CARRY_FILL_FAST_CLOCKS", "").split()))
FAST_CLOCKS = set(_aliases.get(n, n) for n in FAST_NAMES)
_ff_clocks = set(_nname(_net(c, "C")) for c in cells.values() if c.type in FF_TYPES)
if FAST_CLOCKS - _ff_clocks:
    raise RuntimeError("carry_ff_fill: CARRY_FILL_FAST_CLOCKS names %s, but no flip-flop is"
                       " clocked by it (clock nets: %s)"
                       % (" ".join(n for n in FAST_NAMES if _aliases.get(n, n) not in _ff_clocks),
                          " ".join(sorted(str(n) for n in _ff_clocks))))

n_host = 0
n_host_fast = 0
n_host_unknown = 0
n_host_tight = 0
host_clocks = {}
for chain in chains:
    c0 = chain[0]
    x = _net(c0, "CI")
    if _is_const(x) or x.driver.cell is None or x.driver.cell.type in ("SB_CARRY", "GND", "VCC"):
        continue
    ctrl = _chain_ctrl(chain)
    if len(ctrl) > 1:
        continue
    host = _lut_host(x, next(iter(ctrl)) if ctrl else None)
    if host is None:
        continue
    lut, xpin, pins = host
    # unique: no other LUT may read x on I1 with I2 free
    if [l for l in _luts_on(x, None) if str(l.name) != str(lut.name)]:
        continue
    around = _clocks_around(chain, lut)
    if not around:
        n_host_unknown += 1
        continue
    if around & FAST_CLOCKS:
        n_host_fast += 1
        continue
    # tighter (session 18, second rule): one clock around the chain, and x
    # a flip-flop's output
    if len(around) != 1 or x.driver.cell.type not in FF_TYPES:
        n_host_tight += 1
        continue
    # the chain's first tile with the host as its feed-in cell (its LUT's
    # inputs, x among them) within TILE_INPUTS, as the fills keep it
    first = sum(_layout(chain[:7], False))
    if _lut_inputs(lut) + first + _ctrl_inputs(next(iter(ctrl), None)) > TILE_INPUTS:
        n_tile += 1
        continue
    _host_permute(lut, xpin, pins)
    _feed_in(c0)
    n_host += 1
    for k in around:
        host_clocks[k] = host_clocks.get(k, 0) + 1

# Pass-outs. A chain's carry out read by the fabric leaves through a cell
# above the chain's last carry whose LUT passes I3 (its carry in) to O:
# nextpnr adds one after packing unless the carry out's one load is a LUT
# reading it on I3, which then joins the chain (chains.cc). Two kinds are
# made to join here:
# - the load is a flip-flop alone: a LUT passing I3 goes in front of it
#   (LUT and flip-flop pack into one cell, which joins the chain);
# - the load is one LUT that is no sum LUT of a chain itself: its inputs are
#   permuted so that the carry out is on I3.
# Either saves the pass-out cell; where the joined cell's flip-flop does
# not suit the chain's last tile, nextpnr splits the chain there and adds
# a pass-out as before (no loss).
n_pass_ff = 0
n_pass_lut = 0
for c in carries:
    co = _net(c, "CO")
    if co is None or len(co.users) != 1:
        continue
    u = co.users[0]
    if u.cell.type in FF_TYPES and str(u.port) == "D":
        ff = u.cell
        o = _new_lut("%s$out" % c.name, "1111111100000000", [("I3", co)])
        ctx.disconnectPort(ff.name, "D")
        ctx.connectPort(o.name, ff.name, "D")
        n_pass_ff += 1
    elif u.cell.type == "SB_LUT4" and str(u.port) in ("I0", "I1", "I2") and not _is_sum_lut(u.cell):
        lut = u.cell
        k = int(str(u.port)[1])
        i3 = _net(lut, "I3")
        perm = [0, 1, 2, 3]
        perm[k], perm[3] = 3, k
        lut.setParam("LUT_INIT", format(_permute_init(_init_of(lut), perm), "016b"))
        ctx.disconnectPort(lut.name, str(u.port))
        if i3 is not None:
            ctx.disconnectPort(lut.name, "I3")
            ctx.connectPort(i3.name, lut.name, "I%d" % k)
        ctx.connectPort(co.name, lut.name, "I3")
        n_pass_lut += 1
print("carry_ff_fill: %d carries without a LUT in %d chains, %d lone flip-flops, %d moved in"
      " (%d into feed-ins made here, %d beside a constant carry in; %d left empty for a"
      " tile's inputs); %d feed-ins made for a LUT of x; carry outs joined to their chains:"
      " %d through a LUT made here, %d by a LUT's input order"
      % (n_free, len(chains), len(lone), n_fill, n_feed, n_const, n_tile, n_host, n_pass_ff,
         n_pass_lut))
print("carry_ff_fill: feed-ins for a LUT of x: %d made (chains by clock: %s), %d left on a"
      " clock of CARRY_FILL_FAST_CLOCKS (%s), %d left with no flip-flop around them"
      % (n_host, ", ".join("%s %d" % kv for kv in sorted(host_clocks.items())) or "none",
         n_host_fast, " ".join("%s=%s" % (n, _aliases.get(n, n)) for n in FAST_NAMES) or "none",
         n_host_unknown))
print("carry_ff_fill: feed-ins for a LUT of x: %d left with more than one clock around them"
      " or an x that is no flip-flop's output" % n_host_tight)
