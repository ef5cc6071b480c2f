-- SPDX-License-Identifier: GPL-2.0-or-later
-- Periodic output (PPS out) from the disciplined time.
--
-- A 64-bit "time >= target" compare does not close at 125 MHz on iCE40, so
-- it runs chunk by chunk on the timebase's skewed ns chunks (time_skew:
-- chunk k lags chunk 0 by k clocks, the way the timebase's adders hold
-- them): chunk k's 16-bit carry chain takes the carry chunk k-1 left in
-- the clock before, which is of the same step. The compare is time +
-- not target + 1 (its carry out is time >= target), so the target is kept
-- inverted (ntarget) and no inverter sits in front of the carry chains.
-- The compare is modular over 48 bits of ns (session 5; 64 before): the
-- result is bit 47 of time - target, so "passed" means time - target mod
-- 2^48 < 2^47. A target up to 2^47 ns (39 hours) ahead is waited for,
-- one up to 39 hours behind is due at once; the 2^48 boundary of the ns
-- (every 3.26 days) is crossed correctly (tb_perout_gen). A start more
-- than 39 hours ahead would be taken as past: software arms starts a
-- margin ahead of now (synpcix_hw.c), never that far. That drops one
-- compare chunk, a quarter of the target register and one add step.
-- Bit 47, registered twice, is the result: the ns 32..47 chunk is one
-- clock ahead of the aligned time_ns, so the output rises a fixed DELAY =
-- 2 clocks after the aligned time passes the target (reported to software
-- in id.features.perout_delay), as before.
--
-- One 48-bit register, the (inverted) target of the next edge: after a
-- rise it becomes rise + width (the fall), after a fall fall + (period -
-- width) = the next rise, each formed by one 16-bit adder over 3 clocks;
-- the compare is valid again 4 clocks after that (its pipeline refills),
-- so each edge lands on time when the phase before it (width, or period -
-- width) is at least 8 clocks (9 with the 64-bit target before session
-- 5; measured with an ideal counter, widths 6..12 clocks); a shorter
-- phase ends late by the difference (the target arithmetic is absolute,
-- so later edges are on time again). The driver refuses periods under 16
-- clocks. The addend
-- chunk (inverted width, or inverted period - width) is itself formed a
-- clock ahead by a second 16-bit adder from the period and width chunks,
-- serially with its own carry, so no copy of the rising edge's time is
-- kept (that was 64 flip-flops and a 64-bit multiplexer). That adder's
-- operands are the block RAMs' reads registered once more (session 14):
-- RAM clock-to-out and its route in front of the carry chain was the
-- worst tb_clk path of the placed card (8.1..8.65 ns). The next phase's
-- chunks 0 and 1 are read during the add steps, so a period or width
-- write takes effect at the next edge whose add starts after it.
--
-- Area: period and width are written into the two block RAMs the adder's
-- operands are read from (session 7; before, the caller held them on
-- ports in 64 flip-flops and a multiplexer picked the operands). Software
-- changes them only right before an arm, which restarts the output
-- anyway (clock_regs sends period, width and arm together, on a ctrl
-- write). The target is added in place: it rotates by one 16-bit chunk
-- per add step, so no separate sum register and no chunk multiplexer on
-- the register is needed.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity perout_gen is
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    arm       : in  std_logic;                 -- strobe: take the values below
    enable    : in  std_logic;                 -- with arm: 0 stops the output
    start_ns  : in  unsigned(63 downto 0);
    -- period and width are written, not held on ports: a strobe takes
    -- wr_data's low half in its clock and the high half in the next, so
    -- wr_data must stay unchanged for that clock too (clock_tb_domain: the
    -- message crossing's holding register, stable for at least 3 tb_clk
    -- after its strobe). Read back never (clock_regs keeps the copies
    -- software reads).
    wr_period : in  std_logic;
    wr_width  : in  std_logic;
    wr_data   : in  unsigned(31 downto 0);
    time_skew : in  unsigned(63 downto 0);     -- timebase.time_skew (16-bit chunks; 47..0 used)
    dout      : out std_logic;
    next_ns   : out unsigned(63 downto 0));    -- target of the next edge, bits 47..0 (63..48 zero)
end entity;

