-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card without its PCI interface, as the Verilator model and QEMU's
-- synpcix device see it: clock_core (behind the event ring block
-- event_dma, as on the card) and capture_unit joined by the
-- timebase's time (docs/card-internals.md section 4). The register port,
-- doorbell strobe, DMA port and card interrupt lines are left as ports;
-- sim/verilator/card_top.v splits the register port by offset as the card
-- top does and drives the rest from C (sim/verilator/card_sim.cpp). Pure
-- wiring, so GHDL synthesises one netlist (one copy of the shared
-- entities) for Verilator; its behaviour is checked through the model by
-- tests/sim (make test-sim) and tests/e2e.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity sim_card_core is
  generic (
    N_EVENTS : positive := 2;
    N_SLOTS  : positive := 4);
  port (
    bus_clk, bus_rst : in std_logic;
    tb_clk, tb_rst   : in std_logic;
    -- clock_core register port (0x000..0x1FF)
    cc_valid : in  std_logic;
    cc_ready : out std_logic;
    cc_rdata : out std_logic_vector(31 downto 0);
    -- capture_unit register port (0x200..0x7FF)
    cu_valid : in  std_logic;
    cu_ready : out std_logic;
    cu_rdata : out std_logic_vector(31 downto 0);
    -- shared by both back ends (only the one with valid looks at them)
    reg_write : in std_logic;
    reg_addr  : in std_logic_vector(11 downto 2);
    reg_wdata : in std_logic_vector(31 downto 0);
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
    tb_time_ns : out std_logic_vector(63 downto 0));
end entity;

architecture rtl of sim_card_core is
  signal time_ns : unsigned(63 downto 0);
  signal k_valid, k_write, k_ready : std_logic;
  signal k_addr : std_logic_vector(11 downto 2);
  signal k_rdata : std_logic_vector(31 downto 0);
  signal ev_valid, ev_ready, ev_done : std_logic;
  signal ev_addr : std_logic_vector(29 downto 0);
  signal ev_wd_data : std_logic_vector(31 downto 0);
  signal ev_err : std_logic_vector(1 downto 0);
begin
  -- the event ring on the clock core's port, as in hdl/card/synpcix_card.vhd
  evring : entity work.event_dma
    port map (
      clk => bus_clk, rst => bus_rst,
      h_valid => cc_valid, h_write => reg_write, h_addr => reg_addr,
      h_wdata => reg_wdata, h_ready => cc_ready, h_rdata => cc_rdata,
      c_valid => k_valid, c_write => k_write, c_addr => k_addr,
      c_ready => k_ready, c_rdata => k_rdata,
      d_valid => ev_valid, d_addr => ev_addr,
      d_wd_data => ev_wd_data, d_ready => ev_ready, d_done => ev_done, d_err => ev_err);

  core : entity work.clock_core
    generic map (N_EVENTS => N_EVENTS)
    port map (
      bus_clk => bus_clk, bus_rst => bus_rst,
      reg_valid => k_valid, reg_write => k_write, reg_addr => k_addr,
      reg_wdata => reg_wdata, reg_ready => k_ready, reg_rdata => k_rdata,
      tb_clk => tb_clk, tb_rst => tb_rst,
      pps_in => pps_in, event_in => event_in, perout => perout,
      pps_locked => pps_locked, tb_time_ns => time_ns);
  tb_time_ns <= std_logic_vector(time_ns);

  capture : entity work.capture_unit
    generic map (N_SLOTS => N_SLOTS)
    port map (
      bus_clk => bus_clk, bus_rst => bus_rst, tb_clk => tb_clk, tb_rst => tb_rst,
      time_ns => time_ns,
      reg_valid => cu_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => cu_ready, reg_rdata => cu_rdata,
      db_valid => db_valid, db_slot => db_slot, db_data => db_data,
      dma_valid => dma_valid, dma_ready => dma_ready, dma_write => dma_write,
      dma_addr => dma_addr, dma_len => dma_len, dma_wd_data => dma_wd_data,
      dma_wd_ready => dma_wd_ready, dma_rd_valid => dma_rd_valid,
      dma_rd_data => dma_rd_data, dma_done => dma_done, dma_err => dma_err,
      ev_d_valid => ev_valid, ev_d_addr => ev_addr, ev_d_wd_data => ev_wd_data,
      ev_d_ready => ev_ready, ev_d_done => ev_done, ev_d_err => ev_err,
      irq_raise => irq_raise, irq_pending => irq_pending, irq_intx => irq_intx);
end architecture;
