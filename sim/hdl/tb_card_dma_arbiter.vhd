-- SPDX-License-Identifier: GPL-2.0-or-later
-- card_dma_arbiter with three requesters against model_dma_host (random
-- accept and read latency): random reads and writes of 1..16 words in each
-- requester's own region (and a few to an unmapped address), every written
-- word lands, every read word comes back to the requester that asked, in
-- order, every error goes to its requester and the error report; the port
-- never carries two requests at once.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use ieee.math_real.all;
use work.model_host_mem_pkg.all;

entity tb_card_dma_arbiter is
end entity;

architecture tb of tb_card_dma_arbiter is
  constant N : positive := 3;
  constant NREQS : positive := 60;
  signal clk : std_logic := '0';
  signal rst : std_logic := '1';
  signal r_valid, r_write, r_ready, r_wd_ready, r_rd_valid, r_done : std_logic_vector(N - 1 downto 0);
  signal r_addr    : std_logic_vector(N * 62 - 1 downto 0);
  signal r_len     : std_logic_vector(N * 5 - 1 downto 0);
  signal r_wd_data : std_logic_vector(N * 32 - 1 downto 0);
  signal rd_data   : std_logic_vector(31 downto 0);
  signal err, err_req : std_logic_vector(1 downto 0);
  signal err_valid : std_logic;
  signal dma_valid, dma_ready, dma_write, dma_wd_ready, dma_rd_valid, dma_done : std_logic;
  signal dma_addr  : std_logic_vector(63 downto 2);
  signal dma_len   : std_logic_vector(4 downto 0);
  signal dma_wd_data, dma_rd_data : std_logic_vector(31 downto 0);
  signal dma_err   : std_logic_vector(1 downto 0);
  signal n_requests, max_len : natural;
  type nat_n is array (0 to N - 1) of natural;
  signal fails, finished, errs_seen, err_reports : nat_n := (others => 0);
  signal overlap : natural := 0;
  signal done : boolean := false;
