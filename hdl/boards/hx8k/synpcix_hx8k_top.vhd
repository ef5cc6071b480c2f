-- SPDX-License-Identifier: GPL-2.0-or-later
-- Board top of the SynPCI-X card on an iCE40 HX8K (ct256): clocks, resets,
-- I/O cells and the pin-level view of clock_core. Pins: synpcix_hx8k.pcf.
--
-- Clocks (two domains, both constrained in the .pcf):
--   tb_clk   125.000 MHz exactly, from the 10 MHz TCXO by SB_PLL40_CORE:
--            icepll -i 10 -o 125 gives DIVR=0 DIVF=99 DIVQ=3, i.e.
--            10 MHz / 1 * 100 = 1000 MHz VCO (range 533..1066), / 2^3.
--            The timebase period is 8 ns with no fraction, and the PPS
--            servo's frequency word starts from exactly the nominal value.
--   bus_clk  the PCI CLK pin (66 MHz target) on a dedicated global input.
--            On the bench, before the PCI edge exists, any 1..66 MHz clock
--            fed to that pin runs the register port and the SPI debug port.
-- Resets: rst_n (button, later PCI RST#) resets both domains; tb_clk's
-- domain is also held in reset while the PLL is not locked. Each reset is
-- released through sync_bit, so it ends on a clock edge of its own domain.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity synpcix_hx8k_top is
  generic (
    -- first 8 hex digits of the git commit, set by the flow (BUILD register)
    BUILD_ID : std_logic_vector(31 downto 0) := x"00000000");
  port (
    clk_10m  : in  std_logic;                      -- TCXO, 10 MHz
    pci_clk  : in  std_logic;                      -- bus clock, 66 MHz
    rst_n    : in  std_logic;                      -- reset button, active low
    pps_in   : in  std_logic;                      -- GPS PPS, rising edge on time
    event_in : in  std_logic_vector(1 downto 0);   -- external event inputs
    pps_out  : out std_logic;                      -- PPS / periodic output
    spi_sck  : in  std_logic;                      -- SPI debug port (mode 0)
    spi_cs_n : in  std_logic;
    spi_mosi : in  std_logic;
    spi_miso : out std_logic;                      -- driven only while selected
    led      : out std_logic_vector(3 downto 0));  -- see pcf header
end entity;

architecture board of synpcix_hx8k_top is
  -- icepll -i 10 -o 125 (documented above and in docs/bitstream.md)
  constant TB_CLK_HZ : natural := 125_000_000;
  constant N_EVENTS  : positive := 2;

  signal tb_clk, bus_clk     : std_logic;
  signal pll_lock            : std_logic;
  signal rst_n_pin           : std_logic;
  signal tb_run, bus_run     : std_logic;
  signal tb_rst, bus_rst     : std_logic;

  signal pps_io              : std_logic;                    -- IOB-registered
  signal event_io            : std_logic_vector(N_EVENTS - 1 downto 0);
  signal perout              : std_logic;
  signal pps_locked          : std_logic;
  signal cs_n_pin            : std_logic;
  signal miso, miso_oe       : std_logic;

  signal reg_valid, reg_write, reg_ready : std_logic;
  signal reg_addr            : std_logic_vector(11 downto 2);
  signal reg_wdata, reg_rdata : std_logic_vector(31 downto 0);

  -- LEDs: a PPS edge lights led(2) for 2^24 tb_clk = 134 ms (a prescaler
  -- keeps the counters short: no long carry chain in the 125 MHz domain);
  -- led(3) blinks at bus_clk / 2^26 (~1 Hz at 66 MHz): bus clock present
  signal pps_led_s, pps_led_d : std_logic := '0';
  signal prescale            : unsigned(9 downto 0) := (others => '0');
  signal tick                : std_logic := '0';
  signal pps_stretch         : unsigned(13 downto 0) := (others => '0');
  -- the LED pin's own flip-flop: the placer puts logic that drives a pin
  -- next to it, and the stretch counter's enable then crossed the chip
  -- twice (9.5 ns at 125 MHz, measured)
  signal pps_lit             : std_logic := '0';
  signal bus_blink           : unsigned(25 downto 0) := (others => '0');
begin
  ---------------------------------------------------------------------------
  -- clocks and resets
  pll : entity work.ice40_pll
    generic map (
      DIVR         => "0000",         -- DIVR = 0: PFD at 10 MHz
      DIVF         => "1100011",      -- DIVF = 99: VCO = 10 MHz * 100
      DIVQ         => "011",          -- DIVQ = 3: 1000 MHz / 8 = 125 MHz
      FILTER_RANGE => "001")          -- icepll's choice for a 10 MHz PFD
    port map (ref_clk => clk_10m, clk_out => tb_clk, lock => pll_lock);

  -- pci_clk sits on a GBIN pin; nextpnr routes it onto a global network
  bus_clk <= pci_clk;

  rst_pin : entity work.ice40_pin_in
    generic map (PULLUP => '1')
    port map (pin => rst_n, d => rst_n_pin);

  tb_rst_sync : entity work.sync_bit
    port map (clk => tb_clk, din => rst_n_pin and pll_lock, dout => tb_run);
  bus_rst_sync : entity work.sync_bit
    port map (clk => bus_clk, din => rst_n_pin, dout => bus_run);
  -- sync_bit starts at '0' after configuration: both domains begin in reset
  tb_rst  <= not tb_run;
  bus_rst <= not bus_run;

  ---------------------------------------------------------------------------
  -- timing I/O: registered in the I/O cells on tb_clk (fixed delays; each
  -- adds exactly one tb_clk to the capture and output latencies)
  pps_pin : entity work.ice40_pin_in
    generic map (REGISTERED => true)
    port map (pin => pps_in, clk => tb_clk, d => pps_io);

  event_pins : for i in 0 to N_EVENTS - 1 generate
    ev_pin : entity work.ice40_pin_in
      generic map (REGISTERED => true)
      port map (pin => event_in(i), clk => tb_clk, d => event_io(i));
  end generate;

  pps_out_pin : entity work.ice40_pin_out
    generic map (REGISTERED => true)
    port map (pin => pps_out, clk => tb_clk, q => perout);

  ---------------------------------------------------------------------------
  -- SPI debug port -> register port (bus_clk domain)
  cs_pin : entity work.ice40_pin_in
    generic map (PULLUP => '1')        -- nothing plugged in: deselected
    port map (pin => spi_cs_n, d => cs_n_pin);

  miso_pin : entity work.ice40_pin_out
    generic map (TRISTATE => true)
    port map (pin => spi_miso, q => miso, oe => miso_oe);

  spi : entity work.spi_reg_port
    port map (
      clk => bus_clk, rst => bus_rst,
      spi_sck => spi_sck, spi_cs_n => cs_n_pin, spi_mosi => spi_mosi,
      spi_miso => miso, spi_miso_oe => miso_oe,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata);

  ---------------------------------------------------------------------------
  core : entity work.clock_core
    generic map (
      N_EVENTS => N_EVENTS, FIFO_LOG2 => 4,
      CLK_HZ   => TB_CLK_HZ, BUILD_ID => BUILD_ID)
    port map (
      bus_clk => bus_clk, bus_rst => bus_rst,
      reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
      reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata,
      tb_clk => tb_clk, tb_rst => tb_rst,
      pps_in => pps_io, event_in => event_io,
      perout => perout, pps_locked => pps_locked, tb_time_ns => open);

  ---------------------------------------------------------------------------
  -- LEDs
  pps_led_sync : entity work.sync_bit
    port map (clk => tb_clk, din => pps_io, dout => pps_led_s);

  pps_led : process (tb_clk)
  begin
    if rising_edge(tb_clk) then
      pps_led_d <= pps_led_s;
      prescale  <= prescale + 1;
      tick      <= '1' when prescale = 0 else '0';
      if pps_led_s = '1' and pps_led_d = '0' then
        pps_stretch <= (others => '1');
      elsif tick = '1' and pps_stretch /= 0 then
        pps_stretch <= pps_stretch - 1;
      end if;
      if pps_stretch /= 0 then
        pps_lit <= '1';
      else
        pps_lit <= '0';
      end if;
    end if;
  end process;

  bus_led : process (bus_clk)
  begin
    if rising_edge(bus_clk) then
      bus_blink <= bus_blink + 1;
    end if;
  end process;

  led(0) <= pll_lock;                              -- PLL locked to the TCXO
  led(1) <= pps_locked;                            -- servo LOCKED to PPS
  led(2) <= pps_lit;                               -- PPS heartbeat
  led(3) <= bus_blink(bus_blink'high);             -- bus clock present
end architecture;
