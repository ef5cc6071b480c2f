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
-- The bus pads are pci_pads.vhd, shared with the pin-timing harness
-- (hdl/pci/fit/pci_io_fit.vhd): every bus output and its enable from the
-- I/O cell's registers, loaded with the card's next values
-- (PCI_NEXT_OUT); open-drain SERR# and INTA#.
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

  signal pps_io, perout, pps_locked : std_logic;
  signal tb_time_ns : unsigned(63 downto 0);
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
      perout => perout, pps_locked => pps_locked, tb_time_ns => tb_time_ns);

  ---------------------------------------------------------------------------
  -- the card
  card : entity work.synpcix_card
    generic map (N_EVENTS => N_EVENTS, CLK_HZ => TB_CLK_HZ, BUILD_ID => BUILD_ID,
                 PCI_NEXT_OUT => true)
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
      pps_locked => pps_locked, tb_time_ns => tb_time_ns);

  ---------------------------------------------------------------------------
  -- PCI pads (hx8k-pci/pci_pads.vhd: outputs and enables registered)
  pads : entity work.pci_pads
    generic map (REGISTERED => true)
    port map (
      clk => bus_clk, rst_n => rst_n_pin,
      pci_ad => pci_ad, pci_cbe_n => pci_cbe_n, pci_par => pci_par,
      pci_frame_n => pci_frame_n, pci_irdy_n => pci_irdy_n, pci_trdy_n => pci_trdy_n,
      pci_devsel_n => pci_devsel_n, pci_stop_n => pci_stop_n, pci_perr_n => pci_perr_n,
      pci_serr_n => pci_serr_n, pci_inta_n => pci_inta_n, pci_req_n => pci_req_n,
      pci_gnt_n => pci_gnt_n, pci_idsel => pci_idsel,
      ad_in => ad_in, ad_out => ad_out, ad_oe => ad_oe,
      cbe_in => cbe_in, cbe_out => cbe_out, cbe_oe => cbe_oe,
      par_in => par_in, par_out => par_out, par_oe => par_oe,
      frame_in => frame_in, frame_out => frame_out, frame_oe => frame_oe,
      irdy_in => irdy_in, irdy_out => irdy_out, irdy_oe => irdy_oe,
      trdy_in => trdy_in, trdy_out => trdy_out, trdy_oe => trdy_oe,
      devsel_in => devsel_in, devsel_out => devsel_out, devsel_oe => devsel_oe,
      stop_in => stop_in, stop_out => stop_out, stop_oe => stop_oe,
      perr_in => perr_in, perr_out => perr_out, perr_oe => perr_oe,
      serr_oe => serr_oe, inta_oe => inta_oe, req_out => req_out,
      gnt_in => gnt_n_pin, idsel_in => idsel_pin);
end architecture;
