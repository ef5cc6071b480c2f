-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card without its board: pci_interface (target, initiator, MSI
-- raising), the capture unit (MSI capture slots, stamping engine, card
-- interrupts) and the clock core, every PCI line split into
-- in/out/output-enable, the two clocks and the timing pins. Board tops
-- (hdl/boards/) add pads, PLL and tristates; the Verilator bus model
-- (sim/pcibus/) drives this entity directly. docs/card-internals.md is the
-- contract of every connection made here.
--
-- The register port goes to card_core (clock core, event ring block,
-- capture unit), which splits it by address; doorbells (0x800..0xFFF)
-- never reach the port, pci_interface turns them into the doorbell strobe.
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
    BUILD_ID : std_logic_vector(31 downto 0) := x"00000000";
    -- the PCI bus outputs as next values for the board's I/O-cell
    -- registers (pci_interface NEXT_OUT; hdl/boards/hx8k-pci); false: the
    -- pins' values (simulation, Verilator)
    PCI_NEXT_OUT : boolean := false);
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
    pps_locked   : out std_logic;
    -- the card's time (tb_clk domain, card_core's tb_time_ns): the board
    -- paces its LEDs with it (hx8k_board_common)
    tb_time_ns   : out unsigned(63 downto 0));
end entity;

architecture rtl of synpcix_card is
  signal bus_rst, tb_rst, rst_req : std_logic;
  signal reg_valid, reg_write, reg_ready : std_logic;
  signal reg_addr : std_logic_vector(11 downto 2);
  signal reg_wdata, reg_rdata : std_logic_vector(31 downto 0);
  signal db_valid : std_logic;
  signal db_slot : std_logic_vector(3 downto 0);
  signal db_data : std_logic_vector(31 downto 0);
  signal dma_valid, dma_ready, dma_write, dma_wd_ready, dma_rd_valid, dma_done : std_logic;
  signal dma_addr : std_logic_vector(63 downto 2);
  signal dma_len : std_logic_vector(4 downto 0);
  signal dma_wd_data, dma_rd_data : std_logic_vector(31 downto 0);
  signal dma_err : std_logic_vector(1 downto 0);
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
    generic map (N_SLOTS => N_SLOTS, NEXT_OUT => PCI_NEXT_OUT)
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

  -- clock core, event ring and capture unit behind one register port
  -- (the Verilator model drives the same entity: sim/verilator/card_top.v)
  core : entity work.card_core
    generic map (N_EVENTS => N_EVENTS, N_SLOTS => N_SLOTS, CLK_HZ => CLK_HZ,
                 BUILD_ID => BUILD_ID)
    port map (
      bus_clk => clk, bus_rst => bus_rst, tb_clk => tb_clk, tb_rst => tb_rst,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata,
      db_valid => db_valid, db_slot => db_slot, db_data => db_data,
      dma_valid => dma_valid, dma_ready => dma_ready, dma_write => dma_write,
      dma_addr => dma_addr, dma_len => dma_len, dma_wd_data => dma_wd_data,
      dma_wd_ready => dma_wd_ready, dma_rd_valid => dma_rd_valid,
      dma_rd_data => dma_rd_data, dma_done => dma_done, dma_err => dma_err,
      irq_raise => irq_raise, irq_pending => irq_pending, irq_intx => irq_intx,
      pps_in => pps_in, event_in => event_in, perout => perout,
      pps_locked => pps_locked, tb_time_ns => tb_time_ns);

  -- Raised vectors wait in msi_req until pci_interface takes them. The
  -- lowest requesting slot is latched into the offer (offer_oh, irq_vector)
  -- and held until irq_ready, as the contract asks; raises meanwhile only
  -- set bits of msi_req. A raise of the offered slot in the clock of
  -- irq_ready stays requested: its stamps may be newer than the MSI taken.
  -- the lowest set bit, as a priority chain (x and (not x + 1) was an
  -- adder: a carry chain for four bits)
  take_p : process (all)
    variable found : boolean;
  begin
    msi_take <= (others => '0');
    found := false;
    for i in 0 to N_SLOTS - 1 loop
      if msi_req(i) = '1' and not found then
        msi_take(i) <= '1';
        found := true;
      end if;
    end loop;
  end process;
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
