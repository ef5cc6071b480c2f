-- SPDX-License-Identifier: GPL-2.0-or-later
-- MSI capture: a doorbell strobe (bus clock) latches the time in the
-- timebase domain and queues (kind, slot, lost, data, ns) into a dual-clock
-- block-RAM FIFO read by the stamping engine in the bus domain
-- (docs/stamping.md, "Capture").
--
-- Latch latency: db_valid seen at bus edge E flips a toggle; two sync_bit
-- flops carry it into tb_clk, and the edge between them and a third flop
-- latches time_ns at the next edge. The value latched is time_ns as it
-- stands after the second tb_clk edge following E (the third when the first
-- edge falls into the synchroniser's setup window): 8 < stamp - t(E) <= 24
-- ns at 125 MHz, 2 clocks +/- 1 (LATCH_CLKS). tb_msi_capture measures it.
--
-- Doorbells may arrive faster than the crossing settles (two bus clocks
-- apart at most), so slot and data are held in two banks chosen by the
-- toggle: bank k is rewritten only by doorbell k+2, long after the timebase
-- side took it.
--
-- A doorbell that finds the FIFO full is not silent: the slot's lost count
-- (saturating at 255) rides in the slot's next entry, or in a "lost only"
-- entry (kind 0) as soon as the FIFO has room. A lost-only entry's data and
-- ns fields are not defined (they carry whatever the bank and time_ns hold
-- then): readers look at kind, slot and lost only. So the RAM's 64 data
-- and time inputs come straight from the bank and time_ns, not through a
-- multiplexer with zeros.
--
-- Area: the lost counters share one saturating incrementer and one
-- multiplexer. The slot an entry or a loss is about (the doorbell's, else
-- the loss report's) is one-hot in hit; its count, lost_hit, is both the
-- entry's lost field and the incrementer's input, and the counters load
-- the incremented value (enable) or clear (synchronous reset) only.
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
    cap_wpos  : out std_logic_vector(FIFO_LOG2 downto 0));
end entity;

architecture rtl of msi_capture is
  constant DEPTH : positive := 2 ** FIFO_LOG2;
  constant W     : positive := 76;  -- ns 48, data 16, lost 8, slot 3, kind 1
  type mem_t is array (0 to DEPTH - 1) of std_logic_vector(W - 1 downto 0);
  signal mem : mem_t;

  subtype ptr_t is unsigned(FIFO_LOG2 downto 0);

  function to_gray (b : ptr_t) return std_logic_vector is
  begin
    return std_logic_vector(b xor ('0' & b(b'high downto 1)));
  end function;

  -- Gray write pointer wg a whole FIFO ahead of Gray read pointer rg: the
  -- two top bits inverted, the rest equal (no Gray to binary chain and
  -- subtraction in the 125 MHz domain)
  function is_full (wg, rg : std_logic_vector(FIFO_LOG2 downto 0)) return boolean is
  begin
    return wg = (not rg(FIFO_LOG2 downto FIFO_LOG2 - 1)) & rg(FIFO_LOG2 - 2 downto 0);
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

  -- bus side: banks and toggle
  type bank_t is array (0 to 1) of std_logic_vector(18 downto 0);  -- slot 3 + data 16
  signal bank   : bank_t;
  signal toggle : std_logic;

  -- timebase side
  signal t_sync, t_prev : std_logic;
  signal b        : std_logic_vector(18 downto 0);  -- the announced bank
  type lost_t is array (0 to N_SLOTS - 1) of unsigned(7 downto 0);
  signal lost     : lost_t;
  -- lost(i) /= 0, kept beside the counts so the loss report's choice of slot
  -- is not an 8-bit compare per slot in front of the RAM's data input
  signal lnz      : std_logic_vector(N_SLOTS - 1 downto 0);
  signal wr_ptr   : ptr_t;
  signal wr_gray  : std_logic_vector(FIFO_LOG2 downto 0);
  signal rd_gray_s : std_logic_vector(FIFO_LOG2 downto 0);
  signal we       : std_logic;
  signal full     : boolean;   -- registered (see latch)
  signal lost_pick : natural range 0 to 7;
  -- each bank's slot, one-hot, registered on tb_clk: the lost counters'
  -- enables select by the toggle between these instead of decoding the
  -- selected bank (tb_clk's critical path). A bank is written with its
  -- toggle flip, before the toggle's first synchroniser flop can see it,
  -- and is read only when the second flop shows the flip, so the copy
  -- taken one clock after the first flop is settled by then; the copy of
  -- the bank being rewritten is never the one selected.
  signal oh0, oh1 : std_logic_vector(N_SLOTS - 1 downto 0);
  -- the loss report's slot, one-hot (lost_pick encoded for the data), so
  -- the counter it clears is not found by decoding an encoded choice
  signal pick : std_logic_vector(N_SLOTS - 1 downto 0);
  signal hit      : std_logic_vector(N_SLOTS - 1 downto 0);  -- the entry's slot, one-hot
  signal lost_hit : unsigned(7 downto 0);                    -- its lost count
  signal lost_inc : unsigned(7 downto 0);                    -- that + 1, saturating
  signal changed  : std_logic;                               -- t_sync /= t_prev
  signal wslot    : std_logic_vector(2 downto 0);
  signal wa       : unsigned(FIFO_LOG2 - 1 downto 0);
  signal wd       : std_logic_vector(W - 1 downto 0);

  -- bus side read
  signal rd_ptr    : ptr_t;
  signal rd_gray   : std_logic_vector(FIFO_LOG2 downto 0);
  signal wr_gray_s : std_logic_vector(FIFO_LOG2 downto 0);
  signal empty     : std_logic;
  signal ra        : unsigned(FIFO_LOG2 - 1 downto 0);
  signal q         : std_logic_vector(W - 1 downto 0);
begin
  assert N_SLOTS <= 8 report "msi_capture: at most 8 slots" severity failure;

  ---------------------------------------------------------------------------
  -- bus domain: doorbell into a bank, flip the toggle
  bus_in : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      if bus_rst = '1' then
        toggle <= '0';
      elsif db_valid = '1' and unsigned(db_slot) < N_SLOTS then
        toggle <= not toggle;
      end if;
    end if;
  end process;

  -- the banks need no reset: the timebase side reads a bank only after the
  -- toggle that announces it, which follows the bank's write
  bank_wr : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      if db_valid = '1' and unsigned(db_slot) < N_SLOTS then
        if toggle = '0' then
          bank(1) <= db_slot(2 downto 0) & db_data(15 downto 0);
        else
          bank(0) <= db_slot(2 downto 0) & db_data(15 downto 0);
        end if;
      end if;
    end if;
  end process;

  ---------------------------------------------------------------------------
  -- timebase domain: latch and FIFO write
  tsync : entity work.sync_bit port map (clk => tb_clk, din => toggle, dout => t_sync);

  rsync : for i in 0 to FIFO_LOG2 generate
    s : entity work.sync_bit port map (clk => tb_clk, din => rd_gray(i), dout => rd_gray_s(i));
  end generate;

  b <= bank(1) when t_sync = '1' else bank(0);

  changed <= '1' when t_sync /= t_prev else '0';

  -- the loss report's slot when no doorbell is being latched: the lowest
  -- slot with a count, one-hot (no encoded choice to decode again)
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

  hit <= pick when changed = '0' else oh1 when t_sync = '1' else oh0;

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
  lost_inc <= lost_hit when lost_hit = 255 else lost_hit + 1;

  -- the entry to write this clock, decided combinationally: the RAM's own
  -- input registers hold it (no 76-bit copy in flip-flops), and the time
  -- written is time_ns at the edge the change is detected
  we <= '1' when not full and (changed = '1' or lnz /= (lnz'range => '0')) else '0';
  wslot <= b(18 downto 16) when changed = '1' else std_logic_vector(to_unsigned(lost_pick, 3));
  wd <= changed & wslot & std_logic_vector(lost_hit) & b(15 downto 0)
        & std_logic_vector(time_ns(47 downto 0));
  wa <= wr_ptr(FIFO_LOG2 - 1 downto 0);

  latch : process (tb_clk)
  begin
    if rising_edge(tb_clk) then
      if tb_rst = '1' then
        t_prev <= '0';
        wr_ptr <= (others => '0');
        wr_gray <= (others => '0');
        lost <= (others => (others => '0'));
        lnz <= (others => '0');
        full <= false;
        oh0 <= (others => '0');
        oh1 <= (others => '0');
      else
        t_prev <= t_sync;
        -- full for the next clock, from the write pointer it will have and
        -- the synchronised read pointer of this clock: one clock older than
        -- the one it is used with, so it can only say full too early (one
        -- entry's room for one clock), never too late. Registered, it takes
        -- the compare off the path into the write enable and lost counters.
        if we = '1' then
          full <= is_full(to_gray(wr_ptr + 1), rd_gray_s);
        else
          full <= is_full(to_gray(wr_ptr), rd_gray_s);
        end if;
        -- published the clock after the RAM write
        wr_gray <= to_gray(wr_ptr);
        if we = '1' then
          wr_ptr <= wr_ptr + 1;
        end if;
        for i in 0 to N_SLOTS - 1 loop
          oh0(i) <= '0';
          oh1(i) <= '0';
          if to_integer(unsigned(bank(0)(18 downto 16))) = i then
            oh0(i) <= '1';
          end if;
          if to_integer(unsigned(bank(1)(18 downto 16))) = i then
            oh1(i) <= '1';
          end if;
        end loop;
        -- the slot in hit: a doorbell that finds the FIFO full counts,
        -- an entry written (capture or loss report) takes the count along
        for i in 0 to N_SLOTS - 1 loop
          if hit(i) = '1' then
            if full and changed = '1' then
              lost(i) <= lost_inc;
              lnz(i) <= '1';
            elsif not full then
              lost(i) <= (others => '0');
              lnz(i) <= '0';
            end if;
          end if;
        end loop;
      end if;
    end if;
  end process;

  ram_wr : process (tb_clk)
  begin
    if rising_edge(tb_clk) then
      if we = '1' then
        mem(to_integer(wa)) <= wd;
      end if;
    end if;
  end process;

  ---------------------------------------------------------------------------
  -- bus domain: FIFO read, head always on q
  wsync : for i in 0 to FIFO_LOG2 generate
    s : entity work.sync_bit port map (clk => bus_clk, din => wr_gray(i), dout => wr_gray_s(i));
  end generate;

  empty <= '1' when rd_ptr = from_gray(wr_gray_s) else '0';
  ra <= rd_ptr(FIFO_LOG2 - 1 downto 0) + 1 when cap_pop = '1' and empty = '0'
        else rd_ptr(FIFO_LOG2 - 1 downto 0);

  rd_ctl : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      if bus_rst = '1' then
        rd_ptr <= (others => '0');
        rd_gray <= (others => '0');
      else
        if cap_pop = '1' and empty = '0' then
          rd_ptr <= rd_ptr + 1;
          rd_gray <= to_gray(rd_ptr + 1);
        end if;
      end if;
    end if;
  end process;

  ram_rd : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      q <= mem(to_integer(ra));
    end if;
  end process;

  cap_empty <= empty;
  cap_rpos  <= std_logic_vector(rd_ptr);
  cap_wpos  <= std_logic_vector(from_gray(wr_gray_s));
  cap_kind  <= q(75);
  cap_slot  <= q(74 downto 72);
  cap_lost  <= q(71 downto 64);
  cap_data  <= q(63 downto 48);
  cap_ns    <= q(47 downto 0);
end architecture;
