-- SPDX-License-Identifier: GPL-2.0-or-later
-- Testbench of event_fifo: simultaneous edges on all inputs are all kept,
-- order and sequence numbers are right, a full FIFO counts overflows and
-- the sequence shows the gap. The inputs behave like edge_capture: a
-- stamp stays on in_stamps until that input's next edge, and one input's
-- edges are at least 2 clocks apart (event_fifo relies on both, N <= 2).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_event_fifo is
end entity;

architecture sim of tb_event_fifo is
  constant N : natural := 2;
  signal clk : std_logic := '0';
  signal rst, pop, out_valid, out_found : std_logic := '0';
  signal in_valid : std_logic_vector(N - 1 downto 0) := (others => '0');
  signal in_stamps : std_logic_vector(N * 64 - 1 downto 0) := (others => '0');
  signal out_entry : std_logic_vector(82 downto 0);
  signal level : unsigned(2 downto 0);
  signal overflows : unsigned(31 downto 0);
  signal done : boolean := false;
begin
  clk <= not clk after 4 ns when not done;
  dut : entity work.event_fifo
    generic map (N => N, LOG2 => 2)
    port map (clk => clk, rst => rst, in_valid => in_valid, in_stamps => in_stamps,
              pop => pop, out_valid => out_valid, out_found => out_found,
              out_entry => out_entry, level => level, overflows => overflows);

  process
    variable errs : natural := 0;
    procedure check (c : boolean; m : string) is
    begin
      if not c then errs := errs + 1; report "FAIL: " & m severity error; end if;
    end procedure;
    procedure clocks (count : natural) is
    begin
      for i in 1 to count loop wait until rising_edge(clk); end loop;
    end procedure;
    procedure edges (mask : std_logic_vector(N - 1 downto 0); base : natural) is
    begin
      for i in 0 to N - 1 loop
        if mask(i) = '1' then
          in_stamps(i * 64 + 63 downto i * 64) <= std_logic_vector(to_unsigned(base + i, 64));
        end if;
      end loop;
      in_valid <= mask;
      clocks(1);
      in_valid <= (others => '0');
    end procedure;
    procedure expect (found : std_logic; ch, seq, stamp : natural) is
    begin
      pop <= '1';
      clocks(1);
      pop <= '0';
      wait until out_valid = '1';
      wait for 1 ns;
      check(out_found = found, "found flag");
      if found = '1' then
        check(unsigned(out_entry(66 downto 64)) = ch, "channel " & to_hstring(out_entry(66 downto 64)));
        check(unsigned(out_entry(82 downto 67)) = seq, "seq " & to_hstring(out_entry(82 downto 67)) &
              " want " & integer'image(seq));
        check(unsigned(out_entry(63 downto 0)) = stamp, "stamp " & to_hstring(out_entry(63 downto 0)));
      end if;
      clocks(1);
    end procedure;
  begin
    clocks(2);
    -- both at once: both kept, lowest input first
    edges("11", 100);
    clocks(5);
    check(level = 2, "level after 2 simultaneous edges");
    expect('1', 0, 0, 100);
    expect('1', 1, 1, 101);
    expect('0', 0, 0, 0);
    check(overflows = 0, "no overflow yet");

    -- the same input twice, as close as an edge capture can (2 clocks),
    -- while the other input's edge waits in its slot
    edges("11", 200);
    clocks(1);
    edges("01", 300);
    clocks(5);
    check(overflows = 0, "back-to-back edges on one input are drained in time");
    expect('1', 0, 2, 200);
    expect('1', 1, 3, 201);
    expect('1', 0, 4, 300);

    -- fill the 4-entry FIFO with 6 edges: 2 lost, seq gap visible
    for k in 0 to 5 loop
      edges("10", 1000 + 10 * k);
      clocks(2);
    end loop;
    clocks(1);                           -- overflows counts one clock later
    check(level = 4, "full FIFO level");
    check(overflows = 2, "overflows " & integer'image(to_integer(overflows)));
    expect('1', 1, 5, 1001);
    expect('1', 1, 6, 1011);
    expect('1', 1, 7, 1021);
    expect('1', 1, 8, 1031);
    expect('0', 0, 0, 0);
    edges("01", 5000);
    clocks(3);
    expect('1', 0, 11, 5000);            -- seq 9 and 10 were the lost ones

    -- the count saturates at 65535 (16 bits): keep the FIFO full and lose
    -- edges on both inputs until it must have passed the top
    for k in 0 to 3 loop
      edges("10", 7000 + k);
      clocks(3);
    end loop;
    for k in 1 to 33000 loop
      edges("11", 8000);
      clocks(3);
    end loop;
    clocks(2);
    check(overflows = 65535, "overflows saturate at 65535: " & integer'image(to_integer(overflows)));
    edges("11", 9000);
    clocks(3);
    check(overflows = 65535, "overflows stay at 65535: " & integer'image(to_integer(overflows)));

    if errs = 0 then
      report "tb_event_fifo: PASS";
    else
      report "tb_event_fifo: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
