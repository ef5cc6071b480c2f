# SPDX-License-Identifier: GPL-2.0-or-later
# nextpnr-ice40 --pre-place script: fix the timebase domain's staged-word
# block RAMs (clock_tb_domain st_a_nrw / st_b_nrw) at two RAM sites of the
# right-hand RAM column, beside where the placer puts the timebase's top
# chunks that read them.
#
# Why: their read registers feed the top chunks' 16-bit data + carry
# chains (timebase `dinc`, clock_tb_domain st_qa / st_qb), whose carry out
# is a flip-flop: the RAM's clock-to-out (2.1 ns) + route + chain left
# little for the route. All 32 RAMs of the HX8K are used, so these two got
# whichever site was left, 10 - 26 tiles from the chain: that route
# (2.5 - 3.4 ns) was tb_clk's worst path of the PCI board at seeds 2, 1
# and 3 of session 21's tree (7.5 - 8.1 ns, 124.07 MHz at seed 2). Fixed
# here, the placer brings the chains to them (docs/bitstream.md
# "Session 21"). A netlist without these RAMs is left alone.
# Both boards (session 22): the RAMs are matched by their name inside the
# clock core (tbd.st_a_nrw), wherever the board puts the core. The hx8k
# board (the clock core alone, a third of the chip) missed 125 MHz at its
# seed 2 on the same path (123.21 MHz, the RAM 2.76 ns from the chain).
SITES = {"tbd.st_a_nrw": "X25/Y13/ram",
         "tbd.st_b_nrw": "X25/Y15/ram"}

n = 0
for name, cell in ctx.cells:
    if cell.type != "ICESTORM_RAM":
        continue
    for part, bel in SITES.items():
        if "." + part + "." in "." + str(name):
            cell.setAttr("BEL", bel)
            n += 1
print("tb_st_rams: %d staged-word RAMs fixed" % n)
