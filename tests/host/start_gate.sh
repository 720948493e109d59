# The workers' start gate: a group's workers are created before its probes load (strace: the worker's fork comes before the first BPF program is loaded, its first system call on the job's file after the last probe is attached), wait at least 50 ms from their creation and until the probes are attached (IODIG_TIMING's marks, with and without probes, processes and thread=1, each stonewall group; a wait_for job's late starter, forked when its waitee ends, opens its file at least 50 ms after its fork, for processes and thread=1), and the probes follow them from their set-up on (every read counted by the block and sched families).
source tests/host/lib.sh
need_root
command -v strace >/dev/null || skip "needs strace"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1
F=$TMP/data
truncate -s 16m "$F" || exit 1
JOB=(--name=a --filename="$F" --rw=read --bs=4k --size=256k --ioengine=psync)

# ms of the Nth (default first) IODIG_TIMING mark named $2 in file $1
mark() { awk -v name="$2" -v n="${3:-1}" '
	index($0, name) && $0 ~ (name "$") && ++seen == n { print $2; exit }' "$1"; }
# whether $1 + $2 <= $3, in ms with decimals
at_least() { awk -v a="$1" -v d="$2" -v b="$3" 'BEGIN { exit !(a != "" && b != "" && a + d <= b) }'; }

# 1. The order of system calls: the worker process is forked before the
# first program load and touches the job's file only after the last attach.
strace -f -qq -e trace=clone,clone3,fork,vfork,bpf,perf_event_open,openat \
	-o "$TMP/st" "$IODIG" run --no-save --no-progress "${JOB[@]}" --output=/dev/null
rc=$?
check "strace'd run exits 0 (got $rc)" [ "$rc" = 0 ]
worker=$(grep -E ' (clone|fork)\(.*SIGCHLD' "$TMP/st" | grep -v CLONE_THREAD | head -1 | sed -E 's/.* = ([0-9]+)$/\1/')
line_of() { grep -nE "$1" "$TMP/st" | head -1 | cut -d: -f1; }
last_line_of() { grep -nE "$1" "$TMP/st" | tail -1 | cut -d: -f1; }
fork_at=$(line_of ' (clone|fork)\(.*SIGCHLD')
load_at=$(line_of 'bpf\(BPF_PROG_LOAD')
attach_at=$(last_line_of 'bpf\(BPF_(LINK_CREATE|RAW_TRACEPOINT_OPEN|PROG_ATTACH)|perf_event_open\(')
open_at=$(line_of "^$worker +openat\(.*\"$F\"")
check "a worker process was forked (pid ${worker:-none})" [ -n "$worker" ]
before() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -lt "$2" ]; }
check "its fork (line $fork_at) comes before the first program load (line $load_at)" \
	before "$fork_at" "$load_at"
check "it opens the job's file (line $open_at) after the last attach (line $attach_at)" \
	before "$attach_at" "$open_at"

# 2. The marks: let go at least 50 ms after the workers started, after the
# probes are parked, and before the first I/O.
gate_marks() { # tag, then iodig's run arguments
	local tag=$1; shift
	IODIG_TIMING=1 "$IODIG" run --no-save --no-progress "$@" --output-format=json \
		--output="$TMP/$tag.json" 2>"$TMP/$tag.t"
	local started let_go first parked
	started=$(mark "$TMP/$tag.t" "workers started")
	let_go=$(mark "$TMP/$tag.t" "workers let go")
	first=$(mark "$TMP/$tag.t" "workload first I/O")
	check "$tag: let go ($let_go ms) at least 50 ms after the workers started ($started ms)" \
		at_least "$started" 50 "$let_go"
	check "$tag: the first I/O ($first ms) after they were let go" at_least "$let_go" 0 "$first"
	if grep -q 'openers parked' "$TMP/$tag.t"; then
		parked=$(mark "$TMP/$tag.t" "openers parked")
		check "$tag: let go after the probes were attached ($parked ms)" \
			at_least "$parked" 0 "$let_go"
	fi
	check "$tag: all 64 reads done" [ "$(jqr '.jobs[0].read.total_ios' "$TMP/$tag.json")" = 64 ]
}
gate_marks noprobes "${JOB[@]}" --no-probes
gate_marks probes "${JOB[@]}"
gate_marks thread "${JOB[@]}" --thread
gate_marks numjobs3 "${JOB[@]}" --numjobs=3 --group_reporting=0