architecture rtl of perout_gen is
  type state_t is (IDLE, WAIT_RISE, ADD_FALL, WAIT_FALL, ADD_RISE);
  signal state   : state_t := IDLE;
  -- not target. Its initial value is 0, not "no target" (all ones): the
  -- iCE40's flip-flops start at 0, so Yosys kept an initial 1 by storing
  -- the bits inverted and put 64 inverter LUTs in front of the carry
  -- chains (measured). It is only used after an arm loads it.
  signal ntarget : unsigned(47 downto 0) := (others => '0');
  -- compare: carry of chunk k registered for chunk k+1 in the next clock
  signal cy      : std_logic_vector(1 downto 0) := (others => '0');
  -- bit 47 of time - target (time + not target + 1), registered, and once
  -- more: the top compare chunk (ns 32..47) is one clock ahead of the
  -- aligned time, so this keeps DELAY = 2. The second register is
  -- fire_q, "passed and the compare pipeline saw one target", registered
  -- as one flip-flop (session 14: ge_q and cmp_ok(3) ANDed in front of the
  -- state machine's enables made 4 LUT levels and 6 ns of route, the worst
  -- tb_clk path once the operands were registered, 8.07 ns)
  signal sgn, fire_q : std_logic := '0';
  type csum_t is array (0 to 2) of unsigned(16 downto 0);
  signal csum    : csum_t;
  -- cmp_ok(2): the compare's pipeline saw one target for 3 clocks; with
  -- fire_q's clock the 4 it takes
  signal cmp_ok  : std_logic_vector(2 downto 0) := (others => '0');
  signal step    : unsigned(1 downto 0) := (others => '0');
  signal carry   : std_logic := '1';
  signal naddend : unsigned(15 downto 0) := (others => '0');
  signal sum     : unsigned(16 downto 0);
  -- the addend's adder: chunk `idx` of not width (a fall is next: 0 +
  -- not width) or of not (period - width) = width + not period (a rise is
  -- next); chunk 2 of period and width is zero
  -- The operands are read two clocks before the adder takes them (RAM
  -- read, then a_op/b_op): in add step k the address is chunk k of the
  -- NEXT phase's addend (its chunk 0 is formed in step 2, chunk 1 waits
  -- in a_op/b_op), in a wait chunk 2 (the same for both addends), so the
  -- select is the state alone (n_gap: the next addend is not (period -
  -- width)). After an arm the fall's chunks 0 and 1 are read in the arm's
  -- clock and the next (fill1) and formed while the compare refills.
  signal n_gap   : std_logic;
  signal n_idx   : unsigned(2 downto 0);
  signal fill1, fill2 : std_logic := '0';   -- 1 and 2 clocks after an arm
  signal op_ld   : std_logic;   -- the addend pipeline moves (not held in a wait)
  -- Session 7: the operands are block-RAM reads, so period and width
  -- live in the RAMs and neither their 64 flip-flops nor the operand
  -- multiplexers remain (session 14 put the operand registers back behind
  -- the reads, for timing). The
  -- address is the select itself, n_gap & n_idx; each case holds what the
  -- multiplexer gave, rearranged so both RAMs are written by one 16-bit
  -- word per clock:
  --   A (ra_nrw): gap 1, chunk 0/1: not period; gap 0, chunk 0/1: not
  --               width; chunk >= 2: all ones (the power-up contents)
  --   B (rb_nrw): gap 1, chunk 0/1: width; else zero (power-up contents)
  -- so a_op + b_op is not period + width (gap 1) or not width (gap 0),
  -- sign-extended to the upper chunk, as before (there: gap 0 gave 0 +
  -- not width, chunk >= 2 0 + ones or ones + 0).
  -- (downto: GHDL addresses a `0 to` memory through 255 - address, which
  -- took four inverter cells in front of the RAM ports)
  type opram_t is array (255 downto 0) of std_logic_vector(15 downto 0);
  signal ra_nrw : opram_t := (others => (others => '1'));
  signal rb_nrw : opram_t := (others => (others => '0'));
  signal op_addr : std_logic_vector(7 downto 0);
  -- the write: low half in the strobe's clock, high half in the next
  signal wp_q, ww_q, wq : std_logic := '0';   -- wq = wp_q or ww_q (one LUT less before the enable)
  signal wa_en, wb_en : std_logic;
  signal wa_addr, wb_addr : std_logic_vector(7 downto 0);
  signal wa_data, wb_data : std_logic_vector(15 downto 0);
  signal a_q, b_q : std_logic_vector(15 downto 0);   -- registered reads, no initial value
  signal a_op, b_op : unsigned(15 downto 0) := (others => '0');
  signal a_sum   : unsigned(16 downto 0);
  signal a_carry : std_logic := '0';
  signal q       : std_logic := '0';
  -- the reset, registered here: the domain's reset net reaches every
  -- tb_clk flip-flop, and its route into this state machine's enables was
  -- the worst tb_clk path at seeds 1 and 3 (8.3 / 8.5 ns, 4 ns of it the
  -- route, measured); one clock later costs nothing
  signal rst_q   : std_logic := '1';
  -- and once more, here only: Yosys merges every block's `rst_q <= rst`
  -- into one flip-flop (same input, same initial value), so rst_q alone
  -- was still the domain's far reset register, 2.8 ns of route in front
  -- of the state machine's 4 LUT levels to its enables (the worst tb_clk
  -- path at seed 1 of the placed card, 8.46 ns). rst_l has no twin to
  -- merge with, so it is placed by this state machine.
  signal rst_l   : std_logic := '1';
