-- SPDX-License-Identifier: GPL-2.0-or-later
-- card_irq alone: raise one clock after a request, one slot per clock,
-- masked requests pending and raised on unmask, moderation gap respected
-- (never closer than units * 64 clocks, never later than
-- (units + 1) * 64 + N_SLOTS + 1 clocks) under a request every 10 clocks,
-- the gap of one slot not holding back another, and the INTx acknowledge:
-- status set by each raise, cleared by clear (a raise in the clock of the
-- clear wins), intx = an unmasked status bit.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_card_irq is
end entity;

architecture tb of tb_card_irq is
  signal clk  : std_logic := '0';
  signal rst  : std_logic := '1';
  signal ev_valid : std_logic := '0';
  signal ev_slot  : std_logic_vector(2 downto 0) := "000";
  signal mask     : std_logic_vector(3 downto 0) := "0000";
  signal gap      : std_logic_vector(7 downto 0) := x"00";
  signal raise, pending, status : std_logic_vector(3 downto 0);
  signal clear    : std_logic_vector(3 downto 0) := "0000";
  signal intx     : std_logic;
  signal done     : boolean := false;
  signal cyc      : natural := 0;
  type nat4 is array (0 to 3) of integer;
  signal last_raise : nat4 := (others => -100000);
  signal n_raise    : nat4 := (others => 0);
  signal min_gap    : nat4 := (others => 1000000);
  signal max_gap    : nat4 := (others => 0);
  signal multi      : boolean := false;
  signal meas_from  : integer := 0;  -- gaps between raises after this cycle
