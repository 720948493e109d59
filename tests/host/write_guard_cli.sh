# A write job against a loop device carrying ext4 is refused with a clear message and nothing is written; reads are allowed, and --allow-destructive gets past the guard.
source tests/host/lib.sh
need_root
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"
make_loop 64 || skip "cannot create a loop device"
mkfs.ext4 -q -F "$LOOP" || skip "mkfs.ext4 failed"
before=$(md5sum <"$LOOP")

"$IODIG" run --no-probes --name=w --filename="$LOOP" --rw=randwrite --bs=4k --size=4m \
	--ioengine=libaio --direct=1 --output="$TMP/out.txt" >"$TMP/stdout" 2>"$TMP/err"
rc=$?
check "write refused with non-zero exit (got $rc)" [ "$rc" -ne 0 ]
check "message names the device and ext4: $(cat "$TMP/err")" grep -q "$LOOP.*ext4" "$TMP/err"
check "message names --allow-destructive" grep -q -- "--allow-destructive" "$TMP/err"
check "exactly one line of error" [ "$(wc -l <"$TMP/err")" -eq 1 ]
check "no output file written" [ ! -e "$TMP/out.txt" ]
check "no temp output left" [ -z "$(ls "$TMP" | grep iodig-tmp)" ]
check "device unchanged" [ "$(md5sum <"$LOOP")" = "$before" ]

"$IODIG" run --no-probes --name=r --filename="$LOOP" --rw=randread --bs=4k --size=4m \
	--ioengine=libaio --direct=1 >/dev/null 2>"$TMP/err"
check "read job allowed on ext4 device (exit $?): $(cat "$TMP/err")" [ -z "$(cat "$TMP/err")" ]

"$IODIG" run --no-probes --allow-destructive --name=w --filename="$LOOP" --rw=write --bs=4k \
	--size=1m --ioengine=psync --direct=1 >/dev/null 2>"$TMP/err"
check "--allow-destructive writes ($(cat "$TMP/err"))" [ "$(md5sum <"$LOOP")" != "$before" ]
done_testing
