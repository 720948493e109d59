#!/bin/bash
# io_uring's nonvectored, force_async, sqthread_poll_cpu and uncached as
# fio 3.33's, seen where the kernel sees them: the opcode of each SQE
# (io_uring:io_uring_submit_req: READ/WRITE or READV/WRITEV; nonvectored's
# default -1 probes the kernel, which has READ/WRITE), the SQEs punted to
# io-wq (io_uring:io_uring_queue_async_work: IOSQE_ASYNC on every Nth
# SQE), and the ring's setup flags (io_uring:io_uring_create: SQPOLL 0x2,
# SQ_AFF 0x4).  uncached: fio 3.33's RWF_UNCACHED is 0x40, RWF_ATOMIC in
# this kernel, so fio's buffered job fails (err=95) and iodig refuses it;
# with direct=1 fio sends no flag and both run.
. "$(dirname "$0")/lib.sh"
fio_loop_test 16
own_tracefs uring_options
ev=$INST/events/io_uring
for e in io_uring_submit_req io_uring_queue_async_work io_uring_create; do
	[ -d "$ev/$e" ] || skip "no io_uring:$e tracepoint"
	echo 1 >"$ev/$e/enable" || skip "cannot enable io_uring:$e"
done

# run TOOL OPTIONS...: a 1 MiB 4k direct job on the loop device through
# io_uring at iodepth 4; its trace lines (only TOOL's tasks: other jobs
# on the machine may use io_uring too) in TOOL.trace, report in TOOL.json
run() {
	local tool=$1; shift
	local args=(--name=t --filename="$LOOP" --bs=4k --size=1m --direct=1
		    --ioengine=io_uring --iodepth=4 --output-format=json "$@")
	echo >"$INST/trace"
	if [ "$tool" = fio ]; then
		fio "${args[@]}" 2>fio.err | sed -n '/^{/,$p' >fio.json
	else
		"$IODIG" run --no-probes --no-save "${args[@]}" >iodig.json 2>iodig.err
	fi
	grep -E "^ *$tool-[0-9]+ " "$INST/trace" >"$tool.trace"
}
# ops TOOL EVENT: "OPCODE xN" of EVENT's lines, sorted
ops() { grep "$2:" "$1.trace" | grep -o 'opcode [A-Z_]*' | sort | uniq -c | awk '{printf "%s x%s ", $3, $1}'; }
setup_flags() { grep -o 'io_uring_create: .*flags 0x[0-9a-f]*' "$1.trace" | grep -o '0x[0-9a-f]*$' | head -1; }

# compare WHAT OPTIONS...: the same SQE opcodes and io-wq punts as fio
compare() {
	local what=$1 f i fa ia; shift
	run fio "$@"; f=$(ops fio io_uring_submit_req) fa=$(ops fio io_uring_queue_async_work)
	run iodig "$@"; i=$(ops iodig io_uring_submit_req) ia=$(ops iodig io_uring_queue_async_work)
	check "$what: iodig's SQEs '$i', fio's '$f'" [ -n "$f" -a "$i" = "$f" ]
	check "$what: iodig punts '$ia' to io-wq, fio '$fa'" [ "$ia" = "$fa" ]
}
compare "randread, nonvectored default" --rw=randread
check "nonvectored default is READ here (fio's probe)" [ "$(ops fio io_uring_submit_req)" = "READ x256 " ]
compare "randread nonvectored=0" --rw=randread --nonvectored=0
check "nonvectored=0 is READV" [ "$(ops fio io_uring_submit_req)" = "READV x256 " ]
compare "randwrite nonvectored=0" --rw=randwrite --nonvectored=0
compare "randwrite nonvectored=1" --rw=randwrite --nonvectored=1
compare "randread force_async=4" --rw=randread --force_async=4
check "force_async=4: a quarter of the SQEs go to io-wq" \
	[ "$(ops fio io_uring_queue_async_work)" = "READ x64 " ]
compare "randwrite force_async=3" --rw=randwrite --force_async=3

# sqthread_poll_cpu pins the submission thread: SQ_AFF at setup, as fio
for cpu in "" 1; do
	opts=(--rw=randread --sqthread_poll=1 ${cpu:+--sqthread_poll_cpu=$cpu})
	run fio "${opts[@]}"; f=$(setup_flags fio)
	run iodig "${opts[@]}"; i=$(setup_flags iodig)
	check "sqthread_poll_cpu=${cpu:-unset}: SQPOLL|SQ_AFF of iodig's ring $((i & 6)), fio's $((f & 6))" \
		[ -n "$f" -a -n "$i" -a "$((i & 6))/$((f & 2))" = "$((f & 6))/2" ]
	check "sqthread_poll_cpu=${cpu:-unset}: iodig read 256 (got $(jqr '.jobs[0].read.total_ios' iodig.json))" \
		[ "$(jqr '.jobs[0].read.total_ios' iodig.json)" = 256 ]
done

# uncached: nothing sent with direct=1; refused for buffered I/O
run fio --rw=randread --uncached=1
run iodig --rw=randread --uncached=1
check "uncached=1 direct=1: both read 256, err 0" \
	[ "$(jqr '.jobs[0].read.total_ios' iodig.json)/$(jqr '.jobs[0].error' iodig.json)/$(jqr '.jobs[0].read.total_ios' fio.json)/$(jqr '.jobs[0].error' fio.json)" = 256/0/256/0 ]
run fio --rw=randread --uncached=1 --direct=0
check "uncached=1 buffered: fio fails with err=95 (got $(jqr '.jobs[0].error' fio.json))" \
	[ "$(jqr '.jobs[0].error' fio.json)" = 95 ]
refused "uncached=1 buffered" "uncached=1: fio 3.33 asks for RWF_UNCACHED" \
	--filename="$LOOP" --ioengine=io_uring --rw=randread --uncached=1
done_testing
