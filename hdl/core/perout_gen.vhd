-- SPDX-License-Identifier: GPL-2.0-or-later
-- Periodic output (PPS out) from the disciplined time.
--
-- A 64-bit "time >= target" compare does not close at 125 MHz on iCE40, so
-- it is split: 16-bit greater/equal per chunk in one clock, combined in the
-- next. The next targets (rise + width, rise + period) are formed by one
-- 16-bit adder over 4 clocks each. The output therefore rises a fixed
-- DELAY = 2 clocks after the time passes the target (reported to software
-- in id.features.perout_delay), and a period must be >= 16 clocks so the
-- adds finish before the next edge.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity perout_gen is
  port (
    clk      : in  std_logic;
    rst      : in  std_logic;
    arm      : in  std_logic;                 -- strobe: take the values below
    enable   : in  std_logic;                 -- with arm: 0 stops the output
    start_ns : in  unsigned(63 downto 0);
    period   : in  unsigned(31 downto 0);
    width    : in  unsigned(31 downto 0);
    time_ns  : in  unsigned(63 downto 0);
    dout     : out std_logic;
    next_ns  : out unsigned(63 downto 0));     -- next rising edge
end entity;

architecture rtl of perout_gen is
  type state_t is (IDLE, WAIT_RISE, ADD_FALL, WAIT_FALL, ADD_RISE);
  signal state   : state_t := IDLE;
  signal target  : unsigned(63 downto 0) := (others => '0');
  signal rise    : unsigned(63 downto 0) := (others => '0');
  signal per_r, wid_r : unsigned(31 downto 0) := (others => '0');
  signal gt, eq  : std_logic_vector(3 downto 0) := (others => '0');
  signal cmp_ok  : std_logic := '0';    -- compare pipeline holds a valid result
  signal ge      : std_logic;
  signal step    : unsigned(1 downto 0) := (others => '0');
  signal carry   : std_logic := '0';
  signal acc     : unsigned(63 downto 0) := (others => '0');
  signal q       : std_logic := '0';
begin
  -- clock 1: per-chunk compares of this clock's time against the target
  compare : process (clk)
  begin
    if rising_edge(clk) then
      for j in 0 to 3 loop
        if time_ns(16 * j + 15 downto 16 * j) > target(16 * j + 15 downto 16 * j) then
          gt(j) <= '1';
        else
          gt(j) <= '0';
        end if;
        if time_ns(16 * j + 15 downto 16 * j) = target(16 * j + 15 downto 16 * j) then
          eq(j) <= '1';
        else
          eq(j) <= '0';
        end if;
      end loop;
    end if;
  end process;
  -- clock 2: combine, most significant chunk first
  ge <= gt(3) or (eq(3) and (gt(2) or (eq(2) and (gt(1) or (eq(1) and (gt(0) or eq(0)))))));

  fsm : process (clk)
    variable addend : unsigned(31 downto 0);
    variable sum    : unsigned(16 downto 0);
  begin
    if rising_edge(clk) then
      cmp_ok <= '1';
      case state is
        when IDLE => null;
        when WAIT_RISE =>
          if ge = '1' and cmp_ok = '1' then
            q <= '1';
            state <= ADD_FALL;
            step <= "00";
            carry <= '0';
          end if;
        when WAIT_FALL =>
          if ge = '1' and cmp_ok = '1' then
            q <= '0';
            state <= ADD_RISE;
            step <= "00";
            carry <= '0';
          end if;
        when ADD_FALL | ADD_RISE =>
          -- acc = rise + (width or period), 16 bits per clock
          if state = ADD_FALL then addend := wid_r; else addend := per_r; end if;
          if step < 2 then
            sum := ('0' & rise(16 * to_integer(step) + 15 downto 16 * to_integer(step))) +
                   ('0' & addend(16 * to_integer(step) + 15 downto 16 * to_integer(step))) +
                   ("" & carry);
          else
            sum := ('0' & rise(16 * to_integer(step) + 15 downto 16 * to_integer(step))) +
                   ("" & carry);
          end if;
          acc(16 * to_integer(step) + 15 downto 16 * to_integer(step)) <= sum(15 downto 0);
          carry <= sum(16);
          step  <= step + 1;
          if step = 3 then
            -- acc completes on this edge: use the value being written
            if state = ADD_FALL then
              target <= sum(15 downto 0) & acc(47 downto 0);
              state  <= WAIT_FALL;
            else
              target <= sum(15 downto 0) & acc(47 downto 0);
              rise   <= sum(15 downto 0) & acc(47 downto 0);
              state  <= WAIT_RISE;
            end if;
            cmp_ok <= '0';          -- the compare in flight used the old target
          end if;
      end case;
      if state = ADD_FALL or state = ADD_RISE then
        cmp_ok <= '0';
      end if;
      if arm = '1' then
        q <= '0';
        if enable = '1' then
          rise   <= start_ns;
          target <= start_ns;
          per_r  <= period;
          wid_r  <= width;
          state  <= WAIT_RISE;
          cmp_ok <= '0';
        else
          state <= IDLE;
        end if;
      end if;
      if rst = '1' then
        state <= IDLE;
        q <= '0';
      end if;
    end if;
  end process;
  dout    <= q;
  next_ns <= rise;
end architecture;
