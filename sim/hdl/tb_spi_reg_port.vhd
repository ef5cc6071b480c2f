-- SPDX-License-Identifier: GPL-2.0-or-later
-- Self-checking testbench of spi_reg_port: a mode-0 SPI master (the bench
-- host) talks to the port, whose register port drives a model register file
-- with a programmable latency. Checks: read-back of written words, status
-- bytes (WAIT/DONE/BUSY/BAD), that refused, malformed and aborted frames
-- issue no access, and the register-port protocol on every clock.
-- The SCK rate is the documented limit, f_clk / 8, with 10 ns of MISO pad
-- and wire delay, plus a slow and an odd (asynchronous) rate.
-- FAULT = true corrupts one read-data bit in the model: the run must fail
-- then (proves the read-back check can fail).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_spi_reg_port is
  generic (FAULT : boolean := false);
end entity;

architecture sim of tb_spi_reg_port is
  constant T_CLK     : time := 15 ns;            -- 66.7 MHz bus clock
  constant MISO_DLY  : time := 10 ns;            -- pad + cable, slave to host

  constant STAT_WAIT : std_logic_vector(7 downto 0) := x"A0";
  constant STAT_DONE : std_logic_vector(7 downto 0) := x"A1";
  constant STAT_BUSY : std_logic_vector(7 downto 0) := x"A2";
  constant STAT_BAD  : std_logic_vector(7 downto 0) := x"A4";

  signal clk         : std_logic := '0';
  signal rst         : std_logic := '1';
  signal done        : boolean := false;
  signal sck, mosi   : std_logic := '0';
  signal cs_n        : std_logic := '1';
  signal miso_dut    : std_logic;
  signal miso_oe     : std_logic;
  signal miso        : std_logic;
  signal reg_valid   : std_logic;
  signal reg_write   : std_logic;
  signal reg_addr    : std_logic_vector(11 downto 2);
  signal reg_wdata   : std_logic_vector(31 downto 0);
  signal reg_ready   : std_logic := '0';
  signal reg_rdata   : std_logic_vector(31 downto 0) := (others => '0');

  -- model register file and what the checker saw
  type mem_t is array (0 to 1023) of std_logic_vector(31 downto 0);
  signal latency     : natural := 1;              -- clocks from valid to ready
  signal n_access    : natural := 0;
  signal proto_errs  : natural := 0;

  type bytes_t is array (natural range <>) of std_logic_vector(7 downto 0);
