-- SPDX-License-Identifier: GPL-2.0-or-later
-- Pin-timing harness of the PCI interface (`make pci-io-fit`,
-- hdl/pci/fit/pci_io_fit.sh; docs/bitstream.md "Session 6: PCI pins"):
-- pci_interface behind the hx8k-pci board's own bus pads (pci_pads.vhd),
-- on the board's balls, with a small exerciser in place of the rest of the
-- card. Not the board top: the capture unit and the clock core are left out
-- so that placement takes a minute and every path nextpnr reports is the
-- PCI interface's (the card's own Fmax is `make test-card`'s).
--
-- The exerciser keeps every input of pci_interface live and every output
-- used, so synthesis removes nothing: a 32-bit accumulator takes doorbell
-- data, read data, register writes and the status outputs; register reads
-- return it (a one-clock back end, like clock_regs' ready); a doorbell
-- starts a DMA request whose address, length and direction come from the
-- doorbell data and the accumulator; its write words are the accumulator;
-- each dma_done raises an MSI whose vector is its error code; INTA# follows
-- an accumulator bit.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity pci_io_fit is
  generic (
    -- the board's choice (pci_pads REGISTERED, pci_interface NEXT_OUT);
    -- false measures the direct pads of sessions 4 and 5
    IO_REGS : boolean := true);
  port (
    pci_clk      : in    std_logic;
    pci_rst_n    : in    std_logic;
    pci_ad       : inout std_logic_vector(31 downto 0);
    pci_cbe_n    : inout std_logic_vector(3 downto 0);
    pci_par      : inout std_logic;
    pci_frame_n  : inout std_logic;
    pci_irdy_n   : inout std_logic;
    pci_trdy_n   : inout std_logic;
    pci_devsel_n : inout std_logic;
    pci_stop_n   : inout std_logic;
    pci_perr_n   : inout std_logic;
    pci_serr_n   : out   std_logic;
    pci_inta_n   : out   std_logic;
    pci_req_n    : out   std_logic;
    pci_gnt_n    : in    std_logic;
    pci_idsel    : in    std_logic);
end entity;

architecture fit of pci_io_fit is
  signal clk, rst_n_pin, rst_req, rst : std_logic;
  signal ad_in, ad_out : std_logic_vector(31 downto 0);
  signal cbe_in, cbe_out : std_logic_vector(3 downto 0);
  signal ad_oe, cbe_oe, par_in, par_out, par_oe : std_logic;
  signal frame_in, frame_out, frame_oe, irdy_in, irdy_out, irdy_oe : std_logic;
  signal trdy_in, trdy_out, trdy_oe, devsel_in, devsel_out, devsel_oe : std_logic;
  signal stop_in, stop_out, stop_oe, perr_in, perr_out, perr_oe : std_logic;
  signal serr_out, serr_oe, inta_oe, req_out, gnt_in, idsel_in : std_logic;

  signal reg_valid, reg_write, reg_ready, bad_write : std_logic;
  signal reg_addr : std_logic_vector(11 downto 2);
  signal reg_wdata, reg_rdata : std_logic_vector(31 downto 0);
  signal db_valid : std_logic;
  signal db_slot : std_logic_vector(3 downto 0);
  signal db_data : std_logic_vector(31 downto 0);
  signal dma_valid, dma_ready, dma_write, dma_wd_ready, dma_rd_valid, dma_done : std_logic;
  signal dma_addr : std_logic_vector(63 downto 2);
  signal dma_len : std_logic_vector(4 downto 0);
  signal dma_rd_data : std_logic_vector(31 downto 0);
  signal dma_err, irq_err : std_logic_vector(1 downto 0);
  signal int_pending, irq_valid, irq_ready, irq_done, irq_sent : std_logic;
  signal irq_vector : std_logic_vector(1 downto 0);
  signal mem_enable, master_enable, msi_enable : std_logic;
  signal msi_mme : std_logic_vector(2 downto 0);

  signal acc : std_logic_vector(31 downto 0) := (others => '0');
  signal rdy_q, req_v, irq_v : std_logic := '0';
  signal req_a : std_logic_vector(63 downto 2) := (others => '0');
  signal req_l : std_logic_vector(4 downto 0) := (others => '0');
  signal req_w : std_logic := '0';
  signal vec_q : std_logic_vector(1 downto 0) := "00";
  signal status : std_logic_vector(31 downto 0);
begin
  -- PCI CLK on its GBIN, straight onto a global network (as the board)
  clk <= pci_clk;
  rst_pin : entity work.ice40_pin_in
    port map (pin => pci_rst_n, d => rst_n_pin);
  rst_req <= not rst_n_pin;
  rst_sync : entity work.sync_bit
    generic map (INIT => '1')
    port map (clk => clk, din => rst_req, dout => rst);

  pads : entity work.pci_pads
    generic map (REGISTERED => IO_REGS)
    port map (
      clk => clk, rst_n => rst_n_pin,
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
      gnt_in => gnt_in, idsel_in => idsel_in);

  -- (label not "pci": GHDL names instance port nets label_port, and
  -- pci_req_n would collide with the top-level pin)
  core : entity work.pci_interface
    generic map (NEXT_OUT => IO_REGS)
    port map (
      clk => clk, rst => rst,
      ad_in => ad_in, ad_out => ad_out, ad_oe => ad_oe,
      cbe_n_in => cbe_in, cbe_n_out => cbe_out, cbe_n_oe => cbe_oe,
      par_in => par_in, par_out => par_out, par_oe => par_oe,
      frame_n_in => frame_in, frame_n_out => frame_out, frame_n_oe => frame_oe,
      irdy_n_in => irdy_in, irdy_n_out => irdy_out, irdy_n_oe => irdy_oe,
      trdy_n_in => trdy_in, trdy_n_out => trdy_out, trdy_n_oe => trdy_oe,
      devsel_n_in => devsel_in, devsel_n_out => devsel_out, devsel_n_oe => devsel_oe,
      stop_n_in => stop_in, stop_n_out => stop_out, stop_n_oe => stop_oe,
      perr_n_in => perr_in, perr_n_out => perr_out, perr_n_oe => perr_oe,
      serr_n_out => serr_out, serr_n_oe => serr_oe, idsel_in => idsel_in,
      req_n => req_out, gnt_n => gnt_in, inta_n_oe => inta_oe,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata,
      bad_write => bad_write,
      db_valid => db_valid, db_slot => db_slot, db_data => db_data,
      dma_valid => dma_valid, dma_ready => dma_ready, dma_write => dma_write,
      dma_addr => dma_addr, dma_len => dma_len, dma_wd_data => acc,
      dma_wd_ready => dma_wd_ready, dma_rd_valid => dma_rd_valid,
      dma_rd_data => dma_rd_data, dma_done => dma_done, dma_err => dma_err,
      int_pending => int_pending, irq_valid => irq_valid, irq_vector => irq_vector,
      irq_ready => irq_ready, irq_done => irq_done, irq_err => irq_err,
      irq_sent => irq_sent,
      mem_enable => mem_enable, master_enable => master_enable,
      msi_enable => msi_enable, msi_mme => msi_mme);

  status <= x"000" & serr_out & bad_write & db_slot & dma_wd_ready & dma_err &
            irq_ready & irq_done & irq_err & irq_sent & mem_enable & master_enable &
            msi_enable & msi_mme;

  process (clk)
  begin
    if rising_edge(clk) then
      -- the accumulator: everything the interface hands out goes in
      acc <= (acc(30 downto 0) & acc(31)) xor status;
      if db_valid = '1' then
        acc <= acc xor db_data;
      elsif dma_rd_valid = '1' then
        acc <= acc xor dma_rd_data;
      elsif reg_valid = '1' and reg_write = '1' then
        acc <= acc xor reg_wdata;
      end if;
      -- register back end: ready the clock after valid, data = acc ^ address
      rdy_q <= reg_valid and not rdy_q;
      reg_rdata <= acc xor (x"00000" & "00" & reg_addr);
      -- a doorbell asks for a DMA request (held until taken)
      if req_v = '1' and dma_ready = '1' then
        req_v <= '0';
      elsif db_valid = '1' and req_v = '0' then
        req_v <= '1';
        req_a <= acc & db_data(31 downto 2);
        req_l <= db_data(4 downto 0);
        req_w <= db_data(5);
      end if;
      -- each request's end raises an MSI (vector = its error code)
      if irq_v = '1' and irq_ready = '1' then
        irq_v <= '0';
      elsif dma_done = '1' then
        irq_v <= '1';
        vec_q <= dma_err;
      end if;
      if rst = '1' then
        acc <= (others => '0');
        rdy_q <= '0';
        req_v <= '0';
        irq_v <= '0';
      end if;
    end if;
  end process;
  reg_ready   <= rdy_q;
  dma_valid   <= req_v;
  dma_addr    <= req_a;
  dma_len     <= req_l;
  dma_write   <= req_w;
  irq_valid   <= irq_v;
  irq_vector  <= vec_q;
  int_pending <= acc(0);
end architecture;
