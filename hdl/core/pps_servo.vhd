-- SPDX-License-Identifier: GPL-2.0-or-later
-- Hardware PPS servo (bus clock domain): filters PPS stamps, measures the
-- phase error of each edge against the nearest whole interval, and steers
-- the timebase with phase steps (adjust) and a PI frequency correction.
-- Loop design, constants and their reasons: docs/servo.md.
--
-- Sign convention: err = stamp - nearest whole interval. err > 0 means the
-- card's clock read late at the true second, i.e. it is ahead, so the
-- correction to the period is negative.
--
-- Implementation: the servo runs once per PPS edge, so all per-edge
-- arithmetic (gap test, remainder, fold, threshold compares, gain
-- multiplies, saturating sums, the counters edges/rejects/losses/steps)
-- goes through ONE 33-bit adder, one operation per step of the sequencer
-- below. The iCE40 HX8K is too small for a dedicated adder per operation.
-- Only the microsecond timer and the glitch counter keep their own
-- incrementers. The four counters live in the register RAM: a step reads
-- one (par), adds one, and hands it back on cnt_req until cnt_ack.
--
-- Parameters (gains, thresholds, interval, loss time) are not held here:
-- the servo names the one it needs on `par` and reads it on `par_q` one
-- clock later, from the register file's block RAM. Each sequencer step
-- takes four clocks: the parameter address settles (1), the adder's
-- operands are registered (2), the sum is registered (3), the sum is used
-- (4). The registers cut the path operand multiplexer -> 34-bit adder ->
-- decisions and result multiplexers in three, for the 66 MHz bus clock
-- (57.7 MHz with the sum unregistered); about 650 clocks per edge.
-- The PPS-loss test (us_since >= loss_us) runs on the same adder after
-- each microsecond tick while the sequencer is idle; a stamp that arrives
-- meanwhile waits (stamp_valid is remembered).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.clock_msg_pkg.all;

entity pps_servo is
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    mode          : in  std_logic_vector(1 downto 0);   -- 0 off, 1 report, 2 servo
    -- parameter read port (P_* in clock_msg_pkg): par_q is the register
    -- word of parameter `par` as it was one clock earlier (gains packed as
    -- in the register map: mant(23..8), shift(4..0))
    par           : out par_t;
    par_q         : in  std_logic_vector(31 downto 0);
    stamp_valid   : in  std_logic;
    stamp         : in  unsigned(63 downto 0);          -- valid with stamp_valid only
    us_tick       : in  std_logic;
    accepted      : out std_logic;                      -- strobe: stamp kept
    last_stamp    : out unsigned(63 downto 0);          -- the last stamp kept
    -- requests to the timebase; held until ack
    step_req      : out std_logic;
    step_ns       : out signed(63 downto 0);
    freq_req      : out std_logic;
    freq_adj      : out signed(31 downto 0);
    req_ack       : in  std_logic;
    state         : out std_logic_vector(1 downto 0);
    present       : out std_logic;
    offset_ns     : out signed(31 downto 0);
    gap_glitches  : out unsigned(31 downto 0);
    -- counter write-back: the new value of counter cnt_sel (P_EDGES,
    -- P_REJECTS, P_LOSSES, P_STEPS), held until cnt_ack
    cnt_req       : out std_logic;
    cnt_sel       : out par_t;
    cnt_val       : out std_logic_vector(31 downto 0);
    cnt_ack       : in  std_logic);
end entity;

