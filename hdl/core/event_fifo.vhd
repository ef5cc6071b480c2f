-- SPDX-License-Identifier: GPL-2.0-or-later
-- Event stamp FIFO shared by N inputs (timebase clock domain).
--
-- Each input has a one-entry holding slot so simultaneous edges on
-- different inputs are all kept; one entry per clock moves into the FIFO,
-- lowest input first. The slot's stamp is time_ns of the clock its edge
-- capture took the edge (in_take), kept here until that input's next
-- take: in the clock after its strobe at the earliest (edge_capture: the
-- input leaves the active level and comes back through the synchroniser;
-- measured session 9, min_width 0: strobe at t, next take at t + 1). A
-- stamp is drained in that clock, so it is safe, except when both inputs
-- strobe together: input 1 is drained a clock later, and if it took its
-- next edge in between (an inactive dip of exactly one synchronised
-- clock), its entry carries that edge's time. Known, not fixed: it would
-- take a third stamp register (docs/bitstream.md "Session 9").
--
-- The stamps: two registers r0, r1 and an owner bit, not one register per
-- input and a multiplexer in front of the RAM (session 9; the captures
-- held them, 128 flip-flops with nothing in their LUTs and a 64-LUT
-- multiplexer by `sel`). r0 holds the stamp of input `o`, r1 the other
-- input's; the RAM is written from r0 alone. Whenever an input is to be
-- drained in the next clock and r1 holds its stamp, the two swap (that is
-- the multiplexer, now in the otherwise empty LUTs in front of r0 and r1),
-- and a take loads the register its input owns after this clock's swap.
-- So each input's stamp is at every clock what the capture's own register
-- held before, and the entries are the same (session 8 moved the
-- multiplexer into one capture's load instead, without the swap: that
-- made an input's stamp wait for the other's count).
--
-- Sequence numbers are given when a slot is drained, not when the edge
-- arrives: slots drain in arrival order (simultaneous edges lowest input
-- first, the order the numbers were given in before), so the numbers are
-- the same and no per-input copy of them is kept (that was 16 flip-flops
-- per input and a multiplexer into the RAM's write data). An edge is lost
-- when the FIFO is full as it drains: `overflows` counts it (one clock
-- later) and it still takes its sequence number, so software sees the gap.
-- The count saturates at 2^OVF_W - 1 (65535; session 6: was 32 bits, 16
-- flip-flops and ~20 LUTs more): past that many lost edges the number
-- says "very many", and the sequence numbers still show each gap.
-- An edge arriving while its input's slot is still full replaces the
-- waiting one and is counted in `overflows` without a number; with
-- edge_capture inputs that cannot happen (their strobes are at least 3
-- clocks apart and a slot waits at most N - 1 = 1 clock). The memory has
-- a registered read so it maps to iCE40 block RAM.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity event_fifo is
  generic (
    N    : positive := 2;
    LOG2 : positive := 8;
    OVF_W : positive := 16);          -- width of the saturating overflow count
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    -- the captures' stamp_valid of the next clock (edge_capture's
    -- stamp_next): registered here it is their stamp_valid (the same
    -- flip-flop after synthesis), and the stamps' owner is decided from it
    -- a clock ahead (see o_nx)
    in_valid_nx : in std_logic_vector(N - 1 downto 0);
    in_take   : in  std_logic_vector(N - 1 downto 0);  -- the captures' taken
    time_ns   : in  unsigned(63 downto 0);             -- what a take stamps
    pop       : in  std_logic;                     -- strobe
    out_valid : out std_logic;                     -- strobe, 2 clocks after pop
    out_found : out std_logic;                     -- FIFO was not empty
    out_entry : out std_logic_vector(82 downto 0); -- seq(16) & ch(3) & stamp(64), held until the next pop
    level     : out unsigned(LOG2 downto 0);
    is_empty  : out std_logic;                     -- level = 0, a flip-flop
    overflows : out unsigned(31 downto 0));   -- zero-extended from OVF_W bits
end entity;

