# SPDX-License-Identifier: GPL-2.0-or-later
#
# Repairs the Verilog that Debian's GHDL 2.0 writes (`ghdl --synth
# --out=verilog`) so that Yosys (and Verilator) read it as GHDL meant it.
# Usage: awk -f ghdl_verilog_fix.awk DESIGN.vhd DESIGN.v >FIXED.v
#   DESIGN.vhd: the same design written by `ghdl --synth` (VHDL netlist),
#   used only to recover what the Verilog writer drops (fix 1).
#
#  1. Parallel muxes lose their default. GHDL writes a VHDL case as a case on
#     a one-hot selector; the "when others" value is a separate input that
#     GHDL 2.0's Verilog writer omits (later GHDL prints it). Without it
#     Yosys infers a latch per mux and ABC "breaks loops" through them, and
#     the logic is wrong whenever no item matches. The VHDL netlist has the
#     same net names and prints the default (`X when others;`): it is put
#     back as `default:`. A case whose default cannot be found stops the
#     flow rather than being guessed.
#  2. abs() comes out in VHDL syntax (`n1_o <= std_logic_vector(abs
#     $signed(n0_o));`): rewritten as the Verilog equivalent (same width;
#     like numeric_std, the most negative value maps to itself).
#  3. Every unbound component (SB_IO, SB_PLL40_CORE, ...) gets an empty
#     module; left in, Yosys would use it instead of its cell library. Every
#     `module SB_*` ... `endmodule` is dropped.
#  5. Wide constants come out as VHDL bit strings ("0101..."); in Verilog a
#     quoted string is ASCII, 8 bits a character, so the value is silently
#     wrong (the timebase's reset period was). They become N'b0101...
#  6. A net named like an instance port that collides with a signal of the
#     same name is declared twice and self-assigned (`assign x = x;`): the
#     identical repeat and the self-assignment are dropped; a differing
#     repeat stops the flow.
#  7. Yosys (>= 0.18, memory_libmap) keeps a RAM's "read gives the old word
#     when the same address is written in that clock" with soft logic: a
#     register of the write data and address and a multiplexer on the read
#     data, one flip-flop and one LUT per data bit (the iCE40 block RAM does
#     not define that case). A memory whose VHDL name ends in `_nrw` is
#     declared by its design never to depend on that word (its header says
#     why): it gets Yosys' `(* no_rw_check *)` and no such logic. GHDL does
#     not pass VHDL attributes into the Verilog, hence the name.
#  8. One-hot cases compare their whole selector. A VHDL case becomes a
#     Verilog case on a selector made of one equality compare per choice
#     (`{s == 3'b100, s == 3'b010, ...}`, or an OR of such compares for
#     `when A | B`), with items 5'b10000, 5'b01000, ...; Yosys matches every
#     item against all selector bits. When the selector is proven one-hot
#     here — a concatenation whose every bit is a compare (or an OR of
#     compares) of one and the same expression against constants that are
#     all different, so at most one bit can be 1 — the case becomes
#     `(* parallel_case *) casez` with the items' zeros as `?`: the same
#     function, each item testing its own bit (Verilator's CASEOVERLAP
#     warning waived around it: the patterns overlap, the values cannot).
#     A case whose selector is
#     not proven stays as it is. (Session 6: the stamp engine 1650 -> 1575
#     cells, the whole card -69; Yosys' equiv passes proved the engine
#     equal before and after.)
#  4. String generics come out as bit vectors, 8 bits a character
#     ("SIMPLE" -> 48'b0101...); the iCE40 primitives' string parameters are
#     turned back into Verilog strings (nextpnr otherwise dies in stoi), so
#     the value is typed once, in the VHDL board top.
# Exit status 1 on anything it cannot repair faithfully.

function die(msg) {
	print "ghdl_verilog_fix: " msg > "/dev/stderr"
	bad = 1
}

# a VHDL netlist expression (GHDL's forms) as Verilog
function v_expr(e,    c, n, parts) {
	if (e ~ /^[A-Za-z_][A-Za-z0-9_]*$/)
		return e
	if (e ~ /^'[01XZ]'$/)
		return "1'b" tolower(substr(e, 2, 1))
	if (e ~ /^"[01XZ]+"$/)
		return (length(e) - 2) "'b" tolower(substr(e, 2, length(e) - 2))
	if (e ~ /^\([0-9]+ downto 0 => '[01XZ]'\)$/) {
		n = substr(e, 2) + 1
		c = substr(e, length(e) - 2, 1)
		return "{" n "{1'b" tolower(c) "}}"
	}
	if (e ~ /^[A-Za-z_][A-Za-z0-9_]* \([0-9]+ downto [0-9]+\)$/) {
		split(e, parts, /[ ()]+/)
		return parts[1] "[" parts[2] ":" parts[4] "]"
	}
	return ""
}

