# write_iolog against fio 3.33: the same iolog version 3 (header, the files added, opened and closed, each I/O's file, direction, offset and length in order, the syncs of fsync=/fdatasync= with psync, libaio and io_uring), timestamps aside; read_iolog overrides write_iolog, as in fio.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"

# without_times LOG: an iolog with each I/O line's leading time cut
without_times() { sed -E '2,$s/^[0-9]+ //' "$1"; }
# same_log A B: two iologs, both written, equal line for line without times
same_log() { [ -s "$1" ] && [ -s "$2" ] && cmp -s <(without_times "$1") <(without_times "$2"); }

# both CASE JOB-ARGS...: each tool writes CASE's log in its own empty
# directory; the logs must match line for line without their times.
both() {
	local name=$1 i=$TMP/$1/i/trace f=$TMP/$1/f/trace
	iolog_pair "$@"
	check "$name: the same log as fio's: $(diff <(without_times "$i" 2>&1) <(without_times "$f" 2>&1) | head -5)" \
		same_log "$i" "$f"
	check "$name: times never go back" awk 'NR > 1 && $1 < last { exit 1 } NR > 1 { last = $1 }' "$i"
}

both randwrite --name=w --filename=f --size=256k --bs=16k --rw=randwrite
both read_skip --name=r --filename=f --size=1m --bs=64k --rw=read:64k --ioengine=libaio --iodepth=4
both bssplit --name=b --filename=f --size=512k --bssplit=4k/50:16k/50 --rw=randread --ioengine=io_uring --iodepth=2
both verify --name=v --filename=f --size=128k --bs=8k --rw=write --verify=crc32c
# fsync=/fdatasync=: each sync a line of its own when issued, with the
# offset of the io_u fio took for it and length 0
both fsync_psync --name=s --filename=f --size=64k --bs=4k --rw=write --iodepth=4 --fsync=4
both fdatasync_libaio --name=s --filename=f --size=64k --bs=4k --rw=write --ioengine=libaio \
	--iodepth=4 --fdatasync=3
# libaio turns a sync away while it holds unsubmitted writes: fio logs the
# try, submits, reaps and logs the sync again
both fsync_libaio_batch --name=s --filename=f --size=256k --bs=4k --rw=write --ioengine=libaio \
	--iodepth=16 --iodepth_batch_submit=8 --fsync=4

# io_uring queues its syncs beside the writes and issues as many as fill
# the free slots until one's completion is reaped, a number that varies
# run to run (docs/usage.md): the same log once each run of syncs is one
# line, every sync line of the right kind, length 0
runs_collapsed() { without_times "$1" | sed -E 's/ (sync|datasync) [0-9]+ 0$/ \1/' | uniq; }
for o in fsync=4 fdatasync=3; do
	name=uring_${o%%=*} i=$TMP/uring_${o%%=*}/i/trace f=$TMP/uring_${o%%=*}/f/trace
	mkdir -p "${i%/trace}" "${f%/trace}"
	job=(--name=s --filename=f --size=64k --bs=4k --rw=write --ioengine=io_uring --iodepth=4 --$o)
	(cd "${i%/trace}" && "$IODIG" run --no-probes --no-save --write_iolog=trace "${job[@]}" >/dev/null 2>&1)
	(cd "${f%/trace}" && fio --write_iolog=trace "${job[@]}" >/dev/null 2>&1)
	kind=${o%%=*}; kind=${kind#f}
	check "$name: fio logged its syncs ($(grep -c " $kind " "$f"))" grep -q " $kind [0-9]* 0$" "$f"
	check "$name: the same log as fio's, each run of syncs one line: $(diff <(runs_collapsed "$i") <(runs_collapsed "$f") | head -5)" \
		cmp -s <(runs_collapsed "$i") <(runs_collapsed "$f")
done

# numjobs: fio opens the log to append, so each clone adds its own log
# (header, its file's add and open, its I/O, close) to the one file, in
# the order the clones end.  The same logs as fio's, each clone's whole,
# in any order: per-clone files (sequential: a clone's offsets do not
# depend on which clone fio seeds it as) and one shared file (random).
# sections LOG: each log of LOG on one line, times cut, sorted
sections() {
	sed -E 's/^[0-9]+ //' "$1" | awk '/^fio version/ && NR > 1 { print "" }
		{ printf "%s|", $0 } END { print "" }' | sort
}
clones() {
	local name=$1 i=$TMP/$1/i/trace f=$TMP/$1/f/trace; shift
	mkdir -p "${i%/trace}" "${f%/trace}"
	(cd "${i%/trace}" && "$IODIG" run --no-probes --no-save --write_iolog=trace "$@" >/dev/null 2>&1)
	(cd "${f%/trace}" && fio --write_iolog=trace "$@" >/dev/null 2>&1)
	check "$name: fio wrote 3 logs ($(grep -c '^fio version' "$f"))" [ "$(grep -c '^fio version' "$f")" = 3 ]
	check "$name: the same 3 logs as fio's: $(diff <(sections "$i" 2>&1) <(sections "$f" 2>&1) | cut -c1-150 | head -4)" \
		cmp -s <(sections "$i") <(sections "$f")
}
clones numjobs_files --name=n --size=64k --bs=8k --rw=read --numjobs=3
clones numjobs_shared --name=n --filename=f --size=128k --bs=4k --rw=randread --numjobs=3

# a second run adds its log after the first's, as fio's "a" does
for t in i f; do
	(cd "$TMP/randwrite/$t" && if [ $t = i ]; then
		"$IODIG" run --no-probes --no-save --write_iolog=trace --name=w --filename=f \
			--size=256k --bs=16k --rw=randwrite >/dev/null 2>&1
	else
		fio --write_iolog=trace --name=w --filename=f --size=256k --bs=16k \
			--rw=randwrite >/dev/null 2>&1
	fi)
done
check "second run: two logs in the file, as fio's ($(grep -c '^fio version' "$TMP/randwrite/i/trace") vs $(grep -c '^fio version' "$TMP/randwrite/f/trace"))" \
	cmp -s <(sections "$TMP/randwrite/i/trace") <(sections "$TMP/randwrite/f/trace")

# fio: "read iolog overrides write_iolog": the replay writes no log
rc=0
(cd "$TMP/randwrite/i" && "$IODIG" run --no-probes --no-save --name=x --read_iolog=trace \
	--write_iolog=again >/dev/null 2>../r.err) || rc=$?
check "read_iolog: replayed (exit $rc: $(head -c 300 "$TMP/randwrite/r.err"))" [ $rc = 0 ]
check "read_iolog overrides write_iolog" [ ! -e "$TMP/randwrite/i/again" ]
done_testing
