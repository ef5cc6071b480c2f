-- SPDX-License-Identifier: GPL-2.0-or-later
-- Minimal reproducer of a GHDL 2.0.0 synthesis bug (see run.sh here).
library ieee;
use ieee.std_logic_1164.all;
entity tb is end;
architecture sim of tb is
  signal clk : std_logic := '0';
  signal sel, st : std_logic_vector(1 downto 0) := "00";
  signal q : std_logic_vector(31 downto 0);
begin
  dut : entity work.rep port map (clk => clk, sel => sel, st => st, f => '1', q => q);
  process
    procedure chk(s : std_logic_vector(1 downto 0); e : std_logic_vector(31 downto 0)) is
    begin
      sel <= s; st <= "10"; wait for 1 ns;
      clk <= '1'; wait for 1 ns; clk <= '0'; wait for 1 ns;
      if q = e then report "PASS sel " & to_string(s);
      else report "FAIL: sel " & to_string(s) & " gives " & to_hstring(q) & " expected " & to_hstring(e) severity error; end if;
    end procedure;
  begin
    chk("00", x"53594E58"); chk("01", x"53500001"); chk("10", x"00000006");
    wait;
  end process;
end;
