-- SPDX-License-Identifier: GPL-2.0-or-later
-- A small design for the check of hdl/boards/carry_ff_fill.py
-- (tests/bitstream/carry_fill_equiv.sh): a carry chain whose sums nobody
-- reads (the carry out of a1 + b1), so nextpnr would give each carry a
-- logic cell of its own, beside flip-flops that would take one each
-- (q and r load from other flip-flops, not from a LUT of their own). The
-- script moves those into the carries' cells; the check proves the
-- placed bitstream equal to this design. The sum's first carry has a
-- constant carry in (0) and no LUT; the counter c's chain is fed from the
-- fabric (bit 0 is the carry into bit 1), so the script makes its feed-in
-- and fills it with p2 (a copy of p1, same clock enable as c). The sum's
-- carry out goes to one flip-flop (o), cy's to one LUT on its I0 (lx):
-- the script joins both to their chains. c2's chain is fed too, but no
-- lone flip-flop of its clock enable (d(3)) is near it: its feed-in takes
-- c2's bit-0 LUT.
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
    q, r : out std_logic_vector(3 downto 0);
    cq   : out std_logic_vector(5 downto 0);
    w, v : out std_logic;
    lt   : out std_logic;
    cr   : out std_logic_vector(3 downto 0));
end entity;

architecture rtl of carry_fill_probe is
  signal a1, b1 : unsigned(7 downto 0) := (others => '0');
  signal q1, q2, r2 : std_logic_vector(3 downto 0) := (others => '0');
  signal o : std_logic := '0';
  signal c : unsigned(5 downto 0) := (others => '0');
  signal c2 : unsigned(3 downto 0) := (others => '0');
  signal p1, p2, l : std_logic := '0';
  signal lt_c, lt_x : std_logic;
  component SB_LUT4 is
    generic (LUT_INIT : std_logic_vector(15 downto 0));
    port (I0, I1, I2, I3 : in std_logic; O : out std_logic);
  end component;
  component SB_CARRY is
    port (I0, I1, CI : in std_logic; CO : out std_logic);
  end component;
begin
  -- a carry out read on I0 of a LUT (Yosys' own mapping puts a carry out
  -- on I3 where it can, so both are instances): the script's input
  -- permutation
  cy : SB_CARRY port map (I0 => a1(0), I1 => b1(1), CI => '0', CO => lt_c);
  lx : SB_LUT4 generic map (LUT_INIT => x"6666")   -- I0 xor I1
    port map (I0 => lt_c, I1 => d(1), I2 => '0', I3 => '0', O => lt_x);
  process (clk)
    variable s : unsigned(8 downto 0);
  begin
    if rising_edge(clk) then
      a1 <= a;
      b1 <= b;
      s := ('0' & a1) + ('0' & b1);
      o <= s(8);
      if d(3) = '1' then
        c2 <= c2 + 1;
      end if;
      l <= lt_x;
      q1 <= d;
      q2 <= q1;
      if e = '1' then
        r2 <= q1 xor (3 downto 0 => o);
        c <= c + 1;
        p1 <= c(0) xor d(0);
        p2 <= p1;
      end if;
    end if;
  end process;
  ovf <= o;
  q <= q2;
  r <= r2;
  -- every register an output: a state the outputs cannot see (the
  -- counter held by e = 0) would keep the induction from closing
  cq <= std_logic_vector(c);
  w <= p2;
  v <= p1;
  lt <= l;
  cr <= std_logic_vector(c2);
end architecture;
