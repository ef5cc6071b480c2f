# SPDX-License-Identifier: GPL-2.0-or-later
# Independent computation of the thesis table from sorted integer samples
# (one per line, sorted with sort -n), printed as "key value" lines with
# the keys of `tsstat --json`. Same definitions as tools/lib/stats.h, but
# written separately: plain sums, no selection algorithm.
{ x[NR - 1] = $1 + 0; s += $1 }
function q(p,   h, lo) {
	h = (n - 1) * p; lo = int(h)
	if (lo + 1 >= n) return x[n - 1]
	return x[lo] + (h - lo) * (x[lo + 1] - x[lo])
}
END {
	n = NR
	print "samples", n
	if (n == 0) exit
	mean = s / n
	for (i = 0; i < n; i++) { d = x[i] - mean; m2 += d * d; m3 += d * d * d; m4 += d * d * d * d }
	printf "mean_ns %.17g\n", mean
	printf "variance_ns2 %.17g\n", (n > 1 ? m2 / (n - 1) : 0)
	m2 /= n; m3 /= n; m4 /= n
	printf "skewness %.17g\n", m3 / (m2 ^ 1.5)
	printf "kurtosis %.17g\n", m4 / (m2 * m2)
	printf "min_ns %d\n", x[0]
	printf "p25_ns %.17g\n", q(0.25)
	printf "p50_ns %.17g\n", q(0.50)
	printf "p75_ns %.17g\n", q(0.75)
	printf "p99_ns %.17g\n", q(0.99)
	printf "max_ns %d\n", x[n - 1]
}
