-- SPDX-License-Identifier: GPL-2.0-or-later
-- Periodic output (PPS out) from the disciplined time.
--
-- A 64-bit "time >= target" compare does not close at 125 MHz on iCE40, so
-- it is split: 16-bit compares folded into two halves in one clock,
-- combined in the next. The next targets (rise + width, rise + period) are
-- formed by one 16-bit adder over 4 clocks each. The output therefore rises a fixed
-- DELAY = 2 clocks after the time passes the target (reported to software
-- in id.features.perout_delay), and a period must be >= 16 clocks so the
-- adds finish before the next edge.
--
-- Area: period and width are read from the ports, not copied (the caller
-- holds them, and changes them only right before an arm, which restarts
-- the output anyway; a change without arm takes effect at the next edge
-- computed). The next target is added in place: target and rise rotate by
-- one 16-bit chunk per add step, so no separate sum register and no chunk
-- multiplexer on the registers is needed.
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
  signal gt_hi, eq_hi, ge_lo : std_logic := '0';
  signal c_gt, c_eq : std_logic_vector(3 downto 0);
  signal cmp_ok  : std_logic := '0';    -- compare pipeline holds a valid result
  signal ge      : std_logic;
  signal step    : unsigned(1 downto 0) := (others => '0');
  signal carry   : std_logic := '0';
  signal addend  : unsigned(15 downto 0) := (others => '0');
  signal sum     : unsigned(16 downto 0);
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

  -- addend: chunk `step` of width (ADD_FALL) or period (ADD_RISE), set up
  -- one clock ahead in a register (period/width -> multiplexer -> 16-bit
  -- add -> target was 9.8 ns at 125 MHz); chunks 2 and 3 of the 32-bit
  -- addend are zero
  -- rise(15..0) is always the chunk being added: rise rotates with the steps
  sum <= ('0' & rise(15 downto 0)) + ('0' & addend) + ("" & carry);

  fsm : process (clk)
  begin
    if rising_edge(clk) then
      cmp_ok <= '1';
      case state is
        when IDLE => null;
        when WAIT_RISE =>
          addend <= width(15 downto 0);
          if ge = '1' and cmp_ok = '1' then
            q <= '1';
            state <= ADD_FALL;
            step <= "00";
            carry <= '0';
          end if;
        when WAIT_FALL =>
          addend <= period(15 downto 0);
          if ge = '1' and cmp_ok = '1' then
            q <= '0';
            state <= ADD_RISE;
            step <= "00";
            carry <= '0';
          end if;
        when ADD_FALL | ADD_RISE =>
          -- target = rise + (width or period), 16 bits per clock, the sum
          -- shifted in from the top; after 4 steps both are back in place
          target <= sum(15 downto 0) & target(63 downto 16);
          if state = ADD_RISE then
            rise <= sum(15 downto 0) & rise(63 downto 16);
          else
            rise <= rise(15 downto 0) & rise(63 downto 16);
          end if;
          carry <= sum(16);
          step  <= step + 1;
          -- the next step's addend
          if step /= 0 then
            addend <= (others => '0');
          elsif state = ADD_FALL then
            addend <= width(31 downto 16);
          else
            addend <= period(31 downto 16);
          end if;
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
          rise   <= start_ns;
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
  next_ns <= rise;
end architecture;