begin
  clk <= not clk after 15 ns when not done;

  dut : entity work.card_irq
    generic map (N_SLOTS => 4)
    port map (clk => clk, rst => rst, ev_valid => ev_valid, ev_slot => ev_slot,
              mask => mask, gap_units => gap, clear => clear, raise => raise,
              pending => pending, status => status, intx => intx);

  mon : process (clk)
    variable n : natural;
  begin
    if rising_edge(clk) then
      cyc <= cyc + 1;
      n := 0;
      for i in 0 to 3 loop
        if raise(i) = '1' then
          n := n + 1;
          n_raise(i) <= n_raise(i) + 1;
          if cyc - last_raise(i) < min_gap(i) then min_gap(i) <= cyc - last_raise(i); end if;
          if cyc - last_raise(i) > max_gap(i) and last_raise(i) >= meas_from then
            max_gap(i) <= cyc - last_raise(i);
          end if;
          last_raise(i) <= cyc;
        end if;
      end loop;
      if n > 1 then multi <= true; end if;
    end if;
  end process;

  stim : process
    variable errs : natural := 0;
    variable c0 : natural;

    procedure check (cond : boolean; msg : string) is
    begin
      if not cond then
        errs := errs + 1;
        report "FAIL: " & msg severity error;
      end if;
    end procedure;

    procedure req (s : natural) is
    begin
      ev_valid <= '1';
      ev_slot <= std_logic_vector(to_unsigned(s, 3));
      wait until rising_edge(clk);
      ev_valid <= '0';
    end procedure;

    procedure clocks (n : natural) is
    begin
      for i in 1 to n loop
        wait until rising_edge(clk);
      end loop;
    end procedure;
  begin
    clocks(3);
    rst <= '0';
    clocks(3);

    -- no moderation: raise the clock after the request
    wait until rising_edge(clk);
    req(2);
    wait for 1 ns;
    check(pending(2) = '1' and raise = "0000", "request not pending at once");
    wait until rising_edge(clk);
    wait for 1 ns;
    check(raise = "0100", "slot 2 not raised one clock after its request: " & to_hstring(raise));
    wait until rising_edge(clk);
    wait for 1 ns;
    check(raise = "0000" and pending = "0000", "raise longer than one clock or still pending");

    -- two slots requested together come out on consecutive clocks
    ev_valid <= '1';
    ev_slot <= "001";
    wait until rising_edge(clk);
    ev_slot <= "011";
    wait until rising_edge(clk);
    ev_valid <= '0';
    clocks(4);
    check(n_raise(1) = 1 and n_raise(3) = 1, "slots 1 and 3 not both raised");
    check(not multi, "two slots raised in one clock");

    -- masked: pending, no raise; unmask raises once for three requests
    mask <= "0001";
    wait until rising_edge(clk);
    req(0);
    clocks(2);
    req(0);
    req(0);
    clocks(20);
    check(n_raise(0) = 0, "masked slot raised");
    check(pending(0) = '1', "masked request not pending");
    mask <= "0000";
    clocks(3);
    check(n_raise(0) = 1 and pending(0) = '0', "unmask did not raise exactly once");

    -- moderation: gap 4 units = 256 clocks, a request every 10 clocks
    gap <= x"04";
    clocks(400);
    c0 := n_raise(0);
    meas_from <= cyc;
    for i in 1 to 300 loop
      req(0);
      clocks(9);
    end loop;
    clocks(400);
    check(min_gap(0) >= 256, "raises " & integer'image(min_gap(0)) & " clocks apart, gap is 256");
    check(max_gap(0) <= 256 + 64 + 4 + 1, "raises " & integer'image(max_gap(0)) & " clocks apart under steady requests");
    check(n_raise(0) - c0 >= 3000 / 330 and n_raise(0) - c0 <= 3000 / 256 + 2,
          integer'image(n_raise(0) - c0) & " raises in 3000 clocks");
    check(pending = "0000", "request left pending after the gap");
    report "tb_card_irq: moderated raises " & integer'image(n_raise(0) - c0) & ", gap " &
           integer'image(min_gap(0)) & " .. " & integer'image(max_gap(0)) & " clocks";

    -- one slot's gap does not hold back another's raise
    c0 := n_raise(1);
    req(3);
    clocks(3);
    req(3);
    req(1);
    clocks(3);
    check(n_raise(1) = c0 + 1, "slot 1 not raised while slot 3 is inside its gap");
    check(pending = "1000", "slot 3 not held pending by its gap: " & to_hstring(pending));
    clocks(400);
    check(pending = "0000", "slot 3 still pending after its gap");

    -- INTx acknowledge: status set by raises, cleared by writes of 1s
    gap <= x"00";
    wait until rising_edge(clk);
    check(status = "1111" and intx = '1', "status after raises of every slot: " & to_hstring(status));
    clear <= "1111";
    wait until rising_edge(clk);
    clear <= "0000";
    wait for 1 ns;
    check(status = "0000" and intx = '0', "clear left status " & to_hstring(status));
    req(1);
    wait until rising_edge(clk);
    wait for 1 ns;
    check(raise = "0010" and status = "0010" and intx = '1',
          "status/intx not set with the raise: " & to_hstring(status));
    mask <= "0010";
    wait for 1 ns;
    check(intx = '0' and status = "0010", "masked status bit asserts intx");
    mask <= "0000";
    wait for 1 ns;
    check(intx = '1', "unmasked status bit does not assert intx");
    clear <= "0100";
    wait until rising_edge(clk);
    clear <= "0000";
    wait for 1 ns;
    check(status = "0010" and intx = '1', "clear of another slot cleared slot 1");
    -- a raise in the clock of the clear keeps the bit set
    req(1);
    clear <= "0010";
    wait until rising_edge(clk);
    clear <= "0000";
    wait for 1 ns;
    check(raise = "0010" and status = "0010" and intx = '1', "clear beat the raise in its clock");
    clear <= "0010";
    wait until rising_edge(clk);
    clear <= "0000";
    wait for 1 ns;
    check(status = "0000" and intx = '0', "slot 1 not cleared");
    if errs = 0 then
      report "tb_card_irq: PASS";
    else
      report "tb_card_irq: " & integer'image(errs) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
