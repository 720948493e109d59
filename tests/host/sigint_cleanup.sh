# SIGINT and SIGTERM mid-run stop the workers, write a complete report marked interrupted, and leave no scratch loop device, temp file or BPF program behind.
source tests/host/lib.sh
source tests/host/fault.lib
need_root
for sig in INT TERM; do
	before_loops=$(scratch_loops | wc -l)
	"$IODIG" run --output-format=json --output="$TMP/out.json" --target=scratch --name=long --rw=randread \
		--bs=4k --ioengine=io_uring --iodepth=16 --runtime=60 --time_based >"$TMP/stdout" 2>"$TMP/err" &
	pid=$!
	# This run's own programs and links: other iodig runs on the machine
	# are not its leftovers.
	rm -f "$TMP/bpf-ids"
	bpf_track "$pid" "$TMP/bpf-ids" &
	# mid-run: a second after the workers start, however long the probes
	# took to load
	await_workers "$pid" >/dev/null && sleep 1
	kill -$sig $pid
	wait $pid
	rc=$?
	wait
	check "SIG$sig: exit status says signal (got $rc)" [ "$rc" -gt 128 ]
	check "SIG$sig: stderr says interrupted: $(cat "$TMP/err")" grep -qi interrupted "$TMP/err"
	check "SIG$sig: report is valid JSON" jq -e . "$TMP/out.json" >/dev/null
	check "SIG$sig: report marked interrupted" [ "$(jqr '.iodig.interrupted' "$TMP/out.json")" = true ]
	check "SIG$sig: report has I/O" [ "$(jqr '.jobs[0].read.total_ios' "$TMP/out.json")" -gt 0 ]
	check "SIG$sig: runtime well under 60s" [ "$(jqr '.jobs[0].job_runtime' "$TMP/out.json")" -lt 20000 ]
	check "SIG$sig: no scratch loop device left" [ "$(scratch_loops | wc -l)" -eq "$before_loops" ]
	check "SIG$sig: no scratch file left" [ -z "$(ls /dev/shm | grep "iodig-scratch-$pid-")" ]
	check "SIG$sig: no temp output left" [ -z "$(ls "$TMP" | grep iodig-tmp)" ]
	# bpf_leftovers gives the kernel's deferred frees a few seconds.
	check "SIG$sig: BPF ids tracked: $(sort -u "$TMP/bpf-ids" | wc -l)" [ -s "$TMP/bpf-ids" ]
	left=$(bpf_leftovers "$TMP/bpf-ids")
	check "SIG$sig: no program or link of the run left: $left" [ -z "$left" ]
	rm -f "$TMP/out.json"
done
done_testing
