-- SPDX-License-Identifier: GPL-2.0-or-later
-- PCI 2.3 bus master (32 bit, 33/66 MHz) behind the card's DMA port
-- (docs/card-internals.md section 3): memory write and read bursts of 1..16
-- words, dual address cycles above 4 GiB, REQ#/GNT# with bus parking, the
-- latency timer, target retry/disconnect/abort, master abort and parity.
-- docs/pci.md ("The initiator") says why it is built so.
--
-- Write data goes into a 16-word burst buffer (one block RAM, read
-- registered) as fast as the requester supplies it, one word per clock from
-- the clock after dma_ready; the bus side reads it by word index. So a burst
-- that a target cuts short resumes from the first word it did not take,
-- however often, without asking the requester again, and the bus runs
-- without master wait states. Read words go to the requester as they come
-- off the bus (no back-pressure on the DMA port); their parity is known one
-- clock later and reported with dma_done.
--
-- Bus signals are split in/out/output-enable, every output comes from a
-- flip-flop. Inputs are sampled at the clock edge (TRDY#/STOP# feed the
-- next-state logic and the burst buffer's read address directly, as the
-- PCI specification's master state machine does).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity pci_initiator is
  generic (
    -- false: the bus outputs are the pins' values (each from a flip-flop);
    -- true: they are those flip-flops' next values, for registers outside
    -- (the board's I/O-cell output and enable registers, or pci_interface's
    -- own). The same logic either way; docs/pci.md "Pins".
    NEXT_OUT      : boolean := false);
  port (
    clk, rst      : in  std_logic;   -- PCI CLK; rst synchronous, from RST#
    -- PCI bus
    ad_in         : in  std_logic_vector(31 downto 0);   -- the pads as seen on the bus
    ad_out        : out std_logic_vector(31 downto 0);
    ad_oe         : out std_logic;
    cbe_n_in      : in  std_logic_vector(3 downto 0);
    cbe_n_out     : out std_logic_vector(3 downto 0);
    cbe_n_oe      : out std_logic;
    par_in        : in  std_logic;
    par_out       : out std_logic;
    par_oe        : out std_logic;
    frame_n_in    : in  std_logic;
    frame_n_out   : out std_logic;
    frame_n_oe    : out std_logic;
    irdy_n_in     : in  std_logic;
    irdy_n_out    : out std_logic;
    irdy_n_oe     : out std_logic;
    trdy_n_in     : in  std_logic;
    devsel_n_in   : in  std_logic;
    stop_n_in     : in  std_logic;
    perr_n_in     : in  std_logic;
    perr_n_out    : out std_logic;
    perr_n_oe     : out std_logic;
    req_n         : out std_logic;   -- point to point to the arbiter: always driven
    gnt_n         : in  std_logic;
    -- configuration state (pci_target)
    master_enable : in  std_logic;   -- command bit 2
    perr_resp     : in  std_logic;   -- command bit 6
    lat_timer     : in  std_logic_vector(7 downto 0);   -- configuration 0x0D
    -- status events into pci_target (one-clock pulses)
    mst_data_perr  : out std_logic;  -- status bit 8
    mst_rcv_tabort : out std_logic;  -- status bit 12
    mst_rcv_mabort : out std_logic;  -- status bit 13
    mst_det_perr   : out std_logic;  -- status bit 15 (bad read data parity)
    -- DMA port (docs/card-internals.md section 3)
    dma_valid     : in  std_logic;
    dma_ready     : out std_logic;
    dma_write     : in  std_logic;
    dma_addr      : in  std_logic_vector(63 downto 2);
    dma_len       : in  std_logic_vector(4 downto 0);
    dma_wd_data   : in  std_logic_vector(31 downto 0);
    dma_wd_ready  : out std_logic;
    dma_rd_valid  : out std_logic;
    dma_rd_data   : out std_logic_vector(31 downto 0);
    dma_done      : out std_logic;
    dma_err       : out std_logic_vector(1 downto 0);
    -- the upper address dword apart (pci_interface's MSI, whose address
    -- comes out of the configuration RAM one dword at a time): while idle,
    -- dma_hi_ld loads dma_addr(63 downto 32) alone; a request taken with
    -- dma_hi_keep uses the upper dword loaded so instead of its own
    dma_hi_ld     : in  std_logic := '0';
    dma_hi_keep   : in  std_logic := '0';
    -- the initiator owns the current bus transaction (for the shared pins)
    mst_busy      : out std_logic);
end entity;

architecture rtl of pci_initiator is
  subtype word is std_logic_vector(31 downto 0);

  -- PCI 2.3 table 3-1
  constant CMD_MEM_READ   : std_logic_vector(3 downto 0) := "0110";
  constant CMD_MEM_WRITE  : std_logic_vector(3 downto 0) := "0111";
  constant CMD_MEM_READ_M : std_logic_vector(3 downto 0) := "1100";
  constant CMD_DAC        : std_logic_vector(3 downto 0) := "1101";

  function xor_all (v : std_logic_vector) return std_logic is
    variable r : std_logic := '0';
  begin
    for i in v'range loop
      r := r xor v(i);
    end loop;
    return r;
  end function;

  -- IDLE: nothing to do (parks if granted). ACCEPT: one clock so the burst
  -- buffer's first word is written before it is read. REQ: REQ# asserted,
  -- waiting for GNT# at an idle bus. ADDR: address phase(s). DATA: data
  -- phases. S_RELEASE: IRDY# driven high for its s/t/s clock. BACKOFF: REQ#
  -- high for two clocks after a target termination or the latency timer
  -- (PCI 2.3 3.3.3.2.2), then REQ again. CHECK: wait for the parity of the
  -- last data phase (PERR# comes two clocks after it), then dma_done.
  type state_t is (IDLE, ACCEPT, REQ, ADDR, DATA, S_RELEASE, BACKOFF, CHECK);
  signal state : state_t := IDLE;

  -- the request
  signal wr_q     : std_logic := '0';
  signal len_q    : unsigned(4 downto 0) := (others => '0');
  signal cur      : unsigned(4 downto 0) := (others => '0');   -- first word not yet on the bus
  signal a_lo     : std_logic_vector(31 downto 2) := (others => '0');
  signal a_hi     : word := (others => '0');
  signal dac_q    : std_logic := '0';   -- upper address non-zero: dual address cycle
  signal dac2     : std_logic := '0';   -- the second address phase is on the bus
  signal cmd_q    : std_logic_vector(3 downto 0) := (others => '0');

  -- write data burst buffer (block RAM) and its filling from the DMA port
  type buf_t is array (0 to 15) of word;
  signal wbuf      : buf_t;
  signal buf_we   : std_logic;
  signal wr_e     : std_logic := '0';
  signal wr_a     : unsigned(3 downto 0);
  signal wr_d     : word;
  signal buf_wa, buf_ra : unsigned(3 downto 0);
  -- the block RAM's own output register: no reset or initial value (the
  -- RAM's has none; an initial value costs 33 LUTs of emulation). A word
  -- it reads goes onto AD for a data phase only after it was written (the
  -- load after a request's last word is junk that no data phase carries;
  -- parking may drive it, where AD's value does not matter).
  signal buf_q    : word;
  signal fill     : unsigned(4 downto 0) := (others => '0');
  signal wd_rdy_q : std_logic := '0';

  -- bus outputs
  signal ad_q     : word := (others => '0');
  signal cbe_q    : std_logic_vector(3 downto 0) := (others => '0');
  signal ad_oe_q, cbe_oe_q, par_oe_q : std_logic := '0';
  signal frame_q, irdy_q : std_logic := '1';
  signal frame_oe_q, irdy_oe_q : std_logic := '0';
  signal perr_q   : std_logic := '1';
  signal perr_oe_q, perr_hold : std_logic := '0';
  signal req_q    : std_logic := '1';
  signal bus_par  : std_logic := '0';

  -- transaction bookkeeping
  -- latency timer, counts down to 1 (loaded with lat_timer itself: no
  -- subtractor in front of it; 0 and 1 both mean "run out")
  signal lt_cnt   : unsigned(7 downto 0) := (others => '0');
  signal dv_cnt   : unsigned(1 downto 0) := (others => '0');   -- clocks since the last address phase
  signal dv_seen  : std_logic := '0';
  signal tabort   : std_logic := '0';   -- the target is aborting this transaction
  signal err_ab   : std_logic_vector(1 downto 0) := "00";   -- master/target abort
  signal err_par  : std_logic := '0';
  signal cnt2     : unsigned(1 downto 0) := (others => '0');   -- BACKOFF / CHECK clocks

  -- parity checks one (read: PAR) and two (write: PERR#) clocks after a data phase
  signal rchk, wchk1, wchk2 : std_logic := '0';

  -- DMA port outputs
  signal ready_q, done_q, rd_valid_q : std_logic := '0';
  signal err_q    : std_logic_vector(1 downto 0) := "00";
  signal rd_data_q : word := (others => '0');
  signal st_dperr, st_tabort, st_mabort, st_det : std_logic := '0';

  signal moved    : std_logic;   -- a data word moves at this edge
  -- one and two words left after the one on the bus (from the registers, so
  -- the compares' carry chains are not behind TRDY#)
  signal left1, left2 : std_logic;
  -- next values of the registers below (the combinational process computes
  -- them, the register process loads them)
  signal ready_q_nx : std_logic;
  signal done_q_nx : std_logic;
  signal st_dperr_nx : std_logic;
  signal st_tabort_nx : std_logic;
  signal st_mabort_nx : std_logic;
  signal st_det_nx : std_logic;
  signal bus_par_nx : std_logic;
  signal par_oe_q_nx : std_logic;
  signal rd_data_q_nx : word;
  signal rd_valid_q_nx : std_logic;
  signal fill_nx : unsigned(4 downto 0);
  signal wd_rdy_q_nx : std_logic;
  signal rchk_nx : std_logic;
  signal wchk1_nx : std_logic;
  signal wchk2_nx : std_logic;
  signal perr_hold_nx : std_logic;
  signal err_par_nx : std_logic;
  signal perr_q_nx : std_logic;
  signal perr_oe_q_nx : std_logic;
  signal lt_cnt_nx : unsigned(7 downto 0);
  signal ad_oe_q_nx : std_logic;
  signal cbe_oe_q_nx : std_logic;
  signal a_hi_nx : word;
  signal wr_q_nx : std_logic;
  signal len_q_nx : unsigned(4 downto 0);
  signal a_lo_nx : std_logic_vector(31 downto 2);
  signal cur_nx : unsigned(4 downto 0);
  signal err_ab_nx : std_logic_vector(1 downto 0);
  signal state_nx : state_t;
  signal cnt2_nx : unsigned(1 downto 0);
  signal dac_q_nx : std_logic;
  signal req_q_nx : std_logic;
  signal err_q_nx : std_logic_vector(1 downto 0);
  signal frame_q_nx : std_logic;
  signal frame_oe_q_nx : std_logic;
  signal irdy_q_nx : std_logic;
  signal irdy_oe_q_nx : std_logic;
  signal ad_q_nx : word;
  signal cmd_q_nx : std_logic_vector(3 downto 0);
  signal cbe_q_nx : std_logic_vector(3 downto 0);
  signal dac2_nx : std_logic;
  signal dv_cnt_nx : unsigned(1 downto 0);
  signal dv_seen_nx : std_logic;
  signal tabort_nx : std_logic;
begin
  moved <= '1' when state = DATA and irdy_q = '0' and trdy_n_in = '0' else '0';
  left1 <= '1' when cur + 1 = len_q else '0';
  left2 <= '1' when cur + 2 = len_q else '0';

  -- The burst buffer's read address leads the bus by one word: buf_q must
  -- hold the word that goes onto AD at the next edge (the first word at the
  -- last address phase, then the word after the one on AD, one further when
  -- a word moves at this edge).
  process (all)
    variable inc : unsigned(3 downto 0);
  begin
    inc := "0000";
    if state = ADDR and (dac_q = '0' or dac2 = '1') then
      inc := "0001";
    elsif state = DATA then
      inc := "0001" + ("000" & moved);
    end if;
    buf_ra <= cur(3 downto 0) + inc;
  end process;
  buf_we <= wd_rdy_q;
  buf_wa <= fill(3 downto 0);

  -- The block RAM alone in its processes (GHDL synthesis needs it so).
  -- Written on the falling edge, read at rising edges: with both on the
  -- same edge Yosys 0.23 adds read-during-write emulation (70 flip-flops,
  -- 36 LUTs), which this buffer never needs. The word taken at a rising
  -- edge is held in wr_* and written at the next falling edge, so the
  -- half-clock path into the RAM starts at flip-flops (nextpnr does not
  -- time it as half a clock); the bus reads a word at least half a clock
  -- after that (it reads word k at the edge after the one that took it, at
  -- the earliest: see buf_ra). wr_* have no reset: until the first word
  -- is taken they write nothing (wr_e follows wd_rdy_q, reset) or junk
  -- into a buffer that holds nothing yet.
  process (clk)
  begin
    if rising_edge(clk) then
      wr_e <= buf_we;
      wr_a <= buf_wa;
      wr_d <= dma_wd_data;
    end if;
  end process;
  process (clk)
  begin
    if falling_edge(clk) then
      if wr_e = '1' then
        wbuf(to_integer(wr_a)) <= wr_d;
      end if;
    end if;
  end process;
  process (clk)
  begin
    if rising_edge(clk) then
      buf_q <= wbuf(to_integer(buf_ra));
    end if;
  end process;

  -- The protocol engine: next values of every register, from the registers
  -- and the bus (a combinational process and a register process, so the
  -- next values of the bus outputs can go to registers in the I/O cells).
  process (all)
    variable phase_end, last_next, lt_out : boolean;
    variable cmd : std_logic_vector(3 downto 0);
  begin
    ready_q_nx <= ready_q;
    done_q_nx <= done_q;
    st_dperr_nx <= st_dperr;
    st_tabort_nx <= st_tabort;
    st_mabort_nx <= st_mabort;
    st_det_nx <= st_det;
    bus_par_nx <= bus_par;
    par_oe_q_nx <= par_oe_q;
    rd_data_q_nx <= rd_data_q;
    rd_valid_q_nx <= rd_valid_q;
    fill_nx <= fill;
    wd_rdy_q_nx <= wd_rdy_q;
    rchk_nx <= rchk;
    wchk1_nx <= wchk1;
    wchk2_nx <= wchk2;
    perr_hold_nx <= perr_hold;
    err_par_nx <= err_par;
    perr_q_nx <= perr_q;
    perr_oe_q_nx <= perr_oe_q;
    lt_cnt_nx <= lt_cnt;
    ad_oe_q_nx <= ad_oe_q;
    cbe_oe_q_nx <= cbe_oe_q;
    a_hi_nx <= a_hi;
    wr_q_nx <= wr_q;
    len_q_nx <= len_q;
    a_lo_nx <= a_lo;
    cur_nx <= cur;
    err_ab_nx <= err_ab;
    state_nx <= state;
    cnt2_nx <= cnt2;
    dac_q_nx <= dac_q;
    req_q_nx <= req_q;
    err_q_nx <= err_q;
    frame_q_nx <= frame_q;
    frame_oe_q_nx <= frame_oe_q;
    irdy_q_nx <= irdy_q;
    irdy_oe_q_nx <= irdy_oe_q;
    -- AD holds by reading itself back: whenever the initiator drives AD and
    -- loads nothing new, the pad shows the word it drove (ad_in is the pad
    -- as seen on the bus); when it does not drive, the value is unused
    -- (parking drives any stable value). So the I/O cells' output
    -- registers need no copy in the fabric to hold (32 flip-flops and 32
    -- multiplexers less with NEXT_OUT).
    ad_q_nx <= to_x01(ad_in);
    cmd_q_nx <= cmd_q;
    cbe_q_nx <= cbe_q;
    dac2_nx <= dac2;
    dv_cnt_nx <= dv_cnt;
    dv_seen_nx <= dv_seen;
    tabort_nx <= tabort;
    ready_q_nx    <= '0';
    done_q_nx     <= '0';
    st_dperr_nx   <= '0';
    st_tabort_nx  <= '0';
    st_mabort_nx  <= '0';
    st_det_nx     <= '0';
    bus_par_nx    <= xor_all(ad_in) xor xor_all(cbe_n_in);
    par_oe_q_nx   <= ad_oe_q;
    rd_data_q_nx  <= ad_in;           -- no enable: only read beside rd_valid
    rd_valid_q_nx <= moved and not wr_q;

    -- filling the burst buffer: one word per clock, len words
    if wd_rdy_q = '1' then
      fill_nx <= fill + 1;
      if fill + 1 >= len_q then
        wd_rdy_q_nx <= '0';
      end if;
    end if;

    -- parity of read data (PAR one clock after it) and PERR# of write
    -- data (two clocks after it; PCI 2.3 3.7.4)
    rchk_nx  <= moved and not wr_q;
    wchk1_nx <= moved and wr_q;
    wchk2_nx <= wchk1;
    if rchk = '1' then
      perr_hold_nx <= '0';
      if (bus_par xor par_in) = '1' then
        st_det_nx <= '1';
        if perr_resp = '1' then
          st_dperr_nx <= '1';
          err_par_nx  <= '1';
        end if;
        perr_q_nx <= not perr_resp;
      else
        perr_q_nx <= '1';
      end if;
      -- the receiver of read data drives PERR# from the clock after the
      -- first data phase (high unless bad), with parity response on
      perr_oe_q_nx <= perr_resp;
      perr_hold_nx <= '1';
    elsif perr_hold = '1' then
      perr_q_nx <= '1';               -- s/t/s: high for one clock, then released
      perr_hold_nx <= '0';
    else
      perr_q_nx <= '1';
      perr_oe_q_nx <= '0';
    end if;
    if wchk2 = '1' and perr_n_in = '0' and perr_resp = '1' then
      st_dperr_nx <= '1';
      err_par_nx  <= '1';
    end if;

    if lt_cnt(7 downto 1) /= 0 then
      lt_cnt_nx <= lt_cnt - 1;
    end if;

    case state is
      when IDLE | ACCEPT | BACKOFF | CHECK =>
        -- parking: granted at an idle bus, drive AD, C/BE# (and PAR a
        -- clock later) so they do not float (PCI 2.3 3.4.3); let go the
        -- clock after GNT# goes
        if gnt_n = '0' and frame_n_in = '1' and irdy_n_in = '1' then
          ad_oe_q_nx  <= '1';
          cbe_oe_q_nx <= '1';
        else
          ad_oe_q_nx  <= '0';
          cbe_oe_q_nx <= '0';
        end if;
        case state is
          when IDLE =>
            if dma_hi_ld = '1' then
              a_hi_nx <= dma_addr(63 downto 32);
            end if;
            if dma_valid = '1' then
              ready_q_nx  <= '1';
              wr_q_nx     <= dma_write;
              len_q_nx    <= unsigned(dma_len);
              a_lo_nx     <= dma_addr(31 downto 2);
              if dma_hi_keep = '0' then
                a_hi_nx   <= dma_addr(63 downto 32);
              end if;
              cur_nx      <= (others => '0');
              fill_nx     <= (others => '0');
              err_ab_nx   <= "00";
              err_par_nx  <= '0';
              state_nx    <= ACCEPT;
              if dma_len = "00000" or unsigned(dma_len) > 16 then
                -- not a request the port defines: refused, nothing on the bus
                err_ab_nx <= "01";
                cnt2_nx   <= "00";
                state_nx  <= CHECK;
              else
                wd_rdy_q_nx <= dma_write;
              end if;
            end if;
          when ACCEPT =>
            -- from the register, not the port: then the address inputs
            -- feed only their flip-flops (and a requester mux in front of
            -- them packs into the same logic cells)
            dac_q_nx <= '1' when a_hi /= x"00000000" else '0';
            state_nx <= REQ;
            req_q_nx <= '0';
          when BACKOFF =>
            cnt2_nx <= cnt2 + 1;
            if cnt2 = 1 then
              state_nx <= REQ;
              req_q_nx <= '0';
            end if;
          when others =>
            -- CHECK: the last data phase's PERR# is in after two clocks;
            -- and a request cut short still takes all its write words
            -- before it is done, so none belongs to the next request
            if cnt2 /= 2 then
              cnt2_nx <= cnt2 + 1;
            elsif wd_rdy_q = '0' then
              done_q_nx <= '1';
              if err_ab /= "00" then
                err_q_nx <= err_ab;
              elsif err_par = '1' then
                err_q_nx <= "11";
              else
                err_q_nx <= "00";
              end if;
              state_nx <= IDLE;
            end if;
        end case;

      when REQ =>
        if master_enable = '0' then
          -- bus mastering switched off: the rest of the request goes nowhere
          req_q_nx    <= '1';
          ad_oe_q_nx  <= '0';
          cbe_oe_q_nx <= '0';
          err_ab_nx   <= "01";
          cnt2_nx     <= "00";
          state_nx    <= CHECK;
        elsif gnt_n = '0' and frame_n_in = '1' and irdy_n_in = '1' then
          -- ours and idle: the address phase is the next clock
          frame_q_nx    <= '0';
          frame_oe_q_nx <= '1';
          irdy_q_nx     <= '1';
          irdy_oe_q_nx  <= '1';
          ad_oe_q_nx    <= '1';
          cbe_oe_q_nx   <= '1';
          ad_q_nx       <= a_lo(31 downto 12) &
                        std_logic_vector(unsigned(a_lo(11 downto 2)) + cur) & "00";
          if wr_q = '1' then
            cmd := CMD_MEM_WRITE;
          elsif len_q - cur = 1 then
            cmd := CMD_MEM_READ;
          else
            -- several words: Memory Read Multiple lets a bridge prefetch
            cmd := CMD_MEM_READ_M;
          end if;
          cmd_q_nx <= cmd;
          cbe_q_nx <= CMD_DAC when dac_q = '1' else cmd;
          dac2_nx   <= '0';
          -- runs out lat_timer clocks after FRAME# is asserted (it counts
          -- from the next edge)
          lt_cnt_nx <= unsigned(lat_timer);
          state_nx  <= ADDR;
        else
          -- waiting; park if granted meanwhile is handled by starting
          ad_oe_q_nx  <= '0';
          cbe_oe_q_nx <= '0';
        end if;

      when ADDR =>
        dv_cnt_nx  <= "00";
        dv_seen_nx <= '0';
        tabort_nx  <= '0';
        if dac_q = '1' and dac2 = '0' then
          -- dual address cycle: upper half and the real command
          ad_q_nx  <= a_hi;
          cbe_q_nx <= cmd_q;
          dac2_nx  <= '1';
        else
          if wr_q = '1' then
            ad_q_nx <= buf_q;
          else
            ad_oe_q_nx <= '0';        -- turnaround: the target drives AD next
          end if;
          cbe_q_nx  <= "0000";        -- all bytes
          irdy_q_nx <= '0';
          state_nx  <= DATA;
          if cur + 1 = len_q then
            frame_q_nx <= '1';        -- one data phase left: it is the last
            req_q_nx   <= '1';
          end if;
        end if;

      when DATA =>
        if devsel_n_in = '0' then
          dv_seen_nx <= '1';
        end if;
        if dv_cnt /= 3 then
          dv_cnt_nx <= dv_cnt + 1;
        end if;
        phase_end := irdy_q = '0' and (trdy_n_in = '0' or stop_n_in = '0');
        -- the word after this one is the last: both answers are ready
        -- from the registers (left1, left2), TRDY# only picks one
        if moved = '1' then
          last_next := left2 = '1';
        else
          last_next := left1 = '1';
        end if;
        if moved = '1' then
          cur_nx <= cur + 1;
          ad_q_nx <= buf_q;          -- next word (reads: AD is not driven)
        end if;
        lt_out := lt_cnt(7 downto 1) = 0 and gnt_n = '1';
        if dv_seen = '0' and devsel_n_in = '1' and dv_cnt = 3 then
          -- master abort: nobody claimed it by the 5th clock after the
          -- (last) address phase. FRAME# goes first, then IRDY#.
          err_ab_nx    <= "01";
          if frame_q = '0' then
            frame_q_nx <= '1';
          else
            st_mabort_nx  <= '1';
            irdy_q_nx     <= '1';
            frame_oe_q_nx <= '0';
            ad_oe_q_nx    <= '0';
            cbe_oe_q_nx   <= '0';
            req_q_nx      <= '1';
            state_nx      <= S_RELEASE;
          end if;
        elsif phase_end then
          if stop_n_in = '0' and devsel_n_in = '1' then
            tabort_nx <= '1';         -- target abort (STOP# without DEVSEL#)
          end if;
          if frame_q = '1' then
            -- that was the last data phase: IRDY# high for a clock, let go
            irdy_q_nx     <= '1';
            frame_oe_q_nx <= '0';
            ad_oe_q_nx    <= '0';
            cbe_oe_q_nx   <= '0';
            req_q_nx      <= '1';
            state_nx      <= S_RELEASE;
            if (stop_n_in = '0' and devsel_n_in = '1') or tabort = '1' then
              st_tabort_nx <= '1';
              err_ab_nx    <= "10";
            end if;
          elsif stop_n_in = '0' or last_next or lt_out then
            -- the target stops us, the next word is the last, or the
            -- latency timer ran out with GNT# gone: the next data phase
            -- is the last (FRAME# changes only after a completed phase)
            frame_q_nx <= '1';
            if last_next then
              req_q_nx <= '1';
            end if;
          end if;
        end if;

      when S_RELEASE =>
        irdy_oe_q_nx <= '0';
        cnt2_nx      <= "00";
        if err_ab /= "00" or cur = len_q then
          state_nx <= CHECK;
        else
          -- retried, disconnected or timed out: the rest is a new
          -- transaction from word cur, after REQ# was high two clocks
          state_nx <= BACKOFF;
        end if;
    end case;

    if rst = '1' then
      state_nx <= IDLE;
      ad_oe_q_nx <= '0'; cbe_oe_q_nx <= '0'; par_oe_q_nx <= '0';
      frame_q_nx <= '1'; frame_oe_q_nx <= '0'; irdy_q_nx <= '1'; irdy_oe_q_nx <= '0';
      perr_q_nx <= '1'; perr_oe_q_nx <= '0'; perr_hold_nx <= '0'; req_q_nx <= '1';
      wd_rdy_q_nx <= '0'; ready_q_nx <= '0'; done_q_nx <= '0'; rd_valid_q_nx <= '0';
      rchk_nx <= '0'; wchk1_nx <= '0'; wchk2_nx <= '0';
      st_dperr_nx <= '0'; st_tabort_nx <= '0'; st_mabort_nx <= '0'; st_det_nx <= '0';
      err_ab_nx <= "00"; err_par_nx <= '0'; err_q_nx <= "00";
      cur_nx <= (others => '0'); fill_nx <= (others => '0'); len_q_nx <= (others => '0');
      cnt2_nx <= "00"; dv_cnt_nx <= "00"; dv_seen_nx <= '0'; tabort_nx <= '0'; dac2_nx <= '0';
    end if;
  end process;
  process (clk)
  begin
    if rising_edge(clk) then
      ready_q <= ready_q_nx;
      done_q <= done_q_nx;
      st_dperr <= st_dperr_nx;
      st_tabort <= st_tabort_nx;
      st_mabort <= st_mabort_nx;
      st_det <= st_det_nx;
      bus_par <= bus_par_nx;
      par_oe_q <= par_oe_q_nx;
      rd_data_q <= rd_data_q_nx;
      rd_valid_q <= rd_valid_q_nx;
      fill <= fill_nx;
      wd_rdy_q <= wd_rdy_q_nx;
      rchk <= rchk_nx;
      wchk1 <= wchk1_nx;
      wchk2 <= wchk2_nx;
      perr_hold <= perr_hold_nx;
      err_par <= err_par_nx;
      perr_q <= perr_q_nx;
      perr_oe_q <= perr_oe_q_nx;
      lt_cnt <= lt_cnt_nx;
      ad_oe_q <= ad_oe_q_nx;
      cbe_oe_q <= cbe_oe_q_nx;
      a_hi <= a_hi_nx;
      wr_q <= wr_q_nx;
      len_q <= len_q_nx;
      a_lo <= a_lo_nx;
      cur <= cur_nx;
      err_ab <= err_ab_nx;
      state <= state_nx;
      cnt2 <= cnt2_nx;
      dac_q <= dac_q_nx;
      req_q <= req_q_nx;
      err_q <= err_q_nx;
      frame_q <= frame_q_nx;
      frame_oe_q <= frame_oe_q_nx;
      irdy_q <= irdy_q_nx;
      irdy_oe_q <= irdy_oe_q_nx;
      ad_q <= ad_q_nx;
      cmd_q <= cmd_q_nx;
      cbe_q <= cbe_q_nx;
      dac2 <= dac2_nx;
      dv_cnt <= dv_cnt_nx;
      dv_seen <= dv_seen_nx;
      tabort <= tabort_nx;
    end if;
  end process;

  pins_now : if not NEXT_OUT generate
    ad_out      <= ad_q;
    ad_oe       <= ad_oe_q;
    cbe_n_out   <= cbe_q;
    cbe_n_oe    <= cbe_oe_q;
    -- PAR covers AD and C/BE# of the previous clock as the bus carried them,
    -- which is what we drove whenever par_oe is set (ad_in is the pad)
    par_out     <= bus_par;
    par_oe      <= par_oe_q;
    frame_n_out <= frame_q;
    frame_n_oe  <= frame_oe_q;
    irdy_n_out  <= irdy_q;
    irdy_n_oe   <= irdy_oe_q;
    perr_n_out  <= perr_q;
    perr_n_oe   <= perr_oe_q;
    req_n       <= req_q;
  end generate;
  pins_next : if NEXT_OUT generate
    ad_out      <= ad_q_nx;
    ad_oe       <= ad_oe_q_nx;
    cbe_n_out   <= cbe_q_nx;
    cbe_n_oe    <= cbe_oe_q_nx;
    par_out     <= bus_par_nx;
    par_oe      <= par_oe_q_nx;
    frame_n_out <= frame_q_nx;
    frame_n_oe  <= frame_oe_q_nx;
    irdy_n_out  <= irdy_q_nx;
    irdy_n_oe   <= irdy_oe_q_nx;
    perr_n_out  <= perr_q_nx;
    perr_n_oe   <= perr_oe_q_nx;
    req_n       <= req_q_nx;
  end generate;
  mst_data_perr  <= st_dperr;
  mst_rcv_tabort <= st_tabort;
  mst_rcv_mabort <= st_mabort;
  mst_det_perr   <= st_det;
  dma_ready    <= ready_q;
  dma_wd_ready <= wd_rdy_q;
  dma_rd_valid <= rd_valid_q;
  dma_rd_data  <= rd_data_q;
  dma_done     <= done_q;
  dma_err      <= err_q;
  mst_busy     <= frame_oe_q or irdy_oe_q;
end architecture;
