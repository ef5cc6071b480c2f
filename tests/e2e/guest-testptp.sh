# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel's testptp (mk/testptp.mk) against the card's PHC in the e2e
# main guest. Sourced by tests/e2e/guest-init.sh right after its phc_ctl
# checks, with D=/dev/ptpN, PTP, CARD and SCALE set and the driver bound.
# The card runs 1/SCALE of the guest's virtual time here, so a few guest
# seconds are a few card ms. testptp exits 0 even when an ioctl fails (it
# prints perror's text), so every check looks at what it printed.
# The checks after this file expect the card where guest-init.sh left it:
# time near 1700000002.5 s (the card-time-register window is 100 ms wide)
# and +1000000 ppb; the end of this file puts both back.

# testptp -g -> ns, or empty
tp_get() {
	testptp -d "$D" -g 2>&1 | sed -n 's/^clock time: \([0-9]*\)\.\([0-9]\{9\}\) or .*/\1\2/p'
}
# phc_ctl get -> ns, or empty
tp_phc_ctl_get() {
	phc_ctl "$D" get 2>&1 | sed -n 's/.*clock time is \([0-9]*\)\.\([0-9]\{9\}\) .*/\1\2/p'
}
tp_abs() { if [ "$1" -lt 0 ]; then echo $((-$1)); else echo "$1"; fi; }

# where guest-init.sh left the card, to put it back at the end
tp_t0=$(tp_get)
check testptp-g-reads test -n "$tp_t0"
tp_t0=${tp_t0:-1700000002500000000}

# --- -c: the capabilities the driver declares, against sysfs and the card.
# The card's side comes from its probe message (clk_hz and
# features.n_events as read from the ID block): EXTTS channel 0 is the PPS
# input and channels 1.. the event inputs (docs/driver.md), PEROUT 0 the
# PPS output, one pin per channel; max_adj is the largest |ppb| that keeps
# the period register inside 1..255.99 ns (driver/core/synpcix_hw.c
# spx_max_adj_ppb) for the nominal period 1e9/clk_hz ns.
testptp -d "$D" -c >/tmp/tp-caps.txt 2>&1
tp_cap() { sed -n "s/^ *\(-\{0,1\}[0-9]*\) $1\$/\1/p" /tmp/tp-caps.txt; }
tp_maxadj=$(tp_cap 'maximum frequency adjustment (ppb)')
tp_next=$(tp_cap 'external time stamp channels')
tp_nper=$(tp_cap 'programmable periodic signals')
tp_npins=$(tp_cap 'programmable pins')
tp_pps=$(tp_cap 'pulse per second')
tp_cross=$(tp_cap 'cross timestamping')
note "testptp -c: max_adj ${tp_maxadj:-?} ppb, ${tp_next:-?} EXTTS, ${tp_nper:-?} PEROUT, ${tp_npins:-?} pins, pps ${tp_pps:-?}, cross ${tp_cross:-?}"
if [ -n "$tp_maxadj" ] && [ -n "$tp_next" ] && [ -n "$tp_nper" ] && [ -n "$tp_npins" ]; then
	ok testptp-c-prints-caps
	S=/sys/class/ptp/$PTP
	check testptp-c-max-adj-is-sysfs test "$tp_maxadj" -eq "$(cat $S/max_adjustment)"
	check testptp-c-n-ext-ts-is-sysfs test "$tp_next" -eq "$(cat $S/n_external_timestamps)"
	check testptp-c-n-per-out-is-sysfs test "$tp_nper" -eq "$(cat $S/n_periodic_outputs)"
	check testptp-c-n-pins-is-sysfs test "$tp_npins" -eq "$(cat $S/n_programmable_pins)"
	check testptp-c-pps-is-sysfs test "${tp_pps:-x}" = "$(cat $S/pps_available)"
	tp_probe=$(dmesg | sed -n "s/.*synpcix $CARD: SynPCI-X build [0-9a-f]*, \([0-9]*\) Hz, \([0-9]*\) event input(s),.*/\1 \2/p" | tail -n 1)
	set -- $tp_probe
	tp_hz=${1:-0}
	tp_nev=${2:-0}
	check testptp-probe-message-parsed test "$tp_hz" -gt 0
	check testptp-c-n-ext-ts-is-pps-plus-events test "$tp_next" -eq $((1 + tp_nev))
	check testptp-c-one-perout test "$tp_nper" -eq 1
	check testptp-c-pin-per-channel test "$tp_npins" -eq $((tp_next + tp_nper))
	if [ "$tp_hz" -gt 0 ]; then
		# nominal period in ns * 2^32, rounded (1e9 * 2^32 < 2^63)
		tp_nom=$(((1000000000 * 4294967296 + tp_hz / 2) / tp_hz))
		tp_down=$((tp_nom - 4294967296))
		tp_up=$((256 * 4294967296 - 1 - tp_nom))
		tp_room=$tp_down
		[ "$tp_up" -lt "$tp_room" ] && tp_room=$tp_up
		# floor(room * 1e9 / nom) without overflowing 64 bits: 1e9 = 1e4 * 1e5
		tp_q=$((tp_room / tp_nom))
		tp_r=$((tp_room % tp_nom * 10000))
		tp_want=$((tp_q * 1000000000 + tp_r / tp_nom * 100000 + tp_r % tp_nom * 100000 / tp_nom))
		[ "$tp_want" -gt 2147483647 ] && tp_want=2147483647
		check testptp-c-max-adj-from-clk-hz test "$tp_maxadj" -eq "$tp_want"
	fi
