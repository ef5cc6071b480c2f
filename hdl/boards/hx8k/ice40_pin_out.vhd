-- SPDX-License-Identifier: GPL-2.0-or-later
-- One iCE40 output pin (SB_IO): registered in the I/O cell or direct, and
-- optionally tristate (oe = 0 releases the pin). Tristates exist only in
-- board tops; the core hands over separate data and enable signals.
-- Why a registered output: the PPS/periodic output edge must leave the pin
-- a fixed delay after the clock edge, the same in every build (see
-- ice40_pin_in for the same argument on inputs).
library ieee;
use ieee.std_logic_1164.all;

entity ice40_pin_out is
  generic (
    REGISTERED : boolean := false;     -- register data in the I/O cell on clk
    TRISTATE   : boolean := false;     -- honour oe
    OE_REG     : boolean := false);    -- with TRISTATE: register oe in the I/O cell on clk
  port (
    pin : out std_logic;               -- top-level port, nothing else
    clk : in  std_logic := '0';        -- used when REGISTERED or OE_REG
    q   : in  std_logic;
    oe  : in  std_logic := '1');
end entity;

architecture ice40 of ice40_pin_out is
  component SB_IO is
    generic (PIN_TYPE : std_logic_vector(5 downto 0));
    port (
      PACKAGE_PIN   : out std_logic;
      CLOCK_ENABLE  : in  std_logic;
      OUTPUT_CLK    : in  std_logic;
      OUTPUT_ENABLE : in  std_logic;
      D_OUT_0       : in  std_logic);
  end component;

  -- PIN_TYPE(5:2): 0110 output direct, 0101 output registered,
  -- 1010 output and enable direct, 1001 output registered and enable
  -- direct, 1110 output direct and enable registered, 1101 both
  -- registered; (1:0) 01 input direct (unused)
  function pin_type return std_logic_vector is
  begin
    assert TRISTATE or not OE_REG
      report "ice40_pin_out: OE_REG needs TRISTATE" severity failure;
    if TRISTATE then
      if REGISTERED and OE_REG then
        return "110101";
      elsif REGISTERED then
        return "100101";
      elsif OE_REG then
        return "111001";
      end if;
      return "101001";
    elsif REGISTERED then
      return "010101";
    end if;
    return "011001";
  end function;
begin
  io : SB_IO
    generic map (PIN_TYPE => pin_type)
    port map (PACKAGE_PIN => pin, CLOCK_ENABLE => '1', OUTPUT_CLK => clk,
              OUTPUT_ENABLE => oe, D_OUT_0 => q);
end architecture;
