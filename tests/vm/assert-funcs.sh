# The lab's checks on the funcs family (fentry/kprobe function timing),
# sourced by tests/vm/assert.sh; each function returns early, noting what it
# skipped, when the iodig under test has no funcs family.
# f SCENARIO ROLE FIELD: one figure of .iodig.kernel.funcs.functions.ROLE
f() { q "$1" ".iodig.kernel.funcs.functions[\"$2\"]$3 // null"; }
# called SCENARIO ROLE...: the first ROLE with calls in SCENARIO
called() {
	local s=$1 r; shift
	for r in "$@"; do
		holds "$(f "$s" "$r" .calls) > 0" && { echo "$r"; return 0; }
	done
	return 1
}
funcs_on() { # funcs_on SCENARIO: the scenario ran and the family loaded in it
	[ $HAVE_FUNCS -eq 1 ] && [ -f "$R/$1.json" ] || return 1
	[ "$(q "$1" '.iodig.kernel.funcs.mechanism // "none"')" != none ] && return 0
	fail "$1: funcs family did not load: $(q "$1" '.iodig.kernel.probes[]? | select(.family == "funcs") | .reason')"
	return 1
}

# v6.3 (iov_iter_extract_pages) moved block O_DIRECT from get_user_pages
# references to FOLL_PIN pins; the Debian 6.1 kernel predates it.
KMAJ=${KVER%%.*} KMIN=${KVER#*.}; KMIN=${KMIN%%[.-]*}
if [ "$KMAJ" -gt 6 ] || { [ "$KMAJ" -eq 6 ] && [ "$KMIN" -ge 3 ]; }; then
	# Since v6.11 __bio_release_pages unpins whole folios with
	# unpin_user_folio(); bio_release_pages is the per-bio release around it.
	PIN_GRAB=pin_user_pages_fast
	PIN_RELEASE="unpin_user_folio unpin_user_page unpin_user_pages unpin_user_pages_dirty_lock bio_release_pages"
else
	PIN_GRAB=get_user_pages_fast PIN_RELEASE="bio_release_pages release_pages __folio_put"
fi

funcs_tag() {
	funcs_on tag || return 0
	local calls slept p50 p99
	calls=$(f tag blk_mq_get_tag .calls) slept=$(f tag blk_mq_get_tag .slept)
	p50=$(f tag blk_mq_get_tag .p50_ns) p99=$(f tag blk_mq_get_tag .p99_ns)
	FS_TAG="get_tag ${slept}/${calls} slept p50 $(fmt "$p50")ns p99 $(fmt "$p99")ns"
	# nullb0 completes after 1 ms, so a wait for a tag lasts ~ms: the
	# histogram's tail is sleeps, not the sub-microsecond fast path.
	check "tag: blk_mq_get_tag slept in $slept of $calls calls" "$slept > 0 && $calls >= $slept"
	check "tag: blk_mq_get_tag p99 is a sleep ($(fmt "$p99")ns >= 100us)" "$p99 >= 100000"
}

funcs_gup() {
	funcs_on gup || return 0
	local grab rel cpi ppc rcpi
	grab=$(called gup $PIN_GRAB) || {
		fail "gup: $PIN_GRAB was never called (called: $(q gup '[.iodig.kernel.funcs.functions | to_entries[] | select(.value.calls > 0) | .key] | join(",")'))"
		return 0; }
	cpi=$(f gup "$grab" .calls_per_io) ppc=$(f gup "$grab" .pages_per_call)
	GUP_GRAB_CPI=$cpi GUP_MECH=$(q gup '.iodig.kernel.funcs.mechanism')
	check "gup: $grab once per I/O ($(fmt "$cpi" %.3f))" "$cpi > 0.95 && $cpi < 1.05"
	check "gup: $grab takes one page per call ($(fmt "$ppc" %.3f))" "$ppc > 0.99 && $ppc < 1.01"
	rel=$(called gup $PIN_RELEASE) || { fail "gup: none of $PIN_RELEASE was called"; return 0; }
	rcpi=$(f gup "$rel" .calls_per_io)
	check "gup: release $rel once per I/O ($(fmt "$rcpi" %.3f))" "$rcpi > 0.95 && $rcpi < 1.05"
	case $grab,$rel in pin_*,bio_release_pages)
		echo "note: $KVER: the per-folio unpin under bio_release_pages is not timed" \
		     "(funcs has no row for $(echo "$PIN_RELEASE" | cut -d' ' -f1))" ;;
	esac
	FS_GUP="$grab $(fmt "$cpi" %.2f)/io x$(fmt "$ppc" %.2f)p $(fmt "$(f gup "$grab" .mean_ns)")ns, $rel $(fmt "$rcpi" %.2f)/io"
}

