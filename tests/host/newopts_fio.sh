# Newer fio options against fio 3.33: offset=N% and size=N% give fio's I/O (the same iolog), cmdprio_percentage gives fio's log_prio column (the same priority values, 0/1 realtime flags without log_prio, the share within a binomial bound); log_window_value=both and log_issue_time write fio 3.37/3.38's extra columns; options fio refuses together are refused.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"

# offsets CASE FILE-BYTES JOB-ARGS...: both tools on an existing file of
# FILE-BYTES; their iologs must match line for line without their times.
offsets() {
	local name=$1 bytes=$2; shift 2
	for t in i f; do
		mkdir -p "$TMP/$name/$t" && truncate -s "$bytes" "$TMP/$name/$t/pf"
	done
	(cd "$TMP/$name/i" && "$IODIG" run --no-probes --no-save --output=/dev/null \
		--name=p --filename=pf --write_iolog=trace "$@" >/dev/null 2>../i.err)
	rc=$?
	check "$name: iodig ran ($(head -c 300 "$TMP/$name/i.err"))" [ "$rc" = 0 ]
	(cd "$TMP/$name/f" && fio --output=/dev/null --name=p --filename=pf \
		--write_iolog=trace "$@" >/dev/null 2>&1)
	strip() { sed -E '2,$s/^[0-9]+ //' "$1" 2>/dev/null; }
	check "$name: the same I/O as fio's: $(diff <(strip "$TMP/$name/i/trace") <(strip "$TMP/$name/f/trace") | head -4)" \
		[ -s "$TMP/$name/f/trace" ] && cmp -s <(strip "$TMP/$name/i/trace") <(strip "$TMP/$name/f/trace")
}

offsets pct_read 10000000 --rw=read --bs=4k --offset=30% --size=20%
offsets pct_align 10000000 --rw=write --bs=8k --offset=33% --offset_align=64k --size=10%
offsets pct_zero 4194304 --rw=randread --bs=16k --offset=0% --size=50%
offsets pct_whole 4194304 --rw=read --bs=64k --offset=75%

# prio_log TOOL: a libaio job with 40% realtime I/Os, its clat log's
# last column with and without log_prio, in $TMP/prio/TOOL.
need_root
make_loop 64
prio_log() {
	local d=$TMP/prio/$1; shift
	mkdir -p "$d" && (cd "$d" && "$@" --name=p --filename="$LOOP" --ioengine=libaio \
		--direct=1 --rw=randread --bs=4k --iodepth=4 --number_ios=2000 \
		--cmdprio_percentage=40 --cmdprio_class=1 --cmdprio=2 \
		--write_lat_log=a --log_prio=1 --output=/dev/null >/dev/null 2>err)
}
prio_log i "$IODIG" run --no-probes --no-save
prio_log f fio
for t in i f; do
	awk -F', ' '{ print $5 }' "$TMP/prio/$t/a_clat.1.log" | sort | uniq -c > "$TMP/prio/$t.values"
done
check "log_prio: the same priority values as fio's ($(cat "$TMP/prio/i.values" | tr '\n' ' '))" \
	cmp -s <(awk '{ print $2 }' "$TMP/prio/i.values") <(awk '{ print $2 }' "$TMP/prio/f.values")
hi=$(awk '$2 == "0x2002" { print $1 }' "$TMP/prio/i.values")
# 2000 draws at 40%: mean 800, sd 21.9; 4.5 sd either side
check "log_prio: $hi of 2000 I/Os realtime, within 800 +- 99" [ "${hi:-0}" -ge 701 -a "${hi:-0}" -le 899 ]

# without log_prio the column is fio's realtime flag
mkdir -p "$TMP/flag" && (cd "$TMP/flag" && "$IODIG" run --no-probes --no-save --output=/dev/null \
	--name=p --filename="$LOOP" --ioengine=io_uring --direct=1 --rw=randread --bs=4k \
	--number_ios=500 --cmdprio_percentage=50 --write_lat_log=a >/dev/null 2>&1)
check "no log_prio: the column is 0 or 1, both seen" \
	[ "$(awk -F', ' '{ print $5 }' "$TMP/flag/a_clat.1.log" | sort -u | tr '\n' ' ')" = "0 1 " ]

