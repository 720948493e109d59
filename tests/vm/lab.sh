#!/bin/bash
# QEMU kernel lab: boots Debian 6.1 and 6.12 kernels under TCG with null_blk,
# an ext4 -o dax pmem disk and an emulated NVMe controller, runs iodig's
# scenarios there and asserts on the JSON.  Exit 0 pass, 1 fail, 77 skip ("skipped: why" first).
# Usage: tests/vm/lab.sh [6.1|6.12|6.12-rt ...]   (default: 6.1 6.12)
# Env: VM_CACHE (/var/cache/iodig-vm), OUT (build), VM_TIMEOUT (s per boot),
# IODIG_VM=0 skips the lab.
set -u
cd "$(dirname "$0")/../.."
HERE=tests/vm
OUT=${OUT:-build}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
VM_CACHE=${VM_CACHE:-/var/cache/iodig-vm}
VM_DIR=$OUT/vm
VM_TIMEOUT=${VM_TIMEOUT:-600}
IODIG=${IODIG:-$OUT/iodig}
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

mkdir -p "$VM_DIR" "$VM_CACHE" || skip "cannot create $VM_DIR or $VM_CACHE"
# Host tools: QEMU and busybox-static come from Debian when missing.
need_pkgs=()
command -v qemu-system-x86_64 >/dev/null || need_pkgs+=(qemu-system-x86)
[ -x /bin/busybox ] && /bin/busybox cpio --help 2>&1 | grep -q -- '-o' ||
	need_pkgs+=(busybox-static)
