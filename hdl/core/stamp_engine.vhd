-- SPDX-License-Identifier: GPL-2.0-or-later
-- Descriptor stamping engine (bus clock), docs/stamping.md. For each
-- capture popped from msi_capture's FIFO:
--   1. load the slot's row of stamp_slot_ram (ring, offsets, index, ...);
--   2. optionally read the NIC's cause register (cause_en): its read clears
--      it, and its completion pushes the NIC's earlier descriptor writes
--      ahead of our ring reads (PCI ordering);
--   3. read the done words of the entries from the card's index onward in
--      bursts (<= 16 words, never across a 4 KiB page or the ring's end);
--   4. stamp each completed entry in ring order, up to the first one that
--      is not, with a 2-word write over its stamp field: the first with the
--      capture's time (exact); before each later one, if the next capture
--      in the FIFO is for the same slot, take it over (pop it, count it)
--      and stamp the entry exactly with its time, else stamp it with the
--      latest time and the batched flag; at most ring_count - 1 entries
--      per pass;
--   5. write back what is left to the row: empty, dma_errors, the cause
--      words, the last stamp and the index (the counters are counted in
--      the row as their events happen, by the counter sequencer mu_*);
--   6. request the slot's card interrupt (all stamp writes have completed
--      on the bus, so the MSI written after them arrives after them).
-- The register window (capture_regs) reaches the RAM only while the engine
-- is idle; captures and window accesses alternate when both wait.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.synpcix_regs_pkg.all;

