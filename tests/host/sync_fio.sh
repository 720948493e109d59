#!/bin/bash
# sync= as fio 3.33: the job's file is opened with O_SYNC for sync/1,
# O_DSYNC for dsync, neither for none/0, by iodig as by fio (the flags of
# the open, seen by strace); the writes are the same.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip "no strace"
command -v fio >/dev/null || skip "no fio"
cd "$TMP" || exit 1
# flags TOOL...: the O_*SYNC flags of the last open of file f
flags() {
	strace -f -e trace=openat -o st.txt "$@" >out.json 2>err.txt
	grep '"f"\|/f"' st.txt | grep -v O_WRONLY | tail -1 | grep -o 'O_D\?SYNC' | head -1
}
for s in sync 1 dsync none 0; do
	opts=(--name=w --filename=f --rw=write --bs=4k --size=64k --sync=$s --output-format=json)
	i=$(flags "$IODIG" run --no-probes --no-save "${opts[@]}")
	iw=$(jqr '.jobs[0].write.total_ios' out.json)
	f=$(flags fio "${opts[@]}")
	fw=$(sed -n '/^{/,$p' out.json | jq -r '.jobs[0].write.total_ios')
	check "sync=$s: iodig opens with '${i:-none}', fio with '${f:-none}'" [ "$i" = "$f" ]
	check "sync=$s: $iw writes, fio $fw" [ "$iw" = "$fw" ]
done
check "sync=1 is O_SYNC" [ "$(flags "$IODIG" run --no-probes --no-save --name=w \
	--filename=f --rw=write --bs=4k --size=64k --sync=1)" = O_SYNC ]
done_testing
