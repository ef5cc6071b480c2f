-- SPDX-License-Identifier: GPL-2.0-or-later
-- PCI 2.3 protocol checker for the GHDL testbenches: watches the resolved
-- bus and every agent's output enables, and stops the simulation (severity
-- failure) at the first clock that breaks a rule. Two agents: "m" (the
-- master model) and "t" (the target under test). Rules, by PCI 2.3 section:
--  3.2.1  FRAME# is deasserted only with IRDY# asserted; it is asserted
--         again only after the last data phase (idle or fast back-to-back).
--  3.2.1  IRDY#, and TRDY#/STOP#/DEVSEL# once asserted, hold until the data
--         phase completes (IRDY# & (TRDY# | STOP#)).
--  3.3.3  STOP# holds until FRAME# is deasserted; a master that saw STOP#
--         with FRAME# asserted deasserts FRAME# next; TRDY#/STOP#/DEVSEL#
--         are deasserted in the clock after the last data phase.
--  3.6.1  DEVSEL# before or with TRDY#/STOP#; the target's DEVSEL# comes
--         exactly DEVSEL_CLKS clocks after the address phase (medium = 2,
--         slow = 3), or DEVSEL_CLKS_2 clocks when that is not 0 (a bus with
--         two targets of different timing: the card and a memory model).
--  3.1.1  s/t/s signals are driven high one clock before release; no two
--         agents drive a line at once, nor in the clock after another
--         agent drove it (turnaround).
--  3.8    PAR is driven one clock after AD by the agent that drove AD and is
--         even parity over AD and C/BE#: strictly for the target; the
--         master's bad parity (injected on purpose) is counted instead.
--         PERR# only two clocks after a bad write data phase, SERR# only two
--         clocks after a bad address phase.
--  AD is driven (no X/Z) in address phases and completing data phases.
--  3.9    a dual address cycle (DAC command in the first address phase)
--         moves DEVSEL# and the master-abort limit one clock later.
--  With T_PAR_STRICT false (testbenches whose target model injects bad
--  read parity on purpose) wrong target PAR is counted, not fatal, and the
--  master's PERR# is allowed only two clocks after such a read data phase.
library ieee;
use ieee.std_logic_1164.all;

entity pci_checker is
  generic (DEVSEL_CLKS : positive := 2;
           DEVSEL_CLKS_2 : natural := 0;
           T_PAR_STRICT : boolean := true);
  port (
    clk, rst : in std_logic;
    -- resolved bus
    ad       : in std_logic_vector(31 downto 0);
    cbe_n    : in std_logic_vector(3 downto 0);
    par, frame_n, irdy_n, trdy_n, devsel_n, stop_n, perr_n, serr_n : in std_logic;
    -- output enables of the master model (m) and the target (t)
    m_ad_oe, m_par_oe, m_cbe_oe, m_frame_oe, m_irdy_oe : in std_logic;
    t_ad_oe, t_par_oe, t_trdy_oe, t_devsel_oe, t_stop_oe, t_perr_oe : in std_logic;
    m_perr_oe    : in std_logic := '0';   -- a master drives PERR# for read data
    -- counts for the testbench to compare with what it provoked
    m_par_errors : out natural;   -- master-driven PAR that was wrong
    t_par_errors : out natural;   -- target-driven PAR that was wrong (not strict)
    perr_seen    : out natural;   -- clocks PERR# was asserted
    serr_seen    : out natural;   -- clocks SERR# was asserted
    b2b_seen     : out natural;   -- fast back-to-back address phases
    checks       : out natural);  -- clocks checked
end entity;

architecture sim of pci_checker is
begin
  process (clk)
    -- values at the previous edge
    variable p_ad : std_logic_vector(31 downto 0);
    variable p_cbe : std_logic_vector(3 downto 0);
    variable p_frame, p_irdy, p_trdy, p_devsel, p_stop : std_logic := '1';
    variable p_m_ad, p_t_ad, p_m_par, p_t_par, p_t_perr : std_logic := '0';
    variable p_m_frame, p_m_irdy, p_t_trdy, p_t_devsel, p_t_stop : std_logic := '0';
    variable p_perr_v, p_frame_v, p_irdy_v : std_logic := '1';
    variable in_tx : boolean := false;
    variable since_addr : natural := 0;
    variable devsel_seen : boolean := false;
    -- parity bookkeeping: data phase / address phase two clocks ago
    variable addr_bad1, addr_bad2 : boolean := false;
    variable wr_bad1, wr_bad2 : boolean := false;
    variable rd_bad1, rd_bad2 : boolean := false;
    variable was_addr, was_wdata, was_rdata : boolean := false;
    variable n_mpar, n_tpar, n_perr, n_serr, n_chk, n_b2b : natural := 0;
    variable dac : natural := 0;   -- 1 in a dual address cycle
    variable done_phase, ended, p_done, p_ended : boolean := false;
    variable expect : std_logic;

    procedure fail (msg : string) is
    begin
      report "pci_checker: VIOLATION: " & msg severity failure;
    end procedure;

    function even_par (a : std_logic_vector; c : std_logic_vector) return std_logic is
      variable r : std_logic := '0';
    begin
      for i in a'range loop r := r xor a(i); end loop;
      for i in c'range loop r := r xor c(i); end loop;
      return r;
    end function;

    function driven (v : std_logic_vector) return boolean is
    begin
      return not is_x(v);
    end function;
  begin
    if rising_edge(clk) then
      if rst = '1' then
        in_tx := false;
        p_frame := '1'; p_irdy := '1'; p_trdy := '1'; p_devsel := '1'; p_stop := '1';
        p_m_ad := '0'; p_t_ad := '0'; p_m_par := '0'; p_t_par := '0'; p_t_perr := '0';
        p_m_frame := '0'; p_m_irdy := '0'; p_t_trdy := '0'; p_t_devsel := '0'; p_t_stop := '0';
        addr_bad1 := false; addr_bad2 := false; wr_bad1 := false; wr_bad2 := false;
        rd_bad1 := false; rd_bad2 := false; was_rdata := false;
        was_addr := false; was_wdata := false; p_done := false; p_ended := false;
      else
        n_chk := n_chk + 1;
        -- control lines have pull-ups: never X
        if is_x(frame_n) or is_x(irdy_n) or is_x(trdy_n) or is_x(devsel_n) or
           is_x(stop_n) or is_x(perr_n) or is_x(serr_n) then
          fail("a control line is X");
        end if;
        done_phase := irdy_n = '0' and (trdy_n = '0' or stop_n = '0');
        ended := done_phase and frame_n = '1';

        -- driving conflicts and turnarounds
        if m_ad_oe = '1' and t_ad_oe = '1' then fail("AD driven by master and target"); end if;
        if m_par_oe = '1' and t_par_oe = '1' then fail("PAR driven by master and target"); end if;
        if (m_ad_oe = '1' and p_t_ad = '1') or (t_ad_oe = '1' and p_m_ad = '1') then
          fail("AD: no turnaround clock between master and target");
        end if;
        if (m_par_oe = '1' and p_t_par = '1') or (t_par_oe = '1' and p_m_par = '1') then
          fail("PAR: no turnaround clock between master and target");
        end if;
        -- s/t/s: a line driven low is driven high for a clock before release
        if p_t_trdy = '1' and t_trdy_oe = '0' and p_trdy = '0' then fail("TRDY# released while low"); end if;
        if p_t_stop = '1' and t_stop_oe = '0' and p_stop = '0' then fail("STOP# released while low"); end if;
        if p_t_devsel = '1' and t_devsel_oe = '0' and p_devsel = '0' then fail("DEVSEL# released while low"); end if;
        if p_t_perr = '1' and t_perr_oe = '0' and p_perr_v = '0' then fail("PERR# released while low"); end if;
        if p_m_frame = '1' and m_frame_oe = '0' and p_frame = '0' then fail("FRAME# released while low"); end if;
        if p_m_irdy = '1' and m_irdy_oe = '0' and p_irdy = '0' then fail("IRDY# released while low"); end if;
        -- the target drives its lines only inside a transaction or the clock after
        if (t_trdy_oe = '1' or t_devsel_oe = '1' or t_stop_oe = '1') and not in_tx and not p_ended then
          fail("target drives TRDY#/DEVSEL#/STOP# outside a transaction");
        end if;

        -- FRAME#/IRDY#
        if p_frame = '0' and frame_n = '1' and irdy_n = '1' then
          fail("FRAME# deasserted without IRDY# asserted");
        end if;
        if p_frame = '1' and frame_n = '0' then
          -- a new address phase: only from idle or right after a last data phase
          if not (p_irdy = '1' or p_ended) then
            fail("FRAME# asserted again before the transaction ended");
          end if;
          if p_ended then
            n_b2b := n_b2b + 1;
          end if;
          if not driven(ad) or is_x(cbe_n) then fail("AD or C/BE# not driven in the address phase"); end if;
          in_tx := true;
          since_addr := 0;
          dac := 1 when cbe_n = "1101" else 0;
          devsel_seen := false;
        elsif in_tx then
          since_addr := since_addr + 1;
        end if;
        if p_irdy = '0' and not p_done and irdy_n = '1' then
          -- allowed only as the end of a master abort (no DEVSEL# for 5 clocks)
          if in_tx and not devsel_seen and since_addr >= 5 + dac and p_frame = '1' then
            in_tx := false;
          else
            fail("IRDY# deasserted before its data phase completed");
          end if;
        end if;

        -- target lines hold until the data phase completes
        if (p_trdy = '0' or p_stop = '0') and not p_done then
          if trdy_n /= p_trdy or stop_n /= p_stop or devsel_n /= p_devsel then
            fail("TRDY#/STOP#/DEVSEL# changed before the data phase completed");
          end if;
        end if;
        if p_stop = '0' and not p_ended and stop_n = '1' then
          fail("STOP# deasserted before FRAME# was");
        end if;
        if p_ended and (trdy_n = '0' or stop_n = '0' or devsel_n = '0') then
          fail("TRDY#/STOP#/DEVSEL# still asserted after the last data phase");
        end if;
        if p_stop = '0' and p_frame = '0' and p_irdy = '0' and frame_n = '0' then
          fail("master kept FRAME# asserted after STOP#");
        end if;
        if trdy_n = '0' and devsel_n = '1' then
          fail("TRDY# without DEVSEL#");
        end if;
        if stop_n = '0' and devsel_n = '1' and not devsel_seen then
          fail("STOP# without DEVSEL# ever asserted (target abort needs it first)");
        end if;
        if devsel_n = '0' and p_devsel = '1' and in_tx then
          if devsel_seen then fail("DEVSEL# asserted twice in one transaction"); end if;
          if since_addr /= DEVSEL_CLKS + dac and
             (DEVSEL_CLKS_2 = 0 or since_addr /= DEVSEL_CLKS_2 + dac) then
            fail("DEVSEL# " & integer'image(since_addr) & " clocks after the address phase, expected " &
                 integer'image(DEVSEL_CLKS + dac));
          end if;
          devsel_seen := true;
        end if;
        if done_phase and trdy_n = '0' and not driven(ad) then
          fail("AD not driven in a completing data phase");
        end if;

        -- parity (PAR now covers AD and C/BE# at the previous edge)
        rd_bad2 := rd_bad1;
        rd_bad1 := false;
        if t_par_oe = '1' then
          if p_t_ad = '0' then fail("target drives PAR without having driven AD"); end if;
          expect := even_par(p_ad, p_cbe);
          if is_x(expect) or par /= expect then
            if T_PAR_STRICT then
              fail("target PAR wrong");
            else
              n_tpar := n_tpar + 1;
              rd_bad1 := was_rdata;
            end if;
          end if;
        elsif p_t_ad = '1' then
          fail("target drove AD but not PAR one clock later");
        end if;
        addr_bad2 := addr_bad1;
        wr_bad2 := wr_bad1;
        addr_bad1 := false;
        wr_bad1 := false;
        if m_par_oe = '1' then
          if p_m_ad = '0' then fail("master drives PAR without having driven AD"); end if;
          if par /= even_par(p_ad, p_cbe) then
            n_mpar := n_mpar + 1;
            addr_bad1 := was_addr;
            wr_bad1 := was_wdata;
          end if;
        end if;
        if perr_n = '0' then
          n_perr := n_perr + 1;
          if t_perr_oe = '1' and not wr_bad2 then fail("PERR# without a bad write data phase"); end if;
          if m_perr_oe = '1' and not rd_bad2 then fail("master PERR# without a bad read data phase"); end if;
        end if;
        if serr_n = '0' then
          n_serr := n_serr + 1;
          if not addr_bad2 then fail("SERR# without a bad address phase"); end if;
        end if;
        was_addr := p_frame = '1' and frame_n = '0';
        was_wdata := done_phase and trdy_n = '0' and m_ad_oe = '1';
        was_rdata := done_phase and trdy_n = '0' and t_ad_oe = '1';
        if m_perr_oe = '1' and t_perr_oe = '1' then fail("PERR# driven by master and target"); end if;

        if ended then in_tx := false; end if;
      end if;
      p_ad := ad; p_cbe := cbe_n;
      p_frame := frame_n; p_irdy := irdy_n; p_trdy := trdy_n; p_devsel := devsel_n;
      p_stop := stop_n; p_perr_v := perr_n;
      p_m_ad := m_ad_oe; p_t_ad := t_ad_oe; p_m_par := m_par_oe; p_t_par := t_par_oe;
      p_t_perr := t_perr_oe; p_m_frame := m_frame_oe; p_m_irdy := m_irdy_oe;
      p_t_trdy := t_trdy_oe; p_t_devsel := t_devsel_oe; p_t_stop := t_stop_oe;
      p_done := irdy_n = '0' and (trdy_n = '0' or stop_n = '0');
      p_ended := p_done and frame_n = '1';
      m_par_errors <= n_mpar;
      t_par_errors <= n_tpar;
      perr_seen <= n_perr;
      serr_seen <= n_serr;
      b2b_seen <= n_b2b;
      checks <= n_chk;
    end if;
  end process;
end architecture;
