# Sourced by assert.sh: zonemode=zbd on a zoned null_blk (scenarios.sh),
# iodig's writes, reads and zone resets against fio 3.33's same jobs.
# same_count WHAT IODIG-SCENARIO FIO-SCENARIO DIR: both did the same
# number of I/Os in direction DIR, and some
same_count() {
	local a b
	a=$(q "$2" ".jobs[0].$4.total_ios") b=$(q "$3" ".jobs[0].$4.total_ios")
	check "$1: iodig's $4s ($a) are fio's ($b)" "$a == $b && $a > 0"
}

case_zoned() {
	local model resets
	model=$(cat "$R/zoned-model.txt" 2>/dev/null || echo none)
	[ "$model" = host-managed ] && ok "zoned: nullb2 is $model" ||
		fail "zoned: nullb2 is '$model', not host-managed"
	if ran zbd_write && [ -f "$R/fio_zbd_write.json" ]; then
		same_count "zbd_write: sequential writes at the write pointers" zbd_write fio_zbd_write write
		check "zbd_write: no error ($(q zbd_write '.jobs[0].error'))" "$(q zbd_write '.jobs[0].error') == 0"
	fi
	if ran zbd_read && [ -f "$R/fio_zbd_read.json" ]; then
		same_count "zbd_read: random reads kept to written zones" zbd_read fio_zbd_read read
	fi
	if ran zbd_rand; then
		resets=$(q zbd_rand '.jobs[0].iodig.zone_resets')
		check "zbd_rand: 2 open zones fill and are reset ($resets zone resets)" "$resets > 0"
		check "zbd_rand: no write error ($(q zbd_rand '.jobs[0].iodig.io_errors'))" \
		      "$(q zbd_rand '.jobs[0].iodig.io_errors') == 0"
	fi
}
