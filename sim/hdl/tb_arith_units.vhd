-- SPDX-License-Identifier: GPL-2.0-or-later
-- Testbench of the servo's arithmetic against numeric_std reference results.
-- The remainder and the gain multiplier are no longer separate entities
-- (pps_servo does all per-edge arithmetic on one shared adder), so they are
-- checked through pps_servo's ports on edge cases and seeded random operands:
--   offset_ns = stamp mod interval, folded to +-interval/2
--   freq_adj  = sat(integ' - y_p), integ' = sat(integ - y_i), where
--   y = sign(err) * min((|err| * mant) >> shift, 2^31 - 1) and sat() clamps
--   to +-(2^31 - 1)
-- The thresholds are set so every edge takes the PI path (no step, no
-- rejection) and every stamp is accepted.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;
use work.clock_msg_pkg.all;

entity tb_arith_units is
end entity;

architecture sim of tb_arith_units is
  signal clk : std_logic := '0';
  signal rst : std_logic := '1';
  signal interval : unsigned(30 downto 0) := to_unsigned(1_000_000_000, 31);
  signal kp, ki : std_logic_vector(20 downto 0) := (others => '0');
  signal stamp_valid, req_ack : std_logic := '0';
  signal stamp : unsigned(63 downto 0) := (others => '0');
  signal accepted, step_req, freq_req, present : std_logic;
  -- the results as the servo hands them to the register RAM
  signal freq_adj, offset_ns : signed(31 downto 0) := (others => '0');
  signal state : std_logic_vector(1 downto 0);
  signal cnt_req, cnt_ack : std_logic := '0';
  signal cnt_sel : par_t;
  signal cnt_val : std_logic_vector(31 downto 0);
  signal done : boolean := false;
  signal par : par_t;
  signal par_q : std_logic_vector(31 downto 0) := (others => '0');
  -- a gain packed mant(20..5) & shift(4..0) as its register word
  function gain_word (g : std_logic_vector(20 downto 0)) return std_logic_vector is
  begin
    return x"00" & g(20 downto 5) & "000" & g(4 downto 0);
  end function;
begin
  -- the register file's parameter RAM: the register words, one clock late
  params : process (clk)
  begin
    if rising_edge(clk) then
      case par is
        when P_INTERVAL => par_q <= std_logic_vector(resize(interval, 32));
        when P_KP => par_q <= gain_word(kp);
        when P_KI => par_q <= gain_word(ki);
        when P_KF => par_q <= (others => '0');
        when P_LOCK => par_q <= std_logic_vector(to_unsigned(100, 32));
        when P_REJ | P_STEP | P_LOSS => par_q <= x"FFFFFFFF";
        when P_GAP => par_q <= (others => '0');
        when P_LCNT => par_q <= std_logic_vector(to_unsigned(4, 32));
        when P_EDGES | P_REJECTS | P_LOSSES | P_STEPS | P_GAPS => par_q <= (others => '0');
        -- the stamp's words, as the register file writes them from the
        -- PPS answer before it raises stamp_valid
        when P_PPS_LO => par_q <= std_logic_vector(stamp(31 downto 0));
        when P_PPS_HI => par_q <= std_logic_vector(stamp(63 downto 32));
        when others => par_q <= (others => 'X');
      end case;
      -- write-backs: taken (counter values are not checked here), the
      -- offset and frequency kept for the checks
      cnt_ack <= cnt_req and not cnt_ack;
      if cnt_req = '1' and cnt_ack = '0' then
        if cnt_sel = P_OFFSET then offset_ns <= signed(cnt_val); end if;
        if cnt_sel = P_FREQ then freq_adj <= signed(cnt_val); end if;
      end if;
    end if;
  end process;

  clk <= not clk after 5 ns when not done;

  dut : entity work.pps_servo
    port map (
      clk => clk, rst => rst, mode => "10", par => par, par_q => par_q,
      stamp_valid => stamp_valid, us_tick => '0',
      accepted => accepted, step_req => step_req,
      freq_req => freq_req, req_ack => req_ack,
      state => state, present => present,
      cnt_req => cnt_req, cnt_sel => cnt_sel,
      cnt_val => cnt_val, cnt_ack => cnt_ack);

  process
    variable errs : natural := 0;
    variable s1, s2 : positive := 7;
    variable u : real;
    variable integ_ref : signed(31 downto 0) := (others => '0');

    impure function rnd (bits : natural) return unsigned is
      variable v : unsigned(bits - 1 downto 0);
    begin
      for i in 0 to bits - 1 loop
        uniform(s1, s2, u);
        if u > 0.5 then v(i) := '1'; else v(i) := '0'; end if;
      end loop;
      return v;
    end function;

    -- the old gain_mul: sign(x) * min((|x| * mant) >> shift, 2^31 - 1)
    function mul_ref (xv : signed(31 downto 0); g : std_logic_vector(20 downto 0)) return signed is
      variable p : signed(48 downto 0);
    begin
      p := resize(abs(resize(xv, 49)) * signed('0' & unsigned(g(20 downto 5))), 49);
      p := shift_right(p, to_integer(unsigned(g(4 downto 0))));
      if p > 16#7FFFFFFF# then p := to_signed(16#7FFFFFFF#, 49); end if;
      if xv < 0 then return -resize(p, 32); end if;
      return resize(p, 32);
    end function;

    function sat_ref (a, b : signed(31 downto 0)) return signed is
      variable s : signed(32 downto 0);
    begin
      s := resize(a, 33) + resize(b, 33);
      if s > 16#7FFFFFFF# then return to_signed(16#7FFFFFFF#, 32); end if;
      if s < -16#7FFFFFFF# - 1 then return to_signed(-16#7FFFFFFF#, 32); end if;
      return resize(s, 32);
    end function;

    procedure reset is
    begin
      rst <= '1';
      wait until rising_edge(clk);
      rst <= '0';
      wait until rising_edge(clk);
      integ_ref := (others => '0');
    end procedure;

    -- one edge through the servo, with references for err and the PI sums
    procedure edge (dv : unsigned(63 downto 0); ds : unsigned(30 downto 0);
                    gi, gp : std_logic_vector(20 downto 0)) is
      variable r : unsigned(63 downto 0);
      variable e : signed(31 downto 0);
      variable f : signed(31 downto 0);
    begin
      stamp <= dv; interval <= ds; ki <= gi; kp <= gp;
      wait until rising_edge(clk);
      stamp_valid <= '1';
      wait until rising_edge(clk);
      stamp_valid <= '0';
      for i in 1 to 3000 loop         -- an edge takes ~550 clocks
        wait until rising_edge(clk);
        exit when freq_req = '1';
      end loop;
      r := dv mod resize(ds, 64);
      if r >= resize(ds / 2, 64) then
        e := signed(resize(r, 32)) - signed(resize(ds, 32));
      else
        e := signed(resize(r, 32));
      end if;
      integ_ref := sat_ref(integ_ref, -mul_ref(e, gi));
      f := sat_ref(integ_ref, -mul_ref(e, gp));
      if freq_req /= '1' then
        errs := errs + 1;
        report "FAIL no frequency request for " & to_hstring(dv) severity error;
      end if;
      if offset_ns /= e then
        errs := errs + 1;
        report "FAIL remainder " & to_hstring(dv) & " mod " & to_hstring(ds) & ": err " &
               integer'image(to_integer(offset_ns)) & ", want " & integer'image(to_integer(e))
               severity error;
      end if;
      if freq_adj /= f then
        errs := errs + 1;
        report "FAIL PI sum err " & integer'image(to_integer(e)) & " ki " & to_hstring(gi) &
               " kp " & to_hstring(gp) & ": freq_adj " & integer'image(to_integer(freq_adj)) &
               ", want " & integer'image(to_integer(f)) severity error;
      end if;
      req_ack <= '1';
      wait until rising_edge(clk);
      req_ack <= '0';
      -- the edge's work ends with the stamp's hand-over (its high word);
      -- a stamp that came before that would be dropped (servo.md)
      for i in 1 to 100 loop
        exit when cnt_req = '1' and cnt_ack = '0' and cnt_sel = P_STAMP_HI;
        wait until rising_edge(clk);
      end loop;
      wait until rising_edge(clk);
      wait until rising_edge(clk);
    end procedure;

    function g (m : natural; s : natural) return std_logic_vector is
    begin
      return std_logic_vector(to_unsigned(m, 16)) & std_logic_vector(to_unsigned(s, 5));
    end function;

    constant NS1 : unsigned(30 downto 0) := to_unsigned(1_000_000_000, 31);
    constant IMAX : unsigned(30 downto 0) := to_unsigned(16#7FFFFFFF#, 31);
  begin
    reset;
    -- remainder edge cases; kp only (ki = 0: the integrator stays 0)
    edge(x"0000000000000000", NS1, g(0, 0), g(16#180D#, 8));
    edge(x"FFFFFFFFFFFFFFFF", NS1, g(0, 0), g(16#180D#, 8));
    edge(x"FFFFFFFFFFFFFFFF", IMAX, g(0, 0), g(16#FFFF#, 0));
    edge(x"0000000000000005", to_unsigned(1, 31), g(0, 0), g(1, 0));
    edge(x"16C2A2D1B4A7B000", NS1, g(0, 0), g(16#225C#, 8));
    edge(x"000000003B9ACA00" + 1, NS1, g(0, 0), g(1, 0));          -- err +1
    edge(x"000000003B9ACA00" - 1, NS1, g(0, 0), g(1, 0));          -- err -1
    edge(x"000000003B9ACA00" - 1, NS1, g(0, 0), g(1, 1));          -- -1 >> 1
    edge(x"000000001DCD6500", NS1, g(0, 0), g(1, 0));              -- exactly I/2
    edge(x"000000001DCD64FF", NS1, g(0, 0), g(1, 0));              -- just below
    edge(x"0000000000000004", to_unsigned(9, 31), g(0, 0), g(1, 0)); -- odd interval
    edge(x"0000000000000005", to_unsigned(9, 31), g(0, 0), g(1, 0));
    -- products: saturation both ways, every shift
    edge(x"000000001DCD64FF", NS1, g(0, 0), g(16#FFFF#, 0));
    edge(x"000000001DCD6501", NS1, g(0, 0), g(16#FFFF#, 0));
    for s in 0 to 31 loop
      edge(x"00000000075BCD15", NS1, g(0, 0), g(16#ABCD#, s));    -- +123456789
      edge(x"0000000032A9F4EB", NS1, g(0, 0), g(16#ABCD#, s));    -- -123456789
    end loop;
    -- integrator: saturating sums both ways, then random operands
    for i in 1 to 4 loop
      edge(x"000000001DCD64FF", NS1, g(16#FFFF#, 2), g(16#FFFF#, 0));
    end loop;
    for i in 1 to 4 loop
      edge(x"000000001DCD6501", NS1, g(16#FFFF#, 3), g(16#8000#, 1));
    end loop;
    reset;
    for i in 1 to 300 loop
      edge(rnd(64), rnd(31) or to_unsigned(1, 31),
           std_logic_vector(rnd(21)), std_logic_vector(rnd(21)));
    end loop;
    -- the remainder over random intervals with small gains (no saturation)
    for i in 1 to 100 loop
      edge(rnd(64), rnd(31) or to_unsigned(1, 31), g(0, 0), g(to_integer(rnd(8)), 8));
    end loop;

    if errs = 0 then
      report "tb_arith_units: PASS";
    else
      report "tb_arith_units: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
