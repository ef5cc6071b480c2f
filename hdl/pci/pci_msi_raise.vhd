-- SPDX-License-Identifier: GPL-2.0-or-later
-- The card's own interrupt: turns "raise vector v" requests into the MSI
-- memory write the host programmed into the MSI capability (address
-- address, data message data with its low MME bits replaced by v), issued
-- through the initiator as a one-word DMA write. With MSI off the request
-- completes at once and the interrupt is the INTx level (int_pending of
-- pci_target, which card_irq drives): no write. docs/card-internals.md
-- section 5 is the contract.
--
-- The message address lives only in pci_target's configuration RAM (62
-- flip-flops fewer, docs/pci.md "Session 5"). The upper dword is read
-- (msi_rd "10") in the clock the request is taken and held in the RAM's
-- output register (cfg_word) until the initiator is ours (wr_grant: idle,
-- and pci_interface does not hand it to the DMA port while wr_want is
-- set); in that clock the initiator loads it alone (wr_hi_ld) and the lower
-- dword is read, and the request is offered in the next clock, when
-- cfg_word holds it. So the write is offered as early as when the address
-- was in flip-flops. The message data dword is read at the edge the
-- initiator takes the request (and the lower dword from cfg_word): the
-- initiator takes the one write word in the clock after (dma_wd_ready),
-- when cfg_word holds it, so the data needs no copy of its own (16
-- flip-flops nextpnr could not pack). The request is offered only when
-- that read happens. A read the target cannot do at an edge (an address
-- phase on the bus, or its own transaction) is asked again, and so is a
-- dword another read replaced (cfg_rd) before it was used.
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
    msi_rd       : out std_logic_vector(1 downto 0);   -- "01" low, "10" high dword, "11" data
    cfg_word     : in  std_logic_vector(15 downto 0);  -- the RAM's output (its low half)
    msi_rd_go    : in  std_logic;   -- the target reads it at this edge
    cfg_rd       : in  std_logic;   -- the target's RAM is read at this edge (any read)
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
  -- RD_HI: reading the upper dword; HELD: cfg_word holds it, waiting for
  -- the initiator; RD_LO: reading the lower dword (the upper one loaded);
  -- REQ: cfg_word holds the lower dword, offered with the data dword's read
  type state_t is (IDLE, RD_HI, HELD, RD_LO, REQ, WAIT_DONE);
  signal state : state_t := IDLE;
  signal start : std_logic;   -- a request is taken now, MSI on
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
              state <= RD_HI;
              if msi_rd_go = '1' then
                state <= HELD;
              end if;
            else
              done_q <= '1';
              sent_q <= '0';
              err_q  <= "00";
            end if;
          end if;
        when RD_HI =>
          if msi_rd_go = '1' then
            state <= HELD;
          end if;
        when HELD =>
          if wr_grant = '1' then
            -- the initiator takes the upper dword at this edge
            if msi_rd_go = '1' then
              state <= REQ;
            else
              state <= RD_LO;
            end if;
          elsif cfg_rd = '1' then
            state <= RD_HI;          -- replaced at this edge: read it again
          end if;
        when RD_LO =>
          if msi_rd_go = '1' then
            state <= REQ;
          end if;
        when REQ =>
          if wr_ready = '1' then
            state <= WAIT_DONE;
          elsif msi_rd_go = '0' and cfg_rd = '1' then
            state <= RD_LO;          -- not offered, the lower dword replaced
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

  -- the message address and data are configuration words: stable
  -- while the driver has MSI enabled (PCI 2.3 6.8.1: software must not
  -- change them while enabled), so they are used straight, not copied
  start     <= '1' when state = IDLE and irq_valid = '1' and ready_q = '0' and
                        msi_enable = '1' else '0';
  msi_rd    <= "10" when start = '1' or state = RD_HI else
               "01" when (state = HELD and wr_grant = '1') or state = RD_LO else
               "11" when state = REQ and wr_ready = '0' else "00";
  wr_want   <= '1' when start = '1' or state = RD_HI or state = HELD or
                        state = RD_LO or state = REQ else '0';
  wr_hi_ld  <= '1' when state = HELD and wr_grant = '1' else '0';
  -- offered from the clock after the lower dword's read (cfg_word holds
  -- it), at an edge where the data dword is read
  wr_valid  <= '1' when state = REQ and wr_ready = '0' and msi_rd_go = '1' else '0';
  -- an MSI is a DWORD write with the message data in the low 16 bits,
  -- taken in the clock after the request (wr_ready), when cfg_word holds it
  wr_data   <= x"0000" & cfg_word(15 downto 2) & (cfg_word(1 downto 0) or vec);
  irq_ready <= ready_q;
  irq_done  <= done_q;
  irq_err   <= err_q;
  irq_sent  <= sent_q;
end architecture;
