-- SPDX-License-Identifier: GPL-2.0-or-later
-- Stamps the edges of one asynchronous input with the card's time.
--
-- The time is latched in the clock the synchronised edge is first seen: a
-- pin that changes during clock c gets the time of clock c+2 (the two
-- synchroniser flops), so an asynchronous edge is stamped 2 to 3 clocks
-- after it happened; clock_core reports 2 as id.features.capture_delay. The
-- stamp is only released once the input has held its new level for
-- min_width clocks: shorter pulses are glitches, reported and dropped.
-- Exactly: the synchronised level must be active in the take clock and
-- max(1, min_width) clocks after it (tb_edge_capture checks 0..6).
-- min_width is compared live during a count (session 5; it was copied at
-- the take): a change in the middle of a count applies to that count, and
-- one that lowers it below the clocks already counted ends that count only
-- when the 16-bit counter wraps (2^16 clocks later: a late stamp, or a
-- glitch if the pulse ends first). Software sets min_width before it
-- enables the input.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity edge_capture is
  generic (
    CNT_W  : positive := 16;
    -- true: min_le1 gives min_width <= 1 (a flag the configuration's
    -- writer keeps with min_width: clock_tb_domain, one decode for both
    -- event inputs); false: decoded here from min_width
    LE1_IN : boolean  := false);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    pin         : in  std_logic;                 -- asynchronous
    enable      : in  std_logic;
    falling     : in  std_logic;                 -- 1: falling edge is on time
    min_width   : in  unsigned(CNT_W - 1 downto 0);
    min_le1     : in  std_logic := '0';          -- see LE1_IN
    time_ns     : in  unsigned(63 downto 0);
    -- 1: no new edge is taken (its stamp would replace `stamp` before the
    -- consumer has used it); such an edge is neither stamped nor a glitch.
    -- Registered like enable (one clock late): raise it in the clock of
    -- stamp_valid already.
    hold        : in  std_logic := '0';
    -- 1 (a clock with no edge taken, i.e. while hold): stamp(31 downto 0)
    -- takes stamp(63 downto 32), so a consumer that sends the stamp as two
    -- 32-bit words reads both from the low half (clock_tb_domain's PPS
    -- answer: one 32-bit source less in its answer multiplexer; the
    -- register's load multiplexer is the otherwise unused LUT in front of
    -- each of its flip-flops). Tie to 0 where unused.
    shift       : in  std_logic := '0';
    stamp_valid : out std_logic;                 -- one-clock strobe
    -- stamp_valid of the next clock (its flip-flop's input): event_fifo
    -- decides its stamp registers' owner a clock ahead from it
    stamp_next  : out std_logic;
    stamp       : out unsigned(63 downto 0);     -- valid with stamp_valid only
    glitch      : out std_logic;                 -- one-clock strobe
    -- 1 in the clock `stamp` loads time_ns (combinational): a consumer
    -- that keeps the stamps itself leaves `stamp` open (its 64 flip-flops
    -- then synthesise to nothing) and loads time_ns on this (event_fifo)
    taken       : out std_logic);
end entity;

