-- SPDX-License-Identifier: GPL-2.0-or-later
-- Self-checking testbench of pci_interface: the card's target and
-- initiator on one bus with a host bridge (a second master: configuration
-- and BAR0 accesses, doorbell writes) and host memory (pci_mem_target),
-- an arbiter for the two masters (one idle clock between owners, parking
-- on the card), and pci_checker on every clock. Covered: enumeration and
-- MSI programming by the host; configuration reads while a DMA request
-- waits for the bus; doorbells written by the host while the card runs
-- DMA bursts (every strobe, in order, with its data); BAR0 write/read
-- during DMA; the card's MSI raised after a DMA write completed reaching
-- memory after the write's last word with msi_data | vector (4 vectors
-- granted); MSI off: no write, INTA# follows int_pending.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;
use work.synpcix_regs_pkg.all;

entity tb_pci_interface is
end entity;

architecture sim of tb_pci_interface is
  constant T_CLK : time := 15 ns;
  subtype word is std_logic_vector(31 downto 0);
  constant WIN_BASE : natural := 16#12300000#;
  constant BAR : word := x"FEB05000";
  constant MSI_WORD : natural := 16#3C0#;          -- MSI address: word index in host memory
  constant MSI_DATA : word := x"00004020";

  signal clk  : std_logic := '0';
  signal rst  : std_logic := '1';
  signal done : boolean := false;

  signal ad : std_logic_vector(31 downto 0);
  signal cbe_n : std_logic_vector(3 downto 0);
  signal par, frame_n, irdy_n, trdy_n, devsel_n, stop_n, perr_n, serr_n : std_logic;
  signal idsel : std_logic := '0';
  signal req_n, gnt_n, hreq_n, hgnt_n : std_logic := '1';

  -- host master
  signal h_ad : word := (others => '0');
  signal h_cbe : std_logic_vector(3 downto 0) := "1111";
  signal h_ad_oe, h_cbe_oe, h_fi_oe, h_par, h_par_oe : std_logic := '0';
  signal h_frame, h_irdy : std_logic := '1';

  -- the card
  signal d_ad : word;
  signal d_cbe : std_logic_vector(3 downto 0);
  signal d_ad_oe, d_cbe_oe, d_par, d_par_oe, d_frame, d_frame_oe, d_irdy, d_irdy_oe : std_logic;
  signal d_trdy, d_trdy_oe, d_devsel, d_devsel_oe, d_stop, d_stop_oe, d_perr, d_perr_oe : std_logic;
  signal d_serr, d_serr_oe, inta : std_logic;
  signal d_par_m : std_logic := '0';   -- the card's PAR belongs to its master side
  signal reg_valid, reg_write, reg_ready : std_logic := '0';
  signal reg_addr : std_logic_vector(11 downto 2);
  signal reg_wdata, reg_rdata : word := (others => '0');
  signal bad_write, db_valid : std_logic;
  signal db_slot : std_logic_vector(3 downto 0);
  signal db_data : word;
  signal dma_valid, dma_write : std_logic := '0';
  signal dma_ready, dma_wd_ready, dma_rd_valid, dma_done : std_logic;
  signal dma_addr : std_logic_vector(63 downto 2) := (others => '0');
  signal dma_len : std_logic_vector(4 downto 0) := (others => '0');
  signal dma_wd_data, dma_rd_data : word := (others => '0');
  signal dma_err, irq_err : std_logic_vector(1 downto 0);
  signal int_pending, irq_valid : std_logic := '0';
  signal irq_vector : std_logic_vector(1 downto 0) := "00";
  -- two requesters of the card interrupt: the test process and, during the
  -- DMA bursts, the raiser process (at random times, so MSI requests meet
  -- DMA requests waiting, accepted and running)
  signal irq_valid_t, irq_valid_r : std_logic := '0';
  signal irq_vector_t, irq_vector_r : std_logic_vector(1 downto 0) := "00";
  signal msi_raised, msi_seen_in_dma : natural := 0;
  signal irq_ready, irq_done, irq_sent : std_logic;
  signal mem_enable, master_enable, msi_enable : std_logic;
  signal msi_mme : std_logic_vector(2 downto 0);

  -- host memory
  signal t_ad : word;
  signal t_ad_oe, t_par, t_par_oe, t_trdy, t_devsel, t_stop, t_perr : std_logic;
  signal t_trdy_oe, t_devsel_oe, t_stop_oe, t_perr_oe, corrupt : std_logic;
  signal log_valid : std_logic;
  signal log_idx : natural;
  signal log_data : word;
  signal log_wr : boolean;
  signal words, retries, disc_data, disc_nodata, tabort, waits, bad_rd, bad_wr, dacs : natural;
  signal peek_addr : natural range 0 to 4095 := 0;
  signal peek_data : word;

  signal m_par_errors, t_par_errors, perr_seen, serr_seen, b2b_seen, checks : natural;
  signal m_ad_oe, m_par_oe, m_cbe_oe, m_frame_oe, m_irdy_oe : std_logic;
  signal c_ad_oe, c_par_oe, c_trdy_oe, c_devsel_oe, c_stop_oe, c_perr_oe : std_logic;

  signal hold_card : boolean := false;
  signal msi_off : boolean := false;   -- the arbiter does not grant the card
  signal db_seen, db_bad, mon_errors : natural := 0;
  signal host_done, dma_phase_done : boolean := false;
  signal in_dma_phase : boolean := false;   -- the DMA process runs its bursts
  signal cfg_during_pending, db_during_dma : natural := 0;
  -- section 2b: the test process asks the host for one BAR0 read and
  -- raises an MSI a chosen number of clocks later (race_go counts the asks)
  signal race_go, race_done : natural := 0;
  signal race_over : boolean := false;

  function xor_all (v : std_logic_vector) return std_logic is
    variable r : std_logic := '0';
  begin
    for i in v'range loop r := r xor v(i); end loop;
    return r;
  end function;
