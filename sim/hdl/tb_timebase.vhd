-- SPDX-License-Identifier: GPL-2.0-or-later
-- Self-checking testbench of timebase: every clock the output must advance
-- by exactly the period (96-bit modular arithmetic, so fraction and ns wraps
-- are covered), and set/adjust/period must land as one atomic step at a
-- fixed latency, whatever carries are rippling through the skewed pipeline
-- when the command arrives.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

-- With CARD_TWIN a second timebase at the card's ADJ_FRAC => false runs
-- beside the default one (tb_timebase_card sets it; tests/hdl/netlist.sh
-- binds tb_timebase to a netlist synthesised at the default generics, so
-- the twin runs on the RTL only). It must equal the first every clock but
-- for the fractions of the adjusts it ignores.
entity tb_timebase is
  generic (
    CARD_TWIN : boolean := false;
    NAME      : string  := "tb_timebase");
end entity;

architecture sim of tb_timebase is
  constant OP_SET    : std_logic_vector(1 downto 0) := "00";
  constant OP_ADJUST : std_logic_vector(1 downto 0) := "01";
  constant OP_PERIOD : std_logic_vector(1 downto 0) := "10";

  signal clk       : std_logic := '0';
  signal rst       : std_logic := '1';
  signal cmd_valid : std_logic := '0';
  signal cmd_op    : std_logic_vector(1 downto 0) := OP_SET;
  signal cmd_data  : std_logic_vector(95 downto 0) := (others => '0');
  signal cmd_ready : std_logic;
  signal time_ns   : unsigned(63 downto 0);
  signal time_frac : unsigned(31 downto 0);
  signal period    : unsigned(39 downto 0);
  signal frac_early : unsigned(31 downto 0);
  signal done      : boolean := false;
  -- frac_early must equal time_frac EARLY_LEAD clocks later, every clock
  -- (W = 16: 96/16 - 32/16); counted by the checker below
  constant EARLY_LEAD : natural := 4;
  signal early_checked, early_bad : natural := 0;
  -- time_skew's ns chunk k must equal time_ns' chunk k 3 - k clocks later,
  -- frac_skew's chunk k time_frac's chunk k 5 - k clocks later
  signal time_skew : unsigned(63 downto 0);
  signal frac_skew : unsigned(31 downto 0);
  signal skew_checked, skew_bad : natural := 0;

  -- the twin (CARD_TWIN): fed the same commands, equal to the first every
  -- clock except that it ignores the fraction of an ADJUST (the test's one
  -- fractional adjust, +0.5 ns, leaves it 0.5 ns behind). Its fraction
  -- chunks have no adjust, so their carry into the ns must be 0 whatever
  -- fraction the command data holds (in the card: the last staged
  -- set/period fraction)
  signal diff_on   : boolean := true;
  signal exp_diff  : unsigned(95 downto 0) := (others => '0');
  signal diff_checked, diff_bad : natural := 0;

  -- expectation shared between stimulus and checker
  signal exp_delta   : unsigned(95 downto 0) := x"000000000000000800000000";
  signal cycle       : natural := 0;
  signal errors      : natural := 0;

  function t96 (ns : unsigned(63 downto 0); frac : unsigned(31 downto 0)) return unsigned is
  begin
    return ns & frac;
  end function;
