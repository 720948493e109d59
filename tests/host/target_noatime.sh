#!/bin/bash
# The target is opened with fio's flags: a device with O_NOATIME, so its
# direct reads skip the device inode's atime update (the kernel checks the
# atime on every direct read of a block device), a regular file without.
# Seen from outside: a node's atime set two days back (relatime updates
# one older than a day) is left alone by fio's and iodig's reads of the
# device, and moved by their reads of a regular file, and by dd's reads of
# the device (which show that this kernel's direct reads do touch it).
. "$(dirname "$0")/lib.sh"
fio_loop_test 16
REG=$TMP/regular
truncate -s 16M "$REG"

JOB=(--name=t --rw=randread --bs=4k --ioengine=psync --size=1m)
age() { touch -a -d '2 days ago' "$1"; }
# moved PATH: 0 when PATH's atime is within the last hour
moved() { [ $(($(date +%s) - $(stat -c %X "$1"))) -lt 3600 ]; }

age "$LOOP"
dd if="$LOOP" of=/dev/null bs=4k count=4 iflag=direct status=none
moved "$LOOP" || skip "direct reads of $LOOP leave its atime alone here: nothing to check"

for tool in fio iodig; do
	for target in "$LOOP" "$REG"; do
		direct=0
		[ "$target" = "$LOOP" ] && direct=1
		age "$target"
		if [ $tool = fio ]; then
			fio "${JOB[@]}" --filename="$target" --direct=$direct \
				--output-format=json >out.json 2>err.txt
		else
			"$IODIG" run --no-probes --no-save "${JOB[@]}" --filename="$target" \
				--direct=$direct --output-format=json >out.json 2>err.txt
		fi
		check "$tool read $target" [ "$(jqr '.jobs[0].read.total_ios' out.json)" = 256 ]
		if [ "$target" = "$LOOP" ]; then
			check "$tool's direct reads left the device's atime alone" \
				[ "$(stat -c %X "$target")" -lt $(($(date +%s) - 86400)) ]
		else
			check "$tool's reads moved the regular file's atime" moved "$target"
		fi
	done
done
done_testing
