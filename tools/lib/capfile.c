// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * capfile: pcap/pcapng reader and writer. See capfile.h.
 *
 * The reader keeps one growable buffer and refills it with fread(), so a
 * packet costs a few comparisons and no copy; that is what lets tsstat
 * keep up with (and beat) capinfos on 10^7-packet captures.
 */
#include "capfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PCAP_MAGIC_US 0xa1b2c3d4u
#define PCAP_MAGIC_NS 0xa1b23c4du
#define NG_SHB 0x0a0d0d0au
#define NG_IDB 0x00000001u
#define NG_PB 0x00000002u
#define NG_SPB 0x00000003u
#define NG_EPB 0x00000006u
#define NG_BOM 0x1a2b3c4du
#define NG_MAX_IFACES 4096u
#define READ_CHUNK (64u << 10)

struct cap_iface {
	uint32_t linktype;
	uint64_t units;         /* timestamp units per second */
	int64_t offset_s;       /* if_tsoffset */
};

struct cap_reader {
	FILE *f;
	int close_it;
	char name[256];
	char err[512];
	char fmt[64];
	uint8_t *buf;
	size_t cap, len, pos;   /* buffer capacity, bytes held, read position */
	uint64_t base;          /* file offset of buf[0] */
	int eof;
	int ng;                 /* pcapng? */
	int swap;               /* file byte order differs from host */
	int ns;                 /* classic pcap: nanosecond magic */
	uint32_t linktype;      /* classic pcap */
	struct cap_iface *ifs;
	uint32_t nifs;
	uint64_t npkt;
	uint64_t unstamped;
	int failed;
};

static uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static uint16_t bswap16(uint16_t v)
{
	return (uint16_t)((v >> 8) | (v << 8));
}

static uint32_t rd32(const struct cap_reader *r, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return r->swap ? bswap32(v) : v;
}

static uint16_t rd16(const struct cap_reader *r, const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return r->swap ? bswap16(v) : v;
}

static int fail(struct cap_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->err, sizeof(r->err), "%s: ", r->name);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	va_end(ap);
	r->failed = 1;
	return -1;
}

/*
 * Make N bytes available at r->pos. Returns 1 when they are, 0 when the
 * file ends exactly at r->pos, -1 on a short file or read error (the
 * caller words the message; r->len - r->pos tells how much there was).
 */
static int need(struct cap_reader *r, size_t n)
{
	if (r->len - r->pos >= n)
		return 1;
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->base += r->pos;
		r->len -= r->pos;
		r->pos = 0;
	}
	if (n > r->cap) {
		size_t c = r->cap;
		while (c < n)
			c *= 2;
		uint8_t *b = realloc(r->buf, c);
		if (!b) {
			fail(r, "out of memory for a %zu-byte record", n);
			return -2;
		}
		r->buf = b;
		r->cap = c;
	}
	while (r->len < n && !r->eof) {
		size_t got = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
		r->len += got;
		if (got == 0) {
			if (ferror(r->f)) {
				fail(r, "read error: %s", strerror(errno));
				return -2;
			}
			r->eof = 1;
		}
	}
	if (r->len >= n)
		return 1;
	return r->len == 0 ? 0 : -1;
}

static uint64_t here(const struct cap_reader *r)
{
	return r->base + r->pos;
}

static int open_classic(struct cap_reader *r, uint32_t magic)
{
	int rc = need(r, 24);
	if (rc < 0)
		return rc == -2 ? -1 : fail(r, "truncated pcap file header (%zu of 24 bytes)", r->len);
	const uint8_t *h = r->buf;
	uint32_t m;
	memcpy(&m, h, 4);
	r->swap = m != magic;
	r->ns = magic == PCAP_MAGIC_NS;
	uint16_t major = rd16(r, h + 4);
	if (major != 2)
		return fail(r, "pcap version %u.%u is not supported (only 2.x)",
			    major, rd16(r, h + 6));
	/* upper bits carry FCS information, the link type is the low 16 */
	r->linktype = rd32(r, h + 20) & 0xffffu;
	r->pos = 24;
	snprintf(r->fmt, sizeof(r->fmt), "pcap, %s, %s-endian",
		 r->ns ? "nanosecond" : "microsecond",
		 (r->swap ^ (*(const uint8_t *)&(uint16_t){1} == 0)) ? "big" : "little");
	return 0;
}

