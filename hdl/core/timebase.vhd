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
-- Two logic cells per bit (session 5; four before): per chunk an addend
-- register a(j) and the time r(j), each one LUT + carry + flip-flop.
-- a(j) is the period p(j), except in the one clock after the chunk's
-- SET/ADJUST step, when it is p + data (its own carry chain, ec). The
-- time then adds a (ADJUST) or takes it as it is (SET), so the set
-- multiplexer is the LUT's fourth input (r = set ? a : r + a + carry), and
-- no offset register, addend multiplexer or separate set multiplexer
-- remain. Consequence: SET v lands as "v was the time of the step before":
-- the landing step shows v + period (a jump to v + period, one step
-- later, instead of to v, at the same clock as ADJUST lands). A settime's
-- value is software's estimate of now, so the 8 ns is within its error;
-- tb_timebase checks the landing value exactly.
--
-- Latencies (clocks, fixed): a command accepted in clock t0 takes effect
-- for the step after clock t0+1 and shows at the output NCH+1 clocks later.
-- One command at a time: cmd_ready is low while one is in flight, and
-- cmd_op/cmd_data must stay unchanged until cmd_ready is high again (the
-- chunks read them at their skewed clocks; keeping them is the caller's
-- job so the 96-bit word is not stored twice). Exactly: chunk j of
-- cmd_data is read in clock t0+1+j (cmd_stage(j) high), chunk 2 also in
-- the clock before (its carry flags gen_c/prop_c); chunks 3 and up (no
-- period bits) only in their own clock, so a caller may present those
-- one after another (clock_tb_domain reads them from block RAM, session
-- 19).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity timebase is
  generic (
    W          : positive := 16;    -- chunk width: one 16-bit add per clock
    NS_INIT    : natural  := 8;     -- period after reset, whole ns
    FRAC_INIT  : natural  := 0;
    -- false: ADJUST takes whole ns only (cmd_data's fraction bits are
    -- ignored). Since the SET path goes through the same addend registers
    -- this no longer saves cells (it did before session 5); the register
    -- map has no fractional offset (clock.adj_ns_lo/hi), so
    -- clock_tb_domain uses false.
    ADJ_FRAC   : boolean  := true;
    -- true: the output alignment delays of 2 and 3 clocks (ns chunks 0
    -- and 1 at W = 16: 80 flip-flops) run through block RAM delay lines
    -- (one 256 x 16 RAM each) instead of flip-flop chains
    ALIGN_RAM  : boolean  := true);
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    cmd_valid : in  std_logic;
    cmd_op    : in  std_logic_vector(1 downto 0);   -- see OP_* below
    -- SET: time (ns & frac) of the step before the landing step (see
    -- above). ADJUST: signed offset in the same format (the fraction only
    -- with ADJ_FRAC).
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
    -- the fraction chunks the same way (chunk k, bits k*W+W-1..k*W, of
    -- the step whose chunk 0 was there in clock t-k): clock_tb_domain's
    -- snapshot latches each chunk at its own clock, so it needs neither
    -- time_frac's nor frac_early's alignment flip-flops
    frac_skew : out unsigned(31 downto 0);
    period    : out unsigned(39 downto 0);           -- increment in use
    -- the command's pipeline: bit k is high in clock t0+1+k of a command
    -- accepted in clock t0 (chunk k's SET/ADJUST step: a(k) takes period
    -- + data). Chunks 3 and up read their cmd_data chunk in that clock
    -- only, chunks 0..2 from t0 on (their carry flags a clock ahead), so a
    -- caller may present the top chunks one after another (clock_tb_domain
    -- reads chunks 3..5 from block RAM by these)
    cmd_stage : out std_logic_vector(96 / W - 1 downto 0));
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

  function period_init return std_logic_vector is
    variable p : std_logic_vector(95 downto 0) := (others => '0');
  begin
    p(39 downto 0) := std_logic_vector(to_unsigned(NS_INIT, 8)) &
                      std_logic_vector(to_unsigned(FRAC_INIT, 32));
    return p;
  end function;

  constant PERIOD_RESET : std_logic_vector(95 downto 0) := period_init;

  -- period bits in chunk j if it holds the period's top bits (bit 39) and
  -- has bits above them, else W / 2 (a dummy width)
  function period_bits (j : natural) return positive is
  begin
    if j * W < 40 and (j + 1) * W > 40 then
      return 40 - j * W;
    end if;
    return W / 2;
  end function;
  -- r: the time; a: what the next step adds (the period, or for one clock
  -- period + command data); p: the period (40 bits; the chunks above are
  -- constant zero and synthesise to nothing)
  signal r, a        : chunks_t := (others => (others => '0'));
  signal p96         : std_logic_vector(95 downto 0) := PERIOD_RESET;
  signal c, ec       : std_logic_vector(NCH - 1 downto 0) := (others => '0');
  -- per chunk, decoded a clock ahead into flip-flops (a shared op register
  -- fanned out to every chunk took 3 ns of routing, measured):
  -- en_n(j) low in clock stage(j): a(j) takes period + data (SET,
  --         ADJUST). Stored inverted: a(j)'s bits above the period are
  --         zero but in that clock, a synchronous reset by en_n itself
  --         (stored true, each chunk's reset net took an inverter cell).
  --         No initial value: a '1' start is an inverted flip-flop to
  --         Yosys (iCE40 flip-flops start at 0), the inverters again. A
  --         0 start makes the first clock's a(j) period + data instead of
  --         the period, one step in reset (rst_q sets en_n then); r has
  --         no reset either: the time means nothing until software sets it
  -- ld(j)  in clock stage(j): p(j) takes data (PERIOD)
  -- set(j) in clock stage(j + 1): r(j) takes a(j) instead of r(j) + a(j)
  signal en_n        : std_logic_vector(NCH - 1 downto 0);
  signal ld, set     : std_logic_vector(NCH - 1 downto 0) := (others => '0');
  -- the chunk that holds the period's top bits (bits 32..47 at W = 16):
  -- generate and propagate of period + data, registered (both are held
  -- from the command's clock on, one command at a time), so its addend
  -- carry is g or (pr and carry in), one LUT, not a ripple through its
  -- chain. Yosys cuts that chain in two where the period's bits end
  -- (constant zero operand), and the ripple through both halves was the
  -- worst tb_clk path at every seed of 167dfe0 (8.1 - 10.0 ns).
  signal gen_c, prop_c : std_logic_vector(NCH - 1 downto 0) := (others => '0');
  signal stage       : std_logic_vector(NCH downto 0) := (others => '0');
  signal idle        : std_logic := '1';
  signal start       : std_logic;
  signal data        : std_logic_vector(95 downto 0);
  signal op          : std_logic_vector(1 downto 0);

  -- output alignment: chunk j delayed by NCH-1-j clocks
  type delay_t is array (0 to NCH - 1) of chunks_t;
  signal dly : delay_t := (others => (others => (others => '0')));
  -- Block RAM delay lines (ALIGN_RAM): the addresses are a free-running
  -- 8-bit LFSR sequence s(t) = ls(7..0); ls is a shift register, so
  -- s(t-1) = ls(8..1) and s(t-2) = ls(9..2) come for free (no counters).
  -- Every RAM reads at s(t-2) (registered read: the word shows at t+1);
  -- the 3-clock line writes at s(t), the 2-clock line at s(t-1), so a
  -- word written in clock t shows in clock t+3 (t+2). A read and a write
  -- never hit one address in one clock (the sequence has period 255), so
  -- the RAMs are `_nrw` (no Yosys collision logic). XNOR feedback: the
  -- lock-up state is all ones, and the flip-flops start at all zeros
  -- (that start needs no reset: any state of the sequence is as good).
  signal ls : std_logic_vector(9 downto 0) := (others => '0');
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
  start <= cmd_valid and idle;

  lfsr : process (clk)
  begin
    if rising_edge(clk) then
      -- x^8 + x^6 + x^5 + x^4 + 1 (maximal length)
      ls <= ls(8 downto 0) & (ls(7) xnor ls(5) xnor ls(4) xnor ls(3));
    end if;
  end process;

  control : process (clk)
  begin
    if rising_edge(clk) then
      rst_q <= rst;
      stage <= stage(NCH - 1 downto 0) & '0';
      -- stage in the next clock is zero: nothing left to shift in, no start
      if stage(NCH - 1 downto 0) = (NCH - 1 downto 0 => '0') and start = '0' then
        idle <= '1';
      else
        idle <= '0';
      end if;
      if rst_q = '1' then
        stage <= (others => '0');
        idle <= '1';
      elsif start = '1' then
        stage(0) <= '1';
      end if;
    end if;
  end process;

  -- driven, not left open: GHDL's netlist gives undriven bits 'Z'
  p96(95 downto 40) <= (others => '0');

  chunks : for j in 0 to NCH - 1 generate
    signal cin, ecin, prev : std_logic;
    signal asum, rsum : unsigned(W downto 0);
    -- chunks without period bits: data + the carry in, ecin on the chain's
    -- carry in (see a(j) below); its carry out is ec(j)
    signal dinc : unsigned(W downto 0);
    -- the chunk that holds the period's top bits: period + data + carry in
    -- over the PB bits that have period bits, the data bits above them + 1
    -- (see a(j) below; PB is a dummy in the other chunks, which do not
    -- read these)
    constant PB : positive := period_bits(j);
    signal alo  : unsigned(PB downto 0);
    signal dhinc : unsigned(W - 1 - PB downto 0);
    signal pj : chunk_t;
  begin
    first : if j = 0 generate
      cin  <= '0';
      ecin <= '0';
      prev <= start;
    end generate;
    later : if j > 0 generate
      cin  <= c(j - 1);
      ecin <= ec(j - 1);
      prev <= stage(j - 1);
    end generate;
    pj <= chunk(p96, j);

    -- one LUT per bit each: a = en ? p + data + carry : p, and
    -- r = set ? a : r + a + carry (the carry chains read the same two
    -- flip-flops the LUT does, the fourth LUT input is the control)
    asum <= ('0' & pj) + ('0' & chunk(data, j)) + ("" & ecin);
    rsum <= ('0' & r(j)) + ('0' & a(j)) + ("" & cin);
    dinc <= ('0' & chunk(data, j)) + ("" & ecin);
    alo <= ('0' & pj(PB - 1 downto 0)) + ('0' & chunk(data, j)(PB - 1 downto 0)) + ("" & ecin);
    dhinc <= chunk(data, j)(W - 1 downto PB) + 1;

    process (clk)
    begin
      if rising_edge(clk) then
        if prev = '1' and rst_q = '0' and
           (op = OP_SET or (op = OP_ADJUST and (ADJ_FRAC or j >= 32 / W))) then
          en_n(j) <= '0';
        else
          en_n(j) <= '1';
        end if;
        if prev = '1' and rst_q = '0' and op = OP_PERIOD then
          ld(j) <= '1';
        else
          ld(j) <= '0';
        end if;
        if stage(j) = '1' and rst_q = '0' and op = OP_SET then
          set(j) <= '1';
        else
          set(j) <= '0';
        end if;

        -- The carries need little gating: ec(j) is only used by chunk j+1
        -- in the clock after en_n(j) low, when it is the carry of that add (in
        -- other clocks a(j+1) is p and ignores it), except where ADJUST
        -- starts above the fraction (ADJ_FRAC false): there en_n(j) is 1
        -- and en_n(j+1) 0, so that ec must be 0. c(j) after chunk j's set step,
        -- or garbage from chunk j-1's set step, is only used by chunk j+1
        -- in its own set step, whose r ignores it (and whose carry is
        -- again of no use but to a set step).
        if not ADJ_FRAC and j = 32 / W - 1 then
          ec(j) <= asum(W) and not en_n(j);
        elsif j * W < 40 and (j + 1) * W > 40 then
          ec(j) <= gen_c(j) or (prop_c(j) and ecin);
        elsif j * W >= 40 then
          -- no period bits here: the carry out of data + ec, the chain a(j)
          -- has anyway. Until session 19 a registered 16-bit AND of the
          -- data (ones(j), about 5 LUTs and a flip-flop per chunk), then
          -- ecin AND data + 1's carry out (see a(j) for session 20)
          ec(j) <= dinc(W);
        else
          ec(j) <= asum(W);
        end if;
        if en_n(j) = '0' then
          if j * W >= 40 then
            -- no period bits: data + carry in, ecin on the chain's carry
            -- in, so each bit is the chain's own sum LUT and a(j)'s
            -- flip-flop shares its cell (en_n is its synchronous reset).
            -- Sessions 14 - 19 chose between data and data + 1 by ecin
            -- instead, to keep ec(j - 1) off the chain: the choice was a
            -- second LUT behind the sum, and with the data from block RAM
            -- (session 19) block RAM -> 16-bit chain -> sum -> route ->
            -- choice -> a(4) was the worst tb_clk path of the PCI board
            -- (8.2 - 8.6 ns, missing 125 MHz at one seed of 2 / 1 / 3 or
            -- more on every tree of sessions 19 and 20)
            a(j) <= dinc(W - 1 downto 0);
          elsif j * W < 40 and (j + 1) * W > 40 then
            -- the same above the period's bits: the data bits there + the
            -- carry out of the bits below, chosen from data and data + 1.
            -- (As one chain, ec(j - 1) or the period register -> its low
            -- half -> feed-out -> route -> feed-in -> the data bits above
            -- -> a(j) was the worst tb_clk path of the PCI board at seed 3
            -- (8.1 ns) and of the hx8k board at seed 1 (8.2 ns).)
            a(j)(PB - 1 downto 0) <= alo(PB - 1 downto 0);
            if alo(PB) = '1' then
              a(j)(W - 1 downto PB) <= dhinc;
            else
              a(j)(W - 1 downto PB) <= chunk(data, j)(W - 1 downto PB);
            end if;
          else
            a(j) <= asum(W - 1 downto 0);
          end if;
        else
          a(j) <= pj;
        end if;

        c(j) <= rsum(W);
        if set(j) = '1' then
          r(j) <= a(j);
        else
          r(j) <= rsum(W - 1 downto 0);
        end if;

        dly(j)(0) <= r(j);
        for k in 1 to NCH - 1 loop
          dly(j)(k) <= dly(j)(k - 1);
        end loop;
      end if;
    end process;

    gp : if j * W < 40 and (j + 1) * W > 40 generate
      signal dj : chunk_t;
      signal lo : unsigned(PB downto 0);
    begin
      dj <= chunk(data, j);
      lo <= ('0' & pj(PB - 1 downto 0)) + ('0' & dj(PB - 1 downto 0));
      process (clk)
      begin
        if rising_edge(clk) then
          -- carry out of period + data with no carry in: out of the low
          -- PB bits, and through the data bits above (period bits zero)
          if lo(PB) = '1' and dj(W - 1 downto PB) = (W - 1 downto PB => '1') then
            gen_c(j) <= '1';
          else
            gen_c(j) <= '0';
          end if;
          -- a carry in passes: every bit of period xor data is 1
          if (pj xor dj) = (W - 1 downto 0 => '1') then
            prop_c(j) <= '1';
          else
            prop_c(j) <= '0';
          end if;
        end if;
      end process;
    end generate;

    -- the other chunks never read their gen_c/prop_c bit: drive it 0 so
    -- the netlist has no undriven ('Z') bits
    no_gp : if not (j * W < 40 and (j + 1) * W > 40) generate
      gen_c(j)  <= '0';
      prop_c(j) <= '0';
    end generate;

    -- the period: only the 40 bits a period has are flip-flops
    per : if j * W < 40 generate
      constant HI : natural := minimum((j + 1) * W, 40) - 1;
    begin
      process (clk)
      begin
        if rising_edge(clk) then
          if rst_q = '1' then
            p96(HI downto j * W) <= PERIOD_RESET(HI downto j * W);
          elsif ld(j) = '1' then
            p96(HI downto j * W) <= data(HI downto j * W);
          end if;
        end if;
      end process;
    end generate;

    -- chunk j needs NCH-1-j clocks of delay; 0 means straight from r(j)
    top_chunk : if j = NCH - 1 generate
      aligned((j + 1) * W - 1 downto j * W) <= std_logic_vector(r(j));
    end generate;
    lower_chunk : if j < NCH - 1 and not (ALIGN_RAM and (NCH - 1 - j = 2 or NCH - 1 - j = 3)) generate
      aligned((j + 1) * W - 1 downto j * W) <= std_logic_vector(dly(j)(NCH - 2 - j));
    end generate;
    ram_chunk : if ALIGN_RAM and (NCH - 1 - j = 2 or NCH - 1 - j = 3) generate
      type mem_t is array (0 to 255) of std_logic_vector(W - 1 downto 0);
      signal mem_nrw : mem_t;
      signal wa : std_logic_vector(7 downto 0);
      signal q : std_logic_vector(W - 1 downto 0);
    begin
      wa <= ls(7 downto 0) when NCH - 1 - j = 3 else ls(8 downto 1);
      -- the memory alone in its process (GHDL 2.0 synthesis, see event_fifo)
      ram : process (clk)
      begin
        if rising_edge(clk) then
          mem_nrw(to_integer(unsigned(wa))) <= std_logic_vector(r(j));
          q <= mem_nrw(to_integer(unsigned(ls(9 downto 2))));
        end if;
      end process;
      aligned((j + 1) * W - 1 downto j * W) <= q;
    end generate;
    fskew : if j < 32 / W generate
      frac_skew((j + 1) * W - 1 downto j * W) <= r(j);
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
  period    <= unsigned(p96(39 downto 0));
  cmd_stage <= stage(NCH - 1 downto 0);
end architecture;
