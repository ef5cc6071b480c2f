-- SPDX-License-Identifier: GPL-2.0-or-later
-- Testbench of the servo's arithmetic units against numeric_std reference
-- results: gain_mul ((x * mant) >> shift, signed, saturating) and ns_modulo
-- (64-bit time mod interval), on edge cases and seeded random operands.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;

entity tb_arith_units is
end entity;

architecture sim of tb_arith_units is
  signal clk : std_logic := '0';
  signal g_start, g_done, m_start, m_done : std_logic := '0';
  signal x : signed(31 downto 0) := (others => '0');
  signal gain : std_logic_vector(20 downto 0) := (others => '0');
  signal y : signed(31 downto 0);
  signal dividend : unsigned(63 downto 0) := (others => '0');
  signal divisor : unsigned(30 downto 0) := to_unsigned(1, 31);
  signal rem_out : unsigned(30 downto 0);
  signal done : boolean := false;
begin
  clk <= not clk after 5 ns when not done;
  mul : entity work.gain_mul port map (clk, g_start, x, gain, g_done, y);
  md  : entity work.ns_modulo port map (clk, m_start, dividend, divisor, m_done, rem_out);

  process
    variable errs : natural := 0;
    variable s1, s2 : positive := 7;
    variable u : real;
    variable p : signed(48 downto 0);
    variable want : signed(31 downto 0);
    variable mant : unsigned(15 downto 0);
    variable sh : natural;

    impure function rnd (bits : natural) return unsigned is
      variable v : unsigned(bits - 1 downto 0);
    begin
      for i in 0 to bits - 1 loop
        uniform(s1, s2, u);
        if u > 0.5 then v(i) := '1'; else v(i) := '0'; end if;
      end loop;
      return v;
    end function;

    procedure one_mul (xv : signed(31 downto 0); m : unsigned(15 downto 0); s : natural) is
    begin
      x <= xv;
      gain <= std_logic_vector(m) & std_logic_vector(to_unsigned(s, 5));
      wait until rising_edge(clk);
      g_start <= '1';
      wait until rising_edge(clk);
      g_start <= '0';
      wait until g_done = '1';
      wait for 1 ns;                -- y follows acc one delta later
      -- reference: exact product, arithmetic shift of the magnitude, saturate
      p := resize(abs(resize(xv, 49)) * signed('0' & m), 49);
      p := shift_right(p, s);
      if p > 16#7FFFFFFF# then p := to_signed(16#7FFFFFFF#, 49); end if;
      if xv < 0 then want := -resize(p, 32); else want := resize(p, 32); end if;
      if y /= want then
        errs := errs + 1;
        report "FAIL gain_mul " & integer'image(to_integer(xv)) & " * " &
               integer'image(to_integer(m)) & " >> " & integer'image(s) & " = " &
               integer'image(to_integer(y)) & ", want " & integer'image(to_integer(want)) severity error;
      end if;
    end procedure;

    procedure one_mod (dv : unsigned(63 downto 0); ds : unsigned(30 downto 0)) is
    begin
      dividend <= dv;
      divisor <= ds;
      wait until rising_edge(clk);
      m_start <= '1';
      wait until rising_edge(clk);
      m_start <= '0';
      wait until m_done = '1';
      wait until rising_edge(clk);
      if rem_out /= resize(dv mod resize(ds, 64), 31) then
        errs := errs + 1;
        report "FAIL ns_modulo " & to_hstring(dv) & " mod " & to_hstring(ds) & " = " &
               to_hstring(rem_out) severity error;
      end if;
    end procedure;
  begin
    -- edges: zero, +-1, extremes, saturation both ways, every shift
    one_mul(to_signed(0, 32), x"FFFF", 0);
    one_mul(to_signed(1, 32), x"0001", 0);
    one_mul(to_signed(-1, 32), x"0001", 0);
    one_mul(to_signed(-1, 32), x"0001", 1);
    one_mul(to_signed(16#7FFFFFFF#, 32), x"FFFF", 0);
    one_mul(to_signed(-16#7FFFFFFF#, 32), x"FFFF", 0);
    one_mul(to_signed(99995, 32), x"225C", 8);
    for s in 0 to 31 loop
      one_mul(to_signed(-123456789, 32), x"ABCD", s);
    end loop;
    for i in 1 to 300 loop
      sh := to_integer(rnd(5));
      one_mul(signed(rnd(32)), rnd(16), sh);
    end loop;

    one_mod(x"0000000000000000", to_unsigned(1000000000, 31));
    one_mod(x"FFFFFFFFFFFFFFFF", to_unsigned(1000000000, 31));
    one_mod(x"FFFFFFFFFFFFFFFF", to_unsigned(16#7FFFFFFF#, 31));
    one_mod(x"0000000000000005", to_unsigned(1, 31));
    one_mod(x"16C2A2D1B4A7B000", to_unsigned(1000000000, 31));
    for i in 1 to 200 loop
      one_mod(rnd(64), rnd(31) or to_unsigned(1, 31));
    end loop;

    if errs = 0 then
      report "tb_arith_units: PASS";
    else
      report "tb_arith_units: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