static int next_classic(struct cap_reader *r, struct cap_packet *p)
{
	uint64_t off = here(r);
	int rc = need(r, 16);
	if (rc == 0)
		return 0;
	if (rc < 0)
		return rc == -2 ? -1 : fail(r, "truncated record header of packet %llu at offset %llu (%zu of 16 bytes)",
					    (unsigned long long)r->npkt + 1, (unsigned long long)off,
					    r->len - r->pos);
	const uint8_t *h = r->buf + r->pos;
	uint32_t sec = rd32(r, h), frac = rd32(r, h + 4);
	uint32_t incl = rd32(r, h + 8), orig = rd32(r, h + 12);
	if (incl > CAP_MAX_CAPLEN)
		return fail(r, "packet %llu at offset %llu: absurd captured length %u (limit %u)",
			    (unsigned long long)r->npkt + 1, (unsigned long long)off, incl, CAP_MAX_CAPLEN);
	if (frac >= (r->ns ? 1000000000u : 1000000u))
		return fail(r, "packet %llu at offset %llu: sub-second field %u out of range",
			    (unsigned long long)r->npkt + 1, (unsigned long long)off, frac);
	rc = need(r, 16 + (size_t)incl);
	if (rc < 0)
		return rc == -2 ? -1 : fail(r, "packet %llu at offset %llu: truncated data (%zu of %u bytes)",
					    (unsigned long long)r->npkt + 1, (unsigned long long)off,
					    r->len - r->pos - 16, incl);
	h = r->buf + r->pos;
	p->ts_ns = (int64_t)sec * 1000000000 + (int64_t)frac * (r->ns ? 1 : 1000);
	p->caplen = incl;
	p->origlen = orig;
	p->linktype = r->linktype;
	p->ifid = 0;
	p->data = h + 16;
	p->index = ++r->npkt;
	r->pos += 16 + (size_t)incl;
	return 1;
}

/* Parse an IDB body (after type and length, before the trailing length). */
static int ng_idb(struct cap_reader *r, const uint8_t *b, uint32_t n, uint64_t off)
{
	if (n < 8)
		return fail(r, "interface block at offset %llu too short", (unsigned long long)off);
	if (r->nifs >= NG_MAX_IFACES)
		return fail(r, "more than %u interfaces in one section", NG_MAX_IFACES);
	struct cap_iface *ifs = realloc(r->ifs, (r->nifs + 1) * sizeof(*ifs));
	if (!ifs)
		return fail(r, "out of memory");
	r->ifs = ifs;
	struct cap_iface *i = &ifs[r->nifs];
	i->linktype = rd16(r, b);
	i->units = 1000000;     /* pcapng default: microseconds */
	i->offset_s = 0;
	uint32_t o = 8;
	while (o + 4 <= n) {
		uint16_t code = rd16(r, b + o), len = rd16(r, b + o + 2);
		uint32_t pad = (len + 3u) & ~3u;
		if (code == 0)
			break;
		if (o + 4 + pad > n)
			return fail(r, "interface block at offset %llu: option %u overruns the block",
				    (unsigned long long)off, code);
		const uint8_t *v = b + o + 4;
		if (code == 9 && len >= 1) {            /* if_tsresol */
			unsigned e = v[0] & 0x7f;
			if (v[0] & 0x80) {
				if (e > 63)
					return fail(r, "if_tsresol 2^-%u out of range", e);
				i->units = 1ull << e;
			} else {
				if (e > 19)
					return fail(r, "if_tsresol 10^-%u out of range", e);
				i->units = 1;
				while (e--)
					i->units *= 10;
			}
		} else if (code == 14 && len >= 8) {    /* if_tsoffset */
			/* a 64-bit option is in the section's byte order */
			uint64_t raw;
			memcpy(&raw, v, 8);
			if (r->swap)
				raw = (uint64_t)bswap32((uint32_t)raw) << 32 | bswap32((uint32_t)(raw >> 32));
			i->offset_s = (int64_t)raw;
			if (i->offset_s > 4000000000ll || i->offset_s < -4000000000ll)
				return fail(r, "if_tsoffset %lld s out of range", (long long)i->offset_s);
		}
		o += 4 + pad;
	}
	r->nifs++;
	return 0;
}

