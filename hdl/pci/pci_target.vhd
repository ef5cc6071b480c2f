-- SPDX-License-Identifier: GPL-2.0-or-later
-- PCI 2.3 target (32 bit, 33/66 MHz): type-0 configuration space with an
-- MSI capability, and a 4 KiB non-prefetchable memory BAR0 that is passed
-- to the clock core's register port. docs/pci.md says why it is built so.
--
-- Bus signals are split into in/out/output-enable (tristates live in the
-- board top only). Every output comes straight from a flip-flop. Every
-- input goes straight into a flip-flop (PCI 2.3 Tsu 3 ns at 66 MHz), and
-- the target works from those copies a clock later; only PERR#'s and
-- SERR#'s next values take the live PAR (due a clock after it).
--
-- Transactions, in short:
--  * DEVSEL# timing slow: the address phase at edge E1 is in the input
--    flip-flops, latched (and the RAM read) at E1 + 1, the decision is
--    taken at E1 + 2, DEVSEL# is sampled asserted by the master at E1 + 3.
--  * TRDY#/STOP# are asserted only after an edge that saw IRDY# asserted,
--    so the data phase ends at the next edge (the master cannot change
--    IRDY#/FRAME# before it): the end is known a clock ahead.
--  * Every claimed transaction has exactly one data phase: TRDY# comes with
--    STOP# (disconnect with data), so bursts end after their first word.
--  * Configuration reads/writes complete at once.
--  * Memory writes are posted: accepted when the back end is free, then
--    completed to it; while it is busy a write is retried.
--  * Memory reads are delayed transactions: the first attempt is retried
--    and latched (offset + command), the back end reads, and the master's
--    repeated read with the same offset and command gets the data. An
--    unclaimed completion is discarded after 2**15 to 2**16 clocks (the
--    discard timer of PCI 2.3 3.3.3.3.3).
--  * Doorbells (BAR0 RSV_DOORBELLS window): writes are accepted in their
--    first data phase whatever the back end is doing and strobe db_valid
--    DB_LATENCY clocks after that data phase's edge (docs/card-internals.md
--    section 2); reads of the window complete at once with 0.
--  * Parity: PAR one clock after read data; address and write-data parity
--    checked; PERR#/SERR# per the command register, status bits set.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.synpcix_pci_ids_pkg.all;
use work.synpcix_regs_pkg.all;

