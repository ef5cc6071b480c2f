-- SPDX-License-Identifier: GPL-2.0-or-later
-- Testbench of event_fifo: simultaneous edges on all inputs are all kept,
-- order and sequence numbers are right, each entry's stamp is the time of
-- its input's take, a full FIFO counts overflows and the sequence shows
-- the gap. The inputs behave like edge_capture: a take (in_take, time_ns
-- of that clock is the stamp) is followed by its strobe (in_valid) 2
-- clocks later or more, and the next take of that input comes in the
-- clock after the strobe at the earliest (event_fifo's header).
-- The two inputs' counts overlap in both orders, so the FIFO's two stamp
-- registers swap owners, also in a clock in which the other input takes.
-- The FIFO takes the strobes a clock ahead (in_valid_nx, as edge_capture's
-- stamp_next), so it gets in_valid as driven below and the takes, the
-- time and the pops one clock late: it runs a clock behind the stimulus.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_event_fifo is
end entity;

architecture sim of tb_event_fifo is
  constant N : natural := 2;
  signal clk : std_logic := '0';
  signal rst, pop, out_valid, out_found : std_logic := '0';
  signal in_valid, in_take : std_logic_vector(N - 1 downto 0) := (others => '0');
  -- a different value every clock, the high word not zero
  signal time_ns : unsigned(63 downto 0) := x"0000_0123_0000_0000";
  signal out_entry : std_logic_vector(82 downto 0);
  signal level : unsigned(2 downto 0);
  signal overflows : unsigned(31 downto 0);
  signal done : boolean := false;
  signal take_d : std_logic_vector(N - 1 downto 0) := (others => '0');
  signal time_d : unsigned(63 downto 0) := (others => '0');
  signal pop_d  : std_logic := '0';
begin
  clk <= not clk after 4 ns when not done;
  late : process (clk)
  begin
    if rising_edge(clk) then
      take_d <= in_take;
      time_d <= time_ns;
      pop_d  <= pop;
    end if;
  end process;
  dut : entity work.event_fifo
    generic map (N => N, LOG2 => 2)
    port map (clk => clk, rst => rst, in_valid_nx => in_valid, in_take => take_d,
              time_ns => time_d,
              pop => pop_d, out_valid => out_valid, out_found => out_found,
              out_entry => out_entry, level => level, overflows => overflows);

  process
    type stamps_t is array (0 to N - 1) of unsigned(63 downto 0);
    type stamps6_t is array (0 to 5) of unsigned(63 downto 0);
    variable st : stamps_t := (others => (others => '0'));
    variable errs : natural := 0;
    procedure check (c : boolean; m : string) is
    begin
      if not c then errs := errs + 1; report "FAIL: " & m severity error; end if;
    end procedure;
    procedure clocks (count : natural) is
    begin
      for i in 1 to count loop
        wait until rising_edge(clk);
        time_ns <= time_ns + 7;
      end loop;
    end procedure;
    -- the inputs in mask take an edge in the next clock (st: their stamps);
    -- with strobe, the inputs in it strobe in that same clock
    procedure take (mask : std_logic_vector(N - 1 downto 0);
                    strobe : std_logic_vector(N - 1 downto 0) := (others => '0')) is
    begin
      in_take <= mask;
      in_valid <= strobe;
      wait for 1 ns;
      for i in 0 to N - 1 loop
        if mask(i) = '1' then
          st(i) := time_ns;
        end if;
      end loop;
      clocks(1);
      in_take <= (others => '0');
      in_valid <= (others => '0');
    end procedure;
    procedure strobe (mask : std_logic_vector(N - 1 downto 0)) is
    begin
      in_valid <= mask;
      clocks(1);
      in_valid <= (others => '0');
    end procedure;
    -- take and strobe 2 clocks later, as edge_capture with min_width <= 1
    procedure edges (mask : std_logic_vector(N - 1 downto 0)) is
    begin
      take(mask);
      clocks(1);
      strobe(mask);
    end procedure;
    procedure expect (found : std_logic; ch, seq : natural; stamp : unsigned(63 downto 0)) is
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
        check(unsigned(out_entry(63 downto 0)) = stamp, "stamp " & to_hstring(out_entry(63 downto 0)) &
              " want " & to_hstring(stamp));
      end if;
      clocks(1);
    end procedure;
    variable a, b, c : unsigned(63 downto 0);
    variable fill : stamps6_t;
  begin
    clocks(2);
    -- both at once: both kept, lowest input first
    edges("11");
    clocks(5);
    check(level = 2, "level after 2 simultaneous edges");
    expect('1', 0, 0, st(0));
    expect('1', 1, 1, st(1));
    expect('0', 0, 0, (63 downto 0 => '0'));
    check(overflows = 0, "no overflow yet");

    -- taken in different clocks, strobed together
    take("10"); a := st(1);
    take("01"); b := st(0);
    clocks(1);
    strobe("11");
    clocks(5);
    expect('1', 0, 2, b);
    expect('1', 1, 3, a);

    -- input 0 takes again as early as an edge capture can (the clock
    -- after its strobe), in the clock input 1's stamp is drained
    take("11"); a := st(0); b := st(1);
    clocks(1);
    strobe("11");
    take("01");
    clocks(1);
    strobe("01");
    clocks(5);
    check(overflows = 0, "back-to-back edges on one input are drained in time");
    expect('1', 0, 4, a);
    expect('1', 1, 5, b);
    expect('1', 0, 6, st(0));

    -- the counts overlap: input 1 takes first, input 0 later and strobes
    -- first (input 1 then waits in r1), then input 1
    take("10"); a := st(1);
    clocks(2);
    take("01"); b := st(0);
    clocks(1);
    strobe("01");
    clocks(3);
    strobe("10");
    clocks(3);
    expect('1', 0, 7, b);
    expect('1', 1, 8, a);
    -- the other way round (input 1's stamp must move to r0 while input
    -- 0's stays kept), and input 0 takes again in the clock input 1
    -- strobes (a swap and a take into r1 in one clock)
    take("01"); c := st(0);
    clocks(2);
    take("10"); a := st(1);
    clocks(1);
    strobe("01");                        -- input 0's first
    clocks(3);
    take("01", strobe => "10"); b := st(0);
    clocks(2);
    strobe("01");
    clocks(3);
    expect('1', 0, 9, c);
    expect('1', 1, 10, a);
    expect('1', 0, 11, b);
    check(overflows = 0, "no overflow in the overlaps");

    -- fill the 4-entry FIFO with 6 edges: 2 lost, seq gap visible
    for k in 0 to 5 loop
      edges("10");
      fill(k) := st(1);
      clocks(2);
    end loop;
    clocks(2);                           -- overflows counts one clock later (+1: see the header)
    check(level = 4, "full FIFO level");
    check(overflows = 2, "overflows " & integer'image(to_integer(overflows)));
    for k in 0 to 3 loop
      expect('1', 1, 12 + k, fill(k));
    end loop;
    expect('0', 0, 0, (63 downto 0 => '0'));
    edges("01");
    clocks(3);
    expect('1', 0, 18, st(0));           -- seq 16 and 17 were the lost ones

    -- the count saturates at 65535 (16 bits): keep the FIFO full and lose
    -- edges on both inputs until it must have passed the top
    for k in 0 to 3 loop
      edges("10");
      clocks(3);
    end loop;
    for k in 1 to 33000 loop
      edges("11");
      clocks(2);
    end loop;
    clocks(2);
    check(overflows = 65535, "overflows saturate at 65535: " & integer'image(to_integer(overflows)));
    edges("11");
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
