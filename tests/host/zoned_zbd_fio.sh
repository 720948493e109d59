# zonemode=zbd against fio 3.33 on targets that are not zoned, where fio emulates zones of zonesize: the same I/Os (write_iolog: direction, offset, length, in order) and the same "N zone resets" on the write line for writes moved to the write pointers, max_open_zones, 'Nz' sizes and reads that find no written data; no zonesize on a non-zoned target is refused, as fio.
source tests/host/lib.sh
source tests/host/zoned.lib
truncate -s 16m "$TMP/f"
make_loop 16 || skip "no loop device"

resets() { grep -oE '[0-9]+ zone resets' "$TMP/$1.txt" || echo none; }
same_as_fio() { # same_as_fio TARGET ARGS...: the same I/Os and resets
	same_ios "$@"
	shift
	check "$* : '$(resets iodig)' as fio's '$(resets fio)'" [ "$(resets iodig)" = "$(resets fio)" ]
}

Z=(--zonemode=zbd --zonesize=1m --bs=64k)
same_as_fio "$TMP/f" "${Z[@]}" --rw=write --size=4m
same_as_fio "$TMP/f" "${Z[@]}" --rw=randwrite --size=4m
same_as_fio "$TMP/f" "${Z[@]}" --rw=randwrite --size=4m --max_open_zones=2
same_as_fio "$TMP/f" "${Z[@]}" --rw=write --size=2z --offset=1z --io_size=8m
same_as_fio "$TMP/f" "${Z[@]}" --rw=randread --size=4m
same_as_fio "$LOOP" "${Z[@]}" --rw=randwrite --size=8m --max_open_zones=2 --direct=1
same_as_fio "$TMP/f" "${Z[@]}" --rw=randwrite --size=8z --zone_reset_threshold=0.2 --zone_reset_frequency=0.5
check "some zone was reset ($(resets iodig))" [ "$(resets iodig)" != "0 zone resets" ]

"$IODIG" run --no-probes --no-save --name=z --filename="$LOOP" --rw=read --size=1m --zonemode=zbd >/dev/null 2>"$TMP/err"
check "no zonesize on $LOOP: $(head -c 200 "$TMP/err")" grep -q "zonemode=zbd: $LOOP is not a zoned block device (queue/zoned: none), and fio needs zonesize=" "$TMP/err"
fio --name=z --filename="$LOOP" --rw=read --size=1m --zonemode=zbd >"$TMP/fio.txt" 2>&1
check "fio refuses it too" grep -q "Specifying the zone size is mandatory" "$TMP/fio.txt"
done_testing
