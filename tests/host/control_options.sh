# fio's job-control options against fio 3.33: continue_on_error with ignore_error on a device that runs out of room (same write count, errors counted as fio's total_err, the job's error and first_error in JSON, text and terse, also when the errors were ignored, and of a group_reporting group of a failing and a clean member; verify errors gone on from counted as fio counts them), exitall stopping a time_based job when a short one ends, stats=0, numa_cpu_nodes on this machine's nodes, zonemode=zbd refused on a device that is not zoned.
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "needs fio"
cd "$TMP" || exit 1
fioj() { fio --output-format=json "$@" 2>/dev/null | sed -n '/^{/,$p'; }
iodigj() { "$IODIG" run --no-probes --no-save --output-format=json "$@" 2>"$TMP/err"; }

# A 4m loop device on a 1m tmpfs: writes past the first 1m fail with ENOSPC.
mkdir "$TMP/small" && mount -t tmpfs -o size=1m iodig-test "$TMP/small" || skip "cannot mount a tmpfs"
LOOPS+=("$TMP/small")
truncate -s 4m "$TMP/small/b" && LOOP=$(losetup -f --show "$TMP/small/b") || skip "no loop device"
LOOPS=("$LOOP" "${LOOPS[@]}")
JOB=(--name=c --filename="$LOOP" --rw=write --bs=64k --size=4m --direct=1 --continue_on_error=write)
for extra in --ignore_error=EIO --ignore_error=,ENOSPC; do
	fioj "${JOB[@]}" $extra >f.json
	iodigj "${JOB[@]}" $extra --allow-destructive >i.json
	check "continue_on_error=write $extra: writes as fio's ($(jqr .jobs[0].write.total_ios i.json) vs $(jqr .jobs[0].write.total_ios f.json))" \
		[ "$(jqr .jobs[0].write.total_ios i.json)" = "$(jqr .jobs[0].write.total_ios f.json)" ]
	check "continue_on_error=write $extra: errors as fio's total_err ($(jqr .jobs[0].iodig.io_errors i.json) vs $(jqr .jobs[0].total_err f.json))" \
		[ "$(jqr .jobs[0].iodig.io_errors i.json)" = "$(jqr .jobs[0].total_err f.json)" ]
	# fio's job error is the first error even when it was ignored
	# (__show_run_stats: ts->error = first_error under continue_on_error)
	errs='.jobs[0] | "\(.error) \(.total_err) \(.first_error)"'
	check "continue_on_error=write $extra: JSON error, total_err, first_error '$(jqr "$errs" i.json)', fio '$(jqr "$errs" f.json)'" \
		[ "$(jqr "$errs" i.json)" = "$(jqr "$errs" f.json)" ]
done
# the text report: the job line's error number and the errors line, with
# the ENOSPC errors ignored
text_errs() { grep -oE '\): err=[ 0-9]+|errors +: total=[0-9]+, first_error=[0-9]+' | tr -s ' '; }
fio "${JOB[@]}" --ignore_error=,ENOSPC 2>/dev/null | text_errs >f.txt
"$IODIG" run --no-probes --no-save "${JOB[@]}" --ignore_error=,ENOSPC --allow-destructive \
	2>/dev/null | text_errs >i.txt
check "ENOSPC ignored: text error and errors line as fio's ($(paste -sd' ' i.txt) vs $(paste -sd' ' f.txt))" \
	cmp -s i.txt f.txt
check "ENOSPC ignored: all 64 writes issued" [ "$(jqr .jobs[0].write.total_ios i.json)" = 64 ]
# an error that ends the job counts in total_err where fio's do_io gets it
# back from the queue call (psync, above), not when reaped from a queue
for e in libaio io_uring; do
	fioj "${JOB[@]}" --ignore_error=EIO --ioengine=$e --iodepth=4 >f.json
	iodigj "${JOB[@]}" --ignore_error=EIO --ioengine=$e --iodepth=4 --allow-destructive >i.json
	check "continue_on_error=write, ENOSPC ends a $e job: JSON error, total_err, first_error '$(jqr "$errs" i.json)', fio '$(jqr "$errs" f.json)'" \
		[ "$(jqr "$errs" i.json)" = "$(jqr "$errs" f.json)" ]
