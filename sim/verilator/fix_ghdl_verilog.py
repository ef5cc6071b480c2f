#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Repair the known defects of GHDL 2.0's `--synth --out=verilog` output.

Each rewrite below is exact (same bits, same width) and is counted; the
script fails if anything it knows to be wrong is left, so a GHDL update that
changes its output is noticed instead of simulated wrongly.

1. Wide constants printed as VHDL bit strings: `"0101..."`. In Verilog a
   quoted string is ASCII, 8 bits per character, so "0001" would be
   0x30303031 truncated to the target width: silently wrong values (seen:
   the timebase's reset period and a saturation limit of gain_mul). They
   become sized binary literals N'b0101...
2. `abs` of a signed value printed in VHDL syntax:
   `n <= std_logic_vector(abs $signed(x));` (not Verilog at all). It becomes
   `assign n = $signed(x) < 0 ? -x : x;`, the same two's-complement result
   as the synthesised VHDL (the most negative value maps to itself).
3. A net named after an instance's port (`fifo_level` for port `level` of
   instance `fifo`) that collides with a signal of the same name: GHDL
   declares the wire twice and adds `assign fifo_level = fifo_level;`. The
   repeated identical declaration and the self-assignment are dropped (the
   instance drives the one net); differing repeats are an error.
4. The core must have no negedge logic: the Verilator harness evaluates
   only rising edges of tb_clk and bus_clk.

usage: fix_ghdl_verilog.py IN.v OUT.v
"""
import re
import sys

DECL = re.compile(r'^\s*(wire|reg)\s*(\[[^\]]*\])?\s*(\w+);')
SELF = re.compile(r'^\s*assign (\w+) = \1;')
BITSTR = re.compile(r'"([01]+)"')
ABS = re.compile(r'^(\s*)(\w+) <= std_logic_vector\(abs \$signed\((\w+)\)\);\s*$')


def strip_strings_outside_comments(line):
    code = line.split("//", 1)[0]
    if code.lstrip().startswith("/*"):
        return ""
    return code


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    with open(src) as f:
        lines = f.read().split("\n")
    n_str = n_abs = n_dup = 0
    out = []
    decls = {}
    for lineno, line in enumerate(lines, 1):
        if line.startswith("module "):
            decls = {}
        d = DECL.match(line)
        if d:
            name = d.group(3)
            if name in decls:
                if decls[name] != line.strip():
                    sys.stderr.write(f"{src}:{lineno}: {name} declared twice differently\n")
                    sys.exit(1)
                n_dup += 1
                continue
            decls[name] = line.strip()
        if SELF.match(line):
            n_dup += 1
            continue
        m = ABS.match(line)
        if m:
            ind, lhs, arg = m.groups()
            line = f"{ind}assign {lhs} = $signed({arg}) < 0 ? -{arg} : {arg};"
            n_abs += 1
        code = strip_strings_outside_comments(line)
        if '"' in code:
            line, k = BITSTR.subn(lambda m: f"{len(m.group(1))}'b{m.group(1)}", line)
            n_str += k
        out.append(line)
    bad = []
    for lineno, line in enumerate(out, 1):
        code = strip_strings_outside_comments(line)
        if '"' in code:
            bad.append(f"{lineno}: string literal left: {line.strip()[:100]}")
        if "std_logic_vector(" in code or re.search(r"\babs\b", code):
            bad.append(f"{lineno}: VHDL syntax left: {line.strip()[:100]}")
        if "negedge" in code:
            bad.append(f"{lineno}: negedge logic (harness drives rising edges only)")
    if bad:
        sys.stderr.write(f"{src}: GHDL output the fixer does not understand:\n  " +
                         "\n  ".join(bad[:20]) + "\n")
        sys.exit(1)
    with open(dst, "w") as f:
        f.write("\n".join(out))
    print(f"fix_ghdl_verilog: {n_str} bit-string constants, {n_abs} abs() rewritten, "
          f"{n_dup} duplicate declarations/self-assignments dropped")


if __name__ == "__main__":
    main()
