#!/bin/bash
# uid and gid against fio 3.33: the job's worker runs as that user and
# group, so a file it creates (create_on_open=1) is owned by them, and so
# is its exec_prerun command's output, which prints its IDs; for worker
# processes and threads alike.  A file laid out before the jobs start (by
# root, as fio's create_serialize does) cannot be opened for writing by
# the job: both fail it with EACCES, exit status 1.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "needs fio"
U=65534 G=65533
D=$TMP/d
chmod 711 "$TMP"  # the job, not root, must reach D
mkdir "$D" && chmod 777 "$D" && cd "$D" || exit 1

# run TOOL NAME ARGS...: a 1 MiB write job NAME in D as uid U, gid G
run() {
	local tool=$1 name=$2; shift 2
	if [ "$tool" = iodig ]; then
		"$IODIG" run --no-probes --no-save --name="$name" --directory="$D" --size=1m \
			--rw=write --uid=$U --gid=$G "$@" >"$TMP/out" 2>"$TMP/err"
	else
		fio --name="$name" --directory="$D" --size=1m --rw=write --uid=$U --gid=$G \
			"$@" >"$TMP/out" 2>"$TMP/err"
	fi
	RC=$?
}
owner() { stat -c %u:%g "$1" 2>/dev/null; }

for tool in fio iodig; do
	for thread in 0 1; do
		n=$tool$thread
		run $tool "$n" --create_on_open=1 --thread=$thread \
			--exec_prerun='echo $(id -u):$(id -g)'
		check "$tool, thread=$thread: exit status $RC" [ "$RC" = 0 ]
		check "$tool, thread=$thread: the job's file is $U:$G's: $(owner "$n.0.0")" \
			[ "$(owner "$n.0.0")" = "$U:$G" ]
		check "$tool, thread=$thread: the prerun command ran as $(cat "$n.prerun.txt")" \
			[ "$(cat "$n.prerun.txt")" = "$U:$G" ]
		check "$tool, thread=$thread: its output file is $U:$G's: $(owner "$n.prerun.txt")" \
			[ "$(owner "$n.prerun.txt")" = "$U:$G" ]
	done
	run $tool "$tool.laid" --thread=0
	check "$tool: a file root laid out: exit status $RC" [ "$RC" = 1 ]
	check "$tool: a file root laid out: permission denied" grep -qi "permission denied" \
		"$TMP/out" "$TMP/err"
	check "$tool: a file root laid out is root's: $(owner "$tool.laid.0.0")" \
		[ "$(owner "$tool.laid.0.0")" = 0:0 ]
done
refused "uid=nobody" "uid.*nobody.*not a user or group ID" --uid=nobody
refused "gid=4294967296" "gid.*out of range" --gid=4294967296
done_testing
