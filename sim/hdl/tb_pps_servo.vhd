-- SPDX-License-Identifier: GPL-2.0-or-later
-- Closed-loop testbench of pps_servo at real scale (1 s intervals, 8 ns
-- period, reset gains). The card's clock is a behavioural model here: per
-- interval its time advances by interval * (1 + y_osc) * (period + corr) /
-- period, steps add to it, and each PPS stamp is that time at the true
-- second plus GPS jitter (10 ns RMS, approximated by a sum of uniforms),
-- quantised to the 8 ns clock. This exercises the servo's arithmetic and
-- state machine over hundreds of seconds in a few simulated ms; the real
-- timebase in the loop is covered by the Verilator model (make test-sim).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;
use work.clock_msg_pkg.all;

entity tb_pps_servo is
end entity;

architecture sim of tb_pps_servo is
  constant INTERVAL : real := 1.0e9;
  signal clk : std_logic := '0';
  signal rst : std_logic := '1';
  signal mode : std_logic_vector(1 downto 0) := "10";
  signal stamp_valid, us_tick, req_ack : std_logic := '0';
  signal stamp : unsigned(63 downto 0) := (others => '0');
  signal accepted, step_req, freq_req, present : std_logic;
  signal state : std_logic_vector(1 downto 0);
  -- the counters and results the servo keeps in the register RAM, modelled here
  signal rejects, losses, steps, edges, gap_glitches : unsigned(31 downto 0) := (others => '0');
  signal freq_adj, offset_ns, step_lo, step_hi : signed(31 downto 0) := (others => '0');
  signal stamp_lo, stamp_hi : unsigned(31 downto 0) := (others => '0');
  signal stamp_half : boolean := false;   -- P_STAMP_LO written, P_STAMP_HI not yet
  signal cnt_req, cnt_ack : std_logic := '0';
  signal cnt_sel : par_t;
  signal cnt_val : std_logic_vector(31 downto 0);
  signal loss_us : unsigned(31 downto 0) := to_unsigned(1_500_000, 32);
  signal done : boolean := false;
  signal worst_lat : natural := 0;
  signal par : par_t;
  signal par_q : std_logic_vector(31 downto 0) := (others => '0');
