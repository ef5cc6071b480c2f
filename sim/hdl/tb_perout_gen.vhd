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
  signal period, width : unsigned(31 downto 0) := (others => '0');
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
              period => period, width => width, time_skew => time_skew, dout => dout,
              next_ns => next_ns);

  process
    variable errs : natural := 0;
    variable prev : std_logic := '0';
    variable rises, falls : natural := 0;
    variable t, target : unsigned(63 downto 0);
    procedure check (c : boolean; m : string) is
    begin
      if not c then errs := errs + 1; report "FAIL: " & m severity error; end if;
    end procedure;
  begin
    -- time starts at 0 and the start is not on the 8 ns grid: first clock
    -- at or past 1004 shows 1008
    start_ns <= to_unsigned(1004, 64);
    period <= to_unsigned(1000, 32);
    width <= to_unsigned(300, 32);
    enable <= '1';
    wait until rising_edge(clk);
    arm <= '1';
    wait until rising_edge(clk);
    arm <= '0';
    for i in 1 to 700 loop
      wait until rising_edge(clk);
      wait for 1 ns;
      if dout /= prev then
        -- the time shown 2 clocks ago was the first at or past the target
        t := time_ns - 16;
        if dout = '1' then
          target := to_unsigned(1004 + 1000 * rises, 64);
          rises := rises + 1;
        else
          target := to_unsigned(1004 + 1000 * falls + 300, 64);
          falls := falls + 1;
        end if;
        check(t >= target and t < target + 8, "edge " & std_logic'image(dout) & " at time " &
              integer'image(to_integer(t)) & " for target " & integer'image(to_integer(target)));
        prev := dout;
      end if;
    end loop;
    check(rises = 5 and falls = 5, "edges in 5.6 us: " & integer'image(rises) & "/" & integer'image(falls));
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
    start_ns <= t;
    period <= x"00020010";
    width <= x"00010020";
    enable <= '1';
    arm <= '1';
    wait until rising_edge(clk);
    arm <= '0';
    prev := '0'; rises := 0; falls := 0;
    for i in 1 to 70000 loop
      wait until rising_edge(clk);
      wait for 1 ns;
      if dout /= prev then
        if dout = '1' then
          target := start_ns + rises * 16#20010#;
          rises := rises + 1;
        else
          target := start_ns + falls * 16#20010# + 16#10020#;
          falls := falls + 1;
        end if;
        check(time_ns - 16 >= target and time_ns - 16 < target + 8, "wide: edge " &
              std_logic'image(dout) & " at time " & to_hstring(time_ns - 16) & " for target " &
              to_hstring(target));
        prev := dout;
      end if;
    end loop;
    check(rises = 5 and falls = 4, "wide: edges in 560 us: " & integer'image(rises) & "/" &
          integer'image(falls));

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
    start_ns <= x"0001000000000100";   -- 0x1100 = 4352 ns after the time now
    period <= to_unsigned(1000, 32);
    width <= to_unsigned(300, 32);
    enable <= '1'; arm <= '1';
    wait until rising_edge(clk);
    arm <= '0';
    prev := '0'; rises := 0; falls := 0;
    for i in 1 to 1000 loop
      wait until rising_edge(clk);
      wait for 1 ns;
      if dout /= prev then
        if dout = '1' then
          target := start_ns + rises * 1000;
          rises := rises + 1;
        else
          target := start_ns + falls * 1000 + 300;
          falls := falls + 1;
        end if;
        check(time_ns - 16 >= target and time_ns - 16 < target + 8, "2^48: edge " &
              std_logic'image(dout) & " at time " & to_hstring(time_ns - 16) & " for target " &
              to_hstring(target));
        prev := dout;
      end if;
    end loop;
    check(rises = 4 and falls = 4, "2^48: edges in 8 us: " & integer'image(rises) & "/" &
          integer'image(falls));
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
