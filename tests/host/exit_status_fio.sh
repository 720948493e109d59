#!/bin/bash
# The exit status of a run where several jobs fail, against fio 3.33: fio
# counts each job that ended with an error (backend.c adds one per reaped
# job with td->error), so 1, 2 and 3 failed jobs exit 1, 2 and 3; iodig
# exits the same, and its JSON report still lists every job with fio's
# error per job and the I/O of the job that ran.  A job fails here by
# naming a missing file with no size, which fio refuses alone (err=22).
# iodig fio and iodig through a link named fio exit as fio there too.
# Usage errors (an unknown option, a bad value, on the command line or in
# a job file, a missing job file; run and --parse-only): fio exits 1, and
# so do iodig fio and the link; iodig run exits 2 (docs/usage.md), also
# for a run of a file of [global] only, whose --parse-only passes as fio's.
# Clones fio's setup_files does not set up (a start with less than a
# block of the file left, or past filesize) fail alone as fio's (below).
# timeout: 150
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1
mkdir -p "$TMP/bin"
ln -s "$IODIG" "$TMP/bin/fio"
LINK=$TMP/bin/fio

# jobfile N: a job that reads 64 KiB, then N jobs on missing files
jobfile() {
	printf '[global]\ndirectory=%s\nbs=4k\nrw=read\n[ok]\nsize=64k\n' "$TMP/$2"
	for i in $(seq "$1"); do printf '[bad%s]\nfilename=missing%s\n' "$i" "$i"; done
}

for n in 1 2 3; do
	for tool in fio iodig; do
		rm -rf "${TMP:?}/$tool"; mkdir "$TMP/$tool"
		jobfile "$n" "$tool" >"$TMP/$tool.fio"
	done
	fio --output-format=json "$TMP/fio.fio" >"$TMP/fio.out" 2>/dev/null
	frc=$?
	"$IODIG" run --no-probes --no-save --output-format=json "$TMP/iodig.fio" \
		>"$TMP/iodig.json" 2>"$TMP/iodig.err"
	irc=$?
	sed -n '/^{/,$p' "$TMP/fio.out" >"$TMP/fio.json"
	check "$n failed: fio exits $n (got $frc)" [ "$frc" = "$n" ]
	check "$n failed: iodig exits as fio ($frc, got $irc)" [ "$irc" = "$frc" ]
	for cmd in "$IODIG fio" "$LINK"; do
		rm -rf "${TMP:?}/iodig"; mkdir "$TMP/iodig"
		$cmd --output-format=json "$TMP/iodig.fio" >/dev/null 2>"$TMP/iodig.err"
		drc=$?
		check "$n failed: $cmd exits as fio ($frc, got $drc)" [ "$drc" = "$frc" ]
	done
	want=$(jqr -c '[.jobs[] | [.jobname, .error]] | sort' "$TMP/fio.json")
	got=$(jqr -c '[.jobs[] | [.jobname, .error]] | sort' "$TMP/iodig.json")
	check "$n failed: the jobs and their errors as fio's ($want, got $got)" \
		[ "$got" = "$want" ]
	want=$(jqr '.jobs[] | select(.jobname == "ok") | .read.io_bytes' "$TMP/fio.json")
	got=$(jqr '.jobs[] | select(.jobname == "ok") | .read.io_bytes' "$TMP/iodig.json")
	check "$n failed: job ok read $want bytes as fio's (got $got)" [ "$got" = "$want" ]
done

# Clones fio's setup_files does not set up, each alone, as the files are
# when its turn comes (clone 0 first, then the last down to 1; the jobs
# in order): one that offset_increment starts with less than a block of
# its file left (filesize=, or no size on a file there) gets "blocksize
# is larger than data set range"; one whose start is past the size
# filesize= gives its file (a file not there, or not of a size within
# filesize=), or past the end of a file there without a size, gets "you
# need to specify valid offset=".  Either does no I/O, makes no file of
# its own and shows error 0 in the JSON, but fio's exit status counts it.
# A clone past the end of a file already as large as filesize= allows
# (an earlier clone or job laid it out, or it was there) does no I/O and
# counts nothing (fio's io_size wraps); with ioengine=null no file is
# ever that large (fio's real_file_size is -1).  FILE: new, old (a 64k file f),
# big (a 128k f), clone1 (a 64k x.1.0), jobs (OPTS is a job file).
mkdir -p "$TMP/jobs"
printf '[global]\nbs=4k\nfilename=f\n[a]\nfilesize=64k\nrw=write\n[b]\nfilesize=64k\noffset=100k\nrw=read\n[c]\nfilesize=32k\noffset=48k\nrw=read\n[d]\nfilesize=32k-128k\noffset=100k\nrw=read\nstonewall\n[e]\nfilesize=64k\noffset_increment=40k\nnumjobs=3\nrw=write\n' \
	>"$TMP/jobs/several.fio"
