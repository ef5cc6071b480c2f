-- SPDX-License-Identifier: GPL-2.0-or-later
-- Host memory of the capture testbenches, shared by the DMA port model
-- (model_dma_host) and the testbench's own models (NIC, driver) through a
-- protected type. Word addressed; a window of HOST_WORDS words at word
-- address HOST_BASE_W (above 4 GiB, so every access is a dual address
-- cycle). One word can be made read-to-clear (the NIC's interrupt cause
-- register), and the card's writes can be confined to "guard" windows:
-- any card write elsewhere is counted as a violation.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

package model_host_mem_pkg is
  constant HOST_WORDS  : natural := 8192;
  constant HOST_BASE_W : unsigned(61 downto 0) := to_unsigned(16#0_4000_0000#, 62);  -- byte 0x1_0000_0000

  type host_mem_t is protected
    procedure write (w : natural; d : std_logic_vector(31 downto 0));
    impure function read (w : natural) return std_logic_vector;
    -- a read by the card: clears the read-to-clear word
    impure function card_read (w : natural) return std_logic_vector;
    -- a write by the card, checked against the guards
    procedure card_write (w : natural; d : std_logic_vector(31 downto 0));
    procedure set_rc (w : natural);
    procedure set_guard (first, words_per_entry, entries, field, field_words : natural);
    impure function violations return natural;
    impure function card_writes return natural;
  end protected;

  shared variable host : host_mem_t;

  -- word index in the model from a bus word address; -1 outside the window
  function host_index (a : unsigned(61 downto 0)) return integer;
end package;

package body model_host_mem_pkg is
  function host_index (a : unsigned(61 downto 0)) return integer is
  begin
    if a < HOST_BASE_W or a >= HOST_BASE_W + HOST_WORDS then
      return -1;
    end if;
    return to_integer(a - HOST_BASE_W);
  end function;

  type host_mem_t is protected body
    type words_t is array (0 to HOST_WORDS - 1) of std_logic_vector(31 downto 0);
    variable m : words_t := (others => (others => '0'));
    variable rc : integer := -1;
    variable g_first, g_wpe, g_n, g_field, g_fw : natural := 0;
    variable n_viol, n_wr : natural := 0;

    procedure write (w : natural; d : std_logic_vector(31 downto 0)) is
    begin
      m(w) := d;
    end procedure;

    impure function read (w : natural) return std_logic_vector is
    begin
      return m(w);
    end function;

    impure function card_read (w : natural) return std_logic_vector is
      variable d : std_logic_vector(31 downto 0);
    begin
      d := m(w);
      if w = rc then
        m(w) := (others => '0');
      end if;
      return d;
    end function;

    procedure card_write (w : natural; d : std_logic_vector(31 downto 0)) is
      variable rel : integer;
    begin
      n_wr := n_wr + 1;
      rel := w - g_first;
      if g_wpe = 0 or rel < 0 or rel >= g_wpe * g_n or
         (rel mod g_wpe) < g_field or (rel mod g_wpe) >= g_field + g_fw then
        n_viol := n_viol + 1;
        report "model_host_mem: card write outside the stamp fields at word " &
               integer'image(w) severity error;
      end if;
      m(w) := d;
    end procedure;

    procedure set_rc (w : natural) is
    begin
      rc := w;
    end procedure;

    procedure set_guard (first, words_per_entry, entries, field, field_words : natural) is
    begin
      g_first := first;
      g_wpe := words_per_entry;
      g_n := entries;
      g_field := field;
      g_fw := field_words;
    end procedure;

    impure function violations return natural is
    begin
      return n_viol;
    end function;

    impure function card_writes return natural is
    begin
      return n_wr;
    end function;
  end protected body;
end package body;
