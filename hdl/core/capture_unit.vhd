-- SPDX-License-Identifier: GPL-2.0-or-later
-- The capture unit: MSI capture slots, descriptor stamping, card interrupts
-- and the DMA arbiter, with their register back end (BAR0 0x200..0x7FF).
-- Interfaces as in docs/card-internals.md: doorbell strobe and register
-- port from pci_target, the DMA port to the PCI initiator (all bus clock),
-- time_ns from the clock core (timebase clock). The card's own MSIs leave
-- as irq_raise: one clock per raised slot vector, at most one slot per
-- clock, after that slot's stamp writes have completed on the bus (the MSI
-- writer must issue its write after dma_done of those writes, which holds
-- when it queues behind them on the same initiator); irq_pending shows the
-- requests held back by masking or moderation; irq_intx is the level for
-- INTA# while MSI is off (a raised slot's irq.status bit, unmasked, until
-- the driver clears it). docs/stamping.md.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity capture_unit is
  generic (
    N_SLOTS   : positive := 4;
    FIFO_LOG2 : positive := 8;
    IDX_W     : positive := 12);   -- ring entries up to 2^IDX_W (stamp_engine)
  port (
    bus_clk : in std_logic;
    bus_rst : in std_logic;
    tb_clk  : in std_logic;
    tb_rst  : in std_logic;
    time_ns : in unsigned(63 downto 0);
    -- register port (0x200..0x7FF)
    reg_valid : in  std_logic;
    reg_write : in  std_logic;
    reg_addr  : in  std_logic_vector(11 downto 2);
    reg_wdata : in  std_logic_vector(31 downto 0);
    reg_ready : out std_logic;
    reg_rdata : out std_logic_vector(31 downto 0);
    -- doorbell strobe
    db_valid : in std_logic;
    db_slot  : in std_logic_vector(3 downto 0);
    db_data  : in std_logic_vector(31 downto 0);
    -- DMA port
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
    -- arbiter requester 1: the event ring (event_dma, outside the unit on
    -- the clock core's register port); writes of one word below 4 GiB
    -- (ev_d_addr: byte address bits 31..2). Unconnected, the defaults keep
    -- the port idle.
    ev_d_valid   : in  std_logic := '0';
    ev_d_addr    : in  std_logic_vector(29 downto 0) := (others => '0');
    ev_d_wd_data : in  std_logic_vector(31 downto 0) := (others => '0');
    ev_d_ready   : out std_logic;
    ev_d_done    : out std_logic;
    ev_d_err     : out std_logic_vector(1 downto 0);
    -- card interrupts
    irq_raise   : out std_logic_vector(N_SLOTS - 1 downto 0);
    irq_pending : out std_logic_vector(N_SLOTS - 1 downto 0);
    irq_intx    : out std_logic);
end entity;

architecture rtl of capture_unit is
  signal cap_empty, cap_kind, cap_pop : std_logic;
  signal cap_slot : std_logic_vector(2 downto 0);
  signal cap_lost : std_logic_vector(7 downto 0);
  signal cap_data : std_logic_vector(15 downto 0);
  signal cap_ns   : std_logic_vector(47 downto 0);
  signal cap_rpos, cap_rnxt, cap_wpos : std_logic_vector(FIFO_LOG2 downto 0);
  signal win_req, win_write, win_ack : std_logic;
  signal win_slot : std_logic_vector(2 downto 0);
  signal win_word : std_logic_vector(4 downto 0);
  signal win_wdata, win_rdata : std_logic_vector(31 downto 0);
  signal busy_s, init_s : std_logic;
  signal d_valid, d_write, d_ready, d_wd_ready, d_rd_valid, d_done : std_logic_vector(1 downto 0);
  signal d_addr   : std_logic_vector(2 * 62 - 1 downto 0);
  signal d_len    : std_logic_vector(2 * 5 - 1 downto 0);
  signal d_wd_data : std_logic_vector(2 * 32 - 1 downto 0);
  signal d_rd_data : std_logic_vector(31 downto 0);
  signal d_err    : std_logic_vector(1 downto 0);
  signal err_valid : std_logic;
  signal err_req, err_code : std_logic_vector(1 downto 0);
  signal ev_valid : std_logic;
  signal ev_slot  : std_logic_vector(2 downto 0);
  signal mask, raise, pending, status, clear : std_logic_vector(N_SLOTS - 1 downto 0);
  signal gap : std_logic_vector(7 downto 0);
begin
  u_cap : entity work.msi_capture
    generic map (N_SLOTS => N_SLOTS, FIFO_LOG2 => FIFO_LOG2)
    port map (bus_clk => bus_clk, bus_rst => bus_rst, db_valid => db_valid,
              db_slot => db_slot, db_data => db_data, tb_clk => tb_clk,
              tb_rst => tb_rst, time_ns => time_ns, cap_empty => cap_empty,
              cap_kind => cap_kind, cap_slot => cap_slot, cap_lost => cap_lost,
              cap_data => cap_data, cap_ns => cap_ns, cap_pop => cap_pop,
              cap_rpos => cap_rpos, cap_rnxt => cap_rnxt, cap_wpos => cap_wpos);

  u_eng : entity work.stamp_engine
    generic map (N_SLOTS => N_SLOTS, FIFO_LOG2 => FIFO_LOG2, IDX_W => IDX_W)
    port map (clk => bus_clk, rst => bus_rst, cap_empty => cap_empty,
              cap_kind => cap_kind, cap_slot => cap_slot, cap_lost => cap_lost,
              cap_data => cap_data, cap_ns => cap_ns, cap_pop => cap_pop,
              cap_rpos => cap_rpos, cap_rnxt => cap_rnxt, cap_wpos => cap_wpos, win_req => win_req, win_write => win_write, win_slot => win_slot,
              win_word => win_word, win_wdata => win_wdata, win_ack => win_ack,
              win_rdata => win_rdata, d_valid => d_valid(0), d_write => d_write(0),
              d_addr => d_addr(61 downto 0), d_len => d_len(4 downto 0),
              d_wd_data => d_wd_data(31 downto 0),
              d_ready => d_ready(0), d_wd_ready => d_wd_ready(0),
              d_rd_valid => d_rd_valid(0), d_rd_data => d_rd_data, d_done => d_done(0),
              d_err => d_err, ev_valid => ev_valid, ev_slot => ev_slot,
              busy => busy_s, init => init_s);

  -- requester 0 the stamp engine (it makes the cause reads too), 1 the
  -- event ring (one-word writes; dma.last_error.requester EVENT)
  d_valid(1)   <= ev_d_valid;
  d_write(1)   <= '1';
  d_addr(123 downto 62) <= x"00000000" & ev_d_addr;
  d_len(9 downto 5) <= "00001";
  d_wd_data(63 downto 32) <= ev_d_wd_data;
  ev_d_ready   <= d_ready(1);
  ev_d_done    <= d_done(1);
  ev_d_err     <= d_err;

  u_arb : entity work.card_dma_arbiter
    generic map (N_REQ => 2)
    port map (clk => bus_clk, rst => bus_rst, r_valid => d_valid, r_write => d_write,
              r_addr => d_addr, r_len => d_len, r_wd_data => d_wd_data,
              r_ready => d_ready, r_wd_ready => d_wd_ready, r_rd_valid => d_rd_valid,
              r_done => d_done, rd_data => d_rd_data, err => d_err,
              err_valid => err_valid, err_req => err_req, err_code => err_code,
              dma_valid => dma_valid, dma_ready => dma_ready, dma_write => dma_write,
              dma_addr => dma_addr, dma_len => dma_len, dma_wd_data => dma_wd_data,
              dma_wd_ready => dma_wd_ready, dma_rd_valid => dma_rd_valid,
              dma_rd_data => dma_rd_data, dma_done => dma_done, dma_err => dma_err);

  u_irq : entity work.card_irq
    generic map (N_SLOTS => N_SLOTS)
    port map (clk => bus_clk, rst => bus_rst, ev_valid => ev_valid, ev_slot => ev_slot,
              mask => mask, gap_units => gap, clear => clear, raise => raise,
              pending => pending, status => status, intx => irq_intx);

  u_regs : entity work.capture_regs
    generic map (N_SLOTS => N_SLOTS, FIFO_LOG2 => FIFO_LOG2, RING_LOG2 => IDX_W)
    port map (clk => bus_clk, rst => bus_rst, reg_valid => reg_valid,
              reg_write => reg_write, reg_addr => reg_addr, reg_wdata => reg_wdata,
              reg_ready => reg_ready, reg_rdata => reg_rdata, win_req => win_req,
              win_write => win_write, win_slot => win_slot, win_word => win_word,
              win_wdata => win_wdata, win_ack => win_ack, win_rdata => win_rdata,
              eng_busy => busy_s, eng_init => init_s, irq_mask => mask,
              irq_gap => gap, irq_pend => pending, irq_raised => raise,
              irq_status => status, irq_clear => clear,
              dma_err_valid => err_valid, dma_err_code => err_code,
              dma_err_req => err_req);

  irq_raise   <= raise;
  irq_pending <= pending;
end architecture;
