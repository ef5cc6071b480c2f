-- SPDX-License-Identifier: GPL-2.0-or-later
-- msi_capture alone: latch latency against the bus edge that saw db_valid
-- (at 66 and 33 MHz-like bus periods that sweep the phase against the
-- 125 MHz timebase), order and contents of queued captures from several
-- slots (doorbells two bus clocks apart), doorbells of unbuilt slots
-- ignored, FIFO overflow: the lost count arrives in a lost-only entry, and
-- doorbells on consecutive bus clocks (several entries wait for their time
-- at once).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_msi_capture is
end entity;

architecture tb of tb_msi_capture is
  constant TB_PER : time := 8 ns;
  signal bus_per  : time := 15 ns;
  signal bus_clk, tb_clk : std_logic := '0';
  signal bus_rst, tb_rst : std_logic := '1';
  signal db_valid : std_logic := '0';
  signal db_slot  : std_logic_vector(3 downto 0) := (others => '0');
  signal db_data  : std_logic_vector(31 downto 0) := (others => '0');
  signal time_ns  : unsigned(63 downto 0) := (others => '0');
  signal cap_empty, cap_kind, cap_pop : std_logic;
  signal cap_slot : std_logic_vector(2 downto 0);
  signal cap_lost : std_logic_vector(7 downto 0);
  signal cap_data : std_logic_vector(15 downto 0);
  signal cap_ns   : std_logic_vector(47 downto 0);
  signal done     : boolean := false;

  -- scoreboard of doorbells sent
  type tvec is array (0 to 255) of time;
  type nvec is array (0 to 255) of natural;
