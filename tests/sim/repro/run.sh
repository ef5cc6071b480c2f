#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GHDL 2.0.0 (Debian 12) synthesis bug, minimal reproducer: a variable that
# one case branch assigns whole constants and another branch assigns by
# slices is split into slices, and the constants are cut at the wrong bits.
# RTL simulation passes; the synthesised netlist (--synth, any --out) gives
# 9ACA72C1 for x"53594E58". Hit in hdl/core/clock_regs.vhd (id.magic read
# back as 3594E589 from the Verilator model and from GHDL's own netlist).
# Not part of `make test`: it documents the toolchain, it tests no code of
# ours. usage: sh tests/sim/repro/run.sh  (exit 1 while the bug is there)
set -e
D=$(cd "$(dirname "$0")" && pwd)
W=${TMPDIR:-/tmp}/ghdl_case_slice.$$
mkdir -p "$W/rtl" "$W/net"
cd "$W/rtl"
ghdl -a --std=08 "$D/ghdl_case_slice.vhd" "$D/tb_ghdl_case_slice.vhd"
echo "RTL:";  ghdl --elab-run --std=08 tb 2>&1 | sed 's/^/  /'
ghdl --synth --std=08 --out=vhdl rep >"$W/net/net.vhd" 2>/dev/null
cd "$W/net"
ghdl -a --std=08 net.vhd "$D/tb_ghdl_case_slice.vhd"
echo "netlist:"; ghdl --elab-run --std=08 tb 2>&1 | sed 's/^/  /' | tee out
rc=0
grep -q FAIL out && rc=1
rm -rf "$W"
exit $rc
