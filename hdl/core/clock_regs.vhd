-- SPDX-License-Identifier: GPL-2.0-or-later
-- Register file of the clock core (bus clock domain). Decodes the register
-- port against the generated map, keeps the software-visible registers,
-- runs the PPS servo, and talks to the timebase domain through messages
-- (clock_msg_pkg): a write that must reach the timebase, or a read that
-- needs a value from it, completes only when the messages have been taken
-- and any answer has come back, so software sees every access in order.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.synpcix_regs_pkg.all;
use work.clock_msg_pkg.all;

entity clock_regs is
  generic (
    N_EVENTS  : positive := 2;
    FIFO_LOG2 : positive := 8;
    CLK_HZ    : natural  := 125_000_000;
    BUILD_ID  : std_logic_vector(31 downto 0) := x"00000000";
    CAPTURE_DELAY : natural := 3;
    PEROUT_DELAY  : natural := 2);
  port (
    clk, rst   : in  std_logic;
    reg_valid  : in  std_logic;
    reg_write  : in  std_logic;
    reg_addr   : in  std_logic_vector(11 downto 2);
    reg_wdata  : in  std_logic_vector(31 downto 0);
    reg_ready  : out std_logic;
    reg_rdata  : out std_logic_vector(31 downto 0);
    msg_valid  : out std_logic;
    msg        : out std_logic_vector(MSG_W - 1 downto 0);
    msg_ready  : in  std_logic;
    resp_valid : in  std_logic;
    resp       : in  std_logic_vector(RESP_W - 1 downto 0);
    us_tick    : in  std_logic;
    pps_locked : out std_logic);
end entity;

