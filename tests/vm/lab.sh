#!/bin/bash
# QEMU kernel lab: boots Debian 6.1 and 6.12 kernels under TCG with null_blk,
# an ext4 -o dax pmem disk and an emulated NVMe controller, runs iodig's
# scenarios there and asserts on the JSON.  Exit 0 pass, 1 fail, 77 skip ("skipped: why" first).
# Usage: tests/vm/lab.sh [6.1|6.12|6.12-rt ...]   (default: 6.1 6.12 6.12-rt)
# Env: VM_CACHE (/var/cache/iodig-vm), OUT (build), VM_TIMEOUT (s per boot),
# LAB_SCENARIOS=a,b (run only those, as iodig.scenarios), IODIG_VM=0 skips the lab,
# VM_CLOCK (the guests' clock options, default tsc=reliable: see below).
set -u
cd "$(dirname "$0")/../.."
HERE=tests/vm
OUT=${OUT:-build}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
VM_CACHE=${VM_CACHE:-/var/cache/iodig-vm}
VM_DIR=$OUT/vm
VM_TIMEOUT=${VM_TIMEOUT:-900}
# Every guest reads the clock from one source: under TCG, 6.1 finds the
# vCPUs' TSCs "unsynchronized" and falls back to an emulated HPET while
# 6.12 keeps the TSC, and then every clock read (the block layer's
# timestamps, iodig's own timing) costs far more on 6.1 and leads the
# cross-kernel diffs.  QEMU derives every vCPU's TSC from one clock.
VM_CLOCK=${VM_CLOCK-tsc=reliable}
IODIG=${IODIG:-$OUT/iodig}
# The guest keeps perf's software-event static keys enabled with this
# holder (tests/vm/swkeys_hold.c says why); VM_SWKEYS=0 boots without it.
SWKEYS_HOLD=${SWKEYS_HOLD:-$OUT/tests/vm/swkeys_hold}
VM_SWKEYS=${VM_SWKEYS:-1}
VM_WHY=
. $HERE/kernel.sh
. $HERE/initramfs.sh

skip() { echo "skipped: $*"; exit 77; }
lab_start=$(date +%s)
# QEMU runs under its own timeout, which puts it in another process group,
# so a runner's timeout that kills this script would miss it: stop it here.
QEMU_PID=
stop_qemu() { [ -n "$QEMU_PID" ] && kill "$QEMU_PID" 2>/dev/null; QEMU_PID=; }
trap stop_qemu EXIT
trap 'stop_qemu; exit 1' INT TERM

[ "${IODIG_VM:-1}" = 0 ] && skip "IODIG_VM=0 in the environment"
[ "$(id -u)" -eq 0 ] || skip "the lab needs root (apt-get, depmod, QEMU)"
[ -x "$IODIG" ] || skip "$IODIG not built (run make first)"
[ -x "$SWKEYS_HOLD" ] || skip "$SWKEYS_HOLD not built (run make unit first)"

mkdir -p "$VM_DIR" "$VM_CACHE" || skip "cannot create $VM_DIR or $VM_CACHE"
# Host tools: QEMU and busybox-static come from Debian when missing.
need_pkgs=()
command -v qemu-system-x86_64 >/dev/null || need_pkgs+=(qemu-system-x86)
[ -x /bin/busybox ] && /bin/busybox cpio --help 2>&1 | grep -q -- '-o' ||
	need_pkgs+=(busybox-static)
for t in depmod:kmod jq:jq mke2fs:e2fsprogs fio:fio xz:xz-utils dmsetup:dmsetup; do
	command -v "${t%%:*}" >/dev/null || need_pkgs+=("${t#*:}")
