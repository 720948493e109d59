#!/bin/bash
# ioengine=e4defrag against fio 3.33 on an ext4 loop device: for sequential
# and random writes, with the donor preallocated or allocated in place, the
# same write count, bytes and error as fio's, the donor file where fio puts
# it (directory=/donorname); a read job fails with EINVAL as fio's does; a
# file not on ext4 is one clear error before any I/O.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
command -v jq >/dev/null || skip "no jq"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
fio --enghelp 2>&1 | grep -qw e4defrag || skip "fio has no e4defrag engine"

make_loop 96 || skip "no loop device"
mkfs.ext4 -q "$LOOP" || skip "mkfs.ext4 failed"
MNT=$TMP/mnt
mkdir "$MNT" && mount "$LOOP" "$MNT" || skip "cannot mount ext4"

# job VARIANT OPTIONS...: a job file in $TMP/VARIANT.fio
job() {
	local name=$1; shift
	{ printf '[global]\nioengine=e4defrag\ndirectory=%s\nfilesize=4M\nsize=4M\n' "$MNT"
	  printf '[%s]\nfilename=file1\ndonorname=file.def\n' "$name"
	  printf '%s\n' "$@"; } >"$TMP/$name.fio"
}
summary() { jq -c '.jobs[0] | [.error, .write.total_ios, .write.io_bytes, .read.total_ios]' "$1"; }

job seq "rw=write" "bs=32k" "inplace=0" "buffered=0"
job rand "rw=randwrite" "bs=4k" "inplace=0"
job inplace "rw=write" "bs=64k" "inplace=1"
for v in seq rand inplace; do
	rm -f "$MNT"/file*
	fio --output-format=json --output="$TMP/$v.fio.json" "$TMP/$v.fio" >/dev/null 2>&1
	want=$(summary "$TMP/$v.fio.json")
	rm -f "$MNT"/file*
	"$IODIG" run "$TMP/$v.fio" --no-save --no-progress --output-format=json \
		--output="$TMP/$v.iodig.json" 2>"$TMP/err"
	rc=$?
	got=$(summary "$TMP/$v.iodig.json" 2>/dev/null)
	check "$v: iodig ran (exit $rc: $(head -c 300 "$TMP/err"))" [ "$rc" = 0 ]
	check "$v: [error, writes, bytes, reads] as fio's $want (got $got)" [ "$want" = "$got" ]
	check "$v: the donor file is $MNT/file.def" [ -f "$MNT/file.def" ]
done

# reads: fio's e4defrag fails them with EINVAL
job read "rw=read" "bs=32k"
rm -f "$MNT"/file*
fio --output-format=json --output="$TMP/read.fio.json" "$TMP/read.fio" >/dev/null 2>&1
rm -f "$MNT"/file*
"$IODIG" run "$TMP/read.fio" --no-save --no-progress --output-format=json \
	--output="$TMP/read.iodig.json" 2>"$TMP/err"
want=$(jq '.jobs[0].error' "$TMP/read.fio.json") got=$(jq '.jobs[0].error' "$TMP/read.iodig.json")
check "read job: error $want as fio's (got $got)" [ "$want" = "$got" -a "$got" = 22 ]

# not ext4: one clear error
sed "s|directory=$MNT|directory=$TMP|" "$TMP/seq.fio" >"$TMP/tmpfs.fio"
"$IODIG" run "$TMP/tmpfs.fio" --no-save --no-progress >/dev/null 2>"$TMP/err"
rc=$?
check "a file on tmpfs: exit 1 (got $rc)" [ "$rc" = 1 ]
check "a file on tmpfs: the error says ext4 ($(cat "$TMP/err"))" grep -q "is not on ext4" "$TMP/err"
printf '[x]\nioengine=e4defrag\nrw=write\nfilename=%s/f\nsize=1m\n' "$MNT" >"$TMP/nodonor.fio"
"$IODIG" run --parse-only "$TMP/nodonor.fio" 2>"$TMP/err"
check "a job without donorname= is refused when parsed ($(cat "$TMP/err"))" grep -q "needs donorname" "$TMP/err"
umount "$MNT"
done_testing