architecture rtl of clock_regs is
  subtype word is std_logic_vector(31 downto 0);
  function u32 (v : std_logic_vector) return word is
  begin
    return std_logic_vector(resize(unsigned(v), 32));
  end function;
  -- a message command word with one bit set (whole-word, see REG_PPS_STATUS)
  function cmd_word (bit_no : natural) return word is
  begin
    return std_logic_vector(shift_left(to_unsigned(1, 32), bit_no));
  end function;

  -- software registers
  signal bad_cnt, per_frac : word := (others => '0');
  signal per_ns : word := CLOCK_PERIOD_NS_RESET;
  signal pps_ctrl : word := (others => '0');
  signal interval : word := PPS_INTERVAL_NS_RESET;
  signal kp : word := PPS_KP_RESET;
  signal ki : word := PPS_KI_RESET;
  signal kf : word := PPS_KF_RESET;
  signal lock_th : word := PPS_LOCK_THRESH_NS_RESET;
  signal rej_th  : word := PPS_REJECT_THRESH_NS_RESET;
  signal step_th : word := PPS_STEP_THRESH_NS_RESET;
  signal pps_minw : word := PPS_MIN_WIDTH_RESET;
  signal loss_us : word := PPS_LOSS_US_RESET;
  signal min_gap : word := PPS_MIN_GAP_NS_RESET;
  signal lock_cnt : word := PPS_LOCK_COUNT_RESET;
  signal ev_ctrl : word := (others => '0');
  signal ev_minw : word := EVENT_MIN_WIDTH_RESET;
  signal po_ctrl : word := (others => '0');

  -- Registers only software reads and only the message sender uses live in
  -- a small block RAM instead of flip-flops (the HX8K is short of logic
  -- cells, not of RAM). A "written" flag per word supplies the reset value
  -- until software writes one, since block RAM has no reset.
  constant SLOT_SCRATCH : natural := 0;
  constant SLOT_SET_LO  : natural := 1;
  constant SLOT_SET_HI  : natural := 2;
  constant SLOT_SET_FRAC : natural := 3;
  constant SLOT_ADJ_LO  : natural := 4;
  constant SLOT_ADJ_HI  : natural := 5;
  constant SLOT_PO_LO   : natural := 6;
  constant SLOT_PO_HI   : natural := 7;
  constant SLOT_PO_PERIOD : natural := 8;
  constant SLOT_PO_WIDTH  : natural := 9;
  constant NO_SLOT      : natural := 15;
  type ram_t is array (0 to 15) of word;
  signal ram : ram_t;
  signal ram_we : std_logic := '0';
  signal ram_wslot, ram_rslot, q_slot : natural range 0 to 15 := 0;
  signal ram_wdata, ram_q : word := (others => '0');
  signal written : std_logic_vector(15 downto 0) := (others => '0');
  signal ram_rd : std_logic := '0';       -- DONE returns the RAM word
  signal fetched : std_logic := '0';       -- sender: RAM word for k_r arrives
  signal k_r : natural range 0 to 15 := 0;
  signal send_k : natural range 0 to 15;

  -- which RAM slot a register offset lives in
  function slot_of (a : natural) return natural is
  begin
    case a is
      when REG_ID_SCRATCH => return SLOT_SCRATCH;
      when REG_CLOCK_SET_NS_LO => return SLOT_SET_LO;
      when REG_CLOCK_SET_NS_HI => return SLOT_SET_HI;
      when REG_CLOCK_SET_FRAC => return SLOT_SET_FRAC;
      when REG_CLOCK_ADJ_NS_LO => return SLOT_ADJ_LO;
      when REG_CLOCK_ADJ_NS_HI => return SLOT_ADJ_HI;
      when REG_PEROUT_START_NS_LO => return SLOT_PO_LO;
      when REG_PEROUT_START_NS_HI => return SLOT_PO_HI;
      when REG_PEROUT_PERIOD_NS => return SLOT_PO_PERIOD;
      when REG_PEROUT_WIDTH_NS => return SLOT_PO_WIDTH;
      when others => return NO_SLOT;
    end case;
  end function;

  -- the RAM slot a message's data comes from
  function slot_of_msg (k : natural) return natural is
  begin
    case k is
      when M_SET_LO => return SLOT_SET_LO;
      when M_SET_HI => return SLOT_SET_HI;
      when M_SET_FRAC => return SLOT_SET_FRAC;
      when M_ADJ_LO => return SLOT_ADJ_LO;
      when M_ADJ_HI => return SLOT_ADJ_HI;
      when M_PO_LO => return SLOT_PO_LO;
      when M_PO_HI => return SLOT_PO_HI;
      when M_PO_PERIOD => return SLOT_PO_PERIOD;
      when M_PO_WIDTH => return SLOT_PO_WIDTH;
      when others => return NO_SLOT;
    end case;
  end function;

  function slot_reset (n : natural) return word is
  begin
    case n is
      when SLOT_PO_PERIOD => return PEROUT_PERIOD_NS_RESET;
      when SLOT_PO_WIDTH => return PEROUT_WIDTH_NS_RESET;
      when others => return x"00000000";
    end case;
  end function;

  -- values latched from the timebase domain
  signal snap_hi, snap_frac : word := (others => '0');
  signal pps_lo, pps_hi, pps_hi_l : word := (others => '0');
  signal stamp_new : std_logic := '0';
  signal ev_hi, ev_info : word := (others => '0');
  signal acc_addr : natural range 0 to 4095 := 0;
  signal filt_glitches : unsigned(31 downto 0) := (others => '0');
  signal last_filt : unsigned(15 downto 0) := (others => '0');
  signal got : std_logic_vector(3 downto 0) := (others => '0');  -- by response kind

  -- message sender: one bit per message address, sent lowest first
  signal pend : std_logic_vector(15 downto 0) := (others => '0');
  signal cmd_bits : word := (others => '0');
  signal servo_step : std_logic := '0';
  signal mv : std_logic := '0';
  signal mr : std_logic_vector(MSG_W - 1 downto 0) := (others => '0');

  type acc_t is (IDLE, SENDING, WAITING, DONE);
  signal acc : acc_t := IDLE;
  signal want : natural range 0 to 3 := 0;
  signal rdata : word := (others => '0');
  signal ready : std_logic := '0';
  signal servo_busy : std_logic := '0';

  -- servo
  signal s_state : std_logic_vector(1 downto 0);
  signal s_present, s_accepted, s_step_req, s_freq_req, s_ack : std_logic;
  signal s_step : signed(63 downto 0);
  signal s_freq, s_offset : signed(31 downto 0);
  signal c_gap, c_rej, c_loss, c_step, c_edge : unsigned(31 downto 0);
  signal stamp_valid : std_logic := '0';
  signal stamp : unsigned(63 downto 0) := (others => '0');
  signal eff : unsigned(39 downto 0);

  constant FEATURES : word :=
    u32(std_logic_vector(to_unsigned(PEROUT_DELAY, 4)) &
        std_logic_vector(to_unsigned(CAPTURE_DELAY, 4)) &
        std_logic_vector(to_unsigned(FIFO_LOG2, 4)) & "0000" &
        std_logic_vector(to_unsigned(N_EVENTS, 4)));
