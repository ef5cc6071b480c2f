-- SPDX-License-Identifier: GPL-2.0-or-later
-- iCE40 PLL (SB_PLL40_CORE, simple feedback) from a fabric/global clock:
-- f_out = f_ref * (DIVF + 1) / ((DIVR + 1) * 2^DIVQ). Take the dividers
-- from icepll (it also checks the PFD and VCO ranges). The output drives a
-- global network. Wrapped so that the vendor component is declared once.
library ieee;
use ieee.std_logic_1164.all;

entity ice40_pll is
  generic (
    DIVR         : std_logic_vector(3 downto 0);
    DIVF         : std_logic_vector(6 downto 0);
    DIVQ         : std_logic_vector(2 downto 0);
    FILTER_RANGE : std_logic_vector(2 downto 0));
  port (
    ref_clk : in  std_logic;
    clk_out : out std_logic;
    lock    : out std_logic);   -- asynchronous; synchronise before use
end entity;

architecture ice40 of ice40_pll is
  component SB_PLL40_CORE is
    generic (
      FEEDBACK_PATH : string;
      DIVR          : std_logic_vector(3 downto 0);
      DIVF          : std_logic_vector(6 downto 0);
      DIVQ          : std_logic_vector(2 downto 0);
      FILTER_RANGE  : std_logic_vector(2 downto 0));
    port (
      REFERENCECLK : in  std_logic;
      PLLOUTGLOBAL : out std_logic;
      LOCK         : out std_logic;
      RESETB       : in  std_logic;
      BYPASS       : in  std_logic);
  end component;
begin
  pll : SB_PLL40_CORE
    generic map (FEEDBACK_PATH => "SIMPLE", DIVR => DIVR, DIVF => DIVF,
                 DIVQ => DIVQ, FILTER_RANGE => FILTER_RANGE)
    port map (REFERENCECLK => ref_clk, PLLOUTGLOBAL => clk_out, LOCK => lock,
              RESETB => '1', BYPASS => '0');
end architecture;