else
	nok testptp-c-prints-caps "$(head -c 300 /tmp/tp-caps.txt | tr '\n' ' ')"
fi
# -l: one line per pin, each with its fixed function and channel (pin i =
# EXTTS i, then PPS_OUT; driver/synpcix_ptp.c)
testptp -d "$D" -l >/tmp/tp-pins.txt 2>&1
check testptp-l-one-line-per-pin test "$(grep -c '^name .* index [0-9]* func [12] chan [0-9]*$' /tmp/tp-pins.txt)" -eq "${tp_npins:-0}"
check testptp-l-pps-in-is-extts-0 grep -q '^name PPS_IN index 0 func 1 chan 0$' /tmp/tp-pins.txt
check testptp-l-pps-out-is-perout-0 grep -q "^name PPS_OUT index ${tp_next:-x} func 2 chan 0\$" /tmp/tp-pins.txt
tp_i=1
while [ "$tp_i" -lt "${tp_next:-0}" ]; do
	check testptp-l-event$((tp_i - 1))-is-extts-$tp_i grep -q "^name EVENT$((tp_i - 1)) index $tp_i func 1 chan $tp_i\$" /tmp/tp-pins.txt
	tp_i=$((tp_i + 1))
done

# --- -g between two phc_ctl get: the same clock, read in order
tp_a=$(tp_phc_ctl_get)
tp_g=$(tp_get)
tp_b=$(tp_phc_ctl_get)
if [ -n "$tp_a" ] && [ -n "$tp_g" ] && [ -n "$tp_b" ]; then
	note "phc_ctl get $tp_a, testptp -g $tp_g, phc_ctl get $tp_b"
	check testptp-g-after-phc_ctl test "$tp_g" -ge "$tp_a"
	check testptp-g-before-phc_ctl test "$tp_g" -le "$tp_b"
	# three program starts take well under 5 s of guest time
	in_range testptp-g-phc_ctl-close $((tp_b - tp_a)) 0 $((5000000000 / SCALE))
else
	nok testptp-g-agrees-with-phc_ctl "no readings: '$tp_a' '$tp_g' '$tp_b'"
fi