done
# ignore_error alone lets its classes go on (fio's ignore_error_type sets
# their continue_on_error bits); a continue_on_error after it replaces them
JOBN=(--name=c --filename="$LOOP" --rw=write --bs=64k --size=4m --direct=1)
w='.jobs[0] | "\(.write.total_ios) \(.error) \(.total_err) \(.first_error)"'
for extra in "--ignore_error=,ENOSPC" "--ignore_error=,ENOSPC --continue_on_error=none"; do
	fioj "${JOBN[@]}" $extra >f.json
	iodigj "${JOBN[@]}" $extra --allow-destructive >i.json
	check "$extra: writes, JSON error, total_err, first_error '$(jqr "$w" i.json)', fio '$(jqr "$w" f.json)'" \
		[ -s f.json -a "$(jqr "$w" i.json)" = "$(jqr "$w" f.json)" ]
done
# terse: continue_on_error adds the error count and first error after the
# disk's fields, as fio's line (the job stops at its first ENOSPC, or with
# ENOSPC ignored goes on); the job's error is the fifth field
terse_tail() { grep '^3;' | awk -F';' '{ print NF, $5, $(NF - 1), $NF }'; }
same_tail() { [ -s f.terse ] && diff f.terse i.terse; }
for extra in "" --ignore_error=,ENOSPC; do
	fio --minimal "${JOB[@]}" $extra 2>/dev/null | terse_tail >f.terse
	"$IODIG" run --no-probes --no-save --output-format=terse "${JOB[@]}" $extra \
		--allow-destructive 2>/dev/null | terse_tail >i.terse
	check "continue_on_error $extra: terse fields, error, errors, first error as fio's ($(cat i.terse) vs $(cat f.terse))" \
		same_tail
done

# group_reporting: fio's group takes the error of its first member that has
# one, but the first_error and continue_on_error of its last member
# (__show_run_stats), in either order of a failing and a clean member
truncate -s 1m "$TMP/clean"
BAD=(--name=bad --filename="$LOOP" --rw=write --bs=64k --size=4m --direct=1
     --continue_on_error=write --ignore_error=,ENOSPC)
CLEAN=(--name=clean --filename="$TMP/clean" --rw=write --bs=64k --size=1m)
for order in bad,clean clean,bad; do
	if [ $order = bad,clean ]; then JOB=("${BAD[@]}" "${CLEAN[@]}" --continue_on_error=write)
	else JOB=("${CLEAN[@]}" "${BAD[@]}"); fi
	JOB=(--group_reporting "${JOB[@]}")
	fioj "${JOB[@]}" >f.json
	iodigj "${JOB[@]}" --allow-destructive >i.json
	check "group_reporting $order: JSON error, total_err, first_error '$(jqr "$errs" i.json)', fio '$(jqr "$errs" f.json)'" \
		[ "$(jqr "$errs" i.json)" = "$(jqr "$errs" f.json)" ]
	fio "${JOB[@]}" 2>/dev/null | text_errs >f.txt
	"$IODIG" run --no-probes --no-save "${JOB[@]}" --allow-destructive 2>/dev/null | text_errs >i.txt
	check "group_reporting $order: text error and errors line ($(paste -sd' ' i.txt) vs $(paste -sd' ' f.txt))" \
		cmp -s i.txt f.txt
	fio --minimal "${JOB[@]}" 2>/dev/null | terse_tail >f.terse
	"$IODIG" run --no-probes --no-save --output-format=terse "${JOB[@]}" --allow-destructive \
		2>/dev/null | terse_tail >i.terse
	check "group_reporting $order: terse fields, error, errors, first error ($(cat i.terse) vs $(cat f.terse))" \
		same_tail
