# Shared helpers for host tests (sourced, not run).  Every loop device and
# file made here is removed by the EXIT trap, whatever the test's outcome.
set -u
IODIG=${IODIG:-$PWD/build/iodig}
TMP=$(mktemp -d /dev/shm/iodig-test.XXXXXX)
LOOPS=()
FAILS=0

# A loop device's number detached during the test (fault_target does) can
# be another test's device by the end: only one still backed by a file of
# this test's is unmounted and detached.  Other entries are mount points.
cleanup() {
	for l in "${LOOPS[@]}"; do
		if [ -b "$l" ]; then
			case $(losetup -nO BACK-FILE "$l" 2>/dev/null) in
			"$TMP"/*) umount -q "$l" 2>/dev/null; losetup -d "$l" 2>/dev/null ;;
			esac
		else
			umount -q "$l" 2>/dev/null
		fi
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
check() { # check "description" test-expression...
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else fail "$what"; fi
}
done_testing() { [ "$FAILS" -eq 0 ] && exit 0; echo "$FAILS check(s) failed" >&2; exit 1; }

# between X LO HI: integer X within [LO, HI]
between() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }

# need_fio3: fio 3.x, the oracle, and jq for comparing its JSON with iodig's
need_fio3() {
	command -v fio >/dev/null || skip "needs fio"
	command -v jq >/dev/null || skip "needs jq"
	fio --version | grep -q '^fio-3\.' || skip "fio $(fio --version) is not fio 3.x"
}

# make_loop SIZE_MB: sets LOOP to a new /dev/loopN backed by a tmpfs file
# (not in a subshell, so the EXIT trap knows about it)
make_loop() {
	local f=$TMP/loop.$RANDOM.$RANDOM
	truncate -s "${1}M" "$f" || return 1
	LOOP=$(losetup -f --show "$f") || return 1
	LOOPS+=("$LOOP")
}

# settle DEV: waits until block device DEV (loop0) has no request in
# flight, at most 5 s: a readahead still completing after a run counts
# for that run, not the next
settle() {
	local i
	for i in $(seq 500); do
		[ "$(awk '{print $1 + $2}' "/sys/block/$1/inflight")" = 0 ] && return
		sleep 0.01
	done
}

# own_tracefs NAME: a tracefs mount and an instance in it of the test's
# own, INST (NAME.pid), so other tracers on the machine neither see nor
# disturb its events; both go at exit, before the rest of the cleanup
own_tracefs() {
	TRACE=$TMP/tracefs
	mkdir -p "$TRACE" && mount -t tracefs nodev "$TRACE" || skip "cannot mount tracefs"
	INST=$TRACE/instances/$1.$$
	trap 'rmdir "$INST" 2>/dev/null; umount -q "$TRACE"; cleanup' EXIT
	mkdir "$INST" || skip "cannot make a tracefs instance"
}

# bpftrace_ns ARGS...: bpftrace in a mount namespace of its own with
# tracefs at /sys/kernel/tracing, which bpftrace reads: a machine may boot
# without it, and mounting it on the host would leave it to whoever
# unmounts it first.  Where the host has it mounted the copy is there
# already (and a second mount would fail).  It execs: run it as
# "bpftrace_ns ... &" and $! is bpftrace's pid, for kill -INT.
bpftrace_ns() {
	exec unshare -m sh -c '{ mountpoint -q /sys/kernel/tracing ||
		mount -t tracefs none /sys/kernel/tracing; } && exec bpftrace "$@"' bpftrace "$@"
}

# dev_filter DEVICE: a tracepoint filter on the dev_t the kernel gives
# block device DEVICE (MAJOR << 20 | MINOR)
dev_filter() {
	local maj min
	read -r maj min < <(stat -Lc '%t %T' "$1")
	echo "dev == $(((16#$maj << 20) | 16#$min))"
}

# evictions_watch DEVICE TASK: from here on, the instance of own_tracefs
# records each folio that a task other than TASK (a comm) removes from the
# page cache of block device DEVICE or of a file system on it.  A reclaimer
# (kswapd, DAMON's kdamond) may evict what a test has just cached, however
# much memory is free; a job then reads it again from the device.
evictions_watch() {
	local ev=$INST/events/filemap/mm_filemap_delete_from_page_cache dev
	[ -d "$ev" ] || skip "no filemap tracepoints to see who evicts cached pages"
	dev=$(dev_filter "$1"); dev=${dev#dev == }
	# a block device's own cache is the inode numbered by its dev_t
	echo "(s_dev == $dev || i_ino == $dev) && comm != \"$2\"" >"$ev/filter" &&
		echo 1 >"$ev/enable" && echo >"$INST/trace"
}
# evictions: the tasks that removed watched folios since evictions_watch or
# the last call (their comms, space-separated; empty if none)
evictions() {
	sed -n 's/^ *\(.*\)-[0-9]* *\[[0-9]*\] .* mm_filemap_delete_from_page_cache: .*/\1/p' \
		"$INST/trace" | sort -u | paste -sd ' ' -
	echo >"$INST/trace"
}

