-- SPDX-License-Identifier: GPL-2.0-or-later
-- clock_tb_domain alone, its answer port driven by a model of the crossing
-- (cdc_handshake's a side as clock_tb_domain sees it): a word is taken in a
-- clock with resp_valid and resp_ready, and the crossing stays busy
-- (resp_ready 0) for DLY clocks after each take, the acknowledge's round
-- trip through the bus domain (4 clocks or more in the card).
--
-- What it checks is the overlap tb_clock_core never makes: an event answer
-- that starts while the crossing is still busy with the answer before (a
-- snapshot popped in the same command), so its first word waits for the
-- crossing several clocks. Every word of both answers is checked; the
-- event stamp's high word must be the stamp's (session 6, 7dff381: it was
-- the timebase's fraction once the first word had waited more than a
-- clock).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.clock_msg_pkg.all;

entity tb_clock_tb_domain is
end entity;

architecture sim of tb_clock_tb_domain is
  constant SET_NS   : unsigned(63 downto 0) := x"0000001200001000";
  constant SET_FRAC : std_logic_vector(31 downto 0) := x"9ABCDEF0";
  signal clk : std_logic := '0';
  signal rst : std_logic := '1';
  signal msg_valid, msg_ready, msg_pend : std_logic := '0';
  signal msg : std_logic_vector(MSG_W - 1 downto 0) := (others => '0');
  signal resp_valid, resp_alt : std_logic;
  signal resp, resp_data_alt : std_logic_vector(RESP_W - 1 downto 0);
  signal resp_ready : std_logic := '1';
  signal event_in : std_logic_vector(1 downto 0) := "00";
  signal pps_in : std_logic := '0';
  signal time_ns : unsigned(63 downto 0);
  signal done : boolean := false;

  -- the crossing model's state and what it took
  signal dly : natural := 4;
  signal busy_cnt : natural := 0;
  type word_arr is array (0 to 15) of std_logic_vector(RESP_W - 1 downto 0);
  signal taken : word_arr;
  signal n_taken : natural := 0;
  signal clear_taken : boolean := false;
  -- an answer's first word offered while the crossing was busy
  signal waits : natural := 0;
  signal rv_q : std_logic := '0';
begin
  clk <= not clk after 4 ns when not done;

  dut : entity work.clock_tb_domain
    generic map (N_EVENTS => 2, FIFO_LOG2 => 4, CLK_HZ => 125_000_000)
    port map (clk => clk, rst => rst, msg_valid => msg_valid, msg_pend => msg_pend, msg => msg,
              msg_ready => msg_ready, resp_valid => resp_valid, resp => resp,
              resp_alt => resp_alt, resp_data_alt => resp_data_alt,
              resp_ready => resp_ready, us_toggle => open, ev_pending => open,
              pps_in => pps_in, event_in => event_in, perout => open,
              time_ns_out => time_ns);

  crossing : process (clk)
  begin
    if rising_edge(clk) then
      rv_q <= resp_valid;
      if resp_valid = '1' and rv_q = '0' and resp_ready = '0' then
        waits <= waits + 1;
      end if;
      if clear_taken then
        n_taken <= 0;
      end if;
      if resp_valid = '1' and resp_ready = '1' then
        if resp_alt = '1' then
          taken(n_taken) <= resp_data_alt;
        else
          taken(n_taken) <= resp;
        end if;
        n_taken <= n_taken + 1;
        resp_ready <= '0';
        busy_cnt <= dly - 1;
      elsif busy_cnt /= 0 then
        busy_cnt <= busy_cnt - 1;
      else
        resp_ready <= '1';
      end if;
    end if;
  end process;

  stim : process
    variable errs : natural := 0;
    variable lo, hi : unsigned(31 downto 0);
    variable ev_lo, ev_hi : unsigned(31 downto 0);
    variable w0 : natural;

    procedure check (cond : boolean; m : string) is
    begin
      if not cond then
        errs := errs + 1;
        report "FAIL: " & m severity error;
      end if;
    end procedure;

    procedure send (a : msg_addr_t; d : std_logic_vector(31 downto 0)) is
    begin
      -- as the crossing does: the word is stable two clocks before it is
      -- pending, waits (msg_pend) until a clock edge with msg_ready takes
      -- it (msg_valid in the clock after), and stays three clocks more
      msg <= std_logic_vector(to_unsigned(a, 5)) & d;
      wait until rising_edge(clk);
      wait until rising_edge(clk);
      msg_pend <= '1';
      loop
        wait until rising_edge(clk);
        exit when msg_ready = '1';
      end loop;
      msg_pend <= '0';
      msg_valid <= '1';
      wait until rising_edge(clk);
      msg_valid <= '0';
      for i in 1 to 3 loop wait until rising_edge(clk); end loop;
    end procedure;

    function bitv (n : natural) return std_logic_vector is
      variable v : std_logic_vector(31 downto 0) := (others => '0');
    begin
      v(n) := '1';
      return v;
    end function;

    function dest (w : std_logic_vector(RESP_W - 1 downto 0)) return std_logic_vector is
    begin
      return w(35 downto 32);
    end function;
  begin
    for i in 1 to 5 loop wait until rising_edge(clk); end loop;
    rst <= '0';
    for i in 1 to 5 loop wait until rising_edge(clk); end loop;
    -- whole-ns period 8 and a constant fraction: a fraction in place of
    -- the high word (0x12) shows
    send(M_SET_HI, std_logic_vector(SET_NS(63 downto 32)));
    send(M_SET_LO, std_logic_vector(SET_NS(31 downto 0)));
    send(M_SET_FRAC, SET_FRAC);      -- the SET command itself (session 8)
    send(M_EV_CFG, x"00000001");
    -- ten events into the FIFO
    for i in 1 to 10 loop
      event_in(0) <= '1';
      for j in 1 to 8 loop wait until rising_edge(clk); end loop;
      event_in(0) <= '0';
      for j in 1 to 8 loop wait until rising_edge(clk); end loop;
    end loop;
    for j in 1 to 20 loop wait until rising_edge(clk); end loop;

    -- snapshot and pop in one command: the snapshot goes first, the event
    -- answer starts as soon as its last word is taken, with the crossing
    -- still busy for dly clocks
    for d in 4 to 12 loop
      dly <= d;
      clear_taken <= true;
      wait until rising_edge(clk);
      clear_taken <= false;
      send(M_CMD, bitv(C_SNAPSHOT) or bitv(C_POP));
      for j in 1 to 200 loop
        wait until rising_edge(clk);
        exit when n_taken = 6;
      end loop;
      for j in 1 to 30 loop wait until rising_edge(clk); end loop;
      check(n_taken = 6, "dly " & integer'image(d) & ": " & integer'image(n_taken) & " words, not 6");
      if n_taken >= 6 then
        check(dest(taken(0)) = D_TIME_LO and dest(taken(1)) = D_TIME_HI and
              dest(taken(2)) = D_TIME_FRAC and dest(taken(3)) = D_EV_LO and
              dest(taken(4)) = D_EV_HI and dest(taken(5)) = D_EV_INFO,
              "dly " & integer'image(d) & ": word destinations");
        lo := unsigned(taken(0)(31 downto 0));
        hi := unsigned(taken(1)(31 downto 0));
        check(hi = SET_NS(63 downto 32), "dly " & integer'image(d) & ": snapshot high word " &
              to_hstring(hi));
        check(taken(2)(31 downto 0) = SET_FRAC, "dly " & integer'image(d) &
              ": snapshot fraction " & to_hstring(taken(2)(31 downto 0)));
        ev_lo := unsigned(taken(3)(31 downto 0));
        ev_hi := unsigned(taken(4)(31 downto 0));
        check(ev_hi = SET_NS(63 downto 32), "dly " & integer'image(d) &
              ": event stamp high word " & to_hstring(ev_hi) & ", not " &
              to_hstring(SET_NS(63 downto 32)));
        check(ev_lo > SET_NS(31 downto 0) and ev_lo < lo, "dly " & integer'image(d) &
              ": event stamp low word " & to_hstring(ev_lo) & " not between the set and the snapshot");
        check(taken(5)(31) = '1' and taken(5)(2 downto 0) = "000" and
              unsigned(taken(5)(23 downto 8)) = d - 4, "dly " & integer'image(d) &
              ": event info " & to_hstring(taken(5)(31 downto 0)));
      end if;
    end loop;
    -- the overlap under test happened: the event answers' first words (and
    -- not only those) were offered to a busy crossing
    report "tb_clock_tb_domain: " & integer'image(waits) & " answer starts with the crossing busy";
    check(waits >= 9, "the event answers did not start with the crossing busy");

    if errs = 0 then
      report "tb_clock_tb_domain: PASS";
    else
      report "tb_clock_tb_domain: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