printf '[global]\nbs=4k\nfilename=f\nfilesize=64k\n[a]\noffset=128k\nrw=write\n[b]\nrw=write\n[c]\noffset=100k\nrw=read\n' \
	>"$TMP/jobs/order.fio"
# clone_cases WHY: runs each "FILE OPTS" line of stdin with both tools
clone_cases() {
	local why=$1 FILE OPTS args
	while read -r FILE OPTS; do
		for tool in fio iodig; do
			rm -rf "${TMP:?}/$tool" && mkdir "$TMP/$tool"
			case $FILE in
			old) head -c 65536 /dev/urandom >"$TMP/$tool/f" ;;
			big) head -c 131072 /dev/urandom >"$TMP/$tool/f" ;;
			clone1) head -c 65536 /dev/urandom >"$TMP/$tool/x.1.0" ;;
			esac
		done
		# shellcheck disable=SC2206 # OPTS are words
		if [ "$FILE" = jobs ]; then args=($OPTS); else args=(--name=x --bs=4k $OPTS); fi
		(cd "$TMP/fio" && fio --output-format=json "${args[@]}" >"$TMP/fio.out" 2>"$TMP/fio.err")
		frc=$?
		(cd "$TMP/iodig" && "$IODIG" run --no-probes --no-save --output-format=json \
			"${args[@]}" >"$TMP/iodig.json" 2>"$TMP/iodig.err")
		irc=$?
		sed -n '/^{/,$p' "$TMP/fio.out" >"$TMP/fio.json"
		check "'$OPTS': fio says '$why'" grep -q "$why" "$TMP/fio.err" "$TMP/fio.out"
		check "'$OPTS': iodig exits as fio ($frc, got $irc: $(head -c 200 "$TMP/iodig.err"))" \
			[ "$irc" = "$frc" ]
		[ "$why" = "cache invalidation" ] || check "'$OPTS': iodig names fio's reason ($(head -c 200 "$TMP/iodig.err"))" \
			grep -q "$why" "$TMP/iodig.err"
		want=$(jqr -c '[.jobs[] | [.jobname, .error, .read.io_bytes + .write.io_bytes]]' "$TMP/fio.json")
		got=$(jqr -c '[.jobs[] | [.jobname, .error, .read.io_bytes + .write.io_bytes]]' "$TMP/iodig.json")
		check "'$OPTS': each clone's error and bytes as fio's ($want, got $got)" [ "$got" = "$want" ]
		want=$(cd "$TMP/fio" && stat -c '%n %s' * | sort | tr '\n' ' ')
		got=$(cd "$TMP/iodig" && stat -c '%n %s' * | sort | tr '\n' ' ')
		check "'$OPTS': the files fio made ($want, got $got)" [ "$got" = "$want" ]
	done
}
clone_cases "blocksize is larger than data set range" <<'OPTS'
new --filename=f --filesize=64k --offset_increment=50% --numjobs=3 --rw=write
new --filename=f --filesize=64k --offset_increment=50% --numjobs=5 --rw=write
new --filesize=64k --offset=32k --offset_increment=32k --numjobs=2 --rw=read
new --filesize=64k --offset_increment=32k --numjobs=3 --rw=write --group_reporting
old --filename=f --offset_increment=50% --numjobs=3 --rw=read
old --filename=f --offset_increment=62k --numjobs=2 --rw=randread
new --filename=f --filesize=64k --offset=62k --rw=write
old --filename=f --offset=64k --rw=read
new --filesize=64k --offset=62k --rw=write --ioengine=null
OPTS
clone_cases "you need to specify valid offset=" <<'OPTS'
new --filename=f --filesize=64k --offset=128k --rw=write
new --filename=f --filesize=64k --offset=128k --numjobs=2 --rw=read
new --filesize=16k --offset=20k --rw=read
big --filename=f --filesize=64k --offset=128k --rw=read
old --filename=f --filesize=32k --offset=48k --rw=write
new --filesize=64k --offset_increment=128k --numjobs=3 --rw=read
new --filesize=64k --offset=32k --offset_increment=40k --numjobs=2 --rw=randwrite
new --nrfiles=2 --filesize=64k --offset_increment=128k --numjobs=2 --rw=write
clone1 --filesize=64k --offset_increment=128k --numjobs=3 --rw=read
new --filesize=32k-64k --offset=48k --rw=write
new --filesize=32k-64k --offset_increment=100k --numjobs=2 --rw=write
old --filename=f --offset=100k --rw=read
old --filename=f --offset_increment=100k --numjobs=2 --rw=read
old --filename=f --filesize=64k --offset=8k --offset_increment=64k --numjobs=2 --rw=read --ioengine=null
jobs ../jobs/several.fio
jobs ../jobs/order.fio
OPTS
# past the end of a file as large as filesize= allows: fio's
# __file_invalidate_cache is handed the wrapped length and says so
clone_cases "cache invalidation" <<'OPTS'
new --filename=f --filesize=64k --offset_increment=128k --numjobs=2 --rw=write
new --filename=f --filesize=64k --offset_increment=48k --numjobs=3 --rw=randwrite
old --filename=f --filesize=64k --offset=128k --rw=read
new --filename=f:g --filesize=64k --offset_increment=100k --numjobs=2 --rw=write
new --filename=f --filesize=32k-64k --offset_increment=100k --numjobs=2 --rw=write
clone1 --filesize=64k --offset_increment=128k --numjobs=2 --rw=read
OPTS

