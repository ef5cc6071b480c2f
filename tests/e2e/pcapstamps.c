// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcapstamps FILE: one line per packet of a pcap file,
 *   "rxstamp <time ns> <original length> <first 48 bytes hex>"
 * for the e2e test of the patched e1000's RX stamps (tests/e2e/guest-e1000.sh,
 * docs/e1000.md). Only nanosecond pcap (tcpdump --time-stamp-precision=nano)
 * is accepted: a microsecond file would hide the stamps' resolution.
 * Exit 0: every record read; 1: bad file (message on stderr).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t get32(const unsigned char *p, int swap)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;

	if (swap)
		v = (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
	return v;
}

int main(int argc, char **argv)
{
	unsigned char gh[24], rh[16], data[65536];
	unsigned long n = 0;
	uint32_t magic, caplen, len, i;
	int swap;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: pcapstamps FILE.pcap\n");
		return 1;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	if (fread(gh, 1, sizeof(gh), f) != sizeof(gh)) {
		fprintf(stderr, "%s: no pcap header\n", argv[1]);
		return 1;
	}
	magic = get32(gh, 0);
	if (magic == 0xa1b23c4d)
		swap = 0;
	else if (magic == 0x4d3cb2a1)
		swap = 1;
	else {
		fprintf(stderr, "%s: magic 0x%08x is not nanosecond pcap\n", argv[1],
			(unsigned int)magic);
		return 1;
	}
	while (fread(rh, 1, sizeof(rh), f) == sizeof(rh)) {
		uint64_t ns = (uint64_t)get32(rh, swap) * 1000000000u + get32(rh + 4, swap);

		caplen = get32(rh + 8, swap);
		len = get32(rh + 12, swap);
		if (caplen > sizeof(data) || fread(data, 1, caplen, f) != caplen) {
			fprintf(stderr, "%s: record %lu truncated or too long (%u)\n",
				argv[1], n, (unsigned int)caplen);
			return 1;
		}
		printf("rxstamp %llu %u ", (unsigned long long)ns, (unsigned int)len);
		for (i = 0; i < caplen && i < 48; i++)
			printf("%02x", data[i]);
		printf("\n");
		n++;
	}
	fprintf(stderr, "pcapstamps: %lu packets\n", n);
	return 0;
}
