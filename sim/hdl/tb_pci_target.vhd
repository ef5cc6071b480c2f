-- SPDX-License-Identifier: GPL-2.0-or-later
-- Self-checking testbench of pci_target: a PCI master bus-functional model
-- (the host bridge, doing what Linux does), a register back end that answers
-- after random latency, and pci_checker watching every clock.
-- Covered: configuration reads of IDs/class/subsystem, BAR0 sizing exactly
-- like Linux's __pci_read_base (decode off, save, write ~0, read, restore),
-- enabling memory space, the MSI capability walk and programming like
-- pci_enable_msi_range (control, address lo/hi, data, MME, enable), BAR0
-- writes (posted) and reads (delayed, retried) against the back end with
-- random latency, one-execution of side-effect reads, retry of accesses
-- while the back end is busy, bursts cut after the first word, byte enables
-- (partial writes ignored and reported), address and write-data parity
-- errors (PERR#, SERR#, status bits, RW1C), no DEVSEL# with memory space
-- off / outside BAR0 / other functions, the delayed-read discard timer,
-- initiator status inputs and INTx gating; doorbells: accepted in their
-- first data phase while the back end is busy (never retried), db_valid
-- exactly DB_LATENCY clocks after each data phase with its slot and data
-- (any byte enables), offsets that are no doorbell pulse bad_write, bursts
-- cut to one word, window reads complete at once with 0.
-- FAULT (hand mutation switch): 1 = the master drops IRDY# before its data
-- phase completes, 2 = the master keeps driving AD into a read's data
-- phase (no turnaround). pci_checker must stop the run for each.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;
use work.synpcix_pci_ids_pkg.all;
use work.synpcix_regs_pkg.all;

entity tb_pci_target is
  generic (FAULT : natural := 0);
end entity;

architecture sim of tb_pci_target is
  constant T_CLK : time := 15 ns;   -- 66 MHz
  subtype word is std_logic_vector(31 downto 0);

  signal clk  : std_logic := '0';
  signal rst  : std_logic := '1';
  signal done : boolean := false;

  -- resolved bus
  signal ad : std_logic_vector(31 downto 0);
  signal cbe_n : std_logic_vector(3 downto 0);
  signal par, frame_n, irdy_n, trdy_n, devsel_n, stop_n, perr_n, serr_n : std_logic;
  signal idsel : std_logic := '0';

  -- master model drivers
  signal m_ad : word := (others => '0');
  signal m_cbe : std_logic_vector(3 downto 0) := "1111";
  signal m_ad_oe, m_cbe_oe, m_fi_oe, m_par_oe : std_logic := '0';
  signal m_frame, m_irdy, m_par : std_logic := '1';
  signal m_par_flip : std_logic := '0';

  -- target
  signal t_ad : word;
  signal t_ad_oe, t_par, t_par_oe, t_trdy, t_trdy_oe, t_devsel, t_devsel_oe : std_logic;
  signal t_stop, t_stop_oe, t_perr, t_perr_oe, t_serr, t_serr_oe : std_logic;

  -- back end
  signal reg_valid, reg_write, reg_ready : std_logic := '0';
  signal reg_addr : std_logic_vector(11 downto 2);
  signal reg_wdata, reg_rdata : word := (others => '0');
  type mem_t is array (0 to 1023) of word;
  signal be_reads, be_writes, be_errors : natural := 0;
  signal be_mem_probe : natural := 0;        -- offset the test wants to look at
  signal be_mem_value : word;
  constant POP_OFF : natural := 16#100#;     -- read side effect: returns 0,1,2,..

  signal mem_enable, master_enable, perr_resp, int_pending, intx_assert : std_logic;
  signal msi_enable : std_logic;
  signal msi_mme : std_logic_vector(2 downto 0);
  signal msi_data : std_logic_vector(15 downto 0);
  -- the MSI address is read out of the configuration RAM (pci_msi_raise's port)
  signal msi_rd : std_logic_vector(1 downto 0) := "00";
  signal msi_rd_go : std_logic;
  signal cfg_word : word;
  signal mst_data_perr, mst_rcv_tabort, mst_rcv_mabort, mst_det_perr : std_logic := '0';
  signal bad_write : std_logic;
  signal bad_writes : natural := 0;
  signal lat_timer : std_logic_vector(7 downto 0);
  signal db_valid : std_logic;
  signal db_slot : std_logic_vector(3 downto 0);
  signal db_data : word;
  -- doorbell monitor: strobes seen, and strobes whose timing/slot/data was wrong
  signal db_seen, db_bad : natural := 0;
  constant BAR_ADDR : word := x"FEB05000";
  signal be_slow : boolean := false;   -- the back end answers after 40 clocks

  signal m_par_errors, perr_seen, serr_seen, b2b_seen, checks : natural;

  function xor_all (v : std_logic_vector) return std_logic is
    variable r : std_logic := '0';
  begin
    for i in v'range loop r := r xor v(i); end loop;
    return r;
  end function;
  function hex (v : std_logic_vector) return string is
  begin
    return to_hstring(v);
  end function;
begin
  clk <= not clk after T_CLK / 2 when not done;

  -- the bus: drivers when enabled, pull-ups on the control lines
  ad <= m_ad when m_ad_oe = '1' else (others => 'Z');
  ad <= t_ad when t_ad_oe = '1' else (others => 'Z');
  cbe_n <= m_cbe when m_cbe_oe = '1' else (others => 'Z');
  par <= m_par when m_par_oe = '1' else 'Z';
  par <= t_par when t_par_oe = '1' else 'Z';
  frame_n <= m_frame when m_fi_oe = '1' else 'H';
  irdy_n <= m_irdy when m_fi_oe = '1' else 'H';
  trdy_n <= t_trdy when t_trdy_oe = '1' else 'H';
  devsel_n <= t_devsel when t_devsel_oe = '1' else 'H';
  stop_n <= t_stop when t_stop_oe = '1' else 'H';
  perr_n <= t_perr when t_perr_oe = '1' else 'H';
  serr_n <= t_serr when t_serr_oe = '1' else 'H';

  -- the master's PAR: one clock after its AD, even parity, flip on request
  process (clk)
  begin
    if rising_edge(clk) then
      m_par <= xor_all(m_ad) xor xor_all(m_cbe) xor m_par_flip;
      m_par_oe <= m_ad_oe;
    end if;
  end process;

  dut : entity work.pci_target
    port map (
      clk => clk, rst => rst,
      ad_in => to_x01(ad), ad_out => t_ad, ad_oe => t_ad_oe,
      cbe_n_in => to_x01(cbe_n), par_in => to_x01(par), par_out => t_par, par_oe => t_par_oe,
      frame_n_in => to_x01(frame_n), irdy_n_in => to_x01(irdy_n), idsel_in => idsel,
      trdy_n_in => to_x01(trdy_n), trdy_n_out => t_trdy, trdy_n_oe => t_trdy_oe,
      devsel_n_in => to_x01(devsel_n), devsel_n_out => t_devsel, devsel_n_oe => t_devsel_oe,
      stop_n_in => to_x01(stop_n), stop_n_out => t_stop, stop_n_oe => t_stop_oe,
      perr_n_in => to_x01(perr_n), perr_n_out => t_perr, perr_n_oe => t_perr_oe,
      serr_n_out => t_serr, serr_n_oe => t_serr_oe,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata,
      mem_enable => mem_enable, master_enable => master_enable, perr_resp => perr_resp,
      int_pending => int_pending, intx_assert => intx_assert,
      msi_enable => msi_enable, msi_mme => msi_mme, msi_data => msi_data,
      msi_rd => msi_rd, msi_rd_go => msi_rd_go, cfg_word => cfg_word,
      mst_data_perr => mst_data_perr, mst_rcv_tabort => mst_rcv_tabort,
      mst_rcv_mabort => mst_rcv_mabort, mst_det_perr => mst_det_perr, lat_timer => lat_timer,
      db_valid => db_valid, db_slot => db_slot, db_data => db_data, bad_write => bad_write);

  -- doorbell monitor: from the bus alone, the edge at which each doorbell
  -- write's data phase completed (IRDY# and TRDY# low), its slot and data;
  -- db_valid must be sampled exactly DB_LATENCY edges later with both
  db_mon : process (clk)
    constant DB_LATENCY : natural := 1;    -- pci_target's default generic
    variable edge : natural := 0;
    variable a_addr : unsigned(31 downto 0);
    variable a_wr : boolean := false;
    type q_t is array (0 to 15) of natural;
    variable q_edge : q_t;
    type qs_t is array (0 to 15) of natural;
    variable q_slot : qs_t;
    type qd_t is array (0 to 15) of word;
    variable q_data : qd_t;
    variable q_n : natural := 0;
    variable off : natural;
    variable p_frame : std_logic := '1';
  begin
    if rising_edge(clk) then
      edge := edge + 1;
      if db_valid = '1' then
        if q_n = 0 then
          report "doorbell strobe without a doorbell write" severity error;
          db_bad <= db_bad + 1;
        else
          if edge - q_edge(0) /= DB_LATENCY or to_integer(unsigned(db_slot)) /= q_slot(0) or
             db_data /= q_data(0) then
            report "doorbell strobe: " & integer'image(edge - q_edge(0)) & " clocks, slot " &
                   integer'image(to_integer(unsigned(db_slot))) & " data " & to_hstring(db_data) &
                   "; expected " & integer'image(DB_LATENCY) & ", " & integer'image(q_slot(0)) &
                   ", " & to_hstring(q_data(0)) severity error;
            db_bad <= db_bad + 1;
          end if;
          db_seen <= db_seen + 1;
          q_edge(0 to 14) := q_edge(1 to 15); q_slot(0 to 14) := q_slot(1 to 15);
          q_data(0 to 14) := q_data(1 to 15);
          q_n := q_n - 1;
        end if;
      end if;
      if to_x01(frame_n) = '0' and p_frame = '1' then
        -- address phase: a memory write into BAR0's doorbell window?
        a_addr := unsigned(to_x01(ad));
        a_wr := (cbe_n = "0111" or cbe_n = "1111") and mem_enable = '1' and
                a_addr(31 downto 12) = unsigned(BAR_ADDR(31 downto 12)) and
                to_integer(a_addr(11 downto 0)) >= RSV_DOORBELLS_BASE;
      end if;
      p_frame := to_x01(frame_n);
      if to_x01(irdy_n) = '0' and to_x01(trdy_n) = '0' and a_wr then
        -- a completing data phase of a write to a built doorbell
        off := to_integer(a_addr(11 downto 0)) - RSV_DOORBELLS_BASE;
        if off mod RSV_DOORBELLS_STRIDE = 0 and off / RSV_DOORBELLS_STRIDE < 4 then
          q_edge(q_n) := edge;
          q_slot(q_n) := off / RSV_DOORBELLS_STRIDE;
          q_data(q_n) := to_x01(ad);
          q_n := q_n + 1;
        end if;
      end if;
      if to_x01(irdy_n) = '0' and (to_x01(trdy_n) = '0' or to_x01(stop_n) = '0') and
         to_x01(frame_n) = '1' then
        a_wr := false;
      end if;
    end if;
  end process;

  chk : entity work.pci_checker
    generic map (DEVSEL_CLKS => 3)
    port map (
      clk => clk, rst => rst, ad => ad, cbe_n => cbe_n, par => to_x01(par),
      frame_n => to_x01(frame_n), irdy_n => to_x01(irdy_n), trdy_n => to_x01(trdy_n),
      devsel_n => to_x01(devsel_n), stop_n => to_x01(stop_n), perr_n => to_x01(perr_n),
      serr_n => to_x01(serr_n),
      m_ad_oe => m_ad_oe, m_par_oe => m_par_oe, m_cbe_oe => m_cbe_oe, m_frame_oe => m_fi_oe,
      m_irdy_oe => m_fi_oe, t_ad_oe => t_ad_oe, t_par_oe => t_par_oe, t_trdy_oe => t_trdy_oe,
      t_devsel_oe => t_devsel_oe, t_stop_oe => t_stop_oe, t_perr_oe => t_perr_oe,
      m_par_errors => m_par_errors, perr_seen => perr_seen, serr_seen => serr_seen,
      b2b_seen => b2b_seen, checks => checks);

  process (clk)
  begin
    if rising_edge(clk) and bad_write = '1' then
      bad_writes <= bad_writes + 1;
    end if;
  end process;

  -- register back end: answers after 0..12 clocks, sometimes 40; checks
  -- that a request is held unchanged until its ready
  backend : process
    variable mem : mem_t;
    variable s1, s2 : positive := 7;
    variable r : real;
    variable lat : natural;
    variable a : natural;
    variable w : std_logic;
    variable d : word;
    variable pops : natural := 0;
  begin
    for i in mem'range loop
      mem(i) := std_logic_vector(to_unsigned(i * 65537 + 16#1000#, 32));
    end loop;
    loop
      wait until rising_edge(clk);
      uniform(s1, s2, r);
      reg_rdata <= std_logic_vector(to_unsigned(integer(r * 65535.0), 16)) & x"DEAD";
      be_mem_value <= mem(be_mem_probe);
      if reg_valid = '1' then
        a := to_integer(unsigned(reg_addr));
        w := reg_write;
        d := reg_wdata;
        uniform(s1, s2, r);
        lat := integer(r * 12.0);
        if r > 0.93 or be_slow then lat := 40; end if;
        for i in 1 to lat loop
          wait until rising_edge(clk);
          be_mem_value <= mem(be_mem_probe);
          reg_rdata <= x"BAD0BAD0";
          if reg_valid /= '1' or reg_write /= w or to_integer(unsigned(reg_addr)) /= a or
             (w = '1' and reg_wdata /= d) then
            report "back end: request changed before ready" severity error;
            be_errors <= be_errors + 1;
          end if;
        end loop;
        if w = '1' then
          mem(a) := d;
          be_writes <= be_writes + 1;
          reg_rdata <= x"BAD1BAD1";
        else
          if a * 4 = POP_OFF then
            reg_rdata <= std_logic_vector(to_unsigned(pops, 32));
            pops := pops + 1;
          else
            reg_rdata <= mem(a);
          end if;
          be_reads <= be_reads + 1;
        end if;
        reg_ready <= '1';
        wait until rising_edge(clk);
        reg_ready <= '0';
        be_mem_value <= mem(be_mem_probe);
      end if;
    end loop;
  end process;

  test : process
    type res_t is (R_DATA, R_RETRY, R_MABORT);
    variable errors : natural := 0;
    variable s1, s2 : positive := 3;
    variable r : real;
    variable rd, v, saved, sz, orig_cmd : word;
    variable res : res_t;
    variable nwords : natural;
    constant BAR : word := BAR_ADDR;
    type be_list is array (0 to 1) of std_logic_vector(3 downto 0);
    constant dbe : be_list := ("0000", "1100");
    type nat_list is array (0 to 2) of natural;
    constant bad_slot : nat_list := (4, 1, 2);
    constant bad_byte : nat_list := (0, 4, 8);
    constant MSI_A : std_logic_vector(63 downto 0) := x"00000001FEE0100C";
    variable exp : mem_t;
    variable offs : natural;
    variable n_mem_ok : natural := 0;
    -- fast back-to-back: chain makes the next cycle's address phase follow
    -- this one's last data phase with no idle clock (only after writes)
    variable chain, chained : boolean := false;
    -- master wait states before the first data phase: 0, 1, 2, 0, ... per
    -- transaction (a target that asserted TRDY# before it saw IRDY# could
    -- not know at which edge the data phase ends: pci_checker catches it)
    variable n_cycles : natural := 0;

    procedure check (cond : boolean; msg : string) is
    begin
      if not cond then
        errors := errors + 1;
        report "tb_pci_target: FAIL: " & msg severity error;
      end if;
    end procedure;

    procedure clocks (n : natural) is
    begin
      for i in 1 to n loop
        wait until rising_edge(clk);
      end loop;
    end procedure;

    -- one bus transaction of the master: nphases data phases (1 or 2)
    procedure cycle (cmd : std_logic_vector(3 downto 0); addr : word; sel : std_logic;
                     write : boolean; wdata : word; be : std_logic_vector(3 downto 0);
                     nphases : positive; bad_apar, bad_dpar : boolean;
                     rdata : out word; result : out res_t; words : out natural) is
      variable seen : boolean := false;
      variable n, clk_n : natural := 0;
      variable last : boolean;
    begin
      if not chained then
        wait until rising_edge(clk);
      end if;
      chained := false;
      m_fi_oe <= '1'; m_frame <= '0'; m_irdy <= '1';
      m_ad <= addr; m_ad_oe <= '1'; m_cbe <= cmd; m_cbe_oe <= '1'; idsel <= sel;
      m_par_flip <= '1' when bad_apar else '0';
      wait until rising_edge(clk);                     -- address phase
      idsel <= '0';
      m_cbe <= be;
      m_par_flip <= '0';
      if write then
        m_ad <= wdata;
        m_par_flip <= '1' when bad_dpar else '0';
      elsif FAULT /= 2 then
        m_ad_oe <= '0';                                -- turnaround
      end if;
      last := nphases = 1;
      n_cycles := n_cycles + 1;
      for i in 1 to n_cycles mod 3 loop
        m_irdy <= '1';               -- FRAME# stays asserted until IRDY# is
        wait until rising_edge(clk);
        clk_n := clk_n + 1;
        if to_x01(devsel_n) = '0' then seen := true; end if;
        check(to_x01(trdy_n) = '1' and to_x01(stop_n) = '1', "TRDY#/STOP# before IRDY#");
      end loop;
      m_irdy <= '0';
      m_frame <= '1' when last else '0';
      rdata := (others => 'X');
      result := R_RETRY;
      loop
        wait until rising_edge(clk);
        clk_n := clk_n + 1;
        if FAULT = 1 and clk_n = 1 and write then
          m_irdy <= '1';                               -- mutation: IRDY# dropped early
        end if;
        if to_x01(devsel_n) = '0' then seen := true; end if;
        if m_irdy = '0' and (to_x01(trdy_n) = '0' or to_x01(stop_n) = '0') then
          if to_x01(trdy_n) = '0' then
            n := n + 1;
            if not write and n = 1 then rdata := to_x01(ad); end if;
            result := R_DATA;
          end if;
          m_par_flip <= '0';
          if last then
            m_irdy <= '1';
            m_ad_oe <= '0';
            m_cbe_oe <= '0';
            exit;
          end if;
          -- more to do: a second (last) data phase unless STOP# said no
          last := true;
          m_frame <= '1';
          if write then m_ad <= not wdata; end if;
        elsif not seen and clk_n >= 4 then
          -- master abort: nobody claimed it within 5 clocks of the address
          result := R_MABORT;
          if m_frame = '0' then
            m_frame <= '1';
            wait until rising_edge(clk);
          end if;
          m_irdy <= '1';
          m_ad_oe <= '0';
          m_cbe_oe <= '0';
          exit;
        end if;
      end loop;
      words := n;
      if chain then
        chain := false;
        chained := true;      -- the caller's next cycle drives FRAME# now
        return;
      end if;
      wait until rising_edge(clk);
      m_fi_oe <= '0';
      m_par_flip <= '0';
    end procedure;

    function cfg_addr (off : natural; func : natural := 0) return word is
    begin
      return std_logic_vector(to_unsigned(func * 256 + off - off mod 4, 32));
    end function;

    -- config accesses as Linux issues them (byte enables from size and offset)
    function cfg_be (off, size : natural) return std_logic_vector is
      variable be : std_logic_vector(3 downto 0) := "1111";
    begin
      for i in 0 to size - 1 loop
        be((off mod 4) + i) := '0';
      end loop;
      return be;
    end function;

    -- the MSI address dword sel ("01" low, "10" high) as pci_msi_raise
    -- reads it: asked until the target reads it, then from cfg_word
    procedure msi_word (sel : std_logic_vector(1 downto 0); value : out word) is
    begin
      msi_rd <= sel;
      loop
        wait until rising_edge(clk);
        exit when msi_rd_go = '1';
      end loop;
      msi_rd <= "00";
      wait for 1 ns;
      value := cfg_word;
    end procedure;

    procedure cfg_read (off : natural; size : natural; value : out word) is
      variable d : word;
      variable n : natural;
    begin
      cycle("1010", cfg_addr(off), '1', false, x"00000000", cfg_be(off, size), 1, false, false, d, res, n);
      check(res = R_DATA and n = 1, "config read " & integer'image(off) & " not completed");
      d := std_logic_vector(shift_right(unsigned(d), 8 * (off mod 4)));
      if size = 1 then d := x"000000" & d(7 downto 0);
      elsif size = 2 then d := x"0000" & d(15 downto 0);
      end if;
      value := d;
    end procedure;

    procedure cfg_write (off : natural; size : natural; value : word) is
      variable d, rd_dummy : word;
      variable n : natural;
    begin
      d := std_logic_vector(shift_left(unsigned(value), 8 * (off mod 4)));
      -- repeated while retried (the target retries configuration writes
      -- while its back end is busy), as a host bridge does
      for i in 1 to 200 loop
        cycle("1011", cfg_addr(off), '1', true, d, cfg_be(off, size), 1, false, false, rd_dummy, res, n);
        exit when res /= R_RETRY;
      end loop;
      check(res = R_DATA and n = 1, "config write " & integer'image(off) & " not completed");
    end procedure;

    -- a host bridge's read: repeat the retried request until data comes
    procedure mem_read (off : natural; value : out word; be : std_logic_vector(3 downto 0) := "0000") is
      variable n, tries : natural := 0;
      variable d : word;
    begin
      loop
        cycle("0110", std_logic_vector(unsigned(BAR) + off), '0', false, x"00000000", be,
              1, false, false, d, res, n);
        exit when res /= R_RETRY;
        tries := tries + 1;
        check(tries < 200, "read of " & integer'image(off) & " retried forever");
        exit when tries >= 200;
        uniform(s1, s2, r);
        clocks(integer(r * 6.0));
      end loop;
      check(res = R_DATA, "read of " & integer'image(off) & " not completed");
      value := d;
    end procedure;

    procedure mem_write (off : natural; value : word; be : std_logic_vector(3 downto 0) := "0000") is
      variable n, tries : natural := 0;
      variable d : word;
    begin
      loop
        cycle("0111", std_logic_vector(unsigned(BAR) + off), '0', true, value, be,
              1, false, false, d, res, n);
        exit when res /= R_RETRY;
        tries := tries + 1;
        check(tries < 200, "write retried forever");
        exit when tries >= 200;
      end loop;
      check(res = R_DATA and n = 1, "write of " & integer'image(off) & " not completed");
    end procedure;

    procedure idle_backend is
    begin
      for i in 1 to 100 loop
        wait until rising_edge(clk);
        exit when reg_valid = '0';
      end loop;
      check(reg_valid = '0', "back end still busy");
    end procedure;

    procedure probe (off : natural; value : out word) is
    begin
      be_mem_probe <= off / 4;
      clocks(2);
      value := be_mem_value;
    end procedure;

  begin
    int_pending <= '0';
    clocks(4);
    rst <= '0';
    clocks(4);

    -- identity (Linux: pci_setup_device reads these)
    cfg_read(0, 4, rd);
    check(rd = PCI_DEVICE_ID & PCI_VENDOR_ID, "vendor/device ID " & hex(rd));
    cfg_read(0, 2, rd);
    check(rd(15 downto 0) = PCI_VENDOR_ID, "vendor ID word");
    cfg_read(16#08#, 4, rd);
    check(rd = PCI_CLASS & x"00", "class/revision " & hex(rd));
    cfg_read(16#0E#, 1, rd);
    check(rd = x"00000000", "header type");
    cfg_read(16#2C#, 4, rd);
    check(rd = PCI_SUBDEVICE_ID & PCI_SUBVENDOR_ID, "subsystem IDs " & hex(rd));
    cfg_read(16#3D#, 1, rd);
    check(rd = x"00000001", "interrupt pin INTA#");
    cfg_read(16#06#, 2, rd);
    check(rd = x"00000430", "status after reset " & hex(rd));
    -- the other functions and a non-selected device do not answer
    cycle("1010", cfg_addr(0, 1), '1', false, x"00000000", "0000", 1, false, false, rd, res, nwords);
    check(res = R_MABORT, "function 1 answered");
    cycle("1010", cfg_addr(0), '0', false, x"00000000", "0000", 1, false, false, rd, res, nwords);
    check(res = R_MABORT, "answered without IDSEL");

    -- BAR sizing as __pci_read_base: decode off, save, ~0, read, restore
    cfg_read(16#04#, 2, orig_cmd);
    cfg_write(16#04#, 2, orig_cmd and x"FFFFFFFC");
    cfg_read(16#10#, 4, saved);
    cfg_write(16#10#, 4, x"FFFFFFFF");
    cfg_read(16#10#, 4, sz);
    cfg_write(16#10#, 4, saved);
    check(sz = x"FFFFF000", "BAR0 size mask " & hex(sz) & " (4 KiB memory, 32 bit, non-prefetchable)");
    cfg_read(16#10#, 4, rd);
    check(rd = saved, "BAR0 restore");
    for i in 1 to 5 loop
      cfg_write(16#10# + 4 * i, 4, x"FFFFFFFF");
      cfg_read(16#10# + 4 * i, 4, rd);
      check(rd = x"00000000", "BAR" & integer'image(i) & " not implemented");
    end loop;
    cfg_write(16#04#, 2, orig_cmd);
    -- assign the address, then pci_enable_device + pci_set_master
    cfg_write(16#10#, 4, BAR);
    cfg_read(16#10#, 4, rd);
    check(rd = BAR(31 downto 12) & x"000", "BAR0 assigned " & hex(rd));
    -- memory space still off: no DEVSEL#
    cycle("0110", BAR, '0', false, x"00000000", "0000", 1, false, false, rd, res, nwords);
    check(res = R_MABORT, "memory read claimed with memory space disabled");
    cycle("0111", BAR, '0', true, x"12345678", "0000", 1, false, false, rd, res, nwords);
    check(res = R_MABORT, "memory write claimed with memory space disabled");
    cfg_read(16#04#, 2, rd);
    cfg_write(16#04#, 2, rd or x"00000146");    -- memory, master, parity response, SERR#
    cfg_read(16#04#, 2, rd);
    check(rd(15 downto 0) = x"0146", "command " & hex(rd));
    check(mem_enable = '1' and master_enable = '1' and perr_resp = '1', "command outputs");
    cfg_write(16#3C#, 1, x"0000000B");
    cfg_read(16#3C#, 4, rd);
    check(rd = x"0000010B", "interrupt line/pin " & hex(rd));
    -- outside BAR0: not claimed
    cycle("0110", std_logic_vector(unsigned(BAR) + 4096), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_MABORT, "claimed outside BAR0");

    -- MSI: capability walk and programming as pci_enable_msi_range
    cfg_read(16#06#, 2, rd);
    check(rd(4) = '1', "capability list bit");
    cfg_read(16#34#, 1, rd);
    offs := to_integer(unsigned(rd(7 downto 2))) * 4;
    check(offs = 16#40#, "capability pointer");
    cfg_read(offs, 1, rd);
    check(rd = x"00000005", "capability ID is MSI");
    cfg_read(offs + 1, 1, rd);
    check(rd = x"00000000", "MSI is the last capability");
    cfg_read(offs + 2, 2, rd);
    check(rd(7) = '1', "MSI 64-bit capable");
    check(rd(3 downto 1) = "010", "MSI multiple message capable = 4 vectors");
    check(rd(0) = '0', "MSI disabled after reset");
    -- msi_capability_init: message first, then MME, then enable
    cfg_write(offs + 4, 4, MSI_A(31 downto 0));
    cfg_write(offs + 8, 4, MSI_A(63 downto 32));
    cfg_write(offs + 12, 2, x"00004021");
    cfg_read(offs + 2, 2, v);
    cfg_write(offs + 2, 2, (v and x"FFFFFF8F") or x"00000020");   -- 4 vectors
    cfg_read(offs + 2, 2, v);
    cfg_write(offs + 2, 2, v or x"00000001");
    cfg_read(offs + 4, 4, rd);
    check(rd = x"FEE0100C", "MSI address lo " & hex(rd));
    cfg_read(offs + 8, 4, rd);
    check(rd = x"00000001", "MSI address hi " & hex(rd));
    cfg_read(offs + 12, 2, rd);
    check(rd = x"00004021", "MSI data " & hex(rd));
    check(msi_enable = '1' and msi_mme = "010" and msi_data = x"4021", "MSI ports");
    msi_word("01", rd);
    check(rd = MSI_A(31 downto 0), "MSI address lo through msi_rd " & hex(rd));
    msi_word("10", rd);
    check(rd = MSI_A(63 downto 32), "MSI address hi through msi_rd " & hex(rd));
    -- more vectors than offered are not granted
    cfg_write(offs + 2, 2, v or x"00000071");
    cfg_read(offs + 2, 2, rd);
    check(rd(6 downto 4) = "010", "MME clamped to MMC");
    -- INTx: gated by MSI enable and interrupt disable; status bit 3 reflects it
    int_pending <= '1';
    clocks(1);
    check(intx_assert = '0', "INTx while MSI is on");
    cfg_read(16#06#, 2, rd);
    check(rd(3) = '1', "interrupt status");
    cfg_write(offs + 2, 2, v and x"FFFFFFFE");
    clocks(1);
    check(intx_assert = '1', "INTx with MSI off");
    cfg_read(16#04#, 2, rd);
    cfg_write(16#04#, 2, rd or x"00000400");
    clocks(1);
    check(intx_assert = '0', "INTx disable");
    cfg_write(16#04#, 2, rd);
    int_pending <= '0';
    cfg_write(offs + 2, 2, v or x"00000001");

    -- BAR0: posted writes and delayed reads against the random back end
    for i in exp'range loop
      exp(i) := std_logic_vector(to_unsigned(i * 65537 + 16#1000#, 32));
    end loop;
    for i in 1 to 60 loop
      uniform(s1, s2, r);
      offs := integer(r * real(RSV_DOORBELLS_BASE / 4 - 1));   -- registers, not doorbells
      if offs * 4 = POP_OFF then offs := offs + 1; end if;
      uniform(s1, s2, r);
      v := std_logic_vector(to_unsigned(integer(r * 2.0**30), 32)) xor x"80000001";
      if i mod 3 /= 0 then
        mem_write(offs * 4, v);
        exp(offs) := v;
      end if;
      mem_read(offs * 4, rd);
      check(rd = exp(offs), "read back " & integer'image(offs * 4) & ": " & hex(rd) &
            " expected " & hex(exp(offs)));
      if rd = exp(offs) then n_mem_ok := n_mem_ok + 1; end if;
    end loop;
    -- a read with side effects is executed exactly once per completed read
    for i in 0 to 19 loop
      mem_read(POP_OFF, rd);
      check(to_integer(unsigned(rd)) = i, "side-effect read " & integer'image(i) & " gave " & hex(rd));
    end loop;

    -- while a delayed read is in the back end, other accesses are retried;
    -- a read of another offset is retried while a completion waits
    -- (the back end answers after 40 clocks here: with its random latency
    -- it could finish before the write, which would then be posted)
    idle_backend;
    be_slow <= true;
    cycle("0110", std_logic_vector(unsigned(BAR) + 16#10#), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_RETRY and reg_valid = '1', "first read attempt: retry, back end started");
    cycle("0111", std_logic_vector(unsigned(BAR) + 16#20#), '0', true, x"0BADF00D", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_RETRY, "write while the back end reads: retried");
    -- configuration writes too: the completion is written into the RAM
    -- that also keeps the configuration fields (docs/pci.md)
    cycle("1011", cfg_addr(16#3C#), '1', true, x"0000005A", cfg_be(16#3C#, 1), 1, false, false,
          rd, res, nwords);
    check(res = R_RETRY, "configuration write while the back end reads: retried");
    idle_backend;
    mem_write(16#24#, x"00002424");
    exp(16#24# / 4) := x"00002424";
    clocks(2);   -- (passed on once its parity is known)
    check(reg_valid = '1' and reg_write = '1', "posted write in the back end");
    cycle("1011", cfg_addr(16#3C#), '1', true, x"0000005A", cfg_be(16#3C#, 1), 1, false, false,
          rd, res, nwords);
    check(res = R_RETRY, "configuration write while a posted write waits: retried");
    be_slow <= false;
    idle_backend;
    cycle("1100", std_logic_vector(unsigned(BAR) + 16#10#), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_RETRY, "read multiple does not match a memory read's completion");
    cycle("0110", std_logic_vector(unsigned(BAR) + 16#14#), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_RETRY and reg_valid = '0', "other offset retried, not started, while a completion waits");
    -- the completion waits in its own RAM word: configuration reads and
    -- writes are served meanwhile
    cycle("1010", cfg_addr(0), '1', false, x"00000000", "0000", 1, false, false, rd, res, nwords);
    check(res = R_DATA and rd = PCI_DEVICE_ID & PCI_VENDOR_ID, "config read while a completion waits");
    cfg_write(16#3C#, 1, x"0000000C");
    -- a posted write may pass the waiting completion (PCI ordering)
    mem_write(16#30#, x"CAFEF00D");
    exp(16#30# / 4) := x"CAFEF00D";
    cycle("0110", std_logic_vector(unsigned(BAR) + 16#10#), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_DATA and rd = exp(4), "matching retry completes the delayed read");
    cfg_read(16#3C#, 1, rd);
    check(rd = x"0000000C", "config write while a completion waited");
    idle_backend;
    probe(16#30#, rd);
    check(rd = x"CAFEF00D", "posted write reached the back end");

    -- fast back-to-back after a write: the target sees the next address
    -- phase in the clock it releases its lines
    idle_backend;
    chain := true;
    cycle("0111", std_logic_vector(unsigned(BAR) + 16#50#), '0', true, x"5A5A0050", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_DATA, "first of a back-to-back pair");
    chain := true;
    cycle("0111", std_logic_vector(unsigned(BAR) + 16#54#), '0', true, x"5A5A0054", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_RETRY, "back-to-back write while the first is in the back end: retried");
    cycle("1010", cfg_addr(0), '1', false, x"00000000", "0000", 1, false, false, rd, res, nwords);
    check(res = R_DATA and rd = PCI_DEVICE_ID & PCI_VENDOR_ID, "back-to-back configuration read");
    check(b2b_seen = 2, "two fast back-to-back address phases seen, got " & integer'image(b2b_seen));
    exp(16#50# / 4) := x"5A5A0050";
    mem_read(16#50#, rd);
    check(rd = x"5A5A0050", "back-to-back write reached the back end");

    -- bursts: disconnect after the first data phase
    cycle("0111", std_logic_vector(unsigned(BAR) + 16#40#), '0', true, x"11112222", "0000",
          2, false, false, rd, res, nwords);
    check(res = R_DATA and nwords = 1, "burst write: one word then disconnect");
    exp(16#40# / 4) := x"11112222";
    idle_backend;
    probe(16#44#, rd);
    check(rd = exp(16#44# / 4), "burst write's second word not written");
    mem_read(16#40#, rd);
    check(rd = x"11112222", "burst write's first word");
    -- burst read: first attempt retried, the repeated one delivers one word
    loop
      cycle("1110", std_logic_vector(unsigned(BAR) + 16#40#), '0', false, x"00000000", "0000",
            2, false, false, rd, res, nwords);
      exit when res /= R_RETRY;
    end loop;
    check(res = R_DATA and nwords = 1 and rd = x"11112222", "burst read: one word then disconnect");

    -- byte enables: partial writes are ignored and reported, reads whole
    idle_backend;
    v := std_logic_vector(to_unsigned(be_writes, 32));
    cycle("0111", std_logic_vector(unsigned(BAR) + 16#40#), '0', true, x"99999999", "1110",
          1, false, false, rd, res, nwords);
    check(res = R_DATA, "partial write completes on the bus");
    cycle("0111", std_logic_vector(unsigned(BAR) + 16#40#), '0', true, x"99999999", "0011",
          1, false, false, rd, res, nwords);
    cycle("0111", std_logic_vector(unsigned(BAR) + 16#40#), '0', true, x"99999999", "1111",
          1, false, false, rd, res, nwords);
    check(res = R_DATA, "no-byte write completes on the bus");
    clocks(3);
    check(bad_writes = 2, "two partial writes reported, got " & integer'image(bad_writes));
    check(be_writes = to_integer(unsigned(v)), "partial writes reached the back end");
    mem_read(16#40#, rd, "1110");
    check(rd = x"11112222", "byte read returns the whole word");

    -- parity: bad write data -> PERR#, status 15, the write is dropped
    check(m_par_errors = 0 and perr_seen = 0 and serr_seen = 0, "parity counters clean");
    cycle("0111", std_logic_vector(unsigned(BAR) + 16#40#), '0', true, x"77777777", "0000",
          1, false, true, rd, res, nwords);
    check(res = R_DATA, "bad-parity write completes on the bus");
    clocks(3);
    check(perr_seen = 1 and m_par_errors >= 1, "PERR# asserted once for the bad write (" &
          integer'image(perr_seen) & " PERR#, " & integer'image(m_par_errors) & " bad PAR)");
    mem_read(16#40#, rd);
    check(rd = x"11112222", "a write with bad parity is not passed to the back end");
    cfg_read(16#06#, 2, rd);
    check(rd(15) = '1' and rd(14) = '0', "status: detected parity error " & hex(rd));
    cfg_write(16#06#, 2, x"00008000");
    cfg_read(16#06#, 2, rd);
    check(rd(15) = '0', "detected parity error cleared (RW1C)");
    -- bad address parity: not claimed, SERR#, status 14 and 15
    cycle("0110", std_logic_vector(unsigned(BAR) + 16#40#), '0', false, x"00000000", "0000",
          1, true, false, rd, res, nwords);
    check(res = R_MABORT, "bad address parity not claimed");
    clocks(2);
    check(serr_seen = 1, "SERR# asserted once");
    cfg_read(16#06#, 2, rd);
    check(rd(15 downto 14) = "11", "status: SERR# signalled " & hex(rd));
    cfg_write(16#06#, 2, x"0000C000");
    -- with parity error response off: status only, no PERR#/SERR#
    cfg_read(16#04#, 2, orig_cmd);
    cfg_write(16#04#, 2, orig_cmd and x"FFFFFFBF");
    cycle("0111", std_logic_vector(unsigned(BAR) + 16#48#), '0', true, x"77777777", "0000",
          1, false, true, rd, res, nwords);
    cycle("0110", std_logic_vector(unsigned(BAR) + 16#40#), '0', false, x"00000000", "0000",
          1, true, false, rd, res, nwords);
    clocks(3);
    check(perr_seen = 1 and serr_seen = 1, "no PERR#/SERR# with parity response off");
    cfg_read(16#06#, 2, rd);
    check(rd(15 downto 14) = "10", "status with parity response off " & hex(rd));
    cfg_write(16#06#, 2, x"0000FFFF");
    cfg_write(16#04#, 2, orig_cmd);

    -- initiator status inputs, write-one-to-clear
    mst_rcv_mabort <= '1'; mst_rcv_tabort <= '1'; mst_data_perr <= '1'; mst_det_perr <= '1';
    clocks(1);
    mst_rcv_mabort <= '0'; mst_rcv_tabort <= '0'; mst_data_perr <= '0'; mst_det_perr <= '0';
    cfg_read(16#06#, 2, rd);
    check(rd(15) = '1' and rd(13 downto 12) = "11" and rd(8) = '1', "initiator status bits " & hex(rd));
    cfg_write(16#06#, 2, x"0000B100");
    cfg_read(16#06#, 2, rd);
    check(rd = x"00000430", "status after clearing " & hex(rd));

    -- doorbells: accepted at once while the back end is busy with a slow
    -- read, every slot, any byte enables; the monitor checks each strobe's
    -- timing, slot and data
    idle_backend;
    be_slow <= true;
    cycle("0110", std_logic_vector(unsigned(BAR) + 16#20#), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_RETRY and reg_valid = '1', "slow delayed read started");
    v := std_logic_vector(to_unsigned(bad_writes, 32));
    for i in 0 to 11 loop   -- the last four with partial byte enables
      if reg_valid = '0' then
        -- keep the back end busy: a posted write takes another 40 clocks
        mem_write(16#30#, x"00003030");
        exp(12) := x"00003030";
        -- the write reaches the back end two clocks after its data phase
        -- (its parity from the PAR flip-flop: docs/pci.md "Inputs")
        clocks(2);
      end if;
      check(reg_valid = '1', "back end busy during doorbell " & integer'image(i));
      cycle("0111", std_logic_vector(unsigned(BAR) + RSV_DOORBELLS_BASE + (i mod 4) * RSV_DOORBELLS_STRIDE),
            '0', true, std_logic_vector(to_unsigned(16#4020# + i * 16#10001#, 32)),
            dbe(i / 8), 1, false, false, rd, res, nwords);
      check(res = R_DATA and nwords = 1, "doorbell " & integer'image(i) & " taken in its first data phase");
    end loop;
    -- a burst to a doorbell: one word, then disconnect (the next word would
    -- land at doorbell + 4, no doorbell)
    cycle("0111", std_logic_vector(unsigned(BAR) + RSV_DOORBELLS_BASE + RSV_DOORBELLS_STRIDE),
          '0', true, x"0BADCAFE", "0000", 2, false, false, rd, res, nwords);
    check(res = R_DATA and nwords = 1, "doorbell burst cut to one word");
    -- offsets that are not a built slot's doorbell: completed, ignored, reported
    for i in 0 to 2 loop
      cycle("0111", std_logic_vector(unsigned(BAR) + RSV_DOORBELLS_BASE +
                                     bad_slot(i) * RSV_DOORBELLS_STRIDE + bad_byte(i)),
            '0', true, x"12345678", "0000", 1, false, false, rd, res, nwords);
      check(res = R_DATA and nwords = 1, "bad doorbell offset completes on the bus");
    end loop;
    cycle("0111", std_logic_vector(unsigned(BAR) + RSV_DOORBELLS_BASE + RSV_DOORBELLS_SIZE - 4),
          '0', true, x"12345678", "0000", 1, false, false, rd, res, nwords);
    clocks(3);
    check(bad_writes = to_integer(unsigned(v)) + 4, "bad doorbell offsets reported: " &
          integer'image(bad_writes - to_integer(unsigned(v))));
    check(db_seen = 13 and db_bad = 0, "doorbell strobes: " & integer'image(db_seen) &
          " seen (13 expected), " & integer'image(db_bad) & " wrong");
    -- a read in the window: answered at once with 0 (after the slow read
    -- completed, which owns the AD register until fetched)
    idle_backend;
    mem_read(16#20#, rd);
    check(rd = exp(8), "slow read's completion after the doorbells");
    cycle("0110", std_logic_vector(unsigned(BAR) + RSV_DOORBELLS_BASE), '0', false, x"00000000",
          "0000", 1, false, false, rd, res, nwords);
    check(res = R_DATA and rd = x"00000000", "doorbell window read: 0 at once");
    -- a doorbell while a read completion waits: still taken at once
    cycle("0110", std_logic_vector(unsigned(BAR) + 16#24#), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    idle_backend;
    cycle("0111", std_logic_vector(unsigned(BAR) + RSV_DOORBELLS_BASE + 3 * RSV_DOORBELLS_STRIDE),
          '0', true, x"00004023", "0000", 1, false, false, rd, res, nwords);
    check(res = R_DATA, "doorbell while a completion waits");
    mem_read(16#24#, rd);
    check(rd = exp(9), "completion after the doorbell");
    clocks(2);
    check(db_seen = 14 and db_bad = 0, "doorbell strobes: " & integer'image(db_seen) & " seen");
    be_slow <= false;
    -- the latency timer (0x0D) is read/write, byte-wise
    cfg_write(16#0D#, 1, x"00000040");
    cfg_read(16#0C#, 4, rd);
    check(rd = x"00004000" and lat_timer = x"40", "latency timer " & hex(rd));

    -- delayed-read discard: a completion nobody fetches is dropped within 2**16
    idle_backend;
    cycle("0110", std_logic_vector(unsigned(BAR) + POP_OFF), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_RETRY, "pop read started");
    clocks(2**15 - 20);
    cycle("0110", std_logic_vector(unsigned(BAR) + 16#14#), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_RETRY and reg_valid = '0', "completion kept for at least 2**15 clocks");
    clocks(2**15 + 10);
    cycle("0110", std_logic_vector(unsigned(BAR) + 16#14#), '0', false, x"00000000", "0000",
          1, false, false, rd, res, nwords);
    check(res = R_RETRY and reg_valid = '1', "slot free again after the discard timer");
    mem_read(16#14#, rd);
    check(rd = exp(5), "read after discard");
    mem_read(POP_OFF, rd);
    check(to_integer(unsigned(rd)) = 21, "discarded pop (20) is gone, next is 21, got " & hex(rd));

    -- a warm reset (PCI RST#, 8 clocks: PCI asks for 1 ms) clears what the
    -- host wrote: the read-back of the fields the target keeps in block RAM
    -- (latency timer, BAR0, interrupt line, MSI address and data) as well as
    -- the flip-flops; the constant fields survive
    cfg_write(16#3C#, 1, x"000000A5");
    cfg_write(16#44#, 4, x"FEE0100C");
    cfg_write(16#48#, 4, x"00000012");
    cfg_write(16#4C#, 2, x"00004321");
    wait until rising_edge(clk);
    rst <= '1';
    clocks(8);
    rst <= '0';
    clocks(2);
    cfg_read(16#0C#, 4, rd); check(rd = x"00000000", "header dword after reset " & hex(rd));
    cfg_read(16#10#, 4, rd); check(rd = x"00000000", "BAR0 after reset " & hex(rd));
    cfg_read(16#3C#, 4, rd); check(rd = x"00000100", "interrupt line/pin after reset " & hex(rd));
    cfg_read(16#44#, 4, rd); check(rd = x"00000000", "MSI address after reset " & hex(rd));
    cfg_read(16#48#, 4, rd); check(rd = x"00000000", "MSI upper address after reset " & hex(rd));
    cfg_read(16#4C#, 4, rd); check(rd = x"00000000", "MSI data after reset " & hex(rd));
    cfg_read(16#40#, 4, rd); check(rd = x"00840005", "MSI control after reset " & hex(rd));
    cfg_read(16#00#, 4, rd);
    check(rd = PCI_DEVICE_ID & PCI_VENDOR_ID, "IDs after reset " & hex(rd));
    check(msi_data = x"0000" and lat_timer = x"00", "configuration ports after reset");
    msi_word("01", rd);
    check(rd = x"00000000", "MSI address lo through msi_rd after reset " & hex(rd));
    msi_word("10", rd);
    check(rd = x"00000000", "MSI address hi through msi_rd after reset " & hex(rd));

    check(be_errors = 0, "back-end protocol");
    clocks(5);
    if errors = 0 then
      report "tb_pci_target: PASS (" & integer'image(n_mem_ok) & " BAR0 read-backs, " &
             integer'image(be_reads) & " back-end reads, " & integer'image(be_writes) &
             " back-end writes, " & integer'image(checks) & " clocks checked)" severity note;
    else
      report "tb_pci_target: " & integer'image(errors) & " check(s) failed" severity failure;
    end if;
    done <= true;
    wait;
  end process;

  watchdog : process
  begin
    wait for 5 ms;
    assert done report "tb_pci_target: timeout" severity failure;
    wait;
  end process;
end architecture;