# 3. The probes follow the workers from their set-up on: each of the 64
# direct reads of a loop device is one block request and at least one
# voluntary switch of the job.
make_loop 16 || skip "no loop device"
"$IODIG" run --no-save --no-progress --name=a --filename="$LOOP" --rw=read --bs=4k \
	--size=256k --ioengine=psync --direct=1 --output-format=json --output="$TMP/d.json" 2>/dev/null
check "direct: 64 reads" [ "$(jqr '.jobs[0].read.total_ios' "$TMP/d.json")" = 64 ]
check "direct: the block family counted 64 read requests ($(jqr '.iodig.kernel.block.requests.read' "$TMP/d.json"))" \
	[ "$(jqr '.iodig.kernel.block.requests.read // 0' "$TMP/d.json")" = 64 ]
check "direct: the sched family saw the worker's switches ($(jqr '.iodig.kernel.sched.voluntary' "$TMP/d.json"))" \
	[ "$(jqr '.iodig.kernel.sched.voluntary // 0' "$TMP/d.json")" -ge 64 ]

# 4. Each stonewall group waits at its own gate.
printf '[g1]\nfilename=%s\nrw=read\nbs=4k\nsize=64k\nioengine=psync\n[g2]\nstonewall\nfilename=%s\nrw=read\nbs=4k\nsize=64k\nioengine=psync\n' \
	"$F" "$F" >groups.fio
IODIG_TIMING=1 "$IODIG" run --no-save --no-progress --no-probes groups.fio --output=/dev/null 2>groups.t
for n in 1 2; do
	s=$(mark groups.t "workers started" $n)
	l=$(mark groups.t "workers let go" $n)
	check "group $n: let go ($l ms) at least 50 ms after its workers started ($s ms)" at_least "$s" 50 "$l"
done

# 5. A wait_for job's late starter waits at a gate of its own, at least
# 50 ms from its start (fio's late starters wait for its next start poll,
# as its first jobs do), for processes and thread=1.
F2=$TMP/data2
truncate -s 16m "$F2" || exit 1
late_start() { # tag, a [global] line for the job file
	local tag=$1 forked opened
	printf '[global]\n%s\n[a]\nfilename=%s\nrw=read\nbs=4k\nsize=64k\nioengine=psync\n[b]\nwait_for=a\nfilename=%s\nrw=read\nbs=4k\nsize=64k\nioengine=psync\n' \
		"$2" "$F" "$F2" >late.fio
	strace -f -ttt -qq -e trace=clone,clone3,fork,vfork,openat -o "$TMP/$tag.st" \
		"$IODIG" run --no-save --no-progress --no-probes late.fio --output-format=json \
		--output="$TMP/$tag.json"
	check "$tag: both jobs read 64k ($(jqr '[.jobs[].read.io_kbytes] | join(" ")' "$TMP/$tag.json"))" \
		[ "$(jqr '[.jobs[].read.io_kbytes] | join(" ")' "$TMP/$tag.json")" = "64 64" ]
	# b's worker: the task other than the supervisor that opens b's file;
	# when it was made (its clone's end) and its first open
	local main pid
	main=$(awk 'NR == 1 { print $1 }' "$TMP/$tag.st")
	pid=$(grep -E "^[0-9]+ +[0-9.]+ openat\(.*\"$F2\"" "$TMP/$tag.st" | awk -v m="$main" '$1 != m { print $1; exit }')
	forked=$(grep -E " (clone3?|fork|vfork)\(.* = ${pid:-none}$" "$TMP/$tag.st" | awk '{ print $2; exit }')
	opened=$(grep -E "^${pid:-none} +[0-9.]+ openat\(.*\"$F2\"" "$TMP/$tag.st" | awk '{ print $2; exit }')
	check "$tag: b's worker (pid ${pid:-none}) opens its file ($opened s) at least 50 ms after it was made ($forked s)" \
		awk -v a="$forked" -v b="$opened" 'BEGIN { exit !(a != "" && b != "" && a + 0.050 <= b) }'
}
late_start late "thread=0"
late_start late-thread "thread=1"
done_testing
