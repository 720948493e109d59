# sched's switch-in stacks are whole although each walk asks only for the depth of the thread's last stack: with every switch sampled, on psync qd1, libaio qd32 and io_uring qd32 jobs (their threads block at points of different depths in turn), every folded stack begins at an entry frame (a syscall's or an interrupt's entry, or ret_from_fork), none cut short, and the deeper and the shallower stacks both appear. timeout: 120
source tests/host/lib.sh
need_root
make_loop 256 || skip "no loop device"

S=.iodig.kernel.sched
q() { jqr "$1" "$TMP/out.json"; }
# The outermost frame of any whole stack of a workload thread.
ENTRY='^(entry_SYSCALL|entry_INT80|entry_SYSENTER|asm_|ret_from_fork)'

# A queued job reaps all its depth at once: waiting for one completion,
# a thread on a machine whose loop worker keeps ahead of it finds one
# ready almost every time and seldom blocks (51 switches in 2 s, seen).
for spec in "psync 1" "libaio 32" "io_uring 32"; do
	set -- $spec
	job="$1 qd$2"
	IODIG_SCHED_STACK_PERIOD=1 "$IODIG" run --no-progress --no-save --output-format=json \
		--probes=sched --name=whole --filename="$LOOP" --rw=randread --bs=4k --direct=1 \
		--ioengine="$1" --iodepth="$2" --iodepth_batch_complete_min="$2" \
		--runtime=2 --time_based \
		>"$TMP/out.json" 2>"$TMP/err" || { fail "$job: exit $? ($(head -c 200 "$TMP/err"))"; continue; }
	mech=$(q "$S.mechanism // \"\"")
	[ "$mech" = tp_btf ] || skip "sched runs with $mech: stacks are taken at switch-out there"
	sampled=$(q "$S.sampled_switches")
	drops=$(q "$S.drops.stack")
	q "$S.stacks[] | \"\\(.count) \\(.stack)\"" >"$TMP/stacks"
	echo "$job: $sampled stacks taken, $drops failed; the most frequent:"
	head -5 "$TMP/stacks"
	check "$job: >= 500 stacks taken ($sampled)" [ "$sampled" -ge 500 ]
	check "$job: no walk failed ($drops)" [ "$drops" = 0 ]
	cut=$(awk '{ print $2 }' "$TMP/stacks" | grep -Ev "$ENTRY" | head -3)
	check "$job: every stack begins at an entry frame (not: $cut)" [ -z "$cut" ]
	if [ "$1" != psync ]; then
		# Their threads wait in the reaping call or on the way back to
		# user space: stacks of two depths, walked in turn.
		depths=$(awk '$1 >= 10 { print gsub(/;/, ";", $2) }' "$TMP/stacks" | sort -u | wc -l)
		check "$job: frequent stacks of >= 2 depths ($depths)" [ "$depths" -ge 2 ]
	fi
done
done_testing
