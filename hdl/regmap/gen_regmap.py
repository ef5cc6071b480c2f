#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate the SynPCI-X register map outputs from hdl/regmap/synpcix.toml.

    gen_regmap.py DESCRIPTION --vhdl OUT.vhd --c OUT.h --md OUT.md

Build-time only, Python standard library only. Every output is produced from
the one description, so no offset is ever typed twice. The description is
checked first (alignment, overlaps, field bounds, reserved space); any problem
is reported as "DESCRIPTION: block/reg: what is wrong" and nothing is written.
"""

import argparse
import os
import sys
import tomllib

ACCESS = ("ro", "rw", "wo", "cmd", "rc", "w1c")
HEADER_REGS = (
    ("type", 0x0, "Block type (upper half 0x%04X, the map prefix)."),
    ("version", 0x4, "Block version, major << 16 | minor."),
    ("next", 0x8, "Byte offset of the next block; 0 ends the chain."),
)


class MapError(Exception):
    pass


def _int(v, where, what):
    if isinstance(v, bool) or not isinstance(v, int):
        raise MapError(f"{where}: {what} must be an integer, got {v!r}")
    return v


def _name(v, where):
    if not isinstance(v, str) or not v.isidentifier() or v.lower() != v:
        raise MapError(f"{where}: name {v!r} must be a lower-case identifier")
    return v


def load(path):
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except OSError as e:
        raise MapError(f"cannot read: {e.strerror}")
    except tomllib.TOMLDecodeError as e:
        raise MapError(f"not valid TOML: {e}")
    m = raw.get("map")
    if not isinstance(m, dict):
        raise MapError("missing [map] table")
    size = _int(m.get("bus_bytes"), "map", "bus_bytes")
    prefix = _int(m.get("type_prefix"), "map", "type_prefix")
    blocks, used = [], []
    for b in raw.get("block", []):
        bname = _name(b.get("name"), "block")
        base = _int(b.get("base"), bname, "base")
        if base % 0x40:
            raise MapError(f"{bname}: base 0x{base:X} is not 64-byte aligned")
        ver = str(b.get("version", ""))
        try:
            major, minor = (int(x) for x in ver.split("."))
        except ValueError:
            raise MapError(f"{bname}: version {ver!r} must be MAJOR.MINOR")
        regs, seen = [], {}
        for rn, off, doc in HEADER_REGS:
            regs.append(dict(name=rn, offset=off, access="ro", reset=0,
                             doc=doc % prefix if "%" in doc else doc,
                             fields=[], side="", header=True))
        for r in b.get("reg", []):
            rname = _name(r.get("name"), f"{bname}/reg")
            where = f"{bname}/{rname}"
            if rname in seen or rname in ("type", "version", "next"):
                raise MapError(f"{where}: duplicate register name")
            off = _int(r.get("offset"), where, "offset")
            if off % 4 or off < 0xC:
                raise MapError(f"{where}: offset 0x{off:X} must be 4-aligned and >= 0xC")
            acc = r.get("access")
            if acc not in ACCESS:
                raise MapError(f"{where}: access {acc!r} not one of {', '.join(ACCESS)}")
            reset = _int(r.get("reset", 0), where, "reset")
            if not 0 <= reset < 1 << 32:
                raise MapError(f"{where}: reset 0x{reset:X} does not fit 32 bits")
            fields, bits = [], 0
            for fd in r.get("fields", []):
                fname = _name(fd.get("name"), f"{where}/field")
                lsb = _int(fd.get("lsb"), f"{where}.{fname}", "lsb")
                width = _int(fd.get("width"), f"{where}.{fname}", "width")
                if width < 1 or lsb < 0 or lsb + width > 32:
                    raise MapError(f"{where}.{fname}: bits {lsb}+{width} outside 0..31")
                mask = ((1 << width) - 1) << lsb
                if bits & mask:
                    raise MapError(f"{where}.{fname}: overlaps another field")
                bits |= mask
                values = fd.get("values", {})
                for vn, vv in values.items():
                    _int(vv, f"{where}.{fname}.{vn}", "value")
                    if not 0 <= vv < 1 << width:
                        raise MapError(f"{where}.{fname}.{vn}: {vv} does not fit {width} bits")
                fields.append(dict(name=fname, lsb=lsb, width=width,
                                   doc=fd.get("doc", ""), values=values))
            reg = dict(name=rname, offset=off, access=acc, reset=reset,
                       doc=r.get("doc", ""), side=r.get("side", ""),
                       fields=fields, header=False)
            seen[rname] = reg
            regs.append(reg)
        offs = {}
        for reg in regs:
            if reg["offset"] in offs:
                raise MapError(f"{bname}/{reg['name']}: offset 0x{reg['offset']:X} "
                               f"already used by {offs[reg['offset']]}")
            offs[reg["offset"]] = reg["name"]
        span = max(offs) + 4
        blocks.append(dict(name=bname, base=base, span=span,
                           type=(prefix << 16) | _int(b.get("type"), bname, "type"),
                           version=(major << 16) | minor, version_str=ver,
                           doc=b.get("doc", "").strip(),
                           regs=sorted(regs, key=lambda x: x["offset"])))
        used.append((base, base + span, bname))
    reserved = []
    for r in raw.get("reserved", []):
        rname = _name(r.get("name"), "reserved")
        base = _int(r.get("base"), rname, "base")
        rsize = _int(r.get("size"), rname, "size")
        stride = _int(r.get("stride", 0), rname, "stride")
        if stride and (stride % 4 or rsize % stride):
            raise MapError(f"{rname}: stride 0x{stride:X} must be 4-aligned and divide the size")
        reserved.append(dict(name=rname, base=base, size=rsize, stride=stride,
                             doc=r.get("doc", "")))
        used.append((base, base + rsize, rname))
    used.sort()
    for (a0, a1, an), (b0, b1, bn) in zip(used, used[1:]):
        if b0 < a1:
            raise MapError(f"{bn}: 0x{b0:X} overlaps {an} (0x{a0:X}..0x{a1 - 1:X})")
    if used and used[-1][1] > size:
        raise MapError(f"{used[-1][2]}: ends beyond the {size}-byte window")
    blocks.sort(key=lambda b: b["base"])
    if not blocks or blocks[0]["base"] != 0:
        raise MapError("the first block must sit at offset 0 (drivers start the walk there)")
    names = [b["name"] for b in blocks]
    if len(set(names)) != len(names):
        raise MapError("block names must be unique")
    for i, b in enumerate(blocks):
        b["next"] = blocks[i + 1]["base"] if i + 1 < len(blocks) else 0
        b["regs"][0]["reset"] = b["type"]
        b["regs"][1]["reset"] = b["version"]
        b["regs"][2]["reset"] = b["next"]
    return dict(name=m.get("name", "map"), size=size, prefix=prefix,
                blocks=blocks, reserved=reserved)


GEN_NOTE = "Generated by hdl/regmap/gen_regmap.py from hdl/regmap/synpcix.toml: do not edit."


def gen_vhdl(m):
    out = ["-- SPDX-License-Identifier: GPL-2.0-or-later",
           f"-- {GEN_NOTE}",
           "library ieee;", "use ieee.std_logic_1164.all;", "",
           "package synpcix_regs_pkg is",
           f"  constant REG_WINDOW_BYTES : natural := {m['size']};",
           f"  constant REG_ADDR_BITS    : natural := {(m['size'] - 1).bit_length()};"]
    for b in m["blocks"]:
        B = b["name"].upper()
        out.append("")
        out.append(f"  -- block {b['name']}")
        out.append(f"  constant BLK_{B}_BASE : natural := 16#{b['base']:03X}#;")
        for r in b["regs"]:
            R = f"{B}_{r['name'].upper()}"
            out.append(f"  constant REG_{R} : natural := 16#{b['base'] + r['offset']:03X}#;")
            out.append(f"  constant {R}_RESET : std_logic_vector(31 downto 0) := x\"{r['reset']:08X}\";")
            for f in r["fields"]:
                F = f"{R}_{f['name'].upper()}"
                out.append(f"  constant {F}_LSB : natural := {f['lsb']};")
                out.append(f"  constant {F}_WIDTH : natural := {f['width']};")
                if r["reset"]:
                    # the field's value in the register's reset word (a
                    # constant register's value: dma.info.addr_bits)
                    v = (r["reset"] >> f["lsb"]) & ((1 << f["width"]) - 1)
                    out.append(f"  constant {F}_RESET_VALUE : natural := {v};")
                for vn, vv in f["values"].items():
                    out.append(f"  constant {F}_{vn.upper()} : natural := {vv};")
    for r in m["reserved"]:
        R = r["name"].upper()
        out.append("")
        out.append(f"  -- reserved: {r['name']}")
        out.append(f"  constant RSV_{R}_BASE : natural := 16#{r['base']:03X}#;")
        out.append(f"  constant RSV_{R}_SIZE : natural := 16#{r['size']:03X}#;")
        if r["stride"]:
            out.append(f"  constant RSV_{R}_STRIDE : natural := 16#{r['stride']:03X}#;")
    out += ["end package;", ""]
    return "\n".join(out)


def gen_c(m):
    P = m["name"].upper()
    out = ["/* SPDX-License-Identifier: GPL-2.0-or-later */",
           f"/* {GEN_NOTE} */",
           f"#ifndef {P}_REGS_H", f"#define {P}_REGS_H", "",
           f"#define {P}_REG_WINDOW_BYTES 0x{m['size']:X}u",
           f"#define {P}_BLOCK_TYPE_PREFIX 0x{m['prefix']:04X}u"]
    for b in m["blocks"]:
        B = f"{P}_{b['name'].upper()}"
        out += ["", f"/* block {b['name']}: {b['doc'].splitlines()[0] if b['doc'] else ''} */",
                f"#define {B}_BASE 0x{b['base']:03X}u",
                f"#define {B}_TYPE_ID 0x{b['type']:08X}u",
                f"#define {B}_VERSION 0x{b['version']:08X}u"]
        for r in b["regs"]:
            if r["header"]:
                continue
            R = f"{B}_{r['name'].upper()}"
            out.append(f"#define {R} 0x{b['base'] + r['offset']:03X}u")
            if r["reset"]:
                out.append(f"#define {R}_RESET 0x{r['reset']:08X}u")
            for f in r["fields"]:
                F = f"{R}_{f['name'].upper()}"
                out.append(f"#define {F}_SHIFT {f['lsb']}")
                out.append(f"#define {F}_MASK 0x{((1 << f['width']) - 1) << f['lsb']:08X}u")
                for vn, vv in f["values"].items():
                    out.append(f"#define {F}_{vn.upper()} {vv}u")
    out.append("")
    out.append("/* block header words, the same in every block */")
    for rn, off, _ in HEADER_REGS:
        out.append(f"#define {P}_BLK_{rn.upper()} 0x{off:X}u")
    for r in m["reserved"]:
        R = f"{P}_RSV_{r['name'].upper()}"
        out.append(f"#define {R}_BASE 0x{r['base']:03X}u")
        out.append(f"#define {R}_SIZE 0x{r['size']:03X}u")
        if r["stride"]:
            out.append(f"#define {R}_STRIDE 0x{r['stride']:03X}u")
    out += ["", f"#endif /* {P}_REGS_H */", ""]
    return "\n".join(out)


def _md(s):
    return " ".join(s.split()).replace("|", "\\|")


def gen_md(m):
    out = ["<!-- SPDX-License-Identifier: GPL-2.0-or-later -->",
           f"<!-- {GEN_NOTE} -->", "",
           "# SynPCI-X register map", "",
           f"BAR0 is a {m['size']}-byte window of 32-bit registers; only whole "
           "32-bit accesses are defined. The map is a chain of self-describing "
           "blocks: every block starts with TYPE, VERSION and NEXT words, and a "
           "driver walks the chain from offset 0 (see `hdl/regmap/synpcix.toml`, "
           "the one description this page, the VHDL package and the C header "
           "are generated from).", "",
           "Access: `ro` read only, `rw` read/write, `wo` write only, `cmd` "
           "write-1 command strobes (reads give pending state), `rc` read clears, "
           "`w1c` reads state, writing 1 to a bit clears it.",
           "Writes to read-only registers and accesses to undefined offsets are "
           "ignored (reads return 0) and counted in `id.bad_access`.", "",
           "| offset | block | type | version |", "|---|---|---|---|"]
    for b in m["blocks"]:
        out.append(f"| 0x{b['base']:03X} | {b['name']} | 0x{b['type']:08X} | {b['version_str']} |")
    for r in m["reserved"]:
        out.append(f"| 0x{r['base']:03X} | *{r['name']}* (reserved, 0x{r['size']:X} bytes) | | |")
    for b in m["blocks"]:
        out += ["", f"## {b['name']} (0x{b['base']:03X})", "", _md(b["doc"]), "",
                "| offset | register | access | reset | description |",
                "|---|---|---|---|---|"]
        for r in b["regs"]:
            desc = _md(r["doc"])
            if r["side"]:
                desc += f" **Side effect:** {_md(r['side'])}"
            for f in r["fields"]:
                bits = (f"{f['lsb']}" if f["width"] == 1
                        else f"{f['lsb'] + f['width'] - 1}:{f['lsb']}")
                vals = ""
                if f["values"]:
                    vals = " (" + ", ".join(f"{k}={v}" for k, v in f["values"].items()) + ")"
                desc += f"<br>`[{bits}]` **{f['name']}**: {_md(f['doc'])}{vals}"
            out.append(f"| 0x{b['base'] + r['offset']:03X} | {r['name']} | {r['access']} "
                       f"| 0x{r['reset']:08X} | {desc} |")
    out += ["", "## Reserved space", ""]
    for r in m["reserved"]:
        stride = (f" Entries every 0x{r['stride']:X} bytes."
                  if r["stride"] else "")
        out.append(f"- 0x{r['base']:03X}..0x{r['base'] + r['size'] - 1:03X} "
                   f"**{r['name']}**: {_md(r['doc'])}{stride}")
    out.append("")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("description")
    ap.add_argument("--vhdl")
    ap.add_argument("--c")
    ap.add_argument("--md")
    a = ap.parse_args(argv)
    try:
        m = load(a.description)
    except MapError as e:
        print(f"{a.description}: {e}", file=sys.stderr)
        return 1
    for path, gen in ((a.vhdl, gen_vhdl), (a.c, gen_c), (a.md, gen_md)):
        if path:
            text = gen(m)
            tmp = path + ".tmp"
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
