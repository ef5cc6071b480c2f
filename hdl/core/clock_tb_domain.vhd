-- SPDX-License-Identifier: GPL-2.0-or-later
-- Everything of the clock core that runs on the timebase clock: the counter,
-- PPS and event edge captures, the event FIFO, the periodic output, and the
-- two message ports to the bus domain (see clock_msg_pkg).
--
-- Messages are only accepted while the timebase is idle, so a command never
-- overtakes one in flight and a snapshot requested after a set always sees
-- the new time.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.clock_msg_pkg.all;

entity clock_tb_domain is
  generic (
    N_EVENTS  : positive := 2;
    FIFO_LOG2 : positive := 8;
    CLK_HZ    : natural  := 125_000_000);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    msg_valid  : in  std_logic;
    -- a message waits in the crossing (cdc_handshake b_pending): msg is
    -- stable and stays so until msg_ready takes it
    msg_pend   : in  std_logic;
    msg        : in  std_logic_vector(MSG_W - 1 downto 0);
    msg_ready  : out std_logic;
    resp_valid : out std_logic;
    resp       : out std_logic_vector(RESP_W - 1 downto 0);
    -- the answer word is resp_alt ? resp_data_alt : resp, chosen by the
    -- crossing (cdc_handshake a_alt): its holding register's unused LUTs
    -- are the answer multiplexer's last stage
    resp_alt   : out std_logic;
    resp_data_alt : out std_logic_vector(RESP_W - 1 downto 0);
    resp_ready : in  std_logic;
    us_toggle  : out std_logic;      -- flips every microsecond of this clock
    ev_pending : out std_logic;      -- the event FIFO holds a stamp (a flip-flop)
    pps_in     : in  std_logic;
    event_in   : in  std_logic_vector(N_EVENTS - 1 downto 0);
    perout     : out std_logic;
    time_ns_out : out unsigned(63 downto 0));  -- what the edge captures latch
end entity;

