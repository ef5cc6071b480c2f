-- SPDX-License-Identifier: GPL-2.0-or-later
-- Per-slot configuration and counters of the stamping engine: 256 x 32
-- (two iCE40 4-kbit RAMs side by side), one write and one registered read
-- port on one clock. Only the RAM is in this process (GHDL synthesis keeps
-- RAM inference reliable that way). Row = slot * 32 + window word.
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
  signal mem : mem_t;
begin
  process (clk)
  begin
    if rising_edge(clk) then
      if we = '1' then
        mem(to_integer(unsigned(waddr))) <= wdata;
      end if;
      rdata <= mem(to_integer(unsigned(raddr)));
    end if;
  end process;
end architecture;
