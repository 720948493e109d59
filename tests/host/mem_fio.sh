#!/bin/bash
# fio's buffer memory options against fio 3.33: mem= (iomem), its :FILE
# forms, hugepage-size, iomem_align and lockmem.  The same direct-I/O job
# runs under fio and iodig, and while it runs the worker's mapping of its
# buffers is read from /proc/PID/smaps: kind (anonymous, shm, file,
# huge), permissions, size (fio's sizing and rounding) and KernelPageSize,
# and lockmem's VmLck from /proc/PID/status.  strace shows where the
# buffers start (iomem_align) and how far apart they are (bs, not pages),
# and smaps the mmap engine's mapping with its thp option.
# What the kernel does with them: a 1 MiB direct read from huge pages is
# one request on a loop device (128 segments), as fio's.  Huge pages are
# reserved for the test (vm.nr_hugepages) and given back at the end.
# timeout: 300
. "$(dirname "$0")/lib.sh"
fio_loop_test 128
command -v strace >/dev/null || skip "needs strace"
DEV=$(basename "$LOOP")
HUGE_BEFORE=$(cat /proc/sys/vm/nr_hugepages)
HUGETLBFS=
trap '[ -n "$HUGETLBFS" ] && umount -q "$HUGETLBFS"
      echo "$HUGE_BEFORE" >/proc/sys/vm/nr_hugepages; cleanup' EXIT

# The job: 3 buffers of 1 MiB, direct, so fio's area is 3 MiB plus a
# page's slack (twice) and, for the huge kinds, 6 MiB.
JOB=(--name=m --filename="$LOOP" --rw=read --bs=1m --iodepth=3
     --ioengine=libaio --direct=1)

# traced TOOL SYSCALLS ARGS...: TOOL (fio, or iodig without probes) runs
# the job of ARGS under strace -f, tracing SYSCALLS into $TMP/strace.TOOL
traced() {
	local tool=$1 calls=$2 cmd=(fio)
	shift 2
	[ "$tool" = iodig ] && cmd=("$IODIG" run --no-save --no-probes)
	strace -f -qq -e trace="$calls" -o "$TMP/strace.$tool" "${cmd[@]}" "$@" \
		>/dev/null 2>&1
}

# snapshot TOOL PROBES MEM [ARGS...]: runs the job for 2 s under TOOL
# (PROBES: "probes", or "" for --no-probes; MEM "": no mem=) and copies
# its worker's smaps and status to $TMP/TOOL.smaps and .status once the
# worker has run a while; RC is the tool's exit status
snapshot() {
	local tool=$1 pid w opts=(--no-save --no-probes) mem=()
	[ -n "$2" ] && opts=(--no-save)
	[ -n "$3" ] && mem=(--mem="$3")
	shift 3
	rm -f "$TMP/$tool.smaps" "$TMP/$tool.status" "$TMP/$tool.parent"
	if [ "$tool" = fio ]; then
		fio "${JOB[@]}" --time_based --runtime=2 "${mem[@]}" "$@" \
			>"$TMP/$tool.out" 2>&1 &
	else
		"$IODIG" run "${opts[@]}" "${JOB[@]}" \
			--time_based --runtime=2 "${mem[@]}" "$@" >"$TMP/$tool.out" 2>&1 &
	fi
	pid=$!
	if w=$(await_workers "$pid"); then
		# the buffers are there before the I/O starts; a second in, so is
		# everything else the worker maps
		for _ in $(seq 10); do sleep 0.1; kill -0 "$w" 2>/dev/null || break; done
		cp "/proc/$w/smaps" "$TMP/$tool.smaps" 2>/dev/null
		cp "/proc/$w/status" "$TMP/$tool.status" 2>/dev/null
		cp "/proc/$pid/smaps" "$TMP/$tool.parent" 2>/dev/null
	fi
	wait "$pid"
	RC=$?
}

