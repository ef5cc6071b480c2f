-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card's clock core: register file and PPS servo on the bus clock,
-- counter, captures and periodic output on the timebase clock, joined by
-- exactly two handshake crossings (one each way). See docs/architecture.md.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.clock_msg_pkg.all;

entity clock_core is
  generic (
    N_EVENTS  : positive := 2;
    FIFO_LOG2 : positive := 8;
    CLK_HZ    : natural  := 125_000_000;
    BUILD_ID  : std_logic_vector(31 downto 0) := x"00000000");
  port (
    bus_clk, bus_rst : in std_logic;
    reg_valid : in  std_logic;
    reg_write : in  std_logic;
    reg_addr  : in  std_logic_vector(11 downto 2);
    reg_wdata : in  std_logic_vector(31 downto 0);
    reg_ready : out std_logic;
    reg_rdata : out std_logic_vector(31 downto 0);
    tb_clk, tb_rst : in std_logic;
    pps_in    : in  std_logic;
    event_in  : in  std_logic_vector(N_EVENTS - 1 downto 0);
    perout    : out std_logic;
    pps_locked : out std_logic;
    -- a stamp waits in the event FIFO (bus clock, synchronised from the
    -- timebase domain: a few clocks behind it), for event_dma
    ev_pending : out std_logic;
    -- The card's time (ns) in the timebase domain, for stamping units
    -- outside the core (MSI capture): exactly the value the edge captures
    -- latch, so a strobe synchronised into tb_clk by the same two flops
    -- (sync_bit) and latching tb_time_ns in the clock it is first seen gets
    -- the same stamp as an event input whose pin changed at the same
    -- moment (capture delay CAPTURE_DELAY = 2 clocks, id.features).
    tb_time_ns : out unsigned(63 downto 0));
end entity;

architecture rtl of clock_core is
  -- edge_capture: a pin edge in clock c is stamped with the time of clock
  -- c+2 (two synchroniser flops); measured by tb_clock_core's perout loopback
  constant CAPTURE_DELAY : natural := 2;
  constant PEROUT_DELAY  : natural := 2;
  signal a_msg_valid, a_msg_ready, b_msg_valid, b_msg_ready, b_msg_pend : std_logic;
  signal a_msg, b_msg : std_logic_vector(MSG_W - 1 downto 0);
  signal t_resp_valid, t_resp_ready, b_resp_pend, b_resp_take : std_logic;
  signal t_resp, t_resp_alt_data, b_resp : std_logic_vector(RESP_W - 1 downto 0);
  signal t_resp_alt : std_logic;
  signal us_t, us_b, us_b_d, us_tick : std_logic := '0';
  signal ev_pend_t : std_logic;
begin
  regs : entity work.clock_regs
    generic map (N_EVENTS => N_EVENTS, FIFO_LOG2 => FIFO_LOG2, CLK_HZ => CLK_HZ,
                 BUILD_ID => BUILD_ID, CAPTURE_DELAY => CAPTURE_DELAY,
                 PEROUT_DELAY => PEROUT_DELAY)
    port map (clk => bus_clk, rst => bus_rst, reg_valid => reg_valid,
              reg_write => reg_write, reg_addr => reg_addr, reg_wdata => reg_wdata,
              reg_ready => reg_ready, reg_rdata => reg_rdata,
              msg_valid => a_msg_valid, msg => a_msg, msg_ready => a_msg_ready,
              resp_pend => b_resp_pend, resp_take => b_resp_take, resp => b_resp, us_tick => us_tick,
              pps_locked => pps_locked);

  to_tb : entity work.cdc_handshake
    generic map (WIDTH => MSG_W, KEEP => false)   -- clock_regs holds msg (MACK)
    port map (a_clk => bus_clk, a_rst => bus_rst, a_valid => a_msg_valid,
              a_data => a_msg, a_ready => a_msg_ready,
              b_clk => tb_clk, b_rst => tb_rst, b_ready => b_msg_ready,
              b_valid => b_msg_valid, b_pending => b_msg_pend, b_data => b_msg);

  to_bus : entity work.cdc_handshake
    generic map (WIDTH => RESP_W)
    port map (a_clk => tb_clk, a_rst => tb_rst, a_valid => t_resp_valid,
              a_data => t_resp, a_alt => t_resp_alt, a_data_alt => t_resp_alt_data,
              a_ready => t_resp_ready,
              b_clk => bus_clk, b_rst => bus_rst, b_ready => b_resp_take,
              b_valid => open, b_pending => b_resp_pend, b_data => b_resp);

  tbd : entity work.clock_tb_domain
    generic map (N_EVENTS => N_EVENTS, FIFO_LOG2 => FIFO_LOG2, CLK_HZ => CLK_HZ)
    port map (clk => tb_clk, rst => tb_rst, msg_valid => b_msg_valid, msg_pend => b_msg_pend, msg => b_msg,
              msg_ready => b_msg_ready, resp_valid => t_resp_valid, resp => t_resp,
              resp_alt => t_resp_alt, resp_data_alt => t_resp_alt_data,
              resp_ready => t_resp_ready, us_toggle => us_t, ev_pending => ev_pend_t,
              pps_in => pps_in,
              event_in => event_in, perout => perout, time_ns_out => tb_time_ns);

  -- microsecond tick of the card's clock, for PPS loss detection
  us_sync : entity work.sync_bit port map (clk => bus_clk, din => us_t, dout => us_b);
  ev_sync : entity work.sync_bit port map (clk => bus_clk, din => ev_pend_t, dout => ev_pending);
  process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      us_b_d  <= us_b;
      us_tick <= us_b xor us_b_d;
    end if;
  end process;
end architecture;
