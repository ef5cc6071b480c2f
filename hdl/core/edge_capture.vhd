-- SPDX-License-Identifier: GPL-2.0-or-later
-- Stamps the edges of one asynchronous input with the card's time.
--
-- The time is latched in the clock the synchronised edge is first seen: a
-- pin that changes during clock c gets the time of clock c+2 (the two
-- synchroniser flops), so an asynchronous edge is stamped 2 to 3 clocks
-- after it happened; clock_core reports 2 as id.features.capture_delay. The
-- stamp is only released once the input has held its new level for
-- min_width clocks: shorter pulses are glitches, reported and dropped.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity edge_capture is
  generic (CNT_W : positive := 16);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    pin         : in  std_logic;                 -- asynchronous
    enable      : in  std_logic;
    falling     : in  std_logic;                 -- 1: falling edge is on time
    min_width   : in  unsigned(CNT_W - 1 downto 0);
    time_ns     : in  unsigned(63 downto 0);
    -- 1: no new edge is taken (its stamp would replace `stamp` before the
    -- consumer has used it); such an edge is neither stamped nor a glitch.
    -- Registered like enable (one clock late): raise it in the clock of
    -- stamp_valid already.
    hold        : in  std_logic := '0';
    stamp_valid : out std_logic;                 -- one-clock strobe
    stamp       : out unsigned(63 downto 0);     -- valid with stamp_valid only
    glitch      : out std_logic);                -- one-clock strobe
end entity;

architecture rtl of edge_capture is
  signal s, s_d, act : std_logic := '0';
  signal counting      : std_logic := '0';
  signal left          : unsigned(CNT_W - 1 downto 0) := (others => '0');
  -- the reset, registered here: the domain's reset net reaches every
  -- flip-flop of the timebase clock and its routing made the capture's
  -- state logic a 9.1 ns path at 125 MHz (measured); one clock later here
  -- costs nothing
  signal rst_q         : std_logic := '1';
  -- the configuration, registered here for the same reason (the polarity
  -- bit's route from the domain's config register into the 64-bit stamp
  -- load enable was the 8.3 ns tb_clk path, measured); a change takes
  -- effect one clock later
  signal fall_q, en_q  : std_logic := '0';
  signal cand          : unsigned(63 downto 0) := (others => '0');
begin
  sync : entity work.sync_bit port map (clk => clk, din => pin, dout => s);
  act <= s xor fall_q;

  process (clk)
  begin
    if rising_edge(clk) then
      stamp_valid <= '0';
      glitch      <= '0';
      s_d         <= s;             -- raw level: a polarity change is no edge
      rst_q       <= rst;
      fall_q      <= falling;
      -- hold folded in here, not into the 64-bit stamp load enable (that
      -- cone was the 8.3 ns tb_clk path with hold in it, measured)
      en_q        <= enable and not hold;
      if rst_q = '1' or en_q = '0' then
        counting <= '0';
      elsif counting = '0' then
        if act = '1' and s /= s_d then
          cand     <= time_ns;
          -- clocks still to hold: released when `left` <= 1, i.e. after
          -- min_width clocks at the new level (a down-counter tested for
          -- <= 1 needs no comparator against min_width at 125 MHz)
          left     <= min_width;
          counting <= '1';
        end if;
      elsif act = '0' then
        counting <= '0';            -- fell back before min_width: a glitch
        glitch   <= '1';
      elsif left(CNT_W - 1 downto 1) = (CNT_W - 1 downto 1 => '0') then
        counting    <= '0';
        stamp_valid <= '1';
      else
        left <= left - 1;
      end if;
    end if;
  end process;
  -- held from the strobe until the next edge is taken (at least two clocks:
  -- the input must leave the active level and come back), longer with hold
  stamp <= cand;
end architecture;
