#!/bin/sh
# Runs the lab's scenarios inside the guest (called by /init with the results
# directory): each iodig run writes NAME.json, its stderr NAME.err and its
# wall time NAME.secs.  Emulation gives ~20k IOPS, so 2 s of I/O per run.
out=${1:-/results}
RT=2
TB="--runtime=$RT --time_based"
# A hung run is cut off, so the other scenarios' results still reach the
# host (probe loading under TCG takes up to ~15 s of a run).
LIMIT=120
# The host gives the whole boot a deadline (iodig.budget= on the kernel
# command line, seconds since boot); scenarios that would start past it
# are skipped, saying so, so the results of the others still arrive.
BUDGET=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^iodig\.budget=//p')
# iodig.scenarios=a,b,...: this boot runs only those (lab.sh's kernel_profile).
SCENARIOS=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^iodig\.scenarios=//p')

# guarded NAME CMD...: CMD with stdout in NAME.json and stderr in NAME.err,
# its exit status in NAME.rc and wall time in NAME.secs.  Past LIMIT it is
# sent TERM, then KILL; a process that survives KILL is stuck in the
# kernel: its state and kernel stack go to NAME.hung and the scenarios go
# on without it (a plain `timeout` would wait for it forever).
guarded() {
	name=$1; shift
	t0=$(date +%s)
	case ,$SCENARIOS, in
	,, | *,$name,*) ;;
	*) echo "not in this boot's scenario set ($SCENARIOS)" >"$out/$name.notset"; return ;;
	esac
	if [ -n "$BUDGET" ] && [ "$(cut -d. -f1 /proc/uptime)" -ge "$BUDGET" ]; then
		echo "lab: scenario $name skipped: the boot's budget of ${BUDGET}s is spent"
		echo "not run: the boot's budget of ${BUDGET}s was spent before it" >"$out/$name.budget"
		return
	fi
	echo "lab: scenario $name"
	"$@" >"$out/$name.json" 2>"$out/$name.err" &
	pid=$! waited=0 sig=TERM
	while kill -0 $pid 2>/dev/null && [ $waited -lt $((LIMIT + 20)) ]; do
		if [ $waited -eq $LIMIT ] || [ $waited -eq $((LIMIT + 10)) ]; then
			kill -$sig $pid 2>/dev/null; sig=KILL
		fi
		sleep 1; waited=$((waited + 1))
	done
	if kill -0 $pid 2>/dev/null; then
		{
			echo "still running $waited s after it started, KILL sent"
			for t in /proc/$pid/task/*; do
				echo "task ${t##*/}: $(grep '^State' $t/status) wchan $(cat $t/wchan)"
				cat $t/stack 2>/dev/null
			done
		} >"$out/$name.hung" 2>&1
		echo "lab: scenario $name is stuck in the kernel: $(head -n 3 "$out/$name.hung" | tail -n 2 | tr '\n' ' ')"
		echo 125 >"$out/$name.rc"
	else
		wait $pid
		echo $? >"$out/$name.rc"
	fi
	echo $(($(date +%s) - t0)) >"$out/$name.secs"
}
iodig probe >"$out/probe.txt" 2>&1

# When a family is missing or degraded, libbpf's messages (the verifier
# log) go to the host.  The funcs family (fentry/kprobe function timing)
# joins the runs when the binary has it.
grep -qE ' (missing|degraded) ' "$out/probe.txt" &&
	IODIG_DEBUG=1 iodig probe >"$out/probe-debug.txt" 2>&1
FUNCS=
grep -q '^funcs ' "$out/probe.txt" && FUNCS=,funcs

run() { # run NAME PROBES IODIG-ARGS...
	name=$1 probes=$2; shift 2
	# The gup run keeps its trace file: the host diffs 6.1 against 6.12.
	save=--no-save
	case $name in gup | dax* | nowait_*1) save=--save="$out/$name.trace.json" ;; esac
	guarded "$name" iodig run --output-format=json --no-progress ${probes:+--probes="$probes"} \
		$save --name="$name" $TB "$@"
}

LIBAIO="--ioengine=libaio --direct=1 --rw=randread --bs=4k"
URING="--ioengine=io_uring --direct=1 --rw=randread --bs=4k --iodepth=32"

# 128 requests in flight against 4 tags: submitters sleep for a tag.
run tag sched,block$FUNCS $LIBAIO --filename=/dev/nullb0 --iodepth=64 --numjobs=2 \
	--group_reporting
