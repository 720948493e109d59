#!/bin/bash
# fsync=, fdatasync=, sync_file_range=, end_fsync= and fsync_on_close=
# with several files as fio 3.33: a sync due takes the next file from the
# file service as an I/O would (fio's get_next_file before fill_io_u sees
# the sync), not the last write's file, and takes its turn; end_fsync and
# fsync_on_close sync each file once.  Both tools run the same write job
# on tmpfs under strace: the sync calls, in order, with the file each
# went to, and the JSON writes and bytes must be fio's.  Random file
# choice is not compared (fio's generator).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v strace >/dev/null || skip "needs strace"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1

# run DIR TOOL...: TOOL runs the job in DIR under strace; DIR.syncs has
# its syncs in order ("fsync j.0.1" a line), DIR.ios its writes and bytes
run() {
	local dir=$1; shift
	rm -rf "$dir" && mkdir "$dir"
	# shellcheck disable=SC2086 # OPTS are words
	(cd "$dir" && strace -f -qq -y -o ../"$dir.trace" \
		-e trace=fsync,fdatasync,sync_file_range "$@" --name=j --bs=4k \
		--rw=write --output-format=json $OPTS >../"$dir.json" 2>../"$dir.err") ||
		fail "$1 '$OPTS': $(head -c 200 "$dir.err")"
	sed -nE 's#^[0-9]+ +(fsync|fdatasync|sync_file_range)\([0-9]+<[^>]*/(j\.[0-9]+\.[0-9]+)>.*#\1 \2#p' \
		"$dir.trace" >"$dir.syncs"
	jqr '[.jobs[] | .write.total_ios, .write.io_bytes] | join(" ")' "$dir.json" >"$dir.ios" 2>/dev/null
}
while read -r OPTS; do
	run fio fio
	run iodig "$IODIG" run --no-probes --no-save
	check "'$OPTS': fio synced" test -s fio.syncs
	check "'$OPTS': writes and bytes iodig $(cat iodig.ios), fio $(cat fio.ios)" \
		[ "$(cat iodig.ios)" = "$(cat fio.ios)" ]
	check "'$OPTS': syncs iodig [$(echo $(uniq -c iodig.syncs))], fio [$(echo $(uniq -c fio.syncs))]" \
		cmp -s iodig.syncs fio.syncs
done <<'OPTS'
--nrfiles=3 --size=96k --fsync=4
--nrfiles=3 --size=96k --fsync=2
--nrfiles=3 --size=96k --fdatasync=3 --end_fsync=1
--nrfiles=3 --size=96k --fsync=2 --fsync_on_close=1
--nrfiles=3 --size=96k --fsync=3 --file_service_type=roundrobin:2
--nrfiles=2 --filesize=16k-64k --fsync=3
--nrfiles=3 --size=96k --sync_file_range=write:3
--nrfiles=3 --size=96k --fdatasync=3 --ioengine=libaio --iodepth=4
--nrfiles=3 --size=96k --end_fsync=1
--nrfiles=3 --size=96k --fsync_on_close=1
OPTS
done_testing
