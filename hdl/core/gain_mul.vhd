-- SPDX-License-Identifier: GPL-2.0-or-later
-- y = (x * mant) >> shift, x and y signed 32-bit, y saturated.
-- Shift-and-add over the 16 mantissa bits, then one shift per clock: the
-- servo multiplies three times a second, so one adder beats a multiplier
-- (iCE40 HX has no DSP blocks).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity gain_mul is
  port (
    clk   : in  std_logic;
    start : in  std_logic;
    x     : in  signed(31 downto 0);
    gain  : in  std_logic_vector(20 downto 0);   -- mant(20..5) & shift(4..0)
    done  : out std_logic;
    y     : out signed(31 downto 0));
end entity;

architecture rtl of gain_mul is
  type st_t is (IDLE, MUL, SHIFT, FIN);
  signal st   : st_t := IDLE;
  signal neg  : std_logic := '0';
  signal mag  : unsigned(47 downto 0) := (others => '0');
  signal acc  : unsigned(47 downto 0) := (others => '0');
  signal mant : unsigned(15 downto 0) := (others => '0');
  signal sh   : unsigned(4 downto 0) := (others => '0');
  signal res  : signed(31 downto 0) := (others => '0');
begin
  process (clk)
  begin
    if rising_edge(clk) then
      done <= '0';
      case st is
        when IDLE =>
          if start = '1' then
            neg  <= x(31);
            -- no abs(): GHDL's Verilog writer cannot emit it
            if x(31) = '1' then
              mag <= resize(unsigned(-resize(x, 33)), 48);
            else
              mag <= resize(unsigned(x), 48);
            end if;
            acc  <= (others => '0');
            mant <= unsigned(gain(20 downto 5));
            sh   <= unsigned(gain(4 downto 0));
            st   <= MUL;
          end if;
        when MUL =>
          if mant(0) = '1' then
            acc <= acc + mag;
          end if;
          mag  <= mag(46 downto 0) & '0';
          mant <= '0' & mant(15 downto 1);
          if mant(15 downto 1) = 0 then
            st <= SHIFT;
          end if;
        when SHIFT =>
          if sh = 0 then
            st <= FIN;
          else
            acc <= '0' & acc(47 downto 1);
            sh  <= sh - 1;
          end if;
        when FIN =>
          if acc > 16#7FFFFFFF# then
            acc <= to_unsigned(16#7FFFFFFF#, 48);
          end if;
          st <= IDLE;
          done <= '1';
      end case;
    end if;
  end process;
  y <= -signed(resize(acc, 32)) when neg = '1' else signed(resize(acc, 32));
end architecture;