for t in depmod:kmod jq:jq mke2fs:e2fsprogs fio:fio xz:xz-utils; do
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
[ ${#want[@]} -eq 0 ] && want=(6.1 6.12)
initramfs_userland "$VM_DIR" "$IODIG" || skip "$VM_WHY"
# The emulated NVMe namespace's backing file: sparse, so it costs no disk
# and reads of it are zeroes, made once and shared by every boot.
NVME_IMG=$VM_DIR/nvme.img NVME_PARAMS="nvme.poll_queues=1"
[ -f "$NVME_IMG" ] || truncate -s 1G "$NVME_IMG" || skip "cannot create $NVME_IMG"

failed=0 ran=0 summaries=() asserted=()
# boot_kernel VER RES: one boot of the lab's guest; results unpacked into
# RES; sets boot_result (ok, timeout, crashed, none), boot_secs and qrc.
boot_kernel() {
	local ver=$1 res=$2 t0
	rm -rf "$res"; mkdir -p "$res"
	echo "lab: booting $ver (TCG, timeout ${VM_TIMEOUT}s)"
	t0=$(date +%s)
	# KVM is not used: nested guests here die in the kernel decompressor.
	# memmap=512M!2G reserves guest RAM 2G..2.5G as legacy pmem (nd_e820).
	# -device nvme: a PCI NVMe controller driven by the guest's nvme module,
	# with one polled queue for io_uring's IOPOLL (hipri).
	timeout -k 10 "$VM_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 3G -smp 2 \
		-nographic -no-reboot -nic none -monitor none \
		-device nvme,serial=iodig,drive=nvm0 \
		-drive file="$NVME_IMG",if=none,id=nvm0,format=raw \
		-kernel "$VM_CACHE/root/$ver/boot/vmlinuz-$ver" \
		-initrd "$VM_DIR/initrd-$ver.cpio" \
		-append "console=ttyS0 memmap=512M!2G panic=-1 mitigations=off loglevel=4 rdinit=/init $NVME_PARAMS" \
		-serial stdio -serial "file:$res/serial1.txt" \
		</dev/null >"$res/console.log" 2>&1 &
	QEMU_PID=$!
	wait "$QEMU_PID"
	qrc=$?
	QEMU_PID=
	boot_secs=$(($(date +%s) - t0))
	if { [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; } &&
	   grep -q 'soft lockup\|rcu_preempt detected stalls' "$res/console.log"; then
		boot_result=hung
	elif [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
		boot_result=timeout
	elif sed -n '/^IODIG-RESULTS-BEGIN/,/^IODIG-RESULTS-END/p' "$res/serial1.txt" |
	     sed '1d;$d' | base64 -d | tar -xzf - -C "$res" 2>/dev/null; then
		boot_result=ok
	elif grep -q 'Kernel panic\|Oops:' "$res/console.log"; then
		boot_result=crashed
	else
		boot_result=none
	fi
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
	# Under TCG a guest sometimes dies on an int3 left by live code
	# patching (seen in io_uring and __schedule, on 6.12 and 6.12-rt), or
	# both vCPUs lock up in the kernel (soft lockups, RCU stalls: seen once
	# on 6.1 in a NOWAIT run): emulator faults, not findings, so that boot
	# is made once more, saying so, and its console kept.  (One TCG thread
	# for both vCPUs avoids neither cheaply: the emulated NVMe then times
	# out its commands on 6.12.)
	for attempt in 1 2; do
		boot_kernel "$ver" "$res"
		case $boot_result in crashed | hung) ;; *) break ;; esac
		[ $attempt -eq 1 ] || break
		echo "lab: $ver: the guest kernel $boot_result under TCG (console kept in $res.$boot_result.log); booting it again"
		cp "$res/console.log" "$res.$boot_result.log"
	done
	ran=$((ran + 1))
	case $boot_result in
	timeout | hung)
		echo "FAIL: $ver: QEMU did not finish within ${VM_TIMEOUT}s; last console lines:"
		tail -n 15 "$res/console.log" | sed 's/^/    /'
		failed=$((failed + 1)); summaries+=("$ver: FAIL timeout"); continue ;;
	ok) ;;
	*)
		echo "FAIL: $ver: no results on the second serial port (qemu exit $qrc); console:"
		tail -n 20 "$res/console.log" | sed 's/^/    /'
		failed=$((failed + 1)); summaries+=("$ver: FAIL no results"); continue ;;
	esac
	asserted+=("$res")
	if IODIG=$IODIG VM_KCONFIG=$VM_CACHE/root/$ver/boot/config-$ver \
	   bash $HERE/assert.sh "$res" "$boot_secs" | tee "$res/assert.log" &&
	   [ "${PIPESTATUS[0]}" -eq 0 ]; then
		summaries+=("$ver: PASS (${boot_secs}s in QEMU)")
	else
		failed=$((failed + 1)); summaries+=("$ver: FAIL (${boot_secs}s in QEMU)")
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
	[ -s "$r/gup.trace.json" ] && traces+=("$r/gup.trace.json")
done
if [ ${#traces[@]} -eq 2 ]; then
	diff_out=$VM_DIR/diff-gup.md
	# One run per kernel: nothing can be called significant, so every
	# row is folded unless --all lists them.
	if ! "$IODIG" diff --all --format=md "${traces[@]}" >"$diff_out" 2>"$VM_DIR/diff-gup.err"; then
		echo "FAIL: iodig diff of the gup runs failed: $(cat "$VM_DIR/diff-gup.err")"
		failed=$((failed + 1))
	elif grep -Eq '(get|pin)_user_pages[a-z_]*.*(only in|→)|(only in|→).*(get|pin)_user_pages' "$diff_out"; then
		echo "    diff 6.1 vs 6.12 (gup job): user-page functions that differ:"
		grep -E '(get|pin|unpin)_user_pages|gup_|user_folio' "$diff_out" | grep -E 'only in|→' |
			head -n 8 | sed 's/^/      /'
	else
		echo "FAIL: iodig diff of the gup runs names no user-page function present on one side only; see $diff_out"
		failed=$((failed + 1))
	fi
fi
[ $failed -gt 0 ] && exit 1
[ $ran -eq 0 ] && skip "no kernel could be booted: ${summaries[*]}"
exit 0
