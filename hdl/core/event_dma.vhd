-- SPDX-License-Identifier: GPL-2.0-or-later
-- Event stamps to a ring in host memory by DMA (issue 3 item 5; registers
-- event.ring_* of the TOML, docs/stamping.md section 12). Bus clock.
--
-- The block sits on the clock core's register port (0x000..0x1FF) between
-- pci_target and clock_core and takes the event stamps the way the host
-- does: while the clock core says a stamp waits (ev_pending, the event
-- FIFO not empty, synchronised to this clock) it pops one (reads
-- stamp_ns_lo, stamp_ns_hi, stamp_info) and writes it into the ring as one
-- 16-byte entry. No event.status read first (session 7): ev_pending lags
-- the FIFO by a few clocks, so a pop may find it empty, which stamp_info's
-- valid bit shows; that entry is not completed (its words 0/1 are
-- overwritten by the next stamp) and nothing is counted. An
-- idle ring makes no access of its own, so the host's reads never wait
-- behind one (a read of time_ns_lo that waited behind an event.status
-- poll latched the time up to 19 bus clocks after its bracket began,
-- which gettimex64 and phc2sys cannot see; measured by the cosim test
-- evring-idle-reads-do-not-wait: 25..43 bus clocks with a free-running
-- poll every 64 clocks, a constant 25 with this).
--
-- Register port sharing: the host's accesses pass straight through
-- (combinational valid/addr, no added clock) unless this block has an
-- access of its own in flight; it starts one only in a clock in which the
-- host has none (h_valid = '0'), and the host's access then waits (its
-- valid held) until that one read is done. pci_target answers reads as
-- delayed transactions, so the wait costs the host a retry at most. The
-- three reads of a pop need not be atomic against the host: only a read of
-- stamp_ns_lo changes the FIFO, and the driver does not pop while the ring
-- is enabled (reading stamp_ns_hi/info in between changes nothing).
--
-- Ring writes are single-word DMA writes (dma_len 1) through arbiter port 1,
-- each word straight from the register read that fetched it, so the block
-- needs one 32-bit data register instead of an entry buffer. Words go out
-- in order 0 (ns lo), 1 (ns hi), 2 (stamp_info, valid bit set) and the
-- initiator completes them in order (PCI keeps posted writes in order), so
-- word 2 is in host memory only after the time: a driver that sees its
-- valid bit reads a complete entry, and it clears word 2 before handing
-- the entry back (ring_rd), so an old entry is never taken again. Event
-- rates are low (a PPS-class input, a few kHz at most); three bus
-- transactions per stamp cost nothing.
--
-- The ring is 2**RING_LOG2 entries aligned to its size (the address bits
-- below it come from the index, the base's are ignored): no write can
-- leave the ring and none crosses 4 KiB. It lies below 4 GiB (one base
-- register, no dual address cycle: the driver allocates it under a 32-bit
-- coherent DMA mask, which every PCI platform offers; a 64-bit base cost
-- 32 flip-flops here and the arbiter's address multiplexer for bits
-- 63..32). A full ring (ring_wr and ring_rd differ only in their top bit)
-- drops the popped stamp and counts it; a DMA error stops the ring
-- (dma_error) with the stamp lost, the arbiter reports it to the dma block
-- as requester 1.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.synpcix_regs_pkg.all;

entity event_dma is
  generic (
    RING_LOG2 : positive := 8);   -- 256 entries = one 4 KiB page
  port (
    clk : in std_logic;
    rst : in std_logic;
    -- a stamp waits in clock_core's event FIFO (level, this clock domain;
    -- it may lag the FIFO by a few clocks: the status read decides)
    ev_pending : in std_logic;
    -- register port from pci_target, clock-core range 0x000..0x1FF
    h_valid : in  std_logic;
    h_write : in  std_logic;
    h_addr  : in  std_logic_vector(11 downto 2);
    h_wdata : in  std_logic_vector(31 downto 0);
    h_ready : out std_logic;
    h_rdata : out std_logic_vector(31 downto 0);
    -- register port to clock_core (wdata is h_wdata: this block only reads)
    c_valid : out std_logic;
    c_write : out std_logic;
    c_addr  : out std_logic_vector(11 downto 2);
    c_ready : in  std_logic;
    c_rdata : in  std_logic_vector(31 downto 0);
    -- DMA requester (card_dma_arbiter port): writes of one word below
    -- 4 GiB; d_addr is the word address (byte address bits 31..2)
    d_valid    : out std_logic;
    d_addr     : out std_logic_vector(29 downto 0);
    d_wd_data  : out std_logic_vector(31 downto 0);
    d_ready    : in  std_logic;
    d_done     : in  std_logic;
    d_err      : in  std_logic_vector(1 downto 0));
