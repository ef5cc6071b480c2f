-- SPDX-License-Identifier: GPL-2.0-or-later
-- PCI 2.3 bus master (32 bit, 33/66 MHz) behind the card's DMA port
-- (docs/card-internals.md section 3): memory write and read bursts of 1..16
-- words, dual address cycles above 4 GiB (bus addresses below
-- 2^dma.info.addr_bits = 2^48), REQ#/GNT# with bus parking, the
-- latency timer, target retry/disconnect/abort, master abort and parity.
-- docs/pci.md ("The initiator", "Pins") says why it is built so.
--
-- Write data goes into a 16-word burst buffer (one block RAM, read
-- registered) as fast as the requester supplies it, one word per clock from
-- the clock after dma_ready (word k at address len - k, modulo 16); the bus
-- side reads it by the count of words still to go. So a burst
-- that a target cuts short resumes from the first word it did not take,
-- however often, without asking the requester again, and the bus runs
-- without master wait states. Read words go to the requester as they come
-- off the bus (no back-pressure on the DMA port); their parity is known one
-- clock later and reported with dma_done.
--
-- Inputs (session 9): PCI at 66 MHz leaves an input one LUT between its pad
-- and a flip-flop. So the protocol engine below runs one clock late, on
-- flip-flop copies of the bus (a "shadow" of the engine that would decide
-- on the pads), and its next values are what that engine's registers hold
-- now. The pins' next values are one LUT of the live TRDY#/STOP# (GNT#:
-- two, its bound is 5 ns; PAR: one, into PERR#) over values prepared from
-- those; with HARD_LUTS those LUTs are SB_LUT4 instances, which Yosys' ABC
-- cannot fold into the logic in front.
library ieee;
use ieee.std_logic_1164.all;

-- One 4-input LUT: o = INIT(i3 i2 i1 i0). HARD: an iCE40 SB_LUT4 cell
-- (the board), else the same function in plain logic (simulation,
-- Verilator, the generic block fits). Here and not in hdl/boards/ because
-- the initiator decides which of its paths must stay one LUT deep.
entity pci_lut4 is
  generic (
    INIT : std_logic_vector(15 downto 0);
    HARD : boolean := false);
  port (
    i0, i1, i2, i3 : in  std_logic;
    o              : out std_logic);
end entity;

architecture rtl of pci_lut4 is
  component SB_LUT4 is
    generic (LUT_INIT : std_logic_vector(15 downto 0));
    port (I0, I1, I2, I3 : in std_logic; O : out std_logic);
  end component;
begin
  hard_g : if HARD generate
    l : SB_LUT4 generic map (LUT_INIT => INIT)
      port map (I0 => i0, I1 => i1, I2 => i2, I3 => i3, O => o);
  end generate;
  soft_g : if not HARD generate
    -- an input at X decides nothing when every value it could take gives
    -- the same output (the pad read back while nobody drives it, say)
    process (all)
      variable v : std_logic_vector(3 downto 0);
      variable r : std_logic;
      variable first, match : boolean;
    begin
      v := to_x01(i3 & i2 & i1 & i0);
      r := 'X';
      first := true;
      for a in 0 to 15 loop
        match := true;
        for k in 0 to 3 loop
          if (v(k) = '1' and (a / 2 ** k) mod 2 = 0) or
             (v(k) = '0' and (a / 2 ** k) mod 2 = 1) then
            match := false;
          end if;
        end loop;
        if match then
          if first then
            r := INIT(a);
            first := false;
          elsif r /= INIT(a) then
            r := 'X';
          end if;
        end if;
      end loop;
      o <= r;
    end process;
  end generate;
end architecture;

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.synpcix_regs_pkg.all;

