# Sourced by assert.sh: the dev-dax and mtd engines (scenarios.sh's block
# of fio's examples dev-dax.fio and mtd.fio): iodig's I/Os and bytes per
# direction are fio 3.33's for the same jobs, and the kernel figures show
# the path: no block request at all (the MTD driver and the DAX mapping
# bypass the block layer), device-DAX faults that fs/dax.c never sees.

# same_io WHAT IODIG-SCENARIO FIO-SCENARIO DIR: I/Os and bytes in DIR agree
same_io() {
	local a b ab bb
	a=$(q "$2" "[.jobs[].$4.total_ios] | add") b=$(q "$3" "[.jobs[].$4.total_ios] | add")
	ab=$(q "$2" "[.jobs[].$4.io_bytes] | add") bb=$(q "$3" "[.jobs[].$4.io_bytes] | add")
	check "$1: iodig's $4s are fio's ($a I/Os, $ab bytes; fio $b, $bb)" \
	      "$a == $b && $ab == $bb && $a > 0"
}
# no_block SCENARIO: the block family ran and saw no request
no_block() {
	local n
	n=$(q "$1" '.iodig.kernel.block.requests.total // "null"')
	check "$1: no block request (the block family counted $n)" "\"$n\" != \"null\" && $n == 0"
}

case_mtd() {
	ran mtd_write && [ -f "$R/fio_mtd_write.json" ] || return
	same_io "mtd_write: 1 MiB in 512-byte writes" mtd_write fio_mtd_write write
	check "mtd_write: 2048 writes ($(q mtd_write '.jobs[0].write.total_ios'))" \
	      "$(q mtd_write '.jobs[0].write.total_ios') == 2048"
	no_block mtd_write
	if ran mtd_read && [ -f "$R/fio_mtd_read.json" ]; then
		same_io "mtd_read: read back" mtd_read fio_mtd_read read
		no_block mtd_read
	fi
	if ran mtd_trimwrite && [ -f "$R/fio_mtd_trimwrite.json" ]; then
		same_io "mtd_trimwrite: erases of 16 KiB blocks, 4 loops" mtd_trimwrite fio_mtd_trimwrite trim
		# fio interleaves writes of a block smaller than the trim's by
		# positions and bytes issued; iodig writes one block per trim
		echo "note: $KVER: mtd_trimwrite writes: iodig $(q mtd_trimwrite '.jobs[0].write.total_ios'), fio $(q fio_mtd_trimwrite '.jobs[0].write.total_ios')"
		check "mtd_trimwrite: 64 blocks erased 4 times ($(q mtd_trimwrite '.jobs[0].trim.total_ios') trims)" \
		      "$(q mtd_trimwrite '.jobs[0].trim.total_ios') == 256"
		check "mtd_trimwrite: block lifetime: every block trimmed, 4 trims each ($(q mtd_trimwrite '.jobs[0].block | tojson'))" \
		      "$(q mtd_trimwrite '.jobs[0].block.states.trimmed') == 64 && $(q mtd_trimwrite '.jobs[0].block.percentiles["50.000000"]') == 4"
		no_block mtd_trimwrite
	fi
	MTD_SUMMARY="mtd writes $(q mtd_write '.jobs[0].write.total_ios') trims $(q mtd_trimwrite '.jobs[0].trim.total_ios')"
}

case_devdax() {
	local f
	ran devdax_write && [ -f "$R/fio_devdax_write.json" ] || return
	same_io "devdax_write: 2 jobs of 64 MiB in 2 MiB writes" devdax_write fio_devdax_write write
	for s in devdax_write devdax_read; do
		[ $s = devdax_read ] && { ran devdax_read && [ -f "$R/fio_devdax_read.json" ] || continue; }
		[ $s = devdax_read ] && same_io "devdax_read: read back" devdax_read fio_devdax_read read
		f=$(q $s '.iodig.kernel.faults.user_faults // 0')
		check "$s: the mapping faults ($f user faults, $(q $s '.iodig.kernel.faults.per_io') per I/O)" "$f > 0"
		# 2 MiB align: one fault maps a whole 2 MiB I/O (4 KiB pages
		# would take 512 faults for each).  The two threads' 2 MiB
		# buffers are malloc'd 4 KiB pages, as fio's (its minf counts
		# them too), so their first touch adds up to 2 x 512 faults
		# over the run's 64 I/Os: 16 per I/O at most.
		check "$s: faults map 2 MiB at a time ($(q $s '.iodig.kernel.faults.per_io') per 2 MiB I/O, buffers' first touch included)" \
		      "$(q $s '.iodig.kernel.faults.per_io') < 8 + 16"
		# Not traced at all where no DAX-capable block device is left
		# (the pmem namespace is in devdax mode); else traced, none seen.
		check "$s: fs/dax.c's fault tracepoints see none of it (traced $(q $s '.iodig.kernel.faults.dax.traced'): $(q $s '.iodig.kernel.faults.dax.reason // "-"'); device-DAX faults in dev_dax_huge_fault)" \
		      "\"$(q $s '.iodig.kernel.faults.dax.traced')\" == \"false\" || \"$(q $s '.iodig.kernel.faults.dax.seen')\" == \"false\""
		no_block $s
	done
	DEVDAX_SUMMARY="devdax $(cat "$R/devdax-geometry.txt" 2>/dev/null | tr '\n' ' ')faults/IO write $(q devdax_write '.iodig.kernel.faults.per_io') read $(q devdax_read '.iodig.kernel.faults.per_io')"
}
