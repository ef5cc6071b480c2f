-- SPDX-License-Identifier: GPL-2.0-or-later
-- The PCI bus pads of the hx8k-pci board: every PCI line's SB_IO, between
-- the top-level pins and the card's split in/out/oe signals. One entity so
-- the board top (synpcix_hx8k_pci_top) and the pin-timing harness
-- (hdl/pci/fit/pci_io_fit.vhd, `make pci-io-fit`) place the very same pad
-- structure: what the harness measures is what the board has.
--
-- REGISTERED (the board's choice, with pci_interface NEXT_OUT): every bus
-- output and its enable leave through the I/O cell's registers on clk
-- (AD, C/BE#, PAR, FRAME#, IRDY#, TRDY#, DEVSEL#, STOP#, PERR#, SERR#'s
-- enable, REQ#), loaded with the card's next values. Those registers have
-- no reset, so the enables float at the edge after the card's own reset
-- made them 0 (RST# through its two-clock synchroniser: 3 PCI clocks after
-- RST# falls, with CLK running; at power-up they are 0 from configuration).
-- Not REGISTERED: output and enable direct from the card's flip-flops, each
-- enable gated by the RST# pin itself (PCI 2.3 4.3.2: asynchronous float,
-- one LUT per enable). docs/bitstream.md "Session 6: PCI pins" has the
-- timing of both and why the registered pads keep 4.3.2 only with CLK
-- running.
-- INTA# (asynchronous in PCI) and REQ#'s enable are gated by RST# always.
-- Open drain: SERR# and INTA# are only ever pulled low: their pads are
-- tristates whose data input is the constant '0' (tests/bitstream/run.sh
-- checks the netlist for it). REQ# is driven always except during RST#.
library ieee;
use ieee.std_logic_1164.all;

entity pci_pads is
  generic (REGISTERED : boolean := true);
  port (
    clk          : in    std_logic;   -- PCI CLK (the output registers)
    -- the RST# pin as read, unsynchronised (its SB_IO is the board's)
    rst_n        : in    std_logic;
    -- pins
    pci_ad       : inout std_logic_vector(31 downto 0);
    pci_cbe_n    : inout std_logic_vector(3 downto 0);
    pci_par      : inout std_logic;
    pci_frame_n  : inout std_logic;
    pci_irdy_n   : inout std_logic;
    pci_trdy_n   : inout std_logic;
    pci_devsel_n : inout std_logic;
    pci_stop_n   : inout std_logic;
    pci_perr_n   : inout std_logic;
    pci_serr_n   : out   std_logic;
    pci_inta_n   : out   std_logic;
    pci_req_n    : out   std_logic;
    pci_gnt_n    : in    std_logic;
    pci_idsel    : in    std_logic;
    -- the card's side
    ad_in        : out std_logic_vector(31 downto 0);
    ad_out       : in  std_logic_vector(31 downto 0);
    ad_oe        : in  std_logic;
    cbe_in       : out std_logic_vector(3 downto 0);
    cbe_out      : in  std_logic_vector(3 downto 0);
    cbe_oe       : in  std_logic;
    par_in       : out std_logic;
    par_out      : in  std_logic;
    par_oe       : in  std_logic;
    frame_in     : out std_logic;
    frame_out    : in  std_logic;
    frame_oe     : in  std_logic;
    irdy_in      : out std_logic;
    irdy_out     : in  std_logic;
    irdy_oe      : in  std_logic;
    trdy_in      : out std_logic;
    trdy_out     : in  std_logic;
    trdy_oe      : in  std_logic;
    devsel_in    : out std_logic;
    devsel_out   : in  std_logic;
    devsel_oe    : in  std_logic;
    stop_in      : out std_logic;
    stop_out     : in  std_logic;
    stop_oe      : in  std_logic;
    perr_in      : out std_logic;
    perr_out     : in  std_logic;
    perr_oe      : in  std_logic;
    serr_oe      : in  std_logic;
    inta_oe      : in  std_logic;
    req_out      : in  std_logic;
    gnt_in       : out std_logic;
    idsel_in     : out std_logic);
end entity;

architecture ice40 of pci_pads is
  signal ad_en, cbe_en, par_en, frame_en, irdy_en, trdy_en, devsel_en : std_logic;
  signal stop_en, perr_en, serr_en, inta_en : std_logic;
begin
  gnt_pin : entity work.ice40_pin_in
    port map (pin => pci_gnt_n, d => gnt_in);
  idsel_pin : entity work.ice40_pin_in
    port map (pin => pci_idsel, d => idsel_in);

  gated : if not REGISTERED generate
    ad_en     <= ad_oe and rst_n;
    cbe_en    <= cbe_oe and rst_n;
    par_en    <= par_oe and rst_n;
    frame_en  <= frame_oe and rst_n;
    irdy_en   <= irdy_oe and rst_n;
    trdy_en   <= trdy_oe and rst_n;
    devsel_en <= devsel_oe and rst_n;
    stop_en   <= stop_oe and rst_n;
    perr_en   <= perr_oe and rst_n;
    serr_en   <= serr_oe and rst_n;
  end generate;
  regd : if REGISTERED generate
    ad_en <= ad_oe; cbe_en <= cbe_oe; par_en <= par_oe; frame_en <= frame_oe;
    irdy_en <= irdy_oe; trdy_en <= trdy_oe; devsel_en <= devsel_oe;
    stop_en <= stop_oe; perr_en <= perr_oe; serr_en <= serr_oe;
  end generate;
  inta_en   <= inta_oe and rst_n;

  ad_pins : for i in 0 to 31 generate
    p : entity work.ice40_pin_bidir
      generic map (REGISTERED => REGISTERED)
      port map (clk => clk, pin => pci_ad(i), q => ad_out(i), oe => ad_en, d => ad_in(i));
  end generate;
  cbe_pins : for i in 0 to 3 generate
    p : entity work.ice40_pin_bidir
      generic map (REGISTERED => REGISTERED)
      port map (clk => clk, pin => pci_cbe_n(i), q => cbe_out(i), oe => cbe_en, d => cbe_in(i));
  end generate;
  par_pin : entity work.ice40_pin_bidir
    generic map (REGISTERED => REGISTERED)
    port map (clk => clk, pin => pci_par, q => par_out, oe => par_en, d => par_in);
  frame_pin : entity work.ice40_pin_bidir
    generic map (REGISTERED => REGISTERED)
    port map (clk => clk, pin => pci_frame_n, q => frame_out, oe => frame_en, d => frame_in);
  irdy_pin : entity work.ice40_pin_bidir
    generic map (REGISTERED => REGISTERED)
    port map (clk => clk, pin => pci_irdy_n, q => irdy_out, oe => irdy_en, d => irdy_in);
  trdy_pin : entity work.ice40_pin_bidir
    generic map (REGISTERED => REGISTERED, GLOBAL => true)
    port map (clk => clk, pin => pci_trdy_n, q => trdy_out, oe => trdy_en, d => trdy_in);
  devsel_pin : entity work.ice40_pin_bidir
    generic map (REGISTERED => REGISTERED)
    port map (clk => clk, pin => pci_devsel_n, q => devsel_out, oe => devsel_en, d => devsel_in);
  stop_pin : entity work.ice40_pin_bidir
    generic map (REGISTERED => REGISTERED, GLOBAL => true)
    port map (clk => clk, pin => pci_stop_n, q => stop_out, oe => stop_en, d => stop_in);
  perr_pin : entity work.ice40_pin_bidir
    generic map (REGISTERED => REGISTERED)
    port map (clk => clk, pin => pci_perr_n, q => perr_out, oe => perr_en, d => perr_in);
  serr_pin : entity work.ice40_pin_out
    generic map (TRISTATE => true, OE_REG => REGISTERED)
    port map (clk => clk, pin => pci_serr_n, q => '0', oe => serr_en);
  inta_pin : entity work.ice40_pin_out
    generic map (TRISTATE => true)
    port map (pin => pci_inta_n, q => '0', oe => inta_en);
  req_pin : entity work.ice40_pin_out
    generic map (TRISTATE => true, REGISTERED => REGISTERED)
    port map (clk => clk, pin => pci_req_n, q => req_out, oe => rst_n);
end architecture;
