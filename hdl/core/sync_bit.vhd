-- SPDX-License-Identifier: GPL-2.0-or-later
-- Multi-flop synchroniser for one asynchronous bit (or a toggle from another
-- clock domain). The only entity in the design through which a single bit
-- enters a clock domain; every crossing is built on it.
library ieee;
use ieee.std_logic_1164.all;

entity sync_bit is
  generic (
    STAGES : positive := 2;   -- two flops: MTBF is ample at 125 MHz
    INIT   : std_logic := '0');
  port (
    clk  : in  std_logic;
    din  : in  std_logic;
    dout : out std_logic);
end entity;

architecture rtl of sync_bit is
  signal sr : std_logic_vector(STAGES - 1 downto 0) := (others => INIT);
begin
  assert STAGES >= 2 report "sync_bit: fewer than 2 stages is no synchroniser" severity failure;
  process (clk)
  begin
    if rising_edge(clk) then
      sr <= sr(STAGES - 2 downto 0) & din;
    end if;
  end process;
  dout <= sr(STAGES - 1);
end architecture;
