#!/bin/bash
# exec_prerun and exec_postrun against fio 3.33, each tool run in a
# directory of its own: the commands' output lands in j.prerun.txt and
# j.postrun.txt there; the prerun command runs before the job's first
# I/O and the postrun one after its last, seen by each command reading
# the loop device's read counter (/sys/block/X/stat), which moves by the
# job's 1024 direct reads between them; fio's quirk of redirecting only
# the last command of a list is kept; a failing prerun command skips the
# job's I/O and its postrun command without an error (exit status 0), a
# failing postrun command changes nothing.
# timeout: 120
. "$(dirname "$0")/lib.sh"
fio_loop_test 64
DEV=$(basename "$LOOP")
reads() { awk '{print $1}' "/sys/block/$DEV/stat"; }
STAT="cat /sys/block/$DEV/stat"

# run TOOL ARGS...: the job (4 MiB of direct 4k reads) in $TMP/TOOL,
# exit status in RC, the device's reads during the run in READS
run() {
	local tool=$1 before; shift
	rm -rf "${TMP:?}/$tool"; mkdir "$TMP/$tool" && cd "$TMP/$tool" || exit 1
	before=$(reads)
	if [ "$tool" = iodig ]; then
		"$IODIG" run --no-probes --no-save --name=j --filename="$LOOP" --rw=read \
			--bs=4k --size=4m --direct=1 "$@" >out 2>err
	else
		fio --name=j --filename="$LOOP" --rw=read --bs=4k --size=4m --direct=1 \
			"$@" >out 2>err
	fi
	RC=$?
	READS=$(($(reads) - before))
	cd "$TMP" || exit 1
}
files() { (cd "$TMP/$1" && ls j.* 2>/dev/null | paste -sd ' ' -); }

for tool in fio iodig; do
	run $tool --exec_prerun="$STAT" --exec_postrun="$STAT"
	check "$tool: exit status $RC" [ "$RC" = 0 ]
	check "$tool: made j.postrun.txt j.prerun.txt: $(files $tool)" \
		[ "$(files $tool)" = "j.postrun.txt j.prerun.txt" ]
	pre=$(awk '{print $1}' "$TMP/$tool/j.prerun.txt")
	post=$(awk '{print $1}' "$TMP/$tool/j.postrun.txt")
	check "$tool: the device read $READS times in the run, 1024 of them between the commands ($pre, $post)" \
		[ "$((post - pre))" = 1024 -a "$READS" = 1024 ]
done

# fio writes "CMD > j.prerun.txt 2>&1" for sh: a list's last command alone
# goes to the file
for tool in fio iodig; do
	run $tool --exec_prerun='echo first; echo second' --exec_postrun='echo third; echo fourth >&2'
	check "$tool: j.prerun.txt holds the last command's output: $(cat "$TMP/$tool/j.prerun.txt")" \
		[ "$(cat "$TMP/$tool/j.prerun.txt")" = second ]
	check "$tool: j.postrun.txt holds its stderr too: $(cat "$TMP/$tool/j.postrun.txt")" \
		[ "$(cat "$TMP/$tool/j.postrun.txt")" = fourth ]
	check "$tool: the first command's output is on stdout" grep -qx first "$TMP/$tool/out"
done

for tool in fio iodig; do
	run $tool --exec_prerun='exit 3' --exec_postrun="$STAT"
	check "$tool: a failing prerun: exit status $RC" [ "$RC" = 0 ]
	check "$tool: a failing prerun: no I/O ($READS reads)" [ "$READS" = 0 ]
	check "$tool: a failing prerun: no postrun ($(files $tool))" [ "$(files $tool)" = j.prerun.txt ]
	[ $tool = iodig ] && check "iodig says why the job did no I/O: $(cat "$TMP/iodig/err")" \
		grep -q "exec_prerun exited with status 3" "$TMP/iodig/err"
	run $tool --exec_postrun='exit 5'
	check "$tool: a failing postrun: exit status $RC, $READS reads" [ "$RC" = 0 -a "$READS" = 1024 ]
done
done_testing