begin
  bus_clk <= not bus_clk after bus_per / 2 when not done;
  tb_clk  <= not tb_clk after TB_PER / 2 when not done;

  -- the timebase: after each edge, time_ns is the simulation time in ns
  tbase : process (tb_clk)
  begin
    if rising_edge(tb_clk) then
      time_ns <= to_unsigned(now / 1 ns, 64);
    end if;
  end process;

  dut : entity work.msi_capture
    generic map (N_SLOTS => 4, FIFO_LOG2 => 3)
    port map (bus_clk => bus_clk, bus_rst => bus_rst, db_valid => db_valid,
              db_slot => db_slot, db_data => db_data, tb_clk => tb_clk,
              tb_rst => tb_rst, time_ns => time_ns, cap_empty => cap_empty,
              cap_kind => cap_kind, cap_slot => cap_slot, cap_lost => cap_lost,
              cap_data => cap_data, cap_ns => cap_ns, cap_pop => cap_pop);

  stim : process
    variable errs : natural := 0;
    variable k, got : natural := 0;
    variable lat, lat_min, lat_max : integer;
    variable sent_t : tvec;
    variable sent_slot, sent_data : nvec;

    procedure check (cond : boolean; msg : string) is
    begin
      if not cond then
        errs := errs + 1;
        report "FAIL: " & msg severity error;
      end if;
    end procedure;

    -- one doorbell; the bus edge at which db_valid is seen is recorded
    procedure ring (slot, data : natural) is
    begin
      wait until rising_edge(bus_clk);
      db_valid <= '1';
      db_slot <= std_logic_vector(to_unsigned(slot, 4));
      db_data <= std_logic_vector(to_unsigned(data, 32));
      wait until rising_edge(bus_clk);
      if slot < 4 then
        sent_t(k) := now;
        sent_slot(k) := slot;
        sent_data(k) := data;
        k := k + 1;
      end if;
      db_valid <= '0';
    end procedure;

    procedure pop_check (idx : natural) is
    begin
      while cap_empty = '1' loop
        wait until rising_edge(bus_clk);
      end loop;
      check(cap_kind = '1', "entry " & integer'image(idx) & " is not a capture");
      check(to_integer(unsigned(cap_slot)) = sent_slot(idx), "entry " & integer'image(idx) & " slot " & to_hstring(cap_slot) & " kind " & std_logic'image(cap_kind) & " data " & to_hstring(cap_data));
      check(to_integer(unsigned(cap_data)) = sent_data(idx) mod 65536, "entry " & integer'image(idx) & " data");
      check(unsigned(cap_lost) = 0, "entry " & integer'image(idx) & " lost /= 0");
      lat := to_integer(unsigned(cap_ns)) - sent_t(idx) / 1 ns;
      if lat < lat_min then lat_min := lat; end if;
      if lat > lat_max then lat_max := lat; end if;
      check(lat > 8 and lat <= 24, "entry " & integer'image(idx) & " latch latency " &
            integer'image(lat) & " ns outside (8, 24]");
      cap_pop <= '1';
      wait until rising_edge(bus_clk);
      cap_pop <= '0';
      wait for 1 ns;  -- the new head is on the outputs after the edge
    end procedure;
  begin
    cap_pop <= '0';
    wait for 100 ns;
    bus_rst <= '0';
    tb_rst <= '0';
    wait for 100 ns;
    lat_min := 1000;
    lat_max := -1000;

    -- 1: single doorbells at two bus periods, popped one by one; the bus
    -- period is not a multiple of 8 ns so the phase sweeps
    for per in 0 to 1 loop
      if per = 0 then bus_per <= 15.15 ns; else bus_per <= 30.3 ns; end if;
      wait for 100 ns;
      for i in 0 to 39 loop
        ring(i mod 4, 1000 + i);
        pop_check(k - 1);
        for j in 0 to i mod 5 loop
          wait until rising_edge(bus_clk);
        end loop;
      end loop;
    end loop;
    check(cap_empty = '1', "FIFO not empty after part 1");

    -- 2: a burst from several slots two bus clocks apart queues in order;
    -- a doorbell of unbuilt slot 5 is ignored
    got := k;
    ring(2, 16#1234#);
    ring(0, 16#ABCDE#);   -- only the low 16 bits are kept
    ring(5, 99);
    ring(3, 7);
    ring(1, 8);
    wait for 200 ns;
    for i in got to k - 1 loop
      pop_check(i);
    end loop;
    check(cap_empty = '1', "unbuilt slot's doorbell was queued");

    -- 3: overflow: 8 entries fit, 4 more to slot 1 are lost and reported
    got := k;
    for i in 0 to 11 loop
      ring(1, 500 + i);
      wait until rising_edge(bus_clk);
    end loop;
    wait for 200 ns;
    for i in got to got + 7 loop
      pop_check(i);
    end loop;
    wait for 200 ns;
    check(cap_empty = '0', "no lost-only entry after overflow");
    check(cap_kind = '0' and unsigned(cap_slot) = 1 and unsigned(cap_lost) = 4,
          "lost-only entry: kind " & std_logic'image(cap_kind) & " slot " &
          to_hstring(cap_slot) & " lost " & to_hstring(cap_lost));
    cap_pop <= '1';
    wait until rising_edge(bus_clk);
    cap_pop <= '0';
    wait for 200 ns;
    check(cap_empty = '1', "FIFO not empty after the lost report");
    -- the next capture after the report carries no stale count
    k := got + 8;
    ring(1, 77);
    pop_check(k - 1);

    -- 4: seven doorbells on consecutive bus clocks at 66 MHz (faster than
    -- any PCI write sequence): several entries wait for their time at
    -- once; every one arrives, in order, with its own latch latency, none
    -- counted lost
    bus_per <= 15.15 ns;
    wait for 100 ns;
    got := k;
    wait until rising_edge(bus_clk);
    for i in 0 to 6 loop
      db_valid <= '1';
      db_slot <= std_logic_vector(to_unsigned(i mod 4, 4));
      db_data <= std_logic_vector(to_unsigned(900 + i, 32));
      wait until rising_edge(bus_clk);
      sent_t(k) := now;
      sent_slot(k) := i mod 4;
      sent_data(k) := 900 + i;
      k := k + 1;
    end loop;
    db_valid <= '0';
    wait for 300 ns;
    for i in got to k - 1 loop
      pop_check(i);
    end loop;
    wait for 200 ns;
    check(cap_empty = '1', "FIFO not empty after the back-to-back doorbells");

    report "tb_msi_capture: latch latency measured " & integer'image(lat_min) & " .. " &
           integer'image(lat_max) & " ns";
    if errs = 0 then
      report "tb_msi_capture: PASS";
    else
      report "tb_msi_capture: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
