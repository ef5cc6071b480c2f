-- SPDX-License-Identifier: GPL-2.0-or-later
-- MSI capture: a doorbell strobe (bus clock) latches the time in the
-- timebase domain and queues (kind, slot, lost, data, ns) into a block-RAM
-- FIFO read by the stamping engine in the bus domain (docs/stamping.md,
-- "Capture").
--
-- The entry is two RAMs side by side at one FIFO position: the meta part
-- (kind, slot, lost, data) is written in the bus domain, where the doorbell
-- is, and the time part in the timebase domain, where the time is. Only a
-- toggle crosses towards the timebase: each flip is one entry, and the
-- timebase side writes time_ns into the time RAM at its own write pointer
-- (which therefore follows the bus side's entry count) and publishes that
-- pointer, Gray-coded, back to the bus side. An entry is visible to the
-- reader once its time is written; its meta part was written long before.
-- The bus side decides alone whether an entry fits: it knows how many it
-- announced (ann_ptr) and how many were read (rd_ptr), so "full" needs no
-- crossing, and the timebase side never checks for room.
--
-- Latch latency: db_valid seen at bus edge E flips the toggle; two sync_bit
-- flops carry it into tb_clk, and the edge between them and a third flop
-- latches time_ns at the next edge. The value latched is time_ns as it
-- stands after the second tb_clk edge following E (the third when the first
-- edge falls into the synchroniser's setup window): 8 < stamp - t(E) <= 24
-- ns at 125 MHz, 2 clocks +/- 1 (LATCH_CLKS). tb_msi_capture measures it.
-- Every toggle level lasts at least one bus clock (15 ns at 66 MHz), more
-- than a tb_clk period, so the timebase side sees every flip.
--
-- The meta RAM is written at the rising bus clock edge of the doorbell (or
-- loss report) itself, straight from the doorbell's data and the shared
-- lost count: no register of the entry, its position or its write enable.
-- A read at the position being written in the same clock never matters
-- (the head is read again every clock, and an entry is read only after its
-- time is written, several clocks later), so the RAM is `_nrw`: Yosys adds
-- no read-during-write logic (hdl/boards/ghdl_verilog_fix.awk fix 7; it
-- was about 70 flip-flops and 35 LUTs for this width, which is why the
-- write used to sit on the falling edge behind 37 flip-flops).
--
-- A doorbell that finds the FIFO full is not silent: the slot's lost count
-- (saturating at 255) rides in the slot's next entry, or in a "lost only"
-- entry (kind 0) as soon as the FIFO has room, no doorbell is taken and the
-- toggle did not flip in the clock before. A lost-only entry's data and ns
-- are not defined (readers look at kind, slot and lost only). Each lost
-- counter counts in place (its incrementer in its flip-flops' cells); the
-- entry reads the count through one multiplexer: the slot an entry or a
-- loss is about is one-hot in hit, its count lost_hit.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity msi_capture is
  generic (
    N_SLOTS   : positive := 4;     -- <= 8
    FIFO_LOG2 : positive := 8);    -- 256 entries: one iCE40 RAM deep
  port (
    bus_clk  : in  std_logic;
    bus_rst  : in  std_logic;
    db_valid : in  std_logic;
    db_slot  : in  std_logic_vector(3 downto 0);
    db_data  : in  std_logic_vector(31 downto 0);
    tb_clk   : in  std_logic;
    tb_rst   : in  std_logic;
    time_ns  : in  unsigned(63 downto 0);
    -- bus domain, first word falls through: the head entry is on the
    -- outputs whenever cap_empty = 0; cap_pop takes it
    cap_empty : out std_logic;
    cap_kind  : out std_logic;                       -- 1 capture, 0 lost-only
    cap_slot  : out std_logic_vector(2 downto 0);
    cap_lost  : out std_logic_vector(7 downto 0);    -- doorbells dropped before
    cap_data  : out std_logic_vector(15 downto 0);
    cap_ns    : out std_logic_vector(47 downto 0);
    cap_pop   : in  std_logic;
    -- FIFO positions (mod 2 * depth): the head's, and one past the last
    -- entry the bus side can see
    cap_rpos  : out std_logic_vector(FIFO_LOG2 downto 0);
    -- the head's position after this clock's edge (cap_rpos + 1 with
    -- cap_pop set and the FIFO not empty)
    cap_rnxt  : out std_logic_vector(FIFO_LOG2 downto 0);
    cap_wpos  : out std_logic_vector(FIFO_LOG2 downto 0));
end entity;

architecture rtl of msi_capture is
  constant DEPTH : positive := 2 ** FIFO_LOG2;
  constant MW    : positive := 28;  -- meta: kind 1, slot 3, lost 8, data 16
  type tmem_t is array (0 to DEPTH - 1) of std_logic_vector(47 downto 0);
  type mmem_t is array (0 to DEPTH - 1) of std_logic_vector(MW - 1 downto 0);
  signal tmem : tmem_t;
  signal mmem_nrw : mmem_t;

  subtype ptr_t is unsigned(FIFO_LOG2 downto 0);

  function to_gray (b : ptr_t) return std_logic_vector is
  begin
    return std_logic_vector(b xor ('0' & b(b'high downto 1)));
  end function;

  function from_gray (g : std_logic_vector(FIFO_LOG2 downto 0)) return ptr_t is
    variable b : ptr_t;
  begin
    -- each bit the parity of the bits above it, not a chain through the
    -- lower bits: two LUT levels instead of FIFO_LOG2 + 1
    for i in FIFO_LOG2 downto 0 loop
      b(i) := xor g(FIFO_LOG2 downto i);
    end loop;
    return b;
  end function;

  -- (downto: GHDL indexes a `0 to` array through 15 - index, an inverter cell)
  type flag16_t is array (15 downto 0) of std_logic;
  function built_slots return flag16_t is
    variable r : flag16_t := (others => '0');
  begin
    for i in 0 to N_SLOTS - 1 loop
      r(i) := '1';
    end loop;
    return r;
  end function;
  constant BUILT : flag16_t := built_slots;   -- db_slot's slot exists

  -- bus side: entries announced, room, lost counts
  signal flipped  : std_logic;                 -- the toggle flipped last clock
  signal ann_ptr  : ptr_t;                     -- entries announced
  signal full     : std_logic;                 -- from the pointers, see below
  signal db_ok    : std_logic;                 -- a doorbell of a built slot
  signal db_oh    : std_logic_vector(N_SLOTS - 1 downto 0);
  signal take     : std_logic;                 -- a doorbell's entry this clock
  signal rep      : std_logic;                 -- a loss report's entry this clock
  type lost_t is array (0 to N_SLOTS - 1) of unsigned(7 downto 0);
  signal lost     : lost_t;
  signal lnz      : std_logic_vector(N_SLOTS - 1 downto 0);  -- lost(i) /= 0
  signal pick     : std_logic_vector(N_SLOTS - 1 downto 0);  -- report's slot, one-hot
  signal lost_pick : natural range 0 to 7;
  signal hit      : std_logic_vector(N_SLOTS - 1 downto 0);
  signal lost_hit : unsigned(7 downto 0);
  -- each slot's count + 1, bit 8 its carry out (the count is 255: it
  -- saturates)
  type lsum_t is array (0 to N_SLOTS - 1) of unsigned(8 downto 0);
  signal lsum     : lsum_t;
  -- the meta write, in the clock of the doorbell or loss report
  signal mwe      : std_logic;
  signal mwd      : std_logic_vector(MW - 1 downto 0);

  -- timebase side
  signal t_sync, t_prev : std_logic;
  signal twe      : std_logic;
  signal wr_ptr   : ptr_t;
  signal wr_gray  : std_logic_vector(FIFO_LOG2 downto 0);

  -- bus side read
  signal rd_ptr    : ptr_t;
  signal wr_gray_s : std_logic_vector(FIFO_LOG2 downto 0);
  signal empty     : std_logic;
  signal popping   : std_logic;
  signal ra        : unsigned(FIFO_LOG2 - 1 downto 0);
  signal rd_nxt    : ptr_t;
  signal tq        : std_logic_vector(47 downto 0);
  signal mq        : std_logic_vector(MW - 1 downto 0);
begin
  assert N_SLOTS <= 8 report "msi_capture: at most 8 slots" severity failure;

  ---------------------------------------------------------------------------
  -- bus domain: entries, lost counts, the toggle
  -- built slot from a constant table, not `db_slot < N_SLOTS` (a compare
  -- against a constant)
  db_ok <= db_valid and BUILT(to_integer(unsigned(db_slot)));
  dec : for i in 0 to N_SLOTS - 1 generate
    db_oh(i) <= '1' when to_integer(unsigned(db_slot(2 downto 0))) = i else '0';
  end generate;

  -- the loss report's slot: the lowest slot with a count, one-hot
  lpick : process (all)
    variable found : boolean;
  begin
    pick <= (others => '0');
    lost_pick <= 0;
    found := false;
    for i in 0 to N_SLOTS - 1 loop
      if not found and lnz(i) = '1' then
        found := true;
        pick(i) <= '1';
        lost_pick <= i;
      end if;
    end loop;
  end process;

  take   <= db_ok and not full;
  rep    <= '1' when db_ok = '0' and full = '0' and flipped = '0' and
                     lnz /= (lnz'range => '0') else '0';
  hit    <= db_oh when db_ok = '1' else pick;

  lhit : process (all)
    variable v : unsigned(7 downto 0);
  begin
    v := (others => '0');
    for i in 0 to N_SLOTS - 1 loop
      if hit(i) = '1' then
        v := v or lost(i);
      end if;
    end loop;
    lost_hit <= v;
  end process;
  -- Each slot counts in place: its incrementer's LUTs share the cells of
  -- its count's flip-flops. One shared incrementer behind lost_hit fed all
  -- slots' flip-flops, which then took a cell each (32) besides the
  -- incrementer's and its masking LUTs.
  ginc : for i in 0 to N_SLOTS - 1 generate
    lsum(i) <= resize(lost(i), 9) + 1;
  end generate;

  -- full: the entries announced against the ones read, both registered
  -- (same index, other lap). Compared from the registers, not from
  -- ann_ptr's next value a clock ahead into a flip-flop of its own (until
  -- session 22): that next value then fed the compare as well, so none of
  -- ann_ptr's flip-flops could share its adder LUT's cell (9 cells). The
  -- entry at rd_ptr was taken by the pop that moved rd_ptr past it, so a
  -- doorbell in the clock after that pop may have its place (the registered
  -- full said full for that one clock more).
  full <= '1' when ann_ptr(FIFO_LOG2) /= rd_ptr(FIFO_LOG2) and
                   ann_ptr(FIFO_LOG2 - 1 downto 0) = rd_ptr(FIFO_LOG2 - 1 downto 0) else '0';

  bus_in : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      if bus_rst = '1' then
        flipped <= '0';
        ann_ptr <= (others => '0');
        lost <= (others => (others => '0'));
        lnz <= (others => '0');
      else
        flipped <= take or rep;
        -- the entry as the carry in (one LUT a bit, no choice behind an
        -- incrementer); its lowest bit is the toggle that crosses
        ann_ptr <= ann_ptr + unsigned'("" & (take or rep));
        -- the slot in hit: a doorbell that finds the FIFO full counts, an
        -- entry (capture or loss report) takes the count along
        for i in 0 to N_SLOTS - 1 loop
          if hit(i) = '1' then
            if db_ok = '1' and full = '1' then
              if lsum(i)(8) = '0' then
                lost(i) <= lsum(i)(7 downto 0);
              end if;
              lnz(i) <= '1';
            elsif take = '1' or rep = '1' then
              lost(i) <= (others => '0');
              lnz(i) <= '0';
            end if;
          end if;
        end loop;
      end if;
    end if;
  end process;

  -- a loss report's data field is whatever db_data holds
  mwe <= take or rep;
  mwd <= '1' & db_slot(2 downto 0) & std_logic_vector(lost_hit) & db_data(15 downto 0)
         when take = '1' else
         '0' & std_logic_vector(to_unsigned(lost_pick, 3)) & std_logic_vector(lost_hit)
         & db_data(15 downto 0);

  meta_wr : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      if mwe = '1' then
        mmem_nrw(to_integer(ann_ptr(FIFO_LOG2 - 1 downto 0))) <= mwd;
      end if;
    end if;
  end process;

  ---------------------------------------------------------------------------
  -- timebase domain: one entry's time per toggle flip
  -- the toggle is ann_ptr(0), a flip-flop that flips once per entry (a
  -- toggle flip-flop of its own held the same state)
  tsync : entity work.sync_bit port map (clk => tb_clk, din => ann_ptr(0), dout => t_sync);

  twe <= t_sync xor t_prev;

  latch : process (tb_clk)
  begin
    if rising_edge(tb_clk) then
      if tb_rst = '1' then
        t_prev <= '0';
        wr_ptr <= (others => '0');
        wr_gray <= (others => '0');
      else
        t_prev <= t_sync;
        -- published the clock after the RAM write
        wr_gray <= to_gray(wr_ptr);
        if twe = '1' then
          wr_ptr <= wr_ptr + 1;
        end if;
      end if;
    end if;
  end process;

  time_wr : process (tb_clk)
  begin
    if rising_edge(tb_clk) then
      if twe = '1' then
        tmem(to_integer(wr_ptr(FIFO_LOG2 - 1 downto 0))) <= std_logic_vector(time_ns(47 downto 0));
      end if;
    end if;
  end process;

  ---------------------------------------------------------------------------
  -- bus domain: FIFO read, head always on the RAM outputs
  wsync : for i in 0 to FIFO_LOG2 generate
    s : entity work.sync_bit port map (clk => bus_clk, din => wr_gray(i), dout => wr_gray_s(i));
  end generate;

  empty <= '1' when rd_ptr = from_gray(wr_gray_s) else '0';
  popping <= cap_pop and not empty;
  -- the read address and rd_ptr's next value from one adder with the pop
  -- as carry in (was an incrementer for each and a choice: 8 cells more)
  rd_nxt <= rd_ptr + unsigned'("" & popping);
  ra <= rd_nxt(FIFO_LOG2 - 1 downto 0);

  rd_ctl : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      if bus_rst = '1' then
        rd_ptr <= (others => '0');
      else
        rd_ptr <= rd_nxt;
      end if;
    end if;
  end process;

  time_rd : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      tq <= tmem(to_integer(ra));
    end if;
  end process;

  meta_rd : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      mq <= mmem_nrw(to_integer(ra));
    end if;
  end process;

  cap_empty <= empty;
  cap_rpos  <= std_logic_vector(rd_ptr);
  cap_rnxt  <= std_logic_vector(rd_nxt);
  cap_wpos  <= std_logic_vector(from_gray(wr_gray_s));
  cap_kind  <= mq(27);
  cap_slot  <= mq(26 downto 24);
  cap_lost  <= mq(23 downto 16);
  cap_data  <= mq(15 downto 0);
  cap_ns    <= tq;
end architecture;
