#!/bin/bash
# What the bench scripts compute alike: medians, and ratios of paired runs
# with a confidence interval (on a shared machine a ratio of single runs,
# or of medians alone, says little: the pairs' spread does).  Sourced.

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# "geomean lo hi n" of the ratios $2/$1, line by line: the geometric mean
# of the pairs' ratios with a 95% bootstrap CI (resampled 2000 times);
# "- - - n" with fewer than two pairs.
paired_ratio() {
	local logs
	logs=$(paste -d' ' "$1" "$2" | awk '$1 > 0 && $2 > 0 { print log($2 / $1) }')
	[ "$(echo "$logs" | grep -c .)" -ge 2 ] || { echo "- - - $(echo "$logs" | grep -c .)"; return; }
	echo "$logs" | awk '{ r[++n] = $1; s += $1 } END {
		srand(17); for (b = 1; b <= 2000; b++) {
			t = 0; for (i = 1; i <= n; i++) t += r[int(rand() * n) + 1]
			print t / n
		}
		print "all", s / n, n }' | sort -g | awk '
		$1 == "all" { g = $2; n = $3; next } { m[++k] = $1 }
		END { printf "%.3f %.3f %.3f %d\n", exp(g), exp(m[50]), exp(m[1951]), n }'
}

# paired_ratio as "geomean (lo-hi, n rounds)"
paired_ci() {
	paired_ratio "$1" "$2" | awk '$1 == "-" { print "-"; next }
		{ printf "%s (%s-%s, %d rounds)\n", $1, $2, $3, $4 }'
}

# bench_loop: LOOP, a loop device on a 1 GiB file in $TMP (tmpfs), filled
# with random data so reads move real pages, not holes; the caller's
# cleanup detaches it.
bench_loop() {
	truncate -s 1G "$TMP/backing"
	LOOP=$(losetup -f --show "$TMP/backing")
	dd if=/dev/urandom of="$LOOP" bs=1M count=1024 oflag=direct status=none
}
