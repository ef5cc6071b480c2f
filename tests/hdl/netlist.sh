#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs tb_clock_core against GHDL's own synthesis netlist of clock_core (the
# netlist Yosys and Verilator are built from), so a synthesis bug that the
# RTL testbenches cannot see fails here. GHDL 2.0 has such bugs: see
# tests/sim/repro. Usage: netlist.sh WORKDIR LOG SOURCES...
set -eu
# (the per-block loop at the end runs after the clock_core check)
W=$1
log=$2
shift 2
rm -rf "$W" && mkdir -p "$W/rtl" "$W/nl"
ghdl -a --std=08 --workdir="$W/rtl" "$@"
# the testbench's generics, fixed at synthesis
ghdl --synth --std=08 --workdir="$W/rtl" -gN_EVENTS=2 -gFIFO_LOG2=2 -gCLK_HZ=125000000 \
	clock_core >"$W/netlist.vhd" 2>"$log"
# the netlist's top has no generics: rename it and wrap it in an entity with
# the RTL's interface, so the same testbench instantiates either
sed -e 's/^entity clock_core is/entity clock_core_netlist is/' \
	-e 's/^end entity clock_core;/end entity clock_core_netlist;/' \
	-e 's/^architecture rtl of clock_core is/architecture rtl of clock_core_netlist is/' \
	"$W/netlist.vhd" >"$W/netlist_renamed.vhd"
cat >"$W/wrapper.vhd" <<'VHD'
-- SPDX-License-Identifier: GPL-2.0-or-later
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
entity clock_core is
  generic (N_EVENTS : positive := 2; FIFO_LOG2 : positive := 2;
           CLK_HZ : natural := 125_000_000;
           BUILD_ID : std_logic_vector(31 downto 0) := x"00000000");
  port (bus_clk, bus_rst : in std_logic; reg_valid, reg_write : in std_logic;
        reg_addr : in std_logic_vector(11 downto 2);
        reg_wdata : in std_logic_vector(31 downto 0);
        reg_ready : out std_logic; reg_rdata : out std_logic_vector(31 downto 0);
        tb_clk, tb_rst : in std_logic; pps_in : in std_logic;
        event_in : in std_logic_vector(N_EVENTS - 1 downto 0);
        perout, pps_locked : out std_logic;
        tb_time_ns : out ieee.numeric_std.unsigned(63 downto 0));
end entity;
architecture wrap of clock_core is
begin
  nl : entity work.clock_core_netlist
    port map (bus_clk => bus_clk, bus_rst => bus_rst, reg_valid => reg_valid,
              reg_write => reg_write, reg_addr => reg_addr, reg_wdata => reg_wdata,
              reg_ready => reg_ready, reg_rdata => reg_rdata, tb_clk => tb_clk,
              tb_rst => tb_rst, pps_in => pps_in, event_in => event_in,
              perout => perout, pps_locked => pps_locked, tb_time_ns => tb_time_ns);
end architecture;
VHD
# packages the netlist and the testbench still refer to
pkgs=$(for f in "$@"; do case $f in *_pkg.vhd) echo "$f" ;; esac; done)
top=$(cd "$(dirname "$0")/../.." && pwd)
# GHDL writes some entities after their first use: import, and let make order
# shellcheck disable=SC2086
ghdl -i --std=08 --workdir="$W/nl" $pkgs "$W/netlist_renamed.vhd" "$W/wrapper.vhd" \
	"$top/sim/hdl/tb_clock_core.vhd"
cd "$W/nl"
ghdl -m --std=08 tb_clock_core >/dev/null
ghdl -r --std=08 tb_clock_core --assert-level=error
cd "$top"