# worker_pids PID: the worker processes of iodig PID, one a line: its
# children that lead a session of their own (each worker calls setsid; the
# child that reads kallsyms for the probes does not)
worker_pids() {
	ps -o pid=,sid= --ppid "$1" 2>/dev/null | awk '$1 == $2 { print $1 }'
	return 0
}
# await_workers PID: waits, while iodig PID runs, for its first worker
# process to be let go: iodig forks the workers before its probes load,
# and they wait at a start gate, in futex(2), until the probes are attached
# and 50 ms have passed, which can take seconds on a loaded machine.  Let
# go means seen twice in a row, 20 ms apart, in no futex call
# (/proc/W/syscall; at the gate a worker sits in one futex wait).  Prints the
# worker; fails if PID ended first.
await_workers() {
	local w= call out=0 futex=202 # x86_64's number; arm64's is 98
	[ "$(uname -m)" = aarch64 ] && futex=98
	while kill -0 "$1" 2>/dev/null; do
		[ -n "$w" ] && [ -e "/proc/$w" ] || w=$(worker_pids "$1" | head -n 1)
		call=$(cut -d' ' -f1 "/proc/$w/syscall" 2>/dev/null)
		if [ -n "$w" ] && [ -n "$call" ] && [ "$call" != "$futex" ]; then
			out=$((out + 1))
			[ "$out" -ge 2 ] && { echo "$w"; return 0; }
		else
			out=0
		fi
		sleep 0.02
	done
	return 1
}

# fio_loop_test SIZE_MB: a test of fio against iodig on one loop device:
# root, fio and jq, LOOP of SIZE_MB, and $TMP as the working directory
fio_loop_test() {
	need_root
	command -v fio >/dev/null || skip "needs fio"
	command -v jq >/dev/null || skip "needs jq"
	cd "$TMP" || exit 1
	make_loop "$1" || skip "cannot make a loop device"
}

# iolog_pair NAME JOB-ARGS...: iodig and fio each run the job with
# write_iolog=trace in an empty directory of their own, $TMP/NAME/i and
# $TMP/NAME/f (iodig's stderr in $TMP/NAME/i.err); both must run
iolog_pair() {
	local name=$1 rc=0; shift
	mkdir -p "$TMP/$name/i" "$TMP/$name/f"
	(cd "$TMP/$name/i" && "$IODIG" run --no-probes --no-save --output-format=json \
		--write_iolog=trace "$@" >/dev/null 2>../i.err) || rc=$?
	check "$name: iodig ran (exit $rc: $(head -c 300 "$TMP/$name/i.err"))" [ $rc = 0 ]
	rc=0
	(cd "$TMP/$name/f" && fio --output-format=json --write_iolog=trace "$@" >/dev/null 2>&1) || rc=$?
	check "$name: fio ran (exit $rc)" [ $rc = 0 ]
}

# iolog_ios LOG: the I/O lines of a write_iolog without their times, file
# names without a leading ./ (iodig names the files it creates
# ./jobname.N.M, fio jobname.N.M); the files' add/open/close lines left
# out, as when a file is opened is not what these compare
iolog_ios() { sed -E '2,$s/^[0-9]+ //; s#^\./##' "$1" | grep -Ev ' (add|open|close)$' | grep -E ' (read|write) '; }

# iolog_all LOG: every record of a write_iolog after its header without
# its time: I/O, syncs and the files' add, open and close
iolog_all() { sed -E '2,$s/^[0-9]+ //; s#^\./##' "$1" | sed 1d; }

