-- SPDX-License-Identifier: GPL-2.0-or-later
-- Testbench of perout_gen against an ideal 8 ns counter: rising edges at
-- start + k * period, falling edges width later, each exactly DELAY = 2
-- clocks after the time passes the target; disarm holds the output low.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_perout_gen is
end entity;

architecture sim of tb_perout_gen is
  signal clk : std_logic := '0';
  signal rst, arm, enable, dout : std_logic := '0';
  signal start_ns, time_ns, next_ns : unsigned(63 downto 0) := (others => '0');
  -- the timebase's skewed chunks: chunk k is 3 - k steps ahead of time_ns
  signal time_skew : unsigned(63 downto 0);
  -- perout_gen's write port for period and width (written, not held)
  signal wr_period, wr_width : std_logic := '0';
  signal wr_data : unsigned(31 downto 0) := (others => '0');
  signal done : boolean := false;
  -- a time step (a set) of the ideal counter
  signal jump : boolean := false;
  signal jump_to : unsigned(63 downto 0) := (others => '0');
begin
  clk <= not clk after 4 ns when not done;
  process (clk)
  begin
    if rising_edge(clk) then
      if jump then
        time_ns <= jump_to;
      else
        time_ns <= time_ns + 8;
      end if;
    end if;
  end process;

  skew : for k in 0 to 3 generate
    signal ahead : unsigned(63 downto 0);
  begin
    ahead <= time_ns + 8 * (3 - k);
    time_skew(16 * k + 15 downto 16 * k) <= ahead(16 * k + 15 downto 16 * k);
  end generate;

  dut : entity work.perout_gen
    port map (clk => clk, rst => rst, arm => arm, enable => enable, start_ns => start_ns,
              wr_period => wr_period, wr_width => wr_width, wr_data => wr_data, time_skew => time_skew, dout => dout,
              next_ns => next_ns);

  process
    variable errs : natural := 0;
    variable t : unsigned(63 downto 0);
    procedure check (c : boolean; m : string) is
    begin
      if not c then errs := errs + 1; report "FAIL: " & m severity error; end if;
    end procedure;
    -- arm with start s, period p and width w, then watch n clocks: every
    -- edge must come exactly DELAY = 2 clocks after the time passes its
    -- target (rise k at s + k * p, fall k at that + w), and exactly nr
    -- rises and nf falls must come
    procedure run_edges (s : unsigned(63 downto 0); p, w : unsigned(31 downto 0);
                         n : positive; nr, nf : natural; what : string) is
      variable prev : std_logic := '0';
      variable rises, falls : natural := 0;
      variable tm, target : unsigned(63 downto 0);
    begin
      -- period, then width: a strobe, the data held one clock more (the
      -- high half), and the next write right after (clock_tb_domain's
      -- messages come 4 clocks apart or more; back to back here)
      wr_data <= p; wr_period <= '1';
      wait until rising_edge(clk);
      wr_period <= '0';
      wait until rising_edge(clk);
      wr_data <= w; wr_width <= '1';
      wait until rising_edge(clk);
      wr_width <= '0';
      wait until rising_edge(clk);
      wr_data <= (others => 'X');     -- must not be read any more
      start_ns <= s; enable <= '1'; arm <= '1';
      wait until rising_edge(clk);
      arm <= '0';
      for i in 1 to n loop
        wait until rising_edge(clk);
        wait for 1 ns;
        if dout /= prev then
          -- the time shown 2 clocks ago was the first at or past the target
          tm := time_ns - 16;
          if dout = '1' then
            target := s + resize(resize(p, 64) * rises, 64);
            rises := rises + 1;
          else
            target := s + resize(resize(p, 64) * falls, 64) + resize(w, 64);
            falls := falls + 1;
          end if;
          check(tm >= target and tm < target + 8, what & ": edge " & std_logic'image(dout) &
                " at time " & to_hstring(tm) & " for target " & to_hstring(target));
          prev := dout;
        end if;
      end loop;
      check(rises = nr and falls = nf, what & ": " & integer'image(rises) & " rises, " &
            integer'image(falls) & " falls in " & integer'image(n) & " clocks");
    end procedure;
  begin
    -- time starts at 0 and the start is not on the 8 ns grid: first clock
    -- at or past 1004 shows 1008
    wait until rising_edge(clk);
    run_edges(to_unsigned(1004, 64), to_unsigned(1000, 32), to_unsigned(300, 32), 700, 5, 5,
              "narrow");
    check(next_ns = 6004, "next_ns " & integer'image(to_integer(next_ns)));
    -- disarm: stays low
    enable <= '0';
    arm <= '1';
    wait until rising_edge(clk);
    arm <= '0';
    for i in 1 to 300 loop
      wait until rising_edge(clk);
      check(dout = '0', "output moved while disarmed");
    end loop;
    -- period and width beyond 16 bits, period - width borrowing across the
    -- low chunk (0x20010 - 0x10020 = 0xFFF0): the rises come from
    -- fall + (period - width), formed chunk by chunk
    t := time_ns + 2000;
    run_edges(t, x"00020010", x"00010020", 70000, 5, 4, "wide");
    -- re-armed while high, without a disarm: the output waits for a fall
    -- whose rise addend's low chunk carried (0x20 + not 0x10), and the new
    -- fall must not take that carry (before session 14 it did: the fall
    -- came 1 ns early, a clock early here since start + width is 1 past
    -- the 8 ns grid; the driver disarms first, a bare ctrl write does not)
    check(dout = '1', "wide: not high at its end");
    t := time_ns + 2001;
    run_edges(t, to_unsigned(3000, 32), to_unsigned(1000, 32), 1400, 4, 3, "re-armed");

    -- the compare is modular over 48 bits of ns (perout_gen.vhd): a
    -- target up to 2^47 ns ahead is waited for, one behind is past. Across
    -- the 2^48 boundary of the ns (bit 48 is not compared) the edges land
    -- on time; a target 2^46 ns ahead gives no edge, one 2^46 ns behind
    -- rises at once.
    enable <= '0'; arm <= '1'; wait until rising_edge(clk); arm <= '0';
    jump_to <= x"0000FFFFFFFFF000"; jump <= true;
    wait until rising_edge(clk);
    jump <= false;
    wait for 1 ns;
    -- 0x1100 = 4352 ns after the time now
    run_edges(x"0001000000000100", to_unsigned(1000, 32), to_unsigned(300, 32), 1000, 4, 4,
              "2^48");
    enable <= '1'; arm <= '1'; start_ns <= time_ns + x"0000400000000000";
    wait until rising_edge(clk);
    arm <= '0';
    for i in 1 to 300 loop
      wait until rising_edge(clk);
      check(dout = '0', "a target 2^46 ns ahead fired");
    end loop;
    enable <= '1'; arm <= '1'; start_ns <= time_ns - x"0000400000000000";
    wait until rising_edge(clk);
    arm <= '0';
    for i in 1 to 8 loop
      wait until rising_edge(clk);
    end loop;
    check(dout = '1', "a target 2^46 ns behind did not rise at once");

    if errs = 0 then
      report "tb_perout_gen: PASS";
    else
      report "tb_perout_gen: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
