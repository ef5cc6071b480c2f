-- SPDX-License-Identifier: GPL-2.0-or-later
-- Per-slot configuration and counters of the stamping engine: 256 x 32
-- (two iCE40 4-kbit RAMs side by side), one write and one registered read
-- port on one clock. Only the RAM is in this process (GHDL synthesis keeps
-- RAM inference reliable that way). Row = slot * 32 + window word.
-- No read-during-write: stamp_engine never reads a word at the clock edge
-- that writes it (its r_raddr says why), so the memory is named `_nrw`
-- and Yosys builds no collision logic for it (hdl/boards/ghdl_verilog_fix.awk
-- fix 7; it cost 39 LUTs and 74 flip-flops). A reader at that edge would
-- get an undefined word on the iCE40.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity stamp_slot_ram is
  port (
    clk   : in  std_logic;
    we    : in  std_logic;
    waddr : in  std_logic_vector(7 downto 0);
    wdata : in  std_logic_vector(31 downto 0);
    raddr : in  std_logic_vector(7 downto 0);
    rdata : out std_logic_vector(31 downto 0));
end entity;

architecture rtl of stamp_slot_ram is
  type mem_t is array (0 to 255) of std_logic_vector(31 downto 0);
  signal mem_nrw : mem_t;
begin
  process (clk)
  begin
    if rising_edge(clk) then
      if we = '1' then
        mem_nrw(to_integer(unsigned(waddr))) <= wdata;
      end if;
      rdata <= mem_nrw(to_integer(unsigned(raddr)));
      -- pragma translate_off
      assert not (we = '1' and waddr = raddr)
        report "stamp_slot_ram: read of word " & to_hstring(raddr) & " while it is written"
        severity error;
      -- pragma translate_on
    end if;
  end process;
end architecture;
