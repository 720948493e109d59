#!/bin/bash
# Host-side checks of one guest's results (tests/vm/lab.sh passes the results
# directory and QEMU's wall seconds): jq assertions per scenario, then one
# summary line of figures for the kernel.  Exit 0 when every check held.
set -u
R=$1 QSECS=${2:-?}
KVER=$(cat "$R/kernel" 2>/dev/null || echo unknown)
FAILS=0 SKIPPED=() FAMILIES=
IODIG=${IODIG:-$(dirname "${BASH_SOURCE[0]}")/../../build/iodig}
HERE=$(dirname "${BASH_SOURCE[0]}")

fail() { echo "FAIL: $KVER: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $KVER: $*"; }
# q SCENARIO FILTER: jq -r on SCENARIO.json, "null" when absent or unparsable
q() { jq -r "$2" "$R/$1.json" 2>/dev/null || echo null; }
# holds EXPR: awk arithmetic truth (figures may be floats or null)
holds() { awk "BEGIN { exit !($*) }" 2>/dev/null; }
# check DESCRIPTION EXPR
check() { if holds "$2"; then ok "$1"; else fail "$1 (needed $2)"; fi; }
fmt() { awk -v v="$1" -v f="${2:-%.0f}" 'BEGIN { if (v == "null" || v == "") print "-"; else printf f, v }'; }

if [ -f "$R/setup-error" ]; then
	while read -r l; do fail "guest $l"; done <"$R/setup-error"
fi

# Every probe family loads on this kernel, if need be with a lesser
# mechanism: a missing family is a CO-RE or verifier problem on it.
if [ -f "$R/probe.txt" ]; then
	while read -r fam mech state reason; do
		[ "$fam" = family ] && continue
		case $state in
		active)   ok "probe $fam: $mech" ;;
		# A lesser mechanism because the verifier refused the better one
		# is iodig's defect, not the kernel's lack.
		degraded) case $reason in
			*"rejected by the verifier"* | *"; verifier: "*) fail "probe $fam fell back to $mech: ${reason:0:300}" ;;
			*) ok "probe $fam: $mech (degraded: ${reason:0:160})" ;;
			esac ;;
		*)        fail "probe $fam $state: ${reason:0:300} (libbpf log: $R/probe-debug.txt)" ;;
		esac
		FAMILIES+="$fam=$mech "
	done <"$R/probe.txt"
else
	fail "no probe.txt: iodig probe did not run"
fi

# Every scenario ran, exited 0 and did I/O.
ran() { # ran SCENARIO: 0 when its JSON is there and the run succeeded
	local rc
	if [ -f "$R/$1.notset" ]; then
		case " ${SKIPPED[*]} " in *" $1: "*) ;; *) SKIPPED+=("$1: $(cat "$R/$1.notset")") ;; esac
		return 1
	fi
	if [ -f "$R/$1.budget" ]; then fail "$1 $(cat "$R/$1.budget")"; return 1; fi
	if [ ! -f "$R/$1.rc" ]; then fail "$1 did not run"; return 1; fi
	if [ -f "$R/$1.hung" ]; then
		fail "$1 stuck in the guest kernel: $(head -n 6 "$R/$1.hung" | tr '\n' ' ')"
		return 1
	fi
	rc=$(cat "$R/$1.rc")
	if [ "$rc" != 0 ] || ! jq -e . "$R/$1.json" >/dev/null 2>&1; then
		fail "$1 exited $rc: $(tail -n 2 "$R/$1.err" | tr '\n' ' ')"
		return 1
	fi
	local ios
	ios=$(q "$1" '[.jobs[] | .read.total_ios + .write.total_ios + (.trim.total_ios // 0)] | add')
	check "$1 did I/O ($ios I/Os in $(cat "$R/$1.secs")s)" "$ios > 0"
}
iops() { q "$1" '[.jobs[] | .read.iops + .write.iops] | add'; }
HAVE_FUNCS=0
grep -q '^funcs ' "$R/probe.txt" 2>/dev/null && HAVE_FUNCS=1
[ $HAVE_FUNCS -eq 1 ] || SKIPPED+=("funcs checks (this iodig has no funcs family)")
. "$HERE/assert-funcs.sh"