architecture rtl of edge_capture is
  signal s, s_d, act : std_logic := '0';
  -- The 64-bit stamp load enable is `take`, one LUT of flip-flops: the
  -- edge test on the synchronised level and `armed` (not in reset,
  -- enabled, not held: rst_q and en_q as one flip-flop). With the whole
  -- test of the state machine below in that enable's cone it was the
  -- worst tb_clk path of the placed card at several seeds (8.3 .. 11.5 ns:
  -- 4 LUT levels plus the route to the 64 enables, measured). `counting`
  -- need not be in it: while counting the input is at its active level,
  -- so an edge into that level ends the count (a glitch) first, and take
  -- is never 1 while counting. So `cand` loads exactly when the state
  -- machine takes an edge. (Only a polarity change in the very clock the
  -- input changes during a count could load it while counting: changing
  -- `falling` on a live input is not a supported use, its count is a
  -- glitch or a stamp of the old level either way.)
  signal armed, take : std_logic := '0';
  -- min_width is counted up, not down: `cnt` is 2 in the first clock of
  -- a count and one more each clock, and `hit` (a flip-flop) is cnt =
  -- min_width a clock late, i.e. true in the count's clock min_width. A
  -- down-counter loaded with min_width needed two LUTs per bit (the load
  -- multiplexer and the decrement cannot share one LUT: the carry chain
  -- takes two of its inputs); the up-counter starts from a constant
  -- (flip-flop set/reset) and its compare is 16 bits of equality.
  -- left_le1: min_width <= 1, released in the count's first clock.
  signal left_le1 : std_logic := '1';
  signal counting      : std_logic := '0';
  signal cnt           : unsigned(CNT_W - 1 downto 0) := (others => '0');
  signal hit           : std_logic := '0';
  -- the reset, registered here: the domain's reset net reaches every
  -- flip-flop of the timebase clock and its routing made the capture's
  -- state logic a 9.1 ns path at 125 MHz (measured); one clock later here
  -- costs nothing. Synthesis merges it with the other blocks' rst_q into
  -- one flip-flop (perout_gen: rst_l)
  signal rst_q         : std_logic := '1';
  -- the configuration, registered here for the same reason (the polarity
  -- bit's route from the domain's config register into the 64-bit stamp
  -- load enable was the 8.3 ns tb_clk path, measured); a change takes
  -- effect one clock later
  signal fall_q, en_q  : std_logic := '0';
  signal cand          : unsigned(63 downto 0) := (others => '0');
  signal stamp_nx       : std_logic;
begin
  assert CNT_W >= 3 report "edge_capture: CNT_W must be >= 3 (left_le1)" severity failure;
  sync : entity work.sync_bit port map (clk => clk, din => pin, dout => s);
  act <= s xor fall_q;
  take <= armed and act and (s xor s_d);
  -- a count ends with a stamp: the last branch of the state machine below
  stamp_nx <= '1' when rst_q = '0' and en_q = '1' and counting = '1' and act = '1' and
                      (left_le1 = '1' or hit = '1') else '0';

  process (clk)
  begin
    if rising_edge(clk) then
      stamp_valid <= stamp_nx;
      glitch      <= '0';
      s_d         <= s;             -- raw level: a polarity change is no edge
      rst_q       <= rst;
      fall_q      <= falling;
      -- hold folded in here, not into the 64-bit stamp load enable (that
      -- cone was the 8.3 ns tb_clk path with hold in it, measured)
      en_q        <= enable and not hold;
      armed       <= not rst and enable and not hold;   -- = not rst_q and en_q
      if take = '1' then
        cand <= time_ns;
      elsif shift = '1' then
        cand(31 downto 0) <= cand(63 downto 32);
      end if;
      -- cnt: +1 while a count goes on or ends with a stamp, 2 from a
      -- take, else 0: so in a take's clock cnt is 0 (a glitch, disable or
      -- reset that ended a count cleared it; a stamp is never followed by
      -- a take in the next clock, the input must leave the active level
      -- first) and a count's first clock cannot hit on a stale value
      if counting = '1' and act = '1' and rst_q = '0' and en_q = '1' then
        cnt <= cnt + 1;
      elsif take = '1' then
        cnt <= to_unsigned(2, CNT_W);
      else
        cnt <= (others => '0');
      end if;
      if cnt = min_width then
        hit <= '1';
      else
        hit <= '0';
      end if;
      if rst_q = '1' or en_q = '0' then
        counting <= '0';
      elsif counting = '0' then
        if take = '1' then
          -- cand is loaded above; released after min_width clocks at the
          -- new level (in the count's clock max(1, min_width))
          if LE1_IN then
            left_le1 <= min_le1;
          elsif min_width(CNT_W - 1 downto 1) = (CNT_W - 1 downto 1 => '0') then
            left_le1 <= '1';
          else
            left_le1 <= '0';
          end if;
          counting <= '1';
        end if;
      elsif act = '0' then
        counting <= '0';            -- fell back before min_width: a glitch
        glitch   <= '1';
      elsif left_le1 = '1' or hit = '1' then
        counting    <= '0';         -- stamp_nx: stamp_valid above
      end if;
    end if;
  end process;
  -- held from the strobe until the next edge is taken (at least two clocks:
  -- the input must leave the active level and come back), longer with hold
  stamp <= cand;
  taken <= take;
  stamp_next <= stamp_nx;
end architecture;
