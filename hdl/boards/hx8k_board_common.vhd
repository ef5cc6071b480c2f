-- SPDX-License-Identifier: GPL-2.0-or-later
-- What every SynPCI-X board on the iCE40 HX8K (ct256) has, whatever carries
-- the register port (hdl/boards/hx8k: SPI debug port; hdl/boards/hx8k-pci:
-- the PCI edge): the timebase PLL, the reset pin and its synchronisers, the
-- timing I/O registered in the I/O cells and the four LEDs. The pins are
-- the same balls on both boards (their .pcf files). docs/bitstream.md, "The
-- board (hdl/boards/hx8k/)" and "Session 5: PCI".
--
-- tb_clk is 125.000 MHz exactly, from the 10 MHz TCXO by SB_PLL40_CORE:
-- icepll -i 10 -o 125 gives DIVR=0 DIVF=99 DIVQ=3, i.e. 10 MHz / 1 * 100 =
-- 1000 MHz VCO (range 533..1066), / 2^3. The timebase period is 8 ns with
-- no fraction, and the PPS servo's frequency word starts from exactly the
-- nominal value (tests/bitstream/run.sh checks these against icepll).
--
-- Resets: tb_rst/bus_rst end on an edge of their own domain (sync_bit, which
-- powers up at '0': both domains start in reset); tb_rst is also held while
-- the PLL is not locked. A board whose core synchronises the reset pin
-- itself (the PCI card: RST# alone, docs/bitstream.md) uses rst_n_pin and
-- leaves tb_rst/bus_rst open; synthesis then drops their synchronisers.
--
-- Timing I/O: pps_in, event_in are sampled and pps_out driven by the I/O
-- cells' registers on tb_clk: fixed pad delays, the same in every build
-- (they are offsets in every stamp and output edge); each adds exactly one
-- tb_clk to the capture and output latencies.
--
-- LEDs are paced by the card's own time (tb_time_ns, the timebase's
-- output), not by counters of their own: a PPS edge lights led(2) until
-- time bit 26 (2^26 ns = 67 ms) has toggled twice, 67 to 134 ms; led(3)
-- is time bit 29 (a 1.07 s cycle) sampled on bus_clk, so it blinks only
-- while both the bus clock and the timebase run (led(0) shows the PLL).
-- The counters they replace (a 10-bit prescaler, a 14-bit stretch, a
-- 26-bit bus-clock divider) were ~50 logic cells of the PCI board (session
-- 22), against the 70 % bar.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

package hx8k_board_pkg is
  -- the PLL's output (icepll -i 10 -o 125, above); CLK_HZ of the core
  constant TB_CLK_HZ : natural := 125_000_000;
end package;

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity hx8k_board_common is
  generic (
    N_EVENTS   : positive  := 2;
    RST_PULLUP : std_logic := '0');     -- a button needs it; PCI RST# is driven
  port (
    -- pins
    clk_10m    : in  std_logic;         -- TCXO, 10 MHz
    rst_n      : in  std_logic;         -- reset pin, active low
    pps_in     : in  std_logic;
    event_in   : in  std_logic_vector(N_EVENTS - 1 downto 0);
    pps_out    : out std_logic;
    led        : out std_logic_vector(3 downto 0);
    -- the core's side
    bus_clk    : in  std_logic;         -- the register port's clock (global)
    tb_clk     : out std_logic;
    pll_lock   : out std_logic;
    rst_n_pin  : out std_logic;         -- the reset pin, not synchronised
    tb_rst     : out std_logic;         -- synchronised, PLL lock included
    bus_rst    : out std_logic;         -- synchronised
    pps_io     : out std_logic;         -- I/O-cell registered on tb_clk
    event_io   : out std_logic_vector(N_EVENTS - 1 downto 0);
    perout     : in  std_logic;         -- to pps_out through the I/O register
    pps_locked : in  std_logic;         -- servo LOCKED (led(1))
    -- the core's time (tb_clk domain): bits 26 and 29 pace the LEDs
    tb_time_ns : in  unsigned(63 downto 0));
end entity;