# mapping TOOL SIZE_KB: each mapping of SIZE_KB in TOOL's snapshot, one a
# line: "PERMS NAME KPS=N AnonHuge=N" (NAME "anon" for an anonymous one).
# A worker's new anonymous mapping placed right below one it inherited
# from its parent with the same flags is merged with it into one (iodig's
# heap arena ends there about every other run): the inherited part, the
# parent's mapping of the same end, is not counted.  A parent's mapping of
# that end that reaches below the worker's was made after the fork (the
# workers are forked before the probes load, and a probe loader's stack
# can end where a worker's buffers do): it is none of the worker's.
mapping() {
	awk -v kb="$2" '
		FNR == 1 { worker = FILENAME != parent }
		/^[0-9a-f]+-[0-9a-f]+ / { split($1, r, "-"); start = r[1]; end = r[2]
					  perms = $2; name = $6 ? $6 : "anon" }
		/^Size:/ { size = $2 }
		/^KernelPageSize:/ { kps = $2 }
		/^AnonHugePages:/ {
			if (!worker) {
				if (name == "anon") { pstart[end] = start; psize[end] = size }
				next
			}
			if (name == "anon" && (end in psize) && pstart[end] != start &&
			    psize[end] < size)
				size -= psize[end]
			if (size == kb) print perms, name, "KPS=" kps, "AnonHuge=" $2
		}
	' parent="$TMP/$1.parent" "$TMP/$1.parent" "$TMP/$1.smaps" 2>/dev/null
}

# expect CASE SIZE_KB PATTERN PROBES MEM [ARGS...]: under both tools the
# worker maps SIZE_KB matching PATTERN (a regex over mapping's line)
expect() {
	local what=$1 kb=$2 pat=$3 probes=$4 tool got
	shift 4
	for tool in fio iodig; do
		snapshot "$tool" "$probes" "$@"
		got=$(mapping "$tool" "$kb" | grep -E -- "$pat" | head -n 1)
		check "$what, $tool: the buffers are $kb KiB '$pat' (got '${got:-$(mapping "$tool" "$kb" | head -n 1)}'; exit $RC)" \
			test -n "$got" -a "$RC" -eq 0
	done
}

# The buffers' area is 3 MiB + 2 * 4095 bytes: 3080 KiB mapped by shm and
# mmap, 3084 KiB by malloc (glibc's chunk header and its rounding), in 4
# KiB pages that are not huge ones (iodig's own heap has huge pages, run
# with probes for malloc).
ANON4K='^rw-p anon KPS=4 AnonHuge=0$'
expect "mem=malloc (the default)" 3084 "$ANON4K" probes ""
expect "mem=malloc" 3084 "$ANON4K" "" malloc
expect "mem=shm" 3080 '^rw-s /SYSV[0-9a-f]+ KPS=4 ' "" shm
expect "mem=mmap" 3080 "$ANON4K" "" mmap
expect "mem=mmapshared without a file" 3080 "$ANON4K" "" mmapshared
expect "mem=mmap:FILE" 3080 "^rw-p $TMP/buf.map KPS=4 " "" "mmap:$TMP/buf.map"
for tool in fio iodig; do
	snapshot "$tool" "" "mmap:$TMP/buf.$tool"
	check "mem=mmap:FILE, $tool: the file it made is gone after the run" [ ! -e "$TMP/buf.$tool" ]
done
truncate -s 4m "$TMP/buf.shared"
expect "mem=mmapshared:FILE" 3080 "^rw-s $TMP/buf.shared KPS=4 " "" "mmapshared:$TMP/buf.shared"
check "mem=mmapshared:FILE: a file that was there stays" [ -f "$TMP/buf.shared" ]

# lockmem: 64 MiB locked by the worker while it runs
for tool in fio iodig; do
	snapshot "$tool" "" "" --lockmem=64m
	lck=$(awk '/^VmLck:/ {print $2}' "$TMP/$tool.status" 2>/dev/null)
	check "lockmem=64m, $tool: VmLck=${lck:-none} kB (65536)" [ "${lck:-0}" -eq 65536 ]
done

