-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card's clock: 64-bit ns since the epoch + 32-bit fraction of a ns,
-- advanced every clock by a programmable increment (the period).
--
-- Why a skewed pipeline: a 96-bit add cannot close at 125 MHz on iCE40,
-- so the accumulator is cut into NCH chunks of W bits, each with its own
-- registered carry. The output alignment costs W * NCH * (NCH - 1) / 2
-- flip-flops (240 at W = 16, 96 at W = 32), but W = 32 reaches only
-- 88.6 MHz on the HX8K (measured: op decode -> addend mux -> 32-bit carry
-- chain, 11.3 ns), so W = 16. Chunk j runs j
-- clocks behind chunk 0: in clock t, r(j) holds chunk j of the time of step
-- t-j, and the carry chunk j needs for that step left chunk j-1 one clock
-- earlier. Every command (set, adjust, period) is applied to chunk j at its
-- own skewed clock, so each chunk sees it at the same logical step; the
-- output delays chunk j by NCH-1-j clocks, so time_ns/time_frac is always
-- one consistent value that grows by exactly the period every clock.
--
-- Latencies (clocks, fixed): a command accepted in clock t0 takes effect
-- for the step after clock t0+1 and shows at the output NCH+1 clocks later.
-- One command at a time: cmd_ready is low while one is in flight, and
-- cmd_op/cmd_data must stay unchanged until cmd_ready is high again (the
-- chunks read them at their skewed clocks; keeping them is the caller's
-- job so the 96-bit word is not stored twice).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity timebase is
  generic (
    W          : positive := 16;    -- chunk width: one 16-bit add per clock
    NS_INIT    : natural  := 8;     -- period after reset, whole ns
    FRAC_INIT  : natural  := 0;
    -- false: ADJUST takes whole ns only (cmd_data's fraction bits are
    -- ignored), which saves the fraction chunks' offset adders and addend
    -- multiplexers (64 logic cells at W = 16). The register map has no
    -- fractional offset (clock.adj_ns_lo/hi), so clock_tb_domain uses false.
    ADJ_FRAC   : boolean  := true);
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    cmd_valid : in  std_logic;
    cmd_op    : in  std_logic_vector(1 downto 0);   -- see OP_* below
    -- SET: time (ns & frac). ADJUST: signed offset in the same format
    -- (the fraction only with ADJ_FRAC).
    -- PERIOD: bits 39..32 whole ns, 31..0 fraction.
    cmd_data  : in  std_logic_vector(95 downto 0);
    cmd_ready : out std_logic;
    time_ns   : out unsigned(63 downto 0);
    time_frac : out unsigned(31 downto 0);
    -- the fraction (32 / W chunks) of the step (32 / W - 1) clocks back,
    -- i.e. 96 / W - 32 / W clocks AHEAD of time_frac (4 at W = 16): a
    -- snapshot latches it and sends it with time_ns that many clocks later.
    -- A design that reads only this and not time_frac lets synthesis drop
    -- the fraction's alignment flip-flops (144 of the 240 at W = 16).
    frac_early : out unsigned(31 downto 0);
    -- the ns chunks as the adders hold them, not aligned: ns chunk k
    -- (bits k*W+W-1..k*W) in clock t is of the step whose ns chunk 0 was
    -- there in clock t-k; the top chunk is the aligned time_ns'. For a
    -- consumer that works chunk by chunk a clock apart (perout_gen's
    -- compare), so it needs no aligned copy.
    time_skew : out unsigned(63 downto 0);
    period    : out unsigned(39 downto 0));          -- increment in use
end entity;

architecture rtl of timebase is
  constant OP_SET    : std_logic_vector(1 downto 0) := "00";
  constant OP_ADJUST : std_logic_vector(1 downto 0) := "01";
  constant OP_PERIOD : std_logic_vector(1 downto 0) := "10";

  constant NCH : positive := 96 / W;
  subtype chunk_t is unsigned(W - 1 downto 0);
  type chunks_t is array (0 to NCH - 1) of chunk_t;

  function chunk (v : std_logic_vector(95 downto 0); j : natural) return chunk_t is
  begin
    return unsigned(v((j + 1) * W - 1 downto j * W));
  end function;

  -- a period has 40 bits; the chunks above stay constant zero
  function period_bits (v : std_logic_vector(95 downto 0)) return std_logic_vector is
    variable p : std_logic_vector(95 downto 0) := (others => '0');
  begin
    p(39 downto 0) := v(39 downto 0);
    return p;
  end function;

  function period_init return std_logic_vector is
    variable p : std_logic_vector(95 downto 0) := (others => '0');
  begin
    p(39 downto 0) := std_logic_vector(to_unsigned(NS_INIT, 8)) &
                      std_logic_vector(to_unsigned(FRAC_INIT, 32));
    return p;
  end function;

  constant PERIOD_RESET : std_logic_vector(95 downto 0) := period_init;
  signal r, d, e     : chunks_t := (others => (others => '0'));
  signal c, ec       : std_logic_vector(NCH - 1 downto 0) := (others => '0');
  -- chunk j's command controls, decoded a clock ahead into its own
  -- flip-flops: the shared op register fanned out to every chunk's adder
  -- input took 3 ns of routing (tb_clk 96 MHz, measured)
  signal use_e, do_set, do_per : std_logic_vector(NCH - 1 downto 0) := (others => '0');
  signal stage       : std_logic_vector(NCH downto 0) := (others => '0');
  signal idle        : std_logic := '1';
  signal data        : std_logic_vector(95 downto 0);
  signal op          : std_logic_vector(1 downto 0);
  signal period_reg  : std_logic_vector(39 downto 0) := PERIOD_RESET(39 downto 0);

  -- output alignment: chunk j delayed by NCH-1-j clocks
  type delay_t is array (0 to NCH - 1) of chunks_t;
  signal dly : delay_t := (others => (others => (others => '0')));
  signal aligned : std_logic_vector(95 downto 0);
  -- the reset, registered here (the domain's reset net is a long route:
  -- see perout_gen); one clock later costs nothing
  signal rst_q       : std_logic := '1';
