#!/bin/bash
# filesize=LOW-HIGH as fio 3.33: each file of each clone gets a random
# size in the range (of LOW-HIGH/LOW2-HIGH2, the first value to the last),
# the same sizes fio draws.  Both tools run the same job in directories of
# their own on tmpfs: the files created, per file, and each clone's bytes
# done must equal fio's (clones sharing filename= files share the first
# clone's sizes, as in fio).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1
# run DIR OPTS TOOL...: TOOL runs a job of OPTS in DIR; the sizes of the
# files it made in DIR.sizes ("name bytes" a line), each clone's bytes
# read and written in DIR.read
run() {
	local dir=$1 opts=$2; shift 2
	rm -rf "$dir" && mkdir "$dir"
	# shellcheck disable=SC2086 # OPTS are words
	"$@" --name=j --directory="$dir" --bs=4k --output-format=json $opts \
		>"$dir.json" 2>"$dir.err" || fail "$1 failed: $(head -c 200 "$dir.err")"
	(cd "$dir" && stat -c '%n %s' * 2>/dev/null | sort) >"$dir.sizes"
	jqr '[.jobs[] | .read.io_bytes + .write.io_bytes] | join(" ")' "$dir.json" >"$dir.read" 2>/dev/null
}
while read -r opts; do
	run fio "$opts" fio
	run iodig "$opts" "$IODIG" run --no-probes --no-save
	check "'$opts': fio made files" [ -s fio.sizes ]
	check "'$opts': file sizes iodig [$(echo $(cat iodig.sizes))], fio [$(echo $(cat fio.sizes))]" \
		cmp -s iodig.sizes fio.sizes
	check "'$opts': bytes done per clone iodig $(cat iodig.read), fio $(cat fio.read)" \
		[ "$(cat iodig.read)" = "$(cat fio.read)" ]
done <<'OPTS'
--nrfiles=4 --filesize=64k-1m --rw=read
--nrfiles=4 --filesize=64k-1m --rw=read --numjobs=2
--nrfiles=4 --filesize=16-8k/64k-1m --rw=randread --size=1m
--nrfiles=3 --filesize=8k-256k --rw=randwrite --randseed=42 --numjobs=2
--filename=a:b --filesize=64k-1m --rw=read --numjobs=2
OPTS
# the sizes fio 3.33 gives the first clone's four files of 64k-1m
run iodig "--nrfiles=4 --filesize=64k-1m --rw=read" "$IODIG" run --no-probes --no-save
check "64k-1m: iodig's sizes are fio 3.33's: $(echo $(cut -d' ' -f2 iodig.sizes))" \
	[ "$(echo $(cut -d' ' -f2 iodig.sizes))" = "204800 368640 356352 942080" ]
# fio draws nonsense from a reversed range; iodig refuses it
refused "filesize=1m-64k" "low size is above its high one" \
	--rw=read --directory="$TMP" --nrfiles=2 --filesize=1m-64k
done_testing
