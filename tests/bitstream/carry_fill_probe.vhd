-- SPDX-License-Identifier: GPL-2.0-or-later
-- A small design for the check of hdl/boards/carry_ff_fill.py
-- (tests/bitstream/carry_fill_equiv.sh): a carry chain whose sums nobody
-- reads (the carry out of a1 + b1), so nextpnr would give each carry a
-- logic cell of its own, beside flip-flops that would take one each
-- (q and r load from other flip-flops, not from a LUT of their own). The
-- script moves those into the carries' cells; the check proves the
-- placed bitstream equal to this design.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity carry_fill_probe is
  port (
    clk  : in  std_logic;
    a, b : in  unsigned(7 downto 0);
    d    : in  std_logic_vector(3 downto 0);
    e    : in  std_logic;
    ovf  : out std_logic;
    q, r : out std_logic_vector(3 downto 0));
end entity;

architecture rtl of carry_fill_probe is
  signal a1, b1 : unsigned(7 downto 0) := (others => '0');
  signal q1, q2, r2 : std_logic_vector(3 downto 0) := (others => '0');
  signal o : std_logic := '0';
begin
  process (clk)
    variable s : unsigned(8 downto 0);
  begin
    if rising_edge(clk) then
      a1 <= a;
      b1 <= b;
      s := ('0' & a1) + ('0' & b1);
      o <= s(8);
      q1 <= d;
      q2 <= q1;
      if e = '1' then
        r2 <= q1 xor (3 downto 0 => o);
      end if;
    end if;
  end process;
  ovf <= o;
  q <= q2;
  r <= r2;
end architecture;
