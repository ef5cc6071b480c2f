#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# VHDL design -> Verilog that Yosys and Verilator read as GHDL meant it.
#
# Usage: ghdl_verilog.sh OUT.v WORKDIR TOP [ghdl synth options, e.g. -gX=..]
# The design must already be analysed (ghdl -a --std=08) into WORKDIR.
# GHDL 2.0 writes the netlist twice: as VHDL (which keeps what its Verilog
# writer drops) and as Verilog; ghdl_verilog_fix.awk merges the two.
# Logs: OUT.v.log (GHDL's warnings: unbound vendor components are expected).
set -eu
out=$1 work=$2 top=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
log=$out.log
: >"$log"
synth() {
	ghdl --synth --std=08 --workdir="$work" "$@" "$top" 2>>"$log" || {
		grep -v ':warning:' "$log" >&2
		echo "ghdl_verilog: GHDL synthesis of $top failed (log: $log)" >&2
		exit 1
	}
}
synth "$@" >"$out.vhd"
synth --out=verilog "$@" >"$out.raw"
awk -f "$here/ghdl_verilog_fix.awk" "$out.vhd" "$out.raw" >"$out.tmp"
if grep -q '^module SB_' "$out.tmp"; then
	echo "ghdl_verilog: a vendor stub module survived in $out" >&2
	exit 1
fi
# (memories named *_nrw get Yosys' no_rw_check in ghdl_verilog_fix.awk, fix 7)
mv "$out.tmp" "$out"
