-- SPDX-License-Identifier: GPL-2.0-or-later
-- Board top of the SynPCI-X card on an iCE40 HX8K (ct256): clocks, resets,
-- I/O cells and the pin-level view of clock_core. Pins: synpcix_hx8k.pcf.
--
-- The PLL, the reset pin and its synchronisers, the timing I/O registers
-- and the LEDs are hx8k_board_common's (shared with hdl/boards/hx8k-pci):
--   tb_clk   125.000 MHz exactly from the 10 MHz TCXO (icepll -i 10 -o 125).
--   bus_clk  the PCI CLK pin (66 MHz target) on a dedicated global input.
--            On the bench, before the PCI edge exists, any 1..66 MHz clock
--            fed to that pin runs the register port and the SPI debug port.
-- Resets: rst_n (button with the pin's pull-up) resets both domains; tb_clk's
-- domain is also held in reset while the PLL is not locked.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.hx8k_board_pkg.all;

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
  constant N_EVENTS  : positive := 2;

  signal tb_clk, bus_clk     : std_logic;
  signal tb_rst, bus_rst     : std_logic;
  signal pps_io              : std_logic;                    -- IOB-registered
  signal event_io            : std_logic_vector(N_EVENTS - 1 downto 0);
  signal perout              : std_logic;
  signal pps_locked          : std_logic;
  signal tb_time_ns          : unsigned(63 downto 0);
  signal cs_n_pin            : std_logic;
  signal miso, miso_oe       : std_logic;

  signal reg_valid, reg_write, reg_ready : std_logic;
  signal reg_addr            : std_logic_vector(11 downto 2);
  signal reg_wdata, reg_rdata : std_logic_vector(31 downto 0);
begin
  -- pci_clk sits on a GBIN pin; nextpnr routes it onto a global network
  bus_clk <= pci_clk;

  -- PLL, resets, timing I/O, LEDs
  common : entity work.hx8k_board_common
    generic map (N_EVENTS => N_EVENTS, RST_PULLUP => '1')
    port map (
      clk_10m => clk_10m, rst_n => rst_n, pps_in => pps_in,
      event_in => event_in, pps_out => pps_out, led => led,
      bus_clk => bus_clk, tb_clk => tb_clk, pll_lock => open,
      rst_n_pin => open, tb_rst => tb_rst, bus_rst => bus_rst,
      pps_io => pps_io, event_io => event_io,
      perout => perout, pps_locked => pps_locked, tb_time_ns => tb_time_ns);

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
      perout => perout, pps_locked => pps_locked, tb_time_ns => tb_time_ns);
end architecture;