begin
  clk <= not clk after 4 ns when not done;

  dut : entity work.timebase
    port map (clk => clk, rst => rst, cmd_valid => cmd_valid, cmd_op => cmd_op,
              cmd_data => cmd_data, cmd_ready => cmd_ready, time_ns => time_ns,
              time_frac => time_frac, frac_early => frac_early, time_skew => time_skew,
              frac_skew => frac_skew, period => period);

  twin : if CARD_TWIN generate
    signal time_ns2  : unsigned(63 downto 0);
    signal time_frac2 : unsigned(31 downto 0);
    signal ready2    : std_logic;
  begin
    dut2 : entity work.timebase
      generic map (ADJ_FRAC => false)
      port map (clk => clk, rst => rst, cmd_valid => cmd_valid, cmd_op => cmd_op,
                cmd_data => cmd_data, cmd_ready => ready2, time_ns => time_ns2,
                time_frac => time_frac2, frac_early => open, time_skew => open,
                period => open);

    adj_frac_check : process (clk)
    begin
      if rising_edge(clk) then
        if rst = '0' and diff_on then
          diff_checked <= diff_checked + 1;
          if (time_ns & time_frac) - (time_ns2 & time_frac2) /= exp_diff or ready2 /= cmd_ready then
            diff_bad <= diff_bad + 1;
            report "ADJ_FRAC false: " & to_hstring(time_ns2) & "." & to_hstring(time_frac2) &
              " is not " & to_hstring(time_ns) & "." & to_hstring(time_frac) & " - " &
              to_hstring(exp_diff) severity error;
          end if;
        end if;
      end if;
    end process;
  end generate;

  early_check : process (clk)
    type hist_t is array (1 to EARLY_LEAD) of unsigned(31 downto 0);
    variable hist : hist_t;
    variable n : natural := 0;
  begin
    if rising_edge(clk) then
      if rst = '1' then
        n := 0;
      else
        if n >= EARLY_LEAD then
          early_checked <= early_checked + 1;
          if hist(EARLY_LEAD) /= time_frac then
            early_bad <= early_bad + 1;
            report "frac_early " & to_hstring(hist(EARLY_LEAD)) & " /= time_frac " &
              to_hstring(time_frac) & " " & integer'image(EARLY_LEAD) & " clocks later"
              severity error;
          end if;
        else
          n := n + 1;
        end if;
        hist := frac_early & hist(1 to EARLY_LEAD - 1);
      end if;
    end if;
  end process;

  skew_check : process (clk)
    type hist_t is array (0 to 3) of unsigned(63 downto 0);
    variable hist : hist_t;
    type fhist_t is array (0 to 5) of unsigned(31 downto 0);
    variable fhist : fhist_t;
    variable n : natural := 0;
    variable bad : boolean;
  begin
    if rising_edge(clk) then
      if rst = '1' then
        n := 0;
      else
        hist := time_skew & hist(0 to 2);
        fhist := frac_skew & fhist(0 to 4);
        if n >= 5 then
          bad := false;
          for k in 0 to 3 loop
            bad := bad or hist(3 - k)(16 * k + 15 downto 16 * k) /= time_ns(16 * k + 15 downto 16 * k);
          end loop;
          for k in 0 to 1 loop
            bad := bad or fhist(5 - k)(16 * k + 15 downto 16 * k) /= time_frac(16 * k + 15 downto 16 * k);
          end loop;
          skew_checked <= skew_checked + 1;
          if bad then
            skew_bad <= skew_bad + 1;
            report "time_skew/frac_skew chunks do not match time " & to_hstring(time_ns) &
              "." & to_hstring(time_frac) severity error;
          end if;
        else
          n := n + 1;
        end if;
      end if;
    end if;
  end process;

  stim : process
    variable lat_set, lat_adj, lat_per : integer := -1;
    variable now_t, prev_t, want, base : unsigned(95 downto 0);
    variable p : unsigned(95 downto 0) := x"000000000000000800000000";
    variable errs : natural := 0;
    variable t0 : natural;

    procedure tick is
    begin
      wait until rising_edge(clk);
      cycle <= cycle + 1;
      wait for 1 ns;                -- sample after the edge has settled
    end procedure;

    procedure check (cond : boolean; msg : string) is
    begin
      if not cond then
        errs := errs + 1;
        report "FAIL at cycle " & integer'image(cycle) & ": " & msg severity error;
      end if;
    end procedure;

    impure function cur return unsigned is
    begin
      return t96(time_ns, time_frac);
    end function;

    -- issue a command and return the clock it was presented in
    procedure command (o : std_logic_vector(1 downto 0); v : unsigned(95 downto 0)) is
    begin
      while cmd_ready /= '1' loop
        tick;
      end loop;
      cmd_op <= o;
      cmd_data <= std_logic_vector(v);
      cmd_valid <= '1';
      t0 := cycle;
      tick;
      cmd_valid <= '0';
    end procedure;

    -- run n clocks checking every delta equals the period
    procedure run_exact (n : natural; msg : string) is
    begin
      prev_t := cur;
      for i in 1 to n loop
        tick;
        now_t := cur;
        check(now_t - prev_t = p, msg & ": delta " & to_hstring(now_t - prev_t) &
              " /= period " & to_hstring(p));
        prev_t := now_t;
      end loop;
    end procedure;

    -- find the clock (relative to t0) where cond first holds; max 40 clocks
    procedure set_and_measure (v : unsigned(95 downto 0); lat : inout integer) is
      variable seen : integer := -1;
    begin
      diff_on <= false;           -- a set makes the two timebases equal
                                  -- (both land in the clock found below)
      command(OP_SET, v);
      -- SET v makes v the time of the step before the one it lands in:
      -- the landing step shows v + period (timebase.vhd)
      for i in 0 to 40 loop
        if cur = v + p then
          seen := cycle - t0;
          exit;
        end if;
        tick;
      end loop;
      check(seen >= 0, "set value never appeared");
      exp_diff <= (others => '0');
      diff_on <= true;
      if lat < 0 then
        lat := seen;
      else
        check(seen = lat, "set latency " & integer'image(seen) & " /= " & integer'image(lat));
      end if;
    end procedure;

    -- issue adjust, check the single jump and its latency
    procedure adjust_and_check (off : unsigned(95 downto 0)) is
      variable seen : integer := -1;
      variable jumps : natural := 0;
    begin
      diff_on <= false;           -- the two timebases differ by off's fraction
      command(OP_ADJUST, off);
      prev_t := cur;
      for i in 0 to 40 loop
        tick;
        now_t := cur;
        if now_t - prev_t = p + off then
          jumps := jumps + 1;
          seen := cycle - t0;
        else
          check(now_t - prev_t = p, "adjust: stray delta " & to_hstring(now_t - prev_t));
        end if;
        prev_t := now_t;
      end loop;
      check(jumps = 1, "adjust: " & integer'image(jumps) & " jumps instead of 1");
      exp_diff <= exp_diff + resize(off(31 downto 0), 96);
      diff_on <= true;
      if lat_adj < 0 then
        lat_adj := seen;
      else
        check(seen = lat_adj, "adjust latency " & integer'image(seen) & " /= " & integer'image(lat_adj));
      end if;
    end procedure;

    -- load a period, check deltas switch exactly once from old to new
    procedure period_and_check (np : unsigned(95 downto 0)) is
      variable seen : integer := -1;
      variable old : unsigned(95 downto 0) := p;
    begin
      command(OP_PERIOD, np);
      prev_t := cur;
      for i in 0 to 40 loop
        tick;
        now_t := cur;
        if seen < 0 and now_t - prev_t = np and np /= old then
          seen := cycle - t0;
        elsif seen < 0 then
          check(now_t - prev_t = old, "period: mixed delta " & to_hstring(now_t - prev_t));
        else
          check(now_t - prev_t = np, "period: delta after switch " & to_hstring(now_t - prev_t));
        end if;
        prev_t := now_t;
      end loop;
      p := np;
      check(period = np(39 downto 0), "period output not updated");
      if np /= old then
        if lat_per < 0 then
          lat_per := seen;
        else
          check(seen = lat_per, "period latency " & integer'image(seen) & " /= " & integer'image(lat_per));
        end if;
      end if;
    end procedure;

    constant NEAR_CARRY : unsigned(95 downto 0) := x"0000FFFFFFFFFFFFFFFFFF00";
  begin
    for i in 1 to 4 loop tick; end loop;
    rst <= '0';
    tick;
    run_exact(100, "after reset, 8 ns");

    -- set near carries across every chunk boundary, then long exact run
    set_and_measure(NEAR_CARRY, lat_set);
    report "set latency " & integer'image(lat_set) & " clocks";
    run_exact(100, "through a carry into every chunk");

    -- odd fractional period, long run, then cumulative check
    period_and_check(x"00000000000000089ABCDEF1");
    report "period latency " & integer'image(lat_per) & " clocks";
    base := cur;
    run_exact(100000, "fractional period long run");
    want := base + resize(to_unsigned(100000, 32) * p, 96);
    check(cur = want, "cumulative after 100000 clocks: " & to_hstring(cur) & " /= " & to_hstring(want));

    -- a set whose data + period carries out of the fraction into an ns
    -- chunk 0 that propagates it (0x0008 xor 0xFFF7 = 0xFFFF, period
    -- 8.9ABCDEF1 + 0.8): the carry must ripple on into the ns above
    set_and_measure(x"000012345678FFF780000000", lat_set);
    run_exact(20, "set with a propagated fraction carry");

    -- ns wrap at 2^64 and fraction wrap
    set_and_measure(x"FFFFFFFFFFFFFFF0FFFFFFF0", lat_set);
    run_exact(20, "64-bit ns wrap");
    check(time_ns < 200, "ns did not wrap");

    -- every command at every phase relative to a rippling carry
    for k in 0 to 24 loop
      set_and_measure(NEAR_CARRY, lat_set);
      for i in 1 to k loop tick; end loop;
      adjust_and_check(x"0000000000000003E8000000");             -- +1000 ns
      set_and_measure(NEAR_CARRY, lat_set);
      for i in 1 to k loop tick; end loop;
      adjust_and_check(x"FFFFFFFFFFFFFC1800000000");             -- -1000 ns
      set_and_measure(NEAR_CARRY, lat_set);
      for i in 1 to k loop tick; end loop;
      period_and_check(x"0000000000000007" & to_unsigned(16#10000000# * (k mod 8) + k, 32));
      period_and_check(x"00000000000000089ABCDEF1");
    end loop;

    -- large adjusts both ways (adjtime of hours) and a fractional one
    adjust_and_check(x"0000001CBE991A08" & x"00000000");          -- +123456789000 ns
    adjust_and_check(x"FFFFFFE34166E5F8" & x"00000000");          -- -123456789000 ns
    adjust_and_check(x"000000000000000080000000");                -- +0.5 ns
    -- fraction bits in the data: ignored by the ADJ_FRAC false timebase,
    -- whose fraction carry into the ns must stay 0 (0xFFFF.... + the
    -- period's 0x9ABC.... carries out of the fraction chunks)
    adjust_and_check(x"0000000000000003FFFF0000");                -- +3.99998 ns
    run_exact(1000, "after adjusts");

    report "latencies: set " & integer'image(lat_set) & ", adjust " &
      integer'image(lat_adj) & ", period " & integer'image(lat_per);
    check(lat_set = lat_adj, "set and adjust must land at the same step");
    check(skew_bad = 0 and skew_checked > 100000, "time_skew: " & integer'image(skew_bad) &
          " mismatches in " & integer'image(skew_checked) & " clocks");
    check(early_bad = 0 and early_checked > 100000, "frac_early: " & integer'image(early_bad) &
          " mismatches in " & integer'image(early_checked) & " clocks");
    if CARD_TWIN then
      check(diff_bad = 0 and diff_checked > 100000, "ADJ_FRAC false: " & integer'image(diff_bad) &
            " mismatches in " & integer'image(diff_checked) & " clocks");
    end if;
    errors <= errs;
    if errs = 0 then
      report NAME & ": PASS";
    else
      report NAME & ": " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
