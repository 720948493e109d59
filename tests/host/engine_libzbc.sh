# libzbc on the host, which has no zoned SCSI disk (the QEMU lab runs it on scsi_debug's): fio's two libzbc job files parse, and every target that is not a zoned SCSI device (a loop device, /dev/null, a file, a missing path) is refused before any I/O, naming it and the reason, with nothing written or created.
source tests/host/lib.sh
need_root
CORPUS=/work/shared/fio-corpus
make_loop 16 || skip "cannot create a loop device"
printf 'iodig-libzbc-mark' | dd of="$LOOP" bs=4k conv=notrunc status=none
truncate -s 4m "$TMP/file"

# refused WHAT PATTERN TARGET ARGS...: iodig run fails and says PATTERN
refused() {
	local what=$1 pat=$2 target=$3; shift 3
	if "$IODIG" run --no-probes --no-save --allow-destructive --name=t --bs=4k \
		--size=1m --ioengine=libzbc --filename="$target" "$@" >"$TMP/out" 2>"$TMP/err"; then
		fail "$what: accepted"
	else
		check "$what: $(head -c 200 "$TMP/err")" grep -q -- "$target: .*$pat" "$TMP/err"
	fi
}

if [ -d "$CORPUS" ]; then
	for f in libzbc-rand-write libzbc-seq-read; do
		"$IODIG" run --no-probes --no-save --target="$TMP/absent/target" \
			"$CORPUS/fio__examples_$f.fio" >/dev/null 2>"$TMP/err"
		check "$f.fio parses; stops at the missing target: $(head -c 160 "$TMP/err")" \
			grep -q "$TMP/absent/target: .*needs a zoned SCSI disk" "$TMP/err"
	done
fi

refused "a loop device (no SG_IO)" "not a SCSI device.*zoned block device" "$LOOP" \
	--rw=randwrite --zonemode=zbd --zonesize=1m --direct=1
check "the loop device was not written" \
	[ "$(head -c 17 "$LOOP")" = iodig-libzbc-mark ]
refused "/dev/null" "not a SCSI device" /dev/null --rw=read
refused "a regular file" "only works on block or character devices" "$TMP/file" --rw=write
refused "a missing path" "needs a zoned SCSI disk" "$TMP/new" --rw=write
check "no file was made" [ ! -e "$TMP/new" ]
# cmp also fails on a file of another length
check "the regular file is unchanged" cmp -s "$TMP/file" <(head -c 4194304 /dev/zero)
done_testing
