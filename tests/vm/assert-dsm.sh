# Sourced by assert.sh: io_uring_cmd trims on the emulated NVMe namespace
# (nvme_dsm in scenarios.sh): Dataset Management commands of num_range=8
# ranges, against fio 3.33's same jobs trimming one range at a time.

# dsm_grouped IOLOG N: the trims of a write_iolog as commands of N ranges:
# "trim OFFSET LENGTH" per command, the last range's offset and the
# ranges' sum, as fio's multi-range io_u logs it.
dsm_grouped() {
	awk -v n="$2" '$3 == "trim" { k = int(i / n); off[k] = $4; len[k] += $5; i++ }
		END { for (k = 0; k * n < i; k++) print "trim", off[k], len[k] }' "$1"
}
# dsm_trims IOLOG: its "trim OFFSET LENGTH" lines; dsm_ios: and writes
dsm_trims() { awk '$3 == "trim" { print $3, $4, $5 }' "$1"; }
dsm_ios() { awk '$3 ~ /^(trim|write)$/ { print $3, $4, $5 }' "$1"; }

# dsm_job_checks INDEX NAME: job INDEX of both runs
dsm_job_checks() {
	local j=$1 name=$2 cmds ranges bytes fbytes want
	cmds=$(q nvme_dsm ".jobs[$j].trim.total_ios") bytes=$(q nvme_dsm ".jobs[$j].trim.io_bytes")
	ranges=$(q fio_dsm ".jobs[$j].trim.total_ios") fbytes=$(q fio_dsm ".jobs[$j].trim.io_bytes")
	want=$(( (ranges + 7) / 8 ))
	check "nvme_dsm: $name: $cmds commands for fio's $ranges ranges of 8 per command ($want)" \
	      "$cmds == $want && $cmds > 0"
	check "nvme_dsm: $name: $bytes bytes trimmed, fio's $fbytes" "$bytes == $fbytes && $bytes == 4194304"
	if cmp -s <(dsm_grouped "$R/fio_dsm.fio.$name.iolog" 8) <(dsm_trims "$R/nvme_dsm.fio.$name.iolog"); then
		ok "nvme_dsm: $name: each command's ranges are fio's next 8 (write_iolog: last offset, sum of lengths)"
	else
		fail "nvme_dsm: $name: write_iolog differs from fio's ranges grouped by 8: $(diff <(dsm_grouped "$R/fio_dsm.fio.$name.iolog" 8) <(dsm_trims "$R/nvme_dsm.fio.$name.iolog") | head -n 4 | tr '\n' ' ')"
	fi
	DSM_CMDS=$((DSM_CMDS + cmds)) DSM_RANGES=$((DSM_RANGES + ranges))
}

# The block layer sees the passthrough commands as driver-private
# requests (REQ_OP_DRV_OUT: "other"), one per command, whose data is the
# 16-byte range list; never as discards.
dsm_block_checks() {
	local g other obytes disc
	other=0 obytes=0 disc=0
	for g in 0 1; do
		other=$((other + $(q nvme_dsm ".iodig.groups[$g].kernel.block.requests.other // 0")))
		obytes=$((obytes + $(q nvme_dsm ".iodig.groups[$g].kernel.block.bytes.other // 0")))
		disc=$((disc + $(q nvme_dsm ".iodig.groups[$g].kernel.block.requests.discard // 0")))
	done
	check "nvme_dsm: block family: $other driver-private requests for $DSM_CMDS commands, $obytes bytes (16 per range: $((16 * DSM_RANGES))), $disc discards" \
	      "$other == $DSM_CMDS && $obytes == 16 * $DSM_RANGES && $disc == 0"
}

# trimwrite through the passthrough device, one range per trim: each
# block trimmed (a Dataset Management command) then written (an NVMe
# Write), as fio's trims and writes on nvme0n1; both kinds of command are
# driver-private requests to the block layer.
dsm_trimwrite_checks() {
	local d a b other obytes disc
	for d in trim write; do
		a=$(q nvme_dsm ".jobs[2].$d.total_ios") b=$(q fio_dsm ".jobs[2].$d.total_ios")
		check "nvme_dsm: trimwrite: $a ${d}s, fio's $b, of $(q nvme_dsm ".jobs[2].$d.io_bytes") bytes (fio's $(q fio_dsm ".jobs[2].$d.io_bytes"))" \
		      "$a == $b && $a == 64 && $(q nvme_dsm ".jobs[2].$d.io_bytes") == $(q fio_dsm ".jobs[2].$d.io_bytes")"
	done
	if cmp -s <(dsm_ios "$R/fio_dsm.fio.trimwrite.iolog") <(dsm_ios "$R/nvme_dsm.fio.trimwrite.iolog"); then
		ok "nvme_dsm: trimwrite: the same trims and writes in the same order as fio's (write_iolog)"
	else
		fail "nvme_dsm: trimwrite: write_iolog differs from fio's: $(diff <(dsm_ios "$R/fio_dsm.fio.trimwrite.iolog") <(dsm_ios "$R/nvme_dsm.fio.trimwrite.iolog") | head -n 4 | tr '\n' ' ')"
	fi
	other=$(q nvme_dsm '.iodig.groups[2].kernel.block.requests.other // 0')
	obytes=$(q nvme_dsm '.iodig.groups[2].kernel.block.bytes.other // 0')
	disc=$(q nvme_dsm '.iodig.groups[2].kernel.block.requests.discard // 0')
	check "nvme_dsm: trimwrite: block family: $other driver-private requests (64 trims + 64 writes), $obytes bytes (16 per trim + 4096 per write), $disc discards" \
	      "$other == 128 && $obytes == 64 * 16 + 64 * 4096 && $disc == 0"
}

# What reads back: the trimmed 4 MiB as zeroes, the 64 KiB after them as written.
dsm_data_checks() {
	local m=()
	# one line without its newline: read fills m and still says EOF
	read -r -a m <"$R/nvme_dsm.md5" 2>/dev/null
	if [ ${#m[@]} -ne 4 ]; then
		fail "nvme_dsm: no md5 sums of the namespace after the trims"
		return
	fi
	check "nvme_dsm: the trimmed 4 MiB read back as zeroes (QEMU deallocated them)" "\"${m[0]}\" == \"${m[1]}\""
	check "nvme_dsm: the 64 KiB after them are as written (no range past the region)" "\"${m[2]}\" == \"${m[3]}\""
}

case_dsm() {
	[ -f "$R/nvme.notset" ] && return 0
	ran nvme_dsm || return 0
	[ -f "$R/fio_dsm.json" ] || { fail "fio_dsm (fio 3.33's reference run) did not run"; return 0; }
	DSM_CMDS=0 DSM_RANGES=0
	dsm_job_checks 0 bs
	dsm_job_checks 1 bssplit
	dsm_block_checks
	dsm_trimwrite_checks
	dsm_data_checks
	NVME_SUMMARY+=" | dsm $DSM_CMDS commands for $DSM_RANGES ranges"
}
