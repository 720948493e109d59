# zonemode=strided against fio 3.33 on a file and a loop device: the same I/Os (direction, offset, length, in order, from write_iolog) for sequential and random jobs with zonesize, zonerange and zoneskip, 'Nz' sizes; fio's errors for zonesize without zonemode, strided without zonesize, 'z' where fio takes none.
source tests/host/lib.sh
source tests/host/zoned.lib
truncate -s 64m "$TMP/f"
make_loop 32 || skip "no loop device"

S=(--zonemode=strided --bs=64k)
same_ios "$TMP/f" "${S[@]}" --rw=read --zonesize=1m --zoneskip=3m
same_ios "$TMP/f" "${S[@]}" --rw=read --zonesize=1m --zoneskip=3m --io_size=80m
same_ios "$TMP/f" "${S[@]}" --rw=read --zonesize=2m --zonerange=1m --size=8m
same_ios "$TMP/f" "${S[@]}" --rw=read --zonesize=96k --zoneskip=1m --size=1m
same_ios "$TMP/f" "${S[@]}" --rw=read --zonesize=1m --zoneskip=10m --size=8m --offset=60m
same_ios "$TMP/f" "${S[@]}" --rw=randread --zonesize=1m --zonerange=2m --zoneskip=1m --size=16m
same_ios "$TMP/f" "${S[@]}" --rw=randread --zonesize=1m --zonerange=4m --size=8m --norandommap
same_ios "$TMP/f" "${S[@]}" --rw=write --zonesize=1m --zoneskip=2m --size=4m --io_size=2z
same_ios "$TMP/f" "${S[@]}" --rw=read --zonesize=1m --offset=2z --size=2z
same_ios "$LOOP" "${S[@]}" --rw=randwrite --zonesize=512k --zoneskip=1z --size=8m --direct=1
same_ios "$LOOP" "${S[@]}" --rw=read --zonesize=256k --zoneskip=2m --direct=1 --ioengine=libaio --iodepth=2

# fio's refusals, each with one clear error
refused() { # refused WHAT PATTERN ARGS...
	local what=$1 pat=$2; shift 2
	"$IODIG" run --no-probes --no-save --name=z --filename="$TMP/f" --rw=read --size=1m "$@" >/dev/null 2>"$TMP/err"
	check "$what: refused ($(head -c 160 "$TMP/err"))" grep -q "$pat" "$TMP/err"
	fio --name=z --filename="$TMP/f" --rw=read --size=1m "$@" >/dev/null 2>&1
	check "$what: fio refuses it too" [ $? != 0 ]
}
refused "zonesize without zonemode" "zonemode=none and zonesize are not compatible" --zonesize=1m
refused "strided without zonesize" "zonemode=strided needs zonesize" --zonemode=strided
refused "zonerange in zones" "'1z' counts zones" --zonemode=strided --zonesize=1m --zonerange=1z
refused "a fraction of a zone" "not a whole number of zones" --zonemode=strided --zonesize=1m --size=1.5z
done_testing