# One user page per 4k O_DIRECT read: grabbed at submit, released at completion.
# Three repeats of 1 s: the host diffs 6.1 against 6.12, and one run a side
# gives no noise to rank the functions' changes against (two single runs
# disagreed on the sign of the pinning call's change).
run gup block,syscalls,sampling$FUNCS $LIBAIO --filename=/dev/nullb1 --iodepth=8 \
	--repeat=3 --runtime=1
[ -n "$FUNCS" ] &&
	run gup_kprobe funcs --mechanism=kprobe $LIBAIO --filename=/dev/nullb1 --iodepth=8
# DAX faults: a 64 MiB file (a multiple of 2 MiB, so PMD faults are possible).
# On plain ext4 the file's blocks are not 2 MiB aligned and every PMD fault
# falls back to PTEs; made again with 2 MiB clusters (bigalloc) they are,
# and the same job maps 2 MiB at a time.
DAXJOB="--ioengine=mmap --rw=randrw --rwmixread=50 --bs=4k --size=64m --filename=/mnt/pmem/dax.dat"
if grep -q ' /mnt/pmem ext4 .*dax' /proc/mounts; then
	run dax faults,counters$FUNCS $DAXJOB
	if umount /mnt/pmem &&
	   /bin/mke2fs -q -t ext4 -O bigalloc -C 2M -F /dev/pmem0 >"$out/mkfs-bigalloc.txt" 2>&1 &&
	   mount -t ext4 -o dax /dev/pmem0 /mnt/pmem 2>>"$out/mkfs-bigalloc.txt"; then
		run dax_pmd faults,counters$FUNCS $DAXJOB
	else
		echo "bigalloc ext4 -o dax on /dev/pmem0 failed: $(tail -n 2 "$out/mkfs-bigalloc.txt")" \
			>>"$out/setup-error"
	fi
fi
# NOWAIT before and after on one kernel: the same io_uring job on pmem,
# whose queue lacks QUEUE_FLAG_NOWAIT on these kernels (every read punted
# to io-wq), and on brd, whose queue has it (issued inline), alternately,
# three times each.
# --detail hooks io_uring_complete before the first I/O: by default the
# iouring family attaches it at the first punt, mid-run, and under TCG a
# vCPU completing io_uring requests while that tracepoint's static branch
# is patched sometimes runs a stale int3 of the patch and the guest dies
# ("Oops: int3" in __io_submit_flush_completions, 6.12).
EARLY=--detail
NOWAIT="--ioengine=io_uring --direct=1 --rw=randread --bs=4k --iodepth=16 --size=256m $EARLY"
if [ -b /dev/ram0 ] && [ -b /dev/pmem0 ]; then
	for i in 1 2 3; do
		run nowait_pmem$i iouring,sched,counters $NOWAIT --filename=/dev/pmem0
		run nowait_brd$i iouring,sched,counters $NOWAIT --filename=/dev/ram0
	done
fi
# NOWAIT: blk-mq null_blk issues inline; pmem is bio-based and punts.
run uring_null iouring,sched$FUNCS $URING --filename=/dev/nullb1
[ -b /dev/pmem0 ] && run uring_pmem iouring,sched$FUNCS $URING $EARLY --filename=/dev/pmem0

# Cross-checks with fio.  Rates: iodig without probes and fio, the same
# 2 s job (a figure only: TCG's timing makes rates jittery).  Counts: the
# same 8 MiB job (2048 reads) in iodig, with the block family, and in fio.
run plain "" --no-probes $LIBAIO --filename=/dev/nullb1 --iodepth=8
fio_run() { # fio_run NAME FIO-ARGS...
	name=$1; shift
	guarded "$name" fio --output-format=json --name="$name" "$@"
}
fio_run fio_gup $TB $LIBAIO --filename=/dev/nullb1 --iodepth=8
TB=
run count block $LIBAIO --filename=/dev/nullb1 --iodepth=8 --size=8m
fio_run fio_count $LIBAIO --filename=/dev/nullb1 --iodepth=8 --size=8m

