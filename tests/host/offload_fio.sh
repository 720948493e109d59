# io_submit_mode=offload: a size-bounded job does fio 3.33's I/O count and bytes; its bios are issued by several threads (submit threads), not the job thread alone as inline; the syscalls family counts the submit threads' reads as the job's; a rate stays near fio's own count in the same test. timeout: 240
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
command -v bpftrace >/dev/null || skip "bpftrace not installed"
make_loop 64 || skip "cannot make a loop device"
JOB=(--name=o --filename="$LOOP" --size=8m --bs=4k --rw=randread --ioengine=libaio --direct=1
     --iodepth=4 --thread --output-format=json)

# fio 3.33's offload can hang here after its I/O (it did on this VM): its
# report is used when it comes, else fio's inline run of the same job,
# whose I/O count a size-bounded job shares.
fio_json() { # fio_json OUT ARGS...: fio's JSON report or nothing
	local out=$1; shift
	timeout -s KILL 20 fio "$@" >"$out.raw" 2>/dev/null
	sed -n '/^{/,$p' "$out.raw" >"$out"
	[ -s "$out" ] && jq -e '.jobs[0].read.total_ios > 0' "$out" >/dev/null
}
"$IODIG" run --no-probes --no-save "${JOB[@]}" --io_submit_mode=offload >"$TMP/i.json" 2>"$TMP/i.err"
rc=$?
check "iodig offload runs: $(head -c 300 "$TMP/i.err")" [ "$rc" -eq 0 ]
fio_json "$TMP/f.json" "${JOB[@]}" --io_submit_mode=offload || {
	echo "note: fio's offload gave no report; comparing with fio inline"
	fio_json "$TMP/f.json" "${JOB[@]}"
}
for k in total_ios io_bytes; do
	a=$(jqr ".jobs[0].read.$k" "$TMP/i.json") b=$(jqr ".jobs[0].read.$k" "$TMP/f.json")
	check "read.$k: iodig $a, fio $b" [ "$a" = "$b" -a "$a" != 0 ]
done

tids() { # tids MODE: iodig's threads that issued at least 256 of the job's 2048 bios
	# (iodig's own look at the device before the run is a few bios of
	# another thread)
	bpftrace_ns -q -e 'tracepoint:block:block_bio_queue /pid == cpid/ { @[tid] = count(); }' \
		-c "$IODIG run --no-probes --no-save ${JOB[*]} --io_submit_mode=$1" 2>/dev/null |
		awk -F': ' '/^@\[/ && $2 >= 256' | wc -l
}
inline=$(tids inline) offload=$(tids offload)
check "inline: one thread issues the bios (got $inline)" [ "$inline" -eq 1 ]
check "offload: several threads issue the bios (got $offload)" [ "$offload" -ge 2 ]

"$IODIG" run --no-save --no-progress --probes=+syscalls --name=s --filename="$LOOP" --size=4m \
	--bs=4k --rw=randread --ioengine=psync --iodepth=4 --io_submit_mode=offload \
	--output-format=json >"$TMP/s.json" 2>"$TMP/s.err"
ios=$(jqr '.jobs[0].read.total_ios' "$TMP/s.json")
calls=$(jqr '.iodig.kernel.syscalls.calls.pread64.calls // 0' "$TMP/s.json")
check "syscalls: the submit threads' pread64 calls are the job's ($calls for $ios I/Os)" \
	[ "$ios" -gt 0 -a "$calls" -ge "$ios" ]

rated() { # rated NAME ARGS...: iodig offload within 15% of fio's count of the same paced run
	local name=$1; shift
	local R=(--name=r --filename="$LOOP" --size=64m --bs=4k --rw=randread --ioengine=libaio
		 --direct=1 --iodepth=8 --runtime=3 --time_based --thread --output-format=json "$@")
	"$IODIG" run --no-probes --no-save "${R[@]}" --io_submit_mode=offload >"$TMP/ri.json" 2>/dev/null
	fio_json "$TMP/rf.json" "${R[@]}" --io_submit_mode=offload || fio_json "$TMP/rf.json" "${R[@]}"
	local a b
	a=$(jqr '.jobs[0].read.total_ios' "$TMP/ri.json") b=$(jqr '.jobs[0].read.total_ios' "$TMP/rf.json")
	check "$name: iodig $a I/Os, fio $b (within 15%)" \
		[ "$b" -gt 0 -a "$((a * 100))" -ge "$((b * 85))" -a "$((a * 100))" -le "$((b * 115))" ]
}
rated "rate_iops=300" --rate_iops=300
rated "rate_iops=300 poisson" --rate_iops=300 --rate_process=poisson
done_testing
