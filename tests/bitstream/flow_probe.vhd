-- SPDX-License-Identifier: GPL-2.0-or-later
-- A small, complete design that the bitstream test suite pushes through
-- the real flow (make bitstream with this as the board top) to check the
-- flow itself, apart from the clock core: the PLL's string generic, the
-- GHDL 2.0 repairs, two constrained clocks in report.json, and that an
-- impossible target, a clock without target and a target on a net that
-- does not exist each fail the build.
-- Same two clock domains as the card: tb_clk from the PLL, bus_clk from a
-- pin; the SPI debug port drives a 4-word register file on bus_clk.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity flow_probe_top is
  generic (BUILD_ID : std_logic_vector(31 downto 0) := x"00000000");
  port (
    clk_10m  : in  std_logic;
    pci_clk  : in  std_logic;
    spi_sck, spi_cs_n, spi_mosi : in std_logic;
    spi_miso : out std_logic;
    led      : out std_logic_vector(1 downto 0));
end entity;

architecture probe of flow_probe_top is
  type words_t is array (0 to 3) of std_logic_vector(31 downto 0);
  signal tb_clk, bus_clk, lock : std_logic;
  signal count                 : unsigned(15 downto 0) := (others => '0');
  signal miso, miso_oe         : std_logic;
  signal reg_valid, reg_write  : std_logic;
  signal reg_ready             : std_logic := '0';
  signal reg_addr              : std_logic_vector(11 downto 2);
  signal reg_wdata             : std_logic_vector(31 downto 0);
  signal reg_rdata             : std_logic_vector(31 downto 0) := (others => '0');
  signal words                 : words_t := (others => (others => '0'));
begin
  pll : entity work.ice40_pll
    generic map (DIVR => "0000", DIVF => "1100011", DIVQ => "011", FILTER_RANGE => "001")
    port map (ref_clk => clk_10m, clk_out => tb_clk, lock => lock);
  bus_clk <= pci_clk;

  process (tb_clk)
  begin
    if rising_edge(tb_clk) then
      count <= count + 1;
    end if;
  end process;

  spi : entity work.spi_reg_port
    port map (clk => bus_clk, rst => '0', spi_sck => spi_sck, spi_cs_n => spi_cs_n,
              spi_mosi => spi_mosi, spi_miso => miso, spi_miso_oe => miso_oe,
              reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
              reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata);

  process (bus_clk)
    variable i : natural range 0 to 3;
  begin
    if rising_edge(bus_clk) then
      i := to_integer(unsigned(reg_addr(3 downto 2)));
      reg_ready <= reg_valid and not reg_ready;
      if reg_valid = '1' and reg_ready = '0' then
        if reg_write = '1' then
          words(i) <= reg_wdata;
        end if;
        reg_rdata <= words(i) xor BUILD_ID;
      end if;
    end if;
  end process;

  miso_pin : entity work.ice40_pin_out
    generic map (TRISTATE => true)
    port map (pin => spi_miso, q => miso, oe => miso_oe);
  led(0) <= count(count'high) and lock;
  led(1) <= words(0)(0);
end architecture;
