-- SPDX-License-Identifier: GPL-2.0-or-later
-- Messages between the bus clock domain (registers, servo) and the timebase
-- clock domain (counter, captures, perout). Internal to clock_core: they are
-- not software-visible, so they live here and not in the register map.
--
-- bus -> timebase: 5-bit address + 32-bit word (one cdc_handshake).
-- timebase -> bus: answers as 32-bit words, each with its destination
-- (kind & word number, 4 bits; one cdc_handshake of 36 bits). The words
-- of one answer are sent back to back, the last one completes it.
library ieee;
use ieee.std_logic_1164.all;
use work.synpcix_regs_pkg.all;

package clock_msg_pkg is
  constant MSG_W : natural := 37;
  subtype msg_addr_t is natural range 0 to 31;
  constant M_SET_LO    : msg_addr_t := 0;
  constant M_SET_HI    : msg_addr_t := 1;
  -- M_SET_FRAC and M_PER_FRAC are the SET and PERIOD commands themselves
  -- (session 8): sent last, the timebase starts on them while they wait in
  -- the crossing and reads their word there (clock_tb_domain go_*)
  constant M_SET_FRAC  : msg_addr_t := 2;
  constant M_ADJ_LO    : msg_addr_t := 3;
  constant M_ADJ_HI    : msg_addr_t := 4;
  constant M_PER_NS    : msg_addr_t := 5;
  constant M_PER_FRAC  : msg_addr_t := 6;
  constant M_CMD       : msg_addr_t := 7;   -- bits: see C_* below
  constant M_PPS_CFG   : msg_addr_t := 8;   -- pps.ctrl: 1..0 mode (enabled if /= 0), 2 falling
  constant M_EV_CFG    : msg_addr_t := 9;   -- 7..0 enable, 15..8 falling
  constant M_EV_MINW   : msg_addr_t := 10;
  constant M_PO_LO     : msg_addr_t := 11;
  constant M_PO_HI     : msg_addr_t := 12;
  constant M_PO_PERIOD : msg_addr_t := 13;
  constant M_PO_WIDTH  : msg_addr_t := 14;
  constant M_PO_ARM    : msg_addr_t := 15;  -- bit 0 enable
  constant M_PPS_MINW  : msg_addr_t := 16;  -- pps.min_width (15..0)

  -- C_SET and C_PERIOD are no longer sent (their fraction message starts
  -- them)
  constant C_SET      : natural := 0;
  constant C_ADJUST   : natural := 1;
  constant C_PERIOD   : natural := 2;
  constant C_SNAPSHOT : natural := 3;
  constant C_POP      : natural := 4;
  constant C_EVSTAT   : natural := 5;

  constant RESP_W : natural := 36;
  subtype dest_t is std_logic_vector(3 downto 0);
  -- snapshot: ns 31..0 (the time of the clock the word is taken), ns
  -- 63..32 of that clock, the fraction of that clock (last)
  constant D_TIME_LO   : dest_t := "0000";
  constant D_TIME_HI   : dest_t := "0001";
  constant D_TIME_FRAC : dest_t := "0010";
  -- event FIFO pop: stamp ns 31..0, 63..32, info word as in the register
  -- map (found, seq, channel) (last)
  constant D_EV_LO     : dest_t := "0100";
  constant D_EV_HI     : dest_t := "0101";
  constant D_EV_INFO   : dest_t := "0110";
  -- FIFO state: level, overflows (last)
  constant D_EV_LEVEL  : dest_t := "1000";
  constant D_EV_OVF    : dest_t := "1001";
  -- PPS stamp: ns 31..0, 63..32 (last); PPS filter: the glitch count
  -- (32 bits, wraps), an answer of its own whenever it changed
  constant D_PPS_LO     : dest_t := "1100";
  constant D_PPS_HI     : dest_t := "1101";
  constant D_PPS_FILT   : dest_t := "1110";

  -- The register file's own RAM words (clock_regs): no register may sit
  -- there (0x180..0x1A4 are outside every block of the clock core's map);
  -- reads of them are undefined accesses.
  constant SL_FIRST_OWN : natural := 16#180# / 4;
  constant SL_STEP_LO : natural := SL_FIRST_OWN + 1;  -- the servo's phase step
  constant SL_STEP_HI : natural := SL_FIRST_OWN + 2;
  constant SL_GAP     : natural := SL_FIRST_OWN + 4;  -- the servo's gap glitches
  constant SL_STLO    : natural := SL_FIRST_OWN + 5;  -- the servo's last accepted
  constant SL_STHI    : natural := SL_FIRST_OWN + 6;  -- stamp (copied on a read)
  constant SL_PPS_LO  : natural := SL_FIRST_OWN + 7;  -- the PPS stamp as it came
  constant SL_PPS_HI  : natural := SL_FIRST_OWN + 8;  -- (read by the servo)
  constant SL_FILT    : natural := SL_FIRST_OWN + 9;  -- the filter's glitch count
  constant SL_LAST_OWN  : natural := SL_FILT;
  -- M_CMD's words, one per command (C_*: bit C set), are constants of the
  -- RAM's upper half at 128 + SL_CMD_WORDS + C (session 13: no command
  -- word written, no source for it); a multiple of 8, so the command's
  -- number is ORed in; no register may sit at 0x1C0..0x1DC either (the
  -- reset copy puts the words there too)
  constant SL_CMD_WORDS : natural := 16#1C0# / 4;

  -- PPS servo parameters, read by pps_servo from the register RAM (a copy
  -- with its own read port, in clock_regs) when its sequencer needs them.
  -- Each P_* is the RAM word itself (register byte address / 4, or a word
  -- of the register file's own above), so neither the servo's parameter
  -- reads nor its write-backs go through a decode (session 6).
  subtype par_t is natural range 0 to 127;
  constant P_INTERVAL : par_t := REG_PPS_INTERVAL_NS / 4;
  constant P_KP       : par_t := REG_PPS_KP / 4;
  constant P_KI       : par_t := REG_PPS_KI / 4;
  constant P_KF       : par_t := REG_PPS_KF / 4;
  constant P_LOCK     : par_t := REG_PPS_LOCK_THRESH_NS / 4;
  constant P_REJ      : par_t := REG_PPS_REJECT_THRESH_NS / 4;
  constant P_STEP     : par_t := REG_PPS_STEP_THRESH_NS / 4;
  constant P_LOSS     : par_t := REG_PPS_LOSS_US / 4;
  constant P_GAP      : par_t := REG_PPS_MIN_GAP_NS / 4;
  constant P_LCNT     : par_t := REG_PPS_LOCK_COUNT / 4;
  -- event counters the servo keeps in the register RAM (read, add one
  -- on its adder, write back through cnt_req/cnt_ack)
  constant P_EDGES    : par_t := REG_PPS_EDGES / 4;
  constant P_REJECTS  : par_t := REG_PPS_REJECTS / 4;
  constant P_LOSSES   : par_t := REG_PPS_LOSSES / 4;
  constant P_STEPS    : par_t := REG_PPS_STEPS / 4;
  constant P_GAPS     : par_t := SL_GAP;  -- edges dropped by the minimum gap
  -- the PPS stamp as the register file wrote it from the answer (read)
  constant P_PPS_LO   : par_t := SL_PPS_LO;
  constant P_PPS_HI   : par_t := SL_PPS_HI;
  -- results the servo hands to the register RAM through the same port
  -- (cnt_req/cnt_sel/cnt_val: one 32-bit word at a time, from its adder's
  -- accumulator), so it keeps no output registers for them
  constant P_OFFSET   : par_t := REG_PPS_OFFSET_NS / 4;  -- pps.offset_ns
  constant P_FREQ     : par_t := REG_PPS_FREQ_ADJ / 4;   -- pps.freq_adj (before freq_req)
  constant P_STEP_LO  : par_t := SL_STEP_LO;  -- the phase step, bits 31..0, then
  constant P_STEP_HI  : par_t := SL_STEP_HI;  -- bits 63..32 (its sign), before step_req
  constant P_STAMP_LO : par_t := SL_STLO;  -- the accepted stamp, low word, then
  constant P_STAMP_HI : par_t := SL_STHI;  -- its high word (the pair is atomic)
end package;
