#!/bin/bash
# Each I/O's size as fio 3.33 chooses it (get_next_buflen): with bsrange,
# bssplit, bs_unaligned, bs_is_seq_rand and random_generator=tausworthe64,
# a sized job on a tmpfs file does as many I/Os per direction, and as many
# bytes, as fio's; and both write_iologs list the same I/Os (file, offset,
# size) in the same order, which compares the sizes one by one, not just
# their histogram.  Jobs of one direction only: which direction a mixed
# job takes is another matter (rwmixread).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "no fio"
command -v jq >/dev/null || skip "no jq"
cd "$TMP" || exit 1

# totals JSON: "read_ios read_bytes write_ios write_bytes trim_ios
# trim_bytes", summed over the jobs
totals() {
	sed -n '/^{/,$p' "$1" | jq -r '[.jobs[] | [.read.total_ios, .read.io_bytes,
		.write.total_ios, .write.io_bytes, .trim.total_ios, .trim.io_bytes]] |
		transpose | map(add) | join(" ")' 2>/dev/null
}
# ios LOG: the iolog's I/Os, "file direction offset size" a line
ios() {
	awk '$(NF-2) ~ /^(read|write|trim)$/ { n = split($(NF-3), p, "/");
		print p[n], $(NF-2), $(NF-1), $NF }' "$1" 2>/dev/null
}
# run TOOL OUT OPTS...: the job on fresh files in d/, its report in
# OUT.json and its iolog in OUT.log
run() {
	local tool=$1 out=$2; shift 2
	rm -rf d "$out.log" && mkdir d
	if [ "$tool" = fio ]; then
		set -- fio "$@"
	else
		set -- "$IODIG" run --no-probes --no-save "$@"
	fi
	"$@" --name=t --directory="$TMP/d" --output-format=json --write_iolog="$out.log" \
		>"$out.json" 2>"$out.err" || fail "$tool $*: $(head -c 200 "$out.err")"
}
# same WHAT OPTS...: fio and iodig do the job alike (LOGS=0: its totals
# only, for clones that share one iolog)
same() {
	local what=$1 a b n; shift
	run fio f "$@"
	run iodig i "$@"
	a=$(totals f.json) b=$(totals i.json)
	check "$what: I/Os and bytes per direction (r w t), fio [$a], iodig [$b]" \
		[ -n "$a" -a "$a" = "$b" ]
	[ "${LOGS:-1}" = 0 ] && return
	n=$(ios f.log | wc -l)
	check "$what: the same $n I/Os, offsets and sizes in the iologs" \
		eval '[ "$n" -gt 0 ] && cmp -s <(ios f.log) <(ios i.log)'
}

iometer=512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10
same "read bsrange=512-4k" --size=2m --rw=read --bsrange=512-4k
same "write bsrange=512-4k" --size=2m --rw=write --bsrange=512-4k
same "randread bsrange=512-4k" --size=2m --rw=randread --bsrange=512-4k
same "randwrite bsrange=4k-64k" --size=2m --rw=randwrite --bsrange=4k-64k
same "randwrite bsrange=1k-4k,2k-8k (the write range)" --size=2m --rw=randwrite \
	--bsrange=1k-4k,2k-8k
same "randread bsrange=1k-4k,2k-8k (the read range)" --size=2m --rw=randread \
	--bsrange=1k-4k,2k-8k
same "randread iometer's bssplit" --size=2m --rw=randread --bssplit=$iometer
same "randwrite bssplit=512/25:1k/:2k/ (shared percentages)" --size=2m --rw=randwrite \
	--bssplit=512/25:1k/:2k/
same "write bssplit=4k/50:8k/50,512/25:1k/:2k/ (the write part)" --size=2m --rw=write \
	--bssplit=4k/50:8k/50,512/25:1k/:2k/
same "randread bssplit=4k/50:8k/50:16k/0 (a 0% entry)" --size=2m --rw=randread \
	--bssplit=4k/50:8k/50:16k/0
# an entry larger than the file: passed over where it does not fit
same "randread size=100k bssplit=4k/30:1m/70" --size=100k --rw=randread --bssplit=4k/30:1m/70
same "read size=100k bssplit=4k/30:1m/70" --size=100k --rw=read --bssplit=4k/30:1m/70
same "randwrite bsrange=1000-9000 bs_unaligned=1" --size=2m --rw=randwrite \
	--bsrange=1000-9000 --bs_unaligned=1
same "randread iometer's bssplit, tausworthe64" --size=2m --rw=randread --bssplit=$iometer \
	--random_generator=tausworthe64
same "randread bsrange=512-64k, tausworthe64" --size=2m --rw=randread --bsrange=512-64k \
	--random_generator=tausworthe64
LOGS=0 same "randread bsrange=512-64k numjobs=2 randseed=77" --size=2m --rw=randread \
	--bsrange=512-64k --numjobs=2 --randseed=77
same "randread bs_is_seq_rand=1 bsrange=1k-4k,8k-64k percentage_random=50" --size=2m \
	--rw=randread --bs_is_seq_rand=1 --bsrange=1k-4k,8k-64k --percentage_random=50
same "randread bs_is_seq_rand=1 bssplit=1k/50:4k/50,8k/50:64k/50 percentage_random=50" \
	--size=2m --rw=randread --bs_is_seq_rand=1 --bssplit=1k/50:4k/50,8k/50:64k/50 \
	--percentage_random=50
same "trimwrite bsrange=512-64k (null engine)" --size=2m --rw=trimwrite --bsrange=512-64k \
	--ioengine=null
same "randtrimwrite bssplit=4k/20:8k/80,16k/50:32k/50,1k/50:2k/50 (null engine)" --size=2m \
	--rw=randtrimwrite --bssplit=4k/20:8k/80,16k/50:32k/50,1k/50:2k/50 --ioengine=null
# lfsr: no random map, so no size is cut at a block done already; the
# order of its blocks is not fio's (lfsr_fio.sh), so only the totals, at
# the default seed, where no size is drawn again for lack of room
LOGS=0 same "randread bsrange=1k-64k random_generator=lfsr" --size=2m --rw=randread \
	--bsrange=1k-64k --random_generator=lfsr
# several files: a size that fits in the file after the offset
same "read nrfiles=2 bssplit=4k/30:1m/70" --size=3m --nrfiles=2 --rw=read \
	--bssplit=4k/30:1m/70
done_testing
