-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card without its board: pci_interface (target, initiator, MSI
-- raising), the capture unit (MSI capture slots, stamping engine, card
-- interrupts) and the clock core, every PCI line split into
-- in/out/output-enable, the two clocks and the timing pins. Board tops
-- (hdl/boards/) add pads, PLL and tristates; the Verilator bus model
-- (sim/pcibus/) drives this entity directly. docs/card-internals.md is the
-- contract of every connection made here.
--
-- Register port split (card-internals section 1): 0x000..0x1FF to
-- clock_core, 0x200..0x7FF to the capture unit; doorbells (0x800..0xFFF)
-- never reach the port, pci_interface turns them into the doorbell strobe.
-- The selection is taken from reg_addr(11 downto 9) = "000", which the
-- target holds stable with reg_valid until reg_ready, so the answer of the
-- selected back end alone is passed back.
--
-- The event ring block (event_dma) sits on the clock core's part of the
-- port: it answers event.ring_* itself, passes every other access through
-- and, between the host's accesses, pops the event FIFO for the ring; its
-- DMA writes go to the capture unit's arbiter as requester 1.
--
-- bad_write (a doorbell-window write that is no built doorbell) is not
-- counted: clock_core has no input for it (its id.bad_access counts only
-- its own undefined offsets); docs/simulation.md lists this.
--
-- Card interrupts: the capture unit pulses irq_raise(i) for one clock per
-- raised slot vector (after the stamp writes of that slot completed on the
-- bus); pci_interface takes one request at a time (irq_valid .. irq_ready).
-- msi_req below remembers a raise per slot until pci_interface has taken
-- it, lowest slot first, so raises of several slots close together are
-- all sent. A raise of a slot whose earlier request still waits merges with
-- it: one MSI announces every stamp written so far (the driver reads the
-- whole ring), as card_irq merges requests inside its moderation gap.
-- With MSI off, INTA# is the capture unit's irq_intx (an irq.status bit
-- set by a raise, unmasked, not yet cleared by the driver).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity synpcix_card is
  generic (
    N_EVENTS : positive := 2;
    N_SLOTS  : positive := 4;      -- MSI capture slots (4 MSI vectors asked)
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
  signal db_valid : std_logic;
  signal db_slot : std_logic_vector(3 downto 0);
  signal db_data : std_logic_vector(31 downto 0);
  signal dma_valid, dma_ready, dma_write, dma_wd_ready, dma_rd_valid, dma_done : std_logic;
  signal dma_addr : std_logic_vector(63 downto 2);
  signal dma_len : std_logic_vector(4 downto 0);
  signal dma_wd_data, dma_rd_data : std_logic_vector(31 downto 0);
  signal dma_err : std_logic_vector(1 downto 0);
  signal tb_time_ns : unsigned(63 downto 0);
  signal irq_raise, irq_pending, msi_req, msi_take, offer_oh : std_logic_vector(N_SLOTS - 1 downto 0);
  signal irq_valid, irq_ready, int_pending, irq_intx : std_logic;
  signal irq_vector : std_logic_vector(1 downto 0);
  signal serr_n_out_unused : std_logic;
  signal frame_oe_i, irdy_oe_i, frame_oe_q : std_logic;
begin
  assert N_SLOTS <= 4
    report "synpcix_card: pci_interface raises at most 4 MSI vectors (irq_vector is 2 bits)"
    severity failure;

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

  pci : entity work.pci_interface
    generic map (N_SLOTS => N_SLOTS)
    port map (
      clk => clk, rst => bus_rst,
      ad_in => ad_in, ad_out => ad_out, ad_oe => ad_oe,
      cbe_n_in => cbe_n_in, cbe_n_out => cbe_n_out, cbe_n_oe => cbe_n_oe,
      par_in => par_in, par_out => par_out, par_oe => par_oe,
      frame_n_in => frame_n_in, frame_n_out => frame_n_out, frame_n_oe => frame_oe_i,
      irdy_n_in => irdy_n_in, irdy_n_out => irdy_n_out, irdy_n_oe => irdy_oe_i,
      trdy_n_in => trdy_n_in, trdy_n_out => trdy_n_out, trdy_n_oe => trdy_n_oe,
      devsel_n_in => devsel_n_in, devsel_n_out => devsel_n_out, devsel_n_oe => devsel_n_oe,
      stop_n_in => stop_n_in, stop_n_out => stop_n_out, stop_n_oe => stop_n_oe,
      perr_n_in => perr_n_in, perr_n_out => perr_n_out, perr_n_oe => perr_n_oe,
      serr_n_out => serr_n_out_unused, serr_n_oe => serr_n_oe,
      idsel_in => idsel_in, req_n => req_n, gnt_n => gnt_n, inta_n_oe => inta_n_oe,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata,
      bad_write => open,
      db_valid => db_valid, db_slot => db_slot, db_data => db_data,
      dma_valid => dma_valid, dma_ready => dma_ready, dma_write => dma_write,
      dma_addr => dma_addr, dma_len => dma_len, dma_wd_data => dma_wd_data,
      dma_wd_ready => dma_wd_ready, dma_rd_valid => dma_rd_valid,
      dma_rd_data => dma_rd_data, dma_done => dma_done, dma_err => dma_err,
      int_pending => int_pending, irq_valid => irq_valid, irq_vector => irq_vector,
      irq_ready => irq_ready, irq_done => open, irq_err => open, irq_sent => open,
      mem_enable => open, master_enable => open, msi_enable => open, msi_mme => open);

  -- IRDY# is not driven in the initiator's first address phase. The
  -- address phase is IRDY#'s turnaround clock when the bus passes from
  -- another master (PCI 2.3 3.3.1: IRDY# is driven from the clock after
  -- the address phase): that master drove IRDY# high in the clock before
  -- and releases it now. pci_initiator enables IRDY# together with FRAME#,
  -- which the pcibus protocol checker reports as a turnaround violation
  -- (IRDY# passed from the NIC to the card without a turnaround clock);
  -- the line is high either way, so masking the enable for that one clock
  -- changes no value on the bus. The first address phase is the clock in
  -- which FRAME#'s enable rises (frame_oe_q: the enable a clock earlier).
  frame_n_oe <= frame_oe_i;
  irdy_n_oe  <= irdy_oe_i and not (frame_oe_i and not frame_oe_q);
  process (clk)
  begin
    if rising_edge(clk) then
      if bus_rst = '1' then
        frame_oe_q <= '0';
      else
        frame_oe_q <= frame_oe_i;
      end if;
    end if;
  end process;

  -- register port split by address (card-internals section 1)
  sel_clock <= '1' when reg_addr(11 downto 9) = "000" else '0';
  clk_valid <= reg_valid and sel_clock;
  cap_valid <= reg_valid and not sel_clock;
  reg_ready <= clk_ready or cap_ready;
  reg_rdata <= clk_rdata when sel_clock = '1' else cap_rdata;

  -- the event ring (event.ring_*): on the clock core's part of the port, it
  -- answers the ring registers and pops the event FIFO between the host's
  -- accesses (docs/stamping.md section 12)
  evring : entity work.event_dma
    port map (
      clk => clk, rst => bus_rst,
      h_valid => clk_valid, h_write => reg_write, h_addr => reg_addr,
      h_wdata => reg_wdata, h_ready => clk_ready, h_rdata => clk_rdata,
      c_valid => cc_valid, c_write => cc_write, c_addr => cc_addr,
      c_ready => cc_ready, c_rdata => cc_rdata,
      d_valid => ev_valid, d_addr => ev_addr,
      d_wd_data => ev_wd_data, d_ready => ev_ready, d_done => ev_done, d_err => ev_err);

  core : entity work.clock_core
    generic map (N_EVENTS => N_EVENTS, CLK_HZ => CLK_HZ, BUILD_ID => BUILD_ID)
    port map (
      bus_clk => clk, bus_rst => bus_rst,
      reg_valid => cc_valid, reg_write => cc_write, reg_addr => cc_addr,
      reg_wdata => reg_wdata, reg_ready => cc_ready, reg_rdata => cc_rdata,
      tb_clk => tb_clk, tb_rst => tb_rst,
      pps_in => pps_in, event_in => event_in, perout => perout,
      pps_locked => pps_locked, tb_time_ns => tb_time_ns);

  capture : entity work.capture_unit
    generic map (N_SLOTS => N_SLOTS)
    port map (
      bus_clk => clk, bus_rst => bus_rst, tb_clk => tb_clk, tb_rst => tb_rst,
      time_ns => tb_time_ns,
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

  -- Raised vectors wait in msi_req until pci_interface takes them. The
  -- lowest requesting slot is latched into the offer (offer_oh, irq_vector)
  -- and held until irq_ready, as the contract asks; raises meanwhile only
  -- set bits of msi_req. A raise of the offered slot in the clock of
  -- irq_ready stays requested: its stamps may be newer than the MSI taken.
  msi_take <= msi_req and std_logic_vector(unsigned(not msi_req) + 1);  -- lowest set bit
  process (clk)
  begin
    if rising_edge(clk) then
      if bus_rst = '1' then
        msi_req <= (others => '0');
        offer_oh <= (others => '0');
        irq_valid <= '0';
        irq_vector <= "00";
      elsif irq_valid = '1' then
        if irq_ready = '1' then
          irq_valid <= '0';
          msi_req <= (msi_req and not offer_oh) or irq_raise;
        else
          msi_req <= msi_req or irq_raise;
        end if;
      else
        msi_req <= msi_req or irq_raise;
        if unsigned(msi_req) /= 0 then
          irq_valid <= '1';
          offer_oh <= msi_take;
          irq_vector <= "00";
          for i in 0 to N_SLOTS - 1 loop
            if msi_take(i) = '1' then
              irq_vector <= std_logic_vector(to_unsigned(i, 2));
            end if;
          end loop;
        end if;
      end if;
    end if;
  end process;

  -- INTA# (MSI off): a raised slot not yet acknowledged in irq.status
  -- (card_irq; the raise that sets it has gone to msi_req as well, where
  -- pci_interface completes it without a write)
  int_pending <= irq_intx;
end architecture;
