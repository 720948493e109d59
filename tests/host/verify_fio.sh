# Every verify= method against fio 3.33: iodig writes and verifies, finds one corrupted block at its offset, and fio finds the same block in iodig's file; iodig verifies fio's file and finds the block corrupted there.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"
cd "$TMP" || exit 1
BS=4096
BAD=37                        # the block corrupted
FILE=$TMP/data
J=(--name=v --rw=write --bs=$BS --size=1m --no-save)

# corrupt FILE OFFSET: flip one byte
corrupt() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((b ^ 0x5a)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# byte of block BAD to flip: inside what each method covers (fio's sha512
# covers data bytes 88..127 and the tail; meta only the header)
flip_at() {
	case $1 in
	sha512) echo $((BAD * BS + 168 + 100)) ;;
	meta) echo $((BAD * BS + 16)) ;;          # the header's offset field
	*) echo $((BAD * BS + 2000)) ;;
	esac
}

for m in md5 crc64 crc32 crc32c crc32c-intel crc16 crc7 sha1 sha256 sha512 \
	 sha3-224 sha3-256 sha3-384 sha3-512 xxhash meta pattern; do
	extra=()
	[ "$m" = pattern ] && extra=(--verify_pattern=0x5aa5f00f)
	rm -f "$FILE"; truncate -s 1m "$FILE"
	"$IODIG" run --no-probes --output-format=json "${J[@]}" --filename="$FILE" \
		--verify=$m "${extra[@]}" >i.json 2>i.err
	rc=$?
	check "$m: iodig write+verify passes (exit $rc: $(head -c 300 i.err))" [ "$rc" = 0 ]
	check "$m: 256 blocks verified" [ "$(jqr '.jobs[0].iodig.verified_blocks' i.json)" = 256 ]
	check "$m: the verify reads are counted as reads, as fio does" \
		[ "$(jqr '.jobs[0].read.total_ios' i.json)" = 256 ]
	fio --name=v --rw=read --bs=$BS --size=1m --filename="$FILE" --verify=$m \
		"${extra[@]}" >f.txt 2>&1
	check "$m: fio verifies iodig's blocks" grep -q 'err= 0' f.txt

	at=$(flip_at $m)
	corrupt "$FILE" "$at"
	"$IODIG" run --no-probes "${J[@]}" --rw=read --filename="$FILE" --verify=$m \
		"${extra[@]}" >i.txt 2>i.err
	rc=$?
	check "$m: iodig fails the job (exit $rc)" [ "$rc" = 1 ]
	check "$m: iodig reports err=84 (EILSEQ)" grep -q 'err=84' i.txt
	check "$m: iodig names offset $((BAD * BS)) ($(head -c 300 i.err))" \
		grep -q "offset $((BAD * BS)), length $BS" i.err
	fio --name=v --rw=read --bs=$BS --size=1m --filename="$FILE" --verify=$m \
		"${extra[@]}" >f.txt 2>&1
	# (fio's line for verify=pattern has a garbled length: match the offset)
	check "$m: fio finds the same block in iodig's file" \
		grep -Eq "verify failed at file .* offset $((BAD * BS)), length|at file .* offset $((BAD * BS)), length" f.txt

	rm -f "$FILE"
	fio --name=v --rw=write --bs=$BS --size=1m --filename="$FILE" --verify=$m \
		"${extra[@]}" --do_verify=0 >/dev/null 2>&1
	"$IODIG" run --no-probes --output-format=json "${J[@]}" --rw=read \
		--filename="$FILE" --verify=$m "${extra[@]}" >i.json 2>i.err
	rc=$?
	check "$m: iodig verifies fio's blocks (exit $rc: $(head -c 300 i.err))" [ "$rc" = 0 ]
	corrupt "$FILE" "$at"
	"$IODIG" run --no-probes "${J[@]}" --rw=read --filename="$FILE" --verify=$m \
		"${extra[@]}" >i.txt 2>i.err
	check "$m: iodig finds the block corrupted in fio's file" \
		grep -q "offset $((BAD * BS)), length $BS" i.err
done

# Checksum mismatches name both checksums as fio's hexdump prints them.
rm -f "$FILE"
fio --name=v --rw=write --bs=$BS --size=1m --filename="$FILE" --verify=crc32c \
	--do_verify=0 >/dev/null 2>&1
corrupt "$FILE" $((BAD * BS + 2000))
"$IODIG" run --no-probes "${J[@]}" --rw=read --filename="$FILE" --verify=crc32c >/dev/null 2>i.err
fio --name=v --rw=read --bs=$BS --size=1m --filename="$FILE" --verify=crc32c >f.txt 2>&1
want=$(sed -n 's/.*Expected CRC: \([0-9a-f]*\).*/\1/p' f.txt)
got=$(sed -n 's/.*Received CRC: \([0-9a-f]*\).*/\1/p' f.txt)
check "crc32c: expected $want and received $got as fio prints them ($(cat i.err))" \
	grep -q "expected $want, received $got" i.err
done_testing
