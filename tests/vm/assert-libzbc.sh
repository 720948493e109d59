# Sourced by assert.sh: ioengine=libzbc on scsi_debug's host-managed SCSI ZBC
# disk (scenarios.sh): sequential writes and reads of 4 zones with the I/O
# counts and bytes the job asks for, the same reads as psync and fio's
# psync, random writes kept sequential in each zone with their resets.
# No fio here is built with libzbc, so psync and fio's psync are the
# comparison.

# zbc_seq_log IOLOG ZONE_BYTES: "writes restarts zones": each write past
# the first (conventional) zone is at its zone's start or where the zone's
# last write ended; a write at the start of a zone written before means a
# reset; zones: how many sequential zones were written.  Prints "bad N"
# for the first write that is neither.
zbc_seq_log() {
	awk -v zs="$2" '$3 == "write" {
		n++; z = int($4 / zs)
		if (z == 0) next
		if ($4 == z * zs) { if (z in end) r++ }
		else if (!(z in end) || $4 != end[z]) { print "bad " n; bad = 1; exit }
		if (!(z in end)) nz++
		end[z] = $4 + $5
	} END { if (!bad) print n + 0, r + 0, nz + 0 }' "$1"
}

# zbc_ios SCENARIO DIR IOS KIB: the job did IOS I/Os of DIR, KIB KiB, no error
zbc_ios() {
	local n k
	n=$(q "$1" ".jobs[0].$2.total_ios") k=$(q "$1" ".jobs[0].$2.io_kbytes")
	check "$1: $n ${2}s of $k KiB (the job's $3, $4 KiB), error $(q "$1" '.jobs[0].error')" \
	      "$n == $3 && $k == $4 && $(q "$1" '.jobs[0].error') == 0"
}

case_libzbc() {
	local model log resets
	model=$(cat "$R/libzbc-model.txt" 2>/dev/null || echo none)
	[ "$model" = host-managed ] && ok "libzbc: scsi_debug's disk is $model" ||
		fail "libzbc: scsi_debug's disk is '$model', not host-managed"
	ran libzbc_seq_write && zbc_ios libzbc_seq_write write 16 16384
	if ran libzbc_seq_read; then
		zbc_ios libzbc_seq_read read 16 16384
		ran libzbc_psync_read && zbc_ios libzbc_psync_read read 16 16384
		[ -f "$R/fio_libzbc_psync_read.json" ] && zbc_ios fio_libzbc_psync_read read 16 16384
	fi
	if ran libzbc_rand_write; then
		resets=$(q libzbc_rand_write '.jobs[0].iodig.zone_resets')
		log=$(zbc_seq_log "$R/libzbc_rand_write.iolog" $((4 << 20)) 2>/dev/null)
		set -- $log
		check "libzbc_rand_write: $1 logged writes, each sequential in its zone ($log)" \
		      "\"$1\" != \"bad\" && $1 == $(q libzbc_rand_write '.jobs[0].write.total_ios') && $1 > 0"
		# its zones start full: the first write to each needs a reset too
		check "libzbc_rand_write: $resets zone resets: one per zone written ($3), all full at the start, and per rewrite the log shows ($2)" \
		      "\"$1\" != \"bad\" && $3 > 0 && $resets == $2 + $3"
		check "libzbc_rand_write: no write error ($(q libzbc_rand_write '.jobs[0].iodig.io_errors'))" \
		      "$(q libzbc_rand_write '.jobs[0].iodig.io_errors') == 0"
	fi
}
