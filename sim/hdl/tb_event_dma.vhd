-- SPDX-License-Identifier: GPL-2.0-or-later
-- event_dma against a model of clock_core's event registers (a FIFO popped
-- by reading stamp_ns_lo, random 1..4-clock register latency) and a DMA
-- responder standing for initiator, bridge and memory (random accept and
-- completion delay; host memory at bus byte 0 (model_host_mem_pkg's
-- words), master abort beyond it, as an address nobody claims). An 8-entry ring (RING_LOG2 =
-- 3) at a base with junk in the ignored low bits: entries land in order
-- with the right words, the ring wraps, a full ring drops and counts
-- (nothing overwritten), host register accesses pass through unchanged
-- while the block works (the ring registers' too: clock_core answers them
-- 0, the block ORs ring_ctrl in), disable mid-entry finishes that entry and
-- takes no more, a DMA error stops the ring with dma_error and re-enabling
-- recovers. Every card write outside the ring's words 0..2 is an error.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;
use work.model_host_mem_pkg.all;
use work.synpcix_regs_pkg.all;

entity tb_event_dma is
end entity;

architecture tb of tb_event_dma is
  constant RL : natural := 3;
  constant NE : natural := 2 ** RL;
  constant RING_W : natural := 16#40#;            -- ring at host word 0x40 (byte 0x100)
  constant SCRATCH : natural := 16#04C#;          -- a clock-core register the host uses
  signal clk : std_logic := '0';
  signal rst : std_logic := '1';
  -- the poll pulse, every 16 clocks (on the card card_irq's every 64)
  signal h_valid, h_write, h_ready : std_logic := '0';
  -- the host's request; h_valid is it masked while h_ready is high, as the
  -- Verilator card model's master (sim/verilator/card_top.v) drives it: a
  -- block that needs valid in the ready clock fails here
  signal h_req : std_logic := '0';
  signal h_addr : std_logic_vector(11 downto 2) := (others => '0');
  signal h_wdata, h_rdata : std_logic_vector(31 downto 0) := (others => '0');
  signal c_valid, c_write, c_ready : std_logic := '0';
  signal c_addr : std_logic_vector(11 downto 2);
  signal c_rdata : std_logic_vector(31 downto 0) := (others => '0');
  signal d_valid : std_logic;
  signal d_ready, d_done : std_logic := '0';
  signal d_addr : std_logic_vector(29 downto 0);
  signal d_wd_data : std_logic_vector(31 downto 0);
  signal d_err : std_logic_vector(1 downto 0) := "00";
  signal n_requests, n_aborts, violations : natural := 0;
  signal done : boolean := false;
  -- host memory: model_host_mem_pkg's words, here at bus byte 0 (word w
  -- of the model = bus word address w); its guard fails any card write
  -- outside the ring's words 0..2

  -- the event FIFO of the modelled clock core holds event numbers
  -- n_popped .. n_pushed - 1 (event n's stamp is ns_of(n), info_of(n))
  signal n_pushed, n_popped : natural := 0;
  -- clock_core's ev_pending: the FIFO's level /= 0 three clocks late (the
  -- timebase domain's flip-flop and the bus domain's synchroniser)
  signal pend_dly : std_logic_vector(2 downto 0) := "000";
  signal ev_pending : std_logic;
  -- reads of event.status .. stamp_info (the block's own, and the host's
  -- pops)
  signal event_reads : natural := 0;
  signal ring_accesses : natural := 0;   -- host ring-register accesses the core answered
  signal fails : natural := 0;

  function ns_of (n : natural) return std_logic_vector is
    variable v : std_logic_vector(63 downto 0);
  begin
    v(63 downto 32) := std_logic_vector(to_unsigned(n + 16#100#, 32));
    v(31 downto 0) := std_logic_vector(to_unsigned(n * 7919 + 3, 32));
    return v;
  end function;

  function info_of (n : natural) return std_logic_vector is
    variable v : std_logic_vector(31 downto 0) := (others => '0');
  begin
    v(31) := '1';
    v(23 downto 8) := std_logic_vector(to_unsigned(n, 16));
    v(2 downto 0) := std_logic_vector(to_unsigned(n mod 2, 3));
    return v;
  end function;
begin
  clk <= not clk after 7.5 ns when not done;

  process (clk)
  begin
    if rising_edge(clk) then
      pend_dly <= pend_dly(1 downto 0) & "0";
      if n_pushed /= n_popped then
        pend_dly(0) <= '1';
      end if;
    end if;
  end process;
  ev_pending <= pend_dly(2);
  h_valid <= h_req and not h_ready;

  dut : entity work.event_dma
    generic map (RING_LOG2 => RL)
    port map (clk => clk, rst => rst, ev_pending => ev_pending, h_valid => h_valid, h_write => h_write,
              h_addr => h_addr, h_wdata => h_wdata, h_ready => h_ready, h_rdata => h_rdata,
              c_valid => c_valid, c_write => c_write, c_addr => c_addr,
              c_ready => c_ready, c_rdata => c_rdata,
              d_valid => d_valid, d_addr => d_addr,
              d_wd_data => d_wd_data, d_ready => d_ready, d_done => d_done, d_err => d_err);

  -- initiator + bridge + memory for one-word writes: accepted after 0..5
  -- clocks, done 1..4 clocks after the data phase
  host_dma : process
    variable s1 : positive := 17;
    variable s2 : positive := 3;
    variable r : real;
    variable a : natural;
    impure function rnd (n : natural) return natural is
    begin
      uniform(s1, s2, r);
      return integer(trunc(r * real(n + 1))) mod (n + 1);
    end function;
  begin
    wait until rising_edge(clk);
    if d_valid = '1' then
      for i in 1 to rnd(5) loop
        wait until rising_edge(clk);
      end loop;
      d_ready <= '1';
      wait until rising_edge(clk);
      d_ready <= '0';
      n_requests <= n_requests + 1;
      for i in 1 to rnd(3) + 1 loop
        wait until rising_edge(clk);
      end loop;
      if unsigned(d_addr) < HOST_WORDS then
        host.card_write(to_integer(unsigned(d_addr)), d_wd_data);
        d_err <= "00";
      else
        n_aborts <= n_aborts + 1;
        d_err <= "01";
      end if;
      d_done <= '1';
      wait until rising_edge(clk);
      d_done <= '0';
      d_err <= "00";
      assert d_valid = '0' report "tb_event_dma: request still valid after ready" severity error;
    end if;
  end process;

  -- clock_core's event registers: answers after 1..4 clocks, addr/valid
  -- must stay put meanwhile; reading stamp_ns_lo pops
  core : process
    variable s1 : positive := 5;
    variable s2 : positive := 9;
    variable r : real;
    variable a : std_logic_vector(11 downto 2);
    variable w : std_logic;
    variable lo, hi, info : std_logic_vector(31 downto 0) := (others => '0');
    variable n : natural;
    variable head : natural := 0;
    variable scr : std_logic_vector(31 downto 0) := (others => '0');
  begin
    wait until rising_edge(clk);
    c_ready <= '0';
    if c_valid = '1' and c_ready = '0' then
      a := c_addr;
      w := c_write;
      uniform(s1, s2, r);
      n := integer(trunc(r * 4.0));
      for i in 1 to n loop
        wait until rising_edge(clk);
        assert c_valid = '1' and c_addr = a and c_write = w
          report "tb_event_dma: register access changed before ready" severity error;
      end loop;
      c_rdata <= x"DEADBEEF";
      if unsigned(a) >= REG_EVENT_STATUS / 4 and unsigned(a) <= REG_EVENT_STAMP_INFO / 4 then
        event_reads <= event_reads + 1;
      end if;
      if unsigned(a) = REG_EVENT_STATUS / 4 then
        c_rdata <= std_logic_vector(to_unsigned(n_pushed - head, 32));
      elsif unsigned(a) = REG_EVENT_STAMP_NS_LO / 4 then
        if n_pushed /= head then
          lo := ns_of(head)(31 downto 0);
          hi := ns_of(head)(63 downto 32);
          info := info_of(head);
          head := head + 1;
          n_popped <= head;
        else
          lo := (others => '0'); hi := (others => '0'); info := (others => '0');
        end if;
        c_rdata <= lo;
      elsif unsigned(a) = REG_EVENT_STAMP_NS_HI / 4 then
        c_rdata <= hi;
      elsif unsigned(a) = REG_EVENT_STAMP_INFO / 4 then
        c_rdata <= info;
      elsif unsigned(a) >= REG_EVENT_RING_BASE / 4 and unsigned(a) <= REG_EVENT_RING_RD / 4 then
        -- clock_core answers the ring registers with a word it never
        -- writes (0) and ignores their writes; the block ORs ring_ctrl in
        c_rdata <= (others => '0');
        ring_accesses <= ring_accesses + 1;
      elsif unsigned(a) = SCRATCH / 4 then
        if w = '1' then
          scr := h_wdata;
        end if;
        c_rdata <= scr;
      end if;
      assert w = '0' or unsigned(a) = SCRATCH / 4 or
             (unsigned(a) >= REG_EVENT_RING_BASE / 4 and unsigned(a) <= REG_EVENT_RING_RD / 4)
        report "tb_event_dma: write reached the core at an unexpected address" severity error;
      c_ready <= '1';
    end if;
  end process;

  stim : process
    variable v : std_logic_vector(31 downto 0);
    variable nev : natural := 0;        -- events pushed so far
    variable cnt : natural := 0;        -- ring entries the driver has taken
    variable nfail : natural := 0;

    procedure clocks (n : natural) is
    begin
      for i in 1 to n loop
        wait until rising_edge(clk);
      end loop;
    end procedure;

    procedure reg (wr : std_logic; a : natural; d : std_logic_vector(31 downto 0);
                   q : out std_logic_vector(31 downto 0)) is
    begin
      h_req <= '1';
      h_write <= wr;
      h_addr <= std_logic_vector(to_unsigned(a / 4, 10));
      h_wdata <= d;
      loop
        wait until rising_edge(clk);
        exit when h_ready = '1';
      end loop;
      q := h_rdata;
      h_req <= '0';
      wait until rising_edge(clk);
    end procedure;

    procedure wr32 (a : natural; d : std_logic_vector(31 downto 0)) is
      variable q : std_logic_vector(31 downto 0);
    begin
      reg('1', a, d, q);
    end procedure;

    procedure rd32 (a : natural; q : out std_logic_vector(31 downto 0)) is
    begin
      reg('0', a, x"00000000", q);
    end procedure;

    procedure check (ok : boolean; msg : string) is
    begin
      if not ok then
        report "tb_event_dma: FAIL " & msg severity error;
        nfail := nfail + 1;
      end if;
    end procedure;

    procedure push (n : natural) is
    begin
      nev := nev + n;
      n_pushed <= nev;
      wait until rising_edge(clk);
    end procedure;

    -- the old register path: the host pops one stamp itself
    procedure host_pop (n : natural) is
      variable lo, hi, info : std_logic_vector(31 downto 0);
    begin
      rd32(REG_EVENT_STAMP_NS_LO, lo);
      rd32(REG_EVENT_STAMP_NS_HI, hi);
      rd32(REG_EVENT_STAMP_INFO, info);
      check(hi & lo = ns_of(n) and info = info_of(n), "host pop of event " & integer'image(n));
    end procedure;

    -- wait until the FIFO is empty and the block idle (ring_ctrl.busy = 0)
    procedure settle is
      variable q : std_logic_vector(31 downto 0);
    begin
      for i in 1 to 400 loop
        clocks(20);
        rd32(REG_EVENT_RING_CTRL, q);
        exit when q(EVENT_RING_CTRL_BUSY_LSB) = '0' and n_pushed = n_popped;
      end loop;
      clocks(40);
    end procedure;

    -- the driver: take n entries from its position (word 2 valid), check
    -- they are events first_ev.., clear word 2, advance ring_rd
    procedure take (n : natural; first_ev : natural) is
      variable w0, w1, w2 : std_logic_vector(31 downto 0);
      variable ix : natural;
    begin
      for i in 0 to n - 1 loop
        ix := RING_W + (cnt mod NE) * 4;
        w0 := host.read(ix); w1 := host.read(ix + 1); w2 := host.read(ix + 2);
        check(w1 & w0 = ns_of(first_ev + i), "entry " & integer'image(cnt) & " time");
        check(w2 = info_of(first_ev + i), "entry " & integer'image(cnt) & " info " & to_hstring(w2));
        host.write(ix + 2, x"00000000");
        cnt := cnt + 1;
      end loop;
      -- the entry after the last is not valid (cleared or never written)
      w2 := host.read(RING_W + (cnt mod NE) * 4 + 2);
      check(w2(31) = '0', "entry " & integer'image(cnt) & " valid before it was written");
      wr32(REG_EVENT_RING_RD, std_logic_vector(to_unsigned(cnt mod (2 * NE), 32)));
    end procedure;

    variable q : std_logic_vector(31 downto 0);
    variable n : natural;
  begin
    -- the ring: 8 entries x 4 words at word RING_W; words 0..2 written
    host.set_guard(RING_W, 4, NE, 0, 3);
    clocks(4);
    rst <= '0';
    clocks(4);

    rd32(REG_EVENT_RING_CTRL, q);
    check(unsigned(q(7 downto 4)) = RL and q(0) = '0' and q(1) = '0', "ctrl after reset " & to_hstring(q));
    check(q(31 downto 16) = x"0000" and q(15 downto 8) = x"00", "wr/overruns after reset " & to_hstring(q));
    rd32(REG_EVENT_RING_RD, q);
    check(q = x"00000000", "ring_rd (write only) read " & to_hstring(q));
    rd32(REG_EVENT_RING_BASE, q);
    check(q = x"00000000", "ring_base (write only) read " & to_hstring(q));
    -- disabled: the block leaves the FIFO alone
    push(1);
    clocks(200);
    check(n_popped = 0, "popped while disabled");
    host_pop(0);

    -- base byte 0x100 with junk in the ignored bits 6..0
    wr32(REG_EVENT_RING_BASE, x"0000017C");
    wr32(REG_EVENT_RING_RD, x"00000000");
    wr32(REG_EVENT_RING_CTRL, x"00000001");

    -- 5 events, host traffic to the core meanwhile
    push(5);
    for i in 0 to 30 loop
      wr32(SCRATCH, std_logic_vector(to_unsigned(i * 3 + 1, 32)));
      rd32(SCRATCH, q);
      check(unsigned(q) = i * 3 + 1, "host read through the block");
    end loop;
    settle;
    rd32(REG_EVENT_RING_CTRL, q);
    check(unsigned(q(31 downto 16)) = 5, "ring_ctrl.wr after 5: " & to_hstring(q));
    take(5, 1);

    -- enabled and idle with nothing pending: no access of its own (a host
    -- read must never wait behind one; cosim evring-idle-reads-do-not-wait)
    n := event_reads;
    clocks(600);
    check(event_reads = n, "event registers read " & integer'image(event_reads - n) &
          " times by an idle ring with nothing pending");

    -- 6 more: the ring wraps
    push(6);
    settle;
    take(6, 6);

    -- driver behind: 11 events into a ring with 8 free entries
    push(11);
    settle;
    rd32(REG_EVENT_RING_CTRL, q);
    check(unsigned(q(15 downto 8)) = 3, "overruns " & to_hstring(q));
    check(n_popped = n_pushed, "FIFO not drained while full");
    take(8, 12);
    rd32(REG_EVENT_RING_CTRL, q);
    check(unsigned(q(31 downto 16)) = cnt mod (2 * NE), "ring_ctrl.wr after overrun");
    -- the dropped ones: 20, 21, 22; the next goes in normally
    push(1);
    settle;
    take(1, 23);

    -- disable in the middle of an entry: that entry completes, no more
    push(1);
    for i in 1 to 2000 loop
      wait until rising_edge(clk);
      exit when d_valid = '1';
    end loop;
    check(d_valid = '1', "no DMA for the disable test");
    wr32(REG_EVENT_RING_CTRL, x"00000000");
    settle;
    rd32(REG_EVENT_RING_CTRL, q);
    check(q(1 downto 0) = "00", "still busy or enabled after disable");
    take(1, 24);
    push(1);
    clocks(300);
    check(n_pushed - n_popped = 1, "popped after disable");
    host_pop(25);

    -- DMA error: base outside host memory -> master abort
    wr32(REG_EVENT_RING_BASE, x"20000000");
    wr32(REG_EVENT_RING_RD, x"00000000");
    wr32(REG_EVENT_RING_CTRL, x"00000001");
    push(1);
    settle;
    rd32(REG_EVENT_RING_CTRL, q);
    check(q(2 downto 0) = "101", "dma_error not set / busy: " & to_hstring(q));
    check(n_popped = n_pushed, "the failed entry was not popped");
    push(1);
    clocks(300);
    check(n_pushed - n_popped = 1, "popped while stopped by an error");
    -- recover: disable, fix the base, enable (count restarts at 0)
    wr32(REG_EVENT_RING_CTRL, x"00000000");
    wr32(REG_EVENT_RING_BASE, x"00000100");
    for i in 0 to 4 * NE - 1 loop     -- the driver clears the ring first
      host.write(RING_W + i, x"00000000");
    end loop;
    wr32(REG_EVENT_RING_CTRL, x"00000001");
    rd32(REG_EVENT_RING_CTRL, q);
    check(q(2) = '0', "dma_error not cleared by enable");
    settle;
    cnt := 0;
    take(1, 27);
    rd32(REG_EVENT_RING_CTRL, q);
    check(unsigned(q(31 downto 16)) = 1, "ring_ctrl.wr after re-enable");

    check(host.violations = 0, "card wrote outside the ring");
    check(ring_accesses > 20, "ring registers not answered through clock_core: " &
          integer'image(ring_accesses));
    check(n_aborts = 1, "master aborts " & integer'image(n_aborts));
    report "tb_event_dma: " & integer'image(host.card_writes) & " ring words written, " &
           integer'image(n_requests) & " DMA requests";
    fails <= nfail;
    done <= true;
    if nfail = 0 then
      report "tb_event_dma: PASS";
    else
      report "tb_event_dma: FAIL (" & integer'image(nfail) & ")" severity failure;
    end if;
    wait;
  end process;
end architecture;
