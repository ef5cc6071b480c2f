-- SPDX-License-Identifier: GPL-2.0-or-later
-- Card interrupts with moderation, masking and the INTx acknowledge (bus
-- clock). A request for slot i (ev_valid/ev_slot, from the stamping engine
-- once a capture's stamp writes are done on the bus) sets pending(i). A
-- pending, unmasked slot outside its moderation gap is raised: one clock
-- of raise(i), at most one slot per clock (lowest first) so the MSI writer
-- takes them one by one, the clock after the request at the earliest.
--
-- Moderation: a raise with gap_units /= 0 marks the slot busy. The gap
-- timers (8 bits per slot) are not one counter each with its own
-- decrementer and enable: they rotate through a ring of N_SLOTS registers,
-- one slot's timer at the head per clock (slot presc mod N_SLOTS), and the
-- one head datapath loads gap_units into a slot raised since its last visit
-- or counts it down at the slot's one tick visit per 64 clocks; the tick
-- visit that finds it at 0 ends the gap (busy cleared). The ring is a
-- block RAM read one clock ahead (see g_ram). So a raised slot's
-- next raise is more than units * 64 clocks later (units + 1 ticks after
-- the load, which comes 1..N_SLOTS clocks after the raise) and at most
-- (units + 1) * 64 + N_SLOTS + 1 clocks later when requests wait.
-- Requests while masked or inside the gap are remembered in pending(i),
-- one raise for any number of them: the driver reads all stamps anyway.
--
-- INTx acknowledge: every raise also sets status(i); clear(i) (the
-- driver's write of 1s to irq.status) clears it, a raise in the same clock
-- winning. intx = some status bit set whose slot is not masked: the level
-- pci_interface drives INTA# from while MSI is off (docs/pci.md). A raise
-- with MSI on sets status too; nothing reads it then.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity card_irq is
  generic (N_SLOTS : positive := 4);   -- 1, 2, 4 or 8
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    ev_valid  : in  std_logic;
    ev_slot   : in  std_logic_vector(2 downto 0);
    mask      : in  std_logic_vector(N_SLOTS - 1 downto 0);
    gap_units : in  std_logic_vector(7 downto 0);
    clear     : in  std_logic_vector(N_SLOTS - 1 downto 0);
    raise     : out std_logic_vector(N_SLOTS - 1 downto 0);
    pending   : out std_logic_vector(N_SLOTS - 1 downto 0);
    status    : out std_logic_vector(N_SLOTS - 1 downto 0);
    intx      : out std_logic);
end entity;

architecture rtl of card_irq is
  function log2 (n : positive) return natural is
  begin
    for b in 0 to 3 loop
      if 2 ** b >= n then
        return b;
      end if;
    end loop;
    return 3;
  end function;
  constant SLOT_BITS : natural := log2(N_SLOTS);
  signal pend, stat : std_logic_vector(N_SLOTS - 1 downto 0);
  signal busy       : std_logic_vector(N_SLOTS - 1 downto 0);  -- inside the gap
  signal load       : std_logic_vector(N_SLOTS - 1 downto 0);  -- timer to load at the next visit
  signal presc      : unsigned(5 downto 0);
  signal k          : natural range 0 to N_SLOTS - 1;          -- slot at the head
  signal tick       : std_logic;
  -- 256 words although N_SLOTS are used: Yosys maps a memory of a few
  -- words to flip-flops and a read multiplexer, not to a block RAM
  type ring_t is array (0 to 255) of unsigned(7 downto 0);
  signal ring_nrw   : ring_t := (others => (others => '0'));
  signal ra         : natural range 0 to 255;                   -- the next clock's head slot
  signal ring0      : unsigned(7 downto 0);                     -- slot k's timer
  signal head       : unsigned(7 downto 0);
  signal head_zero  : std_logic;
begin
  assert N_SLOTS = 1 or N_SLOTS = 2 or N_SLOTS = 4 or N_SLOTS = 8
    report "card_irq: N_SLOTS must be 1, 2, 4 or 8" severity failure;

  k <= to_integer(presc) mod N_SLOTS;
  -- the last N_SLOTS clocks of each 64: every slot at the head once
  -- (N_SLOTS is a power of two: the prescaler's bits above the slot
  -- number all ones, an AND instead of a magnitude compare's carry chain)
  tick <= '1' when presc(5 downto SLOT_BITS) = (5 downto SLOT_BITS => '1') else '0';
  head_zero <= '1' when ring0 = 0 else '0';

  head <= unsigned(gap_units) when load(k) = '1' else
          ring0 - 1 when tick = '1' and head_zero = '0' else
          ring0;

  -- The timers live in a block RAM (N_SLOTS x 8 bits; as a ring of
  -- flip-flops they were 8 cells per slot that hold state and nothing
  -- else): the head slot's timer is read one clock ahead into the RAM's
  -- output register and written back as `head`. The read address is the
  -- next clock's head slot, never the one written in the same clock (for
  -- N_SLOTS >= 2), hence `_nrw`; in reset presc is 0 in the next clock, so
  -- slot 0 is read. The RAM has no reset: a timer's value matters only
  -- from the load that a raise requests (busy and load are reset), and
  -- the bitstream starts it at 0.
  g_ram : if N_SLOTS >= 2 generate
    -- the slot bits of presc + 1 alone (a 6-bit adder for 2 bits before)
    ra <= 0 when rst = '1' else to_integer(presc(SLOT_BITS - 1 downto 0) + 1);
    ring_p : process (clk)
    begin
      if rising_edge(clk) then
        ring_nrw(k) <= head;
      end if;
    end process;
    ring_rd : process (clk)
    begin
      if rising_edge(clk) then
        ring0 <= ring_nrw(ra);
      end if;
    end process;
  end generate;
  -- one slot: a register, read and written every clock
  g_reg : if N_SLOTS = 1 generate
    ra <= 0;
    ring_p : process (clk)
    begin
      if rising_edge(clk) then
        if rst = '1' then
          ring0 <= (others => '0');
        else
          ring0 <= head;
        end if;
      end if;
    end process;
  end generate;

  ctl : process (clk)
    variable fired : boolean;
  begin
    if rising_edge(clk) then
      raise <= (others => '0');
      if rst = '1' then
        pend <= (others => '0');
        stat <= (others => '0');
        busy <= (others => '0');
        load <= (others => '0');
        presc <= (others => '0');
      else
        presc <= presc + 1;
        -- the head visit
        load(k) <= '0';
        if load(k) = '0' and tick = '1' and head_zero = '1' then
          busy(k) <= '0';
        end if;
        stat <= stat and not clear;
        fired := false;
        for i in 0 to N_SLOTS - 1 loop
          -- a raise needs busy(i) = 0, so never meets its own slot's load
          -- or gap end above
          if pend(i) = '1' and mask(i) = '0' and busy(i) = '0' and not fired then
            fired := true;
            raise(i) <= '1';
            pend(i) <= '0';
            stat(i) <= '1';
            if unsigned(gap_units) /= 0 then
              busy(i) <= '1';
              load(i) <= '1';
            end if;
          end if;
          -- a request in the clock of a raise stays for the next one
          if ev_valid = '1' and to_integer(unsigned(ev_slot)) = i then
            pend(i) <= '1';
          end if;
        end loop;
      end if;
    end if;
  end process;

  pending <= pend;
  status  <= stat;
  intx    <= '1' when (stat and not mask) /= (stat'range => '0') else '0';
end architecture;
