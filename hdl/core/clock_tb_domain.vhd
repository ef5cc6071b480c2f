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
    msg        : in  std_logic_vector(MSG_W - 1 downto 0);
    msg_ready  : out std_logic;
    resp_valid : out std_logic;
    resp       : out std_logic_vector(RESP_W - 1 downto 0);
    resp_ready : in  std_logic;
    us_toggle  : out std_logic;      -- flips every microsecond of this clock
    pps_in     : in  std_logic;
    event_in   : in  std_logic_vector(N_EVENTS - 1 downto 0);
    perout     : out std_logic;
    time_ns_out : out unsigned(63 downto 0));  -- what the edge captures latch
end entity;

architecture rtl of clock_tb_domain is
  signal time_ns   : unsigned(63 downto 0);
  -- Snapshot: the timebase's fraction chunks are not aligned to time_ns
  -- (that took 144 flip-flops); frac_early runs SNAP_LEAD clocks ahead of
  -- time_ns, so a snapshot latches it (frac_cap) and offers its answer,
  -- with time_ns, exactly SNAP_LEAD clocks later. It starts only when the
  -- crossing is free and holds every other answer back meanwhile, so the
  -- crossing is still free then and takes it in that clock.
  constant TB_W : positive := 16;
  constant SNAP_LEAD : positive := 96 / TB_W - 32 / TB_W;   -- >= 2: see sel_snap
  signal frac_early, frac_cap : unsigned(31 downto 0) := (others => '0');
  signal time_skew : unsigned(63 downto 0);   -- perout_gen's compare reads these
  signal snap_sh : std_logic_vector(SNAP_LEAD - 1 downto 0) := (others => '0');
  -- the answer of this clock: chosen a clock ahead (see the process)
  signal sel_snap, sel_ev, sel_evstat, sel_pps, rv : std_logic := '0';
  -- the answer that left in the clock before (its flag is cleared now)
  signal sent_snap, sent_ev, sent_evstat, sent_pps : std_logic := '0';
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
  signal stage_r   : std_logic_vector(95 downto 0) := (others => '0');

  signal pps_cfg   : std_logic_vector(31 downto 0) := (others => '0');
  signal ev_cfg    : std_logic_vector(31 downto 0) := (others => '0');
  signal ev_minw   : unsigned(15 downto 0) := to_unsigned(4, 16);
  signal po_period, po_width : unsigned(31 downto 0) := (others => '0');
  signal po_arm, po_en : std_logic := '0';
  signal po_next   : unsigned(63 downto 0);

  signal pps_stb, pps_glitch : std_logic;
  signal pps_stamp : unsigned(63 downto 0);
  signal ev_stb    : std_logic_vector(N_EVENTS - 1 downto 0);
  signal ev_stamps : std_logic_vector(N_EVENTS * 64 - 1 downto 0);
  signal pop, fq_valid, fq_found : std_logic := '0';
  signal fq_entry : std_logic_vector(82 downto 0);
  signal fq_level : unsigned(FIFO_LOG2 downto 0);
  signal fq_ovf   : unsigned(31 downto 0);

  -- pending responses, sent in this priority order
  signal snap_pend, ev_pend, evstat_pend, pps_pend : std_logic := '0';
  -- a PPS stamp waiting to be sent: the edge capture's own stamp register
  -- is the only copy, held (pps_cap.hold) until the answer has left. An
  -- edge in that time (at most a few microseconds after an accepted one:
  -- the crossing's round trip behind up to three other answers) is noise
  -- on the PPS line and is ignored, not stamped or counted as a glitch.
  signal pps_is_stamp : std_logic := '0';
  signal pps_hold : std_logic;
  signal glitches  : unsigned(15 downto 0) := (others => '0');
  signal evstat_req : std_logic := '0';

  constant US_DIV : positive := CLK_HZ / 1_000_000;
  signal us_cnt    : natural range 0 to US_DIV - 1 := 0;
  signal us_t      : std_logic := '0';
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
              period => open);

  msg_ready <= tb_ready and not tb_valid;
  -- the command word is the staging register itself: it cannot change while
  -- the command is in flight because no message is taken until tb_ready.
  -- Layout: SET ns(95..32) frac(31..0); ADJUST ns(95..32) (the timebase
  -- ignores the fraction: ADJ_FRAC false);
  -- PERIOD ns(39..32) frac(31..0) (the timebase ignores bits 95..40).
  tb_data <= stage_r;

  decode : process (clk)
    variable a : msg_addr_t;
    variable d : std_logic_vector(31 downto 0);
  begin
    if rising_edge(clk) then
      tb_valid <= '0';
      pop      <= '0';
      po_arm   <= '0';
      -- the answer sent in the clock before: its flag is cleared (first,
      -- so a flag raised in this clock below stays raised)
      if sent_snap = '1' then
        snap_pend <= '0';
      end if;
      if sent_ev = '1' then
        ev_pend <= '0';
      end if;
      if sent_evstat = '1' then
        evstat_pend <= '0';
      end if;
      if sent_pps = '1' then
        pps_is_stamp <= '0';
        pps_pend <= '0';
      end if;

      if msg_valid = '1' then
        a := to_integer(unsigned(msg(35 downto 32)));
        d := msg(31 downto 0);
        case a is
          -- PERIOD: the timebase reads bits 39..32 only, so the whole ns
          -- word goes in unmasked (no multiplexer on bits 63..40)
          when M_SET_LO | M_ADJ_LO | M_PO_LO | M_PER_NS => stage_r(63 downto 32) <= d;
          when M_SET_HI | M_ADJ_HI | M_PO_HI => stage_r(95 downto 64) <= d;
          when M_SET_FRAC | M_PER_FRAC => stage_r(31 downto 0) <= d;
          when M_PPS_CFG   => pps_cfg <= d;
          when M_EV_CFG    => ev_cfg <= d;
          when M_EV_MINW   => ev_minw <= unsigned(d(15 downto 0));
          when M_PO_PERIOD => po_period <= unsigned(d);
          when M_PO_WIDTH  => po_width <= unsigned(d);
          when M_PO_ARM    => po_arm <= '1'; po_en <= d(0);
          when M_CMD =>
            if d(C_SET) = '1' then
              tb_valid <= '1'; tb_op <= "00";
            elsif d(C_ADJUST) = '1' then
              tb_valid <= '1'; tb_op <= "01";
            elsif d(C_PERIOD) = '1' then
              tb_valid <= '1'; tb_op <= "10";
            end if;
            if d(C_SNAPSHOT) = '1' then
              snap_pend <= '1';     -- the time is taken below
            end if;
            if d(C_POP) = '1' then
              pop <= '1';
            end if;
            if d(C_EVSTAT) = '1' then
              evstat_pend <= '1';
            end if;
          when others => null;
        end case;
      end if;

      if fq_valid = '1' then
        ev_pend <= '1';             -- the FIFO holds the entry until the next pop
      end if;

      if pps_glitch = '1' then
        glitches <= glitches + 1;
      end if;

      -- snapshot: fraction now, the answer SNAP_LEAD clocks later; only
      -- when the crossing is free and takes nothing in this clock
      -- (frac_cap follows frac_early whenever no snapshot is under way, so
      -- it holds the start clock's value: its 32 enables do not hang on
      -- the start decision, which was a 8.8 ns tb_clk path at seed 2)
      if snap_sh = (snap_sh'range => '0') then
        frac_cap <= frac_early;
      end if;
      if snap_pend = '1' and resp_ready = '1' and rv = '0' and
         snap_sh = (snap_sh'range => '0') then
        snap_sh <= (0 => '1', others => '0');
      else
        snap_sh <= snap_sh(SNAP_LEAD - 2 downto 0) & '0';
      end if;

      -- response port: the crossing's own holding register takes the word
      -- (see the selection below) in a clock with rv and resp_ready; the
      -- sent answer's flag is cleared in the next clock (at the top of
      -- this process) from these flip-flops. resp_ready carries tb_rst
      -- (cdc_handshake's a_ready), and its route into the flags' enables
      -- was the worst tb_clk path at seed 3 of 430df51 (8.69 ns, 3.1 ns
      -- of it tb_rst's route). A flag still set one clock after its send
      -- may be chosen again for the clock after, but the crossing is busy
      -- then: its ready needs the acknowledge back through two bus-clock
      -- and two tb_clk synchroniser flops, at least 4 clocks. A PPS stamp
      -- or glitch in the send clock itself is not cleared (as before: it
      -- is sent in a later answer).
      sent_snap   <= resp_ready and rv and sel_snap;
      sent_ev     <= resp_ready and rv and sel_ev;
      sent_evstat <= resp_ready and rv and sel_evstat;
      sent_pps    <= resp_ready and rv and sel_pps and not pps_stb and not pps_glitch;
      -- a new PPS stamp, or a width glitch (an answer with the new count
      -- follows): after the clear above, so one that comes in the clock an
      -- answer leaves is sent in a later one
      if pps_stb = '1' then
        pps_is_stamp <= '1';
        pps_pend <= '1';
      end if;
      if pps_glitch = '1' then
        pps_pend <= '1';
      end if;

      -- the answer for the next clock, chosen from the flags of this one
      -- (priority: snapshot, event, FIFO status, PPS). Flags raised in
      -- this clock wait a clock; a flag cleared by a send in this clock
      -- may be chosen once more, but the crossing is then busy (no
      -- resp_ready) until long after the choice is renewed.
      sel_snap   <= snap_pend and snap_sh(SNAP_LEAD - 2);
      sel_ev     <= not snap_pend and ev_pend;
      sel_evstat <= not snap_pend and not ev_pend and evstat_pend;
      sel_pps    <= not snap_pend and not ev_pend and not evstat_pend and pps_pend;
      rv <= (snap_pend and snap_sh(SNAP_LEAD - 2)) or
            (not snap_pend and (ev_pend or evstat_pend or pps_pend));

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
        sel_snap <= '0'; sel_ev <= '0'; sel_evstat <= '0'; sel_pps <= '0'; rv <= '0';
        sent_snap <= '0'; sent_ev <= '0'; sent_evstat <= '0'; sent_pps <= '0';
        pps_cfg <= (others => '0'); ev_cfg <= (others => '0');
        pps_is_stamp <= '0';
        glitches <= (others => '0');
      end if;
    end if;
  end process;
  -- The answer is selected by the flip-flops above and latched by
  -- cdc_handshake in the clock it is taken (resp_valid and resp_ready), so
  -- the 98-bit word is held once, in the crossing, not twice. resp_valid
  -- is a flip-flop: with the pending flags decoded in front of it, it
  -- drove the crossing's 98 clock enables through 4 LUT levels and a
  -- global buffer (9.04 ns, the worst tb_clk path at seed 2, measured).
  -- A snapshot sends time_ns of that clock with frac_cap (see above).
  -- from the strobe (edge_capture registers hold) until the answer leaves
  pps_hold <= pps_stb or pps_is_stamp;
  resp_valid <= rv;
  resp <= R_SNAP & std_logic_vector(time_ns & frac_cap) when sel_snap = '1' else
          R_EVENT & fq_found & fq_entry(82 downto 64) & x"000" & fq_entry(63 downto 0)
            when sel_ev = '1' else
          R_EVSTAT & std_logic_vector(fq_ovf) & std_logic_vector(resize(fq_level, 16)) &
            x"000000000000" when sel_evstat = '1' else
          R_PPS & std_logic_vector(pps_stamp) & std_logic_vector(glitches) & pps_is_stamp &
            "000000000000000";
  us_toggle  <= us_t;
  time_ns_out <= time_ns;

  pps_cap : entity work.edge_capture
    port map (clk => clk, rst => rst, pin => pps_in, enable => pps_cfg(0),
              falling => pps_cfg(1), min_width => unsigned(pps_cfg(31 downto 16)),
              time_ns => time_ns, hold => pps_hold, stamp_valid => pps_stb,
              stamp => pps_stamp, glitch => pps_glitch);

  events : for i in 0 to N_EVENTS - 1 generate
    signal st : unsigned(63 downto 0);
  begin
    cap : entity work.edge_capture
      port map (clk => clk, rst => rst, pin => event_in(i), enable => ev_cfg(i),
                falling => ev_cfg(8 + i), min_width => ev_minw, time_ns => time_ns,
                stamp_valid => ev_stb(i), stamp => st, glitch => open);
    ev_stamps(i * 64 + 63 downto i * 64) <= std_logic_vector(st);
  end generate;

  fifo : entity work.event_fifo
    generic map (N => N_EVENTS, LOG2 => FIFO_LOG2)
    port map (clk => clk, rst => rst, in_valid => ev_stb, in_stamps => ev_stamps,
              pop => pop, out_valid => fq_valid, out_found => fq_found,
              out_entry => fq_entry, level => fq_level, overflows => fq_ovf);

  po : entity work.perout_gen
    port map (clk => clk, rst => rst, arm => po_arm, enable => po_en,
              start_ns => unsigned(stage_r(95 downto 32)), period => po_period, width => po_width,
              time_skew => time_skew, dout => perout, next_ns => po_next);
end architecture;
