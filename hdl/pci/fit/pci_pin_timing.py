#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""PCI pin timing of a placed iCE40 design (`make pci-io-fit`).

Build-time helper (standard library only). nextpnr-ice40 times the fabric
only: its SDF (--sdf) has the delays of every logic cell, RAM and route, but
no pad buffers (SB_IO has no delay arcs) and an ideal clock (no global
buffer insertion). This script runs its own static timing over that SDF
(longest and shortest paths) and adds the pad and clock-network delays of
the iCE40 HX data sheet, to get each PCI pin's input setup and hold and its
clock-to-output, pin to pin, as PCI 2.3 specifies them (timing parameters
of chapter 7 for 66 MHz: Tsu 3 ns, Th 0 ns, Tval 2..6 ns; of 4.2.3 for
33 MHz: Tsu 7 ns, Tval 2..11 ns; point to point, GNT# in and REQ# out:
Tsu(ptp) 5 / 10 ns, Tval(ptp) 2..6 / 2..12 ns).

Data-sheet figures (iCE40 HX family data sheet, Lattice, v1.32 of
2012-10-03, tables 8 "Typical PLB timing" and 9 "Typical PIO timing",
LVCMOS25, VCC 1.2 V, typical values -- the data sheet gives no worst-case
figure for these paths; read from the table text as published at
pdf.ic37.com, ICE40HX4K-TQ144 pages 6-7):
  tPADIN  1.8 ns  PIO input pad to the adjacent interconnect
  tPADO   3.4 ns  adjacent interconnect to the PIO output pad
  tGBCKLC 1.5 ns  GBIN pin through the global buffer to a logic-cell DFF clock
  tGBCKIO 1.4 ns  GBIN pin through the global buffer to a PIO register clock
  tOCKO   3.1 ns  PIO output register (OUTFF) clock to the pad
  tSUPDIN 0   ns  setup, PIO pin to the PIO input register (INFF), from GBIN
  tHDPDIN 1.6 ns  hold, the same
A path from a fabric flip-flop to a pad is then tGBCKLC + (nextpnr's
clock-to-out and routing) + tPADO; from a pad to a fabric flip-flop
tPADIN + (routing, logic, setup) - tGBCKLC. A pad whose SB_IO registers
the data (PIN_TYPE) is tGBCKIO + tOCKO (output) or tSUPDIN/tHDPDIN (input).
An input that reaches an SB_IO's output or enable register (through logic:
PERR#/SERR# from the live PAR) is timed to that register's input as
tPADIN + path - tGBCKIO, its setup taken as 0 (the data sheet gives none
for OUTFF; session 7).