begin
  -- the register file's parameter RAM: the register words, one clock late
  params : process (clk)
  begin
    if rising_edge(clk) then
      case par is
        when P_INTERVAL => par_q <= std_logic_vector(to_unsigned(1_000_000_000, 32));
        -- the reset gains of the register map (0.7, 0.3, 1.0): mant(23..8), shift(4..0)
        when P_KP => par_q <= x"00180D08";
        when P_KI => par_q <= x"000A4F08";
        when P_KF => par_q <= x"00225C08";
        when P_LOCK => par_q <= std_logic_vector(to_unsigned(100, 32));
        when P_REJ => par_q <= std_logic_vector(to_unsigned(2000, 32));
        when P_STEP => par_q <= std_logic_vector(to_unsigned(20000, 32));
        when P_LOSS => par_q <= std_logic_vector(loss_us);
        when P_GAP => par_q <= std_logic_vector(to_unsigned(500_000_000, 32));
        when P_LCNT => par_q <= std_logic_vector(to_unsigned(4, 32));
        when P_EDGES => par_q <= std_logic_vector(edges);
        when P_REJECTS => par_q <= std_logic_vector(rejects);
        when P_LOSSES => par_q <= std_logic_vector(losses);
        when P_GAPS => par_q <= std_logic_vector(gap_glitches);
        when P_STEPS => par_q <= std_logic_vector(steps);
        -- the stamp's words, as the register file writes them from the
        -- PPS answer before it raises stamp_valid
        when P_PPS_LO => par_q <= std_logic_vector(stamp(31 downto 0));
        when P_PPS_HI => par_q <= std_logic_vector(stamp(63 downto 32));
        when others => par_q <= (others => 'X');
      end case;
      -- counter write-back, acknowledged after a clock (as the register
      -- file does when its write port is free); the register file's reset
      -- clears the counters
      cnt_ack <= '0';
      if rst = '1' then
        edges <= (others => '0'); rejects <= (others => '0');
        losses <= (others => '0'); steps <= (others => '0');
        gap_glitches <= (others => '0'); freq_adj <= (others => '0');
        offset_ns <= (others => '0'); step_lo <= (others => '0'); step_hi <= (others => '0');
        stamp_lo <= (others => '0'); stamp_hi <= (others => '0');
        stamp_half <= false;
      elsif cnt_req = '1' and cnt_ack = '0' then
        cnt_ack <= '1';
        -- the stamp's two words come back to back (the register file
        -- relies on it: no access between them)
        assert not stamp_half or cnt_sel = P_STAMP_HI
          report "FAIL: stamp low word not followed by its high word" severity error;
        assert stamp_half or cnt_sel /= P_STAMP_HI
          report "FAIL: stamp high word without its low word" severity error;
        stamp_half <= cnt_sel = P_STAMP_LO;
        case cnt_sel is
          when P_EDGES => edges <= unsigned(cnt_val);
          when P_REJECTS => rejects <= unsigned(cnt_val);
          when P_LOSSES => losses <= unsigned(cnt_val);
          when P_STEPS => steps <= unsigned(cnt_val);
          when P_GAPS => gap_glitches <= unsigned(cnt_val);
          when P_OFFSET => offset_ns <= signed(cnt_val);
          when P_FREQ => freq_adj <= signed(cnt_val);
          when P_STEP_LO => step_lo <= signed(cnt_val);
          when P_STEP_HI => step_hi <= signed(cnt_val);
          when P_STAMP_LO => stamp_lo <= unsigned(cnt_val);
          when P_STAMP_HI => stamp_hi <= unsigned(cnt_val);
          when others => report "FAIL: write-back to an unknown word" severity error;
        end case;
      end if;
    end if;
  end process;

  clk <= not clk after 7.5 ns when not done;

  -- how long the servo works on an edge: clocks from stamp_valid to its
  -- frequency request (the last thing an edge does), longest seen
  latency : process (clk)
    variable since : integer := -1;
    variable worst : natural := 0;
  begin
    if rising_edge(clk) then
      if stamp_valid = '1' then
        since := 0;
      elsif since >= 0 then
        since := since + 1;
        if freq_req = '1' then
          if since > worst then
            worst := since;
            worst_lat <= since;
          end if;
          since := -1;
        end if;
      end if;
    end if;
  end process;

  dut : entity work.pps_servo
    port map (
      clk => clk, rst => rst, mode => mode, par => par, par_q => par_q,
      stamp_valid => stamp_valid, us_tick => us_tick,
      accepted => accepted, step_req => step_req,
      freq_req => freq_req, req_ack => req_ack,
      state => state, present => present,
      cnt_req => cnt_req, cnt_sel => cnt_sel,
      cnt_val => cnt_val, cnt_ack => cnt_ack);

  stim : process
    variable errs : natural := 0;
    variable card, y_osc, corr : real := 0.0;     -- card time (ns) at the last true second
    variable true_s : natural := 1000;             -- true seconds since epoch
    variable s1, s2 : positive := 42;
    variable sum_sq : real;
    variable n_sq, lock_at : integer;
    variable max_abs : real;

    procedure check (cond : boolean; msg : string) is
    begin
      if not cond then
        errs := errs + 1;
        report "FAIL: " & msg severity error;
      end if;
    end procedure;

    function to_u64 (x : real) return unsigned is
      variable p2, p1, p0, r : real;
    begin
      p2 := floor(x / 2.0 ** 48);
      r  := x - p2 * 2.0 ** 48;
      p1 := floor(r / 2.0 ** 24);
      p0 := r - p1 * 2.0 ** 24;
      return to_unsigned(integer(p2), 16) & to_unsigned(integer(p1), 24) &
             to_unsigned(integer(p0), 24);
    end function;

    impure function jitter return real is          -- ~N(0, 10 ns)
      variable u, acc : real := 0.0;
    begin
      for i in 1 to 4 loop
        uniform(s1, s2, u);
        acc := acc + u - 0.5;
      end loop;
      return acc * 10.0 / sqrt(4.0 / 12.0);
    end function;

    -- serve the servo's requests until it is idle again
    procedure serve is
    begin
      for i in 1 to 1500 loop       -- an edge takes ~550 clocks
        wait until rising_edge(clk);
        req_ack <= '0';
        if step_req = '1' and req_ack = '0' then
          -- the step's two words: |step| < 2^31, so the high word is the
          -- sign of the low one (the timebase adds all 64 bits)
          assert step_hi = (31 downto 0 => step_lo(31))
            report "FAIL: step high word " & to_hstring(step_hi) & " for low word " &
                   to_hstring(step_lo) severity error;
          card := card + real(to_integer(step_lo));
          req_ack <= '1';
        elsif freq_req = '1' and req_ack = '0' then
          corr := real(to_integer(freq_adj)) / 4294967296.0 / 8.0;
          req_ack <= '1';
        end if;
      end loop;
    end procedure;

    -- one true second passes; the PPS edge is stamped (or not) and served
    procedure second (send : boolean; extra_ns : real := 0.0) is
      variable st : real;
    begin
      card := card + INTERVAL * (1.0 + y_osc) * (1.0 + corr);
      true_s := true_s + 1;
      if send then
        st := card + jitter + extra_ns;
        stamp <= to_u64(floor(st / 8.0) * 8.0);   -- the 8 ns clock quantises
        wait until rising_edge(clk);
        stamp_valid <= '1';
        wait until rising_edge(clk);
        stamp_valid <= '0';
      end if;
      serve;
    end procedure;

    procedure lock_from (ppm : real; name : string) is
    begin
      rst <= '1';
      wait until rising_edge(clk);
      wait until rising_edge(clk);
      rst <= '0';
      y_osc := ppm * 1.0e-6;
      corr := 0.0;
      card := real(true_s) * INTERVAL + 0.3e9;   -- 0.3 s off to begin with
      lock_at := -1;
      for k in 1 to 20 loop
        second(true);
        if state = "10" and lock_at < 0 then
          lock_at := k;
        end if;
      end loop;
      report name & ": locked after " & integer'image(lock_at) & " PPS edges";
      check(lock_at > 0 and lock_at <= 10, name & ": lock within 10 s, got " & integer'image(lock_at));
      sum_sq := 0.0; n_sq := 0; max_abs := 0.0;
      for k in 1 to 100 loop
        second(true);
        -- the true phase error: card time at the true second minus the second
        sum_sq := sum_sq + (card - real(true_s) * INTERVAL) ** 2;
        n_sq := n_sq + 1;
        max_abs := realmax(max_abs, abs(card - real(true_s) * INTERVAL));
        check(state = "10", name & ": lost lock at " & integer'image(k));
      end loop;
      report name & ": RMS time error " & real'image(sqrt(sum_sq / real(n_sq))) &
             " ns, max " & real'image(max_abs) & " ns, freq_adj " & integer'image(to_integer(freq_adj));
      check(sqrt(sum_sq / real(n_sq)) < 20.0, name & ": RMS error above 20 ns");
      -- the learned correction cancels the oscillator to better than 0.05 ppm
      check(abs(corr + y_osc) < 0.05e-6, name & ": residual frequency " & real'image((corr + y_osc) * 1.0e6) & " ppm");
    end procedure;

    variable st0, steps0, rej0, gap0 : unsigned(31 downto 0);
    variable card0, fa0 : real;
  begin
    lock_from(100.0, "+100 ppm");
    lock_from(-100.0, "-100 ppm");

    -- one far-off edge: rejected, clock not moved, still locked
    steps0 := steps; rej0 := rejects;
    second(true, 5000.0);
    check(rejects = rej0 + 1, "far-off edge not rejected");
    check(steps = steps0, "far-off edge stepped the clock");
    check(abs(card - real(true_s) * INTERVAL) < 100.0, "far-off edge moved the clock");
    check(state = "10", "one far-off edge broke the lock");

    -- a glitch between seconds (100 ms after the last edge): counted, ignored
    gap0 := gap_glitches;
    stamp <= stamp + 100_000_000;
    wait until rising_edge(clk);
    stamp_valid <= '1';
    wait until rising_edge(clk);
    stamp_valid <= '0';
    serve;
    check(gap_glitches = gap0 + 1, "glitch not counted");
    second(true);
    check(state = "10", "glitch broke the lock");

    -- PPS lost: holdover keeps the learned frequency
    fa0 := corr;
    loss_us <= to_unsigned(1000, 32);   -- 1000 ticks; each simulated second sends 600
    for k in 1 to 3 loop
      second(false);
      for i in 1 to 600 loop
        wait until rising_edge(clk);
        us_tick <= '1';
        wait until rising_edge(clk);
        us_tick <= '0';
      end loop;
    end loop;
    check(state = "11", "no holdover after PPS loss");
    check(losses = 1, "loss not counted");
    check(present = '0', "present still set after loss");
    check(abs(corr + y_osc) < 0.05e-6, "holdover frequency drifted from the learned one");
    report "holdover after 3 s: time error " & real'image(card - real(true_s) * INTERVAL) & " ns";
    loss_us <= to_unsigned(1_500_000, 32);

    -- PPS back: re-lock without a step
    steps0 := steps;
    for k in 1 to 8 loop
      second(true);
    end loop;
    check(state = "10", "did not re-lock after holdover");
    check(steps = steps0, "re-lock after a short holdover stepped the clock");

    -- the reference really jumps by 50 us: rejected 4 times, then re-acquired
    steps0 := steps;
    card := card - 50000.0;
    for k in 1 to 12 loop
      second(true);
    end loop;
    check(steps > steps0, "a real reference jump was never followed");
    check(state = "10", "not locked again after a reference jump");

    -- report mode: stamps accepted, nothing steered
    mode <= "01";
    wait until rising_edge(clk);
    fa0 := corr;
    st0 := edges;
    second(true);
    second(true);
    check(edges = st0 + 2, "report mode does not accept edges");
    -- the accepted stamp came out whole through the result port
    check(stamp_hi & stamp_lo = stamp, "last stamp " & to_hstring(stamp_hi & stamp_lo) &
          " /= " & to_hstring(stamp));
    check(corr = fa0, "report mode steered the clock");
    check(state = "00", "report mode must show FREERUN");

    report "tb_pps_servo: longest edge (stamp to frequency request) " &
           integer'image(worst_lat) & " clocks";
    if errs = 0 then
      report "tb_pps_servo: PASS";
    else
      report "tb_pps_servo: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
