-- SPDX-License-Identifier: GPL-2.0-or-later
-- Periodic output (PPS out) from the disciplined time.
--
-- A 64-bit "time >= target" compare does not close at 125 MHz on iCE40, so
-- it is split: 16-bit compares folded into two halves in one clock,
-- combined in the next. The output therefore rises a fixed DELAY = 2
-- clocks after the time passes the target (reported to software in
-- id.features.perout_delay).
--
-- One 64-bit register, the target of the next edge: after a rise it
-- becomes rise + width (the fall), after a fall fall + (period - width)
-- = the next rise, each formed by one 16-bit adder over 4 clocks, so a
-- high or low phase must be >= 8 clocks (period >= 16 clocks, as the
-- driver demands, and width and period - width >= 8 clocks) for the adds
-- to finish before the edge they compute. The addend chunk (width, or
-- period - width) is itself formed a clock ahead by a second 16-bit adder
-- from the period and width chunks, serially with its own carry, so no
-- copy of the rising edge's time is kept (that was 64 flip-flops and a
-- 64-bit multiplexer).
--
-- Area: period and width are read from the ports, not copied (the caller
-- holds them, and changes them only right before an arm, which restarts
-- the output anyway; a change without arm takes effect at the next edge
-- computed). The target is added in place: it rotates by one 16-bit chunk
-- per add step, so no separate sum register and no chunk multiplexer on
-- the register is needed.
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
    next_ns  : out unsigned(63 downto 0));     -- target of the next edge (rise or fall)
end entity;

architecture rtl of perout_gen is
  type state_t is (IDLE, WAIT_RISE, ADD_FALL, WAIT_FALL, ADD_RISE);
  signal state   : state_t := IDLE;
  signal target  : unsigned(63 downto 0) := (others => '0');
  signal gt_hi, eq_hi, ge_lo : std_logic := '0';
  signal c_gt, c_eq : std_logic_vector(3 downto 0);
  signal cmp_ok  : std_logic := '0';    -- compare pipeline holds a valid result
  signal ge      : std_logic;
  signal step    : unsigned(1 downto 0) := (others => '0');
  signal carry   : std_logic := '0';
  signal addend  : unsigned(15 downto 0) := (others => '0');
  signal sum     : unsigned(16 downto 0);
  -- the addend's adder: chunk `idx` of width (a fall is next: 0 + width)
  -- or of period - width (a rise is next: period + not width + 1)
  signal gap     : std_logic;               -- forming period - width
  signal idx     : unsigned(2 downto 0);    -- chunk formed in this clock
  signal a_op, b_op : unsigned(15 downto 0);
  signal a_sum   : unsigned(16 downto 0);
  signal a_carry : std_logic := '0';
  signal a_cin   : std_logic;
  signal q       : std_logic := '0';
begin
  -- clock 1: 16-bit compares per chunk (one short carry chain each),
  -- folded into the two halves by one LUT level and registered; clock 2:
  -- combined by one LUT. (32-bit compares reached 116 MHz, a 4-level
  -- combine of registered chunk results 97 MHz; measured.)
  chunk_cmp : for j in 0 to 3 generate
    c_gt(j) <= '1' when time_ns(16 * j + 15 downto 16 * j) > target(16 * j + 15 downto 16 * j) else '0';
    c_eq(j) <= '1' when time_ns(16 * j + 15 downto 16 * j) = target(16 * j + 15 downto 16 * j) else '0';
  end generate;
  compare : process (clk)
  begin
    if rising_edge(clk) then
      gt_hi <= c_gt(3) or (c_eq(3) and c_gt(2));
      eq_hi <= c_eq(3) and c_eq(2);
      ge_lo <= c_gt(1) or (c_eq(1) and (c_gt(0) or c_eq(0)));
    end if;
  end process;
  ge <= gt_hi or (eq_hi and ge_lo);

  -- target(15..0) is always the chunk being added: target rotates
  sum <= ('0' & target(15 downto 0)) + ('0' & addend) + ("" & carry);

  -- the addend of the next add step, one clock ahead: in a WAIT state the
  -- first chunk of the add that follows the edge, in add step k chunk k+1
  gap <= '1' when state = WAIT_FALL or state = ADD_RISE else '0';
  idx <= "000" when state = WAIT_RISE or state = WAIT_FALL else ('0' & step) + 1;
  a_op <= period(15 downto 0) when gap = '1' and idx = 0 else
          period(31 downto 16) when gap = '1' and idx = 1 else
          (others => '0');
  b_op <= width(15 downto 0) xor (15 downto 0 => gap) when idx = 0 else
          width(31 downto 16) xor (15 downto 0 => gap) when idx = 1 else
          (15 downto 0 => gap);
  -- carry in: the +1 of period + not width + 1 at the first chunk, then
  -- the carry of the chunk before (chunks 2 and 3: the sign extension)
  a_cin <= gap when idx = 0 else a_carry;
  a_sum <= ('0' & a_op) + ('0' & b_op) + ("" & a_cin);

  fsm : process (clk)
  begin
    if rising_edge(clk) then
      cmp_ok <= '1';
      addend <= a_sum(15 downto 0);
      a_carry <= a_sum(16);
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
          -- target += addend, 16 bits per clock, the sum shifted in from
          -- the top; after 4 steps it is back in place
          target <= sum(15 downto 0) & target(63 downto 16);
          carry <= sum(16);
          step  <= step + 1;
          if step = 3 then
            if state = ADD_FALL then
              state <= WAIT_FALL;
            else
              state <= WAIT_RISE;
            end if;
          end if;
          cmp_ok <= '0';            -- the compare in flight used a partial target
      end case;
      if arm = '1' then
        q <= '0';
        if enable = '1' then
          target <= start_ns;
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
  next_ns <= target;
end architecture;