# iolog_same CASE JOB-ARGS...: iolog_pair, then fio must have logged I/O
# and iodig the same I/O sequence (file, direction, offset, length)
iolog_same() {
	local name=$1 i=$TMP/$1/i/trace f=$TMP/$1/f/trace
	iolog_pair "$@"
	check "$name: fio logged I/O ($(iolog_ios "$f" 2>/dev/null | wc -l) lines)" \
		[ -n "$(iolog_ios "$f" 2>/dev/null | head -1)" ]
	check "$name: fio's offsets in fio's order: $(diff <(iolog_ios "$i" 2>&1) <(iolog_ios "$f" 2>&1) | head -4 | tr '\n' ' ')" \
		cmp -s <(iolog_ios "$i") <(iolog_ios "$f")
}

# strace_run DIR CALLS TOOL-AND-ARGS...: the tool runs in the empty
# directory DIR under strace -f -y, tracing CALLS (strace's trace=
# list) into DIR.trace, its stderr in DIR.err; a tool that fails fails
# the test
strace_run() {
	local dir=$1 calls=$2; shift 2
	rm -rf "$dir" && mkdir "$dir"
	(cd "$dir" && strace -f -qq -y -o ../"$dir.trace" -e trace="$calls" "$@" \
		>/dev/null 2>../"$dir.err") || fail "$dir: $* failed: $(head -c 200 "$dir.err")"
}

