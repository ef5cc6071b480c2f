-- SPDX-License-Identifier: GPL-2.0-or-later
-- Board top of the SynPCI-X card on the PCI edge: iCE40 HX8K (ct256) with
-- the whole card (hdl/card/synpcix_card.vhd) behind the bus pins, the PLL
-- for the timebase clock, the timing I/O and the LEDs. Pins and their
-- reasons: synpcix_hx8k_pci.pcf and docs/bitstream.md ("Session 4: PCI
-- interface and the PCI board").
--
-- Clocks: bus_clk is the PCI CLK pin (GBIN, global network; 33 or 66 MHz);
-- tb_clk 125 MHz from the 10 MHz TCXO. The PLL, the RST# pin, the timing
-- I/O registers and the LEDs are hx8k_board_common's, as on hdl/boards/hx8k
-- (led(3) blinks from PCI CLK).
--
-- Reset: the card takes PCI RST# (it synchronises it into each domain).
-- The PLL's lock is not part of it: RST# stays asserted for at least
-- 100 ms after power is stable (PCI 2.3 Tpvrh), the PLL locks in well under
-- a millisecond, and a lock lost later must not wipe the configuration
-- space under a running host. led(0) shows the lock.
--
-- Output enables: PCI 2.3 4.3.2 wants every output floated while RST# is
-- asserted, asynchronously (CLK need not run then). The card's own reset
-- comes through a synchroniser two clocks late, so every enable is also
-- gated here by the RST# pin itself (one LUT per enable, combinational).
--
-- Open drain: SERR# and INTA# are only ever pulled low: their pads are
-- tristates whose data input is the constant '0' (tests/bitstream/run.sh
-- checks the netlist for it).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.hx8k_board_pkg.all;

entity synpcix_hx8k_pci_top is
  generic (
    -- gateware hash, set by the flow (BUILD register)
    BUILD_ID : std_logic_vector(31 downto 0) := x"00000000");
  port (
    clk_10m      : in    std_logic;                      -- TCXO, 10 MHz
    -- PCI bus (3.3 V signalling only: the iCE40 is not 5 V tolerant)
    pci_clk      : in    std_logic;                      -- CLK, GBIN
    pci_rst_n    : in    std_logic;                      -- RST#
    pci_ad       : inout std_logic_vector(31 downto 0);
    pci_cbe_n    : inout std_logic_vector(3 downto 0);
    pci_par      : inout std_logic;
    pci_frame_n  : inout std_logic;
    pci_irdy_n   : inout std_logic;
    pci_trdy_n   : inout std_logic;
    pci_devsel_n : inout std_logic;
    pci_stop_n   : inout std_logic;
    pci_perr_n   : inout std_logic;
    pci_serr_n   : out   std_logic;                      -- open drain
    pci_inta_n   : out   std_logic;                      -- open drain
    pci_req_n    : out   std_logic;                      -- tristate during RST#
    pci_gnt_n    : in    std_logic;
    pci_idsel    : in    std_logic;
    -- timing I/O
    pps_in       : in    std_logic;                      -- GPS PPS, rising edge on time
    event_in     : in    std_logic_vector(1 downto 0);   -- external event inputs
    pps_out      : out   std_logic;                      -- PPS / periodic output
    led          : out   std_logic_vector(3 downto 0));  -- see the pcf header
end entity;

architecture board of synpcix_hx8k_pci_top is
  constant N_EVENTS  : positive := 2;

  signal tb_clk, bus_clk : std_logic;
  signal rst_n_pin, gnt_n_pin, idsel_pin : std_logic;

  -- the card's split bus signals
  signal ad_in, ad_out : std_logic_vector(31 downto 0);
  signal cbe_in, cbe_out : std_logic_vector(3 downto 0);
  signal ad_oe, cbe_oe, par_in, par_out, par_oe : std_logic;
  signal frame_in, frame_out, frame_oe, irdy_in, irdy_out, irdy_oe : std_logic;
  signal trdy_in, trdy_out, trdy_oe, devsel_in, devsel_out, devsel_oe : std_logic;
  signal stop_in, stop_out, stop_oe, perr_in, perr_out, perr_oe : std_logic;
  signal serr_oe, inta_oe, req_out : std_logic;
  -- the same enables, floated while RST# is low
  signal ad_en, cbe_en, par_en, frame_en, irdy_en, trdy_en, devsel_en : std_logic;
  signal stop_en, perr_en, serr_en, inta_en : std_logic;

  signal pps_io, perout, pps_locked : std_logic;
  signal event_io : std_logic_vector(N_EVENTS - 1 downto 0);
begin
  ---------------------------------------------------------------------------
  -- pci_clk sits on a GBIN pin; nextpnr routes it onto a global network
  bus_clk <= pci_clk;

  -- PLL, RST# pin, timing I/O, LEDs. The card synchronises RST# into each
  -- domain itself (without the PLL's lock: see the header), so the
  -- common part's synchronised resets are left open.
  common : entity work.hx8k_board_common
    generic map (N_EVENTS => N_EVENTS, RST_PULLUP => '0')
    port map (
      clk_10m => clk_10m, rst_n => pci_rst_n, pps_in => pps_in,
      event_in => event_in, pps_out => pps_out, led => led,
      bus_clk => bus_clk, tb_clk => tb_clk, pll_lock => open,
      rst_n_pin => rst_n_pin, tb_rst => open, bus_rst => open,
      pps_io => pps_io, event_io => event_io,
      perout => perout, pps_locked => pps_locked);

  gnt_pin : entity work.ice40_pin_in
    port map (pin => pci_gnt_n, d => gnt_n_pin);
  idsel_pin_i : entity work.ice40_pin_in
    port map (pin => pci_idsel, d => idsel_pin);

  ---------------------------------------------------------------------------
  -- the card
  card : entity work.synpcix_card
    generic map (N_EVENTS => N_EVENTS, CLK_HZ => TB_CLK_HZ, BUILD_ID => BUILD_ID)
    port map (
      clk => bus_clk, rst_n => rst_n_pin, tb_clk => tb_clk,
      ad_in => ad_in, ad_out => ad_out, ad_oe => ad_oe,
      cbe_n_in => cbe_in, cbe_n_out => cbe_out, cbe_n_oe => cbe_oe,
      par_in => par_in, par_out => par_out, par_oe => par_oe,
      frame_n_in => frame_in, frame_n_out => frame_out, frame_n_oe => frame_oe,
      irdy_n_in => irdy_in, irdy_n_out => irdy_out, irdy_n_oe => irdy_oe,
      trdy_n_in => trdy_in, trdy_n_out => trdy_out, trdy_n_oe => trdy_oe,
      devsel_n_in => devsel_in, devsel_n_out => devsel_out, devsel_n_oe => devsel_oe,
      stop_n_in => stop_in, stop_n_out => stop_out, stop_n_oe => stop_oe,
      perr_n_in => perr_in, perr_n_out => perr_out, perr_n_oe => perr_oe,
      serr_n_oe => serr_oe, inta_n_oe => inta_oe,
      idsel_in => idsel_pin, req_n => req_out, gnt_n => gnt_n_pin,
      pps_in => pps_io, event_in => event_io, perout => perout,
      pps_locked => pps_locked);

  ---------------------------------------------------------------------------
  -- PCI pads (the enables gated by the RST# pin: see the header)
  ad_en     <= ad_oe and rst_n_pin;
  cbe_en    <= cbe_oe and rst_n_pin;
  par_en    <= par_oe and rst_n_pin;
  frame_en  <= frame_oe and rst_n_pin;
  irdy_en   <= irdy_oe and rst_n_pin;
  trdy_en   <= trdy_oe and rst_n_pin;
  devsel_en <= devsel_oe and rst_n_pin;
  stop_en   <= stop_oe and rst_n_pin;
  perr_en   <= perr_oe and rst_n_pin;
  serr_en   <= serr_oe and rst_n_pin;
  inta_en   <= inta_oe and rst_n_pin;

  ad_pins : for i in 0 to 31 generate
    p : entity work.ice40_pin_bidir
      port map (pin => pci_ad(i), q => ad_out(i), oe => ad_en, d => ad_in(i));
  end generate;
  cbe_pins : for i in 0 to 3 generate
    p : entity work.ice40_pin_bidir
      port map (pin => pci_cbe_n(i), q => cbe_out(i), oe => cbe_en, d => cbe_in(i));
  end generate;
  par_pin : entity work.ice40_pin_bidir
    port map (pin => pci_par, q => par_out, oe => par_en, d => par_in);
  frame_pin : entity work.ice40_pin_bidir
    port map (pin => pci_frame_n, q => frame_out, oe => frame_en, d => frame_in);
  irdy_pin : entity work.ice40_pin_bidir
    port map (pin => pci_irdy_n, q => irdy_out, oe => irdy_en, d => irdy_in);
  trdy_pin : entity work.ice40_pin_bidir
    port map (pin => pci_trdy_n, q => trdy_out, oe => trdy_en, d => trdy_in);
  devsel_pin : entity work.ice40_pin_bidir
    port map (pin => pci_devsel_n, q => devsel_out, oe => devsel_en, d => devsel_in);
  stop_pin : entity work.ice40_pin_bidir
    port map (pin => pci_stop_n, q => stop_out, oe => stop_en, d => stop_in);
  perr_pin : entity work.ice40_pin_bidir
    port map (pin => pci_perr_n, q => perr_out, oe => perr_en, d => perr_in);
  -- open drain: data '0', the enable pulls the line low
  serr_pin : entity work.ice40_pin_out
    generic map (TRISTATE => true)
    port map (pin => pci_serr_n, q => '0', oe => serr_en);
  inta_pin : entity work.ice40_pin_out
    generic map (TRISTATE => true)
    port map (pin => pci_inta_n, q => '0', oe => inta_en);
  -- REQ#: point to point, driven always except during RST# (PCI 2.3 4.3.2)
  req_pin : entity work.ice40_pin_out
    generic map (TRISTATE => true)
    port map (pin => pci_req_n, q => req_out, oe => rst_n_pin);
end architecture;