done
if [ ${#need_pkgs[@]} -gt 0 ]; then
	echo "lab: installing ${need_pkgs[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${need_pkgs[@]}" >"$VM_DIR.apt.log" 2>&1 ||
	{ apt-get update -qq >/dev/null 2>&1 &&
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${need_pkgs[@]}" >"$VM_DIR.apt.log" 2>&1; } ||
		skip "cannot install ${need_pkgs[*]} (no network or package?): $(tail -n 1 "$VM_DIR.apt.log")"
fi

want=("$@")
[ ${#want[@]} -eq 0 ] && want=(6.1 6.12 6.12-rt)
initramfs_userland "$VM_DIR" "$IODIG" "$SWKEYS_HOLD" || skip "$VM_WHY"
# The emulated NVMe namespace's backing file: sparse, so it costs no disk
# and reads of it are zeroes, made once and shared by every boot.
NVME_IMG=$VM_DIR/nvme.img NVME_PARAMS="nvme.poll_queues=1"
[ -f "$NVME_IMG" ] || truncate -s 1G "$NVME_IMG" || skip "cannot create $NVME_IMG"

failed=0 ran=0 summaries=() asserted=()
# kernel_profile KERNEL: VM_SMP (vCPUs), VM_NVME (1: the NVMe controller)
# and VM_SCENARIOS (comma-separated, empty: all) of its boot.  PREEMPT_RT
# runs the tag, GUP, DAX and punt scenarios on one vCPU: with two, TCG
# sometimes let one run a stale int3 while a tracepoint's static branch
# in __schedule was patched at a run's start (an Oops, one boot in two),
# and RT is the slowest kernel under TCG.
kernel_profile() {
	VM_SMP=2 VM_NVME=1 VM_SCENARIOS=
	case $1 in
	6.12-rt) VM_SMP=1 VM_NVME=0 VM_SCENARIOS=tag,gup,dax,dax_pmd,uring_null,uring_pmem ;;
	esac
	# A developer's narrower set (the RT boot's limits still hold).
	[ -n "${LAB_SCENARIOS:-}" ] && VM_SCENARIOS=$LAB_SCENARIOS
}
# wait_guest CONSOLE: waits for QEMU ($QEMU_PID), sets qrc.  A guest whose
# watchdog reports a CPU stuck for LOCKUP_KILL s (far past a scenario's own
# cut-off, scenarios.sh), or whose console stays silent for FROZEN_KILL s
# (every scenario prints its start and is cut off after 120 s: both vCPUs
# spin with interrupts off, where no watchdog speaks), does not come back
# under TCG: it is stopped then, not at VM_TIMEOUT, and locked_up=1.
LOCKUP_KILL=180 FROZEN_KILL=300
wait_guest() {
	local console=$1 stuck size last_size=-1 quiet_since
	locked_up=0 quiet_since=$(date +%s)
	while kill -0 "$QEMU_PID" 2>/dev/null; do
		stuck=$(grep -o 'soft lockup - CPU#[0-9]* stuck for [0-9]*s' "$console" 2>/dev/null |
			sed 's/.* for //; s/s$//' | sort -n | tail -n 1)
		size=$(stat -c %s "$console" 2>/dev/null || echo 0)
		[ "$size" != "$last_size" ] && { last_size=$size; quiet_since=$(date +%s); }
		if [ "${stuck:-0}" -ge "$LOCKUP_KILL" ] ||
		   [ $(($(date +%s) - quiet_since)) -ge "$FROZEN_KILL" ]; then
			locked_up=1
			kill "$QEMU_PID" 2>/dev/null
			break
		fi
		sleep 3
	done
	wait "$QEMU_PID"
	qrc=$?
}

# boot_kernel VER RES: one boot of the lab's guest; results unpacked into
# RES; sets boot_result (ok, stuck, timeout, hung, crashed, none), boot_secs
# and qrc.  The guest skips scenarios that would start after iodig.budget
# seconds, so its results leave before QEMU's timeout: a scenario may take
# up to LIMIT+20 s (scenarios.sh) and the transfer takes seconds.
boot_kernel() {
	local ver=$1 res=$2 t0 budget=$((VM_TIMEOUT - 170))
	rm -rf "$res"; mkdir -p "$res"
	echo "lab: booting $ver (TCG, timeout ${VM_TIMEOUT}s)"
	t0=$(date +%s)
	# KVM is not used: nested guests here die in the kernel decompressor.
	# memmap=512M!2G reserves guest RAM 2G..2.5G as legacy pmem (nd_e820).
	# -device nvme: a PCI NVMe controller driven by the guest's nvme module,
	# with one polled queue for io_uring's IOPOLL (hipri).  discard=unmap:
	# QEMU ignores the guest's deallocations (Dataset Management) without
	# it; with it they punch holes, which read back as zeroes (nvme_dsm).
	local nvme=(-device nvme,serial=iodig,drive=nvm0
		    -drive "file=$NVME_IMG,if=none,id=nvm0,format=raw,discard=unmap") extra=
	[ "$VM_NVME" = 1 ] || { nvme=(); extra="iodig.nvme=0"; }
	[ "$VM_SWKEYS" = 1 ] || extra="$extra iodig.swkeys=0"
	[ -n "$VM_SCENARIOS" ] && extra="$extra iodig.scenarios=$VM_SCENARIOS"
	timeout -k 10 "$VM_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 3G -smp "$VM_SMP" \
		-nographic -no-reboot -nic none -monitor none "${nvme[@]}" \
		-kernel "$VM_CACHE/root/$ver/boot/vmlinuz-$ver" \
		-initrd "$VM_DIR/initrd-$ver.cpio" \
		-append "console=ttyS0 memmap=512M!2G panic=-1 mitigations=off loglevel=4 rdinit=/init $NVME_PARAMS iodig.budget=$budget $VM_CLOCK $extra" \
		-serial stdio -serial "file:$res/serial1.txt" \
		</dev/null >"$res/console.log" 2>&1 &
	QEMU_PID=$!
	wait_guest "$res/console.log"
	QEMU_PID=
	boot_secs=$(($(date +%s) - t0))
	if [ "$locked_up" = 1 ] || { { [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; } &&
	   grep -q 'soft lockup\|rcu_preempt detected stalls' "$res/console.log"; }; then
		boot_result=hung
	elif [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
		boot_result=timeout
	elif sed -n '/^IODIG-RESULTS-BEGIN/,/^IODIG-RESULTS-END/p' "$res/serial1.txt" |
	     sed '1d;$d' | base64 -d | tar -xzf - -C "$res" 2>/dev/null; then
		boot_result=ok
		# A scenario the guest found stuck in its kernel (scenarios.sh)
		ls "$res"/*.hung >/dev/null 2>&1 && boot_result=stuck
	elif grep -q 'Kernel panic\|Oops:' "$res/console.log"; then
		boot_result=crashed
	else
		boot_result=none
	fi
}

# boot_story: what went wrong with the last boot, in words, for RES=$res
boot_story() {
	local last
	last=$(grep -a -o 'lab: scenario [a-z_0-9]*' "$res/console.log" | tail -n 1)
	case $boot_result in
	timeout) echo "did not finish within ${VM_TIMEOUT}s (last started: ${last:-no scenario})" ;;
	hung) echo "kernel locked up (soft lockup, RCU stall or a console silent for ${FROZEN_KILL}s; last started: ${last:-no scenario})" ;;
	stuck) echo "had a scenario stuck in its kernel: $(cd "$res" && ls *.hung | sed 's/\.hung$//' | tr '\n' ' ')" ;;
	*) echo "kernel crashed (panic or oops; last started: ${last:-no scenario})" ;;
	esac
}

for k in "${want[@]}"; do
	case $k in
	6.1)  pat=${VM_KERNEL_PATTERNS[0]} ;;
	6.12) pat=${VM_KERNEL_PATTERNS[1]} ;;
	6.12-rt) pat=${VM_KERNEL_PATTERNS[2]} ;;
	*) echo "lab: unknown kernel $k (6.1, 6.12 or 6.12-rt)"; exit 1 ;;
	esac
	kernel_pick "$pat" || { summaries+=("$k: SKIP $VM_WHY"); continue; }
	ver=${VM_PKG#linux-image-}
	kernel_fetch "$VM_PKG" || { summaries+=("$k: SKIP $VM_WHY"); continue; }
	kernel_unpack "$VM_DEB" "$ver" || { summaries+=("$k: SKIP $VM_WHY"); continue; }
	kernel_prune "$pat" "$VM_PKG"
	initramfs_kernel "$VM_DIR" "$ver" || { summaries+=("$k: SKIP $VM_WHY"); continue; }

	res=$VM_DIR/results-$ver
	kernel_profile "$k"
	# Under TCG a guest sometimes dies on an int3 left by live code
	# patching (seen in io_uring and __schedule, on 6.12 and 6.12-rt), or
	# both vCPUs lock up in the kernel (soft lockups, RCU stalls: seen once
	# on 6.1 in a NOWAIT run), or it passes its deadline with no message at
	# all (seen once on 6.1 in CI): emulator faults, not findings, so that
	# boot is made once more, saying so, and its console kept.  (One TCG thread
	# for both vCPUs avoids neither cheaply: the emulated NVMe then times
	# out its commands on 6.12.)
	# An int3 left by live code patching is the emulator's alone (the
	# kernel's text is not iodig's to touch), so that crash gets a third
	# boot; any other fault a second only.
	first_boot=
	for attempt in 1 2 3; do
		boot_kernel "$ver" "$res"
		case $boot_result in crashed | hung | timeout | stuck) ;; *) break ;; esac
		[ $attempt -eq 1 ] || { [ $attempt -eq 2 ] && [ $boot_result = crashed ] &&
			grep -q 'Oops: int3' "$res/console.log"; } || break
		echo "lab: $ver: the guest $(boot_story) under TCG (console kept in $res.$boot_result.log); booting it again"
		cp "$res/console.log" "$res.$boot_result.log"
		first_boot="; boot $((attempt + 1)): the one before $(boot_story)"
		for h in "$res"/*.hung; do [ -f "$h" ] && cp "$h" "$res.$(basename "$h")"; done
	done
	ran=$((ran + 1))
	case $boot_result in
	timeout | hung)
		echo "FAIL: $ver: the guest $(boot_story) twice; last console lines:"
		tail -n 15 "$res/console.log" | sed 's/^/    /'
		failed=$((failed + 1)); summaries+=("$ver: FAIL: the guest $(boot_story)$first_boot"); continue ;;
	ok | stuck) ;;
	*)
		echo "FAIL: $ver: no results on the second serial port (qemu exit $qrc); console:"
		tail -n 20 "$res/console.log" | sed 's/^/    /'
		failed=$((failed + 1)); summaries+=("$ver: FAIL no results"); continue ;;
	esac
	asserted+=("$res")
	if IODIG=$IODIG VM_KCONFIG=$VM_CACHE/root/$ver/boot/config-$ver \
	   bash $HERE/assert.sh "$res" "$boot_secs" | tee "$res/assert.log" &&
	   [ "${PIPESTATUS[0]}" -eq 0 ]; then
		summaries+=("$ver: PASS (${boot_secs}s in QEMU$first_boot)")
	else
		failed=$((failed + 1)); summaries+=("$ver: FAIL (${boot_secs}s in QEMU$first_boot)")
	fi
done

echo
echo "lab summary ($(($(date +%s) - lab_start))s in all; results in $VM_DIR/results-*):"
for s in "${summaries[@]}"; do echo "    $s"; done
for r in "${asserted[@]}"; do
	grep -h '^probes \|^summary \|^cases \|^nvme \|^timing \|^funcs \|^note: \|^skipped: ' "$r/assert.log" | sed 's/^/    /'
done
# The same libaio job on two kernels: iodig diff must name the user-page
# functions that differ (get_user_pages_fast on 6.1, pin_user_pages_fast
# on 6.12) as present on one side only.
traces=()
for r in "${asserted[@]}"; do
	case $r in *-rt-amd64) continue ;; esac
	[ -s "$r/gup.trace.json" ] && traces+=("$r/gup.trace.json")
done
if [ ${#traces[@]} -eq 2 ]; then
	diff_out=$VM_DIR/diff-gup.md
	# The rows that explain, in rank order: time per I/O of their own,
	# not context (inclusive sampled times, whole system calls); folded
	# rows too (few repeats: nothing may be significant).
	explaining='[.story.kernel[], .story.folded[]] | map(select(.unit == "ns/IO" and .context == null))'
	# The pin/unpin functions, as the funcs family groups them.
	pinning=$(jq -r '.iodig.kernel.funcs.functions // {} | to_entries[] |
		select(.value.group == "user-page pinning" or .value.group == "page release") | .key' \
		"${traces[@]}" | sort -u | tr '\n' ' ')
	if ! "$IODIG" diff --all --format=md "${traces[@]}" >"$diff_out" 2>"$VM_DIR/diff-gup.err" ||
	   ! "$IODIG" diff --all --format=json "${traces[@]}" >"$VM_DIR/diff-gup.json" 2>>"$VM_DIR/diff-gup.err"; then
		echo "FAIL: iodig diff of the gup runs failed: $(cat "$VM_DIR/diff-gup.err")"
		failed=$((failed + 1))
	elif ! grep -Eq '^\| exact get_user_pages_fast → pin_user_pages_fast time/IO' "$diff_out"; then
		echo "FAIL: iodig diff of the gup runs has no exact (fentry) row get_user_pages_fast → pin_user_pages_fast; see $diff_out"
		failed=$((failed + 1))
	else
		# A row is a pin/unpin row when its function (either side of a
		# same-role pair) is in those groups.
		ranks=$(jq -r --arg fns " $pinning" "$explaining"' | to_entries[] |
			(.value.key | split("|")[2]) as $a | ((.value.note // "") | split(" → ")[1] // "") as $b |
			select(($fns | contains(" " + $a + " ")) or ($b != "" and ($fns | contains(" " + $b + " ")))) |
			"\(.key + 1) \(.value.figure)"' "$VM_DIR/diff-gup.json")
		pin_rank=$(jq -r "$explaining"' | to_entries[] | select(.value.figure ==
			"exact get_user_pages_fast → pin_user_pages_fast time/IO") | .key + 1' "$VM_DIR/diff-gup.json")
		best=$(echo "$ranks" | head -n 1 | cut -d' ' -f1)
		echo "    diff 6.1 vs 6.12 (gup job): the exact pinning row ranks ${pin_rank:-?} among the rows that explain; the first three:"
		jq -r "$explaining"' | .[0:3][] | "\(.figure): \(.values[1].change | round) ns/IO"' "$VM_DIR/diff-gup.json" |
			sed 's/^/      /'
		# With one clocksource on both kernels (VM_CLOCK) the release
		# path's exact rows lead; on hpet against tsc a clock read did.
		if [ -n "$best" ] && [ "$best" -eq 1 ]; then
			echo "    ok: a pin/unpin row explains most: $(echo "$ranks" | head -n 1)"
		else
			echo "FAIL: the first row that explains the gup diff is no pin/unpin row ($pinning; the first of them ranks ${best:-none}); see $diff_out"
			failed=$((failed + 1))
		fi
	fi
fi
# The same bigalloc DAX job on 6.12 and on 6.12 with PREEMPT_RT, which
# has no CONFIG_FS_DAX_PMD: iodig diff must name the mapping size falling
# from 2 MiB to 4 KiB and the time per fault of each kind.
rt_a= rt_b=
for r in "${asserted[@]}"; do
	case $r in
	*-rt-amd64) rt_b=$r/dax_pmd.trace.json ;;
	*+deb12-amd64) rt_a=$r/dax_pmd.trace.json ;;
	esac
done
if [ -s "$rt_a" ] && [ -s "$rt_b" ]; then
	d=$VM_DIR/diff-dax-rt.json
	row() { jq -r --arg l "$1" --arg f "$2" \
		'[.rows[] | select(.figure == $l) | .values[] | select(.file == $f) | .mean][0] // "null"' "$d"; }
	if ! "$IODIG" diff --format=json "$rt_a" "$rt_b" >"$d" 2>"$VM_DIR/diff-dax-rt.err"; then
		echo "FAIL: iodig diff of the dax_pmd runs (6.12, 6.12-rt) failed: $(head -c 300 "$VM_DIR/diff-dax-rt.err")"
		failed=$((failed + 1))
	else
		"$IODIG" diff "$rt_a" "$rt_b" >"$VM_DIR/diff-dax-rt.txt" 2>&1
		a=$(row "DAX mapping size, KiB per mapped fault" A) b=$(row "DAX mapping size, KiB per mapped fault" B)
		pmd=$(row "DAX PMD fault time, ns per mapped fault" A) pte=$(row "DAX PTE fault time, ns per mapped fault" B)
		if awk -v a="$a" -v b="$b" -v m="$pmd" -v t="$pte" \
			'BEGIN { exit !(a > 64 && b == 4 && m > 0 && t > 0) }'; then
			echo "    diff 6.12 -> 6.12-rt (bigalloc DAX job): mapping size $a -> $b KiB per mapped fault; PMD fault ${pmd} ns (6.12), PTE fault ${pte} ns (rt)"
		else
			echo "FAIL: iodig diff 6.12 -> 6.12-rt of the bigalloc DAX job: mapping size $a -> $b KiB, PMD time $pmd ns, PTE time $pte ns (want > 64 -> 4, both timed); see $VM_DIR/diff-dax-rt.txt"
			failed=$((failed + 1))
		fi
	fi
fi
[ $failed -gt 0 ] && exit 1
[ $ran -eq 0 ] && skip "no kernel could be booted: ${summaries[*]}"
exit 0