static int ng_stamp(struct cap_reader *r, const struct cap_iface *i, uint32_t hi, uint32_t lo,
		    int64_t *ns, uint64_t off)
{
	uint64_t t = (uint64_t)hi << 32 | lo;
	uint64_t sec = t / i->units, frac = t % i->units;
	if (sec > 9000000000ull || (int64_t)sec + i->offset_s > 9000000000ll ||
	    (int64_t)sec + i->offset_s < -9000000000ll)
		return fail(r, "packet %llu at offset %llu: timestamp beyond year 2255",
			    (unsigned long long)r->npkt + 1, (unsigned long long)off);
	__extension__ unsigned __int128 f = (unsigned __int128)frac * 1000000000u / i->units;
	*ns = ((int64_t)sec + i->offset_s) * 1000000000 + (int64_t)f;
	return 0;
}

static int ng_shb(struct cap_reader *r, uint64_t off)
{
	/* type(4) len(4) bom(4) major(2) minor(2) section length(8) */
	int rc = need(r, 16);
	if (rc < 0)
		return rc == -2 ? -1 : fail(r, "truncated pcapng section header at offset %llu",
					    (unsigned long long)off);
	const uint8_t *h = r->buf + r->pos;
	uint32_t bom;
	memcpy(&bom, h + 8, 4);
	if (bom == NG_BOM)
		r->swap = 0;
	else if (bom == bswap32(NG_BOM))
		r->swap = 1;
	else
		return fail(r, "pcapng section at offset %llu: bad byte-order magic 0x%08x",
			    (unsigned long long)off, bom);
	uint32_t len = rd32(r, h + 4);
	if (len < 28 || len % 4 || len > CAP_MAX_BLOCK)
		return fail(r, "pcapng section at offset %llu: absurd block length %u",
			    (unsigned long long)off, len);
	uint16_t major = rd16(r, h + 12);
	if (major != 1)
		return fail(r, "pcapng version %u is not supported (only 1.x)", major);
	rc = need(r, len);
	if (rc < 0)
		return rc == -2 ? -1 : fail(r, "truncated pcapng section header at offset %llu",
					    (unsigned long long)off);
	h = r->buf + r->pos;
	if (rd32(r, h + len - 4) != len)
		return fail(r, "pcapng section at offset %llu: trailing length differs",
			    (unsigned long long)off);
	r->nifs = 0;            /* interfaces are per section */
	r->pos += len;
	snprintf(r->fmt, sizeof(r->fmt), "pcapng, %s-endian",
		 (r->swap ^ (*(const uint8_t *)&(uint16_t){1} == 0)) ? "big" : "little");
	return 0;
}