# file_calls DIR TOOL-AND-ARGS...: strace_run of the opens, closes and
# syncs; DIR.calls has those of the job's files (j.0.N, or a and b) in
# order ("open j.0.1", "fsync j.0.1" a line), leaving out the layout's
# write-only opens
file_calls() {
	local dir=$1; shift
	strace_run "$dir" openat,close,fsync,fdatasync,sync_file_range "$@"
	grep -E '(j\.0\.[0-9]|/[ab]>|"[ab]")' "$dir.trace" | grep -v O_WRONLY | sed -E \
		's/^[0-9]+ +//; s/^openat\([^"]*"(\.\/)?([^"]*)".*/open \2/;
		 s/^(close|fsync|fdatasync|sync_file_range)\([0-9]+<[^>]*\/([^>/]*)>.*/\1 \2/' \
		>"$dir.calls"
}

# calls_same RUN WHAT: RUN DIR TOOL... (file_calls, or another that
# writes DIR.calls) runs fio in fio/ and iodig in iodig/; fio must have
# synced, and iodig's calls must be fio's, in order
calls_same() {
	local run=$1 what=$2
	"$run" fio fio
	"$run" iodig "$IODIG" run --no-probes --no-save
	check "$what: fio synced ($(grep -c sync fio.calls) lines)" grep -q sync fio.calls
	check "$what: calls iodig [$(tr '\n' ' ' <iodig.calls)], fio [$(tr '\n' ' ' <fio.calls)]" \
		cmp -s iodig.calls fio.calls
}

# totals_same NAME FIO IODIG: each tool ran one job in directory FIO or
# IODIG, its JSON in FIO.json, its exit status in FIO.rc; iodig's reads,
# writes, bytes of each and error, and its exit status, must be fio's
totals_same() {
	local q='.jobs[0] | [.read.total_ios, .read.io_bytes, .write.total_ios, .write.io_bytes, .error] | @tsv'
	local f i
	f=$(jq -r "$q" "$2.json" 2>/dev/null)
	i=$(jq -r "$q" "$3.json" 2>/dev/null)
	check "$1: fio reported the job" [ -n "$f" ]
	check "$1: fio's I/Os, bytes and error ($(echo $f); iodig $(echo $i))" [ "$f" = "$i" ]
	check "$1: fio's exit status ($(cat "$2.rc"); iodig $(cat "$3.rc"))" \
		[ "$(cat "$2.rc")" = "$(cat "$3.rc")" ]
}

# jq wrapper that fails the test on a parse error
jqr() { jq -r "$@" || { fail "jq $*"; echo 0; }; }

# refused WHAT PATTERN ARGS...: a small iodig run job (--name=t --bs=4k
# --size=1m, then ARGS) fails and says PATTERN
refused() {
	local what=$1 pat=$2; shift 2
	if "$IODIG" run --no-probes --no-save --name=t --bs=4k --size=1m "$@" \
		>"$TMP/out" 2>"$TMP/err"; then
		fail "$what: accepted"
	else
		check "$what: $(head -c 200 "$TMP/err")" grep -q -- "$pat" "$TMP/err"
	fi
}

# split_report FILE: a --output-format=normal,json report into FILE.txt
# (the text) and FILE.json (from the line "{" on)
split_report() {
	sed -n '/^{$/,$p' "$1" >"$1.json"
	sed '/^{$/,$d' "$1" >"$1.txt"
}

matches() { [[ $1 =~ $2 ]]; }
# expect_probe REPORT FAMILY STATE MECHANISM REASON-REGEX: the family's
# entry in REPORT.json's .iodig.kernel.probes[] and its line in the text
# report's "Kernel:" section (REPORT from split_report; $CASE names the run)
expect_probe() {
	local out=$1 fam=$2 state=$3 mech=$4 why=$5 got
	got=$(jq -r --arg f "$fam" '.iodig.kernel.probes[] | select(.family == $f) |
		"\(.state);\(.mechanism);\(.reason)"' "$out.json" 2>/dev/null)
	check "$CASE: JSON $fam is $state/$mech/~$why (got '$got')" \
		matches "$got" "^$state;$mech;.*$why"
	check "$CASE: text says $fam: $state" grep -Eq "^  $fam +: $state.*$why" "$out.txt"
}

# Loop devices whose backing file is an iodig scratch file
scratch_loops() {
	for b in /sys/block/loop*/loop/backing_file; do
		[ -f "$b" ] && grep -q iodig-scratch "$b" && echo "$b"
	done
	return 0
}

# ext4_mount SIZE_MB: a new loop device (LOOP) holding ext4, mounted at
# $TMP/mnt, or the test is skipped saying which step failed
ext4_mount() {
	command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
	make_loop "$1" || skip "no loop device"
	mkfs.ext4 -q "$LOOP" || skip "mkfs.ext4 failed"
	mkdir "$TMP/mnt" && mount "$LOOP" "$TMP/mnt" || skip "cannot mount ext4"
}

# loaded_prog PROG OUT CMD...: runs CMD (an iodig run that loads BPF program
# PROG before its workload and keeps it until the end) with stdout into
# OUT.json and stderr into OUT.err, and meanwhile reads the loaded PROG
# from CMD's fdinfo: the instructions the verifier walked (verified_insns,
# 5.16), the translated ones, and the names of its functions (bpftool's
# dump of the program as loaded, after the verifier dropped dead code)
# into OUT.verified, OUT.xlated and OUT.funcs, each empty when PROG was
# not seen; returns CMD's status
loaded_prog() {
	local prog=$1 out=$2 pid fd id vi=""
	shift 2
	: >"$out.verified"; : >"$out.xlated"; : >"$out.funcs"
	"$@" >"$out.json" 2>"$out.err" &
	pid=$!
	while [ -z "$vi" ] && kill -0 "$pid" 2>/dev/null; do
		for fd in /proc/$pid/fdinfo/*; do
			id=$(awk '$1 == "prog_id:" {print $2}' "$fd" 2>/dev/null)
			[ -n "$id" ] || continue
			bpftool prog show id "$id" 2>/dev/null | grep -q "name $prog " || continue
			vi=$(awk '$1 == "verified_insns:" {print $2}' "$fd")
			echo "$vi" >"$out.verified"
			bpftool prog show id "$id" --json | jq -r '.bytes_xlated / 8' >"$out.xlated"
			bpftool prog dump xlated id "$id" | sed -nE 's/^[a-z_].* \**([a-z_0-9]+)\(.*\):$/\1/p' \
				>"$out.funcs"
			break
		done
		[ -n "$vi" ] || sleep 0.1
	done
	wait "$pid"
}

# libaio_calls TOOL ARGS...: a libaio job (ARGS after --name and
# --ioengine) under strace, by fio or by iodig without probes; prints the
# busiest process's io_submit calls as "S<nr>" and io_getevents calls as
# "G<min>.<max>", in order
libaio_calls() {
	local tool=$1 w; shift
	local cmd=(fio)
	[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
	strace -f -e trace=io_submit,io_getevents -o "$TMP/libaio_calls.st" \
		"${cmd[@]}" --name=t --ioengine=libaio "$@" >/dev/null 2>&1 ||
		fail "$tool under strace failed"
	w=$(awk '/io_submit/ { n[$1]++ }
		END { for (p in n) if (n[p] > best) { best = n[p]; w = p }; print w }' \
		"$TMP/libaio_calls.st")
	awk -v w="$w" '$1 != w { next }
		match($0, /io_submit\([^,]*, [0-9]+/) {
			s = substr($0, RSTART, RLENGTH); sub(/.*, /, "", s); printf "S%s ", s }
		match($0, /io_getevents\([^,]*, [0-9]+, [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), a, ", "); printf "G%s.%s ", a[2], a[3] }' \
		"$TMP/libaio_calls.st"
}
