# SPDX-License-Identifier: GPL-2.0-or-later
# Work around a GHDL 2.0 Verilog-writer name clash (used by mk/pcibus.mk
# after hdl/boards/ghdl_verilog.sh): GHDL names the net of an instance's
# output port INSTANCE_PORT; when that equals an output port of the
# enclosing module (capture_unit: instance "irq", port "raise" ->
# "irq_raise", which is also capture_unit's own port) it declares a second
# "wire irq_raise" and the module no longer compiles (Verilator:
# "Duplicate declaration of signal"). Within such a module the duplicate
# wire is renamed NAME__net, and so is every use of NAME except the
# left-hand side of "assign NAME =" (the port's own driver) and instance
# port names (".NAME("). Modules without a clash pass unchanged.
function flush(   i, line, n) {
	for (i = 1; i <= nl; i++) {
		line = buf[i]
		for (n in clash) {
			if (line ~ ("^[ \t]*wire[^;]*[ \t]" n ";")) {
				sub(n ";", n "__net;", line)
				continue
			}
			if (line ~ ("^[ \t]*assign[ \t]+" n "[ \t]*=") ||
			    line ~ /^[ \t]*\(?(input|output|inout)[ \t]/)
				continue
			line = rename(line, n)
		}
		print line
	}
	nl = 0
	split("", ports)
	split("", clash)
}
# rename whole-word NAME not preceded by '.' (instance port names)
function rename(s, n,   out, p) {
	out = ""
	while ((p = match(s, "[^._a-zA-Z0-9$]" n "([^_a-zA-Z0-9$]|$)")) > 0) {
		out = out substr(s, 1, p) n "__net"
		s = substr(s, p + 1 + length(n))
	}
	return out s
}
/^module / { inmod = 1 }
inmod {
	buf[++nl] = $0
	if ($0 ~ /^[ \t]*\(?(input|output|inout)[ \t]/) {
		w = $0
		sub(/[,);].*$/, "", w)
		k = split(w, f, /[ \t]+/)
		ports[f[k]] = 1
	} else if ($0 ~ /^[ \t]*wire[ \t]/) {
		w = $0
		sub(/;.*$/, "", w)
		k = split(w, f, /[ \t]+/)
		if (f[k] in ports)
			clash[f[k]] = 1
	}
	if ($0 ~ /^endmodule/) {
		flush()
		inmod = 0
	}
	next
}
{ print }
