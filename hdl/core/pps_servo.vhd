-- SPDX-License-Identifier: GPL-2.0-or-later
-- Hardware PPS servo (bus clock domain): filters PPS stamps, measures the
-- phase error of each edge against the nearest whole interval, and steers
-- the timebase with phase steps (adjust) and a PI frequency correction.
-- Loop design, constants and their reasons: docs/servo.md.
--
-- Sign convention: err = stamp - nearest whole interval. err > 0 means the
-- card's clock read late at the true second, i.e. it is ahead, so the
-- correction to the period is negative.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity pps_servo is
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    mode          : in  std_logic_vector(1 downto 0);   -- 0 off, 1 report, 2 servo
    interval      : in  unsigned(30 downto 0);
    kp, ki, kf    : in  std_logic_vector(20 downto 0);
    lock_thresh   : in  unsigned(31 downto 0);
    reject_thresh : in  unsigned(31 downto 0);
    step_thresh   : in  unsigned(31 downto 0);
    loss_us       : in  unsigned(31 downto 0);
    min_gap       : in  unsigned(31 downto 0);
    lock_count    : in  unsigned(7 downto 0);
    stamp_valid   : in  std_logic;
    stamp         : in  unsigned(63 downto 0);
    us_tick       : in  std_logic;
    accepted      : out std_logic;                      -- strobe: stamp kept
    -- requests to the timebase; held until ack
    step_req      : out std_logic;
    step_ns       : out signed(63 downto 0);
    freq_req      : out std_logic;
    freq_adj      : out signed(31 downto 0);
    req_ack       : in  std_logic;
    state         : out std_logic_vector(1 downto 0);
    present       : out std_logic;
    offset_ns     : out signed(31 downto 0);
    gap_glitches, rejects, losses, steps, edges : out unsigned(31 downto 0));
end entity;