begin
  assert 96 mod W = 0 report "timebase: W must divide 96" severity failure;
  assert W >= 8 report "timebase: the period's whole ns must fit chunks 0..2" severity failure;
  assert 32 mod W = 0 report "timebase: W must divide 32 (frac_early)" severity failure;

  data <= cmd_data;
  op   <= cmd_op;
  -- idle = no command in flight (stage all zero), kept as a flip-flop:
  -- the 7-bit zero test in front of cmd_ready sat on the path into the
  -- message crossing's handshake (clock_tb_domain's msg_ready)
  cmd_ready <= idle and not cmd_valid;

  control : process (clk)
  begin
    if rising_edge(clk) then
      rst_q <= rst;
      stage <= stage(NCH - 1 downto 0) & '0';
      if stage(0) = '1' and op = OP_PERIOD then
        period_reg <= data(39 downto 0);
      end if;
      -- stage in the next clock is zero: nothing left to shift in, no start
      if stage(NCH - 1 downto 0) = (NCH - 1 downto 0 => '0') and
         not (cmd_valid = '1' and idle = '1') then
        idle <= '1';
      else
        idle <= '0';
      end if;
      if rst_q = '1' then
        stage <= (others => '0');
        idle <= '1';
        period_reg <= PERIOD_RESET(39 downto 0);
      elsif cmd_valid = '1' and idle = '1' then
        stage(0) <= '1';
      end if;
    end if;
  end process;

  chunks : for j in 0 to NCH - 1 generate
    signal cin, ecin : std_logic;
  begin
    first : if j = 0 generate
      cin  <= '0';
      ecin <= '0';
    end generate;
    later : if j > 0 generate
      cin  <= c(j - 1);
      ecin <= ec(j - 1);
    end generate;

    process (clk)
      variable addend : chunk_t;
      variable sum    : unsigned(W downto 0);
    begin
      if rising_edge(clk) then
        -- E = period + offset, chunk j, one clock before chunk j needs it
        if not (ADJ_FRAC or j >= 32 / W) then
          -- no offset in this chunk: driven constant (left undriven, GHDL's
          -- netlist gives them 'Z', and the next chunk reads ec(j))
          e(j)  <= (others => '0');
          ec(j) <= '0';
        elsif stage(j) = '1' and op = OP_ADJUST then
          sum := ('0' & d(j)) + ('0' & chunk(data, j)) + ("" & ecin);
          e(j)  <= sum(W - 1 downto 0);
          ec(j) <= sum(W);
        end if;

        -- true in the clock stage(j + 1) is
        if stage(j) = '1' and op = OP_ADJUST and rst_q = '0' and (ADJ_FRAC or j >= 32 / W) then
          use_e(j) <= '1';
        else
          use_e(j) <= '0';
        end if;
        if stage(j) = '1' and op = OP_SET and rst_q = '0' then
          do_set(j) <= '1';
        else
          do_set(j) <= '0';
        end if;
        if stage(j) = '1' and op = OP_PERIOD and rst_q = '0' then
          do_per(j) <= '1';
        else
          do_per(j) <= '0';
        end if;

        if use_e(j) = '1' then
          addend := e(j);
        else
          addend := d(j);
        end if;
        sum := ('0' & r(j)) + ('0' & addend) + ("" & cin);
        if do_set(j) = '1' then
          r(j) <= chunk(data, j);
          c(j) <= '0';
        else
          r(j) <= sum(W - 1 downto 0);
          c(j) <= sum(W);
        end if;

        if rst_q = '1' then
          d(j) <= chunk(PERIOD_RESET, j);
        elsif do_per(j) = '1' then
          d(j) <= chunk(period_bits(data), j);
        end if;

        dly(j)(0) <= r(j);
        for k in 1 to NCH - 1 loop
          dly(j)(k) <= dly(j)(k - 1);
        end loop;
      end if;
    end process;

    -- chunk j needs NCH-1-j clocks of delay; 0 means straight from r(j)
    top_chunk : if j = NCH - 1 generate
      aligned((j + 1) * W - 1 downto j * W) <= std_logic_vector(r(j));
    end generate;
    lower_chunk : if j < NCH - 1 generate
      aligned((j + 1) * W - 1 downto j * W) <= std_logic_vector(dly(j)(NCH - 2 - j));
    end generate;
    skew : if j >= 32 / W generate
      time_skew((j + 1) * W - 1 - 32 downto j * W - 32) <= r(j);
    end generate;
    -- frac_early: the fraction chunks aligned among themselves only
    early_top : if j = 32 / W - 1 generate
      frac_early((j + 1) * W - 1 downto j * W) <= r(j);
    end generate;
    early_lower : if j < 32 / W - 1 generate
      frac_early((j + 1) * W - 1 downto j * W) <= dly(j)(32 / W - 2 - j);
    end generate;
  end generate;

  time_ns   <= unsigned(aligned(95 downto 32));
  time_frac <= unsigned(aligned(31 downto 0));
  period    <= unsigned(period_reg);
end architecture;
