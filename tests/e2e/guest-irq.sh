# SPDX-License-Identifier: GPL-2.0-or-later
#
# e2e guest: the interrupt path through the card (docs/driver.md,
# "Interrupt path"). Sourced by tests/e2e/guest-init.sh with the card at
# $CARD (synpcix loaded, card unbound by the tests before) and the helpers
# of /lib/guest-init-lib.sh. Device: a stock e1000e (QEMU's 82574L, driver
# e1000e from Debian's kernel, unmodified) at 00:05.0 on its own slirp
# network 10.0.3.0/24, run by tests/e2e/run.sh.
#
# For MSI-X (the RX vector, entry 0): redirect the vector to card slot 0
# through sysfs, send traffic, and check that the
# device's interrupts arrive through the card: the slot's capture count and
# the card's IRQ count rise, the device's RX IRQ count rises by exactly the
# number of interrupts msi_redirect forwarded, traffic flows; after detach
# the device interrupts on its own again and the card sees nothing; the
# same with the card on INTx (force_intx=1) after the removal tests. Then
# the card is removed while traffic runs (PCI hot removal from the guest:
# the kernel path a device_del takes, see docs/simulation.md), and
# msi_redirect is unloaded while a redirect is active.
IE=0000:00:05.0
IED=/sys/bus/pci/devices/$IE
MSIR=/sys/kernel/msi_redirect
PEER=10.0.3.2

# IRQ number of the /proc/interrupts line that has action name $1 (a shared
# line lists its actions separated by ", ")
irq_num() {
	awk -v n="$1" '{ for (i = 2; i <= NF; i++) if ($i == n || $i == n ",") { sub(":", "", $1); print $1; exit } }' /proc/interrupts
}
# sum of the per-CPU counts of IRQ $1 (-1: no such line)
irq_count() {
	awk -v q="$1:" '$1 == q { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s; f = 1 }
		END { if (!f) print -1 }' /proc/interrupts
}
# forwarded count of the redirect of $IE (0 when none)
fwd_count() {
	sed -n "s/^$IE .* forwarded \([0-9]*\) .*/\1/p" $MSIR/redirects | head -n 1 | grep . || echo 0
}
captures() { cat $CD/slot0/captures 2>/dev/null || echo -1; }
restored() { dmesg | grep -c "e1000e $IE: vector 0 restored"; }
received() { sed -n 's/.* \([0-9]*\) packets received.*/\1/p' "$1"; }

irq_e1000e_up() { # IntMode
	insmod $M/e1000e.ko IntMode="$1"
	sleep 1
	IF2=$(ls $IED/net 2>/dev/null | head -n 1)
	[ -n "$IF2" ] || return 1
	ip addr add 10.0.3.15/24 dev "$IF2"
	ip link set "$IF2" up
	sleep 3
	# MSI-X: "<if>-rx-0" is the RX vector (entry 0); MSI: one vector "<if>"
	RXN=$IF2-rx-0
	[ "$1" = 1 ] && RXN=$IF2
	RXQ=$(irq_num "$RXN")
	[ -n "$RXQ" ] || return 1
	return 0
}

irq_e1000e_down() {
	ip link set "$IF2" down 2>/dev/null
	rmmod e1000e
}

