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

  -- Registers the hardware needs all the time stay in flip-flops (below);
  -- the servo's parameters are read from a copy of the RAM (pram);
  -- every software-written register and every constant is also held in a
  -- block RAM indexed by the word address, and reads of them come from the
  -- RAM, so the read multiplexer only sees the values the hardware makes.
  -- Block RAM has no reset: after rst a short sequencer (INIT_WORDS clocks,
  -- the register port waits) writes every reset value and constant.
  signal per_frac : word := (others => '0');
  signal per_ns : std_logic_vector(7 downto 0) := CLOCK_PERIOD_NS_RESET(7 downto 0);
  signal pps_ctrl : std_logic_vector(2 downto 0) := (others => '0');
  signal bad_cnt : word := (others => '0');

  -- the clock core's registers all lie below 0x200: 128 words
  constant RAM_WORDS : natural := 128;
  type ram_t is array (0 to RAM_WORDS - 1) of word;
  signal ram : ram_t;
  -- the same words again, read by the PPS servo for its parameters (a
  -- second block RAM with the same writes: iCE40 RAMs have one read port)
  signal pram : ram_t;
  signal s_par : par_t;
  signal pram_rslot : natural range 0 to RAM_WORDS - 1;
  signal pram_q : word := (others => '0');
  signal ram_we : std_logic := '0';
  signal ram_wslot, ram_rslot : natural range 0 to RAM_WORDS - 1 := 0;
  signal ram_wdata, ram_q : word := (others => '0');
  signal ram_rd : std_logic := '0';       -- DONE returns the RAM word
  signal fetched : std_logic := '0';       -- sender: RAM word for k_r arrives
  signal k_r : natural range 0 to 15 := 0;
  signal send_k : natural range 0 to 15;
  signal initing : std_logic := '1';
  signal init_n : natural range 0 to 63 := 0;

  -- the writable registers: their RAM word is what software reads back,
  -- with the bits outside their fields cleared
  function rw_mask (a : natural) return word is
  begin
    case a is
      when REG_ID_SCRATCH | REG_CLOCK_SET_NS_LO | REG_CLOCK_SET_NS_HI |
           REG_CLOCK_SET_FRAC | REG_CLOCK_ADJ_NS_LO | REG_CLOCK_ADJ_NS_HI |
           REG_CLOCK_PERIOD_FRAC | REG_PPS_INTERVAL_NS |
           REG_PPS_LOCK_THRESH_NS | REG_PPS_REJECT_THRESH_NS | REG_PPS_STEP_THRESH_NS |
           REG_PPS_LOSS_US | REG_PPS_MIN_GAP_NS |
           REG_PEROUT_START_NS_LO | REG_PEROUT_START_NS_HI |
           REG_PEROUT_PERIOD_NS | REG_PEROUT_WIDTH_NS => return x"FFFFFFFF";
      when REG_CLOCK_PERIOD_NS => return x"000000FF";
      when REG_PPS_CTRL => return x"00000007";
      when REG_PPS_KP | REG_PPS_KI | REG_PPS_KF => return x"00FFFF1F";
      when REG_PPS_MIN_WIDTH | REG_EVENT_CTRL | REG_EVENT_MIN_WIDTH => return x"0000FFFF";
      when REG_PPS_LOCK_COUNT => return x"000000FF";
      when REG_PEROUT_CTRL => return x"00000001";
      when others => return x"00000000";
    end case;
  end function;

  constant FEATURES : word :=
    u32(std_logic_vector(to_unsigned(PEROUT_DELAY, 4)) &
        std_logic_vector(to_unsigned(CAPTURE_DELAY, 4)) &
        std_logic_vector(to_unsigned(FIFO_LOG2, 4)) & "0000" &
        std_logic_vector(to_unsigned(N_EVENTS, 4)));

  -- what the init sequencer writes: (byte address, value) number n
  constant INIT_WORDS : natural := 54;
  function init_addr (n : natural) return natural is
  begin
    case n is
      when 0 => return REG_ID_TYPE;          when 1 => return REG_ID_VERSION;
      when 2 => return REG_ID_NEXT;          when 3 => return REG_ID_MAGIC;
      when 4 => return REG_ID_BUILD;         when 5 => return REG_ID_FEATURES;
      when 6 => return REG_ID_CLK_HZ;        when 7 => return REG_ID_SCRATCH;
      when 8 => return REG_CLOCK_TYPE;       when 9 => return REG_CLOCK_VERSION;
      when 10 => return REG_CLOCK_NEXT;      when 11 => return REG_CLOCK_SET_NS_LO;
      when 12 => return REG_CLOCK_SET_NS_HI; when 13 => return REG_CLOCK_SET_FRAC;
      when 14 => return REG_CLOCK_ADJ_NS_LO; when 15 => return REG_CLOCK_ADJ_NS_HI;
      when 16 => return REG_CLOCK_PERIOD_NS; when 17 => return REG_CLOCK_PERIOD_FRAC;
      when 18 => return REG_PPS_TYPE;        when 19 => return REG_PPS_VERSION;
      when 20 => return REG_PPS_NEXT;        when 21 => return REG_PPS_CTRL;
      when 22 => return REG_PPS_INTERVAL_NS; when 23 => return REG_PPS_KP;
      when 24 => return REG_PPS_KI;          when 25 => return REG_PPS_KF;
      when 26 => return REG_PPS_LOCK_THRESH_NS;   when 27 => return REG_PPS_REJECT_THRESH_NS;
      when 28 => return REG_PPS_STEP_THRESH_NS;   when 29 => return REG_PPS_MIN_WIDTH;
      when 30 => return REG_PPS_LOSS_US;     when 31 => return REG_PPS_MIN_GAP_NS;
      when 32 => return REG_PPS_LOCK_COUNT;  when 33 => return REG_EVENT_TYPE;
      when 34 => return REG_EVENT_VERSION;   when 35 => return REG_EVENT_NEXT;
      when 36 => return REG_EVENT_CTRL;      when 37 => return REG_EVENT_MIN_WIDTH;
      when 38 => return REG_PEROUT_TYPE;     when 39 => return REG_PEROUT_VERSION;
      when 40 => return REG_PEROUT_NEXT;     when 41 => return REG_PEROUT_CTRL;
      when 42 => return REG_PEROUT_START_NS_LO;   when 43 => return REG_PEROUT_START_NS_HI;
      when 44 => return REG_PEROUT_PERIOD_NS;     when 45 => return REG_PEROUT_WIDTH_NS;
      when 46 => return REG_CLOCK_TIME_NS_HI;     when 47 => return REG_CLOCK_TIME_FRAC;
      when 48 => return REG_EVENT_STAMP_NS_HI;    when 49 => return REG_EVENT_STAMP_INFO;
      when 50 => return REG_PPS_EDGES;            when 51 => return REG_PPS_REJECTS;
      when 52 => return REG_PPS_LOSSES;           when others => return REG_PPS_STEPS;
    end case;
  end function;
  function init_val (n : natural) return word is
  begin
    case n is
      when 0 => return ID_TYPE_RESET;        when 1 => return ID_VERSION_RESET;
      when 2 => return ID_NEXT_RESET;        when 3 => return ID_MAGIC_RESET;
      when 4 => return BUILD_ID;             when 5 => return FEATURES;
      when 6 => return std_logic_vector(to_unsigned(CLK_HZ, 32));
      when 8 => return CLOCK_TYPE_RESET;     when 9 => return CLOCK_VERSION_RESET;
      when 10 => return CLOCK_NEXT_RESET;
      when 16 => return CLOCK_PERIOD_NS_RESET;
      when 18 => return PPS_TYPE_RESET;      when 19 => return PPS_VERSION_RESET;
      when 20 => return PPS_NEXT_RESET;
      when 22 => return PPS_INTERVAL_NS_RESET; when 23 => return PPS_KP_RESET;
      when 24 => return PPS_KI_RESET;        when 25 => return PPS_KF_RESET;
      when 26 => return PPS_LOCK_THRESH_NS_RESET; when 27 => return PPS_REJECT_THRESH_NS_RESET;
      when 28 => return PPS_STEP_THRESH_NS_RESET; when 29 => return PPS_MIN_WIDTH_RESET;
      when 30 => return PPS_LOSS_US_RESET;   when 31 => return PPS_MIN_GAP_NS_RESET;
      when 32 => return PPS_LOCK_COUNT_RESET;
      when 33 => return EVENT_TYPE_RESET;    when 34 => return EVENT_VERSION_RESET;
      when 35 => return EVENT_NEXT_RESET;    when 37 => return EVENT_MIN_WIDTH_RESET;
      when 38 => return PEROUT_TYPE_RESET;   when 39 => return PEROUT_VERSION_RESET;
      when 40 => return PEROUT_NEXT_RESET;
      when 44 => return PEROUT_PERIOD_NS_RESET; when 45 => return PEROUT_WIDTH_NS_RESET;
      when others => return x"00000000";
    end case;
  end function;
  -- read-only words held in the RAM: constants and answer words
  function is_const (a : natural) return boolean is
  begin
    case a is
      when REG_ID_TYPE | REG_ID_VERSION | REG_ID_NEXT | REG_ID_MAGIC | REG_ID_BUILD |
           REG_ID_FEATURES | REG_ID_CLK_HZ | REG_CLOCK_TYPE | REG_CLOCK_VERSION |
           REG_CLOCK_NEXT | REG_PPS_TYPE | REG_PPS_VERSION | REG_PPS_NEXT |
           REG_EVENT_TYPE | REG_EVENT_VERSION | REG_EVENT_NEXT |
           REG_PEROUT_TYPE | REG_PEROUT_VERSION | REG_PEROUT_NEXT |
           -- the second words of snapshot and event answers, written by
           -- the answers
           REG_CLOCK_TIME_NS_HI | REG_CLOCK_TIME_FRAC |
           REG_EVENT_STAMP_NS_HI | REG_EVENT_STAMP_INFO |
           -- the servo's counters
           REG_PPS_EDGES | REG_PPS_REJECTS | REG_PPS_LOSSES | REG_PPS_STEPS => return true;
      when others => return false;
    end case;
  end function;
  -- the register port's address, decoded once
  signal a_n : natural range 0 to 4095;
  signal wmask : word;
  signal is_rw, is_ram : std_logic;

  -- the RAM word of a servo parameter
  function word_of_par (p : natural) return natural is
  begin
    case p is
      when P_INTERVAL => return REG_PPS_INTERVAL_NS / 4;
      when P_KP => return REG_PPS_KP / 4;
      when P_KI => return REG_PPS_KI / 4;
      when P_KF => return REG_PPS_KF / 4;
      when P_LOCK => return REG_PPS_LOCK_THRESH_NS / 4;
      when P_REJ => return REG_PPS_REJECT_THRESH_NS / 4;
      when P_STEP => return REG_PPS_STEP_THRESH_NS / 4;
      when P_LOSS => return REG_PPS_LOSS_US / 4;
      when P_GAP => return REG_PPS_MIN_GAP_NS / 4;
      when P_EDGES => return REG_PPS_EDGES / 4;
      when P_REJECTS => return REG_PPS_REJECTS / 4;
      when P_LOSSES => return REG_PPS_LOSSES / 4;
      when P_STEPS => return REG_PPS_STEPS / 4;
      when others => return REG_PPS_LOCK_COUNT / 4;
    end case;
  end function;

  -- the RAM word a message's data comes from
  function word_of_msg (k : natural) return natural is
  begin
    case k is
      when M_SET_LO => return REG_CLOCK_SET_NS_LO / 4;
      when M_SET_HI => return REG_CLOCK_SET_NS_HI / 4;
      when M_SET_FRAC => return REG_CLOCK_SET_FRAC / 4;
      when M_ADJ_LO => return REG_CLOCK_ADJ_NS_LO / 4;
      when M_ADJ_HI => return REG_CLOCK_ADJ_NS_HI / 4;
      when M_PPS_CFG => return REG_PPS_MIN_WIDTH / 4;
      when M_EV_CFG => return REG_EVENT_CTRL / 4;
      when M_EV_MINW => return REG_EVENT_MIN_WIDTH / 4;
      when M_PO_LO => return REG_PEROUT_START_NS_LO / 4;
      when M_PO_HI => return REG_PEROUT_START_NS_HI / 4;
      when M_PO_PERIOD => return REG_PEROUT_PERIOD_NS / 4;
      when M_PO_WIDTH => return REG_PEROUT_WIDTH_NS / 4;
      when M_PO_ARM => return REG_PEROUT_CTRL / 4;
      when others => return 0;
    end case;
  end function;

  -- values latched from the timebase domain
  -- the second word of a snapshot or event answer, written to the RAM
  -- one clock after the first (one write port)
  signal wr2 : std_logic := '0';
  signal wr2_slot : natural range 0 to RAM_WORDS - 1 := 0;
  signal wr2_data : word := (others => '0');
  signal pps_hi_l : word := (others => '0');
  signal stamp_new : std_logic := '0';
  -- the waiting read is event.status (not event.overflows): all the
  -- FIFO-status answer needs to know of the address
  signal acc_status : std_logic := '0';
  signal filt_glitches : unsigned(31 downto 0) := (others => '0');
  signal last_filt : unsigned(15 downto 0) := (others => '0');
  signal got : std_logic_vector(3 downto 0) := (others => '0');  -- by response kind

  -- message sender: one bit per message address, sent lowest first
  signal pend : std_logic_vector(15 downto 0) := (others => '0');
  signal cmd_bits : word := (others => '0');
  signal servo_step : std_logic := '0';
  signal mdata, mdata_adj : word;

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
  signal c_gap : unsigned(31 downto 0);
  -- the servo's counters live in the RAM; it writes them back through here
  signal s_cnt_req : std_logic;
  signal s_cnt_sel : par_t;
  signal s_cnt_val : word;
  signal s_cnt_ack : std_logic := '0';
  -- a PPS stamp goes straight from the crossing into the servo, which
  -- keeps the last accepted one (pps.stamp_ns_lo/hi)
  signal stamp_valid : std_logic;
  signal last_stamp : unsigned(63 downto 0);
  signal eff : unsigned(39 downto 0);