entity stamp_engine is
  generic (
    N_SLOTS     : positive := 4;
    FIFO_LOG2   : positive := 8;
    -- ring entries up to 2^IDX_W (msi_slots.info.ring_log2): the index,
    -- the count and the pass's stamp count are IDX_W bits. 12: 4096
    -- entries, the largest RX ring of Linux's e1000 / e1000e / igb
    -- (E1000_MAX_RXD); 16 bits (65535 entries) were ~30 logic cells more
    IDX_W       : positive := 12);
  port (
    clk : in std_logic;
    rst : in std_logic;
    -- capture FIFO (msi_capture, first word falls through)
    cap_empty : in  std_logic;
    cap_kind  : in  std_logic;
    cap_slot  : in  std_logic_vector(2 downto 0);
    cap_lost  : in  std_logic_vector(7 downto 0);
    cap_data  : in  std_logic_vector(15 downto 0);
    cap_ns    : in  std_logic_vector(47 downto 0);
    cap_pop   : out std_logic;
    cap_rpos  : in  std_logic_vector(FIFO_LOG2 downto 0);
    -- cap_rpos + 1 in a clock of cap_pop (the FIFO's own read adder)
    cap_rnxt  : in  std_logic_vector(FIFO_LOG2 downto 0);
    cap_wpos  : in  std_logic_vector(FIFO_LOG2 downto 0);
    -- register window: row word win_word of slot win_slot
    win_req   : in  std_logic;
    win_write : in  std_logic;
    win_slot  : in  std_logic_vector(2 downto 0);
    win_word  : in  std_logic_vector(4 downto 0);
    win_wdata : in  std_logic_vector(31 downto 0);
    win_ack   : out std_logic;
    win_rdata : out std_logic_vector(31 downto 0);
    -- DMA requester port (card_dma_arbiter)
    d_valid    : out std_logic;
    d_write    : out std_logic;
    d_addr     : out std_logic_vector(61 downto 0);
    d_len      : out std_logic_vector(4 downto 0);
    d_wd_data  : out std_logic_vector(31 downto 0);
    d_ready    : in  std_logic;
    d_wd_ready : in  std_logic;
    d_rd_valid : in  std_logic;
    d_rd_data  : in  std_logic_vector(31 downto 0);
    d_done     : in  std_logic;
    d_err      : in  std_logic_vector(1 downto 0);
    -- card interrupt request for a handled capture (card_irq)
    ev_valid : out std_logic;
    ev_slot  : out std_logic_vector(2 downto 0);
    busy     : out std_logic;
    init     : out std_logic);
end entity;

architecture rtl of stamp_engine is
  -- row words, from the register map (window offsets 0x80..)
  function wrd (reg : natural) return natural is
  begin
    return (reg - REG_MSI_SLOTS_CTRL) / 4;
  end function;
  constant W_CTRL      : natural := wrd(REG_MSI_SLOTS_CTRL);
  constant W_BASE_LO   : natural := wrd(REG_MSI_SLOTS_RING_BASE_LO);
  constant W_BASE_HI   : natural := wrd(REG_MSI_SLOTS_RING_BASE_HI);
  constant W_COUNT     : natural := wrd(REG_MSI_SLOTS_RING_COUNT);
  constant W_STRIDE    : natural := wrd(REG_MSI_SLOTS_RING_STRIDE);
  constant W_STAMP_OFF : natural := wrd(REG_MSI_SLOTS_STAMP_OFF);
  constant W_DONE_OFF  : natural := wrd(REG_MSI_SLOTS_DONE_OFF);
  constant W_DONE_MASK : natural := wrd(REG_MSI_SLOTS_DONE_MASK);
  constant W_CAUSE_LO  : natural := wrd(REG_MSI_SLOTS_CAUSE_ADDR_LO);
  constant W_CAUSE_HI  : natural := wrd(REG_MSI_SLOTS_CAUSE_ADDR_HI);
  constant W_INDEX     : natural := wrd(REG_MSI_SLOTS_INDEX);
  constant W_CAPTURES  : natural := wrd(REG_MSI_SLOTS_CAPTURES);
  constant W_STAMPED   : natural := wrd(REG_MSI_SLOTS_STAMPED);
  constant W_BATCHED   : natural := wrd(REG_MSI_SLOTS_BATCHED);
  constant W_EMPTY     : natural := wrd(REG_MSI_SLOTS_EMPTY);
  constant W_OVERFLOW  : natural := wrd(REG_MSI_SLOTS_OVERFLOW);
  constant W_DMA_ERR   : natural := wrd(REG_MSI_SLOTS_DMA_ERRORS);
  constant W_CAUSE_LAST : natural := wrd(REG_MSI_SLOTS_CAUSE_LAST);
  constant W_CAUSE_ACC : natural := wrd(REG_MSI_SLOTS_CAUSE_ACC);
  constant W_LAST_LO   : natural := wrd(REG_MSI_SLOTS_LAST_STAMP_LO);
  constant W_LAST_HI   : natural := wrd(REG_MSI_SLOTS_LAST_STAMP_HI);
  constant W_LAST_DATA : natural := wrd(REG_MSI_SLOTS_LAST_DATA);
  constant W_SETTLE    : natural := wrd(REG_MSI_SLOTS_SETTLE);
  constant W_HEAD_LO   : natural := wrd(REG_MSI_SLOTS_HEAD_ADDR_LO);
  constant W_AMBIG     : natural := wrd(REG_MSI_SLOTS_AMBIGUOUS);
  -- The capture being stamped lives in the row, not in 48 + 16
  -- flip-flops: its time's low word in last_stamp_lo (which the pass's
  -- write-back would set to it anyway), its time's high 16 bits and its
  -- message data in a scratch word past the window's words (the window
  -- never reaches it). Written as the capture is popped, read back for
  -- each stamp write and for the write-back of last_stamp_hi / last_data.
  constant W_CAP_SCR   : natural := W_AMBIG + 1;
  -- Pairing by count (docs/stamping.md 5): the verdict of the latest cause
  -- read and the RX head read after it for the slot's next capture (bit
  -- 0: it is the late MSI of an entry already stamped; bit 1: skip the
  -- next head read). Written at the pass's end, read as the next pass of
  -- the slot loads its row.
  constant W_EXP       : natural := W_CAP_SCR + 1;
  -- a word no clock writes after S_INIT (0): the sequencer's first operand
  -- for an item written from its own operand alone (the verdict word)
  constant W_ZERO      : natural := W_EXP + 1;
  -- bus address bits the initiator carries (pci_initiator's A_BITS)
  constant A_BITS : natural := DMA_INFO_ADDR_BITS_RESET_VALUE;
  constant MARKER : std_logic_vector(5 downto 0) :=
    std_logic_vector(to_unsigned(MSI_SLOTS_LAST_STAMP_HI_MARKER_VALID, 6));

  -- the driver-writable words (offsets up to index) and their reset values
  function writable (w : natural) return boolean is
  begin
    return w <= W_INDEX or w = W_SETTLE or w = W_HEAD_LO;
  end function;

  function reset_of (w : natural) return std_logic_vector is
  begin
    if w = W_STRIDE then return MSI_SLOTS_RING_STRIDE_RESET;
    elsif w = W_STAMP_OFF then return MSI_SLOTS_STAMP_OFF_RESET;
    elsif w = W_DONE_OFF then return MSI_SLOTS_DONE_OFF_RESET;
    elsif w = W_DONE_MASK then return MSI_SLOTS_DONE_MASK_RESET;
    elsif w = W_COUNT then return MSI_SLOTS_RING_COUNT_RESET;
    elsif w = W_CTRL then return MSI_SLOTS_CTRL_RESET;
    elsif w = W_SETTLE then return MSI_SLOTS_SETTLE_RESET;
    else return x"00000000";
    end if;
  end function;

  -- load order (step li reads load_word(li), the data arrives at li + 1)
  constant N_LOAD : natural := 12;
  function load_word (li : natural) return natural is
  begin
    case li is
      when 0 => return W_CTRL;      -- (used in S_RCA0: read for nothing)
      when 1 => return W_BASE_LO;
      when 2 => return W_EXP;       -- (ring_base_hi: S_PLAN0 reads it)
      when 3 => return W_COUNT;
      when 4 => return W_STRIDE;
      when 5 => return W_STAMP_OFF;
      when 6 => return W_DONE_OFF;
      when 7 => return W_DONE_MASK;
      when 8 => return W_SETTLE;   -- (the cause address is read in S_RCA0)
      when 9 => return W_INDEX;
      when 10 => return W_CAUSE_HI;   -- (read for nothing)
      when others => return W_STAMPED;
    end case;
  end function;

  -- The row's counters are read-modify-written by one micro-sequencer
  -- (mu_*) over one 32-bit adder whose second operand is an event flag or
  -- the capture's 8-bit lost count, at the moment the events happen: no
  -- per-pass counters. Items (read item u, write it one clock later):
  --   0..2  a popped capture: captures + 1, overflow + lost, empty + stale
  --         (the pass's own capture during S_MUL, a takeover or a stale
  --         pop in S_CNT after S_CHK);
  --   3..4  a completed stamp write: stamped + 1, batched + batched flag;
  --   0..10 the pass's end (S_UPD): the pending capture of a lost-only
  --         entry, empty (nothing stamped), dma_errors, the cause words,
  --         the last stamp's high word and data, the index; with head_en
  --         11..12 ambiguous and the verdict word (read from W_ZERO: the
  --         operand is the whole word, no write-data override).
  constant U_POP_LAST : natural := 2;
  constant U_ST_FIRST : natural := 3;
  constant U_ST_LAST  : natural := 4;
  constant U_END_LAST : natural := 12;
  function upd_word (u : natural) return natural is
  begin
    case u is
      when 0 => return W_CAPTURES;
      when 1 => return W_OVERFLOW;
      when 2 => return W_EMPTY;
      when 3 => return W_STAMPED;
      when 4 => return W_BATCHED;
      when 5 => return W_DMA_ERR;
      when 6 => return W_CAUSE_LAST;
      when 7 => return W_CAUSE_ACC;
      when 8 => return W_LAST_HI;
      when 9 => return W_LAST_DATA;
      when 10 => return W_INDEX;
      when 11 => return W_AMBIG;
      when others => return W_EXP;
    end case;
  end function;

  -- the word the sequencer writes back while mu_u = v: item v - 1's
  type wb_word_t is array (0 to 15) of natural range 0 to 31;
  function wb_words return wb_word_t is
    variable r : wb_word_t := (others => W_CAPTURES);
  begin
    for v in 1 to U_END_LAST + 1 loop
      r(v) := upd_word(v - 1);
    end loop;
    return r;
  end function;
  constant WB_WORD : wb_word_t := wb_words;

  -- the word S_UPD reads for item u (it writes upd_word(u)): last_stamp_hi
  -- and last_data of a capture come from the scratch word, the verdict
  -- from the zero word, and cause_last after a cause read (c) too: its
  -- write is then the adder's output (0) ORed with the value, like
  -- cause_acc's (its word + 0, ORed), with no select of the RAM output
  function upd_rword (u : natural; k, c : std_logic) return natural is
  begin
    if c = '1' and upd_word(u) = W_CAUSE_LAST then
      return W_ZERO;
    end if;
    if k = '1' and (upd_word(u) = W_LAST_HI or upd_word(u) = W_LAST_DATA) then
      return W_CAP_SCR;
    end if;
    if upd_word(u) = W_EXP then
      return W_ZERO;
    end if;
    return upd_word(u);
  end function;

  type state_t is (S_INIT, S_IDLE, S_WIN, S_WGAP, S_RCA0, S_CWAIT, S_LOAD, S_MUL, S_RCA, S_CAUSE, S_RHD, S_PLAN0, S_PLAN, S_READ,
                   S_SETTLE,
                   S_CHK, S_WRITE, S_CNT, S_UPD, S_EV);
  signal st : state_t;

  -- RAM port
  signal r_we    : std_logic;
  signal r_waddr, r_raddr : std_logic_vector(7 downto 0);
  signal r_wdata, r_rdata : std_logic_vector(31 downto 0);

  -- init address / load / update step. S_LOAD's item li (read at step li)
  -- is on r_rdata at step li + 1: its decode is a case over step with the
  -- choices shifted by one (no step - 1, and no registered copy of it)
  signal step    : unsigned(7 downto 0);
  -- the counter micro-sequencer: item mu_u read while mu_run, item
  -- mu_u - 1's word on r_rdata while mu_v (written back that clock: mu_u
  -- steps past the last item too, so the write-back decodes mu_u with its
  -- choices shifted by one, WB_WORD; a registered copy of mu_u took four
  -- cells of its own), mu_op its operand
  signal mu_run, mu_v, mu_fin : std_logic;
  signal mu_u, mu_end : unsigned(3 downto 0);
  signal mu_op   : unsigned(7 downto 0);
  -- events not yet counted in the row (cleared by the items that count them)
  signal ckind, cempty : std_logic;
  -- stamps and batched stamps of the current burst (at most 16), counted
  -- into the row at the pass's end or before the next ring read
  signal ps, pb  : unsigned(4 downto 0);
  signal lost8   : unsigned(7 downto 0);
  signal any     : std_logic;                  -- this pass stamped an entry
  -- a same-slot candidate waiting when the burst is done (no cause_en):
  -- the pass reads the ring again (S_CHK). lrr: the latest read was made
  -- for the candidate now at the head and stamped nothing: its entry was
  -- visible to that read, so it has none left (a TX completion's MSI)
  signal lrr, lft, again : std_logic;
  signal seq0    : unsigned(7 downto 0);       -- stamped at the pass's start
  signal win_turn : std_logic;             -- window before the next capture

  -- the capture
  signal slot    : std_logic_vector(2 downto 0);
  signal kind    : std_logic;
  signal fresh   : std_logic;                  -- ns not used for a stamp yet
  -- Pairing captures with entries (docs/stamping.md, "Which entry gets
  -- which time"). The NIC writes a descriptor before its MSI, and PCI keeps
  -- that order, so a capture latched before a ring read was served
  -- announced an entry that read saw. mark(s) is the FIFO position just
  -- past the captures visible when slot s's latest ring read completed:
  --   - at a pass's start, a capture before mark(s) is stale: its entry was
  --     found (and stamped) by an earlier pass, its time is not exact for
  --     anything found now;
  --   - during a pass, a same-slot capture before pmark, this pass's mark
  --     of slot s (but not before mark(s), which is the previous one until
  --     the pass ends) is a candidate: it takes the next found entry with
  --     its own time; captures after pmark are left for later (their
  --     entries were not visible to this read).
  -- With cause_en the NIC coalesces: entries completed between an MSI and
  -- the next cause read send none. A capture latched after the pass's
  -- cause read cleared the cause belongs to an entry after the coalesced
  -- ones, and pairing it in order would give a coalesced entry its time.
  -- So with cause_en the candidates end at cmark, the FIFO position when
  -- the pass's latest cause read completed; the coalesced entries get the
  -- batched flag.
  -- mark(s) keeps only the low FIFO_LOG2 bits of the position: it is read
  -- only while mark_v(s) is set, when it is 1 .. depth ahead of the head,
  -- so the pop that brings the head to it is the one whose next position
  -- has the same low bits (mark_full, simulation only, keeps all bits for
  -- mark_chk)
  type mark_t is array (0 to N_SLOTS - 1) of unsigned(FIFO_LOG2 - 1 downto 0);
  signal mark    : mark_t;
  -- pragma translate_off
  type mark_full_t is array (0 to N_SLOTS - 1) of unsigned(FIFO_LOG2 downto 0);
  signal mark_full : mark_full_t;
  -- pragma translate_on
  signal mark_v  : std_logic_vector(N_SLOTS - 1 downto 0);
  signal head_stale : std_logic;   -- head is before its slot's mark
  signal head_cand  : std_logic;   -- head is before the pass slot's mark
  -- a same-slot head in S_CHK is before mark(slot) (head_stale, but by
  -- the registered pass slot, not the FIFO's RAM output: bus_clk's
  -- critical path ran from cap_slot through head_stale, 66.2 MHz)
  signal head_old   : std_logic;
  signal pdrawn     : std_logic;   -- this pass drew pmark: mark(slot) at its end
  signal cmark      : unsigned(FIFO_LOG2 downto 0);
  -- the pass slot's mark of this pass's latest ring read (mark(slot) from
  -- the pass's end on: until then mark(slot) is the previous pass's, which
  -- the stale rule of S_CHK needs).
  -- pmark and cmark need no valid bit: S_CHK looks at them only after this
  -- pass set them (a ring read's mark before S_CHK, the first cause read
  -- before the ring with cause_en), and the head never passes them: a pop
  -- in S_CHK needs the head before pmark (and cmark) or before mark(slot),
  -- which an earlier pass set, so rpos <= cmark, pmark and "before" is exact
  signal pmark      : unsigned(FIFO_LOG2 downto 0);
  signal head_ccand : std_logic;   -- head is before cmark
  signal rpos1      : unsigned(FIFO_LOG2 - 1 downto 0);

  -- position p is before mark m (both mod 2 * depth, m at most depth ahead)
  function before (p, m : unsigned) return boolean is
    variable d : unsigned(p'range);
  begin
    d := m - p;
    return d /= 0 and d <= 2 ** (p'length - 1);
  end function;
  -- a capture was popped in S_CHK (taken over or stale) since the
  -- pass's latest cause read (cause_en: read the cause again) or ring read
  signal rearm   : std_logic;
  signal mc      : unsigned(3 downto 0);
  signal mc_run, drawn : std_logic;
  -- msi_slots.settle; mc counts it down to 1 (settle 0 and 1 both draw
  -- the mark at once): no settle - 1 in front of the load
  signal settle  : unsigned(3 downto 0);
  -- cause_busy: the pass's first cause read (issued in S_RCA0) is on the
  -- bus beside the row load; cerr: it, or the RX head read after it,
  -- ended in a DMA error (S_CWAIT then ends the pass)
  signal cause_busy, cerr : std_logic;
  -- the slot's row
  signal en, cause_en, head_en : std_logic;
  -- Pairing by count: the head read's state (hdue: a cause read wants
  -- one; heq: its value U equals L (the index, + 1 for a fresh capture)
  -- or the index, hlo: the index),
  -- and the decision of the pass's latest cause read: expect_v (the
  -- split entry k = U is known: the index then, + dplus) or amb (not
  -- known, or the read skipped: counted in ambiguous). nsd counts the
  -- stamps since the decision (saturating at 2): at the pass's end the
  -- index is past k, so the slot's next capture (k's MSI) is late,
  -- exactly when nsd /= dplus. Only that bit goes into the row.
  signal hbusy, hok, hskip, hdue, heq, hlo : std_logic;
  signal bulk    : std_logic;   -- this pass stamped 4 or more entries
  signal nst     : unsigned(2 downto 0);   -- its stamps, saturating at 4
  signal expect_v, amb, dplus : std_logic;
  signal nsd     : unsigned(1 downto 0);
  -- ring base: the low word only as part of eaddr, the high word only in
  -- daddr's high half, loaded from the RAM output in S_PLAN (S_PLAN0
  -- reads ring_base_hi; a cause read in between reloads it).
  -- An entry whose address carries into the high word (a ring across a
  -- 4 GiB boundary) is not touched: the pass ends there (docs/stamping.md 3)
  -- ring_count - 1 (17 bits: -1 for a count of 0), decremented on its
  -- way from the RAM output: the subtraction's LUTs share the cells of the
  -- flip-flops, which took a cell each with the RAM output alone. Kept
  -- inverted (ncm1 = not (count - 1)), like ntm1 and nroom: a subtrahend
  -- reaches a carry chain only through an inverter cell of its own per
  -- bit (the carry reads its operands raw), while x - y = not (not x + y)
  -- puts the inversion into the sum LUTs, which are there anyway
  signal ncm1    : unsigned(IDX_W downto 0);
  -- the stride in words. The stamp and done offsets have no flip-flops:
  -- the adder takes them from the RAM output, read in the clock before
  -- S_PLAN0 (done_off) and before every S_CHK clock that may stamp
  -- (stamp_off); see r_raddr
  signal sw      : unsigned(7 downto 0);
  -- a window write's upper address word reaches past A_BITS; its ring
  -- count is above 2^IDX_W; its index is not below 2^IDX_W
  signal hi_over, cnt_over, idx_over : std_logic;
  signal cfg_bad : std_logic;                  -- an offset/stride out of range
  signal idx     : unsigned(IDX_W - 1 downto 0);
  -- The entry's word address, ring_base_lo + idx * sw, with the carry out
  -- of ring_base_lo in bit 30 (kept as the index moves). ONE adder does all
  -- the address arithmetic, eaddr + opb: the multiplier steps (S_MUL: opb =
  -- mcand, which is zero outside S_MUL), the done word's address (S_PLAN0:
  -- + done_off), the stamp field's (S_CHK: + stamp_off) and the next entry
  -- (S_WRITE: + stride); every field offset comes from the RAM output. The
  -- ring base's low word is loaded into it in S_LOAD and again after a wrap
  -- (from the RAM output too). After the stamp write, the stride or the
  -- ring base is on the RAM output from the clock after the second word
  -- was taken (wsel2; a data phase before its d_done, so always so far),
  -- else a clock later: e_late, eaddr updated in S_CHK's first clock.
  signal eaddr   : unsigned(30 downto 0);
  signal opb     : unsigned(23 downto 0);
  signal fld     : unsigned(7 downto 0);
  signal esum    : unsigned(30 downto 0);
  signal e_late  : std_logic;
  signal e_ld, e_add, e_wdone, e_wrap : std_logic;
  -- the entry address carried out of ring_base_lo (registered with daddr:
  -- ends the pass in S_PLAN / S_WRITE, off the decision logic's paths)
  signal acar    : std_logic;
  signal seq     : unsigned(7 downto 0);
  signal mcand   : unsigned(IDX_W + 7 downto 0);  -- idx * sw, shift and add
                                               -- (zero outside S_MUL)
  -- (the multiplier's bits are sw's, bit step in S_MUL's clock step: no
  -- shift register beside sw)
  -- progress
  -- at most count - 1 stamps a pass (a ring never holds more completed
  -- entries): np counts the pass's stamps from 0, lim = (np = count - 1)
  -- stops the pass: the count - stamps = 1 of a down counter loaded with
  -- count, without the load multiplexer in front of its 16 bits (the
  -- start value is a constant). No limit in the burst planning;
  -- and no "idx + 1 = first index": that adder in front of S_CHK's
  -- decisions cut bus_clk to 60.4 MHz
  signal np      : unsigned(IDX_W - 1 downto 0);
  signal lim     : std_logic;
  signal err     : std_logic;
  signal cause_ok : std_logic;
  -- the pass's cause value: cleared as the pass starts, every cause read
  -- ORed in. Between passes it carries a window write's word from S_IDLE
  -- to S_WIN (loaded from win_wdata in every S_IDLE clock, written
  -- through the cause items' source, wb_cv): the write data needs no
  -- window source of its own (one enabled source takes two LUT inputs on
  -- each of its 32 bits; the load is a third input of cause_val's LUT)
  signal cause_val : std_logic_vector(31 downto 0);
  signal ne      : unsigned(4 downto 0);       -- entries in the burst
  -- entries after idx to the ring's end (count - 1 - idx; its sign is
  -- S_PLAN0's idx >= count, S_PLAN uses it only once S_PLAN0 found
  -- idx < count); inverted (ncm1): ntm1 = not (count - 1 - idx) = ncm1 + idx
  signal ntm1    : unsigned(IDX_W downto 0);
  -- ne <= count - 1 - idx's low 5 bits: ne + ntm1(4..0) <= 31 (no carry out)
  signal ne_sum  : unsigned(5 downto 0);
  -- the words the burst may still grow by: 16 - blen, less daddr(3..0)
  -- in a page's last 16 words (15 - daddr(3..0) = its complement at the
  -- start). One entry more fits exactly when sw <= room, a compare of two
  -- registers: no blen + sw (nb, bus_clk's critical path at 63.9 MHz
  -- before it was registered) and no daddr + nb for the page. Inverted
  -- (ncm1): nroom = 15 - room, so sw <= room is "nroom + sw has no carry
  -- out" and room - sw is that sum's low bits, one chain for both
  signal nroom   : unsigned(3 downto 0);
  signal room_sum : unsigned(4 downto 0);
  signal idx_out : std_logic;                  -- idx >= count
  -- the field offset on the RAM output in S_LOAD (stamp_off, done_off)
  -- plus its length - 1 (1 for the stamp field) is not below the stride:
  -- one comparator for both, shared over two load clocks
  signal fld_end : unsigned(8 downto 0);
  signal fld_out : std_logic;
  signal blen    : unsigned(4 downto 0);       -- words in the burst
  signal nd      : unsigned(4 downto 0);       -- leading done entries found
  signal alldone : std_logic;
  -- words to the next done word + 1: loaded with the stride and counted
  -- down to 1 (no sw - 1 in front of its load)
  signal wc      : unsigned(7 downto 0);
  -- DMA request
  signal dv      : std_logic;
  signal dwr     : std_logic;
  signal daddr   : unsigned(61 downto 0);
  signal wsel    : std_logic;
  -- the stamp's second word was taken: from the next clock the RAM output
  -- holds the ring base (r_raddr), for eaddr at a wrap
  signal wsel2   : std_logic;
  signal cap_scr : std_logic_vector(31 downto 0);   -- the head's scratch word
  signal stamp_hi : std_logic_vector(31 downto 0);
  signal same_next : std_logic;
  signal took    : std_logic;   -- a capture's pop: its scratch word next
  signal batched_now : std_logic;
  signal mu_sum  : unsigned(31 downto 0);   -- the sequencer's adder
  -- The write data's selects, decided a clock ahead (session 19): the
  -- sequencer's write-back overrides as flags registered beside mu_v in
  -- the clock that reads the item (cause_ok, kind and any do not change
  -- during S_UPD), not decodes of mu_u at the write; wd is r_wdata's input
  signal wb_cv, wb_hi, wb_dat, wb_idx, wb_s, wb_sh : std_logic;
  signal e_ns, e_ini : std_logic;
  signal wd      : std_logic_vector(31 downto 0);
begin
  assert IDX_W >= 6 and IDX_W <= 16
    report "stamp_engine: IDX_W must be 6..16 (a burst's 5-bit entry count; the 16-bit index word)"
    severity failure;
  ram : entity work.stamp_slot_ram
    port map (clk => clk, we => r_we, waddr => r_waddr, wdata => r_wdata,
              raddr => r_raddr, rdata => r_rdata);

  -- the one address adder (eaddr's comment)
  -- (S_PLAN0 done_off, S_CHK stamp_off, S_WRITE and e_late's S_CHK stride)
  fld <= (others => '0') when st = S_MUL else unsigned(r_rdata(9 downto 2));
  opb <= resize(mcand, 24) or resize(fld, 24);
  esum <= eaddr + resize(opb, 31);
  -- eaddr's loads: the ring base from the RAM output (S_LOAD's item 1; a
  -- wrap at the stamp write's d_done, or a clock later: e_late), or the
  -- adder (a multiplier step; the next entry at the stamp write's d_done
  -- or a clock later)
  e_wdone <= '1' when st = S_WRITE and d_done = '1' and d_err = "00" else '0';
  -- idx + 1 = count, from the registered count - 1 - idx (up to date
  -- wherever e_wrap is used: two clocks or more after idx or count changed)
  e_wrap  <= '1' when ntm1 = (ntm1'range => '1') else '0';
  -- (e_wrap in e_late's clock is still the stamp write's: ntm1 follows
  -- idx a clock late)
  e_ld  <= '1' when (st = S_LOAD and step(3 downto 0) = 1 + 1) or
                    ((e_late = '1' or (e_wdone = '1' and wsel2 = '1')) and e_wrap = '1') else '0';
  e_add <= '1' when (st = S_MUL and sw(to_integer(step(2 downto 0))) = '1') or
                    ((e_late = '1' or (e_wdone = '1' and wsel2 = '1')) and e_wrap = '0') else '0';

  -- the next capture waiting is for this slot: leave the rest to it
  idx_out <= not ntm1(IDX_W);
  ne_sum <= ('0' & ne) + ('0' & ntm1(4 downto 0));
  room_sum <= ('0' & nroom) + ('0' & sw(3 downto 0));
  fld_end <= resize(unsigned(r_rdata(9 downto 2)), 9) + 1 when step(3 downto 0) = 5 + 1 else
             resize(unsigned(r_rdata(9 downto 2)), 9);
  fld_out <= '1' when fld_end >= resize(sw, 9) else '0';

  same_next <= '1' when cap_empty = '0' and cap_kind = '1' and cap_slot = slot else '0';

  -- the head entry was visible at its slot's latest ring read. A mark's
  -- valid bit is set only while the FIFO holds a capture before it and is
  -- cleared by the pop that brings the head to it, so mark_v(s) = 1 says
  -- "the head is before mark(s)": no subtraction, no 9-bit multiplexer
  -- (mark_chk checks the claim in simulation)
  stale_p : process (all)
    variable vh : std_logic;
  begin
    vh := mark_v(0);
    for i in 1 to N_SLOTS - 1 loop
      if to_integer(unsigned(cap_slot)) = i then
        vh := mark_v(i);
      end if;
    end loop;
    head_stale <= vh;
    vh := mark_v(0);
    for i in 1 to N_SLOTS - 1 loop
      if to_integer(unsigned(slot)) = i then
        vh := mark_v(i);
      end if;
    end loop;
    head_old <= vh;
    -- the head never passes pmark or cmark where they are used (their
    -- comment), so "before" is "not at": an inequality, no subtraction
    head_cand <= '0';
    if unsigned(cap_rpos) /= pmark then
      head_cand <= '1';
    end if;
    head_ccand <= '0';
    if unsigned(cap_rpos) /= cmark then
      head_ccand <= '1';
    end if;
  end process;
  -- the head's position after a pop's edge, from the FIFO's own read
  -- adder: cap_pop is set only with a capture at the head (S_IDLE and
  -- S_CHK pop what they see, nothing else pops), so the FIFO's pop is
  -- taken and its next position is cap_rpos + 1 (an incrementer of the
  -- engine's own before; mark_chk asserts it)
  rpos1 <= unsigned(cap_rnxt(FIFO_LOG2 - 1 downto 0));


  -- pragma translate_off
  -- the claim behind head_cand and head_ccand's inequality, on every clock
  -- of every simulation of the engine
  mark_chk : process (clk)
    variable ra : std_logic_vector(7 downto 0);
  begin
    if rising_edge(clk) then
     if rst = '0' and st /= S_INIT then
      assert cap_pop = '0' or
             unsigned(cap_rnxt) = unsigned(cap_rpos) + 1
        report "stamp_engine: a pop's next head position is not cap_rpos + 1" severity error;
      for i in 0 to N_SLOTS - 1 loop
        assert mark_v(i) = '0' or before(unsigned(cap_rpos), mark_full(i))
          report "stamp_engine: mark_v set, head not before the mark" severity error;
      end loop;
      assert st /= S_PLAN or ra = slot & std_logic_vector(to_unsigned(W_BASE_HI, 5))
        report "stamp_engine: S_PLAN without ring_base_hi on the RAM output" severity error;
      assert st /= S_PLAN0 or ra = slot & std_logic_vector(to_unsigned(W_DONE_OFF, 5))
        report "stamp_engine: S_PLAN0 without done_off on the RAM output" severity error;
      assert e_add = '0' or st = S_MUL or ra = slot & std_logic_vector(to_unsigned(W_STRIDE, 5))
        report "stamp_engine: next entry without the stride on the RAM output" severity error;
      -- every S_CHK clock that may stamp (not an e_late one, not a pop's, nd /= 0)
      assert st /= S_CHK or e_late = '1' or cap_pop = '1' or nd = 0 or
             ra = slot & std_logic_vector(to_unsigned(W_STAMP_OFF, 5))
        report "stamp_engine: S_CHK without stamp_off on the RAM output" severity error;
      assert e_ld = '0' or st = S_LOAD or ra = slot & std_logic_vector(to_unsigned(W_BASE_LO, 5))
        report "stamp_engine: wrap without ring_base_lo on the RAM output" severity error;
      -- e_wrap from the registered count - 1 - idx where it is used
      if (st = S_WRITE and d_done = '1') or (hbusy = '1' and d_rd_valid = '1') then
        assert ncm1(IDX_W) = '0' or (e_wrap = '1') = (idx = not ncm1(IDX_W - 1 downto 0))
          report "stamp_engine: e_wrap from a stale count - 1 - idx" severity error;
      end if;
      -- room's growth test is the burst's limits: blen + sw <= 16 words
      -- and, in a page's last 16 words, daddr(3..0) + blen + sw <= 16
      if st = S_PLAN then
        assert (sw <= 15 - nroom) = (to_integer(blen) + to_integer(sw) <= 16 and
               (daddr(9 downto 4) /= "111111" or
                to_integer(daddr(3 downto 0)) + to_integer(blen) + to_integer(sw) <= 16))
          report "stamp_engine: room is not the burst's limits" severity error;
      end if;
      if st = S_CHK and cap_empty = '0' then
        assert unsigned(cap_rpos) = pmark or before(unsigned(cap_rpos), pmark)
          report "stamp_engine: FIFO head past pmark" severity error;
        assert cause_en = '0' or unsigned(cap_rpos) = cmark or
               before(unsigned(cap_rpos), cmark)
          report "stamp_engine: FIFO head past cmark" severity error;
      end if;
     end if;
     ra := r_raddr;
    end if;
  end process;
  -- pragma translate_on

  lft <= not lrr and same_next and head_cand and not head_old and not cause_en;
  again <= (rearm and not same_next) or lft;
  batched_now <= not fresh;
  -- on r_rdata in S_WRITE: last_stamp_lo for word 0, the scratch word
  -- (time bits 47..32 in its low half) for word 1
  stamp_hi <= MARKER & '0' & batched_now & std_logic_vector(seq) & r_rdata(15 downto 0);
  cap_scr <= cap_data & cap_ns(47 downto 32);

  -- RAM read address: the step's word of the slot's row, or the window's
  -- The RAM has no read-during-write logic (stamp_slot_ram, `_nrw`): no
  -- clock reads the word written at its end. The writes and the reads at
  -- the same edge: S_INIT writes step - 1 and reads row 0's word
  -- step(4 downto 0) (slot is 0 from the reset; never step - 1, and the
  -- high bits need no step source); a pop's last_data
  -- goes in while S_RCA0 reads ctrl; a takeover's while S_CHK reads
  -- stamp_off; the counter sequencer writes item u while reading item
  -- u + 2 (or, after its last item, stamp_off in S_CNT, the ring base or
  -- done_off in S_MUL and S_CWAIT);
  -- the last item (index, in S_EV) and the window's word (in S_WGAP) while
  -- captures is read, a word neither of them writes (read-only in the
  -- window).
  r_raddr <= slot & std_logic_vector(step(4 downto 0)) when st = S_INIT else
             slot & std_logic_vector(to_unsigned(upd_rword(to_integer(mu_u), kind, cause_ok), 5))
               when mu_run = '1' else
             slot & std_logic_vector(to_unsigned(W_CAPTURES, 5)) when st = S_WGAP or st = S_EV else
             win_slot & win_word when st = S_IDLE or st = S_WIN else
             -- the capture for a stamp write: S_WRITE's word 0 from
             -- last_stamp_lo, read in the S_CHK clock that may start the
             -- write (with nd /= 0 and no pop S_CHK leaves for S_WRITE, a
             -- pop's clock, or S_UPD: none needs the ring base next; a
             -- wrap's clock stamps nothing), word 1 from the scratch word
             -- from the first word's d_wd_ready on, in the clock of d_done
             -- stamp_off for S_CHK or, before the second word was taken
             -- (e_late), the stride or the ring base
             slot & std_logic_vector(to_unsigned(W_LAST_LO, 5))
               when st = S_CHK and nd /= 0 and cap_pop = '0' and e_late = '0' else
             slot & std_logic_vector(to_unsigned(W_LAST_LO, 5))
               when st = S_WRITE and d_done = '0' and wsel = '0' and d_wd_ready = '0' else
             slot & std_logic_vector(to_unsigned(W_CAP_SCR, 5))
               when st = S_WRITE and d_done = '0' and wsel2 = '0' and
                    not (wsel = '1' and d_wd_ready = '1') else
             slot & std_logic_vector(to_unsigned(W_STAMP_OFF, 5))
               when st = S_WRITE and d_done = '1' and wsel2 = '1' else
             -- for eaddr: the ring base's low word at a wrap, else the stride
             slot & std_logic_vector(to_unsigned(W_BASE_LO, 5)) when st = S_WRITE and e_wrap = '1' else
             slot & std_logic_vector(to_unsigned(W_STRIDE, 5)) when st = S_WRITE else
             slot & std_logic_vector(to_unsigned(load_word(to_integer(step(3 downto 0))), 5))
               when st = S_LOAD else
             slot & std_logic_vector(to_unsigned(W_DONE_MASK, 5)) when st = S_READ else
             slot & std_logic_vector(to_unsigned(W_CTRL, 5))
               when (st = S_RCA0 or st = S_RCA) and step = 0 else
             slot & std_logic_vector(to_unsigned(W_CAUSE_LO, 5))
               when (st = S_RCA0 or st = S_RCA) and step = 1 else
             slot & std_logic_vector(to_unsigned(W_CAUSE_HI, 5)) when st = S_RCA0 or st = S_RCA else
             slot & std_logic_vector(to_unsigned(W_HEAD_LO, 5)) when st = S_RHD else
             -- the field offsets for the one adder (fld): stamp_off before
             -- S_CHK (from S_SETTLE, S_CNT, S_WRITE, a wrap's S_CHK) and in
             -- S_CHK's clocks that do not stamp (nd /= 0; S_SETTLE lasts at
             -- least one clock after S_READ's done mask), done_off before
             -- S_PLAN0 (from S_CWAIT, S_CAUSE, S_CHK with nd = 0)
             slot & std_logic_vector(to_unsigned(W_STAMP_OFF, 5))
               when st = S_SETTLE or st = S_CNT or (st = S_CHK and nd /= 0) else
             slot & std_logic_vector(to_unsigned(W_DONE_OFF, 5))
               when st = S_CWAIT or st = S_CAUSE or st = S_CHK else
             -- every other state: the ring base's high word for S_PLAN
             -- (read in S_PLAN0 and S_PLAN); never written during a pass
             slot & std_logic_vector(to_unsigned(W_BASE_HI, 5));

  process (clk)
    variable old  : unsigned(31 downto 0);
    variable w    : natural range 0 to 31;
  begin
    if rising_edge(clk) then
      r_we <= '0';
      cap_pop <= '0';
      win_ack <= '0';
      ev_valid <= '0';
      if rst = '1' then
        st <= S_INIT;
        step <= (others => '0');
        win_turn <= '0';
        dv <= '0';
        dwr <= '0';
        daddr <= (others => '0');
        wsel <= '0';
        wsel2 <= '0';
        took <= '0';
        acar <= '0';
        r_waddr <= (others => '0');
        r_wdata <= (others => '0');
        d_len <= (others => '0');
        slot <= (others => '0');
        kind <= '0';
        mu_run <= '0';
        mu_v <= '0';
        wb_cv <= '0';
        wb_hi <= '0';
        wb_dat <= '0';
        wb_idx <= '0';
        wb_s <= '0';
        wb_sh <= '0';
        mu_fin <= '0';
        mu_u <= (others => '0');
        mu_end <= (others => '0');
        mu_op <= (others => '0');
        ckind <= '0';
        cempty <= '0';
        ps <= (others => '0');
        pb <= (others => '0');
        lost8 <= (others => '0');
        any <= '0';
        lrr <= '0';
        seq0 <= (others => '0');
        mark <= (others => (others => '0'));
        mark_v <= (others => '0');
        pdrawn <= '0';
        cmark <= (others => '0');
        pmark <= (others => '0');
        -- without a reset GHDL starts it 'U' and a capture without cause_en
        -- waited for a cause read forever (found by tb_synpcix_card);
        -- Verilator's zero start hid it
        cause_busy <= '0';
        cerr <= '0';
        hbusy <= '0';
        hok <= '0';
        hskip <= '0';
        hdue <= '0';
        heq <= '0';
        hlo <= '0';
        nst <= (others => '0');
        expect_v <= '0';
        dplus <= '0';
        nsd <= (others => '0');
        amb <= '0';
        head_en <= '0';
        -- these four had no reset either: GHDL's RTL run read the 'U' of
        -- rearm as "not set", its synthesis netlist as "set" (a second cause
        -- read and ring read after the first pass), the hardware starts 0;
        -- tb_capture_unit on the netlist differed from the RTL run by that
        rearm <= '0';
        mc <= (others => '0');
        mc_run <= '0';
        drawn <= '0';
        settle <= (others => '0');
        fresh <= '0';
        en <= '0';
        cause_en <= '0';
        ncm1 <= (others => '1');
        sw <= (others => '0');
        cfg_bad <= '0';
        idx <= (others => '0');
        nroom <= (others => '1');
        ntm1 <= (others => '1');
        eaddr <= (others => '0');
        e_late <= '0';
        seq <= (others => '0');
        mcand <= (others => '0');
        np <= (others => '0');
        err <= '0';
        cause_ok <= '0';
        cause_val <= (others => '0');
        ne <= (others => '0');
        blen <= (others => '0');
        nd <= (others => '0');
        alldone <= '0';
        wc <= (others => '0');
        ev_slot <= (others => '0');
      else
        took <= '0';
        -- the write port's default: the FIFO head's time into
        -- last_stamp_lo (a pop's first write). No hold: the word means
        -- something only in a clock that sets r_we, and every such clock
        -- sets it or takes this default (no enable, fewer select terms)
        r_waddr <= cap_slot & std_logic_vector(to_unsigned(W_LAST_LO, 5));
        r_wdata <= wd;
        -- count - 1 - idx registered: S_PLAN0 / S_PLAN read it at least two
        -- clocks after idx or count last changed (S_LOAD, S_WRITE ->
        -- S_CNT -> S_CHK), and the subtraction in front of the burst
        -- planning was bus_clk's critical path (59.7 MHz)
        ntm1 <= ncm1 + resize(idx, IDX_W + 1);
        -- the counter sequencer: read item mu_u (r_raddr), its operand
        -- registered beside it (off the RAM output -> adder path); write
        -- item mu_u - 1 back the clock its word is on r_rdata
        mu_v <= mu_run;
        wb_cv <= '0';
        wb_hi <= '0';
        wb_dat <= '0';
        wb_idx <= '0';
        wb_s <= mu_run;
        wb_sh <= mu_run;
        if mu_run = '1' then
          -- the write-back's sources for item mu_u, next clock (wd)
          case to_integer(mu_u) is
            when 6 | 7 => wb_cv <= cause_ok;
            when 8 =>
              wb_hi <= kind;
              wb_sh <= not kind;
            when 9 =>
              wb_dat <= kind;
              wb_s <= not kind;
              wb_sh <= not kind;
            when 10 =>
              wb_idx <= any;
              wb_s <= not any;
              wb_sh <= not any;
            when others => null;
          end case;
          mu_op <= (others => '0');
          case to_integer(mu_u) is
            when 0 => mu_op(0) <= ckind;
            when 1 => mu_op <= lost8;
            when 2 => mu_op(0) <= cempty or (mu_fin and kind and not any and not err);
            when 3 => mu_op(4 downto 0) <= ps;
            when 4 => mu_op(4 downto 0) <= pb;
            when 5 => mu_op(0) <= err;
            when 11 => mu_op(0) <= amb and pdrawn;
            when 12 =>
              -- the expectation for the slot's next capture (W_ZERO + the
              -- verdict), only after a ring read (its mark makes every
              -- later non-stale capture one latched after the cause read)
              mu_op(0) <= expect_v and pdrawn and (nsd(1) or (nsd(0) xor dplus));
              -- skip the next pass's head read after a pass that stamped 4
              -- or more entries (the engine runs behind the NIC: its head
              -- read would not decide, and it delays the ring read)
              mu_op(1) <= bulk;
            when others => null;
          end case;
          if mu_u = mu_end then
            mu_run <= '0';
          end if;
          mu_u <= mu_u + 1;
        end if;
        -- a pop moves the head past the last stale entry of a slot
        if cap_pop = '1' then
          for i in 0 to N_SLOTS - 1 loop
            if mark(i) = rpos1 then
              mark_v(i) <= '0';
            end if;
          end loop;
        end if;
        case st is
          when S_INIT =>
            -- every row to the register map's reset values
            r_we <= '1';
            r_waddr <= std_logic_vector(step);   -- (wd: reset_of)
            step <= step + 1;
            if step = 255 then
              st <= S_IDLE;
            end if;

          when S_IDLE =>
            step <= (others => '0');
            if win_req = '1' and (win_turn = '1' or cap_empty = '1') then
              -- the window word's read is under way (r_raddr follows win_*)
              win_turn <= '0';
              -- a write's word for S_WIN from cause_val (its comment)
              wb_cv <= win_write;
              st <= S_WIN;
            elsif cap_empty = '0' then
              win_turn <= '1';
              slot <= cap_slot;
              kind <= cap_kind;
              -- counted in the row during S_MUL (kind 1) or at the end
              ckind <= cap_kind;
              lost8 <= unsigned(cap_lost);
              cempty <= '0';
              any <= '0';
              lrr <= '0';
              fresh <= not head_stale;
              pdrawn <= '0';
              -- the capture into the row (the write port is free): the
              -- time's low word now, the scratch word in the next clock
              -- (took; the head stays on cap_* until the pop's edge)
              if cap_kind = '1' then
                r_we <= '1';   -- (r_waddr, r_wdata: the default)
                took <= '1';
              end if;
              cap_pop <= '1';
              err <= '0';
              cause_ok <= '0';
              cerr <= '0';
              rearm <= '0';
              hok <= '0';
              hdue <= '0';
              nst <= (others => '0');
              expect_v <= '0';
              amb <= '0';
              st <= S_RCA0;
            end if;

          when S_WIN =>
            -- the read issued in S_IDLE is on r_rdata
            w := to_integer(unsigned(win_word));
            win_ack <= '1';
            r_waddr <= win_slot & win_word;
            if win_write = '1' then
              -- an upper address word naming bits the initiator does not
              -- carry (dma.info.addr_bits) is refused: the card would
              -- read and write a different address; so are a ring count
              -- above 2^IDX_W and an index not below it (the engine keeps
              -- IDX_W bits of them)
              if writable(w) and not ((w = W_BASE_HI or w = W_CAUSE_HI) and hi_over = '1') and
                 not (w = W_COUNT and cnt_over = '1') and not (w = W_INDEX and idx_over = '1') then
                r_we <= '1';   -- (wd: win_wdata)
              end if;
            elsif w = W_CAUSE_ACC then
              r_we <= '1';      -- read clears (wd: 0)
            end if;
            -- the window holds win_req until it sees the ack: one clock
            -- apart so the same access is not served twice
            st <= S_WGAP;

          when S_WGAP =>
            st <= S_IDLE;

          when S_LOAD =>
            step <= step + 1;
            -- item li of load_word is on r_rdata at step li + 1
            case to_integer(step(3 downto 0)) is
              when 0 | 0 + 1 => null;   -- ctrl: S_RCA0 took it
              when 1 + 1 => null;   -- ring_base_lo: eaddr (e_ld)
              when 2 + 1 =>
                -- the slot's previous pass stamped 4 or more entries
                -- (bit 1): skip this pass's head read (line rate: the
                -- head runs ahead of the card, the read would not decide
                -- and delays the ring read); the pass counts as ambiguous
                hskip <= r_rdata(1);
                -- the previous pass's cause and head reads decided that
                -- the slot's next capture (this one, if it is not stale:
                -- latched after that pass's ring read, so after its
                -- cause read) is the MSI of an entry that pass stamped
                -- (bit 0, the late MSI): its time is no entry's exact
                -- time
                if head_en = '1' and r_rdata(0) = '1' then
                  fresh <= '0';
                end if;
              -- (count <= 2^IDX_W: the window refuses more, cnt_over)
              when 3 + 1 => ncm1 <= not (unsigned(r_rdata(IDX_W downto 0)) - 1);
              when 4 + 1 =>
                sw <= unsigned(r_rdata(9 downto 2));
                cfg_bad <= '0';
                -- a stride < 8 bytes (2 words) or >= 1024
                if r_rdata(31 downto 10) /= (31 downto 10 => '0') or
                   r_rdata(9 downto 3) = (9 downto 3 => '0') then
                  cfg_bad <= '1';
                end if;
              when 5 + 1 | 6 + 1 =>
                -- the 2-word stamp field inside the entry: stamp + 2 > sw
                -- in 9 bits (an 8-bit stamp + 1 wrapped at 255 and let
                -- stamp_off 1020 with stride 1020 through); the done word
                -- inside the entry: done >= sw (fld_end)
                if r_rdata(31 downto 10) /= (31 downto 10 => '0') or fld_out = '1' then
                  cfg_bad <= '1';
                end if;
              when 7 + 1 => null;   -- done_mask: read again during S_READ
              when 8 + 1 => settle <= unsigned(r_rdata(3 downto 0));
              when 9 + 1 =>
                idx <= unsigned(r_rdata(IDX_W - 1 downto 0));   -- (idx_over)
              when 10 + 1 => null;
              when others =>   -- stamped
                seq <= unsigned(r_rdata(7 downto 0));
                seq0 <= unsigned(r_rdata(7 downto 0));
            end case;
            if step = N_LOAD then
              np <= (others => '0');
              if kind = '0' then
                st <= S_UPD;
                step <= (others => '0');
              else
                -- the capture into the row's counters while S_MUL runs (it
                -- uses neither RAM port)
                mu_run <= '1';
                mu_fin <= '0';
                mu_u <= (others => '0');
                mu_end <= to_unsigned(U_POP_LAST, 4);
                -- eaddr += idx * sw by shift and add (the index may have
                -- been written by the driver)
                mcand <= resize(idx, IDX_W + 8);
                step <= (others => '0');
                st <= S_MUL;
              end if;
            end if;

          when S_MUL =>
            step <= step + 1;
            mcand <= mcand(IDX_W + 6 downto 0) & '0';
            if step = 7 then
              -- opb is the field offset alone from here on
              mcand <= (others => '0');
              st <= S_CWAIT;
            end if;

          when S_CWAIT =>
            -- the cause read started in S_RCA0 must be done before the ring
            -- is read (its completion orders the NIC's descriptor writes)
            if cause_busy = '0' and hbusy = '0' and cap_pop = '0' then
              if cerr = '1' then
                err <= '1';
                step <= (others => '0');
                st <= S_UPD;
              elsif hdue = '1' then
                -- the RX head's read, right after the cause read (same
                -- target: the NIC serves it after the cause)
                step <= (others => '0');
                st <= S_RHD;
              else
                -- pairing by count: L (the entries known completed
                -- before the cause read: the index, + 1 for a fresh
                -- capture's own entry), U the head read after it (heq)
                if hskip = '1' and head_en = '1' and cause_en = '1' then
                  amb <= '1';
                elsif hok = '1' then
                  dplus <= fresh and not hlo;
                  nsd <= (others => '0');
                  expect_v <= heq;
                  amb <= not heq;
                end if;
                st <= S_PLAN0;
              end if;
            end if;

          when S_RCA0 =>
            -- control word and cause address first: the cause read goes out
            -- while the rest of the row loads, so the NIC re-arms early
            step <= step + 1;
            if step = 1 then
              en <= r_rdata(MSI_SLOTS_CTRL_ENABLE_LSB);
              cause_en <= r_rdata(MSI_SLOTS_CTRL_CAUSE_EN_LSB);
              head_en <= r_rdata(MSI_SLOTS_CTRL_HEAD_EN_LSB);
            elsif step = 2 then
              daddr(29 downto 0) <= unsigned(r_rdata(31 downto 2));
            elsif step = 3 then
              daddr(61 downto 30) <= unsigned(r_rdata);
              if cause_en = '1' and kind = '1' then
                dv <= '1';
                dwr <= '0';
                d_len <= "00001";
                cause_busy <= '1';
              end if;
              step <= (others => '0');
              st <= S_LOAD;
            end if;

          when S_RCA =>
            -- the cause address again (daddr held ring addresses)
            step <= step + 1;
            if step = 2 then
              daddr(29 downto 0) <= unsigned(r_rdata(31 downto 2));
            elsif step = 3 then
              daddr(61 downto 30) <= unsigned(r_rdata);
              rearm <= '0';
              dv <= '1';
              dwr <= '0';
              d_len <= "00001";
              st <= S_CAUSE;
            end if;

          when S_RHD =>
            -- head_addr_lo on the RAM output from step 1; daddr's high
            -- half is still cause_addr_hi, d_len and d_write the cause
            -- read's
            step <= step + 1;
            if step = 1 then
              daddr(29 downto 0) <= unsigned(r_rdata(31 downto 2));
              dv <= '1';
              hbusy <= '1';
              hdue <= '0';
              hok <= '0';
              st <= S_CWAIT;
            end if;

          when S_CAUSE =>
            -- (its value: cause_val, below)
            if d_done = '1' then
              if d_err /= "00" then
                err <= '1';
                st <= S_UPD;
                step <= (others => '0');
              else
                cause_ok <= '1';
                cmark <= unsigned(cap_wpos);
                if head_en = '1' and hskip = '0' then
                  -- the RX head next (S_CWAIT -> S_RHD)
                  hdue <= '1';
                  st <= S_CWAIT;
                else
                  st <= S_PLAN0;
                end if;
              end if;
            end if;

          when S_PLAN0 =>
            -- eaddr: entry idx (kept as the index moves); the index must be
            -- inside the ring and the fields inside an entry
            -- (the stride and the fields were checked as the row loaded:
            -- cfg_bad; count = 0 makes idx_out)
            if en = '0' or cfg_bad = '1' or idx_out = '1' or lim = '1' then
              st <= S_UPD;
              step <= (others => '0');
            else
              -- done word of entry idx (r_rdata: done_off; the high word
              -- is S_PLAN's)
              daddr(29 downto 0) <= esum(29 downto 0);
              acar <= esum(30);
              ne <= to_unsigned(1, 5);
              blen <= to_unsigned(1, 5);
              if esum(9 downto 4) = "111111" then
                nroom <= esum(3 downto 0);
              else
                nroom <= (others => '0');
              end if;
              st <= S_PLAN;
            end if;

          when S_PLAN =>
            -- ring_base_hi on r_rdata in every S_PLAN clock (read in
            -- S_PLAN0 and S_PLAN); the request goes out from the last
            daddr(61 downto 30) <= unsigned(r_rdata);
            -- grow the burst by one entry while it stays within 16 words,
            -- the 4 KiB page and the ring's end (lim stops the stamps).
            -- ne <= 16, so "ne <= x" needs only x's low 5 bits beside x >= 32;
            -- with at most 16 words the burst can cross the page only from
            -- its last 16 words (daddr(9 downto 4) all ones)
            if acar = '1' then
              -- the done word's address carried past ring_base_hi: the
              -- pass ends here (section 3 of docs/stamping.md)
              st <= S_UPD;
              step <= (others => '0');
            elsif (ntm1(IDX_W - 1 downto 5) /= (IDX_W - 1 downto 5 => '1') or ne_sum(5) = '0') and
               sw(7 downto 4) = 0 and room_sum(4) = '0' then
              ne <= ne + 1;
              -- (sw <= 15 here: sw <= room)
              blen <= blen + resize(sw, 5);
              nroom <= room_sum(3 downto 0);   -- room - sw
            else
              dv <= '1';
              dwr <= '0';
              d_len <= std_logic_vector(blen);
              -- (with cause_en a takeover still wants its cause read)
              if cause_en = '0' then
                rearm <= '0';
              end if;
              drawn <= '0';
              mc_run <= '0';
              nd <= (others => '0');
              alldone <= '1';
              wc <= to_unsigned(1, 8);
              st <= S_READ;
            end if;

          when S_READ =>
            if d_rd_valid = '1' then
              if wc = 1 then
                if alldone = '1' and (d_rd_data and r_rdata) /= x"00000000" then  -- r_rdata: done_mask
                  nd <= nd + 1;
                else
                  if alldone = '1' then
                    -- the boundary: this entry was not written when read
                    mc_run <= '1';
                    mc <= settle;
                  end if;
                  alldone <= '0';
                end if;
                wc <= sw;
              else
                wc <= wc - 1;
              end if;
            end if;
            if d_done = '1' then
              if d_err /= "00" then
                err <= '1';
                st <= S_UPD;
                step <= (others => '0');
              else
                step <= (others => '0');
                st <= S_SETTLE;
              end if;
            end if;

          when S_SETTLE =>
            if drawn = '1' then
              st <= S_CHK;
            elsif mc_run = '0' then
              -- every entry read was done: the boundary is the read's end
              mc_run <= '1';
              mc <= settle;
            end if;

          when S_CHK =>
            if e_late = '1' then
              -- eaddr is updated from the RAM output in this clock
              -- (below), the decisions wait for it
              null;
            elsif nd = 0 and ps /= 0 and
               ((alldone = '1' and lim = '0') or (rearm = '1' and cause_en = '1') or again = '1') then
              -- the burst's stamps into the row before the next ring read
              -- (S_UPD counts them when the pass ends here)
              mu_run <= '1';
              mu_fin <= '0';
              mu_u <= to_unsigned(U_ST_FIRST, 4);
              mu_end <= to_unsigned(U_ST_LAST, 4);
              st <= S_CNT;
            elsif nd = 0 then
              -- every entry of the burst was done: the ring may hold more
              if alldone = '1' and lim = '0' then
                st <= S_PLAN0;
              elsif rearm = '1' and cause_en = '1' then
                -- the NIC's cause was set again by the capture taken over,
                -- and stays set (no MSI) until read: read it, then look at
                -- the ring again for what completed meanwhile (S_RCA0's
                -- step numbering: one read address decode for both)
                step <= to_unsigned(1, 8);
                st <= S_RCA;
              elsif again = '1' and lim = '0' then
                -- A capture popped here may have been latched after the
                -- ring read was served (the mark is drawn at the read's
                -- boundary, words later): its entry was not seen, and
                -- unless a capture of the slot waits at the head (its pass
                -- will read the ring), none may be left to start a pass
                -- that sees it. A same-slot candidate still waiting is
                -- such a capture too (every earlier one took its entry).
                -- Look again: a read issued now sees their entries
                -- (docs/stamping.md 9, "Session 8").
                rearm <= '0';
                lrr <= lft;
                st <= S_PLAN0;
              else
                st <= S_UPD;
                step <= (others => '0');
              end if;
            elsif cap_pop = '1' then
              -- the pop takes effect at this edge: the head is stale
              -- count it in the row
              mu_run <= '1';
              mu_fin <= '0';
              mu_u <= (others => '0');
              mu_end <= to_unsigned(U_POP_LAST, 4);
              st <= S_CNT;
            elsif lim = '1' then
              -- count - 1 entries stamped: a burst may read past them, the
              -- pass ends before any pop for an entry it will not stamp
              step <= (others => '0');
              st <= S_UPD;
            elsif fresh = '0' and same_next = '1' and head_old = '1' then
              -- a stale capture of this slot (its entry was stamped by an
              -- earlier pass): counted as empty, its time unused
              cap_pop <= '1';
              ckind <= '1';
              lost8 <= unsigned(cap_lost);
              cempty <= '1';
              rearm <= '1';
            elsif fresh = '0' and same_next = '1' and head_cand = '1' and
                  (cause_en = '0' or head_ccand = '1') then
              -- the MSI of an entry this read saw: its time for this entry
              cap_pop <= '1';
              ckind <= '1';
              lost8 <= unsigned(cap_lost);
              rearm <= '1';
              -- its time's low word now, the scratch word in the next
              -- clock (cap_pop = 1: the head is still this capture)
              r_we <= '1';   -- (r_waddr, r_wdata: the default)
              fresh <= '1';
              took <= '1';
            else
              -- stamp field of entry idx (the high word: S_PLAN0's)
              daddr(29 downto 0) <= esum(29 downto 0);
              -- no request when the stamp field's address carried past
              -- ring_base_hi: S_WRITE then ends the pass
              acar <= esum(30);
              dv <= not esum(30);
              dwr <= '1';
              d_len <= "00010";
              wsel <= '0';
              wsel2 <= '0';
              st <= S_WRITE;
            end if;

          when S_WRITE =>
            if acar = '1' then
              st <= S_UPD;
              step <= (others => '0');
            end if;
            if d_wd_ready = '1' then
              wsel <= '1';
              wsel2 <= wsel;
            end if;
            if d_done = '1' then
              if d_err /= "00" then
                err <= '1';
                st <= S_UPD;
                step <= (others => '0');
              else
                -- count the stamp in the row (S_CNT), then on to S_CHK
                any <= '1';
                lrr <= '0';
                if nst(2) = '0' then nst <= nst + 1; end if;
                if nsd(1) = '0' then nsd <= nsd + 1; end if;
                ps <= ps + 1;
                if fresh = '0' then pb <= pb + 1; end if;
                fresh <= '0';
                seq <= seq + 1;
                np <= np + 1;
                nd <= nd - 1;
                -- eaddr to the next entry or back to the ring base (e_ld,
                -- e_add), now or a clock later (e_late)
                e_late <= not wsel2;
                if e_wrap = '1' then
                  idx <= (others => '0');
                else
                  idx <= idx + 1;
                end if;
                st <= S_CHK;
              end if;
            end if;

          when S_CNT =>
            -- the counter sequencer counts a capture or a stamp; its last
            -- write goes out in the clock S_CHK starts (r_raddr: the ring
            -- base from the clock mu_run ends)
            if mu_run = '0' then
              st <= S_CHK;
            end if;

          when S_UPD =>
            -- the pass's end: every item of the row once
            if step = 0 then
              step <= to_unsigned(1, 8);
              mu_run <= '1';
              mu_fin <= '1';
              mu_u <= (others => '0');
              -- ambiguous and the expectation only with head_en (without
              -- it a pass takes the clocks it took before pairing by count)
              if head_en = '1' then
                mu_end <= to_unsigned(U_END_LAST, 4);
              else
                mu_end <= to_unsigned(U_END_LAST - 2, 4);
              end if;
            elsif mu_run = '0' then
              st <= S_EV;
            end if;

          when S_EV =>
            if kind = '1' then
              ev_valid <= '1';
              ev_slot <= slot;
            end if;
            st <= S_IDLE;
        end case;
        -- the pass's first cause read runs beside the row load
        if cause_busy = '1' then
          if d_done = '1' then
            cause_busy <= '0';
            if d_err /= "00" then
              cerr <= '1';
            else
              cause_ok <= '1';
              cmark <= unsigned(cap_wpos);
              if head_en = '1' and hskip = '0' then
                hdue <= '1';   -- the RX head next (S_CWAIT -> S_RHD)
              end if;
            end if;
          end if;
        end if;
        if hbusy = '1' then
          if d_rd_valid = '1' then
            -- U = L, or U = the index (idx and fresh are the pass's from
            -- S_CWAIT on): the index is a lower bound of the split too,
            -- so U = idx decides it even when the capture was not an RX
            -- entry's MSI (a TX completion's: L = idx + 1 overshoots)
            heq <= '0';
            hlo <= '0';
            -- (L compared without a multiplexer in front: with a
            -- stale capture L is the index, the elsif below; hlo then
            -- says nothing, dplus ignores it)
            if fresh = '1' and ((e_wrap = '1' and d_rd_data(15 downto 0) = x"0000") or
                                (e_wrap = '0' and unsigned(d_rd_data(15 downto 0)) = resize(idx, 16) + 1)) then
              heq <= '1';
            elsif unsigned(d_rd_data(15 downto 0)) = resize(idx, 16) then
              heq <= '1';
              hlo <= '1';
            end if;
          end if;
          if d_done = '1' then
            hbusy <= '0';
            if d_err /= "00" then
              cerr <= '1';
            else
              hok <= '1';
            end if;
          end if;
        end if;

        -- eaddr in one place (e_ld, e_add)
        if e_ld = '1' then
          eaddr <= '0' & unsigned(r_rdata(31 downto 2));
        elsif e_add = '1' then
          eaddr <= esum;
        end if;
        if e_late = '1' then
          e_late <= '0';
        end if;

        -- the mark of this pass's ring read, settle clocks after its boundary
        if mc_run = '1' then
          if mc(3 downto 1) = 0 then
            for i in 0 to N_SLOTS - 1 loop
              if i = to_integer(unsigned(slot)) then
                pmark <= unsigned(cap_wpos);
              end if;
            end loop;
            drawn <= '1';
            pdrawn <= '1';
            mc_run <= '0';
          else
            mc <= mc - 1;
          end if;
        end if;
        -- the pass's end: its latest mark becomes its slot's, valid while
        -- the FIFO holds a capture before it (no pop in S_EV; the head is
        -- never past pmark). A mark still being timed (the pass ended on a
        -- DMA error right after its ring read) is dropped.
        if st = S_EV then
          mc_run <= '0';
          if pdrawn = '1' then
            for i in 0 to N_SLOTS - 1 loop
              if i = to_integer(unsigned(slot)) then
                mark(i) <= pmark(FIFO_LOG2 - 1 downto 0);
                -- pragma translate_off
                mark_full(i) <= pmark;
                -- pragma translate_on
                mark_v(i) <= '0';
                if unsigned(cap_rpos) /= pmark then
                  mark_v(i) <= '1';
                end if;
              end if;
            end loop;
          end if;
        end if;
        -- the DMA port: a request ends at its d_ready; a failed cause
        -- read (S_CAUSE), ring read (S_READ) or stamp write (S_WRITE) ends
        -- the pass
        if d_ready = '1' then
          dv <= '0';
        end if;
        -- a popped capture's scratch word (its time bits 47..32 and its
        -- data) the clock after its last_stamp_lo: the head still holds it
        if took = '1' then
          r_we <= '1';
          r_waddr <= slot & std_logic_vector(to_unsigned(W_CAP_SCR, 5));
        end if;
        -- cause_val (its comment): cleared in S_RCA0 (before the pass's
        -- first cause read is issued), every cause read's word ORed in (the
        -- first one's too: cause_last is this pass's, and cause_acc must
        -- not get back bits the driver has cleared; a pass may read it
        -- twice), the window's word in S_IDLE. The clear alone, as the
        -- outermost choice, goes to the flip-flops' reset input; the rest
        -- is one LUT a bit (cause_val, d_rd_data, win_wdata, the choice)
        if st = S_RCA0 then
          cause_val <= (others => '0');
        elsif d_rd_valid = '1' and (cause_busy = '1' or st = S_CAUSE) then
          cause_val <= cause_val or d_rd_data;
        elsif st = S_IDLE then
          cause_val <= win_wdata;
        end if;
        -- the sequencer's write-back (no state writes the RAM meanwhile)
        if mu_v = '1' then
          r_we <= '1';
          r_waddr <= slot & std_logic_vector(to_unsigned(WB_WORD(to_integer(mu_u)), 5));
          -- item mu_u - 1 (mu_u's comment)
          case to_integer(mu_u) is
            when 2 + 1 =>   -- the capture is counted
              ckind <= '0';
              lost8 <= (others => '0');
              cempty <= '0';
            when 4 + 1 =>   -- the stamp is counted
              ps <= (others => '0');
              pb <= (others => '0');
            when others => null;
          end case;
        end if;
      end if;
    end if;
  end process;

  lim <= '1' when np = not ncm1(IDX_W - 1 downto 0) else '0';
  bulk <= nst(2);

  mu_sum <= unsigned(r_rdata) + resize(mu_op, 32);

  -- the RAM's write data (registered as r_wdata), an OR of sources each
  -- ANDed with its one-hot enable (a word no enable selects is 0: the
  -- window's read-clear of cause_acc, S_INIT's zero bits, the high halves
  -- of last_data and the index): the FIFO head's time into last_stamp_lo
  -- (a pop's first write: any other clock, the word means something only
  -- in a clock that sets r_we), a popped capture's scratch word (took),
  -- S_INIT's reset values, cause_val (a window write's word in S_WIN, wb_cv
  -- set as S_IDLE takes the access) and the sequencer's write-back:
  -- the adder (wb_s, wb_sh: its low and high half), cause_val ORed into
  -- it (cause_last, cause_acc), last_stamp_hi's marker and seq0 (its low
  -- half through the adder: mu_op is 0 there), last_data from the
  -- scratch word's high half, the index. The sequencer's enables are
  -- registered in the clock that reads the item (cause_ok, kind and any
  -- do not change during S_UPD); mu_v, took, S_INIT and S_WIN never meet
  -- (wd_chk)
  e_ini <= '1' when st = S_INIT else '0';
  e_ns <= not (mu_v or took or e_ini) when st /= S_WIN else '0';
  wd_p : process (all)
    variable v : std_logic_vector(31 downto 0);
  begin
    v := (cap_ns(31 downto 0) and (31 downto 0 => e_ns)) or
         (cap_scr and (31 downto 0 => took)) or
         (reset_of(to_integer(step(4 downto 0))) and (31 downto 0 => e_ini)) or
         (cause_val and (31 downto 0 => wb_cv)) or
         ((MARKER & "00" & std_logic_vector(seq0) & x"0000") and (31 downto 0 => wb_hi));
    v(15 downto 0) := v(15 downto 0) or
         (std_logic_vector(mu_sum(15 downto 0)) and (15 downto 0 => wb_s)) or
         (r_rdata(31 downto 16) and (15 downto 0 => wb_dat)) or
         (std_logic_vector(resize(idx, 16)) and (15 downto 0 => wb_idx));
    v(31 downto 16) := v(31 downto 16) or
         (std_logic_vector(mu_sum(31 downto 16)) and (15 downto 0 => wb_sh));
    wd <= v;
  end process;
  -- pragma translate_off
  wd_chk : process (clk)
  begin
    if rising_edge(clk) then
      assert rst = '1' or
             (mu_v = '1' and took = '0' and e_ini = '0' and st /= S_WIN) or
             (mu_v = '0' and took = '1' and e_ini = '0' and st /= S_WIN) or
             (mu_v = '0' and took = '0')
        report "stamp_engine: write-data sources meet" severity error;
      assert rst = '1' or mu_v = '1' or (wb_s = '0' and wb_sh = '0' and
             (wb_cv = '0' or st = S_WIN) and wb_hi = '0' and wb_dat = '0' and wb_idx = '0')
        report "stamp_engine: a write-back source outside mu_v" severity error;
    end if;
  end process;
  -- pragma translate_on

  -- the RAM output holds the window word in the clock of the ack (S_WGAP:
  -- the read issued in S_WIN), when capture_regs takes it
  hi_over <= '0' when win_wdata(31 downto A_BITS - 32) = (31 downto A_BITS - 32 => '0') else '1';
  idx_over <= '0' when win_wdata(31 downto IDX_W) = (31 downto IDX_W => '0') else '1';
  cnt_over <= '1' when idx_over = '1' and
                       (win_wdata(31 downto IDX_W) /= std_logic_vector(to_unsigned(1, 32 - IDX_W)) or
                        win_wdata(IDX_W - 1 downto 0) /= (IDX_W - 1 downto 0 => '0')) else '0';
  win_rdata <= r_rdata;
  d_valid   <= dv;
  d_write   <= dwr;
  d_addr    <= std_logic_vector(daddr);
  d_wd_data <= r_rdata when wsel = '0' else stamp_hi;
  busy      <= '0' when st = S_IDLE and cap_empty = '1' else '1';
  init      <= '1' when st = S_INIT else '0';
end architecture;
