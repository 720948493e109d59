#!/bin/bash
# Syncs of a job whose io_size runs past its files (several passes, each a
# new fio loop) against fio 3.33: a new loop's first I/O is a sync when
# the writes so far are a multiple of fsync=/fdatasync=/sync_file_range=
# (so a pass that ended on one syncs again), a loop ends at size queued
# before its sync (libaio), and end_fsync and fsync_on_close sync each
# file at every pass's end, fsync_on_close also as a file closes.  Each
# tool runs the job with write_iolog; the logs must be equal line by line
# but for their times.  Then the system calls: with several files the
# opens, closes and syncs of the job's files in order must be fio's; with
# one file (iodig opens it again in place) its writes and syncs.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v strace >/dev/null || skip "needs strace"
cd "$TMP" || exit 1

JOB="--name=j --bs=4k --size=64k --io_size=160k --rw=write"
syncs() { grep -cE ' (sync|datasync|sync_file_range) ' "$1"; }

n=0
while read -r OPTS; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # JOB and OPTS are words
	iolog_pair "p$n" $JOB $OPTS
	i=$TMP/p$n/i/trace f=$TMP/p$n/f/trace
	check "'$OPTS': fio synced ($(syncs "$f") lines)" [ "$(syncs "$f")" -gt 0 ]
	check "'$OPTS': syncs iodig $(syncs "$i"), fio $(syncs "$f")" \
		[ "$(syncs "$i")" = "$(syncs "$f")" ]
	check "'$OPTS': fio's log line by line: $(diff <(iolog_all "$i" 2>&1) <(iolog_all "$f" 2>&1) | head -4 | tr '\n' ' ')" \
		cmp -s <(iolog_all "$i") <(iolog_all "$f")
done <<'OPTS'
--fsync=4
--fsync=8
--fsync=3
--fsync=4 --nrfiles=2
--fsync=4 --filename=a:b
--fsync=4 --nrfiles=3 --openfiles=2
--fsync=4 --nrfiles=2 --openfiles=1
--fsync=4 --loops=2
--fsync=4 --rw=randwrite
--fdatasync=4 --nrfiles=2
--sync_file_range=write:4
--fsync=4 --ioengine=libaio
--fsync=4 --nrfiles=2 --ioengine=libaio
--fsync=2 --rw=randrw --nrfiles=2 --randseed=7
--fsync=2 --rw=rw --randseed=7
--end_fsync=1
--end_fsync=1 --nrfiles=2
--end_fsync=1 --size=62k
--end_fsync=1 --fsync=4
--end_fsync=1 --ioengine=libaio --nrfiles=2
--fsync_on_close=1
--fsync_on_close=1 --nrfiles=2 --openfiles=1
--fsync_on_close=1 --fsync=3 --nrfiles=2
OPTS

# calls DIR TOOL...: TOOL runs the job in DIR under strace (file_calls)
calls() {
	local dir=$1; shift
	# shellcheck disable=SC2086 # JOB and OPTS are words
	file_calls "$dir" "$@" $JOB $OPTS
}
while read -r OPTS; do
	calls_same calls "'$OPTS'"
done <<'OPTS'
--fsync=4 --nrfiles=2
--fsync=4 --nrfiles=2 --openfiles=1
--fsync=4 --nrfiles=2 --ioengine=libaio
--fdatasync=4 --nrfiles=2 --end_fsync=1
--end_fsync=1 --nrfiles=2
--end_fsync=1 --fsync=4 --filename=a:b
--fsync_on_close=1 --nrfiles=2
--fsync_on_close=1 --nrfiles=2 --openfiles=1
--fsync_on_close=1 --fsync=3 --nrfiles=2
--fsync_on_close=1 --nrfiles=2 --ioengine=libaio
OPTS

# writes DIR TOOL...: as calls, the writes and syncs of the one file
# j.0.0, each run of them a line ("pwrite64x16", "fsyncx2"); libaio's
# writes are io_submit's, which name no file: only its syncs count
writes() {
	local dir=$1; shift
	# shellcheck disable=SC2086 # JOB and OPTS are words
	strace_run "$dir" pwrite64,fsync,fdatasync,sync_file_range "$@" $JOB $OPTS
	grep -E 'j\.0\.0>' "$dir.trace" | sed -E 's/^[0-9]+ +//; s/\(.*//' | uniq -c |
		awk '{ print $2 "x" $1 }' >"$dir.calls"
}
while read -r OPTS; do
	calls_same writes "'$OPTS', one file"
done <<'OPTS'
--fsync=4
--end_fsync=1
--end_fsync=1 --fsync=4
--fsync_on_close=1
--fsync_on_close=1 --fsync=4
--fsync_on_close=1 --size=62k
--fsync_on_close=1 --loops=2
--fsync_on_close=1 --ioengine=libaio
--fsync_on_close=1 --fsync=4 --ioengine=libaio
OPTS
done_testing
