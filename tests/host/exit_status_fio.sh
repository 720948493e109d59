#!/bin/bash
# The exit status of a run where several jobs fail, against fio 3.33: fio
# counts each job that ended with an error (backend.c adds one per reaped
# job with td->error), so 1, 2 and 3 failed jobs exit 1, 2 and 3; iodig
# exits the same, and its JSON report still lists every job with fio's
# error per job and the I/O of the job that ran.  A job fails here by
# naming a missing file with no size, which fio refuses alone (err=22).
# timeout: 60
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1

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
	want=$(jqr -c '[.jobs[] | [.jobname, .error]] | sort' "$TMP/fio.json")
	got=$(jqr -c '[.jobs[] | [.jobname, .error]] | sort' "$TMP/iodig.json")
	check "$n failed: the jobs and their errors as fio's ($want, got $got)" \
		[ "$got" = "$want" ]
	want=$(jqr '.jobs[] | select(.jobname == "ok") | .read.io_bytes' "$TMP/fio.json")
	got=$(jqr '.jobs[] | select(.jobname == "ok") | .read.io_bytes' "$TMP/iodig.json")
	check "$n failed: job ok read $want bytes as fio's (got $got)" [ "$got" = "$want" ]
done
done_testing
