-- SPDX-License-Identifier: GPL-2.0-or-later
-- One iCE40 bidirectional pin (SB_IO) for a PCI bus line. The core's split
-- q/oe/d signals meet the tristate pad here and nowhere else.
--
-- REGISTERED: the output and its enable come from the I/O cell's own
-- registers on clk (PIN_TYPE 1101xx), loaded with the core's next values
-- (pci_interface NEXT_OUT): clock to pad is then the silicon's (data sheet
-- tGBCKIO + tOCKO), the same in every placement, where a fabric flip-flop
-- adds a route of 1-4 ns to the pad (docs/bitstream.md "Session 6: PCI
-- pins"). Not registered: output and enable direct (PIN_TYPE 1010xx).
-- The input is direct either way (PIN_TYPE xxxx01): the I/O cell's input
-- register would need a hold time after CLK (data sheet tHDPDIN) that PCI's
-- Th = 0 does not give; a fabric flip-flop behind the pad needs none.
-- GLOBAL (a GBIN ball only): d is the pad through its global buffer
-- (SB_GB_IO), which reaches every logic tile's LUT inputs at one delay:
-- TRDY# and STOP#, which decide every AD enable through one LUT, the
-- farthest AD pad 13 rows from theirs (docs/bitstream.md "Session 12: PCI
-- TRDY#/STOP# on GBINs").
-- With REGISTERED false GLOBAL has no effect: those direct pads exist only
-- to show Tval without the I/O registers (make pci-io-fit PCI_IO_REGS=false),
-- and pci_pads sets GLOBAL for TRDY#/STOP# in both builds.
library ieee;
use ieee.std_logic_1164.all;

entity ice40_pin_bidir is
  generic (
    REGISTERED : boolean := false;
    GLOBAL     : boolean := false);
  port (
    pin : inout std_logic;   -- top-level port, nothing else
    clk : in  std_logic := '0';   -- used when REGISTERED
    q   : in  std_logic;     -- value driven while oe = '1' (REGISTERED: a clock later)
    oe  : in  std_logic;
    d   : out std_logic);    -- the pad as seen on the bus (also while driving)
end entity;

architecture ice40 of ice40_pin_bidir is
  component SB_IO is
    generic (PIN_TYPE : std_logic_vector(5 downto 0));
    port (
      PACKAGE_PIN   : inout std_logic;
      CLOCK_ENABLE  : in  std_logic;
      OUTPUT_CLK    : in  std_logic;
      OUTPUT_ENABLE : in  std_logic;
      D_OUT_0       : in  std_logic;
      D_IN_0        : out std_logic);
  end component;
  component SB_GB_IO is
    generic (PIN_TYPE : std_logic_vector(5 downto 0));
    port (
      PACKAGE_PIN          : inout std_logic;
      CLOCK_ENABLE         : in  std_logic;
      OUTPUT_CLK           : in  std_logic;
      OUTPUT_ENABLE        : in  std_logic;
      D_OUT_0              : in  std_logic;
      GLOBAL_BUFFER_OUTPUT : out std_logic);
  end component;
begin
  glb : if REGISTERED and GLOBAL generate
    -- as reg below, the input taken from the global buffer only
    io : SB_GB_IO
      generic map (PIN_TYPE => "110101")
      port map (PACKAGE_PIN => pin, CLOCK_ENABLE => '1', OUTPUT_CLK => clk,
                OUTPUT_ENABLE => oe, D_OUT_0 => q, GLOBAL_BUFFER_OUTPUT => d);
  end generate;
  reg : if REGISTERED and not GLOBAL generate
    -- PIN_TYPE(5:2) 1101: output registered, enable registered; (1:0) 01: input direct
    io : SB_IO
      generic map (PIN_TYPE => "110101")
      port map (PACKAGE_PIN => pin, CLOCK_ENABLE => '1', OUTPUT_CLK => clk,
                OUTPUT_ENABLE => oe, D_OUT_0 => q, D_IN_0 => d);
  end generate;
  -- the direct pads (PCI_IO_REGS=false) are only for showing Tval: no GBIN
  direct : if not REGISTERED generate
    -- PIN_TYPE(5:2) 1010: output direct, enable direct; (1:0) 01: input direct.
    -- OUTPUT_CLK unused but connected: the two pads of an I/O tile share
    -- one output clock wire, and a neighbour (SERR#, REQ#) may register.
    io : SB_IO
      generic map (PIN_TYPE => "101001")
      port map (PACKAGE_PIN => pin, CLOCK_ENABLE => '1', OUTPUT_CLK => clk,
                OUTPUT_ENABLE => oe, D_OUT_0 => q, D_IN_0 => d);
  end generate;
end architecture;
