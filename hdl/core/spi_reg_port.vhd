-- SPDX-License-Identifier: GPL-2.0-or-later
-- SPI slave (mode 0) that is a master of the clock core's register port.
--
-- Why it exists: until the PCI interface is there, a bench host (FT2232,
-- Raspberry Pi) reaches the registers through a debug header with this.
--
-- Why oversampled: SCK is not a clock of the design. SCK, CS_n and MOSI pass
-- through sync_bit into clk (the bus clock) and their edges are found there,
-- so no third clock domain exists and nothing needs timing constraints.
-- Cost: SCK must be slow against clk; MISO changes at most 3 clk cycles
-- after the SCK fall that asks for it (2 synchroniser stages + 1 register),
-- so the host must keep SCK <= f_clk / 8 (docs/bitstream.md).
--
-- Frame (CS_n low for the whole frame, bytes MSB first, one access a frame):
--   MOSI  H1 H0 [D3 D2 D1 D0]  x  x ...
--   H1 H0 = W & "000" & byte address(11:0); address bits 1:0 are ignored.
--   Reserved bits 14:12 must be 0: a stuck or floating MOSI (0xFF..) is
--   rejected instead of becoming a write to 0xFFC.
--   Read: the access starts after H0. Write: after D0.
--   MISO  0x00 during the command bytes, then status bytes:
--         STAT_WAIT (0xA0) while the access runs (may repeat: accesses that
--         cross into the timebase domain take several bus cycles),
--         STAT_DONE (0xA1) once, then for reads D3 D2 D1 D0, then 0x00.
--         STAT_BUSY (0xA2, repeated): an access of an earlier frame is still
--         running, this frame's access was not started (retry later).
--         STAT_BAD  (0xA4, repeated): reserved header bits were not zero.
--   The 0xA_ marker tells a live slave from an idle line (0x00 or 0xFF).
--   CS_n rising ends the frame; an access already started still completes
--   (the register port must not be abandoned), its result is dropped.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity spi_reg_port is
  port (
    clk         : in  std_logic;                      -- bus clock
    rst         : in  std_logic;
    -- SPI pins (asynchronous to clk)
    spi_sck     : in  std_logic;
    spi_cs_n    : in  std_logic;
    spi_mosi    : in  std_logic;
    spi_miso    : out std_logic;
    spi_miso_oe : out std_logic;                      -- drive MISO only while selected
    -- register port master (see clock_core)
    reg_valid   : out std_logic;
    reg_write   : out std_logic;
    reg_addr    : out std_logic_vector(11 downto 2);
    reg_wdata   : out std_logic_vector(31 downto 0);
    reg_ready   : in  std_logic;
    reg_rdata   : in  std_logic_vector(31 downto 0));
end entity;

architecture rtl of spi_reg_port is
  constant STAT_WAIT : std_logic_vector(7 downto 0) := x"A0";
  constant STAT_DONE : std_logic_vector(7 downto 0) := x"A1";
  constant STAT_BUSY : std_logic_vector(7 downto 0) := x"A2";
  constant STAT_BAD  : std_logic_vector(7 downto 0) := x"A4";

  -- what MISO sends next: command echo (0x00), status, read data, tail
  type phase_t is (CMD, STATUS, RDATA, TAIL);
  -- this frame's command: not complete yet, started, refused, malformed
  type result_t is (PENDING, RUNNING, BUSY, BAD);

  signal sck_s, cs_n_s, mosi_s : std_logic;
  signal sck_d                 : std_logic := '0';
  signal cs_n_d                : std_logic := '1';

  -- frame state, cleared while CS_n is high
  signal bit_cnt  : unsigned(2 downto 0) := (others => '0');
  signal byte_cnt : unsigned(2 downto 0) := (others => '0');   -- saturates at 7
  signal rx_sr    : std_logic_vector(6 downto 0) := (others => '0');
  signal hdr_hi   : std_logic_vector(7 downto 0) := (others => '0');
  signal is_write : std_logic := '0';
  signal addr_q   : std_logic_vector(11 downto 2) := (others => '0');
  signal wdata    : std_logic_vector(23 downto 0) := (others => '0');
  signal result   : result_t := PENDING;
  signal phase    : phase_t := CMD;
  signal data_idx : unsigned(1 downto 0) := (others => '0');
  signal tx_sr    : std_logic_vector(7 downto 0) := (others => '0');

  -- the register access; it outlives its frame until reg_ready
  signal acc_busy   : std_logic := '0';
  signal acc_write  : std_logic := '0';
  signal acc_addr   : std_logic_vector(11 downto 2) := (others => '0');
  signal acc_wdata  : std_logic_vector(31 downto 0) := (others => '0');
  signal acc_mine   : std_logic := '0';   -- started by the current frame
  signal acc_done   : std_logic := '0';   -- ... and finished
  signal rdata_hold : std_logic_vector(31 downto 0) := (others => '0');
