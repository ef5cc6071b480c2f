/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capfile: read and write pcap and pcapng capture files.
 *
 * Reader: classic pcap (microsecond and nanosecond magic, either byte
 * order) and pcapng (any section byte order, per-interface if_tsresol and
 * if_tsoffset, EPB/PB; SPB has no stamp and is counted, not returned).
 * Every length is checked before use: a damaged file yields an error
 * string that names the packet number and byte offset, never a crash.
 *
 * Writer: the same formats, so tests can produce every variant.
 */
#ifndef CAPFILE_H
#define CAPFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* libpcap's MAXIMUM_SNAPLEN: nothing real captures more per packet. */
#define CAP_MAX_CAPLEN 262144u
/* Largest pcapng block we accept; bigger ones are damage, not data. */
#define CAP_MAX_BLOCK (16u << 20)

struct cap_packet {
	int64_t ts_ns;          /* stamp, ns since the epoch */
	uint32_t caplen;        /* bytes at data */
	uint32_t origlen;       /* length on the wire */
	uint32_t linktype;      /* LINKTYPE_* of the packet's interface */
	uint32_t ifid;          /* pcapng interface id, 0 for pcap */
	uint64_t index;         /* 1-based packet number in the file */
	const uint8_t *data;    /* valid until the next cap_next() */
};

struct cap_reader;

/* Open PATH ("-" is stdin). On failure returns NULL with a message in err. */
struct cap_reader *cap_open(const char *path, char *err, size_t errlen);
/* Read from an already open stream; NAME is used in messages. */
struct cap_reader *cap_open_stream(FILE *f, const char *name, int close_it,
				   char *err, size_t errlen);
/* 1: a packet in *p; 0: end of file; -1: error, see cap_error(). */
int cap_next(struct cap_reader *r, struct cap_packet *p);
const char *cap_error(const struct cap_reader *r);
/* "pcap, nanosecond, big-endian" and the like. */
const char *cap_format(const struct cap_reader *r);
/* Packets without a stamp (pcapng SPB) that were skipped. */
uint64_t cap_unstamped(const struct cap_reader *r);
void cap_close(struct cap_reader *r);

enum cap_fmt { CAP_PCAP, CAP_PCAPNG };

struct cap_writer;

/*
 * Create PATH. ns: nanosecond stamps (else microsecond); big_endian: write
 * big-endian regardless of the host. Returns NULL with a message in err.
 */
struct cap_writer *cap_create(const char *path, enum cap_fmt fmt, int ns,
			      int big_endian, uint32_t linktype,
			      uint32_t snaplen, char *err, size_t errlen);
int cap_write(struct cap_writer *w, int64_t ts_ns, const void *data,
	      uint32_t caplen, uint32_t origlen);
/* Flushes and closes; returns -1 (message in err) if anything failed. */
int cap_finish(struct cap_writer *w, char *err, size_t errlen);

#endif