entity pci_initiator is
  generic (
    -- false: the bus outputs are the pins' values (each from a flip-flop);
    -- true: they are those flip-flops' next values, for registers outside
    -- (the board's I/O-cell output and enable registers, or pci_interface's
    -- own). The same logic either way; docs/pci.md "Pins".
    NEXT_OUT      : boolean := false;
    -- the LUTs that take live inputs as SB_LUT4 cells (the iCE40 board)
    HARD_LUTS     : boolean := false);
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
    -- the other driver of AD (pci_interface: the target): its next value
    -- and enable, taken into the initiator's own one-LUT AD paths so that no
    -- select sits between those LUTs and the pins. The two never drive in
    -- the same clock.
    alt_ad        : in  std_logic_vector(31 downto 0) := (others => '0');
    alt_ad_oe     : in  std_logic := '0';
    -- PERR#'s next value before the live PAR (pci_interface merges it with
    -- the target's into one LUT): a read parity check is due (perr_chk)
    -- and PAR must equal par_x
    perr_chk      : out std_logic;
    par_x         : out std_logic;
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

  -- LUT4 contents (o = INIT(i3 i2 i1 i0)) of the one-LUT pin paths, from
  -- their functions so that no table is typed by hand
  type lut_kind is (L_SEL, L_FRAME, L_OE, L_IRDY, L_GNT, L_LT, L_PERR, L_REQ);
  function lut_init (k : lut_kind) return std_logic_vector is
    variable r : std_logic_vector(15 downto 0);
    variable i0, i1, i2, i3, o : boolean;
  begin
    for a in 0 to 15 loop
      i0 := a mod 2 = 1; i1 := (a / 2) mod 2 = 1;
      i2 := (a / 4) mod 2 = 1; i3 := (a / 8) mod 2 = 1;
      case k is
        -- hold (i2) while i0 and i1 (mode, TRDY# high), else load i3
        when L_SEL   => o := (i0 and i1 and i2) or (not (i0 and i1) and i3);
        -- FRAME#: i0 TRDY#, i1 STOP#, i2 stays/goes high anyway, i3 high if a word moves
        when L_FRAME => o := i2 or not i1 or (not i0 and i3);
        -- an enable i3, dropped when the final phase (i2) completes
        when L_OE    => o := i3 and not (i2 and not (i0 and i1));
        -- IRDY#: i3 the value held, high when the final phase (i2) completes
        when L_IRDY  => o := i3 or (i2 and not (i0 and i1));
        -- i1: decided by GNT# (i0) now: asserted; else i2
        when L_GNT   => o := (i1 and not i0) or (not i1 and i2);
        -- "the next phase is the last if a word moves": i1, or the latency
        -- timer out (i2) and GNT# (i0) deasserted
        when L_LT    => o := i1 or (i2 and i0);
        -- PERR#: i0 PAR, i1 check enabled, i2 the parity PAR must match
        when L_PERR  => o := not (i1 and (i0 xor i2));
        -- REQ#: i1 high anyway, or high if a word moves (TRDY# i0) and
        -- the next is the last (i2)
        when L_REQ   => o := i1 or (not i0 and i2);
      end case;
      if o then
        r(a) := '1';
      else
        r(a) := '0';
      end if;
    end loop;
    return r;
  end function;

  -- The bus is idle at an edge if it was at the edge before (FRAME# and
  -- IRDY# deasserted), or if a final data phase completed at the edge
  -- before (FRAME# deasserted, IRDY# and TRDY# or STOP# asserted) while
  -- GNT# was ours: its master releases IRDY# next, and without GNT# it
  -- cannot start a fast back-to-back transaction. So a master deciding on
  -- the pads' flip-flops starts when one deciding on the pads would,
  -- except after a master abort (a clock later).
  function idle_prev (frame, irdy, trdy, stop, gnt : std_logic) return std_logic is
  begin
    if frame = '1' and (irdy = '1' or ((trdy = '0' or stop = '0') and gnt = '0')) then
      return '1';
    end if;
    return '0';
  end function;

  -- IDLE: nothing to do (parks if granted). ACCEPT, ACCEPT2: two clocks so
  -- the burst buffer's first word is written before the bus side (a clock
  -- ahead of these registers, see the header) reads it. REQ: REQ#
  -- asserted, waiting for GNT# at an idle bus. ADDR: address phase(s).
  -- DATA: data phases. S_RELEASE: IRDY# driven high for its s/t/s clock.
  -- BACKOFF: REQ# high for two clocks after a target termination or the
  -- latency timer (PCI 2.3 3.3.3.2.2), then REQ again. CHECK: wait for the
  -- parity of the last data phase (PERR# comes two clocks after it), then
  -- dma_done.
  type state_t is (IDLE, ACCEPT, ACCEPT2, REQ, ADDR, DATA, S_RELEASE, BACKOFF, CHECK);
  signal state : state_t := IDLE;

  -- the request
  signal wr_q     : std_logic := '0';
  -- the address of the first word not yet on the bus: it moves on with
  -- each word (in the 4 KiB page, as the burst's address did), so no
  -- word index is added to it
  signal a_lo     : std_logic_vector(31 downto 2) := (others => '0');
  -- The upper address dword: bits 47..32 only (A_BITS, the register map's
  -- dma.info.addr_bits, which the driver reads for its DMA mask). Its bits
  -- from A_BITS up are never loaded and stay 0, so the requesters' upper
  -- address bits are dead logic too: 48 address bits were 68 logic cells
  -- fewer than 64 (session 20's measure). Nothing above 2^48 reaches the
  -- port: the slot RAM refuses such ring and cause addresses
  -- (stamp_engine), the event ring lies below 4 GiB, and the driver takes
  -- INTx when the host's MSI address is at or above 2^48.
  constant A_BITS : natural := DMA_INFO_ADDR_BITS_RESET_VALUE;
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
  -- it reads goes onto AD for a data phase only after it was written.
  signal buf_q    : word;
  signal fill     : unsigned(3 downto 0) := (others => '0');
  signal wd_rdy_q : std_logic := '0';

  -- the engine's copies of its bus outputs (a clock behind the pins)
  signal cbe_q    : std_logic_vector(3 downto 0) := (others => '0');
  signal ad_oe_q, cbe_oe_q, par_oe_q : std_logic := '0';
  signal frame_q, irdy_q : std_logic := '1';
  signal frame_oe_q, irdy_oe_q : std_logic := '0';
  signal perr_q   : std_logic := '1';
  signal perr_oe_q, perr_hold : std_logic := '0';
  signal req_q    : std_logic := '1';
  signal bus_par  : std_logic := '0';

  -- the bus at the last edge (and the one before): flip-flops straight
  -- from the pads. ad_r and cbe_r are the target's copies too (same
  -- initial value and input: Yosys keeps one).
  signal trdy_r, stop_r, devsel_r, devsel_rr, gnt_r : std_logic := '1';
  signal trdy_rr, stop_rr, gnt_rr : std_logic := '1';
  -- the bus is idle at the edge (idle_nx: at the next edge, as far as the
  -- edge before tells; idle_q: its flip-flop, for the engine a clock late)
  signal idle_nx : std_logic;
  signal frame_r, frame_rr, irdy_r, irdy_rr, perr_r : std_logic := '1';
  signal par_r    : std_logic := '0';
  signal ad_r     : word := (others => '0');
  signal cbe_r    : std_logic_vector(3 downto 0) := (others => '0');

  -- transaction bookkeeping
  -- latency timer, counts down to 1 (loaded with lat_timer itself: no
  -- subtractor in front of it; 0 and 1 both mean "run out")
  signal lt_cnt   : unsigned(7 downto 0) := (others => '0');
  -- clocks since the last address phase; DEVSEL# is looked at a clock
  -- late (its flip-flop), so the master abort is decided at 4
  signal dv_cnt   : unsigned(2 downto 0) := (others => '0');
  signal dv_seen  : std_logic := '0';
  signal tabort   : std_logic := '0';   -- the target is aborting this transaction
  signal err_ab   : std_logic_vector(1 downto 0) := "00";   -- master/target abort
  signal err_par  : std_logic := '0';
  signal cnt2     : unsigned(1 downto 0) := (others => '0');   -- BACKOFF / CHECK clocks

  -- parity checks one (read: PAR) and two (write: PERR#) clocks after a data phase
  signal rchk, wchk1, wchk2 : std_logic := '0';

  -- DMA port outputs
  signal ready_q, done_q : std_logic := '0';
  signal err_q    : std_logic_vector(1 downto 0) := "00";
  signal st_dperr, st_tabort, st_mabort, st_det : std_logic := '0';

  signal moved    : std_logic;   -- a data word moved at the last edge
  -- words not yet on the bus, a down-counter: loaded with the request's
  -- length, one less with each word that moves (a word index and a
  -- subtractor cost more). No reset: only a request's states read it
  -- (and the left flags), and the request loads it.
  signal rem_w    : unsigned(4 downto 0) := (others => '0');
  -- none, one, two and three words left after the one on the bus (rem_w
  -- as it is now: left0 and left1 are rem_w = 0 and rem_w = 1)
  signal left0 : std_logic := '1';
  signal left1, left2, left3 : std_logic := '0';
  -- next values of the registers (the combinational process computes
  -- them, the register process loads them): what the pins show now
  signal ready_q_nx : std_logic;
  signal done_q_nx : std_logic;
  signal st_dperr_nx : std_logic;
  signal st_tabort_nx : std_logic;
  signal st_mabort_nx : std_logic;
  signal st_det_nx : std_logic;
  signal bus_par_nx : std_logic;
  signal par_oe_q_nx : std_logic;
  signal fill_nx : unsigned(3 downto 0);
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
  signal a_lo_nx : std_logic_vector(31 downto 2);
  signal rem_w_nx : unsigned(4 downto 0);
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
  signal cmd_q_nx : std_logic_vector(3 downto 0);
  signal cbe_q_nx : std_logic_vector(3 downto 0);
  signal dac2_nx : std_logic;
  signal dv_cnt_nx : unsigned(2 downto 0);
  signal dv_seen_nx : std_logic;
  signal tabort_nx : std_logic;

  -- the pins' next values (p_*) and what they are prepared from (x_*)
  signal x_data, x_fin, x_ma, x_gsel : std_logic;
  signal x_frame_u, x_left2, x_ltx, x_frame_t : std_logic;
  signal x_frame_oe, x_irdy_oe, x_ad_oe, x_cbe_oe : std_logic;
  signal x_frame_oe_b, x_irdy_oe_b, x_ad_oe_b, x_cbe_oe_b, x_ad_gsel, x_oe_gsel : std_logic;
  signal x_irdy_k, x_ad_hold, x_perr_e, x_req_u : std_logic;
  signal x_ad : word;
  signal x_par, x_ra_hold : std_logic;
  signal x_ra1, x_ra2 : unsigned(3 downto 0);
  signal x_cbe : std_logic_vector(3 downto 0);
  signal x_addr : word;   -- the address phase's word, from registers
  signal b_state : state_t;
  constant INIT_REQ : std_logic_vector(15 downto 0) := lut_init(L_REQ);
  signal p_ad : word;
  signal p_cbe : std_logic_vector(3 downto 0);
  signal p_ad_oe, p_cbe_oe, p_frame, p_frame_oe, p_irdy, p_irdy_oe : std_logic;
  signal p_par_oe, p_perr, p_perr_oe, p_req, p_pq : std_logic;
  -- parity of the AD and C/BE# loaded into the pins at the last edge: PAR's
  -- next value whenever the initiator drives AD
  signal pq : std_logic := '0';
begin
  assert A_BITS > 32 and A_BITS <= 64
    report "pci_initiator: dma.info.addr_bits must be 33..64" severity failure;
  -- the engine's view of the last edge
  moved <= '1' when state = DATA and irdy_q = '0' and trdy_r = '0' else '0';
  -- the compares a clock ahead, from the next value, so none of them is
  -- in front of the pins' prepared values
  process (clk)
  begin
    if rising_edge(clk) then
      left0 <= '1' when rem_w_nx = 0 else '0';
      left1 <= '1' when rem_w_nx = 1 else '0';
      left2 <= '1' when rem_w_nx = 2 else '0';
      left3 <= '1' when rem_w_nx = 3 else '0';
    end if;
  end process;

  -- the bus at the edge: no logic in front of these flip-flops but the
  -- reset gate the target's copies have too
  process (clk)
  begin
    if rising_edge(clk) then
      trdy_r <= trdy_n_in;
      stop_r <= stop_n_in;
      devsel_r <= devsel_n_in;
      devsel_rr <= devsel_r;
      gnt_r <= gnt_n;
      gnt_rr <= gnt_r;
      trdy_rr <= trdy_r;
      stop_rr <= stop_r;
      frame_r <= frame_n_in;
      frame_rr <= frame_r;
      irdy_r <= irdy_n_in;
      irdy_rr <= irdy_r;
      perr_r <= perr_n_in;
      par_r <= par_in;
      ad_r <= ad_in;
      cbe_r <= cbe_n_in;
      if rst = '1' then
        frame_r <= '1';
        frame_rr <= '1';
        irdy_r <= '1';
        par_r <= '0';
      end if;
    end if;
  end process;

  buf_we <= wd_rdy_q;
  buf_wa <= fill;

  -- The block RAM alone in its processes (GHDL synthesis needs it so).
  -- Written on the falling edge, read at rising edges: with both on the
  -- same edge Yosys 0.23 adds read-during-write emulation (70 flip-flops,
  -- 36 LUTs), which this buffer never needs. The word taken at a rising
  -- edge is held in wr_* and written at the next falling edge, so the
  -- half-clock path into the RAM starts at flip-flops (nextpnr does not
  -- time it as half a clock). The bus side reads word k at the earliest
  -- a clock and a half after it was taken (ACCEPT2). wr_* have no reset:
  -- until the first word is taken they write nothing (wr_e follows
  -- wd_rdy_q, reset) or junk into a buffer that holds nothing yet.
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

  -- The protocol engine, a clock late: next values of every register from
  -- the registers and the bus's flip-flop copies. Its next values are the
  -- state of a master that decides on the pads; the pins' logic further
  -- down does that master's next step from them and the live pads.
  process (all)
    variable phase_end, last_next, lt_out, bus_idle : boolean;
    variable cmd : std_logic_vector(3 downto 0);
  begin
    ready_q_nx <= ready_q;
    done_q_nx <= done_q;
    fill_nx <= fill;
    wd_rdy_q_nx <= wd_rdy_q;
    perr_hold_nx <= perr_hold;
    err_par_nx <= err_par;
    perr_q_nx <= perr_q;
    perr_oe_q_nx <= perr_oe_q;
    lt_cnt_nx <= lt_cnt;
    ad_oe_q_nx <= ad_oe_q;
    cbe_oe_q_nx <= cbe_oe_q;
    a_hi_nx <= a_hi;
    wr_q_nx <= wr_q;
    a_lo_nx <= a_lo;
    rem_w_nx <= rem_w;
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
    bus_par_nx    <= xor_all(ad_r) xor xor_all(cbe_r);
    par_oe_q_nx   <= ad_oe_q;
    -- a bus master may start or park when it sees GNT# at an edge after
    -- which the bus was idle; idle is looked at one edge earlier than GNT#
    -- (FRAME#/IRDY# reach no logic live). With a PCI arbiter that is the
    -- same: at an idle bus it leaves a clock between two grants (PCI 2.3
    -- 3.4.1), so nobody else can have started in between.
    bus_idle := idle_prev(frame_rr, irdy_rr, trdy_rr, stop_rr, gnt_rr) = '1';

    -- filling the burst buffer: one word per clock, len words, the first
    -- at address len, the others below it (modulo 16: fill counts down
    -- from the length, the last word is written at 1). Word k is at len -
    -- k, so the bus side reads the first word not yet on the bus at
    -- rem_w, and no register keeps the length. fill has no reset: the
    -- request that sets wd_rdy_q loads it.
    if wd_rdy_q = '1' then
      fill_nx <= fill - 1;
      if fill = 1 then
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
      if (bus_par xor par_r) = '1' then
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
      -- first data phase (high unless bad), with parity error response on
      perr_oe_q_nx <= perr_resp;
      perr_hold_nx <= '1';
    elsif perr_hold = '1' then
      perr_q_nx <= '1';               -- s/t/s: high for one clock, then released
      perr_hold_nx <= '0';
    else
      perr_q_nx <= '1';
      perr_oe_q_nx <= '0';
    end if;
    if wchk2 = '1' and perr_r = '0' and perr_resp = '1' then
      st_dperr_nx <= '1';
      err_par_nx  <= '1';
    end if;

    if lt_cnt(7 downto 1) /= 0 then
      lt_cnt_nx <= lt_cnt - 1;
    end if;

    -- a word moved (in DATA only): the next word's address, one word less
    if moved = '1' then
      a_lo_nx(11 downto 2) <= std_logic_vector(unsigned(a_lo(11 downto 2)) + 1);
      rem_w_nx <= rem_w - 1;
    end if;

    case state is
      when IDLE | ACCEPT | ACCEPT2 | BACKOFF | CHECK =>
        -- parking: granted at an idle bus, drive AD, C/BE# (and PAR a
        -- clock later) so they do not float (PCI 2.3 3.4.3); let go the
        -- clock after GNT# goes
        if gnt_r = '0' and bus_idle then
          ad_oe_q_nx  <= '1';
          cbe_oe_q_nx <= '1';
        else
          ad_oe_q_nx  <= '0';
          cbe_oe_q_nx <= '0';
        end if;
        case state is
          when IDLE =>
            if dma_hi_ld = '1' then
              a_hi_nx(A_BITS - 33 downto 0) <= dma_addr(A_BITS - 1 downto 32);
            end if;
            if dma_valid = '1' then
              ready_q_nx  <= '1';
              wr_q_nx     <= dma_write;
              a_lo_nx     <= dma_addr(31 downto 2);
              if dma_hi_keep = '0' then
                a_hi_nx(A_BITS - 33 downto 0) <= dma_addr(A_BITS - 1 downto 32);
              end if;
              rem_w_nx    <= unsigned(dma_len);
              fill_nx     <= unsigned(dma_len(3 downto 0));
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
                -- REQ# from the request on: the pin follows these
                -- registers a clock late, so it is asserted in ACCEPT2,
                -- as it was in REQ when the engine decided on the pads
                req_q_nx <= '0';
              end if;
            end if;
          when ACCEPT =>
            -- from the register, not the port: then the address inputs
            -- feed only their flip-flops (and a requester mux in front of
            -- them packs into the same logic cells)
            dac_q_nx <= '1' when a_hi /= x"00000000" else '0';
            state_nx <= ACCEPT2;
            req_q_nx <= '0';
          when ACCEPT2 =>
            state_nx <= REQ;
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
        if wr_q = '1' then
          cmd := CMD_MEM_WRITE;
        elsif left1 = '1' then
          cmd := CMD_MEM_READ;
        else
          -- several words: Memory Read Multiple lets a bridge prefetch
          cmd := CMD_MEM_READ_M;
        end if;
        -- C/BE# carries the command whether or not the address phase
        -- starts: it is driven only if it does, and so the pins' next value
        -- does not wait for GNT#
        cmd_q_nx <= cmd;
        cbe_q_nx <= CMD_DAC when dac_q = '1' else cmd;
        irdy_q_nx <= '1';
        frame_q_nx <= '0';
        if master_enable = '0' then
          -- bus mastering switched off: the rest of the request goes nowhere
          req_q_nx    <= '1';
          ad_oe_q_nx  <= '0';
          cbe_oe_q_nx <= '0';
          err_ab_nx   <= "01";
          cnt2_nx     <= "00";
          state_nx    <= CHECK;
        elsif gnt_r = '0' and bus_idle then
          -- ours and idle: the address phase is the next clock
          frame_oe_q_nx <= '1';
          irdy_oe_q_nx  <= '1';
          ad_oe_q_nx    <= '1';
          cbe_oe_q_nx   <= '1';
          dac2_nx   <= '0';
          -- runs out lat_timer clocks after FRAME# is asserted (it counts
          -- from the next edge)
          lt_cnt_nx <= unsigned(lat_timer);
          state_nx  <= ADDR;
        else
          ad_oe_q_nx  <= '0';
          cbe_oe_q_nx <= '0';
        end if;

      when ADDR =>
        dv_cnt_nx  <= "000";
        dv_seen_nx <= '0';
        tabort_nx  <= '0';
        if dac_q = '1' and dac2 = '0' then
          -- dual address cycle: upper half and the real command
          cbe_q_nx <= cmd_q;
          dac2_nx  <= '1';
        else
          if wr_q = '0' then
            ad_oe_q_nx <= '0';        -- turnaround: the target drives AD next
          end if;
          cbe_q_nx  <= "0000";        -- all bytes
          irdy_q_nx <= '0';
          state_nx  <= DATA;
          if left1 = '1' then
            frame_q_nx <= '1';        -- one data phase left: it is the last
            req_q_nx   <= '1';
          end if;
        end if;

      when DATA =>
        -- DEVSEL# of the edge before (its flip-flop's flip-flop): the
        -- master abort a clock later than a master deciding on the pad,
        -- which PCI allows (FRAME# may stay asserted until it decides)
        if devsel_rr = '0' then
          dv_seen_nx <= '1';
        end if;
        if dv_cnt /= 4 then
          dv_cnt_nx <= dv_cnt + 1;
        end if;
        phase_end := irdy_q = '0' and (trdy_r = '0' or stop_r = '0');
        if moved = '1' then
          last_next := left2 = '1';
        else
          last_next := left1 = '1';
        end if;
        lt_out := lt_cnt(7 downto 1) = 0 and gnt_r = '1';
        if dv_seen = '0' and devsel_rr = '1' and dv_cnt = 4 then
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
          if stop_r = '0' and devsel_r = '1' then
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
            if (stop_r = '0' and devsel_r = '1') or tabort = '1' then
              st_tabort_nx <= '1';
              err_ab_nx    <= "10";
            end if;
          elsif stop_r = '0' or last_next or lt_out then
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
        if err_ab /= "00" or left0 = '1' then
          state_nx <= CHECK;
        else
          -- retried, disconnected or timed out: the rest is a new
          -- transaction from address a_lo, after REQ# was high two clocks
          state_nx <= BACKOFF;
        end if;
    end case;

    if rst = '1' then
      state_nx <= IDLE;
      ad_oe_q_nx <= '0'; cbe_oe_q_nx <= '0'; par_oe_q_nx <= '0';
      frame_q_nx <= '1'; frame_oe_q_nx <= '0'; irdy_q_nx <= '1'; irdy_oe_q_nx <= '0';
      perr_q_nx <= '1'; perr_oe_q_nx <= '0'; perr_hold_nx <= '0'; req_q_nx <= '1';
      wd_rdy_q_nx <= '0'; ready_q_nx <= '0'; done_q_nx <= '0';
      rchk_nx <= '0'; wchk1_nx <= '0'; wchk2_nx <= '0';
      st_dperr_nx <= '0'; st_tabort_nx <= '0'; st_mabort_nx <= '0'; st_det_nx <= '0';
      err_ab_nx <= "00"; err_par_nx <= '0'; err_q_nx <= "00";
      cnt2_nx <= "00"; dv_cnt_nx <= "000"; dv_seen_nx <= '0'; tabort_nx <= '0'; dac2_nx <= '0';
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
      a_lo <= a_lo_nx;
      rem_w <= rem_w_nx;
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
      cmd_q <= cmd_q_nx;
      cbe_q <= cbe_q_nx;
      dac2 <= dac2_nx;
      dv_cnt <= dv_cnt_nx;
      dv_seen <= dv_seen_nx;
      tabort <= tabort_nx;
    end if;
  end process;

  -- The pins' next values: the engine's next step from its next values
  -- (x_*, prepared a clock ahead: no live input in them) and the live
  -- pads, each through one LUT (pci_lut4). Which pad decides what:
  --   TRDY#/STOP#: the final data phase completes (IRDY# high, FRAME#,
  --   AD, C/BE# released), FRAME# deasserted after a completed phase, AD
  --   and the burst buffer's read address move on with a word;
  --   GNT#: parking and the address phase (with idle from the edge before);
  --   PAR: PERR# of read data. REQ# is the engine's own, a clock later
  --   than PCI's state machine would change it (only the arbiter reads it).
  -- The engine's next state as the pins need it: the same transitions as
  -- the engine's, but IDLE's (on the DMA port, a long path from the
  -- requester) left out: every state IDLE can go to parks alike.
  process (all)
  begin
    b_state <= state;
    case state is
      when ACCEPT =>
        b_state <= ACCEPT2;
      when ACCEPT2 =>
        b_state <= REQ;
      when BACKOFF =>
        if cnt2 = 1 then
          b_state <= REQ;
        end if;
      when CHECK =>
        if cnt2 = 2 and wd_rdy_q = '0' then
          b_state <= IDLE;
        end if;
      when REQ =>
        if master_enable = '0' then
          b_state <= CHECK;
        elsif gnt_r = '0' and idle_prev(frame_rr, irdy_rr, trdy_rr, stop_rr, gnt_rr) = '1' then
          b_state <= ADDR;
        end if;
      when ADDR =>
        if dac_q = '0' or dac2 = '1' then
          b_state <= DATA;
        end if;
      when DATA =>
        if dv_seen = '0' and devsel_rr = '1' and dv_cnt = 4 then
          if frame_q = '1' then
            b_state <= S_RELEASE;
          end if;
        elsif irdy_q = '0' and (trdy_r = '0' or stop_r = '0') and frame_q = '1' then
          b_state <= S_RELEASE;
        end if;
      when S_RELEASE =>
        if err_ab /= "00" or left0 = '1' then
          b_state <= CHECK;
        else
          b_state <= BACKOFF;
        end if;
      when others =>
        null;
    end case;
    if rst = '1' then
      b_state <= IDLE;
    end if;
  end process;

  process (all)
    variable s : state_t;
    variable in_data, dacfirst, ma, fin, stay : std_logic;
    variable ad : word;
    variable cbe : std_logic_vector(3 downto 0);
    variable par : std_logic;
    variable k1, k2 : unsigned(1 downto 0);
  begin
    s := b_state;
    in_data := '0';
    if s = DATA then
      in_data := '1';
    end if;
    -- the first of a dual address cycle's address phases is next: a
    -- start from REQ with a non-zero upper address (dac_q is set in
    -- ACCEPT, so it is the register here)
    dacfirst := '0';
    if state = REQ then
      dacfirst := dac_q;
    end if;
    -- the master abort the engine will see at the next edge (DEVSEL# of
    -- this edge, in its flip-flop now)
    ma := '0';
    if s = DATA and dv_seen_nx = '0' and devsel_r = '1' and dv_cnt_nx = 4 then
      ma := '1';
    end if;
    -- the final data phase is on the bus (it ends with TRDY# or STOP#)
    fin := in_data and not ma and frame_q_nx;
    -- a data phase not yet the last, no master abort
    stay := in_data and not ma and not frame_q_nx;
    x_data <= in_data;
    x_ma <= ma;
    x_fin <= fin;
    -- rem_w moves on with the word the engine saw move (moved)
    x_left2 <= '0';
    if (moved = '0' and left2 = '1') or (moved = '1' and left3 = '1') then
      x_left2 <= stay;
    end if;
    x_ltx <= '0';
    if lt_cnt_nx(7 downto 1) = 0 then
      x_ltx <= stay;
    end if;
    -- a GNT# decision at the next edge: park, or start the address phase
    x_gsel <= '0';
    if rst = '0' and idle_nx = '1' then
      if s = IDLE or s = ACCEPT or s = ACCEPT2 or s = BACKOFF or s = CHECK or
         (s = REQ and master_enable = '1') then
        x_gsel <= '1';
      end if;
    end if;
    x_oe_gsel <= '0';
    if rst = '0' and idle_nx = '1' and s = REQ and master_enable = '1' then
      x_oe_gsel <= '1';
    end if;

    -- FRAME#: high anyway (U), or high if a word moves (T, with GNT#)
    if s = DATA then
      x_frame_u <= frame_q_nx or ma;
    elsif s = ADDR and dacfirst = '0' and left1 = '1' then
      x_frame_u <= '1';
    elsif s = REQ then
      x_frame_u <= '0';
    else
      x_frame_u <= frame_q_nx;
    end if;
    -- IRDY#: the value unless the final phase completes
    if s = DATA then
      x_irdy_k <= irdy_q_nx or (ma and frame_q_nx);
    elsif s = ADDR then
      x_irdy_k <= irdy_q_nx and dacfirst;
    elsif s = REQ then
      x_irdy_k <= '1';
    else
      x_irdy_k <= irdy_q_nx;
    end if;

    -- enables without the live pads (GNT# decides where x_*gsel says)
    x_frame_oe_b <= frame_oe_q_nx and not (ma and frame_q_nx);
    if s = S_RELEASE then
      x_irdy_oe_b <= '0';
    else
      x_irdy_oe_b <= irdy_oe_q_nx;
    end if;
    if s = DATA then
      x_ad_oe_b  <= ad_oe_q_nx and not (ma and frame_q_nx);
      x_cbe_oe_b <= cbe_oe_q_nx and not (ma and frame_q_nx);
    elsif s = ADDR then
      x_ad_oe_b  <= ad_oe_q_nx and (dacfirst or wr_q);
      x_cbe_oe_b <= cbe_oe_q_nx;
    elsif s = S_RELEASE then
      x_ad_oe_b  <= ad_oe_q_nx;
      x_cbe_oe_b <= cbe_oe_q_nx;
    else
      x_ad_oe_b  <= '0';
      x_cbe_oe_b <= '0';
    end if;
    if alt_ad_oe = '1' then
      x_ad_oe_b <= '1';
    end if;
    x_ad_gsel <= '0';
    if rst = '0' and idle_nx = '1' and alt_ad_oe = '0' then
      if s = IDLE or s = ACCEPT or s = ACCEPT2 or s = BACKOFF or s = CHECK or
         (s = REQ and master_enable = '1') then
        x_ad_gsel <= '1';
      end if;
    end if;

    -- the word for AD: the address, the upper address, the burst buffer's
    -- word; the other driver's when it drives. Its parity is PAR's next
    -- value: the parity of each source (registers), then the select, so
    -- the XOR tree is not behind the state.
    if alt_ad_oe = '1' then
      -- the target drives AD and its own PAR: this parity is not used
      ad := alt_ad;
      par := '0';
    elsif s = DATA or (s = ADDR and dacfirst = '0') then
      ad := buf_q;
      par := xor_all(buf_q);
    elsif s = ADDR then
      ad := a_hi;
      par := xor_all(a_hi);
    else
      -- the address phase's word (a_lo changes only in DATA and at the
      -- request; a parked bus may carry any word)
      ad := x_addr;
      par := xor_all(x_addr);
    end if;
    x_ad <= ad;
    x_ad_hold <= in_data and not alt_ad_oe;
    if s = REQ then
      if dac_q = '1' then
        cbe := CMD_DAC;
      elsif wr_q = '1' then
        cbe := CMD_MEM_WRITE;
      elsif left1 = '1' then
        cbe := CMD_MEM_READ;
      else
        cbe := CMD_MEM_READ_M;
      end if;
    elsif s = ADDR and dacfirst = '1' then
      cbe := cmd_q_nx;
    elsif s = ADDR then
      cbe := "0000";
    else
      cbe := cbe_q_nx;
    end if;
    x_cbe <= cbe;
    x_par <= par xor xor_all(cbe);
    -- the burst buffer's read address: buf_q holds the word that goes onto
    -- AD at the next edge (the first at the last address phase, then the
    -- word after the one on AD, one further when a word moves)
    -- (from rem_w and moved: rem_w_nx also depends on the DMA port)
    -- (two adders of small offsets, not one adder per offset)
    if s = DATA then
      k1 := "01" + ('0' & moved);
      k2 := "10" + ('0' & moved);
    elsif s = ADDR and dacfirst = '0' then
      k1 := "01";
      k2 := "01";
    else
      k1 := "00";
      k2 := "00";
    end if;
    -- (the k-th word after the first not yet on the bus is at rem_w - k,
    -- see fill)
    x_ra1 <= rem_w(3 downto 0) - k1;
    x_ra2 <= rem_w(3 downto 0) - k2;
    x_perr_e <= rchk_nx and perr_resp;
    x_req_u <= req_q_nx;
    if (s = ADDR and dacfirst = '0' and left1 = '1') or (ma = '1' and frame_q_nx = '1') then
      x_req_u <= '1';
    end if;
  end process;

  idle_nx <= idle_prev(frame_r, irdy_r, trdy_r, stop_r, gnt_r);
  x_addr <= a_lo & "00";

  lut_frame_t : entity work.pci_lut4
    generic map (INIT => lut_init(L_LT), HARD => HARD_LUTS)
    port map (i0 => gnt_n, i1 => x_left2, i2 => x_ltx, i3 => '0', o => x_frame_t);
  lut_frame : entity work.pci_lut4
    generic map (INIT => lut_init(L_FRAME), HARD => HARD_LUTS)
    port map (i0 => trdy_n_in, i1 => stop_n_in, i2 => x_frame_u, i3 => x_frame_t, o => p_frame);
  lut_frame_g : entity work.pci_lut4
    generic map (INIT => lut_init(L_GNT), HARD => HARD_LUTS)
    port map (i0 => gnt_n, i1 => x_oe_gsel, i2 => x_frame_oe_b, i3 => '0', o => x_frame_oe);
  lut_frame_oe : entity work.pci_lut4
    generic map (INIT => lut_init(L_OE), HARD => HARD_LUTS)
    port map (i0 => trdy_n_in, i1 => stop_n_in, i2 => x_fin, i3 => x_frame_oe, o => p_frame_oe);
  lut_irdy : entity work.pci_lut4
    generic map (INIT => lut_init(L_IRDY), HARD => HARD_LUTS)
    port map (i0 => trdy_n_in, i1 => stop_n_in, i2 => x_fin, i3 => x_irdy_k, o => p_irdy);
  lut_irdy_oe : entity work.pci_lut4
    generic map (INIT => lut_init(L_GNT), HARD => HARD_LUTS)
    port map (i0 => gnt_n, i1 => x_oe_gsel, i2 => x_irdy_oe_b, i3 => '0', o => p_irdy_oe);
  lut_ad_g : entity work.pci_lut4
    generic map (INIT => lut_init(L_GNT), HARD => HARD_LUTS)
    port map (i0 => gnt_n, i1 => x_ad_gsel, i2 => x_ad_oe_b, i3 => '0', o => x_ad_oe);
  lut_ad_oe : entity work.pci_lut4
    generic map (INIT => lut_init(L_OE), HARD => HARD_LUTS)
    port map (i0 => trdy_n_in, i1 => stop_n_in, i2 => x_fin, i3 => x_ad_oe, o => p_ad_oe);
  lut_cbe_g : entity work.pci_lut4
    generic map (INIT => lut_init(L_GNT), HARD => HARD_LUTS)
    port map (i0 => gnt_n, i1 => x_gsel, i2 => x_cbe_oe_b, i3 => '0', o => x_cbe_oe);
  lut_cbe_oe : entity work.pci_lut4
    generic map (INIT => lut_init(L_OE), HARD => HARD_LUTS)
    port map (i0 => trdy_n_in, i1 => stop_n_in, i2 => x_fin, i3 => x_cbe_oe, o => p_cbe_oe);
  ad_bits : for i in 0 to 31 generate
    lut_ad : entity work.pci_lut4
      generic map (INIT => lut_init(L_SEL), HARD => HARD_LUTS)
      port map (i0 => x_ad_hold, i1 => trdy_n_in, i2 => ad_in(i), i3 => x_ad(i), o => p_ad(i));
  end generate;
  ra_bits : for i in 0 to 3 generate
    lut_ra : entity work.pci_lut4
      generic map (INIT => lut_init(L_SEL), HARD => HARD_LUTS)
      port map (i0 => x_data, i1 => trdy_n_in, i2 => x_ra1(i), i3 => x_ra2(i), o => buf_ra(i));
  end generate;
  lut_pq : entity work.pci_lut4
    generic map (INIT => lut_init(L_SEL), HARD => HARD_LUTS)
    port map (i0 => x_ad_hold, i1 => trdy_n_in, i2 => pq, i3 => x_par, o => p_pq);
  lut_perr : entity work.pci_lut4
    generic map (INIT => lut_init(L_PERR), HARD => HARD_LUTS)
    port map (i0 => par_in, i1 => x_perr_e, i2 => bus_par_nx, i3 => '0', o => p_perr);
  perr_chk <= x_perr_e;
  par_x <= bus_par_nx;
  p_cbe <= x_cbe;
  p_par_oe <= ad_oe_q_nx and not rst;
  p_perr_oe <= perr_resp when rchk_nx = '1' else perr_oe_q_nx and perr_hold_nx;
  -- REQ#: released with the start of the final data phase by count (a
  -- word moves and the next is the last, or a single-phase address),
  -- so the arbiter does not see a request that is over; its other
  -- changes follow the engine a clock late
  lut_req : entity work.pci_lut4
    generic map (INIT => INIT_REQ, HARD => HARD_LUTS)
    port map (i0 => trdy_n_in, i1 => x_req_u, i2 => x_left2, i3 => '0', o => p_req);

  process (clk)
  begin
    if rising_edge(clk) then
      pq <= p_pq;
    end if;
  end process;

  pins_now : if not NEXT_OUT generate
    signal q_ad : word := (others => '0');
    signal q_cbe : std_logic_vector(3 downto 0) := (others => '0');
    signal q_ad_oe, q_cbe_oe, q_par_oe, q_frame_oe, q_irdy_oe, q_perr_oe : std_logic := '0';
    signal q_frame, q_irdy, q_perr, q_req : std_logic := '1';
    signal q_par : std_logic := '0';
  begin
    process (clk)
    begin
      if rising_edge(clk) then
        q_ad <= p_ad; q_cbe <= p_cbe; q_ad_oe <= p_ad_oe; q_cbe_oe <= p_cbe_oe;
        q_par <= pq; q_par_oe <= p_par_oe; q_frame <= p_frame; q_frame_oe <= p_frame_oe;
        q_irdy <= p_irdy; q_irdy_oe <= p_irdy_oe; q_perr <= p_perr; q_perr_oe <= p_perr_oe;
        q_req <= p_req;
      end if;
    end process;
    ad_out      <= q_ad;
    ad_oe       <= q_ad_oe;
    cbe_n_out   <= q_cbe;
    cbe_n_oe    <= q_cbe_oe;
    par_out     <= q_par;
    par_oe      <= q_par_oe;
    frame_n_out <= q_frame;
    frame_n_oe  <= q_frame_oe;
    irdy_n_out  <= q_irdy;
    irdy_n_oe   <= q_irdy_oe;
    perr_n_out  <= q_perr;
    perr_n_oe   <= q_perr_oe;
    req_n       <= q_req;
  end generate;
  pins_next : if NEXT_OUT generate
    ad_out      <= p_ad;
    ad_oe       <= p_ad_oe;
    cbe_n_out   <= p_cbe;
    cbe_n_oe    <= p_cbe_oe;
    par_out     <= pq;
    par_oe      <= p_par_oe;
    frame_n_out <= p_frame;
    frame_n_oe  <= p_frame_oe;
    irdy_n_out  <= p_irdy;
    irdy_n_oe   <= p_irdy_oe;
    perr_n_out  <= p_perr;
    perr_n_oe   <= p_perr_oe;
    req_n       <= p_req;
  end generate;

  -- pragma translate_off
  -- The pins, loaded at the last edge, are what the engine's registers
  -- hold a clock later: each one-LUT path is its part of the engine
  -- (AD itself is checked by the testbenches' data; PAR against the
  -- parity of the pads). Runs in every simulation of the initiator.
  pins_vs_engine : block
    signal c_cbe : std_logic_vector(3 downto 0);
    signal c_v : std_logic_vector(12 downto 0) := (others => '0');
    signal c_req : std_logic := '1';
    signal c_rst, c_alt : std_logic := '1';
  begin
    process (clk)
    begin
      if rising_edge(clk) then
        c_v <= p_ad_oe & p_cbe_oe & pq & p_par_oe & p_frame & p_frame_oe &
               p_irdy & p_irdy_oe & p_perr & p_perr_oe & p_req & '0' & '0';
        c_cbe <= p_cbe;
        c_req <= req_q_nx;
        c_rst <= rst;
        c_alt <= alt_ad_oe;
      end if;
      if falling_edge(clk) then
        assert state = IDLE or b_state = state_nx
          report "pci_initiator: the pins' next state differs from the engine's" severity failure;
      end if;
      if falling_edge(clk) and c_rst = '0' and rst = '0' then
        assert c_v(12) = (ad_oe_q_nx or c_alt) report "pci_initiator: AD enable differs from the engine" severity failure;
        assert c_v(11) = cbe_oe_q_nx report "pci_initiator: C/BE# enable differs from the engine" severity failure;
        assert c_v(10) = bus_par_nx or c_v(9) = '0' report "pci_initiator: PAR is not the parity of AD, C/BE#" severity failure;
        assert c_v(9) = par_oe_q_nx report "pci_initiator: PAR enable differs from the engine" severity failure;
        assert c_v(8) = frame_q_nx or c_v(7) = '0' report "pci_initiator: FRAME# differs from the engine" severity failure;
        assert c_v(7) = frame_oe_q_nx report "pci_initiator: FRAME# enable differs from the engine" severity failure;
        assert c_v(6) = irdy_q_nx or c_v(5) = '0' report "pci_initiator: IRDY# differs from the engine" severity failure;
        assert c_v(5) = irdy_oe_q_nx report "pci_initiator: IRDY# enable differs from the engine" severity failure;
        assert c_v(4) = perr_q_nx or c_v(3) = '0' report "pci_initiator: PERR# differs from the engine" severity failure;
        assert c_v(3) = perr_oe_q_nx report "pci_initiator: PERR# enable differs from the engine" severity failure;
        -- REQ# is the engine's, or already its next where the LUT knows it
        assert c_v(2) = req_q or c_v(2) = req_q_nx report "pci_initiator: REQ# differs from the engine" severity failure;
        assert c_cbe = cbe_q_nx or c_v(11) = '0' report "pci_initiator: C/BE# differs from the engine" severity failure;
      end if;
    end process;
  end block;
  -- pragma translate_on

  mst_data_perr  <= st_dperr;
  mst_rcv_tabort <= st_tabort;
  mst_rcv_mabort <= st_mabort;
  mst_det_perr   <= st_det;
  dma_ready    <= ready_q;
  dma_wd_ready <= wd_rdy_q;
  -- read words a clock after their data phase, as the pads' engine would
  -- hand them out: its next value, and the AD flip-flops themselves
  dma_rd_valid <= rchk_nx;
  dma_rd_data  <= ad_r;
  -- done as the pads' engine would signal it (a clock before this
  -- engine's register): the request's last word is long in, and IDLE,
  -- a clock later here, waits for the next request anyway
  dma_done     <= done_q_nx;
  dma_err      <= err_q_nx;
  -- the engine's next values are the pads' state now: FRAME#/IRDY# driven
  mst_busy     <= frame_oe_q_nx or irdy_oe_q_nx;
end architecture;
