-- SPDX-License-Identifier: GPL-2.0-or-later
-- Behavioural PCI memory target for the initiator's testbenches (not
-- synthesisable): 16 KiB of memory, claimed (DEVSEL# medium) at the 32-bit
-- window WIN_LO and at the 64-bit window WIN_HI:WIN_LO (dual address
-- cycle), the same memory at both. What it does to a transaction depends on
-- the address (so a testbench knows the outcome) and on its random source
-- (so the initiator meets everything a real target may do):
--   bits 13:12 = 00  clean: random wait states (0-3 clocks), retry of the
--                     first data phase, disconnect with data (TRDY# with
--                     STOP#), disconnect without data (STOP# alone)
--                01  as 00, and every word whose index (addr bits 4:2) is 3
--                     is bad: read data goes out with wrong PAR; write data
--                     arrives with AD bit 0 flipped on its way (`corrupt`
--                     tells the testbench to flip it at this model's pins),
--                     is stored flipped and PERR# is asserted
--                10  as 00, and target abort at the first word whose
--                     addr bits 5:2 are 5 (DEVSEL# first, then STOP#
--                     without DEVSEL#)
--                11  not claimed: the initiator must master-abort
-- Every word that moves is reported on log_* (one-clock pulse with word
-- index, data as stored or sent, direction) for the testbench to check each
-- word exactly once and in order.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;

entity pci_mem_target is
  generic (
    WIN_LO : std_logic_vector(31 downto 14) := (others => '0');
    WIN_HI : std_logic_vector(31 downto 0) := x"00000001";
    SEED   : positive := 11);
  port (
    clk, rst    : in  std_logic;
    ad          : in  std_logic_vector(31 downto 0);   -- as seen at this target's pins
    cbe_n       : in  std_logic_vector(3 downto 0);
    par         : in  std_logic;
    frame_n, irdy_n : in std_logic;
    ad_out      : out std_logic_vector(31 downto 0);
    ad_oe       : out std_logic;
    par_out     : out std_logic;
    par_oe      : out std_logic;
    trdy_n_out, devsel_n_out, stop_n_out, perr_n_out : out std_logic;
    trdy_n_oe, devsel_n_oe, stop_n_oe, perr_n_oe : out std_logic;
    corrupt     : out std_logic;   -- flip AD bit 0 of the write data now on the bus
    -- what it did, for the testbench
    log_valid   : out std_logic;
    log_idx     : out natural;
    log_data    : out std_logic_vector(31 downto 0);
    log_wr      : out boolean;
    words       : out natural;     -- words moved so far
    retries, disc_data, disc_nodata, tabort, waits, bad_rd, bad_wr, dacs : out natural;
    -- memory look-up for the testbench (combinational)
    peek_addr   : in  natural range 0 to 4095;
    peek_data   : out std_logic_vector(31 downto 0));
end entity;

architecture sim of pci_mem_target is
  subtype word is std_logic_vector(31 downto 0);
  type mem_t is array (0 to 4095) of word;
  signal mem_s : mem_t;
  signal t_ad : word := (others => '0');
  signal t_ad_oe, t_bad : std_logic := '0';

  function xor_all (v : std_logic_vector) return std_logic is
    variable r : std_logic := '0';
  begin
    for i in v'range loop r := r xor v(i); end loop;
    return r;
  end function;
begin
  ad_out <= t_ad;
  ad_oe <= t_ad_oe;
  peek_data <= mem_s(peek_addr);

  -- PAR one clock after AD, over AD and the master's C/BE#; wrong for a bad
  -- word of region 01
  process (clk)
  begin
    if rising_edge(clk) then
      par_out <= xor_all(t_ad) xor xor_all(to_x01(cbe_n)) xor t_bad;
      par_oe <= t_ad_oe;
    end if;
  end process;

  process
    variable mem : mem_t;
    variable s1 : positive := SEED;
    variable s2 : positive := 77;
    variable r : real;
    type st_t is (S_IDLE, S_ADDR2, S_WAITIDLE, S_DEVSEL, S_TURN, S_DATA, S_END);
    variable st : st_t := S_IDLE;
    variable p_frame : std_logic := '1';
    variable a_lo, a_hi : word;
    variable cmd : std_logic_vector(3 downto 0);
    variable idx : natural;              -- word index in the 16 KiB
    variable region : natural;
    variable wr : boolean;
    variable wait_left : natural;
    variable moved_n : natural;          -- words moved in this transaction
    variable trdy, stop, devsel : std_logic := '1';
    variable oe : std_logic := '0';
    variable chk_pending, chk_bad : boolean := false;
    variable chk_par : std_logic;
    variable perr_state : natural := 0;
    variable n_log, n_retry, n_dd, n_dnd, n_ta, n_wait, n_brd, n_bwr, n_dac : natural := 0;
    variable done_phase : boolean;
    variable hit : boolean;

    -- decide what the next data phase does: wait states, then TRDY#
    -- and/or STOP#
    procedure plan is
    begin
      uniform(s1, s2, r);
      wait_left := 0;
      if r < 0.25 then
        uniform(s1, s2, r);
        wait_left := 1 + integer(r * 2.0);
        n_wait := n_wait + 1;
      end if;
    end procedure;

    procedure present is
      variable ta : boolean;
    begin
      -- this clock the target answers: abort, retry, disconnect or data
      ta := region = 2 and idx mod 16 = 5;
      uniform(s1, s2, r);
      if ta then
        devsel := '1'; stop := '0'; trdy := '1';
        n_ta := n_ta + 1;
      elsif moved_n = 0 and r < 0.08 then
        stop := '0'; trdy := '1';            -- retry
        n_retry := n_retry + 1;
      elsif moved_n > 0 and r < 0.12 then
        stop := '0'; trdy := '1';            -- disconnect without data
        n_dnd := n_dnd + 1;
      elsif r > 0.93 then
        stop := '0'; trdy := '0';            -- disconnect with data
        n_dd := n_dd + 1;
      else
        trdy := '0';
      end if;
      if trdy = '0' and not wr then
        t_ad <= mem(idx);
        t_bad <= '1' when region = 1 and idx mod 8 = 3 else '0';
      end if;
      corrupt <= '1' when trdy = '0' and wr and region = 1 and idx mod 8 = 3 else '0';
    end procedure;
  begin
    for i in mem'range loop
      mem(i) := std_logic_vector(to_unsigned(i * 40503 + 12345, 32)) xor x"5A000000";
    end loop;
    mem_s <= mem;
    corrupt <= '0';
    log_valid <= '0';
    trdy_n_oe <= '0'; devsel_n_oe <= '0'; stop_n_oe <= '0'; perr_n_oe <= '0';
    trdy_n_out <= '1'; devsel_n_out <= '1'; stop_n_out <= '1'; perr_n_out <= '1';
    loop
      wait until rising_edge(clk);
      -- write-data parity one clock after the data phase, PERR# the clock after
      if perr_state = 1 then
        perr_n_out <= '1'; perr_state := 2;
      elsif perr_state = 2 then
        perr_n_oe <= '0'; perr_state := 0;
      end if;
      if chk_pending then
        chk_pending := false;
        if to_x01(par) /= chk_par then
          perr_n_oe <= '1'; perr_n_out <= '0'; perr_state := 1;
          n_bwr := n_bwr + 1;
        end if;
      end if;
      done_phase := to_x01(irdy_n) = '0' and (trdy = '0' or stop = '0');
      log_valid <= '0';
      case st is
        when S_IDLE | S_WAITIDLE =>
          if to_x01(frame_n) = '0' and p_frame = '1' then
            a_lo := to_x01(ad);
            cmd := to_x01(cbe_n);
            a_hi := (others => '0');
            if cmd = "1101" then
              st := S_ADDR2;
            else
              st := S_DEVSEL;
            end if;
          elsif st = S_WAITIDLE then
            st := S_WAITIDLE;
          end if;
        when S_ADDR2 =>
          a_hi := to_x01(ad);
          cmd := to_x01(cbe_n);
          n_dac := n_dac + 1;
          st := S_DEVSEL;
        when others => null;
      end case;
      if st = S_DEVSEL then
        -- the last address phase was sampled at this edge: decode
        wr := cmd = "0111" or cmd = "1111";
        hit := (wr or cmd = "0110" or cmd = "1100" or cmd = "1110") and
               a_lo(31 downto 14) = WIN_LO and (a_hi = x"00000000" or a_hi = WIN_HI);
        idx := to_integer(unsigned(a_lo(13 downto 2)));
        region := idx / 1024;
        if not hit or region = 3 then
          st := S_WAITIDLE;          -- not ours
        else
          -- medium DEVSEL#: asserted from the next edge (sampled one later);
          -- this clock only turns AD around
          moved_n := 0;
          st := S_TURN;
        end if;
      elsif st = S_TURN then
          devsel := '0'; trdy := '1'; stop := '1'; oe := '1';
          devsel_n_oe <= '1'; trdy_n_oe <= '1'; stop_n_oe <= '1';
          if not wr then t_ad_oe <= '1'; end if;
          plan;
          if region = 2 and idx mod 16 = 5 then
            wait_left := 1;          -- DEVSEL# before the abort
          end if;
          if wait_left = 0 then present; end if;
          devsel_n_out <= devsel; trdy_n_out <= trdy; stop_n_out <= stop;
          st := S_DATA;
      elsif st = S_DATA then
        corrupt <= '0';
        if done_phase then
          if trdy = '0' then
            -- a word moves
            if wr then
              mem(idx) := to_x01(ad);
              chk_pending := true;
              chk_par := xor_all(to_x01(ad)) xor xor_all(to_x01(cbe_n));
            elsif t_bad = '1' then
              n_brd := n_brd + 1;
            end if;
            t_bad <= '0';
            log_valid <= '1'; log_idx <= idx; log_data <= mem(idx); log_wr <= wr;
            n_log := n_log + 1;
            mem_s(idx) <= mem(idx);
            idx := idx + 1;
            moved_n := moved_n + 1;
          end if;
          if to_x01(frame_n) = '1' then
            -- last data phase: drive high one clock, then release (S_END)
            trdy := '1'; stop := '1'; devsel := '1';
            t_ad_oe <= '0'; t_bad <= '0';
            st := S_END;
          elsif stop = '0' then
            trdy := '1';             -- STOP# stays until FRAME# goes
          else
            trdy := '1';
            plan;
            if wait_left = 0 then present; end if;
          end if;
        elsif stop = '1' and trdy = '1' then
          if wait_left > 0 then wait_left := wait_left - 1; end if;
          if wait_left = 0 then present; end if;
        end if;
        devsel_n_out <= devsel; trdy_n_out <= trdy; stop_n_out <= stop;
      elsif st = S_END then
        devsel_n_oe <= '0'; trdy_n_oe <= '0'; stop_n_oe <= '0';
        st := S_IDLE;
        -- a fast back-to-back address phase is not expected from this initiator
      end if;
      if st = S_WAITIDLE and to_x01(frame_n) = '1' and to_x01(irdy_n) = '1' then
        st := S_IDLE;
      end if;
      p_frame := to_x01(frame_n);
      words <= n_log; retries <= n_retry; disc_data <= n_dd; disc_nodata <= n_dnd;
      tabort <= n_ta; waits <= n_wait; bad_rd <= n_brd; bad_wr <= n_bwr; dacs <= n_dac;
    end loop;
  end process;
end architecture;
