# Buffer contents against fio 3.33: compressible, refilled, zero and pattern buffers hold fio's very bytes; dedupe and compression ratios; scrambling; verify's data over buffer options.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"
command -v gzip >/dev/null || skip "needs gzip"
cd "$TMP" || exit 1
J=(--name=b --rw=write --bs=4k --size=4m --iodepth=4 --ioengine=libaio)

# write_both OPTIONS...: the same job by iodig into i.dat and by fio into f.dat
write_both() {
	rm -f i.dat f.dat
	truncate -s 4m i.dat f.dat
	"$IODIG" run --no-probes --no-save "${J[@]}" --filename="$TMP/i.dat" "$@" >/dev/null 2>i.err
	fio "${J[@]}" --filename=f.dat "$@" >/dev/null 2>&1
}
gz() { gzip -c "$1" | wc -c; }
# share of 4k blocks that repeat an earlier one, in percent
dup_pct() {
	python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
b = [d[i:i + 4096] for i in range(0, len(d), 4096)]
print(round(100 * (1 - len(set(b)) / len(b))))" "$1"
}

for opts in "--buffer_compress_percentage=50" \
	    "--buffer_compress_percentage=70 --buffer_compress_chunk=1k" \
	    "--buffer_compress_percentage=60 --buffer_pattern=0xdeadbeef" \
	    "--refill_buffers" "--zero_buffers" "--buffer_compress_percentage=100"; do
	eval "write_both $opts"
	check "$opts: iodig writes fio's bytes ($(cat i.err))" cmp -s i.dat f.dat
done
write_both '--buffer_pattern="abc"-12'
check "buffer_pattern \"abc\"-12: fio's bytes ($(cat i.err))" cmp -s i.dat f.dat
check "buffer_pattern \"abc\"-12: 61 62 63 f4 ff ff ff" \
	[ "$(od -An -tx1 -N7 i.dat | tr -d ' ')" = 616263f4ffffff ]

# buffer_compress_percentage=50: gzip halves the data, as fio's does
write_both --buffer_compress_percentage=50
ratio=$(( 100 * $(gz i.dat) / 4194304 ))
check "compress 50: gzip keeps ${ratio}% (45-60)" [ "$ratio" -ge 45 -a "$ratio" -le 60 ]

# dedupe_percentage=30: about 30% of the blocks repeat, in both
write_both --dedupe_percentage=30
i=$(dup_pct i.dat) f=$(dup_pct f.dat)
check "dedupe 30: iodig ${i}% repeated blocks, fio ${f}% (25-35)" \
	[ "$i" -ge 25 ] && [ "$i" -le 35 ] && [ $((i - f)) -le 2 ] && [ $((f - i)) -le 2 ]

# pattern bytes exact
write_both --buffer_pattern=0x0102
check "buffer_pattern 0x0102: 01 02 repeated" \
	[ "$(od -An -tx1 -N4 i.dat | tr -d ' ')" = 01020102 ]
check "buffer_pattern: every byte" [ "$(tr -d '\001\002' <i.dat | wc -c)" = 0 ]

# by default fio scrambles each write: no two 4k blocks alike, yet the
# buffer is reused (most of each block equals the others)
write_both
check "default: no block repeats (scrambled)" [ "$(dup_pct i.dat)" = 0 ]
check "zero_buffers alone: not scrambled, all zeros" \
	bash -c "$(printf '%q ' "$IODIG") run --no-probes --no-save ${J[*]} \
	--filename=$TMP/i.dat --zero_buffers >/dev/null 2>&1 &&
	[ \"\$(tr -d '\\000' <$TMP/i.dat | wc -c)\" = 0 ]"

# verify's data overrides buffer options; compression still shapes it
write_both --verify=crc32c --buffer_compress_percentage=50 --do_verify=0
check "verify over compress 50: fio's bytes but the header times" \
	[ "$(cmp -l i.dat f.dat | awk '($1 - 1) % 4096 >= 40 || ($1 - 1) % 4096 < 24' | wc -l)" = 0 ]
done_testing