end entity;

architecture rtl of event_dma is
  constant RL : natural := RING_LOG2;
  constant A_STATUS : unsigned(9 downto 0) := to_unsigned(REG_EVENT_STATUS / 4, 10);

  type state_t is (S_IDLE, S_READ, S_DMA);
  signal st : state_t;
  signal dropping : std_logic;                     -- ring full: pop and drop
  signal k : unsigned(1 downto 0);                 -- entry word 0..2
  signal own_w : std_logic_vector(1 downto 0);     -- own read: word in the status line
  signal m_act : std_logic;                        -- own register read in flight
  signal enable, dma_error : std_logic;
  signal base : std_logic_vector(31 downto RL + 4);
  signal wr, rd : unsigned(RL downto 0);           -- free-running, mod 2 x entries
  signal overruns : unsigned(7 downto 0);
  signal wd : std_logic_vector(31 downto 0);
  signal dv : std_logic;
  signal h_done : std_logic;
  signal my_rdata : std_logic_vector(31 downto 0);
  signal full : std_logic;

  -- The port carries the clock-core range only (card_core passes a host
  -- access here when reg_addr(11 downto 9) = "000"), so a register is told
  -- by address bits 8..2 alone. Every use is qualified by such an access:
  -- a write by h_done (clock_core's ready for the host's access), a read
  -- answer by card_core's choice of this side. The three bits more in each
  -- compare cost 21 of the block's 192 cells (session 8, block alone).
  function is_reg (a : std_logic_vector(11 downto 2); r : natural) return boolean is
  begin
    return unsigned(a(8 downto 2)) = to_unsigned((r / 4) mod 128, 7);
  end function;