begin
  clk <= not clk after T_CLK / 2 when not done;

  dut : entity work.spi_reg_port
    port map (clk => clk, rst => rst,
              spi_sck => sck, spi_cs_n => cs_n, spi_mosi => mosi,
              spi_miso => miso_dut, spi_miso_oe => miso_oe,
              reg_valid => reg_valid, reg_write => reg_write, reg_addr => reg_addr,
              reg_wdata => reg_wdata, reg_ready => reg_ready, reg_rdata => reg_rdata);

  -- an undriven MISO reads as 'Z', which no status byte check accepts
  miso <= transport miso_dut after MISO_DLY when miso_oe = '1' else 'Z';

  -- register file with latency; checks the master side of the protocol
  regfile : process (clk)
    variable mem      : mem_t := (others => (others => '0'));
    variable wait_cnt : natural := 0;
    variable pending  : boolean := false;
    variable p_write  : std_logic;
    variable p_addr   : std_logic_vector(11 downto 2);
    variable p_wdata  : std_logic_vector(31 downto 0);
    variable d        : std_logic_vector(31 downto 0);
  begin
    if rising_edge(clk) then
      reg_ready <= '0';
      if pending then
        if reg_valid /= '1' then
          report "protocol: reg_valid dropped before reg_ready" severity error;
          proto_errs <= proto_errs + 1;
          pending := false;
        elsif reg_write /= p_write or reg_addr /= p_addr or
              (p_write = '1' and reg_wdata /= p_wdata) then
          report "protocol: request changed while pending" severity error;
          proto_errs <= proto_errs + 1;
        end if;
      end if;
      if reg_ready = '1' then
        null;   -- ready cycle: the master may not present a new access yet
      elsif pending then
        if wait_cnt <= 1 then
          if p_write = '1' then
            mem(to_integer(unsigned(p_addr))) := p_wdata;
          else
            d := mem(to_integer(unsigned(p_addr)));
            if FAULT then
              d(13) := not d(13);
            end if;
            reg_rdata <= d;
          end if;
          reg_ready <= '1';
          pending   := false;
        else
          wait_cnt := wait_cnt - 1;
        end if;
      elsif reg_valid = '1' and rst = '0' then
        pending  := true;
        p_write  := reg_write;
        p_addr   := reg_addr;
        p_wdata  := reg_wdata;
        wait_cnt := latency;
        n_access <= n_access + 1;
      end if;
      if rst = '1' then
        pending := false;
      end if;
    end if;
  end process;

  stim : process
    variable half   : time := 4 * T_CLK;       -- SCK = f_clk / 8
    variable errors : natural := 0;
    variable model  : mem_t := (others => (others => '0'));
    variable seed   : unsigned(31 downto 0) := x"1234ABCD";
    type addrs_t is array (natural range <>) of natural;
    constant ADDRS  : addrs_t := (16#000#, 16#004#, 16#01C#, 16#040#, 16#7F8#, 16#800#, 16#AA8#, 16#FFC#);

    procedure check (ok : boolean; msg : string) is
    begin
      if not ok then
        report "FAIL: " & msg severity error;
        errors := errors + 1;
      end if;
    end procedure;

    -- one frame: tx bytes out, the same number of bytes in (mode 0:
    -- MOSI set while SCK is low, both sides sample on the rise)
    procedure frame (tx : in bytes_t; rx : out bytes_t) is
      variable r : std_logic_vector(7 downto 0);
    begin
      cs_n <= '0';
      wait for half;
      for i in tx'range loop
        for bit in 7 downto 0 loop
          mosi <= tx(i)(bit);
          wait for half;
          sck <= '1';
          r(bit) := miso;
          wait for half;
          sck <= '0';
        end loop;
        rx(i) := r;
      end loop;
      wait for half;
      cs_n <= '1';
      wait for 2 * half;               -- CS_n high time between frames
    end procedure;

    function hdr (write : boolean; byte_addr : natural) return bytes_t is
      variable a : std_logic_vector(15 downto 0) := std_logic_vector(to_unsigned(byte_addr, 16));
    begin
      if write then
        a(15) := '1';
      end if;
      return (0 => a(15 downto 8), 1 => a(7 downto 0));
    end function;

    function hex (v : std_logic_vector) return string is
    begin
      return to_hstring(v);
    end function;

    -- write; expect DONE in the status byte after the command
    procedure reg_wr (byte_addr : natural; data : std_logic_vector(31 downto 0);
                      extra : natural := 2) is
      variable tx : bytes_t(0 to 5 + extra) := (others => x"00");
      variable rx : bytes_t(0 to 5 + extra);
      variable found : boolean := false;
    begin
      tx(0 to 1) := hdr(true, byte_addr);
      tx(2) := data(31 downto 24); tx(3) := data(23 downto 16);
      tx(4) := data(15 downto 8);  tx(5) := data(7 downto 0);
      frame(tx, rx);
      for i in 0 to 5 loop
        check(rx(i) = x"00", "write: command byte " & integer'image(i) & " echoed " & hex(rx(i)));
      end loop;
      for i in 6 to rx'high loop
        if rx(i) = STAT_DONE then
          found := true;
          exit;
        end if;
        check(rx(i) = STAT_WAIT, "write: status " & hex(rx(i)) & " before DONE");
      end loop;
      check(found, "write to " & integer'image(byte_addr) & ": no DONE status");
      model(byte_addr / 4) := data;
    end procedure;

    -- read: scan the status bytes for DONE, then 4 data bytes
    procedure reg_rd (byte_addr : natural; data : out std_logic_vector(31 downto 0);
                      n_wait : out natural; extra : natural := 1) is
      variable tx : bytes_t(0 to 6 + extra) := (others => x"00");
      variable rx : bytes_t(0 to 6 + extra);
      variable k  : integer := -1;
    begin
      tx(0 to 1) := hdr(false, byte_addr);
      frame(tx, rx);
      n_wait := 0;
      data := (others => 'X');
      check(rx(0) = x"00" and rx(1) = x"00", "read: command bytes echoed " & hex(rx(0)) & hex(rx(1)));
      for i in 2 to rx'high - 4 loop
        if rx(i) = STAT_DONE then
          k := i;
          exit;
        end if;
        check(rx(i) = STAT_WAIT, "read: status " & hex(rx(i)) & " before DONE");
        n_wait := n_wait + 1;
      end loop;
      check(k >= 0, "read of " & integer'image(byte_addr) & ": no DONE status within the frame");
      if k >= 0 then
        data := rx(k + 1) & rx(k + 2) & rx(k + 3) & rx(k + 4);
        for i in k + 5 to rx'high loop
          check(rx(i) = x"00", "read: tail byte " & hex(rx(i)));
        end loop;
      end if;
    end procedure;

    procedure expect_rd (byte_addr : natural; extra : natural := 1) is
      variable d : std_logic_vector(31 downto 0);
      variable w : natural;
    begin
      reg_rd(byte_addr, d, w, extra);
      check(d = model(byte_addr / 4), "read-back of 0x" & hex(std_logic_vector(to_unsigned(byte_addr, 12))) &
            ": got " & hex(d) & ", expected " & hex(model(byte_addr / 4)));
    end procedure;

    impure function rnd return std_logic_vector;

    -- every address in ADDRS written with fresh data, then all read back
    -- (reads after all writes: a write landing at the wrong word shows)
    procedure write_all_read_all is
    begin
      for i in ADDRS'range loop
        reg_wr(ADDRS(i), rnd);
      end loop;
      for i in ADDRS'range loop
        expect_rd(ADDRS(i));
      end loop;
    end procedure;

    impure function rnd return std_logic_vector is
    begin
      -- 32-bit Galois LFSR: varied data without a random package
      for i in 1 to 32 loop
        if seed(0) = '1' then
          seed := ('0' & seed(31 downto 1)) xor x"80200003";
        else
          seed := '0' & seed(31 downto 1);
        end if;
      end loop;
      return std_logic_vector(seed);
    end function;

    variable d          : std_logic_vector(31 downto 0);
    variable w          : natural;
    variable n0         : natural;
    variable tx         : bytes_t(0 to 7);
    variable rx         : bytes_t(0 to 7);
  begin
    rst <= '1';
    wait for 10 * T_CLK;
    wait until rising_edge(clk);
    rst <= '0';
    wait for 5 * T_CLK;

    -- 1. write / read back at the documented SCK limit, latencies 1..5
    for lat in 1 to 5 loop
      latency <= lat;
      write_all_read_all;
    end loop;
    check(n_access = 5 * 2 * ADDRS'length, "access count " & integer'image(n_access));

    -- 2. address bits 1:0 are ignored: byte address 0x01F is word 0x01C
    reg_wr(16#01F#, x"CAFEF00D");
    expect_rd(16#01C#);

    -- 3. an access longer than a byte time: WAIT bytes, then DONE and data
    latency <= 150;                       -- > 2 bytes of SCK at f_clk / 8
    reg_wr(16#100#, x"DEADBEEF", 6);
    reg_rd(16#100#, d, w, 6);
    check(d = x"DEADBEEF", "slow read: got " & hex(d));
    check(w >= 2, "slow read: only " & integer'image(w) & " WAIT bytes");

    -- 4. a frame while an earlier access still runs: BUSY, nothing issued
    latency <= 3000;
    tx := (hdr(false, 16#100#)(0), hdr(false, 16#100#)(1), others => x"00");
    frame(tx(0 to 2), rx(0 to 2));        -- ends before the read completes
    n0 := n_access;
    tx := (hdr(true, 16#104#)(0), hdr(true, 16#104#)(1), x"11", x"22", x"33", x"44", x"00", x"00");
    frame(tx, rx);
    check(rx(6) = STAT_BUSY and rx(7) = STAT_BUSY, "busy: status " & hex(rx(6)) & " " & hex(rx(7)));
    wait for 3000 * T_CLK;
    check(n_access = n0, "busy frame issued an access");
    latency <= 2;
    expect_rd(16#104#);                   -- still the old value

    -- 5. reserved header bits set (stuck-high MOSI): BAD, nothing issued
    n0 := n_access;
    tx := (others => x"FF");
    frame(tx, rx);
    check(rx(6) = STAT_BAD and rx(7) = STAT_BAD, "bad header: status " & hex(rx(6)) & " " & hex(rx(7)));
    tx := (x"90", x"40", x"01", x"02", x"03", x"04", x"00", x"00");   -- W + bit 12
    frame(tx, rx);
    check(rx(6) = STAT_BAD, "bad header 0x9040: status " & hex(rx(6)));
    check(n_access = n0, "malformed frame issued an access");

    -- 6. write aborted before its last data byte: nothing issued
    tx := (hdr(true, 16#1C#)(0), hdr(true, 16#1C#)(1), x"01", x"02", x"03", others => x"00");
    frame(tx(0 to 4), rx(0 to 4));
    check(n_access = n0, "aborted write issued an access");
    expect_rd(16#01C#);

    -- 7. a slow host (SCK ~ 1 MHz) and an odd rate asynchronous to clk
    half := 500 ns;
    reg_wr(16#200#, x"0F1E2D3C");
    expect_rd(16#200#);
    half := 4 * T_CLK + 1.37 ns;
    write_all_read_all;

    -- 8. reset during a frame: port idle afterwards, next frame works
    half := 4 * T_CLK;
    latency <= 40;
    cs_n <= '0';
    wait for 20 * T_CLK;
    rst <= '1';
    wait for 4 * T_CLK;
    rst <= '0';
    cs_n <= '1';
    wait for 10 * T_CLK;
    latency <= 1;
    expect_rd(16#200#);

    check(proto_errs = 0, integer'image(proto_errs) & " register-port protocol errors");
    done <= true;
    if errors = 0 then
      report "tb_spi_reg_port: PASS (" & integer'image(n_access) & " register accesses)" severity note;
    else
      report "tb_spi_reg_port: " & integer'image(errors) & " check(s) failed" severity failure;
    end if;
    wait;
  end process;

  watchdog : process
  begin
    wait for 20 ms;
    assert done report "tb_spi_reg_port: timeout" severity failure;
    wait;
  end process;
end architecture;
