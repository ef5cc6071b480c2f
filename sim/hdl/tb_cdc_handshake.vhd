-- SPDX-License-Identifier: GPL-2.0-or-later
-- Testbench of cdc_handshake across two unrelated clocks (66.67 and 125 MHz,
-- both directions): every word arrives exactly once, in order, unchanged,
-- also when the receiver back-pressures with b_ready; while b_pending is
-- high b_data already holds the next word, and b_valid follows exactly the
-- clocks in which b_pending and b_ready were both high (the take). Every
-- third word is offered on the alternative input (a_alt, a_data_alt).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;

entity tb_cdc_handshake is
end entity;

architecture sim of tb_cdc_handshake is
  constant N : natural := 300;
  signal done : boolean := false;
  signal complete : std_logic_vector(0 to 1) := "00";
  -- direction 0: bus (66.67 MHz) to timebase (125 MHz); 1: the other way
  function half_period (dir : natural; side_a : boolean) return time is
  begin
    if (dir = 0) = side_a then return 7.5 ns; else return 4 ns; end if;
  end function;
begin
  dirs : for dir in 0 to 1 generate
    signal a_clk, b_clk : std_logic := '0';
    signal a_valid, a_ready, b_valid, b_ready, b_pending : std_logic := '0';
    signal a_data, b_data, a_data_alt : std_logic_vector(31 downto 0) := (others => '0');
    signal a_alt : std_logic := '0';
    signal received : natural := 0;
  begin
    a_clk <= not a_clk after half_period(dir, true) when not done;
    b_clk <= not b_clk after half_period(dir, false) when not done;

    dut : entity work.cdc_handshake
      generic map (WIDTH => 32)
      port map (a_clk => a_clk, a_rst => '0', a_valid => a_valid, a_data => a_data,
                a_alt => a_alt, a_data_alt => a_data_alt,
                a_ready => a_ready, b_clk => b_clk, b_rst => '0', b_ready => b_ready,
                b_valid => b_valid, b_pending => b_pending, b_data => b_data);

    send : process
      variable s1, s2 : positive := 3 + dir;
      variable u : real;
    begin
      wait until rising_edge(a_clk);
      for i in 1 to N loop
        -- every third word from the alternative input (a_alt), the other
        -- input then holding a wrong word
        if i mod 3 = 0 then
          a_alt <= '1';
          a_data_alt <= std_logic_vector(to_unsigned(i * 7919, 32));
          a_data <= not std_logic_vector(to_unsigned(i * 7919, 32));
        else
          a_alt <= '0';
          a_data <= std_logic_vector(to_unsigned(i * 7919, 32));
          a_data_alt <= not std_logic_vector(to_unsigned(i * 7919, 32));
        end if;
        a_valid <= '1';
        loop
          wait until rising_edge(a_clk);
          exit when a_ready = '1';
        end loop;
        a_valid <= '0';
        uniform(s1, s2, u);
        for k in 1 to integer(u * 3.0) loop wait until rising_edge(a_clk); end loop;
      end loop;
      wait;
    end process;

    recv : process
      variable s1, s2 : positive := 11 + dir;
      variable u : real;
      variable errs : natural := 0;
      variable took : std_logic := '0';
    begin
      while received < N loop
        wait until rising_edge(b_clk);
        if b_valid /= took then
          errs := errs + 1;
          report "FAIL dir " & integer'image(dir) & ": b_valid without a take, or a take lost"
            severity error;
        end if;
        if b_pending = '1' and
           b_data /= std_logic_vector(to_unsigned((received + 1) * 7919, 32)) then
          errs := errs + 1;
          report "FAIL dir " & integer'image(dir) & ": pending word " &
                 integer'image(received + 1) & " reads " & to_hstring(b_data) severity error;
        end if;
        took := b_pending and b_ready;
        uniform(s1, s2, u);
        if u < 0.3 then b_ready <= '0'; else b_ready <= '1'; end if;
        if b_valid = '1' then
          if b_data /= std_logic_vector(to_unsigned((received + 1) * 7919, 32)) then
            errs := errs + 1;
            report "FAIL dir " & integer'image(dir) & ": word " & integer'image(received + 1) &
                   " arrived as " & to_hstring(b_data) severity error;
          end if;
          received <= received + 1;
          wait for 0 ns;
        end if;
      end loop;
      -- nothing more may arrive
      for k in 1 to 50 loop
        wait until rising_edge(b_clk);
        if b_valid = '1' then
          errs := errs + 1;
          report "FAIL dir " & integer'image(dir) & ": extra word" severity error;
        end if;
      end loop;
      if errs /= 0 then
        report "tb_cdc_handshake: failures" severity failure;
      end if;
      complete(dir) <= '1';
      wait;
    end process;
  end generate;

  finish : process
  begin
    wait for 200 us;
    if complete = "11" then
      report "tb_cdc_handshake: PASS";
    else
      report "tb_cdc_handshake: not every word arrived" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
