-- SPDX-License-Identifier: GPL-2.0-or-later
-- tb_timebase with its twin at the card's ADJ_FRAC => false (CARD_TWIN).
-- A file of its own because tests/hdl/netlist.sh binds tb_timebase to a
-- netlist synthesised at the default generics: this run is RTL only.
entity tb_timebase_card is
end entity;

architecture sim of tb_timebase_card is
begin
  tb : entity work.tb_timebase
    generic map (CARD_TWIN => true, NAME => "tb_timebase_card");
end architecture;
