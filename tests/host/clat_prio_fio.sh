# Latency per I/O priority as fio 3.33 reports it (clat_prio): for cmdprio_percentage on io_uring, cmdprio_percentage per direction with lat_percentiles and group_reporting on libaio, cmdprio_bssplit, and jobs of different prioclass in one group_reporting entry, iodig lists the same priorities in the same order with fio's keys and lines, each priority's count is within the random split of its share (as fio's is), and the counts add up to total_ios; a job of one priority shows none. timeout: 240
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
make_loop 64 || skip "cannot make a loop device"
BASE=(--filename="$LOOP" --direct=1 --bs=4k --size=8m)

# both TAG ARGS...: fio's and iodig's JSON and text reports of one job
both() {
	local tag=$1; shift
	fio "$@" --output-format=json,normal >"$TMP/$tag.f" 2>"$TMP/$tag.ferr"
	check "$tag: fio runs: $(head -c 200 "$TMP/$tag.ferr")" [ $? -eq 0 ]
	"$IODIG" run --no-probes --no-save --no-progress "$@" --output-format=normal,json \
		>"$TMP/$tag.i" 2>"$TMP/$tag.ierr"
	check "$tag: iodig runs: $(head -c 200 "$TMP/$tag.ierr")" [ $? -eq 0 ]
	split_report "$TMP/$tag.i"
	sed -n '/^{/,/^}/p' "$TMP/$tag.f" >"$TMP/$tag.f.json"
	sed '/^{/,/^}/d' "$TMP/$tag.f" >"$TMP/$tag.f.txt"
}

# prios FILE DIR: "class/level key" per listed priority, in order
prios() {
	jqr -c ".jobs[0].$2 | [.prios[]? | \"\\(.prioclass)/\\(.prio) \\(keys_unsorted[2])\"
		+ (if (.[keys_unsorted[2]].percentile) then \" pct\" else \"\" end)]" "$1"
}
# count FILE DIR CLASS LEVEL: that priority's samples (0: not listed)
count() {
	jqr "[.jobs[0].$2.prios[]? | select(.prioclass == $3 and .prio == $4)
		| (.clat_ns // .lat_ns).N] | add // 0" "$1"
}
# within N K PCT: K of N samples is within 4.5 binomial deviations of PCT%
within() {
	awk -v n="$1" -v k="$2" -v p="$3" 'BEGIN { p /= 100; d = k - n * p; if (d < 0) d = -d;
		exit !(n > 0 && d <= 4.5 * sqrt(n * p * (1 - p)) + 1) }'
}

# same_shape TAG DIR: the same priorities, keys and order as fio, their
# counts adding up to total_ios, prios right after lat_ns
same_shape() {
	local f=$TMP/$1.f.json i=$TMP/$1.i.json
	local pf pi sum total
	pf=$(prios "$f" "$2") pi=$(prios "$i" "$2")
	check "$1 $2: priorities as fio's ($pf), iodig $pi" [ "$pf" = "$pi" -a "$pf" != "[]" ]
	sum=$(jqr "[.jobs[0].$2.prios[] | (.clat_ns // .lat_ns).N] | add" "$i")
	total=$(jqr ".jobs[0].$2.total_ios" "$i")
	check "$1 $2: the priorities' counts add up to total_ios ($sum of $total)" [ "$sum" = "$total" ]
	check "$1 $2: prios follows lat_ns as in fio" \
		[ "$(jqr -c ".jobs[0].$2 | keys_unsorted" "$i")" = "$(jqr -c ".jobs[0].$2 | keys_unsorted" "$f")" ]
}

# split_share TAG DIR CLASS LEVEL PCT: that priority got PCT% in both runs
split_share() {
	local n k
	for who in f i; do
		n=$(jqr ".jobs[0].$2.total_ios" "$TMP/$1.$who.json")
		k=$(count "$TMP/$1.$who.json" "$2" "$3" "$4")
		check "$1 $2 ($who): $3/$4 has $k of $n I/Os, ${5}% within the random split" within "$n" "$k" "$5"
	done
}

# split_near TAG DIR CLASS LEVEL: that priority's share of the I/Os in
# iodig's run is within the random split of fio's share
split_near() {
	local nf kf ni ki
	nf=$(jqr ".jobs[0].$2.total_ios" "$TMP/$1.f.json") kf=$(count "$TMP/$1.f.json" "$2" "$3" "$4")
	ni=$(jqr ".jobs[0].$2.total_ios" "$TMP/$1.i.json") ki=$(count "$TMP/$1.i.json" "$2" "$3" "$4")
	check "$1 $2: $3/$4 has $ki of $ni I/Os, fio $kf of $nf, within the random split" \
		awk -v nf="$nf" -v kf="$kf" -v ni="$ni" -v ki="$ki" 'BEGIN {
			if (!nf || !ni || !kf || !ki) exit 1
			p = (kf + ki) / (nf + ni); d = kf / nf - ki / ni; if (d < 0) d = -d
			exit !(d <= 4.5 * sqrt(p * (1 - p) * (1 / nf + 1 / ni))) }'
}

# text_lines TAG: the report's per-priority lines, share and unit taken out
text_lines() {
	grep -E '^ +c?lat prio [0-9]' "$1" |
		sed -E 's/: min=.*//; s/ \([0-9.]+% of IOs\)//; s/ \([num]sec\)//'
}
same_text() {
	local f i
	f=$(text_lines "$TMP/$1.f.txt") i=$(text_lines "$TMP/$1.i.txt")
	check "$1: text lines as fio's: $(echo "$f" | tr '\n' ';') / iodig: $(echo "$i" | tr '\n' ';')" \
		[ "$f" = "$i" -a -n "$f" ]
}

both uring "${BASE[@]}" --name=u --rw=randread --ioengine=io_uring --iodepth=8 \
	--cmdprio_percentage=30 --cmdprio_class=1
same_shape uring read
split_share uring read 1 0 30
same_text uring

both aio "${BASE[@]}" --name=a --rw=randrw --ioengine=libaio --iodepth=4 --numjobs=2 \
	--group_reporting --lat_percentiles=1 --cmdprio_percentage=20,40 --cmdprio_class=2 --cmdprio=1 \
	--prio=5
same_shape aio read
same_shape aio write
split_share aio read 2 1 20
split_share aio write 2 1 40
same_text aio

both split "${BASE[@]}" --name=s --rw=randwrite --ioengine=io_uring --iodepth=4 \
	--bssplit=4k/50:8k/50 --cmdprio_bssplit=4k/50/3/0:8k/30/1/2:8k/20/3/0
same_shape split write
split_near split write 3 0
split_near split write 1 2
same_text split

# two jobs of one group_reporting entry, each of one priority
both group "${BASE[@]}" --rw=randread --ioengine=psync --group_reporting \
	--name=g1 --prioclass=2 --prio=3 --name=g2 --prioclass=3
same_shape group read
same_text group

# one priority: no per-priority figures, in fio as here
"$IODIG" run --no-probes --no-save "${BASE[@]}" --name=one --rw=randread --ioengine=io_uring \
	--prioclass=2 --output-format=json >"$TMP/one.json" 2>/dev/null
check "one priority: no prios key" [ "$(jqr '.jobs[0].read | has("prios")' "$TMP/one.json")" = false ]
done_testing
