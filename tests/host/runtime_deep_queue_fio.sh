#!/bin/bash
# runtime= stops a deep libaio queue whose submissions do the I/O themselves (buffered AIO) after about as many I/Os as fio 3.33's, which checks the runtime before each I/O it issues (do_io), not once per queue's worth: at iodepth 32 with each io_submit held 100 ms, a 1 s runtime ends both well before the job's 32 writes.
# strace's delay injection makes each submission last 100 ms whatever the
# machine's speed; fio reads its clock every 8 checks, so the counts may
# differ by that much.  Seen with heartshare's numjobs=64 qd32 jobs on
# tmpfs, where iodig did every I/O of a 1 s run in 8 s.
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
command -v strace >/dev/null || skip "needs strace"
cd "$TMP" || exit 1

JOB=(--name=deep --filename="$TMP/deep.f" --rw=write --bs=1m --size=32m --ioengine=libaio
     --iodepth=32 --direct=0 --runtime=1)
# writes TOOL...: the job's writes under TOOL, each io_submit held 100 ms
writes() {
	strace -f -qq -o /dev/null -e trace=io_submit -e inject=io_submit:delay_enter=100000 \
		"$@" "${JOB[@]}" --output-format=json >out.json 2>err.txt \
		|| fail "$1 failed: $(head -c 200 err.txt)"
	jq '.jobs[0].write.total_ios' out.json
}
f=$(writes fio)
i=$(writes "$IODIG" run --no-probes --no-save --no-progress)
check "fio stops before the job's 32 writes ($f)" [ "$f" -lt 32 ]
check "iodig stops before the job's 32 writes ($i)" [ "$i" -lt 32 ]
check "iodig's writes are fio's, within fio's 8 clock checks (iodig $i, fio $f)" \
	[ "$i" -le $((f + 8)) -a "$f" -le $((i + 8)) ]
done_testing
