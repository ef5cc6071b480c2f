-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card without its PCI interface: clock_core (behind the event ring
-- block event_dma) and capture_unit, joined by the timebase's time, with
-- the register port split by address. synpcix_card puts pci_interface in
-- front of it; the Verilator model behind QEMU's synpcix device and
-- tests/sim (sim/verilator/card_top.v) drives it directly, so the model
-- cannot wire the blocks differently from the card
-- (docs/card-internals.md is the contract of every connection here).
--
-- Register port split (card-internals section 1): 0x000..0x1FF to the
-- clock core's side, 0x200..0x7FF to the capture unit; doorbells
-- (0x800..0xFFF) never reach the port. The selection is taken from
-- reg_addr(11 downto 9) = "000", which the master holds stable with
-- reg_valid until reg_ready, so the answer of the selected back end alone
-- is passed back (the capture unit's is 0 but in its ready clock).
--
-- The event ring block (event_dma) sits on the clock core's part of the
-- port: it answers event.ring_* itself, passes every other access through
-- and, between the host's accesses, pops the event FIFO for the ring; its
-- DMA writes go to the capture unit's arbiter as requester 1
-- (docs/stamping.md section 12).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity card_core is
  generic (
    N_EVENTS : positive := 2;
    N_SLOTS  : positive := 4;
    CLK_HZ   : natural  := 125_000_000;
    BUILD_ID : std_logic_vector(31 downto 0) := x"00000000");
  port (
    bus_clk, bus_rst : in std_logic;
    tb_clk, tb_rst   : in std_logic;
    reg_valid : in  std_logic;
    reg_write : in  std_logic;
    reg_addr  : in  std_logic_vector(11 downto 2);
    reg_wdata : in  std_logic_vector(31 downto 0);
    reg_ready : out std_logic;
    reg_rdata : out std_logic_vector(31 downto 0);
    db_valid : in std_logic;
    db_slot  : in std_logic_vector(3 downto 0);
    db_data  : in std_logic_vector(31 downto 0);
    dma_valid    : out std_logic;
    dma_ready    : in  std_logic;
    dma_write    : out std_logic;
    dma_addr     : out std_logic_vector(63 downto 2);
    dma_len      : out std_logic_vector(4 downto 0);
    dma_wd_data  : out std_logic_vector(31 downto 0);
    dma_wd_ready : in  std_logic;
    dma_rd_valid : in  std_logic;
    dma_rd_data  : in  std_logic_vector(31 downto 0);
    dma_done     : in  std_logic;
    dma_err      : in  std_logic_vector(1 downto 0);
    irq_raise    : out std_logic_vector(N_SLOTS - 1 downto 0);
    irq_pending  : out std_logic_vector(N_SLOTS - 1 downto 0);
    irq_intx     : out std_logic;
    pps_in     : in  std_logic;
    event_in   : in  std_logic_vector(N_EVENTS - 1 downto 0);
    perout     : out std_logic;
    pps_locked : out std_logic;
    -- the timebase's time as the capture unit latches it (the QEMU device
    -- logs it at reset to map virtual time to card time exactly)
    tb_time_ns : out unsigned(63 downto 0));
end entity;

architecture rtl of card_core is
  signal sel_clock : std_logic;
  signal clk_valid, clk_ready, cap_valid, cap_ready : std_logic;
  signal clk_rdata, cap_rdata : std_logic_vector(31 downto 0);
  signal cc_valid, cc_write, cc_ready : std_logic;
  signal cc_addr : std_logic_vector(11 downto 2);
  signal cc_rdata : std_logic_vector(31 downto 0);
  signal ev_valid, ev_ready, ev_done : std_logic;
  signal ev_addr : std_logic_vector(29 downto 0);
  signal ev_wd_data : std_logic_vector(31 downto 0);
  signal ev_err : std_logic_vector(1 downto 0);
  signal time_ns : unsigned(63 downto 0);
  signal ev_pending : std_logic;
begin
  sel_clock <= '1' when reg_addr(11 downto 9) = "000" else '0';
  clk_valid <= reg_valid and sel_clock;
  cap_valid <= reg_valid and not sel_clock;
  reg_ready <= clk_ready or cap_ready;
  -- the capture unit's answer is 0 outside its reg_ready clock
  -- (capture_regs), so it is ORed in, not selected: with pci_target's
  -- choice of read data or AD behind it and event_dma's ring_ctrl fields
  -- in clk_rdata, a select by address made each bit one LUT more
  reg_rdata <= (clk_rdata and (31 downto 0 => sel_clock)) or cap_rdata;

  evring : entity work.event_dma
    port map (
      clk => bus_clk, rst => bus_rst, ev_pending => ev_pending,
      h_valid => clk_valid, h_write => reg_write, h_addr => reg_addr,
      h_wdata => reg_wdata, h_ready => clk_ready, h_rdata => clk_rdata,
      c_valid => cc_valid, c_write => cc_write, c_addr => cc_addr,
      c_ready => cc_ready, c_rdata => cc_rdata,
      d_valid => ev_valid, d_addr => ev_addr,
      d_wd_data => ev_wd_data, d_ready => ev_ready, d_done => ev_done, d_err => ev_err);

  core : entity work.clock_core
    generic map (N_EVENTS => N_EVENTS, CLK_HZ => CLK_HZ, BUILD_ID => BUILD_ID)
    port map (
      bus_clk => bus_clk, bus_rst => bus_rst,
      reg_valid => cc_valid, reg_write => cc_write, reg_addr => cc_addr,
      reg_wdata => reg_wdata, reg_ready => cc_ready, reg_rdata => cc_rdata,
      tb_clk => tb_clk, tb_rst => tb_rst,
      pps_in => pps_in, event_in => event_in, perout => perout,
      pps_locked => pps_locked, ev_pending => ev_pending, tb_time_ns => time_ns);
  tb_time_ns <= time_ns;

  capture : entity work.capture_unit
    generic map (N_SLOTS => N_SLOTS)
    port map (
      bus_clk => bus_clk, bus_rst => bus_rst, tb_clk => tb_clk, tb_rst => tb_rst,
      time_ns => time_ns,
      reg_valid => cap_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => cap_ready, reg_rdata => cap_rdata,
      db_valid => db_valid, db_slot => db_slot, db_data => db_data,
      dma_valid => dma_valid, dma_ready => dma_ready, dma_write => dma_write,
      dma_addr => dma_addr, dma_len => dma_len, dma_wd_data => dma_wd_data,
      dma_wd_ready => dma_wd_ready, dma_rd_valid => dma_rd_valid,
      dma_rd_data => dma_rd_data, dma_done => dma_done, dma_err => dma_err,
      ev_d_valid => ev_valid, ev_d_addr => ev_addr, ev_d_wd_data => ev_wd_data,
      ev_d_ready => ev_ready, ev_d_done => ev_done, ev_d_err => ev_err,
      irq_raise => irq_raise, irq_pending => irq_pending, irq_intx => irq_intx);
end architecture;
