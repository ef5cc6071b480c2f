-- SPDX-License-Identifier: GPL-2.0-or-later
-- One iCE40 bidirectional pin (SB_IO) for a PCI bus line: output and its
-- enable direct (from the core's flip-flops), input direct. The core's
-- split q/oe/d signals meet the tristate pad here and nowhere else.
--
-- Why not the I/O cell's output register: the core's bus outputs are
-- already flip-flops whose value is due on the bus at the next edge; an
-- I/O-cell register would delay every bus line by a clock and break the
-- protocol (TRDY# one clock after IRDY#, turnarounds). Using it would need
-- the core to hand over next-state values instead (docs/bitstream.md,
-- "Session 4: PCI interface and the PCI board").
-- Why no input register: the core decides on the sampled lines in the same
-- clock (IRDY# into TRDY#, TRDY#/STOP# into the master's next state), as
-- the PCI specification's state machines do.
library ieee;
use ieee.std_logic_1164.all;

entity ice40_pin_bidir is
  port (
    pin : inout std_logic;   -- top-level port, nothing else
    q   : in  std_logic;     -- value driven while oe = '1'
    oe  : in  std_logic;
    d   : out std_logic);    -- the pad as seen on the bus (also while driving)
end entity;

architecture ice40 of ice40_pin_bidir is
  component SB_IO is
    generic (PIN_TYPE : std_logic_vector(5 downto 0));
    port (
      PACKAGE_PIN   : inout std_logic;
      OUTPUT_ENABLE : in  std_logic;
      D_OUT_0       : in  std_logic;
      D_IN_0        : out std_logic);
  end component;
begin
  -- PIN_TYPE(5:2) 1010: output direct, enable direct; (1:0) 01: input direct
  io : SB_IO
    generic map (PIN_TYPE => "101001")
    port map (PACKAGE_PIN => pin, OUTPUT_ENABLE => oe, D_OUT_0 => q, D_IN_0 => d);
end architecture;
