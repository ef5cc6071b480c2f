-- SPDX-License-Identifier: GPL-2.0-or-later
-- Carries one data word at a time from clock domain A to clock domain B.
--
-- Four-phase-free toggle handshake: A latches the word and flips req; B sees
-- the flip through sync_bit and flips ack back when b_ready allows it, so a
-- slow consumer back-pressures A instead of losing words. b_data is A's
-- holding register itself, read only in the b_valid clock: it has been
-- stable for two B clocks by then and A cannot change it before the ack has
-- crossed back, so no second copy of the word is kept on the B side. A is busy (a_ready = 0) from
-- the transfer until the ack arrives, about 2 B clocks + 2 A clocks. The data
-- bus itself is never synchronised bit by bit; only req and ack are.
library ieee;
use ieee.std_logic_1164.all;

entity cdc_handshake is
  generic (
    WIDTH : positive := 32;
    -- false: no holding register; b_data is a_data itself, so A must keep
    -- a_data unchanged from the clock it is taken until a_ready is 1
    -- again (clock_regs' message: its RAM read register and message
    -- number are held that long anyway, and a copy of them cost a logic
    -- cell per bit). a_alt/a_data_alt are then unused.
    KEEP  : boolean := true);
  port (
    a_clk   : in  std_logic;
    a_rst   : in  std_logic;
    a_valid : in  std_logic;                           -- transfer a_data now
    a_data  : in  std_logic_vector(WIDTH - 1 downto 0);
    -- 1: transfer a_data_alt instead. The holding register's flip-flops
    -- load straight from the data (no logic in front of them), so this
    -- 2:1 multiplexer fills their otherwise unused LUTs: a sender with
    -- several sources gives the crossing its last multiplexer stage for
    -- free (clock_tb_domain's answer, session 6). Unused: leave open.
    a_alt      : in  std_logic := '0';
    a_data_alt : in  std_logic_vector(WIDTH - 1 downto 0) := (others => '0');
    a_ready : out std_logic;                           -- may transfer
    b_clk   : in  std_logic;
    b_rst   : in  std_logic;
    b_ready : in  std_logic := '1';                    -- B can take a word
    b_valid : out std_logic;                           -- one-cycle strobe
    -- a word waits for b_ready: b_data is stable while b_pending = 1, so a
    -- consumer may read it over several clocks and then raise b_ready
    b_pending : out std_logic;
    b_data  : out std_logic_vector(WIDTH - 1 downto 0)); -- valid with b_valid only
end entity;

architecture rtl of cdc_handshake is
  signal hold          : std_logic_vector(WIDTH - 1 downto 0) := (others => '0');
  signal req, ack      : std_logic := '0';
  signal req_b, ack_a  : std_logic;
  signal req_b_seen    : std_logic := '0';
  signal b_stb         : std_logic := '0';
begin
  a_side : process (a_clk)
  begin
    if rising_edge(a_clk) then
      if a_rst = '1' then
        req <= ack_a;              -- idle: req equals the returned ack
      elsif a_valid = '1' and req = ack_a then
        if not KEEP then
          null;
        elsif a_alt = '1' then
          hold <= a_data_alt;
        else
          hold <= a_data;
        end if;
        req  <= not req;
      end if;
    end if;
  end process;
  a_ready <= '1' when req = ack_a and a_rst = '0' else '0';

  req_sync : entity work.sync_bit port map (clk => b_clk, din => req, dout => req_b);
  ack_sync : entity work.sync_bit port map (clk => a_clk, din => ack, dout => ack_a);

  b_side : process (b_clk)
  begin
    if rising_edge(b_clk) then
      b_stb <= '0';
      if b_rst = '1' then
        ack <= req_b;
        req_b_seen <= req_b;
      elsif req_b /= req_b_seen and b_ready = '1' then
        req_b_seen <= req_b;
        b_stb <= '1';
        ack   <= req_b;
      end if;
    end if;
  end process;
  b_valid <= b_stb;
  b_pending <= '1' when req_b /= req_b_seen and b_rst = '0' else '0';
  b_data  <= hold when KEEP else a_data;
end architecture;

