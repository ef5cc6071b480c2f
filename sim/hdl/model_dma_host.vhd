-- SPDX-License-Identifier: GPL-2.0-or-later
-- Behavioural model of the PCI initiator plus host bridge and memory as the
-- capture unit sees them through the DMA port (docs/card-internals.md
-- section 3). Assumptions, chosen to cover what a real bus does to timing:
--   - accept delay (REQ#/GNT#, address phase, a retry or two): uniform
--     0..MAX_ACCEPT bus clocks;
--   - a read's first word after READ_LAT .. READ_LAT + MAX_JITTER clocks
--     (bridge prefetch), then one word per clock with random one-clock
--     wait states; a write's words taken one per clock with random waits;
--   - done one clock after the last data phase;
--   - an address outside host memory ends in master abort (err 01) with no
--     data phases, as no target claims it.
-- Data goes to and from model_host_mem_pkg's shared memory.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;
use work.model_host_mem_pkg.all;

entity model_dma_host is
  generic (
    MAX_ACCEPT : natural := 6;
    READ_LAT   : natural := 8;
    MAX_JITTER : natural := 12;
    SEED       : positive := 11);
  port (
    clk         : in  std_logic;
    dma_valid   : in  std_logic;
    dma_ready   : out std_logic;
    dma_write   : in  std_logic;
    dma_addr    : in  std_logic_vector(63 downto 2);
    dma_len     : in  std_logic_vector(4 downto 0);
    dma_wd_data : in  std_logic_vector(31 downto 0);
    dma_wd_ready : out std_logic;
    dma_rd_valid : out std_logic;
    dma_rd_data  : out std_logic_vector(31 downto 0);
    dma_done    : out std_logic;
    dma_err     : out std_logic_vector(1 downto 0);
    -- statistics for the testbench
    n_requests  : out natural;
    max_len     : out natural);
end entity;

architecture model of model_dma_host is
begin
  process
    variable s1 : positive := SEED;
    variable s2 : positive := 3;
    variable r : real;
    variable a : unsigned(61 downto 0);
    variable len, idx : integer;
    variable wr : std_logic;
    variable nreq, mlen : natural := 0;

    impure function rnd (n : natural) return natural is
    begin
      uniform(s1, s2, r);
      return integer(trunc(r * real(n + 1))) mod (n + 1);
    end function;

    procedure clocks (n : natural) is
    begin
      for i in 1 to n loop
        wait until rising_edge(clk);
      end loop;
    end procedure;
  begin
    dma_ready <= '0';
    dma_wd_ready <= '0';
    dma_rd_valid <= '0';
    dma_rd_data <= (others => '0');
    dma_done <= '0';
    dma_err <= "00";
    n_requests <= 0;
    max_len <= 0;
    loop
      wait until rising_edge(clk);
      if dma_valid = '1' then
        clocks(rnd(MAX_ACCEPT));
        a := unsigned(dma_addr);
        len := to_integer(unsigned(dma_len));
        wr := dma_write;
        assert len >= 1 and len <= 16 report "model_dma_host: burst length " &
          integer'image(len) severity error;
        assert a(9 downto 0) + to_unsigned(len - 1, 10) >= a(9 downto 0)
          report "model_dma_host: burst crosses a 4 KiB boundary" severity error;
        nreq := nreq + 1;
        n_requests <= nreq;
        if len > mlen then
          mlen := len;
          max_len <= len;
        end if;
        dma_ready <= '1';
        wait until rising_edge(clk);
        dma_ready <= '0';
        idx := host_index(a);
        if idx < 0 or host_index(a + len - 1) < 0 then
          clocks(5);
          dma_err <= "01";
        elsif wr = '1' then
          for k in 0 to len - 1 loop
            clocks(rnd(1));
            dma_wd_ready <= '1';
            wait until rising_edge(clk);
            -- the edge that takes word k: it is on dma_wd_data until now
            host.card_write(idx + k, dma_wd_data);
            dma_wd_ready <= '0';
          end loop;
          dma_err <= "00";
        else
          clocks(READ_LAT + rnd(MAX_JITTER));
          for k in 0 to len - 1 loop
            dma_rd_valid <= '1';
            dma_rd_data <= host.card_read(idx + k);
            wait until rising_edge(clk);
            dma_rd_valid <= '0';
            if rnd(3) = 0 then
              wait until rising_edge(clk);
            end if;
          end loop;
          dma_err <= "00";
        end if;
        dma_done <= '1';
        wait until rising_edge(clk);
        dma_done <= '0';
        dma_err <= "00";
      end if;
    end loop;
  end process;
end architecture;
