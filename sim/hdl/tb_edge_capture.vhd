-- SPDX-License-Identifier: GPL-2.0-or-later
-- Testbench of edge_capture: the stamp of an edge is the time of the clock
-- two after the one the pin changed in, pulses shorter than min_width are
-- glitches (no stamp), falling-edge mode, disable, and hold: while the
-- consumer holds the stamp, a new edge is neither stamped nor a glitch and
-- the stamp output does not change.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_edge_capture is
end entity;

architecture sim of tb_edge_capture is
  signal clk : std_logic := '0';
  signal rst, pin, enable, falling : std_logic := '0';
  signal min_width : unsigned(15 downto 0) := to_unsigned(4, 16);
  -- a high word that is not zero, so the shift check below can fail
  signal time_ns : unsigned(63 downto 0) := x"1234_5678_0000_0000";
  signal stamp_valid, glitch : std_logic;
  signal stamp : unsigned(63 downto 0);
  signal done : boolean := false;
  signal n_stamps, n_glitches : natural := 0;
  signal last_stamp : unsigned(63 downto 0) := (others => '0');
  -- a consumer like clock_tb_domain's PPS path: hold from the strobe until
  -- it has used the stamp (let_go)
  signal hold_en : boolean := false;
  signal held, let_go, hold, shift : std_logic := '0';
begin
  hold <= (stamp_valid or held) when hold_en else '0';
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
      if stamp_valid = '1' then
        held <= '1';
      elsif let_go = '1' then
        held <= '0';
      end if;
    end if;
  end process;

  dut : entity work.edge_capture
    port map (clk => clk, rst => rst, pin => pin, enable => enable, falling => falling,
              min_width => min_width, time_ns => time_ns, hold => hold, shift => shift,
              stamp_valid => stamp_valid,
              stamp => stamp, glitch => glitch);

  process
    variable errs : natural := 0;
    variable t_change : unsigned(63 downto 0);
    variable ns0, ng0 : natural;
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

    -- hold: the fastest possible second edge (pin low for one clock right
    -- after the strobe) and a later one are ignored while held
    enable <= '1'; falling <= '0';
    let_go <= '1'; clocks(1); let_go <= '0';    -- forget the stamps above
    hold_en <= true;
    clocks(10);
    pin <= '1';
    for i in 1 to 40 loop             -- bounded: a missing strobe fails below
      wait until rising_edge(clk);
      exit when stamp_valid = '1';
    end loop;
    pin <= '0'; clocks(1); pin <= '1'; clocks(20);
    check(n_stamps = 4 and n_glitches = 1, "edge right after the strobe taken while held");
    check(stamp = last_stamp, "stamp changed while held");
    pin <= '0'; clocks(5); pin <= '1'; clocks(20);
    check(n_stamps = 4 and n_glitches = 1 and stamp = last_stamp, "edge taken while held");
    -- shift while held (the PPS answer's second word): the low half takes
    -- the high half, the high half stays
    shift <= '1'; clocks(1); shift <= '0'; clocks(1);
    check(stamp(31 downto 0) = last_stamp(63 downto 32) and
          stamp(63 downto 32) = last_stamp(63 downto 32),
          "shift: stamp " & to_hstring(stamp) & " from " & to_hstring(last_stamp));
    pin <= '0';
    let_go <= '1'; clocks(1); let_go <= '0'; clocks(5);
    pin <= '1'; clocks(20);
    check(n_stamps = 5 and stamp = last_stamp, "edge after the let_go not stamped");
    check(last_stamp(63 downto 32) /= x"00000000", "the stamps' high word is zero: the shift check is void");
    pin <= '0'; let_go <= '1'; clocks(1); let_go <= '0'; clocks(5);

    -- the exact width threshold for several min_width values (min_width
    -- 0 and 1 alike): a pulse is stamped when the synchronised level is
    -- active for max(1, min_width) + 1 clocks (the take clock and
    -- max(1, min_width) more), one clock less is a glitch
    hold_en <= false;
    for w in 0 to 6 loop
      min_width <= to_unsigned(w, 16);
      clocks(2);
      ns0 := n_stamps; ng0 := n_glitches;
      pin <= '1'; clocks(maximum(1, w)); pin <= '0'; clocks(6);
      check(n_stamps = ns0 and n_glitches = ng0 + 1, "min_width " & integer'image(w) &
            ": a pulse of " & integer'image(maximum(1, w)) & " clocks must be a glitch");
      pin <= '1'; clocks(maximum(1, w) + 1); pin <= '0'; clocks(6);
      check(n_stamps = ns0 + 1 and n_glitches = ng0 + 1, "min_width " & integer'image(w) &
            ": a pulse of " & integer'image(maximum(1, w) + 1) & " clocks must be stamped");
    end loop;
    if errs = 0 then
      report "tb_edge_capture: PASS";
    else
      report "tb_edge_capture: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