# ... and unlocked again when the job ends, as fio's: one mlock and one
# munlock of it, by the worker
for tool in fio iodig; do
	traced $tool mlock,munlock --name=l --filename="$LOOP" --rw=read --bs=4k \
		--size=1m --lockmem=64m
	calls=$(grep -Eo '(mlock|munlock)\(0x[0-9a-f]+, 67108864\) += 0' "$TMP/strace.$tool" |
		cut -d'(' -f1 | paste -sd ' ')
	check "lockmem=64m, $tool: '$calls' (mlock munlock)" test "$calls" = "mlock munlock"
done

# Where the buffers start and how far apart they are: fio's iomem_align
# puts the first one that far past a page boundary, the others follow at
# bs (1536 here, not a page), as the iocbs libaio is given show.
for tool in fio iodig; do
	traced $tool io_submit --name=a --filename="$LOOP" --rw=read --bs=1536 \
		--iodepth=4 --ioengine=libaio --direct=1 --size=96k --iomem_align=512
	bufs=$(grep -o 'aio_buf=0x[0-9a-f]*' "$TMP/strace.$tool" | cut -d= -f2 | sort -u |
		while read -r a; do echo $((a)); done | sort -n)
	first=$(echo "$bufs" | head -n 1)
	gaps=$(echo "$bufs" | while read -r a; do echo $((a - first)); done | paste -sd ' ')
	check "iomem_align=512, $tool: the first buffer $((${first:-0} % 4096)) bytes past a page (512)" \
		test -n "$first" -a $((${first:-1} % 4096)) -eq 512
	check "bs=1536, $tool: buffers at $gaps from the first (0 1536 3072 4608)" \
		[ "$gaps" = "0 1536 3072 4608" ]
done

# The mmap engine's thp (fio's engines/mmap.c): the file mapped private
# and advised MADV_HUGEPAGE (VmFlags "hg"); without it, shared and not.
# file_map TOOL PATH: "PERMS hg" or "PERMS -" for TOOL's mapping of PATH
file_map() {
	awk -v path="$2" '
		/^[0-9a-f]+-[0-9a-f]+ / { perms = $2; name = $6 }
		/^VmFlags:/ && name == path { print perms, (/ hg/ ? "hg" : "-"); exit }
	' "$TMP/$1.smaps" 2>/dev/null
}
dd if=/dev/urandom of="$TMP/data" bs=1M count=16 status=none
SAVED_JOB=("${JOB[@]}")
JOB=(--name=t --filename="$TMP/data" --rw=read --bs=4k --ioengine=mmap)
for thp in 1 0; do
	want="r--p hg"
	[ $thp = 0 ] && want="r--s -"
	for tool in fio iodig; do
		snapshot "$tool" "" "" --thp=$thp
		got=$(file_map "$tool" "$TMP/data")
		check "ioengine=mmap thp=$thp, $tool: the file mapped '$got' ($want; exit $RC)" \
			test "$got" = "$want" -a "$RC" -eq 0
	done
done
JOB=("${SAVED_JOB[@]}")

