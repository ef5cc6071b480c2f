#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Write an iCE40 bitstream to the board's SPI configuration flash.
#
# Usage: ice40_flash.sh BITSTREAM.bin
# Tool: iceprog (fpga-icestorm); openFPGALoader if iceprog is missing or
# FLASH_TOOL=openFPGALoader. Both talk to an FTDI FT2232H/FT232H (USB vendor
# 0403), as on the iCE40-HX8K breakout board. Without one attached the raw
# tools say only "Can't find iCE FTDI USB device", so the USB bus is looked
# at first and the message says what is missing and what to do.
# USB_SYSFS (default /sys/bus/usb/devices) is where devices are looked for;
# the test suite points it at an empty directory.
set -u
bin=${1:?usage: ice40_flash.sh BITSTREAM.bin}
sysfs=${USB_SYSFS:-/sys/bus/usb/devices}

die() {
	echo "flash: $*" >&2
	exit 1
}

[ -s "$bin" ] || die "no bitstream at $bin (run 'make bitstream')"

tool=${FLASH_TOOL:-}
if [ -z "$tool" ]; then
	if command -v iceprog >/dev/null 2>&1; then
		tool=iceprog
	elif command -v openFPGALoader >/dev/null 2>&1; then
		tool=openFPGALoader
	else
		die "neither iceprog nor openFPGALoader is installed (make deps installs fpga-icestorm)"
	fi
fi
command -v "$tool" >/dev/null 2>&1 || die "$tool is not installed"

# FTDI parts the iCE40 programmers use: FT2232H 6010, FT4232H 6011,
# FT232H 6014 (iceprog's default is 0403:6010, interface A).
found=
for d in "$sysfs"/*; do
	[ -r "$d/idVendor" ] && [ -r "$d/idProduct" ] || continue
	v=$(cat "$d/idVendor")
	p=$(cat "$d/idProduct")
	case "$v:$p" in
	0403:6010 | 0403:6011 | 0403:6014)
		found="$v:$p ($(cat "$d/product" 2>/dev/null || echo FTDI))"
		break
		;;
	esac
done
if [ -z "$found" ]; then
	die "no iCE40 programmer found: no FTDI FT2232H/FT4232H/FT232H (USB 0403:6010/6011/6014) on this machine.
  Connect the card's (or the iCE40-HX8K breakout board's) USB programming port
  and run 'make flash' again, or copy $bin to a machine that has it and run:
    iceprog $(basename "$bin")"
fi

echo "flash: writing $bin with $tool via $found"
case "$tool" in
iceprog) "$tool" "$bin" ;;
openFPGALoader) "$tool" --write-flash "$bin" ;;
*) die "unknown FLASH_TOOL '$tool' (iceprog or openFPGALoader)" ;;
esac
rc=$?
if [ $rc -ne 0 ]; then
	die "$tool failed (exit $rc). If it could not open the device: permission
  (run as root, or add a udev rule for 0403:6010), or the card's flash is held
  by a running FPGA (iceprog resets it via CRESET_B; check the jumper)."
fi
echo "flash: done; iceprog/openFPGALoader release CRESET_B, so the FPGA boots the new image now"