done
# fio prints the errors line whenever the job may go on, with no error too
fio "${CLEAN[@]}" --continue_on_error=write 2>/dev/null | text_errs >f.txt
"$IODIG" run --no-probes --no-save "${CLEAN[@]}" --continue_on_error=write 2>/dev/null | text_errs >i.txt
check "continue_on_error, no error: text errors line ($(paste -sd' ' i.txt) vs $(paste -sd' ' f.txt))" \
	cmp -s i.txt f.txt

# verify errors gone on from (EILSEQ, of the verify class) count in total_err
# and first_error as I/O errors do: a file of zeros read with verify has a
# bad header in each of its 16 blocks
truncate -s 64k "$TMP/zeros"
VJOB=(--name=v --filename="$TMP/zeros" --rw=read --bs=4k --size=64k --verify=crc32c)
for coe in verify all; do
	fioj "${VJOB[@]}" --continue_on_error=$coe >f.json
	iodigj "${VJOB[@]}" --continue_on_error=$coe >i.json
	check "continue_on_error=$coe, 16 bad blocks: JSON error, total_err, first_error '$(jqr "$errs" i.json)', fio '$(jqr "$errs" f.json)'" \
		[ "$(jqr "$errs" i.json)" = "$(jqr "$errs" f.json)" ]
done
fio "${VJOB[@]}" --continue_on_error=verify 2>/dev/null | text_errs >f.txt
"$IODIG" run --no-probes --no-save "${VJOB[@]}" --continue_on_error=verify 2>/dev/null | text_errs >i.txt
check "continue_on_error=verify, 16 bad blocks: text error and errors line ($(paste -sd' ' i.txt) vs $(paste -sd' ' f.txt))" \
	cmp -s i.txt f.txt

# exitall: the short job's end stops the 30 s one, in both.
JOB=(--name=short --filename="$TMP/a" --rw=read --size=64k --exitall=1
     --name=long --filename="$TMP/b" --rw=read --size=1m --time_based --runtime=30)
fioj "${JOB[@]}" >f.json
iodigj "${JOB[@]}" >i.json
check "exitall: fio stopped the long job ($(jqr .jobs[1].job_runtime f.json) ms)" \
	[ "$(jqr .jobs[1].job_runtime f.json)" -lt 20000 ]
check "exitall: iodig stopped it too ($(jqr .jobs[1].job_runtime i.json) ms)" \
	[ "$(jqr .jobs[1].job_runtime i.json)" -lt 20000 ]

# numa_cpu_nodes: a node this machine has runs, one it lacks is refused, as fio.
nodes=$(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l)
JOB=(--name=n --filename="$TMP/a" --rw=read --size=64k)
fioj "${JOB[@]}" --numa_cpu_nodes=0 >f.json
iodigj "${JOB[@]}" --numa_cpu_nodes=0 >i.json
check "numa_cpu_nodes=0: same reads ($(jqr .jobs[0].read.total_ios i.json))" \
	[ "$(jqr .jobs[0].read.total_ios i.json)" = "$(jqr .jobs[0].read.total_ios f.json)" ]
iodigj "${JOB[@]}" --numa_cpu_nodes="$nodes" >/dev/null
check "numa_cpu_nodes=$nodes (no such node): refused saying so" grep -q "has no NUMA node $nodes" "$TMP/err"

# zonemode=zbd on a loop device, which is not zoned: an error naming it.
iodigj --name=z --filename="$LOOP" --rw=read --size=1m --zonemode=zbd >/dev/null
check "zonemode=zbd on $LOOP: not a zoned block device" grep -q "zonemode=zbd: $LOOP is not a zoned block device (queue/zoned: none)" "$TMP/err"
fio --name=z --filename="$LOOP" --rw=read --size=1m --zonemode=zbd >/dev/null 2>&1
check "fio refuses it too" [ $? != 0 ]
done_testing