architecture rtl of event_fifo is
  type mem_t is array (0 to 2 ** LOG2 - 1) of std_logic_vector(82 downto 0);
  -- `_nrw`: no read of this memory depends on the word written in the
  -- same clock. A pop reads rd_ptr while an edge may be written at wr_ptr;
  -- the two are equal only when the FIFO is empty (then the popped word is
  -- not used: out_found = 0) or full (then nothing is written). So Yosys
  -- need not keep the old word on a collision (hdl/boards/ghdl_verilog_fix.awk
  -- fix 7: that logic was 172 flip-flops and 88 LUTs here).
  signal mem_nrw : mem_t;
  signal wr_ptr, rd_ptr : unsigned(LOG2 downto 0) := (others => '0');
  signal hv, hv_nx : std_logic_vector(N - 1 downto 0) := (others => '0');
  -- the captures' stamp_valid (no initial value, as theirs: one flip-flop)
  signal in_valid : std_logic_vector(N - 1 downto 0);
  signal seq : unsigned(15 downto 0) := (others => '0');
  signal ovf : unsigned(OVF_W - 1 downto 0) := (others => '0');
  -- edges lost in the previous clock: counted one clock later, so the
  -- drain decision and the 32-bit add are not one path at 125 MHz
  signal lost_r : unsigned(1 downto 0) := (others => '0');
  signal ovf_sum : unsigned(OVF_W downto 0);
  signal rd_data : std_logic_vector(82 downto 0);
  signal pop_d, found_d : std_logic := '0';
  -- The level and the full and empty flags are flip-flops kept from the
  -- moves of each clock (push: we, pop: rd_adv), not compares of the
  -- pointers: the pointer compare in front of the RAMs' write enables
  -- (`we` fans out to the RAMs' write masks) was the worst tb_clk path at
  -- seeds 1 and 5 of the placed card (8.1 ns, 5 LUT levels), and with
  -- `full` a flip-flop, its update through the pointer subtraction was the
  -- worst at seed 2 (8.1 ns, 4 LUT levels); now `we` and `rd_adv` are one
  -- LUT of flip-flops and the empty flag's update compares `lvl` (a
  -- register) with a constant. `full` is lvl's top bit: the level never
  -- passes 2^LOG2, so lvl(LOG2) = 1 is lvl = 2^LOG2 (session 12; a flag
  -- of its own was set by the compare with 2^LOG2 - 1, 3 LUT levels from
  -- `full` back to its enable: the worst tb_clk path at seed 3 of the
  -- placed card, 9.0 ns).
  signal full  : std_logic;
  signal empty : std_logic := '1';
  signal lvl   : unsigned(LOG2 downto 0) := (others => '0');
  signal we, rd_adv : std_logic;
  -- some slot waits (hv /= 0), a flip-flop loaded from hv_nx (session 15):
  -- as an OR of hv it was a LUT level in front of `we`, and hv(0) -> any
  -- -> we -> the empty flag's enable was the worst tb_clk path of the
  -- placed card at seed 3 of session 14's merge (9.23 ns, 108.33 MHz)
  signal any : std_logic := '0';
  signal sel  : natural range 0 to N - 1;
  -- the reset, registered here (the domain's reset net is a long route:
  -- see perout_gen); one clock later costs nothing. Synthesis merges it
  -- with the other blocks' rst_q into one flip-flop (perout_gen: rst_l)
  signal rst_q : std_logic := '1';
  signal wdata : std_logic_vector(82 downto 0);
  -- the stamps (see the header): o is the input whose stamp r0 holds, o_nx
  -- the one it holds after this clock: the input drained next (hv in the
  -- next clock: input 0 if it strobes now, else input 1 if it strobes now
  -- or waits behind input 0), else o again; tk0 / tk1: the input that owns
  -- r0 / r1 after this clock takes an edge now
  signal r0, r1 : std_logic_vector(63 downto 0) := (others => '0');
  signal o : std_logic := '0';
  signal o_nx, sw, tk0, tk1 : std_logic;
  -- o_nx is a flip-flop (session 12): formed a clock ahead from the next
  -- clock's strobes and hv, so the 64 load enables of r0 and of r1 are
  -- take -> enable, two LUT levels from flip-flops. Combinational from
  -- the strobes, hv and o it was a third level, and hv(1) -> o_nx -> tk0
  -- -> r0's enable -> global buffer was the worst tb_clk path at seed 3
  -- of the placed card (9.4 ns).
  signal own_nx : std_logic := '0';
