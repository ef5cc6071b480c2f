-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card's own interrupt: turns "raise vector v" requests into the MSI
-- memory write the host programmed into the MSI capability (address
-- msi_addr, data msi_data with its low MME bits replaced by v), issued
-- through the initiator as a one-word DMA write. With MSI off the request
-- completes at once and the interrupt is the INTx level (int_pending of
-- pci_target, which card_irq drives): no write. docs/card-internals.md
-- section 5 is the contract.
--
-- The message address lives only in pci_target's configuration RAM (62
-- flip-flops fewer, docs/pci.md "Session 5"). Once the initiator is ours
-- (wr_grant: idle, and pci_interface will not hand it to the DMA port
-- while wr_want is set), the upper dword is read (msi_rd "10") and loaded
-- into the initiator alone (wr_hi_ld), then the lower dword is read and the
-- request offered in the clock after, when the RAM's output register holds
-- it. A read the target cannot do at an edge (an address phase on the bus,
-- or its own transaction) is asked again.
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
    msi_data     : in  std_logic_vector(15 downto 0);
    msi_rd       : out std_logic_vector(1 downto 0);   -- "01" low, "10" high dword
    msi_rd_go    : in  std_logic;   -- the target reads it at this edge
    -- one-word write request towards the initiator (DMA port semantics;
    -- its address is the target's cfg_word, see above)
    wr_want      : out std_logic;   -- the initiator is wanted
    wr_grant     : in  std_logic;   -- ... and is ours, idle
    wr_hi_ld     : out std_logic;   -- the upper address dword is offered
    wr_valid     : out std_logic;
    wr_data      : out std_logic_vector(31 downto 0);
    wr_ready     : in  std_logic;
    wr_done      : in  std_logic;
    wr_err       : in  std_logic_vector(1 downto 0));
end entity;

architecture rtl of pci_msi_raise is
  type state_t is (IDLE, RD_HI, RD_LO, REQ, WAIT_DONE);
  signal state : state_t := IDLE;
  signal hi_ld : std_logic := '0';
  signal vec   : std_logic_vector(1 downto 0) := "00";
  signal ready_q, done_q, sent_q : std_logic := '0';
  signal err_q : std_logic_vector(1 downto 0) := "00";
begin
  process (clk)
  begin
    if rising_edge(clk) then
      ready_q <= '0';
      done_q  <= '0';
      hi_ld   <= '0';
      case state is
        when IDLE =>
          if irq_valid = '1' and ready_q = '0' then
            ready_q <= '1';
            -- the vector's bits beyond those granted (MME) are dropped:
            -- with fewer vectors than slots, slots share vectors
            vec(0) <= irq_vector(0) and (msi_mme(0) or msi_mme(1));
            vec(1) <= irq_vector(1) and msi_mme(1);
            if msi_enable = '1' then
              state <= RD_HI;
            else
              done_q <= '1';
              sent_q <= '0';
              err_q  <= "00";
            end if;
          end if;
        when RD_HI =>
          -- the upper dword is in cfg_word the clock after its read
          if wr_grant = '1' and msi_rd_go = '1' then
            state <= RD_LO;
          end if;
          hi_ld <= wr_grant and msi_rd_go;
        when RD_LO =>
          if msi_rd_go = '1' then
            state <= REQ;
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
        vec <= "00"; hi_ld <= '0';
      end if;
    end if;
  end process;

  -- the message address and data are configuration registers: stable
  -- while the driver has MSI enabled (PCI 2.3 6.8.1: software must not
  -- change them while enabled), so they are used straight, not copied
  msi_rd    <= "10" when state = RD_HI and wr_grant = '1' else
               "01" when state = RD_LO else "00";
  wr_want   <= '1' when state = RD_HI or state = RD_LO or state = REQ else '0';
  wr_hi_ld  <= hi_ld;
  -- offered in the clock after the lower dword's read (cfg_word holds it)
  wr_valid  <= '1' when state = REQ else '0';
  -- an MSI is a DWORD write with the message data in the low 16 bits
  wr_data   <= x"0000" & msi_data(15 downto 2) & (msi_data(1 downto 0) or vec);
  irq_ready <= ready_q;
  irq_done  <= done_q;
  irq_err   <= err_q;
  irq_sent  <= sent_q;
end architecture;
