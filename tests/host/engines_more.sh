# Each engine iodig takes from fio does what fio 3.33 does for the same short job: the same I/Os and bytes per direction, the same system calls on the target (strace -P), the same files made or removed, and null's JSON has every field fio's has.
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
command -v strace >/dev/null || skip "strace not installed"
make_loop 32 || skip "cannot create a loop device"

# run TOOL DIR JOB-ARGS...: TOOL (fio or iodig) runs the job in DIR under
# strace -f; leaves $TMP/TOOL.json (the report) and $TMP/TOOL.calls (one
# "name count" line per system call naming $TRACE, the target).
run() {
	local tool=$1 dir=$2; shift 2
	local cmd=(fio)
	[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
	(cd "$dir" && strace -f -c -P "$TRACE" -o "$TMP/$tool.strace" "${cmd[@]}" \
		--output-format=json "$@" >"$TMP/$tool.out" 2>"$TMP/$tool.err") ||
		fail "$tool $*: exit $? ($(tail -2 "$TMP/$tool.err"))"
	# fio prints notes before its JSON
	sed -n '/^{/,$p' "$TMP/$tool.out" >"$TMP/$tool.json"
	awk '$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" { print $NF, $4 }' \
		"$TMP/$tool.strace" | sort >"$TMP/$tool.calls"
}

same_positive() { [ "$1" = "$2" ] && [ "$1" -gt 0 ]; }
all_are() { local want=$1; shift; for v; do [ "$v" = "$want" ] || return 1; done; }
at_least() { local min=$1; shift; for v; do [ "$v" -ge "$min" ] || return 1; done; }

calls() { # calls TOOL SYSCALL: how often TOOL made it on the target
	awk -v c="$2" '$1 == c { n = $2 } END { print n + 0 }' "$TMP/$1.calls"
}

# agree WHAT SYSCALLS JOB-ARGS...: fio and iodig do the job on $TRACE:
# same I/Os and bytes per direction (with FIELDS=total_ios, the I/Os
# only), same count of each of SYSCALLS.
agree() {
	local what=$1 syscalls=$2 fields=${FIELDS:-total_ios io_bytes}; shift 2
	local q=".jobs[0].DIR | [$(printf '.%s,' $fields | sed 's/,$//')] | join(\" \")"
	run fio "$TMP" "$@"
	run iodig "$TMP" "$@"
	for d in read write; do
		local f i
		f=$(jqr "${q/DIR/$d}" "$TMP/fio.json")
		i=$(jqr "${q/DIR/$d}" "$TMP/iodig.json")
		check "$what: $d I/Os and bytes as fio ($f; iodig $i)" [ "$f" = "$i" ]
	done
	for c in $syscalls; do
		check "$what: $c on the target as fio ($(calls fio "$c"); iodig $(calls iodig "$c"))" \
			same_positive "$(calls fio "$c")" "$(calls iodig "$c")"
	done
}

F=$TMP/file
truncate -s 2m "$F"

# The sync family, posixaio, ftruncate and falloc on a tmpfs file; those
# that do block I/O also on the loop device, with O_DIRECT.
for target in "$F" "$LOOP"; do
	TRACE=$target
	d=0; [ "$target" = "$LOOP" ] && d=1
	base=(--name=e --filename="$target" --bs=4k --size=1m --direct=$d)
	agree "psync on $target" "pread64" "${base[@]}" --ioengine=psync --rw=randread
	agree "psync writes on $target" "pwrite64" "${base[@]}" --ioengine=psync --rw=write
	# sync seeks only where an I/O does not follow the last one (lseek
	# counts only on reads: before writes to a device the write guard
	# reads its signatures, lseeks included)
	agree "sync on $target" "read" "${base[@]}" --ioengine=sync --rw=read
	agree "sync random on $target" "read" "${base[@]}" --ioengine=sync --rw=randread
	# (fio's random offsets are not iodig's: check the rule, not the count)
	strace -f -P "$target" -e trace=lseek,read -o "$TMP/sync.trace" "$IODIG" run --no-probes \
		--no-save "${base[@]}" --ioengine=sync --rw=randread >/dev/null 2>&1
	check "sync random on $target: an lseek before each read not at the file position, no other" \
		awk '/ lseek\(/ { split($0, a, /[(,]/); off = a[3] + 0; if (off == pos) bad++; pos = off; n++ }
		     / read\(/ { split($0, a, /= /); pos += a[2] }
		     END { exit !(n > 128 && n <= 256 && !bad) }' "$TMP/sync.trace"
	agree "sync writes on $target" "write" "${base[@]}" --ioengine=sync --rw=randwrite
	agree "pvsync on $target" "preadv" "${base[@]}" --ioengine=pvsync --rw=randread
	agree "pvsync writes on $target" "pwritev" "${base[@]}" --ioengine=pvsync --rw=randwrite
	agree "pvsync2 on $target" "preadv2" "${base[@]}" --ioengine=pvsync2 --rw=read
	agree "pvsync2 writes on $target" "pwritev2" "${base[@]}" --ioengine=pvsync2 --rw=randwrite
	# vsync merges a batch's adjacent I/Os into one readv (32 of 8 here)
	agree "vsync batch 8 on $target" "readv lseek" "${base[@]}" --ioengine=vsync --rw=read \
		--iodepth=8 --iodepth_batch_submit=8
	check "vsync batch 8 on $target: 8 I/Os per readv" [ "$(calls iodig readv)" = 32 ]
	# one readv per I/O with the default batch of 1; fio 3.33's vsync
	# overwrites completions not yet reaped, so its first iodepth-1 I/Os
	# never count, and iodig's neither (tests/host/verify_loops_fio.sh)
	agree "vsync batch 1 on $target" "readv lseek" "${base[@]}" \
		--ioengine=vsync --rw=randread --iodepth=4
	check "vsync batch 1 on $target: 1 MiB less 3 blocks read" \
		[ "$(jqr .jobs[0].read.io_bytes "$TMP/iodig.json")" = $((1048576 - 3 * 4096)) ]
	agree "posixaio on $target" "pread64" "${base[@]}" --ioengine=posixaio --rw=randread --iodepth=8
done
TRACE=$F
agree "pvsync2 hipri_percentage=0 on $F" "preadv2" --name=e --filename="$F" --bs=4k --size=1m \
	--ioengine=pvsync2 --hipri_percentage=0
agree "ftruncate" "ftruncate" --name=e --filename="$F" --bs=4k --size=1m --ioengine=ftruncate --rw=write
check "ftruncate: the file ends at the last write's offset" [ "$(stat -c %s "$F")" = $((1024 * 1024 - 4096)) ]
truncate -s 2m "$F"
agree "falloc reads" "fallocate" --name=e --filename="$F" --bs=4k --size=1m --ioengine=falloc --rw=randread
agree "falloc writes" "fallocate" --name=e --filename="$F" --bs=4k --size=1m --ioengine=falloc --rw=write
"$IODIG" run --no-probes --no-save --name=e --filename="$LOOP" --size=1m --ioengine=falloc \
	>/dev/null 2>"$TMP/err"
check "falloc refuses a block device, saying why" grep -q "not a regular file" "$TMP/err"

# null: no file made, the I/Os of the size, and fio's JSON fields.
mkdir "$TMP/null"
TRACE=$TMP/null/n.0.0
for depth in 1 8; do
	run fio "$TMP/null" --name=n --ioengine=null --size=16m --rw=randrw --iodepth=$depth
	run iodig "$TMP/null" --name=n --ioengine=null --size=16m --rw=randrw --iodepth=$depth
	check "null iodepth=$depth: 4096 I/Os as fio" all_are 4096 \
		"$(jqr '.jobs[0] | .read.total_ios + .write.total_ios' "$TMP/iodig.json")" \
		"$(jqr '.jobs[0] | .read.total_ios + .write.total_ios' "$TMP/fio.json")"
	check "null iodepth=$depth: slat samples as fio" \
		[ "$(jqr '.jobs[0].read.slat_ns.N > 0' "$TMP/iodig.json")" = \
		  "$(jqr '.jobs[0].read.slat_ns.N > 0' "$TMP/fio.json")" ]
	check "null iodepth=$depth: no file made" [ -z "$(ls -A "$TMP/null")" ]
done
fields() { jq -r '[paths(scalars)] | map(map(tostring) | join(".")) | .[]' "$1" |
	sed -E 's/\.[0-9]+(\.|$)/.N\1/g' | grep -v '^iodig\.\|\.iodig\.' | sort -u; }
fields "$TMP/fio.json" >"$TMP/fio.fields"
fields "$TMP/iodig.json" >"$TMP/iodig.fields"
missing=$(comm -23 "$TMP/fio.fields" "$TMP/iodig.fields" | grep -v '^global options' | tr '\n' ' ')
check "null: the JSON has every field of fio's (missing: ${missing:-none})" [ -z "$missing" ]
run fio "$TMP/null" --name=n --ioengine=null --nrfiles=4 --filesize=1m
run iodig "$TMP/null" --name=n --ioengine=null --nrfiles=4 --filesize=1m
check "null nrfiles=4 filesize=1m: 1024 I/Os as fio" all_are 1024 \
	"$(jqr '.jobs[0].read.total_ios' "$TMP/iodig.json")" "$(jqr '.jobs[0].read.total_ios' "$TMP/fio.json")"
# null with verify: fio issues the verify reads (with verify_backlog too)
# and checks nothing (FIO_FAKEIO), so the read count matches the writes.
for backlog in 0 1m; do
	args=(--name=n --ioengine=null --size=16m --rw=randwrite --verify=crc32c --verify_backlog=$backlog)
	run fio "$TMP/null" "${args[@]}"
	run iodig "$TMP/null" "${args[@]}"
	check "null verify_backlog=$backlog: reads,writes as fio" [ "$(jqr '.jobs[0] | "\(.read.total_ios),\(.write.total_ios)"' "$TMP/iodig.json")" = \
		"$(jqr '.jobs[0] | "\(.read.total_ios),\(.write.total_ios)"' "$TMP/fio.json")" ]
done

# file operations: in an empty directory each time, the same I/Os, the
# same latency samples (one per file, as clat), the same files left.
# fops WHAT SYSCALL N PREPARE JOB-ARGS...: PREPARE runs in the directory
# first; each tool makes SYSCALL on the files at least N times (fio also
# stats and unlinks them while it lays them out).
fops() {
	local what=$1 syscall=$2 n=$3 prep=$4; shift 4
	for tool in fio iodig; do
		rm -rf "$TMP/fo" && mkdir "$TMP/fo"
		(cd "$TMP/fo" && eval "$prep")
		local cmd=(fio)
		[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
		(cd "$TMP/fo" && strace -f -o "$TMP/$tool.strace" "${cmd[@]}" --output-format=json \
			--name=t "$@" >"$TMP/$tool.out" 2>"$TMP/$tool.err") || fail "$tool $what: exit $?"
		sed -n '/^{/,$p' "$TMP/$tool.out" >"$TMP/$tool.json"
		jqr '.jobs[0] | [.read.total_ios, .read.io_bytes, .read.clat_ns.N, .read.lat_ns.N,
			.write.total_ios, .write.clat_ns.N, .error] | join(" ")' "$TMP/$tool.json" >"$TMP/$tool.res"
		(cd "$TMP/fo" && ls -lA | awk 'NR > 1 { print substr($1, 1, 1), $NF }') >"$TMP/$tool.files"
		grep -cE "^[0-9]+ +$syscall\(.*\"([^\"]*/)?t\.0\.[0-9]+\"" "$TMP/$tool.strace" >"$TMP/$tool.n"
	done
	check "$what: I/Os, bytes, clat and lat samples, error as fio ($(cat "$TMP/fio.res"); iodig $(cat "$TMP/iodig.res"))" \
		cmp -s "$TMP/fio.res" "$TMP/iodig.res"
	check "$what: the same files left ($(wc -l <"$TMP/fio.files") from fio, $(wc -l <"$TMP/iodig.files") from iodig)" \
		cmp -s "$TMP/fio.files" "$TMP/iodig.files"
	check "$what: $syscall of each file ($(cat "$TMP/fio.n") by fio; $(cat "$TMP/iodig.n") by iodig)" \
		at_least "$n" "$(cat "$TMP/fio.n")" "$(cat "$TMP/iodig.n")"
}
fops "filecreate" openat 10 : --ioengine=filecreate --nrfiles=10 --filesize=8k
fops "filecreate randwrite" openat 6 : --ioengine=filecreate --nrfiles=6 --size=24k --rw=randwrite
# examples/filecreate-ioengine.fio's options: one file open at a time, none preallocated
fops "filecreate openfiles=1" openat 8 : --ioengine=filecreate --nrfiles=8 --filesize=4k \
	--openfiles=1 --create_on_open=1 --fallocate=none
fops "filestat" newfstatat 12 : --ioengine=filestat --nrfiles=12 --filesize=4k
fops "filestat statx" statx 12 : --ioengine=filestat --nrfiles=12 --filesize=4k --stat_type=statx
fops "filedelete" unlink 12 : --ioengine=filedelete --nrfiles=12 --filesize=4k
fops "filedelete of files there" unlink 4 'for i in 0 1 2 3; do echo x >t.0.$i; done' \
	--ioengine=filedelete --nrfiles=4 --filesize=4k

# dircreate, dirstat, dirdelete: fio 3.33 has none; fio 3.34's semantics.
mkdir "$TMP/dirs"
for e in dircreate dirstat dirdelete; do
	(cd "$TMP/dirs" && "$IODIG" run --no-probes --no-save --output-format=json --name=t \
		--ioengine=$e --nrfiles=5 --filesize=8k >"$TMP/$e.json" 2>"$TMP/err") || fail "$e: exit $?"
	check "$e: 10 I/Os, 5 operations timed" \
		[ "$(jqr '.jobs[0].read | "\(.total_ios) \(.clat_ns.N)"' "$TMP/$e.json")" = "10 5" ]
	n=$(find "$TMP/dirs" -mindepth 1 -type d -name 't.0.*' | wc -l)
	want=5; [ $e = dirdelete ] && want=0
	check "$e: $want directories after it" [ "$n" = $want ]
done
(cd "$TMP/dirs" && mkdir t.0.2 && "$IODIG" run --no-probes --no-save --name=t --ioengine=dircreate \
	--nrfiles=5 --filesize=4k >/dev/null 2>"$TMP/err")
check "dircreate over an existing directory fails naming it" grep -q "mkdir of ./t.0.2 failed: File exists" "$TMP/err"
done_testing