architecture rtl of pps_servo is
  constant FREERUN  : std_logic_vector(1 downto 0) := "00";
  constant LOCKING  : std_logic_vector(1 downto 0) := "01";
  constant LOCKED   : std_logic_vector(1 downto 0) := "10";
  constant HOLDOVER : std_logic_vector(1 downto 0) := "11";

  -- Sequencer, one adder operation per state (four clocks each):
  --   GAP1  r := stamp_lo - last_lo         GAP2  stamp_lo - last_lo < min_gap?
  --   MODS  64 non-restoring remainder steps, one stamp bit each
  --   MFIX  final restore (r < 0: r += interval)
  --   FOLD1 r >= interval/2?                FOLD2 err := r (- interval)
  --   CMP_S/CMP_L/CMP_R  |err| against step/lock/reject thresholds
  --   LCNT  good+1, bad+1 against lock_count (no adder)
  --   DECIDE  state machine; the adder makes -err for a step
  --   LOADK the gain for the next multiply (ki, kp or kf; no adder)
  --   MULT/RSHF/LSHF  |err| * mant >> shift (shift-and-add, then align)
  --   ACC   integ/freq_adj := saturating integ -+ product
  --   LOSS  loss_us - us_since <= 0: PPS lost
  --   INC   counter inc_sel + 1 (read from the RAM), then CNTW writes it
  --         back and continues at ret
  type seq_t is (IDLE, GAP1, GAP2, MODS, MFIX, FOLD1, FOLD2, CMP_S, CMP_L, CMP_R,
                 LCNT, DECIDE, LOADK, MULT, RSHF, LSHF, ACC, WAIT_ACK, LOSS,
                 INC, CNTW);
  type asel_t is (A_ZERO, A_STAMP, A_R, A_RSH, A_INTEG, A_PAR);
  type bsel_t is (B_ZERO, B_LAST, B_PAR, B_ERR, B_R, B_MAX, B_US, B_ONES);
  -- which multiply: I (ki, then P follows), P (kp), F (kf after a step)
  type ph_t is (PH_I, PH_P, PH_F);

  signal seq : seq_t := IDLE;
  signal ph  : ph_t := PH_I;
  signal st  : std_logic_vector(1 downto 0) := FREERUN;
  signal last_lo, last_hi : unsigned(31 downto 0) := (others => '0');
  signal have_last, prev_step, pres : std_logic := '0';
  signal us_since : unsigned(31 downto 0) := (others => '0');
  signal err  : signed(31 downto 0) := (others => '0');
  signal integ : signed(31 downto 0) := (others => '0');
  signal good, bad : unsigned(7 downto 0) := (others => '0');
  signal rej_run : unsigned(1 downto 0) := (others => '0');   -- 0..3 rejections in a row
  signal c_gap : unsigned(31 downto 0) := (others => '0');
  signal ret : seq_t := IDLE;
  signal inc_sel : par_t := P_EDGES;
  signal creq : std_logic := '0';
  signal cval : std_logic_vector(31 downto 0) := (others => '0');
  signal sreq, freq : std_logic := '0';
  -- -err at the step; |err| < 2^30 (it is folded to +-interval/2), so 32
  -- bits hold it and step_ns is its sign extension
  signal step_r : signed(31 downto 0) := (others => '0');
  signal fadj : signed(31 downto 0) := (others => '0');

  -- datapath registers
  signal sr   : unsigned(63 downto 0) := (others => '0');  -- stamp, shifted out MSB first
  signal r    : unsigned(31 downto 0) := (others => '0');  -- remainder / product high
  signal l    : unsigned(15 downto 0) := (others => '0');  -- multiplier / product low
  signal cnt  : unsigned(5 downto 0) := (others => '0');
  signal shc  : unsigned(4 downto 0) := (others => '0');
  signal sticky : std_logic := '0';                         -- product bits above 31 seen
  signal f_ge, f_step, f_lock, f_rej, f_gc, f_bc : std_logic := '0';
  -- four clocks per step: 0 address, 1 operands, 2 sum, 3 act
  signal phc  : unsigned(1 downto 0) := (others => '0');
  signal sv_pend, us_chk : std_logic := '0';
  signal opa, opb, sum_r : unsigned(33 downto 0) := (others => '0');

  -- adder controls (from seq) and results
  signal asel : asel_t;
  signal bsel : bsel_t;
  signal rbit, sub, asx, bsx : std_logic;
  signal a, b : unsigned(31 downto 0);
  signal s34 : unsigned(33 downto 0);
  signal w : unsigned(31 downto 0);     -- result, 32 bits
  signal neg : std_logic;               -- bit 32: borrow (unsigned) or sign (signed)
  signal nz : std_logic;                -- result bits 31..0 not all zero
  signal ovf_mul : std_logic;
  signal sat_w : signed(31 downto 0);   -- result saturated to +-(2^31 - 1)