An input on a GBIN ball read through its global buffer (SB_GB_IO: TRDY#
and STOP#, session 12) enters nextpnr's SDF at the buffer's output, whose
routes to LUT inputs (global network, glb2local, local track) are in the
SDF. Its pad and buffer are the bus clock's own kind: the data sheet's
tGBCKLC is that clock's pin -> pad -> buffer -> network -> logic-cell clock,
and the SDF has the network part of it (the bus clock's global to a logic
cell's CLK pin). So the data is at its buffer's output tGBCKLC - (that
route) after the pin: the longest such route for hold, the shortest for
setup. That takes the two GBINs' pad-to-buffer delays as equal, which the
data sheet (one tGBCKLC for every GBIN) implies but does not state.

Besides the table, the worst Tsu of every input pin is printed per block
(the first name below `core.` of the endpoint's cell: target, initiator,
msi, ...; `io` for the I/O registers), so one engine's inputs can be
judged while another's are not done.

RST# and INTA# are asynchronous in PCI 2.3 and not timed; PCI CLK is the
clock. Prints a table per pin and the worst of each kind; exit status 1
when any bound is missed (or nothing was timed).
"""
import argparse
import json
import re
import sys
from collections import defaultdict

T_PADIN, T_PADO, T_GBCKLC, T_GBCKIO, T_OCKO = 1.8, 3.4, 1.5, 1.4, 3.1
T_SUPDIN, T_HDPDIN = 0.0, 1.6
# PCI 2.3: (Tsu, Th, Tval min, Tval max) at 66 and 33 MHz; point to point
PCI = {66: dict(tsu=3.0, th=0.0, tval_min=2.0, tval=6.0, tsu_ptp=5.0, tval_ptp=6.0),
       33: dict(tsu=7.0, th=0.0, tval_min=2.0, tval=11.0, tsu_ptp=10.0, tval_ptp=12.0)}
UNTIMED = ("pci_rst_n", "pci_inta_n")   # asynchronous in PCI 2.3
PTP = ("pci_req_n", "pci_gnt_n")


def die(msg):
    print("pci-io-fit: " + msg, file=sys.stderr)
    sys.exit(1)


def unescape(name):
    return re.sub(r"\\(.)", r"\1", name)


def split_pin(ref):
    # "inst/port": the instance name may hold '/' only escaped
    i = ref.rfind("/")
    while i > 0 and ref[i - 1] == "\\":
        i = ref.rfind("/", 0, i - 1)
    return unescape(ref[:i]), ref[i + 1:]


def ps(triple):
    return int(triple.strip("()").split(":")[2]) / 1000.0


def parse_sdf(path):
    """Cells' arcs and checks, and the routes, from nextpnr's SDF."""
    comb = []          # (from node, to node, ns)
    clk2q = {}         # node -> (clock port, ns)
    setup = {}         # node -> (clock port, edge, ns)
    celltype = {}
    inst = None
    tok = re.compile(r"\(\s*(CELLTYPE|INSTANCE|IOPATH|INTERCONNECT|SETUPHOLD)\s+([^\n]*)")
    for line in open(path):
        m = tok.search(line)
        if not m:
            continue
        kind, rest = m.group(1), m.group(2)
        if kind == "CELLTYPE":
            ctype = rest.split('"')[1]
        elif kind == "INSTANCE":
            inst = unescape(rest.rstrip(") \n"))
            celltype[inst] = ctype
        elif kind == "INTERCONNECT":
            a, b, d = rest.split()[:3]
            comb.append((split_pin(a), split_pin(b), ps(d)))
        elif kind == "IOPATH":
            words = rest.replace("(posedge ", "").replace("(negedge ", "").split()
            src, dst, d = words[0], words[1], ps(words[2])
            if src in ("CLK", "RCLK"):
                clk2q[(inst, dst)] = (src, d)
            else:
                comb.append(((inst, src), (inst, dst), d))
        elif kind == "SETUPHOLD":
            m2 = re.match(r"\((?:pos|neg)edge (\S+)\)\s+\((pos|neg)edge (\S+)\)\s+(\(\S+\))", rest)
            if m2:
                setup[(inst, m2.group(1))] = (m2.group(3), m2.group(2), ps(m2.group(4)))
    return comb, clk2q, setup, celltype


def pad_map(logtext):
    """Top-level pin -> its SB_IO instance (nextpnr's packer log)."""
    pads = {}
    for m in re.finditer(r"Info: (\S+) feeds SB_IO (\S+), removing", logtext):
        pads[m.group(2)] = m.group(1)
    return pads


def io_pin_types(netlist):
    types = {}
    for mod in netlist.get("modules", {}).values():
        for name, cell in mod.get("cells", {}).items():
            if cell.get("type") in ("SB_IO", "SB_GB_IO"):
                pt = str(cell.get("parameters", {}).get("PIN_TYPE", "000000"))
                types[name] = pt[-6:]
    return types


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sdf", required=True)
    ap.add_argument("--log", required=True, help="nextpnr log (pin -> SB_IO names, Fmax)")
    ap.add_argument("--netlist", required=True, help="Yosys JSON (SB_IO PIN_TYPEs)")
    ap.add_argument("--mhz", type=int, default=66, choices=sorted(PCI))
    ap.add_argument("--check", default="all",
                    help="which bounds decide the exit status (all are printed): all, "
                         "outputs, inputs (the fabric Fmax counts in each), or block:NAME "
                         "(only the inputs' Tsu into endpoints of block NAME, e.g. "
                         "block:target; an engine judged while another is not done)")
    args = ap.parse_args()
    block_only = None
    if args.check.startswith("block:") and len(args.check) > 6:
        block_only = args.check[6:]
    elif args.check not in ("all", "outputs", "inputs"):
        die("--check: all, outputs, inputs or block:NAME, not %r" % args.check)
    bars = PCI[args.mhz]

    try:
        logtext = open(args.log).read()
        netlist = json.load(open(args.netlist))
    except (OSError, ValueError) as e:
        die(str(e))
    comb, clk2q, setup, celltype = parse_sdf(args.sdf)
    pads = pad_map(logtext)
    ptypes = io_pin_types(netlist)
    if not pads or not comb:
        die("no pads or no timing arcs found (log %s, sdf %s)" % (args.log, args.sdf))

    # Starting points: clocked outputs (rising edge: RAM reads and logic
    # cells) and the input pads' D_IN_0 (direct inputs only).
    succ = defaultdict(list)
    pred = defaultdict(list)
    for a, b, d in comb:
        succ[a].append((b, d))
        pred[b].append((a, d))
    nodes = set(succ) | set(pred) | set(clk2q) | set(setup)
    # topological order (the combinational graph is acyclic)
    indeg = {n: 0 for n in nodes}
    for a, b, d in comb:
        indeg[b] += 1
    order = [n for n in nodes if indeg[n] == 0]
    for n in order:
        for b, d in succ[n]:
            indeg[b] -= 1
            if indeg[b] == 0:
                order.append(b)
    if len(order) != len(nodes):
        die("combinational loop in the placed design")

    def pin_io(inst):
        pin = pads.get(inst)
        return pin, ptypes.get(inst, "")

    def is_reg_in(pt):
        return pt[-2:] in ("00",)

    # SB_IO PIN_TYPE(5:2): output registered in 0101 1001 1101 0111 1011
    # 1111 (and the DDR modes 0100 1100 1000); enable registered in 1110
    # 1101 1111 1000
    def is_reg_out(pt):
        return pt[:4] in ("0101", "1001", "1101", "0111", "1011", "1111", "0100", "1100", "1000")

    def is_reg_oe(pt):
        return pt[:4] in ("1110", "1101", "1111", "1000")

    # forward: latest and earliest arrival from clocked starts (t = 0 at the
    # flip-flop's clock pin; the clock network is added per pin below)
    late, early = {}, {}
    for n, (ck, d) in clk2q.items():
        if ck == "CLK" or ck == "RCLK":
            late[n] = max(late.get(n, -1e9), d)
            early[n] = min(early.get(n, 1e9), d)
    for n in order:
        if n not in late:
            continue
        for b, d in succ[n]:
            late[b] = max(late.get(b, -1e9), late[n] + d)
            early[b] = min(early.get(b, 1e9), early[n] + d)
    # backward: the longest and shortest path to a rising-edge clocked
    # endpoint, setup included; the SB_IO output and enable registers are
    # endpoints too (setup 0, clocked tGBCKIO instead of tGBCKLC)
    ends = {}
    for n, (ck, edge, d) in setup.items():
        if edge == "pos" and ck in ("CLK", "RCLK"):
            ends[n] = d
    for inst, pt in ptypes.items():
        if is_reg_out(pt) and (inst, "D_OUT_0") in pred:
            ends[(inst, "D_OUT_0")] = T_GBCKLC - T_GBCKIO
        if is_reg_oe(pt) and (inst, "OUTPUT_ENABLE") in pred:
            ends[(inst, "OUTPUT_ENABLE")] = T_GBCKLC - T_GBCKIO

    def block(n):
        if celltype.get(n[0]) == "SB_IO" or n[0] in ptypes:
            return "io"
        parts = n[0].split(".")
        if parts[0] == "core" and len(parts) > 2:
            return parts[1]
        return parts[0] if len(parts) > 1 else "top"

    def backward(keep):
        to_end, to_end_min, via = {}, {}, {}
        for n, d in ends.items():
            if keep(n):
                to_end[n] = d
                to_end_min[n] = 0.0
        for n in reversed(order):
            for b, d in succ[n]:
                if b in to_end:
                    if to_end[b] + d > to_end.get(n, -1e9):
                        to_end[n] = to_end[b] + d
                        via[n] = b
                    to_end_min[n] = min(to_end_min.get(n, 1e9), to_end_min[b] + d)
        return to_end, to_end_min, via

    to_end, to_end_min, via = backward(lambda n: True)

    # GBIN data pads: their global buffer's output, and the bus clock's
    # global routes to logic-cell clocks (the buffer driving the most)
    gb_out = {}
    for inst in pads:
        g = ("$gbuf_%s_io" % inst, "GLOBAL_BUFFER_OUTPUT")
        if g in succ:
            gb_out[inst] = g
    clk_routes = defaultdict(list)
    for a, b, d in comb:
        if (celltype.get(a[0]) == "SB_GB" and a[1] == "GLOBAL_BUFFER_OUTPUT" and
                celltype.get(b[0]) == "ICESTORM_LC" and b[1] == "CLK"):
            clk_routes[a].append(d)
    bus_clk = max(clk_routes.values(), key=len, default=None)
    if gb_out and not bus_clk:
        die("a GBIN data pad but no global clock route to time it against")

    def start(inst):
        """Where a pad's input enters the SDF, and when it is there after the
        pin: (node, latest, earliest)."""
        if inst in gb_out:
            return gb_out[inst], T_GBCKLC - min(bus_clk), T_GBCKLC - max(bus_clk)
        return (inst, "D_IN_0"), T_PADIN, T_PADIN

    def worst_path(n):
        """Logic cells passed through on the worst path (LUT levels; a carry
        chain counts each of its cells) and its endpoint."""
        levels = 0
        while n in via:
            b = via[n]
            if b[0] == n[0] and celltype.get(n[0]) == "ICESTORM_LC":
                levels += 1
            n = b
        if celltype.get(n[0]) == "ICESTORM_LC" and n[1] in ("I0", "I1", "I2", "I3"):
            levels += 1   # the flip-flop's own LUT (nextpnr's setup arc includes it)
        return levels, "%s.%s" % n

    rows, fails = [], []
    worst = {}

    def note(kind, pin, val, bound, ok, how):
        rows.append((pin, kind, val, bound, "ok" if ok else "MISSED", how))
        counts = block_only is None and (args.check == "all" or
                                         (args.check == "outputs") == kind.startswith("Tval"))
        if not ok and counts:
            fails.append("%s %s %.2f ns (bound %s)" % (pin, kind, val, bound))
        # the worst is the largest, except for the earliest output change
        if kind not in worst or (val < worst[kind][1] if kind == "Tval min" else val > worst[kind][1]):
            worst[kind] = (pin, val)

    for inst in sorted(pads, key=lambda i: pads[i]):
        pin, pt = pin_io(inst)
        if pin in UNTIMED or inst not in celltype:
            continue
        ptp = pin in PTP
        tsu_bar = bars["tsu_ptp"] if ptp else bars["tsu"]
        tval_bar = bars["tval_ptp"] if ptp else bars["tval"]
        din, t_in, t_in_min = start(inst)
        via_gb = "GBIN -> global -> " if inst in gb_out else "pad -> "
        if din in to_end and not is_reg_in(pt):
            tsu = t_in + to_end[din] - T_GBCKLC
            th = T_GBCKLC - (t_in_min + to_end_min[din])
            levels, end = worst_path(din)
            note("Tsu", pin, tsu, "<= %g" % tsu_bar, tsu <= tsu_bar,
                 "%s%d LUT -> %s" % (via_gb, levels, end))
            note("Th", pin, th, "<= %g" % bars["th"], th <= bars["th"], via_gb + "fabric FF")
        elif is_reg_in(pt) and din in succ:
            note("Tsu", pin, T_SUPDIN, "<= %g" % tsu_bar, T_SUPDIN <= tsu_bar, "I/O register")
            note("Th", pin, T_HDPDIN, "<= %g" % bars["th"], T_HDPDIN <= bars["th"], "I/O register")
        for port, what in (("D_OUT_0", "data"), ("OUTPUT_ENABLE", "enable")):
            n = (inst, port)
            reg = is_reg_out(pt) if port == "D_OUT_0" else is_reg_oe(pt)
            if reg:
                if n in pred:
                    tv = T_GBCKIO + T_OCKO
                    note("Tval", pin + " " + what, tv, "%g..%g" % (bars["tval_min"], tval_bar),
                         bars["tval_min"] <= tv <= tval_bar, "I/O register")
            elif n in late:
                tv = T_GBCKLC + late[n] + T_PADO
                tvmin = T_GBCKLC + early[n] + T_PADO
                note("Tval", pin + " " + what, tv, "<= %g" % tval_bar, tv <= tval_bar,
                     "fabric FF -> pad")
                note("Tval min", pin + " " + what, tvmin, ">= %g" % bars["tval_min"],
                     tvmin >= bars["tval_min"], "fabric FF -> pad")

    # the worst Tsu of each input pin per block of its endpoints
    blocks = sorted({block(n) for n in ends})
    per_block = {}
    for b in blocks:
        te, _, _ = backward(lambda n, b=b: block(n) == b)
        for inst in pads:
            pin, pt = pin_io(inst)
            din, t_in, _ = start(inst)
            if pin in UNTIMED or is_reg_in(pt) or din not in te:
                continue
            per_block[(pin, b)] = t_in + te[din] - T_GBCKLC

    fmax = re.findall(r"Max frequency for clock '([^']*)': ([0-9.]+) MHz", logtext)
    print("pin timing at %d MHz (PCI 2.3; data-sheet pad/clock delays, typical):" % args.mhz)
    print("  %-22s %-8s %7s  %-9s %-6s %s" % ("pin", "what", "ns", "bound", "", "path"))
    for pin, kind, val, bound, ok, how in rows:
        print("  %-22s %-8s %7.2f  %-9s %-6s %s" % (pin, kind, val, bound, ok, how))
    used = [b for b in blocks if any(k[1] == b for k in per_block)]
    print("worst Tsu per input pin and block of the endpoint (ns; '-' no path):")
    print("  %-14s" % "pin" + "".join(" %10s" % b for b in used))
    for pin in sorted({k[0] for k in per_block}):
        cells = []
        for b in used:
            v = per_block.get((pin, b))
            cells.append(" %10s" % ("-" if v is None else "%.2f%s" % (v, "" if v <= (
                bars["tsu_ptp"] if pin in PTP else bars["tsu"]) else "!")))
        print("  %-14s" % pin + "".join(cells))
    print("worst:")
    for kind in ("Tsu", "Th", "Tval", "Tval min"):
        if kind in worst:
            print("  %-8s %7.2f ns  %s" % (kind, worst[kind][1], worst[kind][0]))
    if fmax:
        clk, f = fmax[-1]
        print("  bus_clk fabric Fmax %.2f MHz (%s)" % (float(f), clk))
        if float(f) < args.mhz and block_only is None:
            fails.append("fabric Fmax %.2f MHz < %d" % (float(f), args.mhz))
    elif block_only is None:
        fails.append("no Fmax in the nextpnr log")
    if not rows:
        fails.append("no pin was timed")
    if block_only is not None:
        mine = sorted((k[0], v) for k, v in per_block.items() if k[1] == block_only)
        if not mine:
            fails.append("no input reaches block %s" % block_only)
        for pin, v in mine:
            bound = bars["tsu_ptp"] if pin in PTP else bars["tsu"]
            if v > bound:
                fails.append("%s Tsu into %s %.2f ns (bound <= %g)" % (pin, block_only, v, bound))
    if fails:
        print("pci-io-fit: PCI %d MHz timing (%s) MISSED: %s" % (args.mhz, args.check, "; ".join(fails[:8]) +
              (" (and %d more)" % (len(fails) - 8) if len(fails) > 8 else "")), file=sys.stderr)
        sys.exit(1)
    print("pci-io-fit: PCI %d MHz timing (%s)%s met" % (
        args.mhz, args.check, "" if block_only else " and fabric Fmax"))


if __name__ == "__main__":
    main()