architecture rtl of clock_tb_domain is
  signal time_ns   : unsigned(63 downto 0);
  -- Snapshot: the timebase's fraction chunks are not aligned to time_ns
  -- (that took 144 flip-flops); frac_early runs SNAP_LEAD clocks ahead of
  -- time_ns, so a snapshot latches it (frac_cap) and offers its first word
  -- (time_ns 31..0) exactly SNAP_LEAD clocks later, latching ns 63..32 of
  -- that clock (snap_hi) for its second. The third word, the fraction,
  -- leaves through snap_hi too: it takes frac_cap once the second word is
  -- out, so the answer multiplexer has one source for both. It starts only
  -- when the crossing is free and no other answer is under way, so the
  -- crossing is still free then and takes the word in that clock.
  -- (Taking the fraction from the timebase's frac_skew instead, chunk 1 a
  -- clock after chunk 0, saves the 16 flip-flops that delay frac_early's
  -- chunk 0 but makes SNAP_LEAD 5: a clock read one tb_clk later. That
  -- passed every clock-core test but moved the co-simulation's bus timing
  -- into the stamp engine's open pairing race (docs/stamping-results.md,
  -- 'A mis-pairing': test-cosim slot-line-rate-one-stamp-per-entry
  -- failed), so it waits for that fix. Session 8 tried it again on top of
  -- session 7's pairing by count: the same test still fails, 1 of 150
  -- entries not stamped once, so the race is not closed.)
  constant TB_W : positive := 16;
  constant SNAP_LEAD : positive := 96 / TB_W - 32 / TB_W;   -- >= 2: see rv
  signal frac_early, frac_cap : unsigned(31 downto 0) := (others => '0');
  signal snap_hi : unsigned(31 downto 0) := (others => '0');
  signal time_skew : unsigned(63 downto 0);   -- perout_gen's compare reads these
  signal snap_sh : std_logic_vector(SNAP_LEAD - 1 downto 0) := (others => '0');
  -- Answers leave as 32-bit words (clock_msg_pkg D_*): the answer under way
  -- (busy, its kind and word number: the word's destination) and the word's
  -- valid flag rv, all flip-flops; sent: the crossing took a word in the
  -- clock before, so the next word (or the end) is chosen now.
  signal busy, rv, sent, snap_act : std_logic := '0';
  -- the crossing's ready a clock ago: with no take since (sent = 0) and
  -- none now (rv = 0) the crossing is free now. The snapshot's start
  -- decision uses it instead of resp_ready, which carries tb_rst: tb_rst's
  -- route through that decision into the answer state's enables was the
  -- worst tb_clk path at seeds 1 and 3 of c2dd6e4 (7.90 / 8.04 ns).
  signal ready_q : std_logic := '0';
  -- the word under way is its answer's last (and the PPS stamp's last),
  -- decoded a clock ahead of sent: kind and wi are set at least one clock
  -- before the take that raises sent, and a take follows the previous one
  -- by 4 clocks or more. kind's route through the decode into the answer
  -- state's enables was the worst tb_clk path of the session-5 merge at
  -- seed 2 (8.17 ns).
  signal last_w, last_pps : std_logic := '0';
  -- decoded the same way: the word under way is the snapshot's second
  -- (after it snap_hi takes the fraction) or the PPS stamp's first (after
  -- it the capture shifts the stamp's high word into its low half, so both
  -- words leave from pps_stamp(31 downto 0))
  signal sh_snap, sh_pps, pps_shift : std_logic := '0';
  -- Session 22: the answer multiplexer as an OR of words that are zero
  -- unless chosen (fewer select inputs a bit). wz: the word under way is
  -- its answer's first (wi = 0), kept with wi; s_ei: it is the event
  -- answer's info word (kind 01, wi 2); sh_ev1 decoded a clock ahead like
  -- sh_snap: the event answer's second word is under way. snap_hi is 0
  -- whenever it is not the word under way (cleared at every answer's end,
  -- after the event answer's second word and on reset; loaded only in the
  -- clock its value leaves as word 0 is taken, or after word 0 / 1 is
  -- out), so it enters the OR without a select.
  signal wz, s_ei, sh_ev1 : std_logic := '0';
  -- an event answer started in the clock before: frac_cap takes the
  -- stamp's high word now (not in the start clock: that decision must not
  -- reach frac_cap's enables, see below), snap_hi takes it from frac_cap
  -- once the first word is out (sh_snap), and it leaves from there
  signal ev_ld : std_logic := '0';
  -- an event answer is under way: frac_cap holds the high word until the
  -- answer ends (the first word may wait for the crossing several clocks)
  signal ev_act : std_logic := '0';
  signal kind : std_logic_vector(1 downto 0) := "00";
  signal wi : unsigned(1 downto 0) := "00";
  signal word, word_alt : std_logic_vector(31 downto 0);
  signal tb_valid  : std_logic := '0';
  signal tb_ready  : std_logic;
  signal tb_op     : std_logic_vector(1 downto 0) := "00";
  signal tb_data   : std_logic_vector(95 downto 0);
  -- One staging word for every timebase command: set, adjust and period
  -- data are always sent right before their command (clock_regs) and no
  -- message is taken while a command is in flight, so they never overlap.
  -- The periodic output's start time is staged here too (bits 95..32):
  -- clock_regs sends start, period, width and arm in one burst that no
  -- timebase command can interleave, and perout_gen reads it only on arm.
  -- Session 8: the fraction (bits 31..0: SET's and PERIOD's) is not
  -- staged. Its message is the command itself: while M_SET_FRAC or
  -- M_PER_FRAC waits in the crossing (msg_pend) the timebase is started
  -- on it and reads bits 31..0 straight from msg; msg_ready stays low
  -- until the command is through (go_done and the timebase idle again),
  -- so the word stays put in the crossing that long, and only then is it
  -- taken (and otherwise ignored). 32 lone flip-flops fewer, and SET and
  -- PERIOD need no M_CMD message after their data.
  -- Session 19: only bits 47..32 (the timebase's chunk 2, the period's
  -- whole ns, perout's start chunk 0) are flip-flops; bits 95..48 (48 lone
  -- flip-flops) are two 256 x 16 block RAMs, one per message half:
  -- st_a_nrw word 1 = the HI message's bits 15..0 (79..64: timebase chunk
  -- 4, perout start chunk 2), st_b_nrw word 0 = the LO message's bits
  -- 31..16 (63..48: chunk 3, start chunk 1), word 1 = HI's (95..80: chunk
  -- 5). The RAMs' read registers present them: st_a always word 1, st_b
  -- word 0 but in T5 of a command (timebase clock stage(5): chunk 5 reads
  -- its data then only; chunk 3 reads in T3). perout_gen loads all 48
  -- start bits at the arm, a message, and no message is taken while a
  -- command is in flight. Chunk 2 stays in flip-flops: its period + data
  -- chains (alo, lo) were the worst tb_clk path with a RAM's clock-to-out
  -- in front of them (session 17, 122.16 MHz). Writes a clock after the
  -- strobe (msg is held 3 tb_clk), enable a flip-flop; the word written is
  -- read a message later at the earliest, hence `_nrw`.
  signal stage_r   : std_logic_vector(47 downto 32) := (others => '0');
  type st_mem_t is array (0 to 255) of std_logic_vector(15 downto 0);
  signal st_a_nrw, st_b_nrw : st_mem_t := (others => (others => '0'));
  signal st_is, st_is_hi, st_we, st_hi_b : std_logic := '0';
  signal st_wa, st_ra_a, st_ra_b : std_logic_vector(7 downto 0);
  signal st_qa, st_qb : std_logic_vector(15 downto 0);   -- registered reads
  signal tb_stage : std_logic_vector(96 / TB_W - 1 downto 0);
  -- the waiting message is M_SET_FRAC / M_PER_FRAC, decoded from msg a
  -- clock ahead (msg is stable two clocks before msg_pend rises), and its
  -- command has been started
  signal go_set, go_per, go_done : std_logic := '0';

  -- the PPS capture's configuration (pps.ctrl and pps.min_width as written)
  signal pps_en, pps_fall : std_logic := '0';
  signal pps_minw  : unsigned(15 downto 0) := (others => '0');
  signal ev_cfg    : std_logic_vector(31 downto 0) := (others => '0');
  signal ev_minw   : unsigned(15 downto 0) := to_unsigned(4, 16);
  -- min_width <= 1 of each, kept with it (edge_capture LE1_IN: the two
  -- event captures share one decode)
  signal pps_le1   : std_logic := '1';
  signal ev_le1    : std_logic := '0';
  -- the four input configuration messages, decoded a clock early like
  -- po_is_per (cfg_wr): each register's enable is msg_valid AND one of
  -- these flip-flops, one LUT. Decoded in the strobe's clock inside the
  -- message case, msg_valid -> decode -> decode -> an event capture's
  -- enable flip-flop was the worst tb_clk path of the PCI board at seed 2
  -- of session 20's merge (8.49 ns, 7.1 of it routes)
  signal cf_ppscfg, cf_ppsminw, cf_evcfg, cf_evminw : std_logic := '0';
  -- the rest of the messages the same way (msg_dec): stage_r's write
  -- (M_SET_LO, M_ADJ_LO, M_PO_LO, M_PER_NS), the arm, and M_CMD with each
  -- of its bits (ADJUST, SNAPSHOT, POP, EVSTAT) in one flag, so every
  -- action on a message is msg_valid AND one flip-flop. Decoded in the
  -- strobe's clock, msg_valid fanned out across the chip through these
  -- decodes (6.3 ns of routes through 3 LUTs: the worst tb_clk path of
  -- the PCI board at seed 1 of session 20's tree)
  signal dc_lo, dc_arm, dc_adj, dc_snap, dc_pop, dc_evstat : std_logic := '0';
  -- perout_gen's period and width writes (session 7: they live in its
  -- operand RAMs, not in 64 flip-flops here). The message's address is
  -- decoded a clock early into po_is_per/po_is_wid (loaded every clock, no
  -- reset needed): the message is stable for two tb_clk before its
  -- strobe (cdc_handshake), so the write enables are
  -- msg_valid AND a flip-flop, registered: perout_gen sees the write a
  -- clock after the strobe. (Decoded from the message in the strobe's
  -- clock, msg_valid -> 5 LUT levels -> the RAM's write enable was the
  -- worst tb_clk path of the placed card, 8.0 ns, 125.69 MHz; as
  -- msg_valid AND a flip-flop, 3 LUT levels to the RAM, it was the worst
  -- again in session 11, 8.43 ns on the PCI board. Period and width only
  -- matter at the next arm, a later message, so the clock costs nothing.)
  -- perout_gen takes msg's low half in that clock and the high half in
  -- the next, two clocks after the strobe: msg is
  -- held for at least 3 tb_clk after its strobe (since session 8 by
  -- clock_regs, which changes it only after the acknowledge has crossed
  -- back through two bus-clock flip-flops: state MACK; the crossing keeps
  -- no copy)
  signal po_is_per, po_is_wid : std_logic := '0';
  signal po_wr_period, po_wr_width : std_logic := '0';
  signal po_arm, po_en : std_logic := '0';
  signal po_next   : unsigned(63 downto 0);

  signal pps_stb, pps_glitch : std_logic;
  signal pps_stamp : unsigned(63 downto 0);
  signal ev_stb_nx : std_logic_vector(N_EVENTS - 1 downto 0);
  signal ev_take   : std_logic_vector(N_EVENTS - 1 downto 0);
  signal pop, fq_valid, fq_found : std_logic := '0';
  signal fq_entry : std_logic_vector(82 downto 0);
  signal fq_level : unsigned(FIFO_LOG2 downto 0);
  signal fq_empty : std_logic;
  signal fq_ovf   : unsigned(31 downto 0);

  -- pending responses, sent in this priority order (then pps_is_stamp,
  -- then pps_pend: the filter's glitch count changed)
  signal snap_pend, ev_pend, evstat_pend, pps_pend : std_logic := '0';
  -- a PPS stamp waiting to be sent: the edge capture's own stamp register
  -- is the only copy, held (pps_cap.hold) until the answer has left. An
  -- edge in that time (at most a few microseconds after an accepted one:
  -- the crossing's round trip behind up to three other answers) is noise
  -- on the PPS line and is ignored, not stamped or counted as a glitch.
  signal pps_is_stamp : std_logic := '0';
  signal pps_hold : std_logic;
  -- The PPS glitch count, two 16-bit halves: one 32-bit counter's carry
  -- chain was the worst tb_clk path of the placed card at seed 2 (8.35 ns,
  -- the chain plus the route to its top bits). The high half counts on
  -- glitches_lo's carry out registered a clock late (glo_ones: the low half
  -- is all ones), so both halves change in the glitch's clock and the word
  -- is never read torn. That flag is a clock stale only right after a
  -- glitch, and glitch strobes are never in adjacent clocks (edge_capture:
  -- a count ends in the glitch and the next needs a take first).
  signal glitches_lo, glitches_hi : unsigned(15 downto 0) := (others => '0');
  signal glo_inc   : unsigned(16 downto 0);
  signal glo_ones  : std_logic := '0';
  signal evstat_req : std_logic := '0';

  constant US_DIV : positive := CLK_HZ / 1_000_000;
  signal us_cnt    : natural range 0 to US_DIV - 1 := 0;
  signal us_t      : std_logic := '0';
  signal ev_pend_q : std_logic := '0';
  -- the reset of this process, registered (the domain's reset net is a
  -- long route: see perout_gen); the blocks below register their own
  signal rst_q     : std_logic := '1';
begin
  assert CLK_HZ mod 1_000_000 = 0 report "CLK_HZ must be whole MHz" severity failure;

  tb : entity work.timebase
    generic map (W => TB_W, ADJ_FRAC => false)   -- adjust is whole ns (M_ADJ_LO/HI)
    port map (clk => clk, rst => rst, cmd_valid => tb_valid, cmd_op => tb_op,
              cmd_data => tb_data, cmd_ready => tb_ready, time_ns => time_ns,
              time_frac => open, frac_early => frac_early, time_skew => time_skew,
              frac_skew => open, period => open, cmd_stage => tb_stage);

  msg_ready <= tb_ready and not tb_valid and not ((go_set or go_per) and not go_done);
  -- the command word is the staging register and the waiting message: neither
  -- can change while the command is in flight because no message is taken
  -- until tb_ready.
  -- Layout: SET ns(95..32) frac(31..0); ADJUST ns(95..32) (the timebase
  -- ignores the fraction: ADJ_FRAC false, so M_CMD's word there is harmless);
  -- PERIOD ns(39..32) frac(31..0) (the timebase ignores bits 95..40).
  tb_data <= st_qb & st_qa & st_qb & stage_r & msg(31 downto 0);

  -- the staged ns word's bits 95..48 (see stage_r)
  st_ctl : process (clk)
  begin
    if rising_edge(clk) then
      -- st_b's word 1 is read in T4, so its register shows it in T5
      st_hi_b <= tb_stage(3);
      st_we   <= msg_valid and st_is;
      case to_integer(unsigned(msg(36 downto 32))) is
        when M_SET_LO | M_ADJ_LO | M_PO_LO => st_is <= '1'; st_is_hi <= '0';
        when M_SET_HI | M_ADJ_HI | M_PO_HI => st_is <= '1'; st_is_hi <= '1';
        when others => st_is <= '0'; st_is_hi <= '0';
      end case;
    end if;
  end process;
  st_wa   <= "0000000" & st_is_hi;
  st_ra_a <= "00000001";
  st_ra_b <= "0000000" & st_hi_b;
  -- each memory alone in its process (GHDL 2.0 synthesis, see event_fifo)
  st_ram_a : process (clk)
  begin
    if rising_edge(clk) then
      if st_we = '1' then
        st_a_nrw(to_integer(unsigned(st_wa))) <= msg(15 downto 0);
      end if;
      st_qa <= st_a_nrw(to_integer(unsigned(st_ra_a)));
    end if;
  end process;
  st_ram_b : process (clk)
  begin
    if rising_edge(clk) then
      if st_we = '1' then
        st_b_nrw(to_integer(unsigned(st_wa))) <= msg(31 downto 16);
      end if;
      st_qb <= st_b_nrw(to_integer(unsigned(st_ra_b)));
    end if;
  end process;

  decode : process (clk)
    variable d : std_logic_vector(31 downto 0);
  begin
    if rising_edge(clk) then
      tb_valid <= '0';
      pop      <= '0';
      po_arm   <= '0';
      -- A word was taken in the clock before: the next word of the answer,
      -- or its end. The crossing cannot take another word for at least 4
      -- clocks after a take (its acknowledge comes back through two
      -- bus-clock and two tb_clk synchroniser flops), so rv may stay set
      -- until here and the next word's destination settles long before.
      -- The words of a kind: snapshot and event 0, 1, 2; FIFO state 0, 1;
      -- PPS stamp 0, 1; the glitch count 2.
      sent <= resp_ready and rv;
      ready_q <= resp_ready;
      if (kind(1) = '0' and wi = 2) or (kind(1) = '1' and wi /= 0) then
        last_w <= '1';
      else
        last_w <= '0';
      end if;
      if kind = "11" and wi = 1 then
        last_pps <= '1';
      else
        last_pps <= '0';
      end if;
      if (kind = "00" and wi = 1) or (kind = "01" and wi = 0) then
        sh_snap <= '1';
      else
        sh_snap <= '0';
      end if;
      if kind = "11" and wi = 0 then
        sh_pps <= '1';
      else
        sh_pps <= '0';
      end if;
      if kind = "01" and wi = 1 then
        sh_ev1 <= '1';
      else
        sh_ev1 <= '0';
      end if;
      if sent = '1' and sh_snap = '1' then
        -- the snapshot's fraction (its last word), or the event stamp's
        -- high word (frac_cap took it after the answer started)
        snap_hi <= frac_cap;
      end if;
      if sent = '1' and (last_w = '1' or sh_ev1 = '1') then
        snap_hi <= (others => '0');  -- not the next word: out of the OR
      end if;
      if sent = '1' then
        if last_w = '1' then
          busy <= '0'; rv <= '0'; snap_act <= '0'; ev_act <= '0';
          if last_pps = '1' then
            pps_is_stamp <= '0';     -- the stamp is out: the capture may go on
          end if;
        else
          wi <= wi + 1;
          wz <= '0';
          s_ei <= sh_ev1;
        end if;
      end if;

      -- the message's actions, each on msg_valid AND its flag (msg_dec).
      -- M_SET_HI / M_ADJ_HI / M_PO_HI: st_ctl; M_SET_FRAC / M_PER_FRAC:
      -- used while they wait (go_*); the input configuration: cfg_wr;
      -- perout's period and width: po_dec
      if msg_valid = '1' then
        d := msg(31 downto 0);
        if dc_lo = '1' then
          -- PERIOD: the timebase reads bits 39..32 only, so the whole ns
          -- word goes in unmasked (no multiplexer on bits 47..40); bits
          -- 95..48 go to st_a_nrw / st_b_nrw (st_ctl)
          stage_r <= d(15 downto 0);
        end if;
        if dc_arm = '1' then
          po_arm <= '1'; po_en <= d(0);
        end if;
        -- M_CMD (SET and PERIOD start on their fraction's message: go_*)
        if dc_adj = '1' then
          tb_valid <= '1'; tb_op <= "01";
        end if;
        if dc_snap = '1' then
          snap_pend <= '1';     -- the time is taken below
        end if;
        if dc_pop = '1' then
          pop <= '1';
        end if;
        if dc_evstat = '1' then
          evstat_pend <= '1';
        end if;
      end if;

      -- SET / PERIOD on the waiting fraction message (see stage_r); a
      -- message is taken only with msg_ready, never in a clock with
      -- msg_pend and this start
      if msg_valid = '1' then
        go_done <= '0';
      elsif msg_pend = '1' and (go_set or go_per) = '1' and go_done = '0' and
            tb_ready = '1' then
        tb_valid <= '1'; go_done <= '1';
        if go_set = '1' then
          tb_op <= "00";
        else
          tb_op <= "10";
        end if;
      end if;

      if fq_valid = '1' then
        ev_pend <= '1';             -- the FIFO holds the entry until the next pop
      end if;

      glo_ones <= glo_inc(16);
      if pps_glitch = '1' then
        glitches_lo <= glo_inc(15 downto 0);
        if glo_ones = '1' then
          glitches_hi <= glitches_hi + 1;
        end if;
      end if;

      -- snapshot: fraction now, the first word SNAP_LEAD clocks later; only
      -- when the crossing is free, takes nothing in this clock and no other
      -- answer is under way (frac_cap follows frac_early whenever no
      -- snapshot or event answer is under way, so it holds the start
      -- clock's value: its 32 enables do not hang on the start decision,
      -- which was a 8.8 ns tb_clk path at seed 2)
      ev_ld <= '0';
      if ev_ld = '1' then
        -- busy with an event answer: no snapshot under way
        frac_cap <= unsigned(fq_entry(63 downto 32));
      else
        if snap_act = '0' and ev_act = '0' then
          frac_cap <= frac_early;
        end if;
      end if;
      snap_sh <= snap_sh(SNAP_LEAD - 2 downto 0) & '0';
      if snap_sh(SNAP_LEAD - 2) = '1' then
        rv <= '1';                   -- the first word, in the next clock
      end if;
      if snap_sh(SNAP_LEAD - 1) = '1' then
        snap_hi <= time_ns(63 downto 32);   -- the clock word 0 is taken
      end if;
      -- the next answer (priority: snapshot, event, FIFO state, PPS); its
      -- flag is cleared as it starts, so a flag raised again below (in this
      -- clock or later) makes another answer after this one
      if busy = '0' then
        if snap_pend = '1' then
          if ready_q = '1' and sent = '0' and rv = '0' then
            snap_pend <= '0'; busy <= '1'; snap_act <= '1';
            kind <= "00"; wi <= "00"; wz <= '1'; s_ei <= '0';
            snap_sh(0) <= '1';
          end if;
        elsif ev_pend = '1' then
          ev_pend <= '0'; busy <= '1'; rv <= '1'; kind <= "01"; wi <= "00";
          wz <= '1'; s_ei <= '0';
          ev_ld <= '1'; ev_act <= '1';
        elsif evstat_pend = '1' then
          evstat_pend <= '0'; busy <= '1'; rv <= '1'; kind <= "10"; wi <= "00";
        elsif pps_is_stamp = '1' then
          -- (its flag is cleared at its end: it also holds the capture)
          busy <= '1'; rv <= '1'; kind <= "11"; wi <= "00";
        elsif pps_pend = '1' then
          pps_pend <= '0'; busy <= '1'; rv <= '1'; kind <= "11"; wi <= "10";
        end if;
      end if;

      -- a new PPS stamp, or a width glitch (an answer with the new count
      -- follows): after the start above, so a glitch that comes in the
      -- clock its answer starts is sent in a later one. (A stamp cannot
      -- come while one is under way: the capture is held until its last
      -- word.)
      if pps_stb = '1' then
        pps_is_stamp <= '1';
      end if;
      if pps_glitch = '1' then
        pps_pend <= '1';
      end if;


      -- for event_dma: a level from a flip-flop, so the bus domain's
      -- synchroniser sees no glitch; the FIFO's empty flag is level = 0
      -- in the same clock (session 22: was a compare of the level)
      ev_pend_q <= not fq_empty;

      if us_cnt = US_DIV - 1 then
        us_cnt <= 0;
        us_t <= not us_t;
      else
        us_cnt <= us_cnt + 1;
      end if;

      rst_q <= rst;
      if rst_q = '1' then
        snap_pend <= '0'; ev_pend <= '0'; evstat_pend <= '0'; pps_pend <= '0';
        snap_sh <= (others => '0');
        busy <= '0'; rv <= '0'; sent <= '0'; snap_act <= '0';
        snap_hi <= (others => '0');
        pps_is_stamp <= '0';
        ev_ld <= '0'; ev_act <= '0';
        glitches_lo <= (others => '0');
        glitches_hi <= (others => '0');
        glo_ones <= '0';
        go_done <= '0';
      end if;
    end if;
  end process;
  -- The word is selected by the flip-flops above (its destination) and
  -- latched by cdc_handshake in the clock it is taken (resp_valid and
  -- resp_ready), so it is held once, in the crossing. resp_valid is a
  -- flip-flop: with the pending flags decoded in front of it, it drove the
  -- crossing's clock enables through 4 LUT levels and a global buffer
  -- (9.04 ns, the worst tb_clk path at seed 2 of the 98-bit answer).
  -- Every word but the snapshot's first is held until the answer ends: the
  -- FIFO keeps its entry until the next pop, the PPS capture its stamp
  -- (hold), snap_hi and frac_cap their values; the FIFO state and the
  -- glitch count are read as they are when their word leaves.
  -- from the strobe (edge_capture registers hold) until the answer leaves
  pps_hold <= pps_stb or pps_is_stamp;
  resp_valid <= rv;
  glo_inc <= ('0' & glitches_lo) + 1;
  cfg_wr : process (clk)
    variable d : std_logic_vector(31 downto 0);
  begin
    if rising_edge(clk) then
      d := msg(31 downto 0);
      if to_integer(unsigned(msg(36 downto 32))) = M_PPS_CFG then cf_ppscfg <= '1'; else cf_ppscfg <= '0'; end if;
      if to_integer(unsigned(msg(36 downto 32))) = M_PPS_MINW then cf_ppsminw <= '1'; else cf_ppsminw <= '0'; end if;
      if to_integer(unsigned(msg(36 downto 32))) = M_EV_CFG then cf_evcfg <= '1'; else cf_evcfg <= '0'; end if;
      if to_integer(unsigned(msg(36 downto 32))) = M_EV_MINW then cf_evminw <= '1'; else cf_evminw <= '0'; end if;
      if msg_valid = '1' and cf_ppscfg = '1' then
        pps_en <= d(0) or d(1); pps_fall <= d(2);
      end if;
      if msg_valid = '1' and cf_ppsminw = '1' then
        pps_minw <= unsigned(d(15 downto 0));
        pps_le1 <= '1' when d(15 downto 1) = (15 downto 1 => '0') else '0';
      end if;
      if msg_valid = '1' and cf_evcfg = '1' then
        ev_cfg <= d;
      end if;
      if msg_valid = '1' and cf_evminw = '1' then
        ev_minw <= unsigned(d(15 downto 0));
        ev_le1 <= '1' when d(15 downto 1) = (15 downto 1 => '0') else '0';
      end if;
      if rst_q = '1' then
        pps_en <= '0'; pps_fall <= '0'; pps_minw <= (others => '0'); pps_le1 <= '1';
        ev_cfg <= (others => '0');
      end if;
    end if;
  end process;

  -- see dc_lo: msg is stable for two clocks before its strobe, so these
  -- flags (loaded every clock, no reset needed) show its message then
  msg_dec : process (clk)
    variable a : msg_addr_t;
    variable cmd : boolean;
  begin
    if rising_edge(clk) then
      a := to_integer(unsigned(msg(36 downto 32)));
      cmd := a = M_CMD;
      dc_lo <= '0'; dc_arm <= '0';
      case a is
        when M_SET_LO | M_ADJ_LO | M_PO_LO | M_PER_NS => dc_lo <= '1';
        when M_PO_ARM => dc_arm <= '1';
        when others => null;
      end case;
      dc_adj    <= '1' when cmd and msg(C_ADJUST) = '1' else '0';
      dc_snap   <= '1' when cmd and msg(C_SNAPSHOT) = '1' else '0';
      dc_pop    <= '1' when cmd and msg(C_POP) = '1' else '0';
      dc_evstat <= '1' when cmd and msg(C_EVSTAT) = '1' else '0';
    end if;
  end process;

  po_dec : process (clk)
  begin
    if rising_edge(clk) then
      po_wr_period <= msg_valid and po_is_per;
      po_wr_width  <= msg_valid and po_is_wid;
      if to_integer(unsigned(msg(36 downto 32))) = M_PO_PERIOD then
        po_is_per <= '1';
      else
        po_is_per <= '0';
      end if;
      if to_integer(unsigned(msg(36 downto 32))) = M_PO_WIDTH then
        po_is_wid <= '1';
      else
        po_is_wid <= '0';
      end if;
      if to_integer(unsigned(msg(36 downto 32))) = M_SET_FRAC then
        go_set <= '1';
      else
        go_set <= '0';
      end if;
      if to_integer(unsigned(msg(36 downto 32))) = M_PER_FRAC then
        go_per <= '1';
      else
        go_per <= '0';
      end if;
    end if;
  end process;
  -- seven sources (eleven until session 6: the snapshot's fraction now
  -- leaves through snap_hi, the PPS stamp's high word through the
  -- capture's low half)
  pps_shift <= sent and sh_pps;
  -- kinds 00 and 01 here, 10 and 11 in word_alt; the crossing picks one
  -- by kind(1) (resp_alt)
  answer_word : process (all)
    variable w_first, w_info : std_logic_vector(31 downto 0);
  begin
    -- D_TIME_LO, D_TIME_HI, D_TIME_FRAC; D_EV_LO, D_EV_HI, D_EV_INFO:
    -- first words (wz) OR snap_hi (0 unless it is the word) OR the info
    -- word (s_ei); kinds 1x leave by word_alt, this word is unused then
    w_first := (others => '0');
    if wz = '1' then
      if kind(0) = '0' then
        w_first := std_logic_vector(time_ns(31 downto 0));
      else
        w_first := fq_entry(31 downto 0);
      end if;
    end if;
    w_info := (others => '0');
    if s_ei = '1' then
      -- event.stamp_info: valid(31), seq(23..8), channel(2..0)
      w_info := fq_found & "0000000" & fq_entry(82 downto 67) & "00000" & fq_entry(66 downto 64);
    end if;
    word <= w_first or std_logic_vector(snap_hi) or w_info;
    if kind(0) = '0' then            -- D_EV_LEVEL, D_EV_OVF
      if wi = 0 then
        word_alt <= std_logic_vector(resize(fq_level, 32));
      else
        word_alt <= std_logic_vector(fq_ovf);
      end if;
    else                             -- D_PPS_LO, D_PPS_HI, D_PPS_FILT
      if wi(1) = '0' then
        word_alt <= std_logic_vector(pps_stamp(31 downto 0));
      else
        word_alt <= std_logic_vector(glitches_hi & glitches_lo);
      end if;
    end if;
  end process;
  resp <= kind & std_logic_vector(wi) & word;
  resp_data_alt <= kind & std_logic_vector(wi) & word_alt;
  resp_alt <= kind(1);
  us_toggle  <= us_t;
  ev_pending <= ev_pend_q;
  time_ns_out <= time_ns;

  pps_cap : entity work.edge_capture
    generic map (LE1_IN => true)
    port map (clk => clk, rst => rst, pin => pps_in, enable => pps_en,
              falling => pps_fall, min_width => pps_minw, min_le1 => pps_le1,
              time_ns => time_ns, hold => pps_hold, shift => pps_shift, stamp_valid => pps_stb,
              stamp_next => open, stamp => pps_stamp, glitch => pps_glitch, taken => open);

  -- the event captures keep no stamp: the FIFO keeps them (event_fifo)
  events : for i in 0 to N_EVENTS - 1 generate
    cap : entity work.edge_capture
      generic map (LE1_IN => true)
      port map (clk => clk, rst => rst, pin => event_in(i), enable => ev_cfg(i),
                falling => ev_cfg(8 + i), min_width => ev_minw, min_le1 => ev_le1,
                time_ns => time_ns,
                stamp_valid => open, stamp_next => ev_stb_nx(i), stamp => open, glitch => open,
                taken => ev_take(i));
  end generate;

  fifo : entity work.event_fifo
    generic map (N => N_EVENTS, LOG2 => FIFO_LOG2)
    port map (clk => clk, rst => rst, in_valid_nx => ev_stb_nx, in_take => ev_take,
              time_ns => time_ns,
              pop => pop, out_valid => fq_valid, out_found => fq_found,
              out_entry => fq_entry, level => fq_level, is_empty => fq_empty,
              overflows => fq_ovf);

  -- start_ns(63..48) is st_qb's word 0 outside a command, not the HI
  -- message's bits: perout_gen reads start_ns(47..0) only (its 48-bit
  -- compare), so those bits are never used and synthesise to nothing
  po : entity work.perout_gen
    port map (clk => clk, rst => rst, arm => po_arm, enable => po_en,
              start_ns => unsigned(std_logic_vector'(st_qb & st_qa & st_qb & stage_r)), wr_period => po_wr_period,
              wr_width => po_wr_width, wr_data => unsigned(msg(31 downto 0)),
              time_skew => time_skew, dout => perout, next_ns => po_next);
end architecture;
