#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages listed in mk/packages.txt that are missing.
# Idempotent and quiet when everything is present; root or sudo.
set -eu
list="$(dirname "$0")/packages.txt"
missing=""
for p in $(sed -e 's/#.*//' "$list"); do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "deps: done"
