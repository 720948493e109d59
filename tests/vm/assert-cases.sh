# The lab's two before/after cases, sourced by tests/vm/assert.sh: DAX PMD
# faults that map (ext4 with 2 MiB clusters) against ones that fall back
# (plain ext4), and io_uring on a queue without NOWAIT (pmem) against one
# with it (brd); each pair also through `iodig diff` ($IODIG).

# kconfig OPTION: the kernel under test was built with OPTION=y ($VM_KCONFIG)
kconfig() { grep -q "^$1=y" "${VM_KCONFIG:-/nonexistent}" 2>/dev/null; }

# dax_fig SCENARIO EVENT FIELD: .iodig.kernel.faults.dax.events.EVENT FIELD
dax_fig() { q "$1" ".iodig.kernel.faults.dax.events.$2$3 // 0"; }
# diff_row DIFF-JSON KEY-LABEL FILE: the mean of the row labelled so, of file A or B
diff_row() { jq -r --arg l "$2" --arg f "$3" \
	'[.rows[] | select(.figure == $l) | .values[] | select(.file == $f) | .mean][0] // "null"' "$1" 2>/dev/null || echo null; }

case_dax() {
	local pmd_map pmd_fb pte pmd_ns pte_ns d
	ran dax && ran dax_pmd || return 0
	pmd_map=$(dax_fig dax pmd_fault .mapped) pmd_fb=$(dax_fig dax pmd_fault .fallback)
	pte_ns=$(dax_fig dax pte_fault '.time.mapped.avg_ns')
	if [ -n "${VM_KCONFIG:-}" ] && ! kconfig CONFIG_FS_DAX_PMD; then
		# PREEMPT_RT kernels have no THP, so no DAX PMD faults at all
		check "dax, dax_pmd: no PMD fault on a kernel without CONFIG_FS_DAX_PMD ($(dax_fig dax pmd_fault .total), $(dax_fig dax_pmd pmd_fault .total)); PTE faults $(dax_fig dax pte_fault .total), $(dax_fig dax_pmd pte_fault .total), timed ($(fmt "$pte_ns") ns)" \
		      "$(dax_fig dax pmd_fault .total) + $(dax_fig dax_pmd pmd_fault .total) == 0 && $(dax_fig dax pte_fault .total) > 0 && $(dax_fig dax_pmd pte_fault .total) > 0 && $pte_ns > 0"
		echo "note: $KVER: no CONFIG_FS_DAX_PMD: both files are mapped with PTEs only"
		DAX_SUMMARY="dax plain pte $(dax_fig dax pte_fault .total) ($(fmt "$pte_ns") ns); bigalloc pte $(dax_fig dax_pmd pte_fault .total) (no FS_DAX_PMD)"
		return 0
	fi
	check "dax (plain ext4): every PMD fault falls back ($pmd_fb of $(dax_fig dax pmd_fault .total), $pmd_map mapped)" \
	      "$pmd_map == 0 && $pmd_fb > 0"
	check "dax (plain ext4): PTE faults timed ($(fmt "$pte_ns") ns per mapped fault)" "$pte_ns > 0"
	pmd_map=$(dax_fig dax_pmd pmd_fault .mapped)
	pmd_ns=$(dax_fig dax_pmd pmd_fault '.time.mapped.avg_ns')
	check "dax_pmd (bigalloc 2M): PMD faults map ($pmd_map mapped, $(dax_fig dax_pmd pmd_fault .fallback) fell back; PTE faults $(dax_fig dax_pmd pte_fault .total))" \
	      "$pmd_map > 0"
	check "dax_pmd (bigalloc 2M): PMD faults timed ($(fmt "$pmd_ns") ns per mapped fault)" "$pmd_ns > 0"
	DAX_SUMMARY="dax plain pte $(dax_fig dax pte_fault .total) ($(fmt "$pte_ns") ns) pmd fallback $pmd_fb; bigalloc pmd mapped $pmd_map ($(fmt "$pmd_ns") ns) pte $(dax_fig dax_pmd pte_fault .total)"
	d=$R/diff-dax.json
	"$IODIG" diff --format=json "$R/dax.trace.json" "$R/dax_pmd.trace.json" >"$d" 2>"$R/diff-dax.err" ||
		{ fail "iodig diff dax dax_pmd: $(head -c 300 "$R/diff-dax.err")"; return 0; }
	local a b
	a=$(diff_row "$d" "DAX mapping size, KiB per mapped fault" A)
	b=$(diff_row "$d" "DAX mapping size, KiB per mapped fault" B)
	check "diff dax -> dax_pmd: mapping size $(fmt "$a" %.0f) KiB -> $(fmt "$b" %.0f) KiB" "$a == 4 && $b > 64"
	b=$(diff_row "$d" "DAX PMD fault time, ns per mapped fault" B)
	a=$(diff_row "$d" "DAX PTE fault time, ns per mapped fault" A)
	check "diff dax -> dax_pmd: time per fault PTE $(fmt "$a") ns (A), PMD $(fmt "$b") ns (B)" "$a > 0 && $b > 0"
	"$IODIG" diff "$R/dax.trace.json" "$R/dax_pmd.trace.json" >"$R/diff-dax.txt" 2>&1
}

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR ? (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) : "null") }'; }
# ctx_per_io SCENARIO: the workers' context switches per I/O (perf counter)
ctx_per_io() { q "$1" '.iodig.kernel.counters.events["context-switches"].per_io // null'; }

