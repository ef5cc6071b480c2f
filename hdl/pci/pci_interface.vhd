-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card's PCI interface: pci_target and pci_initiator on one set of bus
-- pins, and the card's own MSI (pci_msi_raise) sharing the initiator with
-- the DMA port. docs/pci.md ("The whole interface") says how.
--
-- Pins: lines only one side drives come straight from its next values
-- (FRAME#, IRDY#, C/BE#, REQ# from the initiator; TRDY#, DEVSEL#, STOP#,
-- SERR# from the target). AD and PERR# are driven by either side, never
-- both in one clock nor in adjacent clocks (PCI turnaround). AD goes
-- through the initiator's one-LUT pin paths, which take the target's next
-- word and enable in (so no select sits behind the live TRDY#); PERR# is
-- one LUT of the live PAR over the driving side's check; PAR is each
-- side's own (parity of the AD and C/BE# the bus carried a clock
-- earlier). docs/pci.md "Pins".
-- The target ignores the address phases of the initiator's own
-- transactions, so a misprogrammed DMA address in BAR0 cannot make both
-- sides drive AD.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity pci_interface is
  generic (
    N_SLOTS      : positive := 4;
    DISCARD_LOG2 : positive := 15;
    -- false: the bus outputs (q and oe) are the pins' values, from this
    -- entity's output registers; true: they are those registers' next
    -- values, and the board registers them in its I/O cells (PCI CLK, no
    -- reset: PCI RST# comes in through rst). INTA#'s enable is
    -- asynchronous in PCI and combinational either way. docs/pci.md "Pins".
    NEXT_OUT     : boolean := false);
  port (
    clk, rst      : in  std_logic;
    -- PCI bus pins (split in/out/oe; tristates in the board top)
    ad_in         : in  std_logic_vector(31 downto 0);
    ad_out        : out std_logic_vector(31 downto 0);
    ad_oe         : out std_logic;
    cbe_n_in      : in  std_logic_vector(3 downto 0);
    cbe_n_out     : out std_logic_vector(3 downto 0);
    cbe_n_oe      : out std_logic;
    par_in        : in  std_logic;
    par_out       : out std_logic;
    par_oe        : out std_logic;
    frame_n_in    : in  std_logic;
    frame_n_out   : out std_logic;
    frame_n_oe    : out std_logic;
    irdy_n_in     : in  std_logic;
    irdy_n_out    : out std_logic;
    irdy_n_oe     : out std_logic;
    trdy_n_in     : in  std_logic;
    trdy_n_out    : out std_logic;
    trdy_n_oe     : out std_logic;
    devsel_n_in   : in  std_logic;
    devsel_n_out  : out std_logic;
    devsel_n_oe   : out std_logic;
    stop_n_in     : in  std_logic;
    stop_n_out    : out std_logic;
    stop_n_oe     : out std_logic;
    perr_n_in     : in  std_logic;
    perr_n_out    : out std_logic;
    perr_n_oe     : out std_logic;
    serr_n_out    : out std_logic;   -- open drain: out '0', oe asserts
    serr_n_oe     : out std_logic;
    idsel_in      : in  std_logic;
    req_n         : out std_logic;
    gnt_n         : in  std_logic;
    inta_n_oe     : out std_logic;   -- open drain INTA#: pull low when '1'
    -- register port (clock_core and the capture unit)
    reg_valid     : out std_logic;
    reg_write     : out std_logic;
    reg_addr      : out std_logic_vector(11 downto 2);
    reg_wdata     : out std_logic_vector(31 downto 0);
    reg_ready     : in  std_logic;
    reg_rdata     : in  std_logic_vector(31 downto 0);
    bad_write     : out std_logic;
    -- doorbell strobe (docs/card-internals.md section 2)
    db_valid      : out std_logic;
    db_slot       : out std_logic_vector(3 downto 0);
    db_data       : out std_logic_vector(31 downto 0);
    -- DMA port (docs/card-internals.md section 3)
    dma_valid     : in  std_logic;
    dma_ready     : out std_logic;
    dma_write     : in  std_logic;
    dma_addr      : in  std_logic_vector(63 downto 2);
    dma_len       : in  std_logic_vector(4 downto 0);
    dma_wd_data   : in  std_logic_vector(31 downto 0);
    dma_wd_ready  : out std_logic;
    dma_rd_valid  : out std_logic;
    dma_rd_data   : out std_logic_vector(31 downto 0);
    dma_done      : out std_logic;
    dma_err       : out std_logic_vector(1 downto 0);
    -- card interrupt (docs/card-internals.md section 5)
    int_pending   : in  std_logic;   -- level: INTx and status bit 3
    irq_valid     : in  std_logic;
    irq_vector    : in  std_logic_vector(1 downto 0);
    irq_ready     : out std_logic;
    irq_done      : out std_logic;
    irq_err       : out std_logic_vector(1 downto 0);
    irq_sent      : out std_logic;
    -- configuration state
    mem_enable    : out std_logic;
    master_enable : out std_logic;
    msi_enable    : out std_logic;
    msi_mme       : out std_logic_vector(2 downto 0));
end entity;

architecture rtl of pci_interface is
  signal t_ad, i_ad : std_logic_vector(31 downto 0);
  -- the pins' next values (the output registers' inputs)
  signal n_ad : std_logic_vector(31 downto 0);
  signal n_cbe : std_logic_vector(3 downto 0);
  signal n_ad_oe, n_cbe_oe, n_par, n_par_oe, n_frame, n_frame_oe, n_irdy, n_irdy_oe : std_logic;
  signal n_trdy, n_trdy_oe, n_devsel, n_devsel_oe, n_stop, n_stop_oe : std_logic;
  signal n_perr, n_perr_oe, n_serr_oe, n_req : std_logic;
  signal t_ad_oe, i_ad_oe, t_par, t_par_oe, i_par, i_par_oe : std_logic;
  signal t_perr, t_perr_oe, i_perr, i_perr_oe : std_logic;
  -- PERR#/SERR# before the live PAR (each side's check and parity)
  signal t_perr_chk, t_serr_chk, t_par_x, i_perr_chk, i_par_x, perr_chk, perr_par_x : std_logic;

  -- LUT4 contents of "PAR differs from par_x where checked" (o = INIT(i3
  -- i2 i1 i0), i0 PAR, i1 check, i2 par_x) and of its complement
  function par_lut (inv : boolean) return std_logic_vector is
    variable r : std_logic_vector(15 downto 0);
    variable bad : boolean;
  begin
    for a in 0 to 15 loop
      bad := (a / 2) mod 2 = 1 and ((a mod 2 = 1) /= ((a / 4) mod 2 = 1));
      if bad /= inv then
        r(a) := '1';
      else
        r(a) := '0';
      end if;
    end loop;
    return r;
  end function;
  signal c_master, c_perr, c_msi : std_logic;
  signal c_mme : std_logic_vector(2 downto 0);
  signal c_word : std_logic_vector(31 downto 0);   -- the target's RAM output
  signal c_rd : std_logic_vector(1 downto 0);
  signal c_go, c_rd_any : std_logic;
  signal lat : std_logic_vector(7 downto 0);
  signal s_dperr, s_tabort, s_mabort, s_det, busy : std_logic;

  -- the initiator's request side: the DMA port or the MSI write
  signal m_valid, m_ready, m_write, m_wd_ready, m_done : std_logic;
  signal m_addr : std_logic_vector(63 downto 2);
  signal m_len : std_logic_vector(4 downto 0);
  signal m_wd : std_logic_vector(31 downto 0);
  signal m_err : std_logic_vector(1 downto 0);
  signal w_valid, w_done, w_want, w_grant, w_hi_ld : std_logic;
  signal w_data : std_logic_vector(31 downto 0);
  -- which requester owns the initiator: changes only when no request is
  -- offered or running, or as one ends, so a request is never switched
  -- under the initiator
  signal sel_msi, inflight : std_logic := '0';
begin
  target : entity work.pci_target
    generic map (DISCARD_LOG2 => DISCARD_LOG2, N_SLOTS => N_SLOTS, NEXT_OUT => true)
    port map (
      clk => clk, rst => rst,
      ad_in => ad_in, ad_out => t_ad, ad_oe => t_ad_oe,
      cbe_n_in => cbe_n_in, par_in => par_in, par_out => t_par, par_oe => t_par_oe,
      frame_n_in => frame_n_in, irdy_n_in => irdy_n_in, idsel_in => idsel_in,
      trdy_n_in => trdy_n_in, trdy_n_out => n_trdy, trdy_n_oe => n_trdy_oe,
      devsel_n_in => devsel_n_in, devsel_n_out => n_devsel, devsel_n_oe => n_devsel_oe,
      stop_n_in => stop_n_in, stop_n_out => n_stop, stop_n_oe => n_stop_oe,
      perr_n_in => perr_n_in, perr_n_out => t_perr, perr_n_oe => t_perr_oe,
      serr_n_out => serr_n_out, serr_n_oe => open,
      perr_chk => t_perr_chk, serr_chk => t_serr_chk, par_x => t_par_x,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata,
      mem_enable => mem_enable, master_enable => c_master, perr_resp => c_perr,
      int_pending => int_pending, intx_assert => inta_n_oe,
      -- msi_data: the message data is read out of the RAM (pci_msi_raise)
      msi_enable => c_msi, msi_mme => c_mme, msi_data => open,
      msi_rd => c_rd, msi_rd_go => c_go, cfg_rd => c_rd_any, cfg_word => c_word,
      mst_data_perr => s_dperr, mst_rcv_tabort => s_tabort, mst_rcv_mabort => s_mabort,
      mst_det_perr => s_det, own_cycle => busy, lat_timer => lat,
      db_valid => db_valid, db_slot => db_slot, db_data => db_data, bad_write => bad_write);

  initiator : entity work.pci_initiator
    generic map (NEXT_OUT => true, HARD_LUTS => NEXT_OUT)
    port map (
      clk => clk, rst => rst,
      ad_in => ad_in, ad_out => i_ad, ad_oe => i_ad_oe,
      cbe_n_in => cbe_n_in, cbe_n_out => n_cbe, cbe_n_oe => n_cbe_oe,
      par_in => par_in, par_out => i_par, par_oe => i_par_oe,
      frame_n_in => frame_n_in, frame_n_out => n_frame, frame_n_oe => n_frame_oe,
      irdy_n_in => irdy_n_in, irdy_n_out => n_irdy, irdy_n_oe => n_irdy_oe,
      trdy_n_in => trdy_n_in, devsel_n_in => devsel_n_in, stop_n_in => stop_n_in,
      perr_n_in => perr_n_in, perr_n_out => i_perr, perr_n_oe => i_perr_oe,
      req_n => n_req, gnt_n => gnt_n,
      master_enable => c_master, perr_resp => c_perr, lat_timer => lat,
      mst_data_perr => s_dperr, mst_rcv_tabort => s_tabort, mst_rcv_mabort => s_mabort,
      mst_det_perr => s_det,
      dma_valid => m_valid, dma_ready => m_ready, dma_write => m_write,
      dma_addr => m_addr, dma_len => m_len, dma_wd_data => m_wd,
      dma_wd_ready => m_wd_ready, dma_rd_valid => dma_rd_valid, dma_rd_data => dma_rd_data,
      dma_done => m_done, dma_err => m_err,
      dma_hi_ld => w_hi_ld, dma_hi_keep => sel_msi,
      alt_ad => t_ad, alt_ad_oe => t_ad_oe, perr_chk => i_perr_chk, par_x => i_par_x,
      mst_busy => busy);

  msi : entity work.pci_msi_raise
    port map (
      clk => clk, rst => rst,
      irq_valid => irq_valid, irq_vector => irq_vector, irq_ready => irq_ready,
      irq_done => irq_done, irq_err => irq_err, irq_sent => irq_sent,
      msi_enable => c_msi, msi_mme => c_mme,
      msi_rd => c_rd, msi_rd_go => c_go, cfg_rd => c_rd_any, cfg_word => c_word(15 downto 0),
      wr_want => w_want, wr_grant => w_grant, wr_hi_ld => w_hi_ld,
      wr_valid => w_valid, wr_data => w_data,
      wr_ready => m_ready and sel_msi, wr_done => w_done, wr_err => m_err);

  -- requester selection: the card's MSI first when both wait (it is rare
  -- and short, and it only follows the DMA writes it announces)
  process (clk)
  begin
    if rising_edge(clk) then
      if m_ready = '1' then
        inflight <= '1';
      elsif m_done = '1' then
        inflight <= '0';
      end if;
      -- at the end of a request (the initiator takes nothing at that
      -- edge), or while nothing is offered or running. Choosing at the end
      -- keeps a requester that offers back to back from starving the MSI.
      if m_done = '1' or (m_valid = '0' and inflight = '0' and m_ready = '0') then
        sel_msi <= w_want;
      end if;
      if rst = '1' then
        inflight <= '0';
        sel_msi <= '0';
      end if;
    end if;
  end process;

  m_valid  <= w_valid when sel_msi = '1' else dma_valid;
  m_write  <= '1' when sel_msi = '1' else dma_write;
  -- the MSI's address dwords come out of the target's RAM one at a time
  -- (pci_msi_raise): the upper one with w_hi_ld, the lower one with w_valid
  w_grant  <= sel_msi and not inflight;
  m_addr   <= c_word & c_word(31 downto 2) when sel_msi = '1' else dma_addr;
  m_len    <= "00001" when sel_msi = '1' else dma_len;
  m_wd     <= w_data when sel_msi = '1' else dma_wd_data;
  w_done   <= m_done and sel_msi;
  dma_ready    <= m_ready and not sel_msi;
  dma_wd_ready <= m_wd_ready and not sel_msi;
  dma_done     <= m_done and not sel_msi;
  dma_err      <= m_err;

  -- shared pins (see the header), as next values: the select and the OR
  -- sit in front of the output registers, not between them and the pads
  -- AD: the initiator's one-LUT paths take the target's next value and
  -- enable in (alt_ad), so nothing sits between those LUTs and the pins
  n_ad     <= i_ad;
  n_ad_oe  <= i_ad_oe;
  -- PAR: each side's own (the target's from its registered inputs, the
  -- initiator's the parity of the pads a clock earlier)
  n_par    <= t_par when t_par_oe = '1' else i_par;
  n_par_oe <= i_par_oe or t_par_oe;
  -- PERR# and SERR#: due a clock after PAR, so one LUT of the live PAR
  -- over the driving side's check and parity (the sides' own PERR#
  -- values, t_perr and i_perr, are the same function in two LUTs)
  perr_chk   <= i_perr_chk when i_perr_oe = '1' else t_perr_chk;
  perr_par_x <= i_par_x when i_perr_oe = '1' else t_par_x;
  lut_perr : entity work.pci_lut4
    generic map (INIT => par_lut(true), HARD => NEXT_OUT)
    port map (i0 => par_in, i1 => perr_chk, i2 => perr_par_x, i3 => '0', o => n_perr);
  lut_serr : entity work.pci_lut4
    generic map (INIT => par_lut(false), HARD => NEXT_OUT)
    port map (i0 => par_in, i1 => t_serr_chk, i2 => t_par_x, i3 => '0', o => n_serr_oe);
  n_perr_oe <= i_perr_oe or t_perr_oe;

  -- the output registers: here (simulation, Verilator) or the board's
  -- I/O cells (NEXT_OUT), loaded from the same next values every clock
  regs_here : if not NEXT_OUT generate
    signal q_ad : std_logic_vector(31 downto 0) := (others => '0');
    signal q_cbe : std_logic_vector(3 downto 0) := (others => '0');
    signal q_oe : std_logic_vector(9 downto 0) := (others => '0');
    signal q_par, q_frame, q_irdy, q_trdy, q_devsel, q_stop, q_perr, q_req : std_logic := '1';
  begin
    -- no reset: in reset the next values are the reset values (floated,
    -- deasserted), loaded every clock like the I/O cells' registers, whose
    -- power-up value is 0 (every enable off)
    process (clk)
    begin
      if rising_edge(clk) then
        q_ad <= n_ad; q_cbe <= n_cbe; q_par <= n_par; q_frame <= n_frame;
        q_irdy <= n_irdy; q_trdy <= n_trdy; q_devsel <= n_devsel;
        q_stop <= n_stop; q_perr <= n_perr; q_req <= n_req;
        q_oe <= n_ad_oe & n_cbe_oe & n_par_oe & n_frame_oe & n_irdy_oe &
                n_trdy_oe & n_devsel_oe & n_stop_oe & n_perr_oe & n_serr_oe;
      end if;
    end process;
    ad_out <= q_ad; cbe_n_out <= q_cbe; par_out <= q_par; frame_n_out <= q_frame;
    irdy_n_out <= q_irdy; trdy_n_out <= q_trdy; devsel_n_out <= q_devsel;
    stop_n_out <= q_stop; perr_n_out <= q_perr; req_n <= q_req;
    ad_oe <= q_oe(9); cbe_n_oe <= q_oe(8); par_oe <= q_oe(7); frame_n_oe <= q_oe(6);
    irdy_n_oe <= q_oe(5); trdy_n_oe <= q_oe(4); devsel_n_oe <= q_oe(3);
    stop_n_oe <= q_oe(2); perr_n_oe <= q_oe(1); serr_n_oe <= q_oe(0);
  end generate;
  regs_board : if NEXT_OUT generate
    ad_out <= n_ad; cbe_n_out <= n_cbe; par_out <= n_par; frame_n_out <= n_frame;
    irdy_n_out <= n_irdy; trdy_n_out <= n_trdy; devsel_n_out <= n_devsel;
    stop_n_out <= n_stop; perr_n_out <= n_perr; req_n <= n_req;
    ad_oe <= n_ad_oe; cbe_n_oe <= n_cbe_oe; par_oe <= n_par_oe; frame_n_oe <= n_frame_oe;
    irdy_n_oe <= n_irdy_oe; trdy_n_oe <= n_trdy_oe; devsel_n_oe <= n_devsel_oe;
    stop_n_oe <= n_stop_oe; perr_n_oe <= n_perr_oe; serr_n_oe <= n_serr_oe;
  end generate;

  master_enable <= c_master;
  msi_enable    <= c_msi;
  msi_mme       <= c_mme;
end architecture;