# --- -T (set), -t / -n (adjtime): the time moves by what was asked. The
# card advances ~1 ms per guest second between two commands here.
tp_near() { # name ns-wanted: the card reads wanted .. wanted + 5 s/SCALE
	_v=$(tp_get)
	if [ -n "$_v" ]; then in_range "$1" $((_v - $2)) 0 $((5000000000 / SCALE)); else nok "$1" "no testptp -g reading"; fi
}
expect_out testptp-T-set "set time okay" testptp -d "$D" -T 1700000100
tp_near testptp-g-after-T 1700000100000000000
expect_out testptp-t-shift "time shift okay" testptp -d "$D" -t 5
tp_near testptp-g-after-t-plus-5 1700000105000000000
expect_out testptp-t-shift-negative "time shift okay" testptp -d "$D" -t -3
tp_near testptp-g-after-t-minus-3 1700000102000000000
expect_out testptp-n-shift "time shift okay" testptp -d "$D" -n 250000000
tp_near testptp-g-after-n-250ms 1700000102250000000
# -n below zero: testptp normalises to sec -1, nsec + 1e9
expect_out testptp-n-shift-negative "time shift okay" testptp -d "$D" -n -500000000
tp_near testptp-g-after-n-minus-500ms 1700000101750000000

# --- -s: the card takes the system time; -k: PTP_SYS_OFFSET samples then
# show the two clocks a few guest seconds apart at most (the card runs
# 1/SCALE of the guest's time since -s), each sample bracketed by two
# system reads a short time apart
expect_out testptp-s-from-system "set time okay" testptp -d "$D" -s
tp_sys=$(date +%s)
tp_g=$(tp_get)
if [ -n "$tp_g" ]; then
	in_range testptp-g-after-s-is-system-time $((tp_g / 1000000000 - tp_sys)) -2 0
else
	nok testptp-g-after-s-is-system-time "no testptp -g reading"
fi
testptp -d "$D" -k 5 >/tmp/tp-k.txt 2>&1
check testptp-k-request-okay grep -q '^system and phc clock time offset request okay$' /tmp/tp-k.txt
tp_offs=$(sed -n 's/^system\/phc clock time offset is \(-\{0,1\}[0-9]*\) ns$/\1/p' /tmp/tp-k.txt)
tp_dels=$(sed -n 's/^system     clock time delay  is \(-\{0,1\}[0-9]*\) ns$/\1/p' /tmp/tp-k.txt)
check testptp-k-5-samples test "$(echo "$tp_offs" | grep -c .)" -eq 5 -a "$(echo "$tp_dels" | grep -c .)" -eq 5
note "testptp -k 5: offsets $(echo $tp_offs) ns, delays $(echo $tp_dels) ns"
tp_bad=0
for o in $tp_offs; do
	# system - phc: >= 0 (the card lags since -s), < 5 guest seconds
	[ "$o" -ge 0 ] && [ "$o" -lt 5000000000 ] || tp_bad=1
done
for d in $tp_dels; do
	# one card read through the emulated BAR between two system reads
	[ "$d" -gt 0 ] && [ "$d" -lt 50000000 ] || tp_bad=1
done
[ -n "$tp_offs" ] && [ $tp_bad -eq 0 ] && ok testptp-k-offsets-sane || nok testptp-k-offsets-sane "offsets '$(echo $tp_offs)' delays '$(echo $tp_dels)'"
tp_phc=$(sed -n 's/^phc    time: \([0-9]*\)\.\([0-9]\{9\}\)$/\1\2/p' /tmp/tp-k.txt)
tp_prev=0
tp_bad=0
for p in $tp_phc; do
	[ "$p" -gt "$tp_prev" ] || tp_bad=1
	tp_prev=$p
done
[ -n "$tp_phc" ] && [ $tp_bad -eq 0 ] && ok testptp-k-phc-times-increase || nok testptp-k-phc-times-increase "'$(echo $tp_phc)'"
expect_out testptp-k-26-refused "n_samples should be between 1 and 25" testptp -d "$D" -k 26
# -x: PTP_SYS_OFFSET_EXTENDED (the driver's gettimex64)
expect_out testptp-x-extended "extended timestamp request returned 3 samples" testptp -d "$D" -x 3