begin
  sync_sck  : entity work.sync_bit port map (clk => clk, din => spi_sck, dout => sck_s);
  -- INIT '1': deselected from configuration on, before the first clocks
  sync_cs   : entity work.sync_bit generic map (INIT => '1')
                                   port map (clk => clk, din => spi_cs_n, dout => cs_n_s);
  sync_mosi : entity work.sync_bit port map (clk => clk, din => spi_mosi, dout => mosi_s);

  process (clk)
    variable rise, fall : boolean;
    variable b          : std_logic_vector(7 downto 0);
    variable start      : boolean;
    variable st_addr    : std_logic_vector(11 downto 2);
    variable st_write   : std_logic;
    variable stat_byte  : std_logic_vector(7 downto 0);
  begin
    if rising_edge(clk) then
      sck_d  <= sck_s;
      cs_n_d <= cs_n_s;
      -- MOSI went through the same two stages as SCK, so mosi_s is the
      -- value that was on the pin when SCK rose
      rise     := sck_s = '1' and sck_d = '0';
      fall     := sck_s = '0' and sck_d = '1';
      b        := rx_sr & mosi_s;
      start    := false;
      st_addr  := addr_q;
      st_write := '0';

      -- register port: the request stays up, unchanged, until ready
      if acc_busy = '1' and reg_ready = '1' then
        acc_busy <= '0';
        if acc_mine = '1' then
          acc_done   <= '1';
          rdata_hold <= reg_rdata;
        end if;
      end if;

      if cs_n_s = '0' then
        -- receive: one bit per SCK rise, a decision per complete byte
        if rise then
          rx_sr   <= b(6 downto 0);
          bit_cnt <= bit_cnt + 1;
          if bit_cnt = 7 then
            if byte_cnt /= 7 then
              byte_cnt <= byte_cnt + 1;
            end if;
            case to_integer(byte_cnt) is
              when 0 =>
                hdr_hi <= b;
              when 1 =>
                is_write <= hdr_hi(7);
                addr_q   <= hdr_hi(3 downto 0) & b(7 downto 2);
                st_addr  := hdr_hi(3 downto 0) & b(7 downto 2);
                if hdr_hi(6 downto 4) /= "000" then
                  result <= BAD;
                elsif hdr_hi(7) = '0' then
                  start := true;               -- read: address is all it needs
                end if;
              when 2 | 3 | 4 =>
                wdata <= wdata(15 downto 0) & b;
              when 5 =>
                if is_write = '1' and result = PENDING then
                  start    := true;
                  st_write := '1';
                end if;
              when others =>
                null;
            end case;
          end if;
        end if;

        if start then
          if acc_busy = '1' then
            -- an earlier frame's access has not finished; never queue
            -- behind it (that would need a second request register)
            result <= BUSY;
          else
            result    <= RUNNING;
            acc_busy  <= '1';
            acc_mine  <= '1';
            acc_done  <= '0';
            acc_write <= st_write;
            acc_addr  <= st_addr;
            acc_wdata <= wdata & b;
          end if;
        end if;

        -- transmit: MISO changes on SCK fall; at a byte boundary (all 8
        -- bits of the last byte in) the next byte is chosen, so the status
        -- reflects the access as late as possible
        if result = BAD then
          stat_byte := STAT_BAD;
        elsif result = BUSY then
          stat_byte := STAT_BUSY;
        elsif acc_done = '1' then
          stat_byte := STAT_DONE;
        else
          stat_byte := STAT_WAIT;
        end if;
        if cs_n_d = '1' then
          tx_sr <= (others => '0');            -- frame start: first byte 0x00
        elsif fall then
          if bit_cnt /= 0 then
            tx_sr <= tx_sr(6 downto 0) & '0';
          else
            case phase is
              when CMD | STATUS =>
                if result = PENDING then
                  tx_sr <= (others => '0');    -- command bytes still coming
                else
                  tx_sr <= stat_byte;
                  phase <= STATUS;
                  if result = RUNNING and acc_done = '1' then
                    phase <= TAIL;
                    if is_write = '0' then
                      phase <= RDATA;
                    end if;
                  end if;
                end if;
              when RDATA =>
                tx_sr    <= rdata_hold(31 - 8 * to_integer(data_idx) downto 24 - 8 * to_integer(data_idx));
                data_idx <= data_idx + 1;
                if data_idx = 3 then
                  phase <= TAIL;
                end if;
              when TAIL =>
                tx_sr <= (others => '0');
            end case;
          end if;
        end if;
      end if;

      if cs_n_s = '1' or rst = '1' then
        -- deselected: forget the frame; a running access finishes unowned
        bit_cnt  <= (others => '0');
        byte_cnt <= (others => '0');
        phase    <= CMD;
        result   <= PENDING;
        data_idx <= (others => '0');
        acc_mine <= '0';
        acc_done <= '0';
      end if;
      if rst = '1' then
        acc_busy <= '0';
        tx_sr    <= (others => '0');
      end if;
    end if;
  end process;

  reg_valid   <= acc_busy;
  reg_write   <= acc_write;
  reg_addr    <= acc_addr;
  reg_wdata   <= acc_wdata;
  spi_miso    <= tx_sr(7);
  spi_miso_oe <= not cs_n_s;
end architecture;