# One round: redirect vector 0 to slot 0, traffic, counters, detach.
irq_round() { # tag
	t=$1
	check "irq-$t-ping-direct" ping -c 3 -W 5 $PEER
	check "irq-$t-attach" sh -c "echo '$IE 0 0' >$MSIR/attach"
	check "irq-$t-redirect-listed" grep -q "^$IE 0 slot 0 .* sysfs\$" $MSIR/redirects
	check "irq-$t-card-irq-shared" sh -c "grep '^ *$KQ:' /proc/interrupts | grep -q 'synpcix, msi_redirect $IE v0'"
	note "$t redirect: $(cat $MSIR/redirects)"
	c0=$(captures)
	d0=$(irq_count "$RXQ")
	k0=$(irq_count "$KQ")
	f0=$(fwd_count)
	ping -c 20 -i 0.2 -W 5 $PEER >/tmp/ping.txt 2>&1
	c1=$(captures)
	d1=$(irq_count "$RXQ")
	k1=$(irq_count "$KQ")
	f1=$(fwd_count)
	note "$t via card: $(received /tmp/ping.txt)/20 replies, slot0 captures $c0 -> $c1, card IRQ $k0 -> $k1, $RXN IRQ $d0 -> $d1, forwarded $f0 -> $f1"
	check "irq-$t-traffic-flows-through-card" test "$(received /tmp/ping.txt)" -ge 18
	check "irq-$t-slot-captures-rise" test $((c1 - c0)) -ge 18
	check "irq-$t-card-irq-rises" test $((k1 - k0)) -ge 18
	check "irq-$t-forwarded" test $((f1 - f0)) -ge 18
	# the vector's only source is the forward: one handler run per forward.
	# The two counters are read one after the other, so a forward of stray
	# traffic (ARP, IPv6) between the two reads at either end of the window
	# counts in one and not the other: at most one each end (CI at d5800e9
	# saw device +23 for forwards +22 this way).
	dd=$(( (d1 - d0) - (f1 - f0) ))
	check "irq-$t-device-irq-once-per-forward" test "$dd" -ge -2 -a "$dd" -le 2
	check "irq-$t-forwards-not-more-than-card-irqs" test $((f1 - f0)) -le $((k1 - k0))
	r0=$(restored)
	check "irq-$t-detach" sh -c "echo '$IE 0' >$MSIR/detach"
	check "irq-$t-redirects-empty" sh -c "test -z \"\$(cat $MSIR/redirects)\""
	check "irq-$t-restored-logged" test "$(restored)" -eq $((r0 + 1))
	c0=$(captures)
	d0=$(irq_count "$RXQ")
	ping -c 10 -i 0.2 -W 5 $PEER >/tmp/ping.txt 2>&1
	c1=$(captures)
	d1=$(irq_count "$RXQ")
	note "$t direct again: $(received /tmp/ping.txt)/10 replies, slot0 captures $c0 -> $c1, $RXN IRQ $d0 -> $d1"
	check "irq-$t-direct-after-detach" test "$(received /tmp/ping.txt)" -ge 9
	check "irq-$t-card-quiet-after-detach" test "$c1" -eq "$c0"
	check "irq-$t-own-irq-after-detach" test $((d1 - d0)) -ge 9
}