BEGIN {
	strparams = "FEEDBACK_PATH PLLOUT_SELECT PLLOUT_SELECT_PORTA PLLOUT_SELECT_PORTB " \
	            "DELAY_ADJUSTMENT_MODE_FEEDBACK DELAY_ADJUSTMENT_MODE_RELATIVE IO_STANDARD"
	n = split(strparams, names, " ")
	for (i = 1; i <= n; i++)
		isstr[names[i]] = 1
	bad = 0
}

# ---- pass 1: the VHDL netlist, defaults of the selected assignments
FNR == NR {
	if ($1 == "architecture" && $3 == "of" && $5 == "is")
		vmod = $4       # GHDL writes the top's entity first, its body last
	else if ($1 == "with" && $3 == "select" && $5 == "<=")
		vout = $4
	else if (vout != "" && $0 ~ / when others;$/) {
		e = $0
		sub(/^ +/, "", e)
		sub(/ when others;$/, "", e)
		d = v_expr(e)
		if (d == "")
			die("cannot translate default '" e "' of " vmod "." vout)
		else
			dflt[vmod "." vout] = d
		vout = ""
	}
	next
}

# ---- pass 2: the Verilog
/^module / {
	mod = $2
	sub(/\(.*/, "", mod)
	split("", decl)
}

/^module SB_/ { skip = 1 }
skip {
	if ($0 ~ /^endmodule/)
		skip = 0
	next
}

# fix 8 (inputs): the selector's parts, single-bit compares and ORs
/^  assign [A-Za-z_][A-Za-z0-9_]* = \{[A-Za-z_][A-Za-z0-9_]*(, [A-Za-z_][A-Za-z0-9_]*)*\};$/ {
	v = $0
	sub(/^[^{]*\{/, "", v)
	sub(/\};$/, "", v)
	cat[mod "." $2] = v
}
/^  assign [A-Za-z_][A-Za-z0-9_]* = [A-Za-z_][A-Za-z0-9_]* == [0-9]+'b[01]+;$/ {
	cmpx[mod "." $2] = $4
	cmpk[mod "." $2] = $6
}
/^  assign [A-Za-z_][A-Za-z0-9_]* = [A-Za-z_][A-Za-z0-9_]* \| [A-Za-z_][A-Za-z0-9_]*;$/ {
	ora[mod "." $2] = $4
	orb[mod "." $2] = substr($6, 1, length($6) - 1)
}

# the constants a selector bit compares against ("" when not a compare or
# an OR of compares); every compare's expression must be sel_x
function onehot_keys(net, depth,    ka, kb) {
	if (depth > 16)
		return ""
	if ((mod "." net) in cmpx) {
		if (sel_x == "")
			sel_x = cmpx[mod "." net]
		return cmpx[mod "." net] == sel_x ? cmpk[mod "." net] : ""
	}
	if ((mod "." net) in ora) {
		ka = onehot_keys(ora[mod "." net], depth + 1)
		if (ka == "")
			return ""
		kb = onehot_keys(orb[mod "." net], depth + 1)
		return kb == "" ? "" : ka " " kb
	}
	return ""
}

# a case's selector is one-hot: every bit a compare (or OR of compares) of
# one expression against constants all different from each other
function onehot_sel(sel,    n, parts, i, k, nk, keys, j, seen) {
	if (!((mod "." sel) in cat))
		return 0
	sel_x = ""
	n = split(cat[mod "." sel], parts, /, /)
	split("", seen)
	for (i = 1; i <= n; i++) {
		k = onehot_keys(parts[i], 0)
		if (k == "")
			return 0
		nk = split(k, keys, / /)
		for (j = 1; j <= nk; j++) {
			if (keys[j] in seen)
				return 0
			seen[keys[j]] = 1
		}
	}
	return n
}

# fix 1: remember the case's output, add the default before endcase; fix 8:
# the case is held until endcase and rewritten when its selector is one-hot
/^    case \(/ {
	incase = 1
	cout = ""
	nitem = 0
	csel = $0
	sub(/^    case \(/, "", csel)
	sub(/\).*/, "", csel)
	chead = $0
	next
}
incase && /^      [0-9]+'b[01]+: / {
	cout = $2
	item[++nitem] = $0
	next
}
incase && !/^    endcase$/ {
	die(mod ": a case line not understood: " substr($0, 1, 100))
	next
}
incase && /^    endcase$/ {
	incase = 0
	w = no_onehot ? 0 : onehot_sel(csel)	# -v no_onehot=1: fix 8 off (its test)
	for (i = 1; i <= nitem && w; i++) {
		b = item[i]
		sub(/^      [0-9]+'b/, "", b)
		sub(/:.*/, "", b)
		if (length(b) != w || gsub(/1/, "1", b) != 1)
			w = 0
	}
	if (w) {
		# the items overlap as patterns, never as values (one-hot):
		# Verilator's overlap warning is waived for this case only
		print "    /* verilator lint_off CASEOVERLAP */"
		h = chead
		sub(/case \(/, "(* parallel_case *) casez (", h)
		print h
		for (i = 1; i <= nitem; i++) {
			b = item[i]
			pre = b
			sub(/'b.*/, "'b", pre)
			sub(/^      [0-9]+'b/, "", b)
			rest = b
			sub(/^[01]+/, "", rest)
			sub(/:.*/, "", b)
			gsub(/0/, "?", b)
			print pre b rest
		}
		onehot_cases++
	} else {
		print chead
		for (i = 1; i <= nitem; i++)
			print item[i]
	}
	if (cout == "")
		die(mod ": empty case")
	else if ((mod "." cout) in dflt)
		print "      default: " cout " <= " dflt[mod "." cout] ";"
	else
		die(mod "." cout ": no default found in the VHDL netlist")
	print
	if (w)
		print "    /* verilator lint_on CASEOVERLAP */"
	next
}

# fix 6
/^  (wire|reg) (\[[0-9]+:[0-9]+\] )?[A-Za-z_][A-Za-z0-9_]*;$/ {
	dn = $NF
	sub(/;$/, "", dn)
	if (dn in decl) {
		if (decl[dn] != $0)
			die(mod "." dn ": declared twice, differently")
		next
	}
	decl[dn] = $0
}
/^  assign [A-Za-z_][A-Za-z0-9_]* = [A-Za-z_][A-Za-z0-9_]*;( \/\/ \(signal\))?$/ && $2 ";" == $4 { next }

# fix 7
/^  reg \[[0-9]+:0\] [A-Za-z_][A-Za-z0-9_]*_nrw\[[0-9]+:0\] ; \/\/ memory$/ {
	print "  (* no_rw_check *)"
	print
	next
}

# fix 2
/^ *[A-Za-z_][A-Za-z0-9_]* <= std_logic_vector\(abs \$signed\([A-Za-z_][A-Za-z0-9_]*\)\);$/ {
	dst = $1
	src = $0
	sub(/.*\$signed\(/, "", src)
	sub(/\)\);$/, "", src)
	print "  assign " dst " = $signed(" src ") < 0 ? -$signed(" src ") : $signed(" src ");"
	next
}

# fixes 5 and 4
{
	line = $0
	if (line !~ /^ *\/\*/) {
		while (match(line, /"[01XZ]+"/)) {
			q = substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, 1, RSTART - 1) length(q) "'b" tolower(q) substr(line, RSTART + RLENGTH)
		}
	}
	if (match(line, /\.[A-Z_]+\([0-9]+'b[01]+\)/)) {
		s = substr(line, RSTART, RLENGTH)
		name = substr(s, 2, index(s, "(") - 2)
		if (name in isstr) {
			bits = substr(s, index(s, "'b") + 2)
			bits = substr(bits, 1, length(bits) - 1)
			if (length(bits) % 8 != 0)
				die(name ": " length(bits) " bits is not a string")
			str = ""
			for (i = 1; i <= length(bits); i += 8) {
				v = 0
				for (j = 0; j < 8; j++)
					v = v * 2 + substr(bits, i + j, 1)
				str = str sprintf("%c", v)
			}
			line = substr(line, 1, RSTART - 1) "." name "(\"" str "\")" substr(line, RSTART + RLENGTH)
		}
	}
	if (line ~ /"/ && line !~ /^ *\/\*/ && !(line ~ /^ *\.[A-Z_]+\("[A-Za-z0-9_]*"\)/))
		die(mod ": a string literal is left, not understood: " substr(line, 1, 100))
	if (line ~ /std_logic_vector|<= .* when |rotate_left/)
		die(mod ": VHDL syntax is left, not understood: " substr(line, 1, 100))
	print line
}

END { exit bad }
