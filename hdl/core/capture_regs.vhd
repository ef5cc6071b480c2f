-- SPDX-License-Identifier: GPL-2.0-or-later
-- Register back end of the capture unit: offsets 0x200..0x7FF of BAR0
-- (docs/card-internals.md section 1), blocks msi_slots, dma and irq of
-- hdl/regmap/synpcix.toml. The msi_slots window (ctrl .. settle) is the
-- stamping engine's block RAM row of the selected slot: those accesses are
-- passed to stamp_engine and answered when it is idle (a few clocks, at
-- most one capture's handling). Everything else answers the clock after the
-- request. Undefined offsets read 0 and ignore writes.
--
-- The window's write flag, word and data are the register port's own
-- (held until reg_ready, docs/card-internals.md section 2), its slot the
-- slot_sel register: no copies in flip-flops.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.synpcix_regs_pkg.all;

entity capture_regs is
  generic (
    N_SLOTS    : positive := 4;
    FIFO_LOG2  : positive := 8;
    LATCH_CLKS : natural := 2;
    RING_LOG2  : positive := 12);   -- stamp_engine's IDX_W
  port (
    clk : in std_logic;
    rst : in std_logic;
    reg_valid : in  std_logic;
    reg_write : in  std_logic;
    reg_addr  : in  std_logic_vector(11 downto 2);
    reg_wdata : in  std_logic_vector(31 downto 0);
    reg_ready : out std_logic;
    reg_rdata : out std_logic_vector(31 downto 0);
    -- stamp_engine's window
    win_req   : out std_logic;
    win_write : out std_logic;
    win_slot  : out std_logic_vector(2 downto 0);
    win_word  : out std_logic_vector(4 downto 0);
    win_wdata : out std_logic_vector(31 downto 0);
    win_ack   : in  std_logic;
    win_rdata : in  std_logic_vector(31 downto 0);
    eng_busy  : in  std_logic;
    eng_init  : in  std_logic;
    -- card_irq
    irq_mask    : out std_logic_vector(N_SLOTS - 1 downto 0);
    irq_gap     : out std_logic_vector(7 downto 0);
    irq_pend    : in  std_logic_vector(N_SLOTS - 1 downto 0);
    irq_raised  : in  std_logic_vector(N_SLOTS - 1 downto 0);
    irq_status  : in  std_logic_vector(N_SLOTS - 1 downto 0);
    irq_clear   : out std_logic_vector(N_SLOTS - 1 downto 0);  -- W1C of irq.status, see below
    -- card_dma_arbiter's error report
    dma_err_valid : in std_logic;
    dma_err_code  : in std_logic_vector(1 downto 0);
    dma_err_req   : in std_logic_vector(1 downto 0));
end entity;

architecture rtl of capture_regs is
  constant WIN_FIRST : natural := REG_MSI_SLOTS_CTRL / 4;
  constant WIN_LAST  : natural := REG_MSI_SLOTS_AMBIGUOUS / 4;   -- the last window word
  type blk_list_t is array (0 to 2) of natural;
  type hdr_tab_t is array (0 to 2, 0 to 2) of std_logic_vector(31 downto 0);
  constant HDR_BLK  : blk_list_t := (BLK_MSI_SLOTS_BASE, BLK_DMA_BASE, BLK_IRQ_BASE);
  constant HDR_WORD : hdr_tab_t :=
    ((MSI_SLOTS_TYPE_RESET, MSI_SLOTS_VERSION_RESET, MSI_SLOTS_NEXT_RESET),
     (DMA_TYPE_RESET, DMA_VERSION_RESET, DMA_NEXT_RESET),
     (IRQ_TYPE_RESET, IRQ_VERSION_RESET, IRQ_NEXT_RESET));
  signal ready   : std_logic;
  signal win_req_i : std_logic;                 -- window access in flight
  signal sel     : unsigned(2 downto 0);
  signal mask    : std_logic_vector(N_SLOTS - 1 downto 0);
  signal gap     : std_logic_vector(7 downto 0);
  signal raised  : unsigned(15 downto 0);
  signal errors  : unsigned(15 downto 0);
  signal err_sum : unsigned(16 downto 0);       -- errors + 1, bit 16 its carry out
  signal last_err : std_logic_vector(5 downto 0);

  -- answers are built as whole words outside the decoder: GHDL synthesis
  -- mis-slices a variable assigned whole in one branch and by slices in
  -- another (docs/simulation.md)
  signal info_w, status_w, lerr_w : std_logic_vector(31 downto 0);

  signal win_hit  : std_logic;                      -- a window word
  signal answer_w : std_logic_vector(31 downto 0);  -- any other register's word
  signal hdr_w    : std_logic_vector(31 downto 0);  -- a block header's word

  function pick (c : boolean; v : std_logic_vector(31 downto 0)) return std_logic_vector is
  begin
    if c then
      return v;
    end if;
    return x"00000000";
  end function;

  function w32 (v : std_logic_vector) return std_logic_vector is
    variable r : std_logic_vector(31 downto 0) := (others => '0');
  begin
    r(v'length - 1 downto 0) := v;
    return r;
  end function;
begin
  words : process (all)
    variable w : std_logic_vector(31 downto 0);
  begin
    w := (others => '0');
    w(MSI_SLOTS_INFO_N_SLOTS_LSB + 3 downto MSI_SLOTS_INFO_N_SLOTS_LSB) :=
      std_logic_vector(to_unsigned(N_SLOTS, 4));
    w(MSI_SLOTS_INFO_FIFO_LOG2_LSB + 3 downto MSI_SLOTS_INFO_FIFO_LOG2_LSB) :=
      std_logic_vector(to_unsigned(FIFO_LOG2, 4));
    w(MSI_SLOTS_INFO_LATCH_CLKS_LSB + 3 downto MSI_SLOTS_INFO_LATCH_CLKS_LSB) :=
      std_logic_vector(to_unsigned(LATCH_CLKS, 4));
    w(MSI_SLOTS_INFO_RING_LOG2_LSB + MSI_SLOTS_INFO_RING_LOG2_WIDTH - 1 downto MSI_SLOTS_INFO_RING_LOG2_LSB) :=
      std_logic_vector(to_unsigned(RING_LOG2, MSI_SLOTS_INFO_RING_LOG2_WIDTH));
    info_w <= w;
  end process;

  status_p : process (all)
  begin
    status_w <= (others => '0');
    status_w(MSI_SLOTS_STATUS_BUSY_LSB) <= eng_busy;
    status_w(MSI_SLOTS_STATUS_INIT_LSB) <= eng_init;
    lerr_w <= (others => '0');
    lerr_w(DMA_LAST_ERROR_CODE_LSB + 1 downto DMA_LAST_ERROR_CODE_LSB) <= last_err(1 downto 0);
    lerr_w(DMA_LAST_ERROR_REQUESTER_LSB + 1 downto DMA_LAST_ERROR_REQUESTER_LSB) <= last_err(3 downto 2);
  end process;

  -- the answer of a non-window register: an AND-OR of every register word
  -- with its address match, not an if/elsif chain (a priority multiplexer
  -- 20 deep in front of each of the 32 bits); the constant header words
  -- come from hdr below
  win_hit <= '1' when unsigned(reg_addr(11 downto 7)) = WIN_FIRST / 32 and
                      unsigned(reg_addr(6 downto 2)) <= WIN_LAST - WIN_FIRST else '0';

  -- the three blocks' headers (type, version, next: the first three words
  -- of each block), one table walked by one loop: the block from the
  -- address bits above the block size, the word from the two below, so
  -- each answer bit is one small function of the address
  hdr : process (all)
    variable w : std_logic_vector(31 downto 0);
  begin
    w := (others => '0');
    for b in HDR_BLK'range loop
      for k in 0 to 2 loop
        if unsigned(reg_addr(11 downto 7)) = HDR_BLK(b) / 128 and
           unsigned(reg_addr(6 downto 2)) = k then
          w := w or HDR_WORD(b, k);
        end if;
      end loop;
    end loop;
    hdr_w <= w;
  end process;

  answer : process (all)
    variable a : natural range 0 to 1023;
    variable d : std_logic_vector(31 downto 0);
  begin
    a := to_integer(unsigned(reg_addr));
    d := (others => '0');
    d := d or hdr_w;
    d := d or pick(a = REG_MSI_SLOTS_SLOT_SEL / 4, w32(std_logic_vector(sel)));
    d := d or pick(a = REG_MSI_SLOTS_INFO / 4, info_w);
    d := d or pick(a = REG_MSI_SLOTS_STATUS / 4, status_w);
    d := d or pick(a = REG_DMA_ERRORS / 4, w32(std_logic_vector(errors)));
    d := d or pick(a = REG_DMA_LAST_ERROR / 4, lerr_w);
    d := d or pick(a = REG_DMA_INFO / 4, DMA_INFO_RESET);
    d := d or pick(a = REG_IRQ_MASK / 4, w32(mask));
    d := d or pick(a = REG_IRQ_PENDING / 4, w32(irq_pend));
    d := d or pick(a = REG_IRQ_GAP / 4, w32(gap));
    d := d or pick(a = REG_IRQ_RAISED / 4, w32(std_logic_vector(raised)));
    d := d or pick(a = REG_IRQ_STATUS / 4, w32(irq_status));
    answer_w <= d;
  end process;

  err_sum <= resize(errors, 17) + 1;

  -- a write's reg_rdata is not looked at (docs/card-internals.md section 2):
  -- it carries the register's old value. reg_rdata is 0 in every clock but
  -- that of reg_ready (the contract says it is valid with reg_ready only):
  -- card_core then ORs it with the clock side's answer, no select by
  -- address between the two (session 22)
  process (clk)
    variable a : natural range 0 to 1023;
  begin
    if rising_edge(clk) then
      ready <= '0';
      reg_rdata <= (others => '0');
      if rst = '1' then
        win_req_i <= '0';
        sel <= (others => '0');
        mask <= (others => '0');
        gap <= (others => '0');
        raised <= (others => '0');
        errors <= (others => '0');
        last_err <= (others => '0');
        reg_rdata <= (others => '0');
      else
        if irq_raised /= (irq_raised'range => '0') then
          raised <= raised + 1;    -- card_irq raises one slot per clock
        end if;
        if dma_err_valid = '1' then
          -- saturating at 0xFFFF: the incrementer's carry out says so (a
          -- compare with x"FFFF" was LUTs of its own)
          if err_sum(16) = '0' then
            errors <= err_sum(15 downto 0);
          end if;
          last_err <= "00" & dma_err_req & dma_err_code;
        end if;

        if win_req_i = '1' then
          if win_ack = '1' then
            win_req_i <= '0';
            reg_rdata <= win_rdata;
            ready <= '1';
          end if;
        elsif reg_valid = '1' and ready = '0' then
          a := to_integer(unsigned(reg_addr));
          if win_hit = '1' and sel < N_SLOTS then
            win_req_i <= '1';
          else
            -- a window word of an unbuilt slot reads 0 (win_hit is not
            -- in answer_w)
            if win_hit = '1' then
              reg_rdata <= (others => '0');
            else
              reg_rdata <= answer_w;
            end if;
            ready <= '1';
            if reg_write = '1' then
              if a = REG_MSI_SLOTS_SLOT_SEL / 4 then
                sel <= unsigned(reg_wdata(MSI_SLOTS_SLOT_SEL_SLOT_LSB + 2 downto MSI_SLOTS_SLOT_SEL_SLOT_LSB));
              end if;
              if a = REG_IRQ_MASK / 4 then
                mask <= reg_wdata(N_SLOTS - 1 downto 0);
              end if;
              if a = REG_IRQ_GAP / 4 then
                gap <= reg_wdata(IRQ_GAP_UNITS_LSB + 7 downto IRQ_GAP_UNITS_LSB);
              end if;
            end if;
          end if;
        end if;
      end if;
    end if;
  end process;

  -- WIN_FIRST is a multiple of 32 words, so the word is the address's low
  -- bits (checked below)
  assert BLK_MSI_SLOTS_BASE mod 128 = 0 and BLK_DMA_BASE mod 128 = 0 and BLK_IRQ_BASE mod 128 = 0
    report "capture_regs: block headers are found on 128-byte boundaries" severity failure;
  assert WIN_FIRST mod 32 = 0 and WIN_LAST - WIN_FIRST < 32
    report "capture_regs: the window must start on a 32-word boundary" severity failure;
  -- the clear of irq.status acts at the edge that raises reg_ready, as a
  -- mask write does: once the write is answered the INTx level is the new
  -- one (the QEMU device and the driver's acknowledge rely on it)
  irq_clear <= reg_wdata(N_SLOTS - 1 downto 0)
               when reg_valid = '1' and reg_write = '1' and ready = '0' and win_req_i = '0' and
                    unsigned(reg_addr) = REG_IRQ_STATUS / 4
               else (others => '0');

  win_write <= reg_write;
  win_word  <= reg_addr(6 downto 2);
  win_wdata <= reg_wdata;
  win_slot  <= std_logic_vector(sel);

  win_req   <= win_req_i;
  reg_ready <= ready;
  irq_mask  <= mask;
  irq_gap   <= gap;
end architecture;