architecture rtl of pps_servo is
  constant FREERUN  : std_logic_vector(1 downto 0) := "00";
  constant LOCKING  : std_logic_vector(1 downto 0) := "01";
  constant LOCKED   : std_logic_vector(1 downto 0) := "10";
  constant HOLDOVER : std_logic_vector(1 downto 0) := "11";

  type seq_t is (IDLE, MODW, DECIDE, MUL_F, MUL_P, MUL_I, APPLY, WAIT_ACK);
  signal seq : seq_t := IDLE;
  signal st  : std_logic_vector(1 downto 0) := FREERUN;
  signal last_lo : unsigned(31 downto 0) := (others => '0');
  signal have_last, prev_step, pres : std_logic := '0';
  signal us_since : unsigned(31 downto 0) := (others => '0');
  signal err  : signed(31 downto 0) := (others => '0');
  signal abs_e : unsigned(31 downto 0) := (others => '0');
  signal integ, pterm : signed(31 downto 0) := (others => '0');
  signal good, bad, rej_run : unsigned(7 downto 0) := (others => '0');
  signal c_gap, c_rej, c_loss, c_step, c_edge : unsigned(31 downto 0) := (others => '0');
  signal m_start, m_done, g_start, g_done : std_logic := '0';
  signal m_rem : unsigned(30 downto 0);
  signal g_gain : std_logic_vector(20 downto 0) := (others => '0');
  signal g_y : signed(31 downto 0);
  signal sreq, freq : std_logic := '0';
  signal step_r : signed(63 downto 0) := (others => '0');
  signal fadj : signed(31 downto 0) := (others => '0');
  signal stamp_r : unsigned(63 downto 0) := (others => '0');

  -- 32-bit signed add, saturating at +-(2^31 - 1). Overflow is read off the
  -- sign bits rather than by comparing with integer bounds: GHDL 2.0
  -- synthesised the comparison form wrongly (tests/hdl/netlist.sh found it).
  function sat_add (a, b : signed(31 downto 0)) return signed is
    variable s : signed(32 downto 0);
  begin
    s := resize(a, 33) + resize(b, 33);
    if s(32) = '0' and s(31) = '1' then
      return to_signed(16#7FFFFFFF#, 32);
    elsif s(32) = '1' and s(31) = '0' then
      return to_signed(-16#7FFFFFFF#, 32);
    end if;
    return s(31 downto 0);
  end function;
begin
  rem_unit : entity work.ns_modulo
    port map (clk => clk, start => m_start, dividend => stamp_r, divisor => interval,
              done => m_done, rem_out => m_rem);
  mul : entity work.gain_mul
    port map (clk => clk, start => g_start, x => err, gain => g_gain, done => g_done, y => g_y);

  process (clk)
    variable e : signed(31 downto 0);
  begin
    if rising_edge(clk) then
      m_start  <= '0';
      g_start  <= '0';
      accepted <= '0';

      -- loss of PPS, counted in microseconds of the card's own clock
      if us_tick = '1' and us_since /= x"FFFFFFFF" then
        us_since <= us_since + 1;
      end if;
      if us_since >= loss_us and pres = '1' then
        pres <= '0';
        have_last <= '0';       -- the gap test is meaningless across a loss
        if st = LOCKING or st = LOCKED then
          st <= HOLDOVER;
          c_loss <= c_loss + 1;
          fadj <= integ;          -- hold the learned frequency, drop the P term
          freq <= '1';
        end if;
      end if;

      case seq is
        when IDLE =>
          if stamp_valid = '1' and mode /= "00" then
            if have_last = '1' and stamp(31 downto 0) - last_lo < min_gap then
              c_gap <= c_gap + 1;
            else
              accepted  <= '1';
              c_edge    <= c_edge + 1;
              last_lo   <= stamp(31 downto 0);
              have_last <= '1';
              pres      <= '1';
              us_since  <= (others => '0');
              if mode = "10" then
                stamp_r <= stamp;
                m_start <= '1';
                seq <= MODW;
              end if;
            end if;
          end if;
          if mode /= "10" and seq = IDLE then
            st <= FREERUN;
            prev_step <= '0';
          end if;

        when MODW =>
          if m_done = '1' then
            if m_rem >= ('0' & interval(30 downto 1)) then
              e := signed(resize(m_rem, 32)) - signed(resize(interval, 32));
            else
              e := signed(resize(m_rem, 32));
            end if;
            err <= e;
            if e(31) = '1' then       -- no abs(): see gain_mul
              abs_e <= unsigned(-e);
            else
              abs_e <= unsigned(e);
            end if;
            seq <= DECIDE;
          end if;

        when DECIDE =>
          seq <= IDLE;
          if st = FREERUN or st = LOCKING then
            if abs_e > step_thresh then
              step_r <= -resize(err, 64);
              sreq   <= '1';
              c_step <= c_step + 1;
              good   <= (others => '0');
              st     <= LOCKING;
              prev_step <= '1';
              if prev_step = '1' then
                -- one interval after a step the error is pure frequency
                g_gain <= kf; g_start <= '1'; seq <= MUL_F;
              else
                seq <= WAIT_ACK;
              end if;
            else
              prev_step <= '0';
              st <= LOCKING;
              if abs_e < lock_thresh then
                if good + 1 >= lock_count then
                  st <= LOCKED;
                  bad <= (others => '0');
                  rej_run <= (others => '0');
                end if;
                good <= good + 1;
              else
                good <= (others => '0');
              end if;
              g_gain <= kp; g_start <= '1'; seq <= MUL_P;
            end if;
          else
            -- LOCKED or HOLDOVER: a far-off edge must not yank the clock
            if abs_e > reject_thresh then
              c_rej <= c_rej + 1;
              if rej_run + 1 >= 4 then
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
              elsif abs_e >= lock_thresh then
                if bad + 1 >= lock_count then
                  st <= LOCKING;
                  good <= (others => '0');
                end if;
                bad <= bad + 1;
              else
                bad <= (others => '0');
              end if;
              g_gain <= kp; g_start <= '1'; seq <= MUL_P;
            end if;
          end if;

        when MUL_F =>
          if g_done = '1' then
            integ <= sat_add(integ, -g_y);
            seq <= APPLY;
          end if;
        when MUL_P =>
          if g_done = '1' then
            pterm <= -g_y;
            g_gain <= ki; g_start <= '1'; seq <= MUL_I;
          end if;
        when MUL_I =>
          if g_done = '1' then
            integ <= sat_add(integ, -g_y);
            seq <= APPLY;
          end if;
        when APPLY =>
          if sreq = '1' then
            fadj <= integ;            -- after a step: learned frequency only
          else
            fadj <= sat_add(integ, pterm);
          end if;
          freq <= '1';
          seq <= WAIT_ACK;
        when WAIT_ACK =>
          if sreq = '0' and freq = '0' then
            seq <= IDLE;
          end if;
      end case;

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
        prev_step <= '0'; integ <= (others => '0'); pterm <= (others => '0');
        fadj <= (others => '0'); sreq <= '0'; freq <= '0';
        good <= (others => '0'); bad <= (others => '0'); rej_run <= (others => '0');
        c_gap <= (others => '0'); c_rej <= (others => '0'); c_loss <= (others => '0');
        c_step <= (others => '0'); c_edge <= (others => '0');
      end if;
    end if;
  end process;

  step_req <= sreq;
  step_ns  <= step_r;
  freq_req <= freq and not sreq;
  freq_adj <= fadj;
  state    <= st;
  present  <= pres;
  offset_ns <= err;
  gap_glitches <= c_gap;
  rejects <= c_rej;
  losses  <= c_loss;
  steps   <= c_step;
  edges   <= c_edge;
end architecture;
