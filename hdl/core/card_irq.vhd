-- SPDX-License-Identifier: GPL-2.0-or-later
-- Card interrupts with moderation and masking (bus clock). A request for
-- slot i (ev_valid/ev_slot, from the stamping engine once a capture's stamp
-- writes are done on the bus) sets pending(i). A pending, unmasked slot
-- whose gap timer has run out is raised: one clock of raise(i), at most one
-- slot per clock (lowest first) so the MSI writer takes them one by one.
--
-- The gap timer of a raised slot starts at units + 1 ticks of a shared
-- 64-clock prescaler, so two raises of one slot are at least units * 64 bus
-- clocks apart (and at most 64 clocks more than that when requests wait).
-- Requests while masked or inside the gap are remembered in pending(i),
-- one raise for any number of them: the driver reads all stamps anyway.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity card_irq is
  generic (N_SLOTS : positive := 4);
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    ev_valid  : in  std_logic;
    ev_slot   : in  std_logic_vector(2 downto 0);
    mask      : in  std_logic_vector(N_SLOTS - 1 downto 0);
    gap_units : in  std_logic_vector(7 downto 0);
    raise     : out std_logic_vector(N_SLOTS - 1 downto 0);
    pending   : out std_logic_vector(N_SLOTS - 1 downto 0));
end entity;

architecture rtl of card_irq is
  signal pend     : std_logic_vector(N_SLOTS - 1 downto 0);
  signal presc    : unsigned(5 downto 0);
  signal tick     : std_logic;
  type timer_t is array (0 to N_SLOTS - 1) of unsigned(8 downto 0);
  signal timer    : timer_t;
begin
  tick <= '1' when presc = 63 else '0';

  process (clk)
    variable fired : boolean;
  begin
    if rising_edge(clk) then
      raise <= (others => '0');
      if rst = '1' then
        pend <= (others => '0');
        presc <= (others => '0');
        timer <= (others => (others => '0'));
      else
        presc <= presc + 1;
        fired := false;
        for i in 0 to N_SLOTS - 1 loop
          if tick = '1' and timer(i) /= 0 then
            timer(i) <= timer(i) - 1;
          end if;
          if pend(i) = '1' and mask(i) = '0' and timer(i) = 0 and not fired then
            fired := true;
            raise(i) <= '1';
            pend(i) <= '0';
            if unsigned(gap_units) /= 0 then
              timer(i) <= resize(unsigned(gap_units), 9) + 1;
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
end architecture;
