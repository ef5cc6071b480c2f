#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn nextpnr-ice40's --report JSON into build/bitstream/report.json.

Build-time helper (standard library only). The clock targets come from the
board's .pcf `set_frequency NET MHZ` lines, the one place they are typed.
nextpnr names a clock after whichever alias of the net it kept, decorated
with what it inserted (e.g. `pci_clk$SB_IO_IN_$glb_clk`), so the Yosys
netlist is used to tell which constrained net a reported clock is.

Writes report.json as
  {"device": D, "lc_used": N, "lc_total": N,
   "clocks": {NET: {"fmax_mhz": F, "target_mhz": T}}}
and a short critical-path summary per clock beside it. Exit status 1 when
a clock misses its target, a target has no timing result, or a clock in the
design has no target (an unconstrained clock would be checked at nextpnr's
default 12 MHz and pass silently).
"""
import argparse
import json
import os
import sys


def die(msg):
    print("bitstream: " + msg, file=sys.stderr)
    sys.exit(1)


def load_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die("cannot read %s %s: %s" % (what, path, e))


def pcf_targets(path):
    targets = {}
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die("cannot read %s: %s" % (path, e))
    for n, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if words[:1] != ["set_frequency"]:
            continue
        if len(words) != 3:
            die("%s:%d: expected 'set_frequency NET MHZ'" % (path, n))
        try:
            targets[words[1]] = float(words[2])
        except ValueError:
            die("%s:%d: frequency '%s' is not a number" % (path, n, words[2]))
    if not targets:
        die("%s has no set_frequency line: no clock would be checked" % path)
    return targets


def top_netnames(netlist):
    for mod in netlist.get("modules", {}).values():
        if str(mod.get("attributes", {}).get("top", "0")).strip("0") != "":
            return mod.get("netnames", {})
    die("netlist has no top module")


def summarize_path(path):
    """One line per net on a critical path: the names a designer knows."""
    out = []
    for step in path.get("path", []):
        if step.get("type") == "routing" and step.get("net"):
            out.append("    %-60s %6.2f ns" % (step["net"], step.get("delay", 0.0)))
    total = sum(s.get("delay", 0.0) for s in path.get("path", []))
    return "  %s -> %s: %.2f ns\n%s" % (path.get("from"), path.get("to"), total, "\n".join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nextpnr-report", required=True)
    ap.add_argument("--netlist", required=True, help="Yosys JSON given to nextpnr")
    ap.add_argument("--pcf", required=True)
    ap.add_argument("--device", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--paths", help="write critical-path summary here")
    a = ap.parse_args()

    targets = pcf_targets(a.pcf)
    rep = load_json(a.nextpnr_report, "nextpnr report")
    nets = top_netnames(load_json(a.netlist, "netlist"))

    for net in targets:
        if net not in nets:
            die("%s: clock net '%s' does not exist in the design" % (a.pcf, net))

    def owner(clock):
        """The constrained net a reported clock belongs to, or None."""
        base = clock if clock.startswith("$") else clock.split("$", 1)[0]
        bits = nets.get(base, {}).get("bits")
        for net in targets:
            if base == net or (bits is not None and bits == nets[net]["bits"]):
                return net
        return None

    fmax = rep.get("fmax")
    util = rep.get("utilization", {}).get("ICESTORM_LC")
    if not isinstance(fmax, dict) or not util:
        die("%s lacks 'fmax' or 'utilization.ICESTORM_LC'" % a.nextpnr_report)

    clocks, errors = {}, []
    for clock, res in sorted(fmax.items()):
        net = owner(clock)
        if net is None:
            errors.append("clock '%s' has no set_frequency target in %s" % (clock, a.pcf))
            continue
        if net in clocks:
            errors.append("clock net '%s' reported twice by nextpnr" % net)
            continue
        if abs(res["constraint"] - targets[net]) > 0.01 * targets[net]:
            errors.append("clock '%s' was placed for %.2f MHz, the pcf asks %.2f MHz"
                          % (net, res["constraint"], targets[net]))
        clocks[net] = {"fmax_mhz": round(res["achieved"], 2), "target_mhz": targets[net]}
    for net in targets:
        if net not in clocks:
            errors.append("no timing result for clock '%s' (does it clock anything?)" % net)

    report = {"device": a.device, "lc_used": int(util["used"]),
              "lc_total": int(util["available"]), "clocks": clocks}
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(report, f, indent=2, sort_keys=False)
        f.write("\n")
    os.replace(tmp, a.out)

    failed = [n for n, c in clocks.items() if c["fmax_mhz"] < c["target_mhz"]]
    if a.paths:
        with open(a.paths, "w") as f:
            for p in rep.get("critical_paths", []):
                f.write(summarize_path(p) + "\n")

    pct = 100.0 * report["lc_used"] / report["lc_total"]
    print("%s: %d of %d logic cells (%.1f %%)" % (a.device, report["lc_used"], report["lc_total"], pct))
    for n, c in sorted(clocks.items()):
        print("  %-10s Fmax %7.2f MHz  target %6.2f MHz  %s" % (
            n, c["fmax_mhz"], c["target_mhz"], "FAIL" if n in failed else "met"))
    for e in errors:
        print("bitstream: " + e, file=sys.stderr)
    if failed:
        print("bitstream: TIMING NOT MET for %s; critical paths:" % ", ".join(sorted(failed)), file=sys.stderr)
        for p in rep.get("critical_paths", []):
            to = str(p.get("to", ""))
            if any(owner(to.split(" ", 1)[-1]) == n for n in failed):
                print(summarize_path(p), file=sys.stderr)
    return 1 if errors or failed else 0


if __name__ == "__main__":
    sys.exit(main())
