#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Register map generator: outputs fresh, compile in both languages, bad
# descriptions rejected with a clear message and nothing written.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
suite_begin regmap
GEN="python3 $TOP/hdl/regmap/gen_regmap.py"
SRC="$TOP/hdl/regmap/synpcix.toml"
T="$BUILD/test-logs/regmap/tmp"
rm -rf "$T" && mkdir -p "$T"

$GEN "$SRC" --md "$T/registers.md"
if cmp -s "$T/registers.md" "$TOP/docs/registers.md"; then
	t_pass docs-registers-fresh
else
	t_fail docs-registers-fresh "docs/registers.md is stale: run 'make regmap' and commit it"
fi

t_run c-header-compiles sh -c "printf '#include \"synpcix_regs.h\"\nint main(void){return SYNPCIX_CLOCK_CTRL == 0;}\n' >'$T/h.c' &&
	cc -std=c11 -Wall -Wextra -Werror -I'$BUILD/gen' '$T/h.c' -o '$T/h' && '$T/h'"
t_run vhdl-package-analyses ghdl -a --std=08 --workdir="$T" "$BUILD/gen/synpcix_regs_pkg.vhd"

# The chain: walking NEXT from 0 must visit every block once, in order.
t_run block-chain-walk sh -c "cat >'$T/walk.c' <<'C'
#include <stdio.h>
#include \"synpcix_regs.h\"
int main(void)
{
	/* the generator's view of the chain, checked against the TOML order */
	unsigned bases[] = { SYNPCIX_ID_BASE, SYNPCIX_CLOCK_BASE, SYNPCIX_PPS_BASE,
			     SYNPCIX_EVENT_BASE, SYNPCIX_PEROUT_BASE, SYNPCIX_MSI_SLOTS_BASE,
			     SYNPCIX_DMA_BASE, SYNPCIX_IRQ_BASE };
	for (unsigned i = 1; i < sizeof(bases) / sizeof(bases[0]); i++)
		if (bases[i] <= bases[i - 1])
			return 1;
	return SYNPCIX_IRQ_BASE + 0x80 > SYNPCIX_RSV_DOORBELLS_BASE;
}
C
cc -std=c11 -Wall -Werror -I'$BUILD/gen' '$T/walk.c' -o '$T/walk' && '$T/walk' &&
grep -q 'PEROUT_NEXT_RESET : std_logic_vector(31 downto 0) := x\"00000200\"' '$BUILD/gen/synpcix_regs_pkg.vhd' &&
grep -q 'IRQ_NEXT_RESET : std_logic_vector(31 downto 0) := x\"00000000\"' '$BUILD/gen/synpcix_regs_pkg.vhd' &&
grep -q 'ID_NEXT_RESET : std_logic_vector(31 downto 0) := x\"00000040\"' '$BUILD/gen/synpcix_regs_pkg.vhd'"

# Bad descriptions: each must fail with the expected words and write nothing.
bad() { # name expected-text toml-body
	printf '%s\n' "$3" >"$T/$1.toml"
	rm -f "$T/$1.h"
	if $GEN "$T/$1.toml" --c "$T/$1.h" >"$T/$1.out" 2>&1; then
		t_fail "rejects-$1" "accepted a bad description"
	elif ! grep -q "$2" "$T/$1.out"; then
		t_fail "rejects-$1" "message lacks '$2': $(cat "$T/$1.out")"
	elif [ -e "$T/$1.h" ]; then
		t_fail "rejects-$1" "wrote output despite the error"
	else
		t_pass "rejects-$1"
	fi
}
HDR='[map]
bus_bytes = 4096
type_prefix = 0x5350
[[block]]
name = "id"
base = 0
type = 1
version = "1.0"'
bad overlap "already used" "$HDR
[[block.reg]]
name = \"a\"
offset = 0x10
access = \"ro\"
[[block.reg]]
name = \"b\"
offset = 0x10
access = \"rw\""
bad unaligned "4-aligned" "$HDR
[[block.reg]]
name = \"a\"
offset = 0x12
access = \"ro\""
bad header-clash ">= 0xC" "$HDR
[[block.reg]]
name = \"a\"
offset = 0x4
access = \"ro\""
bad field-range "outside 0..31" "$HDR
[[block.reg]]
name = \"a\"
offset = 0x10
access = \"ro\"
[[block.reg.fields]]
name = \"f\"
lsb = 30
width = 4"
bad field-overlap "overlaps another field" "$HDR
[[block.reg]]
name = \"a\"
offset = 0x10
access = \"ro\"
[[block.reg.fields]]
name = \"f\"
lsb = 0
width = 4
[[block.reg.fields]]
name = \"g\"
lsb = 3
width = 2"
bad access "not one of" "$HDR
[[block.reg]]
name = \"a\"
offset = 0x10
access = \"rwx\""
bad block-overlap "overlaps" "$HDR
[[reserved]]
name = \"r\"
base = 0x0
size = 0x40"
bad not-toml "not valid TOML" "[map
bus_bytes = 1"
bad missing-map "missing \\[map\\]" "x = 1"
if $GEN "$T/does-not-exist.toml" --c "$T/x.h" 2>"$T/nx.out"; then
	t_fail rejects-missing-file "accepted a missing file"
else
	grep -q "cannot read" "$T/nx.out" && t_pass rejects-missing-file ||
		t_fail rejects-missing-file "$(cat "$T/nx.out")"
fi
suite_end