# --- blk-mq tag waits: 128 in flight on 4 tags ---------------------------
if ran tag; then
	top=$(q tag '.iodig.kernel.sched.by_function | map(select(.voluntary > 0)) |
		     max_by(.voluntary).function // "none"')
	tag_vol=$(q tag '[.iodig.kernel.sched.by_function[] |
			  select(.function == "blk_mq_get_tag") | .voluntary] | add // 0')
	[ "$top" = blk_mq_get_tag ] && ok "tag: top blocking function is blk_mq_get_tag ($tag_vol sleeps)" ||
		fail "tag: top voluntary blocking function is $top, not blk_mq_get_tag"
	inflight=$(q tag '.iodig.kernel.block.inflight_mean')
	check "tag: nullb0 kept at most its 4 tags in flight (mean $(fmt "$inflight" %.2f))" \
	      "$inflight > 0 && $inflight <= 4.01"
	funcs_tag
fi

# --- one user page per 4k O_DIRECT read ----------------------------------
if ran gup; then
	rpi=$(q gup '.iodig.kernel.block.requests_per_io')
	check "gup: one block request per I/O ($(fmt "$rpi" %.3f))" "$rpi > 0.98 && $rpi < 1.02"
	funcs_gup
fi
# fio cross-checks.  The same 8 MiB job in iodig and fio must count the
# same 2048 reads, and the kernel's block layer must have seen them.
if ran count && ran fio_count; then
	n_iodig=$(q count '.jobs[0].read.total_ios') n_fio=$(q fio_count '.jobs[0].read.total_ios')
	n_blk=$(q count '.iodig.kernel.block.requests.read')
	check "count: iodig, fio and the block layer count 2048 reads ($n_iodig, $n_fio, $n_blk)" \
	      "$n_iodig == 2048 && $n_fio == 2048 && $n_blk == 2048"
fi
# Rates are a figure only: under TCG they swing by 2-4x between runs.
if ran plain && ran fio_gup; then
	fio_iops=$(q fio_gup '.jobs[0].read.iops')
	ratio=$(awk -v a="$(iops plain)" -v b="$fio_iops" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
fi
[ $HAVE_FUNCS -eq 1 ] && ran gup_kprobe && funcs_kprobe

# --- DAX faults on ext4 -o dax -------------------------------------------
if ran dax; then
	pte=$(q dax '.iodig.kernel.faults.dax.events.pte_fault.total // 0')
	pmd=$(q dax '.iodig.kernel.faults.dax.events.pmd_fault.total // 0')
	pmd_fb=$(q dax '.iodig.kernel.faults.dax.events.pmd_fault.fallback // 0')
	[ "$(q dax '.iodig.kernel.faults.dax.seen')" = true ] && ok "dax: fs_dax faults seen" ||
		fail "dax: no fs_dax fault events (missing: $(q dax '.iodig.kernel.faults.dax.missing_tracepoints | join(",")'))"
	check "dax: PTE+PMD faults counted (pte $pte, pmd $pmd of which $pmd_fb fell back)" \
	      "$pte + $pmd > 0 && $pmd_fb <= $pmd"
	funcs_dax
fi

# --- io_uring NOWAIT: inline on null_blk, punted on pmem -----------------
if ran uring_null; then
	pn=$(q uring_null '.iodig.kernel.io_uring.punt_ratio')
	check "uring_null: blk-mq null_blk issues inline (punt ratio $(fmt "$pn" %.3f))" "$pn < 0.05"
fi
if ran uring_pmem; then
	pp=$(q uring_pmem '.iodig.kernel.io_uring.punt_ratio')
	check "uring_pmem: bio-based pmem punts to io-wq (punt ratio $(fmt "$pp" %.3f))" "$pp >= 0.95"
	funcs_uring
fi

# The tracing's own code is never named as a kernel blocking function (on
# PREEMPT_RT io-wq workers were preempted inside iodig's BPF programs, in
# __bpf_task_storage_get and the BPF allocator's unit_alloc).
own=$(for f in "$R"/*.json; do
	jq -r '.iodig.kernel.sched.by_function[]?.function' "$f" 2>/dev/null
done | grep -E '^(__)?bpf_|^unit_(alloc|free)$' | sort -u | tr '\n' ' ')
inbpf=$(for f in "$R"/*.json; do
	jq -r '.iodig.kernel.sched.by_function[]? | select(.function == "[tracing: in BPF programs]") | .count' "$f" 2>/dev/null
done | awk '{ n += $1 } END { print n + 0 }')
check "sched: no blocking function is BPF code (${own:-none}); $inbpf switches in BPF programs counted as the tracing's" \
      "$(echo $own | wc -w) == 0"

. "$HERE/assert-cases.sh"
DAX_SUMMARY=- NOWAIT_SUMMARY=-
case_dax
case_nowait
. "$HERE/assert-nvme.sh"
case_nvme
. "$HERE/assert-zoned.sh"
case_zoned
. "$HERE/assert-dsm.sh"
case_dsm
. "$HERE/assert-libzbc.sh"
case_libzbc
. "$HERE/assert-daxmtd.sh"
MTD_SUMMARY=- DEVDAX_SUMMARY=-
case_mtd
case_devdax
. "$HERE/assert-dm.sh"
DM_SUMMARY=-
case_dm

for s in "${SKIPPED[@]}"; do echo "skipped: $KVER: $s"; done
echo "probes $KVER: $FAMILIES"
printf 'summary %s: qemu %ss | IOPS tag %s gup %s (no probes %s, fio %s, ratio %s) dax %s uring null %s pmem %s | tag sleeps %s | punt null %s pmem %s | dax pte %s pmd %s (fallback %s) | %d failed\n' \
	"$KVER" "$QSECS" "$(fmt "$(iops tag)")" "$(fmt "$(iops gup)")" "$(fmt "$(iops plain)")" \
	"$(fmt "$(q fio_gup '.jobs[0].read.iops')")" "${ratio:--}" "$(fmt "$(iops dax)")" \
	"$(fmt "$(iops uring_null)")" "$(fmt "$(iops uring_pmem)")" "${tag_vol:--}" \
	"$(fmt "${pn:-}" %.3f)" "$(fmt "${pp:-}" %.3f)" "${pte:--}" "${pmd:--}" "${pmd_fb:--}" "$FAILS"
echo "cases $KVER: $DAX_SUMMARY | $NOWAIT_SUMMARY"
echo "nvme $KVER: ${NVME_SUMMARY:--}"
echo "cases $KVER: $MTD_SUMMARY | $DEVDAX_SUMMARY"
echo "cases $KVER: $DM_SUMMARY"
# Where the guest's time went: each scenario's wall seconds.
echo "timing $KVER: qemu ${QSECS}s; $(for f in "$R"/*.secs; do
	[ -f "$f" ] && printf '%s %ss ' "$(basename "$f" .secs)" "$(cat "$f")"; done)"
funcs_summary
[ $FAILS -eq 0 ]