# log_window_value=both: TIME, MEAN, MAX, DDIR, BS, PRIO with MEAN <= MAX;
# log_issue_time: a seventh column in the clat log (with log_offset)
mkdir -p "$TMP/win" && (cd "$TMP/win" && "$IODIG" run --no-probes --no-save --output=/dev/null \
	--name=w --filename="$LOOP" --rw=read --bs=4k --runtime=1 --time_based \
	--write_lat_log=b --log_avg_msec=100 --log_window_value=both >/dev/null 2>&1 &&
	"$IODIG" run --no-probes --no-save --output=/dev/null --name=t --filename="$LOOP" \
	--rw=read --bs=4k --number_ios=100 --write_lat_log=c --log_offset=1 \
	--log_issue_time=1 >/dev/null 2>&1)
check "log_window_value=both: six columns, mean <= max" \
	awk -F', ' 'NF != 6 || $2 > $3 { exit 1 } END { exit NR < 5 }' "$TMP/win/b_clat.1.log"
check "log_issue_time: seven columns, issue times that never go back" \
	awk -F', ' 'NF != 7 || $7 < last { exit 1 } { last = $7 } END { exit NR != 100 }' "$TMP/win/c_clat.1.log"

# atomic=1: RWF_ATOMIC reaches the kernel on every engine that takes it
# (tmpfs refuses atomic writes, so the flag turns a good write into
# EOPNOTSUPP); a device without atomic writes and other engines: refused
for e in pvsync2 libaio io_uring; do
	"$IODIG" run --no-probes --no-save --output=/dev/null --name=a --filename="$TMP/af" \
		--size=64k --bs=4k --rw=write --ioengine=$e --atomic=0 >/dev/null 2>&1
	check "atomic=0, $e: the write works on tmpfs" [ $? = 0 ]
	"$IODIG" run --no-probes --no-save --output=/dev/null --name=a --filename="$TMP/af" \
		--size=64k --bs=4k --rw=write --ioengine=$e --atomic=1 >/dev/null 2>"$TMP/a.err"
	check "atomic=1, $e: the kernel refuses it ($(tail -1 "$TMP/a.err"))" \
		grep -q "Operation not supported" "$TMP/a.err"
done
if [ "$(cat /sys/block/"${LOOP#/dev/}"/queue/atomic_write_unit_max_bytes 2>/dev/null)" = 0 ]; then
	"$IODIG" run --no-probes --no-save --name=a --filename="$LOOP" --rw=write --bs=4k \
		--size=64k --atomic=1 --ioengine=libaio --allow-destructive >/dev/null 2>"$TMP/a2.err"
	check "atomic=1 on a device without atomic writes: refused naming it" \
		grep -q "${LOOP#/dev/}/queue/atomic_write_unit_max_bytes is 0" "$TMP/a2.err"
fi
"$IODIG" run --no-probes --no-save --name=a --filename="$TMP/af" --rw=write --size=64k \
	--atomic=1 --ioengine=psync >/dev/null 2>"$TMP/a3.err"
check "atomic=1 with psync: refused" grep -q "atomic=1 needs ioengine" "$TMP/a3.err"

# refusals naming the option
"$IODIG" run --no-probes --no-save --name=x --filename="$LOOP" --log_issue_time=1 \
	--write_lat_log=x >/dev/null 2>"$TMP/r1.err"
check "log_issue_time without log_offset: refused" grep -q "log_issue_time needs" "$TMP/r1.err"
"$IODIG" run --no-probes --no-save --name=x --filename="$LOOP" --ioengine=libaio \
	--cmdprio_percentage=10 --cmdprio_bssplit=4k/10 >/dev/null 2>"$TMP/r2.err"
check "cmdprio_percentage with cmdprio_bssplit: refused" grep -q "exclude each other" "$TMP/r2.err"
"$IODIG" run --no-probes --no-save --name=x --filename="$LOOP" --ioengine=libaio \
	--cmdprio_bssplit=4k/60/1/1:4k/50/2/2 >/dev/null 2>"$TMP/r3.err"
check "cmdprio_bssplit over 100% for one size: refused" grep -q "add to more than 100" "$TMP/r3.err"
"$IODIG" run --no-probes --no-save --name=x --filename="$LOOP" --offset=120% >/dev/null 2>"$TMP/r4.err"
check "offset=120%: refused" grep -q "not a percentage" "$TMP/r4.err"
done_testing