# The second boot of tests/e2e/run.sh (IRQ_HOTPLUG=1): the card sits
# behind a hot-plug capable PCIe root port at $CARD, and the host sends a
# real QEMU `device_del card` on its monitor when this guest says
# "# device_del now" on the result port, while traffic runs through it.
irq_hotplug() {
	insmod $M/synpcix.ko
	sleep 1
	check hp-card-bound test -e /sys/bus/pci/drivers/synpcix/$CARD
	KQ=$(irq_num synpcix)
	check hp-msi-redirect-loads insmod $M/msi_redirect.ko
	if ! irq_e1000e_up 2; then
		nok hp-e1000e-msix-up "no netdev for $IE"
		return
	fi
	check hp-ping-direct ping -c 3 -W 5 $PEER
	check hp-attach sh -c "echo '$IE 0 0' >$MSIR/attach"
	c0=$(captures)
	f0=$(fwd_count)
	ping -c 60 -i 0.2 -W 5 $PEER >/tmp/ping-hp.txt 2>&1 &
	pp=$!
	sleep 3
	check hp-traffic-through-card-before test "$(captures)" -gt "$c0" -a "$(fwd_count)" -gt "$f0"
	r0=$(restored)
	d0=$(irq_count "$RXQ")
	note "device_del now"
	i=0
	while [ -e $CD ] && [ $i -lt 60 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	check hp-card-gone-after-device_del test ! -e $CD
	note "card gone $((i / 2)) s after the request (guest time)"
	check hp-redirect-restored sh -c "test -z \"\$(cat $MSIR/redirects)\""
	check hp-restore-logged test "$(restored)" -eq $((r0 + 1))
	dmesg | grep -E "synpcix $CARD: slot|e1000e $IE: vector 0" | tail -n 3 | while read -r l; do note "$l"; done
	wait $pp
	d1=$(irq_count "$RXQ")
	note "device_del during traffic: $(received /tmp/ping-hp.txt)/60 replies, $RXN IRQ $d0 -> $d1 from the request on"
	check hp-traffic-survives-device_del test "$(received /tmp/ping-hp.txt)" -ge 54
	check hp-own-irq-after-device_del test $((d1 - d0)) -ge 20
	check hp-ping-after-device_del ping -c 3 -W 5 $PEER
	check hp-msi-redirect-unloads rmmod msi_redirect
	check hp-synpcix-unloads rmmod synpcix
	irq_e1000e_down
	check hp-dmesg-clean dmesg_clean
}
if [ -n "$IRQ_HOTPLUG" ]; then
	irq_hotplug
	return 0
fi

# --- setup: the card bound, msi_redirect, the e1000e (MSI-X)
echo $CARD >/sys/bus/pci/drivers/synpcix/bind 2>/dev/null
sleep 1
check irq-card-bound test -e /sys/bus/pci/drivers/synpcix/$CARD
KQ=$(irq_num synpcix)
check irq-card-irq-requested test -n "$KQ"
note "card: $(cat $CD/irq_vectors 2>/dev/null), $(grep synpcix /proc/interrupts | tr -s ' ')"
check irq-msi-redirect-loads insmod $M/msi_redirect.ko
if irq_e1000e_up 2; then
	ok irq-e1000e-msix-up
	check irq-e1000e-msix-enabled test -n "$(ls $IED/msi_irqs 2>/dev/null)"
	note "e1000e MSI-X: $(grep "$IF2" /proc/interrupts | tr -s ' ' | tr '\n' ';')"
	irq_round msix

	# --- the card goes away while traffic runs
	check irq-reattach sh -c "echo '$IE 0 0' >$MSIR/attach"
	c0=$(captures)
	ping -c 40 -i 0.2 -W 5 $PEER >/tmp/ping-rm.txt 2>&1 &
	pp=$!
	sleep 3
	check irq-card-busy-before-removal test "$(captures)" -gt "$c0"
	r0=$(restored)
	echo 1 >$CD/remove
	check irq-card-removed test ! -e $CD
	check irq-redirect-restored-on-removal sh -c "test -z \"\$(cat $MSIR/redirects)\""
	check irq-removal-restore-logged test "$(restored)" -eq $((r0 + 1))
	dmesg | grep "e1000e $IE: vector 0 restored" | tail -n 1 | while read -r l; do note "$l"; done
	d0=$(irq_count "$RXQ")
	wait $pp
	d1=$(irq_count "$RXQ")
	note "card removed during traffic: $(received /tmp/ping-rm.txt)/40 replies, $RXN IRQ after removal $d0 -> $d1"
	check irq-traffic-survives-removal test "$(received /tmp/ping-rm.txt)" -ge 36
	check irq-own-irq-after-removal test $((d1 - d0)) -ge 10
	check irq-ping-after-removal ping -c 3 -W 5 $PEER
	echo 1 >/sys/bus/pci/rescan
	sleep 2
	check irq-card-back-after-rescan test -e /sys/bus/pci/drivers/synpcix/$CARD
	KQ=$(irq_num synpcix)	# a new MSI vector after the rescan

	# --- msi_redirect unloaded with a redirect active, traffic running
	check irq-attach-before-unload sh -c "echo '$IE 0 0' >$MSIR/attach"
	ping -c 20 -i 0.2 -W 5 $PEER >/tmp/ping-ul.txt 2>&1 &
	pp=$!
	sleep 2
	r0=$(restored)
	check irq-msi-redirect-unloads rmmod msi_redirect
	check irq-unload-restore-logged test "$(restored)" -eq $((r0 + 1))
	wait $pp
	note "msi_redirect unloaded during traffic: $(received /tmp/ping-ul.txt)/20 replies"
	check irq-traffic-survives-unload test "$(received /tmp/ping-ul.txt)" -ge 18
	check irq-ping-after-unload ping -c 3 -W 5 $PEER

	# --- the card on INTx (synpcix force_intx=1): a level line that the
	# card holds until synpcix's handler acknowledges it (write of its irq.status bits)
	echo $CARD >/sys/bus/pci/drivers/synpcix/unbind
	rmmod synpcix
	check irq-intx-synpcix-loads insmod $M/synpcix.ko force_intx=1
	sleep 1
	check irq-intx-card-bound test -e /sys/bus/pci/drivers/synpcix/$CARD
	check irq-intx-kind grep -q 'INTx' $CD/irq_vectors
	KQ=$(irq_num synpcix)
	note "card on INTx: $(grep "^ *$KQ:" /proc/interrupts | tr -s ' ')"
	check irq-intx-msi-redirect-loads insmod $M/msi_redirect.ko
	irq_round intx
	check irq-intx-msi-redirect-unloads rmmod msi_redirect
	# the line is quiet again: no interrupt storm from an unacknowledged card
	k0=$(irq_count "$KQ")
	sleep 2
	k1=$(irq_count "$KQ")
	check irq-intx-line-quiet test $((k1 - k0)) -lt 5
	echo $CARD >/sys/bus/pci/drivers/synpcix/unbind
	rmmod synpcix
	insmod $M/synpcix.ko
	irq_e1000e_down
else
	nok irq-e1000e-msix-up "no netdev for $IE"
fi

# Plain MSI is not run here: e1000e's open tests MSI delivery and under
# QEMU falls back to INTx (tests/kernel notes the same), and the e1000
# driver uses INTx only. The MSI message path (config space) is covered by
# tests/kernel; the forward does not depend on MSI vs MSI-X.
check irq-dmesg-clean dmesg_clean
# leave what guest-init.sh expects: synpcix loaded, card unbound, no holder
grep -q '^msi_redirect ' /proc/modules && rmmod msi_redirect
echo $CARD >/sys/bus/pci/drivers/synpcix/unbind 2>/dev/null
