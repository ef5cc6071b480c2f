-- SPDX-License-Identifier: GPL-2.0-or-later
-- Minimal reproducer of a GHDL 2.0.0 synthesis bug (see run.sh here).
library ieee;
use ieee.std_logic_1164.all;
entity rep is
  port (clk : in std_logic; sel : in std_logic_vector(1 downto 0);
        st : in std_logic_vector(1 downto 0); f : in std_logic;
        q : out std_logic_vector(31 downto 0));
end entity;
architecture rtl of rep is
begin
  process (clk)
    variable d : std_logic_vector(31 downto 0);
  begin
    if rising_edge(clk) then
      d := (others => '0');
      case sel is
        when "00" => d := x"53594E58";
        when "01" => d := x"53500001";
        when "10" =>
          d := (others => '0');
          d(1 downto 0) := st;
          d(2) := f;
        when others => null;
      end case;
      q <= d;
    end if;
  end process;
end architecture;