# Blocks whose testbench drives them with their default generics: the same
# testbench, bound to the block's synthesis netlist instead of its RTL.
for pair in pps_servo:tb_pps_servo timebase:tb_timebase perout_gen:tb_perout_gen \
	edge_capture:tb_edge_capture; do
	ent=${pair%%:*}
	tb=${pair#*:}
	d="$W/unit-$ent"
	mkdir -p "$d"
	ghdl --synth --std=08 --workdir="$W/rtl" "$ent" >"$d/netlist.vhd" 2>>"$log"
	# shellcheck disable=SC2086
	ghdl -i --std=08 --workdir="$d" $pkgs "$d/netlist.vhd" "$top/sim/hdl/$tb.vhd"
	(cd "$d" && ghdl -m --std=08 "$tb" >/dev/null && ghdl -r --std=08 "$tb" --assert-level=error)
done

# The capture unit at its testbench's generics (N_SLOTS 4, FIFO_LOG2 4): the
# netlist wrapped in an entity with the RTL's interface and generics, next to
# the behavioural host memory and DMA port models the testbench uses.
d="$W/unit-capture_unit"
mkdir -p "$d"
ghdl --synth --std=08 --workdir="$W/rtl" -gN_SLOTS=4 -gFIFO_LOG2=4 capture_unit \
	>"$d/netlist.vhd" 2>>"$log"
sed -e 's/^entity capture_unit is/entity capture_unit_netlist is/' \
	-e 's/^end entity capture_unit;/end entity capture_unit_netlist;/' \
	-e 's/^architecture rtl of capture_unit is/architecture rtl of capture_unit_netlist is/' \
	"$d/netlist.vhd" >"$d/netlist_renamed.vhd"
cat >"$d/wrapper.vhd" <<'VHD'
-- SPDX-License-Identifier: GPL-2.0-or-later
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
entity capture_unit is
  generic (N_SLOTS : positive := 4; FIFO_LOG2 : positive := 4);
  port (bus_clk, bus_rst, tb_clk, tb_rst : in std_logic; time_ns : in unsigned(63 downto 0);
        reg_valid, reg_write : in std_logic; reg_addr : in std_logic_vector(11 downto 2);
        reg_wdata : in std_logic_vector(31 downto 0); reg_ready : out std_logic;
        reg_rdata : out std_logic_vector(31 downto 0); db_valid : in std_logic;
        db_slot : in std_logic_vector(3 downto 0); db_data : in std_logic_vector(31 downto 0);
        dma_valid : out std_logic; dma_ready : in std_logic; dma_write : out std_logic;
        dma_addr : out std_logic_vector(63 downto 2); dma_len : out std_logic_vector(4 downto 0);
        dma_wd_data : out std_logic_vector(31 downto 0); dma_wd_ready, dma_rd_valid : in std_logic;
        dma_rd_data : in std_logic_vector(31 downto 0); dma_done : in std_logic;
        dma_err : in std_logic_vector(1 downto 0);
        irq_raise, irq_pending : out std_logic_vector(N_SLOTS - 1 downto 0);
        irq_intx : out std_logic);
end entity;
architecture wrap of capture_unit is
begin
  nl : entity work.capture_unit_netlist
    port map (bus_clk => bus_clk, bus_rst => bus_rst, tb_clk => tb_clk, tb_rst => tb_rst,
              time_ns => time_ns, reg_valid => reg_valid, reg_write => reg_write,
              reg_addr => reg_addr, reg_wdata => reg_wdata, reg_ready => reg_ready,
              reg_rdata => reg_rdata, db_valid => db_valid, db_slot => db_slot,
              db_data => db_data, dma_valid => dma_valid, dma_ready => dma_ready,
              dma_write => dma_write, dma_addr => dma_addr, dma_len => dma_len,
              dma_wd_data => dma_wd_data, dma_wd_ready => dma_wd_ready,
              dma_rd_valid => dma_rd_valid, dma_rd_data => dma_rd_data, dma_done => dma_done,
              dma_err => dma_err, irq_raise => irq_raise, irq_pending => irq_pending,
              irq_intx => irq_intx);
end architecture;
VHD
# shellcheck disable=SC2086
ghdl -i --std=08 --workdir="$d" $pkgs "$d/netlist_renamed.vhd" "$d/wrapper.vhd" \
	"$top/sim/hdl/model_dma_host.vhd" "$top/sim/hdl/tb_capture_unit.vhd"
(cd "$d" && ghdl -m --std=08 tb_capture_unit >/dev/null &&
	ghdl -r --std=08 tb_capture_unit --assert-level=error)