# Usage errors: fio 1, the drop-in as fio, iodig run 2
printf '[j]\nrw=read\nsize=64k\nfilename=%s/u.data\n' "$TMP" >u.fio
printf '[j]\nrw=read\nsize=64k\nfilename=%s/u.data\nbogus=1\n' "$TMP" >unknown.fio
printf '[j]\nrw=read\nsize=64k\nfilename=%s/u.data\nbs=zz\n' "$TMP" >badvalue.fio
for args in "--bogus u.fio" "--bs=zz u.fio" "--name=x --bogus=1 --size=64k" \
	    "--name=x --rw=reed --size=64k" "unknown.fio" "badvalue.fio" "missing.fio"; do
	for po in "" "--parse-only"; do
		# shellcheck disable=SC2086
		fio $po $args >/dev/null 2>&1
		frc=$?
		check "fio $po $args: exits 1 (got $frc)" [ "$frc" = 1 ]
		for cmd in "$IODIG fio" "$LINK"; do
			# shellcheck disable=SC2086
			$cmd $po $args >/dev/null 2>"$TMP/iodig.err"
			drc=$?
			check "$cmd $po $args: exits as fio ($frc, got $drc: $(head -c 150 "$TMP/iodig.err"))" \
				[ "$drc" = "$frc" ]
		done
		# shellcheck disable=SC2086
		"$IODIG" run --no-probes --no-save $po $args >/dev/null 2>"$TMP/iodig.err"
		rrc=$?
		check "iodig run $po $args: exits 2, iodig's usage status (got $rrc: $(head -c 150 "$TMP/iodig.err"))" \
			[ "$rrc" = 2 ]
	done
done
# A file of [global] only: fio's --parse-only passes it, and iodig run's
# does; a run of it has no job, a usage error for iodig run
printf '[global]\nrw=read\nsize=64k\n' >global.fio
fio --parse-only global.fio >/dev/null 2>&1
frc=$?
"$IODIG" run --parse-only global.fio >/dev/null 2>"$TMP/iodig.err"
rrc=$?
check "iodig run --parse-only of [global] only: exits as fio ($frc, got $rrc)" [ "$rrc" = "$frc" ]
"$IODIG" run --no-probes --no-save global.fio >/dev/null 2>"$TMP/iodig.err"
rrc=$?
check "iodig run of [global] only: exits 2, no jobs defined (got $rrc: $(head -c 150 "$TMP/iodig.err"))" \
	grep -q "^iodig: global.fio: no jobs defined" "$TMP/iodig.err"
check "iodig run of [global] only: exit status 2 (got $rrc)" [ "$rrc" = 2 ]
done_testing
