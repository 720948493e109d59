#!/bin/bash
# log_compression and log_store_compressed, against fio 3.33 on the same
# jobs: with log_compression the lat/bw/iops logs are the files of the
# run without it (names, lines, columns, the columns that do not time
# anything line for line) and fio's; log_store_compressed=1 writes fio's
# file names with .fz, which `fio --inflate-log` prints as iodig's text;
# and the worker's peak memory (VmHWM, read by exec_postrun from
# /proc/$PPID) on a run of a million-odd log lines is far lower compressed.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1
truncate -s 4m f || skip "cannot make a file in $TMP"
JOB=(--name=a --filename="$TMP/f" --rw=randrw --bs=4k --size=4m --ioengine=psync
     --write_lat_log=x --write_bw_log=x --write_iops_log=x --log_offset=1)

# run DIR TOOL ARGS...: the job in DIR/ by TOOL
run() {
	local dir=$1 tool=$2; shift 2
	rm -rf "$dir" && mkdir "$dir"
	if [ "$tool" = fio ]; then
		(cd "$dir" && fio "${JOB[@]}" "$@" --output=/dev/null) 2>"$dir.err"
	else
		(cd "$dir" && "$IODIG" run --no-probes --no-save "${JOB[@]}" "$@" >/dev/null) 2>"$dir.err"
	fi || fail "$tool $*: $(head -c 300 "$dir.err")"
}
# shape FILE: its lines and their column counts, e.g. "1024 6"
shape() { echo "$(wc -l <"$1") $(awk -F, '{print NF}' "$1" | sort -u | paste -sd/)"; }
files() { (cd "$1" && ls) | paste -sd' '; }
# same_untimed A B: A and B have lines, whose columns that time nothing
# (ddir, bs, offset, prio) are the same, line for line
same_untimed() { [ -s "$1" -a -s "$2" ] && cmp -s <(cut -d, -f3- "$1") <(cut -d, -f3- "$2"); }

run plain iodig
run z iodig --log_compression=64k
run fz fio --log_compression=64k
check "log_compression=64k: the files of the run without it: $(files z)" \
	[ "$(files z)" = "$(files plain)" -a "$(files z)" = "$(files fz)" ]
for k in slat clat lat bw iops; do
	f=x_$k.1.log s=$(shape "z/$f" 2>/dev/null)
	check "$f: lines, columns '$s', without it '$(shape "plain/$f")', fio '$(shape "fz/$f")'" \
		[ -n "$s" -a "$s" = "$(shape "plain/$f")" -a "$s" = "$(shape "fz/$f")" ]
	[ "$k" = slat ] && continue
	check "$f: ddir, bs, offset, prio line for line as without it" \
		same_untimed "z/$f" "plain/$f"
done
check "clat: every line timed (no 0 latency)" \
	[ "$(awk -F, '$2 + 0 <= 0' z/x_clat.1.log | wc -l)" = 0 -a -s z/x_clat.1.log ]

run s iodig --log_compression=64k --log_store_compressed=1
run fs fio --log_compression=64k --log_store_compressed=1
check "log_store_compressed=1: fio's file names: $(files s)" \
	[ "$(files s)" = "$(files fs)" -a "$(files s)" = "x_bw.1.log.fz x_clat.1.log.fz x_iops.1.log.fz x_lat.1.log.fz x_slat.1.log.fz" ]
for k in slat clat lat bw iops; do
	f=x_$k.1.log
	fio --inflate-log="s/$f.fz" >"s/$f" 2>s.err
	check "fio --inflate-log=$f.fz: $(shape "s/$f"), as iodig's text $(shape "plain/$f") ($(head -c 100 s.err))" \
		[ ! -s s.err -a "$(shape "s/$f")" = "$(shape "plain/$f")" ]
	[ "$k" = slat ] && continue
	check "$f.fz: ddir, bs, offset, prio line for line as iodig's text" \
		same_untimed "s/$f" "plain/$f"
done
# the times and values too: iodig's text of the run with log_compression
# and no log_store_compressed, the same records
run s2 iodig --log_prio=1 --log_compression=1k --log_store_compressed=1
run z2 iodig --log_prio=1 --log_compression=1k
f=x_iops.1.log
fio --inflate-log="s2/$f.fz" >"s2/$f" 2>/dev/null
check "log_prio=1, 1k chunks: $f.fz inflated is the text's format: $(head -1 "s2/$f")" \
	[ -s "s2/$f" ] && cmp -s <(cut -d, -f2- "s2/$f") <(cut -d, -f2- "z2/$f")

# memory: a long run of per-I/O lines (the null engine: 2^19 I/Os)
MEM=(--name=m --ioengine=null --size=2g --bs=4k --rw=randread --write_lat_log=m --write_bw_log=m
     --exec_postrun='grep VmHWM /proc/$PPID/status')
hwm() {
	rm -rf "$1" && mkdir "$1"
	(cd "$1" && "$IODIG" run --no-probes --no-save "${MEM[@]}" "${@:2}" >/dev/null 2>../"$1.err") ||
		fail "memory run ${*:2}: $(head -c 300 "$1.err")"
	awk '{print $2}' "$1/m.postrun.txt" 2>/dev/null
}
big=$(hwm mplain) small=$(hwm mz --log_compression=64k)
check "worker's VmHWM with log_compression=64k: $small kB, without: $big kB" \
	[ -n "$big" -a -n "$small" ] && [ "$small" -lt $((big / 4)) ]
check "the same lines: $(wc -l <mz/m_clat.1.log) of 524288" \
	[ "$(wc -l <mz/m_clat.1.log)" = 524288 -a "$(wc -l <mplain/m_clat.1.log)" = 524288 ]

refused "log_compression below fio's 1024" "log_compression.*out of range 1024-536870912" \
	--log_compression=100
refused "log_store_compressed with write_hist_log (fio stores pointers)" \
	"log_store_compressed.*write_hist_log" --log_store_compressed=1 --write_hist_log=h
done_testing