entity pci_target is
  generic (
    REVISION_ID  : std_logic_vector(7 downto 0) := x"00";
    DISCARD_LOG2 : positive := 15;   -- delayed-read discard after 2**n..2**(n+1) clocks
    N_SLOTS      : positive := 4;    -- doorbells built (MSI capture slots)
    -- db_valid is high in the clock that starts DB_LATENCY edges after the
    -- edge at which the doorbell's data phase completed (1 = the next edge
    -- samples it); larger values add a delay line for a consumer that wants it
    DB_LATENCY   : positive := 1;
    -- false: the bus outputs are the pins' values (each from a flip-flop or
    -- the RAM's output register); true: those registers' next values, for
    -- registers outside (the board's I/O cells, or pci_interface's own).
    -- The same logic either way; docs/pci.md "Pins".
    NEXT_OUT     : boolean := false);
  port (
    clk, rst     : in  std_logic;   -- PCI CLK; rst synchronous, from RST#
    -- PCI bus
    ad_in        : in  std_logic_vector(31 downto 0);
    ad_out       : out std_logic_vector(31 downto 0);
    ad_oe        : out std_logic;
    cbe_n_in     : in  std_logic_vector(3 downto 0);  -- a target never drives C/BE#
    par_in       : in  std_logic;
    par_out      : out std_logic;
    par_oe       : out std_logic;
    frame_n_in   : in  std_logic;                      -- nor FRAME#, IRDY#, IDSEL
    irdy_n_in    : in  std_logic;
    idsel_in     : in  std_logic;
    trdy_n_in    : in  std_logic;   -- TRDY#/DEVSEL#/STOP#/PERR# pins as seen on
    trdy_n_out   : out std_logic;   -- the bus: unused by a target, kept so the
    trdy_n_oe    : out std_logic;   -- initiator shares one port set
    devsel_n_in  : in  std_logic;
    devsel_n_out : out std_logic;
    devsel_n_oe  : out std_logic;
    stop_n_in    : in  std_logic;
    stop_n_out   : out std_logic;
    stop_n_oe    : out std_logic;
    perr_n_in    : in  std_logic;
    perr_n_out   : out std_logic;
    perr_n_oe    : out std_logic;
    serr_n_out   : out std_logic;   -- open drain: out is always '0', oe asserts
    serr_n_oe    : out std_logic;
    -- PERR#'s and SERR#'s next values before the live PAR: a parity check
    -- is due (chk) and PAR must equal par_x. pci_interface makes the pins
    -- from these in one LUT each (with the initiator's PERR#).
    perr_chk     : out std_logic;
    serr_chk     : out std_logic;
    par_x        : out std_logic;
    -- register back end (clock_core's port): request held until reg_ready
    reg_valid    : out std_logic;
    reg_write    : out std_logic;
    reg_addr     : out std_logic_vector(11 downto 2);
    reg_wdata    : out std_logic_vector(31 downto 0);
    reg_ready    : in  std_logic;
    reg_rdata    : in  std_logic_vector(31 downto 0);
    -- configuration state for the rest of the card
    mem_enable   : out std_logic;
    master_enable : out std_logic;
    perr_resp    : out std_logic;   -- command.parity error response (initiator)
    int_pending  : in  std_logic;   -- card interrupt wants service (status bit 3)
    intx_assert  : out std_logic;   -- drive INTA# (pending, INTx enabled, MSI off)
    msi_enable   : out std_logic;
    msi_mme      : out std_logic_vector(2 downto 0);   -- log2 vectors granted
    -- a copy of the message data for a user that cannot read the RAM (the
    -- card's pci_msi_raise does, and leaves it open: its flip-flops go)
    msi_data     : out std_logic_vector(15 downto 0);
    -- The MSI message address is kept in the configuration RAM only (no
    -- flip-flops): msi_rd asks for a read of its low ("01") or high ("10")
    -- dword, or the message data ("11"), into cfg_word; msi_rd_go says the
    -- read happens at this edge
    -- (cfg_word holds the dword from the next clock until the next read).
    -- A read is done only while the target is idle and no address phase is
    -- on the bus, which has the RAM's read port first.
    msi_rd       : in  std_logic_vector(1 downto 0) := "00";
    msi_rd_go    : out std_logic;
    cfg_rd       : out std_logic;   -- the RAM is read at this edge (cfg_word changes)
    cfg_word     : out std_logic_vector(31 downto 0);
    -- status events from the initiator: one-clock pulses
    mst_data_perr  : in  std_logic;  -- status bit 8
    mst_rcv_tabort : in  std_logic;  -- status bit 12
    mst_rcv_mabort : in  std_logic;  -- status bit 13
    mst_det_perr   : in  std_logic := '0';  -- status bit 15: bad read data parity
    -- the card's own initiator runs this transaction: never claim it
    own_cycle      : in  std_logic := '0';
    -- latency timer (configuration 0x0D) for the initiator, in clocks
    lat_timer    : out std_logic_vector(7 downto 0);
    -- doorbell strobe (docs/card-internals.md section 2)
    db_valid     : out std_logic;
    db_slot      : out std_logic_vector(3 downto 0);
    db_data      : out std_logic_vector(31 downto 0);
    -- a BAR0 write with partial byte enables, or a doorbell-window write at
    -- an offset that is no built doorbell, was ignored (one-clock pulse; the
    -- register file counts it in id.bad_access)
    bad_write    : out std_logic);
end entity;

architecture rtl of pci_target is
  subtype word is std_logic_vector(31 downto 0);

  -- PCI 2.3 table 3-1 bus commands (C/BE# in the address phase)
  constant CMD_MEM_READ   : std_logic_vector(3 downto 0) := "0110";
  constant CMD_MEM_WRITE  : std_logic_vector(3 downto 0) := "0111";
  constant CMD_CFG_READ   : std_logic_vector(3 downto 0) := "1010";
  constant CMD_CFG_WRITE  : std_logic_vector(3 downto 0) := "1011";
  constant CMD_MEM_READ_M : std_logic_vector(3 downto 0) := "1100";
  constant CMD_MEM_READ_L : std_logic_vector(3 downto 0) := "1110";
  constant CMD_MEM_WRITE_INV : std_logic_vector(3 downto 0) := "1111";

  -- configuration dword numbers (PCI 2.3 6.1; MSI capability at 0x40, 6.8.1)
  constant CFG_ID       : natural := 16#00# / 4;
  constant CFG_CMDSTAT  : natural := 16#04# / 4;
  constant CFG_CLASSREV : natural := 16#08# / 4;
  constant CFG_HDR      : natural := 16#0C# / 4;
  constant CFG_BAR0     : natural := 16#10# / 4;
  constant CFG_SUBSYS   : natural := 16#2C# / 4;
  constant CFG_CAPPTR   : natural := 16#34# / 4;
  constant CFG_INTR     : natural := 16#3C# / 4;
  constant CFG_MSI_CTL  : natural := 16#40# / 4;
  constant CFG_MSI_ALO  : natural := 16#44# / 4;
  constant CFG_MSI_AHI  : natural := 16#48# / 4;
  constant CFG_MSI_DATA : natural := 16#4C# / 4;
  constant MSI_CAP_PTR  : std_logic_vector(7 downto 0) := x"40";
  constant MSI_MMC      : std_logic_vector(2 downto 0) := "010";  -- 4 vectors

  function xor_all (v : std_logic_vector) return std_logic is
    variable r : std_logic := '0';
  begin
    for i in v'range loop
      r := r xor v(i);
    end loop;
    return r;
  end function;

  function is_mem_read (c : std_logic_vector(3 downto 0)) return boolean is
  begin
    return c = CMD_MEM_READ or c = CMD_MEM_READ_M or c = CMD_MEM_READ_L;
  end function;

  -- HOLD: DEVSEL# only, until the master's IRDY# was seen; ACT: TRDY#
  -- and/or STOP# asserted, the data phase completes at the next edge;
  -- LAST: STOP# alone, the master's final phase after a burst's first
  type state_t is (IDLE, DECODE, HOLD, ACT, LAST, TURN);
  signal state : state_t := IDLE;
  -- what the claimed transaction is
  type kind_t is (K_CFG_RD, K_CFG_WR, K_MEM_RD, K_MEM_WR, K_DB_RD, K_DB_WR, K_RETRY);
  signal kind : kind_t := K_RETRY;

  -- the bus inputs as sampled at the previous edge: every input reaches a
  -- flip-flop straight from its pad (PCI 2.3 Tsu 3 ns at 66 MHz), and the
  -- target works from these copies one clock later (docs/pci.md "Inputs")
  signal frame_d   : std_logic := '1';   -- FRAME# at the previous edge
  signal frame_d2  : std_logic := '1';   -- ... and at the edge before
  signal irdy_d    : std_logic := '1';
  signal par_d     : std_logic := '0';
  signal idsel_d   : std_logic := '0';
  -- AD and C/BE# at the previous edge: no reset, no enable (data, looked at
  -- only beside the control bits above); ad_d is also the doorbell data
  -- (their initial 0 is the flip-flops' power-up value, free on the iCE40,
  -- and lets Yosys share ad_d with the initiator's AD copy: 34 cells)
  signal ad_d      : std_logic_vector(31 downto 0) := (others => '0');
  signal cbe_d     : std_logic_vector(3 downto 0) := (others => '0');
  -- address phase, latched at E1 + 1
  signal a_off     : std_logic_vector(11 downto 2) := (others => '0');
  signal a_cmd     : std_logic_vector(3 downto 0) := (others => '0');
  -- decoded at the latch, from the input flip-flops: a type-0 configuration
  -- command to our function 0 (IDSEL, AD[1:0] = 00, AD[10:8] = 000), and a
  -- memory command to BAR0 (of those claimed, the writes have C/BE#(0) = 1)
  signal a_cfg     : std_logic := '0';
  signal a_barhit  : std_logic := '0';

  -- parity of AD and C/BE# at the previous edge: checked against PAR for
  -- address phases (at E2) and write data phases (one clock after them)
  signal bus_par   : std_logic := '0';
  signal w_chk     : std_logic := '0';   -- a write's data phase was at the previous edge
  signal w_chk2    : std_logic := '0';   -- ... at the edge before (its parity from flip-flops)
  signal tpar_q    : std_logic := '0';   -- PAR of the AD we drove (NEXT_OUT false)
  signal w_post    : std_logic := '0';   -- a BAR0 write waits for its parity

  -- outputs
  signal ad_oe_q, par_oe_q : std_logic := '0';
  signal trdy_q, devsel_q, stop_q, perr_q : std_logic := '1';
  signal tgt_oe, perr_oe_q, serr_q : std_logic := '0';
  signal perr_hold : std_logic := '0';

  -- configuration registers (explicit resets: PCI RST# clears them)
  signal c_mem, c_master, c_perr, c_serr, c_intdis : std_logic := '0';
  signal s_mdpe, s_rta, s_rma, s_sse, s_dpe : std_logic := '0';
  signal bar0      : std_logic_vector(31 downto 12) := (others => '0');
  signal m_en      : std_logic := '0';
  signal m_mme     : std_logic_vector(2 downto 0) := (others => '0');
  signal m_data    : std_logic_vector(15 downto 0) := (others => '0');

  -- back end: one request at a time; the delayed read's slot
  signal be_valid  : std_logic := '0';
  signal be_write  : std_logic := '0';
  signal be_addr   : std_logic_vector(11 downto 2) := (others => '0');
  signal be_wdata  : word := (others => '0');
  type dr_t is (DR_EMPTY, DR_PENDING, DR_DONE);
  signal dr        : dr_t := DR_EMPTY;
  signal dr_off    : std_logic_vector(11 downto 2) := (others => '0');
  -- the read command's bits 3 and 1, which tell the three memory reads
  -- apart (the repeat is compared only when it is a memory read too)
  signal dr_cmd    : std_logic_vector(1 downto 0) := (others => '0');
  -- discard timer: a free-running counter (no clear, no enable: the
  -- cheapest counter) and the number of its wraps seen by the completion
  signal dr_tick   : unsigned(DISCARD_LOG2 - 1 downto 0) := (others => '0');
  signal dr_age    : unsigned(1 downto 0) := (others => '0');
  signal bad_q     : std_logic := '0';

  -- doorbell window, in word offsets of BAR0: powers of two (asserted
  -- below), so the decode is a few bit compares
  constant DB_BASE_W   : natural := RSV_DOORBELLS_BASE / 4;
  constant DB_SIZE_W   : natural := RSV_DOORBELLS_SIZE / 4;
  constant DB_STRIDE_W : natural := RSV_DOORBELLS_STRIDE / 4;
  function log2 (n : positive) return natural is
    variable r : natural := 0;
  begin
    while 2**r < n loop r := r + 1; end loop;
    return r;
  end function;
  constant DB_SIZE_L   : natural := log2(DB_SIZE_W);
  constant DB_STRIDE_L : natural := log2(DB_STRIDE_W);
  signal lat_q     : std_logic_vector(7 downto 0) := (others => '0');
  -- doorbell delay line: stage 0 is loaded at the data-phase edge (db_hit
  -- by the state machine; data every clock, with no enable, since it is
  -- only looked at beside a strobe); its slot is the latched offset's
  type db_data_t is array (0 to DB_LATENCY - 1) of std_logic_vector(31 downto 0);
  type db_slot_t is array (0 to DB_LATENCY - 1) of std_logic_vector(3 downto 0);
  signal db_hit    : std_logic := '0';
  signal db_v_q    : std_logic_vector(0 to DB_LATENCY - 1) := (others => '0');
  signal db_d_q    : db_data_t := (others => (others => '0'));
  signal db_s_q    : db_slot_t := (others => (others => '0'));
  signal a_db      : std_logic := '0';   -- the latched offset is in the window
  signal a_db_ok   : std_logic := '0';   -- ... and is a built slot's doorbell

  -- What the target drives on AD comes out of one block RAM (four byte
  -- lanes of 128 x 8) through its own output register, read at the address
  -- phase edge with the address taken straight from the bus (t_raddr):
  --   words 0..63  configuration space: the constant fields are the RAM's
  --                initial contents; the read/write fields without side
  --                effects (latency timer, BAR0, interrupt line, MSI
  --                address and data) are written into it as into their
  --                flip-flops, byte lane by byte lane;
  --   word 64      the delayed read's completion (written at reg_ready);
  --   word 65      zero (the answer to doorbell-window reads).
  -- The live bits (command, status, MSI enable and MME) are ORed in from
  -- live_q, loaded every clock. So there is no AD register and no read
  -- multiplexer over the configuration registers: the RAM's output
  -- register is the target's AD register. Written at the falling edge from
  -- flip-flops loaded at the rising edge (cw_a, cw_l, and be_wdata, the
  -- posted write's data register, which carries the configuration write's
  -- data or the completion when the back end is not busy with a write):
  -- with read and write on one edge Yosys 0.23 adds a read-during-write
  -- bypass (docs/pci.md).
  constant W_CPL   : natural := 64;
  constant W_ZERO  : natural := 65;
  -- descending: GHDL 2.0 writes the initial contents of an ascending
  -- memory to Verilog in reverse index order (found by make test-pcibus)
  type lane_mem_t is array (127 downto 0) of std_logic_vector(7 downto 0);
  type cfg_words_t is array (0 to 63) of word;
  function cfg_init return cfg_words_t is
    variable m : cfg_words_t := (others => (others => '0'));
  begin
    m(CFG_ID)       := PCI_DEVICE_ID & PCI_VENDOR_ID;
    -- status: DEVSEL slow (10:9 = 10; the inputs are registered, docs/pci.md),
    -- 66 MHz capable (5), capability list (4)
    m(CFG_CMDSTAT)  := x"04300000";
    m(CFG_CLASSREV) := PCI_CLASS & REVISION_ID;
    m(CFG_SUBSYS)   := PCI_SUBDEVICE_ID & PCI_SUBVENDOR_ID;
    m(CFG_CAPPTR)   := x"000000" & MSI_CAP_PTR;
    m(CFG_INTR)     := x"0000" & x"01" & x"00";   -- interrupt pin INTA#
    -- MSI: 64-bit capable (7), MMC (3:1), next capability 0, ID 05h
    m(CFG_MSI_CTL)  := x"00" & "1" & "000" & MSI_MMC & "0" & x"00" & x"05";
    return m;
  end function;
  constant CFG_INIT_W : cfg_words_t := cfg_init;
  function lane_init (k : natural) return lane_mem_t is
    constant c : cfg_words_t := CFG_INIT_W;
    variable m : lane_mem_t := (others => (others => '0'));
  begin
    for i in 0 to 63 loop
      m(i) := c(i)(8 * k + 7 downto 8 * k);
    end loop;
    return m;
  end function;
  -- byte lanes of a configuration dword that are written into the RAM
  function cfg_lanes (dw : std_logic_vector(5 downto 0)) return std_logic_vector is
  begin
    case to_integer(unsigned(dw)) is
      when CFG_HDR      => return "0010";   -- latency timer
      when CFG_BAR0     => return "1110";   -- 31:12 (11:8 written as 0)
      when CFG_INTR     => return "0001";   -- interrupt line
      when CFG_MSI_ALO  => return "1111";   -- 31:2 (1:0 written as 0)
      when CFG_MSI_AHI  => return "1111";
      when CFG_MSI_DATA => return "0011";
      when others       => return "0000";
    end case;
  end function;
  signal t_raddr   : std_logic_vector(6 downto 0);
  signal t_re      : std_logic;
  signal t_rd      : std_logic;      -- the RAM's read enable
  signal m_go      : std_logic;      -- an MSI address dword is read at this edge
  signal cfg_q     : word;           -- the RAM output register: no reset
  signal live_q    : word := (others => '0');
  -- the bits cfg_live can set (command/status and MSI control; the two
  -- dwords' live bits do not overlap): live_q keeps only these, so the
  -- other 17 are constant 0 for Yosys (held, they were 17 flip-flops
  -- nextpnr could not pack, and 17 selects in front of AD and PAR)
  constant LIVE_CMDSTAT : word := x"F1080546";
  constant LIVE_MSI_CTL : word := x"00710000";
  constant LIVE_MASK : word := LIVE_CMDSTAT or LIVE_MSI_CTL;
  signal live_par  : std_logic := '0';   -- parity of live_q
  signal cfg_live  : word;
  signal cw_a      : std_logic_vector(6 downto 0) := (others => '0');
  signal cw_l      : std_logic_vector(3 downto 0) := (others => '0');
  signal a_cpl     : std_logic := '0';   -- the completion was in the RAM at the address phase

  -- next values of the registers below (the combinational process computes
  -- them, the register process loads them)
  signal frame_d_nx : std_logic;
  signal tpar_nx : std_logic;
  signal bus_par_nx : std_logic;
  signal par_oe_q_nx : std_logic;
  signal bad_q_nx : std_logic;
  signal serr_q_nx : std_logic;
  signal serr_chk_nx : std_logic;
  signal db_hit_nx : std_logic;
  signal cw_l_nx : std_logic_vector(3 downto 0);
  signal w_chk_nx : std_logic;
  signal perr_hold_nx : std_logic;
  signal s_dpe_nx : std_logic;
  signal perr_q_nx : std_logic;
  signal be_valid_nx : std_logic;
  signal w_post_nx : std_logic;
  signal perr_oe_q_nx : std_logic;
  signal cw_a_nx : std_logic_vector(6 downto 0);
  signal be_wdata_nx : word;
  signal dr_nx : dr_t;
  signal dr_age_nx : unsigned(1 downto 0);
  signal dr_tick_nx : unsigned(DISCARD_LOG2 - 1 downto 0);
  signal tgt_oe_nx : std_logic;
  signal a_off_nx : std_logic_vector(11 downto 2);
  signal a_cmd_nx : std_logic_vector(3 downto 0);
  signal a_cfg_nx : std_logic;
  signal a_cpl_nx : std_logic;
  signal a_barhit_nx : std_logic;
  signal state_nx : state_t;
  signal s_sse_nx : std_logic;
  signal devsel_q_nx : std_logic;
  signal stop_q_nx : std_logic;
  signal trdy_q_nx : std_logic;
  signal kind_nx : kind_t;
  signal live_q_nx : word;
  signal ad_oe_q_nx : std_logic;
  signal dr_off_nx : std_logic_vector(11 downto 2);
  signal dr_cmd_nx : std_logic_vector(1 downto 0);
  signal be_write_nx : std_logic;
  signal be_addr_nx : std_logic_vector(11 downto 2);
  signal c_mem_nx : std_logic;
  signal c_serr_nx : std_logic;
  signal s_mdpe_nx : std_logic;
  signal s_rta_nx : std_logic;
  signal s_rma_nx : std_logic;
  signal bar0_nx : std_logic_vector(31 downto 12);
  signal lat_q_nx : std_logic_vector(7 downto 0);
  signal m_en_nx : std_logic;
  signal m_mme_nx : std_logic_vector(2 downto 0);
  signal m_data_nx : std_logic_vector(15 downto 0);
  signal c_master_nx : std_logic;
  signal c_perr_nx : std_logic;
  signal c_intdis_nx : std_logic;
begin
  -- the live bits of the latched configuration dword (its constant bits
  -- are in the RAM); 0 for a memory command, whose word is all the RAM's
  process (all)
  begin
    cfg_live <= (others => '0');
    if a_cfg = '1' then
      case to_integer(unsigned(a_off(7 downto 2))) is
        when CFG_CMDSTAT =>
          cfg_live <= s_dpe & s_sse & s_rma & s_rta & "000" & s_mdpe & "0000" &
                      int_pending & "000" & "00000" & c_intdis & "0" & c_serr & "0" &
                      c_perr & "000" & c_master & c_mem & "0";
        when CFG_MSI_CTL =>
          cfg_live <= x"00" & "0" & m_mme & "000" & m_en & x"0000";
        when others => null;
      end case;
    end if;
  end process;

  -- read address from the address phase as sampled at the previous edge
  -- (so the RAM is read at E1 + 1): a memory command (C/BE#(2) = 1;
  -- configuration commands have 0) reads the completion, or zero in the
  -- doorbell window; a configuration command its dword
  t_re <= '1' when frame_d = '0' and frame_d2 = '1' else '0';
  -- an MSI address dword (pci_msi_raise) only when no address phase needs
  -- the read port and the output register carries no claimed transaction
  m_go <= '1' when msi_rd /= "00" and t_re = '0' and (state = IDLE or state = TURN) else '0';
  t_rd <= t_re or m_go;
  process (all)
  begin
    if t_re = '0' then
      -- dword 0x44 (low), 0x48 (high) or 0x4C (data)
      t_raddr <= std_logic_vector(to_unsigned(CFG_MSI_CTL, 7) + unsigned(msi_rd));
    elsif cbe_d(2) = '1' then
      t_raddr <= std_logic_vector(to_unsigned(W_CPL, 7));
      if unsigned(ad_d(11 downto 2 + DB_SIZE_L)) = DB_BASE_W / DB_SIZE_W then
        t_raddr <= std_logic_vector(to_unsigned(W_ZERO, 7));
      end if;
    else
      t_raddr <= '0' & ad_d(7 downto 2);
    end if;
  end process;

  -- the RAM, one byte lane per memory, each alone in its processes (GHDL
  -- synthesis needs it so)
  lanes : for k in 0 to 3 generate
    signal mem : lane_mem_t := lane_init(k);
  begin
    process (clk)
    begin
      if rising_edge(clk) then
        if t_rd = '1' then
          cfg_q(8 * k + 7 downto 8 * k) <= mem(to_integer(unsigned(t_raddr)));
        end if;
      end if;
    end process;
    process (clk)
    begin
      if falling_edge(clk) then
        if cw_l(k) = '1' then
          mem(to_integer(unsigned(cw_a))) <= be_wdata(8 * k + 7 downto 8 * k);
        end if;
      end if;
    end process;
  end generate;

  assert ((CFG_INIT_W(CFG_CMDSTAT) and LIVE_CMDSTAT) or
          (CFG_INIT_W(CFG_MSI_CTL) and LIVE_MSI_CTL)) = x"00000000"
    report "a live bit is 1 in the RAM's word: tpar_nx's XOR is no OR" severity failure;
  assert PCI_REG_BAR = 0
    report "pci_target implements the register window as BAR0 only" severity failure;
  assert 2**DB_SIZE_L = DB_SIZE_W and 2**DB_STRIDE_L = DB_STRIDE_W and
         DB_BASE_W mod DB_SIZE_W = 0 and DB_BASE_W + DB_SIZE_W <= 1024
    report "doorbell window must be a power-of-two block aligned to its size in BAR0"
    severity failure;
  assert N_SLOTS <= 16 and N_SLOTS * DB_STRIDE_W <= DB_SIZE_W
    report "N_SLOTS doorbells do not fit the window or db_slot" severity failure;

  -- doorbell decode from the latched offset (a clock before it is needed)
  a_db <= '1' when unsigned(a_off(11 downto 2 + DB_SIZE_L)) = DB_BASE_W / DB_SIZE_W else '0';
  a_db_ok <= '1' when a_db = '1' and unsigned(a_off(1 + DB_STRIDE_L downto 2)) = 0 and
                      unsigned(a_off(1 + DB_SIZE_L downto 2 + DB_STRIDE_L)) < N_SLOTS
             else '0';

  -- The protocol engine: next values of every register, from the registers
  -- and the bus (a combinational process and a register process, so the
  -- next values of the bus outputs can go to registers in the I/O cells).
  process (all)
    variable claim, hit_mem, hit_cfg, deliver : boolean;
    variable addr_err, fire : boolean;
    variable k : kind_t;
    variable be : std_logic_vector(3 downto 0);
    variable d  : word;
    variable clr : std_logic_vector(5 downto 0);
  begin
    frame_d_nx <= frame_d;
    bus_par_nx <= bus_par;
    par_oe_q_nx <= par_oe_q;
    bad_q_nx <= bad_q;
    serr_q_nx <= serr_q;
    db_hit_nx <= db_hit;
    cw_l_nx <= cw_l;
    w_chk_nx <= w_chk;
    perr_hold_nx <= perr_hold;
    s_dpe_nx <= s_dpe;
    perr_q_nx <= perr_q;
    be_valid_nx <= be_valid;
    w_post_nx <= w_post;
    perr_oe_q_nx <= perr_oe_q;
    cw_a_nx <= cw_a;
    be_wdata_nx <= be_wdata;
    dr_nx <= dr;
    dr_age_nx <= dr_age;
    dr_tick_nx <= dr_tick;
    tgt_oe_nx <= tgt_oe;
    a_off_nx <= a_off;
    a_cmd_nx <= a_cmd;
    a_cfg_nx <= a_cfg;
    a_cpl_nx <= a_cpl;
    a_barhit_nx <= a_barhit;
    state_nx <= state;
    s_sse_nx <= s_sse;
    devsel_q_nx <= devsel_q;
    stop_q_nx <= stop_q;
    trdy_q_nx <= trdy_q;
    kind_nx <= kind;
    -- the live bits every clock: AD is driven only in a claimed read's
    -- data phase, with the bits of the clock before it, and cfg_live is 0
    -- for all but configuration commands (no reset, no enable)
    live_q_nx <= cfg_live;
    ad_oe_q_nx <= ad_oe_q;
    dr_off_nx <= dr_off;
    dr_cmd_nx <= dr_cmd;
    be_write_nx <= be_write;
    be_addr_nx <= be_addr;
    c_mem_nx <= c_mem;
    c_serr_nx <= c_serr;
    s_mdpe_nx <= s_mdpe;
    s_rta_nx <= s_rta;
    s_rma_nx <= s_rma;
    bar0_nx <= bar0;
    lat_q_nx <= lat_q;
    m_en_nx <= m_en;
    m_mme_nx <= m_mme;
    m_data_nx <= m_data;
    c_master_nx <= c_master;
    c_perr_nx <= c_perr;
    c_intdis_nx <= c_intdis;
    frame_d_nx <= frame_n_in;
    -- parity of AD and C/BE# at the previous edge, from the flip-flops
    bus_par_nx <= xor_all(ad_d) xor xor_all(cbe_d);
    -- PAR for the AD we drive now: our word and the master's byte enables,
    -- which hold still from the edge IRDY# was seen to the end of the
    -- phase (AD is driven only in the clock TRDY# is, see ACT)
    -- (the live bits are never 1 where the RAM word is: OR is XOR, and
    -- their parity comes from a flip-flop loaded beside live_q)
    tpar_nx <= xor_all(cfg_q) xor live_par xor xor_all(cbe_d);
    par_oe_q_nx <= ad_oe_q;
    bad_q_nx    <= '0';
    serr_q_nx   <= '0';
    serr_chk_nx <= '0';
    db_hit_nx   <= '0';
    cw_l_nx     <= "0000";

    -- write-data parity, one clock after the data. PERR# is due in the
    -- clock after PAR (PCI 2.3 3.7.4.1), so its next value is the one
    -- place where a live input (PAR) meets logic: one LUT of PAR, the
    -- parity of the registered data and two enables. The status bit and the
    -- posted write's release wait a clock for PAR's flip-flop.
    w_chk_nx <= '0';
    if w_chk = '1' then
      perr_q_nx <= not (c_perr and (bus_par_nx xor par_in));
      perr_oe_q_nx <= c_perr;
      perr_hold_nx <= '1';
    elsif perr_hold = '1' then
      -- PERR# is s/t/s: high for one clock, then released
      perr_q_nx <= '1';
      perr_hold_nx <= '0';
    else
      perr_oe_q_nx <= '0';
      perr_q_nx <= '1';
    end if;
    if w_chk2 = '1' then
      if (bus_par xor par_d) = '1' then
        s_dpe_nx <= '1';
      elsif w_post = '1' then
        -- a posted write reaches the back end only with good parity: a
        -- register is never written with data the bus reported bad
        be_valid_nx <= '1';
      end if;
      w_post_nx <= '0';
    end if;

    -- be_wdata takes the back end's read data for as long as a read is
    -- outstanding (nothing else uses it then: configuration and memory
    -- writes are retried, doorbells do not touch it), so the load needs no
    -- reg_ready; it holds the completion when the RAM write below happens
    if be_valid = '1' and be_write = '0' then
      be_wdata_nx <= reg_rdata;
    end if;
    -- back end handshake and the delayed-read slot
    if be_valid = '1' and reg_ready = '1' then
      be_valid_nx <= '0';
      if be_write = '0' then
        -- the completion waits in RAM word W_CPL, written from be_wdata
        -- (configuration writes are retried while the back end is busy,
        -- so this is the only RAM write of the clock)
        cw_a_nx <= std_logic_vector(to_unsigned(W_CPL, 7));
        cw_l_nx <= "1111";
        dr_nx <= DR_DONE;
        dr_age_nx <= (others => '0');
      end if;
    end if;
    dr_tick_nx <= dr_tick + 1;
    if dr = DR_DONE and dr_tick = (dr_tick'range => '1') then
      -- the second wrap after the completion: between 2**n and 2**(n+1)
      -- clocks passed, nobody came back for it: discard
      dr_age_nx <= dr_age + 1;
      if dr_age = 1 then
        dr_nx <= DR_EMPTY;
      end if;
    end if;

    fire := false;
    k := kind;
    case state is
      when IDLE | TURN =>
        tgt_oe_nx <= '0';
        state_nx <= IDLE;
        if t_re = '1' and own_cycle = '0' then
          -- an address phase at the previous edge
          a_off_nx    <= ad_d(11 downto 2);
          a_cmd_nx    <= cbe_d;
          if idsel_d = '1' and ad_d(1 downto 0) = "00" and ad_d(10 downto 8) = "000" and
             (cbe_d = CMD_CFG_READ or cbe_d = CMD_CFG_WRITE) then
            a_cfg_nx <= '1';
          else
            a_cfg_nx <= '0';
          end if;
          -- the RAM read at this edge sees a completion written before it
          a_cpl_nx    <= '1' when dr = DR_DONE else '0';
          if ad_d(31 downto 12) = bar0 and (is_mem_read(cbe_d) or
             cbe_d = CMD_MEM_WRITE or cbe_d = CMD_MEM_WRITE_INV) then
            a_barhit_nx <= '1';
          else
            a_barhit_nx <= '0';
          end if;
          -- address parity: SERR# is due two clocks after the address
          -- phase, so, as PERR#, it is one LUT of the live PAR
          if c_serr = '1' and c_perr = '1' then
            serr_q_nx <= bus_par_nx xor par_in;
            serr_chk_nx <= '1';
          end if;
          state_nx    <= DECODE;
        end if;

      when DECODE =>
        -- every agent checks address parity; a bad address is not claimed
        addr_err := (bus_par xor par_d) = '1';
        if addr_err then
          s_dpe_nx <= '1';
          if c_serr = '1' and c_perr = '1' then
            s_sse_nx  <= '1';
          end if;
        end if;
        hit_cfg := a_cfg = '1';
        hit_mem := c_mem = '1' and a_barhit = '1';
        claim := (hit_cfg or hit_mem) and not addr_err;
        deliver := dr = DR_DONE and a_cpl = '1' and dr_off = a_off and
                   dr_cmd = a_cmd(3) & a_cmd(1);
        state_nx <= IDLE;
        if claim then
          -- DEVSEL# now (slow: sampled at E1 + 3); TRDY#/STOP# at once if
          -- IRDY# was already seen, else from HOLD
          state_nx    <= HOLD;
          tgt_oe_nx   <= '1';
          devsel_q_nx <= '0';
          fire        := irdy_d = '0';
          k           := K_RETRY;
          if hit_cfg then
            if a_cmd(0) = '1' then   -- configuration write
              -- (retried while the back end is busy: be_wdata, the RAM's
              -- write data, holds the posted write's data or will take
              -- the read's completion)
              if be_valid = '0' and w_post = '0' then
                k := K_CFG_WR;
              end if;
            else
              k := K_CFG_RD;   -- cfg_q and live_q hold its dword
            end if;
          elsif a_db = '1' then
            -- doorbell window: never retried, never waits for the back end
            -- (the data phase is the instant the device's MSI happened);
            -- a read gets the RAM's zero word (in cfg_q)
            if a_cmd(0) = '1' then   -- a memory write
              k := K_DB_WR;
            else
              k := K_DB_RD;
            end if;
          elsif a_cmd(0) = '0' then   -- a memory read
            if deliver then
              k := K_MEM_RD;   -- cfg_q holds the completion
            elsif dr = DR_EMPTY and be_valid = '0' then
              -- first attempt: latch it, start the back end, retry
              dr_nx       <= DR_PENDING;
              dr_off_nx   <= a_off;
              dr_cmd_nx   <= a_cmd(3) & a_cmd(1);
              be_valid_nx <= '1';
              be_write_nx <= '0';
              be_addr_nx  <= a_off;
            end if;
          elsif be_valid = '0' then
            k := K_MEM_WR;   -- posted: the back end is free
          end if;
          kind_nx <= k;
        end if;

      when HOLD =>
        -- TRDY#/STOP# high in this clock and the last: no data phase
        -- completed at the previous edge, so an IRDY# seen there holds,
        -- with FRAME#, until the phase completes
        fire := irdy_d = '0';
        if frame_d = '1' and irdy_d = '1' then
          -- the master went away: drive high for one clock, then release
          devsel_q_nx <= '1';
          state_nx    <= TURN;
        end if;

      when ACT =>
        -- IRDY# is asserted and stays so until the next edge, which ends
        -- the data phase; FRAME# there is as sampled at the previous edge
        trdy_q_nx  <= '1';        -- one data phase only (STOP# is asserted)
        ad_oe_q_nx <= '0';
        if trdy_q = '0' then
          case kind is
            when K_CFG_WR | K_MEM_WR =>
              w_chk_nx <= '1';     -- the data is taken from ad_d next clock
            when K_DB_WR =>
              -- any byte enables strobe (an MSI is a DWORD write; its time
              -- of arrival is what counts); data parity is checked as for
              -- other writes (PERR#) but cannot hold the strobe back
              w_chk_nx <= '1';
              if a_db_ok = '1' then
                db_hit_nx <= '1';
              else
                bad_q_nx <= '1';
              end if;
            when K_MEM_RD =>
              dr_nx <= DR_EMPTY;   -- the delayed read is complete
            when others => null;
          end case;
        end if;
        if frame_d = '1' then
          -- the last data phase: drive the target signals high for one
          -- clock, then release them (TURN)
          stop_q_nx   <= '1';
          devsel_q_nx <= '1';
          state_nx    <= TURN;
        else
          -- a burst: the master saw STOP# with IRDY# asserted, so it
          -- deasserts FRAME# and keeps IRDY# in the next clock (PCI 2.3
          -- 3.3.3.2.1, pci_checker's rule), and that phase ends at the
          -- next edge without data
          state_nx <= LAST;
        end if;

      when LAST =>
        stop_q_nx   <= '1';
        devsel_q_nx <= '1';
        state_nx    <= TURN;
    end case;

    -- assert TRDY# and/or STOP# for a data phase whose IRDY# was seen: it
    -- completes at the edge after next. AD is driven in that clock only,
    -- where the master's byte enables (for PAR) hold still.
    if fire then
      state_nx  <= ACT;
      stop_q_nx <= '0';        -- one data phase, or a retry
      case k is
        when K_CFG_WR | K_MEM_WR | K_DB_WR =>
          trdy_q_nx <= '0';
        when K_CFG_RD | K_DB_RD | K_MEM_RD =>
          trdy_q_nx  <= '0';
          ad_oe_q_nx <= '1';
        when others => null;
      end case;
    end if;

    -- the data of a write's data phase at the previous edge
    if w_chk = '1' then
      be := cbe_d;
      d  := ad_d;
      -- every write but a doorbell's (which may come while the back end
      -- holds a posted write's data here) loads its data, used or not: one
      -- select for the configuration and the memory write
      if kind /= K_DB_WR then
        be_wdata_nx <= d;
      end if;
      if kind = K_CFG_WR then
        -- into the RAM: the lanes enabled of those it keeps; the bits
        -- of BAR0 and the MSI address that read as 0 are written as 0
        cw_a_nx <= '0' & a_off(7 downto 2);
        cw_l_nx <= not be and cfg_lanes(a_off(7 downto 2));
        if to_integer(unsigned(a_off(7 downto 2))) = CFG_MSI_ALO then
          be_wdata_nx(1 downto 0) <= "00";
        end if;
        if to_integer(unsigned(a_off(7 downto 2))) = CFG_BAR0 then
          be_wdata_nx(11 downto 8) <= "0000";
        end if;
      end if;
      case kind is
        when K_MEM_WR =>
          if be = "0000" then
            w_post_nx   <= '1';
            be_write_nx <= '1';
            be_addr_nx  <= a_off;
          elsif be /= "1111" then
            bad_q_nx <= '1';   -- partial word: ignored, reported
          end if;
        when K_CFG_WR =>
          case to_integer(unsigned(a_off(7 downto 2))) is
            when CFG_CMDSTAT =>
              if be(0) = '0' then
                c_mem_nx <= d(1); c_master_nx <= d(2); c_perr_nx <= d(6);
              end if;
              if be(1) = '0' then
                c_serr_nx <= d(8); c_intdis_nx <= d(10);
              end if;
              if be(3) = '0' then   -- status: write one to clear
                if d(24) = '1' then s_mdpe_nx <= '0'; end if;
                if d(28) = '1' then s_rta_nx <= '0'; end if;
                if d(29) = '1' then s_rma_nx <= '0'; end if;
                if d(30) = '1' then s_sse_nx <= '0'; end if;
                if d(31) = '1' then s_dpe_nx <= '0'; end if;
              end if;
            when CFG_BAR0 =>
              -- 4 KiB: bits 11..0 read 0, so all-ones reads 0xFFFFF000
              if be(1) = '0' then bar0_nx(15 downto 12) <= d(15 downto 12); end if;
              if be(2) = '0' then bar0_nx(23 downto 16) <= d(23 downto 16); end if;
              if be(3) = '0' then bar0_nx(31 downto 24) <= d(31 downto 24); end if;
            -- CFG_INTR: the interrupt line is kept in the RAM only
            when CFG_HDR =>
              if be(1) = '0' then lat_q_nx <= d(15 downto 8); end if;
            when CFG_MSI_CTL =>
              if be(2) = '0' then
                m_en_nx <= d(16);
                -- more vectors than offered are not granted
                if unsigned(d(22 downto 20)) > unsigned(MSI_MMC) then
                  m_mme_nx <= MSI_MMC;
                else
                  m_mme_nx <= d(22 downto 20);
                end if;
              end if;
            -- CFG_MSI_ALO, CFG_MSI_AHI: in the RAM only (msi_rd)
            when CFG_MSI_DATA =>
              if be(0) = '0' then m_data_nx(7 downto 0) <= d(7 downto 0); end if;
              if be(1) = '0' then m_data_nx(15 downto 8) <= d(15 downto 8); end if;
            when others => null;
          end case;
        when others => null;
      end case;
    end if;

    -- initiator status events
    if mst_data_perr = '1' then s_mdpe_nx <= '1'; end if;
    if mst_rcv_tabort = '1' then s_rta_nx <= '1'; end if;
    if mst_rcv_mabort = '1' then s_rma_nx <= '1'; end if;
    if mst_det_perr = '1' then s_dpe_nx <= '1'; end if;

    if rst = '1' then
      state_nx <= IDLE; kind_nx <= K_RETRY; frame_d_nx <= '1'; tpar_nx <= '0';
      ad_oe_q_nx <= '0'; par_oe_q_nx <= '0'; tgt_oe_nx <= '0'; perr_oe_q_nx <= '0';
      trdy_q_nx <= '1'; devsel_q_nx <= '1'; stop_q_nx <= '1'; perr_q_nx <= '1';
      serr_q_nx <= '0'; serr_chk_nx <= '0'; perr_hold_nx <= '0'; db_hit_nx <= '0'; lat_q_nx <= (others => '0'); w_chk_nx <= '0'; w_post_nx <= '0'; bad_q_nx <= '0';
      c_mem_nx <= '0'; c_master_nx <= '0'; c_perr_nx <= '0'; c_serr_nx <= '0'; c_intdis_nx <= '0';
      s_mdpe_nx <= '0'; s_rta_nx <= '0'; s_rma_nx <= '0'; s_sse_nx <= '0'; s_dpe_nx <= '0';
      bar0_nx <= (others => '0');
      -- the RAM-held fields cleared, a dword a clock from dr_tick's low
      -- bits (8 clocks; PCI RST# lasts at least 1 ms): be_wdata is 0
      case to_integer(dr_tick(2 downto 0)) is
        when 0 => clr := std_logic_vector(to_unsigned(CFG_HDR, 6));
        when 1 => clr := std_logic_vector(to_unsigned(CFG_BAR0, 6));
        when 2 => clr := std_logic_vector(to_unsigned(CFG_INTR, 6));
        when 3 => clr := std_logic_vector(to_unsigned(CFG_MSI_ALO, 6));
        when 4 => clr := std_logic_vector(to_unsigned(CFG_MSI_AHI, 6));
        when others => clr := std_logic_vector(to_unsigned(CFG_MSI_DATA, 6));
      end case;
      cw_a_nx <= '0' & clr;
      cw_l_nx <= cfg_lanes(clr);   -- its constant lanes stay (interrupt pin)
      be_wdata_nx <= (others => '0');
      a_cpl_nx <= '0';
      m_en_nx <= '0'; m_mme_nx <= "000"; m_data_nx <= (others => '0');
      be_valid_nx <= '0'; be_write_nx <= '0'; dr_nx <= DR_EMPTY;
      dr_age_nx <= (others => '0');
      -- dr_tick has no reset: it runs free (a discard needs two of its
      -- wraps after the completion, whatever its phase), and in reset it
      -- walks the RAM-held dwords to clear them
    end if;
  end process;
  process (clk)
  begin
    if rising_edge(clk) then
      frame_d <= frame_d_nx;
      bus_par <= bus_par_nx;
      tpar_q <= tpar_nx;
      w_chk2 <= w_chk;
      -- the other inputs' copies: at most a reset gate (one LUT) in front
      frame_d2 <= frame_d;
      irdy_d <= irdy_n_in;
      par_d <= par_in;
      idsel_d <= idsel_in;
      if rst = '1' then
        w_chk2 <= '0';
        frame_d2 <= '1';
        irdy_d <= '1';
        par_d <= '0';
        idsel_d <= '0';
      end if;
      par_oe_q <= par_oe_q_nx;
      bad_q <= bad_q_nx;
      serr_q <= serr_q_nx;
      db_hit <= db_hit_nx;
      cw_l <= cw_l_nx;
      w_chk <= w_chk_nx;
      perr_hold <= perr_hold_nx;
      s_dpe <= s_dpe_nx;
      perr_q <= perr_q_nx;
      be_valid <= be_valid_nx;
      w_post <= w_post_nx;
      perr_oe_q <= perr_oe_q_nx;
      cw_a <= cw_a_nx;
      be_wdata <= be_wdata_nx;
      dr <= dr_nx;
      dr_age <= dr_age_nx;
      dr_tick <= dr_tick_nx;
      tgt_oe <= tgt_oe_nx;
      a_off <= a_off_nx;
      a_cmd <= a_cmd_nx;
      a_cfg <= a_cfg_nx;
      a_cpl <= a_cpl_nx;
      a_barhit <= a_barhit_nx;
      state <= state_nx;
      s_sse <= s_sse_nx;
      devsel_q <= devsel_q_nx;
      stop_q <= stop_q_nx;
      trdy_q <= trdy_q_nx;
      kind <= kind_nx;
      live_q <= live_q_nx and LIVE_MASK;
      live_par <= xor_all(live_q_nx and LIVE_MASK);
      ad_oe_q <= ad_oe_q_nx;
      dr_off <= dr_off_nx;
      dr_cmd <= dr_cmd_nx;
      be_write <= be_write_nx;
      be_addr <= be_addr_nx;
      c_mem <= c_mem_nx;
      c_serr <= c_serr_nx;
      s_mdpe <= s_mdpe_nx;
      s_rta <= s_rta_nx;
      s_rma <= s_rma_nx;
      bar0 <= bar0_nx;
      lat_q <= lat_q_nx;
      m_en <= m_en_nx;
      m_mme <= m_mme_nx;
      m_data <= m_data_nx;
      c_master <= c_master_nx;
      c_perr <= c_perr_nx;
      c_intdis <= c_intdis_nx;
    end if;
  end process;

  -- doorbell delay line (its own process: no control logic beside it)
  db_v_q(0) <= db_hit;
  process (clk)
  begin
    if rising_edge(clk) then
      ad_d <= ad_in;
      cbe_d <= cbe_n_in;
    end if;
  end process;
  db_d_q(0) <= ad_d;
  -- a_off holds the doorbell's offset through the strobe's clock (it is
  -- loaded only at the next address phase, in IDLE/TURN, which is at
  -- least a clock after the data phase's edge): no copy of it
  db_s_q(0) <= std_logic_vector(resize(unsigned(a_off(1 + DB_SIZE_L downto 2 + DB_STRIDE_L)), 4));
  db_delay : if DB_LATENCY > 1 generate
    process (clk)
    begin
      if rising_edge(clk) then
        -- static slices: this process drives stages 1.. only
        db_v_q(1 to DB_LATENCY - 1) <= db_v_q(0 to DB_LATENCY - 2);
        db_d_q(1 to DB_LATENCY - 1) <= db_d_q(0 to DB_LATENCY - 2);
        db_s_q(1 to DB_LATENCY - 1) <= db_s_q(0 to DB_LATENCY - 2);
        if rst = '1' then
          db_v_q(1 to DB_LATENCY - 1) <= (others => '0');
        end if;
      end if;
    end process;
  end generate;
  db_valid     <= db_v_q(DB_LATENCY - 1);
  db_slot      <= db_s_q(DB_LATENCY - 1);
  db_data      <= db_d_q(DB_LATENCY - 1);
  lat_timer    <= lat_q;
  -- PAR covers AD and C/BE# of the previous clock: our word (cfg_q or
  -- live_q, driven in the one clock TRDY# is) and the master's byte
  -- enables, which hold still from the edge its IRDY# was seen until the
  -- data phase ends, so cbe_d has them (tpar_nx). Taken from the pads, as
  -- before session 7, the XOR tree sat between AD and a flip-flop.
  perr_chk <= w_chk and c_perr and not rst;
  serr_chk <= serr_chk_nx;
  par_x    <= bus_par_nx;

  pins_now : if not NEXT_OUT generate
    ad_out       <= cfg_q or live_q;
    ad_oe        <= ad_oe_q;
    par_out      <= tpar_q;
    par_oe       <= par_oe_q;
    trdy_n_out   <= trdy_q;
    trdy_n_oe    <= tgt_oe;
    devsel_n_out <= devsel_q;
    devsel_n_oe  <= tgt_oe;
    stop_n_out   <= stop_q;
    stop_n_oe    <= tgt_oe;
    perr_n_out   <= perr_q;
    perr_n_oe    <= perr_oe_q;
    serr_n_oe    <= serr_q;
  end generate;
  -- AD's next value: the RAM output register is read only at address
  -- phases and, for the MSI, while idle (t_rd), never while the target
  -- drives AD or is about to (DECODE, XFER), so in every clock whose AD
  -- matters cfg_q already holds the word the pins get. (Holding AD by
  -- reading the pad back, as the initiator does, cost 45 logic cells more
  -- here: the live bits are few and constant-0 mostly.)
  pins_next : if NEXT_OUT generate
    ad_out       <= cfg_q or live_q_nx;
    ad_oe        <= ad_oe_q_nx;
    par_out      <= tpar_nx;
    par_oe       <= par_oe_q_nx;
    trdy_n_out   <= trdy_q_nx;
    trdy_n_oe    <= tgt_oe_nx;
    devsel_n_out <= devsel_q_nx;
    devsel_n_oe  <= tgt_oe_nx;
    stop_n_out   <= stop_q_nx;
    stop_n_oe    <= tgt_oe_nx;
    perr_n_out   <= perr_q_nx;
    perr_n_oe    <= perr_oe_q_nx;
    serr_n_oe    <= serr_q_nx;
  end generate;
  serr_n_out   <= '0';
  reg_valid    <= be_valid;
  reg_write    <= be_write;
  reg_addr     <= be_addr;
  reg_wdata    <= be_wdata;
  mem_enable   <= c_mem;
  master_enable <= c_master;
  perr_resp    <= c_perr;
  intx_assert  <= int_pending and not c_intdis and not m_en;
  msi_enable   <= m_en;
  msi_mme      <= m_mme;
  msi_data     <= m_data;
  msi_rd_go    <= m_go;
  cfg_rd       <= t_rd;
  cfg_word     <= cfg_q;
  bad_write    <= bad_q;
end architecture;
