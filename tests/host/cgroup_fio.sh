#!/bin/bash
# cgroup, cgroup_nodelete and cgroup_weight against fio 3.33 on cgroup v1's
# blkio hierarchy: the job's I/O is the group's, by the blkio controller's
# own count (blkio.throttle.io_serviced, kept once the group has a
# throttle rule: here one no job reaches) for worker processes and threads;
# a group the run made is removed when it ends, and kept with
# cgroup_nodelete=1 or when it was there before; cgroup_weight fails the
# job in both, as this kernel's blkio has no blkio.weight, and leaves no
# group behind.
# timeout: 180
. "$(dirname "$0")/lib.sh"
fio_loop_test 64
MNT=$(awk '$3 == "cgroup" && $4 ~ /blkio/ { print $2; exit }' /proc/mounts)
[ -n "$MNT" ] || skip "no cgroup v1 blkio hierarchy"
awk '$3 == "cgroup2" { found = 1 } END { exit !found }' /proc/mounts &&
	[ "$(awk '$3 == "cgroup" && $4 ~ /blkio/ { print NR; exit }' /proc/mounts)" -gt \
	  "$(awk '$3 == "cgroup2" { print NR; exit }' /proc/mounts)" ] &&
	skip "cgroup2 is listed before blkio: fio and iodig would use cgroup2"
MAJMIN=$(lsblk -dno MAJ:MIN "$LOOP" | tr -d ' ')
NAME=iodig-test-cg.$$
trap 'for g in "$MNT/$NAME".*; do [ -d "$g" ] && rmdir "$g"; done; cleanup' EXIT

# run TOOL GROUP ARGS...: 1024 direct 4k reads of the loop device in GROUP
run() {
	local tool=$1 group=$2; shift 2
	if [ "$tool" = iodig ]; then
		"$IODIG" run --no-probes --no-save --name=j --filename="$LOOP" --bs=4k --size=4m \
			--direct=1 --cgroup="$group" "$@" >"$TMP/out" 2>"$TMP/err"
	else
		fio --name=j --filename="$LOOP" --bs=4k --size=4m --direct=1 --cgroup="$group" \
			"$@" >"$TMP/out" 2>"$TMP/err"
	fi
	RC=$?
}
reads() { awk -v d="$MAJMIN" '$1 == d && $2 == "Read" { print $3 }' "$1/blkio.throttle.io_serviced"; }

for tool in fio iodig; do
	for thread in 0 1; do
		g=$NAME.$tool$thread
		mkdir "$MNT/$g" && echo "$MAJMIN 100000000" >"$MNT/$g/blkio.throttle.read_iops_device" ||
			skip "cannot make a blkio group with a throttle rule"
		before=$(reads "$MNT/$g")
		run $tool "$g" --thread=$thread
		check "$tool, thread=$thread: exit status $RC" [ "$RC" = 0 ]
		check "$tool, thread=$thread: the group's reads of $MAJMIN: $(($(reads "$MNT/$g") - before))" \
			[ "$(($(reads "$MNT/$g") - before))" = 1024 ]
		check "$tool, thread=$thread: a group there before stays" [ -d "$MNT/$g" ]
	done

	g=$NAME.$tool.made
	run $tool "$g" --time_based --runtime=2 &
	pid=$!
	# (cgroupfs files show size 0: read them)
	while kill -0 $pid 2>/dev/null && [ -z "$(cat "$MNT/$g/tasks" 2>/dev/null)" ]; do
		sleep 0.05
	done
	members=$(cat "$MNT/$g/tasks" 2>/dev/null | wc -l)
	wait $pid
	check "$tool: the group it made holds $members task (the job's) during the run" [ "$members" = 1 ]
	check "$tool: the group it made is gone after the run" [ ! -d "$MNT/$g" ]

	run $tool "$g" --cgroup_nodelete=1
	check "$tool: with cgroup_nodelete=1 the group stays" [ -d "$MNT/$g" ]
	rmdir "$MNT/$g"

	run $tool "$g" --cgroup_weight=500
	check "$tool: cgroup_weight=500 fails the job: exit status $RC" [ "$RC" = 1 ]
	check "$tool: and leaves no group" [ ! -d "$MNT/$g" ]
done
check "iodig says why: $(tail -n 1 "$TMP/err")" grep -q "cgroup_weight.*no blkio.weight" "$TMP/err"
refused "cgroup_weight=99" "cgroup_weight.*out of range" --cgroup_weight=99
done_testing