begin
  -- pps.status is built by concatenation in this order
  assert PPS_STATUS_STATE_LSB = 0 and PPS_STATUS_STATE_WIDTH = 2 and
         PPS_STATUS_PRESENT_LSB = 2 and PPS_STATUS_STAMP_NEW_LSB = 3
    report "clock_regs: pps.status layout changed in the register map" severity failure;

  eff <= (unsigned(per_ns(7 downto 0)) & unsigned(per_frac)) + unsigned(resize(s_freq, 40));

  servo : entity work.pps_servo
    port map (
      clk => clk, rst => rst, mode => pps_ctrl(1 downto 0),
      interval => unsigned(interval(30 downto 0)),
      -- gain registers are mant(23..8) and shift(4..0); the multiplier
      -- takes them packed as mant & shift
      kp => kp(23 downto 8) & kp(4 downto 0), ki => ki(23 downto 8) & ki(4 downto 0),
      kf => kf(23 downto 8) & kf(4 downto 0),
      lock_thresh => unsigned(lock_th), reject_thresh => unsigned(rej_th),
      step_thresh => unsigned(step_th), loss_us => unsigned(loss_us),
      min_gap => unsigned(min_gap), lock_count => unsigned(lock_cnt(7 downto 0)),
      stamp_valid => stamp_valid, stamp => stamp, us_tick => us_tick,
      accepted => s_accepted, step_req => s_step_req, step_ns => s_step,
      freq_req => s_freq_req, freq_adj => s_freq, req_ack => s_ack,
      state => s_state, present => s_present, offset_ns => s_offset,
      gap_glitches => c_gap, rejects => c_rej, losses => c_loss, steps => c_step,
      edges => c_edge);
  pps_locked <= '1' when s_state = "10" else '0';

  -- lowest pending message first
  pick : process (all)
  begin
    send_k <= 0;
    for i in 15 downto 0 loop
      if pend(i) = '1' then
        send_k <= i;
      end if;
    end loop;
  end process;
  -- the sender owns the read port while messages are pending (no register
  -- access is being decoded then), the register port otherwise
  ram_rslot <= slot_of_msg(send_k) when pend /= x"0000" else
               slot_of(to_integer(unsigned(reg_addr)) * 4);

  regram : process (clk)
  begin
    if rising_edge(clk) then
      if ram_we = '1' then
        ram(ram_wslot) <= ram_wdata;
      end if;
      ram_q  <= ram(ram_rslot);
      q_slot <= ram_rslot;
    end if;
  end process;

  process (clk)
    variable a : natural;
    variable k : natural range 0 to 15;
    variable d : word;
    variable kind : natural range 0 to 3;
  begin
    if rising_edge(clk) then
      -- every variable is written before it is read, so none implies storage
      a := 0;
      k := 0;
      d := (others => '0');
      kind := 0;
      ready <= '0';
      stamp_valid <= '0';
      s_ack <= '0';

      -- answers from the timebase domain
      if resp_valid = '1' then
        kind := to_integer(unsigned(resp(97 downto 96)));
        got(kind) <= '1';
        case resp(97 downto 96) is
          -- the word the waiting read returns goes straight to rdata; only
          -- the words read later are kept
          when R_SNAP =>
            snap_hi   <= resp(95 downto 64);
            snap_frac <= resp(31 downto 0);
            rdata     <= resp(63 downto 32);
          when R_EVENT =>
            rdata   <= resp(31 downto 0);
            ev_hi   <= resp(63 downto 32);
            ev_info <= resp(95) & "0000000" & resp(94 downto 79) & "00000" & resp(78 downto 76);
          when R_EVSTAT =>
            if acc_addr = REG_EVENT_STATUS then
              rdata <= x"0000" & resp(63 downto 48);
            else
              rdata <= resp(95 downto 64);
            end if;
          when others =>              -- R_PPS
            filt_glitches <= filt_glitches +
              resize(unsigned(resp(31 downto 16)) - last_filt, 32);
            last_filt <= unsigned(resp(31 downto 16));
            if resp(15) = '1' then
              stamp <= unsigned(resp(95 downto 32));
              stamp_valid <= '1';
            end if;
        end case;
      end if;
      if s_accepted = '1' then
        pps_lo <= std_logic_vector(stamp(31 downto 0));
        pps_hi <= std_logic_vector(stamp(63 downto 32));
        stamp_new <= '1';
      end if;

      -- message sender: pick the message and read its RAM word, then send
      ram_we <= '0';
      if mv = '1' and msg_ready = '1' then
        mv <= '0';
      elsif mv = '0' and fetched = '0' and pend /= x"0000" then
        k_r <= send_k;
        fetched <= '1';
      elsif fetched = '1' then
        fetched <= '0';
        k := k_r;
        if written(q_slot) = '1' then
          d := ram_q;
        else
          d := slot_reset(q_slot);
        end if;
        case k is
          when M_ADJ_LO    => if servo_step = '1' then d := std_logic_vector(s_step(31 downto 0)); end if;
          when M_ADJ_HI    => if servo_step = '1' then d := std_logic_vector(s_step(63 downto 32)); end if;
          when M_PER_NS    => d := x"000000" & std_logic_vector(eff(39 downto 32));
          when M_PER_FRAC  => d := std_logic_vector(eff(31 downto 0));
          when M_CMD       => d := cmd_bits;
          when M_PPS_CFG   => d := pps_minw(15 downto 0) & x"000" & "00" & pps_ctrl(2) &
                                   (pps_ctrl(1) or pps_ctrl(0));
          when M_EV_CFG    => d := ev_ctrl;
          when M_EV_MINW   => d := ev_minw;
          when M_PO_ARM    => d := po_ctrl;
          when others      => null;      -- the RAM word
        end case;
        mr <= std_logic_vector(to_unsigned(k, 4)) & d;
        mv <= '1';
        pend(k) <= '0';
      end if;

      -- register accesses, and servo requests between them
      case acc is
        when IDLE =>
          -- in the clock ready is high the master still holds valid for the
          -- access just finished: starting another here would repeat it
          if reg_valid = '1' and ready = '0' then
            a := to_integer(unsigned(reg_addr)) * 4;
            acc_addr <= a;
            want <= 0;
            acc <= DONE;
            if reg_write = '1' then
              d := reg_wdata;
              case a is
                when REG_ID_SCRATCH =>
                  ram_we <= '1'; ram_wslot <= SLOT_SCRATCH; ram_wdata <= d; written(SLOT_SCRATCH) <= '1';
                when REG_CLOCK_CTRL =>
                  -- one command per write, set before adjust before period
                  if d(CLOCK_CTRL_SET_LSB) = '1' then
                    cmd_bits <= cmd_word(C_SET);
                  elsif d(CLOCK_CTRL_ADJUST_LSB) = '1' then
                    cmd_bits <= cmd_word(C_ADJUST);
                  else
                    cmd_bits <= cmd_word(C_PERIOD);
                  end if;
                  servo_step <= '0';
                  if d(CLOCK_CTRL_SET_LSB) = '1' then
                    pend(M_SET_LO) <= '1'; pend(M_SET_HI) <= '1'; pend(M_SET_FRAC) <= '1';
                  elsif d(CLOCK_CTRL_ADJUST_LSB) = '1' then
                    pend(M_ADJ_LO) <= '1'; pend(M_ADJ_HI) <= '1';
                  end if;
                  if d(CLOCK_CTRL_PERIOD_LSB) = '1' and d(1 downto 0) = "00" then
                    pend(M_PER_NS) <= '1'; pend(M_PER_FRAC) <= '1';
                  end if;
                  if d(2 downto 0) /= "000" then
                    pend(M_CMD) <= '1';
                    acc <= SENDING;
                  end if;
                  if unsigned(d(31 downto 3)) /= 0 then
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                  end if;
                when REG_CLOCK_SET_NS_LO =>
                  ram_we <= '1'; ram_wslot <= SLOT_SET_LO; ram_wdata <= d; written(SLOT_SET_LO) <= '1';
                when REG_CLOCK_SET_NS_HI =>
                  ram_we <= '1'; ram_wslot <= SLOT_SET_HI; ram_wdata <= d; written(SLOT_SET_HI) <= '1';
                when REG_CLOCK_SET_FRAC  =>
                  ram_we <= '1'; ram_wslot <= SLOT_SET_FRAC; ram_wdata <= d; written(SLOT_SET_FRAC) <= '1';
                when REG_CLOCK_ADJ_NS_LO =>
                  ram_we <= '1'; ram_wslot <= SLOT_ADJ_LO; ram_wdata <= d; written(SLOT_ADJ_LO) <= '1';
                when REG_CLOCK_ADJ_NS_HI =>
                  ram_we <= '1'; ram_wslot <= SLOT_ADJ_HI; ram_wdata <= d; written(SLOT_ADJ_HI) <= '1';
                when REG_CLOCK_PERIOD_NS => per_ns <= x"0000000" & d(3 downto 0);
                  if unsigned(d(31 downto 4)) /= 0 or d(3 downto 0) = "0000" then
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                    per_ns <= per_ns;          -- out of 1..15: refused
                  end if;
                when REG_CLOCK_PERIOD_FRAC => per_frac <= d;
                when REG_PPS_CTRL =>
                  pps_ctrl <= x"0000000" & "0" & d(2 downto 0);
                  if d(1 downto 0) = "11" then
                    pps_ctrl <= pps_ctrl;       -- undefined mode: refused
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                  else
                    pend(M_PPS_CFG) <= '1';
                    acc <= SENDING;
                  end if;
                when REG_PPS_INTERVAL_NS =>
                  if unsigned(d) < 2 or d(31) = '1' then
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                  else
                    interval <= d;
                  end if;
                when REG_PPS_KP => kp <= x"00" & d(23 downto 8) & "000" & d(4 downto 0);
                when REG_PPS_KI => ki <= x"00" & d(23 downto 8) & "000" & d(4 downto 0);
                when REG_PPS_KF => kf <= x"00" & d(23 downto 8) & "000" & d(4 downto 0);
                when REG_PPS_LOCK_THRESH_NS => lock_th <= d;
                when REG_PPS_REJECT_THRESH_NS => rej_th <= d;
                when REG_PPS_STEP_THRESH_NS => step_th <= d;
                when REG_PPS_MIN_WIDTH => pps_minw <= u32(d(15 downto 0));
                  pend(M_PPS_CFG) <= '1';
                  acc <= SENDING;
                when REG_PPS_LOSS_US => loss_us <= d;
                when REG_PPS_MIN_GAP_NS => min_gap <= d;
                when REG_PPS_LOCK_COUNT => lock_cnt <= u32(d(7 downto 0));
                when REG_EVENT_CTRL => ev_ctrl <= u32(d(15 downto 0));
                  pend(M_EV_CFG) <= '1';
                  acc <= SENDING;
                when REG_EVENT_MIN_WIDTH => ev_minw <= u32(d(15 downto 0));
                  pend(M_EV_MINW) <= '1';
                  acc <= SENDING;
                when REG_PEROUT_CTRL => po_ctrl <= u32(d(0 downto 0));
                  pend(M_PO_LO) <= '1'; pend(M_PO_HI) <= '1'; pend(M_PO_PERIOD) <= '1';
                  pend(M_PO_WIDTH) <= '1'; pend(M_PO_ARM) <= '1';
                  acc <= SENDING;
                when REG_PEROUT_START_NS_LO =>
                  ram_we <= '1'; ram_wslot <= SLOT_PO_LO; ram_wdata <= d; written(SLOT_PO_LO) <= '1';
                when REG_PEROUT_START_NS_HI =>
                  ram_we <= '1'; ram_wslot <= SLOT_PO_HI; ram_wdata <= d; written(SLOT_PO_HI) <= '1';
                when REG_PEROUT_PERIOD_NS =>
                  ram_we <= '1'; ram_wslot <= SLOT_PO_PERIOD; ram_wdata <= d; written(SLOT_PO_PERIOD) <= '1';
                when REG_PEROUT_WIDTH_NS =>
                  ram_we <= '1'; ram_wslot <= SLOT_PO_WIDTH; ram_wdata <= d; written(SLOT_PO_WIDTH) <= '1';
                when others =>
                  if bad_cnt /= x"FFFFFFFF" then
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                  end if;
              end case;
            else
              d := (others => '0');
              ram_rd <= '0';
              if slot_of(a) /= NO_SLOT then
                ram_rd <= '1';        -- the RAM word arrives in DONE
              end if;
              case a is
                when REG_ID_TYPE => d := ID_TYPE_RESET;
                when REG_ID_VERSION => d := ID_VERSION_RESET;
                when REG_ID_NEXT => d := ID_NEXT_RESET;
                when REG_ID_MAGIC => d := ID_MAGIC_RESET;
                when REG_ID_BUILD => d := BUILD_ID;
                when REG_ID_FEATURES => d := FEATURES;
                when REG_ID_CLK_HZ => d := std_logic_vector(to_unsigned(CLK_HZ, 32));
                when REG_ID_BAD_ACCESS => d := bad_cnt; bad_cnt <= (others => '0');
                when REG_CLOCK_TYPE => d := CLOCK_TYPE_RESET;
                when REG_CLOCK_VERSION => d := CLOCK_VERSION_RESET;
                when REG_CLOCK_NEXT => d := CLOCK_NEXT_RESET;
                when REG_CLOCK_CTRL => d := (others => '0');
                when REG_CLOCK_TIME_NS_LO =>
                  cmd_bits <= cmd_word(C_SNAPSHOT);
                  pend(M_CMD) <= '1';
                  want <= to_integer(unsigned(R_SNAP));
                  got <= (others => '0');
                  acc <= WAITING;
                when REG_CLOCK_TIME_NS_HI => d := snap_hi;
                when REG_CLOCK_TIME_FRAC => d := snap_frac;
                when REG_CLOCK_PERIOD_NS => d := per_ns;
                when REG_CLOCK_PERIOD_FRAC => d := per_frac;
                when REG_CLOCK_EFF_PERIOD_NS => d := x"000000" & std_logic_vector(eff(39 downto 32));
                when REG_CLOCK_EFF_PERIOD_FRAC => d := std_logic_vector(eff(31 downto 0));
                when REG_PPS_TYPE => d := PPS_TYPE_RESET;
                when REG_PPS_VERSION => d := PPS_VERSION_RESET;
                when REG_PPS_NEXT => d := PPS_NEXT_RESET;
                when REG_PPS_CTRL => d := pps_ctrl;
                when REG_PPS_STATUS =>
                  -- one whole-word assignment: GHDL 2.0 synthesis mis-slices a
                  -- variable given constants in one branch, slices in another
                  -- (tests/sim/repro); the asserts pin the field positions
                  d := x"0000000" & stamp_new & s_present & s_state;
                when REG_PPS_STAMP_NS_LO => d := pps_lo; pps_hi_l <= pps_hi; stamp_new <= '0';
                when REG_PPS_STAMP_NS_HI => d := pps_hi_l;
                when REG_PPS_OFFSET_NS => d := std_logic_vector(s_offset);
                when REG_PPS_FREQ_ADJ => d := std_logic_vector(s_freq);
                when REG_PPS_INTERVAL_NS => d := interval;
                when REG_PPS_KP => d := kp;
                when REG_PPS_KI => d := ki;
                when REG_PPS_KF => d := kf;
                when REG_PPS_LOCK_THRESH_NS => d := lock_th;
                when REG_PPS_REJECT_THRESH_NS => d := rej_th;
                when REG_PPS_STEP_THRESH_NS => d := step_th;
                when REG_PPS_MIN_WIDTH => d := pps_minw;
                when REG_PPS_LOSS_US => d := loss_us;
                when REG_PPS_MIN_GAP_NS => d := min_gap;
                when REG_PPS_LOCK_COUNT => d := lock_cnt;
                when REG_PPS_EDGES => d := std_logic_vector(c_edge);
                when REG_PPS_GLITCHES => d := std_logic_vector(c_gap + filt_glitches);
                when REG_PPS_REJECTS => d := std_logic_vector(c_rej);
                when REG_PPS_LOSSES => d := std_logic_vector(c_loss);
                when REG_PPS_STEPS => d := std_logic_vector(c_step);
                when REG_EVENT_TYPE => d := EVENT_TYPE_RESET;
                when REG_EVENT_VERSION => d := EVENT_VERSION_RESET;
                when REG_EVENT_NEXT => d := EVENT_NEXT_RESET;
                when REG_EVENT_CTRL => d := ev_ctrl;
                when REG_EVENT_STATUS | REG_EVENT_OVERFLOWS =>
                  cmd_bits <= cmd_word(C_EVSTAT);
                  pend(M_CMD) <= '1';
                  want <= to_integer(unsigned(R_EVSTAT));
                  got <= (others => '0');
                  acc <= WAITING;
                when REG_EVENT_STAMP_NS_LO =>
                  cmd_bits <= cmd_word(C_POP);
                  pend(M_CMD) <= '1';
                  want <= to_integer(unsigned(R_EVENT));
                  got <= (others => '0');
                  acc <= WAITING;
                when REG_EVENT_STAMP_NS_HI => d := ev_hi;
                when REG_EVENT_STAMP_INFO => d := ev_info;
                when REG_EVENT_MIN_WIDTH => d := ev_minw;
                when REG_PEROUT_TYPE => d := PEROUT_TYPE_RESET;
                when REG_PEROUT_VERSION => d := PEROUT_VERSION_RESET;
                when REG_PEROUT_NEXT => d := PEROUT_NEXT_RESET;
                when REG_PEROUT_CTRL => d := po_ctrl;
                when others =>
                  if slot_of(a) = NO_SLOT and bad_cnt /= x"FFFFFFFF" then
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                  end if;
              end case;
              rdata <= d;
            end if;
          elsif (s_step_req = '1' or s_freq_req = '1') and s_ack = '0' then
            -- (in the clock the ack is out, the servo still shows the request
            -- just served: taking it again would step twice and the second
            -- ack would cancel the frequency request queued behind it)
            -- the servo's turn: a step, or a new effective period
            servo_busy <= '1';
            acc <= SENDING;
            if s_step_req = '1' then
              servo_step <= '1';
              cmd_bits <= cmd_word(C_ADJUST);
              pend(M_ADJ_LO) <= '1'; pend(M_ADJ_HI) <= '1'; pend(M_CMD) <= '1';
            else
              cmd_bits <= cmd_word(C_PERIOD);
              pend(M_PER_NS) <= '1'; pend(M_PER_FRAC) <= '1'; pend(M_CMD) <= '1';
            end if;
          end if;
        when SENDING =>
          if pend = x"0000" and mv = '0' then
            if servo_busy = '1' then
              servo_busy <= '0';
              s_ack <= '1';
              acc <= IDLE;
            else
              acc <= DONE;
            end if;
          end if;
        when WAITING =>
          if got(want) = '1' then
            acc <= DONE;
          end if;
        when DONE =>
          ready <= '1';
          acc <= IDLE;
          if ram_rd = '1' then
            ram_rd <= '0';
            if written(q_slot) = '1' then
              rdata <= ram_q;
            else
              rdata <= slot_reset(q_slot);
            end if;
          end if;
      end case;

      if rst = '1' then
        acc <= IDLE; pend <= (others => '0'); mv <= '0'; servo_busy <= '0';
        filt_glitches <= (others => '0'); last_filt <= (others => '0');
        stamp_new <= '0'; bad_cnt <= (others => '0');
        fetched <= '0'; ram_rd <= '0'; written <= (others => '0');
      end if;
    end if;
  end process;

  reg_ready <= ready;
  reg_rdata <= rdata;
  msg_valid <= mv;
  msg <= mr;
end architecture;
