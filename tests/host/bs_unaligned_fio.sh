#!/bin/bash
# bs_unaligned (alias blocksize_unaligned) as fio 3.33: a bsrange's sizes
# are drawn anywhere in it, not rounded to multiples of its minimum, for
# buffered I/O; the same offsets and sizes as fio's (write_iolog), sizes
# that are not multiples of 512 among them, where without it every size
# is a multiple of the minimum.  With direct=1 fio only warns; on tmpfs,
# which takes any size with O_DIRECT, both do the same I/O.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "no fio"
cd "$TMP" || exit 1
# ios TOOL...: the write_iolog's "offset size" lines of the job, in ios.txt
ios() {
	rm -f f log.txt
	"$@" --name=w --filename=f --size=256k --write_iolog=log.txt $opts >out.txt 2>err.txt ||
		fail "$1 failed: $(head -c 200 err.txt)"
	awk '$3 == "write" {print $4, $5}' log.txt >ios.txt 2>/dev/null
}
for opts in "--rw=randwrite --bsrange=1k-3k --bs_unaligned=1" \
	    "--rw=write --bsrange=1k-64k --blocksize_unaligned=1" \
	    "--rw=randwrite --bsrange=512-8k --bs_unaligned=1 --random_generator=tausworthe64" \
	    "--rw=randwrite --bsrange=1k-3k --bs_unaligned=1 --direct=1"; do
	ios fio; f=$(md5sum <ios.txt | cut -c1-8); fn=$(wc -l <ios.txt)
	ios "$IODIG" run --no-probes --no-save; i=$(md5sum <ios.txt | cut -c1-8)
	odd=$(awk '$2 % 512' ios.txt | wc -l)
	check "'$opts': offsets and sizes iodig $i, fio $f ($fn writes)" [ "$i" = "$f" -a "$fn" -gt 10 ]
	check "'$opts': $odd sizes not multiples of 512" [ "$odd" -gt 0 ]
done
opts="--rw=randwrite --bsrange=1k-3k"
ios "$IODIG" run --no-probes --no-save
check "without it every size is a multiple of 1k" [ "$(awk '$2 % 1024' ios.txt | wc -l)" = 0 ]
done_testing
