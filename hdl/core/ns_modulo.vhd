-- SPDX-License-Identifier: GPL-2.0-or-later
-- Remainder of a 64-bit time by a 31-bit interval, one bit per clock.
-- Used once per PPS edge (64 clocks), so a divider would be wasted area: the
-- only arithmetic is one 32-bit compare-subtract.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity ns_modulo is
  port (
    clk      : in  std_logic;
    start    : in  std_logic;                -- strobe
    dividend : in  unsigned(63 downto 0);    -- held until done
    divisor  : in  unsigned(30 downto 0);    -- > 0
    done     : out std_logic;                -- strobe, 65 clocks after start
    rem_out  : out unsigned(30 downto 0));
end entity;

architecture rtl of ns_modulo is
  signal r    : unsigned(31 downto 0) := (others => '0');
  signal left : natural range 0 to 64 := 0;
begin
  process (clk)
    variable t : unsigned(32 downto 0);
  begin
    if rising_edge(clk) then
      done <= '0';
      if start = '1' then
        r    <= (others => '0');
        left <= 64;
      elsif left /= 0 then
        t := r & dividend(left - 1);  -- r < divisor, so 2r+1 fits 33 bits
        if t >= ('0' & '0' & divisor) then
          t := t - ('0' & '0' & divisor);
        end if;
        r  <= t(31 downto 0);
        left <= left - 1;
        if left = 1 then
          done <= '1';
        end if;
      end if;
    end if;
  end process;
  rem_out <= r(30 downto 0);
end architecture;