begin
  assert N <= 8 report "event_fifo: at most 8 inputs (3-bit channel)" severity failure;
  assert N <= 2 report "event_fifo: two stamp registers and one owner bit; " &
    "more than 2 inputs need a register per input again (see the header)" severity failure;
  level <= lvl;
  ovf_sum <= ('0' & ovf) + lost_r;
  is_empty <= empty;
  rd_adv <= pop and not empty;
  overflows <= resize(ovf, 32);

  -- the drain choice, combinational: lowest input with a waiting stamp
  drain : process (all)
  begin
    sel <= 0;
    for i in N - 1 downto 0 loop
      if hv(i) = '1' then
        sel <= i;
      end if;
    end loop;
  end process;
  full  <= lvl(LOG2);
  we    <= any and not full;
  -- r0 is the drained input's stamp: o = sel whenever any (o_nx below)
  wdata <= std_logic_vector(seq) & std_logic_vector(to_unsigned(sel, 3)) & r0;

  one : if N = 1 generate
    o_nx <= '0';
    tk0  <= in_take(0);
    tk1  <= '0';
  end generate;
  two : if N = 2 generate
    -- hv(0) in the next clock is in_valid(0) (a waiting input 0 is
    -- drained now); hv(1) is in_valid(1) or hv(1) with hv(0) (then input 1
    -- waits behind 0). With hv(1) alone input 1 is drained now from r0
    -- (o = 1 already), so o_nx = 1 keeps it: one LUT of flip-flops.
    -- (o_nx in the next clock from that clock's strobes, hv and o)
    owner : process (clk)
    begin
      if rising_edge(clk) then
        if in_valid_nx(0) = '1' then
          own_nx <= '0';
        elsif in_valid_nx(1) = '1' or hv_nx(1) = '1' then
          own_nx <= '1';
        end if;
      end if;
    end process;
    o_nx <= own_nx;
    tk0  <= in_take(1) when o_nx = '1' else in_take(0);
    tk1  <= in_take(0) when o_nx = '1' else in_take(1);
  end generate;
  sw <= o_nx xor o;

  stamps : process (clk)
  begin
    if rising_edge(clk) then
      o <= o_nx;
      if tk0 = '1' then
        r0 <= std_logic_vector(time_ns);
      elsif sw = '1' then
        r0 <= r1;
      end if;
      if tk1 = '1' then
        r1 <= std_logic_vector(time_ns);
      elsif sw = '1' then
        r1 <= r0;
      end if;
    end if;
  end process;

  -- the memory alone in its process, in the shape that maps to block RAM
  -- (GHDL 2.0 synthesis got the write enable wrong when it sat inside the
  -- control loop below: tests/hdl/netlist.sh). The read happens only on a
  -- pop, so the RAM's own output register holds the popped entry until the
  -- next pop and no copy of the 83-bit entry is kept in logic cells.
  ram : process (clk)
  begin
    if rising_edge(clk) then
      if we = '1' then
        mem_nrw(to_integer(wr_ptr(LOG2 - 1 downto 0))) <= wdata;
      end if;
      if pop = '1' then
        rd_data <= mem_nrw(to_integer(rd_ptr(LOG2 - 1 downto 0)));
      end if;
    end if;
  end process;

  -- the holding slots in the next clock: the drained one empties, a
  -- strobe fills its input's
  hv_next : process (all)
  begin
    hv_nx <= hv;
    if any = '1' then
      hv_nx(sel) <= '0';
    end if;
    for i in 0 to N - 1 loop
      if in_valid(i) = '1' then
        hv_nx(i) <= '1';
      end if;
    end loop;
    if rst_q = '1' then
      hv_nx <= (others => '0');
    end if;
  end process;

  control : process (clk)
    variable lost  : natural range 0 to N + 1;
  begin
    if rising_edge(clk) then
      in_valid <= in_valid_nx;
      hv <= hv_nx;
      if hv_nx = (N - 1 downto 0 => '0') then
        any <= '0';
      else
        any <= '1';
      end if;
      lost := 0;
      if any = '1' then
        seq <= seq + 1;             -- written or lost, the edge takes its number
        if full = '0' then
          wr_ptr <= wr_ptr + 1;
        else
          lost := lost + 1;
        end if;
      end if;
      -- take new edges into the holding registers
      for i in 0 to N - 1 loop
        if in_valid(i) = '1' then
          if hv(i) = '1' and not (any = '1' and sel = i) then
            lost := lost + 1;       -- previous edge of this input still waiting (see above)
          end if;
        end if;
      end loop;
      lost_r <= to_unsigned(lost, 2);
      -- saturating: with edge_capture inputs at most one edge is lost per
      -- clock (the drain's; see the header), so stopping at all ones is
      -- exact. (A form that also caught lost_r = 2 below the top cost 30
      -- LUTs more, measured: it kept Yosys from the carry chain.)
      -- (session 22: held by the sum's carry out, not by a compare of ovf
      -- with all ones: the same with lost_r <= 1, and never wraps)
      if ovf_sum(OVF_W) = '0' then
        ovf <= ovf_sum(OVF_W - 1 downto 0);
      end if;

      -- the read leaves block RAM one clock after the pop and is held there;
      -- out_valid keeps its two-clock latency
      pop_d     <= pop;
      out_valid <= pop_d;
      if pop = '1' then
        found_d <= rd_adv;
      end if;
      if rd_adv = '1' then
        rd_ptr <= rd_ptr + 1;
      end if;
      -- the level and the empty flag in the next clock: a pop frees a
      -- word, a push without a pop takes one (none while full: we); a
      -- push makes it non-empty, a pop of the last word without a push
      -- empties it (with both, the level stays)
      -- (one adder of +1 or -1, all ones, by rd_adv: session 22; +1 and
      -- -1 as two chains and a multiplexer were ~27 LUTs)
      if (we xor rd_adv) = '1' then
        lvl <= lvl + unsigned(std_logic_vector'((LOG2 downto 1 => rd_adv) & '1'));
      end if;
      if we = '1' then
        empty <= '0';
      elsif rd_adv = '1' and lvl = 1 then
        empty <= '1';
      end if;
      rst_q <= rst;
      if rst_q = '1' then
        seq <= (others => '0');       -- sequence numbers count from reset
        ovf <= (others => '0');
        lost_r <= (others => '0');
        wr_ptr <= (others => '0');
        rd_ptr <= (others => '0');
        empty <= '1';
        lvl <= (others => '0');
        pop_d <= '0';
        out_valid <= '0';
      end if;
    end if;
  end process;
  out_found <= found_d;
  out_entry <= rd_data;
end architecture;