begin
  assert RING_LOG2 <= 8
    report "event_dma: the ring must fit one 4 KiB page (RING_LOG2 <= 8)" severity failure;
  assert REG_EVENT_STAMP_NS_LO = REG_EVENT_STATUS + 4 and
         REG_EVENT_STAMP_NS_HI = REG_EVENT_STATUS + 8 and
         REG_EVENT_STAMP_INFO = REG_EVENT_STATUS + 12
    report "event_dma: reads event.status + 4 * (k + 1) for entry word k" severity failure;
  assert REG_EVENT_STATUS < 16#200#
    report "event_dma: event.status must lie in the clock core's window (c_addr)" severity failure;
  assert REG_EVENT_STATUS mod 16 = 0
    report "event_dma: event.status must start a 4-word line (own read address)" severity failure;
  assert REG_EVENT_RING_CTRL = REG_EVENT_RING_BASE + 4 and REG_EVENT_RING_RD = REG_EVENT_RING_BASE + 8
    report "event_dma: the ring registers are ring_base, ring_ctrl, ring_rd" severity failure;

  -- Every host access, the ring registers' too, goes to clock_core, which
  -- answers a ring register as a word it never writes (0, not counted in
  -- bad_access; session 7). This block takes the ring registers' writes as
  -- they complete and ORs ring_ctrl's fields into clock_core's 0: no
  -- 32-bit choice between two answers and no ready of its own (those were
  -- ~35 cells; a ring register access now takes clock_core's plain
  -- latency, 4 clocks, instead of 1).
  c_valid <= m_act or h_valid;
  c_write <= h_write and not m_act;
  -- the host's access completes: clock_core's ready for an access that is
  -- not this block's own (a master may drop valid in the ready clock, as
  -- sim/verilator/card_top.v does; addr/write/wdata are held through it)
  h_done  <= c_ready and not m_act;
  -- event.status is on a 4-word line (asserted above): the word in the
  -- line is 0 for the poll, k + 1 for entry word k, no adder on the address
  own_w   <= std_logic_vector(k + 1);
  -- bits 11..9 are 0: card_core passes a host access here only inside the
  -- clock core's window (h_addr(11 downto 9) = "000", held until ready),
  -- and event.status lies in it (asserted), so clock_regs' out-of-window
  -- check folds away (session 16: its mux and the decode's gating)
  c_addr(11 downto 9) <= "000";
  c_addr(8 downto 2) <= std_logic_vector(A_STATUS(6 downto 2)) & own_w when m_act = '1' else
                        h_addr(8 downto 2);
  h_ready <= c_ready and not m_act;
  h_rdata <= c_rdata or my_rdata;

  -- read data: ring_ctrl is the only readable ring register (ring_base and
  -- ring_rd are write-only), so each bit has one source, ORed into
  -- clock_core's answer (0 for this address); 0 at every other address;
  -- h_addr is held with h_valid until h_ready, so this needs no register
  rdmux : process (all)
  begin
    my_rdata <= (others => '0');
    if is_reg(h_addr, REG_EVENT_RING_CTRL) then
      my_rdata(EVENT_RING_CTRL_ENABLE_LSB) <= enable;
      if st /= S_IDLE then
        my_rdata(EVENT_RING_CTRL_BUSY_LSB) <= '1';
      end if;
      my_rdata(EVENT_RING_CTRL_DMA_ERROR_LSB) <= dma_error;
      my_rdata(EVENT_RING_CTRL_SIZE_LOG2_LSB + 3 downto EVENT_RING_CTRL_SIZE_LOG2_LSB) <=
        std_logic_vector(to_unsigned(RL, 4));
      my_rdata(EVENT_RING_CTRL_OVERRUNS_LSB + 7 downto EVENT_RING_CTRL_OVERRUNS_LSB) <=
        std_logic_vector(overruns);
      my_rdata(EVENT_RING_CTRL_WR_LSB + RL downto EVENT_RING_CTRL_WR_LSB) <= std_logic_vector(wr);
    end if;
  end process;

  -- 2**RL entries written and not yet taken: same index, other lap
  full <= '1' when wr(RL - 1 downto 0) = rd(RL - 1 downto 0) and wr(RL) /= rd(RL) else '0';

  d_valid   <= dv;
  d_addr    <= base & std_logic_vector(wr(RL - 1 downto 0)) & std_logic_vector(k);
  d_wd_data <= wd;

  process (clk)
  begin
    if rising_edge(clk) then
      if rst = '1' then
        st <= S_IDLE;
        dropping <= '0';
        k <= "00";
        m_act <= '0';
        enable <= '0';
        dma_error <= '0';
        base <= (others => '0');
        wr <= (others => '0');
        rd <= (others => '0');
        overruns <= (others => '0');
        wd <= (others => '0');
        dv <= '0';
      else
        -- host writes to the ring registers, as clock_core completes them
        if h_done = '1' then
          if h_write = '1' then
            if is_reg(h_addr, REG_EVENT_RING_BASE) then
              base <= h_wdata(31 downto RL + 4);
            end if;
            if is_reg(h_addr, REG_EVENT_RING_RD) then
              rd <= unsigned(h_wdata(RL downto 0));
            end if;
            if is_reg(h_addr, REG_EVENT_RING_CTRL) then
              enable <= h_wdata(EVENT_RING_CTRL_ENABLE_LSB);
              if enable = '0' and h_wdata(EVENT_RING_CTRL_ENABLE_LSB) = '1' then
                dma_error <= '0';
                wr <= (others => '0');
              end if;
            end if;
          end if;
        end if;

        -- own register read: starts in a clock without a host access
        if m_act = '1' and c_ready = '1' then
          m_act <= '0';
        end if;

        case st is
          when S_IDLE =>
            -- a pop only while a stamp waits, enabled and not stopped by an
            -- error; a full ring pops it and drops it (no DMA)
            k <= "00";
            dropping <= full;
            if enable = '1' and dma_error = '0' and ev_pending = '1' then
              st <= S_READ;
            end if;

          when S_READ =>
            if m_act = '0' and h_valid = '0' then
              m_act <= '1';
            end if;
            if m_act = '1' and c_ready = '1' then
              if k = 2 and c_rdata(EVENT_STAMP_INFO_VALID_LSB) = '0' then
                -- the FIFO was empty after all (ev_pending lags the FIFO
                -- by a few clocks, or a host pop against the rules): the
                -- entry stays free, words 0/1 are overwritten by the next
                -- stamp; nothing counted
                st <= S_IDLE;
              elsif dropping = '1' then
                -- stamp_ns_lo popped it; its info says whether there was one
                if k = 2 then
                  overruns <= overruns + 1;
                  st <= S_IDLE;
                else
                  k <= "10";
                end if;
              else
                wd <= c_rdata;
                dv <= '1';
                st <= S_DMA;
              end if;
            end if;

          when S_DMA =>
            if d_ready = '1' then
              dv <= '0';
            end if;
            if d_done = '1' then
              if d_err /= "00" then
                dma_error <= '1';
                st <= S_IDLE;
              elsif k = 2 then
                wr <= wr + 1;
                st <= S_IDLE;                       -- the next stamp, if one waits
              else
                k <= k + 1;
                st <= S_READ;
              end if;
            end if;
        end case;
      end if;
    end if;
  end process;
end architecture;