# Zoned: null_blk with zoned=1 (16 zones of 4 MiB, the first one
# conventional).  Sequential writes at the write pointers (fio's after
# iodig's finds the zones full and resets them), random reads kept to the
# written zones, random writes within 2 open zones; fio runs the same jobs.
ZN=/sys/kernel/config/nullb/nullb2
if mkdir $ZN 2>/dev/null && echo 64 >$ZN/size && echo 1 >$ZN/zoned &&
   echo 4 >$ZN/zone_size && echo 1 >$ZN/zone_nr_conv && echo 1 >$ZN/power &&
   [ -b /dev/nullb2 ]; then
	cat /sys/block/nullb2/queue/zoned >"$out/zoned-model.txt"
	ZBD="--zonemode=zbd --direct=1 --bs=64k --ioengine=psync --filename=/dev/nullb2 --offset=1z"
	run zbd_write block --allow-destructive $ZBD --rw=write --size=4z
	fio_run fio_zbd_write $ZBD --rw=write --size=4z
	run zbd_read block $ZBD --rw=randread --size=8z
	fio_run fio_zbd_read $ZBD --rw=randread --size=8z
	run zbd_rand block --allow-destructive $ZBD --rw=randwrite --size=8z --max_open_zones=2 \
		--io_size=16m
else
	echo "zoned null_blk nullb2 (configfs zoned=1) could not be made" >>"$out/setup-error"
fi