case_nowait() {
	local i p b pm bm d
	for i in 1 2 3; do
		ran nowait_pmem$i && ran nowait_brd$i || return 0
		p=$(q nowait_pmem$i '.iodig.kernel.io_uring.punt_ratio')
		b=$(q nowait_brd$i '.iodig.kernel.io_uring.punt_ratio')
		check "nowait $i: pmem punts (ratio $(fmt "$p" %.3f)), brd issues inline ($(fmt "$b" %.3f))" \
		      "$p >= 0.95 && $b < 0.05"
	done
	pm=$(for i in 1 2 3; do ctx_per_io nowait_pmem$i; done | median)
	bm=$(for i in 1 2 3; do ctx_per_io nowait_brd$i; done | median)
	# PREEMPT_RT's sleeping spinlocks switch the submitter out on brd too
	NOWAIT_FACTOR=100
	kconfig CONFIG_PREEMPT_RT && NOWAIT_FACTOR=10 &&
		echo "note: $KVER: PREEMPT_RT: brd's context switches per I/O are asserted ${NOWAIT_FACTOR}x below pmem's, not 100x"
	check "nowait: context switches per I/O, median of 3: pmem $(fmt "$pm" %.4f), brd $(fmt "$bm" %.6f): ${NOWAIT_FACTOR}x fewer with NOWAIT" \
	      "$pm > 0 && $bm * $NOWAIT_FACTOR < $pm"
	NOWAIT_SUMMARY="nowait ctx/IO pmem $(fmt "$pm" %.4f) brd $(fmt "$bm" %.6f); IOPS pmem $(for i in 1 2 3; do fmt "$(iops nowait_pmem$i)"; echo -n ' '; done)brd $(for i in 1 2 3; do fmt "$(iops nowait_brd$i)"; echo -n ' '; done)"
	d=$R/diff-nowait.json
	"$IODIG" diff --format=json "$R/nowait_pmem1.trace.json" "$R/nowait_brd1.trace.json" >"$d" \
		2>"$R/diff-nowait.err" || { fail "iodig diff nowait: $(head -c 300 "$R/diff-nowait.err")"; return 0; }
	p=$(diff_row "$d" "io_uring punt ratio (io-wq)" A) b=$(diff_row "$d" "io_uring punt ratio (io-wq)" B)
	check "diff pmem -> brd: punt ratio $(fmt "$p" %.3f) -> $(fmt "$b" %.3f)" "$p >= 0.95 && $b < 0.05"
	p=$(diff_row "$d" "io-wq worker switches per I/O" A) b=$(diff_row "$d" "io-wq worker switches per I/O" B)
	check "diff pmem -> brd: io-wq switches per I/O $(fmt "$p" %.3f) -> $(fmt "$b" %.4f)" "$p > 0 && $b * 100 < $p"
	p=$(diff_row "$d" "perf context-switches per I/O" A) b=$(diff_row "$d" "perf context-switches per I/O" B)
	check "diff pmem -> brd: context switches per I/O $(fmt "$p" %.4f) -> $(fmt "$b" %.6f)" "$p > 0 && $b * $NOWAIT_FACTOR < $p"
	"$IODIG" diff "$R/nowait_pmem1.trace.json" "$R/nowait_brd1.trace.json" >"$R/diff-nowait.txt" 2>&1
}
