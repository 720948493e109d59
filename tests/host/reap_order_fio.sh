#!/bin/bash
# libaio's io_submit and io_getevents, in order and with their counts
# (io_submit's nr, io_getevents' min and max), against fio 3.33, for 20
# shapes of a 64-read job at iodepth=8 on a tmpfs file.  Where nothing
# more will be issued (the size reached, the last block not fitting, the
# write phase of a verify job done, each pass of an io_size past the
# file's size, with and without syncs), fio's do_io leaves its loop and
# waits for everything in flight in one io_getevents whose min and max
# are what is in flight, above iodepth_batch_complete_max too; a full
# queue is reaped down to iodepth_low, each wait for
# iodepth_batch_complete_min.  The sequence of the busiest process under
# strace must be fio's exactly.
# timeout: 180
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
command -v strace >/dev/null || skip "no strace"
cd "$TMP" || exit 1 # fio and iodig save a verify job's state file where they run
FILE=$TMP/file
head -c 1M /dev/zero >"$FILE"

while read -r args; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086 # the words of ARGS
	f=$(libaio_calls fio --filename="$FILE" --bs=4k --iodepth=8 $args)
	# shellcheck disable=SC2086
	i=$(libaio_calls iodig --filename="$FILE" --bs=4k --iodepth=8 $args)
	echo "$args"
	echo "  fio:   $f"
	echo "  iodig: $i"
	check "$args: iodig's io_submit and io_getevents are fio's" [ -n "$f" -a "$f" = "$i" ]
done <<'ARGS'
--rw=randread --size=256k
--rw=randread --size=250k
--rw=read --size=250k
--rw=randread --size=256k --iodepth_batch_complete_max=4
--rw=randread --size=256k --iodepth_batch_complete_min=2
--rw=randread --size=250k --iodepth_low=3
--rw=randread --size=256k --iodepth_batch_submit=4
--rw=randread --size=256k --iodepth_batch_submit=8 --iodepth_batch_complete_min=8
--rw=randread --size=250k --bs=4k-16k
--rw=randread --size=256k --number_ios=30
--rw=randread --size=128k --loops=2
--rw=randrw --size=250k --fsync=4
--rw=write --size=250k --verify=crc32c
--rw=randwrite --size=256k --verify=crc32c --verify_backlog=8
--rw=read --size=64k --io_size=160k
--rw=randread --size=64k --io_size=192k
--rw=read --size=64k --io_size=256k --iodepth_batch_complete_max=4
--rw=write --size=64k --io_size=160k
--rw=write --size=64k --io_size=160k --fsync=4
--rw=randwrite --size=64k --io_size=160k --end_fsync=1
ARGS

done_testing
