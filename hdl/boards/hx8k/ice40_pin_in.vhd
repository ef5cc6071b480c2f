-- SPDX-License-Identifier: GPL-2.0-or-later
-- One iCE40 input pin (SB_IO), optionally registered in the I/O cell and
-- optionally pulled up. Vendor primitives live only in board tops; this
-- wrapper exists because an SB_IO's pin must be declared with the direction
-- of the top-level port it is tied to, so inputs and outputs need their own
-- component declarations.
--
-- Why register in the I/O cell: the pad-to-flop delay of an IOB register is
-- fixed by the silicon, while a fabric flop's delay changes with every
-- place-and-route run. For PPS and event inputs that delay is an offset in
-- every timestamp, so it must not depend on the build.
library ieee;
use ieee.std_logic_1164.all;

entity ice40_pin_in is
  generic (
    REGISTERED : boolean   := false;   -- sample in the I/O cell on clk
    PULLUP     : std_logic := '0');    -- weak pull-up (undriven pin reads 1)
  port (
    pin : in  std_logic;               -- top-level port, nothing else
    clk : in  std_logic := '0';        -- used when REGISTERED
    d   : out std_logic);
end entity;

architecture ice40 of ice40_pin_in is
  component SB_IO is
    generic (
      PIN_TYPE : std_logic_vector(5 downto 0);
      PULLUP   : std_logic);
    port (
      PACKAGE_PIN  : in  std_logic;
      CLOCK_ENABLE : in  std_logic;
      INPUT_CLK    : in  std_logic;
      D_IN_0       : out std_logic);
  end component;

  -- PIN_TYPE(1:0): 00 input registered, 01 input direct; (5:2) 0000 no output
  function pin_type return std_logic_vector is
  begin
    if REGISTERED then
      return "000000";
    end if;
    return "000001";
  end function;
begin
  io : SB_IO
    generic map (PIN_TYPE => pin_type, PULLUP => PULLUP)
    port map (PACKAGE_PIN => pin, CLOCK_ENABLE => '1', INPUT_CLK => clk, D_IN_0 => d);
end architecture;
