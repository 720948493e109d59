#!/bin/bash
# create_fsync as fio 3.33: a file laid out with data before the jobs
# start (a reading job's, or overwrite=1's) is fsynced once written out,
# and with create_fsync=0 it is not; a writing job's new file is only
# sized and never fsynced.  Counted on ext4 on a loop device by the
# ext4_sync_file_enter tracepoint of that device (an instance of the
# test's own), for each tool's run of the same job, and the dirty pages a
# run leaves (create_fsync=0: the layout's writeback is the kernel's).
. "$(dirname "$0")/lib.sh"
fio_loop_test 128
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
own_tracefs create_fsync
ev=$INST/events/ext4/ext4_sync_file_enter
[ -d "$ev" ] || skip "no ext4 tracepoints"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" || skip "mkfs.ext4 failed"
mkdir mnt && mount "$LOOP" mnt || skip "cannot mount ext4"
dev_filter "$LOOP" >"$ev/filter" || skip "cannot filter the tracepoint"
# fsyncs TOOL... : N, the fsyncs of files on the device while TOOL ran a
# job on new files
fsyncs() {
	rm -f mnt/cf.*
	sync
	echo >"$INST/trace" && echo 1 >"$ev/enable"
	"$@" --name=w --directory=mnt --filename_format='cf.$filenum' --bs=4k --size=1m \
		>out.txt 2>err.txt || fail "$1 failed: $(head -c 200 err.txt)"
	echo 0 >"$ev/enable"
	N=$(grep -c 'ext4_sync_file_enter:' "$INST/trace")
}
while read -r want opts; do
	fsyncs fio $opts; f=$N
	fsyncs "$IODIG" run --no-probes --no-save $opts; i=$N
	check "'$opts': fsyncs iodig $i, fio $f ($want expected)" [ "$i" = "$f" -a "$i" = "$want" ]
done <<'EOF'
3 --rw=read --nrfiles=3
0 --rw=read --nrfiles=3 --create_fsync=0
1 --rw=randread --create_fsync=1
1 --rw=write --overwrite=1
0 --rw=write --overwrite=1 --create_fsync=0
0 --rw=write
EOF
# an existing file of the job's size is not laid out again: no fsync
"$IODIG" run --no-probes --no-save --name=w --filename=mnt/keep --rw=read --bs=4k --size=1m \
	>/dev/null 2>&1
echo >"$INST/trace" && echo 1 >"$ev/enable"
"$IODIG" run --no-probes --no-save --name=w --filename=mnt/keep --rw=read --bs=4k --size=1m \
	>out.txt 2>err.txt || fail "iodig failed: $(head -c 200 err.txt)"
echo 0 >"$ev/enable"
check "a file already laid out: no fsync" [ "$(grep -c 'ext4_sync_file_enter:' "$INST/trace")" = 0 ]
umount mnt
refused "create_fsync=maybe" "option 'create_fsync': 'maybe' is not 0 or 1" --rw=read --filename=$TMP/f --create_fsync=maybe
done_testing