begin
  clk <= not clk after T_CLK / 2 when not done;

  ad <= h_ad when h_ad_oe = '1' else (others => 'Z');
  ad <= d_ad when d_ad_oe = '1' else (others => 'Z');
  ad <= t_ad when t_ad_oe = '1' else (others => 'Z');
  cbe_n <= h_cbe when h_cbe_oe = '1' else (others => 'Z');
  cbe_n <= d_cbe when d_cbe_oe = '1' else (others => 'Z');
  par <= h_par when h_par_oe = '1' else 'Z';
  par <= d_par when d_par_oe = '1' else 'Z';
  par <= t_par when t_par_oe = '1' else 'Z';
  frame_n <= h_frame when h_fi_oe = '1' else 'Z';
  frame_n <= d_frame when d_frame_oe = '1' else 'Z';
  frame_n <= 'H';
  irdy_n <= h_irdy when h_fi_oe = '1' else 'Z';
  irdy_n <= d_irdy when d_irdy_oe = '1' else 'Z';
  irdy_n <= 'H';
  trdy_n <= d_trdy when d_trdy_oe = '1' else 'Z';
  trdy_n <= t_trdy when t_trdy_oe = '1' else 'Z';
  trdy_n <= 'H';
  devsel_n <= d_devsel when d_devsel_oe = '1' else 'Z';
  devsel_n <= t_devsel when t_devsel_oe = '1' else 'Z';
  devsel_n <= 'H';
  stop_n <= d_stop when d_stop_oe = '1' else 'Z';
  stop_n <= t_stop when t_stop_oe = '1' else 'Z';
  stop_n <= 'H';
  perr_n <= d_perr when d_perr_oe = '1' else 'Z';
  perr_n <= t_perr when t_perr_oe = '1' else 'Z';
  perr_n <= 'H';
  serr_n <= '0' when d_serr_oe = '1' else 'H';

  process (clk)
  begin
    if rising_edge(clk) then
      h_par <= xor_all(h_ad) xor xor_all(h_cbe);
      h_par_oe <= h_ad_oe;
      -- the card drives AD as a master exactly when it drives C/BE# too
      d_par_m <= d_ad_oe and d_cbe_oe;
    end if;
  end process;

  dut : entity work.pci_interface
    port map (
      clk => clk, rst => rst,
      ad_in => to_x01(ad), ad_out => d_ad, ad_oe => d_ad_oe,
      cbe_n_in => to_x01(cbe_n), cbe_n_out => d_cbe, cbe_n_oe => d_cbe_oe,
      par_in => to_x01(par), par_out => d_par, par_oe => d_par_oe,
      frame_n_in => to_x01(frame_n), frame_n_out => d_frame, frame_n_oe => d_frame_oe,
      irdy_n_in => to_x01(irdy_n), irdy_n_out => d_irdy, irdy_n_oe => d_irdy_oe,
      trdy_n_in => to_x01(trdy_n), trdy_n_out => d_trdy, trdy_n_oe => d_trdy_oe,
      devsel_n_in => to_x01(devsel_n), devsel_n_out => d_devsel, devsel_n_oe => d_devsel_oe,
      stop_n_in => to_x01(stop_n), stop_n_out => d_stop, stop_n_oe => d_stop_oe,
      perr_n_in => to_x01(perr_n), perr_n_out => d_perr, perr_n_oe => d_perr_oe,
      serr_n_out => d_serr, serr_n_oe => d_serr_oe, idsel_in => idsel,
      req_n => req_n, gnt_n => gnt_n, inta_n_oe => inta,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata,
      bad_write => bad_write, db_valid => db_valid, db_slot => db_slot, db_data => db_data,
      dma_valid => dma_valid, dma_ready => dma_ready, dma_write => dma_write,
      dma_addr => dma_addr, dma_len => dma_len, dma_wd_data => dma_wd_data,
      dma_wd_ready => dma_wd_ready, dma_rd_valid => dma_rd_valid, dma_rd_data => dma_rd_data,
      dma_done => dma_done, dma_err => dma_err,
      int_pending => int_pending, irq_valid => irq_valid, irq_vector => irq_vector,
      irq_ready => irq_ready, irq_done => irq_done, irq_err => irq_err, irq_sent => irq_sent,
      mem_enable => mem_enable, master_enable => master_enable, msi_enable => msi_enable,
      msi_mme => msi_mme);

  mem : entity work.pci_mem_target
    generic map (WIN_LO => std_logic_vector(to_unsigned(WIN_BASE / 2**14, 18)), SEED => 3)
    port map (
      clk => clk, rst => rst, ad => ad, cbe_n => cbe_n, par => par,
      frame_n => frame_n, irdy_n => irdy_n,
      ad_out => t_ad, ad_oe => t_ad_oe, par_out => t_par, par_oe => t_par_oe,
      trdy_n_out => t_trdy, devsel_n_out => t_devsel, stop_n_out => t_stop, perr_n_out => t_perr,
      trdy_n_oe => t_trdy_oe, devsel_n_oe => t_devsel_oe, stop_n_oe => t_stop_oe,
      perr_n_oe => t_perr_oe, corrupt => corrupt,
      log_valid => log_valid, log_idx => log_idx, log_data => log_data, log_wr => log_wr,
      words => words, retries => retries, disc_data => disc_data, disc_nodata => disc_nodata,
      tabort => tabort, waits => waits, bad_rd => bad_rd, bad_wr => bad_wr, dacs => dacs,
      peek_addr => peek_addr, peek_data => peek_data);

  irq_valid <= irq_valid_t or irq_valid_r;
  irq_vector <= irq_vector_t or irq_vector_r;

  raiser : process
    variable s1, s2 : positive := 31;
    variable r : real;
    variable n : natural := 0;
  begin
    wait until in_dma_phase;
    while in_dma_phase loop
      uniform(s1, s2, r);
      for i in 1 to 20 + integer(r * 200.0) loop
        wait until rising_edge(clk);
      end loop;
      exit when not in_dma_phase;
      irq_vector_r <= std_logic_vector(to_unsigned(n mod 4, 2));
      irq_valid_r <= '1';
      wait until rising_edge(clk) and irq_ready = '1';
      irq_valid_r <= '0';
      irq_vector_r <= "00";
      wait until rising_edge(clk) and irq_done = '1';
      if irq_err /= "00" or irq_sent /= '1' then
        report "tb_pci_interface: FAIL: raised MSI " & integer'image(n) & " not sent" severity error;
      end if;
      n := n + 1;
      msi_raised <= n;
    end loop;
    wait;
  end process;

  -- the checker knows two roles: masters (host, card initiator) and
  -- targets (card target, host memory)
  m_ad_oe <= h_ad_oe or (d_ad_oe and d_cbe_oe);
  m_par_oe <= h_par_oe or (d_par_oe and d_par_m);
  m_cbe_oe <= h_cbe_oe or d_cbe_oe;
  m_frame_oe <= h_fi_oe or d_frame_oe;
  m_irdy_oe <= h_fi_oe or d_irdy_oe;
  c_ad_oe <= t_ad_oe or (d_ad_oe and not d_cbe_oe);
  c_par_oe <= t_par_oe or (d_par_oe and not d_par_m);
  c_trdy_oe <= t_trdy_oe or d_trdy_oe;
  c_devsel_oe <= t_devsel_oe or d_devsel_oe;
  c_stop_oe <= t_stop_oe or d_stop_oe;
  c_perr_oe <= t_perr_oe or d_perr_oe;
  chk : entity work.pci_checker
    generic map (DEVSEL_CLKS => 3, DEVSEL_CLKS_2 => 2)
    port map (
      clk => clk, rst => rst, ad => ad, cbe_n => cbe_n, par => to_x01(par),
      frame_n => to_x01(frame_n), irdy_n => to_x01(irdy_n), trdy_n => to_x01(trdy_n),
      devsel_n => to_x01(devsel_n), stop_n => to_x01(stop_n), perr_n => to_x01(perr_n),
      serr_n => to_x01(serr_n),
      m_ad_oe => m_ad_oe, m_par_oe => m_par_oe, m_cbe_oe => m_cbe_oe, m_frame_oe => m_frame_oe,
      m_irdy_oe => m_irdy_oe, t_ad_oe => c_ad_oe, t_par_oe => c_par_oe, t_trdy_oe => c_trdy_oe,
      t_devsel_oe => c_devsel_oe, t_stop_oe => c_stop_oe, t_perr_oe => c_perr_oe,
      m_par_errors => m_par_errors, t_par_errors => t_par_errors, perr_seen => perr_seen,
      serr_seen => serr_seen, b2b_seen => b2b_seen, checks => checks);

  -- the two masters never overlap, and hand AD over with a turnaround clock
  masters : process (clk)
    variable p_h, p_d : std_logic := '0';
  begin
    if rising_edge(clk) then
      if (h_ad_oe = '1' or h_cbe_oe = '1' or h_fi_oe = '1') and
         (d_cbe_oe = '1' or d_frame_oe = '1' or d_irdy_oe = '1') then
        report "tb_pci_interface: FAIL: host and card drive master lines at once" severity error;
        mon_errors <= mon_errors + 1;
      end if;
      if (h_ad_oe = '1' and p_d = '1') or (d_ad_oe = '1' and d_cbe_oe = '1' and p_h = '1') then
        report "tb_pci_interface: FAIL: no turnaround between the masters" severity error;
        mon_errors <= mon_errors + 1;
      end if;
      p_h := h_ad_oe;
      p_d := d_ad_oe and d_cbe_oe;
    end if;
  end process;

  -- arbiter: the current owner keeps GNT# while it requests; a switch
  -- leaves one clock without any GNT#; idle: parked on the card; GNT# is
  -- also taken from the card now and then mid-burst
  arbiter : process
    variable s1, s2 : positive := 21;
    variable r : real;
    variable gap : boolean := false;
  begin
    wait until rising_edge(clk);
    uniform(s1, s2, r);
    if rst = '1' then
      gnt_n <= '1'; hgnt_n <= '1';
    elsif gap then
      gap := false;
      if hreq_n = '0' then hgnt_n <= '0';
      elsif not hold_card then gnt_n <= '0';
      end if;
    elsif hgnt_n = '0' then
      if hreq_n = '1' or (req_n = '0' and not hold_card and r < 0.1) then
        hgnt_n <= '1'; gap := true;
      end if;
    elsif gnt_n = '0' then
      if hold_card or hreq_n = '0' or (req_n = '0' and r < 0.03) then
        gnt_n <= '1'; gap := true;
      end if;
    else
      gap := true;
    end if;
  end process;

  -- register back end: one clock, a small memory
  backend : process
    type regs_t is array (0 to 511) of word;
    variable regs : regs_t := (others => (others => '0'));
  begin
    wait until rising_edge(clk);
    reg_ready <= '0';
    if reg_valid = '1' and reg_ready = '0' then
      if reg_write = '1' then
        regs(to_integer(unsigned(reg_addr(10 downto 2)))) := reg_wdata;
      else
        reg_rdata <= regs(to_integer(unsigned(reg_addr(10 downto 2))));
      end if;
      reg_ready <= '1';
    end if;
  end process;

  -- doorbells: the n-th strobe carries slot n mod 4 and data D00000nn
  db_mon : process (clk)
  begin
    if rising_edge(clk) and db_valid = '1' then
      if to_integer(unsigned(db_slot)) /= db_seen mod 4 or
         db_data /= (x"D0000000" or std_logic_vector(to_unsigned(db_seen, 32))) then
        report "tb_pci_interface: FAIL: doorbell " & integer'image(db_seen) & " slot " &
               to_hstring(db_slot) & " data " & to_hstring(db_data) severity error;
        db_bad <= db_bad + 1;
      end if;
      db_seen <= db_seen + 1;
      if in_dma_phase then
        db_during_dma <= db_during_dma + 1;
      end if;
    end if;
  end process;

  -- the host bridge: configuration, BAR0, doorbells
  host : process
    type res_t is (R_DATA, R_RETRY, R_MABORT);
    variable res : res_t;
    variable rd : word;
    variable errors : natural := 0;
    variable n : natural;

    procedure check (cond : boolean; msg : string) is
    begin
      if not cond then
        errors := errors + 1;
        report "tb_pci_interface: FAIL: host: " & msg severity error;
      end if;
    end procedure;

    -- one single-data-phase transaction, after GNT# at an idle bus
    procedure cycle (cmd : std_logic_vector(3 downto 0); addr : word; sel : std_logic;
                     write : boolean; wdata : word; rdata : out word; result : out res_t) is
      variable seen : boolean := false;
      variable clk_n : natural := 0;
    begin
      hreq_n <= '0';
      loop
        wait until rising_edge(clk);
        exit when hgnt_n = '0' and to_x01(frame_n) = '1' and to_x01(irdy_n) = '1';
      end loop;
      h_fi_oe <= '1'; h_frame <= '0'; h_irdy <= '1';
      h_ad <= addr; h_ad_oe <= '1'; h_cbe <= cmd; h_cbe_oe <= '1'; idsel <= sel;
      wait until rising_edge(clk);
      idsel <= '0';
      h_cbe <= "0000";
      if write then h_ad <= wdata; else h_ad_oe <= '0'; end if;
      h_irdy <= '0';
      h_frame <= '1';
      result := R_RETRY;
      rdata := (others => 'X');
      loop
        wait until rising_edge(clk);
        clk_n := clk_n + 1;
        if to_x01(devsel_n) = '0' then seen := true; end if;
        if to_x01(trdy_n) = '0' or to_x01(stop_n) = '0' then
          if to_x01(trdy_n) = '0' then
            result := R_DATA;
            if not write then rdata := to_x01(ad); end if;
          end if;
          exit;
        elsif not seen and clk_n >= 4 then
          result := R_MABORT;
          exit;
        end if;
      end loop;
      h_irdy <= '1'; h_ad_oe <= '0'; h_cbe_oe <= '0';
      hreq_n <= '1';
      wait until rising_edge(clk);
      h_fi_oe <= '0';
    end procedure;

    procedure cfg_rd (off : natural; v : out word) is
    begin
      loop
        cycle("1010", std_logic_vector(to_unsigned(off, 32)), '1', false, x"00000000", v, res);
        exit when res /= R_RETRY;
      end loop;
      check(res = R_DATA, "config read " & integer'image(off));
    end procedure;
    procedure cfg_wr (off : natural; v : word) is
    begin
      -- repeated while retried (the target retries configuration writes
      -- while its back end is busy), as a host bridge does
      for i in 1 to 200 loop
        cycle("1011", std_logic_vector(to_unsigned(off, 32)), '1', true, v, rd, res);
        exit when res /= R_RETRY;
      end loop;
      check(res = R_DATA, "config write " & integer'image(off));
    end procedure;
    procedure mem_wr (off : natural; v : word) is
    begin
      loop
        cycle("0111", std_logic_vector(unsigned(BAR) + off), '0', true, v, rd, res);
        exit when res /= R_RETRY;
      end loop;
      check(res = R_DATA, "BAR0 write " & integer'image(off));
    end procedure;
    procedure mem_rd (off : natural; v : out word) is
    begin
      loop
        cycle("0110", std_logic_vector(unsigned(BAR) + off), '0', false, x"00000000", v, res);
        exit when res /= R_RETRY;
      end loop;
      check(res = R_DATA, "BAR0 read " & integer'image(off));
    end procedure;
    variable db_n : natural := 0;
    procedure doorbell is
    begin
      cycle("0111", std_logic_vector(unsigned(BAR) + RSV_DOORBELLS_BASE + (db_n mod 4) * RSV_DOORBELLS_STRIDE),
            '0', true, (x"D0000000" or std_logic_vector(to_unsigned(db_n, 32))), rd, res);
      check(res = R_DATA, "doorbell " & integer'image(db_n) & " not taken at once");
      db_n := db_n + 1;
    end procedure;
  begin
    wait until rst = '0';
    wait until rising_edge(clk);
    -- enumeration as Linux does it (short): BAR0, command, latency timer, MSI
    cfg_rd(16#00#, rd);
    cfg_wr(16#10#, BAR);
    cfg_wr(16#0C#, x"00002000");                  -- latency timer 32
    cfg_wr(16#44#, std_logic_vector(to_unsigned(WIN_BASE + MSI_WORD * 4, 32)));
    cfg_wr(16#48#, x"00000000");
    cfg_wr(16#4C#, MSI_DATA);
    cfg_wr(16#40#, x"00250005");                   -- MME 4 vectors, enable
    cfg_wr(16#04#, x"00000046");                   -- memory, bus master, parity response
    cfg_rd(16#40#, rd);
    check(rd(16) = '1' and rd(22 downto 20) = "010" and msi_enable = '1', "MSI enabled " & to_hstring(rd));
    host_done <= true;
    -- configuration reads while the card's DMA request waits for the bus
    wait until hold_card and dma_valid = '0' and req_n = '0';
    for i in 0 to 3 loop
      cfg_rd(16#00#, rd);
      check(req_n = '0' and rd /= x"FFFFFFFF", "config read while DMA pending");
      cfg_during_pending <= cfg_during_pending + 1;
    end loop;
    -- section 2b of the test process: one BAR0 read at each ask
    n := 0;
    loop
      wait until rising_edge(clk);
      exit when race_over;
      if race_go /= n then
        mem_rd(16#10#, rd);
        n := n + 1;
        race_done <= n;
      end if;
    end loop;
    -- doorbells and register accesses while the card runs DMA bursts
    wait until in_dma_phase;
    while in_dma_phase loop
      doorbell;
      mem_wr(16#10#, std_logic_vector(to_unsigned(db_n, 32)));
      mem_rd(16#10#, rd);
      check(rd = std_logic_vector(to_unsigned(db_n, 32)), "BAR0 read-back during DMA");
    end loop;
    cfg_wr(16#40#, x"00200005");                   -- MSI off (MME kept)
    -- a configuration write takes effect at the second edge after its data
    -- phase (the data from the AD flip-flops): one edge after cfg_wr returns
    wait until rising_edge(clk);
    wait for 1 ns;
    check(msi_enable = '0', "MSI disabled");
    msi_off <= true;
    check(errors = 0, "host errors");
    wait;
  end process;

  test : process
    variable errors : natural := 0;
    variable s1, s2 : positive := 13;
    variable r : real;
    type words_t is array (0 to 15) of word;
    variable wd : words_t;
    variable n_req, n_words : natural := 0;
    variable last_log : natural;

    procedure check (cond : boolean; msg : string) is
    begin
      if not cond then
        errors := errors + 1;
        report "tb_pci_interface: FAIL: " & msg severity error;
      end if;
    end procedure;

    -- a DMA request in region 0 (clean) of host memory; checks every word
    procedure dma (write : boolean; start, len : natural; at : word := x"00000000";
                   expect_err : std_logic_vector(1 downto 0) := "00";
                   hi : word := x"00000000") is
      variable k, n_log, n_rd, clk_n : natural := 0;
      variable fin : boolean := false;
    begin
      n_req := n_req + 1;
      for i in 0 to 15 loop
        uniform(s1, s2, r);
        wd(i) := std_logic_vector(to_unsigned(integer(r * 2.0**30) + n_req, 32));
      end loop;
      dma_valid <= '1';
      dma_write <= '1' when write else '0';
      if at /= x"00000000" then
        dma_addr <= x"00000000" & at(31 downto 2);
      else
        dma_addr <= hi & std_logic_vector(to_unsigned(WIN_BASE + start * 4, 32)(31 downto 2));
      end if;
      dma_len <= std_logic_vector(to_unsigned(len, 5));
      dma_wd_data <= wd(0);
      loop
        wait until rising_edge(clk);
        clk_n := clk_n + 1;
        exit when clk_n > 5000;
        if dma_ready = '1' then
          dma_valid <= '0';
        end if;
        if dma_wd_ready = '1' then
          k := k + 1;
          if k < 16 then dma_wd_data <= wd(k); end if;
        end if;
        if dma_rd_valid = '1' then
          peek_addr <= start + n_rd;
          n_rd := n_rd + 1;
        end if;
        if log_valid = '1' and log_wr and log_idx = MSI_WORD and
           log_data(31 downto 2) = MSI_DATA(31 downto 2) and in_dma_phase then
          -- the raiser's MSI, between this request's transactions
          check(n_log = 0 or n_log = len, "MSI write inside request " & integer'image(n_req));
          msi_seen_in_dma <= msi_seen_in_dma + 1;
        elsif log_valid = '1' then
          check(log_idx = start + n_log and log_wr = write, "request " & integer'image(n_req) &
                ": memory saw word " & integer'image(log_idx));
          if write then
            check(log_data = wd(n_log), "request " & integer'image(n_req) & " word " &
                  integer'image(n_log) & " data");
          end if;
          n_log := n_log + 1;
        end if;
        if dma_done = '1' then
          check(dma_err = expect_err, "request " & integer'image(n_req) & " dma_err " & to_string(dma_err));
          fin := true;
          exit;
        end if;
      end loop;
      if expect_err /= "00" then
        check(fin and n_log = 0 and n_rd = 0, "request " & integer'image(n_req) & " moved words");
        return;
      end if;
      check(fin and n_log = len and (write or n_rd = len), "request " & integer'image(n_req) &
            ": " & integer'image(n_log) & " words of " & integer'image(len));
      n_words := n_words + n_log;
      last_log := start + len - 1;
    end procedure;

    -- raise the card's interrupt; with MSI on, the write must be the next
    -- thing memory sees, with data MSI_DATA | vector
    procedure raise (v : natural; expect_write : boolean) is
      variable got : boolean := false;
      variable clk_n : natural := 0;
      constant dacs0 : natural := dacs;
    begin
      irq_valid_t <= '1';
      irq_vector_t <= std_logic_vector(to_unsigned(v, 2));
      loop
        wait until rising_edge(clk);
        clk_n := clk_n + 1;
        exit when clk_n > 3000;
        if irq_ready = '1' then irq_valid_t <= '0'; irq_vector_t <= "00"; end if;
        if log_valid = '1' then
          check(expect_write and not got and log_wr and log_idx = MSI_WORD and
                log_data = (MSI_DATA or std_logic_vector(to_unsigned(v, 32))),
                "MSI write: word " & integer'image(log_idx) & " data " & to_hstring(log_data));
          got := true;
        end if;
        exit when irq_done = '1';
      end loop;
      check(irq_done = '1' and irq_err = "00" and (irq_sent = '1') = expect_write,
            "irq_done/irq_sent for vector " & integer'image(v));
      check(got = expect_write, "MSI write seen: " & boolean'image(got));
      -- the MSI address' upper dword is 0: never a dual address cycle (its
      -- upper dword comes from the configuration RAM, not from the last
      -- DMA request's)
      check(dacs = dacs0, "MSI with a zero upper address went as a dual address cycle");
    end procedure;
  begin
    clocks_loop : for i in 1 to 4 loop
      wait until rising_edge(clk);
    end loop;
    rst <= '0';
    wait until host_done;
    check(master_enable = '1' and msi_mme = "010", "bus master and 4 MSI vectors on");

    -- 1. a DMA write waits for the bus while the host reads configuration
    -- (the arbiter holds the card off from host_done until the host has
    -- done its configuration reads: process release)
    wait until rising_edge(clk);
    wait until rising_edge(clk);
    dma(true, 100, 16);
    -- 2. the card's MSI after the write completed: after its last word
    raise(2, true);
    raise(3, true);
    raise(1, true);
    -- after a DMA request above 4 GiB (a dual address cycle into the
    -- memory's 64-bit window) the MSI still goes to its 32-bit address
    dma(true, 120, 2, hi => x"00000001");
    check(dacs > 0, "DMA above 4 GiB as a dual address cycle");
    raise(0, true);
    check(inta = '0', "INTA# idle");
    int_pending <= '1';
    wait until rising_edge(clk);
    wait until rising_edge(clk);
    check(inta = '0', "INTA# stays off while MSI is enabled");
    int_pending <= '0';

    -- 2b. the MSI's address dwords wait in the configuration RAM's output
    -- register (pci_msi_raise: the upper one until the initiator is ours,
    -- the lower one until the data dword's read), and every address phase
    -- on the bus reads that RAM for the target: a host BAR0 read whose
    -- address phase falls on either wait replaces the dword, which must be
    -- read again. The host asks for the bus, and the MSI is raised 0 .. 11
    -- clocks later, which puts the read's address phase on each clock of
    -- the MSI's way to the initiator; raise checks the write's word and
    -- data. Checked in session 14 by removing each from pci_msi_raise:
    -- without the offer's msi_rd_go condition or the lower dword's re-read
    -- this section fails (the write carries the completion word's data or
    -- goes to its address); the upper dword's re-read is met in section 3,
    -- where the MSI waits for the DMA bursts (raiser: "not sent").
    for d in 0 to 11 loop
      race_go <= race_go + 1;
      for i in 1 to d loop
        wait until rising_edge(clk);
      end loop;
      raise(d mod 4, true);
      if race_done /= race_go then
        wait until race_done = race_go;
      end if;
    end loop;
    race_over <= true;

    -- the card's own target never claims the card's own transactions: a
    -- DMA to its BAR0 (a register and a doorbell) is a master abort, and
    -- the checker sees no second driver
    dma(false, 0, 1, at => std_logic_vector(unsigned(BAR) + 16#10#), expect_err => "01");
    dma(true, 0, 1, at => std_logic_vector(unsigned(BAR) + RSV_DOORBELLS_BASE), expect_err => "01");
    check(db_seen = 0 and reg_valid = '0', "own DMA reached the card's target");

    -- 3. DMA bursts while the host writes doorbells and registers
    in_dma_phase <= true;
    for i in 1 to 40 loop
      uniform(s1, s2, r);
      dma(r < 0.5, 200 + (i mod 20) * 16, 1 + (i * 7) mod 16);
    end loop;
    in_dma_phase <= false;
    -- the raiser's last MSI may still be on its way
    for i in 1 to 200 loop
      wait until rising_edge(clk);
      if log_valid = '1' and log_idx = MSI_WORD then
        msi_seen_in_dma <= msi_seen_in_dma + 1;
      end if;
    end loop;
    check(msi_raised > 5 and msi_seen_in_dma = msi_raised, "MSIs raised during DMA " &
          integer'image(msi_raised) & ", written " & integer'image(msi_seen_in_dma));
    wait for 2 us;

    -- 4. INTA# stays off while MSI is on; MSI off: no write, INTA# follows
    -- int_pending
    if not msi_off then wait until msi_off; end if;
    int_pending <= '1';
    wait until rising_edge(clk);
    wait until rising_edge(clk);
    check(inta = '1', "INTA# asserted with MSI off and an interrupt pending");
    raise(1, false);
    int_pending <= '0';
    wait until rising_edge(clk);
    wait until rising_edge(clk);
    check(inta = '0', "INTA# released");

    check(cfg_during_pending = 4, "config reads while DMA pending: " & integer'image(cfg_during_pending));
    check(db_during_dma > 10 and db_bad = 0 and db_seen >= db_during_dma, "doorbells during DMA: " &
          integer'image(db_during_dma) & ", wrong " & integer'image(db_bad));
    check(mon_errors = 0, "bus monitor");
    if errors = 0 then
      report "tb_pci_interface: PASS (" & integer'image(n_req) & " DMA requests, " &
             integer'image(n_words) & " words checked, " & integer'image(db_seen) & " doorbells (" &
             integer'image(db_during_dma) & " during DMA), " & integer'image(msi_raised) & " MSIs raised during DMA, " &
             integer'image(retries + disc_data + disc_nodata) &
             " target terminations, " & integer'image(checks) & " clocks checked)" severity note;
    else
      report "tb_pci_interface: " & integer'image(errors) & " check(s) failed" severity failure;
    end if;
    done <= true;
    wait;
  end process;

  -- releases the card once the host has done its configuration reads
  holder : process
  begin
    wait until host_done;
    hold_card <= true;
    wait until cfg_during_pending = 4;
    hold_card <= false;
    wait;
  end process;

  watchdog : process
  begin
    wait for 5 ms;
    assert done report "tb_pci_interface: timeout" severity failure;
    wait;
  end process;
end architecture;