begin
  chunk_cmp : for k in 0 to 2 generate
    signal cin : std_logic;
  begin
    first : if k = 0 generate
      cin <= '1';
    end generate;
    later : if k > 0 generate
      cin <= cy(k - 1);
    end generate;
    csum(k) <= ('0' & time_skew(16 * k + 15 downto 16 * k)) +
               ('0' & ntarget(16 * k + 15 downto 16 * k)) + ("" & cin);
  end generate;
  compare : process (clk)
  begin
    if rising_edge(clk) then
      for k in 0 to 1 loop
        cy(k) <= csum(k)(16);
      end loop;
      sgn  <= csum(2)(15);
    end if;
  end process;

  -- ntarget(15..0) is always the chunk being added: ntarget rotates.
  -- not (t + a) = not t + not a + 1: the carry starts at 1
  sum <= ('0' & ntarget(15 downto 0)) + ('0' & naddend) + ("" & carry);

  next_sel : process (all)
  begin
    n_idx <= "010";
    n_gap <= '0';
    case state is
      when ADD_FALL =>
        n_gap <= '1';
        n_idx <= '0' & step;
      when ADD_RISE =>
        n_idx <= '0' & step;
      when others => null;
    end case;
    if fill1 = '1' then
      n_idx <= "001";
      n_gap <= '0';
    end if;
    if arm = '1' then
      n_idx <= "000";
      n_gap <= '0';
    end if;
  end process;
  -- held through a wait: naddend is chunk 0 of the add that follows the
  -- edge, a_op/b_op chunk 1's operands, a_carry chunk 0's carry
  op_ld <= '0' when (state = WAIT_RISE or state = WAIT_FALL) and fill1 = '0' and fill2 = '0'
           else '1';
  -- no carry in at the first chunk, then the carry of the chunk before
  -- (chunk 2: the sign extension)
  a_sum <= ('0' & a_op) + ('0' & b_op) + ("" & a_carry);

  op_addr <= "0000" & n_gap & std_logic_vector(n_idx);
  wa_en <= wr_period or wr_width or wq;
  wa_addr <= "0000" & (wr_period or wp_q) & "00" & wq;
  wb_en <= wr_width or ww_q;
  wb_addr <= "00001" & "00" & ww_q;
  wa_data <= not std_logic_vector(wr_data(31 downto 16)) when wq = '1' else
             not std_logic_vector(wr_data(15 downto 0));
  wb_data <= std_logic_vector(wr_data(31 downto 16)) when ww_q = '1' else
             std_logic_vector(wr_data(15 downto 0));
  -- each memory alone in its process (GHDL 2.0 synthesis, see event_fifo)
  ram_a : process (clk)
  begin
    if rising_edge(clk) then
      if wa_en = '1' then
        ra_nrw(to_integer(unsigned(wa_addr))) <= wa_data;
      end if;
      a_q <= ra_nrw(to_integer(unsigned(op_addr)));
    end if;
  end process;
  ram_b : process (clk)
  begin
    if rising_edge(clk) then
      if wb_en = '1' then
        rb_nrw(to_integer(unsigned(wb_addr))) <= wb_data;
      end if;
      b_q <= rb_nrw(to_integer(unsigned(op_addr)));
    end if;
  end process;

  fsm : process (clk)
  begin
    if rising_edge(clk) then
      cmp_ok  <= cmp_ok(1 downto 0) & '1';
      fire_q  <= cmp_ok(2) and not sgn;
      fill1 <= arm;
      fill2 <= fill1;
      if op_ld = '1' then
        a_op    <= unsigned(a_q);
        b_op    <= unsigned(b_q);
        naddend <= a_sum(15 downto 0);
        -- the carry into the next clock's chunk: none into a first chunk
        -- (a_op holds chunk 0 in the clock after add step 1 and in an
        -- arm's fill2)
        if fill1 = '1' or ((state = ADD_FALL or state = ADD_RISE) and step = 1) then
          a_carry <= '0';
        else
          a_carry <= a_sum(16);
        end if;
      end if;
      wp_q <= wr_period;
      ww_q <= wr_width;
      wq   <= wr_period or wr_width;

      case state is
        when IDLE => null;
        when WAIT_RISE =>
          if fire_q = '1' then
            q <= '1';
            state <= ADD_FALL;
            step <= "00";
            carry <= '1';
          end if;
        when WAIT_FALL =>
          if fire_q = '1' then
            q <= '0';
            state <= ADD_RISE;
            step <= "00";
            carry <= '1';
          end if;
        when ADD_FALL | ADD_RISE =>
          -- ntarget += naddend (+1), 16 bits per clock, the sum shifted in
          -- from the top; after 3 steps it is back in place
          ntarget <= sum(15 downto 0) & ntarget(47 downto 16);
          carry <= sum(16);
          step  <= step + 1;
          if step = 2 then
            if state = ADD_FALL then
              state <= WAIT_FALL;
            else
              state <= WAIT_RISE;
            end if;
          end if;
          cmp_ok <= (others => '0');  -- the compares in flight use a partial target
          fire_q <= '0';
      end case;
      if arm = '1' then
        q <= '0';
        if enable = '1' then
          ntarget <= not start_ns(47 downto 0);
          state   <= WAIT_RISE;
          cmp_ok  <= (others => '0');
          fire_q  <= '0';
        else
          state <= IDLE;
        end if;
      end if;
      rst_q <= rst;
      rst_l <= rst_q;
      if rst_l = '1' then
        state <= IDLE;
        q <= '0';
      end if;
    end if;
  end process;
  dout    <= q;
  next_ns <= x"0000" & not ntarget;
end architecture;
