# The lab's checks on the emulated NVMe disk (QEMU -device nvme, the guest's
# nvme driver), sourced by tests/vm/assert.sh after assert-funcs.sh.

# nvme_families SCENARIO: "family=mechanism state" of each family the run asked for
nvme_families() {
	q "$1" '[.iodig.kernel.probes[]? | select(.state != "off") |
		 "\(.family)=\(.mechanism) \(.state)"] | join(", ")'
}

# nvme_gup N: the GUP job with numjobs N: the grab and release functions
# ran on the NVMe path (funcs family).
nvme_gup() {
	local s=nvme_gup$1 grab rel cpi rcpi full
	funcs_on "$s" || return 0
	grab=$(called "$s" $PIN_GRAB) || { fail "$s: $PIN_GRAB was never called"; return 0; }
	rel=$(called "$s" $PIN_RELEASE) || { fail "$s: none of $PIN_RELEASE was called"; return 0; }
	cpi=$(f "$s" "$grab" .calls_per_io) rcpi=$(f "$s" "$rel" .calls_per_io)
	# Once per I/O each, with nothing past a full stack: the completion
	# interrupts of a real driver land on the submitting thread while its
	# own calls are being pushed (funcs.bpf.c takes a frame before writing
	# it; written first, an interrupt's release overwrote it and stayed,
	# and the thread's later calls went untimed).
	check "$s: $grab per I/O ($(fmt "$cpi" %.3f)), release $rel per I/O $(fmt "$rcpi" %.3f), $(q "$s" '.iodig.kernel.funcs.drops.depth') calls past a full stack" \
	      "$cpi > 0.95 && $cpi < 1.05 && $rcpi > 0.95 && $rcpi < 1.05 && $(q "$s" '.iodig.kernel.funcs.drops.depth // 1') == 0"
	NVME_SUMMARY+="gup x$1 $(fmt "$(iops "$s")") IOPS $grab $(fmt "$cpi" %.2f)/io $rel $(fmt "$rcpi" %.2f)/io | "
	# Calls past a full per-thread stack go untimed: which task's stack
	# filled first, and with what.
	full=$(q "$s" '.iodig.kernel.funcs.first_full_stack // empty |
		"\(.task) (tid \(.tid)): \([.frames[] | "\(.function) -\(.entered_ns_before / 1000 | floor)us"] | join(" > "))"')
	[ -n "$full" ] &&
		echo "note: $s: $(q "$s" '.iodig.kernel.funcs.drops.depth') calls past a full stack; the first full stack: $full"
}

# The block family's stages (--detail): get (Q2G) and dispatch (G2D) are
# timed, and issue to complete is the emulated device plus its interrupt.
nvme_stages() {
	local b='.iodig.kernel.block' dev q2g g2d
	dev=$(q nvme_stages "$b.device_ns.mean // 0")
	q2g=$(q nvme_stages "$b.stages.q2g_ns.mean // 0") g2d=$(q nvme_stages "$b.stages.g2d_ns.mean // 0")
	check "nvme_stages: block stages timed on nvme0n1: Q2G $(fmt "$q2g") ns, G2D $(fmt "$g2d") ns, issue to complete $(fmt "$dev") ns ($(q nvme_stages "$b.stages.q2g_ns.samples") requests)" \
	      "$q2g > 0 && $g2d > 0 && $dev > 0 && $(q nvme_stages "$b.stages.g2d_ns.samples // 0") > 0"
	NVME_SUMMARY+="stages Q2G $(fmt "$q2g")ns G2D $(fmt "$g2d")ns D2C $(fmt "$dev")ns | "
}

# Polled io_uring (hipri): the reaper's sampled stacks spin in
# io_do_iopoll down to the block layer's poll (bio_poll, blk_mq_poll) and
# the driver's (nvme_poll).
nvme_poll() {
	local polled total
	# io_uring_enter polls both when it reaps and right after it submits
	polled=$(q nvme_poll '[.iodig.kernel.sampling.folded[]? |
		select(.stack | test("io_do_iopoll;.*(bio_poll|blk_mq_poll|blk_hctx_poll|nvme_poll)")) |
		.samples] | add // 0')
	total=$(q nvme_poll '.iodig.kernel.sampling.samples.total // 0')
	check "nvme_poll: sampled stacks poll (io_do_iopoll to bio_poll/nvme_poll): $polled of $total samples" \
	      "$polled > 0"
	NVME_SUMMARY+="poll $(fmt "$(iops nvme_poll)") IOPS, $polled polling samples, $(q nvme_poll '[.iodig.kernel.sched.by_function[]?.count] | add // 0') switches | "
}

# io_queue_depth=2, its minimum (1 is refused): one tag per queue, so 16
# in flight sleep in blk_mq_get_tag.
nvme_tag() {
	local p=$R/nvme-params.txt sleeps vol
	if grep -q '^io_queue_depth=1: insmod exit [1-9]' "$p" 2>/dev/null; then
		ok "nvme: io_queue_depth=1 refused ($(grep -m 1 'insmod:' "$p"))"
	else
		fail "nvme: io_queue_depth=1 was not refused: $(tr '\n' ' ' <"$p" 2>/dev/null)"
	fi
	ran nvme_tag || return 0
	sleeps=$(q nvme_tag '.iodig.kernel.block.tag_waits.sleeps // 0')
	vol=$(q nvme_tag '[.iodig.kernel.sched.by_function[]? | select(.function == "blk_mq_get_tag") |
			  .voluntary] | add // 0')
	check "nvme_tag: io_queue_depth=2: tag waits $sleeps, blk_mq_get_tag sleeps $vol" \
	      "$sleeps > 0 && $vol > 0"
	NVME_SUMMARY+="tag $(fmt "$(iops nvme_tag)") IOPS $sleeps tag waits"
}

# io_uring passthrough (io_uring_cmd on /dev/ng0n1): NVMe commands issued
# through io_uring, inline while the queue has tags.
nvme_passthru() {
	if [ -f "$R/nvme_passthru.skip" ]; then
		SKIPPED+=("nvme_passthru: $(cat "$R/nvme_passthru.skip")")
		return 0
	fi
	ran nvme_passthru || return 0
	local sub pr
	sub=$(q nvme_passthru '.iodig.kernel.io_uring.submitted // 0')
	pr=$(q nvme_passthru '.iodig.kernel.io_uring.punt_ratio')
	check "nvme_passthru: io_uring submitted $sub NVMe commands (punt ratio $(fmt "$pr" %.3f))" "$sub > 0"
	NVME_SUMMARY+=" | passthru $(fmt "$(iops nvme_passthru)") IOPS"
}

case_nvme() {
	local s
	NVME_SUMMARY=
	if [ -f "$R/nvme.notset" ]; then
		SKIPPED+=("nvme scenarios: $(cat "$R/nvme.notset")")
		return 0
	fi
	for s in nvme_gup1 nvme_gup8 nvme_stages nvme_poll nvme_passthru nvme_tag; do
		[ -f "$R/$s.json" ] && echo "nvme $KVER: $s probes: $(nvme_families $s)"
	done
	ran nvme_gup1 && nvme_gup 1
	ran nvme_stages && nvme_stages
	ran nvme_gup8 && nvme_gup 8
	ran nvme_poll && nvme_poll
	nvme_tag
	nvme_passthru
}
