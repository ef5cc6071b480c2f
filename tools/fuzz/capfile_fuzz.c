// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the pcap/pcapng reader: any bytes must end in
 * packets, a clean end or an error message, never a crash or a hang, and
 * every packet handed out must lie within the reader's limits.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lib/capfile.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char err[512];
	FILE *f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	struct cap_reader *r = cap_open_stream(f, "fuzz", 1, err, sizeof(err));
	if (!r)
		return 0;
	struct cap_packet p;
	int rc;
	unsigned long sum = 0;
	while ((rc = cap_next(r, &p)) == 1) {
		if (p.caplen > CAP_MAX_CAPLEN || p.caplen > size)
			abort();
		/* touch every byte so ASan checks the whole packet */
		for (uint32_t i = 0; i < p.caplen; i++)
			sum += p.data[i];
	}
	if (rc < 0 && cap_error(r)[0] == '\0')
		abort();        /* an error must come with a message */
	cap_close(r);
	return (int)(sum & 0);
}
