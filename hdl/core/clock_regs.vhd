-- SPDX-License-Identifier: GPL-2.0-or-later
-- Register file of the clock core (bus clock domain). Decodes the register
-- port against the generated map, keeps the software-visible registers,
-- runs the PPS servo, and talks to the timebase domain through messages
-- (clock_msg_pkg): a write that must reach the timebase, or a read that
-- needs a value from it, completes only when the messages have been taken
-- and any answer has come back, so software sees every access in order.
--
-- Area design (docs/bitstream.md, "Session 4: clock_regs" and "Session 5:
-- clock core register interface"): one block RAM holds every register
-- word, and it is the only thing the bus reads and the only thing a
-- message carries. A sequencer moves everything else through one write
-- path into that RAM: the value the hardware makes is written into the
-- register's word first and then read back, so there is one 32-bit
-- multiplexer (the write source) and one adder (RAM word + source +
-- carry) instead of a read multiplexer, a message multiplexer and several
-- adders. The servo's results arrive one word at a time on its counter
-- port, the timebase domain's answers one word at a time, each tagged
-- with the word it goes to: two narrow sources, not one per value. Computed words
-- (eff_period, glitches, bad_access) are read-modify-writes on that adder.
-- Session 7: the adder's second operand (b_r) loads only a RAM word or a
-- sign byte, and the written word is the sum OR the source: a write either
-- adds (its source is 0) or takes a source while the RAM reads the zero
-- word SL_ZERO (its sum is 0); a simulation check holds both.
-- The RAM's upper half holds the reset values (bitstream contents, never
-- written); after rst the sequencer copies it into the lower half.
-- Session 13: the decode table's upper half also runs the messages (each
-- one's RAM word, the next one of its run, the run's end), and the
-- command words are constants of the RAM's upper half, not written.
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
    -- an answer word from the timebase domain waits in the crossing (resp
    -- is stable while resp_pend = 1); resp_take releases it. resp is the
    -- word's destination (clock_msg_pkg D_*) & the word.
    resp_pend  : in  std_logic;
    resp_take  : out std_logic;
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

  -- the reset values, (byte address, value) number n: the RAM's upper half
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
  -- the sequencer's own RAM words (SL_*): clock_msg_pkg

  -- the RAM word an answer word goes to
  function slot_of_dest (d : std_logic_vector(3 downto 0)) return natural is
  begin
    case d is
      when D_TIME_LO => return REG_CLOCK_TIME_NS_LO / 4;
      when D_TIME_HI => return REG_CLOCK_TIME_NS_HI / 4;
      when D_TIME_FRAC => return REG_CLOCK_TIME_FRAC / 4;
      when D_EV_LO => return REG_EVENT_STAMP_NS_LO / 4;
      when D_EV_HI => return REG_EVENT_STAMP_NS_HI / 4;
      when D_EV_INFO => return REG_EVENT_STAMP_INFO / 4;
      when D_EV_LEVEL => return REG_EVENT_STATUS / 4;
      when D_EV_OVF => return REG_EVENT_OVERFLOWS / 4;
      when D_PPS_LO => return SL_PPS_LO;
      when D_PPS_HI => return SL_PPS_HI;
      when others => return SL_FILT;        -- D_PPS_FILT; nothing else is sent
    end case;
  end function;



  -- read-only words that are plain RAM reads: constants, the second words
  -- of the snapshot and event answers, the latched PPS stamp high word and
  -- the servo's counters (all written by the sequencer or the servo)
  function is_const (a : natural) return boolean is
  begin
    case a is
      when REG_ID_TYPE | REG_ID_VERSION | REG_ID_NEXT | REG_ID_MAGIC | REG_ID_BUILD |
           REG_ID_FEATURES | REG_ID_CLK_HZ | REG_CLOCK_TYPE | REG_CLOCK_VERSION |
           REG_CLOCK_NEXT | REG_PPS_TYPE | REG_PPS_VERSION | REG_PPS_NEXT |
           REG_EVENT_TYPE | REG_EVENT_VERSION | REG_EVENT_NEXT |
           REG_PEROUT_TYPE | REG_PEROUT_VERSION | REG_PEROUT_NEXT |
           REG_CLOCK_CTRL |                 -- never written: reads 0
           REG_CLOCK_TIME_NS_HI | REG_CLOCK_TIME_FRAC |
           REG_EVENT_STAMP_NS_HI | REG_EVENT_STAMP_INFO | REG_PPS_STAMP_NS_HI |
           REG_PPS_OFFSET_NS | REG_PPS_FREQ_ADJ |   -- the servo writes them
           REG_PPS_EDGES | REG_PPS_REJECTS | REG_PPS_LOSSES | REG_PPS_STEPS => return true;
      when others => return false;
    end case;
  end function;

  -- The register port's address, decoded by a table in block RAM (one
  -- word per register slot) instead of ~60 address comparators: what a
  -- write does, what a read does, and the writable bits.
  constant WO_BAD : natural := 0;     -- not writable: counted in bad_access
  constant WO_PLAIN : natural := 1;   -- kept in the RAM (its fields only)
  constant WO_CTRL : natural := 2;    -- clock.ctrl commands
  constant WO_PERNS : natural := 3;   -- period_ns, 1..255
  constant WO_PPSCTRL : natural := 4; -- pps.ctrl: mode 3 refused, message
  constant WO_INTERVAL : natural := 5;  -- pps.interval_ns, 2..2^31-1
  constant WO_PPSMW : natural := 6;   -- pps.min_width: message
  constant WO_EVCTRL : natural := 7;  -- event.ctrl: message
  constant WO_EVMW : natural := 8;    -- event.min_width: message
  constant WO_POCTRL : natural := 9;  -- perout.ctrl: five messages
  -- the event ring's registers (event_dma, in front of this block on the
  -- card, takes their writes and ORs ring_ctrl's fields into the read
  -- word): accepted, not kept, not counted; they read their RAM word,
  -- which nothing writes (0). A clock core without event_dma (the SPI
  -- board) reads 0 there, as registers.md says (session 7)
  constant WO_IGN : natural := 10;
  constant RO_BAD : natural := 0;     -- undefined: 0, counted in bad_access
  constant RO_PLAIN : natural := 1;   -- the RAM word
  constant RO_BADACC : natural := 2;  -- bad_access: read, then clear
  constant RO_SNAP : natural := 3;    -- time_ns_lo: snapshot from the timebase
  constant RO_EVSTAT : natural := 4;  -- event.status / overflows
  constant RO_POP : natural := 5;     -- event.stamp_ns_lo: pop
  constant RO_EFF : natural := 6;     -- eff_period_ns / frac: computed
  constant RO_STATUS : natural := 7;  -- pps.status
  constant RO_STAMP : natural := 8;   -- pps.stamp_ns_lo (latches the high word)
  constant RO_GLITCH : natural := 9;  -- pps.glitches
  -- writable bits, by group: the field masks rw_mask uses are uniform over
  -- seven bit groups (0, 2..1, 4..3, 7..5, 15..8, 23..16, 31..24), so the
  -- decode table holds one bit per group and the mask is its expansion, no
  -- decode (session 7; a 3-bit class code decoded into the mask was ~20
  -- LUTs)
  type grp_t is array (0 to 6) of natural;
  constant GRP_LO : grp_t := (0, 1, 3, 5, 8, 16, 24);
  constant GRP_HI : grp_t := (0, 2, 4, 7, 15, 23, 31);
  function grp_mask (g : std_logic_vector(6 downto 0)) return word is
    variable m : word := (others => '0');
  begin
    for k in 0 to 6 loop
      m(GRP_HI(k) downto GRP_LO(k)) := (others => g(k));
    end loop;
    return m;
  end function;
  function mask_grp (m : word) return std_logic_vector is
    variable g : std_logic_vector(6 downto 0);
  begin
    for k in 0 to 6 loop
      g(k) := m(GRP_LO(k));
    end loop;
    return g;
  end function;
  function wop_of (a : natural) return natural is
  begin
    case a is
      when REG_CLOCK_CTRL => return WO_CTRL;
      when REG_CLOCK_PERIOD_NS => return WO_PERNS;
      when REG_PPS_CTRL => return WO_PPSCTRL;
      when REG_PPS_INTERVAL_NS => return WO_INTERVAL;
      when REG_PPS_MIN_WIDTH => return WO_PPSMW;
      when REG_EVENT_CTRL => return WO_EVCTRL;
      when REG_EVENT_MIN_WIDTH => return WO_EVMW;
      when REG_PEROUT_CTRL => return WO_POCTRL;
      when REG_EVENT_RING_BASE | REG_EVENT_RING_CTRL | REG_EVENT_RING_RD => return WO_IGN;
      when others =>
        if rw_mask(a) /= x"00000000" then return WO_PLAIN; else return WO_BAD; end if;
    end case;
  end function;
  function rop_of (a : natural) return natural is
  begin
    case a is
      when REG_ID_BAD_ACCESS => return RO_BADACC;
      when REG_CLOCK_TIME_NS_LO => return RO_SNAP;
      when REG_EVENT_STATUS | REG_EVENT_OVERFLOWS => return RO_EVSTAT;
      when REG_EVENT_STAMP_NS_LO => return RO_POP;
      when REG_CLOCK_EFF_PERIOD_NS | REG_CLOCK_EFF_PERIOD_FRAC => return RO_EFF;
      when REG_PPS_STATUS => return RO_STATUS;
      when REG_PPS_STAMP_NS_LO => return RO_STAMP;
      when REG_PPS_GLITCHES => return RO_GLITCH;
      when REG_EVENT_RING_BASE | REG_EVENT_RING_CTRL | REG_EVENT_RING_RD => return RO_PLAIN;
      when others =>
        if rw_mask(a) /= x"00000000" or is_const(a) then return RO_PLAIN; else return RO_BAD; end if;
    end case;
  end function;
  -- the RAM word a message's data comes from
  function word_of_msg (k : natural; srv : std_logic) return natural is
  begin
    case k is
      when M_SET_LO => return REG_CLOCK_SET_NS_LO / 4;
      when M_SET_HI => return REG_CLOCK_SET_NS_HI / 4;
      when M_SET_FRAC => return REG_CLOCK_SET_FRAC / 4;
      when M_ADJ_LO =>
        if srv = '1' then return SL_STEP_LO; else return REG_CLOCK_ADJ_NS_LO / 4; end if;
      when M_ADJ_HI =>
        if srv = '1' then return SL_STEP_HI; else return REG_CLOCK_ADJ_NS_HI / 4; end if;
      when M_PER_NS => return REG_CLOCK_EFF_PERIOD_NS / 4;
      when M_PER_FRAC => return REG_CLOCK_EFF_PERIOD_FRAC / 4;
      when M_CMD => return 128 + SL_CMD_WORDS;   -- + cmd (MSGW)
      when M_PPS_CFG => return REG_PPS_CTRL / 4;
      when M_PPS_MINW => return REG_PPS_MIN_WIDTH / 4;
      when M_EV_CFG => return REG_EVENT_CTRL / 4;
      when M_EV_MINW => return REG_EVENT_MIN_WIDTH / 4;
      when M_PO_LO => return REG_PEROUT_START_NS_LO / 4;
      when M_PO_HI => return REG_PEROUT_START_NS_HI / 4;
      when M_PO_PERIOD => return REG_PEROUT_PERIOD_NS / 4;
      when M_PO_WIDTH => return REG_PEROUT_WIDTH_NS / 4;
      when others => return REG_PEROUT_CTRL / 4;
    end case;
  end function;
  -- the message after k in its run (k itself: k is the run's last). The
  -- runs: SET_LO..SET_FRAC, ADJ_LO..ADJ_HI and then the command (an
  -- adjustment is always followed by M_CMD), PER_NS..PER_FRAC,
  -- PO_LO..PO_ARM; every other message goes alone
  function msg_next (k : natural) return natural is
  begin
    case k is
      when M_SET_LO | M_SET_HI | M_ADJ_LO | M_PER_NS |
           M_PO_LO | M_PO_HI | M_PO_PERIOD | M_PO_WIDTH => return k + 1;
      when M_ADJ_HI => return M_CMD;
      when others => return k;
    end case;
  end function;
  function to_sl (b : natural) return std_logic is
  begin
    if b = 0 then return '0'; else return '1'; end if;
  end function;
  subtype dec_t is std_logic_vector(15 downto 0);
  type dec_rom_t is array (255 downto 0) of dec_t;
  function dec_table return dec_rom_t is
    variable r : dec_rom_t;
  begin
    for i in 0 to 127 loop
      assert grp_mask(mask_grp(rw_mask(i * 4))) = rw_mask(i * 4)
        report "clock_regs: a writable register's field mask is not uniform over the bit groups"
        severity failure;
      assert ((i < SL_FIRST_OWN or i > SL_LAST_OWN) and
              (i < SL_CMD_WORDS or i > SL_CMD_WORDS + 7)) or
             (wop_of(i * 4) = WO_BAD and rop_of(i * 4) = RO_BAD)
        report "clock_regs: a register moved onto the sequencer's own words" severity failure;
      r(i) := '0' & mask_grp(rw_mask(i * 4)) &
              std_logic_vector(to_unsigned(rop_of(i * 4), 4)) &
              std_logic_vector(to_unsigned(wop_of(i * 4), 4));
    end loop;
    -- the upper half: message k's RAM word (word_of_msg, bits 7..0; with
    -- bit 14 the command's number is ORed in), the next message of its
    -- run (bits 12..8) and whether k is the run's last (bit 13), entry
    -- 128 + 32 * srv + k, read while messages run (session 7: the function
    -- of k_r and servo_step in front of rslot was ~40 LUTs; session 13: a
    -- run's end register, its compare and the increment were ~50)
    for i in 0 to 127 loop
      r(128 + i) := (others => '0');
      r(128 + i)(7 downto 0) :=
        std_logic_vector(to_unsigned(word_of_msg(i mod 32, to_sl((i / 32) mod 2)), 8));
      r(128 + i)(12 downto 8) := std_logic_vector(to_unsigned(msg_next(i mod 32), 5));
      r(128 + i)(13) := to_sl(boolean'pos(msg_next(i mod 32) = i mod 32));
      r(128 + i)(14) := to_sl(boolean'pos(i mod 32 = M_CMD));
    end loop;
    return r;
  end function;
  constant DEC_ROM : dec_rom_t := dec_table;
  signal dec_a : std_logic_vector(7 downto 0);
  signal dec_q : dec_t;      -- no initial value: see ram_q
  signal wop, rop : natural range 0 to 15;
  signal out_of_win : std_logic;

  -- RAM: 256 words. Slots 0..127 are the register words (byte address /
  -- 4) plus a few words no register uses (below); slots 128..255 hold the
  -- reset values. The name ends in _nrw: hdl/boards/ghdl_verilog.sh marks
  -- such memories no_rw_check for Yosys (no read-first emulation logic),
  -- so the sequencer never uses a word read in the clock it is written.
  type ram_t is array (255 downto 0) of word;
  function defaults return ram_t is
    variable r : ram_t := (others => (others => '0'));
  begin
    for n in 0 to INIT_WORDS - 1 loop
      r(128 + init_addr(n) / 4) := init_val(n);
    end loop;
    -- the command words (bit C_* set), read as M_CMD's word; the INIT copy
    -- puts them into words no register uses too (asserted in dec_table)
    for c in 0 to 5 loop
      r(128 + SL_CMD_WORDS + c) := std_logic_vector(shift_left(to_unsigned(1, 32), c));
    end loop;
    return r;
  end function;
  signal regs_nrw : ram_t := defaults;
  -- the same words again, read by the PPS servo for its parameters (a
  -- second block RAM with the same writes: iCE40 RAMs have one read port).
  -- _nrw (session 6; the read-first bypass Yosys built for it was 32 LUTs
  -- and 32 flip-flops): the word read in a clock that writes it is
  -- undefined. The servo uses par_q only from the clock after it names a
  -- word, in an operation that reads it over two clocks (low half, high
  -- half); the words the register file writes on its own are the PPS
  -- stamp (not while the servo reads it: stamp_busy) and the servo's
  -- results and counters (only while the servo waits for cnt_ack, reading
  -- nothing). What is left is software writing a servo parameter in the
  -- very clock the servo reads it: that read was torn (one half old, one
  -- half new) with the bypass too, so an edge that meets it was off either
  -- way (a 1-2 clock window per edge, ~1 in 10^7 of the time).
  type pram_t is array (127 downto 0) of word;
  signal pram_nrw : pram_t;
  signal s_par : par_t;
  signal pram_rslot : natural range 0 to 127;
  -- The RAMs' read registers (pram_q, ram_q, dec_q) have no initial
  -- value on purpose: a block RAM's output register has none, and Yosys
  -- emulated the VHDL one with a power-up flip-flop gating every output
  -- bit (32 LUTs per 32-bit port, measured, session 6). Every use is
  -- clocks after reset (the 128-clock INIT copy reads the RAM first).
  signal pram_q : word;
  signal ram_q : word;
  -- the register RAM's read address, a function of the state (raddr)
  signal raddr : std_logic_vector(7 downto 0);

  constant SL_ZERO    : natural := REG_CLOCK_CTRL / 4;  -- never written
  constant SL_BAD     : natural := REG_ID_BAD_ACCESS / 4;


  -- the write path: RAM(w_slot) <= (ram_q if w_aen) + source + carry,
  -- masked to 8 bits for eff_period_ns; w_sat drops the write when it
  -- carries out (bad_access saturates)
  type src_t is (X_ZERO, X_WDATA, X_RAMQ, X_SEXT, X_CNT, X_RESP, X_STATUS);
  signal w_en, w_aen, w_cin, w_cy, w_m8, w_sat : std_logic := '0';
  signal w_slot : natural range 0 to 127 := 0;
  signal w_src : src_t := X_ZERO;
  signal srcv, wdata : word;
  signal sel_s : std_logic;
  -- software's word (its fields) and the answer word, registered in the
  -- clock the sequencer decides to write them (src_w: DEC of a write;
  -- src_rsp: take_word's branch of IDLE or WAITR), so the written word is
  -- src_r OR the sum and that OR is one LUT input more on the sum's carry
  -- LUT (opt_lut's dlogic merge): one LUT a bit instead of two (session
  -- 20; a registered select instead of the decoded w_src still left ABC
  -- free to fold the select into each bit's LUT, and it did). Both
  -- words are held from that clock to the write's (reg_wdata until
  -- ready, the answer until take_r). src_w is also 1 in a DEC that
  -- refuses the value, and src_rsp in an IDLE that starts an access
  -- instead: no write follows either, so src_r is unused then.
  signal src_r : word := (others => '0');
  signal src_w, src_rsp : std_logic;
  -- the servo's word is taken now (take_cnt in IDLE or WAITR: the
  -- conditions of those branches, combinational), so b_r loads it and the
  -- write in the next clock is ram_q (SL_ZERO, 0) + b_r: the servo's word
  -- is not a source of the written word's AND-OR (session 20: with only
  -- software's word and the answer left there, a bit's source is one LUT
  -- and the OR with the sum goes into the sum's carry LUT, opt_lut's
  -- dlogic merge; b_r's bits 31..8 were flip-flops with no LUT, so the
  -- load's LUT costs no cell). Loaded too when IDLE starts an access
  -- instead (DEC), a clock with no write: harmless.
  signal cnt_ld : std_logic;
  -- the adder's source operand, registered: the source multiplexer and the
  -- carry chain in one clock missed 66 MHz (53 MHz placed). A write that
  -- adds selects its source one step ahead (pre_src) and uses b_r.
  signal b_r : word := (others => '0');
  signal sum : unsigned(32 downto 0);
  signal ram_we, cy_r : std_logic := '0';

  -- the sequencer
  type st_t is (INIT, IDLE, DEC, FIN, RD, ENDS, BAD2, PICK, FETCH, OFFER, WAITR,
                E1, E2, E3, CMDW, G1, G2, STL2, STL3, MSGW, MACK);
  -- no initial value: so Yosys' FSM pass recodes st (one-hot: -27 LUTs,
  -- +16 flip-flops, session 13; it leaves registers with one alone). rst
  -- sets INIT, and it is asserted after configuration (bitstream.md
  -- "Resets"); simulation starts at INIT, the type's first value
  signal st : st_t;
  type cont_t is (C_END, C_WAIT, C_SERVO);
  signal cont : cont_t := C_END;
  -- the word the access returns; in INIT the word copied (session 21:
  -- the copy's own count init_n was a second source of raddr and w_slot)
  signal tslot : natural range 0 to 127 := 0;
  signal badf, rd_bad, eff_cmd : std_logic := '0';
  -- the last word of the answer an access waits for
  signal wait_d : std_logic_vector(3 downto 0) := D_TIME_FRAC;
  signal cmd : natural range 0 to 5 := 0;
  -- the message being sent (m_have): its run goes on as the decode
  -- table's upper half says
  signal k_r : msg_addr_t := 0;
  signal m_have : std_logic := '0';
  signal servo_step : std_logic := '0';
  signal ready, take_r : std_logic := '0';
  signal pps_ctrl : std_logic_vector(2 downto 0) := PPS_CTRL_RESET(2 downto 0);
  signal stamp_new : std_logic := '0';
  -- between the servo's two stamp words no access starts (a read of
  -- stamp_ns_lo copies both: it must not see half a stamp)
  signal stamp_lock : std_logic := '0';
  signal sv_stamp : std_logic := '0';
  -- the last count seen and how often it wrapped make the 32-bit total


  -- servo
  signal s_state : std_logic_vector(1 downto 0);
  signal s_present, s_step_req, s_freq_req, s_ack : std_logic;
  signal s_cnt_req : std_logic;
  signal s_cnt_sel : par_t;
  signal s_cnt_val : word;
  signal s_cnt_ack : std_logic := '0';
  signal stamp_valid : std_logic;
  -- the servo reads the PPS stamp's two words (SL_PPS_LO/HI) from its
  -- copy of the RAM: no answer word is taken until it has (a new PPS
  -- answer would overwrite them; it waits in the crossing, < 30 clocks)
  signal s_stamp_busy : std_logic;

begin
  assert PPS_STATUS_STATE_LSB = 0 and PPS_STATUS_STATE_WIDTH = 2 and
         PPS_STATUS_PRESENT_LSB = 2 and PPS_STATUS_STAMP_NEW_LSB = 3
    report "clock_regs: pps.status layout changed in the register map" severity failure;

  -- the decode table, read every clock at the port's address (the
  -- sequencer looks at it one clock after valid: DEC)
  -- while messages run (m_have) the table's upper half gives the message's
  -- RAM word (MSGW uses it) and the next message (MACK); DEC, which uses
  -- the lower half, never runs with m_have (IDLE, in the clock before DEC,
  -- reads reg_addr's entry), and the write that DEC starts reads its field
  -- mask in the clock after DEC, from the entry read in DEC
  dec_a <= "10" & servo_step & std_logic_vector(to_unsigned(k_r, 5)) when m_have = '1' else
           '0' & reg_addr(8 downto 2);
  decode : process (clk)
  begin
    if rising_edge(clk) then
      dec_q <= DEC_ROM(to_integer(unsigned(dec_a)));
    end if;
  end process;
  -- the clock core's window is 0x000..0x1FF; the card decodes the rest
  out_of_win <= '0' when reg_addr(11 downto 9) = "000" else '1';
  wop <= WO_BAD when out_of_win = '1' else to_integer(unsigned(dec_q(3 downto 0)));
  rop <= RO_BAD when out_of_win = '1' else to_integer(unsigned(dec_q(7 downto 4)));

  servo : entity work.pps_servo
    port map (
      clk => clk, rst => rst, mode => pps_ctrl(1 downto 0),
      par => s_par, par_q => pram_q,
      stamp_valid => stamp_valid, stamp_busy => s_stamp_busy, us_tick => us_tick,
      accepted => open, step_req => s_step_req,
      freq_req => s_freq_req, req_ack => s_ack,
      state => s_state, present => s_present,
      cnt_req => s_cnt_req, cnt_sel => s_cnt_sel,
      cnt_val => s_cnt_val, cnt_ack => s_cnt_ack);
  pps_locked <= '1' when s_state = "10" else '0';

  -- a PPS answer is taken at once (the servo latches the stamp, the glitch
  -- count is folded in); the other answers when the sequencer has written
  -- their words into the RAM
  stamp_valid <= sv_stamp;
  resp_take <= take_r;


  -- The write source as an AND-OR of selects decoded once from w_src:
  -- software's write data (its fields only) and an answer word (src_r),
  -- pps.status (live in the write's clock, as before; a command word is a
  -- RAM constant since session 13: MSGW; the servo's word comes through
  -- b_r: cnt_ld). X_ZERO, X_RAMQ, X_SEXT and X_CNT give 0 here.
  src_w <= '1' when st = DEC and reg_write = '1' else '0';
  src_rsp <= '1' when (st = WAITR or (st = IDLE and rd_bad = '0')) and resp_pend = '1' and
                      take_r = '0' and s_stamp_busy = '0' else '0';
  srcreg : process (clk)
  begin
    if rising_edge(clk) then
      -- (dec_q in DEC is reg_addr's entry: IDLE read it)
      src_r <= (reg_wdata and grp_mask(dec_q(14 downto 8)) and (31 downto 0 => src_w)) or
               (resp(31 downto 0) and (31 downto 0 => src_rsp));
    end if;
  end process;
  sel_s <= '1' when w_src = X_STATUS else '0';
  srcv <= src_r or
          (x"0000000" & ((stamp_new & s_present & s_state) and (3 downto 0 => sel_s)));

  -- take_cnt's branch of IDLE and of WAITR (an answer word goes first in
  -- both, IDLE's bad_access clear before it; see seq)
  cnt_ld <= '1' when (st = IDLE or st = WAITR) and s_cnt_req = '1' and s_cnt_ack = '0' and
                     not (resp_pend = '1' and take_r = '0' and s_stamp_busy = '0') and
                     not (st = IDLE and rd_bad = '1') else '0';
  -- The register RAM's read address as a function of the state, not a
  -- register the sequencer loads (session 21: rslot's next-value
  -- multiplexer, ~14 assignments over the states and the read decode, was
  -- ~45 LUTs and 8 flip-flops). A word read in a clock (ram_q in the next)
  -- is either added by a write the same state starts (its word is the
  -- state's constant: E2, E3, G2, STL2, STL3, BAD2), loaded into b_r (E1,
  -- G1), returned (FIN: tslot; a bad_access read's tslot is SL_BAD, a bad
  -- read's SL_ZERO), offered as a message (FETCH..MACK: the decode table's
  -- upper half, held in dec_q until MACK's acknowledge) or copied (INIT);
  -- every other state reads SL_ZERO, which a write without add needs
  -- (IDLE, DEC, WAITR) and the rest do not read (PICK, MSGW, CMDW, ENDS,
  -- RD: no write starts there). Each state reads what it read before:
  -- the constant rslot was set to on the way in, now named by the state.
  rsel : process (st, tslot, dec_q, cmd)
  begin
    case st is
      when INIT => raddr <= '1' & std_logic_vector(to_unsigned(tslot, 7));
      when E1 => raddr <= std_logic_vector(to_unsigned(REG_PPS_FREQ_ADJ / 4, 8));
      when E2 => raddr <= std_logic_vector(to_unsigned(REG_CLOCK_PERIOD_FRAC / 4, 8));
      when E3 => raddr <= std_logic_vector(to_unsigned(REG_CLOCK_PERIOD_NS / 4, 8));
      when G1 => raddr <= std_logic_vector(to_unsigned(SL_FILT, 8));
      when G2 => raddr <= std_logic_vector(to_unsigned(SL_GAP, 8));
      when STL2 => raddr <= std_logic_vector(to_unsigned(SL_STLO, 8));
      when STL3 => raddr <= std_logic_vector(to_unsigned(SL_STHI, 8));
      when BAD2 => raddr <= std_logic_vector(to_unsigned(SL_BAD, 8));
      when FIN => raddr <= std_logic_vector(to_unsigned(tslot, 8));
      when FETCH | OFFER | MACK =>
        raddr <= dec_q(7 downto 0) or
                 ("00000" & (std_logic_vector(to_unsigned(cmd, 3)) and (2 downto 0 => dec_q(14))));
      when others => raddr <= std_logic_vector(to_unsigned(SL_ZERO, 8));
    end case;
  end process;
  sum <= unsigned('0' & ram_q) + unsigned('0' & b_r) +
         unsigned'(0 => w_cin or (w_cy and cy_r));
  -- The written word is the sum OR the source, no multiplexer between
  -- them (session 7: it and the source multiplexer's form were ~30 cells):
  -- a write that adds has a source of 0 (X_ZERO, X_RAMQ or X_SEXT), and a
  -- write that does not has a sum of 0: b_r is 0 (w_src was none of
  -- X_RAMQ/X_SEXT a clock before) and ram_q is the word SL_ZERO, because
  -- every state that may start a write without adding reads SL_ZERO
  -- (IDLE, DEC, WAITR: raddr's default). w_aen is kept for the check
  -- below.
  wdata <= srcv or (std_logic_vector(sum(31 downto 9)) & (sum(8) and not w_m8) &
                    std_logic_vector(sum(7 downto 0)));
  -- pragma translate_off
  -- (and session 21: a write of the servo's word, X_CNT, writes the word
  -- the servo showed in the clock of take_cnt, which needs cnt_ld = 1 in
  -- that clock: cnt_ld repeats the sequencer's branch conditions, so a
  -- reordering of IDLE's or WAITR's branches that is not copied into it
  -- would load b_r with 0 and write 0 without this check)
  wcheck : process (clk)
    variable cnt_ld_d : std_logic := '0';
    variable cnt_v_d : word := (others => '0');
  begin
    if rising_edge(clk) then
      if rst = '0' and w_en = '1' and w_src = X_CNT and
         (cnt_ld_d /= '1' or wdata /= cnt_v_d) then
        report "clock_regs: a write of the servo's word (X_CNT) not loaded by cnt_ld " &
               "in the clock before: cnt_ld no longer matches take_cnt's branch"
          severity failure;
      end if;
      cnt_ld_d := cnt_ld;
      cnt_v_d := s_cnt_val;
      if rst = '0' and w_en = '1' and w_aen = '0' and sum(31 downto 0) /= 0 then
        report "clock_regs: a write without add in a clock whose sum is not 0"
          severity failure;
      end if;
      if rst = '0' and w_en = '1' and w_aen = '1' and srcv /= x"00000000" then
        report "clock_regs: an adding write with a source" severity failure;
      end if;
    end if;
  end process;
  -- pragma translate_on
  ram_we <= w_en and not (w_sat and sum(32));

  regram : process (clk)
  begin
    if rising_edge(clk) then
      if ram_we = '1' then
        regs_nrw(w_slot) <= wdata;
      end if;
      ram_q <= regs_nrw(to_integer(unsigned(raddr)));
    end if;
  end process;

  pram_rslot <= s_par;              -- P_* are RAM words
  parram : process (clk)
  begin
    if rising_edge(clk) then
      if ram_we = '1' then
        pram_nrw(w_slot) <= wdata;
      end if;
      pram_q <= pram_nrw(pram_rslot);
    end if;
  end process;

  glitch : process (clk)
  begin
    if rising_edge(clk) then
      cy_r <= sum(32);
      -- the adder's second operand: a RAM word as it was read (freq_adj,
      -- the filter's glitch count), the sign of the operand taken a clock
      -- ago, 8 bits (only eff_period_ns, 8 bits, is a sign extension: the
      -- servo hands the step's high word over itself since session 6), or
      -- 0. Not the write multiplexer's output (session 6 and before): the
      -- operand needs none of its other sources, and for bits 31..8 this
      -- is a flip-flop with a synchronous reset, no LUT (session 7)
      -- (bits 31..8 written as a load or a clear: as the three-way case
      -- Yosys took X_SEXT alone as the reset and kept a LUT per bit for
      -- the rest, session 13)
      -- (w_src is never X_RAMQ or X_SEXT in IDLE or WAITR, where cnt_ld
      -- may be 1: E1/G1 set X_RAMQ, and E2..E3 / G2 follow them)
      if w_src = X_RAMQ then
        b_r(31 downto 8) <= ram_q(31 downto 8);
      elsif cnt_ld = '1' then
        b_r(31 downto 8) <= s_cnt_val(31 downto 8);
      else
        b_r(31 downto 8) <= (others => '0');
      end if;
      case w_src is
        when X_RAMQ => b_r(7 downto 0) <= ram_q(7 downto 0);
        when X_SEXT => b_r(7 downto 0) <= (others => b_r(31));
        when others =>
          if cnt_ld = '1' then
            b_r(7 downto 0) <= s_cnt_val(7 downto 0);
          else
            b_r(7 downto 0) <= (others => '0');
          end if;
      end case;
    end if;
  end process;

  seq : process (clk)
    -- the run of messages that starts with first (msg_next)
    procedure send (first : natural) is
    begin
      k_r <= first; m_have <= '1';
    end procedure;
    procedure wr (slot : natural; src : src_t; aen : std_logic := '0') is
    begin
      w_en <= '1'; w_slot <= slot; w_src <= src; w_aen <= aen;
    end procedure;
    -- an answer word into its RAM word; the crossing is released with the
    -- write (take_r), so the word is taken once
    procedure take_word is
    begin
      wr(slot_of_dest(resp(35 downto 32)), X_RESP); take_r <= '1';
      if resp(35 downto 32) = D_PPS_HI then
        sv_stamp <= '1';        -- the stamp's words are in: the servo may read them
      end if;
    end procedure;
    -- a word from the servo's result port into its RAM word
    procedure take_cnt is
    begin
      wr(s_cnt_sel, X_CNT, '1'); s_cnt_ack <= '1';   -- 0 + b_r (cnt_ld)
      if s_cnt_sel = P_STAMP_LO then
        stamp_lock <= '1';
      end if;
      if s_cnt_sel = P_STAMP_HI then
        stamp_lock <= '0'; stamp_new <= '1';
      end if;
    end procedure;
  begin
    if rising_edge(clk) then
      w_en <= '0'; w_aen <= '0'; w_cin <= '0'; w_cy <= '0'; w_m8 <= '0'; w_sat <= '0';
      ready <= '0'; take_r <= '0'; s_ack <= '0'; s_cnt_ack <= '0'; sv_stamp <= '0';

      case st is
        when INIT =>
          -- copy the reset values (upper half) into the register words:
          -- raddr reads 128 + tslot now, the word is written next clock
          w_src <= X_ZERO;
          wr(tslot, X_ZERO, '1');
          tslot <= (tslot + 1) mod 128;
          if tslot = 127 then
            st <= IDLE;
          end if;

        when IDLE =>
          -- in the clock ready is high the master still holds valid for the
          -- access just finished: starting another here would repeat it
          if rd_bad = '1' then
            -- bad_access read-to-clear, in the clock after the read's
            -- ready (no new access starts in it): a write without add needs
            -- ram_q = 0, which IDLE's raddr gives
            wr(SL_BAD, X_ZERO); rd_bad <= '0';
          elsif reg_valid = '1' and ready = '0' and stamp_lock = '0' then
            -- (the access's word; reg_addr is held until ready, so DEC
            -- uses tslot, not a second path from reg_addr)
            tslot <= to_integer(unsigned(reg_addr(8 downto 2)));
            badf <= '0'; rd_bad <= '0'; eff_cmd <= '0'; cont <= C_END;
            st <= DEC;
          elsif resp_pend = '1' and take_r = '0' and s_stamp_busy = '0' then
            take_word;            -- a PPS answer (nothing else comes unasked)
          elsif s_cnt_req = '1' and s_cnt_ack = '0' then
            -- the servo's counters live in the RAM; it writes them back here
            -- and its results (one word each)
            take_cnt;
          elsif (s_step_req = '1' or s_freq_req = '1') and s_ack = '0' then
            -- (in the clock the ack is out, the servo still shows the request
            -- just served: taking it again would step twice)
            cont <= C_SERVO;
            if s_step_req = '1' then
              -- the step's words are in the RAM (P_STEP_LO, P_STEP_HI)
              -- word is the sign extension
              servo_step <= '1'; cmd <= C_ADJUST; st <= CMDW;
            else
              cmd <= C_PERIOD; eff_cmd <= '1';
              st <= E1;
            end if;
          end if;

        when DEC =>
            if reg_write = '1' then
              -- a writable register keeps what was written (its fields only);
              -- a refused value is not written and counts in bad_access
              case wop is
                when WO_CTRL =>
                  -- one command per write, set before adjust before period
                  if unsigned(reg_wdata(31 downto 3)) /= 0 then badf <= '1'; end if;
                  if reg_wdata(CLOCK_CTRL_SET_LSB) = '1' then
                    -- M_SET_FRAC is the command (clock_tb_domain go_set)
                    send(M_SET_LO);
                    st <= PICK;
                  elsif reg_wdata(CLOCK_CTRL_ADJUST_LSB) = '1' then
                    cmd <= C_ADJUST; servo_step <= '0';
                    send(M_ADJ_LO);
                    st <= PICK;
                  elsif reg_wdata(CLOCK_CTRL_PERIOD_LSB) = '1' then
                    cmd <= C_PERIOD; eff_cmd <= '1';
                    st <= E1;
                  else
                    st <= ENDS;
                  end if;
                when WO_PERNS =>
                  if unsigned(reg_wdata(31 downto 8)) /= 0 or reg_wdata(7 downto 0) = x"00" then
                    badf <= '1'; st <= ENDS;      -- out of 1..255: refused
                  else
                    wr(tslot, X_WDATA); st <= FIN;
                  end if;
                when WO_PPSCTRL =>
                  if reg_wdata(1 downto 0) = "11" then
                    badf <= '1'; st <= ENDS;      -- undefined mode: refused
                  else
                    pps_ctrl <= reg_wdata(2 downto 0);
                    wr(tslot, X_WDATA); send(M_PPS_CFG); st <= PICK;
                  end if;
                when WO_INTERVAL =>
                  -- d < 2 or d >= 2^31, without a carry chain on the write data
                  if reg_wdata(30 downto 1) = (30 downto 1 => '0') or reg_wdata(31) = '1' then
                    badf <= '1'; st <= ENDS;
                  else
                    wr(tslot, X_WDATA); st <= FIN;
                  end if;
                when WO_PPSMW =>
                  wr(tslot, X_WDATA); send(M_PPS_MINW); st <= PICK;
                when WO_EVCTRL =>
                  wr(tslot, X_WDATA); send(M_EV_CFG); st <= PICK;
                when WO_EVMW =>
                  wr(tslot, X_WDATA); send(M_EV_MINW); st <= PICK;
                when WO_POCTRL =>
                  wr(tslot, X_WDATA);
                  send(M_PO_LO);
                  st <= PICK;
                when WO_PLAIN =>
                  wr(tslot, X_WDATA); st <= FIN;
                when WO_IGN =>
                  st <= ENDS;
                when others =>
                  badf <= '1'; st <= ENDS;
              end case;
            else
              case rop is
                when RO_BADACC =>
                  rd_bad <= '1'; st <= FIN;     -- (tslot is SL_BAD)
                when RO_SNAP =>
                  cmd <= C_SNAPSHOT; send(M_CMD);
                  wait_d <= D_TIME_FRAC; cont <= C_WAIT; st <= PICK;
                when RO_EVSTAT =>
                  -- both words (level, overflows) are written; tslot is read
                  cmd <= C_EVSTAT; send(M_CMD);
                  wait_d <= D_EV_OVF; cont <= C_WAIT; st <= PICK;
                when RO_POP =>
                  cmd <= C_POP; send(M_CMD);
                  wait_d <= D_EV_INFO; cont <= C_WAIT; st <= PICK;
                when RO_EFF =>
                  st <= E1;
                when RO_STATUS =>
                  wr(tslot, X_STATUS); st <= RD;
                when RO_STAMP =>
                  -- copy the servo's last stamp, both words (the servo
                  -- writes them only while no access runs: consistent)
                  w_src <= X_ZERO; stamp_new <= '0'; st <= STL2;
                when RO_GLITCH =>
                  -- the servo's gap drops + the filter's drops (both RAM)
                  st <= G1;
                when RO_PLAIN =>
                  st <= FIN;
                when others =>
                  badf <= '1'; tslot <= SL_ZERO; st <= ENDS;
              end case;
            end if;

        -- eff_period = period + the servo's correction, 40 bits in two adds
        when E1 =>
          -- freq_adj (read now) into b_r next
          w_src <= X_RAMQ; st <= E2;
        when E2 =>
          -- adds freq_adj (b_r); selects its sign word for E3
          wr(REG_CLOCK_EFF_PERIOD_FRAC / 4, X_SEXT, '1');
          st <= E3;
        when E3 =>
          wr(REG_CLOCK_EFF_PERIOD_NS / 4, X_ZERO, '1'); w_cy <= '1'; w_m8 <= '1';
          if eff_cmd = '1' then st <= CMDW; else st <= RD; end if;

        when CMDW =>
          if cmd = C_ADJUST then
            send(M_ADJ_LO);
          else
            send(M_PER_NS);   -- M_PER_FRAC starts it
          end if;
          st <= PICK;

        -- glitches = the servo's gap drops (ram_q) + the filter's (b_r)
        when G1 =>
          w_src <= X_RAMQ; st <= G2;
        when G2 =>
          wr(tslot, X_ZERO, '1'); st <= RD;

        -- the stamp copy: each word written as it is read, ram_q + 0 (b_r
        -- is 0: w_src was X_ZERO in the clock before each write)
        when STL2 =>
          wr(tslot, X_ZERO, '1'); st <= STL3;
        when STL3 =>
          wr(REG_PPS_STAMP_NS_HI / 4, X_ZERO, '1'); st <= RD;

        -- messages: read the word, offer it until the crossing takes it
        when PICK =>
          if m_have = '1' then
            st <= MSGW;
          else
            case cont is
              when C_END => st <= ENDS;
              when C_WAIT => st <= WAITR;
              when C_SERVO => s_ack <= '1'; st <= IDLE;
            end case;
          end if;
        when MSGW =>
          st <= FETCH;
        when FETCH =>
          st <= OFFER;
        when OFFER =>
          if msg_ready = '1' then
            st <= MACK;
          end if;
        -- The crossing keeps no copy of the word (session 8: its 37-bit
        -- holding register were flip-flops fed straight from ram_q and
        -- k_r, one logic cell each): the timebase domain reads msg itself
        -- until its acknowledge is back, which is when msg_ready rises
        -- again. So k_r, raddr and the RAM word stay as they are until
        -- then (no write here), and only then does the next message start.
        when MACK =>
          if msg_ready = '1' then
            st <= PICK;
            -- (dec_q: k_r's entry, read since PICK)
            k_r <= to_integer(unsigned(dec_q(12 downto 8)));
            if dec_q(13) = '1' then
              m_have <= '0';
            end if;
          end if;

        -- the answer's words into the RAM as they come (a PPS answer's
        -- too), until the last word of the one this access asked for
        when WAITR =>
          if resp_pend = '1' and take_r = '0' and s_stamp_busy = '0' then
            take_word;
            if resp(35 downto 32) = wait_d then
              st <= RD;
            end if;
          elsif s_cnt_req = '1' and s_cnt_ack = '0' then
            -- the servo's words are taken here too: with a stamp waiting
            -- (stamp_busy) the servo may first have to hand a word over
            -- (the last stamp, a holdover frequency) before it reads the
            -- stamp and lets this access's answer in
            take_cnt;
          end if;

        -- end of an access: count a bad one, then return the word
        when ENDS =>
          if badf = '1' then
            badf <= '0'; w_src <= X_ZERO; st <= BAD2;
          else
            st <= RD;
          end if;
        when BAD2 =>
          wr(SL_BAD, X_ZERO, '1'); w_cin <= '1'; w_sat <= '1'; st <= RD;
        when RD =>
          st <= FIN;
        when FIN =>
          -- ram_q is read at tslot now (the master takes it next clock);
          -- IDLE then reads SL_ZERO (see wdata); a read of bad_access is
          -- cleared from IDLE (rd_bad)
          ready <= '1'; st <= IDLE;
      end case;

      if rst = '1' then
        st <= INIT; tslot <= 0; m_have <= '0'; w_en <= '0'; w_src <= X_ZERO;
        ready <= '0'; take_r <= '0'; s_ack <= '0'; s_cnt_ack <= '0';
        badf <= '0'; rd_bad <= '0'; stamp_new <= '0'; sv_stamp <= '0'; servo_step <= '0'; stamp_lock <= '0';
        pps_ctrl <= PPS_CTRL_RESET(2 downto 0);
      end if;
    end if;
  end process;

  reg_ready <= ready;
  reg_rdata <= ram_q;
  msg_valid <= '1' when st = OFFER else '0';
  msg <= std_logic_vector(to_unsigned(k_r, 5)) & ram_q;
end architecture;
