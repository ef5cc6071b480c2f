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
-- Implementation: a single-accumulator machine with a digit-serial
-- datapath. The accumulator r is 48 bits, kept as six 8-bit digits (DW) in
-- a rotating register; every operation
--     r := A + (B xor bx) + cin     A in {r, 2r + bit, 0, not r, stamp_lo, pend}
-- runs over the six digits low to high through ONE 8-bit adder, the carry
-- kept in a flip-flop between digits; each digit's sum enters r at the top
-- in the clock it is made, so after six digits r holds the result in
-- place. Compare operations rotate r instead of writing it. The sign of a
-- result is bit 47 and its zero flag is accumulated over the digits. 48
-- bits hold every intermediate exactly: the remainder (|r| < interval <
-- 2^31), the gain product |err| * mant < 2^30 * 2^16 and integ -+ product
-- < 2^32, so no step needs an overflow test other than the two
-- saturations.
-- B is one digit of a parameter (par_q, the register file's RAM), or of
-- the servo's own block RAM (wram, 512 x 8: |err|, the integrator,
-- us_since and the stamps, written digit by digit from the adder; 2^31 - 1
-- is a constant of its contents).
-- All per-edge arithmetic (gap test, 64-step remainder, fold, absolute
-- value, threshold compares, gain multiplies, saturating sums, the PPS-loss
-- test and its microsecond count, the counters edges/rejects/losses/steps/
-- gap glitches) goes through that adder. The counters live in the register
-- RAM: an INC step reads one (par), adds one, and hands it back on cnt_req
-- until cnt_ack. The results the register file shows (offset, frequency,
-- step, the accepted stamp) leave the same way, one 32-bit word of r at a
-- time, when they are made (the stamp by two extra operations that load
-- r with its words): the servo has no output registers, and the register
-- file no multiplexer of servo outputs. Flip-flops hold r and the control.
--
-- Timing of an operation: T_ADDR (the parameter address `par` settles and
-- par_q follows a clock later; the operand selection is registered), then
-- one T_DIG per digit (the digit's sum enters r and the RAM, carry, sign
-- and zero flags), then T_ACT (the step's decision): 8 bus clocks per
-- operation (7 for a round of the remainder and multiply loops), at most
-- ~870 per edge (13 us at 66.67 MHz): the clock for clock schedule of the
-- 16-bit datapath before session 13, which spent two clocks per word (sum
-- registered, then into r). The longest paths are a register, one operand
-- multiplexer and an 8-bit carry chain into r, the RAM's write data or the
-- zero flag.
-- Session 13 measured narrower digits (make block-fit BLOCK=pps_servo,
-- LUT4 / FF / carry, packed cells; 16-bit words: 562 / 167 / 43, 598):
-- DW = 8 one clock per digit 524 / 151 / 36, 558 (kept); DW = 4 two clocks
-- per digit 502 / 157 / 33, 540, one clock 508 / 152 / 33, 544. DW = 4
-- takes 26 (14) clocks per operation, ~3000 (~1600) per edge, 45 us at
-- most: nothing against the 1 s interval on the card, but the time-scaled
-- simulation (10 ms "seconds" with 100x the frequency offsets) turns the
-- later frequency request into 100x its real phase error: with two clocks
-- per digit the +-100 ppm lock tests locked at 10.5 s instead of 7.5 s
-- (make test-sim: fail, limit 10 s); -14 cells more were not worth that.
-- The PPS-loss test (us_since >= loss_us) runs on the adder while the
-- sequencer is idle and microsecond ticks are pending (pend, counted while
-- an edge is worked on and added in one operation); a stamp that arrives
-- meanwhile waits (stamp_valid is remembered). The stamp itself is read
-- from the register RAM (the register file writes a PPS answer's words
-- there) by two operations, LH and G1, that copy it through the adder into
-- the servo's own RAM (stamp_busy until then); the remainder reads its
-- bits from there one RAM word at a time (session 6: the 64-bit stamp
-- shift register and its two operand sources are gone).
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
    -- a PPS stamp is in the register RAM (words P_PPS_LO, P_PPS_HI, read
    -- through par/par_q when the servo starts on it)
    stamp_valid   : in  std_logic;
    -- the servo is about to read (or is reading) those two words: the
    -- register file must not overwrite them with the next PPS answer
    stamp_busy    : out std_logic;
    us_tick       : in  std_logic;
    accepted      : out std_logic;                      -- strobe: stamp kept
    -- requests to the timebase; held until ack. The step (P_STEP_LO, then
    -- P_STEP_HI: its sign) and the frequency (P_FREQ) have been handed
    -- over on the result port before the request rises.
    step_req      : out std_logic;
    freq_req      : out std_logic;
    req_ack       : in  std_logic;
    state         : out std_logic_vector(1 downto 0);
    present       : out std_logic;
    -- result port: cnt_val is the new value of word cnt_sel, held until
    -- cnt_ack: a counter (P_EDGES, P_REJECTS, P_LOSSES, P_STEPS, P_GAPS) or
    -- a result (P_OFFSET, P_FREQ, P_STEP_LO then P_STEP_HI, P_STAMP_LO then
    -- P_STAMP_HI).
    -- The servo keeps no copy of any of them.
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

  -- Sequencer. Operations on the adder (8 clocks each):
  --   LH    stamp_hi into wram            G1  r := stamp_lo (into wram)
  --   G2    r := r - last_lo (mod 2^32)
  --   G3    r - min_gap < 0? (gap glitch)
  --   INC   r := counter inc_sel + 1, then CNTW hands it back, continues at ret
  --   MODS  64 non-restoring remainder steps r := 2r + stamp bit -+ interval
  --   MFIX  final restore (r < 0: r += interval)
  --   FOLD1 2r + interval(0) - interval >= 0?   FOLD2 r -= interval if so; err := r
  --   ABSE   r := |err|     CMP_S/CMP_L/CMP_R  r - step/lock/reject threshold
  --   LCNT  run+1 against lock_count (8-bit compare, no adder)
  --   NEG   r := -err, the step        SGN  r := its sign (0 or all ones)
  --   LOADK the gain for the next multiply (ki, kp or kf)
  --   MULT  16 times r := 2r + mant bit * |err| (MSB first)
  --   SATP  r > 2^31 - 1: r := 2^31 - 1      ACC  r := integ -+ r
  --   SATA  r := r clamped to +-(2^31 - 1)
  --   LS1   r, us_since := us_since + pend     LS2  r - loss_us >= 0: PPS lost
  --   HLD   r := integ, for freq_adj in holdover
  -- Other states take one clock: IDLE, CNTW, M0 (r := 0 before MODS),
  -- DECIDE (the state machine), RSHF (r >>= 1, shift times), WAIT_ACK.
  -- The order is the binary code (GHDL numbers them, Yosys keeps the code):
  -- groups the logic tests together share code bits. 0..6: the states in
  -- which a mode other than servo forces FREERUN; 8..15: the one-clock
  -- states (is_op = 0); 16..21: the threshold compares, the fold test,
  -- LCNT and LOADK (r rotates back unchanged, as in G3 and LS2). IDLE
  -- stays 0, the flip-flops' power-up value. Session 11: 583 -> 562 LUTs
  -- against the order of the list above (make block-fit).
  type seq_t is (IDLE, LH, G1, G2, G3, LS1, LS2, SL1,
                 CNTW, M0, DECIDE, RSHF, WAIT_ACK, STPI, FRQ, HLD2,
                 CMP_S, CMP_L, CMP_R, FOLD1, LCNT, LOADK, SH1, INC,
                 MODS, MFIX, FOLD2, ABSE, NEG, SGN, MULT, SATP, ACC, SATA, HLD);
  type asel_t is (A_R, A_SH, A_ZERO, A_NR, A_PEND);
  type bsel_t is (B_ZERO, B_PAR, B_RAM);
  -- the datapath's digit width: r, the operands, the adder and the servo
  -- RAM's words are DW bits wide; an operation runs over ND digits of r
  -- (NP of a parameter word; digits NP and up of a mod-2^32 result are 0)
  constant DW : positive := 8;
  constant ND : positive := 48 / DW;
  constant NP : positive := 32 / DW;
  -- log2(DW) and the RAM words per slot (a power of two >= ND)
  function lg2 (n : positive) return natural is
    variable k : natural := 0;
  begin
    while 2 ** k < n loop
      k := k + 1;
    end loop;
    return k;
  end function;
  constant LDW : natural := lg2(DW);
  constant SS  : positive := 2 ** lg2(ND);
  constant NW  : positive := 4096 / DW;     -- words of the block RAM
  -- the servo's own RAM, one digit a word: 48-bit values, digits 0..ND-1
  -- at slot * SS
  constant S_AERR  : natural := 0;     -- |err|, the multiplicand
  constant S_INTEG : natural := 1;     -- the integrator (valid once integ_ok)
  constant S_US    : natural := 2;     -- us_since, 48 bits: never saturates
  -- 2^31 - 1, the saturation bound: a constant of the RAM's contents
  -- (bitstream), read as B_RAM, so the B operand has no constant source
  constant S_MAXP  : natural := 3;
  -- the stamp, ping-pong: pair p holds its low 32 bits in slot 4 + 2p and
  -- its high 32 bits in slot 5 + 2p (word 2 of each is 0). The stamp under
  -- work goes to pair sp; an accepted edge flips sp, so the pair not
  -- named by sp holds the last accepted stamp (the gap test's last_lo, the
  -- remainder's bits, the hand-over). The RAM is the only copy of the
  -- stamp: the register RAM's words are read once, by LH and G1.
  function st_lo (p : std_logic) return natural is
  begin
    if p = '1' then return 6; else return 4; end if;
  end function;
  function st_hi (p : std_logic) return natural is
  begin
    if p = '1' then return 7; else return 5; end if;
  end function;
  -- `downto`: GHDL writes a 255 - index subtractor for a `0 to` array.
  -- The name ends in _nrw (hdl/boards/ghdl_verilog.sh: Yosys' no_rw_check,
  -- no read-first bypass): no clock reads a word the same clock writes.
  -- A write (T_DIG, digit wd of c_ws) meets a read of digit wd + 1 of c_rs
  -- or of the next operation's digit 0 at T_ADDR/T_ACT (nothing written
  -- then); MODS, which reads the stamp digits, writes nothing.
  type wram_t is array (NW - 1 downto 0) of std_logic_vector(DW - 1 downto 0);
  -- the RAM's contents at configuration: 2^31 - 1 in slot S_MAXP
  function wram_init return wram_t is
    variable m : unsigned(47 downto 0) := to_unsigned(2 ** 30 - 1, 48) + to_unsigned(2 ** 30, 48);
    variable w : wram_t := (others => (others => '0'));
  begin
    for i in 0 to ND - 1 loop
      w(S_MAXP * SS + i) := std_logic_vector(m(i * DW + DW - 1 downto i * DW));
    end loop;
    return w;
  end function;
  type tk_t is (T_ADDR, T_DIG, T_ACT);
  -- which multiply: I (ki, then P follows), P (kp), F (kf after a step)
  type ph_t is (PH_I, PH_P, PH_F);

  signal seq : seq_t := IDLE;
  signal tk  : tk_t := T_ADDR;
  signal wd  : unsigned(lg2(ND) - 1 downto 0) := (others => '0');   -- digit 0..ND-1 of the operation
  signal ph  : ph_t := PH_I;
  signal st  : std_logic_vector(1 downto 0) := FREERUN;
  signal have_last, prev_step, pres : std_logic := '0';
  -- microsecond ticks not yet added to us_since (the RAM word); us_zero:
  -- us_since restarts at 0 (the RAM word is not read)
  signal pend : unsigned(7 downto 0) := (others => '0');
  signal us_zero : std_logic := '1';
  signal err_neg : std_logic := '0';   -- the sign of err (its value went out as P_OFFSET)
  signal integ_ok : std_logic := '0';   -- the integrator in the RAM was written
  signal sp : std_logic := '0';         -- stamp slot the next stamp goes to
  signal wram_nrw : wram_t := wram_init;
  signal ram_we : std_logic;
  signal ram_wa, ram_ra : natural range 0 to NW - 1;
  -- no initial value: a block RAM's read register has none (Yosys gated
  -- the output with a power-up flip-flop to emulate one: 16 LUTs)
  signal ram_q : std_logic_vector(DW - 1 downto 0);
  -- edges in a row within lock_thresh (LOCKING) or outside it (LOCKED):
  -- one counter, as each state uses one and the other restarts at 0 on entry
  signal run : unsigned(7 downto 0) := (others => '0');
  signal rej_run : unsigned(1 downto 0) := (others => '0');   -- 0..3 rejections in a row
  -- a write-back's word and where the sequencer goes on after it (INC,
  -- CNTW) come in fixed pairs: one register names the pair, and inc_sel and
  -- ret are decoded from it (two registers of 13 bits had an enable and a
  -- multiplexer each at a dozen sites)
  type call_t is (C_EDGES, C_EDGES_M0, C_GAPS, C_REJECTS, C_LOSSES, C_STEPS_K,
                  C_STEPS_W, C_STAMP_LO, C_STAMP_HI, C_OFFSET, C_STEP_LO,
                  C_STEP_HI, C_FREQ, C_FREQ_HLD);
  signal call : call_t := C_EDGES;
  signal ret : seq_t;
  signal inc_sel : par_t;
  signal creq : std_logic := '0';
  signal sreq, freq : std_logic := '0';
  -- after the step's counter: the frequency estimate (LOADK) or done
  signal k_after : std_logic := '0';
  -- the accepted stamp (in the servo's RAM) is handed over when the edge's work
  -- is done (SL1, SH1 from IDLE or WAIT_ACK): not in front of the
  -- frequency request, and while the register file serves it
  signal st_out : std_logic := '0';

  -- datapath registers (no reset: every operation writes them before it
  -- reads them, and the sequencer state that orders that is reset)
  signal r    : unsigned(47 downto 0) := (others => '0');  -- accumulator, digit 0 at DW-1..0
  signal l    : unsigned(15 downto 0) := (others => '0');  -- gain mantissa, MSB first
  signal cnt  : unsigned(5 downto 0) := (others => '0');
  signal shc  : unsigned(4 downto 0) := (others => '0');
  signal f_ge, f_step, f_lock, f_rej, f_rc : std_logic := '0';
  signal sv_pend : std_logic := '0';
  -- the digit's sum, carry out at DW; 0 for the digits of a mod-2^32
  -- result above bit 31
  signal sd   : unsigned(DW downto 0);
  signal cy   : std_logic := '0';                           -- carry between digits
  signal rhb  : std_logic := '0';                           -- top bit of the last digit, for 2r
  signal neg_f, z_f : std_logic := '0';                     -- sign, all digits zero

  -- operand selection: decoded from the state (d_*), registered at T_ADDR (c_*)
  signal d_asel, c_asel : asel_t := A_R;
  signal d_bsel, c_bsel : bsel_t := B_ZERO;
  signal d_bx, c_bx, d_cin, c_cin, d_wr, c_wr, d_m32, c_m32 : std_logic := '0';
  signal d_rs, c_rs, d_ws, c_ws : natural range 0 to 7 := 0;   -- RAM slots read / written
  signal d_we, c_we : std_logic := '0';
  signal r_sh : std_logic;              -- r's top digit takes its low digit, not the sum
  signal again, mbit : std_logic;
  signal is_op, act, sr_load, glitch : std_logic;
  signal st_addr : natural range 0 to NW - 1;   -- the RAM word of the next remainder bit
  -- the next remainder bit, registered: picked from the RAM word (read a
  -- clock ahead) in the clock before the round's first T_DIG, so the
  -- DW:1 selection is not in front of the adder's carry chain
  signal sbit : std_logic := '0';
  signal bit0, shin : std_logic;
  signal a, b : unsigned(DW - 1 downto 0);
  signal s18 : unsigned(DW + 1 downto 0);
  signal cin : std_logic;
  signal pend48 : unsigned(47 downto 0);
  signal pend_base : unsigned(7 downto 0);   -- pend, less a digit the adder takes now
begin
  pend48 <= resize(pend, 48);
  -- pend enters the adder at LS1's first T_DIG and restarts at 0 (that
  -- clock's tick counts in the new pend). With DW < 8 it takes two or more
  -- digits: each restarts as it goes in, and the ticks of the clocks in
  -- between stay in the low digit, which cannot carry meanwhile, so LS1
  -- still adds exactly the ticks up to its first digit.
  pbase : process (all)
    variable v : unsigned(47 downto 0);
  begin
    v := pend48;
    if seq = LS1 and tk = T_DIG then
      for i in 0 to (8 + DW - 1) / DW - 1 loop
        if wd = i then v(i * DW + DW - 1 downto i * DW) := (others => '0'); end if;
      end loop;
    end if;
    pend_base <= v(7 downto 0);
  end process;
  -- which operation each state runs, from the state and flags that are
  -- settled at T_ADDR
  ctl : process (all)
  begin
    d_asel <= A_R;
    d_bsel <= B_ZERO;
    d_bx   <= '0';
    d_cin  <= '0';
    d_wr   <= '1';
    d_m32  <= '0';
    d_rs   <= S_AERR;
    d_ws   <= S_AERR;
    d_we   <= '0';
    case seq is
      when LH =>
        -- r := stamp_hi (the register RAM's word), into pair sp
        d_asel <= A_ZERO; d_bsel <= B_PAR; d_we <= '1'; d_ws <= st_hi(sp);
      when G1 =>
        -- r := stamp_lo, into pair sp (the next edge's last_lo)
        d_asel <= A_ZERO; d_bsel <= B_PAR; d_we <= '1'; d_ws <= st_lo(sp);
      when SL1 =>
        -- r := the accepted stamp's low, then high word, for the result
        -- port (after the accept: its pair is the one sp does not name)
        d_asel <= A_ZERO; d_bsel <= B_RAM; d_rs <= st_lo(not sp);
      when SH1 =>
        d_asel <= A_ZERO; d_bsel <= B_RAM; d_rs <= st_hi(not sp);
      when G2 =>
        d_bsel <= B_RAM; d_bx <= '1'; d_cin <= '1'; d_m32 <= '1';
        d_rs <= st_lo(not sp);
      when G3 | CMP_S | CMP_L | CMP_R | LS2 =>
        d_bsel <= B_PAR; d_bx <= '1'; d_cin <= '1'; d_wr <= '0';
      when INC =>
        d_asel <= A_ZERO; d_bsel <= B_PAR; d_cin <= '1';
      when MODS =>
        -- non-restoring: r stays in [-interval, interval)
        d_asel <= A_SH; d_bsel <= B_PAR; d_bx <= not r(47); d_cin <= not r(47);
      when MFIX =>
        if r(47) = '1' then
          d_bsel <= B_PAR;
        end if;
      when FOLD1 =>
        -- r >= floor(interval/2)  <=>  2r + interval(0) >= interval
        d_asel <= A_SH; d_bsel <= B_PAR; d_bx <= '1'; d_cin <= '1'; d_wr <= '0';
      when FOLD2 =>
        d_bx <= '1'; d_cin <= '1';
        if f_ge = '1' then
          d_bsel <= B_PAR;
        end if;
      when ABSE =>
        -- r := |r| (r = err), kept in the RAM as the multiplicand
        d_we <= '1'; d_ws <= S_AERR;
        if r(47) = '1' then
          d_asel <= A_NR; d_cin <= '1';
        end if;
      when NEG =>
        -- r := -err = |err| or -|err|
        d_asel <= A_ZERO; d_bsel <= B_RAM; d_rs <= S_AERR;
        d_bx <= not err_neg; d_cin <= not err_neg;
      when SGN =>
        -- r := 0 + (0 xor sign): the step's high word, 0 or all ones
        -- (neg_f is still NEG's sign; CNTW leaves it); the register file
        -- needs no sign-extension source for it
        d_asel <= A_ZERO; d_bx <= neg_f;
      when MULT =>
        d_asel <= A_SH;
        if mbit = '1' then
          d_bsel <= B_RAM; d_rs <= S_AERR;
        end if;
      when SATP =>
        d_rs <= S_MAXP;
        if r(47 downto 31) /= 0 then
          d_asel <= A_ZERO; d_bsel <= B_RAM;
        end if;
      when ACC | HLD =>
        -- ACC: integ + (-y), y = sign(err) * product: integ - r when err >= 0
        -- HLD: r := integ
        d_rs <= S_INTEG;
        if integ_ok = '1' then
          d_bsel <= B_RAM;
        end if;
        if seq = HLD then
          d_asel <= A_ZERO;
        elsif err_neg = '0' then
          d_asel <= A_NR; d_cin <= '1';
        end if;
      when SATA =>
        -- |integ -+ r| < 2^32: bits 47..32 are all sign, overflow is bit
        -- 31 differing from it; the negative bound is -(2^31 - 1)
        d_rs <= S_MAXP;
        if r(47) = '0' and r(31) = '1' then
          d_asel <= A_ZERO; d_bsel <= B_RAM;
        elsif r(47) = '1' and r(31) = '0' then
          d_asel <= A_ZERO; d_bsel <= B_RAM; d_bx <= '1'; d_cin <= '1';
        end if;
        d_ws <= S_INTEG;
        if ph /= PH_P then
          d_we <= '1';
        end if;
      when LS1 =>
        -- us_since += pend
        d_asel <= A_PEND; d_rs <= S_US; d_ws <= S_US; d_we <= '1';
        if us_zero = '0' then
          d_bsel <= B_RAM;
        end if;
      when others =>
        d_wr <= '0';           -- LCNT, LOADK: r rotates back to itself
    end case;
  end process;

  with seq select is_op <=
    '0' when IDLE | CNTW | M0 | DECIDE | RSHF | WAIT_ACK | STPI | FRQ | HLD2,
    '1' when others;

  with call select inc_sel <=
    P_EDGES when C_EDGES | C_EDGES_M0,
    P_GAPS when C_GAPS,
    P_REJECTS when C_REJECTS,
    P_LOSSES when C_LOSSES,
    P_STEPS when C_STEPS_K | C_STEPS_W,
    P_STAMP_LO when C_STAMP_LO,
    P_STAMP_HI when C_STAMP_HI,
    P_OFFSET when C_OFFSET,
    P_STEP_LO when C_STEP_LO,
    P_STEP_HI when C_STEP_HI,
    P_FREQ when C_FREQ | C_FREQ_HLD;
  with call select ret <=
    M0 when C_EDGES_M0,
    LOADK when C_STEPS_K,
    WAIT_ACK when C_STEPS_W | C_STAMP_HI,
    SH1 when C_STAMP_LO,
    ABSE when C_OFFSET,
    SGN when C_STEP_LO,
    STPI when C_STEP_HI,
    FRQ when C_FREQ,
    HLD2 when C_FREQ_HLD,
    IDLE when others;

  -- the parameter each step reads
  parsel : process (all)
  begin
    case seq is
      when LH => par <= P_PPS_HI;
      when G1 => par <= P_PPS_LO;
      when G2 | G3 => par <= P_GAP;
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
      when IDLE | LS1 | LS2 | HLD => par <= P_LOSS;
      when INC | CNTW => par <= inc_sel;
      when others => par <= P_INTERVAL;
    end case;
  end process;

  -- MODS and MULT repeat without T_ADDR: their next round is decoded at
  -- T_ACT, where the mantissa bit it uses is still one place down in l.
  -- cnt counts the rounds down at each round's first T_DIG, so it names
  -- the next round's bit from then on (the stamp word is read ahead) and
  -- wraps to all ones after the last round.
  again <= '1' when tk = T_ACT and (seq = MODS or seq = MULT) and cnt /= 63 else '0';
  mbit <= l(14) when tk = T_ACT else l(15);

  -- the bit shifted into 2r: the stamp's next bit (remainder), the
  -- interval's lowest bit (fold), 0 (multiply); then the digit below's top bit
  st_addr <= st_lo(not sp) * SS + to_integer(cnt(5 downto 5)) * SS + to_integer(cnt(4 downto LDW));
  bit0 <= sbit when seq = MODS else
          par_q(0) when seq = FOLD1 else
          '0';
  shin <= bit0 when wd = 0 else rhb;

  amux : process (all)
  begin
    case c_asel is
      when A_R => a <= r(DW - 1 downto 0);
      when A_SH => a <= r(DW - 2 downto 0) & shin;
      when A_NR => a <= not r(DW - 1 downto 0);
      when A_PEND =>
        a <= (others => '0');
        for i in 0 to (8 + DW - 1) / DW - 1 loop
          if wd = i then a <= pend48(i * DW + DW - 1 downto i * DW); end if;
        end loop;
      when others => a <= (others => '0');
    end case;
  end process;

  -- digit wd of the B operand: the RAM word (read a clock ahead; 2^31 - 1
  -- is one) or the parameter (zero-extended)
  bmux : process (all)
    variable v : unsigned(DW - 1 downto 0);
  begin
    v := (others => '0');
    case c_bsel is
      when B_RAM =>
        v := unsigned(ram_q);
      when B_PAR =>
        for i in 0 to NP - 1 loop
          if wd = i then v := unsigned(par_q(i * DW + DW - 1 downto i * DW)); end if;
        end loop;
      when others =>
        null;
    end case;
    b <= v xor (DW - 1 downto 0 => c_bx);
  end process;

  -- the servo's RAM: written with the digit's sum at its T_DIG, read a
  -- clock before (at T_ADDR or a loop's T_ACT for digit 0, at the digit
  -- before's T_DIG for the next)
  ram_we <= '1' when is_op = '1' and tk = T_DIG and c_we = '1' else '0';
  ram_wa <= c_ws * SS + to_integer(wd);
  -- (MODS reads the stamp word that holds the next remainder bit)
  ram_ra <= st_addr when seq = MODS or seq = M0 else
            d_rs * SS when tk = T_ADDR or again = '1' else c_rs * SS + to_integer(wd + 1);
  wram_p : process (clk)
  begin
    if rising_edge(clk) then
      if ram_we = '1' then
        wram_nrw(ram_wa) <= std_logic_vector(sd(DW - 1 downto 0));
      end if;
      ram_q <= wram_nrw(ram_ra);
    end if;
  end process;

  -- a + b + cin in DW bits as one DW + 2-bit add whose extra low bit only
  -- generates the carry in (one carry chain)
  cin <= c_cin when wd = 0 else cy;
  s18 <= ('0' & a & '1') + ('0' & b & cin);
  sd <= (others => '0') when wd >= NP and c_m32 = '1' else s18(DW + 1 downto 1);

  process (clk)
  begin
    if rising_edge(clk) then
      accepted <= '0';

      -- loss of PPS, counted in microseconds of the card's own clock; the
      -- test against loss_us is LS1/LS2
      if seq = LS1 and tk = T_DIG and wd = 0 then
        us_zero <= '0';
      end if;
      if us_tick = '1' and pend_base /= x"FF" then
        pend <= pend_base + 1;
      else
        pend <= pend_base;
      end if;
      -- a stamp is taken whenever no edge is being worked on
      if sr_load = '1' then
        sv_pend <= '1';
      end if;

      -- an operation's selection is decoded at its T_ADDR, or at the T_ACT
      -- of the loop round before (again): one load for both
      if is_op = '1' and (tk = T_ADDR or again = '1') then
        c_asel <= d_asel; c_bsel <= d_bsel; c_bx <= d_bx; c_cin <= d_cin;
        c_wr <= d_wr; c_m32 <= d_m32;
        c_rs <= d_rs; c_ws <= d_ws; c_we <= d_we;
        wd <= (others => '0');
        z_f <= '1';
      end if;
      if is_op = '1' then
        case tk is
          when T_ADDR =>
            tk <= T_DIG;
          when T_DIG =>
            rhb <= r(DW - 1);
            if wd = 0 and (seq = MODS or seq = MULT) then
              cnt <= cnt - 1;
            end if;
            cy <= sd(DW);
            neg_f <= sd(DW - 1);
            if sd(DW - 1 downto 0) /= 0 then
              z_f <= '0';
            end if;
            wd <= wd + 1;
            if wd = ND - 1 then
              tk <= T_ACT;
            else
              tk <= T_DIG;
            end if;
          when T_ACT =>
            -- the next round of a loop reads the same parameter: no T_ADDR
            if again = '1' then
              tk <= T_DIG;
            else
              tk <= T_ADDR;
            end if;
        end case;
      end if;

      -- the steps' decisions: one clock states, and operations at T_ACT
      if seq = IDLE then
        if st_out = '1' then
          st_out <= '0';
          seq <= SL1;
        elsif sv_pend = '1' then
          sv_pend <= '0';
          seq <= LH;
        elsif pend /= 0 and pres = '1' then
          seq <= LS1;
        end if;

      elsif seq = WAIT_ACK then
        -- the stamp goes out while the register file serves the request
        if st_out = '1' then
          st_out <= '0';
          seq <= SL1;
        elsif sreq = '0' and freq = '0' then
          seq <= IDLE;
        end if;

      elsif seq = CNTW then
        if cnt_ack = '1' then
          creq <= '0';
          seq <= ret;
        end if;

      elsif seq = STPI then
        -- the step's low word is in the register RAM: request it, count it
        sreq <= '1';
        seq <= INC;
        if k_after = '1' then call <= C_STEPS_K; else call <= C_STEPS_W; end if;

      elsif seq = FRQ then
        freq <= '1';
        seq <= WAIT_ACK;

      elsif seq = HLD2 then
        freq <= '1';
        call <= C_LOSSES; seq <= INC;

      elsif seq = M0 then
        cnt <= (others => '1');              -- 64 steps
        seq <= MODS;

      elsif seq = RSHF then
        shc <= shc - 1;
        if shc = 1 then
          seq <= SATP;
        end if;

      elsif seq = DECIDE then
        seq <= LOADK;
        if st = FREERUN or st = LOCKING then
          -- One interval after a step the error is pure frequency error,
          -- however small: it is removed as a step plus a frequency
          -- estimate. A small one ends the acquisition (the linear
          -- estimate leaves a residual of (y * interval)^2, 1 us after a
          -- 1 % offset, that PI alone would take ~6 intervals to remove);
          -- a large one (still > step_thresh) repeats it.
          if f_step = '1' or prev_step = '1' then
            run    <= (others => '0');
            st     <= LOCKING;
            prev_step <= f_step;
            seq    <= NEG;
            k_after <= prev_step;
            if prev_step = '1' then
              ph  <= PH_F;
            end if;
          else
            prev_step <= '0';
            st <= LOCKING;
            if f_lock = '1' then
              run <= run + 1;
              if f_rc = '1' then
                st <= LOCKED;
                run <= (others => '0');
                rej_run <= (others => '0');
              end if;
            else
              run <= (others => '0');
            end if;
            ph <= PH_I;
          end if;
        else
          -- LOCKED or HOLDOVER: a far-off edge must not yank the clock
          if f_rej = '1' then
            call <= C_REJECTS;
            seq <= INC;
            if rej_run = 3 then
              st <= LOCKING;     -- the reference really moved: re-acquire
              run <= (others => '0');
              rej_run <= (others => '0');
            else
              rej_run <= rej_run + 1;
            end if;
          else
            rej_run <= (others => '0');
            if st = HOLDOVER then
              st <= LOCKING;
              run <= (others => '0');
            elsif f_lock = '0' then
              run <= run + 1;
              if f_rc = '1' then
                st <= LOCKING;
                run <= (others => '0');
              end if;
            else
              run <= (others => '0');
            end if;
            ph <= PH_I;
          end if;
        end if;

      elsif is_op = '1' and tk = T_ACT then
      case seq is
        when LH => seq <= G1;
        when G1 => seq <= G2;
        when G2 => seq <= G3;
        when G3 =>
          if glitch = '0' then
            accepted  <= '1';
            st_out    <= '1';               -- handed over when back in IDLE
            call      <= C_EDGES;
            seq       <= INC;
            have_last <= '1';
            sp        <= not sp;            -- this stamp's slot holds last_lo now
            pres      <= '1';
            us_zero   <= '1';
            pend      <= (others => '0');
            if mode = "10" then
              call <= C_EDGES_M0;
              -- the remainder's first bit (63): its word is read from M0 on
              cnt <= (others => '1');
            end if;
          else
            call <= C_GAPS; seq <= INC;
          end if;
        when SL1 =>
          call <= C_STAMP_LO; creq <= '1'; seq <= CNTW;
        when SH1 =>
          call <= C_STAMP_HI; creq <= '1'; seq <= CNTW;

        when INC =>
          creq <= '1';
          seq  <= CNTW;

        when MODS =>
          if cnt = 63 then
            seq <= MFIX;
          end if;
        when MFIX =>
          seq <= FOLD1;
        when FOLD1 =>
          f_ge <= not neg_f;
          seq  <= FOLD2;
        when FOLD2 =>
          -- r = err: out as pps.offset_ns
          call <= C_OFFSET; creq <= '1'; seq <= CNTW;
        when ABSE =>
          seq <= CMP_S;
        -- r = |err| against the thresholds
        when CMP_S =>
          f_step <= not neg_f and not z_f;  -- |err| > step_thresh
          seq <= CMP_L;
        when CMP_L =>
          f_lock <= neg_f;                  -- |err| < lock_thresh
          seq <= CMP_R;
        when CMP_R =>
          f_rej <= not neg_f and not z_f;   -- |err| > reject_thresh
          seq <= LCNT;
        when LCNT =>
          if run + 1 >= unsigned(par_q(7 downto 0)) then
            f_rc <= '1';
          else
            f_rc <= '0';
          end if;
          seq <= DECIDE;

        when NEG =>
          -- r = the step, to the register RAM first; STPI requests it
          call <= C_STEP_LO; creq <= '1'; seq <= CNTW;
        when SGN =>
          call <= C_STEP_HI; creq <= '1'; seq <= CNTW;

        when LOADK =>
          shc <= unsigned(par_q(4 downto 0));
          cnt <= to_unsigned(15, 6);
          seq <= MULT;
        -- r = |err| * mant, one mantissa bit (MSB first) per operation
        when MULT =>
          if cnt = 63 then
            if shc = 0 then
              seq <= SATP;
            else
              seq <= RSHF;
            end if;
          end if;
        when SATP =>
          seq <= ACC;
        when ACC =>
          seq <= SATA;
        when SATA =>
          case ph is
            when PH_I =>
              integ_ok <= '1';
              ph  <= PH_P;
              seq <= LOADK;
            when PH_F =>
              -- after a step: the learned frequency only, no P term
              integ_ok <= '1';
              call <= C_FREQ; creq <= '1'; seq <= CNTW;
            when others =>
              call <= C_FREQ; creq <= '1'; seq <= CNTW;
          end case;

        when LS1 =>
          seq <= LS2;
        when LS2 =>
          seq <= IDLE;
          if neg_f = '0' then               -- us_since >= loss_us
            pres <= '0';
            have_last <= '0';       -- the gap test is meaningless across a loss
            if st = LOCKING or st = LOCKED then
              st <= HOLDOVER;
              seq <= HLD;
            end if;
          end if;
        when HLD =>
          -- freq_adj := integ: hold the learned frequency, drop the P term
          call <= C_FREQ_HLD; creq <= '1'; seq <= CNTW;

        when others =>
          null;
      end case;
      end if;

      if mode /= "10" and (seq = IDLE or seq = LH or seq = G1 or seq = G2 or seq = G3 or
                           seq = LS1 or seq = LS2) then
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
        seq <= IDLE; tk <= T_ADDR; st <= FREERUN; pres <= '0'; have_last <= '0';
        prev_step <= '0'; integ_ok <= '0';
        sreq <= '0'; freq <= '0';
        run <= (others => '0'); rej_run <= (others => '0');
        creq <= '0'; st_out <= '0';
        sv_pend <= '0'; pend <= (others => '0'); us_zero <= '1';
      end if;
    end if;
  end process;

  -- the accumulator: digits enter at the top (the sum, or r's own low digit
  -- when a compare leaves r as it was), r >>= 1 for the multiply's shift,
  -- cleared before a remainder or a multiply
  r_sh <= '1' when c_wr = '0' else '0';
  rreg : process (clk)
  begin
    if rising_edge(clk) then
      if seq = M0 or (seq = LOADK and tk = T_ACT) then
        r <= (others => '0');
      elsif seq = RSHF then
        r <= '0' & r(47 downto 1);
      elsif is_op = '1' and tk = T_DIG then
        if r_sh = '1' then
          r(47 downto 48 - DW) <= r(DW - 1 downto 0);
        else
          r(47 downto 48 - DW) <= sd(DW - 1 downto 0);
        end if;
        r(47 - DW downto 0) <= r(47 downto DW);
      end if;
    end if;
  end process;

  -- registers loaded from the datapath, each in its own process with one
  -- strobe: no per-state multiplexer in front of them
  act <= '1' when is_op = '1' and tk = T_ACT else '0';
  sr_load <= '1' when stamp_valid = '1' and mode /= "00" and
                      (seq = IDLE or seq = LS1 or seq = LS2) else '0';
  glitch <= have_last and neg_f;
  loads : process (clk)
  begin
    if rising_edge(clk) then
      if seq = FOLD2 and act = '1' then
        err_neg <= r(31);
      end if;
      sbit <= ram_q(to_integer(cnt(LDW - 1 downto 0)));
      if seq = LOADK and act = '1' then
        l <= unsigned(par_q(23 downto 8));
      elsif seq = MULT and act = '1' then
        l <= l(14 downto 0) & '0';
      end if;
    end if;
  end process;

  stamp_busy <= '1' when sv_pend = '1' or seq = LH or seq = G1 else '0';
  step_req <= sreq;
  freq_req <= freq and not sreq;
  state    <= st;
  present  <= pres;
  cnt_req <= creq;
  cnt_sel <= inc_sel;
  cnt_val <= std_logic_vector(r(31 downto 0));
end architecture;