static int next_ng(struct cap_reader *r, struct cap_packet *p)
{
	for (;;) {
		uint64_t off = here(r);
		int rc = need(r, 8);
		if (rc == 0)
			return 0;
		if (rc < 0)
			return rc == -2 ? -1 : fail(r, "truncated block header at offset %llu",
						    (unsigned long long)off);
		uint32_t type = rd32(r, r->buf + r->pos);
		if (type == NG_SHB || type == bswap32(NG_SHB)) {
			if (ng_shb(r, off) < 0)
				return -1;
			continue;
		}
		uint32_t len = rd32(r, r->buf + r->pos + 4);
		if (len < 12 || len % 4 || len > CAP_MAX_BLOCK)
			return fail(r, "block at offset %llu: absurd block length %u",
				    (unsigned long long)off, len);
		rc = need(r, len);
		if (rc < 0)
			return rc == -2 ? -1 : fail(r, "block at offset %llu: truncated (%zu of %u bytes)",
						    (unsigned long long)off, r->len - r->pos, len);
		const uint8_t *b = r->buf + r->pos;
		if (rd32(r, b + len - 4) != len)
			return fail(r, "block at offset %llu: trailing length differs from %u",
				    (unsigned long long)off, len);
		const uint8_t *body = b + 8;
		uint32_t blen = len - 12;
		r->pos += len;
		if (type == NG_IDB) {
			if (ng_idb(r, body, blen, off) < 0)
				return -1;
			continue;
		}
		if (type == NG_SPB) {
			r->unstamped++;
			continue;
		}
		if (type != NG_EPB && type != NG_PB)
			continue;       /* statistics, name resolution, custom... */
		if (blen < 20)
			return fail(r, "packet block at offset %llu too short", (unsigned long long)off);
		uint32_t ifid = type == NG_EPB ? rd32(r, body) : rd16(r, body);
		uint32_t caplen = rd32(r, body + 12), orig = rd32(r, body + 16);
		if (ifid >= r->nifs)
			return fail(r, "packet %llu at offset %llu: interface %u was never described",
				    (unsigned long long)r->npkt + 1, (unsigned long long)off, ifid);
		if (caplen > blen - 20 || caplen > CAP_MAX_CAPLEN)
			return fail(r, "packet %llu at offset %llu: absurd captured length %u in a %u-byte block",
				    (unsigned long long)r->npkt + 1, (unsigned long long)off, caplen, len);
		if (ng_stamp(r, &r->ifs[ifid], rd32(r, body + 4), rd32(r, body + 8), &p->ts_ns, off) < 0)
			return -1;
		p->caplen = caplen;
		p->origlen = orig;
		p->linktype = r->ifs[ifid].linktype;
		p->ifid = ifid;
		p->data = body + 20;
		p->index = ++r->npkt;
		return 1;
	}
}

struct cap_reader *cap_open_stream(FILE *f, const char *name, int close_it,
				   char *err, size_t errlen)
{
	struct cap_reader *r = calloc(1, sizeof(*r));
	if (!r || !(r->buf = malloc(READ_CHUNK))) {
		snprintf(err, errlen, "%s: out of memory", name);
		free(r);
		if (close_it)
			fclose(f);
		return NULL;
	}
	r->f = f;
	r->close_it = close_it;
	r->cap = READ_CHUNK;
	snprintf(r->name, sizeof(r->name), "%s", name);
	int rc = need(r, 4);
	if (rc == 0) {
		fail(r, "empty file (not a capture)");
	} else if (rc == -1) {
		fail(r, "file too short to be a capture (%zu bytes)", r->len);
	} else if (rc == 1) {
		uint32_t m;
		memcpy(&m, r->buf, 4);
		if (m == PCAP_MAGIC_US || m == bswap32(PCAP_MAGIC_US))
			open_classic(r, PCAP_MAGIC_US);
		else if (m == PCAP_MAGIC_NS || m == bswap32(PCAP_MAGIC_NS))
			open_classic(r, PCAP_MAGIC_NS);
		else if (m == NG_SHB) {
			r->ng = 1;
			ng_shb(r, 0);
		} else
			fail(r, "not a pcap or pcapng file (magic 0x%08x)", m);
	}
	if (r->failed) {
		snprintf(err, errlen, "%s", r->err);
		cap_close(r);
		return NULL;
	}
	return r;
}

struct cap_reader *cap_open(const char *path, char *err, size_t errlen)
{
	if (strcmp(path, "-") == 0)
		return cap_open_stream(stdin, "stdin", 0, err, errlen);
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a capture file", path);
		fclose(f);
		return NULL;
	}
	return cap_open_stream(f, path, 1, err, errlen);
}

int cap_next(struct cap_reader *r, struct cap_packet *p)
{
	if (r->failed)
		return -1;
	return r->ng ? next_ng(r, p) : next_classic(r, p);
}

const char *cap_error(const struct cap_reader *r)
{
	return r->err;
}

const char *cap_format(const struct cap_reader *r)
{
	return r->fmt;
}

uint64_t cap_unstamped(const struct cap_reader *r)
{
	return r->unstamped;
}

void cap_close(struct cap_reader *r)
{
	if (!r)
		return;
	if (r->close_it)
		fclose(r->f);
	free(r->buf);
	free(r->ifs);
	free(r);
}