# libzbc: scsi_debug's host-managed SCSI ZBC disk (guest-init.sh: 16 zones
# of 4 MiB, the first conventional), driven by SG_IO as libzbc's SCSI
# backend drives it.  fio's examples libzbc-seq-read.fio and
# libzbc-rand-write.fio shrunk to it (one job: iodig's clones keep their own
# write pointers): 4 zones written, then read through /dev/sgN, as psync
# and fio's psync read them; random writes in 4 open zones over the same
# 4 zones, now full, so each zone is reset before it is written; logged.
SDZ=
for d in /sys/block/sd*; do
	[ "$(tr -d ' ' <$d/device/model 2>/dev/null)" = scsi_debug ] && SDZ=${d##*/}
done
if [ -n "$SDZ" ]; then
	SGZ=$(ls /sys/block/$SDZ/device/scsi_generic 2>/dev/null | head -n 1)
	cat /sys/block/$SDZ/queue/zoned >"$out/libzbc-model.txt"
	ZBC="--zonemode=zbd --zonesize=4m --direct=1 --offset=1z --size=4z --bs=1M"
	ZREAD="$ZBC --rw=read --read_beyond_wp=0"
	run libzbc_seq_write block --allow-destructive --ioengine=libzbc --filename=/dev/$SDZ \
		$ZBC --rw=write
	run libzbc_seq_read block --ioengine=libzbc --filename=/dev/$SGZ $ZREAD
	run libzbc_psync_read block --ioengine=psync --filename=/dev/$SDZ $ZREAD
	fio_run fio_libzbc_psync_read --ioengine=psync --filename=/dev/$SDZ $ZREAD
	run libzbc_rand_write block --allow-destructive --ioengine=libzbc --filename=/dev/$SDZ \
		--zonemode=zbd --zonesize=4m --offset=1z --size=4z --max_open_zones=4 \
		--bs=512k --direct=1 \
		--rw=randwrite --runtime=2 --time_based --group_reporting \
		--write_iolog="$out/libzbc_rand_write.iolog"
else
	echo "no scsi_debug disk (zbc=host-managed) for ioengine=libzbc" >>"$out/setup-error"
fi

# Emulated NVMe (QEMU -device nvme, the real nvme driver: interrupts, one
# queue per vCPU and a polled one from nvme.poll_queues=1).
TB="--runtime=$RT --time_based"
NVME=/dev/nvme0n1
wait_nvme() { # wait_nvme: 0 once the namespace's block device is there
	i=0
	while [ ! -b $NVME ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b $NVME ]
}
# --- nvme_dsm: io_uring_cmd trims, NVMe Dataset Management (deallocate) ---
# dsm_job FILE TARGET ENGINE NUM_RANGE: fio's uring-cmd-trim-multi-range.fio
# with size=4M: a randtrim group (bs=4k) and a trim group (bssplit); then
# a trimwrite group (one range per trim, as fio requires) on 256 KiB at
# 8 MiB; each writes its write_iolog to FILE.<group>.iolog.
dsm_job() {
	printf '%s\n' "[global]" "filename=$2" "ioengine=$3" "size=4M" "iodepth=32" \
		"thread=1" "stonewall=1" "[write_bs]" "bs=4096" "rw=randtrim" "$4" \
		"write_iolog=$1.bs.iolog" "[write_bssplit]" "bssplit=4k/10:64k/50:32k/40" \
		"rw=trim" "$4" "write_iolog=$1.bssplit.iolog" "[trimwrite]" "offset=8M" \
		"size=256k" "bs=4096" "rw=trimwrite" "write_iolog=$1.trimwrite.iolog" >"$1"
}
# The namespace's first 4 MiB + 64 KiB get random data (O_DIRECT, past the
# page cache); iodig trims the first 4 MiB through /dev/ng0n1, 8 ranges per
# command; what the first 4 MiB and the 64 KiB after them read back is
# kept as md5 sums (QEMU deallocates into holes: discard=unmap, lab.sh).
# fio 3.33 (no num_range yet) runs the same two jobs through nvme0n1, one
# range per trim: the ranges iodig's commands must group.  The 64 KiB and
# trimwrite's 256 KiB are zeroed again after, as the other runs expect of
# the image.
nvme_dsm_scenarios() {
	local d=$out/nvme_dsm pat=/tmp/dsm.pattern
	case ,$SCENARIOS, in ,, | *,nvme_dsm,*) ;; *) echo "not in this boot's scenario set ($SCENARIOS)" >"$out/nvme_dsm.notset"; return ;; esac
	dd if=/dev/urandom of=$pat bs=64k count=65 2>/dev/null
	if ! dd if=$pat of=$NVME bs=64k oflag=direct 2>"$d.dd"; then
		echo "nvme_dsm: writing the pattern to $NVME failed: $(tail -n 1 "$d.dd")" >>"$out/setup-error"
		return
	fi
	dsm_job "$d.fio" /dev/ng0n1 io_uring_cmd num_range=8
	guarded nvme_dsm iodig run --output-format=json --no-progress --no-save \
		--probes=block,iouring $EARLY --allow-destructive "$d.fio"
	{
		dd if=$NVME bs=64k count=64 iflag=direct 2>/dev/null | md5sum
		dd if=/dev/zero bs=64k count=64 2>/dev/null | md5sum
		dd if=$NVME bs=64k skip=64 count=1 iflag=direct 2>/dev/null | md5sum
		dd if=$pat bs=64k skip=64 count=1 2>/dev/null | md5sum
	} | cut -d' ' -f1 | tr '\n' ' ' >"$d.md5"
	dsm_job "$out/fio_dsm.fio" $NVME libaio ""
	guarded fio_dsm fio --output-format=json "$out/fio_dsm.fio"
	dd if=/dev/zero of=$NVME bs=64k seek=64 count=1 oflag=direct 2>/dev/null
	dd if=/dev/zero of=$NVME bs=64k seek=128 count=4 oflag=direct 2>/dev/null
	rm -f $pat
}
if [ -b $NVME ]; then
	# The GUP job, one and eight submitters; then the block family alone
	# with its issue hook (--detail), for the stages on a driver that
	# completes by interrupt.
	run nvme_gup1 block$FUNCS $LIBAIO --filename=$NVME --iodepth=8
	run nvme_stages block --detail $LIBAIO --filename=$NVME --iodepth=8
	run nvme_gup8 block$FUNCS $LIBAIO --filename=$NVME --iodepth=8 --numjobs=8 \
		--group_reporting
	# Polled io_uring: IOPOLL requests go to the poll queue and the
	# submitter spins for their completions.
	run nvme_poll iouring,sched,sampling --ioengine=io_uring --hipri=1 --direct=1 \
		--rw=randread --bs=4k --iodepth=8 --filename=$NVME
	# io_uring passthrough: NVMe read commands on the namespace's char
	# device, once iodig has the io_uring_cmd engine (else a named skip).
	PT="--ioengine=io_uring_cmd --rw=randread --bs=4k --iodepth=8 --filename=/dev/ng0n1"
	if iodig run --parse-only --name=nvme_passthru $PT >"$out/nvme_passthru.parse" 2>&1; then
		run nvme_passthru iouring,sched $EARLY $PT
	else
		echo "iodig run --parse-only refuses ioengine=io_uring_cmd: $(head -n 1 "$out/nvme_passthru.parse")" \
			>"$out/nvme_passthru.skip"
	fi
	nvme_dsm_scenarios
	# Tags: nvme again with the smallest queues, io_queue_depth=2 (1 is
	# refused): one usable tag per queue, so 16 in flight sleep for one.
	p=$out/nvme-params.txt
	echo "scheduler: $(cat /sys/block/nvme0n1/queue/scheduler)" >"$p"
	rmmod nvme 2>>"$p"
	insmod /lib/modules/nvme.ko io_queue_depth=1 >>"$p" 2>&1
	echo "io_queue_depth=1: insmod exit $?" >>"$p"
	rmmod nvme 2>/dev/null
	if insmod /lib/modules/nvme.ko io_queue_depth=2 2>>"$p" && wait_nvme; then
		echo "io_queue_depth=$(cat /sys/module/nvme/parameters/io_queue_depth)" >>"$p"
		run nvme_tag sched,block $LIBAIO --filename=$NVME --iodepth=16
	else
		echo "nvme io_queue_depth=2 reload failed: $(tail -n 2 "$p" | tr '\n' ' ')" \
			>>"$out/setup-error"
	fi
