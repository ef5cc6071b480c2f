-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card's own interrupt: turns "raise vector v" requests into the MSI
-- memory write the host programmed into the MSI capability (address
-- msi_addr, data msi_data with its low MME bits replaced by v), issued
-- through the initiator as a one-word DMA write. With MSI off the request
-- completes at once and the interrupt is the INTx level (int_pending of
-- pci_target, which card_irq drives): no write. docs/card-internals.md
-- section 5 is the contract.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity pci_msi_raise is
  port (
    clk, rst     : in  std_logic;
    -- requests (card_irq): vector held until irq_ready
    irq_valid    : in  std_logic;
    irq_vector   : in  std_logic_vector(1 downto 0);
    irq_ready    : out std_logic;   -- one-clock pulse: taken
    irq_done     : out std_logic;   -- one-clock pulse: written (or MSI off)
    irq_err      : out std_logic_vector(1 downto 0);   -- dma_err of the write
    irq_sent     : out std_logic;   -- with irq_done: an MSI went out (0: MSI off)
    -- MSI capability (pci_target)
    msi_enable   : in  std_logic;
    msi_mme      : in  std_logic_vector(2 downto 0);
    msi_addr     : in  std_logic_vector(63 downto 0);
    msi_data     : in  std_logic_vector(15 downto 0);
    -- one-word write request towards the initiator (DMA port semantics)
    wr_valid     : out std_logic;
    wr_addr      : out std_logic_vector(63 downto 2);
    wr_data      : out std_logic_vector(31 downto 0);
    wr_ready     : in  std_logic;
    wr_done      : in  std_logic;
    wr_err       : in  std_logic_vector(1 downto 0));
end entity;

architecture rtl of pci_msi_raise is
  type state_t is (IDLE, REQ, WAIT_DONE);
  signal state : state_t := IDLE;
  signal vec   : std_logic_vector(1 downto 0) := "00";
  signal ready_q, done_q, sent_q : std_logic := '0';
  signal err_q : std_logic_vector(1 downto 0) := "00";
begin
  process (clk)
  begin
    if rising_edge(clk) then
      ready_q <= '0';
      done_q  <= '0';
      case state is
        when IDLE =>
          if irq_valid = '1' and ready_q = '0' then
            ready_q <= '1';
            -- the vector's bits beyond those granted (MME) are dropped:
            -- with fewer vectors than slots, slots share vectors
            vec(0) <= irq_vector(0) and (msi_mme(0) or msi_mme(1));
            vec(1) <= irq_vector(1) and msi_mme(1);
            if msi_enable = '1' then
              state <= REQ;
            else
              done_q <= '1';
              sent_q <= '0';
              err_q  <= "00";
            end if;
          end if;
        when REQ =>
          if wr_ready = '1' then
            state <= WAIT_DONE;
          end if;
        when WAIT_DONE =>
          if wr_done = '1' then
            done_q <= '1';
            sent_q <= '1';
            err_q  <= wr_err;
            state  <= IDLE;
          end if;
      end case;
      if rst = '1' then
        state <= IDLE; ready_q <= '0'; done_q <= '0'; sent_q <= '0'; err_q <= "00";
        vec <= "00";
      end if;
    end if;
  end process;

  wr_valid  <= '1' when state = REQ else '0';
  -- msi_addr and msi_data are configuration registers: stable while the
  -- driver has MSI enabled (PCI 2.3 6.8.1: software must not change them
  -- while enabled), so they are used straight, not copied
  wr_addr   <= msi_addr(63 downto 2);
  -- an MSI is a DWORD write with the message data in the low 16 bits
  wr_data   <= x"0000" & msi_data(15 downto 2) & (msi_data(1 downto 0) or vec);
  irq_ready <= ready_q;
  irq_done  <= done_q;
  irq_err   <= err_q;
  irq_sent  <= sent_q;
end architecture;
