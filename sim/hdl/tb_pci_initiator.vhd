-- SPDX-License-Identifier: GPL-2.0-or-later
-- Self-checking testbench of pci_initiator: a requester on the DMA port,
-- the behavioural memory target pci_mem_target (random wait states,
-- retries, disconnects with and without data, target aborts, an unclaimed
-- region for master aborts, bad read parity, write data corrupted on its way
-- with PERR#), an arbiter that parks the bus on the initiator, grants after
-- random delays and takes GNT# away mid-burst, and pci_checker on every
-- clock. Every request is checked against the target's log: exactly the
-- words the outcome allows, each once, in address order, with the right
-- data; dma_err, the status pulses and PERR# counts against what the target
-- did. Monitors: FRAME# only after GNT# at an idle bus, parking within 8
-- clocks and release the clock after GNT# goes, the latency timer ending a
-- burst once it has run out and GNT# is gone.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;

entity tb_pci_initiator is
end entity;

architecture sim of tb_pci_initiator is
  constant T_CLK : time := 15 ns;   -- 66 MHz
  subtype word is std_logic_vector(31 downto 0);
  constant WIN_BASE : natural := 16#12300000#;
  constant WIN_HI : word := x"00000002";

  signal clk  : std_logic := '0';
  signal rst  : std_logic := '1';
  signal done : boolean := false;

  -- resolved bus, and AD as the target's pins see it (write corruption)
  signal ad, ad_t : std_logic_vector(31 downto 0);
  signal cbe_n : std_logic_vector(3 downto 0);
  signal par, frame_n, irdy_n, trdy_n, devsel_n, stop_n, perr_n, serr_n : std_logic;
  signal req_n, gnt_n : std_logic := '1';

  -- initiator
  signal i_ad : word;
  signal i_cbe : std_logic_vector(3 downto 0);
  signal i_ad_oe, i_cbe_oe, i_par, i_par_oe, i_frame, i_frame_oe, i_irdy, i_irdy_oe : std_logic;
  signal i_perr, i_perr_oe : std_logic;
  signal master_enable, perr_resp : std_logic := '1';
  signal lat_timer : std_logic_vector(7 downto 0) := x"10";
  signal st_dperr, st_tabort, st_mabort, st_det : std_logic;
  signal dma_valid, dma_write : std_logic := '0';
  signal dma_ready, dma_wd_ready, dma_rd_valid, dma_done, mst_busy : std_logic;
  signal dma_addr : std_logic_vector(63 downto 2) := (others => '0');
  signal dma_len : std_logic_vector(4 downto 0) := (others => '0');
  signal dma_wd_data, dma_rd_data : word := (others => '0');
  signal dma_err : std_logic_vector(1 downto 0);

  -- target model
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
  -- monitors
  signal mon_errors, parked, gnt_taken, lt_ends : natural := 0;
  signal n_dperr, n_tabort, n_mabort, n_det : natural := 0;

  function xor_all (v : std_logic_vector) return std_logic is
    variable r : std_logic := '0';
  begin
    for i in v'range loop r := r xor v(i); end loop;
    return r;
  end function;
begin
  clk <= not clk after T_CLK / 2 when not done;

  ad <= i_ad when i_ad_oe = '1' else (others => 'Z');
  ad <= t_ad when t_ad_oe = '1' else (others => 'Z');
  ad_t <= ad xor x"00000001" when corrupt = '1' and i_ad_oe = '1' else ad;
  cbe_n <= i_cbe when i_cbe_oe = '1' else (others => 'Z');
  par <= i_par when i_par_oe = '1' else 'Z';
  par <= t_par when t_par_oe = '1' else 'Z';
  frame_n <= i_frame when i_frame_oe = '1' else 'H';
  irdy_n <= i_irdy when i_irdy_oe = '1' else 'H';
  trdy_n <= t_trdy when t_trdy_oe = '1' else 'H';
  devsel_n <= t_devsel when t_devsel_oe = '1' else 'H';
  stop_n <= t_stop when t_stop_oe = '1' else 'H';
  perr_n <= t_perr when t_perr_oe = '1' else 'H';
  perr_n <= i_perr when i_perr_oe = '1' else 'H';
  serr_n <= 'H';

  dut : entity work.pci_initiator
    port map (
      clk => clk, rst => rst,
      ad_in => to_x01(ad), ad_out => i_ad, ad_oe => i_ad_oe,
      cbe_n_in => to_x01(cbe_n), cbe_n_out => i_cbe, cbe_n_oe => i_cbe_oe,
      par_in => to_x01(par), par_out => i_par, par_oe => i_par_oe,
      frame_n_in => to_x01(frame_n), frame_n_out => i_frame, frame_n_oe => i_frame_oe,
      irdy_n_in => to_x01(irdy_n), irdy_n_out => i_irdy, irdy_n_oe => i_irdy_oe,
      trdy_n_in => to_x01(trdy_n), devsel_n_in => to_x01(devsel_n), stop_n_in => to_x01(stop_n),
      perr_n_in => to_x01(perr_n), perr_n_out => i_perr, perr_n_oe => i_perr_oe,
      req_n => req_n, gnt_n => gnt_n,
      master_enable => master_enable, perr_resp => perr_resp, lat_timer => lat_timer,
      mst_data_perr => st_dperr, mst_rcv_tabort => st_tabort, mst_rcv_mabort => st_mabort,
      mst_det_perr => st_det,
      dma_valid => dma_valid, dma_ready => dma_ready, dma_write => dma_write,
      dma_addr => dma_addr, dma_len => dma_len, dma_wd_data => dma_wd_data,
      dma_wd_ready => dma_wd_ready, dma_rd_valid => dma_rd_valid, dma_rd_data => dma_rd_data,
      dma_done => dma_done, dma_err => dma_err, mst_busy => mst_busy);

  mem : entity work.pci_mem_target
    generic map (WIN_LO => std_logic_vector(to_unsigned(WIN_BASE / 2**14, 18)), WIN_HI => WIN_HI)
    port map (
      clk => clk, rst => rst, ad => ad_t, cbe_n => cbe_n, par => par,
      frame_n => frame_n, irdy_n => irdy_n,
      ad_out => t_ad, ad_oe => t_ad_oe, par_out => t_par, par_oe => t_par_oe,
      trdy_n_out => t_trdy, devsel_n_out => t_devsel, stop_n_out => t_stop, perr_n_out => t_perr,
      trdy_n_oe => t_trdy_oe, devsel_n_oe => t_devsel_oe, stop_n_oe => t_stop_oe,
      perr_n_oe => t_perr_oe, corrupt => corrupt,
      log_valid => log_valid, log_idx => log_idx, log_data => log_data, log_wr => log_wr,
      words => words, retries => retries, disc_data => disc_data, disc_nodata => disc_nodata,
      tabort => tabort, waits => waits, bad_rd => bad_rd, bad_wr => bad_wr, dacs => dacs,
      peek_addr => peek_addr, peek_data => peek_data);

  -- the checker sees AD at the target's pins (the corruption is on the wire)
  chk : entity work.pci_checker
    generic map (T_PAR_STRICT => false)
    port map (
      clk => clk, rst => rst, ad => ad_t, cbe_n => cbe_n, par => to_x01(par),
      frame_n => to_x01(frame_n), irdy_n => to_x01(irdy_n), trdy_n => to_x01(trdy_n),
      devsel_n => to_x01(devsel_n), stop_n => to_x01(stop_n), perr_n => to_x01(perr_n),
      serr_n => to_x01(serr_n),
      m_ad_oe => i_ad_oe, m_par_oe => i_par_oe, m_cbe_oe => i_cbe_oe, m_frame_oe => i_frame_oe,
      m_irdy_oe => i_irdy_oe, t_ad_oe => t_ad_oe, t_par_oe => t_par_oe, t_trdy_oe => t_trdy_oe,
      t_devsel_oe => t_devsel_oe, t_stop_oe => t_stop_oe, t_perr_oe => t_perr_oe,
      m_perr_oe => i_perr_oe,
      m_par_errors => m_par_errors, t_par_errors => t_par_errors, perr_seen => perr_seen,
      serr_seen => serr_seen, b2b_seen => b2b_seen, checks => checks);

  -- arbiter: grants after 0..2 clocks, takes GNT# away now and then (also
  -- mid-burst) for 3..28 clocks, parks the bus on the initiator or on
  -- nobody in phases of ~60 clocks when it does not request
  arbiter : process
    variable s1, s2 : positive := 5;
    variable r : real;
    variable away, park_left : natural := 0;
    variable park : boolean := true;
  begin
    wait until rising_edge(clk);
    if rst = '1' then
      gnt_n <= '1';
    elsif away > 0 then
      away := away - 1;
      gnt_n <= '1';
    elsif req_n = '0' then
      uniform(s1, s2, r);
      if gnt_n = '0' and r < 0.04 then
        uniform(s1, s2, r);
        away := 3 + integer(r * 25.0);
        gnt_n <= '1';
        if mst_busy = '1' then
          gnt_taken <= gnt_taken + 1;
        end if;
      elsif r < 0.6 then
        gnt_n <= '0';
      end if;
    else
      if park_left = 0 then
        uniform(s1, s2, r);
        park := r < 0.5;
        park_left := 60;
        -- between one owner and the next an idle clock without GNT#
        gnt_n <= '1';
      else
        park_left := park_left - 1;
        gnt_n <= '0' when park else '1';
      end if;
    end if;
  end process;

  -- bus rules that involve GNT#, and the latency timer
  monitor : process (clk)
    variable p_gnt, p_frame, p_irdy : std_logic := '1';
    variable idle_granted : natural := 0;
    variable since_start : natural := 0;
    variable must_end : boolean := false;
    variable own : boolean := false;
    variable lt : natural;
    procedure fail (msg : string) is
    begin
      report "tb_pci_initiator: FAIL: " & msg severity error;
      mon_errors <= mon_errors + 1;
    end procedure;
  begin
    if rising_edge(clk) and rst = '0' then
      if st_dperr = '1' then n_dperr <= n_dperr + 1; end if;
      if st_tabort = '1' then n_tabort <= n_tabort + 1; end if;
      if st_mabort = '1' then n_mabort <= n_mabort + 1; end if;
      if st_det = '1' then n_det <= n_det + 1; end if;
      -- a transaction of ours starts: GNT# and idle sampled at the edge before
      if to_x01(frame_n) = '0' and p_frame = '1' and i_frame_oe = '1' then
        if not (p_gnt = '0' and p_irdy = '1') then
          fail("FRAME# asserted without GNT# at an idle bus");
        end if;
        own := true;
        since_start := 1;
        must_end := false;
      elsif own then
        since_start := since_start + 1;
      end if;
      -- latency timer: run out and GNT# gone at a completed, non-final data
      -- phase: FRAME# must be deasserted by the next edge
      if own then
        if must_end and to_x01(frame_n) = '0' then
          fail("latency timer ran out, GNT# gone: FRAME# still asserted");
        end if;
        lt := to_integer(unsigned(lat_timer));
        must_end := since_start >= lt and gnt_n = '1' and to_x01(frame_n) = '0' and
                    to_x01(irdy_n) = '0' and (to_x01(trdy_n) = '0' or to_x01(stop_n) = '0');
        if must_end and to_x01(stop_n) = '1' then
          lt_ends <= lt_ends + 1;
        end if;
        if i_frame_oe = '0' and i_irdy_oe = '0' then
          own := false;
        end if;
      end if;
      -- parking: granted at an idle bus for 8 clocks: AD and C/BE# driven;
      -- GNT# gone at the last edge: released now (unless a transaction runs)
      if gnt_n = '0' and to_x01(frame_n) = '1' and to_x01(irdy_n) = '1' and
         i_frame_oe = '0' and i_irdy_oe = '0' then
        idle_granted := idle_granted + 1;
        if idle_granted = 8 then
          if i_ad_oe /= '1' or i_cbe_oe /= '1' then
            fail("parked for 8 clocks but AD/C/BE# not driven");
          end if;
          parked <= parked + 1;
        end if;
      else
        idle_granted := 0;
      end if;
      if p_gnt = '1' and i_frame_oe = '0' and i_irdy_oe = '0' and i_ad_oe = '1' then
        fail("AD still driven the clock after GNT# went");
      end if;
      p_gnt := gnt_n;
      p_frame := to_x01(frame_n);
      p_irdy := to_x01(irdy_n);
    end if;
  end process;

  test : process
    variable errors : natural := 0;
    variable s1, s2 : positive := 9;
    variable r : real;
    type words_t is array (0 to 15) of word;
    variable wd : words_t;
    type mirror_t is array (0 to 4095) of word;
    variable mirror : mirror_t;
    variable n_req, n_words_ok : natural := 0;
    variable exp_dperr, exp_tabort, exp_mabort, exp_det, exp_perr_clk : natural := 0;

    procedure check (cond : boolean; msg : string) is
    begin
      if not cond then
        errors := errors + 1;
        report "tb_pci_initiator: FAIL: " & msg severity error;
      end if;
    end procedure;

    procedure clocks (n : natural) is
    begin
      for i in 1 to n loop
        wait until rising_edge(clk);
        check(log_valid = '0', "a word moved with no request");
      end loop;
    end procedure;

    -- one DMA request: start = word index in the 16 KiB window; hi = upper
    -- address (0: single address cycle); len words (0 or > 16: refused)
    procedure dma (write : boolean; start : natural; hi : word; len : natural;
                   expect_err : std_logic_vector(1 downto 0); expect_n : natural) is
      variable k, n_wr_taken, n_rd, n_log, clk_n : natural := 0;
      variable got_err : std_logic_vector(1 downto 0);
      variable finished, accepted : boolean := false;
      variable region : natural;
      variable bad : boolean;
      variable exp_d : word;
    begin
      n_req := n_req + 1;
      region := start / 1024;
      for i in 0 to 15 loop
        uniform(s1, s2, r);
        wd(i) := std_logic_vector(to_unsigned(integer(r * 2.0**30), 32)) xor
                 std_logic_vector(to_unsigned(n_req * 16 + i, 32));
      end loop;
      dma_valid <= '1';
      dma_write <= '1' when write else '0';
      dma_addr <= hi & std_logic_vector(to_unsigned(WIN_BASE + start * 4, 32)(31 downto 2));
      dma_len <= std_logic_vector(to_unsigned(len mod 32, 5));
      dma_wd_data <= wd(0);
      k := 0;
      loop
        wait until rising_edge(clk);
        clk_n := clk_n + 1;
        check(clk_n < 3000, "request " & integer'image(n_req) & " never finished");
        exit when clk_n >= 3000;
        if dma_ready = '1' then
          check(not accepted, "dma_ready twice");
          accepted := true;
          dma_valid <= '0';
          dma_addr <= (others => 'X');
          dma_len <= (others => 'X');
        end if;
        if dma_wd_ready = '1' then
          check(write and n_wr_taken < len, "dma_wd_ready beyond the request's words");
          n_wr_taken := n_wr_taken + 1;
          k := k + 1;
          dma_wd_data <= wd(k) when k < 16 else (others => 'X');
          if k >= len then dma_wd_data <= (others => 'X'); end if;
        end if;
        if dma_rd_valid = '1' then
          check(not write, "read word on a write");
          if not write and n_rd < 16 then
            exp_d := mirror(start + n_rd);
            check(dma_rd_data = exp_d, "request " & integer'image(n_req) & " read word " &
                  integer'image(n_rd) & ": " & to_hstring(dma_rd_data) & " expected " & to_hstring(exp_d));
          end if;
          n_rd := n_rd + 1;
        end if;
        if log_valid = '1' then
          -- the target moved a word: the next one of this request, in order
          check(log_idx = start + n_log and log_wr = write, "request " & integer'image(n_req) &
                ": target saw word " & integer'image(log_idx) & " (write " & boolean'image(log_wr) &
                "), expected " & integer'image(start + n_log));
          if write and n_log < 16 then
            bad := region = 1 and (start + n_log) mod 8 = 3;
            exp_d := wd(n_log) xor x"00000001" when bad else wd(n_log);
            check(log_data = exp_d, "request " & integer'image(n_req) & " write word " &
                  integer'image(n_log) & ": " & to_hstring(log_data) & " expected " & to_hstring(exp_d));
            mirror(start + n_log) := log_data;
            if bad then
              exp_perr_clk := exp_perr_clk + 1;
              if perr_resp = '1' then exp_dperr := exp_dperr + 1; end if;
            end if;
          elsif n_log < 16 then
            if region = 1 and (start + n_log) mod 8 = 3 then
              exp_det := exp_det + 1;
              if perr_resp = '1' then
                exp_dperr := exp_dperr + 1;
                exp_perr_clk := exp_perr_clk + 1;
              end if;
            end if;
          end if;
          n_log := n_log + 1;
        end if;
        if dma_done = '1' then
          got_err := dma_err;
          finished := true;
          exit;
        end if;
      end loop;
      check(finished and accepted, "request " & integer'image(n_req) & " not accepted/finished");
      check(got_err = expect_err, "request " & integer'image(n_req) & " (write " & boolean'image(write) &
            ", word " & integer'image(start) & ", len " & integer'image(len) & "): dma_err " &
            to_string(got_err) & ", expected " & to_string(expect_err));
      check(n_log = expect_n, "request " & integer'image(n_req) & ": " & integer'image(n_log) &
            " words moved, expected " & integer'image(expect_n));
      if write then
        check(n_wr_taken = len or (len = 0 or len > 16), "request " & integer'image(n_req) & ": " &
              integer'image(n_wr_taken) & " write words taken of " & integer'image(len));
      else
        check(n_rd = expect_n, "request " & integer'image(n_req) & ": " & integer'image(n_rd) &
              " read words delivered, expected " & integer'image(expect_n));
      end if;
      if expect_err = "10" then exp_tabort := exp_tabort + 1; end if;
      if expect_err = "01" and region = 3 and len > 0 and len <= 16 and master_enable = '1' then
        exp_mabort := exp_mabort + 1;
      end if;
      if got_err = expect_err and n_log = expect_n then
        n_words_ok := n_words_ok + n_log;
      end if;
      dma_addr <= (others => '0');
      dma_len <= (others => '0');
    end procedure;

    -- the outcome the target model's regions define
    procedure expect (start, len : natural; err : out std_logic_vector(1 downto 0); n : out natural) is
      variable region : natural := start / 1024;
    begin
      err := "00";
      n := len;
      if len = 0 or len > 16 or master_enable = '0' or region = 3 then
        err := "01";
        n := 0;
      elsif region = 2 then
        for j in 0 to len - 1 loop
          if (start + j) mod 16 = 5 then
            err := "10";
            n := j;
            exit;
          end if;
        end loop;
      elsif region = 1 and perr_resp = '1' then
        for j in 0 to len - 1 loop
          if (start + j) mod 8 = 3 then err := "11"; end if;
        end loop;
      end if;
    end procedure;

    procedure run (write : boolean; start : natural; hi : word; len : natural) is
      variable err : std_logic_vector(1 downto 0);
      variable n : natural;
    begin
      expect(start, len, err, n);
      dma(write, start, hi, len, err, n);
      -- sometimes back to back, sometimes a few idle clocks
      uniform(s1, s2, r);
      clocks(integer(r * 3.0));
    end procedure;

    variable start, len, region : natural;
    variable write : boolean;
    variable hi : word;
  begin
    for i in mirror'range loop
      mirror(i) := std_logic_vector(to_unsigned(i * 40503 + 12345, 32)) xor x"5A000000";
    end loop;
    clocks(4);
    rst <= '0';
    clocks(4);

    -- directed: single words, full bursts, DAC, each region
    run(true, 16, x"00000000", 1);
    run(false, 16, x"00000000", 1);
    run(true, 32, x"00000000", 16);
    run(false, 32, x"00000000", 16);
    run(false, 30, x"00000000", 4);
    run(true, 64, WIN_HI, 16);
    run(false, 64, WIN_HI, 16);
    run(false, 3 * 1024 + 8, x"00000000", 4);      -- master abort
    run(true, 3 * 1024 + 8, WIN_HI, 1);            -- master abort after DAC
    run(true, 2 * 1024 + 0, x"00000000", 16);      -- target abort at word 5
    run(false, 2 * 1024 + 5, x"00000000", 3);      -- target abort at once
    run(false, 1 * 1024 + 0, x"00000000", 16);     -- bad read parity (words 3, 11)
    run(true, 1 * 1024 + 0, x"00000000", 16);      -- PERR# on writes (words 3, 11)
    -- requests the port does not define, and bus mastering off: refused
    run(true, 16, x"00000000", 0);
    run(false, 16, x"00000000", 17);
    master_enable <= '0';
    clocks(1);
    run(true, 16, x"00000000", 4);
    master_enable <= '1';
    clocks(1);
    -- parity response off: no PERR#, no dma_err, status 15 only (mst_det_perr)
    perr_resp <= '0';
    clocks(1);
    run(false, 1 * 1024 + 0, x"00000000", 8);
    run(true, 1 * 1024 + 0, x"00000000", 8);
    perr_resp <= '1';
    clocks(1);

    -- random: regions, lengths, DAC, latency timer values
    for i in 1 to 500 loop
      uniform(s1, s2, r);
      if r < 0.55 then region := 0; elsif r < 0.75 then region := 1;
      elsif r < 0.92 then region := 2; else region := 3; end if;
      uniform(s1, s2, r);
      len := 1 + integer(r * 15.0);
      uniform(s1, s2, r);
      start := region * 1024 + integer(r * real(1024 - len));
      uniform(s1, s2, r);
      write := r < 0.5;
      uniform(s1, s2, r);
      hi := WIN_HI when r < 0.25 else x"00000000";
      if i mod 50 = 0 then
        uniform(s1, s2, r);
        lat_timer <= std_logic_vector(to_unsigned(integer(r * 3.0) * 8, 8));
      end if;
      run(write, start, hi, len);
    end loop;

    clocks(10);
    check(mon_errors = 0, integer'image(mon_errors) & " bus monitor errors");
    check(n_tabort = exp_tabort, "mst_rcv_tabort pulses " & integer'image(n_tabort) & ", expected " &
          integer'image(exp_tabort));
    check(n_mabort = exp_mabort, "mst_rcv_mabort pulses " & integer'image(n_mabort) & ", expected " &
          integer'image(exp_mabort));
    check(n_dperr = exp_dperr, "mst_data_perr pulses " & integer'image(n_dperr) & ", expected " &
          integer'image(exp_dperr));
    check(n_det = exp_det, "mst_det_perr pulses " & integer'image(n_det) & ", expected " &
          integer'image(exp_det));
    check(perr_seen = exp_perr_clk, "PERR# clocks " & integer'image(perr_seen) & ", expected " &
          integer'image(exp_perr_clk));
    check(m_par_errors = bad_wr and t_par_errors = bad_rd, "bad PAR seen by the checker: master " &
          integer'image(m_par_errors) & " (" & integer'image(bad_wr) & " corrupted writes), target " &
          integer'image(t_par_errors) & " (" & integer'image(bad_rd) & " bad read words)");
    -- the run met everything it is meant to meet
    check(retries > 10 and disc_data > 10 and disc_nodata > 10 and tabort > 10 and waits > 100 and
          dacs > 50 and bad_rd > 5 and bad_wr > 5, "target behaviours not all exercised");
    check(gnt_taken > 10 and lt_ends > 5 and parked > 5, "arbiter behaviours not all exercised: " &
          integer'image(gnt_taken) & " GNT# taken mid-burst, " & integer'image(lt_ends) &
          " latency-timer ends, " & integer'image(parked) & " parks");
    if errors = 0 then
      report "tb_pci_initiator: PASS (" & integer'image(n_req) & " requests, " &
             integer'image(n_words_ok) & " words each checked once in order; target: " &
             integer'image(retries) & " retries, " & integer'image(disc_data) & " disconnects with data, " &
             integer'image(disc_nodata) & " without, " & integer'image(tabort) & " target aborts, " &
             integer'image(exp_mabort) & " master aborts, " & integer'image(waits) & " wait-state phases, " &
             integer'image(dacs) & " DACs, " & integer'image(bad_rd) & " bad read parities, " &
             integer'image(bad_wr) & " corrupted writes; arbiter: " & integer'image(gnt_taken) &
             " GNT# taken mid-burst, " & integer'image(lt_ends) & " latency-timer ends, " &
             integer'image(parked) & " parks; " & integer'image(checks) & " clocks checked)" severity note;
    else
      report "tb_pci_initiator: " & integer'image(errors) & " check(s) failed" severity failure;
    end if;
    done <= true;
    wait;
  end process;

  watchdog : process
  begin
    wait for 20 ms;
    assert done report "tb_pci_initiator: timeout" severity failure;
    wait;
  end process;
end architecture;
