#!/bin/bash
# The region and amount of a sized job as fio 3.33: filesize= with offset=
# (each file filesize bytes, the I/O from offset to its end; with nrfiles,
# filesize=LOW-HIGH, size=), io_size past size or the files' total (the
# I/O wraps, each new pass from the first file as fio reopens them; a
# size= past the files' total is lowered to it first), and
# loops= (the loops share io_size times loops, each going on where the
# last stopped; with io_size past the region each loop is one pass and
# the last goes on while all of them fall short of io_size).  Both tools
# run the same job in empty directories of their own on tmpfs with
# write_iolog: the files they made, the I/Os and bytes of the JSON report,
# and the I/O lines of the logs (file, direction, offset, length) in
# order must be fio's.  Random file choice and random offsets over
# several files are not compared here (fio's generators per file).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1

# run DIR TOOL...: TOOL runs the job of OPTS in DIR; DIR.sizes has the
# files it made ("name bytes" a line), DIR.ios each direction's I/Os and
# bytes, DIR.log the log's I/O lines without times
run() {
	local dir=$1; shift
	rm -rf "$dir" && mkdir "$dir"
	# shellcheck disable=SC2086 # OPTS are words
	(cd "$dir" && "$@" --name=j --bs=4k --output-format=json --write_iolog=log $OPTS \
		>../"$dir.json" 2>../"$dir.err") || fail "$1 '$OPTS': $(head -c 200 "$dir.err")"
	(cd "$dir" && stat -c '%n %s' j.* 2>/dev/null | sort) >"$dir.sizes"
	jqr '[.jobs[] | .read.total_ios, .read.io_bytes, .write.total_ios,
	      .write.io_bytes] | join(" ")' "$dir.json" >"$dir.ios" 2>/dev/null
	# each clone's (fio lists clones in no fixed order)
	jqr '.jobs[] | [.read.io_bytes, .write.io_bytes] | join("/")' "$dir.json" 2>/dev/null |
		sort | tr '\n' ' ' >"$dir.clones"
	sed -E '2,$s/^[0-9]+ //; s#^\./##' "$dir/log" 2>/dev/null |
		grep -E '^[^ ]+ (read|write) ' >"$dir.log"
}
# same A B: B (fio's) is not empty and A equals it
same() { [ -s "$2" ] && cmp -s "$1" "$2"; }
while read -r OPTS; do
	[ -z "$OPTS" ] || [ "${OPTS:0:1}" = "#" ] && continue
	run fio fio
	run iodig "$IODIG" run --no-probes --no-save
	check "'$OPTS': fio made files and did I/O" test -s fio.sizes -a -s fio.log
	check "'$OPTS': files iodig [$(echo $(cat iodig.sizes))], fio [$(echo $(cat fio.sizes))]" \
		cmp -s iodig.sizes fio.sizes
	check "'$OPTS': I/Os and bytes iodig $(cat iodig.ios), fio $(cat fio.ios)" \
		[ "$(cat iodig.ios)" = "$(cat fio.ios)" ]
	check "'$OPTS': the I/Os in order ($(wc -l <fio.log) in fio's log): $(diff fio.log iodig.log | head -3 | tr '\n' ' ')" \
		cmp -s iodig.log fio.log
done <<'OPTS'
# filesize= with offset=: the file is filesize, the I/O from offset on
--rw=read --nrfiles=3 --filesize=64k --offset=16k
--rw=write --filesize=64k --offset=16k
--rw=read --nrfiles=3 --filesize=32k-128k --offset=16k
--rw=read --nrfiles=2 --filesize=64k --offset=16k --size=200k
--rw=read --nrfiles=3 --filesize=64k --offset=16k --size=96k
# io_size past the files: wraps, each pass from the first file
--rw=read --nrfiles=3 --size=96k --io_size=200k
--rw=write --nrfiles=3 --size=96k --io_size=200k --ioengine=libaio --iodepth=4
--rw=read --nrfiles=3 --filesize=16k-64k --io_size=300k
--rw=read --nrfiles=3 --size=96k --io_size=200k --file_service_type=roundrobin:3
--rw=read --nrfiles=2 --filesize=32k --io_size=100k
--rw=read --nrfiles=2 --filesize=64k --offset=16k --io_size=200k
--rw=randread --size=64k --io_size=200k
# loops=: one budget of io_size times loops, a loop going on from the last
--rw=read --size=64k --loops=3 --io_size=40k
--rw=write --size=64k --loops=3 --io_size=24k
--rw=randread --size=64k --loops=2 --io_size=40k
--rw=read --size=64k --loops=2 --io_size=40k --ioengine=libaio --iodepth=4
--rw=read --nrfiles=3 --size=96k --loops=2 --io_size=40k
--rw=read --nrfiles=3 --filesize=16k-64k --loops=2 --io_size=50k
# loops= with io_size past the region: a pass a loop, then to io_size
--rw=read --size=64k --loops=2 --io_size=200k
--rw=read --size=64k --loops=3 --io_size=100k
--rw=read --nrfiles=3 --size=96k --loops=2 --io_size=120k
--rw=write --nrfiles=3 --size=96k --loops=2 --io_size=300k
--rw=read --size=64k --loops=2 --io_size=200k --ioengine=libaio --iodepth=4
--rw=rw --size=64k --loops=2 --io_size=200k --ioengine=libaio --iodepth=4
# size= past the files' total of filesize=: fio lowers size to it, so an
# io_size as large as size wraps, and one above the lowered size does too
--rw=write --nrfiles=2 --filesize=16k --size=48k --io_size=48k
--rw=read --nrfiles=2 --filesize=16k --size=48k --io_size=40k --loops=2
--rw=read --nrfiles=2 --filesize=16k --size=24k --io_size=28k
--rw=write --nrfiles=2 --filesize=16k --size=48k
OPTS
# offset_increment with filesize=: each clone's I/O from its own start to
# the file's end (the clones' write_iologs share one file: not compared)
while read -r OPTS; do
	run fio fio
	run iodig "$IODIG" run --no-probes --no-save
	check "'$OPTS': files iodig [$(echo $(cat iodig.sizes))], fio [$(echo $(cat fio.sizes))]" \
		cmp -s iodig.sizes fio.sizes
	check "'$OPTS': each clone's bytes iodig [$(cat iodig.clones)], fio [$(cat fio.clones)]" \
		same iodig.clones fio.clones
done <<'OPTS'
--rw=read --filesize=64k --offset=16k --offset_increment=8k --numjobs=2
--rw=read --filesize=64k --offset_increment=16k --numjobs=2
--rw=write --nrfiles=2 --filesize=64k --offset=16k --offset_increment=8k --numjobs=3
OPTS
# an offset past filesize fails its clone alone: exit_status_fio.sh
done_testing