elif grep -q 'iodig\.nvme=0' /proc/cmdline; then
	echo "no NVMe controller in this boot (iodig.nvme=0)" >"$out/nvme.notset"
fi

# --- dev-dax and mtd engines (fio's examples/dev-dax.fio and mtd.fio, shrunk)
# wanted NAME: NAME is in this boot's scenario set.
wanted() { case ,$SCENARIOS, in ,, | *,$1,*) return 0 ;; esac; return 1; }
# --- dm: a device with slaves.  dm-linear over two null_blk disks of 64 MiB
# (configfs nullb3, nullb4), made with dmsetup (no udev: libdevmapper makes
# the nodes); the same sized read job in iodig and fio 3.33, each printing
# text, terse and JSON, kept apart as NAME.disks (text's "Disk stats"
# lines), NAME.terse and NAME.json: dm-N with its slaves' aggregate, then
# the slaves (tests/vm/assert-dm.sh).
dm_scenarios() {
	local n c dm= f t
	if ! wanted dm && ! wanted fio_dm; then
		echo "not in this boot's scenario set ($SCENARIOS)" >"$out/dm.notset"
		cp "$out/dm.notset" "$out/fio_dm.notset"
		return
	fi
	[ -d /sys/module/dm_mod ] || { echo "dm: no dm_mod module loaded" >>"$out/setup-error"; return; }
	for n in 3 4; do
		c=/sys/kernel/config/nullb/nullb$n
		mkdir $c && echo 2 >$c/queue_mode && echo 1 >$c/irqmode && echo 64 >$c/size &&
			echo 1 >$c/power && [ -b /dev/nullb$n ] ||
			{ echo "dm: configfs nullb$n could not be made" >>"$out/setup-error"; return; }
	done
	printf '0 131072 linear /dev/nullb3 0\n131072 131072 linear /dev/nullb4 0\n' >/tmp/dm.table
	if ! DM_DISABLE_UDEV=1 dmsetup create iodig_lin --noudevsync /tmp/dm.table \
	     >"$out/dm-setup.txt" 2>&1; then
		echo "dm: dmsetup create failed: $(tail -n 2 "$out/dm-setup.txt" | tr '\n' ' ')" >>"$out/setup-error"
		return
	fi
	for f in /sys/block/dm-*/dm/name; do
		[ "$(cat "$f" 2>/dev/null)" = iodig_lin ] && { dm=${f#/sys/block/}; dm=${dm%%/*}; }
	done
	[ -b "/dev/$dm" ] || { echo "dm: no dm-N block device named iodig_lin" >>"$out/setup-error"; return; }
	ls /sys/block/$dm/slaves >"$out/dm-slaves.txt"
	DMJOB="--ioengine=libaio --direct=1 --rw=read --bs=64k --iodepth=8 --filename=/dev/$dm"
	guarded dm iodig run --output-format=normal,terse,json --no-progress --no-probes \
		--no-save --name=dm $DMJOB
	guarded fio_dm fio --output-format=normal,terse,json --name=fio_dm $DMJOB
	for t in dm fio_dm; do
		[ -f "$out/$t.json" ] || continue
		mv "$out/$t.json" "$out/$t.out"
		awk '/^Disk stats/ { on = 1; next } on && /^ / { print; next } { on = 0 }' \
			"$out/$t.out" >"$out/$t.disks"
		grep '^3;' "$out/$t.out" >"$out/$t.terse"
		sed -n '/^{/,/^}/p' "$out/$t.out" >"$out/$t.json"
	done
	DM_DISABLE_UDEV=1 dmsetup remove --noudevsync iodig_lin >>"$out/dm-setup.txt" 2>&1
}
dm_scenarios
DM_TB=$TB TB=
# MTD: mtdram's 8 MiB in 16 KiB erase blocks (guest-init); fio's three jobs
# on its first MiB: writes of 512 bytes, then trims (erases) and writes of
# trimwrite, four loops, with block_error_percentiles (which fio 3.33 aborts
# on in its report: fio runs the job without it).
MTD="--ioengine=mtd --filename=/dev/mtd0 --bs=512,512,16384 --skip_bad=1 --size=1m --ignore_error=,EIO --gtod_reduce=1"
if [ -c /dev/mtd0 ]; then
	cat /sys/class/mtd/mtd0/erasesize /sys/class/mtd/mtd0/size >"$out/mtd-geometry.txt"
	run mtd_write block --allow-destructive $MTD --rw=write
	fio_run fio_mtd_write $MTD --rw=write
	run mtd_read block $MTD --rw=read
	fio_run fio_mtd_read $MTD --rw=read
	run mtd_trimwrite block --allow-destructive $MTD --rw=trimwrite --loops=4 \
		--block_error_percentiles=1
	fio_run fio_mtd_trimwrite $MTD --rw=trimwrite --loops=4
elif wanted mtd_write; then
	echo "no /dev/mtd0 after loading mtdram: $(dmesg | grep -i -m3 mtd)" >>"$out/setup-error"
fi
# Device-DAX: the lab's legacy pmem region (memmap=512M!2G) made a devdax
# namespace through sysfs as ndctl create-namespace -m devdax does (the
# guest has no ndctl): ext4 off, namespace0.0 unbound from nd_pmem, the
# region's dax seed given a uuid, its memmap in the namespace ("pmem"),
# a 2 MiB align and the namespace, then bound to dax_pmem, which makes
# /dev/dax0.0 (device_dax).  Last, since it takes pmem0 from the others.
DAX="--ioengine=dev-dax --filename=/dev/dax0.0 --bs=2m --size=64m --numjobs=2 --thread --direct=0 --iodepth=1 --norandommap --group_reporting"
devdax_setup() {
	local seed=/sys/bus/nd/devices/dax0.0 i=0
	# the region's dax seed comes with its driver's probe, which under
	# emulation can still be under way when the scenarios start
	while [ ! -d $seed ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -d $seed ] || { echo "no $seed after 10 s (region0's dax_seed:" \
		"'$(cat /sys/bus/nd/devices/region0/dax_seed 2>&1)')"; return 1; }
	i=0
	umount /mnt/pmem 2>/dev/null
	echo namespace0.0 >/sys/bus/nd/drivers/nd_pmem/unbind &&
	cat /proc/sys/kernel/random/uuid >$seed/uuid && echo pmem >$seed/mode &&
	echo 2097152 >$seed/align && echo namespace0.0 >$seed/namespace &&
	echo dax0.0 >/sys/bus/nd/drivers/dax_pmem/bind || return 1
	while [ ! -c /dev/dax0.0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -c /dev/dax0.0 ]
}
if wanted devdax_write || wanted devdax_read; then
	if [ -d /sys/module/dax_pmem ] && devdax_setup 2>"$out/devdax-setup.txt"; then
		cat /sys/bus/dax/devices/dax0.0/size /sys/bus/dax/devices/dax0.0/align \
			>"$out/devdax-geometry.txt" 2>&1
		run devdax_write faults,block --allow-destructive $DAX --rw=randwrite
		fio_run fio_devdax_write $DAX --rw=randwrite
		run devdax_read faults,block $DAX --rw=randread
		fio_run fio_devdax_read $DAX --rw=randread
	elif [ -d /sys/module/dax_pmem ]; then
		echo "devdax namespace on region0 failed: $(cat "$out/devdax-setup.txt") $(dmesg | grep -i -m3 -E 'dax|pfn')" \
			>>"$out/setup-error"
	else
		echo "no dax_pmem module in this kernel" >"$out/devdax_write.notset"
		cp "$out/devdax_write.notset" "$out/devdax_read.notset"
	fi
else
	for dd in devdax_write devdax_read; do
		echo "not in this boot's scenario set ($SCENARIOS)" >"$out/$dd.notset"
	done
fi
TB=$DM_TB
