#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Yosys synth_ice40 as the card is built: synth_ice40 -abc2 with the last
# LUT mapping's ABC script replaced by hdl/boards/ice40_luts.abc (area
# recovery, docs/bitstream.md "Session 13: the LUT mapping's ABC script").
# Used by the bitstream (mk/bitstream.mk) and by block-fit, so the budget
# counts what is built.
#
# Usage: yosys_ice40.sh VERILOG TOP LOG [JSON] [-- synth_ice40 options]
#   YOSYS_ABC_LUT: the ABC script file (empty: Yosys' own LUT script, the
#   same map_luts step as plain synth_ice40 -abc2)
set -eu
v=$1 top=$2 log=$3
shift 3
json=
if [ $# -gt 0 ] && [ "$1" != "--" ]; then json=$1; shift; fi
[ $# -gt 0 ] && shift
opts="$*"
here=$(cd "$(dirname "$0")" && pwd)
abc="${YOSYS_ABC_LUT-$here/ice40_luts.abc}"
out=
[ -n "$json" ] && out="write_json $json;"
script=
if [ -n "$abc" ]; then
	[ -r "$abc" ] || { echo "yosys_ice40: no ABC script $abc" >&2; exit 2; }
	script="-script $abc"
fi
# synth_ice40's map_luts step for -abc2 (yosys 0.23: `yosys -h synth_ice40`),
# with $script on its last abc; everything before and after it is
# synth_ice40's own.
exec yosys -q -l "$log" -p "read_verilog $v;
	synth_ice40 -abc2 $opts -top $top -run :map_luts;
	abc; ice40_opt; techmap -map +/ice40/latches_map.v;
	abc -dress -lut 4 $script;
	ice40_wrapcarry -unwrap; techmap -map +/ice40/ff_map.v; clean;
	opt_lut -dlogic SB_CARRY:I0=1:I1=2:CI=3 -dlogic SB_CARRY:CO=3;
	synth_ice40 -abc2 $opts -top $top -run map_cells:;
	$out stat" >/dev/null