# fio's sizing, to the byte, in the length mem=mmap maps (4 buffers of
# 1536 bytes): 6144 for buffered I/O; with direct or iomem_align a page
# less a byte and the offset, then that page again and what the offset
# is past a page
for args in "--direct=0" "--direct=1 --iomem_align=8192" "--direct=0 --iomem_align=100"; do
	align=0
	[[ $args == *iomem_align=* ]] && align=${args##*=}
	want=6144
	if [[ $args == *direct=1* ]] || [ "$align" -gt 0 ]; then
		want=$((want + 4095 + align + 4095))
		[ "$align" -gt 4096 ] && want=$((want + align - 4096))
	fi
	for tool in fio iodig; do
		# shellcheck disable=SC2086
		traced $tool mmap,io_submit --name=s --filename="$LOOP" --rw=read \
			--bs=1536 --iodepth=4 --ioengine=libaio --size=96k --mem=mmap $args
		n=$(grep -c "mmap(NULL, $want, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)" \
			"$TMP/strace.$tool")
		first=$(grep -o 'aio_buf=0x[0-9a-f]*' "$TMP/strace.$tool" | cut -d= -f2 | sort -u |
			while read -r a; do echo $((a)); done | sort -n | head -n 1)
		check "mem=mmap $args, $tool: $n mapping(s) of $want bytes (1), the first buffer $((${first:-1} % 4096)) past a page ($((align % 4096)))" \
			test "$n" -eq 1 -a $((${first:-1} % 4096)) -eq $((align % 4096))
	done
done

# Refused, saying why
refused "mem=cudamalloc" "no GPU path" --mem=cudamalloc
refused "mem=shm:FILE" "only mmap, mmapshared and mmaphuge take a file" --mem=shm:/x
"$IODIG" run --no-save --no-probes "${JOB[@]}" --size=8m --mem="mmapshared:$TMP/empty" \
	>/dev/null 2>"$TMP/err"
check "mem=mmapshared:FILE, a new (empty) file: the job fails saying why ($(head -c 200 "$TMP/err"))" \
	grep -q "only mem=mmap sizes its file" "$TMP/err"
refused "hugepage-size=3m with mmaphuge" "not a power of two" --mem=mmaphuge --hugepage-size=3m

# No huge pages: fio's hint.  Only when none are free, or it would pass.
if [ "$(awk '/^HugePages_Free:/ {print $2}' /proc/meminfo)" -eq 0 ]; then
	"$IODIG" run --no-save --no-probes "${JOB[@]}" --size=8m --mem=mmaphuge \
		>/dev/null 2>"$TMP/err"
	check "mem=mmaphuge without huge pages: the job fails saying so ($(head -c 200 "$TMP/err"))" \
		grep -q "no huge pages available" "$TMP/err"
fi

# The huge kinds: 6 MiB in 2 MiB pages, fio's rounding to hugepage-size
# twice (4 KiB pages and their 3 MiB + 2 pages of slack in fio's sizing).
[ "$(awk '/^Hugepagesize:/ {print $2}' /proc/meminfo)" = 2048 ] || {
	done_testing; }
echo $((HUGE_BEFORE + 8)) >/proc/sys/vm/nr_hugepages
if [ "$(awk '/^HugePages_Free:/ {print $2}' /proc/meminfo)" -lt 8 ]; then
	echo "note: cannot reserve 8 huge pages; the huge kinds are not tested"
	done_testing
fi
HUGE2M='KPS=2048 AnonHuge=0$'
expect "mem=shmhuge" 6144 "^rw-s /SYSV[0-9a-f]+ $HUGE2M" "" shmhuge
expect "mem=mmaphuge" 6144 "^rw-p /anon_hugepage $HUGE2M" "" mmaphuge
mkdir "$TMP/huge"
if mount -t hugetlbfs none "$TMP/huge" 2>/dev/null; then
	HUGETLBFS=$TMP/huge
	expect "mem=mmaphuge:FILE on hugetlbfs" 6144 "^rw-s $TMP/huge/buf $HUGE2M" "" \
		"mmaphuge:$TMP/huge/buf"
fi

# The kernel's view: each 1 MiB direct read from a huge page is
# physically one piece, one request; from 4 KiB pages it takes 256
# segments, two requests on a loop device (128 at most) unless the pages
# happen to be contiguous.
reads() { awk '{print $1}' "/sys/block/$DEV/stat"; }
for mem in mmaphuge malloc; do
	for tool in fio iodig; do
		settle "$DEV"
		before=$(reads)
		if [ $tool = fio ]; then
			fio "${JOB[@]}" --size=64m --mem=$mem >/dev/null 2>&1
		else
			"$IODIG" run --no-save --output-format=json "${JOB[@]}" --size=64m \
				--mem=$mem >"$TMP/kernel.json" 2>"$TMP/err"
		fi
		n=$(($(reads) - before))
		if [ $mem = mmaphuge ]; then
			check "mem=mmaphuge, $tool: 64 reads of 1 MiB are $n requests (64)" [ "$n" -eq 64 ]
		else
			echo "note: mem=malloc, $tool: 64 reads of 1 MiB are $n requests"
		fi
		[ $tool = iodig ] && echo "note: mem=$mem: iodig's requests per I/O:" \
			"$(jqr '.iodig.kernel.block.requests_per_io' "$TMP/kernel.json")"
	done
done
done_testing
