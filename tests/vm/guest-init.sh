#!/bin/sh
# /init of the lab guest: mounts the kernel filesystems, loads null_blk, nvme
# and the pmem stack, makes ext4 -o dax on /dev/pmem0, runs the scenarios and
# sends /results to the host over the second serial port, then powers off.
export PATH=/bin LD_LIBRARY_PATH=
say() { echo "lab: $*"; }
setup_fail() { echo "setup failed: $*" >/results/setup-error; say "SETUP FAILED: $*"; }

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/shm /sys/kernel/tracing /sys/kernel/debug /sys/fs/bpf
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /dev/shm
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
mount -t bpf bpf /sys/fs/bpf
ulimit -l unlimited
say "kernel $(uname -r), $(nproc) cpus"

# null_blk: nullb0 has 4 tags per hardware queue and completes each request
# 1 ms later from a timer, so 128 in flight must sleep in blk_mq_get_tag()
# (with the default softirq completion a request is done before the next is
# submitted and the tags never run out).  nullb1 (configfs, below) has 64
# tags and softirq completion.
for m in $(cat /lib/modules/load.list); do
	case $m in
	null_blk) args="queue_mode=2 hw_queue_depth=4 irqmode=2 completion_nsec=1000000 nr_devices=1 gb=4" ;;
	# brd: a blk-mq RAM disk with QUEUE_FLAG_NOWAIT, against bio-based pmem
	brd) args="rd_nr=1 rd_size=524288" ;;
	# scsi_debug: a host-managed SCSI ZBC disk for ioengine=libzbc, 16
	# zones of 4 MiB (the first conventional), answering in the
	# submitting thread (delay=0)
	scsi_debug) args="zbc=host-managed dev_size_mb=64 zone_size_mb=4 zone_nr_conv=1 delay=0" ;;
	# mtdram: 8 MiB of RAM flash in 16 KiB erase blocks, fio's mtd example's
	# trim size (tests/vm/scenarios.sh's mtd block)
	mtdram) args="total_size=8192 erase_size=16" ;;
	*) args= ;;
	esac
	# MODULE.PARAM=V on the kernel command line, as modprobe passes them
	# (busybox insmod does not): nvme.poll_queues=1 from lab.sh.
	args="$args $(tr ' ' '\n' </proc/cmdline | sed -n "s/^$m\.//p")"
	insmod /lib/modules/$m.ko $args 2>/tmp/insmod.err ||
		grep -q 'File exists' /tmp/insmod.err || setup_fail "insmod $m: $(cat /tmp/insmod.err)"
done
mkdir -p /sys/kernel/config
mount -t configfs configfs /sys/kernel/config 2>/dev/null
n=/sys/kernel/config/nullb/nullb1
if mkdir $n 2>/dev/null; then
	echo 2 >$n/queue_mode; echo 64 >$n/hw_queue_depth; echo 1 >$n/irqmode
	echo 4096 >$n/size
	echo 1 >$n/power || setup_fail "configfs nullb1 power on"
else
	setup_fail "configfs nullb1 (no /sys/kernel/config/nullb)"
fi

# The memmap=512M!2G region appears as /dev/pmem0 once nd_e820 and nd_pmem
# have probed, which happens asynchronously.
i=0
while [ ! -b /dev/pmem0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if [ -b /dev/pmem0 ]; then
	# busybox sh runs its own ext2-only mke2fs applet for the bare name.
	/bin/mke2fs -q -t ext4 -F /dev/pmem0 >/tmp/mkfs.log 2>&1 || setup_fail "mke2fs: $(cat /tmp/mkfs.log)"
	mount -t ext4 -o dax /dev/pmem0 /mnt/pmem 2>/tmp/mount.err ||
		setup_fail "mount -o dax /dev/pmem0: $(cat /tmp/mount.err) $(dmesg | tail -n 3)"
else
	setup_fail "no /dev/pmem0 after loading nd_e820/nd_pmem: $(dmesg | grep -i -m3 -E 'pmem|nd_|e820')"
fi
# The NVMe controller is probed asynchronously too (none with iodig.nvme=0).
if ! grep -q 'iodig\.nvme=0' /proc/cmdline; then
	i=0
	while [ ! -b /dev/nvme0n1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/nvme0n1 ] || setup_fail "no /dev/nvme0n1 after loading nvme: $(dmesg | grep -i -m3 nvme)"
fi
say "devices: $(ls /dev | grep -E 'nullb|pmem|ram0|nvme|ng[0-9]' | tr '\n' ' ') dax mount: $(grep -c dax /proc/mounts)"

uname -r >/results/kernel
# perf's software-event keys stay on for the whole boot, so that iodig's
# counters do not live-patch the kernel's text at each run's start and end
# (tests/vm/swkeys_hold.c: a stale int3 under TCG kills the guest).
hold_pid=
if ! grep -q 'iodig\.swkeys=0' /proc/cmdline; then
	swkeys_hold >/results/swkeys.txt 2>&1 &
	hold_pid=$!
fi
scenarios.sh /results
[ -n "$hold_pid" ] && kill "$hold_pid" 2>/dev/null
dmesg >/results/dmesg.txt

# Results as base64 between markers on ttyS1 (a file on the host); raw mode
# so the tty adds no carriage returns.
stty -F /dev/ttyS1 raw -echo 2>/dev/null
{
	echo "IODIG-RESULTS-BEGIN"
	tar -C /results -cf - . | gzip -c | base64
	echo "IODIG-RESULTS-END"
} >/dev/ttyS1
sync
say "done"
poweroff -f
