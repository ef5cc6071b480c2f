#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Logic cells of one gateware block (or the whole card) on the iCE40 HX8K,
# measured the way the card's budget counts them: GHDL -> Verilog through
# ghdl_verilog.sh, Yosys synth_ice40 as the bitstream runs it
# (yosys_ice40.sh; flattened, and per module with the hierarchy kept),
# nextpnr-ice40 --pack-only. No placement: seconds, not
# minutes; Fmax needs a placed design (make test-card, make capture-fit).
#
# Usage: block_fit.sh OUTDIR TOP SRC.vhd... [-- GHDL synth options (-gX=..)]
# Prints LUT4 / FF / carry / RAM per module and the packed logic cells.
set -eu
# YOSYS_SYNTH: extra synth_ice40 options (mk/bitstream.mk exports the ones
# the bitstream is built with; YOSYS_ABC_LUT likewise)
syn="${YOSYS_SYNTH:-}"
out=$1 top=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
srcs=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do srcs="$srcs $1"; shift; done
[ $# -gt 0 ] && shift
[ -n "$srcs" ] || { echo "block_fit: no sources given" >&2; exit 2; }
rm -rf "$out" && mkdir -p "$out/work"
# shellcheck disable=SC2086
ghdl -a --std=08 --workdir="$out/work" $srcs
sh "$here/ghdl_verilog.sh" "$out/$top.v" "$out/work" "$top" "$@"
# shellcheck disable=SC2086
sh "$here/yosys_ice40.sh" "$out/$top.v" "$top" "$out/yosys.log" "$out/$top.json" -- $syn
# shellcheck disable=SC2086
sh "$here/yosys_ice40.sh" "$out/$top.v" "$top" "$out/yosys-blocks.log" -- $syn -noflatten
# CARRY_FILL_FAST_CLOCKS (mk/bitstream.mk: tb_clk) names clock nets of the
# card; carry_ff_fill.py stops on a name no flip-flop is clocked by, so a
# block without such a port (make block-fit BLOCK=pps_servo) drops it.
# A timebase-domain block's own clock is then just `clk`: pass
# CARRY_FILL_FAST_CLOCKS=clk to count it as the card does.
fast=
for n in ${CARRY_FILL_FAST_CLOCKS:-}; do
	if grep -qw -- "$n" "$out/$top.v"; then fast="$fast $n"; fi
done
CARRY_FILL_FAST_CLOCKS=${fast# }
export CARRY_FILL_FAST_CLOCKS
# NEXTPNR_PACK: nextpnr's pre-pack scripts (mk/bitstream.mk exports the
# bitstream's; run by hand without make: none)
# shellcheck disable=SC2086
nextpnr-ice40 --hx8k --package ct256 --json "$out/$top.json" --pack-only ${NEXTPNR_PACK:-} \
	--log "$out/nextpnr-pack.log" -q >/dev/null 2>&1 || true
stats() {
	awk '/^=== / { m = $2; l[m] = 0; f[m] = 0; c[m] = 0; r[m] = 0 }
		/SB_LUT4/ { l[m] += $2 } /SB_DFF/ { f[m] += $2 }
		/SB_CARRY/ { c[m] += $2 } /SB_RAM/ { r[m] += $2 }
		/^=== design hierarchy ===/ { exit }
		END { for (k in l) if (k != "design" && k != "") printf "  %-48s %5d / %4d / %4d / %2d\n", k, l[k], f[k], c[k], r[k] }' "$1" | sort
}
echo "$top: yosys synth_ice40, LUT4 / FF / carry / RAM"
echo " flattened:"
stats "$out/yosys.log"
echo " per module (hierarchy kept, a little more than flattened):"
stats "$out/yosys-blocks.log"
lc=$(sed -n 's|.*ICESTORM_LC: *\([0-9]*\)/ *\([0-9]*\).*|\1|p' "$out/nextpnr-pack.log" | head -n 1)
ram=$(sed -n 's|.*ICESTORM_RAM: *\([0-9]*\)/ *\([0-9]*\).*|\1|p' "$out/nextpnr-pack.log" | head -n 1)
[ -n "$lc" ] || { echo "block_fit: nextpnr packed nothing (log: $out/nextpnr-pack.log)" >&2; exit 1; }
echo "$top packed (nextpnr-ice40 --hx8k --pack-only): $lc logic cells of 7680 ($((lc * 100 / 7680)) %), ${ram:-0} block RAMs"