begin
  -- which operands the current state feeds the adder
  ctl : process (all)
  begin
    asel <= A_ZERO;
    bsel <= B_ZERO;
    rbit <= '0';
    sub  <= '0';
    asx  <= '0';
    bsx  <= '0';
    case seq is
      when GAP1 =>
        asel <= A_STAMP; bsel <= B_LAST; sub <= '1';
      when GAP2 =>
        asel <= A_R; bsel <= B_PAR; sub <= '1';
      when MODS =>
        -- non-restoring: r stays in [-interval, interval), so 2r + bit fits
        -- 32 bits modulo 2^32 and the result's sign is its bit 31
        -- (interval < 2^31: the register refuses larger values)
        asel <= A_RSH; rbit <= sr(63); bsel <= B_PAR; sub <= not r(31);
      when MFIX =>
        asel <= A_R;
        if r(31) = '1' then
          bsel <= B_PAR;
        end if;
      when FOLD1 =>
        -- r >= floor(interval/2)  <=>  2r + interval(0) >= interval
        asel <= A_RSH; rbit <= par_q(0); bsel <= B_PAR; sub <= '1';
      when FOLD2 =>
        asel <= A_R; sub <= '1';
        if f_ge = '1' then
          bsel <= B_PAR;
        end if;
      when CMP_S | CMP_L | CMP_R =>
        -- threshold - |err|: subtract err when err >= 0, add it when < 0
        asel <= A_PAR;
        bsel <= B_ERR; bsx <= '1'; sub <= not err(31);
      when LOSS =>
        asel <= A_PAR; bsel <= B_US; sub <= '1';
      when INC =>
        asel <= A_PAR; bsel <= B_ONES; sub <= '1';   -- a - (-1)
      when DECIDE =>
        bsel <= B_ERR; sub <= '1';      -- 0 - err: the step
      when MULT =>
        asel <= A_R;
        if l(0) = '1' then              -- r + |err|
          bsel <= B_ERR; bsx <= '1'; sub <= err(31);
        end if;
      when RSHF =>
        asel <= A_R;
      when LSHF =>
        asel <= A_RSH; rbit <= l(15);
      when ACC =>
        -- integ + (-y), y = sign(err) * product
        asel <= A_INTEG; asx <= '1'; sub <= not err(31);
        if ovf_mul = '1' then
          bsel <= B_MAX;
        else
          bsel <= B_R;
        end if;
      when others =>
        null;
    end case;
  end process;

  -- the parameter each step reads
  parsel : process (all)
  begin
    case seq is
      when GAP1 | GAP2 => par <= P_GAP;
      when CMP_S => par <= P_STEP;
      when CMP_L => par <= P_LOCK;
      when CMP_R => par <= P_REJ;
      when LCNT => par <= P_LCNT;
      when LOADK =>
        case ph is
          when PH_I => par <= P_KI;
          when PH_P => par <= P_KP;
          when others => par <= P_KF;
        end case;
      when IDLE | LOSS => par <= P_LOSS;
      when INC => par <= inc_sel;
      when others => par <= P_INTERVAL;
    end case;
  end process;

  with asel select a <=
    sr(31 downto 0)                 when A_STAMP,
    r                               when A_R,
    r(30 downto 0) & rbit           when A_RSH,
    unsigned(integ)                 when A_INTEG,
    unsigned(par_q)                 when A_PAR,
    (others => '0')                 when others;
  with bsel select b <=
    last_lo                         when B_LAST,
    unsigned(par_q)                 when B_PAR,
    unsigned(err)                   when B_ERR,
    r                               when B_R,
    x"7FFFFFFF"                     when B_MAX,
    us_since                        when B_US,
    x"FFFFFFFF"                     when B_ONES,
    (others => '0')                 when others;

  -- a + (b xor sub) + sub in 33 bits, as one 34-bit add whose extra low bit
  -- only generates the carry in (one adder, no separate carry-in adder).
  -- The operands are registered in the step's second clock, the sum used
  -- in its third.
  operands : process (clk)
  begin
    if rising_edge(clk) then
      opa <= (asx and a(31)) & a & '1';
      opb <= ((bsx and b(31)) & b & '0') xor (33 downto 0 => sub);
      sum_r <= opa + opb;
    end if;
  end process;
  s34 <= sum_r;
  w   <= s34(32 downto 1);
  neg <= s34(33);
  nz  <= '1' when w /= x"00000000" else '0';
  -- the product, already aligned in r: above 2^31 - 1 it saturates
  ovf_mul <= sticky or r(31);
  -- signed overflow of integ -+ product: bit 32 differs from bit 31. The
  -- negative bound is -(2^31 - 1), as sat_add had it.
  sat_w <= x"7FFFFFFF" when neg = '0' and w(31) = '1' else
           x"80000001" when neg = '1' and w(31) = '0' else
           signed(w);

  process (clk)
  begin
    if rising_edge(clk) then
      accepted <= '0';

      -- loss of PPS, counted in microseconds of the card's own clock; the
      -- test against loss_us is the LOSS step
      if us_tick = '1' then
        us_chk <= '1';
        if us_since /= x"FFFFFFFF" then
          us_since <= us_since + 1;
        end if;
      end if;
      -- a stamp is taken whenever no edge is being worked on
      -- (into sr at once: the register file keeps no copy of the stamp)
      if stamp_valid = '1' and mode /= "00" and (seq = IDLE or seq = LOSS) then
        sr <= stamp;
        sv_pend <= '1';
      end if;

      -- steps other than IDLE and WAIT_ACK act in their fourth clock
      if seq = IDLE or seq = WAIT_ACK or seq = CNTW or phc = 3 then
        phc <= (others => '0');
      else
        phc <= phc + 1;
      end if;

      if seq = IDLE then
        if sv_pend = '1' then
          sv_pend <= '0';
          seq <= GAP1;
        elsif us_chk = '1' and pres = '1' then
          us_chk <= '0';
          seq <= LOSS;
        end if;

      elsif seq = WAIT_ACK then
        if sreq = '0' and freq = '0' then
          seq <= IDLE;
        end if;

      elsif seq = CNTW then
        if cnt_ack = '1' then
          creq <= '0';
          seq <= ret;
        end if;

      elsif phc = 3 then
      case seq is
        when INC =>
          cval <= std_logic_vector(w);
          creq <= '1';
          seq  <= CNTW;

        when LOSS =>
          seq <= IDLE;
          if neg = '1' or nz = '0' then     -- us_since >= loss_us
            pres <= '0';
            have_last <= '0';       -- the gap test is meaningless across a loss
            if st = LOCKING or st = LOCKED then
              st <= HOLDOVER;
              inc_sel <= P_LOSSES; ret <= IDLE; seq <= INC;
              fadj <= integ;          -- hold the learned frequency, drop the P term
              freq <= '1';
            end if;
          end if;

        when GAP1 =>
          r   <= w;
          seq <= GAP2;

        when GAP2 =>
          seq <= IDLE;
          if have_last = '1' and neg = '1' then
            c_gap <= c_gap + 1;
          else
            accepted  <= '1';
            inc_sel   <= P_EDGES;
            ret       <= IDLE;
            seq       <= INC;
            last_lo   <= sr(31 downto 0);
            last_hi   <= sr(63 downto 32);
            have_last <= '1';
            pres      <= '1';
            us_since  <= (others => '0');
            us_chk    <= '0';
            if mode = "10" then
              r   <= (others => '0');
              cnt <= (others => '1');       -- 64 steps
              ret <= MODS;
            end if;
          end if;

        when MODS =>
          r  <= w;
          sr <= sr(62 downto 0) & '0';
          cnt <= cnt - 1;
          if cnt = 0 then
            seq <= MFIX;
          end if;

        when MFIX =>
          r   <= w;
          seq <= FOLD1;

        when FOLD1 =>
          f_ge <= not neg;
          seq  <= FOLD2;

        when FOLD2 =>
          err <= signed(w);
          seq <= CMP_S;

        when CMP_S =>
          f_step <= neg;                    -- |err| > step_thresh
          seq <= CMP_L;
        when CMP_L =>
          f_lock <= not neg and nz;         -- |err| < lock_thresh
          seq <= CMP_R;
        when CMP_R =>
          f_rej <= neg;                     -- |err| > reject_thresh
          seq <= LCNT;
        when LCNT =>
          if good + 1 >= unsigned(par_q(7 downto 0)) then
            f_gc <= '1';
          else
            f_gc <= '0';
          end if;
          if bad + 1 >= unsigned(par_q(7 downto 0)) then
            f_bc <= '1';
          else
            f_bc <= '0';
          end if;
          seq <= DECIDE;

        when DECIDE =>
          seq <= IDLE;
          -- start of a multiply (used unless the branch below says otherwise)
          r <= (others => '0');
          sticky <= '0';
          cnt <= to_unsigned(15, 6);
          if st = FREERUN or st = LOCKING then
            -- One interval after a step the error is pure frequency error,
            -- however small: it is removed as a step plus a frequency
            -- estimate. A small one ends the acquisition (the linear
            -- estimate leaves a residual of (y * interval)^2, 1 us after a
            -- 1 % offset, that PI alone would take ~6 intervals to remove);
            -- a large one (still > step_thresh) repeats it.
            if f_step = '1' or prev_step = '1' then
              step_r <= signed(w);
              sreq   <= '1';
              good   <= (others => '0');
              st     <= LOCKING;
              prev_step <= f_step;
              inc_sel <= P_STEPS;
              seq    <= INC;
              if prev_step = '1' then
                ph  <= PH_F;
                ret <= LOADK;
              else
                ret <= WAIT_ACK;
              end if;
            else
              prev_step <= '0';
              st <= LOCKING;
              if f_lock = '1' then
                if f_gc = '1' then
                  st <= LOCKED;
                  bad <= (others => '0');
                  rej_run <= (others => '0');
                end if;
                good <= good + 1;
              else
                good <= (others => '0');
              end if;
              ph  <= PH_I;
              seq <= LOADK;
            end if;
          else
            -- LOCKED or HOLDOVER: a far-off edge must not yank the clock
            if f_rej = '1' then
              inc_sel <= P_REJECTS;
              ret <= IDLE;
              seq <= INC;
              if rej_run = 3 then
                st <= LOCKING;     -- the reference really moved: re-acquire
                good <= (others => '0');
                rej_run <= (others => '0');
              else
                rej_run <= rej_run + 1;
              end if;
            else
              rej_run <= (others => '0');
              if st = HOLDOVER then
                st <= LOCKING;
                good <= (others => '0');
              elsif f_lock = '0' then
                if f_bc = '1' then
                  st <= LOCKING;
                  good <= (others => '0');
                end if;
                bad <= bad + 1;
              else
                bad <= (others => '0');
              end if;
              ph  <= PH_I;
              seq <= LOADK;
            end if;
          end if;

        when LOADK =>
          l   <= unsigned(par_q(23 downto 8));
          shc <= unsigned(par_q(4 downto 0));
          seq <= MULT;

        -- {r, l} := (r + l(0) * |err|) >> 1, 16 times: {r, l} = |err| * mant
        when MULT =>
          r <= s34(33 downto 2);
          l <= s34(1) & l(15 downto 1);
          cnt <= cnt - 1;
          if cnt = 0 then
            cnt <= to_unsigned(15, 6);
            if shc = 0 then
              seq <= LSHF;
            else
              seq <= RSHF;
            end if;
          end if;
        -- {r, l} >>= shift
        when RSHF =>
          r <= s34(33 downto 2);
          l <= s34(1) & l(15 downto 1);
          shc <= shc - 1;
          if shc = 1 then
            seq <= LSHF;
          end if;
        -- {r, l} <<= 16: r is the low 32 bits of the result, sticky the rest
        when LSHF =>
          sticky <= sticky or r(31);
          r <= w;
          l <= l(14 downto 0) & '0';
          cnt <= cnt - 1;
          if cnt = 0 then
            seq <= ACC;
          end if;

        when ACC =>
          case ph is
            when PH_I =>
              integ <= sat_w;
              r <= (others => '0');
              sticky <= '0';
              cnt <= to_unsigned(15, 6);
              ph  <= PH_P;
              seq <= LOADK;
            when PH_F =>
              -- after a step: the learned frequency only, no P term
              integ <= sat_w;
              fadj  <= sat_w;
              freq  <= '1';
              seq   <= WAIT_ACK;
            when others =>
              fadj <= sat_w;
              freq <= '1';
              seq  <= WAIT_ACK;
          end case;

        when others =>
          null;
      end case;
      end if;

      if mode /= "10" and (seq = IDLE or seq = GAP1 or seq = GAP2 or seq = LOSS) then
        st <= FREERUN;
        prev_step <= '0';
      end if;

      -- requests are served step first, then frequency
      if req_ack = '1' then
        if sreq = '1' then
          sreq <= '0';
        else
          freq <= '0';
        end if;
      end if;

      if rst = '1' then
        seq <= IDLE; st <= FREERUN; pres <= '0'; have_last <= '0';
        prev_step <= '0'; integ <= (others => '0');
        fadj <= (others => '0'); sreq <= '0'; freq <= '0';
        good <= (others => '0'); bad <= (others => '0'); rej_run <= (others => '0');
        c_gap <= (others => '0'); creq <= '0';
        phc <= (others => '0'); sv_pend <= '0'; us_chk <= '0';
      end if;
    end if;
  end process;

  last_stamp <= last_hi & last_lo;
  step_req <= sreq;
  step_ns  <= resize(step_r, 64);
  freq_req <= freq and not sreq;
  freq_adj <= fadj;
  state    <= st;
  present  <= pres;
  offset_ns <= err;
  gap_glitches <= c_gap;
  cnt_req <= creq;
  cnt_sel <= inc_sel;
  cnt_val <= cval;
end architecture;