funcs_kprobe() {
	local mech grab cpi
	mech=$(q gup_kprobe '.iodig.kernel.funcs.mechanism // "none"')
	case $mech in kprobe*) ok "gup_kprobe: --mechanism=kprobe used $mech" ;;
	*) fail "gup_kprobe: --mechanism=kprobe gave mechanism $mech"; return 0 ;; esac
	grab=$(called gup_kprobe $PIN_GRAB) || { fail "gup_kprobe: $PIN_GRAB never called"; return 0; }
	cpi=$(f gup_kprobe "$grab" .calls_per_io)
	FS_KPROBE="kprobe $grab $(fmt "$cpi" %.2f)/io $(fmt "$(f gup_kprobe "$grab" .mean_ns)")ns"
	if [ "${GUP_MECH:-none}" != fentry ]; then
		fail "gup_kprobe: no fentry run to compare with: gup used ${GUP_MECH:-no funcs} ($(q gup '.iodig.kernel.probes[]? | select(.family == "funcs") | .reason'))"
		return 0
	fi
	check "gup_kprobe: $grab per I/O $(fmt "$cpi" %.3f) matches fentry's $(fmt "${GUP_GRAB_CPI:-}" %.3f)" \
	      "${GUP_GRAB_CPI:-0} > 0 && $cpi - ${GUP_GRAB_CPI:-0} < 0.05 && ${GUP_GRAB_CPI:-0} - $cpi < 0.05"
}

funcs_dax() {
	funcs_on dax || return 0
	local calls fpte fpmd ffb
	calls=$(f dax dax_iomap_fault .calls)
	fpte=$(f dax dax_iomap_fault .sizes.pte) fpmd=$(f dax dax_iomap_fault .sizes.pmd)
	ffb=$(f dax dax_iomap_fault .results.fallback)
	check "dax: dax_iomap_fault timed $calls times (pte $fpte pmd $fpmd, $ffb fell back)" "$calls > 0"
	# The same faults, seen by the fs_dax tracepoints and by fexit.
	check "dax: dax_iomap_fault PTE calls ($fpte) match fs_dax pte_fault ($pte) within 5%" \
	      "$fpte >= 0.95 * $pte && $fpte <= 1.05 * $pte + 1"
	FS_DAX="dax_iomap_fault $calls mean $(fmt "$(f dax dax_iomap_fault .mean_ns)")ns"
}

funcs_uring() {
	funcs_on uring_pmem || return 0
	local sub punted wq
	sub=$(q uring_pmem '.iodig.kernel.io_uring.submitted')
	punted=$(f uring_pmem io_issue_sqe .results.punted)
	wq=$(f uring_pmem io_wq_submit_work .calls)
	check "uring_pmem: io_issue_sqe -EAGAIN for $punted of $sub requests" "$punted >= 0.95 * $sub"
	check "uring_pmem: io_wq_submit_work ran $wq times for $sub requests" "$wq >= 0.95 * $sub"
	if funcs_on uring_null; then
		local np nc
		np=$(f uring_null io_issue_sqe .results.punted) nc=$(f uring_null io_issue_sqe .calls)
		check "uring_null: io_issue_sqe punted $np of $nc" "$nc > 0 && $np <= 0.05 * $nc"
	fi
	FS_URING="io_issue_sqe punted pmem $punted/$sub"
}

funcs_summary() {
	[ $HAVE_FUNCS -eq 1 ] || return 0
	printf 'funcs %s: %s | %s | %s | %s | %s\n' "$KVER" "${FS_TAG:--}" "${FS_GUP:--}" \
		"${FS_KPROBE:--}" "${FS_DAX:--}" "${FS_URING:--}"
}
