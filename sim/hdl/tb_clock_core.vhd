-- SPDX-License-Identifier: GPL-2.0-or-later
-- Integration testbench of clock_core through its register port only, with
-- the two clocks at their real ratio (66.67 / 125 MHz): block chain, scratch,
-- bad accesses, set/adjust/snapshot across the domain crossing, event
-- capture and FIFO overflow with sequence gaps, PPS report mode and glitch
-- counting, and the periodic output looped back into event input 1 so its
-- edges are measured by the card itself.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.synpcix_regs_pkg.all;

entity tb_clock_core is
end entity;

architecture sim of tb_clock_core is
  signal bus_clk, tb_clk : std_logic := '0';
  signal bus_rst, tb_rst : std_logic := '1';
  signal reg_valid, reg_write, reg_ready : std_logic := '0';
  signal reg_addr : std_logic_vector(11 downto 2) := (others => '0');
  signal reg_wdata, reg_rdata : std_logic_vector(31 downto 0) := (others => '0');
  signal pps_in : std_logic := '0';
  signal ev0 : std_logic := '0';
  signal event_in : std_logic_vector(1 downto 0);
  signal perout, pps_locked : std_logic;
  signal done : boolean := false;
begin
  bus_clk <= not bus_clk after 7.5 ns when not done;
  tb_clk  <= not tb_clk after 4 ns when not done;
  event_in <= perout & ev0;

  dut : entity work.clock_core
    generic map (N_EVENTS => 2, FIFO_LOG2 => 2, CLK_HZ => 125_000_000)
    port map (bus_clk => bus_clk, bus_rst => bus_rst, reg_valid => reg_valid,
              reg_write => reg_write, reg_addr => reg_addr, reg_wdata => reg_wdata,
              reg_ready => reg_ready, reg_rdata => reg_rdata, tb_clk => tb_clk,
              tb_rst => tb_rst, pps_in => pps_in, event_in => event_in,
              perout => perout, pps_locked => pps_locked);

  stim : process
    variable errs : natural := 0;
    variable v, lo, hi, info : std_logic_vector(31 downto 0);
    variable t1, t2, st, exp : unsigned(63 downto 0);
    variable snap : unsigned(95 downto 0);
    variable blk : natural;

    procedure check (cond : boolean; msg : string) is
    begin
      if not cond then
        errs := errs + 1;
        report "FAIL: " & msg severity error;
      end if;
    end procedure;

    procedure access_reg (addr : natural; wr : std_logic; wd : std_logic_vector(31 downto 0);
                          rd : out std_logic_vector(31 downto 0)) is
      variable n : natural := 0;
    begin
      wait until rising_edge(bus_clk);
      reg_addr  <= std_logic_vector(to_unsigned(addr / 4, 10));
      reg_write <= wr;
      reg_wdata <= wd;
      reg_valid <= '1';
      loop
        wait until rising_edge(bus_clk);
        n := n + 1;
        exit when reg_ready = '1';
        assert n < 1000 report "register access timed out at " & integer'image(addr) severity failure;
      end loop;
      rd := reg_rdata;
      reg_valid <= '0';
    end procedure;

    procedure wr (addr : natural; d : std_logic_vector(31 downto 0)) is
      variable dummy : std_logic_vector(31 downto 0);
    begin
      access_reg(addr, '1', d, dummy);
    end procedure;

    procedure rd (addr : natural; d : out std_logic_vector(31 downto 0)) is
    begin
      access_reg(addr, '0', x"00000000", d);
    end procedure;

    impure function w (n : natural) return std_logic_vector is
    begin
      return std_logic_vector(to_unsigned(n, 32));
    end function;

    procedure read_time (t : out unsigned(63 downto 0)) is
      variable l, h : std_logic_vector(31 downto 0);
    begin
      rd(REG_CLOCK_TIME_NS_LO, l);
      rd(REG_CLOCK_TIME_NS_HI, h);
      t := unsigned(h & l);
    end procedure;

    procedure pop (stamp : out unsigned(63 downto 0); inf : out std_logic_vector(31 downto 0)) is
      variable l, h : std_logic_vector(31 downto 0);
    begin
      rd(REG_EVENT_STAMP_NS_LO, l);
      rd(REG_EVENT_STAMP_NS_HI, h);
      rd(REG_EVENT_STAMP_INFO, inf);
      stamp := unsigned(h & l);
    end procedure;

    procedure wait_ns (n : natural) is
    begin
      wait for n * 1 ns;
    end procedure;
  begin
    wait for 100 ns;
    bus_rst <= '0';
    tb_rst <= '0';
    wait for 100 ns;

    -- block chain
    rd(REG_ID_MAGIC, v);
    check(v = ID_MAGIC_RESET, "magic " & to_hstring(v));
    blk := 0;
    for i in 1 to 5 loop
      rd(blk, v);
      check(v(31 downto 16) = x"5350", "block at " & integer'image(blk) & " type " & to_hstring(v));
      rd(blk + 8, v);
      blk := to_integer(unsigned(v));
      exit when blk = 0;
    end loop;
    -- clock_core's five blocks lead on to the capture unit's (msi_slots), a
    -- different register back end in the card top
    check(blk = BLK_MSI_SLOTS_BASE, "chain does not leave clock_core for msi_slots after 5 blocks");
    rd(BLK_PEROUT_BASE, v);
    check(v = PEROUT_TYPE_RESET, "perout type");
    rd(REG_ID_FEATURES, v);
    check(unsigned(v(3 downto 0)) = 2 and unsigned(v(11 downto 8)) = 2, "features " & to_hstring(v));

    -- scratch and bad accesses
    wr(REG_ID_SCRATCH, x"A5C3F00F");
    rd(REG_ID_SCRATCH, v);
    check(v = x"A5C3F00F", "scratch");
    rd(REG_ID_BAD_ACCESS, v);
    rd(16#7F0#, v);
    check(v = x"00000000", "undefined offset reads 0");
    wr(REG_ID_MAGIC, x"00000000");
    wr(REG_CLOCK_PERIOD_NS, x"00000000");        -- 0 ns period refused
    rd(REG_ID_BAD_ACCESS, v);
    check(unsigned(v) = 3, "bad_access counts 3, got " & to_hstring(v));
    rd(REG_ID_BAD_ACCESS, v);
    check(unsigned(v) = 0, "bad_access clears on read");
    rd(REG_CLOCK_PERIOD_NS, v);
    check(unsigned(v) = 8, "refused period write changed the period");

    -- set, snapshot, adjust
    wr(REG_CLOCK_SET_NS_HI, x"00000012");
    wr(REG_CLOCK_SET_NS_LO, x"34567000");
    wr(REG_CLOCK_SET_FRAC, x"00000000");
    wr(REG_CLOCK_CTRL, x"00000001");
    read_time(t1);
    check(t1 >= x"0000001234567000" and t1 < x"0000001234567000" + 2000,
          "time after set " & to_hstring(t1));
    wait_ns(10000);
    read_time(t2);
    check(t2 - t1 >= 10000 and t2 - t1 < 12000, "10 us later the clock moved " & to_hstring(t2 - t1));
    wr(REG_CLOCK_ADJ_NS_HI, x"FFFFFFFF");
    wr(REG_CLOCK_ADJ_NS_LO, x"FFF0BDC0");          -- -1 000 000 ns
    wr(REG_CLOCK_CTRL, x"00000002");
    read_time(t1);
    check(t2 - t1 > 1000000 - 3000 and t2 - t1 < 1000000, "adjust -1 ms: moved " & to_hstring(t2 - t1));
    wr(REG_CLOCK_ADJ_NS_HI, x"00000000");
    wr(REG_CLOCK_ADJ_NS_LO, x"3B9ACA00");          -- +1 s
    read_time(t1);
    wr(REG_CLOCK_CTRL, x"00000002");
    read_time(t2);
    check(t2 - t1 > 1000000000 and t2 - t1 < 1000000000 + 3000, "adjust +1 s: moved " & to_hstring(t2 - t1));
    -- period 256 ns does not fit the 8 whole-ns bits: refused
    wr(REG_CLOCK_PERIOD_NS, x"00000100");
    rd(REG_ID_BAD_ACCESS, v);
    check(unsigned(v) = 1, "period 256 must be refused (1..255)");
    rd(REG_CLOCK_PERIOD_NS, v);
    check(unsigned(v) = 8, "refused period 256 changed the register: " & to_hstring(v));
    -- period 248 ns + 0.5 (QEMU's clock-scale 31 strap, docs/simulation.md):
    -- all 8 whole-ns bits and the fraction reach the timebase, 31x the rate
    wr(REG_CLOCK_PERIOD_NS, x"000000F8");
    wr(REG_CLOCK_PERIOD_FRAC, x"80000000");
    wr(REG_CLOCK_CTRL, x"00000004");
    rd(REG_CLOCK_EFF_PERIOD_NS, v);
    check(unsigned(v) = 248, "effective period 248: " & to_hstring(v));
    rd(REG_CLOCK_EFF_PERIOD_FRAC, v);
    check(v = x"80000000", "effective period fraction: " & to_hstring(v));
    read_time(t1);
    wait_ns(8000);
    read_time(t2);
    -- 1000 clocks of 248.5 ns, plus the read overhead (as above, 31x)
    check(t2 - t1 >= 248500 and t2 - t1 < 248500 + 31 * 2000,
          "248.5 ns period: 8 us became " & to_hstring(t2 - t1));
    wr(REG_CLOCK_PERIOD_FRAC, x"00000000");
    wr(REG_CLOCK_PERIOD_NS, x"0000000C");
    wr(REG_CLOCK_CTRL, x"00000004");
    read_time(t1);
    wait_ns(8000);
    read_time(t2);
    check(t2 - t1 >= 12000 and t2 - t1 < 14500, "12 ns period: 8 us became " & to_hstring(t2 - t1));
    rd(REG_CLOCK_EFF_PERIOD_NS, v);
    check(unsigned(v) = 12, "effective period " & to_hstring(v));
    -- a snapshot's ns and fraction belong to the same step: with a period
    -- of 8 ns + 0x12345679 / 2^32 after a set to S, every snapshot V is
    -- S + n * period exactly (a fraction from another step is not)
    wr(REG_CLOCK_PERIOD_NS, x"00000008");
    wr(REG_CLOCK_PERIOD_FRAC, x"12345679");
    wr(REG_CLOCK_CTRL, x"00000004");
    wr(REG_CLOCK_SET_NS_HI, x"00000012");
    wr(REG_CLOCK_SET_NS_LO, x"34567000");
    wr(REG_CLOCK_SET_FRAC, x"9ABCDEF0");
    wr(REG_CLOCK_CTRL, x"00000001");
    for i in 1 to 5 loop
      read_time(t1);
      rd(REG_CLOCK_TIME_FRAC, v);
      snap := (t1 & unsigned(v)) - (x"0000001234567000" & x"9ABCDEF0");
      check(snap mod (x"08" & x"12345679") = 0 and snap < x"00000000000F424000000000",
            "snapshot " & to_hstring(t1) & "." & to_hstring(v) & " is not set + n * period");
      wait_ns(100 * i);
    end loop;
    wr(REG_CLOCK_PERIOD_FRAC, x"00000000");
    wr(REG_CLOCK_CTRL, x"00000004");

    -- events: one edge, then overflow of a 4-entry FIFO
    wr(REG_EVENT_CTRL, x"00000001");
    read_time(t1);
    ev0 <= '1'; wait_ns(200); ev0 <= '0'; wait_ns(200);
    read_time(t2);
    rd(REG_EVENT_STATUS, v);
    check(unsigned(v) = 1, "FIFO level after one edge: " & to_hstring(v));
    pop(st, info);
    check(info(31) = '1' and info(2 downto 0) = "000", "event info " & to_hstring(info));
    check(st > t1 and st < t2, "event stamp outside the bracketing reads");
    pop(st, info);
    check(info(31) = '0', "empty FIFO pop must say not valid");
    for i in 1 to 10 loop
      ev0 <= '1'; wait_ns(100); ev0 <= '0'; wait_ns(100);
    end loop;
    rd(REG_EVENT_OVERFLOWS, v);
    check(unsigned(v) = 6, "overflows after 10 edges into 4 entries: " & to_hstring(v));
    pop(st, info);
    check(unsigned(info(23 downto 8)) = 1, "first kept seq " & to_hstring(info));
    for i in 1 to 3 loop pop(st, info); end loop;
    check(unsigned(info(23 downto 8)) = 4, "last kept seq " & to_hstring(info));

    -- PPS report mode, glitch filter
    wr(REG_PPS_MIN_WIDTH, w(8));
    wr(REG_PPS_MIN_GAP_NS, w(1000));
    wr(REG_PPS_CTRL, w(PPS_CTRL_MODE_REPORT));
    read_time(t1);
    pps_in <= '1'; wait_ns(500); pps_in <= '0';
    -- the stamp is there once the servo has taken it and handed it to the
    -- register file (the glitch filter, the crossing, the gap test, the
    -- edge counter and the stamp's two words: about 1 us from the edge)
    blk := 0;
    loop
      rd(REG_PPS_STATUS, v);
      exit when v(PPS_STATUS_STAMP_NEW_LSB) = '1' or blk = 40;
      blk := blk + 1;
    end loop;
    report "PPS stamp_new seen at the " & integer'image(blk + 1) & "th status read after the edge";
    check(v(PPS_STATUS_STAMP_NEW_LSB) = '1', "stamp_new after a PPS edge");
    rd(REG_PPS_STAMP_NS_LO, lo);
    rd(REG_PPS_STAMP_NS_HI, hi);
    check(unsigned(hi & lo) > t1 and unsigned(hi & lo) < t1 + 2000, "PPS stamp " & to_hstring(hi & lo));
    rd(REG_PPS_STATUS, v);
    check(v(PPS_STATUS_STAMP_NEW_LSB) = '0', "stamp_new clears on read");
    wait_ns(2000);
    pps_in <= '1'; wait_ns(24); pps_in <= '0';     -- 3 clocks < min_width 8
    wait_ns(2000);
    rd(REG_PPS_GLITCHES, v);
    check(unsigned(v) = 1, "glitches " & to_hstring(v));
    rd(REG_PPS_EDGES, v);
    check(unsigned(v) = 1, "edges " & to_hstring(v));

    -- periodic output looped into event input 1: edges at start + k*period
    wr(REG_EVENT_CTRL, x"00000002");
    read_time(t1);
    exp := t1 + 3000;
    wr(REG_PEROUT_START_NS_LO, std_logic_vector(exp(31 downto 0)));
    wr(REG_PEROUT_START_NS_HI, std_logic_vector(exp(63 downto 32)));
    wr(REG_PEROUT_PERIOD_NS, w(1000));
    wr(REG_PEROUT_WIDTH_NS, w(400));
    wr(REG_PEROUT_CTRL, w(1));
    wait_ns(6000);
    wr(REG_PEROUT_CTRL, w(0));
    for k in 0 to 2 loop
      pop(st, info);
      check(info(31) = '1' and info(2 downto 0) = "001", "perout edge " & integer'image(k) & " missing");
      -- perout delay 2 + capture delay 2 clocks, exactly (synchronous loop)
      rd(REG_ID_FEATURES, v);
      check(st - (exp + k * 1000) = 8 * (to_integer(unsigned(v(15 downto 12))) +
                                         to_integer(unsigned(v(19 downto 16)))),
            "perout edge " & integer'image(k) & " late by " & to_hstring(st - (exp + k * 1000)));
      report "perout edge " & integer'image(k) & " seen " &
             integer'image(to_integer(st - (exp + k * 1000))) & " ns after its target";
    end loop;

    if errs = 0 then
      report "tb_clock_core: PASS";
    else
      report "tb_clock_core: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