architecture board of hx8k_board_common is
  signal tb_clk_i, lock, rst_pin, pps_i : std_logic;
  signal tb_run, bus_run : std_logic;

  -- LEDs (see the header)
  signal pps_led_s, pps_led_d : std_logic := '0';
  -- the PPS edge, registered: Yosys merges pps_led_sync with the PPS
  -- capture's own synchroniser (same input), which sits by the capture,
  -- far from the LED's logic by its pin; the edge decoded there took
  -- that route and a LUT into the stretch counter's enables (8.0 ns, the
  -- worst tb_clk path of the PCI board at seed 2 in session 21)
  signal pps_edge    : std_logic := '0';
  -- time bit 26 registered twice (t26_q takes the route from the
  -- timebase's output, which comes from a block RAM delay line), and its
  -- toggle registered: every input of the LED's own flip-flops is a
  -- flip-flop, one LUT from pps_lit
  signal t26_q, t26_d, t26_tog : std_logic := '0';
  -- the flash has seen one toggle of bit 26 since its edge
  signal half        : std_logic := '0';
  -- the LED pin's own flip-flop: the placer puts logic that drives a pin
  -- next to it, so logic in front of the pin crosses the chip (the old
  -- stretch counter's enable did so twice, 9.5 ns at 125 MHz, measured)
  signal pps_lit     : std_logic := '0';
  signal bus_blink   : std_logic;
begin
  tb_clk    <= tb_clk_i;
  pll_lock  <= lock;
  rst_n_pin <= rst_pin;
  pps_io    <= pps_i;

  pll : entity work.ice40_pll
    generic map (
      DIVR         => "0000",         -- DIVR = 0: PFD at 10 MHz
      DIVF         => "1100011",      -- DIVF = 99: VCO = 10 MHz * 100
      DIVQ         => "011",          -- DIVQ = 3: 1000 MHz / 8 = 125 MHz
      FILTER_RANGE => "001")          -- icepll's choice for a 10 MHz PFD
    port map (ref_clk => clk_10m, clk_out => tb_clk_i, lock => lock);

  rst_pin_i : entity work.ice40_pin_in
    generic map (PULLUP => RST_PULLUP)
    port map (pin => rst_n, d => rst_pin);

  tb_rst_sync : entity work.sync_bit
    port map (clk => tb_clk_i, din => rst_pin and lock, dout => tb_run);
  bus_rst_sync : entity work.sync_bit
    port map (clk => bus_clk, din => rst_pin, dout => bus_run);
  tb_rst  <= not tb_run;
  bus_rst <= not bus_run;

  pps_pin : entity work.ice40_pin_in
    generic map (REGISTERED => true)
    port map (pin => pps_in, clk => tb_clk_i, d => pps_i);
  event_pins : for i in 0 to N_EVENTS - 1 generate
    ev_pin : entity work.ice40_pin_in
      generic map (REGISTERED => true)
      port map (pin => event_in(i), clk => tb_clk_i, d => event_io(i));
  end generate;
  pps_out_pin : entity work.ice40_pin_out
    generic map (REGISTERED => true)
    port map (pin => pps_out, clk => tb_clk_i, q => perout);

  ---------------------------------------------------------------------------
  -- LEDs
  pps_led_sync : entity work.sync_bit
    port map (clk => tb_clk_i, din => pps_i, dout => pps_led_s);

  pps_led : process (tb_clk_i)
  begin
    if rising_edge(tb_clk_i) then
      pps_led_d <= pps_led_s;
      pps_edge  <= pps_led_s and not pps_led_d;
      t26_q     <= tb_time_ns(26);
      t26_d     <= t26_q;
      t26_tog   <= t26_q xor t26_d;
      if pps_edge = '1' then
        pps_lit <= '1';
        half    <= '0';
      elsif t26_tog = '1' and pps_lit = '1' then
        if half = '1' then
          pps_lit <= '0';
        end if;
        half <= '1';
      end if;
    end if;
  end process;

  bus_led_sync : entity work.sync_bit
    port map (clk => bus_clk, din => tb_time_ns(29), dout => bus_blink);

  led(0) <= lock;                                  -- PLL locked to the TCXO
  led(1) <= pps_locked;                            -- servo LOCKED to PPS
  led(2) <= pps_lit;                               -- PPS heartbeat
  led(3) <= bus_blink;                             -- bus clock and time run
end architecture;