begin
  clk <= not clk after 15 ns when not done;

  dut : entity work.card_dma_arbiter
    generic map (N_REQ => N)
    port map (clk => clk, rst => rst, r_valid => r_valid, r_write => r_write,
              r_addr => r_addr, r_len => r_len, r_wd_data => r_wd_data,
              r_ready => r_ready, r_wd_ready => r_wd_ready, r_rd_valid => r_rd_valid,
              r_done => r_done, rd_data => rd_data, err => err, err_valid => err_valid,
              err_req => err_req, dma_valid => dma_valid, dma_ready => dma_ready,
              dma_write => dma_write, dma_addr => dma_addr, dma_len => dma_len,
              dma_wd_data => dma_wd_data, dma_wd_ready => dma_wd_ready,
              dma_rd_valid => dma_rd_valid, dma_rd_data => dma_rd_data,
              dma_done => dma_done, dma_err => dma_err);

  host_m : entity work.model_dma_host
    port map (clk => clk, dma_valid => dma_valid, dma_ready => dma_ready,
              dma_write => dma_write, dma_addr => dma_addr, dma_len => dma_len,
              dma_wd_data => dma_wd_data, dma_wd_ready => dma_wd_ready,
              dma_rd_valid => dma_rd_valid, dma_rd_data => dma_rd_data,
              dma_done => dma_done, dma_err => dma_err, n_requests => n_requests,
              max_len => max_len);

  -- the port carries one request at a time
  mon : process (clk)
    variable inflight : boolean := false;
  begin
    if rising_edge(clk) then
      if dma_valid = '1' and inflight and dma_ready = '0' then
        overlap <= overlap + 1;
      end if;
      if dma_ready = '1' then inflight := true; end if;
      if dma_done = '1' then inflight := false; end if;
      if err_valid = '1' then
        err_reports(to_integer(unsigned(err_req))) <= err_reports(to_integer(unsigned(err_req))) + 1;
      end if;
    end if;
  end process;

  req : for r in 0 to N - 1 generate
    p : process
      variable s1 : positive := 5 + r * 17;
      variable s2 : positive := 9;
      variable x : real;
      variable len, w, got, nf, ne : natural;
      variable wr, bad : boolean;
      variable a : unsigned(61 downto 0);
      variable exp : std_logic_vector(31 downto 0);

      impure function rnd (n : natural) return natural is
      begin
        uniform(s1, s2, x);
        return integer(trunc(x * real(n + 1))) mod (n + 1);
      end function;

      function pat (r, i, k : natural) return std_logic_vector is
      begin
        return std_logic_vector(to_unsigned(r * 16#1000000# + i * 256 + k, 32));
      end function;
    begin
      r_valid(r) <= '0';
      r_write(r) <= '0';
      wait until rst = '0';
      for i in 1 to NREQS loop
        for d in 1 to rnd(4) loop
          wait until rising_edge(clk);
        end loop;
        len := 1 + rnd(15);
        wr := rnd(1) = 1;
        bad := rnd(12) = 0;
        -- each requester owns 1024 words, 16-word aligned bursts stay in a page
        w := r * 1024 + 16 * rnd(63);
        if bad then
          a := to_unsigned(16#100#, 62);  -- nothing there: master abort
        else
          a := HOST_BASE_W + w;
          if not wr then
            for k in 0 to len - 1 loop
              host.write(w + k, pat(r, i, k) xor x"5A5A5A5A");
            end loop;
          end if;
        end if;
        r_addr(r * 62 + 61 downto r * 62) <= std_logic_vector(a);
        r_len(r * 5 + 4 downto r * 5) <= std_logic_vector(to_unsigned(len, 5));
        r_write(r) <= '1' when wr else '0';
        r_wd_data(r * 32 + 31 downto r * 32) <= pat(r, i, 0);
        r_valid(r) <= '1';
        loop
          wait until rising_edge(clk);
          exit when r_ready(r) = '1';
        end loop;
        r_valid(r) <= '0';
        got := 0;
        loop
          if r_wd_ready(r) = '1' then
            got := got + 1;
            r_wd_data(r * 32 + 31 downto r * 32) <= pat(r, i, got);
          end if;
          if r_rd_valid(r) = '1' then
            if rd_data /= (pat(r, i, got) xor x"5A5A5A5A") then
              nf := nf + 1;
              report "FAIL: requester " & integer'image(r) & " read word " & integer'image(got)
                     & " = " & to_hstring(rd_data) severity error;
            end if;
            got := got + 1;
          end if;
          exit when r_done(r) = '1';
          wait until rising_edge(clk);
        end loop;
        if bad then
          ne := ne + 1;
          if err /= "01" or got /= 0 then
            nf := nf + 1;
            report "FAIL: requester " & integer'image(r) & " abort not reported" severity error;
          end if;
        else
          if err /= "00" or got /= len then
            nf := nf + 1;
            report "FAIL: requester " & integer'image(r) & " request " & integer'image(i) &
                   ": " & integer'image(got) & " of " & integer'image(len) & " words, err " &
                   to_hstring(err) severity error;
          end if;
          if wr then
            for k in 0 to len - 1 loop
              if host.read(w + k) /= pat(r, i, k) then
                nf := nf + 1;
                report "FAIL: requester " & integer'image(r) & " wrote word " & integer'image(k)
                       & " wrong" severity error;
              end if;
            end loop;
          end if;
        end if;
        wait until rising_edge(clk);
      end loop;
      fails(r) <= nf;
      errs_seen(r) <= ne;
      finished(r) <= 1;
      wait;
    end process;
  end generate;

  stim : process
    variable total : natural := 0;
  begin
    host.set_guard(0, 1, HOST_WORDS, 0, 1);   -- every word may be written here
    wait for 100 ns;
    rst <= '0';
    loop
      wait until rising_edge(clk);
      exit when finished = (0 to N - 1 => 1);
    end loop;
    wait for 100 ns;
    for r in 0 to N - 1 loop
      total := total + fails(r);
      if err_reports(r) /= errs_seen(r) then
        total := total + 1;
        report "FAIL: requester " & integer'image(r) & ": " & integer'image(errs_seen(r)) &
               " aborts, " & integer'image(err_reports(r)) & " error reports" severity error;
      end if;
    end loop;
    if overlap /= 0 then
      total := total + 1;
      report "FAIL: two requests on the port at once" severity error;
    end if;
    if n_requests /= N * NREQS then
      total := total + 1;
      report "FAIL: " & integer'image(n_requests) & " requests reached the port" severity error;
    end if;
    if total = 0 then
      report "tb_card_dma_arbiter: " & integer'image(n_requests) & " requests, max burst " &
             integer'image(max_len);
      report "tb_card_dma_arbiter: PASS";
    else
      report "tb_card_dma_arbiter: " & integer'image(total) & " failures" severity failure;
    end if;
    done <= true;
    wait;
  end process;
end architecture;