/* ---- writer ---- */

struct cap_writer {
	FILE *f;
	enum cap_fmt fmt;
	int ns, swap;
	int failed;
	char path[256];
};

static void put(struct cap_writer *w, const void *p, size_t n)
{
	if (fwrite(p, 1, n, w->f) != n)
		w->failed = 1;
}

static void put32(struct cap_writer *w, uint32_t v)
{
	v = w->swap ? bswap32(v) : v;
	put(w, &v, 4);
}

static void put16(struct cap_writer *w, uint16_t v)
{
	v = w->swap ? bswap16(v) : v;
	put(w, &v, 2);
}

struct cap_writer *cap_create(const char *path, enum cap_fmt fmt, int ns,
			      int big_endian, uint32_t linktype,
			      uint32_t snaplen, char *err, size_t errlen)
{
	struct cap_writer *w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
	if (!w->f) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		free(w);
		return NULL;
	}
	snprintf(w->path, sizeof(w->path), "%s", path);
	w->fmt = fmt;
	w->ns = ns;
	int host_big = *(const uint8_t *)&(uint16_t){1} == 0;
	w->swap = big_endian != host_big;
	if (fmt == CAP_PCAP) {
		put32(w, ns ? PCAP_MAGIC_NS : PCAP_MAGIC_US);
		put16(w, 2);
		put16(w, 4);
		put32(w, 0);
		put32(w, 0);
		put32(w, snaplen);
		put32(w, linktype);
	} else {
		put32(w, NG_SHB);
		put32(w, 28);
		put32(w, NG_BOM);
		put16(w, 1);
		put16(w, 0);
		put32(w, 0xffffffffu);  /* section length: unknown */
		put32(w, 0xffffffffu);
		put32(w, 28);
		/* IDB with if_tsresol: 4+4+2+2+4 + option(4+1 padded to 8) + end(4) + 4 */
		put32(w, NG_IDB);
		put32(w, 32);
		put16(w, (uint16_t)linktype);
		put16(w, 0);
		put32(w, snaplen);
		put16(w, 9);
		put16(w, 1);
		uint8_t res[4] = { (uint8_t)(ns ? 9 : 6), 0, 0, 0 };
		put(w, res, 4);
		put32(w, 0);            /* opt_endofopt */
		put32(w, 32);
	}
	if (w->failed) {
		snprintf(err, errlen, "%s: write error: %s", path, strerror(errno));
		fclose(w->f);
		free(w);
		return NULL;
	}
	return w;
}

int cap_write(struct cap_writer *w, int64_t ts_ns, const void *data,
	      uint32_t caplen, uint32_t origlen)
{
	if (w->fmt == CAP_PCAP) {
		int64_t sec = ts_ns / 1000000000, sub = ts_ns % 1000000000;
		if (sub < 0) {
			sec--;
			sub += 1000000000;
		}
		put32(w, (uint32_t)sec);
		put32(w, (uint32_t)(w->ns ? sub : sub / 1000));
		put32(w, caplen);
		put32(w, origlen);
		put(w, data, caplen);
	} else {
		uint64_t t = (uint64_t)(w->ns ? ts_ns : ts_ns / 1000);
		uint32_t pad = (4 - caplen % 4) % 4;
		uint32_t len = 32 + caplen + pad;
		static const uint8_t zero[4];
		put32(w, NG_EPB);
		put32(w, len);
		put32(w, 0);
		put32(w, (uint32_t)(t >> 32));
		put32(w, (uint32_t)t);
		put32(w, caplen);
		put32(w, origlen);
		put(w, data, caplen);
		put(w, zero, pad);
		put32(w, len);
	}
	return w->failed ? -1 : 0;
}

int cap_finish(struct cap_writer *w, char *err, size_t errlen)
{
	int bad = w->failed;
	if (w->f == stdout)
		bad |= fflush(w->f) != 0;
	else
		bad |= fclose(w->f) != 0;
	if (bad)
		snprintf(err, errlen, "%s: write error: %s", w->path, strerror(errno));
	free(w);
	return bad ? -1 : 0;
}