begin
  -- pps.status is built by concatenation in this order
  assert PPS_STATUS_STATE_LSB = 0 and PPS_STATUS_STATE_WIDTH = 2 and
         PPS_STATUS_PRESENT_LSB = 2 and PPS_STATUS_STAMP_NEW_LSB = 3
    report "clock_regs: pps.status layout changed in the register map" severity failure;

  eff <= (unsigned(per_ns) & unsigned(per_frac)) + unsigned(resize(s_freq, 40));

  a_n <= to_integer(unsigned(reg_addr)) * 4;
  wmask <= rw_mask(a_n);
  is_rw <= '0' when wmask = x"00000000" else '1';
  is_ram <= '1' when is_rw = '1' or is_const(a_n) else '0';

  servo : entity work.pps_servo
    port map (
      clk => clk, rst => rst, mode => pps_ctrl(1 downto 0),
      par => s_par, par_q => pram_q,
      stamp_valid => stamp_valid, stamp => unsigned(resp(95 downto 32)), us_tick => us_tick,
      accepted => s_accepted, last_stamp => last_stamp, step_req => s_step_req, step_ns => s_step,
      freq_req => s_freq_req, freq_adj => s_freq, req_ack => s_ack,
      state => s_state, present => s_present, offset_ns => s_offset,
      gap_glitches => c_gap, cnt_req => s_cnt_req, cnt_sel => s_cnt_sel,
      cnt_val => s_cnt_val, cnt_ack => s_cnt_ack);
  pps_locked <= '1' when s_state = "10" else '0';
  stamp_valid <= '1' when resp_valid = '1' and resp(97 downto 96) = R_PPS and resp(15) = '1' else '0';

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
  ram_rslot <= word_of_msg(send_k) when pend /= x"0000" else
               to_integer(unsigned(reg_addr(8 downto 2)));

  regram : process (clk)
  begin
    if rising_edge(clk) then
      if ram_we = '1' then
        ram(ram_wslot) <= ram_wdata;
      end if;
      ram_q <= ram(ram_rslot);
    end if;
  end process;

  pram_rslot <= word_of_par(s_par);
  parram : process (clk)
  begin
    if rising_edge(clk) then
      if ram_we = '1' then
        pram(ram_wslot) <= ram_wdata;
      end if;
      pram_q <= pram(pram_rslot);
    end if;
  end process;

  process (clk)
    variable d : word;
    variable kind : natural range 0 to 3;
    variable wbusy : boolean;           -- a RAM write is issued in this clock
  begin
    if rising_edge(clk) then
      -- every variable is written before it is read, so none implies storage
      d := (others => '0');
      kind := 0;
      wbusy := false;
      ready <= '0';
      s_ack <= '0';
      ram_we <= '0';
      wr2 <= '0';

      -- answers from the timebase domain
      if resp_valid = '1' then
        kind := to_integer(unsigned(resp(97 downto 96)));
        got(kind) <= '1';
        case resp(97 downto 96) is
          -- the word the waiting read returns goes straight to rdata; only
          -- the words read later are kept
          -- (the words read later go to the RAM; no bus write can start
          -- while the read that asked for them waits)
          when R_SNAP =>
            rdata     <= resp(63 downto 32);
            ram_we    <= '1';
            wbusy     := true;
            ram_wslot <= REG_CLOCK_TIME_NS_HI / 4;
            ram_wdata <= resp(95 downto 64);
            wr2       <= '1';
            wr2_slot  <= REG_CLOCK_TIME_FRAC / 4;
            wr2_data  <= resp(31 downto 0);
          when R_EVENT =>
            rdata     <= resp(31 downto 0);
            ram_we    <= '1';
            wbusy     := true;
            ram_wslot <= REG_EVENT_STAMP_NS_HI / 4;
            ram_wdata <= resp(63 downto 32);
            wr2       <= '1';
            wr2_slot  <= REG_EVENT_STAMP_INFO / 4;
            wr2_data  <= resp(95) & "0000000" & resp(94 downto 79) & "00000" & resp(78 downto 76);
          when R_EVSTAT =>
            if acc_status = '1' then
              rdata <= x"0000" & resp(63 downto 48);
            else
              rdata <= resp(95 downto 64);
            end if;
          when others =>              -- R_PPS
            filt_glitches <= filt_glitches +
              resize(unsigned(resp(31 downto 16)) - last_filt, 32);
            last_filt <= unsigned(resp(31 downto 16));
        end case;
      end if;
      if s_accepted = '1' then
        stamp_new <= '1';
      end if;

      if wr2 = '1' then
        ram_we    <= '1';
        wbusy     := true;
        ram_wslot <= wr2_slot;
        ram_wdata <= wr2_data;
      end if;

      -- message sender: pick the message and read its RAM word, then offer
      -- it (msg, combinational) until the crossing takes it
      if fetched = '1' and msg_ready = '1' then
        fetched <= '0';
        pend(k_r) <= '0';
      elsif fetched = '0' and pend /= x"0000" and ram_we = '0' then
        -- (ram_we: a write in flight, e.g. event.ctrl with its own message,
        -- reaches the RAM in this clock; the read must come after it)
        k_r <= send_k;
        fetched <= '1';
      end if;

      -- after reset: every RAM word its reset value, one per clock
      if initing = '1' then
        ram_we <= '1';
        wbusy := true;
        ram_wslot <= init_addr(init_n) / 4;
        ram_wdata <= init_val(init_n);
        if init_n = INIT_WORDS - 1 then
          initing <= '0';
        else
          init_n <= init_n + 1;
        end if;
      end if;

      -- register accesses, and servo requests between them
      case acc is
        when IDLE =>
          -- in the clock ready is high the master still holds valid for the
          -- access just finished: starting another here would repeat it
          if reg_valid = '1' and ready = '0' and initing = '0' then
            if a_n = REG_EVENT_STATUS then
              acc_status <= '1';
            else
              acc_status <= '0';
            end if;
            want <= 0;
            acc <= DONE;
            if reg_write = '1' then
              d := reg_wdata;
              -- a writable register keeps what was written in the RAM, for
              -- reads; the cases below refuse bad values (no RAM write) and
              -- copy what the hardware needs into flip-flops
              ram_we <= is_rw;
              wbusy := true;
              ram_wslot <= to_integer(unsigned(reg_addr(8 downto 2)));
              ram_wdata <= d and wmask;
              case a_n is
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
                when REG_CLOCK_PERIOD_NS => per_ns <= d(7 downto 0);
                  if unsigned(d(31 downto 8)) /= 0 or d(7 downto 0) = x"00" then
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                    per_ns <= per_ns;          -- out of 1..255: refused
                    ram_we <= '0';
                  end if;
                when REG_CLOCK_PERIOD_FRAC => per_frac <= d;
                when REG_PPS_CTRL =>
                  pps_ctrl <= d(2 downto 0);
                  if d(1 downto 0) = "11" then
                    pps_ctrl <= pps_ctrl;       -- undefined mode: refused
                    ram_we <= '0';
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                  else
                    pend(M_PPS_CFG) <= '1';
                    acc <= SENDING;
                  end if;
                when REG_PPS_INTERVAL_NS =>
                  -- d < 2 or d >= 2^31, without a carry chain on the write data
                  if d(30 downto 1) = (30 downto 1 => '0') or d(31) = '1' then
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                    ram_we <= '0';
                  end if;
                when REG_PPS_MIN_WIDTH =>
                  pend(M_PPS_CFG) <= '1';
                  acc <= SENDING;
                when REG_EVENT_CTRL =>
                  pend(M_EV_CFG) <= '1';
                  acc <= SENDING;
                when REG_EVENT_MIN_WIDTH =>
                  pend(M_EV_MINW) <= '1';
                  acc <= SENDING;
                when REG_PEROUT_CTRL =>
                  pend(M_PO_LO) <= '1'; pend(M_PO_HI) <= '1'; pend(M_PO_PERIOD) <= '1';
                  pend(M_PO_WIDTH) <= '1'; pend(M_PO_ARM) <= '1';
                  acc <= SENDING;
                when others =>
                  if is_rw = '0' and bad_cnt /= x"FFFFFFFF" then
                    bad_cnt <= std_logic_vector(unsigned(bad_cnt) + 1);
                  end if;
              end case;
            else
              d := (others => '0');
              ram_rd <= is_ram;       -- the RAM word arrives in DONE
              case a_n is
                when REG_ID_BAD_ACCESS => d := bad_cnt; bad_cnt <= (others => '0');
                when REG_CLOCK_CTRL => d := (others => '0');
                when REG_CLOCK_TIME_NS_LO =>
                  cmd_bits <= cmd_word(C_SNAPSHOT);
                  pend(M_CMD) <= '1';
                  want <= to_integer(unsigned(R_SNAP));
                  got <= (others => '0');
                  acc <= WAITING;
                when REG_CLOCK_EFF_PERIOD_NS => d := x"000000" & std_logic_vector(eff(39 downto 32));
                when REG_CLOCK_EFF_PERIOD_FRAC => d := std_logic_vector(eff(31 downto 0));
                when REG_PPS_STATUS =>
                  -- one whole-word assignment: GHDL 2.0 synthesis mis-slices a
                  -- variable given constants in one branch, slices in another
                  -- (tests/sim/repro); the asserts pin the field positions
                  d := x"0000000" & stamp_new & s_present & s_state;
                when REG_PPS_STAMP_NS_LO => d := std_logic_vector(last_stamp(31 downto 0));
                  pps_hi_l <= std_logic_vector(last_stamp(63 downto 32)); stamp_new <= '0';
                when REG_PPS_STAMP_NS_HI => d := pps_hi_l;
                when REG_PPS_OFFSET_NS => d := std_logic_vector(s_offset);
                when REG_PPS_FREQ_ADJ => d := std_logic_vector(s_freq);
                when REG_PPS_GLITCHES => d := std_logic_vector(c_gap + filt_glitches);
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
                when others =>
                  if is_ram = '0' and bad_cnt /= x"FFFFFFFF" then
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
          if pend = x"0000" and fetched = '0' then
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
            rdata <= ram_q;
          end if;
      end case;

      -- the servo's counter write-backs take the RAM's write port when
      -- nothing else does (it waits on cnt_ack)
      s_cnt_ack <= '0';
      if s_cnt_req = '1' and s_cnt_ack = '0' and not wbusy then
        ram_we    <= '1';
        ram_wslot <= word_of_par(s_cnt_sel);
        ram_wdata <= s_cnt_val;
        s_cnt_ack <= '1';
      end if;

      if rst = '1' then
        acc <= IDLE; pend <= (others => '0'); servo_busy <= '0';
        filt_glitches <= (others => '0'); last_filt <= (others => '0');
        stamp_new <= '0'; bad_cnt <= (others => '0');
        fetched <= '0'; ram_rd <= '0';
        initing <= '1'; init_n <= 0;
        -- the flip-flop copies of RAM words: the same reset values
        per_ns <= CLOCK_PERIOD_NS_RESET(7 downto 0); per_frac <= CLOCK_PERIOD_FRAC_RESET;
        pps_ctrl <= (others => '0');
      end if;
    end if;
  end process;

  reg_ready <= ready;
  reg_rdata <= rdata;
  -- the message on offer: the RAM word of k_r, or what the hardware says
  -- for the messages not taken from the RAM. The crossing's holding
  -- register is the only copy.
  msg_valid <= fetched;
  with k_r select mdata <=
    std_logic_vector(s_step(31 downto 0)) when M_ADJ_LO,
    std_logic_vector(s_step(63 downto 32)) when M_ADJ_HI,
    x"000000" & std_logic_vector(eff(39 downto 32)) when M_PER_NS,
    std_logic_vector(eff(31 downto 0)) when M_PER_FRAC,
    cmd_bits when M_CMD,
    -- min_width (RAM, 16 bits) & polarity & enable
    ram_q(15 downto 0) & x"000" & "00" & pps_ctrl(2) & (pps_ctrl(1) or pps_ctrl(0))
      when M_PPS_CFG,
    ram_q when others;
  msg <= std_logic_vector(to_unsigned(k_r, 4)) & mdata_adj;
  -- software's adjust comes from the RAM, the servo's step from the servo
  mdata_adj <= ram_q when (k_r = M_ADJ_LO or k_r = M_ADJ_HI) and servo_step = '0' else mdata;
end architecture;
