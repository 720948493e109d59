#!/bin/bash
# verify_write_sequence (fio's option, newer than 3.33): a block rewritten
# by another job since the verified job wrote it carries a valid header
# and checksum but another write number; verify_write_sequence=1 reports
# it ("bad header numberio"), =0 passes it, and with =0 the checksum is
# still checked (a flipped data byte fails).
source tests/host/lib.sh
cd "$TMP" || exit 1
truncate -s 16M img || exit 1
iodig() { "$IODIG" run --no-probes --no-save --output-format=json --filename=img \
	--bs=4k --verify=crc32c "$@"; }
# job a writes 16 blocks (write numbers 0-15); job b rewrites the last 8
# (write numbers 0-7); job a then checks what it wrote, without writing
iodig --name=a --rw=write --size=64k --do_verify=0 >a.json 2>a.err ||
	fail "job a writes: $(cat a.err)"
iodig --name=b --rw=write --size=32k --offset=32k --do_verify=0 >b.json 2>b.err ||
	fail "job b rewrites: $(cat b.err)"
check_a() { iodig --name=a --rw=write --size=64k --verify_only=1 "$@"; }

check_a --verify_write_sequence=1 >c.json 2>c.err
rc=$?
check "=1: the rewritten block fails (exit $rc)" [ "$rc" -ne 0 ]
check "=1: reported as the write number, 0 for 8: $(head -c 200 c.err)" \
	grep -q "bad header numberio 0, wanted 8 at file img offset 32768" c.err
check "=1: the 8 blocks before it pass" [ "$(jqr '.jobs[0].iodig.verified_blocks' c.json)" = 8 ]

check_a --verify_write_sequence=0 >d.json 2>d.err
rc=$?
check "=0: every block passes (exit $rc: $(head -c 200 d.err))" [ "$rc" = 0 ]
check "=0: 16 blocks verified" [ "$(jqr '.jobs[0].iodig.verified_blocks' d.json)" = 16 ]

# verify_only leaves the check off unless asked for, as fio does
check_a >e.json 2>e.err
check "verify_only's default: no write number check ($(head -c 200 e.err))" \
	[ "$(jqr '.jobs[0].iodig.verified_blocks' e.json)" = 16 ]

# one data byte of block 3 flipped: the checksum still catches it with =0
printf '\xff' | dd of=img bs=1 seek=$((3 * 4096 + 100)) conv=notrunc status=none
check_a --verify_write_sequence=0 >f.json 2>f.err
rc=$?
check "=0: a changed data byte still fails (exit $rc)" [ "$rc" -ne 0 ]
check "=0: reported by the checksum: $(head -c 200 f.err)" \
	grep -Eq "crc32c.*offset 12288|offset 12288.*crc32c" f.err
done_testing
