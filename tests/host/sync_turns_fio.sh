#!/bin/bash
# Which file each sync of fsync=, fdatasync= and sync_file_range= goes
# to with several files, against fio 3.33: the sync takes the next file
# from the file service as an I/O would, and that turn moves the writes
# after it (roundrobin, sequential, random, with batches of
# file_service_type=...:N), below openfiles it opens a closed file or
# waits for one (EBUSY), and end_fsync and fsync_on_close do nothing when
# the last I/O was a sync; a size= past the files' total (filesize=) is
# lowered to it, so no sync follows the last write.  A sync's line
# shows the offset fio's reused io_u carries, also that of a fill whose
# length did not fit (one file too).  Each tool runs the same job with write_iolog; the logs must be
# equal line by line but for their times: I/O, syncs, opens and closes.
# Then the system calls on the job's files, in order, must be fio's:
# each file opens when picked (by a sync too) and closes once done,
# fsynced first with fsync_on_close unless the last I/O was a sync, and
# end_fsync and fsync_on_close open a closed file for their sync at the
# end and close it again.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
command -v strace >/dev/null || skip "needs strace"
cd "$TMP" || exit 1

n=0
while read -r OPTS; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # OPTS are words
	iolog_pair "c$n" --name=j --bs=4k --size=64k --nrfiles=3 --rw=write \
		--ioengine=psync $OPTS
	i=$TMP/c$n/i/trace f=$TMP/c$n/f/trace
	check "'$OPTS': fio synced ($(grep -cE ' (sync|datasync|sync_file_range) ' "$f") lines)" \
		grep -qE ' (sync|datasync|sync_file_range) ' "$f"
	check "'$OPTS': fio's log line by line: $(diff <(iolog_all "$i" 2>&1) <(iolog_all "$f" 2>&1) | head -4 | tr '\n' ' ')" \
		cmp -s <(iolog_all "$i") <(iolog_all "$f")
done <<'OPTS'
--fsync=2
--fsync=2 --file_service_type=sequential
--fsync=2 --file_service_type=random --randseed=7
--fsync=2 --file_service_type=roundrobin:2
--fsync=1 --file_service_type=random:2 --randseed=11
--fdatasync=3
--sync_file_range=write:2
--fsync=2 --rw=randwrite --randseed=3
--fsync=2 --loops=2
--fsync=2 --ioengine=libaio --iodepth=4
--fsync=2 --end_fsync=1
--fsync=3 --end_fsync=1
--fdatasync=3 --fsync_on_close=1
--fsync=5 --file_service_type=sequential --end_fsync=1
--fsync=3 --openfiles=2
--fsync=2 --openfiles=1
--fsync=2 --openfiles=2 --loops=2
--fdatasync=3 --openfiles=2 --file_service_type=roundrobin:2
--sync_file_range=write:2 --openfiles=2 --rw=randwrite --randseed=5
--fsync=2 --openfiles=2 --ioengine=libaio --iodepth=4
--fsync=2 --nrfiles=5 --openfiles=3 --file_service_type=random --randseed=9
--nrfiles=1 --size=22k --end_fsync=1
--nrfiles=1 --size=22k --fsync=2 --fsync_on_close=1 --ioengine=libaio --iodepth=4
--nrfiles=2 --filesize=16k --size=48k --fsync=4
--nrfiles=2 --filesize=16k --size=48k --fsync=4 --file_service_type=sequential
--nrfiles=2 --filesize=16k --size=48k --fsync=4 --loops=2
--nrfiles=2 --filesize=16k --size=48k --fsync=4 --rw=randwrite --randseed=3
--nrfiles=3 --filesize=8k-24k --size=200k --fsync=2
--fsync_on_close=1 --openfiles=1
--fsync_on_close=1 --fsync=3 --openfiles=2 --loops=2
OPTS

# calls DIR TOOL...: TOOL runs the job in DIR under strace (file_calls)
calls() {
	local dir=$1; shift
	# shellcheck disable=SC2086 # OPTS are words
	file_calls "$dir" "$@" --name=j --bs=4k --size=64k --nrfiles=3 --rw=write $OPTS
}
while read -r OPTS; do
	calls_same calls "'$OPTS'"
done <<'OPTS'
--fsync=2
--fsync=3 --openfiles=1
--sync_file_range=write:2 --openfiles=2
--fdatasync=3 --end_fsync=1
--end_fsync=1 --openfiles=2
--fsync=2 --end_fsync=1 --openfiles=1 --loops=2
--fsync=2 --openfiles=2 --ioengine=libaio --iodepth=4
--fsync_on_close=1
--fsync_on_close=1 --file_service_type=sequential
--fsync_on_close=1 --openfiles=1
--fsync_on_close=1 --fsync=2 --openfiles=2
--fsync_on_close=1 --loops=2 --ioengine=libaio --iodepth=4
OPTS
done_testing