# --- -f: adjfine (testptp's ppb -> scaled ppm -> the kernel's ppb rounds,
# so "beyond max_adj" is max_adj + 1000). The rate change is measured as guest-init.sh does
# (phcrate, card ns against guest ns over 2 s), -500 ppm against 0.
tp_rate() { phcrate "$D" 2000 | sed -n 's/^OK //p'; }
expect_out testptp-f-zero "frequency adjustment okay" testptp -d "$D" -f 0
set -- $(tp_rate)
tp_p0=${1:-0}
tp_s0=${2:-1}
expect_out testptp-f-minus-500ppm "frequency adjustment okay" testptp -d "$D" -f -500000
set -- $(tp_rate)
tp_p1=${1:-0}
tp_s1=${2:-1}
if [ "$tp_p0" -gt 0 ] && [ "$tp_p1" -gt 0 ]; then
	tp_den=$((tp_p0 * tp_s1 / 1000000))
	tp_ppm=$(((tp_p1 * tp_s0 - tp_p0 * tp_s1) / tp_den))
	note "testptp -f -500000: rate change measured ${tp_ppm} ppm"
	in_range testptp-f-rate-minus-500ppm "$tp_ppm" -550 -450
else
	nok testptp-f-rate-minus-500ppm "no phcrate readings: '$tp_p0' '$tp_p1'"
fi
expect_out testptp-f-beyond-max-adj-refused "clock_adjtime: Numerical result out of range" \
	testptp -d "$D" -f $((${tp_maxadj:-875000000} + 1000))

# --- -p: PEROUT 0 (the PPS output) on and off; bad requests refused. The
# registers it programs are read in the PPS guest (guest-pps.sh), where
# the BAR is mapped with the driver bound.
expect_out testptp-p-on "periodic output request okay" testptp -d "$D" -p 1000000000
expect_out testptp-p-width "periodic output request okay" testptp -d "$D" -p 1000000000 -w 100000000
expect_out testptp-p-width-not-below-period "PTP_PEROUT_REQUEST: Invalid argument" \
	testptp -d "$D" -p 1000000000 -w 1000000000
# the card has no phase mode: its start is an absolute time
expect_out testptp-p-phase-unsupported "PTP_PEROUT_REQUEST: Operation not supported" \
	testptp -d "$D" -p 1000000000 -H 0
expect_out testptp-p-period-below-16-clocks "PTP_PEROUT_REQUEST: Invalid argument" testptp -d "$D" -p 100
expect_out testptp-p-no-such-channel "PTP_PEROUT_REQUEST: Invalid argument" \
	testptp -d "$D" -i "${tp_nper:-1}" -p 1000000000
expect_out testptp-p-off "periodic output request okay" testptp -d "$D" -p 0

# --- bad arguments: clear errors
expect_out testptp-e-no-such-channel "PTP_EXTTS_REQUEST: Invalid argument" \
	testptp -d "$D" -e 1 -i "${tp_next:-3}"
expect_out testptp-L-wrong-function "PTP_PIN_SETFUNC: Operation not supported" \
	testptp -d "$D" -L 0,2 -i 0
expect_out testptp-no-device "opening /dev/ptp-none: No such file or directory" testptp -d /dev/ptp-none -g
check testptp-no-device-fails sh -c "! testptp -d /dev/ptp-none -g"

# --- put the card back where guest-init.sh left it: the time of tp_t0
# (plus nothing for the card ms this file took) and +1000000 ppb
expect_out testptp-restore-time "set time okay" testptp -d "$D" -T $((tp_t0 / 1000000000))
expect_out testptp-restore-time-ns "time shift okay" testptp -d "$D" -n $((tp_t0 % 1000000000))
tp_near testptp-g-after-restore "$tp_t0"
expect_out testptp-restore-freq "frequency adjustment okay" testptp -d "$D" -f 1000000
