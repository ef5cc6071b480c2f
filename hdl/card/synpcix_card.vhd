-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card without its board: PCI target and clock core joined by the
-- register port, every PCI line split into in/out/output-enable, the two
-- clocks and the timing pins. Board tops (hdl/boards/) add pads, PLL and
-- tristates; the Verilator bus model (sim/pcibus/) drives this entity
-- directly. Kept a wiring file: the initiator and the capture unit
-- (docs/card-internals.md) join here.
--
-- Register port split: docs/card-internals.md gives 0x000..0x1FF to
-- clock_core and 0x200..0x7FF to the capture unit. Until the capture unit
-- exists every offset goes to clock_core, which answers undefined offsets
-- with 0 and counts them in id.bad_access, so the whole window is answered.
library ieee;
use ieee.std_logic_1164.all;

entity synpcix_card is
  generic (
    N_EVENTS : positive := 2;
    CLK_HZ   : natural  := 125_000_000;
    BUILD_ID : std_logic_vector(31 downto 0) := x"00000000");
  port (
    clk          : in  std_logic;   -- PCI CLK (bus_clk)
    rst_n        : in  std_logic;   -- PCI RST#, asynchronous to both clocks
    tb_clk       : in  std_logic;   -- timebase clock
    ad_in        : in  std_logic_vector(31 downto 0);
    ad_out       : out std_logic_vector(31 downto 0);
    ad_oe        : out std_logic;
    cbe_n_in     : in  std_logic_vector(3 downto 0);
    cbe_n_out    : out std_logic_vector(3 downto 0);
    cbe_n_oe     : out std_logic;
    par_in       : in  std_logic;
    par_out      : out std_logic;
    par_oe       : out std_logic;
    frame_n_in   : in  std_logic;
    frame_n_out  : out std_logic;
    frame_n_oe   : out std_logic;
    irdy_n_in    : in  std_logic;
    irdy_n_out   : out std_logic;
    irdy_n_oe    : out std_logic;
    trdy_n_in    : in  std_logic;
    trdy_n_out   : out std_logic;
    trdy_n_oe    : out std_logic;
    devsel_n_in  : in  std_logic;
    devsel_n_out : out std_logic;
    devsel_n_oe  : out std_logic;
    stop_n_in    : in  std_logic;
    stop_n_out   : out std_logic;
    stop_n_oe    : out std_logic;
    perr_n_in    : in  std_logic;
    perr_n_out   : out std_logic;
    perr_n_oe    : out std_logic;
    serr_n_oe    : out std_logic;   -- open drain: asserts SERR# (driven 0)
    inta_n_oe    : out std_logic;   -- open drain: asserts INTA#
    idsel_in     : in  std_logic;
    req_n        : out std_logic;   -- point to point, always driven
    gnt_n        : in  std_logic;
    pps_in       : in  std_logic;
    event_in     : in  std_logic_vector(N_EVENTS - 1 downto 0);
    perout       : out std_logic;
    pps_locked   : out std_logic);
end entity;

architecture rtl of synpcix_card is
  signal bus_rst, tb_rst, rst_req : std_logic;
  signal reg_valid, reg_write, reg_ready : std_logic;
  signal reg_addr : std_logic_vector(11 downto 2);
  signal reg_wdata, reg_rdata : std_logic_vector(31 downto 0);
  signal intx_assert, serr_n_out_unused : std_logic;
begin
  -- RST# asserts asynchronously on the bus; each domain sees it through its
  -- own synchroniser (reset value '1', so the card is in reset from power-up
  -- until RST# has been seen high for two clocks of that domain).
  rst_req <= not rst_n;
  bus_rst_sync : entity work.sync_bit
    generic map (INIT => '1')
    port map (clk => clk, din => rst_req, dout => bus_rst);
  tb_rst_sync : entity work.sync_bit
    generic map (INIT => '1')
    port map (clk => tb_clk, din => rst_req, dout => tb_rst);

  target : entity work.pci_target
    port map (
      clk => clk, rst => bus_rst,
      ad_in => ad_in, ad_out => ad_out, ad_oe => ad_oe,
      cbe_n_in => cbe_n_in, par_in => par_in, par_out => par_out, par_oe => par_oe,
      frame_n_in => frame_n_in, irdy_n_in => irdy_n_in, idsel_in => idsel_in,
      trdy_n_in => trdy_n_in, trdy_n_out => trdy_n_out, trdy_n_oe => trdy_n_oe,
      devsel_n_in => devsel_n_in, devsel_n_out => devsel_n_out, devsel_n_oe => devsel_n_oe,
      stop_n_in => stop_n_in, stop_n_out => stop_n_out, stop_n_oe => stop_n_oe,
      perr_n_in => perr_n_in, perr_n_out => perr_n_out, perr_n_oe => perr_n_oe,
      serr_n_out => serr_n_out_unused, serr_n_oe => serr_n_oe,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata,
      mem_enable => open, master_enable => open, perr_resp => open,
      int_pending => '0', intx_assert => intx_assert,
      msi_enable => open, msi_mme => open, msi_addr => open, msi_data => open,
      mst_data_perr => '0', mst_rcv_tabort => '0', mst_rcv_mabort => '0',
      bad_write => open);

  core : entity work.clock_core
    generic map (N_EVENTS => N_EVENTS, CLK_HZ => CLK_HZ, BUILD_ID => BUILD_ID)
    port map (
      bus_clk => clk, bus_rst => bus_rst,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata,
      tb_clk => tb_clk, tb_rst => tb_rst,
      pps_in => pps_in, event_in => event_in, perout => perout,
      pps_locked => pps_locked);

  inta_n_oe <= intx_assert;

  -- No initiator yet (docs/pci.md, "What is left"): the master lines are
  -- never driven and REQ# stays deasserted. The initiator takes them over.
  cbe_n_out   <= (others => '1');
  cbe_n_oe    <= '0';
  frame_n_out <= '1';
  frame_n_oe  <= '0';
  irdy_n_out  <= '1';
  irdy_n_oe   <= '0';
  req_n       <= '1';
end architecture;
