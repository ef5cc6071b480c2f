-- SPDX-License-Identifier: GPL-2.0-or-later
-- Testbench of edge_capture: the stamp of an edge is the time of the clock
-- two after the one the pin changed in, pulses shorter than min_width are
-- glitches (no stamp), falling-edge mode, disable.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_edge_capture is
end entity;

architecture sim of tb_edge_capture is
  signal clk : std_logic := '0';
  signal rst, pin, enable, falling : std_logic := '0';
  signal min_width : unsigned(15 downto 0) := to_unsigned(4, 16);
  signal time_ns : unsigned(63 downto 0) := (others => '0');
  signal stamp_valid, glitch : std_logic;
  signal stamp : unsigned(63 downto 0);
  signal done : boolean := false;
  signal n_stamps, n_glitches : natural := 0;
  signal last_stamp : unsigned(63 downto 0) := (others => '0');
begin
  clk <= not clk after 4 ns when not done;
  -- an ideal 8 ns counter stands in for the timebase
  process (clk)
  begin
    if rising_edge(clk) then
      time_ns <= time_ns + 8;
      if stamp_valid = '1' then
        n_stamps <= n_stamps + 1;
        last_stamp <= stamp;
      end if;
      if glitch = '1' then
        n_glitches <= n_glitches + 1;
      end if;
    end if;
  end process;

  dut : entity work.edge_capture
    port map (clk => clk, rst => rst, pin => pin, enable => enable, falling => falling,
              min_width => min_width, time_ns => time_ns, stamp_valid => stamp_valid,
              stamp => stamp, glitch => glitch);

  process
    variable errs : natural := 0;
    variable t_change : unsigned(63 downto 0);
    procedure check (c : boolean; m : string) is
    begin
      if not c then errs := errs + 1; report "FAIL: " & m severity error; end if;
    end procedure;
    procedure clocks (n : natural) is
    begin
      for i in 1 to n loop wait until rising_edge(clk); end loop;
    end procedure;
  begin
    enable <= '1';
    clocks(4);
    -- change the pin just after an edge: it is first sampled at the next one
    wait for 1 ns;
    t_change := time_ns;              -- time shown during the clock of the change
    pin <= '1';
    clocks(20);
    check(n_stamps = 1, "one stamp for one edge");
    check(last_stamp = t_change + 16, "stamp " & to_hstring(last_stamp) & " not change clock + 2");
    pin <= '0';
    clocks(10);
    check(n_stamps = 1, "falling edge stamped in rising mode");

    -- glitch: 3 clocks high with min_width 4
    pin <= '1'; clocks(3); pin <= '0'; clocks(10);
    check(n_stamps = 1 and n_glitches = 1, "3-clock pulse must be a glitch");
    -- exactly min_width clocks high is an edge
    pin <= '1'; clocks(5); pin <= '0'; clocks(10);
    check(n_stamps = 2, "5-clock pulse must be stamped");

    -- falling mode: the stamp is of the falling edge
    falling <= '1';
    pin <= '1'; clocks(10);
    wait for 1 ns;
    t_change := time_ns;
    pin <= '0';
    clocks(20);
    check(n_stamps = 3 and last_stamp = t_change + 16, "falling edge stamp");

    -- disabled: nothing
    enable <= '0';
    pin <= '1'; clocks(10); pin <= '0'; clocks(10);
    check(n_stamps = 3 and n_glitches = 1, "disabled input produced events");

    if errs = 0 then
      report "tb_edge_capture: PASS";
    else
      report "tb_edge_capture: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
